//! Issue 18, part 1, the service's side: a game against the computer by
//! mail (`NEW SQUARES VS COMPUTER [LEVEL n]`), through a real Maildir and
//! a real SQLite file. The computer answers in the processing of the
//! human's mail, its orders are recorded as its seat's, nothing is ever
//! queued to its reserved address, and its games are not rated by
//! default. The service's clock is set (never the wall clock).

#[path = "../common/mod.rs"]
mod common;

use chrono::{DateTime, TimeZone, Utc};
use common::player::{attack_preferring, orders_but_end};
use common::rng::XorShift;
use common::site::{flat, to, Out, Site, ORDERLY};
use orderly::games::squares::Squares;
use orderly::games::{Game, Seat};

const ANN: &str = "ann@example.org";
const COMPUTER: &str = "computer@orderly.invalid";

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap()
}

impl Site {
    fn new(name: &str) -> Site {
        Site::with(name, |_| {})
    }

    /// The server secret is fixed, so that the games' seeds, and with
    /// them every search of the computer, are the same on every run.
    fn with(name: &str, adjust: impl FnOnce(&mut orderly::config::Config)) -> Site {
        Site::plain("orderly-vscomp", name, t0(), |config| {
            config.service.secret = Some("a fixed secret for the computer's tests".into());
            adjust(config);
        })
    }

    /// Sets the service's clock to `minutes` after the start: a player's
    /// mails come over time, as under the per-hour limits they must.
    fn at_minute(&mut self, minutes: i64) {
        // Stopped, so that the searches' times (and with them the hour's
        // budgets) never depend on how fast the machine runs the test.
        self.service.set_clock(orderly::clock::Clock::stopped_at(
            t0() + chrono::Duration::minutes(minutes),
        ));
    }

    /// Drops a mail into the Maildir and polls; returns the new mails,
    /// none of which ever goes to the computer.
    fn mail(&mut self, from: &str, to: &str, body: &str) -> Vec<Out> {
        let outs = self.send(from, to, body);
        assert!(
            outs.iter().all(|o| o.to != COMPUTER),
            "a mail to the computer: {outs:#?}"
        );
        outs
    }

    fn game(&mut self, id: i64) -> orderly::store::GameRow {
        self.game_row(id)
    }

    fn entries(&mut self, id: i64) -> Vec<orderly::store::EntryRow> {
        self.entry_rows(id)
    }

    /// Every mail ever queued to `address`, sent or not.
    fn queued_to(&self, address: &str) -> i64 {
        let db = rusqlite::Connection::open(self.dir.join("orderly.db")).unwrap();
        db.query_row(
            "SELECT COUNT(*) FROM outbox WHERE recipient = ?1",
            [address],
            |r| r.get(0),
        )
        .unwrap()
    }
}

/// Ann begins a game against the computer with `command`: the start mail
/// (the only mail), which says `says`.
fn begin(site: &mut Site, command: &str, says: &str) -> Out {
    let start = only_to_ann(&site.mail(ANN, ORDERLY, command));
    assert!(flat(&start.body).contains(says), "{}", start.body);
    start
}

/// The only mail of `outs`, to Ann.
fn only_to_ann(outs: &[Out]) -> Out {
    assert_eq!(outs.len(), 1, "one mail, to Ann: {outs:#?}");
    to(outs, ANN)
}

