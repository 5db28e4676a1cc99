//! Playing orders: the legal orders of the pending decision, and applying
//! one: turn orders here, decisions inside an attack in `attack.rs`, then
//! every decision that leaves one choice (docs/squares-engine.md,
//! "Decisions inside an attack").

use crate::games::squares::core::attack::Stage;
use crate::games::squares::core::board::{board, Space};
use crate::games::squares::core::event::Event;
use crate::games::squares::core::order::{Order, Step};
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::{UnitId, UnitKind};
use crate::games::squares::engine::rules::Access;

impl Squares {
    /// Appends every legal order for the pending decision to `out` (the
    /// allocation-free form of [`Game::legal_orders`](crate::games::Game::legal_orders)).
    pub fn legal_orders_into(&self, out: &mut Vec<Order>) {
        if self.outcome.is_some() {
            return;
        }
        match &self.attack {
            Some(attack) => self.decision_orders(attack, out),
            None => self.turn_orders(out),
        }
    }

    /// The order that [`Squares::legal_orders_into`] would list at the
    /// index `pick` chooses, given how many it would list (`pick` is called
    /// once, with at least 1, and must answer below it); `None`, without
    /// calling `pick`, when there is no legal order. The same choice as
    /// listing then indexing, for random play, without listing a turn's
    /// every order: they are counted a destination set at a time, then
    /// only the one chosen is made. `scratch` holds the few orders of a
    /// decision inside an attack, which are listed.
    pub fn pick_legal_order(
        &self,
        pick: impl FnOnce(usize) -> usize,
        scratch: &mut Vec<Order>,
    ) -> Option<Order> {
        if self.outcome.is_some() {
            return None;
        }
        if let Some(attack) = &self.attack {
            scratch.clear();
            self.decision_orders(attack, scratch);
            if scratch.is_empty() {
                return None;
            }
            return Some(scratch[pick(scratch.len())]);
        }
        self.pick_turn_order(pick)
    }

    /// Finds the listed order that `given` denotes: the same order, or the
    /// same move written with another legal cavalry path, without its
    /// optional path, or with its two parts the other way round.
    pub(crate) fn matching(&self, legal: &[Order], given: &Order) -> Option<Order> {
        if legal.contains(given) {
            return Some(*given);
        }
        let same_step = |a: &Step, b: &Step| a.from == b.from && a.to == b.to && a.unit == b.unit;
        legal.iter().copied().find(|listed| match (listed, given) {
            (Order::Move(l), Order::Move(g)) => same_step(l, g) && self.path_ok(l, g),
            // S2: the parts move in the order written, so the other order
            // is the same move only when that sequence is legal too.
            (Order::MoveTwo(l1, l2), Order::MoveTwo(g1, g2)) => {
                same_step(l1, g2)
                    && same_step(l2, g1)
                    && g1.via.is_none()
                    && g2.via.is_none()
                    && self.two_cavalry_sequence_ok(g1, g2)
            }
            _ => false,
        })
    }

    /// Whether the cavalry path a player wrote fits a listed move (R11, S3;
    /// N25 for the Horse Battery): any middle square adjacent to both ends
    /// that is not a forest and is empty or the mover's own reserve, even
    /// where one step would do.
    fn path_ok(&self, listed: &Step, given: &Step) -> bool {
        match (listed.via, given.via) {
            (_, Some(v)) => {
                let kind = listed
                    .unit
                    .or_else(|| self.unit_at(listed.from).map(|u| u.kind()));
                if kind.is_none_or(|k| self.variant.unit(k).steps < 2) {
                    return false;
                }
                let b = board();
                let own_reserve = b.reserve(self.to_move);
                b.adjacent(given.from).contains(v)
                    && b.adjacent(v).contains(given.to)
                    && !b.is_forest(v)
                    && !b.is_forest(given.to)
                    && (v == own_reserve
                        || (b.reserve_owner(v).is_none() && !self.occupied().contains(v)))
            }
            _ => true,
        }
    }

    /// Applies an order known to be legal (one of [`Squares::legal_orders_into`]),
    /// then takes every following decision that has exactly one legal choice.
    /// The fast path for search and random play; [`Game::apply`](crate::games::Game::apply) checks first.
    pub fn apply_listed(&mut self, order: Order, events: &mut Vec<Event>) {
        self.execute(order, events);
        // R20: ADVANCE or STAY is always a choice of two, so an attack
        // waiting for it needs no list of its orders.
        if self.attack.is_none_or(|a| a.stage == Stage::Advance) {
            return;
        }
        let mut legal = Vec::with_capacity(8);
        while let (Some(attack), None) = (self.attack, self.outcome) {
            legal.clear();
            self.decision_orders(&attack, &mut legal);
            if legal.len() != 1 {
                break;
            }
            let only = legal[0];
            let side = self.side_to_decide().unwrap_or(self.to_move);
            events.push(Event::Forced { side, order: only });
            self.execute(only, events);
        }
    }

