//! What a replayed step left in the engine compared with everything the case expects
//! of it: only the fields a step writes are checked (README "Steps").

use std::collections::BTreeSet;

use orderly::games::brothers_at_war::core::combat::{CombatEvent, SaveLine};
use orderly::games::brothers_at_war::core::event::{Event, Fate};
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};

use crate::format::{self as f, Case, CheckResult, Kind, Phase, Side, Status};
use crate::setup;

/// What the replay read of a step besides the engine's state and events.
pub struct Seen {
    /// Movement points the step spent and left, when its units activated.
    pub mp: Option<(u8, u8)>,
    /// The to-hit number of each assaulting unit (7.11).
    pub to_hit: Vec<u8>,
}

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
        Place::Track(turn) => format!("turn track {turn}"),
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
    seen: &Seen,
    events: &[Event],
    out: &mut Vec<String>,
) -> Result<(), String> {
    let mp = seen.mp;
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
    fire(before, g, case, step, seen, events, &mut differ)
}

/// A save factor as the engine words it (B77), as the cases name it (README "Save
/// factors"), once per die.
fn factor(line: &SaveLine) -> String {
    let w = line.why.as_str();
    let named = |prefix: &str, name: &str| w.strip_prefix(prefix).map(|t| format!("{name}:{t}"));
    named("hindrance: ", "hindrance")
        .or_else(|| named("heavy cover: ", "heavy"))
        .or_else(|| named("cover: ", "cover"))
        .unwrap_or_else(|| {
            match w {
                "moving fire" => "moving",
                "hex between" | "hexes between" => "range",
                "loose formation or Disrupted" => "formation",
                "different levels" => "elevation",
                "skirmisher in a building" => "skirmisher_building",
                "retreat" | "long retreat" => "retreat",
                "off-board card" => "card",
                other => other,
            }
            .to_string()
        })
}

/// A fire step's expectations against the engine's combat events; `Err` names what the
/// engine does not report, so that the case waits rather than counts as replayed.
fn fire(
    before: &BrothersAtWar,
    g: &BrothersAtWar,
    case: &Case,
    step: &f::Step,
    seen: &Seen,
    events: &[Event],
    differ: &mut dyn FnMut(&str, String, String),
) -> Result<(), String> {
    let e = &step.expect;
    let combat = || {
        events.iter().filter_map(|e| match e {
            Event::Combat(c) => Some(c),
            _ => None,
        })
    };
    let declared = combat().find_map(|c| match c {
        CombatEvent::Fire {
            target,
            dice,
            to_hit,
            cap,
            pass_through,
            range,
            ..
        } => Some((*target, *dice, *to_hit, *cap, *pass_through, *range)),
        _ => None,
    });
    let writes_fire = e.target.is_some()
        || e.range.is_some()
        || e.firepower.is_some()
        || e.to_hit.is_some()
        || e.max_hits.is_some()
        || e.hits.is_some()
        || e.saves.is_some()
        || !e.save_factors.is_empty()
        || e.unsaved.is_some()
        || e.pass_through.is_some();
    if step.action == f::Action::Assault {
        return assault(g, step, seen, events, differ);
    }
    if !writes_fire {
        return Ok(());
    }
    let Some((target, dice, to_hit, cap, pass_through, fired_range)) = declared else {
        differ("fire", "an attack".to_string(), "no attack".to_string());
        return Ok(());
    };
    let number = |n: Option<u8>| n.map(|v| v.to_string());
    if let Some(t) = &e.target {
        differ("target", t.clone(), target.to_string());
    }
    if let Some(p) = e.pass_through {
        differ(
            "pass-through (6.4)",
            p.to_string(),
            (pass_through > 0).to_string(),
        );
    }
    if let Some(r) = e.range {
        // Where the firers stood when they fired. A skirmisher answering a unit that
        // enters next to it may already be back on its display (6.151, 9.14); reacting
        // units never move, so the case's hex is theirs.
        let stood = |u: &String| {
            let at = before.unit_named(u).and_then(|id| before.hex_of(id));
            at.or_else(|| {
                let unit = case.units.iter().find(|c| &c.id == u)?;
                setup::hex(&unit.hex).ok()
            })
        };
        let hexes: Option<Vec<_>> = step.units.iter().map(stood).collect();
        let range = match hexes.filter(|h| !h.is_empty()) {
            // At a battery the range runs on past its fire point (9.431): the
            // engine's own.
            Some(_) if step.target_unit.is_some() => u32::from(fired_range),
            Some(hexes) => hexes.iter().map(|h| h.distance(target)).max().unwrap_or(0),
            // An off-board battery has no hex: its range is the engine's own,
            // counted from its fire point (9.41).
            None => u32::from(fired_range),
        };
        differ("range", r.to_string(), range.to_string());
    }
    let successes = combat().find_map(|c| match c {
        CombatEvent::Rolled { successes, .. } => Some(*successes),
        _ => None,
    });
    let saves: Vec<String> = combat()
        .filter_map(|c| match c {
            CombatEvent::Saves { lines, .. } => Some(lines),
            _ => None,
        })
        .take(1)
        .flatten()
        .flat_map(|l| std::iter::repeat_n(factor(l), usize::from(l.rolls)))
        .collect();
    let unsaved = combat().find_map(|c| match c {
        CombatEvent::Hits { hits, .. } => Some(*hits),
        _ => None,
    });
    let pairs = [
        ("firepower", number(e.firepower), Some(dice.to_string())),
        ("to hit", number(e.to_hit), Some(to_hit.to_string())),
        ("max hits", number(e.max_hits), Some(cap.to_string())),
        // The case's hits are the successes within the cap, before saves.
        (
            "hits",
            number(e.hits),
            successes.map(|s| s.min(cap).to_string()),
        ),
        ("saves", number(e.saves), Some(saves.len().to_string())),
        ("unsaved", number(e.unsaved), unsaved.map(|u| u.to_string())),
    ];
    for (what, want, have) in pairs {
        if let Some(want) = want {
            differ(what, want, have.unwrap_or_else(|| "none".to_string()));
        }
    }
    if !e.save_factors.is_empty() {
        let mut want = e.save_factors.clone();
        want.sort();
        let mut have = saves;
        have.sort();
        differ("save factors", format!("{want:?}"), format!("{have:?}"));
    }
    // The engine picks the retreat path (B92) and the unit of a stack that is lost (B83)
    // itself: where it picks another than the case's owner, the case cannot be ordered.
    if !step.retreat.is_empty() {
        let path = combat().find_map(|c| match c {
            CombatEvent::Retreated { path, .. } => Some(path.clone()),
            _ => None,
        });
        let have = path.map(|p| p.iter().map(|h| h.to_string()).collect::<Vec<_>>());
        match have {
            Some(p) if p != step.retreat => {
                let (took, case) = (p.join(" "), step.retreat.join(" "));
                return Err(format!(
                    "engine: no order names a retreat path (6.7, PATHS ASK): {took}, not {case}"
                ));
            }
            Some(_) => {}
            None => differ("retreat", step.retreat.join(" "), "none".to_string()),
        }
    }
    if let Some(pick) = step.choice.as_ref().filter(|c| g.unit_named(c).is_some()) {
        let lost = combat().find_map(|c| match c {
            CombatEvent::Eliminated { unit } => Some(unit.clone()),
            _ => None,
        });
        if lost.as_ref().is_some_and(|l| !l.eq_ignore_ascii_case(pick)) {
            return Err(
                "engine: no order names the unit of a stack that is lost (5.38, LOSSES ASK)".into(),
            );
        }
    }
    if let Some(n) = step.reserves {
        let spent = combat()
            .filter(|c| matches!(c, CombatEvent::ReserveSpent { .. }))
            .count();
        differ("reserves spent", n.to_string(), spent.to_string());
    }
    Ok(())
}

