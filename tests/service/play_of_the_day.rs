//! Issue 18, part 3: the Play of the Day, through a real Maildir and a real
//! SQLite file. Members join with PLAYOFTHEDAY and vote with VOTE (or a
//! bare order in a reply carrying their key); a round closes at its
//! deadline (the sweep, at a time the test sets) or when an order reaches
//! the configured votes; the most voted legal order is played, a tie going
//! to the order that reached its count first; the house answers; every
//! member gets the tally and the board. Illegal votes, votes without a
//! key, forged senders and non-members are refused with the reason. The
//! service's clock is set for every mail (never the wall clock).

#[path = "../common/mod.rs"]
mod common;

use chrono::{DateTime, Duration, TimeZone, Utc};
use common::player::{attack_preferring, orders_but_end};
use common::rng::XorShift;
use common::site::{flat, plain_mail, to, Out, Site, ORDERLY};
use orderly::clock::Clock;
use orderly::games::squares::Squares;
use orderly::games::{Game, Seat};
use orderly::store::GameStatus;

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";
const CY: &str = "cy@example.org";
const DAN: &str = "dan@example.org";
const HOUSE: &str = "house@example.org";
const COMPUTER: &str = "computer@orderly.invalid";
const COMMUNITY: &str = "community@orderly.invalid";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
}

impl Site {
    fn daily(name: &str, adjust: impl FnOnce(&mut orderly::config::Config)) -> Site {
        Site::plain("orderly-potd", name, t0(), |config| {
            config.play_of_the_day.enabled = true;
            config.play_of_the_day.level = 1;
            adjust(config);
        })
    }

    /// A Play of the Day of the Civil War Game 1863, the community playing
    /// the Union.
    fn daily_1863(name: &str) -> Site {
        Site::daily(name, |c| {
            c.play_of_the_day.game = "civilwar1863".into();
            c.play_of_the_day.side = "union".into();
        })
    }

    /// A mail from `from` to `to` processed with the service's clock at
    /// `at`; the new mails, none of which goes to a reserved address.
    fn mail_at(&mut self, at: DateTime<Utc>, from: &str, to: &str, body: &str) -> Vec<Out> {
        self.service.set_clock(Clock::starting_at(at));
        let outs = self.send(from, to, body);
        assert_reserved_untouched(&outs);
        outs
    }

    /// The sweep at `at`; the mails it wrote.
    fn sweep_at(&mut self, at: DateTime<Utc>) -> Vec<Out> {
        self.service.set_clock(Clock::starting_at(at));
        self.service.sweep(at).unwrap();
        self.service.finish_sending_all().unwrap();
        let outs = self.collect();
        assert_reserved_untouched(&outs);
        outs
    }

    fn game(&mut self, id: i64) -> orderly::store::GameRow {
        self.game_row(id)
    }

    fn position(&mut self, id: i64) -> Squares {
        Squares::from_position(self.game(id).position.as_deref().unwrap()).unwrap()
    }

    fn entries(&mut self, id: i64) -> Vec<orderly::store::EntryRow> {
        self.entry_rows(id)
    }

