//! The forgiving order reader (`Game::read_order`): every accepted form, every
//! kind of mistake, and the property that every legal order, written in each
//! style players use, reads back as itself.

#[path = "../common/mod.rs"]
mod common;

use common::rng::XorShift;
use common::squares::*;
use orderly::games::squares::notation::{Notation, CIVIL_WAR, NAPOLEONIC};
use orderly::games::squares::{
    board, Napoleonic, Order, Space, Squares, Stage, Step, Terrain, UnitKind,
};
use orderly::games::submission::{release, submit, NotApplied};
use orderly::games::{Game, GameText, Seat};
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
        // FROM names the attacker wherever it is written
        (
            FRONT,
            "attack G1C from B1C supported by B1CL",
            "ATTACK B1C G1C SUPPORT B1CL",
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

// ----- natural phrasings: role words, unit words, fillers -----------------------

/// A Blue cavalry in B1C, G1C empty: only it reaches G1C.
const CAV_AHEAD: &str = "9I3A3C/3/4/2/2C2/2/5/2/4/3/9i3a4c - b - 5 -";
/// A Gray cavalry in G2CL, G1C empty: only it reaches G1C.
const GRAY_CAV_AHEAD: &str = "9I3A4C/3/4/2/5/2/5/2/1c2/3/9i3a3c - g - 5 -";
/// Gray to move: Gray infantry in G2CL and G2CR, Blue infantry in G1C.
const GRAY_ATTACK: &str = "8I3A4C/3/4/2/5/2/2I2/2/1ii1/3/7i3a4c - g - 20 -";
/// Blue infantry deep in Gray's half: G2L and G3C, Gray infantry in G3L.
const DEEP: &str = "7I3A4C/3/4/2/5/2/5/2/I3/iI1/8i3a4c - b - 20 -";
/// Gray to move: a Blue cavalry in G1C, Gray cavalry in G2CL and infantry
/// in G2CR.
const CAV_FIGHT: &str = "9I3A3C/3/4/2/5/2/2C2/2/1ci1/3/8i3a3c - g - 20 -";
/// E4: Blue B3C attacks the Gray cavalry in B2CR supported from B1C; the
/// cavalry retreats to B1R or B1CR.
const FLANK: &str = "7I3A4C/1I1/1c2/2/2I2/2/5/2/4/3/9i3a3c - b - 20 -";
/// A Blue infantry in G3C next to Gray's reserve.
const AT_RESERVE: &str = "8I3A4C/3/4/2/5/2/5/2/4/1I1/9i3a4c - b - 30 -";

/// Each `(position, lines, order)`: every line reads as the order.
fn all_read_as(cases: &[(&Squares, &[&str], &str)]) {
    for (g, lines, want) in cases {
        for line in *lines {
            let got = g.read_order(line).map(|o| o.to_string());
            assert_eq!(got.as_deref(), Ok(*want), "{line:?} at {g}");
        }
    }
}

#[test]
fn the_issue_phrasings_read_as_the_one_legal_order_they_fit() {
    let reserve_loss = after(AT_RESERVE, &["ATTACK G3C GR"]);
    all_read_as(&[
        (
            &game(CAV_AHEAD),
            &["move cav to G1C", "cav to g1c"],
            "MOVE B1C G1C",
        ),
        (
            &game(GRAY_CAV_AHEAD),
            &["move cav to G1C", "cav to g1c"],
            "MOVE G2CL G1C",
        ),
        (
            &game(GRAY_ATTACK),
            &["attack G1C from G2CR supported by G2CL"],
            "ATTACK G2CR G1C SUPPORT G2CL",
        ),
        (
            &game(DEEP),
            &["attack from G2L to G3L, support G3C"],
            "ATTACK G2L G3L SUPPORT G3C",
        ),
        (
            &game(CAV_FIGHT),
            &[
                "Attack the cavalry in G1C with my infantry from G2CR, supported by the cavalry in G2CL",
            ],
            "ATTACK G2CR G1C SUPPORT G2CL",
        ),
        (&reserve_loss, &["remove one infantry please"], "LOSE INFANTRY"),
    ]);
}

#[test]
fn moves_read_in_natural_phrasings() {
    all_read_as(&[
        (
            &game(CAV_AHEAD),
            &[
                "move my cavalry to G1C please.",
                "Move the cavalry in B1C to G1C!",
                "move my cavalry from B1C to G1C",
                "cavalry from B1C to G1C",
                "to G1C from B1C",
                "MOVE TO G1C",
                "I move the cav to g1c",
                "move one cavalry to G1C, please",
                "go to G1C with the cavalry",
                "move the unit in B1C to G1C",
                "move the piece at B1C forward to G1C",
            ],
            "MOVE B1C G1C",
        ),
        (
            &game(OPENING),
            &[
                "move my cavalry from reserve to B3C",
                "move my cavalry from the reserve to B3C.",
                "move one cavalry from reserve into b3c!",
                "cavalry out of the reserve to B3C",
                "move cav from Blue's reserve to B3C",
                "to B3C from the reserve, cavalry",
                "move a cav from my reserve to B3C please",
            ],
            "MOVE CAVALRY BR B3C",
        ),
        (
            &game(OPENING),
            &[
                "move cav to B2CR",
                "move my cavalry from the reserve to B3R then B2CR",
                "move the cavalry from reserve via B3C to B2CR",
                "to B2CR via B3R from the reserve",
            ],
            "MOVE CAVALRY BR B3R B2CR",
        ),
        (
            &game(OPENING),
            &[
                "move infantry to B3L",
                "move one infantry from reserve to B3L",
            ],
            "MOVE INFANTRY BR B3L",
        ),
        (
            &game(FRONT),
            &[
                "move from B1C to B2CR",
                "move to B2CR from B1C",
                "move the infantry in B1C to B2CR",
                "my infantry from B1C to B2CR, please",
                "I move B1C to B2CR.",
                "b1c to b2cr",
            ],
            "MOVE B1C B2CR",
        ),
        (
            &game(OPENING),
            &[
                "move cav from reserve to B3C and cav from reserve to B3R",
                "move one cavalry to B3R and one cavalry to B3C",
            ],
            "MOVE CAVALRY BR B3R, CAVALRY BR B3C",
        ),
        (
            &game(OPENING),
            &["pass please", "Pass.", "PASS!", "I pass", "we pass, thanks"],
            "PASS",
        ),
    ]);
}

#[test]
fn attacks_read_in_natural_phrasings() {
    all_read_as(&[
        (
            &game(GRAY_ATTACK),
            &[
                "attack G1C from G2CR with G2CL in support",
                "attack G1C with G2CR and G2CL in support",
                "attack G1C with G2CR, G2CL in support",
                "infantry G2CR attacks G1C, support from G2CL",
                "G2CR attacks G1C, G2CL supporting",
                "g2cr attacks g1c supported by g2cl.",
                "attack g1c from g2cr, with support from g2cl!",
                "Attack the infantry in G1C with my infantry from G2CR, supported by the infantry in G2CL",
                "from G2CR attack G1C, supported by G2CL",
                "supported by G2CL, attack G1C from G2CR",
                "attack G1C supported by G2CL",
                "attack G1C from G2CR, supported",
                "G2CR x G1C supported by G2CL",
                "attack G2CR G1C with G2CL",
                "charge G1C from G2CR backed by G2CL",
                "attack on G1C by G2CR supported by G2CL",
                "G2CR attacks G1C with support of G2CL",
                "attack G1C from G2CR (supported by G2CL)",
                "G2CR attacks G1C; G2CL in support",
            ],
            "ATTACK G2CR G1C SUPPORT G2CL",
        ),
        (
            &game(GRAY_ATTACK),
            &[
                "attack G1C from G2CR",
                "attack G1C with G2CR",
                "G2CR attacks G1C",
                "attack G1C from G2CR alone",
                "attack G1C from G2CR without support",
                "the infantry in G2CR attacks G1C, unsupported",
            ],
            "ATTACK G2CR G1C",
        ),
        (
            &game(DEEP),
            &[
                "attack G3L from G2L, support G3C",
                "attack G3L from G2L supported by G3C.",
                "attack G3L with G2L, G3C supporting",
                "G2L attacks G3L with G3C in support",
            ],
            "ATTACK G2L G3L SUPPORT G3C",
        ),
        (
            &game(CAV_FIGHT),
            &[
                "attack the cavalry with my infantry, supported by my cavalry",
                "attack G1C with my infantry, supported by the cavalry in G2CL",
            ],
            "ATTACK G2CR G1C SUPPORT G2CL",
        ),
        (
            &game(CAV_FIGHT),
            &["attack G1C with G2CL", "the cavalry in G2CL attacks G1C alone"],
            "ATTACK G2CL G1C",
        ),
        (
            &game(AT_RESERVE),
            &[
                "attack the enemy reserve from G3C",
                "attack Gray's reserve with G3C",
                "attack the enemy reserve",
            ],
            "ATTACK G3C GR",
        ),
        (
            &game(FRONT),
            &[
                "attack G1C with B1C and B1CL in support",
                "B1C and B1CL attack G1C",
                "attack B1C G1C supported",
                "infantry B1C attacks G1C, support from B1CL",
                "attack G1C from B1C, B1CL supporting!",
            ],
            "ATTACK B1C G1C SUPPORT B1CL",
        ),
    ]);
}

#[test]
fn decisions_read_in_natural_phrasings() {
    let flank = after(FLANK, &["ATTACK B3C B2CR SUPPORT B1C"]);
    let defence = after(FRONT, &["ATTACK B1C G1C SUPPORT B1CL"]);
    let option = after(FRONT, &["ATTACK B1C G1C SUPPORT B1CL", "STAND"]);
    let advance = after(FRONT, &["ATTACK B1C G1C SUPPORT B1CL", "STAND", "OPTION 2"]);
    let loss = after(AT_RESERVE, &["ATTACK G3C GR"]);
    all_read_as(&[
        (
            &flank,
            &[
                "I retreat to B1R",
                "retreat to B1R.",
                "my cavalry retreats to B1R",
                "the cavalry in B2CR retreats to B1R!",
                "fall back to B1R please",
                "retreat from B2CR to B1R",
            ],
            "RETREAT B1R",
        ),
        (
            &defence,
            &[
                "I retreat to the reserve",
                "my infantry retreats to GR",
                "retreat from G1C",
                "withdraw to GR",
            ],
            "RETREAT GR",
        ),
        (
            &defence,
            &[
                "we stand",
                "I will stand firm",
                "no retreat!",
                "hold the line",
                "the infantry in G1C stands.",
            ],
            "STAND",
        ),
        (
            &option,
            &[
                "I choose option 2",
                "option two, please",
                "let's take option 2.",
            ],
            "OPTION 2",
        ),
        (
            &advance,
            &[
                "advance!",
                "I advance into G1C",
                "my infantry advances into G1C",
            ],
            "ADVANCE",
        ),
        (
            &advance,
            &[
                "stay put",
                "do not advance",
                "we stay.",
                "no advance please",
            ],
            "STAY",
        ),
        (
            &loss,
            &[
                "remove one infantry please",
                "I lose one infantry.",
                "lose an inf",
                "remove 1 infantry!",
            ],
            "LOSE INFANTRY",
        ),
        (
            &loss,
            &["I lose a cavalry", "remove one cav"],
            "LOSE CAVALRY",
        ),
    ]);
}

#[test]
fn a_line_several_legal_orders_fit_is_refused_with_them_all() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            CAV_AHEAD,
            "move cav to B3C",
            &["MOVE B1C B2CR B3C", "MOVE CAVALRY BR B3C"],
        ),
        (
            GRAY_ATTACK,
            "attack G1C",
            &[
                "ATTACK G2CL G1C",
                "ATTACK G2CL G1C SUPPORT G2CR",
                "ATTACK G2CR G1C",
                "ATTACK G2CR G1C SUPPORT G2CL",
            ],
        ),
        (
            GRAY_ATTACK,
            "attack G1C, supported",
            &[
                "ATTACK G2CL G1C SUPPORT G2CR",
                "ATTACK G2CR G1C SUPPORT G2CL",
            ],
        ),
        (
            CAV_FIGHT,
            "attack G1C with my cavalry",
            &["ATTACK G2CL G1C", "ATTACK G2CL G1C SUPPORT G2CR"],
        ),
        // either may attack with the other in support
        (
            GRAY_ATTACK,
            "G2CR and G2CL attack G1C",
            &[
                "ATTACK G2CL G1C SUPPORT G2CR",
                "ATTACK G2CR G1C SUPPORT G2CL",
            ],
        ),
        (
            FRONT,
            "move B1C",
            &["MOVE B1C B1CR", "MOVE B1C B2CL", "MOVE B1C B2CR"],
        ),
        (
            OPENING,
            "move from reserve to B3C",
            &[
                "MOVE ARTILLERY BR B3C",
                "MOVE CAVALRY BR B3C",
                "MOVE INFANTRY BR B3C",
            ],
        ),
    ];
    for (position, line, want) in cases {
        let r = read(position, line).unwrap_err();
        let mut got = r.suggestions.clone();
        got.sort();
        assert_eq!(got, *want, "{line:?} at {position}: {r}");
    }
}

