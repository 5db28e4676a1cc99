//! A rule case's step worded as what the engine is told: orders as players write them,
//! and the chance and automatic steps the service or the engine itself makes (a marker
//! drawn, dice for the checks waiting, the clean up step). A step that cannot be worded
//! yet says why and which part of the engine it waits for.

use orderly::games::brothers_at_war::core::line::{self, LineSide};
use orderly::games::brothers_at_war::core::state::CheckKind;
use orderly::games::brothers_at_war::core::Hex;

use crate::format::{self as f, Action, Case};
use crate::setup;

/// One thing the engine is told.
#[derive(Debug)]
pub enum Op {
    /// An order as players write it.
    Order(String),
    /// An order whose reaction fire waits for the next step's dice (6.12).
    Keep(String),
    /// The step's dice rolled for whatever the engine waits for.
    Roll,
    /// Nothing the engine can be told: why.
    Nothing(String),
    /// This brigade's commander displaced to this hex, as the engine does by itself
    /// (4.12, B47).
    Displaced(String, String),
    /// The remnant's hex named, if the engine asks where it goes (2.33, B110).
    Remnant(String),
    /// The opportunity attack the engine opened on the last step, rolled with this
    /// step's dice (6.12).
    Reaction,
    /// The marker of this name drawn from the cup (2.21); none: the active brigade's,
    /// when the game stands at the selection step (a case opening with its recovery).
    Draw(Option<String>),
    /// The step's dice rolled for the check of this kind waiting for its units or
    /// brigade (3.211, 4.31, 2.33).
    Check(CheckKind),
    /// The clean up step (2.32), which the engine runs by itself: no order.
    CleanUp,
    /// The free activation of this brigade (2.321), which the engine places by itself
    /// during the preparation phase: the step only looks for it.
    Free(String),
}

/// The unit a reaction step names first, and the instruction scope it answers to: its
/// brigade, or its side for a remnant (B5).
fn reactor<'a>(case: &'a Case, step: &f::Step) -> Result<(&'a f::Unit, String), String> {
    let unit = step
        .units
        .first()
        .and_then(|u| case.units.iter().find(|c| &c.id == u))
        .ok_or("a reaction by no unit of the case")?;
    let scope = unit.brigade.clone().unwrap_or_else(|| match unit.side {
        f::Side::North => "USA".to_string(),
        f::Side::South => "CSA".to_string(),
    });
    Ok((unit, scope))
}

/// Whether a step is a point blank fire made as the mover leaves (6.15), rather than a
/// skirmisher's answer to a unit entering next to it (6.151).
fn before_leaving(case: &Case, step: &f::Step) -> bool {
    step.action == Action::PointBlankFire
        && reactor(case, step).is_ok_and(|(u, _)| u.kind != f::Kind::Skirmisher)
}

