//! Reading an order line as players write it: any case, commas, joining
//! words (`to`, `at`, `the`), verbs in their everyday forms (`moves`,
//! `fires`), units by id or by name (`the 2nd Bexley`), hexes by number or
//! by the scenario's place names (`Tanner's Ford`), a path written with
//! dashes (`0713-0714`), a target as a hex or as the enemy unit in it
//! (`fire on the 2nd Bexley`) or in words before its hex (`fire on the
//! skirmishers at 0907`), the active unit left out (`move 0714`), a
//! remark in brackets (`(charge!)`) and the order's verb repeated at the
//! end (`moves to 0904, charge`). A word that would change what the order
//! means is never skipped: the line is refused instead.
//! The line is turned into the canonical notation
//! (docs/brothers-at-war-orders.md), read by the game, and checked by
//! applying it to a copy: only an order the engine takes is given back.
//! Every count read is bounded (the line, its words, the units named).

use std::borrow::Cow;

use super::names;
use super::words::{self, CHANCE_VERBS, FILLERS};
use crate::games::brothers_at_war::core::combat::Reaction;
use crate::games::brothers_at_war::core::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::core::instructions::{CardsRule, Setting};
use crate::games::brothers_at_war::core::order::{Action, Order};
use crate::games::brothers_at_war::core::question::Question;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::engine::cards::Kind;
use crate::games::brothers_at_war::engine::Refusal;
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};
use crate::games::{CitesRule, Game, OrderWord, Rejection};

/// The longest line read, in characters.
pub const MAX_LINE: usize = 200;

/// The most words a line may have.
pub const MAX_WORDS: usize = 40;

/// The most suggestions given with a refusal.
pub const MAX_SUGGESTIONS: usize = 4;

/// What the reader accepts, named in every refusal of an unreadable line:
/// the form of [`accepted`] when no side has a unit on the map.
pub const ACCEPTED: &str = "write a unit order as 10M MOVE 1005 1006 (or 10M moves to 1005, \
1006), 10M FIRE 0907 (or fire on the 2nd Bexley, or on the skirmishers at 0907), 10M FORM, \
10M HOLD, 10M DONE, 10M DEPLOY WSK, WSK DISBAND; or PASS, END, COMMANDER 1205 (or COMMANDER \
STAY), DISCARD 17, COMMIT ward, READY, OPFIRE ward ALWAYS|NEVER|ASK";

/// A unit's name as a reference in an example: its first two words
/// (`2nd Bexley`), which the reader takes for the unit; its id when the
/// name is one word.
fn short_name(game: &BrothersAtWar, u: UnitId) -> String {
    let Some(unit) = game.battle.scenario.units.get(u.index()) else {
        return game.unit_name(u);
    };
    let words: Vec<&str> = unit.name.split_whitespace().take(2).collect();
    match words.as_slice() {
        [a, b] => format!("{a} {}", b.trim_end_matches(',')),
        _ => game.unit_name(u),
    }
}

