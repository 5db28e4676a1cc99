//! Sides, unit types and unit identities.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::games::Seat;

/// A side in SQUARES. Blue sits at the top of the board (reserve BR).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The Union; reserve BR, seat North.
    Blue,
    /// The Confederacy; reserve GR, seat South.
    Gray,
}

impl Side {
    /// Both sides, Blue first.
    pub const BOTH: [Side; 2] = [Side::Blue, Side::Gray];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::Blue => Side::Gray,
            Side::Gray => Side::Blue,
        }
    }

    /// 0 for Blue, 1 for Gray.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side's name as players read it.
    pub fn name(self) -> &'static str {
        match self {
            Side::Blue => "Blue",
            Side::Gray => "Gray",
        }
    }

    /// The one-letter code used in position strings (`b`, `g`).
    pub fn letter(self) -> char {
        match self {
            Side::Blue => 'b',
            Side::Gray => 'g',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Side> for Seat {
    fn from(side: Side) -> Seat {
        match side {
            Side::Blue => Seat::North,
            Side::Gray => Seat::South,
        }
    }
}

impl From<Seat> for Side {
    fn from(seat: Seat) -> Side {
        match seat {
            Seat::North => Side::Blue,
            Seat::South => Side::Gray,
        }
    }
}

/// The three unit types of the Civil War game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// Nine per side.
    Infantry,
    /// Three per side.
    Artillery,
    /// Four per side.
    Cavalry,
}

impl UnitKind {
    /// All unit types, in the order of the army table.
    pub const ALL: [UnitKind; 3] = [UnitKind::Infantry, UnitKind::Artillery, UnitKind::Cavalry];

    /// The word used in orders (`INFANTRY`).
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Infantry => "INFANTRY",
            UnitKind::Artillery => "ARTILLERY",
            UnitKind::Cavalry => "CAVALRY",
        }
    }

    /// Reads an order's unit word (any case).
    pub fn from_word(word: &str) -> Option<UnitKind> {
        UnitKind::ALL
            .into_iter()
            .find(|k| k.word().eq_ignore_ascii_case(word))
    }

    /// The position-string letter for `side` (Blue upper case, Gray lower).
    pub fn letter(self, side: Side) -> char {
        let c = match self {
            UnitKind::Infantry => 'I',
            UnitKind::Artillery => 'A',
            UnitKind::Cavalry => 'C',
        };
        match side {
            Side::Blue => c,
            Side::Gray => c.to_ascii_lowercase(),
        }
    }

    /// Reads a position-string letter.
    pub fn from_letter(c: char) -> Option<(UnitKind, Side)> {
        let side = if c.is_ascii_uppercase() {
            Side::Blue
        } else {
            Side::Gray
        };
        let kind = match c.to_ascii_uppercase() {
            'I' => UnitKind::Infantry,
            'A' => UnitKind::Artillery,
            'C' => UnitKind::Cavalry,
            _ => return None,
        };
        Some((kind, side))
    }

    /// How many units of this type an army has.
    pub fn army_count(self) -> usize {
        ARMY.iter().filter(|&&k| k == self).count()
    }

    /// Lower-case name for sentences ("infantry").
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Artillery => "artillery",
            UnitKind::Cavalry => "cavalry",
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Units per side.
pub const ARMY_SIZE: usize = 16;

/// One army: the type of each of a side's 16 units, by unit number.
pub const ARMY: [UnitKind; ARMY_SIZE] = [
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Artillery,
    UnitKind::Artillery,
    UnitKind::Artillery,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
];

/// One particular unit (R7: units are individuals, also inside a reserve):
/// `side * 16 + number`, the number indexing [`ARMY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId(pub(crate) u8);

impl UnitId {
    /// The unit with this number in `side`'s army.
    pub fn new(side: Side, number: usize) -> UnitId {
        debug_assert!(number < ARMY_SIZE);
        UnitId((side.index() * ARMY_SIZE + number) as u8)
    }

    /// Its side.
    #[inline]
    pub fn side(self) -> Side {
        if (self.0 as usize) < ARMY_SIZE {
            Side::Blue
        } else {
            Side::Gray
        }
    }

    /// Its type.
    #[inline]
    pub fn kind(self) -> UnitKind {
        ARMY[self.0 as usize % ARMY_SIZE]
    }

    /// 0..32, for per-unit arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The units of `side`.
    pub fn of_side(side: Side) -> impl Iterator<Item = UnitId> {
        (0..ARMY_SIZE).map(move |n| UnitId::new(side, n))
    }
}

/// What one unit carries from turn to turn: the R6 run counts and the R21
/// inactivity after a retreat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UnitState {
    /// Consecutive own turns, up to the latest, on which it was the moving unit.
    pub move_run: u8,
    /// Consecutive own turns, up to the latest, on which it was the attacking unit.
    pub attack_run: u8,
    /// It retreated and may not move, attack or support on its owner's
    /// current or next turn (R21).
    pub inactive: bool,
    /// It retreated during its own side's current turn; it becomes inactive
    /// when that turn ends (R21: the owner's *next* turn is the one barred).
    pub retreated: bool,
}

impl UnitState {
    /// The status marks of the position string and the board: one `+` per
    /// turn of its move run and one `>` per turn of its attack run (R6),
    /// `_` while it rests and `~` when it retreated this turn (R21).
    pub fn marks(self) -> String {
        let mut out = String::with_capacity(4);
        out.extend(std::iter::repeat_n('+', self.move_run.into()));
        out.extend(std::iter::repeat_n('>', self.attack_run.into()));
        if self.inactive {
            out.push('_');
        }
        if self.retreated {
            out.push('~');
        }
        out
    }
}
