//! Movement (5.2-5.4): what a step costs and whether it is allowed, what
//! it does on arrival (stacking 5.31, out of command 4.3, automatic
//! commitment 3.151), and where a unit or stack may end its activation
//! (5.32, 9.14, 9.16, 9.21).

use std::collections::BTreeSet;

use super::ground::{enter_cost, open_to_movement};
use super::near::near_enemies;
use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::{PathsRule, Setting};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::question::{Answer, Question};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Group, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Face, Ratings, Side, UnitKind};

/// The ratings of a counter the scenario does not give.
const NONE: Ratings = Ratings {
    firepower: 0,
    movement: 0,
};

/// Enemy units this close commit an uncommitted brigade (3.151).
pub const COMMIT_DISTANCE: u32 = 3;

/// What a step will cost and leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepPlan {
    /// Movement points paid (the highest of a stack's units, 5.34).
    pub cost: u8,
    /// Whether road march still holds after it (5.212).
    pub road_march: bool,
}

impl BrothersAtWar {
    /// A unit's formation now.
    pub fn formation(&self, unit: UnitId) -> Formation {
        // 9.4: off-board batteries are always deployed; their counter's
        // back is spent local support (9.44).
        if self.unit(unit).place == Place::OffBoard {
            return Formation::Deployed;
        }
        Formation::of(self.kind_of(unit), self.unit(unit).face)
    }

    /// The ratings of the side face up (1.21, 1.22); a generic remnant's
    /// are the scenario's (B110).
    pub fn ratings(&self, unit: UnitId) -> Ratings {
        let s = &self.battle.scenario;
        let (front, back) = match s.units.get(unit.index()) {
            Some(u) if self.unit(unit).generic.is_none() => (u.front, u.back),
            _ => s.remnant.map_or((NONE, NONE), |r| (r.front, r.back)),
        };
        match self.unit(unit).face {
            Face::Front => front,
            Face::Back => back,
        }
    }

    /// The movement rating of the side face up (1.22).
    pub fn rating(&self, unit: UnitId) -> u8 {
        self.ratings(unit).movement
    }

    /// A group's movement points: its slowest unit's rating (5.33), one
    /// more under road march (5.212).
    pub fn allowance(&self, units: &[UnitId], road_march: bool) -> u8 {
        // B125: a card may raise one unit's rating for the activation.
        let slowest = units
            .iter()
            .map(|&u| self.rating(u).saturating_add(self.card_movement(u)))
            .min()
            .unwrap_or(0);
        slowest.saturating_add(u8::from(road_march))
    }

    /// Whether a hex has a road (5.212).
    pub fn road_hex(&self, hex: Hex) -> bool {
        let map = &self.battle.map;
        map.neighbours(hex).any(|n| map.road(hex, n))
    }

    /// Whether a non-skirmisher unit of `side`'s enemy is next to `hex`
    /// (5.212).
    fn next_to_line_enemy(&self, hex: Hex, units: &[UnitId]) -> bool {
        let enemy = self.side_of(units[0]).other();
        self.units_of(enemy).any(|e| {
            self.kind_of(e) != UnitKind::Skirmisher
                && self.hex_of(e).is_some_and(|h| h.is_neighbour(hex))
        })
    }

    /// Whether road march may begin for these units where they stand: on a
    /// road, none of them formed infantry (5.212); entering units begin it
    /// when their entry hex is a road hex (10.1).
    pub fn road_march_start(&self, units: &[UnitId]) -> bool {
        units.iter().all(|&u| {
            self.formation(u) != Formation::Formed
                && self.hex_of(u).is_none_or(|h| self.road_hex(h))
        })
    }

