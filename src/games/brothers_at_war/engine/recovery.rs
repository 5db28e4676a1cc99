//! Recovery (3.21): Finished units become ready, Disrupted units not next
//! to an enemy make rally checks (3.211, 3.212), then units beyond command
//! range make command checks (4.2, 4.31). Checks wait for their dice in
//! the state ([`Check`]); a stack rolls once (5.37).

use std::collections::BTreeMap;

use super::cards::Kind;
use super::ground::within_command;
use super::near::far_from;
use crate::games::brothers_at_war::core::combat::CardsRule;
use crate::games::brothers_at_war::core::event::{Event, Fate};
use crate::games::brothers_at_war::core::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::core::instructions::{FateRule, RallyFailRule, Setting};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Check, CheckKind, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::UnitKind;

/// The command range in hexes (4.2).
pub const COMMAND_RANGE: u32 = 4;

/// A check succeeds on 5 or more, after its bonus (1.73).
pub const SUCCESS: u8 = 5;

impl BrothersAtWar {
    /// Units on the map grouped by hex, in hex order.
    fn by_hex(&self, units: &[UnitId]) -> BTreeMap<Hex, Vec<UnitId>> {
        let mut m: BTreeMap<Hex, Vec<UnitId>> = BTreeMap::new();
        for &u in units {
            if let Some(h) = self.hex_of(u) {
                m.entry(h).or_default().push(u);
            }
        }
        m
    }

    /// Whether a friendly commander who helps `unit` rally stands on or
    /// next to `hex`: its own (3.211), any of its side's for divisional
    /// artillery (4.21).
    fn commander_near(&self, unit: UnitId, hex: Hex) -> bool {
        self.commanders_for(unit)
            .into_iter()
            .any(|c| c == hex || c.is_neighbour(hex))
    }

    /// The commanders whose range puts `unit` in command (4.2, 4.21).
    fn commanders_for(&self, unit: UnitId) -> Vec<Hex> {
        let Some(b) = self.brigade_of(unit) else {
            return Vec::new();
        };
        if self.battle.scenario.brigades[b.index()].divisional {
            let side = self.side_of(unit);
            self.battle
                .brigade_ids()
                .filter(|&x| self.battle.brigade_side(x) == side)
                .filter_map(|x| self.brigade(x).commander)
                .collect()
        } else {
            self.brigade(b).commander.into_iter().collect()
        }
    }

    /// Whether a unit on `hex` is within command range (4.2, B48).
    pub fn in_command_range(&self, unit: UnitId, hex: Hex) -> bool {
        let enemy = self.side_of(unit).other();
        let blocked = |h: Hex| self.occupied_by(h, enemy);
        self.commanders_for(unit)
            .into_iter()
            .any(|c| within_command(&self.battle.map, c, hex, COMMAND_RANGE, &blocked))
    }

    /// Recovers these units (3.21, B36): their Finished markers go and
    /// their Disrupted units not next to an enemy queue rally checks
    /// (3.212), a stack rolling once (5.37).
    pub fn recover_units(&mut self, units: &[UnitId]) {
        for &u in units {
            self.now.units[u.index()].finished = false;
            // B112: off-board batteries rally with their artillery, with
            // no enemy near them nor commander by them.
            // 9.44: a flipped battery turns face up as it recovers.
            if self.unit(u).place == Place::OffBoard {
                self.now.units[u.index()].face =
                    crate::games::brothers_at_war::scenario::model::Face::Front;
            }
            if self.unit(u).place == Place::OffBoard && self.unit(u).disrupted {
                self.now.checks.push(Check {
                    kind: CheckKind::Rally,
                    units: vec![u],
                    brigade: None,
                    bonus: 0,
                });
            }
        }
        for (hex, group) in self.by_hex(units) {
            let side = self.side_of(group[0]);
            let rally: Vec<UnitId> = group
                .iter()
                .copied()
                .filter(|&u| self.unit(u).disrupted)
                .collect();
            if rally.is_empty() || self.adjacent_to(hex, side.other()) {
                continue;
            }
            let bonus = self.rally_bonus(&rally, hex);
            self.now.checks.push(Check {
                kind: CheckKind::Rally,
                units: rally,
                brigade: None,
                bonus,
            });
        }
    }

