//! Mail as people write it, through the real service (Maildir, SQLite,
//! file transport): a whole game of SQUARES in which every mail comes the
//! way a real client sends it — Gmail's multipart/alternative with a
//! quoted-printable text part, a `-- ` signature and a quote; Outlook's
//! Windows-1252 reply on top of an unquoted original; Thunderbird's reply
//! below the quote; an iPhone's footer; Yahoo's HTML-only mail; German and
//! French attributions — with greetings, names, sign-offs and footers
//! around the orders. No order a person would call clear may be refused
//! or voided, and the prose is listed as ignored.

#[path = "../common/mod.rs"]
mod common;

use std::collections::HashSet;

use chrono::{DateTime, Duration, TimeZone, Utc};
use common::player::attack_preferring;
use common::rng::XorShift;
use common::site::{to, Out, Site, ORDERLY};
use orderly::games::squares::Squares;
use orderly::games::{Game, GameOptions, Seat};
use orderly::service::Processed;

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

/// A player: address, display name, and what they sign with.
#[derive(Clone, Copy)]
struct Player {
    address: &'static str,
    name: &'static str,
    first: &'static str,
}

const ANN_LEE: Player = Player {
    address: ANN,
    name: "Ann Lee",
    first: "Ann",
};
const BOB_GRAY: Player = Player {
    address: BOB,
    name: "Bob Gray",
    first: "Bob",
};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap()
}

/// This file's sites (tests/common/site.rs): every mail processed a
/// minute after the one before.
impl Site {
    fn new(name: &str) -> Site {
        Site::open("orderly-habits", name, |_| {})
    }

    /// Delivers a raw mail to the Maildir and processes what waits there,
    /// a minute after the previous mail; returns what became of it and the
    /// mails the service wrote.
    fn deliver(&mut self, raw: &[u8]) -> (Processed, Vec<Out>) {
        self.counter += 1;
        let now = t0() + Duration::minutes(i64::from(self.counter));
        self.inbox.deliver(raw).unwrap();
        let waiting = self.inbox.new_messages().unwrap();
        assert_eq!(waiting.len(), 1);
        let raw = self.inbox.read(&waiting[0]).unwrap();
        let done = self.service.process(&raw, now).unwrap();
        self.inbox.mark_done(&waiting[0]).unwrap();
        self.service.drain_outbox(now).unwrap();
        (done, self.collect())
    }
}

// ----- how clients write ---------------------------------------------------------

/// Quoted-printable, as clients write it: `=XX` for `=` and bytes outside
/// ASCII, soft line breaks before 76 columns, trailing blanks encoded.
fn quoted_printable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for line in bytes.split(|&b| b == b'\n') {
        let mut col = 0;
        for (i, &b) in line.iter().enumerate() {
            let last = i + 1 == line.len();
            let piece = if b == b'=' || b >= 0x80 || (last && (b == b' ' || b == b'\t')) {
                format!("={b:02X}")
            } else {
                (b as char).to_string()
            };
            if col + piece.len() > 75 {
                out.push_str("=\r\n");
                col = 0;
            }
            col += piece.len();
            out.push_str(&piece);
        }
        out.push_str("\r\n");
    }
    out
}

/// Windows-1252 bytes of a text (the characters these mails use).
fn windows_1252(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            '\u{2019}' => 0x92,
            '\u{2014}' => 0x97,
            '\u{20ac}' => 0x80,
            c if (c as u32) < 0x100 => c as u32 as u8,
            _ => b'?',
        })
        .collect()
}

fn crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

