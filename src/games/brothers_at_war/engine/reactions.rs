//! Reactions (B5-B10, B69-B71): standing instructions given by order, and
//! the opportunity attack after each step of a move action.

use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::{
    CombatEvent, FireAttack, FireType, PointBlank, Reaction, Scope, Setting,
};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::order::OpFireRule;
use crate::games::brothers_at_war::core::order::{Action, Order};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};

/// The most opportunity attacks offered in one question (B7).
pub const MAX_OFFERED: usize = 32;

impl BrothersAtWar {
    /// Records a standing instruction (B5, B8): for a brigade, or for all
    /// of a side's brigades when the scope is `USA` or `CSA`.
    pub fn instruct(
        &mut self,
        scope: &str,
        setting: Setting,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let upper = scope.to_ascii_uppercase();
        let (scope, name) = match Side::BOTH.into_iter().find(|s| s.code() == upper) {
            Some(side) => (Scope::All(side), side.code().to_string()),
            None => {
                let b = self
                    .battle
                    .brigade_named(scope)
                    .ok_or_else(|| Refusal::NoSuchBrigade(scope.to_string()))?;
                if let Setting::OpFire(rule) = setting {
                    self.now.brigades[b.index()].opfire = rule;
                }
                (Scope::Brigade(b), self.brigade_name(b))
            }
        };
        self.now.instructions.set(scope, setting);
        events.push(Event::Combat(CombatEvent::Instruction {
            scope: name,
            setting: format!("{} {setting}", setting.word()),
        }));
        Ok(())
    }

    /// Before the active group leaves a hex it entered in this activation
    /// next to the enemy, the next adjacent enemy unit (or combining pair)
    /// that has not fired at it yet fires point blank (6.15, B72), any
    /// status, remnants included, as `POINTBLANK` allows. Returns whether
    /// fire was opened: the step then waits for the mover's next order.
    pub fn point_blank_fire(&mut self, events: &mut Vec<Event>) -> bool {
        let Some(g) = self.group().cloned() else {
            return false;
        };
        let Some(from) = self.hex_of(g.units[0]) else {
            return false;
        };
        if !g.moved {
            return false;
        }
        let fired = match &self.now.point_blank {
            Some(p) if p.movers == g.units && p.from == from => p.fired.clone(),
            _ => Vec::new(),
        };
        let enemy = self.side_of(g.units[0]).other();
        let mut near: Vec<UnitId> = self
            .units_of(enemy)
            .filter(|&u| {
                self.hex_of(u).is_some_and(|h| h.is_neighbour(from))
                    && !fired.contains(&u)
                    && self.pointblank_allowed(u)
            })
            .collect();
        near.sort_by_key(|&u| (self.hex_of(u), u));
        for (i, &u) in near.iter().enumerate() {
            let partner = near[i + 1..]
                .iter()
                .copied()
                .find(|&v| self.hex_of(v) == self.hex_of(u) && self.may_combine(u, v));
            let firers: Vec<UnitId> = std::iter::once(u).chain(partner).collect();
            let Ok(attack) = self.declare_fire(&firers, from, &g.units, FireType::PointBlank)
            else {
                continue;
            };
            let mut done = fired.clone();
            done.extend(firers.iter().copied());
            self.now.point_blank = Some(PointBlank {
                movers: g.units.clone(),
                from,
                fired: done,
            });
            // B7: `POINTBLANK ... ASK` offers this fire to its owner.
            if firers
                .iter()
                .any(|&f| self.pointblank_rule(f) == OpFireRule::Ask)
            {
                self.now.reaction = Some(Reaction {
                    side: enemy,
                    choices: vec![attack],
                    paths: Vec::new(),
                    question: None,
                });
                return true;
            }
            self.open_fire(attack, events);
            return true;
        }
        false
    }

    /// The enemy skirmishers next to `to` that will fire point blank at a
    /// unit ending its step there (6.151, B73), before they disband.
    pub fn skirmishers_to_fire(&self, mover: UnitId, to: Hex) -> Vec<(UnitId, Hex)> {
        let enemy = self.side_of(mover).other();
        let mut v: Vec<(UnitId, Hex)> = self
            .units_of(enemy)
            .filter(|&u| self.kind_of(u) == UnitKind::Skirmisher && self.pointblank_allowed(u))
            .filter_map(|u| Some((u, self.hex_of(u)?)))
            .filter(|(_, h)| h.is_neighbour(to))
            .collect();
        v.sort_by_key(|&(u, h)| (h, u));
        v
    }

