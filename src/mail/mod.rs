//! Mail in and out, knowing nothing of any game's rules: reading incoming
//! messages (`intake`), the mailboxes they wait in (`maildir`, and IMAP),
//! and composing and sending outgoing ones (`outgoing`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub mod bounce;
pub mod imap;
pub mod intake;
pub mod maildir;
pub mod outgoing;
pub mod trust;

/// A message waiting in a mailbox to be processed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The mailbox's own name for it, given back to [`Mailbox::mark_done`]
    /// (a Maildir file name, an IMAP UID).
    pub key: String,
    /// The message as received; only its first bytes (enough for the
    /// headers) when it is larger than the limit it was listed with.
    pub raw: Vec<u8>,
    /// The message's whole size in bytes, as the mailbox gave it.
    pub size: usize,
}

impl Waiting {
    /// Whether `raw` is only the beginning of the message.
    pub fn is_head_only(&self) -> bool {
        self.size > self.raw.len()
    }
}

/// The most bytes of messages one listing holds: the rest wait for the
/// next (which follows at once), so that a flood of large mail is taken a
/// slice at a time. One message is always listed.
pub const MAX_LISTING_BYTES: usize = 64 * 1024 * 1024;

/// How much of a message a mailbox reads: a message larger than
/// `max_bytes` (the size checked before it is read) only its first
/// `head_bytes`, for the headers; and how much one listing holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimit {
    /// The largest message read whole.
    pub max_bytes: usize,
    /// What is read of a larger one.
    pub head_bytes: usize,
    /// The most bytes of messages one listing holds.
    pub listing_bytes: usize,
}

impl ReadLimit {
    /// The read limit of these intake limits: a larger message's header
    /// block, as far as it is read at all, and its blank line.
    pub fn of(limits: &intake::Limits) -> ReadLimit {
        ReadLimit {
            max_bytes: limits.max_mail_bytes,
            head_bytes: limits.max_header_bytes.saturating_add(4),
            listing_bytes: MAX_LISTING_BYTES,
        }
    }
}

/// Why a mailbox could not be read or updated.
#[derive(Debug, thiserror::Error)]
pub enum MailboxError {
    /// A file or socket failed.
    #[error("mailbox: {0}")]
    Io(#[from] std::io::Error),
    /// The mail server refused or went away.
    #[error("mail server: {0}")]
    Server(String),
}

/// Where incoming mail waits: the local Maildir or an IMAP folder.
///
/// The service takes what is waiting, processes each message in one
/// transaction, and only after the commit marks it done; a message listed
/// again after a crash is recognised by its Message-ID.
pub trait Mailbox {
    /// The messages waiting now, oldest first, each read whole when it is
    /// no larger than `limit.max_bytes` and else only its head (the size is
    /// checked before the message is read).
    fn waiting_within(&mut self, limit: ReadLimit) -> Result<Vec<Waiting>, MailboxError>;
    /// The messages waiting now, within the default [`intake::Limits`].
    fn waiting(&mut self) -> Result<Vec<Waiting>, MailboxError> {
        self.waiting_within(ReadLimit::of(&intake::Limits::default()))
    }
    /// Marks a message processed, so that it is not listed again.
    fn mark_done(&mut self, key: &str) -> Result<(), MailboxError>;
    /// Marks several messages processed, with one result per key in the
    /// same order. An IMAP folder does it in one command for the whole
    /// batch; by default each is marked on its own.
    fn mark_all_done(&mut self, keys: &[&str]) -> Vec<Result<(), MailboxError>> {
        keys.iter().map(|key| self.mark_done(key)).collect()
    }
    /// Sets a message aside that could not be processed however often it
    /// was tried (a poison mail): moved where it is kept for a person to
    /// look at and never listed again (the Maildir's `.Quarantine` folder,
    /// the IMAP quarantine folder).
    fn quarantine(&mut self, key: &str) -> Result<(), MailboxError>;
    /// Returns when new mail may have arrived, when `timeout` has passed,
    /// or soon after `stop` is set: IMAP IDLE where the server offers it,
    /// otherwise a sleep.
    fn wait(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), MailboxError>;
}

/// Sleeps up to `timeout` in short steps, returning early once `stop` is set.
pub fn sleep_unless_stopped(timeout: Duration, stop: &AtomicBool) {
    let until = Instant::now() + timeout;
    while Instant::now() < until && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50).min(until - Instant::now()));
    }
}

impl Mailbox for maildir::Maildir {
    fn waiting_within(&mut self, limit: ReadLimit) -> Result<Vec<Waiting>, MailboxError> {
        let mut out = Vec::new();
        let mut held = 0usize;
        let (listed, more) = self.new_messages_upto(maildir::MAX_LISTED)?;
        // A flood past one listing is taken in the next poll, at once.
        self.more_waiting = more;
        for entry in listed {
            match self.read_bounded(&entry, limit.max_bytes, limit.head_bytes) {
                Ok((raw, size)) => {
                    held = held.saturating_add(raw.len());
                    if held > limit.listing_bytes && !out.is_empty() {
                        self.more_waiting = true;
                        break;
                    }
                    out.push(Waiting {
                        key: entry.id,
                        raw,
                        size,
                    })
                }
                // Taken by another reader between the listing and now.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(out)
    }

    fn mark_done(&mut self, key: &str) -> Result<(), MailboxError> {
        // The name it was listed under, as a rule: listing new/ again for
        // every mail marked would make a batch of N mails cost N listings.
        let listed = maildir::MaildirEntry {
            id: key.to_string(),
            path: self.path().join("new").join(key),
        };
        if maildir::Maildir::mark_done(self, &listed).is_ok() {
            return Ok(());
        }
        let entry = self.find_new(key)?.unwrap_or(maildir::MaildirEntry {
            id: key.to_string(),
            path: self.path().join("new").join(key),
        });
        Ok(maildir::Maildir::mark_done(self, &entry)?)
    }

    fn quarantine(&mut self, key: &str) -> Result<(), MailboxError> {
        Ok(maildir::Maildir::quarantine(self, key)?)
    }

    fn wait(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), MailboxError> {
        if !self.more_waiting {
            sleep_unless_stopped(timeout, stop);
        }
        Ok(())
    }
}