    /// Whether `group` may step from `from` (none: entering the map) to
    /// `to`, and at what cost.
    pub fn plan_step(
        &self,
        group: &Group,
        from: Option<Hex>,
        to: Hex,
    ) -> Result<StepPlan, Refusal> {
        let units = &group.units;
        let map = &self.battle.map;
        if !map.contains(to) {
            return Err(Refusal::OffMap(to));
        }
        let enemy = self.side_of(units[0]).other();
        // 7.1: a step into an enemy hex is an assault, never a move step.
        if self.occupied_by(to, enemy) {
            return Err(Refusal::NotNow {
                expected: format!("an assault on {to} (7.1), not a move step into it"),
            });
        }
        let along_path = from.is_some_and(|a| map.road(a, to) || map.trail(a, to));
        let mut cost = 0;
        for &u in units {
            let formation = self.formation(u);
            let mover = formation.mover().ok_or(Refusal::Deployed)?;
            if formation == Formation::Formed && map.terrain_of(to).woods && !along_path {
                return Err(Refusal::FormedInWoods(to));
            }
            cost = cost.max(enter_cost(map, mover, from, to)?);
            if self.unit(u).disrupted {
                if self.adjacent_to(to, enemy) {
                    return Err(Refusal::DisruptedAdjacent);
                }
                if let Some(from) = from {
                    if let Some(e) = near_enemies(self, from, enemy)
                        .into_iter()
                        .find(|e| to.distance(*e) < from.distance(*e))
                    {
                        return Err(Refusal::DisruptedCloses(e));
                    }
                }
            }
            if formation.is_skirmisher() && self.adjacent_to(to, enemy) {
                return Err(Refusal::SkirmisherAdjacent);
            }
        }
        let on_road = match from {
            Some(a) => map.road(a, to),
            None => self.road_hex(to),
        };
        let road_march = group.road_march && on_road && !self.next_to_line_enemy(to, units);
        let allowance = self.allowance(units, road_march);
        let spent = group.spent.saturating_add(cost);
        if spent > allowance {
            let now = self.allowance(units, group.road_march);
            // 5.212: the step would be paid for if it kept to the road.
            let march_ends = group.road_march && !road_march && spent <= now;
            return Err(Refusal::NoPoints {
                need: cost,
                left: now.saturating_sub(group.spent),
                rule: if march_ends { "5.212" } else { "5.2" },
            });
        }
        if spent >= allowance && !self.can_end(units, to) {
            return Err(self.cannot_end(units, to));
        }
        Ok(StepPlan { cost, road_march })
    }

    /// Why `units` may not end their activation in `hex`, citing the rule
    /// that forbids it: 9.21 next to a remnant, 5.3 over the limit of two,
    /// else 5.32.
    pub fn cannot_end(&self, units: &[UnitId], hex: Hex) -> Refusal {
        let others: Vec<UnitId> = self
            .units_at(hex)
            .into_iter()
            .filter(|u| !units.contains(u) && self.kind_of(*u) != UnitKind::Skirmisher)
            .collect();
        let rule = if others.iter().any(|&o| self.kind_of(o) == UnitKind::Remnant) {
            "9.21"
        } else if others.len() + units.len() > 2 {
            "5.3"
        } else {
            "5.32"
        };
        Refusal::CannotEnd(self.unit_name(units[0]), hex, rule)
    }

    /// Whether these units may end their activation on `hex` (5.3): at
    /// most two units of one brigade, no remnant among them (9.21), and a
    /// skirmisher alone (5.32); a friendly skirmisher there makes way
    /// (9.16).
    pub fn can_end(&self, units: &[UnitId], hex: Hex) -> bool {
        let others: Vec<UnitId> = self
            .units_at(hex)
            .into_iter()
            .filter(|u| !units.contains(u))
            .collect();
        let skirmishers = units
            .iter()
            .all(|&u| self.kind_of(u) == UnitKind::Skirmisher);
        if skirmishers {
            return others.is_empty() && units.len() == 1;
        }
        let brigade = self.brigade_of(units[0]);
        let staying: Vec<UnitId> = others
            .into_iter()
            .filter(|&o| self.kind_of(o) != UnitKind::Skirmisher)
            .collect();
        staying
            .iter()
            .all(|&o| self.brigade_of(o) == brigade && brigade.is_some())
            && staying.len() + units.len() <= 2
    }