#[test]
fn a_whole_squares_game_against_the_computer_by_mail() {
    let mut site = Site::new("whole-game");
    let start = begin(
        &mut site,
        "NEW SQUARES VS COMPUTER LEVEL 1",
        "Game 1 begins: you play Blue against the computer (level 1)",
    );
    let text = flat(&start.body);
    assert!(text.contains("The game is not rated"), "{}", start.body);
    assert!(
        text.contains("Blue: Ann") || text.contains("Blue: ann@example.org"),
        "{}",
        start.body
    );
    assert!(
        text.contains("Gray: the computer (level 1)"),
        "{}",
        start.body
    );
    assert!(!start.body.contains(COMPUTER), "{}", start.body);
    let address = start.reply_to.clone();
    assert!(address.starts_with("orderly+g1."), "{address}");
    let game = site.game(1);
    assert_eq!(game.computer_level, Some(1));
    assert_eq!(game.status, orderly::store::GameStatus::Active);
    assert!(!game.rated);

    let mut rng = XorShift::new(18);
    let mut last = start;
    const MOST_MAILS: usize = 300;
    for n in 0..MOST_MAILS {
        let game = site.game(1);
        if game.status == orderly::store::GameStatus::Finished {
            break;
        }
        let position = Squares::from_position(game.position.as_deref().unwrap()).unwrap();
        let pending = position
            .pending()
            .expect("a game under way waits for someone");
        assert_eq!(
            pending.seat,
            Seat::North,
            "after mail {n} the game waits for Ann, never the computer:\n{}",
            last.body
        );
        let (order, _) = attack_preferring(&position, &mut rng);
        let before = site.entries(1).len();
        let outs = site.mail(ANN, &address, &order.to_string());
        let reply = only_to_ann(&outs);
        assert!(
            !reply.body.contains("Refused") && !reply.body.contains("Not understood"),
            "{order} was taken:\n{}",
            reply.body
        );
        assert!(!reply.body.contains("Key: U Union"), "{}", reply.body);
        let entries = site.entries(1);
        let new = &entries[before..];
        assert_eq!(new[0].seat, Some(Seat::North), "{new:#?}");
        let computers: Vec<_> = new.iter().filter(|e| e.seat == Some(Seat::South)).collect();
        for e in &computers {
            assert_eq!(e.written, "(computer, level 1)", "{e:#?}");
            assert_eq!(e.message_id, new[0].message_id, "in the same mail");
        }
        // The computer answered in this mail's processing: the reply shows
        // the board after its orders, told as what happened.
        let finished = site.game(1).status == orderly::store::GameStatus::Finished;
        if !computers.is_empty() {
            assert!(reply.body.contains("What happened:"), "{}", reply.body);
        }
        if !finished {
            let now = site.game(1);
            let position = Squares::from_position(now.position.as_deref().unwrap()).unwrap();
            assert_eq!(
                position.pending().map(|p| p.seat),
                Some(Seat::North),
                "the computer answered at once:\n{}",
                reply.body
            );
        }
        last = reply;
    }
    let game = site.game(1);
    assert_eq!(
        game.status,
        orderly::store::GameStatus::Finished,
        "the game did not end within {MOST_MAILS} mails"
    );
    assert!(
        last.body.contains("The game is over"),
        "the last mail tells the end:\n{}",
        last.body
    );
    let entries = site.entries(1);
    assert!(
        entries
            .iter()
            .any(|e| e.seat == Some(Seat::South) && e.written == "(computer, level 1)"),
        "the record holds the computer's orders"
    );
    // Not rated: nobody's rating moved.
    let tx = site.service.store().read().unwrap();
    assert!(tx.rating_changes(1).unwrap().is_empty());
    drop(tx);
    assert_eq!(site.queued_to(COMPUTER), 0);
    // GAMES names the computer, never its address.
    let outs = site.mail(ANN, ORDERLY, "GAMES");
    let games = only_to_ann(&outs);
    assert!(
        flat(&games.body).contains("vs the computer (level 1)"),
        "{}",
        games.body
    );
    assert!(!games.body.contains(COMPUTER), "{}", games.body);
}

#[test]
fn the_computer_moving_first_has_moved_in_the_start_mail() {
    let mut site = Site::new("computer-first");
    let start = begin(
        &mut site,
        "NEW SQUARES VS COMPUTER AS GRAY FIRST BLUE LEVEL 2",
        "you play Gray against the computer (level 2)",
    );
    let text = flat(&start.body);
    assert!(
        text.contains("It has made its first move already"),
        "{}",
        start.body
    );
    assert!(start.body.contains("What happened:"), "{}", start.body);
    let entries = site.entries(1);
    assert!(!entries.is_empty());
    assert!(entries
        .iter()
        .all(|e| e.seat == Some(Seat::North) && e.written == "(computer, level 2)"));
    let game = site.game(1);
    let position = Squares::from_position(game.position.as_deref().unwrap()).unwrap();
    assert_eq!(position.pending().map(|p| p.seat), Some(Seat::South));
    // The computer has no deadline; Ann has hers.
    let tx = site.service.store().read().unwrap();
    assert_eq!(tx.deadline(1).unwrap().map(|d| d.seat), Some(Seat::South));
    drop(tx);
    assert_eq!(site.queued_to(COMPUTER), 0);
}

#[test]
fn refusals_name_what_is_accepted() {
    let mut site = Site::new("refusals");
    let outs = site.mail(ANN, ORDERLY, "NEW SQUARES VS COMPUTER LEVEL 9");
    let reply = flat(&only_to_ann(&outs).body);
    assert!(reply.contains("from 1 to 5"), "{reply}");
    let outs = site.mail(ANN, ORDERLY, "NEW BROTHERSATWAR VS COMPUTER");
    let reply = flat(&only_to_ann(&outs).body);
    assert!(
        reply.contains(
            "the computer does not play BROTHERSATWAR; it plays SQUARES, NAPOLEONIC and CIVILWAR1863"
        ),
        "{reply}"
    );
    let outs = site.mail(ANN, ORDERLY, &format!("NEW SQUARES VS {COMPUTER}"));
    let reply = flat(&only_to_ann(&outs).body);
    assert!(reply.contains("NEW SQUARES VS COMPUTER"), "{reply}");
    let tx = site.service.store().read().unwrap();
    assert!(tx.game(1).unwrap().is_none(), "no game was made");
}

