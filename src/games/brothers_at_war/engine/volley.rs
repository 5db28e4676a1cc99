//! A fire attack's dice (B11): the attack dice, the defender's retreat
//! choice, the save dice (as many draws as it takes, twelve dice at a
//! time), then the retreat and the hits that stand, one by one (B68, B84).

use super::cards::Kind;
use super::fire_math::ToHit;
use crate::games::brothers_at_war::core::combat::{
    CardsRule, CombatEvent, FireAttack, Reaction, RetreatRule, Setting, Stage,
};
use crate::games::brothers_at_war::core::event::{count, Event};
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::order::MAX_DICE;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use crate::games::brothers_at_war::engine::retreat::RetreatPlan;
use crate::games::brothers_at_war::scenario::model::UnitKind;

/// Successes of the attack dice: each firer's dice at its own face (B67),
/// or all at the attack's face.
fn successes(f: &FireAttack, dice: &[u8]) -> u8 {
    if f.segments.is_empty() {
        return dice.iter().filter(|&&d| d >= f.to_hit).count() as u8;
    }
    let mut rest = dice;
    let mut hits = 0;
    for &(n, face) in &f.segments {
        let (these, more) = rest.split_at(usize::from(n).min(rest.len()));
        hits += these.iter().filter(|&&d| d >= face).count() as u8;
        rest = more;
    }
    hits
}

/// The card's risk dice in words (B125): which dice of the roll they are
/// (the last ones, B1), the face at or under which each hurts the firer,
/// and the hits that come of them.
fn risk_words(unit: &str, risk: &[u8], face: u8, burst: u8) -> String {
    let which = match risk {
        [d] => format!("the last die, {d}, is the card's risk die"),
        _ => format!(
            "the last {} dice, {risk:?}, are the card's risk dice",
            risk.len()
        ),
    };
    let hurts = if face == 1 {
        "a 1".to_string()
    } else {
        format!("a {face} or less")
    };
    match burst {
        0 => format!("{which}: none shows {hurts}, no hit on {unit} (B125)"),
        n => format!(
            "{which}: {n} {} {hurts}, {unit} takes {} that no save or reserve cancels (B125)",
            if n == 1 { "shows" } else { "show" },
            count(u32::from(n), "hit", "hits")
        ),
    }
}

impl BrothersAtWar {
    /// The dice the fire or assault under way waits for, if any: at most
    /// twelve.
    pub fn fire_dice_pending(&self) -> Option<usize> {
        if self.now.assault.is_some() {
            return self.assault_dice_pending();
        }
        let f = self.now.fire.as_ref()?;
        Some(
            match f.stage {
                Stage::Dice => usize::from(f.dice),
                Stage::Saves(n) => usize::from(n),
                Stage::Retreat | Stage::Asked => return None,
            }
            .clamp(1, MAX_DICE),
        )
    }