    fn sql_i64(&self, sql: &str) -> i64 {
        let db = rusqlite::Connection::open(self.dir.join("orderly.db")).unwrap();
        db.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    fn sql_text(&self, sql: &str) -> String {
        let db = rusqlite::Connection::open(self.dir.join("orderly.db")).unwrap();
        db.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    /// Joins `who` and returns the address their votes go to (their key).
    fn join(&mut self, at: DateTime<Utc>, who: &str) -> String {
        let outs = self.mail_at(at, who, ORDERLY, "Hello!\n\nPLAYOFTHEDAY\n\nThanks, me");
        let reply = to(&outs, who);
        assert!(
            flat(&reply.body).contains("You take part in the Play of the Day (game"),
            "{}",
            reply.body
        );
        assert!(reply.reply_to.starts_with("orderly+g"), "{reply:#?}");
        assert!(
            flat(&reply.body).contains("Reply to this mail once"),
            "a join is confirmed before round mails come: {}",
            reply.body
        );
        // Their reply with the key (any words) confirms it.
        let outs = self.mail_at(at + Duration::seconds(1), who, &reply.reply_to, "Thanks!");
        let confirmed = to(&outs, who);
        assert!(
            flat(&confirmed.body).contains("the round mails come to you from now on"),
            "{}",
            confirmed.body
        );
        reply.reply_to
    }
}

fn assert_reserved_untouched(outs: &[Out]) {
    assert!(
        outs.iter().all(|o| o.to != COMPUTER && o.to != COMMUNITY),
        "a mail to a reserved address: {outs:#?}"
    );
}

/// The legal orders of the community (Blue, who begins), sorted.
fn orders_of(position: &Squares) -> Vec<String> {
    let mut legal: Vec<String> = position
        .legal_orders()
        .iter()
        .map(|o| o.to_string())
        .collect();
    legal.sort();
    legal
}

#[test]
fn a_round_closes_at_its_deadline_with_the_most_voted_order_and_a_tie_goes_to_the_first() {
    let mut site = Site::daily("deadline", |_| {});
    // The first sweep begins the game: public, unrated, the computer at
    // level 1 as the house, the community (Blue) to move, round 1 open.
    assert!(site.sweep_at(t0()).is_empty(), "no members, no mail");
    let game = site.game(1);
    assert_eq!(game.status, GameStatus::Active);
    assert!(game.public && !game.rated);
    assert_eq!(game.computer_level, Some(1));
    assert_eq!(site.position(1).pending().unwrap().seat, Seat::North);

    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let bob = site.join(t0() + Duration::minutes(2), BOB);
    let cy = site.join(t0() + Duration::minutes(3), CY);
    assert_ne!(ann, bob, "each member has a key of their own");
    let legal = orders_of(&site.position(1));
    let (a, b) = (legal[0].clone(), legal[1].clone());

    // A vote: counted, with the round's end and the votes so far.
    let outs = site.mail_at(
        t0() + Duration::minutes(10),
        ANN,
        &ann,
        &format!("VOTE {a}"),
    );
    let reply = flat(&to(&outs, ANN).body);
    assert!(
        reply.contains(&format!("Your vote for {a} counts in round 1")),
        "{reply}"
    );
    assert!(reply.contains(&format!("Votes so far: {a} 1")), "{reply}");
    // A bare order in a reply with the key, bottom-posted under a quote
    // and a greeting: a vote too.
    let body =
        format!("Hi all,\n\n{b}\n\nCheers\nBob\n\n> Play of the Day, game 1\n> Round 1 is open");
    let outs = site.mail_at(t0() + Duration::minutes(20), BOB, &bob, &body);
    let reply = flat(&to(&outs, BOB).body);
    assert!(
        reply.contains(&format!("Your vote for {b} counts in round 1")),
        "{reply}"
    );
    // An illegal vote is refused with its rule and what would be taken.
    let outs = site.mail_at(
        t0() + Duration::minutes(30),
        CY,
        &cy,
        "VOTE MOVE ARTILLERY BR B2R",
    );
    let reply = flat(&to(&outs, CY).body);
    assert!(reply.contains("Refused as a vote"), "{reply}");
    assert!(reply.contains("R10"), "{reply}");
    assert!(
        reply.contains("MOVE ARTILLERY BR B3R"),
        "the nearest legal order is offered: {reply}"
    );
    // Cy votes for b, then changes to a: the later vote counts.
    site.mail_at(t0() + Duration::minutes(40), CY, &cy, &format!("VOTE {b}"));
    let outs = site.mail_at(t0() + Duration::minutes(50), CY, &cy, &format!("vote {a}"));
    let reply = flat(&to(&outs, CY).body);
    assert!(
        reply.contains(&format!("Your vote is now {a} (it was {b})")),
        "{reply}"
    );
    // Not a member: told how to join. A member without the key: refused,
    // the reply carrying it. A forged From with another's key: refused.
    let outs = site.mail_at(
        t0() + Duration::minutes(55),
        DAN,
        ORDERLY,
        &format!("VOTE {b}"),
    );
    let reply = to(&outs, DAN);
    assert!(
        flat(&reply.body).contains("only members vote"),
        "{}",
        reply.body
    );
    let outs = site.mail_at(
        t0() + Duration::minutes(56),
        BOB,
        ORDERLY,
        &format!("VOTE {b}"),
    );
    let reply = to(&outs, BOB);
    assert!(
        flat(&reply.body).contains("a vote counts only in a reply"),
        "{}",
        reply.body
    );
    assert_eq!(reply.reply_to, bob, "the refusal carries Bob's own key");
    let outs = site.mail_at(
        t0() + Duration::minutes(57),
        DAN,
        &ann,
        &format!("VOTE {b}"),
    );
    assert!(flat(&to(&outs, DAN).body).contains("only members vote"));
    let outs = site.mail_at(
        t0() + Duration::minutes(58),
        BOB,
        &ann,
        &format!("VOTE {b}"),
    );
    let reply = to(&outs, BOB);
    assert!(
        flat(&reply.body).contains("a vote counts only in a reply"),
        "{}",
        reply.body
    );
    assert_eq!(reply.reply_to, bob, "Ann's key is not given to Bob");
    // Mail from the community's reserved address is ignored.
    assert!(site
        .mail_at(
            t0() + Duration::minutes(59),
            COMMUNITY,
            &ann,
            &format!("VOTE {b}")
        )
        .is_empty());

    // Before the deadline nothing closes; at it, a (2 votes) beats b (1).
    assert!(site.sweep_at(t0() + Duration::hours(23)).is_empty());
    let before = site.entries(1).len();
    let outs = site.sweep_at(t0() + Duration::hours(24));
    assert_eq!(outs.len(), 3, "one mail to each member: {outs:#?}");
    for who in [ANN, BOB, CY] {
        let mail = to(&outs, who);
        let text = flat(&mail.body);
        assert!(text.contains("Round 1 is closed"), "{text}");
        assert!(
            text.contains(&format!("The community plays {a}, with 2 of 3 votes")),
            "{text}"
        );
        assert!(text.contains(&format!("The votes: {a} 2, {b} 1")), "{text}");
        assert!(
            text.contains("Round 2 is open until"),
            "the computer answered at once: {text}"
        );
        assert!(mail.reply_to.starts_with("orderly+g1."), "{mail:#?}");
    }
    assert_eq!(
        to(&outs, ANN).reply_to,
        ann,
        "each mail carries its member's key"
    );
    let entries = site.entries(1);
    assert_eq!(entries[before].seat, Some(Seat::North));
    assert_eq!(entries[before].text, a);
    assert!(
        entries[before].written.contains("round 1: 2 of 3 votes"),
        "{:?}",
        entries[before]
    );
    assert_eq!(
        entries.last().unwrap().seat,
        Some(Seat::South),
        "the house answered"
    );
    assert_eq!(site.position(1).pending().unwrap().seat, Seat::North);

    // Round 2: a tie, 1 vote each; Bob's order reached its count first.
    let round2 = t0() + Duration::hours(24);
    let legal = orders_of(&site.position(1));
    let (x, y) = (legal[0].clone(), legal[legal.len() - 1].clone());
    site.mail_at(
        round2 + Duration::minutes(5),
        BOB,
        &bob,
        &format!("VOTE {y}"),
    );
    site.mail_at(
        round2 + Duration::minutes(6),
        ANN,
        &ann,
        &format!("VOTE {x}"),
    );
    let outs = site.sweep_at(round2 + Duration::hours(24));
    let text = flat(&to(&outs, CY).body);
    assert!(
        text.contains(&format!("The community plays {y}, with 1 of 2 votes (a tie, won by the order that reached its count first)")),
        "{text}"
    );

    // Round 3: nobody votes: the round runs another day, quietly.
    let round3 = round2 + Duration::hours(24);
    let count = site.entries(1).len();
    assert!(site.sweep_at(round3 + Duration::hours(24)).is_empty());
    assert_eq!(
        site.entries(1).len(),
        count,
        "nothing played without a vote"
    );

    // The results are kept, with who chose the orders played.
    let outs = site.mail_at(
        round3 + Duration::hours(25),
        DAN,
        ORDERLY,
        "PLAYOFTHEDAY RESULTS",
    );
    let text = flat(&to(&outs, DAN).body);
    assert!(
        text.contains(&format!(
            "round 2: {y}, 1 of 2 votes, tied and first to its count"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("round 1: {a}, 2 of 3 votes")),
        "{text}"
    );
    assert!(
        text.contains("Who chose the orders played (how many): ann (1), bob (1), cy (1)"),
        "{text}"
    );
    assert_eq!(
        site.sql_i64("SELECT COUNT(*) FROM daily_votes WHERE game_id = 1"),
        5,
        "every vote is kept"
    );

    // GAMES tells a member of the round open and their vote.
    let outs = site.mail_at(round3 + Duration::hours(25), ANN, ORDERLY, "GAMES");
    let text = flat(&to(&outs, ANN).body);
    assert!(
        text.contains("You take part in the Play of the Day, game 1: round 3 is open until"),
        "{text}"
    );
    assert!(text.contains("you have not voted yet"), "{text}");

    // A member who leaves gets no more mail.
    site.mail_at(round3 + Duration::hours(26), CY, ORDERLY, "potd leave");
    let now = legal_now(&mut site);
    site.mail_at(
        round3 + Duration::hours(27),
        ANN,
        &ann,
        &format!("VOTE {now}"),
    );
    let outs = site.sweep_at(round3 + Duration::hours(48));
    assert_eq!(outs.len(), 2, "{outs:#?}");
    assert!(outs.iter().all(|o| o.to != CY));
}

fn legal_now(site: &mut Site) -> String {
    orders_of(&site.position(1))[0].clone()
}

#[test]
fn an_order_with_the_votes_needed_closes_its_round_at_once_and_a_game_plays_to_its_end() {
    let mut site = Site::daily("votes", |c| c.play_of_the_day.votes_to_decide = 1);
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let mut rng = XorShift::new(18);
    let mut at = t0() + Duration::minutes(2);
    const MOST_VOTES: usize = 400;
    for n in 0..MOST_VOTES {
        if site.game(1).status == GameStatus::Finished {
            break;
        }
        let position = site.position(1);
        assert_eq!(
            position.pending().unwrap().seat,
            Seat::North,
            "after vote {n} the game waits for the community, never the house"
        );
        let (order, _) = attack_preferring(&position, &mut rng);
        let before = site.entries(1).len();
        at += Duration::minutes(1);
        let outs = site.mail_at(at, ANN, &ann, &format!("VOTE {order}"));
        assert_eq!(
            outs.len(),
            1,
            "one mail, the reply with the round's result: {outs:#?}"
        );
        let reply = flat(&to(&outs, ANN).body);
        assert!(
            reply.contains("the round is closed, and the result is below"),
            "{reply}"
        );
        assert!(reply.contains("is closed early"), "{reply}");
        assert!(site.entries(1).len() > before, "the vote was played");
    }
    let game = site.game(1);
    assert_eq!(game.status, GameStatus::Finished, "the game ended");
    assert!(!game.rated, "the Play of the Day is never rated");
    // Every community order in the record is a decided round.
    let rounds = site.sql_i64("SELECT COUNT(*) FROM daily_results WHERE game_id = 1");
    let community = site
        .entries(1)
        .iter()
        .filter(|e| e.seat == Some(Seat::North))
        .count() as i64;
    assert_eq!(rounds, community);
    // The next sweep begins the next game, and Ann hears of it.
    let outs = site.sweep_at(at + Duration::hours(1));
    let mail = to(&outs, ANN);
    assert!(
        flat(&mail.body).contains("Play of the Day, game 2"),
        "{}",
        mail.body
    );
    assert!(mail.reply_to.starts_with("orderly+g2."), "{mail:#?}");
}

#[test]
fn the_last_mail_of_a_game_names_who_chose_the_orders_played() {
    let mut site = Site::daily("last", |c| c.play_of_the_day.votes_to_decide = 1);
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let bob = site.join(t0() + Duration::minutes(2), BOB);
    let mut rng = XorShift::new(7);
    let mut at = t0() + Duration::minutes(3);
    let mut last = Vec::new();
    for n in 0..400 {
        if site.game(1).status == GameStatus::Finished {
            break;
        }
        let (order, _) = attack_preferring(&site.position(1), &mut rng);
        at += Duration::minutes(1);
        let (who, key) = if n % 3 == 0 { (BOB, &bob) } else { (ANN, &ann) };
        last = site.mail_at(at, who, key, &format!("VOTE {order}"));
    }
    assert_eq!(site.game(1).status, GameStatus::Finished);
    let text = flat(&to(&last, BOB).body);
    assert!(text.contains("The game is over"), "{text}");
    assert!(
        text.contains("Who chose the orders played (how many): ann ("),
        "{text}"
    );
    assert!(text.contains("bob ("), "{text}");
}

#[test]
fn a_house_player_plays_by_mail_and_the_vote_opens_after_their_move() {
    let mut site = Site::daily("house", |c| {
        c.play_of_the_day.house = HOUSE.into();
        c.play_of_the_day.side = "GRAY".into();
    });
    // Blue (the house) begins: the house gets its seat's mail and key.
    let outs = site.sweep_at(t0());
    let house = to(&outs, HOUSE);
    assert!(
        flat(&house.body).contains("You are the house in the Play of the Day, game 1"),
        "{}",
        house.body
    );
    assert!(house.reply_to.starts_with("orderly+g1."), "{house:#?}");
    let game = site.game(1);
    assert_eq!(game.computer_level, None);
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let text = flat(
        &site
            .collect()
            .iter()
            .map(|o| o.body.clone())
            .collect::<String>(),
    );
    assert!(text.is_empty(), "nothing else: {text}");
    // Ann cannot vote while the house decides.
    let outs = site.mail_at(t0() + Duration::minutes(2), ANN, &ann, "VOTE PASS");
    assert!(flat(&to(&outs, ANN).body).contains("the community has no vote open now"));
    // The house moves: the members' vote opens, with the board.
    let order = orders_of(&site.position(1))[0].clone();
    let outs = site.mail_at(t0() + Duration::hours(1), HOUSE, &house.reply_to, &order);
    let mail = to(&outs, ANN);
    let text = flat(&mail.body);
    assert!(text.contains("Round 1 is open until"), "{text}");
    assert!(
        text.contains("The community plays Gray against house@example.org"),
        "{text}"
    );
    // The round closes a day later with Ann's vote; the house is told.
    let vote = orders_of(&site.position(1))[0].clone();
    site.mail_at(
        t0() + Duration::hours(2),
        ANN,
        &ann,
        &format!("VOTE {vote}"),
    );
    let outs = site.sweep_at(t0() + Duration::hours(26));
    let text = flat(&to(&outs, ANN).body);
    assert!(text.contains("The house decides now"), "{text}");
    let house_mail = to(&outs, HOUSE);
    assert_eq!(house_mail.reply_to, house.reply_to, "the house's own key");
}

#[test]
fn members_are_bounded_and_the_reply_to_playoftheday_is_answered_once() {
    let mut site = Site::daily("bounded", |c| c.play_of_the_day.max_members = 2);
    site.sweep_at(t0());
    site.join(t0() + Duration::minutes(1), ANN);
    site.join(t0() + Duration::minutes(2), BOB);
    let outs = site.mail_at(t0() + Duration::minutes(3), CY, ORDERLY, "PLAYOFTHEDAY");
    assert!(flat(&to(&outs, CY).body).contains("as many members as this server takes"));
    // Asked twice in a mail: one board.
    let outs = site.mail_at(
        t0() + Duration::minutes(4),
        ANN,
        ORDERLY,
        "PLAYOFTHEDAY\nPLAYOFTHEDAY",
    );
    let body = to(&outs, ANN).body;
    assert!(flat(&body).contains("Answered once"), "{body}");
    assert_eq!(body.matches("Round 1 is open until").count(), 1, "{body}");
    // A Play of the Day game may be watched as any public game.
    let outs = site.mail_at(t0() + Duration::minutes(5), DAN, ORDERLY, "WATCH 1");
    assert!(flat(&to(&outs, DAN).body).contains("To watch game 1, reply to this mail"));
}

/// Hostile mail: PLAYOFTHEDAY and WATCH need no key, so a forged From can
/// name anyone. The address named gets the one answer, never the round
/// mails or boards after it, until its own reply confirms.
#[test]
fn a_forged_join_or_watch_makes_one_mail_and_no_more() {
    let mut site = Site::daily("forged", |c| c.play_of_the_day.votes_to_decide = 1);
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    // "Victims" who never asked: one answer each.
    let outs = site.mail_at(t0() + Duration::minutes(2), BOB, ORDERLY, "PLAYOFTHEDAY");
    assert_eq!(outs.len(), 1);
    let outs = site.mail_at(t0() + Duration::minutes(3), CY, ORDERLY, "WATCH 1");
    assert_eq!(outs.len(), 1);
    // Rounds close and boards change: nothing reaches them.
    for n in 0..3 {
        let a = legal_now(&mut site);
        let outs = site.mail_at(
            t0() + Duration::minutes(10 + n),
            ANN,
            &ann,
            &format!("VOTE {a}"),
        );
        assert!(
            outs.iter().all(|o| o.to == ANN),
            "only the voter hears: {outs:#?}"
        );
    }
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    let queued: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM outbox WHERE recipient IN (?1, ?2)",
            [BOB, CY],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(queued, 2, "one answer each, nothing after");
}

#[test]
fn without_a_play_of_the_day_the_commands_say_so() {
    let mut site = Site::open("orderly-potd", "off", |c| c.outgoing.html = false);
    site.service.set_clock(Clock::starting_at(t0()));
    site.service.sweep(t0()).unwrap();
    let outs = site.raw(plain_mail(ANN, ORDERLY, "x", "<off1@test>", 1, "PLAYOFTHEDAY").as_bytes());
    assert!(flat(&to(&outs, ANN).body).contains("there is no Play of the Day on this server"));
    let outs = site.raw(plain_mail(ANN, ORDERLY, "x", "<off2@test>", 2, "VOTE PASS").as_bytes());
    assert!(flat(&to(&outs, ANN).body).contains("there is no Play of the Day on this server"));
    let tx = site.service.store().read().unwrap();
    assert!(
        tx.game(1).unwrap().is_none(),
        "no game begins when it is off"
    );
}

#[test]
fn a_round_on_a_position_a_moderator_changed_opens_afresh_without_the_old_votes() {
    let mut site = Site::daily("moderated", |_| {});
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let bob = site.join(t0() + Duration::minutes(2), BOB);
    let legal = orders_of(&site.position(1));
    site.mail_at(
        t0() + Duration::minutes(10),
        BOB,
        &bob,
        &format!("VOTE {}", legal[0]),
    );
    // A moderator plays the community's decision; the computer answers.
    let report = site
        .service
        .moderate(
            &format!("ACT 1 BLUE {}", legal[1]),
            "cli:test",
            t0() + Duration::minutes(20),
        )
        .unwrap();
    assert!(report.contains("was entered for Blue"), "{report}");
    assert_eq!(site.position(1).pending().unwrap().seat, Seat::North);
    // The next vote opens the round afresh on the game as it stands: the
    // voter's reply carries its board, the other member gets it by mail.
    let vote = orders_of(&site.position(1))[0].clone();
    let at = t0() + Duration::minutes(30);
    let outs = site.mail_at(at, ANN, &ann, &format!("VOTE {vote}"));
    assert_eq!(outs.len(), 2, "{outs:#?}");
    let reply = flat(&to(&outs, ANN).body);
    assert!(
        reply.contains(&format!("Your vote for {vote} counts")),
        "{reply}"
    );
    assert!(
        reply.contains("Round 1 is open until Sun 22 Nov 2026 10:30 UTC"),
        "{reply}"
    );
    let bobs = flat(&to(&outs, BOB).body);
    assert!(
        bobs.contains("Round 1 is open until Sun 22 Nov 2026 10:30 UTC"),
        "{bobs}"
    );
    assert!(
        !bobs.contains("Votes so far"),
        "Bob's old vote is gone: {bobs}"
    );
    // At its new end the round counts Ann's vote alone.
    let outs = site.sweep_at(at + Duration::hours(24) + Duration::minutes(1));
    let text = flat(&to(&outs, BOB).body);
    assert!(
        text.contains(&format!("The community plays {vote}, with 1 of 1 votes")),
        "{text}"
    );
}

/// Found by a newcomer: a member who plays no game of their own sets their
/// time zone in a reply to a Play of the Day mail (its key proves them), and
/// a line other than a vote in such a reply (BOARD) is refused alone: the
/// vote beside it is answered, with the round it closed, and the reply
/// keeps the member's key. A refused vote is worded once, without the
/// line echoed again inside the answer.
#[test]
fn a_reply_to_a_play_of_the_day_mail_sets_a_time_zone_and_a_board_line_loses_no_vote() {
    let mut site = Site::daily("member-key", |c| c.play_of_the_day.votes_to_decide = 2);
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let outs = site.mail_at(t0() + Duration::minutes(2), BOB, ORDERLY, "PLAYOFTHEDAY");
    let joined = to(&outs, BOB);
    assert!(
        joined.body.contains("Key: * last action"),
        "the first board a member gets explains its marks: {}",
        joined.body
    );
    let bob = joined.reply_to;
    let a = legal_now(&mut site);

    // SET TIMEZONE and a vote, in a reply with Bob's key.
    let body = format!("SET TIMEZONE America/New_York\nvote {a}\n\nSent from my iPhone");
    let outs = site.mail_at(t0() + Duration::minutes(10), BOB, &bob, &body);
    let reply = to(&outs, BOB);
    let text = flat(&reply.body);
    assert!(!text.contains("is not a key"), "{text}");
    assert!(
        text.contains(&format!("Your vote for {a} counts in round 1")),
        "{text}"
    );
    assert!(
        text.contains("(America/New_York)"),
        "the round's end in Bob's own zone: {text}"
    );
    assert_eq!(reply.reply_to, bob, "the reply keeps Bob's key");

    // BOARD beside the vote that closes the round: the vote and the
    // result are answered, BOARD is refused with what to write instead.
    let body = format!("Hi,\nBOARD\nVOTE {a}\nAnn");
    let outs = site.mail_at(t0() + Duration::minutes(20), ANN, &ann, &body);
    let reply = to(&outs, ANN);
    let text = flat(&reply.body);
    assert!(!text.contains("not answered"), "{text}");
    assert!(!text.contains("is not a key"), "{text}");
    assert!(
        text.contains("takes your VOTE and settings such as SET TIMEZONE"),
        "{text}"
    );
    assert!(text.contains("It is the order the round needed"), "{text}");
    assert!(text.contains("Round 1 is closed early"), "{text}");
    assert_eq!(reply.reply_to, ann, "the reply keeps Ann's key");

    // An illegal vote: the rule and the nearest orders, the line not
    // quoted a second time inside the answer.
    let outs = site.mail_at(
        t0() + Duration::minutes(30),
        BOB,
        &bob,
        "vote move infantry br g1c",
    );
    let body = to(&outs, BOB).body;
    assert!(
        body.contains("Refused as a vote under rule R9: G1C is not a square"),
        "{body}"
    );
    assert!(!body.contains("vote: > "), "{body}");
    assert!(body.contains("Nearest legal orders:"), "{body}");
}

/// Found by a newcomer: the reply to a first PLAYOFTHEDAY gave the round's
/// end in UTC, and the next reply in the zone of the mail's Date offset.
/// The first one is given where the newcomer reads it too.
#[test]
fn a_newcomers_first_board_gives_the_rounds_end_in_the_zone_of_their_mail() {
    let mut site = Site::daily("first-zone", |_| {});
    site.sweep_at(t0());
    site.service
        .set_clock(Clock::starting_at(t0() + Duration::minutes(1)));
    let raw = plain_mail(
        ANN,
        ORDERLY,
        "join",
        "<zone1@test>",
        1,
        "Bonjour,\nPLAYOFTHEDAY\nAnn",
    )
    .replace("+0000", "+0100");
    let outs = site.raw(raw.as_bytes());
    let text = flat(&to(&outs, ANN).body);
    // Round 1 ends 24 hours after t0 (10:00 UTC), 11:00 at UTC+01:00.
    assert!(
        text.contains("Round 1 is open until Sun 22 Nov 2026 11:00 UTC+01:00"),
        "{text}"
    );
}

/// Found by a newcomer: a vote that came after the round's deadline but
/// before the sweep reached it was counted in the overdue round (and
/// decided it), its reply saying "the round closes <a time past>; until
/// then you may change your vote". The round is closed first: a vote for
/// a position a decided round changed is refused; in a round without
/// votes, which runs on, it counts.
#[test]
fn a_vote_after_the_deadline_before_the_sweep_is_not_counted_in_the_closed_round() {
    let mut site = Site::daily("late-vote", |_| {});
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let bob = site.join(t0() + Duration::minutes(2), BOB);
    let legal = orders_of(&site.position(1));
    let (a, b) = (legal[0].clone(), legal[1].clone());
    site.mail_at(t0() + Duration::hours(1), ANN, &ann, &format!("VOTE {a}"));

    // Bob votes an hour after the deadline; no sweep has run.
    let outs = site.mail_at(t0() + Duration::hours(25), BOB, &bob, &format!("VOTE {b}"));
    let reply = to(&outs, BOB);
    let text = flat(&reply.body);
    assert!(
        text.contains(
            "Refused: round 1 closed at Sun 22 Nov 2026 10:00 UTC, before this vote came"
        ),
        "{text}"
    );
    assert_eq!(reply.reply_to, bob, "the reply keeps Bob's key");
    assert_eq!(
        outs.iter().filter(|o| o.to == BOB).count(),
        1,
        "the result is in the reply: {outs:#?}"
    );
    assert!(text.contains("Round 1 is closed."), "{text}");
    let result = outs
        .iter()
        .find(|o| o.to == ANN)
        .map(|o| flat(&o.body))
        .unwrap_or_default();
    assert!(
        result.contains(&format!(
            "Round 1 is closed. The community plays {a}, with 1 of 1 votes"
        )),
        "Ann's vote alone decided round 1: {outs:#?}"
    );
    assert_eq!(
        site.sql_i64("SELECT COUNT(*) FROM daily_results WHERE game_id = 1"),
        1
    );

    // Round 2 gets no vote; a vote after its deadline counts in it, which
    // runs on, and closes at the new deadline.
    let ends = t0() + Duration::hours(25) + Duration::hours(24);
    let c = legal_now(&mut site);
    let outs = site.mail_at(ends + Duration::hours(1), BOB, &bob, &format!("VOTE {c}"));
    let text = flat(&to(&outs, BOB).body);
    assert!(
        text.contains(&format!("Your vote for {c} counts in round 2")),
        "{text}"
    );
    assert!(!text.contains("Sun 22 Nov"), "no deadline past: {text}");
}

/// Found by a newcomer: a watcher of the Play of the Day got the new board
/// after each round with nothing of what was played (no "What happened",
/// no mark of the last action), where a watcher of any other game is told.
#[test]
fn a_watcher_of_the_play_of_the_day_is_told_what_happened() {
    let mut site = Site::daily("watcher", |c| c.play_of_the_day.votes_to_decide = 1);
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let outs = site.mail_at(t0() + Duration::minutes(2), DAN, ORDERLY, "WATCH 1");
    let answer = to(&outs, DAN);
    assert!(flat(&answer.body).contains("To watch game 1, reply to this mail"));
    let outs = site.mail_at(
        t0() + Duration::minutes(2) + Duration::seconds(30),
        DAN,
        &answer.reply_to,
        "yes",
    );
    assert!(flat(&to(&outs, DAN).body).contains("You now watch game 1"));
    let a = legal_now(&mut site);
    let outs = site.mail_at(t0() + Duration::minutes(3), ANN, &ann, &format!("VOTE {a}"));
    let watcher = to(&outs, DAN);
    assert!(watcher.body.contains("What happened:"), "{}", watcher.body);
    assert!(
        watcher.body.contains("  Blue "),
        "the community's order: {}",
        watcher.body
    );
    assert!(watcher.reply_to.is_empty(), "no key: {watcher:#?}");
}

/// Found by a newcomer: joining after a round's deadline, before the sweep
/// reached it, showed the round as still open until a time already past.
#[test]
fn joining_after_a_deadline_the_sweep_has_not_reached_shows_the_game_as_it_stands() {
    let mut site = Site::daily("late-join", |_| {});
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let a = legal_now(&mut site);
    site.mail_at(t0() + Duration::minutes(2), ANN, &ann, &format!("VOTE {a}"));
    let outs = site.mail_at(t0() + Duration::hours(25), BOB, ORDERLY, "PLAYOFTHEDAY");
    let reply = flat(&to(&outs, BOB).body);
    assert!(
        reply.contains("Round 2 is open until Mon 23 Nov 2026 11:00 UTC"),
        "{reply}"
    );
    assert!(!reply.contains("Round 1 is open"), "{reply}");
    // SQUARES has no chance: no seed to commit to.
    assert!(!reply.contains("SHA-256"), "{reply}");
    // Ann is told by mail; the sweep then has nothing left to close.
    assert!(flat(&to(&outs, ANN).body).contains("Round 1 is closed"));
    assert!(site.sweep_at(t0() + Duration::hours(25)).is_empty());
}

#[test]
fn a_napoleonic_play_of_the_day_takes_votes_in_its_own_words() {
    let mut site = Site::daily("napoleonic", |c| {
        c.play_of_the_day.game = "napoleonic".into();
        c.play_of_the_day.side = "FRENCH".into();
        c.play_of_the_day.votes_to_decide = 1;
    });
    site.sweep_at(t0());
    let game = site.game(1);
    assert_eq!(game.kind, "napoleonic");
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let hosted = orderly::games::hosted::find("napoleonic").unwrap();
    let state = (hosted.from_position)(site.game(1).position.as_deref().unwrap()).unwrap();
    let community = state.pending().unwrap().seat;
    assert_eq!(state.seat_name(community), "French");
    let mut legal = state.legal_orders();
    legal.sort();
    let outs = site.mail_at(
        t0() + Duration::minutes(2),
        ANN,
        &ann,
        &format!("VOTE {}", legal[0]),
    );
    let reply = flat(&to(&outs, ANN).body);
    assert!(reply.contains("The community plays French"), "{reply}");
    assert!(reply.contains("Round 1 is closed early"), "{reply}");
}

/// The Civil War Game 1863's state of game `id`, as the service keeps it.
fn state_1863(site: &mut Site, id: i64) -> Box<dyn orderly::games::AnyGame> {
    let hosted = orderly::games::hosted::find("civilwar1863").unwrap();
    (hosted.from_position)(site.game(id).position.as_deref().unwrap()).unwrap()
}

/// The decision the community of game 1 is to take: its own turn
/// ("turn"), or one inside a battle.
fn decision_1863(site: &mut Site) -> String {
    let state = state_1863(site, 1);
    let pending = state.pending().unwrap();
    assert_eq!(pending.seat, Seat::North, "the community decides");
    pending.kind
}

/// The rounds of game 1 decided so far.
fn rounds(site: &Site) -> i64 {
    site.sql_i64("SELECT COUNT(*) FROM daily_results WHERE game_id = 1")
}

/// Until the community has a turn of its own to play (the house's battles
/// may ask it the survivors' move or the piece kept, P21, P22): Ann votes
/// each decision's first legal order, and the round closes at its
/// deadline, 24 hours after `at`. The time of the last sweep.
fn vote_until_own_turn(site: &mut Site, ann: &str, mut at: DateTime<Utc>) -> DateTime<Utc> {
    for _ in 0..20 {
        if decision_1863(site) == "turn" {
            return at;
        }
        let order = state_1863(site, 1).legal_orders()[0].clone();
        site.mail_at(
            at + Duration::minutes(5),
            ANN,
            ann,
            &format!("VOTE {order}"),
        );
        at += Duration::hours(24);
        site.sweep_at(at);
    }
    panic!("the battle ends");
}

/// Issue 18: the Civil War Game 1863's Play of the Day. A turn there is
/// several decisions (each move, ride, FORTIFY and END, and each choice in
/// a battle), so a round decides one order of it: the community has
/// several rounds in a row in one turn, END is voted as any order (and
/// refused before the turn's first order, P8), and the computer house
/// plays its whole turn at once, its battles' coins drawn by the service
/// (P22). The coins come from a fresh seed, so the test follows the
/// battles the game brings rather than a script of them.
#[test]
fn a_civil_war_1863_play_of_the_day_votes_one_order_a_round_and_the_house_answers_its_whole_turn() {
    let mut site = Site::daily_1863("civilwar1863");
    // The Confederacy moves first (P7): the house played its first turn
    // when the game began, up to the Union's first decision.
    assert!(site.sweep_at(t0()).is_empty(), "no members, no mail");
    let game = site.game(1);
    assert_eq!(game.kind, "civilwar1863");
    assert!(game.public && !game.rated);
    assert_eq!(game.computer_level, Some(1));
    assert!(
        site.entries(1).iter().any(|e| e.seat == Some(Seat::South)),
        "the house began"
    );
    assert_eq!(
        site.sql_i64("SELECT COUNT(*) FROM fair_seeds WHERE game_id = 1"),
        1,
        "the coins' seed is committed to when the game begins"
    );

    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let bob = site.join(t0() + Duration::minutes(2), BOB);
    let cy = site.join(t0() + Duration::minutes(3), CY);
    // A member holds the coins' commitment from the game as it stands
    // (docs/dice.md), as a player does from the invitation.
    let commitment = site.sql_text("SELECT commitment FROM fair_seeds WHERE game_id = 1");
    let outs = site.mail_at(
        t0() + Duration::minutes(3) + Duration::seconds(30),
        CY,
        ORDERLY,
        "PLAYOFTHEDAY",
    );
    let reply = flat(&to(&outs, CY).body);
    assert!(
        reply.contains(&format!("whose SHA-256 is {commitment}.")),
        "{commitment}: {reply}"
    );
    // An observer: no key, no vote, the updates all the same.
    let outs = site.mail_at(t0() + Duration::minutes(4), DAN, ORDERLY, "WATCH 1");
    let answer = to(&outs, DAN);
    site.mail_at(
        t0() + Duration::minutes(4) + Duration::seconds(30),
        DAN,
        &answer.reply_to,
        "yes",
    );
    let at = vote_until_own_turn(&mut site, &ann, t0());
    let entries = site.entries(1);
    assert_eq!(
        last_order_of(&entries, Seat::South),
        Some("END"),
        "the house played its whole turn, and ended it: {entries:#?}"
    );
    let state = state_1863(&mut site, 1);
    let turn = state.turn_number();

    // The community's first order of its turn: a tie between two orders,
    // and END refused (P8).
    let round = rounds(&site) + 1;
    let legal = orders_but_end(state.as_ref());
    let (a, b) = (legal[0].clone(), legal[1].clone());
    let outs = site.mail_at(at + Duration::minutes(10), ANN, &ann, &format!("VOTE {a}"));
    let reply = flat(&to(&outs, ANN).body);
    assert!(
        reply.contains(&format!("Your vote for {a} counts in round {round}")),
        "{reply}"
    );
    let outs = site.mail_at(at + Duration::minutes(20), BOB, &bob, &format!("VOTE {b}"));
    let reply = flat(&to(&outs, BOB).body);
    assert!(
        reply.contains(&format!("Votes so far: {a} 1, {b} 1")),
        "{reply}"
    );
    let outs = site.mail_at(at + Duration::minutes(30), CY, &cy, "VOTE END");
    let reply = flat(&to(&outs, CY).body);
    assert!(reply.contains("Refused as a vote"), "{reply}");
    assert!(
        reply.contains("P8"),
        "END before the turn's first order: {reply}"
    );

    assert!(site.sweep_at(at + Duration::hours(23)).is_empty());
    let mut at = at + Duration::hours(24);
    let outs = site.sweep_at(at);
    assert_eq!(outs.len(), 4, "three members and the watcher: {outs:#?}");
    for who in [ANN, BOB, CY] {
        let mail = to(&outs, who);
        let text = flat(&mail.body);
        assert!(
            text.contains("The community plays Union against the computer (level 1)"),
            "{text}"
        );
        assert!(text.contains(&format!("Round {round} is closed")), "{text}");
        assert!(
            text.contains(&format!(
                "The community plays {a}, with 1 of 2 votes (a tie, won by the order that \
                 reached its count first)"
            )),
            "{text}"
        );
        assert!(text.contains(&format!("The votes: {a} 1, {b} 1")), "{text}");
        assert!(
            text.contains(&format!("Round {} is open until", round + 1)),
            "the Union's next decision of the same turn: {text}"
        );
        // The board, its stacks listed.
        assert!(
            text.contains("Union: ") && text.contains("Confederacy: "),
            "{text}"
        );
        if text.contains("You must decide") {
            continue; // a decision of the battle the order began (P20)
        }
        assert!(
            text.contains(
                "A round decides one order of the community's turn, not the whole turn, \
                 whatever the list below says of a mail: the turn goes on, a round an \
                 order, until the community votes END."
            ),
            "{text}"
        );
        assert!(mail.reply_to.starts_with("orderly+g1."), "{mail:#?}");
    }
    let watcher = to(&outs, DAN);
    assert!(watcher.body.contains("What happened:"), "{}", watcher.body);
    assert!(watcher.reply_to.is_empty(), "no key: {watcher:#?}");
    let state = state_1863(&mut site, 1);
    assert_eq!(state.turn_number(), turn, "still the Union's turn");

    // The next rounds of the same turn: its battle's decisions, if the
    // order played attacked; then END, voted by all.
    for _ in 0..20 {
        if state_1863(&mut site, 1)
            .legal_orders()
            .contains(&"END".to_string())
        {
            break;
        }
        let order = state_1863(&mut site, 1).legal_orders()[0].clone();
        site.mail_at(
            at + Duration::minutes(5),
            ANN,
            &ann,
            &format!("VOTE {order}"),
        );
        at += Duration::hours(24);
        site.sweep_at(at);
    }
    assert_eq!(state_1863(&mut site, 1).turn_number(), turn);
    let round = rounds(&site) + 1;
    let before = site.entries(1).len();
    for (who, key) in [(ANN, &ann), (BOB, &bob), (CY, &cy)] {
        site.mail_at(at + Duration::minutes(5), who, key, "VOTE END");
    }
    let at = at + Duration::hours(24);
    let outs = site.sweep_at(at);
    assert_eq!(outs.len(), 4, "three members and the watcher: {outs:#?}");
    let entries = site.entries(1);
    assert_eq!(entries[before].seat, Some(Seat::North));
    assert_eq!(entries[before].text, "END");
    assert!(
        entries[before..]
            .iter()
            .any(|e| e.seat == Some(Seat::South)),
        "the house answered: {:#?}",
        &entries[before..]
    );
    for who in [ANN, BOB, CY] {
        let text = flat(&to(&outs, who).body);
        assert!(text.contains(&format!("Round {round} is closed")), "{text}");
        assert!(
            text.contains("The community plays END, with 3 of 3 votes"),
            "{text}"
        );
        assert!(text.contains("What happened:"), "{text}");
        assert!(
            text.contains(&format!("Round {} is open until", round + 1)),
            "{text}"
        );
    }
    let watched = to(&outs, DAN);
    assert!(watched.body.contains("What happened:"), "{}", watched.body);
    assert!(watched.reply_to.is_empty(), "no key: {watched:#?}");
    // The house's whole turn, its battles' questions to the community
    // answered between, up to the Union's next turn.
    vote_until_own_turn(&mut site, &ann, at);
    let entries = site.entries(1);
    assert_eq!(
        last_order_of(&entries, Seat::South),
        Some("END"),
        "the house ended its turn: {:#?}",
        &entries[before..]
    );
    assert!(state_1863(&mut site, 1).turn_number() > turn, "a new turn");
}

/// The games a Play of the Day plays, and its side in each game's words:
/// the configuration refuses any other when it is read, not at the sweep.
#[test]
fn the_play_of_the_day_plays_squares_napoleonic_and_civilwar1863_on_a_side_of_theirs() {
    let parse = |game: &str, side: &str| {
        orderly::config::Config::parse(&format!(
            "[play_of_the_day]\nenabled = true\ngame = \"{game}\"\nside = \"{side}\"\n"
        ))
    };
    assert!(parse("civilwar1863", "union").is_ok());
    assert!(parse("CivilWar1863", "CONFEDERACY").is_ok());
    assert!(parse("napoleonic", "french").is_ok());
    assert!(parse("squares", "").is_ok());
    let refused = parse("brothersatwar", "").unwrap_err();
    assert!(
        refused.contains("plays squares, napoleonic, civilwar1863"),
        "{refused}"
    );
    let refused = parse("civilwar1863", "gray").unwrap_err();
    assert!(
        refused.contains("is no side of civilwar1863: UNION|CONFEDERACY"),
        "{refused}"
    );
}

/// The coin of an even battle (P22) is drawn by the service, never voted,
/// whoever's order called for it: the game goes on to the community's
/// next decision or its end, and the members read the draw. Ann's votes
/// close each round at once; she votes at random, so battles come.
#[test]
fn a_civil_war_1863_play_of_the_day_draws_its_coins_and_never_waits_for_one() {
    let mut site = Site::daily("civilwar1863-coins", |c| {
        c.play_of_the_day.game = "civilwar1863".into();
        c.play_of_the_day.votes_to_decide = 1;
    });
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let mut rng = XorShift::new(1863);
    let mut at = t0() + Duration::minutes(2);
    let mut told = false;
    for _ in 0..400 {
        if site.game(1).status == GameStatus::Finished {
            break;
        }
        if told {
            break;
        }
        let state = state_1863(&mut site, 1);
        let pending = state.pending();
        assert_eq!(
            pending.map(|p| p.seat),
            Some(Seat::South),
            "the game waits for the community (the Confederacy, who begins), \
             never for a coin or the house"
        );
        let legal = state.legal_orders();
        let order = legal[rng.below(legal.len())].clone();
        at += Duration::minutes(1);
        let outs = site.mail_at(at, ANN, &ann, &format!("VOTE {order}"));
        let reply = flat(&to(&outs, ANN).body);
        assert!(reply.contains("is closed early"), "{reply}");
        told |= reply.contains("(the coin of an even battle)");
    }
    assert!(
        site.sql_i64("SELECT COUNT(*) FROM fair_draws") >= 1,
        "an even battle came, and its coin was drawn"
    );
    assert!(told, "a member read a draw");
    let state = state_1863(&mut site, 1);
    assert!(
        state.outcome().is_some() || state.pending().is_some_and(|p| p.seat == Seat::South),
        "after the coin, the community decides again"
    );
}

/// The text of the last entry of `seat` in the record.
fn last_order_of(entries: &[orderly::store::EntryRow], seat: Seat) -> Option<&str> {
    entries
        .iter()
        .rev()
        .find(|e| e.seat == Some(seat))
        .map(|e| e.text.as_str())
}

/// A Play of the Day with chance (1863) ends as any game with chance does:
/// its seed revealed to those who held its commitment (docs/dice.md).
#[test]
fn a_civil_war_1863_play_of_the_day_reveals_its_seed_to_the_members_at_its_end() {
    let mut site = Site::daily_1863("civilwar1863-end");
    site.sweep_at(t0());
    let ann = site.join(t0() + Duration::minutes(1), ANN);
    let at = vote_until_own_turn(&mut site, &ann, t0());
    // The Confederacy down to one piece beside two of the Union's, which
    // take it and win (P20, P34).
    rusqlite::Connection::open(site.dir.join("orderly.db"))
        .unwrap()
        .execute(
            "UPDATE games SET position = ?1 WHERE id = 1",
            ["cw1863 3; north to move; U: E13 2I; C: E14 1I"],
        )
        .unwrap();
    site.mail_at(at + Duration::minutes(5), ANN, &ann, "VOTE E13 2I-E14");
    let outs = site.sweep_at(at + Duration::hours(24));
    assert!(state_1863(&mut site, 1).outcome().is_some(), "{outs:#?}");
    let seed = site.sql_text("SELECT seed FROM fair_seeds WHERE game_id = 1");
    let commitment = site.sql_text("SELECT commitment FROM fair_seeds WHERE game_id = 1");
    let last = flat(&to(&outs, ANN).body);
    assert!(last.contains("The game is over"), "{last}");
    assert!(
        last.contains(&format!(
            "The seed of this game's tosses was {seed} (its SHA-256, given when the game began: {commitment})"
        )),
        "{last}"
    );
}

/// A moderator's ruling ends a Play of the Day as a last round would: the
/// members learn the result before the next game begins.
#[test]
fn a_play_of_the_day_a_moderator_ends_tells_its_members_the_result() {
    let mut site = Site::daily_1863("adjudicated");
    site.sweep_at(t0());
    let _ann = site.join(t0() + Duration::minutes(1), ANN);
    let report = site
        .service
        .moderate(
            "ADJUDICATE 1 DRAW the house's machine is down",
            "cli:test",
            t0() + Duration::minutes(20),
        )
        .unwrap();
    assert!(report.contains("adjudicated"), "{report}");
    let outs = site.sweep_at(t0() + Duration::minutes(21));
    let told: Vec<String> = outs
        .iter()
        .filter(|o| o.to == ANN)
        .map(|o| flat(&o.body))
        .collect();
    let last = told
        .iter()
        .find(|b| b.contains("Play of the Day, game 1:"))
        .unwrap_or_else(|| panic!("game 1's end is told: {told:#?}"));
    assert!(last.contains("The game is over"), "{last}");
    assert!(last.contains("the house's machine is down"), "{last}");
    let seed = site.sql_text("SELECT seed FROM fair_seeds WHERE game_id = 1");
    assert!(
        last.contains(&format!("The seed of this game's tosses was {seed}")),
        "{last}"
    );
    assert!(!last.contains("Round 1 is open"), "{last}");
    assert_eq!(last.matches("The game is over").count(), 1, "{last}");
}
