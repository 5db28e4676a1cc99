//! The IMAP mailbox against a real Dovecot (scripts/mailstack): mail sent
//! over SMTP is listed with its bytes, marked done with \Seen or moved, waits
//! in IDLE, survives a Dovecot restart, and speaks plain text, STARTTLS and
//! implicit TLS with the stack's CA. Skipped (loudly) without the servers.

#[path = "../common/mod.rs"]
mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use common::mailstack::MailStack;
use orderly::mail::imap::{check, parse_key, ImapConfig, ImapMailbox, Security};
use orderly::mail::{Mailbox, ReadLimit, Waiting};

fn config(stack: &MailStack, user: &str, security: Security) -> ImapConfig {
    let port = match security {
        Security::Tls => stack.imaps_port,
        Security::Plain | Security::Starttls => stack.imap_port,
    };
    ImapConfig {
        host: "127.0.0.1".into(),
        port: Some(port),
        security,
        username: user.into(),
        password: Some(MailStack::password(user)),
        password_file: None,
        folder: "INBOX".into(),
        processed_folder: None,
        quarantine_folder: "Quarantine".into(),
        ca_file: Some(stack.ca_file.clone()),
        idle: true,
        reconnect_max_secs: 4,
    }
}

/// A message with a unique subject and Message-ID.
fn message(stack: &MailStack, to: &str, subject: &str) -> Vec<u8> {
    format!(
        "From: Ann <{from}>\r\nTo: {to}\r\nSubject: {subject}\r\n\
         Message-ID: <{subject}.{pid}@{domain}>\r\n\r\nMOVE 3 TO B2\r\n-- {subject}\r\n",
        from = stack.address("ann"),
        pid = std::process::id(),
        domain = stack.domain,
    )
    .into_bytes()
}

fn send(stack: &MailStack, to_user: &str, subject: &str) {
    let to = stack.address(to_user);
    stack.send(&stack.address("ann"), &to, &message(stack, &to, subject));
}

fn subject_of(waiting: &Waiting) -> String {
    let text = String::from_utf8_lossy(&waiting.raw);
    text.lines()
        .find_map(|l| l.strip_prefix("Subject: "))
        .unwrap_or("")
        .trim()
        .to_string()
}

fn subjects(list: &[Waiting]) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(subject_of).collect();
    out.sort();
    out
}

