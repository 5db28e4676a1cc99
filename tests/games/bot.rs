//! The computer opponent (src/bot): its orders are legal, it is
//! deterministic from its seed, it takes a win it sees, and the command
//! line plays its order (`orderly engine --bot N`).
//!
//! Its strength is measured, not asserted: `cargo bench --bench bot`
//! prints the table (docs/computer-opponent.md).

#[path = "../common/rng.rs"]
mod rng;

use std::process::Command;

use orderly::bot::{self, search, Budget, Level, Spread};
use orderly::games::civil_war_1863::{CivilWar1863, Order as Order1863};
use orderly::games::squares::{Napoleonic, Order, Side, Squares, Variant};
use orderly::games::{AnyGame, Game, GameResult, Seat};
use rng::XorShift;

/// The position of a seeded random game of `variant` after `orders` random
/// orders, if it is still undecided then.
fn random_position(variant: Variant, seed: u64, orders: usize) -> Option<Squares> {
    let mut rng = XorShift::new(seed);
    let first = if seed.is_multiple_of(2) {
        Side::Blue
    } else {
        Side::Gray
    };
    let mut game = Squares::opening_of(variant, first);
    let mut legal = Vec::new();
    let mut events = Vec::new();
    for _ in 0..orders {
        legal.clear();
        game.legal_orders_into(&mut legal);
        if legal.is_empty() {
            return None;
        }
        game.apply_listed(legal[rng.below(legal.len())], &mut events);
    }
    game.side_to_decide().map(|_| game)
}

/// Random positions of both games, at many depths: turns, double turns
/// and every kind of decision inside an attack.
fn positions() -> Vec<Squares> {
    let mut out = Vec::new();
    for variant in [Variant::CivilWar, Variant::Napoleonic] {
        for seed in 0..60 {
            for depth in [0, 3, 17, 41, 90, 160] {
                out.extend(random_position(variant, seed, depth + seed as usize % 7));
            }
        }
    }
    out
}

#[test]
fn the_bots_order_is_always_one_of_the_legal_orders() {
    let positions = positions();
    let mut in_attack = 0;
    for (i, p) in positions.iter().enumerate() {
        let mut legal = Vec::new();
        p.legal_orders_into(&mut legal);
        let report = search(p, 30, i as u64).expect("an undecided position has an order");
        assert!(
            legal.contains(&report.order),
            "{}: the bot chose {} which is not listed",
            Game::position(p),
            report.order
        );
        in_attack += usize::from(p.attack().is_some());
    }
    assert!(positions.len() > 500, "{} positions", positions.len());
    assert!(
        in_attack > 20,
        "only {in_attack} positions inside an attack"
    );
}

#[test]
fn the_same_seed_gives_the_same_order_and_the_search_depends_on_it() {
    let positions = positions();
    let mut differs = 0;
    for (i, p) in positions.iter().take(80).enumerate() {
        let a = bot::choose(p, Level::MIN, i as u64);
        assert_eq!(a, bot::choose(p, Level::MIN, i as u64));
        differs += usize::from(a != bot::choose(p, Level::MIN, i as u64 + 1000));
    }
    // A seed steers the search: across many positions some answers differ.
    assert!(differs > 0);
}

/// The orders of `p` that end the game at once in the mover's favour.
fn winning_orders(p: &Squares) -> Vec<Order> {
    let side = p.side_to_decide().unwrap();
    let mut legal = Vec::new();
    p.legal_orders_into(&mut legal);
    legal
        .into_iter()
        .filter(|&o| {
            let mut next = p.clone();
            next.apply_listed(o, &mut Vec::new());
            matches!(next.outcome().map(|o| o.result),
                Some(GameResult::Win(seat)) if Side::from(seat) == side)
        })
        .collect()
}

#[test]
fn the_bot_takes_a_win_it_can_see() {
    // Positions of random games where the side to decide can win with one
    // order (a unit into the empty enemy reserve, the tenth point).
    let mut found = 0;
    for seed in 0..400 {
        for depth in (20..400).step_by(7) {
            let Some(p) = random_position(Variant::CivilWar, seed, depth) else {
                break;
            };
            let wins = winning_orders(&p);
            if wins.is_empty() {
                continue;
            }
            let chosen = bot::choose(&p, Level::new(3).unwrap(), seed).unwrap();
            assert!(
                wins.contains(&chosen),
                "{}: the bot chose {chosen}, not a win ({wins:?})",
                Game::position(&p)
            );
            found += 1;
            break;
        }
        if found >= 12 {
            break;
        }
    }
    assert!(found >= 12, "only {found} positions with a winning order");
}

