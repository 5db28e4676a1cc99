//! [`ImapMailbox`]: the [`Mailbox`] the service reads when mail arrives by
//! IMAP. The service is synchronous; the mailbox owns a current-thread
//! tokio runtime and blocks on its own async session. It keeps one session
//! open, reopens a lost one at once, and after failed attempts waits 1 s,
//! 2 s, 4 s ... up to `reconnect_max_secs` (each attempt logged), listing
//! nothing meanwhile.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::config::ImapConfig;
use super::connect::connect;
use super::connection::{Conn, Failure};
use super::fetch::list;
use super::folders::{mark, mark_many, set_aside};
use super::idle::{idle, MAX_IDLE};
use super::keys::parse_key;
use super::settings::Settings;
use crate::mail::{sleep_unless_stopped, Mailbox, MailboxError, ReadLimit, Waiting};

/// The wait before reconnection attempt number `failures + 1`: 1 s
/// doubling, at most `max_secs`.
fn backoff(failures: u32, max_secs: u64) -> Duration {
    Duration::from_secs(1u64.checked_shl(failures).unwrap_or(u64::MAX).min(max_secs))
}

/// Incoming mail in a folder of an IMAP server.
///
/// ```no_run
/// use orderly::mail::imap::{ImapConfig, ImapMailbox};
/// use orderly::mail::Mailbox;
///
/// let config: ImapConfig = toml::from_str(
///     r#"
///     host = "imap.example.org"
///     username = "orderly"
///     password_file = "var/imap-password"
///     "#,
/// )?;
/// let mut inbox = ImapMailbox::connect(config)?;
/// for message in inbox.waiting()? {
///     // ... process and commit, then:
///     inbox.mark_done(&message.key)?;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ImapMailbox {
    settings: Settings,
    runtime: tokio::runtime::Runtime,
    conn: Option<Conn>,
    /// Failed connection attempts in a row.
    failures: u32,
    /// No connection attempt before this.
    retry_at: Option<Instant>,
    /// The last listing left messages for the next one.
    more_waiting: bool,
}

impl fmt::Debug for ImapMailbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapMailbox")
            .field("config", &self.settings.config)
            .field("connected", &self.conn.is_some())
            .field("failures", &self.failures)
            .finish()
    }
}

impl ImapMailbox {
    /// Checks the configuration, reads the password and CA files, and
    /// prepares the mailbox without connecting: the first use connects.
    pub fn new(config: ImapConfig) -> Result<ImapMailbox, MailboxError> {
        let settings = Settings::new(config)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()?;
        Ok(ImapMailbox {
            settings,
            runtime,
            conn: None,
            failures: 0,
            retry_at: None,
            more_waiting: false,
        })
    }

    /// Like [`ImapMailbox::new`], then connects, logs in and selects the
    /// folder, so that a wrong configuration shows at once.
    pub fn connect(config: ImapConfig) -> Result<ImapMailbox, MailboxError> {
        let mut mailbox = ImapMailbox::new(config)?;
        if let Some(conn) = mailbox.reconnect()? {
            mailbox.conn = Some(conn);
        }
        Ok(mailbox)
    }

    /// The configuration in use.
    pub fn config(&self) -> &ImapConfig {
        &self.settings.config
    }

    /// Whether a session is open now.
    pub fn is_connected(&self) -> bool {
        self.conn.is_some()
    }

    fn error(&self, failure: Failure) -> MailboxError {
        MailboxError::Server(format!("IMAP {}: {failure}", self.settings.server()))
    }

