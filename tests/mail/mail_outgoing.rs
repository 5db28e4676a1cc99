//! Outgoing mail as bytes and as files: the header set, the MIME structure
//! (plain text, then the same text as HTML in a `<pre>`), the board
//! surviving byte for byte in both, escaping, line lengths, non-ASCII text
//! round-tripping through a real parser and through orderly's own intake,
//! the file sender's stable names and its errors, and the outbox's JSON form.

use std::fs;
use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use mailparse::{MailHeaderMap, ParsedMail};
use orderly::mail::intake;
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
        text_only: false,
        picture: None,
    }
}

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// The board as the HTML part's `<pre>` holds it.
const BOARD_ESCAPED: &str = concat!(
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
    "&gt; not a quote\n",
);

/// The HTML document around a `<pre>` holding `escaped`.
fn html_document(title: &str, escaped: &str) -> String {
    format!(
        concat!(
            "<!DOCTYPE html>\n",
            "<html lang=\"en\">\n",
            "<head>\n",
            "<meta charset=\"utf-8\">\n",
            "<meta name=\"viewport\" content=\"width=device-width\">\n",
            "<title>{title}</title>\n",
            "</head>\n",
            "<body>\n",
            "<pre style=\"font-family: ui-monospace, Menlo, Consolas,\n",
            " 'Courier New', monospace; font-size: 13px; line-height: 1.3;\n",
            " white-space: pre; overflow-x: auto; margin: 0;\">\n",
            "{escaped}",
            "</pre>\n",
            "</body>\n",
            "</html>\n",
        ),
        title = title,
        escaped = escaped,
    )
}

/// The boundary the mail declares.
fn boundary_of(bytes: &[u8]) -> String {
    let parsed = mailparse::parse_mail(bytes).unwrap();
    parsed.ctype.params["boundary"].clone()
}

/// The two parts of a mail, checked to be text/plain then text/html in a
/// multipart/alternative and nothing else.
fn parts<'a>(parsed: &'a ParsedMail<'a>) -> (&'a ParsedMail<'a>, &'a ParsedMail<'a>) {
    assert_eq!(parsed.ctype.mimetype, "multipart/alternative");
    assert_eq!(parsed.subparts.len(), 2);
    let (plain, html) = (&parsed.subparts[0], &parsed.subparts[1]);
    assert_eq!(plain.ctype.mimetype, "text/plain");
    assert_eq!(plain.ctype.charset, "utf-8");
    assert_eq!(
        plain.ctype.params.get("format").map(String::as_str),
        Some("fixed")
    );
    assert_eq!(html.ctype.mimetype, "text/html");
    assert_eq!(html.ctype.charset, "utf-8");
    (plain, html)
}

fn transfer_encoding(part: &ParsedMail) -> String {
    part.headers
        .get_first_value("Content-Transfer-Encoding")
        .unwrap()
}

/// What the `<pre>` of an HTML document holds, as written (escaped), after
/// the line break that HTML drops after `<pre>`.
fn pre_content(html: &str) -> &str {
    assert_eq!(html.matches("<pre").count(), 1, "one <pre>");
    assert_eq!(html.matches("</pre>").count(), 1, "one </pre>");
    let open = html.find("<pre").unwrap();
    let rest = &html[open..];
    let rest = &rest[rest.find('>').unwrap() + 1..];
    let rest = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))
        .unwrap_or(rest);
    &rest[..rest.find("</pre>").unwrap()]
}

/// Undoes the five escapes the HTML part uses (and nothing else, so that
/// an escape missing or doubled shows).
fn unescape(escaped: &str) -> String {
    assert!(
        !escaped.contains('<') && !escaped.contains('>'),
        "{escaped}"
    );
    assert!(
        !escaped.contains('"') && !escaped.contains('\''),
        "{escaped}"
    );
    let mut out = String::new();
    let mut rest = escaped;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let (c, len) = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
            ("&#39;", '\''),
        ]
        .iter()
        .find(|(e, _)| rest.starts_with(e))
        .map(|(e, c)| (*c, e.len()))
        .unwrap_or_else(|| panic!("a bare & in {escaped:?}"));
        out.push(c);
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
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

/// The header block every mail starts with, up to MIME-Version.
const HEADERS: &str = concat!(
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
);

#[test]
fn every_header_is_present_and_formatted() {
    let bytes = board_mail().to_bytes().unwrap();
    let b = boundary_of(&bytes);
    let expected = crlf(&format!(
        concat!(
            "{headers}",
            "Content-Type: multipart/alternative;\n",
            " boundary=\"{b}\"\n",
            "\n",
            "--{b}\n",
            "Content-Type: text/plain; charset=utf-8; format=fixed\n",
            "Content-Transfer-Encoding: 7bit\n",
            "\n",
            "{board}",
            "\n",
            "--{b}\n",
            "Content-Type: text/html; charset=utf-8\n",
            "Content-Transfer-Encoding: 7bit\n",
            "\n",
            "{html}",
            "\n",
            "--{b}--\n",
        ),
        headers = HEADERS,
        b = b,
        board = BOARD,
        html = html_document("Game 42: turn 3, Blue to move", BOARD_ESCAPED),
    ));
    assert_eq!(String::from_utf8(bytes).unwrap(), expected);
}

