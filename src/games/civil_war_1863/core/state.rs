//! The whole position of a Civil War 1863 game as data: the stacks on the
//! board, whose turn, the captured cities (their flags, P28), a battle or
//! removals under way inside an order, and the outcome. The markers left
//! in the box follow from the board: three disabled markers and six
//! fortification markers in all (P24, P31).

use super::board::Board;
use super::board_stacks::BoardStacks;
use super::flow::{Battle, EndReason, Removal};
use super::side::{PieceKind, Side};
use super::square::Square;
use super::stack::{Counts, Stack};
use crate::games::Outcome;

/// How many disabled markers the box holds (P24).
pub const DISABLED_MARKERS: u8 = 3;

/// How many fortification markers the box holds (P31).
pub const FORT_MARKERS: u8 = 6;

/// A game of the Civil War Game 1863. `Debug` writes its position string
/// (the board it is played on is data too large to print).
#[derive(Clone, PartialEq, Eq)]
pub struct CivilWar1863 {
    /// The board played on.
    pub(crate) board: &'static Board,
    /// The stack on each square, if any.
    pub(crate) stacks: BoardStacks,
    /// The side whose turn it is.
    pub(crate) to_move: Side,
    /// The turn's number: each side's turn counts one, the Confederacy's
    /// first is 1.
    pub(crate) turn: u32,
    /// How many moves and fortification orders the turn holds so far (P8).
    pub(crate) orders: u8,
    /// The cities captured once, with a flag on them (P28), in board order.
    pub(crate) flags: Vec<Square>,
    /// A battle under way.
    pub(crate) battle: Option<Battle>,
    /// Removals owed, the first one due now (P27, P30).
    pub(crate) removals: Vec<Removal>,
    /// The end, once reached.
    pub(crate) outcome: Option<Outcome<EndReason>>,
}

impl CivilWar1863 {
    /// The start of a game on `board`: every piece on its start circle,
    /// the Confederacy to move (its first turn is turn 1).
    pub fn opening(board: &'static Board) -> CivilWar1863 {
        let mut game = CivilWar1863::empty(board, Side::Confederacy);
        for circle in board.start_circles() {
            let add = Counts::of(circle.kind, circle.count);
            let stack = game
                .stacks
                .get_or_insert(circle.square, Stack::new(circle.side, Counts::NONE));
            stack.unmoved = stack.unmoved.plus(add);
        }
        game
    }

    /// An empty board, `to_move` to play turn 1: for building positions.
    pub fn empty(board: &'static Board, to_move: Side) -> CivilWar1863 {
        CivilWar1863 {
            board,
            stacks: BoardStacks::default(),
            to_move,
            turn: 1,
            orders: 0,
            flags: Vec::new(),
            battle: None,
            removals: Vec::new(),
            outcome: None,
        }
    }

    /// The board played on.
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The stack on a square.
    pub fn stack(&self, sq: Square) -> Option<&Stack> {
        self.stacks.get(sq)
    }

    /// Sets (or clears) the stack on a square: for building positions.
    pub fn set_stack(&mut self, sq: Square, stack: Option<Stack>) {
        self.stacks.set(sq, stack.filter(|s| !s.all().is_empty()));
    }

    /// Every stack with its square, in board order.
    pub fn stacks(&self) -> impl Iterator<Item = (Square, &Stack)> + '_ {
        self.stacks.iter()
    }

    /// Every stack within `reach` king steps of `sq`, `sq`'s own
    /// included, in board order.
    pub fn stacks_near(
        &self,
        sq: Square,
        reach: u8,
    ) -> impl Iterator<Item = (Square, &Stack)> + '_ {
        self.stacks.near(sq, reach)
    }

    /// The side whose turn it is.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The side holding the square, if any.
    pub fn holder(&self, sq: Square) -> Option<Side> {
        self.stack(sq).map(|s| s.side)
    }

    /// Whether the city has been captured once (its flag is on it, P28).
    pub fn is_flagged(&self, sq: Square) -> bool {
        self.flags.contains(&sq)
    }

    /// The cities with a flag.
    pub fn flags(&self) -> &[Square] {
        &self.flags
    }

    /// The garrison of the square's capital while it counts (P29): the
    /// capital not yet captured.
    pub fn garrison(&self, sq: Square) -> Option<(Side, u8)> {
        let capital = self.board.capital(sq)?;
        (!self.is_flagged(sq)).then_some((capital.side, capital.garrison))
    }

    /// Whether `side` may not enter the square without a battle: it is held
    /// by the other side or is the other side's uncaptured capital (P9,
    /// P29).
    pub fn hostile_to(&self, side: Side, sq: Square) -> bool {
        match self.holder(sq) {
            Some(holder) => holder != side,
            None => self.garrison(sq).is_some_and(|(owner, _)| owner != side),
        }
    }

    /// How many pieces a side has on the board (P34).
    pub fn pieces_of(&self, side: Side) -> u32 {
        self.stacks()
            .filter(|(_, s)| s.side == side)
            .map(|(_, s)| s.all().total())
            .sum()
    }

    /// How many pieces of a kind a side has on the board.
    pub fn count_of(&self, side: Side, kind: PieceKind) -> u32 {
        self.stacks()
            .filter(|(_, s)| s.side == side)
            .map(|(_, s)| u32::from(s.all().get(kind)))
            .sum()
    }

    /// The disabled markers left in the box (P24).
    pub fn disabled_markers_left(&self) -> u8 {
        let used = self
            .stacks()
            .filter(|(_, s)| s.has_disabled_marker())
            .count();
        DISABLED_MARKERS.saturating_sub(used as u8)
    }

    /// The fortification markers left in the box (P31).
    pub fn fort_markers_left(&self) -> u8 {
        let used = self.stacks().filter(|(_, s)| s.fort.has_marker()).count();
        FORT_MARKERS.saturating_sub(used as u8)
    }

    /// The battle under way, if any.
    pub fn battle(&self) -> Option<&Battle> {
        self.battle.as_ref()
    }

    /// The removals owed, the first due now.
    pub fn removals(&self) -> &[Removal] {
        &self.removals
    }

    /// The end, once reached.
    pub fn outcome(&self) -> Option<Outcome<EndReason>> {
        self.outcome
    }

    /// The turn number.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// How many orders the turn holds so far (P8).
    pub fn orders_this_turn(&self) -> u8 {
        self.orders
    }
}

impl std::fmt::Debug for CivilWar1863 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CivilWar1863({self})")
    }
}