/// The pieces of the examples for one side: his unit (one that may act
/// now, else his first regiment on the map) with two hexes of a path, an
/// enemy as a fire's target, a skirmisher and a regiment of its brigade,
/// a commander's hex, a brigade and a card of his hand.
struct Picks {
    id: String,
    path: [Hex; 2],
    target: Option<(Hex, String, &'static str)>,
    deploy: Option<(String, String)>,
    commander: Option<Hex>,
    brigade: String,
    card: Option<u8>,
}

fn picks(game: &BrothersAtWar, side: Side) -> Option<Picks> {
    let on_map = |u: &UnitId| game.hex_of(*u).is_some() && u.index() < game.battle.unit_count();
    let own: Vec<UnitId> = game
        .unit_ids()
        .filter(|u| game.side_of(*u) == side && on_map(u))
        .collect();
    let legal = if game.decider() == Some(side) {
        game.legal()
    } else {
        Vec::new()
    };
    // The brigade activated, when it is the writer's: the examples are
    // of its units and its commander, the orders he may give now.
    let active = game
        .now
        .activation
        .as_ref()
        .map(|a| a.brigade)
        .filter(|&b| game.battle.brigade_side(b) == side);
    let acting = legal
        .iter()
        .find_map(|o| match o {
            Order::Act {
                units,
                action: Action::Move(path),
            } if units.len() == 1 => game
                .unit_named(&units[0])
                .filter(|u| own.contains(u))
                .map(|u| (u, path.first().copied())),
            _ => None,
        })
        .or_else(|| {
            legal.iter().find_map(|o| match o {
                Order::Act { units, .. } => units
                    .iter()
                    .find_map(|n| game.unit_named(n).filter(|u| own.contains(u)))
                    .map(|u| (u, None)),
                _ => None,
            })
        });
    let in_active = |u: &UnitId| active.is_none() || game.brigade_of(*u) == active;
    let regiment = own
        .iter()
        .copied()
        .filter(in_active)
        .find(|&u| matches!(game.kind_of(u), UnitKind::Infantry | UnitKind::Cavalry))
        .or_else(|| own.iter().copied().find(in_active))
        .or_else(|| {
            own.iter()
                .copied()
                .find(|&u| matches!(game.kind_of(u), UnitKind::Infantry | UnitKind::Cavalry))
        })
        .or_else(|| own.first().copied());
    let (unit, first_step) = acting.or(regiment.map(|u| (u, None)))?;
    let at = game.hex_of(unit)?;
    let map = &game.battle.map;
    let h1 = first_step.or_else(|| map.neighbours(at).next())?;
    let h2 = map
        .neighbours(h1)
        .find(|h| *h != at && at.distance(*h) == 2)
        .or_else(|| map.neighbours(h1).find(|h| *h != at))
        .unwrap_or(h1);
    let unit_name = game.unit_name(unit);
    // A fire he may give now, else the enemy nearest his unit.
    let fire_at = legal.iter().find_map(|o| match o {
        Order::Act {
            units,
            action: Action::Fire(h),
        } if units.contains(&unit_name) => Some(*h),
        _ => None,
    });
    let acts_now = legal.iter().any(|o| matches!(o, Order::Act { .. }));
    let target = game
        .unit_ids()
        .filter(|u| game.side_of(*u) != side && on_map(u))
        .filter_map(|u| game.hex_of(u).map(|h| (at.distance(h), u, h)))
        .filter(|(_, _, h)| fire_at.is_none_or(|f| f == *h))
        .min_by_key(|(d, _, _)| *d)
        .filter(|_| fire_at.is_some() || !acts_now)
        .map(|(_, e, h)| {
            let kind = match game.kind_of(e) {
                UnitKind::Infantry => "infantry",
                UnitKind::Cavalry => "cavalry",
                UnitKind::Artillery => "battery",
                UnitKind::Skirmisher => "skirmishers",
                UnitKind::Remnant => "remnant",
            };
            (h, short_name(game, e), kind)
        });
    // A deploy he may give now; else (not his activation) one of a
    // skirmisher still in the battle.
    let deploy_now = legal.iter().find_map(|o| match o {
        Order::Act {
            units,
            action: Action::Deploy { skirmisher, .. },
        } => Some((units.join(" "), skirmisher.clone())),
        _ => None,
    });
    let in_battle = |u: UnitId| {
        !matches!(
            game.unit(u).place,
            Place::Eliminated | Place::Removed | Place::Exited
        )
    };
    let deploy = deploy_now.or_else(|| {
        if acts_now {
            return None;
        }
        game.unit_ids()
            .filter(|&u| u.index() < game.battle.unit_count())
            .filter(|&u| game.side_of(u) == side && game.kind_of(u) == UnitKind::Skirmisher)
            .filter(|&u| in_battle(u))
            .find_map(|sk| {
                let b = game.brigade_of(sk)?;
                let by = own.iter().copied().find(|&u| {
                    game.brigade_of(u) == Some(b)
                        && matches!(game.kind_of(u), UnitKind::Infantry | UnitKind::Cavalry)
                })?;
                Some((game.unit_name(by), game.unit_name(sk)))
            })
    });
    let brigades: Vec<BrigadeId> = active
        .into_iter()
        .chain(
            game.battle
                .brigade_ids()
                .filter(|&b| game.battle.brigade_side(b) == side),
        )
        .collect();
    // A hex the commander may go to: one the game offers, nearest him,
    // else one next to him.
    let commander = match active {
        Some(b) => game.brigade(b).commander.and_then(|c| {
            legal
                .iter()
                .filter_map(|o| match o {
                    Order::Commander(Some(h)) => Some(*h),
                    _ => None,
                })
                .min_by_key(|h| c.distance(*h))
                .or_else(|| map.neighbours(c).next())
        }),
        None => brigades.iter().find_map(|&b| game.brigade(b).commander),
    };
    let brigade = brigades
        .iter()
        .find(|&&b| game.brigade(b).commander.is_some())
        .or(brigades.first())
        .map_or_else(|| side.code().to_string(), |&b| game.brigade_name(b));
    Some(Picks {
        id: game.unit_name(unit),
        path: [h1, h2],
        target,
        deploy,
        commander,
        brigade,
        card: game.now.hands[side.index()].first().copied(),
    })
}

/// What the reader accepts, with examples drawn from `side`'s own units,
/// hexes, brigades and hand (the writer's seat: the reader reads the lines
/// of the side that decides), and an enemy of his as a fire's target.
pub fn accepted(game: &BrothersAtWar, side: Side) -> String {
    let Some(p) = picks(game, side) else {
        return ACCEPTED.to_string();
    };
    let Picks {
        id, path: [h1, h2], ..
    } = &p;
    let fire = match &p.target {
        Some((h, name, kind)) => {
            format!("{id} FIRE {h} (or fire on the {name}, or on the {kind} at {h})")
        }
        None => format!("{id} FIRE {h2}"),
    };
    let deploy = p.deploy.as_ref().map_or(String::new(), |(by, sk)| {
        format!(", {by} DEPLOY {sk}, {sk} DISBAND")
    });
    let commander = p.commander.map_or(String::new(), |h| {
        format!("COMMANDER {h} (or COMMANDER STAY), ")
    });
    let card = p.card.map_or(String::new(), |c| format!("DISCARD {c}, "));
    let brigade = &p.brigade;
    format!(
        "write a unit order as {id} MOVE {h1} {h2} (or {id} moves to {h1}, {h2}), {fire}, \
         {id} FORM, {id} HOLD, {id} DONE{deploy}; or PASS, END, {commander}{card}COMMIT \
         {brigade}, READY, OPFIRE {brigade} ALWAYS|NEVER|ASK"
    )
}

/// HELP's examples of orders (`GameText::ORDERS`) drawn from `side`'s
/// own units, hexes, brigades and hand.
pub fn examples(game: &BrothersAtWar, side: Side) -> String {
    let Some(p) = picks(game, side) else {
        return String::new();
    };
    let Picks {
        id, path: [h1, h2], ..
    } = &p;
    let fire = p
        .target
        .as_ref()
        .map_or(String::new(), |(h, _, _)| format!("{id} FIRE {h}, "));
    let commander = p
        .commander
        .map_or(String::new(), |h| format!("COMMANDER {h}, "));
    let play = p
        .card
        .map_or(String::new(), |c| format!("PLAY {c} ON {id}, "));
    let brigade = &p.brigade;
    format!(
        "{id} MOVE {h1} {h2}, {fire}{id} FORM, PASS, END UNITS, {commander}COMMANDER STAY, \
         {play}OPFIRE {brigade} NEVER, CARDS {} AUTO (MORE as the last line keeps an \
         activation open)",
        side.code()
    )
}

/// `r` with the examples of what is accepted drawn from the deciding
/// side's own units ([`accepted`]).
fn own_examples(game: &BrothersAtWar, mut r: Rejection) -> Rejection {
    if r.problem.ends_with(ACCEPTED) {
        if let Some(side) = game.decider() {
            let problem = &r.problem[..r.problem.len() - ACCEPTED.len()];
            let legal = game.legal();
            if let Some(asked) = asked(game) {
                // B7: the game waits for his answer; the reply says what
                // it asks and the answers it takes, never the orders of an
                // activation.
                let question = super::asked::describe(game, asked);
                r.problem = format!(
                    "{problem}the game waits for your answer. {}",
                    question.split_whitespace().collect::<Vec<_>>().join(" ")
                );
                r.suggestions = answers(&legal);
            } else if names_the_commander(game, &r.line) {
                r.problem = format!(
                    "{problem}a commander's order is COMMANDER STAY (he stays) or COMMANDER and \
                     the hex he goes to (COMMANDER {})",
                    legal
                        .iter()
                        .filter_map(|o| match o {
                            Order::Commander(Some(h)) => Some(*h),
                            _ => None,
                        })
                        .min_by_key(|h| commander_hex(game).map_or(0, |c| c.distance(*h)))
                        .map(|h| h.to_string())
                        .unwrap_or_else(|| "0604".to_string())
                );
                let mut commander: Vec<&Order> = legal
                    .iter()
                    .filter(|o| matches!(o, Order::Commander(_)))
                    .collect();
                commander.sort_by_key(|o| closeness(game, &Order::Commander(None), o));
                r.suggestions = commander
                    .into_iter()
                    .take(MAX_SUGGESTIONS)
                    .map(ToString::to_string)
                    .collect();
            } else {
                r.problem = format!("{problem}{}", accepted(game, side));
            }
        }
    }
    r
}

/// The answers a question takes, `PASS` among them when it is one.
fn answers(legal: &[Order]) -> Vec<String> {
    let mut out: Vec<String> = legal
        .iter()
        .filter(|o| !matches!(o, Order::Pass(None)))
        .take(MAX_SUGGESTIONS - 1)
        .map(ToString::to_string)
        .collect();
    if legal.contains(&Order::Pass(None)) {
        out.push("PASS".to_string());
    }
    out
}

/// Whether `line` speaks of the writer's commander: the word, a rank, or
/// his name (`hale stays where he is`, `the commander stays, maybe`).
fn names_the_commander(game: &BrothersAtWar, line: &str) -> bool {
    let Some(side) = game.decider() else {
        return false;
    };
    let names: Vec<String> = game
        .battle
        .brigade_ids()
        .filter(|&b| game.battle.brigade_side(b) == side)
        .filter_map(|b| game.battle.scenario.brigades[b.index()].commander.as_ref())
        .flat_map(|c| name_words(&c.name))
        .filter(|w| w.len() > 3)
        .collect();
    name_words(line).iter().any(|w| {
        w == "COMMANDER"
            || matches!(w.as_str(), "COLONEL" | "GENERAL" | "MAJOR" | "BRIGADIER")
            || names.contains(w)
    })
}

/// One piece of a line, once read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Verb(&'static str),
    Unit(UnitId),
    Brigade(BrigadeId),
    Hex(Hex),
    Number(u16),
    /// `STAY`, `NEW`, `MOUNTED`, `RESERVE`, `ALWAYS`, `NEVER`, `ASK`,
    /// and a line's side, `LEFT` or `RIGHT` (B24).
    Key(&'static str),
    /// A word of no order (letters, or an ordinal): taken only as words
    /// describing a fire's target before its hex (`the skirmishers at
    /// 0907`), else the line is refused for it.
    Word(String),
    /// `AND`, `WITH`, `TOGETHER`, `ALSO`, `&`: joining words, kept so
    /// that words after one are never taken for a description (`10M fire
    /// with the 11th at 0907` may mean a fire together).
    Join,
    /// Four digits that are no hex (`0097`): the line is refused with the
    /// nearest legal hexes of its order ([`bad_hex`]).
    BadHex(String),
}

/// The joining words kept as [`Tok::Join`].
const JOINS: &[&str] = &["AND", "WITH", "TOGETHER", "ALSO", "PLUS", "&"];

/// The keys each verb takes; a key in another order's line is refused
/// (`10M FIRE 0907 NEVER` is no fire).
fn keys_of(verb: &str) -> &'static [&'static str] {
    match verb {
        "FIRE" => &["LEFT", "RIGHT"],
        "DEPLOY" => &["MOUNTED"],
        "PASS" => &["NEW"],
        "COMMANDER" => &["STAY"],
        "SPEND" => &["RESERVE"],
        "OPFIRE" => &["ALWAYS", "NEVER", "ASK"],
        _ => &[],
    }
}

/// Whether the verb's order takes a number (a card).
fn takes_numbers(verb: &str) -> bool {
    matches!(verb, "PASS" | "PLAY" | "DISCARD")
}

/// Words that change what an order means: a fire's target described in
/// words holds none of them (`fire on the battery unless it moves, at
/// 0907` is refused, not read as a fire).
const MEANING_WORDS: &[&str] = &[
    "NOT", "NO", "DON'T", "DONT", "UNLESS", "IF", "EXCEPT", "BUT", "OR", "NOR", "INSTEAD", "WHEN",
    "UNTIL", "AFTER", "BEFORE", "ONLY", "LATER", "CANCEL", "IGNORE", "WAIT", "STOP", "MAYBE",
    "PERHAPS",
];

/// The most words a fire's target may be described in.
const MAX_DESCRIPTION: usize = 6;

/// Whether `w` (upper case) may be a word of a description: letters (an
/// apostrophe or a dash inside), or an ordinal (`2ND`).
fn plain_word(w: &str) -> bool {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let ordinal = (1..=3).contains(&digits) && matches!(&w[digits..], "ST" | "ND" | "RD" | "TH");
    ordinal
        || (w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.chars()
                .all(|c| c.is_ascii_alphabetic() || c == '\'' || c == '-'))
}

const KEYS: &[&str] = &[
    "STAY", "NEW", "MOUNTED", "RESERVE", "ALWAYS", "NEVER", "ASK", "LEFT", "RIGHT",
];

fn unreadable(line: &str, problem: impl Into<String>) -> Rejection {
    Rejection {
        line: line.trim().to_string(),
        problem: format!("{}: {ACCEPTED}", problem.into()),
        rule: None,
        suggestions: Vec::new(),
    }
}

