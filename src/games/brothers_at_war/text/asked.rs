//! A reaction asked of a player (B7) in words: what happened, what he may
//! answer, and what `PASS` does. The questions of a combat result
//! (B145: `LOSSES`, `RESERVES`, `PATHS ... ASK`) and the retreats and
//! opportunity attacks an instruction said to ask.

use crate::games::brothers_at_war::core::combat::{FireAttack, LossesRule, Reaction, Setting};
use crate::games::brothers_at_war::core::event::count;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::question::Question;
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::core::Hex;

fn unit_words(game: &BrothersAtWar, u: UnitId) -> String {
    let name = game
        .battle
        .scenario
        .units
        .get(u.index())
        .map(|x| x.name.clone())
        .unwrap_or_else(|| "a remnant".to_string());
    format!(
        "{} ({name}, firepower {})",
        game.unit_name(u),
        game.firepower(u)
    )
}

fn path_words(path: &[Hex]) -> String {
    let hexes: Vec<String> = path.iter().map(|h| h.to_string()).collect();
    format!("RETREAT {}", hexes.join(" "))
}

fn setting_of(game: &BrothersAtWar, u: UnitId, like: Setting) -> Setting {
    game.now
        .instructions
        .get(game.side_of(u), game.brigade_of(u), like)
}

/// The question of a combat result in words (B145), with its answers.
fn question_words(game: &BrothersAtWar, question: &Question) -> String {
    match question {
        Question::Loss { units } => {
            let at = units
                .first()
                .and_then(|&u| game.hex_of(u))
                .map_or(String::new(), |h| format!(" in {h}"));
            let answers: Vec<String> = units
                .iter()
                .map(|&u| format!("LOSE {}", unit_words(game, u)))
                .collect();
            let default = match units
                .first()
                .map(|&u| setting_of(game, u, Setting::Losses(LossesRule::Weakest)))
            {
                Some(Setting::Losses(LossesRule::Strongest)) => "the strongest",
                _ => "the weakest",
            };
            format!(
                "You are asked (LOSSES ASK, 6.54): a hit eliminates one unit of your Disrupted \
                 stack{at}. Which?\nYour orders: {}; or PASS (the engine takes {default}).\n",
                answers.join("; ")
            )
        }
        Question::Reserve {
            unit,
            brigade,
            left,
        } => {
            let how = if *left == 0 {
                "it has no reserve left: spending one gives up a skirmisher waiting on its \
                 display to buy one back (8.133)"
                    .to_string()
            } else {
                let exhausts = if *left == 1 {
                    "; spending it exhausts the brigade (8.111)"
                } else {
                    ""
                };
                format!(
                    "{left} reserve{} left{exhausts}",
                    if *left == 1 { "" } else { "s" }
                )
            };
            format!(
                "You are asked (RESERVES ASK, 8.11): a hit eliminates {} unless brigade {} \
                 spends a reserve: {how}.\nYour orders: SPEND RESERVE (the unit stays); KEEP \
                 (the unit is eliminated); or PASS (spend, as RESERVES SPEND would).\n",
                unit_words(game, *unit),
                game.brigade_name(*brigade)
            )
        }
        Question::Path { units, paths } => {
            let names: Vec<String> = units.iter().map(|&u| game.unit_name(u)).collect();
            let from = units
                .first()
                .and_then(|&u| game.hex_of(u))
                .map_or(String::new(), |h| format!(" from {h}"));
            let default = game
                .retreat_plan(units, paths.first().is_some_and(|p| p.len() > 2))
                .map_or(String::new(), |p| format!(": {}", path_words(&p.path)));
            let answers: Vec<String> = paths.iter().map(|p| path_words(p)).collect();
            format!(
                "You are asked (PATHS ASK, 6.7): {} retreat{from}. Which way?\nYour orders: {}; \
                 or PASS (the engine's path by B92{default}).\n",
                names.join(" and "),
                answers.join("; ")
            )
        }
        Question::Commander {
            brigade,
            from,
            hexes,
        } => {
            let commander = game
                .battle
                .scenario
                .brigades
                .get(brigade.index())
                .and_then(|b| b.commander.as_ref())
                .map_or_else(|| "your commander".to_string(), |c| c.name.clone());
            let near: Vec<String> = hexes.iter().take(6).map(|h| h.to_string()).collect();
            let default = hexes.first().map_or(String::new(), |h| format!(": {h}"));
            format!(
                "You are asked (PATHS ASK, 4.12): {commander}, alone next to the enemy at \
                 {from}, is displaced. Where does he go?\nYour orders: COMMANDER hex, any hex \
                 he may stand on (4.11), the nearest: {}; or PASS (B47's hex{default}).\n",
                near.join(", ")
            )
        }
        Question::Remnant { brigade, hexes } => {
            let answers: Vec<String> = hexes.iter().map(|h| format!("REMNANT {h}")).collect();
            let default = hexes.first().map_or(String::new(), |h| format!(": {h}"));
            format!(
                "You are asked (PATHS ASK, 2.33): brigade {} breaks and leaves a remnant on \
                 a hex one of its units held. Which?\nYour orders: {}; or PASS (B110's hex, the \
                 farthest from the enemy{default}).\n",
                game.brigade_name(*brigade),
                answers.join("; ")
            )
        }
        Question::Card {
            window,
            cards,
            about,
        } => {
            let answers: Vec<String> = cards
                .iter()
                .map(|&c| {
                    let name = game
                        .card_entry(c)
                        .map_or(String::new(), |e| format!(" ({})", e.name));
                    format!("PLAY {c}{name}")
                })
                .collect();
            // The window's moment, unless what opened it says it already
            // (`the enemy ward activation marker is drawn`).
            let moment = crate::games::brothers_at_war::engine::cards::window_words(window);
            let moment = if says_already(about, &moment) {
                String::new()
            } else {
                format!("; {moment}")
            };
            format!(
                "You are asked (CARDS ASK, B148): {about}{moment}.\nYour orders: {}; or PASS \
                 (keep your cards).\n",
                answers.join("; ")
            )
        }
    }
}

