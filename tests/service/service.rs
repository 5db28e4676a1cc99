//! The service end to end on one machine: mails dropped into a real Maildir,
//! processed into a real SQLite file, replies read back from the .eml files
//! the file transport writes.

#[path = "../common/mod.rs"]
mod common;

use std::path::PathBuf;

use chrono::Utc;
use common::player::attack_preferring;
use common::rng::XorShift;
use common::site::{flat, plain_mail, to, Out, Site};
use orderly::config::Config;
use orderly::games::civil_war_1863::{self, CivilWar1863};
use orderly::games::hosted::Hosted;
use orderly::games::squares::{Napoleonic, Squares};
use orderly::games::{Game, GameOptions, GameResult, GameText, Seat};
use orderly::mail::intake;

/// This file's sites: `Site::open` (tests/common/site.rs) in directories
/// named `orderly-svc-...`, with mails of their own subject and id.
impl Site {
    fn new(name: &str) -> Site {
        Site::with(name, |_| {})
    }

    /// A site whose configuration `adjust` changes first.
    fn with(name: &str, adjust: impl FnOnce(&mut Config)) -> Site {
        Site::open("orderly-svc", name, adjust)
    }

    /// Drops a mail into the Maildir and polls; returns the new .eml files.
    fn mail(&mut self, from: &str, to: &str, body: &str) -> Vec<Out> {
        self.counter += 1;
        let n = self.counter;
        let raw = plain_mail(
            from,
            to,
            &format!("test {n}"),
            // The same every run: a game's draws of chance mix it in.
            &format!("<t{n}@test>"),
            n,
            body,
        );
        self.raw(raw.as_bytes())
    }
}

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

/// Ann proposes, Bob accepts: returns (Ann's reply address, Bob's).
fn start(site: &mut Site) -> (String, String) {
    let outs = site.mail(ANN, "orderly@example.org", "NEW SQUARES VS bob@example.org");
    let invitation = to(&outs, BOB);
    assert!(
        invitation.body.contains("invites you"),
        "{}",
        invitation.body
    );
    let ann_reply = to(&outs, ANN);
    assert!(
        ann_reply.body.contains("Game 1 proposed"),
        "{}",
        ann_reply.body
    );
    let bob_addr = invitation.reply_to.clone();
    assert!(bob_addr.starts_with("orderly+g1."), "{bob_addr}");
    let outs = site.mail(BOB, &bob_addr, "accept");
    let ann_start = to(&outs, ANN);
    assert!(
        ann_start.body.contains("Your orders, by unit"),
        "{}",
        ann_start.body
    );
    let bob_start = to(&outs, BOB);
    assert!(
        bob_start.body.contains("The game waits for Blue"),
        "{}",
        bob_start.body
    );
    (ann_start.reply_to, bob_addr)
}

#[test]
fn pipelined_polls_send_one_polls_replies_during_the_next_and_all_by_an_empty_poll() {
    let mut site = Site::new("pipelined");
    let invite = |from: &str, n: u32, whom: &str| {
        format!(
            "From: {from}\r\nTo: orderly@example.org\r\nSubject: new\r\n\
             Message-ID: <pipe{n}@test>\r\n\r\nNEW SQUARES VS {whom}\r\n"
        )
        .into_bytes()
    };
    site.inbox.deliver(&invite(ANN, 1, BOB)).unwrap();
    let first = site.service.poll_pipelined().unwrap();
    // Its two mails (Ann's reply, Bob's invitation) are on their way,
    // counted by the poll that marks them sent: the next one.
    assert_eq!((first.processed, first.sent), (1, 0));
    site.inbox
        .deliver(&invite("carl@example.org", 2, "dave@example.org"))
        .unwrap();
    let second = site.service.poll_pipelined().unwrap();
    assert_eq!((second.processed, second.sent), (1, 2));
    // A poll with nothing to process sends everything before it returns.
    let third = site.service.poll_pipelined().unwrap();
    assert_eq!((third.processed, third.sent), (0, 2));
    let outs = site.collect();
    assert_eq!(outs.len(), 4, "{outs:#?}");
    for whom in [ANN, BOB, "carl@example.org", "dave@example.org"] {
        to(&outs, whom);
    }
    let tx = site.service.store().tx().unwrap();
    assert_eq!(tx.outbox_count("queued").unwrap(), 0);
    assert_eq!(tx.outbox_count("sent").unwrap(), 4);
}

#[test]
fn two_players_play_a_complete_game_by_mail() {
    let mut site = Site::new("complete");
    let (ann_addr, bob_addr) = start(&mut site);
    // A model of the game decides the orders; the service must agree.
    let mut model = Squares::new(&GameOptions::default());
    let mut rng = XorShift::from_state(0x2545_F491_4F6C_DD1D);
    let mut mails = 0;
    while model.outcome().is_none() {
        let pending = model.pending().unwrap();
        let (order, _) = attack_preferring(&model, &mut rng);
        model.apply(&order).unwrap();
        let (from, addr) = match pending.seat {
            Seat::North => (ANN, &ann_addr),
            Seat::South => (BOB, &bob_addr),
        };
        let outs = site.mail(from, addr, &order.to_string());
        mails += 1;
        let reply = to(&outs, from);
        assert!(
            reply.body.contains(&format!("Taken: {order}")),
            "{order}: {}",
            reply.body
        );
        assert!(mails < 3000, "the game did not end");
    }
    assert!(
        matches!(
            model.outcome().map(|o| o.result),
            Some(orderly::games::GameResult::Win(_))
        ),
        "the game was played to a win: {:?}",
        model.outcome()
    );
    let tx_games = orderly::service::admin::games(site.service.store()).unwrap();
    assert!(tx_games.contains("finished"), "{tx_games}");
    // The winner in the game's own side names, not the stored seat word.
    assert!(
        tx_games.contains("finished: Blue won") || tx_games.contains("finished: Gray won"),
        "{tx_games}"
    );
    assert!(
        !tx_games.contains("north") && !tx_games.contains("south"),
        "{tx_games}"
    );
    // The record of a game that has ended is no record "so far".
    let history = body_to(&site.mail(ANN, &ann_addr, "HISTORY"), ANN);
    assert!(
        history.contains("The record of the game is below."),
        "{history}"
    );
    assert!(!history.contains("so far"), "{history}");
    let record =
        orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap();
    let replayed = orderly::record::replay(
        &orderly::record::Record::read_as(&record, &Hosted::of::<Squares>()).unwrap(),
    )
    .unwrap();
    assert_eq!(replayed.game.position(), model.position());
}

#[test]
fn a_complete_napoleonic_game_by_mail() {
    let mut site = Site::new("napoleonic");
    // Ann takes the British seat and lets the French (Bob) begin.
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW NAPOLEONIC VS bob@example.org AS BRITISH FIRST FRENCH",
    );
    let reply = body_to(&outs, ANN);
    assert!(
        flat(&reply).contains(
            "Game 1 proposed: you play British against bob@example.org, French moves first"
        ),
        "{reply}"
    );
    let invitation = to(&outs, BOB);
    assert!(
        flat(&invitation.body).contains(
            "invites you to a game of SQUARES - The Napoleonic War Variant by mail, as French."
        ),
        "{}",
        invitation.body
    );
    assert!(invitation.body.contains("French moves first"));
    assert_eq!(invitation.subject, "Game 1: invitation to NAPOLEONIC");
    let bob_addr = invitation.reply_to.clone();
    let outs = site.mail(BOB, &bob_addr, "accept");
    let bob_start = body_to(&outs, BOB);
    assert!(
        bob_start.contains("Game 1 begins; you play French."),
        "{bob_start}"
    );
    assert!(bob_start.contains("Your orders, by unit"), "{bob_start}");
    let ann_start = to(&outs, ANN);
    assert!(
        ann_start.body.contains("The game waits for French (turn)"),
        "{}",
        ann_start.body
    );
    assert!(
        ann_start
            .body
            .contains("SQUARES - The Napoleonic War Variant"),
        "{}",
        ann_start.body
    );
    let ann_addr = ann_start.reply_to;
    let mut mails: Vec<Out> = outs;
    let mut model = Napoleonic::new(&GameOptions {
        first: Seat::South,
        seed: None,
        scenario: None,
    });
    let mut rng = XorShift::from_state(0x9E37_79B9_7F4A_7C15);
    let mut sent = 0;
    while model.outcome().is_none() {
        let pending = model.pending().unwrap();
        let (order, _) = attack_preferring(&model, &mut rng);
        model.apply(&order).unwrap();
        let (from, addr) = match pending.seat {
            Seat::North => (ANN, &ann_addr),
            Seat::South => (BOB, &bob_addr),
        };
        let outs = site.mail(from, addr, &order.to_string());
        sent += 1;
        let reply = body_to(&outs, from);
        assert!(
            reply.contains(&format!("Taken: {order}")),
            "{order}: {reply}"
        );
        mails.extend(outs);
        assert!(sent < 3000, "the game did not end");
    }
    // The last order's mails tell both players the result.
    let winner = match model.outcome().map(|o| o.result) {
        Some(GameResult::Win(seat)) => Napoleonic::seat_name(seat),
        other => panic!("the game was played to a win: {other:?}"),
    };
    let last: Vec<&Out> = mails.iter().rev().take(2).collect();
    for who in [ANN, BOB] {
        let out = last
            .iter()
            .find(|o| o.to == who)
            .unwrap_or_else(|| panic!("no result mail to {who}"));
        // The subject carries the result and the score.
        assert!(
            out.subject
                .starts_with(&format!("Game 1: over - {winner} wins ")),
            "{}",
            out.subject
        );
        assert!(
            out.body
                .contains(&format!("The game is over: {winner} wins")),
            "{}",
            out.body
        );
    }
    // Every mail speaks the variant: its sides, its F codes, its subject.
    let all: String = mails.iter().map(|o| o.body.as_str()).collect();
    assert!(all.contains("British") && all.contains("French"));
    assert!(
        all.contains("F3C") && all.contains("FR"),
        "F codes on the board"
    );
    for civil_war in ["G3C", "G2CR", "G1C ", "Blue", "Gray"] {
        assert!(
            !all.contains(civil_war),
            "{civil_war:?} in a Napoleonic mail"
        );
    }
    assert!(mails.iter().all(|o| o.subject.starts_with("Game 1: ")));
    assert!(mails
        .iter()
        .any(|o| o.subject.contains(" attacks ") && o.subject.ends_with('?')));
    for line in all.lines() {
        assert!(line.len() <= 76, "{line:?}");
    }
    let listed = orderly::service::admin::games(site.service.store()).unwrap();
    assert!(
        listed.contains("napoleonic  British ann@example.org  French bob@example.org  finished"),
        "{listed}"
    );
    let outs = site.mail(ANN, "orderly@example.org", "GAMES");
    let body = body_to(&outs, ANN);
    assert!(
        body.contains("game 1: NAPOLEONIC as British vs bob@example.org: finished"),
        "{body}"
    );
    let record =
        orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap();
    assert!(record.contains("[Game \"napoleonic\"]"), "{record}");
    assert!(record.contains("[British \"ann@example.org\"]"), "{record}");
    let replayed = orderly::record::replay(
        &orderly::record::Record::read_as(&record, &Hosted::of::<Napoleonic>()).unwrap(),
    )
    .unwrap();
    assert_eq!(replayed.game.position(), model.position());
    assert!(model.position().starts_with("napoleonic "));
    // `orderly replay` picks the game by the record's [Game] tag.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let ok = orderly::replay_tool::replay_text(
        "game-1.rec",
        &record,
        orderly::replay_tool::Output::Board,
        &mut out,
        &mut err,
    )
    .unwrap();
    let (out, err) = (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("orders of SQUARES - The Napoleonic War Variant."),
        "{out}"
    );
    assert!(out.contains(&format!("Result: {winner} wins")), "{out}");
    let json =
        orderly::service::admin::export(site.service.store(), 1, true, "example.org").unwrap();
    assert!(json.contains("\"game\": \"napoleonic\""), "{json}");
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(
        shown.contains(&format!("position {}", model.position())),
        "{shown}"
    );
}

