//! Fuzz-style tests of the SQUARES readers: `Order::parse`,
//! `Squares::parse_order` and the position reader (`str::parse::<Squares>`),
//! fed arbitrary text, token soup, and mutations (byte flips, truncation,
//! token swaps, duplicated and dropped fields) of valid orders and valid
//! position strings. Nothing may panic; whatever is accepted must print back
//! canonically and, for a position, be playable.
//!
//! The same for the Napoleonic variant (`Napoleonic`): its order lines (its
//! unit words, F and G codes, the GB and HB option lists) and its position
//! strings (the `napoleonic` header, seven unit letters), as written, as
//! reached by play and as generated, also mutated.
//!
//! Brothers at War's reader: any line it takes reads the same order with a
//! remark in brackets after it, written directly or through the service's
//! reading of mail lines.
//!
//! `PROPTEST_CASES=n` runs every property with `n` cases instead of 1,000.

#[path = "../common/mod.rs"]
mod common;

use common::squares::*;
use orderly::games::squares::notation::NAPOLEONIC;
use orderly::games::squares::{
    board, Chain, NapOrder, Napoleonic, Order, Side, Space, Squares, Step, UnitKind,
};
use orderly::games::{CitesRule, Game, GameOptions, GameText, Seat};
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::TestCaseError;

type Checked = Result<(), TestCaseError>;

fn is_rule_id(id: &str) -> bool {
    match id.strip_prefix('R') {
        Some(n) if !n.starts_with('0') => n.parse::<u32>().is_ok_and(|n| (1..=28).contains(&n)),
        _ => false,
    }
}

/// A rule the variant's refusals may cite: R1-R28 or the variant's own
/// N1-N38 (napoleonic-rulings.md, docs/napoleonic-design.md).
fn is_variant_rule_id(id: &str) -> bool {
    match id.strip_prefix('N') {
        Some(n) if !n.starts_with('0') => n.parse::<u32>().is_ok_and(|n| (1..=38).contains(&n)),
        _ => is_rule_id(id),
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
    "from",
    "to",
    "with",
    "supported by",
    "in support",
    "the cavalry in",
    "my",
    "one",
    "please",
    "alone",
    "enemy reserve",
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
    soup_of(WORDS, &[" ", "  ", "\t", ",", ", ", "\n", ""])
}

/// Up to ten of `words` joined by separators drawn from `separators`.
fn soup_of(
    words: &'static [&'static str],
    separators: &'static [&'static str],
) -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(words), 0..10),
        prop::collection::vec(prop::sample::select(separators), 10),
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

/// A step of a unit of any of `kinds`, or of no type.
fn step_of(kinds: &'static [UnitKind]) -> impl Strategy<Value = Step> {
    (
        space(),
        prop::option::of(space()),
        space(),
        prop::option::of(prop::sample::select(kinds)),
    )
        .prop_map(|(from, via, to, unit)| Step {
            from,
            via,
            to,
            unit,
        })
}

/// Any order value of a game whose units are `kinds` (legal somewhere or
/// not); with `batteries`, the variant's Grand Battery and Horse Battery
/// options too (after OPTION, as the variant lists them). Each kind of
/// order is equally likely.
fn order_of(kinds: &'static [UnitKind], batteries: bool) -> impl Strategy<Value = Order> {
    let mut arms: Vec<BoxedStrategy<Order>> = vec![
        step_of(kinds).prop_map(Order::Move).boxed(),
        (step_of(kinds), step_of(kinds))
            .prop_map(|(mut p, mut q)| {
                p.via = None;
                q.via = None;
                Order::MoveTwo(p, q)
            })
            .boxed(),
        (space(), space(), prop::option::of(space()))
            .prop_map(|(attacker, target, support)| Order::Attack {
                attacker,
                target,
                support,
            })
            .boxed(),
        prop::collection::vec(space(), 1..=9)
            .prop_map(|s| Order::Retreat(Chain::from_squares(&s).unwrap_or(Chain::to(s[0]))))
            .boxed(),
        (1u8..=5).prop_map(Order::Option).boxed(),
    ];
    if batteries {
        arms.push((1u8..=3).prop_map(Order::GrandBattery).boxed());
        arms.push((1u8..=5).prop_map(Order::HorseBattery).boxed());
    }
    arms.push(prop::sample::select(kinds).prop_map(Order::Lose).boxed());
    arms.push(
        prop::sample::select(&[Order::Pass, Order::Stand, Order::Advance, Order::Stay][..]).boxed(),
    );
    Union::new(arms)
}

