//! The forgiving order reader: what players actually type, read into the
//! canonical [`Order`] and checked against the position.
//!
//! It accepts, in any case and spacing:
//!
//! ```text
//! MOVE G2CR G1C          MOVE from G2CR to G1C        G2CR-G1C      G2CR G1C
//! move infantry from BR to B3C     move inf from reserve to B3C     BR B3C (when only one type can go)
//! MOVE B3C B2CR B1CR     B3C B1CR (cavalry paths optional)
//! MOVE G2R G3R, G2L G3L  G2R-G3R and G2L-G3L
//! ATTACK G1C B1C SUPPORT G1CR      ATTACK from G1C to B1C support from G1CR
//! ATTACK G1C B1C G1CR    G1C x B1C + G1CR    G1C x B1C    attack G1C B1C supported by G1CR
//! PASS  STAND  HOLD  ADVANCE  ADVANCE INTO B1C  STAY  NO ADVANCE
//! RETREAT BR   RETREAT TO RESERVE   RETREAT B2CR THEN BR   (in a retreat decision: BR)
//! OPTION 2     OPT 2     (when the attacker picks an option: 2)
//! LOSE INFANTRY          LOSE INF    (when a reserve loses a unit: INF)
//! ```
//!
//! A leading list number (`1.`, `2)`), a leading side name (`Blue:`) and
//! filler words (THE, MY, PLEASE, I, ONE before a unit word, ...) are
//! skipped; a word the reader does not know refuses the line.
//!
//! Moves and attacks are read by what the line says about each square
//! ([`fit`]): role words (FROM, TO, VIA, AT, AGAINST, WITH, SUPPORTED BY,
//! IN SUPPORT, ...) fix its part wherever it is written, a unit word
//! qualifies it (`the cavalry in G1C`), and squares without a role word take
//! the parts left in canonical order. The one legal order that fits all the
//! line says is the order: `attack G1C from G2CR supported by G2CL`, `cav to
//! G1C`, `Attack the cavalry in G1C with my infantry from G2CR, supported by
//! the cavalry in G2CL`. A line that is incomplete but fits exactly one legal
//! order (`RETREAT` when one retreat exists, `ATTACK B1C` when one attack on
//! B1C is legal) is taken as that order; several that fit are offered as
//! candidates; none, and the order written goes to the rules check or the
//! nearest legal orders are offered. A refusal always carries suggestions
//! while any order is legal.
//!
//! In the Napoleonic variant (N1, N24, N36) the same forms are read in its
//! words: BRITISH and FRENCH (`British: ...`, `French reserve`) instead of
//! BLUE and GRAY; the unit words INFANTRY/INF, GUARD/GUA, LIGHT/LI/LIGHT
//! INFANTRY, ARTILLERY/ART, HORSE/HB/HORSE BATTERY/HORSE ARTILLERY,
//! CAVALRY/CAV and HEAVY/HC/HEAVY CAVALRY/HEAVY HORSE (HORSE is the horse
//! battery there, never cavalry); F codes as well as G codes for the French
//! half; and the option lists: `OPTION GB1`, `GB 1`, and, when the attack
//! offers the Grand Battery or Horse Battery list, `OPTION 1`, `opt 1` or
//! `1` for that list's option 1.

use crate::games::squares::core::attack::Stage;
use crate::games::squares::core::board::Space;
use crate::games::squares::core::order::{Chain, Order};
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::UnitKind;
use crate::games::squares::core::variant::Variant;
use crate::games::squares::engine::options::OptionsOffered;
use crate::games::squares::engine::refusal::Refusal;
use crate::games::squares::text::suggest;
use crate::games::{Game, Rejection};

mod fit;
mod misread;
mod slips;
mod words;

use misread::{legal_of, notation_of, space_of, unique, Misread};
use slips::{looks_like_code, nearest_words};
use words::{known_words, merge_unit_pairs, tokens, Marker, Token, Verb};

