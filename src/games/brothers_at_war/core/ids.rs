//! Small strong names for the things a position refers to by index.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A unit: an index into the state's units (the scenario's order of
/// battle first, then the generic remnants made during play, 9.22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UnitId(pub u16);

/// A brigade (the divisional artillery of a side included, 9.3): an
/// index into the scenario's brigades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BrigadeId(pub u8);

impl UnitId {
    /// The index, for slices.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl BrigadeId {
    /// The index, for slices.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A marker of the activation display (3.1, 3.13, 2.321), written
/// compactly ([`super::compact`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Marker {
    /// One of a brigade's activation markers (its first or second, 3.1).
    Brigade(BrigadeId, u8),
    /// A countdown marker (3.13).
    Countdown,
    /// A free activation marker, placed for a brigade (2.321).
    Free(BrigadeId),
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {}", self.0)
    }
}
