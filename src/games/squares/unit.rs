//! Sides, unit types and unit identities.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::notation::CIVIL_WAR;
use super::rules::Variant;
use crate::games::Seat;

/// A side in SQUARES. Blue sits at the top of the board (reserve BR); in
/// the Napoleonic variant the same sides are the British (Blue's place) and
/// the French (N1). The names are the notation's ([`Side::display_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
}

/// Written in the Civil War notation ("Blue", "Gray"); a game's own
/// notation writes it through [`Side::display_in`].
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_in(&CIVIL_WAR).fmt(f)
    }
}

/// Serialised as the side's Civil War name, lower case ("blue"), whatever
/// thread serialises it (the variant's events serialise their sides in
/// its notation); either game's names are read.
impl Serialize for Side {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.display_in(&CIVIL_WAR).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Side, D::Error> {
        let text = String::deserialize(deserializer)?;
        Side::from_any_name(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("no side {text:?}")))
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

/// The unit types of both SQUARES games. The Civil War army has the first
/// kinds listed for it (infantry, artillery, cavalry); the Napoleonic army
/// all seven (N2). The declaration order is the army order in which
/// position strings group units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// Infantry (both games).
    Infantry,
    /// The Guard (Napoleonic).
    Guard,
    /// Light Infantry (Napoleonic).
    Light,
    /// Artillery (both games).
    Artillery,
    /// The Horse Battery (Napoleonic).
    HorseBattery,
    /// Cavalry (both games).
    Cavalry,
    /// Heavy Cavalry (Napoleonic).
    HeavyCavalry,
}

impl UnitKind {
    /// Every unit type of either game.
    pub const EVERY: [UnitKind; 7] = [
        UnitKind::Infantry,
        UnitKind::Guard,
        UnitKind::Light,
        UnitKind::Artillery,
        UnitKind::HorseBattery,
        UnitKind::Cavalry,
        UnitKind::HeavyCavalry,
    ];

    /// The word used in orders (`INFANTRY`, `LIGHT`; N24).
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Infantry => "INFANTRY",
            UnitKind::Guard => "GUARD",
            UnitKind::Light => "LIGHT",
            UnitKind::Artillery => "ARTILLERY",
            UnitKind::HorseBattery => "HORSE",
            UnitKind::Cavalry => "CAVALRY",
            UnitKind::HeavyCavalry => "HEAVY",
        }
    }

    /// The short form N24 allows beside the word, if any (`LI`, `HB`, `HC`).
    pub fn short_word(self) -> Option<&'static str> {
        match self {
            UnitKind::Light => Some("LI"),
            UnitKind::HorseBattery => Some("HB"),
            UnitKind::HeavyCavalry => Some("HC"),
            _ => None,
        }
    }

    /// The position-string letter for `side` (North upper case, South lower).
    pub fn letter(self, side: Side) -> char {
        let c = match self {
            UnitKind::Infantry => 'I',
            UnitKind::Guard => 'G',
            UnitKind::Light => 'L',
            UnitKind::Artillery => 'A',
            UnitKind::HorseBattery => 'H',
            UnitKind::Cavalry => 'C',
            UnitKind::HeavyCavalry => 'K',
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
        UnitKind::EVERY
            .into_iter()
            .find(|k| k.letter(Side::Blue) == c.to_ascii_uppercase())
            .map(|k| (k, side))
    }

    /// Lower-case name for sentences ("infantry", "horse battery").
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Guard => "guard",
            UnitKind::Light => "light infantry",
            UnitKind::Artillery => "artillery",
            UnitKind::HorseBattery => "horse battery",
            UnitKind::Cavalry => "cavalry",
            UnitKind::HeavyCavalry => "heavy cavalry",
        }
    }

    /// The board's three-letter form ("inf", "hb").
    pub fn short(self) -> &'static str {
        match self {
            UnitKind::Infantry => "inf",
            UnitKind::Guard => "gua",
            UnitKind::Light => "li",
            UnitKind::Artillery => "art",
            UnitKind::HorseBattery => "hb",
            UnitKind::Cavalry => "cav",
            UnitKind::HeavyCavalry => "hc",
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

/// One particular unit (R7: units are individuals, also inside a reserve).
/// The low five bits are `side * 16 + number`, the number indexing the
/// game's army table; the top three bits are its type, so that asking a
/// unit's type needs no table and no game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId(pub(crate) u8);

impl UnitId {
    /// The unit with this number and type in `side`'s army.
    pub fn new(side: Side, number: usize, kind: UnitKind) -> UnitId {
        debug_assert!(number < ARMY_SIZE);
        UnitId((side.index() * ARMY_SIZE + number) as u8 | (kind as u8) << 5)
    }

    /// Its side.
    #[inline]
    pub fn side(self) -> Side {
        if self.0 & 0x10 == 0 {
            Side::Blue
        } else {
            Side::Gray
        }
    }

    /// Its type.
    #[inline]
    pub fn kind(self) -> UnitKind {
        UnitKind::EVERY[(self.0 >> 5) as usize]
    }

    /// 0..32, for per-unit arrays.
    #[inline]
    pub fn index(self) -> usize {
        (self.0 & 0x1F) as usize
    }

    /// The units of `side` in `variant`'s army, by number.
    pub fn of_side(variant: Variant, side: Side) -> impl Iterator<Item = UnitId> {
        variant
            .rules()
            .army
            .iter()
            .enumerate()
            .map(move |(n, &kind)| UnitId::new(side, n, kind))
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
