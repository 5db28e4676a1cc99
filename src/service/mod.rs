//! The service: one incoming mail -> authenticate -> commands -> game ->
//! store -> outbox. The only place where mail, store and games meet.
//!
//! Exactly once: one SQLite transaction records the Message-ID, applies the
//! commands and queues every outgoing mail; the incoming message is moved
//! to `cur/` only after the commit, and the outbox is drained after that.
//! A crash before the commit leaves the message in `new/` and nothing
//! applied; a crash after it leaves a message whose id is recorded, so it
//! is skipped when seen again; a crash while sending leaves mail queued,
//! sent again under the same Message-ID (the file transport overwrites).
//!
//! Every game is handled by code generic over `G: Game`; a stored game says
//! which it is by its name (`GameRow::kind`), and `on_game!` (over
//! [`with_game!`](crate::with_game)) picks the type for it.

/// Evaluates `$body`, a `Result`, with `$G` the game type of the stored
/// game `$row`; a name this orderly does not host is a corrupt store.
macro_rules! on_game {
    ($row:expr, $G:ident => $body:expr) => {{
        // Taken before the body may move the row.
        let (id, kind) = ($row.id, $row.kind.clone());
        match $crate::with_game!(&kind, $G => $body) {
            Some(result) => result,
            None => Err($crate::service::unhosted(id, &kind)),
        }
    }};
}

pub mod admin;
mod clock;
pub mod commands;
pub mod identity;
mod limits;
pub mod lines;
pub mod moderation;
mod notices;
mod rules;
pub mod texts;

use std::time::{Duration, Instant};

use chrono::{DateTime, Timelike, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::clock::Clock;
use crate::config::Config;
use crate::games::hosted;
use crate::games::submission::{release, submit, submit_until_turn, Submission};
use crate::games::{
    seat_named, AnyGame, BoardStyle, Game, GameOptions, GameResult, GameText, Happened, Pending,
    Rejection, Seat,
};
use crate::mail::intake::{self, Incoming};
use crate::mail::maildir::Maildir;
use crate::mail::outgoing::{message_id, AutoKind, FileSender, MailSender, OutgoingMail};
use crate::mail::{bounce, Mailbox, MailboxError};
use crate::record::{Record, Recorder};
use crate::store::{
    result_from_text, result_text, seat_text, EntryKind, GameRow, GameStatus, SeatRow, Store,
    StoreError, Timestamp, Tx,
};

use clock::{claims, start_vacation, vacation_days_used, whole_days, year_start};
pub use clock::{fresh_deadline, sweep, SweepReport};
use commands::Command;
use identity::{claim_from_address, reply_address, seat_secret, secrets_match, Claim};
pub use notices::undeliverable;
use notices::{bounce_received, moderators_of, notify_game, queue_notice};

/// Why the service could not go on (the mail at hand stays in `new/`).
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The Maildir or the outgoing directory failed.
    #[error("mail files: {0}")]
    Io(#[from] std::io::Error),
    /// The incoming mailbox failed.
    #[error(transparent)]
    Mailbox(#[from] MailboxError),
    /// The configuration is unusable.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
}

type Result<T> = std::result::Result<T, ServiceError>;

/// What became of one incoming mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processed {
    /// Its Message-ID (derived from its bytes when it had none).
    pub message_id: String,
    /// The game it was about, if any.
    pub game: Option<i64>,
    /// The seat it acted for, if any.
    pub seat: Option<Seat>,
    /// A short outcome for the log: `ok`, `duplicate`, `ignored: bounce`, ...
    pub outcome: String,
}

/// Counts of one poll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PollReport {
    /// Incoming mails processed.
    pub processed: usize,
    /// Outgoing mails sent.
    pub sent: usize,
    /// Incoming mails that could not be processed (left for the next poll)
    /// plus outgoing mails that failed this time.
    pub failed: usize,
}

/// The running service.
pub struct Service {
    config: Config,
    secret: Vec<u8>,
    store: Store,
    inbox: Box<dyn Mailbox>,
    sender: Box<dyn MailSender>,
    /// When the deadlines were last swept (deadlines are hours apart: a
    /// sweep a minute is plenty, and each costs a commit).
    last_sweep: Option<Instant>,
    /// What "now" is: the system clock, or the one `--now` set.
    clock: Clock,
}

/// Days a SET ADDRESS code may be confirmed from the new address.
const ADDRESS_CODE_DAYS: i64 = 7;

/// How often the daemon sweeps the deadlines.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl Service {
    /// Opens the store, the Maildir and the outgoing directory named by
    /// `config`, creating what is missing.
    pub fn open(config: Config) -> Result<Service> {
        let secret = config.server_secret()?;
        let store = Store::open(&config.store.path)?;
        let inbox: Box<dyn Mailbox> = match &config.intake.imap {
            Some(imap) => Box::new(crate::mail::imap::ImapMailbox::new(imap.clone())?),
            None => Box::new(Maildir::open_or_create(&config.intake.maildir)?),
        };
        let sender: Box<dyn MailSender> = match (&config.outgoing.smtp, &config.outgoing.sendmail) {
            (Some(smtp), _) => {
                Box::new(crate::mail::outgoing::SmtpSender::new(smtp).map_err(|e| {
                    crate::config::ConfigError::Value(format!("[outgoing.smtp]: {e}"))
                })?)
            }
            (None, Some(command)) => Box::new(crate::mail::outgoing::SendmailSender::new(command)),
            (None, None) => {
                crate::private::create_dir_all(&config.outgoing.dir)?;
                Box::new(FileSender::new(&config.outgoing.dir))
            }
        };
        Ok(Service {
            config,
            secret,
            store,
            inbox,
            sender,
            last_sweep: None,
            clock: Clock::system(),
        })
    }

    /// Reads the time from `clock` from now on (the command line's `--now`).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The time now by the service's clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// The store, for the CLI's read-only views.
    pub fn store(&mut self) -> &mut Store {
        &mut self.store
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Processes every mail waiting in the Maildir, then drains the outbox.
    pub fn poll_once(&mut self) -> Result<PollReport> {
        let mut report = PollReport::default();
        // A mailbox that cannot be read now (a server restarting) is
        // logged; the service goes on sending and tries again next poll.
        let read_limit = crate::mail::ReadLimit::of(&self.config.intake.limits());
        let waiting = self.inbox.waiting_within(read_limit).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "incoming mailbox not readable now");
            Vec::new()
        });
        for waiting in waiting {
            let started = Instant::now();
            let now = self.clock.now();
            // A panic in one mail is that mail's failure, not the daemon's:
            // its transaction is dropped (rolled back) while unwinding.
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.process_sized(&waiting.raw, waiting.size, now)
            }));
            let done = match outcome {
                Ok(Ok(done)) => done,
                Ok(Err(e)) => {
                    // The transaction rolled back: the mail stays waiting
                    // and is retried at the next poll; the others go on.
                    tracing::error!(entry = %waiting.key, error = %intake::for_log(&e.to_string()), "mail not processed");
                    self.failed_mail(&waiting, &e.to_string(), now);
                    report.failed += 1;
                    continue;
                }
                Err(panic) => {
                    let why = panic_text(panic.as_ref());
                    tracing::error!(entry = %waiting.key, panic = %intake::for_log(&why), "mail processing panicked");
                    self.failed_mail(&waiting, &format!("panic: {why}"), now);
                    report.failed += 1;
                    continue;
                }
            };
            // Only after the commit: a crash before this line leaves the
            // message waiting, and its recorded id makes the retry a no-op.
            if let Err(e) = self.inbox.mark_done(&waiting.key) {
                // Processed and committed: listed again later, it is a
                // duplicate by its Message-ID and only marked then.
                tracing::warn!(entry = %waiting.key, error = %e, "could not mark mail done");
            }
            report.processed += 1;
            tracing::info!(
                message_id = %intake::for_log(&done.message_id),
                game = done.game,
                seat = done.seat.map(seat_text),
                outcome = %intake::for_log(&done.outcome),
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "mail processed"
            );
        }
        if self.last_sweep.is_none_or(|t| t.elapsed() >= SWEEP_EVERY) {
            self.last_sweep = Some(Instant::now());
            let swept = self.sweep(self.clock.now())?;
            if swept.reminders + swept.late + swept.timed_out > 0 {
                tracing::info!(?swept, "deadlines swept");
            }
        }
        let (sent, failed) = self.drain_outbox(self.clock.now())?;
        report.sent = sent;
        report.failed += failed;
        Ok(report)
    }

    /// Counts a failed attempt at `waiting`; at the configured limit the
    /// mail is set aside in the quarantine and the moderators are told, so
    /// that one mail never blocks the queue (nor restarts).
    fn failed_mail(&mut self, waiting: &crate::mail::Waiting, error: &str, now: DateTime<Utc>) {
        let digest = content_digest(&[&waiting.raw]);
        // A panic's message may quote the mail (a subject cut in the wrong
        // place): printable before it is stored, logged or sent on.
        let error: String = intake::printable(error).chars().take(500).collect();
        let limit = i64::from(self.config.intake.max_attempts.max(1));
        let counted = (|| -> Result<i64> {
            let tx = self.store.tx()?;
            let attempts = tx.intake_failed(&digest, &error, now.into())?;
            tx.commit()?;
            Ok(attempts)
        })();
        let attempts = match counted {
            Ok(n) => n,
            Err(e) => {
                // Without a store nothing can be counted; the mail waits.
                tracing::error!(entry = %waiting.key, error = %e, "could not count the failure");
                return;
            }
        };
        if attempts < limit {
            return;
        }
        if let Err(e) = self.inbox.quarantine(&waiting.key) {
            tracing::error!(entry = %waiting.key, error = %e, "could not set the mail aside");
            return;
        }
        tracing::warn!(entry = %waiting.key, attempts, %error, "mail set aside in the quarantine");
        let told = (|| -> Result<()> {
            let tx = self.store.tx()?;
            notices::poison_notice(
                &tx,
                &self.config,
                &waiting.key,
                &digest,
                &error,
                attempts,
                now,
            )?;
            tx.intake_succeeded(&digest)?;
            tx.commit()?;
            Ok(())
        })();
        if let Err(e) = told {
            tracing::error!(entry = %waiting.key, error = %e, "could not tell the moderators");
        }
    }

    /// Polls until `stop` is set (SIGINT/SIGTERM), sleeping the configured
    /// interval between polls in short steps so a stop is prompt. A mail
    /// being processed is finished first: its transaction is never cut.
    pub fn serve(&mut self, stop: &std::sync::atomic::AtomicBool) -> Result<()> {
        use std::sync::atomic::Ordering;
        let interval = Duration::from_secs(self.config.service.poll_interval_secs);
        tracing::info!(
            inbox = %self.config.intake.maildir.display(),
            store = %self.config.store.path.display(),
            sent = %self.config.outgoing.dir.display(),
            "orderly serving"
        );
        while !stop.load(Ordering::SeqCst) {
            // A failing poll (a full disk, a locked database, a bug) is
            // logged and tried again: the daemon never stops on its own.
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.poll_once())) {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::error!(error = %e, "poll failed; trying again"),
                Err(panic) => {
                    tracing::error!(panic = %intake::for_log(&panic_text(panic.as_ref())), "poll panicked; trying again")
                }
            }
            if let Err(e) = self.inbox.wait(interval, stop) {
                tracing::warn!(error = %e, "waiting for mail failed; polling instead");
                crate::mail::sleep_unless_stopped(interval, stop);
            }
        }
        tracing::info!("orderly stopped");
        Ok(())
    }

    /// Carries out one moderator command from the command line (as
    /// `cli:<moderator>`), then sends the announcements.
    pub fn moderate(&mut self, line: &str, moderator: &str, now: DateTime<Utc>) -> Result<String> {
        let tx = self.store.tx()?;
        // Dropping the transaction unused, on a line not understood, changes nothing.
        let action = match moderation::parse(line, |id| kind_of(&tx, id)) {
            Ok(a) => a,
            Err(usage) => return Ok(format!("Not understood: {usage}")),
        };
        let seed = format!("cli/{}/{}", Timestamp::from(now), line);
        let cx = moderation::Context {
            config: &self.config,
            secret: &self.secret,
            moderator,
            now,
            seed: &seed,
        };
        let report = moderation::execute(&tx, &cx, &action)?;
        tx.commit()?;
        self.drain_outbox(now)?;
        Ok(report)
    }

    /// The address a moderator writes commands to by mail.
    pub fn moderator_address(&self, moderator: &str) -> String {
        let key = identity::moderator_secret(&self.secret, moderator);
        let (local, domain) = self.config.address_parts();
        format!("{local}+mod.{key}@{domain}")
    }

    /// Sweeps the deadlines at `now` in one transaction (see [`sweep`]).
    pub fn sweep(&mut self, now: DateTime<Utc>) -> Result<SweepReport> {
        let tx = self.store.tx()?;
        let report = sweep(&tx, &self.config, now)?;
        tx.commit()?;
        Ok(report)
    }

    /// Sends every mail due in the outbox, marking each sent or failed.
    pub fn drain_outbox(&mut self, now: DateTime<Utc>) -> Result<(usize, usize)> {
        let (mut sent, mut failed) = (0, 0);
        loop {
            let due = {
                let tx = self.store.tx()?;
                let due = tx.due_mail(now.into(), 50)?;
                tx.commit()?;
                due
            };
            if due.is_empty() {
                break;
            }
            let results = self.send_batch(&due);
            // One transaction marks the batch: a crash before it sends the
            // batch again under the same Message-IDs (at least once).
            let tx = self.store.tx()?;
            for (row, result) in due.iter().zip(results) {
                match result {
                    Ok(()) => {
                        tx.mark_sent(row.id, self.clock.now().into())?;
                        sent += 1;
                    }
                    Err((permanent, error)) => {
                        // Backoff doubles from retry_base_secs, twelve
                        // times; a permanent failure is not retried.
                        let base = self.config.outgoing.retry_base_secs;
                        let retry = (!permanent && row.attempts < 12).then(|| {
                            let wait = Duration::from_secs(base << row.attempts.min(10));
                            Timestamp::from(
                                now + chrono::Duration::from_std(wait).unwrap_or_default(),
                            )
                        });
                        tracing::warn!(message_id = %row.message_id, %error, permanent, "send failed");
                        tx.mark_failed(row.id, &error, retry)?;
                        if retry.is_none() {
                            let why = format!("mail to it failed: {error}");
                            undeliverable(&tx, &self.config, row.id, &why, now)?;
                        }
                        failed += 1;
                    }
                }
            }
            tx.commit()?;
            if failed > 0 {
                break;
            }
        }
        Ok((sent, failed))
    }

    /// Sends a batch of outbox mails, several at a time: a relay answers
    /// each mail after tens of milliseconds, and one at a time would make
    /// those waits the service's limit. Results come in the batch's order.
    fn send_batch(&self, due: &[crate::store::OutboxRow]) -> Vec<SendResult> {
        const PARALLEL: usize = 8;
        // Only what the threads share, not the whole service (its database
        // connection and mailbox stay on this thread).
        let sender: &dyn MailSender = self.sender.as_ref();
        let (local, domain, secret, html) = (
            self.config.bounces.local.as_str(),
            self.config.address_parts().1,
            self.secret.as_slice(),
            self.config.outgoing.html,
        );
        let send = move |row: &crate::store::OutboxRow| match serde_json::from_str::<OutgoingMail>(
            &row.mail,
        ) {
            Ok(mut mail) => {
                mail.return_path = Some(bounce::verp_address(local, domain, row.id, secret));
                mail.text_only = !html;
                sender
                    .send(&mail)
                    .map_err(|e| (e.is_permanent(), e.to_string()))
            }
            Err(e) => Err((true, format!("unreadable outbox entry: {e}"))),
        };
        // A send that panics is that mail's failure (tried again later).
        let send = move |row: &crate::store::OutboxRow| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| send(row))).unwrap_or_else(
                |p| {
                    Err((
                        false,
                        format!("sending panicked: {}", panic_text(p.as_ref())),
                    ))
                },
            )
        };
        if due.len() <= 1 {
            return due.iter().map(send).collect();
        }
        // Each worker takes the next mail waiting, so a slow or failing mail
        // (a server that takes its time to refuse one address) holds up one
        // worker, never the mails queued behind it.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<std::sync::Mutex<Option<SendResult>>> =
            due.iter().map(|_| std::sync::Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..PARALLEL.min(due.len()) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(row) = due.get(i) else { break };
                    let result = send(row);
                    if let Ok(mut slot) = results[i].lock() {
                        *slot = Some(result);
                    }
                });
            }
        });
        results
            .into_iter()
            .map(|slot| {
                slot.into_inner()
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| Err((false, "not sent".to_string())))
            })
            .collect()
    }

    /// Processes one incoming mail in one transaction.
    pub fn process(&mut self, raw: &[u8], now: DateTime<Utc>) -> Result<Processed> {
        self.process_sized(raw, raw.len(), now)
    }

    /// Processes one incoming mail of `size` bytes, of which `raw` was read
    /// (all, or only its head when it is larger than the service reads).
    pub fn process_sized(
        &mut self,
        raw: &[u8],
        size: usize,
        now: DateTime<Utc>,
    ) -> Result<Processed> {
        let limits = self.config.intake.limits();
        if size.max(raw.len()) > limits.max_mail_bytes {
            return self.too_large(raw, size.max(raw.len()), now);
        }
        let parsed = intake::parse_with(raw, &limits);
        let message_id = parsed
            .as_ref()
            .ok()
            .and_then(|m| m.message_id.clone())
            .unwrap_or_else(|| derived_message_id(&[raw]));
        let at = Timestamp::from(now);
        let config = self.config.clone();
        let secret = self.secret.clone();
        let tx = self.store.tx()?;
        let mut done = Processed {
            message_id: message_id.clone(),
            game: None,
            seat: None,
            outcome: String::new(),
        };
        if tx.message_seen(&message_id)? {
            done.outcome = "duplicate".into();
            return Ok(done);
        }
        let incoming = match parsed {
            Ok(m) => m,
            Err(e) => {
                // Without headers there is nobody to answer.
                done.outcome = format!("ignored: unreadable: {e}");
                tx.record_message(&message_id, "", at, &done.outcome)?;
                tx.commit()?;
                return Ok(done);
            }
        };
        let sender = incoming
            .from
            .as_ref()
            .map(|a| a.address.to_ascii_lowercase())
            .unwrap_or_default();
        if incoming.automatic == Some(intake::Automatic::Bounce) || incoming.sender_is_null {
            // Never answered: matched by its VERP address to the exact
            // mail that bounced, counted, and told to those concerned.
            let bounded = intake::bounded(raw, &limits);
            done.outcome = bounce_received(&tx, &config, &secret, &bounded, &message_id, now)?;
            tx.record_message(&message_id, &sender, at, &done.outcome)?;
            tx.commit()?;
            return Ok(done);
        }
        let ignore = if let Some(auto) = &incoming.automatic {
            Some(format!("ignored: automatic ({auto:?})"))
        } else if let Some(problem) = incoming.sender_problem {
            // Never acted on as the first of its authors.
            Some(format!("ignored: ambiguous sender ({problem})"))
        } else if sender.is_empty() {
            Some("ignored: no sender".to_string())
        } else if incoming.is_from(&config.service.address)
            || identity::is_own_address(&config, &sender)
        {
            Some("ignored: from orderly itself".to_string())
        } else if identity::is_no_reply(&sender) {
            // Nobody reads an answer to a no-reply address; answering one
            // only feeds loops and backscatter.
            Some("ignored: from a no-reply address".to_string())
        } else if incoming
            .recipients()
            .any(|to| identity::is_bounce_address(&config, to))
        {
            Some("ignored: sent to the bounce address".to_string())
        } else if carries_a_key(&incoming, &config)
            && tx.digest_seen(&replay_digest(&incoming, &sender))?
        {
            // The same sender, Date and words as a mail already taken: a
            // copy sent again under a new Message-ID (a replay), not a new
            // mail. A player who means the same again writes a new mail,
            // which has its own Date.
            Some("ignored: replay of an earlier mail".to_string())
        } else {
            let hour_ago = Timestamp::from(now - chrono::Duration::hours(1));
            let recent = tx.messages_since(&sender, hour_ago)?;
            let commands = tx.commands_since(&sender, hour_ago)?;
            if recent >= i64::from(config.service.rate_limit_per_hour) {
                Some(format!(
                    "ignored: rate limit ({recent} mails in the last hour)"
                ))
            } else if commands >= i64::from(config.service.commands_per_hour) {
                Some(format!(
                    "ignored: rate limit ({commands} commands in the last hour)"
                ))
            } else {
                None
            }
        };
        if let Some(reason) = ignore {
            done.outcome = reason;
            tx.record_message(&message_id, &sender, at, &done.outcome)?;
            tx.commit()?;
            return Ok(done);
        }
        let mut work = Work {
            config: &config,
            secret: &secret,
            tx: &tx,
            incoming: &incoming,
            message_id: &message_id,
            sender: &sender,
            at,
            now,
            items: Vec::new(),
            parts: Vec::new(),
            outgoing: Vec::new(),
            game: None,
            written: Default::default(),
            taken: 0,
            ignored: 0,
            warned: Default::default(),
            echoed: Vec::new(),
            incoming_size: raw.len(),
            board_shown: Default::default(),
            commands: 0,
            answered: Default::default(),
            stranger: false,
            press: Vec::new(),
        };
        // Until a player chooses a time zone, the offset of their mail's
        // Date: is the best guess of where they read it.
        let guessed = incoming
            .date
            .and_then(|d| zone_of_offset(d.offset().local_minus_utc()));
        if let Some(zone) = guessed {
            tx.guess_timezone(&sender, zone)?;
        }
        work.run()?;
        work.note_unread();
        if let Some(zone) = guessed {
            tx.guess_timezone(&sender, zone)?;
        }
        done.game = work.game.as_ref().map(|(g, _)| g.id);
        done.seat = work.game.as_ref().map(|(_, s)| s.seat);
        done.outcome = work.outcome();
        work.queue_reply()?;
        tx.record_message(&message_id, &sender, at, &done.outcome)?;
        tx.set_message_commands(&message_id, work.commands.max(1))?;
        if incoming.date.is_some() && carries_a_key(&incoming, &config) {
            tx.set_message_digest(&message_id, &replay_digest(&incoming, &sender))?;
        }
        tx.commit()?;
        Ok(done)
    }
}

