//! What a replayed step left in the engine compared with everything the case expects
//! of it: only the fields a step writes are checked (README "Steps").

use std::collections::BTreeSet;

use orderly::games::brothers_at_war::core::event::{Event, Fate};
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};

use crate::format::{self as f, Case, CheckResult, Kind, Phase, Side, Status};
use crate::setup;

/// A marker as the cases name it: its brigade's id, `countdown` or `free` (2.321).
fn marker_name(g: &BrothersAtWar, m: &Marker) -> String {
    match m {
        Marker::Countdown => "countdown".to_string(),
        Marker::Brigade(b, _) => g.battle.scenario.brigades[b.index()].id.clone(),
        Marker::Free(_) => "free".to_string(),
    }
}

/// A placed marker as the engine's event names it (a brigade's name, `countdown`, or
/// `free` and a name), as the cases name it.
fn placed_name(g: &BrothersAtWar, marker: &str) -> String {
    if marker.starts_with("free ") {
        return "free".to_string();
    }
    g.battle
        .brigade_ids()
        .find(|&b| g.brigade_name(b) == marker)
        .map_or(marker.to_string(), |b| {
            g.battle.scenario.brigades[b.index()].id.clone()
        })
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
pub fn compare(
    before: &BrothersAtWar,
    g: &BrothersAtWar,
    case: &Case,
    step: &f::Step,
    mp: Option<(u8, u8)>,
    events: &[Event],
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
    // "Eliminated" in a case is removed from play (README): a casualty (6.54) or a unit
    // removed with its broken brigade (8.3, 2.33), whose commander goes with it.
    for u in &e.eliminated {
        let commander = case
            .units
            .iter()
            .find(|c| &c.id == u && c.kind == Kind::Commander);
        let have = match commander {
            Some(c) => {
                let b = c.brigade.as_deref().and_then(|b| g.battle.brigade_named(b));
                let gone =
                    b.is_some_and(|b| g.brigade(b).broken || g.brigade(b).commander.is_none());
                if gone { "removed" } else { "on the map" }.to_string()
            }
            None => g
                .unit_named(u)
                .map_or_else(String::new, |id| match g.unit(id).place {
                    Place::Eliminated | Place::Removed => "removed".to_string(),
                    p => place_name(p),
                }),
        };
        differ(u, "removed".to_string(), have);
    }
    for u in &e.disbanded {
        let at = g.unit_named(u).map(|id| place_name(g.unit(id).place));
        differ(u, place_name(Place::Display), at.unwrap_or_default());
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
    // The engine runs on through an end phase that needs no decision; the track the
    // activation phase ended with is the one before the step and the markers it placed.
    let ended = events
        .iter()
        .position(|e| matches!(e, Event::ActivationPhaseEnds));
    if let Some(t) = &e.track {
        let have: Vec<String> = match ended {
            Some(end) => {
                let mut track: Vec<String> = before
                    .now
                    .track
                    .iter()
                    .map(|m| marker_name(before, m))
                    .collect();
                track.extend(events[..end].iter().filter_map(|e| match e {
                    Event::MarkerPlaced { marker, .. } => Some(placed_name(g, marker)),
                    _ => None,
                }));
                track
            }
            None => g.now.track.iter().map(|m| marker_name(g, m)).collect(),
        };
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
        let now = match ended {
            Some(_) => Some(Phase::End),
            None => phase_of(&g.now.step),
        };
        differ(
            "phase",
            format!("{p:?}"),
            now.map_or("over".to_string(), |n| format!("{n:?}")),
        );
    }
    let checked = events.iter().find_map(|e| match e {
        Event::Checked { bonus, success, .. } => Some((*bonus, *success, None)),
        Event::FateChecked { bonus, fate, .. } => Some((*bonus, true, Some(*fate))),
        _ => None,
    });
    let nothing = || "no check".to_string();
    if let Some(c) = e.check {
        let want = format!("{c:?}");
        let have = checked.map_or_else(nothing, |(_, ok, _)| {
            format!(
                "{:?}",
                if ok {
                    CheckResult::Success
                } else {
                    CheckResult::Failure
                }
            )
        });
        differ("check", want, have);
    }
    if let Some(m) = e.modifier {
        differ(
            "modifier",
            m.to_string(),
            checked.map_or_else(nothing, |c| c.0.to_string()),
        );
    }
    if let Some(fate) = e.fate {
        let have = checked.and_then(|c| c.2).map(|f| match f {
            Fate::Break => f::Fate::Break,
            Fate::Exhausted => f::Fate::Exhausted,
            Fate::Regroup => f::Fate::Regroup,
        });
        differ("fate", format!("{:?}", Some(fate)), format!("{have:?}"));
    }
    if let Some(r) = &e.remnant {
        let at = events.iter().find_map(|e| match e {
            Event::RemnantPlaced { at, .. } => Some(at.to_string()),
            _ => None,
        });
        differ(
            "remnant",
            r.clone(),
            at.unwrap_or_else(|| "none placed".to_string()),
        );
    }
    if let Some(h) = &e.hands {
        let have = format!("{}/{}", g.now.hands[0].len(), g.now.hands[1].len());
        differ("hands", format!("{}/{}", h.north, h.south), have);
    }
    // The fields of fire, assault and checks: no replayed step writes them yet; one that
    // does must be read from the engine before it counts as replayed.
    let unread = [
        ("target", e.target.is_some()),
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
    ];
    for (what, written) in unread {
        if written {
            out.push(format!("harness: does not read {what} from the engine yet"));
        }
    }
}
