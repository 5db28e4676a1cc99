//! The forgiving order reader (`Game::read_order`): every accepted form, every
//! kind of mistake, and the property that every legal order, written in each
//! style players use, reads back as itself.

mod common;

use common::*;
use orderly::games::squares::{board, Order, Space, Squares, Step, Terrain};
use orderly::games::submission::{release, submit, NotApplied};
use orderly::games::{Game, Seat};
use proptest::prelude::*;

const OPENING: &str = "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -";
/// Blue infantry in B1C and B1CL facing Gray infantry in G1C (turn 20).
const FRONT: &str = "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b - 20 -";
/// FRONT with a Gray artillery in G1CR: both Blue infantry are pinned (R16).
const PINNED: &str = "7I3A4C/3/4/2/2II1/2/2ia1/2/4/3/8i2a4c - b - 20 -";
/// A Blue cavalry in B1C that moved on Blue's last two turns (R6).
const TIRED: &str = "9I3A3C/3/4/2/2C++2/2/5/2/4/1i+1/8i3a4c - b - 5 -";
/// FRONT with Blue's double turn, first half.
const DOUBLE: &str = "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -";

fn game(position: &str) -> Squares {
    position.parse().expect("a test position")
}

fn read(position: &str, line: &str) -> Result<String, orderly::games::Rejection> {
    game(position).read_order(line).map(|o| o.to_string())
}

/// Plays canonical orders from a position.
fn after(position: &str, orders: &[&str]) -> Squares {
    let mut g = game(position);
    for o in orders {
        let order = g.parse_order(o).expect("a canonical order");
        g.apply(&order).expect("a legal order");
    }
    g
}

// ----- every accepted form ----------------------------------------------------

#[test]
fn every_accepted_form_reads_as_its_canonical_order() {
    let cases: &[(&str, &str, &str)] = &[
        // canonical, any case, any spacing
        (OPENING, "MOVE CAVALRY BR B3C", "MOVE CAVALRY BR B3C"),
        (OPENING, "move cavalry br b3c", "MOVE CAVALRY BR B3C"),
        (OPENING, "  Move   Cavalry BR   b3c ", "MOVE CAVALRY BR B3C"),
        // unit words and abbreviations, the reserve in words
        (
            OPENING,
            "move infantry from BR to B3C",
            "MOVE INFANTRY BR B3C",
        ),
        (
            OPENING,
            "move inf from reserve to B3C",
            "MOVE INFANTRY BR B3C",
        ),
        (OPENING, "MOVE art BR B3L", "MOVE ARTILLERY BR B3L"),
        (
            OPENING,
            "move arty from Blue reserve to B3R",
            "MOVE ARTILLERY BR B3R",
        ),
        (OPENING, "cav BR-B3C", "MOVE CAVALRY BR B3C"),
        (OPENING, "move cavalry BR B3C.", "MOVE CAVALRY BR B3C"),
        // a reserve move whose type only one unit can be
        (OPENING, "BR B2CR", "MOVE CAVALRY BR B3R B2CR"),
        (OPENING, "BR-B3R-B2CR", "MOVE CAVALRY BR B3R B2CR"),
        // any legal cavalry path is accepted; the listed form names the
        // first in board order (S3)
        (
            OPENING,
            "move from BR via B3C to B2CR",
            "MOVE CAVALRY BR B3R B2CR",
        ),
        // the publisher's long form and short forms (E5)
        (FRONT, "MOVE from B1C to B2CR", "MOVE B1C B2CR"),
        (FRONT, "B1C-B2CR", "MOVE B1C B2CR"),
        (FRONT, "B1C B2CR", "MOVE B1C B2CR"),
        (FRONT, "b1c->b2cr", "MOVE B1C B2CR"),
        (FRONT, "1. B1C-B2CR", "MOVE B1C B2CR"),
        (FRONT, "Blue: MOVE B1C B2CR", "MOVE B1C B2CR"),
        (FRONT, "move infantry from B1C to B2CR", "MOVE B1C B2CR"),
        (
            FRONT,
            "ATTACK from B1C to G1C support from B1CL",
            "ATTACK B1C G1C SUPPORT B1CL",
        ),
        (FRONT, "ATTACK B1C G1C B1CL", "ATTACK B1C G1C SUPPORT B1CL"),
        (FRONT, "B1C x G1C + B1CL", "ATTACK B1C G1C SUPPORT B1CL"),
        (FRONT, "b1cxg1c + b1cl", "ATTACK B1C G1C SUPPORT B1CL"),
        (
            FRONT,
            "attack G1C from B1C supported by B1CL",
            "ATTACK G1C B1C SUPPORT B1CL",
        ),
        (
            FRONT,
            "att B1C G1C with B1CL",
            "ATTACK B1C G1C SUPPORT B1CL",
        ),
        (FRONT, "B1C x G1C", "ATTACK B1C G1C"),
        (FRONT, "ATTACK B1C G1C", "ATTACK B1C G1C"),
        (FRONT, "pass", "PASS"),
        // two cavalry, one step each (R11); both from the reserve are listed
        // by destination in board order (S2)
        (
            OPENING,
            "move cav BR B3C, cav BR B3R",
            "MOVE CAVALRY BR B3R, CAVALRY BR B3C",
        ),
    ];
    for (position, line, want) in cases {
        match read(position, line) {
            Ok(got) if got == *want => {}
            // "attack G1C from B1C" names the target first: not the same
            // order, and it must not be silently swapped.
            Err(_) if want.starts_with("ATTACK G1C B1C") => {}
            other => panic!("{line:?} at {position}: want {want}, got {other:?}"),
        }
    }
}

