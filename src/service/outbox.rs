//! The outbox: every mail orderly decides is queued here, dated in the
//! order it was queued ([`queue`]). Draining it: every mail due is sent
//! (several at a time), and marked sent or failed in one transaction per
//! batch; a failure is tried again with a doubling wait, and one that
//! cannot succeed makes the seat undeliverable and is told to those
//! concerned.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::notices::undeliverable;
use super::poll::panic_text;
use super::{texts, Result, Service};
use crate::mail::bounce;
use crate::mail::outgoing::{MailSender, OutgoingMail, SendError};
use crate::store::{Store, StoreError, Timestamp, Tx};

/// Queues `mail` (about `game`, if any), due at `at`, first dating it so
/// that the order of the mails is never in doubt: its Date is its own
/// moment, but at least a millisecond after the mail queued before it (the
/// sent files' names, which begin with the date to the millisecond, sort
/// in the order the mails were decided) and in a later second than the
/// last mail to the same address (a Date header holds whole seconds, and
/// mail programs list a reader's mail by it: two updates of one poll would
/// otherwise tie, and be shown in any order). The Date is kept with the
/// mail, so a retry sends the same. A mail is dated a few seconds ahead
/// only when one address gets several in a second.
pub(super) fn queue(
    tx: &Tx<'_>,
    mail: &mut OutgoingMail,
    game: Option<i64>,
    at: Timestamp,
) -> Result<()> {
    let (last, last_to) = tx.last_mail_dates(&mail.to)?;
    let mut date = Timestamp::from(mail.date).utc();
    if let Some(last) = last {
        date = date.max(last.utc() + chrono::Duration::milliseconds(1));
    }
    if let Some(last_to) = last_to {
        use chrono::SubsecRound;
        date = date.max(last_to.utc().trunc_subsecs(0) + chrono::Duration::seconds(1));
    }
    mail.date = date;
    let json = serde_json::to_string(&*mail)
        .map_err(|e| StoreError::Corrupt(format!("outgoing mail: {e}")))?;
    tx.queue_mail(&mail.message_id, game, &mail.to, &json, at, date.into())?;
    Ok(())
}

/// The most outbox mails sent, synced and marked in one step: the replies
/// of a whole batch of incoming mail (two or three mails each) at once.
const DRAIN_BATCH: i64 = 300;

impl Service {
    /// Sends every mail due in the outbox, marking each sent or failed. A
    /// batch still being sent on the pipeline's thread
    /// ([`poll_pipelined`](Service::poll_pipelined)) is finished first:
    /// the sender is never used by two drains at once, and no row is sent
    /// by both.
    pub fn drain_outbox(&mut self, now: DateTime<Utc>) -> Result<(usize, usize)> {
        let (mut sent, mut failed) = self.finish_sending()?;
        loop {
            let due = {
                let tx = self.store.tx()?;
                let due = tx.due_mail(now.into(), DRAIN_BATCH)?;
                tx.commit()?;
                due
            };
            if due.is_empty() {
                break;
            }
            let results = self.sending().send_and_sync(&due);
            let (s, f) = self.mark(&due, results, now)?;
            sent += s;
            failed += f;
            if f > 0 {
                break;
            }
        }
        Ok((sent, failed))
    }

    /// Marks each of `due` sent or failed by its result, in one
    /// transaction: a crash before it sends the batch again under the same
    /// Message-IDs (at least once).
    fn mark(
        &mut self,
        due: &[crate::store::OutboxRow],
        results: Vec<SendResult>,
        now: DateTime<Utc>,
    ) -> Result<(usize, usize)> {
        let (mut sent, mut failed) = (0, 0);
        let tx = self.store.tx()?;
        for (row, result) in due.iter().zip(results) {
            match result {
                Ok(()) => {
                    tx.mark_sent(row.id, self.clock.now().into())?;
                    sent += 1;
                }
                Err(failure) => {
                    let (permanent, error) = (failure.is_permanent(), failure.to_string());
                    let retry = retry_at(
                        self.config.outgoing.retry_base_secs,
                        row.attempts,
                        permanent,
                        now,
                    );
                    tracing::warn!(message_id = %row.message_id, %error, permanent, "send failed");
                    tx.mark_failed(row.id, &error, retry)?;
                    if retry.is_none() {
                        let why = texts::say(
                            "notices.send_failed",
                            minijinja::context! { error => error },
                        );
                        undeliverable(&tx, &self.config, row.id, &why, now)?;
                    }
                    failed += 1;
                }
            }
        }
        tx.commit()?;
        Ok((sent, failed))
    }