#[test]
fn a_mail_forged_from_the_computer_changes_nothing() {
    let mut site = Site::new("forged");
    let outs = site.mail(ANN, ORDERLY, "NEW SQUARES VS COMPUTER AS GRAY LEVEL 1");
    let start = only_to_ann(&outs);
    let before = site.entries(1).len();
    let game = site.game(1);
    let position = Squares::from_position(game.position.as_deref().unwrap()).unwrap();
    // The computer's own seat's reply address, whatever key is guessed,
    // and the human's: from the computer's address, nothing is done.
    let order = position.legal_orders()[0].to_string();
    for to in [start.reply_to.as_str(), ORDERLY] {
        let outs = site.mail(
            COMPUTER,
            to,
            &format!("{order}\nRESIGN\nNEW SQUARES VS {ANN}"),
        );
        assert!(outs.is_empty(), "{outs:#?}");
    }
    assert_eq!(site.entries(1).len(), before);
    assert_eq!(site.game(1), game);
    let tx = site.service.store().read().unwrap();
    assert!(tx.game(2).unwrap().is_none());
    drop(tx);
    assert_eq!(site.queued_to(COMPUTER), 0);
}

#[test]
fn a_game_against_the_computer_is_rated_only_when_configured() {
    let mut site = Site::new("unrated");
    let outs = site.mail(ANN, ORDERLY, "NEW NAPOLEONIC VS COMPUTER LEVEL 1 RATED");
    let reply = flat(&only_to_ann(&outs).body);
    assert!(
        reply.contains("a game against the computer is not rated on this server"),
        "{reply}"
    );
    assert!(!site.game(1).rated);
    let mut site = Site::with("rated", |c| c.ratings.against_computer = true);
    let start = only_to_ann(&site.mail(ANN, ORDERLY, "NEW SQUARES VS COMPUTER LEVEL 1"));
    assert!(site.game(1).rated);
    // The rating change names the computer, never its reserved address.
    let end = only_to_ann(&site.mail(ANN, &start.reply_to, "RESIGN"));
    let text = flat(&end.body);
    assert!(text.contains("Gray the computer (level 1): 1500"), "{text}");
    assert!(!end.body.contains(COMPUTER), "{}", end.body);
}

/// The game as it stands, through the hosted games' registry.
fn state_of(site: &mut Site, id: i64) -> Box<dyn orderly::games::AnyGame> {
    let game = site.game(id);
    let hosted = orderly::games::hosted::find(&game.kind).unwrap();
    (hosted.from_position)(game.position.as_deref().unwrap()).unwrap()
}

#[test]
fn a_moderators_act_and_rollback_are_answered_by_the_computer() {
    let mut site = Site::new("computer-moderated");
    site.mail(ANN, ORDERLY, "NEW SQUARES VS COMPUTER LEVEL 1");
    let t = t0() + chrono::Duration::hours(1);
    // ACT for Ann: the computer answers at once, its order recorded as
    // its seat's.
    let before = site.entries(1).len();
    let report = site
        .service
        .moderate("ACT 1 BLUE cav BR B3C", "cli:test", t)
        .unwrap();
    assert!(report.contains("was entered for Blue"), "{report}");
    // Its search counts in Ann's hour, though no budget held it back.
    assert!(thinking_of(&mut site, ANN, t) > 0);
    let entries = site.entries(1);
    assert_eq!(entries[before].seat, Some(Seat::North));
    let answers: Vec<_> = entries[before + 1..]
        .iter()
        .filter(|e| e.kind == orderly::store::EntryKind::Order)
        .collect();
    assert!(!answers.is_empty(), "the computer answered: {entries:#?}");
    assert!(
        answers
            .iter()
            .all(|e| e.seat == Some(Seat::South) && e.written == "(computer, level 1)"),
        "{entries:#?}"
    );
    assert_eq!(
        state_of(&mut site, 1).pending().map(|p| p.seat),
        Some(Seat::North)
    );
    // Rolled back by one order (the computer's): it is the computer's
    // decision again, and it answers at once.
    let count = entries.len();
    let report = site
        .service
        .moderate("ROLLBACK 1 1 testing the computer", "cli:test", t)
        .unwrap();
    assert!(!report.starts_with("Refused"), "{report}");
    let orders = |entries: &[orderly::store::EntryRow]| {
        entries
            .iter()
            .filter(|e| e.kind == orderly::store::EntryKind::Order)
            .map(|e| (e.seat, e.written.clone()))
            .collect::<Vec<_>>()
    };
    let after = site.entries(1);
    assert_eq!(
        orders(&after),
        orders(&entries[..count]),
        "the computer's order undone, and answered again"
    );
    assert_eq!(
        state_of(&mut site, 1).pending().map(|p| p.seat),
        Some(Seat::North)
    );
    assert_eq!(site.queued_to(COMPUTER), 0);
}

