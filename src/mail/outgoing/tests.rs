use chrono::TimeZone;

use super::*;

fn mail() -> OutgoingMail {
    OutgoingMail {
        message_id: "0123456789abcdef01234567@example.org".into(),
        from: "orderly <orderly@example.org>".into(),
        to: "Ann Player <ann@example.net>".into(),
        reply_to: Some("orderly+g42.k7xq2m@example.org".into()),
        subject: "Game 42: your move".into(),
        in_reply_to: None,
        references: Vec::new(),
        list_id: None,
        body: "Hello\n".into(),
        date: Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap(),
        auto: AutoKind::Generated,
        return_path: None,
        text_only: false,
        picture: None,
    }
}

fn text(mail: &OutgoingMail) -> String {
    String::from_utf8(mail.to_bytes().unwrap()).unwrap()
}

/// The raw (still transfer-encoded) text/plain part of the mail, and its
/// transfer encoding, as a MIME parser finds them.
fn plain_part(mail: &OutgoingMail) -> (String, String) {
    let bytes = mail.to_bytes().unwrap();
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    assert_eq!(parsed.ctype.mimetype, "multipart/alternative");
    let plain = &parsed.subparts[0];
    assert_eq!(plain.ctype.mimetype, "text/plain");
    let encoding = plain
        .headers
        .iter()
        .find(|h| h.get_key() == "Content-Transfer-Encoding")
        .unwrap()
        .get_value();
    (
        String::from_utf8(plain.get_body_raw().unwrap()).unwrap(),
        encoding,
    )
}