#[test]
fn decisions_read_in_every_form() {
    let defence = after(FRONT, &["ATTACK B1C G1C SUPPORT B1CL"]);
    let option = after(FRONT, &["ATTACK B1C G1C SUPPORT B1CL", "STAND"]);
    let advance = after(FRONT, &["ATTACK B1C G1C SUPPORT B1CL", "STAND", "OPTION 2"]);
    let cases: &[(&Squares, &str, &str)] = &[
        (&defence, "stand", "STAND"),
        (&defence, "HOLD", "STAND"),
        (&defence, "retreat to reserve", "RETREAT GR"),
        (&defence, "retreat GR", "RETREAT GR"),
        (&defence, "RETREAT G1C GR", "RETREAT GR"),
        (&defence, "GR", "RETREAT GR"),
        (&defence, "retreat", "RETREAT GR"),
        (&option, "OPTION 2", "OPTION 2"),
        (&option, "opt 2", "OPTION 2"),
        (&option, "option two", "OPTION 2"),
        (&option, "2", "OPTION 2"),
        (&option, "Option #3", "OPTION 3"),
        (&advance, "advance", "ADVANCE"),
        (&advance, "adv into G1C", "ADVANCE"),
        (&advance, "stay", "STAY"),
        (&advance, "no advance", "STAY"),
        (&advance, "don't advance", "STAY"),
        (&advance, "hold", "STAY"),
    ];
    for (g, line, want) in cases {
        let got = g.read_order(line).map(|o| o.to_string());
        assert_eq!(got.as_deref(), Ok(*want), "{line:?} at {g}");
    }
}

#[test]
fn a_reserve_loss_is_read_by_its_unit_word() {
    // A Blue infantry in G3C attacks Gray's reserve unsupported (R17):
    // Gray chooses which type to lose.
    let g = after(
        "8I3A4C/3/4/2/5/2/5/2/4/1I1/9i3a4c - b - 30 -",
        &["ATTACK G3C GR"],
    );
    for (line, want) in [
        ("LOSE INFANTRY", "LOSE INFANTRY"),
        ("lose inf", "LOSE INFANTRY"),
        ("remove artillery", "LOSE ARTILLERY"),
        ("cav", "LOSE CAVALRY"),
    ] {
        let got = g.read_order(line).map(|o| o.to_string());
        assert_eq!(got.as_deref(), Ok(want), "{line:?} at {g}");
    }
}

// ----- every kind of mistake ----------------------------------------------------

struct Mistake {
    position: &'static str,
    line: &'static str,
    /// The rule cited, or None for a line that could not be read.
    rule: Option<&'static str>,
    /// Words the problem must contain.
    says: &'static str,
    /// An order the suggestions must contain ("" for none required).
    suggests: &'static str,
}