#[test]
fn a_whole_napoleonic_game_against_the_computer_by_mail() {
    let mut site = Site::new("napoleonic-game");
    let start = begin(
        &mut site,
        "NEW NAPOLEONIC VS COMPUTER LEVEL 1 AS FRENCH",
        "you play French against the computer (level 1)",
    );
    let address = start.reply_to.clone();
    let mut rng = XorShift::new(1812);
    let mut last = start;
    for n in 0..400 {
        if site.game(1).status == orderly::store::GameStatus::Finished {
            break;
        }
        let state = state_of(&mut site, 1);
        let pending = state.pending().expect("a game under way waits for someone");
        assert_ne!(
            pending.seat,
            site.game(1).inviter_seat.other(),
            "after mail {n} the game waits for Ann, never the computer"
        );
        let mut legal = state.legal_orders();
        legal.sort();
        let order = legal[rng.below(legal.len())].clone();
        // A greeting and a sign-off around the order, as people write,
        // a mail every two minutes (at most 120 an hour are answered).
        site.at_minute(2 * n);
        let outs = site.mail(ANN, &address, &format!("Hi,\n\n{order}\n\nThanks!\nAnn"));
        last = only_to_ann(&outs);
        assert!(
            !last.body.contains("Refused") && !last.body.contains("Not understood"),
            "{order} was taken:\n{}",
            last.body
        );
    }
    assert_eq!(
        site.game(1).status,
        orderly::store::GameStatus::Finished,
        "the game ended"
    );
    assert!(last.body.contains("The game is over"), "{}", last.body);
    assert_eq!(site.queued_to(COMPUTER), 0);
}

#[test]
fn a_civil_war_1863_game_against_the_computer_by_mail() {
    let mut site = Site::new("cw1863-game");
    // Ann takes the Union, so the computer (the Confederacy) opens (P7):
    // its first turn is already in the start mail.
    let start = begin(
        &mut site,
        "NEW CIVILWAR1863 VS COMPUTER LEVEL 1 AS UNION",
        "you play Union against the computer (level 1)",
    );
    // Ann's first board comes after the computer's turn: it still carries
    // the key to the board's marks, since she has ordered nothing yet; the
    // boards after her first order do not.
    assert!(
        start.body.contains("Key: U Union, C Confederacy"),
        "{}",
        start.body
    );
    let address = start.reply_to.clone();
    let computer_seat = site.game(1).inviter_seat.other();
    let mut rng = XorShift::new(1863);
    let mut computer_turns = 0;
    for n in 0..6 {
        let state = state_of(&mut site, 1);
        let pending = state.pending().expect("a game under way waits for someone");
        assert_ne!(
            pending.seat, computer_seat,
            "after mail {n} the game waits for Ann, never the computer"
        );
        // One order a mail, not END, with a greeting and a sign-off; the
        // mail's end closes Ann's turn.
        let legal = orders_but_end(state.as_ref());
        let order = legal[rng.below(legal.len())].clone();
        let before = site.entries(1).len();
        let outs = site.mail(ANN, &address, &format!("Hello,\n\n{order}\n\nBest,\nAnn"));
        let reply = only_to_ann(&outs);
        assert!(
            !reply.body.contains("Refused") && !reply.body.contains("Not understood"),
            "{order} was taken:\n{}",
            reply.body
        );
        assert!(!reply.body.contains("Key: U Union"), "{}", reply.body);
        let entries = site.entries(1);
        let by_computer = entries[before..]
            .iter()
            .filter(|e| e.seat == Some(computer_seat))
            .count();
        // The computer's turn is many orders, each recorded as its seat's
        // and ended by END (P7), unless Ann now answers inside it (her
        // removals after it took a city, P27; her survivors' move, P21).
        if by_computer > 0 {
            computer_turns += 1;
            let answers_inside = state_of(&mut site, 1)
                .pending()
                .is_some_and(|p| !p.phase.is_turn());
            assert!(
                answers_inside
                    || entries[before..]
                        .iter()
                        .any(|e| e.seat == Some(computer_seat) && e.text == "END"),
                "{entries:#?}"
            );
        }
    }
    // A mail of Ann's may leave her a decision inside her own order (her
    // losses after a larger attack, P20), with nothing for the computer
    // to play yet; the computer's stacks stand together (P18, P19), so
    // Ann's random orders meet them more often.
    assert!(
        computer_turns >= 4,
        "the computer played {computer_turns} turns"
    );
    assert_eq!(site.queued_to(COMPUTER), 0);
}

