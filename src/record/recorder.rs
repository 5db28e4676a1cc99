//! Building a record while a game is played.

use crate::games::fair::DrawInputs;
use crate::games::hosted::Hosted;
use crate::games::{AnyGame, GameOptions, GameResult, Happened, Rejection, Seat};

use super::replay::Replayed;
use super::{DrawEntry, EndMarker, Ending, Entry, Finish, ForcedNote, OrderEntry, Record, Tags};

/// An order or an end the recorder did not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The engine refused the order (or could not read it).
    #[error("{}", .0.problem)]
    Order(Rejection),
    /// The game has already ended.
    #[error("the game is over")]
    Over(Finish),
}

/// A game being played and its record, kept in step: each order applied
/// is recorded with what it forced, each end is recorded with the result.
#[derive(Clone, Debug)]
pub struct Recorder {
    game: Box<dyn AnyGame>,
    record: Record,
    last_action: Vec<Happened>,
}

impl Recorder {
    /// A new game of `game` from its opening.
    pub fn new(game: &Hosted, options: &GameOptions) -> Self {
        Recorder {
            game: (game.new)(options),
            record: Record::new(game, options),
            last_action: Vec::new(),
        }
    }

    /// A game that starts from `game`'s position (the record's `Position`).
    pub fn from_position(game: Box<dyn AnyGame>) -> Self {
        let mut record = Record::from_position(game.as_ref());
        record.tags.finish = game.outcome().map(Finish::of);
        Recorder {
            game,
            record,
            last_action: Vec::new(),
        }
    }

    /// Goes on from a replayed record.
    pub fn resume(replayed: Replayed) -> Self {
        Recorder {
            game: replayed.game,
            record: replayed.record,
            last_action: replayed.last_action,
        }
    }

    /// The game as it stands.
    pub fn game(&self) -> &dyn AnyGame {
        self.game.as_ref()
    }

    /// The record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The record's tags, to set the players, dates, site and game id.
    pub fn tags_mut(&mut self) -> &mut Tags {
        &mut self.record.tags
    }

    /// The record, once the recorder is no longer needed.
    pub fn into_record(self) -> Record {
        self.record
    }

    /// The events of the last action: its turn-level order and the
    /// decisions inside it, as [`AnyGame::draw_board`] marks them.
    pub fn last_action(&self) -> &[Happened] {
        &self.last_action
    }

    /// How the game ended, or `None` while it goes on.
    pub fn finish(&self) -> Option<Finish> {
        self.record.tags.finish.clone()
    }

    fn going(&self) -> Result<(), Refused> {
        match self.record.tags.finish.clone() {
            Some(finish) => Err(Refused::Over(finish)),
            None => Ok(()),
        }
    }

    /// Applies an order in canonical notation for the pending decision and
    /// records it with the decisions it forced; records the result when the
    /// game ends.
    pub fn apply(&mut self, order: &str) -> Result<Vec<Happened>, Refused> {
        self.going()?;
        let before = self.game.pending();
        let number = self.game.turn_number();
        let (order, events) = self.game.apply_canonical(order).map_err(Refused::Order)?;
        // An engine applies orders only while a decision is pending.
        let Some(pending) = before else {
            return Ok(events);
        };
        let turn_level = pending.phase.is_turn();
        let forced = ForcedNote::of_events(&events);
        self.record.push(Entry::Order(OrderEntry {
            number: turn_level.then_some(number),
            seat: pending.seat,
            order,
            forced,
        }));
        if turn_level {
            self.last_action.clear();
        }
        self.last_action.extend(events.iter().cloned());
        self.record.tags.finish = self.game.outcome().map(Finish::of);
        Ok(events)
    }

    /// Applies a standing order `seat` gave while the other seat decided
    /// ([`crate::games::Game::apply_standing`]), and records it as that
    /// seat's continuation line.
    pub fn apply_standing(&mut self, seat: Seat, order: &str) -> Result<Vec<Happened>, Refused> {
        self.going()?;
        let applied = self.game.play_standing(seat, order).unwrap_or_else(|| {
            Err(Rejection {
                line: order.to_string(),
                problem: "not a standing order of this game".to_string(),
                rule: None,
                suggestions: Vec::new(),
            })
        });
        let (order, events) = applied.map_err(Refused::Order)?;
        self.record.push(Entry::Order(OrderEntry {
            number: None,
            seat,
            order,
            forced: Vec::new(),
        }));
        Ok(events)
    }

    /// Applies the order of a draw of chance the game waits for, and
    /// records it with the draw's number and public inputs (docs/dice.md);
    /// records the result when the game ends.
    pub fn draw(&mut self, order: &str, inputs: DrawInputs) -> Result<Vec<Happened>, Refused> {
        self.going()?;
        if self.game.chance().is_none() {
            return Err(Refused::Order(Rejection {
                line: order.to_string(),
                problem: "the game waits for no draw of chance".to_string(),
                rule: None,
                suggestions: Vec::new(),
            }));
        }
        let (order, events) = self.game.apply_canonical(order).map_err(Refused::Order)?;
        self.record.push(Entry::Draw(DrawEntry { inputs, order }));
        self.last_action.extend(events.iter().cloned());
        self.record.tags.finish = self.game.outcome().map(Finish::of);
        Ok(events)
    }

    /// Records a comment: a moderator's action, or anything a reader of the
    /// record should know.
    pub fn comment(&mut self, text: &str) {
        self.record.push_comment(text);
    }

    fn end(&mut self, ending: Ending) -> Result<(), Refused> {
        self.going()?;
        self.record.push(Entry::End(EndMarker {
            number: self.game.turn_number(),
            ending,
        }));
        self.record.tags.finish = Some(ending.finish());
        Ok(())
    }

    /// `seat` resigns: the other seat wins.
    pub fn resign(&mut self, seat: Seat) -> Result<(), Refused> {
        self.end(Ending::Resigned(seat))
    }

    /// The players agree to a draw (R28).
    pub fn agree_draw(&mut self) -> Result<(), Refused> {
        self.end(Ending::DrawAgreed)
    }

    /// A moderator decides the result. Record the reason first with
    /// [`Recorder::comment`].
    pub fn adjudicate(&mut self, result: GameResult) -> Result<(), Refused> {
        self.end(Ending::Adjudicated(result))
    }
}
