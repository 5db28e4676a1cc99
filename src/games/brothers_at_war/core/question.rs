//! A question asked in the middle of a combat result because its owner's
//! standing instruction says `ASK` (B7, B145): which unit of a stack is
//! lost (`LOSSES`), whether a reserve cancels a killing hit (`RESERVES`),
//! which path a retreat takes (`PATHS`), which card to play (`CARDS`,
//! B148); and the answers given so far.

use serde::{Deserialize, Serialize};

use super::combat::Reaction;
use super::hex::Hex;
use super::ids::{BrigadeId, UnitId};
use super::order::Order;
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
    /// A lone commander next to an enemy unit is displaced (4.12, B47,
    /// `PATHS ... ASK`): where he goes. Answered by `COMMANDER hex`.
    Commander {
        /// His brigade.
        brigade: BrigadeId,
        /// Where he stood.
        from: Hex,
        /// The hexes he may stand on (4.11, B47), B47's choice first.
        hexes: Vec<Hex>,
    },
    /// A brigade broken by its fate check leaves a remnant (2.33 a, B110,
    /// `PATHS ... ASK`): on which of its units' hexes. Answered by
    /// `REMNANT hex`.
    Remnant {
        /// The brigade broken.
        brigade: BrigadeId,
        /// The hexes it may go on, B110's choice first.
        hexes: Vec<Hex>,
    },
    /// A window of the enemy's moments (or a roll) opened and the player's
    /// `CARDS ... ASK` lets him choose a card (B137, B148). Answered by
    /// `PLAY n` (one of `cards`) or `PASS` (no card).
    Card {
        /// The window's id (B124), e.g. `targeted`, `after-roll`.
        window: String,
        /// The cards of his hand that can act here, lowest first.
        cards: Vec<u8>,
        /// What opened the window, in words for his mail.
        about: String,
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
    /// Play this card (B148).
    Play(u8),
    /// This hex, for a displaced commander (B47) or a remnant (B110).
    Place(Hex),
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

/// An order (or a draw of chance) whose application waits while the
/// card questions it raises are answered (B148): the game stands as it
/// was before it, but for the question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// The order that opened the window.
    #[serde(rename = "o")]
    pub order: Order,
    /// The answers given so far, in the order asked.
    #[serde(rename = "aw", default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<Answer>,
    /// The reaction that was pending when the order came (the order may
    /// answer it), put back before the order is applied again.
    #[serde(rename = "re", default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<Reaction>,
}

/// Where the card questions of a held order stand while the engine
/// applies it (B148); never written in a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holding {
    /// The order is tried on a copy to find its next unanswered question.
    pub probing: bool,
    /// The order is applied with every question answered.
    pub resolving: bool,
    /// The answers given, in the order asked.
    pub answers: Vec<Answer>,
    /// The next answer to use.
    pub cursor: usize,
    /// The first question the probe met, with who answers it.
    pub found: Option<(Side, Question)>,
}
