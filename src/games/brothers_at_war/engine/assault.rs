//! Assault (7.0-7.33, B96-B101): a step into an enemy hex; the defender
//! may retreat before it (`EVADE`); otherwise both sides roll, the
//! attacker's dice then the defender's, and the effects fall together:
//! the loser retreats (or is eliminated when it cannot), both sides take
//! their hits without saves, a winning attacker enters, and every
//! participant is Finished.

use super::ground::enter_cost;
use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::{
    Assault, CombatEvent, Reaction, RetreatRule, Setting,
};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::order::{OpFireRule, Order, MAX_DICE};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, CardEffect, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::engine::card_attacks::AssaultAnswer;
use crate::games::brothers_at_war::engine::fire_math::{Attack, ToHit};
use crate::games::brothers_at_war::engine::retreat::RetreatPlan;
use crate::games::brothers_at_war::scenario::model::UnitKind;

/// Why an assault is refused, each citing its rule or ruling.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AssaultRefusal {
    /// Artillery and skirmishers do not assault (7.1).
    #[error("artillery and skirmishers may not assault")]
    NotAssaulter,
    /// Disrupted units may only move (6.531, B96).
    #[error("a Disrupted unit may not assault")]
    Disrupted,
    /// Formed units do not assault into woods (7.2, B62).
    #[error("formed infantry may not assault the woods of {0}")]
    FormedIntoWoods(Hex),
    /// A hex of skirmishers alone is not assaulted (B100).
    #[error("{0} holds only skirmishers")]
    OnlySkirmishers(Hex),
}

impl AssaultRefusal {
    /// The rule it enforces.
    pub fn rule(&self) -> &'static str {
        match self {
            AssaultRefusal::NotAssaulter => "7.1",
            AssaultRefusal::Disrupted => "B96",
            AssaultRefusal::FormedIntoWoods(_) => "7.2",
            AssaultRefusal::OnlySkirmishers(_) => "B100",
        }
    }
}

impl From<AssaultRefusal> for Refusal {
    fn from(r: AssaultRefusal) -> Refusal {
        Refusal::Assault(r)
    }
}

/// What the defender does before an assault (7.3).
enum Evade {
    /// It retreated.
    Evaded,
    /// It stands.
    Stood,
    /// Its owner is asked, with these paths (B7).
    Ask(Vec<Vec<Hex>>),
}

fn defend_dice_total(d: &[(u8, u8)]) -> u8 {
    d.iter().map(|x| x.0).fold(0, u8::saturating_add)
}

impl BrothersAtWar {
    /// The dice a unit rolls in an assault, and the lowest face that hits
    /// (7.11, B97): formed infantry +1; a unit of a Disrupted hex -1; an
    /// attacker climbing to a higher hex -1; deployed, Undisrupted
    /// artillery one more die.
    fn assault_dice(&self, unit: UnitId, climbing: bool) -> (u8, u8) {
        let disrupted_hex = self
            .hex_of(unit)
            .is_some_and(|h| self.units_at(h).iter().any(|&u| self.unit(u).disrupted));
        let bonus = u8::from(self.formation(unit) == Formation::Formed);
        let penalty = u8::from(disrupted_hex) + u8::from(climbing);
        let extra =
            u8::from(self.formation(unit) == Formation::Deployed && !self.unit(unit).disrupted);
        (
            self.firepower(unit)
                .saturating_add(extra)
                .saturating_add(self.card_assault_dice(unit)),
            ToHit::modified(penalty, bonus).face(),
        )
    }

    /// Both sides' dice, each side's total bounded by one roll.
    fn side_dice(&self, units: &[UnitId], climbing: bool) -> Vec<(u8, u8)> {
        let mut left = MAX_DICE as u8;
        units
            .iter()
            .map(|&u| {
                let (n, face) = self.assault_dice(u, climbing);
                let n = n.min(left);
                left -= n;
                (n, face)
            })
            .collect()
    }

