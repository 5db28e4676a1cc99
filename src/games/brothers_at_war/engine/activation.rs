//! Activating units (3.22, 5.1-5.2): a unit or a stack that began the
//! activation stacked becomes active with its first action and spends
//! movement points until it is done; naming another unit ends the active
//! one's activation.

use super::ground::open_to_movement;
use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::CombatEvent;
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::order::{Action, MAX_PATH};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, CardEffect, Group, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Face, UnitKind};

/// Movement points to change formation (5.22, 5.222).
pub const FORM_COST: u8 = 2;
/// Movement points to hold fire (5.25).
pub const HOLD_COST: u8 = 3;

impl BrothersAtWar {
    pub(super) fn group(&self) -> Option<&Group> {
        self.now.activation.as_ref().and_then(|a| a.group.as_ref())
    }

    /// The units an order names.
    pub fn named(&self, names: &[String]) -> Result<Vec<UnitId>, Refusal> {
        let mut units = Vec::new();
        for n in names {
            let u = self
                .unit_named(n)
                .ok_or_else(|| Refusal::NoSuchUnit(n.clone()))?;
            if !units.contains(&u) {
                units.push(u);
            }
        }
        Ok(units)
    }

    /// Whether the active group may end its activation where it is: the
    /// hex allows it (5.32), or it has no step left to leave it by.
    pub fn group_may_end(&self) -> bool {
        let Some(g) = self.group() else { return true };
        let Some(hex) = self.hex_of(g.units[0]) else {
            return true;
        };
        self.can_end(&g.units, hex) || !self.can_leave(g, hex)
    }

    /// Whether the group has a step it may take from `hex`.
    fn can_leave(&self, g: &Group, hex: crate::games::brothers_at_war::core::Hex) -> bool {
        self.battle
            .map
            .neighbours(hex)
            .any(|n| self.plan_step(g, Some(hex), n).is_ok())
    }

    /// Ends the active group's activation (5.1): Finished unless it held
    /// fire (5.25); a skirmisher left stacked, or one a unit ends with,
    /// disbands (9.14, 9.16); then every unit of the hex shares its one
    /// marker, Disrupted over Finished over none (1.5, 5.37, B44).
    pub fn end_group(&mut self, finished: bool, events: &mut Vec<Event>) {
        let Some(g) = self.now.activation.as_mut().and_then(|a| a.group.take()) else {
            return;
        };
        for &u in &g.units {
            self.now.units[u.index()].finished |= finished;
        }
        self.now.last_group = finished.then(|| g.clone());
        events.push(Event::Ended {
            units: g.units.iter().map(|&u| self.unit_name(u)).collect(),
            finished,
        });
        let Some(mut hex) = self.hex_of(g.units[0]) else {
            return;
        };
        // B138: left by a reaction where it may not end (5.32), it goes
        // back to the last hex of its move where it could.
        let skirmishers = g
            .units
            .iter()
            .all(|&u| self.kind_of(u) == UnitKind::Skirmisher);
        if !skirmishers && !self.can_end(&g.units, hex) {
            if let Some(&to) = g.back.iter().rev().find(|&&h| self.can_end(&g.units, h)) {
                for &u in &g.units {
                    self.now.units[u.index()].place = Place::Map(to);
                }
                events.push(Event::SentBack {
                    units: g.units.iter().map(|&u| self.unit_name(u)).collect(),
                    from: hex,
                    to,
                });
                hex = to;
            }
        }
        let here = self.units_at(hex);
        if here.len() > 1 {
            for &u in &here {
                if self.kind_of(u) == UnitKind::Skirmisher {
                    self.disband(u, events);
                }
            }
        }
        let stack = self.units_at(hex);
        if stack.iter().any(|&u| self.unit(u).disrupted) {
            for &u in &stack {
                self.disrupt(u, "took the hex's Disrupted marker, B44", events);
            }
        } else if stack.iter().any(|&u| self.unit(u).finished) {
            for &u in &stack {
                self.now.units[u.index()].finished = true;
            }
        }
    }

