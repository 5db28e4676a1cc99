//! The state of a SQUARES game, as data: where each unit is, its run
//! counts (R6) and rest (R21), whose turn and which half of a double turn
//! (R1-R4), the attack in progress and the outcome. What changes it is the
//! engine's (`engine/`); how it is written is the position string's
//! (`text/position.rs`).

use super::attack::AttackState;
use super::board::{board, Space, SpaceSet, SPACE_COUNT};
use super::flow::Outcome;
use super::unit::{Side, UnitId, UnitKind, UnitState, ARMY_SIZE};
use super::variant::Variant;

/// No unit on a space.
pub(crate) const NO_UNIT: u8 = u8::MAX;
/// The location of an eliminated unit.
pub(crate) const ELIMINATED: u8 = u8::MAX;

/// Where a turn stands with respect to double turns (R4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Half {
    /// An ordinary turn.
    Single,
    /// The first half of a double turn (the player passed last time).
    First,
    /// The second half of a double turn.
    Second,
}

/// A game of SQUARES - The Civil War Battle Game.
///
/// Holds the whole game: the units (as individuals, R7), whose turn, the
/// double-turn state, an attack in progress with its pending decision, and
/// the outcome once there is one. It serialises as its position string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Squares {
    /// Which of the two SQUARES games this is.
    pub(crate) variant: Variant,
    /// The unit on each board square (`NO_UNIT` when empty; reserves hold
    /// their units through `loc` only).
    pub(crate) at: [u8; SPACE_COUNT],
    /// Each unit's space, or `ELIMINATED`.
    pub(crate) loc: [u8; 2 * ARMY_SIZE],
    /// Each unit's run counts and inactivity.
    pub(crate) units: [UnitState; 2 * ARMY_SIZE],
    /// The board squares (never reserves) each side's units hold.
    pub(crate) occ: [SpaceSet; 2],
    /// Whose turn it is.
    pub(crate) to_move: Side,
    /// Double-turn state of the current turn.
    pub(crate) half: Half,
    /// Whether each side's latest own turn was a PASS (R3, R4).
    pub(crate) passed: [bool; 2],
    /// The number of the current turn, from 1; each half of a double turn
    /// and each PASS is a turn (R4, R6).
    pub(crate) turn: u32,
    /// The attack being resolved, if any.
    pub(crate) attack: Option<AttackState>,
    /// How the game ended.
    pub(crate) outcome: Option<Outcome>,
}

impl Squares {
    /// The Civil War opening: all units in their reserves (squares-board.md,
    /// Setting up), `first` to move.
    pub fn opening(first: Side) -> Squares {
        Squares::opening_of(Variant::CivilWar, first)
    }

    /// The opening of `variant`: all units in their reserves, `first` to move.
    pub fn opening_of(variant: Variant, first: Side) -> Squares {
        let b = board();
        let mut loc = [0u8; 2 * ARMY_SIZE];
        for side in Side::BOTH {
            for u in UnitId::of_side(variant, side) {
                loc[u.index()] = b.reserve(side).index() as u8;
            }
        }
        Squares {
            variant,
            at: [NO_UNIT; SPACE_COUNT],
            loc,
            units: [UnitState::default(); 2 * ARMY_SIZE],
            occ: [SpaceSet::EMPTY; 2],
            to_move: first,
            half: Half::Single,
            passed: [false; 2],
            turn: 1,
            attack: None,
            outcome: None,
        }
    }

    /// Which of the two games this is.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The units of `side` in this game's army.
    pub fn units_of(&self, side: Side) -> impl Iterator<Item = UnitId> {
        UnitId::of_side(self.variant, side)
    }

    /// Whose turn it is (the attacker while an attack is being resolved).
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The double-turn state of the current turn.
    pub fn half(&self) -> Half {
        self.half
    }

    /// The number of the current turn.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The unit on a board square.
    #[inline]
    pub fn unit_at(&self, s: Space) -> Option<UnitId> {
        let u = self.at[s.index()];
        (u != NO_UNIT).then_some(UnitId(u))
    }

    /// Where a unit is, or `None` once eliminated.
    #[inline]
    pub fn location(&self, u: UnitId) -> Option<Space> {
        let l = self.loc[u.index()];
        (l != ELIMINATED).then(|| Space::new(l as usize))
    }

    /// A unit's run counts and inactivity.
    #[inline]
    pub fn unit_state(&self, u: UnitId) -> UnitState {
        self.units[u.index()]
    }

    /// The board squares `side` holds.
    #[inline]
    pub fn occupied_by(&self, side: Side) -> SpaceSet {
        self.occ[side.index()]
    }

    /// Every occupied board square.
    #[inline]
    pub fn occupied(&self) -> SpaceSet {
        self.occ[0] | self.occ[1]
    }

    /// The units in `side`'s reserve.
    pub fn reserve_units(&self, side: Side) -> impl Iterator<Item = UnitId> + '_ {
        let r = board().reserve(side).index() as u8;
        UnitId::of_side(self.variant, side).filter(move |u| self.loc[u.index()] == r)
    }

    /// How many units are in `side`'s reserve.
    pub fn reserve_count(&self, side: Side) -> usize {
        self.reserve_units(side).count()
    }

    /// How many of `side`'s units of `kind` are eliminated.
    pub fn lost(&self, side: Side, kind: UnitKind) -> u32 {
        UnitId::of_side(self.variant, side)
            .filter(|u| u.kind() == kind && self.loc[u.index()] == ELIMINATED)
            .count() as u32
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The attack being resolved, if any.
    pub fn attack(&self) -> Option<&AttackState> {
        self.attack.as_ref()
    }

    // ----- changing the board -------------------------------------------

    /// Puts a unit (not on the board) onto a space.
    pub(crate) fn place(&mut self, u: UnitId, s: Space) {
        self.loc[u.index()] = s.index() as u8;
        if board().reserve_owner(s).is_none() {
            debug_assert_eq!(self.at[s.index()], NO_UNIT);
            self.at[s.index()] = u.0;
            self.occ[u.side().index()] |= s.set();
        }
    }

    /// Takes a unit off its space (it stays in play until placed or eliminated).
    pub(crate) fn lift(&mut self, u: UnitId) {
        let l = self.loc[u.index()];
        if l == ELIMINATED {
            return;
        }
        let s = Space::new(l as usize);
        if board().reserve_owner(s).is_none() {
            self.at[s.index()] = NO_UNIT;
            self.occ[u.side().index()] &= !s.set();
        }
    }

    /// Moves a unit from where it is to `to`.
    pub(crate) fn relocate(&mut self, u: UnitId, to: Space) {
        self.lift(u);
        self.place(u, to);
    }

    /// Whether a unit may act at all this turn (R21).
    #[inline]
    pub(crate) fn is_active(&self, u: UnitId) -> bool {
        !self.units[u.index()].inactive
    }

    /// The side that must decide now, or `None` when the game is over.
    pub fn side_to_decide(&self) -> Option<Side> {
        if self.outcome.is_some() {
            return None;
        }
        Some(match &self.attack {
            Some(a) if a.stage.defender_decides() => self.to_move.opponent(),
            _ => self.to_move,
        })
    }
}
