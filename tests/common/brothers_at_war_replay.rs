//! Replaying a rule case against the engine: each step as the engine's orders (its dice
//! as chance orders), then every expectation the step writes compared with the engine's
//! state. A step the engine answers "not playable yet", or one the harness cannot word
//! as orders yet, makes the case pending with the reason; a disagreement is reported, never
//! smoothed over.

use std::collections::BTreeSet;

use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use orderly::games::brothers_at_war::engine::activation::{FORM_COST, HOLD_COST};
use orderly::games::brothers_at_war::engine::Refusal;
use orderly::games::{CitesRule, Game};

use crate::format::{self as f, Action, Case, Kind, Outcome, Phase, Side, Status};
use crate::setup::{self, Chart};

/// What replaying a case came to.
#[derive(Debug)]
pub enum Replay {
    /// Every step ran: the disagreements found (none when the engine agrees).
    Ran(Vec<String>),
    /// A step waits for a part of the engine, or of the harness: why.
    Pending(String),
}

/// What one step did in the engine: accepted with its events and the movement points
/// it spent and left to its units (when they activated), or refused.
enum Done {
    Accepted(Option<(u8, u8)>),
    Refused(Refusal),
}

/// What an order that ended the group's activation cost beyond the hexes it entered: the
/// engine's own prices of a formation change (5.22) and of hold fire (5.25).
fn ending_cost(events: &[Event]) -> u8 {
    events
        .iter()
        .map(|e| match e {
            Event::Moved { cost, .. } => *cost,
            Event::Formed { .. } => FORM_COST,
            Event::Ended {
                finished: false, ..
            } => HOLD_COST,
            _ => 0,
        })
        .sum()
}

/// The orders of one step, or why it cannot be worded yet.
fn orders(case: &Case, step: &f::Step) -> Result<Vec<String>, String> {
    let units = step.units.join(" ");
    let pending = |why: &str| Err(why.to_string());
    let mut out = Vec::new();
    match step.action {
        Action::Move => {
            if !step.path.is_empty() {
                out.push(format!("{units} MOVE {}", step.path.join(" ")));
            }
            match step.choice.as_deref() {
                Some("end") => out.push(format!("{units} DONE")),
                Some("exit_map") => out.push(format!("{units} EXIT")),
                Some(other) => return Err(format!("harness: move choice {other} not worded")),
                None => {}
            }
        }
        Action::ChangeFormation => out.push(format!("{units} FORM")),
        Action::HoldFire => out.push(format!("{units} HOLD")),
        Action::EndActivation => out.push(format!("{units} DONE")),
        Action::DeploySkirmisher => {
            let sk = step
                .skirmisher
                .as_deref()
                .ok_or("a deploy without skirmisher")?;
            if step.choice.as_deref() == Some("independent") {
                return pending(
                    "engine: no order places an independent skirmisher away from its parent (9.19 b)",
                );
            }
            let mounted = step.formation == Some(f::Formation::Mounted);
            let m = if mounted { " MOUNTED" } else { "" };
            out.push(format!("{units} DEPLOY {sk}{m}"));
        }
        Action::DisbandSkirmisher => {
            let sk = step
                .skirmisher
                .as_deref()
                .or(step.units.first().map(|s| s.as_str()));
            out.push(format!(
                "{} DISBAND",
                sk.ok_or("a disband without skirmisher")?
            ));
        }
        Action::Pass => {
            if step.expect.hands.is_some() || case.state.hands.is_some() {
                return pending(
                    "battle cards (11): the harness builds no deck of the 11.3 cards yet",
                );
            }
            out.push("PASS".to_string());
        }
        Action::MoveCommander => {
            let to = step
                .target
                .as_deref()
                .ok_or("a commander move without target")?;
            if step.brigade.is_some() && step.brigade != setup::active(case) {
                return pending(
                    "engine: no order displaces another brigade's commander (4.12, B47)",
                );
            }
            out.push("END".to_string());
            out.push(format!("COMMANDER {to}"));
        }
        Action::Fire => {
            let at = step
                .target
                .as_deref()
                .ok_or("fire at off-board artillery (9.43): no order names a card's unit")?;
            out.push(format!("{units} FIRE {at}"));
        }
        Action::Assault => out.push(format!("{units} MOVE {}", step.path.join(" "))),
        Action::Retreat => out.push(format!("RETREAT {}", step.path.join(" "))),
        Action::SpendReserve => out.push("SPEND RESERVE".to_string()),
        Action::OpportunityFire | Action::PointBlankFire => {
            return pending("engine: no order for a reaction fire yet (6.12, 6.15: baw-combat)")
        }
        Action::EliminateSkirmisher => {
            return pending(
                "engine: no order trades a skirmisher for a reserve yet (8.133: baw-combat)",
            )
        }
        Action::PlayCard => {
            return pending("battle cards (11): the harness builds no deck of the 11.3 cards yet")
        }
        Action::Recover
        | Action::RallyCheck
        | Action::CommandCheck
        | Action::FateCheck
        | Action::DrawMarker
        | Action::CleanUp
        | Action::DiscardAndDraw => {
            return Err(format!(
                "harness: the turn-sequence step {:?} is not worded as orders yet",
                step.action
            ))
        }
    }
    Ok(out)
}