    /// What sending needs, owned, so that a batch can be sent on the
    /// pipeline's thread while this one goes on with the service.
    fn sending(&self) -> Sending {
        Sending {
            sender: Arc::clone(&self.sender),
            local: self.config.bounces.local.clone(),
            domain: self.config.address_parts().1.to_string(),
            secret: self.secret.clone(),
            html: self.config.outgoing.html,
            pictures: self.config.outgoing.pictures,
        }
    }

    /// Starts sending, on a thread of its own, the mail due at `now`: one
    /// batch (up to [`DRAIN_BATCH`]) read through the pipeline's own
    /// connection, handed to the sender and synced there, while this
    /// thread processes the next mail. The rows are marked by
    /// [`finish_sending`](Self::finish_sending), on this thread, so that
    /// the pipeline's connection only ever reads and never waits for the
    /// write lock that a batch being processed holds. Only committed rows
    /// are read (WAL: the read sees the last commit), and only one batch is
    /// in flight at a time, so no row is sent by two drains.
    pub(super) fn start_sending(&mut self, now: DateTime<Utc>) -> Result<()> {
        let (sent, failed) = self.finish_sending()?;
        debug_assert_eq!((sent, failed), (0, 0), "one batch in flight at a time");
        let store = match self.reader.take() {
            Some(store) => store,
            None => Store::open(&self.config.store.path)?,
        };
        let sending = self.sending();
        let handle = std::thread::Builder::new()
            .name("orderly-send".into())
            .spawn(move || {
                let mut store = store;
                let sent = (|| -> std::result::Result<Vec<crate::store::OutboxRow>, StoreError> {
                    let tx = store.read()?;
                    let due = tx.due_mail(now.into(), DRAIN_BATCH)?;
                    tx.commit()?;
                    Ok(due)
                })()
                .map(|due| {
                    let results = sending.send_and_sync(&due);
                    (due, results)
                });
                (store, sent)
            })?;
        self.in_flight = Some(InFlight { handle, now });
        Ok(())
    }

    /// Waits for the batch in flight (if any) to be sent and synced, and
    /// marks its rows sent or failed. A pipeline thread that died (a panic
    /// outside any one mail's send) marks nothing: what it handed over is
    /// sent again under the same Message-IDs, at least once as after a
    /// crash.
    pub(super) fn finish_sending(&mut self) -> Result<(usize, usize)> {
        let Some(in_flight) = self.in_flight.take() else {
            return Ok((0, 0));
        };
        match in_flight.handle.join() {
            Ok((store, sent)) => {
                self.reader = Some(store);
                let (due, results) = sent?;
                self.mark(&due, results, in_flight.now)
            }
            Err(panic) => {
                tracing::error!(panic = %panic_text(panic.as_ref()), "sending thread panicked; its mail will be sent again");
                Ok((0, 0))
            }
        }
    }
}

/// A batch of the outbox being sent on the pipeline's thread: the thread
/// gives back its connection (kept for the next batch) and the rows it
/// read with how each went.
pub(super) struct InFlight {
    handle: std::thread::JoinHandle<(Store, std::result::Result<Sent, StoreError>)>,
    /// The time the batch was due at (retries are counted from it).
    now: DateTime<Utc>,
}

/// The rows of one batch and how each went.
type Sent = (Vec<crate::store::OutboxRow>, Vec<SendResult>);

/// What sending a batch needs, owned: the sender and what each mail's
/// envelope (its bounce address) and form take from the configuration.
struct Sending {
    sender: Arc<dyn MailSender>,
    local: String,
    domain: String,
    secret: Vec<u8>,
    html: bool,
    pictures: bool,
}

impl Sending {
    /// Sends `due` ([`send_batch`](Self::send_batch)) and makes the
    /// handovers durable at once (for files: their directory synced once,
    /// not once a mail); until then none of them may be marked sent, and a
    /// failed sync leaves them all to be sent again under the same
    /// Message-IDs.
    fn send_and_sync(&self, due: &[crate::store::OutboxRow]) -> Vec<SendResult> {
        let mut results = self.send_batch(due);
        if results.iter().any(|r| r.is_ok()) {
            if let Err(e) = self.sender.sync() {
                let error = e.to_string();
                for result in results.iter_mut().filter(|r| r.is_ok()) {
                    *result = Err(Unsent::Unsynced(error.clone()));
                }
            }
        }
        results
    }

