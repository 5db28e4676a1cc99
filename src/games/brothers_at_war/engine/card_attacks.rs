//! Battle cards that change one attack under way (11.3, B125): the
//! target's answers before the dice (`cancel-fire`, the defender's
//! `extra-assault-dice`, `cancel-targeting-retreat`, B141), point blank
//! fire by any unit (B143), the fire that becomes an assault (B128) and
//! the re-rolled assault (B130, B140).

use super::cards::{number, Kind};
use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::{Assault, FireAttack, FireType, Reroll};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, CardEffect};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::engine::fire_math::Attack;
use crate::games::brothers_at_war::engine::ground::enter_cost;
use crate::games::brothers_at_war::engine::retreat::RetreatPlan;
use crate::games::brothers_at_war::scenario::model::{Param, UnitKind};

/// What the owner of units targeted by an assault answers with a card
/// (B11, B137).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssaultAnswer {
    /// No card.
    None,
    /// The first defender rolls this many more dice (`extra-assault-dice`).
    Dice(u8),
    /// The defenders fell back and the attackers entered the hex (B141).
    FellBack,
}

impl BrothersAtWar {
    /// The retreat a `cancel-targeting-retreat` card would make these
    /// targets take (B141): never a skirmisher's or a remnant's, 2 hexes,
    /// or a long one when the card says so and they may (6.72).
    fn fall_back_plan(&self, targets: &[UnitId], card: u8) -> Option<RetreatPlan> {
        let may = !targets.is_empty()
            && targets.iter().all(|&t| {
                !matches!(self.kind_of(t), UnitKind::Skirmisher | UnitKind::Remnant)
                    && self.hex_of(t).is_some()
            });
        // B141: never the units of the brigade activating, whose own
        // activation a retreat would cut in two.
        let activating = self.now.activation.as_ref().map(|a| a.brigade);
        let own_activation =
            activating.is_some_and(|b| targets.iter().any(|&t| self.brigade_of(t) == Some(b)));
        if !may || own_activation {
            return None;
        }
        let long = matches!(
            self.card_entry(card).and_then(|e| e.params.get("hexes")),
            Some(Param::Word(w)) if w == "long"
        );
        (long.then(|| self.retreat_plan(targets, true)))
            .flatten()
            .or_else(|| self.retreat_plan(targets, false))
    }

    /// The card the targets' owner plays as an attack targets them
    /// (`targeted`, B137, B148), among `kinds` whose effect can act on
    /// these targets (B141: falling back only where they can retreat).
    fn targeted_card(
        &mut self,
        targets: &[UnitId],
        kinds: &[Kind],
        about: &dyn Fn(&BrothersAtWar) -> String,
    ) -> Option<(u8, Kind)> {
        let &first = targets.first()?;
        let side = self.side_of(first);
        let brigade = self.brigade_of(first);
        let usable = |g: &BrothersAtWar, card: u8, kind: Kind| {
            kind != Kind::FallBack || g.fall_back_plan(targets, card).is_some()
        };
        self.choose_card(side, brigade, &[("targeted", kinds)], &usable, about)
    }