/// The operations of one step, or why it cannot be worded yet.
pub fn ops(case: &Case, index: usize) -> Result<Vec<Op>, String> {
    let step = &case.steps[index];
    let units = step.units.join(" ");
    let pending = |why: &str| Err(why.to_string());
    let mut out = Vec::new();
    let reaction = case.steps.get(index + 1).filter(|next| {
        next.action == Action::OpportunityFire
            || (next.action == Action::PointBlankFire && !before_leaving(case, next))
    });
    let path = &step.path[..];
    match step.action {
        // A move answered by opportunity fire (6.12) or a skirmisher's point blank fire
        // (6.151): the reacting brigade's standing instruction allows it only for the
        // last hex entered, the one the case's reaction targets, and the attack's dice
        // are the reaction step's.
        Action::Move if reaction.is_some() && !path.is_empty() => {
            let next = reaction.ok_or("no reaction")?;
            let (_, scope) = reactor(case, next)?;
            let word = match next.action {
                Action::OpportunityFire => "OPFIRE",
                _ => "POINTBLANK",
            };
            let (last, before) = path.split_last().ok_or("an empty path")?;
            if !before.is_empty() {
                out.push(Op::Order(format!("{units} MOVE {}", before.join(" "))));
            }
            out.push(Op::Order(format!("{word} {scope} ALWAYS")));
            out.push(Op::Keep(format!("{units} MOVE {last}")));
            out.push(Op::Keep(format!("{word} {scope} NEVER")));
            if step.choice.is_some() {
                return pending("harness: a move choice before a reaction is not worded yet");
            }
        }
        // Point blank fire at a unit leaving (6.15): the reacting brigade's instruction
        // allows it for the next step's first hex. The engine fires before the unit
        // leaves and sets the move aside (B9), so the next step makes it again.
        Action::PointBlankFire if before_leaving(case, step) => {
            let next = case
                .steps
                .get(index + 1)
                .filter(|n| n.action == Action::Move && !n.path.is_empty())
                .ok_or("harness: point blank fire before no move")?;
            let (_, scope) = reactor(case, step)?;
            out.push(Op::Keep(format!("POINTBLANK {scope} ALWAYS")));
            out.extend(defender(case, step)?);
            out.push(Op::Keep(format!(
                "{} MOVE {}",
                next.units.join(" "),
                next.path[0]
            )));
            out.push(Op::Reaction);
            out.push(Op::Keep(format!("POINTBLANK {scope} NEVER")));
        }
        Action::OpportunityFire | Action::PointBlankFire => {
            out.extend(defender(case, step)?);
            out.push(Op::Reaction);
        }
        Action::Move => {
            if !path.is_empty() {
                out.push(Op::Order(format!("{units} MOVE {}", path.join(" "))));
            }
            match step.choice.as_deref() {
                Some("end") => out.push(Op::Order(format!("{units} DONE"))),
                Some("exit_map") => out.push(Op::Order(format!("{units} EXIT"))),
                Some(other) => return Err(format!("harness: move choice {other} not worded")),
                None => {}
            }
        }
        Action::ChangeFormation => out.push(Op::Order(format!("{units} FORM"))),
        Action::HoldFire => out.push(Op::Order(format!("{units} HOLD"))),
        Action::EndActivation => out.push(Op::Order(format!("{units} DONE"))),
        Action::DeploySkirmisher => {
            let sk = step
                .skirmisher
                .as_deref()
                .ok_or("a deploy without skirmisher")?;
            // 9.19 b, B115: an independent skirmisher goes from the display to
            // a hex next to its commander by a move of its own.
            if step.choice.as_deref() == Some("independent") {
                let to = step
                    .path
                    .first()
                    .ok_or("harness: an independent deployment names no hex")?;
                out.push(Op::Order(format!("{sk} MOVE {to}")));
                return Ok(out);
            }
            let mounted = step.formation == Some(f::Formation::Mounted);
            let m = if mounted { " MOUNTED" } else { "" };
            out.push(Op::Order(format!("{units} DEPLOY {sk}{m}")));
        }
        Action::DisbandSkirmisher => {
            let sk = step
                .skirmisher
                .as_deref()
                .or(step.units.first().map(|s| s.as_str()));
            out.push(Op::Order(format!(
                "{} DISBAND",
                sk.ok_or("a disband without skirmisher")?
            )));
        }
        // A pass draws a card (3.221); past the hand size the player discards one, the
        // new one here: the cases count cards, whichever they are.
        Action::Pass => out.push(Op::Order("PASS DISCARD NEW".to_string())),
        Action::MoveCommander => {
            let to = step
                .target
                .as_deref()
                .ok_or("a commander move without target")?;
            // Another brigade's commander moves only when displaced, which the engine
            // does itself (4.12, B47): the step looks for it.
            if step.brigade.is_some() && step.brigade != setup::active(case) {
                let brigade = step.brigade.clone().unwrap_or_default();
                out.push(match step.expect.result {
                    f::Outcome::Refused => {
                        Op::Nothing("no order moves another brigade's commander".to_string())
                    }
                    f::Outcome::Accepted => Op::Displaced(brigade, to.to_string()),
                });
                return Ok(out);
            }
            out.push(Op::Order("END UNITS".to_string()));
            out.push(Op::Order(format!("COMMANDER {to}")));
        }
        // 9.43, B147: a battery is fired at by its unit id.
        Action::Fire if step.target.is_none() => {
            let battery = step
                .target_unit
                .as_deref()
                .ok_or("harness: a fire step names no target")?;
            out.extend(defender(case, step)?);
            out.push(Op::Order(format!("{units} FIRE {battery}")));
        }
        Action::Fire => {
            let at = step
                .target
                .as_deref()
                .ok_or("harness: a fire step names no target")?;
            out.extend(defender(case, step)?);
            let side = side_named(case, step, at)?;
            out.push(Op::Order(format!("{units} FIRE {at}{side}")));
        }
        Action::Assault => {
            // The defender's retreat before the assault is its EVADE instruction (7.3, B5):
            // a long one past two hexes (6.72).
            let side = match case.units.iter().find(|u| step.units.contains(&u.id)) {
                Some(u) if u.side == f::Side::North => "CSA",
                _ => "USA",
            };
            let evade = match (step.choice.as_deref(), step.retreat.len()) {
                (Some("retreat_before"), 0..=2) => "ALWAYS",
                (Some("retreat_before"), _) => "ALWAYS LONG",
                _ => "NEVER",
            };
            out.push(Op::Keep(format!("EVADE {side} {evade}")));
            out.extend(defender(case, step)?);
            // The step into the enemy hex spends its points before the dice (5.23): they
            // are read between the move and the roll.
            out.push(Op::Keep(format!("{units} MOVE {}", step.path.join(" "))));
            out.push(Op::Roll);
        }
        Action::Retreat => out.push(Op::Order(format!("RETREAT {}", step.path.join(" ")))),
        Action::SpendReserve => out.push(Op::Order("SPEND RESERVE".to_string())),
        Action::EliminateSkirmisher => {
            let skirmisher = step
                .skirmisher
                .as_deref()
                .ok_or("harness: eliminate_skirmisher names no skirmisher")?;
            out.push(Op::Keep(format!("ELIMINATE {skirmisher}")));
        }
        Action::PlayCard => {
            return pending(
                "harness: the cases name the box's cards; the cases' battle has no deck of our kinds for them (B122)",
            )
        }
        Action::DrawMarker => match step.choice.as_deref() {
            Some("free") => out.push(Op::Free(
                step.brigade.clone().ok_or("a free draw without brigade")?,
            )),
            Some(marker) => out.push(Op::Draw(Some(marker.to_string()))),
            None => return Err("a draw without the marker drawn".to_string()),
        },
        Action::Recover => {
            out.push(Op::Draw(None));
        }
        // B43: the owner keeps his units Disrupted by `RALLYFAIL ... STAY` (B5).
        Action::RallyCheck if step.choice.as_deref() == Some("keep_disrupted") => {
            let brigade = step
                .units
                .first()
                .and_then(|id| case.units.iter().find(|u| &u.id == id))
                .and_then(|u| u.brigade.clone())
                .ok_or("harness: a rally check names no unit of a brigade")?;
            out.extend([
                Op::Order(format!("RALLYFAIL {brigade} STAY")),
                Op::Draw(None),
                Op::Check(CheckKind::Rally),
            ]);
        }
        Action::RallyCheck => out.extend([Op::Draw(None), Op::Check(CheckKind::Rally)]),
        Action::CommandCheck => out.extend([Op::Draw(None), Op::Check(CheckKind::Command)]),
        // B111: the owner's choice to move is his `FATE ... MOVE` (B5).
        Action::FateCheck if step.choice.as_deref() == Some("disrupt_and_move") => {
            let brigade = step
                .brigade
                .clone()
                .ok_or("harness: a fate check names no brigade")?;
            out.extend([
                Op::Keep(format!("FATE {brigade} MOVE")),
                Op::Check(CheckKind::Fate),
            ]);
        }
        // B110: the owner names the remnant's hex when `PATHS ... ASK` asks him.
        Action::FateCheck if step.target.is_some() && step.expect.rule.is_some() => {
            let brigade = step
                .brigade
                .clone()
                .ok_or("harness: a fate check names no brigade")?;
            out.extend([
                Op::Keep(format!("PATHS {brigade} ASK")),
                Op::Check(CheckKind::Fate),
                Op::Remnant(step.target.clone().unwrap_or_default()),
            ]);
        }
        Action::FateCheck => out.push(Op::Check(CheckKind::Fate)),
        Action::CleanUp => out.push(Op::CleanUp),
        Action::DiscardAndDraw => out.push(Op::Roll),
    }
    Ok(out)
}

