//! Small words shared by the drawing, the choices and the events: a card's
//! title and our one-line text, a formation's name, a brigade's full name.

use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::{BrigadeId, Marker};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::engine::cards::{window_words, Kind};
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

/// When a card acts, in words: its window's moment (B124), narrowed to
/// the part of it its kind acts on when that is only some of the
/// window's moments (B126, B137-B144): `cancel-retreat` acts on a fire's
/// retreat, never on an assault's.
pub fn card_moment(card: &Card) -> String {
    let narrowed = match (Kind::of(&card.effect), card.timing.as_str()) {
        (Kind::CancelRetreat, "retreat") => {
            "when a fire's target is about to retreat: an enemy's retreat for a save, or \
             your unit's retreat forced by a card (a fire's retreat only, never an \
             assault's, B126, B137)"
        }
        (Kind::Stampede, "retreat") => {
            "when the target of your fire has retreated (a fire's retreat only, B139)"
        }
        (Kind::ForcedRetreat, "enemy-hit") => {
            "when a fire of yours has scored hits, before saves (a fire only, not an \
             assault, B137)"
        }
        (Kind::CancelFire, "targeted") => {
            "when an enemy fire targets a unit of yours (a fire only, not an assault, B137)"
        }
        (Kind::ExtraSaves, "after-hits") => {
            "when an enemy fire scores hits on a unit of yours, before saves (B127, B137)"
        }
        (Kind::RerollAssault, "assault-dice") => {
            "when you lose an assault as rolled, before its winner (B140)"
        }
        (Kind::RerollAny, "after-roll") => {
            "when a fire's dice or saves, an assault's dice, a check or the free \
             activation die go against you (B140, B148, B150)"
        }
        _ => return window_words(&card.timing),
    };
    narrowed.to_string()
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
