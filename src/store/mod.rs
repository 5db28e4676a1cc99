//! The SQLite store: players, games, seats, every record entry with its
//! events, processed Message-IDs and the outbox. It knows nothing of any
//! game's rules: orders are text, positions are cached text.
//!
//! The database runs in WAL mode; the schema is versioned by SQL files under
//! `migrations/`, applied in order and counted in `PRAGMA user_version`.
//! Everything one incoming mail changes happens in one [`Tx`], whose methods
//! are grouped by the tables they touch, one file a group:
//!
//! | file            | tables (and columns)                                      |
//! |-----------------|-----------------------------------------------------------|
//! | `games.rs`      | `games` (kind, status, position, result), `seats`         |
//! | `entries.rs`    | `entries`, `events`: the record                           |
//! | `fair.rs`       | `fair_seeds`, `fair_draws`, `fair_words`: fair chance (docs/dice.md) |
//! | `messages.rs`   | `messages` (seen mail, content digests, rate counts), `intake_failures` |
//! | `outbox.rs`     | `outbox`, `outbox_bodies`, `bounces`, `seats.undeliverable` |
//! | `deadlines.rs`  | `games` deadline, clock, bank, pause and adjournment columns; stalled games |
//! | `players.rs`    | `players` (settings, digests), `address_changes`, `vacations` |
//! | `moderation.rs` | `moderation` (the audit), `games` moderator and dispute columns |
//! | `watchers.rs`   | `watchers`, `games.public`: who watches which public game   |
//! | `ratings.rs`    | `ratings`, `rating_changes`, `games.rated`: Glicko-2 ratings |
//! | `upkeep.rs`     | the file itself: its space, backups, vacuum               |
//!
//! What a column holds is typed on both sides of SQL: seats, results,
//! statuses and entry kinds in `values.rs`, moments in `time.rs`. The
//! stored text is the one written since the first schema, and text orderly
//! never writes is an error ([`StoreError::CorruptValue`]), never taken for
//! the nearest value.

mod daily;
mod deadlines;
mod entries;
mod fair;
mod games;
mod messages;
mod moderation;
mod outbox;
mod players;
mod ratings;
mod thinking;
mod time;
mod upkeep;
mod values;
mod watchers;

use std::cell::RefCell;
use std::path::Path;

use crate::games::Seat;

use rusqlite::types::FromSql;
use rusqlite::{params, Connection};

pub use daily::{DailyGame, DailyResult};
pub use deadlines::{Deadline, Stalled};
pub use entries::EntryRow;
pub use fair::{FairDraw, FairSeed};
pub use games::{GameRow, SeatRow};
pub use messages::SentSince;
pub use outbox::{OutboxRow, SentMail};
pub use players::VacationRow;
pub use ratings::{RatingChange, RatingRow};
pub use time::Timestamp;
pub use upkeep::Space;
pub use values::{result_from_text, result_text, seat_text, EntryKind, GameStatus};

use values::Unknown;

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
    (
        "0010_retention",
        include_str!("../../migrations/0010_retention.sql"),
    ),
    (
        "0011_sender_counts",
        include_str!("../../migrations/0011_sender_counts.sql"),
    ),
    (
        "0012_fair_draws",
        include_str!("../../migrations/0012_fair_draws.sql"),
    ),
    (
        "0013_scenarios",
        include_str!("../../migrations/0013_scenarios.sql"),
    ),
    (
        "0014_mail_dates",
        include_str!("../../migrations/0014_mail_dates.sql"),
    ),
    (
        "0015_observers",
        include_str!("../../migrations/0015_observers.sql"),
    ),
    (
        "0016_ratings",
        include_str!("../../migrations/0016_ratings.sql"),
    ),
    (
        "0017_computer",
        include_str!("../../migrations/0017_computer.sql"),
    ),
    (
        "0018_play_of_the_day",
        include_str!("../../migrations/0018_play_of_the_day.sql"),
    ),
    (
        "0019_confirmations",
        include_str!("../../migrations/0019_confirmations.sql"),
    ),
    (
        "0020_pictures",
        include_str!("../../migrations/0020_pictures.sql"),
    ),
    (
        "0021_computer_thinking",
        include_str!("../../migrations/0021_computer_thinking.sql"),
    ),
];

/// How many prepared statements a connection keeps: more than the store
/// has (each SQL text in `src/store/` is one), so that none is parsed twice.
const STATEMENT_CACHE: usize = 256;

