//! The mail service's throughput: order mails pushed through a real
//! Maildir, a real SQLite file and the file transport with 1, 10 and 100
//! mails waiting at each poll (one poll processes them as one batch, one
//! transaction), reported as mails per second and per-poll latency; and, in
//! the same run on the same disk, the rate of minimal SQLite commits, so
//! that the service's throughput can be read as a ratio to the cost of
//! durability itself.
//!
//! The fsyncs per mail are counted by running each case again under
//! `strace -f -c -e trace=fsync,fdatasync,sync_file_range,syncfs` (the bench
//! starts itself as the child, with `ORDERLY_BENCH_ONLY=<mails a poll>`);
//! without strace (`apt-get install strace`) they are left out. The timed
//! runs are never traced.
//!
//! `ORDERLY_BENCH_SENT=/dev/shm/orderly-sent` writes the reply files to a
//! tmpfs instead, which shows what creating and syncing one file per reply
//! costs on the bench's disk (the figures are then not durable ones).
//!
//! Each case runs twice a round: with `poll_once` (each poll's replies sent
//! before it returns) and with `poll_pipelined`, the daemon's loop, in
//! which one poll's replies are sent on a second thread while the next
//! poll is processed, timed until the last reply is sent and marked. The
//! bench delivers each poll's mails between polls; that time is left out
//! of the first figures, but a pipelined run's sending goes on while the
//! bench delivers, so both forms are also given with the delivery counted
//! (the fair comparison of the two).
//!
//! The board pictures of issue 19 are off here (`ORDERLY_BENCH_PICTURES=1`
//! turns them on): their cost is a PNG per board mail on the sending
//! thread, measured alone by `cargo bench --bench text -- picture`, and
//! with them on these figures would measure the renderer, not the mail
//! pipeline.
//!
//! `cargo bench --bench service` runs 1,000 mails a case (2,000 with 100
//! waiting), three rounds each; under `cargo test --all-targets` a few as a
//! smoke test. The figures are printed, never asserted.

#[path = "../tests/common/rng.rs"]
mod rng;

use std::path::Path;
use std::time::{Duration, Instant};

use orderly::config::Config;
use orderly::games::squares::Squares;
use orderly::games::{Game, GameOptions, Seat};
use orderly::mail::maildir::Maildir;
use orderly::service::identity::seat_secret;
use orderly::service::Service;
use orderly::store::{GameStatus, Store, Timestamp};
use rng::XorShift;

const SECRET: &str = "bench-secret";

