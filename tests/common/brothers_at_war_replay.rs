//! Replaying a rule case against the engine: each step as the engine's orders (its dice
//! as chance orders), then every expectation the step writes compared with the engine's
//! state. A step the engine answers "not playable yet", or one the harness cannot word
//! as orders yet, makes the case pending with the reason; a disagreement is reported, never
//! smoothed over.

use orderly::games::brothers_at_war::core::combat::{CombatEvent, Stage};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::formation::Formation;
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::question::Question;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, CheckKind, Step};
use orderly::games::brothers_at_war::engine::activation::{FORM_COST, HOLD_COST};
use orderly::games::brothers_at_war::engine::apply::Draw;
use orderly::games::brothers_at_war::engine::fire::FIRE_COST;
use orderly::games::brothers_at_war::engine::Refusal;
use orderly::games::{CitesRule, Game};

use crate::compare::{compare, Seen};
use crate::format::{self as f, Case, Outcome};
use crate::setup::{self, Chart};
use crate::steps::{ops, Op};

/// What replaying a case came to.
#[derive(Debug)]
pub enum Replay {
    /// Every step ran: the disagreements found (none when the engine agrees).
    Ran(Vec<String>),
    /// A step waits for a part of the engine, or of the harness: why.
    Pending(String),
}

/// What one step did in the engine.
enum Done {
    /// Accepted.
    Accepted {
        /// The movement points it spent and left to its units, when they activated.
        mp: Option<(u8, u8)>,
        /// Everything that happened.
        events: Vec<Event>,
        /// The game before the step.
        before: Box<BrothersAtWar>,
        /// The to-hit number of each assaulting unit, read while the assault waited for
        /// its dice (7.11).
        to_hit: Vec<u8>,
    },
    /// Refused: the state is as it was.
    Refused(Refusal),
    /// The engine does nothing for this step (no check waits, no marker placed): why.
    Skipped(String),
    /// The engine and the case part before the step's end: what differs.
    Disagree(String),
}

/// What an order that ended the group's activation cost beyond the hexes it entered: the
/// engine's own prices of a formation change (5.22), of hold fire (5.25) and of fire
/// (5.24), which artillery that has not spent a point fires without (5.42, B56).
fn ending_cost(events: &[Event], free_fire: bool) -> u8 {
    events
        .iter()
        .map(|e| match e {
            Event::Moved { cost, .. } => *cost,
            Event::Formed { .. } => FORM_COST,
            Event::Ended {
                finished: false, ..
            } => HOLD_COST,
            Event::Combat(CombatEvent::Fire { .. }) if !free_fire => FIRE_COST,
            _ => 0,
        })
        .sum()
}

/// The dice of a step, in the order the engine asks for them.
fn dice(case: &Case, index: usize) -> Dice {
    let step = &case.steps[index];
    Dice {
        attack: step.dice.clone(),
        enemy: step.enemy_dice.clone(),
        to_hit: Vec::new(),
        saves: step.save_dice.clone(),
        refused: step.expect.result == Outcome::Refused,
        rule: step.expect.rule.clone(),
        answers: Answers {
            path: step.retreat.clone(),
            reserves: step.reserves,
            payer: step.brigade.clone().filter(|_| step.reserves.is_some()),
            lose: step.choice.clone(),
            displaced: displaced(case, index),
            ..Answers::default()
        },
    }
}

/// The hexes the case's steps after `index` place displaced commanders on (4.12, B47):
/// accepted commander moves of a brigade not activating, by brigade.
fn displaced(case: &Case, index: usize) -> Vec<(String, String)> {
    case.steps
        .iter()
        .skip(index + 1)
        .filter(|s| {
            s.action == f::Action::MoveCommander
                && s.brigade.is_some()
                && s.brigade != setup::active(case)
                && s.expect.result == Outcome::Accepted
        })
        .filter_map(|s| Some((s.brigade.clone()?, s.target.clone()?)))
        .collect()
}