/// The defender's choices of a fire step, as the standing instructions that make the
/// engine ask for them (B5, B7, B145): the retreat and its path (6.7; a long one past two
/// hexes, 6.72), the reserves spent (8.11) and the unit of a stack lost (6.54). The
/// answers are the case's (`roll` gives them when asked).
fn defender(case: &Case, step: &f::Step) -> Result<Vec<Op>, String> {
    let side = match case.units.iter().find(|u| step.units.contains(&u.id)) {
        Some(u) if u.side == f::Side::North => "CSA",
        _ => "USA",
    };
    let mut out = match step.retreat.len() {
        0 => vec![Op::Keep(format!("RETREAT {side} NEVER"))],
        1 | 2 => vec![Op::Keep(format!("RETREAT {side} ASK"))],
        _ => vec![
            Op::Keep(format!("RETREAT {side} ALWAYS LONG")),
            Op::Keep(format!("PATHS {side} ASK")),
        ],
    };
    let reserves = if step.reserves.is_some() {
        "ASK"
    } else {
        "KEEP"
    };
    out.push(Op::Keep(format!("RESERVES {side} {reserves}")));
    if step
        .choice
        .as_ref()
        .is_some_and(|c| case.units.iter().any(|u| &u.id == c))
    {
        out.push(Op::Keep(format!("LOSSES {side} ASK")));
    }
    Ok(out)
}

