//! The pending choices worded for the player to act (`Game::choices`,
//! `Game::choices_from`): golden files for a range of decisions, and
//! properties that hold at every position of random play.
//!
//! The golden files are under tests/data/squares/choices/ and
//! tests/data/napoleonic/choices/ (`nap-*`, the variant's). `UPDATE_GOLDEN=1 cargo test --test choices` rewrites
//! them; a rewritten file is then read by eye before it is committed (each
//! says what it must show in its first line).

#[path = "../common/mod.rs"]
mod common;

use std::path::PathBuf;

use common::squares::*;
use orderly::games::squares::notation::{Notation, CIVIL_WAR, NAPOLEONIC};
use orderly::games::squares::{board, Napoleonic, Order, Space, Squares, Stage, UnitKind};
use orderly::games::{CitesRule, Game, GameText, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Blue infantry in B1C and B1CL facing Gray infantry in G1C (turn 20).
const FRONT: &str = "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b - 20 -";

/// Seventeen Blue attacks on a crowded front (turn 31).
const MANY_ATTACKS: &str = "4I1A1C/3/1A1C/IC/IAICI/Ia/icaii/ac/i2i/3/4i2c - b - 31 -";

/// Blue infantry resting in B2L and B1CR (R21); Blue cavalry in B1C moved on
/// Blue's last two turns (R6) and pinned by the Gray artillery in G1CL (R16).
const IDLE: &str = "6I3A3C/3/I2I_/2/1I_C++2/2/1ai2/2/4/3/8i2a4c - b - 30 -";

/// Blue infantry in G1CL attacks G1C supported by the cavalry in B1C, which
/// has two retreats: option 5 leaves the retreat to pick.
const OPTION_5_TO_PICK: &str = "8I3A3C/3/4/2/2C2/2/1Ii2/2/4/3/8i3a4c - b - 20 -";

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
        shows: "every attack in full first, then the moves by unit",
        position: FRONT,
        orders: &[],
    },
    Case {
        name: "crowded",
        shows: "a crowded front: eleven attacks one a line, notes kept",
        position: "2I2A1C/I1I/C2C/II/I1IA1/1C/1iIa1/ic/1i2/3/6i2a3c - b - 40 -",
        orders: &[],
    },
    Case {
        name: "many-attacks",
        shows: "seventeen attacks: two a line, one unit's on one target together",
        position: MANY_ATTACKS,
        orders: &[],
    },
    Case {
        name: "idle-units",
        shows: "units without an order: two resting (R21), one moved and pinned",
        position: IDLE,
        orders: &[],
    },
    Case {
        name: "reserve-blocked",
        shows: "every exit of the reserve taken: its three types on one line",
        position: "6I3A4C/III/4/2/5/2/5/2/4/3/9i3a4c - b - 20 -",
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
        shows: "Blue's five options: what each does, then here, and the score",
        position: FRONT,
        orders: &["ATTACK B1C G1C SUPPORT B1CL", "STAND"],
    },
    Case {
        name: "option-5-to-pick",
        shows: "options saying what they do before the retreat is picked (5)",
        position: OPTION_5_TO_PICK,
        orders: &["ATTACK G1CL G1C SUPPORT B1C", "STAND"],
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
        name: "nap-idle-units",
        shows: "light infantry resting; heavy cavalry moved, pinned by the HB",
        position: "6IG1L2AH3C/3/4/2/L_1K++2/2/1hi2/2/4/3/5ig2l2a3ck - b - 30 -",
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

/// The golden files of `game` (its `Game::NAME`, the folder of its test
/// data).
fn golden_dir(game: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(game)
        .join("choices")
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
        game.choices(Seat::North)
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
        game.choices(Seat::North)
    )
}

