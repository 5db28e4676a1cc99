//! Hits on a hex and the reserves that cancel killing hits (6.51-6.541,
//! 8.11, 8.111, 8.12, B80, B83, B84, B102, B105).

use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::{CombatEvent, LossesRule, ReservesRule, Setting};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::core::question::{Answer, Question};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::core::state::Place;
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Face, UnitKind};

/// Hexes within which a brigade's unit may support divisional artillery
/// (8.12).
pub const SUPPORT_RANGE: u32 = 2;

impl BrothersAtWar {
    /// Applies `hits` to the units still on the map among `targets`, one
    /// at a time (B84). `support_from` is where artillery stood before any
    /// retreat (8.12).
    pub fn take_hits(
        &mut self,
        targets: &[UnitId],
        hits: u8,
        support_from: Hex,
        events: &mut Vec<Event>,
    ) {
        for _ in 0..hits {
            let alive: Vec<UnitId> = targets
                .iter()
                .copied()
                .filter(|&t| self.within_fire(t))
                .collect();
            if alive.is_empty() {
                return;
            }
            self.apply_hit(&alive, support_from, true, events);
        }
    }

    /// Applies `hits` that no save or reserve may cancel (B125: a card's
    /// risk to its own firer).
    pub fn take_unsaved_hits(&mut self, units: &[UnitId], hits: u8, events: &mut Vec<Event>) {
        for _ in 0..hits {
            let alive: Vec<UnitId> = units
                .iter()
                .copied()
                .filter(|&t| self.hex_of(t).is_some())
                .collect();
            let Some(at) = alive.first().and_then(|&u| self.hex_of(u)) else {
                return;
            };
            self.apply_hit(&alive, at, false, events);
        }
    }

    /// One hit on a hex's units (B80).
    fn apply_hit(
        &mut self,
        units: &[UnitId],
        support_from: Hex,
        reserves: bool,
        events: &mut Vec<Event>,
    ) {
        // 6.541: a skirmisher hit disbands.
        let skirmishers: Vec<UnitId> = units
            .iter()
            .copied()
            .filter(|&u| self.kind_of(u) == UnitKind::Skirmisher)
            .collect();
        if !skirmishers.is_empty() {
            for s in skirmishers {
                self.disband(s, events);
            }
            return;
        }
        // 5.34, B81: a Disrupted unit is never formed.
        let all_formed = units
            .iter()
            .all(|&u| self.formation(u) == Formation::Formed && !self.unit(u).disrupted);
        for &u in units {
            self.unform(u, events);
        }
        // 6.52: formed infantry alone only unforms.
        if all_formed {
            return;
        }
        if units.iter().any(|&u| self.unit(u).disrupted) {
            // B145: which unit is lost is asked only when the hit may kill:
            // a reserve its instruction spends anyway saves either.
            let fallback = self.loss(units);
            let victim = if reserves && self.reserve_spent_anyway(fallback, support_from) {
                fallback
            } else {
                self.choose_loss(units)
            };
            // 9.44, B105: a battery's local support takes the first
            // killing hit, flipping the counter; no brigade reserve.
            if self.unit(victim).place == Place::OffBoard && self.unit(victim).face == Face::Front {
                self.now.units[victim.index()].face = Face::Back;
                events.push(Event::Combat(CombatEvent::LocalSupport {
                    unit: self.unit_name(victim),
                }));
                return;
            }
            let battery = self.unit(victim).place == Place::OffBoard;
            if battery || !reserves || !self.cancel_with_reserve(victim, support_from, events) {
                events.push(Event::Combat(CombatEvent::Eliminated {
                    unit: self.unit_name(victim),
                }));
                self.eliminate(victim, events);
            }
        } else {
            for &u in units {
                self.disrupt(u, "hit, 6.51", events);
            }
        }
    }

    /// The unit of a Disrupted stack that dies (6.54, B83): by `LOSSES`,
    /// ties to the first in the scenario.
    pub(super) fn loss(&self, units: &[UnitId]) -> UnitId {
        let first = units[0];
        let rule = self.now.instructions.get(
            self.side_of(first),
            self.brigade_of(first),
            Setting::Losses(LossesRule::Weakest),
        );
        let strongest = rule == Setting::Losses(LossesRule::Strongest);
        let mut best = first;
        for &u in &units[1..] {
            let (a, b) = (self.firepower(u), self.firepower(best));
            if (strongest && a > b) || (!strongest && a < b) {
                best = u;
            }
        }
        best
    }

