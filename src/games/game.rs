//! The rules of a game, as a pure state machine: [`Game`].
//!
//! Everything a player reads or writes (names, the board, the choices in
//! words, reading orders as people write them) is the game's text, apart
//! in [`GameText`](crate::games::GameText), as chess libraries keep the
//! rules of a position apart from its notations.

use std::fmt;

use serde::{de::DeserializeOwned, Serialize};

use super::chance::Chance;
use super::flow::{Outcome, Pending};
use super::{CitesRule, GameOptions, ParseError, Seat};

/// The rules of a game hosted by orderly.
///
/// The state is the whole game: everything needed to continue it is in the
/// value (and in its serde form and position string), nothing in a
/// database row beside it. Nothing here touches mail, SQL, the clock or a
/// random source: chance is drawn by the service and applied as an order
/// (see [`chance`](crate::games::chance)).
pub trait Game: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// One order a player can give, in the game's canonical notation when
    /// printed with `Display` (how records and the database keep it).
    type Order: Clone + Eq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned;
    /// Something that happened when an order was applied, kept as data.
    /// `Display` words it for everybody; a game with hidden information
    /// words it per viewer with
    /// [`GameText::event_text`](crate::games::GameText::event_text).
    type Event: Clone + PartialEq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned;
    /// Why an order was refused, citing the rule.
    type Refusal: std::error::Error + Clone + PartialEq + CitesRule;
    /// What a pending decision is, in the game's own terms (a defence, a
    /// retreat, an advance); `Display` words it in a few words.
    type Decision: Copy + Eq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned;
    /// How the game ends under its rules (reaching a square, points), as
    /// [`GameText::ending_words`](crate::games::GameText::ending_words)
    /// words it.
    type Ending: Copy + Eq + fmt::Debug + Serialize + DeserializeOwned;

    /// A short stable name for the game ("squares"), used in records and
    /// in the database.
    const NAME: &'static str;

    /// The rules this engine implements and their version, written into
    /// every record so that a replay years later knows what it replays
    /// ("squares-rulings R1-R28 S1-S8; orderly 2").
    const RULES_VERSION: &'static str;

    /// A new game in its opening position.
    fn new(options: &GameOptions) -> Self;

    /// The decision the game waits for, or `None` when it is over or waits
    /// for a draw of chance.
    fn pending(&self) -> Option<Pending<Self::Decision>>;

    /// Every legal order for the pending decision, in canonical form.
    /// Empty when the game is over.
    fn legal_orders(&self) -> Vec<Self::Order>;

    /// Reads one order in canonical notation (as `Display` writes it). The
    /// position is needed because a notation may leave out what the
    /// position makes unambiguous.
    fn parse_order(&self, text: &str) -> Result<Self::Order, ParseError>;

    /// Applies an order for the pending decision, returning what happened
    /// (including decisions that had one legal choice and were taken
    /// automatically), or refuses it and leaves the state unchanged.
    fn apply(&mut self, order: &Self::Order) -> Result<Vec<Self::Event>, Self::Refusal>;

    /// A number that changes each time a new turn of a player begins, for
    /// a game whose [`Pending`] decisions cannot tell two turns of one
    /// player apart (Brothers at War's activations of his brigades one
    /// after another): the end of a mail closes only the turn it was
    /// written for. Games whose turns alternate leave it 0.
    fn turn_serial(&self) -> u64 {
        0
    }

    /// Whether `event` left the writer's order unfinished, the rest of it
    /// waiting for him (the rest of a move set aside by a reaction,
    /// Brothers at War's B9): the end of his mail does not close his turn.
    fn interrupts(event: &Self::Event) -> bool {
        let _ = event;
        false
    }

    /// Applies a standing order that `seat` may give whoever decides now
    /// (Brothers at War's instructions, B5), or `None` when `order` is not
    /// one: the service then answers that it is not the seat's turn.
    fn apply_standing(
        &mut self,
        seat: Seat,
        order: &Self::Order,
    ) -> Option<Result<Vec<Self::Event>, Self::Refusal>> {
        let _ = (seat, order);
        None
    }

    /// How the game ended under its rules, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome<Self::Ending>>;

    /// The compact one-line position string (like chess FEN).
    fn position(&self) -> String;

    /// Reads a position string written by [`Game::position`].
    fn from_position(text: &str) -> Result<Self, ParseError>;

    /// The number of the current turn as players see it on the board.
    fn turn_number(&self) -> u32;

    /// The decision an event reports as taken automatically because it was
    /// the only legal choice, with the seat it was taken for. Records write
    /// these as comments: replaying the orders takes them again.
    fn forced(event: &Self::Event) -> Option<(Seat, Self::Order)>;

    /// The battles this game can be played on, by id, the default first:
    /// empty for a game with one board. `NEW ... SCENARIO id` chooses one
    /// ([`GameOptions::scenario`]); the list may grow at run time as an
    /// owner registers scenarios of his own.
    fn scenarios() -> Vec<String> {
        Vec::new()
    }

    /// Whether the game ever draws chance (a coin, dice, cards): the
    /// service then commits to a seed for its draws when the game is
    /// created (docs/dice.md).
    const CHANCE: bool = false;

    /// The draw of chance the game waits for, if any: the service draws an
    /// outcome and applies [`Game::chance_order`] of it. Games without
    /// chance never wait for one.
    fn chance(&self) -> Option<Chance> {
        None
    }

    /// The order that applies `outcome` (in `0..outcomes`) of the pending
    /// [`Game::chance`]; `None` when no chance is pending.
    fn chance_order(&self, outcome: u32) -> Option<Self::Order> {
        let _ = outcome;
        None
    }
}