    /// The active group steps into the enemy hex `to` (7.1, B96): checks,
    /// pays the step, and either the defender evades (7.3) or the dice
    /// wait. Returns whether the attacker entered the hex at once.
    pub fn assault(&mut self, to: Hex, events: &mut Vec<Event>) -> Result<bool, Refusal> {
        let g = self.group().cloned().ok_or(Refusal::NotNow {
            expected: "a unit to activate".to_string(),
        })?;
        let from = self
            .hex_of(g.units[0])
            .ok_or_else(|| Refusal::NotOnMap(self.unit_name(g.units[0])))?;
        if !from.is_neighbour(to) {
            return Err(Refusal::NotAdjacent { from, to });
        }
        let enemy = self.side_of(g.units[0]).other();
        let defenders = self.enemies_at(to, self.side_of(g.units[0]));
        if defenders
            .iter()
            .all(|&d| self.kind_of(d) == UnitKind::Skirmisher)
        {
            return Err(AssaultRefusal::OnlySkirmishers(to).into());
        }
        let map = &self.battle.map;
        let mut cost = 0;
        for &u in &g.units {
            let formation = self.formation(u);
            if matches!(self.kind_of(u), UnitKind::Artillery | UnitKind::Skirmisher) {
                return Err(AssaultRefusal::NotAssaulter.into());
            }
            if self.unit(u).disrupted {
                return Err(AssaultRefusal::Disrupted.into());
            }
            if formation == Formation::Formed && map.terrain_of(to).woods {
                return Err(AssaultRefusal::FormedIntoWoods(to).into());
            }
            let mover = formation.mover().ok_or(Refusal::Deployed)?;
            cost = cost.max(enter_cost(map, mover, Some(from), to)?);
        }
        let climbing = map.level(to) > map.level(from);
        let allowance = self.allowance(&g.units, false);
        if g.spent.saturating_add(cost) > allowance {
            return Err(Refusal::NoPoints {
                need: cost,
                left: allowance.saturating_sub(g.spent),
                rule: "5.2",
            });
        }
        if let Some(group) = self.now.activation.as_mut().and_then(|a| a.group.as_mut()) {
            group.spent = group.spent.saturating_add(cost);
            group.moved = true;
        }
        let asked = match self.evade(&defenders, to, events) {
            Evade::Evaded => {
                self.enter(&g.units, from, to, cost, events);
                return Ok(true);
            }
            Evade::Ask(paths) => Some(paths),
            Evade::Stood => None,
        };
        // B128: the assault a fire-then-assault card called for is made.
        self.now
            .card_effects
            .retain(|e| !matches!(e, CardEffect::MustAssault(..)));
        let mut defend_dice = self.side_dice(&defenders, false);
        // B11, B137: the defender's card for his targeted units.
        let extra = match self.card_on_assault(&defenders, &g.units, from, events) {
            AssaultAnswer::None => 0,
            AssaultAnswer::Dice(n) => n,
            AssaultAnswer::FellBack => return Ok(false),
        };
        let room = (MAX_DICE as u8).saturating_sub(defend_dice_total(&defend_dice));
        if let Some(first) = defend_dice.first_mut() {
            first.0 = first.0.saturating_add(extra.min(room));
        }
        let assault = Assault {
            attack_dice: self.side_dice(&g.units, climbing),
            defend_dice,
            attackers: g.units.clone(),
            from,
            hex: to,
            defenders,
            attack_hits: None,
            asking: asked.is_some(),
            attack_rolled: Vec::new(),
            defend_rolled: Vec::new(),
            reroll: None,
            cost_hits: Vec::new(),
        };
        let total = |d: &[(u8, u8)]| d.iter().map(|x| x.0).sum::<u8>();
        events.push(Event::Combat(CombatEvent::Assault {
            attackers: assault
                .attackers
                .iter()
                .map(|&u| self.unit_name(u))
                .collect(),
            hex: to,
            attack_dice: total(&assault.attack_dice),
            defend_dice: total(&assault.defend_dice),
        }));
        if let Some(paths) = asked {
            self.now.reaction = Some(Reaction {
                side: enemy,
                choices: Vec::new(),
                paths,
                question: None,
            });
        }
        self.now.assault = Some(assault);
        Ok(false)
    }

