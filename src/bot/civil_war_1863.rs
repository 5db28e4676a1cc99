//! The Civil War Game 1863 as a [`Searchable`]: a turn is many orders, one
//! decision each, until END (P7); the coin of an even battle is chance
//! (P22); and an unfinished game is scored by the pieces each side has
//! left, since taking all of the other's is how it is won (P34).

use super::mcts::Searchable;
use crate::games::civil_war_1863::core::flow::{DecisionKind, Stage};
use crate::games::civil_war_1863::engine::cities::{capital_cost, key_city_cost};
use crate::games::civil_war_1863::{CivilWar1863, Counts, Event, Order, PieceKind, Side, Square};
use crate::games::{GameResult, Seat};

thread_local! {
    static EVENTS: std::cell::RefCell<Vec<Event>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The squares of the side to move a playout draws its stack from.
    static SQUARES: std::cell::RefCell<Vec<Square>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A playout's turn ends after about this many orders: one in `END_ODDS`.
const END_ODDS: usize = 8;

/// A playout plays the best ranked ([`Searchable::prior`]) of this many
/// orders drawn at random: random enough to sample the other replies,
/// biased enough that a playout takes a won battle and seldom walks into
/// a lost one, as a player would.
const PLAYOUT_DRAWS: usize = 3;

/// The share of a threatened stack's loss (a piece net and its city,
/// P20, P27, P30) the score counts when the threatening side is to move:
/// it attacks unless it has already moved that group.
const THREAT_TO_MOVE: f64 = 0.7;

/// The same when the threatened side is to move: it may still step away
/// or reinforce.
const THREAT_WAITING: f64 = 0.3;

/// How steeply the score of an unfinished game rises with the share of
/// the pieces: on the former straight line a piece out of forty moved the
/// score by about a hundredth, and the search's rounds hardly told orders
/// apart; at 3 a piece moves it by three hundredths (6 did worse over 20
/// games, docs/computer-opponent.md), and a real win still outranks any
/// lead.
const SCORE_GAIN: f64 = 3.0;

/// The largest group `enemy` could attack `sq` with on its next turn (P25:
/// groups from different squares never fight as one): a neighbouring stack
/// whole (infantry marches one square, P10), a stack two squares away with
/// its cavalry and gunboats only (P11, P12). Disabled pieces (P23) and
/// ground pieces locked in a fortified city (P32) cannot come. Terrain and
/// rides are left out: this is a quick reading of danger, not a rule.
fn threat(g: &CivilWar1863, enemy: Side, sq: Square) -> u32 {
    let mut most = 0;
    for (at, s) in g.stacks_near(sq, 2) {
        if at == sq || s.side != enemy {
            continue;
        }
        let mut able = s.all().minus(s.disabled);
        if s.fort.has_marker() {
            able = Counts::of(PieceKind::Gunboat, able.get(PieceKind::Gunboat));
        }
        let next_door = at.column().abs_diff(sq.column()) <= 1 && at.row().abs_diff(sq.row()) <= 1;
        let n = if next_door {
            able.total()
        } else {
            u32::from(able.get(PieceKind::Cavalry) + able.get(PieceKind::Gunboat))
        };
        most = most.max(n);
    }
    most
}

/// What `owner` pays when the square falls to the enemy for the first
/// time: its key city costs 2 (North) or 1 (South) pieces (P27), its
/// capital 6 or 5 (P30); nothing elsewhere or once flagged (P28).
fn city_cost(g: &CivilWar1863, owner: Side, sq: Square) -> f64 {
    if g.is_flagged(sq) {
        0.0
    } else if g.board().key_city_side(sq) == Some(owner) {
        f64::from(key_city_cost(owner))
    } else if g.board().capital(sq).is_some_and(|c| c.side == owner) {
        f64::from(capital_cost(owner))
    } else {
        0.0
    }
}

/// The stacks of the enemy of the side to move, with their strength on
/// their square, read from the board once when first asked for: a playout
/// ranks three orders of one position, and each asked twice.
struct Prey<'a> {
    game: &'a CivilWar1863,
    /// The enemy's stacks once read (`read`), in a buffer borrowed from
    /// [`PREY_STACKS`] for as long as this lives: a playout ranks orders
    /// at every step, and growing a new list each time was much of the
    /// tenth of its time spent listing them.
    stacks: std::cell::RefCell<Vec<(Square, u32)>>,
    read: std::cell::Cell<bool>,
    /// [`threat`] to squares by the enemy of the side to move, as worked
    /// out so far: the orders ranked together mostly leave one square.
    threats: std::cell::RefCell<[Option<(Square, u32)>; THREATS_KEPT]>,
}

