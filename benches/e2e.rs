//! The service through real mail servers (scripts/mailstack: Dovecot and
//! Postfix on loopback): mail-to-reply latency with IMAP IDLE (p50, p99),
//! and sustained throughput of orders for many concurrent games.
//!
//! `cargo bench --bench e2e` runs 40 latency samples and 8 games
//! (`ORDERLY_BENCH_GAMES` sets another number of games); under
//! `cargo test --all-targets` a small run checks that it works. Without the
//! servers it says SKIPPED (and fails when ORDERLY_E2E_REQUIRED is set).
//! The figures are printed, never asserted.

#[path = "../tests/common/mailstack.rs"]
#[allow(dead_code)]
mod mailstack;
#[path = "../tests/common/rng.rs"]
mod rng;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lettre::address::Envelope;
use lettre::{SmtpTransport, Transport};
use mailstack::MailStack;
use orderly::config::Config;
use orderly::games::squares::Squares;
use orderly::games::{Game, GameOptions, Seat};
use orderly::service::identity::seat_secret;
use orderly::service::Service;
use orderly::store::Store;
use rng::XorShift;

const SECRET: &str = "bench-secret";

fn config(stack: &MailStack) -> Config {
    Config::parse(&format!(
        r#"
[service]
address = "orderly@{domain}"
secret = "{SECRET}"
poll_interval_secs = 1
rate_limit_per_hour = 1000000
[store]
path = "{dir}/orderly.db"
[intake.imap]
host = "127.0.0.1"
port = {imap}
security = "plain"
username = "orderly"
password = "orderly-pw"
processed_folder = "Processed"
[outgoing.smtp]
host = "127.0.0.1"
port = {smtp}
security = "plain"
"#,
        domain = stack.domain,
        dir = stack.dir.display(),
        imap = stack.imap_port,
        smtp = stack.smtp_port,
    ))
    .expect("the bench configuration reads")
}

fn raw(from: &str, to: &str, id: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: {to}\r\nSubject: bench\r\nMessage-ID: <{id}>\r\n\r\n{body}\r\n")
        .into_bytes()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let Some(stack) = MailStack::start() else {
        return;
    };
    let (samples, games, orders_per_game) = if full { (40, 8, 30) } else { (3, 2, 3) };
    // ORDERLY_BENCH_GAMES=32 measures how throughput grows with games.
    let games = std::env::var("ORDERLY_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(games);
    let cfg = config(&stack);
    let db_path = cfg.store.path.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let daemon = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut service = Service::open(cfg).expect("the service opens");
            service.serve(&stop).expect("serve runs");
        })
    };
    let domain = stack.domain.clone();
    let service_addr = format!("orderly@{domain}");

    // Latency: one mail at a time, until its reply is in the sender's box.
    let mut latencies = Vec::with_capacity(samples);
    for i in 0..samples {
        let id = format!("lat{i}.{}@bench.test", std::process::id());
        let sent = Instant::now();
        stack.send(
            &format!("carol@{domain}"),
            &service_addr,
            &raw(&format!("carol@{domain}"), &service_addr, &id, "GAMES"),
        );
        stack
            .wait_for("carol", Duration::from_secs(30), |m| {
                String::from_utf8_lossy(m).contains(&format!("In-Reply-To: <{id}>"))
            })
            .expect("a reply");
        latencies.push(sent.elapsed());
    }
    latencies.sort();

    // Throughput: `games` games between ann and bob, each moving as soon as
    // the previous order of that game is applied.
    let addr = |game: i64, seat: Seat| {
        format!(
            "orderly+g{game}.{}@{domain}",
            seat_secret(SECRET.as_bytes(), game, seat)
        )
    };
    let (ann, bob) = (format!("ann@{domain}"), format!("bob@{domain}"));
    for g in 1..=games {
        let id = format!("new{g}@bench.test");
        let body = format!("NEW SQUARES VS {bob}");
        stack.send(&ann, &service_addr, &raw(&ann, &service_addr, &id, &body));
    }
    let store = Store::open(&db_path).expect("the store");
    let mut store = store;
    let status = |store: &mut Store, game: i64| {
        let tx = store.read().expect("a transaction");
        tx.game(game)
            .ok()
            .flatten()
            .map(|g| g.status.as_str().to_string())
            .unwrap_or_default()
    };
    let wait = |store: &mut Store, what: &str, cond: &dyn Fn(&mut Store) -> bool| {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !cond(store) {
            assert!(Instant::now() < deadline, "timed out: {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait(&mut store, "the invitations", &|s| {
        (1..=games as i64).all(|g| status(s, g) == "invited")
    });
    for g in 1..=games as i64 {
        let to = addr(g, Seat::South);
        stack.send(
            &bob,
            &to,
            &raw(&bob, &to, &format!("acc{g}@bench.test"), "ACCEPT"),
        );
    }
    wait(&mut store, "the acceptances", &|s| {
        (1..=games as i64).all(|g| status(s, g) == "active")
    });
    let entries = |store: &mut Store, game: i64| {
        let tx = store.read().expect("a transaction");
        tx.entries(game).map(|e| e.len()).unwrap_or(0)
    };
    let mut models: Vec<Squares> = (0..games)
        .map(|_| Squares::new(&GameOptions::default()))
        .collect();
    let mut sent_orders = vec![0usize; games];
    let mut rng = XorShift::from_state(0x9E37_79B9_7F4A_7C15);
    // The players' own client keeps its SMTP connection open, as a mail
    // program does; a connection per mail would make them the bottleneck.
    let players = SmtpTransport::builder_dangerous("127.0.0.1")
        .port(stack.smtp_port)
        .build();
    let started = Instant::now();
    let mut send_time = Duration::ZERO;
    let total = games * orders_per_game;
    let mut applied = 0;
    while applied < total {
        for g in 0..games {
            let game = g as i64 + 1;
            let done = entries(&mut store, game);
            if done < sent_orders[g] || sent_orders[g] >= orders_per_game {
                continue;
            }
            let model = &mut models[g];
            let Some(pending) = model.pending() else {
                sent_orders[g] = orders_per_game;
                continue;
            };
            let legal = model.legal_orders();
            let order = legal[rng.below(legal.len())];
            model.apply(&order).expect("legal");
            let from = if pending.seat == Seat::North {
                &ann
            } else {
                &bob
            };
            let to = addr(game, pending.seat);
            let id = format!("o{game}.{}@bench.test", sent_orders[g]);
            let t = Instant::now();
            let envelope = Envelope::new(
                Some(from.parse().expect("an address")),
                vec![to.parse().expect("an address")],
            )
            .expect("an envelope");
            players
                .send_raw(&envelope, &raw(from, &to, &id, &order.to_string()))
                .expect("the order is sent");
            send_time += t.elapsed();
            sent_orders[g] += 1;
        }
        applied = (0..games).map(|g| entries(&mut store, g as i64 + 1)).sum();
        assert!(started.elapsed() < Duration::from_secs(600), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    stop.store(true, Ordering::SeqCst);
    daemon.join().expect("the daemon stops");

    println!(
        "e2e latency (SMTP -> Postfix -> Dovecot -> IDLE -> orderly -> SMTP -> IMAP), {} mails: \
         p50 {:.0?}, p99 {:.0?}, min {:.0?}, max {:.0?}",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies[0],
        latencies[latencies.len() - 1]
    );
    println!("  (the simulated players spent {send_time:.2?} sending their orders over SMTP)");
    println!(
        "e2e throughput: {applied} orders in {games} concurrent games in {elapsed:.2?}: {:.1} orders/s",
        applied as f64 / elapsed.as_secs_f64()
    );
}
