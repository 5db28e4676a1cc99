//! Game records (docs/record-format.md): round trips over random games of
//! both games (the Civil War game and the Napoleonic variant, whose
//! properties carry a `napoleonic_` prefix), corrupted orders reported at
//! their line, the sample records under tests/data/<game>/records/, import and
//! replay errors, and `orderly replay` run as a real process.
//!
//! `PROPTEST_CASES=n` runs the properties with `n` cases.

#[path = "../common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::rng::XorShift;
use common::squares::{config, fail};
use orderly::games::hosted::Hosted;
use orderly::games::squares::{Napoleonic, Squares};
use orderly::games::{AnyGame, Game, GameOptions, GameResult, GameText, Seat};
use orderly::record::{
    replay, Date, Ending, Entry, Finish, JsonRecord, Record, Recorder, ReplayError, Termination,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

// ----- random games ---------------------------------------------------------

/// A listed order of `game`, an attack more often when `aggressive`.
fn pick(rng: &mut XorShift, game: &dyn AnyGame, aggressive: bool) -> String {
    let legal = game.legal_orders();
    let attacks: Vec<&String> = legal.iter().filter(|o| o.starts_with("ATTACK")).collect();
    if aggressive && !attacks.is_empty() && rng.chance(60) {
        attacks[rng.below(attacks.len())].clone()
    } else {
        legal[rng.below(legal.len())].clone()
    }
}

/// A random game with a record: from the opening or from a position reached
/// by play, attack-heavy or not, with comments, extra tags and now and then
/// an end that is not an engine order.
fn random_game<G: GameText>(seed: u64) -> Recorder {
    let mut rng = XorShift::new(seed);
    let first = if rng.chance(50) {
        Seat::North
    } else {
        Seat::South
    };
    let aggressive = rng.chance(70);
    let pick = |rng: &mut XorShift, game: &dyn AnyGame| pick(rng, game, aggressive);
    let mut rec = if rng.chance(20) {
        let mut game: Box<dyn AnyGame> = Box::new(G::new(&GameOptions {
            first,
            seed: None,
            scenario: None,
        }));
        for _ in 0..rng.below(60) {
            if game.outcome().is_some() {
                break;
            }
            let order = pick(&mut rng, game.as_ref());
            game.apply_canonical(&order)
                .expect("a listed order is taken");
        }
        Recorder::from_position(game)
    } else {
        let chance_seed = rng.chance(20).then(|| rng.next_u64());
        Recorder::new(
            &Hosted::of::<G>(),
            &GameOptions {
                first,
                seed: chance_seed,
                scenario: None,
            },
        )
    };
    let tags = rec.tags_mut();
    tags.game_id = format!("{}-{seed:x}", &G::NAME[..2]);
    tags.site = "orderly.example.org".to_string();
    tags.players = [
        "Ann \"the Bold\" Example <ann@example.org>".to_string(),
        "Bob \\ Example <bob@example.org>".to_string(),
    ];
    tags.started = Date::new(2026, 1 + (seed % 12) as u8, 1 + (seed % 28) as u8);
    if rng.chance(30) {
        tags.set_extra("Round", &format!("{}", seed % 9))
            .expect("Round is a tag name");
    }
    let limit = rng.below(400);
    for _ in 0..limit {
        if rec.finish().is_some() {
            break;
        }
        if rng.chance(3) {
            let words = ["Moderator", "{extended}", "the", "deadline", "of", "turn"];
            let n = 1 + rng.below(40);
            let text: Vec<&str> = (0..n).map(|_| rng.pick(&words)).collect();
            rec.comment(&text.join(" "));
        }
        if rng.chance(1) {
            let ended = match rng.below(4) {
                0 => rec.resign(Seat::North),
                1 => rec.resign(Seat::South),
                2 => rec.agree_draw(),
                _ => rec.adjudicate(GameResult::Win(rng.pick(&Seat::BOTH))),
            };
            ended.expect("a game going on can end");
            break;
        }
        let order = pick(&mut rng, rec.game());
        rec.apply(&order).expect("a listed order is taken");
    }
    if rec.finish().is_some() {
        rec.tags_mut().ended = Date::new(2027, 2, 28);
        if rng.chance(30) {
            rec.comment("Moderator: the game is archived.");
        }
    }
    rec
}

/// The line numbers of the order lines of a written record, in order:
/// numbered lines and continuation lines, without end markers, notes,
/// comments, tags or the result token.
fn order_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut in_tags = true;
    let mut in_comment = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if in_tags {
            in_tags = !t.is_empty();
            continue;
        }
        if in_comment || t.starts_with('{') {
            in_comment = !t.ends_with('}');
            continue;
        }
        let end_marker = ["RESIGNS", "DRAW AGREED", "ADJUDICATED"]
            .iter()
            .any(|m| t.contains(m));
        if t.is_empty() || t.starts_with(';') || end_marker || !t.contains(' ') {
            continue;
        }
        lines.push(i + 1);
    }
    lines
}

