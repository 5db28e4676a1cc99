//! The clean up step (2.32) and victory (2.4, 2.41).

use std::collections::BTreeSet;

use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::ids::BrigadeId;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Ending, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};
use crate::games::{GameResult, Outcome};

impl BrothersAtWar {
    /// The clean up step (2.32 a-d), then instant victory (2.4).
    pub fn clean_up(&mut self, events: &mut Vec<Event>) {
        self.now.cup.clear();
        // a) every countdown marker back in its box: preparation takes one.
        self.now.countdown_box = self.battle.scenario.activation.countdown_markers;
        let brigades: Vec<BrigadeId> = self.battle.brigade_ids().collect();
        // b) exhausted brigades of two markers put one in the box (8.111,
        // 8.112); brigades no longer exhausted take theirs back.
        for &b in &brigades {
            let boxed = self.now.exhausted_box.contains(&b);
            let exhausted = self.in_play(b) && self.brigade(b).exhausted;
            if exhausted && !boxed && self.markers(b) == 2 {
                self.now.exhausted_box.push(b);
            } else if !exhausted && boxed {
                self.now.exhausted_box.retain(|&x| x != b);
            }
        }
        // c) inactive brigades regain a reserve and recover (8.131, B41):
        // none of their markers on the track (a free one counts) nor in the
        // box (an exhausted one-marker brigade counts as boxed, 8.112). A
        // one-marker brigade whose marker stayed in the cup is due a free
        // activation, never two turns running (2.321, B40).
        self.now.free_due.clear();
        for &b in &brigades {
            if !self.in_play(b) {
                continue;
            }
            let placed = self.now.activated_this_turn.contains(&b);
            let free = self.brigade(b).free_this_turn;
            let lone = self.markers(b) == 1;
            if lone && !placed && !free && self.brigade(b).committed {
                self.now.free_due.push(b);
            }
            let boxed = self.now.exhausted_box.contains(&b) || (lone && self.brigade(b).exhausted);
            if placed || free || boxed {
                continue;
            }
            self.recover_reserve(b, events);
            self.recover_brigade(b);
        }
        // d) hex control (2.41).
        for hex in self.key_hexes() {
            let holder = self
                .units_at(hex)
                .into_iter()
                .find(|&u| !matches!(self.kind_of(u), UnitKind::Skirmisher));
            if let Some(u) = holder {
                let side = self.side_of(u);
                if self.now.control.insert(hex, side) != Some(side) {
                    events.push(Event::Control { hex, side });
                }
            }
        }
        self.now.ended = self.now.ended.or_else(|| self.instant_victory());
    }

    /// The hexes whose control counts (2.41): key hexes and those of
    /// instant victory conditions.
    pub fn key_hexes(&self) -> BTreeSet<Hex> {
        let v = &self.battle.scenario.victory;
        v.hexes
            .iter()
            .map(|k| k.at)
            .chain(v.instant.iter().flat_map(|i| i.control.iter().copied()))
            .collect()
    }

    /// Brigades of `side` broken.
    pub fn broken_brigades(&self, side: Side) -> usize {
        self.battle
            .brigade_ids()
            .filter(|&b| self.battle.brigade_side(b) == side && self.brigade(b).broken)
            .count()
    }

    /// An instant victory condition met now (2.4, B131).
    pub fn instant_victory(&self) -> Option<Ending> {
        for i in &self.battle.scenario.victory.instant {
            if !i.control.is_empty()
                && i.control
                    .iter()
                    .all(|h| self.now.control.get(h) == Some(&i.side))
            {
                return Some(Ending::InstantHexes(i.side));
            }
            if let Some(n) = i.broken_brigades {
                if n > 0 && self.broken_brigades(i.side.other()) >= usize::from(n) {
                    return Some(Ending::InstantBroken(i.side));
                }
            }
        }
        None
    }

    /// Victory points of a side at the end (2.4): key hexes held, enemy
    /// brigades broken, enemy units eliminated, units led off the map.
    pub fn points(&self, side: Side) -> u16 {
        let v = &self.battle.scenario.victory;
        let hexes: u16 = v
            .hexes
            .iter()
            .filter(|k| self.now.control.get(&k.at) == Some(&side))
            .map(|k| u16::from(k.points))
            .sum();
        let broken = self.broken_brigades(side.other()) as u16 * u16::from(v.per_broken_brigade);
        let casualties = self
            .unit_ids()
            .filter(|&u| self.side_of(u) != side && self.unit(u).place == Place::Eliminated)
            .count() as u16
            * u16::from(v.per_casualty);
        hexes
            .saturating_add(broken)
            .saturating_add(casualties)
            .saturating_add(self.now.exit_points[side.index()])
    }

    /// The ending after the last turn (2.34).
    pub fn points_ending(&self) -> Ending {
        Ending::Points {
            union: self.points(Side::Union),
            confederacy: self.points(Side::Confederacy),
        }
    }

    /// How the battle ended, if it has.
    pub fn result(&self) -> Option<Outcome<Ending>> {
        let ending = self.now.ended?;
        let result = match ending {
            Ending::InstantHexes(side) | Ending::InstantBroken(side) => {
                GameResult::Win(side.seat())
            }
            Ending::Points { union, confederacy } => {
                let margin = u16::from(self.battle.scenario.victory.draw_within);
                if union > confederacy.saturating_add(margin) {
                    GameResult::Win(Side::Union.seat())
                } else if confederacy > union.saturating_add(margin) {
                    GameResult::Win(Side::Confederacy.seat())
                } else {
                    GameResult::Draw
                }
            }
        };
        Some(Outcome {
            result,
            reason: ending,
        })
    }
}
