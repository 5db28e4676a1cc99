//! The SQLite store: players, games, seats, every record entry with its
//! events, processed Message-IDs and the outbox. It knows nothing of any
//! game's rules: orders are text, positions are cached text.
//!
//! The database runs in WAL mode; the schema is versioned by SQL files under
//! `migrations/`, applied in order and counted in `PRAGMA user_version`.
//! Everything one incoming mail changes happens in one [`Tx`].

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

use crate::games::{Happened, Seat};

/// The schema migrations, in order; the database's `user_version` is the
/// number applied.
const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_initial",
        include_str!("../../migrations/0001_initial.sql"),
    ),
    (
        "0002_bounces",
        include_str!("../../migrations/0002_bounces.sql"),
    ),
    (
        "0003_deadlines",
        include_str!("../../migrations/0003_deadlines.sql"),
    ),
    (
        "0004_moderation",
        include_str!("../../migrations/0004_moderation.sql"),
    ),
    (
        "0005_vacations",
        include_str!("../../migrations/0005_vacations.sql"),
    ),
    (
        "0006_clocks",
        include_str!("../../migrations/0006_clocks.sql"),
    ),
    (
        "0007_game_moderator",
        include_str!("../../migrations/0007_game_moderator.sql"),
    ),
    (
        "0008_mail_habits",
        include_str!("../../migrations/0008_mail_habits.sql"),
    ),
    (
        "0009_game_seam",
        include_str!("../../migrations/0009_game_seam.sql"),
    ),
];

/// A store error: the database said no.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The database file or its directory could not be created.
    #[error("database file: {0}")]
    Io(#[from] std::io::Error),
    /// The database is newer than this program.
    #[error("the database has schema version {found}; this orderly knows up to {known}")]
    TooNew {
        /// The database's version.
        found: i64,
        /// This program's.
        known: i64,
    },
    /// A value in the database is not what orderly writes.
    #[error("corrupt value in the database: {0}")]
    Corrupt(String),
}

type Result<T> = std::result::Result<T, StoreError>;

/// The seat's name in the database.
pub fn seat_text(seat: Seat) -> &'static str {
    match seat {
        Seat::North => "north",
        Seat::South => "south",
    }
}

/// The seat a database value names, if it names one.
pub fn seat_from_text(text: &str) -> Option<Seat> {
    seat_from(text).ok()
}

fn seat_from(text: &str) -> Result<Seat> {
    match text {
        "north" => Ok(Seat::North),
        "south" => Ok(Seat::South),
        other => Err(StoreError::Corrupt(format!("seat {other:?}"))),
    }
}

/// An open database.
pub struct Store {
    conn: Connection,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game number players see.
    pub id: i64,
    /// `Game::NAME`.
    pub kind: String,
    /// invited, active, finished or declined.
    pub status: String,
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
    /// north, south or draw.
    pub result: Option<String>,
    /// How it ended.
    pub termination: Option<String>,
    /// When it was proposed (RFC 3339).
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// The seed of the game's draws of chance
    /// ([`GameOptions::seed`](crate::games::GameOptions::seed)); `None`
    /// for games created before seeds were kept.
    pub seed: Option<u64>,
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

/// One entry of a game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRow {
    /// Position in the record, from 1.
    pub seq: i64,
    /// order, resign, draw or comment.
    pub kind: String,
    /// Who gave it.
    pub seat: Option<Seat>,
    /// The canonical order or the comment.
    pub text: String,
    /// The line as written.
    pub written: String,
    /// The mail it came in.
    pub message_id: Option<String>,
    /// When (RFC 3339).
    pub at: String,
}

/// The deadline of a game's pending decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The game.
    pub game_id: i64,
    /// The seat that must decide.
    pub seat: Seat,
    /// When (RFC 3339, UTC).
    pub at: String,
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
    /// Paused until then (RFC 3339, UTC).
    pub paused_until: Option<String>,
    /// Who must decide, by when (RFC 3339, UTC).
    pub deadline: Option<(Seat, String)>,
}

/// A vacation as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VacationRow {
    /// Row id.
    pub id: i64,
    /// When it starts (RFC 3339 UTC).
    pub starts: String,
    /// When it ends.
    pub ends: String,
    /// Whether its clocks were stopped.
    pub started: bool,
    /// Whether it is over.
    pub ended: bool,
}

/// What the outbox knows of one mail it sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentMail {
    /// Row id.
    pub id: i64,
    /// The game it was about.
    pub game_id: Option<i64>,
    /// Its recipient.
    pub recipient: String,
}

/// A mail waiting in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    /// Row id.
    pub id: i64,
    /// Its Message-ID.
    pub message_id: String,
    /// The mail as JSON.
    pub mail: String,
    /// Attempts so far.
    pub attempts: i64,
}