/// Mails waiting at each poll, one case each.
const CASES: [usize; 3] = [1, 10, 100];

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let base = std::env::var_os("ORDERLY_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("orderly-bench-{}", std::process::id()))
        });
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("a bench directory");
    let mails = |per_poll: usize| {
        if full {
            1_000.max(per_poll * 20)
        } else {
            per_poll.max(10)
        }
    };

    // The child under strace: one case, nothing printed but its count.
    if let Some(per_poll) = std::env::var("ORDERLY_BENCH_ONLY")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        let count = std::env::var("ORDERLY_BENCH_MAILS")
            .ok()
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or_else(|| mails(per_poll));
        let run = run_case(&base.join("case"), per_poll, count, false);
        println!("mails {}", run.mails);
        let _ = std::fs::remove_dir_all(&base);
        return;
    }

    let commits = if full { 400 } else { 20 };
    // The disk's speed drifts from minute to minute on a shared machine
    // (and ext4 slows down file creation after many recent deletions), so
    // each case runs several rounds, each right after its own measure of
    // the raw commit rate in the same directory, and the medians are
    // compared.
    let rounds = if full { 3 } else { 1 };
    let commit_rate = |dir: &Path| {
        std::fs::create_dir_all(dir).expect("a directory");
        let path = dir.join("commits.db");
        let _ = std::fs::remove_file(&path);
        let mut store = Store::open(&path).expect("a store");
        let t = Instant::now();
        for i in 0..commits {
            store.minimal_commit(&format!("c{i}")).expect("a commit");
        }
        per_sec(commits, t.elapsed())
    };
    // Every timed round first, the counting runs under strace after them:
    // those delete their files, and on ext4 creating files right after
    // many deletions is slower (the inode allocator skips recently freed
    // inodes), which would slow the rounds timed after them.
    let mut timed = Vec::new();
    for per_poll in CASES {
        let (mut commit_rates, mut rates, mut runs) = (Vec::new(), Vec::new(), Vec::new());
        let (mut with_delivery, mut piped, mut piped_with_delivery) =
            (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let dir = base.join(format!("case{per_poll}-{round}"));
            commit_rates.push(commit_rate(&dir.join("raw")));
            let run = run_case(&dir.join("service"), per_poll, mails(per_poll), false);
            rates.push(per_sec(run.mails, run.total));
            with_delivery.push(per_sec(run.mails, run.total + run.delivery));
            runs.push(run);
            let run = run_case(&dir.join("pipelined"), per_poll, mails(per_poll), true);
            piped.push(per_sec(run.mails, run.total));
            piped_with_delivery.push(per_sec(run.mails, run.total + run.delivery));
        }
        timed.push((
            per_poll,
            commit_rates,
            rates,
            runs,
            [with_delivery, piped, piped_with_delivery],
        ));
    }
    for (per_poll, commit_rates, rates, runs, [with_delivery, piped, piped_with_delivery]) in timed
    {
        let commit_rate = median(&commit_rates);
        let rate = median(&rates);
        let run = &runs[rates.iter().position(|&r| r == rate).unwrap_or(0)];
        let mut polls = run.polls.clone();
        polls.sort();
        let pct = |p: f64| polls[((polls.len() as f64 - 1.0) * p) as usize];
        let fsyncs = count_fsyncs(&base, per_poll)
            .map(|per_mail| format!("{per_mail:.2} fsyncs/mail"))
            .unwrap_or_else(|| "fsyncs not counted (no strace)".into());
        println!(
            "service, {per_poll} waiting a poll: {rate:.0} mails/s (median of {rounds} rounds of {} \
             mails, {} written; range {:.0}-{:.0}) against {commit_rate:.0} raw commits/s \
             (median; range {:.0}-{:.0}): {:.2}x the commit rate; {fsyncs}; a poll takes \
             median {:.2?}, p99 {:.2?}, max {:.2?}",
            run.mails,
            run.sent,
            min(&rates),
            max(&rates),
            min(&commit_rates),
            max(&commit_rates),
            rate / commit_rate,
            pct(0.5),
            pct(0.99),
            pct(1.0)
        );
        println!(
            "  pipelined, {per_poll} waiting a poll: {:.0} mails/s (range {:.0}-{:.0}): {:.2}x the \
             commit rate; with the delivery of the mails counted: one poll at a time {:.0} \
             mails/s (range {:.0}-{:.0}), pipelined {:.0} (range {:.0}-{:.0})",
            median(&piped),
            min(&piped),
            max(&piped),
            median(&piped) / commit_rate,
            median(&with_delivery),
            min(&with_delivery),
            max(&with_delivery),
            median(&piped_with_delivery),
            min(&piped_with_delivery),
            max(&piped_with_delivery),
        );
        if per_poll == CASES[0] {
            storage(&run.db, run.space_before, run.mails);
        }
    }
    sweep_bench(&base, full);
    let _ = std::fs::remove_dir_all(&base);
}

fn median(xs: &[f64]) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn min(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(0.0, f64::max)
}

fn per_sec(count: usize, d: Duration) -> f64 {
    count as f64 / d.as_secs_f64()
}

/// What one case measured.
struct Run {
    /// Incoming mails processed (orders, and the invitations and
    /// acceptances of the games they belong to).
    mails: usize,
    /// Outgoing mails written.
    sent: usize,
    /// The time of all polls together (pipelined: from the first poll
    /// until the last reply is sent), less the delivery's.
    total: Duration,
    /// The time spent delivering the mails between polls.
    delivery: Duration,
    /// Each poll's time.
    polls: Vec<Duration>,
    /// The database, and the bytes of its pages in use before the mails.
    db: std::path::PathBuf,
    space_before: i64,
}

