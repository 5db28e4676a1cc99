//! Ratings: each player's Glicko-2 rating per kind of game (`ratings`),
//! and what each rated game's end did to them (`rating_changes`).

use rusqlite::{params, OptionalExtension};

use crate::games::Seat;
use crate::ratings::Rating;
use crate::store::{column, Result, Timestamp, Tx};

/// A player's rating in one kind of game, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The player.
    pub player_id: i64,
    /// Their address.
    pub address: String,
    /// Their display name ('' when unknown).
    pub name: String,
    /// The kind of game (`Game::NAME`).
    pub kind: String,
    /// The rating after their last rated game.
    pub rating: Rating,
    /// Rated games of this kind played.
    pub games: i64,
    /// When their last rated game of this kind ended.
    pub updated: Timestamp,
}

/// What one rated game's end did to one seat's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The game.
    pub game_id: i64,
    /// The seat.
    pub seat: Seat,
    /// The player in it.
    pub player_id: i64,
    /// The kind of game.
    pub kind: String,
    /// Rating and deviation before (the deviation grown for idle periods).
    pub old: (f64, f64),
    /// Rating and deviation after.
    pub new: (f64, f64),
}

const RATING_COLUMNS: &str = "r.player_id, p.address, p.name, r.kind, r.rating, r.deviation, \
     r.volatility, r.games, r.updated";

fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        player_id: r.get(0)?,
        address: r.get(1)?,
        name: r.get(2)?,
        kind: r.get(3)?,
        rating: Rating {
            rating: r.get(4)?,
            deviation: r.get(5)?,
            volatility: r.get(6)?,
        },
        games: r.get(7)?,
        updated: column(r, 8)?,
    })
}

impl Tx<'_> {
    /// A player's rating in `kind`, if they finished a rated game of it.
    pub fn rating(&self, player: i64, kind: &str) -> Result<Option<RatingRow>> {
        Ok(self
            .one(
                &format!(
                    "SELECT {RATING_COLUMNS} FROM ratings r JOIN players p ON p.id = r.player_id \
                     WHERE r.player_id = ?1 AND r.kind = ?2"
                ),
                params![player, kind],
                rating_row,
            )
            .optional()?)
    }

    /// Stores a player's rating in `kind` after a rated game ended at
    /// `updated`, their `games`-th of that kind.
    pub fn set_rating(
        &self,
        player: i64,
        kind: &str,
        rating: Rating,
        games: i64,
        updated: Timestamp,
    ) -> Result<()> {
        self.exec(
            "INSERT INTO ratings (player_id, kind, rating, deviation, volatility, games, updated) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (player_id, kind) DO UPDATE SET \
             rating = ?3, deviation = ?4, volatility = ?5, games = ?6, updated = ?7",
            params![
                player,
                kind,
                rating.rating,
                rating.deviation,
                rating.volatility,
                games,
                updated
            ],
        )?;
        Ok(())
    }

    /// Records what a rated game's end did to one seat.
    pub fn add_rating_change(&self, change: &RatingChange) -> Result<()> {
        self.exec(
            "INSERT INTO rating_changes (game_id, seat, player_id, kind, old_rating, \
             old_deviation, new_rating, new_deviation) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                change.game_id,
                change.seat,
                change.player_id,
                change.kind,
                change.old.0,
                change.old.1,
                change.new.0,
                change.new.1
            ],
        )?;
        Ok(())
    }

    /// What a game's end did to its seats' ratings (none for a game not
    /// rated, or not over), north first.
    pub fn rating_changes(&self, game: i64) -> Result<Vec<RatingChange>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT game_id, seat, player_id, kind, old_rating, old_deviation, new_rating, \
             new_deviation FROM rating_changes WHERE game_id = ?1 ORDER BY seat",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok(RatingChange {
                game_id: r.get(0)?,
                seat: column(r, 1)?,
                player_id: r.get(2)?,
                kind: r.get(3)?,
                old: (r.get(4)?, r.get(5)?),
                new: (r.get(6)?, r.get(7)?),
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The ratings of `kind`, highest first; at most `limit`.
    pub fn top_ratings(&self, kind: &str, limit: i64) -> Result<Vec<RatingRow>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings r JOIN players p ON p.id = r.player_id \
             WHERE r.kind = ?1 ORDER BY r.rating DESC, r.deviation, p.address LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![kind, limit], rating_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A player's ratings, one per kind of game they were rated in, by kind.
    pub fn ratings_of(&self, player: i64) -> Result<Vec<RatingRow>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {RATING_COLUMNS} FROM ratings r JOIN players p ON p.id = r.player_id \
             WHERE r.player_id = ?1 ORDER BY r.kind"
        ))?;
        let rows = stmt.query_map(params![player], rating_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