thread_local! {
    /// The buffer a [`Prey`] lists the enemy's stacks in; one that finds
    /// it taken (two alive at once) starts its own.
    static PREY_STACKS: std::cell::RefCell<Vec<(Square, u32)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// How many squares' threats a [`Prey`] keeps: a draw of
/// [`PLAYOUT_DRAWS`] orders asks of one square they leave and one each
/// enters.
const THREATS_KEPT: usize = 1 + PLAYOUT_DRAWS;

impl Drop for Prey<'_> {
    fn drop(&mut self) {
        let buffer = std::mem::take(self.stacks.get_mut());
        PREY_STACKS.with_borrow_mut(|kept| *kept = buffer);
    }
}

impl<'a> Prey<'a> {
    fn of(game: &'a CivilWar1863) -> Prey<'a> {
        Prey {
            game,
            stacks: std::cell::RefCell::new(PREY_STACKS.with_borrow_mut(std::mem::take)),
            read: std::cell::Cell::new(false),
            threats: std::cell::RefCell::new([None; THREATS_KEPT]),
        }
    }

    /// [`threat`] to `sq` by the enemy of the side to move.
    fn threat(&self, sq: Square) -> u32 {
        let mut kept = self.threats.borrow_mut();
        if let Some(&(_, t)) = kept.iter().flatten().find(|&&(at, _)| at == sq) {
            return t;
        }
        let t = threat(self.game, self.game.to_move().opponent(), sq);
        if let Some(free) = kept.iter_mut().find(|k| k.is_none()) {
            *free = Some((sq, t));
        }
        t
    }

    /// The distance (in king steps) from `sq` to the nearest enemy stack
    /// weaker than `strength` on its square, if any: what a group should
    /// close on (P19: only a larger force attacks without a coin).
    fn nearest(&self, sq: Square, strength: u32) -> Option<u32> {
        let enemy = self.game.to_move().opponent();
        let mut stacks = self.stacks.borrow_mut();
        if !self.read.replace(true) {
            stacks.clear();
            stacks.extend(
                self.game
                    .stacks()
                    .filter(|(_, s)| s.side == enemy)
                    .map(|(at, _)| (at, self.game.strength(at))),
            );
        }
        stacks
            .iter()
            .filter(|&&(_, s)| s < strength)
            .map(|&(at, _)| {
                u32::from(
                    at.column()
                        .abs_diff(sq.column())
                        .max(at.row().abs_diff(sq.row())),
                )
            })
            .min()
    }
}

impl CivilWar1863 {
    /// The prior of a move or ride of `pieces` from `from` to `to` for the
    /// side to move, in pieces won (+) or lost (-), roughly.
    fn move_prior(&self, from: Square, pieces: Counts, to: Square, prey: &Prey<'_>) -> f64 {
        let side = self.to_move();
        let enemy = side.opponent();
        let n = pieces.total();
        let mut v = 0.0;
        let here = self.strength(from);
        let t_from = prey.threat(from);
        let was_threatened = t_from > here;
        let left = here.saturating_sub(n);
        if left > 0 {
            // Pieces left behind that a larger enemy group could now take
            // (P19, P20), and a city of ours with them (P26, P27).
            if !was_threatened && t_from > left {
                v -= 1.0 + city_cost(self, side, from);
            }
        } else if t_from > 0 {
            // Our key city left empty where the enemy can walk in (P27).
            v -= city_cost(self, side, from);
        }
        if self.hostile_to(side, to) {
            let d = self.strength(to);
            let prize = city_cost(self, enemy, to);
            if n > d {
                // A larger battle: the defender loses one more than we do
                // (P20), and a city falls with it (P26, P27, P30).
                v += 2.0 + prize + 0.1 * f64::from(d);
                if prey.threat(to) > n {
                    v -= 1.0;
                }
            } else if n == d {
                // The coin (P22): even in pieces, half a city.
                v += 0.5 * prize - 0.3;
            } else {
                // A sacrifice (P23): one piece for a turn's delay.
                v -= 1.5;
            }
            return v;
        }
        if self.board().key_city_side(to) == Some(enemy) && !self.is_flagged(to) {
            v += 1.0 + city_cost(self, enemy, to);
        }
        let arrived = self.strength(to) + n;
        let t_to = prey.threat(to);
        if t_to > arrived {
            v -= 1.0 + city_cost(self, side, to);
            return v;
        }
        if was_threatened && left == 0 {
            // Out of reach of the larger enemy group.
            v += 1.0;
        }
        if self.holder(to) == Some(side) {
            // Stacks together are larger (P18, P19).
            v += 0.2;
        } else if t_to > 0 {
            // Guarding a city of ours the enemy can reach (P27).
            v += 0.5 * city_cost(self, side, to);
        }
        if let (Some(before), Some(after)) = (prey.nearest(from, n), prey.nearest(to, arrived)) {
            v += 0.1 * (f64::from(before) - f64::from(after));
        }
        v
    }