#[test]
fn every_kind_of_mistake_is_answered_with_its_rule_and_the_nearest_orders() {
    let mistakes = [
        Mistake {
            position: FRONT,
            line: "MOVE B1C B2CX",
            rule: None,
            says: "\"B2CX\" is not a square",
            suggests: "MOVE B1C B2CR",
        },
        Mistake {
            position: FRONT,
            line: "mvoe B1C B2CR",
            rule: None,
            says: "did you mean MOVE",
            suggests: "MOVE B1C B2CR",
        },
        Mistake {
            position: FRONT,
            line: "MOVE B1C B3C",
            rule: Some("R9"),
            says: "not a square the infantry in B1C can reach",
            suggests: "MOVE B1C B2CR",
        },
        Mistake {
            position: TIRED,
            line: "MOVE B1C B2CR",
            rule: Some("R6"),
            says: "moved on your last two turns",
            suggests: "",
        },
        Mistake {
            position: PINNED,
            line: "ATTACK B1C G1C SUPPORT B1CL",
            rule: Some("R16"),
            says: "next to the enemy artillery in G1CR",
            suggests: "ATTACK B1CL G1CR",
        },
        Mistake {
            position: FRONT,
            line: "MOVE B1C G1C",
            rule: Some("R9"),
            says: "occupied",
            suggests: "ATTACK B1C G1C",
        },
        Mistake {
            position: OPENING,
            line: "BR B3C",
            rule: Some("R7"),
            says: "names the unit type",
            suggests: "MOVE CAVALRY BR B3C",
        },
        Mistake {
            position: OPENING,
            line: "MOVE INFANTRY BR B2CR",
            rule: Some("R9"),
            says: "B2CR",
            suggests: "MOVE INFANTRY BR B3C",
        },
        Mistake {
            position: FRONT,
            line: "MOVE cavalry B1C B2CR",
            rule: Some("R7"),
            says: "is infantry, not cavalry",
            suggests: "MOVE B1C B2CR",
        },
        Mistake {
            position: FRONT,
            line: "MOVE B1C",
            rule: None,
            says: "names only B1C",
            suggests: "MOVE B1C B2CR",
        },
        Mistake {
            position: FRONT,
            line: "MOVE B1C B2CR; PASS",
            rule: None,
            says: "",
            suggests: "",
        },
        Mistake {
            position: FRONT,
            line: "move B1C B2CR attack B1CL G1C",
            rule: None,
            says: "more than one order",
            suggests: "",
        },
        Mistake {
            position: FRONT,
            line: "Hello Bob, here is my move",
            rule: None,
            says: "not a word orders use",
            suggests: "",
        },
        Mistake {
            position: FRONT,
            line: "OPTION 2",
            rule: Some("R2"),
            says: "waits for turn",
            suggests: "",
        },
        Mistake {
            position: FRONT,
            line: "ATTACK B1C B2CR",
            rule: Some("R14"),
            says: "holds no enemy unit",
            suggests: "ATTACK B1C G1C",
        },
        Mistake {
            position: DOUBLE,
            line: "PASS",
            rule: Some("R3"),
            says: "may not pass twice",
            suggests: "",
        },
        Mistake {
            position: "9I3A3C/3/4/2/2C2/2/2i2/2/4/3/8i3a4c - b - 20 -",
            line: "B1C x G1C",
            rule: Some("R15"),
            says: "cavalry may not attack infantry unsupported",
            suggests: "",
        },
    ];
    for m in &mistakes {
        let r = match read(m.position, m.line) {
            Ok(o) => panic!("{:?} at {} was taken as {o}", m.line, m.position),
            Err(r) => r,
        };
        assert_eq!(r.line, m.line.trim(), "the line is quoted");
        assert_eq!(r.rule.map(|r| r.0), m.rule, "{:?}: {r}", m.line);
        assert!(r.problem.contains(m.says), "{:?}: {r}", m.line);
        if !m.suggests.is_empty() {
            assert!(
                r.suggestions.iter().any(|s| s == m.suggests),
                "{:?} should suggest {}: {r}",
                m.line,
                m.suggests
            );
        }
        let legal: Vec<String> = game(m.position)
            .legal_orders()
            .iter()
            .map(Order::to_string)
            .collect();
        for s in &r.suggestions {
            assert!(legal.contains(s), "{:?} suggests unlisted {s}", m.line);
        }
    }
}

#[test]
fn an_option_that_is_not_offered_says_why() {
    // Attacking cavalry never retreats (R19): no options 1 and 4.
    let g = after(
        "8I3A3C/3/4/2/2CI1/2/2i2/2/4/3/8i3a4c - b - 20 -",
        &["ATTACK B1C G1C SUPPORT B1CL", "STAND"],
    );
    let r = g.read_order("option 4").unwrap_err();
    assert_eq!(r.rule.map(|r| r.0), Some("R19"));
    assert!(r.problem.contains("option 4 is not offered"), "{r}");
    assert!(r.suggestions.contains(&"OPTION 2".to_string()), "{r}");
    let r = g.read_order("option 9").unwrap_err();
    assert!(r.problem.contains("options are 1 to 5"), "{r}");
}

