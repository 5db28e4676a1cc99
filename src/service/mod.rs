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
//! Several mails waiting share one transaction (group commit, up to
//! `[service] batch_max`), each in its own savepoint: the same holds for
//! each of them, and a mail that fails is rolled back alone.
//!
//! The life of one mail, and the file that holds each step:
//!
//! 1. `poll.rs`: the daemon's loop lists the waiting mail and processes it
//!    in batches, one transaction a batch and one savepoint a mail (alone:
//!    [`Service::process_sized`]); a mail that fails or panics is counted
//!    and, after `max_attempts`, set aside in the quarantine.
//! 2. `incoming.rs`: in one transaction, a duplicate is skipped, a bounce
//!    goes to `notices.rs`, automatic mail, loops, replays and floods are
//!    set aside unanswered (`limits.rs`: a mail too large gets one short
//!    answer); anything else becomes a `Work`.
//! 3. `work.rs`: the per-mail context; which game and seat the mail may act
//!    for (its key, `identity.rs`), and the warning to a seat whose key a
//!    stranger used. `moderators.rs`: a mail to a moderator address.
//! 4. `dispatch.rs`: each line, read by `lines.rs` and `commands.rs`, goes
//!    to its job: `invitation.rs` (NEW), `lifecycle.rs` (ACCEPT, DECLINE,
//!    RESIGN, draws, CLAIM WIN, MODERATOR), `orders.rs` (orders and held
//!    lines) with `in_advance.rs` (IF ...), `settings.rs` (address,
//!    vacation, time zone, reminders, digest), `press.rs` (SAY),
//!    `inform.rs` and `rules.rs` (HELP, GAMES, BOARD, HISTORY, HELP RULES),
//!    `observers.rs` (WATCH, UNWATCH, GAMES PUBLIC, and every update told
//!    to the watchers of a public game), `ratings.rs` (RATINGS, RATING,
//!    and what a rated game's end does to its players' ratings).
//!    `dice.rs` draws the chance a game waits for after an order, fairly
//!    (docs/dice.md).
//! 5. `reply.rs`: every line is answered with a typed [`Answer`]; the reply
//!    echoes them; `compose.rs` queues the updates (`update.rs`) and
//!    notices to the seats, once every line is answered: one mail to each
//!    seat a mail (one update telling all that its lines made happen,
//!    headed by the notices and messages for that seat), with subjects from
//!    `subject.rs`, every sentence from `templates/` (`texts.rs`). The
//!    transaction commits.
//! 6. `outbox.rs`: every mail is queued dated after the one queued before
//!    it, and in a later second than the last to its address, so that mail
//!    programs list a player's mail in the order sent. The outbox is
//!    drained; failures are retried with backoff, and permanent ones make
//!    a seat undeliverable. The daemon
//!    ([`Service::poll_pipelined`]) sends one poll's replies on a second
//!    thread, through a connection of its own, while the next poll is
//!    processed; they are marked sent on the service's thread after the
//!    sender's sync, as when sent in line.
//!
//! Beside the mail: `clock.rs` (deadlines, reminders, vacations, the sweep),
//! `moderation.rs` (what moderators do), `notices.rs` (what orderly sends
//! on its own), `admin.rs` (the command line's views), `rebuild.rs` (a game
//! replayed from its entries), `game.rs` (a stored game as the service sees
//! it), `zones.rs` (time zones), `computer.rs` (the computer's seat),
//! `observers.rs` and `ratings.rs` (watchers, Glicko-2), `daily.rs` (the
//! Play of the Day: members, votes, rounds closed at the sweep).
//!
//! The service knows no game's rules or types: a stored game says which it
//! is by its name (`GameRow::kind`), the registry
//! ([`hosted`](crate::games::hosted)) gives it as a `Box<dyn AnyGame>`
//! (`game.rs`), and every step speaks to it through that door in canonical
//! orders, events as data and words, and the neutral phase of play.

pub mod admin;
mod clock;
pub mod commands;
mod compose;
mod computer;
mod daily;
mod dice;
mod dispatch;
mod game;
pub mod identity;
mod in_advance;
mod incoming;
mod inform;
mod invitation;
mod lifecycle;
mod limits;
pub mod lines;
pub mod moderation;
mod moderators;
mod notices;
mod observers;
mod orders;
mod outbox;
mod poll;
mod press;
pub mod ratings;
mod rebuild;
mod reply;
mod rules;
mod settings;
mod subject;
pub mod texts;
mod update;
mod work;
mod zones;

use std::time::Instant;

use chrono::{DateTime, Utc};

use crate::clock::Clock;
use crate::config::Config;
use crate::games::Seat;
use crate::mail::maildir::Maildir;
use crate::mail::outgoing::{FileSender, MailSender};
use crate::mail::{Mailbox, MailboxError};
use crate::store::{Store, StoreError};

pub use clock::{fresh_deadline, sweep, SweepReport};
pub use notices::undeliverable;
pub use rebuild::rebuild;
pub use reply::Answer;
pub use subject::game_subject;
pub use update::{update_text, update_text_keyed, BoardWanted};
pub use zones::local_time;

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
    sender: std::sync::Arc<dyn MailSender>,
    /// The pipeline's own connection to the store, kept between batches
    /// (opened at the first [`poll_pipelined`](Service::poll_pipelined)).
    reader: Option<Store>,
    /// The batch of the outbox being sent on the pipeline's thread.
    in_flight: Option<outbox::InFlight>,
    /// When the deadlines were last swept (deadlines are hours apart: a
    /// sweep a minute is plenty, and each costs a commit).
    last_sweep: Option<Instant>,
    /// What "now" is: the system clock, or the one `--now` set.
    clock: Clock,
}

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
        let sender: std::sync::Arc<dyn MailSender> =
            match (&config.outgoing.smtp, &config.outgoing.sendmail) {
                (Some(smtp), _) => {
                    std::sync::Arc::new(crate::mail::outgoing::SmtpSender::new(smtp).map_err(
                        |e| crate::config::ConfigError::Value(format!("[outgoing.smtp]: {e}")),
                    )?)
                }
                (None, Some(command)) => {
                    std::sync::Arc::new(crate::mail::outgoing::SendmailSender::new(command))
                }
                (None, None) => {
                    crate::private::create_dir_all(&config.outgoing.dir)?;
                    std::sync::Arc::new(FileSender::new(&config.outgoing.dir))
                }
            };
        Ok(Service {
            config,
            secret,
            store,
            inbox,
            sender,
            reader: None,
            in_flight: None,
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
}

impl Drop for Service {
    /// Finishes the batch being sent on the pipeline's thread, if any, and
    /// marks it: dropped unmarked, it would only be sent again (under the
    /// same Message-IDs) by the next start.
    fn drop(&mut self) {
        if let Err(e) = self.finish_sending() {
            tracing::warn!(error = %e, "could not mark the last mails sent; they will be sent again");
        }
    }
}
