//! SQUARES (both games) as a [`Searchable`]: the engine's allocation-free
//! listing and its fast apply, and a score from the points (R26, R27).

use super::mcts::Searchable;
use crate::games::squares::Event;
use crate::games::squares::{board, Half, Order, Side, Space, Squares, Variant, WINNING_POINTS};
use crate::games::GameResult;

thread_local! {
    static EVENTS: std::cell::RefCell<Vec<Event>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Searchable for Squares {
    type Order = Order;

    fn decider(&self) -> Option<usize> {
        self.side_to_decide().map(Side::index)
    }

    fn legal(&self, out: &mut Vec<Order>) {
        self.legal_orders_into(out);
    }

    /// Counted a destination set at a time, only the chosen order made
    /// (`Squares::pick_legal_order`): the same order listing would give.
    fn random_order(
        &self,
        pick: impl FnMut(usize) -> usize,
        scratch: &mut Vec<Order>,
    ) -> Option<Order> {
        self.pick_legal_order(pick, scratch)
    }

    fn play(&mut self, order: Order) {
        // The events are for the mail; the search does not read them, and
        // one buffer per thread keeps the playout loop free of allocation.
        EVENTS.with_borrow_mut(|events| {
            events.clear();
            self.apply_listed(order, events);
        });
    }

    /// Attacks, and moves into the enemy reserve (R13). In the Napoleonic
    /// variant not the unsupported attacks that only lose the attacker
    /// (`doomed`): there are many more of them there (N11, N14, N15), and
    /// tried first they took most of a small budget.
    fn is_forcing(&self, order: &Order) -> bool {
        let enemy_reserve = board().reserve(self.to_move().opponent());
        match order {
            Order::Attack {
                attacker,
                target,
                support: None,
            } if self.variant() == Variant::Napoleonic => !self.doomed(*attacker, *target),
            Order::Attack { .. } => true,
            Order::Move(step) => step.to == enemy_reserve,
            Order::MoveTwo(a, b) => a.to == enemy_reserve || b.to == enemy_reserve,
            _ => false,
        }
    }

    /// Blue is player 0. A finished game scores its result; an unfinished
    /// one the points lead, on a curve that reaches 0.9 (not 1) at a lead
    /// of ten, so that a real win always outranks a big lead.
    fn score(&self) -> f64 {
        match self.outcome() {
            Some(outcome) => match outcome.result {
                GameResult::Win(seat) if Side::from(seat) == Side::Blue => 1.0,
                GameResult::Win(_) => 0.0,
                GameResult::Draw => 0.5,
            },
            None => {
                let lead = f64::from(self.points(Side::Blue)) - f64::from(self.points(Side::Gray));
                0.5 + 0.4 * (lead / f64::from(WINNING_POINTS)).clamp(-1.0, 1.0)
            }
        }
    }
}

impl Squares {
    /// Whether the unsupported attack from `attacker` on `target` can gain
    /// nothing: on a forest square the attacker is eliminated (R17); a unit
    /// immune to the attacker's type eliminates it, or at best for the
    /// attacker retreats where its owner may choose to stand instead
    /// (artillery family, N15 and R17; heavy cavalry against cavalry, N14;
    /// the Guard against infantry, N11, unless directly after a PASS).
    fn doomed(&self, attacker: Space, target: Space) -> bool {
        if target == board().reserve(self.to_move().opponent()) {
            return false;
        }
        if board().is_forest(target) {
            return true;
        }
        let (Some(a), Some(d)) = (self.unit_at(attacker), self.unit_at(target)) else {
            return false;
        };
        let defence = self.variant().unit(d.kind());
        defence.immune_to.contains(a.kind())
            && !(defence.immunity_lapses_after_pass && self.half() == Half::First)
    }
}

#[cfg(test)]
mod tests {
    use crate::bot::Searchable;
    use crate::games::squares::notation::NAPOLEONIC;
    use crate::games::squares::{Order, Squares};

    fn forcing(position: &str, order: &str) -> bool {
        let p: Squares = position.parse().unwrap();
        let order = Order::read(order, &NAPOLEONIC).unwrap();
        let mut legal = Vec::new();
        p.legal(&mut legal);
        assert!(legal.contains(&order), "{order:?} is legal");
        p.is_forcing(&order)
    }

    #[test]
    fn n14_a_lone_cavalry_attack_on_heavy_cavalry_is_not_forcing() {
        // A British cavalry on B1C, a French heavy cavalry on F1C.
        let doomed = "napoleonic 6IG2L2AH2CK/3/4/2/2C2/2/2k2/2/4/3/6ig2l2ah3c - b - 20 -";
        assert!(!forcing(doomed, "ATTACK B1C F1C"));
        // The same attack on an ordinary cavalry may win something (R24).
        let fair = "napoleonic 6IG2L2AH2CK/3/4/2/2C2/2/2c2/2/4/3/6ig2l2ah2ck - b - 20 -";
        assert!(forcing(fair, "ATTACK B1C F1C"));
    }
}
