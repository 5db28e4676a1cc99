//! Retreats (6.7-6.77, B85-B92): exactly 2 hexes if any legal path has
//! 2 (else 1, ending Disrupted), 4 or 3 for a long one; each step nearer
//! a friendly rally point; the extra hits of hexes next to the enemy; and
//! what a retreat leaves (artillery limbers, readiness, commanders).

use super::ground::enter_cost;
use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::CombatEvent;
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::{Formation, Mover};
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Face, UnitKind};

/// The most paths a retreat search keeps: 6 x 3 x 3 x 3 covers every
/// path of 4 steps that each close on a rally point.
const MAX_PATHS: usize = 512;

/// A retreat path chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatPlan {
    /// The hexes entered, in order.
    pub path: Vec<Hex>,
    /// It is one short of its length: the units end Disrupted (6.71,
    /// 6.72, B81).
    pub short: bool,
}

impl BrothersAtWar {
    /// Whether every unit retreating may take a long retreat (6.72).
    fn may_retreat_long(&self, units: &[UnitId]) -> bool {
        units.iter().all(|&u| {
            self.cavalry_symbol(u)
                && matches!(self.kind_of(u), UnitKind::Cavalry | UnitKind::Artillery)
        })
    }

    /// The legal retreat path the engine takes (B85, B92), or `None` when
    /// these units cannot retreat (6.71, 6.732). `long` asks for 4 (or 3)
    /// hexes, for cavalry and horse artillery only (6.72).
    pub fn retreat_plan(&self, units: &[UnitId], long: bool) -> Option<RetreatPlan> {
        let (paths, short) = self.legal_retreats(units, long)?;
        let best = paths.into_iter().min_by_key(|p| self.path_rank(units, p))?;
        Some(RetreatPlan { path: best, short })
    }

    /// Every legal retreat path of the length the units must retreat
    /// (B85: 2 if any, else 1; 4 or 3 for a long one), and whether that
    /// length is the short one; `None` when they cannot retreat.
    pub fn legal_retreats(&self, units: &[UnitId], long: bool) -> Option<(Vec<Vec<Hex>>, bool)> {
        let from = self.hex_of(*units.first()?)?;
        if long && !self.may_retreat_long(units) {
            return None;
        }
        let side = self.side_of(units[0]);
        let rally = self.battle.map.rally_points(side);
        // 6.732 c: never out of a rally point hex.
        if rally.is_empty() || rally.contains(&from) {
            return None;
        }
        let lengths: [usize; 2] = if long { [4, 3] } else { [2, 1] };
        for (i, len) in lengths.into_iter().enumerate() {
            let mut paths = Vec::new();
            self.retreat_paths(units, from, &mut vec![], len, &mut paths);
            let ends: Vec<Vec<Hex>> = paths
                .into_iter()
                .filter(|p| p.last().is_some_and(|&e| self.can_end(units, e)))
                .collect();
            if !ends.is_empty() {
                let mut ends = ends;
                ends.sort();
                return Some((ends, i == 1));
            }
        }
        None
    }