/// The place in the cup (from 1, the engine's canonical order) of the marker of this
/// name; one past the end when the cup has none, which the engine refuses (3.12).
fn cup_place(g: &BrothersAtWar, name: &str) -> usize {
    let found = g.now.cup.iter().position(|m| match m {
        Marker::Countdown => name == "countdown",
        Marker::Brigade(b, _) => g.battle.scenario.brigades[b.index()].id == name,
        Marker::Free(_) => false,
    });
    found.map_or(g.now.cup.len() + 1, |i| i + 1)
}

/// Whether the first check waiting is of this kind and for the step's units (or, for a
/// fate check, its brigade).
fn check_waits(g: &BrothersAtWar, kind: CheckKind, step: &f::Step) -> bool {
    let Some(c) = g.now.checks.first() else {
        return false;
    };
    let brigade = step
        .brigade
        .as_deref()
        .and_then(|b| g.battle.brigade_named(b));
    let units: Vec<_> = step.units.iter().filter_map(|u| g.unit_named(u)).collect();
    c.kind == kind
        && match kind {
            CheckKind::Fate => brigade.is_none() || c.brigade == brigade,
            _ => units.iter().all(|u| c.units.contains(u)),
        }
}

/// Why a step stopped before its end.
enum Stop {
    /// The engine refused an order.
    Refused(Refusal),
    /// Nothing happens in the engine for it: why.
    Skipped(String),
    /// It waits for a part of the engine or of the harness: why.
    Pending(String),
    /// The engine asks for other dice than the case rolls: what differs.
    Disagree(String),
}

/// The dice of a step, by what they are rolled for.
struct Dice {
    /// The attack dice (of fire or of an assault's attacker), or the check dice.
    attack: Vec<u8>,
    /// An assault's defender's dice (7.1).
    enemy: Vec<u8>,
    /// The to-hit number of each assaulting unit, read before its dice (7.11).
    to_hit: Vec<u8>,
    /// The defender's save dice.
    saves: Vec<u8>,
    /// The case refuses the step.
    refused: bool,
    /// The rule it refuses the step under.
    rule: Option<String>,
    /// The defender's answers when the engine asks (B7, B145): its retreat path,
    /// the reserves it spends and the brigade that pays, the unit of a stack it loses.
    answers: Answers,
}

/// What the case's defender answers, and what it was asked.
#[derive(Default)]
struct Answers {
    path: Vec<String>,
    reserves: Option<u8>,
    payer: Option<String>,
    lose: Option<String>,
    asked_path: bool,
    asked_reserve: bool,
    /// Where the case's later steps place a displaced commander, by brigade (4.12).
    displaced: Vec<(String, String)>,
}

/// Applies one order. An order the notation cannot write is one no player can send:
/// nothing happens.
fn order(next: &mut BrothersAtWar, text: &str, events: &mut Vec<Event>) -> Result<(), Stop> {
    let order = next
        .parse_order(text)
        .map_err(|e| Stop::Skipped(format!("the notation cannot write {text}: {}", e.message)))?;
    // A standing instruction is its owner's, whoever decides (B5).
    let applied = match next.standing_side(&order) {
        Some(side) => next.apply_standing(side, &order),
        None => next.apply(&order),
    };
    match applied {
        Ok(e) => {
            events.extend(e);
            Ok(())
        }
        Err(r) => Err(Stop::Refused(r)),
    }
}

/// Deals the cards the engine waits for: the cases count cards, so the deck's first is
/// taken each time (11.1).
fn deal(next: &mut BrothersAtWar, events: &mut Vec<Event>) -> Result<(), Stop> {
    while let Some(Draw::Card(_)) = next.draw_pending() {
        let card = next.now.deck.first().copied().unwrap_or(0);
        order(next, &format!("CARD {card}"), events)?;
    }
    Ok(())
}

