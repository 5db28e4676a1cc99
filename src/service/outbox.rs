//! Draining the outbox: every mail due is sent (several at a time), and
//! marked sent or failed in one transaction per batch; a failure is tried
//! again with a doubling wait, and one that cannot succeed makes the seat
//! undeliverable and is told to those concerned.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::notices::undeliverable;
use super::poll::panic_text;
use super::{Result, Service};
use crate::mail::bounce;
use crate::mail::outgoing::{MailSender, OutgoingMail};
use crate::store::Timestamp;

impl Service {
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
}

/// How one outgoing mail went: sent, or (permanent?, why not).
type SendResult = std::result::Result<(), (bool, String)>;
