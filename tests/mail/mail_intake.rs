//! Reading incoming mail: the fixtures under tests/data/mail, each with its
//! extracted fields and text asserted exactly; `parse` never panicking on
//! arbitrary or damaged input; and the Maildir the mail arrives in.

use std::path::PathBuf;

use chrono::DateTime;
use orderly::mail::intake::{parse, Address, Automatic, Incoming, IntakeError};
use orderly::mail::maildir::Maildir;
use proptest::prelude::*;

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/mail")
}

fn raw(name: &str) -> Vec<u8> {
    let path = fixture_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(name: &str) -> Incoming {
    parse(&raw(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn addr(name: Option<&str>, address: &str) -> Option<Address> {
    Some(Address {
        name: name.map(str::to_string),
        address: address.to_string(),
    })
}

fn date(text: &str) -> Option<DateTime<chrono::FixedOffset>> {
    Some(DateTime::parse_from_rfc3339(text).unwrap())
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn plain_utf8_order_with_a_flowed_line() {
    let m = read("plain_utf8.eml");
    assert_eq!(
        m.message_id.as_deref(),
        Some("20261121101502.GA1234@example.com")
    );
    assert_eq!(m.from, addr(Some("Ann Lee"), "ann.lee@example.com"));
    assert!(!m.sender_is_null);
    assert_eq!(m.to, ids(&["orderly@example.org"]));
    assert!(m.cc.is_empty());
    assert_eq!(m.delivered_to, ids(&["orderly+g42.k7xq2m@example.org"]));
    assert_eq!(m.subject, "Game 42: my turn");
    assert!(m.in_reply_to.is_empty() && m.references.is_empty());
    assert_eq!(m.date, date("2026-11-21T10:15:02+01:00"));
    assert_eq!(
        m.text,
        "Hello,\n\nMOVE G2CR G1C\nAttack B1C from G1C supported by G1CR, and if that \
         fails I will think of something else — see you in the woods ☺\n\
         From the hill, with love"
    );
    assert_eq!(m.full_text, format!("{}\n\n", m.text));
    assert_eq!(m.automatic, None);
    assert!(m.is_from("ANN.LEE@example.com"));
    assert!(m.is_from("ann.lee+chess@example.com"));
    assert!(!m.is_from("ann@example.com"));
}

#[test]
fn html_only_is_converted_and_its_blockquote_stripped() {
    let m = read("html_only.eml");
    assert_eq!(m.from, addr(Some("Tom O'Hara"), "tom@example.net"));
    assert_eq!(m.to, ids(&["orderly+g42.p3n8vx@example.org"]));
    assert_eq!(m.in_reply_to, ids(&["orderly.g42.t19@example.org"]));
    assert_eq!(m.date, date("2026-11-21T11:00:00-05:00"));
    assert_eq!(
        m.text,
        "MOVE B3C B2CR\nATTACK B1C G1C\nSUPPORT B1CL\nTom & Jerry say <hi> 'cheers'"
    );
    assert_eq!(
        m.full_text,
        format!("{}\n> Blue to move\n> +----+\n> | BR |", m.text)
    );
    assert_eq!(m.automatic, None);
}

#[test]
fn alternative_prefers_plain_text_and_skips_attachments() {
    let m = read("alternative.eml");
    assert_eq!(m.message_id.as_deref(), Some("alt-0001@example.com"));
    assert_eq!(m.from, addr(Some("Ann Lee"), "ann.lee@example.com"));
    assert_eq!(m.text, "PASS\n\nYour move, Tom – good luck.");
    assert_eq!(m.full_text, m.text);
    assert_eq!(m.automatic, None);
}

#[test]
fn base64_latin1_with_a_french_attribution() {
    let m = read("base64_latin1.eml");
    assert_eq!(m.from, addr(Some("François Pérez"), "francois@example.fr"));
    assert_eq!(m.subject, "Re: Partie 42 à Gettysburg");
    assert_eq!(m.to, ids(&["orderly+g42.q7m2ax@example.org"]));
    // The "(CET)" comment after the offset is ignored.
    assert_eq!(m.date, date("2026-11-21T12:01:09+01:00"));
    assert_eq!(m.text, "Bonjour,\n\nMOVE G3C G2CL\nÀ bientôt, François");
    assert_eq!(
        m.full_text,
        "Bonjour,\n\nMOVE G3C G2CL\nÀ bientôt, François\n\n\
         Le sam. 21 nov. 2026 à 10:02, orderly <orderly+g42.q7m2ax@example.org> a écrit :\n\
         > Au tour de Gris.\n> MOVE ?\n"
    );
}

#[test]
fn quoted_printable_windows_1252_with_a_german_attribution() {
    let m = read("qp_windows1252.eml");
    assert_eq!(m.from, addr(Some("Jürgen Müller"), "juergen@example.de"));
    assert_eq!(m.subject, "Zug für Spiel 42");
    assert_eq!(m.message_id.as_deref(), Some("qp1252-42@example.de"));
    assert_eq!(
        m.text,
        "Hallo,\n\nATTACK G1C B1C + G1CR\nDer Preis: 5 €. Grüße aus Köln, und dies ist \
         eine sehr lange Zeile, die weich umbrochen werden muss, damit sie passt."
    );
    assert!(m.full_text.ends_with(
        "Am 21.11.2026 um 10:02 schrieb orderly <orderly+g42.z9w3ht@example.org>:\n\
         > Grau am Zug.\n"
    ));
}

#[test]
fn reply_with_a_quoted_board_and_a_wrapped_attribution() {
    let m = read("reply_quoted_board.eml");
    assert_eq!(
        m.message_id.as_deref(),
        Some("CAKx=reply-0042@mail.gmail.example")
    );
    assert_eq!(
        m.from,
        addr(Some("Gray Player"), "grayplayer@gmail.example")
    );
    assert_eq!(m.to, ids(&["orderly+g42.k7xq2m@example.org"]));
    assert_eq!(m.delivered_to, ids(&["orderly+g42.k7xq2m@example.org"]));
    assert_eq!(m.subject, "Re: [orderly] Game 42, turn 20: Gray to decide");
    assert_eq!(m.in_reply_to, ids(&["orderly.g42.t20.blue@example.org"]));
    assert_eq!(
        m.references,
        ids(&[
            "orderly.g42.t19.gray@example.org",
            "orderly.g42.t20.blue@example.org"
        ])
    );
    assert_eq!(m.date, date("2026-11-21T10:20:45+00:00"));
    assert_eq!(m.text, "RETREAT B2CR THEN BR\nOuch.");
    assert!(m.full_text.contains(
        "On Sat, 21 Nov 2026 at 10:02, orderly <orderly+g42.k7xq2m@example.org>\nwrote:\n\n\
         > SQUARES - Gray's view"
    ));
    assert!(m
        .full_text
        .ends_with("> Gray to decide: retreat from G1C (R20).\n"));
}

#[test]
fn signature_ends_the_text() {
    let m = read("signature.eml");
    assert_eq!(m.text, "  MOVE G2R G3R\n  MOVE G2L G3L");
    assert_eq!(
        m.full_text,
        "  MOVE G2R G3R   \t\n  MOVE G2L G3L\n\n-- \nAnn Lee\nPASS is not an order here\n"
    );
}

#[test]
fn end_line_ends_the_text() {
    let m = read("end_line.eml");
    // No charset: UTF-8 is tried first.
    assert_eq!(m.from, addr(None, "tom@example.net"));
    assert_eq!(m.text, "1. MOVE B3C B2CR\n2. ATTACK B1C G1C");
    assert_eq!(
        m.full_text,
        "1. MOVE B3C B2CR\n2. ATTACK B1C G1C\n   End  \n\nGet Outlook for Android\n"
    );
}

#[test]
fn outlook_reply_is_cut_at_its_header_block() {
    let m = read("outlook_reply.eml");
    assert_eq!(m.from, addr(Some("Blue, Colonel"), "colonel@corp.example"));
    assert_eq!(m.to, ids(&["orderly+g7.m2k4rq@example.org"]));
    assert_eq!(m.text, "MOVE BR B3C\n\nRegards,\nColonel Blue");
    // Exchange asks others not to answer; that does not make it automatic.
    assert_eq!(m.automatic, None);
}

#[test]
fn auto_submitted_reply_is_automatic() {
    let m = read("auto_replied.eml");
    assert_eq!(m.automatic, Some(Automatic::AutoSubmitted));
    assert_eq!(m.in_reply_to, ids(&["orderly.g42.t21@example.org"]));
    assert_eq!(
        m.text,
        "I am away until 1 December with no access to e-mail."
    );
}

#[test]
fn vacation_reply_is_automatic() {
    let m = read("vacation.eml");
    assert_eq!(m.automatic, Some(Automatic::AutoReply));
    assert_eq!(m.text, "On holiday. PASS");
}

#[test]
fn bounce_is_automatic_and_reads_its_human_part() {
    let m = read("bounce.eml");
    assert_eq!(m.automatic, Some(Automatic::Bounce));
    assert!(m.sender_is_null);
    assert_eq!(
        m.from,
        addr(Some("Mail Delivery System"), "mailer-daemon@mx.example.org")
    );
    assert_eq!(
        m.message_id.as_deref(),
        Some("20261122150000.9C1D3C0042@mx.example.org")
    );
    assert_eq!(m.delivered_to, ids(&["orderly@example.org"]));
    assert_eq!(
        m.text,
        "This is the mail system at host mx.example.org.\n\n\
         I'm sorry to have to inform you that your message could not\n\
         be delivered to one or more recipients.\n\n\
         <gone@example.com>: host mx.example.com said: 550 5.1.1 User unknown"
    );
}

#[test]
fn bulk_mail_is_automatic() {
    let m = read("bulk.eml");
    assert_eq!(m.automatic, Some(Automatic::Bulk));
    assert_eq!(m.from, addr(Some("Wargame News"), "news@news.example.com"));
    assert_eq!(m.text, "MOVE to our new website!");
}

#[test]
fn malformed_mime_is_read_as_far_as_it_goes() {
    let m = read("malformed_mime.eml");
    assert_eq!(m.message_id.as_deref(), Some("broken-0001@example.com"));
    assert_eq!(m.from, addr(Some("Sloppy Client"), "sloppy@example.com"));
    assert_eq!(m.to, ids(&["orderly+g42.k7xq2m@example.org"]));
    assert_eq!(m.subject, "broken");
    assert_eq!(m.date, None);
    // The text/plain part's base64 is garbage; the HTML part, never closed,
    // is the first readable text.
    assert_eq!(m.text, "MOVE B2CL B1CL");
    assert_eq!(m.automatic, None);
}

#[test]
fn a_part_mailparse_refuses_leaves_the_headers() {
    let m = read("malformed_part.eml");
    assert_eq!(m.message_id.as_deref(), Some("broken-0002@example.com"));
    assert_eq!(m.from, addr(Some("Sloppy Client"), "sloppy@example.com"));
    assert_eq!(m.subject, "broken part");
    assert_eq!(m.text, "");
    assert_eq!(m.full_text, "");
}

#[test]
fn no_message_id_and_no_date() {
    let m = read("no_message_id.eml");
    assert_eq!(m.message_id, None);
    assert_eq!(m.date, None);
    assert_eq!(m.from, addr(None, "ann.lee@example.com"));
    assert_eq!(m.subject, "PASS");
    assert_eq!(m.text, "PASS");
}

#[test]
fn subaddresses_are_kept_lower_cased() {
    let m = read("subaddress.eml");
    assert_eq!(m.from, addr(Some("Lee, Ann"), "ann.lee+games@example.com"));
    assert!(m.is_from("ann.lee@example.com"));
    assert_eq!(
        m.to,
        ids(&["orderly+g42.k7xq2m@example.org", "tom@example.net"])
    );
    assert_eq!(
        m.cc,
        ids(&["umpire@example.com", "orderly+g42.k7xq2m@example.org"])
    );
    assert_eq!(
        m.delivered_to,
        ids(&["orderly@example.org", "orderly+g42.k7xq2m@example.org"])
    );
    // No day name, no seconds.
    assert_eq!(m.date, date("2026-11-23T08:00:00+00:00"));
    assert_eq!(m.text, "OPTION 2");
    let recipients: Vec<&str> = m.recipients().collect();
    assert_eq!(recipients.len(), 6);
    assert!(recipients.contains(&"orderly+g42.k7xq2m@example.org"));
}

#[test]
fn every_fixture_has_a_test() {
    let mut names: Vec<String> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The delivery reports among the fixtures are tested with the bounce
    // parser.
    let source = [
        include_str!("mail_intake.rs"),
        include_str!("../../src/mail/bounce.rs"),
    ]
    .concat();
    for name in names {
        assert!(source.contains(&format!("\"{name}\"")), "{name} untested");
    }
}

#[test]
fn unreadable_messages_are_refused_with_a_reason() {
    assert_eq!(parse(b""), Err(IntakeError::Empty));
    assert_eq!(parse(b" \r\n\r\n"), Err(IntakeError::Empty));
    assert_eq!(parse(b"\r\njust a body"), Err(IntakeError::NoHeaders));
    assert_eq!(
        parse(b"hello there, no headers here\n"),
        Err(IntakeError::NoHeaders)
    );
    assert_eq!(
        IntakeError::NoHeaders.to_string(),
        "the message has no headers"
    );
    let err = parse(b" folded: at the start\n\nbody").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the message headers could not be read"),
        "{err}"
    );
}

// ----- replies quoting orderly's own mail ----------------------------------

/// A board mail as orderly sends it, with lines that would be orders if
/// they were read: a quoted board must never be taken for the reply.
const OUR_TEXT: &str = concat!(
    "orderly game 42: SQUARES, turn 20. Gray to move.\n",
    "\n",
    "     a     b     c\n",
    "   +-----+-----+-----+\n",
    " 1 | B1C | <R> |  &  |\n",
    "   +-----+-----+-----+\n",
    "\n",
    "You may order, for example:\n",
    "MOVE G2CR G1C\n",
    "ATTACK B1C FROM G1C\n",
    "PASS\n",
);

fn our_mail() -> orderly::mail::outgoing::OutgoingMail {
    use orderly::mail::outgoing::{AutoKind, OutgoingMail};
    OutgoingMail {
        message_id: "5f1e0c2a9b7d4e3f8a6b1c0d@example.org".into(),
        from: "orderly <orderly@example.org>".into(),
        to: "Gray Player <gray@example.net>".into(),
        reply_to: Some("orderly+g42.k7xq2m@example.org".into()),
        subject: "orderly game 42: SQUARES".into(),
        in_reply_to: None,
        references: Vec::new(),
        list_id: Some("<game-42.example.org>".into()),
        body: OUR_TEXT.into(),
        date: chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 11, 21, 10, 2, 0).unwrap(),
        auto: AutoKind::Replied,
        return_path: None,
        text_only: false,
        picture: None,
    }
}

/// Our mail's HTML part, decoded, and the `<pre>` element in it: what a
/// client keeps of our HTML when it quotes it (the head goes).
fn our_html_pre() -> String {
    let bytes = our_mail().to_bytes().unwrap();
    let parsed = mailparse::parse_mail(&bytes).unwrap();
    let html = parsed.subparts[1].get_body().unwrap();
    let start = html.find("<pre").unwrap();
    let end = html.find("</pre>").unwrap() + "</pre>".len();
    html[start..end].to_string()
}

/// A reply from Gray's client with `content_type` and a quoted-printable
/// body, threaded on our mail.
fn reply(content_type: &str, body: &str) -> Vec<u8> {
    use lettre::message::header::ContentTransferEncoding;
    use lettre::message::Body;
    let encoded =
        Body::new_with_encoding(body.to_string(), ContentTransferEncoding::QuotedPrintable)
            .unwrap();
    let mut raw = format!(
        "Return-Path: <gray@example.net>\r\n\
         From: Gray Player <gray@example.net>\r\n\
         To: orderly <orderly+g42.k7xq2m@example.org>\r\n\
         Subject: Re: orderly game 42: SQUARES\r\n\
         Date: Sat, 21 Nov 2026 10:20:45 +0000\r\n\
         Message-ID: <reply-html-0042@mail.example.net>\r\n\
         In-Reply-To: <5f1e0c2a9b7d4e3f8a6b1c0d@example.org>\r\n\
         References: <5f1e0c2a9b7d4e3f8a6b1c0d@example.org>\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: {content_type}\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n\r\n"
    )
    .into_bytes();
    raw.extend_from_slice(encoded.as_ref());
    raw.extend_from_slice(b"\r\n");
    raw
}

/// What every reply below says above the quote.
const ORDERS: &str = "MOVE B3C B2CR\nATTACK B1C G1C";

#[test]
fn our_mail_read_back_is_its_plain_text() {
    let m = parse(&our_mail().to_bytes().unwrap()).unwrap();
    assert_eq!(m.full_text, OUR_TEXT);
    // Orderly's own mail is automatic: were it to come back, it would not
    // be answered.
    assert_eq!(m.automatic, Some(Automatic::AutoSubmitted));
}

#[test]
fn an_html_only_reply_quoting_our_board_in_a_blockquote_reads_the_orders_only() {
    let pre = our_html_pre();
    // Apple Mail (iOS): the attribution in one blockquote, our mail's body
    // in the next, our `<pre>` kept with its style.
    let apple = format!(
        "<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=utf-8\"></head>\
         <body dir=\"auto\"><div dir=\"ltr\">MOVE B3C B2CR</div><div dir=\"ltr\">ATTACK B1C G1C</div>\
         <div dir=\"ltr\"><br><blockquote type=\"cite\">On 21 Nov 2026, at 10:02, orderly \
         &lt;orderly+g42.k7xq2m@example.org&gt; wrote:<br><br></blockquote></div>\
         <blockquote type=\"cite\"><div dir=\"ltr\">{pre}\n</div></blockquote></body></html>"
    );
    // Gmail: the attribution in a div, the quote in a styled blockquote.
    let gmail = format!(
        "<div dir=\"ltr\"><div>MOVE B3C B2CR</div><div>ATTACK B1C G1C</div></div><br>\
         <div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Sat, 21 Nov 2026 at \
         10:02, orderly &lt;<a href=\"mailto:orderly+g42.k7xq2m@example.org\">\
         orderly+g42.k7xq2m@example.org</a>&gt; wrote:<br></div><blockquote class=\"gmail_quote\" \
         style=\"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex\">\
         <div>{pre}</div></blockquote></div>\n"
    );
    // Thunderbird: a cite prefix, then the blockquote with the whole body.
    let thunderbird = format!(
        "<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv=\"Content-Type\" \
         content=\"text/html; charset=UTF-8\">\n  </head>\n  <body>\n    <p>MOVE B3C B2CR<br>\n\
         ATTACK B1C G1C</p>\n    <div class=\"moz-cite-prefix\">On 21/11/2026 10:02, orderly wrote:<br>\n\
         </div>\n    <blockquote type=\"cite\" \
         cite=\"mid:5f1e0c2a9b7d4e3f8a6b1c0d@example.org\">\n      {pre}\n    </blockquote>\n\
         </body>\n</html>\n"
    );
    for (client, html) in [
        ("Apple Mail", apple),
        ("Gmail", gmail),
        ("Thunderbird", thunderbird),
    ] {
        let m = parse(&reply("text/html; charset=UTF-8", &html)).unwrap();
        assert_eq!(m.text, ORDERS, "{client}:\n{}", m.full_text);
        // The board was there, line for line, and was read as quoted.
        for line in [
            "> MOVE G2CR G1C",
            "> ATTACK B1C FROM G1C",
            ">  1 | B1C | <R> |  &  |",
        ] {
            assert!(
                m.full_text.lines().any(|l| l == line),
                "{client}: {line:?} not in\n{}",
                m.full_text
            );
        }
        assert_eq!(m.automatic, None, "{client}");
    }
}

#[test]
fn an_html_only_reply_with_our_board_under_an_outlook_header_block_reads_the_orders_only() {
    let pre = our_html_pre();
    // Outlook on the web: no blockquote, a rule and a header block above
    // our mail's body.
    let html = format!(
        "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\
         </head><body><div style=\"font-family: Aptos, sans-serif; font-size: 12pt\">\
         MOVE B3C B2CR</div><div style=\"font-family: Aptos, sans-serif; font-size: 12pt\">\
         ATTACK B1C G1C</div><div id=\"appendonsend\"></div>\
         <hr style=\"display:inline-block;width:98%\" tabindex=\"-1\">\
         <div id=\"divRplyFwdMsg\" dir=\"ltr\"><font face=\"Calibri, sans-serif\" \
         style=\"font-size:11pt\" color=\"#000000\"><b>From:</b> orderly \
         &lt;orderly+g42.k7xq2m@example.org&gt;<br><b>Sent:</b> Saturday, November 21, 2026 \
         10:02 AM<br><b>To:</b> Gray Player &lt;gray@example.net&gt;<br><b>Subject:</b> \
         orderly game 42: SQUARES</font><div>&nbsp;</div></div><div>{pre}</div></body></html>"
    );
    let m = parse(&reply("text/html; charset=utf-8", &html)).unwrap();
    assert_eq!(m.text, ORDERS, "{}", m.full_text);
    assert!(m.full_text.contains("\nMOVE G2CR G1C\n"), "{}", m.full_text);
}

#[test]
fn a_reply_with_both_parts_quoting_ours_reads_its_plain_text() {
    let pre = our_html_pre();
    let quoted: String = OUR_TEXT.lines().map(|l| format!("> {l}\n")).collect();
    let plain = format!(
        "{ORDERS}\n\nOn Sat, 21 Nov 2026 at 10:02, orderly <orderly+g42.k7xq2m@example.org> \
         wrote:\n\n{quoted}"
    );
    let html = format!(
        "<div dir=\"ltr\">MOVE B3C B2CR<br>ATTACK B1C G1C</div><br><div class=\"gmail_quote\">\
         <blockquote class=\"gmail_quote\">{pre}</blockquote></div>"
    );
    let body = format!(
        "--000000000000a1b2c3\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\n{}\r\n\
         --000000000000a1b2c3\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n{}\r\n\
         --000000000000a1b2c3--\r\n",
        plain.replace('\n', "\r\n"),
        html
    );
    // The outer part is 7bit here; the helper's quoted-printable is for
    // single parts, so the multipart is assembled by hand.
    let head = String::from_utf8(reply("text/plain", "")).unwrap();
    let head = &head[..head.find("\r\n\r\n").unwrap()];
    let head = head
        .replace(
            "Content-Type: text/plain",
            "Content-Type: multipart/alternative; boundary=\"000000000000a1b2c3\"",
        )
        .replace("quoted-printable", "7bit");
    let raw = format!("{head}\r\n\r\n{body}");
    let m = parse(raw.as_bytes()).unwrap();
    assert_eq!(m.text, ORDERS);
    assert_eq!(m.full_text, plain);
}

// ----- never panics --------------------------------------------------------

/// The case count: `default`, or `PROPTEST_CASES` for a longer run.
fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}

fn fixtures() -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// One edit of a message: the kinds of damage mail suffers in transit and
/// in sloppy clients.
#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, byte: u8 },
    Delete { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    Truncate { at: usize },
    Duplicate { at: usize, len: usize },
}

fn interesting_bytes() -> impl Strategy<Value = Vec<u8>> {
    let pieces = prop::sample::select(vec![
        &b"\r\n"[..],
        b"\n",
        b"\r",
        b"--",
        b"boundary=",
        b"Content-Type: multipart/mixed; boundary=x\r\n",
        b"Content-Transfer-Encoding: base64\n",
        b"Content-Transfer-Encoding: quoted-printable\n",
        b"charset=\"utf-7\"",
        b"=?utf-8?B?w6k=?=",
        b"=?x?Q?=FF?=",
        b"<",
        b">",
        b"&#x110000;",
        b"&amp",
        b"<blockquote>",
        b"<script>",
        b" ",
        b"\xff\xfe",
        b"\x00",
        b"On a wrote:",
        b"-- ",
    ]);
    prop::collection::vec(pieces, 1..4).prop_map(|v| v.concat())
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        (at, any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        (at, 1usize..64).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (
            at,
            prop_oneof![
                prop::collection::vec(any::<u8>(), 1..16),
                interesting_bytes()
            ]
        )
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        at.prop_map(|at| Mutation::Truncate { at }),
        (at, 1usize..200).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

fn apply(raw: &mut Vec<u8>, m: &Mutation) {
    let n = raw.len().max(1);
    match m {
        Mutation::Flip { at, byte } => {
            if let Some(b) = raw.get_mut(at % n) {
                *b = *byte;
            }
        }
        Mutation::Delete { at, len } => {
            let start = (at % n).min(raw.len());
            let end = (start + len).min(raw.len());
            raw.drain(start..end);
        }
        Mutation::Insert { at, bytes } => {
            let at = (at % n).min(raw.len());
            raw.splice(at..at, bytes.iter().copied());
        }
        Mutation::Truncate { at } => raw.truncate(at % n),
        Mutation::Duplicate { at, len } => {
            let start = (at % n).min(raw.len());
            let end = (start + len).min(raw.len());
            let chunk = raw[start..end].to_vec();
            raw.splice(end..end, chunk);
        }
    }
}

/// What holds of every message `parse` accepts.
fn check(m: &Incoming) -> Result<(), TestCaseError> {
    for line in m.text.lines() {
        prop_assert!(!line.trim_start().starts_with('>'), "quoted: {line:?}");
        prop_assert_eq!(line, line.trim_end());
    }
    prop_assert!(!m.text.contains('\r') && !m.full_text.contains('\r'));
    prop_assert_eq!(m.text.trim_matches('\n'), m.text.as_str());
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn parse_never_panics_on_arbitrary_bytes(raw in prop::collection::vec(any::<u8>(), 0..1500)) {
        if let Ok(m) = parse(&raw) {
            check(&m)?;
        }
    }

    #[test]
    fn parse_never_panics_on_mutated_fixtures(
        which in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..8),
    ) {
        let all = fixtures();
        let mut raw = all[which.index(all.len())].clone();
        for m in &mutations {
            apply(&mut raw, m);
        }
        if let Ok(m) = parse(&raw) {
            check(&m)?;
        }
    }

    #[test]
    fn parse_never_panics_on_header_soup(
        lines in prop::collection::vec(interesting_bytes(), 0..40),
        body in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let mut raw = b"From: a@b.example\r\n".to_vec();
        for l in &lines {
            raw.extend_from_slice(l);
        }
        raw.extend_from_slice(b"\r\n\r\n");
        raw.extend_from_slice(&body);
        if let Ok(m) = parse(&raw) {
            check(&m)?;
        }
    }
}

// ----- Maildir -------------------------------------------------------------

/// A fresh Maildir under cargo's scratch directory for integration tests.
fn scratch(name: &str) -> (PathBuf, Maildir) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mail_intake-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let maildir = Maildir::open_or_create(&dir).unwrap();
    (dir, maildir)
}

#[test]
fn maildir_delivers_lists_reads_and_marks_done() {
    let (dir, maildir) = scratch("cycle");
    let first = maildir.deliver(&raw("plain_utf8.eml")).unwrap();
    let second = maildir.deliver(&raw("signature.eml")).unwrap();
    assert!(first.starts_with(dir.join("new")));
    assert_eq!(std::fs::read_dir(dir.join("tmp")).unwrap().count(), 0);

    let entries = maildir.new_messages().unwrap();
    assert_eq!(entries.len(), 2);
    // Sorted by name, which is delivery order within one process.
    assert_eq!(entries[0].path, first);
    assert_eq!(entries[1].path, second);
    assert!(!entries[0].id.contains(':'));

    let m = parse(&maildir.read(&entries[0]).unwrap()).unwrap();
    assert_eq!(
        m.message_id.as_deref(),
        Some("20261121101502.GA1234@example.com")
    );

    maildir.mark_done(&entries[0]).unwrap();
    assert_eq!(maildir.new_messages().unwrap().len(), 1);
    let cur = maildir.cur_messages().unwrap();
    assert_eq!(cur.len(), 1);
    assert_eq!(cur[0].id, entries[0].id);
    let name = cur[0]
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(name, format!("{}:2,S", entries[0].id));

    // A restart after a crash between the rename and its report.
    maildir.mark_done(&entries[0]).unwrap();
    maildir.mark_done(&entries[1]).unwrap();
    assert!(maildir.new_messages().unwrap().is_empty());
    assert_eq!(maildir.cur_messages().unwrap().len(), 2);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn maildir_names_are_unique_across_many_deliveries() {
    let (dir, maildir) = scratch("unique");
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let maildir = maildir.clone();
            std::thread::spawn(move || {
                (0..250)
                    .map(|i| maildir.deliver(format!("Subject: {i}\n\nx\n").as_bytes()))
                    .collect::<Result<Vec<_>, _>>()
            })
        })
        .collect();
    let mut paths = Vec::new();
    for t in threads {
        paths.extend(t.join().unwrap().unwrap());
    }
    let listed = maildir.new_messages().unwrap();
    assert_eq!(listed.len(), 1000);
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), 1000);
    let mut ids: Vec<&str> = listed.iter().map(|e| e.id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), 1000);
    std::fs::remove_dir_all(dir).unwrap();
}

