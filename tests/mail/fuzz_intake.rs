//! Fuzzing the whole intake path, from the raw message to the commands:
//! `intake::parse` (and `parse_with` under tiny limits) fed arbitrary bytes
//! and realistic mails (headers of every kind, encoded words, MIME,
//! quoted-printable, base64, HTML, flowed text, quotes and signatures,
//! orders and commands) mutated byte by byte and chunk by chunk with the
//! material of hostile mail (`=?`, `?=`, boundaries, NUL, escapes, long
//! runs); then the same mails through `Service::process` on a scratch
//! store with a game in progress.
//!
//! Nothing may panic, and what comes out is bounded: the lines and their
//! length, the subject, names, addresses and IDs (printable, short, few);
//! the service answers every mail with an outcome, queues a bounded number
//! of mails, and never to a no-reply, bounce or own address.
//!
//! `ORDERLY_FUZZ_CASES=n` runs each property with `n` cases instead of
//! 1,000 (the service's with a tenth of them: each is a transaction).

use std::cell::RefCell;

use chrono::{TimeZone, Utc};
use orderly::config::Config;
use orderly::games::Seat;
use orderly::mail::intake::{self, Incoming, Limits};
use orderly::service::identity::{self, seat_secret};
use orderly::service::Service;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config as RunnerConfig, TestCaseError, TestRunner};

const SECRET: &str = "fuzz-secret";

fn cases(divide: u32) -> u32 {
    let n = std::env::var("ORDERLY_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(1000);
    (n / divide).max(1)
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(RunnerConfig {
        cases,
        failure_persistence: None,
        ..RunnerConfig::default()
    })
}

// ----- realistic mails ---------------------------------------------------------------

fn seat_address(seat: Seat) -> String {
    format!(
        "orderly+g1.{}@example.org",
        seat_secret(SECRET.as_bytes(), 1, seat)
    )
}

fn from_header() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("From: ann@example.org".to_string()),
        Just("From: Ann Lee <ann@example.org>".to_string()),
        Just("From: \"Lee, Ann\" <ANN@Example.ORG>".to_string()),
        Just("From: =?utf-8?q?Ann_L=C3=A9e?= <ann@example.org>".to_string()),
        Just("From: =?utf-8?b?Qm9i?= <bob@example.org>".to_string()),
        Just("From: bob@example.org (Bob)".to_string()),
        Just("From: mallory@evil.example".to_string()),
        Just("From: ann@example.org, mallory@evil.example".to_string()),
        Just("From: ann@example.org\r\nFrom: mallory@evil.example".to_string()),
        Just("From: team: ann@example.org, bob@example.org;".to_string()),
        Just("From: noreply@shop.example".to_string()),
        Just("From: MAILER-DAEMON@mx.example".to_string()),
        Just("From: orderly@example.org".to_string()),
        Just("From: Ann Lee".to_string()),
        "[a-z]{1,8}@[a-z]{1,8}\\.example".prop_map(|a| format!("From: {a}")),
    ]
}

fn to_header() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("To: orderly@example.org".to_string()),
        Just(format!("To: {}", seat_address(Seat::North))),
        Just(format!("To: {}", seat_address(Seat::South))),
        Just(format!("To: Orderly <{}>", seat_address(Seat::North))),
        Just("To: orderly+g1.aaaaaaaa@example.org".to_string()),
        Just("To: bounces+1.abc@example.org".to_string()),
        Just("To: players: ann@example.org, bob@example.org;".to_string()),
        Just(format!(
            "To: a@x.example, {}, b@y.example",
            seat_address(Seat::North)
        )),
    ]
}

