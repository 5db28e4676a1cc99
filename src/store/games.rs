//! Games and their seats: who plays what, where the game stands, its cached
//! position, its result, and each seat's key, held lines and answers given
//! in advance.

use rusqlite::{params, OptionalExtension};

use crate::games::{GameResult, Seat};
use crate::store::{column, GameStatus, Result, StoreError, Timestamp, Tx};

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game number players see.
    pub id: i64,
    /// `Game::NAME`.
    pub kind: String,
    /// Where it stands.
    pub status: GameStatus,
    /// Who moves first.
    pub first_seat: Seat,
    /// The seat of the player who proposed the game.
    pub inviter_seat: Seat,
    /// The cached position after `order_count` entries.
    pub position: Option<String>,
    /// Entries the cache reflects.
    pub order_count: i64,
    /// The seat offering a draw.
    pub draw_offer: Option<Seat>,
    /// The result, once finished.
    pub result: Option<GameResult>,
    /// How it ended.
    pub termination: Option<String>,
    /// When it was proposed.
    pub created_at: Timestamp,
    /// Last change.
    pub updated_at: Timestamp,
    /// [`GameOptions::seed`](crate::games::GameOptions::seed); `None`
    /// for games created before it was kept. The seed of the draws of
    /// chance is another, secret until the game is over (`fair.rs`).
    pub seed: Option<u64>,
    /// [`GameOptions::scenario`](crate::games::GameOptions::scenario): the
    /// battle, for a game played on one of several.
    pub scenario: Option<String>,
    /// Its players made it public (`NEW ... PUBLIC`): anyone may watch it.
    pub public: bool,
    /// Its end changes its players' ratings (`NEW ... RATED`).
    pub rated: bool,
    /// The level (1 to 5) the computer plays at, in a game against the
    /// computer (`NEW ... VS COMPUTER`); `None` between two people.
    pub computer_level: Option<u8>,
}

/// A seat of a game with its player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The game.
    pub game_id: i64,
    /// Which seat.
    pub seat: Seat,
    /// The player's id.
    pub player_id: i64,
    /// The player's address.
    pub address: String,
    /// The player's name.
    pub name: String,
    /// The seat's secret.
    pub secret: String,
    /// The latest mail sent to this seat.
    pub last_message_id: Option<String>,
    /// Order lines held for the second half of a double turn.
    pub held: Vec<String>,
}

pub(super) const GAME_COLUMNS: &str =
    "id, kind, status, first_seat, inviter_seat, position, order_count, \
     draw_offer, result, termination, created_at, updated_at, seed, scenario, public, rated, \
     computer_level";

/// A row of [`GAME_COLUMNS`].
pub(super) fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        status: column(r, 2)?,
        first_seat: column(r, 3)?,
        inviter_seat: column(r, 4)?,
        position: r.get(5)?,
        order_count: r.get(6)?,
        draw_offer: column(r, 7)?,
        result: column(r, 8)?,
        termination: r.get(9)?,
        created_at: column(r, 10)?,
        updated_at: column(r, 11)?,
        // SQLite integers are signed: the seed's 64 bits are kept as is.
        seed: r.get::<_, Option<i64>>(12)?.map(|s| s as u64),
        scenario: r.get(13)?,
        public: r.get(14)?,
        rated: r.get(15)?,
        computer_level: r.get(16)?,
    })
}

