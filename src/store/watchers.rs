//! Who watches which public game (`WATCH`, `UNWATCH`), and the public games
//! themselves (`GAMES PUBLIC`).

use rusqlite::{params, OptionalExtension};

use super::games::{game_row, GAME_COLUMNS};
use crate::store::{GameRow, Result, Timestamp, Tx};

impl Tx<'_> {
    /// Makes `player` a watcher of `game` from `since`, not confirmed
    /// yet; false when they watched it already (nothing changes then).
    pub fn watch(&self, game: i64, player: i64, since: Timestamp) -> Result<bool> {
        Ok(self.exec(
            "INSERT OR IGNORE INTO watchers (game_id, player_id, since, confirmed) \
             VALUES (?1, ?2, ?3, 0)",
            params![game, player, since],
        )? == 1)
    }

    /// Confirms `player`'s watching of `game` (their reply to the answer
    /// to WATCH); false when there was nothing to confirm.
    pub fn confirm_watch(&self, game: i64, player: i64) -> Result<bool> {
        Ok(self.exec(
            "UPDATE watchers SET confirmed = 1 \
             WHERE game_id = ?1 AND player_id = ?2 AND confirmed = 0",
            params![game, player],
        )? == 1)
    }

    /// Whether `player`'s watching of `game` is confirmed.
    pub fn watch_confirmed(&self, game: i64, player: i64) -> Result<bool> {
        Ok(self
            .one(
                "SELECT confirmed FROM watchers WHERE game_id = ?1 AND player_id = ?2",
                params![game, player],
                |r| r.get::<_, bool>(0),
            )
            .optional()?
            .unwrap_or(false))
    }

    /// Stops `player` watching `game`; false when they did not.
    pub fn unwatch(&self, game: i64, player: i64) -> Result<bool> {
        Ok(self.exec(
            "DELETE FROM watchers WHERE game_id = ?1 AND player_id = ?2",
            params![game, player],
        )? == 1)
    }

    /// Stops the address watching any game (its mail bounces for good);
    /// returns how many games it watched.
    pub fn unwatch_address(&self, address: &str) -> Result<usize> {
        Ok(self.exec(
            "DELETE FROM watchers WHERE player_id IN \
             (SELECT id FROM players WHERE address = ?1)",
            params![address.to_ascii_lowercase()],
        )?)
    }

    /// Whether `player` watches `game`.
    pub fn watches(&self, game: i64, player: i64) -> Result<bool> {
        Ok(self
            .one(
                "SELECT 1 FROM watchers WHERE game_id = ?1 AND player_id = ?2",
                params![game, player],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .is_some())
    }

    /// The addresses watching `game` (confirmed), the earliest watcher
    /// first; not those who have since taken a seat in it (REPLACE), who
    /// get the seat's mail.
    pub fn watchers(&self, game: i64) -> Result<Vec<String>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT p.address FROM watchers w JOIN players p ON p.id = w.player_id \
             WHERE w.game_id = ?1 AND w.confirmed = 1 AND w.player_id NOT IN \
             (SELECT player_id FROM seats WHERE game_id = ?1) ORDER BY w.since, p.id",
        )?;
        let rows = stmt.query_map(params![game], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// How many watch `game`.
    pub fn watcher_count(&self, game: i64) -> Result<i64> {
        Ok(self.one(
            "SELECT COUNT(*) FROM watchers WHERE game_id = ?1",
            params![game],
            |r| r.get(0),
        )?)
    }

    /// How many games not over yet `player` watches.
    pub fn watching_count(&self, player: i64) -> Result<i64> {
        Ok(self.one(
            "SELECT COUNT(*) FROM watchers w JOIN games g ON g.id = w.game_id \
             WHERE w.player_id = ?1 AND g.status IN ('invited', 'active')",
            params![player],
            |r| r.get(0),
        )?)
    }

    /// The `limit` most recent public games, newest first.
    pub fn public_games(&self, limit: i64) -> Result<Vec<GameRow>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE public = 1 ORDER BY id DESC LIMIT ?1"
        ))?;
        let rows = stmt.query_map(params![limit], game_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