pub(crate) use slips::{edit_distance, order_word, slip_of};

/// Reads `line` forgivingly and checks it against the pending decision, in
/// the words and codes of the game's own notation (N1, N36).
pub(crate) fn read_checked(game: &Squares, line: &str) -> Result<Order, Rejection> {
    let notation = notation_of(game);
    let quoted = line.trim().to_string();
    // A refused line always gets something to choose from while anything
    // is legal: the nearest orders, or the best there is.
    let reject = |problem: String, rule, suggestions: Vec<Order>| {
        let suggestions = if suggestions.is_empty() {
            suggest::any(game)
        } else {
            suggestions
        };
        Rejection {
            line: quoted.clone(),
            problem,
            rule,
            suggestions: suggestions
                .iter()
                .map(|o| o.display_in(notation).to_string())
                .collect(),
        }
    };
    if game.outcome.is_some() {
        return Err(reject(
            "the game is over".into(),
            Some(Refusal::GameOver.rule_in(game.variant())),
            vec![],
        ));
    }
    let toks = tokens(line, notation);
    if let Some(word) = toks.iter().find_map(|t| match t {
        Token::Unknown(w) => Some(w.clone()),
        _ => None,
    }) {
        return Err(unknown_word(game, &toks, &word, reject));
    }
    let order = match interpret(game, &toks) {
        Ok(order) => order,
        Err(m) => {
            let rule = if m.problem.contains("(R7)") {
                Some(crate::games::RuleId("R7"))
            } else {
                None
            };
            return Err(reject(m.problem, rule, m.candidates));
        }
    };
    let legal = game.legal_orders();
    match game.matching(&legal, &order) {
        Some(listed) => Ok(listed),
        None => {
            let refusal = game.diagnose(&order);
            Err(reject(
                refusal.display_in(notation).to_string(),
                Some(refusal.rule_in(game.variant())),
                suggest::nearest(game, &order),
            ))
        }
    }
}

/// The answer to a line with a word the reader does not know: the word,
/// what it may have meant, and the legal orders those readings give.
fn unknown_word(
    game: &Squares,
    toks: &[Token],
    word: &str,
    reject: impl Fn(String, Option<crate::games::RuleId>, Vec<Order>) -> Rejection,
) -> Rejection {
    let notation = notation_of(game);
    // The codes as this game writes them: F codes in the variant (N1).
    let codes: Vec<String> = Space::all()
        .map(|s| s.display_in(notation).to_string())
        .collect();
    let near_codes = nearest_words(word, codes.iter().map(String::as_str));
    let near_words = nearest_words(word, known_words(notation));
    let mut meant: Vec<&str> = near_codes.iter().chain(&near_words).copied().collect();
    meant.truncate(4);
    let what = if looks_like_code(word) {
        "is not a square of the board"
    } else {
        "is not a word orders use"
    };
    let mut problem = format!("{word:?} {what}");
    if meant.is_empty() {
        if looks_like_code(word) {
            problem.push_str(&format!(
                " (codes such as B1C, {}, NWF, BR)",
                notation.code("G2CR")
            ));
        } else {
            problem.push_str(
                " (orders start with MOVE, ATTACK, PASS, RETREAT, STAND, OPTION, \
                 ADVANCE, STAY or LOSE)",
            );
        }
    } else {
        problem.push_str(&format!("; did you mean {}?", meant.join(" or ")));
    }
    // Re-read the line with each correction of the unknown word and keep
    // the legal orders that come out: what the player most likely meant.
    let mut suggestions: Vec<Order> = Vec::new();
    let legal = game.legal_orders();
    for m in &meant {
        let fixed: Vec<Token> = toks
            .iter()
            .map(|t| match t {
                Token::Unknown(w) if w == word => tokens(m, notation)
                    .into_iter()
                    .next()
                    .unwrap_or(Token::Join),
                other => other.clone(),
            })
            .collect();
        if fixed.iter().any(|t| matches!(t, Token::Unknown(_))) {
            continue;
        }
        let fixed = merge_unit_pairs(fixed, notation);
        match interpret(game, &fixed) {
            Ok(order) => {
                if let Some(listed) = game.matching(&legal, &order) {
                    if !suggestions.contains(&listed) {
                        suggestions.push(listed);
                    }
                }
            }
            Err(m) => {
                for c in m.candidates {
                    if !suggestions.contains(&c) {
                        suggestions.push(c);
                    }
                }
            }
        }
    }
    if suggestions.is_empty() {
        // The orders of the squares and unit the rest of the line names.
        let hint = suggest::Hint {
            named: toks.iter().filter_map(|t| space_of(game, t)).collect(),
            unit: toks.iter().find_map(|t| match t {
                Token::Unit(u) => Some(*u),
                _ => None,
            }),
            ..suggest::Hint::default()
        };
        suggestions = suggest::nearest_hint(game, &hint);
    }
    suggestions.truncate(suggest::LIMIT);
    reject(problem, None, suggestions)
}

