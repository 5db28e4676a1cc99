//! Deadlines, reminders, running out of time and moderators, with an
//! injected clock: every mail is processed and every sweep run at a chosen
//! instant, so no test sleeps.

#[path = "../common/mod.rs"]
mod common;

use chrono::{DateTime, Duration, TimeZone, Utc};
use common::site::Site;
use orderly::service::identity::seat_secret;

const SECRET: &str = "deadline-secret";
const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";
const MOD: &str = "mod@example.org";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
}

/// This file's sites (tests/common/site.rs): a secret of their own, a
/// moderator, and every mail processed and every sweep run at a chosen
/// instant.
impl Site {
    fn new(name: &str) -> Site {
        Site::open("orderly-dl", name, |config| {
            config.service.secret = Some(SECRET.into());
            config.moderators.addresses = vec![MOD.to_string()];
        })
    }

    fn seat(&self, north: bool) -> String {
        let seat = if north {
            orderly::games::Seat::North
        } else {
            orderly::games::Seat::South
        };
        format!(
            "orderly+g1.{}@example.org",
            seat_secret(SECRET.as_bytes(), 1, seat)
        )
    }

    /// A mail processed at `at`, the outbox drained: the new mails' (to, body).
    fn mail(
        &mut self,
        at: DateTime<Utc>,
        from: &str,
        to: &str,
        body: &str,
    ) -> Vec<(String, String)> {
        self.counter += 1;
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <d{}@test>\r\n\r\n{body}\r\n",
            self.counter
        );
        self.service.process(raw.as_bytes(), at).unwrap();
        self.drain(at)
    }

    fn sweep(&mut self, at: DateTime<Utc>) -> Vec<(String, String)> {
        self.service.sweep(at).unwrap();
        self.drain(at)
    }

    fn drain(&mut self, at: DateTime<Utc>) -> Vec<(String, String)> {
        self.service.drain_outbox(at).unwrap();
        self.collect().into_iter().map(|o| (o.to, o.body)).collect()
    }

    /// Ann (Blue) proposes with `days` per turn (or a clock), Bob accepts at t0.
    fn start(&mut self, days: &str) {
        self.mail(
            t0() - Duration::hours(1),
            ANN,
            "orderly@example.org",
            &format!("NEW SQUARES VS {BOB} {days}"),
        );
        let bob = self.seat(false);
        self.mail(t0(), BOB, &bob, "ACCEPT");
    }
}

fn only<'a>(mails: &'a [(String, String)], to: &str) -> Vec<&'a str> {
    mails
        .iter()
        .filter(|(t, _)| t == to)
        .map(|(_, b)| b.as_str())
        .collect()
}

#[test]
fn reminders_come_once_at_their_hours_across_restarts_then_late_notices_then_a_claim() {
    let mut site = Site::new("reminders");
    site.start("DAYS 3");
    let deadline = t0() + Duration::days(3);
    assert!(
        site.sweep(deadline - Duration::hours(25)).is_empty(),
        "too early"
    );
    let mails = site.sweep(deadline - Duration::hours(24) + Duration::minutes(1));
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(only(&mails, ANN)[0].contains("Reminder: game 1 waits for you"));
    assert!(
        only(&mails, ANN)[0].contains("Tue 24 Nov 2026 10:00 UTC"),
        "{mails:?}"
    );
    assert!(
        site.sweep(deadline - Duration::hours(23)).is_empty(),
        "once only"
    );
    site.restart();
    assert!(
        site.sweep(deadline - Duration::hours(22)).is_empty(),
        "once, also after a restart"
    );
    let mails = site.sweep(deadline - Duration::minutes(90));
    assert_eq!(only(&mails, ANN).len(), 1, "the 2-hour reminder: {mails:?}");
    let mails = site.sweep(deadline + Duration::minutes(1));
    assert_eq!(mails.len(), 2, "late notices to both: {mails:?}");
    assert!(only(&mails, ANN)[0].contains("Please send your orders now"));
    assert!(only(&mails, BOB)[0].contains("has 24 more hours of grace"));
    assert!(site.sweep(deadline + Duration::hours(2)).is_empty());
    // Bob cannot claim during the grace period.
    let bob = site.seat(false);
    let mails = site.mail(deadline + Duration::hours(3), BOB, &bob, "CLAIM WIN");
    assert!(only(&mails, BOB)[0].contains("still has time"), "{mails:?}");
    let mails = site.sweep(deadline + Duration::hours(25));
    assert_eq!(only(&mails, BOB).len(), 1, "{mails:?}");
    assert!(only(&mails, BOB)[0].contains("You may write CLAIM WIN"));
    let mails = site.mail(deadline + Duration::hours(26), BOB, &bob, "claim win");
    assert!(
        only(&mails, BOB)[0].contains("You win game 1: Blue ran out of time"),
        "{mails:?}"
    );
    assert!(
        only(&mails, ANN)[0].contains("Gray wins (Blue ran out of time)"),
        "{mails:?}"
    );
    let record =
        orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap();
    assert!(record.contains("Gray claimed the win"), "{record}");
    assert!(record.contains("[Result \"Gray\"]"), "{record}");
    assert!(
        site.sweep(deadline + Duration::days(5)).is_empty(),
        "a finished game is quiet"
    );
}

#[test]
fn a_decision_mail_brings_no_reminder_with_it_and_a_reminder_says_what_is_pending() {
    let mut site = Site::new("decision");
    site.start("DAYS 3");
    // Blue's double turn whose first half is an attack (as if played there).
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    db.execute(
        "UPDATE games SET position = '7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b1 b 20 -' WHERE id = 1",
        [],
    )
    .unwrap();
    let ann = site.seat(true);
    let t = t0() + Duration::hours(1);
    let mails = site.mail(t, ANN, &ann, "B1C x G1C + B1CL");
    assert!(only(&mails, BOB)[0].contains("must act by"), "{mails:?}");
    // Gray has 24 hours for the defence: the mail said so; no reminder
    // comes beside it.
    assert!(site.sweep(t + Duration::minutes(1)).is_empty());
    assert!(site.sweep(t + Duration::hours(12)).is_empty());
    let mails = site.sweep(t + Duration::hours(23));
    let reminder = only(&mails, BOB);
    assert_eq!(reminder.len(), 1, "the 2-hour reminder: {mails:?}");
    let text = reminder[0].replace('\n', " ");
    assert!(text.contains("waits for you: Gray (defence"), "{text}");
}

