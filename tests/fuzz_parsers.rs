//! Fuzz-style tests of the SQUARES readers: `Order::parse`,
//! `Squares::parse_order` and the position reader (`str::parse::<Squares>`),
//! fed arbitrary text, token soup, and mutations (byte flips, truncation,
//! token swaps, duplicated and dropped fields) of valid orders and valid
//! position strings. Nothing may panic; whatever is accepted must print back
//! canonically and, for a position, be playable.
//!
//! `PROPTEST_CASES=n` runs every property with `n` cases instead of 1,000.

mod common;

use common::*;
use orderly::games::squares::{Chain, Order, Side, Space, Squares, Step, UnitKind};
use orderly::games::{CitesRule, Game};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

type Checked = Result<(), TestCaseError>;

fn is_rule_id(id: &str) -> bool {
    match id.strip_prefix('R') {
        Some(n) if !n.starts_with('0') => n.parse::<u32>().is_ok_and(|n| (1..=28).contains(&n)),
        _ => false,
    }
}

// ----- text generation ----------------------------------------------------------

/// Words an order or a position is made of, and some near misses.
const WORDS: &[&str] = &[
    "MOVE",
    "ATTACK",
    "SUPPORT",
    "RETREAT",
    "OPTION",
    "LOSE",
    "PASS",
    "STAND",
    "ADVANCE",
    "STAY",
    "INFANTRY",
    "ARTILLERY",
    "CAVALRY",
    "move",
    "Attack",
    "support",
    "BR",
    "GR",
    "B3C",
    "G2CR",
    "B1C",
    "G1C",
    "NWF",
    "SEF",
    "WF",
    "EF",
    "B2L",
    "G3R",
    "B9",
    "G0",
    "XX",
    "0",
    "1",
    "5",
    "6",
    "-1",
    "255",
    "256",
    "99999999999999999999",
    ",",
    ",,",
    "x",
    "/",
    "+",
    "-",
    "~",
    "_",
    ">",
    "9I3A4C",
    "9i3a4c",
    "b",
    "g",
    "b1",
    "g2",
    "bg",
    "\u{e9}",
    "\u{1F600}",
    "\0",
    "\t",
    "",
];

fn token_soup() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(WORDS), 0..10),
        prop::collection::vec(
            prop::sample::select(&[" ", "  ", "\t", ",", ", ", "\n", ""][..]),
            10,
        ),
    )
        .prop_map(|(words, seps)| {
            let mut out = String::new();
            for (i, w) in words.iter().enumerate() {
                if i > 0 {
                    out.push_str(seps[i % seps.len()]);
                }
                out.push_str(w);
            }
            out
        })
}

fn space() -> impl Strategy<Value = Space> {
    (0usize..32).prop_map(Space::new)
}

fn kind() -> impl Strategy<Value = UnitKind> {
    prop::sample::select(&common::CIVIL_WAR_KINDS[..])
}

fn step() -> impl Strategy<Value = Step> {
    (
        space(),
        prop::option::of(space()),
        space(),
        prop::option::of(kind()),
    )
        .prop_map(|(from, via, to, unit)| Step {
            from,
            via,
            to,
            unit,
        })
}

/// Any order value (legal somewhere or not).
fn order() -> impl Strategy<Value = Order> {
    prop_oneof![
        step().prop_map(Order::Move),
        (step(), step()).prop_map(|(mut p, mut q)| {
            p.via = None;
            q.via = None;
            Order::MoveTwo(p, q)
        }),
        (space(), space(), prop::option::of(space())).prop_map(|(attacker, target, support)| {
            Order::Attack {
                attacker,
                target,
                support,
            }
        }),
        prop::collection::vec(space(), 1..=9)
            .prop_map(|s| Order::Retreat(Chain::from_squares(&s).unwrap_or(Chain::to(s[0])))),
        (1u8..=5).prop_map(Order::Option),
        kind().prop_map(Order::Lose),
        prop::sample::select(&[Order::Pass, Order::Stand, Order::Advance, Order::Stay][..]),
    ]
}

/// One mutation of a text: what it does and two numbers to place it.
#[derive(Clone, Debug)]
enum Mutation {
    FlipByte(usize, u8),
    Truncate(usize),
    SwapTokens(usize, usize),
    DuplicateToken(usize),
    DropToken(usize),
    InsertWord(usize, &'static str),
    SwapFields(usize, usize),
    DuplicateField(usize),
    Case(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::FlipByte(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapTokens(i, j)),
        any::<usize>().prop_map(Mutation::DuplicateToken),
        any::<usize>().prop_map(Mutation::DropToken),
        (any::<usize>(), prop::sample::select(WORDS)).prop_map(|(i, w)| Mutation::InsertWord(i, w)),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapFields(i, j)),
        any::<usize>().prop_map(Mutation::DuplicateField),
        any::<usize>().prop_map(Mutation::Case),
    ]
}

