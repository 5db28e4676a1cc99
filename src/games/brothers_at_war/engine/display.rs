//! The brigade display: reserves, casualties, exhaustion and breaking
//! (8.1-8.3), and the markers a brigade has in play (3.1, 8.112).

use crate::games::brothers_at_war::core::combat::{CombatEvent, PathsRule, Setting};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::core::question::{Answer, Question};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place, UnitState};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Face, UnitKind};

impl BrothersAtWar {
    /// The brigade's id as players write it.
    pub fn brigade_name(&self, b: BrigadeId) -> String {
        self.battle.scenario.brigades[b.index()].id.clone()
    }

    /// Whether the brigade takes part this turn: arrived (10.1), not broken
    /// (8.3).
    pub fn in_play(&self, b: BrigadeId) -> bool {
        let s = &self.battle.scenario.brigades[b.index()];
        s.arrives <= self.now.turn && !self.brigade(b).broken
    }

    /// Its activation markers in the scenario (1 or 2, 3.1).
    pub fn markers(&self, b: BrigadeId) -> u8 {
        self.battle.scenario.brigades[b.index()].markers.clamp(1, 2)
    }

    /// Its units (remnants are of no brigade).
    pub fn units_of_brigade(&self, b: BrigadeId) -> Vec<UnitId> {
        self.unit_ids()
            .filter(|&u| self.brigade_of(u) == Some(b))
            .collect()
    }

    /// Recovers one spent reserve, if the marker can move back (8.13).
    pub fn recover_reserve(&mut self, b: BrigadeId, events: &mut Vec<Event>) {
        let length = self.battle.scenario.brigades[b.index()]
            .reserves
            .map_or(0, |t| t.length);
        let s = &mut self.now.brigades[b.index()];
        if s.reserve > s.casualties {
            s.reserve -= 1;
            // B103: exhaustion ends as the marker leaves EXHAUSTED; the
            // activation marker stays in its box until clean up.
            if s.reserve < length {
                s.exhausted = false;
            }
            events.push(Event::ReserveRecovered {
                brigade: self.brigade_name(b),
            });
        }
    }

    /// Eliminates a unit (6.54): a casualty on its brigade's track (not for
    /// artillery, 8.2), which may break the brigade (8.3).
    pub fn eliminate(&mut self, unit: UnitId, events: &mut Vec<Event>) {
        self.now.units[unit.index()].place = Place::Eliminated;
        let kind = self.kind_of(unit);
        let Some(b) = self.brigade_of(unit) else {
            return;
        };
        if kind == UnitKind::Artillery {
            return;
        }
        let Some(track) = self.battle.scenario.brigades[b.index()].reserves else {
            return;
        };
        let s = &mut self.now.brigades[b.index()];
        s.casualties = s.casualties.saturating_add(1);
        // B102: the reserve marker is never left of the casualties nor
        // past EXHAUSTED.
        s.reserve = s.reserve.max(s.casualties).min(track.length);
        let exhausts = s.reserve >= track.length && !s.exhausted;
        let breaks = s.casualties >= track.dark && track.dark > 0;
        if exhausts {
            self.exhaust(b, events);
        }
        if breaks {
            self.break_brigade(b, false, events);
        }
    }

    /// A brigade becomes exhausted (8.111), said once, whatever moved its
    /// marker onto EXHAUSTED (a reserve spent, a casualty, a card): its
    /// independent skirmishers, deployed or not, leave play for good
    /// (9.19 d).
    pub fn exhaust(&mut self, b: BrigadeId, events: &mut Vec<Event>) {
        self.now.brigades[b.index()].exhausted = true;
        events.push(Event::Combat(CombatEvent::Exhausted {
            brigade: self.brigade_name(b),
        }));
        // 11.3 on 47: a card may have it check to regroup at once.
        self.card_on_exhaustion(b, events);
        for u in self.units_of_brigade(b) {
            if self.independent(u) && self.unit(u).place != Place::Eliminated {
                self.now.units[u.index()].place = Place::Removed;
            }
        }
    }

    /// Breaks a brigade (8.3): its units, skirmishers and commander leave
    /// play. A fate check's break also leaves a generic remnant (2.33 a,
    /// B110) on a hex one of its non-skirmisher units held that holds no
    /// enemy: where its owner answers under `PATHS ... ASK`, else the
    /// farthest from the nearest enemy unit, then the lowest.
    pub fn break_brigade(&mut self, b: BrigadeId, remnant: bool, events: &mut Vec<Event>) {
        let units = self.units_of_brigade(b);
        let side = self.battle.brigade_side(b);
        let enemies: Vec<Hex> = self
            .units_of(side.other())
            .filter_map(|e| self.hex_of(e))
            .collect();
        let nearest = |h: Hex| {
            enemies
                .iter()
                .map(|e| e.distance(h))
                .min()
                .unwrap_or(u32::MAX)
        };
        let mut hexes: Vec<Hex> = units
            .iter()
            .filter(|&&u| self.kind_of(u) != UnitKind::Skirmisher)
            .filter_map(|&u| self.hex_of(u))
            .filter(|h| !enemies.contains(h))
            .collect();
        hexes.sort_by_key(|&h| (std::cmp::Reverse(nearest(h)), h));
        hexes.dedup();
        let mut first_hex = hexes.first().copied();
        // B110: under `PATHS ... ASK` its owner is asked where it goes.
        let rule = self
            .now
            .instructions
            .get(side, Some(b), Setting::Paths(PathsRule::Auto));
        if remnant && rule == Setting::Paths(PathsRule::Ask) && hexes.len() > 1 {
            let question = Question::Remnant {
                brigade: b,
                hexes: hexes.clone(),
            };
            if let Some(Answer::Place(h)) = self.ask_now(side, question) {
                if hexes.contains(&h) {
                    first_hex = Some(h);
                }
            }
        }
        for u in units {
            if matches!(
                self.now.units[u.index()].place,
                Place::Map(_) | Place::Display | Place::Waiting
            ) {
                self.now.units[u.index()].place = Place::Removed;
            }
        }
        let s = &mut self.now.brigades[b.index()];
        s.broken = true;
        s.commander = None;
        self.now.exhausted_box.retain(|&x| x != b);
        events.push(Event::Broken {
            brigade: self.brigade_name(b),
        });
        if let (true, Some(at)) = (remnant, first_hex) {
            let id = UnitId(self.now.units.len() as u16);
            self.now.units.push(UnitState {
                place: Place::Map(at),
                face: Face::Back,
                finished: false,
                disrupted: false,
                out_of_command: false,
                generic: Some(side),
            });
            events.push(Event::RemnantPlaced {
                unit: self.unit_name(id),
                at,
            });
        }
    }

    /// A unit's kind (generic remnants are remnants).
    pub fn kind_of(&self, unit: UnitId) -> UnitKind {
        match self.battle.scenario.units.get(unit.index()) {
            Some(u) if self.now.units[unit.index()].generic.is_none() => u.kind,
            _ => UnitKind::Remnant,
        }
    }
}
