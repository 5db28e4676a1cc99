//! The words of the order language: the verbs and the forms players write
//! them in, the joining words a reader skips, and what a word of a mail is
//! to the service's mail-habits filter ([`order_word`]).
//!
//! [`order_word`] knows no game (it is asked before a game is found), so
//! it goes by shape: a unit's id has digits and letters (`19IN`, `AL1`),
//! or is written in capitals without a vowel (`WSK`) or with a dash
//! (`BTY-A`); a hex is four digits. Shapes another hosted game owns (`B3C`, `H7`: a
//! letter, one or two digits, at most two letters) are left to it. A
//! regiment's own name in any registered battle (`Greer` of `7th Greer
//! Infantry`) is a unit's word too.

use crate::games::brothers_at_war::scenario::registry;
use crate::games::OrderWord;

/// Each verb players may write (upper case) and the canonical verb it
/// stands for.
pub const VERBS: &[(&str, &str)] = &[
    ("MOVE", "MOVE"),
    ("MOVES", "MOVE"),
    ("MARCH", "MOVE"),
    ("MARCHES", "MOVE"),
    ("ADVANCE", "MOVE"),
    ("ADVANCES", "MOVE"),
    ("FORM", "FORM"),
    ("FORMS", "FORM"),
    ("FLIP", "FORM"),
    ("FLIPS", "FORM"),
    ("FIRE", "FIRE"),
    ("FIRES", "FIRE"),
    ("SHOOT", "FIRE"),
    ("SHOOTS", "FIRE"),
    ("HOLD", "HOLD"),
    ("HOLDS", "HOLD"),
    ("DEPLOY", "DEPLOY"),
    ("DEPLOYS", "DEPLOY"),
    ("DISBAND", "DISBAND"),
    ("DISBANDS", "DISBAND"),
    ("DONE", "DONE"),
    ("EXIT", "EXIT"),
    ("EXITS", "EXIT"),
    ("PASS", "PASS"),
    ("PASSES", "PASS"),
    ("END", "END"),
    ("COMMANDER", "COMMANDER"),
    ("RETREAT", "RETREAT"),
    ("RETREATS", "RETREAT"),
    ("SPEND", "SPEND"),
    ("PLAY", "PLAY"),
    ("PLAYS", "PLAY"),
    ("DISCARD", "DISCARD"),
    ("DISCARDS", "DISCARD"),
    ("KEEP", "KEEP"),
    ("OPFIRE", "OPFIRE"),
    ("COMMIT", "COMMIT"),
    ("COMMITS", "COMMIT"),
    ("READY", "READY"),
    ("MORE", "MORE"),
    ("ASSAULT", "MOVE"),
    ("ASSAULTS", "MOVE"),
    ("CHARGE", "MOVE"),
    ("CHARGES", "MOVE"),
    // Answers to a question of a combat result (B145) and orders given
    // at any moment (B146, B116).
    ("LOSE", "LOSE"),
    ("LOSES", "LOSE"),
    ("ELIMINATE", "ELIMINATE"),
    ("ELIMINATES", "ELIMINATE"),
    ("REMOVE", "ELIMINATE"),
    ("REMOVES", "ELIMINATE"),
    // Where a remnant goes, when asked (2.33, B110).
    ("REMNANT", "REMNANT"),
    // Standing instructions (B5), read in their canonical form.
    ("POINTBLANK", "POINTBLANK"),
    ("RALLYFAIL", "RALLYFAIL"),
    ("FATE", "FATE"),
    ("EVADE", "EVADE"),
    ("RESERVES", "RESERVES"),
    ("LOSSES", "LOSSES"),
    ("PATHS", "PATHS"),
    ("CARDS", "CARDS"),
];

/// The words regiments' and batteries' names end with (`6th Fenwick
/// Infantry`): part of a unit's name in an order, not prose.
pub const UNIT_NAME_WORDS: &[&str] = &[
    "INFANTRY",
    "CAVALRY",
    "ARTILLERY",
    "RIFLES",
    "VOLUNTEERS",
    "BATTERY",
    "REGIMENT",
    "SKIRMISHERS",
    "BRIGADE",
];