/// Words compared as players write them: upper case, curly apostrophes
/// straight.
fn words_of(text: &str) -> Vec<String> {
    text.to_ascii_uppercase()
        .replace(['\u{2019}', '`'], "'")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The words of a name (a unit's, a brigade's, a place's, a card's) as
/// the words of a line are read: upper case, without the punctuation a
/// line loses (`Battery A, Millbrook Light Artillery`).
fn name_words(name: &str) -> Vec<String> {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if matches!(c, ',' | ';' | ':' | '!' | '?') {
                ' '
            } else {
                c
            }
        })
        .collect();
    words_of(&cleaned)
        .into_iter()
        .map(|w| w.trim_end_matches('.').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The words after a unit's reference that are part of it: its arm
/// (`the Fenwick infantry`) and the men of it (`the Pomfret boys`).
fn reference_tail(words: &[String]) -> usize {
    words
        .iter()
        .take_while(|w| {
            words::UNIT_NAME_WORDS.contains(&w.as_str()) || words::FOLK_WORDS.contains(&w.as_str())
        })
        .count()
}

/// The answer to a card's title that fits several cards of the hand:
/// which one? (Never a guess.)
fn which_card(game: &BrothersAtWar, line: &str, cards: &[u8]) -> Rejection {
    let numbers: Vec<String> = cards.iter().map(u8::to_string).collect();
    let title = cards
        .first()
        .and_then(|&n| game.card_entry(n))
        .map_or(String::new(), |c| c.name.clone());
    Rejection {
        line: line.trim().to_string(),
        problem: format!(
            "which one? you hold {title} as cards {}: write PLAY and its number",
            numbers.join(" and ")
        ),
        // B148: a card is named among those the writer may play; read,
        // but not guessed.
        rule: Some(crate::games::RuleId("B148")),
        suggestions: cards.iter().map(|n| format!("PLAY {n}")).collect(),
    }
}

/// The longest name among `names` that the words from `at` spell: all of
/// a name's words, or (`whole` false) its first two or more. `None` when
/// none, or when two different things match as long.
fn name_at<T: Copy + PartialEq>(
    words: &[String],
    at: usize,
    names: &[(Vec<String>, T)],
    whole: bool,
) -> Option<(usize, T)> {
    let mut best: Option<(usize, T)> = None;
    let mut tie = false;
    for (name, thing) in names {
        let max = name.len().min(words.len() - at);
        let k = (0..max).take_while(|&i| words[at + i] == name[i]).count();
        let ok = k == name.len() || (!whole && k >= 2);
        if !ok || k == 0 {
            continue;
        }
        match best {
            Some((len, t)) if len == k && t != *thing => tie = true,
            Some((len, _)) if len >= k => {}
            _ => {
                best = Some((k, *thing));
                tie = false;
            }
        }
    }
    if tie {
        None
    } else {
        best
    }
}

/// The kind of unit a word names (`skirmishers`, `the cavalry`, `our
/// guns`), singular or plural.
fn kind_named(w: &str) -> Option<UnitKind> {
    let w = w.trim_end_matches('\'');
    Some(match w {
        "SKIRMISHER" | "SKIRMISHERS" => UnitKind::Skirmisher,
        "CAVALRY" | "CAVALRYMEN" | "TROOPERS" | "HORSEMEN" => UnitKind::Cavalry,
        "BATTERY" | "BATTERIES" | "GUN" | "GUNS" | "ARTILLERY" | "CANNON" | "CANNONS" => {
            UnitKind::Artillery
        }
        "INFANTRY" => UnitKind::Infantry,
        _ => return None,
    })
}

/// Words that make the unit named next the writer's own (`our
/// skirmishers`, `my Fenwicks`).
const POSSESSIVES: &[&str] = &["OUR", "MY"];

/// The units a word refers to, when it names no unit by its id or its
/// name: a kind (`skirmishers`: `side`'s units of that kind that may act
/// now, else all of his of that kind still in the battle) when `kinds`
/// (not words describing a fire's target), or a word of units' names in
/// the singular or the plural (`the Fenwicks`: the units so named, of
/// `side` alone when `own`). Empty when the word is neither.
fn referred(
    game: &BrothersAtWar,
    w: &str,
    side: Option<Side>,
    own: bool,
    kinds: bool,
) -> Vec<UnitId> {
    let named = game.battle.unit_count();
    let in_battle = |u: &UnitId| {
        !matches!(
            game.unit(*u).place,
            Place::Eliminated | Place::Removed | Place::Exited
        )
    };
    if let (Some(kind), Some(side), true) = (kind_named(w), side, kinds) {
        let of_kind: Vec<UnitId> = game
            .unit_ids()
            .filter(|&u| u.index() < named && game.side_of(u) == side && game.kind_of(u) == kind)
            .filter(in_battle)
            .collect();
        // Those that may act now: named by a legal order.
        let legal = if game.decider() == Some(side) {
            game.legal()
        } else {
            Vec::new()
        };
        let acting: Vec<UnitId> = of_kind
            .iter()
            .copied()
            .filter(|&u| {
                let name = game.unit_name(u);
                legal.iter().any(|o| match o {
                    Order::Act { units, action } => {
                        units.contains(&name)
                            || matches!(action, Action::Deploy { skirmisher, .. } if *skirmisher == name)
                    }
                    _ => false,
                })
            })
            .collect();
        return if acting.is_empty() { of_kind } else { acting };
    }
    game.unit_ids()
        .filter(|&u| u.index() < named)
        .filter(|&u| !own || Some(game.side_of(u)) == side)
        .filter(|&u| {
            words::name_words(&game.battle.scenario.units[u.index()].name)
                .iter()
                .any(|n| words::same_word(n, w))
        })
        .filter(in_battle)
        .collect()
}

/// The answer to a reference that fits several units: which one?
fn which_one(game: &BrothersAtWar, line: &str, w: &str, units: &[UnitId]) -> Rejection {
    let list: Vec<String> = units
        .iter()
        .map(|&u| {
            let name = game
                .battle
                .scenario
                .units
                .get(u.index())
                .map_or(String::new(), |x| format!(" ({})", x.name));
            format!("{}{name}", game.unit_name(u))
        })
        .collect();
    let names: Vec<String> = units.iter().map(|&u| game.unit_name(u)).collect();
    let suggestions = game
        .legal()
        .iter()
        .filter(
            |o| matches!(o, Order::Act { units, .. } if units.iter().any(|n| names.contains(n))),
        )
        .take(MAX_SUGGESTIONS)
        .map(ToString::to_string)
        .collect();
    Rejection {
        line: line.trim().to_string(),
        problem: format!(
            "which one? {} may be {}: name one by its id or its name",
            w.to_ascii_lowercase(),
            list.join(" or ")
        ),
        rule: None,
        suggestions,
    }
}

/// A unit named by a near spelling of a word of its name (`the 10th
/// Milbrook` for the 10th Millbrook Infantry: one or two letters off, a
/// word of five letters or more), where a line names its unit: first,
/// after its number, or after the verb. The unit when exactly one in the
/// battle is that close (and bears that number); else the line is refused
/// with the units meant (`did you mean 10M?`), never guessed. `None` when
/// no unit's name is near `w` there.
fn near_unit(game: &BrothersAtWar, out: &[Tok], w: &str) -> Option<Result<UnitId, Rejection>> {
    let number = match out.last() {
        Some(Tok::Word(o)) if o.starts_with(|c: char| c.is_ascii_digit()) && out.len() <= 2 => {
            Some(o.as_str())
        }
        None | Some(Tok::Verb(_)) => None,
        _ => return None,
    };
    if w.len() < 5 || !w.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let named = game.battle.unit_count();
    let near: Vec<UnitId> = game
        .unit_ids()
        .filter(|&u| u.index() < named)
        .filter(|&u| {
            !matches!(
                game.unit(u).place,
                Place::Eliminated | Place::Removed | Place::Exited
            )
        })
        .filter(|&u| {
            words::name_words(&game.battle.scenario.units[u.index()].name)
                .iter()
                .any(|n| words::near_name(n, w))
        })
        .collect();
    if near.is_empty() {
        return None;
    }
    let numbered: Vec<UnitId> = near
        .iter()
        .copied()
        .filter(|&u| {
            number.is_none_or(|n| {
                game.battle.scenario.units[u.index()]
                    .name
                    .split_whitespace()
                    .next()
                    .is_some_and(|first| first.eq_ignore_ascii_case(n))
            })
        })
        .collect();
    if let [u] = numbered.as_slice() {
        return Some(Ok(*u));
    }
    let meant = if numbered.is_empty() {
        &near
    } else {
        &numbered
    };
    let list: Vec<String> = meant
        .iter()
        .map(|&u| {
            format!(
                "{} ({})",
                game.unit_name(u),
                game.battle.scenario.units[u.index()].name
            )
        })
        .collect();
    let names: Vec<String> = meant.iter().map(|&u| game.unit_name(u)).collect();
    let suggestions = game
        .legal()
        .iter()
        .filter(
            |o| matches!(o, Order::Act { units, .. } if units.iter().any(|n| names.contains(n))),
        )
        .take(MAX_SUGGESTIONS)
        .map(ToString::to_string)
        .collect();
    Some(Err(Rejection {
        line: String::new(),
        problem: format!(
            "{} names no unit here: did you mean {}? Name the unit by its id or its name",
            w.to_ascii_lowercase(),
            list.join(" or ")
        ),
        rule: None,
        suggestions,
    }))
}

fn tokens(game: &BrothersAtWar, line: &str) -> Result<Vec<Tok>, Rejection> {
    let cleaned: String = line
        .chars()
        .map(|c| {
            if matches!(
                c,
                ',' | ';' | '(' | ')' | '[' | ']' | '{' | '}' | ':' | '!' | '?'
            ) {
                ' '
            } else {
                c
            }
        })
        .collect();
    let words: Vec<String> = words_of(&cleaned)
        .into_iter()
        .map(|w| w.trim_end_matches('.').to_string())
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() > MAX_WORDS {
        return Err(unreadable(
            line,
            format!("the line has more than {MAX_WORDS} words"),
        ));
    }
    let scenario = &game.battle.scenario;
    let places: Vec<(Vec<String>, Hex)> = scenario
        .map
        .places
        .iter()
        .map(|(h, n)| (name_words(n), *h))
        .collect();
    // A name is read as the line is: its commas are no part of its words
    // (`Battery A, Millbrook Light Artillery` is `battery a fires`).
    let units: Vec<(Vec<String>, UnitId)> = scenario
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| (name_words(&u.name), UnitId(i as u16)))
        .collect();
    let brigades: Vec<(Vec<String>, BrigadeId)> = scenario
        .brigades
        .iter()
        .enumerate()
        .map(|(i, b)| (name_words(&b.name), BrigadeId(i as u8)))
        .collect();
    // 11.0: a card of the writer's hand by its title, in a line that
    // plays a card (`play Wrong Road`).
    let plays = words
        .iter()
        .any(|w| matches!(words::verb(w), Some("PLAY" | "DISCARD")))
        || matches!(
            asked(game).and_then(|r| r.question.as_ref()),
            Some(Question::Card { .. })
        );
    let titles: Vec<(String, u8)> = match game.decider() {
        Some(side) if plays => game.now.hands[side.index()]
            .iter()
            .filter_map(|&n| game.card_entry(n).map(|c| (c.name.clone(), n)))
            .collect(),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    let mut i = 0;
    // `our`, `my` before a reference: the unit is the writer's own.
    let mut possessive = false;
    while i < words.len() {
        let mine = std::mem::take(&mut possessive);
        if POSSESSIVES.contains(&words[i].as_str()) {
            possessive = true;
            i += 1;
            continue;
        }
        if let Some((k, h)) = name_at(&words, i, &places, true) {
            out.push(Tok::Hex(h));
            i += k;
            continue;
        }
        if let Some((k, b)) = name_at(&words, i, &brigades, true) {
            out.push(Tok::Brigade(b));
            i += k;
            continue;
        }
        if let Some((k, u)) = name_at(&words, i, &units, false) {
            out.push(Tok::Unit(u));
            i += k;
            i += reference_tail(&words[i..]);
            continue;
        }
        // A title is read in any case, without its apostrophes and with
        // or without its articles (`play drummers call`, `run for creek`).
        if let Some(k) = titles
            .iter()
            .filter_map(|(title, _)| words::title_len(&words[i..], title))
            .max()
        {
            // Never a guess between two cards of one title (cards come in
            // pairs): which one?
            let cards: Vec<u8> = titles
                .iter()
                .filter(|(title, _)| words::title_len(&words[i..], title) == Some(k))
                .map(|(_, n)| *n)
                .collect();
            let [card] = cards.as_slice() else {
                return Err(which_card(game, line, &cards));
            };
            out.push(Tok::Number(u16::from(*card)));
            i += k;
            continue;
        }
        let w = words[i].as_str();
        i += 1;
        if let Some(v) = words::verb(w) {
            out.push(Tok::Verb(v));
        } else if CHANCE_VERBS.contains(&w) {
            return Err(unreadable(
                line,
                format!("{w} is written by the service, which draws chance (3.12)"),
            ));
        } else if words::is_hex_like(w) {
            match w.parse::<Hex>() {
                Ok(h) => out.push(Tok::Hex(h)),
                Err(_) => out.push(Tok::BadHex(w.to_string())),
            }
        } else if let Some(u) = game
            .unit_named(w)
            .filter(|_| !w.bytes().all(|b| b.is_ascii_digit()))
        {
            out.push(Tok::Unit(u));
        } else if let Some(b) = game.battle.brigade_named(w) {
            out.push(Tok::Brigade(b));
        } else if let Some(h) = game.battle.map.place_hex(w) {
            out.push(Tok::Hex(h));
        } else if !w.is_empty() && w.len() <= 3 && w.bytes().all(|b| b.is_ascii_digit()) {
            out.push(Tok::Number(w.parse().unwrap_or(0)));
        } else if let Some(k) = KEYS.iter().find(|k| **k == w) {
            out.push(Tok::Key(k));
        } else if matches!(w, "STAYS" | "REMAINS" | "REMAIN") {
            // `COMMANDER STAY` as people write it (`the commander stays`).
            out.push(Tok::Key("STAY"));
        } else if JOINS.contains(&w) {
            out.push(Tok::Join);
        } else if FILLERS.contains(&w)
            || w == "'S"
            || w.chars()
                .all(|c| matches!(c, '-' | '\u{2013}' | '\u{2014}'))
        {
        } else if w.contains('-') && w.split('-').all(words::is_hex_like) {
            for part in w.split('-') {
                match part.parse::<Hex>() {
                    Ok(h) => out.push(Tok::Hex(h)),
                    Err(_) => out.push(Tok::BadHex(part.to_string())),
                }
            }
        } else if let Some(units) = Some(referred(
            game,
            w,
            game.decider(),
            mine,
            // A kind after FIRE, not the writer's own, describes the
            // target (`fire on the skirmishers at 0907`).
            mine || !out.contains(&Tok::Verb("FIRE")),
        ))
        .filter(|u| !u.is_empty())
        {
            let [u] = units.as_slice() else {
                return Err(which_one(game, line, w, &units));
            };
            out.push(Tok::Unit(*u));
            // The arm after a reference is part of it (`the Fenwick
            // infantry`, `the Pomfret boys`).
            i += reference_tail(&words[i..]);
        } else if let Some(near) = near_unit(game, &out, w) {
            let u = near.map_err(|r| Rejection {
                line: line.trim().to_string(),
                ..r
            })?;
            // The regiment's number before its name is part of it.
            if matches!(out.last(), Some(Tok::Word(o)) if o.starts_with(|c: char| c.is_ascii_digit()))
            {
                out.pop();
            }
            out.push(Tok::Unit(u));
            i += reference_tail(&words[i..]);
        } else if plain_word(w) {
            out.push(Tok::Word(w.to_string()));
        } else {
            return Err(unreadable(
                line,
                format!("{w} is no word of the orders here"),
            ));
        }
    }
    Ok(out)
}

/// The remarks in brackets of `line` (`(charge!)`, `[my last reserve]`),
/// each as the range it spans, brackets included; a bracket left open
/// runs to the end of the line (the service's cut of a line ends at its
/// last word: `... 0704 (charge`).
fn remarks(line: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = line[at..].find(['(', '[']).map(|i| at + i) {
        let close = if line[open..].starts_with('(') {
            ')'
        } else {
            ']'
        };
        let end = line[open..]
            .find(close)
            .map_or(line.len(), |i| open + i + close.len_utf8());
        out.push(open..end);
        at = end;
    }
    out
}

/// `line` without its remarks in brackets, when each remark says
/// nothing the order is made of: only words of no order (none of them
/// changing its meaning, [`MEANING_WORDS`]: `(but not yet)`), the order's own
/// verb again (`moves to 0904 (charge!)`), or a key or a number the order
/// does not take (`(my last reserve)`). A remark that names a hex, a
/// unit, a brigade, another verb, or a key or a number the order takes is
/// part of the line (`FIRE 0907 (SIDE LEFT)`): the line is then read
/// whole.
fn remarks_removed<'a>(game: &BrothersAtWar, line: &'a str) -> Cow<'a, str> {
    if line.len() > MAX_LINE {
        return Cow::Borrowed(line);
    }
    let ranges = remarks(line);
    if ranges.is_empty() {
        return Cow::Borrowed(line);
    }
    let mut bare = String::with_capacity(line.len());
    let mut at = 0;
    for r in &ranges {
        bare.push_str(&line[at..r.start]);
        bare.push(' ');
        at = r.end;
    }
    bare.push_str(&line[at..]);
    let Ok(toks) = tokens(game, &bare) else {
        return Cow::Borrowed(line);
    };
    let verb = toks.iter().find_map(|t| match t {
        Tok::Verb(v) => Some(*v),
        _ => None,
    });
    let says_nothing = |text: &str| {
        tokens(game, text).is_ok_and(|ts| {
            ts.iter().all(|t| match (t, verb) {
                (Tok::Word(w), _) => !MEANING_WORDS.contains(&w.as_str()),
                (Tok::Join, _) => true,
                (Tok::Verb(v), Some(verb)) => *v == verb,
                (Tok::Key(k), Some(verb)) => !keys_of(verb).contains(k),
                (Tok::Number(_), Some(verb)) => !takes_numbers(verb),
                _ => false,
            })
        })
    };
    if !toks.is_empty() && ranges.iter().all(|r| says_nothing(&line[r.clone()])) {
        Cow::Owned(bare.trim().to_string())
    } else {
        Cow::Borrowed(line)
    }
}