#[test]
fn message_id_is_stable_hex_at_domain() {
    let a = message_id("<in@x>|ann@example.net|0", "example.org");
    assert_eq!(a, message_id("<in@x>|ann@example.net|0", "example.org"));
    assert_ne!(a, message_id("<in@x>|ann@example.net|1", "example.org"));
    let (left, right) = a.split_once('@').unwrap();
    assert_eq!(right, "example.org");
    assert_eq!(left.len(), 24);
    assert!(left
        .chars()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert!(is_own_message_id(&a));
    // sha256("") starts e3b0c442 98fc1c14 9afbf4c8.
    assert_eq!(message_id("", "d"), "e3b0c44298fc1c149afbf4c8@d");
}

#[test]
fn own_message_id_must_be_left_at_right() {
    for bad in ["", "no-at", "@x", "x@", "<a@b>", "a b@c", "a@b@c", "é@x"] {
        let mut m = mail();
        m.message_id = bad.into();
        assert!(
            matches!(m.to_message(), Err(OutgoingError::MessageId(_))),
            "{bad:?} accepted"
        );
    }
}

#[test]
fn mailbox_with_trailing_text_is_refused() {
    assert!(parse_mailbox("To", "ann@example.net").is_ok());
    assert!(parse_mailbox("To", " Ann <ann@example.net> ").is_ok());
    assert!(parse_mailbox("To", "\"Ann, P.\" <ann@example.net>").is_ok());
    for bad in [
        "ann@example.net, bob@example.net",
        "ann@example.net junk",
        "Ann <ann@example.net> junk",
        "not an address",
        "",
    ] {
        assert!(
            matches!(parse_mailbox("To", bad), Err(OutgoingError::Address { .. })),
            "{bad:?} accepted"
        );
    }
}

#[test]
fn thread_ids_are_bracketed_or_left_out() {
    assert_eq!(thread_id("f", "a@b").as_deref(), Some("<a@b>"));
    assert_eq!(thread_id("f", " <a@b> ").as_deref(), Some("<a@b>"));
    assert_eq!(
        thread_id("f", "no-at-is-fine").as_deref(),
        Some("<no-at-is-fine>")
    );
    for bad in ["", "<>", "a b@c", "a@b\r\nBcc: x@y", "é@x", "<a<b>"] {
        assert_eq!(thread_id("f", bad), None, "{bad:?} kept");
    }
}

#[test]
fn bad_thread_ids_do_not_stop_the_mail() {
    let mut m = mail();
    m.in_reply_to = Some("broken id".into());
    m.references = vec!["a@b".into(), "x\r\nBcc: evil@example.com".into()];
    let t = text(&m);
    assert!(!t.contains("In-Reply-To"));
    assert!(t.contains("References: <a@b>\r\n"));
    assert!(!t.contains("evil"));
}

#[test]
fn ascii_body_is_seven_bit_even_at_76_columns() {
    // lettre alone would pick quoted-printable for these lines.
    let line75 = "x".repeat(75);
    let line76 = "=".repeat(76);
    let mut m = mail();
    m.body = format!("{line76}\n{line75}\n{line76}\n");
    let expected = format!("{line76}\r\n{line75}\r\n{line76}\r\n");
    assert_eq!(plain_part(&m), (expected.clone(), "7bit".into()));
    m.text_only = true;
    let t = text(&m);
    assert!(t.contains("Content-Transfer-Encoding: 7bit\r\n"));
    assert!(t.ends_with(&format!("\r\n\r\n{expected}")));
}

#[test]
fn missing_final_line_break_is_added() {
    let mut m = mail();
    m.body = "one\r\ntwo".into();
    assert_eq!(plain_part(&m).0, "one\r\ntwo\r\n");
    m.text_only = true;
    assert!(text(&m).ends_with("\r\n\r\none\r\ntwo\r\n"));
}

#[test]
fn other_bodies_are_quoted_printable_never_base64() {
    for body in [
        "Général\n",
        "\u{65e5}\u{672c}\u{8a9e}\u{65e5}\u{672c}\u{8a9e}\n",
        "bare\rreturn\n",
        "nul\0byte\n",
        &"y".repeat(999),
    ] {
        let mut m = mail();
        m.body = body.into();
        let t = text(&m);
        assert_eq!(plain_part(&m).1, "quoted-printable", "{body:?}: {t}");
        assert!(!t.contains("base64"), "{body:?}: {t}");
        m.text_only = true;
        let t = text(&m);
        assert!(
            t.contains("Content-Transfer-Encoding: quoted-printable\r\n"),
            "{body:?}: {t}"
        );
    }
}

#[test]
fn dates_outside_the_header_range_are_refused() {
    let mut m = mail();
    m.date = Utc.with_ymd_and_hms(1969, 12, 31, 23, 59, 59).unwrap();
    assert!(matches!(m.to_message(), Err(OutgoingError::Date(_))));
    m.date = Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap();
    assert!(matches!(m.to_message(), Err(OutgoingError::Date(_))));
    m.date = Utc.with_ymd_and_hms(1970, 1, 1, 0, 0, 0).unwrap();
    assert!(text(&m).contains("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n"));
}

#[test]
fn auto_submitted_values() {
    for kind in [AutoKind::Replied, AutoKind::Generated] {
        let value = AutoSubmitted(kind).display();
        let mut headers = lettre::message::header::Headers::new();
        headers.insert_raw(value);
        assert_eq!(headers.get::<AutoSubmitted>(), Some(AutoSubmitted(kind)));
    }
    use lettre::message::header::Header;
    assert_eq!(
        AutoSubmitted::parse("Auto-Replied; owner-email=x@y").unwrap(),
        AutoSubmitted(AutoKind::Replied)
    );
    assert!(AutoSubmitted::parse("no").is_err());
}

#[test]
fn list_id_needs_an_ascii_id_in_brackets() {
    assert!(ListId::new("<game-42.orderly.example.org>").is_ok());
    assert!(ListId::new("Partie n° 42 <game-42.orderly.example.org>").is_ok());
    for bad in ["", "game-42.example.org", "<>", "<a b>", "<é.x>", "x <a"] {
        assert!(
            matches!(ListId::new(bad), Err(OutgoingError::ListId(_))),
            "{bad:?} accepted"
        );
    }
}

#[test]
fn content_type_is_fixed_plain_text() {
    assert!(text(&mail()).contains("Content-Type: text/plain; charset=utf-8; format=fixed\r\n"));
}

#[test]
fn envelope_is_from_and_to_addresses() {
    let envelope = mail().envelope().unwrap();
    assert_eq!(envelope.from().unwrap().to_string(), "orderly@example.org");
    let to: Vec<String> = envelope.to().iter().map(|a| a.to_string()).collect();
    assert_eq!(to, ["ann@example.net"]);
}

#[test]
fn return_path_is_the_envelope_sender_and_not_a_header() {
    let mut m = mail();
    m.return_path = Some("bounces+42.abcdefghij@example.org".into());
    let envelope = m.envelope().unwrap();
    assert_eq!(
        envelope.from().unwrap().to_string(),
        "bounces+42.abcdefghij@example.org"
    );
    let to: Vec<String> = envelope.to().iter().map(|a| a.to_string()).collect();
    assert_eq!(to, ["ann@example.net"]);
    assert_eq!(m.to_bytes().unwrap(), mail().to_bytes().unwrap());
    m.return_path = Some("two@x, three@y".into());
    assert!(matches!(
        m.envelope(),
        Err(OutgoingError::Address {
            field: "Return-Path",
            ..
        })
    ));
}

#[test]
fn return_path_is_optional_in_json() {
    let json = serde_json::to_string(&mail()).unwrap();
    assert!(!json.contains("return_path"), "{json}");
    let mut m = mail();
    m.return_path = Some("bounces+1.x@example.org".into());
    let json = serde_json::to_string(&m).unwrap();
    let back: OutgoingMail = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
}

#[test]
fn file_names_are_sanitised() {
    assert_eq!(file_name("abc@example.org"), "abc_example.org.eml");
    assert_eq!(file_name("a/../b c@x"), "a_.._b_c_x.eml");
    assert_eq!(file_name(".hidden@x"), "_.hidden_x.eml");
    assert_eq!(file_name(""), "_.eml");
    let long = "z".repeat(500);
    let name = file_name(&long);
    assert!(name.len() <= 204, "{}", name.len());
    assert_ne!(name, file_name(&"z".repeat(501)));
}

#[test]
fn only_the_mail_itself_is_a_permanent_fault() {
    let err = |kind| SendError::File {
        path: "x".into(),
        source: std::io::Error::from(kind),
    };
    assert!(!err(std::io::ErrorKind::PermissionDenied).is_permanent());
    assert!(!err(std::io::ErrorKind::NotADirectory).is_permanent());
    assert!(!err(std::io::ErrorKind::StorageFull).is_permanent());
    assert!(!err(std::io::ErrorKind::Interrupted).is_permanent());
    let compose = SendError::Compose {
        message_id: "x".into(),
        source: OutgoingError::MessageId("x".into()),
    };
    assert!(compose.is_permanent());
}

#[test]
fn the_boundary_is_stable_and_follows_the_content() {
    let m = mail();
    assert_eq!(m.to_bytes().unwrap(), m.to_bytes().unwrap());
    let b = boundary(&m.message_id, &[b"plain", b"html"]);
    assert_eq!(b, boundary(&m.message_id, &[b"plain", b"html"]));
    assert!(b.starts_with("=_orderly_") && b.len() == 10 + 32, "{b}");
    assert_ne!(b, boundary("other@example.org", &[b"plain", b"html"]));
    assert_ne!(b, boundary(&m.message_id, &[b"plain.", b"html"]));
    assert_ne!(b, boundary(&m.message_id, &[b"plai", b"nhtml"]));

    let mut other = mail();
    other.body = "Goodbye\n".into();
    let head = |m: &OutgoingMail| {
        let t = text(m);
        let start = t.find("boundary=").unwrap();
        t[start..start + 60].to_string()
    };
    assert_ne!(head(&m), head(&other));
}

#[test]
fn a_boundary_found_in_a_part_is_not_used() {
    assert_eq!(unused_boundary("=_b", &[b"none here", b"nor here"]), "=_b");
    assert_eq!(
        unused_boundary("=_b", &[b"x\r\n--=_b\r\n", b"=_b_1"]),
        "=_b_2"
    );
    assert_eq!(unused_boundary("=_b", &[b"", b"=_"]), "=_b");
}