// ----- what mail clients really send ---------------------------------------------

/// Each line of a mail's text, read as orderly reads it for a game of
/// SQUARES: `order: <text>`, `command: <text>` or `prose`.
fn readings(m: &Incoming) -> Vec<String> {
    use orderly::service::lines::{LineReader, Reading};
    let from = m.from.clone().unwrap();
    let names = [from.address.as_str(), from.name.as_deref().unwrap_or("")];
    let reader = LineReader::new(Some("squares"), names);
    m.text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match reader.read(l) {
            Reading::Order(text) | Reading::Mixed(text) => format!("order: {text}"),
            Reading::Command { text, .. } => format!("command: {text}"),
            Reading::Prose { .. } => "prose".to_string(),
        })
        .collect()
}

#[test]
fn gmail_multipart_quoted_printable_with_a_signature_and_a_quote() {
    let m = read("gmail_multipart_qp.eml");
    assert_eq!(m.from, addr(Some("Ann Lee"), "ann.lee@gmail.example"));
    assert_eq!(m.in_reply_to, ids(&["orderly.g1.t5@example.org"]));
    // The plain part, not the HTML one; the signature and the quote cut.
    assert_eq!(
        m.text,
        "Hi Bob,\n\nOK then: move cav to B3C\n\nCheers,\nAnn"
    );
    assert!(m.full_text.contains("Ann Lee \u{2014} Squares club"));
    assert_eq!(
        readings(&m),
        ["prose", "order: move cav to B3C", "prose", "prose"]
    );
}