// ----- several orders in one message --------------------------------------------

#[test]
fn a_double_turn_written_at_once_is_taken_whole() {
    let mut g = game("7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -");
    let s = submit(&mut g, Seat::North, &["inf BR B3C", "B1C-B2CR"]);
    assert!(s.refused.is_none(), "{:?}", s.refused);
    assert_eq!(s.taken.len(), 2);
    assert_eq!(g.pending().map(|p| p.seat), Some(Seat::South));
}

#[test]
fn the_second_half_after_an_attack_waits_for_the_attack_and_is_then_applied() {
    let mut g = game(DOUBLE);
    let s = submit(&mut g, Seat::North, &["B1C x G1C + B1CL", "inf BR B3C"]);
    assert_eq!(s.taken.len(), 1);
    assert_eq!(s.held, ["inf BR B3C"]);
    // Gray stands; the held order still waits (Blue must choose an option).
    let gray = submit(&mut g, Seat::South, &["stand"]);
    assert_eq!(gray.taken.len(), 1);
    let r = release(&mut g, Seat::North, &s.held);
    assert!(r.taken.is_empty());
    assert_eq!(r.held, s.held);
    // Option 3 ends the attack; the second half comes and the held order
    // is applied.
    let blue = submit(&mut g, Seat::North, &["option 3"]);
    assert_eq!(blue.taken.len(), 1);
    let r = release(&mut g, Seat::North, &s.held);
    assert_eq!(r.taken.len(), 1, "{:?}", r.refused);
    assert_eq!(r.taken[0].order.to_string(), "MOVE INFANTRY BR B3C");
    assert_eq!(g.pending().map(|p| p.seat), Some(Seat::South));
}

#[test]
fn a_held_order_that_became_illegal_is_refused_when_its_time_comes() {
    let mut g = game(DOUBLE);
    let s = submit(&mut g, Seat::North, &["B1C x G1C + B1CL", "B1CL-B2CL"]);
    assert_eq!(s.held.len(), 1);
    submit(&mut g, Seat::South, &["stand"]);
    // Option 2 eliminates the supporting infantry in B1CL.
    submit(&mut g, Seat::North, &["option 2", "stay"]);
    let r = release(&mut g, Seat::North, &s.held);
    let refused = r.refused.expect("B1CL is empty now");
    assert_eq!(refused.line, "B1CL-B2CL");
    assert_eq!(refused.rule.map(|r| r.0), Some("R2"));
}

#[test]
fn orders_after_a_turn_has_ended_are_not_applied_and_say_why() {
    let mut g = game(FRONT);
    let s = submit(&mut g, Seat::North, &["B1C-B2CR", "B1CL-B2CL"]);
    assert_eq!(s.taken.len(), 1);
    assert_eq!(s.unused.len(), 1);
    assert_eq!(s.unused[0].why, NotApplied::TurnEnded { now: Seat::South });
    // A refused order stops the message.
    let mut g = game(FRONT);
    let s = submit(&mut g, Seat::North, &["B1C-B3C", "B1CL-B2CL"]);
    assert!(s.taken.is_empty());
    assert!(s.refused.is_some());
    assert_eq!(s.unused[0].why, NotApplied::EarlierRefused);
    assert_eq!(g.to_string(), FRONT, "nothing was applied");
}

// ----- every legal order in every style ------------------------------------------

/// The ways players write orders, printed independently of the engine's
/// own notation code.
#[derive(Clone, Copy, Debug)]
enum Style {
    Canonical,
    Lower,
    /// The publisher's: MOVE from G2CR to G1C, ATTACK from G1C to B1C
    /// support from G1CR.
    Long,
    /// G2CR-G1C, G1C x B1C + G1CR, cav BR-B3C.
    Dash,
    /// G2CR G1C, ATTACK G1C B1C G1CR.
    Spaced,
    /// move inf from BR to B3C, att G1C B1C supported by G1CR.
    Abbreviated,
}

const STYLES: [Style; 6] = [
    Style::Canonical,
    Style::Lower,
    Style::Long,
    Style::Dash,
    Style::Spaced,
    Style::Abbreviated,
];

fn is_reserve(s: Space) -> bool {
    matches!(board().terrain(s), Terrain::Reserve(_))
}

fn abbreviation(step: &Step) -> &'static str {
    match step.unit.map(|k| k.to_string()).as_deref() {
        Some("infantry") => "inf ",
        Some("artillery") => "art ",
        Some("cavalry") => "cav ",
        _ => "",
    }
}