    /// Retreat before the assault by the defender's `EVADE` instruction
    /// (7.3, B99): 7.31 ready units are Finished, 7.32 Finished ones
    /// Disrupted, 7.33 Disrupted ones take a hit.
    fn evade(&mut self, defenders: &[UnitId], hex: Hex, events: &mut Vec<Event>) -> Evade {
        let first = defenders[0];
        let may = defenders
            .iter()
            .all(|&d| !matches!(self.kind_of(d), UnitKind::Skirmisher | UnitKind::Remnant));
        let setting = self.now.instructions.get(
            self.side_of(first),
            self.brigade_of(first),
            Setting::Evade(OpFireRule::Never, false),
        );
        if !may {
            return Evade::Stood;
        }
        let long = match setting {
            Setting::Evade(OpFireRule::Always, long) => long,
            Setting::Evade(OpFireRule::Ask, _) => {
                return match self.legal_retreats(defenders, false) {
                    Some((paths, _)) => Evade::Ask(paths),
                    None => Evade::Stood,
                };
            }
            _ => return Evade::Stood,
        };
        let plan = (long.then(|| self.retreat_plan(defenders, true)))
            .flatten()
            .or_else(|| self.retreat_plan(defenders, false));
        let Some(plan) = plan else {
            return Evade::Stood;
        };
        self.evade_along(defenders, hex, &plan, events);
        Evade::Evaded
    }

    /// The retreat before the assault along `plan` and its effects (7.3,
    /// 7.31-7.33).
    fn evade_along(
        &mut self,
        defenders: &[UnitId],
        hex: Hex,
        plan: &RetreatPlan,
        events: &mut Vec<Event>,
    ) {
        let before: Vec<(UnitId, bool, bool)> = defenders
            .iter()
            .map(|&d| (d, self.unit(d).finished, self.unit(d).disrupted))
            .collect();
        events.push(Event::Combat(CombatEvent::Evaded {
            units: defenders.iter().map(|&d| self.unit_name(d)).collect(),
        }));
        let extra = self.retreat(defenders, plan, events);
        let mut hits = extra;
        for (d, finished, disrupted) in before {
            if disrupted {
                hits = hits.saturating_add(1);
            } else if finished {
                self.disrupt(
                    d,
                    "retreated before an assault while Finished, 7.32",
                    events,
                );
            }
        }
        if hits > 0 {
            events.push(Event::Combat(CombatEvent::Hits {
                hits: 0,
                extra: hits,
            }));
            self.take_hits(defenders, hits, hex, events);
        }
    }

    /// The defender's answer when asked to evade (B7): a legal path
    /// offered, or `PASS` to stand and roll.
    pub fn answer_evade(
        &mut self,
        paths: &[Vec<Hex>],
        order: &Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let Some(mut a) = self.now.assault.take() else {
            self.now.reaction = None;
            return Ok(());
        };
        match order {
            Order::Pass(None) => {
                a.asking = false;
                self.now.assault = Some(a);
            }
            Order::Retreat(path) if paths.contains(path) => {
                let short = self
                    .legal_retreats(&a.defenders, false)
                    .is_some_and(|(_, short)| short);
                let plan = RetreatPlan {
                    path: path.clone(),
                    short,
                };
                self.evade_along(&a.defenders, a.hex, &plan, events);
                self.enter(&a.attackers, a.from, a.hex, 0, events);
            }
            Order::Retreat(path) => {
                let refusal = self.path_refusal(&a.defenders, path, false);
                self.now.assault = Some(a);
                return Err(refusal);
            }
            _ => {
                self.now.assault = Some(a);
                return Err(Refusal::NotNow {
                    expected: "a retreat path offered, or PASS".to_string(),
                });
            }
        }
        self.now.reaction = None;
        Ok(())
    }

    /// The attackers enter the hex the defender left (7.3).
    pub(super) fn enter(
        &mut self,
        units: &[UnitId],
        from: Hex,
        to: Hex,
        cost: u8,
        events: &mut Vec<Event>,
    ) {
        let skirmishers = units
            .first()
            .map_or(Vec::new(), |&m| self.skirmishers_to_fire(m, to));
        for &u in units {
            self.now.units[u.index()].place = Place::Map(to);
        }
        events.push(Event::Moved {
            units: units.iter().map(|&u| self.unit_name(u)).collect(),
            from: Some(from),
            to,
            cost,
        });
        self.skirmishers_make_way(units, to, events);
        // B73: they fire point blank at the advance first.
        self.skirmisher_point_blank_at(&skirmishers, units, false, events);
        self.displace_commanders(events);
    }