    /// Units counted for the stacking limit while moving: skirmishers not
    /// at all, the two units of a regiment as one (5.31, 5.35).
    pub(super) fn stacking_count(&self, units: &[UnitId]) -> usize {
        let mut regiments = BTreeSet::new();
        let mut count = 0;
        for &u in units {
            if self.kind_of(u) == UnitKind::Skirmisher {
                continue;
            }
            let regiment = self
                .battle
                .scenario
                .units
                .get(u.index())
                .filter(|_| self.unit(u).generic.is_none())
                .and_then(|s| s.regiment.clone());
            match regiment {
                Some(r) => {
                    if regiments.insert(r) {
                        count += 1;
                    }
                }
                None => count += 1,
            }
        }
        count
    }

    /// A disruption that is not a hit (B81): the unit becomes Disrupted and
    /// formed infantry also unforms; an already Disrupted unit is
    /// unchanged; a skirmisher disbands (9.12).
    pub fn disrupt(&mut self, unit: UnitId, why: &str, events: &mut Vec<Event>) {
        if self.kind_of(unit) == UnitKind::Skirmisher && self.hex_of(unit).is_some() {
            self.disband(unit, events);
            return;
        }
        if self.unit(unit).disrupted {
            return;
        }
        if self.formation(unit) == Formation::Formed {
            self.now.units[unit.index()].face = Face::Back;
            events.push(Event::Unformed {
                unit: self.unit_name(unit),
            });
        }
        self.now.units[unit.index()].disrupted = true;
        events.push(Event::Disrupted {
            unit: self.unit_name(unit),
            why: why.to_string(),
        });
    }

    /// Moves the active group one hex (5.21), entering the map when its
    /// units wait off it (10.1).
    pub fn step_to(&mut self, to: Hex, events: &mut Vec<Event>) -> Result<(), Refusal> {
        /// The most hexes a group remembers to go back to (B138).
        const MAX_BACK: usize = 32;
        let Some(group) = self.now.activation.as_ref().and_then(|a| a.group.clone()) else {
            return Err(Refusal::NotNow {
                expected: "a unit to activate".to_string(),
            });
        };
        let from = self.hex_of(group.units[0]);
        if from.is_none() && !self.entry_hexes(&group.units).contains(&to) {
            return Err(Refusal::NotEntry(to));
        }
        // 4.3: an out of command unit disrupts before its move action.
        if !group.moved {
            for &u in &group.units {
                if self.unit(u).out_of_command {
                    self.disrupt(u, "out of command, 4.3", events);
                }
            }
        }
        let step = self.plan_step(&group, from, to)?;
        let entering = from.is_none();
        let could_end_here = from.filter(|&h| self.can_end(&group.units, h));
        for &u in &group.units {
            self.now.units[u.index()].place = Place::Map(to);
        }
        if let Some(a) = self.now.activation.as_mut() {
            if entering {
                a.entered.extend(group.units.iter().copied());
            }
            if let Some(g) = a.group.as_mut() {
                g.spent = g.spent.saturating_add(step.cost);
                g.road_march = step.road_march;
                g.moved = true;
                if let Some(h) = could_end_here {
                    g.back.retain(|&b| b != h);
                    g.back.push(h);
                    if g.back.len() > MAX_BACK {
                        g.back.remove(0);
                    }
                }
            }
        }
        events.push(Event::Moved {
            units: group.units.iter().map(|&u| self.unit_name(u)).collect(),
            from,
            to,
            cost: step.cost,
        });
        self.overstack(&group.units, to, events);
        self.commit_near(&group.units, to, events);
        self.skirmishers_make_way(&group.units, to, events);
        self.displace_commanders(events);
        Ok(())
    }