    /// A new session, unless the backoff after failed attempts is not over
    /// (`Ok(None)`). A failed attempt is logged and delays the next one.
    fn reconnect(&mut self) -> Result<Option<Conn>, MailboxError> {
        if let Some(at) = self.retry_at {
            if Instant::now() < at {
                return Ok(None);
            }
        }
        let attempt = self.failures + 1;
        tracing::info!(server = %self.settings.server(), attempt, "connecting to the IMAP server");
        match self.runtime.block_on(connect(&self.settings)) {
            Ok(conn) => {
                tracing::info!(
                    server = %self.settings.server(),
                    folder = %self.settings.config.folder,
                    messages = conn.exists,
                    idle = conn.idle,
                    "connected to the IMAP server"
                );
                self.failures = 0;
                self.retry_at = None;
                Ok(Some(conn))
            }
            Err(failure) => {
                let delay = backoff(self.failures, self.settings.config.reconnect_max_secs);
                self.failures = self.failures.saturating_add(1);
                self.retry_at = Some(Instant::now() + delay);
                tracing::warn!(
                    server = %self.settings.server(),
                    attempt,
                    error = %failure,
                    retry_in_secs = delay.as_secs(),
                    "IMAP connection failed"
                );
                Err(self.error(failure))
            }
        }
    }

    /// Runs `op` on the session: on a lost connection, once more on a new
    /// one. `Ok(None)`: no session (waiting out the backoff).
    fn run<T>(
        &mut self,
        op: impl AsyncFn(&mut Conn, &Settings) -> Result<T, Failure>,
    ) -> Result<Option<T>, MailboxError> {
        loop {
            let (mut conn, reused) = match self.conn.take() {
                Some(conn) => (conn, true),
                None => match self.reconnect()? {
                    Some(conn) => (conn, false),
                    None => return Ok(None),
                },
            };
            match self.runtime.block_on(op(&mut conn, &self.settings)) {
                Ok(value) => {
                    self.conn = Some(conn);
                    return Ok(Some(value));
                }
                Err(failure @ (Failure::Refused(_) | Failure::Config(_))) => {
                    self.conn = Some(conn);
                    return Err(self.error(failure));
                }
                Err(failure) if reused => {
                    tracing::warn!(
                        server = %self.settings.server(),
                        error = %failure,
                        "IMAP connection lost: reconnecting"
                    );
                }
                Err(failure) => {
                    // A new session failed at once: as a failed attempt.
                    let delay = backoff(self.failures, self.settings.config.reconnect_max_secs);
                    self.failures = self.failures.saturating_add(1);
                    self.retry_at = Some(Instant::now() + delay);
                    tracing::warn!(
                        server = %self.settings.server(),
                        error = %failure,
                        retry_in_secs = delay.as_secs(),
                        "IMAP connection lost right after connecting"
                    );
                    return Err(self.error(failure));
                }
            }
        }
    }
}

impl Mailbox for ImapMailbox {
    /// The waiting messages (at most 200 at a time), oldest first. Nothing
    /// while a reconnection is being waited for; an error when a
    /// connection attempt fails.
    fn waiting_within(&mut self, limit: ReadLimit) -> Result<Vec<Waiting>, MailboxError> {
        self.more_waiting = false;
        let listed = self.run(async |conn: &mut Conn, s: &Settings| list(conn, s, limit).await)?;
        match listed {
            Some((waiting, more)) => {
                self.more_waiting = more;
                Ok(waiting)
            }
            None => {
                tracing::debug!(
                    server = %self.settings.server(),
                    "not connected to the IMAP server: waiting to reconnect"
                );
                Ok(Vec::new())
            }
        }
    }

    fn mark_done(&mut self, key: &str) -> Result<(), MailboxError> {
        let (validity, uid) = parse_key(key)
            .ok_or_else(|| MailboxError::Server(format!("{key:?} is not an IMAP message key")))?;
        let marked =
            self.run(async |conn: &mut Conn, s: &Settings| mark(conn, s, validity, uid).await)?;
        match marked {
            Some(()) => Ok(()),
            None => Err(MailboxError::Server(format!(
                "IMAP {}: not connected, {key} is not marked done yet",
                self.settings.server()
            ))),
        }
    }