    /// The dice the assault under way waits for, if any.
    pub fn assault_dice_pending(&self) -> Option<usize> {
        let a = self.now.assault.as_ref().filter(|a| !a.asking)?;
        if let Some(r) = &a.reroll {
            let dice = if r.attacker {
                &a.attack_dice
            } else {
                &a.defend_dice
            };
            let n: u8 = r
                .segments
                .iter()
                .filter_map(|&i| dice.get(i))
                .map(|x| x.0)
                .sum();
            return Some(usize::from(n).clamp(1, MAX_DICE));
        }
        let dice = if a.attack_hits.is_none() {
            &a.attack_dice
        } else {
            &a.defend_dice
        };
        Some(usize::from(dice.iter().map(|x| x.0).sum::<u8>()).clamp(1, MAX_DICE))
    }

    /// Applies the dice rolled for the assault under way: the attacker's,
    /// then the defender's, then any a card rolls again (B140).
    pub fn assault_roll(&mut self, dice: &[u8], events: &mut Vec<Event>) {
        let Some(mut a) = self.now.assault.take() else {
            return;
        };
        if let Some(r) = a.reroll.take() {
            let (segments, rolled) = if r.attacker {
                (&a.attack_dice, &mut a.attack_rolled)
            } else {
                (&a.defend_dice, &mut a.defend_rolled)
            };
            let mut rest = dice;
            for &i in &r.segments {
                let (Some(&(n, face)), Some(slot)) = (segments.get(i), rolled.get_mut(i)) else {
                    continue;
                };
                let (these, more) = rest.split_at(usize::from(n).min(rest.len()));
                *slot = these.iter().filter(|&&d| d >= face).count() as u8;
                rest = more;
            }
            let successes: u8 = rolled.iter().sum();
            let units = if r.attacker {
                &a.attackers
            } else {
                &a.defenders
            };
            events.push(Event::Combat(CombatEvent::AssaultRolled {
                side: self.side_of(units[0]),
                dice: dice.to_vec(),
                successes,
            }));
            if r.attacker {
                a.attack_hits = Some(successes);
            }
            self.settle_assault(a, events);
            return;
        }
        let attacking = a.attack_hits.is_none();
        let segments = if attacking {
            &a.attack_dice
        } else {
            &a.defend_dice
        };
        let mut rest = dice;
        let mut rolled = Vec::with_capacity(segments.len());
        for &(n, face) in segments {
            let (these, more) = rest.split_at(usize::from(n).min(rest.len()));
            rolled.push(these.iter().filter(|&&d| d >= face).count() as u8);
            rest = more;
        }
        let successes: u8 = rolled.iter().sum();
        let side = self.side_of(if attacking {
            a.attackers[0]
        } else {
            a.defenders[0]
        });
        events.push(Event::Combat(CombatEvent::AssaultRolled {
            side,
            dice: dice.to_vec(),
            successes,
        }));
        if attacking {
            a.attack_hits = Some(successes);
            a.attack_rolled = rolled;
            self.now.assault = Some(a);
            return;
        }
        a.defend_rolled = rolled;
        self.settle_assault(a, events);
    }

    /// Both sides rolled: the loser as rolled may re-roll by card (B140),
    /// else the assault is decided.
    fn settle_assault(&mut self, mut a: Assault, events: &mut Vec<Event>) {
        if self.card_reroll(&mut a, events) {
            self.now.assault = Some(a);
            return;
        }
        self.settled_assault(a, events);
    }

    /// The assault decided as rolled; a question an `ASK` instruction
    /// leaves open stops it first (B145).
    pub(super) fn settled_assault(&mut self, a: Assault, events: &mut Vec<Event>) {
        let defend = a.defend_rolled.iter().sum();
        let asked = self.resolve_asking(events, |g, ev| g.conclude_assault(a.clone(), defend, ev));
        if let Some((side, question)) = asked {
            let mut a = a;
            a.asking = true;
            self.now.assault = Some(a);
            self.pose(side, question);
        }
    }