    /// A skirmisher goes back to its brigade's display (9.14); an
    /// independent one waits two turns on the turn track (9.19 c).
    pub fn disband(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        let back = if self.independent(unit) {
            Place::Track(self.now.turn.saturating_add(2))
        } else {
            Place::Display
        };
        let u = &mut self.now.units[unit.index()];
        u.place = back;
        u.finished = false;
        u.disrupted = false;
        u.out_of_command = false;
        if let Some(a) = self.now.activation.as_mut() {
            a.disbanded.push(unit);
        }
        events.push(Event::Disbanded {
            skirmisher: self.unit_name(unit),
        });
    }

    /// Why a unit can no longer act because it has left the map: a
    /// skirmisher disbanded to its display (9.14) or to the turn track
    /// (9.19), a unit eliminated (6.54), removed with its broken brigade
    /// (2.33), or gone off an exit (5.214). `None` while it is on the map,
    /// waiting to enter, or on an off-board card.
    pub fn gone(&self, u: UnitId) -> Option<Refusal> {
        let (how, rule) = match self.unit(u).place {
            // An independent skirmisher on its display may still come on
            // next to its commander (9.19 b): only one disbanded in this
            // activation is gone for it.
            Place::Display
                if self
                    .now
                    .activation
                    .as_ref()
                    .is_some_and(|a| a.disbanded.contains(&u)) =>
            {
                (
                    "it disbanded in this activation and is back on its brigade's display",
                    "9.14",
                )
            }
            Place::Track(_) => (
                "it disbanded and waits on the turn track as an independent skirmisher",
                "9.19",
            ),
            Place::Eliminated => ("it was eliminated", "6.54"),
            Place::Removed => ("it was removed with its broken brigade", "2.33"),
            Place::Exited => ("it left the map by an exit", "5.214"),
            _ => return None,
        };
        Some(Refusal::Gone {
            unit: self.unit_name(u),
            how,
            rule,
        })
    }

    /// Makes `units` the active group: they continue, or they begin their
    /// activation after the one active ends.
    pub(super) fn activate(
        &mut self,
        units: &[UnitId],
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        if let Some(g) = self.group() {
            if units.iter().all(|u| g.units.contains(u)) {
                return Ok(());
            }
            if self.joins_stack(units) {
                // 5.34's example, B61: the points it spent are the stack's.
                if let Some(g) = self.now.activation.as_mut().and_then(|a| a.group.as_mut()) {
                    g.units = units.to_vec();
                }
                return Ok(());
            }
        }
        let Some(a) = self.now.activation.as_ref() else {
            return Err(Refusal::NotNow {
                expected: "an activation".to_string(),
            });
        };
        let brigade = a.brigade;
        let resume = self.resumable(units);
        for &u in units {
            let name = self.unit_name(u);
            if self.kind_of(u) == UnitKind::Remnant {
                return Err(Refusal::Remnant(name));
            }
            if self.brigade_of(u) != Some(brigade) {
                return Err(Refusal::NotOfBrigade(name));
            }
            // 9.4 before all: an off-board battery's only action is fire.
            if self.unit(u).place == Place::OffBoard {
                return Err(Refusal::OffBoardOnlyFires(name));
            }
            // A unit gone from the map is refused for that, not for the
            // activation it had begun (a skirmisher disbanded mid-move).
            if let Some(gone) = self.gone(u) {
                return Err(gone);
            }
            // 1.51 first: a unit Finished by its own action is refused
            // for its marker, the reason a player sees on the board.
            if self.unit(u).finished {
                return Err(Refusal::Finished(name));
            }
            if a.acted.contains(&u) && resume.is_none() {
                return Err(Refusal::AlreadyActed(name));
            }
            match self.unit(u).place {
                Place::Map(_) => {}
                Place::Waiting => {
                    let due = self.battle.scenario.units[u.index()]
                        .enters
                        .as_ref()
                        .is_some_and(|e| e.turn <= self.now.turn);
                    if !due {
                        return Err(Refusal::NotArrived(name));
                    }
                }
                _ => return Err(Refusal::NotOnMap(name)),
            }
        }
        if let [a, b] = units {
            let together = self.unit(*a).place == self.unit(*b).place;
            if !together {
                return Err(Refusal::NotAStack(self.unit_name(*a), self.unit_name(*b)));
            }
        }
        if self.group().is_some() {
            if !self.group_may_end() {
                let g = self.group().map(|g| g.units[0]).unwrap_or(units[0]);
                return Err(Refusal::ActiveCannotEnd(self.unit_name(g)));
            }
            self.end_group(true, events);
        }
        if let Some(i) = resume {
            if let CardEffect::Resume(g) = self.now.card_effects.remove(i) {
                if let Some(a) = self.now.activation.as_mut() {
                    a.group = Some(g);
                }
                return Ok(());
            }
        }
        let road_march = self.road_march_start(units);
        if let Some(a) = self.now.activation.as_mut() {
            a.acted.extend(units.iter().copied());
            a.group = Some(Group {
                units: units.to_vec(),
                spent: 0,
                road_march,
                moved: false,
                back: Vec::new(),
            });
        }
        Ok(())
    }