#[test]
fn a_game_or_side_not_hosted_is_refused_with_the_accepted_words() {
    let mut site = Site::new("unhosted");
    let outs = site.mail(ANN, "orderly@example.org", "NEW CHESS VS bob@example.org");
    assert_eq!(outs.len(), 1, "nobody is invited: {outs:#?}");
    let body = body_to(&outs, ANN);
    assert!(
        flat(&body).contains("Refused: \"CHESS\" is not a game here; orderly hosts SQUARES (BLUE|GRAY), NAPOLEONIC (BRITISH|FRENCH)"),
        "{body}"
    );
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW NAPOLEONIC VS bob@example.org AS BLUE",
    );
    assert_eq!(outs.len(), 1, "nobody is invited: {outs:#?}");
    let body = body_to(&outs, ANN);
    assert!(
        flat(&body)
            .contains("Refused: the sides are BRITISH and FRENCH (AS BRITISH, FIRST FRENCH)."),
        "{body}"
    );
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW SQUARES VS bob@example.org FIRST FRENCH",
    );
    assert!(body_to(&outs, ANN).contains("the sides are BLUE and GRAY"));
    // Without a game's name NEW is not understood; the usage names them all.
    let outs = site.mail(ANN, "orderly@example.org", "NEW VS bob@example.org");
    let body = body_to(&outs, ANN);
    assert!(
        body.contains("Not understood: write NEW SQUARES VS"),
        "{body}"
    );
    assert!(
        body.contains("NEW NAPOLEONIC VS their@address [AS BRITISH|FRENCH]"),
        "{body}"
    );
    // HELP lists both games with their sides, GAMES how to start either.
    let outs = site.mail(ANN, "orderly@example.org", "HELP\nGAMES");
    let body = body_to(&outs, ANN);
    for line in [
        "  NEW SQUARES VS their@address [AS BLUE|GRAY] [FIRST BLUE|GRAY]",
        "  NEW NAPOLEONIC VS their@address [AS BRITISH|FRENCH] [FIRST BRITISH|FRENCH]",
        "NAPOLEONIC: SQUARES - The Napoleonic War Variant",
        "  NEW NAPOLEONIC VS their@address\n",
        // Each game's NEW on its own line, its orders in its own words
        // under its name (Ann plays no game: every game's).
        "  NEW CIVILWAR1863 VS their@address [AS UNION|CONFEDERACY]\n",
        "\nSQUARES (SQUARES - The Civil War Battle Game):\n  your orders              \
         one per line, in the game's words:\n    MOVE G2CR G1C",
        "\nBROTHERSATWAR (Brothers at War: 1862 (Compass Games, 2022), the system):\n  \
         your orders              one per line, in the game's words:\n    10M MOVE 1005 1006",
        "PLAY 17 ON 10M",
    ] {
        assert!(body.contains(line), "{line:?} missing:\n{body}");
    }
    assert!(body.lines().all(|l| l.len() <= 76), "{body}");
    // A moderator names the sides of a Napoleonic game in its own words.
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "new napoleonic vs bob@example.org",
    );
    let bob_addr = to(&outs, BOB).reply_to;
    site.mail(BOB, &bob_addr, "ACCEPT");
    let now = Utc::now();
    let mut moderate = |line: &str| site.service.moderate(line, "cli:test", now).unwrap();
    let report = moderate("FORFEIT 1 GRAY");
    assert!(
        report.starts_with("Not understood: BRITISH or FRENCH is needed"),
        "{report}"
    );
    let report = moderate("EXTEND 1 1 DAYS");
    assert!(
        report.contains("the deadline of British is extended by 24 hours"),
        "{report}"
    );
    let report = moderate("ACT 1 british inf BR F3C");
    assert!(report.starts_with("Refused"), "{report}");
    let report = moderate("ACT 1 british inf BR B3C");
    assert!(
        report.contains("MOVE INFANTRY BR B3C was entered for British"),
        "{report}"
    );
    let report = moderate("FORFEIT 1 FRENCH");
    assert!(report.contains("French forfeits; British wins"), "{report}");
    // Every announcement goes to both players (ACT's and EXTEND's as well).
    let mail = site.collect();
    for who in [ANN, BOB] {
        assert!(
            mail.iter()
                .any(|o| o.to == who && o.body.contains("French forfeits; British wins")),
            "{mail:#?}"
        );
    }
}

#[test]
fn refusals_change_nothing_and_say_why() {
    let mut site = Site::new("refusals");
    let (ann_addr, bob_addr) = start(&mut site);
    // Wrong secret.
    let bad = ann_addr.replace("+g1.", "+g1.x");
    let outs = site.mail(ANN, &bad, "cav BR B3C");
    assert!(to(&outs, ANN).body.contains("is not a key of game 1"));
    // Unknown game.
    let outs = site.mail(ANN, "orderly+g99.abcdefgh@example.org", "cav BR B3C");
    assert!(to(&outs, ANN).body.contains("there is no game 99"));
    // No game at all.
    let outs = site.mail(ANN, "orderly@example.org", "cav BR B3C");
    assert!(to(&outs, ANN).body.contains("names no game"));
    // Right key, wrong sender: refused and the owner is told, once for a
    // mail of many lines; the stranger learns nothing of whose key it is.
    let outs = site.mail("eve@example.org", &ann_addr, "cav BR B3C\npass\nresign");
    let eve = flat(&to(&outs, "eve@example.org").body);
    assert!(
        eve.contains("game 1 takes orders only from its players' own addresses"),
        "{eve}"
    );
    assert!(
        !eve.contains("another player") && !eve.contains("Blue"),
        "{eve}"
    );
    let warnings: Vec<_> = outs.iter().filter(|o| o.to == ANN).collect();
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(warnings[0].body.contains("eve@example.org"));
    // The opponent answering the other seat's copy is told which is his.
    let outs = site.mail(BOB, &ann_addr, "inf GR G3C");
    let bob = flat(&to(&outs, BOB).body);
    assert!(
        bob.contains("the Blue seat of game 1, your opponent's"),
        "{bob}"
    );
    assert!(bob.contains("You play Gray"), "{bob}");
    // Not your turn.
    let outs = site.mail(BOB, &bob_addr, "inf GR G3C");
    assert!(to(&outs, BOB).body.contains("not your turn"));
    assert_eq!(to(&outs, BOB).subject, "Game 1: refused");
    // Illegal order: the rule and the nearest orders.
    let outs = site.mail(ANN, &ann_addr, "MOVE INFANTRY BR B2CR");
    let body = to(&outs, ANN).body;
    assert!(
        body.contains("Refused under rule R9: B2CR is not a square"),
        "{body}"
    );
    assert!(body.contains("Nearest legal orders"), "{body}");
    // Nothing of all that was applied.
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(
        shown.contains("position 9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -"),
        "{shown}"
    );
}

/// Puts game 1 at `position`, as if its players had played there (the
/// cached position is what the service reads while it is current).
fn set_position(site: &Site, position: &str) {
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    db.execute("UPDATE games SET position = ?1 WHERE id = 1", [position])
        .unwrap();
}

#[test]
fn the_key_comes_in_the_first_mail_and_on_help_board_and_each_event_is_told_once() {
    let mut site = Site::new("key");
    let outs = site.mail(ANN, "orderly@example.org", "NEW SQUARES VS bob@example.org");
    let bob = to(&outs, BOB).reply_to;
    let outs = site.mail(BOB, &bob, "accept");
    assert!(body_to(&outs, ANN).contains("Key: * last action"));
    let ann = to(&outs, ANN).reply_to;
    let outs = site.mail(ANN, &ann, "cav BR B3C");
    for who in [ANN, BOB] {
        let body = body_to(&outs, who);
        assert!(body.contains("Score: Blue 0"), "{body}");
        assert!(!body.contains("Key:"), "{body}");
        // Each mail tells the move once (the board marks its squares).
        let told = flat(&body).matches("Blue cavalry moves BR -> B3C").count();
        assert_eq!(told, 1, "{body}");
    }
    let outs = site.mail(BOB, &bob, "HELP BOARD");
    let body = body_to(&outs, BOB);
    assert!(body.contains("Key: * last action"), "{body}");
    assert!(!body.contains("Refused"), "{body}");
}

#[test]
fn an_order_sent_to_the_wrong_game_names_the_game_it_fits() {
    let mut site = Site::new("wronggame");
    let (ann1, _bob1) = start(&mut site);
    // Game 2: Bob is Blue and moves first; Ann is Gray there.
    let outs = site.mail(BOB, "orderly@example.org", "NEW SQUARES VS ann@example.org");
    let ann2 = to(&outs, ANN).reply_to;
    let outs = site.mail(ANN, &ann2, "accept");
    let bob2 = to(&outs, BOB).reply_to;
    // Ann's Blue order of game 1, sent to game 2.
    let outs = site.mail(ANN, &ann2, "cav BR B3C");
    let body = flat(&body_to(&outs, ANN));
    assert!(
        body.contains("it is not your turn; game 2 waits for Blue"),
        "{body}"
    );
    assert!(
        body.contains("This order is legal in your game 1"),
        "{body}"
    );
    // Once it is Ann's turn in game 2, a Blue order there is refused by the
    // rules, and still pointed at game 1.
    site.mail(BOB, &bob2, "pass");
    let outs = site.mail(ANN, &ann2, "cav BR B3C");
    let body = flat(&body_to(&outs, ANN));
    assert!(body.contains("Refused"), "{body}");
    assert!(
        body.contains("This order is legal in your game 1"),
        "{body}"
    );
    // In its own game it is simply taken.
    let outs = site.mail(ANN, &ann1, "cav BR B3C");
    assert!(flat(&body_to(&outs, ANN)).contains("Taken: MOVE CAVALRY BR B3C"));
}

/// The Date header of a mail the service wrote.
fn date_of(out: &Out) -> chrono::DateTime<chrono::FixedOffset> {
    let header = out
        .raw
        .lines()
        .find_map(|l| l.strip_prefix("Date: "))
        .unwrap_or_else(|| panic!("no Date in {}", out.raw));
    chrono::DateTime::parse_from_rfc2822(header.trim()).unwrap()
}