/// Rolls the step's dice for whatever the engine waits for: checks (all at once), then
/// a fire's attack dice and its save dice, each as many as the engine asks (6.0, 6.6).
fn roll(next: &mut BrothersAtWar, dice: &mut Dice, events: &mut Vec<Event>) -> Result<(), Stop> {
    let (refused, rule) = (dice.refused, dice.rule.clone());
    loop {
        let assault = next.now.assault.as_ref().map(|a| a.attack_hits.is_none());
        if let Some(a) = next
            .now
            .assault
            .as_ref()
            .filter(|a| a.attack_hits.is_none())
        {
            dice.to_hit = a.attack_dice.iter().map(|d| d.1).collect();
        }
        let fire = next.now.fire.as_ref().map(|f| f.stage);
        let (queue, k, what) = match (next.draw_pending(), assault, fire) {
            (Some(Draw::Card(_)), _, _) => {
                deal(next, events)?;
                continue;
            }
            (Some(Draw::Checks(k)), _, _) => (&mut dice.attack, k, "check dice"),
            // The attacker's dice, then the defender's (7.1, B98).
            (Some(Draw::Fire(k)), Some(true), _) => (&mut dice.attack, k, "attack dice"),
            (Some(Draw::Fire(k)), Some(false), _) => (&mut dice.enemy, k, "defender's dice"),
            (Some(Draw::Fire(k)), None, Some(Stage::Dice)) => (&mut dice.attack, k, "attack dice"),
            (Some(Draw::Fire(k)), None, _) => (&mut dice.saves, k, "save dice"),
            (None, _, _) if next.now.reaction.is_some() => {
                match answer(next, &mut dice.answers)? {
                    Some(text) => order(next, &text, events)?,
                    None => return Ok(()),
                }
                continue;
            }
            _ => return Ok(()),
        };
        if queue.is_empty() && what == "attack dice" && refused {
            return Err(Stop::Disagree(format!(
                "the case refuses it under {}, the engine accepts it and asks for {k} attack dice",
                rule.unwrap_or_default()
            )));
        }
        // A case that writes no save dice stops at the saves: what it expects of the
        // attack is known by then.
        if queue.is_empty() && what == "save dice" {
            return Ok(());
        }
        if queue.len() < k {
            return Err(Stop::Disagree(format!(
                "{what}: the case rolls {}, the engine asks for {k}",
                queue.len()
            )));
        }
        let faces: Vec<String> = queue.drain(..k).map(|d| d.to_string()).collect();
        order(next, &format!("ROLL {}", faces.join(" ")), events)?;
    }
}

/// The case's answer to what the engine asks (B7, B145), as an order; `None` for a
/// reaction the case does not answer (an opportunity attack, made by `Op::Reaction`).
fn answer(next: &BrothersAtWar, a: &mut Answers) -> Result<Option<String>, Stop> {
    let Some(r) = next.now.reaction.as_ref() else {
        return Ok(None);
    };
    let path = || format!("RETREAT {}", a.path.join(" "));
    Ok(Some(match &r.question {
        Some(Question::Loss { .. }) => match &a.lose {
            Some(u) => format!("LOSE {u}"),
            None => "PASS".to_string(),
        },
        Some(Question::Reserve { brigade, .. }) => {
            a.asked_reserve = true;
            let pays = next.brigade_name(*brigade);
            if let Some(b) = a.payer.as_ref().filter(|b| !b.eq_ignore_ascii_case(&pays)) {
                return Err(Stop::Skipped(format!(
                    "the engine offers no reserve of {b}: {pays}'s would pay (8.12, B105)"
                )));
            }
            match a.reserves {
                Some(n) if n > 0 => {
                    a.reserves = Some(n - 1);
                    "SPEND RESERVE".to_string()
                }
                _ => "KEEP".to_string(),
            }
        }
        Some(Question::Path { .. }) if !a.path.is_empty() => {
            a.asked_path = true;
            path()
        }
        Some(Question::Path { .. }) => "PASS".to_string(),
        // The cases' battle sets no `CARDS ... ASK` (B148).
        Some(Question::Card { .. }) => "PASS".to_string(),
        // The step's own `Op::Remnant` names its hex (2.33, B110).
        Some(Question::Remnant { .. }) => return Ok(None),
        // The case's later step places him (4.12, B47).
        Some(Question::Commander { brigade, .. }) => {
            let name = next.brigade_name(*brigade);
            match a
                .displaced
                .iter()
                .find(|(b, _)| b.eq_ignore_ascii_case(&name))
            {
                Some((_, to)) => format!("COMMANDER {to}"),
                None => "PASS".to_string(),
            }
        }
        None if !r.paths.is_empty() && !a.path.is_empty() => {
            a.asked_path = true;
            path()
        }
        None if !r.paths.is_empty() => "PASS".to_string(),
        None => return Ok(None),
    }))
}