    /// Whether a unit is an independent skirmisher (9.19).
    pub fn independent(&self, unit: UnitId) -> bool {
        self.unit(unit).generic.is_none()
            && self
                .battle
                .scenario
                .units
                .get(unit.index())
                .is_some_and(|u| u.independent)
    }

    /// 9.19 b, B115: at its brigade's recovery (before any unit acts), one
    /// independent skirmisher may go from the display to a hex next to
    /// the commander where it could end its activation; it is ready.
    fn deploy_independent(
        &mut self,
        u: UnitId,
        path: &[Hex],
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let name = self.unit_name(u);
        let Some(a) = self.now.activation.as_ref() else {
            return Err(Refusal::CannotDeploy(name));
        };
        let commander = self.brigade(a.brigade).commander;
        if a.disbanded.contains(&u) {
            return Err(Refusal::DisbandedThisActivation(name));
        }
        let ok = self.brigade_of(u) == Some(a.brigade)
            && !a.independent
            && a.acted.is_empty()
            && a.group.is_none()
            && !a.disbanded.contains(&u);
        let [to] = path else {
            return Err(Refusal::CannotDeploy(name));
        };
        if !ok || !commander.is_some_and(|c| c.is_neighbour(*to)) {
            return Err(Refusal::CannotDeploy(name));
        }
        let enemy = self.side_of(u).other();
        if !open_to_movement(&self.battle.map, *to)
            || !self.units_at(*to).is_empty()
            || self.adjacent_to(*to, enemy)
        {
            return Err(Refusal::CannotDeploy(name));
        }
        let s = &mut self.now.units[u.index()];
        s.place = Place::Map(*to);
        s.face = Face::Front;
        s.finished = false;
        s.disrupted = false;
        s.out_of_command = false;
        if let Some(a) = self.now.activation.as_mut() {
            a.independent = true;
        }
        events.push(Event::Deployed {
            skirmisher: name,
            at: *to,
        });
        Ok(())
    }

    /// Applies a unit order of the activating brigade.
    pub fn act(
        &mut self,
        names: &[String],
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let units = self.named(names)?;
        self.act_unchecked(&units, names, action, events)?;
        // 5.32: no action may leave the active unit where it may not end
        // its activation with no step left to leave by.
        if let Some(g) = self.group() {
            if let Some(hex) = self.hex_of(g.units[0]) {
                if !self.can_end(&g.units, hex) && !self.can_leave(g, hex) {
                    return Err(self.cannot_end(&g.units, hex));
                }
            }
        }
        Ok(())
    }