/// Two updates to Bob in one poll (Ann moves in both their games, in two
/// mails read together): their Date headers, whole seconds, follow the
/// order they were sent in, so Bob's mail program lists them so; and the
/// sent files' names, by date to the millisecond, list every mail of the
/// poll in that order too.
#[test]
fn the_mails_of_one_poll_are_dated_in_the_order_they_are_sent() {
    let mut site = Site::new("dates");
    let noon = chrono::DateTime::parse_from_rfc3339("2026-11-21T12:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    site.service
        .set_clock(orderly::clock::Clock::starting_at(noon));
    let (ann1, _) = start(&mut site);
    let outs = site.mail(ANN, "orderly@example.org", "NEW SQUARES VS bob@example.org");
    let bob2 = to(&outs, BOB).reply_to;
    let ann2 = to(&site.mail(BOB, &bob2, "accept"), ANN).reply_to;
    for (n, addr) in [(1, &ann1), (2, &ann2)] {
        let raw = plain_mail(
            ANN,
            addr,
            "my move",
            &format!("<dates{n}@test>"),
            100 + n,
            "cav BR B3C",
        );
        site.inbox.deliver(raw.as_bytes()).unwrap();
    }
    let report = site.service.poll_once().unwrap();
    assert_eq!(report.processed, 2);
    // In the order of their files' names.
    let outs = site.collect();
    assert_eq!(outs.len(), 4, "{outs:#?}");
    // The order the outbox sent them in.
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    let mut sent: Vec<String> = db
        .prepare("SELECT message_id FROM outbox ORDER BY id DESC LIMIT 4")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    sent.reverse();
    let named: Vec<String> = outs.iter().map(|o| o.message_id.clone()).collect();
    assert_eq!(named, sent, "the files list the mails as they were sent");
    let to_bob: Vec<&Out> = outs.iter().filter(|o| o.to == BOB).collect();
    assert_eq!(to_bob.len(), 2, "{outs:#?}");
    assert!(to_bob[0].subject.starts_with("Game 1") || to_bob[0].subject.starts_with("Game 2"));
    assert!(
        date_of(to_bob[0]) < date_of(to_bob[1]),
        "{} then {}",
        date_of(to_bob[0]),
        date_of(to_bob[1])
    );
    for o in &outs {
        assert!(date_of(o) >= noon, "{}", date_of(o));
    }
}

#[test]
fn say_passes_a_message_to_the_opponent_and_into_the_record() {
    let mut site = Site::new("say");
    let (ann, bob) = start(&mut site);
    // With an order: the message rides on the update mail.
    let outs = site.mail(ANN, &ann, "SAY Good luck, Bob!\ncav BR B3C");
    assert!(flat(&body_to(&outs, ANN)).contains("Passed to Gray: Good luck, Bob!"));
    let told = body_to(&outs, BOB);
    assert!(told.contains("Blue says: Good luck, Bob!"), "{told}");
    assert!(told.contains("Blue cavalry moves BR -> B3C"), "{told}");
    assert_eq!(
        outs.iter().filter(|o| o.to == BOB).count(),
        1,
        "one mail to Bob"
    );
    // Alone: a mail of its own, even when it is not the writer's turn.
    let outs = site.mail(ANN, &ann, "press Your move.");
    assert!(body_to(&outs, BOB).contains("Blue says: Your move."));
    let outs = site.mail(BOB, &bob, "HISTORY");
    let record = body_to(&outs, BOB);
    assert!(record.contains("Blue says: Good luck, Bob!"), "{record}");
    assert!(record.contains("Blue says: Your move."), "{record}");
    // The game goes on as before.
    let outs = site.mail(BOB, &bob, "inf GR G3C");
    assert!(flat(&body_to(&outs, BOB)).contains("Taken: MOVE INFANTRY GR G3C"));
}

#[test]
fn set_address_moves_a_seat_once_confirmed_from_the_new_address() {
    let mut site = Site::new("address");
    let (ann, bob) = start(&mut site);
    const NEW: &str = "ann@new.example";
    let outs = site.mail(ANN, &ann, "SET ADDRESS ann@new.example");
    assert!(flat(&body_to(&outs, ANN)).contains("A code went to ann@new.example"));
    let code_mail = body_to(&outs, NEW);
    let code = code_mail
        .split("CONFIRM ADDRESS ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("a code")
        .to_string();
    // Nothing moved yet: orders still come from the old address only.
    let outs = site.mail(NEW, &ann, "cav BR B3C");
    assert!(flat(&body_to(&outs, NEW)).contains("Refused"));
    // A wrong code, or the right one from elsewhere, is refused.
    let outs = site.mail(NEW, "orderly@example.org", "CONFIRM ADDRESS aaaaaaaa");
    assert!(flat(&body_to(&outs, NEW)).contains("Refused: this code"));
    let outs = site.mail(
        "eve@example.org",
        "orderly@example.org",
        &format!("CONFIRM ADDRESS {code}"),
    );
    assert!(flat(&body_to(&outs, "eve@example.org")).contains("Refused: this code"));
    let outs = site.mail(
        NEW,
        "orderly@example.org",
        &format!("confirm address {code}"),
    );
    let reply = flat(&body_to(&outs, NEW));
    assert!(
        reply.contains("Confirmed: ann@example.org is now ann@new.example"),
        "{reply}"
    );
    assert!(body_to(&outs, BOB).contains("now plays from ann@new.example"));
    // The same key, from the new address, now plays; the old one does not.
    let outs = site.mail(NEW, &ann, "cav BR B3C");
    assert!(flat(&body_to(&outs, NEW)).contains("Taken: MOVE CAVALRY BR B3C"));
    let outs = site.mail(BOB, &bob, "inf GR G3C");
    assert!(
        outs.iter().any(|o| o.to == NEW),
        "updates go to the new address"
    );
    let outs = site.mail(ANN, &ann, "pass");
    assert!(flat(&body_to(&outs, ANN)).contains("Refused"));
    // A code is good once.
    let outs = site.mail(
        NEW,
        "orderly@example.org",
        &format!("confirm address {code}"),
    );
    assert!(flat(&body_to(&outs, NEW)).contains("Refused: this code"));
}

#[test]
fn new_takes_only_a_real_mailbox_other_than_the_service_and_the_inviter() {
    let mut site = Site::new("newcheck");
    for (line, says) in [
        ("NEW SQUARES VS bob@", "is not a mail address"),
        ("NEW SQUARES VS a..b@example.org", "is not a mail address"),
        (
            "NEW SQUARES VS bob@localhost",
            "is not a mail address (its domain)",
        ),
        (
            "NEW SQUARES VS ann@example.org",
            "name the other player's address",
        ),
        (
            "NEW SQUARES VS orderly+g1.abc@example.org",
            "name the other player's address",
        ),
        (
            "NEW SQUARES VS bounces@example.org",
            "name the other player's address",
        ),
    ] {
        let outs = site.mail(ANN, "orderly@example.org", line);
        let body = flat(&body_to(&outs, ANN));
        assert!(body.contains(says), "{line}: {body}");
        assert_eq!(outs.len(), 1, "{line}: nobody else is written to");
    }
}

#[test]
fn answers_given_in_advance_resolve_an_attack_in_one_mail() {
    let mut site = Site::new("ifs");
    let (ann, bob) = start(&mut site);
    set_position(&site, "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -");
    // Gray, waiting, sets a standing answer; it is his alone to see.
    let outs = site.mail(
        BOB,
        &bob,
        "IF ATTACKED AT G1C STAND\nif attacked at b9z retreat\n\
         if attacked at g1c retraet g1l\nif attacked at g1c retreat b9z",
    );
    let reply = flat(&body_to(&outs, BOB));
    // An answer surely mistaken is refused when given, not when its
    // moment comes; the standing answer before it is kept.
    assert!(
        reply.contains(
            "Not understood: \"RETRAET\" in the answer is not a word of the orders \
             (did you mean RETREAT?); nothing was noted."
        ),
        "{reply}"
    );
    assert!(
        reply.contains("Not understood: \"B9Z\" in the answer is not a square; nothing was noted."),
        "{reply}"
    );
    assert!(
        reply.contains("Noted: if attacked at G1C, then STAND"),
        "{reply}"
    );
    assert!(
        reply.contains("Not understood: \"B9Z\" is not a square"),
        "{reply}"
    );
    assert!(!outs.iter().any(|o| o.to == ANN), "Blue is not told");
    let outs = site.mail(BOB, &bob, "BOARD");
    let board = flat(&body_to(&outs, BOB));
    assert!(
        board.contains(
            "Your answers given in advance (CANCEL IF drops them): IF ATTACKED AT G1C STAND"
        ),
        "{board}"
    );
    // Blue attacks with the answer to a stand given in the same line, and
    // the second half of her double turn after it.
    let outs = site.mail(
        ANN,
        &ann,
        "ATTACK B1C G1C SUPPORT B1CL; IF STAND OPTION 3\ninf BR B3C",
    );
    let reply = flat(&body_to(&outs, ANN));
    assert!(
        reply.contains("Noted: if stand, then OPTION 3 (for the attack of this mail)"),
        "{reply}"
    );
    assert!(!reply.contains("Refused"), "{reply}");
    let told = flat(&body_to(&outs, BOB));
    for event in [
        "Gray infantry in G1C stands",
        "Blue takes option 3",
        "Blue infantry moves BR -> B3C",
    ] {
        assert!(told.contains(event), "{event}: {told}");
    }
    assert!(
        told.contains("Gray to move") || told.contains("your turn"),
        "{told}"
    );
    assert!(
        !told.contains("Your answers given in advance"),
        "used once: {told}"
    );
    // The record shows both answers were given in advance (read from the
    // store: this game began at a set position, so it does not replay).
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    let comments: Vec<String> = db
        .prepare("SELECT text FROM entries WHERE game_id = 1 AND kind = 'comment' ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        comments,
        [
            "Gray answered in advance: IF ATTACKED AT G1C STAND",
            "Blue answered in advance: IF STAND OPTION 3"
        ]
    );
    // CANCEL IF drops what is left.
    site.mail(BOB, &bob, "IF ATTACKED STAND");
    let outs = site.mail(BOB, &bob, "CANCEL IF");
    let reply = flat(&body_to(&outs, BOB));
    assert!(
        reply.contains("1 answer(s) given in advance cancelled; 0 left"),
        "{reply}"
    );
}

#[test]
fn a_mail_that_always_fails_is_set_aside_after_its_tries_and_the_queue_goes_on() {
    let mut site = Site::with("poison", |c| {
        c.moderators.addresses = vec!["mod@example.org".into()];
    });
    let (ann, _) = start(&mut site);
    // A real failure inside processing, for this one mail only: the
    // database refuses to record it (as a full disk or a bug would fail).
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    db.execute_batch(
        "CREATE TRIGGER poison BEFORE INSERT ON messages \
         WHEN NEW.message_id = 'poison@test' BEGIN SELECT RAISE(ABORT, 'poisoned'); END;",
    )
    .unwrap();
    let poison = format!(
        "From: {ANN}\r\nTo: {ann}\r\nSubject: x\r\nMessage-ID: <poison@test>\r\n\r\nPASS\r\n"
    );
    site.inbox.deliver(poison.as_bytes()).unwrap();
    // The first two polls fail on it and leave it waiting; the others'
    // mail is answered all the same.
    for n in 1..=2 {
        let outs = site.mail(BOB, "orderly@example.org", "GAMES");
        assert!(body_to(&outs, BOB).contains("game(s)"), "poll {n}");
        assert_eq!(site.inbox.new_messages().unwrap().len(), 1, "poll {n}");
    }
    // The third try sets it aside and tells the moderator; nothing of it
    // was applied.
    let outs = site.mail(BOB, "orderly@example.org", "GAMES");
    assert!(site.inbox.new_messages().unwrap().is_empty());
    let kept: Vec<_> = std::fs::read_dir(site.dir.join("inbox/.Quarantine/cur"))
        .unwrap()
        .collect();
    assert_eq!(kept.len(), 1);
    let told = body_to(&outs, "mod@example.org");
    assert!(told.contains("could not be processed in 3 tries"), "{told}");
    assert!(told.contains("poisoned"), "{told}");
    assert!(
        !outs.iter().any(|o| o.to == ANN),
        "the sender gets no answer"
    );
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(shown.contains("Blue, turn 1"), "{shown}");
}

#[test]
fn a_mail_that_cannot_be_sent_backs_off_alone_and_the_rest_flows() {
    // A real sendmail command (a script): it takes mail for everyone but
    // one address, which it refuses as a temporary failure (EX_TEMPFAIL).
    let dir = std::env::temp_dir().join(format!(
        "orderly-svc-{}-sendmail-script",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("delivered")).unwrap();
    let script = dir.join("sendmail");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do to=\"$a\"; done\n\
             if [ -e {refuse} ] && [ \"$to\" = far@unreachable.example ]; then exit 75; fi\n\
             cat > {out}/$to.$$.eml\n",
            refuse = dir.join("refuse").display(),
            out = dir.join("delivered").display()
        ),
    )
    .unwrap();
    std::fs::write(dir.join("refuse"), "").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut site = Site::with("sendmail", |c| c.outgoing.sendmail = Some(script.clone()));
    let delivered = |to: &str| {
        std::fs::read_dir(dir.join("delivered"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(to)
            })
            .count()
    };
    // Ann's invitation cannot go out; her reply goes, and so does every
    // other mail queued behind the failing one.
    site.mail(
        ANN,
        "orderly@example.org",
        "NEW SQUARES VS far@unreachable.example",
    );
    site.mail(BOB, "orderly@example.org", "HELP");
    site.mail("carol@example.org", "orderly@example.org", "GAMES");
    assert_eq!(delivered("far@unreachable.example"), 0);
    assert_eq!(delivered(ANN), 1);
    assert_eq!(delivered(BOB), 1);
    assert_eq!(delivered("carol@example.org"), 1);
    // Once the address takes mail again, the invitation goes at its retry.
    std::fs::remove_file(dir.join("refuse")).unwrap();
    let later = chrono::Utc::now() + chrono::Duration::hours(1);
    site.service.drain_outbox(later).unwrap();
    assert_eq!(delivered("far@unreachable.example"), 1);
    assert_eq!(delivered(ANN), 1, "nothing sent twice");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_mail_cannot_flood_invite_a_crowd_or_amplify() {
    let mut site = Site::new("floods");
    // 1,000 NEW lines: at most 40 lines are read, 5 invitations go out.
    let news: String = (0..1000)
        .map(|n| format!("NEW SQUARES VS p{n}@example.net\n"))
        .collect();
    let outs = site.mail(ANN, "orderly@example.org", &news);
    let invited: Vec<_> = outs.iter().filter(|o| o.to != ANN).collect();
    assert_eq!(
        invited.len(),
        5,
        "{:?}",
        invited.iter().map(|o| &o.to).collect::<Vec<_>>()
    );
    let reply = flat(&body_to(&outs, ANN));
    assert!(
        reply.contains("you have 5 invitations waiting for an answer"),
        "{reply}"
    );
    assert!(reply.contains("Not read: 960 more line(s)"), "{reply}");
    // 10,000 HELP lines: HELP once, a reply far below the incoming size.
    let helps = "HELP\n".repeat(10_000);
    let outs = site.mail(BOB, "orderly@example.org", &helps);
    let reply = body_to(&outs, BOB);
    assert_eq!(reply.matches("The commands are below.").count(), 1);
    assert!(reply.len() < 64 * 1024, "{} bytes", reply.len());
    // A long line is echoed cut, not in full.
    let long = format!("MOVE {}", "X".repeat(5000));
    let outs = site.mail(BOB, "orderly@example.org", &long);
    let reply = body_to(&outs, BOB);
    assert!(reply.contains("... (cut)"), "{reply}");
    assert!(reply.len() < 8 * 1024, "{} bytes", reply.len());
}

#[test]
fn strangers_get_one_short_answer_and_no_reply_addresses_none() {
    let mut site = Site::new("strangers");
    let (ann, _) = start(&mut site);
    // A forged mail with a stolen key and many lines: one short answer.
    let many = "cav BR B3C\nPASS\nRESIGN\nOFFER DRAW\nHELP\nBOARD\n".repeat(5);
    let outs = site.mail("eve@example.org", &ann, &many);
    let eve = body_to(&outs, "eve@example.org");
    assert_eq!(eve.matches("Refused").count(), 1, "{eve}");
    assert!(flat(&eve).contains("more line(s) not answered"), "{eve}");
    assert!(!eve.contains("SQUARES -"), "no board for a stranger: {eve}");
    assert_eq!(
        outs.iter().filter(|o| o.to == ANN).count(),
        1,
        "one warning"
    );
    // Never answered: no-reply senders, our own addresses, the bounce address.
    for (from, to) in [
        ("noreply@shop.example", "orderly@example.org"),
        ("no-reply@shop.example", "orderly@example.org"),
        ("DoNotReply@bank.example", "orderly@example.org"),
        ("orderly+g1.abcdefgh@example.org", "orderly@example.org"),
        ("bounces@example.org", "orderly@example.org"),
        ("carol@example.org", "bounces+1.abc@example.org"),
    ] {
        let outs = site.mail(from, to, "HELP");
        assert!(outs.is_empty(), "{from} -> {to}: {outs:?}");
    }
}

#[test]
fn the_secret_the_database_and_the_mail_are_for_the_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let mut site = Site::new("private");
    start(&mut site);
    let mode = |p: PathBuf| std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    for file in ["secret", "orderly.db", "orderly.db-wal"] {
        assert_eq!(mode(site.dir.join(file)), 0o600, "{file}");
    }
    for dir in ["sent", "inbox", "inbox/new", "inbox/cur"] {
        assert_eq!(mode(site.dir.join(dir)), 0o700, "{dir}");
    }
    for mail in std::fs::read_dir(site.dir.join("sent")).unwrap() {
        assert_eq!(mode(mail.unwrap().path()), 0o600);
    }
}

#[test]
fn a_captured_mail_sent_again_under_a_new_message_id_is_a_replay() {
    let mut site = Site::new("replay");
    let (ann, bob) = start(&mut site);
    let mail = |id: &str| {
        format!(
            "From: {ANN}\r\nTo: {ann}\r\nSubject: x\r\nMessage-ID: <{id}@test>\r\n\
             Date: Sun, 22 Nov 2026 08:00:00 +0000\r\n\r\ncav BR B3C\r\n"
        )
    };
    let outs = site.raw(mail("first").as_bytes());
    assert!(flat(&body_to(&outs, ANN)).contains("Taken: MOVE CAVALRY BR B3C"));
    site.mail(BOB, &bob, "inf GR G3C");
    // The same mail again, a new Message-ID: not acted on, not answered.
    let outs = site.raw(mail("again").as_bytes());
    assert!(outs.is_empty(), "{outs:?}");
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(
        shown.contains("Blue, turn 3"),
        "Blue still to play: {shown}"
    );
}

#[test]
fn replies_keep_the_game_thread_and_say_refused_only_when_nothing_was_done() {
    let mut site = Site::new("thread");
    let (ann, _) = start(&mut site);
    // Nothing in it is a command, but it came with the seat's key: the
    // answer keeps the game's reply address, so the next reply counts.
    let outs = site.mail(ANN, &ann, "Hmm, let me think about it.");
    let reply = to(&outs, ANN);
    assert_eq!(reply.reply_to, ann, "{reply:?}");
    // An order taken beside a line refused: the subject says the state.
    let outs = site.mail(ANN, &ann, "cav BR B3C\nHELP MOVES Z9");
    let reply = to(&outs, ANN);
    assert!(
        flat(&reply.body).contains("Taken: MOVE CAVALRY BR B3C"),
        "{}",
        reply.body
    );
    assert_eq!(reply.subject, "Game 1: Gray to move (turn 2)");
    // An answer for an attack that was not made is not kept, and says so.
    let outs = site.mail(ANN, &ann, "ATTACK B1C G1C; IF STAND OPTION 4");
    let body = flat(&body_to(&outs, ANN));
    assert!(
        body.contains("Not kept: this mail made no attack"),
        "{body}"
    );
}

#[test]
fn held_second_half_orders_are_played_when_the_writers_own_decision_ends_the_attack() {
    let mut site = Site::new("held");
    let (ann, bob) = start(&mut site);
    // Blue's double turn (R4): the first half is an attack.
    set_position(&site, "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -");
    // A refused line stops the mail; what follows is told once why.
    let outs = site.mail(ANN, &ann, "B1C x G9Z\ninf BR B3C");
    let reply = flat(&body_to(&outs, ANN));
    assert!(
        reply.contains("Not applied: an earlier order of this message was refused."),
        "{reply}"
    );
    assert!(
        !reply.to_lowercase().contains("not applied: not applied"),
        "{reply}"
    );
    let outs = site.mail(ANN, &ann, "B1C x G1C + B1CL\ninf BR B3C");
    let reply = flat(&body_to(&outs, ANN));
    assert!(reply.contains("Held:"), "{reply}");
    let outs = site.mail(BOB, &bob, "stand");
    assert!(!flat(&body_to(&outs, BOB)).contains("Refused"));
    // Blue's own OPTION 3 ends the attack: the held line is played now,
    // and this mail's own line after it is not lost either: it is told.
    let outs = site.mail(ANN, &ann, "option 3\npass");
    let reply = flat(&body_to(&outs, ANN));
    assert!(reply.contains("Taken: MOVE INFANTRY BR B3C"), "{reply}");
    assert!(
        reply.contains("Not applied: your turn had ended"),
        "{reply}"
    );
    let told = flat(&body_to(&outs, BOB));
    assert!(told.contains("Blue infantry moves BR -> B3C"), "{told}");
    assert!(told.contains("Gray to move"), "{told}");
}

/// The lines of `body` that explain a rule id (`- R7  ...`), by id.
fn rule_lines(body: &str) -> Vec<(String, String)> {
    body.lines()
        .filter_map(|l| {
            let id = l.strip_prefix("- ")?.split_whitespace().next()?;
            let mut chars = id.chars();
            let numbered = matches!(chars.next(), Some('R' | 'S' | 'N'))
                && chars.as_str().parse::<u32>().is_ok();
            numbered.then(|| (id.to_string(), l.to_string()))
        })
        .collect()
}

#[test]
fn help_rules_mails_a_games_rules_with_a_line_for_each_rule_id() {
    let mut site = Site::new("rules");
    let has_line = |body: &str, id: &str| rule_lines(body).iter().any(|(i, _)| i == id);
    let fits = |body: &str| {
        if let Some(l) = body.lines().find(|l| l.chars().count() > 76) {
            panic!("a line of {} columns: {l:?}", l.chars().count());
        }
    };
    // HELP names the command.
    let body = body_to(&site.mail(ANN, "orderly@example.org", "HELP"), ANN);
    assert!(
        body.contains("  HELP RULES [SQUARES|NAPOLEONIC|CIVILWAR1863|BROTHERSATWAR]\n"),
        "{body}"
    );
    // Without a game: the rules of SQUARES, and how to get the others.
    let body = body_to(&site.mail(ANN, "orderly@example.org", "help rules"), ANN);
    assert!(
        flat(&body).contains(
            "> help rules The rules of SQUARES - The Civil War Battle Game are below. \
             For another game's, write HELP RULES NAPOLEONIC or HELP RULES CIVILWAR1863 \
             or HELP RULES BROTHERSATWAR."
        ),
        "{body}"
    );
    assert!(body.contains(Squares::RULES.trim_end()), "{body}");
    assert!(body.contains("## Winning"), "{body}");
    for id in ["R7", "R16", "R28", "S2", "S8"] {
        assert!(has_line(&body, id), "{id} has no line:\n{body}");
    }
    assert!(!has_line(&body, "N14"), "{body}");
    assert_eq!(rule_lines(&body).len(), 28 + 8, "{body}");
    fits(&body);
    // Named: the variant's rules, which keep the R and S ids.
    let body = body_to(
        &site.mail(ANN, "orderly@example.org", "HELP RULES NAPOLEONIC"),
        ANN,
    );
    assert!(
        flat(&body).contains(
            "The rules of SQUARES - The Napoleonic War Variant are below. \
             For another game's, write HELP RULES SQUARES or HELP RULES CIVILWAR1863 \
             or HELP RULES BROTHERSATWAR."
        ),
        "{body}"
    );
    assert!(body.contains(Napoleonic::RULES.trim_end()), "{body}");
    for id in ["R7", "S2", "N14", "N37"] {
        assert!(has_line(&body, id), "{id} has no line:\n{body}");
    }
    assert_eq!(rule_lines(&body).len(), 28 + 8 + 38, "{body}");
    fits(&body);
    // Sent with a game's key: that game's rules.
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW NAPOLEONIC VS bob@example.org",
    );
    let bob_addr = to(&outs, BOB).reply_to;
    let body = body_to(&site.mail(BOB, &bob_addr, "rules"), BOB);
    assert!(flat(&body).contains("The rules of SQUARES - The Napoleonic War Variant are below"));
    assert!(has_line(&body, "N14"), "{body}");
    // A key that is not the game's tells nothing of the game.
    let bad = bob_addr.replace("+g1.", "+g1.x");
    let body = body_to(&site.mail(BOB, &bad, "HELP RULES"), BOB);
    assert!(flat(&body).contains("The rules of SQUARES - The Civil War Battle Game are below"));
    assert!(!has_line(&body, "N14"), "{body}");
    // A game not hosted.
    let body = body_to(
        &site.mail(ANN, "orderly@example.org", "HELP RULES CHESS"),
        ANN,
    );
    assert!(
        flat(&body).contains(
            "Not understood: \"CHESS\" is not a game here; \
             write HELP RULES SQUARES or HELP RULES NAPOLEONIC or HELP RULES CIVILWAR1863 \
             or HELP RULES BROTHERSATWAR."
        ),
        "{body}"
    );
}