#[test]
fn order_for_answers_in_each_game_s_canonical_notation() {
    let squares: Box<dyn AnyGame> = Box::new(Squares::opening(Side::Gray));
    let nap: Box<dyn AnyGame> = Box::new(Napoleonic::opening(Side::Blue));
    for game in [squares, nap] {
        let chosen = bot::order_for(game.as_ref(), Level::MIN, 5).unwrap();
        assert!(
            game.legal_orders().contains(&chosen.order),
            "{}: {}",
            game.name(),
            chosen.order
        );
        let mut played = game.clone_box();
        played.apply_canonical(&chosen.order).unwrap();
        assert_eq!(
            played.pending().map(|p| p.seat),
            Some(if game.name() == "squares" {
                Seat::North
            } else {
                Seat::South
            })
        );
    }
    assert!(bot::plays("squares") && bot::plays("napoleonic") && bot::plays("civilwar1863"));
    assert!(!bot::plays("brothersatwar"));
    // Civil War 1863: the Confederacy opens, and its turn goes on after
    // one order (P7).
    let cw1863 = orderly::games::hosted::find("civilwar1863").unwrap();
    let game = (cw1863.new)(&Default::default());
    let chosen = bot::order_for(game.as_ref(), Level::MIN, 1).unwrap();
    assert!(
        game.legal_orders().contains(&chosen.order),
        "{}",
        chosen.order
    );
    let mut played = game.clone_box();
    played.apply_canonical(&chosen.order).unwrap();
    // Its turn goes on: the South decides again, or the Union first
    // answers inside the order (its survivors' move after a larger
    // battle, P21; its removals after a key city falls, P27).
    let pending = played.pending().expect("the game goes on");
    assert!(
        pending.seat == Seat::South || !pending.phase.is_turn(),
        "{}: {pending:?}",
        chosen.order
    );
    let baw = orderly::games::hosted::find("brothersatwar").unwrap();
    let game = (baw.new)(&Default::default());
    assert_eq!(bot::order_for(game.as_ref(), Level::MIN, 1), None);
}

/// Positions of seeded random Civil War 1863 games at many depths, the
/// coin tossed at random too: turns at every part, and the decisions
/// inside an order (losses, survivors, the piece kept, removals).
fn positions_1863() -> Vec<CivilWar1863> {
    let mut out = Vec::new();
    for seed in 0..10u64 {
        let mut rng = XorShift::new(seed + 1);
        let mut game = CivilWar1863::new(&Default::default());
        for step in 0..500usize {
            let legal = Game::legal_orders(&game);
            if legal.is_empty() {
                break;
            }
            // END one time in four once it is allowed, so that turns pass.
            let end = legal.last() == Some(&Order1863::EndTurn) && rng.below(4) == 0;
            let order = if end {
                Order1863::EndTurn
            } else {
                legal[rng.below(legal.len())].clone()
            };
            game.apply(&order).unwrap();
            let inside = game.battle().is_some() || !game.removals().is_empty();
            if Game::pending(&game).is_some() && (inside || step % 71 == seed as usize % 71) {
                out.push(game.clone());
            }
        }
    }
    out
}

#[test]
fn the_bots_civil_war_1863_order_is_always_legal() {
    let positions = positions_1863();
    let mut inside = 0;
    // Each way of spending a budget: wide, deep and deeper, one playout a round
    // and several (the levels' budgets, `Level::budget_in`).
    let budgets = [
        Budget::rounds(8),
        Budget {
            rounds: 12,
            playouts: 2,
            spread: Spread::DEEP,
        },
        Budget {
            rounds: 6,
            playouts: 3,
            spread: Spread::WIDE,
        },
        Budget {
            rounds: 10,
            playouts: 2,
            spread: Spread::DEEPER,
        },
    ];
    for (i, p) in positions.iter().enumerate() {
        let budget = budgets[i % budgets.len()];
        let report = search(p, budget, i as u64).expect("an undecided position has an order");
        assert!(
            Game::legal_orders(p).contains(&report.order),
            "{}: the bot chose {} which is not listed ({budget:?})",
            Game::position(p),
            report.order
        );
        assert_eq!(
            report,
            search(p, budget, i as u64).unwrap(),
            "deterministic ({budget:?})"
        );
        inside += usize::from(p.battle().is_some() || !p.removals().is_empty());
    }
    assert!(positions.len() > 60, "{} positions", positions.len());
    assert!(inside > 25, "only {inside} positions inside an order");
}

#[test]
fn levels_are_one_to_five_each_searching_more_than_the_one_below() {
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(6), None);
    let rounds: Vec<u32> = Level::all().map(Level::rounds).collect();
    assert_eq!(rounds.len(), 5);
    assert!(rounds.windows(2).all(|w| w[1] > w[0]));
    for game in [Squares::NAME, Napoleonic::NAME, CivilWar1863::NAME] {
        let budgets: Vec<Budget> = Level::all().map(|l| l.budget_in(game)).collect();
        assert!(
            budgets
                .windows(2)
                .all(|w| w[1].rounds * w[1].playouts > w[0].rounds * w[0].playouts),
            "{game}: {budgets:?}"
        );
    }
}

#[test]
fn orderly_engine_bot_prints_its_order_and_plays_it() {
    let run = |seed: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_orderly"))
            .args(["engine", "--bot", "1", "--seed", seed])
            .env("ORDERLY_NOW", "2026-01-01T00:00:00Z")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("3");
    assert_eq!(text, run("3"), "the same seed, the same answer");
    let first = text.lines().next().unwrap();
    let order = first
        .strip_prefix("bot level 1 seed 3: ")
        .and_then(|rest| rest.split(" (").next())
        .unwrap_or_else(|| panic!("{first}"));
    let opening = Squares::opening(Side::Blue);
    assert!(
        AnyGame::legal_orders(&opening).contains(&order.to_string()),
        "{order}"
    );
    // The block after it is the position once the order is played.
    assert!(text.contains(&format!("order {order}")), "{text}");
    assert!(text.contains("pending Gray turn"), "{text}");
    let refused = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .args(["engine", "--game", "brothersatwar", "--bot", "2"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("does not play brothersatwar"));
}
