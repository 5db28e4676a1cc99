//! Brothers at War behind the game seam ([`Game`]).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::CombatEvent;
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::order::{Action, Order};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Ending, Step};
use crate::games::brothers_at_war::scenario::registry;
use crate::games::{Chance, Game, GameOptions, Outcome, ParseError, Pending, Phase, Seat};

/// What a pending decision is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// Commit uncommitted brigades, or not (3.15).
    Commit,
    /// Activate the brigade's units, or pass (3.22).
    Activate,
    /// Move the brigade's commander (3.23).
    MoveCommander,
    /// Discard down to the hand size (2.31, 3.221).
    Discard,
    /// Answer a reaction an instruction said to ask (B7): an opportunity
    /// attack (`OPFIRE ... ASK`) or a retreat for a save (`RETREAT ...
    /// ASK`), or `PASS`.
    Reaction,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::Commit => "commitment",
            Decision::Activate => "activation",
            Decision::MoveCommander => "commander's move",
            Decision::Discard => "discard",
            Decision::Reaction => "reaction",
        })
    }
}

impl Serialize for BrothersAtWar {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.position_string())
    }
}

impl<'de> Deserialize<'de> for BrothersAtWar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        BrothersAtWar::from_position_string(&text).map_err(serde::de::Error::custom)
    }
}

impl Game for BrothersAtWar {
    type Order = Order;
    type Event = Event;
    type Refusal = Refusal;
    type Decision = Decision;
    type Ending = Ending;

    const NAME: &'static str = "brothersatwar";
    const RULES_VERSION: &'static str = crate::games::brothers_at_war::text::RULES_VERSION;
    const CHANCE: bool = true;

    /// A new game of the chosen scenario (the demo by default). A scenario
    /// id that is not registered is a caller's bug: the service checks it
    /// against [`Game::scenarios`] first.
    fn new(options: &GameOptions) -> Self {
        let id = options
            .scenario
            .clone()
            .unwrap_or_else(|| registry::DEMO.to_string());
        let battle = registry::get(&id)
            .or_else(|| registry::ids().first().and_then(|i| registry::get(i)))
            .unwrap_or_else(|| panic!("no Brothers at War scenario {id} is registered"));
        BrothersAtWar::start(battle)
    }

    fn pending(&self) -> Option<Pending<Decision>> {
        let side = self.decider()?;
        let (kind, phase) = match self.now.step {
            _ if self.now.reaction.is_some() => (Decision::Reaction, Phase::Reaction),
            Step::Commitment(_) => (Decision::Commit, Phase::WHOLE_TURN),
            // A brigade without a commander (9.3) has no move commander
            // step: its activation ends with its units.
            Step::Units(b) => (
                Decision::Activate,
                Phase::Turn {
                    part: 1,
                    last: self.battle.scenario.brigades[b.index()].commander.is_none(),
                },
            ),
            Step::Commander(_) => (
                Decision::MoveCommander,
                Phase::Turn {
                    part: 2,
                    last: true,
                },
            ),
            _ => (Decision::Discard, Phase::InAction),
        };
        Some(Pending {
            seat: side.seat(),
            phase,
            kind,
        })
    }

    fn legal_orders(&self) -> Vec<Order> {
        self.legal()
    }

    fn parse_order(&self, text: &str) -> Result<Order, ParseError> {
        let order: Order = text.parse()?;
        // Unit names are canonical as the scenario spells them.
        Ok(match order {
            Order::Act { units, action } => {
                let units = units
                    .into_iter()
                    .map(|n| self.unit_named(&n).map_or(n, |u| self.unit_name(u)))
                    .collect();
                let action = match action {
                    Action::Deploy {
                        skirmisher,
                        mounted,
                    } => Action::Deploy {
                        skirmisher: self
                            .unit_named(&skirmisher)
                            .map_or(skirmisher, |u| self.unit_name(u)),
                        mounted,
                    },
                    other => other,
                };
                Order::Act { units, action }
            }
            Order::Instruct { scope, setting } => Order::Instruct {
                scope: self
                    .battle
                    .brigade_named(&scope)
                    .map_or(scope, |id| self.brigade_name(id)),
                setting,
            },
            Order::Play { card, on } => Order::Play {
                card,
                on: on.map(|x| {
                    if x.parse::<crate::games::brothers_at_war::core::Hex>()
                        .is_ok()
                    {
                        x
                    } else if let Some(u) = self.unit_named(&x) {
                        self.unit_name(u)
                    } else if let Some(b) = self.battle.brigade_named(&x) {
                        self.brigade_name(b)
                    } else {
                        x
                    }
                }),
            },
            Order::Commit(b) => Order::Commit(
                self.battle
                    .brigade_named(&b)
                    .map_or(b, |id| self.brigade_name(id)),
            ),
            Order::OpFire { brigade, rule } => Order::OpFire {
                brigade: self
                    .battle
                    .brigade_named(&brigade)
                    .map_or(brigade, |id| self.brigade_name(id)),
                rule,
            },
            other => other,
        })
    }

    fn apply(&mut self, order: &Order) -> Result<Vec<Event>, Refusal> {
        self.apply_order(order)
    }

    /// B5: a player's standing instructions are taken whoever decides.
    fn apply_standing(&mut self, seat: Seat, order: &Order) -> Option<Result<Vec<Event>, Refusal>> {
        self.standing_side(order)?;
        Some(BrothersAtWar::apply_standing(
            self,
            crate::games::brothers_at_war::scenario::model::Side::of(seat),
            order,
        ))
    }

    fn outcome(&self) -> Option<Outcome<Ending>> {
        self.result()
    }

    fn position(&self) -> String {
        self.position_string()
    }

    fn from_position(text: &str) -> Result<Self, ParseError> {
        BrothersAtWar::from_position_string(text)
    }

    fn turn_number(&self) -> u32 {
        u32::from(self.now.turn)
    }

    fn forced(_event: &Event) -> Option<(Seat, Order)> {
        None
    }

    fn turn_serial(&self) -> u64 {
        u64::from(self.now.activations)
    }

    /// B9: a reaction set the rest of a move aside; the mover sends it
    /// again, so the end of his mail leaves the activation open.
    fn interrupts(event: &Event) -> bool {
        matches!(
            event,
            Event::Combat(CombatEvent::SetAside { .. } | CombatEvent::Waits { .. })
        )
    }

    fn scenarios() -> Vec<String> {
        let mut ids = registry::ids();
        if let Some(i) = ids.iter().position(|i| i == registry::DEMO) {
            let demo = ids.remove(i);
            ids.insert(0, demo);
        }
        ids
    }

    fn chance(&self) -> Option<Chance> {
        self.chance_pending()
    }

    fn chance_order(&self, outcome: u32) -> Option<Order> {
        self.chance_order_of(outcome)
    }
}