/// Lists until `count` messages are waiting (delivery is asynchronous).
fn listed(inbox: &mut ImapMailbox, count: usize) -> Vec<Waiting> {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let list = inbox.waiting().expect("waiting");
        if list.len() >= count || Instant::now() > deadline {
            assert_eq!(list.len(), count, "listed: {:?}", subjects(&list));
            return list;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn lists_with_bytes_and_marks_seen() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut inbox =
        ImapMailbox::connect(config(&stack, "orderly", Security::Plain)).expect("connect");
    assert!(inbox.waiting().expect("waiting").is_empty());
    for subject in ["seen-a", "seen-b", "seen-c"] {
        send(&stack, "orderly", subject);
    }
    let first = listed(&mut inbox, 3);
    assert_eq!(subjects(&first), ["seen-a", "seen-b", "seen-c"]);
    for waiting in &first {
        let text = String::from_utf8_lossy(&waiting.raw);
        assert!(text.contains("\r\nMOVE 3 TO B2\r\n"), "{text}");
        assert!(text.contains("Message-ID: <seen-"), "{text}");
        assert!(parse_key(&waiting.key).is_some(), "{}", waiting.key);
    }
    // Oldest first: increasing UIDs.
    let uids: Vec<u32> = first.iter().map(|w| parse_key(&w.key).unwrap().1).collect();
    assert!(uids.windows(2).all(|w| w[0] < w[1]), "{uids:?}");

    // Fetching did not mark anything: listed again, here and on a new session.
    let again = inbox.waiting().expect("waiting");
    assert_eq!(again, first);
    let mut other =
        ImapMailbox::connect(config(&stack, "orderly", Security::Plain)).expect("connect");
    assert_eq!(other.waiting().expect("waiting"), first);

    inbox.mark_done(&first[1].key).expect("mark_done");
    let rest = inbox.waiting().expect("waiting");
    assert_eq!(subjects(&rest), ["seen-a", "seen-c"]);
    // Twice, and a message that does not exist: both fine.
    inbox.mark_done(&first[1].key).expect("mark_done again");
    let (validity, _) = parse_key(&first[0].key).unwrap();
    inbox
        .mark_done(&format!("v{validity}:999999"))
        .expect("mark_done of a missing UID");
    // A key from another UIDVALIDITY marks nothing.
    inbox
        .mark_done(&format!("v{}:{}", validity.wrapping_add(1), uids[0]))
        .expect("mark_done with a stale UIDVALIDITY");
    assert_eq!(
        subjects(&inbox.waiting().expect("waiting")),
        ["seen-a", "seen-c"]
    );
    assert!(inbox.mark_done("not-a-key").is_err());

    for waiting in &rest {
        inbox.mark_done(&waiting.key).expect("mark_done");
    }
    assert!(inbox.waiting().expect("waiting").is_empty());
    assert!(other.waiting().expect("waiting").is_empty());
    // \Seen leaves the messages where they were.
    assert_eq!(stack.fetch_all("orderly").len(), 3);
}

#[test]
fn a_mail_larger_than_the_limit_is_fetched_only_as_far_as_its_head() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut inbox =
        ImapMailbox::connect(config(&stack, "orderly", Security::Plain)).expect("connect");
    send(&stack, "orderly", "small-one");
    let to = stack.address("orderly");
    let mut big = message(&stack, &to, "large-one");
    big.extend(b"PASS and more words to fill the line up\r\n".repeat(5_000));
    stack.send(&stack.address("ann"), &to, &big);
    let limit = ReadLimit {
        max_bytes: 100_000,
        head_bytes: 1_000,
        listing_bytes: 10_000_000,
    };
    let deadline = Instant::now() + Duration::from_secs(15);
    let list = loop {
        let list = inbox.waiting_within(limit).expect("waiting");
        if list.len() >= 2 || Instant::now() > deadline {
            break list;
        }
        thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(subjects(&list), ["large-one", "small-one"]);
    let large = list.iter().find(|w| subject_of(w) == "large-one").unwrap();
    let small = list.iter().find(|w| subject_of(w) == "small-one").unwrap();
    // The size from RFC822.SIZE, the bytes only the head's.
    assert!(large.size > 200_000, "{}", large.size);
    assert_eq!(large.raw.len(), 1_000);
    assert!(large.is_head_only());
    assert!(String::from_utf8_lossy(&large.raw).contains("Message-ID: <large-one."));
    assert!(!small.is_head_only());
    assert_eq!(small.size, small.raw.len());
    assert!(String::from_utf8_lossy(&small.raw).contains("\r\nMOVE 3 TO B2\r\n"));
    // Within a budget of one message, the other waits for the next listing.
    let one = inbox
        .waiting_within(ReadLimit {
            listing_bytes: 1,
            ..limit
        })
        .expect("waiting");
    assert_eq!(one.len(), 1);
}

#[test]
fn a_poison_mail_is_moved_to_the_quarantine_folder() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut inbox =
        ImapMailbox::connect(config(&stack, "orderly", Security::Plain)).expect("connect");
    for subject in ["poison-a", "poison-b"] {
        send(&stack, "orderly", subject);
    }
    let first = listed(&mut inbox, 2);
    let poison = first.iter().find(|w| subject_of(w) == "poison-a").unwrap();
    inbox.quarantine(&poison.key).expect("quarantine");
    assert_eq!(subjects(&inbox.waiting().expect("waiting")), ["poison-b"]);
    // It is kept, whole, in the quarantine folder (created on demand).
    let mut kept = ImapMailbox::connect(ImapConfig {
        folder: "Quarantine".into(),
        ..config(&stack, "orderly", Security::Plain)
    })
    .expect("connect to the quarantine");
    let there = kept.waiting().expect("waiting");
    assert_eq!(subjects(&there), ["poison-a"]);
    assert_eq!(there[0].raw, poison.raw);
}

