//! The pending choices worded for the player to act (`Game::choices`,
//! `Game::choices_from`): golden files for a range of decisions, and
//! properties that hold at every position of random play.
//!
//! The golden files are under tests/data/choices/ (`nap-*` for the
//! Napoleonic variant). `UPDATE_GOLDEN=1 cargo test --test choices` rewrites
//! them; a rewritten file is then read by eye before it is committed (each
//! says what it must show in its first line).

mod common;

use std::path::PathBuf;

use common::*;
use orderly::games::squares::notation::{self, NAPOLEONIC};
use orderly::games::squares::{Napoleonic, Order, Space, Squares, Stage, UnitKind};
use orderly::games::Game;
use proptest::prelude::*;

/// Blue infantry in B1C and B1CL facing Gray infantry in G1C (turn 20).
const FRONT: &str = "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b - 20 -";

struct Case {
    name: &'static str,
    /// What a reader of the golden file checks it for.
    shows: &'static str,
    position: &'static str,
    orders: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "opening",
        shows: "Blue's first turn: reserve moves by type, two cavalry, PASS",
        position: "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        orders: &[],
    },
    Case {
        name: "front",
        shows: "moves and attacks grouped by unit, supports listed",
        position: FRONT,
        orders: &[],
    },
    Case {
        name: "crowded",
        shows: "a crowded front: long lines counted with HELP MOVES",
        position: "2I2A1C/I1I/C2C/II/I1IA1/1C/1iIa1/ic/1i2/3/6i2a3c - b - 40 -",
        orders: &[],
    },
    Case {
        name: "double-turn",
        shows: "the first half of a double turn, R5 whole-turn moves starred",
        position: "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -",
        orders: &[],
    },
    Case {
        name: "defence",
        shows: "Gray: retreat or stand, with what each does",
        position: FRONT,
        orders: &["ATTACK B1C G1C SUPPORT B1CL"],
    },
    Case {
        name: "option",
        shows: "Blue's five options, each with its effect and the score",
        position: FRONT,
        orders: &["ATTACK B1C G1C SUPPORT B1CL", "STAND"],
    },
    Case {
        name: "advance",
        shows: "advance or stay",
        position: FRONT,
        orders: &["ATTACK B1C G1C SUPPORT B1CL", "STAND", "OPTION 2"],
    },
    Case {
        name: "reserve-loss",
        shows: "Gray picks the unit its reserve loses",
        position: "8I3A4C/3/4/2/5/2/5/2/4/1I1/9i3a4c - b - 30 -",
        orders: &["ATTACK G3C GR"],
    },
    Case {
        name: "chain-retreat",
        shows: "a cavalry's retreats including chains through friendly units",
        position: "9I3AC/3/1CC1/2/2C2/2/2ii1/2/4/3/7i3a4c - g - 20 -",
        orders: &["ATTACK G1C B1C SUPPORT G1CR"],
    },
];

/// Choices of the Napoleonic variant (positions without their `napoleonic`
/// header; orders in the variant's notation).
const NAP_CASES: &[Case] = &[
    Case {
        name: "nap-opening",
        shows: "British first turn: seven types by type, cavalry and heavy pairs",
        position: "6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -",
        orders: &[],
    },
    Case {
        name: "nap-charge-turn",
        shows: "after a PASS: the charges on infantry and on the Guard (N10)",
        position: "6IG2L2AH2C/3/4/2/2CK1/2/2ig1/2/4/3/5i2l2ah3ck - b1 b 20 -",
        orders: &[],
    },
    Case {
        name: "nap-immune-turn",
        shows: "unsupported attacks on immune units: the attacker is lost if the defender stands (N11, N14, N15, N38)",
        position: "4IG2L2AH2CK/3/4/2/I1IC1/2/h1gk1/2/4/3/6i2l2a3c - b - 20 -",
        orders: &[],
    },
    Case {
        name: "nap-immune-defence",
        shows: "the Guard attacked by a lone infantry: retreat, or stand and only the attacker is lost (N11, N38)",
        position: "4IG2L2AH2CK/3/4/2/I1IC1/2/h1gk1/2/4/3/6i2l2a3c - b - 20 -",
        orders: &["ATTACK B1C F1C"],
    },
    Case {
        name: "nap-guard-forces-retreat",
        shows: "French light infantry must retreat from the attacking Guard (N12)",
        position: "5I2L2AH3CK/3/I3/2/G4/l1/5/2/4/3/6igl2ah3ck - b - 20 -",
        orders: &["ATTACK B1R WF SUPPORT B2R"],
    },
    Case {
        name: "nap-cavalry-from-heavy",
        shows: "French cavalry must retreat from a lone heavy cavalry (R24, N27)",
        position: "6IG2L2AH3C/3/4/2/2K2/2/2c2/2/4/3/6ig2l2ah2ck - b - 20 -",
        orders: &["ATTACK B1C F1C"],
    },
    Case {
        name: "nap-grand-battery-option",
        shows: "British Grand Battery options GB1-GB3 with their effects (N18)",
        position: "6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -",
        orders: &["ATTACK B1C F1C SUPPORT B1CL", "STAND"],
    },
    Case {
        name: "nap-grand-battery-second-chance",
        shows: "GB1 with supporting artillery: the French second chance (N21)",
        position: "6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -",
        orders: &["ATTACK B1C F1C SUPPORT B1CL", "STAND", "OPTION GB1"],
    },
    Case {
        name: "nap-horse-battery-option",
        shows: "British Horse Battery options HB1-HB5 with their effects (N19)",
        position: "5IG2L2A3CK/3/4/2/2HI1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -",
        orders: &["ATTACK B1C F1C SUPPORT B1CL", "STAND"],
    },
    Case {
        name: "nap-horse-battery-hb4",
        shows: "HB4: where the horse battery retreats, named as HB4 (N19)",
        position: "5IG2L2A3CK/3/4/2/2HI1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -",
        orders: &["ATTACK B1C F1C SUPPORT B1CL", "STAND", "OPTION HB4"],
    },
    Case {
        name: "nap-reserve-loss",
        shows: "French picks among its seven types in the attacked reserve",
        position: "6IG2L2AH2CK/3/4/2/5/2/5/2/4/1C1/6ig2l2ah3ck - b - 20 -",
        orders: &["ATTACK F3C FR"],
    },
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/choices")
}