/// Any order value (legal somewhere or not).
fn order() -> impl Strategy<Value = Order> {
    order_of(&common::squares::CIVIL_WAR_KINDS, false)
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
/// and suggestions that are all legal orders, never none while any is.
fn check_forgiving(text: &str, game: &Squares) -> Checked {
    check_forgiving_in(text, game, is_rule_id)
}

/// [`check_forgiving`] for any game: `is_rule` says which rule ids the
/// game may cite, and suggestions are listed orders in the game's notation.
fn check_forgiving_in<G: GameText>(text: &str, game: &G, is_rule: fn(&str) -> bool) -> Checked {
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
                prop_assert!(is_rule(rule.0), "{:?}: {:?}", text, r);
            }
            // While anything is legal, a refusal offers something (the
            // forgiving reader's promise: never a bare "no").
            prop_assert!(
                legal.is_empty() || !r.suggestions.is_empty(),
                "{:?} refused without suggestions: {:?}",
                text,
                r
            );
            let printed: Vec<String> = legal.iter().map(|o| o.to_string()).collect();
            for s in &r.suggestions {
                prop_assert!(printed.contains(s), "{:?} suggests unlisted {}", text, s);
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

// ----- the Napoleonic variant -----------------------------------------------------

/// The variant's words, codes and position pieces, and near misses.
const NAP_WORDS: &[&str] = &[
    "MOVE",
    "ATTACK",
    "SUPPORT",
    "RETREAT",
    "OPTION",
    "opt",
    "LOSE",
    "PASS",
    "STAND",
    "ADVANCE",
    "STAY",
    "INFANTRY",
    "GUARD",
    "LIGHT",
    "LI",
    "ARTILLERY",
    "HORSE",
    "HB",
    "BATTERY",
    "CAVALRY",
    "HEAVY",
    "HC",
    "GUA",
    "British",
    "FRENCH",
    "reserve",
    "GB",
    "GB1",
    "GB4",
    "HB2",
    "HB6",
    "hb0",
    "BR",
    "FR",
    "GR",
    "F3C",
    "F2CR",
    "f1c",
    "G1C",
    "B1C",
    "B3C",
    "NWF",
    "SEF",
    "F9",
    "0",
    "1",
    "3",
    "5",
    "256",
    ",",
    "x",
    "+",
    "-",
    "/",
    "napoleonic",
    "6IG2L2AH3CK",
    "6ig2l2ah3ck",
    "K",
    "h",
    "f",
    "f1",
    "bf",
    "b2",
    "\u{e9}",
    "",
];

fn nap_token_soup() -> impl Strategy<Value = String> {
    soup_of(NAP_WORDS, &[" ", "  ", ",", ", ", "\n", ""])
}

/// Any order value of the variant (legal somewhere or not), with steps of
/// any of its seven types.
fn nap_order() -> impl Strategy<Value = Order> {
    order_of(&UnitKind::EVERY, true)
}

/// The variant's army by type (N2), written out here: I G L A H C K.
const NAP_LETTERS: [char; 7] = ['I', 'G', 'L', 'A', 'H', 'C', 'K'];
const NAP_ARMY: [u32; 7] = [6, 1, 2, 2, 1, 3, 1];

/// Counts a canonical variant position's units by [side][type], on the
/// board, in the reserves and eliminated, without the engine; checks that
/// each rank covers its squares and that each army is whole (N2).
fn nap_army_complete(position: &str) -> Result<(), String> {
    let fields: Vec<&str> = position.split(' ').collect();
    if fields.len() != 7 || fields[0] != "napoleonic" {
        return Err(format!("{position:?} is not seven fields after napoleonic"));
    }
    let mut counts = [[0u32; 7]; 2];
    let add_group = |text: &str, counts: &mut [[u32; 7]; 2]| -> Result<(), String> {
        if text == "-" {
            return Ok(());
        }
        let mut n = 0u32;
        let mut digits = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d;
                digits = true;
            } else if let Some(k) = NAP_LETTERS
                .iter()
                .position(|&l| l == c.to_ascii_uppercase())
            {
                let side = usize::from(c.is_ascii_lowercase());
                counts[side][k] += if digits { n } else { 1 };
                n = 0;
                digits = false;
            } else if !matches!(c, '+' | '>' | '_' | '~') {
                return Err(format!("bad character {c:?} in {text:?}"));
            }
        }
        Ok(())
    };
    let ranks: Vec<&str> = fields[1].split('/').collect();
    if ranks.len() != RANK_SIZES.len() {
        return Err(format!("{position:?} does not have 11 ranks"));
    }
    for (r, text) in ranks.iter().enumerate() {
        if r == 0 || r == RANK_SIZES.len() - 1 {
            add_group(text, &mut counts)?;
            continue;
        }
        let mut covered = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                covered += d as usize;
            } else if let Some(k) = NAP_LETTERS
                .iter()
                .position(|&l| l == c.to_ascii_uppercase())
            {
                counts[usize::from(c.is_ascii_lowercase())][k] += 1;
                covered += 1;
            }
        }
        if covered != RANK_SIZES[r] {
            return Err(format!("rank {text:?} covers {covered} squares"));
        }
    }
    add_group(fields[2], &mut counts)?;
    for side in counts {
        if side != NAP_ARMY {
            return Err(format!("{position}: an army of {side:?}, not {NAP_ARMY:?}"));
        }
    }
    Ok(())
}

