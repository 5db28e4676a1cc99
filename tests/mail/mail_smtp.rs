//! The SMTP sender against a real Postfix (scripts/mailstack): delivery
//! with the VERP return path, a bounce mapped back to the outbox id,
//! STARTTLS with the test CA, AUTH on the submission port, and which
//! failures are permanent or temporary.

#[path = "../common/mod.rs"]
mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{TimeZone, Utc};
use common::mailstack::MailStack;
use mailparse::MailHeaderMap;
use orderly::mail::bounce::{parse_dsn, verp_address, verp_parse, DsnFormat};
use orderly::mail::outgoing::{
    check, message_id, AutoKind, MailSender, OutgoingMail, Security, SendError, SmtpConfig,
    SmtpSender,
};

const WAIT: Duration = Duration::from_secs(20);
const SECRET: &[u8] = b"mail-smtp-test-secret";
const BOARD: &str = "   +---+---+\n 1 | I |   |\n   +---+---+\n";

/// A seed no other run of this test uses.
fn unique(what: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{what}-{}-{nanos}", std::process::id())
}

fn mail(stack: &MailStack, to: &str, outbox_id: i64) -> OutgoingMail {
    OutgoingMail {
        message_id: message_id(&unique("mail-smtp"), &stack.domain),
        from: format!("orderly <{}>", stack.address("orderly")),
        to: to.to_string(),
        reply_to: None,
        subject: format!("Game {outbox_id}: your move"),
        in_reply_to: None,
        references: Vec::new(),
        list_id: None,
        body: BOARD.into(),
        date: Utc.with_ymd_and_hms(2025, 3, 1, 12, 30, 5).unwrap(),
        auto: AutoKind::Generated,
        return_path: Some(verp_address("bounces", &stack.domain, outbox_id, SECRET)),
        text_only: false,
        picture: None,
    }
}

fn plain(stack: &MailStack) -> SmtpConfig {
    SmtpConfig {
        port: Some(stack.smtp_port),
        timeout_secs: 15,
        ..SmtpConfig::new("127.0.0.1", Security::Plain)
    }
}

fn submission(stack: &MailStack) -> SmtpConfig {
    SmtpConfig {
        port: Some(
            stack
                .submission_port
                .expect("the mail stack has a submission port"),
        ),
        ca_file: Some(stack.ca_file.clone()),
        timeout_secs: 15,
        ..SmtpConfig::new("localhost", Security::Starttls)
    }
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Waits for the mail in `user`'s INBOX, by its Message-ID.
fn arrived(stack: &MailStack, user: &str, mail: &OutgoingMail) -> Vec<u8> {
    stack
        .wait_for(user, WAIT, |m| contains(m, &mail.message_id))
        .unwrap_or_else(|| panic!("{} did not reach {user}", mail.message_id))
}

fn smtp_error(err: SendError) -> (Option<u16>, String, bool) {
    match err {
        SendError::Smtp {
            code,
            message,
            permanent,
        } => (code, message, permanent),
        other => panic!("not an SMTP error: {other:?}"),
    }
}

#[test]
fn delivered_with_the_verp_return_path_and_bounces_map_back() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let config = plain(&stack);
    let sender = SmtpSender::new(&config).unwrap();
    assert!(check(&config).unwrap().contains("plain, no AUTH"));

    // Delivered, with the envelope sender recorded as Return-Path.
    let good = mail(&stack, &stack.address("ann"), 101);
    sender.send(&good).unwrap();
    let raw = arrived(&stack, "ann", &good);
    let parsed = mailparse::parse_mail(&raw).unwrap();
    let verp = good.return_path.clone().unwrap();
    assert_eq!(
        parsed.headers.get_first_value("Return-Path").as_deref(),
        Some(format!("<{verp}>").as_str())
    );
    assert_eq!(
        verp_parse(&verp, "bounces", &stack.domain, SECRET),
        Some(101)
    );
    // The board arrives byte for byte.
    assert!(contains(&raw, &BOARD.replace('\n', "\r\n")));

    // An unknown user of the domain: Postfix accepts, the delivery fails,
    // and the DSN comes back to the VERP address (orderly's INBOX).
    let lost = mail(&stack, &stack.address("nobody"), 102);
    sender.send(&lost).unwrap();
    let bounce = stack
        .wait_for("orderly", WAIT, |m| {
            parse_dsn(m).and_then(|d| d.verp_id("bounces", &stack.domain, SECRET)) == Some(102)
        })
        .expect("no bounce for outbox mail 102");
    let dsn = parse_dsn(&bounce).unwrap();
    assert_eq!(dsn.format, DsnFormat::Report);
    assert!(dsn.is_hard(), "{dsn:?}");
    let recipient = &dsn.recipients[0];
    assert_eq!(
        recipient.final_recipient.as_deref(),
        Some(stack.address("nobody").as_str())
    );
    assert_eq!(recipient.status.as_deref(), Some("5.1.1"));
    assert_eq!(recipient.reply_code, Some(550));
    assert_eq!(
        dsn.original_message_id.as_deref(),
        Some(lost.message_id.as_str())
    );
    // The bounce names only mail 102: another secret maps it to nothing.
    assert_eq!(dsn.verp_id("bounces", &stack.domain, b"other"), None);
}