#[test]
fn a_moderators_acts_in_a_civil_war_1863_game_never_leave_it_waiting_for_a_coin() {
    // The computer's own even attack calls for the coin (P22): after a
    // moderator's ACT the service draws it and the computer plays on, as
    // after a player's mail, instead of leaving the game waiting for a
    // draw nobody makes.
    let mut site = Site::new("cw1863-acted");
    begin(
        &mut site,
        "NEW CIVILWAR1863 VS COMPUTER LEVEL 1 AS UNION",
        "you play Union against the computer (level 1)",
    );
    let computer_seat = site.game(1).inviter_seat.other();
    let mut rng = XorShift::new(22);
    let t = t0() + chrono::Duration::hours(1);
    let mut coins_after_the_computer = 0;
    for n in 0..400 {
        let state = state_of(&mut site, 1);
        if state.outcome().is_some() || coins_after_the_computer > 0 {
            break;
        }
        assert!(state.chance().is_none(), "act {n}: waiting for a draw");
        let pending = state.pending().expect("a game under way waits for someone");
        assert_ne!(
            pending.seat, computer_seat,
            "act {n}: waiting for the computer"
        );
        let mut legal = state.legal_orders();
        legal.sort();
        let order = legal[rng.below(legal.len())].clone();
        let before = site.entries(1).len();
        let report = site
            .service
            .moderate(&format!("ACT 1 UNION {order}"), "cli:test", t)
            .unwrap();
        assert!(
            report.contains("was entered for"),
            "act {n}, {order}: {report}"
        );
        let entries = site.entries(1);
        coins_after_the_computer += entries[before..]
            .windows(2)
            .filter(|w| w[0].seat == Some(computer_seat) && w[1].written.starts_with("DRAW "))
            .count();
    }
    assert!(
        coins_after_the_computer > 0,
        "no even battle of the computer's in 400 acts: the test proved nothing"
    );
    let state = state_of(&mut site, 1);
    assert!(state.chance().is_none());
    assert!(state.outcome().is_some() || state.pending().is_some_and(|p| p.seat != computer_seat));
}

/// The playouts the computer searched in `player`'s games in the hour
/// before `now`, as the store holds them.
fn thinking_of(site: &mut Site, player: &str, now: DateTime<Utc>) -> u64 {
    let tx = site.service.store().read().unwrap();
    tx.thinking_for(player, (now - chrono::Duration::hours(1)).into())
        .unwrap()
}

impl Site {
    /// The sweep at `at`; the mails it wrote.
    fn sweep_at(&mut self, at: DateTime<Utc>) -> Vec<Out> {
        self.service
            .set_clock(orderly::clock::Clock::stopped_at(at));
        self.service.sweep(at).unwrap();
        self.service.finish_sending_all().unwrap();
        let outs = self.collect();
        assert!(outs.iter().all(|o| o.to != COMPUTER), "{outs:#?}");
        outs
    }

    /// Ann plays SQUARES game `id` at her `address`, one attack-preferring
    /// order a mail, each at `minute` after the start, until a reply says
    /// `says`; that reply.
    fn play_until(
        &mut self,
        id: i64,
        address: &str,
        says: &str,
        minute: i64,
        rng: &mut XorShift,
    ) -> Out {
        for _ in 0..200 {
            self.at_minute(minute);
            let game = self.game(id);
            assert_eq!(game.status, orderly::store::GameStatus::Active);
            let position = Squares::from_position(game.position.as_deref().unwrap()).unwrap();
            let (order, _) = attack_preferring(&position, rng);
            let reply = only_to_ann(&self.mail(ANN, address, &order.to_string()));
            assert!(!reply.body.contains("Refused"), "{}", reply.body);
            if flat(&reply.body).contains(says) {
                return reply;
            }
        }
        panic!("no reply said {says:?} in 200 mails");
    }
}

/// Whose decision game `id` waits for.
fn waits_for(site: &mut Site, id: i64) -> Option<Seat> {
    state_of(site, id).pending().map(|p| p.seat)
}

/// Ann's level 1 SQUARES game against the computer on a site whose
/// budgets `adjust` sets, played (her moves drawn from `seed`) until a
/// reply says `says`: the computer's answer then waits.
struct Waiting {
    site: Site,
    /// Ann's seat's address in game 1.
    address: String,
    /// The reply that said `says`.
    waited: Out,
    /// What drew Ann's moves, to draw more.
    rng: XorShift,
}