#[test]
fn text_only_is_the_single_plain_part_as_before() {
    let mut mail = board_mail();
    mail.text_only = true;
    let bytes = mail.to_bytes().unwrap();
    let expected = crlf(concat!(
        "Content-Type: text/plain; charset=utf-8; format=fixed\n",
        "Content-Transfer-Encoding: 7bit\n",
        "\n",
    ));
    let expected = crlf(HEADERS) + &expected + &crlf(BOARD);
    assert_eq!(String::from_utf8(bytes).unwrap(), expected);
}

#[test]
fn the_html_part_changes_no_header_and_no_identity() {
    let with_html = String::from_utf8(board_mail().to_bytes().unwrap()).unwrap();
    let mut mail = board_mail();
    mail.text_only = true;
    let without = String::from_utf8(mail.to_bytes().unwrap()).unwrap();
    let head = |text: &str| text[..text.find("Content-Type:").unwrap()].to_string();
    assert_eq!(head(&with_html), head(&without));
    assert_eq!(head(&with_html), crlf(HEADERS));
    assert_eq!(board_mail().envelope().unwrap(), mail.envelope().unwrap());
    // Same bytes at every retry, so a resent mail is the same mail.
    assert_eq!(with_html.as_bytes(), board_mail().to_bytes().unwrap());
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
    assert!(text.contains(&crlf(BOARD)));
    assert!(text.lines().all(|line| line.len() <= 78));

    let parsed = mailparse::parse_mail(&bytes).unwrap();
    let (plain, html) = parts(&parsed);
    assert_eq!(transfer_encoding(plain), "7bit");
    assert_eq!(plain.get_body_raw().unwrap(), crlf(BOARD).into_bytes());
    // The HTML part as well is readable raw: its lines are the board's.
    assert_eq!(transfer_encoding(html), "7bit");
    let html = String::from_utf8(html.get_body_raw().unwrap()).unwrap();
    assert_eq!(pre_content(&html), crlf(BOARD_ESCAPED));
}

#[test]
fn the_html_part_is_a_document_with_the_text_in_one_pre() {
    let bytes = board_mail().to_bytes().unwrap();
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    let (_, html) = parts(&parsed);
    let html = html.get_body().unwrap().replace("\r\n", "\n");
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"));
    assert!(html.contains("\n<meta charset=\"utf-8\">\n"));
    assert!(html.contains("\n<meta name=\"viewport\" content=\"width=device-width\">\n"));
    assert!(html.contains("\n<title>Game 42: turn 3, Blue to move</title>\n"));
    assert!(html.contains("\n</head>\n<body>\n<pre style=\""));
    assert!(html.ends_with("</pre>\n</body>\n</html>\n"));
    let open = &html[html.find("<pre").unwrap()..];
    let open = &open[..open.find('>').unwrap()];
    for wanted in ["monospace;", "white-space: pre;", "overflow-x: auto;"] {
        assert!(open.contains(wanted), "{wanted} not in {open}");
    }
    // Line for line: the same lines, in the same order, none rewrapped.
    let pre = pre_content(&html);
    assert_eq!(pre, BOARD_ESCAPED);
    assert_eq!(unescape(pre), BOARD);
    assert_eq!(pre.lines().count(), BOARD.lines().count());
}

#[test]
fn hostile_text_is_escaped_everywhere() {
    let hostile = concat!(
        "MOVE <script>alert(\"x\")</script> & 'friends'\n",
        "</pre><img src=x onerror=alert(1)><pre>\n",
        "<!-- comment --> &amp; &lt;b&gt; &#60; ]]>\n",
        "\"quoted\" 'single' <b title=\"a'b\">bold</b>\n",
    );
    let mut mail = board_mail();
    mail.subject = "Game 42: </title><script>x()</script> & \"you\"".into();
    mail.body = format!("{hostile}{BOARD}");
    let bytes = mail.to_bytes().unwrap();
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    let (plain, html) = parts(&parsed);
    assert_eq!(
        plain.get_body().unwrap().replace("\r\n", "\n"),
        mail.body,
        "the plain part is the text as written"
    );
    let html = html.get_body().unwrap().replace("\r\n", "\n");
    for tag in ["<script", "<img", "<b ", "<b>", "<!--", "</title><"] {
        assert!(!html.contains(tag), "{tag} in\n{html}");
    }
    assert_eq!(html.matches("<title>").count(), 1);
    assert!(html.contains(
        "<title>Game 42: &lt;/title&gt;&lt;script&gt;x()&lt;/script&gt; &amp; &quot;you&quot;</title>"
    ));
    let pre = pre_content(&html);
    assert!(pre.starts_with(concat!(
        "MOVE &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;\n",
        "&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;&lt;pre&gt;\n",
        "&lt;!-- comment --&gt; &amp;amp; &amp;lt;b&amp;gt; &amp;#60; ]]&gt;\n",
    )));
    assert_eq!(unescape(pre), mail.body);
}

