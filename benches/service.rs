//! The mail service's throughput: N order mails pushed through a real
//! Maildir, a real SQLite file and the file transport, reported as mails
//! per second and per-mail latency; and, in the same run on the same disk,
//! the rate of minimal SQLite commits, so that the service's overhead can
//! be read as a ratio to the cost of durability itself.
//!
//! `cargo bench --bench service` runs 400 mails; under `cargo test
//! --all-targets` it runs 20 as a smoke test. The figures are printed,
//! never asserted.

#[path = "../tests/common/rng.rs"]
mod rng;

use std::time::{Duration, Instant};

use orderly::config::Config;
use orderly::games::squares::Squares;
use orderly::games::{Game, GameOptions, Seat};
use orderly::mail::maildir::Maildir;
use orderly::service::identity::seat_secret;
use orderly::service::Service;
use orderly::store::{GameStatus, Store, Timestamp};
use rng::XorShift;

const SECRET: &str = "bench-secret";

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let n = if full { 400 } else { 20 };
    let base = std::env::var_os("ORDERLY_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("orderly-bench-{}", std::process::id()))
        });
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("a bench directory");

    let mut config = Config::default();
    config.service.address = "orderly@example.org".into();
    config.service.secret = Some(SECRET.into());
    config.service.rate_limit_per_hour = u32::MAX;
    config.store.path = base.join("orderly.db");
    config.intake.maildir = base.join("inbox");
    config.outgoing.dir = base.join("sent");
    let mut service = Service::open(config).expect("the service opens");
    let inbox = Maildir::open_or_create(base.join("inbox")).expect("the inbox");

    let addr = |seat| {
        format!(
            "orderly+g1.{}@example.org",
            seat_secret(SECRET.as_bytes(), 1, seat)
        )
    };
    let deliver = |i: usize, from: &str, to: &str, body: &str| {
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: bench\r\nMessage-ID: <bench{i}@test>\r\n\r\n{body}\r\n"
        );
        inbox.deliver(raw.as_bytes()).expect("delivered");
    };
    deliver(
        0,
        "ann@example.org",
        "orderly@example.org",
        "NEW SQUARES VS bob@example.org",
    );
    deliver(1, "bob@example.org", &addr(Seat::South), "ACCEPT");
    service.poll_once().expect("the game starts");

    // A random game decides the orders; a new game starts when one ends.
    let mut model = Squares::new(&GameOptions::default());
    let mut rng = XorShift::from_state(0x2545_F491_4F6C_DD1D);
    let mut latencies = Vec::with_capacity(n);
    let space_before = used_bytes(&base.join("orderly.db"));
    let started = Instant::now();
    let mut sent = 0;
    for i in 0..n {
        if model.outcome().is_some() {
            break;
        }
        let pending = model.pending().expect("a decision");
        let legal = model.legal_orders();
        let order = legal[rng.below(legal.len())];
        model.apply(&order).expect("legal");
        let from = match pending.seat {
            Seat::North => "ann@example.org",
            Seat::South => "bob@example.org",
        };
        deliver(i + 2, from, &addr(pending.seat), &order.to_string());
        let t = Instant::now();
        let report = service.poll_once().expect("a poll");
        latencies.push(t.elapsed());
        sent += report.sent;
    }
    let total = started.elapsed();
    let mails = latencies.len();
    latencies.sort();
    let pct = |p: f64| latencies[((mails as f64 - 1.0) * p) as usize];

    let mut store = Store::open(&base.join("commits.db")).expect("a store");
    let commits = if full { 400 } else { 20 };
    let t = Instant::now();
    for i in 0..commits {
        store.minimal_commit(&format!("c{i}")).expect("a commit");
    }
    let commit_time = t.elapsed();

    let per_sec = |count: usize, d: Duration| count as f64 / d.as_secs_f64();
    println!("service: {mails} order mails ({sent} mails written) in {total:.2?}");
    println!(
        "  {:.0} mails/s; latency per mail (parse, transaction, replies written): \
         median {:.2?}, p90 {:.2?}, max {:.2?}",
        per_sec(mails, total),
        pct(0.5),
        pct(0.9),
        pct(1.0)
    );
    println!(
        "sqlite: {commits} minimal commits (WAL, synchronous=FULL) in {commit_time:.2?}: {:.0} commits/s",
        per_sec(commits, commit_time)
    );
    println!(
        "ratio: one mail costs {:.1} minimal commits",
        (total.as_secs_f64() / mails as f64) / (commit_time.as_secs_f64() / commits as f64)
    );
    storage(&base.join("orderly.db"), space_before, mails);
    sweep_bench(&base, full);
    let _ = std::fs::remove_dir_all(&base);
}

