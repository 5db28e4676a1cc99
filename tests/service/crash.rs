//! Exactly once under crashes: the real daemon (`orderly serve`) as a child
//! process over a few hundred mails, killed with SIGKILL at random moments
//! and restarted each time, with batches (one transaction for several
//! mails) of 1, 10 and 100 mails. Afterwards every order was applied
//! exactly once and every reply was written at least once; a mail that
//! always fails, in the middle of a batch, was rolled back alone. Half the
//! mail comes in while the daemon runs, so that kills also land while one
//! poll's replies are sent beside the next poll's processing.

#[path = "../common/mod.rs"]
mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::rng::XorShift;
use common::site::{config_file, scratch_dir};
use orderly::config::Config;
use orderly::games::squares::Squares;
use orderly::games::{Game, GameOptions, Seat};
use orderly::mail::maildir::Maildir;
use orderly::mail::outgoing::{file_name, message_id};
use orderly::service::identity::seat_secret;
use orderly::store::Store;

const SECRET: &str = "crash-test-secret";
const ORDERS: usize = 240;

fn mail(n: usize, from: &str, to: &str, body: &str) -> (String, Vec<u8>) {
    let id = format!("crash{n:04}@test");
    let raw = format!(
        "From: {from}\r\nTo: {to}\r\nSubject: crash test {n}\r\nMessage-ID: <{id}>\r\n\r\n{body}\r\n"
    );
    (id, raw.into_bytes())
}

fn write_config(dir: &Path, batch_max: u32) -> PathBuf {
    let service =
        format!("poll_interval_secs = 1\nrate_limit_per_hour = 100000\nbatch_max = {batch_max}\n");
    config_file(dir, SECRET, &service, "")
}

#[test]
fn killed_at_random_the_daemon_applies_every_order_once_one_mail_a_transaction() {
    killed_at_random(1);
}

#[test]
fn killed_at_random_the_daemon_applies_every_order_once_in_batches_of_ten() {
    killed_at_random(10);
}

#[test]
fn killed_at_random_the_daemon_applies_every_order_once_in_batches_of_a_hundred() {
    killed_at_random(100);
}