    /// Sends a batch of outbox mails, several at a time: a relay answers
    /// each mail after tens of milliseconds, and one at a time would make
    /// those waits the service's limit. Results come in the batch's order.
    /// A batch of one or two mails (an order's reply and its opponent's
    /// update) is sent on this thread: starting the threads cost more than
    /// the overlap saved. A sender that does not wait
    /// ([`MailSender::parallel`]) gets one thread per core, and only for a
    /// batch large enough that formatting its mails (tens of microseconds
    /// each) outweighs the threads' start.
    fn send_batch(&self, due: &[crate::store::OutboxRow]) -> Vec<SendResult> {
        const PARALLEL: usize = 8;
        const ON_THIS_THREAD: usize = 2;
        const WORTH_A_CORE: usize = 32;
        let sender: &dyn MailSender = self.sender.as_ref();
        let (local, domain, secret, html, pictures) = (
            self.local.as_str(),
            self.domain.as_str(),
            self.secret.as_slice(),
            self.html,
            self.pictures,
        );
        let send = move |row: &crate::store::OutboxRow| match serde_json::from_str::<OutgoingMail>(
            &row.mail,
        ) {
            Ok(mut mail) => {
                mail.return_path = Some(bounce::verp_address(local, domain, row.id, secret));
                mail.text_only = !html;
                // The server's setting applies to mail already queued too.
                if !pictures {
                    mail.picture = None;
                }
                sender.send_unsynced(&mail).map_err(Unsent::from)
            }
            Err(e) => Err(Unsent::Unreadable(e)),
        };
        // A send that panics is that mail's failure (tried again later).
        let send = move |row: &crate::store::OutboxRow| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| send(row)))
                .unwrap_or_else(|p| Err(Unsent::Panicked(panic_text(p.as_ref()))))
        };
        let threads = if due.len() <= ON_THIS_THREAD {
            1
        } else if sender.parallel() {
            PARALLEL.min(due.len())
        } else if due.len() >= WORTH_A_CORE {
            std::thread::available_parallelism()
                .map_or(1, usize::from)
                .min(PARALLEL)
        } else {
            1
        };
        if threads == 1 {
            return due.iter().map(send).collect();
        }
        // Each worker takes the next mail waiting, so a slow or failing mail
        // (a server that takes its time to refuse one address) holds up one
        // worker, never the mails queued behind it.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<std::sync::Mutex<Option<SendResult>>> =
            due.iter().map(|_| std::sync::Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..threads {
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
                    .unwrap_or(Err(Unsent::Lost))
            })
            .collect()
    }
}

/// How one outgoing mail went: sent, or why not.
type SendResult = std::result::Result<(), Unsent>;

/// Why one mail of the outbox was not sent this time; what is logged and
/// stored as its error is this, in words.
#[derive(Debug, thiserror::Error)]
enum Unsent {
    /// The sender did not take it ([`SendError::is_permanent`] says
    /// whether it ever will).
    #[error(transparent)]
    Send(#[from] SendError),
    /// The stored mail does not read (written by another version of
    /// orderly, or edited by hand): it never will.
    #[error("unreadable outbox entry: {0}")]
    Unreadable(serde_json::Error),
    /// The sender panicked on it: tried again later.
    #[error("sending panicked: {0}")]
    Panicked(String),
    /// No worker reported on it (one died): tried again later.
    #[error("not sent")]
    Lost,
    /// Handed over, but the sync that makes the batch durable failed:
    /// tried again later.
    #[error("not synced: {0}")]
    Unsynced(String),
}

impl Unsent {
    /// Whether no retry can succeed, so that the mail is given up and its
    /// seat made undeliverable.
    fn is_permanent(&self) -> bool {
        match self {
            Unsent::Send(e) => e.is_permanent(),
            Unsent::Unreadable(_) => true,
            Unsent::Panicked(_) | Unsent::Lost | Unsent::Unsynced(_) => false,
        }
    }
}

/// When a mail that failed `attempts` times before is tried again: the
/// wait doubles from `base_secs` with each attempt, twelve times; a
/// permanent failure is not retried (`None`: given up).
fn retry_at(
    base_secs: u64,
    attempts: i64,
    permanent: bool,
    now: DateTime<Utc>,
) -> Option<Timestamp> {
    (!permanent && attempts < 12).then(|| {
        let wait = Duration::from_secs(base_secs << attempts.min(10));
        Timestamp::from(now + chrono::Duration::from_std(wait).unwrap_or_default())
    })
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, Utc};