    /// [`Searchable::prior`], with the enemy's stacks read once for
    /// several orders of this position.
    fn prior_with(&self, order: &Order, prey: &Prey<'_>) -> f64 {
        let Some((side, _)) = self.decision() else {
            return 0.0;
        };
        match order {
            Order::Move { from, pieces, path } | Order::Ride { from, pieces, path } => path
                .last()
                .map_or(0.0, |&to| self.move_prior(*from, *pieces, to, prey)),
            Order::Fortify(at) => {
                // Worth it when doubling (P32) holds off a larger group.
                let t = threat(self, side.opponent(), *at);
                let s = self.strength(*at);
                let ground = self.stack(*at).map_or(0, |s| s.all().ground());
                if t > s && t <= s + ground {
                    1.5
                } else if t > 0 {
                    0.3
                } else {
                    -0.3
                }
            }
            Order::Unfortify(_) => -0.5,
            Order::Losses { take, .. } => {
                // Each k costs us k - 1 (P20): trade down when ahead.
                let k = f64::from(*take);
                if self.pieces_of(side) >= self.pieces_of(side.opponent()) {
                    k
                } else {
                    -k
                }
            }
            Order::Survivors { pieces, path } => path.last().map_or(0.0, |&to| {
                let arrived = self.strength(to) + pieces.total();
                if threat(self, side.opponent(), to) > arrived {
                    -1.0
                } else if self.holder(to) == Some(side) {
                    0.2
                } else {
                    0.0
                }
            }),
            Order::Remove { square, .. } => {
                // A piece from a stack the enemy can take anyway, not one
                // whose loss opens a city (P27) or a new target (P19).
                let s = self.strength(*square);
                let t = threat(self, side.opponent(), *square);
                if t > s {
                    0.5
                } else if t + 1 > s {
                    -0.5 - city_cost(self, side, *square)
                } else {
                    0.0
                }
            }
            _ => 0.0,
        }
    }
}

impl Searchable for CivilWar1863 {
    type Order = Order;

