//! The daemon's loop: each poll reads the waiting mail in batches of up
//! to `batch_max`, one transaction a batch and one savepoint a mail (a
//! failure or a panic is that mail's, counted, and after `max_attempts`
//! the mail is set aside), sweeps the deadlines now and then, and drains
//! the outbox.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::clock::{sweep, SweepReport};
use super::incoming::content_digest;
use super::{notices, PollReport, Processed, Result, Service};
use crate::mail::intake;
use crate::store::seat_text;

/// How often the daemon sweeps the deadlines.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

impl Service {
    /// Processes every mail waiting in the Maildir, then drains the outbox:
    /// when it returns, every reply to what it processed has been sent
    /// (or has failed and waits for its retry).
    pub fn poll_once(&mut self) -> Result<PollReport> {
        let mut report = PollReport::default();
        self.take_in(&mut report)?;
        let (sent, failed) = self.drain_outbox(self.clock.now())?;
        report.sent = sent;
        report.failed += failed;
        Ok(report)
    }

    /// A poll whose sending overlaps the next poll's processing (the
    /// daemon's loop): the mail waiting is processed, then the replies of
    /// the previous poll, sent meanwhile on the pipeline's thread, are
    /// marked sent, and the replies of this one start on their way. The
    /// report's `sent` counts the previous poll's replies. A poll that
    /// processes no mail sends everything due before it returns, as
    /// [`poll_once`](Self::poll_once) does, so that no reply waits for the
    /// next mail to come in; [`finish_sending_all`](Self::finish_sending_all)
    /// ends a run of polls the same way.
    ///
    /// Exactly once holds as with `poll_once`: a row is read for sending
    /// only once it is committed, marked sent only after the sender's sync,
    /// and a crash in between sends it again under the same Message-ID.
    pub fn poll_pipelined(&mut self) -> Result<PollReport> {
        let mut report = PollReport::default();
        self.take_in(&mut report)?;
        // Only a poll that committed mail overlaps its sending with the
        // next poll: the daemon polls again at once after it. A mail that
        // failed stays waiting and must wait for the poll interval as
        // before, not be retried (and set aside) in a tight loop.
        let (sent, failed) = if report.processed == 0 {
            self.drain_outbox(self.clock.now())?
        } else {
            let finished = self.finish_sending()?;
            self.start_sending(self.clock.now())?;
            finished
        };
        report.sent = sent;
        report.failed += failed;
        Ok(report)
    }

    /// Sends everything due, the batch in flight first: what ends a run of
    /// [`poll_pipelined`](Self::poll_pipelined) (a stop, or a benchmark's
    /// last poll).
    pub fn finish_sending_all(&mut self) -> Result<(usize, usize)> {
        self.drain_outbox(self.clock.now())
    }