/// A store error: the database said no, or holds what orderly never wrote.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("database: {0}")]
    Sql(rusqlite::Error),
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
    /// A column holds text orderly never writes there (a status, seat,
    /// result, entry kind or time it does not know).
    #[error("corrupt value in the database: {column} holds {value:?}, not {expected}")]
    CorruptValue {
        /// The column's name (its number when unnamed).
        column: String,
        /// What it holds.
        value: String,
        /// What belongs there, in words.
        expected: &'static str,
    },
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        match e {
            rusqlite::Error::FromSqlConversionFailure(index, ty, inner) => {
                match inner.downcast::<Named>() {
                    Ok(named) => StoreError::CorruptValue {
                        column: named.column,
                        value: named.unknown.value,
                        expected: named.unknown.expected,
                    },
                    Err(inner) => match inner.downcast::<Unknown>() {
                        Ok(unknown) => StoreError::CorruptValue {
                            column: format!("column {index}"),
                            value: unknown.value,
                            expected: unknown.expected,
                        },
                        Err(inner) => StoreError::Sql(rusqlite::Error::FromSqlConversionFailure(
                            index, ty, inner,
                        )),
                    },
                }
            }
            other => StoreError::Sql(other),
        }
    }
}

type Result<T> = std::result::Result<T, StoreError>;

/// An [`Unknown`] value with the name of the column it was found in.
#[derive(Debug, thiserror::Error)]
#[error("{column}: {unknown}")]
struct Named {
    column: String,
    unknown: Unknown,
}