/// Splits into tokens on `sep`, keeping nothing of the separators.
fn tokens(text: &str, sep: char) -> Vec<String> {
    text.split(sep).map(str::to_string).collect()
}

/// Applies a mutation. "Tokens" are split on spaces, "fields" on `/` in a
/// position's first field (ranks) and on spaces otherwise.
fn mutate(text: &str, m: &Mutation) -> String {
    let bytes = text.as_bytes();
    match *m {
        Mutation::FlipByte(i, b) => {
            if bytes.is_empty() {
                return (b as char).to_string();
            }
            let mut v = bytes.to_vec();
            let i = i % v.len();
            // Mostly printable ASCII, sometimes anything (kept valid UTF-8 below).
            v[i] = if b < 200 { 32 + b % 95 } else { b };
            String::from_utf8_lossy(&v).into_owned()
        }
        Mutation::Truncate(i) => {
            let cut = if text.is_empty() { 0 } else { i % text.len() };
            let mut cut = cut;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_string()
        }
        Mutation::SwapTokens(i, j) => {
            let mut t = tokens(text, ' ');
            let n = t.len();
            t.swap(i % n, j % n);
            t.join(" ")
        }
        Mutation::DuplicateToken(i) => {
            let mut t = tokens(text, ' ');
            let i = i % t.len();
            let dup = t[i].clone();
            t.insert(i, dup);
            t.join(" ")
        }
        Mutation::DropToken(i) => {
            let mut t = tokens(text, ' ');
            let i = i % t.len();
            t.remove(i);
            t.join(" ")
        }
        Mutation::InsertWord(i, w) => {
            let mut t = tokens(text, ' ');
            let i = i % (t.len() + 1);
            t.insert(i, w.to_string());
            t.join(" ")
        }
        Mutation::SwapFields(i, j) => {
            let mut fields = tokens(text, ' ');
            let mut ranks = tokens(&fields[0], '/');
            let n = ranks.len();
            ranks.swap(i % n, j % n);
            fields[0] = ranks.join("/");
            fields.join(" ")
        }
        Mutation::DuplicateField(i) => {
            let mut fields = tokens(text, ' ');
            let mut ranks = tokens(&fields[0], '/');
            if i % 2 == 0 {
                let k = i / 2 % ranks.len();
                let dup = ranks[k].clone();
                ranks.insert(k, dup);
                fields[0] = ranks.join("/");
            } else {
                let k = i / 2 % fields.len();
                let dup = fields[k].clone();
                fields.insert(k, dup);
            }
            fields.join(" ")
        }
        Mutation::Case(i) => {
            let mut v: Vec<char> = text.chars().collect();
            if !v.is_empty() {
                let i = i % v.len();
                v[i] = if v[i].is_ascii_uppercase() {
                    v[i].to_ascii_lowercase()
                } else {
                    v[i].to_ascii_uppercase()
                };
            }
            v.into_iter().collect()
        }
    }
}

fn mutate_all(text: &str, ms: &[Mutation]) -> String {
    ms.iter().fold(text.to_string(), |t, m| mutate(&t, m))
}

/// Random attack fields, valid in shape: `ATTxTGT[+SUP]/STAGE`.
fn attack_field() -> impl Strategy<Value = String> {
    (
        space(),
        space(),
        prop::option::of(space()),
        prop::sample::select(&["R", "O", "S1", "C", "A1", "A4", "S5", "L", "V", "X", ""][..]),
    )
        .prop_map(|(a, t, s, stage)| match s {
            Some(s) => format!("{a}x{t}+{s}/{stage}"),
            None => format!("{a}x{t}/{stage}"),
        })
}

// ----- checks -------------------------------------------------------------------