#[test]
fn a_duplicate_delivery_is_ignored_and_automatic_mail_is_never_answered() {
    let mut site = Site::new("duplicate");
    let (ann_addr, _) = start(&mut site);
    let raw = format!(
        "From: {ANN}\r\nTo: {ann_addr}\r\nSubject: move\r\nMessage-ID: <dup@test>\r\n\r\ncav BR B3C\r\n"
    );
    let outs = site.raw(raw.as_bytes());
    assert_eq!(outs.len(), 2, "a reply and the opponent's update");
    let outs = site.raw(raw.as_bytes());
    assert!(outs.is_empty(), "a second delivery is ignored: {outs:#?}");
    let auto = format!(
        "From: {ANN}\r\nTo: {ann_addr}\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\n\
         Message-ID: <auto@test>\r\n\r\nI am away.\r\n"
    );
    assert!(site.raw(auto.as_bytes()).is_empty());
    let bounce = "From: MAILER-DAEMON@example.org\r\nTo: orderly@example.org\r\nSubject: Undelivered\r\n\
         Message-ID: <bounce@test>\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n\
         --b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--b--\r\n";
    assert!(site.raw(bounce.as_bytes()).is_empty());
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(
        shown.contains("position 9I3A3C/1C+1/"),
        "one move, once: {shown}"
    );
}