    /// Why `path` is not one of these units' legal retreats (6.71-6.732,
    /// B85-B87), with the rule it breaks: the answer to a player who names
    /// another path than those offered.
    pub fn path_refusal(&self, units: &[UnitId], path: &[Hex], long: bool) -> Refusal {
        let refused = |rule: &'static str, why: String| Refusal::PathRefused { rule, why };
        let Some(from) = units.first().and_then(|&u| self.hex_of(u)) else {
            return Refusal::PathNotOffered;
        };
        let side = self.side_of(units[0]);
        let rally = self.battle.map.rally_points(side);
        if rally.contains(&from) {
            return refused(
                "6.732",
                format!("{from} is a rally point: no retreat out of it (6.732 c)"),
            );
        }
        let lengths = self.legal_retreats(units, long).map(|(p, _)| p[0].len());
        let mut at = from;
        for &h in path {
            if h.distance(at) != 1 {
                return refused("6.73", format!("{h} is not next to {at}"));
            }
            if !self.battle.map.contains(h) {
                return refused("6.732", format!("{h} is off the map (6.732 b)"));
            }
            if self.occupied_by(h, side.other()) {
                return refused("6.732", format!("{h} holds the enemy (6.732 e)"));
            }
            if !self.retreat_may_enter(units, at, h) {
                return refused(
                    "6.732",
                    format!("{h} is prohibited terrain from {at} (6.732 e)"),
                );
            }
            let nearer = |r: &Hex| h.distance(*r) < at.distance(*r);
            if !rally.iter().any(nearer) {
                return refused(
                    "6.732",
                    format!("{h} is no nearer a rally point than {at} (6.732 f)"),
                );
            }
            let nearest = rally.iter().map(|r| at.distance(*r)).min().unwrap_or(0);
            let closes_nearest = |n: Hex| {
                rally
                    .iter()
                    .any(|r| at.distance(*r) == nearest && n.distance(*r) < at.distance(*r))
            };
            let could = self
                .battle
                .map
                .neighbours(at)
                .any(|n| self.retreat_may_enter(units, at, n) && closes_nearest(n));
            if !closes_nearest(h) && could {
                return refused(
                    "6.73",
                    format!(
                        "{h} does not close on the nearest rally point, and a step from {at} can"
                    ),
                );
            }
            at = h;
        }
        if !self.can_end(units, at) {
            return refused(
                "6.732",
                format!("the retreat would end overstacked in {at} (6.732 d)"),
            );
        }
        if let Some(n) = lengths.filter(|&n| n != path.len()) {
            return refused(
                if long { "6.72" } else { "6.71" },
                format!(
                    "this retreat must be {n} hex{}",
                    if n == 1 { "" } else { "es" }
                ),
            );
        }
        Refusal::PathNotOffered
    }

    /// B92's order: fewest extra hits, then the fewest units disrupted by
    /// overstacking (B59), then ending farthest from the nearest enemy,
    /// then the lowest hexes.
    fn path_rank(
        &self,
        units: &[UnitId],
        path: &[Hex],
    ) -> (usize, usize, std::cmp::Reverse<u32>, Vec<Hex>) {
        let enemy = self.side_of(units[0]).other();
        let extra = path.iter().filter(|&&h| self.adjacent_to(h, enemy)).count();
        let crowded: usize = path
            .iter()
            .map(|&h| {
                let here = self.units_at(h);
                let mut all = here.clone();
                all.extend(units.iter().copied());
                if self.stacking_count(units) == 0 || self.stacking_count(&all) <= 2 {
                    return 0;
                }
                here.iter()
                    .filter(|&&u| {
                        self.kind_of(u) != UnitKind::Skirmisher && !self.unit(u).disrupted
                    })
                    .count()
            })
            .sum();
        let end = path.last().copied();
        let far = self
            .units_of(enemy)
            .filter_map(|e| Some(self.hex_of(e)?.distance(end?)))
            .min()
            .unwrap_or(u32::MAX);
        (extra, crowded, std::cmp::Reverse(far), path.to_vec())
    }

    /// Every path of exactly `len` steps from `at` (6.73, B86, B87).
    fn retreat_paths(
        &self,
        units: &[UnitId],
        at: Hex,
        path: &mut Vec<Hex>,
        len: usize,
        out: &mut Vec<Vec<Hex>>,
    ) {
        if path.len() == len {
            if out.len() < MAX_PATHS {
                out.push(path.clone());
            }
            return;
        }
        let side = self.side_of(units[0]);
        let rally = self.battle.map.rally_points(side);
        // 6.732 c: a retreat stops at a rally point.
        if !path.is_empty() && rally.contains(&at) {
            return;
        }
        let open: Vec<Hex> = self
            .battle
            .map
            .neighbours(at)
            .filter(|&n| self.retreat_may_enter(units, at, n))
            .collect();
        let nearest = rally.iter().map(|r| at.distance(*r)).min().unwrap_or(0);
        let closer_to = |n: Hex, only_nearest: bool| {
            rally.iter().any(|r| {
                (!only_nearest || at.distance(*r) == nearest) && n.distance(*r) < at.distance(*r)
            })
        };
        // B86: nearer the nearest rally point; failing that, any.
        let mut steps: Vec<Hex> = open
            .iter()
            .copied()
            .filter(|&n| closer_to(n, true))
            .collect();
        if steps.is_empty() {
            steps = open.into_iter().filter(|&n| closer_to(n, false)).collect();
        }
        for n in steps {
            path.push(n);
            self.retreat_paths(units, n, path, len, out);
            path.pop();
        }
    }

