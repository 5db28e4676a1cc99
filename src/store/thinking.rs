//! The computer's thinking, written down (migration 0021): each search with
//! the playouts it cost and the player whose game it was, and the games
//! whose answer waits for the budget to allow it.

use rusqlite::params;

use crate::store::{Result, Timestamp, Tx};

impl Tx<'_> {
    /// Writes down a search of `playouts` made in `game`, a game of
    /// `player`'s, at `at`.
    pub fn add_thinking(
        &self,
        player: &str,
        game: i64,
        playouts: u64,
        at: Timestamp,
    ) -> Result<()> {
        self.exec(
            "INSERT INTO computer_thinking (player, game_id, at, playouts) VALUES (?1, ?2, ?3, ?4)",
            params![
                player,
                game,
                at,
                i64::try_from(playouts).unwrap_or(i64::MAX)
            ],
        )?;
        Ok(())
    }

    /// The playouts searched in `player`'s games after `since`.
    pub fn thinking_for(&self, player: &str, since: Timestamp) -> Result<u64> {
        let sum: i64 = self.one(
            "SELECT COALESCE(SUM(playouts), 0) FROM computer_thinking \
             WHERE player = ?1 AND at > ?2",
            params![player, since],
            |r| r.get(0),
        )?;
        Ok(u64::try_from(sum).unwrap_or(0))
    }

    /// The playouts searched in all games after `since`.
    pub fn thinking_in_all(&self, since: Timestamp) -> Result<u64> {
        let sum: i64 = self.one(
            "SELECT COALESCE(SUM(playouts), 0) FROM computer_thinking WHERE at > ?1",
            params![since],
            |r| r.get(0),
        )?;
        Ok(u64::try_from(sum).unwrap_or(0))
    }

    /// The time of the search of `player`'s games after `since` at which
    /// their sum, oldest first, first exceeds `over` playouts: an hour
    /// after it, the searches up to it have left the hour, and the hour's
    /// sum has fallen by more than `over`. `None` when they do not add up
    /// to more than that.
    pub fn thinking_passes(
        &self,
        player: &str,
        since: Timestamp,
        over: u64,
    ) -> Result<Option<Timestamp>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT at, playouts FROM computer_thinking WHERE player = ?1 AND at > ?2 \
             ORDER BY at, id",
        )?;
        let mut rows = stmt.query(params![player, since])?;
        let mut sum = 0u64;
        while let Some(row) = rows.next()? {
            let at: Timestamp = row.get(0)?;
            let playouts: i64 = row.get(1)?;
            sum = sum.saturating_add(u64::try_from(playouts).unwrap_or(0));
            if sum > over {
                return Ok(Some(at));
            }
        }
        Ok(None)
    }

    /// Forgets the searches made before `before` (no budget reads them).
    pub fn forget_thinking_before(&self, before: Timestamp) -> Result<usize> {
        Ok(self.exec(
            "DELETE FROM computer_thinking WHERE at < ?1",
            params![before],
        )?)
    }

    /// Marks `game` as owed the computer's answer since `since` (a game
    /// owed already keeps its first time: it stays in its place).
    pub fn owe_computer(&self, game: i64, since: Timestamp) -> Result<()> {
        self.exec(
            "UPDATE games SET computer_owed_since = COALESCE(computer_owed_since, ?2) WHERE id = ?1",
            params![game, since],
        )?;
        Ok(())
    }

    /// Clears `game`'s mark: the computer has answered.
    pub fn computer_paid(&self, game: i64) -> Result<()> {
        self.exec(
            "UPDATE games SET computer_owed_since = NULL WHERE id = ?1",
            params![game],
        )?;
        Ok(())
    }

    /// Whether `game` waits for the computer's answer.
    pub fn computer_owes(&self, game: i64) -> Result<bool> {
        let owed: Option<Timestamp> = self.one(
            "SELECT computer_owed_since FROM games WHERE id = ?1",
            params![game],
            |r| r.get(0),
        )?;
        Ok(owed.is_some())
    }

    /// How many of `player`'s games (by address) wait for the computer's
    /// answer.
    pub fn owed_games_of(&self, player: &str) -> Result<i64> {
        Ok(self.one(
            "SELECT COUNT(*) FROM games g WHERE g.computer_owed_since IS NOT NULL \
             AND EXISTS (SELECT 1 FROM seats s JOIN players p ON p.id = s.player_id \
               WHERE s.game_id = g.id AND p.address = ?1)",
            params![player],
            |r| r.get(0),
        )?)
    }

    /// The games owed the computer's answer and not paused (answered when
    /// their pause ends), the longest waiting first, at most `limit` of
    /// them.
    pub fn games_owed_by_computer(&self, limit: u32) -> Result<Vec<i64>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id FROM games WHERE computer_owed_since IS NOT NULL \
             AND paused_until IS NULL ORDER BY computer_owed_since, id LIMIT ?1",
        )?;
        let ids = stmt
            .query_map(params![limit], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        Ok(ids)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use crate::store::{Store, Timestamp};

    /// `minute` minutes after 10:00 of a fixed day.
    fn at(minute: i64) -> Timestamp {
        (Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 0).unwrap() + chrono::Duration::minutes(minute))
            .into()
    }

    #[test]
    fn an_hours_thinking_is_summed_after_its_start_and_told_when_it_falls() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        tx.add_thinking("ann@x", 1, 40, at(0)).unwrap();
        tx.add_thinking("ann@x", 1, 50, at(10)).unwrap();
        tx.add_thinking("bob@x", 2, 7, at(20)).unwrap();
        tx.add_thinking("ann@x", 1, 30, at(30)).unwrap();
        // A search made at the hour's very start has left it.
        assert_eq!(tx.thinking_for("ann@x", at(-1)).unwrap(), 120);
        assert_eq!(tx.thinking_for("ann@x", at(0)).unwrap(), 80);
        assert_eq!(tx.thinking_in_all(at(0)).unwrap(), 87);
        assert_eq!(tx.thinking_in_all(at(30)).unwrap(), 0);
        // Ann's 120 over a budget of 100: the hour must lose more than 20,
        // which the first search alone does; more than 40 takes two.
        assert_eq!(
            tx.thinking_passes("ann@x", at(-1), 20).unwrap(),
            Some(at(0))
        );
        assert_eq!(
            tx.thinking_passes("ann@x", at(-1), 40).unwrap(),
            Some(at(10))
        );
        assert_eq!(tx.thinking_passes("ann@x", at(-1), 120).unwrap(), None);
        assert_eq!(tx.forget_thinking_before(at(10)).unwrap(), 1);
        assert_eq!(tx.thinking_for("ann@x", at(-1)).unwrap(), 80);
    }

    #[test]
    fn an_owed_game_keeps_its_place_until_paid() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let one = tx
            .create_game(
                "squares",
                crate::games::Seat::North,
                crate::games::Seat::North,
                1,
                None,
                at(0),
            )
            .unwrap();
        let two = tx
            .create_game(
                "squares",
                crate::games::Seat::North,
                crate::games::Seat::North,
                2,
                None,
                at(0),
            )
            .unwrap();
        tx.owe_computer(two, at(1)).unwrap();
        tx.owe_computer(one, at(2)).unwrap();
        // Owed again later, it keeps its first time.
        tx.owe_computer(two, at(3)).unwrap();
        assert_eq!(tx.games_owed_by_computer(10).unwrap(), vec![two, one]);
        assert_eq!(tx.games_owed_by_computer(1).unwrap(), vec![two]);
        tx.computer_paid(two).unwrap();
        assert!(!tx.computer_owes(two).unwrap());
        assert!(tx.computer_owes(one).unwrap());
        assert_eq!(tx.games_owed_by_computer(10).unwrap(), vec![one]);
    }
}
