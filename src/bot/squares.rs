//! SQUARES (both games) as a [`Searchable`]: the engine's allocation-free
//! listing and its fast apply, and a score from the points (R26, R27).

use super::mcts::Searchable;
use crate::games::squares::Event;
use crate::games::squares::{board, Order, Side, Squares, WINNING_POINTS};
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

    /// Attacks, and moves into the enemy reserve (R13).
    fn is_forcing(&self, order: &Order) -> bool {
        let enemy_reserve = board().reserve(self.to_move().opponent());
        match order {
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