/// Checks the words of no order in a line whose verb is `verb`: each
/// must describe a fire's target between the verb and its hex (`FIRE on
/// the skirmishers at 0907`: nothing else between but joining words such
/// as `on`, `at`), none changing the order's meaning ([`MEANING_WORDS`]),
/// none that may name a unit (`the 11th`, a regiment's name), none after
/// `with` or `and`.
fn described_target(line: &str, toks: &[Tok], verb: Option<&str>) -> Result<(), Rejection> {
    let words = toks.iter().filter(|t| matches!(t, Tok::Word(_))).count();
    if let Some(w) = toks.iter().find_map(|t| match t {
        Tok::Word(w) if verb.is_some() && MEANING_WORDS.contains(&w.as_str()) => Some(w),
        _ => None,
    }) {
        return Err(unreadable(
            line,
            format!("{w} would change the order, which is written without it"),
        ));
    }
    for (i, t) in toks.iter().enumerate() {
        let Tok::Word(w) = t else { continue };
        // Right after the verb: nothing but other words of the
        // description between (`fire with the skirmishers at 0907` may
        // mean a fire together).
        let after_fire =
            toks[..i].iter().rev().find(|t| !matches!(t, Tok::Word(_))) == Some(&Tok::Verb("FIRE"));
        let hex_next = toks[i + 1..]
            .iter()
            .find(|t| !matches!(t, Tok::Word(_)))
            .is_some_and(|t| matches!(t, Tok::Hex(_)));
        // A number's word or a regiment's own name may name a unit of
        // the fire (`with the 11th`): never taken for a description.
        let names_a_unit =
            w.starts_with(|c: char| c.is_ascii_digit()) || words::order_word(w) == OrderWord::Unit;
        // A retreat's path told in words before its hexes (`retreat over
        // the bridge to 0804, 0904`): the hexes are the path (6.7, B145).
        let retreat_described =
            verb == Some("RETREAT") && hex_next && !names_a_unit && words <= MAX_DESCRIPTION;
        // A move's way told in words after its verb, before its hexes
        // (`charges across the bridge 0904, 0804`): the hexes are the path.
        let move_described = verb == Some("MOVE")
            && hex_next
            && !names_a_unit
            && words <= MAX_DESCRIPTION
            && toks[..i].iter().any(|t| matches!(t, Tok::Verb(_)));
        let described = move_described
            || (verb == Some("FIRE")
                && after_fire
                && hex_next
                && !names_a_unit
                && words <= MAX_DESCRIPTION)
            || retreat_described;
        if !described {
            let problem = if verb == Some("FIRE") {
                format!(
                    "{w} is no word of the orders here; a fire names its target by its hex \
                     (fire on the skirmishers at 0907) or by the unit (fire on the 2nd Bexley)"
                )
            } else {
                format!("{w} is no word of the orders here")
            };
            return Err(unreadable(line, problem));
        }
    }
    Ok(())
}