#[test]
fn starttls_auth_and_refusals() {
    let Some(stack) = MailStack::start() else {
        return;
    };

    // STARTTLS on the SMTP port, trusting the test CA, no AUTH.
    let starttls = SmtpConfig {
        port: Some(stack.smtp_port),
        ca_file: Some(stack.ca_file.clone()),
        timeout_secs: 15,
        ..SmtpConfig::new("127.0.0.1", Security::Starttls)
    };
    let to_bob = mail(&stack, &stack.address("bob"), 201);
    SmtpSender::new(&starttls).unwrap().send(&to_bob).unwrap();
    arrived(&stack, "bob", &to_bob);

    // Without the CA the certificate is not trusted: temporary.
    let untrusted = SmtpConfig {
        ca_file: None,
        ..starttls.clone()
    };
    let err = SmtpSender::new(&untrusted)
        .unwrap()
        .send(&mail(&stack, &stack.address("bob"), 202))
        .unwrap_err();
    let (code, message, permanent) = smtp_error(err);
    assert_eq!((code, permanent), (None, false), "{message}");
    assert!(message.contains("TLS failed"), "{message}");
    assert!(check(&untrusted).is_err());

    // Submission: STARTTLS, then AUTH with the password from a file.
    let pw_file = stack.dir.join("orderly-smtp-password");
    std::fs::write(&pw_file, format!("{}\n", MailStack::password("orderly"))).unwrap();
    let authed = SmtpConfig {
        username: Some("orderly".into()),
        password_file: Some(pw_file),
        ..submission(&stack)
    };
    let report = check(&authed).unwrap();
    assert!(report.contains("authenticated as orderly"), "{report}");
    let to_carol = mail(&stack, &stack.address("carol"), 203);
    SmtpSender::new(&authed).unwrap().send(&to_carol).unwrap();
    arrived(&stack, "carol", &to_carol);

    // A wrong password: 535, a configuration fault, temporary.
    let wrong = SmtpConfig {
        username: Some("orderly".into()),
        password: Some("not-the-password".into()),
        password_file: None,
        ..submission(&stack)
    };
    let err = SmtpSender::new(&wrong)
        .unwrap()
        .send(&mail(&stack, &stack.address("carol"), 204))
        .unwrap_err();
    let (code, message, permanent) = smtp_error(err);
    assert_eq!((code, permanent), (Some(535), false), "{message}");
    assert!(check(&wrong).unwrap_err().contains("535"));

    // No AUTH on submission: Postfix refuses the recipient (554 at RCPT).
    let err = SmtpSender::new(&submission(&stack))
        .unwrap()
        .send(&mail(&stack, &stack.address("carol"), 205))
        .unwrap_err();
    let (code, message, permanent) = smtp_error(err);
    assert_eq!((code, permanent), (Some(554), true), "{message}");
    assert!(message.contains("5.7.1"), "{message}");

    // Too big for Postfix (message_size_limit, 10 MB by default): 552
    // after the data, permanent.
    let mut big = mail(&stack, &stack.address("bob"), 206);
    big.body = format!("{}\n", "x".repeat(70)).repeat(160_000);
    let err = SmtpSender::new(&plain(&stack))
        .unwrap()
        .send(&big)
        .unwrap_err();
    let (code, message, permanent) = smtp_error(err);
    assert_eq!((code, permanent), (Some(552), true), "{message}");
}

#[test]
fn a_stopped_relay_is_a_temporary_failure() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let config = plain(&stack);
    let sender = SmtpSender::new(&config).unwrap();

    stack.stop_postfix();
    let waiting = mail(&stack, &stack.address("eve"), 301);
    let err = sender.send(&waiting).unwrap_err();
    assert!(!err.is_permanent(), "{err}");
    let (code, message, _) = smtp_error(err);
    assert_eq!(code, None, "{message}");
    assert!(check(&config).is_err());

    // The same mail goes out once the relay is back.
    stack.start_postfix();
    sender.send(&waiting).unwrap();
    arrived(&stack, "eve", &waiting);
}