/// `text` with line `number` (from 1) replaced.
fn replace_line(text: &str, number: usize, with: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        out.push_str(if i + 1 == number { with } else { line });
        out.push('\n');
    }
    out
}

/// Write -> read -> write is the identity; the replay reaches the same
/// position and end, rewrites the record unchanged, and exports JSON that
/// reads back.
fn round_trip<G: GameText>(seed: u64) -> Result<(), TestCaseError> {
    let rec = random_game::<G>(seed);
    let text = rec.record().to_string();
    prop_assert!(
        text.starts_with(&format!("[Game \"{}\"]\n", G::NAME)),
        "seed {}: {}",
        seed,
        text
    );
    let read = Record::read_as(&text, &Hosted::of::<G>())
        .map_err(|e| fail(format!("seed {seed}: {e}\n{text}")))?;
    prop_assert_eq!(&read.to_string(), &text, "seed {}", seed);
    prop_assert_eq!(&read, rec.record(), "seed {}", seed);
    let replayed = replay(&read).map_err(|e| fail(format!("seed {seed}: {e}\n{text}")))?;
    prop_assert_eq!(
        replayed.game.position(),
        rec.game().position(),
        "seed {}",
        seed
    );
    prop_assert_eq!(
        replayed.game.outcome(),
        rec.game().outcome(),
        "seed {}",
        seed
    );
    prop_assert_eq!(replayed.finish.clone(), rec.finish(), "seed {}", seed);
    prop_assert_eq!(&replayed.last_action, rec.last_action(), "seed {}", seed);
    prop_assert_eq!(&replayed.record.to_string(), &text, "seed {}", seed);
    let lines = order_lines(&text);
    prop_assert_eq!(replayed.orders.len(), lines.len(), "seed {}", seed);
    for (o, line) in replayed.orders.iter().zip(&lines) {
        prop_assert_eq!(o.line, *line, "seed {}", seed);
    }
    let json = serde_json::to_string(&replayed.to_json())
        .map_err(|e| fail(format!("seed {seed}: {e}")))?;
    let back: JsonRecord =
        serde_json::from_str(&json).map_err(|e| fail(format!("seed {seed}: {e}")))?;
    prop_assert_eq!(back.orders.len(), replayed.orders.len());
    prop_assert_eq!(&back.position, &rec.game().position());
    // A record can go on from where its replay stopped.
    let resumed = Recorder::resume(replayed);
    prop_assert_eq!(resumed.record(), rec.record());
    Ok(())
}

/// One order replaced by garbage, by an order the game refuses there (from
/// `refused`, or one played elsewhere in the game), by the other seat or by
/// another turn number: the replay fails at exactly that line, quoting it.
fn corrupted_order<G: GameText>(
    seed: u64,
    which: u64,
    how: u8,
    refused: &[&str],
) -> Result<(), TestCaseError> {
    let rec = random_game::<G>(seed);
    let text = rec.record().to_string();
    let replayed = replay(rec.record()).map_err(|e| fail(format!("seed {seed}: {e}")))?;
    let lines = order_lines(&text);
    prop_assume!(!lines.is_empty());
    let k = (which % lines.len() as u64) as usize;
    let number = lines[k];
    let original = text.lines().nth(number - 1).unwrap_or_default().to_string();
    let numbered = !original.starts_with(' ');
    // The line up to its order: `17. Gray` or `    Gray`.
    let head = {
        let (lead, rest) = original.trim_start().split_once(' ').unwrap_or(("", ""));
        if numbered {
            let seat = rest.split(' ').next().unwrap_or("");
            format!("{lead} {seat}")
        } else {
            format!("    {lead}")
        }
    };
    let before = if k == 0 {
        replayed.start.clone()
    } else {
        replayed.orders[k - 1].position.clone()
    };
    let game = G::from_position(&before).map_err(|e| fail(e.to_string()))?;
    let corrupted = match how {
        0 => format!("{head} XYZZY {which}"),
        1 => {
            let mut candidates: Vec<String> = refused.iter().map(|s| s.to_string()).collect();
            candidates.extend(replayed.orders.iter().map(|o| o.order.to_string()));
            let illegal: Vec<&String> = candidates
                .iter()
                .filter(|c| match game.read_order(c) {
                    Err(_) => true,
                    Ok(o) => game.clone().apply(&o).is_err(),
                })
                .collect();
            prop_assert!(
                !illegal.is_empty(),
                "seed {}: nothing illegal at {}",
                seed,
                before
            );
            format!("{head} {}", illegal[(which / 7) as usize % illegal.len()])
        }
        2 => {
            let (lead, _) = original.trim_start().split_once(' ').unwrap_or(("", ""));
            let [north, south] = [G::seat_name(Seat::North), G::seat_name(Seat::South)];
            let (seat, other) = if original.contains(&format!(" {north} ")) {
                (north, south)
            } else {
                (south, north)
            };
            let swapped = original.replacen(&format!(" {seat} "), &format!(" {other} "), 1);
            if numbered {
                swapped
            } else {
                original.replacen(lead, other, 1)
            }
        }
        _ => {
            if numbered {
                let n: u32 = head
                    .split('.')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                original.replacen(
                    &format!("{n}."),
                    &format!("{}.", n + 1 + (which % 3) as u32),
                    1,
                )
            } else {
                // A decision inside an action written as a new turn.
                format!("{}. {}", game.turn_number(), original.trim_start())
            }
        }
    };
    prop_assume!(corrupted != original);
    let bad = replace_line(&text, number, &corrupted);
    let read = Record::read_as(&bad, &Hosted::of::<G>())
        .map_err(|e| fail(format!("seed {seed}: {e}\n{bad}")))?;
    match replay(&read) {
        Ok(_) => {
            return Err(fail(format!(
                "seed {seed}: line {number} `{corrupted}` replayed"
            )))
        }
        Err(ReplayError {
            line, text: quoted, ..
        }) => {
            prop_assert_eq!(line, number, "seed {}: `{}`", seed, corrupted);
            prop_assert_eq!(quoted.trim(), corrupted.trim());
        }
    }
    Ok(())
}