/// The side whose decision is pending, or (waiting for chance) the side of
/// the units named.
fn deciding(game: &BrothersAtWar, toks: &[Tok]) -> Side {
    game.decider().unwrap_or_else(|| {
        toks.iter()
            .find_map(|t| match t {
                Tok::Unit(u) => Some(game.side_of(*u)),
                _ => None,
            })
            .unwrap_or(Side::Union)
    })
}

/// Reads `line` into the canonical notation, without checking the rules.
pub fn canonical(game: &BrothersAtWar, line: &str) -> Result<String, Rejection> {
    read_canonical(game, line).map_err(|r| own_examples(game, r))
}

fn read_canonical(game: &BrothersAtWar, line: &str) -> Result<String, Rejection> {
    if line.len() > MAX_LINE {
        return Err(unreadable(
            line,
            format!("the line is longer than {MAX_LINE} characters"),
        ));
    }
    if let Some(answer) = answer_in_words(game, line) {
        return answer;
    }
    read_words(game, line).or_else(|refused| {
        chatter_removed(game, line)
            .and_then(|rest| read_words(game, rest).ok())
            .ok_or(refused)
    })
}

/// The most words of chatter read past before an order on its line.
const MAX_CHATTER: usize = 6;

/// `line` from its first verb on, when the words before it are chatter
/// (`anyway commander stay`, `I'll play Run for the Creek`, `so let's
/// play drummer's call`): a few words of no order, none naming a unit, a
/// brigade, a hex or a commander's rank, none that would change the order
/// ([`MEANING_WORDS`]: `maybe fire at 0907` is refused). `None` when the
/// line starts with its verb or has none.
fn chatter_removed<'a>(game: &BrothersAtWar, line: &'a str) -> Option<&'a str> {
    let starts: Vec<usize> = line
        .char_indices()
        .filter(|&(i, c)| {
            !c.is_whitespace() && (i == 0 || line[..i].ends_with(char::is_whitespace))
        })
        .map(|(i, _)| i)
        .collect();
    let at = starts.iter().take(MAX_CHATTER + 1).skip(1).find(|&&i| {
        let word = line[i..].split_whitespace().next().unwrap_or_default();
        words::verb(&words::bare_word(word)).is_some()
    })?;
    let before = &line[..*at];
    let toks = tokens(game, before).ok()?;
    let chatter = toks.iter().all(|t| match t {
        Tok::Word(w) => {
            !MEANING_WORDS.contains(&w.as_str())
                && !words::RANKS.contains(&w.as_str())
                && !w.starts_with(|c: char| c.is_ascii_digit())
        }
        Tok::Join => true,
        _ => false,
    });
    chatter.then(|| &line[*at..])
}

/// The reaction the decider is asked (B7, B145, B148), if any.
fn asked(game: &BrothersAtWar) -> Option<&Reaction> {
    game.now
        .reaction
        .as_ref()
        .filter(|r| game.decider() == Some(r.side))
}

/// Words around an answer that say nothing of it (`fine, I'll play
/// Wrong Road then`).
const ANSWER_COURTESY: &[&str] = &[
    "I", "I'LL", "ILL", "I'D", "ID", "I'M", "IM", "WILL", "WE", "WE'LL", "WELL", "FINE", "OK",
    "OKAY", "THEN", "PLEASE", "PLS", "THANKS", "THANK", "YOU", "SURE", "YES", "YEAH", "SO",
    "ALRIGHT", "JUST", "NOW", "HMM", "GO", "AHEAD", "LET'S", "LETS", "THIS", "TIME", "SIR",
    "DECIDE", "CHOOSE", "ANSWER", "MY", "OUR", "THE", "A", "AGAIN", "TOO", "ANYWAY", "INDEED",
    "COURSE", "ONCE", "LET", "US",
];

/// The words that say `PASS` to the question `r` asks, and those of them
/// that must be there (one at least): for a card, `no card`, `keep my
/// cards`; for a retreat asked (RETREAT, EVADE ASK), `stand`, `hold
/// fast`; for an attack offered (OPFIRE, POINTBLANK ASK), `hold fire`;
/// `no`, `none` for these three. The questions whose `PASS` takes a
/// default (which unit, which path, a reserve) take `PASS` alone: a `no`
/// there could mean either.
fn pass_words(r: &Reaction) -> Option<(&'static [&'static str], &'static [&'static str])> {
    const STRONG: &[&str] = &["PASS", "NO", "NONE", "NOPE", "NOTHING", "DECLINE"];
    match &r.question {
        Some(Question::Card { .. }) => Some((
            &[
                "PASS", "NO", "NONE", "NOPE", "NOTHING", "DECLINE", "KEEP", "CARD", "CARDS",
                "HAND", "PLAY", "THANKS", "TODAY",
            ],
            &["PASS", "NO", "NONE", "NOPE", "NOTHING", "DECLINE", "KEEP"],
        )),
        Some(_) => None,
        None if !r.paths.is_empty() => Some((
            &[
                "PASS", "NO", "NONE", "NOPE", "STAND", "STANDS", "FAST", "FIRM", "HOLD", "HOLDS",
                "STAY", "STAYS", "PUT", "FIGHT", "AND", "THEY", "GROUND", "THEIR", "RETREAT",
                "THERE",
            ],
            &[
                "PASS", "NO", "NONE", "NOPE", "STAND", "STANDS", "HOLD", "HOLDS", "STAY", "STAYS",
            ],
        )),
        None if !r.choices.is_empty() => Some((
            &["PASS", "NO", "NONE", "NOPE", "HOLD", "FIRE", "DECLINE"],
            &["PASS", "NO", "NONE", "NOPE", "HOLD", "DECLINE"],
        )),
        None => Some((STRONG, STRONG)),
    }
}