/// The time control a `NEW` asks for.
struct TimeControl {
    days: Option<u32>,
    clock: Option<(u32, u32, Option<u32>)>,
    timeout: Option<String>,
    moderator: Option<String>,
}

/// One echoed line of the reply: what was understood, what was done.
#[derive(Clone, Debug, Serialize)]
struct Item {
    line: String,
    answer: String,
    #[serde(skip)]
    refused: bool,
}

/// The processing of one mail, inside its transaction.
struct Work<'a> {
    config: &'a Config,
    secret: &'a [u8],
    tx: &'a Tx<'a>,
    incoming: &'a Incoming,
    message_id: &'a str,
    sender: &'a str,
    at: Timestamp,
    now: DateTime<Utc>,
    items: Vec<Item>,
    /// Further sections of the reply (boards, help, lists).
    parts: Vec<String>,
    /// Mails to others, queued with the reply.
    outgoing: Vec<(OutgoingMail, Option<(i64, Seat)>)>,
    /// The game the mail acts on, once authenticated.
    game: Option<(GameRow, SeatRow)>,
    /// The lines as written, by the text read from them (an order without
    /// the greeting before it): the reply quotes what the player wrote.
    written: std::collections::HashMap<String, String>,
    /// Orders of this mail taken.
    taken: usize,
    /// Lines of this mail ignored as prose.
    ignored: usize,
    /// The games whose seat owner was warned of this mail using their key.
    warned: std::collections::BTreeSet<i64>,
    /// The events the reply's echo already tells, in words: the sender's
    /// own update does not tell them again.
    echoed: Vec<String>,
    /// The incoming mail's size in bytes (the reply is capped by it).
    incoming_size: usize,
    /// The games whose board this reply carries already.
    board_shown: std::collections::BTreeSet<i64>,
    /// Commands and orders read from this mail so far.
    commands: i64,
    /// The informing commands answered already (once per mail each).
    answered: std::collections::BTreeSet<String>,
    /// Whether the sender wrote with a key that is not theirs (a stranger
    /// to the game): the reply is kept to one short answer.
    stranger: bool,
    /// Messages (SAY) for the opponents not sent yet: (game, writer's
    /// seat, words). They go with the update mail, or alone at the end.
    press: Vec<(i64, Seat, String)>,
}

