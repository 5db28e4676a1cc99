//! The service end to end through real mail servers on loopback: Dovecot
//! (IMAP, LMTP) and Postfix (SMTP), started by scripts/mailstack. Players are
//! simulated: they send over SMTP and read their own mailboxes over IMAP;
//! orderly reads its IMAP INBOX and sends through Postfix.

#[path = "../common/mod.rs"]
mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::mailstack::MailStack;
use common::player::attack_preferring;
use common::rng::XorShift;
use orderly::config::Config;
use orderly::games::brothers_at_war::BrothersAtWar;
use orderly::games::civil_war_1863::{self, CivilWar1863};
use orderly::games::squares::{Napoleonic, Squares};
use orderly::games::{Game, GameOptions, GameResult, GameText, Seat};
use orderly::mail::intake;
use orderly::service::identity::seat_secret;
use orderly::service::Service;

const SECRET: &str = "e2e-secret";

fn config(stack: &MailStack, dir: &std::path::Path, idle: bool) -> Config {
    let text = format!(
        r#"
[service]
address = "orderly@{domain}"
secret = "{SECRET}"
poll_interval_secs = 1
rate_limit_per_hour = 100000
[store]
path = "{dir}/orderly.db"
[intake.imap]
host = "127.0.0.1"
port = {imap}
security = "plain"
username = "orderly"
password = "orderly-pw"
processed_folder = "Processed"
idle = {idle}
reconnect_max_secs = 2
[outgoing]
retry_base_secs = 1
[outgoing.smtp]
host = "127.0.0.1"
port = {smtp}
security = "plain"
[bounces]
hard_limit = 1
[moderators]
addresses = ["mod@{domain}"]
"#,
        domain = stack.domain,
        dir = dir.display(),
        imap = stack.imap_port,
        smtp = stack.smtp_port,
    );
    Config::parse(&text).expect("the e2e configuration reads")
}

struct Players<'a> {
    stack: &'a MailStack,
    n: usize,
}

impl Players<'_> {
    fn send(&mut self, from: &str, to: &str, body: &str) -> String {
        self.n += 1;
        let id = format!("e2e{}.{}@players.test", self.n, std::process::id());
        // Each mail its own Date, as a mail client writes (a copy with the
        // same sender, Date and text is taken for a replay).
        let date = (chrono::Utc::now() + chrono::Duration::seconds(self.n as i64)).to_rfc2822();
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: e2e\r\nMessage-ID: <{id}>\r\nDate: {date}\r\n\r\n{body}\r\n"
        );
        self.stack.send(from, to, raw.as_bytes());
        id
    }
}

fn seat_address(stack: &MailStack, game: i64, seat: Seat) -> String {
    format!(
        "orderly+g{game}.{}@{}",
        seat_secret(SECRET.as_bytes(), game, seat),
        stack.domain
    )
}

fn entries(service: &mut Service, game: i64) -> usize {
    let tx = service.store().tx().expect("a transaction");
    tx.entries(game).expect("entries").len()
}