/// Applies one operation of a step.
fn run(
    next: &mut BrothersAtWar,
    case: &Case,
    step: &f::Step,
    op: Op,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), Stop> {
    match op {
        Op::Order(text) => {
            order(next, &text, events)?;
            roll(next, dice, events)
        }
        Op::Keep(text) => order(next, &text, events),
        Op::Roll => roll(next, dice, events),
        Op::Nothing(why) => Err(Stop::Skipped(why)),
        Op::Remnant(hex) => {
            let asked = next
                .now
                .reaction
                .as_ref()
                .is_some_and(|r| matches!(r.question, Some(Question::Remnant { .. })));
            if !asked {
                return Err(Stop::Skipped(
                    "the engine asks nothing: the remnant has one hex to go to (B110)".into(),
                ));
            }
            order(next, &format!("REMNANT {hex}"), events)?;
            roll(next, dice, events)
        }
        Op::Displaced(brigade, to) => {
            let at = next
                .battle
                .brigade_named(&brigade)
                .and_then(|b| next.brigade(b).commander)
                .map(|h| h.to_string());
            let from = case
                .units
                .iter()
                .find(|u| u.kind == f::Kind::Commander && u.brigade.as_deref() == Some(&brigade))
                .map(|u| u.hex.clone());
            match at {
                Some(h) if h == to => Ok(()),
                Some(h) if Some(&h) != from.as_ref() => Err(Stop::Pending(format!(
                    "engine: no order names where a displaced commander goes (4.12, B47): {h}, not {to}"
                ))),
                _ => Err(Stop::Skipped("the engine displaces no commander".into())),
            }
        }
        Op::Reaction => {
            let Some(attack) = next.now.fire.clone() else {
                return Err(Stop::Skipped(
                    "the engine makes no attack in reaction".into(),
                ));
            };
            let firers: Vec<String> = attack.firers.iter().map(|&u| next.unit_name(u)).collect();
            let named = step
                .units
                .iter()
                .all(|u| firers.iter().any(|f| f.eq_ignore_ascii_case(u)));
            if !named || firers.len() != step.units.len() {
                return Err(Stop::Pending(format!(
                    "engine: no order names the units of an opportunity attack (6.12); it chose {}",
                    firers.join(" ")
                )));
            }
            // The attack was declared in the move's step: its numbers, from the engine's
            // attack under way, belong to this step's comparison.
            events.push(Event::Combat(CombatEvent::Fire {
                firers,
                target: attack.target,
                kind: attack.kind,
                dice: attack.dice,
                to_hit: attack.to_hit,
                cap: attack.cap,
                pass_through: attack.pass_through,
                range: attack.range,
            }));
            roll(next, dice, events)
        }
        Op::Draw(name) => {
            let name = match name {
                Some(n) => n,
                // A recovery or check opening the case: its brigade's marker is drawn.
                None if next.now.step == Step::Select => setup::active(case)
                    .ok_or_else(|| Stop::Pending("harness: no brigade activates".into()))?,
                None => return Ok(()),
            };
            let place = cup_place(next, &name);
            order(next, &format!("DRAW {place}"), events)?;
            deal(next, events)
        }
        Op::Check(kind) => {
            if next.now.checks.is_empty() && next.now.step == Step::Fate {
                next.advance(events);
            }
            if !check_waits(next, kind, step) {
                return Err(Stop::Skipped(format!(
                    "the engine makes no {kind:?} check here"
                )));
            }
            roll(next, dice, events)
        }
        Op::CleanUp => {
            if next.now.step != Step::Cleanup {
                return Err(Stop::Pending(
                    "harness: the engine is not at clean up".into(),
                ));
            }
            // The clean up is automatic (2.32): the engine's own step, stopped before the
            // fate checks so that the state it leaves can be read.
            next.clean_up(events);
            next.now.step = Step::Fate;
            Ok(())
        }
        Op::Free(brigade) => {
            let free = next.battle.brigade_named(&brigade).map(Marker::Free);
            if !next.now.track.iter().any(|m| Some(*m) == free) {
                return Err(Stop::Skipped("the engine places no free activation".into()));
            }
            Ok(())
        }
    }
}