impl Store {
    /// Opens (creating when missing) the database at `path`, in WAL mode,
    /// and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent() {
            crate::private::create_dir_all(dir)?;
        }
        let conn = Connection::open(path)?;
        let store = Store::setup(conn)?;
        // The database holds players' addresses, orders and keys: its owner
        // only reads it (the log and index files too, made by WAL).
        for suffix in ["", "-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            crate::private::restrict_file(Path::new(&name))?;
        }
        Ok(store)
    }

    /// A database in memory, for tests.
    pub fn open_in_memory() -> Result<Store> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<Store> {
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // WAL: readers (`orderly games`) never block the daemon's writes,
        // and a commit is one fsync of the log.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store { conn };
        store.migrate()?;
        Ok(store)
    }

    fn migrate(&mut self) -> Result<()> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew {
                found: version,
                known,
            });
        }
        for (i, (_, sql)) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// The schema version.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Begins the transaction everything of one mail happens in.
    pub fn tx(&mut self) -> Result<Tx<'_>> {
        Ok(Tx {
            tx: self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?,
        })
    }

    /// Begins a read-only view: a deferred transaction, which never takes
    /// the write lock, so `orderly games` and `show` never hold up the
    /// daemon.
    pub fn read(&mut self) -> Result<Tx<'_>> {
        Ok(Tx {
            tx: self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Deferred)?,
        })
    }

    /// Commits an empty transaction, the smallest unit of durable work: the
    /// benchmark's baseline.
    pub fn minimal_commit(&mut self, key: &str) -> Result<()> {
        let tx = self.tx()?;
        tx.tx.execute(
            "INSERT OR REPLACE INTO messages (message_id, sender, received_at, outcome) \
             VALUES (?1, '', '', 'benchmark')",
            params![key],
        )?;
        tx.commit()
    }
}

/// One transaction.
pub struct Tx<'a> {
    tx: rusqlite::Transaction<'a>,
}

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(GameRow, String, String, Option<String>)> {
    Ok((
        GameRow {
            id: r.get(0)?,
            kind: r.get(1)?,
            status: r.get(2)?,
            first_seat: Seat::North,
            inviter_seat: Seat::North,
            position: r.get(5)?,
            order_count: r.get(6)?,
            draw_offer: None,
            result: r.get(8)?,
            termination: r.get(9)?,
            created_at: r.get(10)?,
            updated_at: r.get(11)?,
            // SQLite integers are signed: the seed's 64 bits are kept as is.
            seed: r.get::<_, Option<i64>>(12)?.map(|s| s as u64),
        },
        r.get(3)?,
        r.get(4)?,
        r.get(7)?,
    ))
}

const GAME_COLUMNS: &str = "id, kind, status, first_seat, inviter_seat, position, order_count, \
     draw_offer, result, termination, created_at, updated_at, seed";

fn finish_game(raw: (GameRow, String, String, Option<String>)) -> Result<GameRow> {
    let (mut g, first, inviter, offer) = raw;
    g.first_seat = seat_from(&first)?;
    g.inviter_seat = seat_from(&inviter)?;
    g.draw_offer = offer.as_deref().map(seat_from).transpose()?;
    Ok(g)
}

