//! Orders as data: every order of SQUARES, for turns and for the
//! decisions inside an attack. How they are written and read is the
//! notation's (`text/order.rs`); whether one is legal is the engine's.

use std::fmt;

use super::board::Space;
use super::unit::UnitKind;

/// One unit's move: from a space to another, perhaps through a middle square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Where the unit stands.
    pub from: Space,
    /// The square stepped through by a two-step cavalry move.
    pub via: Option<Space>,
    /// Where it goes.
    pub to: Space,
    /// The unit type, named only when `from` is a reserve (R7).
    pub unit: Option<UnitKind>,
}

/// The longest chain of displacements a retreat can have: each link moves
/// strictly closer to the reserve, and a side has nine depths to cross.
pub const MAX_CHAIN: usize = 9;

/// Where a retreat goes: the retreating unit's new square first, then, for a
/// cavalry chain retreat (R24), the new square of each unit it displaces.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chain {
    len: u8,
    squares: [Space; MAX_CHAIN],
}

impl Chain {
    /// A retreat to one square.
    pub fn to(square: Space) -> Chain {
        let mut squares = [square; MAX_CHAIN];
        squares[0] = square;
        Chain { len: 1, squares }
    }

    /// A chain whose first link goes to `first`, followed by `rest`.
    pub fn prepend(first: Space, rest: &Chain) -> Option<Chain> {
        if rest.len() + 1 > MAX_CHAIN {
            return None;
        }
        let mut c = Chain::to(first);
        for (i, s) in rest.squares().iter().enumerate() {
            c.squares[i + 1] = *s;
        }
        c.len = rest.len + 1;
        Some(c)
    }

    /// Builds a chain from its squares (1 to [`MAX_CHAIN`] of them).
    pub fn from_squares(squares: &[Space]) -> Option<Chain> {
        if squares.is_empty() || squares.len() > MAX_CHAIN {
            return None;
        }
        let mut c = Chain::to(squares[0]);
        c.squares[..squares.len()].copy_from_slice(squares);
        c.len = squares.len() as u8;
        Some(c)
    }

    /// The squares, first link first.
    pub fn squares(&self) -> &[Space] {
        &self.squares[..self.len as usize]
    }

    /// How many units move.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Never true: a chain has at least one link.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the retreating unit itself goes.
    pub fn first(&self) -> Space {
        self.squares[0]
    }
}

impl fmt::Debug for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.squares()).finish()
    }
}

/// Every order of SQUARES, for turns and for the decisions inside an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// One unit moves (R9-R12).
    Move(Step),
    /// Two cavalry move one step each, in the order written (R11b).
    MoveTwo(Step, Step),
    /// An attack, with or without a supporting unit (R14-R19).
    Attack {
        /// The attacking unit's square.
        attacker: Space,
        /// The attacked square.
        target: Space,
        /// The supporting unit's square.
        support: Option<Space>,
    },
    /// Decline to act this turn (R3, R4).
    Pass,
    /// A defender does not retreat.
    Stand,
    /// A unit retreats (R21-R24).
    Retreat(Chain),
    /// The attacker's option against a standing defender (R19), 1 to 5.
    Option(u8),
    /// A Grand Battery's option, GB1 to GB3 (N18).
    GrandBattery(u8),
    /// The Horse Battery's option as the attacking unit, HB1 to HB5 (N19).
    HorseBattery(u8),
    /// The attacking unit enters the vacated square (R20).
    Advance,
    /// The attacking unit stays where it is (R20).
    Stay,
    /// The owner of an attacked reserve loses a unit of this type there (R17).
    Lose(UnitKind),
}