/// Applies the step's orders to a copy, feeding its dice whenever the engine waits for
/// chance; a refusal of any of them refuses the step and leaves the game as it was.
fn apply(g: &mut BrothersAtWar, case: &Case, step: &f::Step) -> Result<Done, String> {
    let mut next = g.clone();
    let mut events = Vec::new();
    let mut dice: Vec<u8> = step
        .dice
        .iter()
        .chain(&step.enemy_dice)
        .chain(&step.save_dice)
        .copied()
        .collect();
    let ids: Vec<_> = step.units.iter().filter_map(|u| g.unit_named(u)).collect();
    let start = points(g, &step.units).map_or(0, |p| p.0);
    let mut last = points(g, &step.units);
    for text in orders(case, step)? {
        let pre = points(&next, &step.units);
        let count = events.len();
        let order = next
            .parse_order(&text)
            .map_err(|e| format!("harness: {text} does not parse: {e:?}"))?;
        match next.apply(&order) {
            Ok(e) => events.extend(e),
            Err(Refusal::NotYet { what, rule }) => {
                return Err(format!("engine: {what} is not playable yet ({rule})"))
            }
            Err(r) => return Ok(Done::Refused(r)),
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
                    spent.saturating_add(ending_cost(&events[count..])),
                    allowance,
                ))
            }
            (None, None) if !ids.is_empty() => {
                Some((ending_cost(&events[count..]), next.allowance(&ids, false)))
            }
            (None, None) => last,
        };
        while next.draw_pending().is_some() && !dice.is_empty() {
            let k = match next.draw_pending() {
                Some(orderly::games::brothers_at_war::engine::apply::Draw::Checks(k)) => k,
                other => return Err(format!("harness: the engine waits for {other:?}")),
            };
            let roll: Vec<String> = dice
                .drain(..k.min(dice.len()))
                .map(|d| d.to_string())
                .collect();
            let order = next
                .parse_order(&format!("ROLL {}", roll.join(" ")))
                .map_err(|e| format!("harness: {e:?}"))?;
            match next.apply(&order) {
                Ok(e) => events.extend(e),
                Err(r) => return Ok(Done::Refused(r)),
            }
        }
    }
    *g = next;
    let mp = last
        .map(|(spent, allowance)| (spent.saturating_sub(start), allowance.saturating_sub(spent)));
    Ok(Done::Accepted(mp))
}

/// Movement points the active group has spent, and its allowance, when it is `units`.
fn points(g: &BrothersAtWar, units: &[String]) -> Option<(u8, u8)> {
    let group = g.now.activation.as_ref()?.group.as_ref()?;
    let ids: Vec<_> = units.iter().filter_map(|u| g.unit_named(u)).collect();
    if !ids.iter().all(|u| group.units.contains(u)) {
        return None;
    }
    Some((group.spent, g.allowance(&group.units, group.road_march)))
}

fn marker_name(g: &BrothersAtWar, m: &Marker) -> String {
    match m {
        Marker::Countdown => "countdown".to_string(),
        Marker::Brigade(b, _) => g.battle.scenario.brigades[b.index()].id.clone(),
        Marker::Free(b) => format!("free:{}", g.battle.scenario.brigades[b.index()].id),
    }
}

fn place_name(p: Place) -> String {
    match p {
        Place::Map(h) => h.to_string(),
        Place::Display => "display".to_string(),
        Place::Waiting => "offmap".to_string(),
        Place::OffBoard => "offboard".to_string(),
        Place::Eliminated => "eliminated".to_string(),
        Place::Removed => "removed".to_string(),
        Place::Exited => "exited".to_string(),
    }
}

