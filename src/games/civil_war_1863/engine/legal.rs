//! Every legal order for the decision the game waits for: the turn's
//! moves (group splits by counts per kind, cavalry and gunboat paths),
//! rides and fortification orders, and the answers inside an order.

use crate::games::civil_war_1863::core::flow::Stage;
use crate::games::civil_war_1863::core::order::Order;
use crate::games::civil_war_1863::core::side::{PieceKind, Side};
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::Counts;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::movement::{kind_mix, reach, OpenPaths};

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
        self.squares_held_by(side).collect()
    }

    /// The squares holding a stack of `side`, in board order, listed as
    /// asked for (into a caller's buffer).
    pub(crate) fn squares_held_by(&self, side: Side) -> impl Iterator<Item = Square> + '_ {
        self.stacks()
            .filter(move |(_, s)| s.side == side)
            .map(|(sq, _)| sq)
    }

    /// Appends the turn's orders for the stack on `from` (of the side to
    /// move): its moves, rides and fortification orders, in the order
    /// [`legal`](Self::legal) lists them. With `first`, stops at the first.
    /// Whether it found any.
    ///
    /// The list is what checking every part of the stack along every path
    /// with [`check_move`](Self::check_move) and every ride with
    /// [`check_ride`](Self::check_ride) gives, in the same order, but each
    /// check is made once where its answer cannot differ: a path's steps
    /// depend only on which kinds the group holds (its reach, P10-P12, and
    /// whether its infantry sails, P13), a ride's track on nothing of the
    /// group, and whether a part may leave on nothing of the path. A large
    /// stack has dozens of parts: this is most of a playout's time.
    pub(crate) fn orders_from(&self, from: Square, out: &mut Vec<Order>, first: bool) -> bool {
        let Some(stack) = self.stack(from).copied() else {
            return false;
        };
        let before = out.len();
        let free = stack.free();
        // For each mix of kinds (bit 0 infantry, 1 cavalry, 2 gunboats), the
        // paths its steps allow, once known.
        let mut open_paths: [Option<OpenPaths>; 8] = Default::default();
        for part in free.parts().filter(|p| !p.is_empty()) {
            if self.check_group(from, part, None).is_err()
                || self.strands_at_sea(&stack, from, part)
            {
                continue;
            }
            let most = reach(part).1;
            let mix = kind_mix(part);
            let open = open_paths[mix].get_or_insert_with(|| self.open_paths(from, mix, most));
            for &path in open.iter() {
                let to = *path.last().expect("a path has a step");
                if self.check_arrival(part, to).is_ok() {
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
            let rides = self.open_rides(from);
            for n in 1..=infantry {
                let pieces = Counts::of(PieceKind::Infantry, n);
                if self.check_group(from, pieces, None).is_err() {
                    continue;
                }
                for path in &rides {
                    let to = *path.last().expect("a ride has a step");
                    if self.check_arrival(pieces, to).is_ok() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::civil_war_1863::core::path::Path;
    use crate::games::civil_war_1863::engine::movement::paths;
    use proptest::prelude::*;

    impl CivilWar1863 {
        /// The turn's orders for the stack on `from` found the plain way:
        /// every part along every path through `check_move`, every ride of
        /// every size through `check_ride`.
        fn orders_from_plainly(&self, from: Square) -> Vec<Order> {
            let mut out = Vec::new();
            let Some(stack) = self.stack(from).copied() else {
                return out;
            };
            let free = stack.free();
            for part in free.parts().filter(|p| !p.is_empty()) {
                for path in paths(from, reach(part).1) {
                    if self.check_move(from, part, &path).is_ok() {
                        out.push(Order::Move {
                            from,
                            pieces: part,
                            path,
                        });
                    }
                }
            }
            let infantry = free.get(PieceKind::Infantry);
            if infantry > 0 && self.board.is_rail(from) {
                let rides: Vec<Path> = self.ride_paths(from);
                for n in 1..=infantry {
                    let pieces = Counts::of(PieceKind::Infantry, n);
                    for path in &rides {
                        if self.check_ride(from, pieces, path).is_ok() {
                            out.push(Order::Ride {
                                from,
                                pieces,
                                path: *path,
                            });
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
            out
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Checking paths once per mix of kinds and rides once per track
        /// lists exactly the orders, in the same order, that checking each
        /// part on each path does, at every turn of random games.
        #[test]
        fn orders_from_lists_what_checking_every_part_and_path_does(seed in any::<u64>()) {
            let mut g = CivilWar1863::opening(crate::games::civil_war_1863::core::board::Board::standard());
            let mut rng = seed | 1;
            let mut next = |n: usize| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng % n as u64) as usize
            };
            for _ in 0..300 {
                if g.outcome().is_some() {
                    break;
                }
                if g.battle.is_none() && g.removals.is_empty() {
                    for from in g.squares_of(g.to_move) {
                        let mut fast = Vec::new();
                        let found = g.orders_from(from, &mut fast, false);
                        prop_assert_eq!(&fast, &g.orders_from_plainly(from), "from {}", from);
                        prop_assert_eq!(found, !fast.is_empty());
                        let mut one = Vec::new();
                        prop_assert_eq!(g.orders_from(from, &mut one, true), found);
                        prop_assert_eq!(one.first(), fast.first());
                    }
                }
                let legal = g.legal();
                let order = legal[next(legal.len())].clone();
                g.apply_listed(&order, &mut Vec::new());
            }
        }
    }
}