#[test]
fn choices_match_their_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    let all = CASES.iter().map(|c| (Squares::NAME, c, rendered(c))).chain(
        NAP_CASES
            .iter()
            .map(|c| (Napoleonic::NAME, c, nap_rendered(c))),
    );
    for (game, case, text) in all {
        let path = golden_dir(game).join(format!("{}.txt", case.name));
        if update {
            std::fs::create_dir_all(golden_dir(game)).expect("the golden directory");
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
    for (game, cases) in [(Squares::NAME, CASES), (Napoleonic::NAME, NAP_CASES)] {
        let dir = golden_dir(game);
        for entry in std::fs::read_dir(&dir).expect("the golden directory") {
            let name = entry.expect("an entry").file_name();
            let name = name.to_string_lossy();
            let stem = name.trim_end_matches(".txt");
            assert!(
                cases.iter().any(|c| c.name == stem),
                "{}/{name} is no {game} case's golden file",
                dir.display()
            );
        }
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

#[test]
fn every_attack_is_written_out_in_full() {
    for position in [
        FRONT,
        MANY_ATTACKS,
        "2I2A1C/I1I/C2C/II/I1IA1/1C/1iIa1/ic/1i2/3/6i2a3c - b - 40 -",
    ] {
        let game: Squares = position.parse().unwrap();
        let text = game.choices(Seat::North);
        let mut listed = listed_attacks(&text);
        let mut legal: Vec<String> = game
            .legal_orders()
            .iter()
            .filter(|o| matches!(o, Order::Attack { .. }))
            .map(|o| o.to_string())
            .collect();
        assert!(legal.len() >= 2, "{text}");
        listed.sort();
        legal.sort();
        assert_eq!(listed, legal, "{text}");
        // Attacks come before the moves.
        let attacks_at = text.find("Attacks (").unwrap();
        assert!(attacks_at < text.find("Your orders, by unit:").unwrap());
        for line in text.lines() {
            assert!(line.len() <= 76, "{line:?}");
        }
    }
    let text = FRONT.parse::<Squares>().unwrap().choices(Seat::North);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[1..4],
        [
            "Attacks (2):",
            "  ATTACK B1C G1C",
            "  ATTACK B1C G1C SUPPORT B1CL"
        ],
    );
    // Seventeen attacks: two a line, each whole.
    let text = MANY_ATTACKS
        .parse::<Squares>()
        .unwrap()
        .choices(Seat::North);
    assert!(
        text.contains("\n  ATTACK B1C G1C SUPPORT B1CR   ATTACK B1C G1C SUPPORT B1CL\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  ATTACK B1C G1C (attacker lost, R17)\n"),
        "{text}"
    );
}

#[test]
fn a_unit_that_moved_twice_says_r6_and_a_resting_one_r21() {
    let game: Squares = IDLE.parse().unwrap();
    let text = game.choices(Seat::North);
    assert!(text.contains("\nUnits that cannot act now:\n"), "{text}");
    let groups = idle_groups(&text);
    assert_eq!(
        groups,
        [
            " infantry B1CR, infantry B2L: resting after a retreat (R21)",
            " cavalry B1C: no move (moved on your last two turns, R6); no attack \
             (pinned by the artillery in G1CL, R16)",
        ],
        "{text}"
    );
    // The rules cited are the ones the engine refuses those orders with.
    let refused = |order: &str| {
        let mut g = game.clone();
        let order = g.parse_order(order).unwrap();
        g.apply(&order).unwrap_err().rule().to_string()
    };
    assert_eq!(refused("MOVE B1C B2CR"), "R6");
    assert_eq!(refused("MOVE B1CR B2R"), "R21");
    assert_eq!(refused("ATTACK B1C G1C SUPPORT B1CR"), "R16");
    assert_eq!(refused("MOVE B2L B3L"), "R21");

    // The variant: its own unit words and codes.
    let nap = NAP_CASES
        .iter()
        .find(|c| c.name == "nap-idle-units")
        .unwrap();
    let text = nap_state(nap).choices(Seat::North);
    assert_eq!(
        idle_groups(&text),
        [
            " light infantry B1R: resting after a retreat (R21)",
            " heavy cavalry B1C: no move (moved on your last two turns, R6); no \
             attack (pinned by the horse battery in F1CL, R16)",
        ],
        "{text}"
    );
}

#[test]
fn every_option_says_what_it_does_option_5_too() {
    let case = CASES.iter().find(|c| c.name == "option-5-to-pick").unwrap();
    let text = state(case).choices(Seat::North);
    // The support has two retreats: what follows is a choice, and the
    // option still says what it does.
    assert_eq!(
        choice_line(&text, "  OPTION 5:"),
        "OPTION 5: only your supporting unit retreats; the defender stays. Then \
         you pick where your cavalry in B1C retreats."
    );
    let case = CASES.iter().find(|c| c.name == "option").unwrap();
    let text = state(case).choices(Seat::North);
    for (option, says) in [
        ("1", "the defender is eliminated; your supporting unit retreats, then your attacking unit."),
        ("2", "the defender and your supporting unit are eliminated; your attacking unit may advance."),
        ("3", "the defender and your attacking unit are eliminated."),
        ("4", "only your attacking unit retreats; the defender stays."),
        ("5", "only your supporting unit retreats; the defender stays."),
    ] {
        let line = choice_line(&text, &format!("  OPTION {option}:"));
        assert!(line.starts_with(&format!("OPTION {option}: {says} ")), "{line}");
    }
    let case = NAP_CASES
        .iter()
        .find(|c| c.name == "nap-horse-battery-option")
        .unwrap();
    let text = nap_state(case).choices(Seat::North);
    let line = choice_line(&text, "  OPTION HB4:");
    assert_eq!(
        line,
        "OPTION HB4: only your horse battery retreats; the defender stays. Then \
         you pick where your horse battery in B1C retreats."
    );
    let line = choice_line(&text, "  OPTION HB1:");
    assert!(line.contains("all retreat; none is eliminated."), "{line}");
    let case = NAP_CASES
        .iter()
        .find(|c| c.name == "nap-grand-battery-option")
        .unwrap();
    let text = nap_state(case).choices(Seat::North);
    let line = choice_line(&text, "  OPTION GB1:");
    assert!(line.contains("retreat a second time and survive"), "{line}");
}

#[test]
fn the_example_is_a_move_not_an_attack_when_moves_exist() {
    let positions = [
        FRONT,
        MANY_ATTACKS,
        "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -",
    ];
    for position in positions {
        let game: Squares = position.parse().unwrap();
        let text = game.choices(Seat::North);
        let example = example_order(&text);
        assert!(example.starts_with("MOVE "), "{text}");
        assert!(game.legal_orders().iter().any(|o| o.to_string() == example));
    }
    // A move out of the reserve to a square no enemy touches, and not the
    // artillery while another type can go.
    let text = FRONT.parse::<Squares>().unwrap().choices(Seat::North);
    assert_eq!(example_order(&text), "MOVE CAVALRY BR B3C");
    for case in NAP_CASES.iter().filter(|c| c.orders.is_empty()) {
        let text = nap_state(case).choices(Seat::North);
        let example = example_order(&text);
        assert!(example.starts_with("MOVE "), "{}: {text}", case.name);
        assert!(!example.contains("ARTILLERY"), "{}: {text}", case.name);
    }
}

/// The attacks a turn's choices list: every order of the "Attacks (n):"
/// section, the notes in brackets left off, several on a line split at
/// their column gaps. Also checks that the count in the heading is right.
fn listed_attacks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut heading = None;
    let mut inside = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Attacks (") {
            heading = rest.split(')').next().and_then(|n| n.parse::<usize>().ok());
            inside = true;
            continue;
        }
        if !line.starts_with("  ") {
            inside = false;
            continue;
        }
        if !inside || line.starts_with("      ") {
            continue;
        }
        let orders = line.find(" (").map_or(line, |i| &line[..i]);
        out.extend(
            orders
                .split("   ")
                .map(str::trim)
                .filter(|o| !o.is_empty())
                .map(String::from),
        );
    }
    match heading {
        Some(n) => assert_eq!(n, out.len(), "the heading counts the attacks:\n{text}"),
        None => assert!(
            out.is_empty() && text.contains("Attacks: none now."),
            "no attack heading:\n{text}"
        ),
    }
    out
}