/// Turns classified words into one order, using the position only to fill
/// in what the player left out.
fn interpret(game: &Squares, toks: &[Token]) -> Result<Order, Misread> {
    let verbs: Vec<Verb> = toks
        .iter()
        .filter_map(|t| match t {
            Token::Verb(v) => Some(*v),
            _ => None,
        })
        .collect();
    let squares: Vec<Space> = toks.iter().filter_map(|t| space_of(game, t)).collect();
    let numbers: Vec<u8> = toks
        .iter()
        .filter_map(|t| match t {
            Token::Number(n) => Some(*n),
            _ => None,
        })
        .collect();
    let units: Vec<UnitKind> = toks
        .iter()
        .filter_map(|t| match t {
            Token::Unit(u) => Some(*u),
            _ => None,
        })
        .collect();
    let lists: Vec<OptionsOffered> = toks
        .iter()
        .filter_map(|t| match t {
            Token::OptionList(l) => Some(*l),
            _ => None,
        })
        .collect();
    let has = |want: &Token| toks.iter().any(|t| t == want);
    if toks.is_empty() {
        return Err(Misread::new("there is no order on this line"));
    }
    let in_attack = game.attack.is_some();
    let verb = match verbs.as_slice() {
        [] => {
            let attack_words = toks.iter().any(|t| {
                matches!(
                    t,
                    Token::AttackMark
                        | Token::SupportMark
                        | Token::Supporting
                        | Token::NoSupport
                        | Token::Marker(Marker::With | Marker::Against)
                )
            });
            let move_words = toks
                .iter()
                .any(|t| matches!(t, Token::Unit(_) | Token::Marker(_)));
            if attack_words {
                Verb::Attack
            } else if in_attack {
                match (squares.is_empty(), numbers.is_empty(), units.is_empty()) {
                    (false, _, _) => Verb::Retreat,
                    (true, false, _) => Verb::Option,
                    (true, true, false) => Verb::Lose,
                    _ => return Err(Misread::new("there is no order on this line")),
                }
            } else if squares.len() >= 2 || (squares.len() == 1 && move_words) {
                // "G2CR G1C", "cav to G1C": a move.
                Verb::Move
            } else {
                // The orders of the square named, or of the unit type.
                let hint = suggest::Hint {
                    named: squares.clone(),
                    unit: units.first().copied(),
                    ..suggest::Hint::default()
                };
                return Err(Misread {
                    problem: format!(
                        "this line names no order: write MOVE, ATTACK or PASS \
                         (or just the squares, as in {}-{})",
                        notation_of(game).code("G2CR"),
                        notation_of(game).code("G1C")
                    ),
                    candidates: suggest::nearest_hint(game, &hint),
                });
            }
        }
        [v] => *v,
        [Verb::Stand, Verb::Hold] | [Verb::Hold, Verb::Stand] => Verb::Stand,
        [Verb::Stay, Verb::Hold] | [Verb::Hold, Verb::Stay] => Verb::Stay,
        _ => {
            return Err(Misread::new(
                "this line gives more than one order: write one order per line",
            ))
        }
    };
    let verb = match verb {
        Verb::Hold => match game.attack.map(|a| a.stage) {
            Some(Stage::Advance) => Verb::Stay,
            _ => Verb::Stand,
        },
        v => v,
    };
    // STAND, ADVANCE, STAY may name the unit they concern ("the infantry
    // in G1C stands", "my cavalry advances into G1C").
    let no_extras = |order: Order,
                     allowed: Option<Space>,
                     concerned: Option<Space>|
     -> Result<Order, Misread> {
        let kind = concerned.and_then(|s| game.unit_at(s)).map(|u| u.kind());
        let stray = squares.iter().any(|s| Some(*s) != allowed)
            || !numbers.is_empty()
            || !lists.is_empty()
            || units.iter().any(|u| Some(*u) != kind)
            || has(&Token::AttackMark)
            || has(&Token::SupportMark)
            || has(&Token::Supporting)
            || has(&Token::NoSupport);
        if stray {
            Err(Misread {
                problem: format!(
                    "{0} takes nothing more (write just {0})",
                    order.display_in(notation_of(game))
                ),
                candidates: legal_of(game, |o| *o == order),
            })
        } else {
            Ok(order)
        }
    };
    let target = game.attack.map(|a| a.target);
    let attacker = game.attack.map(|a| a.attacker);
    match verb {
        Verb::Pass => no_extras(Order::Pass, None, None),
        Verb::Stand => no_extras(Order::Stand, target, target),
        Verb::Advance => no_extras(Order::Advance, target, attacker),
        Verb::Stay => no_extras(Order::Stay, attacker, attacker),
        Verb::Option => read_option(
            game,
            &numbers,
            &lists,
            squares.is_empty() && units.is_empty(),
        ),
        Verb::Lose => match units.as_slice() {
            [kind] if squares.len() <= 1 && numbers.is_empty() && lists.is_empty() => {
                Ok(Order::Lose(*kind))
            }
            [] => Err(Misread {
                problem: format!("LOSE needs the unit type: {}", unit_word_list(game)),
                candidates: legal_of(game, |o| matches!(o, Order::Lose(_))),
            }),
            _ => Err(Misread::new("LOSE takes one unit type")),
        },
        Verb::Retreat => {
            if !numbers.is_empty()
                || !lists.is_empty()
                || has(&Token::SupportMark)
                || has(&Token::Supporting)
            {
                return Err(Misread::new(
                    "a retreat names only squares: where the unit goes (RETREAT BR)",
                ));
            }
            // "my infantry retreats to GR": the unit word names the
            // retreating unit.
            let from = retreating_square(game);
            let retreating = from.and_then(|s| game.unit_at(s)).map(|u| u.kind());
            if let Some(named) = units.iter().find(|u| Some(**u) != retreating) {
                return Err(Misread {
                    problem: match (from, retreating) {
                        (Some(s), Some(k)) => format!(
                            "the retreating unit in {} is {}, not {}",
                            s.display_in(notation_of(game)),
                            k.name(),
                            named.name()
                        ),
                        _ => format!("no {} retreats now", named.name()),
                    },
                    candidates: legal_of(game, |o| matches!(o, Order::Retreat(_))),
                });
            }
            let mut path = squares.clone();
            // "RETREAT B1C BR", "retreat from B1C", "the infantry in B1C
            // retreats": naming the square retreated from is read as the
            // retreat of the unit there.
            let names_origin = path.len() >= 2
                || !units.is_empty()
                || has(&Token::Marker(Marker::From))
                || has(&Token::Marker(Marker::At));
            if names_origin && path.first().copied() == from && from.is_some() {
                path.remove(0);
            }
            if path.is_empty() {
                return unique(
                    legal_of(game, |o| matches!(o, Order::Retreat(_))),
                    "RETREAT needs the square the unit retreats to",
                );
            }
            Chain::from_squares(&path)
                .map(Order::Retreat)
                .ok_or_else(|| Misread::new("a retreat names at most 9 squares"))
        }
        Verb::Move => fit::read_move(game, toks),
        Verb::Attack => fit::read_attack(game, toks),
        Verb::Hold => unreachable!("HOLD was read as STAND or STAY above"),
    }
}

