//! Every legal order for the decision the game waits for: the turn's
//! moves (group splits by counts per kind, cavalry and gunboat paths),
//! rides and fortification orders, and the answers inside an order.

use crate::games::civil_war_1863::core::flow::Stage;
use crate::games::civil_war_1863::core::order::Order;
use crate::games::civil_war_1863::core::side::{PieceKind, Side};
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::Counts;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::movement::{paths, reach};

impl CivilWar1863 {
    /// Every legal order now, in a fixed order; empty once the game is over.
    pub fn legal(&self) -> Vec<Order> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        if let Some(b) = self.battle {
            return match b.stage {
                Stage::Losses => self.loss_orders(),
                Stage::Coin => vec![Order::Toss { heads: true }, Order::Toss { heads: false }],
                Stage::Keep { .. } => self.keep_orders(),
                Stage::Survivors => self.survivor_orders(),
            };
        }
        if !self.removals.is_empty() {
            return self.removal_orders();
        }
        let mut out = Vec::new();
        self.turn_orders(&mut out, false);
        if self.orders > 0 || out.is_empty() {
            out.push(Order::EndTurn);
        }
        out
    }

    /// Whether the side to move has any order besides END (P8).
    pub(crate) fn can_act(&self) -> bool {
        let mut out = Vec::new();
        self.turn_orders(&mut out, true);
        !out.is_empty()
    }

    /// The turn's orders other than END; with `first`, stops at the first.
    fn turn_orders(&self, out: &mut Vec<Order>, first: bool) {
        let side = self.to_move;
        for from in self.squares_of(side) {
            if self.orders_from(from, out, first) && first {
                return;
            }
        }
    }

    /// The squares holding a stack of `side`, in board order.
    pub(crate) fn squares_of(&self, side: Side) -> Vec<Square> {
        self.stacks()
            .filter(|(_, s)| s.side == side)
            .map(|(sq, _)| sq)
            .collect()
    }

    /// Appends the turn's orders for the stack on `from` (of the side to
    /// move): its moves, rides and fortification orders, in the order
    /// [`legal`](Self::legal) lists them. With `first`, stops at the first.
    /// Whether it found any.
    pub(crate) fn orders_from(&self, from: Square, out: &mut Vec<Order>, first: bool) -> bool {
        let Some(stack) = self.stack(from).copied() else {
            return false;
        };
        let before = out.len();
        let free = stack.free();
        for part in free.parts().filter(|p| !p.is_empty()) {
            for path in paths(from, reach(part).1) {
                if self.check_move(from, part, &path).is_ok() {
                    out.push(Order::Move {
                        from,
                        pieces: part,
                        path,
                    });
                    if first {
                        return true;
                    }
                }
            }
        }
        let infantry = free.get(PieceKind::Infantry);
        if infantry > 0 && self.board.is_rail(from) {
            let rides = self.ride_paths(from);
            for n in 1..=infantry {
                let pieces = Counts::of(PieceKind::Infantry, n);
                for path in &rides {
                    if self.check_ride(from, pieces, path).is_ok() {
                        out.push(Order::Ride {
                            from,
                            pieces,
                            path: *path,
                        });
                        if first {
                            return true;
                        }
                    }
                }
            }
        }
        if self.check_fortify(from).is_ok() {
            out.push(Order::Fortify(from));
        }
        if self.check_unfortify(from).is_ok() {
            out.push(Order::Unfortify(from));
        }
        out.len() > before
    }
}