/// A batch is marked in one call, each key with its own answer: the keys
/// of this folder together, a missing UID and a stale UIDVALIDITY as done,
/// a key that is not one as an error; with a processed folder, a message
/// already moved as done too.
#[test]
fn a_batch_is_marked_done_in_one_call_with_an_answer_per_key() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut inbox =
        ImapMailbox::connect(config(&stack, "carol", Security::Plain)).expect("connect");
    for subject in ["batch-a", "batch-b", "batch-c", "batch-d"] {
        send(&stack, "carol", subject);
    }
    let list = listed(&mut inbox, 4);
    let (validity, _) = parse_key(&list[0].key).unwrap();
    let missing = format!("v{validity}:999999");
    let stale = format!("v{}:1", validity.wrapping_add(1));
    let keys = [
        list[0].key.as_str(),
        list[1].key.as_str(),
        &missing,
        &stale,
        "not-a-key",
        list[3].key.as_str(),
    ];
    let answers = inbox.mark_all_done(&keys);
    let ok: Vec<bool> = answers.iter().map(|a| a.is_ok()).collect();
    assert_eq!(ok, [true, true, true, true, false, true], "{answers:?}");
    assert_eq!(subjects(&inbox.waiting().expect("waiting")), ["batch-c"]);

    // With a processed folder every message of the folder is listed, seen
    // or not: another user's folder.
    let mut cfg = config(&stack, "eve", Security::Plain);
    cfg.processed_folder = Some("Done".into());
    let mut moving = ImapMailbox::connect(cfg).expect("connect");
    send(&stack, "eve", "batch-e");
    send(&stack, "eve", "batch-f");
    let list = listed(&mut moving, 2);
    moving.mark_done(&list[1].key).expect("move one alone");
    let keys: Vec<&str> = list.iter().map(|w| w.key.as_str()).collect();
    let answers = moving.mark_all_done(&keys);
    assert!(answers.iter().all(|a| a.is_ok()), "{answers:?}");
    assert!(moving.waiting().expect("waiting").is_empty());
    let mut done_cfg = config(&stack, "eve", Security::Plain);
    done_cfg.folder = "Done".into();
    let mut done = ImapMailbox::connect(done_cfg).expect("connect");
    assert_eq!(
        subjects(&done.waiting().expect("waiting")),
        ["batch-e", "batch-f"]
    );
}

#[test]
fn processed_folder_over_implicit_tls() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut cfg = config(&stack, "orderly", Security::Tls);
    cfg.processed_folder = Some("Processed".into());
    // Created when missing.
    let mut inbox = ImapMailbox::connect(cfg.clone()).expect("connect over TLS");
    send(&stack, "orderly", "move-a");
    send(&stack, "orderly", "move-b");
    let list = listed(&mut inbox, 2);
    inbox.mark_done(&list[0].key).expect("move");
    inbox
        .mark_done(&list[0].key)
        .expect("move of a message already moved");
    let rest = inbox.waiting().expect("waiting");
    assert_eq!(rest, list[1..]);
    let inbox_now = stack.fetch_all("orderly");
    assert_eq!(inbox_now.len(), 1);

    // The moved message is in the processed folder, bytes and all (and
    // unseen: MOVE keeps the flags).
    let mut seen_cfg = config(&stack, "orderly", Security::Tls);
    seen_cfg.folder = "Processed".into();
    let mut processed = ImapMailbox::connect(seen_cfg).expect("connect");
    let moved = processed.waiting().expect("waiting");
    assert_eq!(subjects(&moved), [subject_of(&list[0])]);
    assert_eq!(moved[0].raw, list[0].raw);
    processed.mark_done(&moved[0].key).expect("mark seen");
    assert!(processed.waiting().expect("waiting").is_empty());

    inbox.mark_done(&rest[0].key).expect("move");
    assert!(inbox.waiting().expect("waiting").is_empty());
    assert!(stack.fetch_all("orderly").is_empty());
}