#[test]
fn an_order_gives_the_other_player_a_fresh_deadline() {
    let mut site = Site::new("fresh");
    site.start("DAYS 2");
    let ann = site.seat(true);
    let moved = t0() + Duration::hours(30);
    let mails = site.mail(moved, ANN, &ann, "cav BR B3C");
    let bob_mail = only(&mails, BOB)[0].to_string();
    assert!(
        bob_mail.contains("You must act by Tue 24 Nov 2026 16:00 UTC."),
        "{bob_mail}"
    );
    // Ann's old deadline is gone: nothing for her at its hours.
    assert!(site.sweep(t0() + Duration::hours(47)).is_empty());
    let mails = site.sweep(moved + Duration::hours(25));
    assert_eq!(only(&mails, BOB).len(), 1, "{mails:?}");
}

#[test]
fn an_order_in_a_pause_gives_the_other_player_their_whole_time_from_its_end() {
    let mut site = Site::new("pausedorder");
    site.start("DAYS 2");
    // Ann has eight hours left when the moderators pause the game.
    let at = t0() + Duration::hours(40);
    let report = site
        .service
        .moderate("PAUSE 1 UNTIL 2026-12-01", "cli:root", at)
        .unwrap();
    assert!(!report.starts_with("Refused"), "{report}");
    site.drain(at);
    // She moves in the pause: Bob's two days start when it ends.
    let ann = site.seat(true);
    let mails = site.mail(at + Duration::hours(1), ANN, &ann, "cav BR B3C");
    assert!(!only(&mails, BOB)[0].contains("must act by"), "{mails:?}");
    let end = Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap();
    let deadline = |site: &mut Site| {
        let tx = site.service.store().read().unwrap();
        let d = tx.deadline(1).unwrap().expect("a deadline");
        (d.seat, d.at.utc())
    };
    assert_eq!(
        deadline(&mut site),
        (orderly::games::Seat::South, end + Duration::days(2))
    );
    // Nothing is sent to Bob in the pause, however long.
    assert!(site.sweep(end - Duration::hours(1)).is_empty());
    // Resumed early, Bob has his whole two days from then, not the eight
    // hours Ann had left.
    let resumed = at + Duration::hours(5);
    site.service
        .moderate("RESUME 1", "cli:root", resumed)
        .unwrap();
    assert_eq!(
        deadline(&mut site),
        (orderly::games::Seat::South, resumed + Duration::days(2))
    );
}

#[test]
fn time_zones_and_reminder_choices_are_the_players_own() {
    let mut site = Site::new("zones");
    site.start("DAYS 1");
    let bob = site.seat(false);
    let ann = site.seat(true);
    // Without a key (a bare, forgeable From) nothing changes.
    for line in [
        "SET TIMEZONE Asia/Tokyo",
        "SET REMINDERS OFF",
        "SET DIGEST DAILY",
        "VACATION 3 DAYS",
    ] {
        let mails = site.mail(t0(), ANN, "orderly@example.org", line);
        let reply = only(&mails, ANN)[0].replace('\n', " ");
        assert!(
            reply.contains("settings change only with your key"),
            "{line}: {reply}"
        );
    }
    let mails = site.mail(t0(), ANN, &ann, "SET TIMEZONE Mars/Olympus");
    assert!(only(&mails, ANN)[0].contains("is not a time zone"));
    let mails = site.mail(t0(), ANN, &ann, "set timezone Europe/Paris");
    assert!(only(&mails, ANN)[0].contains("shown to you in Europe/Paris"));
    site.mail(t0(), BOB, &bob, "SET REMINDERS OFF");
    let mails = site.mail(t0() + Duration::hours(1), ANN, &ann, "PASS");
    let for_ann = only(&mails, ANN)[0];
    assert!(
        for_ann.contains("Gray must act by Sun 22 Nov 2026 12:00 CET (Europe/Paris)"),
        "{for_ann}"
    );
    // Bob turned reminders off: no reminder, but the late notice comes.
    let deadline = t0() + Duration::hours(25);
    assert!(site.sweep(deadline - Duration::hours(1)).is_empty());
    let mails = site.sweep(deadline + Duration::minutes(1));
    assert!(
        only(&mails, BOB)[0].contains("Please send your orders now"),
        "{mails:?}"
    );
    let _ = bob;
}

