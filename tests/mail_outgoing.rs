//! Outgoing mail as bytes and as files: the header set, the board surviving
//! byte for byte, non-ASCII text round-tripping through a real parser, the
//! file sender's stable names and its errors, and the outbox's JSON form.

use std::fs;
use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use mailparse::MailHeaderMap;
use orderly::mail::outgoing::{
    file_name, message_id, AutoKind, FileSender, MailSender, OutgoingMail, SendError,
};

/// Leading spaces, trailing spaces, a 76-column line, lines a careless
/// transport would touch (`From `, `.`), a tab and empty lines.
const BOARD: &str = concat!(
    "Game 42, turn 3. Blue to move.\n",
    "\n",
    "     a   b   c   d\n",
    "   +---+---+---+---+\n",
    " 1 | I |   | C |   |   \n",
    "   +---+---+---+---+\n",
    " 2 |   | = |   | A |\n",
    "   +---+---+---+---+\n",
    "\n",
    "From here you may order:\n",
    ".\n",
    "\tmove I a1-b1\n",
    "----------------------------------------------------------------------------\n",
    "> not a quote\n",
);

fn board_mail() -> OutgoingMail {
    OutgoingMail {
        message_id: "0123456789abcdef01234567@example.org".into(),
        from: "orderly <orderly@example.org>".into(),
        to: "Ann Player <ann@example.net>".into(),
        reply_to: Some("orderly+g42.k7xq2m@example.org".into()),
        subject: "Game 42: turn 3, Blue to move".into(),
        in_reply_to: Some("CAB-123@mail.example.net".into()),
        references: vec![
            "<first.1@mail.example.net>".into(),
            "CAB-123@mail.example.net".into(),
        ],
        list_id: Some("<game-42.orderly.example.org>".into()),
        body: BOARD.into(),
        date: Utc.with_ymd_and_hms(2025, 3, 1, 12, 30, 5).unwrap(),
        auto: AutoKind::Replied,
        return_path: None,
    }
}

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// A fresh directory for one test under cargo's scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("mail_outgoing")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_header_is_present_and_formatted() {
    let bytes = board_mail().to_bytes().unwrap();
    let expected = crlf(concat!(
        "Message-ID: <0123456789abcdef01234567@example.org>\n",
        "Date: Sat, 01 Mar 2025 12:30:05 +0000\n",
        "From: orderly <orderly@example.org>\n",
        // lettre quotes any display name with a space; valid RFC 5322.
        "To: \"Ann Player\" <ann@example.net>\n",
        "Reply-To: orderly+g42.k7xq2m@example.org\n",
        "Subject: Game 42: turn 3, Blue to move\n",
        "In-Reply-To: <CAB-123@mail.example.net>\n",
        "References: <first.1@mail.example.net> <CAB-123@mail.example.net>\n",
        "Auto-Submitted: auto-replied\n",
        "List-Id: <game-42.orderly.example.org>\n",
        "MIME-Version: 1.0\n",
        "Content-Type: text/plain; charset=utf-8; format=fixed\n",
        "Content-Transfer-Encoding: 7bit\n",
        "\n",
    )) + &crlf(BOARD);
    assert_eq!(String::from_utf8(bytes).unwrap(), expected);
}

#[test]
fn optional_headers_are_left_out_and_generated_mail_says_so() {
    let mut mail = board_mail();
    mail.reply_to = None;
    mail.in_reply_to = None;
    mail.references.clear();
    mail.list_id = None;
    mail.auto = AutoKind::Generated;
    let text = String::from_utf8(mail.to_bytes().unwrap()).unwrap();
    let head = &text[..text.find("\r\n\r\n").unwrap()];
    for absent in ["Reply-To:", "In-Reply-To:", "References:", "List-Id:"] {
        assert!(!head.contains(absent), "{absent} in\n{head}");
    }
    assert!(head.contains("\r\nAuto-Submitted: auto-generated\r\n"));
}

#[test]
fn the_board_survives_byte_for_byte() {
    let bytes = board_mail().to_bytes().unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let body_start = text.find("\r\n\r\n").unwrap() + 4;
    assert_eq!(&text[body_start..], crlf(BOARD));
    assert!(text.lines().all(|line| line.len() <= 78));

    let parsed = mailparse::parse_mail(&bytes).unwrap();
    assert_eq!(parsed.ctype.mimetype, "text/plain");
    assert_eq!(parsed.ctype.charset, "utf-8");
    assert_eq!(
        parsed.ctype.params.get("format").map(String::as_str),
        Some("fixed")
    );
    assert_eq!(
        parsed
            .headers
            .get_first_value("Content-Transfer-Encoding")
            .as_deref(),
        Some("7bit")
    );
    assert_eq!(parsed.get_body_raw().unwrap(), crlf(BOARD).into_bytes());
}