    fn execute(&mut self, order: Order, events: &mut Vec<Event>) {
        if self.attack.is_some() {
            self.apply_decision(order, events);
            return;
        }
        let side = self.to_move;
        match order {
            Order::Pass => {
                self.passed[side.index()] = true;
                self.record_runs(&[], None, 1);
                events.push(Event::Passed { side });
                self.finish_action(false, events);
            }
            Order::Move(step) => {
                let u = self.mover(&step, None);
                let whole = self.is_whole_double_turn(u.kind(), step.from, step.to);
                self.passed[side.index()] = false;
                self.record_runs(&[u], None, if whole { 2 } else { 1 });
                self.relocate(u, step.to);
                events.push(Event::Moved {
                    side,
                    unit: u.kind(),
                    from: step.from,
                    to: step.to,
                });
                self.finish_action(whole, events);
            }
            Order::MoveTwo(p, q) => {
                let first = self.mover(&p, None);
                self.relocate(first, p.to);
                let second = self.mover(&q, Some(first));
                self.relocate(second, q.to);
                self.passed[side.index()] = false;
                self.record_runs(&[first, second], None, 1);
                for (u, step) in [(first, p), (second, q)] {
                    events.push(Event::Moved {
                        side,
                        unit: u.kind(),
                        from: step.from,
                        to: step.to,
                    });
                }
                self.finish_action(false, events);
            }
            Order::Attack {
                attacker,
                target,
                support,
            } => self.start_attack(attacker, target, support, events),
            _ => {}
        }
    }

    /// The unit a listed move acts on (R7 for a reserve).
    fn mover(&self, step: &Step, except: Option<UnitId>) -> UnitId {
        match step.unit {
            Some(kind) => self
                .reserve_pick(self.to_move, kind, except)
                .expect("a listed reserve move has an eligible unit"),
            None => self
                .unit_at(step.from)
                .expect("a listed move starts from a unit"),
        }
    }

    /// R5: a step its type makes only as a whole double turn (infantry
    /// stepping diagonally; infantry or artillery entering a forest; N3-N5).
    pub(crate) fn is_whole_double_turn(&self, kind: UnitKind, from: Space, to: Space) -> bool {
        let b = board();
        let rules = self.variant.unit(kind);
        (rules.forest == Access::WholeDoubleTurn && b.is_forest(to))
            || (rules.corner == Access::WholeDoubleTurn && b.corner(from).contains(to))
    }
}

#[cfg(test)]
mod tests {
    use crate::games::squares::core::state::Squares;
    use crate::games::squares::core::unit::Side;
    use crate::games::squares::core::variant::Variant;

    /// Picking the k-th order without listing chooses what listing then
    /// indexing chooses, at every index, in positions of random games of
    /// both variants (turns and decisions inside attacks alike); and R8's
    /// "any order" test agrees with the listing.
    #[test]
    fn picking_an_order_matches_the_listing() {
        for variant in [Variant::CivilWar, Variant::Napoleonic] {
            for seed in 1..=12u64 {
                let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let mut next = move || {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state
                };
                let first = if seed % 2 == 0 {
                    Side::Blue
                } else {
                    Side::Gray
                };
                let mut game = Squares::opening_of(variant, first);
                let (mut legal, mut scratch, mut events) = (Vec::new(), Vec::new(), Vec::new());
                for _ in 0..2000 {
                    legal.clear();
                    game.legal_orders_into(&mut legal);
                    if game.outcome.is_none() && game.attack.is_none() {
                        assert_eq!(game.any_turn_order(), !legal.is_empty());
                    }
                    for (k, &order) in legal.iter().enumerate() {
                        let picked = game.pick_legal_order(
                            |n| {
                                assert_eq!(n, legal.len());
                                k
                            },
                            &mut scratch,
                        );
                        assert_eq!(picked, Some(order), "index {k} of {legal:?}");
                    }
                    if legal.is_empty() {
                        assert_eq!(
                            game.pick_legal_order(|_| unreachable!(), &mut scratch),
                            None
                        );
                        break;
                    }
                    let order = legal[(next() % legal.len() as u64) as usize];
                    events.clear();
                    game.apply_listed(order, &mut events);
                }
            }
        }
    }
}