fn waiting(
    name: &str,
    adjust: impl FnOnce(&mut orderly::config::Config),
    seed: u64,
    says: &str,
) -> Waiting {
    let mut site = Site::with(name, adjust);
    let start = begin(
        &mut site,
        "NEW SQUARES VS COMPUTER LEVEL 1",
        "Game 1 begins",
    );
    let mut rng = XorShift::new(seed);
    let waited = site.play_until(1, &start.reply_to, says, 0, &mut rng);
    Waiting {
        site,
        address: start.reply_to,
        waited,
        rng,
    }
}

#[test]
fn the_computers_thinking_in_a_players_games_is_bounded_and_its_answer_comes_at_the_time_said() {
    // Level 1 searches 40 playouts a decision: 100 allow three searches
    // in an hour.
    let Waiting {
        mut site,
        waited,
        mut rng,
        ..
    } = waiting(
        "thinking-per-player",
        |c| c.computer.thinking_per_player_hour = 100,
        7,
        "thought as much as it may",
    );
    let text = flat(&waited.body);
    // Every search was made at 10:00 (the clock is stopped): they leave
    // the hour at 11:00.
    assert!(
        text.contains("its answer in game 1 comes at about Sat 21 Nov 2026 11:00 UTC")
            && text.contains("Nothing you sent is lost"),
        "{}",
        waited.body
    );
    assert_eq!(
        waits_for(&mut site, 1),
        Some(Seat::South),
        "the computer's turn waits"
    );
    let tx = site.service.store().read().unwrap();
    assert!(
        tx.computer_owes(1).unwrap(),
        "game 1 is owed the computer's answer"
    );
    drop(tx);
    let spent = thinking_of(&mut site, ANN, t0());
    // A search begun under the budget is finished: one past it at most.
    assert!((100..140).contains(&spent), "{spent} playouts");
    // Ann's mails meanwhile make it think no more, however many.
    let computers = |site: &mut Site| {
        site.entries(1)
            .iter()
            .filter(|e| e.seat == Some(Seat::South))
            .count()
    };
    let before = computers(&mut site);
    // A new game in which the computer moves first waits too: the start
    // mail says so, and nothing more is thought.
    let second = only_to_ann(&site.mail(
        ANN,
        ORDERLY,
        "NEW SQUARES VS COMPUTER LEVEL 1 AS GRAY FIRST BLUE",
    ));
    let said = flat(&second.body);
    assert!(
        said.contains("2 of your games wait for its answer, game 2 among them")
            && said.contains("the first comes at about"),
        "{}",
        second.body
    );
    assert_eq!(waits_for(&mut site, 2), Some(Seat::North));
    assert_eq!(computers(&mut site), before);
    assert_eq!(thinking_of(&mut site, ANN, t0()), spent);
    // No deadline runs for Ann while she waits; the sweep before 11:00
    // plays nothing and writes nothing.
    let tx = site.service.store().read().unwrap();
    assert_eq!(tx.deadline(1).unwrap().map(|d| d.seat), None);
    drop(tx);
    assert!(site
        .sweep_at(t0() + chrono::Duration::minutes(59))
        .is_empty());
    assert_eq!(computers(&mut site), before);
    // At the time said the sweep plays the computer's answer and mails
    // Ann the board, as any move of her opponent's.
    // (Game 2 too, if the hour allows: the longest waiting comes first.)
    let outs = site.sweep_at(t0() + chrono::Duration::minutes(61));
    assert!(outs.iter().all(|o| o.to == ANN), "{outs:#?}");
    let update = outs
        .iter()
        .find(|o| o.subject.starts_with("Game 1:"))
        .cloned()
        .expect("game 1 answered");
    assert!(update.body.contains("What happened:"), "{}", update.body);
    assert!(computers(&mut site) > before);
    assert_eq!(
        waits_for(&mut site, 1),
        Some(Seat::North),
        "{}",
        update.body
    );
    let tx = site.service.store().read().unwrap();
    assert!(!tx.computer_owes(1).unwrap());
    assert_eq!(tx.deadline(1).unwrap().map(|d| d.seat), Some(Seat::North));
    drop(tx);
    // Its orders are the record's like any: the game goes on by mail.
    let reply = site.play_until(1, &update.reply_to, "What happened:", 62, &mut rng);
    assert!(!reply.body.contains("Refused"), "{}", reply.body);
    assert_eq!(site.queued_to(COMPUTER), 0);
}