/// A line answering the question the decider is asked, written in
/// words: `PASS` where it answers (`no card`, `stand`, `hold fast`), a
/// card of those offered by its title (`I'll play Fortune of War`), the
/// answer with the courtesy around it left out. `None` when no question
/// waits for him, or the line is no such answer (it is then read as any
/// line).
fn answer_in_words(game: &BrothersAtWar, line: &str) -> Option<Result<String, Rejection>> {
    let r = asked(game)?;
    let cleaned: String = line
        .chars()
        .map(|c| {
            if matches!(c, ',' | ';' | ':' | '!' | '?' | '(' | ')' | '-') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let all: Vec<String> = words_of(&cleaned)
        .into_iter()
        .map(|w| w.trim_end_matches('.').to_string())
        .filter(|w| !w.is_empty())
        .collect();
    if all.is_empty() || all.len() > MAX_WORDS {
        return None;
    }
    let plain: Vec<String> = all
        .iter()
        .filter(|w| !ANSWER_COURTESY.contains(&w.as_str()))
        .cloned()
        .collect();
    let legal = game.legal();
    let pass = legal.contains(&Order::Pass(None));
    if let Some((words, needed)) = pass_words(r).filter(|_| pass) {
        // The writer's own unit called by its name beside the answer
        // (`Hold fast, Norwood!`) says nothing of it.
        let answer: Vec<&String> = plain
            .iter()
            .filter(|w| !own_unit_word(game, r.side, w))
            .collect();
        // "no retreat" says stand; "retreat" alone is no PASS.
        let retreat_ok =
            !answer.iter().any(|w| *w == "RETREAT") || answer.iter().any(|w| *w == "NO");
        if !answer.is_empty()
            && retreat_ok
            && answer.iter().all(|w| words.contains(&w.as_str()))
            && answer.iter().any(|w| needed.contains(&w.as_str()))
        {
            return Some(Ok("PASS".to_string()));
        }
    }
    // A retreat's path without its verb, when a retreat is asked (`back
    // to 0610, 0510 then`): the hexes are the path (6.7, B145).
    let retreats = legal.iter().any(|o| matches!(o, Order::Retreat(_)));
    if retreats
        && !plain.iter().any(|w| words::verb(w).is_some())
        && plain.iter().any(|w| words::is_hex_like(w))
    {
        return read_words(game, &format!("RETREAT {}", plain.join(" ")))
            .ok()
            .map(Ok);
    }
    // A card by its title, PLAY written or not, while a card question
    // waits; any other answer without its courtesy.
    if plain.is_empty()
        || plain.len() == all.len() && !matches!(r.question, Some(Question::Card { .. }))
    {
        return None;
    }
    let mut text = plain.join(" ");
    if matches!(r.question, Some(Question::Card { .. }))
        && !plain.iter().any(|w| words::verb(w) == Some("PLAY"))
    {
        text = format!("PLAY {text}");
    }
    read_words(game, &text).ok().map(Ok)
}

/// Whether `w` (upper case) names a unit of `side`: its id, its
/// number (`11TH`), a word of its name (`NORWOOD`), or the men of it
/// (`BOYS`).
fn own_unit_word(game: &BrothersAtWar, side: Side, w: &str) -> bool {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let ordinal = (1..=3).contains(&digits) && matches!(&w[digits..], "ST" | "ND" | "RD" | "TH");
    ordinal
        || words::FOLK_WORDS.contains(&w)
        || game
            .unit_named(w)
            .is_some_and(|u| !words::is_hex_like(w) && game.side_of(u) == side)
        || game
            .unit_ids()
            .filter(|&u| u.index() < game.battle.unit_count() && game.side_of(u) == side)
            .any(|u| {
                words::name_words(&game.battle.scenario.units[u.index()].name)
                    .iter()
                    .any(|n| words::same_word(n, w))
            })
}

/// Words that name a brigade's commander by his rank or say where he
/// stays (`the colonel stays where he is`).
const COMMANDER_WORDS: &[&str] = &[
    "COLONEL",
    "COL",
    "GENERAL",
    "GEN",
    "MAJOR",
    "MAJ",
    "CAPTAIN",
    "CAPT",
    "BRIGADIER",
    "HE",
    "HIM",
    "WHERE",
    "IS",
    "PUT",
    "IN",
    "PLACE",
    "HERE",
    "THERE",
    "STILL",
    "STANDS",
    "AS",
    "IT",
    "OLD",
];

/// Words that say the commander goes somewhere (`Colonel Ward rides to
/// 1006`).
const COMMANDER_GOES: &[&str] = &["GOES", "GO", "RIDES", "RIDE", "GALLOPS", "HEADS"];

/// A commander's order written as a sentence: the commander named (by
/// that word, his rank, his name or his brigade's) and that he stays
/// (`hale stays where he is`, `the colonel stays`, `Colonel Ward stays
/// put`: `COMMANDER STAY`) or the one hex he goes to (`Colonel Ward to
/// 1006`, `move Hale to 0408`: `COMMANDER 1006`), with nothing else. A
/// commander named of another brigade than the one activated is refused,
/// never read as the active one's.
fn commander_order(game: &BrothersAtWar, toks: &[Tok]) -> Option<Result<String, Rejection>> {
    let side = game.decider()?;
    let commanders: Vec<(BrigadeId, Vec<String>)> = game
        .battle
        .brigade_ids()
        .filter(|&b| game.battle.brigade_side(b) == side)
        .filter_map(|b| {
            let c = game.battle.scenario.brigades[b.index()]
                .commander
                .as_ref()?;
            let words: Vec<String> = name_words(&c.name)
                .into_iter()
                .filter(|w| w.len() >= 3 && !words::RANKS.contains(&w.as_str()))
                .collect();
            Some((b, words))
        })
        .collect();
    let mut named = false;
    let mut stays = false;
    let mut goes = false;
    let mut hexes: Vec<Hex> = Vec::new();
    let mut who: Vec<BrigadeId> = Vec::new();
    for t in toks {
        match t {
            Tok::Key("STAY") => stays = true,
            Tok::Verb("COMMANDER") => named = true,
            Tok::Verb("MOVE") => goes = true,
            Tok::Hex(h) => hexes.push(*h),
            Tok::Brigade(b) if game.battle.brigade_side(*b) == side => {
                named = true;
                who.push(*b);
            }
            Tok::Word(w) => {
                if let Some((b, _)) = commanders.iter().find(|(_, n)| n.contains(w)) {
                    named = true;
                    who.push(*b);
                } else if words::RANKS.contains(&w.as_str()) || w == "HE" || w == "HIM" {
                    named |= w != "HE" && w != "HIM";
                } else if COMMANDER_GOES.contains(&w.as_str()) {
                    goes = true;
                } else if !COMMANDER_WORDS.contains(&w.as_str()) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    let text = match hexes.as_slice() {
        [] if named && stays && !goes => "COMMANDER STAY".to_string(),
        [h] if named && !stays => format!("COMMANDER {h}"),
        _ => return None,
    };
    let active = game.now.activation.as_ref().map(|a| a.brigade);
    if let (Some(active), Some(&other)) = (active, who.iter().find(|&&b| Some(b) != active)) {
        if game.battle.brigade_side(active) == side {
            let name = |b: BrigadeId| {
                game.battle.scenario.brigades[b.index()]
                    .commander
                    .as_ref()
                    .map_or_else(|| game.brigade_name(b), |c| c.name.clone())
            };
            return Some(Err(Rejection {
                line: String::new(),
                problem: format!(
                    "{} does not command now: the brigade activated is {}, whose commander is                      {}; write {text} for him",
                    name(other),
                    names::brigade(game, active),
                    name(active)
                ),
                rule: None,
                suggestions: Vec::new(),
            }));
        }
    }
    Some(Ok(text))
}

/// Four digits that are no hex in a line (`12o moves 0906, 0097`): the
/// refusal says the nearest legal hexes of the same order for the same
/// unit (`did you mean 0907?`), the closest to what was written first.
fn bad_hex(game: &BrothersAtWar, line: &str, toks: &[Tok], bad: &str) -> Rejection {
    let side = deciding(game, toks);
    let verb = toks
        .iter()
        .find_map(|t| match t {
            Tok::Verb(v) => Some(*v),
            _ => None,
        })
        .unwrap_or("MOVE");
    let mut own: Vec<String> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Unit(u) if game.side_of(*u) == side => Some(game.unit_name(*u)),
            _ => None,
        })
        .collect();
    own.dedup();
    let written: Vec<Result<Hex, &str>> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Hex(h) => Some(Ok(*h)),
            Tok::BadHex(b) => Some(Err(b.as_str())),
            _ => None,
        })
        .collect();
    let at = written.iter().position(|w| *w == Err(bad)).unwrap_or(0);
    let legal = game.legal();
    let ours = |units: &Vec<String>| own.is_empty() || *units == own;
    let mut candidates: Vec<(usize, usize, &Order, Option<Hex>)> = legal
        .iter()
        .enumerate()
        .filter_map(|(n, o)| {
            let path: Vec<Hex> = match o {
                Order::Act {
                    units,
                    action: Action::Move(p),
                } if verb == "MOVE" && ours(units) => p.clone(),
                Order::Act {
                    units,
                    action: Action::Fire(h) | Action::FireSide(h, _),
                } if verb == "FIRE" && ours(units) => vec![*h],
                Order::Commander(Some(h)) if verb == "COMMANDER" => vec![*h],
                Order::Retreat(p) if verb == "RETREAT" => p.clone(),
                _ => return None,
            };
            let mut score = 6 * path.len().abs_diff(written.len());
            for (w, p) in written.iter().zip(&path) {
                let p = p.to_string();
                score += match w {
                    Ok(h) => 3 * words::edits(&h.to_string(), &p, 4),
                    Err(b) => {
                        let mut x: Vec<u8> = b.bytes().collect();
                        let mut y: Vec<u8> = p.bytes().collect();
                        x.sort_unstable();
                        y.sort_unstable();
                        // Two digits swapped are nearer than two changed.
                        2 * words::edits(b, &p, 4) - usize::from(x == y)
                    }
                };
            }
            Some((score, n, o, path.get(at).copied()))
        })
        .collect();
    candidates.sort_by_key(|(score, n, _, _)| (*score, *n));
    let Some(&(_, _, _, Some(meant))) = candidates.first() else {
        return unreadable(line, format!("{bad} is not a hex"));
    };
    Rejection {
        line: line.trim().to_string(),
        problem: format!(
            "{bad} is not a hex (a hex is its column and its row, two digits each): did you \
             mean {meant}?"
        ),
        rule: None,
        suggestions: candidates
            .iter()
            .take(MAX_SUGGESTIONS)
            .map(|(_, _, o, _)| o.to_string())
            .collect(),
    }
}

/// Reads a line's words into the canonical notation.
fn read_words(game: &BrothersAtWar, line: &str) -> Result<String, Rejection> {
    let mut toks = tokens(game, &remarks_removed(game, line)).map_err(|mut r| {
        r.line = line.trim().to_string();
        r
    })?;
    if toks.is_empty() {
        return Err(unreadable(line, "the line has no order"));
    }
    let first_verb = toks.iter().find_map(|t| match t {
        Tok::Verb(v) => Some(*v),
        _ => None,
    });
    // The order's verb again at the end, a cheer (`moves to 0904, 0804,
    // charge`): it adds nothing. Only at the end: a verb between the
    // parts of a line may start another order (`10M MOVE 0904 11N MOVE
    // 0905` is refused).
    while toks.len() > 1
        && toks
            .last()
            .is_some_and(|t| matches!(t, Tok::Verb(v) if Some(*v) == first_verb))
        && toks.iter().filter(|t| matches!(t, Tok::Verb(_))).count() > 1
    {
        toks.pop();
    }
    if let Some(bad) = toks.iter().find_map(|t| match t {
        Tok::BadHex(b) => Some(b.clone()),
        _ => None,
    }) {
        return Err(bad_hex(game, line, &toks, &bad));
    }
    if let Some(order) = commander_order(game, &toks) {
        return order.map_err(|r| Rejection {
            line: line.trim().to_string(),
            ..r
        });
    }
    described_target(line, &toks, first_verb)?;
    let side = deciding(game, &toks);
    let verbs: Vec<&str> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Verb(v) => Some(*v),
            _ => None,
        })
        .collect();
    let hexes: Vec<Hex> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Hex(h) => Some(*h),
            _ => None,
        })
        .collect();
    let numbers: Vec<u16> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Number(n) => Some(*n),
            _ => None,
        })
        .collect();
    let brigades: Vec<String> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Brigade(b) => Some(game.brigade_name(*b)),
            _ => None,
        })
        .collect();
    let has = |k: &str| toks.iter().any(|t| matches!(t, Tok::Key(x) if *x == k));
    let mut own: Vec<UnitId> = Vec::new();
    let mut enemy: Vec<UnitId> = Vec::new();
    for t in &toks {
        if let Tok::Unit(u) = t {
            let list = if game.side_of(*u) == side {
                &mut own
            } else {
                &mut enemy
            };
            if !list.contains(u) {
                list.push(*u);
            }
        }
    }
    let is_skirmisher = |u: &UnitId| game.kind_of(*u) == UnitKind::Skirmisher;
    let verb = match verbs.first() {
        Some(v) => *v,
        None if !own.is_empty() && !hexes.is_empty() => "MOVE",
        None => return Err(unreadable(line, "the line has no verb")),
    };
    // A key or a number the order does not take would be dropped: the
    // line is refused rather than read as another order.
    for t in &toks {
        match t {
            Tok::Key(k) if !keys_of(verb).contains(k) => {
                return Err(unreadable(
                    line,
                    format!("{k} is no part of a {verb} order"),
                ))
            }
            Tok::Number(n) if !takes_numbers(verb) => {
                return Err(unreadable(
                    line,
                    format!("{n} is not a hex (a hex is four digits, as 0907)"),
                ))
            }
            _ => {}
        }
    }
    let one = |what: &str| -> Result<(), Rejection> {
        if verbs.len() > 1 {
            Err(unreadable(
                line,
                format!("write one order a line ({what} ...)"),
            ))
        } else {
            Ok(())
        }
    };
    let number = |what: &str| -> Result<u16, Rejection> {
        match numbers.as_slice() {
            [n] => Ok(*n),
            _ => Err(unreadable(line, format!("give {what}"))),
        }
    };
    let brigade = || -> Result<String, Rejection> {
        match brigades.as_slice() {
            [b] => Ok(b.clone()),
            _ => Err(unreadable(line, "name one brigade")),
        }
    };
    // The units that act: those named of the deciding side, else the
    // active unit or stack.
    let actors = |own: &[UnitId]| -> Result<String, Rejection> {
        let units: Vec<UnitId> = if own.is_empty() {
            game.now
                .activation
                .as_ref()
                .and_then(|a| a.group.as_ref())
                .map(|g| g.units.clone())
                .unwrap_or_default()
        } else {
            own.to_vec()
        };
        match units.len() {
            0 => Err(unreadable(line, "name the unit (no unit is active)")),
            1 | 2 => Ok(units
                .iter()
                .map(|&u| game.unit_name(u))
                .collect::<Vec<_>>()
                .join(" ")),
            _ => Err(unreadable(
                line,
                "name one unit, or the two units of a stack",
            )),
        }
    };
    let path = |hexes: &[Hex]| {
        hexes
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    Ok(match verb {
        "MOVE" => {
            one("MOVE")?;
            if hexes.is_empty() {
                return Err(unreadable(line, "a move names the hexes entered"));
            }
            format!("{} MOVE {}", actors(&own)?, path(&hexes))
        }
        // 9.43, B147: an enemy off-board battery named, and no hex.
        "FIRE"
            if hexes.is_empty()
                && matches!(enemy.as_slice(), [b] if game.battery_card(*b).is_some()) =>
        {
            one("FIRE")?;
            format!("{} FIRE {}", actors(&own)?, game.unit_name(enemy[0]))
        }
        "FIRE" => {
            one("FIRE")?;
            let target: Vec<Hex> = hexes
                .iter()
                .copied()
                .chain(enemy.iter().filter_map(|&u| game.hex_of(u)))
                .collect();
            let target = match target.as_slice() {
                [h] => *h,
                [h, rest @ ..] if rest.iter().all(|r| r == h) => *h,
                _ => {
                    return Err(unreadable(
                        line,
                        "fire names one target: a hex or an enemy unit",
                    ))
                }
            };
            // B24: the side of a line along hexsides, if named.
            let side = match (has("LEFT"), has("RIGHT")) {
                (true, false) => " SIDE LEFT",
                (false, true) => " SIDE RIGHT",
                (false, false) => "",
                (true, true) => return Err(unreadable(line, "name one side: LEFT or RIGHT")),
            };
            format!("{} FIRE {target}{side}", actors(&own)?)
        }
        "DEPLOY" => {
            one("DEPLOY")?;
            let (skirmishers, others): (Vec<UnitId>, Vec<UnitId>) =
                own.iter().partition(|u| is_skirmisher(u));
            let [sk] = skirmishers.as_slice() else {
                return Err(unreadable(
                    line,
                    "DEPLOY names one skirmisher of the brigade",
                ));
            };
            format!(
                "{} DEPLOY {}{}",
                actors(&others)?,
                game.unit_name(*sk),
                if has("MOUNTED") { " MOUNTED" } else { "" }
            )
        }
        "FORM" | "HOLD" | "DONE" | "EXIT" | "DISBAND" => {
            one(verb)?;
            format!("{} {verb}", actors(&own)?)
        }
        "PASS" => match verbs.as_slice() {
            ["PASS"] => "PASS".to_string(),
            ["PASS", "DISCARD"] if has("NEW") => "PASS DISCARD NEW".to_string(),
            ["PASS", "DISCARD"] => format!("PASS DISCARD {}", number("the card to discard")?),
            _ => return Err(unreadable(line, "write PASS, or PASS DISCARD card|NEW")),
        },
        "END" => {
            one(verb)?;
            "END UNITS".to_string()
        }
        "READY" | "KEEP" => {
            one(verb)?;
            verb.to_string()
        }
        "COMMANDER" => {
            one("COMMANDER")?;
            match hexes.as_slice() {
                [h] => format!("COMMANDER {h}"),
                [] => "COMMANDER STAY".to_string(),
                _ => return Err(unreadable(line, "the commander moves to one hex")),
            }
        }
        "RETREAT" => format!("RETREAT {}", path(&hexes)),
        // B110: the remnant's hex, the answer to a question.
        "REMNANT" => match hexes.as_slice() {
            [h] => format!("REMNANT {h}"),
            _ => {
                return Err(unreadable(
                    line,
                    "the remnant goes to one hex: REMNANT 0404",
                ))
            }
        },
        // B145: the answer names no unit (the question did).
        "SPEND" if own.is_empty() && enemy.is_empty() => "SPEND RESERVE".to_string(),
        "SPEND" => {
            return Err(unreadable(
                line,
                "SPEND RESERVE names no unit: it saves the unit the question named",
            ))
        }
        "LOSE" | "ELIMINATE" => match own.as_slice() {
            [u] if enemy.is_empty() => format!("{verb} {}", game.unit_name(*u)),
            _ => {
                return Err(unreadable(
                    line,
                    format!("{verb} names one unit of your own"),
                ))
            }
        },
        "FATE" | "RALLYFAIL" => {
            return Err(unreadable(
                line,
                format!("write {verb} brigade (or USA, CSA) and its value"),
            ))
        }
        "PLAY" => {
            one(verb)?;
            let card = number("a card number")?;
            // 11.0, B125: the target a card's kind takes, as named.
            let on: Vec<String> = own
                .iter()
                .chain(&enemy)
                .map(|&u| game.unit_name(u))
                .chain(hexes.iter().map(|h| h.to_string()))
                .chain(brigades.iter().cloned())
                .collect();
            match on.as_slice() {
                [] => format!("PLAY {card}"),
                [x] => format!("PLAY {card} ON {x}"),
                _ => {
                    return Err(unreadable(
                        line,
                        "a card is played on one unit, hex or brigade",
                    ))
                }
            }
        }
        "DISCARD" => {
            one(verb)?;
            format!("{verb} {}", number("a card number")?)
        }
        "COMMIT" => format!("COMMIT {}", brigade()?),
        "OPFIRE" => {
            let rule = ["ALWAYS", "NEVER", "ASK"]
                .into_iter()
                .find(|k| has(k))
                .ok_or_else(|| unreadable(line, "OPFIRE brigade ALWAYS, NEVER or ASK"))?;
            format!("OPFIRE {} {rule}", brigade()?)
        }
        "MORE" => {
            return Err(unreadable(
                line,
                "MORE, as the last line of a mail, keeps the activation open",
            ))
        }
        other => return Err(unreadable(line, format!("{other} is not read here"))),
    })
}