fn phase_of(step: &Step) -> Option<Phase> {
    Some(match step {
        Step::Deal | Step::Preparation | Step::Commitment(_) | Step::FreeTie | Step::Free => {
            Phase::Preparation
        }
        Step::Select
        | Step::Recovery(_)
        | Step::Units(_)
        | Step::PassDiscard(_)
        | Step::Commander(_) => Phase::Activation,
        Step::EndDiscard(_) | Step::EndDraw | Step::Cleanup | Step::Fate | Step::Advance => {
            Phase::End
        }
        Step::Over => return None,
    })
}

/// Every expectation of an accepted step compared with the engine's state.
fn compare(
    g: &BrothersAtWar,
    case: &Case,
    step: &f::Step,
    mp: Option<(u8, u8)>,
    out: &mut Vec<String>,
) {
    let e = &step.expect;
    let mut differ = |what: &str, case_says: String, engine: String| {
        if case_says != engine {
            out.push(format!(
                "{what}: the case says {case_says}, the engine {engine}"
            ));
        }
    };
    let none = || "no unit activated".to_string();
    if let Some(spent) = e.mp_spent {
        let engine = mp.map_or_else(none, |(s, _)| s.to_string());
        differ("MP spent", spent.to_string(), engine);
    }
    if let Some(left) = e.mp_left {
        let engine = mp.map_or_else(none, |(_, l)| l.to_string());
        differ("MP left", left.to_string(), engine);
    }
    for u in &e.units {
        if let Some(c) = case
            .units
            .iter()
            .find(|c| c.id == u.id && c.kind == Kind::Commander)
        {
            let b = c.brigade.as_deref().and_then(|b| g.battle.brigade_named(b));
            if let (Some(h), Some(b)) = (&u.hex, b) {
                let at = g
                    .brigade(b)
                    .commander
                    .map_or("off map".to_string(), |h| h.to_string());
                differ(&format!("{} hex", u.id), h.clone(), at);
            }
            continue;
        }
        let Some(id) = g.unit_named(&u.id) else {
            differ(&u.id, "a unit".to_string(), "no such unit".to_string());
            continue;
        };
        let s = g.unit(id);
        if let Some(h) = &u.hex {
            differ(&format!("{} hex", u.id), h.clone(), place_name(s.place));
        }
        if let Some(fm) = u.formation {
            let kind = case.units.iter().find(|c| c.id == u.id).map(|c| c.kind);
            let want = setup::face(kind.unwrap_or(Kind::Infantry), Some(fm));
            differ(
                &format!("{} formation", u.id),
                format!("{fm:?}"),
                if want == s.face {
                    format!("{fm:?}")
                } else {
                    format!("{:?}", g.formation(id))
                },
            );
        }
        if let Some(st) = &u.status {
            let want: BTreeSet<String> = st.iter().map(|x| format!("{x:?}")).collect();
            let mut have = BTreeSet::new();
            // One Finished or Disrupted marker a hex, Disrupted winning (1.5, B44): a unit
            // the engine keeps both on shows Disrupted, as the case format writes it.
            for (on, x) in [
                (s.finished && !s.disrupted, Status::Finished),
                (s.disrupted, Status::Disrupted),
                (s.out_of_command, Status::OutOfCommand),
            ] {
                if on {
                    have.insert(format!("{x:?}"));
                }
            }
            differ(
                &format!("{} status", u.id),
                format!("{want:?}"),
                format!("{have:?}"),
            );
        }
    }
    for (list, place) in [
        (&e.eliminated, Place::Eliminated),
        (&e.disbanded, Place::Display),
    ] {
        for u in list {
            let at = g.unit_named(u).map(|id| place_name(g.unit(id).place));
            differ(u, place_name(place), at.unwrap_or_default());
        }
    }
    for b in &e.brigades {
        let Some(id) = g.battle.brigade_named(&b.id) else {
            continue;
        };
        let s = g.brigade(id);
        let pairs = [
            (
                "reserve",
                b.reserve.map(|v| v.to_string()),
                s.reserve.to_string(),
            ),
            (
                "casualties",
                b.casualties.map(|v| v.to_string()),
                s.casualties.to_string(),
            ),
            (
                "exhausted",
                b.exhausted.map(|v| v.to_string()),
                s.exhausted.to_string(),
            ),
            (
                "broken",
                b.broken.map(|v| v.to_string()),
                s.broken.to_string(),
            ),
        ];
        for (what, want, have) in pairs {
            if let Some(want) = want {
                differ(&format!("{} {what}", b.id), want, have);
            }
        }
    }
    if !e.control.is_empty() {
        let want: BTreeSet<String> = e
            .control
            .iter()
            .map(|c| format!("{}:{:?}", c.hex, c.side))
            .collect();
        let have: BTreeSet<String> = g
            .now
            .control
            .iter()
            .map(|(h, s)| {
                let seat = if *s == setup::side(Side::North) {
                    Side::North
                } else {
                    Side::South
                };
                format!("{h}:{seat:?}")
            })
            .collect();
        differ("control", format!("{want:?}"), format!("{have:?}"));
    }
    if let Some(t) = &e.track {
        let have: Vec<String> = g.now.track.iter().map(|m| marker_name(g, m)).collect();
        differ("track", format!("{t:?}"), format!("{have:?}"));
    }
    if let Some(c) = &e.cup {
        let mut want = c.clone();
        want.sort();
        let mut have: Vec<String> = g.now.cup.iter().map(|m| marker_name(g, m)).collect();
        have.sort();
        differ("cup", format!("{want:?}"), format!("{have:?}"));
    }
    if let Some(n) = e.countdown_box {
        differ(
            "countdown box",
            n.to_string(),
            g.now.countdown_box.to_string(),
        );
    }
    if let Some(x) = &e.exhausted_box {
        let have: Vec<String> = g
            .now
            .exhausted_box
            .iter()
            .map(|b| g.battle.scenario.brigades[b.index()].id.clone())
            .collect();
        differ("exhausted box", format!("{x:?}"), format!("{have:?}"));
    }
    if let Some(x) = &e.uncommitted {
        let have: Vec<String> = g
            .battle
            .brigade_ids()
            .filter(|&b| !g.brigade(b).committed && !g.brigade(b).committing)
            .map(|b| g.battle.scenario.brigades[b.index()].id.clone())
            .collect();
        differ("uncommitted", format!("{x:?}"), format!("{have:?}"));
    }
    if let Some(p) = e.phase {
        differ(
            "phase",
            format!("{p:?}"),
            format!("{:?}", phase_of(&g.now.step)),
        );
    }
    if let Some(h) = &e.hands {
        let have = format!("{}/{}", g.now.hands[0].len(), g.now.hands[1].len());
        differ("hands", format!("{}/{}", h.north, h.south), have);
    }
    // The fields of fire, assault and checks: no replayed step writes them yet; one that
    // does must be read from the engine before it counts as replayed.
    let unread = [
        ("range", e.range.is_some()),
        ("firepower", e.firepower.is_some()),
        ("to_hit", e.to_hit.is_some()),
        ("max_hits", e.max_hits.is_some()),
        ("pass_through", e.pass_through.is_some()),
        ("hits", e.hits.is_some()),
        ("saves", e.saves.is_some() || !e.save_factors.is_empty()),
        ("unsaved", e.unsaved.is_some()),
        ("enemy_hits", e.enemy_hits.is_some()),
        ("winner", e.winner.is_some()),
        ("check", e.check.is_some()),
        ("modifier", e.modifier.is_some()),
        ("fate", e.fate.is_some()),
        ("remnant", e.remnant.is_some()),
    ];
    for (what, written) in unread {
        if written {
            out.push(format!("harness: does not read {what} from the engine yet"));
        }
    }
}

