//! Game records: the plain-text format of docs/record-format.md, in the
//! spirit of chess PGN, for every hosted game, through the game-neutral
//! door [`AnyGame`] (orders in canonical notation, events as
//! [`Happened`]).
//!
//! A record is the list of orders a game was played with, and nothing else
//! the state could not be rebuilt from: tag pairs that say what was played,
//! by whom, from where and how it ended, then the numbered turns in the
//! game's canonical notation with the decisions inside each action on
//! continuation lines, moderators' comments, and an end marker when the game
//! ended outside the rules (resignation, agreed draw, adjudication).
//!
//! - [`Recorder`] builds a record while a game is played;
//! - [`Record::read`] imports one from text (errors carry line numbers), and
//!   `Display` writes it;
//! - [`replay`] re-validates every order through the engine;
//! - [`verify`] checks every draw of chance against the revealed seed
//!   (docs/dice.md);
//! - [`Replayed::to_json`] is the export for tools.
//!
//! ```
//! use orderly::games::{hosted, GameOptions, Seat};
//! use orderly::record::{replay, Record, Recorder};
//!
//! let squares = hosted::find("squares").unwrap();
//! let mut recorder = Recorder::new(squares, &GameOptions::default());
//! recorder.apply("MOVE CAVALRY BR B3C").unwrap();
//! recorder.resign(Seat::South).unwrap();
//! let text = recorder.record().to_string();
//! assert!(text.contains("\n1. Blue MOVE CAVALRY BR B3C\n2. Gray RESIGNS\nBlue\n"));
//!
//! let read = Record::read(&text).unwrap();
//! let replayed = replay(&read).unwrap();
//! assert_eq!(replayed.game.turn_number(), 2);
//! assert_eq!(replayed.record.to_string(), text);
//! ```

use std::fmt;

use crate::games::fair::DrawInputs;
use crate::games::hosted::Hosted;
use crate::games::{AnyGame, GameOptions, GameResult, Happened, Outcome, Seat};

mod json;
mod read;
mod recorder;
mod replay;
mod tags;
mod verify;
mod write;

pub use json::{JsonComment, JsonDraw, JsonEnd, JsonForced, JsonOrder, JsonRecord, JSON_FORMAT};
pub use read::{game_tag, ReadError};
pub use recorder::{Recorder, Refused};
pub use replay::{replay, ReplayError, Replayed, ReplayedOrder};
pub use tags::{Date, DateError, TagError, Tags};
pub use verify::{verify, verify_report, CheckedDraw, VerifyError};

/// One entry of the movetext, in the order the game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// An order given by a player.
    Order(OrderEntry),
    /// A comment, written `{...}`: moderators' actions and anything else a
    /// reader should know. Replay skips it.
    Comment(String),
    /// The game ended outside its rules.
    End(EndMarker),
    /// A draw of chance the service made (docs/dice.md).
    Draw(DrawEntry),
}

/// A draw of chance as the record holds it: the order that applied its
/// outcome, with its number and public inputs, so that `orderly verify`
/// can derive it again once the seed is revealed. Replay applies the order
/// and needs no seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawEntry {
    /// The draw's number and public inputs.
    pub inputs: DrawInputs,
    /// The order that applied the outcome, in canonical notation when
    /// orderly wrote the record.
    pub order: String,
}

/// The tag of a game with chance that holds the commitment to its seed
/// (hex SHA-256), written from the game's start.
pub const COMMITMENT_TAG: &str = "Commitment";

/// The tag that names the battle of a game played on one of several
/// ([`GameOptions::scenario`](crate::games::GameOptions::scenario)), by id.
pub const SCENARIO_TAG: &str = "Scenario";

/// The tag that reveals a game's seed (hex), written once the game is over.
pub const REVEALED_TAG: &str = "Revealed";

/// An order as the record holds it: text, checked only by [`replay`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderEntry {
    /// The turn number (the game's [`AnyGame::turn_number`] before the order)
    /// for an order that starts a turn; `None` for a decision inside an
    /// action, written on a continuation line.
    pub number: Option<u32>,
    /// The seat that gave it.
    pub seat: Seat,
    /// The order, in canonical notation when the record was written by
    /// orderly; as it was read otherwise.
    pub order: String,
    /// The decisions the engine took by itself after this order, each the
    /// only legal choice, in the order taken. Written as `;` notes; replay
    /// takes them again, and checks them when the record lists them.
    pub forced: Vec<ForcedNote>,
}

/// A decision taken automatically because it was the only legal choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedNote {
    /// The seat it was taken for.
    pub seat: Seat,
    /// The order taken, in canonical notation.
    pub order: String,
}

impl ForcedNote {
    /// The notes of the forced decisions among an order's events.
    pub fn of_events(events: &[Happened]) -> Vec<ForcedNote> {
        events
            .iter()
            .filter_map(|e| e.forced.clone())
            .map(|(seat, order)| ForcedNote { seat, order })
            .collect()
    }
}

/// An end of the game that is not an engine order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndMarker {
    /// The turn number when it happened ([`AnyGame::turn_number`]).
    pub number: u32,
    /// What happened.
    pub ending: Ending,
}

/// The ends of a game the service offers beside the rules' own (R28).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This seat resigned; the other wins.
    Resigned(Seat),
    /// Both players agreed to a draw.
    DrawAgreed,
    /// A moderator decided the result.
    Adjudicated(GameResult),
}