#[test]
fn idle_wakes_on_delivery_and_stops_promptly() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut inbox =
        ImapMailbox::connect(config(&stack, "orderly", Security::Starttls)).expect("STARTTLS");
    assert!(inbox.waiting().expect("waiting").is_empty());
    let stop = AtomicBool::new(false);

    // Nothing arrives: the timeout.
    let started = Instant::now();
    inbox.wait(Duration::from_millis(800), &stop).expect("wait");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(750) && waited < Duration::from_secs(3),
        "{waited:?}"
    );

    // Delivery while idling wakes the wait.
    let mut latencies = Vec::new();
    for round in 0..3 {
        let subject = format!("idle-{round}");
        let sent_at = thread::scope(|scope| {
            let sender = scope.spawn(|| {
                thread::sleep(Duration::from_millis(500));
                send(&stack, "orderly", &subject);
                Instant::now()
            });
            inbox.wait(Duration::from_secs(30), &stop).expect("wait");
            let woke_at = Instant::now();
            let sent_at = sender.join().expect("sender");
            assert!(woke_at >= sent_at, "woke before the mail was sent");
            woke_at - sent_at
        });
        eprintln!("IMAP IDLE wake latency (SMTP accepted -> wait returned): {sent_at:?}");
        latencies.push(sent_at);
        let list = inbox.waiting().expect("waiting");
        assert_eq!(subjects(&list), [subject.as_str()]);
        inbox.mark_done(&list[0].key).expect("mark_done");
    }
    let worst = latencies.iter().max().copied().unwrap_or_default();
    assert!(worst < Duration::from_millis(2500), "{latencies:?}");

    // Mail that arrived between the listing and the wait: no IDLE needed
    // to notice it (the server reports it when the IDLE starts).
    send(&stack, "orderly", "between");
    thread::sleep(Duration::from_millis(1500));
    let started = Instant::now();
    inbox.wait(Duration::from_secs(30), &stop).expect("wait");
    let waited = started.elapsed();
    eprintln!("IMAP wait with mail already delivered returned in {waited:?}");
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    assert_eq!(subjects(&inbox.waiting().expect("waiting")), ["between"]);

    // Stop during IDLE.
    let stop = Arc::new(AtomicBool::new(false));
    let (waited, since_stop) = thread::scope(|scope| {
        let setter = {
            let stop = stop.clone();
            scope.spawn(move || {
                thread::sleep(Duration::from_millis(400));
                stop.store(true, Ordering::SeqCst);
                Instant::now()
            })
        };
        let started = Instant::now();
        inbox.wait(Duration::from_secs(60), &stop).expect("wait");
        let ended = Instant::now();
        let stopped_at = setter.join().expect("setter");
        (ended - started, ended.saturating_duration_since(stopped_at))
    });
    eprintln!("IMAP wait returned {since_stop:?} after stop was set");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    assert!(since_stop < Duration::from_millis(500), "{since_stop:?}");
    // Set before the call: at once.
    let started = Instant::now();
    inbox.wait(Duration::from_secs(60), &stop).expect("wait");
    assert!(started.elapsed() < Duration::from_millis(100));

    // The session still works after all that.
    assert_eq!(inbox.waiting().expect("waiting").len(), 1);
}

/// Ends `user`'s IMAP sessions from the server side (`* BYE`), as a
/// restart that disconnects clients does. (The stack's `stop-dovecot` and
/// `restart-dovecot` leave running IMAP sessions connected.)
fn kick(stack: &MailStack, user: &str) {
    let config = stack.dir.join("dovecot.conf");
    let output = std::process::Command::new("doveadm")
        .arg("-c")
        .arg(&config)
        .args(["kick", user])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("doveadm");
    assert!(output.status.success(), "doveadm kick: {output:?}");
}

/// Lists (waiting between attempts as the service does) until something
/// is listed.
fn relisted(inbox: &mut ImapMailbox, stop: &AtomicBool) -> (Vec<Waiting>, usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut errors = 0;
    loop {
        match inbox.waiting() {
            Ok(list) if !list.is_empty() => return (list, errors),
            Ok(_) if Instant::now() < deadline => {}
            Err(e) if Instant::now() < deadline => {
                eprintln!("reconnecting: {e}");
                errors += 1;
            }
            other => panic!("no reconnection: {other:?}"),
        }
        inbox.wait(Duration::from_millis(500), stop).expect("wait");
    }
}

