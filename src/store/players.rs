//! Players: one per address, with their name, time zone, reminder and
//! digest choices; the moves of a player to a new address, waiting for
//! confirmation; and vacations, which stop a player's clocks.
//!
//! A digest's day is the player's local calendar date (`2026-11-24`), kept
//! as that text: it is compared with the text of other days only, never
//! with a moment.

use rusqlite::{params, OptionalExtension};

use crate::store::{column, Result, Timestamp, Tx};

/// A vacation as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VacationRow {
    /// Row id.
    pub id: i64,
    /// When it starts.
    pub starts: Timestamp,
    /// When it ends.
    pub ends: Timestamp,
    /// Whether its clocks were stopped.
    pub started: bool,
    /// Whether it is over.
    pub ended: bool,
}

impl Tx<'_> {
    /// The player with this address, created when new; the name is kept
    /// up to date.
    pub fn player(&self, address: &str, name: &str, at: Timestamp) -> Result<i64> {
        let address = address.to_ascii_lowercase();
        if let Some(id) = self
            .one(
                "SELECT id FROM players WHERE address = ?1",
                params![address],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
        {
            if !name.is_empty() {
                self.exec(
                    "UPDATE players SET name = ?2 WHERE id = ?1",
                    params![id, name],
                )?;
            }
            return Ok(id);
        }
        self.exec(
            "INSERT INTO players (address, name, created_at) VALUES (?1, ?2, ?3)",
            params![address, name, at],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// The player's id for an address, if known.
    pub fn player_id(&self, address: &str) -> Result<Option<i64>> {
        Ok(self
            .one(
                "SELECT id FROM players WHERE address = ?1",
                params![address.to_ascii_lowercase()],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// A player's time zone and whether they want reminders.
    pub fn player_settings(&self, address: &str) -> Result<(String, bool)> {
        Ok(self
            .one(
                "SELECT timezone, reminders FROM players WHERE address = ?1",
                params![address.to_ascii_lowercase()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .unwrap_or_else(|| ("UTC".to_string(), true)))
    }

    /// Sets the time zone a player guessed from the `Date:` of their mail,
    /// unless they chose one themselves.
    pub fn guess_timezone(&self, address: &str, zone: &str) -> Result<()> {
        self.exec(
            "UPDATE players SET timezone = ?2 WHERE address = ?1 AND timezone_chosen = 0",
            params![address.to_ascii_lowercase(), zone],
        )?;
        Ok(())
    }

    /// Sets the time zone a player chose (SET TIMEZONE).
    pub fn set_timezone(&self, player: i64, zone: &str) -> Result<()> {
        self.exec(
            "UPDATE players SET timezone = ?2, timezone_chosen = 1 WHERE id = ?1",
            params![player, zone],
        )?;
        Ok(())
    }

    /// Whether the player at `address` wants the board as a picture in
    /// their mail (SET PICTURES); yes for an address never seen.
    pub fn wants_pictures(&self, address: &str) -> Result<bool> {
        Ok(self
            .one(
                "SELECT pictures FROM players WHERE address = ?1",
                params![address.to_ascii_lowercase()],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(true))
    }

    /// Turns a player's pictures on or off (SET PICTURES).
    pub fn set_pictures(&self, player: i64, on: bool) -> Result<()> {
        self.exec(
            "UPDATE players SET pictures = ?2 WHERE id = ?1",
            params![player, on],
        )?;
        Ok(())
    }

    /// Turns a player's reminders on or off.
    pub fn set_reminders(&self, player: i64, on: bool) -> Result<()> {
        self.exec(
            "UPDATE players SET reminders = ?2 WHERE id = ?1",
            params![player, on],
        )?;
        Ok(())
    }

    /// Records a requested move of `player` to `new_address`, confirmed by
    /// `code` from there.
    pub fn request_address_change(
        &self,
        code: &str,
        player: i64,
        new_address: &str,
        at: Timestamp,
    ) -> Result<()> {
        self.exec(
            "INSERT OR REPLACE INTO address_changes (code, player_id, new_address, created_at) \
             VALUES (?1, ?2, ?3, ?4)",
            params![code, player, new_address.to_ascii_lowercase(), at],
        )?;
        Ok(())
    }

    /// Takes the requested move confirmed by `code` from `address`, made
    /// at or after `since`: (the player, their old address).
    pub fn take_address_change(
        &self,
        code: &str,
        address: &str,
        since: Timestamp,
    ) -> Result<Option<(i64, String)>> {
        let found: Option<i64> = self
            .one(
                "SELECT player_id FROM address_changes \
                 WHERE code = ?1 AND new_address = ?2 AND created_at >= ?3",
                params![code, address.to_ascii_lowercase(), since],
                |r| r.get(0),
            )
            .optional()?;
        let Some(player) = found else {
            return Ok(None);
        };
        self.exec("DELETE FROM address_changes WHERE code = ?1", params![code])?;
        let old: String = self.one(
            "SELECT address FROM players WHERE id = ?1",
            params![player],
            |r| r.get(0),
        )?;
        Ok(Some((player, old)))
    }

    /// Moves every seat of `player` to `new_address`: the player's own row
    /// takes the address, or, when the address already plays, the seats
    /// go to that player.
    pub fn move_player(&self, player: i64, new_address: &str) -> Result<()> {
        let address = new_address.to_ascii_lowercase();
        let existing: Option<i64> = self
            .one(
                "SELECT id FROM players WHERE address = ?1",
                params![address],
                |r| r.get(0),
            )
            .optional()?;
        match existing {
            Some(other) if other != player => {
                self.exec(
                    "UPDATE seats SET player_id = ?2 WHERE player_id = ?1",
                    params![player, other],
                )?;
            }
            Some(_) => {}
            None => {
                self.exec(
                    "UPDATE players SET address = ?2 WHERE id = ?1",
                    params![player, address],
                )?;
            }
        }
        Ok(())
    }

    /// Adds a vacation; returns its id.
    pub fn add_vacation(&self, player: i64, starts: Timestamp, ends: Timestamp) -> Result<i64> {
        self.exec(
            "INSERT INTO vacations (player_id, starts, ends) VALUES (?1, ?2, ?3)",
            params![player, starts, ends],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// A player's vacations that start at or after `since` (the start of
    /// the year whose vacation days are counted), oldest first.
    pub fn vacations_of(&self, player: i64, since: Timestamp) -> Result<Vec<VacationRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, starts, ends, started, ended FROM vacations \
             WHERE player_id = ?1 AND starts >= ?2 ORDER BY starts",
        )?;
        let rows = stmt.query_map(params![player, since], |r| {
            Ok(VacationRow {
                id: r.get(0)?,
                starts: column(r, 1)?,
                ends: column(r, 2)?,
                started: r.get(3)?,
                ended: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Vacations that should have started by `now` and have not:
    /// (id, player, starts, ends).
    pub fn vacations_to_start(
        &self,
        now: Timestamp,
    ) -> Result<Vec<(i64, i64, Timestamp, Timestamp)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, player_id, starts, ends FROM vacations \
             WHERE started = 0 AND ended = 0 AND starts <= ?1",
        )?;
        let rows = stmt.query_map(params![now], |r| {
            Ok((r.get(0)?, r.get(1)?, column(r, 2)?, column(r, 3)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Vacations that have run to their end by `now`: (id, player).
    pub fn vacations_to_end(&self, now: Timestamp) -> Result<Vec<(i64, i64)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, player_id FROM vacations WHERE started = 1 AND ended = 0 AND ends <= ?1",
        )?;
        let rows = stmt.query_map(params![now], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Marks a vacation started.
    pub fn start_vacation(&self, id: i64) -> Result<()> {
        self.exec(
            "UPDATE vacations SET started = 1 WHERE id = ?1",
            params![id],
        )?;
        Ok(())
    }

    /// Ends a vacation at `ends` (its end, or earlier when cut short).
    pub fn end_vacation(&self, id: i64, ends: Timestamp) -> Result<()> {
        self.exec(
            "UPDATE vacations SET ended = 1, ends = ?2 WHERE id = ?1",
            params![id, ends],
        )?;
        Ok(())
    }

    /// The vacation a player is on at `now`, if any: (id, ends).
    pub fn on_vacation(&self, player: i64, now: Timestamp) -> Result<Option<(i64, Timestamp)>> {
        Ok(self
            .one(
                "SELECT id, ends FROM vacations WHERE player_id = ?1 AND started = 1 \
                 AND ended = 0 AND starts <= ?2 AND ends > ?2",
                params![player, now],
                |r| Ok((r.get(0)?, column(r, 1)?)),
            )
            .optional()?)
    }

    /// Turns a player's daily digest on or off.
    pub fn set_digest(&self, player: i64, on: bool) -> Result<()> {
        self.exec(
            "UPDATE players SET digest = ?2 WHERE id = ?1",
            params![player, on],
        )?;
        Ok(())
    }

    /// Whether a player wants a daily digest instead of reminders.
    pub fn wants_digest(&self, address: &str) -> Result<bool> {
        Ok(self
            .one(
                "SELECT digest FROM players WHERE address = ?1",
                params![address.to_ascii_lowercase()],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(false))
    }

    /// Players who want a digest and have not had one on `day` (UTC date):
    /// (id, address, timezone).
    pub fn digests_due(&self, day: &str) -> Result<Vec<(i64, String, String)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, address, timezone FROM players WHERE digest = 1 \
             AND (digest_sent IS NULL OR digest_sent < ?1)",
        )?;
        let rows = stmt.query_map(params![day], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Whether a player's digest for `day` (their local date) went out.
    pub fn digest_already_sent(&self, player: i64, day: &str) -> Result<bool> {
        Ok(self
            .one(
                "SELECT digest_sent FROM players WHERE id = ?1",
                params![player],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()?
            .flatten()
            .is_some_and(|sent| sent.as_str() >= day))
    }

    /// Records the day a player's digest was sent.
    pub fn digest_sent(&self, player: i64, day: &str) -> Result<()> {
        self.exec(
            "UPDATE players SET digest_sent = ?2 WHERE id = ?1",
            params![player, day],
        )?;
        Ok(())
    }
}
