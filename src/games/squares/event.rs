//! What happens when an order is applied.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::board::Space;
use super::flow::{EndReason, Outcome};
use super::order::Order;
use super::unit::{Side, UnitKind};
use crate::games::{GameResult, Seat};

/// One thing that happened, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A unit moved.
    Moved {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        from: Space,
        /// Where it is now.
        to: Space,
    },
    /// A player passed; his next turn is a double turn (R4).
    Passed {
        /// Who passed.
        side: Side,
    },
    /// A player's double turn begins.
    DoubleTurn {
        /// Whose double turn.
        side: Side,
    },
    /// An attack was declared.
    Attacked {
        /// The attacker's side.
        side: Side,
        /// The attacking unit's type.
        unit: UnitKind,
        /// The attacking unit's square.
        from: Space,
        /// The attacked square.
        target: Space,
        /// The supporting unit's type and square.
        support: Option<(UnitKind, Space)>,
    },
    /// The attack is a flank attack: the defender must retreat if it can (R18).
    Flank {
        /// The attacked square.
        target: Space,
    },
    /// A unit retreated (one event per unit of a chain).
    Retreated {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        from: Space,
        /// Where it went.
        to: Space,
    },
    /// A defender stood its ground.
    Stood {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Its square.
        square: Space,
    },
    /// The attacker chose an option against a standing defender (R19,
    /// N18, N19).
    OptionChosen {
        /// The attacker's side.
        side: Side,
        /// The option order taken (`OPTION 2`, `OPTION GB1`, `OPTION HB3`).
        option: Order,
    },
    /// A cavalry charge directly after a PASS eliminates the defending foot
    /// unit (N10).
    Charge {
        /// The attacked square.
        target: Space,
    },
    /// A unit was eliminated.
    Eliminated {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        square: Space,
    },
    /// The attacking unit advanced into the vacated square.
    Advanced {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        from: Space,
        /// Where it is now.
        to: Space,
    },
    /// The attacking unit stayed where it was.
    Stayed {
        /// Whose unit.
        side: Side,
        /// Its square.
        square: Space,
    },
    /// A decision with exactly one legal choice was taken automatically.
    Forced {
        /// Who would have decided.
        side: Side,
        /// The only legal order, which was applied.
        order: Order,
    },
    /// The game is over.
    GameOver(Outcome),
}

fn seat_name(seat: Seat) -> &'static str {
    Side::from(seat).name()
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Moved {
                side,
                unit,
                from,
                to,
            } => write!(f, "{side} {unit} moves {from} -> {to}"),
            Event::Passed { side } => write!(f, "{side} passes"),
            Event::DoubleTurn { side } => write!(f, "{side} has a double turn"),
            Event::Attacked {
                side,
                unit,
                from,
                target,
                support,
            } => {
                write!(f, "{side} {unit} in {from} attacks {target}")?;
                match support {
                    Some((kind, sq)) => write!(f, ", supported by the {kind} in {sq}"),
                    None => f.write_str(", unsupported"),
                }
            }
            Event::Flank { target } => {
                write!(
                    f,
                    "flank attack: the defender in {target} must retreat if it can"
                )
            }
            Event::Retreated {
                side,
                unit,
                from,
                to,
            } => write!(f, "{side} {unit} retreats {from} -> {to}"),
            Event::Stood { side, unit, square } => write!(f, "{side} {unit} in {square} stands"),
            Event::OptionChosen { side, option } => {
                let text = option.to_string();
                let code = text.strip_prefix("OPTION ").unwrap_or(&text);
                write!(f, "{side} takes option {code}")
            }
            Event::Charge { target } => write!(
                f,
                "charge after a PASS: the defender in {target} is eliminated (N10)"
            ),
            Event::Eliminated { side, unit, square } => {
                write!(f, "{side} {unit} in {square} is eliminated")
            }
            Event::Advanced {
                side,
                unit,
                from,
                to,
            } => write!(f, "{side} {unit} advances {from} -> {to}"),
            Event::Stayed { side, square } => write!(f, "{side} stays in {square}"),
            Event::Forced { side, order } => {
                write!(f, "{side}'s only choice is taken: {order}")
            }
            Event::GameOver(outcome) => {
                match outcome.result {
                    GameResult::Win(seat) => write!(f, "game over: {} wins", seat_name(seat))?,
                    GameResult::Draw => f.write_str("game over: draw")?,
                }
                match outcome.reason {
                    EndReason::ReserveEntered => {
                        f.write_str(" by entering the enemy reserve (R13)")
                    }
                    EndReason::Points { north, south } => {
                        let rule = match super::notation::current().variant {
                            super::rules::Variant::CivilWar => "R26",
                            super::rules::Variant::Napoleonic => "N22",
                        };
                        write!(
                            f,
                            " on points, {} {north} - {} {south} ({rule}, R27)",
                            Side::Blue,
                            Side::Gray
                        )
                    }
                    EndReason::NoLegalAction => {
                        f.write_str(" because the other side has no legal action (R8)")
                    }
                }
            }
        }
    }
}