#[test]
fn a_line_that_fits_no_legal_order_is_never_taken() {
    let cases: &[(&str, &str, &str)] = &[
        // no cavalry reaches G1C
        (OPENING, "move cav to G1C", "no legal move fits"),
        // only the cavalry reaches G1C
        (CAV_AHEAD, "move infantry to G1C", "no legal move fits"),
        // G1C holds infantry
        (
            GRAY_ATTACK,
            "attack the cavalry in G1C from G2CR supported by G2CL",
            "the unit in G1C is infantry, not cavalry",
        ),
        (
            GRAY_ATTACK,
            "attack G1C from G2CR with my cavalry",
            "no cavalry takes part",
        ),
        // the written order names G1C the attacker: never swapped
        (GRAY_ATTACK, "attack G1C G2CR", "no unit of yours in G1C"),
        (
            FRONT,
            "move the artillery in B1C to B2CR",
            "is infantry, not artillery",
        ),
        (
            FRONT,
            "attack G1C from B1C, supported by the cavalry in B1CL",
            "not cavalry",
        ),
    ];
    for (position, line, says) in cases {
        let r = match read(position, line) {
            Ok(o) => panic!("{line:?} at {position} was taken as {o}"),
            Err(r) => r,
        };
        assert!(r.problem.contains(says), "{line:?}: {r}");
        assert!(!r.suggestions.is_empty(), "{line:?}: {r}");
        let legal: Vec<String> = game(position)
            .legal_orders()
            .iter()
            .map(Order::to_string)
            .collect();
        for s in &r.suggestions {
            assert!(legal.contains(s), "{line:?} suggests unlisted {s}");
        }
    }
}

#[test]
fn words_that_change_the_meaning_are_never_skipped() {
    // A question, a negation, a condition: refused, whatever the rest says.
    for (position, line) in [
        (GRAY_ATTACK, "can I attack G1C from G2CR supported by G2CL?"),
        (GRAY_ATTACK, "don't attack G1C from G2CR"),
        (GRAY_ATTACK, "do not attack G1C from G2CR"),
        (GRAY_ATTACK, "if possible attack G1C from G2CR"),
        (CAV_AHEAD, "never move cav to G1C"),
        (CAV_AHEAD, "should I move cav to G1C"),
    ] {
        let r = match read(position, line) {
            Ok(o) => panic!("{line:?} at {position} was taken as {o}"),
            Err(r) => r,
        };
        assert!(r.rule.is_none(), "{line:?}: {r}");
        assert!(!r.suggestions.is_empty(), "{line:?}: {r}");
    }
}

#[test]
fn a_refused_line_offers_the_nearest_orders_even_when_nothing_is_near() {
    for (position, line) in [
        (FRONT, "Hello Bob, here is my move"),
        (FRONT, "G1C"),
        (FRONT, "xyzzy"),
        (OPENING, "move cav to G1C"),
        (GRAY_ATTACK, "attack B3C"),
        (FRONT, "PASS B1C"),
    ] {
        let r = read(position, line).unwrap_err();
        assert!(!r.suggestions.is_empty(), "{line:?}: {r}");
    }
    // Orders of the square named come first.
    let r = read(FRONT, "G1C").unwrap_err();
    assert!(r.suggestions[0].contains("G1C"), "{r}");
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

/// The short unit word players write (N24 for the variant's types).
fn short_word(name: &str) -> &'static str {
    match name {
        "infantry" => "inf",
        "guard" => "gua",
        "light infantry" => "li",
        "artillery" => "art",
        "horse battery" => "hb",
        "cavalry" => "cav",
        "heavy cavalry" => "hc",
        _ => "",
    }
}

