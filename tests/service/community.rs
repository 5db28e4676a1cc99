//! Issue 18, through a real Maildir and a real SQLite file: observers of
//! public games (NEW ... PUBLIC, WATCH, UNWATCH, GAMES PUBLIC: every board
//! the players get, and the ending, told to watchers without a key, a
//! hidden hand or a message between the players), and Glicko-2 ratings
//! (NEW ... RATED|UNRATED, the change shown in the last mails, RATING,
//! RATINGS, `orderly ratings`), checked against the `skillratings`
//! crate's own published examples. The service's clock is set (never the
//! wall clock): every site starts at 2026-11-21 10:00 UTC.

#[path = "../common/mod.rs"]
mod common;

use chrono::{DateTime, TimeZone, Utc};
use common::player::attack_preferring;
use common::rng::XorShift;
use common::site::{config_file, to, Out, Site, ORDERLY};
use orderly::clock::Clock;
use orderly::games::squares::Squares;
use orderly::games::{Game, GameOptions, GameResult, Seat};
use orderly::ratings::{decayed, rate, Rating};

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";
const CAROL: &str = "carol@example.org";
const DAVE: &str = "dave@example.org";

/// When every site's clock starts.
fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
}

/// This file's sites: `Site::open` (tests/common/site.rs) in directories
/// named `orderly-comm-...`, plain text mail, the clock at [`t0`].
impl Site {
    fn new(name: &str) -> Site {
        Site::with(name, |_| {})
    }

    fn with(name: &str, adjust: impl FnOnce(&mut orderly::config::Config)) -> Site {
        Site::plain("orderly-comm", name, t0(), adjust)
    }

    /// Drops a mail into the Maildir and polls; returns the new mails.
    fn mail(&mut self, from: &str, to: &str, body: &str) -> Vec<Out> {
        self.send(from, to, body)
    }

    /// Game `n`: `inviter` writes `new` (a NEW line), the invited player
    /// (`invited`) accepts. The inviter's and the invited's reply
    /// addresses, and the mails the acceptance made.
    fn start(&mut self, inviter: &str, invited: &str, new: &str) -> (String, String, Vec<Out>) {
        let outs = self.mail(inviter, ORDERLY, new);
        let theirs = to(&outs, invited).reply_to;
        let outs = self.mail(invited, &theirs, "ACCEPT");
        (to(&outs, inviter).reply_to, theirs, outs)
    }

    /// `who` watches game `game`: WATCH, then the reply to its answer
    /// that confirms the address asked. The answer to WATCH.
    fn watch(&mut self, who: &str, game: i64) -> Out {
        let outs = self.mail(who, ORDERLY, &format!("WATCH {game}"));
        let answer = to(&outs, who);
        assert!(
            answer
                .body
                .contains(&format!("To watch game {game}, reply to this mail")),
            "{}",
            answer.body
        );
        let outs = self.mail(who, &answer.reply_to, "Yes, please.");
        let confirmed = to(&outs, who);
        assert!(
            confirmed
                .body
                .contains(&format!("You now watch game {game}")),
            "{}",
            confirmed.body
        );
        answer
    }

    /// The store's rating of `address` in `kind`.
    fn rating(&mut self, address: &str, kind: &str) -> Option<orderly::store::RatingRow> {
        let tx = self.service.store().read().unwrap();
        let player = tx.player_id(address).unwrap()?;
        tx.rating(player, kind).unwrap()
    }
}

/// The mails of `outs` to `who`.
fn all_to(outs: &[Out], who: &str) -> Vec<Out> {
    outs.iter().filter(|o| o.to == who).cloned().collect()
}

/// The key in a seat's reply address (`orderly+g1.<key>@example.org`).
fn key_of(address: &str) -> String {
    let local = address.split('@').next().unwrap();
    local.rsplit('.').next().unwrap().to_string()
}

