//! The `skirmisher-does-not-disband` card kind (11.3 on 9-10, B144):
//! played by its holder's `CARDS ... AUTO` the moment a skirmisher of his
//! is about to disband because an enemy came next to it, to fire, or to
//! be deployed, each form as the deck entry's parameters say.

use super::cards::{number, Kind};
use crate::games::brothers_at_war::core::event::{count, Event};
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::scenario::model::{Card, Param};

/// The moment a skirmisher card answers (B144).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkirmisherMoment {
    /// An enemy came next to it (9.14): `ignore-disband`.
    Disband,
    /// It fires: `max-hits`.
    Fire,
    /// It is deployed: `deployer-stays-ready`.
    Deploy,
}

fn flag(card: &Card, name: &str) -> bool {
    matches!(card.params.get(name), Some(Param::Flag(true)))
}

impl BrothersAtWar {
    /// The lowest card of the skirmisher's owner, under `CARDS ... AUTO`
    /// for its brigade, whose `skirmisher-does-not-disband` entry has the
    /// form `moment` asks for (B137, B144).
    fn skirmisher_card(&self, skirmisher: UnitId, moment: SkirmisherMoment) -> Option<u8> {
        let side = self.side_of(skirmisher);
        let brigade = self.brigade_of(skirmisher);
        let kinds = [Kind::SkirmisherStays];
        // B137's switch, asked once: the card itself is picked below.
        self.card_for(side, brigade, "skirmisher", &kinds)?;
        let mut hand = self.now.hands[side.index()].clone();
        hand.sort_unstable();
        hand.into_iter().find(|&c| {
            self.card_entry(c).is_some_and(|e| {
                e.timing == "skirmisher"
                    && Kind::of(&e.effect) == Kind::SkirmisherStays
                    && match moment {
                        SkirmisherMoment::Disband => flag(e, "ignore-disband"),
                        SkirmisherMoment::Fire => e.params.contains_key("max-hits"),
                        SkirmisherMoment::Deploy => flag(e, "deployer-stays-ready"),
                    }
            })
        })
    }

    /// Plays the skirmisher's card for `moment`, if its owner has one:
    /// the card leaves the hand face up (B2). Returns the card.
    fn play_skirmisher_card(
        &mut self,
        skirmisher: UnitId,
        moment: SkirmisherMoment,
        events: &mut Vec<Event>,
    ) -> Option<u8> {
        let card = self.skirmisher_card(skirmisher, moment)?;
        self.card_leaves_hand(self.side_of(skirmisher), card, None, events);
        Some(card)
    }

    /// 9.14 answered by card: the skirmisher an enemy came next to keeps
    /// its place this once (11.3 on 9-10, B144). Returns whether it does.
    pub fn card_keeps_skirmisher(&mut self, skirmisher: UnitId, events: &mut Vec<Event>) -> bool {
        let Some(card) = self.play_skirmisher_card(skirmisher, SkirmisherMoment::Disband, events)
        else {
            return false;
        };
        events.push(Event::CardEffect {
            card,
            what: format!("{} keeps its place", self.unit_name(skirmisher)),
        });
        true
    }

    /// The cap on hits a card gives a skirmisher's fire (B144), if its
    /// owner plays one as it fires; `cap` is the cap without it.
    pub fn card_skirmisher_cap(
        &mut self,
        skirmisher: UnitId,
        cap: u8,
        events: &mut Vec<Event>,
    ) -> u8 {
        let Some(raised) = self
            .skirmisher_card(skirmisher, SkirmisherMoment::Fire)
            .and_then(|c| self.card_entry(c))
            .map(|e| number(e, "max-hits", cap))
        else {
            return cap;
        };
        if raised <= cap {
            return cap;
        }
        let Some(card) = self.play_skirmisher_card(skirmisher, SkirmisherMoment::Fire, events)
        else {
            return cap;
        };
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{}'s fire scores at most {}",
                self.unit_name(skirmisher),
                count(raised, "hit", "hits")
            ),
        });
        raised
    }

    /// Whether a card keeps the unit that deploys this skirmisher ready
    /// (B144): played as the skirmisher is deployed.
    pub fn card_deployer_ready(
        &mut self,
        skirmisher: UnitId,
        deployer: UnitId,
        events: &mut Vec<Event>,
    ) -> bool {
        let Some(card) = self.play_skirmisher_card(skirmisher, SkirmisherMoment::Deploy, events)
        else {
            return false;
        };
        events.push(Event::CardEffect {
            card,
            what: format!("{} is not Finished by deploying", self.unit_name(deployer)),
        });
        true
    }
}