#[test]
fn outlook_windows_1252_top_posted_above_an_unquoted_original() {
    let m = read("outlook_1252_top_posted.eml");
    assert_eq!(
        m.from,
        addr(Some("M\u{fc}ller, Ann"), "ann.mueller@corp.example")
    );
    assert_eq!(
        m.automatic, None,
        "X-Auto-Response-Suppress is no auto-reply"
    );
    // Everything from -----Original Message----- on is the original.
    assert_eq!(
        m.text,
        "Hello Bob,\n\nI\u{2019}ll attack G1C B1C + G1CR.\n\nBest regards,\nAnn M\u{fc}ller"
    );
    assert_eq!(
        readings(&m),
        ["prose", "order: attack G1C B1C + G1CR", "prose", "prose"]
    );
}

#[test]
fn thunderbird_bottom_posted_below_the_quote() {
    let m = read("thunderbird_bottom_posted.eml");
    assert_eq!(m.from, addr(Some("Bob Gray"), "bob@example.net"));
    // The attribution and the quote go; what is written below them stays.
    assert_eq!(m.text, "inf GR G3C\n\nThanks,\nBob");
    assert_eq!(readings(&m), ["order: inf GR G3C", "prose", "prose"]);
}

#[test]
fn iphone_footer_above_a_quoted_attribution() {
    let m = read("iphone_accept.eml");
    assert_eq!(m.text, "Accept.\n\nSent from my iPhone");
    assert_eq!(readings(&m), ["command: Accept.", "prose"]);
}