/// The line without the mark of a list it was written in (`1.`, `2)`,
/// `-`, `*`): players number their orders.
fn unlisted(line: &str) -> &str {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if (1..=2).contains(&digits) && t[digits..].starts_with(['.', ')']) {
        &t[digits + 1..]
    } else if t.starts_with(['-', '*', '\u{2022}']) {
        t.trim_start_matches(['-', '*', '\u{2022}'])
    } else {
        return line;
    };
    if rest.starts_with(char::is_whitespace) {
        rest.trim_start()
    } else {
        line
    }
}

/// The line without a sentence's closing stop (`Play 17 on 10M.`).
fn sentence_end_removed(line: &str) -> &str {
    line.trim_end().trim_end_matches(['.', '!'])
}

/// Reads `line` and checks it against the game: the order, or why not.
pub fn read_checked(game: &BrothersAtWar, line: &str) -> Result<Order, Rejection> {
    let written = line;
    let line = unlisted(line);
    // The canonical notation first (any case): every order the engine
    // knows, the standing instructions among them, reads as itself (a
    // remark in brackets beside it aside); a chance order only while the
    // game waits for that draw.
    let canonical_order = game
        .parse_order(sentence_end_removed(&remarks_removed(game, line)))
        .ok()
        .filter(|o| {
            game.chance().is_some()
                || !matches!(
                    o,
                    Order::Draw(_) | Order::Roll(_) | Order::Card(_) | Order::First(_)
                )
        });
    let order = match canonical_order {
        Some(order) if line.len() <= MAX_LINE => order,
        _ => {
            // A line not read is quoted as it came, list mark and all.
            let text = canonical(game, line).map_err(|mut r| {
                r.line = written.trim().to_string();
                r
            })?;
            game.parse_order(&text)
                .map_err(|e| own_examples(game, unreadable(written, e.to_string())))?
        }
    };
    match game.clone().apply(&order) {
        Ok(_) => Ok(order),
        Err(refusal) => Err(Rejection {
            line: written.trim().to_string(),
            problem: card_not_now(game, &order, &refusal).unwrap_or_else(|| refusal.to_string()),
            rule: Some(refusal.rule()),
            suggestions: suggestions(game, &order),
        }),
    }
}