#[test]
fn an_order_under_a_quoted_board_and_html_mail_are_read() {
    let mut site = Site::new("quoted");
    let (ann_addr, bob_addr) = start(&mut site);
    let outs = site.mail(
        ANN,
        &ann_addr,
        "cav BR-B3C\n\nOn Sat, 21 Nov 2026 at 10:02, orderly <orderly@example.org> wrote:\n> +-----+\n> | BR  |\n> MOVE G2CR G1C\n",
    );
    assert!(to(&outs, ANN).body.contains("Taken: MOVE CAVALRY BR B3C"));
    let html = format!(
        "From: {BOB}\r\nTo: {bob_addr}\r\nSubject: move\r\nMessage-ID: <html@test>\r\n\
         Content-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>inf GR G3C</p><p>Bob</p></body></html>\r\n"
    );
    let outs = site.raw(html.as_bytes());
    let body = to(&outs, BOB).body;
    assert!(body.contains("Taken: MOVE INFANTRY GR G3C"), "{body}");
}

/// The text/plain and text/html parts of a mail the service wrote, decoded,
/// checked to be a multipart/alternative with the plain text first. A
/// board mail holds that alternative first in a multipart/mixed, the
/// board's picture attached after it, and its HTML comes with the picture
/// it shows in a multipart/related (issue 19).
fn plain_and_html(raw: &str) -> (String, String) {
    let parsed = mailparse::parse_mail(raw.as_bytes()).unwrap();
    let alternative = if parsed.ctype.mimetype == "multipart/mixed" {
        let kinds: Vec<&str> = parsed
            .subparts
            .iter()
            .map(|p| p.ctype.mimetype.as_str())
            .collect();
        assert_eq!(kinds, ["multipart/alternative", "image/png"], "{raw}");
        &parsed.subparts[0]
    } else {
        &parsed
    };
    assert_eq!(alternative.ctype.mimetype, "multipart/alternative", "{raw}");
    let kinds: Vec<&str> = alternative
        .subparts
        .iter()
        .map(|p| p.ctype.mimetype.as_str())
        .collect();
    let html = match kinds.as_slice() {
        ["text/plain", "text/html"] => &alternative.subparts[1],
        ["text/plain", "multipart/related"] => {
            let related = &alternative.subparts[1];
            assert_eq!(related.subparts[1].ctype.mimetype, "image/png", "{raw}");
            &related.subparts[0]
        }
        _ => panic!("not the text, then the HTML: {kinds:?}\n{raw}"),
    };
    let decoded = |part: &mailparse::ParsedMail| part.get_body().unwrap().replace("\r\n", "\n");
    (decoded(&alternative.subparts[0]), decoded(html))
}

