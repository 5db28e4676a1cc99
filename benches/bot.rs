//! The computer opponent's strength table and its time per decision.
//!
//! Plays complete games (SQUARES's Civil War game; `--napoleonic` for its
//! variant, `--civilwar1863` for the Civil War Game 1863) between the bot's levels, sides alternating game by game:
//! level 1 against uniformly random play, then each level against the
//! level below. Prints, per pairing, the wins, losses and draws of the
//! stronger side and its score (a draw counts half), and per level the
//! mean and the longest time the bot took for a decision on this machine.
//!
//! - `cargo bench --bench bot` plays 200 games per pairing (the table in
//!   docs/computer-opponent.md).
//! - `cargo bench --bench bot -- --games 20` plays fewer; `--up-to N`
//!   stops at level N, `--from N` starts there (level N against N - 1).
//! - `--first N` numbers the games from N: a long pairing can be measured
//!   in parts (games 0-99, then `--first 100 --games 100`) and the parts
//!   added up, since a game's play depends on its number only.
//! - `--each` prints every game's result as it ends, so that a run cut
//!   short still says what it played.
//! - `--rounds 3=1200`, `--playouts 3=3` and `--spread 3=wide` (or
//!   `deep`, `deeper`, or `0.3/0.1`: the power the open orders grow by and the
//!   rank's weight) give level 3 another budget for this run (rounds,
//!   playouts per round, `bot::Spread`): a trial of a level's budget
//!   before it is changed in `Level::budget_in`.
//! - Under `cargo test --all-targets` it plays 2 games per pairing, as a
//!   smoke test.
//!
//! Games use both cores; every game is deterministic from its number.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use orderly::bot::{self, Budget, Level, Searchable, Spread};
use orderly::games::civil_war_1863::CivilWar1863;
use orderly::games::squares::{Napoleonic, Side, Squares, Variant};
use orderly::games::{Game, GameOptions};

/// A SQUARES game still undecided after this many orders is a draw.
const MAX_ORDERS: usize = 1_500;

/// A Civil War 1863 game still undecided after this many orders is a draw:
/// a turn is many orders, and nothing but losing every piece ends the game
/// (P34, P36).
const MAX_ORDERS_1863: usize = 6_000;

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

/// What every game of a table shares.
struct Setup<'a, G, R> {
    /// Where each game starts.
    opening: &'a G,
    /// The search budget of a level in this game.
    budget: &'a R,
    /// A game undecided after this many orders is a draw.
    max_orders: usize,
    /// The bot's decision times, per level.
    timing: &'a Mutex<[Timing; 5]>,
    /// Print each game's result as it ends.
    each: bool,
}

/// The result for `strong` of one game from `opening` with `strong`
/// deciding for player `strong_seat` (0 or 1), plus the bot's decision
/// times. A game undecided after `max_orders` orders is a draw.
fn play<G: Searchable, R: Fn(Level) -> Budget>(
    setup: &Setup<'_, G, R>,
    strong: Player,
    weak: Player,
    strong_seat: usize,
    game: u64,
) -> f64 {
    let Setup {
        opening,
        budget,
        max_orders,
        timing,
        each: _,
    } = setup;
    let max_orders = *max_orders;
    let mut position = (*opening).clone();
    let mut rng = game.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut legal: Vec<G::Order> = Vec::new();
    let mut over = false;
    for n in 0..max_orders {
        let player = match position.decider() {
            Some(seat) if seat == strong_seat => strong,
            Some(_) => weak,
            // Chance draws with the game's own generator, as random play does.
            None if position.at_chance() => Player::Random,
            None => {
                over = true;
                break;
            }
        };
        let order = match player {
            Player::Random => {
                legal.clear();
                position.legal(&mut legal);
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                legal.swap_remove((rng % legal.len() as u64) as usize)
            }
            Player::Bot(level) => {
                let started = Instant::now();
                let seed = game << 16 | n as u64;
                let order = bot::search(&position, budget(level), seed)
                    .expect("an undecided game")
                    .order;
                let took = started.elapsed();
                let mut t = timing.lock().unwrap();
                let t = &mut t[usize::from(level.number() - 1)];
                t.decisions += 1;
                t.total += took;
                t.longest = t.longest.max(took);
                order
            }
        };
        position.play(order);
    }
    if !over {
        return 0.5;
    }
    let score = position.score();
    if strong_seat == 0 {
        score
    } else {
        1.0 - score
    }
}

