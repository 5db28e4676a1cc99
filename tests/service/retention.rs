//! Retention: a sent mail keeps only what a bounce needs, the sweep deletes
//! sent mail past `[store] keep_sent_days` a bounded chunk at a time, and
//! the database can be copied while the service writes (`orderly backup`)
//! and compacted (`orderly vacuum`).

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::{DateTime, Duration, TimeZone, Utc};
use orderly::config::Config;
use orderly::games::Seat;
use orderly::store::{Store, Timestamp};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap()
}

fn at(days: i64) -> Timestamp {
    (t0() + Duration::days(days)).into()
}

/// A directory of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orderly-retention-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rows of a table, read through a connection of the test's own.
fn count(db: &Path, table: &str) -> i64 {
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

/// Queues `n` mails to `recipient` about game `game` at `when`, named
/// `prefix0`, `prefix1`, ...; sends the first `sent` of them then.
fn mails(store: &mut Store, prefix: &str, game: i64, n: usize, sent: usize, when: Timestamp) {
    let tx = store.tx().unwrap();
    for i in 0..n {
        let id = format!("<{prefix}{i}@example.org>");
        tx.queue_mail(
            &id,
            Some(game),
            "ann@example.org",
            "{\"body\":\"a reply\"}",
            when,
            when,
        )
        .unwrap();
    }
    for row in tx.due_mail(when, sent as i64).unwrap() {
        tx.mark_sent(row.id, when).unwrap();
    }
    tx.commit().unwrap();
}

fn game(store: &mut Store) -> i64 {
    let tx = store.tx().unwrap();
    let g = tx
        .create_game("squares", Seat::North, Seat::North, 7, None, at(0))
        .unwrap();
    tx.commit().unwrap();
    g
}

#[test]
fn a_sent_mail_keeps_what_a_bounce_reads_and_gives_its_body_up() {
    let dir = scratch("body");
    let db = dir.join("o.db");
    let mut store = Store::open(&db).unwrap();
    let g = game(&mut store);
    mails(&mut store, "m", g, 3, 2, at(0));
    assert_eq!(count(&db, "outbox"), 3);
    // Only the mail still queued has a body, and it is the one a retry reads.
    assert_eq!(count(&db, "outbox_bodies"), 1);
    let tx = store.tx().unwrap();
    let due = tx.due_mail(at(1), 10).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].message_id, "<m2@example.org>");
    assert_eq!(due[0].mail, "{\"body\":\"a reply\"}");
    // A sent one still answers a bounce: its recipient and game.
    let sent = tx.sent_mail(due[0].id - 2).unwrap().unwrap();
    assert_eq!(
        (sent.recipient.as_str(), sent.game_id),
        ("ann@example.org", Some(g))
    );
    // And its Message-ID still makes the same decision one mail.
    tx.queue_mail(
        "<m0@example.org>",
        Some(g),
        "ann@example.org",
        "{}",
        at(1),
        at(1),
    )
    .unwrap();
    assert_eq!(tx.outbox_count("queued").unwrap(), 1);
    assert_eq!(tx.outbox_count("sent").unwrap(), 2);
    drop(tx);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sweep_deletes_sent_mail_past_its_days_in_bounded_chunks() {
    let mut store = Store::open_in_memory().unwrap();
    let g = game(&mut store);
    let config = Config::default();
    let keep = i64::from(config.store.keep_sent_days);
    // 5,003 mails sent on day 0, the first of which bounced; 2 queued for
    // ever (a relay that keeps failing); 4 sent on day 2.
    mails(&mut store, "old", g, 5_005, 5_003, at(0));
    mails(&mut store, "new", g, 4, 4, at(2));
    {
        let tx = store.tx().unwrap();
        tx.add_bounce(
            1,
            "ann@example.org",
            true,
            "5.1.1",
            "no such user",
            "<b@x>",
            at(1),
        )
        .unwrap();
        tx.commit().unwrap();
    }
    let sweep = |store: &mut Store, now: DateTime<Utc>| {
        let tx = store.tx().unwrap();
        let report = orderly::service::sweep(&tx, &config, now).unwrap();
        tx.commit().unwrap();
        report.forgotten_mail
    };
    // Within the days kept nothing goes.
    assert_eq!(
        sweep(
            &mut store,
            t0() + Duration::days(keep) - Duration::minutes(1)
        ),
        0
    );
    let later = t0() + Duration::days(keep) + Duration::hours(1);
    // Past them, at most 5,000 a sweep: 5,002 old unbounced mails take two.
    assert_eq!(sweep(&mut store, later), 5_000);
    assert_eq!(sweep(&mut store, later), 2);
    assert_eq!(sweep(&mut store, later), 0);
    let tx = store.read().unwrap();
    // The bounced mail stays with its bounce; the queued and the newer
    // sent mails stay.
    assert_eq!(tx.outbox_count("sent").unwrap(), 1 + 4);
    assert_eq!(tx.outbox_count("queued").unwrap(), 2);
    assert!(tx.sent_mail(1).unwrap().is_some());
    drop(tx);
    assert_eq!(
        sweep(
            &mut store,
            t0() + Duration::days(2 + keep) + Duration::hours(1)
        ),
        4
    );
}

#[test]
fn keep_sent_days_is_read_and_must_be_at_least_one() {
    let config = Config::parse("[store]\nkeep_sent_days = 7\n").unwrap();
    assert_eq!(config.store.keep_sent_days, 7);
    let refused = Config::parse("[store]\nkeep_sent_days = 0\n").unwrap_err();
    assert!(refused.contains("keep_sent_days"), "{refused}");
}

