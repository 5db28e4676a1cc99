//! A game's record and state rebuilt from its stored entries: the truth
//! the cached position is checked against, and what HISTORY and the last
//! mail of a game carry.

use super::game::{hosted_of, load};
use super::work::Work;
use super::Result;
use std::collections::HashMap;

use crate::games::fair::DrawInputs;
use crate::games::{AnyGame, GameOptions};
use crate::record::{Record, Recorder, COMMITMENT_TAG, REVEALED_TAG};
use crate::store::{result_from_text, EntryKind, GameRow, GameStatus, StoreError, Timestamp, Tx};

impl Work<'_> {
    /// The game's state: the cache when it is current, else a replay.
    pub(super) fn state(&self, game: &GameRow) -> Result<Box<dyn AnyGame>> {
        let count = self.tx.entry_count(game.id)?;
        if game.order_count == count {
            if let Some(state) = load(game) {
                return Ok(state);
            }
        }
        Ok(self.record_replay(game)?.game().clone_box())
    }

    /// The game replayed from its stored entries.
    fn record_replay(&self, game: &GameRow) -> Result<Recorder> {
        rebuild(self.tx, game, self.domain())
    }

    /// The game's record so far.
    pub(super) fn record(&self, game: &GameRow) -> Result<Record> {
        Ok(self.record_replay(game)?.into_record())
    }
}

/// Rebuilds a game's record and state from its stored entries.
pub fn rebuild(tx: &Tx<'_>, game: &GameRow, site: &str) -> Result<Recorder> {
    let hosted = hosted_of(game)?;
    // The record holds every drawn outcome as an order, so it replays
    // without the seed, which stays the service's (design: chance).
    let mut recorder = Recorder::new(
        hosted,
        &GameOptions {
            first: game.first_seat,
            seed: None,
            scenario: game.scenario.clone(),
        },
    );
    let seats = tx.seats(game.id)?;
    {
        let tags = recorder.tags_mut();
        tags.game_id = game.id.to_string();
        tags.site = site.to_string();
        for s in &seats {
            tags.players[s.seat.index()] = super::computer::seat_label(game, s);
        }
        tags.started = record_date(game.created_at);
        if game.status == GameStatus::Finished {
            tags.ended = record_date(game.updated_at);
        }
        // The commitment from the start, the seed once the game is over
        // and not before: it would tell the draws to come (docs/dice.md).
        if let Some(kept) = tx.fair_seed(game.id)? {
            let mut set = |name: &str, value: String| {
                tags.set_extra(name, &value)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))
            };
            set(COMMITMENT_TAG, kept.commitment.to_string())?;
            if game.status == GameStatus::Finished {
                set(REVEALED_TAG, kept.seed.to_hex())?;
            }
        }
    }
    let draws: HashMap<i64, DrawInputs> = tx
        .fair_draws(game.id)?
        .into_iter()
        .map(|d| (d.seq, d.inputs))
        .collect();
    for e in tx.entries(game.id)? {
        let outcome = match (e.kind, e.seat) {
            (EntryKind::Order, seat) => match (draws.get(&e.seq), seat) {
                (Some(inputs), _) => recorder.draw(&e.text, *inputs),
                // A standing order given while the other seat decided.
                (None, Some(s)) if recorder.game().pending().is_some_and(|p| p.seat != s) => {
                    recorder.apply_standing(s, &e.text)
                }
                (None, _) => recorder.apply(&e.text),
            }
            .map(|_| ())
            .map_err(|e| format!("{e:?}")),
            (EntryKind::Resign, Some(seat)) => recorder.resign(seat).map_err(|e| format!("{e:?}")),
            (EntryKind::Resign, None) => Err("a resignation of nobody".to_string()),
            (EntryKind::Draw, _) => recorder.agree_draw().map_err(|e| format!("{e:?}")),
            (EntryKind::Adjudicate, _) => match result_from_text(&e.text) {
                Some(result) => recorder.adjudicate(result).map_err(|e| format!("{e:?}")),
                None => Err(format!("{:?} is no result", e.text)),
            },
            (EntryKind::Comment, _) => {
                recorder.comment(&e.text);
                Ok(())
            }
        };
        if let Err(why) = outcome {
            return Err(
                StoreError::Corrupt(format!("game {} entry {}: {why}", game.id, e.seq)).into(),
            );
        }
    }
    Ok(recorder)
}

/// The date (UTC) of a stored time, for a record's tags.
fn record_date(at: Timestamp) -> Option<crate::record::Date> {
    use chrono::Datelike;
    let date = at.utc().date_naive();
    crate::record::Date::new(
        u16::try_from(date.year()).ok()?,
        u8::try_from(date.month()).ok()?,
        u8::try_from(date.day()).ok()?,
    )
}
