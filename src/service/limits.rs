//! What the service does with mail beyond its limits (config `[intake]`,
//! see [`crate::mail::intake::Limits`]).
//!
//! - A mail larger than `max_mail_bytes` is read no further than its
//!   headers (the mailbox checks the size before reading it). It is
//!   recorded and marked done, never acted on; its sender gets one short
//!   answer only when verified: an address that holds a seat in a game
//!   here, or a From domain the receiving server's topmost
//!   `Authentication-Results` says passed DMARC or DKIM. Automatic mail,
//!   no-reply and bounce addresses, orderly's own address, an ambiguous
//!   From and a sender over the hourly rate limit get no answer at all.
//! - A mail whose text had more lines than `max_lines`, or lines longer
//!   than `max_line_chars`, is read as far as the limits go, and the reply
//!   says what was not read.

use chrono::{DateTime, Utc};

use super::incoming::derived_message_id;
use super::subject::reply_subject;
use super::work::Work;
use super::{identity, texts, Processed, Result};
use crate::config::Config;
use crate::mail::intake::{self, Incoming};
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};
use crate::store::{Timestamp, Tx};

/// A mail of `size` bytes, larger than the service reads, of which `head`
/// (its first bytes) was read, inside `tx` (which the caller commits).
pub(super) fn too_large(
    config: &Config,
    tx: &Tx<'_>,
    head: &[u8],
    size: usize,
    now: DateTime<Utc>,
) -> Result<Processed> {
    let limits = config.intake.limits();
    let head = &head[..head.len().min(limits.max_mail_bytes)];
    let parsed = intake::parse_head(head, size, &limits);
    let message_id = parsed
        .as_ref()
        .ok()
        .and_then(|m| m.message_id.clone())
        .unwrap_or_else(|| derived_message_id(&[head, &size.to_le_bytes()]));
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
    let too_large = format!("too large ({size} bytes)");
    let (sender, outcome) = match &parsed {
        Err(e) => (String::new(), format!("ignored: {too_large}, {e}")),
        Ok(incoming) => {
            let sender = incoming
                .from
                .as_ref()
                .map(|a| a.address.clone())
                .unwrap_or_default();
            let outcome = match unanswerable(config, tx, incoming, &sender, now)? {
                Some(why) => format!("ignored: {too_large}, {why}"),
                None if !sender_verified(tx, incoming, &sender)? => {
                    format!("ignored: {too_large}, sender not verified")
                }
                None => {
                    queue_too_large(config, tx, incoming, &sender, &message_id, size, now)?;
                    format!("refused: {too_large}")
                }
            };
            (sender, outcome)
        }
    };
    done.outcome = outcome;
    tx.record_message(&message_id, &sender, at, &done.outcome)?;
    Ok(done)
}

/// Why a mail must get no answer at all, if it must not.
fn unanswerable(
    config: &Config,
    tx: &Tx<'_>,
    incoming: &Incoming,
    sender: &str,
    now: DateTime<Utc>,
) -> Result<Option<String>> {
    Ok(if let Some(auto) = incoming.automatic {
        Some(format!("automatic ({auto:?})"))
    } else if incoming.sender_is_null {
        Some("null sender".into())
    } else if let Some(problem) = incoming.sender_problem {
        Some(format!("ambiguous sender ({problem})"))
    } else if sender.is_empty() {
        Some("no sender".into())
    } else if incoming.is_from(&config.service.address) || identity::is_own_address(config, sender)
    {
        Some("from orderly itself".into())
    } else if identity::is_no_reply(sender) {
        Some("from a no-reply address".into())
    } else if incoming
        .recipients()
        .any(|to| identity::is_bounce_address(config, to))
    {
        Some("sent to the bounce address".into())
    } else {
        let hour_ago = now - chrono::Duration::hours(1);
        let limit = config.service.rate_limit_per_hour;
        let recent = tx.sent_since(sender, hour_ago.into(), limit)?.mails;
        (recent >= i64::from(limit))
            .then(|| format!("rate limit ({recent} mails in the last hour)"))
    })
}

/// Queues the one short answer to a verified sender of a mail too large
/// to read.
fn queue_too_large(
    config: &Config,
    tx: &Tx<'_>,
    incoming: &Incoming,
    sender: &str,
    incoming_id: &str,
    size: usize,
    now: DateTime<Utc>,
) -> Result<()> {
    let domain = config.address_parts().1;
    let body = texts::wrap(&texts::render(
        "too_large",
        minijinja::context! {
            size => size,
            limit => config.intake.max_mail_bytes,
        },
    ));
    let id = message_id(&format!("{incoming_id}/too-large"), domain);
    let mut references = incoming.references.clone();
    references.extend(incoming.message_id.clone());
    let mut reply = OutgoingMail {
        message_id: id.clone(),
        from: format!("{} <{}>", config.service.name, config.service.address),
        to: sender.to_string(),
        reply_to: None,
        subject: reply_subject(&incoming.subject),
        in_reply_to: incoming.message_id.clone(),
        references,
        list_id: None,
        body,
        date: now,
        auto: AutoKind::Replied,
        return_path: None,
        text_only: false,
        picture: None,
    };
    super::outbox::queue(tx, &mut reply, None, now.into())
}

/// Whether the sender of a mail may be believed enough to be answered
/// when nothing else of the mail is read: an address holding a seat in a
/// game here, or a From domain authenticated by the receiving server.
fn sender_verified(tx: &Tx<'_>, incoming: &Incoming, sender: &str) -> Result<bool> {
    if incoming.from_authenticated {
        return Ok(true);
    }
    Ok(match tx.player_id(sender)? {
        Some(player) => !tx.games_of(player)?.is_empty(),
        None => false,
    })
}

impl Work<'_> {
    /// Says in the reply what of the mail's text the limits left unread.
    pub(super) fn note_unread(&mut self) {
        let unread = self.incoming.unread;
        if !unread.text_cut() {
            return;
        }
        let limits = self.config.intake.limits();
        // Past the commands a mail may carry, the reply already counted
        // every line not read.
        let counted = self.commands > i64::from(self.config.service.max_commands_per_mail);
        if counted && unread.long_lines == 0 {
            return;
        }
        self.parts.push(texts::wrap(&texts::render(
            "unread",
            minijinja::context! {
                lines => if counted { 0 } else { unread.lines },
                max_lines => limits.max_lines,
                long_lines => unread.long_lines,
                max_line_chars => limits.max_line_chars,
            },
        )));
    }
}
