//! The seam between the outbox and whatever delivers mail.

use std::io;
use std::path::PathBuf;

use super::{OutgoingError, OutgoingMail};

/// Delivers one [`OutgoingMail`]. Implemented over files
/// ([`FileSender`](super::FileSender)), SMTP
/// ([`SmtpSender`](super::SmtpSender)) and the local `sendmail` command
/// ([`SendmailSender`](super::SendmailSender)).
///
/// The outbox calls [`send`](Self::send) at least once per mail, possibly
/// again after a crash, so an implementation should make a repeated send of
/// the same mail (same Message-ID) harmless where it can. Senders are shared
/// by the threads that send an outbox batch in parallel.
pub trait MailSender: Send + Sync {
    /// Hands the mail over for delivery. `Ok` means the mail is durably
    /// out of orderly's hands and the outbox may mark it sent.
    fn send(&self, mail: &OutgoingMail) -> Result<(), SendError>;

    /// Hands the mail over as [`send`](Self::send) does, except that the
    /// handover may not be durable until [`sync`](Self::sync) returns: the
    /// outbox sends a batch this way and syncs once. By default the same
    /// as `send`, durable on its own.
    fn send_unsynced(&self, mail: &OutgoingMail) -> Result<(), SendError> {
        self.send(mail)
    }

    /// Makes durable every mail handed over by
    /// [`send_unsynced`](Self::send_unsynced) so far; until it returns
    /// `Ok`, none of them may be marked sent.
    fn sync(&self) -> Result<(), SendError> {
        Ok(())
    }

    /// Whether sending several mails at once pays: true when a send mostly
    /// waits on something else (a relay's answer, a command), so that the
    /// waits overlap. A sender that only writes local files says false:
    /// its work is the disk's, and threads would only add their start.
    fn parallel(&self) -> bool {
        true
    }
}

/// Why a mail was not handed over, split by what the outbox should do next:
/// retry later ([`is_permanent`](Self::is_permanent) is `false`) or report
/// to a moderator.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SendError {
    /// The mail cannot be formatted. Permanent.
    #[error("cannot compose mail {message_id}: {source}")]
    Compose {
        /// The mail's Message-ID.
        message_id: String,
        /// What is wrong with it.
        #[source]
        source: OutgoingError,
    },
    /// The outgoing directory or a file in it could not be written.
    /// Temporary, whatever the cause: a missing mount, a full disk or wrong
    /// permissions are faults of the machine, not of the mail, and the mail
    /// goes out once they are mended.
    #[error("cannot write {}: {source}", path.display())]
    File {
        /// The directory or file concerned.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The SMTP relay refused the mail, or could not be reached or spoken
    /// to. See [`SmtpSender`](super::SmtpSender) for which failures count
    /// as permanent.
    #[error("SMTP: {message}")]
    Smtp {
        /// The relay's reply code, when the failure was a reply (`550`,
        /// `451`, ...); `None` for a connection, timeout or TLS failure.
        code: Option<u16>,
        /// What went wrong, with the relay's own words when it gave any.
        message: String,
        /// Whether retrying the same mail cannot succeed.
        permanent: bool,
    },
    /// The `sendmail` command could not be run or exited with a failure.
    /// Temporary: the local MTA queues what it accepts and reports
    /// undeliverable mail later as a bounce, so a failure here is a fault
    /// of the machine (a missing binary, a full queue), not of the mail.
    #[error("sendmail: {message}")]
    Sendmail {
        /// The command's complaint (its standard error) or why it could not
        /// be started.
        message: String,
    },
}

impl SendError {
    /// Whether the mail itself is at fault, so that no retry can succeed
    /// and a moderator must look at it. Faults of the surroundings (the
    /// directory, the network, the relay being down) are temporary:
    /// the outbox gives up on a mail after a permanent error, and a
    /// misconfigured directory must not make it give up on every mail.
    pub fn is_permanent(&self) -> bool {
        match self {
            SendError::Compose { .. } => true,
            SendError::File { .. } | SendError::Sendmail { .. } => false,
            SendError::Smtp { permanent, .. } => *permanent,
        }
    }
}