    /// A skirmisher that disbanded as the active group stepped next to it
    /// fires point blank first (B73, B10 (4)); its fire goes before its
    /// disbanding in the events, and the step's opportunity attack waits
    /// for it. Returns whether fire was opened.
    pub fn skirmisher_point_blank(
        &mut self,
        skirmishers: &[(UnitId, Hex)],
        events: &mut Vec<Event>,
    ) -> bool {
        let Some(g) = self.group().cloned() else {
            return false;
        };
        self.skirmisher_point_blank_at(skirmishers, &g.units, true, events)
    }

    /// [`BrothersAtWar::skirmisher_point_blank`] at `targets`, wherever
    /// they stand: the active group after a step, or an assault's winner
    /// as it enters (B73); `opfire_after` lets the step's opportunity
    /// attack follow.
    pub fn skirmisher_point_blank_at(
        &mut self,
        skirmishers: &[(UnitId, Hex)],
        targets: &[UnitId],
        opfire_after: bool,
        events: &mut Vec<Event>,
    ) -> bool {
        let Some(at) = targets.first().and_then(|&u| self.hex_of(u)) else {
            return false;
        };
        for &(sk, from) in skirmishers {
            let was = self.unit(sk).clone();
            self.now.units[sk.index()].place = Place::Map(from);
            let attack = self.declare_fire(&[sk], at, targets, FireType::PointBlank);
            self.now.units[sk.index()] = was;
            let Ok(mut attack) = attack else {
                continue;
            };
            attack.opfire_after = opfire_after;
            let mut fire = Vec::new();
            self.open_fire(attack, &mut fire);
            // Back on the display it is ready; kept in place by a card
            // (B144) it keeps the marker its fire gave it.
            if self.hex_of(sk).is_none() {
                self.now.units[sk.index()].finished = false;
            }
            let name = self.unit_name(sk);
            let i = events
                .iter()
                .position(|e| matches!(e, Event::Disbanded { skirmisher } if *skirmisher == name))
                .unwrap_or(events.len());
            events.splice(i..i, fire);
            return true;
        }
        false
    }

    fn pointblank_allowed(&self, unit: UnitId) -> bool {
        self.pointblank_rule(unit) != OpFireRule::Never
    }

    /// A unit's `POINTBLANK` instruction (B5).
    fn pointblank_rule(&self, unit: UnitId) -> OpFireRule {
        match self.now.instructions.get(
            self.side_of(unit),
            self.brigade_of(unit),
            Setting::PointBlank(OpFireRule::Always),
        ) {
            Setting::PointBlank(rule) => rule,
            _ => OpFireRule::Always,
        }
    }

    /// The defender's answer when asked to retreat for a save (B7): a
    /// legal path offered (`RETREAT 0812 0911`), or `PASS` to stand.
    fn answer_retreat(
        &mut self,
        paths: &[Vec<Hex>],
        order: &Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let Some(mut f) = self.now.fire.take() else {
            self.now.reaction = None;
            return Ok(());
        };
        match order {
            Order::Pass(None) => {}
            Order::Retreat(path) if paths.contains(path) => {
                f.retreating = true;
                f.retreat_saves = self.battle.scenario.saves.retreat;
                f.path = path.clone();
            }
            Order::Retreat(path) => {
                let refusal = self.path_refusal(&f.targets, path, false);
                self.now.fire = Some(f);
                return Err(refusal);
            }
            _ => {
                self.now.fire = Some(f);
                return Err(Refusal::NotNow {
                    expected: "a retreat path offered, or PASS".to_string(),
                });
            }
        }
        self.now.reaction = None;
        self.to_saves(f, events);
        Ok(())
    }

    /// A unit's `OPFIRE` instruction (B5).
    fn opfire_rule(&self, unit: UnitId) -> OpFireRule {
        match self.now.instructions.get(
            self.side_of(unit),
            self.brigade_of(unit),
            Setting::OpFire(OpFireRule::Always),
        ) {
            Setting::OpFire(rule) => rule,
            _ => OpFireRule::Always,
        }
    }

    /// The reactor's answer to an opportunity attack asked of him (B7,
    /// B70): `PASS` declines, or one of the attacks offered, written as
    /// its unit order (`1VA FIRE 0304`).
    pub fn answer_reaction(
        &mut self,
        order: &Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let Some(r) = self.now.reaction.clone() else {
            return Ok(());
        };
        if let Some(question) = &r.question {
            return self.answer_question(question, order, events);
        }
        if !r.paths.is_empty() {
            if self.now.assault.is_some() {
                return self.answer_evade(&r.paths, order, events);
            }
            return self.answer_retreat(&r.paths, order, events);
        }
        let chosen = match order {
            Order::Pass(None) => None,
            Order::Act {
                units,
                action: Action::Fire(hex),
            } => {
                let mut named = self.named(units)?;
                named.sort();
                let found = r.choices.iter().find(|f| {
                    let mut firers = f.firers.clone();
                    firers.sort();
                    firers == named && f.target == *hex
                });
                Some(found.cloned().ok_or(Refusal::NotOffered)?)
            }
            _ => {
                return Err(Refusal::NotNow {
                    expected: "an opportunity attack offered, or PASS".to_string(),
                })
            }
        };
        self.now.reaction = None;
        let resume = self.now.activation.as_mut().and_then(|a| a.resume.take());
        match (chosen, resume) {
            (Some(attack), resume) => {
                if let Some(path) = resume {
                    events.push(Event::Combat(CombatEvent::SetAside { path }));
                }
                self.open_fire(attack, events);
            }
            (None, Some(path)) => self.resume_move(path, events),
            (None, None) => {}
        }
        Ok(())
    }

