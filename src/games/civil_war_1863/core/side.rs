//! The two sides and the three kinds of piece.

use std::fmt;

use crate::games::Seat;

/// A side of the Civil War Game 1863.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Side {
    /// The North: sits by the Great Lakes and moves second.
    Union,
    /// The South: sits by the Gulf of Mexico and moves first.
    Confederacy,
}

impl Side {
    /// Both sides, the Union first.
    pub const BOTH: [Side; 2] = [Side::Union, Side::Confederacy];

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Union => Side::Confederacy,
            Side::Confederacy => Side::Union,
        }
    }

    /// 0 for the Union, 1 for the Confederacy.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side's name in the board file and in mail: `Union`,
    /// `Confederacy`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Union => "Union",
            Side::Confederacy => "Confederacy",
        }
    }

    /// The side named `Union` or `Confederacy` (any case).
    pub fn parse(text: &str) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(text.trim()))
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
            Side::Union => Seat::North,
            Side::Confederacy => Seat::South,
        }
    }
}

impl From<Seat> for Side {
    fn from(seat: Seat) -> Side {
        match seat {
            Seat::North => Side::Union,
            Seat::South => Side::Confederacy,
        }
    }
}

/// A kind of piece.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum PieceKind {
    /// Moves one square on land; may ride a railroad (P15) or a gunboat (P13).
    Infantry,
    /// Moves one or two squares on land, mountains included (P11).
    Cavalry,
    /// Moves one or two squares along water joins (P3, P12).
    Gunboat,
}

impl PieceKind {
    /// Every kind, infantry first.
    pub const ALL: [PieceKind; 3] = [PieceKind::Infantry, PieceKind::Cavalry, PieceKind::Gunboat];

    /// The kind's name in the board file: `infantry`, `cavalry`, `gunboat`.
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Infantry => "infantry",
            PieceKind::Cavalry => "cavalry",
            PieceKind::Gunboat => "gunboat",
        }
    }

    /// The kind named like [`PieceKind::name`] (any case).
    pub fn parse(text: &str) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(text.trim()))
    }

    /// Whether the piece moves on land: infantry and cavalry (P1).
    pub fn is_ground(self) -> bool {
        self != PieceKind::Gunboat
    }

    /// How many pieces of this kind the side's box holds (the rules' lists
    /// of equipment): the start circles place exactly these.
    pub fn in_box(self, side: Side) -> u8 {
        match (side, self) {
            (Side::Union, PieceKind::Infantry) => 15,
            (Side::Union, PieceKind::Cavalry) => 2,
            (Side::Union, PieceKind::Gunboat) => 3,
            (Side::Confederacy, PieceKind::Infantry) => 10,
            (Side::Confederacy, PieceKind::Cavalry) => 4,
            (Side::Confederacy, PieceKind::Gunboat) => 1,
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