#[test]
fn a_database_of_the_previous_schema_keeps_the_bodies_of_mail_not_yet_sent() {
    let dir = scratch("migrate");
    let db = dir.join("o.db");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        for sql in [
            include_str!("../../migrations/0001_initial.sql"),
            include_str!("../../migrations/0002_bounces.sql"),
            include_str!("../../migrations/0003_deadlines.sql"),
            include_str!("../../migrations/0004_moderation.sql"),
            include_str!("../../migrations/0005_vacations.sql"),
            include_str!("../../migrations/0006_clocks.sql"),
            include_str!("../../migrations/0007_game_moderator.sql"),
            include_str!("../../migrations/0008_mail_habits.sql"),
            include_str!("../../migrations/0009_game_seam.sql"),
        ] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 9).unwrap();
        conn.execute_batch(
            "INSERT INTO outbox (message_id, recipient, mail, status, next_attempt_at, created_at) \
             VALUES ('<a>', 'ann@example.org', 'sent body', 'sent', '2026-11-24T09:00:00.000Z', \
                     '2026-11-24T09:00:00.000Z'), \
                    ('<b>', 'bob@example.org', 'queued body', 'queued', '2026-11-24T09:00:00.000Z', \
                     '2026-11-24T09:00:00.000Z'), \
                    ('<c>', 'cid@example.org', 'failed body', 'failed', '2026-11-24T09:00:00.000Z', \
                     '2026-11-24T09:00:00.000Z');",
        )
        .unwrap();
    }
    let mut store = Store::open(&db).unwrap();
    let tx = store.read().unwrap();
    let due = tx.due_mail(at(1), 10).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(
        (due[0].message_id.as_str(), due[0].mail.as_str()),
        ("<b>", "queued body")
    );
    assert_eq!(
        tx.sent_mail(1).unwrap().unwrap().recipient,
        "ann@example.org"
    );
    drop(tx);
    drop(store);
    let bodies: Vec<String> = rusqlite::Connection::open(&db)
        .unwrap()
        .prepare("SELECT mail FROM outbox_bodies ORDER BY outbox_id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(bodies, ["queued body", "failed body"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A configuration file naming `db` as the store.
fn config_file(dir: &Path, db: &Path) -> PathBuf {
    let path = dir.join("orderly.toml");
    std::fs::write(
        &path,
        format!("[store]\npath = {:?}\n", db.to_str().unwrap()),
    )
    .unwrap();
    path
}

fn orderly(config: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_orderly"))
        .arg("--config")
        .arg(config)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn a_backup_taken_while_the_service_writes_opens_and_has_the_games() {
    let dir = scratch("backup");
    let db = dir.join("orderly.db");
    let config = config_file(&dir, &db);
    let mut service = Store::open(&db).unwrap();
    let games: Vec<i64> = (0..3).map(|_| game(&mut service)).collect();
    // The service is in the middle of a mail: its write transaction is
    // open, with a game not yet committed.
    let tx = service.tx().unwrap();
    tx.create_game("squares", Seat::North, Seat::North, 9, None, at(0))
        .unwrap();

    let copy = dir.join("copy.db");
    let (ok, said) = orderly(&config, &["backup", copy.to_str().unwrap()]);
    assert!(ok, "{said}");
    // Another copy through the library, from a connection of its own.
    let second = dir.join("second.db");
    Store::open(&db).unwrap().backup_to(&second, false).unwrap();
    tx.commit().unwrap();

    for path in [&copy, &second] {
        let mut opened = Store::open(path).unwrap();
        let read = opened.read().unwrap();
        for g in &games {
            assert!(read.game(*g).unwrap().is_some(), "game {g} in {path:?}");
        }
        // The uncommitted game is not in the snapshot.
        assert!(read.game(games[2] + 1).unwrap().is_none());
        drop(read);
        assert!(!orderly::private::readable_by_others(path).unwrap());
    }

    // An existing file is left alone unless told.
    std::fs::write(&copy, b"keep me").unwrap();
    let (ok, said) = orderly(&config, &["backup", copy.to_str().unwrap()]);
    assert!(!ok, "{said}");
    assert!(said.contains("exists"), "{said}");
    assert_eq!(std::fs::read(&copy).unwrap(), b"keep me");
    let (ok, said) = orderly(&config, &["backup", "--force", copy.to_str().unwrap()]);
    assert!(ok, "{said}");
    assert_eq!(count(&copy, "games"), 4);
    // Nothing half-written is left beside it.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
    // The database itself is no place for its copy.
    let refused = service.backup_to(&db, true).unwrap_err().to_string();
    assert!(refused.contains("the database itself"), "{refused}");
    assert_eq!(count(&db, "games"), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn vacuum_gives_the_space_of_forgotten_mail_back() {
    let dir = scratch("vacuum");
    let db = dir.join("orderly.db");
    let config = config_file(&dir, &db);
    let (ok, said) = orderly(&config, &["vacuum"]);
    assert!(!ok && said.contains("no database"), "{said}");
    {
        let mut store = Store::open(&db).unwrap();
        let g = game(&mut store);
        mails(&mut store, "m", g, 3_000, 3_000, at(0));
        let tx = store.tx().unwrap();
        assert_eq!(tx.forget_sent_mail(at(40), 5_000).unwrap(), 3_000);
        tx.commit().unwrap();
        let space = store.space().unwrap();
        assert!(space.free_pages > 10, "{space:?}");
    }
    let before = std::fs::metadata(&db).unwrap().len();
    let (ok, said) = orderly(&config, &["vacuum"]);
    assert!(ok, "{said}");
    let after = std::fs::metadata(&db).unwrap().len();
    assert!(after < before, "{before} -> {after}: {said}");
    let store = Store::open(&db).unwrap();
    assert_eq!(store.space().unwrap().free_pages, 0);
    assert_eq!(count(&db, "games"), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
