//! The words a battle card entry may use for when it is played (its
//! timing window) and what it does (its effect kind).
//!
//! The engine implements each of these; a scenario's card names one of
//! each and gives its numbers in `params`. The words are orderly's own,
//! describing the mechanics of 11.3 in general terms: they are not the
//! box's card texts. The lists grow as the engine does; the meaning of
//! each is in docs/brothers-at-war-scenarios.md.

use std::collections::HashSet;

use super::field::Field;
use super::findings::Findings;
use super::model::Card;

/// When a card may be played (11.11).
pub const TIMINGS: &[&str] = &[
    // Whenever its owner likes, even in the opponent's activation.
    "any_time",
    // When one of its owner's activation markers is drawn.
    "own_activation",
    // When one of the opponent's activation markers is drawn.
    "enemy_activation",
    // When the opponent's commander has finished moving (3.23).
    "commander_moved",
    // When a friendly unit or stack is targeted, before the dice.
    "targeted",
    // After an enemy fire scores hits, before saves.
    "after_enemy_hits",
    // When a friendly unit fires, before the dice.
    "own_fire",
    // When a friendly active unit has fired.
    "after_own_fire",
    // During an assault, before the dice.
    "assault",
    // When a friendly unit takes a hit.
    "hit",
    // When a unit retreats (either side's).
    "retreat",
    // When an enemy unit moves adjacent to a friendly one.
    "enemy_adjacent",
    // When a friendly unit changes formation or over-stacks.
    "formation",
    // When a friendly skirmisher would disband, fire or deploy.
    "skirmisher",
    // When a friendly brigade would exhaust (8.111).
    "exhaustion",
    // When any die is rolled.
    "die_roll",
    // Its effect happens when drawn (11.2).
    "drawn",
    // It cannot be played, only discarded (11.12).
    "never",
];

/// What a card does.
pub const EFFECTS: &[&str] = &[
    // `dice`: extra dice for the assault or fire.
    "extra_dice",
    // Point blank fire by a unit as a skirmisher would (6.15).
    "point_blank",
    // The target retreats instead of being fired on or assaulted (6.7).
    "evade",
    // Another unit near a retreating one retreats too.
    "stampede",
    // The skirmisher neither disbands nor is spent (9.14).
    "steady_skirmisher",
    // `dice`: extra artillery dice, with a risk to the firer.
    "double_shot",
    // No disruption from a formation change or over-stacking (5.31).
    "drilled",
    // The Finished marker comes off a unit or stack (1.51).
    "ready_again",
    // `saves`: extra save rolls against the hits.
    "extra_saves",
    // Units in command range recover (3.21).
    "rally_brigade",
    // `hexes`: a unit moves that many hexes at once.
    "slip_away",
    // `hits`: hits are ignored.
    "shrug_off",
    // A rally check for one unit, at once.
    "rally_unit",
    // A retreat is cancelled (not after a lost assault, 7.12).
    "stand_fast",
    // `reserves`: the enemy brigade spends reserves (8.11).
    "panic",
    // A fire followed by a mandatory assault (7.0).
    "fire_and_close",
    // `points`: extra movement points.
    "extra_movement",
    // A die roll is rolled again.
    "reroll",
    // The drawn activation is cancelled; its marker goes back.
    "cancel_activation",
    // An enemy unit or stack retreats (6.7).
    "force_retreat",
    // Assault dice rolled again at the cost of a hit.
    "fighting_mad",
    // `turns`: a unit may not fire.
    "no_ammunition",
    // The discards are shuffled back and a card drawn (11.2).
    "reshuffle",
    // An enemy commander leaves the map until next turn (4.12).
    "commander_down",
    // An exhausted brigade checks to regroup (8.13).
    "regroup",
    // Nothing.
    "none",
];

/// The most card numbers a deck may hold.
pub const MAX_CARDS: usize = 99;

/// The most parameters a card may give.
pub const MAX_PARAMS: usize = 8;

/// The words a deck may use: [`TIMINGS`] and [`EFFECTS`] unless the
/// caller knows others.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a> {
    /// Timing windows.
    pub timings: &'a [&'a str],
    /// Effect kinds.
    pub effects: &'a [&'a str],
}

impl Default for Words<'static> {
    fn default() -> Self {
        Words {
            timings: TIMINGS,
            effects: EFFECTS,
        }
    }
}

/// Checks the deck: numbers 1 to 99, each once; known timing and effect
/// words; bounded parameters.
pub fn check(cards: &[Card], words: &Words<'_>, f: &mut Findings) {
    let total: usize = cards.iter().map(|c| c.numbers.len()).sum();
    f.bound(&Field::key("card"), total, MAX_CARDS, "card numbers");
    let mut seen = HashSet::new();
    for (i, card) in cards.iter().take(MAX_CARDS).enumerate() {
        let at = |key: &str| Field::key("card").at(i).then(key);
        f.require(
            !card.name.trim().is_empty(),
            at("name"),
            "a card needs a title",
        );
        f.require(
            !card.numbers.is_empty(),
            at("numbers"),
            "a card entry needs at least one number",
        );
        for &n in card.numbers.iter().take(MAX_CARDS) {
            f.require(
                (1..=MAX_CARDS).contains(&usize::from(n)),
                at("numbers"),
                format!("card number {n} is outside 1 to {MAX_CARDS}"),
            );
            f.require(
                seen.insert(n),
                at("numbers"),
                format!("card number {n} is used twice"),
            );
        }
        f.require(
            words.timings.contains(&card.timing.as_str()),
            at("timing"),
            format!("`{}` is not a timing window the engine knows", card.timing),
        );
        f.require(
            words.effects.contains(&card.effect.as_str()),
            at("effect"),
            format!("`{}` is not an effect the engine knows", card.effect),
        );
        f.require(
            card.params.len() <= MAX_PARAMS,
            at("params"),
            format!("at most {MAX_PARAMS} parameters"),
        );
        for (key, value) in &card.params {
            f.require(
                (-99..=99).contains(value),
                at("params").then(key),
                format!("parameter {key} = {value} is outside -99 to 99"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_unique_lower_case_identifiers() {
        for list in [TIMINGS, EFFECTS] {
            for (i, w) in list.iter().enumerate() {
                assert!(
                    w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                    "{w}"
                );
                assert!(!list[..i].contains(w), "{w} twice");
            }
        }
    }
}