#[test]
fn no_line_passes_998_octets_however_long_the_text() {
    let ascii_long = format!("{}\n", "<&>\"'x".repeat(200)); // 1200 columns
    let html_long = format!("{}\n", "<".repeat(300)); // 7bit plain, 1200 as HTML
    let unicode_long = format!("{}\n", "é☺<".repeat(900));
    for body in [
        format!("{BOARD}{ascii_long}"),
        format!("{BOARD}{html_long}"),
        format!("{BOARD}{unicode_long}{ascii_long}"),
        "x".repeat(5000),
    ] {
        let mut mail = board_mail();
        mail.body = body.clone();
        let bytes = mail.to_bytes().unwrap();
        assert!(bytes.is_ascii());
        for line in bytes.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            assert!(line.len() <= 998, "a line of {} octets", line.len());
            assert!(!line.contains(&b'\r'), "a bare CR");
        }
        let parsed = mailparse::parse_mail(&bytes).unwrap();
        let (plain, html) = parts(&parsed);
        let mut text = body.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        assert_eq!(plain.get_body().unwrap().replace("\r\n", "\n"), text);
        let html = html.get_body().unwrap().replace("\r\n", "\n");
        assert_eq!(unescape(pre_content(&html)), text);
    }

    // 300 `<` are a fine 7bit plain line, but not as HTML.
    let mut mail = board_mail();
    mail.body = format!("{BOARD}{html_long}");
    let bytes = mail.to_bytes().unwrap();
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    let (plain, html) = parts(&parsed);
    assert_eq!(transfer_encoding(plain), "7bit");
    assert_eq!(transfer_encoding(html), "quoted-printable");
}

#[test]
fn our_own_intake_reads_the_same_text_as_before() {
    let bodies = [
        BOARD.to_string(),
        format!("Général, à vous.\n{BOARD}Ελληνικά 日本語\n"),
        format!("<script>alert('x')</script> &amp; \"q\"\n{BOARD}"),
        format!("{BOARD}{}\n", "<".repeat(1500)),
    ];
    for body in bodies {
        let mut mail = board_mail();
        mail.body = body;
        let with_html = intake::parse(&mail.to_bytes().unwrap()).unwrap();
        mail.text_only = true;
        let plain_only = intake::parse(&mail.to_bytes().unwrap()).unwrap();
        assert_eq!(with_html.full_text, plain_only.full_text);
        assert_eq!(with_html.text, plain_only.text);
        assert_eq!(with_html.full_text, mail.body);
        assert_eq!(with_html.subject, mail.subject);
        assert_eq!(with_html.message_id, plain_only.message_id);
        assert_eq!(with_html.automatic, plain_only.automatic);
    }
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
    let (plain, html) = parts(&parsed);
    assert_eq!(transfer_encoding(plain), "quoted-printable");
    assert_eq!(plain.get_body().unwrap().replace("\r\n", "\n"), mail.body);
    assert_eq!(transfer_encoding(html), "quoted-printable");
    let html = html.get_body().unwrap().replace("\r\n", "\n");
    assert_eq!(unescape(pre_content(&html)), mail.body);
    assert!(
        html.contains("<title>Partie 42 : à vous de jouer, général (tour 3) — Ελληνικά</title>")
    );
}

#[test]
fn file_sender_writes_the_sanitised_id_and_overwrites_on_resend() {
    let dir = scratch("overwrite").join("created/on/demand");
    let sender = FileSender::new(&dir);
    let mut mail = board_mail();
    sender.send(&mail).unwrap();

    // The date first, so that `ls` lists mails in the order they were made.
    let expected = dir.join(format!(
        "{}-0123456789abcdef01234567_example.org.eml",
        mail.date.format("%Y%m%dT%H%M%S%.3fZ")
    ));
    assert_eq!(sender.path_for(&mail), expected);
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
    let written = fs::read(&expected).unwrap();
    assert_eq!(written, mail.to_bytes().unwrap());
    let parsed = mailparse::parse_mail(&written).unwrap();
    let (plain, _) = parts(&parsed);
    assert_eq!(plain.get_body_raw().unwrap(), b"Second version.\r\n");
}

