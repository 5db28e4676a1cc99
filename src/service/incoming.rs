//! One incoming mail, from its bytes to its transaction: a duplicate is
//! skipped, a bounce is matched to the mail it reports, automatic mail,
//! loops, replays and floods are set aside unanswered; anything else is
//! read line by line by [`Work`](super::work::Work) and answered.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::identity::{self, claim_from_address};
use super::limits::too_large;
use super::notices::bounce_received;
use super::work::Work;
use super::zones::zone_of_offset;
use super::{Processed, Result, Service};
use crate::config::Config;
use crate::mail::intake::{self, Incoming};
use crate::store::{Timestamp, Tx};

impl Service {
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
        let tx = self.store.tx()?;
        let done = process_in(&self.config, &self.secret, &tx, raw, size, now)?;
        tx.commit()?;
        Ok(done)
    }
}

/// Processes one incoming mail of `size` bytes inside `tx`, which the
/// caller commits (alone, or with the other mails of a batch); an error
/// leaves changes in `tx` that the caller must roll back.
pub(super) fn process_in(
    config: &Config,
    secret: &[u8],
    tx: &Tx<'_>,
    raw: &[u8],
    size: usize,
    now: DateTime<Utc>,
) -> Result<Processed> {
    let limits = config.intake.limits();
    if size.max(raw.len()) > limits.max_mail_bytes {
        return too_large(config, tx, raw, size.max(raw.len()), now);
    }
    let parsed = intake::parse_with(raw, &limits);
    let message_id = parsed
        .as_ref()
        .ok()
        .and_then(|m| m.message_id.clone())
        .unwrap_or_else(|| derived_message_id(&[raw]));
    let at = Timestamp::from(now);
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
        done.outcome = bounce_received(tx, config, secret, &bounded, &message_id, now)?;
        tx.record_message(&message_id, &sender, at, &done.outcome)?;
        return Ok(done);
    }
    let ignore = if let Some(auto) = &incoming.automatic {
        Some(format!("ignored: automatic ({auto:?})"))
    } else if let Some(problem) = incoming.sender_problem {
        // Never acted on as the first of its authors.
        Some(format!("ignored: ambiguous sender ({problem})"))
    } else if sender.is_empty() {
        Some("ignored: no sender".to_string())
    } else if incoming.is_from(&config.service.address) || identity::is_own_address(config, &sender)
    {
        Some("ignored: from orderly itself".to_string())
    } else if super::ratings::reads_no_mail(config, &sender) {
        // The computer's and the community's reserved addresses send
        // nothing: a mail from one is forged, and changes nothing.
        Some("ignored: from a reserved address".to_string())
    } else if identity::is_no_reply(&sender) {
        // Nobody reads an answer to a no-reply address; answering one
        // only feeds loops and backscatter.
        Some("ignored: from a no-reply address".to_string())
    } else if incoming
        .recipients()
        .any(|to| identity::is_bounce_address(config, to))
    {
        Some("ignored: sent to the bounce address".to_string())
    } else if carries_a_key(&incoming, config)
        && tx.digest_seen(&replay_digest(&incoming, &sender))?
    {
        // The same sender, Date and words as a mail already taken: a
        // copy sent again under a new Message-ID (a replay), not a new
        // mail. A player who means the same again writes a new mail,
        // which has its own Date.
        Some("ignored: replay of an earlier mail".to_string())
    } else {
        let hour_ago = Timestamp::from(now - chrono::Duration::hours(1));
        // At most the mail limit's worth of mails is read: below it, every
        // mail of the hour is counted, commands and all.
        let mail_limit = config.service.rate_limit_per_hour;
        let sent = tx.sent_since(&sender, hour_ago, mail_limit)?;
        if sent.mails >= i64::from(mail_limit) {
            Some(format!(
                "ignored: rate limit ({} mails in the last hour)",
                sent.mails
            ))
        } else if sent.commands >= i64::from(config.service.commands_per_hour) {
            Some(format!(
                "ignored: rate limit ({} commands in the last hour)",
                sent.commands
            ))
        } else {
            None
        }
    };
    if let Some(reason) = ignore {
        done.outcome = reason;
        tx.record_message(&message_id, &sender, at, &done.outcome)?;
        return Ok(done);
    }
    let mut work = Work::new(config, secret, tx, &incoming, &message_id, &sender, at, now);
    work.incoming_size = raw.len();
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
    if incoming.date.is_some() && carries_a_key(&incoming, config) {
        tx.set_message_digest(&message_id, &replay_digest(&incoming, &sender))?;
    }
    Ok(done)
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