    fn act_unchecked(
        &mut self,
        units: &[UnitId],
        names: &[String],
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let units = units.to_vec();
        match action {
            Action::Fire(hex) => self.fire_order(&units, *hex, None, events),
            Action::FireSide(hex, side) => self.fire_order(&units, *hex, Some(*side), events),
            Action::FireAtBattery(name) => self.fire_at_battery(&units, name, events),
            Action::Move(path) => {
                if path.len() > MAX_PATH {
                    return Err(Refusal::NoPoints {
                        need: 255,
                        left: 0,
                        rule: "5.2",
                    });
                }
                if let [u] = units[..] {
                    if self.independent(u) && self.unit(u).place == Place::Display {
                        return self.deploy_independent(u, path, events);
                    }
                }
                self.activate(&units, events)?;
                self.check_whole_group(&units)?;
                // 4.3: a unit out of command, not Disrupted yet, is
                // Disrupted by its move; a step refused for that says so.
                let fresh: Vec<UnitId> = units
                    .iter()
                    .copied()
                    .filter(|&u| self.unit(u).out_of_command && !self.unit(u).disrupted)
                    .collect();
                let why = |g: &BrothersAtWar, r: Refusal| match (r, fresh.first()) {
                    (r @ (Refusal::DisruptedCloses(_) | Refusal::DisruptedAdjacent), Some(&u)) => {
                        Refusal::OutOfCommandMove(g.unit_name(u), Box::new(r))
                    }
                    (r, _) => r,
                };
                for (i, &to) in path.iter().enumerate() {
                    // 7.1: a step into an enemy hex is an assault (B69: not
                    // a move action).
                    let enemy = self.side_of(units[0]).other();
                    if self.occupied_by(to, enemy) {
                        let entered = self.assault(to, events)?;
                        if !entered {
                            // B141: an assault a card ended leaves no group.
                            if i + 1 < path.len() && self.group().is_some() {
                                events.push(Event::Combat(CombatEvent::SetAside {
                                    path: path[i + 1..].to_vec(),
                                }));
                            }
                            break;
                        }
                        continue;
                    }
                    // B10 (1): point blank fire before the unit leaves, for
                    // a step that is legal.
                    if let Some(g) = self.group().cloned() {
                        if let Some(from) = self.hex_of(g.units[0]) {
                            self.plan_step(&g, Some(from), to)
                                .map_err(|r| why(self, r))?;
                        }
                    }
                    if self.point_blank_fire(events) {
                        events.push(Event::Combat(CombatEvent::SetAside {
                            path: path[i..].to_vec(),
                        }));
                        break;
                    }
                    let mover = units[0];
                    let skirmishers = self.skirmishers_to_fire(mover, to);
                    self.step_to(to, events).map_err(|r| why(self, r))?;
                    self.now.point_blank = None;
                    // B143: a card's point blank fire follows the
                    // skirmishers', each one attack at the step.
                    if self.skirmisher_point_blank(&skirmishers, events)
                        || self.card_point_blank(events)
                    {
                        if i + 1 < path.len() {
                            events.push(Event::Combat(CombatEvent::SetAside {
                                path: path[i + 1..].to_vec(),
                            }));
                        }
                        break;
                    }
                    // B69, B9: the reactor's one attack after the step; the
                    // rest of the path waits for the mover's next order, or
                    // for the reactor's answer when he is asked (B151).
                    if self.opportunity_fire(events) {
                        if i + 1 < path.len() {
                            let rest = path[i + 1..].to_vec();
                            let asked = self.now.fire.is_none()
                                && self
                                    .now
                                    .reaction
                                    .as_ref()
                                    .is_some_and(|r| !r.choices.is_empty());
                            if asked {
                                if let Some(a) = self.now.activation.as_mut() {
                                    a.resume = Some(rest.clone());
                                }
                                events.push(Event::Combat(CombatEvent::Waits { path: rest }));
                            } else {
                                events.push(Event::Combat(CombatEvent::SetAside { path: rest }));
                            }
                        }
                        break;
                    }
                }
                Ok(())
            }
            Action::Form => self.change_formation(&units, events),
            Action::Exit => {
                self.activate(&units, events)?;
                self.check_whole_group(&units)?;
                self.exit_map(events)
            }
            Action::Hold => {
                self.activate(&units, events)?;
                self.check_whole_group(&units)?;
                let g = self
                    .group()
                    .cloned()
                    .ok_or(Refusal::NotActive(names[0].clone()))?;
                if g.units.iter().any(|&u| self.unit(u).disrupted) {
                    return Err(Refusal::DisruptedOnlyMoves);
                }
                let left = self
                    .allowance(&g.units, g.road_march)
                    .saturating_sub(g.spent);
                if left < HOLD_COST {
                    return Err(Refusal::NoPoints {
                        need: HOLD_COST,
                        left,
                        rule: "5.25",
                    });
                }
                self.must_end_here(&g.units)?;
                self.end_group(false, events);
                Ok(())
            }
            Action::Deploy {
                skirmisher,
                mounted,
            } => self.deploy(&units, skirmisher, *mounted, events),
            Action::Disband => {
                let [u] = units[..] else {
                    return Err(Refusal::CannotDisband(names.join(" ")));
                };
                let name = self.unit_name(u);
                let ok = self.kind_of(u) == UnitKind::Skirmisher
                    && self.hex_of(u).is_some()
                    && self.group().is_none_or(|g| !g.units.contains(&u));
                if !ok {
                    return Err(Refusal::CannotDisband(name));
                }
                self.activate(&units, events)?;
                if let Some(a) = self.now.activation.as_mut() {
                    a.group = None;
                }
                self.disband(u, events);
                Ok(())
            }
            Action::Done => {
                if let Some(g) = self.group().cloned() {
                    if units.len() < g.units.len() && units.iter().all(|u| g.units.contains(u)) {
                        if let Some(hex) = self.hex_of(units[0]) {
                            if !self.can_end(&units, hex) {
                                return Err(self.cannot_end(&units, hex));
                            }
                        }
                        // 5.33: a unit dropped off by a moving stack is Finished.
                        for &u in &units {
                            self.now.units[u.index()].finished = true;
                        }
                        if let Some(g) = self.now.activation.as_mut().and_then(|a| a.group.as_mut())
                        {
                            g.units.retain(|u| !units.contains(u));
                        }
                        events.push(Event::Ended {
                            units: units.iter().map(|&u| self.unit_name(u)).collect(),
                            finished: true,
                        });
                        // 9.14, 9.16: the dropped unit ends its activation
                        // here, so a skirmisher it ends with disbands.
                        if let Some(hex) = self.hex_of(units[0]) {
                            for s in self.units_at(hex) {
                                if self.kind_of(s) == UnitKind::Skirmisher && !units.contains(&s) {
                                    self.disband(s, events);
                                }
                            }
                        }
                        return Ok(());
                    }
                }
                self.activate(&units, events)?;
                self.check_whole_group(&units)?;
                let g = self
                    .group()
                    .cloned()
                    .ok_or(Refusal::NotActive(names[0].clone()))?;
                let Some(hex) = self.hex_of(g.units[0]) else {
                    // A reinforcement that stays off the map (10.12).
                    if let Some(a) = self.now.activation.as_mut() {
                        a.group = None;
                    }
                    return Ok(());
                };
                if !self.group_may_end() {
                    return Err(self.cannot_end(&g.units, hex));
                }
                self.end_group(true, events);
                Ok(())
            }
        }
    }

