//! Answers given in advance, so that an attack often resolves in one mail
//! instead of four: the attacker's `IF STAND OPTION 2` and `IF RETREAT
//! ADVANCE` for the attack of the same mail, and a defender's standing
//! `IF ATTACKED AT B2C RETREAT B1R` (or `IF ATTACKED STAND`).
//!
//! Only the condition is read here; the answer is an ordinary order line,
//! read and checked by the reader when its moment comes, so an answer that
//! has become illegal is refused like any order.

use super::notation::Notation;
use crate::games::squares::core::board::Space;
use crate::games::squares::core::flow::DecisionKind;
use crate::games::squares::core::state::Squares;
use crate::games::{Condition, Game, Seat};

/// The conditions SQUARES understands, for refusals.
const CONDITIONS: &str = "IF STAND <answer>, IF RETREAT <answer> (for your attack), \
                          IF ATTACKED [AT <square>] <answer> (standing)";

/// Reads the words after IF that name a condition: `STAND`, `RETREAT`,
/// `ATTACKED`, `ATTACKED AT B2C` (the square in `notation`, and written
/// back in it).
pub(crate) fn read(words: &str, notation: &Notation) -> Result<Condition, String> {
    let upper: Vec<String> = words
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| c == ',' || c == ':')
                .to_ascii_uppercase()
        })
        .collect();
    let w: Vec<&str> = upper.iter().map(String::as_str).collect();
    let condition = |text: String, standing| Ok(Condition { text, standing });
    match w.as_slice() {
        ["STAND" | "STANDS"] => condition("STAND".into(), false),
        ["RETREAT" | "RETREATS"] => condition("RETREAT".into(), false),
        ["ATTACKED"] => condition("ATTACKED".into(), true),
        ["ATTACKED", "AT" | "IN" | "ON", square] => match Space::read(square, notation) {
            Some(space) => condition(format!("ATTACKED AT {}", space.display_in(notation)), true),
            None => Err(format!(
                "{square:?} is not a square; the conditions are {CONDITIONS}"
            )),
        },
        _ => Err(format!(
            "{:?} is not a condition; the conditions are {CONDITIONS}",
            words.trim()
        )),
    }
}

/// Whether `condition` holds for `seat`'s decision now pending: STAND when
/// the defender stood and the attacker chooses an option (R19), RETREAT
/// when the defender retreated and the attacker may advance (R17),
/// ATTACKED [AT square] when `seat` must answer an attack (on that square).
pub(crate) fn holds(game: &Squares, seat: Seat, condition: &Condition) -> bool {
    let (Some(pending), Some(attack)) = (game.pending(), game.attack()) else {
        return false;
    };
    if pending.seat != seat {
        return false;
    }
    let text = condition.text.as_str();
    match pending.kind {
        DecisionKind::AttackOption => text == "STAND",
        DecisionKind::Advance => text == "RETREAT",
        DecisionKind::Defence => {
            text == "ATTACKED"
                || text
                    .strip_prefix("ATTACKED AT ")
                    .and_then(|code| Space::read(code, game.variant().notation()))
                    .is_some_and(|s| s == attack.target)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{holds, Condition, Seat, Squares};
    use crate::games::squares::notation::CIVIL_WAR;
    use crate::games::{Game, GameOptions};

    fn read(words: &str) -> Result<Condition, String> {
        super::read(words, &CIVIL_WAR)
    }

    #[test]
    fn conditions_read_in_any_case_and_squares_are_checked() {
        assert_eq!(read("stand").unwrap().text, "STAND");
        assert!(!read("Retreat").unwrap().standing);
        let at = read("attacked at b1c").unwrap();
        assert_eq!((at.text.as_str(), at.standing), ("ATTACKED AT B1C", true));
        assert!(read("attacked at Z9").unwrap_err().contains("not a square"));
        assert!(read("it rains").unwrap_err().contains("IF STAND"));
    }

    #[test]
    fn nothing_holds_outside_an_attack() {
        let game = Squares::new(&GameOptions::default());
        for words in ["STAND", "RETREAT", "ATTACKED", "ATTACKED AT B1C"] {
            assert!(!holds(&game, Seat::North, &read(words).unwrap()));
            assert!(!holds(&game, Seat::South, &read(words).unwrap()));
        }
    }
}
