//! Retreats: where each kind of unit may go (R22-R24), and carrying them out.

use crate::games::squares::core::board::{board, Space, SpaceSet};
use crate::games::squares::core::event::Event;
use crate::games::squares::core::order::Chain;
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::{Side, UnitId};
use crate::games::squares::engine::rules::RetreatStyle;

/// Why a unit retreats, which decides the procedures open to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RetreatCause {
    /// It is the defender of an attack: the only case in which infantry and
    /// artillery may retreat from forest to forest (R22, R23), and artillery
    /// may retreat at all outside a supporting role.
    Attacked,
    /// It is an attacker's unit retreating under an option (R19), or a unit
    /// displaced by a retreating friendly cavalry (R24).
    Other,
}

impl Squares {
    /// Whether `side`'s infantry or artillery on `from` has a clear path to
    /// its reserve (R22): edge- or corner-adjacent squares, each strictly
    /// closer to the reserve, none holding an enemy unit.
    pub(crate) fn has_reserve_path(&self, side: Side, from: Space) -> bool {
        let b = board();
        let reserve = b.reserve(side);
        if from == reserve {
            return false; // R25: units never retreat out of their reserve.
        }
        let enemy = self.occupied_by(side.opponent());
        let mut frontier = from.set();
        let mut seen = from.set();
        while let Some(s) = frontier.first() {
            frontier &= !s.set();
            let next = b.adjacent(s) & b.closer(side, s) & !enemy & !seen;
            if next.contains(reserve) {
                return true;
            }
            seen |= next;
            frontier |= next;
        }
        false
    }

    /// The forests an attacked infantry or artillery in a forest may retreat
    /// to (R22, R23): adjacent, empty, strictly closer to its reserve, and not
    /// adjacent to an enemy artillery.
    pub(crate) fn forest_retreats(&self, side: Side, from: Space) -> SpaceSet {
        let b = board();
        if !b.is_forest(from) {
            return SpaceSet::EMPTY;
        }
        let enemy_artillery = self.guns_squares(side.opponent());
        let mut out = SpaceSet::EMPTY;
        for f in b.adjacent(from) & b.forests() & !self.occupied() & b.closer(side, from) {
            if (b.adjacent(f) & enemy_artillery).is_empty() {
                out |= f.set();
            }
        }
        out
    }

    /// Every legal retreat of the unit on `from`, for `cause`.
    pub(crate) fn retreats(&self, from: Space, cause: RetreatCause, out: &mut Vec<Chain>) {
        let b = board();
        let Some(u) = self.unit_at(from) else {
            return; // R25: nothing retreats out of a reserve.
        };
        let side = u.side();
        let rules = self.variant.unit(u.kind());
        let to_reserve = |out: &mut Vec<Chain>| {
            if self.has_reserve_path(side, from) {
                out.push(Chain::to(b.reserve(side)));
            }
        };
        match rules.retreat {
            RetreatStyle::Path => to_reserve(out),
            // R23: attacked artillery retreats only from a forest, to a forest.
            RetreatStyle::Gun => {
                if cause == RetreatCause::Other {
                    to_reserve(out);
                }
            }
            RetreatStyle::Guard => {
                // N13: a step back into an empty clear square or the reserve;
                // the clear path only when there is no such step.
                let reserve = b.reserve(side);
                let free = (!self.occupied() & !b.reserves() & !b.forests()) | reserve.set();
                let steps = b.adjacent(from) & b.closer(side, from) & free;
                if steps.is_empty() {
                    to_reserve(out);
                } else {
                    out.extend(steps.iter().map(Chain::to));
                }
            }
            RetreatStyle::Horse { forest } => self.cavalry_retreats(side, from, forest, out),
        }
        if cause == RetreatCause::Attacked && rules.forest_to_forest {
            out.extend(self.forest_retreats(side, from).iter().map(Chain::to));
        }
    }

    /// Whether the unit on `from` has any legal retreat for `cause`.
    pub(crate) fn can_retreat(&self, from: Space, cause: RetreatCause) -> bool {
        let mut out = Vec::new();
        self.retreats(from, cause, &mut out);
        !out.is_empty()
    }

    /// R24: one step, edge or corner, into an empty square strictly closer to
    /// the reserve, or into the reserve; only when there is none, into a
    /// strictly closer square held by a friendly unit that can itself retreat
    /// by its own procedure, and so on down the chain. `forest` is false for
    /// the Heavy Cavalry, which never enters a forest (N6).
    fn cavalry_retreats(&self, side: Side, from: Space, forest: bool, out: &mut Vec<Chain>) {
        let b = board();
        let reserve = b.reserve(side);
        let mut closer = b.adjacent(from) & b.closer(side, from);
        if !forest {
            closer &= !b.forests();
        }
        let empty = closer & ((!self.occupied() & !b.reserves()) | reserve.set());
        if !empty.is_empty() {
            out.extend(empty.iter().map(Chain::to));
            return;
        }
        let mut displaced = Vec::new();
        for friend in closer & self.occupied_by(side) {
            displaced.clear();
            debug_assert_eq!(UnitId(self.at[friend.index()]).side(), side);
            // A displaced unit retreats by its own procedure, never by the
            // forest-to-forest option (R22, R24).
            self.retreats(friend, RetreatCause::Other, &mut displaced);
            out.extend(
                displaced
                    .iter()
                    .filter_map(|rest| Chain::prepend(friend, rest)),
            );
        }
    }

    /// Carries out a retreat of the unit on `from` along `chain`, the last
    /// displaced unit moving first so that every square is free when entered.
    pub(crate) fn perform_retreat(&mut self, from: Space, chain: &Chain, events: &mut Vec<Event>) {
        let squares = chain.squares();
        let mut movers = Vec::with_capacity(squares.len());
        let mut origin = from;
        for &to in squares {
            if let Some(u) = self.unit_at(origin) {
                movers.push((u, origin, to));
            }
            origin = to;
        }
        for &(u, _, _) in movers.iter().rev() {
            self.lift(u);
        }
        for &(u, origin, to) in &movers {
            self.place(u, to);
            self.mark_retreated(u);
            events.push(Event::Retreated {
                side: u.side(),
                unit: u.kind(),
                from: origin,
                to,
            });
        }
    }
}