/// The order a turn's choices give as the example ("such as ...").
fn example_order(text: &str) -> String {
    let joined: Vec<&str> = text.split_whitespace().collect();
    let joined = joined.join(" ");
    let start = joined.find("such as ").expect("an example") + "such as ".len();
    let end = joined[start..]
        .find(". HELP MOVES")
        .expect("the example ends its sentence");
    joined[start..start + end].to_string()
}

/// One choice's line in a decision with its continuation lines joined.
fn choice_line(text: &str, head: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with(head) {
            out = line.trim().to_string();
        } else if !out.is_empty() && line.starts_with("      ") {
            out.push(' ');
            out.push_str(line.trim());
        } else if !out.is_empty() {
            break;
        }
    }
    out
}

/// The lines of the "Units that cannot act now:" section, each with its
/// wrapped continuation joined: one per group of units and its reasons.
fn idle_groups(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line == "Units that cannot act now:" {
            inside = true;
            continue;
        }
        if !line.starts_with("  ") {
            inside = false;
        }
        if !inside {
            continue;
        }
        match out.last_mut() {
            Some(last) if line.starts_with("      ") => {
                last.push(' ');
                last.push_str(line.trim());
            }
            _ => out.push(format!(" {}", line.trim())),
        }
    }
    out
}

/// Whether `text` cites a rule id (R1-R28, N1-...).
fn cites_rule(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        w.len() > 1
            && (w.starts_with('R') || w.starts_with('N'))
            && w[1..].chars().all(|c| c.is_ascii_digit())
    })
}

/// On a turn: the example is a legal order; a move whenever a move is
/// legal; an attack that only loses its attacker only when every legal
/// order is one.
fn check_example(legal: &[Order], text: &str, n: &Notation) -> Result<(), TestCaseError> {
    let example = example_order(text);
    prop_assert!(
        legal.iter().any(|o| o.display_in(n).to_string() == example),
        "the example {} is not legal:\n{}",
        example,
        text
    );
    if legal
        .iter()
        .any(|o| matches!(o, Order::Move(_) | Order::MoveTwo(..)))
    {
        prop_assert!(example.starts_with("MOVE "), "{}", text);
    }
    let loses = |order: &str| {
        text.lines()
            .any(|l| l.trim() == order || l.trim().starts_with(&format!("{order} (")))
            && text.lines().any(|l| {
                l.trim().starts_with(&format!("{order} (attacker lost"))
                    || l.trim().starts_with(&format!("{order} (charge: both"))
            })
    };
    if loses(&example) {
        for o in legal {
            prop_assert!(
                loses(&o.display_in(n).to_string()),
                "{} chosen over {}:\n{}",
                example,
                o.display_in(n),
                text
            );
        }
    }
    Ok(())
}

