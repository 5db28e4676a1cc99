//! The rules engines of the games orderly hosts, and the seam every game
//! and the service share.
//!
//! A game is a pure state machine ([`Game`]): its state says whose decision
//! is pending and in what part of play ([`Pending`], [`Phase`]); it lists
//! every legal order for that decision; it applies an order, returning what
//! happened, or refuses it with a reason that names the rule. Its words
//! (names, board, choices, reading orders as people write them) are apart,
//! in [`GameText`]. Nothing here touches mail, SQL, the clock or a random
//! source: chance is drawn by the service ([`chance`]) and applied as an
//! order, so a game is rebuilt by replaying its orders.
//!
//! Only what every game shares lives in this module; each game names its
//! own decisions and endings (SQUARES: [`squares::DecisionKind`],
//! [`squares::EndReason`]). Code that knows a game only by name uses the
//! registry ([`hosted`]) and the object-safe door [`AnyGame`].

use std::fmt;

use serde::{Deserialize, Serialize};

pub mod any;
pub mod brothers_at_war;
pub mod chance;
pub mod civil_war_1863;
pub mod fair;
mod flow;
mod game;
pub mod hosted;
mod spelling;
pub mod squares;
pub mod submission;
pub mod text;

pub use any::{AnyGame, Happened};
pub use chance::Chance;
pub use flow::{GameResult, Outcome, Pending, Phase};
pub use game::Game;
pub use text::{seat_named, BoardStyle, Condition, GameText, OrderWord, Rejection};

/// One of the two seats at the table.
///
/// Every game hosted by orderly is for two players. The seat is named by the
/// side of the board its reserve (or home edge) lies on: `North` is the side
/// drawn at the top of the rulebook's map (Blue in SQUARES, the British in the
/// Napoleonic variant), `South` the other. Games give their seats their own
/// names through [`GameText::seat_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Seat {
    /// The seat at the top of the map.
    North,
    /// The seat at the bottom of the map.
    South,
}

impl Seat {
    /// Both seats, North first.
    pub const BOTH: [Seat; 2] = [Seat::North, Seat::South];

    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::North => Seat::South,
            Seat::South => Seat::North,
        }
    }

    /// 0 for North, 1 for South: handy for per-seat arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a new game is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOptions {
    /// The seat that takes the first turn (SQUARES R1: chosen at creation).
    pub first: Seat,
    /// A number kept with each game. No hosted game reads it: the service
    /// draws a game's chance itself, from a seed of its own that it commits
    /// to and reveals (docs/dice.md), and records every outcome as an
    /// order, so that a replay is exact without it.
    pub seed: Option<u64>,
    /// The battle to play, for a game that has several (Brothers at War's
    /// scenarios, by id: [`Game::scenarios`]); `None` for the game's own
    /// default, and for games that have only one.
    pub scenario: Option<String>,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            first: Seat::North,
            seed: None,
            scenario: None,
        }
    }
}

/// A rule of a game's rulings, such as `R16` for the SQUARES artillery pin.
///
/// Every refusal names one, so that a player can look it up and a test can
/// assert which rule was applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RuleId(pub &'static str);

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A refusal that can say which rule it enforces.
pub trait CitesRule {
    /// The rule that forbids the refused order.
    fn rule(&self) -> RuleId;
}

/// Text that could not be read as an order or a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// What was wrong, in words a player understands.
    pub message: String,
}

impl ParseError {
    /// A parse error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
        }
    }
}
