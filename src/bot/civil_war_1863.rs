//! The Civil War Game 1863 as a [`Searchable`]: a turn is many orders, one
//! decision each, until END (P7); the coin of an even battle is chance
//! (P22); and an unfinished game is scored by the pieces each side has
//! left, since taking all of the other's is how it is won (P34).

use super::mcts::Searchable;
use crate::games::civil_war_1863::core::flow::{DecisionKind, Stage};
use crate::games::civil_war_1863::{CivilWar1863, Event, Order, PieceKind, Side};
use crate::games::{GameResult, Seat};

thread_local! {
    static EVENTS: std::cell::RefCell<Vec<Event>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A playout's turn ends after about this many orders: one in `END_ODDS`.
const END_ODDS: usize = 8;

impl Searchable for CivilWar1863 {
    type Order = Order;

    /// Long enough for the other side's answer to come within a playout
    /// (its turns end by chance, [`random_order`](Searchable::random_order)):
    /// an unanswered turn flatters the side that played it.
    const PLAYOUT_ORDERS: usize = 48;

    fn decider(&self) -> Option<usize> {
        self.decision().map(|(side, _)| Seat::from(side).index())
    }

    fn at_chance(&self) -> bool {
        self.outcome().is_none() && self.battle().is_some_and(|b| b.stage == Stage::Coin)
    }

    /// The orders the search weighs: in a turn, a stack's moves and rides
    /// with all of its free pieces, and every split only where it attacks
    /// or takes a city (P19, P20: there the size of the group decides the
    /// battle). Splitting a stack on a quiet move multiplies the hundreds
    /// of orders by the ways to part it, and a search of a few hundred
    /// rounds would try each once at best. Every order kept is legal.
    fn legal(&self, out: &mut Vec<Order>) {
        let start = out.len();
        out.extend(self.legal());
        if !matches!(self.decision(), Some((_, DecisionKind::Turn { .. }))) {
            return;
        }
        let mut i = start;
        while i < out.len() {
            let keep = match &out[i] {
                Order::Move { from, pieces, .. } | Order::Ride { from, pieces, .. } => {
                    self.is_forcing(&out[i])
                        || self.stack(*from).is_some_and(|s| s.free() == *pieces)
                        || matches!(out[i], Order::Ride { .. })
                            && self.stack(*from).is_some_and(|s| {
                                s.free().get(PieceKind::Infantry) == pieces.get(PieceKind::Infantry)
                            })
                }
                _ => true,
            };
            if keep {
                i += 1;
            } else {
                out.remove(i);
            }
        }
    }

    /// In a turn: END one time in [`END_ODDS`] once an order is given (P8),
    /// else a random stack of the side to move, then one of its orders.
    /// Listing a stack's orders, not the turn's hundreds, is what makes a
    /// playout cheap; a turn ends by chance, as a player's would, instead
    /// of running until every piece has moved. Decisions inside an order
    /// (losses, survivors, removals, the piece kept) are listed whole.
    fn random_order(
        &self,
        mut pick: impl FnMut(usize) -> usize,
        scratch: &mut Vec<Order>,
    ) -> Option<Order> {
        scratch.clear();
        if !matches!(self.decision(), Some((_, DecisionKind::Turn { .. }))) {
            scratch.extend(self.legal());
            return (!scratch.is_empty()).then(|| scratch.swap_remove(pick(scratch.len())));
        }
        if self.orders_this_turn() > 0 && pick(END_ODDS) == 0 {
            return Some(Order::EndTurn);
        }
        let mut squares = self.squares_of(self.to_move());
        while !squares.is_empty() {
            let i = pick(squares.len());
            if self.orders_from(squares[i], scratch, false) {
                return Some(scratch.swap_remove(pick(scratch.len())));
            }
            squares.swap_remove(i);
        }
        // No stack can move: END is the turn's only order (P8).
        Some(Order::EndTurn)
    }

    fn play(&mut self, order: Order) {
        // The events are for the mail; one buffer per thread keeps the
        // search from allocating them order after order.
        EVENTS.with_borrow_mut(|events| {
            events.clear();
            self.apply_listed(&order, events);
        });
    }

    /// Attacks by a larger force (P19, P20: the attacker chooses what is
    /// lost, and loses less) and moves into an enemy key city not yet
    /// captured (P27: its owner pays pieces for it). Even battles and
    /// sacrifices are a coin or a piece thrown away; they wait with the
    /// quiet orders.
    fn is_forcing(&self, order: &Order) -> bool {
        let side = self.to_move();
        let (pieces, to) = match order {
            Order::Move { pieces, path, .. } | Order::Ride { pieces, path, .. } => {
                (pieces, path.last())
            }
            _ => return false,
        };
        to.is_some_and(|&to| {
            if self.hostile_to(side, to) {
                pieces.total() > self.strength(to)
            } else {
                self.board().key_city_side(to) == Some(side.opponent()) && !self.is_flagged(to)
            }
        })
    }

    /// The North (the Union) is player 0. A finished game scores its
    /// result; an unfinished one the share of the pieces on the board,
    /// on a curve that stays inside 0.05-0.95, so that a real win always
    /// outranks a big lead.
    fn score(&self) -> f64 {
        match self.outcome() {
            Some(outcome) => match outcome.result {
                GameResult::Win(Seat::North) => 1.0,
                GameResult::Win(_) => 0.0,
                GameResult::Draw => 0.5,
            },
            None => {
                let north = f64::from(self.pieces_of(Side::Union));
                let south = f64::from(self.pieces_of(Side::Confederacy));
                0.5 + 0.45 * (north - south) / (north + south).max(1.0)
            }
        }
    }
}