/// Orders the Civil War game refuses in many positions.
const CIVIL_WAR_REFUSED: &[&str] = &[
    "PASS",
    "STAND",
    "ADVANCE",
    "STAY",
    "OPTION 3",
    "LOSE CAVALRY",
    "MOVE CAVALRY BR B3C",
    "MOVE INFANTRY GR G3C",
    "ATTACK G1C B1C",
    "RETREAT BR",
    "MOVE B1C B2C",
];

/// Orders the Napoleonic variant refuses in many positions (its words and
/// F codes, N1, N24).
const NAPOLEONIC_REFUSED: &[&str] = &[
    "PASS",
    "STAND",
    "ADVANCE",
    "STAY",
    "OPTION 3",
    "OPTION GB2",
    "OPTION HB4",
    "LOSE GUARD",
    "MOVE HEAVY BR B3C",
    "MOVE LIGHT FR F3C",
    "ATTACK F1C B1C",
    "RETREAT FR",
    "MOVE B1C B2C",
];

proptest! {
    #![proptest_config(config(300))]

    /// Write -> read -> write is the identity; the replay reaches the same
    /// position and end, rewrites the record unchanged, and exports JSON
    /// that reads back.
    #[test]
    fn records_round_trip(seed in any::<u64>()) {
        round_trip::<Squares>(seed)?;
    }

    /// As above, for records of the Napoleonic variant (`[Game "napoleonic"]`).
    #[test]
    fn napoleonic_records_round_trip(seed in any::<u64>()) {
        round_trip::<Napoleonic>(seed)?;
    }

    /// One order replaced by garbage, by an order the game refuses there,
    /// by the other seat or by another turn number: the replay fails at
    /// exactly that line, quoting it.
    #[test]
    fn a_corrupted_order_is_reported_at_its_line(seed in any::<u64>(), which in any::<u64>(), how in 0..4u8) {
        corrupted_order::<Squares>(seed, which, how, CIVIL_WAR_REFUSED)?;
    }

    /// As above, in records of the Napoleonic variant.
    #[test]
    fn napoleonic_a_corrupted_order_is_reported_at_its_line(seed in any::<u64>(), which in any::<u64>(), how in 0..4u8) {
        corrupted_order::<Napoleonic>(seed, which, how, NAPOLEONIC_REFUSED)?;
    }
}

// ----- the sample records --------------------------------------------------

/// The sample record `name` of `game` (its `Game::NAME`, the folder of its
/// test data).
fn data(game: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(game)
        .join("records")
        .join(name)
}

fn read_sample(name: &str) -> (String, Record) {
    let text = std::fs::read_to_string(data(Squares::NAME, name)).expect("the sample exists");
    let record = Record::read_as(&text, &Hosted::of::<Squares>()).expect("the sample reads");
    (text, record)
}

#[test]
fn the_samples_replay_to_their_results_and_are_canonical() {
    let cases = [
        (
            "reserve-entered.rec",
            Finish {
                result: GameResult::Win(Seat::North),
                termination: Termination::Rules("reserve entered".to_string()),
            },
            5,
        ),
        (
            "resigned.rec",
            Finish {
                result: GameResult::Win(Seat::South),
                termination: Termination::Resigned(Seat::North),
            },
            14,
        ),
        (
            "moderated.rec",
            Finish {
                result: GameResult::Win(Seat::South),
                termination: Termination::Adjudicated,
            },
            14,
        ),
    ];
    for (name, finish, orders) in cases {
        let (text, record) = read_sample(name);
        let replayed = replay(&record).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(replayed.finish, Some(finish), "{name}");
        assert_eq!(replayed.orders.len(), orders, "{name}");
        assert_eq!(replayed.record.to_string(), text, "{name} is canonical");
        assert!(!replayed.rules_differ(), "{name}");
    }
}

/// The seed of the Napoleonic sample (a short game that takes a horse
/// battery option).
const NAPOLEONIC_SAMPLE_SEED: u64 = 29;