impl Work<'_> {
    fn item(&mut self, line: &str, answer: impl Into<String>, refused: bool) {
        let line = self.written.get(line).map_or(line, String::as_str);
        // The echo of what was written is for recognising the line, not a
        // copy of it: a long line is cut (no amplification of its text).
        const ECHO_CHARS: usize = 120;
        let echo = if line.chars().count() > ECHO_CHARS {
            let cut: String = line.chars().take(ECHO_CHARS).collect();
            format!("{cut}... (cut)")
        } else {
            line.to_string()
        };
        self.items.push(Item {
            line: echo,
            answer: texts::wrap(&answer.into()).trim_end().to_string(),
            refused,
        });
    }

    fn domain(&self) -> &str {
        self.config.address_parts().1
    }

    fn sender_mailbox(&self) -> String {
        format!(
            "{} <{}>",
            self.config.service.name, self.config.service.address
        )
    }

    /// The game named by the recipients or a `GAME` line, if any.
    fn claim(&self, lines: &[&str]) -> Option<Claim> {
        let service = &self.config.service.address;
        let recipients = self
            .incoming
            .to
            .iter()
            .chain(&self.incoming.cc)
            .chain(&self.incoming.delivered_to);
        recipients
            .filter_map(|a| claim_from_address(service, a))
            .next()
            .or_else(|| lines.iter().find_map(|l| identity::claim_from_line(l)))
    }

    /// The moderator key this mail was sent to (`orderly+mod.<key>@host`).
    fn moderator_key(&self) -> Option<String> {
        let (local, domain) = self.config.address_parts();
        self.incoming.recipients().find_map(|a| {
            let (l, d) = a.rsplit_once('@')?;
            if !d.eq_ignore_ascii_case(domain) {
                return None;
            }
            let (base, sub) = l.split_once('+')?;
            let key = sub.strip_prefix("mod.")?;
            base.eq_ignore_ascii_case(local)
                .then(|| key.to_ascii_lowercase())
        })
    }

    /// Whether the action is about a game that names the sender as its
    /// own moderator.
    fn own_game(&self, action: &moderation::Action) -> Result<bool> {
        Ok(match moderation::game_of(action) {
            Some(game) => self
                .tx
                .game_moderator(game)?
                .is_some_and(|m| m.eq_ignore_ascii_case(self.sender)),
            None => false,
        })
    }

    /// A mail to a moderator address: every line a moderator command, taken
    /// only from a configured moderator writing to their own key.
    fn moderator_mail(&mut self, key: &str, lines: &[&str]) -> Result<()> {
        let is_moderator = self
            .config
            .moderators
            .addresses
            .iter()
            .any(|a| a.eq_ignore_ascii_case(self.sender));
        let moderates_a_game = !is_moderator && self.tx.moderates_any(self.sender)?;
        let asked = self.tx.moderation_asked(self.sender)?;
        let own_key = identity::moderator_secret(self.secret, self.sender);
        if !(is_moderator || moderates_a_game || !asked.is_empty()) || !secrets_match(&own_key, key)
        {
            self.item(
                lines.first().copied().unwrap_or("(nothing)"),
                "Refused: this address takes commands only from a moderator writing \
                 to their own moderator address. Nothing was done.",
                true,
            );
            return Ok(());
        }
        for line in lines {
            // A game's own moderator is appointed by accepting, by mail.
            if let Some((accept, game)) = moderation_answer(line) {
                let answer = if asked.contains(&game) {
                    self.tx.answer_moderation(game, accept)?;
                    let row = self.reload(game)?;
                    let words = if accept {
                        format!("{} accepted to moderate game {game}.", self.sender)
                    } else {
                        format!(
                            "{} declined to moderate game {game}; it has no moderator of its own.",
                            self.sender
                        )
                    };
                    let seed = format!("{}/moderation/{game}", self.message_id);
                    notify_game(
                        self.tx,
                        self.config,
                        &row,
                        |_| true,
                        &texts::wrap(&words),
                        &seed,
                        self.now,
                    )?;
                    (words, false)
                } else {
                    (
                        format!("Refused: game {game} has not asked you to moderate it."),
                        true,
                    )
                };
                self.item(line, answer.0, answer.1);
                continue;
            }
            let report = match moderation::parse(line, |id| kind_of(self.tx, id)) {
                // A game's own moderator acts on that game only.
                Ok(action) if !is_moderator && !self.own_game(&action)? => {
                    "Refused: you moderate only the games that name you, once you \
                     accepted (ACCEPT MODERATION <game>)."
                        .to_string()
                }
                Ok(action) => {
                    let seed = format!("{}/{line}", self.message_id);
                    let cx = moderation::Context {
                        config: self.config,
                        secret: self.secret,
                        moderator: self.sender,
                        now: self.now,
                        seed: &seed,
                    };
                    moderation::execute(self.tx, &cx, &action)?
                }
                Err(usage) => format!("Not understood: {usage}"),
            };
            let refused = report.starts_with("Refused") || report.starts_with("Not understood");
            self.item(line, report, refused);
        }
        Ok(())
    }

    fn run(&mut self) -> Result<()> {
        let text = self.incoming.text.clone();
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if let Some(key) = self.moderator_key() {
            return self.moderator_mail(&key, &lines);
        }
        if lines.is_empty() {
            self.item(
                "(nothing)",
                "This mail has no command or order in it (quoted lines and \
                 signatures are not read). Write HELP for the commands.",
                true,
            );
            return Ok(());
        }
        let claim = self.claim(&lines);
        // A mail with its seat's key from its seat's address is answered in
        // that game's thread (Reply-To with the key) even when none of its
        // lines is a command, so that the player's next reply still counts.
        if let Some(claim) = &claim {
            if let Some(game) = self.tx.game(claim.game)? {
                let seat =
                    self.tx.seats(game.id)?.into_iter().find(|s| {
                        secrets_match(&s.secret, &claim.secret) && s.address == self.sender
                    });
                if let Some(seat) = seat {
                    self.game = Some((game, seat));
                }
            }
        }
        let reader = self.line_reader(claim.as_ref())?;
        let mut orders: Vec<String> = Vec::new();
        // Prose not yet listed: it is listed in its place, but after the
        // orders around it, which are answered together.
        let mut prose: Vec<(String, Option<&'static str>)> = Vec::new();
        let mut read_any = false;
        for (index, written) in lines.iter().enumerate() {
            let (command, text, alone) = match reader.read(written) {
                lines::Reading::Prose { hint } => {
                    if written.chars().any(char::is_alphanumeric) {
                        prose.push((written.to_string(), hint));
                    }
                    continue;
                }
                lines::Reading::Order(text) => (Command::Order(text.clone()), text, false),
                lines::Reading::Mixed(text) => (Command::Order(text.clone()), text, true),
                lines::Reading::Command { command, text } => (command, text, false),
            };
            read_any = true;
            self.commands += 1;
            if self.commands > i64::from(self.config.service.max_commands_per_mail) {
                // A bound on what one mail may ask: the rest is not read.
                let left = lines.len() - index + self.incoming.unread.lines;
                self.item(
                    "(the rest of this mail)",
                    format!(
                        "Not read: {left} more line(s). A mail carries at most {} \
                         commands and orders; send the rest in another mail.",
                        self.config.service.max_commands_per_mail
                    ),
                    true,
                );
                break;
            }
            if text != *written {
                self.written.insert(text.clone(), written.to_string());
            }
            let line = text.as_str();
            if (alone || !matches!(command, Command::Order(_))) && !orders.is_empty() {
                self.orders(&std::mem::take(&mut orders), claim.as_ref())?;
            }
            if orders.is_empty() {
                self.ignore(&mut prose);
            }
            if alone {
                self.orders(std::slice::from_ref(&text), claim.as_ref())?;
                continue;
            }
            match command {
                Command::Order(l) => orders.push(l),
                Command::Game(_) => {}
                // What only informs is answered once a mail, however often
                // asked (no amplification).
                Command::Help
                | Command::HelpRules(_)
                | Command::HelpBoard
                | Command::HelpMoves(_)
                | Command::Games
                | Command::History
                | Command::Board
                    if !self.answered.insert(format!("{command:?}")) =>
                {
                    self.item(line, "Answered once, above.", false);
                }
                Command::Help => {
                    self.item(line, "The commands are below.", false);
                    self.parts.push(texts::render(
                        "help",
                        minijinja::context! { games => hosted_games() },
                    ));
                }
                Command::HelpRules(game) => {
                    self.help_rules(line, game.as_deref(), claim.as_ref())?
                }
                Command::Games => self.games(line)?,
                Command::New {
                    game,
                    opponent,
                    side,
                    first,
                    days,
                    clock,
                    timeout,
                    moderator,
                } => self.new_game(
                    line,
                    &game,
                    &opponent,
                    side.as_deref(),
                    first.as_deref(),
                    TimeControl {
                        days,
                        clock,
                        timeout,
                        moderator,
                    },
                )?,
                // A change to a player needs the player's key, as an order
                // does: a bare From is easily forged.
                Command::SetDigest(_)
                | Command::SetTimezone(_)
                | Command::Vacation(_)
                | Command::SetReminders(_)
                    if !self.holds_a_key(line, claim.as_ref())? => {}
                Command::SetDigest(on) => {
                    let player = self.tx.player(self.sender, "", self.at)?;
                    self.tx.set_digest(player, on)?;
                    let what = if on {
                        "You will get one mail a day listing your games and deadlines, \
                         instead of reminders."
                    } else {
                        "Daily digest off; reminders come per game again."
                    };
                    self.item(line, what, false);
                }
                Command::SetTimezone(zone) => self.set_timezone(line, &zone)?,
                Command::Vacation(span) => self.vacation(line, span)?,
                Command::BadVacation(why) => {
                    self.item(line, format!("Not understood: {why}."), true)
                }
                Command::SetReminders(on) => {
                    let player = self.tx.player(self.sender, "", self.at)?;
                    self.tx.set_reminders(player, on)?;
                    let what = if on { "on" } else { "off" };
                    self.item(
                        line,
                        format!("Reminders are {what} for all your games."),
                        false,
                    );
                }
                Command::BadNew(why) => self.item(line, format!("Not understood: {why}."), true),
                Command::ConfirmAddress(code) => self.confirm_address(line, &code)?,
                other => {
                    if let Some((game, seat)) = self.authenticate(line, claim.as_ref())? {
                        on_game!(game, G => self.game_command::<G>(line, other, game, seat))?;
                    }
                }
            }
        }
        if !orders.is_empty() {
            self.orders(&orders, claim.as_ref())?;
        }
        self.ignore(&mut prose);
        if !read_any {
            self.parts.push(texts::wrap(
                "This mail has no command or order in it (quoted lines and \
                 signatures are not read). Write HELP for the commands.",
            ));
        }
        self.send_press()
    }

    /// Whether this mail carries the key of one of the sender's seats (a
    /// reply to orderly's mail about a game, or a GAME line); if not, the
    /// line is refused saying how to send it.
    fn holds_a_key(&mut self, line: &str, claim: Option<&Claim>) -> Result<bool> {
        if claim.is_none() {
            self.item(
                line,
                "Refused: settings change only with your key, so that nobody can \
                 change them in your name. Send this line in a reply to a mail \
                 orderly sent you about one of your games (its reply address \
                 carries the key), or add a line GAME <number> <key>. Nothing was \
                 changed.",
                true,
            );
            return Ok(false);
        }
        Ok(self.authenticate(line, claim)?.is_some())
    }

    /// Sends the messages (SAY) no update mail carried.
    fn send_press(&mut self) -> Result<()> {
        for (game, from, words) in std::mem::take(&mut self.press) {
            let row = self.reload(game)?;
            self.notify_other(&row, from, words)?;
        }
        Ok(())
    }

    /// The game and seat this mail may act for, or an item saying why not
    /// (and, for someone else's key, a warning to the seat's owner).
    fn authenticate(
        &mut self,
        line: &str,
        claim: Option<&Claim>,
    ) -> Result<Option<(GameRow, SeatRow)>> {
        let Some(claim) = claim else {
            self.item(
                line,
                "Refused: this mail names no game. Reply to orderly's mail about \
                 the game (its reply address carries your key), or add a line \
                 GAME <number> <key>. Nothing was done.",
                true,
            );
            return Ok(None);
        };
        let Some(game) = self.tx.game(claim.game)? else {
            self.stranger = true;
            self.item(
                line,
                format!(
                    "Refused: there is no game {}. Nothing was done.",
                    claim.game
                ),
                true,
            );
            return Ok(None);
        };
        let seats = self.tx.seats(game.id)?;
        let Some(seat) = seats
            .iter()
            .find(|s| secrets_match(&s.secret, &claim.secret))
            .cloned()
        else {
            self.stranger |= !seats.iter().any(|s| s.address == self.sender);
            self.item(
                line,
                format!(
                    "Refused: {:?} is not a key of game {}. Reply to orderly's own mail \
                     about the game. Nothing was done.",
                    claim.secret, game.id
                ),
                true,
            );
            return Ok(None);
        };
        if seat.address != self.sender {
            let seats = self.tx.seats(game.id)?;
            let answer = match seats.iter().find(|s| s.address == self.sender) {
                // A player who answered the opponent's copy of a mail.
                Some(own) => format!(
                    "Refused: you wrote to the address of the {} seat of game {}, \
                     your opponent's. You play {}: reply to a mail orderly sent \
                     you, whose reply address carries your own key. Nothing was done.",
                    side_name(&game, seat.seat),
                    game.id,
                    side_name(&game, own.seat)
                ),
                // A stranger learns nothing about whose key this is.
                None => {
                    self.stranger = true;
                    format!(
                        "Refused: game {} takes orders only from its players' own \
                     addresses. Nothing was done.",
                        game.id
                    )
                }
            };
            self.item(line, answer, true);
            // One warning to the key's owner per mail, however many lines.
            if !self.warned.insert(game.id) {
                return Ok(None);
            }
            let body = texts::render(
                "intruder",
                minijinja::context! {
                    sender => self.sender,
                    game => game.id,
                    side => side_name(&game, seat.seat),
                    owner => seat.address,
                },
            );
            let subject = game_subject(&game, Some(seat.seat));
            self.send_to(
                &game,
                &seat,
                subject,
                texts::wrap(&body),
                AutoKind::Generated,
                "intruder",
            )?;
            return Ok(None);
        }
        // A player's display name is learnt from their own mail.
        if let Some(name) = self.incoming.from.as_ref().and_then(|a| a.name.clone()) {
            self.tx.player(self.sender, &name, self.at)?;
        }
        self.game = Some((game.clone(), seat.clone()));
        Ok(Some((game, seat)))
    }

    fn games(&mut self, line: &str) -> Result<()> {
        let player = self.tx.player(self.sender, "", self.at)?;
        let mut list = Vec::new();
        for g in self.tx.games_of(player)? {
            let seats = self.tx.seats(g.id)?;
            let me = seats.iter().find(|s| s.player_id == player);
            let other = seats
                .iter()
                .find(|s| s.player_id != player || seats.len() == 1);
            let side = me.map(|s| side_name(&g, s.seat)).unwrap_or("?");
            let vs = other.map(|s| s.address.as_str()).unwrap_or("?");
            let (zone, _) = self.tx.player_settings(self.sender)?;
            let paused = self
                .tx
                .paused_until(g.id)?
                .map(|until| format!(", paused until {}", local_time(until.utc(), &zone)))
                .unwrap_or_default();
            let state = match g.status {
                GameStatus::Active => match pending_of(&g) {
                    Some(p) if Some(p.seat) == me.map(|s| s.seat) => {
                        format!("your turn{paused}")
                    }
                    Some(p) => format!("waiting for {}{paused}", side_name(&g, p.seat)),
                    None => "over".to_string(),
                },
                GameStatus::Invited => "invitation open".to_string(),
                GameStatus::Finished => {
                    let winner = match g.result {
                        Some(GameResult::Draw) => "a draw".to_string(),
                        Some(GameResult::Win(w)) if Some(w) == me.map(|s| s.seat) => {
                            format!("you won as {}", side_name(&g, w))
                        }
                        Some(GameResult::Win(w)) => format!("{} won", side_name(&g, w)),
                        None => "over".to_string(),
                    };
                    format!(
                        "finished, {winner}{}",
                        g.termination
                            .as_deref()
                            .map(|t| format!(" ({t})"))
                            .unwrap_or_default()
                    )
                }
                other => format!(
                    "{other}{}",
                    g.termination
                        .as_deref()
                        .map(|t| format!(", {t}"))
                        .unwrap_or_default()
                ),
            };
            list.push(format!(
                "game {}: {} as {side} vs {vs}: {state}",
                g.id,
                g.kind.to_ascii_uppercase()
            ));
        }
        self.item(line, format!("{} game(s).", list.len()), false);
        self.parts.push(texts::wrap(&texts::render(
            "games",
            minijinja::context! { games => list, hosted => hosted_games() },
        )));
        Ok(())
    }

    fn new_game(
        &mut self,
        line: &str,
        game: &str,
        opponent: &str,
        side: Option<&str>,
        first: Option<&str>,
        time: TimeControl,
    ) -> Result<()> {
        let Some(name) = hosted::canonical(game) else {
            self.item(
                line,
                format!(
                    "Refused: {game:?} is not a game here; orderly hosts {} (each with \
                     its sides for AS and FIRST).",
                    hosted::listing()
                ),
                true,
            );
            return Ok(());
        };
        crate::with_game!(name, G => self.new_game_of::<G>(line, opponent, side, first, time))
            .unwrap_or(Ok(()))
    }

    /// `NEW <game> ...` for the hosted game `G`: the sides are its own.
    fn new_game_of<G: GameText>(
        &mut self,
        line: &str,
        opponent: &str,
        side: Option<&str>,
        first: Option<&str>,
        time: TimeControl,
    ) -> Result<()> {
        if opponent == self.sender || identity::is_own_address(self.config, opponent) {
            self.item(line, "Refused: name the other player's address.", true);
            return Ok(());
        }
        if let Err(why) = identity::check_mailbox(opponent) {
            self.item(line, format!("Refused: {why}. Nothing was done."), true);
            return Ok(());
        }
        if let Some(moderator) = &time.moderator {
            // A moderator is a third person, appointed, never self-appointed.
            let why = identity::check_mailbox(moderator).err().or_else(|| {
                (moderator == self.sender
                    || moderator == opponent
                    || identity::is_own_address(self.config, moderator))
                .then(|| "the game's moderator must be neither player nor orderly".to_string())
            });
            if let Some(why) = why {
                self.item(line, format!("Refused: {why}. Nobody was invited."), true);
                return Ok(());
            }
        }
        let seat_of = |name: Option<&str>, default: Seat| match name {
            None => Some(default),
            Some(n) => seat_named::<G>(n),
        };
        let (Some(mine), Some(first)) = (seat_of(side, Seat::North), seat_of(first, Seat::North))
        else {
            let [north, south] = Seat::BOTH.map(|s| G::seat_name(s).to_ascii_uppercase());
            self.item(
                line,
                format!("Refused: the sides are {north} and {south} (AS {north}, FIRST {south})."),
                true,
            );
            return Ok(());
        };
        let name = self
            .incoming
            .from
            .as_ref()
            .and_then(|a| a.name.clone())
            .unwrap_or_default();
        let me = self.tx.player(self.sender, &name, self.at)?;
        // One mail (or many) cannot make orderly invite a crowd.
        let day_ago = self.now - chrono::Duration::days(1);
        let (today, open) = self.tx.invitations_by(me, day_ago.into())?;
        let service = &self.config.service;
        let limit = if open >= i64::from(service.max_open_invitations) {
            Some(format!(
                "you have {open} invitations waiting for an answer, the most one \
                 player may have open; wait for an answer (or their expiry)"
            ))
        } else if today >= i64::from(service.max_invitations_per_day) {
            Some(format!(
                "you sent {today} invitations in the last 24 hours, the most this \
                 server takes; try again tomorrow"
            ))
        } else {
            None
        };
        if let Some(why) = limit {
            self.item(line, format!("Refused: {why}. Nobody was invited."), true);
            return Ok(());
        }
        let them = self.tx.player(opponent, "", self.at)?;
        let seed = identity::game_seed(self.secret, self.message_id, line);
        let id = self.tx.create_game(G::NAME, first, mine, seed, self.at)?;
        let days = time.days.unwrap_or(self.config.deadlines.turn_days);
        self.tx.set_turn_days(id, i64::from(days))?;
        if let Some(policy) = &time.timeout {
            self.tx.set_timeout_policy(id, policy)?;
        }
        if let Some(moderator) = &time.moderator {
            self.tx.set_game_moderator(id, moderator)?;
        }
        let moderator_asked = time.moderator.clone();
        self.tx
            .add_seat(id, mine, me, &seat_secret(self.secret, id, mine))?;
        let theirs = mine.other();
        self.tx
            .add_seat(id, theirs, them, &seat_secret(self.secret, id, theirs))?;
        let pace = match time.clock {
            Some((initial, increment, cap)) => {
                let cap = cap
                    .unwrap_or(self.config.deadlines.clock_cap_days)
                    .max(initial);
                let day = 24 * 3600;
                self.tx.set_clock(
                    id,
                    i64::from(initial) * day,
                    i64::from(increment) * day,
                    i64::from(cap) * day,
                )?;
                format!("a clock of {initial} days plus {increment} per turn (at most {cap})")
            }
            None => format!("{days} days per turn"),
        };
        let game = self
            .tx
            .game(id)?
            .ok_or_else(|| StoreError::Corrupt("new game vanished".into()))?;
        let seats = self.tx.seats(id)?;
        let my_seat = seats.iter().find(|s| s.seat == mine).cloned();
        let their_seat = seats.iter().find(|s| s.seat == theirs).cloned();
        if let (Some(my_seat), Some(their_seat)) = (my_seat, their_seat) {
            self.game = Some((game.clone(), my_seat));
            let inviter = if name.is_empty() {
                self.sender.to_string()
            } else {
                format!("{name} <{}>", self.sender)
            };
            let (zone, _) = self.tx.player_settings(opponent)?;
            let expires =
                self.now + chrono::Duration::days(i64::from(self.config.deadlines.invitation_days));
            let body = texts::render(
                "invitation",
                minijinja::context! {
                    inviter => inviter,
                    title => G::TITLE,
                    game => G::NAME.to_ascii_uppercase(),
                    you => G::seat_name(theirs),
                    first => G::seat_name(first),
                    pace => pace,
                    moderator => time.moderator,
                    expires => local_time(expires, &zone),
                    reply_to => reply_address(&self.config.service.address, id, &their_seat.secret),
                },
            );
            self.send_to(
                &game,
                &their_seat,
                game_subject(&game, Some(their_seat.seat)),
                texts::wrap(&body),
                AutoKind::Generated,
                "invitation",
            )?;
            if let Some(moderator) = &moderator_asked {
                let (local, domain) = self.config.address_parts();
                let key = identity::moderator_secret(self.secret, moderator);
                let body = texts::wrap(&format!(
                    "{} invites {opponent} to game {id} of {} and asks you to be \
                     its moderator: to settle a stalled or disputed game, by mail.\n\n\
                     To accept, write the line\n\n  ACCEPT MODERATION {id}\n\n\
                     to your moderator address {local}+mod.{key}@{domain} \
                     (keep it to yourself). To refuse, write DECLINE MODERATION {id} \
                     there. Until you accept, you have no say in the game.",
                    self.sender,
                    G::TITLE
                ));
                queue_notice(
                    self.tx,
                    self.config,
                    &game,
                    moderator,
                    None,
                    body,
                    &format!("{}/moderator-asked", self.message_id),
                    self.now,
                )?;
            }
        }
        self.item(
            line,
            format!(
                "Game {id} proposed: you play {} against {opponent}, {} moves first, \
                 {pace}. They have been invited; you will hear when they ACCEPT or \
                 DECLINE.",
                G::seat_name(mine),
                G::seat_name(first)
            ),
            false,
        );
        Ok(())
    }

    fn game_command<G: GameText>(
        &mut self,
        line: &str,
        command: Command,
        game: GameRow,
        seat: SeatRow,
    ) -> Result<()> {
        let side = G::seat_name(seat.seat);
        match (command, game.status) {
            (Command::Accept, GameStatus::Invited) if seat.seat != game.inviter_seat => {
                self.tx.set_status(game.id, GameStatus::Active, self.at)?;
                let state = G::new(&GameOptions {
                    first: game.first_seat,
                    seed: game.seed,
                });
                self.tx
                    .set_position(game.id, &state.position(), 0, self.at)?;
                self.refresh_deadline(game.id, &state)?;
                self.item(
                    line,
                    format!("Game {} begins; you play {side}.", game.id),
                    false,
                );
                let game = self.reload(game.id)?;
                self.broadcast(&game, &state, &[], Some(seat.seat))?;
            }
            (Command::Decline, GameStatus::Invited) if seat.seat != game.inviter_seat => {
                self.tx.set_status(game.id, GameStatus::Declined, self.at)?;
                self.item(line, format!("You declined game {}.", game.id), false);
                self.notify_other(
                    &game,
                    seat.seat,
                    format!("{} declined game {}.", self.sender, game.id),
                )?;
            }
            (Command::Accept | Command::Decline, GameStatus::Invited) => {
                self.item(
                    line,
                    "Refused: the invitation is for the other player; wait for their answer.",
                    true,
                );
            }
            (_, GameStatus::Invited) => {
                self.item(
                    line,
                    format!(
                        "Refused: game {} has not begun: the invitation is still open.",
                        game.id
                    ),
                    true,
                );
            }
            // A finished game can still be read: its record and its
            // final board.
            (command, status)
                if status != GameStatus::Active
                    && !matches!(
                        command,
                        Command::History | Command::Board | Command::HelpBoard
                    ) =>
            {
                self.item(
                    line,
                    format!("Refused: game {} is {status}.", game.id),
                    true,
                );
                if let Some(state) = load::<G>(&game) {
                    self.parts
                        .push(self.update_text(&game, &state, seat.seat, &[]));
                }
            }
            (Command::ClaimWin, _) => self.claim_win::<G>(line, &game, &seat)?,
            (Command::Moderator(text), _) => {
                self.tx.set_disputed(game.id, Some(&text))?;
                let body = texts::wrap(&format!(
                    "{} ({} in game {}) asks for a moderator:\n\n{text}\n\n\
                     Write STALLED to your moderator address for the games that wait.",
                    self.sender, side, game.id
                ));
                let moderators = moderators_of(self.tx, self.config, game.id)?;
                for (n, m) in moderators.iter().enumerate() {
                    let seed = format!("{}/moderator/{n}", self.message_id);
                    queue_notice(
                        self.tx,
                        self.config,
                        &game,
                        &m.to_lowercase(),
                        None,
                        body.clone(),
                        &seed,
                        self.now,
                    )?;
                }
                let answer = if moderators.is_empty() {
                    "Noted; this server has no moderator configured yet, so an \
                     administrator will see it in `orderly mod stalled`."
                } else {
                    "The moderators have been asked; they will answer by mail."
                };
                self.item(line, answer, false);
            }
            (Command::Board, _) if self.board_shown.contains(&game.id) => {
                // The update this mail made carries the board already.
                self.item(line, "The board and the choices are below.", false);
            }
            (Command::Board, _) => {
                let state = self.state::<G>(&game)?;
                self.item(line, "The board and the choices are below.", false);
                self.board_shown.insert(game.id);
                self.parts
                    .push(self.update_text(&game, &state, seat.seat, &[]));
            }
            (Command::CancelIf(words), _) => {
                self.cancel_answers::<G>(line, &words, &game, &seat)?
            }
            (Command::Say(text), _) => self.say::<G>(line, &text, &game, &seat)?,
            (Command::SetAddress(new), _) => self.set_address(line, &new, &game, &seat)?,
            (Command::HelpBoard, _) => {
                let state = self.state::<G>(&game)?;
                self.item(line, "The board, with its key, is below.", false);
                let text = update_text_keyed(self.tx, &game, &state, seat.seat, &[], true, &[])?;
                self.parts.push(texts::wrap(&text));
            }
            (Command::HelpMoves(square), _) => {
                let state = self.state::<G>(&game)?;
                match state.choices_from(&square) {
                    Ok(text) => {
                        self.item(line, "See below.", false);
                        self.parts.push(text);
                    }
                    Err(r) => self.refuse(line, &r),
                }
            }
            (Command::History, _) => {
                let record = self.record::<G>(&game)?;
                self.item(line, "The record of the game so far is below.", false);
                self.parts.push(record.to_string());
            }
            (Command::Resign, _) => {
                let winner = seat.seat.other();
                self.tx.add_entry(
                    game.id,
                    EntryKind::Resign,
                    Some(seat.seat),
                    "RESIGNS",
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx.finish(
                    game.id,
                    GameResult::Win(winner),
                    &format!("{side} resigned"),
                    self.at,
                )?;
                self.item(
                    line,
                    format!(
                        "You resigned game {}. {} wins.",
                        game.id,
                        G::seat_name(winner)
                    ),
                    false,
                );
                let state = self.state::<G>(&game)?;
                let game = self.reload(game.id)?;
                self.broadcast(&game, &state, &[], Some(seat.seat))?;
            }
            (Command::OfferDraw, _) => {
                self.tx.set_draw_offer(game.id, Some(seat.seat))?;
                self.item(
                    line,
                    "Draw offered; the other player may ACCEPT DRAW or DECLINE DRAW.",
                    false,
                );
                self.notify_other(&game, seat.seat, format!(
                    "{side} offers a draw in game {}. Write ACCEPT DRAW or DECLINE DRAW (or play on: an order declines it).",
                    game.id
                ))?;
            }
            (Command::AcceptDraw, _) if game.draw_offer == Some(seat.seat.other()) => {
                self.tx.add_entry(
                    game.id,
                    EntryKind::Draw,
                    Some(seat.seat),
                    "DRAW AGREED",
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx
                    .finish(game.id, GameResult::Draw, "draw agreed", self.at)?;
                self.item(
                    line,
                    format!("Draw agreed: game {} is over.", game.id),
                    false,
                );
                let state = self.state::<G>(&game)?;
                let game = self.reload(game.id)?;
                self.broadcast(&game, &state, &[], Some(seat.seat))?;
            }
            (Command::DeclineDraw, _) if game.draw_offer == Some(seat.seat.other()) => {
                self.tx.set_draw_offer(game.id, None)?;
                self.item(line, "Draw declined; play goes on.", false);
                self.notify_other(
                    &game,
                    seat.seat,
                    format!("{side} declines the draw in game {}.", game.id),
                )?;
            }
            (Command::AcceptDraw | Command::DeclineDraw, _) => {
                self.item(
                    line,
                    "Refused: there is no draw offer from the other player to answer.",
                    true,
                );
            }
            (Command::Accept | Command::Decline, _) => {
                // In a game under way ACCEPT/DECLINE mean nothing but
                // DECLINE may answer a second chance: an order line.
                self.orders_for::<G>(&[line.to_string()], game, seat)?;
            }
            (other, _) => {
                self.item(line, format!("Not understood here: {other:?}."), true);
            }
        }
        Ok(())
    }

    /// Stores a seat's answers given in advance (`IF STAND OPTION 2`, `IF
    /// ATTACKED AT B2C RETREAT B1R`), each replacing an earlier one with the
    /// same condition.
    fn give_answers_in_advance<G: GameText>(
        &mut self,
        state: &G,
        game: &GameRow,
        seat: &SeatRow,
        ifs: &[String],
    ) -> Result<Vec<String>> {
        let mut prepared = self.answers_of(game.id, seat.seat)?;
        let mut given = Vec::new();
        for line in ifs {
            match read_answer_in_advance(state, line) {
                Ok(answer) => {
                    let when = if answer.condition.standing {
                        "kept until it is used or you write CANCEL IF"
                    } else {
                        "for the attack of this mail"
                    };
                    self.item(
                        line,
                        format!(
                            "Noted: if {}, then {} ({when}). It is played when its \
                             moment comes, if it is legal then.",
                            answer.condition.text.to_lowercase(),
                            answer.then
                        ),
                        false,
                    );
                    prepared.retain(|p| p.condition.text != answer.condition.text);
                    given.push(answer.written.clone());
                    prepared.push(answer);
                }
                Err(why) => self.item(line, format!("Not understood: {why}."), true),
            }
        }
        // A bound on what one seat may keep waiting.
        const MOST: usize = 16;
        let keep = prepared.len().saturating_sub(MOST);
        prepared.drain(..keep);
        self.set_answers(game.id, seat.seat, &prepared)?;
        Ok(given)
    }

    fn answers_of(&self, game: i64, seat: Seat) -> Result<Vec<AnswerInAdvance>> {
        Ok(serde_json::from_str(&self.tx.conditions(game, seat)?).unwrap_or_default())
    }

    fn set_answers(&self, game: i64, seat: Seat, answers: &[AnswerInAdvance]) -> Result<()> {
        let json = serde_json::to_string(answers).unwrap_or_else(|_| "[]".into());
        Ok(self.tx.set_conditions(game, seat, &json)?)
    }

    /// Plays every answer given in advance whose condition holds for the
    /// decision now pending, one after the other; each is used once. An
    /// answer that is not legal then is dropped and its writer told.
    fn answer_in_advance<G: GameText>(
        &mut self,
        state: &mut G,
        game: &GameRow,
    ) -> Result<Vec<Happened>> {
        let mut happened = Vec::new();
        // Each answer is used once, so this ends; the bound is for safety.
        for _ in 0..8 {
            let Some(pending) = state.pending() else {
                break;
            };
            let mut answers = self.answers_of(game.id, pending.seat)?;
            let Some(i) = answers
                .iter()
                .position(|a| state.condition_holds(pending.seat, &a.condition))
            else {
                break;
            };
            let answer = answers.remove(i);
            self.set_answers(game.id, pending.seat, &answers)?;
            let mut r = submit(state, pending.seat, std::slice::from_ref(&answer.then));
            for t in &mut r.taken {
                t.line = answer.written.clone();
            }
            happened.extend(self.record_submission(game, pending.seat, &r, false)?);
            if !r.taken.is_empty() {
                // The record says the order was given in advance.
                let words = format!(
                    "{} answered in advance: {}",
                    G::seat_name(pending.seat),
                    answer.written
                );
                self.tx.add_entry(
                    game.id,
                    EntryKind::Comment,
                    Some(pending.seat),
                    &words,
                    "",
                    None,
                    self.at,
                    &[],
                )?;
            }
            if let Some(refused) = &r.refused {
                let seat = self
                    .tx
                    .seats(game.id)?
                    .into_iter()
                    .find(|s| s.seat == pending.seat);
                if let Some(seat) = seat {
                    let text = format!(
                        "Your answer given in advance, {}, could not be played: {} \
                         The decision is yours now.",
                        answer.written,
                        sentence(&refused.problem)
                    );
                    self.send_to(
                        game,
                        &seat,
                        format!(
                            "Game {}: your answer given in advance could not be played",
                            game.id
                        ),
                        texts::wrap(&text),
                        AutoKind::Generated,
                        "answer-refused",
                    )?;
                }
                break;
            }
        }
        Ok(happened)
    }

    /// Drops the answers for "the attack of this mail" that this mail gave,
    /// when the mail made no attack, and says so.
    fn forget_answers_given_now(
        &mut self,
        game: &GameRow,
        seat: &SeatRow,
        given_now: &[String],
    ) -> Result<()> {
        let answers = self.answers_of(game.id, seat.seat)?;
        let (gone, kept): (Vec<_>, Vec<_>) = answers
            .into_iter()
            .partition(|a| !a.condition.standing && given_now.contains(&a.written));
        if gone.is_empty() {
            return Ok(());
        }
        self.set_answers(game.id, seat.seat, &kept)?;
        for a in gone {
            self.item(
                &a.written,
                "Not kept: this mail made no attack for it to answer (see \
                 above). Send it again with the attack.",
                true,
            );
        }
        Ok(())
    }

    /// Drops the answers given "for the attack of this mail" once no attack
    /// is under way.
    fn drop_answers_for_the_attack(&mut self, game: i64) -> Result<()> {
        for seat in Seat::BOTH {
            let answers = self.answers_of(game, seat)?;
            if answers.iter().any(|a| !a.condition.standing) {
                let kept: Vec<_> = answers
                    .into_iter()
                    .filter(|a| a.condition.standing)
                    .collect();
                self.set_answers(game, seat, &kept)?;
            }
        }
        Ok(())
    }

    /// `CANCEL IF [condition]`.
    fn cancel_answers<G: GameText>(
        &mut self,
        line: &str,
        words: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let answers = self.answers_of(game.id, seat.seat)?;
        let kept: Vec<AnswerInAdvance> = if words.trim().is_empty() {
            Vec::new()
        } else {
            let state = self.state::<G>(game)?;
            match state.read_condition(words) {
                Ok(c) => answers
                    .iter()
                    .filter(|a| a.condition.text != c.text)
                    .cloned()
                    .collect(),
                Err(why) => {
                    self.item(line, format!("Not understood: {why}."), true);
                    return Ok(());
                }
            }
        };
        let dropped = answers.len() - kept.len();
        self.set_answers(game.id, seat.seat, &kept)?;
        self.item(
            line,
            format!(
                "{dropped} answer(s) given in advance cancelled; {} left.",
                kept.len()
            ),
            false,
        );
        Ok(())
    }

    /// `SAY text`: the message goes to the opponent with this mail's
    /// update (or on its own) and into the record.
    fn say<G: GameText>(
        &mut self,
        line: &str,
        text: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        // A message is read by a person: no control characters, and no
        // more than a short letter's length.
        const MOST_CHARS: usize = 1000;
        let text: String = text
            .chars()
            .filter(|c| !c.is_control())
            .take(MOST_CHARS)
            .collect();
        let side = G::seat_name(seat.seat);
        let words = format!("{side} says: {text}");
        let count = self.tx.entries(game.id)?.len() as i64;
        self.tx.add_entry(
            game.id,
            EntryKind::Comment,
            Some(seat.seat),
            &words,
            line,
            Some(self.message_id),
            self.at,
            &[],
        )?;
        if game.order_count == count {
            // The cached position stays current: a message changes no state.
            if let Some(position) = &game.position {
                self.tx
                    .set_position(game.id, position, count + 1, self.at)?;
            }
        }
        self.press.push((game.id, seat.seat, words));
        self.item(
            line,
            format!("Passed to {}: {text}", G::seat_name(seat.seat.other())),
            false,
        );
        Ok(())
    }

    /// `SET ADDRESS new@address`: a code goes to the new address; the move
    /// happens when it comes back from there (CONFIRM ADDRESS).
    fn set_address(&mut self, line: &str, new: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        if let Err(why) = identity::check_mailbox(new) {
            self.item(line, format!("Refused: {why}. Nothing was changed."), true);
            return Ok(());
        }
        if new == self.sender || identity::is_own_address(self.config, new) {
            self.item(
                line,
                "Refused: name the new address you want to play from. Nothing was changed.",
                true,
            );
            return Ok(());
        }
        let code = identity::address_code(self.secret, seat.player_id, new, self.message_id);
        self.tx
            .request_address_change(&code, seat.player_id, new, self.at)?;
        let body = texts::wrap(&format!(
            "{} asked orderly to move their games to this address. If this is \
             you, reply from this address with the line\n\n  CONFIRM ADDRESS {code}\n\n\
             within {ADDRESS_CODE_DAYS} days. If it is not, ignore this mail: nothing \
             changes.",
            self.sender
        ));
        queue_notice(
            self.tx,
            self.config,
            game,
            new,
            None,
            body,
            &format!("{}/address", self.message_id),
            self.now,
        )?;
        self.item(
            line,
            format!(
                "A code went to {new}: write CONFIRM ADDRESS <code> from there within \
                 {ADDRESS_CODE_DAYS} days, and your games move to it. Until then \
                 nothing changes."
            ),
            false,
        );
        Ok(())
    }

    /// `CONFIRM ADDRESS code`, from the new address: every seat moves.
    fn confirm_address(&mut self, line: &str, code: &str) -> Result<()> {
        let since = self.now - chrono::Duration::days(ADDRESS_CODE_DAYS);
        let Some((player, old)) = self
            .tx
            .take_address_change(code, self.sender, since.into())?
        else {
            self.item(
                line,
                "Refused: this code is not one orderly sent to this address in the \
                 last days. Write SET ADDRESS again from your old address.",
                true,
            );
            return Ok(());
        };
        self.tx.move_player(player, self.sender)?;
        let me = self.tx.player(self.sender, "", self.at)?;
        let mut moved = Vec::new();
        for g in self.tx.games_of(me)? {
            if !g.status.is_open() {
                continue;
            }
            moved.push(g.id.to_string());
            let seats = self.tx.seats(g.id)?;
            for other in seats.iter().filter(|s| s.player_id != me) {
                let body = texts::wrap(&format!(
                    "Your opponent in game {} now plays from {} (before: {old}).",
                    g.id, self.sender
                ));
                let seed = format!(
                    "{}/moved/{}/{}",
                    self.message_id,
                    g.id,
                    seat_text(other.seat)
                );
                queue_notice(
                    self.tx,
                    self.config,
                    &g,
                    &other.address,
                    Some((g.id, other.seat)),
                    body,
                    &seed,
                    self.now,
                )?;
            }
        }
        let games = if moved.is_empty() {
            "You have no open game; new ones will come here.".to_string()
        } else {
            format!(
                "Your games ({}) are played from here now.",
                moved.join(", ")
            )
        };
        self.item(
            line,
            format!("Confirmed: {old} is now {}. {games}", self.sender),
            false,
        );
        Ok(())
    }

    /// Gives the game's pending decision a fresh deadline: the game's days
    /// for a turn, `decision_hours` for a decision inside an attack; none
    /// once the game is over.
    /// Any order ends the sender's vacation early: their other games'
    /// deadlines give back the days not taken.
    fn end_vacation_early(&mut self) -> Result<()> {
        let Some(player) = self.tx.player_id(self.sender)? else {
            return Ok(());
        };
        let Some((id, ends)) = self.tx.on_vacation(player, self.at)? else {
            return Ok(());
        };
        let unused = ends.utc() - self.now;
        for (game, _, deadline) in self.tx.deadlines_of_player(player)? {
            let back = (deadline.utc() - unused).max(self.now);
            self.tx.move_deadline(game, back.into())?;
        }
        self.tx.end_vacation(id, self.at)?;
        self.item(
            "(vacation)",
            "Your order ends your vacation early; the unused days are yours again.",
            false,
        );
        Ok(())
    }

    fn refresh_deadline<G: GameText>(&self, game: i64, state: &G) -> Result<()> {
        fresh_deadline(self.tx, self.config, game, state, self.now)
    }

    /// `VACATION ...`: checked against the yearly allowance and the
    /// player's other vacations, stored, and started at once when it starts
    /// now (the sweep starts later ones).
    fn vacation(&mut self, line: &str, span: commands::VacationSpan) -> Result<()> {
        let player = self.tx.player(self.sender, "", self.at)?;
        let (starts, ends) = match span {
            commands::VacationSpan::Days(n) => {
                (self.now, self.now + chrono::Duration::days(i64::from(n)))
            }
            commands::VacationSpan::Dates(a, b) => {
                let day = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).map(|t| t.and_utc());
                match (day(a), day(b.succ_opt().unwrap_or(b))) {
                    (Some(s), Some(e)) => (s.max(self.now), e),
                    _ => {
                        self.item(line, "Not understood: those dates are out of range.", true);
                        return Ok(());
                    }
                }
            }
        };
        if ends <= self.now {
            self.item(line, "Refused: that vacation is over already.", true);
            return Ok(());
        }
        let days = whole_days(ends - starts);
        let taken = self.tx.vacations_of(player, year_start(self.now))?;
        let overlaps = taken.iter().any(|v| {
            !v.ended && v.starts < Timestamp::from(ends) && v.ends > Timestamp::from(starts)
        });
        if overlaps {
            self.item(
                line,
                "Refused: it overlaps a vacation you have already set.",
                true,
            );
            return Ok(());
        }
        let used = vacation_days_used(&taken);
        let allowance = i64::from(self.config.deadlines.vacation_days_per_year);
        if used + days > allowance {
            self.item(
                line,
                format!(
                    "Refused: {days} days would exceed your {allowance} vacation days this \
                     year ({} left).",
                    (allowance - used).max(0)
                ),
                true,
            );
            return Ok(());
        }
        let id = self.tx.add_vacation(player, starts.into(), ends.into())?;
        if starts <= self.now {
            start_vacation(self.tx, self.config, id, player, starts, ends, self.now)?;
        }
        self.item(
            line,
            format!(
                "Vacation from {} to {}: your clocks stop in every game; any order \
                 you send ends it early. {} vacation days left this year.",
                local_time(starts, "UTC"),
                local_time(ends, "UTC"),
                allowance - used - days
            ),
            false,
        );
        Ok(())
    }

    fn set_timezone(&mut self, line: &str, zone: &str) -> Result<()> {
        match zone.parse::<chrono_tz::Tz>() {
            Ok(tz) => {
                let player = self.tx.player(self.sender, "", self.at)?;
                self.tx.set_timezone(player, tz.name())?;
                self.item(
                    line,
                    format!("Deadlines will be shown to you in {}.", tz.name()),
                    false,
                );
            }
            Err(_) => self.item(
                line,
                format!(
                    "Refused: {zone:?} is not a time zone; write one of the IANA names, \
                     such as Europe/Paris, America/New_York or UTC."
                ),
                true,
            ),
        }
        Ok(())
    }

    /// `CLAIM WIN`: the opponent's time ran out (past the grace period) and
    /// the policy lets the waiting player claim the game.
    fn claim_win<G: GameText>(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let deadline = self.tx.deadline(game.id)?;
        let claimable = claims(self.tx, self.config, game.id)?;
        match deadline {
            Some(d) if d.timed_out && d.seat != seat.seat && claimable => {
                let loser = G::seat_name(d.seat);
                let text = format!(
                    "{} claimed the win: {loser} did not act by {}",
                    G::seat_name(seat.seat),
                    d.at
                );
                self.tx.add_entry(
                    game.id,
                    EntryKind::Comment,
                    None,
                    &text,
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx.add_entry(
                    game.id,
                    EntryKind::Adjudicate,
                    Some(seat.seat),
                    result_text(GameResult::Win(seat.seat)),
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx.finish(
                    game.id,
                    GameResult::Win(seat.seat),
                    &format!("{loser} ran out of time"),
                    self.at,
                )?;
                self.tx.set_deadline(game.id, None)?;
                self.item(
                    line,
                    format!("You win game {}: {loser} ran out of time.", game.id),
                    false,
                );
                let state = self.state::<G>(game)?;
                let game = self.reload(game.id)?;
                self.broadcast(&game, &state, &[], Some(seat.seat))?;
            }
            Some(d) if d.seat != seat.seat && !d.timed_out => self.item(
                line,
                format!(
                    "Refused: {} still has time (deadline {} and the grace period after it).",
                    G::seat_name(d.seat),
                    d.at
                ),
                true,
            ),
            _ if !claimable => self.item(
                line,
                "Refused: on this server a game whose time ran out goes to the moderators.",
                true,
            ),
            _ => self.item(
                line,
                "Refused: there is no run-out time of the other player to claim.",
                true,
            ),
        }
        Ok(())
    }

    fn orders(&mut self, lines: &[String], claim: Option<&Claim>) -> Result<()> {
        let first = lines[0].clone();
        if let Some((game, seat)) = self.authenticate(&first, claim)? {
            if game.status != GameStatus::Active {
                for l in lines {
                    self.item(
                        l,
                        format!(
                            "Refused: game {} is {}; no orders are taken.",
                            game.id, game.status
                        ),
                        true,
                    );
                }
                return Ok(());
            }
            on_game!(game, G => self.orders_for::<G>(lines, game, seat))?;
        }
        Ok(())
    }

    fn orders_for<G: GameText>(
        &mut self,
        lines: &[String],
        game: GameRow,
        seat: SeatRow,
    ) -> Result<()> {
        let mut state = self.state::<G>(&game)?;
        // Several orders may share a line, `;` between them; answers given
        // in advance (IF ...) are kept aside, whoever's turn it is.
        let (lines, ifs) = split_answers_in_advance(lines);
        let lines = &lines[..];
        let mut given_now = Vec::new();
        if !ifs.is_empty() {
            given_now = self.give_answers_in_advance(&state, &game, &seat, &ifs)?;
        }
        let refused_all = match state.pending() {
            _ if lines.is_empty() => false,
            Some(p) if p.seat != seat.seat => {
                for l in lines {
                    let mut answer = format!(
                        "Refused: it is not your turn; game {} waits for {} ({}). Nothing was done.",
                        game.id,
                        G::seat_name(p.seat),
                        p.kind
                    );
                    if let Some(other) = self.fits_another_game(l) {
                        answer.push_str(&format!(
                            " This order is legal in your game {other}, where it is \
                             your turn: send it to that game (reply to its latest mail)."
                        ));
                    }
                    self.item(l, answer, true);
                }
                true
            }
            None => {
                for l in lines {
                    self.item(l, format!("Refused: game {} is over.", game.id), true);
                }
                true
            }
            Some(_) => false,
        };
        if refused_all {
            // Nothing of this mail was played: unless an attack is under way
            // already, its answers for "this mail's attack" answer nothing.
            if state.pending().is_none_or(|p| p.phase.is_turn()) {
                self.forget_answers_given_now(&game, &seat, &given_now)?;
            }
            return Ok(());
        }
        // Lines held from an earlier mail of this seat wait for the attack
        // that this mail may end: they are played the moment the seat's turn
        // comes, before the rest of this mail (they were written first).
        let s = if seat.held.is_empty() {
            submit(&mut state, seat.seat, lines)
        } else {
            submit_until_turn(&mut state, seat.seat, lines)
        };
        if !s.taken.is_empty() {
            self.end_vacation_early()?;
        }
        let mut happened = self.record_submission(&game, seat.seat, &s, true)?;
        happened.extend(self.answer_in_advance(&mut state, &game)?);
        let earlier = release(&mut state, seat.seat, &seat.held);
        happened.extend(self.record_submission(&game, seat.seat, &earlier, true)?);
        let mut held_mine = earlier.held.clone();
        held_mine.extend(s.held.iter().cloned());
        if !s.rest.is_empty() {
            let after = submit(&mut state, seat.seat, &s.rest);
            happened.extend(self.record_submission(&game, seat.seat, &after, true)?);
            held_mine.extend(after.held);
        }
        // This mail may have resolved an attack the other seat's held
        // orders wait for (R4: the second half is ordered after it).
        let seats = self.tx.seats(game.id)?;
        for other in seats
            .iter()
            .filter(|o| o.seat != seat.seat && !o.held.is_empty())
        {
            let r = release(&mut state, other.seat, &other.held);
            happened.extend(self.record_submission(&game, other.seat, &r, false)?);
            self.tx.set_held(game.id, other.seat, &r.held)?;
        }
        let r = release(&mut state, seat.seat, &held_mine);
        if !r.taken.is_empty() || !r.unused.is_empty() || r.refused.is_some() {
            happened.extend(self.record_submission(&game, seat.seat, &r, true)?);
            held_mine = r.held;
        }
        self.tx.set_held(game.id, seat.seat, &held_mine)?;
        happened.extend(self.answer_in_advance(&mut state, &game)?);
        if state.pending().is_none_or(|p| p.phase.is_turn()) {
            // No attack under way: answers for "this mail's attack" lapse.
            self.forget_answers_given_now(&game, &seat, &given_now)?;
            self.drop_answers_for_the_attack(game.id)?;
        }
        if !s.taken.is_empty() && game.draw_offer == Some(seat.seat.other()) {
            // Playing on answers a draw offer.
            self.tx.set_draw_offer(game.id, None)?;
        }
        if happened.is_empty() {
            return Ok(());
        }
        let count = self.tx.entries(game.id)?.len() as i64;
        self.tx
            .set_position(game.id, &state.position(), count, self.at)?;
        self.refresh_deadline(game.id, &state)?;
        if let Some(outcome) = state.outcome() {
            self.tx.finish(
                game.id,
                outcome.result,
                &G::ending_words(&outcome.reason),
                self.at,
            )?;
        }
        let game = self.reload(game.id)?;
        self.broadcast(&game, &state, &happened, Some(seat.seat))
    }

    /// Stores the applied orders of a submission and echoes every line;
    /// returns what happened, in words, for the update mails.
    fn record_submission(
        &mut self,
        game: &GameRow,
        seat: Seat,
        s: &Submission,
        echo: bool,
    ) -> Result<Vec<Happened>> {
        let mut happened = Vec::new();
        if echo {
            self.taken += s.taken.len();
        }
        for t in &s.taken {
            let events: Vec<String> = t.events.iter().map(|e| e.text.clone()).collect();
            self.tx.add_entry(
                game.id,
                EntryKind::Order,
                Some(seat),
                &t.order.to_string(),
                &t.line,
                Some(self.message_id),
                self.at,
                &t.events,
            )?;
            if echo {
                let mut answer = format!("Taken: {}.", t.order);
                for e in &events {
                    answer.push_str(&format!("\n  {e}"));
                }
                self.echoed.extend(events.iter().cloned());
                self.item(&t.line, answer, false);
            }
            happened.extend(t.events.iter().cloned());
        }
        if let Some(r) = &s.refused {
            if echo {
                self.refuse(&r.line.clone(), r);
            }
        }
        if echo {
            for l in &s.held {
                self.item(l, "Held: it will be played as the second half of your double turn once the attack is resolved, if still legal.", false);
            }
            for u in &s.unused {
                self.item(
                    &u.line,
                    format!(
                        "Not applied: {}.",
                        u.why.describe(Seat::BOTH.map(|s| side_name(game, s)))
                    ),
                    true,
                );
            }
        }
        Ok(happened)
    }

    fn refuse(&mut self, line: &str, r: &Rejection) {
        let mut answer = match r.rule {
            Some(rule) => format!("Refused under rule {rule}: {}", sentence(&r.problem)),
            None => format!("Not understood: {}", sentence(&r.problem)),
        };
        if !r.suggestions.is_empty() {
            answer.push_str("\nNearest legal orders:");
            for s in &r.suggestions {
                answer.push_str(&format!("\n  {s}"));
            }
        }
        answer.push_str("\nNothing was changed by this line.");
        if let Some(other) = self.fits_another_game(line) {
            answer.push_str(&format!(
                "\nThis order is legal in your game {other}, where it is your \
                 turn: send it to that game (reply to its latest mail)."
            ));
        }
        self.item(line, answer, true);
    }

    /// Another active game of the sender's, waiting for the sender, in which
    /// `line` is a legal order: the game a refused line was likely meant
    /// for. Only the sender's most recent games are tried.
    fn fits_another_game(&self, line: &str) -> Option<i64> {
        const TRIED: usize = 20;
        let current = self.game.as_ref().map(|(g, _)| g.id);
        let player = self.tx.player_id(self.sender).ok()??;
        let games = self.tx.games_of(player).ok()?;
        games
            .into_iter()
            .filter(|g| g.status == GameStatus::Active && Some(g.id) != current)
            .take(TRIED)
            .find(|g| {
                let Ok(seats) = self.tx.seats(g.id) else {
                    return false;
                };
                let mine = seats.iter().find(|s| s.player_id == player).map(|s| s.seat);
                let waits_for_me = pending_of(g).is_some_and(|p| Some(p.seat) == mine);
                waits_for_me
                    && crate::with_game!(&g.kind, G => {
                        load::<G>(g).is_some_and(|state| GameText::read_order(&state, line).is_ok())
                    })
                    .unwrap_or(false)
            })
            .map(|g| g.id)
    }

    fn reload(&self, id: i64) -> Result<GameRow> {
        Ok(self
            .tx
            .game(id)?
            .ok_or_else(|| StoreError::Corrupt(format!("game {id} vanished")))?)
    }

    /// The game's state: the cache when it is current, else a replay.
    fn state<G: GameText>(&self, game: &GameRow) -> Result<G> {
        let count = self.tx.entries(game.id)?.len() as i64;
        if game.order_count == count {
            if let Some(state) = load(game) {
                return Ok(state);
            }
        }
        Ok(self.record_replay::<G>(game)?.game().clone())
    }

    fn record_replay<G: GameText>(&self, game: &GameRow) -> Result<Recorder<G>> {
        rebuild(self.tx, game, self.domain())
    }

    fn record<G: GameText>(&self, game: &GameRow) -> Result<Record> {
        Ok(self.record_replay::<G>(game)?.into_record())
    }

    fn update_text<G: GameText>(
        &self,
        game: &GameRow,
        state: &G,
        seat: Seat,
        happened: &[Happened],
    ) -> String {
        update_text(self.tx, game, state, seat, happened).unwrap_or_default()
    }

    /// The update mail to both seats after something changed the game;
    /// the actor's copy goes into the reply.
    fn broadcast<G: GameText>(
        &mut self,
        game: &GameRow,
        state: &G,
        happened: &[Happened],
        actor: Option<Seat>,
    ) -> Result<()> {
        // The mail that ends a game carries its whole record.
        let record = if game.status == GameStatus::Finished {
            Some(self.record::<G>(game)?.to_string())
        } else {
            None
        };
        // Messages written in this mail go with the update, first.
        let (press, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.press)
            .into_iter()
            .partition(|(g, _, _)| *g == game.id);
        self.press = rest;
        let press: String = press
            .iter()
            .map(|(_, _, words)| format!("{}\n", texts::wrap(words).trim_end()))
            .collect();
        for seat in self.tx.seats(game.id)? {
            let mine = Some(seat.seat) == actor && seat.address == self.sender;
            let told: &[String] = if mine { &self.echoed } else { &[] };
            let mut text = update_text_keyed(
                self.tx,
                game,
                state,
                seat.seat,
                happened,
                game.order_count == 0,
                told,
            )
            .unwrap_or_default();
            if !mine && !press.is_empty() {
                text = format!("{press}\n{text}");
            }
            if let Some(record) = &record {
                text.push_str("\nThe record of the game:\n\n");
                text.push_str(record);
            }
            if mine {
                self.board_shown.insert(game.id);
                self.parts.push(text);
            } else {
                self.send_to(
                    game,
                    &seat,
                    game_subject(game, Some(seat.seat)),
                    text,
                    AutoKind::Generated,
                    "update",
                )?;
            }
        }
        Ok(())
    }

    fn notify_other(&mut self, game: &GameRow, from: Seat, text: String) -> Result<()> {
        for seat in self
            .tx
            .seats(game.id)?
            .into_iter()
            .filter(|s| s.seat != from)
        {
            self.send_to(
                game,
                &seat,
                game_subject(game, Some(seat.seat)),
                texts::wrap(&text),
                AutoKind::Generated,
                "notice",
            )?;
        }
        Ok(())
    }

    /// Queues a mail to a seat, threaded on the seat's previous mail.
    fn send_to(
        &mut self,
        game: &GameRow,
        seat: &SeatRow,
        subject: String,
        body: String,
        auto: AutoKind,
        kind: &str,
    ) -> Result<()> {
        let n = self.outgoing.len();
        let id = message_id(
            &format!("{}/{}/{kind}/{n}", self.message_id, seat.address),
            self.domain(),
        );
        let mail = OutgoingMail {
            message_id: id,
            from: self.sender_mailbox(),
            to: seat.address.clone(),
            reply_to: Some(reply_address(
                &self.config.service.address,
                game.id,
                &seat.secret,
            )),
            subject,
            in_reply_to: seat.last_message_id.clone(),
            references: seat.last_message_id.iter().cloned().collect(),
            list_id: Some(format!("<game-{}.{}>", game.id, self.domain())),
            body,
            date: self.now,
            auto,
            return_path: None,
            text_only: false,
        };
        self.outgoing.push((mail, Some((game.id, seat.seat))));
        Ok(())
    }

    /// Queues the reply to the sender and every other mail decided.
    fn queue_reply(&mut self) -> Result<()> {
        let (reply_to, subject, list_id, game_seat) = match &self.game {
            Some((g, s)) => (
                Some(reply_address(&self.config.service.address, g.id, &s.secret)),
                if self.items.iter().any(|i| i.refused) && !self.items.iter().any(|i| !i.refused) {
                    format!("Game {}: refused", g.id)
                } else {
                    // The game as this mail left it.
                    let g = self.tx.game(g.id)?.unwrap_or_else(|| g.clone());
                    game_subject(&g, Some(s.seat))
                },
                Some(format!("<game-{}.{}>", g.id, self.domain())),
                Some((g.id, s.seat)),
            ),
            None => (None, reply_subject(&self.incoming.subject), None, None),
        };
        if self.stranger && self.game.is_none() && self.items.len() > 1 {
            // Someone with no part in the game gets one short answer, not an
            // echo of everything they wrote (no backscatter to a forged
            // From, no amplification).
            let first = self.items.iter().position(|i| i.refused).unwrap_or(0);
            let left = self.items.len() - 1;
            let kept = self.items.swap_remove(first);
            self.items = vec![
                kept,
                Item {
                    line: "(the rest of this mail)".into(),
                    answer: format!("{left} more line(s) not answered."),
                    refused: true,
                },
            ];
            self.parts.clear();
        }
        let intro = if self.items.iter().any(|i| i.refused) {
            "orderly read your mail. Some of it could not be done; each line you\nwrote is answered below."
        } else {
            "orderly read your mail; each line you wrote is answered below."
        };
        let body = texts::render(
            "reply",
            minijinja::context! {
                intro => intro,
                items => self.items,
                parts => self.parts,
                address => self.config.service.address,
            },
        );
        let body = cap_reply(body, self.incoming_size);
        let id = message_id(&format!("{}/reply", self.message_id), self.domain());
        let mut references = self.incoming.references.clone();
        if let Some(own) = &self.incoming.message_id {
            references.push(own.clone());
        }
        let reply = OutgoingMail {
            message_id: id,
            from: self.sender_mailbox(),
            to: self.sender.to_string(),
            reply_to,
            subject,
            in_reply_to: self.incoming.message_id.clone(),
            references,
            list_id,
            body,
            date: self.now,
            auto: AutoKind::Replied,
            return_path: None,
            text_only: false,
        };
        self.outgoing.insert(0, (reply, game_seat));
        for (mail, seat) in std::mem::take(&mut self.outgoing) {
            let json = serde_json::to_string(&mail)
                .map_err(|e| StoreError::Corrupt(format!("outgoing mail: {e}")))?;
            self.tx.queue_mail(
                &mail.message_id,
                seat.map(|(g, _)| g),
                &mail.to,
                &json,
                self.at,
            )?;
            if let Some((g, s)) = seat {
                self.tx.set_last_message(g, s, &mail.message_id)?;
            }
        }
        Ok(())
    }
}

/// The error for a stored game of a name this orderly does not host (a
/// database written by a newer orderly, or edited by hand): nothing can be
/// done with it, and the mail at hand is retried once that is mended.
pub(crate) fn unhosted(game: i64, kind: &str) -> ServiceError {
    ServiceError::Store(StoreError::Corrupt(format!(
        "game {game} is of {kind:?}, which this orderly does not host ({})",
        hosted::GAMES.join(", ")
    )))
}

/// A stored game's own name for a seat ("Gray", "French"). The stored seat
/// word for a game this orderly does not host, so that a notice about it
/// (a bounce, a deadline) still goes out.
pub(crate) fn side_name(game: &GameRow, seat: Seat) -> &'static str {
    hosted::seat_name(&game.kind, seat).unwrap_or(seat_text(seat))
}

/// The hosted games as the help and games templates list them.
fn hosted_games() -> Vec<minijinja::Value> {
    hosted::GAMES
        .iter()
        .map(|name| {
            minijinja::context! {
                name => name.to_ascii_uppercase(),
                title => hosted::title(name),
                sides => hosted::seat_words(name),
            }
        })
        .collect()
}

/// The stored name of game `id`, if there is such a game (what a moderator
/// command's side words are read against).
fn kind_of(tx: &Tx<'_>, id: i64) -> Option<String> {
    tx.game(id).ok().flatten().map(|g| g.kind)
}

/// The decision an active stored game waits for, from its cached position.
pub(crate) fn pending_of(game: &GameRow) -> Option<Pending<String>> {
    let hosted = crate::games::hosted::find(&game.kind)?;
    (hosted.from_position)(game.position.as_deref()?)
        .ok()?
        .pending()
}

/// The game's cached state, if it reads.
pub(crate) fn load<G: GameText>(game: &GameRow) -> Option<G> {
    game.position
        .as_deref()
        .and_then(|p| G::from_position(p).ok())
}

/// Rebuilds a game's record and state from its stored entries.
pub fn rebuild<G: GameText>(tx: &Tx<'_>, game: &GameRow, site: &str) -> Result<Recorder<G>> {
    // The record holds every drawn outcome as an order, so it replays
    // without the seed, which stays the service's (design: chance).
    let mut recorder = Recorder::<G>::new(&GameOptions {
        first: game.first_seat,
        seed: None,
    });
    let seats = tx.seats(game.id)?;
    {
        let tags = recorder.tags_mut();
        tags.game_id = game.id.to_string();
        tags.site = site.to_string();
        for s in &seats {
            tags.players[s.seat.index()] = if s.name.is_empty() {
                s.address.clone()
            } else {
                format!("{} <{}>", s.name, s.address)
            };
        }
        tags.started = record_date(game.created_at);
        if game.status == GameStatus::Finished {
            tags.ended = record_date(game.updated_at);
        }
    }
    for e in tx.entries(game.id)? {
        let outcome = match (e.kind, e.seat) {
            (EntryKind::Order, _) => match recorder.game().parse_order(&e.text) {
                Ok(order) => recorder
                    .apply(&order)
                    .map(|_| ())
                    .map_err(|e| format!("{e:?}")),
                Err(err) => Err(err.to_string()),
            },
            (EntryKind::Resign, Some(seat)) => recorder.resign(seat).map_err(|e| format!("{e:?}")),
            (EntryKind::Resign, None) => Err("a resignation of nobody".to_string()),
            (EntryKind::Draw, _) => recorder.agree_draw().map_err(|e| format!("{e:?}")),
            (EntryKind::Adjudicate, _) => match result_from_text(&e.text) {
                Some(result) => recorder.adjudicate(result).map_err(|e| format!("{e:?}")),
                None => Err(format!("{:?} is no result", e.text)),
            },
            (EntryKind::Comment, _) => {
                recorder.comment(&e.text);
                Ok(())
            }
        };
        if let Err(why) = outcome {
            return Err(
                StoreError::Corrupt(format!("game {} entry {}: {why}", game.id, e.seq)).into(),
            );
        }
    }
    Ok(recorder)
}

/// `ACCEPT MODERATION 12` or `DECLINE MODERATION 12` (also `... GAME 12`):
/// (accepts?, the game).
fn moderation_answer(line: &str) -> Option<(bool, i64)> {
    let words: Vec<String> = line
        .split_whitespace()
        .take(4)
        .map(str::to_ascii_uppercase)
        .collect();
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [verb @ ("ACCEPT" | "DECLINE"), "MODERATION" | "GAME", n] => {
            Some((*verb == "ACCEPT", n.parse().ok()?))
        }
        _ => None,
    }
}

/// The smallest cap on a reply's body, in bytes: a reply is never much
/// larger than the mail it answers, so a short mail cannot make orderly
/// send a long one (amplification).
const REPLY_CAP_BYTES: usize = 64 * 1024;

/// `body`, cut at a line's end to at most the larger of
/// [`REPLY_CAP_BYTES`] and the incoming mail's size, with a note of what
/// was left out.
fn cap_reply(body: String, incoming_size: usize) -> String {
    let cap = REPLY_CAP_BYTES.max(incoming_size);
    if body.len() <= cap {
        return body;
    }
    let mut end = cap.saturating_sub(200);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let end = body[..end].rfind('\n').map_or(end, |i| i + 1);
    format!(
        "{}\n[The rest of this reply, {} bytes, is left out: a reply is at most \
         {cap} bytes. Send fewer lines in one mail.]\n",
        &body[..end],
        body.len() - end
    )
}

/// A hex digest of `parts` (the first 16 bytes of their SHA-256): what
/// names a mail by its content.
pub(crate) fn content_digest(parts: &[&[u8]]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update(part);
    }
    hash.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The Message-ID given to a mail that has none, made from its content so
/// that a second delivery of it is still a duplicate.
pub(crate) fn derived_message_id(parts: &[&[u8]]) -> String {
    format!("sha256-{}@orderly.invalid", content_digest(parts))
}

/// How one outgoing mail went: sent, or (permanent?, why not).
type SendResult = std::result::Result<(), (bool, String)>;

/// Whether a mail carries a seat's key (a reply address with one, or a
/// `GAME` line): only such a mail can act on a game, so only such a mail is
/// worth replaying.
fn carries_a_key(incoming: &Incoming, config: &Config) -> bool {
    incoming
        .recipients()
        .any(|a| claim_from_address(&config.service.address, a).is_some())
        || incoming
            .text
            .lines()
            .take(50)
            .any(|l| identity::claim_from_line(l).is_some())
}

/// What identifies a mail's content for replay detection: its sender, its
/// recipients, its Date (to the second, as written) and its text. Mails
/// without a Date are never recorded under a digest, so none of them is
/// taken for a replay.
fn replay_digest(incoming: &Incoming, sender: &str) -> String {
    let date = incoming.date.map(|d| d.to_rfc3339()).unwrap_or_default();
    let mut hasher = Sha256::new()
        .chain_update(sender.as_bytes())
        .chain_update([0])
        .chain_update(date.as_bytes())
        .chain_update([0]);
    for to in incoming.recipients() {
        hasher.update(to.as_bytes());
        hasher.update([0]);
    }
    let digest = hasher.chain_update(incoming.text.as_bytes()).finalize();
    digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// What a caught panic said.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// The time zone a `Date:` offset (seconds east of UTC) stands for: a fixed
/// `Etc/GMT` zone for whole hours (whose names count the other way), the
/// one zone that uses each of the usual half-hour offsets, else none.
fn zone_of_offset(seconds: i32) -> Option<&'static str> {
    const WHOLE: [&str; 27] = [
        "Etc/GMT+12",
        "Etc/GMT+11",
        "Etc/GMT+10",
        "Etc/GMT+9",
        "Etc/GMT+8",
        "Etc/GMT+7",
        "Etc/GMT+6",
        "Etc/GMT+5",
        "Etc/GMT+4",
        "Etc/GMT+3",
        "Etc/GMT+2",
        "Etc/GMT+1",
        "UTC",
        "Etc/GMT-1",
        "Etc/GMT-2",
        "Etc/GMT-3",
        "Etc/GMT-4",
        "Etc/GMT-5",
        "Etc/GMT-6",
        "Etc/GMT-7",
        "Etc/GMT-8",
        "Etc/GMT-9",
        "Etc/GMT-10",
        "Etc/GMT-11",
        "Etc/GMT-12",
        "Etc/GMT-13",
        "Etc/GMT-14",
    ];
    if seconds % 3600 == 0 {
        let hours = seconds / 3600;
        return usize::try_from(hours + 12)
            .ok()
            .and_then(|i| WHOLE.get(i).copied());
    }
    match seconds / 60 {
        -210 => Some("America/St_Johns"),
        210 => Some("Asia/Tehran"),
        270 => Some("Asia/Kabul"),
        330 => Some("Asia/Kolkata"),
        345 => Some("Asia/Kathmandu"),
        390 => Some("Asia/Yangon"),
        570 => Some("Australia/Darwin"),
        _ => None,
    }
}

/// A UTC time in a player's zone: `Tue 24 Nov 2026 11:00 CET
/// (Europe/Paris)`, or `... 11:00 UTC+01:00` for a zone guessed from an
/// offset; UTC when the zone is unknown.
pub fn local_time(utc: DateTime<Utc>, zone: &str) -> String {
    let tz: chrono_tz::Tz = zone.parse().unwrap_or(chrono_tz::UTC);
    let local = utc.with_timezone(&tz);
    if tz.name().starts_with("Etc/") {
        // A zone guessed from a mail's offset has no name worth showing.
        return local.format("%a %d %b %Y %H:%M UTC%:z").to_string();
    }
    let shown = local.format("%a %d %b %Y %H:%M %Z").to_string();
    if tz == chrono_tz::UTC {
        shown
    } else {
        format!("{shown} ({})", tz.name())
    }
}

/// The date (UTC) of a stored time, for a record's tags.
fn record_date(at: Timestamp) -> Option<crate::record::Date> {
    use chrono::Datelike;
    let date = at.utc().date_naive();
    crate::record::Date::new(
        u16::try_from(date.year()).ok()?,
        u8::try_from(date.month()).ok()?,
        u8::try_from(date.day()).ok()?,
    )
}

/// The update text for one seat: what happened, the board from that seat,
/// and the choices or whom the game waits for.
pub fn update_text<G: GameText>(
    tx: &Tx<'_>,
    game: &GameRow,
    state: &G,
    seat: Seat,
    happened: &[Happened],
) -> Result<String> {
    // The key to the board's marks comes with a game's first board; later
    // boards leave it out (HELP BOARD sends it again).
    update_text_keyed(tx, game, state, seat, happened, game.order_count == 0, &[])
}

/// [`update_text`], saying whether the board carries its key.
pub fn update_text_keyed<G: GameText>(
    tx: &Tx<'_>,
    game: &GameRow,
    state: &G,
    seat: Seat,
    happened: &[Happened],
    key: bool,
    already_told: &[String],
) -> Result<String> {
    let seats = tx.seats(game.id)?;
    let name = |s: Seat| {
        seats
            .iter()
            .find(|r| r.seat == s)
            .map(|r| {
                if r.name.is_empty() {
                    r.address.clone()
                } else {
                    format!("{} <{}>", r.name, r.address)
                }
            })
            .unwrap_or_default()
    };
    let pending = state.pending();
    let result = match (game.result, state.outcome()) {
        (Some(r), _) => Some(format!(
            "{}{}",
            match r {
                GameResult::Draw => "a draw".to_string(),
                GameResult::Win(winner) => format!("{} wins", G::seat_name(winner)),
            },
            game.termination
                .as_deref()
                .map(|t| format!(" ({t})"))
                .unwrap_or_default()
        )),
        (None, Some(o)) => Some(G::ending_words(&o.reason)),
        _ => None,
    };
    let draw_offer = match game.draw_offer {
        Some(s) if s != seat && result.is_none() => Some(format!(
            "{} offers a draw: write ACCEPT DRAW or DECLINE DRAW.",
            G::seat_name(s)
        )),
        _ => None,
    };
    let paused = tx.paused_until(game.id)?;
    let deadline = match (paused, tx.deadline(game.id)?) {
        // A paused game's clock stands still: no deadline before the pause
        // ends is announced.
        (Some(until), _) => {
            let address = seats
                .iter()
                .find(|r| r.seat == seat)
                .map(|r| r.address.clone())
                .unwrap_or_default();
            let (zone, _) = tx.player_settings(&address)?;
            Some(format!(
                "The game is paused by the moderators until {}; the clock stands \
                 still till then.",
                local_time(until.utc(), &zone)
            ))
        }
        (None, Some(d)) => {
            let address = seats
                .iter()
                .find(|r| r.seat == seat)
                .map(|r| r.address.clone())
                .unwrap_or_default();
            let (zone, _) = tx.player_settings(&address)?;
            Some(format!(
                "{} must act by {}.",
                if d.seat == seat {
                    "You".to_string()
                } else {
                    G::seat_name(d.seat).to_string()
                },
                local_time(d.at.utc(), &zone)
            ))
        }
        (None, None) => None,
    };
    // What this seat answered in advance: only its own, never the other's.
    let answers: Vec<String> =
        serde_json::from_str::<Vec<AnswerInAdvance>>(&tx.conditions(game.id, seat)?)
            .unwrap_or_default()
            .into_iter()
            .map(|a| a.written)
            .collect();
    let text = texts::render(
        "update",
        minijinja::context! {
            answers => answers,
            deadline => deadline,
            game => game.id,
            title => G::TITLE,
            north_side => G::seat_name(Seat::North),
            north_name => name(Seat::North),
            south_side => G::seat_name(Seat::South),
            south_name => name(Seat::South),
            you => G::seat_name(seat),
            happened => untold(&happened.iter().map(|h| AnyGame::event_text(state, h, seat)).collect::<Vec<_>>(), already_told).iter().map(|h| texts::wrap(&format!("  {h}")).trim_end().to_string()).collect::<Vec<_>>(),
            board => AnyGame::draw_board(state, seat, happened, &BoardStyle {
                without_key: !key,
                // A result the rules did not reach (a resignation, a draw
                // agreed, a moderator's ruling) replaces whose move it is.
                ended: result.clone().filter(|_| state.outcome().is_none()),
                // "What happened" tells the last action once.
                without_last: !happened.is_empty(),
            }),
            result => result,
            yours => pending.is_some_and(|p| p.seat == seat),
            choices => GameText::choices(state, seat),
            waiting => pending.map(|p| format!("{} ({})", G::seat_name(p.seat), p.kind)).unwrap_or_default(),
            draw_offer => draw_offer,
        },
    );
    Ok(texts::wrap(&text))
}

/// An answer a player gave in advance: when `condition` holds for their
/// decision, `then` is their order.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
struct AnswerInAdvance {
    condition: crate::games::Condition,
    then: String,
    /// As the record shows it: `IF ATTACKED AT B2C RETREAT B1R`.
    written: String,
}

/// Splits a mail's order lines at `;` and sets the answers given in
/// advance (`IF ...`) apart from the orders.
fn split_answers_in_advance(lines: &[String]) -> (Vec<String>, Vec<String>) {
    let mut orders = Vec::new();
    let mut ifs = Vec::new();
    for part in lines.iter().flat_map(|l| l.split(';')) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let first = part.split_whitespace().next().unwrap_or_default();
        if first.eq_ignore_ascii_case("IF") {
            ifs.push(part.to_string());
        } else {
            orders.push(part.to_string());
        }
    }
    (orders, ifs)
}