    /// 7.12, 7.13, B98: the winner, the loser's retreat, the hits of both
    /// sides, the attacker's entry, every participant Finished.
    fn conclude_assault(&mut self, a: Assault, defend: u8, events: &mut Vec<Event>) {
        let cap = Attack::Assault.max_hits() as u8;
        let on_defender = a.attack_hits.unwrap_or(0).min(cap);
        let on_attacker = defend.min(cap);
        let attacker_wins = on_defender > on_attacker;
        let (winner, loser) = if attacker_wins {
            (&a.attackers, &a.defenders)
        } else {
            (&a.defenders, &a.attackers)
        };
        events.push(Event::Combat(CombatEvent::AssaultWon {
            winner: self.side_of(winner[0]),
            attacker_hits: on_attacker,
            defender_hits: on_defender,
        }));
        let loser: Vec<UnitId> = loser.clone();
        let first = loser[0];
        let long = matches!(
            self.now.instructions.get(
                self.side_of(first),
                self.brigade_of(first),
                Setting::Retreat(RetreatRule::IfKilled, false),
            ),
            Setting::Retreat(_, true)
        );
        let long = long && self.retreat_plan(&loser, true).is_some();
        let plan = self.chosen_retreat(&loser, long);
        let mut extra = 0;
        let retreats = !loser
            .iter()
            .any(|&u| matches!(self.kind_of(u), UnitKind::Remnant | UnitKind::Skirmisher));
        match plan {
            Some(plan) if retreats => extra = self.retreat(&loser, &plan, events),
            // 6.71, B94: a loser that cannot retreat is eliminated.
            _ => {
                for &u in &loser {
                    events.push(Event::Combat(CombatEvent::Eliminated {
                        unit: self.unit_name(u),
                    }));
                    self.eliminate(u, events);
                }
            }
        }
        let (mut hit_attacker, mut hit_defender) = (on_attacker, on_defender);
        if attacker_wins {
            hit_defender = hit_defender.saturating_add(extra);
        } else {
            hit_attacker = hit_attacker.saturating_add(extra);
        }
        self.take_hits(&a.defenders, hit_defender, a.hex, events);
        self.take_hits(&a.attackers, hit_attacker, a.from, events);
        // 11.3 on 41-42: a re-roll's cost, once the winner is decided.
        for &(u, n) in &a.cost_hits {
            if let Some(at) = self.hex_of(u) {
                events.push(Event::Combat(CombatEvent::Hits { hits: n, extra: 0 }));
                self.take_hits(&[u], n, at, events);
            }
        }
        let enemy_left = self
            .units_at(a.hex)
            .iter()
            .any(|&u| a.defenders.contains(&u));
        if attacker_wins && !enemy_left {
            let movers: Vec<UnitId> = a
                .attackers
                .iter()
                .copied()
                .filter(|&u| self.hex_of(u) == Some(a.from))
                .collect();
            let skirmishers = movers
                .first()
                .map_or(Vec::new(), |&m| self.skirmishers_to_fire(m, a.hex));
            for &u in &movers {
                self.now.units[u.index()].place = Place::Map(a.hex);
            }
            // 9.14: enemy skirmishers next to the hex taken disband, after
            // their point blank fire at the winner (B73).
            if !movers.is_empty() {
                // 7.12: the winner enters (its step was paid with the assault).
                events.push(Event::Moved {
                    units: movers.iter().map(|&u| self.unit_name(u)).collect(),
                    from: Some(a.from),
                    to: a.hex,
                    cost: 0,
                });
                self.skirmishers_make_way(&movers, a.hex, events);
                self.skirmisher_point_blank_at(&skirmishers, &movers, false, events);
            }
        }
        for &u in a.attackers.iter().chain(&a.defenders) {
            if self.hex_of(u).is_some() {
                self.now.units[u.index()].finished = true;
            }
        }
        // 4.12, B101: commanders left alone next to the enemy, or in the hex
        // taken, move.
        self.displace_commanders(events);
        if self.end_if_broken() {
            return;
        }
        let active = self
            .now
            .activation
            .as_ref()
            .and_then(|x| x.group.as_ref())
            .is_some_and(|g| g.units.iter().any(|u| a.attackers.contains(u)));
        if active {
            let alive: Vec<UnitId> = a
                .attackers
                .iter()
                .copied()
                .filter(|&u| self.hex_of(u).is_some())
                .collect();
            if let Some(group) = self.now.activation.as_mut().and_then(|x| x.group.as_mut()) {
                group.units = alive.clone();
            }
            if alive.is_empty() {
                if let Some(x) = self.now.activation.as_mut() {
                    x.group = None;
                }
            } else {
                self.end_group(true, events);
            }
        }
    }
}