    /// Applies the dice rolled for the fire or assault under way.
    pub fn fire_roll(&mut self, dice: &[u8], events: &mut Vec<Event>) {
        if self.now.assault.is_some() {
            self.assault_roll(dice, events);
            return;
        }
        let Some(mut f) = self.now.fire.take() else {
            return;
        };
        match f.stage {
            Stage::Dice => {
                let scored = successes(&f, dice);
                events.push(Event::Combat(CombatEvent::Rolled {
                    dice: dice.to_vec(),
                    successes: scored,
                }));
                // B148: the player the roll went against may roll it again.
                let against_target = scored > 0;
                if self.card_rerolls_fire(&f, against_target, "attack", dice, events) {
                    self.now.fire = Some(f);
                    return;
                }
                f.successes = scored;
                // B125: each of the card's dice (the last ones, B1) at its
                // risk face or under is a hit on its firer.
                if let Some((unit, card, extra, face)) = f.risky.take() {
                    let start = dice.len().saturating_sub(usize::from(extra));
                    let risk = &dice[start..];
                    let burst = risk.iter().filter(|&&d| d <= face).count() as u8;
                    events.push(Event::CardEffect {
                        card,
                        what: risk_words(&self.unit_name(unit), risk, face, burst),
                    });
                    if burst > 0 {
                        self.take_unsaved_hits(&[unit], burst, events);
                    }
                }
                // 6.732 a, B90: no hit scored, no retreat and no saves.
                if f.successes == 0 {
                    self.conclude_fire(f, events);
                    return;
                }
                // B11: the defender's cards after hits, before his retreat
                // choice and the saves (B125, B137).
                if let Some(line) = self.card_saves(&f.clone(), events) {
                    f.saves.push(line);
                }
                if self.ask_retreat(&mut f, events) {
                    return;
                }
                self.choose_retreat(&mut f);
                self.card_retreats(&mut f, events);
                self.to_saves(f, events);
            }
            Stage::Retreat | Stage::Asked => self.now.fire = Some(f),
            Stage::Saves(left) => {
                let made = ToHit::BASE.successes(dice) as u8;
                // B148: a save roll made in one draw may be rolled again by
                // the player it went against.
                let hits_left = f.successes.saturating_sub(f.saved.saturating_add(made)) > 0;
                if usize::from(left) == dice.len()
                    && (hits_left || made > 0)
                    && self.card_rerolls_fire(&f, hits_left, "save", dice, events)
                {
                    self.now.fire = Some(f);
                    return;
                }
                f.saved = f.saved.saturating_add(made);
                let mut lines = f.saves.clone();
                if f.retreat_saves > 0 {
                    lines.push(self.retreat_line(f.retreat_saves));
                }
                events.push(Event::Combat(CombatEvent::Saves {
                    lines,
                    dice: dice.to_vec(),
                    saved: made,
                }));
                let rest = left.saturating_sub(dice.len() as u8);
                if rest > 0 {
                    f.stage = Stage::Saves(rest);
                    self.now.fire = Some(f);
                } else {
                    self.conclude_fire(f, events);
                }
            }
        }
    }

    /// Under `CARDS ... ASK` only (B140, B148): the owner of the targets
    /// (`against_target`) or of the firers is asked whether a
    /// `reroll-any-die` card rolls this roll of the fire again (B130).
    /// Returns whether it is rolled again.
    fn card_rerolls_fire(
        &mut self,
        f: &FireAttack,
        against_target: bool,
        roll: &str,
        dice: &[u8],
        events: &mut Vec<Event>,
    ) -> bool {
        let units = if against_target {
            &f.targets
        } else {
            &f.firers
        };
        let Some(&first) = units.first() else {
            return false;
        };
        let side = self.side_of(first);
        let brigade = self.brigade_of(first);
        if self.cards_rule(side, brigade) != CardsRule::Ask {
            return false;
        }
        let faces: Vec<String> = dice.iter().map(u8::to_string).collect();
        let about = |g: &BrothersAtWar| {
            format!(
                "the {roll} dice of {}'s fire at {} in {} rolled {}",
                g.unit_names(&f.firers),
                g.unit_names(&f.targets),
                f.target,
                faces.join(" ")
            )
        };
        let kinds = [Kind::RerollAny];
        let Some((card, _)) =
            self.react_with_card(side, brigade, "after-roll", &kinds, &about, events)
        else {
            return false;
        };
        events.push(Event::CardEffect {
            card,
            what: format!("the {roll} dice are rolled again"),
        });
        true
    }

    /// On to the save dice, or to the end when there are none.
    pub fn to_saves(&mut self, mut f: FireAttack, events: &mut Vec<Event>) {
        let total: u32 =
            f.saves.iter().map(|l| u32::from(l.rolls)).sum::<u32>() + u32::from(f.retreat_saves);
        if total == 0 {
            self.conclude_fire(f, events);
            return;
        }
        f.stage = Stage::Saves(total.min(u32::from(u8::MAX)) as u8);
        self.now.fire = Some(f);
    }