/// Plays games `games` (by number) of `strong` against `weak` on two
/// threads; returns (wins, losses, draws) of `strong`.
fn pairing<G: Searchable + Sync, R: Fn(Level) -> Budget + Sync>(
    setup: &Setup<'_, G, R>,
    strong: Player,
    weak: Player,
    games: std::ops::Range<u64>,
) -> (u32, u32, u32) {
    let next = AtomicUsize::new(games.start as usize);
    let tally = Mutex::new((0, 0, 0));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed) as u64;
                if g >= games.end {
                    break;
                }
                // Sides alternate: even games the stronger player is
                // player 0 (Blue, the British, the Union).
                let seat = usize::from(!g.is_multiple_of(2));
                let r = play(setup, strong, weak, seat, g);
                if setup.each {
                    let result = match r {
                        1.0 => "won",
                        0.0 => "lost",
                        _ => "drew",
                    };
                    println!("  game {g}: {strong} {result} as player {seat}");
                }
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

/// A number after `flag` on the command line.
fn number_after(args: &[String], flag: &str) -> Option<u64> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .and_then(|g| g.parse().ok())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo bench` passes --bench; `cargo test --all-targets` does not.
    let full = args.iter().any(|a| a == "--bench");
    let count = number_after(&args, "--games").unwrap_or(if full { 200 } else { 2 });
    let first = number_after(&args, "--first").unwrap_or(0);
    let games = Run {
        games: first..first.saturating_add(count),
        each: args.iter().any(|a| a == "--each"),
    };
    let level = |flag, default| {
        number_after(&args, flag)
            .and_then(|n| u8::try_from(n).ok())
            .and_then(Level::new)
            .unwrap_or(default)
    };
    let (from, top) = (level("--from", Level::MIN), level("--up-to", Level::MAX));
    let trial = Trial::read(&args);
    if args.iter().any(|a| a == "--civilwar1863") {
        let opening = CivilWar1863::new(&GameOptions::default());
        let budget = |l: Level| trial.budget(l, l.budget_in(CivilWar1863::NAME));
        table(
            "Civil War 1863",
            &opening,
            &budget,
            MAX_ORDERS_1863,
            games,
            from,
            top,
        );
    } else if args.iter().any(|a| a == "--napoleonic") {
        let opening = Squares::opening_of(Variant::Napoleonic, Side::Blue);
        let budget = |l: Level| trial.budget(l, l.budget_in(Napoleonic::NAME));
        table(
            "Napoleonic",
            &opening,
            &budget,
            MAX_ORDERS,
            games,
            from,
            top,
        );
    } else {
        let opening = Squares::opening_of(Variant::CivilWar, Side::Blue);
        let budget = |l: Level| trial.budget(l, l.budget_in(Squares::NAME));
        table("CivilWar", &opening, &budget, MAX_ORDERS, games, from, top);
    }
}

/// Budgets given on the command line (`--rounds 3=1200`, `--playouts
/// 3=3`, `--spread 3=deep`), level by level.
struct Trial {
    rounds: Vec<(u8, u32)>,
    playouts: Vec<(u8, u32)>,
    spreads: Vec<(u8, Spread)>,
}

impl Trial {
    /// The most rounds a trial may give: about a minute a decision.
    const MOST_ROUNDS: u32 = 1_000_000;
    /// The most playouts per round a trial may give.
    const MOST_PLAYOUTS: u32 = 1_000;