/// Polls until `done` holds (each poll reads IMAP and sends over SMTP).
fn poll_until(service: &mut Service, what: &str, mut done: impl FnMut(&mut Service) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        // A poll may fail while a server restarts; the next one reconnects.
        let _ = service.poll_once();
        if done(service) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn game_status(service: &mut Service, game: i64) -> String {
    let tx = service.store().tx().expect("a transaction");
    tx.game(game)
        .expect("a game")
        .map(|g| g.status.as_str().to_string())
        .unwrap_or_default()
}

fn bodies(stack: &MailStack, user: &str) -> Vec<String> {
    stack
        .fetch_all(user)
        .iter()
        .filter_map(|raw| intake::parse(raw).ok())
        .map(|m| m.full_text)
        .collect()
}

/// Starts game 1 of `G` between ann (North) and bob (South).
fn start_game_of<G: GameText>(service: &mut Service, players: &mut Players<'_>) {
    let domain = players.stack.domain.clone();
    players.send(
        &format!("ann@{domain}"),
        &format!("orderly@{domain}"),
        &format!("NEW {} VS bob@{domain}", G::NAME.to_ascii_uppercase()),
    );
    poll_until(service, "the invitation", |s| {
        game_status(s, 1) == "invited"
    });
    let bob = seat_address(players.stack, 1, Seat::South);
    players.send(&format!("bob@{domain}"), &bob, "ACCEPT");
    poll_until(service, "the acceptance", |s| game_status(s, 1) == "active");
}

/// A service on the mail stack with game 1 of `G` started between ann and bob.
fn started<G: GameText>(stack: &MailStack) -> (Service, Players<'_>) {
    let mut service = Service::open(config(stack, &stack.dir, false)).expect("the service opens");
    let mut players = Players { stack, n: 0 };
    start_game_of::<G>(&mut service, &mut players);
    (service, players)
}

/// Plays `count` orders (or to the end) of a model game by mail; with
/// `restart_at`, Dovecot is restarted after that many orders.
fn play<G: GameText>(
    service: &mut Service,
    players: &mut Players<'_>,
    model: &mut G,
    count: usize,
    restart_at: Option<usize>,
) -> usize {
    let domain = players.stack.domain.clone();
    let mut rng = XorShift::from_state(0x2545_F491_4F6C_DD1D);
    let mut played = 0;
    while played < count && model.outcome().is_none() {
        if Some(played) == restart_at {
            players.stack.restart_dovecot();
        }
        let pending = model.pending().expect("a decision");
        let (order, _) = attack_preferring(model, &mut rng);
        model.apply(&order).expect("legal");
        let user = match pending.seat {
            Seat::North => "ann",
            Seat::South => "bob",
        };
        let before = entries(service, 1);
        players.send(
            &format!("{user}@{domain}"),
            &seat_address(players.stack, 1, pending.seat),
            &order.to_string(),
        );
        poll_until(service, &format!("order {played}: {order}"), |s| {
            entries(s, 1) > before
        });
        played += 1;
    }
    played
}

/// Plays a whole game of `G` by mail through the real servers and checks
/// that every order was taken once, the game is finished and both players
/// were told it is over. Returns the service and the number of orders.
fn play_a_whole_game<G: GameText>(stack: &MailStack) -> (Service, usize) {
    let (mut service, mut players) = started::<G>(stack);
    let mut model = G::new(&GameOptions::default());
    let played = play(&mut service, &mut players, &mut model, 2000, None);
    assert!(
        matches!(model.outcome().map(|o| o.result), Some(GameResult::Win(_))),
        "{:?}",
        model.outcome()
    );
    assert_eq!(entries(&mut service, 1), played, "every order once");
    assert_eq!(game_status(&mut service, 1), "finished");
    // Every reply reached the players' own mailboxes.
    poll_until(&mut service, "the last replies", |_| {
        ["ann", "bob"].iter().all(|u| {
            bodies(stack, u)
                .iter()
                .any(|b| b.contains("The game is over"))
        })
    });
    (service, played)
}

#[test]
fn a_whole_game_through_the_real_servers() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let (_service, played) = play_a_whole_game::<Squares>(&stack);
    let taken: usize = ["ann", "bob"]
        .iter()
        .map(|u| {
            bodies(&stack, u)
                .iter()
                .filter(|b| b.contains("Taken: "))
                .count()
        })
        .sum();
    assert_eq!(taken, played, "one reply per order");
}

#[test]
fn a_whole_napoleonic_game_through_the_real_servers() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    play_a_whole_game::<Napoleonic>(&stack);
    // N1: the French half is written with F codes, the sides are the
    // British and the French, in every mail either player received.
    for user in ["ann", "bob"] {
        let mails = bodies(&stack, user);
        assert!(mails.iter().any(|b| b.contains("F1C")), "{user}");
        assert!(mails.iter().any(|b| b.contains("British")), "{user}");
        for body in &mails {
            assert!(!body.contains("G1C"), "{user}: a G code in\n{body}");
            assert!(!body.contains("Gray"), "{user}: Gray in\n{body}");
        }
    }
}

#[test]
fn dovecot_restarted_mid_game_loses_nothing_and_doubles_nothing() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let (mut service, mut players) = started::<Squares>(&stack);
    let mut model = Squares::new(&GameOptions::default());
    let played = play(&mut service, &mut players, &mut model, 12, Some(5));
    assert_eq!(entries(&mut service, 1), played);
    let shown = orderly::service::admin::show(service.store(), 1, &stack.domain).unwrap();
    assert!(
        shown.contains(&format!("position {}", model.position())),
        "{shown}"
    );
}