/// The text inside the one `<pre>`, unescaped.
fn pre_text(html: &str) -> String {
    assert_eq!(html.matches("<pre ").count(), 1, "{html}");
    let start = html.find("<pre ").unwrap();
    let start = start + html[start..].find(">\n").unwrap() + 2;
    let end = html.find("</pre>").unwrap();
    html[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[test]
fn every_mail_carries_its_text_as_html_in_a_pre_after_the_plain_text() {
    let mut site = Site::new("html");
    let (ann_addr, _) = start(&mut site);
    let outs = site.mail(ANN, &ann_addr, "cav BR B3C\n<b>&'\"</b>");
    assert_eq!(outs.len(), 2);
    for o in &outs {
        let (plain, html) = plain_and_html(&o.raw);
        assert_eq!(plain, o.body);
        assert_eq!(pre_text(&html), plain);
        assert!(html.contains("<meta name=\"viewport\" content=\"width=device-width\">"));
        assert!(!html.contains("<b>"), "{html}");
    }
    let reply = to(&outs, ANN);
    assert!(reply.body.contains("<b>&'\"</b>"), "{}", reply.body);
    assert!(
        reply.raw.contains("&lt;b&gt;&amp;&#39;&quot;&lt;/b&gt;"),
        "{}",
        reply.raw
    );
}

#[test]
fn html_off_sends_the_plain_text_alone() {
    let mut site = Site::with("html-off", |config| config.outgoing.html = false);
    let (ann_addr, _) = start(&mut site);
    let outs = site.mail(ANN, &ann_addr, "cav BR B3C");
    assert_eq!(outs.len(), 2);
    for o in &outs {
        let parsed = mailparse::parse_mail(o.raw.as_bytes()).unwrap();
        assert_eq!(parsed.ctype.mimetype, "text/plain");
        assert!(parsed.subparts.is_empty());
        assert!(!o.raw.contains("<pre"), "{}", o.raw);
        assert!(o
            .raw
            .contains("Content-Type: text/plain; charset=utf-8; format=fixed\r\n"));
    }
}

#[test]
fn an_html_reply_quoting_our_html_board_is_read_without_the_quote() {
    let mut site = Site::new("html-reply");
    let (ann_addr, bob_addr) = start(&mut site);
    let outs = site.mail(ANN, &ann_addr, "cav BR B3C");
    let update = to(&outs, BOB);
    let (plain, html) = plain_and_html(&update.raw);
    assert!(plain.contains("+---"), "a board: {plain}");
    let pre = &html[html.find("<pre").unwrap()..html.find("</pre>").unwrap() + 6];
    // Gmail's HTML reply: the orders, the attribution, our <pre> quoted.
    let html_reply = |attribution: &str| {
        let reply = format!(
            "<div dir=\"ltr\">inf GR G3C</div><br><div class=\"gmail_quote\">{attribution}\
             <blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex;\
             border-left:1px solid rgb(204,204,204);padding-left:1ex\">{pre}</blockquote></div>"
        );
        format!(
            "From: {BOB}\r\nTo: {bob_addr}\r\nSubject: Re: {subject}\r\n\
             Message-ID: <html-reply@test>\r\nIn-Reply-To: <{id}>\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/html; charset=UTF-8\r\n\r\n{reply}\r\n",
            subject = update.subject,
            id = update.message_id,
        )
    };
    // Without an attribution, the blockquote alone marks the quote.
    let unattributed = intake::parse(html_reply("").as_bytes()).unwrap();
    assert_eq!(
        unattributed.text, "inf GR G3C",
        "{}",
        unattributed.full_text
    );
    assert!(unattributed.full_text.contains("\n> +---"));
    let raw = html_reply(
        "<div dir=\"ltr\" class=\"gmail_attr\">On Sat, 21 Nov 2026 at 10:00, orderly \
         &lt;orderly@example.org&gt; wrote:<br></div>",
    );
    let outs = site.raw(raw.as_bytes());
    let body = to(&outs, BOB).body;
    assert!(body.contains("Taken: MOVE INFANTRY GR G3C"), "{body}");
    assert!(!body.contains("Not understood"), "{body}");
    let echoed: Vec<&str> = body.lines().filter(|l| l.starts_with("> ")).collect();
    assert_eq!(
        echoed,
        ["> inf GR G3C"],
        "only the order is answered: {body}"
    );
}

#[test]
fn every_outgoing_mail_is_threaded_and_marked_automatic() {
    let mut site = Site::new("headers");
    let (ann_addr, _) = start(&mut site);
    let outs = site.mail(ANN, &ann_addr, "cav BR B3C");
    for o in &outs {
        assert!(o.raw.contains("Auto-Submitted: auto-"), "{}", o.raw);
        assert!(o.raw.contains("List-Id: <game-1.example.org>"), "{}", o.raw);
        // The subject carries the state, read from each one's seat.
        let state = if o.to == ANN {
            "Gray to move (turn 2)"
        } else {
            "your move (turn 2)"
        };
        assert_eq!(o.subject, format!("Game 1: {state}"));
        assert!(!o.message_id.is_empty());
        for line in o.body.lines() {
            assert!(line.len() <= 76, "{line:?}");
        }
    }
    let reply = to(&outs, ANN);
    assert_eq!(reply.in_reply_to, vec!["t3@test".to_string()]);
    let _ = Utc::now();
}

fn body_to(outs: &[Out], who: &str) -> String {
    to(outs, who).body
}

#[test]
fn every_command_is_answered_with_what_was_understood_and_done() {
    let mut site = Site::new("commands");
    // HELP and GAMES need no game.
    let outs = site.mail(ANN, "orderly@example.org", "help\ngames");
    let body = body_to(&outs, ANN);
    assert!(body.contains("> help\nThe commands are below."), "{body}");
    assert!(body.contains("NEW SQUARES VS their@address"), "{body}");
    assert!(body.contains("> games\n0 game(s)."), "{body}");
    assert!(body.contains("You have no games"), "{body}");
    // NEW with sides; a bad NEW says how to write it.
    let outs = site.mail(ANN, "orderly@example.org", "new squares bob");
    assert!(body_to(&outs, ANN).contains("write NEW SQUARES VS"));
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW SQUARES VS bob@example.org AS GRAY FIRST GRAY",
    );
    assert!(body_to(&outs, ANN).contains("you play Gray against bob@example.org, Gray moves first"));
    let invitation = to(&outs, BOB);
    assert!(invitation.body.contains("as Blue"), "{}", invitation.body);
    let bob_addr = invitation.reply_to.clone();
    // DECLINE ends the invitation; the proposer is told.
    let outs = site.mail(BOB, &bob_addr, "decline");
    assert!(body_to(&outs, BOB).contains("You declined game 1"));
    assert!(body_to(&outs, ANN).contains("declined game 1"));
    let outs = site.mail(BOB, &bob_addr, "accept");
    assert!(
        body_to(&outs, BOB).contains("game 1 is declined"),
        "{}",
        body_to(&outs, BOB)
    );
    // A second game: ACCEPT, BOARD, HELP MOVES, HISTORY, draws, RESIGN.
    let (ann_addr, bob_addr) = {
        let outs = site.mail(ANN, "orderly@example.org", "NEW SQUARES VS bob@example.org");
        let bob_addr = to(&outs, BOB).reply_to;
        let outs = site.mail(BOB, &bob_addr, "ACCEPT");
        (to(&outs, ANN).reply_to, bob_addr)
    };
    assert!(ann_addr.contains("+g2."), "{ann_addr}");
    let outs = site.mail(ANN, &ann_addr, "BOARD\nHELP MOVES BR");
    let body = body_to(&outs, ANN);
    assert!(
        body.contains("> BOARD\nThe board and the choices are below."),
        "{body}"
    );
    assert!(body.contains("Legal orders for BR"), "{body}");
    // BOARD ALL: a SQUARES board is always whole; it comes as BOARD's.
    let board = body_to(&site.mail(ANN, &ann_addr, "BOARD"), ANN);
    let all = body_to(&site.mail(ANN, &ann_addr, "Board all."), ANN);
    assert!(
        all.contains("> Board all.\nThe whole board and the choices are below."),
        "{all}"
    );
    let drawn = |body: &str| body.split_once("\n\nGame 2:").map(|(_, b)| b.to_string());
    assert!(drawn(&all).is_some(), "{all}");
    assert_eq!(drawn(&all), drawn(&board));
    site.mail(ANN, &ann_addr, "cav BR B3C");
    let outs = site.mail(BOB, &bob_addr, "history");
    let body = body_to(&outs, BOB);
    assert!(body.contains("1. Blue MOVE CAVALRY BR B3C"), "{body}");
    let outs = site.mail(BOB, &bob_addr, "offer draw");
    assert!(body_to(&outs, ANN).contains("offers a draw"));
    let outs = site.mail(ANN, &ann_addr, "decline draw");
    assert!(body_to(&outs, ANN).contains("Draw declined"));
    assert!(body_to(&outs, BOB).contains("declines the draw"));
    let outs = site.mail(ANN, &ann_addr, "accept draw");
    assert!(body_to(&outs, ANN).contains("there is no draw offer"));
    let outs = site.mail(BOB, &bob_addr, "offer draw");
    assert!(body_to(&outs, BOB).contains("Draw offered"));
    let outs = site.mail(ANN, &ann_addr, "ACCEPT DRAW");
    assert!(body_to(&outs, ANN).contains("Draw agreed: game 2 is over"));
    assert!(body_to(&outs, BOB).contains("The game is over: a draw (draw agreed)"));
    // A third game, resigned.
    let outs = site.mail(BOB, "orderly@example.org", "NEW SQUARES VS ann@example.org");
    let ann3 = to(&outs, ANN).reply_to;
    let outs = site.mail(ANN, &ann3, "accept");
    let bob3 = to(&outs, BOB).reply_to;
    let outs = site.mail(BOB, &bob3, "RESIGN");
    assert!(
        body_to(&outs, BOB).contains("You resigned game 3. Gray wins."),
        "{}",
        body_to(&outs, BOB)
    );
    let final_mail = body_to(&outs, ANN);
    assert!(final_mail.contains("Gray wins (Blue resigned)"));
    // The mail that ends a game carries its record, and its board says the
    // game is over instead of whose move it would have been.
    assert!(
        final_mail.contains("The record of the game:"),
        "{final_mail}"
    );
    assert!(final_mail.contains("Blue RESIGNS"), "{final_mail}");
    assert!(!final_mail.contains("to move"), "{final_mail}");
    assert!(final_mail.contains("Game over in turn 1: Gray wins (Blue resigned)."));
    let outs = site.mail(BOB, &bob3, "cav BR B3C");
    assert!(body_to(&outs, BOB).contains("game 3 is finished"));
    // A finished game can still be read: its record and its board.
    let outs = site.mail(BOB, &bob3, "HISTORY\nBOARD");
    let body = flat(&body_to(&outs, BOB));
    assert!(!body.contains("Refused"), "{body}");
    assert!(body.contains("The record of the game is below"), "{body}");
    assert!(body.contains("Blue RESIGNS"), "{body}");
    let outs = site.mail(BOB, "orderly@example.org", "GAMES");
    let body = flat(&body_to(&outs, BOB));
    assert!(
        body.contains(
            "game 3: SQUARES as Blue vs ann@example.org: finished, Gray won (Blue resigned)"
        ),
        "{body}"
    );
    let outs = site.mail(ANN, "orderly@example.org", "GAMES");
    let body = body_to(&outs, ANN);
    assert!(body.contains("3 game(s)."), "{body}");
    assert!(
        body.contains("game 2: SQUARES as Blue vs bob@example.org: finished, a draw (draw agreed)"),
        "{body}"
    );
    let record =
        orderly::service::admin::export(site.service.store(), 3, false, "example.org").unwrap();
    assert!(record.contains("Blue RESIGNS"), "{record}");
}

#[test]
fn mail_in_other_charsets_and_encodings_and_malformed_mime_is_read() {
    let mut site = Site::new("charsets");
    let (ann_addr, bob_addr) = start(&mut site);
    // base64, ISO-8859-1 (the signature has a non-ASCII letter).
    let body = b"cav BR B3C\r\n-- \r\nAnn\xe9\r\n";
    let b64 = base64(body);
    let raw = format!(
        "From: {ANN}\r\nTo: {ann_addr}\r\nSubject: =?iso-8859-1?q?coup_=E9?=\r\nMessage-ID: <b64@test>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{b64}\r\n"
    );
    let outs = site.raw(raw.as_bytes());
    assert!(
        body_to(&outs, ANN).contains("Taken: MOVE CAVALRY BR B3C"),
        "{}",
        body_to(&outs, ANN)
    );
    // quoted-printable, windows-1252 with a soft line break in the order.
    let raw = format!(
        "From: {BOB}\r\nTo: {bob_addr}\r\nSubject: move\r\nMessage-ID: <qp@test>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=windows-1252\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
         inf GR=\r\n G3C\r\n\r\nGr=FC=DFe =80\r\n"
    );
    let outs = site.raw(raw.as_bytes());
    assert!(
        body_to(&outs, BOB).contains("Taken: MOVE INFANTRY GR G3C"),
        "{}",
        body_to(&outs, BOB)
    );
    // Malformed MIME: a broken boundary. Read as far as it goes, answered.
    let raw = format!(
        "From: {ANN}\r\nTo: {ann_addr}\r\nSubject: broken\r\nMessage-ID: <broken@test>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/alternative; boundary=\"abc\"\r\n\r\n--abd\r\nContent-Type: text/plain\r\n\r\nPASS\r\n"
    );
    let outs = site.raw(raw.as_bytes());
    assert_eq!(outs.iter().filter(|o| o.to == ANN).count(), 1, "{outs:#?}");
}

#[test]
fn a_flood_from_one_sender_is_set_aside_unanswered() {
    let mut site = Site::new("flood");
    let limit = 120;
    for _ in 0..limit {
        site.mail("flood@example.org", "orderly@example.org", "help");
    }
    assert!(site
        .mail("flood@example.org", "orderly@example.org", "help")
        .is_empty());
    assert!(!site.mail(ANN, "orderly@example.org", "help").is_empty());
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn a_long_mail_is_read_as_far_as_the_limits_and_the_reply_says_so() {
    let mut site = Site::with("limits", |c| {
        c.intake.max_lines = 5;
        c.intake.max_line_chars = 100;
    });
    let mut body: String = (0..8).map(|i| format!("hello there {i}\n")).collect();
    body.insert_str(0, &format!("{}\n", "word ".repeat(40)));
    let outs = site.mail(ANN, "orderly@example.org", &body);
    let reply = flat(&body_to(&outs, ANN));
    assert!(
        reply.contains(
            "Only the first 5 lines of your mail were read; the 4 lines after them were not read."
        ),
        "{reply}"
    );
    assert!(
        reply.contains(
            "1 line was longer than 100 characters; only the first 100 characters of it were read."
        ),
        "{reply}"
    );
    assert!(!reply.contains("hello there 5"), "{reply}");
}

#[test]
fn a_mail_too_large_gets_one_short_answer_only_from_a_verified_sender() {
    let mut site = Site::with("too-large", |c| c.intake.max_mail_bytes = 10_000);
    start(&mut site);
    let big = |from: &str, n: u32, extra: &str| {
        format!(
            "{extra}From: {from}\r\nTo: orderly@example.org\r\nSubject: big\r\n\
             Message-ID: <big{n}@test>\r\n\r\n{}",
            "RESIGN\r\n".repeat(2_000)
        )
    };
    // A player of a game here: one short answer, nothing done.
    let outs = site.raw(big(ANN, 1, "").as_bytes());
    assert_eq!(outs.len(), 1, "{outs:#?}");
    let answer = flat(&outs[0].body);
    assert!(
        answer.contains("Your mail of 16") && answer.contains("the limit is 10000 bytes"),
        "{answer}"
    );
    assert_eq!(outs[0].to, ANN);
    assert_eq!(outs[0].in_reply_to, ["big1@test"]);
    // A stranger: nothing at all; the same with a DKIM pass: the answer.
    assert!(site
        .raw(big("eve@elsewhere.example", 2, "").as_bytes())
        .is_empty());
    let signed = "Authentication-Results: mx.example.org; dkim=pass header.d=elsewhere.example\r\n";
    let outs = site.raw(big("eve@elsewhere.example", 3, signed).as_bytes());
    assert_eq!(outs.len(), 1);
    assert_eq!(outs[0].to, "eve@elsewhere.example");
    // The same mail again: a duplicate, not answered twice.
    assert!(site.raw(big(ANN, 1, "").as_bytes()).is_empty());
    // Nothing was acted on: the game goes on.
    let outs = site.mail(ANN, "orderly@example.org", "GAMES");
    let games = flat(&body_to(&outs, ANN));
    assert!(
        games.contains("game 1: SQUARES as Blue vs bob@example.org: your turn"),
        "{games}"
    );
}

/// The position of game 1 as the service keeps it.
fn stored_position(site: &mut Site) -> String {
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    shown
        .lines()
        .find_map(|l| l.strip_prefix("position "))
        .unwrap_or_else(|| panic!("no position in {shown}"))
        .to_string()
}

/// The lines of one Civil War 1863 mail for the seat `model` waits for:
/// random orders of its turn (or its answer to a decision inside one),
/// stopping where the other seat or the coin must act. No END: the end of
/// the mail closes the turn.
fn civil_war_mail(model: &CivilWar1863, rng: &mut XorShift) -> Vec<String> {
    let seat = model.pending().unwrap().seat;
    let mut sim = model.clone();
    let mut lines = Vec::new();
    while lines.len() < 4 {
        let Some(p) = sim.pending() else { break };
        if p.seat != seat {
            break;
        }
        let legal = sim.legal_orders();
        let moves: Vec<_> = legal
            .iter()
            .filter(|o| **o != civil_war_1863::Order::EndTurn)
            .collect();
        if moves.is_empty() {
            if lines.is_empty() {
                lines.push("END".to_string());
            }
            break;
        }
        let order = moves[rng.below(moves.len())].clone();
        sim.apply(&order).unwrap();
        lines.push(order.to_string());
        if !p.phase.is_turn() && sim.pending().is_some_and(|q| q.phase.is_turn()) {
            // The decision inside the order is answered; the turn goes on
            // in the next mail, which sees the board after the battle.
            break;
        }
    }
    lines
}

#[test]
fn a_civil_war_1863_game_by_mail_a_turn_to_a_mail() {
    let mut site = Site::new("civilwar1863");
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW CIVILWAR1863 VS bob@example.org AS UNION FIRST UNION",
    );
    let invitation = to(&outs, BOB);
    // The same coins every run (with the mails' Message-IDs, which are the
    // same every run too): a failure can be replayed.
    site.fix_seed(&"1863c".repeat(13)[..64]);
    let said = flat(&invitation.body);
    assert!(
        said.contains(&flat(civil_war_1863::core::board::RECONSTRUCTION_NOTE)),
        "the invitation says the board is a reconstruction: {said}"
    );
    // The Confederacy always moves first, whatever the inviter asked.
    assert!(said.contains("Confederacy moves first"), "{said}");
    let bob_addr = invitation.reply_to.clone();
    let rules = body_to(&site.mail(BOB, &bob_addr, "HELP RULES"), BOB);
    assert!(
        rules.contains("- P22 the even battle and its coin"),
        "{rules}"
    );
    let outs = site.mail(BOB, &bob_addr, "accept");
    let bob_start = body_to(&outs, BOB);
    assert!(bob_start.contains("Your orders, one a line"), "{bob_start}");
    assert!(bob_start.contains("Key: U Union"), "{bob_start}");
    let ann_addr = to(&outs, ANN).reply_to;
    let mut rng = XorShift::from_state(0x1863_0703_DEAD_BEEF);
    let mut all = String::new();
    let mut closed = 0;
    for mail in 0..80 {
        let model = CivilWar1863::from_position(&stored_position(&mut site)).unwrap();
        if model.outcome().is_some() {
            break;
        }
        let seat = model.pending().expect("the service draws the coin").seat;
        let lines = civil_war_mail(&model, &mut rng);
        let (from, addr) = match seat {
            Seat::North => (ANN, &ann_addr),
            Seat::South => (BOB, &bob_addr),
        };
        // The first mail keeps its turn open with MORE (design, "By mail").
        let more = if mail == 0 { "\nMORE" } else { "" };
        let outs = site.mail(from, addr, &format!("{}{more}", lines.join("\n")));
        let reply = body_to(&outs, from);
        for line in &lines {
            assert!(reply.contains(&format!("Taken: {line}")), "{line}: {reply}");
        }
        let after = CivilWar1863::from_position(&stored_position(&mut site)).unwrap();
        if mail == 0 {
            assert!(!reply.contains("Taken: END"), "{reply}");
            assert!(reply.contains("> MORE\nYour turn stays open"), "{reply}");
            assert_eq!(
                after.pending().map(|p| (p.seat, p.phase.is_turn())),
                Some((seat, true))
            );
        }
        let turn_was_open = model.pending().is_some_and(|p| p.phase.is_turn());
        if reply.contains("Taken: END") {
            closed += 1;
        } else if mail > 0 && turn_was_open && after.pending().is_some_and(|p| p.seat == seat) {
            // Still the writer's: only a decision inside an order keeps it.
            assert!(!after.pending().unwrap().phase.is_turn(), "{reply}");
        }
        for o in &outs {
            all.push_str(&o.body);
        }
    }
    assert!(closed > 10, "the end of a mail closes the turn: {closed}");
    for line in all.lines() {
        assert!(line.len() <= 76, "{line:?}");
    }
    let model = CivilWar1863::from_position(&stored_position(&mut site)).unwrap();
    if model.outcome().is_none() {
        let outs = site.mail(ANN, &ann_addr, "RESIGN");
        assert!(body_to(&outs, BOB).contains("over"), "{outs:#?}");
    }
    let listed = orderly::service::admin::games(site.service.store()).unwrap();
    assert!(listed.contains("finished"), "{listed}");
    let record =
        orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap();
    assert!(record.contains("[Game \"civilwar1863\"]"), "{record}");
    let replayed = orderly::record::replay(
        &orderly::record::Record::read_as(&record, &Hosted::of::<CivilWar1863>()).unwrap(),
    )
    .unwrap();
    assert_eq!(replayed.game.position(), stored_position(&mut site));
    if record.contains("TOSS") {
        // `orderly verify`: the coin was the committed seed's.
        let (report, ok) = orderly::record::verify_report(&record);
        assert!(ok, "{report}");
    }
}

#[test]
fn a_civil_war_1863_defender_answers_in_advance_and_the_attackers_turn_goes_on() {
    let mut site = Site::new("civilwar1863-ifs");
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW CIVILWAR1863 VS bob@example.org AS UNION",
    );
    let bob = to(&outs, BOB).reply_to;
    let ann = to(&site.mail(BOB, &bob, "accept"), ANN).reply_to;
    set_position(
        &site,
        "cw1863 1; south to move; U: E4 2I / A1 1I; C: E3 3I / R1 1I; markers d3 f6",
    );
    // The Union, waiting, says where the survivors of E4 go (P21).
    let reply = flat(&body_to(
        &site.mail(ANN, &ann, "IF ATTACKED AT E4 SURVIVORS TO E5"),
        ANN,
    ));
    assert!(
        reply.contains("Noted: if attacked at E4, then SURVIVORS TO E5"),
        "{reply}"
    );
    // The Confederacy attacks, takes one (P20), and orders on after it.
    let outs = site.mail(BOB, &bob, "E3 3I-E4\nTAKE 1 KILL 1I LOSE NONE\nR1-R2");
    let reply = flat(&body_to(&outs, BOB));
    for taken in [
        "Taken: E3 3I-E4.",
        "Taken: TAKE 1 KILL 1I LOSE none.",
        "Held: it will be played once the attack is resolved",
        "Taken: R1 1I-R2.",
        "Taken: END.",
    ] {
        assert!(reply.contains(taken), "{taken}: {reply}");
    }
    let told = flat(&body_to(&outs, ANN));
    assert!(
        told.contains("Your 1 infantry moved from E4 to E5."),
        "{told}"
    );
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    let position: String = db
        .query_row("SELECT position FROM games WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    let game = CivilWar1863::from_position(&position).unwrap();
    assert_eq!(game.to_move(), civil_war_1863::Side::Union, "{position}");
    let e5 = civil_war_1863::Square::parse("E5").unwrap();
    assert_eq!(
        game.stack(e5).map(|s| s.side),
        Some(civil_war_1863::Side::Union)
    );
}

/// Lines held until the other player answered an attack are played when
/// he does; their writer hears what became of each, the refused one and
/// those after it included: none is dropped without a word.
#[test]
fn the_writer_of_held_lines_hears_what_became_of_each_when_they_are_played() {
    let mut site = Site::new("held-report");
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW CIVILWAR1863 VS bob@example.org AS UNION",
    );
    let bob = to(&outs, BOB).reply_to;
    let ann = to(&site.mail(BOB, &bob, "accept"), ANN).reply_to;
    set_position(
        &site,
        "cw1863 1; south to move; U: E4 2I / A1 1I; C: E3 3I / R1 1I; markers d3 f6",
    );
    // The Confederacy attacks and orders on; the Union has not said where
    // E4's survivors go, so the rest waits for her.
    let outs = site.mail(
        BOB,
        &bob,
        "E3 3I-E4\nTAKE 1 KILL 1I LOSE NONE\nR1-R2\nR1-R2\nA1-A2",
    );
    let reply = flat(&body_to(&outs, BOB));
    assert_eq!(
        reply.matches("Held: it will be played").count(),
        3,
        "{reply}"
    );
    // Her answer plays them: the first is taken, the second refused (R1 is
    // empty then), the third not applied after it.
    let outs = site.mail(ANN, &ann, "SURVIVORS TO E5");
    let told = body_to(&outs, BOB);
    let flat_told = flat(&told);
    assert!(
        flat_told.contains("The lines of your last mail that were held"),
        "{told}"
    );
    assert!(flat_told.contains("Taken: R1 1I-R2."), "{told}");
    let refused = told.find("Refused").or_else(|| told.find("Not understood"));
    assert!(refused.is_some(), "the refused line is told: {told}");
    assert!(
        flat_told.contains("Not applied: an earlier order of this message was refused"),
        "{told}"
    );
}