/// Reads `text` as an order every way; whatever is accepted prints
/// canonically and reads back; a game given it refuses or applies it
/// without panicking, and a refusal changes nothing.
fn check_order_text(text: &str, game: &Squares) -> Checked {
    let parsed = Order::parse(text);
    let via_game = game.parse_order(text);
    let via_from_str = text.parse::<Order>();
    prop_assert_eq!(&parsed, &via_from_str);
    // The game's reader may use the position; what it accepts is an order
    // in canonical form all the same.
    match &via_game {
        Ok(o) => prop_assert_eq!(Order::parse(&o.to_string()), Ok(*o), "{:?}", text),
        Err(e) => prop_assert!(!e.message.is_empty(), "empty message for {:?}", text),
    }
    check_forgiving(text, game)?;
    match parsed {
        Err(e) => prop_assert!(!e.message.is_empty(), "empty message for {:?}", text),
        Ok(order) => {
            let canonical = order.to_string();
            prop_assert_eq!(
                Order::parse(&canonical),
                Ok(order),
                "{:?} -> {}",
                text,
                canonical
            );
            // Reading is case-insensitive and free in spacing.
            prop_assert_eq!(Order::parse(&canonical.to_lowercase()), Ok(order));
            let spaced = format!("  {}\t", canonical.replace(' ', "   "));
            prop_assert_eq!(Order::parse(&spaced), Ok(order), "{:?}", spaced);
            let json = serde_json::to_string(&order).map_err(|e| fail(e.to_string()))?;
            let back: Order = serde_json::from_str(&json).map_err(|e| fail(e.to_string()))?;
            prop_assert_eq!(back, order);
            let mut after = game.clone();
            match after.apply(&order) {
                Ok(_) => {
                    let pos = after.to_string();
                    prop_assert!(
                        pos.parse::<Squares>().is_ok(),
                        "{} applied to {} gives unreadable {}",
                        order,
                        game,
                        pos
                    );
                }
                Err(refusal) => {
                    prop_assert_eq!(&after, game, "refused {} changed {}", order, game);
                    prop_assert!(is_rule_id(refusal.rule().0), "{}: {:?}", order, refusal);
                }
            }
        }
    }
    Ok(())
}

/// The forgiving reader takes only listed orders, and a line it does not
/// take is answered with the line, a reason, a rule id when it was read,
/// and suggestions that are all legal orders.
fn check_forgiving(text: &str, game: &Squares) -> Checked {
    let legal = game.legal_orders();
    match game.read_order(text) {
        Ok(order) => {
            prop_assert!(
                legal.contains(&order),
                "{:?} read as unlisted {}",
                text,
                order
            );
            let mut after = game.clone();
            prop_assert!(after.apply(&order).is_ok(), "{:?} read as {}", text, order);
        }
        Err(r) => {
            prop_assert_eq!(r.line.as_str(), text.trim());
            prop_assert!(!r.problem.is_empty(), "empty problem for {:?}", text);
            if let Some(rule) = r.rule {
                prop_assert!(is_rule_id(rule.0), "{:?}: {:?}", text, r);
            }
            for s in &r.suggestions {
                let o = Order::parse(s).map_err(|e| fail(format!("{text:?}: {s}: {e}")))?;
                prop_assert!(legal.contains(&o), "{:?} suggests unlisted {}", text, s);
            }
        }
    }
    Ok(())
}