#[test]
fn non_ascii_subject_names_and_body_decode_back() {
    let mut mail = board_mail();
    mail.to = "Anne Dupré <anne@example.net>".into();
    mail.subject = "Partie 42 : à vous de jouer, général (tour 3) — Ελληνικά".into();
    mail.list_id = Some("Partie n° 42 <game-42.orderly.example.org>".into());
    mail.body = format!("Général, à vous.\n{BOARD}Ελληνικά 日本語\n");
    let bytes = mail.to_bytes().unwrap();
    assert!(bytes.is_ascii(), "the raw mail must be 7-bit clean");
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains("\r\nContent-Transfer-Encoding: quoted-printable\r\n"));
    assert!(text.contains("\r\nSubject: Partie 42 : =?utf-8?"));

    let parsed = mailparse::parse_mail(&bytes).unwrap();
    let header = |name| parsed.headers.get_first_value(name).unwrap();
    assert_eq!(header("Subject"), mail.subject);
    assert_eq!(header("To"), mail.to);
    assert_eq!(
        header("List-Id"),
        "Partie n° 42 <game-42.orderly.example.org>"
    );
    assert_eq!(parsed.get_body().unwrap().replace("\r\n", "\n"), mail.body);
}

#[test]
fn file_sender_writes_the_sanitised_id_and_overwrites_on_resend() {
    let dir = scratch("overwrite").join("created/on/demand");
    let sender = FileSender::new(&dir);
    let mut mail = board_mail();
    sender.send(&mail).unwrap();

    let expected = dir.join("0123456789abcdef01234567_example.org.eml");
    assert_eq!(sender.path_for(&mail.message_id), expected);
    assert_eq!(
        file_name(&mail.message_id),
        "0123456789abcdef01234567_example.org.eml"
    );
    assert_eq!(fs::read(&expected).unwrap(), mail.to_bytes().unwrap());

    mail.body = "Second version.\n".into();
    sender.send(&mail).unwrap();
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        [expected.file_name().unwrap()],
        "one file, no temporaries"
    );
    assert!(String::from_utf8(fs::read(&expected).unwrap())
        .unwrap()
        .ends_with("\r\n\r\nSecond version.\r\n"));
}

#[test]
fn file_sender_names_derived_ids_safely() {
    let dir = scratch("derived");
    let id = message_id(
        "<CAB-123@mail.example.net>|ann@example.net|0",
        "example.org",
    );
    let mut mail = board_mail();
    mail.message_id = id.clone();
    FileSender::new(&dir).send(&mail).unwrap();
    let name = format!("{}_example.org.eml", &id[..24]);
    let written = fs::read(dir.join(name)).unwrap();
    assert!(String::from_utf8(written)
        .unwrap()
        .starts_with(&format!("Message-ID: <{id}>\r\n")));
}

#[test]
fn a_file_where_the_directory_should_be_is_temporary() {
    let base = scratch("not-a-dir");
    let file = base.join("plain-file");
    fs::write(&file, "x").unwrap();
    for dir in [file.clone(), file.join("outbox")] {
        let err = FileSender::new(&dir).send(&board_mail()).unwrap_err();
        assert!(matches!(err, SendError::File { .. }), "{err:?}");
        assert!(!err.is_permanent(), "{dir:?}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_read_only_directory_is_temporary() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("read-only");
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    // Root writes anyway; then there is no failure to observe.
    let privileged = fs::write(dir.join("probe"), "x").is_ok();
    let result = FileSender::new(&dir).send(&board_mail());
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    if privileged {
        assert!(result.is_ok());
        return;
    }
    let err = result.unwrap_err();
    assert!(matches!(err, SendError::File { .. }), "{err:?}");
    assert!(!err.is_permanent(), "{err}");
}

#[test]
fn an_unformattable_mail_is_a_permanent_error_and_writes_nothing() {
    let dir = scratch("compose");
    let mut mail = board_mail();
    mail.to = "ann@example.net, bob@example.net".into();
    let err = FileSender::new(&dir).send(&mail).unwrap_err();
    assert!(matches!(err, SendError::Compose { .. }), "{err:?}");
    assert!(err.is_permanent());
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn outgoing_mail_round_trips_through_json() {
    let mail = board_mail();
    let json = serde_json::to_string(&mail).unwrap();
    assert!(json.contains(r#""date":"2025-03-01T12:30:05Z""#), "{json}");
    assert!(json.contains(r#""auto":"replied""#), "{json}");
    let back: OutgoingMail = serde_json::from_str(&json).unwrap();
    assert_eq!(back, mail);
    assert_eq!(back.to_bytes().unwrap(), mail.to_bytes().unwrap());

    let mut generated = mail.clone();
    generated.auto = AutoKind::Generated;
    generated.date = Utc.timestamp_opt(1_740_000_000, 123_000_000).unwrap();
    let back: OutgoingMail =
        serde_json::from_str(&serde_json::to_string(&generated).unwrap()).unwrap();
    assert_eq!(back, generated);
}

#[test]
fn sending_through_the_trait_object() {
    let dir = scratch("dyn");
    let sender: Box<dyn MailSender> = Box::new(FileSender::new(&dir));
    sender.send(&board_mail()).unwrap();
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
}
