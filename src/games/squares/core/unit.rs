//! Sides, unit types and unit identities, as data: which game's army a
//! unit belongs to is the variant's (`variant.rs`), how a unit is written
//! is the notation's (`text/notation.rs`), what it may do is the rules'
//! (`engine/rules.rs`).

use serde::{Deserialize, Serialize};

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
        // Eight entries, so that the three top bits need no bounds check;
        // no unit is ever made with the eighth.
        const BY_BITS: [UnitKind; 8] = {
            let mut kinds = [UnitKind::HeavyCavalry; 8];
            let mut i = 0;
            while i < UnitKind::EVERY.len() {
                kinds[i] = UnitKind::EVERY[i];
                i += 1;
            }
            kinds
        };
        BY_BITS[(self.0 >> 5) as usize]
    }

    /// 0..32, for per-unit arrays.
    #[inline]
    pub fn index(self) -> usize {
        (self.0 & 0x1F) as usize
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