/// A sweep of the deadlines over many active games, of which a few have a
/// reminder, a late notice or a time-out due: the index on (status,
/// deadline) keeps the sweep to the due games.
fn sweep_bench(base: &std::path::Path, full: bool) {
    use chrono::{Duration as Span, TimeZone, Utc};
    let games: i64 = if full { 100_000 } else { 1_000 };
    let mut store = Store::open(&base.join("sweep.db")).expect("a store");
    let t0 = Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap();
    let setup = Instant::now();
    {
        let tx = store.tx().expect("a transaction");
        let at = Timestamp::from(t0);
        let ann = tx.player("ann@example.org", "", at).expect("a player");
        let bob = tx.player("bob@example.org", "", at).expect("a player");
        for g in 0..games {
            let id = tx
                .create_game("squares", Seat::North, Seat::North, g as u64, at)
                .expect("a game");
            tx.set_status(id, GameStatus::Active, at).expect("active");
            // Deadlines spread over 30 days; every 1,000th is due now.
            let offset = if g % 1_000 == 0 {
                Span::hours(1)
            } else {
                Span::minutes(30 * 24 * 60 * (g % 997) / 997 + 26 * 60)
            };
            let deadline = Timestamp::from(t0 + offset);
            if g % 1_000 == 0 {
                tx.add_seat(id, Seat::North, ann, "k1").expect("a seat");
                tx.add_seat(id, Seat::South, bob, "k2").expect("a seat");
            }
            tx.set_deadline(id, Some((Seat::North, deadline)))
                .expect("a deadline");
        }
        tx.commit().expect("committed");
    }
    let setup = setup.elapsed();
    let config = Config::default();
    let mut times = Vec::new();
    for i in 0..5 {
        let tx = store.tx().expect("a transaction");
        let t = Instant::now();
        let report = orderly::service::sweep(&tx, &config, t0 + Span::minutes(i)).expect("a sweep");
        times.push((t.elapsed(), report));
        tx.commit().expect("committed");
    }
    println!(
        "sweep: {games} active games (set up in {setup:.2?}); first sweep {:.2?} ({:?}), \
         then {:.2?}, {:.2?}, {:.2?}, {:.2?} with nothing new due",
        times[0].0, times[0].1, times[1].0, times[2].0, times[3].0, times[4].0
    );
}

/// Bytes of the database's pages in use (free pages not counted), read
/// through a connection of its own as any reader would see it.
fn used_bytes(db: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(db).expect("the database");
    let pragma = |name: &str| -> i64 {
        conn.pragma_query_value(None, name, |r| r.get(0))
            .expect("a pragma")
    };
    pragma("page_size") * (pragma("page_count") - pragma("freelist_count"))
}

/// What each order mail leaves in the database: the growth of its used
/// pages over the run, and what of it the outbox holds.
fn storage(db: &std::path::Path, before: i64, mails: usize) {
    let grown = used_bytes(db) - before;
    let conn = rusqlite::Connection::open(db).expect("the database");
    let (rows, body): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM outbox), \
             (SELECT COALESCE(SUM(LENGTH(mail)), 0) FROM outbox_bodies)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("the outbox");
    println!(
        "storage: {} bytes of pages per order mail ({grown} bytes for {mails}); \
         the outbox holds {rows} rows with {body} bytes of mail bodies",
        grown / mails.max(1) as i64
    );
    // Pages are filled as rows come and go; a vacuumed copy shows what the
    // rows themselves take.
    let copy = db.with_extension("vacuumed");
    let _ = std::fs::remove_file(&copy);
    conn.execute("VACUUM INTO ?1", [copy.to_str().expect("a UTF-8 path")])
        .expect("a vacuumed copy");
    let vacuumed = used_bytes(&copy);
    // And once the sweep has deleted the sent mail (past keep_sent_days),
    // what stays for good: the record, the seen Message-IDs.
    let kept = rusqlite::Connection::open(&copy).expect("the copy");
    kept.execute_batch("DELETE FROM outbox WHERE status = 'sent'; VACUUM;")
        .expect("sent mail deleted");
    println!(
        "  vacuumed: {} bytes per order mail; once sent mail is forgotten: {}",
        (vacuumed - before) / mails.max(1) as i64,
        (used_bytes(&copy) - before) / mails.max(1) as i64
    );
}