    /// `RETREAT ... ASK` (B7): the defender is asked, with the legal paths,
    /// whether to retreat for a save. Returns whether it was asked.
    fn ask_retreat(&mut self, f: &mut FireAttack, events: &mut Vec<Event>) -> bool {
        let Some(&first) = f.targets.first() else {
            return false;
        };
        let asked = self.now.instructions.get(
            self.side_of(first),
            self.brigade_of(first),
            Setting::Retreat(RetreatRule::IfKilled, false),
        );
        if !matches!(asked, Setting::Retreat(RetreatRule::Ask, _)) {
            return false;
        }
        // B7, B90: the owner who asked to be asked is told why he is not.
        let never = f.targets.iter().find_map(|&t| match self.kind_of(t) {
            UnitKind::Skirmisher => Some("a skirmisher never retreats (6.76)"),
            UnitKind::Remnant => Some("a remnant never retreats (6.76)"),
            _ if self.hex_of(t).is_none() => Some("an off-board battery never retreats (B90)"),
            _ => None,
        });
        let legal = match never {
            Some(_) => None,
            None => self.legal_retreats(&f.targets, false),
        };
        let Some((paths, _)) = legal else {
            let why = never.unwrap_or("it has no legal retreat (6.71, 6.732)");
            events.push(Event::NoRetreat {
                units: f.targets.iter().map(|&t| self.unit_name(t)).collect(),
                why: why.to_string(),
            });
            return false;
        };
        f.stage = Stage::Retreat;
        self.now.fire = Some(f.clone());
        self.now.reaction = Some(Reaction {
            side: self.side_of(first),
            choices: Vec::new(),
            paths,
            question: None,
        });
        true
    }

    fn retreat_line(&self, rolls: u8) -> crate::games::brothers_at_war::core::combat::SaveLine {
        let long = rolls > self.battle.scenario.saves.retreat;
        crate::games::brothers_at_war::core::combat::SaveLine {
            why: if long { "long retreat" } else { "retreat" }.to_string(),
            rule: if long { "6.72" } else { "6.7" }.to_string(),
            rolls,
        }
    }

    /// The hits that would eliminate a unit of these targets as they
    /// stand (B80, B95): formed infantry alone takes three, an
    /// Undisrupted hex two, a Disrupted one one.
    pub fn killing_hits(&self, targets: &[UnitId]) -> u8 {
        use crate::games::brothers_at_war::core::formation::Formation;
        if targets.iter().any(|&t| self.unit(t).disrupted) {
            1
        } else if targets
            .iter()
            .all(|&t| self.formation(t) == Formation::Formed)
        {
            3
        } else {
            2
        }
    }

    /// The defender's retreat choice by its standing instruction (6.7,
    /// B90, B95); `ASK` takes the default until the engine asks.
    fn choose_retreat(&self, f: &mut FireAttack) {
        let Some(&first) = f.targets.first() else {
            return;
        };
        let may = f.targets.iter().all(|&t| {
            !matches!(self.kind_of(t), UnitKind::Skirmisher | UnitKind::Remnant)
                && self.hex_of(t).is_some()
        });
        if !may {
            return;
        }
        let setting = self.now.instructions.get(
            self.side_of(first),
            self.brigade_of(first),
            Setting::Retreat(RetreatRule::IfKilled, false),
        );
        let Setting::Retreat(rule, long) = setting else {
            return;
        };
        let wants = match rule {
            RetreatRule::Never => false,
            RetreatRule::Always => true,
            RetreatRule::IfKilled | RetreatRule::Ask => {
                f.successes >= self.killing_hits(&f.targets)
            }
        };
        if !wants {
            return;
        }
        let saves = &self.battle.scenario.saves;
        let long = long && self.retreat_plan(&f.targets, true).is_some();
        if long {
            f.retreating = true;
            f.retreat_saves = saves.long_retreat;
        } else if self.retreat_plan(&f.targets, false).is_some() {
            f.retreating = true;
            f.retreat_saves = saves.retreat;
        }
    }

