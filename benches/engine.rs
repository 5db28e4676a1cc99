//! Criterion benchmarks of the SQUARES engine, as a computer opponent uses it.
//!
//! - `legal_orders`: legal-order generation (`legal_orders_into` into a
//!   reused Vec) on fixed mid-game positions, reached by seeded random play
//!   and taken at turns 20, 40 and 80 of several games. Reported twice:
//!   as orders listed per second and as positions per second.
//! - `random_games`: complete random games of the Civil War game from the
//!   opening, to their end or 2,000 orders, applying a uniformly random
//!   legal order at every step with `apply_listed` (seeded xorshift), the
//!   order chosen by `pick_legal_order`, as a playout chooses it. Reported
//!   as games per second and as orders applied per second.
//! - `random_games_listing`: the same games, listing every legal order at
//!   every step (`legal_orders_into`) and indexing the list: the same
//!   orders chosen, by the slower way.
//! - `random_games_napoleonic`: the same as `random_games` for the
//!   Napoleonic variant (the same engine with the variant's army and unit
//!   rules).
//!
//! - `random_games_1863`: complete random games of the Civil War Game 1863
//!   from the standard start, to their end or 120 turns (the random
//!   games rarely finish a war), listing the legal orders at every step
//!   and applying a random one through the `Game` trait, END less often
//!   than other orders so that turns hold several. Reported as games per
//!   second.
//! - `random_games_brothers_at_war`: complete random games of the demo
//!   battle, Tanner's Ford, to their last turn, every draw of chance from
//!   a seeded generator and every decision a random listed order.
//!
//! Run with `cargo bench --bench engine`. Under `cargo test --all-targets`
//! each benchmark runs once as a smoke test.

#[path = "../tests/common/rng.rs"]
mod rng;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use orderly::games::squares::{Event, Order, Side, Squares, Variant};
use rng::XorShift;

/// A game ends here at the latest, as in a playout.
const MAX_ORDERS: usize = 2000;
/// Games per measured batch of complete random games.
const GAMES_PER_BATCH: u64 = 32;
/// Positions per turn number in the legal-order benchmark.
const POSITIONS_PER_TURN: usize = 8;

fn opening(seed: u64) -> Squares {
    opening_of(Variant::CivilWar, seed)
}

fn opening_of(variant: Variant, seed: u64) -> Squares {
    let first = if seed.is_multiple_of(2) {
        Side::Blue
    } else {
        Side::Gray
    };
    Squares::opening_of(variant, first)
}

/// How a random game chooses its orders.
#[derive(Clone, Copy)]
enum Choice {
    /// `pick_legal_order`: counted, then generated up to the one chosen.
    Pick,
    /// `legal_orders_into`, then an index into the list.
    Listing,
}

/// One complete random game of `variant`; returns the number of orders
/// applied. Both ways of choosing choose the same orders.
#[inline]
fn random_game(
    variant: Variant,
    seed: u64,
    choice: Choice,
    legal: &mut Vec<Order>,
    events: &mut Vec<Event>,
) -> usize {
    let mut rng = XorShift::new(seed);
    let mut game = opening_of(variant, seed);
    let mut n = 0;
    while n < MAX_ORDERS {
        let order = match choice {
            Choice::Pick => game.pick_legal_order(|len| rng.below(len), legal),
            Choice::Listing => {
                legal.clear();
                game.legal_orders_into(legal);
                (!legal.is_empty()).then(|| legal[rng.below(legal.len())])
            }
        };
        let Some(order) = order else {
            break;
        };
        events.clear();
        game.apply_listed(order, events);
        n += 1;
    }
    black_box(&game);
    n
}

/// The position of a seeded random game when it first reaches `turn`
/// (the position's turn number), if it gets there still undecided and with
/// no attack in progress.
fn position_at_turn(seed: u64, turn: u32) -> Option<Squares> {
    let mut rng = XorShift::new(seed);
    let mut game = opening(seed);
    let mut legal = Vec::new();
    let mut events = Vec::new();
    loop {
        legal.clear();
        game.legal_orders_into(&mut legal);
        if legal.is_empty() {
            return None;
        }
        if game.turn() >= turn && game.attack().is_none() {
            return Some(game);
        }
        let order = legal[rng.below(legal.len())];
        game.apply_listed(order, &mut events);
    }
}

/// `POSITIONS_PER_TURN` positions at `turn`, from the first seeds that reach it.
fn positions_at_turn(turn: u32) -> Vec<Squares> {
    (1..)
        .filter_map(|seed| position_at_turn(seed, turn))
        .take(POSITIONS_PER_TURN)
        .collect()
}

/// How many orders the positions list in all.
fn count(positions: &[Squares], out: &mut Vec<Order>) -> u64 {
    positions
        .iter()
        .map(|p| {
            out.clear();
            p.legal_orders_into(out);
            out.len() as u64
        })
        .sum()
}

fn legal_orders(c: &mut Criterion) {
    let sets: Vec<(u32, Vec<Squares>)> = [20, 40, 80]
        .into_iter()
        .map(|t| (t, positions_at_turn(t)))
        .collect();
    let mut out = Vec::with_capacity(256);

    let mut group = c.benchmark_group("legal_orders");
    for (turn, positions) in &sets {
        let orders = count(positions, &mut out);
        eprintln!(
            "legal_orders: turn {turn}: {} positions, {orders} orders listed ({:.1} per position)",
            positions.len(),
            orders as f64 / positions.len() as f64
        );
        group.throughput(Throughput::Elements(orders));
        group.bench_with_input(BenchmarkId::new("orders", turn), positions, |b, ps| {
            b.iter(|| {
                let mut total = 0;
                for p in ps {
                    out.clear();
                    black_box(p).legal_orders_into(&mut out);
                    total += out.len();
                }
                black_box(total)
            })
        });
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_with_input(BenchmarkId::new("positions", turn), positions, |b, ps| {
            b.iter(|| {
                for p in ps {
                    out.clear();
                    black_box(p).legal_orders_into(&mut out);
                    black_box(&out);
                }
            })
        });
    }
    group.finish();
}

