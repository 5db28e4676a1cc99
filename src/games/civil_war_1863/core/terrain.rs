//! What the ground of a square holds, one letter per square in the board
//! file's terrain grid. Rivers, railroads, cities and passes are listed in
//! their own sections, so a square's letter says only land, open sea and
//! mountains.

use std::fmt;

/// The ground of a square (P1, P5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    /// `~`: open sea (bays, sounds and the Great Lakes included) and no
    /// land: open only to gunboats and infantry aboard (P1, P13).
    WaterOnly,
    /// `:`: land and open sea.
    Coast,
    /// `.`: land.
    Land,
    /// `^`: land with mountains (P5).
    Mountain,
    /// `;`: land with mountains, and open sea.
    MountainCoast,
}

impl Terrain {
    /// Every terrain, in the order of the board file's legend.
    pub const ALL: [Terrain; 5] = [
        Terrain::WaterOnly,
        Terrain::Coast,
        Terrain::Land,
        Terrain::Mountain,
        Terrain::MountainCoast,
    ];

    /// The letter of the terrain grid.
    pub fn letter(self) -> char {
        match self {
            Terrain::WaterOnly => '~',
            Terrain::Coast => ':',
            Terrain::Land => '.',
            Terrain::Mountain => '^',
            Terrain::MountainCoast => ';',
        }
    }

    /// The terrain written with this letter.
    pub fn from_letter(letter: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.letter() == letter)
    }

    /// Whether the square holds any land, so ground pieces may use it (P1).
    pub fn holds_land(self) -> bool {
        self != Terrain::WaterOnly
    }

    /// Whether the square holds open sea.
    pub fn holds_sea(self) -> bool {
        matches!(
            self,
            Terrain::WaterOnly | Terrain::Coast | Terrain::MountainCoast
        )
    }

    /// Whether the square holds any mountain (P5).
    pub fn holds_mountains(self) -> bool {
        matches!(self, Terrain::Mountain | Terrain::MountainCoast)
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