/// Reads `text` as a position; an accepted one is written canonically, reads
/// back to the same string, and is playable: its legal orders exist unless
/// it is over, and each applies (checked path) to a readable position.
fn check_position_text(text: &str) -> Checked {
    let Ok(game) = text.parse::<Squares>() else {
        let err = text
            .parse::<Squares>()
            .err()
            .map(|e| e.message)
            .unwrap_or_default();
        prop_assert!(!err.is_empty(), "empty message for {:?}", text);
        return Ok(());
    };
    let canonical = game.to_string();
    let again: Squares = canonical
        .parse()
        .map_err(|e: orderly::games::ParseError| fail(format!("{text:?} -> {canonical}: {e}")))?;
    prop_assert_eq!(again.to_string(), canonical.clone(), "{:?}", text);
    prop_assert_eq!(again.legal_orders(), game.legal_orders(), "{:?}", text);
    prop_assert_eq!(again.outcome(), game.outcome());
    let json = serde_json::to_string(&game).map_err(|e| fail(e.to_string()))?;
    let back: Squares = serde_json::from_str(&json).map_err(|e| fail(e.to_string()))?;
    prop_assert_eq!(back.to_string(), canonical.clone());

    let counts = count_units(&canonical).map_err(fail)?;
    army_complete(&counts).map_err(|e| fail(format!("{canonical}: {e}")))?;

    let legal = game.legal_orders();
    prop_assert!(
        game.outcome().is_some() || !legal.is_empty(),
        "accepted position with nothing legal and no outcome: {:?}",
        text
    );
    for order in legal.iter().take(12) {
        let mut after = game.clone();
        after
            .apply(order)
            .map_err(|r| fail(format!("{canonical}: listed {order} refused: {r}")))?;
        let pos = after.to_string();
        prop_assert!(
            pos.parse::<Squares>().is_ok(),
            "{} after {}: unreadable {}",
            canonical,
            order,
            pos
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn arbitrary_text_never_panics_the_readers(text in any::<String>()) {
        check_order_text(&text, &Squares::opening(Side::Blue))?;
        check_position_text(&text)?;
    }

    #[test]
    fn printable_text_never_panics_the_readers(text in "[ -~]{0,100}") {
        check_order_text(&text, &Squares::opening(Side::Gray))?;
        check_position_text(&text)?;
    }

    #[test]
    fn token_soup_never_panics_the_readers(text in token_soup()) {
        check_order_text(&text, &Squares::opening(Side::Blue))?;
        check_position_text(&text)?;
    }

    /// Every order value prints canonically and reads back, and mutations of
    /// its text are read or refused cleanly, also by a game in progress.
    #[test]
    fn mutated_orders_are_read_or_refused(
        o in order(),
        ms in prop::collection::vec(mutation(), 1..4),
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..60),
    ) {
        let text = o.to_string();
        prop_assert_eq!(Order::parse(&text), Ok(o), "{}", text);
        let game = play(gray_first, &choices);
        check_order_text(&text, &game)?;
        check_order_text(&mutate_all(&text, &ms), &game)?;
    }

    /// Mutations of listed orders (the closest misses) at positions of play.
    #[test]
    fn mutated_listed_orders_are_read_or_refused(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..120),
        pick in any::<usize>(),
        ms in prop::collection::vec(mutation(), 1..3),
    ) {
        let game = play(gray_first, &choices);
        let legal = game.legal_orders();
        if let Some(o) = legal.get(pick % legal.len().max(1)) {
            check_order_text(&o.to_string(), &game)?;
            check_order_text(&mutate_all(&o.to_string(), &ms), &game)?;
        }
    }

    /// Mutations of positions reached by play.
    #[test]
    fn mutated_played_positions_are_read_or_refused(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..150),
        ms in prop::collection::vec(mutation(), 1..4),
    ) {
        let text = play(gray_first, &choices).to_string();
        check_position_text(&text)?;
        check_position_text(&mutate_all(&text, &ms))?;
    }

    /// Mutations of generated positions, and attack fields written into them.
    #[test]
    fn mutated_generated_positions_are_read_or_refused(
        l in layout(),
        ms in prop::collection::vec(mutation(), 1..4),
        attack in attack_field(),
    ) {
        let text = layout_position_with(&l, true);
        check_position_text(&text)?;
        check_position_text(&mutate_all(&text, &ms))?;
        if let Some(stem) = text.strip_suffix(" -") {
            check_position_text(&format!("{stem} {attack}"))?;
        }
    }
}

/// The readers on hand-picked edge cases (each must be refused or read
/// cleanly, as the checks above define).
#[test]
fn edge_cases_are_read_or_refused() {
    let game = Squares::opening(Side::Blue);
    for text in [
        "",
        " ",
        ",",
        "MOVE ,",
        "MOVE B3C B2CR,",
        "MOVE , B3C B2CR",
        "MOVE B3C B2CR, B3L B2L, B3R B2R",
        "MOVE CAVALRY",
        "MOVE CAVALRY CAVALRY BR B3C",
        "MOVE BR B3C B2CR B1C",
        "ATTACK B1C B1C SUPPORT",
        "ATTACK B1C B1C SUPPORT B1C B1C",
        "ATTACK B1C G1C support g1cr",
        "RETREAT BR BR BR BR BR BR BR BR BR",
        "RETREAT BR BR BR BR BR BR BR BR BR BR",
        "OPTION 0",
        "OPTION +1",
        "OPTION 01",
        "OPTION 1 2",
        "LOSE",
        "LOSE CAVALRY INFANTRY",
        "PASS PASS",
        "\u{feff}PASS",
        "PASS\u{a0}",
        "PA\u{130}S",
    ] {
        if let Err(e) = check_order_text(text, &game) {
            panic!("{text:?}: {e}");
        }
    }
    for text in [
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 4294967295 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 4294967296 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 99999999999999999999 -",
        "18446744073709551616I/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I3A4C/99999999999999999999/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I3A4C/03/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I3A4C/0003/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 - -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c  -  b  -  1  -",
        "0I9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b bb 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b gb 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b3 - 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 B3CxB2C",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 x/",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 BRxB3C/L",
        "9I+3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I~3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I__3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c 1I - b - 1 -",
        "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c\u{a0}- b - 1 -",
    ] {
        if let Err(e) = check_position_text(text) {
            panic!("{text:?}: {e}");
        }
    }
}