/// A batch sent unsynced shows no mail until `sync`: only temporary
/// dot-files (which readers skip) until the batch's data is on disk, then
/// every mail under its own name and no temporary left. A clone shares the
/// batch, so either may sync it.
#[test]
fn file_sender_shows_a_batch_only_once_synced() {
    let dir = scratch("batch");
    let sender = FileSender::new(&dir);
    let clone = sender.clone();
    let mails: Vec<OutgoingMail> = (0..3)
        .map(|i| {
            let mut mail = board_mail();
            mail.message_id = format!("batch-{i}@example.org");
            mail
        })
        .collect();
    for mail in &mails {
        sender.send_unsynced(mail).unwrap();
    }
    let visible = |dir: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        names
    };
    assert!(visible(&dir).is_empty(), "{:?}", visible(&dir));
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 3, "three temporaries");

    clone.sync().unwrap();
    let mut expected: Vec<String> = mails
        .iter()
        .map(|m| {
            sender
                .path_for(m)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    expected.sort();
    assert_eq!(visible(&dir), expected);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 3, "no temporary left");
    for mail in &mails {
        assert_eq!(
            fs::read(sender.path_for(mail)).unwrap(),
            mail.to_bytes().unwrap()
        );
    }
    // Nothing left to do: a second sync is a no-op.
    sender.sync().unwrap();
    assert_eq!(visible(&dir), expected);
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
    let name = format!(
        "{}-{}_example.org.eml",
        mail.date.format("%Y%m%dT%H%M%S%.3fZ"),
        &id[..24]
    );
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

/// A small picture: two squares and a word.
const PICTURE: &str = concat!(
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\" viewBox=\"0 0 40 20\">\n",
    "<rect x=\"0\" y=\"0\" width=\"20\" height=\"20\" fill=\"#2c5aa0\"/>\n",
    "<rect x=\"20\" y=\"0\" width=\"20\" height=\"20\" fill=\"#f1e7cc\"/>\n",
    "</svg>\n",
);

#[test]
fn a_board_picture_is_shown_in_the_html_and_attached_and_the_text_stays_first() {
    let mut mail = board_mail();
    mail.picture = Some(PICTURE.to_string());
    let bytes = mail.to_bytes().unwrap();
    assert_eq!(bytes, mail.to_bytes().unwrap(), "the same bytes every time");
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    assert_eq!(parsed.ctype.mimetype, "multipart/mixed");
    assert_eq!(parsed.subparts.len(), 2);
    let alternative = &parsed.subparts[0];
    assert_eq!(alternative.ctype.mimetype, "multipart/alternative");
    // The plain text first and unchanged, byte for byte.
    let plain = &alternative.subparts[0];
    assert_eq!(plain.ctype.mimetype, "text/plain");
    assert_eq!(plain.get_body_raw().unwrap(), crlf(BOARD).into_bytes());
    // The HTML with the picture it shows beside it.
    let related = &alternative.subparts[1];
    assert_eq!(related.ctype.mimetype, "multipart/related");
    let html = related.subparts[0].get_body().unwrap();
    let inline = &related.subparts[1];
    assert_eq!(inline.ctype.mimetype, "image/png");
    let id = inline
        .headers
        .get_first_value("Content-ID")
        .expect("a Content-ID");
    let id = id.trim_start_matches('<').trim_end_matches('>');
    assert!(
        html.contains(&format!("<img src=\"cid:{id}\" width=\"40\" height=\"20\"")),
        "{html}"
    );
    let html = html.replace("\r\n", "\n");
    assert_eq!(pre_content(&html), BOARD_ESCAPED);
    // And attached, the same PNG.
    let attached = &parsed.subparts[1];
    assert_eq!(attached.ctype.mimetype, "image/png");
    let disposition = attached.get_content_disposition();
    assert_eq!(
        disposition.disposition,
        mailparse::DispositionType::Attachment
    );
    assert_eq!(
        disposition.params.get("filename").map(String::as_str),
        Some("board.png")
    );
    let png = attached.get_body_raw().unwrap();
    assert_eq!(png, inline.get_body_raw().unwrap());
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    // orderly's own intake still reads the text of such a mail.
    let read = intake::parse(&bytes).unwrap();
    assert!(
        read.text.contains("From here you may order:"),
        "{}",
        read.text
    );
}

#[test]
fn a_text_only_mail_or_a_broken_picture_goes_out_without_it() {
    let mut mail = board_mail();
    mail.picture = Some(PICTURE.to_string());
    mail.text_only = true;
    let bytes = mail.to_bytes().unwrap();
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    assert_eq!(parsed.ctype.mimetype, "text/plain");
    mail.text_only = false;
    mail.picture = Some("<svg this is not".to_string());
    let bytes = mail.to_bytes().unwrap();
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    assert_eq!(parsed.ctype.mimetype, "multipart/alternative");
    assert_eq!(parsed.subparts.len(), 2);
}