#[test]
fn with_postfix_down_the_outbox_holds_then_drains() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let (mut service, mut players) = started::<Squares>(&stack);
    let domain = stack.domain.clone();
    players.send(
        &format!("ann@{domain}"),
        &seat_address(&stack, 1, Seat::North),
        "cav BR B3C",
    );
    // The order is in orderly's mailbox before Postfix goes away.
    stack
        .wait_for("orderly", Duration::from_secs(10), |m| {
            String::from_utf8_lossy(m).contains("cav BR B3C")
        })
        .expect("the order arrives");
    stack.stop_postfix();
    let report = service.poll_once().expect("a poll");
    assert_eq!(report.processed, 1);
    assert!(report.failed >= 1, "{report:?}");
    assert_eq!(entries(&mut service, 1), 1, "the order is applied");
    {
        let tx = service.store().tx().unwrap();
        assert!(tx.outbox_count("queued").unwrap() >= 2, "the replies wait");
    }
    stack.start_postfix();
    std::thread::sleep(Duration::from_millis(1100));
    poll_until(&mut service, "the outbox to drain", |s| {
        let tx = s.store().tx().unwrap();
        tx.outbox_count("queued").unwrap() == 0
    });
    stack
        .wait_for("ann", Duration::from_secs(10), |m| {
            String::from_utf8_lossy(m).contains("Taken: MOVE CAVALRY BR B3C")
        })
        .expect("the reply arrives after Postfix is back");
}

#[test]
fn a_bounce_marks_the_seat_and_tells_the_opponent_and_the_moderators() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let mut service = Service::open(config(&stack, &stack.dir, false)).expect("the service opens");
    let mut players = Players {
        stack: &stack,
        n: 0,
    };
    let domain = stack.domain.clone();
    players.send(
        &format!("ann@{domain}"),
        &format!("orderly@{domain}"),
        &format!("NEW SQUARES VS nobody@{domain}"),
    );
    // The invitation to nobody bounces back to its VERP address.
    poll_until(&mut service, "the seat to be undeliverable", |s| {
        let tx = s.store().tx().unwrap();
        tx.undeliverable(1, Seat::South).unwrap().is_some()
    });
    let notice = |user: &str| {
        stack.wait_for(user, Duration::from_secs(15), |m| {
            String::from_utf8_lossy(m).contains("cannot be")
        })
    };
    poll_until(&mut service, "the notices", |_| {
        notice("ann").is_some() && notice("mod").is_some()
    });
    let text = String::from_utf8_lossy(&notice("ann").unwrap()).into_owned();
    assert!(text.contains(&format!("nobody@{domain}")), "{text}");
    // The bounce itself is never answered: nothing goes to MAILER-DAEMON.
    let tx = service.store().tx().unwrap();
    assert_eq!(tx.outbox_count("failed").unwrap(), 0);
}

#[test]
fn idle_wakes_the_daemon_and_replies_come_back_quickly() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let cfg = config(&stack, &stack.dir, true);
    let stop = Arc::new(AtomicBool::new(false));
    let daemon = {
        let stop = Arc::clone(&stop);
        let cfg = cfg.clone();
        std::thread::spawn(move || {
            let mut service = Service::open(cfg).expect("the service opens");
            service.serve(&stop).expect("serve runs");
        })
    };
    let mut players = Players {
        stack: &stack,
        n: 0,
    };
    let domain = stack.domain.clone();
    let mut latencies = Vec::new();
    for i in 0..5 {
        let sent = Instant::now();
        let id = players.send(
            &format!("carol@{domain}"),
            &format!("orderly@{domain}"),
            "GAMES",
        );
        stack
            .wait_for("carol", Duration::from_secs(20), |m| {
                String::from_utf8_lossy(m).contains(&format!("In-Reply-To: <{id}>"))
            })
            .unwrap_or_else(|| panic!("no reply to mail {i}"));
        latencies.push(sent.elapsed());
    }
    stop.store(true, Ordering::SeqCst);
    daemon.join().expect("the daemon stops");
    latencies.sort();
    eprintln!("mail-to-reply latency with IDLE: {latencies:?}");
    // Without IDLE the daemon would wake only every poll interval (1 s
    // here); with it a reply comes well within that most of the time. No
    // timing is asserted beyond "it came".
    let _ = Squares::new(&GameOptions::default());
}