    fn read(args: &[String]) -> Trial {
        let count = |most: u32| move |n: &str| n.parse::<u32>().ok().map(|n| n.clamp(1, most));
        let spread = |s: &str| match s {
            "wide" => Some(Spread::WIDE),
            "deep" => Some(Spread::DEEP),
            "deeper" => Some(Spread::DEEPER),
            _ => {
                // `0.3/0.1`: the opening power and the rank's weight.
                let (opening, weight) = s.split_once('/')?;
                let (opening, rank_weight): (f64, f64) =
                    (opening.parse().ok()?, weight.parse().ok()?);
                ((0.05..=1.0).contains(&opening) && (0.0..=4.0).contains(&rank_weight)).then_some(
                    Spread {
                        opening,
                        rank_weight,
                    },
                )
            }
        };
        Trial {
            rounds: per_level(args, "--rounds", count(Self::MOST_ROUNDS)),
            playouts: per_level(args, "--playouts", count(Self::MOST_PLAYOUTS)),
            spreads: per_level(args, "--spread", spread),
        }
    }

    /// `level`'s budget: `usual`, with what the command line gives instead.
    fn budget(&self, level: Level, usual: Budget) -> Budget {
        fn given<T: Copy>(list: &[(u8, T)], level: Level) -> Option<T> {
            list.iter()
                .rev()
                .find(|&&(l, _)| l == level.number())
                .map(|&(_, n)| n)
        }
        Budget {
            rounds: given(&self.rounds, level).unwrap_or(usual.rounds),
            playouts: given(&self.playouts, level).unwrap_or(usual.playouts),
            spread: given(&self.spreads, level).unwrap_or(usual.spread),
        }
    }
}

/// Every `flag LEVEL=VALUE` pair on the command line whose value `parse`
/// reads; pairs it cannot read are left out.
fn per_level<T>(args: &[String], flag: &str, parse: impl Fn(&str) -> Option<T>) -> Vec<(u8, T)> {
    args.windows(2)
        .filter(|w| w[0] == flag)
        .filter_map(|w| {
            let (level, value) = w[1].split_once('=')?;
            Some((level.parse().ok()?, parse(value)?))
        })
        .collect()
}

/// Which games a run plays, and how it reports them.
struct Run {
    /// The games' numbers.
    games: std::ops::Range<u64>,
    /// Print each game's result as it ends.
    each: bool,
}

/// Plays and prints the pairings from level `from` up to `top` (level 1
/// against random play when `from` is 1), then the time per decision.
fn table<G: Searchable + Sync>(
    name: &str,
    opening: &G,
    budget: &(impl Fn(Level) -> Budget + Sync),
    max_orders: usize,
    run: Run,
    from: Level,
    top: Level,
) {
    let timing = Mutex::new([Timing::default(); 5]);
    let Run { games, each } = run;
    let count = games.end - games.start;
    println!(
        "{name}: {count} games per pairing (numbers {} to {}), sides alternating, draw after {max_orders} orders",
        games.start,
        games.end.saturating_sub(1)
    );
    println!(
        "{:<22} {:>5} {:>6} {:>6} {:>7}",
        "pairing", "wins", "losses", "draws", "score"
    );
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
        let setup = Setup {
            opening,
            budget,
            max_orders,
            timing: &timing,
            each,
        };
        let (w, l, d) = pairing(&setup, strong, weak, games.clone());
        let score = (f64::from(w) + 0.5 * f64::from(d)) / count.max(1) as f64;
        println!(
            "{:<22} {w:>5} {l:>6} {d:>6} {:>6.1}%   ({:.0} s)",
            format!("{strong} vs {weak}"),
            100.0 * score,
            started.elapsed().as_secs_f64()
        );
    }
    println!(
        "{:<8} {:>7} {:>8} {:>6} {:>10} {:>10} {:>9}",
        "level", "rounds", "playouts", "spread", "decisions", "mean ms", "max ms"
    );
    for (i, t) in timing.into_inner().unwrap().iter().enumerate() {
        if t.decisions == 0 {
            continue;
        }
        let level = Level::new(i as u8 + 1).unwrap();
        println!(
            "{:<8} {:>7} {:>8} {:>6} {:>10} {:>10.1} {:>9.1}",
            level.number(),
            budget(level).rounds,
            budget(level).playouts,
            budget(level).spread.to_string(),
            t.decisions,
            t.total.as_secs_f64() * 1000.0 / t.decisions as f64,
            t.longest.as_secs_f64() * 1000.0
        );
    }
}
