//! Incoming mail already seen: each Message-ID processed (a second delivery
//! stops here), the content digest that recognises a replay under a new
//! Message-ID, the counts the per-sender rate limits read, and the mails
//! whose processing failed, counted until they are set aside.

use rusqlite::{params, OptionalExtension};

use crate::store::{Result, Timestamp, Tx};

impl Tx<'_> {
    /// Whether this Message-ID was processed before.
    pub fn message_seen(&self, message_id: &str) -> Result<bool> {
        Ok(self
            .one(
                "SELECT 1 FROM messages WHERE message_id = ?1",
                params![message_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Records a processed message and what became of it.
    pub fn record_message(
        &self,
        message_id: &str,
        sender: &str,
        at: Timestamp,
        outcome: &str,
    ) -> Result<()> {
        self.exec(
            "INSERT INTO messages (message_id, sender, received_at, outcome) VALUES (?1, ?2, ?3, ?4)",
            params![message_id, sender, at, outcome],
        )?;
        Ok(())
    }

    /// Mails from `sender` received at or after `since` and the commands
    /// and orders read from them, both over at most `cap` of those mails: a
    /// rate limit only asks whether its limit is reached, and a flood must
    /// not make each of its mails cost a count of all the others. One walk
    /// of the index `messages_by_sender`, which holds every column read
    /// (migration 0011).
    pub fn sent_since(&self, sender: &str, since: Timestamp, cap: u32) -> Result<SentSince> {
        Ok(self.one(
            "SELECT COUNT(*), COALESCE(SUM(commands), 0) FROM (SELECT commands FROM messages \
             WHERE sender = ?1 AND received_at >= ?2 LIMIT ?3)",
            params![sender, since, cap],
            |r| {
                Ok(SentSince {
                    mails: r.get(0)?,
                    commands: r.get(1)?,
                })
            },
        )?)
    }

    /// Notes the content digest of a recorded mail (see [`Tx::digest_seen`]).
    pub fn set_message_digest(&self, message_id: &str, digest: &str) -> Result<()> {
        self.exec(
            "UPDATE messages SET digest = ?2 WHERE message_id = ?1",
            params![message_id, digest],
        )?;
        Ok(())
    }

    /// Whether a mail with this content digest was processed already.
    pub fn digest_seen(&self, digest: &str) -> Result<bool> {
        Ok(self
            .tx
            .prepare_cached("SELECT 1 FROM messages WHERE digest = ?1 LIMIT 1")?
            .query_row(params![digest], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// Notes how many commands and orders a recorded mail carried.
    pub fn set_message_commands(&self, message_id: &str, commands: i64) -> Result<()> {
        self.exec(
            "UPDATE messages SET commands = ?2 WHERE message_id = ?1",
            params![message_id, commands],
        )?;
        Ok(())
    }

    /// Counts one more failed attempt at the incoming mail with `digest`;
    /// returns the attempts so far.
    pub fn intake_failed(&self, digest: &str, error: &str, at: Timestamp) -> Result<i64> {
        self.exec(
            "INSERT INTO intake_failures (digest, attempts, last_error, first_at) \
             VALUES (?1, 1, ?2, ?3) \
             ON CONFLICT(digest) DO UPDATE SET attempts = attempts + 1, last_error = ?2",
            params![digest, error, at],
        )?;
        Ok(self.one(
            "SELECT attempts FROM intake_failures WHERE digest = ?1",
            params![digest],
            |r| r.get(0),
        )?)
    }

    /// Forgets the failures of the mail with `digest` (it went through).
    pub fn intake_succeeded(&self, digest: &str) -> Result<()> {
        self.exec(
            "DELETE FROM intake_failures WHERE digest = ?1",
            params![digest],
        )?;
        Ok(())
    }
}

/// What a sender sent lately ([`Tx::sent_since`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentSince {
    /// Mails, at most the cap asked for.
    pub mails: i64,
    /// Commands and orders read from those mails.
    pub commands: i64,
}
