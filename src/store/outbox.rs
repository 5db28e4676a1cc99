//! Outgoing mail: queued in the transaction that decided it, sent after,
//! retried with backoff, its body dropped once sent and its row deleted
//! after `[store] keep_sent_days`; and what comes back, bounces matched to
//! the exact mail they report, and the seats whose address no longer takes
//! mail.

use rusqlite::{params, OptionalExtension};

use crate::games::Seat;
use crate::store::{column, Result, Timestamp, Tx};

/// What the outbox knows of one mail it sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentMail {
    /// Row id.
    pub id: i64,
    /// The game it was about.
    pub game_id: Option<i64>,
    /// Its recipient.
    pub recipient: String,
}

/// A mail waiting in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    /// Row id.
    pub id: i64,
    /// Its Message-ID.
    pub message_id: String,
    /// The mail as JSON.
    pub mail: String,
    /// Attempts so far.
    pub attempts: i64,
}

impl Tx<'_> {
    /// Queues an outgoing mail, due at `at` and bearing the Date `dated`;
    /// a Message-ID already queued is left as is (the same decision made
    /// twice is one mail).
    pub fn queue_mail(
        &self,
        message_id: &str,
        game: Option<i64>,
        recipient: &str,
        mail_json: &str,
        at: Timestamp,
        dated: Timestamp,
    ) -> Result<()> {
        let added = self.exec(
            "INSERT OR IGNORE INTO outbox (message_id, game_id, recipient, status, \
             next_attempt_at, created_at, dated) VALUES (?1, ?2, ?3, 'queued', ?4, ?4, ?5)",
            params![message_id, game, recipient, at, dated],
        )?;
        if added == 1 {
            // The body lives apart from the row, so that sending the mail
            // frees its pages whole (see migrations/0010_retention.sql).
            self.exec(
                "INSERT INTO outbox_bodies (outbox_id, mail) VALUES (last_insert_rowid(), ?1)",
                params![mail_json],
            )?;
        }
        Ok(())
    }

    /// The Date of the last mail queued, and of the last queued to
    /// `recipient` (none for mail queued before dates were kept): the next
    /// mail is dated after both.
    pub fn last_mail_dates(
        &self,
        recipient: &str,
    ) -> Result<(Option<Timestamp>, Option<Timestamp>)> {
        // Each mail is dated after the one queued before it, so the last
        // row holds the latest Date.
        let last = self
            .one(
                "SELECT dated FROM outbox ORDER BY id DESC LIMIT 1",
                params![],
                |r| r.get::<_, Option<Timestamp>>(0),
            )
            .optional()?
            .flatten();
        let to = self.one(
            "SELECT MAX(dated) FROM outbox WHERE recipient = ?1",
            params![recipient],
            |r| r.get::<_, Option<Timestamp>>(0),
        )?;
        Ok((last, to))
    }

    /// Mails due for (another) attempt at `now`, oldest first.
    pub fn due_mail(&self, now: Timestamp, limit: i64) -> Result<Vec<OutboxRow>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT o.id, o.message_id, b.mail, o.attempts FROM outbox o \
             JOIN outbox_bodies b ON b.outbox_id = o.id WHERE o.status = 'queued' \
             AND o.next_attempt_at <= ?1 ORDER BY o.id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![now, limit], |r| {
            Ok(OutboxRow {
                id: r.get(0)?,
                message_id: r.get(1)?,
                mail: r.get(2)?,
                attempts: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Marks a mail sent and drops its body: once sent, a mail is never
    /// read again (a retry reads only queued rows; a bounce and its notices
    /// read the recipient and the game, [`sent_mail`](Self::sent_mail); the
    /// Message-ID stays for `queue_mail`'s duplicate check), and the body
    /// was most of the row.
    pub fn mark_sent(&self, id: i64, at: Timestamp) -> Result<()> {
        self.exec(
            "UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?2, \
             last_error = NULL WHERE id = ?1",
            params![id, at],
        )?;
        self.exec(
            "DELETE FROM outbox_bodies WHERE outbox_id = ?1",
            params![id],
        )?;
        Ok(())
    }

    /// Records a failed attempt: retried at `retry_at`, or given up.
    pub fn mark_failed(&self, id: i64, error: &str, retry_at: Option<Timestamp>) -> Result<()> {
        match retry_at {
            Some(when) => self.exec(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, \
                 next_attempt_at = ?3 WHERE id = ?1",
                params![id, error, when],
            )?,
            None => self.exec(
                "UPDATE outbox SET status = 'failed', attempts = attempts + 1, \
                 last_error = ?2 WHERE id = ?1",
                params![id, error],
            )?,
        };
        Ok(())
    }

    /// The outbox row with this id.
    pub fn sent_mail(&self, id: i64) -> Result<Option<SentMail>> {
        Ok(self
            .one(
                "SELECT id, game_id, recipient FROM outbox WHERE id = ?1",
                params![id],
                |r| {
                    Ok(SentMail {
                        id: r.get(0)?,
                        game_id: r.get(1)?,
                        recipient: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// Deletes up to `limit` sent mails sent before `before`, the oldest
    /// first; returns how many. A mail a bounce points to stays (with its
    /// bounce, which counts towards the address's hard-bounce limit).
    ///
    /// The range is read through the index on (status, next_attempt_at):
    /// a mail is sent at or after its next attempt is due, so every mail
    /// sent before `before` was due before it too, and the scan stops at
    /// the first mail due since, however many newer rows there are.
    pub fn forget_sent_mail(&self, before: Timestamp, limit: i64) -> Result<usize> {
        Ok(self.exec(
            "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox \
             WHERE status = 'sent' AND next_attempt_at < ?1 AND sent_at < ?1 \
             AND NOT EXISTS (SELECT 1 FROM bounces b WHERE b.outbox_id = outbox.id) \
             ORDER BY next_attempt_at LIMIT ?2)",
            params![before, limit],
        )?)
    }

    /// Counts outbox rows by status (for tests and `orderly games`).
    pub fn outbox_count(&self, status: &str) -> Result<i64> {
        Ok(self.one(
            "SELECT COUNT(*) FROM outbox WHERE status = ?1",
            params![status],
            |r| r.get(0),
        )?)
    }

    /// Records a bounce of an outbox mail; returns the address's count of
    /// hard bounces so far.
    #[allow(clippy::too_many_arguments)]
    pub fn add_bounce(
        &self,
        outbox_id: i64,
        address: &str,
        hard: bool,
        status: &str,
        diagnostic: &str,
        message_id: &str,
        at: Timestamp,
    ) -> Result<i64> {
        self.exec(
            "INSERT INTO bounces (outbox_id, address, hard, status, diagnostic, message_id, at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![outbox_id, address, hard, status, diagnostic, message_id, at],
        )?;
        Ok(self.one(
            "SELECT COUNT(*) FROM bounces WHERE address = ?1 AND hard = 1",
            params![address],
            |r| r.get(0),
        )?)
    }

    /// Marks every seat of `address` in unfinished games as undeliverable;
    /// returns the (game, seat) pairs newly marked.
    pub fn mark_undeliverable(&self, address: &str, why: &str) -> Result<Vec<(i64, Seat)>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT s.game_id, s.seat FROM seats s JOIN players p ON p.id = s.player_id \
             JOIN games g ON g.id = s.game_id WHERE p.address = ?1 \
             AND g.status IN ('invited', 'active') AND s.undeliverable IS NULL",
        )?;
        let rows: Vec<(i64, Seat)> = stmt
            .query_map(params![address], |r| Ok((r.get(0)?, column(r, 1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut out = Vec::new();
        for (game, seat) in rows {
            self.exec(
                "UPDATE seats SET undeliverable = ?3 WHERE game_id = ?1 AND seat = ?2",
                params![game, seat, why],
            )?;
            out.push((game, seat));
        }
        Ok(out)
    }

    /// Why mail to a seat fails, if it does.
    pub fn undeliverable(&self, game: i64, seat: Seat) -> Result<Option<String>> {
        Ok(self
            .one(
                "SELECT undeliverable FROM seats WHERE game_id = ?1 AND seat = ?2",
                params![game, seat],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }
}