/// The men of a unit after its reference (`the Pomfret boys`, `our
/// Fenwick lads`): part of the reference, not a fire's description.
pub const FOLK_WORDS: &[&str] = &[
    "BOYS", "LADS", "MEN", "FELLOWS", "FELLAS", "GUYS", "CHAPS", "TROOPS", "SOLDIERS", "FOLKS",
];

/// The values a standing instruction takes (B5, B137) and the sides it
/// may name: no order's verb, but part of an instruction's line.
pub const SETTING_VALUES: &[&str] = &[
    "ALWAYS",
    "NEVER",
    "ASK",
    "AUTO",
    "IFKILLED",
    "LONG",
    "KEEPLAST",
    "WEAKEST",
    "STRONGEST",
    "FINISH",
    "STAY",
    "RECOVER",
    "USA",
    "CSA",
];

/// Verbs only the service writes (chance): a player's line with one is
/// refused before the game sees it.
pub const CHANCE_VERBS: &[&str] = &["DRAW", "ROLL", "CARD", "FIRST"];

/// Words that only join the parts of an order (`MOVE 19IN TO 0713`, `FIRE
/// AT THE 2ND ...`).
pub const FILLERS: &[&str] = &[
    "TO",
    "AT",
    "ON",
    "THE",
    "AND",
    "THEN",
    "VIA",
    "THROUGH",
    "INTO",
    "FROM",
    "HEX",
    "HEXES",
    // `FIRE 0712 SIDE LEFT` (6.32, B24): the side itself is a key.
    "SIDE",
    "ALONG",
    "UNIT",
    "UNITS",
    "WITH",
    "OF",
    "BRIGADE",
    "UNION",
    "CONFEDERACY",
    "CONFEDERATE",
    "USA",
    "CSA",
    "UPON",
    "TOWARD",
    "TOWARDS",
    "ITS",
    "HIS",
    "ACTIVATION",
];

/// The canonical verb `word` stands for (any case).
pub fn verb(word: &str) -> Option<&'static str> {
    let up = word.to_ascii_uppercase();
    VERBS.iter().find(|(w, _)| *w == up).map(|(_, v)| *v)
}