    /// The brigade whose reserves may save `unit` (8.11, 8.12, B105): its
    /// own; for divisional artillery, the friendly brigade with a unit 1-2
    /// hexes from where it stood and the most reserves left, then the
    /// lowest id.
    pub fn reserve_brigade(&self, unit: UnitId, from: Hex) -> Option<BrigadeId> {
        let b = self.brigade_of(unit)?;
        if self.battle.scenario.brigades[b.index()].reserves.is_some() {
            return Some(b);
        }
        let side = self.side_of(unit);
        self.battle
            .brigade_ids()
            .filter(|&o| {
                self.battle.brigade_side(o) == side
                    && !self.brigade(o).broken
                    && self.reserves_left(o) > 0
                    && self.units_of_brigade(o).iter().any(|&x| {
                        self.hex_of(x)
                            .is_some_and(|h| (1..=SUPPORT_RANGE).contains(&h.distance(from)))
                    })
            })
            .max_by_key(|&o| (self.reserves_left(o), std::cmp::Reverse(o.0)))
    }

    /// The skirmisher on the display that could be eliminated to recover
    /// a reserve (8.133, B104): only when the marker can move back past
    /// the casualty it leaves (r at least c + 2), and that casualty does
    /// not break the brigade (8.3: a broken brigade recovers nothing).
    fn skirmisher_to_give_up(&self, b: BrigadeId) -> Option<UnitId> {
        let s = self.brigade(b);
        if s.reserve < s.casualties.saturating_add(2) || self.casualty_breaks(b) {
            return None;
        }
        self.units_of_brigade(b).into_iter().find(|&u| {
            self.kind_of(u) == UnitKind::Skirmisher
                && self.unit(u).place == crate::games::brothers_at_war::core::state::Place::Display
                && !self.independent(u)
        })
    }

    /// The skirmishers of `side` that `ELIMINATE` may give up now, each
    /// recovering a reserve (8.133, B146).
    pub fn skirmishers_to_give_up(
        &self,
        side: crate::games::brothers_at_war::scenario::model::Side,
    ) -> Vec<UnitId> {
        self.battle
            .brigade_ids()
            .filter(|&b| self.battle.brigade_side(b) == side && !self.brigade(b).broken)
            .filter(|&b| self.brigade(b).reserve > 0)
            .filter_map(|b| self.skirmisher_to_give_up(b))
            .collect()
    }

    /// Whether one more casualty would break the brigade (8.3, B102).
    fn casualty_breaks(&self, b: BrigadeId) -> bool {
        self.battle.scenario.brigades[b.index()]
            .reserves
            .is_some_and(|t| t.dark > 0 && self.brigade(b).casualties.saturating_add(1) >= t.dark)
    }

    /// B104: with no reserve left for the killing hit on `saving`, a
    /// disbanded skirmisher on the display is eliminated to recover one.
    /// Returns whether a reserve came back.
    fn skirmisher_for_reserve(
        &mut self,
        b: BrigadeId,
        saving: UnitId,
        events: &mut Vec<Event>,
    ) -> bool {
        let Some(sk) = self.skirmisher_to_give_up(b) else {
            return false;
        };
        self.buy_back(sk, b, Some(saving), events);
        self.reserves_left(b) > 0
    }

    /// The skirmisher's casualty, then the reserve it recovers (B104), told
    /// as one event: the casualty (8.2) never breaks the brigade nor moves
    /// its marker here (r at least c + 2, [`Self::skirmisher_to_give_up`]).
    fn buy_back(
        &mut self,
        skirmisher: UnitId,
        b: BrigadeId,
        saving: Option<UnitId>,
        events: &mut Vec<Event>,
    ) {
        events.push(Event::SkirmisherGivenUp {
            unit: self.unit_name(skirmisher),
            brigade: self.brigade_name(b),
            saving: saving.map(|u| self.unit_name(u)),
        });
        self.eliminate(skirmisher, events);
        if !self.brigade(b).broken {
            // The event above says the reserve comes back.
            let mut recovered = Vec::new();
            self.recover_reserve(b, &mut recovered);
            events.extend(
                recovered
                    .into_iter()
                    .filter(|e| !matches!(e, Event::ReserveRecovered { .. })),
            );
        }
    }