/// The options the pending decision offers: the attack's list when the
/// attacker picks an option (R19, N18, N19), else the general one.
fn offered_now(game: &Squares) -> OptionsOffered {
    match game.attack {
        Some(a) if a.stage == Stage::Option && game.unit_at(a.attacker).is_some() => {
            game.options_offered(&a)
        }
        _ => OptionsOffered::General,
    }
}

/// An option's code in a list: `2`, `GB2`, `HB2`.
fn option_code(list: OptionsOffered, n: u8) -> String {
    match list {
        OptionsOffered::General => n.to_string(),
        OptionsOffered::GrandBattery => format!("GB{n}"),
        OptionsOffered::HorseBattery => format!("HB{n}"),
    }
}

/// The options of a list in words: "1 to 5", "GB1 to GB3" (N18), "HB1 to
/// HB5" (N19).
fn option_range(list: OptionsOffered) -> &'static str {
    match list {
        OptionsOffered::General => "1 to 5",
        OptionsOffered::GrandBattery => "GB1 to GB3 (N18)",
        OptionsOffered::HorseBattery => "HB1 to HB5 (N19)",
    }
}

/// `OPTION n`, `opt n`, `n`, `GB n`, `OPTION HBn`: an option of the named
/// list, or of the list the attack offers (N36: a bare number is read in
/// the offered list, so `OPTION 2` is GB2 where the Grand Battery list is
/// offered).
fn read_option(
    game: &Squares,
    numbers: &[u8],
    lists: &[OptionsOffered],
    bare: bool,
) -> Result<Order, Misread> {
    let offered = offered_now(game);
    let named = match lists {
        [] => None,
        [one] => Some(*one),
        _ => {
            return Err(Misread::new(format!(
                "OPTION takes one option, {}",
                option_range(offered)
            )))
        }
    };
    let list = named.unwrap_or(offered);
    let variant = game.variant() == Variant::Napoleonic;
    let options = || {
        legal_of(game, |o| {
            matches!(
                o,
                Order::Option(_) | Order::GrandBattery(_) | Order::HorseBattery(_)
            )
        })
    };
    let in_list = |n: u8| match list {
        OptionsOffered::General => (1..=5).contains(&n).then_some(Order::Option(n)),
        OptionsOffered::GrandBattery => (1..=3).contains(&n).then_some(Order::GrandBattery(n)),
        OptionsOffered::HorseBattery => (1..=5).contains(&n).then_some(Order::HorseBattery(n)),
    };
    let range = option_range(list);
    match numbers {
        [n] => match in_list(*n) {
            Some(order) if bare => Ok(order),
            Some(_) => Err(Misread::new(format!("OPTION takes one number, {range}"))),
            // A bare number the offered list lacks ("OPTION 4" where GB1 to
            // GB3 are offered) is left to the rules check, whose refusal
            // names the options this attack offers (N18, N19).
            None if bare && named.is_none() && offered != OptionsOffered::General => {
                Ok(Order::Option(*n))
            }
            None => Err(Misread {
                problem: format!(
                    "there is no option {}: the options are {}",
                    option_code(list, *n),
                    option_range(list)
                ),
                candidates: if variant { options() } else { Vec::new() },
            }),
        },
        [] => Err(Misread {
            problem: format!("OPTION needs its number, {range}"),
            candidates: options(),
        }),
        _ => Err(Misread::new(format!("OPTION takes one number, {range}"))),
    }
}