/// Applies the step to a copy, feeding its dice whenever the engine waits for chance; a
/// refusal of any of its orders refuses the step and leaves the game as it was.
fn apply(g: &mut BrothersAtWar, case: &Case, index: usize) -> Result<Done, String> {
    let step = &case.steps[index];
    let mut next = g.clone();
    let mut events = Vec::new();
    let mut dice = dice(case, index);
    let ids: Vec<_> = step.units.iter().filter_map(|u| g.unit_named(u)).collect();
    let start = points(g, &step.units).map_or(0, |p| p.0);
    let mut last = points(g, &step.units);
    for op in ops(case, index)? {
        let pre = points(&next, &step.units);
        let count = events.len();
        let free_fire = pre.is_none_or(|p| p.0 == 0)
            && !ids.is_empty()
            && ids
                .iter()
                .all(|&u| next.formation(u) == Formation::Deployed);
        match run(&mut next, case, step, op, &mut dice, &mut events) {
            Ok(()) => {}
            Err(Stop::Refused(r)) => return Ok(Done::Refused(r)),
            Err(Stop::Skipped(why)) => return Ok(Done::Skipped(why)),
            Err(Stop::Pending(why)) => return Err(why),
            Err(Stop::Disagree(what)) => return Ok(Done::Disagree(what)),
        }
        last = match (pre, points(&next, &step.units)) {
            (_, Some(post)) => Some(post),
            // The order ended the activation: its price on top of what was spent, against
            // the rating of the side now face up (5.221).
            (Some((spent, allowance)), None) => {
                let flipped = events[count..]
                    .iter()
                    .any(|e| matches!(e, Event::Formed { .. }));
                let allowance = if flipped {
                    next.allowance(&ids, false)
                } else {
                    allowance
                };
                Some((
                    spent.saturating_add(ending_cost(&events[count..], free_fire)),
                    allowance,
                ))
            }
            (None, None) if !ids.is_empty() => Some((
                ending_cost(&events[count..], free_fire),
                next.allowance(&ids, false),
            )),
            (None, None) => last,
        };
    }
    // A retreat or a reserve the case's defender chooses and the engine never offered:
    // nothing to order (6.732 a, 6.76, 8.11).
    let a = &dice.answers;
    if dice.refused {
        let retreated = events
            .iter()
            .any(|e| matches!(e, Event::Combat(CombatEvent::Retreated { .. })));
        if !a.path.is_empty() && !a.asked_path && !retreated {
            return Ok(Done::Skipped("the engine offers no retreat".into()));
        }
        if a.reserves.is_some_and(|n| n > 0) && !a.asked_reserve {
            return Ok(Done::Skipped("the engine asks for no reserve".into()));
        }
    }
    let before = Box::new(g.clone());
    *g = next;
    let mp = last
        .map(|(spent, allowance)| (spent.saturating_sub(start), allowance.saturating_sub(spent)));
    Ok(Done::Accepted {
        mp,
        events,
        before,
        to_hit: dice.to_hit,
    })
}