/// On a turn: each unit of the side to move (and each type in its reserve)
/// that has no legal order is named in the section of units that cannot
/// act, with a rule; no unit that has an order is named there.
fn check_idle_units(game: &Squares, legal: &[Order], text: &str) -> Result<(), TestCaseError> {
    let side = game.to_move();
    let b = board();
    let reserve = b.reserve(side);
    let groups = idle_groups(text);
    // Each group is "<unit>, <unit>: <reasons>".
    let named = |name: &str| {
        groups.iter().any(|g| {
            g.split(':')
                .next()
                .is_some_and(|units| units.split(',').any(|u| u.trim() == name))
        })
    };
    let acts = |from: Space, kind: UnitKind| {
        legal.iter().any(|o| match *o {
            Order::Move(s) => s.from == from && (from != reserve || s.unit == Some(kind)),
            Order::MoveTwo(p, q) => [p, q]
                .iter()
                .any(|s| s.from == from && (from != reserve || s.unit == Some(kind))),
            Order::Attack {
                attacker, support, ..
            } => attacker == from || support == Some(from),
            _ => false,
        })
    };
    let mut units: Vec<(Space, UnitKind)> = game
        .occupied_by(side)
        .iter()
        .filter(|&s| b.reserve_owner(s).is_none())
        .filter_map(|s| game.unit_at(s).map(|u| (s, u.kind())))
        .collect();
    units.extend(game.reserve_units(side).map(|u| (reserve, u.kind())));
    for (square, kind) in units {
        let name = format!("{kind} {}", square.display_in(game.variant().notation()));
        if acts(square, kind) {
            prop_assert!(
                !named(&name),
                "{} acts but is named idle at {}:\n{}",
                name,
                game,
                text
            );
        } else {
            prop_assert!(
                named(&name),
                "{} has no order and no reason at {}:\n{}",
                name,
                game,
                text
            );
        }
    }
    for group in &groups {
        prop_assert!(cites_rule(group), "{} cites no rule:\n{}", group, text);
    }
    Ok(())
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
        let text = game.choices(Seat::North);
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
            let attacks = listed_attacks(&text);
            let mut legal_attacks: Vec<String> = legal
                .iter()
                .filter(|o| matches!(o, Order::Attack { .. }))
                .map(|o| o.to_string())
                .collect();
            legal_attacks.sort();
            let mut sorted = attacks.clone();
            sorted.sort();
            prop_assert_eq!(&sorted, &legal_attacks, "attacks listed at {}:\n{}", game, text);
            for o in &legal {
                let mentioned = match o {
                    Order::Move(s) => text.contains(&format!(" {}: ", s.from)),
                    Order::Attack { .. } => attacks.contains(&o.to_string()),
                    Order::MoveTwo(..) => text.contains("two cavalry at once"),
                    Order::Pass => text.contains("PASS"),
                    _ => false,
                };
                prop_assert!(mentioned, "{} not mentioned at {}:\n{}", o, game, text);
            }
            let squares_legal = legal.clone();
            check_idle_units(&game, &squares_legal, &text)?;
            check_example(&squares_legal, &text, &CIVIL_WAR)?;
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
        let text = game.choices(Seat::North);
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
            let attacks = listed_attacks(&text);
            let mut legal_attacks: Vec<String> = legal
                .iter()
                .filter(|o| matches!(o.0, Order::Attack { .. }))
                .map(|o| o.to_string())
                .collect();
            legal_attacks.sort();
            let mut sorted = attacks.clone();
            sorted.sort();
            prop_assert_eq!(&sorted, &legal_attacks, "attacks listed at {}:\n{}", game, text);
            for o in &legal {
                let mentioned = match o.0 {
                    Order::Move(s) => text.contains(&format!(" {}: ", s.from.display_in(&NAPOLEONIC))),
                    Order::Attack { .. } => attacks.contains(&o.to_string()),
                    Order::MoveTwo(..) => text.contains("two cavalry or heavy cavalry at once"),
                    Order::Pass => text.contains("PASS"),
                    _ => false,
                };
                prop_assert!(mentioned, "{} not mentioned at {}:\n{}", o, game, text);
            }
            let squares_legal: Vec<Order> = legal.iter().map(|o| o.0).collect();
            check_idle_units(squares, &squares_legal, &text)?;
            check_example(&squares_legal, &text, &NAPOLEONIC)?;
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