#[test]
fn when_everyones_hour_of_thinking_is_spent_the_waiting_games_are_answered_by_the_sweep() {
    const BOB: &str = "bob@example.org";
    let Waiting { mut site, .. } = waiting(
        "thinking-in-all",
        |c| c.computer.thinking_per_hour = 100,
        11,
        "busy with many games",
    );
    assert_eq!(waits_for(&mut site, 1), Some(Seat::South));
    // Bob's game against the computer waits too, from its first move.
    let outs = site.mail(
        BOB,
        ORDERLY,
        "NEW SQUARES VS COMPUTER LEVEL 1 AS GRAY FIRST BLUE",
    );
    let bobs = to(&outs, BOB);
    assert!(
        flat(&bobs.body).contains("busy with many games"),
        "{}",
        bobs.body
    );
    assert_eq!(waits_for(&mut site, 2), Some(Seat::North));
    // An hour on, both are answered, the longest waiting first: a sweep
    // thinks at most a minute's share of the hour (here under two
    // playouts, so one game a sweep).
    assert!(site
        .sweep_at(t0() + chrono::Duration::minutes(59))
        .is_empty());
    let outs = site.sweep_at(t0() + chrono::Duration::minutes(61));
    assert!(only_to_ann(&outs).body.contains("What happened:"));
    assert_eq!(waits_for(&mut site, 2), Some(Seat::North));
    let outs = site.sweep_at(t0() + chrono::Duration::minutes(62));
    assert_eq!(outs.len(), 1, "{outs:#?}");
    assert!(to(&outs, BOB).body.contains("What happened:"));
    assert_eq!(waits_for(&mut site, 1), Some(Seat::North));
    assert_eq!(waits_for(&mut site, 2), Some(Seat::South));
    let tx = site.service.store().read().unwrap();
    assert_eq!(tx.games_owed_by_computer(10).unwrap(), Vec::<i64>::new());
}

#[test]
fn a_waiting_game_that_cannot_be_played_keeps_neither_the_others_nor_the_sweep_waiting() {
    const BOB: &str = "bob@example.org";
    let Waiting { mut site, .. } = waiting(
        "thinking-failure",
        |c| c.computer.thinking_per_hour = 100,
        11,
        "busy with many games",
    );
    let outs = site.mail(
        BOB,
        ORDERLY,
        "NEW SQUARES VS COMPUTER LEVEL 1 AS GRAY FIRST BLUE",
    );
    assert!(flat(&to(&outs, BOB).body).contains("busy with many games"));
    // The first owed game fails when the sweep plays it.
    damage(&site, 1);
    let t = t0() + chrono::Duration::minutes(61);
    let outs = site.sweep_at(t);
    assert_eq!(outs.len(), 2, "{outs:#?}");
    // Bob's game is answered all the same, and the sweep's other work is
    // committed: game 1 is owed no more (it is not tried each minute).
    let bobs = to(&outs, BOB);
    assert!(bobs.body.contains("What happened:"), "{}", bobs.body);
    assert_eq!(waits_for(&mut site, 2), Some(Seat::South));
    let tx = site.service.store().read().unwrap();
    assert_eq!(tx.games_owed_by_computer(10).unwrap(), Vec::<i64>::new());
    drop(tx);
    // Ann is told, and the game is before the moderators, who see why.
    let anns = flat(&to(&outs, ANN).body);
    assert!(
        anns.contains("The computer could not play its answer in game 1")
            && anns.contains("Nothing you sent is lost"),
        "{anns}"
    );
    let stalled = site.service.moderate("STALLED", "cli:test", t).unwrap();
    assert!(
        flat(&stalled)
            .contains("game 1: a moderator is asked for: the computer could not play its answer"),
        "{stalled}"
    );
    assert!(!flat(&stalled).contains("game 2:"), "{stalled}");
}

/// Damages `game`'s record beyond replay (a disk's fault, a bug), so
/// that the computer cannot play its answer there.
fn damage(site: &Site, game: i64) {
    let db = rusqlite::Connection::open(site.dir.join("orderly.db")).unwrap();
    db.execute(
        "UPDATE games SET position = 'not a position' WHERE id = ?1",
        [game],
    )
    .unwrap();
    db.execute(
        "UPDATE entries SET text = 'not an order' WHERE game_id = ?1",
        [game],
    )
    .unwrap();
}

#[test]
fn the_computers_failure_never_hides_a_players_own_request_to_the_moderators() {
    let Waiting {
        mut site, address, ..
    } = waiting(
        "thinking-failure-asked",
        |c| c.computer.thinking_per_player_hour = 100,
        7,
        "thought as much as it may",
    );
    site.mail(ANN, &address, "MODERATOR it has not answered, please look");
    damage(&site, 1);
    let t = t0() + chrono::Duration::minutes(61);
    let outs = site.sweep_at(t);
    let anns = flat(&to(&outs, ANN).body);
    assert!(
        anns.contains("The computer could not play its answer in game 1"),
        "{anns}"
    );
    // Her request is what the moderators see: the failure, mailed to them
    // as to her, has not taken its place.
    let stalled = site.service.moderate("STALLED", "cli:test", t).unwrap();
    assert!(
        flat(&stalled)
            .contains("game 1: a moderator is asked for: it has not answered, please look"),
        "{stalled}"
    );
}