impl Tx<'_> {
    /// Makes everything durable.
    pub fn commit(self) -> Result<()> {
        Ok(self.tx.commit()?)
    }

    /// Whether this Message-ID was processed before.
    pub fn message_seen(&self, message_id: &str) -> Result<bool> {
        Ok(self
            .tx
            .query_row(
                "SELECT 1 FROM messages WHERE message_id = ?1",
                params![message_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Records a processed message and what became of it.
    pub fn record_message(
        &self,
        message_id: &str,
        sender: &str,
        at: &str,
        outcome: &str,
    ) -> Result<()> {
        self.tx.execute(
            "INSERT INTO messages (message_id, sender, received_at, outcome) VALUES (?1, ?2, ?3, ?4)",
            params![message_id, sender, at, outcome],
        )?;
        Ok(())
    }

    /// Messages from `sender` received at or after `since`.
    pub fn messages_since(&self, sender: &str, since: &str) -> Result<i64> {
        Ok(self.tx.query_row(
            "SELECT COUNT(*) FROM messages WHERE sender = ?1 AND received_at >= ?2",
            params![sender, since],
            |r| r.get(0),
        )?)
    }

    /// The commands and orders read from `sender`'s mails since `since`.
    pub fn commands_since(&self, sender: &str, since: &str) -> Result<i64> {
        Ok(self.tx.query_row(
            "SELECT COALESCE(SUM(commands), 0) FROM messages WHERE sender = ?1 AND received_at >= ?2",
            params![sender, since],
            |r| r.get(0),
        )?)
    }

    /// Notes the content digest of a recorded mail (see [`Tx::digest_seen`]).
    pub fn set_message_digest(&self, message_id: &str, digest: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE messages SET digest = ?2 WHERE message_id = ?1",
            params![message_id, digest],
        )?;
        Ok(())
    }

    /// Whether a mail with this content digest was processed already.
    pub fn digest_seen(&self, digest: &str) -> Result<bool> {
        Ok(self
            .tx
            .prepare_cached("SELECT 1 FROM messages WHERE digest = ?1 LIMIT 1")?
            .query_row(params![digest], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// Notes how many commands and orders a recorded mail carried.
    pub fn set_message_commands(&self, message_id: &str, commands: i64) -> Result<()> {
        self.tx.execute(
            "UPDATE messages SET commands = ?2 WHERE message_id = ?1",
            params![message_id, commands],
        )?;
        Ok(())
    }

    /// Invitations `player` made since `since`, and those still open.
    pub fn invitations_by(&self, player: i64, since: &str) -> Result<(i64, i64)> {
        Ok(self.tx.query_row(
            "SELECT COALESCE(SUM(g.created_at >= ?2), 0), COALESCE(SUM(g.status = 'invited'), 0) \
             FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.inviter_seat \
             WHERE s.player_id = ?1",
            params![player, since],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }

    /// The player with this address, created when new; the name is kept
    /// up to date.
    pub fn player(&self, address: &str, name: &str, at: &str) -> Result<i64> {
        let address = address.to_ascii_lowercase();
        if let Some(id) = self
            .tx
            .query_row(
                "SELECT id FROM players WHERE address = ?1",
                params![address],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
        {
            if !name.is_empty() {
                self.tx.execute(
                    "UPDATE players SET name = ?2 WHERE id = ?1",
                    params![id, name],
                )?;
            }
            return Ok(id);
        }
        self.tx.execute(
            "INSERT INTO players (address, name, created_at) VALUES (?1, ?2, ?3)",
            params![address, name, at],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Creates a game with the seed of its draws of chance and returns its
    /// number.
    pub fn create_game(
        &self,
        kind: &str,
        first: Seat,
        inviter: Seat,
        seed: u64,
        at: &str,
    ) -> Result<i64> {
        self.tx.execute(
            "INSERT INTO games (kind, status, first_seat, inviter_seat, seed, created_at, \
             updated_at) VALUES (?1, 'invited', ?2, ?3, ?4, ?5, ?5)",
            params![kind, seat_text(first), seat_text(inviter), seed as i64, at],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Adds a seat to a game.
    pub fn add_seat(&self, game: i64, seat: Seat, player: i64, secret: &str) -> Result<()> {
        self.tx.execute(
            "INSERT INTO seats (game_id, seat, player_id, secret) VALUES (?1, ?2, ?3, ?4)",
            params![game, seat_text(seat), player, secret],
        )?;
        Ok(())
    }

    /// A game by number.
    pub fn game(&self, id: i64) -> Result<Option<GameRow>> {
        self.tx
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
                params![id],
                game_row,
            )
            .optional()?
            .map(finish_game)
            .transpose()
    }

    /// The games a player sits in, newest first.
    pub fn games_of(&self, player: i64) -> Result<Vec<GameRow>> {
        let mut stmt = self.tx.prepare(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE id IN \
             (SELECT game_id FROM seats WHERE player_id = ?1) ORDER BY id DESC"
        ))?;
        let rows = stmt.query_map(params![player], game_row)?;
        rows.map(|r| finish_game(r?)).collect()
    }

    /// Every game, by number.
    pub fn all_games(&self) -> Result<Vec<GameRow>> {
        let mut stmt = self
            .tx
            .prepare(&format!("SELECT {GAME_COLUMNS} FROM games ORDER BY id"))?;
        let rows = stmt.query_map([], game_row)?;
        rows.map(|r| finish_game(r?)).collect()
    }

    /// Sets a game's status.
    pub fn set_status(&self, game: i64, status: &str, at: &str) -> Result<()> {
        self.tx.execute(
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
        at: &str,
    ) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET position = ?2, order_count = ?3, updated_at = ?4, adjourned = 0 \
             WHERE id = ?1",
            params![game, position, order_count, at],
        )?;
        Ok(())
    }

    /// Records the end of a game.
    pub fn finish(&self, game: i64, result: &str, termination: &str, at: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET status = 'finished', result = ?2, termination = ?3, \
             draw_offer = NULL, deadline = NULL, updated_at = ?4 WHERE id = ?1",
            params![game, result, termination, at],
        )?;
        Ok(())
    }

    /// Sets or clears the pending draw offer.
    pub fn set_draw_offer(&self, game: i64, seat: Option<Seat>) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET draw_offer = ?2 WHERE id = ?1",
            params![game, seat.map(seat_text)],
        )?;
        Ok(())
    }

    /// A game's seats with their players.
    pub fn seats(&self, game: i64) -> Result<Vec<SeatRow>> {
        let mut stmt = self.tx.prepare(
            "SELECT s.game_id, s.seat, s.player_id, p.address, p.name, s.secret, \
             s.last_message_id, s.held FROM seats s JOIN players p ON p.id = s.player_id \
             WHERE s.game_id = ?1 ORDER BY s.seat",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, Option<String>>(6)?,
                r.get::<_, String>(7)?,
            ))
        })?;
        rows.map(|r| {
            let (game_id, seat, player_id, address, name, secret, last, held) = r?;
            Ok(SeatRow {
                game_id,
                seat: seat_from(&seat)?,
                player_id,
                address,
                name,
                secret,
                last_message_id: last,
                held: serde_json::from_str(&held)
                    .map_err(|e| StoreError::Corrupt(format!("held orders: {e}")))?,
            })
        })
        .collect()
    }

    /// Remembers the latest mail to a seat, for threading.
    pub fn set_last_message(&self, game: i64, seat: Seat, message_id: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE seats SET last_message_id = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat_text(seat), message_id],
        )?;
        Ok(())
    }

    /// Stores the order lines a seat holds for its second half.
    pub fn set_held(&self, game: i64, seat: Seat, held: &[String]) -> Result<()> {
        let json = serde_json::to_string(held)
            .map_err(|e| StoreError::Corrupt(format!("held orders: {e}")))?;
        self.tx.execute(
            "UPDATE seats SET held = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat_text(seat), json],
        )?;
        Ok(())
    }

    /// The answers a seat gave in advance, as the JSON the service stored.
    pub fn conditions(&self, game: i64, seat: Seat) -> Result<String> {
        Ok(self
            .tx
            .prepare_cached("SELECT conditions FROM seats WHERE game_id = ?1 AND seat = ?2")?
            .query_row(params![game, seat_text(seat)], |r| r.get(0))
            .optional()?
            .unwrap_or_else(|| "[]".to_string()))
    }

    /// Replaces the answers a seat gave in advance (JSON).
    pub fn set_conditions(&self, game: i64, seat: Seat, json: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE seats SET conditions = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat_text(seat), json],
        )?;
        Ok(())
    }

    /// Appends an entry to a game's record, with its events (their words
    /// and their data); returns its seq.
    #[allow(clippy::too_many_arguments)]
    pub fn add_entry(
        &self,
        game: i64,
        kind: &str,
        seat: Option<Seat>,
        text: &str,
        written: &str,
        message_id: Option<&str>,
        at: &str,
        events: &[Happened],
    ) -> Result<i64> {
        let seq: i64 = self.tx.query_row(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE game_id = ?1",
            params![game],
            |r| r.get(0),
        )?;
        self.tx.execute(
            "INSERT INTO entries (game_id, seq, kind, seat, text, written, message_id, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game,
                seq,
                kind,
                seat.map(seat_text),
                text,
                written,
                message_id,
                at
            ],
        )?;
        for (n, e) in events.iter().enumerate() {
            self.tx.execute(
                "INSERT INTO events (game_id, seq, n, text, data) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game, seq, n as i64, e.text, e.data.to_string()],
            )?;
        }
        Ok(seq)
    }

    /// A game's record entries, in order.
    pub fn entries(&self, game: i64) -> Result<Vec<EntryRow>> {
        let mut stmt = self.tx.prepare(
            "SELECT seq, kind, seat, text, written, message_id, at FROM entries \
             WHERE game_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, String>(6)?,
            ))
        })?;
        rows.map(|r| {
            let (seq, kind, seat, text, written, message_id, at) = r?;
            Ok(EntryRow {
                seq,
                kind,
                seat: seat.as_deref().map(seat_from).transpose()?,
                text,
                written,
                message_id,
                at,
            })
        })
        .collect()
    }

    /// Queues an outgoing mail; a Message-ID already queued is left as is
    /// (the same decision made twice is one mail).
    pub fn queue_mail(
        &self,
        message_id: &str,
        game: Option<i64>,
        recipient: &str,
        mail_json: &str,
        at: &str,
    ) -> Result<()> {
        self.tx.execute(
            "INSERT OR IGNORE INTO outbox (message_id, game_id, recipient, mail, status, \
             next_attempt_at, created_at) VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?5)",
            params![message_id, game, recipient, mail_json, at],
        )?;
        Ok(())
    }

    /// Mails due for (another) attempt at `now`, oldest first.
    pub fn due_mail(&self, now: &str, limit: i64) -> Result<Vec<OutboxRow>> {
        let mut stmt = self.tx.prepare(
            "SELECT id, message_id, mail, attempts FROM outbox WHERE status = 'queued' \
             AND next_attempt_at <= ?1 ORDER BY id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![now, limit], |r| {
            Ok(OutboxRow {
                id: r.get(0)?,
                message_id: r.get(1)?,
                mail: r.get(2)?,
                attempts: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Marks a mail sent.
    pub fn mark_sent(&self, id: i64, at: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?2, \
             last_error = NULL WHERE id = ?1",
            params![id, at],
        )?;
        Ok(())
    }

    /// Records a failed attempt: retried at `retry_at`, or given up.
    pub fn mark_failed(&self, id: i64, error: &str, retry_at: Option<&str>) -> Result<()> {
        match retry_at {
            Some(when) => self.tx.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, \
                 next_attempt_at = ?3 WHERE id = ?1",
                params![id, error, when],
            )?,
            None => self.tx.execute(
                "UPDATE outbox SET status = 'failed', attempts = attempts + 1, \
                 last_error = ?2 WHERE id = ?1",
                params![id, error],
            )?,
        };
        Ok(())
    }

    /// The outbox row with this id.
    pub fn sent_mail(&self, id: i64) -> Result<Option<SentMail>> {
        Ok(self
            .tx
            .query_row(
                "SELECT id, game_id, recipient FROM outbox WHERE id = ?1",
                params![id],
                |r| {
                    Ok(SentMail {
                        id: r.get(0)?,
                        game_id: r.get(1)?,
                        recipient: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// Records a bounce of an outbox mail; returns the address's count of
    /// hard bounces so far.
    #[allow(clippy::too_many_arguments)]
    pub fn add_bounce(
        &self,
        outbox_id: i64,
        address: &str,
        hard: bool,
        status: &str,
        diagnostic: &str,
        message_id: &str,
        at: &str,
    ) -> Result<i64> {
        self.tx.execute(
            "INSERT INTO bounces (outbox_id, address, hard, status, diagnostic, message_id, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![outbox_id, address, hard, status, diagnostic, message_id, at],
        )?;
        Ok(self.tx.query_row(
            "SELECT COUNT(*) FROM bounces WHERE address = ?1 AND hard = 1",
            params![address],
            |r| r.get(0),
        )?)
    }

    /// Marks every seat of `address` in unfinished games as undeliverable;
    /// returns the (game, seat) pairs newly marked.
    pub fn mark_undeliverable(&self, address: &str, why: &str) -> Result<Vec<(i64, Seat)>> {
        let mut stmt = self.tx.prepare(
            "SELECT s.game_id, s.seat FROM seats s JOIN players p ON p.id = s.player_id \
             JOIN games g ON g.id = s.game_id WHERE p.address = ?1 \
             AND g.status IN ('invited', 'active') AND s.undeliverable IS NULL",
        )?;
        let rows: Vec<(i64, String)> = stmt
            .query_map(params![address], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut out = Vec::new();
        for (game, seat) in rows {
            self.tx.execute(
                "UPDATE seats SET undeliverable = ?3 WHERE game_id = ?1 AND seat = ?2",
                params![game, seat, why],
            )?;
            out.push((game, seat_from(&seat)?));
        }
        Ok(out)
    }

    /// Why mail to a seat fails, if it does.
    pub fn undeliverable(&self, game: i64, seat: Seat) -> Result<Option<String>> {
        Ok(self
            .tx
            .query_row(
                "SELECT undeliverable FROM seats WHERE game_id = ?1 AND seat = ?2",
                params![game, seat_text(seat)],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Sets the deadline of a game's pending decision (a new deadline: no
    /// notices sent, not timed out), or clears it.
    pub fn set_deadline(&self, game: i64, deadline: Option<(Seat, &str)>) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET deadline = ?2, deadline_seat = ?3, notices_sent = '', \
             timed_out = 0 WHERE id = ?1",
            params![
                game,
                deadline.map(|d| d.1),
                deadline.map(|d| seat_text(d.0))
            ],
        )?;
        Ok(())
    }

    /// The days per turn of a game.
    pub fn set_turn_days(&self, game: i64, days: i64) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET turn_days = ?2 WHERE id = ?1",
            params![game, days],
        )?;
        Ok(())
    }

    /// A game's days per turn.
    pub fn turn_days(&self, game: i64) -> Result<i64> {
        Ok(self.tx.query_row(
            "SELECT turn_days FROM games WHERE id = ?1",
            params![game],
            |r| r.get(0),
        )?)
    }

    fn deadline_row(
        r: &rusqlite::Row<'_>,
    ) -> rusqlite::Result<(i64, String, String, String, bool)> {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    }

    fn deadline_from(raw: (i64, String, String, String, bool)) -> Result<Deadline> {
        let (game_id, seat, at, sent, timed_out) = raw;
        Ok(Deadline {
            game_id,
            seat: seat_from(&seat)?,
            at,
            notices_sent: sent.split_whitespace().map(str::to_string).collect(),
            timed_out,
        })
    }

    /// A game's current deadline, if any.
    pub fn deadline(&self, game: i64) -> Result<Option<Deadline>> {
        self.tx
            .query_row(
                "SELECT id, deadline_seat, deadline, notices_sent, timed_out FROM games \
                 WHERE id = ?1 AND deadline IS NOT NULL AND status = 'active'",
                params![game],
                Tx::deadline_row,
            )
            .optional()?
            .map(Tx::deadline_from)
            .transpose()
    }

    /// Active games whose deadline is at or before `until` (an indexed range
    /// scan: the sweep reads only games with something due).
    pub fn deadlines_until(&self, until: &str) -> Result<Vec<Deadline>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, deadline_seat, deadline, notices_sent, timed_out FROM games \
             WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?1 \
             AND paused_until IS NULL",
        )?;
        let rows = stmt.query_map(params![until], Tx::deadline_row)?;
        rows.map(|r| Tx::deadline_from(r?)).collect()
    }

    /// Records a notice as sent for the game's current deadline.
    pub fn add_notice(&self, game: i64, notice: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET notices_sent = notices_sent || ' ' || ?2 || ' ' WHERE id = ?1",
            params![game, notice],
        )?;
        Ok(())
    }

    /// Marks the game's time as run out.
    pub fn set_timed_out(&self, game: i64) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET timed_out = 1 WHERE id = ?1",
            params![game],
        )?;
        Ok(())
    }

    /// A player's time zone and whether they want reminders.
    pub fn player_settings(&self, address: &str) -> Result<(String, bool)> {
        Ok(self
            .tx
            .query_row(
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
        self.tx.execute(
            "UPDATE players SET timezone = ?2 WHERE address = ?1 AND timezone_chosen = 0",
            params![address.to_ascii_lowercase(), zone],
        )?;
        Ok(())
    }

    /// Sets the time zone a player chose (SET TIMEZONE).
    pub fn set_timezone(&self, player: i64, zone: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE players SET timezone = ?2, timezone_chosen = 1 WHERE id = ?1",
            params![player, zone],
        )?;
        Ok(())
    }

    /// Turns a player's reminders on or off.
    pub fn set_reminders(&self, player: i64, on: bool) -> Result<()> {
        self.tx.execute(
            "UPDATE players SET reminders = ?2 WHERE id = ?1",
            params![player, on],
        )?;
        Ok(())
    }

    /// Audits a moderator action.
    pub fn audit(
        &self,
        game: Option<i64>,
        moderator: &str,
        action: &str,
        outcome: &str,
        at: &str,
    ) -> Result<()> {
        self.tx.execute(
            "INSERT INTO moderation (game_id, moderator, action, outcome, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game, moderator, action, outcome, at],
        )?;
        Ok(())
    }

    /// The audit of a game: (moderator, action, outcome, at), oldest first.
    pub fn audit_of(&self, game: i64) -> Result<Vec<(String, String, String, String)>> {
        let mut stmt = self.tx.prepare(
            "SELECT moderator, action, outcome, at FROM moderation WHERE game_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Pauses a game until `until`, keeping the time left to its deadline.
    pub fn pause(&self, game: i64, until: &str, left_secs: Option<i64>) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET paused_until = ?2, paused_left_secs = ?3 WHERE id = ?1",
            params![game, until, left_secs],
        )?;
        Ok(())
    }

    /// Ends a pause: (the time left it kept, if any).
    pub fn unpause(&self, game: i64) -> Result<Option<i64>> {
        let left: Option<i64> = self
            .tx
            .query_row(
                "SELECT paused_left_secs FROM games WHERE id = ?1",
                params![game],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        self.tx.execute(
            "UPDATE games SET paused_until = NULL, paused_left_secs = NULL WHERE id = ?1",
            params![game],
        )?;
        Ok(left)
    }

    /// Until when a game is paused, if it is.
    pub fn paused_until(&self, game: i64) -> Result<Option<String>> {
        Ok(self
            .tx
            .query_row(
                "SELECT paused_until FROM games WHERE id = ?1",
                params![game],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Paused games whose pause has ended by `now`.
    pub fn pauses_ended(&self, now: &str) -> Result<Vec<i64>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id FROM games WHERE paused_until IS NOT NULL AND paused_until <= ?1",
        )?;
        let rows = stmt.query_map(params![now], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records or clears a player's open request for a moderator.
    pub fn set_disputed(&self, game: i64, text: Option<&str>) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET disputed = ?2 WHERE id = ?1",
            params![game, text],
        )?;
        Ok(())
    }

    /// Games a moderator should look at: past their deadline, timed out,
    /// paused, with an undeliverable seat, or with an open request; by game
    /// number.
    pub fn stalled(&self, now: &str) -> Result<Vec<Stalled>> {
        let mut stmt = self.tx.prepare(
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
            let seat: Option<String> = r.get(6)?;
            Ok(Stalled {
                game: r.get(0)?,
                disputed: r.get(1)?,
                undeliverable: r.get(2)?,
                adjourned: r.get(3)?,
                timed_out: r.get(4)?,
                paused_until: r.get(5)?,
                deadline: match (seat.as_deref().and_then(|s| seat_from(s).ok()), r.get(7)?) {
                    (Some(seat), Some(at)) => Some((seat, at)),
                    _ => None,
                },
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Gives a seat to another player with a new key generation; returns
    /// the new generation.
    pub fn replace_seat(&self, game: i64, seat: Seat, player: i64) -> Result<i64> {
        self.tx.execute(
            "UPDATE seats SET player_id = ?3, generation = generation + 1, held = '[]', \
             undeliverable = NULL, last_message_id = NULL WHERE game_id = ?1 AND seat = ?2",
            params![game, seat_text(seat), player],
        )?;
        Ok(self.tx.query_row(
            "SELECT generation FROM seats WHERE game_id = ?1 AND seat = ?2",
            params![game, seat_text(seat)],
            |r| r.get(0),
        )?)
    }

    /// Sets a seat's key.
    pub fn set_secret(&self, game: i64, seat: Seat, secret: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE seats SET secret = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat_text(seat), secret],
        )?;
        Ok(())
    }

    /// Removes the last `n` order entries of a game (and anything recorded
    /// after the first of them), returning the orders removed.
    pub fn remove_last_orders(&self, game: i64, n: i64) -> Result<Vec<String>> {
        let first: Option<i64> = self.tx.query_row(
            "SELECT MIN(seq) FROM (SELECT seq FROM entries WHERE game_id = ?1 AND kind = 'order' \
             ORDER BY seq DESC LIMIT ?2)",
            params![game, n],
            |r| r.get(0),
        )?;
        let Some(first) = first else {
            return Ok(Vec::new());
        };
        let mut stmt = self.tx.prepare(
            "SELECT text FROM entries WHERE game_id = ?1 AND seq >= ?2 AND kind = 'order' ORDER BY seq",
        )?;
        let removed: Vec<String> = stmt
            .query_map(params![game, first], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        self.tx.execute(
            "DELETE FROM events WHERE game_id = ?1 AND seq >= ?2",
            params![game, first],
        )?;
        self.tx.execute(
            "DELETE FROM entries WHERE game_id = ?1 AND seq >= ?2",
            params![game, first],
        )?;
        Ok(removed)
    }

    /// Adds a vacation; returns its id.
    pub fn add_vacation(&self, player: i64, starts: &str, ends: &str) -> Result<i64> {
        self.tx.execute(
            "INSERT INTO vacations (player_id, starts, ends) VALUES (?1, ?2, ?3)",
            params![player, starts, ends],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// A player's vacations that start in
    /// or after `year_start`, oldest first.
    pub fn vacations_of(&self, player: i64, year_start: &str) -> Result<Vec<VacationRow>> {
        let mut stmt = self.tx.prepare(
            "SELECT id, starts, ends, started, ended FROM vacations \
             WHERE player_id = ?1 AND starts >= ?2 ORDER BY starts",
        )?;
        let rows = stmt.query_map(params![player, year_start], |r| {
            Ok(VacationRow {
                id: r.get(0)?,
                starts: r.get(1)?,
                ends: r.get(2)?,
                started: r.get(3)?,
                ended: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Vacations that should have started by `now` and have not:
    /// (id, player, starts, ends).
    pub fn vacations_to_start(&self, now: &str) -> Result<Vec<(i64, i64, String, String)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, player_id, starts, ends FROM vacations \
             WHERE started = 0 AND ended = 0 AND starts <= ?1",
        )?;
        let rows = stmt.query_map(params![now], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Vacations that have run to their end by `now`: (id, player).
    pub fn vacations_to_end(&self, now: &str) -> Result<Vec<(i64, i64)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, player_id FROM vacations WHERE started = 1 AND ended = 0 AND ends <= ?1",
        )?;
        let rows = stmt.query_map(params![now], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Marks a vacation started.
    pub fn start_vacation(&self, id: i64) -> Result<()> {
        self.tx.execute(
            "UPDATE vacations SET started = 1 WHERE id = ?1",
            params![id],
        )?;
        Ok(())
    }

    /// Ends a vacation at `ends` (its end, or earlier when cut short).
    pub fn end_vacation(&self, id: i64, ends: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE vacations SET ended = 1, ends = ?2 WHERE id = ?1",
            params![id, ends],
        )?;
        Ok(())
    }

    /// The vacation a player is on at `now`, if any: (id, ends).
    pub fn on_vacation(&self, player: i64, now: &str) -> Result<Option<(i64, String)>> {
        Ok(self
            .tx
            .query_row(
                "SELECT id, ends FROM vacations WHERE player_id = ?1 AND started = 1 \
                 AND ended = 0 AND starts <= ?2 AND ends > ?2",
                params![player, now],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// The player's id for an address, if known.
    pub fn player_id(&self, address: &str) -> Result<Option<i64>> {
        Ok(self
            .tx
            .query_row(
                "SELECT id FROM players WHERE address = ?1",
                params![address.to_ascii_lowercase()],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The active games in which a player's seat has the pending deadline:
    /// (game, seat, deadline).
    pub fn deadlines_of_player(&self, player: i64) -> Result<Vec<(i64, Seat, String)>> {
        let mut stmt = self.tx.prepare(
            "SELECT g.id, g.deadline_seat, g.deadline FROM games g JOIN seats s \
             ON s.game_id = g.id AND s.seat = g.deadline_seat \
             WHERE s.player_id = ?1 AND g.status = 'active' AND g.deadline IS NOT NULL",
        )?;
        let rows: Vec<(i64, String, String)> = stmt
            .query_map(params![player], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        rows.into_iter()
            .map(|(g, s, d)| Ok((g, seat_from(&s)?, d)))
            .collect()
    }

    /// Moves a deadline (keeping its notices: they are per deadline moment
    /// only when the deadline is new).
    pub fn move_deadline(&self, game: i64, to: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET deadline = ?2, notices_sent = '' WHERE id = ?1",
            params![game, to],
        )?;
        Ok(())
    }

    /// Active games not adjourned whose last change was at or before
    /// `before`.
    pub fn silent_games(&self, before: &str) -> Result<Vec<i64>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id FROM games WHERE status = 'active' AND updated_at <= ?1 AND adjourned = 0",
        )?;
        let rows = stmt.query_map(params![before], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records a requested move of `player` to `new_address`, confirmed by
    /// `code` from there.
    pub fn request_address_change(
        &self,
        code: &str,
        player: i64,
        new_address: &str,
        at: &str,
    ) -> Result<()> {
        self.tx.execute(
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
        since: &str,
    ) -> Result<Option<(i64, String)>> {
        let found: Option<i64> = self
            .tx
            .query_row(
                "SELECT player_id FROM address_changes \
                 WHERE code = ?1 AND new_address = ?2 AND created_at >= ?3",
                params![code, address.to_ascii_lowercase(), since],
                |r| r.get(0),
            )
            .optional()?;
        let Some(player) = found else {
            return Ok(None);
        };
        self.tx
            .execute("DELETE FROM address_changes WHERE code = ?1", params![code])?;
        let old: String = self.tx.query_row(
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
            .tx
            .query_row(
                "SELECT id FROM players WHERE address = ?1",
                params![address],
                |r| r.get(0),
            )
            .optional()?;
        match existing {
            Some(other) if other != player => {
                self.tx.execute(
                    "UPDATE seats SET player_id = ?2 WHERE player_id = ?1",
                    params![player, other],
                )?;
            }
            Some(_) => {}
            None => {
                self.tx.execute(
                    "UPDATE players SET address = ?2 WHERE id = ?1",
                    params![player, address],
                )?;
            }
        }
        Ok(())
    }

    /// Counts one more failed attempt at the incoming mail with `digest`;
    /// returns the attempts so far.
    pub fn intake_failed(&self, digest: &str, error: &str, at: &str) -> Result<i64> {
        self.tx.execute(
            "INSERT INTO intake_failures (digest, attempts, last_error, first_at) \
             VALUES (?1, 1, ?2, ?3) \
             ON CONFLICT(digest) DO UPDATE SET attempts = attempts + 1, last_error = ?2",
            params![digest, error, at],
        )?;
        Ok(self.tx.query_row(
            "SELECT attempts FROM intake_failures WHERE digest = ?1",
            params![digest],
            |r| r.get(0),
        )?)
    }

    /// Forgets the failures of the mail with `digest` (it went through).
    pub fn intake_succeeded(&self, digest: &str) -> Result<()> {
        self.tx.execute(
            "DELETE FROM intake_failures WHERE digest = ?1",
            params![digest],
        )?;
        Ok(())
    }

    /// Invitations still open that were made at or before `before`.
    pub fn invitations_before(&self, before: &str) -> Result<Vec<i64>> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT id FROM games WHERE status = 'invited' AND created_at <= ?1")?;
        let rows = stmt.query_map(params![before], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Marks a game adjourned to the moderators (or back in play).
    pub fn set_adjourned(&self, game: i64, adjourned: bool) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET adjourned = ?2 WHERE id = ?1",
            params![game, adjourned],
        )?;
        Ok(())
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
        self.tx.execute(
            "UPDATE games SET clock_increment_secs = ?2, clock_cap_secs = ?3 WHERE id = ?1",
            params![game, increment_secs, cap_secs],
        )?;
        self.tx.execute(
            "UPDATE seats SET bank_secs = ?2 WHERE game_id = ?1",
            params![game, initial_secs],
        )?;
        Ok(())
    }

    /// A game's clock: (increment, cap) when it plays with a bank.
    pub fn clock(&self, game: i64) -> Result<Option<(i64, i64)>> {
        Ok(self
            .tx
            .query_row(
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
            .tx
            .query_row(
                "SELECT bank_secs FROM seats WHERE game_id = ?1 AND seat = ?2",
                params![game, seat_text(seat)],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Sets a seat's clock bank.
    pub fn set_bank(&self, game: i64, seat: Seat, secs: i64) -> Result<()> {
        self.tx.execute(
            "UPDATE seats SET bank_secs = ?3 WHERE game_id = ?1 AND seat = ?2",
            params![game, seat_text(seat), secs],
        )?;
        Ok(())
    }

    /// What the current deadline is for (`turn` or `decision`) and since
    /// when its clock runs.
    pub fn deadline_start(&self, game: i64) -> Result<Option<(String, String)>> {
        Ok(self
            .tx
            .query_row(
                "SELECT deadline_kind, deadline_since FROM games WHERE id = ?1",
                params![game],
                |r| {
                    Ok((
                        r.get::<_, Option<String>>(0)?,
                        r.get::<_, Option<String>>(1)?,
                    ))
                },
            )
            .optional()?
            .and_then(|(k, s)| Some((k?, s?))))
    }

    /// Records what the current deadline is for and since when it runs.
    pub fn set_deadline_start(&self, game: i64, kind: &str, since: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET deadline_kind = ?2, deadline_since = ?3 WHERE id = ?1",
            params![game, kind, since],
        )?;
        Ok(())
    }

    /// A game's own time-out policy, if it has one.
    pub fn timeout_policy(&self, game: i64) -> Result<Option<String>> {
        Ok(self
            .tx
            .query_row(
                "SELECT timeout_policy FROM games WHERE id = ?1",
                params![game],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Sets a game's own time-out policy.
    pub fn set_timeout_policy(&self, game: i64, policy: &str) -> Result<()> {
        self.tx.execute(
            "UPDATE games SET timeout_policy = ?2 WHERE id = ?1",
            params![game, policy],
        )?;
        Ok(())
    }

    /// Turns a player's daily digest on or off.
    pub fn set_digest(&self, player: i64, on: bool) -> Result<()> {
        self.tx.execute(
            "UPDATE players SET digest = ?2 WHERE id = ?1",
            params![player, on],
        )?;
        Ok(())
    }

    /// Whether a player wants a daily digest instead of reminders.
    pub fn wants_digest(&self, address: &str) -> Result<bool> {
        Ok(self
            .tx
            .query_row(
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
            .tx
            .query_row(
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
        self.tx.execute(
            "UPDATE players SET digest_sent = ?2 WHERE id = ?1",
            params![player, day],
        )?;
        Ok(())
    }

    /// A game's own moderator, if it names one.
    pub fn game_moderator(&self, game: i64) -> Result<Option<String>> {
        Ok(self
            .tx
            .query_row(
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
            .tx
            .query_row(
                "SELECT 1 FROM games WHERE moderator = ?1 AND moderator_confirmed = 1 LIMIT 1",
                params![address.to_ascii_lowercase()],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Names a game's own moderator, who acts once they accept.
    pub fn set_game_moderator(&self, game: i64, address: &str) -> Result<()> {
        self.tx.execute(
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
        self.tx.execute(sql, params![game])?;
        Ok(())
    }

    /// Counts outbox rows by status (for tests and `orderly games`).
    pub fn outbox_count(&self, status: &str) -> Result<i64> {
        Ok(self.tx.query_row(
            "SELECT COUNT(*) FROM outbox WHERE status = ?1",
            params![status],
            |r| r.get(0),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_run_once_and_the_schema_is_current() {
        let dir = std::env::temp_dir().join(format!("orderly-store-{}", std::process::id()));
        let path = dir.join("t.db");
        let _ = std::fs::remove_dir_all(&dir);
        {
            let store = Store::open(&path).unwrap();
            assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as i64);
        let mode: String = store
            .conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_game_with_seats_entries_and_mail_round_trips() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let ann = tx.player("Ann@Example.org", "Ann", "t0").unwrap();
        let bob = tx.player("bob@example.org", "", "t0").unwrap();
        assert_eq!(tx.player("ann@example.org", "", "t1").unwrap(), ann);
        let g = tx
            .create_game("squares", Seat::North, Seat::South, 7, "t0")
            .unwrap();
        tx.add_seat(g, Seat::North, bob, "s1").unwrap();
        tx.add_seat(g, Seat::South, ann, "s2").unwrap();
        tx.set_held(g, Seat::North, &["MOVE X".into()]).unwrap();
        let seq = tx
            .add_entry(
                g,
                "order",
                Some(Seat::North),
                "PASS",
                "pass",
                Some("m1"),
                "t1",
                &[Happened {
                    data: serde_json::json!("Pass"),
                    text: "Blue passes".into(),
                    forced: None,
                }],
            )
            .unwrap();
        assert_eq!(seq, 1);
        tx.queue_mail("o1", Some(g), "ann@example.org", "{}", "t1")
            .unwrap();
        tx.queue_mail("o1", Some(g), "ann@example.org", "{}", "t1")
            .unwrap();
        tx.record_message("m1", "bob@example.org", "t1", "ok")
            .unwrap();
        tx.commit().unwrap();
        let tx = store.tx().unwrap();
        assert!(tx.message_seen("m1").unwrap());
        let seats = tx.seats(g).unwrap();
        assert_eq!(seats[0].seat, Seat::North);
        assert_eq!(seats[0].held, ["MOVE X"]);
        assert_eq!(seats[1].address, "ann@example.org");
        assert_eq!(tx.entries(g).unwrap()[0].written, "pass");
        assert_eq!(tx.due_mail("t2", 10).unwrap().len(), 1);
        assert_eq!(tx.games_of(ann).unwrap()[0].inviter_seat, Seat::South);
    }
}