/// B24: the side of the line a step names by its hexes, as the order's `SIDE LEFT` or
/// `SIDE RIGHT` (empty when it names none). The firer's hex is its set-up hex.
fn side_named(case: &Case, step: &f::Step, at: &str) -> Result<String, String> {
    if step.side_of_line.is_empty() {
        return Ok(String::new());
    }
    let hex = |s: &str| s.parse::<Hex>().map_err(|_| format!("harness: no hex {s}"));
    let from = step
        .units
        .first()
        .and_then(|id| case.units.iter().find(|u| &u.id == id))
        .ok_or("harness: the firer is not set up")?;
    let named: Vec<Hex> = step
        .side_of_line
        .iter()
        .map(|h| hex(h))
        .collect::<Result<_, _>>()?;
    let (from_hex, to) = (hex(&from.hex)?, hex(at)?);
    let sides = line::between(from_hex, to);
    let behind = line::behind(from_hex, to);
    // A case names the hexes between, and for pass-through also the hex behind (6.4).
    let names = |side: LineSide| {
        let between = sides.get(side).clone().unwrap_or_default();
        let mut beyond = between.clone();
        beyond.extend(behind.get(side).iter().copied());
        named == between || named == beyond
    };
    if names(LineSide::Left) {
        Ok(" SIDE LEFT".into())
    } else if names(LineSide::Right) {
        Ok(" SIDE RIGHT".into())
    } else {
        Err(format!(
            "harness: {:?} is neither side of the line from {} to {at}",
            step.side_of_line, from.hex
        ))
    }
}
