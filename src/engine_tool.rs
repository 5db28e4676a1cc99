//! `orderly engine`: a line tool for people and for checking the engine.
//!
//! It reads one order per line and answers each with a block:
//!
//! ```text
//! order MOVE CAVALRY BR B3C
//! event Blue cavalry moves BR -> B3C
//! position 9I3A3C/1C1/4/2/5/2/5/2/4/3/9i3a4c - g - 2 -
//! pending Gray turn
//! legal 27
//! MOVE ARTILLERY GR G3C
//! ...
//! ```
//!
//! A refused order answers `order ...` then `refused R9: <reason>` and the
//! position is unchanged. Blank lines and lines starting with `#` are
//! skipped. The first block, before any order, shows the starting position.

use std::io::{self, BufRead, Write};

use crate::games::squares::{Order, Squares};
use crate::games::{CitesRule, DecisionKind, Game, GameResult};

/// Writes the position, the pending decision and the sorted legal orders.
pub fn write_state(out: &mut impl Write, game: &Squares) -> io::Result<()> {
    writeln!(out, "position {game}")?;
    match (game.pending(), game.outcome()) {
        (_, Some(outcome)) => {
            let result = match outcome.result {
                GameResult::Win(seat) => format!("{} wins", Squares::seat_name(seat)),
                GameResult::Draw => "draw".to_string(),
            };
            writeln!(out, "over {result} ({:?})", outcome.reason)?;
        }
        (Some(pending), None) => {
            let kind = match pending.kind {
                DecisionKind::Turn => "turn".to_string(),
                other => other.to_string(),
            };
            writeln!(out, "pending {} {kind}", Squares::seat_name(pending.seat))?;
        }
        (None, None) => writeln!(out, "pending none")?,
    }
    let mut legal: Vec<String> = game.legal_orders().iter().map(Order::to_string).collect();
    legal.sort();
    writeln!(out, "legal {}", legal.len())?;
    for order in legal {
        writeln!(out, "{order}")?;
    }
    Ok(())
}

/// Plays the orders read from `input` from `game`, writing a block per order.
pub fn run(mut game: Squares, input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
    write_state(out, &game)?;
    for line in input.lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "order {text}")?;
        let order = match game.parse_order(text) {
            Ok(order) => order,
            Err(e) => {
                writeln!(out, "refused parse: {e}")?;
                continue;
            }
        };
        match game.apply(&order) {
            Ok(events) => {
                for event in events {
                    writeln!(out, "event {event}")?;
                }
                write_state(out, &game)?;
            }
            Err(refusal) => writeln!(out, "refused {}: {refusal}", refusal.rule())?,
        }
    }
    Ok(())
}