/// The game of tests/data/napoleonic/records/napoleonic-sample.txt: the
/// British first, seeded random play from the opening (attacks preferred)
/// to its end by the rules, with the tags the other samples have.
fn napoleonic_sample() -> Recorder {
    let mut rng = XorShift::new(NAPOLEONIC_SAMPLE_SEED);
    let mut rec = Recorder::new(
        &Hosted::of::<Napoleonic>(),
        &GameOptions {
            first: Seat::North,
            seed: None,
            scenario: None,
        },
    );
    let tags = rec.tags_mut();
    tags.game_id = "na-0001".to_string();
    tags.site = "orderly.example.org".to_string();
    tags.players = [
        "Ann Example <ann@example.org>".to_string(),
        "Bob Example <bob@example.org>".to_string(),
    ];
    tags.started = Date::new(2026, 11, 21);
    for _ in 0..5000 {
        if rec.finish().is_some() {
            break;
        }
        let order = pick(&mut rng, rec.game(), true);
        rec.apply(&order).expect("a listed order is taken");
    }
    rec.tags_mut().ended = Date::new(2026, 12, 2);
    rec
}

/// The Napoleonic sample is the record of the seeded game (UPDATE_GOLDEN=1
/// rewrites it), and replaying the file reaches that game's end: read,
/// replayed, canonical, in the variant's notation.
#[test]
fn the_napoleonic_sample_is_its_seeded_game_and_replays() {
    let rec = napoleonic_sample();
    let finish = rec.finish().expect("the sample game ends by the rules");
    assert!(
        matches!(finish.termination, Termination::Rules(_)),
        "{finish:?}"
    );
    let text = rec.record().to_string();
    let path = data(Napoleonic::NAME, "napoleonic-sample.txt");
    if std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("the sample is written");
    }
    let sample = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(
        sample, text,
        "the sample is not the seeded game's record (UPDATE_GOLDEN=1 rewrites it)"
    );
    assert!(sample.starts_with("[Game \"napoleonic\"]\n"), "{sample}");
    assert!(sample.contains("[British \"Ann Example <ann@example.org>\"]"));
    assert!(sample.contains("[French \"Bob Example <bob@example.org>\"]"));
    let record =
        Record::read_as(&sample, &Hosted::of::<Napoleonic>()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        Record::read_as(&sample, &Hosted::of::<Squares>()).is_err(),
        "read as a Civil War record"
    );
    let replayed = replay(&record).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.finish, Some(finish));
    assert_eq!(replayed.game.position(), rec.game().position());
    assert!(replayed.game.position().starts_with("napoleonic "));
    assert_eq!(replayed.orders.len(), order_lines(&sample).len());
    assert_eq!(
        replayed.record.to_string(),
        sample,
        "the sample is canonical"
    );
    assert!(!replayed.rules_differ());
    // The orders are in the variant's notation (N1, N24): F codes, never G.
    for line in order_lines(&sample) {
        let order = sample.lines().nth(line - 1).unwrap_or_default();
        assert!(
            !order
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == "GR" || (w.starts_with('G') && w[1..].starts_with(['1', '2', '3']))),
            "line {line}: {order}"
        );
    }
}