fn abbreviation(step: &Step) -> String {
    match step.unit {
        Some(k) => format!("{} ", short_word(&k.to_string())),
        None => String::new(),
    }
}

fn styled_step(step: &Step, style: Style, n: &Notation) -> String {
    let unit = match style {
        Style::Long => step.unit.map(|k| format!("{k} ")).unwrap_or_default(),
        _ => abbreviation(step),
    };
    let squares: Vec<String> = std::iter::once(step.from)
        .chain(step.via)
        .chain(std::iter::once(step.to))
        .map(|s| s.display_in(n).to_string())
        .collect();
    let (from, to) = (step.from.display_in(n), step.to.display_in(n));
    match style {
        Style::Long => match step.via {
            Some(v) => format!("{unit}from {from} via {} to {to}", v.display_in(n)),
            None => format!("{unit}from {from} to {to}"),
        },
        Style::Dash => format!("{unit}{}", squares.join("-")),
        Style::Abbreviated if is_reserve(step.from) => {
            format!("{unit}from {} to {}", squares[0], squares[1..].join(" "))
        }
        _ => format!("{unit}{}", squares.join(" ")),
    }
}

fn styled(order: &Order, style: Style, n: &Notation) -> String {
    let canonical = order.display_in(n).to_string();
    match style {
        Style::Canonical => return canonical,
        Style::Lower => return canonical.to_lowercase(),
        _ => {}
    }
    match order {
        Order::Move(step) => match style {
            Style::Long => format!("MOVE {}", styled_step(step, style, n)),
            Style::Dash | Style::Spaced => styled_step(step, style, n),
            _ => format!("move {}", styled_step(step, style, n)),
        },
        Order::MoveTwo(a, b) => match style {
            Style::Long => format!(
                "MOVE {} and {}",
                styled_step(a, style, n),
                styled_step(b, style, n)
            ),
            Style::Dash | Style::Spaced => {
                format!("{}, {}", styled_step(a, style, n), styled_step(b, style, n))
            }
            _ => format!(
                "mv {} & {}",
                styled_step(a, style, n),
                styled_step(b, style, n)
            ),
        },
        Order::Attack {
            attacker,
            target,
            support,
        } => {
            let (attacker, target) = (attacker.display_in(n), target.display_in(n));
            match (style, support.map(|s| s.display_in(n))) {
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
            }
        }
        Order::Retreat(chain) => {
            let squares: Vec<String> = chain
                .squares()
                .iter()
                .map(|s| s.display_in(n).to_string())
                .collect();
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
        // The variant's lists (N24, N36): a bare number reads in the list
        // the attack offers.
        Order::GrandBattery(n) | Order::HorseBattery(n) => {
            let list = if matches!(order, Order::GrandBattery(_)) {
                "GB"
            } else {
                "HB"
            };
            match style {
                Style::Long => format!("Option {list} {n}"),
                Style::Dash => format!("{}{n}", list.to_lowercase()),
                Style::Spaced => n.to_string(),
                _ => format!("opt {n}"),
            }
        }
        Order::Lose(kind) => match style {
            Style::Dash | Style::Spaced => kind.to_string(),
            _ => format!("lose {}", short_word(&kind.to_string())),
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
                let text = styled(&order, style, &CIVIL_WAR);
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

// ----- the Napoleonic variant (N1, N24, N36) ---------------------------------------

/// P01 of docs/napoleonic-design.md: the opening, the British to move.
const NAP_OPENING: &str = "6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -";
/// The opening with the French to move.
const NAP_OPENING_FRENCH: &str = "6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - f - 1 -";
/// P41: artillery in B1C and B1CL against French infantry in F1C: a Grand
/// Battery (N18).
const NAP_GRAND: &str = "6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -";
/// P46: the horse battery in B1C, infantry in B1CL, French infantry in F1C (N19).
const NAP_HORSE: &str = "5IG2L2A3CK/3/4/2/2HI1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -";
/// P37: the French to move, cavalry in F2L and F2CL, British heavy cavalry in F1L.
const NAP_FRENCH_FRONT: &str = "6IG2L2AH3C/3/4/2/5/2/K4/2/cc2/3/6ig2l2ahck - f - 20 -";
/// P59: a British cavalry in F3C next to the French reserve.
const NAP_RESERVE: &str = "6IG2L2AH2CK/3/4/2/5/2/5/2/4/1C1/6ig2l2ah3ck - b - 20 -";
/// P11: British infantry in B1C and B1CL, French cavalry in F1C.
const NAP_CAVALRY_FRONT: &str = "5IG2L2AH2CK/3/4/2/2IC1/2/2c2/2/4/3/6ig2l2ah2ck - b - 20 -";

fn nap_game(position: &str) -> Napoleonic {
    Napoleonic::from_position(&format!("napoleonic {position}")).expect("a test position")
}

fn nap_after(position: &str, orders: &[&str]) -> Napoleonic {
    let mut g = nap_game(position);
    for o in orders {
        let order = g.parse_order(o).expect("a canonical order");
        g.apply(&order).expect("a legal order");
    }
    g
}

fn nap_read(g: &Napoleonic, line: &str) -> Result<String, orderly::games::Rejection> {
    g.read_order(line).map(|o| o.to_string())
}

/// Every suggestion of a rejection is a listed order of `g`.
fn suggestions_are_legal(g: &Napoleonic, r: &orderly::games::Rejection) {
    let legal: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
    for s in &r.suggestions {
        assert!(legal.contains(s), "{:?} suggests unlisted {s}", r.line);
    }
}

#[test]
fn n36_the_variants_words_read_as_its_canonical_orders() {
    let cases: &[(&str, &str, &str)] = &[
        // docs/napoleonic-design.md section 5, n36
        (
            NAP_OPENING,
            "move light infantry from reserve to B3C",
            "MOVE LIGHT BR B3C",
        ),
        (NAP_OPENING, "horse BR-B3C", "MOVE HORSE BR B3C"),
        (NAP_OPENING, "heavy cavalry BR B3C", "MOVE HEAVY BR B3C"),
        (
            NAP_OPENING,
            "British: MOVE GUARD BR B3C",
            "MOVE GUARD BR B3C",
        ),
        // every unit word and abbreviation (N24, N36)
        (NAP_OPENING, "MOVE LI BR B3C", "MOVE LIGHT BR B3C"),
        (NAP_OPENING, "light inf BR B3L", "MOVE LIGHT BR B3L"),
        (NAP_OPENING, "MOVE LIGHT BR B3R", "MOVE LIGHT BR B3R"),
        (NAP_OPENING, "gua BR B3L", "MOVE GUARD BR B3L"),
        (
            NAP_OPENING,
            "move the guards from British reserve to B3L",
            "MOVE GUARD BR B3L",
        ),
        (NAP_OPENING, "hb BR B3R B2R", "MOVE HORSE BR B3R B2R"),
        (NAP_OPENING, "horse battery BR B2R", "MOVE HORSE BR B3R B2R"),
        (NAP_OPENING, "horse artillery BR-B3C", "MOVE HORSE BR B3C"),
        (NAP_OPENING, "hc BR B3C", "MOVE HEAVY BR B3C"),
        (NAP_OPENING, "heavy horse BR B3C", "MOVE HEAVY BR B3C"),
        (
            NAP_OPENING,
            "move heavy BR B3L B2L",
            "MOVE HEAVY BR B3L B2L",
        ),
        (NAP_OPENING, "cav BR B3C", "MOVE CAVALRY BR B3C"),
        (NAP_OPENING, "inf BR B3C", "MOVE INFANTRY BR B3C"),
        (NAP_OPENING, "art BR B3C", "MOVE ARTILLERY BR B3C"),
        // N37: a pair written the other way round is the listed one
        (
            NAP_OPENING,
            "MOVE HEAVY BR B3C, CAVALRY BR B3R",
            "MOVE CAVALRY BR B3R, HEAVY BR B3C",
        ),
        (
            NAP_OPENING,
            "heavy cavalry BR B3C and cav BR B3R",
            "MOVE CAVALRY BR B3R, HEAVY BR B3C",
        ),
        // F codes, and the G codes N1 also reads, for the French half
        (
            NAP_OPENING_FRENCH,
            "MOVE INFANTRY FR F3C",
            "MOVE INFANTRY FR F3C",
        ),
        (
            NAP_OPENING_FRENCH,
            "MOVE INFANTRY GR G3C",
            "MOVE INFANTRY FR F3C",
        ),
        (
            NAP_OPENING_FRENCH,
            "move inf from French reserve to f3c",
            "MOVE INFANTRY FR F3C",
        ),
        (
            NAP_OPENING_FRENCH,
            "French: gua FR-F3L",
            "MOVE GUARD FR F3L",
        ),
        (
            NAP_OPENING_FRENCH,
            "hb from reserve to G2CL",
            "MOVE HORSE FR F3L F2CL",
        ),
        (
            NAP_FRENCH_FRONT,
            "F2L x F1L + F2CL",
            "ATTACK F2L F1L SUPPORT F2CL",
        ),
        (
            NAP_FRENCH_FRONT,
            "attack from G2L to G1L support from G2CL",
            "ATTACK F2L F1L SUPPORT F2CL",
        ),
        (
            NAP_FRENCH_FRONT,
            "f2lxf1l with g2cl",
            "ATTACK F2L F1L SUPPORT F2CL",
        ),
        (NAP_FRENCH_FRONT, "F2CL-F1CL", "MOVE F2CL F1CL"),
        (NAP_FRENCH_FRONT, "MOVE from G2CL to G1CL", "MOVE F2CL F1CL"),
    ];
    for (position, line, want) in cases {
        let got = nap_read(&nap_game(position), line);
        assert_eq!(got.as_deref(), Ok(*want), "{line:?} at {position}");
    }
}

#[test]
fn n36_option_numbers_read_in_the_offered_list() {
    let grand = nap_after(NAP_GRAND, &["ATTACK B1C F1C SUPPORT B1CL", "STAND"]);
    let horse = nap_after(NAP_HORSE, &["ATTACK B1C F1C SUPPORT B1CL", "STAND"]);
    let cases: &[(&Napoleonic, &str, &str)] = &[
        (&grand, "opt 1", "OPTION GB1"),
        (&grand, "GB 1", "OPTION GB1"),
        (&grand, "OPTION GB1", "OPTION GB1"),
        (&grand, "gb2", "OPTION GB2"),
        (&grand, "OPTION 2", "OPTION GB2"),
        (&grand, "2", "OPTION GB2"),
        (&grand, "option three", "OPTION GB3"),
        (&horse, "OPTION 2", "OPTION HB2"),
        (&horse, "opt 2", "OPTION HB2"),
        (&horse, "2", "OPTION HB2"),
        (&horse, "HB 2", "OPTION HB2"),
        (&horse, "hb2", "OPTION HB2"),
        (&horse, "Option HB 5", "OPTION HB5"),
        (&horse, "opt 4", "OPTION HB4"),
    ];
    for (g, line, want) in cases {
        assert_eq!(nap_read(g, line).as_deref(), Ok(*want), "{line:?} at {g}");
    }
}

#[test]
fn n36_an_option_of_another_list_is_refused_with_the_offered_list() {
    let grand = nap_after(NAP_GRAND, &["ATTACK B1C F1C SUPPORT B1CL", "STAND"]);
    let offered = "OPTION GB1, OPTION GB2, OPTION GB3";
    for line in ["OPTION 4", "option 5", "HB 2", "OPTION HB1"] {
        let r = grand.read_order(line).unwrap_err();
        assert_eq!(r.rule.map(|r| r.0), Some("N18"), "{line}: {r}");
        assert!(r.problem.contains(offered), "{line}: {r}");
        assert_eq!(r.suggestions.len(), 3, "{line}: {r}");
        suggestions_are_legal(&grand, &r);
    }
    // The option with the number written is offered first.
    let r = grand.read_order("HB 2").unwrap_err();
    assert_eq!(r.suggestions[0], "OPTION GB2", "{r}");
    // GB4 names no option at all: unreadable, the list offered instead.
    let r = grand.read_order("GB4").unwrap_err();
    assert!(r.rule.is_none(), "{r}");
    assert!(r.problem.contains("there is no option GB4"), "{r}");
    assert!(r.problem.contains("GB1 to GB3"), "{r}");
    assert_eq!(r.suggestions, ["OPTION GB1", "OPTION GB2", "OPTION GB3"]);

    let horse = nap_after(NAP_HORSE, &["ATTACK B1C F1C SUPPORT B1CL", "STAND"]);
    let r = horse.read_order("GB 1").unwrap_err();
    assert_eq!(r.rule.map(|r| r.0), Some("N19"), "{r}");
    assert!(r.problem.contains("OPTION HB1, OPTION HB2"), "{r}");
    suggestions_are_legal(&horse, &r);
    let r = horse.read_order("option 7").unwrap_err();
    assert_eq!(r.rule.map(|r| r.0), Some("N19"), "{r}");

    // Where options 1-5 are offered (heavy cavalry attacking, N17), a Grand
    // Battery option is refused with them (R19).
    let general = nap_after(
        "5IG2L2AH3C/3/4/2/2KI1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -",
        &["ATTACK B1C F1C SUPPORT B1CL", "STAND"],
    );
    assert_eq!(nap_read(&general, "opt 4").as_deref(), Ok("OPTION 4"));
    let r = general.read_order("GB 1").unwrap_err();
    assert_eq!(r.rule.map(|r| r.0), Some("R19"), "{r}");
    assert!(r.problem.contains("OPTION 1, OPTION 2"), "{r}");
}

#[test]
fn n24_the_variants_reserve_losses_are_read_by_their_words() {
    let g = nap_after(NAP_RESERVE, &["ATTACK F3C FR"]);
    for (line, want) in [
        ("lose guard", "LOSE GUARD"),
        ("LOSE GUA", "LOSE GUARD"),
        ("light infantry", "LOSE LIGHT"),
        ("lose li", "LOSE LIGHT"),
        ("hb", "LOSE HORSE"),
        ("lose horse battery", "LOSE HORSE"),
        ("lose horse", "LOSE HORSE"),
        ("heavy cavalry", "LOSE HEAVY"),
        ("hc", "LOSE HEAVY"),
        ("cav", "LOSE CAVALRY"),
        ("lose art", "LOSE ARTILLERY"),
        ("French: LOSE INFANTRY", "LOSE INFANTRY"),
    ] {
        assert_eq!(nap_read(&g, line).as_deref(), Ok(want), "{line:?}");
    }
    let r = g.read_order("lose").unwrap_err();
    assert!(
        r.problem
            .contains("INFANTRY, GUARD, LIGHT, ARTILLERY, HORSE, CAVALRY or HEAVY"),
        "{r}"
    );
    // Every type the reserve holds is offered: seven.
    assert_eq!(r.suggestions.len(), 7, "{r}");
    suggestions_are_legal(&g, &r);
}

#[test]
fn n1_the_variants_retreats_read_in_f_and_g_codes() {
    // P61: the British heavy cavalry attacks the French cavalry in F1C
    // alone; the cavalry must retreat (R24, N27).
    let g = nap_after(
        "6IG2L2AH3C/3/4/2/2K2/2/2c2/2/4/3/6ig2l2ah2ck - b - 20 -",
        &["ATTACK B1C F1C"],
    );
    for (line, want) in [
        ("retreat F2CL", "RETREAT F2CL"),
        ("RETREAT G2CL", "RETREAT F2CL"),
        ("f2cr", "RETREAT F2CR"),
        ("retreat F1C F2CR", "RETREAT F2CR"),
        ("French: RETREAT to G2CR", "RETREAT F2CR"),
    ] {
        assert_eq!(nap_read(&g, line).as_deref(), Ok(want), "{line:?}");
    }
    let r = g.read_order("stand").unwrap_err();
    assert_eq!(r.rule.map(|r| r.0), Some("R24"), "{r}");
    assert_eq!(r.suggestions, ["RETREAT F2CL", "RETREAT F2CR"]);
}

#[test]
fn n36_natural_phrasings_read_in_the_variants_words() {
    let cases: &[(Napoleonic, &[&str], &str)] = &[
        (
            nap_game(NAP_FRENCH_FRONT),
            &[
                "attack the heavy cavalry in F1L with my cavalry from F2L, supported by the cavalry in F2CL",
                "Attack F1L from F2L supported by F2CL.",
                "attack G1L from G2L supported by G2CL",
                "cav F2L attacks F1L, support from F2CL",
                "French: attack the heavy cavalry with my cavalry from F2L, F2CL in support!",
                "attack F1L with F2L and F2CL in support",
            ],
            "ATTACK F2L F1L SUPPORT F2CL",
        ),
        (
            nap_game(NAP_FRENCH_FRONT),
            &["move cav from F2CL to F1CL", "French: move my cavalry from G2CL to G1CL please"],
            "MOVE F2CL F1CL",
        ),
        (
            nap_game(NAP_OPENING),
            &[
                "move the light infantry from the reserve to B3C",
                "move one light infantry from British reserve into B3C.",
                "li from reserve to B3C",
            ],
            "MOVE LIGHT BR B3C",
        ),
        (
            nap_game(NAP_OPENING),
            &[
                "move my guard from the British reserve to B3L please",
                "move the guards to B3L",
            ],
            "MOVE GUARD BR B3L",
        ),
        (
            nap_game(NAP_OPENING),
            &[
                "move one horse battery from reserve to B2R",
                "move the horse artillery via B3R to B2R",
                "hb to B2R!",
            ],
            "MOVE HORSE BR B3R B2R",
        ),
        (
            nap_game(NAP_OPENING),
            &["move the heavy cavalry from reserve to B3C!", "heavy horse to B3C"],
            "MOVE HEAVY BR B3C",
        ),
        (nap_game(NAP_OPENING), &["move horse to B3C"], "MOVE HORSE BR B3C"),
        (nap_game(NAP_OPENING), &["move cavalry to B3C"], "MOVE CAVALRY BR B3C"),
        (
            nap_game(NAP_GRAND),
            &[
                "attack the infantry in F1C with my artillery from B1C, supported by the artillery in B1CL",
                "artillery B1C attacks F1C, support from B1CL",
            ],
            "ATTACK B1C F1C SUPPORT B1CL",
        ),
        (
            nap_game(NAP_HORSE),
            &[
                "the horse battery in B1C attacks F1C, infantry B1CL supporting",
                "attack F1C with the horse battery, supported by my infantry",
            ],
            "ATTACK B1C F1C SUPPORT B1CL",
        ),
        (
            nap_after(NAP_RESERVE, &["ATTACK F3C FR"]),
            &["remove one guard please", "I lose the guard."],
            "LOSE GUARD",
        ),
        (
            nap_after(NAP_RESERVE, &["ATTACK F3C FR"]),
            &["remove one light infantry please", "lose a light inf!"],
            "LOSE LIGHT",
        ),
        (
            nap_after(NAP_RESERVE, &["ATTACK F3C FR"]),
            &["remove one horse battery", "I lose one hb."],
            "LOSE HORSE",
        ),
        (
            nap_after(NAP_RESERVE, &["ATTACK F3C FR"]),
            &["remove one heavy cavalry please"],
            "LOSE HEAVY",
        ),
        (
            nap_after(NAP_GRAND, &["ATTACK B1C F1C SUPPORT B1CL", "STAND"]),
            &["I choose option 2", "option GB2 please", "let's take option two."],
            "OPTION GB2",
        ),
        (nap_game(NAP_OPENING), &["pass please", "Pass!"], "PASS"),
    ];
    for (g, lines, want) in cases {
        for line in *lines {
            assert_eq!(nap_read(g, line).as_deref(), Ok(*want), "{line:?} at {g}");
        }
    }
    // Ambiguous: the attacks on F1L are offered, none taken.
    let g = nap_game(NAP_FRENCH_FRONT);
    let r = g.read_order("attack F1L").unwrap_err();
    assert!(r.suggestions.len() >= 2, "{r}");
    assert!(r.suggestions.iter().all(|s| s.contains("F1L")), "{r}");
    suggestions_are_legal(&g, &r);
    // Fits nothing: the unit in F1L is heavy cavalry, never silently taken.
    let r = g
        .read_order("attack the guard in F1L from F2L supported by F2CL")
        .unwrap_err();
    assert!(r.problem.contains("heavy cavalry, not guard"), "{r}");
    assert!(!r.suggestions.is_empty(), "{r}");
    suggestions_are_legal(&g, &r);
}

#[test]
fn the_variants_mistakes_are_answered_in_its_words() {
    let opening = nap_game(NAP_OPENING);
    let r = opening.read_order("MOVE LIGTH BR B3C").unwrap_err();
    assert!(r.problem.contains("did you mean LIGHT"), "{r}");
    assert!(
        r.suggestions.contains(&"MOVE LIGHT BR B3C".to_string()),
        "{r}"
    );
    // A misspelt first word of a two-word name still makes one unit word.
    let r = opening
        .read_order("move lihgt infantry BR B3C")
        .unwrap_err();
    assert!(
        r.suggestions.contains(&"MOVE LIGHT BR B3C".to_string()),
        "{r}"
    );
    let r = opening.read_order("MOVE GAURD BR B3C").unwrap_err();
    assert!(r.problem.contains("did you mean GUARD"), "{r}");
    // BLUE is no side of this game (N1).
    let r = opening.read_order("Blue: MOVE GUARD BR B3C").unwrap_err();
    assert!(r.problem.contains("\"BLUE\" is not a word"), "{r}");
    // A French square mistyped is corrected with F codes, never G codes.
    let french = nap_game(NAP_OPENING_FRENCH);
    let r = french.read_order("move inf FR F3X").unwrap_err();
    assert!(r.problem.contains("\"F3X\" is not a square"), "{r}");
    assert!(
        r.problem.contains("F3C") && !r.problem.contains("G3C"),
        "{r}"
    );
    assert!(
        r.suggestions.contains(&"MOVE INFANTRY FR F3C".to_string()),
        "{r}"
    );
    let r = french.read_order("MOVE X9 F3C").unwrap_err();
    assert!(
        r.problem.contains("(codes such as B1C, F2CR, NWF, BR)"),
        "{r}"
    );
    // N7: infantry may not be the attacking unit against cavalry.
    let g = nap_game(NAP_CAVALRY_FRONT);
    let r = g.read_order("B1C x F1C + B1CL").unwrap_err();
    assert_eq!(r.rule.map(|r| r.0), Some("N7"), "{r}");
    assert!(r.suggestions.iter().all(|s| !s.contains("G1")), "{r}");
    suggestions_are_legal(&g, &r);
}

#[test]
fn the_civil_war_game_keeps_its_words() {
    // HORSE is cavalry in the Civil War game; F codes, the variant's sides,
    // types and option lists are no words of it.
    assert_eq!(
        read(OPENING, "horse BR-B3C").as_deref(),
        Ok("MOVE CAVALRY BR B3C")
    );
    assert_eq!(
        read(OPENING, "guns BR B3C").as_deref(),
        Ok("MOVE ARTILLERY BR B3C")
    );
    let gray = "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - g - 1 -";
    assert_eq!(
        read(gray, "inf GR G3C").as_deref(),
        Ok("MOVE INFANTRY GR G3C")
    );
    for (position, line, word) in [
        (gray, "MOVE INFANTRY GR F3C", "F3C"),
        (gray, "MOVE INFANTRY FR G3C", "FR"),
        (OPENING, "British: MOVE INFANTRY BR B3C", "BRITISH"),
        (OPENING, "MOVE GUARD BR B3C", "GUARD"),
        (OPENING, "move hb BR B3C", "HB"),
        (OPENING, "move light infantry BR B3C", "LIGHT"),
    ] {
        let r = read(position, line).unwrap_err();
        assert!(r.rule.is_none(), "{line}: {r}");
        assert!(r.problem.contains(&format!("{word:?}")), "{line}: {r}");
    }
    let option = after(FRONT, &["ATTACK B1C G1C SUPPORT B1CL", "STAND"]);
    let r = option.read_order("OPTION GB1").unwrap_err();
    assert!(r.problem.contains("\"GB1\" is not a"), "{r}");
}

proptest! {
    #![proptest_config(config(100))]

    /// Every legal order of the variant, printed in each style with its F
    /// codes and unit words (and canonically with G codes, N1), reads back
    /// as itself at random positions of play.
    #[test]
    fn nap_every_legal_order_in_every_style_reads_back_as_itself(
        seed in any::<u64>(),
        steps in 0usize..250,
    ) {
        let g = nap_play(seed, steps);
        for order in g.legal_orders() {
            let mut texts: Vec<(String, String)> = STYLES
                .iter()
                .map(|&style| {
                    let text = styled(&order.0, style, &NAPOLEONIC);
                    (text, format!("{style:?}"))
                })
                .collect();
            // Outside the variant's notation the same order prints G codes.
            texts.push((order.0.to_string(), "G codes".to_string()));
            for (text, style) in texts {
                match g.read_order(&text) {
                    Ok(read) => prop_assert_eq!(
                        &read, &order, "{:?} in {} at {}", text, style, g
                    ),
                    Err(r) => return Err(fail(format!(
                        "{text:?} ({style}) for {order} at {g}: {r}"
                    ))),
                }
            }
        }
    }
}

// ----- natural rewordings of every legal order --------------------------------------

/// The words players use for a unit type (N24, N36 for the variant's),
/// written here independently of the engine's word tables.
fn unit_names(kind: UnitKind) -> &'static [&'static str] {
    match kind.to_string().as_str() {
        "infantry" => &["infantry", "inf"],
        "guard" => &["guard", "guards"],
        "light infantry" => &["light infantry", "li", "light inf"],
        "artillery" => &["artillery", "art"],
        "horse battery" => &["horse battery", "hb", "horse artillery"],
        "cavalry" => &["cavalry", "cav"],
        "heavy cavalry" => &["heavy cavalry", "hc", "heavy horse"],
        other => panic!("no words for {other}"),
    }
}

fn shuffle<T>(rng: &mut XorShift, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// A unit type in words, with an article or none.
fn a_unit(rng: &mut XorShift, kind: UnitKind) -> String {
    let article = rng.pick(&["", "the ", "my ", "one "]);
    format!("{article}{}", rng.pick(unit_names(kind)))
}

/// A square as players name it: its code, a reserve in words, or (when
/// `qualify`) with the unit on it: "the cavalry in G1C".
fn square_words(g: &Squares, s: Space, rng: &mut XorShift, qualify: bool) -> String {
    let b = board();
    let own = g.side_to_decide().unwrap_or(g.to_move());
    if s == b.reserve(own) && rng.chance(60) {
        return rng
            .pick(&["the reserve", "my reserve", "our reserve"])
            .into();
    }
    if s == b.reserve(own.opponent()) && rng.chance(60) {
        return "the enemy reserve".into();
    }
    // The square as the game writes it: F codes in the variant (N1).
    let s_written = s.display_in(g.variant().notation());
    match g.unit_at(s) {
        Some(u) if qualify && rng.chance(40) => {
            format!("the {} in {s_written}", rng.pick(unit_names(u.kind())))
        }
        _ => s_written.to_string(),
    }
}

/// One unit's move in words, its phrases shuffled: "my cavalry from BR
/// via B3R to B2CR", "to G1C from the cavalry in B1C".
fn step_words(g: &Squares, step: &Step, rng: &mut XorShift) -> String {
    let mover = step.unit.or_else(|| g.unit_at(step.from).map(|u| u.kind()));
    // The type is needed out of a reserve (R7), optional on the board.
    let unit = match (step.unit, mover) {
        (Some(k), _) => Some(k),
        (None, Some(k)) if rng.chance(50) => Some(k),
        _ => None,
    };
    let from = square_words(g, step.from, rng, unit.is_none());
    let mut phrases = Vec::new();
    match unit {
        Some(k) if rng.chance(50) => phrases.push(format!("{} from {from}", a_unit(rng, k))),
        Some(k) => {
            phrases.push(a_unit(rng, k));
            phrases.push(format!("from {from}"));
        }
        None if !is_reserve(step.from) && rng.chance(30) => {
            phrases.push(format!("the {} {from}", rng.pick(&["unit in", "piece at"])))
        }
        None => phrases.push(format!("from {from}")),
    }
    let to = square_words(g, step.to, rng, false);
    let via = step.via.map(|v| v.display_in(g.variant().notation()));
    match via {
        Some(v) if rng.chance(30) => phrases.push(format!("to {v} then {to}")),
        Some(v) if rng.chance(50) => {
            phrases.push(format!("{} {v}", rng.pick(&["via", "through"])));
            phrases.push(format!("{} {to}", rng.pick(&["to", "into"])));
        }
        _ => phrases.push(format!("{} {to}", rng.pick(&["to", "into"]))),
    }
    shuffle(rng, &mut phrases);
    phrases.join(" ")
}

/// An order as a player might write it in a letter: role words before
/// its squares in any order, unit words, fillers, any case, trailing
/// punctuation. Every square and unit it names is the order's own, so
/// the order is the one legal order the text fits.
fn reworded(g: &Squares, order: &Order, rng: &mut XorShift) -> String {
    let number = |n: u8| ["one", "two", "three", "four", "five"][usize::from(n - 1)];
    let text = match *order {
        Order::Pass => rng
            .pick(&["pass please", "I pass.", "Pass!", "we pass, thanks"])
            .to_string(),
        Order::Move(step) => {
            let verb = rng.pick(&["move ", "I move ", "go ", ""]);
            format!("{verb}{}", step_words(g, &step, rng))
        }
        Order::MoveTwo(a, b) => {
            let verb = rng.pick(&["move ", "I move ", ""]);
            let join = rng.pick(&[" and ", ", ", " & "]);
            format!(
                "{verb}{}{join}{}",
                step_words(g, &a, rng),
                step_words(g, &b, rng)
            )
        }
        Order::Attack {
            attacker,
            target,
            support,
        } => {
            let a = square_words(g, attacker, rng, true);
            let t = square_words(g, target, rng, true);
            let mut rest = vec![match rng.below(4) {
                0 => t,
                1 => format!("on {t}"),
                2 => format!("against {t}"),
                _ => format!("to {t}"),
            }];
            match support {
                Some(s) => {
                    let s = square_words(g, s, rng, true);
                    rest.push(match rng.below(7) {
                        0 => format!("supported by {s}"),
                        1 => format!("support from {s}"),
                        2 => format!("with support from {s}"),
                        3 => format!("{s} in support"),
                        4 => format!("{s} supporting"),
                        5 => format!("+ {s}"),
                        _ => format!("backed by {s}"),
                    })
                }
                None => {
                    if rng.chance(30) {
                        rest.push(
                            rng.pick(&["alone", "unsupported", "without support"])
                                .into(),
                        );
                    }
                }
            }
            shuffle(rng, &mut rest);
            let rest = rest.join(rng.pick(&[" ", ", "]));
            match rng.below(3) {
                // The attacking unit as the subject: "infantry G2CR attacks G1C".
                0 => format!("{a} {} {rest}", rng.pick(&["attacks", "charges"])),
                1 => format!(
                    "attack {rest} {} {a}",
                    rng.pick(&["from", "with", "using", "by"])
                ),
                _ => format!("{} {a}, attack {rest}", rng.pick(&["from", "with"])),
            }
        }
        Order::Retreat(chain) => {
            let squares: Vec<String> = chain
                .squares()
                .iter()
                .map(|s| square_words(g, *s, rng, false))
                .collect();
            let path = squares.join(rng.pick(&[" then ", ", then ", " and then "]));
            // The retreating unit named, where the defender retreats.
            let who = match g.attack() {
                Some(a) if a.stage == Stage::Response && rng.chance(50) => {
                    g.unit_at(a.target).map(|u| {
                        if rng.chance(50) {
                            format!(
                                "the {} in {} retreats",
                                rng.pick(unit_names(u.kind())),
                                a.target.display_in(g.variant().notation())
                            )
                        } else {
                            format!(
                                "retreat from {}",
                                a.target.display_in(g.variant().notation())
                            )
                        }
                    })
                }
                _ => None,
            };
            match who {
                Some(who) => format!("{who} to {path}"),
                None => format!(
                    "{} to {path}",
                    rng.pick(&["retreat", "I retreat", "fall back", "withdraw"])
                ),
            }
        }
        Order::Stand => rng
            .pick(&[
                "I stand",
                "we stand firm",
                "no retreat",
                "hold the line",
                "stand please",
            ])
            .to_string(),
        Order::Option(n) | Order::GrandBattery(n) | Order::HorseBattery(n) => match rng.below(3) {
            0 => format!("I choose option {n}"),
            1 => format!("option {} please", number(n)),
            _ => format!("let's take option {n}"),
        },
        Order::Advance => match g.attack() {
            Some(a) if rng.chance(50) => format!(
                "I advance into {}",
                a.target.display_in(g.variant().notation())
            ),
            _ => rng.pick(&["advance!", "we advance"]).to_string(),
        },
        Order::Stay => rng
            .pick(&["stay put", "do not advance", "we stay", "no advance please"])
            .to_string(),
        Order::Lose(kind) => {
            let unit = rng.pick(unit_names(kind));
            match rng.below(3) {
                0 => format!("remove one {unit} please"),
                1 => format!("I lose one {unit}"),
                _ => format!("lose a {unit}"),
            }
        }
    };
    let text = match rng.below(4) {
        0 => text.to_lowercase(),
        1 => text.to_uppercase(),
        _ => text,
    };
    format!("{text}{}", rng.pick(&["", ".", "!", " "]))
}

/// A seed from a test case's inputs, for the rewordings.
fn seed_of(values: &[u32]) -> u64 {
    values
        .iter()
        .fold(0xC0FF_EE00_u64, |h, v| h.rotate_left(7) ^ u64::from(*v))
}

proptest! {
    #![proptest_config(config(100))]

    /// Every legal order, written in natural rewordings (role phrases
    /// shuffled, unit words, fillers, any case, punctuation), reads back as
    /// itself at random positions of play: the one legal order it fits.
    #[test]
    fn natural_rewordings_of_every_legal_order_read_back_as_it(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..160),
    ) {
        let g = play(gray_first, &choices);
        let mut rng = XorShift::new(seed_of(&choices));
        for order in g.legal_orders() {
            for _ in 0..3 {
                let text = reworded(&g, &order, &mut rng);
                match g.read_order(&text) {
                    Ok(read) => prop_assert_eq!(read, order, "{:?} at {}", text, g),
                    Err(r) => return Err(fail(format!("{text:?} for {order} at {g}: {r}"))),
                }
            }
        }
    }

    /// The same in the variant, in its words and F codes (N1, N24, N36).
    #[test]
    fn nap_natural_rewordings_of_every_legal_order_read_back_as_it(
        seed in any::<u64>(),
        steps in 0usize..250,
    ) {
        let g = nap_play(seed, steps);
        let mut rng = XorShift::new(seed ^ steps as u64);
        for order in g.legal_orders() {
            for _ in 0..3 {
                let text = reworded(g.squares(), &order.0, &mut rng);
                match g.read_order(&text) {
                    Ok(read) => prop_assert_eq!(&read, &order, "{:?} at {}", text, g),
                    Err(r) => return Err(fail(format!("{text:?} for {order} at {g}: {r}"))),
                }
            }
        }
    }
}

// ----- a refused line always has suggestions -----------------------------------------

/// Words of natural order lines, and some that fit nothing.
const PHRASE_WORDS: &[&str] = &[
    "move",
    "attack",
    "attacks",
    "retreat",
    "pass",
    "stand",
    "hold",
    "option",
    "lose",
    "remove",
    "advance",
    "stay",
    "from",
    "to",
    "into",
    "via",
    "with",
    "supported by",
    "support",
    "in",
    "in support",
    "at",
    "on",
    "against",
    "the",
    "my",
    "one",
    "please",
    "I",
    "cav",
    "inf",
    "art",
    "cavalry",
    "infantry",
    "artillery",
    "reserve",
    "enemy reserve",
    "x",
    "+",
    ",",
    "and",
    "2",
    "alone",
    "hello",
    "BR",
    "GR",
    "B3C",
    "B2CR",
    "B1C",
    "B1CL",
    "B1R",
    "G1C",
    "G1CR",
    "G2CL",
    "G2CR",
    "G3C",
    "NWF",
    "SEF",
    ".",
    "!",
];

/// The variant's words besides (N1, N24, N36).
const NAP_PHRASE_WORDS: &[&str] = &[
    "guard",
    "light infantry",
    "hb",
    "horse battery",
    "heavy cavalry",
    "hc",
    "F1C",
    "F2CR",
    "FR",
    "British",
    "French",
    "GB",
    "GB2",
    "HB2",
];

fn phrase_line() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PHRASE_WORDS), 1..9).prop_map(|w| w.join(" "))
}