    /// An order for a stack names both its units once it is active.
    /// Whether `units` are the unit acting and the other unit of the
    /// stack it began the activation in, which joins it (5.33, 5.34,
    /// B61): the acting unit has not moved, and the other is of the
    /// brigade, has not activated and is neither Finished nor Disrupted.
    fn joins_stack(&self, units: &[UnitId]) -> bool {
        let (Some(g), Some(a)) = (self.group(), self.now.activation.as_ref()) else {
            return false;
        };
        let (&[acting], &[x, y]) = (g.units.as_slice(), units) else {
            return false;
        };
        let other = match (x == acting, y == acting) {
            (true, false) => y,
            (false, true) => x,
            _ => return false,
        };
        let here = self.hex_of(acting);
        let s = self.unit(other);
        here.is_some()
            && !g.moved
            && g.back.is_empty()
            && self.hex_of(other) == here
            && self.brigade_of(other) == Some(a.brigade)
            && !a.acted.contains(&other)
            && !s.finished
            && !s.disrupted
            && !matches!(
                self.kind_of(other),
                UnitKind::Remnant | UnitKind::Skirmisher
            )
    }

    pub(super) fn check_whole_group(&self, units: &[UnitId]) -> Result<(), Refusal> {
        match self.group() {
            Some(g) if g.units.len() != units.len() => {
                Err(Refusal::NotActive(self.unit_name(g.units[0])))
            }
            _ => Ok(()),
        }
    }