    /// Whether a commander of `side` may stand on `hex` (4.11, B19, B47):
    /// open to movement, free of enemies, and not next to one unless a
    /// unit of his side holds it.
    pub fn commander_may_stand(&self, hex: Hex, side: Side) -> bool {
        open_to_movement(&self.battle.map, hex)
            && !self.occupied_by(hex, side.other())
            && (!self.adjacent_to(hex, side.other()) || self.occupied_by(hex, side))
    }

    /// 4.12, B47: a commander alone next to an enemy unit is displaced by
    /// his owner: where he answers under `PATHS ... ASK`, else B5's
    /// default (`PATHS AUTO`): the nearest hex he may stand on that holds
    /// a unit of his brigade, else the nearest he may stand on, the lowest
    /// id first among equals.
    pub fn displace_commanders(&mut self, events: &mut Vec<Event>) {
        for b in self.battle.brigade_ids().collect::<Vec<_>>() {
            let Some(at) = self.brigade(b).commander else {
                continue;
            };
            let side = self.battle.brigade_side(b);
            // B101: a commander whose hex an enemy has taken goes too.
            let taken = self.occupied_by(at, side.other());
            if !taken && (self.occupied_by(at, side) || !self.adjacent_to(at, side.other())) {
                continue;
            }
            let own: Vec<Hex> = self
                .units_of_brigade(b)
                .into_iter()
                .filter_map(|u| self.hex_of(u))
                .collect();
            let mut hexes: Vec<Hex> = self
                .battle
                .map
                .hexes()
                .filter(|&h| self.commander_may_stand(h, side))
                .collect();
            hexes.sort_by_key(|&h| (!own.contains(&h), at.distance(h), h));
            let mut best = hexes.first().copied();
            // B47: under `PATHS ... ASK` his owner is asked where he goes.
            let rule = self
                .now
                .instructions
                .get(side, Some(b), Setting::Paths(PathsRule::Auto));
            if rule == Setting::Paths(PathsRule::Ask) && hexes.len() > 1 {
                hexes.truncate(512);
                let question = Question::Commander {
                    brigade: b,
                    from: at,
                    hexes: hexes.clone(),
                };
                if let Some(Answer::Place(h)) = self.ask_now(side, question) {
                    if hexes.contains(&h) {
                        best = Some(h);
                    }
                }
            }
            self.now.brigades[b.index()].commander = best;
            events.push(Event::Displaced {
                brigade: self.brigade_name(b),
                to: best,
            });
        }
    }

    /// 9.14: enemy skirmishers next to the hex a unit enters disband (the
    /// point blank fire of 6.151 they may give first is the fire code's).
    pub(super) fn skirmishers_make_way(
        &mut self,
        movers: &[UnitId],
        hex: Hex,
        events: &mut Vec<Event>,
    ) {
        let enemy = self.side_of(movers[0]).other();
        let near: Vec<UnitId> = self
            .units_of(enemy)
            .filter(|&e| {
                self.kind_of(e) == UnitKind::Skirmisher
                    && self.hex_of(e).is_some_and(|h| h.is_neighbour(hex))
            })
            .collect();
        for e in near {
            // 11.3 on 9-10, B144: a card may keep it in place this once.
            if !self.card_keeps_skirmisher(e, events) {
                self.disband(e, events);
            }
        }
    }

