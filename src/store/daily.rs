//! The Play of the Day (`migrations/0018_play_of_the_day.sql`): which games
//! are the community's, who takes part, every vote, and each round's result.

use rusqlite::{params, OptionalExtension};

use super::column;
use crate::games::Seat;
use crate::store::{seat_text, Result, Timestamp, Tx};

/// A Play of the Day game's own state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyGame {
    /// The game.
    pub game_id: i64,
    /// The seat the community plays.
    pub community: Seat,
    /// The community's decisions decided so far: the open round is the
    /// next one.
    pub round: i64,
    /// When the open round is tallied; `None` while the house decides.
    pub round_ends: Option<Timestamp>,
    /// When the open round opened: only votes cast since count.
    pub round_opened: Option<Timestamp>,
    /// The game's entry count when it opened: the position voted on.
    pub round_entries: i64,
}

/// One round's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyResult {
    /// The round (1 for the community's first decision).
    pub round: i64,
    /// The order played, canonical.
    pub order: String,
    /// Its votes.
    pub votes: i64,
    /// All the votes cast in the round.
    pub cast: i64,
    /// How the round closed: `deadline`, `votes` or `forced`.
    pub closed_by: String,
    /// Whether other orders had as many votes.
    pub tied: bool,
    /// When.
    pub at: Timestamp,
}

const DAILY_COLUMNS: &str = "game_id, community, round, round_ends, round_opened, round_entries";

fn daily_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<DailyGame> {
    Ok(DailyGame {
        game_id: r.get(0)?,
        community: column(r, 1)?,
        round: r.get(2)?,
        round_ends: r.get(3)?,
        round_opened: r.get(4)?,
        round_entries: r.get(5)?,
    })
}