/// Asserts what a watcher's mail never holds: a seat's key or reply
/// address, a seat's choices, held lines, the players' messages. (The
/// answer to an unconfirmed WATCH carries the watcher's own key in its
/// Reply-To: their reply confirms.)
fn assert_public(mail: &Out, keys: &[String], secrets: &[&str]) {
    assert!(
        keys.iter().all(|k| !mail.reply_to.contains(k.as_str())),
        "no reply address of a seat: {mail:#?}"
    );
    assert!(!mail.body.contains("orderly+g"), "{}", mail.body);
    for key in keys {
        assert!(
            !mail.raw.contains(key.as_str()),
            "key {key} in {}",
            mail.raw
        );
    }
    for secret in secrets {
        assert!(!mail.raw.contains(secret), "{secret:?} in {}", mail.raw);
    }
    for seat_only in [
        "Your orders",
        "You are ",
        "Your answers",
        "Your hand",
        "held",
    ] {
        assert!(
            !mail.body.contains(seat_only),
            "{seat_only:?} in {}",
            mail.body
        );
    }
}

#[test]
fn a_watcher_gets_every_board_and_the_ending_of_a_public_game_and_never_a_key() {
    let mut site = Site::new("watch-to-the-end");
    let outs = site.mail(ANN, ORDERLY, "NEW SQUARES VS bob@example.org PUBLIC");
    let proposed = to(&outs, ANN).body;
    assert!(proposed.contains("The game is public"), "{proposed}");
    assert!(proposed.contains("The game is rated"), "{proposed}");
    let invitation = to(&outs, BOB);
    assert!(
        invitation
            .body
            .contains("The game is public: anyone may watch it"),
        "{}",
        invitation.body
    );
    // Watched before it begins: one answer, no board yet.
    let reply = site.watch(CAROL, 1).body;
    assert!(reply.contains("It has not begun yet"), "{reply}");
    let bob_addr = invitation.reply_to.clone();
    let outs = site.mail(BOB, &bob_addr, "accept");
    let ann_addr = to(&outs, ANN).reply_to;
    let keys = vec![key_of(&ann_addr), key_of(&bob_addr)];
    let begun = all_to(&outs, CAROL);
    assert_eq!(begun.len(), 1, "{outs:#?}");
    assert!(
        begun[0].body.contains("which you watch"),
        "{}",
        begun[0].body
    );
    assert!(
        begun[0].body.contains("The game waits for Blue"),
        "{}",
        begun[0].body
    );
    assert!(begun[0].body.contains("UNWATCH 1"), "{}", begun[0].body);
    // The game's clock as the seat that waits reads it (both in UTC here).
    let bobs = to(&outs, BOB).body;
    let clock = bobs
        .lines()
        .find(|l| l.contains("must act by"))
        .unwrap_or_else(|| panic!("Bob is told the deadline: {bobs}"));
    assert!(clock.starts_with("Blue must act by "), "{clock}");
    assert!(begun[0].body.contains(clock), "{}", begun[0].body);
    assert_public(&begun[0], &keys, &[]);
    // One WATCH, one reply, one board, however often it is written.
    let outs = site.mail(DAVE, ORDERLY, "WATCH 1\nWATCH 1");
    assert_eq!(outs.len(), 1, "{outs:#?}");
    let reply = to(&outs, DAVE);
    assert!(
        reply.body.contains("To watch game 1, reply to this mail"),
        "{}",
        reply.body
    );
    assert_eq!(
        reply.body.matches("To watch game 1, reply").count(),
        2,
        "not confirmed yet, each WATCH says how: {}",
        reply.body
    );
    assert_eq!(
        reply.body.matches("which you watch").count(),
        1,
        "{}",
        reply.body
    );
    assert_public(&reply, &keys, &[]);
    let outs = site.mail(DAVE, ORDERLY, "UNWATCH 1");
    assert!(to(&outs, DAVE).body.contains("You no longer watch game 1."));
    let outs = site.mail(DAVE, ORDERLY, "unwatch 1");
    assert!(to(&outs, DAVE)
        .body
        .contains("You were not watching game 1; nothing changed."));
    // A player of the game gets its boards already.
    let outs = site.mail(ANN, ORDERLY, "WATCH 1");
    assert!(
        to(&outs, ANN)
            .body
            .contains("You play in game 1: you get every board"),
        "{}",
        to(&outs, ANN).body
    );
    // A message between the players is theirs alone.
    let secret = "the real attack comes on the left";
    let outs = site.mail(ANN, &ann_addr, &format!("SAY {secret}"));
    assert!(all_to(&outs, CAROL).is_empty(), "{outs:#?}");
    // The game to its end: each mail of a player, one mail to Carol.
    let mut model = Squares::new(&GameOptions::default());
    let mut rng = XorShift::from_state(0x2545_F491_4F6C_DD1D);
    let mut watched = Vec::new();
    let mut last = Vec::new();
    while model.outcome().is_none() {
        let pending = model.pending().unwrap();
        let (order, _) = attack_preferring(&model, &mut rng);
        model.apply(&order).unwrap();
        let (from, addr) = match pending.seat {
            Seat::North => (ANN, &ann_addr),
            Seat::South => (BOB, &bob_addr),
        };
        let outs = site.mail(from, addr, &order.to_string());
        let theirs = all_to(&outs, CAROL);
        assert_eq!(theirs.len(), 1, "{order}: {outs:#?}");
        assert!(all_to(&outs, DAVE).is_empty(), "Dave stopped watching");
        watched.extend(theirs);
        last = outs;
        assert!(watched.len() < 3000, "the game did not end");
    }
    for mail in &watched {
        assert_public(mail, &keys, &[secret]);
    }
    let ending = watched.last().unwrap();
    assert!(ending.body.contains("The game is over"), "{}", ending.body);
    // Not the record, which keeps the players' messages.
    assert!(!ending.body.contains("HISTORY"), "{}", ending.body);
    // Rated by default: the ending tells each player's change, the
    // players' last mails too. Two newcomers, one game: the crate's own
    // example (1500/350 each; the winner 1662/290, the loser 1338/290).
    let winner = match model.outcome().unwrap().result {
        GameResult::Win(Seat::North) => ANN,
        GameResult::Win(Seat::South) => BOB,
        GameResult::Draw => panic!("the game was played to a win"),
    };
    for body in [
        ending.body.clone(),
        to(&last, ANN).body,
        to(&last, BOB).body,
    ] {
        assert!(body.contains("Ratings in SQUARES"), "{body}");
        assert!(body.contains("1500 (350) -> 1662 (290), +162"), "{body}");
        assert!(body.contains("1500 (350) -> 1338 (290), -162"), "{body}");
    }
    let won = site.rating(winner, "squares").unwrap();
    assert_eq!(won.rating.rating.round(), 1662.0);
    assert_eq!(won.games, 1);
    // Over: nothing more to watch.
    let outs = site.mail(CAROL, ORDERLY, "WATCH 1");
    assert!(
        to(&outs, CAROL)
            .body
            .contains("game 1 is finished; there is nothing more to watch"),
        "{}",
        to(&outs, CAROL).body
    );
}