/// Whether `word` is four digits: a hex (`0712`).
pub fn is_hex_like(word: &str) -> bool {
    word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `word` is shaped like another game's square (`B3C`, `H7`,
/// `G12`): a letter, one or two digits, at most two letters.
fn square_shaped(up: &str) -> bool {
    let b = up.as_bytes();
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return false;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    let letters = &b[1 + digits..];
    (1..=2).contains(&digits)
        && letters.len() <= 2
        && letters.iter().all(|c| c.is_ascii_alphabetic())
}

/// Whether `word` is shaped like a unit's id: letters and digits (a dash
/// inside allowed), at most eight characters, not an ordinal (`2ND`).
pub fn unit_shaped(word: &str) -> bool {
    let up = word.to_ascii_uppercase();
    let ordinal = ["ST", "ND", "RD", "TH"].iter().any(|s| {
        up.strip_suffix(s)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    up.len() <= 8
        && up.bytes().any(|b| b.is_ascii_digit())
        && up.bytes().any(|b| b.is_ascii_alphabetic())
        && up.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !ordinal
        && !square_shaped(&up)
}

/// Whether `word`, as written, is capitals shaped like an id without
/// digits: no vowel (`WSK`, `BTY`: the service reads `BTY-A` as two
/// words), or a dash inside. Prose in capitals rarely has either.
fn capital_id(word: &str) -> bool {
    // Capitals without a vowel that mail is full of.
    const ABBREVIATIONS: &[&str] = &[
        "THX", "BTW", "FYI", "WHY", "TRY", "PPS", "HTML", "SMTP", "HTTP", "PDF", "MSG", "PLS",
        "PLZ", "NTH", "BRB", "GTG", "TTYL", "SHH", "HMM", "GRR", "DRY", "SPY", "WWW",
    ];
    let b = word.as_bytes();
    !ABBREVIATIONS.contains(&word)
        && (3..=8).contains(&b.len())
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'-')
        && b[0].is_ascii_uppercase()
        && !b.ends_with(b"-")
        && (b.contains(&b'-') || !b.iter().any(|c| b"AEIOU".contains(c)))
}

/// What `word` is to the order language (see [`OrderWord`]).
pub fn order_word(word: &str) -> OrderWord {
    let w = word.trim_matches(|c: char| c == ',' || c == '.' || c == ';');
    let up = w.to_ascii_uppercase();
    if verb(&up).is_some() {
        return OrderWord::Verb;
    }
    if is_hex_like(&up) {
        return OrderWord::Square;
    }
    if !up.is_empty() && up.len() <= 3 && up.bytes().all(|b| b.is_ascii_digit()) {
        return OrderWord::Number;
    }
    if unit_shaped(&up) || (capital_id(w) && !square_shaped(&up)) || regiment_name(&up) {
        return OrderWord::Unit;
    }
    // A single letter is the tail of an id the mail cut at its dash
    // (`BTY-A`), or an article: neither way an order's word nor prose.
    let letter = up.len() == 1 && up.bytes().all(|b| b.is_ascii_alphabetic());
    if letter
        || FILLERS.contains(&up.as_str())
        || matches!(up.as_str(), "STAY" | "MOUNTED" | "RESERVE" | "LEFT" | "RIGHT")
        // Part of a regiment's name (`the 10th Millbrook Infantry`), or of
        // a date.
        || ordinal(&up)
        || UNIT_NAME_WORDS.contains(&up.as_str())
        // The values of standing instructions (B5, B137) and the sides.
        || SETTING_VALUES.contains(&up.as_str())
    {
        return OrderWord::Filler;
    }
    OrderWord::Other
}

/// Whether `up` (upper case) is a regiment's own name in a battle that
/// can be played: the word after the number of a unit's name (`GREER` of
/// `7th Greer Infantry`), so that `the 7th Greer moves to 0705` reads as
/// an order, not as prose; or, in the singular or the plural, another
/// word of a unit's name that tells it apart ([`name_words`]: `the
/// Fenwicks fire`, `our sharpshooters move`). An apostrophe does not count (the service
/// drops it).
fn regiment_name(up: &str) -> bool {
    let bare = |w: &str| -> String {
        w.chars()
            .filter(|c| !matches!(c, '\'' | '\u{2019}'))
            .collect::<String>()
            .to_ascii_uppercase()
    };
    let up = bare(up);
    if up.len() < 2 || !up.bytes().all(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    registry::ids()
        .iter()
        .filter_map(|id| registry::get(id))
        .any(|battle| {
            battle.scenario.units.iter().any(|unit| {
                let words: Vec<String> = unit.name.split_whitespace().map(bare).collect();
                words
                    .windows(2)
                    .any(|pair| ordinal(&pair[0]) && pair[1].trim_end_matches(',') == up)
                    // A regiment's name in the plural (`the Fenwicks`),
                    // or another word that tells the unit apart.
                    || name_words(&unit.name).iter().any(|n| same_word(n, &up))
            })
        })
}

/// Words of units' names that say what a unit is or where it was raised
/// rather than which one it is: never a reference on their own.
const GENERIC_NAME_WORDS: &[&str] = &[
    "LIGHT",
    "HEAVY",
    "COUNTY",
    "HORSE",
    "FOOT",
    "STATE",
    "MILITIA",
    "LEGION",
    "GUARD",
    "BATTALION",
    "COMPANY",
    "MOUNTED",
    "VOLUNTEER",
];

/// The words of a unit's name (upper case, apostrophes dropped) that tell
/// it apart: `FENWICK` of `6th Fenwick Infantry`, `SHARPSHOOTERS` of
/// `Hale's Sharpshooters`; not its number, its arm (`Infantry`), a
/// brigade's or a commander's possessive (`Hale's`), nor a letter.
pub fn name_words(name: &str) -> Vec<String> {
    name.split_whitespace()
        .filter(|w| {
            let w = w.trim_end_matches([',', '.']);
            !(w.ends_with("'s") || w.ends_with("'S") || w.ends_with("\u{2019}s"))
        })
        .map(|w| {
            w.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_uppercase()
        })
        .filter(|w| {
            w.len() >= 3
                && w.bytes().all(|b| b.is_ascii_alphabetic())
                && !UNIT_NAME_WORDS.contains(&w.as_str())
                && !GENERIC_NAME_WORDS.contains(&w.as_str())
                && !FILLERS.contains(&w.as_str())
                && verb(w).is_none()
        })
        .collect()
}

/// Whether `written` (upper case) is the name word `name`, in the plural
/// (`FENWICKS`, `FENWICKS'`) or the singular (`SHARPSHOOTER`) too.
pub fn same_word(name: &str, written: &str) -> bool {
    let w = written.trim_end_matches('\'');
    w == name
        || w.strip_suffix('S') == Some(name)
        || w.strip_suffix("ES") == Some(name)
        || name.strip_suffix('S') == Some(w)
}

/// Ranks a brigade's commander is called by (`Colonel Ward`, `the
/// colonel stays`), as written or shortened, upper case without stops.
pub const RANKS: &[&str] = &[
    "COLONEL",
    "COL",
    "GENERAL",
    "GEN",
    "MAJOR",
    "MAJ",
    "CAPTAIN",
    "CAPT",
    "BRIGADIER",
    "COMMANDER",
];

/// Whether `up` (upper case, apostrophes dropped) names a brigade's
/// commander in a battle that can be played: a rank ([`RANKS`]) or a
/// word of a commander's name (`HALE` of `Col. Amos Hale`). Read by the
/// service's mail filter, which knows no battle: `Hale stays where he
/// is`, `Colonel Ward to 1006` are orders, not prose.
pub fn commander_word(up: &str) -> bool {
    if RANKS.contains(&up) {
        return true;
    }
    if up.len() < 3 || !up.bytes().all(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    registry::ids()
        .iter()
        .filter_map(|id| registry::get(id))
        .any(|battle| {
            battle
                .scenario
                .brigades
                .iter()
                .filter_map(|b| b.commander.as_ref())
                .any(|c| {
                    c.name
                        .split_whitespace()
                        .map(|w| w.trim_end_matches('.').to_ascii_uppercase())
                        .any(|w| w.len() >= 3 && !RANKS.contains(&w.as_str()) && w == up)
                })
        })
}

/// Articles a card's title is read without (`Run for the Creek` is
/// `run for creek` too).
pub const ARTICLES: &[&str] = &["THE", "A", "AN"];

/// A word of a title or a line as compared: upper case, without
/// apostrophes and the stops and commas around it.
pub fn bare_word(w: &str) -> String {
    w.chars()
        .filter(|c| !matches!(c, '\'' | '\u{2019}' | '`'))
        .collect::<String>()
        .trim_matches(|c: char| matches!(c, '.' | ',' | ';' | ':' | '!' | '?'))
        .to_ascii_uppercase()
}

/// How many of `words` spell `title` from their start, articles and
/// apostrophes aside (`drummers call`, `run for creek`, `Marksman in the
/// Loft`); `None` when they do not.
pub fn title_len<S: AsRef<str>>(words: &[S], title: &str) -> Option<usize> {
    let wanted: Vec<String> = title
        .split_whitespace()
        .map(bare_word)
        .filter(|w| !w.is_empty() && !ARTICLES.contains(&w.as_str()))
        .collect();
    if wanted.is_empty() {
        return None;
    }
    let mut at = 0;
    let mut matched = 0;
    while matched < wanted.len() {
        let w = bare_word(words.get(at)?.as_ref());
        at += 1;
        if w == wanted[matched] {
            matched += 1;
        } else if !ARTICLES.contains(&w.as_str()) || matched == 0 && at > 1 {
            return None;
        }
    }
    Some(at)
}

/// How many of `words` (after a `PLAY` or a `DISCARD`) spell a card's
/// title in a battle that can be played: the mail filter reads `play
/// drummer's call` as an order, not as prose.
pub fn card_title_at<S: AsRef<str>>(words: &[S]) -> Option<usize> {
    registry::ids()
        .iter()
        .filter_map(|id| registry::get(id))
        .filter_map(|battle| {
            battle
                .scenario
                .cards
                .iter()
                .filter_map(|c| title_len(words, &c.name))
                .max()
        })
        .max()
}

/// The edit distance of `a` and `b` (letters inserted, left out,
/// changed), counted up to `most` + 1.
pub fn edits(a: &str, b: &str, most: usize) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > most {
        return most + 1;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let change = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            row[j] = change.min(prev[j] + 1).min(row[j - 1] + 1);
        }
        prev = row;
    }
    prev[b.len()].min(most + 1)
}

/// Whether `written` (upper case) is a near spelling of the name word
/// `name` (`MILBROOK` for `MILLBROOK`): a word of five letters or more,
/// one letter off (two in a name of seven letters or more: `GREAT` is
/// not `GREER`), never the word itself.
pub fn near_name(name: &str, written: &str) -> bool {
    let most = if name.len() >= 7 { 2 } else { 1 };
    written.len() >= 5
        && name.len() >= 5
        && written != name
        && written.bytes().all(|b| b.is_ascii_alphabetic())
        && edits(name, written, most) <= most
}

/// `10TH`, `2ND`: the number of a regiment's name (`the 10th Millbrook`).
fn ordinal(up: &str) -> bool {
    let digits = up.bytes().take_while(u8::is_ascii_digit).count();
    (1..=3).contains(&digits) && matches!(&up[digits..], "ST" | "ND" | "RD" | "TH")
}

/// The verb `word` may be a slip of: one letter changed, left out, added
/// or two swapped. Short verbs that are everyday words (`HOLD`, `FIRE`,
/// `PASS`) are left out: `told` or `fine` in a greeting is no slip.
pub fn slip_of(word: &str) -> Option<&'static str> {
    let up = word.to_ascii_uppercase();
    if up.len() < 4 || verb(&up).is_some() {
        return None;
    }
    VERBS
        .iter()
        .map(|(_, v)| *v)
        .find(|v| (v.len() >= 5 || *v == "MOVE") && one_slip(&up, v))
}

fn one_slip(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() == b.len() {
        let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        return match diff.as_slice() {
            [_] => true,
            [i, j] => *j == i + 1 && a[*i] == b[*j] && a[*j] == b[*i],
            _ => false,
        };
    }
    let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
    if long.len() != short.len() + 1 {
        return false;
    }
    let i = (0..short.len())
        .find(|&i| long[i] != short[i])
        .unwrap_or(short.len());
    long[i + 1..] == short[i..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_told_apart_by_shape() {
        assert_eq!(order_word("moves"), OrderWord::Verb);
        assert_eq!(order_word("0713"), OrderWord::Square);
        assert_eq!(order_word("19IN"), OrderWord::Unit);
        assert_eq!(order_word("al1"), OrderWord::Unit);
        assert_eq!(order_word("BTY-A"), OrderWord::Unit);
        assert_eq!(order_word("WSK"), OrderWord::Unit);
        assert_eq!(order_word("wsk"), OrderWord::Other);
        assert_eq!(order_word("BTY"), OrderWord::Unit);
        assert_eq!(order_word("My"), OrderWord::Other);
        assert_eq!(order_word("MY"), OrderWord::Other);
        assert_eq!(order_word("THX"), OrderWord::Other);
        assert_eq!(order_word("2nd"), OrderWord::Filler);
        assert_eq!(order_word("B3C"), OrderWord::Other);
        assert_eq!(order_word("to"), OrderWord::Filler);
        assert_eq!(order_word("A"), OrderWord::Filler);
        assert_eq!(order_word("hello"), OrderWord::Other);
        // A regiment's own name in the demo battle (`7th Greer Infantry`).
        assert_eq!(order_word("Greer"), OrderWord::Unit);
        assert_eq!(order_word("MILLBROOK"), OrderWord::Unit);
        assert_eq!(order_word("Infantry"), OrderWord::Filler);
        assert_eq!(order_word("Ward"), OrderWord::Other);
        // A regiment's name in the plural, a word that tells a unit apart.
        assert_eq!(order_word("Fenwicks"), OrderWord::Unit);
        assert_eq!(order_word("sharpshooters"), OrderWord::Unit);
        assert_eq!(order_word("light"), OrderWord::Other);
        assert_eq!(slip_of("MVOE"), Some("MOVE"));
        assert_eq!(slip_of("DISBNAD"), Some("DISBAND"));
        assert_eq!(slip_of("HELLO"), None);
    }
}
