//! The two sides and the seats that play them: North is the Union, South
//! the Confederacy (the shared naming of issue 17).

use crate::games::brothers_at_war::scenario::model::Side;
use crate::games::Seat;

impl Side {
    /// Both sides, the Union first: the Union resolves first wherever the
    /// rules order the sides (2.33).
    pub const BOTH: [Side; 2] = [Side::Union, Side::Confederacy];

    /// The seat that plays this side.
    pub fn seat(self) -> Seat {
        match self {
            Side::Union => Seat::North,
            Side::Confederacy => Seat::South,
        }
    }

    /// The side a seat plays.
    pub fn of(seat: Seat) -> Side {
        match seat {
            Seat::North => Side::Union,
            Seat::South => Side::Confederacy,
        }
    }

    /// The enemy.
    pub fn other(self) -> Side {
        match self {
            Side::Union => Side::Confederacy,
            Side::Confederacy => Side::Union,
        }
    }

    /// 0 for the Union, 1 for the Confederacy: for per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The short name used in positions and events ("USA", "CSA").
    pub fn code(self) -> &'static str {
        match self {
            Side::Union => "USA",
            Side::Confederacy => "CSA",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn north_is_the_union_and_south_the_confederacy() {
        assert_eq!(Side::Union.seat(), Seat::North);
        assert_eq!(Side::of(Seat::South), Side::Confederacy);
        for side in Side::BOTH {
            assert_eq!(Side::of(side.seat()), side);
            assert_ne!(side.other(), side);
        }
    }
}
