//! The computer opponent's strength table and its time per decision.
//!
//! Plays complete SQUARES games (the Civil War game; `--napoleonic` for
//! the variant) between the bot's levels, sides alternating game by game:
//! level 1 against uniformly random play, then each level against the
//! level below. Prints, per pairing, the wins, losses and draws of the
//! stronger side and its score (a draw counts half), and per level the
//! mean and the longest time the bot took for a decision on this machine.
//!
//! - `cargo bench --bench bot` plays 200 games per pairing (the table in
//!   docs/computer-opponent.md).
//! - `cargo bench --bench bot -- --games 20` plays fewer; `--up-to N`
//!   stops at level N, `--from N` starts there (level N against N - 1).
//! - Under `cargo test --all-targets` it plays 2 games per pairing, as a
//!   smoke test.
//!
//! Games use both cores; every game is deterministic from its number.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use orderly::bot::{self, Level};
use orderly::games::squares::{Order, Side, Squares, Variant};
use orderly::games::GameResult;

/// A game still undecided after this many orders is a draw.
const MAX_ORDERS: usize = 1_500;

/// Who plays a side.
#[derive(Clone, Copy, Debug)]
enum Player {
    Random,
    Bot(Level),
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Random => write!(f, "random"),
            Player::Bot(l) => write!(f, "level {l}"),
        }
    }
}

/// Time spent deciding, per level.
#[derive(Default, Clone, Copy)]
struct Timing {
    decisions: u64,
    total: Duration,
    longest: Duration,
}

/// The result for `strong` of one game with `strong` playing `strong_side`,
/// plus the bot's decision times.
fn play(
    variant: Variant,
    strong: Player,
    weak: Player,
    strong_side: Side,
    game: u64,
    timing: &Mutex<[Timing; 5]>,
) -> f64 {
    let mut position = Squares::opening_of(variant, Side::Blue);
    let mut rng = game.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut legal: Vec<Order> = Vec::new();
    let mut events = Vec::new();
    for n in 0..MAX_ORDERS {
        let Some(side) = position.side_to_decide() else {
            break;
        };
        let player = if side == strong_side { strong } else { weak };
        let order = match player {
            Player::Random => {
                legal.clear();
                position.legal_orders_into(&mut legal);
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                legal[(rng % legal.len() as u64) as usize]
            }
            Player::Bot(level) => {
                let started = Instant::now();
                let seed = game << 16 | n as u64;
                let order = bot::choose(&position, level, seed).expect("an undecided game");
                let took = started.elapsed();
                let mut t = timing.lock().unwrap();
                let t = &mut t[usize::from(level.number() - 1)];
                t.decisions += 1;
                t.total += took;
                t.longest = t.longest.max(took);
                order
            }
        };
        events.clear();
        position.apply_listed(order, &mut events);
    }
    match position.outcome().map(|o| o.result) {
        Some(GameResult::Win(seat)) if Side::from(seat) == strong_side => 1.0,
        Some(GameResult::Win(_)) => 0.0,
        _ => 0.5,
    }
}

/// Plays `games` games of `strong` against `weak` on two threads; returns
/// (wins, losses, draws) of `strong`.
fn pairing(
    variant: Variant,
    strong: Player,
    weak: Player,
    games: u64,
    timing: &Mutex<[Timing; 5]>,
) -> (u32, u32, u32) {
    let next = AtomicUsize::new(0);
    let tally = Mutex::new((0, 0, 0));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed) as u64;
                if g >= games {
                    break;
                }
                // Sides alternate: even games the stronger player is Blue.
                let side = if g.is_multiple_of(2) {
                    Side::Blue
                } else {
                    Side::Gray
                };
                let r = play(variant, strong, weak, side, g, timing);
                let mut t = tally.lock().unwrap();
                match r {
                    1.0 => t.0 += 1,
                    0.0 => t.1 += 1,
                    _ => t.2 += 1,
                }
            });
        }
    });
    tally.into_inner().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo bench` passes --bench; `cargo test --all-targets` does not.
    let full = args.iter().any(|a| a == "--bench");
    let games = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|g| g.parse().ok())
        .unwrap_or(if full { 200 } else { 2 });
    let variant = if args.iter().any(|a| a == "--napoleonic") {
        Variant::Napoleonic
    } else {
        Variant::CivilWar
    };
    let top = args
        .iter()
        .position(|a| a == "--up-to")
        .and_then(|i| args.get(i + 1))
        .and_then(|g| g.parse().ok())
        .and_then(Level::new)
        .unwrap_or(Level::MAX);
    let timing = Mutex::new([Timing::default(); 5]);
    println!(
        "{variant:?}: {games} games per pairing, sides alternating, draw after {MAX_ORDERS} orders"
    );
    println!(
        "{:<22} {:>5} {:>6} {:>6} {:>7}",
        "pairing", "wins", "losses", "draws", "score"
    );
    // `--from N`: only the pairings of level N and above.
    let from = args
        .iter()
        .position(|a| a == "--from")
        .and_then(|i| args.get(i + 1))
        .and_then(|g| g.parse().ok())
        .and_then(Level::new)
        .unwrap_or(Level::MIN);
    let mut pairings = Vec::new();
    if from == Level::MIN {
        pairings.push((Player::Bot(Level::MIN), Player::Random));
    }
    for l in Level::all().skip(1).filter(|&l| l <= top && l >= from) {
        pairings.push((
            Player::Bot(l),
            Player::Bot(Level::new(l.number() - 1).unwrap()),
        ));
    }
    for (strong, weak) in pairings {
        let started = Instant::now();
        let (w, l, d) = pairing(variant, strong, weak, games, &timing);
        let score = (f64::from(w) + 0.5 * f64::from(d)) / games as f64;
        println!(
            "{:<22} {w:>5} {l:>6} {d:>6} {:>6.1}%   ({:.0} s)",
            format!("{strong} vs {weak}"),
            100.0 * score,
            started.elapsed().as_secs_f64()
        );
    }
    println!(
        "{:<8} {:>7} {:>10} {:>10} {:>9}",
        "level", "rounds", "decisions", "mean ms", "max ms"
    );
    for (i, t) in timing.into_inner().unwrap().iter().enumerate() {
        if t.decisions == 0 {
            continue;
        }
        let level = Level::new(i as u8 + 1).unwrap();
        println!(
            "{:<8} {:>7} {:>10} {:>10.1} {:>9.1}",
            level.number(),
            level.rounds(),
            t.decisions,
            t.total.as_secs_f64() * 1000.0 / t.decisions as f64,
            t.longest.as_secs_f64() * 1000.0
        );
    }
}
