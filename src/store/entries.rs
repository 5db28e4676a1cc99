//! A game's record: its entries in order (orders, resignations, draws,
//! rulings, comments), each with the events it produced (their words and
//! their data). The record is the truth of a game; its cached position is
//! rebuilt from it.

use rusqlite::params;

use crate::games::{Happened, Seat};
use crate::store::{column, EntryKind, Result, Timestamp, Tx};

/// One entry of a game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRow {
    /// Position in the record, from 1.
    pub seq: i64,
    /// What it is.
    pub kind: EntryKind,
    /// Who gave it.
    pub seat: Option<Seat>,
    /// The canonical order, the comment, or the result ruled.
    pub text: String,
    /// The line as written.
    pub written: String,
    /// The mail it came in.
    pub message_id: Option<String>,
    /// When.
    pub at: Timestamp,
}

impl Tx<'_> {
    /// Appends an entry to a game's record, with its events (their words
    /// and their data); returns its seq.
    #[allow(clippy::too_many_arguments)]
    pub fn add_entry(
        &self,
        game: i64,
        kind: EntryKind,
        seat: Option<Seat>,
        text: &str,
        written: &str,
        message_id: Option<&str>,
        at: Timestamp,
        events: &[Happened],
    ) -> Result<i64> {
        let seq: i64 = self.one(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE game_id = ?1",
            params![game],
            |r| r.get(0),
        )?;
        self.exec(
            "INSERT INTO entries (game_id, seq, kind, seat, text, written, message_id, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![game, seq, kind, seat, text, written, message_id, at],
        )?;
        for (n, e) in events.iter().enumerate() {
            self.exec(
                "INSERT INTO events (game_id, seq, n, text, data) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game, seq, n as i64, e.text, e.data.to_string()],
            )?;
        }
        Ok(seq)
    }

    /// A game's record entries, in order.
    pub fn entries(&self, game: i64) -> Result<Vec<EntryRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT seq, kind, seat, text, written, message_id, at FROM entries \
             WHERE game_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok(EntryRow {
                seq: r.get(0)?,
                kind: column(r, 1)?,
                seat: column(r, 2)?,
                text: r.get(3)?,
                written: r.get(4)?,
                message_id: r.get(5)?,
                at: column(r, 6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// How many entries a game's record holds: what [`Tx::entries`]`.len()`
    /// would say (the service needs the number for every order, press and
    /// notice it seeds). A game's entries are numbered 1, 2, 3... with no
    /// gap ([`Tx::add_entry`] takes the next number, and entries are only
    /// ever removed from the end, [`Tx::remove_last_orders`]), so the count
    /// is the last number: one step down the index, where a count walked
    /// every entry of the game.
    pub fn entry_count(&self, game: i64) -> Result<i64> {
        Ok(self.one(
            "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?1",
            params![game],
            |r| r.get(0),
        )?)
    }

    /// Whether `seat` has given an order of the game yet.
    pub fn has_ordered(&self, game: i64, seat: Seat) -> Result<bool> {
        Ok(self.one(
            "SELECT EXISTS (SELECT 1 FROM entries WHERE game_id = ?1 AND seat = ?2 AND kind = 'order')",
            params![game, seat],
            |r| r.get(0),
        )?)
    }

    /// Removes the last `n` order entries of a game (and anything recorded
    /// after the first of them), returning the orders removed.
    pub fn remove_last_orders(&self, game: i64, n: i64) -> Result<Vec<String>> {
        let first: Option<i64> = self.one(
            "SELECT MIN(seq) FROM (SELECT seq FROM entries WHERE game_id = ?1 AND kind = 'order' \
             ORDER BY seq DESC LIMIT ?2)",
            params![game, n],
            |r| r.get(0),
        )?;
        let Some(first) = first else {
            return Ok(Vec::new());
        };
        let mut stmt = self.tx.prepare_cached(
            "SELECT text FROM entries WHERE game_id = ?1 AND seq >= ?2 AND kind = 'order' ORDER BY seq",
        )?;
        let removed: Vec<String> = stmt
            .query_map(params![game, first], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        self.exec(
            "DELETE FROM events WHERE game_id = ?1 AND seq >= ?2",
            params![game, first],
        )?;
        self.exec(
            "DELETE FROM entries WHERE game_id = ?1 AND seq >= ?2",
            params![game, first],
        )?;
        Ok(removed)
    }
}
