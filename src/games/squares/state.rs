//! The state of a SQUARES game and the bookkeeping every action shares:
//! where each unit is, run counts (R6), inactivity (R21), turn order and
//! double turns (R1-R4), scores (R26) and victory (R27).

use super::attack::AttackState;
use super::board::{board, Space, SpaceSet, SPACE_COUNT};
use super::event::Event;
use super::flow::{EndReason, Outcome};
use super::rules::{Family, Variant};
use super::unit::{Side, UnitId, UnitKind, UnitState, ARMY_SIZE};
use crate::games::GameResult;

/// No unit on a space.
pub(crate) const NO_UNIT: u8 = u8::MAX;
/// The location of an eliminated unit.
pub(crate) const ELIMINATED: u8 = u8::MAX;

/// Points a side needs to win (R27).
pub const WINNING_POINTS: u32 = 10;

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

    /// `side`'s points: what the enemy units it eliminated are worth (R26,
    /// N22): each its type's points, except that once three or more of the
    /// enemy's cavalry family are lost, each of them counts 2.
    pub fn points(&self, side: Side) -> u32 {
        let variant = self.variant;
        let lost = || {
            self.units_of(side.opponent())
                .filter(|u| self.loc[u.index()] == ELIMINATED)
                .map(|u| variant.unit(u.kind()))
        };
        let horse_lost = lost().filter(|r| r.family == Family::Horse).count();
        lost()
            .map(|r| match r.family {
                Family::Horse if horse_lost >= 3 => 2,
                _ => u32::from(r.points),
            })
            .sum()
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

    /// Removes a unit from play; it scores for the enemy (R26).
    pub(crate) fn eliminate(&mut self, u: UnitId, events: &mut Vec<Event>) {
        if let Some(square) = self.location(u) {
            self.lift(u);
            self.loc[u.index()] = ELIMINATED;
            self.units[u.index()] = UnitState::default();
            events.push(Event::Eliminated {
                side: u.side(),
                unit: u.kind(),
                square,
            });
        }
    }

    /// Whether a unit may act at all this turn (R21).
    #[inline]
    pub(crate) fn is_active(&self, u: UnitId) -> bool {
        !self.units[u.index()].inactive
    }

    /// Marks a retreat for R21: infantry and artillery sit out their owner's
    /// next turn; cavalry "may operate without restriction" (in the variant
    /// only the ordinary cavalry, N16).
    pub(crate) fn mark_retreated(&mut self, u: UnitId) {
        if !self.variant.unit(u.kind()).rests {
            return;
        }
        let state = &mut self.units[u.index()];
        if u.side() == self.to_move {
            // Retreating in its own turn: the owner's *next* turn is barred.
            state.retreated = true;
        } else {
            state.inactive = true;
        }
    }

    /// R6 bookkeeping for the action of this turn: the units that moved (or
    /// the unit that attacked) extend their run by `turns` own turns, every
    /// other unit of the side breaks its run.
    pub(crate) fn record_runs(&mut self, movers: &[UnitId], attacker: Option<UnitId>, turns: u8) {
        for u in UnitId::of_side(self.variant, self.to_move) {
            let state = &mut self.units[u.index()];
            state.move_run = if movers.contains(&u) {
                state.move_run + turns
            } else {
                0
            };
            state.attack_run = if attacker == Some(u) {
                state.attack_run + turns
            } else {
                0
            };
        }
    }

    /// Ends one own turn of `side` for R21: units barred during it become
    /// free; units that retreated during it are barred from the next.
    fn close_turn_for(&mut self, side: Side) {
        for u in UnitId::of_side(self.variant, side) {
            let state = &mut self.units[u.index()];
            state.inactive = state.retreated;
            state.retreated = false;
        }
    }

    /// The action of the current turn is complete: hand the turn on (R1,
    /// R4), then check victory (R27) and that the next player can act (R8).
    /// The handover comes first so that a finished game's position string
    /// is as consistent as any other (the side to move is the side that
    /// would have moved next).
    pub(crate) fn finish_action(&mut self, whole_double_turn: bool, events: &mut Vec<Event>) {
        let side = self.to_move;
        self.close_turn_for(side);
        if whole_double_turn {
            // R5: the move used both halves, so both count as turns (R4, R6).
            self.close_turn_for(side);
            self.turn = self.turn.saturating_add(1);
        }
        self.turn = self.turn.saturating_add(1);
        if self.half == Half::First && !whole_double_turn {
            self.half = Half::Second;
        } else {
            let next = side.opponent();
            self.to_move = next;
            self.half = if self.passed[next.index()] {
                Half::First
            } else {
                Half::Single
            };
        }
        if let Some(outcome) = self.victory() {
            self.end(outcome, events);
            return;
        }
        if self.half == Half::First {
            events.push(Event::DoubleTurn { side: self.to_move });
        }
        if !self.has_turn_order() {
            let loser = self.to_move;
            self.end(
                Outcome {
                    result: GameResult::Win(loser.opponent().into()),
                    reason: EndReason::NoLegalAction,
                },
                events,
            );
        }
    }

    fn end(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        self.attack = None;
        self.outcome = Some(outcome);
        events.push(Event::GameOver(outcome));
    }

    /// R27's first two conditions, judged on the position alone: a unit in
    /// the enemy reserve (R13), and points (R26) with the tie rule.
    pub(crate) fn victory(&self) -> Option<Outcome> {
        let b = board();
        for side in Side::BOTH {
            let enemy_reserve = b.reserve(side.opponent()).index() as u8;
            if UnitId::of_side(self.variant, side).any(|u| self.loc[u.index()] == enemy_reserve) {
                return Some(Outcome {
                    result: GameResult::Win(side.into()),
                    reason: EndReason::ReserveEntered,
                });
            }
        }
        let blue = self.points(Side::Blue);
        let gray = self.points(Side::Gray);
        let reason = EndReason::Points {
            north: blue,
            south: gray,
        };
        let result = match (blue >= WINNING_POINTS, gray >= WINNING_POINTS) {
            (false, false) => return None,
            (true, false) => GameResult::Win(Side::Blue.into()),
            (false, true) => GameResult::Win(Side::Gray.into()),
            // R27: both reached ten in the same action.
            (true, true) => match blue.cmp(&gray) {
                std::cmp::Ordering::Greater => GameResult::Win(Side::Blue.into()),
                std::cmp::Ordering::Less => GameResult::Win(Side::Gray.into()),
                std::cmp::Ordering::Equal => GameResult::Draw,
            },
        };
        Some(Outcome { result, reason })
    }

    /// Whether the player to move has any legal turn order (R8).
    pub(crate) fn has_turn_order(&self) -> bool {
        if self.half == Half::Single && !self.passed[self.to_move.index()] {
            return true;
        }
        let mut orders = Vec::with_capacity(64);
        self.turn_orders(&mut orders);
        !orders.is_empty()
    }

    /// Recomputes the outcome of a position read from a string.
    pub(crate) fn settle_outcome(&mut self) {
        self.outcome = None;
        if self.attack.is_some() {
            // R27: victory is judged once the action is fully resolved.
            return;
        }
        if let Some(outcome) = self.victory() {
            self.outcome = Some(outcome);
        } else if !self.has_turn_order() {
            self.outcome = Some(Outcome {
                result: GameResult::Win(self.to_move.opponent().into()),
                reason: EndReason::NoLegalAction,
            });
        }
    }
}
