//! What the board file lists besides terrain: waters, passes, railroad
//! lines, cities, capitals and start circles, each as the file states it.

use super::side::{PieceKind, Side};
use super::square::Square;

/// Whether a water is open sea or a river: they join squares differently
/// (P3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaterKind {
    /// Open sea, a bay, a sound or a Great Lake: any two neighbouring
    /// squares of it are joined.
    Sea,
    /// A navigable river (P1: the board draws no other kind): each square
    /// of its course is joined to the next.
    River,
}

impl WaterKind {
    /// The word that starts its line in the board file.
    pub fn word(self) -> &'static str {
        match self {
            WaterKind::Sea => "sea",
            WaterKind::River => "river",
        }
    }
}

/// One sea or river: where gunboats go (P3, P12).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Water {
    /// Its name, such as `Ohio` or `Gulf of Mexico`.
    pub name: String,
    /// Sea or river.
    pub kind: WaterKind,
    /// Its squares; for a river, in order along its course.
    pub squares: Vec<Square>,
}

/// A mountain pass: a pair of diagonal neighbours that infantry may step
/// between whatever mountains they hold (P6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pass {
    /// Its name, such as `Cumberland Gap`.
    pub name: String,
    /// The two squares, as the file lists them.
    pub ends: [Square; 2],
}

impl Pass {
    /// Whether the pass is the step between `a` and `b`, either way.
    pub fn joins(&self, a: Square, b: Square) -> bool {
        self.ends == [a, b] || self.ends == [b, a]
    }
}

/// A railroad line: a chain of squares, each a rail step from the next
/// (P15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RailLine {
    /// Its name, such as `Western & Atlantic (Chattanooga - Atlanta)`.
    pub name: String,
    /// Its squares in order.
    pub squares: Vec<Square>,
}

/// A section of track (P16): railroad squares that are not cities, joined
/// to each other by rail steps that pass through no city.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RailSection {
    /// Its squares, in board order.
    pub squares: Vec<Square>,
    /// The cities one rail step from the section, in board order: its ends
    /// (two for a section from city to city).
    pub cities: Vec<Square>,
}

/// A square the board names as a city (P4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct City {
    /// Its square.
    pub square: Square,
    /// Its name, such as `St. Louis`.
    pub name: String,
}

/// A capital and its permanent garrison (P29).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capital {
    /// Its square (a city).
    pub square: Square,
    /// The side whose capital it is.
    pub side: Side,
    /// What the garrison counts in a battle for the capital until it is
    /// captured: 4 for Washington, 5 for Richmond.
    pub garrison: u8,
}

/// A start circle: where some pieces of one kind are placed at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartCircle {
    /// Its square.
    pub square: Square,
    /// Whose pieces start there.
    pub side: Side,
    /// How many pieces.
    pub count: u8,
    /// Of which kind.
    pub kind: PieceKind,
    /// The historical force the circle stands for.
    pub note: String,
}