    fn must_end_here(&self, units: &[UnitId]) -> Result<(), Refusal> {
        match self.hex_of(units[0]) {
            Some(h) if !self.group_may_end() => Err(self.cannot_end(units, h)),
            Some(_) => Ok(()),
            None => Err(Refusal::NotOnMap(self.unit_name(units[0]))),
        }
    }

    /// Change formation (5.22, 5.221, 5.222).
    fn change_formation(
        &mut self,
        units: &[UnitId],
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        self.activate(units, events)?;
        // B117: a reinforcement enters in the formation its owner names:
        // off the map, its counter turns at no cost.
        if units.iter().all(|&u| self.unit(u).place == Place::Waiting) {
            for &u in units {
                if self.kind_of(u) == UnitKind::Remnant {
                    return Err(Refusal::NoOtherFormation(self.unit_name(u)));
                }
                let s = &mut self.now.units[u.index()];
                s.face = match s.face {
                    Face::Front => Face::Back,
                    Face::Back => Face::Front,
                };
                events.push(Event::Formed {
                    unit: self.unit_name(u),
                    formation: self.formation(u),
                });
            }
            return Ok(());
        }
        let g = self
            .group()
            .cloned()
            .ok_or(Refusal::NotActive(self.unit_name(units[0])))?;
        for &u in units {
            let name = self.unit_name(u);
            if self.hex_of(u).is_none() {
                return Err(Refusal::NotOnMap(name));
            }
            if self.unit(u).disrupted {
                return Err(Refusal::DisruptedOnlyMoves);
            }
            let two_sided = match self.kind_of(u) {
                UnitKind::Remnant => false,
                UnitKind::Skirmisher => self.cavalry_symbol(u),
                _ => true,
            };
            if !two_sided {
                return Err(Refusal::NoOtherFormation(name));
            }
        }
        let limbering = units
            .iter()
            .any(|&u| self.formation(u) == Formation::Deployed);
        if limbering && g.spent > 0 {
            return Err(Refusal::LimberFirst);
        }
        let left = self
            .allowance(&g.units, g.road_march)
            .saturating_sub(g.spent);
        // B125: a card may make the change free.
        let free = self
            .now
            .card_effects
            .iter()
            .any(|e| matches!(e, CardEffect::FreeForm(u) if units.contains(u)));
        if !limbering && left < FORM_COST && !free {
            return Err(Refusal::NoPoints {
                need: FORM_COST,
                left,
                rule: "5.22",
            });
        }
        let mut unlimbered = false;
        for &u in units {
            let s = &mut self.now.units[u.index()];
            s.face = match s.face {
                Face::Front => Face::Back,
                Face::Back => Face::Front,
            };
            unlimbered |= self.formation(u) == Formation::Deployed;
            events.push(Event::Formed {
                unit: self.unit_name(u),
                formation: self.formation(u),
            });
        }
        let spent = if self.take_free_form(units) {
            g.spent
        } else {
            g.spent + FORM_COST
        };
        // 5.212: road march is for units that are not formed infantry.
        let formed = units
            .iter()
            .any(|&u| self.formation(u) == Formation::Formed);
        if let Some(g) = self.now.activation.as_mut().and_then(|a| a.group.as_mut()) {
            g.spent = spent;
            g.road_march &= !formed;
        }
        let g = self.group().cloned();
        let g_units = g.as_ref().map(|g| g.units.clone()).unwrap_or_default();
        let over = g.is_some_and(|g| spent >= self.allowance(&g.units, g.road_march));
        // 5.222: deployed artillery is Finished; 5.221, B55: so is a unit
        // with no points left on its new side.
        if unlimbered || over {
            if let Some(hex) = self.hex_of(units[0]) {
                if !self.can_end(&g_units, hex) {
                    return Err(self.cannot_end(units, hex));
                }
            }
            self.end_group(true, events);
        }
        Ok(())
    }