/// The variant's reading of `text` as an order, every way; as
/// [`check_order_text`] for the Civil War game, refusals citing R or N rules.
fn check_nap_order_text(text: &str, game: &Napoleonic) -> Checked {
    let parsed = Order::read(text, &NAPOLEONIC);
    let via_game = game.parse_order(text);
    prop_assert_eq!(&parsed, &via_game.clone().map(|o| o.0), "{:?}", text);
    check_nap_forgiving(text, game)?;
    match via_game {
        Err(e) => prop_assert!(!e.message.is_empty(), "empty message for {:?}", text),
        Ok(order) => {
            let canonical = order.to_string();
            let g_code = |w: &str| Space::all().any(|s| s.code() == w && w.starts_with('G'));
            prop_assert!(
                !canonical.split([' ', ',']).any(g_code),
                "{:?} printed with a G code: {}",
                text,
                canonical
            );
            prop_assert_eq!(
                game.parse_order(&canonical),
                Ok(order.clone()),
                "{}",
                canonical
            );
            prop_assert_eq!(
                game.parse_order(&canonical.to_lowercase()),
                Ok(order.clone())
            );
            let json = serde_json::to_string(&order).map_err(|e| fail(e.to_string()))?;
            let back: NapOrder = serde_json::from_str(&json).map_err(|e| fail(e.to_string()))?;
            prop_assert_eq!(&back, &order);
            let mut after = game.clone();
            match after.apply(&order) {
                Ok(_) => {
                    let pos = after.position();
                    prop_assert!(
                        Napoleonic::from_position(&pos).is_ok(),
                        "{} applied to {} gives unreadable {}",
                        order,
                        game,
                        pos
                    );
                }
                Err(refusal) => {
                    prop_assert_eq!(&after, game, "refused {} changed {}", order, game);
                    prop_assert!(
                        is_variant_rule_id(refusal.rule().0),
                        "{}: {}",
                        order,
                        refusal
                    );
                }
            }
        }
    }
    Ok(())
}

/// The variant's forgiving reader takes only listed orders; a line it does
/// not take is answered with the line, a reason, an R or N rule when it was
/// read, and suggestions that are all listed orders in the variant's
/// notation.
fn check_nap_forgiving(text: &str, game: &Napoleonic) -> Checked {
    check_forgiving_in(text, game, is_variant_rule_id)
}

