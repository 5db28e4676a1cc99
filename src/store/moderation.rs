//! Moderation: every moderator action audited, a player's open request for
//! a moderator, and a game's own moderator, who acts once they accept.

use rusqlite::{params, OptionalExtension};

use crate::store::{column, Result, Timestamp, Tx};

impl Tx<'_> {
    /// Audits a moderator action.
    pub fn audit(
        &self,
        game: Option<i64>,
        moderator: &str,
        action: &str,
        outcome: &str,
        at: Timestamp,
    ) -> Result<()> {
        self.exec(
            "INSERT INTO moderation (game_id, moderator, action, outcome, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game, moderator, action, outcome, at],
        )?;
        Ok(())
    }

    /// The audit of a game: (moderator, action, outcome, at), oldest first.
    pub fn audit_of(&self, game: i64) -> Result<Vec<(String, String, String, Timestamp)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT moderator, action, outcome, at FROM moderation WHERE game_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, column(r, 3)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records or clears a player's open request for a moderator.
    pub fn set_disputed(&self, game: i64, text: Option<&str>) -> Result<()> {
        self.exec(
            "UPDATE games SET disputed = ?2 WHERE id = ?1",
            params![game, text],
        )?;
        Ok(())
    }

    /// Records `text` as `game`'s request to the moderators unless one
    /// stands already: orderly's own request (its computer's failure) never
    /// hides a player's, which the moderators would then never see.
    pub fn set_disputed_if_none(&self, game: i64, text: &str) -> Result<()> {
        self.exec(
            "UPDATE games SET disputed = ?2 WHERE id = ?1 AND disputed IS NULL",
            params![game, text],
        )?;
        Ok(())
    }

    /// Clears `game`'s request to the moderators if it is `text` (and
    /// only then).
    pub fn clear_disputed_if(&self, game: i64, text: &str) -> Result<()> {
        self.exec(
            "UPDATE games SET disputed = NULL WHERE id = ?1 AND disputed = ?2",
            params![game, text],
        )?;
        Ok(())
    }

    /// Clears `game`'s request to the moderators unless it is `text`.
    pub fn clear_disputed_unless(&self, game: i64, text: &str) -> Result<()> {
        self.exec(
            "UPDATE games SET disputed = NULL WHERE id = ?1 AND disputed IS NOT ?2",
            params![game, text],
        )?;
        Ok(())
    }

    /// A game's own moderator, if it names one.
    pub fn game_moderator(&self, game: i64) -> Result<Option<String>> {
        Ok(self
            .one(
                "SELECT moderator FROM games WHERE id = ?1 AND moderator_confirmed = 1",
                params![game],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Whether an address is the own moderator of some game.
    pub fn moderates_any(&self, address: &str) -> Result<bool> {
        Ok(self
            .one(
                "SELECT 1 FROM games WHERE moderator = ?1 AND moderator_confirmed = 1 LIMIT 1",
                params![address.to_ascii_lowercase()],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Names a game's own moderator, who acts once they accept.
    pub fn set_game_moderator(&self, game: i64, address: &str) -> Result<()> {
        self.exec(
            "UPDATE games SET moderator = ?2, moderator_confirmed = 0 WHERE id = ?1",
            params![game, address.to_ascii_lowercase()],
        )?;
        Ok(())
    }

    /// The games naming `address` as their moderator who has not accepted.
    pub fn moderation_asked(&self, address: &str) -> Result<Vec<i64>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id FROM games WHERE moderator = ?1 AND moderator_confirmed = 0 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![address.to_ascii_lowercase()], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The named moderator of `game` accepts (true) or declines (false).
    pub fn answer_moderation(&self, game: i64, accept: bool) -> Result<()> {
        let sql = if accept {
            "UPDATE games SET moderator_confirmed = 1 WHERE id = ?1"
        } else {
            "UPDATE games SET moderator = NULL, moderator_confirmed = 0 WHERE id = ?1"
        };
        self.exec(sql, params![game])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use crate::games::Seat;
    use crate::store::{Store, Timestamp, Tx};

    #[test]
    fn a_request_to_the_moderators_is_cleared_only_as_asked() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let at: Timestamp = Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 0).unwrap().into();
        let game = tx
            .create_game("squares", Seat::North, Seat::North, 1, None, at)
            .unwrap();
        let disputed = |tx: &Tx<'_>| {
            tx.stalled(at)
                .unwrap()
                .into_iter()
                .find(|s| s.game == game)
                .and_then(|s| s.disputed)
        };
        const FAILED: &str = "the computer failed";
        tx.set_disputed_if_none(game, FAILED).unwrap();
        tx.clear_disputed_unless(game, FAILED).unwrap();
        tx.clear_disputed_if(game, "please look").unwrap();
        assert_eq!(disputed(&tx).as_deref(), Some(FAILED));
        tx.clear_disputed_if(game, FAILED).unwrap();
        assert_eq!(disputed(&tx), None);
        tx.set_disputed(game, Some("please look")).unwrap();
        tx.set_disputed_if_none(game, FAILED).unwrap();
        assert_eq!(disputed(&tx).as_deref(), Some("please look"));
        tx.clear_disputed_if(game, FAILED).unwrap();
        assert_eq!(disputed(&tx).as_deref(), Some("please look"));
        tx.clear_disputed_unless(game, FAILED).unwrap();
        assert_eq!(disputed(&tx), None);
    }
}