#[test]
fn a_game_paused_while_it_waits_for_the_computer_is_answered_after_its_pause() {
    let Waiting { mut site, .. } = waiting(
        "thinking-paused",
        |c| c.computer.thinking_per_player_hour = 100,
        7,
        "thought as much as it may",
    );
    let report = site
        .service
        .moderate(
            "PAUSE 1 UNTIL 2026-11-23",
            "cli:test",
            t0() + chrono::Duration::minutes(30),
        )
        .unwrap();
    assert!(!report.starts_with("Refused"), "{report}");
    site.collect();
    // Ann's hour is free again, but the game is paused: no answer, and so
    // no clock of hers runs in the pause.
    assert!(site
        .sweep_at(t0() + chrono::Duration::minutes(61))
        .is_empty());
    assert_eq!(waits_for(&mut site, 1), Some(Seat::South));
    let tx = site.service.store().read().unwrap();
    assert!(tx.computer_owes(1).unwrap());
    assert_eq!(tx.deadline(1).unwrap().map(|d| d.seat), None);
    drop(tx);
    // The pause over, the sweep answers, and Ann's clock starts then.
    let after = Utc.with_ymd_and_hms(2026, 11, 23, 0, 1, 0).unwrap();
    let outs = site.sweep_at(after);
    let update = only_to_ann(&outs);
    assert!(update.body.contains("What happened:"), "{}", update.body);
    assert_eq!(waits_for(&mut site, 1), Some(Seat::North));
    let tx = site.service.store().read().unwrap();
    assert!(!tx.computer_owes(1).unwrap());
    let deadline = tx.deadline(1).unwrap().expect("Ann's deadline");
    assert_eq!(deadline.seat, Seat::North);
    assert!(deadline.at.utc() > after, "{deadline:?}");
}

#[test]
fn one_players_many_waiting_games_never_keep_anothers_waiting() {
    const BOB: &str = "bob@example.org";
    let mut site = Site::with("thinking-many-waiting", |c| {
        c.computer.thinking_per_player_hour = 100;
        c.service.max_invitations_per_day = 40;
        c.service.max_open_invitations = 40;
    });
    // Ann begins game after game in which the computer moves first, far
    // past her hour of thinking: more of them wait than a sweep plays.
    let owed = |site: &mut Site| {
        let tx = site.service.store().read().unwrap();
        tx.games_owed_by_computer(1_000).unwrap()
    };
    site.at_minute(0);
    let mut last = String::new();
    for _ in 0..25 {
        let outs = site.mail(
            ANN,
            ORDERLY,
            "NEW SQUARES VS COMPUTER LEVEL 1 AS GRAY FIRST BLUE",
        );
        last = flat(&only_to_ann(&outs).body);
        assert!(last.contains("begins"), "{last}");
    }
    let anns = owed(&mut site);
    assert!(anns.len() > 20, "{} of Ann's games wait", anns.len());
    // She is told how many wait, and that only the first comes at the
    // time said.
    assert!(
        last.contains(&format!("{} of your games wait for its answer", anns.len())),
        "{last}"
    );
    // Bob's games wait too, behind all of hers, once his own hour is spent.
    site.at_minute(1);
    let mut bobs = Vec::new();
    for _ in 0..10 {
        site.mail(
            BOB,
            ORDERLY,
            "NEW SQUARES VS COMPUTER LEVEL 1 AS GRAY FIRST BLUE",
        );
        bobs = owed(&mut site)
            .into_iter()
            .filter(|id| !anns.contains(id))
            .collect();
        if !bobs.is_empty() {
            break;
        }
    }
    assert_eq!(bobs.len(), 1, "one of Bob's games waits");
    // Past both hours the sweep answers what each player's budget allows:
    // a few of Ann's, then, her hour spent again, Bob's, though hers are
    // older and more than a sweep plays.
    let outs = site.sweep_at(t0() + chrono::Duration::minutes(62));
    let still = owed(&mut site);
    assert!(!still.contains(&bobs[0]), "Bob's game is answered");
    assert!(to(&outs, BOB).body.contains("What happened:"));
    let answered_anns = anns.iter().filter(|id| !still.contains(id)).count();
    assert!(
        (1..anns.len()).contains(&answered_anns),
        "{answered_anns} of Ann's {} answered",
        anns.len()
    );
    assert_eq!(
        outs.iter().filter(|o| o.to == ANN).count(),
        answered_anns,
        "an update for each of Ann's answered games"
    );
    // Her others are answered hour by hour, oldest first.
    let later = site.sweep_at(t0() + chrono::Duration::minutes(123));
    assert!(later.iter().all(|o| o.to == ANN) && !later.is_empty());
    let after = owed(&mut site);
    assert!(after.len() < still.len());
    assert!(after.iter().all(|id| still.contains(id)));
}