/// Reads `text` as a variant position; an accepted one is written
/// canonically, reads back to the same string, holds the whole army (N2),
/// is never a Civil War position, and is playable.
fn check_nap_position_text(text: &str) -> Checked {
    let game = match Napoleonic::from_position(text) {
        Ok(game) => game,
        Err(e) => {
            prop_assert!(!e.message.is_empty(), "empty message for {:?}", text);
            return Ok(());
        }
    };
    prop_assert!(
        <Squares as Game>::from_position(text).is_err(),
        "{:?} read by both games",
        text
    );
    let canonical = game.position();
    let again = Napoleonic::from_position(&canonical)
        .map_err(|e| fail(format!("{text:?} -> {canonical}: {e}")))?;
    prop_assert_eq!(again.position(), canonical.clone(), "{:?}", text);
    prop_assert_eq!(again.legal_orders(), game.legal_orders(), "{:?}", text);
    prop_assert_eq!(again.outcome(), game.outcome());
    let json = serde_json::to_string(&game).map_err(|e| fail(e.to_string()))?;
    let back: Napoleonic = serde_json::from_str(&json).map_err(|e| fail(e.to_string()))?;
    prop_assert_eq!(back.position(), canonical.clone());
    nap_army_complete(&canonical).map_err(fail)?;
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
        let pos = after.position();
        prop_assert!(
            Napoleonic::from_position(&pos).is_ok(),
            "{} after {}: unreadable {}",
            canonical,
            order,
            pos
        );
    }
    Ok(())
}

/// The choices behind a generated variant position.
#[derive(Clone, Debug)]
struct NapLayout {
    /// Per unit (16 British, then 16 French): 0..100 board, reserve or
    /// eliminated; a board square hint; a rest mark.
    units: Vec<(u8, u8, bool)>,
    board_rate: u8,
    elim_rate: u8,
    french_to_move: bool,
    /// 0 single turn, 1 first half, 2 second half of a double turn.
    half: u8,
    other_passed: bool,
    turn: u32,
    /// Attacker, target, support and stage picks for an attack in progress.
    attack: Option<(u8, u8, u8, u8)>,
}

fn nap_layout() -> impl Strategy<Value = NapLayout> {
    (
        prop::collection::vec((0u8..100, 0u8..30, prop::bool::weighted(0.1)), 32),
        10u8..90,
        0u8..40,
        any::<bool>(),
        0u8..3,
        any::<bool>(),
        1u32..300,
        prop::option::weighted(0.6, (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>())),
    )
        .prop_map(
            |(units, board_rate, elim_rate, french_to_move, half, other_passed, turn, attack)| {
                NapLayout {
                    units,
                    board_rate,
                    elim_rate,
                    french_to_move,
                    half,
                    other_passed,
                    turn,
                    attack,
                }
            },
        )
}

/// The variant army by unit number: 6 I, G, 2 L, 2 A, H, 3 C, K (N2).
const NAP_ARMY_ORDER: [char; 16] = [
    'I', 'I', 'I', 'I', 'I', 'I', 'G', 'L', 'L', 'A', 'A', 'H', 'C', 'C', 'C', 'K',
];

/// The position a layout describes, written by hand: units on free board
/// squares (cavalry never resting, R21 as N16 keeps it), in their reserves
/// or eliminated; no runs. Not canonical in its group order.
fn nap_layout_position(l: &NapLayout) -> String {
    // 0 = BR, 1..=30 board squares in rank order, 31 = the French reserve.
    let mut on_square: [Option<String>; 32] = Default::default();
    let mut reserves = [String::new(), String::new()];
    let mut eliminated = String::new();
    for (i, &(place, square, rests)) in l.units.iter().enumerate() {
        let side = i / 16;
        let letter = NAP_ARMY_ORDER[i % 16];
        let mut unit = if side == 0 {
            letter.to_string()
        } else {
            letter.to_ascii_lowercase().to_string()
        };
        if rests && letter != 'C' {
            unit.push('_');
        }
        if place < l.board_rate {
            let mut sq = usize::from(square) % 30;
            for _ in 0..30 {
                if on_square[sq + 1].is_none() {
                    break;
                }
                sq = (sq + 1) % 30;
            }
            if on_square[sq + 1].is_none() {
                on_square[sq + 1] = Some(unit);
                continue;
            }
        }
        if place >= 100 - l.elim_rate {
            eliminated.push(unit.chars().next().unwrap_or('I'));
        } else {
            reserves[side].push_str(&unit);
        }
    }
    let mut out = String::from("napoleonic ");
    write_ranks(
        &mut out,
        &on_square,
        |out, which| {
            let group = &reserves[which];
            out.push_str(if group.is_empty() { "-" } else { group });
        },
        |out, unit| out.push_str(unit),
    );
    let mover = usize::from(l.french_to_move);
    let half = l.half % 3;
    let mut passed = [false; 2];
    passed[mover] = half == 1;
    passed[1 - mover] = l.other_passed;
    let passes = match passed {
        [false, false] => "-",
        [true, false] => "b",
        [false, true] => "f",
        [true, true] => "bf",
    };
    let half_text = ["", "1", "2"][usize::from(half)];
    out.push_str(&format!(
        " {} {}{half_text} {passes} {} -",
        if eliminated.is_empty() {
            "-"
        } else {
            &eliminated
        },
        ['b', 'f'][mover],
        l.turn
    ));
    out
}