#[test]
fn the_moderated_sample_keeps_its_comments_and_extra_tag() {
    let (_, record) = read_sample("moderated.rec");
    let comments: Vec<&String> = record
        .entries()
        .iter()
        .filter_map(|e| match e {
            Entry::Comment(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(comments.len(), 2);
    assert!(comments[1].starts_with("Moderator Carol: Blue has not answered"));
    assert!(comments[1].ends_with("The game is adjudicated to Gray."));
    assert_eq!(
        record.tags.get_extra("Round"),
        Some("Winter ladder, round 2")
    );
    assert!(matches!(
        record.entries().last(),
        Some(Entry::End(m)) if m.number == 13 && m.ending == Ending::Adjudicated(GameResult::Win(Seat::South))
    ));
}

#[test]
fn the_illegal_order_sample_fails_at_its_line_with_the_rule() {
    let (_, record) = read_sample("illegal-order.rec");
    let e = replay(&record).expect_err("the sample has an illegal order");
    assert_eq!(e.line, 24);
    assert_eq!(e.text, "11. Blue MOVE B2CL B1R");
    assert_eq!(e.rule.map(|r| r.0), Some("R9"));
    assert!(e.to_string().starts_with("line 24: "), "{e}");
}

/// The resigned sample as a person might type it: tags in another order
/// and any case, lower-case orders, no indentation, a Windows line end, a
/// PGN date, a stray remark and no forced note.
#[test]
fn import_is_lenient_where_the_meaning_is_plain() {
    let text = "\u{feff}[result \"Gray\"]\r\n[GAME \"Squares\"]\r\n\
        [termination \"BLUE  Resigned\"]\r\n[blue \"Ann Example <ann@example.org>\"]\r\n\
        [Started \"2026.11.21\"]\r\n\r\n\
        1. blue move infantry br b3r\n2. Gray MOVE CAVALRY GR G3L, CAVALRY GR G3C\n\
        3.Blue MOVE INFANTRY BR B3L\n4. Gray MOVE G3L G2CL G2CR\n5. Blue MOVE B3L B2CL\n\
        6. Gray MOVE G3C G2CL, CAVALRY GR G3C\n7. Blue MOVE INFANTRY BR B3L\n\
        8. Gray MOVE G2CL G1CL, G3C G2CL\n9. Blue MOVE INFANTRY BR B3C\n\
        10. Gray MOVE G2CR G1C, CAVALRY GR G3C\n11. Blue MOVE B2CL B1C\n\
        ; a fine move\n\
        12. Gray ATTACK G1C B1C SUPPORT G1CL\nBlue STAND\n\tGray option 5\n\
        13. blue resigns\n";
    let record = Record::read_as(text, &Hosted::of::<Squares>()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record.tags.first, Some(Seat::North), "inferred");
    let replayed = replay(&record).unwrap_or_else(|e| panic!("{e}"));
    let canonical = replayed.record.to_string();
    let (sample, _) = read_sample("resigned.rec");
    // The sample has the tags this text leaves out.
    let shared: Vec<&str> = canonical.lines().filter(|l| !l.starts_with('[')).collect();
    let expected: Vec<&str> = sample.lines().filter(|l| !l.starts_with('[')).collect();
    assert_eq!(shared, expected);
    assert!(canonical.contains("[Started \"2026-11-21\"]"));
    assert!(canonical.contains("[Gray \"?\"]"));
}

// ----- import errors --------------------------------------------------------

const HEAD: &str = "[Game \"squares\"]\n[Result \"*\"]\n\n";

#[test]
fn import_errors_name_the_line_and_the_problem() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "[Game \"squares\"]\n[Game \"squares\"]\n*\n",
            2,
            "given twice",
        ),
        ("[Game \"chess\"]\n*\n", 1, "not of squares"),
        ("[Result \"*\"]\n\n*\n", 1, "which game"),
        (
            "[Game \"squares\"]\n[Started \"21/11/2026\"]\n*\n",
            2,
            "not a date",
        ),
        (
            "[Game \"squares\"]\n[Started \"2026-02-30\"]\n*\n",
            2,
            "not a date",
        ),
        ("[Game \"squares\"]\n[Seed \"x\"]\n*\n", 2, "not a seed"),
        ("[Game \"squares\"]\n[First \"Red\"]\n*\n", 2, "First names"),
        (
            "[Game \"squares\"]\n[North \"Ann\"]\n*\n",
            2,
            "Blue and Gray",
        ),
        ("[Game squares]\n*\n", 1, "double quotes"),
        ("[Game \"squares\"]\n\n1. Blue PASS\n", 3, "no result"),
        (
            "[Game \"squares\"]\n[Result \"Blue\"]\n\nGray\n",
            4,
            "result token says Gray",
        ),
        (
            "[Game \"squares\"]\n[Result \"Blue\"]\n\nBlue\n",
            2,
            "Termination tag",
        ),
        (
            "[Game \"squares\"]\n[Result \"Purple\"]\n*\n",
            2,
            "not a result",
        ),
        (
            "[Game \"squares\"]\n[Result \"Blue\"]\n[Termination \"won\"]\nBlue\n",
            3,
            "not a termination",
        ),
        (
            "[Game \"squares\"]\n[Result \"*\"]\n[Termination \"draw agreed\"]\n*\n",
            3,
            "goes on",
        ),
    ];
    for (text, line, problem) in cases {
        let e = Record::read_as(text, &Hosted::of::<Squares>()).expect_err(text);
        assert_eq!(e.line, *line, "{text:?}: {e}");
        assert!(e.problem.contains(problem), "{text:?}: {e}");
    }
    let movetext: &[(&str, usize, &str)] = &[
        ("1. Blue PASS\n*\n2. Gray PASS\n", 6, "nothing may follow"),
        ("{an open comment\n1. Blue PASS\n*\n", 4, "not closed"),
        ("{a comment} 1. Blue PASS\n*\n", 4, "lines of its own"),
        ("; Blue STAND (only choice)\n*\n", 4, "follows the order"),
        ("1. Blue PASS\n[Site \"x\"]\n*\n", 5, "tags come before"),
        ("1 Blue PASS\n*\n", 4, "followed by a dot"),
        ("1. Purple PASS\n*\n", 4, "followed by the seat"),
        ("1. Blue\n*\n", 4, "order is missing"),
        ("Blue RESIGNS\n*\n", 4, "with the turn number"),
        ("1. ADJUDICATED nobody\n*\n", 4, "ADJUDICATED is followed"),
        ("MOVE CAVALRY BR B3C\n*\n", 4, "cannot read this line"),
    ];
    for (body, line, problem) in movetext {
        let text = format!("{HEAD}{body}");
        let e = Record::read_as(&text, &Hosted::of::<Squares>()).expect_err(&text);
        assert_eq!(e.line, *line, "{text:?}: {e}");
        assert!(e.problem.contains(problem), "{text:?}: {e}");
    }
}