    /// Processes the mail waiting, in batches, and sweeps the deadlines
    /// when a sweep is due.
    fn take_in(&mut self, report: &mut PollReport) -> Result<()> {
        // A mailbox that cannot be read now (a server restarting) is
        // logged; the service goes on sending and tries again next poll.
        let read_limit = crate::mail::ReadLimit::of(&self.config.intake.limits());
        let waiting = self.inbox.waiting_within(read_limit).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "incoming mailbox not readable now");
            Vec::new()
        });
        let batch_max = (self.config.service.batch_max.max(1)) as usize;
        for batch in waiting.chunks(batch_max) {
            self.process_batch(batch, report);
        }
        if self.last_sweep.is_none_or(|t| t.elapsed() >= SWEEP_EVERY) {
            self.last_sweep = Some(Instant::now());
            let swept = self.sweep(self.clock.now())?;
            if swept.reminders + swept.late + swept.timed_out + swept.forgotten_mail > 0 {
                tracing::info!(?swept, "deadlines swept");
            }
        }
        Ok(())
    }

    /// Processes `batch` in one transaction (group commit): each mail in
    /// its own savepoint, so that a mail that fails or panics is rolled
    /// back alone and counted as failed (after the commit, in its own
    /// transaction, as a failure always was); the others are committed
    /// together, and only then marked done. A crash before the commit
    /// leaves every mail of the batch waiting and nothing of them stored;
    /// a crash after it leaves their Message-IDs recorded, which makes the
    /// mails listed again no-ops. Should the batch itself fail (a full
    /// disk, a savepoint that cannot be rolled back), nothing of it is
    /// kept and its mails are processed again one by one.
    fn process_batch(&mut self, batch: &[crate::mail::Waiting], report: &mut PollReport) {
        let mut results = Vec::with_capacity(batch.len());
        let batched = (|| -> Result<()> {
            let tx = self.store.tx()?;
            for waiting in batch {
                let started = Instant::now();
                // Each mail at its own moment, as when each had its own
                // transaction: the dates of the mails it makes (and the
                // reply files' names, which sort by them) follow the order
                // the mails were processed in.
                let now = self.clock.now();
                tx.savepoint()?;
                // A panic in one mail is that mail's failure, not the
                // daemon's: its savepoint is rolled back.
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    super::incoming::process_in(
                        &self.config,
                        &self.secret,
                        &tx,
                        &waiting.raw,
                        waiting.size,
                        now,
                    )
                }));
                let outcome = match outcome {
                    Ok(Ok(done)) => {
                        tx.release_savepoint()?;
                        Ok(done)
                    }
                    Ok(Err(e)) => {
                        tx.rollback_to_savepoint()?;
                        Err(e.to_string())
                    }
                    Err(panic) => {
                        tx.rollback_to_savepoint()?;
                        Err(format!("panic: {}", panic_text(panic.as_ref())))
                    }
                };
                results.push((outcome, now, started.elapsed()));
            }
            Ok(tx.commit()?)
        })();
        if let Err(e) = batched {
            tracing::warn!(error = %intake::for_log(&e.to_string()), mails = batch.len(), "batch not committed; its mails one by one");
            for waiting in batch {
                self.process_alone(waiting, report);
            }
            return;
        }
        // Marked done together, only after the commit (see `done`): one
        // command for the batch where the mailbox can (an IMAP UID set).
        let committed: Vec<&str> = batch
            .iter()
            .zip(&results)
            .filter(|(_, (outcome, _, _))| outcome.is_ok())
            .map(|(waiting, _)| waiting.key.as_str())
            .collect();
        let mut marked = self.inbox.mark_all_done(&committed).into_iter();
        for (waiting, (outcome, now, took)) in batch.iter().zip(results) {
            match outcome {
                Ok(done) => {
                    let mark = marked.next().unwrap_or(Ok(()));
                    self.log_done(waiting, mark, &done, took, report)
                }
                Err(e) => {
                    // Rolled back to its savepoint: the mail stays waiting
                    // and is retried at the next poll; the others went on.
                    tracing::error!(entry = %waiting.key, error = %intake::for_log(&e), "mail not processed");
                    self.failed_mail(waiting, &e, now);
                    report.failed += 1;
                }
            }
        }
    }

    /// Processes one mail in its own transaction.
    fn process_alone(&mut self, waiting: &crate::mail::Waiting, report: &mut PollReport) {
        let started = Instant::now();
        let now = self.clock.now();
        // A panic in one mail is that mail's failure, not the daemon's:
        // its transaction is dropped (rolled back) while unwinding.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.process_sized(&waiting.raw, waiting.size, now)
        }));
        let error = match outcome {
            Ok(Ok(done)) => return self.done(waiting, &done, started.elapsed(), report),
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("panic: {}", panic_text(panic.as_ref())),
        };
        tracing::error!(entry = %waiting.key, error = %intake::for_log(&error), "mail not processed");
        self.failed_mail(waiting, &error, now);
        report.failed += 1;
    }

    /// Marks a committed mail done and logs it.
    fn done(
        &mut self,
        waiting: &crate::mail::Waiting,
        done: &Processed,
        took: Duration,
        report: &mut PollReport,
    ) {
        // Only after the commit: a crash before this line leaves the
        // message waiting, and its recorded id makes the retry a no-op.
        let mark = self.inbox.mark_done(&waiting.key);
        self.log_done(waiting, mark, done, took, report);
    }

    /// Logs a committed mail, marked done (or not) by `mark`.
    fn log_done(
        &self,
        waiting: &crate::mail::Waiting,
        mark: std::result::Result<(), crate::mail::MailboxError>,
        done: &Processed,
        took: Duration,
        report: &mut PollReport,
    ) {
        if let Err(e) = mark {
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
            ms = took.as_secs_f64() * 1000.0,
            "mail processed"
        );
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
            let polled =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.poll_pipelined()));
            match polled {
                Ok(Ok(_)) => {
                    // Replies on their way: poll again at once, so that
                    // they overlap the next mail's processing or, with
                    // no mail waiting, are sent before the wait below.
                    if self.in_flight.is_some() {
                        continue;
                    }
                }
                Ok(Err(e)) => tracing::error!(error = %e, "poll failed; trying again"),
                Err(panic) => {
                    tracing::error!(panic = %intake::for_log(&panic_text(panic.as_ref())), "poll panicked; trying again")
                }
            }
            // After a failed poll the batch in flight is finished here,
            // not left for the next poll: a poll that fails each time
            // would otherwise keep the loop from ever waiting.
            if let Err(e) = self.finish_sending() {
                tracing::error!(error = %e, "could not mark the mail sent; it will be sent again");
            }
            if let Err(e) = self.inbox.wait(interval, stop) {
                tracing::warn!(error = %e, "waiting for mail failed; polling instead");
                crate::mail::sleep_unless_stopped(interval, stop);
            }
        }
        // A stop finishes the batch in flight (files or a relay's answers:
        // bounded by the sender's own time limits) and marks it sent; a
        // second signal's kill -9 would only send it again.
        if let Err(e) = self.finish_sending() {
            tracing::error!(error = %e, "could not mark the last mail sent; it will be sent again");
        }
        tracing::info!("orderly stopped");
        Ok(())
    }

    /// Sweeps the deadlines at `now` in one transaction (see [`sweep`]).
    pub fn sweep(&mut self, now: DateTime<Utc>) -> Result<SweepReport> {
        let tx = self.store.tx()?;
        let report = sweep(&tx, &self.config, now)?;
        super::daily::sweep(&tx, &self.config, &self.secret, now)?;
        super::computer::answer_owed(&tx, &self.config, &self.secret, now)?;
        tx.forget_thinking_before((now - chrono::Duration::hours(2)).into())?;
        tx.commit()?;
        Ok(report)
    }
}

/// What a caught panic said.
pub(super) fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}