/// Movement points the active group has spent, and its allowance, when it holds one of
/// `units`: the other unit of a stack may join the unit acting, the points it spent being
/// the stack's (5.34's example, B61).
fn points(g: &BrothersAtWar, units: &[String]) -> Option<(u8, u8)> {
    let group = g.now.activation.as_ref()?.group.as_ref()?;
    let ids: Vec<_> = units.iter().filter_map(|u| g.unit_named(u)).collect();
    if !ids.iter().any(|u| group.units.contains(u)) {
        return None;
    }
    Some((group.spent, g.allowance(&group.units, group.road_march)))
}

/// Replays one case.
pub fn replay(case: &Case, chart: &Chart) -> Replay {
    let mut g = match setup::game(case, chart) {
        Ok(g) => g,
        Err(e) => return Replay::Ran(vec![format!("the case does not set up: {e}")]),
    };
    // 4.12, B47: a case that places a displaced commander makes his owner
    // asked where he goes (`PATHS ... ASK`); its step answers.
    for step in &case.steps {
        let other = step.brigade.is_some() && step.brigade != setup::active(case);
        if step.action == f::Action::MoveCommander
            && other
            && step.expect.result == Outcome::Accepted
        {
            let brigade = step.brigade.clone().unwrap_or_default();
            let asked = g
                .battle
                .brigade_named(&brigade)
                .map(|b| g.battle.brigade_side(b));
            if let (Some(side), Ok(o)) = (asked, g.parse_order(&format!("PATHS {brigade} ASK"))) {
                if let Err(e) = g.apply_standing(side, &o) {
                    return Replay::Ran(vec![format!("PATHS {brigade} ASK refused: {e}")]);
                }
            }
        }
    }
    let mut found = Vec::new();
    let mut phase_over = false;
    for (i, step) in case.steps.iter().enumerate() {
        if phase_over {
            return Replay::Pending(format!(
                "step {}: engine: after the activation phase ends the engine runs the end phase \
                 and the next turn's preparation by itself (no decision in them), so a step the \
                 case places in the ended phase cannot be ordered",
                i + 1
            ));
        }
        let done = match apply(&mut g, case, i) {
            Ok(d) => d,
            Err(why) => return Replay::Pending(format!("step {}: {why}", i + 1)),
        };
        phase_over = matches!(&done, Done::Accepted { events, .. }
            if events.iter().any(|e| matches!(e, Event::ActivationPhaseEnds)));
        let mut out = Vec::new();
        let rule = step.expect.rule.clone().unwrap_or_default();
        let stop = matches!(done, Done::Disagree(_));
        match (done, step.expect.result) {
            (Done::Disagree(what), _) => out.push(what),
            (Done::Refused(r), Outcome::Refused) => {
                if rule != r.rule().0 {
                    out.push(format!(
                        "refused under {rule} by the case, under {} by the engine ({r})",
                        r.rule().0
                    ));
                }
            }
            (Done::Refused(r), Outcome::Accepted) => out.push(format!(
                "the case accepts it, the engine refuses: {} ({r})",
                r.rule().0
            )),
            // Nothing happens in the engine where the case refuses: they agree on the
            // outcome; the engine has no refusal whose rule could be compared.
            (Done::Skipped(_), Outcome::Refused) => {}
            (Done::Skipped(why), Outcome::Accepted) => {
                out.push(format!("the case accepts it, but {why}"))
            }
            (Done::Accepted { .. }, Outcome::Refused) => out.push(format!(
                "the case refuses it under {rule}, the engine accepts it"
            )),
            (
                Done::Accepted {
                    mp,
                    events,
                    before,
                    to_hit,
                },
                Outcome::Accepted,
            ) => {
                let seen = Seen { mp, to_hit };
                if let Err(unread) = compare(&before, &g, case, step, &seen, &events, &mut out) {
                    return Replay::Pending(format!("step {}: {unread}", i + 1));
                }
            }
        }

        found.extend(
            out.into_iter()
                .map(|o| format!("step {} ({:?}): {o}", i + 1, step.action)),
        );
        // The engine stood still where the case went on: later steps would replay from
        // another position than the case's.
        if stop {
            found.push(format!("steps after {} not replayed", i + 1));
            break;
        }
    }
    Replay::Ran(found)
}
