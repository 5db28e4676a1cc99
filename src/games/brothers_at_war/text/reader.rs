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

use super::words::{self, CHANCE_VERBS, FILLERS};
use crate::games::brothers_at_war::core::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::core::order::{Action, Order};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};
use crate::games::{CitesRule, Game, OrderWord, Rejection};

/// The longest line read, in characters.
pub const MAX_LINE: usize = 200;

/// The most words a line may have.
pub const MAX_WORDS: usize = 40;

/// The most suggestions given with a refusal.
pub const MAX_SUGGESTIONS: usize = 4;

/// What the reader accepts, named in every refusal of an unreadable line.
pub const ACCEPTED: &str = "write a unit order as 10M MOVE 1005 1006 (or 10M moves to 1005, \
1006), 10M FIRE 0907 (or fire on the 2nd Bexley, or on the skirmishers at 0907), 10M FORM, \
10M HOLD, 10M DONE, 10M DEPLOY WSK, WSK DISBAND; or PASS, END, COMMANDER 1205 (or COMMANDER \
STAY), DISCARD 17, COMMIT ward, READY, OPFIRE ward ALWAYS|NEVER|ASK";

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
        .map(|(h, n)| (words_of(n), *h))
        .collect();
    let units: Vec<(Vec<String>, UnitId)> = scenario
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| (words_of(&u.name), UnitId(i as u16)))
        .collect();
    let brigades: Vec<(Vec<String>, BrigadeId)> = scenario
        .brigades
        .iter()
        .enumerate()
        .map(|(i, b)| (words_of(&b.name), BrigadeId(i as u8)))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
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
                Err(_) => return Err(unreadable(line, format!("{w} is not a hex"))),
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
                    Err(_) => return Err(unreadable(line, format!("{part} is not a hex"))),
                }
            }
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
        let described = verb == Some("FIRE")
            && after_fire
            && hex_next
            && !names_a_unit
            && words <= MAX_DESCRIPTION;
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
    if line.len() > MAX_LINE {
        return Err(unreadable(
            line,
            format!("the line is longer than {MAX_LINE} characters"),
        ));
    }
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
                .map_err(|e| unreadable(written, e.to_string()))?
        }
    };
    match game.clone().apply(&order) {
        Ok(_) => Ok(order),
        Err(refusal) => Err(Rejection {
            line: written.trim().to_string(),
            problem: refusal.to_string(),
            rule: Some(refusal.rule()),
            suggestions: suggestions(game, &order),
        }),
    }
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

/// The legal orders nearest to `order`: of the same units and action
/// first, then of the same units, then of the same kind.
pub fn suggestions(game: &BrothersAtWar, order: &Order) -> Vec<String> {
    let legal = game.legal();
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
    ranked.sort_by_key(|(s, _)| *s);
    ranked
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, o)| o.to_string())
        .collect()
}