/// Stages of the variant's attack field, and near misses.
const NAP_STAGES: [&str; 16] = [
    "R", "O", "S1", "C", "A1", "A4", "S5", "GS", "GC", "HD", "HS", "HA", "L", "V", "X", "",
];

/// `base` with an attack in progress written into it, following the
/// layout's picks among the side to move's units (F codes, N1, N35): of
/// the stages the reader accepts there, the one the layout picks, or else
/// one it refuses.
fn nap_with_attack(base: &str, game: &Napoleonic, l: &NapLayout) -> Option<String> {
    let (a, t, s, st) = l.attack?;
    let b = board();
    let squares = game.squares();
    let side = squares.to_move();
    let own: Vec<Space> = squares.occupied_by(side).iter().collect();
    let attacker = *own.get(usize::from(a) % own.len().max(1))?;
    let targets: Vec<Space> = b.edge(attacker).iter().collect();
    let target = *targets.get(usize::from(t) % targets.len().max(1))?;
    let supports: Vec<Space> = (b.adjacent(target) & squares.occupied_by(side))
        .iter()
        .filter(|&x| x != attacker)
        .collect();
    let support =
        (!supports.is_empty() && s % 3 != 0).then(|| supports[usize::from(s) % supports.len()]);
    let code = |sq: Space| NAPOLEONIC.code(sq.code()).into_owned();
    let stem = base.strip_suffix(" -")?;
    let texts: Vec<String> = NAP_STAGES
        .iter()
        .map(|stage| {
            let field = match support {
                Some(sp) => format!("{}x{}+{}/{stage}", code(attacker), code(target), code(sp)),
                None => format!("{}x{}/{stage}", code(attacker), code(target)),
            };
            format!("{stem} {field}")
        })
        .collect();
    let accepted: Vec<&String> = texts
        .iter()
        .filter(|t| Napoleonic::from_position(t).is_ok())
        .collect();
    let pick = usize::from(st);
    Some(match accepted.as_slice() {
        [] => texts[pick % texts.len()].clone(),
        some => some[pick % some.len()].clone(),
    })
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn nap_arbitrary_text_never_panics_the_readers(text in any::<String>()) {
        check_nap_order_text(&text, &Napoleonic::new(&GameOptions::default()))?;
        check_nap_position_text(&text)?;
        check_nap_position_text(&format!("napoleonic {text}"))?;
    }

    #[test]
    fn nap_token_soup_never_panics_the_readers(text in nap_token_soup()) {
        let french = Napoleonic::new(&GameOptions { first: Seat::South, seed: None, scenario: None });
        check_nap_order_text(&text, &french)?;
        check_nap_position_text(&text)?;
    }

    /// Every order value of the variant prints canonically (F codes) and
    /// reads back, and mutations of its text are read or refused cleanly by
    /// a game in progress.
    #[test]
    fn nap_mutated_orders_are_read_or_refused(
        o in nap_order(),
        ms in prop::collection::vec(mutation(), 1..4),
        seed in any::<u64>(),
        steps in 0usize..60,
    ) {
        let text = o.display_in(&NAPOLEONIC).to_string();
        prop_assert_eq!(
            Order::read(&text, &NAPOLEONIC),
            Ok(o),
            "{}",
            text
        );
        let game = nap_play(seed, steps);
        check_nap_order_text(&text, &game)?;
        check_nap_order_text(&mutate_all(&text, &ms), &game)?;
    }

    /// Mutations of the variant's listed orders at positions of play.
    #[test]
    fn nap_mutated_listed_orders_are_read_or_refused(
        seed in any::<u64>(),
        steps in 0usize..150,
        pick in any::<usize>(),
        ms in prop::collection::vec(mutation(), 1..3),
    ) {
        let game = nap_play(seed, steps);
        let legal = game.legal_orders();
        if let Some(o) = legal.get(pick % legal.len().max(1)) {
            check_nap_order_text(&o.to_string(), &game)?;
            check_nap_order_text(&mutate_all(&o.to_string(), &ms), &game)?;
            // The same order with G codes (N1) is the same order.
            prop_assert_eq!(game.read_order(&o.0.to_string()), Ok(o.clone()));
        }
    }

    /// Mutations of the variant's positions reached by play.
    #[test]
    fn nap_mutated_played_positions_are_read_or_refused(
        seed in any::<u64>(),
        steps in 0usize..200,
        ms in prop::collection::vec(mutation(), 1..4),
    ) {
        let text = nap_play(seed, steps).position();
        check_nap_position_text(&text)?;
        check_nap_position_text(&mutate_all(&text, &ms))?;
    }

    /// Hand-written variant positions, with attacks at any stage, and
    /// mutations of them.
    #[test]
    fn nap_generated_positions_are_read_or_refused(
        l in nap_layout(),
        ms in prop::collection::vec(mutation(), 1..4),
    ) {
        let text = nap_layout_position(&l);
        check_nap_position_text(&text)?;
        if let Ok(game) = Napoleonic::from_position(&text) {
            if let Some(with) = nap_with_attack(&text, &game, &l) {
                check_nap_position_text(&with)?;
            }
        }
        check_nap_position_text(&mutate_all(&text, &ms))?;
    }
}