fn other_header() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Subject: Re: Game 1".to_string()),
        Just("Subject: =?utf-8?q?Re:_Partie_1_=E2=80=94_=C3=A0_vous?=".to_string()),
        Just("Subject: =?iso-8859-1?q?gr=FC=DFe?= =?utf-8?b?w6k=?=".to_string()),
        "[ -~]{0,80}".prop_map(|s| format!("Subject: {s}")),
        "[a-z0-9]{1,12}".prop_map(|s| format!("Message-ID: <{s}@fuzz.example>")),
        Just("In-Reply-To: <abc@example.org>".to_string()),
        Just("References: <a@x> <b@y>\r\n <c@z>".to_string()),
        Just("Date: Sat, 21 Nov 2026 10:15:02 +0100".to_string()),
        Just("Date: 21 Nov 2026 10:15 -0500".to_string()),
        Just("Date: nonsense".to_string()),
        Just("Return-Path: <>".to_string()),
        Just("Auto-Submitted: auto-replied".to_string()),
        Just("Precedence: bulk".to_string()),
        Just("X-Autoreply: yes".to_string()),
        Just("Delivered-To: orderly+g1.x@example.org".to_string()),
        Just("Authentication-Results: mx.example.org; dkim=pass header.d=example.org".to_string()),
        Just("Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes".to_string()),
        Just("Content-Type: text/plain; charset=bogus".to_string()),
        Just("Content-Type: text/html".to_string()),
        Just("Content-Transfer-Encoding: quoted-printable".to_string()),
        Just("Content-Transfer-Encoding: base64".to_string()),
    ]
}

fn body_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("MOVE B1C B2C".to_string()),
        Just("mvoe cav B3C".to_string()),
        Just("ATTACK B2C WITH G1C G1L".to_string()),
        Just("PASS".to_string()),
        Just("OK then: MOVE INF B1C TO B2C, thanks!".to_string()),
        Just("IF STAND OPTION 2".to_string()),
        Just("HELP".to_string()),
        Just("HELP MOVES B1C".to_string()),
        Just("BOARD".to_string()),
        Just("GAMES".to_string()),
        Just("RESIGN".to_string()),
        Just("OFFER DRAW".to_string()),
        Just("VACATION 5 DAYS".to_string()),
        Just("VACATION 96000000 DAYS".to_string()),
        Just("SET TIMEZONE Europe/Paris".to_string()),
        Just("SAY good game".to_string()),
        Just("NEW SQUARES VS carol@example.net".to_string()),
        Just("GAME 1 abcdefgh".to_string()),
        Just("Hi Bob,".to_string()),
        Just("> Blue to move".to_string()),
        Just("On Sat, 21 Nov 2026, orderly <orderly@example.org> wrote:".to_string()),
        Just("-- ".to_string()),
        Just("-----Original Message-----".to_string()),
        Just("END".to_string()),
        Just("<div>MOVE&nbsp;B1C B2C</div><blockquote>x</blockquote>".to_string()),
        Just(String::new()),
        "[ -~]{0,60}",
        any::<String>().prop_map(|s| s.chars().take(40).collect()),
    ]
}

/// How the body is wrapped.
#[derive(Clone, Copy, Debug)]
enum Wrapping {
    Plain,
    QuotedPrintable,
    Base64,
    Alternative,
    Nested,
}

fn wrapping() -> impl Strategy<Value = Wrapping> {
    prop_oneof![
        Just(Wrapping::Plain),
        Just(Wrapping::QuotedPrintable),
        Just(Wrapping::Base64),
        Just(Wrapping::Alternative),
        Just(Wrapping::Nested),
    ]
}

fn qp(text: &str) -> String {
    let mut out = String::new();
    let mut column = 0;
    for b in text.bytes() {
        let piece = match b {
            b'\n' => {
                out.push_str("\r\n");
                column = 0;
                continue;
            }
            b'=' | 0x80.. | 0..=0x1f => format!("={b:02X}"),
            b => (b as char).to_string(),
        };
        if column + piece.len() > 75 {
            out.push_str("=\r\n");
            column = 0;
        }
        column += piece.len();
        out.push_str(&piece);
    }
    out
}