    /// B151: the enemy asked declined to fire at the group; the rest of
    /// its move, as written, goes on (its own reactions on the way), or
    /// is set aside if it can no longer be made (B9).
    fn resume_move(&mut self, path: Vec<Hex>, events: &mut Vec<Event>) {
        let Some(g) = self.group().cloned() else {
            events.push(Event::Combat(CombatEvent::SetAside { path }));
            return;
        };
        let names: Vec<String> = g.units.iter().map(|&u| self.unit_name(u)).collect();
        let mut trial = self.clone();
        let mut taken = vec![Event::Combat(CombatEvent::GoesOn { path: path.clone() })];
        match trial.act(&names, &Action::Move(path.clone()), &mut taken) {
            Ok(()) => {
                *self = trial;
                events.extend(taken);
            }
            Err(_) => events.push(Event::Combat(CombatEvent::SetAside { path })),
        }
    }

    /// A unit that may make opportunity fire (6.12, B69): ready,
    /// Undisrupted, on the map, not a remnant, artillery deployed.
    fn may_opfire(&self, unit: UnitId) -> bool {
        let s = self.unit(unit);
        self.hex_of(unit).is_some()
            && !s.finished
            && !s.disrupted
            && (self.kind_of(unit) != UnitKind::Artillery
                || self.formation(unit) == Formation::Deployed)
            && self.opfire_rule(unit) != OpFireRule::Never
    }

    /// After a step of the active group, the one opportunity attack its
    /// enemy makes (6.12, B69, B70): the choice with the most dice (a pair
    /// before a single unit), then the shortest range, then the lowest
    /// hex. Returns whether fire was opened.
    pub fn opportunity_fire(&mut self, events: &mut Vec<Event>) -> bool {
        // B111: no opportunity fire at a fate check's move.
        if self.now.activation.as_ref().is_some_and(|a| a.fate_move) {
            return false;
        }
        let Some(g) = self.group().cloned() else {
            return false;
        };
        let Some(hex) = self.hex_of(g.units[0]) else {
            return false;
        };
        let enemy = self.side_of(g.units[0]).other();
        let ready: Vec<UnitId> = self
            .units_of(enemy)
            .filter(|&u| self.may_opfire(u))
            .collect();
        let mut choices: Vec<FireAttack> = Vec::new();
        for (i, &u) in ready.iter().enumerate() {
            let mut sets = vec![vec![u]];
            for &v in &ready[i + 1..] {
                if self.may_combine(u, v) {
                    sets.push(vec![u, v]);
                }
            }
            for firers in sets {
                if let Ok(a) = self.declare_fire(&firers, hex, &g.units, FireType::Opportunity) {
                    choices.push(a);
                }
            }
        }
        let rank = |a: &FireAttack| {
            let range = a
                .firers
                .iter()
                .filter_map(|&u| self.hex_of(u))
                .map(|h| h.distance(hex))
                .max()
                .unwrap_or(0);
            let first = a.firers.iter().filter_map(|&u| self.hex_of(u)).min();
            (
                std::cmp::Reverse(a.dice),
                std::cmp::Reverse(a.firers.len()),
                range,
                first,
            )
        };
        // B70: units told ALWAYS fire the best attack at once; failing
        // them, units told ASK make their owner choose (B7).
        let (always, ask): (Vec<FireAttack>, Vec<FireAttack>) =
            choices.into_iter().partition(|a| {
                a.firers
                    .iter()
                    .all(|&u| self.opfire_rule(u) == OpFireRule::Always)
            });
        if let Some(best) = always.into_iter().min_by_key(rank) {
            self.open_fire(best, events);
            return true;
        }
        if ask.is_empty() {
            return false;
        }
        let mut ask = ask;
        ask.sort_by_key(rank);
        ask.truncate(MAX_OFFERED);
        self.now.reaction = Some(Reaction {
            side: enemy,
            choices: ask,
            paths: Vec::new(),
            question: None,
        });
        true
    }
}