    /// The keys of the folder's current UIDVALIDITY are marked in one
    /// command (a UID set); should it fail, or for any other key, each is
    /// marked on its own, so that every key gets its own answer.
    fn mark_all_done(&mut self, keys: &[&str]) -> Vec<Result<(), MailboxError>> {
        let parsed: Vec<Option<(u32, u32)>> = keys.iter().map(|k| parse_key(k)).collect();
        let validity = parsed.iter().flatten().map(|&(v, _)| v).next();
        let uids: Vec<u32> = parsed
            .iter()
            .flatten()
            .filter(|&&(v, _)| Some(v) == validity)
            .map(|&(_, uid)| uid)
            .collect();
        let together = match validity {
            Some(validity) if uids.len() > 1 => {
                let uids = &uids;
                matches!(
                    self.run(async |conn: &mut Conn, s: &Settings| {
                        mark_many(conn, s, validity, uids).await
                    }),
                    Ok(Some(true))
                )
            }
            _ => false,
        };
        keys.iter()
            .zip(&parsed)
            .map(|(key, parsed)| match parsed {
                Some((v, _)) if together && Some(*v) == validity => Ok(()),
                _ => self.mark_done(key),
            })
            .collect()
    }

    fn quarantine(&mut self, key: &str) -> Result<(), MailboxError> {
        let (validity, uid) = parse_key(key)
            .ok_or_else(|| MailboxError::Server(format!("{key:?} is not an IMAP message key")))?;
        let moved = self
            .run(async |conn: &mut Conn, s: &Settings| set_aside(conn, s, validity, uid).await)?;
        moved.ok_or_else(|| {
            MailboxError::Server(format!(
                "IMAP {}: not connected, {key} is not set aside yet",
                self.settings.server()
            ))
        })
    }

    fn wait(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), MailboxError> {
        if stop.load(Ordering::SeqCst) || self.more_waiting || timeout.is_zero() {
            return Ok(());
        }
        let Some(mut conn) = self.conn.take() else {
            // Until the next connection attempt is due, at most `timeout`.
            let now = Instant::now();
            let until = self.retry_at.unwrap_or(now).min(now + timeout);
            sleep_unless_stopped(until.saturating_duration_since(now), stop);
            return Ok(());
        };
        if conn.new_mail {
            conn.new_mail = false;
            self.conn = Some(conn);
            return Ok(());
        }
        if !(self.settings.config.idle && conn.idle) {
            self.conn = Some(conn);
            sleep_unless_stopped(timeout, stop);
            return Ok(());
        }
        let started = Instant::now();
        match self
            .runtime
            .block_on(idle(&mut conn, timeout.min(MAX_IDLE), stop))
        {
            Ok(woke) => {
                tracing::debug!(
                    woke,
                    ms = started.elapsed().as_millis() as u64,
                    "IMAP IDLE ended"
                );
                self.conn = Some(conn);
            }
            Err(Failure::Refused(text)) => {
                tracing::warn!(error = %text, "IMAP IDLE refused: polling instead");
                conn.idle = false;
                self.conn = Some(conn);
                sleep_unless_stopped(timeout.saturating_sub(started.elapsed()), stop);
            }
            Err(failure) => {
                // The next `waiting` reconnects.
                tracing::warn!(
                    server = %self.settings.server(),
                    error = %failure,
                    "IMAP connection lost while idling"
                );
            }
        }
        Ok(())
    }
}

impl Drop for ImapMailbox {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        // block_on would panic inside another runtime.
        if tokio::runtime::Handle::try_current().is_ok() {
            return;
        }
        let logout = async {
            let _ = tokio::time::timeout(Duration::from_secs(2), conn.session.logout()).await;
        };
        self.runtime.block_on(logout);
    }
}

#[cfg(test)]
mod tests {
    use super::backoff;

    #[test]
    fn backoff_doubles_to_the_limit() {
        let waits: Vec<u64> = (0..12).map(|n| backoff(n, 300).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]);
        assert_eq!(backoff(200, 300).as_secs(), 300);
        assert_eq!(backoff(3, 5).as_secs(), 5);
    }
}
