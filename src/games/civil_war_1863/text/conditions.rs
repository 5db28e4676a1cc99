//! Answers given in advance (docs/civil-war-1863-design.md, "By mail"): a
//! defender's standing `IF ATTACKED AT H8 SURVIVORS TO H9` (P21), `IF CITY
//! LOST REMOVE K3 I` (P27, P30), `IF EVEN BATTLE WON KEEP I` (P22), and the
//! attacker's `IF BATTLE TAKE ALL` for the attack of the same mail (P20).
//!
//! Only the condition is read here; the answer is an ordinary order line,
//! read and checked by the reader when its moment comes, so an answer that
//! has become illegal is refused like any order.

use crate::games::civil_war_1863::core::flow::DecisionKind;
use crate::games::civil_war_1863::core::side::Side;
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::{Condition, Seat};

/// The conditions understood, for refusals.
const CONDITIONS: &str = "IF ATTACKED [AT <square>] <answer>, IF CITY LOST <answer>, \
IF CAPITAL LOST <answer>, IF EVEN BATTLE WON <answer> (standing), IF BATTLE <answer> \
(for your attack)";

/// Reads the words after IF that name a condition.
pub fn read(words: &str) -> Result<Condition, String> {
    let upper: Vec<String> = words
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| c == ',' || c == ':')
                .to_ascii_uppercase()
        })
        .collect();
    let w: Vec<&str> = upper.iter().map(String::as_str).collect();
    let condition = |text: &str, standing| {
        Ok(Condition {
            text: text.to_string(),
            standing,
        })
    };
    match w.as_slice() {
        ["ATTACKED"] => condition("ATTACKED", true),
        ["ATTACKED", "AT" | "IN" | "ON", square] => match Square::parse(square) {
            Some(sq) => condition(&format!("ATTACKED AT {sq}"), true),
            None => Err(format!(
                "{square:?} is not a square; the conditions are {CONDITIONS}"
            )),
        },
        ["CITY" | "CAPITAL", "LOST"] => condition(&format!("{} LOST", w[0]), true),
        ["EVEN", "BATTLE", "WON"] => condition("EVEN BATTLE WON", true),
        ["BATTLE"] => condition("BATTLE", false),
        _ => Err(format!(
            "{:?} is not a condition; the conditions are {CONDITIONS}",
            words.trim()
        )),
    }
}

/// Whether `condition` holds for `seat`'s decision now pending.
pub fn holds(game: &CivilWar1863, seat: Seat, condition: &Condition) -> bool {
    let Some((side, kind)) = game.decision() else {
        return false;
    };
    if side != Side::from(seat) {
        return false;
    }
    let at = game.battle().map(|b| b.at);
    let words: Vec<&str> = condition.text.split_whitespace().collect();
    match (words.as_slice(), kind) {
        (["ATTACKED"], DecisionKind::Survivors) => true,
        (["ATTACKED", "AT", sq], DecisionKind::Survivors) => {
            Square::parse(sq).is_some_and(|sq| Some(sq) == at)
        }
        // A removal is owed for a city or a capital alike (P27, P30); the
        // answer names the pieces, and the reader checks it then.
        (["CITY" | "CAPITAL", "LOST"], DecisionKind::Remove { .. }) => true,
        (["EVEN", "BATTLE", "WON"], DecisionKind::Keep { .. }) => true,
        (["BATTLE"], DecisionKind::Losses) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, GameOptions};

    #[test]
    fn conditions_read_back_in_canonical_words() {
        assert_eq!(read("attacked at h8").unwrap().text, "ATTACKED AT H8");
        assert!(read("attacked at h8").unwrap().standing);
        assert_eq!(read("City lost").unwrap().text, "CITY LOST");
        assert_eq!(read("even battle won").unwrap().text, "EVEN BATTLE WON");
        assert!(!read("battle").unwrap().standing);
        assert!(read("attacked at z9").unwrap_err().contains("not a square"));
        assert!(read("raining").unwrap_err().contains("IF CITY LOST"));
    }

    #[test]
    fn no_condition_holds_on_a_plain_turn() {
        let game = CivilWar1863::new(&GameOptions::default());
        for text in ["ATTACKED", "CITY LOST", "EVEN BATTLE WON", "BATTLE"] {
            let c = read(text).unwrap();
            for seat in Seat::BOTH {
                assert!(!holds(&game, seat, &c), "{text}");
            }
        }
    }

    #[test]
    fn a_defenders_standing_answer_holds_for_its_battle_only() {
        use crate::games::GameText;
        // The Confederacy attacks E4 with 3 against 2 and takes one (P20):
        // the Union's survivor must leave (P21).
        let mut game = CivilWar1863::from_position(
            "cw1863 1; south to move; U: E4 2I / A1 1I; C: E3 3I / R18 1I; markers d3 f6",
        )
        .unwrap();
        let attacker = Seat::South;
        let battle = read("BATTLE").unwrap();
        assert!(!holds(&game, attacker, &battle), "no battle yet");
        game.apply(&game.read_order("E3 3I-E4").unwrap()).unwrap();
        assert!(holds(&game, attacker, &battle));
        assert!(
            !holds(&game, Seat::North, &read("ATTACKED").unwrap()),
            "not yet"
        );
        game.apply(&game.read_order("take 1 kill 1 infantry lose none").unwrap())
            .unwrap();
        let defender = Seat::North;
        assert!(holds(&game, defender, &read("ATTACKED").unwrap()));
        assert!(holds(&game, defender, &read("attacked at e4").unwrap()));
        assert!(!holds(&game, defender, &read("attacked at e5").unwrap()));
        assert!(!holds(&game, attacker, &read("ATTACKED").unwrap()));
        assert!(!holds(&game, defender, &read("CITY LOST").unwrap()));
        // The answer is an ordinary order line, read when its time comes.
        let answer = game.read_order("SURVIVORS TO E5").unwrap();
        assert_eq!(answer.to_string(), "SURVIVORS 1I-E5");
    }
}