    /// Queues the command checks of an activating brigade, once its
    /// rallies are rolled (4.31, B50): every unit on the map without a
    /// Finished marker beyond command range, but reinforcements that
    /// entered in this activation (4.32).
    pub fn queue_command_checks(&mut self, b: BrigadeId) {
        let entered = self
            .now
            .activation
            .as_ref()
            .map(|a| a.entered.clone())
            .unwrap_or_default();
        let units: Vec<UnitId> = self
            .units_of_brigade(b)
            .into_iter()
            .filter(|&u| !self.unit(u).finished && !entered.contains(&u))
            .collect();
        for (hex, group) in self.by_hex(&units) {
            let side = self.side_of(group[0]);
            let check: Vec<UnitId> = group
                .into_iter()
                .filter(|&u| !self.in_command_range(u, hex))
                .collect();
            if check.is_empty() {
                continue;
            }
            let cavalry = check.iter().all(|&u| self.cavalry_symbol(u));
            self.now.checks.push(Check {
                kind: CheckKind::Command,
                bonus: u8::from(far_from(self, hex, side.other())) + u8::from(cavalry),
                units: check,
                brigade: None,
            });
        }
    }

    /// Whether a unit carries the cavalry symbol (4.31).
    pub fn cavalry_symbol(&self, unit: UnitId) -> bool {
        self.battle
            .scenario
            .units
            .get(unit.index())
            .is_some_and(|u| {
                self.now.units[unit.index()].generic.is_none()
                    && (u.cavalry_symbol || u.kind == UnitKind::Cavalry)
            })
    }

    /// A brigade recovers (3.21, B36): its units on the map.
    pub fn recover_brigade(&mut self, b: BrigadeId) {
        let units: Vec<UnitId> = self
            .units_of_brigade(b)
            .into_iter()
            .filter(|&u| self.hex_of(u).is_some() || self.unit(u).place == Place::OffBoard)
            .collect();
        self.recover_units(&units);
    }

    /// A brigade regroups (2.33 c): no longer exhausted, its marker out of
    /// the exhausted box, a reserve recovered, its units recovered.
    fn regroup(&mut self, b: BrigadeId, events: &mut Vec<Event>) {
        self.now.brigades[b.index()].exhausted = false;
        self.now.exhausted_box.retain(|&x| x != b);
        self.recover_reserve(b, events);
        self.recover_brigade(b);
    }

    /// Applies one die to the first check waiting. Returns the check when
    /// a `reroll-any-die` card rolls it again (B148, B150): it is not
    /// judged, and waits for a new die.
    pub fn resolve_check(&mut self, die: u8, events: &mut Vec<Event>) -> Option<Check> {
        if self.now.checks.is_empty() {
            return None;
        }
        let check = self.now.checks.remove(0);
        let total = die.saturating_add(check.bonus);
        let names: Vec<String> = check.units.iter().map(|&u| self.unit_name(u)).collect();
        let (event, passed) = match check.kind {
            CheckKind::Fate => {
                let fate = match total {
                    0..=3 => Fate::Break,
                    4 | 5 => Fate::Exhausted,
                    _ => Fate::Regroup,
                };
                let brigade = check
                    .brigade
                    .map(|b| self.brigade_name(b))
                    .unwrap_or_default();
                let event = Event::FateChecked {
                    brigade,
                    die,
                    bonus: check.bonus,
                    fate,
                };
                (event, fate == Fate::Regroup)
            }
            kind => {
                let success = match kind {
                    CheckKind::Exhaustion(fails_on) => die > fails_on,
                    // 2.33 c: only the regroup result counts.
                    CheckKind::Regroup => total >= 6,
                    _ => total >= SUCCESS,
                };
                let units = match (kind, check.brigade) {
                    (CheckKind::Rally | CheckKind::Command, _) | (_, None) => names,
                    (_, Some(b)) => vec![self.brigade_name(b)],
                };
                let bonus = if matches!(kind, CheckKind::Exhaustion(_)) {
                    0
                } else {
                    check.bonus
                };
                let event = Event::Checked {
                    kind,
                    units,
                    die,
                    bonus,
                    success,
                };
                (event, success)
            }
        };
        let told = event.to_string();
        events.push(event);
        if self.card_rerolls_check(&check, passed, &told, events) {
            return Some(check);
        }
        match check.kind {
            CheckKind::Rally => {
                for &u in &check.units {
                    // B43: a failed rally turns the marker to its Finished
                    // side (`RALLYFAIL FINISH`, the default) or leaves the
                    // unit Disrupted (`RALLYFAIL STAY`).
                    let stay = self.now.instructions.get(
                        self.side_of(u),
                        self.brigade_of(u),
                        Setting::RallyFail(RallyFailRule::Finish),
                    ) == Setting::RallyFail(RallyFailRule::Stay);
                    if passed || !stay {
                        self.now.units[u.index()].disrupted = false;
                        self.now.units[u.index()].finished |= !passed;
                    }
                }
            }
            CheckKind::Command => {
                if !passed {
                    for &u in &check.units {
                        self.now.units[u.index()].out_of_command = true;
                    }
                }
            }
            CheckKind::Fate => {
                let b = check.brigade?;
                match total {
                    0..=3 => self.break_brigade(b, true, events),
                    // B111: `FATE ... MOVE` moves once every check is
                    // rolled; else the brigade recovers.
                    4 | 5 if self.fate_moves(b) => self.now.fate_moves.push(b),
                    4 | 5 => self.recover_brigade(b),
                    _ => self.regroup(b, events),
                }
            }
            CheckKind::Exhaustion(_) => {
                let b = check.brigade?;
                // 8.111: the reserve marker goes to EXHAUSTED.
                if !passed && !self.brigade(b).exhausted && !self.brigade(b).broken {
                    if let Some(track) = self.battle.scenario.brigades[b.index()].reserves {
                        self.now.brigades[b.index()].reserve = track.length;
                    }
                    self.exhaust(b, events);
                }
            }
            CheckKind::Regroup => {
                let b = check.brigade?;
                if passed && self.brigade(b).exhausted && !self.brigade(b).broken {
                    self.regroup(b, events);
                }
            }
        }
        None
    }

