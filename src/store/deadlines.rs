//! The clock of each game: the deadline of its pending decision and the
//! notices sent for it, days per turn or a clock bank per seat, its own
//! time-out policy, pauses, adjournment of silent games, and the games a
//! moderator should look at because of any of these.

use rusqlite::{params, OptionalExtension};

use crate::games::Seat;
use crate::store::{column, Result, Timestamp, Tx};

/// The deadline of a game's pending decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The game.
    pub game_id: i64,
    /// The seat that must decide.
    pub seat: Seat,
    /// When.
    pub at: Timestamp,
    /// The notices already sent for this deadline (`24h`, `late`, ...).
    pub notices_sent: Vec<String>,
    /// Whether the time ran out (past the grace period).
    pub timed_out: bool,
}

/// A game that needs a moderator's look, and why (see [`Tx::stalled`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stalled {
    /// The game.
    pub game: i64,
    /// A player's open request for a moderator.
    pub disputed: Option<String>,
    /// Mail to one of its players cannot be delivered.
    pub undeliverable: bool,
    /// Both players silent for weeks.
    pub adjourned: bool,
    /// The time of the deciding seat ran out.
    pub timed_out: bool,
    /// Paused until then.
    pub paused_until: Option<Timestamp>,
    /// Who must decide, by when.
    pub deadline: Option<(Seat, Timestamp)>,
}

/// A row of `id, deadline_seat, deadline, notices_sent, timed_out`.
fn deadline_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Deadline> {
    Ok(Deadline {
        game_id: r.get(0)?,
        seat: column(r, 1)?,
        at: column(r, 2)?,
        notices_sent: r
            .get::<_, String>(3)?
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        timed_out: r.get(4)?,
    })
}

