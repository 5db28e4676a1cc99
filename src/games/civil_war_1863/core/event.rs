//! What happened when an order was applied, as data.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::order::Order;
use super::side::{PieceKind, Side};
use super::square::Square;
use super::stack::Counts;

/// Why pieces were eliminated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cause {
    /// Lost in a battle (P20, P22, P23).
    Battle,
    /// Survivors with no square to go to (P21).
    NoRetreat,
    /// Infantry left at sea without a gunboat (P14).
    AtSea,
    /// Removed for a lost city (P27, P30).
    Removal,
}

/// The kind of battle (P19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BattleKind {
    /// The attack is stronger (P20).
    Larger,
    /// Equal strengths: the coin decides (P22).
    Even,
    /// One piece against more (P23).
    Sacrifice,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A group moved (or rode, or made a survivors' move) onto a square of
    /// its own side or an empty one.
    Moved {
        /// Whose.
        side: Side,
        /// The group.
        pieces: Counts,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A battle began (P18, P19).
    Battle {
        /// The attacker.
        attacker: Side,
        /// The battle square.
        at: Square,
        /// The attacking strength.
        attack: u32,
        /// The defending strength.
        defence: u32,
        /// Larger, even or sacrifice.
        kind: BattleKind,
    },
    /// The coin fell (P22).
    Tossed {
        /// Heads: the attacker won.
        heads: bool,
    },
    /// Pieces were eliminated.
    Eliminated {
        /// Whose.
        side: Side,
        /// Where.
        at: Square,
        /// Which.
        pieces: Counts,
        /// Why.
        cause: Cause,
    },
    /// A winner of an even battle kept one piece (P22).
    Kept {
        /// Whose.
        side: Side,
        /// Where.
        at: Square,
        /// Its kind.
        kind: PieceKind,
    },
    /// The attacker's survivors took the square (P20).
    Took {
        /// The attacker.
        side: Side,
        /// The square.
        at: Square,
        /// The pieces standing there.
        pieces: Counts,
    },
    /// A disabled marker went on a force (P23).
    Disabled {
        /// The square.
        at: Square,
    },
    /// A capital's garrison was destroyed with its capture (P29).
    GarrisonDestroyed {
        /// The capital.
        at: Square,
    },
    /// A city was captured for the first time (P27, P28, P30).
    Captured {
        /// The capturer.
        side: Side,
        /// The city.
        at: Square,
        /// How many pieces its owner must remove.
        removals: u8,
    },
    /// A city was fortified (P31).
    Fortified {
        /// The city.
        at: Square,
    },
    /// A city's marker was removed (P33).
    Unfortified {
        /// The city.
        at: Square,
    },
    /// A side ended its turn (P7).
    TurnEnded {
        /// Whose turn.
        side: Side,
    },
    /// A side could give no order and its turn ended at once (P8).
    TurnSkipped {
        /// Whose turn.
        side: Side,
    },
    /// A decision with one legal choice was taken for its seat.
    Forced {
        /// Whose decision.
        side: Side,
        /// The order taken.
        order: Order,
    },
    /// The game ended (P34, P35).
    Ended {
        /// The winner, or none for a stalemate.
        winner: Option<Side>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Moved {
                side,
                pieces,
                from,
                to,
            } => write!(f, "{side} {pieces} {from} -> {to}"),
            Event::Battle {
                attacker,
                at,
                attack,
                defence,
                kind,
            } => write!(
                f,
                "{attacker} attacks {at}: {attack} against {defence} ({kind:?})"
            ),
            Event::Tossed { heads: true } => f.write_str("the coin: heads, the attacker wins"),
            Event::Tossed { heads: false } => f.write_str("the coin: tails, the defender wins"),
            Event::Eliminated {
                side,
                at,
                pieces,
                cause,
            } => write!(f, "{side} loses {pieces} at {at} ({cause:?})"),
            Event::Kept { side, at, kind } => write!(f, "{side} keeps one {kind} at {at}"),
            Event::Took { side, at, pieces } => write!(f, "{side} takes {at} with {pieces}"),
            Event::Disabled { at } => write!(f, "a disabled marker goes on {at}"),
            Event::GarrisonDestroyed { at } => write!(f, "the garrison of {at} is destroyed"),
            Event::Captured { side, at, removals } => {
                write!(f, "{side} captures {at}: the other side removes {removals}")
            }
            Event::Fortified { at } => write!(f, "{at} is fortified"),
            Event::Unfortified { at } => write!(f, "{at} is no longer fortified"),
            Event::TurnEnded { side } => write!(f, "{side} ends the turn"),
            Event::TurnSkipped { side } => write!(f, "{side} can give no order: the turn ends"),
            Event::Forced { side, order } => write!(f, "{side}: {order} (the only choice)"),
            Event::Ended { winner: Some(w) } => write!(f, "{w} wins"),
            Event::Ended { winner: None } => f.write_str("stalemate"),
        }
    }
}