    /// The hits that stand, the retreat, then every hit applied (B84); a
    /// question an `ASK` instruction leaves open stops it first (B145).
    pub(super) fn conclude_fire(&mut self, f: FireAttack, events: &mut Vec<Event>) {
        if let Some((side, question)) =
            self.resolve_asking(events, |g, ev| g.fire_result(f.clone(), ev))
        {
            self.wait_fire_answer(f, side, question);
        }
    }

    /// The result of a fire whose dice are all rolled.
    fn fire_result(&mut self, f: FireAttack, events: &mut Vec<Event>) {
        // B68: the cap applies to the hits left after saves.
        let hits = f.successes.saturating_sub(f.saved).min(f.cap);
        let mut extra = 0;
        let mut retreated = false;
        let targets: Vec<UnitId> = f
            .targets
            .iter()
            .copied()
            // 9.43: a battery on its card stays a target.
            .filter(|&t| self.hex_of(t) == Some(f.target) || self.unit(t).place == Place::OffBoard)
            .collect();
        if f.retreating && !targets.is_empty() {
            let long = f.retreat_saves > self.battle.scenario.saves.retreat;
            // B7: the path its owner chose, if still legal; else B92's.
            let chosen = self
                .legal_retreats(&targets, long)
                .filter(|(paths, _)| paths.contains(&f.path))
                .map(|(_, short)| RetreatPlan {
                    path: f.path.clone(),
                    short,
                });
            let chosen = match chosen {
                Some(plan) => Some(plan),
                None => self.chosen_retreat(&targets, long),
            };
            if let Some(plan) = chosen {
                extra = self.retreat(&targets, &plan, events);
                retreated = true;
            }
        }
        events.push(Event::Combat(CombatEvent::Hits { hits, extra }));
        let opfire_after = f.opfire_after;
        // B105: artillery support is judged from where it stood before.
        self.take_hits(&targets, hits.saturating_add(extra), f.target, events);
        // 11.3 on 7-8: a stampede follows the first retreat, complete.
        if retreated {
            if let Some(&firer) = f.firers.first() {
                self.card_stampede(firer, f.target, &targets, events);
            }
        }
        self.after_fire(&targets, events);
        // 4.12, B101: a commander left alone next to the enemy moves.
        self.displace_commanders(events);
        if self.end_if_broken() {
            return;
        }
        // B10 (5): the step's opportunity attack, if the mover still stands.
        if opfire_after && self.group().is_some_and(|g| g.units == targets) {
            self.opportunity_fire(events);
        }
        // B128: the firer of a fire-then-assault card goes in now, if it
        // still can.
        self.settle_charge(events);
    }

    /// B107: a brigade that breaks during its own activation ends it.
    /// Returns whether it did.
    pub fn end_if_broken(&mut self) -> bool {
        let Some(b) = self.now.activation.as_ref().map(|a| a.brigade) else {
            return false;
        };
        if !self.brigade(b).broken || self.now.step != Step::Units(b) {
            return false;
        }
        self.now.reaction = None;
        self.end_activation(b);
        true
    }

    /// Targets that were the active unit or stack and left the map, or
    /// retreated, no longer act (B91).
    fn after_fire(&mut self, targets: &[UnitId], events: &mut Vec<Event>) {
        let Some(g) = self.now.activation.as_ref().and_then(|a| a.group.clone()) else {
            return;
        };
        if !g.units.iter().any(|u| targets.contains(u)) {
            return;
        }
        let alive: Vec<UnitId> = g
            .units
            .iter()
            .copied()
            .filter(|&u| self.hex_of(u).is_some())
            .collect();
        let retreated = alive.iter().any(|&u| self.unit(u).finished);
        if let Some(group) = self.now.activation.as_mut().and_then(|a| a.group.as_mut()) {
            group.units = alive.clone();
        }
        if alive.is_empty() {
            if let Some(a) = self.now.activation.as_mut() {
                a.group = None;
            }
        } else if retreated {
            self.end_group(true, events);
        }
    }
}