// ----- replay errors --------------------------------------------------------

fn replay_error(text: &str) -> ReplayError {
    let record =
        Record::read_as(text, &Hosted::of::<Squares>()).unwrap_or_else(|e| panic!("{text}\n{e}"));
    match replay(&record) {
        Ok(_) => panic!("{text} replayed"),
        Err(e) => e,
    }
}

#[test]
fn replay_checks_numbers_seats_lines_and_the_end() {
    let (sample, _) = read_sample("resigned.rec");
    // Line 15 is turn 2, line 25 the attack, line 26 Blue's STAND, line 28
    // the forced note, line 29 the resignation, lines 11 and 12 Result and
    // Termination.
    let cases: &[(usize, &str, usize, &str)] = &[
        (
            15,
            "3. Gray MOVE CAVALRY GR G3L, CAVALRY GR G3C",
            15,
            "this is turn 2, not turn 3",
        ),
        (
            15,
            "2. Blue MOVE CAVALRY GR G3L, CAVALRY GR G3C",
            15,
            "it is Gray's decision",
        ),
        (26, "13. Blue STAND", 26, "continuation line"),
        (26, "    Gray STAND", 26, "it is Blue's decision"),
        (26, "    Blue ADVANCE", 26, "advance"),
        (
            28,
            "    ; Gray RETREAT G2CL G2L (only choice)",
            28,
            "does not match",
        ),
        (
            28,
            "    ; Blue RETREAT G2CL G3L (only choice)",
            28,
            "does not match",
        ),
        (29, "12. Blue RESIGNS", 29, "this is turn 13, not turn 12"),
        (29, "13. DRAW AGREED", 11, "Result tag says Gray wins"),
        (
            12,
            "[Termination \"reserve entered\"]",
            12,
            "Termination tag says",
        ),
        (11, "[Result \"*\"]", 0, ""),
    ];
    for (line, with, at, reason) in cases {
        let text = replace_line(&sample, *line, with);
        if *at == 0 {
            // A Result of * with a Termination is an import error.
            assert!(Record::read_as(&text, &Hosted::of::<Squares>()).is_err());
            continue;
        }
        let e = replay_error(&text);
        assert_eq!(e.line, *at, "{with}: {e}");
        assert!(e.reason.contains(reason), "{with}: {e}");
    }
    // A numbered decision-free turn written as a continuation line.
    let e = replay_error(&replace_line(&sample, 16, "    Blue MOVE INFANTRY BR B3L"));
    assert_eq!(e.line, 16);
    assert!(e.reason.contains("turn 3 starts here"), "{e}");
    // Orders after the resignation.
    let e =
        replay_error(&sample.replace("13. Blue RESIGNS\n", "13. Blue RESIGNS\n13. Blue PASS\n"));
    assert_eq!(e.line, 30);
    assert!(e.reason.contains("ended on line 29"), "{e}");
    // A record that stops early but claims a result.
    let e = replay_error(&sample.replace("13. Blue RESIGNS\n", ""));
    assert_eq!(e.line, 11);
    assert!(e.reason.contains("in progress"), "{e}");
}

#[test]
fn a_position_that_cannot_be_read_is_reported_at_its_tag() {
    let text = "[Game \"squares\"]\n[Result \"*\"]\n[Position \"nonsense\"]\n\n*\n";
    let e = replay_error(text);
    assert_eq!(e.line, 3);
    assert!(e.reason.contains("starting position"), "{e}");
}

#[test]
fn a_record_built_in_memory_reports_the_lines_it_would_be_written_on() {
    let mut rec = Recorder::new(&Hosted::of::<Squares>(), &GameOptions::default());
    rec.apply("PASS").expect("Blue may pass");
    let mut record = rec.into_record();
    record.push(Entry::Order(orderly::record::OrderEntry {
        number: Some(2),
        seat: Seat::South,
        order: "MOVE INFANTRY GR G1C".to_string(),
        forced: Vec::new(),
    }));
    let e = replay(&record).expect_err("G1C is out of reach");
    let text = record.to_string();
    assert_eq!(
        text.lines().nth(e.line - 1),
        Some("2. Gray MOVE INFANTRY GR G1C")
    );
    assert_eq!(e.text, "2. Gray MOVE INFANTRY GR G1C");
}

#[test]
fn nothing_ends_twice() {
    let mut rec = Recorder::new(&Hosted::of::<Squares>(), &GameOptions::default());
    rec.resign(Seat::South).expect("Gray may resign");
    assert!(rec.agree_draw().is_err());
    assert!(rec.apply("PASS").is_err());
    let text = rec.record().to_string();
    assert!(text.ends_with("\n1. Gray RESIGNS\nBlue\n"), "{text}");
    assert!(text.contains("[Termination \"Gray resigned\"]"));
}

// ----- orderly replay, as a process ------------------------------------------

fn orderly_replay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_orderly"))
        .arg("replay")
        .args(args)
        .output()
        .expect("orderly runs")
}