/// Column `idx` of `row` as a `T`. Text orderly never writes there carries
/// the column's name into the error, so that a moderator knows where to
/// look (the row mappers read every typed column through here).
fn column<T: FromSql>(row: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<T> {
    row.get(idx).map_err(|e| match e {
        rusqlite::Error::FromSqlConversionFailure(index, ty, inner) => {
            let inner: Box<dyn std::error::Error + Send + Sync> = match inner.downcast::<Unknown>()
            {
                Ok(unknown) => Box::new(Named {
                    column: row
                        .as_ref()
                        .column_name(index)
                        .map_or_else(|_| format!("column {index}"), str::to_string),
                    unknown: *unknown,
                }),
                Err(inner) => inner,
            };
            rusqlite::Error::FromSqlConversionFailure(index, ty, inner)
        }
        other => other,
    })
}

/// An open database.
pub struct Store {
    conn: Connection,
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
        // The journal of each mail's savepoint (a batch is one transaction
        // with a savepoint per mail) is temporary: in memory, not a file.
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        // Every statement of the store is prepared once per connection and
        // kept (`Tx::exec`, `Tx::one`, `prepare_cached`): re-parsing the SQL
        // of each mail's dozens of statements was a fifth of its CPU. The
        // cache holds them all (about 90), with room for more.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
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
            reads: RefCell::default(),
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
            reads: RefCell::default(),
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
    /// Rows read since the transaction last wrote anything (see
    /// [`ReadCache`]).
    reads: RefCell<ReadCache>,
}

/// The rows a mail's work reads again and again (a game's seats eight times
/// a mail, its row five times, a seat's answers in advance seven times),
/// kept from one read to the next as long as nothing is written: every
/// write ([`Tx::exec`]) and every rollback to a savepoint forgets them all,
/// so a cached row is always what the database would answer.
#[derive(Default)]
struct ReadCache {
    seats: Option<(i64, Vec<SeatRow>)>,
    game: Option<(i64, Option<GameRow>)>,
    conditions: Vec<((i64, Seat), String)>,
}

impl Tx<'_> {
    /// Makes everything durable.
    pub fn commit(self) -> Result<()> {
        Ok(self.tx.commit()?)
    }

    /// Marks where one mail of a batch begins, so that its changes can be
    /// undone alone ([`Tx::rollback_to_savepoint`]) or kept
    /// ([`Tx::release_savepoint`]) while the batch goes on.
    /// (Its statements are cached like the store's others: parsed for
    /// every mail of a batch, they cost as much as a query.)
    pub fn savepoint(&self) -> Result<()> {
        self.in_transaction()?;
        Ok(self
            .tx
            .prepare_cached("SAVEPOINT mail")?
            .execute([])
            .map(drop)?)
    }

    /// Keeps the changes since [`Tx::savepoint`] in the transaction.
    pub fn release_savepoint(&self) -> Result<()> {
        self.in_transaction()?;
        Ok(self
            .tx
            .prepare_cached("RELEASE mail")?
            .execute([])
            .map(drop)?)
    }

    /// Undoes the changes since [`Tx::savepoint`], keeping the rest of the
    /// transaction.
    pub fn rollback_to_savepoint(&self) -> Result<()> {
        self.in_transaction()?;
        self.forget_reads();
        self.tx.prepare_cached("ROLLBACK TO mail")?.execute([])?;
        Ok(self
            .tx
            .prepare_cached("RELEASE mail")?
            .execute([])
            .map(drop)?)
    }

    /// Fails when SQLite has ended the transaction on its own (it does on a
    /// full disk or an I/O error): a savepoint taken then would begin a new
    /// transaction, and its release would commit part of a batch.
    fn in_transaction(&self) -> Result<()> {
        if self.tx.is_autocommit() {
            return Err(StoreError::Corrupt(
                "the transaction was rolled back by the database".into(),
            ));
        }
        Ok(())
    }

    /// Runs one statement through the connection's statement cache: its
    /// SQL is parsed at its first use only.
    fn exec<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.forget_reads();
        self.tx.prepare_cached(sql)?.execute(params)
    }

    /// Empties the [`ReadCache`]: the database is about to change.
    fn forget_reads(&self) {
        *self.reads.borrow_mut() = ReadCache::default();
    }

    /// The first row of a query, through the statement cache (see
    /// [`Tx::exec`]); `QueryReturnedNoRows` when there is none.
    fn one<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.tx.prepare_cached(sql)?.query_row(params, f)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::{EntryKind, GameStatus, Store, StoreError, Timestamp, MIGRATIONS};
    use crate::games::{Happened, Seat};
    use rusqlite::params;

    /// `t0`, `t1`, ...: the hour `n` of a fixed day.
    fn t(n: u32) -> Timestamp {
        Utc.with_ymd_and_hms(2026, 11, 24, n, 0, 0)
            .single()
            .expect("a time")
            .into()
    }

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

    /// The rate limits' count (run for every mail) is read from the index
    /// alone and stops at its cap (migration 0011).
    #[test]
    fn the_rate_limit_count_reads_only_the_index_and_stops_at_its_cap() {
        let mut store = Store::open_in_memory().unwrap();
        let plan: Vec<String> = store
            .conn
            .prepare(
                "EXPLAIN QUERY PLAN SELECT COUNT(*), COALESCE(SUM(commands), 0) FROM \
                 (SELECT commands FROM messages WHERE sender = ?1 AND received_at >= ?2 LIMIT ?3)",
            )
            .unwrap()
            .query_map(params!["a@x", 0, 5], |r| r.get::<_, String>(3))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert!(
            plan.iter()
                .any(|p| p.contains("USING COVERING INDEX messages_by_sender")),
            "{plan:?}"
        );
        let tx = store.tx().unwrap();
        for i in 0..10 {
            tx.record_message(&format!("m{i}@x"), "a@x", t(1), "done")
                .unwrap();
        }
        tx.set_message_commands("m0@x", 5).unwrap();
        let sent = |since, cap| tx.sent_since("a@x", since, cap).unwrap();
        assert_eq!((sent(t(0), 4).mails, sent(t(0), 100).mails), (4, 10));
        assert_eq!(sent(t(0), 100).commands, 14);
        assert_eq!(sent(t(2), 100).mails, 0);
        assert_eq!(tx.sent_since("b@x", t(0), 100).unwrap().commands, 0);
    }

    /// The next mail is dated after the last one queued and the last one
    /// to its recipient, each read from an index (migration 0014).
    #[test]
    fn the_last_dates_are_the_last_mails_and_the_last_to_the_recipient() {
        let mut store = Store::open_in_memory().unwrap();
        let plan: Vec<String> = store
            .conn
            .prepare("EXPLAIN QUERY PLAN SELECT MAX(dated) FROM outbox WHERE recipient = ?1")
            .unwrap()
            .query_map(params!["a@x"], |r| r.get::<_, String>(3))
            .unwrap()
            .map(|r| r.unwrap())
            .collect();
        assert!(
            plan.iter()
                .any(|p| p.contains("COVERING INDEX outbox_dated_by_recipient")),
            "{plan:?}"
        );
        let tx = store.tx().unwrap();
        assert_eq!(tx.last_mail_dates("a@x").unwrap(), (None, None));
        tx.queue_mail("o1", None, "a@x", "{}", t(1), t(2)).unwrap();
        tx.queue_mail("o2", None, "b@x", "{}", t(1), t(3)).unwrap();
        assert_eq!(tx.last_mail_dates("a@x").unwrap(), (Some(t(3)), Some(t(2))));
        assert_eq!(tx.last_mail_dates("c@x").unwrap(), (Some(t(3)), None));
    }

    /// Rows kept between reads are never stale: a write, or a rollback to
    /// a savepoint, and the next read asks the database again.
    #[test]
    fn kept_reads_follow_every_write_and_rollback() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let ann = tx.player("ann@example.org", "Ann", t(0)).unwrap();
        let g = tx
            .create_game("squares", Seat::North, Seat::South, 7, None, t(0))
            .unwrap();
        tx.add_seat(g, Seat::North, ann, "s1").unwrap();
        assert!(tx.seats(g).unwrap()[0].held.is_empty());
        assert_eq!(tx.conditions(g, Seat::North).unwrap(), "[]");
        let status = tx.game(g).unwrap().unwrap().status;

        tx.set_held(g, Seat::North, &["MOVE X".into()]).unwrap();
        tx.set_conditions(g, Seat::North, "[1]").unwrap();
        assert_eq!(tx.seats(g).unwrap()[0].held, ["MOVE X"]);
        assert_eq!(tx.conditions(g, Seat::North).unwrap(), "[1]");

        tx.savepoint().unwrap();
        tx.set_held(g, Seat::North, &[]).unwrap();
        tx.set_conditions(g, Seat::North, "[2]").unwrap();
        tx.set_status(g, GameStatus::Finished, t(1)).unwrap();
        assert!(tx.seats(g).unwrap()[0].held.is_empty());
        assert_eq!(tx.game(g).unwrap().unwrap().status, GameStatus::Finished);
        tx.rollback_to_savepoint().unwrap();
        assert_eq!(tx.seats(g).unwrap()[0].held, ["MOVE X"]);
        assert_eq!(tx.conditions(g, Seat::North).unwrap(), "[1]");
        assert_eq!(tx.game(g).unwrap().unwrap().status, status);
        // Another game's rows are not taken for this one's.
        assert!(tx.seats(g + 1).unwrap().is_empty());
        assert!(tx.game(g + 1).unwrap().is_none());
    }

    #[test]
    fn a_game_with_seats_entries_and_mail_round_trips() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let ann = tx.player("Ann@Example.org", "Ann", t(0)).unwrap();
        let bob = tx.player("bob@example.org", "", t(0)).unwrap();
        assert_eq!(tx.player("ann@example.org", "", t(1)).unwrap(), ann);
        let g = tx
            .create_game("squares", Seat::North, Seat::South, 7, None, t(0))
            .unwrap();
        tx.add_seat(g, Seat::North, bob, "s1").unwrap();
        tx.add_seat(g, Seat::South, ann, "s2").unwrap();
        tx.set_held(g, Seat::North, &["MOVE X".into()]).unwrap();
        let seq = tx
            .add_entry(
                g,
                EntryKind::Order,
                Some(Seat::North),
                "PASS",
                "pass",
                Some("m1"),
                t(1),
                &[Happened {
                    data: serde_json::json!("Pass"),
                    text: "Blue passes".into(),
                    forced: None,
                    private: None,
                }],
            )
            .unwrap();
        assert_eq!(seq, 1);
        tx.queue_mail("o1", Some(g), "ann@example.org", "{}", t(1), t(1))
            .unwrap();
        tx.queue_mail("o1", Some(g), "ann@example.org", "{}", t(1), t(1))
            .unwrap();
        tx.record_message("m1", "bob@example.org", t(1), "ok")
            .unwrap();
        tx.commit().unwrap();
        let tx = store.tx().unwrap();
        assert!(tx.message_seen("m1").unwrap());
        let seats = tx.seats(g).unwrap();
        assert_eq!(seats[0].seat, Seat::North);
        assert_eq!(seats[0].held, ["MOVE X"]);
        assert_eq!(seats[1].address, "ann@example.org");
        assert_eq!(tx.entries(g).unwrap()[0].written, "pass");
        assert_eq!(tx.due_mail(t(2), 10).unwrap().len(), 1);
        assert_eq!(tx.games_of(ann).unwrap()[0].inviter_seat, Seat::South);
    }

    #[test]
    fn entry_count_is_the_number_of_entries_in_the_record() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let g = tx
            .create_game("squares", Seat::North, Seat::South, 7, None, t(0))
            .unwrap();
        let other = tx
            .create_game("squares", Seat::North, Seat::South, 8, None, t(0))
            .unwrap();
        assert_eq!(tx.entry_count(g).unwrap(), 0);
        for (n, order) in ["A1", "B2", "C3"].into_iter().enumerate() {
            tx.add_entry(g, EntryKind::Order, None, order, order, None, t(1), &[])
                .unwrap();
            assert_eq!(tx.entry_count(g).unwrap(), n as i64 + 1);
        }
        tx.add_entry(other, EntryKind::Order, None, "A1", "A1", None, t(1), &[])
            .unwrap();
        tx.remove_last_orders(g, 2).unwrap();
        assert_eq!(tx.entry_count(g).unwrap(), 1);
        assert_eq!(tx.entries(g).unwrap().len(), 1);
        assert_eq!(tx.entry_count(other).unwrap(), 1);
    }

    #[test]
    fn the_statement_cache_holds_every_statement_of_the_store() {
        // Each call through the cache in the store's files is one SQL text
        // at most: while they all fit, none is ever parsed twice.
        let sources = [
            include_str!("deadlines.rs"),
            include_str!("entries.rs"),
            include_str!("games.rs"),
            include_str!("messages.rs"),
            include_str!("moderation.rs"),
            include_str!("outbox.rs"),
            include_str!("players.rs"),
        ];
        let calls: usize = sources
            .iter()
            .map(|s| {
                ["self.exec(", "self.one(", "prepare_cached("]
                    .iter()
                    .map(|call| s.matches(call).count())
                    .sum::<usize>()
            })
            .sum();
        assert!(calls > 50, "{calls} calls found: the count looks wrong");
        assert!(
            calls < super::STATEMENT_CACHE,
            "{calls} statements, a cache of {}",
            super::STATEMENT_CACHE
        );
    }

    #[test]
    fn times_are_stored_as_the_text_written_since_the_first_schema() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let at: Timestamp = (Utc.with_ymd_and_hms(2026, 11, 24, 9, 30, 0).unwrap()
            + chrono::Duration::microseconds(123_456))
        .into();
        let g = tx
            .create_game("squares", Seat::North, Seat::North, 7, None, at)
            .unwrap();
        let text: String = tx
            .tx
            .query_row("SELECT created_at FROM games WHERE id = ?1", [g], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(text, "2026-11-24T09:30:00.123Z");
        assert_eq!(tx.game(g).unwrap().unwrap().created_at, at);
    }

    #[test]
    fn text_orderly_never_writes_is_an_error_naming_its_column() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let g = tx
            .create_game("squares", Seat::North, Seat::North, 7, None, t(0))
            .unwrap();
        let corrupt = |sql: &str| {
            tx.tx.execute(sql, [g]).unwrap();
            let e = tx.game(g).unwrap_err();
            tx.tx
                .execute(
                    "UPDATE games SET status = 'invited', result = NULL, \
                     updated_at = created_at, first_seat = 'north' WHERE id = ?1",
                    [g],
                )
                .unwrap();
            e
        };
        for (sql, column, value) in [
            (
                "UPDATE games SET status = 'paused' WHERE id = ?1",
                "status",
                "paused",
            ),
            (
                "UPDATE games SET result = 'blue' WHERE id = ?1",
                "result",
                "blue",
            ),
            (
                "UPDATE games SET first_seat = 'west' WHERE id = ?1",
                "first_seat",
                "west",
            ),
            (
                "UPDATE games SET updated_at = 'soon' WHERE id = ?1",
                "updated_at",
                "soon",
            ),
        ] {
            match corrupt(sql) {
                StoreError::CorruptValue {
                    column: c,
                    value: v,
                    ..
                } => assert_eq!((c.as_str(), v.as_str()), (column, value), "{sql}"),
                other => panic!("{sql}: {other:?}"),
            }
        }
        assert!(tx.game(g).unwrap().is_some());
    }

    #[test]
    fn a_rolled_back_savepoint_undoes_its_mail_alone() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        tx.savepoint().unwrap();
        tx.record_message("kept", "", t(0), "ok").unwrap();
        tx.release_savepoint().unwrap();
        tx.savepoint().unwrap();
        tx.record_message("undone", "", t(0), "ok").unwrap();
        tx.rollback_to_savepoint().unwrap();
        tx.savepoint().unwrap();
        tx.record_message("after", "", t(0), "ok").unwrap();
        tx.release_savepoint().unwrap();
        tx.commit().unwrap();
        let tx = store.tx().unwrap();
        assert!(tx.message_seen("kept").unwrap());
        assert!(!tx.message_seen("undone").unwrap());
        assert!(tx.message_seen("after").unwrap());
    }
}