#[test]
fn survives_dovecot_restarts() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut inbox =
        ImapMailbox::connect(config(&stack, "orderly", Security::Plain)).expect("connect");
    send(&stack, "orderly", "restart-a");
    let before = listed(&mut inbox, 1);
    let stop = AtomicBool::new(false);

    // Restarted, its sessions ended: the next listing reconnects at once
    // and lists the unmarked message again.
    kick(&stack, "orderly");
    stack.restart_dovecot();
    assert_eq!(inbox.waiting().expect("waiting after a restart"), before);
    assert!(inbox.is_connected());

    // Disconnected while idling: the wait ends, the next listing reconnects.
    thread::scope(|scope| {
        scope.spawn(|| {
            thread::sleep(Duration::from_millis(500));
            kick(&stack, "orderly");
        });
        let started = Instant::now();
        inbox.wait(Duration::from_secs(30), &stop).expect("wait");
        let waited = started.elapsed();
        assert!(waited < Duration::from_secs(3), "{waited:?}");
    });
    assert_eq!(relisted(&mut inbox, &stop), (before.clone(), 0));

    // Down: a failed attempt is an error, then nothing is tried until the
    // backoff is over (the listing is empty, the wait sleeps until then).
    kick(&stack, "orderly");
    stack.stop_dovecot();
    let error = inbox.waiting().expect_err("Dovecot is down");
    eprintln!("while Dovecot is down: {error}");
    assert!(inbox.waiting().expect("in backoff").is_empty());
    let started = Instant::now();
    inbox.wait(Duration::from_secs(30), &stop).expect("wait");
    let slept = started.elapsed();
    assert!(slept < Duration::from_secs(3), "{slept:?}");
    // The next attempt fails too (and the one after waits 2 s).
    assert!(inbox.mark_done(&before[0].key).is_err());
    assert!(inbox.waiting().expect("in backoff").is_empty());
    stack.start_dovecot();
    let (after, errors) = relisted(&mut inbox, &stop);
    assert_eq!(after, before);
    eprintln!("reconnected after {errors} more failed attempts");
    inbox.mark_done(&after[0].key).expect("mark_done");
    assert!(inbox.waiting().expect("waiting").is_empty());
}

#[test]
fn tls_and_check() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    for security in [Security::Tls, Security::Starttls, Security::Plain] {
        let steps = check(&config(&stack, "orderly", security));
        for (name, outcome) in &steps {
            eprintln!("check {security:?}: {name}: {outcome:?}");
        }
        let names: Vec<&str> = steps.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.last(), Some(&"idle"), "{steps:?}");
        assert!(steps.iter().all(|(_, o)| o.is_ok()), "{steps:?}");
        assert!(names.contains(&"login") && names.contains(&"folder"));
    }

    let mut wrong = config(&stack, "orderly", Security::Tls);
    wrong.password = Some("wrong".into());
    let steps = check(&wrong);
    let (name, outcome) = steps.last().expect("steps");
    assert_eq!(name, "login");
    assert!(outcome.is_err(), "{steps:?}");
    assert!(ImapMailbox::connect(wrong).is_err());

    // Without the stack's CA the certificate is not trusted.
    let mut untrusted = config(&stack, "orderly", Security::Tls);
    untrusted.ca_file = None;
    let steps = check(&untrusted);
    let (name, outcome) = steps.last().expect("steps");
    assert_eq!(name, "tls");
    let error = outcome.as_ref().expect_err("untrusted certificate");
    assert!(error.contains("certificate"), "{error}");
    let error = ImapMailbox::connect(untrusted).expect_err("untrusted certificate");
    eprintln!("without the CA: {error}");

    // The folder must exist.
    let mut missing = config(&stack, "orderly", Security::Tls);
    missing.folder = "NoSuchFolder".into();
    let steps = check(&missing);
    assert_eq!(steps.last().map(|(n, _)| n.as_str()), Some("folder"));
    assert!(steps.last().is_some_and(|(_, o)| o.is_err()));
}