/// "Charge!" above the real attack is a cheer, not an attack completed
/// from the only legal one (which would end the turn and refuse the real
/// order); but "Stand!" from the defender, whose answer is awaited, is the
/// answer itself even beside an order that names a square.
#[test]
fn an_exclaimed_verb_is_a_cheer_beside_a_real_order_but_an_awaited_answer_stands() {
    let mut site = Site::new("charge");
    let (ann, bob) = start(&mut site);
    set_position(&site, "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -");
    let outs = site.mail(ANN, &ann, "Charge!\nATTACK B1C G1C SUPPORT B1CL\nAnn");
    let reply = flat(&body_to(&outs, ANN));
    assert!(reply.contains("Taken: ATTACK B1C G1C"), "{reply}");
    assert!(!reply.contains("Not applied"), "{reply}");
    assert!(!reply.contains("could not be done"), "{reply}");
    assert!(reply.contains("> Charge!"), "listed as ignored: {reply}");
    // Gray defends: "Stand!" is his answer, the IF line one for later.
    let outs = site.mail(BOB, &bob, "Stand!\nIF ATTACKED AT G1CL STAND");
    let reply = flat(&body_to(&outs, BOB));
    assert!(reply.contains("Gray infantry in G1C stands"), "{reply}");
    assert!(!reply.contains("could not be done"), "{reply}");
}