impl Ending {
    /// The result and termination this ending gives the game.
    pub fn finish(self) -> Finish {
        match self {
            Ending::Resigned(seat) => Finish {
                result: GameResult::Win(seat.other()),
                termination: Termination::Resigned(seat),
            },
            Ending::DrawAgreed => Finish {
                result: GameResult::Draw,
                termination: Termination::DrawAgreed,
            },
            Ending::Adjudicated(result) => Finish {
                result,
                termination: Termination::Adjudicated,
            },
        }
    }
}

/// How a game was finished: the `Result` and `Termination` tags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Who won, or a draw.
    pub result: GameResult,
    /// How it was reached.
    pub termination: Termination,
}

/// How a finished game was reached: by the rules or by the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The engine ended the game under its rules, in the game's one
    /// wording of its ending ([`GameText::ending_words`](crate::games::GameText::ending_words)).
    Rules(String),
    /// This seat resigned.
    Resigned(Seat),
    /// The players agreed to a draw.
    DrawAgreed,
    /// A moderator decided.
    Adjudicated,
}

impl Finish {
    /// How a game ended under its rules, the ending in the game's words
    /// (as [`AnyGame::outcome`] gives it).
    pub fn of(outcome: Outcome<String>) -> Finish {
        Finish {
            result: outcome.result,
            termination: Termination::Rules(outcome.reason),
        }
    }
}

/// A game record: tags and movetext.
///
/// Built by a [`Recorder`] or read by [`Record::read`]; written by
/// `Display` in the canonical layout of docs/record-format.md.
#[derive(Clone, Debug)]
pub struct Record {
    /// The tag pairs.
    pub tags: Tags,
    entries: Vec<Entry>,
    /// Where each part was read from, for imported records: replay errors
    /// quote the line the user wrote, not the line orderly would write.
    origin: Option<write::Layout>,
}

impl PartialEq for Record {
    /// Records are equal when they say the same thing, wherever they were
    /// read from.
    fn eq(&self, other: &Record) -> bool {
        self.tags == other.tags && self.entries == other.entries
    }
}

impl Eq for Record {}

impl Record {
    /// The word a hidden draw's outcome reads as ([`Record::hide_draws`]).
    pub const HIDDEN: &'static str = "(hidden)";

    /// Hides the outcomes of the draws numbered in `numbers`: a player
    /// reading the record of a game in progress sees that the other's
    /// private draws were made, not what they gave
    /// ([`Chance::private_to`](crate::games::Chance::private_to)). Such a
    /// record no longer replays; the whole one comes when the game is over.
    pub fn hide_draws(&mut self, numbers: &std::collections::HashSet<u32>) {
        for entry in &mut self.entries {
            if let Entry::Draw(d) = entry {
                if numbers.contains(&d.inputs.number) {
                    d.order = Self::HIDDEN.to_string();
                }
            }
        }
    }

    /// An empty record of a game of `game` set up with `options`, from the
    /// opening.
    pub fn new(game: &Hosted, options: &GameOptions) -> Record {
        // A game where chance decides who acts first (Brothers at War's
        // cup) has no seat that moved first: the record names none.
        let first = game.who_first.is_none().then_some(options.first);
        let mut tags = Tags::new(game, first, options.seed, None);
        if let Some(scenario) = &options.scenario {
            // A scenario id is letters, digits and dashes: a valid value.
            let _ = tags.set_extra(SCENARIO_TAG, scenario);
        }
        Record {
            tags,
            entries: Vec::new(),
            origin: None,
        }
    }

    /// An empty record of a game that starts from `game`'s position
    /// (written as the `Position` tag).
    pub fn from_position(game: &dyn AnyGame) -> Record {
        Record {
            tags: Tags::new(&game.hosted(), None, None, Some(game.position())),
            entries: Vec::new(),
            origin: None,
        }
    }

    /// The movetext entries, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The name of `seat` in this record: the game's own name for it.
    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.tags.seat_name(seat)
    }

    /// Appends an entry. The record is then no longer what was read, so
    /// line numbers are counted on the written form from here on.
    pub fn push(&mut self, entry: Entry) {
        self.origin = None;
        self.entries.push(entry);
    }

    /// Appends a comment. Runs of white space become one space, and braces
    /// become parentheses, so that the comment reads back as written.
    pub fn push_comment(&mut self, text: &str) {
        self.push(Entry::Comment(clean_comment(text)));
    }

    /// The result token that ends the movetext: a seat name, `Draw`, or `*`
    /// while the game goes on. The same as the `Result` tag.
    pub fn result_token(&self) -> &'static str {
        match self.tags.finish.as_ref().map(|f| f.result) {
            None => "*",
            Some(GameResult::Draw) => "Draw",
            Some(GameResult::Win(seat)) => self.seat_name(seat),
        }
    }

    /// The `Termination` tag's text for `termination`.
    pub fn termination_text(&self, termination: Option<Termination>) -> String {
        match termination {
            None => "*".to_string(),
            Some(Termination::Rules(words)) => words,
            Some(Termination::Resigned(seat)) => format!("{} resigned", self.seat_name(seat)),
            Some(Termination::DrawAgreed) => "draw agreed".to_string(),
            Some(Termination::Adjudicated) => "adjudicated by moderator".to_string(),
        }
    }
}

/// Text with each run of white space made one space.
pub(crate) fn read_words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A comment as the record keeps it: one line of text without braces.
pub(crate) fn clean_comment(text: &str) -> String {
    read_words(text).replace('{', "(").replace('}', ")")
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.layout().text)
    }
}