fn base64(data: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, chunk) in data.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push_str("\r\n");
        }
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(TABLE[((v >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn assemble(headers: &[String], lines: &[String], wrapping: Wrapping) -> Vec<u8> {
    let mut head = headers.join("\r\n");
    let text = lines.join("\n");
    let body = match wrapping {
        Wrapping::Plain => text.replace('\n', "\r\n"),
        Wrapping::QuotedPrintable => {
            head.push_str("\r\nContent-Transfer-Encoding: quoted-printable");
            qp(&text)
        }
        Wrapping::Base64 => {
            head.push_str(
                "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64",
            );
            base64(text.as_bytes())
        }
        Wrapping::Alternative => {
            head.push_str(
                "\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"alt\"",
            );
            format!(
                "--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\
                 Content-Transfer-Encoding: quoted-printable\r\n\r\n{}\r\n\
                 --alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>{}</p>\r\n--alt--\r\n",
                qp(&text),
                text.replace('\n', "<br>")
            )
        }
        Wrapping::Nested => {
            head.push_str("\r\nContent-Type: multipart/mixed; boundary=\"out\"");
            format!(
                "--out\r\nContent-Type: multipart/alternative; boundary=\"in\"\r\n\r\n\
                 --in\r\nContent-Type: text/plain\r\n\r\n{}\r\n--in--\r\n\
                 --out\r\nContent-Type: application/octet-stream\r\n\
                 Content-Disposition: attachment; filename=\"x.bin\"\r\n\r\nAAAA\r\n--out--\r\n",
                text.replace('\n', "\r\n")
            )
        }
    };
    format!("{head}\r\n\r\n{body}").into_bytes()
}

fn realistic_mail() -> impl Strategy<Value = Vec<u8>> {
    (
        from_header(),
        to_header(),
        prop::collection::vec(other_header(), 0..6),
        prop::collection::vec(body_line(), 0..12),
        wrapping(),
    )
        .prop_map(|(from, to, others, lines, wrapping)| {
            let mut headers = vec![from, to];
            headers.extend(others);
            assemble(&headers, &lines, wrapping)
        })
}

/// Material of hostile mail, inserted by the mutations.
const HOSTILE: &[&[u8]] = &[
    b"=?",
    b"?=",
    b"=?utf-8?q?",
    b"=?utf-8?b?",
    b"\r\n",
    b"\n",
    b"\r\n\r\n",
    b"\r\n ",
    b"--",
    b"--alt",
    b"--out\r\n",
    b"boundary=",
    b"Content-Type: multipart/mixed; boundary=z\r\n\r\n--z\r\n",
    b"From: x@y.example\r\n",
    b"\0",
    b"\x1b[2J",
    b"\x1b]0;t\x07",
    b"\xff\xfe",
    b"\xc3",
    b"\xe2\x80\xae",
    b"<blockquote>",
    b"&#x",
    b"&amp;",
    b"> ",
    b"-- \r\n",
    b"=\r\n",
    b"=3D",
    b"MOVE ",
    b"RESIGN\r\n",
    b"NEW SQUARES VS ",
    b"@",
    b"<",
    b">",
    b",",
    b"\"",
    b"(",
];

#[derive(Clone, Debug)]
enum Mutation {
    Flip(Index, u8),
    Insert(Index, usize, usize),
    Delete(Index, usize),
    Duplicate(Index, usize, usize),
    Truncate(Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<Index>(), 0..HOSTILE.len(), 1usize..200)
            .prop_map(|(i, t, n)| Mutation::Insert(i, t, n)),
        (any::<Index>(), 1usize..64).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<Index>(), 1usize..64, 1usize..40).prop_map(|(i, n, k)| Mutation::Duplicate(i, n, k)),
        any::<Index>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(mut raw: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = raw.len().max(1);
        match m {
            Mutation::Flip(i, b) => {
                if !raw.is_empty() {
                    let at = i.index(len);
                    raw[at] = *b;
                }
            }
            Mutation::Insert(i, token, times) => {
                let at = i.index(len + 1).min(raw.len());
                let chunk = HOSTILE[*token].repeat(*times);
                raw.splice(at..at, chunk);
            }
            Mutation::Delete(i, n) => {
                let at = i.index(len).min(raw.len());
                let end = (at + n).min(raw.len());
                raw.drain(at..end);
            }
            Mutation::Duplicate(i, n, k) => {
                let at = i.index(len).min(raw.len());
                let end = (at + n).min(raw.len());
                let piece = raw[at..end].repeat(*k);
                raw.splice(end..end, piece);
            }
            Mutation::Truncate(i) => {
                let at = i.index(len + 1).min(raw.len());
                raw.truncate(at);
            }
        }
    }
    raw
}

fn mutated_mail() -> impl Strategy<Value = Vec<u8>> {
    (realistic_mail(), prop::collection::vec(mutation(), 0..6))
        .prop_map(|(raw, ms)| mutate(raw, &ms))
}

fn any_mail() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        2 => mutated_mail(),
        1 => realistic_mail(),
        1 => prop::collection::vec(any::<u8>(), 0..2048),
    ]
}

// ----- what comes out ------------------------------------------------------------------

fn printable(text: &str) -> bool {
    !text.chars().any(|c| c.is_control())
}

fn check_address(what: &str, address: &str) -> Result<(), TestCaseError> {
    prop_assert!(address.contains('@'), "{what} {address:?}");
    prop_assert!(address.len() <= intake::MAX_ID_CHARS, "{what} {address:?}");
    prop_assert!(
        !address.chars().any(|c| c.is_whitespace() || c.is_control()),
        "{what} {address:?}"
    );
    Ok(())
}

/// Everything an [`Incoming`] holds is within `limits`.
fn check_incoming(m: &Incoming, limits: &Limits) -> Result<(), TestCaseError> {
    let lines: Vec<&str> = m.text.lines().collect();
    prop_assert!(
        lines.iter().filter(|l| !l.trim().is_empty()).count() <= limits.max_lines,
        "{} lines",
        lines.len()
    );
    for line in &lines {
        prop_assert!(line.chars().count() <= limits.max_line_chars, "{line:?}");
    }
    prop_assert!(m.subject.chars().count() <= intake::MAX_SUBJECT_CHARS);
    prop_assert!(printable(&m.subject), "{:?}", m.subject);
    prop_assert!(m.from.is_none() || m.sender_problem.is_none());
    if let Some(from) = &m.from {
        check_address("from", &from.address)?;
        if let Some(name) = &from.name {
            prop_assert!(name.chars().count() <= intake::MAX_NAME_CHARS);
            prop_assert!(printable(name), "{name:?}");
        }
    }
    for (what, list) in [
        ("to", &m.to),
        ("cc", &m.cc),
        ("delivered-to", &m.delivered_to),
    ] {
        prop_assert!(
            list.len() <= intake::MAX_RECIPIENTS,
            "{} {what}",
            list.len()
        );
        for a in list {
            check_address(what, a)?;
        }
    }
    prop_assert!(m.references.len() <= intake::MAX_REFERENCES);
    prop_assert!(m.in_reply_to.len() <= intake::MAX_REFERENCES);
    for id in m
        .message_id
        .iter()
        .chain(&m.references)
        .chain(&m.in_reply_to)
    {
        prop_assert!(!id.is_empty() && id.len() <= intake::MAX_ID_CHARS, "{id:?}");
        prop_assert!(
            !id.chars().any(|c| c.is_control() || c.is_whitespace()),
            "{id:?}"
        );
    }
    Ok(())
}

fn check_parse(raw: &[u8]) -> Result<(), TestCaseError> {
    let tiny = Limits {
        max_mail_bytes: 4096,
        max_header_bytes: 1024,
        max_encoded_words: 2,
        max_lines: 3,
        max_line_chars: 80,
    };
    for limits in [Limits::default(), tiny] {
        if let Ok(m) = intake::parse_with(raw, &limits) {
            check_incoming(&m, &limits)?;
            // Decoding never makes the text grossly larger than the mail.
            prop_assert!(m.full_text.len() <= 4 * raw.len() + 16);
        }
        if let Ok(m) = intake::parse_head(raw, raw.len() * 10, &limits) {
            check_incoming(&m, &limits)?;
            prop_assert!(m.text.is_empty());
        }
    }
    Ok(())
}

#[test]
fn arbitrary_bytes_are_read_within_bounds() {
    runner(cases(1))
        .run(&prop::collection::vec(any::<u8>(), 0..4096), |raw| {
            check_parse(&raw)
        })
        .unwrap();
}

#[test]
fn mutated_mails_are_read_within_bounds() {
    runner(cases(1))
        .run(&any_mail(), |raw| check_parse(&raw))
        .unwrap();
}

// ----- through the service -------------------------------------------------------------

struct Scratch {
    dir: std::path::PathBuf,
    config: Config,
    service: Service,
    db: rusqlite::Connection,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn scratch() -> Scratch {
    let dir = std::env::temp_dir().join(format!("orderly-fuzz-intake-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::default();
    config.service.address = "orderly@example.org".into();
    config.service.secret = Some(SECRET.into());
    config.service.rate_limit_per_hour = u32::MAX;
    config.service.commands_per_hour = u32::MAX;
    config.store.path = dir.join("orderly.db");
    config.intake.maildir = dir.join("inbox");
    config.outgoing.dir = dir.join("sent");
    let mut service = Service::open(config.clone()).unwrap();
    let now = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let mail = |id: &str, from: &str, to: &str, body: &str| {
        format!("From: {from}\r\nTo: {to}\r\nMessage-ID: <{id}@setup>\r\n\r\n{body}\r\n")
            .into_bytes()
    };
    service
        .process(
            &mail(
                "new",
                "ann@example.org",
                "orderly@example.org",
                "NEW SQUARES VS bob@example.org",
            ),
            now,
        )
        .unwrap();
    service
        .process(
            &mail(
                "accept",
                "bob@example.org",
                &seat_address(Seat::South),
                "ACCEPT",
            ),
            now,
        )
        .unwrap();
    let db = rusqlite::Connection::open(dir.join("orderly.db")).unwrap();
    Scratch {
        dir,
        config,
        service,
        db,
    }
}

#[test]
fn the_service_answers_any_mail_within_bounds() {
    let scratch = RefCell::new(scratch());
    let now = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let queued = |s: &Scratch| -> i64 {
        s.db.query_row("SELECT COUNT(*) FROM outbox", [], |r| r.get(0))
            .unwrap()
    };
    runner(cases(10))
        .run(&any_mail(), |raw| {
            let mut s = scratch.borrow_mut();
            let before = queued(&s);
            let done = s.service.process(&raw, now);
            let done = match done {
                Ok(done) => done,
                Err(e) => return Err(TestCaseError::fail(format!("not processed: {e}"))),
            };
            prop_assert!(!done.outcome.is_empty());
            prop_assert!(done.outcome.len() <= 1000, "{}", done.outcome.len());
            let after = queued(&s);
            prop_assert!(after - before <= 10, "{} mails queued", after - before);
            let mut stmt =
                s.db.prepare("SELECT recipient FROM outbox WHERE id > ?1")
                    .unwrap();
            let recipients: Vec<String> = stmt
                .query_map([before], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            for to in recipients {
                prop_assert!(!intake::is_noreply(&to), "a mail to {to}");
                prop_assert!(!identity::is_own_address(&s.config, &to), "a mail to {to}");
            }
            Ok(())
        })
        .unwrap();
}