#[test]
fn moderator_notices_name_the_moderator_and_speak_each_players_time() {
    let mut site = Site::new("modzones");
    site.start("DAYS 1");
    let ann = site.seat(true);
    site.mail(t0(), ANN, &ann, "set timezone Europe/Paris");
    let at = t0() + Duration::hours(2);
    let report = site
        .service
        .moderate("EXTEND 1 2 DAYS", "cli:root", at)
        .unwrap();
    let mails = site.drain(at);
    let for_ann = only(&mails, ANN)[0].replace('\n', " ");
    let for_bob = only(&mails, BOB)[0].replace('\n', " ");
    for text in [&for_ann, &for_bob, &report] {
        assert!(!text.contains("cli:") && !text.contains('\u{1}'), "{text}");
    }
    assert!(for_ann.contains(&format!("Moderator {MOD}:")), "{for_ann}");
    assert!(for_ann.contains("CET (Europe/Paris)"), "{for_ann}");
    assert!(for_bob.contains("UTC"), "{for_bob}");
    // STALLED speaks in words, no raw timestamps.
    site.service
        .moderate("PAUSE 1 UNTIL 2026-12-20", "cli:root", at)
        .unwrap();
    // The pause shows in every mail, and no deadline before its end does.
    let mails = site.drain(at);
    let for_ann = only(&mails, ANN)[0].replace('\n', " ");
    assert!(
        for_ann.contains("paused by the moderators until Sun 20 Dec 2026 01:00 CET"),
        "{for_ann}"
    );
    assert!(!for_ann.contains("must act by"), "{for_ann}");
    let bob = site.seat(false);
    let mails = site.mail(at, BOB, &bob, "GAMES\nBOARD");
    let for_bob = only(&mails, BOB)[0]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        for_bob.contains("waiting for Blue, paused until Sun 20 Dec 2026"),
        "{for_bob}"
    );
    assert!(!for_bob.contains("must act by"), "{for_bob}");
    let listed = orderly::service::admin::games(site.service.store()).unwrap();
    assert!(listed.contains("paused until Sun 20 Dec 2026"), "{listed}");
    let stalled = site.service.moderate("STALLED", "cli:root", at).unwrap();
    assert!(
        stalled.contains("game 1: paused until Sun 20 Dec 2026"),
        "{stalled}"
    );
    assert!(!stalled.contains("T00:00:00"), "{stalled}");
}

#[test]
fn a_players_time_zone_is_guessed_from_the_date_of_their_mail_until_chosen() {
    let mut site = Site::new("guess");
    site.start("DAYS 1");
    let ann = site.seat(true);
    let at = t0() + Duration::hours(1);
    let with_date = |n: u32, offset: &str, body: &str| {
        format!(
            "From: {ANN}\r\nTo: {ann}\r\nSubject: x\r\nMessage-ID: <guess{n}@test>\r\n\
             Date: Sat, 21 Nov 2026 12:00:00 {offset}\r\n\r\n{body}\r\n"
        )
    };
    site.service
        .process(with_date(1, "+0100", "BOARD").as_bytes(), at)
        .unwrap();
    let mails = site.drain(at);
    let board = only(&mails, ANN)[0].replace('\n', " ");
    assert!(
        board.contains("must act by Sun 22 Nov 2026 11:00 UTC+01:00"),
        "{board}"
    );
    // Chosen beats guessed, whatever later mails say.
    site.service
        .process(
            with_date(2, "-0500", "SET TIMEZONE Asia/Kolkata\nBOARD").as_bytes(),
            at,
        )
        .unwrap();
    site.service
        .process(with_date(3, "-0500", "BOARD").as_bytes(), at)
        .unwrap();
    let mails = site.drain(at);
    let last = only(&mails, ANN).last().unwrap().replace('\n', " ");
    assert!(last.contains("IST (Asia/Kolkata)"), "{last}");
}

#[test]
fn an_invitation_names_the_inviter_the_game_and_its_time_and_expires() {
    let mut site = Site::new("invite");
    let raw = format!(
        "From: Ann Example <{ANN}>\r\nTo: orderly@example.org\r\nSubject: x\r\n\
         Message-ID: <inv1@test>\r\n\r\nNEW SQUARES VS {BOB} DAYS 5\r\n"
    );
    site.service.process(raw.as_bytes(), t0()).unwrap();
    let mails = site.drain(t0());
    let invitation = only(&mails, BOB)[0].replace('\n', " ");
    for says in [
        "Ann Example <ann@example.org> invites you to a game of SQUARES",
        "Time: 5 days per turn.",
        "HELP RULES",
        "expires on Sat 05 Dec 2026 10:00 UTC",
    ] {
        assert!(invitation.contains(says), "{says}: {invitation}");
    }
    assert!(site.sweep(t0() + Duration::days(13)).is_empty());
    let mails = site.sweep(t0() + Duration::days(14) + Duration::minutes(1));
    assert!(only(&mails, ANN)[0].contains("has expired"), "{mails:?}");
    assert!(only(&mails, BOB)[0].contains("has expired"), "{mails:?}");
    assert!(
        site.sweep(t0() + Duration::days(15)).is_empty(),
        "told once"
    );
    let bob = site.seat(false);
    let mails = site.mail(t0() + Duration::days(15), BOB, &bob, "ACCEPT");
    assert!(
        only(&mails, BOB)[0].contains("game 1 is expired"),
        "{mails:?}"
    );
}

#[test]
fn huge_numbers_of_days_and_hours_are_refused_before_any_date_arithmetic() {
    let mut site = Site::new("huge");
    site.start("DAYS 1");
    let ann = site.seat(true);
    let at = t0() + Duration::hours(1);
    for line in [
        "VACATION 96000000 DAYS",
        "VACATION 4294967295 DAYS",
        "VACATION FROM 2026-12-01 TO 262143-12-31",
    ] {
        let mails = site.mail(at, ANN, &ann, line);
        let reply = only(&mails, ANN)[0].replace('\n', " ");
        assert!(reply.contains("Not understood"), "{line}: {reply}");
    }
    let mod_addr = site.service.moderator_address(MOD);
    for line in [
        "EXTEND 1 96000000 DAYS",
        "EXTEND 1 9223372036854775807 HOURS",
        "EXTEND 1 400 DAYS",
        "PAUSE 1 UNTIL 200000-01-01",
    ] {
        let mails = site.mail(at, MOD, &mod_addr, line);
        let reply = only(&mails, MOD)[0].replace('\n', " ");
        assert!(
            reply.contains("Not understood") || reply.contains("Refused"),
            "{line}: {reply}"
        );
        let report = site.service.moderate(line, "cli:test", at).unwrap();
        assert!(
            report.starts_with("Not understood") || report.starts_with("Refused"),
            "{line}: {report}"
        );
    }
    let mails = site.mail(at, MOD, &mod_addr, "PAUSE 1 UNTIL 2099-01-01");
    assert!(
        only(&mails, MOD)[0].contains("at most 366 days"),
        "{mails:?}"
    );
    let mails = site.mail(
        at,
        ANN,
        "orderly@example.org",
        "NEW SQUARES VS carol@example.org CLOCK 10+1 MAX 4000000000",
    );
    let reply = only(&mails, ANN)[0].replace('\n', " ");
    assert!(
        reply.contains("MAX follows CLOCK and is from its initial days to 365"),
        "{reply}"
    );
}