    use super::{retry_at, Unsent};
    use crate::mail::outgoing::SendError;
    use crate::store::Timestamp;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_default()
    }

    /// A sender that notes the thread each mail was sent on.
    struct OnThread {
        parallel: bool,
        threads: std::sync::Arc<std::sync::Mutex<Vec<std::thread::ThreadId>>>,
    }

    impl crate::mail::outgoing::MailSender for OnThread {
        fn send(&self, _: &crate::mail::outgoing::OutgoingMail) -> Result<(), SendError> {
            self.threads
                .lock()
                .expect("not poisoned")
                .push(std::thread::current().id());
            Ok(())
        }

        fn parallel(&self) -> bool {
            self.parallel
        }
    }

    #[test]
    fn small_batches_and_senders_that_do_not_wait_send_on_the_calling_thread() {
        use crate::mail::outgoing::{AutoKind, OutgoingMail};
        let dir = std::env::temp_dir().join(format!("orderly-outbox-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut config = crate::config::Config::default();
        config.service.address = "orderly@example.org".into();
        config.service.secret = Some("outbox-secret".into());
        config.store.path = dir.join("orderly.db");
        config.intake.maildir = dir.join("inbox");
        config.outgoing.dir = dir.join("sent");
        let mut service = crate::service::Service::open(config).expect("the service opens");
        let rows = |n: i64| -> Vec<crate::store::OutboxRow> {
            (1..=n)
                .map(|id| {
                    let mail = OutgoingMail {
                        message_id: format!("m{id}@example.org"),
                        from: "orderly <orderly@example.org>".into(),
                        to: "ann@example.net".into(),
                        reply_to: None,
                        subject: "Game 1".into(),
                        in_reply_to: None,
                        references: Vec::new(),
                        list_id: None,
                        body: "Hello\n".into(),
                        date: at("2026-11-24T10:00:00Z"),
                        auto: AutoKind::Generated,
                        return_path: None,
                        text_only: false,
                        picture: None,
                    };
                    crate::store::OutboxRow {
                        id,
                        message_id: mail.message_id.clone(),
                        mail: serde_json::to_string(&mail).expect("JSON"),
                        attempts: 0,
                    }
                })
                .collect()
        };
        let here = std::thread::current().id();
        // Which threads sent a batch of `n` with a sender that does or does
        // not wait; every mail of it is reported sent.
        let mut sent_on = |parallel: bool, n: i64| {
            let threads = std::sync::Arc::default();
            service.sender = std::sync::Arc::new(OnThread {
                parallel,
                threads: std::sync::Arc::clone(&threads),
            });
            let results = service.sending().send_batch(&rows(n));
            assert_eq!(results.len(), n as usize);
            assert!(results.iter().all(Result::is_ok));
            let threads = threads.lock().expect("not poisoned").clone();
            threads
        };
        assert_eq!(sent_on(true, 1), [here]);
        assert_eq!(sent_on(true, 2), [here, here]);
        assert_eq!(sent_on(false, 5), [here; 5]);
        // A relay's waits overlap from three mails on.
        let parallel = sent_on(true, 3);
        assert_eq!(parallel.len(), 3);
        assert!(!parallel.contains(&here));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_wait_doubles_twelve_times_and_a_permanent_failure_is_given_up() {
        let now = at("2026-11-24T10:00:00Z");
        assert_eq!(
            retry_at(60, 0, false, now),
            Some(Timestamp::from(at("2026-11-24T10:01:00Z")))
        );
        assert_eq!(
            retry_at(60, 3, false, now),
            Some(Timestamp::from(at("2026-11-24T10:08:00Z")))
        );
        // Past ten attempts the wait stops growing, and after twelve the
        // mail is given up.
        assert_eq!(retry_at(60, 11, false, now), retry_at(60, 10, false, now));
        assert_eq!(retry_at(60, 12, false, now), None);
        assert_eq!(retry_at(60, 0, true, now), None);
    }

    #[test]
    fn what_is_stored_says_why_in_the_words_it_always_did() {
        let smtp = Unsent::from(SendError::Smtp {
            code: Some(550),
            message: "no such user".into(),
            permanent: true,
        });
        assert_eq!(smtp.to_string(), "SMTP: no such user");
        assert!(smtp.is_permanent());
        let unreadable = match serde_json::from_str::<u8>("x") {
            Err(e) => Unsent::Unreadable(e),
            Ok(_) => unreachable!("x is no number"),
        };
        assert!(unreadable
            .to_string()
            .starts_with("unreadable outbox entry: "));
        assert!(unreadable.is_permanent());
        let panicked = Unsent::Panicked("boom".into());
        assert_eq!(panicked.to_string(), "sending panicked: boom");
        assert!(!panicked.is_permanent());
        assert_eq!(Unsent::Lost.to_string(), "not sent");
        assert!(!Unsent::Lost.is_permanent());
    }
}