    /// Deploy skirmishers (5.26, 9.13).
    fn deploy(
        &mut self,
        units: &[UnitId],
        skirmisher: &str,
        mounted: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let [u] = units[..] else {
            return Err(Refusal::CannotDeploy(skirmisher.to_string()));
        };
        let sk = self
            .unit_named(skirmisher)
            .ok_or_else(|| Refusal::NoSuchUnit(skirmisher.to_string()))?;
        // B58: at any point of the unit's activation, but by one unit, not
        // a stack acting as one.
        if self
            .group()
            .is_some_and(|g| g.units.contains(&u) && g.units.len() > 1)
        {
            return Err(Refusal::DeployFirst);
        }
        self.activate(units, events)?;
        let hex = self.hex_of(u).ok_or(Refusal::NotOnMap(self.unit_name(u)))?;
        if self.unit(u).disrupted {
            return Err(Refusal::DisruptedOnlyMoves);
        }
        if self.unit(u).out_of_command {
            return Err(Refusal::OutOfCommandDeploy);
        }
        let cavalry = match self.kind_of(u) {
            UnitKind::Infantry => false,
            UnitKind::Cavalry => true,
            _ => return Err(Refusal::CannotDeploy(skirmisher.to_string())),
        };
        let disbanded = self
            .now
            .activation
            .as_ref()
            .is_some_and(|a| a.disbanded.contains(&sk));
        let fits = self.kind_of(sk) == UnitKind::Skirmisher
            && self.brigade_of(sk) == self.brigade_of(u)
            && self.unit(sk).place == Place::Display
            && !disbanded
            && self.cavalry_symbol(sk) == cavalry
            && (!mounted || cavalry);
        if disbanded {
            return Err(Refusal::DisbandedThisActivation(skirmisher.to_string()));
        }
        if !fits {
            return Err(Refusal::CannotDeploy(skirmisher.to_string()));
        }
        if self.adjacent_to(hex, self.side_of(u).other()) {
            return Err(Refusal::DeployAdjacent);
        }
        // Deploying ends the unit's activation where it stands (5.32).
        if !self.can_end(&[u], hex) {
            return Err(self.cannot_end(&[u], hex));
        }
        if let Some(a) = self.now.activation.as_mut() {
            a.group = None;
            a.acted.push(sk);
            a.group = Some(Group {
                units: vec![sk],
                spent: 0,
                road_march: false,
                moved: false,
                back: Vec::new(),
            });
        }
        // B144: a card may keep the deployer ready.
        let ready = self.card_deployer_ready(sk, u, events);
        self.now.units[u.index()].finished = !ready;
        // 9.16: a skirmisher where the unit ends its activation disbands.
        for other in self.units_at(hex) {
            if other != u && self.kind_of(other) == UnitKind::Skirmisher {
                self.disband(other, events);
            }
        }
        let s = &mut self.now.units[sk.index()];
        s.place = Place::Map(hex);
        s.face = if mounted { Face::Back } else { Face::Front };
        s.finished = false;
        s.disrupted = false;
        s.out_of_command = false;
        events.push(Event::Ended {
            units: vec![self.unit_name(u)],
            finished: !ready,
        });
        events.push(Event::Deployed {
            skirmisher: self.unit_name(sk),
            at: hex,
        });
        Ok(())
    }
}
