//! Slips of the pen: what a word that is not in the order language may have
//! meant, and what a word is to that language at all (the service asks, to
//! tell an order line from prose).

use super::words::{
    glued_attack, glued_option, lookup, number, option_list, plural_unit, side_words, unit_words,
    NAPOLEONIC_PAIRS, VERBS,
};
pub(crate) use crate::games::spelling::{edit_distance, nearest_words};
use crate::games::squares::core::board::Space;
use crate::games::squares::core::variant::Variant;
use crate::games::squares::text::notation::Notation;
use crate::games::OrderWord;

/// Whether an unknown word looks like a mistyped square code (B, G or F
/// and a digit, or a short word ending like a code) rather than a word.
pub(super) fn looks_like_code(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) || (word.len() <= 3 && word.ends_with('F'))
}

/// What one word is to the order language of `notation` (see
/// [`OrderWord`]), by the reader's own tables: what the service takes for
/// order words is what this reader reads.
pub(crate) fn order_word(word: &str, notation: &Notation) -> OrderWord {
    let w = plain_word(word);
    // No word of the orders is long; a long one is not worth comparing.
    if w.is_empty() || w.len() > 24 {
        return OrderWord::Other;
    }
    let pair_word = notation.variant == Variant::Napoleonic
        && NAPOLEONIC_PAIRS.iter().any(|(_, second, _)| *second == w);
    if lookup(VERBS, &w).is_some() {
        OrderWord::Verb
    } else if lookup(unit_words(notation), &w)
        .or_else(|| plural_unit(&w, notation))
        .is_some()
        || pair_word
    {
        OrderWord::Unit
    } else if Space::read(&w, notation).is_some()
        || w == "RESERVE"
        || w == "RES"
        || glued_attack(&w, notation).is_some()
    {
        OrderWord::Square
    } else if number(&w).is_some()
        || glued_option(&w, notation).is_some()
        || option_list(&w, notation).is_some()
    {
        OrderWord::Number
    } else if JOINING_WORDS.contains(&w.as_str())
        || lookup(side_words(notation), &w).is_some()
        || w.starts_with("SUPPORT")
    {
        OrderWord::Filler
    } else if is_code_shaped(&w) {
        OrderWord::CodeLike
    } else {
        OrderWord::Other
    }
}

/// The verb or unit word of `notation` that `word` may be a slip of.
pub(crate) fn slip_of(word: &str, notation: &Notation) -> Option<&'static str> {
    let w = plain_word(word);
    if w.len() > 24 || order_word(&w, notation) != OrderWord::Other {
        return None;
    }
    near_order_word(&w, notation)
}

/// A word upper case, without apostrophes (`I'll`: `ILL`).
pub(super) fn plain_word(word: &str) -> String {
    word.chars()
        .filter(|&c| c != '\'' && c != '\u{2019}')
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The words that only join or qualify the parts of an order. Not the
/// reader's own list of words it skips, which takes in much of what is
/// said around an order (YOUR, THIS, TAKE): here a word of prose must
/// count as prose.
pub(super) const JOINING_WORDS: &[&str] = &[
    "FROM", "TO", "INTO", "IN", "THE", "MY", "A", "AN", "UNIT", "SQUARE", "BY", "VIA", "THROUGH",
    "THRU", "THEN", "AT", "ON", "PLEASE", "I", "OF", "WILL", "SHALL", "X", "WITH", "AND", "SUP",
    "SUPP", "SPT", "NO", "NOT", "DONT",
];

/// A board letter, a digit, and at most three more letters or digits
/// (`B4C`, `G1CRR`, `F2X`): a square's code mistyped.
pub(super) fn is_code_shaped(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 2
        && b.len() <= 5
        && matches!(b[0], b'B' | b'G' | b'F')
        && b[1].is_ascii_digit()
        && b.iter().all(u8::is_ascii_alphanumeric)
}

/// The verb or unit word `w` is a slip away from: one edit for a word of
/// up to five letters, two for a longer one. Words of fewer than three
/// letters are too short to tell a slip from another word.
pub(super) fn near_order_word(w: &str, notation: &Notation) -> Option<&'static str> {
    if w.len() < 3 || !w.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let limit = if w.len() <= 5 { 1 } else { 2 };
    VERBS
        .iter()
        .map(|(v, _)| *v)
        .chain(unit_words(notation).iter().map(|(u, _)| *u))
        // A slip keeps one of the first two letters in the first two
        // places: a cheap test before the distance.
        .filter(|c| c.len() >= 3 && c.len().abs_diff(w.len()) <= limit)
        .filter(|c| {
            let (a, b) = (&w.as_bytes()[..2], &c.as_bytes()[..2]);
            a.iter().any(|x| b.contains(x))
        })
        .map(|c| (short_distance(w.as_bytes(), c.as_bytes()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// [`edit_distance`] of two words of at most 24 letters, without
/// allocating: every word of every line of a mail is compared.
pub(super) fn short_distance(a: &[u8], b: &[u8]) -> usize {
    const N: usize = 25;
    if a.len() >= N || b.len() >= N {
        return edit_distance(&String::from_utf8_lossy(a), &String::from_utf8_lossy(b));
    }
    // The rows for a[..i-2], a[..i-1] and a[..i].
    let mut rows = [[0usize; N]; 3];
    for (j, cell) in rows[1].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows[2][0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[1][j] + 1)
                .min(rows[2][j - 1] + 1)
                .min(rows[1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[0][j - 2] + 1);
            }
            rows[2][j] = best;
        }
        rows.rotate_left(1);
    }
    rows[1][b.len()]
}

#[cfg(test)]
mod slip_tests {
    use super::{edit_distance, short_distance};

    #[test]
    fn the_short_distance_is_the_edit_distance() {
        let words = [
            "", "A", "MOVE", "MVOE", "MOV", "MOVES", "ATTACK", "ATACK", "ATTAKC", "CAVALRY",
            "CAVALYR", "RETREAT", "RETRETA", "XYZ", "PASS", "PSS",
        ];
        for a in words {
            for b in words {
                assert_eq!(
                    short_distance(a.as_bytes(), b.as_bytes()),
                    edit_distance(a, b),
                    "{a} {b}"
                );
            }
        }
    }
}