#[test]
fn check_mail_says_what_works_and_what_does_not() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let write = |name: &str, password: &str| {
        let path = stack.dir.join(name);
        let text = format!(
            "[service]\naddress = \"orderly@{d}\"\nsecret = \"x\"\n\
             [store]\npath = \"{dir}/check.db\"\n\
             [intake.imap]\nhost = \"127.0.0.1\"\nport = {imap}\nsecurity = \"plain\"\n\
             username = \"orderly\"\npassword = \"{password}\"\n\
             [outgoing.smtp]\nhost = \"127.0.0.1\"\nport = {smtp}\nsecurity = \"plain\"\n",
            d = stack.domain,
            dir = stack.dir.display(),
            imap = stack.imap_port,
            smtp = stack.smtp_port,
        );
        std::fs::write(&path, text).unwrap();
        path
    };
    let run = |config: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_orderly"))
            .args(["--config", config.to_str().unwrap(), "check-mail"])
            .output()
            .expect("orderly runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (ok, report) = run(&write("good.toml", "orderly-pw"));
    assert!(ok, "{report}");
    assert!(report.contains("ok    incoming (IMAP) login"), "{report}");
    assert!(report.contains("ok    outgoing (SMTP)"), "{report}");
    let (ok, report) = run(&write("bad.toml", "wrong"));
    assert!(!ok, "{report}");
    assert!(report.contains("FAIL  incoming (IMAP) login"), "{report}");
}

/// The lines of one Civil War 1863 mail for the seat `model` waits for,
/// one order a line: a random move, then an attack whenever the turn offers
/// one, else random moves again, up to four, stopping where the other seat or the coin must act.
/// Returns the lines and whether one of them attacked.
fn civil_war_mail(model: &CivilWar1863, rng: &mut XorShift) -> (Vec<String>, bool) {
    let seat = model.pending().expect("a seat to act").seat;
    let mut sim = model.clone();
    let mut lines = Vec::new();
    let mut attacked = false;
    while lines.len() < 4 {
        let Some(p) = sim.pending() else { break };
        if p.seat != seat {
            break;
        }
        let moves: Vec<civil_war_1863::Order> = sim
            .legal_orders()
            .into_iter()
            .filter(|o| *o != civil_war_1863::Order::EndTurn)
            .collect();
        if moves.is_empty() {
            if lines.is_empty() {
                lines.push("END".to_string());
            }
            break;
        }
        let starts_a_battle = |o: &civil_war_1863::Order| {
            let mut after = sim.clone();
            after.apply(o).is_ok() && p.phase.is_turn() && after.battle().is_some()
        };
        let attacks: Vec<&civil_war_1863::Order> =
            moves.iter().filter(|o| starts_a_battle(o)).collect();
        // The first order of a mail moves at random, the next attacks when
        // it can: a mail of several lines, and battles.
        let order = if attacks.is_empty() || lines.is_empty() {
            moves[rng.below(moves.len())].clone()
        } else {
            attacks[rng.below(attacks.len())].clone()
        };
        attacked |= starts_a_battle(&order);
        sim.apply(&order).expect("a legal order");
        lines.push(order.to_string());
        if !p.phase.is_turn() && sim.pending().is_some_and(|q| q.phase.is_turn()) {
            break;
        }
    }
    (lines, attacked)
}