/// The unit words of the game, as LOSE takes them: "INFANTRY, ARTILLERY or
/// CAVALRY".
fn unit_word_list(game: &Squares) -> String {
    let words: Vec<&str> = game.variant().kinds().iter().map(|k| k.word()).collect();
    match words.split_last() {
        Some((last, init)) if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => words.join(""),
    }
}

/// The square of the unit whose retreat is being decided.
fn retreating_square(game: &Squares) -> Option<Space> {
    let a = game.attack?;
    Some(match a.stage {
        Stage::Response
        | Stage::SecondChance
        | Stage::GrandSecondChance
        | Stage::HorseDefenderRetreat => a.target,
        Stage::AttackerRetreat1 | Stage::AttackerRetreat4 | Stage::HorseBatteryRetreat => {
            a.attacker
        }
        Stage::SupportRetreat1
        | Stage::SupportRetreat5
        | Stage::GrandSupportRetreat
        | Stage::HorseSupportRetreat => a.support?,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::slips::edit_distance;
    use super::words::words;
    use super::{notation_of, read_checked, Rejection, Squares};

    fn read(position: &str, line: &str) -> Result<String, Rejection> {
        let game: Squares = position.parse().expect("a test position");
        read_checked(&game, line).map(|o| o.display_in(notation_of(&game)).to_string())
    }

    const OPENING: &str = "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -";

    #[test]
    fn words_split_punctuation_but_keep_plus_and_comma() {
        assert_eq!(words("1. g1c x b1c+g1cr"), ["G1C", "X", "B1C", "+", "G1CR"]);
        assert_eq!(
            words("G2R-G3R, G2L->G3L."),
            ["G2R", "G3R", ",", "G2L", "G3L"]
        );
    }

    #[test]
    fn the_edit_distance_counts_a_swap_as_one() {
        assert_eq!(edit_distance("MVOE", "MOVE"), 1);
        assert_eq!(edit_distance("G1X", "G1C"), 1);
        assert_eq!(edit_distance("B1CR", "B1RC"), 1);
        assert_eq!(edit_distance("", "BR"), 2);
    }

    #[test]
    fn a_reserve_move_without_its_type_is_taken_when_only_one_type_can_go() {
        // Only cavalry reaches B2CR from the reserve (a two-step move).
        assert_eq!(
            read(OPENING, "BR B2CR").unwrap(),
            "MOVE CAVALRY BR B3R B2CR"
        );
        let r = read(OPENING, "BR B3C").unwrap_err();
        assert_eq!(r.rule.map(|r| r.0), Some("R7"));
        assert_eq!(r.suggestions.len(), 3, "{r}");
    }

    #[test]
    fn long_forms_and_words_for_the_reserve() {
        assert_eq!(
            read(OPENING, "move infantry from Blue reserve to B3C").unwrap(),
            "MOVE INFANTRY BR B3C"
        );
        assert_eq!(
            read(OPENING, "Move inf from reserve to b3c").unwrap(),
            "MOVE INFANTRY BR B3C"
        );
    }

    #[test]
    fn a_mistyped_square_is_named_with_what_it_may_have_meant() {
        let r = read(OPENING, "move cav from BR to B3X").unwrap_err();
        assert!(r.rule.is_none());
        assert!(r.problem.contains("\"B3X\" is not a square"), "{r}");
        assert!(r.problem.contains("B3C"), "{r}");
        assert!(
            r.suggestions.contains(&"MOVE CAVALRY BR B3C".to_string()),
            "{r}"
        );
    }

    #[test]
    fn a_misspelt_verb_is_corrected_in_the_suggestions() {
        let r = read(OPENING, "mvoe cav BR B3C").unwrap_err();
        assert!(r.problem.contains("MOVE"), "{r}");
        assert_eq!(r.suggestions, ["MOVE CAVALRY BR B3C"]);
    }
}