impl Tx<'_> {
    /// Creates a game with the seed of its draws of chance, on `scenario`
    /// for a game with several, and returns its number.
    pub fn create_game(
        &self,
        kind: &str,
        first: Seat,
        inviter: Seat,
        seed: u64,
        scenario: Option<&str>,
        at: Timestamp,
    ) -> Result<i64> {
        self.exec(
            "INSERT INTO games (kind, status, first_seat, inviter_seat, seed, scenario, \
             created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            params![
                kind,
                GameStatus::Invited,
                first,
                inviter,
                seed as i64,
                scenario,
                at
            ],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Makes a game public (anyone may watch it) or not, and rated or not.
    pub fn set_public_and_rated(&self, game: i64, public: bool, rated: bool) -> Result<()> {
        self.exec(
            "UPDATE games SET public = ?2, rated = ?3 WHERE id = ?1",
            params![game, public, rated],
        )?;
        Ok(())
    }

    /// Makes a game one against the computer, playing at `level` (1-5).
    pub fn set_computer_level(&self, game: i64, level: u8) -> Result<()> {
        self.exec(
            "UPDATE games SET computer_level = ?2 WHERE id = ?1",
            params![game, level],
        )?;
        Ok(())
    }

    /// Adds a seat to a game.
    pub fn add_seat(&self, game: i64, seat: Seat, player: i64, secret: &str) -> Result<()> {
        self.exec(
            "INSERT INTO seats (game_id, seat, player_id, secret) VALUES (?1, ?2, ?3, ?4)",
            params![game, seat, player, secret],
        )?;
        Ok(())
    }

    /// A game by number.
    pub fn game(&self, id: i64) -> Result<Option<GameRow>> {
        if let Some((cached, row)) = &self.reads.borrow().game {
            if *cached == id {
                return Ok(row.clone());
            }
        }
        let row = self
            .one(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
                params![id],
                game_row,
            )
            .optional()?;
        self.reads.borrow_mut().game = Some((id, row.clone()));
        Ok(row)
    }

    /// The games a player sits in, newest first.
    pub fn games_of(&self, player: i64) -> Result<Vec<GameRow>> {
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE id IN \
             (SELECT game_id FROM seats WHERE player_id = ?1) ORDER BY id DESC"
        ))?;
        let rows = stmt.query_map(params![player], game_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every game, by number.
    pub fn all_games(&self) -> Result<Vec<GameRow>> {
        let mut stmt = self
            .tx
            .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games ORDER BY id"))?;
        let rows = stmt.query_map([], game_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Sets a game's status.
    pub fn set_status(&self, game: i64, status: GameStatus, at: Timestamp) -> Result<()> {
        self.exec(
            "UPDATE games SET status = ?2, updated_at = ?3 WHERE id = ?1",
            params![game, status, at],
        )?;
        Ok(())
    }

    /// Stores the cached position after `order_count` entries.
    pub fn set_position(
        &self,
        game: i64,
        position: &str,
        order_count: i64,
        at: Timestamp,
    ) -> Result<()> {
        self.exec(
            "UPDATE games SET position = ?2, order_count = ?3, updated_at = ?4, adjourned = 0 \
             WHERE id = ?1",
            params![game, position, order_count, at],
        )?;
        Ok(())
    }

    /// Records the end of a game.
    pub fn finish(
        &self,
        game: i64,
        result: GameResult,
        termination: &str,
        at: Timestamp,
    ) -> Result<()> {
        self.exec(
            "UPDATE games SET status = ?5, result = ?2, termination = ?3, \
             draw_offer = NULL, deadline = NULL, updated_at = ?4 WHERE id = ?1",
            params![game, result, termination, at, GameStatus::Finished],
        )?;
        Ok(())
    }

    /// Sets or clears the pending draw offer.
    pub fn set_draw_offer(&self, game: i64, seat: Option<Seat>) -> Result<()> {
        self.exec(
            "UPDATE games SET draw_offer = ?2 WHERE id = ?1",
            params![game, seat],
        )?;
        Ok(())
    }

    /// A game's seats with their players.
    pub fn seats(&self, game: i64) -> Result<Vec<SeatRow>> {
        if let Some((cached, rows)) = &self.reads.borrow().seats {
            if *cached == game {
                return Ok(rows.clone());
            }
        }
        let rows = self.read_seats(game)?;
        self.reads.borrow_mut().seats = Some((game, rows.clone()));
        Ok(rows)
    }

    fn read_seats(&self, game: i64) -> Result<Vec<SeatRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT s.game_id, s.seat, s.player_id, p.address, p.name, s.secret, \
             s.last_message_id, s.held FROM seats s JOIN players p ON p.id = s.player_id \
             WHERE s.game_id = ?1 ORDER BY s.seat",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok((
                SeatRow {
                    game_id: r.get(0)?,
                    seat: column(r, 1)?,
                    player_id: r.get(2)?,
                    address: r.get(3)?,
                    name: r.get(4)?,
                    secret: r.get(5)?,
                    last_message_id: r.get(6)?,
                    held: Vec::new(),
                },
                r.get::<_, String>(7)?,
            ))
        })?;
        rows.map(|r| {
            let (mut seat, held) = r?;
            seat.held = serde_json::from_str(&held)
                .map_err(|e| StoreError::Corrupt(format!("held orders: {e}")))?;
            Ok(seat)
        })
        .collect()
    }

    /// Remembers the latest mail to a seat, for threading.
    pub fn set_last_message(&self, game: i64, seat: Seat, message_id: &str) -> Result<()> {
        self.exec(
            "UPDATE seats SET last_message_id = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat, message_id],
        )?;
        Ok(())
    }

    /// Stores the order lines a seat holds for its second half.
    pub fn set_held(&self, game: i64, seat: Seat, held: &[String]) -> Result<()> {
        let json = serde_json::to_string(held)
            .map_err(|e| StoreError::Corrupt(format!("held orders: {e}")))?;
        self.exec(
            "UPDATE seats SET held = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat, json],
        )?;
        Ok(())
    }

    /// The answers a seat gave in advance, as the JSON the service stored.
    pub fn conditions(&self, game: i64, seat: Seat) -> Result<String> {
        let key = (game, seat);
        if let Some((_, json)) = self
            .reads
            .borrow()
            .conditions
            .iter()
            .find(|(k, _)| *k == key)
        {
            return Ok(json.clone());
        }
        let json = self
            .tx
            .prepare_cached("SELECT conditions FROM seats WHERE game_id = ?1 AND seat = ?2")?
            .query_row(params![game, seat], |r| r.get(0))
            .optional()?
            .unwrap_or_else(|| "[]".to_string());
        self.reads.borrow_mut().conditions.push((key, json.clone()));
        Ok(json)
    }

    /// Replaces the answers a seat gave in advance (JSON).
    pub fn set_conditions(&self, game: i64, seat: Seat, json: &str) -> Result<()> {
        self.exec(
            "UPDATE seats SET conditions = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat, json],
        )?;
        Ok(())
    }

    /// Gives a seat to another player with a new key generation; returns
    /// the new generation.
    pub fn replace_seat(&self, game: i64, seat: Seat, player: i64) -> Result<i64> {
        self.exec(
            "UPDATE seats SET player_id = ?3, generation = generation + 1, held = '[]', \
             undeliverable = NULL, last_message_id = NULL WHERE game_id = ?1 AND seat = ?2",
            params![game, seat, player],
        )?;
        Ok(self.one(
            "SELECT generation FROM seats WHERE game_id = ?1 AND seat = ?2",
            params![game, seat],
            |r| r.get(0),
        )?)
    }

    /// Sets a seat's key.
    pub fn set_secret(&self, game: i64, seat: Seat, secret: &str) -> Result<()> {
        self.exec(
            "UPDATE seats SET secret = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat, secret],
        )?;
        Ok(())
    }

    /// Invitations `player` made since `since`, and those still open.
    pub fn invitations_by(&self, player: i64, since: Timestamp) -> Result<(i64, i64)> {
        Ok(self.one(
            "SELECT COALESCE(SUM(g.created_at >= ?2), 0), COALESCE(SUM(g.status = 'invited'), 0) \
             FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.inviter_seat \
             WHERE s.player_id = ?1",
            params![player, since],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }

    /// Invitations still open that were made at or before `before`.
    pub fn invitations_before(&self, before: Timestamp) -> Result<Vec<i64>> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT id FROM games WHERE status = 'invited' AND created_at <= ?1")?;
        let rows = stmt.query_map(params![before], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