/// The layouts above are mostly readable positions (else the property
/// would only test refusals).
#[test]
fn nap_generated_positions_are_mostly_accepted() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = nap_layout();
    let mut accepted = 0;
    let mut with_attack = 0;
    for _ in 0..200 {
        let l = proptest::strategy::ValueTree::current(
            &strategy.new_tree(&mut runner).expect("a layout"),
        );
        let text = nap_layout_position(&l);
        if let Ok(game) = Napoleonic::from_position(&text) {
            accepted += 1;
            let attack = nap_with_attack(&text, &game, &l);
            if attack.is_some_and(|t| Napoleonic::from_position(&t).is_ok()) {
                with_attack += 1;
            }
        }
    }
    assert!(accepted >= 150, "only {accepted} of 200 layouts were read");
    assert!(
        with_attack >= 20,
        "only {with_attack} attacks in progress were read"
    );
}

/// The variant's readers on hand-picked edge cases.
#[test]
fn nap_edge_cases_are_read_or_refused() {
    let game = Napoleonic::new(&GameOptions::default());
    for text in [
        "OPTION GB1",
        "OPTION GB0",
        "OPTION GB4",
        "OPTION HB6",
        "OPTION HB",
        "OPTION GBX",
        "OPTION G B1",
        "GB",
        "HB",
        "HB 255",
        "HB 256",
        "GB1 HB2",
        "LOSE HORSE BATTERY",
        "LOSE LIGHT INFANTRY",
        "MOVE LIGHT INFANTRY BR B3C",
        "MOVE HEAVY HORSE HORSE BR B3C",
        "MOVE HORSE HORSE BR B3C",
        "MOVE F3C",
        "MOVE BR FR",
        "ATTACK F1C G1C",
        "british british reserve",
        "French reserve",
        "FRENCH",
    ] {
        if let Err(e) = check_nap_order_text(text, &game) {
            panic!("{text:?}: {e}");
        }
    }
    for text in [
        "napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -",
        "NAPOLEONIC 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - f - 1 -",
        "napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - g - 1 -",
        "napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1",
        "napoleonic 9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        "napoleonic napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -",
        "napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 BRxB3C/L",
        "napoleonic 6IG2L2AH2CK/3/4/2/5/2/5/2/4/1C1/6ig2l2ah3ck - b - 20 F3CxFR/L",
        "napoleonic 6IG2L2AH2CK/3/4/2/5/2/5/2/4/1C1/6ig2l2ah3ck - b - 20 G3CxGR/L",
        "napoleonic 6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 B1CxF1C+B1CL/O",
        "napoleonic 6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 B1CxF1C+B1CL/GC",
        "napoleonic 6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 B1CxF1C/HD",
        "napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 - -",
    ] {
        if let Err(e) = check_nap_position_text(text) {
            panic!("{text:?}: {e}");
        }
    }
}

