//! Incoming mail in an IMAP folder: the `[intake.imap]` section.
//!
//! The service is synchronous; [`ImapMailbox`] owns a current-thread tokio
//! runtime and blocks on its own async IMAP session (async-imap over
//! rustls). What it does, as the [`Mailbox`] trait asks:
//!
//! - [`Mailbox::waiting`] selects the folder, searches the unseen messages
//!   (every message not deleted when a processed folder is configured),
//!   asks their sizes (`RFC822.SIZE`) and fetches them with `BODY.PEEK[]`,
//!   which leaves `\Seen` alone: one larger than the limit only as far as
//!   its headers (`BODY.PEEK[]<0.n>`). Each key
//!   is `v<UIDVALIDITY>:<UID>`, so that a folder recreated under the same
//!   name never has the wrong message marked.
//! - [`Mailbox::mark_done`] sets `\Seen`, or moves the message into the
//!   processed folder (`MOVE`, else `COPY`, `\Deleted` and `EXPUNGE`). A
//!   message already gone is done.
//! - [`Mailbox::wait`] stays in `IDLE` until the server reports anything,
//!   the timeout passes or `stop` is set (checked every 50 ms); without
//!   IDLE it sleeps.
//!
//! A lost connection is reopened at once; when that fails, the next
//! attempts wait 1 s, 2 s, 4 s ... up to `reconnect_max_secs`, each one
//! logged. In between, `waiting` lists nothing and `wait` sleeps. A
//! message that was not marked done is simply listed again later: nothing
//! is lost, and the service recognises a repeat by its Message-ID.
//!
//! The parts, one job a file (after lettre's `smtp/client/`):
//!
//! - `config.rs`: the `[intake.imap]` section and its checks;
//! - `settings.rs`: the checked section with the password and the trusted
//!   certificates read in;
//! - `stream.rs`: the bytes under the session, plain TCP or TLS;
//! - `connect.rs`: opening a session: TCP, TLS or STARTTLS, the greeting,
//!   login, capabilities, the folders;
//! - `connection.rs`: one open session, what can go wrong on it, and the
//!   commands every other part runs on it (SELECT, SEARCH, CAPABILITY);
//! - `keys.rs`: the message keys given to the service;
//! - `fetch.rs`: listing the waiting messages, sizes first, within limits;
//! - `folders.rs`: marking a message done, setting one aside;
//! - `idle.rs`: waiting for new mail in IDLE;
//! - `mailbox.rs`: [`ImapMailbox`], the [`Mailbox`] the service uses, with
//!   reconnection and backoff;
//! - `check.rs`: `orderly check-mail`, each step reported.
//!
//! [`Mailbox`]: crate::mail::Mailbox
//! [`Mailbox::waiting`]: crate::mail::Mailbox::waiting
//! [`Mailbox::mark_done`]: crate::mail::Mailbox::mark_done
//! [`Mailbox::wait`]: crate::mail::Mailbox::wait

mod check;
mod config;
mod connect;
mod connection;
mod fetch;
mod folders;
mod idle;
mod keys;
mod mailbox;
mod settings;
mod stream;

pub use check::{check, CheckStep};
pub use config::{ImapConfig, ImapConfigError, Security};
pub use keys::{message_key, parse_key};
pub use mailbox::ImapMailbox;