#[test]
fn watch_is_refused_for_a_game_not_public_and_games_public_lists_exactly_the_public_ones() {
    let mut site = Site::new("public-list");
    site.mail(ANN, ORDERLY, "NEW SQUARES VS bob@example.org");
    site.mail(ANN, ORDERLY, "NEW NAPOLEONIC PUBLIC VS carol@example.org");
    let outs = site.mail(
        BOB,
        ORDERLY,
        "NEW SQUARES VS dave@example.org UNRATED PUBLIC",
    );
    let proposed = to(&outs, BOB).body;
    assert!(proposed.contains("The game is not rated."), "{proposed}");
    let outs = site.mail("eve@example.org", ORDERLY, "WATCH 1");
    assert_eq!(outs.len(), 1);
    let refused = common::site::flat(&to(&outs, "eve@example.org").body);
    assert!(
        refused.contains(
            "Refused: game 1 is not public: its players did not make it public, so only \
             they see it. A game is public when the player who proposes it adds the word \
             PUBLIC: NEW SQUARES VS their@address PUBLIC."
        ),
        "{refused}"
    );
    let outs = site.mail("eve@example.org", ORDERLY, "WATCH 99");
    assert!(to(&outs, "eve@example.org")
        .body
        .contains("there is no game 99"));
    let listed = |site: &mut Site| {
        let outs = site.mail("eve@example.org", ORDERLY, "games public");
        to(&outs, "eve@example.org").body
    };
    let before = listed(&mut site);
    let flat = common::site::flat(&before);
    assert_eq!(
        before.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{before}"
    );
    assert!(
        flat.contains(
            "game 3 SQUARES: Blue bob@example.org against Gray dave@example.org, \
             invitation open (invited) game 2 NAPOLEONIC: British ann@example.org against \
             French carol@example.org, invitation open (invited)"
        ),
        "{before}"
    );
    assert!(!before.contains("game 1 "), "{before}");
    // Carol accepts game 2: its turn and whose move.
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    let secret: String = db
        .query_row(
            "SELECT secret FROM seats WHERE game_id = 2 AND seat = 'south'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    site.mail(CAROL, &format!("orderly+g2.{secret}@example.org"), "ACCEPT");
    let after = common::site::flat(&listed(&mut site));
    assert!(
        after.contains(
            "game 2 NAPOLEONIC: British ann@example.org against French carol@example.org, \
             turn 1, British to move (active)"
        ),
        "{after}"
    );
}

#[test]
fn unwatch_stops_the_mails_and_a_bounced_watcher_is_unwatched() {
    let mut site = Site::with("unwatch-bounce", |c| c.bounces.hard_limit = 1);
    let (ann_addr, bob_addr, _) =
        site.start(ANN, BOB, "NEW SQUARES VS bob@example.org PUBLIC UNRATED");
    site.watch(CAROL, 1);
    site.watch(DAVE, 1);
    let outs = site.mail(ANN, &ann_addr, "cav BR B3C");
    assert_eq!(all_to(&outs, CAROL).len(), 1);
    assert_eq!(all_to(&outs, DAVE).len(), 1);
    let outs = site.mail(CAROL, ORDERLY, "UNWATCH 1");
    assert_eq!(outs.len(), 1);
    // Dave's address bounces for good: he watches no more.
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    let outbox_id: i64 = db
        .query_row(
            "SELECT id FROM outbox WHERE recipient = ?1 ORDER BY id DESC LIMIT 1",
            [DAVE],
            |r| r.get(0),
        )
        .unwrap();
    let secret = site.config.server_secret().unwrap();
    let verp = orderly::mail::bounce::verp_address("bounces", "example.org", outbox_id, &secret);
    let dsn = format!(
        "Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.example.org\r\nTo: {verp}\r\n\
         Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn1@test>\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n\
         --b\r\nContent-Type: message/delivery-status\r\n\r\n\
         Reporting-MTA: dns; mx.example.org\r\n\r\n\
         Final-Recipient: rfc822; {DAVE}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--b--\r\n"
    );
    assert!(
        site.raw(dsn.as_bytes()).is_empty(),
        "a bounce is never answered"
    );
    let watchers: i64 = db
        .query_row("SELECT COUNT(*) FROM watchers", [], |r| r.get(0))
        .unwrap();
    assert_eq!(watchers, 0);
    let outs = site.mail(BOB, &bob_addr, "inf GR G3C");
    assert!(all_to(&outs, CAROL).is_empty(), "{outs:#?}");
    assert!(all_to(&outs, DAVE).is_empty(), "{outs:#?}");
    assert_eq!(outs.len(), 2, "the players' mails only: {outs:#?}");
}

#[test]
fn the_watchers_of_a_game_are_bounded() {
    let mut site = Site::with("bounded", |c| {
        c.observers.max_per_game = 1;
        c.observers.max_per_address = 1;
    });
    site.mail(ANN, ORDERLY, "NEW SQUARES VS bob@example.org PUBLIC");
    site.mail(ANN, ORDERLY, "NEW SQUARES VS dave@example.org PUBLIC");
    site.watch(CAROL, 1);
    let full = to(
        &site.mail("eve@example.org", ORDERLY, "WATCH 1"),
        "eve@example.org",
    )
    .body;
    assert!(full.contains("game 1 has 1 watchers, the most"), "{full}");
    let many = to(&site.mail(CAROL, ORDERLY, "WATCH 2"), CAROL).body;
    assert!(many.contains("you watch 1 games already"), "{many}");
}

#[test]
fn a_brothers_at_war_watcher_sees_no_hand_and_no_card_drawn() {
    let mut site = Site::new("baw-watch");
    let outs = site.mail(
        ANN,
        ORDERLY,
        "NEW BROTHERSATWAR VS bob@example.org AS UNION PUBLIC",
    );
    let bob_addr = to(&outs, BOB).reply_to;
    site.watch(CAROL, 1);
    site.fix_seed("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
    let outs = site.mail(BOB, &bob_addr, "accept");
    let ann = to(&outs, ANN);
    let watcher = to(&outs, CAROL);
    let keys = vec![key_of(&ann.reply_to), key_of(&bob_addr)];
    assert!(ann.body.contains("Your hand"), "{}", ann.body);
    assert!(
        common::site::flat(&watcher.body)
            .contains("Hands: the Union holds 3 cards, the Confederacy holds 3 cards."),
        "{}",
        watcher.body
    );
    // The draws into the hands, as the other side reads them.
    assert!(
        common::site::flat(&watcher.body)
            .contains("Draw 1 (a battle card) went to Union, who alone sees it"),
        "{}",
        watcher.body
    );
    assert!(!watcher.body.contains("you draw"), "{}", watcher.body);
    assert!(!watcher.body.contains("You ("), "{}", watcher.body);
    assert_public(&watcher, &keys, &[]);
    // The cards in Ann's hand, by title, are nowhere in Carol's mail.
    let hand: Vec<String> = ann
        .body
        .lines()
        .skip_while(|l| !l.starts_with("Your hand"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.trim().split(" - ").next().map(str::to_string))
        .collect();
    for title in &hand {
        assert!(
            !watcher.body.contains(title.as_str()),
            "{title} in {}",
            watcher.body
        );
    }
}

#[test]
fn a_moderators_forfeit_on_the_command_line_ends_a_public_rated_game_for_all() {
    let mut site = Site::new("forfeit");
    site.start(ANN, BOB, "NEW SQUARES VS bob@example.org PUBLIC");
    site.watch(CAROL, 1);
    let now = site.service.now();
    site.service
        .moderate("forfeit 1 gray", "cli:test", now)
        .unwrap();
    site.service.poll_once().unwrap();
    let outs = site.collect();
    let watcher = to(&outs, CAROL);
    assert!(
        watcher.body.contains("The game is over: Blue wins"),
        "{}",
        watcher.body
    );
    assert!(
        watcher.body.contains("1500 (350) -> 1662 (290)"),
        "{}",
        watcher.body
    );
    // The moderator's words are the players'.
    assert!(!watcher.body.contains("Moderator "), "{}", watcher.body);
    assert!(to(&outs, BOB)
        .body
        .contains("1500 (350) -> 1338 (290), -162"));
    assert_eq!(site.rating(BOB, "squares").unwrap().games, 1);
}

/// The crate's examples (docs.rs/skillratings, `glicko2` and
/// `decay_deviation`), through our functions: two newcomers, the first
/// wins: 1662/290 and 1338/290, volatility 0.05999967537233814 each; a
/// 2720/41.3 player idle one period: deviation 43.
#[test]
fn our_rating_functions_reproduce_the_crates_published_examples() {
    let (won, lost) = rate(
        Rating::newcomer(),
        Rating::newcomer(),
        GameResult::Win(Seat::North),
    );
    assert_eq!(won.rating.round(), 1662.0);
    assert_eq!(won.deviation.round(), 290.0);
    assert!((won.volatility - 0.059_999_675_372_338_14).abs() < f64::EPSILON);
    assert_eq!(lost.rating.round(), 1338.0);
    assert_eq!(lost.deviation.round(), 290.0);
    assert!((lost.volatility - 0.059_999_675_372_338_14).abs() < f64::EPSILON);
    // The same game with the seats the other way round.
    let (lost2, won2) = rate(
        Rating::newcomer(),
        Rating::newcomer(),
        GameResult::Win(Seat::South),
    );
    assert_eq!((lost2, won2), (lost, won));
    let veteran = Rating {
        rating: 2720.0,
        deviation: 41.3,
        volatility: 0.06,
    };
    assert_eq!(decayed(veteran, 1).deviation.round(), 43.0);
    assert_eq!(decayed(veteran, 0), veteran);
}

#[test]
fn a_rated_game_changes_both_ratings_by_the_crates_example_and_an_unrated_one_none() {
    let mut site = Site::new("rated");
    let (_, bob_addr, _) = site.start(ANN, BOB, "NEW SQUARES VS bob@example.org");
    let outs = site.mail(BOB, &bob_addr, "RESIGN");
    for who in [ANN, BOB] {
        let body = to(&outs, who).body;
        assert!(body.contains("Ratings in SQUARES"), "{body}");
        assert!(
            body.contains("Blue ann@example.org: 1500 (350) -> 1662 (290), +162"),
            "{body}"
        );
        assert!(
            body.contains("Gray bob@example.org: 1500 (350) -> 1338 (290), -162"),
            "{body}"
        );
    }
    // The store holds the crate's example exactly.
    let ann = site.rating(ANN, "squares").unwrap();
    assert_eq!(ann.rating.rating.round(), 1662.0);
    assert_eq!(ann.rating.deviation.round(), 290.0);
    assert!((ann.rating.volatility - 0.059_999_675_372_338_14).abs() < f64::EPSILON);
    assert_eq!(ann.games, 1);
    let bob = site.rating(BOB, "squares").unwrap();
    assert_eq!(bob.rating.rating.round(), 1338.0);
    // Unrated: no change, nothing said.
    let (_, bob2, _) = site.start(ANN, BOB, "NEW SQUARES VS bob@example.org UNRATED");
    let outs = site.mail(BOB, &bob2, "RESIGN");
    assert!(!to(&outs, ANN).body.contains("Ratings in"), "{outs:#?}");
    assert_eq!(site.rating(ANN, "squares").unwrap(), ann);
    assert!(site.rating(ANN, "napoleonic").is_none());
    // RATING and RATINGS by mail, from anyone.
    let reply = to(&site.mail(CAROL, ORDERLY, "RATING ann@example.org"), CAROL).body;
    assert!(
        common::site::flat(&reply).contains(
            "Ratings of ann@example.org (rating and deviation): SQUARES: 1662 (290), \
             volatility 0.0600, 1 rated game, the last ended 2026-11-21"
        ),
        "{reply}"
    );
    let reply = to(&site.mail(BOB, ORDERLY, "rating"), BOB).body;
    assert!(reply.contains("SQUARES: 1338 (290)"), "{reply}");
    let reply = to(&site.mail(CAROL, ORDERLY, "RATING"), CAROL).body;
    assert!(reply.contains("You have no rating yet"), "{reply}");
    let reply = to(&site.mail(CAROL, ORDERLY, "RATINGS"), CAROL).body;
    assert!(reply.contains("SQUARES:\n  1. 1662 (290) ann@..., 1 rated game\n  2. 1338 (290) bob@..., 1 rated game"), "{reply}");
    assert!(reply.contains("NAPOLEONIC:\n  nobody rated yet"), "{reply}");
    // A list anyone may ask for hands out nobody's address.
    assert!(
        !reply.contains("ann@example.org") && !reply.contains("bob@example.org"),
        "{reply}"
    );
    let reply = to(&site.mail(CAROL, ORDERLY, "RATINGS CHESS"), CAROL).body;
    assert!(
        reply.contains("Refused: \"CHESS\" is not a game here"),
        "{reply}"
    );
}

#[test]
fn a_deviation_grows_with_each_idle_period_by_the_services_clock() {
    let mut site = Site::new("idle");
    let (_, bob_addr, _) = site.start(ANN, BOB, "NEW SQUARES VS bob@example.org");
    site.mail(BOB, &bob_addr, "RESIGN");
    let ann = site.rating(ANN, "squares").unwrap();
    // 61 days later (two whole periods of 30 days) by the service's clock.
    site.service
        .set_clock(Clock::starting_at(t0() + chrono::Duration::days(61)));
    let (ann_addr, _, _) = site.start(ANN, BOB, "NEW SQUARES VS bob@example.org");
    site.mail(ANN, &ann_addr, "RESIGN");
    let tx = site.service.store().read().unwrap();
    let changes = tx.rating_changes(2).unwrap();
    assert_eq!(changes.len(), 2);
    let grown = decayed(ann.rating, 2);
    assert!(grown.deviation > ann.rating.deviation);
    let north = &changes[0];
    assert_eq!(north.seat, Seat::North);
    assert!(
        (north.old.1 - grown.deviation).abs() < 1e-9,
        "{north:?} {grown:?}"
    );
    assert!((north.old.0 - ann.rating.rating).abs() < 1e-9);
    drop(tx);
    let bob = site.rating(BOB, "squares").unwrap();
    assert_eq!(bob.games, 2);
    assert!(site.rating(ANN, "squares").unwrap().rating.rating < ann.rating.rating);
}

#[test]
fn orderly_ratings_lists_every_rated_player_by_the_clock_it_is_given() {
    let mut site = Site::new("cli");
    let (_, bob_addr, _) = site.start(ANN, BOB, "NEW SQUARES VS bob@example.org");
    site.mail(BOB, &bob_addr, "RESIGN");
    let file = config_file(&site.dir, "cli-secret", "", "");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_orderly"))
            .arg("--config")
            .arg(&file)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--now", "2026-11-21T12:00:00Z", "ratings"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("squares: 2 rated\n"), "{text}");
    assert!(
        text.contains("   1  1662.3  RD 290.3  vol 0.0600    1 game   ann@example.org\n"),
        "{text}"
    );
    assert!(text.contains("   2  1337.7  RD 290.3"), "{text}");
    assert!(text.contains("napoleonic: 0 rated\n"), "{text}");
    let out = run(&[
        "--now",
        "2026-11-21T12:00:00Z",
        "ratings",
        "--game",
        "SQUARES",
    ]);
    let only = String::from_utf8(out.stdout).unwrap();
    assert!(
        only.starts_with("squares: 2 rated\n") && !only.contains("napoleonic"),
        "{only}"
    );
    // 95 days on: three idle periods grow the deviation shown.
    let out = run(&[
        "--now",
        "2027-02-24T12:00:00Z",
        "ratings",
        "--game",
        "squares",
    ]);
    let later = String::from_utf8(out.stdout).unwrap();
    let ann = site.rating(ANN, "squares").unwrap();
    let grown = format!("RD {:>5.1}", decayed(ann.rating, 3).deviation);
    assert!(
        later.contains(&grown) && !later.contains("RD 290.3"),
        "{grown}: {later}"
    );
    let out = run(&["ratings", "--game", "chess"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("orderly hosts no game"));
}

#[test]
fn a_moderators_mail_reaches_watchers_only_when_it_changes_the_game() {
    const MODERATOR: &str = "mod@example.org";
    let mut site = Site::with("moderated", |c| {
        c.moderators.addresses = vec![MODERATOR.to_string()];
    });
    let (ann_addr, bob_addr, begun) = site.start(ANN, BOB, "NEW SQUARES VS bob@example.org PUBLIC");
    let blue = if to(&begun, ANN).body.contains("You are Blue") {
        (ANN, ann_addr)
    } else {
        (BOB, bob_addr)
    };
    site.watch(CAROL, 1);
    let address = site.service.moderator_address(MODERATOR);
    // A deadline moved: the players hear of it, the watcher does not.
    let outs = site.mail(MODERATOR, &address, "EXTEND 1 2 DAYS");
    assert!(!all_to(&outs, ANN).is_empty(), "{outs:#?}");
    assert!(all_to(&outs, CAROL).is_empty(), "{outs:#?}");
    // A paused game's clock stands still: the watcher's next board says
    // until when, and no deadline.
    let outs = site.mail(MODERATOR, &address, "PAUSE 1 UNTIL 2026-12-01");
    assert!(all_to(&outs, CAROL).is_empty(), "{outs:#?}");
    let outs = site.mail(blue.0, &blue.1, "PASS");
    let watcher = all_to(&outs, CAROL);
    assert_eq!(watcher.len(), 1, "{outs:#?}");
    let body = &watcher[0].body;
    assert!(
        body.replace('\n', " ")
            .contains("paused by the moderators until Tue 01 Dec 2026"),
        "{body}"
    );
    assert!(!body.contains("must act by"), "{body}");
    // A ruling ends the game: one mail to the watcher, however many lines.
    let outs = site.mail(
        MODERATOR,
        &address,
        "NOTE 1 settled by phone\nADJUDICATE 1 DRAW both agreed by phone",
    );
    let watcher = all_to(&outs, CAROL);
    assert_eq!(watcher.len(), 1, "{outs:#?}");
    let body = &watcher[0].body;
    assert!(body.contains("The game is over: a draw"), "{body}");
    assert!(
        !body.contains("settled by phone"),
        "the note is the players': {body}"
    );
    // A draw between newcomers moves neither rating.
    assert!(body.contains("1500 (350) -> 1500 (290), 0"), "{body}");
}

#[test]
fn a_civil_war_1863_watcher_is_nobody_s_you() {
    let mut site = Site::new("cw1863-watch");
    let outs = site.mail(ANN, ORDERLY, "NEW CIVILWAR1863 VS bob@example.org PUBLIC");
    let bob_addr = to(&outs, BOB).reply_to;
    site.watch(CAROL, 1);
    site.mail(BOB, &bob_addr, "ACCEPT");
    // The Confederacy (Bob) plays one order, and the mail's end closes
    // his turn: the Union, the seat the watcher's board is drawn from,
    // is to move, and is nobody's "you".
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    let position = shown
        .lines()
        .find_map(|l| l.strip_prefix("position "))
        .unwrap();
    let hosted = orderly::games::hosted::find("civilwar1863").unwrap();
    let state = (hosted.from_position)(position).unwrap();
    assert_eq!(state.pending().unwrap().seat, Seat::South);
    let order = state.legal_orders()[0].clone();
    let outs = site.mail(BOB, &bob_addr, &order);
    let watcher = to(&outs, CAROL);
    assert!(
        common::site::flat(&watcher.body).contains("the Union to move"),
        "{}",
        watcher.body
    );
    assert!(watcher.body.contains("What happened:"), "{}", watcher.body);
    // The board and the state, between the players' line and the footer.
    let board: String = watcher
        .body
        .split("You get every board")
        .next()
        .unwrap()
        .lines()
        .skip(2)
        .collect::<Vec<_>>()
        .join("\n");
    for word in [" you ", " your ", "You "] {
        assert!(!board.contains(word), "{word:?} in {}", watcher.body);
    }
}

/// A game with chance reveals its seed in every last mail, but only the
/// players' carry the record (a watcher never gets it: it keeps the
/// players' messages), so the watcher's is not told "the record below".
#[test]
fn a_watchers_last_mail_reveals_the_seed_without_pointing_to_a_record_it_lacks() {
    let mut site = Site::new("cw1863-watch-end");
    let (ann_addr, bob_addr, _) =
        site.start(ANN, BOB, "NEW CIVILWAR1863 VS bob@example.org PUBLIC");
    site.watch(CAROL, 1);
    site.mail(ANN, &ann_addr, "MESSAGE a word for bob alone");
    let outs = site.mail(BOB, &bob_addr, "RESIGN");
    let seed_said = "The seed of this game's tosses was";
    for player in [ANN, BOB] {
        let last = common::site::flat(&to(&outs, player).body);
        assert!(last.contains(seed_said), "{last}");
        assert!(last.contains("The record below holds every draw"), "{last}");
        assert!(last.contains("The record of the game:"), "{last}");
    }
    let watcher = to(&outs, CAROL);
    let last = common::site::flat(&watcher.body);
    assert!(last.contains(seed_said), "{last}");
    assert!(
        last.contains("`orderly verify` on the game's record checks every toss against it"),
        "{last}"
    );
    assert!(!last.contains("below"), "{last}");
    assert!(!last.contains("The record of the game:"), "{last}");
    assert!(!last.contains("a word for bob alone"), "{last}");
}

/// Issue 18, part 4: ratings and GAMES PUBLIC know no game by name. A
/// rated, public Civil War Game 1863 is listed for anyone, and its end
/// moves the players' Glicko-2 ratings in its own kind, none other.
#[test]
fn a_rated_public_civil_war_1863_game_is_listed_and_rates_in_its_own_kind() {
    let mut site = Site::new("cw1863-rated");
    let (_, bob_addr, _) = site.start(
        ANN,
        BOB,
        "NEW CIVILWAR1863 VS bob@example.org AS UNION PUBLIC RATED",
    );
    let listed = common::site::flat(&to(&site.mail(CAROL, ORDERLY, "GAMES PUBLIC"), CAROL).body);
    assert!(listed.contains("CIVILWAR1863"), "{listed}");
    assert!(listed.contains("ann@example.org"), "{listed}");
    let outs = site.mail(BOB, &bob_addr, "RESIGN");
    for who in [ANN, BOB] {
        let body = to(&outs, who).body;
        assert!(body.contains("Ratings in CIVILWAR1863"), "{body}");
        assert!(
            body.contains("Union ann@example.org: 1500 (350) -> 1662 (290), +162"),
            "{body}"
        );
    }
    let ann = site.rating(ANN, "civilwar1863").unwrap();
    assert_eq!(ann.games, 1);
    assert!(site.rating(ANN, "squares").is_none());
    let reply =
        common::site::flat(&to(&site.mail(CAROL, ORDERLY, "RATINGS CIVILWAR1863"), CAROL).body);
    assert!(reply.contains("ann"), "{reply}");
}