fn nap_phrase_line() -> impl Strategy<Value = String> {
    let words: Vec<&'static str> = PHRASE_WORDS
        .iter()
        .chain(NAP_PHRASE_WORDS)
        .copied()
        .collect();
    prop::collection::vec(prop::sample::select(words), 1..9).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(config(300))]

    /// A line is taken only as a legal order; a refused one is offered
    /// suggestions, all legal, whenever any order is legal.
    #[test]
    fn a_refused_line_always_has_suggestions_while_orders_are_legal(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..120),
        line in phrase_line(),
    ) {
        let g = play(gray_first, &choices);
        let legal: Vec<String> = g.legal_orders().iter().map(Order::to_string).collect();
        match g.read_order(&line) {
            Ok(o) => prop_assert!(legal.contains(&o.to_string()), "{:?} read as unlisted {}", line, o),
            Err(r) => {
                prop_assert!(legal.is_empty() || !r.suggestions.is_empty(), "{:?} at {}: {}", line, g, r);
                for s in &r.suggestions {
                    prop_assert!(legal.contains(s), "{:?} suggests unlisted {}", line, s);
                }
            }
        }
    }

    /// The same in the variant.
    #[test]
    fn nap_a_refused_line_always_has_suggestions_while_orders_are_legal(
        seed in any::<u64>(),
        steps in 0usize..200,
        line in nap_phrase_line(),
    ) {
        let g = nap_play(seed, steps);
        match g.read_order(&line) {
            Ok(o) => prop_assert!(g.legal_orders().contains(&o), "{:?} read as unlisted {}", line, o),
            Err(r) => {
                prop_assert!(g.legal_orders().is_empty() || !r.suggestions.is_empty(), "{:?} at {}: {}", line, g, r);
                suggestions_are_legal(&g, &r);
            }
        }
    }
}

