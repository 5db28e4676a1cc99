//! A question asked in the middle of a combat result because its owner's
//! standing instruction says `ASK` (B7, B145): which unit of a stack is
//! lost (`LOSSES`), whether a reserve cancels a killing hit (`RESERVES`),
//! which path a retreat takes (`PATHS`); and the answers given so far.

use serde::{Deserialize, Serialize};

use super::hex::Hex;
use super::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::scenario::model::Side;

/// What a player is asked (B145).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Question {
    /// A killing hit on a Disrupted stack: which of these units is lost
    /// (6.54, `LOSSES ... ASK`). Answered by `LOSE unit`.
    Loss {
        /// The units of the stack, any of which may be the one lost.
        units: Vec<UnitId>,
    },
    /// A killing hit on `unit`: whether `brigade` spends a reserve to
    /// cancel it (8.11, 8.12, `RESERVES ... ASK`). Answered by `SPEND
    /// RESERVE` or `PASS`.
    Reserve {
        /// The unit the hit would eliminate.
        unit: UnitId,
        /// The brigade whose reserve would be spent.
        brigade: BrigadeId,
        /// Reserves the brigade has left before it is exhausted; 0 when
        /// only a skirmisher given up can buy one back (8.133, B104).
        left: u8,
    },
    /// A retreat with more than one legal path: which (6.7, B92,
    /// `PATHS ... ASK`). Answered by `RETREAT hex hex`.
    Path {
        /// The units retreating.
        units: Vec<UnitId>,
        /// The legal paths, each hex entered in order.
        paths: Vec<Vec<Hex>>,
    },
}

/// An answer to a [`Question`], kept until the combat result it belongs
/// to is applied whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// `PASS`: what the setting's default would do (B7).
    Default,
    /// This unit is lost.
    Lose(UnitId),
    /// Spend the reserve (`true`) or keep it.
    Spend(bool),
    /// This retreat path.
    Path(Vec<Hex>),
}

/// Where the questions of a combat result under way stand; never written
/// in a position (it lives only while the engine resolves one order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asking {
    /// The engine is trying the result on a copy to find its next
    /// unanswered question.
    pub probing: bool,
    /// The engine is applying a result whose questions are all answered.
    pub resolving: bool,
    /// The next answer to use.
    pub cursor: usize,
    /// The first question a probe met, with who answers it.
    pub found: Option<(Side, Question)>,
}

/// The most questions one combat result may ask: a hit at a time on at
/// most two units, a retreat, and the hits of both sides of an assault.
pub const MAX_ANSWERS: usize = 16;