/// Runs `orderly verify` on `record` written to a file; returns whether it
/// exited 0 and what it printed.
fn orderly_verify(site: &Site, name: &str, record: &str) -> (bool, String) {
    let path = site.dir.join(name);
    std::fs::write(&path, record).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_orderly"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("orderly runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

#[test]
fn a_civil_war_1863_toss_verifies_and_a_tampered_toss_or_seed_is_refused() {
    let mut site = Site::new("civilwar1863-toss");
    let outs = site.mail(
        ANN,
        "orderly@example.org",
        "NEW CIVILWAR1863 VS bob@example.org AS UNION",
    );
    let bob = to(&outs, BOB).reply_to;
    let ann = to(&site.mail(BOB, &bob, "accept"), ANN).reply_to;
    // From the standard start the Confederate 1I1G at M14 sends its
    // infantry against the lone Union 1I at L14: one against one, an even
    // battle (P22), whose coin the service tosses at once.
    let outs = site.mail(BOB, &bob, "M14 1I-L14");
    let reply = flat(&body_to(&outs, BOB));
    assert!(reply.contains("Taken: M14 1I-L14"), "{reply}");
    let model = CivilWar1863::from_position(&stored_position(&mut site)).unwrap();
    assert!(model.chance().is_none(), "the coin is tossed");
    let outs = site.mail(ANN, &ann, "RESIGN");
    assert!(body_to(&outs, BOB).contains("over"), "{outs:#?}");
    let record =
        orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap();
    let toss = record
        .lines()
        .find(|l| l.trim_start().starts_with("DRAW 1 TOSS "))
        .unwrap_or_else(|| panic!("no toss in {record}"))
        .to_string();
    assert!(record.contains("\nRevealed "), "{record}");

    // As exported: every draw checks out.
    let (ok, said) = orderly_verify(&site, "record.txt", &record);
    assert!(ok, "{said}\n{record}");
    assert!(
        said.contains("draw 1 (the coin of an even battle, 2 outcomes): TOSS"),
        "{said}"
    );

    // The toss turned over: refused, naming draw 1 and its line.
    let other = if toss.contains("HEADS") {
        toss.replace("HEADS", "TAILS")
    } else {
        toss.replace("TAILS", "HEADS")
    };
    let line = record.lines().position(|l| l == toss).unwrap() + 1;
    let tampered = record.replacen(&toss, &other, 1);
    let (ok, said) = orderly_verify(&site, "tossed.txt", &tampered);
    assert!(!ok, "{said}");
    assert!(
        said.contains(&format!("line {line}: draw 1 does not check out")),
        "{said}"
    );

    // Another seed revealed: it does not open the commitment.
    let revealed = record
        .lines()
        .find(|l| l.starts_with("Revealed "))
        .unwrap()
        .to_string();
    let hex = &revealed["Revealed ".len().."Revealed ".len() + 64];
    let last = hex.chars().last().unwrap();
    let changed = format!("{}{}", &hex[..63], if last == '0' { '1' } else { '0' });
    let tampered = record.replacen(&revealed, &revealed.replace(hex, &changed), 1);
    let (ok, said) = orderly_verify(&site, "seed.txt", &tampered);
    assert!(!ok, "{said}");
    assert!(
        said.contains("the revealed seed is not the one committed to"),
        "{said}"
    );
}

#[test]
fn help_lists_the_words_of_the_writers_games_or_of_every_game_under_its_name() {
    use orderly::games::brothers_at_war::BrothersAtWar;
    let fits = |body: &str| {
        if let Some(l) = body.lines().find(|l| l.chars().count() > 76) {
            panic!("a line of {} columns: {l:?}", l.chars().count());
        }
    };
    let mut site = Site::new("help-games");
    let squares = Hosted::of::<Squares>();
    let others = [
        Hosted::of::<Napoleonic>(),
        Hosted::of::<CivilWar1863>(),
        Hosted::of::<BrothersAtWar>(),
    ];
    // A writer who plays nothing reads every game's words, each under
    // its name.
    let body = body_to(&site.mail(ANN, "orderly@example.org", "HELP"), ANN);
    fits(&body);
    let help = flat(&body);
    assert!(help.contains("The words of each game:"), "{body}");
    let mut at = 0;
    for h in std::iter::once(&squares).chain(&others) {
        let heading = format!("{} ({}):", h.name.to_ascii_uppercase(), h.title);
        let here = help[at..]
            .find(&heading)
            .unwrap_or_else(|| panic!("no {heading} after the previous game: {body}"));
        at += here;
        assert!(help[at..].contains(&flat(h.orders)), "{body}");
    }
    for line in squares.commands.lines() {
        assert!(help.contains(&flat(line)), "{line:?}: {body}");
    }
    // A SQUARES player: the commands every game takes, HELP MOVES among
    // them, and SQUARES' own (answers in advance), none of another game's.
    let (ann, _) = start(&mut site);
    let body = body_to(&site.mail(ANN, &ann, "help"), ANN);
    fits(&body);
    let help = flat(&body);
    assert!(help.contains("The words of your game:"), "{body}");
    for general in [
        "HELP MOVES <unit>",
        "HELP BOARD",
        "BOARD",
        "HISTORY",
        "RESIGN",
    ] {
        assert!(help.contains(general), "{general}: {body}");
    }
    assert!(help.contains("SQUARES (SQUARES - The Civil War Battle Game):"));
    // Her game's orders from her own half of the board (Blue's squares).
    let own = GameText::orders_for(&Squares::new(&GameOptions::default()), Seat::North);
    assert!(own.starts_with("MOVE B2CR B1C"), "{own}");
    assert!(help.contains(&flat(&own)), "{body}");
    for line in squares.commands.lines() {
        assert!(help.contains(&flat(line)), "{line:?}: {body}");
    }
    for h in &others {
        assert!(!help.contains(&format!("{} (", h.name.to_ascii_uppercase())));
        assert!(!help.contains(&flat(h.orders)), "{}: {body}", h.name);
    }
    for word in ["OPFIRE", "MORE", "TAKE ALL", "CITY LOST"] {
        assert!(!help.contains(word), "{word}: {body}");
    }
    // Every game may still be proposed by a player of one.
    for h in std::iter::once(&squares).chain(&others) {
        let new = format!("NEW {} VS their@address", h.name.to_ascii_uppercase());
        assert!(help.contains(&new), "{new}: {body}");
    }
    // An invitation open counts as a game played: Bob, invited to a
    // battle of Brothers at War, reads its words too.
    site.mail(
        ANN,
        "orderly@example.org",
        "NEW BROTHERSATWAR VS bob@example.org",
    );
    let body = body_to(&site.mail(BOB, "orderly@example.org", "HELP"), BOB);
    fits(&body);
    let help = flat(&body);
    assert!(help.contains("The words of your games:"), "{body}");
    assert!(help.contains(&flat(squares.orders)), "{body}");
    assert!(help.contains(&flat(others[2].orders)), "{body}");
    assert!(!help.contains(&flat(others[1].orders)), "{body}");
}

/// The mails of `outs` to `who`.
fn all_to<'a>(outs: &'a [Out], who: &str) -> Vec<&'a Out> {
    outs.iter().filter(|o| o.to == who).collect()
}

#[test]
fn one_mail_makes_one_mail_to_each_player_and_tells_everything_once() {
    let mut site = Site::new("one-mail");
    let (ann, bob) = start(&mut site);
    set_position(&site, "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -");
    site.mail(BOB, &bob, "IF ATTACKED AT G1C STAND");
    // Blue attacks (Gray's answer and hers given in advance resolve it),
    // talks, offers a draw, and plays the second half of her double turn:
    // the orders are played in two groups, around the commands.
    let outs = site.mail(
        ANN,
        &ann,
        "ATTACK B1C G1C SUPPORT B1CL; IF STAND OPTION 3\nSAY Your move, sir.\n\
         OFFER DRAW\ninf BR B3C",
    );
    let (to_ann, to_bob) = (all_to(&outs, ANN), all_to(&outs, BOB));
    assert_eq!((to_ann.len(), to_bob.len()), (1, 1), "one mail each");
    let (reply, told) = (flat(&to_ann[0].body), flat(&to_bob[0].body));
    assert!(!reply.contains("Refused"), "{reply}");
    for event in [
        "Blue infantry in B1C attacks G1C",
        "Gray infantry in G1C stands",
        "Blue takes option 3",
        "Blue infantry moves BR -> B3C",
    ] {
        // Once in Blue's reply (the echo of her lines or her update), once
        // in Gray's update.
        assert_eq!(reply.matches(event).count(), 1, "{event}: {reply}");
        assert_eq!(told.matches(event).count(), 1, "{event}: {told}");
    }
    for once in [
        "Game 1: SQUARES",
        "Blue says: Your move, sir.",
        "Blue offers a draw in game 1",
    ] {
        assert_eq!(told.matches(once).count(), 1, "{once}: {told}");
    }
    assert_eq!(reply.matches("Game 1: SQUARES").count(), 1, "{reply}");
}

#[test]
fn an_answer_in_advance_that_cannot_be_played_is_told_in_the_update() {
    let mut site = Site::new("answer-not-played");
    let (ann, bob) = start(&mut site);
    set_position(&site, "7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -");
    // Gray, waiting, answers in advance with a retreat that will not be
    // legal when the attack comes.
    let reply = flat(&body_to(
        &site.mail(BOB, &bob, "IF ATTACKED AT G1C RETREAT B3C"),
        BOB,
    ));
    assert!(reply.contains("Noted: if attacked at G1C"), "{reply}");
    let outs = site.mail(ANN, &ann, "ATTACK B1C G1C SUPPORT B1CL\nSAY Stand or run.");
    let to_bob = all_to(&outs, BOB);
    assert_eq!(to_bob.len(), 1, "one mail to Gray: {to_bob:#?}");
    let told = flat(&to_bob[0].body);
    for once in [
        "Your answer given in advance, IF ATTACKED AT G1C RETREAT B3C, could not be played",
        "Blue says: Stand or run.",
        "Blue infantry in B1C attacks G1C",
        "Game 1: SQUARES",
    ] {
        assert_eq!(told.matches(once).count(), 1, "{once}: {told}");
    }
    // The decision is Gray's: his update lists his choices.
    assert!(told.contains("RETREAT GR"), "{told}");
}

#[test]
fn notices_of_one_mail_without_orders_go_in_one_mail() {
    let mut site = Site::new("one-notice");
    let (ann, _) = start(&mut site);
    let outs = site.mail(ANN, &ann, "SAY Shall we stop here?\nOFFER DRAW");
    let to_bob = all_to(&outs, BOB);
    assert_eq!(to_bob.len(), 1, "{to_bob:#?}");
    let told = flat(&to_bob[0].body);
    assert!(told.contains("Blue says: Shall we stop here?"), "{told}");
    assert!(told.contains("Blue offers a draw in game 1"), "{told}");
    assert!(
        to_bob[0].subject.starts_with("Game 1"),
        "{}",
        to_bob[0].subject
    );
}