// ----- Brothers at War: lines as players write them ---------------------------

/// The Brothers at War reader and the service's mail reading of its lines:
/// third-person verbs and regiments' names, a fire's target in words
/// with its hex, remarks in brackets and cheers, and sentences that only
/// mention a hex told from orders written wrong.
mod brothers_at_war_lines {
    use super::common::rng::XorShift;
    use orderly::games::brothers_at_war::core::state::BrothersAtWar;
    use orderly::games::brothers_at_war::text::reader;
    use orderly::games::{Game, GameOptions, GameText};
    use orderly::service::lines::{LineReader, Reading};

    /// A regiment of the side to act whose name starts with its number
    /// (`7th Greer Infantry`) and may move: its id, its name's first two
    /// words (`7th Greer`), and a hex it may move to.
    fn moving_regiment(g: &BrothersAtWar) -> Option<(String, String, String)> {
        g.legal_orders().iter().find_map(|o| {
            let text = o.to_string();
            let (id, to) = text.split_once(" MOVE ")?;
            if id.contains(' ') || to.contains(' ') {
                return None;
            }
            let unit = g.battle.scenario.units.iter().find(|u| u.id == id)?;
            let words: Vec<&str> = unit.name.split_whitespace().take(2).collect();
            let ordinal = words.first()?.trim_end_matches(char::is_alphabetic);
            (words.len() == 2 && !ordinal.is_empty() && ordinal.bytes().all(|b| b.is_ascii_digit()))
                .then(|| (id.to_string(), words.join(" "), to.to_string()))
        })
    }

