//! Small words shared by the drawing, the choices and the events: a card's
//! title and our one-line text, a formation's name, a brigade's full name.

use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::{BrigadeId, Marker};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::scenario::model::{Card, Scenario, Side};

/// The scenario's card of this number, if any.
pub fn card(scenario: &Scenario, number: u8) -> Option<&Card> {
    scenario.cards.iter().find(|c| c.numbers.contains(&number))
}

/// `17 Double Quick`: the number and the title, as a hand lists it.
pub fn card_title(scenario: &Scenario, number: u8) -> String {
    match card(scenario, number) {
        Some(c) => format!("{number} {}", c.name),
        None => format!("{number}"),
    }
}

/// A formation in the words of the rules.
pub fn formation(f: Formation) -> &'static str {
    match f {
        Formation::Formed => "formed",
        Formation::Unformed => "unformed",
        Formation::Dismounted => "dismounted",
        Formation::Mounted => "mounted",
        Formation::Deployed => "deployed",
        Formation::Limbered => "limbered",
        Formation::OnFoot => "skirmisher on foot",
        Formation::MountedSkirmisher => "mounted skirmisher",
        Formation::Remnant => "remnant",
    }
}

/// The side's name as the game's seats are called.
pub fn side(side: Side) -> &'static str {
    match side {
        Side::Union => "Union",
        Side::Confederacy => "Confederacy",
    }
}

/// `Ward's Brigade (ward)`.
pub fn brigade(game: &BrothersAtWar, b: BrigadeId) -> String {
    let s = &game.battle.scenario.brigades[b.index()];
    format!("{} ({})", s.name, s.id)
}

/// A marker of the activation display in a word or two.
pub fn marker(game: &BrothersAtWar, m: Marker) -> String {
    match m {
        Marker::Brigade(b, _) => game.brigade_name(b),
        Marker::Countdown => "countdown".to_string(),
        Marker::Free(b) => format!("free {}", game.brigade_name(b)),
    }
}