/// The daemon, with `batch_max` mails a transaction, killed at random until
/// every mail is processed.
fn killed_at_random(batch_max: u32) {
    let dir = scratch_dir("orderly-crash", &batch_max.to_string());
    let config_path = write_config(&dir, batch_max);
    let inbox = Maildir::open_or_create(dir.join("inbox")).unwrap();
    // A mail that always fails, late in its processing (the database
    // refuses to record it, as a full disk or a bug would fail): it
    // carries the same order as the mail after it, so had its savepoint
    // not undone the order, that order would be taken twice or refused.
    {
        let store = Store::open(&dir.join("orderly.db")).unwrap();
        drop(store);
        let db = rusqlite::Connection::open(dir.join("orderly.db")).unwrap();
        db.execute_batch(
            "CREATE TRIGGER poison BEFORE INSERT ON messages \
             WHEN NEW.message_id = 'poison@test' BEGIN SELECT RAISE(ABORT, 'poisoned'); END;",
        )
        .unwrap();
    }

    // The mails of a whole game, decided in advance by a model: they are
    // delivered at once and processed in delivery (file name) order.
    let key = |seat| seat_secret(SECRET.as_bytes(), 1, seat);
    let addr = |seat| format!("orderly+g1.{}@example.org", key(seat));
    let mut mails = vec![
        mail(
            0,
            "ann@example.org",
            "orderly@example.org",
            "NEW SQUARES VS bob@example.org",
        ),
        mail(1, "bob@example.org", &addr(Seat::South), "ACCEPT"),
    ];
    let mut model = Squares::new(&GameOptions::default());
    let mut rng = XorShift::from_state(0x9E37_79B9_7F4A_7C15 ^ u64::from(batch_max));
    let mut orders = Vec::new();
    let mut poison = None;
    while orders.len() < ORDERS && model.outcome().is_none() {
        let pending = model.pending().unwrap();
        let legal = model.legal_orders();
        let order = legal[rng.below(legal.len())];
        model.apply(&order).unwrap();
        let from = match pending.seat {
            Seat::North => "ann@example.org",
            Seat::South => "bob@example.org",
        };
        if orders.len() == 5 {
            poison = Some(
                format!(
                    "From: {from}\r\nTo: {}\r\nSubject: poison\r\nMessage-ID: <poison@test>\r\n\r\n{order}\r\n",
                    addr(pending.seat)
                )
                .into_bytes(),
            );
        }
        mails.push(mail(
            mails.len(),
            from,
            &addr(pending.seat),
            &order.to_string(),
        ));
        orders.push(order.to_string());
    }
    let poison_before = mails.len() - orders.len() + 5;
    let mut deliveries = Vec::new();
    for (i, (_, raw)) in mails.iter().enumerate() {
        if i == poison_before {
            deliveries.push(poison.clone().unwrap());
        }
        deliveries.push(raw.clone());
    }
    // The first half is waiting when the daemon starts; the rest comes in
    // chunks while it runs, in the middle of a life, so that kills also
    // land while one poll's replies are sent on the daemon's second
    // thread and the next poll's batch is processed (the pipeline).
    let chunk = (batch_max as usize).max(10);
    let mut later = deliveries.split_off(deliveries.len() / 2).into_iter();
    for raw in &deliveries {
        inbox.deliver(raw).unwrap();
    }
    let mut deliver_chunk = || {
        for raw in later.by_ref().take(chunk) {
            inbox.deliver(&raw).unwrap();
        }
        later.len()
    };

    let mut kills = 0;
    let started = Instant::now();
    loop {
        let mut child = Command::new(env!("CARGO_BIN_EXE_orderly"))
            .args(["--config", config_path.to_str().unwrap(), "serve"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("orderly serve starts");
        // Short lives, so that many kills land inside a batch (a batch of
        // a hundred mails takes tens of milliseconds); the longest grows
        // with the kills, so that a batch slower to process than the kills
        // are apart is still committed in the end.
        let longest = 45 + 5 * kills;
        std::thread::sleep(Duration::from_millis(5 + rng.below(longest) as u64));
        let undelivered = deliver_chunk();
        std::thread::sleep(Duration::from_millis(rng.below(longest) as u64));
        child.kill().expect("SIGKILL");
        child.wait().unwrap();
        kills += 1;
        let waiting = inbox.new_messages().unwrap().len();
        if (waiting == 0 && undelivered == 0) || kills >= 300 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(600), "no progress");
    }
    // Whatever a last kill left undelivered (only at the kills' limit).
    while deliver_chunk() > 0 {}
    // Last clean runs drain whatever the kills left queued (the poison
    // mail is set aside at its third try).
    for _ in 0..3 {
        let status = Command::new(env!("CARGO_BIN_EXE_orderly"))
            .args(["--config", config_path.to_str().unwrap(), "poll", "--once"])
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    }
    assert!(
        inbox.new_messages().unwrap().is_empty(),
        "after {kills} kills mail is left"
    );

    // Every order exactly once: the stored record is the model's game.
    let config = Config::load(Some(&config_path)).unwrap();
    let mut store = Store::open(&config.store.path).unwrap();
    let record = orderly::service::admin::export(&mut store, 1, false, "example.org").unwrap();
    let stored: Vec<String> = record
        .lines()
        .filter_map(|l| l.split_once(". ").map(|(_, rest)| rest.to_string()))
        .filter_map(|l| l.split_once(' ').map(|(_, o)| o.to_string()))
        .collect();
    let tx = store.tx().unwrap();
    let entries = tx.entries(1).unwrap();
    assert_eq!(
        entries.len(),
        orders.len(),
        "every order once ({kills} kills)"
    );
    // Each taken from its own mail: none from the poison mail that carried
    // the same order before it.
    for ((entry, order), (id, _)) in entries.iter().zip(&orders).zip(&mails[2..]) {
        assert_eq!(&entry.text, order);
        assert_eq!(entry.message_id.as_deref(), Some(id.as_str()));
    }
    assert!(!stored.is_empty());
    assert_eq!(tx.outbox_count("queued").unwrap(), 0);
    // The poison mail was set aside, and nothing of it kept.
    assert!(!tx.message_seen("poison@test").unwrap());
    drop(tx);
    let kept = std::fs::read_dir(dir.join("inbox/.Quarantine/cur"))
        .unwrap()
        .count();
    assert_eq!(kept, 1, "the poison mail is in the quarantine");
    let shown = orderly::service::admin::show(&mut store, 1, "example.org").unwrap();
    assert!(
        shown.contains(&format!("position {}", model.position())),
        "{shown}"
    );

    // Every reply written at least once, under its stable Message-ID (the
    // file name is `<date>-<id>`, the date to sort by).
    let sent: HashSet<String> = std::fs::read_dir(dir.join("sent"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|name| name.split_once('-').map(|(_, id)| id.to_string()))
        .collect();
    for (id, _) in &mails {
        let reply = message_id(&format!("{id}/reply"), "example.org");
        assert!(
            sent.contains(&file_name(&reply)),
            "no reply to {id} ({kills} kills)"
        );
    }
    eprintln!(
        "batches of {batch_max}: {} mails, {kills} kills",
        mails.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits until process `pid` has handlers for SIGINT and SIGTERM, read from
/// the kernel's `SigCgt` mask (bits 2 and 15), instead of sleeping a guess.
fn wait_until_it_catches_sigint_and_sigterm(pid: u32) {
    let wanted = (1u64 << (2 - 1)) | (1u64 << (15 - 1));
    let started = Instant::now();
    loop {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or(0);
        if caught & wanted == wanted {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "orderly never installed its signal handlers ({status})"
        );
        std::thread::yield_now();
    }
}

#[test]
fn serve_stops_cleanly_on_sigterm_and_sigint() {
    for signal in ["-TERM", "-INT"] {
        let dir = std::env::temp_dir().join(format!("orderly-stop-{}{signal}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let config_path = write_config(&dir, 100);
        let mut child = Command::new(env!("CARGO_BIN_EXE_orderly"))
            .args(["--config", config_path.to_str().unwrap(), "serve"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("orderly serve starts");
        // Signalled as early as it can be caught: while the daemon is still
        // opening its store and mailbox, it must stop as cleanly as later.
        wait_until_it_catches_sigint_and_sigterm(child.id());
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "serve did not stop on {signal}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{signal}: {status:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