fn styled_step(step: &Step, style: Style) -> String {
    let unit = match style {
        Style::Long => step.unit.map(|k| format!("{k} ")).unwrap_or_default(),
        _ => abbreviation(step).to_string(),
    };
    let squares: Vec<String> = std::iter::once(step.from)
        .chain(step.via)
        .chain(std::iter::once(step.to))
        .map(|s| s.to_string())
        .collect();
    match style {
        Style::Long => match step.via {
            Some(v) => format!("{unit}from {} via {v} to {}", step.from, step.to),
            None => format!("{unit}from {} to {}", step.from, step.to),
        },
        Style::Dash => format!("{unit}{}", squares.join("-")),
        Style::Abbreviated if is_reserve(step.from) => {
            format!("{unit}from {} to {}", squares[0], squares[1..].join(" "))
        }
        _ => format!("{unit}{}", squares.join(" ")),
    }
}

fn styled(order: &Order, style: Style) -> String {
    let canonical = order.to_string();
    match style {
        Style::Canonical => return canonical,
        Style::Lower => return canonical.to_lowercase(),
        _ => {}
    }
    match order {
        Order::Move(step) => match style {
            Style::Long => format!("MOVE {}", styled_step(step, style)),
            Style::Dash | Style::Spaced => styled_step(step, style),
            _ => format!("move {}", styled_step(step, style)),
        },
        Order::MoveTwo(a, b) => match style {
            Style::Long => format!(
                "MOVE {} and {}",
                styled_step(a, style),
                styled_step(b, style)
            ),
            Style::Dash | Style::Spaced => {
                format!("{}, {}", styled_step(a, style), styled_step(b, style))
            }
            _ => format!("mv {} & {}", styled_step(a, style), styled_step(b, style)),
        },
        Order::Attack {
            attacker,
            target,
            support,
        } => match (style, support) {
            (Style::Long, Some(s)) => {
                format!("ATTACK from {attacker} to {target} support from {s}")
            }
            (Style::Long, None) => format!("ATTACK from {attacker} to {target}"),
            (Style::Dash, Some(s)) => format!("{attacker} x {target} + {s}"),
            (Style::Dash, None) => format!("{attacker} x {target}"),
            (Style::Spaced, Some(s)) => format!("ATTACK {attacker} {target} {s}"),
            (Style::Spaced, None) => format!("ATTACK {attacker} {target}"),
            (_, Some(s)) => format!("att {attacker} {target} supported by {s}"),
            (_, None) => format!("att {attacker} {target}"),
        },
        Order::Retreat(chain) => {
            let squares: Vec<String> = chain.squares().iter().map(|s| s.to_string()).collect();
            match style {
                Style::Long => format!("RETREAT to {}", squares.join(" then ")),
                Style::Dash => squares.join("-"),
                Style::Spaced => squares.join(" "),
                _ => format!("ret {}", squares.join(" ")),
            }
        }
        Order::Option(n) => match style {
            Style::Dash | Style::Spaced => n.to_string(),
            Style::Abbreviated => format!("opt {n}"),
            _ => format!("Option {n}"),
        },
        Order::GrandBattery(_) | Order::HorseBattery(_) => {
            unreachable!("the Civil War game has no GB or HB options")
        }
        Order::Lose(kind) => match style {
            Style::Dash | Style::Spaced => kind.to_string(),
            _ => format!("lose {}", &kind.to_string()[..3]),
        },
        Order::Stand => match style {
            Style::Dash => "hold".into(),
            _ => "stand".into(),
        },
        Order::Stay => match style {
            Style::Dash => "hold".into(),
            Style::Spaced => "no advance".into(),
            _ => "stay".into(),
        },
        Order::Advance => match style {
            Style::Abbreviated => "adv".into(),
            _ => "advance".into(),
        },
        Order::Pass => "pass".into(),
    }
}

proptest! {
    #![proptest_config(config(150))]

    /// Every legal order, printed in each supported style, reads back as
    /// itself at random positions of play (decisions inside attacks
    /// included).
    #[test]
    fn every_legal_order_in_every_style_reads_back_as_itself(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..160),
    ) {
        let g = play(gray_first, &choices);
        for order in g.legal_orders() {
            for style in STYLES {
                let text = styled(&order, style);
                match g.read_order(&text) {
                    Ok(read) => prop_assert_eq!(
                        read, order, "{:?} in {:?} at {}", text, style, g
                    ),
                    Err(r) => return Err(fail(format!(
                        "{text:?} ({style:?}) for {order} at {g}: {r}"
                    ))),
                }
            }
        }
    }
}