/// Replays one case.
pub fn replay(case: &Case, chart: &Chart) -> Replay {
    let mut g = match setup::game(case, chart) {
        Ok(g) => g,
        Err(e) => return Replay::Ran(vec![format!("the case does not set up: {e}")]),
    };
    let mut found = Vec::new();
    for (i, step) in case.steps.iter().enumerate() {
        let done = match apply(&mut g, case, step) {
            Ok(d) => d,
            Err(why) => return Replay::Pending(format!("step {}: {why}", i + 1)),
        };
        let mut out = Vec::new();
        match (done, step.expect.result) {
            (Done::Refused(r), Outcome::Refused) => {
                let want = step.expect.rule.clone().unwrap_or_default();
                if want != r.rule().0 {
                    out.push(format!(
                        "refused under {want} by the case, under {} by the engine ({r})",
                        r.rule().0
                    ));
                }
            }
            (Done::Refused(r), Outcome::Accepted) => out.push(format!(
                "the case accepts it, the engine refuses: {} ({r})",
                r.rule().0
            )),
            (Done::Accepted(..), Outcome::Refused) => out.push(format!(
                "the case refuses it under {}, the engine accepts it",
                step.expect.rule.clone().unwrap_or_default()
            )),
            (Done::Accepted(mp), Outcome::Accepted) => compare(&g, case, step, mp, &mut out),
        }
        found.extend(
            out.into_iter()
                .map(|o| format!("step {} ({:?}): {o}", i + 1, step.action)),
        );
    }
    Replay::Ran(found)
}