/// Delivers `mails` mails, `per_poll` at a time, each time polling once
/// (`pipelined`: with `poll_pipelined`, and at the end sending what is
/// left): random games of SQUARES, a new one begun when one ends.
fn run_case(base: &Path, per_poll: usize, mails: usize, pipelined: bool) -> Run {
    let _ = std::fs::remove_dir_all(base);
    let mut config = Config::default();
    config.service.address = "orderly@example.org".into();
    config.service.secret = Some(SECRET.into());
    config.service.rate_limit_per_hour = u32::MAX;
    config.service.commands_per_hour = u32::MAX;
    config.service.max_invitations_per_day = u32::MAX;
    config.store.path = base.join("orderly.db");
    config.intake.maildir = base.join("inbox");
    // ORDERLY_BENCH_SENT puts the reply files elsewhere (a tmpfs such as
    // /dev/shm), to see what the files' creation costs on the bench's disk.
    config.outgoing.dir = std::env::var_os("ORDERLY_BENCH_SENT")
        .map(|d| Path::new(&d).join(base.file_name().unwrap_or_default()))
        .unwrap_or_else(|| base.join("sent"));
    config.outgoing.pictures = std::env::var("ORDERLY_BENCH_PICTURES").is_ok_and(|v| v == "1");
    let db = config.store.path.clone();
    let mut service = Service::open(config).expect("the service opens");
    let space_before = used_bytes(&db);
    Maildir::open_or_create(base.join("inbox")).expect("the inbox");
    let mut next = Mails::new();
    let (mut total, mut sent, mut done) = (Duration::ZERO, 0, 0);
    let mut polls = Vec::new();
    let (started, mut delivery) = (Instant::now(), Duration::ZERO);
    while done < mails {
        let delivering = Instant::now();
        for _ in 0..per_poll {
            // Delivered as an MTA would (tmp/, then renamed into new/) but
            // unsynced: the delivery agent's fsyncs are not the service's,
            // and the count under strace is of the service's alone.
            let (name, raw) = (format!("{:010}.bench", next.count + 1), next.next_mail());
            let tmp = base.join("inbox/tmp").join(&name);
            std::fs::write(&tmp, raw).expect("written");
            std::fs::rename(&tmp, base.join("inbox/new").join(&name)).expect("delivered");
        }
        delivery += delivering.elapsed();
        let t = Instant::now();
        let report = if pipelined {
            service.poll_pipelined()
        } else {
            service.poll_once()
        }
        .expect("a poll");
        let took = t.elapsed();
        total += took;
        polls.push(took);
        assert_eq!(report.failed, 0, "every mail is taken");
        sent += report.sent;
        done += report.processed;
    }
    if pipelined {
        let (last, failed) = service.finish_sending_all().expect("the last replies");
        assert_eq!(failed, 0, "every reply is sent");
        sent += last;
        // Until the last reply is sent, less the delivery's time: sending
        // that went on while the bench delivered is left out here, which
        // is why the figures with the delivery counted are printed too.
        total = started.elapsed().saturating_sub(delivery);
    }
    Run {
        mails: done,
        sent,
        total,
        delivery,
        polls,
        db,
        space_before,
    }
}

/// The mails of random games, one after the other: an invitation, its
/// acceptance, then the orders until the game ends.
struct Mails {
    game: i64,
    model: Squares,
    rng: XorShift,
    count: usize,
    /// The mails of the game's beginning still to send.
    opening: Vec<(String, String, String)>,
}

impl Mails {
    fn new() -> Mails {
        let mut mails = Mails {
            game: 0,
            model: Squares::new(&GameOptions::default()),
            rng: XorShift::from_state(0x2545_F491_4F6C_DD1D),
            count: 0,
            opening: Vec::new(),
        };
        mails.begin();
        mails
    }

    fn addr(&self, seat: Seat) -> String {
        format!(
            "orderly+g{}.{}@example.org",
            self.game,
            seat_secret(SECRET.as_bytes(), self.game, seat)
        )
    }