/// Reads `IF <condition> <answer>`: the longest beginning the game reads as
/// a condition, and the order after it.
fn read_answer_in_advance<G: GameText>(
    state: &G,
    line: &str,
) -> std::result::Result<AnswerInAdvance, String> {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut found = None;
    let mut why = String::from("write IF <condition> <answer>");
    let mut longer = Vec::new();
    for k in 1..words.len() {
        match state.read_condition(&words[..k].join(" ")) {
            Ok(c) => found = Some((c, k)),
            Err(e) if found.is_none() => why = e,
            Err(e) => longer.push(e),
        }
    }
    // `IF ATTACKED AT B9Z ...`: the condition goes on past what was read,
    // so what is wrong is in the longer condition.
    if let Some((_, k)) = &found {
        let next = words
            .get(*k)
            .map(|w| w.to_ascii_uppercase())
            .unwrap_or_default();
        if matches!(next.as_str(), "AT" | "IN" | "ON") {
            return Err(longer.pop().unwrap_or(why));
        }
    }
    match found.map(|(c, k)| (c, words[k..].join(" "))) {
        Some((condition, then)) => Ok(AnswerInAdvance {
            written: format!("IF {} {then}", condition.text),
            condition,
            then,
        }),
        None => Err(why),
    }
}

/// The events of `happened` in words, less those the reader was already
/// told in this mail (each told event hides one equal event).
fn untold(happened: &[String], already_told: &[String]) -> Vec<String> {
    let mut told: Vec<&str> = already_told.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for event in happened {
        let text = event.clone();
        match told.iter().position(|t| *t == text) {
            Some(i) => {
                told.swap_remove(i);
            }
            None => out.push(text),
        }
    }
    out
}