#[test]
fn a_game_moderator_is_a_third_person_asked_by_mail_and_named_in_the_invitation() {
    let mut site = Site::new("modpick");
    for who in [ANN, BOB, "orderly@example.org", "orderly+x@example.org"] {
        let mails = site.mail(
            t0(),
            ANN,
            "orderly@example.org",
            &format!("NEW SQUARES VS {BOB} MODERATOR {who}"),
        );
        let reply = only(&mails, ANN)[0].replace('\n', " ");
        assert!(
            reply.contains("must be neither player nor orderly"),
            "{who}: {reply}"
        );
        assert!(only(&mails, BOB).is_empty(), "nobody invited");
    }
    let mails = site.mail(
        t0(),
        ANN,
        "orderly@example.org",
        &format!("NEW SQUARES VS {BOB} MODERATOR carol@example.org"),
    );
    let invitation = only(&mails, BOB)[0].replace('\n', " ");
    assert!(
        invitation.contains("The game's moderator is carol@example.org"),
        "{invitation}"
    );
    let asked = only(&mails, "carol@example.org")[0].replace('\n', " ");
    assert!(asked.contains("ACCEPT MODERATION 1"), "{asked}");
    assert!(
        asked.contains(&site.service.moderator_address("carol@example.org")),
        "{asked}"
    );
}

#[test]
fn a_player_is_always_warned_before_time_runs_out_even_after_the_daemon_was_down() {
    let mut site = Site::new("downtime");
    site.start("DAYS 1");
    // The daemon was down past the deadline and the grace: the first sweep
    // warns, and the grace counts from the warning.
    let back = t0() + Duration::days(4);
    let mails = site.sweep(back);
    assert!(
        only(&mails, ANN)[0].contains("Please send your orders now"),
        "{mails:?}"
    );
    assert!(
        !mails.iter().any(|(_, m)| m.contains("CLAIM WIN")),
        "{mails:?}"
    );
    let bob = site.seat(false);
    let mails = site.mail(back + Duration::hours(1), BOB, &bob, "CLAIM WIN");
    assert!(only(&mails, BOB)[0].contains("still has time"), "{mails:?}");
    // Ann answers within the grace that began with the warning.
    let ann = site.seat(true);
    let mails = site.mail(back + Duration::hours(20), ANN, &ann, "PASS");
    assert!(only(&mails, ANN)[0].contains("Taken: PASS"), "{mails:?}");
}

fn record(site: &mut Site) -> String {
    orderly::service::admin::export(site.service.store(), 1, false, "example.org").unwrap()
}

#[test]
fn moderators_act_by_mail_and_everybody_else_is_refused() {
    let mut site = Site::new("modmail");
    site.start("DAYS 1");
    let mod_addr = site.service.moderator_address(MOD);
    let late = t0() + Duration::hours(26);
    // Not a moderator, or not the moderator's own key: refused.
    let mails = site.mail(late, "eve@example.org", &mod_addr, "STALLED");
    assert!(only(&mails, "eve@example.org")[0].contains("only from a moderator"));
    let mails = site.mail(late, MOD, "orderly+mod.wrongkey@example.org", "STALLED");
    assert!(only(&mails, MOD)[0].contains("only from a moderator"));
    // A player asks for help; STALLED lists the game.
    let ann = site.seat(true);
    let mails = site.mail(late, ANN, &ann, "MODERATOR Bob's mail bounces, I think");
    assert!(
        only(&mails, MOD)[0].contains("asks for a moderator"),
        "{mails:?}"
    );
    let mails = site.mail(late, MOD, &mod_addr, "STALLED");
    assert!(
        only(&mails, MOD)[0].contains("game 1: a moderator is asked for: Bob"),
        "{mails:?}"
    );
    // EXTEND and NOTE: announced to both, recorded, audited.
    let mails = site.mail(
        late,
        MOD,
        &mod_addr,
        "EXTEND 1 2 DAYS\nNOTE 1 play on, please",
    );
    let reply = only(&mails, MOD)[0];
    assert!(reply.contains("extended by 48 hours"), "{reply}");
    assert!(reply.contains("Game 1: note: play on, please."), "{reply}");
    // One mail to each player tells both commands, and the board once.
    assert_eq!(only(&mails, ANN).len(), 1, "{mails:?}");
    assert_eq!(only(&mails, BOB).len(), 1, "{mails:?}");
    let extended = only(&mails, ANN).join("\n");
    assert!(
        extended.contains("You must act by Tue 24 Nov 2026 12:00 UTC")
            && extended.contains("note: play on, please"),
        "{extended}"
    );
    let text = record(&mut site);
    assert!(
        text.contains("{Moderator mod@example.org: the deadline of Blue is extended"),
        "{text}"
    );
    // ADJUDICATE ends the game.
    let mails = site.mail(
        late,
        MOD,
        &mod_addr,
        "ADJUDICATE 1 GRAY Blue abandoned the game",
    );
    assert!(
        only(&mails, MOD)[0].contains("adjudicated: Gray wins"),
        "{mails:?}"
    );
    assert!(only(&mails, ANN)[0].contains("Gray wins"), "{mails:?}");
    let text = record(&mut site);
    assert!(text.contains("[Result \"Gray\"]"), "{text}");
    assert!(text.contains("ADJUDICATED"), "{text}");
    let mails = site.mail(late, MOD, &mod_addr, "FORFEIT 1 BLUE");
    assert!(
        only(&mails, MOD)[0].contains("Refused: game 1 is finished"),
        "{mails:?}"
    );
}