    /// Long enough for the other side's answer to come within a playout
    /// (its turns end by chance, [`random_order`](Searchable::random_order)),
    /// short enough that the score's reading of the threats on the board
    /// still speaks of the order searched, which random orders drift away
    /// from; 48 before the score read threats, at twice the time a round.
    const PLAYOUT_ORDERS: usize = 24;

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
        if out.len() == start {
            // Only splits can move (a stack whose infantry is held where
            // its cavalry is not, P5, P6), and END waits for a first order
            // (P8): every order then, so that the turn always has one.
            out.extend(self.legal());
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
            if scratch.is_empty() {
                return None;
            }
            if self.at_chance() {
                return Some(scratch.swap_remove(pick(scratch.len())));
            }
            return Some(self.best_of_draws(&mut pick, scratch));
        }
        if self.orders_this_turn() > 0 && pick(END_ODDS) == 0 {
            return Some(Order::EndTurn);
        }
        // One buffer per thread keeps a playout from allocating the list
        // order after order.
        SQUARES.with_borrow_mut(|squares| {
            squares.clear();
            squares.extend(self.squares_held_by(self.to_move()));
            while !squares.is_empty() {
                let i = pick(squares.len());
                if self.orders_from(squares[i], scratch, false) {
                    return Some(self.best_of_draws(&mut pick, scratch));
                }
                squares.swap_remove(i);
            }
            // No stack can move: END is the turn's only order (P8).
            Some(Order::EndTurn)
        })
    }

    const RANKS_ORDERS: bool = true;

    /// Pieces won or lost, roughly, by the order (P19-P27): a larger
    /// attack and a city taken first, a group walked next to a larger
    /// enemy one or a key city left open to it last.
    fn prior(&self, order: &Order) -> f64 {
        self.prior_with(order, &Prey::of(self))
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
    /// less those a larger enemy group can take next (P19, P20, and the
    /// city with them, P27, P30), counted in part since the group may
    /// move or be moved first, on a curve that stays inside 0.05-0.95,
    /// so that a real win always outranks a big lead.
    fn score(&self) -> f64 {
        match self.outcome() {
            Some(outcome) => match outcome.result {
                GameResult::Win(Seat::North) => 1.0,
                GameResult::Win(_) => 0.0,
                GameResult::Draw => 0.5,
            },
            None => {
                let (mut north, mut south) = (0.0, 0.0);
                for (sq, s) in self.stacks() {
                    let mut n = f64::from(s.all().total());
                    let enemy = s.side.opponent();
                    if threat(self, enemy, sq) > self.strength(sq) {
                        let odds = if enemy == self.to_move() {
                            THREAT_TO_MOVE
                        } else {
                            THREAT_WAITING
                        };
                        n -= odds * (1.0 + city_cost(self, s.side, sq));
                    }
                    if s.side == Side::Union {
                        north += n;
                    } else {
                        south += n;
                    }
                }
                let (n, s) = (f64::max(north, 0.0), f64::max(south, 0.0));
                0.5 + 0.45 * (SCORE_GAIN * (n - s) / (n + s).max(1.0)).tanh()
            }
        }
    }
}

impl CivilWar1863 {
    /// The best ranked of [`PLAYOUT_DRAWS`] orders drawn from `orders`
    /// (not empty); the first drawn wins ties.
    fn best_of_draws(
        &self,
        pick: &mut impl FnMut(usize) -> usize,
        orders: &mut Vec<Order>,
    ) -> Order {
        let mut best = pick(orders.len());
        if orders.len() > 1 {
            let prey = Prey::of(self);
            let mut best_prior = self.prior_with(&orders[best], &prey);
            for _ in 1..PLAYOUT_DRAWS {
                let i = pick(orders.len());
                let p = self.prior_with(&orders[i], &prey);
                if p > best_prior {
                    (best, best_prior) = (i, p);
                }
            }
        }
        orders.swap_remove(best)
    }
}