    /// `ELIMINATE skirmisher` (8.133, B104): its owner gives up a
    /// disbanded skirmisher on the display to recover one reserve, at any
    /// moment; refused when no reserve would come back (8.13).
    pub fn give_up_skirmisher(
        &mut self,
        name: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let unit = self
            .unit_named(name)
            .ok_or_else(|| Refusal::NoSuchUnit(name.to_string()))?;
        // B116: a remnant on the map is taken off whenever its owner says.
        if self.kind_of(unit) == UnitKind::Remnant && self.hex_of(unit).is_some() {
            self.now.units[unit.index()].place =
                crate::games::brothers_at_war::core::state::Place::Removed;
            events.push(Event::RemnantRemoved {
                unit: self.unit_name(unit),
            });
            return Ok(());
        }
        // 9.19 a: an independent skirmisher never buys a reserve back.
        if self.independent(unit) {
            return Err(Refusal::IndependentNotGivenUp(self.unit_name(unit)));
        }
        let brigade = self.brigade_of(unit).filter(|_| {
            self.kind_of(unit) == UnitKind::Skirmisher
                && self.unit(unit).place
                    == crate::games::brothers_at_war::core::state::Place::Display
                && !self.independent(unit)
        });
        let Some(b) = brigade else {
            return Err(Refusal::NotOnDisplay(self.unit_name(unit)));
        };
        let s = self.brigade(b);
        let why = if s.reserve == 0 {
            Some("its reserve marker is on START")
        } else if s.reserve < s.casualties.saturating_add(2) {
            Some("the space its reserve marker would move back to holds a casualty")
        } else if self.casualty_breaks(b) {
            Some("its casualty would break the brigade, which then recovers nothing (8.3)")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(Refusal::NothingToRecover {
                brigade: self.brigade_name(b),
                why,
            });
        }
        self.buy_back(unit, b, None, events);
        Ok(())
    }

    /// Reserves left before the marker reaches EXHAUSTED (B102).
    pub fn reserves_left(&self, b: BrigadeId) -> u8 {
        let Some(track) = self.battle.scenario.brigades[b.index()].reserves else {
            return 0;
        };
        track.length.saturating_sub(self.brigade(b).reserve)
    }

    /// Whether a killing hit on `unit` is cancelled by a reserve that its
    /// `RESERVES` instruction spends without asking (8.11, B5).
    fn reserve_spent_anyway(&self, unit: UnitId, from: Hex) -> bool {
        let Some(b) = self.reserve_brigade(unit, from) else {
            return false;
        };
        let left = self.reserves_left(b);
        match self.now.instructions.get(
            self.battle.brigade_side(b),
            Some(b),
            Setting::Reserves(ReservesRule::Spend),
        ) {
            Setting::Reserves(ReservesRule::Spend) => {
                left > 0 || self.skirmisher_to_give_up(b).is_some()
            }
            Setting::Reserves(ReservesRule::KeepLast) => left > 1,
            _ => false,
        }
    }

    /// Spends a reserve to cancel a killing hit on `unit` if the
    /// instruction `RESERVES` allows it (8.11, B5): the marker moves one
    /// space; on EXHAUSTED the brigade is exhausted (8.111).
    fn cancel_with_reserve(&mut self, unit: UnitId, from: Hex, events: &mut Vec<Event>) -> bool {
        let Some(b) = self.reserve_brigade(unit, from) else {
            return false;
        };
        let left = self.reserves_left(b);
        let side = self.battle.brigade_side(b);
        let rule = self
            .now
            .instructions
            .get(side, Some(b), Setting::Reserves(ReservesRule::Spend));
        let can = left > 0 || self.skirmisher_to_give_up(b).is_some();
        let wants = match rule {
            Setting::Reserves(ReservesRule::Keep) => false,
            Setting::Reserves(ReservesRule::KeepLast) => left > 1,
            // B145: asked only when a reserve can be had.
            Setting::Reserves(ReservesRule::Ask) if can => {
                let question = Question::Reserve {
                    unit,
                    brigade: b,
                    left,
                };
                !matches!(self.ask(side, question), Some(Answer::Spend(false)))
            }
            _ => true,
        };
        // B104: the reserve bought back with a skirmisher is bought only to
        // be spent at once on this hit; the brigade, exhausted before (its
        // marker on EXHAUSTED, none left), is on EXHAUSTED again after: it
        // stays exhausted and is not exhausted anew (8.111: no second
        // announcement, no second `exhausts` window, 11.3 on 47).
        let bought = left == 0;
        let spend = wants && (left > 0 || self.skirmisher_for_reserve(b, unit, events));
        if !spend {
            return false;
        }
        let left = self.reserves_left(b);
        let s = &mut self.now.brigades[b.index()];
        s.reserve = s.reserve.saturating_add(1);
        events.push(Event::Combat(CombatEvent::ReserveSpent {
            brigade: self.brigade_name(b),
            unit: self.unit_name(unit),
        }));
        if bought {
            self.now.brigades[b.index()].exhausted = true;
        } else if left == 1 && !self.brigade(b).exhausted {
            self.exhaust(b, events);
        }
        true
    }
}