#[test]
fn yahoo_html_only_with_its_quote_in_a_blockquote() {
    let m = read("yahoo_html_only.eml");
    assert_eq!(
        m.text,
        "Dear Ann,\n\nRetreat to BR!\n\nGood luck!\nBob\n\nSent from Yahoo Mail for iPhone"
    );
    assert_eq!(
        readings(&m),
        ["prose", "order: Retreat to BR", "prose", "prose", "prose"]
    );
}

proptest! {
    #![proptest_config(config(512))]

    /// Any line, in any script and punctuation, is read as something, and
    /// the text an order or a command is read from is taken from the line.
    #[test]
    fn every_line_is_read_as_something(
        line in "[a-zA-Z0-9 ,.:;!?'\u{2019}()\u{2014}\u{e9}\u{fc}\u{202f}+-]{1,80}",
    ) {
        use orderly::service::lines::{LineReader, Reading};
        for game in [Some("squares"), Some("napoleonic"), None] {
            let reader = LineReader::new(game, ["Ann Lee", "ann@example.org"]);
            match reader.read(&line) {
                Reading::Order(text) | Reading::Mixed(text) | Reading::Command { text, .. } => {
                    prop_assert!(!text.trim().is_empty(), "{line:?}");
                    prop_assert!(line.replace('\u{2019}', "'").contains(&text), "{line:?} -> {text:?}");
                }
                Reading::Prose { .. } => {}
            }
        }
    }
}

#[test]
fn outlooks_html_header_block_without_a_blank_line_cuts_the_original() {
    // Outlook's HTML reply: the original under a bordered div whose first
    // line is the From field, with no blank line or rule before it.
    let raw = "From: bob@example.org\r\nTo: orderly@example.org\r\nSubject: RE: x\r\n\
               Content-Type: text/html; charset=utf-8\r\n\r\n\
               <html><body><div><p>PASS</p><p>Bob</p></div>\
               <div style=\"border:none;border-top:solid #E1E1E1 1.0pt\">\
               <p><b>From:</b> orderly &lt;orderly@example.org&gt;<br>\
               <b>Sent:</b> Tuesday, November 24, 2026 10:00 AM<br>\
               <b>To:</b> bob@example.org<br><b>Subject:</b> Game 2: your move</p></div>\
               <p>ADVANCE: your infantry moves</p><p>STAY: it stays</p></body></html>\r\n";
    let m = parse(raw.as_bytes()).unwrap();
    assert_eq!(m.text, "PASS\nBob");
}
