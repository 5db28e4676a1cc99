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
    /// The message as received.
    pub raw: Vec<u8>,
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
    /// The messages waiting now, oldest first.
    fn waiting(&mut self) -> Result<Vec<Waiting>, MailboxError>;
    /// Marks a message processed, so that it is not listed again.
    fn mark_done(&mut self, key: &str) -> Result<(), MailboxError>;
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
    fn waiting(&mut self) -> Result<Vec<Waiting>, MailboxError> {
        let mut out = Vec::new();
        for entry in self.new_messages()? {
            match self.read(&entry) {
                Ok(raw) => out.push(Waiting { key: entry.id, raw }),
                // Taken by another reader between the listing and now.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(out)
    }

    fn mark_done(&mut self, key: &str) -> Result<(), MailboxError> {
        let entry = self
            .new_messages()?
            .into_iter()
            .find(|e| e.id == key)
            .unwrap_or(maildir::MaildirEntry {
                id: key.to_string(),
                path: self.path().join("new").join(key),
            });
        Ok(maildir::Maildir::mark_done(self, &entry)?)
    }

    fn quarantine(&mut self, key: &str) -> Result<(), MailboxError> {
        Ok(maildir::Maildir::quarantine(self, key)?)
    }

    fn wait(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), MailboxError> {
        sleep_unless_stopped(timeout, stop);
        Ok(())
    }
}