fn quote(body: &str) -> String {
    body.lines()
        .map(|l| {
            if l.is_empty() {
                ">".to_string()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The headers every mail has.
fn headers(from: Player, to: &str, n: usize, extra: &str) -> String {
    format!(
        "From: {} <{}>\r\nTo: orderly <{to}>\r\nSubject: Re: orderly game 1: SQUARES\r\n\
         Date: Tue, 24 Nov 2026 10:{:02}:00 +0100\r\nMessage-ID: <habit-{n}.{}@client.example>\r\n\
         MIME-Version: 1.0\r\n{extra}",
        from.name,
        from.address,
        n % 60,
        std::process::id()
    )
}

/// The ways a mail is written, each as a real client sends it.
const STYLES: usize = 8;

/// One mail from `from` to the game address `to`, in style `style`,
/// carrying `order` (the order line as the player words it) among the
/// greetings and sign-offs, above or below the quoted `previous` mail.
fn written(
    style: usize,
    from: Player,
    other: Player,
    to: &str,
    order: &str,
    previous: &str,
    n: usize,
) -> Vec<u8> {
    let (me, them) = (from.first, other.first);
    match style % STYLES {
        // Gmail: multipart/alternative, quoted-printable, signature, quote.
        0 => {
            let text = format!(
                "Hi {them},\n\n{order}\n\nCheers,\n{me}\n\n-- \n{} \u{2014} Squares club\n\
                 Write MOVE or ATTACK, they say.\n\n\
                 On Tue, Nov 24, 2026 at 10:00\u{202f}AM orderly <{to}> wrote:\n\n{}\n",
                from.name,
                quote(previous)
            );
            let html = format!(
                "<div dir=\"ltr\"><div>Hi {them},</div><div><br></div><div>{}</div>\
                 <div><br></div><div>Cheers,</div><div>{me}</div></div>",
                html_escape(order)
            );
            let boundary = "000000000000a1b2c3d4e5f6";
            crlf(&format!(
                "{}Content-Type: multipart/alternative; boundary=\"{boundary}\"\n\n\
                 --{boundary}\nContent-Type: text/plain; charset=\"UTF-8\"\n\
                 Content-Transfer-Encoding: quoted-printable\n\n{}\n\
                 --{boundary}\nContent-Type: text/html; charset=\"UTF-8\"\n\
                 Content-Transfer-Encoding: quoted-printable\n\n{}\n--{boundary}--\n",
                headers(from, to, n, ""),
                quoted_printable(text.as_bytes()),
                quoted_printable(html.as_bytes()),
            ))
            .into_bytes()
        }
        // Outlook on Windows: windows-1252, quoted-printable, on top of
        // the original included without quote marks.
        1 | 5 => {
            let original = if style % STYLES == 1 {
                format!(
                    "-----Original Message-----\nFrom: orderly <{to}> \n\
                     Sent: Tuesday, November 24, 2026 10:00 AM\nTo: {} <{}>\n\
                     Subject: orderly game 1: SQUARES\n\n{previous}",
                    from.name, from.address
                )
            } else {
                format!(
                    "________________________________\nFrom: orderly <{to}>\n\
                     Sent: Tuesday, November 24, 2026 10:00\nTo: {}\n\
                     Subject: orderly game 1: SQUARES\n\n{previous}",
                    from.name
                )
            };
            let text = format!(
                "Hello {them},\n\n{order}\n\nBest regards,\n{}\n\nGet Outlook for Android\n\n{original}\n",
                from.name
            );
            let mut raw = crlf(&headers(
                from,
                to,
                n,
                "Thread-Topic: orderly game 1: SQUARES\nX-Auto-Response-Suppress: DR, RN, NRN, OOF, AutoReply\n\
                 Content-Type: text/plain; charset=\"Windows-1252\"\n\
                 Content-Transfer-Encoding: quoted-printable\n\n",
            ))
            .into_bytes();
            raw.extend(crlf(&quoted_printable(&windows_1252(&text))).into_bytes());
            raw
        }
        // Thunderbird: the reply below the quote, format=flowed.
        2 => crlf(&format!(
            "{}User-Agent: Mozilla Thunderbird\nContent-Type: text/plain; charset=UTF-8; format=flowed\n\
             Content-Transfer-Encoding: 8bit\n\n\
             On 24/11/2026 10:00, orderly wrote:\n{}\n\n{order}\n\nThanks!\n{me}\n",
            headers(from, to, n, ""),
            quote(previous)
        ))
        .into_bytes(),
        // An iPhone: the order, the footer, then the quote.
        3 => crlf(&format!(
            "{}X-Mailer: iPhone Mail (22A3354)\nContent-Type: text/plain; charset=us-ascii\n\
             Content-Transfer-Encoding: 7bit\n\n\
             {order}\n\nSent from my iPhone\n\n\
             > On 24 Nov 2026, at 10:00, orderly <{to}> wrote:\n> \n{}\n",
            headers(from, to, n, ""),
            quote(previous)
        ))
        .into_bytes(),
        // Yahoo on a phone: HTML only, the quote in a blockquote.
        4 => {
            let quoted: String = previous
                .lines()
                .map(|l| format!("<div>{}</div>", html_escape(l)))
                .collect();
            let html = format!(
                "<html><head></head><body><div class=\"ydp-body\"><div>Dear {them},</div>\
                 <div><br></div><div>{}</div><div><br></div><div>Good luck!</div>\
                 <div>{me}</div><div><br></div><div id=\"ymail_iphone_signature\">Sent from \
                 Yahoo Mail for iPhone</div><div><br></div><div class=\"yahoo_quoted\"><div>On \
                 Tuesday, November 24, 2026, 10:00 AM, orderly &lt;{to}&gt; wrote:</div>\
                 <blockquote>{quoted}</blockquote></div></div></body></html>",
                html_escape(order)
            );
            crlf(&format!(
                "{}Content-Type: text/html; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n{}",
                headers(from, to, n, ""),
                quoted_printable(html.as_bytes())
            ))
            .into_bytes()
        }
        // Gmail in German: the attribution wrapped over two lines.
        6 => crlf(&format!(
            "{}Content-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: 8bit\n\n\
             Hallo {them},\n\n{order}\n\nViele Gr\u{fc}\u{df}e\n{me}\n\n\
             Am Di., 24. Nov. 2026 um 10:00 Uhr schrieb orderly <\n{to}>:\n\n{}\n",
            headers(from, to, n, ""),
            quote(previous)
        ))
        .into_bytes(),
        // A French client, a phone's footer, sentences around the order.
        _ => crlf(&format!(
            "{}Content-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: 8bit\n\n\
             Bonjour {them},\n\nNice one. Your cavalry looks exposed to me now.\n{order}\nYour move.\n\n\
             Kind regards, {me}\nSent from my Galaxy\n\n\
             Le mar. 24 nov. 2026 \u{e0} 10:00, orderly <{to}> a \u{e9}crit\u{a0}:\n{}\n",
            headers(from, to, n, ""),
            quote(previous)
        ))
        .into_bytes(),
    }
}

/// The order as a person words it, in one of several ways.
fn worded(order: &str, n: usize) -> String {
    let lower = order.to_lowercase();
    match n % 7 {
        0 => format!("OK then: {order}"),
        1 => format!("{order}."),
        2 => format!("Please {lower}"),
        3 => format!("I'll {lower}, thanks!"),
        4 => format!("{order}!"),
        5 => format!("My move: {order}"),
        _ => format!("{lower} thx"),
    }
}

/// What a reply may never say to a mail whose orders were clear.
fn assert_nothing_refused(reply: &str, what: &str) {
    for bad in [
        "Refused",
        "Not understood",
        "Not applied",
        "could not be done",
        "not your turn",
    ] {
        assert!(
            !reply.contains(bad),
            "{what}: the reply says {bad:?}:\n{reply}"
        );
    }
}

#[test]
fn a_whole_game_written_the_way_mail_clients_write() {
    let mut site = Site::new("game");
    // The invitation, from a Gmail account, with a greeting and a name.
    let raw = crlf(&format!(
        "{}Content-Type: text/plain; charset=UTF-8\n\n\
         Hi,\n\nNEW SQUARES VS {BOB}\n\nThanks!\nAnn\n",
        headers(ANN_LEE, ORDERLY, 0, "")
    ));
    let (done, outs) = site.deliver(raw.as_bytes());
    assert_eq!(done.outcome, "ok, 3 lines ignored");
    let reply = to(&outs, ANN).body;
    assert_nothing_refused(&reply, "NEW");
    assert!(reply.contains("Game 1 proposed"), "{reply}");
    assert!(reply.contains("> Hi,\nIgnored"), "{reply}");
    let invitation = to(&outs, BOB);
    let bob_addr = invitation.reply_to.clone();
    // Accepted from an iPhone: "Accept." with a full stop and the footer.
    let raw = written(
        3,
        BOB_GRAY,
        ANN_LEE,
        &bob_addr,
        "Accept.",
        &invitation.body,
        1,
    );
    let (done, outs) = site.deliver(&raw);
    assert_eq!(done.outcome, "ok, 1 line ignored");
    let reply = to(&outs, BOB).body;
    assert_nothing_refused(&reply, "ACCEPT");
    assert!(reply.contains("Game 1 begins"), "{reply}");
    assert!(reply.contains("> Sent from my iPhone\nIgnored"), "{reply}");
    let ann_start = to(&outs, ANN);
    let ann_addr = ann_start.reply_to.clone();
    let mut last = [ann_start.body, reply];

    // The game, to its end: a model decides, the players write.
    let mut model = Squares::new(&GameOptions::default());
    let mut rng = XorShift::from_state(0x2545_F491_4F6C_DD1D);
    let mut n = 2;
    let mut styles_seen = HashSet::new();
    while model.outcome().is_none() {
        let pending = model.pending().unwrap();
        let (order, x) = attack_preferring(&model, &mut rng);
        model.apply(&order).unwrap();
        let (me, other, addr, mine) = match pending.seat {
            Seat::North => (ANN_LEE, BOB_GRAY, &ann_addr, 0),
            Seat::South => (BOB_GRAY, ANN_LEE, &bob_addr, 1),
        };
        let style = (x >> 17) as usize % STYLES;
        styles_seen.insert(style);
        let line = worded(&order.to_string(), n + style);
        let raw = written(style, me, other, addr, &line, &last[mine], n);
        let (done, outs) = site.deliver(&raw);
        n += 1;
        let what = format!("mail {n}, style {style}, {line:?}");
        let reply = to(&outs, me.address).body;
        assert_nothing_refused(&reply, &what);
        assert!(
            reply.contains(&format!("Taken: {order}.")),
            "{what}: the order was not taken:\n{reply}"
        );
        assert!(
            reply.contains(&format!("> {line}\nTaken")),
            "{what}: the line is not quoted as written:\n{reply}"
        );
        assert!(
            reply.contains("\nIgnored"),
            "{what}: no prose listed:\n{reply}"
        );
        assert!(
            done.outcome.starts_with("orders taken, ") && done.outcome.ends_with(" ignored"),
            "{what}: outcome {:?}",
            done.outcome
        );
        last[mine] = reply;
        if let Some(update) = outs.iter().find(|o| o.to == other.address) {
            last[1 - mine] = update.body.clone();
        }
        assert!(n < 3000, "the game did not end");
    }
    assert_eq!(styles_seen.len(), STYLES, "every style was played");
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(
        shown.contains(&format!("position {}", model.position())),
        "the service's game is the model's: {shown}"
    );
}

/// Ann invites Bob, Bob accepts: (Ann's game address, Bob's).
fn start(site: &mut Site) -> (String, String) {
    let raw = crlf(&format!(
        "{}Content-Type: text/plain; charset=UTF-8\n\nNEW SQUARES VS {BOB}\n",
        headers(ANN_LEE, ORDERLY, 0, "")
    ));
    let (_, outs) = site.deliver(raw.as_bytes());
    let invitation = to(&outs, BOB);
    let raw = written(
        2,
        BOB_GRAY,
        ANN_LEE,
        &invitation.reply_to,
        "accept",
        &invitation.body,
        1,
    );
    let (_, outs) = site.deliver(&raw);
    (to(&outs, ANN).reply_to, invitation.reply_to)
}

fn plain(from: Player, to: &str, n: usize, text: &str) -> Vec<u8> {
    crlf(&format!(
        "{}Content-Type: text/plain; charset=UTF-8\n\n{text}\n",
        headers(from, to, n, "")
    ))
    .into_bytes()
}

#[test]
fn a_misspelt_order_among_prose_is_refused_with_suggestions_not_ignored() {
    let mut site = Site::new("typo");
    let (ann_addr, _) = start(&mut site);
    let raw = written(
        0,
        ANN_LEE,
        BOB_GRAY,
        &ann_addr,
        "mvoe cav BR B3C",
        "Blue to move.",
        2,
    );
    let (done, outs) = site.deliver(&raw);
    let reply = to(&outs, ANN).body;
    assert!(
        reply.contains("> mvoe cav BR B3C\nNot understood"),
        "{reply}"
    );
    assert!(reply.contains("MOVE CAVALRY BR B3C"), "suggested: {reply}");
    assert!(reply.contains("could not be done"), "{reply}");
    assert!(
        done.outcome.starts_with("refused: 1 line"),
        "{}",
        done.outcome
    );
    // The prose around it is still only ignored.
    assert!(reply.contains("> Hi Bob,\nIgnored"), "{reply}");
}

#[test]
fn a_line_with_other_words_voids_no_order_and_prose_alone_is_no_failure() {
    let mut site = Site::new("alone");
    let (ann_addr, bob_addr) = start(&mut site);
    // "Stay safe!" starts with an order's verb: answered on its own, and
    // its refusal leaves the order below it alone.
    let (done, outs) = site.deliver(&plain(
        ANN_LEE,
        &ann_addr,
        2,
        "Stay safe!\n\ncav BR B3C\n\nAnn",
    ));
    let reply = to(&outs, ANN).body;
    assert!(reply.contains("> Stay safe!\nNot understood"), "{reply}");
    assert!(reply.contains("Taken: MOVE CAVALRY BR B3C."), "{reply}");
    assert!(!reply.contains("Not applied"), "{reply}");
    assert_eq!(
        done.outcome,
        "refused: 1 line, orders taken, 1 line ignored"
    );
    // A mail of prose only: answered, nothing refused.
    let (done, outs) = site.deliver(&plain(
        BOB_GRAY,
        &bob_addr,
        3,
        "Hi Ann,\n\nThanks for the game so far! I need a day to think.\n\nBob\nSent from Mail for Windows",
    ));
    let reply = to(&outs, BOB).body;
    assert_nothing_refused(&reply, "prose only");
    assert!(reply.contains("no command or order in it"), "{reply}");
    assert_eq!(done.outcome, "no order or command, 4 lines ignored");
    // Nothing of it changed the game: Gray still has the move.
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(shown.contains("9I3A3C/1C+1/"), "{shown}");
}

/// A line that announces the orders below it ("here's my move, ...:") is
/// conversation: it is neither refused nor allowed to void the order that
/// follows it.
#[test]
fn a_line_announcing_the_orders_below_it_costs_no_turn() {
    let mut site = Site::new("announce");
    let (ann_addr, _) = start(&mut site);
    let (done, outs) = site.deliver(&plain(
        ANN_LEE,
        &ann_addr,
        2,
        "Hi Bob, café break over, here's my move, which I've thought about a lot today:\n\n\
         cav BR B3C\n\nAnn",
    ));
    let reply = to(&outs, ANN).body;
    assert_nothing_refused(&reply, "an announced order");
    assert!(reply.contains("Taken: MOVE CAVALRY BR B3C."), "{reply}");
    assert!(done.outcome.starts_with("orders taken"), "{}", done.outcome);
}

/// A verb alone, exclaimed ("Charge!", "Move!"), above the real order that
/// names its squares is a cheer: neither completed into an order of its
/// own nor allowed to spend or void the order below it.
#[test]
fn an_exclaimed_verb_above_the_real_order_is_conversation() {
    let mut site = Site::new("cheer");
    let (ann_addr, _) = start(&mut site);
    let (done, outs) = site.deliver(&plain(
        ANN_LEE,
        &ann_addr,
        2,
        "Hi Bob,\n\nMove!\n\ncav BR B3C\n\nAnn",
    ));
    let reply = to(&outs, ANN).body;
    assert_nothing_refused(&reply, "a cheer above an order");
    assert!(reply.contains("Taken: MOVE CAVALRY BR B3C."), "{reply}");
    assert!(reply.contains("> Move!"), "listed as ignored: {reply}");
    assert!(done.outcome.starts_with("orders taken"), "{}", done.outcome);
}

/// Found by a newcomer: a cheer with lead-in words ("Let's go!") above
/// the real order voided it ("an earlier order of this message was
/// refused"), and one below it was "not applied, send it on your next
/// turn". Both are conversation, as "Charge!" is.
#[test]
fn a_cheer_with_lead_in_words_around_the_real_order_is_conversation() {
    let mut site = Site::new("lets-go");
    let (ann_addr, _) = start(&mut site);
    let (done, outs) = site.deliver(&plain(
        ANN_LEE,
        &ann_addr,
        2,
        "Hi Bob,\n\nLet's go!\nmove cav br b3c\nOK, attack!\n\nthanks!\nAnn",
    ));
    let reply = to(&outs, ANN).body;
    assert_nothing_refused(&reply, "cheers around an order");
    assert!(reply.contains("Taken: MOVE CAVALRY BR B3C."), "{reply}");
    assert!(!reply.contains("Not applied"), "{reply}");
    assert!(done.outcome.starts_with("orders taken"), "{}", done.outcome);
}

/// HELP MOVES below the orders of the same mail asks about the position
/// its writer saw: answered for it (said so), never from the opponent's
/// side after the orders, and never a failure of the mail.
#[test]
fn help_moves_after_orders_answers_for_the_position_the_writer_saw() {
    let mut site = Site::new("seen");
    let (ann_addr, _) = start(&mut site);
    let (done, outs) = site.deliver(&plain(
        ANN_LEE,
        &ann_addr,
        2,
        "MOVE CAVALRY BR B3C\nHELP MOVES BR\nHELP MOVES B1C\n\nAnn",
    ));
    let reply = to(&outs, ANN).body;
    assert_nothing_refused(&reply, "help moves after an order");
    assert!(reply.contains("Taken: MOVE CAVALRY BR B3C."), "{reply}");
    assert!(
        reply.contains("> HELP MOVES BR\nSee below, for the position as you saw it"),
        "{reply}"
    );
    assert!(!reply.contains("Gray has no legal order"), "{reply}");
    assert!(
        reply.contains("> HELP MOVES B1C\nBlue has no legal order for a unit in B1C now (in the position as you saw"),
        "{reply}"
    );
    assert!(done.outcome.starts_with("orders taken"), "{}", done.outcome);
}

/// An order to the bare service address: the refusal says where the key
/// is, and to the player of exactly one active game, at that seat's own
/// address, which game and key to write. A key goes to no other address.
#[test]
fn an_order_without_a_key_is_told_where_the_key_is() {
    let mut site = Site::new("nokey");
    let (ann_addr, _) = start(&mut site);
    let key = ann_addr
        .split(".")
        .nth(1)
        .and_then(|rest| rest.split('@').next())
        .unwrap()
        .to_string();
    let (_, outs) = site.deliver(&plain(ANN_LEE, ORDERLY, 3, "cav BR B3C\n\nAnn"));
    let reply = to(&outs, ANN).body.replace('\n', " ");
    assert!(reply.contains("names no game"), "{reply}");
    assert!(reply.contains(&format!("GAME 1 {key}")), "{reply}");
    assert!(reply.contains("the part after the dot"), "{reply}");
    // Somebody with no game learns where a key is, and no key.
    let eve = Player {
        address: "eve@example.org",
        name: "Eve Stone",
        first: "Eve",
    };
    let (_, outs) = site.deliver(&plain(eve, ORDERLY, 4, "cav BR B3C"));
    let reply = to(&outs, "eve@example.org").body.replace('\n', " ");
    assert!(reply.contains("the part after the dot"), "{reply}");
    assert!(
        reply.contains("orderly+g<number>.<key>@example.org"),
        "{reply}"
    );
    assert!(!reply.contains(&key), "{reply}");
    // A player of two active games is not guessed for.
    let raw = plain(ANN_LEE, ORDERLY, 5, &format!("NEW SQUARES VS {BOB}"));
    let (_, outs) = site.deliver(&raw);
    let invitation = to(&outs, BOB);
    let (done, _) = site.deliver(&plain(BOB_GRAY, &invitation.reply_to, 6, "accept"));
    assert_eq!(done.game, Some(2), "{}", done.outcome);
    let (_, outs) = site.deliver(&plain(ANN_LEE, ORDERLY, 7, "cav BR B3C"));
    let reply = to(&outs, ANN).body.replace('\n', " ");
    assert!(reply.contains("names no game"), "{reply}");
    assert!(!reply.contains(&key), "{reply}");
}