    /// The player at `seat` of the current game. Each game has players of
    /// its own, as a service's games do: two addresses sending every mail
    /// would make each mail's rate-limit count cover the whole run.
    fn player(&self, seat: Seat) -> String {
        match seat {
            Seat::North => format!("ann{}@example.org", self.game),
            Seat::South => format!("bob{}@example.org", self.game),
        }
    }

    /// The next game: games are numbered in the order they are made.
    fn begin(&mut self) {
        self.game += 1;
        self.model = Squares::new(&GameOptions::default());
        self.opening = vec![
            (
                self.player(Seat::South),
                self.addr(Seat::South),
                "ACCEPT".into(),
            ),
            (
                self.player(Seat::North),
                "orderly@example.org".into(),
                format!("NEW SQUARES VS {}", self.player(Seat::South)),
            ),
        ];
    }

    fn next_mail(&mut self) -> Vec<u8> {
        if self.model.outcome().is_some() {
            self.begin();
        }
        let (from, to, body) = match self.opening.pop() {
            Some(mail) => mail,
            None => {
                let pending = self.model.pending().expect("a decision");
                let legal = self.model.legal_orders();
                let order = legal[self.rng.below(legal.len())];
                self.model.apply(&order).expect("legal");
                (
                    self.player(pending.seat),
                    self.addr(pending.seat),
                    order.to_string(),
                )
            }
        };
        self.count += 1;
        format!(
            "From: {from}\r\nTo: {to}\r\nSubject: bench\r\nMessage-ID: <bench{}@test>\r\n\r\n{body}\r\n",
            self.count
        )
        .into_bytes()
    }
}

/// The fsyncs (fsync, fdatasync, sync_file_range) per mail of one case run
/// again under strace, less those of a run that only opens the service;
/// `None` without strace.
fn count_fsyncs(base: &Path, per_poll: usize) -> Option<f64> {
    let (calls, mails) = traced(base, per_poll, None)?;
    let (opening, _) = traced(base, per_poll, Some(0))?;
    Some(calls.saturating_sub(opening) as f64 / mails.max(1) as f64)
}

/// The fsyncs of the case `per_poll` (over `mails` mails when given) and
/// the mails it processed.
fn traced(base: &Path, per_poll: usize, mails: Option<usize>) -> Option<(u64, u64)> {
    let exe = std::env::current_exe().ok()?;
    let summary = base.join(format!("strace{per_poll}.txt"));
    let mut command = std::process::Command::new("strace");
    command
        .args([
            "-f",
            "-c",
            "-e",
            "trace=fsync,fdatasync,sync_file_range,syncfs",
            "-o",
        ])
        .arg(&summary)
        .arg(exe)
        .args(std::env::args().skip(1))
        .env("ORDERLY_BENCH_ONLY", per_poll.to_string())
        .env("ORDERLY_BENCH_DIR", base.join(format!("traced{per_poll}")));
    if let Some(mails) = mails {
        command.env("ORDERLY_BENCH_MAILS", mails.to_string());
    }
    let output = command.output().ok()?;
    if !output.status.success() {
        return None;
    }
    let mails: u64 = String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("mails "))?
        .trim()
        .parse()
        .ok()?;
    // The summary's last line: "100.00 <seconds> <usecs/call> <calls>
    // [errors] total"; no line at all when nothing was synced.
    let text = std::fs::read_to_string(&summary).ok()?;
    let calls = text
        .lines()
        .find(|l| l.trim_end().ends_with("total"))
        .and_then(|l| l.split_whitespace().nth(3)?.parse::<u64>().ok())
        .unwrap_or(0);
    Some((calls, mails))
}

/// Bytes of the database's pages in use (free pages not counted), read
/// through a connection of its own as any reader would see it.
fn used_bytes(db: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(db).expect("the database");
    let pragma = |name: &str| -> i64 {
        conn.pragma_query_value(None, name, |r| r.get(0))
            .expect("a pragma")
    };
    pragma("page_size") * (pragma("page_count") - pragma("freelist_count"))
}