/// The position of game 1 as the service stores it, read as a `G`.
fn stored<G: Game>(service: &mut Service, domain: &str) -> G {
    let shown = orderly::service::admin::show(service.store(), 1, domain).unwrap();
    let position = shown
        .lines()
        .find_map(|l| l.strip_prefix("position "))
        .unwrap_or_else(|| panic!("no position in {shown}"));
    G::from_position(position).unwrap()
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_civil_war_1863_game_through_the_real_servers() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let (mut service, mut players) = started::<CivilWar1863>(&stack);
    let domain = stack.domain.clone();
    // The invitation reached bob's mailbox: the board is a reconstruction,
    // and the seed of the tosses is committed to before anyone plays.
    let invitation = bodies(&stack, "bob")
        .into_iter()
        .map(|b| flat(&b))
        .find(|b| b.contains("ACCEPT"))
        .expect("the invitation in bob's mailbox");
    assert!(
        invitation.contains(&flat(civil_war_1863::core::board::RECONSTRUCTION_NOTE)),
        "{invitation}"
    );
    let at = invitation
        .find("whose SHA-256 is")
        .unwrap_or_else(|| panic!("no commitment in {invitation}"))
        + "whose SHA-256 is".len();
    let commitment: String = invitation[at..].trim_start().chars().take(64).collect();
    assert!(
        commitment.len() == 64 && commitment.chars().all(|c| c.is_ascii_hexdigit()),
        "{invitation}"
    );
    let mut rng = XorShift::from_state(0x1863_0701_E2E0_0001);
    let mut mails = 0;
    let mut attacks = 0;
    let mut closed = 0;
    let mut longest = 0;
    let mut sent: Vec<(&str, String)> = Vec::new();
    while mails < 60 && !(attacks > 0 && closed >= 6) {
        let model = stored::<CivilWar1863>(&mut service, &domain);
        if model.outcome().is_some() {
            break;
        }
        let seat = model.pending().expect("the service draws the coin").seat;
        let (lines, attacked) = civil_war_mail(&model, &mut rng);
        let user = match seat {
            Seat::North => "ann",
            Seat::South => "bob",
        };
        longest = longest.max(lines.len());
        sent.extend(lines.iter().map(|l| (user, l.clone())));
        let before = entries(&mut service, 1);
        players.send(
            &format!("{user}@{domain}"),
            &seat_address(&stack, 1, seat),
            &lines.join("\n"),
        );
        poll_until(&mut service, &format!("mail {mails}: {lines:?}"), |s| {
            entries(s, 1) >= before + lines.len()
        });
        let after = stored::<CivilWar1863>(&mut service, &domain);
        if after
            .pending()
            .is_some_and(|p| p.seat != seat && p.phase.is_turn())
        {
            closed += 1;
        }
        attacks += usize::from(attacked);
        mails += 1;
    }
    eprintln!("{mails} mails, {attacks} attacks, {closed} turns closed");
    assert!(attacks > 0, "no attack in {mails} mails");
    assert!(closed >= 6, "only {closed} turns closed in {mails} mails");
    assert!(longest > 1, "no mail of several orders");
    // Every order was answered, line by line, in the writer's mailbox.
    poll_until(&mut service, "the replies", |_| {
        sent.iter().all(|(u, line)| {
            bodies(&stack, u)
                .iter()
                .any(|b| b.contains(&format!("Taken: {line}")))
        })
    });
    if stored::<CivilWar1863>(&mut service, &domain)
        .outcome()
        .is_none()
    {
        players.send(
            &format!("ann@{domain}"),
            &seat_address(&stack, 1, Seat::North),
            "RESIGN",
        );
        poll_until(&mut service, "the resignation", |s| {
            game_status(s, 1) == "finished"
        });
    }
    poll_until(&mut service, "the last mails", |_| {
        ["ann", "bob"].iter().all(|u| {
            bodies(&stack, u)
                .iter()
                .any(|b| flat(b).contains("The seed of this game's tosses was"))
        })
    });
    let record = orderly::service::admin::export(service.store(), 1, false, &domain).unwrap();
    assert!(record.contains("[Game \"civilwar1863\"]"), "{record}");
    assert!(
        record.contains(&format!("\nCommitment {commitment}\n")),
        "{record}"
    );
    assert!(record.contains("\nRevealed "), "{record}");
    let (report, ok) = orderly::record::verify_report(&record);
    assert!(ok, "{report}\n{record}");
}

/// The lines of one Brothers at War mail for the seat `model` waits for:
/// random listed orders of that seat, up to eight, stopping where the other
/// seat must decide or a draw of chance is due (its outcome is the fair
/// draw's, not this simulation's).
fn brothers_at_war_mail(model: &BrothersAtWar, rng: &mut XorShift) -> Vec<String> {
    let seat = model.pending().expect("a seat to act").seat;
    let mut sim = model.clone();
    let mut lines = Vec::new();
    while lines.len() < 8 {
        match sim.pending() {
            Some(p) if p.seat == seat && sim.chance().is_none() => {}
            _ => break,
        }
        let legal = sim.legal_orders();
        if legal.is_empty() {
            break;
        }
        let order = legal[rng.below(legal.len())].clone();
        sim.apply(&order).expect("a listed order applies");
        lines.push(order.to_string());
    }
    lines
}

/// Mails a whole game of the demo battle may take through the servers.
const BAW_MAILS: usize = 400;