    /// A fire of one unit the side to act may order: the unit and the hex.
    fn a_fire(g: &BrothersAtWar) -> Option<(String, String)> {
        g.legal_orders().iter().find_map(|o| {
            let text = o.to_string();
            let (unit, hex) = text.split_once(" FIRE ")?;
            (!unit.contains(' ') && !hex.contains(' ')).then(|| (unit.to_string(), hex.to_string()))
        })
    }

    /// The demo battle at the first activation in which a regiment may
    /// move and a unit may fire.
    fn activation() -> BrothersAtWar {
        let mut rng = XorShift::new(3);
        let mut g = BrothersAtWar::new(&GameOptions::default());
        for _ in 0..5000 {
            if let Some(chance) = g.chance() {
                let o = g
                    .chance_order(rng.below(chance.outcomes as usize) as u32)
                    .unwrap();
                g.apply(&o).unwrap();
                continue;
            }
            if moving_regiment(&g).is_some() && a_fire(&g).is_some() {
                return g;
            }
            let legal = g.legal_orders();
            let pick = legal
                .iter()
                .find(|o| matches!(o.to_string().as_str(), "READY" | "COMMANDER STAY" | "END"))
                .or_else(|| legal.iter().find(|o| o.to_string().starts_with("PASS")))
                .unwrap_or(&legal[0])
                .clone();
            g.apply(&pick).unwrap();
        }
        panic!("no activation with a move and a fire");
    }