    /// The targets fall back by card before the dice (B141): no save, the
    /// hits of their retreat apply. The card is played here.
    fn fall_back(&mut self, targets: &[UnitId], card: u8, events: &mut Vec<Event>) {
        let Some(plan) = self.fall_back_plan(targets, card) else {
            return;
        };
        self.card_leaves_hand(self.side_of(targets[0]), card, None, events);
        let names: Vec<String> = targets.iter().map(|&u| self.unit_name(u)).collect();
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{} fall(s) back before the dice: the attack is not resolved",
                names.join(" and ")
            ),
        });
        let start = self.hex_of(targets[0]);
        let extra = self.retreat(targets, &plan, events);
        if let Some(start) = start {
            self.take_hits(targets, extra, start, events);
        }
    }

    /// Units in words: `10M and 11N`.
    pub(super) fn unit_names(&self, units: &[UnitId]) -> String {
        let names: Vec<String> = units.iter().map(|&u| self.unit_name(u)).collect();
        names.join(" and ")
    }

    /// Whether the target's owner ends this fire with a card before its
    /// dice (B11, B137, B148): `cancel-fire` (no effect) or
    /// `cancel-targeting-retreat` (the target falls back, B141).
    pub fn card_ends_fire(&mut self, attack: &FireAttack, events: &mut Vec<Event>) -> bool {
        let kinds = [Kind::CancelFire, Kind::FallBack];
        let about = |g: &BrothersAtWar| {
            format!(
                "{} fire(s) at your {} in {}",
                g.unit_names(&attack.firers),
                g.unit_names(&attack.targets),
                attack.target
            )
        };
        let Some((card, kind)) = self.targeted_card(&attack.targets, &kinds, &about) else {
            return false;
        };
        if kind == Kind::FallBack {
            self.fall_back(&attack.targets, card, events);
            return true;
        }
        self.card_leaves_hand(self.side_of(attack.targets[0]), card, None, events);
        events.push(Event::CardEffect {
            card,
            what: "the fire has no effect".into(),
        });
        true
    }

    /// The defender's card as an assault targets his units (B11, B137,
    /// B148): `extra-assault-dice` for the first defender, or
    /// `cancel-targeting-retreat`, after which the attackers enter the
    /// hex as in 7.3 and are Finished as if they had assaulted (B141).
    pub fn card_on_assault(
        &mut self,
        defenders: &[UnitId],
        attackers: &[UnitId],
        from: Hex,
        events: &mut Vec<Event>,
    ) -> AssaultAnswer {
        let kinds = [Kind::ExtraAssaultDice, Kind::FallBack];
        let about = |g: &BrothersAtWar| {
            format!(
                "{} assault(s) your {} from {from}",
                g.unit_names(attackers),
                g.unit_names(defenders)
            )
        };
        let Some((card, kind)) = self.targeted_card(defenders, &kinds, &about) else {
            return AssaultAnswer::None;
        };
        if kind == Kind::FallBack {
            let Some(to) = self.hex_of(defenders[0]) else {
                return AssaultAnswer::None;
            };
            self.fall_back(defenders, card, events);
            self.enter(attackers, from, to, 0, events);
            for &u in attackers {
                self.now.units[u.index()].finished = true;
            }
            self.end_group(true, events);
            return AssaultAnswer::FellBack;
        }
        self.card_leaves_hand(self.side_of(defenders[0]), card, None, events);
        let dice = self.card_entry(card).map_or(1, |e| number(e, "dice", 1));
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{} rolls {dice} more {}",
                self.unit_name(defenders[0]),
                if dice == 1 { "die" } else { "dice" }
            ),
        });
        AssaultAnswer::Dice(dice)
    }

    /// An enemy group has just stepped to `at` next to units of `side`'s
    /// (B143): the lowest of their hexes, then units, whose owner plays a
    /// `point-blank-fire-any-unit` card fires point blank at it, whatever
    /// its status, and stays where it is. Returns whether fire was opened.
    pub fn card_point_blank(&mut self, events: &mut Vec<Event>) -> bool {
        let Some(g) = self.group().cloned() else {
            return false;
        };
        let Some(at) = self.hex_of(g.units[0]) else {
            return false;
        };
        let side = self.side_of(g.units[0]).other();
        let g_units = g.units.clone();
        let mut near: Vec<UnitId> = self
            .units_of(side)
            .filter(|&u| {
                self.kind_of(u) != UnitKind::Skirmisher
                    && self.hex_of(u).is_some_and(|h| h.is_neighbour(at))
            })
            .collect();
        near.sort_by_key(|&u| (self.hex_of(u), u));
        for u in near {
            let kinds = [Kind::PointBlankAny];
            if self
                .card_for(side, self.brigade_of(u), "enemy-enters", &kinds)
                .is_none()
            {
                continue;
            }
            let Ok(mut attack) = self.declare_fire(&[u], at, &g.units, FireType::PointBlank) else {
                continue;
            };
            let about = |g: &BrothersAtWar| {
                format!(
                    "{} stepped to {at}, next to your {}",
                    g.unit_names(&g_units),
                    g.unit_name(u)
                )
            };
            // B148: asked once, for the unit AUTO would pick.
            let Some((card, _)) = self.react_with_card(
                side,
                self.brigade_of(u),
                "enemy-enters",
                &kinds,
                &about,
                events,
            ) else {
                return false;
            };
            events.push(Event::CardEffect {
                card,
                what: format!("{} fires point blank", self.unit_name(u)),
            });
            // 6.151 as a skirmisher would, but it stays and its status
            // stands (11.3 on 3-4).
            let was_finished = self.unit(u).finished;
            attack.opfire_after = true;
            self.open_fire(attack, events);
            self.now.units[u.index()].finished = was_finished;
            return true;
        }
        false
    }

    /// The `fire-then-assault` card waiting for one of these firers (B128).
    pub fn charge_waiting(&self, firers: &[UnitId]) -> Option<(UnitId, u8)> {
        self.now.card_effects.iter().find_map(|e| match e {
            CardEffect::FireThenAssault(u, card) if firers.contains(u) => Some((*u, *card)),
            _ => None,
        })
    }

    /// The hex the active group must assault now, by B128.
    pub fn charge_due(&self) -> Option<(UnitId, Hex, u8)> {
        let g = self.group()?;
        self.now.card_effects.iter().find_map(|e| match e {
            CardEffect::MustAssault(u, hex, card) if g.units.contains(u) => Some((*u, *hex, *card)),
            _ => None,
        })
    }

    /// Whether the group that fires at `hex` after spending `spent` points
    /// could then assault it (B128), or why not.
    pub fn may_charge(&self, units: &[UnitId], hex: Hex, spent: u8) -> Result<(), String> {
        let from = self
            .hex_of(units[0])
            .ok_or_else(|| "it is not on the map".to_string())?;
        if !from.is_neighbour(hex) {
            return Err(format!("{hex} is not next to {from}"));
        }
        let defenders = self.enemies_at(hex, self.side_of(units[0]));
        if defenders
            .iter()
            .all(|&d| self.kind_of(d) == UnitKind::Skirmisher)
        {
            return Err(format!("only skirmishers hold {hex} (7.1)"));
        }
        let map = &self.battle.map;
        let mut cost = 0;
        for &u in units {
            if matches!(self.kind_of(u), UnitKind::Artillery | UnitKind::Skirmisher) {
                return Err(format!("{} does not assault (7.1)", self.unit_name(u)));
            }
            let formation = self.formation(u);
            if formation == Formation::Formed && map.terrain_of(hex).woods {
                return Err(format!(
                    "formed infantry does not assault into woods at {hex}"
                ));
            }
            let mover = formation
                .mover()
                .ok_or_else(|| format!("{} is deployed (5.4)", self.unit_name(u)))?;
            let step = enter_cost(map, mover, Some(from), hex).map_err(|r| r.to_string())?;
            cost = cost.max(step);
        }
        let left = self.allowance(units, false).saturating_sub(spent);
        if cost > left {
            return Err(format!(
                "its assault of {hex} would cost {cost} MP and it would have {left} left"
            ));
        }
        Ok(())
    }

    /// B128 after the fire is resolved: the unit must assault the hex it
    /// fired at, unless no enemy holds it any more or the unit can no
    /// longer assault, when it is Finished.
    pub fn settle_charge(&mut self, events: &mut Vec<Event>) {
        let Some((u, hex, card)) = self.charge_due() else {
            return;
        };
        if self.now.fire.is_some() || self.now.reaction.is_some() {
            return;
        }
        let spent = self.group().map_or(0, |g| g.spent);
        let units = self.group().map(|g| g.units.clone()).unwrap_or_default();
        let held = self
            .units_at(hex)
            .iter()
            .any(|&e| self.side_of(e) != self.side_of(u));
        let able = units.iter().all(|&x| !self.unit(x).disrupted)
            && self.may_charge(&units, hex, spent).is_ok();
        if held && able {
            return;
        }
        self.now
            .card_effects
            .retain(|e| !matches!(e, CardEffect::MustAssault(..)));
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{} cannot assault {hex} now and is Finished",
                self.unit_name(u)
            ),
        });
        self.end_group(true, events);
    }

    /// B128: while a unit must assault, only that assault (or a card) is
    /// taken from its player.
    pub fn check_charge(&self, units: &[UnitId], first_step: Option<Hex>) -> Result<(), Refusal> {
        let Some((u, hex, _)) = self.charge_due() else {
            return Ok(());
        };
        let ours = self.group().is_some_and(|g| g.units == units);
        if ours && first_step == Some(hex) {
            return Ok(());
        }
        Err(Refusal::MustAssault(self.unit_name(u), hex))
    }

    /// After both sides' assault dice (B130, B140): the side losing the
    /// assault as rolled may re-roll by `CARDS ... AUTO` (the lower of its
    /// cards) or `ASK` (the one he answers, B148): `reroll-assault-dice`
    /// (the dice of its unit with the most, the first among equals, at the
    /// card's cost) or `reroll-any-die` (all its dice). Returns whether
    /// dice are rolled again.
    pub fn card_reroll(&mut self, a: &mut Assault, events: &mut Vec<Event>) -> bool {
        let attack: u8 = a.attack_rolled.iter().sum();
        let defend: u8 = a.defend_rolled.iter().sum();
        let cap = Attack::Assault.max_hits() as u8;
        let attacker_loses = attack.min(cap) <= defend.min(cap);
        let (units, dice) = if attacker_loses {
            (&a.attackers, &a.attack_dice)
        } else {
            (&a.defenders, &a.defend_dice)
        };
        let Some(&first) = units.first() else {
            return false;
        };
        let side = self.side_of(first);
        let brigade = self.brigade_of(first);
        let most = (0..dice.len())
            .filter(|&i| dice[i].0 > 0)
            .max_by_key(|&i| (dice[i].0, std::cmp::Reverse(i)));
        let all: Vec<usize> = (0..dice.len()).filter(|&i| dice[i].0 > 0).collect();
        if all.is_empty() {
            return false;
        }
        let windows: [(&str, &[Kind]); 2] = [
            ("assault-dice", &[Kind::RerollAssault]),
            ("after-roll", &[Kind::RerollAny]),
        ];
        let about = |_: &BrothersAtWar| {
            format!(
                "your side loses the assault as rolled ({} against {})",
                if attacker_loses { attack } else { defend },
                if attacker_loses { defend } else { attack }
            )
        };
        let Some((card, kind)) = self.choose_card(side, brigade, &windows, &|_, _, _| true, &about)
        else {
            return false;
        };
        let segments: Vec<usize> = if kind == Kind::RerollAssault {
            most.into_iter().collect()
        } else {
            all
        };
        self.card_leaves_hand(side, card, None, events);
        let names: Vec<String> = segments
            .iter()
            .filter_map(|&i| units.get(i))
            .map(|&u| self.unit_name(u))
            .collect();
        let cost = if kind == Kind::RerollAssault {
            self.card_entry(card).map_or(0, |e| number(e, "cost", 0))
        } else {
            0
        };
        if cost > 0 {
            if let Some(&u) = segments.first().and_then(|&i| units.get(i)) {
                a.cost_hits.push((u, cost));
            }
        }
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{}'s assault dice are rolled again{}",
                names.join(" and "),
                if cost > 0 {
                    format!(", at the cost of {cost} hit after the assault")
                } else {
                    String::new()
                }
            ),
        });
        a.reroll = Some(Reroll {
            attacker: attacker_loses,
            segments,
        });
        true
    }
}
