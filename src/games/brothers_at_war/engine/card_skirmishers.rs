//! The `skirmisher-does-not-disband` card kind (11.3 on 9-10, B144):
//! played by its holder's `CARDS ... AUTO` (or chosen under `ASK`, B148)
//! the moment a skirmisher of his
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
    /// The card the skirmisher's owner plays for `moment` (B137, B144,
    /// B148): a `skirmisher-does-not-disband` entry with the form the
    /// moment needs, and for a fire a cap above `cap`; the lowest under
    /// `AUTO`, his answer under `ASK`. Played here, face up (B2).
    fn play_skirmisher_card(
        &mut self,
        skirmisher: UnitId,
        moment: SkirmisherMoment,
        cap: u8,
        events: &mut Vec<Event>,
    ) -> Option<u8> {
        let side = self.side_of(skirmisher);
        let brigade = self.brigade_of(skirmisher);
        let kinds = [Kind::SkirmisherStays];
        let usable = |g: &BrothersAtWar, card: u8, _: Kind| {
            g.card_entry(card).is_some_and(|e| match moment {
                SkirmisherMoment::Disband => flag(e, "ignore-disband"),
                SkirmisherMoment::Fire => {
                    e.params.contains_key("max-hits") && number(e, "max-hits", cap) > cap
                }
                SkirmisherMoment::Deploy => flag(e, "deployer-stays-ready"),
            })
        };
        let about = |g: &BrothersAtWar| {
            let name = g.unit_name(skirmisher);
            match moment {
                SkirmisherMoment::Disband => {
                    format!("an enemy unit came next to your {name}, which would disband (9.14)")
                }
                SkirmisherMoment::Fire => format!("your {name} fires"),
                SkirmisherMoment::Deploy => format!("your {name} is deployed"),
            }
        };
        let (card, _) =
            self.choose_card(side, brigade, &[("skirmisher", &kinds)], &usable, &about)?;
        self.card_leaves_hand(side, card, None, events);
        Some(card)
    }

    /// 9.14 answered by card: the skirmisher an enemy came next to keeps
    /// its place this once (11.3 on 9-10, B144). Returns whether it does.
    pub fn card_keeps_skirmisher(&mut self, skirmisher: UnitId, events: &mut Vec<Event>) -> bool {
        let Some(card) =
            self.play_skirmisher_card(skirmisher, SkirmisherMoment::Disband, 0, events)
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
        let Some(card) = self.play_skirmisher_card(skirmisher, SkirmisherMoment::Fire, cap, events)
        else {
            return cap;
        };
        let raised = self
            .card_entry(card)
            .map_or(cap, |e| number(e, "max-hits", cap));
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
        let Some(card) = self.play_skirmisher_card(skirmisher, SkirmisherMoment::Deploy, 0, events)
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
