//! `cargo +nightly fuzz run service`: any bytes as a raw mail through
//! `Service::process` on a scratch store (a game in progress between Ann
//! and Bob, whose seat keys the seed corpus carries); nothing may panic,
//! every mail gets an outcome, and nothing is queued to a no-reply address.
#![no_main]

use std::cell::RefCell;

use chrono::{DateTime, TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use orderly::config::Config;
use orderly::games::Seat;
use orderly::mail::intake;
use orderly::service::identity::seat_secret;
use orderly::service::Service;

const SECRET: &str = "fuzz-secret";

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0)
        .single()
        .expect("a time")
}

fn open() -> Service {
    let dir = std::env::temp_dir().join(format!("orderly-cargo-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut config = Config::default();
    config.service.address = "orderly@example.org".into();
    config.service.secret = Some(SECRET.into());
    config.service.rate_limit_per_hour = u32::MAX;
    config.service.commands_per_hour = u32::MAX;
    config.store.path = dir.join("orderly.db");
    config.intake.maildir = dir.join("inbox");
    config.outgoing.dir = dir.join("sent");
    let mut service = Service::open(config).expect("the service opens");
    let bob = format!(
        "orderly+g1.{}@example.org",
        seat_secret(SECRET.as_bytes(), 1, Seat::South)
    );
    for (id, from, to, body) in [
        (
            "new",
            "ann@example.org",
            "orderly@example.org",
            "NEW SQUARES VS bob@example.org",
        ),
        ("accept", "bob@example.org", bob.as_str(), "ACCEPT"),
    ] {
        let raw = format!("From: {from}\r\nTo: {to}\r\nMessage-ID: <{id}@setup>\r\n\r\n{body}\r\n");
        service
            .process(raw.as_bytes(), now())
            .expect("the game starts");
    }
    service
}

thread_local! {
    static SERVICE: RefCell<Option<Service>> = const { RefCell::new(None) };
}

fuzz_target!(|raw: &[u8]| {
    SERVICE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let service = cell.get_or_insert_with(open);
        let done = service
            .process(raw, now())
            .expect("every mail is processed");
        assert!(!done.outcome.is_empty());
        // What was queued: a bounded number of mails, none to a no-reply
        // address; marked sent so that the queue stays short.
        let at = now().to_rfc3339();
        let tx = service.store().tx().expect("a transaction");
        let due = tx.due_mail("9999", 1000).expect("the outbox");
        assert!(due.len() <= 10, "{} mails queued for one", due.len());
        for row in &due {
            let mail: serde_json::Value = serde_json::from_str(&row.mail).expect("JSON");
            let to = mail["to"].as_str().unwrap_or_default();
            assert!(!intake::is_noreply(to), "a mail to {to}");
            tx.mark_sent(row.id, &at).expect("marked");
        }
        tx.commit().expect("committed");
    });
});