    /// The service's reading of mail lines in a Brothers at War game.
    fn mail_reader() -> LineReader {
        LineReader::new(
            Some("brothersatwar"),
            ["Carol Whitfield", "carol@example.net"],
        )
    }

    /// `line` as a mail carries it: the service takes it for an order
    /// (the text it gives the game), and the game reads that text.
    fn read_by_mail(g: &BrothersAtWar, line: &str) -> Result<String, String> {
        let text = match mail_reader().read(line) {
            Reading::Order(text) | Reading::Mixed(text) => text,
            other => return Err(format!("not an order by mail: {other:?}")),
        };
        g.read_order(&text)
            .map(|o| o.to_string())
            .map_err(|r| r.to_string())
    }

    #[test]
    fn third_person_verbs_articles_and_regiments_names_read_as_the_order() {
        let g = activation();
        let (id, name, to) = moving_regiment(&g).unwrap();
        let lower = name.to_ascii_lowercase();
        let step = format!("{id} MOVE {to}");
        for line in [
            format!("2. the {lower} moves to {to}"),
            format!("the {lower} moves to {to}"),
            format!("The {name} marches to {to}."),
            format!("1) {lower} advances to {to}"),
            format!("- {} charges to {to}!", id.to_ascii_lowercase()),
            format!("{id} assaults {to}"),
            format!("3. move the {lower} to {to}"),
        ] {
            assert_eq!(read_by_mail(&g, &line), Ok(step.clone()), "{line}");
        }
        let form = format!("{id} FORM");
        if g.legal_orders().iter().any(|o| o.to_string() == form) {
            assert_eq!(read_by_mail(&g, &format!("the {lower} forms")), Ok(form));
        }
        // A sentence that names a regiment and a verb is an order to the
        // service, refused by the game with what it takes: never dropped
        // as prose.
        for line in [
            format!("I think the {lower} moves to {to} next"),
            format!("{id} fires, I hope"),
        ] {
            let reading = mail_reader().read(&line);
            assert!(
                matches!(reading, Reading::Order(_) | Reading::Mixed(_)),
                "{line}: {reading:?}"
            );
            assert!(read_by_mail(&g, &line).is_err(), "{line}");
        }
    }

