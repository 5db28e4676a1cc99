//! The choices of the side to decide: on its turn, what each of its stacks
//! may do (the squares a part of it can reach, rail rides, fortification);
//! inside an order, the answers to the decision pending (P20-P22, P27).
//! Bounded: a stack's destinations are listed once, not once per part.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::event::pieces_words;
use crate::games::civil_war_1863::core::flow::DecisionKind;
use crate::games::civil_war_1863::core::order::Order;
use crate::games::civil_war_1863::core::side::Side;
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::text::wrap;
use crate::games::Rejection;

/// The most answers listed for a decision inside an order.
pub const MAX_LISTED: usize = 24;

/// What one stack may do, from the legal orders.
fn stack_line(game: &CivilWar1863, from: Square, legal: &[Order]) -> Option<String> {
    let stack = game.stack(from)?;
    let mut moves = BTreeSet::new();
    let mut rides = BTreeSet::new();
    let mut other = Vec::new();
    for o in legal {
        match o {
            Order::Move { from: f, path, .. } if *f == from => {
                moves.extend(path.last().copied());
            }
            Order::Ride { from: f, path, .. } if *f == from => {
                rides.extend(path.last().copied());
            }
            Order::Fortify(sq) | Order::Unfortify(sq) if *sq == from => other.push(o.to_string()),
            _ => {}
        }
    }
    if moves.is_empty() && rides.is_empty() && other.is_empty() {
        return None;
    }
    // A fortified city's ground pieces are locked in (P32): it names what
    // stands there, since no piece of it may move.
    let free = stack.free();
    let label = if free.is_empty() {
        let fortified = if stack.fort.has_marker() {
            ", fortified"
        } else {
            ""
        };
        format!("{}{fortified}", pieces_words(stack.all()))
    } else {
        pieces_words(free)
    };
    let names = |set: &BTreeSet<Square>| {
        set.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut parts = Vec::new();
    if !moves.is_empty() {
        parts.push(format!("to {}", names(&moves)));
    }
    if !rides.is_empty() {
        parts.push(format!("by rail to {}", names(&rides)));
    }
    if !other.is_empty() {
        parts.push(other.join(", "));
    }
    Some(format!("{from} ({label}): {}", parts.join("; ")))
}

/// The turn's choices, a line per stack.
fn turn(game: &CivilWar1863, side: Side) -> String {
    let legal = game.legal();
    let mut out = String::from(
        "Your orders, one a line (H7-H8, H7 2I 1C-H8, RIDE H7 2I-H8-H9); the end \
         of the mail ends the turn unless its last line is MORE (rule P7):\n",
    );
    for (from, stack) in game.stacks() {
        if stack.side != side {
            continue;
        }
        if let Some(line) = stack_line(game, from, &legal) {
            out.push_str("  ");
            out.push_str(&line);
            out.push('\n');
        }
    }
    if legal.contains(&Order::EndTurn) {
        out.push_str("  END: end the turn now.\n");
    }
    wrap(&out, |_| 6)
}

/// The answers to a decision inside an order, listed.
fn answers(game: &CivilWar1863, kind: DecisionKind) -> String {
    let legal = game.legal();
    let rule = match kind {
        DecisionKind::Losses => "P20",
        DecisionKind::Survivors => "P21",
        DecisionKind::Keep { .. } => "P22",
        DecisionKind::Remove { .. } => "P27",
        DecisionKind::Turn { .. } => "P7",
    };
    let mut out = format!("Your decision: {kind} (rule {rule}); write one of:\n");
    for o in legal.iter().take(MAX_LISTED) {
        let _ = writeln!(out, "  {o}");
    }
    if legal.len() > MAX_LISTED {
        let _ = writeln!(out, "  ... and {} more", legal.len() - MAX_LISTED);
    }
    out
}

/// The choices as `viewer` reads them.
pub fn describe(game: &CivilWar1863, viewer: Side) -> String {
    let Some((side, kind)) = game.decision() else {
        return String::new();
    };
    if side != viewer {
        return match kind {
            DecisionKind::Turn { .. } => format!("The {side} plays its turn.\n"),
            _ => format!("The {side} decides now: {kind}.\n"),
        };
    }
    match kind {
        DecisionKind::Turn { .. } => turn(game, side),
        _ => answers(game, kind),
    }
}

/// Every legal order of the stack on `square`, or why there is none.
pub fn describe_from(game: &CivilWar1863, square: &str) -> Result<String, Rejection> {
    let refuse = |problem: String| Rejection {
        line: square.trim().to_string(),
        problem,
        rule: None,
        suggestions: Vec::new(),
    };
    let sq = Square::parse(square)
        .ok_or_else(|| refuse(format!("{} is not a square (A1 to R18)", square.trim())))?;
    let orders: Vec<String> = game
        .legal()
        .into_iter()
        .filter(|o| match o {
            Order::Move { from, .. } | Order::Ride { from, .. } => *from == sq,
            Order::Fortify(s) | Order::Unfortify(s) => *s == sq,
            _ => false,
        })
        .map(|o| o.to_string())
        .collect();
    if orders.is_empty() {
        return Err(refuse(format!(
            "no piece on {sq} can be given an order now"
        )));
    }
    let mut out = String::new();
    for o in orders.iter().take(MAX_LISTED) {
        let _ = writeln!(out, "{o}");
    }
    if orders.len() > MAX_LISTED {
        let _ = writeln!(out, "... and {} more", orders.len() - MAX_LISTED);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, GameOptions};

    #[test]
    fn the_side_to_move_reads_a_line_per_stack_and_the_other_waits() {
        let game = CivilWar1863::new(&GameOptions::default());
        let mine = describe(&game, Side::Confederacy);
        for (sq, s) in game.stacks() {
            let listed = mine.contains(&format!("  {sq} ("));
            assert_eq!(listed, s.side == Side::Confederacy, "{sq}\n{mine}");
        }
        assert!(!mine.contains("END:"), "no END before the first order (P8)");
        assert_eq!(
            describe(&game, Side::Union),
            "The Confederacy plays its turn.\n"
        );
        assert!(mine
            .lines()
            .all(|l| l.len() <= crate::games::text::MAIL_WIDTH));
    }

    #[test]
    fn a_fortified_city_locked_in_names_its_pieces_and_its_one_order() {
        // P32: the ground pieces of a fortified city may not move; P33: the
        // marker may be lifted.
        let game: CivilWar1863 = "cw1863 2; north to move; U: H11 2I F; C: A18 1I"
            .parse()
            .unwrap();
        let mine = describe(&game, Side::Union);
        assert!(
            mine.contains("  H11 (2 infantry, fortified): UNFORTIFY H11\n"),
            "{mine}"
        );
    }

    #[test]
    fn a_square_lists_its_orders_or_says_why_not() {
        let game = CivilWar1863::new(&GameOptions::default());
        let listed = describe_from(&game, "i10").unwrap();
        assert!(listed
            .lines()
            .all(|l| l.starts_with("I10 ") || l.starts_with("RIDE I10 ")));
        assert!(describe_from(&game, "O6").is_err(), "a Union stack");
        assert!(describe_from(&game, "Z9").is_err());
    }
}