/// Ends a sentence with a full stop unless it has its own mark.
fn sentence(text: &str) -> String {
    if text.ends_with(['.', '?', '!']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

/// The subject of a mail about `game` to the player of `seat` (or to
/// someone else): the game and its state in a few words, `Game 12: your
/// move (turn 27)`, `Game 12: Gray attacks B2C - retreat or stand?`,
/// `Game 12: over - Blue wins 11-2`. Threading rests on In-Reply-To and
/// References, which stay as they are.
pub fn game_subject(game: &GameRow, seat: Option<Seat>) -> String {
    let headline = match game.status {
        GameStatus::Invited => format!("invitation to {}", game.kind.to_ascii_uppercase()),
        GameStatus::Declined => "declined".to_string(),
        GameStatus::Expired => "invitation expired".to_string(),
        GameStatus::Active | GameStatus::Finished => {
            crate::with_game!(&game.kind, G => headline::<G>(game, seat))
                .flatten()
                .unwrap_or_else(|| game.kind.to_ascii_uppercase())
        }
    };
    format!("Game {}: {headline}", game.id)
}

fn headline<G: GameText>(game: &GameRow, seat: Option<Seat>) -> Option<String> {
    let state = load::<G>(game)?;
    if state.outcome().is_none() {
        if let Some(result) = game.result {
            // Ended outside the rules: a resignation, a draw, a ruling.
            let how = game
                .termination
                .as_deref()
                .map(|t| format!(" ({t})"))
                .unwrap_or_default();
            return Some(match result {
                GameResult::Win(w) => format!("over - {} wins{how}", G::seat_name(w)),
                GameResult::Draw => format!("over - a draw{how}"),
            });
        }
    }
    // Someone outside the game reads it as a bystander: nobody's "your".
    let viewer = seat
        .or_else(|| state.pending().map(|p| p.seat.other()))
        .unwrap_or(Seat::North);
    Some(state.headline(viewer))
}

fn reply_subject(subject: &str) -> String {
    let s = subject.trim();
    if s.is_empty() {
        "orderly".into()
    } else if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:")) {
        s.to_string()
    } else {
        format!("Re: {s}")
    }
}