    /// The active group leaves the map (5.214, B20): from a hex the
    /// scenario names as an exit for its side, a move action of 1 point;
    /// each unit scores the exit's points.
    pub fn exit_map(&mut self, events: &mut Vec<Event>) -> Result<(), Refusal> {
        let Some(group) = self.now.activation.as_ref().and_then(|a| a.group.clone()) else {
            return Err(Refusal::NotNow {
                expected: "a unit to activate".to_string(),
            });
        };
        let side = self.side_of(group.units[0]);
        let hex = self
            .hex_of(group.units[0])
            .ok_or_else(|| Refusal::NotOnMap(self.unit_name(group.units[0])))?;
        let exit = self
            .battle
            .scenario
            .special
            .exits
            .iter()
            .find(|e| e.side == side && e.at.contains(&hex))
            .ok_or(Refusal::NoExit(hex))?;
        let points = u16::from(exit.points);
        let left = self
            .allowance(&group.units, group.road_march)
            .saturating_sub(group.spent);
        if left < 1 {
            return Err(Refusal::NoPoints {
                need: 1,
                left,
                rule: "5.2",
            });
        }
        if !group.moved {
            for &u in &group.units {
                if self.unit(u).out_of_command {
                    self.disrupt(u, "out of command, 4.3", events);
                }
            }
        }
        for &u in &group.units {
            self.now.units[u.index()].place = Place::Exited;
            self.now.exit_points[side.index()] =
                self.now.exit_points[side.index()].saturating_add(points);
        }
        if let Some(a) = self.now.activation.as_mut() {
            a.group = None;
        }
        events.push(Event::Exited {
            units: group.units.iter().map(|&u| self.unit_name(u)).collect(),
            from: hex,
        });
        Ok(())
    }

    /// 5.31: past the limit, the units already in the hex are Disrupted
    /// (formed infantry unforms instead).
    pub(super) fn overstack(&mut self, movers: &[UnitId], hex: Hex, events: &mut Vec<Event>) {
        if self.stacking_count(movers) == 0 || self.overstack_spared(movers) {
            return;
        }
        let all = self.units_at(hex);
        if self.stacking_count(&all) <= 2 {
            return;
        }
        for u in all {
            if !movers.contains(&u)
                && self.kind_of(u) != UnitKind::Skirmisher
                && !self.unit(u).disrupted
            {
                self.disrupt(u, "overstacked, 5.31", events);
            }
        }
    }

    /// 3.151: an enemy moving within 3 hexes commits an uncommitted
    /// brigade.
    fn commit_near(&mut self, movers: &[UnitId], hex: Hex, events: &mut Vec<Event>) {
        let enemy = self.side_of(movers[0]).other();
        let near: BTreeSet<_> = self
            .units_of(enemy)
            .filter(|&e| {
                self.hex_of(e)
                    .is_some_and(|h| h.distance(hex) <= COMMIT_DISTANCE)
            })
            .filter_map(|e| self.brigade_of(e))
            .collect();
        for b in near {
            let s = &mut self.now.brigades[b.index()];
            if !s.committed && !s.committing {
                s.committing = true;
                events.push(Event::Committed {
                    brigade: self.brigade_name(b),
                });
            }
        }
    }

    /// The hexes a waiting reinforcement may enter by (10.1, 10.11, B118):
    /// its entry hexes free of units and of enemies next to them; when
    /// none is, the nearest map-edge hexes that are.
    pub fn entry_hexes(&self, units: &[UnitId]) -> Vec<Hex> {
        let Some(entry) = self
            .battle
            .scenario
            .units
            .get(units[0].index())
            .and_then(|u| u.enters.as_ref())
        else {
            return Vec::new();
        };
        let enemy = self.side_of(units[0]).other();
        let open = |h: Hex| {
            self.battle.map.contains(h)
                && self.units_at(h).is_empty()
                && !self.adjacent_to(h, enemy)
        };
        let listed: Vec<Hex> = entry.at.iter().copied().filter(|&h| open(h)).collect();
        if !listed.is_empty() || entry.at.is_empty() {
            return listed;
        }
        let distance = |h: Hex| entry.at.iter().map(|e| e.distance(h)).min().unwrap_or(0);
        let map = &self.battle.map;
        let candidates: Vec<Hex> = map.hexes().filter(|&h| map.on_edge(h) && open(h)).collect();
        let best = candidates.iter().map(|&h| distance(h)).min();
        candidates
            .into_iter()
            .filter(|&h| Some(distance(h)) == best)
            .collect()
    }
}