impl Tx<'_> {
    /// Makes `game` a Play of the Day game, the community playing `community`.
    pub fn add_daily_game(&self, game: i64, community: Seat) -> Result<()> {
        self.exec(
            "INSERT INTO daily_games (game_id, community) VALUES (?1, ?2)",
            params![game, seat_text(community)],
        )?;
        Ok(())
    }

    /// The Play of the Day state of `game`, if it is one.
    pub fn daily_game(&self, game: i64) -> Result<Option<DailyGame>> {
        Ok(self
            .one(
                &format!("SELECT {DAILY_COLUMNS} FROM daily_games WHERE game_id = ?1"),
                params![game],
                daily_row,
            )
            .optional()?)
    }

    /// The latest Play of the Day game, over or not.
    pub fn latest_daily_game(&self) -> Result<Option<DailyGame>> {
        Ok(self
            .one(
                &format!("SELECT {DAILY_COLUMNS} FROM daily_games ORDER BY game_id DESC LIMIT 1"),
                [],
                daily_row,
            )
            .optional()?)
    }

    /// The Play of the Day games still under way (normally one).
    pub fn open_daily_games(&self) -> Result<Vec<DailyGame>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {DAILY_COLUMNS} FROM daily_games d JOIN games g ON g.id = d.game_id \
             WHERE g.status = 'active' ORDER BY d.game_id"
        ))?;
        let rows = stmt.query_map([], daily_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Opens the next round of `game` at `opened`, on the position after
    /// `entries` entries, to be tallied at `ends`.
    pub fn open_round(
        &self,
        game: i64,
        opened: Timestamp,
        entries: i64,
        ends: Timestamp,
    ) -> Result<()> {
        self.exec(
            "UPDATE daily_games SET round_opened = ?2, round_entries = ?3, round_ends = ?4 \
             WHERE game_id = ?1",
            params![game, opened, entries, ends],
        )?;
        Ok(())
    }

    /// Moves the end of `game`'s open round to `ends`, or closes it
    /// (`None`: the house decides).
    pub fn set_round_ends(&self, game: i64, ends: Option<Timestamp>) -> Result<()> {
        self.exec(
            "UPDATE daily_games SET round_ends = ?2 WHERE game_id = ?1",
            params![game, ends],
        )?;
        Ok(())
    }

    /// Records the result of `game`'s open round and counts it decided.
    pub fn add_daily_result(&self, game: i64, result: &DailyResult) -> Result<()> {
        self.exec(
            "INSERT INTO daily_results \
             (game_id, round, order_text, votes, cast_votes, closed_by, tied, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game,
                result.round,
                result.order,
                result.votes,
                result.cast,
                result.closed_by,
                result.tied,
                result.at
            ],
        )?;
        self.exec(
            "UPDATE daily_games SET round = ?2, round_ends = NULL WHERE game_id = ?1",
            params![game, result.round],
        )?;
        Ok(())
    }

    /// The results of `game`, the latest first, at most `most`.
    pub fn daily_results(&self, game: i64, most: u32) -> Result<Vec<DailyResult>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT round, order_text, votes, cast_votes, closed_by, tied, at \
             FROM daily_results WHERE game_id = ?1 ORDER BY round DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![game, most], |r| {
            Ok(DailyResult {
                round: r.get(0)?,
                order: r.get(1)?,
                votes: r.get(2)?,
                cast: r.get(3)?,
                closed_by: r.get(4)?,
                tied: r.get(5)?,
                at: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Makes `player` a member from `since`, not confirmed yet; false
    /// when they were one.
    pub fn join_daily(&self, player: i64, since: Timestamp) -> Result<bool> {
        Ok(self.exec(
            "INSERT OR IGNORE INTO daily_members (player_id, since, confirmed) \
             VALUES (?1, ?2, 0)",
            params![player, since],
        )? == 1)
    }

    /// Confirms `player`'s membership (a mail of theirs with their key);
    /// false when there was nothing to confirm.
    pub fn confirm_member(&self, player: i64) -> Result<bool> {
        Ok(self.exec(
            "UPDATE daily_members SET confirmed = 1 WHERE player_id = ?1 AND confirmed = 0",
            params![player],
        )? == 1)
    }

    /// Whether `player`'s membership is confirmed.
    pub fn member_confirmed(&self, player: i64) -> Result<bool> {
        Ok(self
            .one(
                "SELECT confirmed FROM daily_members WHERE player_id = ?1",
                params![player],
                |r| r.get::<_, bool>(0),
            )
            .optional()?
            .unwrap_or(false))
    }

    /// Ends `player`'s membership; false when they were none.
    pub fn leave_daily(&self, player: i64) -> Result<bool> {
        Ok(self.exec(
            "DELETE FROM daily_members WHERE player_id = ?1",
            params![player],
        )? == 1)
    }

    /// Ends the membership of an address whose mail fails for good.
    pub fn leave_daily_address(&self, address: &str) -> Result<bool> {
        Ok(self.exec(
            "DELETE FROM daily_members WHERE player_id IN \
             (SELECT id FROM players WHERE address = ?1)",
            params![address.to_ascii_lowercase()],
        )? == 1)
    }

    /// Whether `player` takes part.
    pub fn is_daily_member(&self, player: i64) -> Result<bool> {
        Ok(self
            .one(
                "SELECT 1 FROM daily_members WHERE player_id = ?1",
                params![player],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .is_some())
    }

    /// The confirmed members: (player id, address), the earliest first.
    pub fn daily_members(&self) -> Result<Vec<(i64, String)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT p.id, p.address FROM daily_members m JOIN players p ON p.id = m.player_id \
             WHERE m.confirmed = 1 ORDER BY m.since, p.id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// How many take part.
    pub fn daily_member_count(&self) -> Result<i64> {
        Ok(self.one("SELECT COUNT(*) FROM daily_members", [], |r| r.get(0))?)
    }

    /// Records `player`'s vote in `round` of `game`, replacing an earlier
    /// one of the same round; returns the order it replaced, if any.
    pub fn vote(
        &self,
        game: i64,
        round: i64,
        player: i64,
        order: &str,
        at: Timestamp,
    ) -> Result<Option<String>> {
        let before = self
            .one(
                "SELECT order_text FROM daily_votes \
                 WHERE game_id = ?1 AND round = ?2 AND player_id = ?3",
                params![game, round, player],
                |r| r.get::<_, String>(0),
            )
            .optional()?;
        self.exec(
            "INSERT INTO daily_votes (game_id, round, player_id, order_text, at) \
             VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT (game_id, round, player_id) \
             DO UPDATE SET order_text = excluded.order_text, at = excluded.at",
            params![game, round, player, order, at],
        )?;
        Ok(before)
    }

    /// The votes of `round` of `game` cast at or after `since`: (order,
    /// player's address, when), the earliest first.
    pub fn votes(
        &self,
        game: i64,
        round: i64,
        since: Option<Timestamp>,
    ) -> Result<Vec<(String, String, Timestamp)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT v.order_text, p.address, v.at FROM daily_votes v \
             JOIN players p ON p.id = v.player_id \
             WHERE v.game_id = ?1 AND v.round = ?2 AND (?3 IS NULL OR v.at >= ?3) \
             ORDER BY v.at, v.player_id",
        )?;
        let rows = stmt.query_map(params![game, round, since], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The addresses that voted for the order played, over all the rounds
    /// of `game`, with how many of those orders each chose: most first.
    pub fn winning_voters(&self, game: i64) -> Result<Vec<(String, i64)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT p.address, COUNT(*) AS n FROM daily_votes v \
             JOIN daily_results r ON r.game_id = v.game_id AND r.round = v.round \
                 AND r.order_text = v.order_text \
             JOIN players p ON p.id = v.player_id \
             WHERE v.game_id = ?1 GROUP BY p.address ORDER BY n DESC, p.address",
        )?;
        let rows = stmt.query_map(params![game], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