/// A moderator's mail of several commands, dropped into the Maildir and
/// read by a poll: one reply echoing each command, and one mail to each
/// player telling all of them, in the order written, with the game as it
/// then stands.
#[test]
fn a_moderators_mail_of_several_commands_makes_one_mail_to_each() {
    let mut site = Site::new("modmaildir");
    site.start("DAYS 1");
    site.drain(t0());
    let at = t0() + Duration::hours(26);
    site.service
        .set_clock(orderly::clock::Clock::starting_at(at));
    let mod_addr = site.service.moderator_address(MOD);
    let raw = format!(
        "From: {MOD}\r\nTo: {mod_addr}\r\nSubject: game 1\r\n\
         Message-ID: <modmaildir@test>\r\n\r\n\
         EXTEND 1 2 DAYS\r\nNOTE 1 play on, please\r\nACT 1 BLUE cav BR B3C\r\nSTALLED\r\n"
    );
    let outs = site.raw(raw.as_bytes());
    let count = |who: &str| outs.iter().filter(|o| o.to == who).count();
    assert_eq!((count(MOD), count(ANN), count(BOB)), (1, 1, 1), "{outs:#?}");
    assert_eq!(outs.len(), 3, "{outs:#?}");
    let reply = outs
        .iter()
        .find(|o| o.to == MOD)
        .unwrap()
        .body
        .replace('\n', " ");
    for line in [
        "> EXTEND 1 2 DAYS",
        "> NOTE 1 play on, please",
        "> ACT 1 BLUE cav BR B3C",
        "> STALLED",
    ] {
        assert!(reply.contains(line), "{line}: {reply}");
    }
    for who in [ANN, BOB] {
        let told = outs.iter().find(|o| o.to == who).unwrap().body.clone();
        let flat = told.split_whitespace().collect::<Vec<_>>().join(" ");
        let extended = flat
            .find("the deadline of Blue is extended")
            .unwrap_or(usize::MAX);
        let note = flat.find("note: play on, please").unwrap_or(usize::MAX);
        let act = flat
            .find("MOVE CAVALRY BR B3C was entered for Blue")
            .unwrap_or(usize::MAX);
        assert!(extended < note && note < act && act < usize::MAX, "{told}");
        // The board once, as the commands left the game: Gray to move.
        assert_eq!(told.matches("Score: Blue 0, Gray 0").count(), 1, "{told}");
        assert!(flat.contains("Turn 2: Gray"), "{told}");
    }
}

#[test]
fn a_pause_stops_the_clock_and_always_expires() {
    let mut site = Site::new("pause");
    site.start("DAYS 2");
    let deadline = t0() + Duration::days(2);
    let paused_at = t0() + Duration::hours(12);
    let report = site
        .service
        .moderate("PAUSE 1 UNTIL 2026-12-01", "cli:test", paused_at)
        .unwrap();
    assert!(
        report.contains("paused until Tue 01 Dec 2026 00:00 UTC"),
        "{report}"
    );
    site.drain(paused_at);
    // No reminder or late notice while paused.
    assert!(site.sweep(deadline + Duration::hours(1)).is_empty());
    let resumed = Utc.with_ymd_and_hms(2026, 12, 1, 0, 30, 0).unwrap();
    site.sweep(resumed);
    // The deadline got back the 36 hours it had left at the pause.
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(
        shown.contains("You must act by Wed 02 Dec 2026 12:30 UTC"),
        "{shown}"
    );
}

#[test]
fn rollback_replace_and_act_keep_the_record_true() {
    let mut site = Site::new("rollback");
    site.start("DAYS 3");
    let (ann, bob) = (site.seat(true), site.seat(false));
    let t = t0() + Duration::hours(1);
    site.mail(t, ANN, &ann, "cav BR B3C");
    let after_first =
        orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    site.mail(t, BOB, &bob, "inf GR G3C");
    site.mail(t, ANN, &ann, "PASS");
    let report = site
        .service
        .moderate("ROLLBACK 1 2 Bob's order was misread", "cli:test", t)
        .unwrap();
    assert!(
        report.contains("the last 2 order(s) are undone"),
        "{report}"
    );
    let now = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    let position = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("position"))
            .unwrap()
            .to_string()
    };
    assert_eq!(position(&now), position(&after_first));
    let text = record(&mut site);
    let replayed = orderly::record::replay(
        &orderly::record::Record::read_as(
            &text,
            &orderly::games::hosted::Hosted::of::<orderly::games::squares::Squares>(),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        format!("position {}", replayed.game.position()),
        position(&after_first)
    );
    assert!(text.contains("Bob's order was misread"), "{text}");
    // REPLACE Gray: Carol gets a fresh key; Bob's stops working.
    let report = site
        .service
        .moderate("REPLACE 1 GRAY carol@example.org", "cli:test", t)
        .unwrap();
    assert!(
        report.contains("Gray is now played by carol@example.org"),
        "{report}"
    );
    let mails = site.drain(t);
    let welcome = only(&mails, "carol@example.org");
    assert!(
        welcome
            .iter()
            .any(|m| m.contains("has given you the Gray seat")),
        "{mails:?}"
    );
    // Bob hears that his seat went to another player, and gets no board.
    let farewell = only(&mails, BOB);
    assert!(
        farewell.iter().any(|m| m
            .replace('\n', " ")
            .contains("has given your Gray seat of game 1")),
        "{mails:?}"
    );
    let mails = site.mail(t, BOB, &bob, "inf GR G3C");
    assert!(
        only(&mails, BOB)[0].contains("is not a key of game 1"),
        "{mails:?}"
    );
    let carol = format!(
        "orderly+g1.{}@example.org",
        orderly::service::identity::seat_secret_generation(
            SECRET.as_bytes(),
            1,
            orderly::games::Seat::South,
            1
        )
    );
    let mails = site.mail(t, "carol@example.org", &carol, "inf GR G3C");
    assert!(
        only(&mails, "carol@example.org")[0].contains("Taken: MOVE INFANTRY GR G3C"),
        "{mails:?}"
    );
    // ACT: an order entered for Ann at her request.
    let report = site
        .service
        .moderate("ACT 1 BLUE inf BR B3L", "cli:test", t)
        .unwrap();
    assert!(
        report.contains("MOVE INFANTRY BR B3L was entered for Blue"),
        "{report}"
    );
    let text = record(&mut site);
    assert!(text.contains("Blue MOVE INFANTRY BR B3L"), "{text}");
    let report = site
        .service
        .moderate("ACT 1 BLUE PASS", "cli:test", t)
        .unwrap();
    assert!(
        report.starts_with("Refused: game 1 does not wait for Blue"),
        "{report}"
    );
}