    /// Under `CARDS ... ASK` only (B148, B150): the player a check went
    /// against (its owner when it failed, or for a fate check when the
    /// brigade does not regroup; else his enemy) is asked whether a
    /// `reroll-any-die` card rolls it again. Returns whether it is.
    fn card_rerolls_check(
        &mut self,
        check: &Check,
        passed: bool,
        told: &str,
        events: &mut Vec<Event>,
    ) -> bool {
        let brigade = check
            .brigade
            .or_else(|| check.units.first().and_then(|&u| self.brigade_of(u)));
        let owner = match (check.brigade, check.units.first()) {
            (Some(b), _) => self.battle.brigade_side(b),
            (None, Some(&u)) => self.side_of(u),
            (None, None) => return false,
        };
        // The enemy has no unit in the check: his side's instruction.
        let (side, brigade) = if passed {
            (owner.other(), None)
        } else {
            (owner, brigade)
        };
        if self.cards_rule(side, brigade) != CardsRule::Ask {
            return false;
        }
        let about = |_: &BrothersAtWar| told.to_string();
        let Some((card, _)) = self.react_with_card(
            side,
            brigade,
            "after-roll",
            &[Kind::RerollAny],
            &about,
            events,
        ) else {
            return false;
        };
        events.push(Event::CardEffect {
            card,
            what: "the check is rolled again".into(),
        });
        true
    }

    /// Whether `FATE ... MOVE` sends brigade `b` moving on a 4-5 (B111).
    fn fate_moves(&self, b: BrigadeId) -> bool {
        self.now.instructions.get(
            self.battle.brigade_side(b),
            Some(b),
            Setting::Fate(FateRule::Recover),
        ) == Setting::Fate(FateRule::Move)
    }

    /// 2.33's modifier: +1 when every unit of the brigade is 7 or more
    /// hexes from the enemy units in its sight (B32).
    pub fn fate_bonus(&self, b: BrigadeId) -> u8 {
        let side = self.battle.brigade_side(b);
        u8::from(
            self.units_of_brigade(b)
                .into_iter()
                .filter_map(|u| self.hex_of(u))
                .all(|h| far_from(self, h, side.other())),
        )
    }

    /// 3.211's modifiers for the Disrupted units `rally` of `hex`: +1 by
    /// their commander, +1 far from the enemy in sight.
    pub fn rally_bonus(&self, rally: &[UnitId], hex: Hex) -> u8 {
        let side = self.side_of(rally[0]);
        u8::from(far_from(self, hex, side.other())) + u8::from(self.commander_near(rally[0], hex))
    }

    /// Queues the fate checks of the end phase (2.33), the Union's first:
    /// brigades with a marker in the exhausted box, and exhausted brigades
    /// of one marker (8.112).
    pub fn queue_fate_checks(&mut self) {
        let mut due: Vec<BrigadeId> = self
            .battle
            .brigade_ids()
            .filter(|&b| {
                self.in_play(b)
                    && (self.now.exhausted_box.contains(&b)
                        || (self.markers(b) == 1 && self.brigade(b).exhausted))
            })
            .collect();
        due.sort_by_key(|&b| (self.battle.brigade_side(b), b));
        for b in due {
            self.now.checks.push(Check {
                kind: CheckKind::Fate,
                units: Vec::new(),
                brigade: Some(b),
                bonus: self.fate_bonus(b),
            });
        }
    }
}