/// Whether `about` (what opened a card's window) already says all that
/// the window's `moment` says: each of its words of four letters or more
/// (but `when`, `your`, `yours`) begins a word of `about`.
fn says_already(about: &str, moment: &str) -> bool {
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_ascii_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let said = words(about);
    words(moment)
        .iter()
        .filter(|w| w.len() >= 4 && !matches!(w.as_str(), "when" | "your" | "yours"))
        .all(|w| said.iter().any(|s| s.starts_with(w.as_str())))
}

/// The retreat for a save asked of a fire's target (6.7, B7), in words:
/// which units, where, the fire and its hits before saves, and the save
/// rolls with and without the retreat (6.6).
fn retreat_words(game: &BrothersAtWar, f: &FireAttack, paths: &[Vec<Hex>]) -> String {
    let names = |units: &[UnitId]| -> String {
        let v: Vec<String> = units.iter().map(|&u| unit_words(game, u)).collect();
        v.join(" and ")
    };
    let firers: Vec<String> = f.firers.iter().map(|&u| game.unit_name(u)).collect();
    let saves: u8 = f.saves.iter().map(|s| s.rolls).sum();
    let rules = &game.battle.scenario.saves;
    let with = saves.saturating_add(rules.retreat);
    let long = if paths.iter().any(|p| p.len() > 2) {
        format!(
            " ({} on a long retreat, 6.72)",
            saves.saturating_add(rules.long_retreat)
        )
    } else {
        String::new()
    };
    format!(
        "RETREAT ASK, 6.7: {}'s fire at {} scored {} on your {}, before saves; \
         standing, you roll {}; retreating, {}{long} (6.6)",
        firers.join(" and "),
        f.target,
        count(f.successes, "hit", "hits"),
        names(&f.targets),
        count(saves, "save", "saves"),
        count(with, "save", "saves"),
    )
}

/// The reaction asked of the reader, in words; empty when none is.
pub fn describe(game: &BrothersAtWar, reaction: &Reaction) -> String {
    if let Some(q) = &reaction.question {
        return question_words(game, q);
    }
    if !reaction.paths.is_empty() {
        let answers: Vec<String> = reaction.paths.iter().map(|p| path_words(p)).collect();
        let (what, pass) = if game.now.assault.is_some() {
            (
                "EVADE ASK, 7.3: your units may retreat before the assault".to_string(),
                "stand and fight",
            )
        } else {
            (
                match &game.now.fire {
                    Some(f) => retreat_words(game, f, &reaction.paths),
                    None => {
                        "RETREAT ASK, 6.7: your units under fire may retreat for a save".to_string()
                    }
                },
                "stand",
            )
        };
        return format!(
            "You are asked ({what}).\nYour orders: {}; or PASS ({pass}).\n",
            answers.join("; ")
        );
    }
    if reaction.choices.is_empty() {
        return String::new();
    }
    "You are asked (OPFIRE or POINTBLANK ASK, 6.12, 6.15): your units may fire at the enemy \
     moving. Answer with one attack below, or PASS (hold fire).\n"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_question_says_its_moment_once() {
        assert!(says_already(
            "the enemy ward activation marker is drawn",
            "when an enemy activation marker is drawn"
        ));
        assert!(!says_already(
            "the attack dice of BTY-A's fire at GR7 in 0504 rolled 2 4 1 3",
            "when a roll is made, before it is used"
        ));
    }

    #[test]
    fn a_path_reads_as_the_order_that_takes_it() {
        let path: Vec<Hex> = ["0504", "0604"]
            .iter()
            .map(|h| h.parse().unwrap())
            .collect();
        assert_eq!(path_words(&path), "RETREAT 0504 0604");
    }
}