#[test]
fn the_moderator_command_line_runs_the_same_commands() {
    let mut site = Site::new("cli");
    site.start("DAYS 1");
    let config = site.dir.join("orderly.toml");
    std::fs::write(
        &config,
        format!(
            "[service]\naddress = \"orderly@example.org\"\nsecret = \"{SECRET}\"\n\
             [store]\npath = \"{d}/orderly.db\"\n[intake]\nmaildir = \"{d}/inbox\"\n\
             [outgoing]\ndir = \"{d}/sent\"\n",
            d = site.dir.display()
        ),
    )
    .unwrap();
    let run_at = |now: DateTime<Utc>, args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_orderly"))
            .arg("--config")
            .arg(&config)
            // The game's clock, not today's: the game started at t0.
            .arg("--now")
            .arg(now.to_rfc3339())
            .arg("mod")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let run = |args: &[&str]| run_at(t0() + Duration::hours(2), args);
    assert!(run(&["key", MOD]).starts_with("orderly+mod."));
    assert!(run(&["stalled"]).contains("No game needs a moderator"));
    // The same store read three days on: the one-day deadline has passed.
    let later = run_at(t0() + Duration::days(3), &["stalled"]);
    assert!(later.contains("game 1"), "{later}");
    let out = run(&["forfeit", "1", "blue"]);
    assert!(out.contains("Blue forfeits; Gray wins"), "{out}");
    assert!(run(&["explode"]).starts_with("Not understood"));
}

#[test]
fn vacations_stop_the_clocks_within_the_allowance_and_an_order_ends_them() {
    let mut site = Site::new("vacation");
    site.start("DAYS 3");
    let ann = site.seat(true);
    let t = t0() + Duration::hours(1);
    let mails = site.mail(t, ANN, &ann, "VACATION 40 DAYS");
    assert!(
        only(&mails, ANN)[0]
            .replace('\n', " ")
            .contains("would exceed your 30 vacation days"),
        "{mails:?}"
    );
    let mails = site.mail(t, ANN, &ann, "vacation 5 days");
    assert!(
        only(&mails, ANN)[0]
            .replace('\n', " ")
            .contains("25 vacation days left this year"),
        "{mails:?}"
    );
    let told = only(&mails, BOB).join(" ").replace('\n', " ");
    assert!(
        told.contains("is on vacation until Thu 26 Nov 2026 11:00 UTC"),
        "{told}"
    );
    let mails = site.mail(t, ANN, &ann, "VACATION FROM 2026-11-22 TO 2026-11-23");
    assert!(
        only(&mails, ANN)[0].replace('\n', " ").contains("overlaps"),
        "{mails:?}"
    );
    // Ann's deadline moved by the 5 days: no late notice at the old one.
    let old_deadline = t0() + Duration::days(3);
    assert!(site.sweep(old_deadline + Duration::minutes(1)).is_empty());
    let shown = orderly::service::admin::show(site.service.store(), 1, "example.org").unwrap();
    assert!(
        shown.contains("You must act by Sun 29 Nov 2026 10:00 UTC"),
        "{shown}"
    );
    // An order ends the vacation early; Bob's fresh deadline runs at once.
    let moved = t0() + Duration::days(2);
    let mails = site.mail(moved, ANN, &ann, "cav BR B3C");
    let reply = only(&mails, ANN)[0].replace('\n', " ");
    assert!(reply.contains("ends your vacation early"), "{reply}");
    let update = only(&mails, BOB)[0];
    assert!(
        update.contains("You must act by Thu 26 Nov 2026 10:00 UTC"),
        "{update}"
    );
}

#[test]
fn a_game_silent_for_weeks_is_adjourned_to_the_moderators() {
    let mut site = Site::new("adjourn");
    site.start("DAYS 30");
    assert!(site.sweep(t0() + Duration::days(20)).is_empty());
    let mails = site.sweep(t0() + Duration::days(21) + Duration::minutes(1));
    for who in [ANN, BOB, MOD] {
        assert!(
            only(&mails, who)
                .iter()
                .any(|m| m.contains("adjourned to the moderators")),
            "{who}: {mails:?}"
        );
    }
    let report = site
        .service
        .moderate("STALLED", "cli:test", t0() + Duration::days(22))
        .unwrap();
    assert!(
        report.contains("game 1: adjourned: both players silent"),
        "{report}"
    );
    assert!(
        site.sweep(t0() + Duration::days(23)).is_empty(),
        "adjourned once"
    );
}