    /// B87: a hex the units could enter by movement, points aside, and
    /// free of enemy units.
    fn retreat_may_enter(&self, units: &[UnitId], from: Hex, to: Hex) -> bool {
        let enemy = self.side_of(units[0]).other();
        if !self.battle.map.contains(to) || self.occupied_by(to, enemy) {
            return false;
        }
        units.iter().all(|&u| {
            // 6.74: artillery retreats limbered.
            let mover = self.formation(u).mover().unwrap_or(Mover::Guns);
            enter_cost(&self.battle.map, mover, Some(from), to).is_ok()
        })
    }

    /// Moves the units along the plan and returns the extra hits of the
    /// hexes entered next to the enemy (6.73, B89); then 6.71-6.77 and
    /// B91: short retreats Disrupt, artillery limbers, dismounted cavalry
    /// that went past 2 hexes mounts, formed infantry in woods unforms,
    /// ready units are Finished, a commander stacked with them follows.
    pub fn retreat(&mut self, units: &[UnitId], plan: &RetreatPlan, events: &mut Vec<Event>) -> u8 {
        let Some(from) = self.hex_of(units[0]) else {
            return 0;
        };
        let enemy = self.side_of(units[0]).other();
        let mut extra = 0u8;
        for &h in &plan.path {
            for &u in units {
                self.now.units[u.index()].place = Place::Map(h);
            }
            // B59, 5.39: passing friendly units may overstack them.
            self.overstack(units, h, events);
            let near: Vec<UnitId> = self
                .units_of(enemy)
                .filter(|&e| self.hex_of(e).is_some_and(|x| x.is_neighbour(h)))
                .collect();
            if near.is_empty() {
                continue;
            }
            extra = extra.saturating_add(1);
            // B89: a skirmisher that inflicts the hit disbands; a line unit
            // next to the hex inflicts it first.
            let line = near
                .iter()
                .any(|&e| self.kind_of(e) != UnitKind::Skirmisher);
            if !line {
                self.disband(near[0], events);
            }
        }
        let Some(&end) = plan.path.last() else {
            return extra;
        };
        events.push(Event::Combat(CombatEvent::Retreated {
            units: units.iter().map(|&u| self.unit_name(u)).collect(),
            path: plan.path.clone(),
        }));
        // 6.76, B88: a friendly skirmisher where the retreat ends disbands.
        for other in self.units_at(end) {
            if !units.contains(&other) && self.kind_of(other) == UnitKind::Skirmisher {
                self.disband(other, events);
            }
        }
        for b in self.battle.brigade_ids().collect::<Vec<_>>() {
            let stacked = units.iter().any(|&u| self.brigade_of(u) == Some(b));
            if stacked && self.brigade(b).commander == Some(from) {
                self.now.brigades[b.index()].commander = Some(end);
            }
        }
        for &u in units {
            let formation = self.formation(u);
            let limber = formation == Formation::Deployed;
            let mount = formation == Formation::Dismounted && plan.path.len() > 2;
            if limber || mount {
                self.now.units[u.index()].face = Face::Back;
                events.push(Event::Formed {
                    unit: self.unit_name(u),
                    formation: self.formation(u),
                });
            }
            let woods = self.battle.map.terrain_of(end).woods;
            if woods && formation == Formation::Formed {
                self.unform(u, events);
            }
            if plan.short {
                self.disrupt(u, "a short retreat, 6.71", events);
            }
            self.now.units[u.index()].finished = true;
        }
        extra
    }

    /// Formed infantry flips to its unformed side (6.52, B81).
    pub fn unform(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        if self.formation(unit) == Formation::Formed {
            self.now.units[unit.index()].face = Face::Back;
            events.push(Event::Unformed {
                unit: self.unit_name(unit),
            });
        }
    }
}