#[test]
fn tanners_ford_played_to_the_end_through_the_real_servers() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let (mut service, mut players) = started::<BrothersAtWar>(&stack);
    let domain = stack.domain.clone();
    let invitation = bodies(&stack, "bob")
        .into_iter()
        .map(|b| flat(&b))
        .find(|b| b.contains("ACCEPT"))
        .expect("the invitation in bob's mailbox");
    assert!(
        invitation.contains("The battle: Tanner's Ford (scenario tanners-ford)."),
        "{invitation}"
    );
    let mut rng = XorShift::from_state(0x1862_0917_E2E0_0001);
    let mut mails = 0;
    loop {
        let model = stored::<BrothersAtWar>(&mut service, &domain);
        if model.outcome().is_some() {
            break;
        }
        assert!(
            mails < BAW_MAILS,
            "the battle did not end in {BAW_MAILS} mails"
        );
        let seat = model.pending().expect("the service makes every draw").seat;
        let lines = brothers_at_war_mail(&model, &mut rng);
        let user = match seat {
            Seat::North => "ann",
            Seat::South => "bob",
        };
        let before = entries(&mut service, 1);
        players.send(
            &format!("{user}@{domain}"),
            &seat_address(&stack, 1, seat),
            &format!("Hello,\n\n{}\n\nBest regards,\n{user}", lines.join("\n")),
        );
        poll_until(&mut service, &format!("mail {mails}: {lines:?}"), |s| {
            entries(s, 1) >= before + lines.len()
        });
        mails += 1;
    }
    eprintln!("Tanner's Ford: {mails} mails to the end");
    poll_until(&mut service, "the last mails", |_| {
        ["ann", "bob"].iter().all(|u| {
            bodies(&stack, u)
                .iter()
                .any(|b| flat(b).contains("The seed of this game's tosses was"))
        })
    });
    let record = orderly::service::admin::export(service.store(), 1, false, &domain).unwrap();
    assert!(record.contains("[Game \"brothersatwar\"]"), "{record}");
    assert!(record.contains("[Scenario \"tanners-ford\"]"), "{record}");
    let (report, ok) = orderly::record::verify_report(&record);
    assert!(ok, "{report}\n{record}");
}

/// Issue 19: the board's picture goes through Postfix and Dovecot and is
/// read back over IMAP intact: shown in the HTML part by its Content-ID,
/// attached as the same bytes, and the very PNG orderly draws for that
/// position from the reader's seat.
#[test]
fn the_board_picture_arrives_intact_over_imap() {
    let Some(stack) = MailStack::start() else {
        return;
    };
    let (mut service, _players) = started::<Squares>(&stack);
    let deadline = Instant::now() + Duration::from_secs(30);
    let raw = loop {
        let _ = service.poll_once();
        let found = stack
            .fetch_all("ann")
            .into_iter()
            .find(|raw| memchr::memmem::find(raw, b"image/png").is_some());
        if let Some(raw) = found {
            break raw;
        }
        assert!(Instant::now() < deadline, "no mail with a picture for ann");
        std::thread::sleep(Duration::from_millis(50));
    };
    let parsed = mailparse::parse_mail(&raw).expect("a mail");
    assert_eq!(parsed.ctype.mimetype, "multipart/mixed");
    let alternative = &parsed.subparts[0];
    assert_eq!(alternative.subparts[0].ctype.mimetype, "text/plain");
    let related = &alternative.subparts[1];
    let html = related.subparts[0].get_body().expect("the HTML");
    let inline = &related.subparts[1];
    let id = mailparse::MailHeaderMap::get_first_value(inline.headers.as_slice(), "Content-ID")
        .expect("a Content-ID");
    let id = id.trim_start_matches('<').trim_end_matches('>');
    assert!(html.contains(&format!("cid:{id}")), "{html}");
    let shown = inline.get_body_raw().expect("the picture");
    let attached = parsed.subparts[1].get_body_raw().expect("the attachment");
    assert_eq!(shown, attached);
    // Ann holds North's seat: the opening as she sees it, no last action.
    let game: Squares = stored(&mut service, &stack.domain);
    let svg = game
        .draw_picture(Seat::North, &[], false)
        .expect("SQUARES has a picture");
    let drawn = orderly::picture::png(&svg).expect("rendered");
    assert_eq!(shown, drawn.bytes, "the PNG orderly drew, byte for byte");
}