#[test]
fn a_clock_bank_pays_for_each_turn_and_gains_its_increment() {
    let mut site = Site::new("clock");
    let mails = site.mail(
        t0() - Duration::hours(1),
        ANN,
        "orderly@example.org",
        &format!("NEW SQUARES VS {BOB} CLOCK 2+1 MAX 3"),
    );
    assert!(
        only(&mails, ANN)[0]
            .replace('\n', " ")
            .contains("a clock of 2 days plus 1 per turn (at most 3)"),
        "{mails:?}"
    );
    let (ann, bob) = (site.seat(true), site.seat(false));
    site.mail(t0(), BOB, &bob, "ACCEPT");
    // Ann takes 12 hours: 2 days - 12 h + 1 day = 2.5 days left for her.
    let mails = site.mail(t0() + Duration::hours(12), ANN, &ann, "cav BR B3C");
    let for_bob = only(&mails, BOB)[0];
    assert!(
        for_bob.contains("You must act by Mon 23 Nov 2026 22:00 UTC"),
        "{for_bob}"
    );
    // Bob takes an hour; Ann's next deadline is 2.5 days away.
    let mails = site.mail(t0() + Duration::hours(13), BOB, &bob, "inf GR G3C");
    let for_ann = only(&mails, ANN)[0];
    assert!(
        for_ann.contains("You must act by Tue 24 Nov 2026 11:00 UTC"),
        "{for_ann}"
    );
}

#[test]
fn a_clock_bank_never_pays_for_a_moderators_pause() {
    let mut site = Site::new("clockpause");
    site.start("CLOCK 2+1 MAX 3");
    let (ann, bob) = (site.seat(true), site.seat(false));
    // Six hours of Ann's, a day's pause, six more hours of hers: she has
    // used twelve, so 2 days - 12 h + 1 day = 2.5 days are left to her.
    for (n, action) in [(6, "PAUSE 1 UNTIL 2026-11-30"), (30, "RESUME 1")] {
        let report = site
            .service
            .moderate(action, "cli:root", t0() + Duration::hours(n))
            .unwrap();
        assert!(!report.starts_with("Refused"), "{report}");
    }
    site.mail(t0() + Duration::hours(36), ANN, &ann, "cav BR B3C");
    let mails = site.mail(t0() + Duration::hours(37), BOB, &bob, "inf GR G3C");
    let for_ann = only(&mails, ANN)[0];
    // 37 h + 60 h after Sat 21 Nov 10:00.
    assert!(
        for_ann.contains("You must act by Wed 25 Nov 2026 11:00 UTC"),
        "{for_ann}"
    );
}

#[test]
fn orders_in_a_pause_pay_a_clock_bank_only_for_the_time_before_it() {
    let mut site = Site::new("clockinpause");
    site.start("CLOCK 2+1 MAX 3");
    let (ann, bob) = (site.seat(true), site.seat(false));
    let report = site
        .service
        .moderate(
            "PAUSE 1 UNTIL 2026-11-30",
            "cli:root",
            t0() + Duration::hours(6),
        )
        .unwrap();
    assert!(!report.starts_with("Refused"), "{report}");
    // Both move in the pause: Ann pays for her six hours before it
    // (2 days - 6 h + 1 day = 66 h left), Bob for nothing.
    site.mail(t0() + Duration::hours(30), ANN, &ann, "cav BR B3C");
    site.mail(t0() + Duration::hours(31), BOB, &bob, "inf GR G3C");
    let tx = site.service.store().read().unwrap();
    let d = tx.deadline(1).unwrap().expect("Ann's deadline");
    let end = Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap();
    assert_eq!(d.seat, orderly::games::Seat::North);
    assert_eq!(d.at.utc(), end + Duration::hours(66));
}

#[test]
fn a_resume_never_brings_a_deadline_into_its_players_vacation() {
    let mut site = Site::new("pausevacation");
    site.start("DAYS 2");
    let (ann, bob) = (site.seat(true), site.seat(false));
    let report = site
        .service
        .moderate(
            "PAUSE 1 UNTIL 2026-11-25",
            "cli:root",
            t0() + Duration::hours(2),
        )
        .unwrap();
    assert!(!report.starts_with("Refused"), "{report}");
    site.mail(t0() + Duration::hours(3), BOB, &bob, "VACATION 10 DAYS");
    // Ann moves in the pause: Bob's two days start when his vacation,
    // which ends after the pause, is over.
    site.mail(t0() + Duration::hours(4), ANN, &ann, "cav BR B3C");
    let deadline = |site: &mut Site| {
        let tx = site.service.store().read().unwrap();
        let d = tx.deadline(1).unwrap().expect("Bob's deadline");
        assert_eq!(d.seat, orderly::games::Seat::South);
        d.at.utc()
    };
    let before = deadline(&mut site);
    assert!(
        before >= t0() + Duration::days(10) + Duration::days(2),
        "{before}"
    );
    // Resumed early, while he is away: his deadline stays where his
    // vacation put it.
    site.service
        .moderate("RESUME 1", "cli:root", t0() + Duration::hours(5))
        .unwrap();
    assert_eq!(deadline(&mut site), before);
}

#[test]
fn a_game_can_send_time_outs_to_the_moderators() {
    let mut site = Site::new("policy");
    site.start("DAYS 1 TIMEOUT MODERATORS");
    let deadline = t0() + Duration::days(1);
    let mails = site.sweep(deadline + Duration::minutes(1));
    assert!(
        only(&mails, ANN)[0].contains("the game goes to the moderators"),
        "{mails:?}"
    );
    let mails = site.sweep(deadline + Duration::hours(25));
    assert!(
        only(&mails, MOD)[0].contains("gone to the moderators"),
        "{mails:?}"
    );
    assert!(only(&mails, BOB).is_empty(), "{mails:?}");
    let bob = site.seat(false);
    let mails = site.mail(deadline + Duration::hours(26), BOB, &bob, "CLAIM WIN");
    assert!(
        only(&mails, BOB)[0].contains("goes to the moderators"),
        "{mails:?}"
    );
}

