//! The flow of play in the game's own terms: the decisions it waits for,
//! a battle under way with its stage (P18-P24), removals owed after a
//! capture (P27, P30), and how a game ends (P34, P35).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::side::Side;
use super::square::Square;
use super::stack::Counts;
use crate::games::Phase;

/// What a Civil War 1863 game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DecisionKind {
    /// The player's own orders, until END (P7); `part` counts the orders
    /// given this turn, from 1.
    Turn {
        /// Which order of the turn this is, from 1.
        part: u8,
    },
    /// The attacker chooses k and both sides' losses (P20).
    Losses,
    /// The defender moves his survivors off the battle square (P21).
    Survivors,
    /// The winner of an even battle keeps one piece (P22); `attacker` says
    /// whose choice it is.
    Keep {
        /// Whether the attacker won.
        attacker: bool,
    },
    /// A player removes pieces after losing a city (P27, P30); `own_turn`
    /// says whether it is the side to move that removes (after a capture
    /// by survivors).
    Remove {
        /// Whether the remover is the side whose turn it is.
        own_turn: bool,
    },
}

impl DecisionKind {
    /// The neutral phase: the turn, a decision inside it by the attacker,
    /// or the other seat's reaction.
    pub fn phase(self) -> Phase {
        match self {
            DecisionKind::Turn { part } => Phase::Turn { part, last: false },
            DecisionKind::Losses => Phase::InAction,
            DecisionKind::Keep { attacker: true } => Phase::InAction,
            DecisionKind::Remove { own_turn: true } => Phase::InAction,
            _ => Phase::Reaction,
        }
    }
}

/// A noun phrase without an article: mails write it after `your`, a
/// side's name and `'s`, or in brackets after the side.
impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DecisionKind::Turn { .. } => "turn",
            DecisionKind::Losses => "losses to choose",
            DecisionKind::Survivors => "survivors' move",
            DecisionKind::Keep { .. } => "piece to keep after an even battle",
            DecisionKind::Remove { .. } => "removals for a lost city",
        })
    }
}

/// How a game ends under the rules (resignation and agreed draws are the
/// service's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// One side has no piece left (P34).
    AllEliminated,
    /// Each side has one piece, or neither has any (P35).
    Stalemate,
}

/// Where a battle under way stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A larger battle: the attacker's choice of losses (P20).
    Losses,
    /// An even battle: the coin (P22).
    Coin,
    /// The winner of the even battle keeps one piece (P22).
    Keep {
        /// Whether the attacker won.
        attacker: bool,
    },
    /// The defender's survivors leave the square (P21).
    Survivors,
}

/// A battle under way. The attacking group is held here, off the board,
/// until the square is clear of the defender: the sides never share a
/// square (P9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battle {
    /// The battle square.
    pub at: Square,
    /// The square the attack came from.
    pub from: Square,
    /// The attacking side.
    pub attacker: Side,
    /// The attacking pieces still in the battle (the group, its survivors,
    /// or the winners of the coin).
    pub group: Counts,
    /// Where it stands.
    pub stage: Stage,
}

/// Pieces a side still owes after losing a city (P27, P30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Removal {
    /// The side that removes.
    pub side: Side,
    /// How many pieces are still to go.
    pub left: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mail's subject writes the decision after `your` or a side's name
    /// and `'s` (`your survivors' move`): no article of its own.
    #[test]
    fn decisions_read_after_your() {
        for kind in [
            DecisionKind::Turn { part: 0 },
            DecisionKind::Losses,
            DecisionKind::Survivors,
            DecisionKind::Keep { attacker: true },
            DecisionKind::Remove { own_turn: false },
        ] {
            let words = kind.to_string();
            assert!(
                !words.starts_with("the ") && !words.starts_with("a "),
                "your {words}"
            );
        }
    }
}