    #[test]
    fn a_target_in_words_with_its_hex_reads_as_a_fire_at_that_hex() {
        let g = activation();
        let (unit, hex) = a_fire(&g).unwrap();
        let fire = format!("{unit} FIRE {hex}");
        let u = unit.to_ascii_lowercase();
        for line in [
            format!("1) {u} fire on the skirmishers at {hex}"),
            format!("{u} fires at the enemy in {hex}"),
            format!("{u} fire on the rebels at {hex}."),
            format!("{u} fire on the battery on the hill at {hex}"),
            format!("{u} shoots at the Yankees near {hex}!"),
        ] {
            assert_eq!(read_by_mail(&g, &line), Ok(fire.clone()), "{line}");
        }
        // Without the hex, or with a word that changes the order, the
        // line is refused (saying what a fire takes), never read as a fire.
        for line in [
            format!("{u} fire at the skirmishers"),
            format!("{u} fire at"),
            "fire at".to_string(),
            format!("{u} fire on the battery unless it moves, at {hex}"),
            format!("{u} fire at {hex} never"),
            format!("{u} fire at {hex} 12"),
            format!("{u} fire on the skirmishers at {hex} then move"),
            format!("{u} fire at {hex} the skirmishers"),
            format!("{u} fire with the skirmishers at {hex}"),
            format!("{u} fire with the 11th at {hex}"),
            format!("{u} fire on the skirmishers and the battery at {hex}"),
            format!("{u} fire at the greer boys at {hex}"),
        ] {
            assert!(g.read_order(&line).is_err(), "{line}");
        }
        let no_hex = g
            .read_order(&format!("{u} fire at the skirmishers"))
            .unwrap_err();
        assert!(no_hex.problem.contains("by its hex"), "{no_hex}");
    }

    #[test]
    fn a_remark_in_brackets_or_a_cheer_after_the_order_changes_nothing() {
        let g = activation();
        let (id, _, to) = moving_regiment(&g).unwrap();
        let step = format!("{id} MOVE {to}");
        let m = id.to_ascii_lowercase();
        for line in [
            format!("2. {m} moves to {to} (charge!)"),
            format!("{m} moves to {to} (charge"),
            format!("{m} moves to {to}, charge!"),
            format!("{m} moves to {to} - charge!"),
            format!("{m} moves to {to}. Charge!"),
            format!("{m} moves to {to} (my last reserve)"),
            format!("{m} (the old guard) moves to {to}"),
            format!("{m} moves to {to} [as planned]"),
            format!("{m} moves to {to} (sorry, 3rd try)"),
        ] {
            assert_eq!(read_by_mail(&g, &line), Ok(step.clone()), "{line}");
            assert_eq!(
                g.read_order(&line).map(|o| o.to_string()),
                Ok(step.clone()),
                "{line}"
            );
        }
        let (unit, hex) = a_fire(&g).unwrap();
        assert_eq!(
            read_by_mail(&g, &format!("{unit} fire at {hex} (the rebels!)")),
            Ok(format!("{unit} FIRE {hex}"))
        );
        // What the order is made of counts inside brackets too: it is
        // read with the line, never dropped.
        assert_eq!(
            reader::canonical(&g, &format!("{unit} fire at {hex} (side left)")),
            Ok(format!("{unit} FIRE {hex} SIDE LEFT"))
        );
        for line in [
            format!("{m} moves to {to} (fire!)"),
            format!("{m} moves to {to} (then hold)"),
            format!("{m} moves to {to} (or 0101)"),
            format!("{m} moves to {to} (but not yet)"),
            format!("{m} moves to {to} 804"),
            format!("{m} moves to {to} then 11n moves to {to}"),
        ] {
            let refused = g.read_order(&line).unwrap_err();
            assert!(refused.is_unreadable(), "{line}: {refused}");
        }
        // A hex off the map is refused under its rule, with the unit's
        // own moves offered.
        let off = g.read_order(&format!("{m} moves to 9999")).unwrap_err();
        assert!(off.rule.is_some(), "{off}");
        assert!(
            off.suggestions
                .iter()
                .any(|s| s.starts_with(&format!("{id} "))),
            "{off}"
        );
    }

    #[test]
    fn a_sentence_that_only_mentions_a_hex_is_a_remark_and_a_broken_order_is_refused() {
        let g = activation();
        let (id, name, to) = moving_regiment(&g).unwrap();
        let r = mail_reader();
        // Sentences: no order's verb, no unit; said so, with the hex.
        for (line, mentioned) in [
            ("oops, wrong way round. via 0904 then:", "0904"),
            ("Sorry Dave, my mistake: 0904 0804", "0904, 0804"),
            ("2. hmm, 0904 then", "0904"),
        ] {
            assert_eq!(
                r.read(line),
                Reading::Prose {
                    hint: None,
                    remark: Some(mentioned.to_string())
                },
                "{line}"
            );
        }
        for line in ["2. Hello there", "3) Good luck with the ford"] {
            assert!(
                matches!(r.read(line), Reading::Prose { .. }),
                "{line}: {:?}",
                r.read(line)
            );
        }
        // An order written wrong is refused, never ignored: a line that
        // starts like one, or has nothing but an order's words.
        for line in [
            "via 0904 then:".to_string(),
            "0904 0804".to_string(),
            "2. 0904".to_string(),
            "fire at".to_string(),
            format!("{} moves to 9999", id.to_ascii_lowercase()),
            format!("{id} mvoe {to}"),
            format!("mvoe the {} to {to}", name.to_ascii_lowercase()),
        ] {
            let text = match r.read(&line) {
                Reading::Order(text) | Reading::Mixed(text) => text,
                other => panic!("{line:?} is not an order: {other:?}"),
            };
            assert!(g.read_order(&text).is_err(), "{line}");
        }
        // Other games keep their orders of squares alone, beside prose.
        let squares = LineReader::new(Some("squares"), ["Ann Lee"]);
        assert_eq!(
            squares.read("Hi Bob, B1C B2CR"),
            Reading::Order("B1C B2CR".into())
        );
    }
}
