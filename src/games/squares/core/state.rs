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
/// A unit mask (`reserved`, `gone`, ...) with every unit of a side.
pub(crate) const ALL_UNITS: u16 = u16::MAX;

/// The bit of a unit in its side's unit masks.
#[inline]
pub(crate) fn unit_bit(u: UnitId) -> u16 {
    1 << (u.index() % ARMY_SIZE)
}

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
    /// Per side, bit n set when unit number n is in its own reserve: the
    /// R7 pick and the reserve's count read this, not 16 locations.
    pub(crate) reserved: [u16; 2],
    /// Per side, bit n set when unit number n is in the enemy reserve (R13).
    pub(crate) intruders: [u16; 2],
    /// Per side, bit n set when unit number n is eliminated (R26's count).
    pub(crate) gone: [u16; 2],
    /// Per side, whether any of its units carries an R21 mark (`inactive`
    /// or `retreated`): most turns close with none, and then R21's
    /// bookkeeping skips the side's sixteen states. Always exactly what the
    /// states say (kept by the engine, set again by the position reader),
    /// so that it never makes equal positions unequal.
    pub(crate) marked: [bool; 2],
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
            reserved: [ALL_UNITS; 2],
            intruders: [0; 2],
            gone: [0; 2],
            marked: [false; 2],
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

    /// The units in `side`'s reserve, by number.
    pub fn reserve_units(&self, side: Side) -> impl Iterator<Item = UnitId> + '_ {
        self.units_in(side, self.reserved[side.index()])
    }

    /// The units of `side` whose bits are set in `mask`, by number.
    #[inline]
    pub(crate) fn units_in(&self, side: Side, mask: u16) -> impl Iterator<Item = UnitId> {
        let army = self.variant.army();
        let mut bits = mask;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let n = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(UnitId::new(side, n, army[n]))
        })
    }

    /// How many units are in `side`'s reserve.
    #[inline]
    pub fn reserve_count(&self, side: Side) -> usize {
        self.reserved[side.index()].count_ones() as usize
    }

    /// How many of `side`'s units of `kind` are eliminated.
    #[inline]
    pub fn lost(&self, side: Side, kind: UnitKind) -> u32 {
        (self.gone[side.index()] & self.variant.kind_mask(kind)).count_ones()
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
    #[inline]
    pub(crate) fn place(&mut self, u: UnitId, s: Space) {
        let side = u.side().index();
        let bit = unit_bit(u);
        self.loc[u.index()] = s.index() as u8;
        self.gone[side] &= !bit;
        match board().reserve_owner(s) {
            None => {
                debug_assert_eq!(self.at[s.index()], NO_UNIT);
                self.at[s.index()] = u.0;
                self.occ[side] |= s.set();
            }
            Some(owner) if owner == u.side() => self.reserved[side] |= bit,
            Some(_) => self.intruders[side] |= bit,
        }
    }

    /// Takes a unit off its space (it stays in play until placed or eliminated).
    #[inline]
    pub(crate) fn lift(&mut self, u: UnitId) {
        let l = self.loc[u.index()];
        if l == ELIMINATED {
            return;
        }
        let side = u.side().index();
        let bit = unit_bit(u);
        self.reserved[side] &= !bit;
        self.intruders[side] &= !bit;
        let s = Space::new(l as usize);
        if board().reserve_owner(s).is_none() {
            self.at[s.index()] = NO_UNIT;
            self.occ[side] &= !s.set();
        }
    }

    /// Takes a unit out of play for good (it keeps no location).
    pub(crate) fn remove(&mut self, u: UnitId) {
        self.lift(u);
        self.loc[u.index()] = ELIMINATED;
        self.gone[u.side().index()] |= unit_bit(u);
    }

    /// Empties the board and both reserves: every unit out of play, for a
    /// position string to place them again.
    pub(crate) fn clear_all(&mut self) {
        self.loc = [ELIMINATED; 2 * ARMY_SIZE];
        self.at = [NO_UNIT; SPACE_COUNT];
        self.occ = [SpaceSet::EMPTY; 2];
        self.reserved = [0; 2];
        self.intruders = [0; 2];
        self.gone = [ALL_UNITS; 2];
    }

    /// Moves a unit from where it is to `to`.
    #[inline]
    pub(crate) fn relocate(&mut self, u: UnitId, to: Space) {
        self.lift(u);
        self.place(u, to);
    }

    /// Sets `marked` again from the units' states, after they were written
    /// one by one (the position reader, an elimination).
    pub(crate) fn recount_marks(&mut self, side: Side) {
        let first = side.index() * ARMY_SIZE;
        self.marked[side.index()] = self.units[first..first + ARMY_SIZE]
            .iter()
            .any(|s| s.inactive || s.retreated);
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