fn state(case: &Case) -> Squares {
    let mut game: Squares = case.position.parse().expect("a case position");
    for o in case.orders {
        let order = game.parse_order(o).expect("a canonical order");
        game.apply(&order)
            .unwrap_or_else(|r| panic!("{}: {o} refused: {r}", case.name));
    }
    game
}

fn rendered(case: &Case) -> String {
    let game = state(case);
    format!(
        "# {}\n# {} after {:?}\n{}",
        case.shows,
        case.position,
        case.orders,
        game.choices()
    )
}

fn nap_state(case: &Case) -> Napoleonic {
    let text = format!("napoleonic {}", case.position);
    let mut game =
        Napoleonic::from_position(&text).unwrap_or_else(|e| panic!("{}: {}", case.name, e.message));
    for o in case.orders {
        let order = game.parse_order(o).expect("a canonical order");
        game.apply(&order)
            .unwrap_or_else(|r| panic!("{}: {o} refused: {r}", case.name));
    }
    game
}

fn nap_rendered(case: &Case) -> String {
    let game = nap_state(case);
    format!(
        "# {}\n# napoleonic {} after {:?}\n{}",
        case.shows,
        case.position,
        case.orders,
        game.choices()
    )
}

#[test]
fn choices_match_their_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    let all = CASES
        .iter()
        .map(|c| (c, rendered(c)))
        .chain(NAP_CASES.iter().map(|c| (c, nap_rendered(c))));
    for (case, text) in all {
        let path = golden_dir().join(format!("{}.txt", case.name));
        if update {
            std::fs::create_dir_all(golden_dir()).expect("the golden directory");
            std::fs::write(&path, &text).expect("a golden file is written");
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
        if want != text {
            stale.push(format!("--- {}\n{text}", path.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "choices differ from the golden files:\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_golden_file_belongs_to_a_case() {
    for entry in std::fs::read_dir(golden_dir()).expect("tests/data/choices") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        let stem = name.trim_end_matches(".txt");
        assert!(
            CASES.iter().chain(NAP_CASES).any(|c| c.name == stem),
            "{name} is no case's golden file"
        );
    }
}

#[test]
fn help_moves_lists_one_units_orders_in_full() {
    let game: Squares = FRONT.parse().unwrap();
    let text = game.choices_from("b1c").expect("B1C has orders");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Legal orders for B1C (5):");
    assert_eq!(
        &lines[1..],
        [
            "  ATTACK B1C G1C",
            "  ATTACK B1C G1C SUPPORT B1CL",
            "  MOVE B1C B1CR",
            "  MOVE B1C B2CL",
            "  MOVE B1C B2CR",
        ]
    );
    // The supporting unit's orders include the attacks it supports.
    let text = game.choices_from("B1CL").unwrap();
    assert!(text.contains("ATTACK B1C G1C SUPPORT B1CL"), "{text}");
    let r = game.choices_from("B1X").unwrap_err();
    assert!(r.problem.contains("not a square"), "{r}");
    assert!(r.suggestions.iter().any(|s| s == "HELP MOVES B1C"), "{r}");
    let r = game.choices_from("G1C").unwrap_err();
    assert!(r.problem.contains("no legal order"), "{r}");
}

proptest! {
    #![proptest_config(config(120))]

    /// At every position of play: lines fit a mail (76 columns, ASCII);
    /// every unit with orders has its line; in a decision every legal order
    /// has its own line; when the game is over there is nothing.
    #[test]
    fn choices_fit_a_mail_and_cover_every_legal_order(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
    ) {
        let game = play(gray_first, &choices);
        let text = game.choices();
        for line in text.lines() {
            prop_assert!(line.len() <= 76, "{:?} at {}", line, game);
            prop_assert!(line.is_ascii(), "{:?}", line);
        }
        let legal = game.legal_orders();
        if game.outcome().is_some() {
            prop_assert!(text.is_empty());
            return Ok(());
        }
        if game.attack().is_some() {
            for o in &legal {
                let head = format!("  {o}: ");
                prop_assert!(
                    text.lines().any(|l| l.starts_with(&head)),
                    "{} has no line at {}:\n{}", o, game, text
                );
            }
        } else {
            for o in &legal {
                let mentioned = match o {
                    Order::Move(s) => text.contains(&format!(" {}: ", s.from)),
                    Order::Attack { attacker, .. } => text.contains(&format!(" {attacker}: ")),
                    Order::MoveTwo(..) => text.contains("two cavalry at once"),
                    Order::Pass => text.contains("PASS"),
                    _ => false,
                };
                prop_assert!(mentioned, "{} not mentioned at {}:\n{}", o, game, text);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(100))]

    /// The same at every position of the variant's play, and its words:
    /// F codes only (no G code, N1), British and French; a defender told
    /// that it must retreat is told the reason that applies: cavalry (R24)
    /// or infantry and light infantry facing the attacking Guard (N12).
    #[test]
    fn nap_choices_fit_a_mail_and_cover_every_legal_order(
        seed in any::<u64>(),
        steps in 0usize..250,
    ) {
        let game = nap_play(seed, steps);
        let text = game.choices();
        for line in text.lines() {
            prop_assert!(line.len() <= 76, "{:?} at {}", line, game);
            prop_assert!(line.is_ascii(), "{:?}", line);
        }
        for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let g_code = Space::all().any(|s| s.code() == word && word.starts_with('G'));
            prop_assert!(!g_code && word != "Blue" && word != "Gray", "{} in\n{}", word, text);
        }
        let legal = game.legal_orders();
        if game.outcome().is_some() {
            prop_assert!(text.is_empty());
            return Ok(());
        }
        let squares = game.squares();
        if let Some(attack) = squares.attack() {
            for o in &legal {
                let head = format!("  {o}: ");
                prop_assert!(
                    text.lines().any(|l| l.starts_with(&head)),
                    "{} has no line at {}:\n{}", o, game, text
                );
            }
            let kind = |s: Space| squares.unit_at(s).map(|u| u.kind());
            if attack.stage == Stage::Response {
                if text.contains("Cavalry must retreat when it can") {
                    prop_assert_eq!(kind(attack.target), Some(UnitKind::Cavalry), "{}", text);
                }
                if text.contains("must retreat from the attacking guard") {
                    prop_assert_eq!(kind(attack.attacker), Some(UnitKind::Guard), "{}", text);
                    prop_assert!(
                        matches!(kind(attack.target), Some(UnitKind::Infantry | UnitKind::Light)),
                        "{}", text
                    );
                }
            }
        } else {
            for o in &legal {
                let mentioned = notation::with(&NAPOLEONIC, || match o.0 {
                    Order::Move(s) => text.contains(&format!(" {}: ", s.from)),
                    Order::Attack { attacker, .. } => text.contains(&format!(" {attacker}: ")),
                    Order::MoveTwo(..) => text.contains("two cavalry or heavy cavalry at once"),
                    Order::Pass => text.contains("PASS"),
                    _ => false,
                });
                prop_assert!(mentioned, "{} not mentioned at {}:\n{}", o, game, text);
            }
        }
    }
}

#[test]
fn nap_help_moves_reads_and_writes_f_codes() {
    // P19: the cavalry in B1C may charge F1C directly after the PASS.
    let game = Napoleonic::from_position(
        "napoleonic 6IG2L2AH2CK/3/4/2/2C2/2/2i2/2/4/3/5ig2l2ah3ck - b1 b 20 -",
    )
    .unwrap();
    let text = game.choices_from("b1c").expect("B1C has orders");
    assert!(text.starts_with("Legal orders for B1C ("), "{text}");
    assert!(text.contains("  ATTACK B1C F1C\n"), "{text}");
    assert!(!text.contains("G1C"), "{text}");
    // The French unit's square, written with F or G (N1): no order now.
    for square in ["F1C", "g1c"] {
        let r = game.choices_from(square).unwrap_err();
        assert!(
            r.problem.contains("no legal order for a unit in F1C"),
            "{r}"
        );
    }
    let r = game.choices_from("F1X").unwrap_err();
    assert!(r.suggestions.iter().any(|s| s == "HELP MOVES F1C"), "{r}");
}