/// The refusal of a card of the enemy's moments played by a line (B124,
/// B137), in the writer's words: when it acts (its kind's moments,
/// [`names::card_moment`]), that his `CARDS` instruction plays it (his
/// side's code, `AUTO` and `ASK`), and the instruction he has now.
fn card_not_now(game: &BrothersAtWar, order: &Order, refusal: &Refusal) -> Option<String> {
    let (Order::Play { card, .. }, Refusal::CardNotNow { .. }) = (order, refusal) else {
        return None;
    };
    let entry = game.card_entry(*card)?;
    if !Kind::of(&entry.effect).by_instruction() {
        return None;
    }
    let side = game.decider()?;
    let code = side.code();
    let now = game
        .now
        .instructions
        .get(side, None, Setting::Cards(CardsRule::Never));
    let brigades: Vec<String> = game
        .battle
        .brigade_ids()
        .filter(|&b| game.battle.brigade_side(b) == side)
        .filter_map(|b| {
            let own = game
                .now
                .instructions
                .get(side, Some(b), Setting::Cards(CardsRule::Never));
            (own != now).then(|| format!("CARDS {} {}", game.brigade_name(b), value_of(own)))
        })
        .collect();
    let also = if brigades.is_empty() {
        String::new()
    } else {
        format!(" ({})", brigades.join(", "))
    };
    Some(format!(
        "card {card} ({}) is not played by a line: it acts {}, played by your CARDS \
         instruction (B137), which is not now. You have CARDS {code} {}{also}; CARDS {code} \
         AUTO plays it as that moment comes, CARDS {code} ASK asks you then (B148)",
        entry.name,
        names::card_moment(entry),
        value_of(now)
    ))
}

/// The value of a `CARDS` setting as written (`AUTO`).
fn value_of(setting: Setting) -> String {
    setting
        .to_string()
        .split_whitespace()
        .last()
        .unwrap_or_default()
        .to_string()
}

/// The units an order names, if any.
fn units_of(order: &Order) -> &[String] {
    match order {
        Order::Act { units, .. } => units,
        _ => &[],
    }
}

fn verb_of(order: &Order) -> std::mem::Discriminant<Order> {
    std::mem::discriminant(order)
}

fn action_of(order: &Order) -> Option<std::mem::Discriminant<Action>> {
    match order {
        Order::Act { action, .. } => Some(std::mem::discriminant(action)),
        _ => None,
    }
}

/// The hexes an order names: a move's path, a fire's target, a
/// commander's or a retreat's hexes.
fn hexes_of(order: &Order) -> Vec<Hex> {
    match order {
        Order::Act {
            action: Action::Move(path),
            ..
        }
        | Order::Retreat(path) => path.clone(),
        Order::Act {
            action: Action::Fire(h) | Action::FireSide(h, _),
            ..
        }
        | Order::Commander(Some(h)) => vec![*h],
        _ => Vec::new(),
    }
}

/// The hex of the commander of the brigade activated, if any.
fn commander_hex(game: &BrothersAtWar) -> Option<Hex> {
    let b = game.now.activation.as_ref()?.brigade;
    game.brigade(b).commander
}

/// How far the legal order `o` is from the `written` one, among orders of
/// one kind: a commander's stay first, then his hexes by their distance
/// from him (from the hex written, when one was: its digits first, so
/// that a typo finds its hex); the hexes of the same action by how close
/// their digits and places are to those written.
fn closeness(game: &BrothersAtWar, written: &Order, o: &Order) -> u32 {
    let near =
        |a: Hex, b: Hex| 8 * words::edits(&a.to_string(), &b.to_string(), 4) as u32 + a.distance(b);
    match (written, o) {
        (_, Order::Commander(None)) => 0,
        (Order::Commander(Some(w)), Order::Commander(Some(h))) => 1 + near(*w, *h),
        (_, Order::Commander(Some(h))) => 1 + commander_hex(game).map_or(0, |c| c.distance(*h)),
        _ if action_of(written) == action_of(o) && verb_of(written) == verb_of(o) => {
            let (w, h) = (hexes_of(written), hexes_of(o));
            if w.is_empty() {
                return 0;
            }
            let apart = 40 * w.len().abs_diff(h.len()) as u32;
            apart + w.iter().zip(&h).map(|(a, b)| near(*a, *b)).sum::<u32>()
        }
        _ => 0,
    }
}

/// The legal orders nearest to `order`: of the same units and action
/// first, then of the same units, then of the same kind; among them the
/// nearest hexes first ([`closeness`]).
pub fn suggestions(game: &BrothersAtWar, order: &Order) -> Vec<String> {
    let legal = game.legal();
    // A card is answered with the cards he may play now, or nothing: a
    // PASS or an END is no card's neighbour.
    if matches!(order, Order::Play { .. }) {
        return legal
            .iter()
            .filter(|o| matches!(o, Order::Play { .. }))
            .take(MAX_SUGGESTIONS)
            .map(ToString::to_string)
            .collect();
    }
    let score = |o: &Order| -> u8 {
        let same_units = !units_of(order).is_empty() && units_of(o) == units_of(order);
        match (
            same_units,
            action_of(o) == action_of(order),
            verb_of(o) == verb_of(order),
        ) {
            (true, true, _) => 0,
            (true, false, _) => 1,
            (false, true, true) => 2,
            (false, _, true) => 3,
            _ => 4,
        }
    };
    let mut ranked: Vec<(u8, &Order)> = legal.iter().map(|o| (score(o), o)).collect();
    // Orders of one kind stay together, where the first of them is.
    let group = |o: &Order| legal.iter().position(|l| verb_of(l) == verb_of(o));
    ranked.sort_by_key(|(s, o)| (*s, group(o), closeness(game, order, o)));
    ranked
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, o)| o.to_string())
        .collect()
}

#[cfg(test)]
mod remnant_tests {
    use super::canonical;
    use crate::games::brothers_at_war::core::state::BrothersAtWar;
    use crate::games::GameOptions;

    #[test]
    fn the_answer_naming_a_remnants_hex_is_read() {
        let g = <BrothersAtWar as crate::games::Game>::new(&GameOptions::default());
        for line in ["remnant 0404", "REMNANT 0404", "Remnant 0404."] {
            assert_eq!(
                canonical(&g, line).ok().as_deref(),
                Some("REMNANT 0404"),
                "{line}"
            );
        }
        assert!(canonical(&g, "remnant 0404 0405").is_err());
    }
}