impl Tx<'_> {
    /// Sets the deadline of a game's pending decision (a new deadline: no
    /// notices sent, not timed out), or clears it.
    pub fn set_deadline(&self, game: i64, deadline: Option<(Seat, Timestamp)>) -> Result<()> {
        self.exec(
            "UPDATE games SET deadline = ?2, deadline_seat = ?3, notices_sent = '', \
             timed_out = 0 WHERE id = ?1",
            params![game, deadline.map(|d| d.1), deadline.map(|d| d.0)],
        )?;
        Ok(())
    }

    /// The days per turn of a game.
    pub fn set_turn_days(&self, game: i64, days: i64) -> Result<()> {
        self.exec(
            "UPDATE games SET turn_days = ?2 WHERE id = ?1",
            params![game, days],
        )?;
        Ok(())
    }

    /// A game's days per turn.
    pub fn turn_days(&self, game: i64) -> Result<i64> {
        Ok(self.one(
            "SELECT turn_days FROM games WHERE id = ?1",
            params![game],
            |r| r.get(0),
        )?)
    }

    /// A game's current deadline, if any.
    pub fn deadline(&self, game: i64) -> Result<Option<Deadline>> {
        Ok(self
            .one(
                "SELECT id, deadline_seat, deadline, notices_sent, timed_out FROM games \
                 WHERE id = ?1 AND deadline IS NOT NULL AND status = 'active'",
                params![game],
                deadline_row,
            )
            .optional()?)
    }

    /// Active games whose deadline is at or before `until` (an indexed range
    /// scan: the sweep reads only games with something due).
    pub fn deadlines_until(&self, until: Timestamp) -> Result<Vec<Deadline>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, deadline_seat, deadline, notices_sent, timed_out FROM games \
             WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?1 \
             AND paused_until IS NULL",
        )?;
        let rows = stmt.query_map(params![until], deadline_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records a notice as sent for the game's current deadline.
    pub fn add_notice(&self, game: i64, notice: &str) -> Result<()> {
        self.exec(
            "UPDATE games SET notices_sent = notices_sent || ' ' || ?2 || ' ' WHERE id = ?1",
            params![game, notice],
        )?;
        Ok(())
    }

    /// Marks the game's time as run out.
    pub fn set_timed_out(&self, game: i64) -> Result<()> {
        self.exec(
            "UPDATE games SET timed_out = 1 WHERE id = ?1",
            params![game],
        )?;
        Ok(())
    }

    /// Moves a deadline (keeping its notices: they are per deadline moment
    /// only when the deadline is new).
    pub fn move_deadline(&self, game: i64, to: Timestamp) -> Result<()> {
        self.exec(
            "UPDATE games SET deadline = ?2, notices_sent = '' WHERE id = ?1",
            params![game, to],
        )?;
        Ok(())
    }

    /// The active games in which a player's seat has the pending deadline:
    /// (game, seat, deadline).
    pub fn deadlines_of_player(&self, player: i64) -> Result<Vec<(i64, Seat, Timestamp)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT g.id, g.deadline_seat, g.deadline FROM games g JOIN seats s \
             ON s.game_id = g.id AND s.seat = g.deadline_seat \
             WHERE s.player_id = ?1 AND g.status = 'active' AND g.deadline IS NOT NULL",
        )?;
        let rows = stmt.query_map(params![player], |r| {
            Ok((r.get(0)?, column(r, 1)?, column(r, 2)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Sets a game's clock bank: every seat starts with `initial_secs`,
    /// gains `increment_secs` per turn, up to `cap_secs`.
    pub fn set_clock(
        &self,
        game: i64,
        initial_secs: i64,
        increment_secs: i64,
        cap_secs: i64,
    ) -> Result<()> {
        self.exec(
            "UPDATE games SET clock_increment_secs = ?2, clock_cap_secs = ?3 WHERE id = ?1",
            params![game, increment_secs, cap_secs],
        )?;
        self.exec(
            "UPDATE seats SET bank_secs = ?2 WHERE game_id = ?1",
            params![game, initial_secs],
        )?;
        Ok(())
    }

    /// A game's clock: (increment, cap) when it plays with a bank.
    pub fn clock(&self, game: i64) -> Result<Option<(i64, i64)>> {
        Ok(self
            .one(
                "SELECT clock_increment_secs, clock_cap_secs FROM games WHERE id = ?1",
                params![game],
                |r| Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, Option<i64>>(1)?)),
            )
            .optional()?
            .and_then(|(i, c)| Some((i?, c?))))
    }

    /// A seat's clock bank left, in seconds.
    pub fn bank(&self, game: i64, seat: Seat) -> Result<Option<i64>> {
        Ok(self
            .one(
                "SELECT bank_secs FROM seats WHERE game_id = ?1 AND seat = ?2",
                params![game, seat],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Sets a seat's clock bank.
    pub fn set_bank(&self, game: i64, seat: Seat, secs: i64) -> Result<()> {
        self.exec(
            "UPDATE seats SET bank_secs = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat, secs],
        )?;
        Ok(())
    }

    /// What the current deadline is for (`turn` or `decision`) and since
    /// when its clock runs.
    pub fn deadline_start(&self, game: i64) -> Result<Option<(String, Timestamp)>> {
        Ok(self
            .one(
                "SELECT deadline_kind, deadline_since FROM games WHERE id = ?1",
                params![game],
                |r| {
                    Ok((
                        r.get::<_, Option<String>>(0)?,
                        column::<Option<Timestamp>>(r, 1)?,
                    ))
                },
            )
            .optional()?
            .and_then(|(k, s)| Some((k?, s?))))
    }

    /// Records what the current deadline is for and since when it runs.
    pub fn set_deadline_start(&self, game: i64, kind: &str, since: Timestamp) -> Result<()> {
        self.exec(
            "UPDATE games SET deadline_kind = ?2, deadline_since = ?3 WHERE id = ?1",
            params![game, kind, since],
        )?;
        Ok(())
    }

    /// A game's own time-out policy, if it has one.
    pub fn timeout_policy(&self, game: i64) -> Result<Option<String>> {
        Ok(self
            .one(
                "SELECT timeout_policy FROM games WHERE id = ?1",
                params![game],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Sets a game's own time-out policy.
    pub fn set_timeout_policy(&self, game: i64, policy: &str) -> Result<()> {
        self.exec(
            "UPDATE games SET timeout_policy = ?2 WHERE id = ?1",
            params![game, policy],
        )?;
        Ok(())
    }

    /// Pauses a game until `until`, keeping the time left to its deadline.
    pub fn pause(&self, game: i64, until: Timestamp, left_secs: Option<i64>) -> Result<()> {
        self.exec(
            "UPDATE games SET paused_until = ?2, paused_left_secs = ?3 WHERE id = ?1",
            params![game, until, left_secs],
        )?;
        Ok(())
    }

    /// Ends a pause: (the time left it kept, if any).
    pub fn unpause(&self, game: i64) -> Result<Option<i64>> {
        let left: Option<i64> = self
            .one(
                "SELECT paused_left_secs FROM games WHERE id = ?1",
                params![game],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        self.exec(
            "UPDATE games SET paused_until = NULL, paused_left_secs = NULL WHERE id = ?1",
            params![game],
        )?;
        Ok(left)
    }

    /// A game's pause, if it is paused: until when, and the time its
    /// deadline had left when it was paused (if it had one).
    pub fn pause_of(&self, game: i64) -> Result<Option<(Timestamp, Option<i64>)>> {
        let row: Option<(Option<Timestamp>, Option<i64>)> = self
            .one(
                "SELECT paused_until, paused_left_secs FROM games WHERE id = ?1",
                params![game],
                |r| Ok((column(r, 0)?, r.get(1)?)),
            )
            .optional()?;
        Ok(row.and_then(|(until, left)| until.map(|until| (until, left))))
    }

    /// Until when a game is paused, if it is.
    pub fn paused_until(&self, game: i64) -> Result<Option<Timestamp>> {
        Ok(self
            .one(
                "SELECT paused_until FROM games WHERE id = ?1",
                params![game],
                |r| column(r, 0),
            )
            .optional()?
            .flatten())
    }

    /// Paused games whose pause has ended by `now`.
    pub fn pauses_ended(&self, now: Timestamp) -> Result<Vec<i64>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id FROM games WHERE paused_until IS NOT NULL AND paused_until <= ?1",
        )?;
        let rows = stmt.query_map(params![now], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Active games not adjourned whose last change was at or before
    /// `before`.
    pub fn silent_games(&self, before: Timestamp) -> Result<Vec<i64>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id FROM games WHERE status = 'active' AND updated_at <= ?1 AND adjourned = 0",
        )?;
        let rows = stmt.query_map(params![before], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Marks a game adjourned to the moderators (or back in play).
    pub fn set_adjourned(&self, game: i64, adjourned: bool) -> Result<()> {
        self.exec(
            "UPDATE games SET adjourned = ?2 WHERE id = ?1",
            params![game, adjourned],
        )?;
        Ok(())
    }

    /// Games a moderator should look at: past their deadline, timed out,
    /// paused, with an undeliverable seat, or with an open request; by game
    /// number.
    pub fn stalled(&self, now: Timestamp) -> Result<Vec<Stalled>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT g.id, g.disputed, \
               EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.undeliverable IS NOT NULL), \
               g.adjourned, g.timed_out, g.paused_until, g.deadline_seat, g.deadline \
             FROM games g WHERE g.status IN ('active', 'invited') AND (g.disputed IS NOT NULL \
               OR g.adjourned = 1 \
               OR g.timed_out = 1 OR g.paused_until IS NOT NULL \
               OR (g.deadline IS NOT NULL AND g.deadline <= ?1) \
               OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.undeliverable IS NOT NULL)) \
             ORDER BY g.id",
        )?;
        let rows = stmt.query_map(params![now], |r| {
            let seat: Option<Seat> = column(r, 6)?;
            Ok(Stalled {
                game: r.get(0)?,
                disputed: r.get(1)?,
                undeliverable: r.get(2)?,
                adjourned: r.get(3)?,
                timed_out: r.get(4)?,
                paused_until: column(r, 5)?,
                deadline: match (seat, column(r, 7)?) {
                    (Some(seat), Some(at)) => Some((seat, at)),
                    _ => None,
                },
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