/// What each order mail leaves in the database: the growth of its used
/// pages over the run, and what of it the outbox holds.
fn storage(db: &std::path::Path, before: i64, mails: usize) {
    let grown = used_bytes(db) - before;
    let conn = rusqlite::Connection::open(db).expect("the database");
    let (rows, body): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM outbox), \
             (SELECT COALESCE(SUM(LENGTH(mail)), 0) FROM outbox_bodies)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("the outbox");
    println!(
        "storage: {} bytes of pages per order mail ({grown} bytes for {mails}); \
         the outbox holds {rows} rows with {body} bytes of mail bodies",
        grown / mails.max(1) as i64
    );
    // Pages are filled as rows come and go; a vacuumed copy shows what the
    // rows themselves take.
    let copy = db.with_extension("vacuumed");
    let _ = std::fs::remove_file(&copy);
    conn.execute("VACUUM INTO ?1", [copy.to_str().expect("a UTF-8 path")])
        .expect("a vacuumed copy");
    let vacuumed = used_bytes(&copy);
    // And once the sweep has deleted the sent mail (past keep_sent_days),
    // what stays for good: the record, the seen Message-IDs.
    let kept = rusqlite::Connection::open(&copy).expect("the copy");
    kept.execute_batch("DELETE FROM outbox WHERE status = 'sent'; VACUUM;")
        .expect("sent mail deleted");
    println!(
        "  vacuumed: {} bytes per order mail; once sent mail is forgotten: {}",
        (vacuumed - before) / mails.max(1) as i64,
        (used_bytes(&copy) - before) / mails.max(1) as i64
    );
}

/// A sweep of the deadlines over many active games, of which a few have a
/// reminder, a late notice or a time-out due: the index on (status,
/// deadline) keeps the sweep to the due games.
fn sweep_bench(base: &std::path::Path, full: bool) {
    use chrono::{Duration as Span, TimeZone, Utc};
    let games: i64 = if full { 100_000 } else { 1_000 };
    let mut store = Store::open(&base.join("sweep.db")).expect("a store");
    let t0 = Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap();
    let setup = Instant::now();
    {
        let tx = store.tx().expect("a transaction");
        let at = Timestamp::from(t0);
        let ann = tx.player("ann@example.org", "", at).expect("a player");
        let bob = tx.player("bob@example.org", "", at).expect("a player");
        for g in 0..games {
            let id = tx
                .create_game("squares", Seat::North, Seat::North, g as u64, None, at)
                .expect("a game");
            tx.set_status(id, GameStatus::Active, at).expect("active");
            // Deadlines spread over 30 days; every 1,000th is due now.
            let offset = if g % 1_000 == 0 {
                Span::hours(1)
            } else {
                Span::minutes(30 * 24 * 60 * (g % 997) / 997 + 26 * 60)
            };
            let deadline = Timestamp::from(t0 + offset);
            if g % 1_000 == 0 {
                tx.add_seat(id, Seat::North, ann, "k1").expect("a seat");
                tx.add_seat(id, Seat::South, bob, "k2").expect("a seat");
            }
            tx.set_deadline(id, Some((Seat::North, deadline)))
                .expect("a deadline");
        }
        tx.commit().expect("committed");
    }
    let setup = setup.elapsed();
    let config = Config::default();
    let mut times = Vec::new();
    for i in 0..5 {
        let tx = store.tx().expect("a transaction");
        let t = Instant::now();
        let report = orderly::service::sweep(&tx, &config, t0 + Span::minutes(i)).expect("a sweep");
        times.push((t.elapsed(), report));
        tx.commit().expect("committed");
    }
    println!(
        "sweep: {games} active games (set up in {setup:.2?}); first sweep {:.2?} ({:?}), \
         then {:.2?}, {:.2?}, {:.2?}, {:.2?} with nothing new due",
        times[0].0, times[0].1, times[1].0, times[2].0, times[3].0, times[4].0
    );
}

/// The daemon's allocator (src/main.rs), so that the figures are the
/// daemon's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
