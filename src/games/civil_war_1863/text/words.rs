//! The words of the order language: verbs, kinds of piece in the forms
//! players write them, the joining words a reader skips, and the slips of
//! the verbs a reader can name.

use crate::games::civil_war_1863::core::side::PieceKind;
use crate::games::civil_war_1863::core::square::Square;
use crate::games::OrderWord;

/// The verbs, as written (upper case). `MORE` keeps a turn open at the end
/// of a mail (docs/civil-war-1863-design.md, "By mail").
pub const VERBS: &[&str] = &[
    "MOVE",
    "MARCH",
    "RIDE",
    "FORTIFY",
    "UNFORTIFY",
    "END",
    "MORE",
    "TAKE",
    "KILL",
    "LOSE",
    "SURVIVORS",
    "REMOVE",
    "KEEP",
    "TOSS",
    "ATTACK",
];

/// Words that only join the parts of an order (`MOVE 2 INFANTRY AND 1
/// CAVALRY FROM H7 TO H8`).
pub const FILLERS: &[&str] = &[
    "FROM",
    "TO",
    "AND",
    "THE",
    "A",
    "AN",
    "THEN",
    "VIA",
    "BY",
    "RAIL",
    "RAILROAD",
    "ON",
    "AT",
    "TURN",
    "PIECE",
    "PIECES",
    "OF",
    "WITH",
    "UNION",
    "CONFEDERACY",
    "CONFEDERATE",
];

/// The kind a word names (`I`, `INF`, `INFANTRY`, `cavalry`, `boats`), any
/// case.
pub fn kind_word(word: &str) -> Option<PieceKind> {
    let w = word.to_ascii_uppercase();
    let w = w.trim_end_matches('.');
    Some(match w {
        "I" | "INF" | "INFANTRY" | "INFANTRIES" | "INFANTRYMAN" | "INFANTRYMEN" | "FOOT" => {
            PieceKind::Infantry
        }
        "C" | "CAV" | "CAVALRY" | "CAVALRIES" | "HORSE" | "HORSES" => PieceKind::Cavalry,
        "G" | "GB" | "GUNBOAT" | "GUNBOATS" | "BOAT" | "BOATS" | "SHIP" | "SHIPS" => {
            PieceKind::Gunboat
        }
        _ => return None,
    })
}

/// What `word` is to the order language (see [`OrderWord`]).
pub fn order_word(word: &str) -> OrderWord {
    let w = word.trim_matches(|c: char| c == ',' || c == '.' || c == ';');
    let up = w.to_ascii_uppercase();
    if VERBS.contains(&up.as_str()) {
        return OrderWord::Verb;
    }
    if kind_word(&up).is_some() {
        return OrderWord::Unit;
    }
    if FILLERS.contains(&up.as_str()) || up == "ALL" {
        return OrderWord::Filler;
    }
    if !up.is_empty() && up.split('-').all(|part| Square::parse(part).is_some()) {
        return OrderWord::Square;
    }
    if up
        .split('-')
        .next()
        .is_some_and(|p| Square::parse(p).is_some())
    {
        return OrderWord::Square;
    }
    if up.chars().all(|c| c.is_ascii_digit()) && !up.is_empty()
        || crate::games::civil_war_1863::core::stack::Counts::parse(&up).is_some()
    {
        return OrderWord::Number;
    }
    if looks_like_square(&up) {
        return OrderWord::CodeLike;
    }
    OrderWord::Other
}

/// A letter then one or two digits, but off the board (`S4`, `A19`).
fn looks_like_square(up: &str) -> bool {
    let b = up.as_bytes();
    b.len() >= 2
        && b.len() <= 3
        && b[0].is_ascii_alphabetic()
        && b[1..].iter().all(u8::is_ascii_digit)
}

/// The verb `word` may be a slip of: the same letters in another order,
/// or one letter off, for words of four letters or more.
pub fn slip_of(word: &str) -> Option<&'static str> {
    let up = word.to_ascii_uppercase();
    if up.len() < 4 || VERBS.contains(&up.as_str()) {
        return None;
    }
    VERBS.iter().copied().find(|verb| {
        let same_letters = {
            let (mut a, mut b): (Vec<u8>, Vec<u8>) = (up.bytes().collect(), verb.bytes().collect());
            a.sort_unstable();
            b.sort_unstable();
            a == b
        };
        let one_off = verb.len() == up.len()
            && verb.bytes().zip(up.bytes()).filter(|(x, y)| x != y).count() == 1;
        same_letters || one_off
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_told_apart() {
        assert_eq!(order_word("move"), OrderWord::Verb);
        assert_eq!(order_word("MORE"), OrderWord::Verb);
        assert_eq!(order_word("Cavalry"), OrderWord::Unit);
        assert_eq!(order_word("h7"), OrderWord::Square);
        assert_eq!(order_word("H7-H8"), OrderWord::Square);
        assert_eq!(order_word("2I1C"), OrderWord::Number);
        assert_eq!(order_word("S4"), OrderWord::CodeLike);
        assert_eq!(order_word("from"), OrderWord::Filler);
        assert_eq!(order_word("hello"), OrderWord::Other);
        assert_eq!(order_word("Dear"), OrderWord::Other);
    }

    #[test]
    fn slips_of_verbs_are_named() {
        assert_eq!(slip_of("MVOE"), Some("MOVE"));
        assert_eq!(slip_of("fortfy"), None);
        assert_eq!(slip_of("FORTIFI"), Some("FORTIFY"));
        assert_eq!(slip_of("hello"), None);
    }
}