// ----- Brothers at War: remarks in brackets ----------------------------------

mod brothers_at_war_remarks {
    use super::common::rng::XorShift;
    use super::common::squares::config;
    use orderly::games::brothers_at_war::core::order::{Action, Order};
    use orderly::games::brothers_at_war::core::state::BrothersAtWar;
    use orderly::games::{Game, GameOptions, GameText};
    use orderly::service::lines::{LineReader, Reading};
    use proptest::prelude::*;

    /// Positions of the demo battle at players' decisions, met in random
    /// play (the draws of chance at random too): every 15th decision of
    /// four games, played once for all the cases.
    fn positions() -> &'static [BrothersAtWar] {
        static POSITIONS: std::sync::OnceLock<Vec<BrothersAtWar>> = std::sync::OnceLock::new();
        POSITIONS.get_or_init(|| {
            let mut out = Vec::new();
            for seed in 1..=4 {
                let mut rng = XorShift::new(seed);
                let mut g = BrothersAtWar::new(&GameOptions::default());
                let mut decided = 0;
                for _ in 0..20_000 {
                    if let Some(chance) = g.chance() {
                        let o = g
                            .chance_order(rng.below(chance.outcomes as usize) as u32)
                            .unwrap();
                        g.apply(&o).unwrap();
                        continue;
                    }
                    let legal = g.legal_orders();
                    if legal.is_empty() {
                        break;
                    }
                    if decided % 15 == 0 {
                        out.push(g.clone());
                    }
                    let o = legal[rng.below(legal.len())].clone();
                    g.apply(&o).unwrap();
                    decided += 1;
                }
            }
            out
        })
    }

    /// Remarks that say nothing an order is made of.
    const REMARKS: &[&str] = &[
        "(huzzah)",
        "(my last reserve)",
        "[as planned]",
        "(sorry, 3rd try)",
        "(the rebels are wavering!)",
    ];

    proptest! {
        #![proptest_config(config(256))]

        /// Every legal order, canonical or in lower case, reads as itself
        /// with a remark in brackets after it; a move also with a cheer
        /// (`(charge!)`, `, charge!`). Through the service's reading of a
        /// mail line too.
        #[test]
        fn a_remark_after_an_accepted_line_reads_the_same_order(
            at in any::<usize>(),
            pick in any::<usize>(),
            remark in 0usize..REMARKS.len(),
        ) {
            let g = &positions()[at % positions().len()];
            let legal = g.legal_orders();
            prop_assume!(!legal.is_empty());
            let order = legal[pick % legal.len()].clone();
            let text = order.to_string();
            let mut remarks = vec![REMARKS[remark].to_string()];
            if matches!(&order, Order::Act { action: Action::Move(_), .. }) {
                remarks.push("(charge!)".into());
                remarks.push(", charge!".into());
            }
            let mail = LineReader::new(Some("brothersatwar"), ["Ann", "Bob"]);
            for written in [text.clone(), text.to_ascii_lowercase()] {
                prop_assert_eq!(g.read_order(&written).map(|o| o.to_string()), Ok(text.clone()), "{}", written);
                for r in &remarks {
                    let line = format!("{written} {r}");
                    prop_assert_eq!(g.read_order(&line).map(|o| o.to_string()), Ok(text.clone()), "{}", line);
                    let read = match mail.read(&line) {
                        Reading::Order(t) | Reading::Mixed(t) => t,
                        other => return Err(TestCaseError::fail(format!("{line}: {other:?}"))),
                    };
                    prop_assert_eq!(g.read_order(&read).map(|o| o.to_string()), Ok(text.clone()), "{} as {}", line, read);
                }
            }
        }
    }

    use proptest::test_runner::TestCaseError;
}
