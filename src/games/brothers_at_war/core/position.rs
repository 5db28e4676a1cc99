//! The position string: the scenario's id and content hash, then the
//! dynamic state as compact JSON. It round-trips exactly
//! (`from_position(position(s)) == s`), and refuses a position written
//! for another version of its scenario.

use super::battle::Battle;
use super::state::{BrothersAtWar, Dynamic};
use crate::games::brothers_at_war::scenario::registry;
use crate::games::ParseError;

/// The most characters a position string may have.
pub const MAX_POSITION: usize = 1 << 20;

impl BrothersAtWar {
    /// The position string: `<scenario id> <hash> <state>`.
    pub fn position_string(&self) -> String {
        let state = serde_json::to_string(&self.now).unwrap_or_default();
        format!("{} {} {state}", self.battle.scenario.id, self.battle.hash)
    }

    /// Reads a position string, finding its battle in the registry.
    pub fn from_position_string(text: &str) -> Result<BrothersAtWar, ParseError> {
        if text.len() > MAX_POSITION {
            return Err(ParseError::new("the position is too long"));
        }
        let mut parts = text.trim().splitn(3, ' ');
        let (Some(id), Some(hash), Some(state)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ParseError::new("a position is: scenario hash state"));
        };
        let battle = registry::get(id)
            .ok_or_else(|| ParseError::new(format!("no scenario {id} is registered")))?;
        if battle.hash != hash {
            return Err(ParseError::new(format!(
                "the position was written for another version of {id}"
            )));
        }
        let mut now: Dynamic =
            serde_json::from_str(state).map_err(|e| ParseError::new(e.to_string()))?;
        now.deck = deck(&battle, &now)?;
        check(&battle, &now)?;
        Ok(BrothersAtWar { battle, now })
    }
}

/// The deck: the battle's cards neither in a hand nor discarded, sorted.
fn deck(battle: &Battle, now: &Dynamic) -> Result<Vec<u8>, ParseError> {
    let mut deck: Vec<u8> = battle
        .scenario
        .cards
        .iter()
        .flat_map(|c| c.numbers.iter().copied())
        .collect();
    for card in now.discard.iter().chain(now.hands.iter().flatten()) {
        let i = deck
            .iter()
            .position(|c| c == card)
            .ok_or_else(|| ParseError::new(format!("card {card} is not in the battle's deck")))?;
        deck.remove(i);
    }
    deck.sort_unstable();
    Ok(deck)
}

/// The indexes and counts a position holds fit its battle.
fn check(battle: &Battle, now: &Dynamic) -> Result<(), ParseError> {
    let bad = |what: &str| Err(ParseError::new(format!("the position's {what} do not fit")));
    let units = battle.unit_count();
    if now.units.len() < units || now.units.len() > units + 200 {
        return bad("units");
    }
    if now.brigades.len() != battle.scenario.brigades.len() {
        return bad("brigades");
    }
    let brigade_ok = |b: &super::ids::BrigadeId| b.index() < now.brigades.len();
    let unit_ok = |u: &super::ids::UnitId| u.index() < now.units.len();
    let markers_ok = now.cup.iter().chain(&now.track).all(|m| match m {
        super::ids::Marker::Brigade(b, _) | super::ids::Marker::Free(b) => brigade_ok(b),
        super::ids::Marker::Countdown => true,
    });
    let checks_ok = now
        .checks
        .iter()
        .all(|c| c.units.iter().all(unit_ok) && c.brigade.as_ref().is_none_or(brigade_ok));
    let activation_ok = now.activation.as_ref().is_none_or(|a| {
        brigade_ok(&a.brigade)
            && a.acted
                .iter()
                .chain(&a.disbanded)
                .chain(&a.entered)
                .all(unit_ok)
            && a.group.as_ref().is_none_or(|g| g.units.iter().all(unit_ok))
    });
    let step_ok = match &now.step {
        super::state::Step::Recovery(b)
        | super::state::Step::Units(b)
        | super::state::Step::PassDiscard(b)
        | super::state::Step::Commander(b) => brigade_ok(b) && now.activation.is_some(),
        _ => true,
    };
    let lists_ok = now.free_due.iter().chain(&now.free_queue).all(brigade_ok)
        && now.units[..units].iter().all(|u| u.generic.is_none())
        && now.units[units..].iter().all(|u| u.generic.is_some());
    let map = &battle.map;
    let hexes_ok = now.units.iter().all(|u| match u.place {
        super::state::Place::Map(h) => map.contains(h),
        _ => true,
    }) && now
        .brigades
        .iter()
        .all(|b| b.commander.is_none_or(|h| map.contains(h)))
        && now.control.keys().all(|&h| map.contains(h));
    let mut cards: Vec<u8> = battle
        .scenario
        .cards
        .iter()
        .flat_map(|c| c.numbers.iter().copied())
        .collect();
    cards.sort_unstable();
    let mut held: Vec<u8> = now
        .deck
        .iter()
        .chain(&now.discard)
        .chain(now.hands.iter().flatten())
        .copied()
        .collect();
    held.sort_unstable();
    let cards_ok = held == cards;
    if !markers_ok
        || !hexes_ok
        || !cards_ok
        || !step_ok
        || !lists_ok
        || !checks_ok
        || !activation_ok
        || !now.exhausted_box.iter().all(brigade_ok)
        || !now.activated_this_turn.iter().all(brigade_ok)
        || !super::combat::fits(now, map)
    {
        return bad("indexes");
    }
    Ok(())
}