/// An assault step's expectations against the engine's assault events (7.1).
fn assault(
    g: &BrothersAtWar,
    step: &f::Step,
    seen: &Seen,
    events: &[Event],
    differ: &mut dyn FnMut(&str, String, String),
) -> Result<(), String> {
    let e = &step.expect;
    let combat = || {
        events.iter().filter_map(|e| match e {
            Event::Combat(c) => Some(c),
            _ => None,
        })
    };
    let declared = combat().find_map(|c| match c {
        CombatEvent::Assault { attack_dice, .. } => Some(*attack_dice),
        _ => None,
    });
    let won = combat().find_map(|c| match c {
        CombatEvent::AssaultWon {
            winner,
            attacker_hits,
            defender_hits,
        } => Some((*winner, *attacker_hits, *defender_hits)),
        _ => None,
    });
    let evaded = combat().any(|c| matches!(c, CombatEvent::Evaded { .. }));
    if step.choice.as_deref() == Some("retreat_before") && !step.retreat.is_empty() {
        let path = combat().find_map(|c| match c {
            CombatEvent::Retreated { path, .. } => Some(path.clone()),
            _ => None,
        });
        let have = path.map(|p| p.iter().map(|h| h.to_string()).collect::<Vec<_>>());
        if have.as_ref().is_some_and(|p| *p != step.retreat) {
            return Err(
                "engine: no order names the path of a retreat before an assault (7.3, PATHS ASK)"
                    .into(),
            );
        }
        differ(
            "retreat before the assault",
            "made".to_string(),
            if evaded { "made" } else { "not made" }.to_string(),
        );
    }
    let none = || "none".to_string();
    if let Some(fp) = e.firepower {
        differ(
            "firepower",
            fp.to_string(),
            declared.map_or_else(none, |d| d.to_string()),
        );
    }
    if let Some(t) = e.to_hit {
        let have = match seen.to_hit.as_slice() {
            [] => none(),
            [first, rest @ ..] if rest.iter().all(|x| x == first) => first.to_string(),
            mixed => format!("{mixed:?}"),
        };
        differ("to hit", t.to_string(), have);
    }
    if let Some(h) = e.hits {
        differ(
            "hits",
            h.to_string(),
            won.map_or_else(none, |w| w.2.to_string()),
        );
    }
    if let Some(h) = e.enemy_hits {
        differ(
            "enemy hits",
            h.to_string(),
            won.map_or_else(none, |w| w.1.to_string()),
        );
    }
    if let Some(w) = e.winner {
        let attacker = step
            .units
            .first()
            .and_then(|u| g.unit_named(u))
            .map(|u| g.side_of(u));
        // A defender that retreats before the assault leaves the hex to the attacker
        // without dice (7.3).
        let won = won.or(attacker.filter(|_| evaded).map(|a| (a, 0, 0)));
        let have = won.map_or_else(none, |(winner, ..)| {
            if Some(winner) == attacker {
                "Attacker"
            } else {
                "Defender"
            }
            .to_string()
        });
        differ("winner", format!("{w:?}"), have);
    }
    for (what, written) in [
        ("max_hits", e.max_hits.is_some()),
        ("saves", e.saves.is_some() || !e.save_factors.is_empty()),
        ("unsaved", e.unsaved.is_some()),
        ("range", e.range.is_some()),
    ] {
        if written {
            return Err(format!("harness: an assault's {what} is not read"));
        }
    }
    Ok(())
}