/// `orderly replay` with `args`, which must succeed (its stderr shown if
/// it does not).
#[track_caller]
fn orderly_replay_ok(args: &[&str]) -> Output {
    let out = orderly_replay(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp_record(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("orderly-records-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("the temporary record is written");
    path
}

#[test]
fn orderly_replay_prints_the_board_and_the_result() {
    let path = data(Squares::NAME, "reserve-entered.rec");
    let out = orderly_replay_ok(&[path.to_str().expect("a UTF-8 path")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Replayed 5 orders of SQUARES"), "{stdout}");
    assert!(
        stdout.contains("Result: Blue wins (reserve entered)."),
        "{stdout}"
    );
    assert!(stdout.contains("9I3A3C/3/4/2/i4/ic/iiiii/ac/a2a/c>1c/C++ 2i g - 43 -"));
}

#[test]
fn orderly_replay_replays_the_napoleonic_sample() {
    let path = data(Napoleonic::NAME, "napoleonic-sample.txt");
    let text = std::fs::read_to_string(&path).expect("the sample exists");
    let record = Record::read_as(&text, &Hosted::of::<Napoleonic>()).expect("the sample reads");
    let replayed = replay(&record).unwrap_or_else(|e| panic!("{e}"));
    let out = orderly_replay_ok(&[path.to_str().expect("a UTF-8 path")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "Replayed {} orders of SQUARES - The Napoleonic War Variant.",
            replayed.orders.len()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("Position: {}\n", replayed.game.position())),
        "{stdout}"
    );
    let result = match replayed.finish.map(|f| f.result) {
        Some(GameResult::Win(seat)) => {
            format!("{} wins", <Napoleonic as GameText>::seat_name(seat))
        }
        Some(GameResult::Draw) => "Draw".to_string(),
        None => panic!("the sample ends by the rules"),
    };
    assert!(stdout.contains(&format!("Result: {result} (")), "{stdout}");
}

#[test]
fn orderly_replay_points_at_the_illegal_order() {
    let path = data(Squares::NAME, "illegal-order.rec");
    let name = path.to_str().expect("a UTF-8 path");
    let out = orderly_replay(&[name]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next(),
        Some(format!("{name}:24: 11. Blue MOVE B2CL B1R").as_str())
    );
    let reason = lines.next().unwrap_or_default();
    assert!(reason.ends_with("(rule R9)."), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn orderly_replay_reports_import_errors_unknown_games_and_missing_files() {
    let bad = temp_record("unclosed.rec", &format!("{HEAD}{{never closed\n*\n"));
    let out = orderly_replay(&[bad.to_str().expect("a UTF-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(":4: {never closed"), "{stderr}");
    assert!(stderr.contains("not closed"), "{stderr}");

    let chess = temp_record(
        "chess.rec",
        "[Event \"x\"]\n[Game \"chess\"]\n[Result \"*\"]\n\n*\n",
    );
    let out = orderly_replay(&[chess.to_str().expect("a UTF-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(":2: [Game \"chess\"]"), "{stderr}");
    assert!(
        stderr.contains("Unknown game \"chess\": orderly replays squares"),
        "{stderr}"
    );
    assert!(stderr.contains("napoleonic"), "{stderr}");

    let out = orderly_replay(&["/nonexistent/orderly/record.rec"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the record"));
    for path in [bad, chess] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn orderly_replay_json_has_the_orders_events_positions_and_result() {
    let path = data(Squares::NAME, "resigned.rec");
    let out = orderly_replay_ok(&["--json", path.to_str().expect("a UTF-8 path")]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["format"], "orderly-record 1");
    assert_eq!(json["game"], "squares");
    assert_eq!(json["tags"]["Blue"], "Ann Example <ann@example.org>");
    assert_eq!(json["seats"]["North"], "Blue");
    assert_eq!(json["start"], "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -");
    let orders = json["orders"].as_array().expect("orders");
    assert_eq!(orders.len(), 14);
    let first = &orders[0];
    assert_eq!(first["line"], 14);
    assert_eq!(first["number"], 1);
    assert_eq!(first["seat"], "North");
    assert_eq!(first["side"], "Blue");
    assert_eq!(first["decision"], "turn");
    assert_eq!(first["order"], "MOVE INFANTRY BR B3R");
    assert_eq!(first["events"][0], "Blue infantry moves BR -> B3R");
    assert!(first["position"]
        .as_str()
        .is_some_and(|p| p.ends_with(" g - 2 -")));
    let option = &orders[13];
    assert_eq!(option["turn_level"], false);
    assert_eq!(option["number"], 12);
    assert_eq!(option["order"], "OPTION 5");
    assert_eq!(option["forced"][0]["side"], "Gray");
    assert_eq!(option["forced"][0]["order"], "RETREAT G2CL G3L");
    assert_eq!(json["end"]["kind"], "resignation");
    assert_eq!(json["end"]["seat"], "North");
    assert_eq!(json["end"]["line"], 29);
    assert_eq!(json["result"], "Gray");
    assert_eq!(json["winner"], "South");
    assert_eq!(json["termination"], "Blue resigned");
    let typed: JsonRecord = serde_json::from_value(json).expect("the typed form reads it");
    assert_eq!(typed.orders[12].events.len(), 1);
}

#[test]
fn orderly_replay_canonical_rewrites_a_lenient_record() {
    let (sample, _) = read_sample("resigned.rec");
    let lenient = sample
        .replace("    Blue STAND", "blue   stand")
        .replace("    ; Gray RETREAT G2CL G3L (only choice)\n", "")
        .replace("[First \"Blue\"]\n", "");
    let path = temp_record("lenient.rec", &lenient);
    let out = orderly_replay_ok(&["--canonical", path.to_str().expect("a UTF-8 path")]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), sample);
    let _ = std::fs::remove_file(path);
}

#[test]
fn the_format_document_shows_the_moderated_sample() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/record-format.md"),
    )
    .expect("docs/record-format.md exists");
    let example: String = doc
        .split("```\n")
        .nth(1)
        .expect("the first code block is the example")
        .to_string();
    let (sample, _) = read_sample("moderated.rec");
    assert_eq!(example, sample);
}

#[test]
fn replaying_a_json_export_says_it_is_one_and_what_to_replay_instead() {
    let dir = std::env::temp_dir().join(format!("orderly-json-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = orderly_replay_ok(&["tests/data/squares/records/resigned.rec", "--json"]).stdout;
    let path = dir.join("resigned.json");
    std::fs::write(&path, json).unwrap();
    let out = orderly_replay(&[path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is a JSON export of a squares game"), "{err}");
    assert!(err.contains("without --json"), "{err}");
    assert!(!err.contains("[Game"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- lines that fit a mail -------------------------------------------------

/// A tag longer than a mail's 76 columns is written over lines, broken at
/// single spaces, and read back whole.
#[test]
fn long_tags_are_wrapped_within_76_columns_and_read_back_whole() {
    let squares = Hosted::of::<Squares>();
    let mut rec = Recorder::new(&squares, &GameOptions::default());
    rec.apply("MOVE CAVALRY BR B3C").unwrap();
    let tags = rec.tags_mut();
    tags.players[0] =
        "Annabel Josephine Example-Whitfield, Secretary of the Riverside Club <ann@example.org>"
            .to_string();
    tags.set_extra(
        "Round",
        "Winter ladder of the Riverside Wargames Club, round 2, table 7 (the long one)",
    )
    .unwrap();
    let text = rec.record().to_string();
    for line in text.lines() {
        assert!(line.chars().count() <= 76, "{line:?} in\n{text}");
    }
    assert!(text.contains("[Blue \"Annabel Josephine"), "{text}");
    assert!(text.contains("\n  "), "a continuation line: {text}");
    let read = Record::read_as(&text, &squares).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.tags, rec.record().tags);
    assert_eq!(read.to_string(), text);
    replay(&read).unwrap_or_else(|e| panic!("{e}"));
    // A tag that never closes is refused at its first line.
    let open = text.replacen("one)\"]", "one)", 1);
    let e = Record::read_as(&open, &squares).expect_err("not closed");
    assert!(
        e.problem.contains("over lines, the last ending with ]"),
        "{e}"
    );
}

/// Brothers at War: the cup decides who acts first (2.21), so its record
/// names no first seat; a record that did (as orderly wrote them before)
/// still reads and replays. SQUARES' names its.
#[test]
fn a_game_where_chance_decides_who_acts_first_names_no_first_seat() {
    use orderly::games::brothers_at_war::BrothersAtWar;
    let baw = Hosted::of::<BrothersAtWar>();
    assert!(baw.who_first.is_some());
    let rec = Recorder::new(&baw, &GameOptions::default());
    let text = rec.record().to_string();
    assert!(!text.contains("[First "), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 76, "{line:?} in\n{text}");
    }
    let read = Record::read_as(&text, &baw).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.tags.first, None);
    let replayed = replay(&read).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.game.position(), rec.game().position());
    let older = text.replacen("[Started ", "[First \"Union\"]\n[Started ", 1);
    let read = Record::read_as(&older, &baw).unwrap_or_else(|e| panic!("{e}\n{older}"));
    assert_eq!(read.tags.first, Some(Seat::North));
    replay(&read).unwrap_or_else(|e| panic!("{e}"));
    let squares = Recorder::new(&Hosted::of::<Squares>(), &GameOptions::default());
    assert!(squares.record().to_string().contains("[First \"Blue\"]\n"));
}

// ----- orderly verify, as a process ------------------------------------------

#[test]
fn orderly_verify_refuses_a_record_without_draws_naming_the_commitment() {
    // No hosted game has chance yet: a SQUARES record has nothing to
    // verify, and says so with an error status (the draws themselves are
    // checked in the lib's tests, src/service/dice.rs).
    let path = data(Squares::NAME, "reserve-entered.rec");
    let out = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("orderly runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no Commitment tag"), "{stderr}");
}