#[test]
fn a_daily_digest_replaces_the_reminders_once_a_day() {
    let mut site = Site::new("digest");
    site.start("DAYS 1");
    let ann = site.seat(true);
    site.mail(t0(), ANN, &ann, "SET DIGEST DAILY");
    // Sunday 09:00 UTC: Ann's 24-hour reminder is due, but she has a digest.
    let sunday = t0() + Duration::hours(23);
    let mails = site.sweep(sunday);
    let digest = only(&mails, ANN);
    assert_eq!(digest.len(), 1, "{mails:?}");
    assert!(digest[0].contains("Your games on 2026-11-22"), "{mails:?}");
    assert!(
        digest[0].contains("game 1: vs bob@example.org: your turn, by Sun 22 Nov 2026 10:00 UTC"),
        "{mails:?}"
    );
    assert!(
        site.sweep(sunday + Duration::minutes(30)).is_empty(),
        "once a day"
    );
}

/// Every moderator command, in an order in which each applies, with words
/// its report must hold.
const EVERY_COMMAND: &[(&str, &str)] = &[
    ("STALLED", "game 1: past its deadline"),
    ("EXTEND 1 12 HOURS", "extended by 12 hours"),
    ("NOTE 1 a friendly word", "note: a friendly word"),
    ("PAUSE 1 UNTIL 2026-12-20", "paused until"),
    ("RESUME 1", "the game resumes"),
    (
        "ACT 1 BLUE cav BR B3C",
        "MOVE CAVALRY BR B3C was entered for Blue",
    ),
    (
        "ROLLBACK 1 1 entered by mistake",
        "the last 1 order(s) are undone",
    ),
    (
        "REPLACE 1 GRAY carol@example.org",
        "Gray is now played by carol@example.org",
    ),
    ("ADJUDICATE 1 DRAW agreed by phone", "adjudicated: a draw"),
];

#[test]
fn every_moderator_command_works_by_mail_and_by_the_command_line() {
    for by_mail in [true, false] {
        let mut site = Site::new(if by_mail { "every-mail" } else { "every-cli" });
        site.start("DAYS 1");
        let at = t0() + Duration::days(2);
        let mod_addr = site.service.moderator_address(MOD);
        for (command, says) in EVERY_COMMAND {
            let report = if by_mail {
                let mails = site.mail(at, MOD, &mod_addr, command);
                if command.starts_with("REPLACE") {
                    let bob: Vec<String> = only(&mails, BOB)
                        .iter()
                        .map(|m| m.replace('\n', " "))
                        .collect();
                    assert!(
                        bob.iter().any(|m| m.contains("has given your Gray seat")),
                        "the player replaced is told: {mails:?}"
                    );
                }
                only(&mails, MOD)[0].replace('\n', " ")
            } else {
                site.service.moderate(command, "cli:test", at).unwrap()
            };
            assert!(
                report.contains(says),
                "{command} (mail: {by_mail}): {report}"
            );
        }
        // The game is over now: FORFEIT is refused, and so is a non-moderator.
        let report = site
            .service
            .moderate("FORFEIT 1 BLUE", "cli:test", at)
            .unwrap();
        assert!(report.starts_with("Refused"), "{report}");
        site.drain(at);
        let mails = site.mail(at, ANN, &mod_addr, "FORFEIT 1 GRAY");
        assert!(
            only(&mails, ANN)[0].contains("only from a moderator"),
            "{mails:?}"
        );
        let text = record(&mut site);
        assert!(
            text.contains("a friendly word") && text.contains("[Result \"Draw\"]"),
            "{text}"
        );
    }
}

#[test]
fn a_game_may_name_its_own_moderator_who_moderates_only_it() {
    let mut site = Site::new("ownmod");
    site.start("DAYS 1 TIMEOUT MODERATORS MODERATOR carol@example.org");
    // A second game without her.
    site.mail(
        t0(),
        ANN,
        "orderly@example.org",
        &format!("NEW SQUARES VS {BOB}"),
    );
    let carol = "carol@example.org";
    let carol_addr = site.service.moderator_address(carol);
    let at = t0() + Duration::hours(2);
    // Named, she has no say until she accepts, by mail, from her address.
    let mails = site.mail(at, carol, &carol_addr, "NOTE 1 too early");
    assert!(
        only(&mails, carol)[0].contains("Refused: you moderate only"),
        "{mails:?}"
    );
    let mails = site.mail(at, "eve@example.org", &carol_addr, "ACCEPT MODERATION 1");
    assert!(
        only(&mails, "eve@example.org")[0].contains("Refused"),
        "{mails:?}"
    );
    let mails = site.mail(at, carol, &carol_addr, "ACCEPT MODERATION 2");
    assert!(
        only(&mails, carol)[0].contains("has not asked you"),
        "{mails:?}"
    );
    let mails = site.mail(at, carol, &carol_addr, "ACCEPT MODERATION 1");
    assert!(only(&mails, ANN)[0].contains("carol@example.org accepted to moderate game 1"));
    assert!(only(&mails, BOB)[0].contains("carol@example.org accepted to moderate game 1"));
    // The other moderators are told; Carol reads it in her reply alone.
    assert!(only(&mails, MOD)[0].contains("carol@example.org accepted to moderate game 1"));
    assert_eq!(only(&mails, carol).len(), 1, "{mails:?}");
    assert_eq!(mails.len(), 4, "{mails:?}");
    let mails = site.mail(
        at,
        carol,
        &carol_addr,
        "NOTE 1 hello from your moderator\nNOTE 2 not mine",
    );
    let reply = only(&mails, carol)[0].replace('\n', " ");
    assert!(
        reply.contains("Game 1: note: hello from your moderator."),
        "{reply}"
    );
    assert!(
        reply.contains("Refused: you moderate only the games that name you, once you accepted"),
        "{reply}"
    );
    site.sweep(t0() + Duration::days(1) + Duration::minutes(1));
    let mails = site.sweep(t0() + Duration::days(2) + Duration::hours(1));
    assert!(
        only(&mails, carol)
            .iter()
            .any(|m| m.contains("gone to the moderators")),
        "{mails:?}"
    );
    assert!(
        only(&mails, MOD)
            .iter()
            .any(|m| m.contains("gone to the moderators")),
        "{mails:?}"
    );
}