/// Complete random games of `variant`, in the benchmark group `name`.
fn random_games_of(c: &mut Criterion, variant: Variant, choice: Choice, name: &str) {
    let mut legal = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(32);
    let seeds = 0..GAMES_PER_BATCH;
    let orders: u64 = seeds
        .clone()
        .map(|s| random_game(variant, s, choice, &mut legal, &mut events) as u64)
        .sum();
    eprintln!(
        "{name}: {GAMES_PER_BATCH} games per batch, {orders} orders ({:.0} per game)",
        orders as f64 / GAMES_PER_BATCH as f64
    );

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(GAMES_PER_BATCH));
    group.bench_function("games", |b| {
        b.iter(|| {
            for seed in seeds.clone() {
                black_box(random_game(
                    variant,
                    black_box(seed),
                    choice,
                    &mut legal,
                    &mut events,
                ));
            }
        })
    });
    group.throughput(Throughput::Elements(orders));
    group.bench_function("orders", |b| {
        b.iter(|| {
            for seed in seeds.clone() {
                black_box(random_game(
                    variant,
                    black_box(seed),
                    choice,
                    &mut legal,
                    &mut events,
                ));
            }
        })
    });
    group.finish();
}

fn random_games(c: &mut Criterion) {
    random_games_of(c, Variant::CivilWar, Choice::Pick, "random_games");
}

fn random_games_listing(c: &mut Criterion) {
    random_games_of(
        c,
        Variant::CivilWar,
        Choice::Listing,
        "random_games_listing",
    );
}

fn random_games_napoleonic(c: &mut Criterion) {
    random_games_of(
        c,
        Variant::Napoleonic,
        Choice::Pick,
        "random_games_napoleonic",
    );
}

/// A random Civil War 1863 game ends here at the latest.
const TURN_CAP_1863: u32 = 120;
/// Random Civil War 1863 games per measured batch.
const GAMES_1863: u64 = 4;

/// One random Civil War 1863 game; returns the number of orders applied.
fn random_game_1863(seed: u64) -> usize {
    use orderly::games::civil_war_1863::{CivilWar1863, Order as Order1863};
    use orderly::games::{Game, GameOptions};
    let mut rng = XorShift::new(seed);
    let mut game = CivilWar1863::new(&GameOptions::default());
    let mut n = 0;
    while game.outcome().is_none() && game.turn_number() <= TURN_CAP_1863 && n < 20 * MAX_ORDERS {
        let legal = game.legal_orders();
        let last = legal.len() - 1;
        let pick = if last > 0 && legal[last] == Order1863::EndTurn && rng.below(3) > 0 {
            rng.below(last)
        } else {
            rng.below(legal.len())
        };
        game.apply(&legal[pick]).expect("a listed order applies");
        n += 1;
    }
    n
}

fn random_games_1863(c: &mut Criterion) {
    let orders: usize = (0..GAMES_1863).map(random_game_1863).sum();
    eprintln!(
        "random_games_1863: {GAMES_1863} games per batch, {orders} orders ({:.0} per game)",
        orders as f64 / GAMES_1863 as f64
    );
    let mut group = c.benchmark_group("random_games_1863");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES_1863));
    group.bench_function("games", |b| {
        b.iter(|| {
            for seed in 0..GAMES_1863 {
                black_box(random_game_1863(black_box(seed)));
            }
        })
    });
    group.finish();
}

/// Steps (orders and draws) a random Brothers at War game may take before
/// the bench gives up on it (none does: the battle has a last turn).
const STEP_CAP_BAW: usize = 200_000;
/// Random games of the demo battle per measured batch.
const GAMES_BAW: u64 = 2;

/// One random game of the demo battle, Tanner's Ford: chance drawn from the
/// seeded generator, decisions picked among the listed orders; returns the
/// number of orders and draws applied.
fn random_game_baw(seed: u64) -> usize {
    use orderly::games::brothers_at_war::core::BrothersAtWar;
    use orderly::games::{Game, GameOptions};
    let mut rng = XorShift::new(seed);
    let mut game = BrothersAtWar::new(&GameOptions::default());
    let mut n = 0;
    while game.outcome().is_none() && n < STEP_CAP_BAW {
        let order = match game.chance() {
            Some(chance) => game
                .chance_order(rng.below(chance.outcomes as usize) as u32)
                .expect("a pending chance has its order"),
            None => {
                let legal = game.legal_orders();
                if legal.is_empty() {
                    break;
                }
                legal[rng.below(legal.len())].clone()
            }
        };
        game.apply(&order).expect("a listed order applies");
        n += 1;
    }
    n
}

fn random_games_brothers_at_war(c: &mut Criterion) {
    let steps: usize = (0..GAMES_BAW).map(random_game_baw).sum();
    eprintln!(
        "random_games_brothers_at_war: {GAMES_BAW} games of Tanner's Ford per batch, \
         {steps} orders and draws ({:.0} per game)",
        steps as f64 / GAMES_BAW as f64
    );
    let mut group = c.benchmark_group("random_games_brothers_at_war");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES_BAW));
    group.bench_function("games", |b| {
        b.iter(|| {
            for seed in 0..GAMES_BAW {
                black_box(random_game_baw(black_box(seed)));
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    legal_orders,
    random_games,
    random_games_listing,
    random_games_napoleonic,
    random_games_1863,
    random_games_brothers_at_war
);
criterion_main!(benches);
