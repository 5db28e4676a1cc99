//! The bookkeeping every action shares: run counts (R6), rest after a
//! retreat (R21), eliminations and scores (R26, N22), handing the turn on
//! (R1-R4) and victory (R27, R8).

use crate::games::squares::core::event::Event;
use crate::games::squares::core::flow::{EndReason, Outcome};
use crate::games::squares::core::state::{Half, Squares};
use crate::games::squares::core::unit::{Side, UnitId, UnitState, ARMY_SIZE};
use crate::games::squares::engine::rules::Family;
use crate::games::GameResult;

/// Points a side needs to win (R27).
pub const WINNING_POINTS: u32 = 10;

impl Squares {
    /// `side`'s points: what the enemy units it eliminated are worth (R26,
    /// N22): each its type's points, except that once three or more of the
    /// enemy's cavalry family are lost, each of them counts 2.
    #[inline(always)]
    pub fn points(&self, side: Side) -> u32 {
        let variant = self.variant;
        let enemy = side.opponent();
        let horse_lost: u32 = variant
            .kinds()
            .iter()
            .filter(|&&k| variant.unit(k).family == Family::Horse)
            .map(|&k| self.lost(enemy, k))
            .sum();
        variant
            .kinds()
            .iter()
            .map(|&k| {
                let each = match variant.unit(k).family {
                    Family::Horse if horse_lost >= 3 => 2,
                    _ => u32::from(variant.unit(k).points),
                };
                each * self.lost(enemy, k)
            })
            .sum()
    }

    /// Removes a unit from play; it scores for the enemy (R26).
    pub(crate) fn eliminate(&mut self, u: UnitId, events: &mut Vec<Event>) {
        if let Some(square) = self.location(u) {
            self.remove(u);
            self.units[u.index()] = UnitState::default();
            // Its R21 mark, if it had one, may have been its side's last.
            self.recount_marks(u.side());
            events.push(Event::Eliminated {
                side: u.side(),
                unit: u.kind(),
                square,
            });
        }
    }

    /// Marks a retreat for R21: infantry and artillery sit out their owner's
    /// next turn; cavalry "may operate without restriction" (in the variant
    /// only the ordinary cavalry, N16).
    pub(crate) fn mark_retreated(&mut self, u: UnitId) {
        if !self.variant.unit(u.kind()).rests {
            return;
        }
        self.marked[u.side().index()] = true;
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
        let side = self.to_move;
        // Only the acting units' runs carry on (at most two movers, R11b):
        // read before the side's runs are broken, with no copy of the rest.
        let mut moved = [(0usize, 0u8); 2];
        let mut count = 0;
        for m in movers.iter().filter(|m| m.side() == side) {
            moved[count] = (m.index(), self.units[m.index()].move_run);
            count += 1;
        }
        let attacked = attacker
            .filter(|a| a.side() == side)
            .map(|a| (a.index(), self.units[a.index()].attack_run));
        for state in self.side_states(side) {
            state.move_run = 0;
            state.attack_run = 0;
        }
        for &(i, run) in &moved[..count] {
            self.units[i].move_run = run + turns;
        }
        if let Some((i, run)) = attacked {
            self.units[i].attack_run = run + turns;
        }
    }

    /// The run counts and rests of `side`'s units, by number.
    #[inline]
    fn side_states(&mut self, side: Side) -> &mut [UnitState] {
        let first = side.index() * ARMY_SIZE;
        &mut self.units[first..first + ARMY_SIZE]
    }

    /// Ends one own turn of `side` for R21: units barred during it become
    /// free; units that retreated during it are barred from the next.
    fn close_turn_for(&mut self, side: Side) {
        if !self.marked[side.index()] {
            return;
        }
        let mut carried = false;
        for state in self.side_states(side) {
            state.inactive = state.retreated;
            carried |= state.retreated;
            state.retreated = false;
        }
        self.marked[side.index()] = carried;
    }

    /// The action of the current turn is complete: hand the turn on (R1,
    /// R4), then check victory (R27) and that the next player can act (R8).
    /// The handover comes first so that a finished game's position string
    /// is as consistent as any other (the side to move is the side that
    /// would have moved next).
    pub(crate) fn finish_action(&mut self, whole_double_turn: bool, events: &mut Vec<Event>) {
        // Victory (R26, R27) and R8's test are bit counts, which without
        // the POPCNT instruction (not in the baseline x86-64 target) take a
        // dozen instructions each: compiled a second time with it, chosen
        // at run time as `pick_turn_order` is.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has just been found to have POPCNT.
            return unsafe { self.finish_action_popcnt(whole_double_turn, events) };
        }
        self.finish_action_portable(whole_double_turn, events)
    }

    /// [`Squares::finish_action_portable`] compiled to use POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn finish_action_popcnt(&mut self, whole_double_turn: bool, events: &mut Vec<Event>) {
        self.finish_action_portable(whole_double_turn, events)
    }

    /// [`Squares::finish_action`] for any processor.
    #[inline(always)]
    fn finish_action_portable(&mut self, whole_double_turn: bool, events: &mut Vec<Event>) {
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
    #[inline(always)]
    pub(crate) fn victory(&self) -> Option<Outcome> {
        // A point needs an elimination, and no unit is worth more than 2
        // (R26, N22): with fewer than five lost on each side nobody has ten.
        let most_lost = self.gone[0].count_ones().max(self.gone[1].count_ones());
        let quick = 2 * most_lost < WINNING_POINTS;
        for side in Side::BOTH {
            if self.intruders[side.index()] != 0 {
                return Some(Outcome {
                    result: GameResult::Win(side.into()),
                    reason: EndReason::ReserveEntered,
                });
            }
        }
        if quick {
            return None;
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
    #[inline(always)]
    pub(crate) fn has_turn_order(&self) -> bool {
        if self.half == Half::Single && !self.passed[self.to_move.index()] {
            return true;
        }
        self.any_turn_order()
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
