//! One open IMAP session ([`Conn`]), what can go wrong on it
//! ([`Failure`]), and running a command on it to its tagged end: the loop
//! every other part goes through, so that NO, BAD, BYE, a closed connection
//! and a silent server are told apart in one place. The commands that
//! several parts need (CAPABILITY, SELECT, UID SEARCH) are here too.

use std::time::Duration;

use async_imap::imap_proto::{MailboxDatum, Response, ResponseCode, Status};
use async_imap::Session;

use super::config::ImapConfigError;
use super::stream::Stream;

/// How long any single server answer may take before the connection is
/// taken for dead.
const IO_TIMEOUT: Duration = Duration::from_secs(120);

/// `text` as an IMAP quoted string.
pub(super) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// What went wrong talking to the server.
#[derive(Debug, thiserror::Error)]
pub(super) enum Failure {
    /// The server answered NO or BAD: the connection itself is fine.
    #[error("{0}")]
    Refused(String),
    /// The connection broke, timed out, or the server talked nonsense.
    #[error("{0}")]
    Lost(String),
    /// The configuration is unusable.
    #[error("{0}")]
    Config(#[from] ImapConfigError),
}

impl From<async_imap::error::Error> for Failure {
    fn from(e: async_imap::error::Error) -> Failure {
        use async_imap::error::Error;
        match e {
            Error::No(text) | Error::Bad(text) => Failure::Refused(text),
            Error::ConnectionLost => Failure::Lost("connection closed by the server".into()),
            other => Failure::Lost(other.to_string()),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Lost(e.to_string())
    }
}

/// `fut`, or a `Lost` failure when it takes longer than [`IO_TIMEOUT`].
pub(super) async fn timed<T, E: Into<Failure>>(
    what: &str,
    fut: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, Failure> {
    match tokio::time::timeout(IO_TIMEOUT, fut).await {
        Ok(result) => result.map_err(|e| match e.into() {
            Failure::Lost(text) => Failure::Lost(format!("{what}: {text}")),
            other => other,
        }),
        Err(_) => Err(Failure::Lost(format!(
            "{what}: no answer within {} s",
            IO_TIMEOUT.as_secs()
        ))),
    }
}

/// An open, logged-in session with the folder selected.
pub(super) struct Conn {
    /// The logged-in session.
    pub(super) session: Session<Stream>,
    /// The server offers IDLE.
    pub(super) idle: bool,
    /// The server offers MOVE.
    pub(super) moves: bool,
    /// The server offers UID EXPUNGE.
    pub(super) uidplus: bool,
    /// The selected folder's UIDVALIDITY.
    pub(super) uid_validity: u32,
    /// The selected folder's message count.
    pub(super) exists: u32,
    /// The server reported new mail since the last SELECT.
    pub(super) new_mail: bool,
}

impl Conn {
    /// A session just logged in: capabilities not asked yet, no folder
    /// selected.
    pub(super) fn new(session: Session<Stream>) -> Conn {
        Conn {
            session,
            idle: false,
            moves: false,
            uidplus: false,
            uid_validity: 0,
            exists: 0,
            new_mail: false,
        }
    }
}

/// The next response on `$conn`'s session (`?` on failure, a `Lost` one
/// when the connection ended). A macro: async-imap does not export the
/// response type's name.
macro_rules! next_response {
    ($conn:expr, $what:expr) => {
        match $crate::mail::imap::connection::timed($what, $conn.session.read_response()).await? {
            Some(response) => response,
            None => {
                return Err($crate::mail::imap::connection::Failure::Lost(format!(
                    "{}: connection closed by the server",
                    $what
                )))
            }
        }
    };
}
pub(super) use next_response;

/// Runs `command` to its tagged end, handing each untagged response to
/// `on_data`. NO and BAD become `Refused`; BYE and the end of the
/// connection become `Lost`. New-mail notices set `conn.new_mail`.
pub(super) async fn command(
    conn: &mut Conn,
    command: &str,
    mut on_data: impl FnMut(&Response<'_>),
) -> Result<(), Failure> {
    let what = command.split(' ').take(2).collect::<Vec<_>>().join(" ");
    let tag = timed(&what, conn.session.run_command(command)).await?;
    loop {
        let response = next_response!(conn, &what);
        match response.parsed() {
            Response::Done {
                tag: done,
                status,
                outcome,
            } if done == &tag => {
                let text = outcome.information.as_deref().unwrap_or("");
                return match status {
                    Status::Ok => Ok(()),
                    _ => Err(Failure::Refused(format!("{what}: {status:?} {text}"))),
                };
            }
            Response::Data {
                status: Status::Bye,
                outcome,
            } => {
                return Err(Failure::Lost(format!(
                    "the server closed the connection: {}",
                    outcome.information.as_deref().unwrap_or("BYE")
                )))
            }
            Response::MailboxData(MailboxDatum::Exists(_) | MailboxDatum::Recent(_)) => {
                conn.new_mail = true;
                on_data(response.parsed());
            }
            other => on_data(other),
        }
    }
}

/// Asks for the capabilities.
pub(super) async fn capabilities(conn: &mut Conn) -> Result<Vec<String>, Failure> {
    let mut caps = Vec::new();
    command(conn, "CAPABILITY", |response| {
        if let Response::Capabilities(list) = response {
            caps.extend(list.iter().map(|c| {
                use async_imap::imap_proto::Capability;
                match c {
                    Capability::Imap4rev1 => "IMAP4REV1".to_string(),
                    Capability::Auth(a) => format!("AUTH={}", a.to_ascii_uppercase()),
                    Capability::Atom(a) => a.to_ascii_uppercase(),
                }
            }));
        }
    })
    .await?;
    let has = |name: &str| caps.iter().any(|c| c == name);
    conn.idle = has("IDLE");
    conn.moves = has("MOVE");
    conn.uidplus = has("UIDPLUS");
    Ok(caps)
}

/// Selects `folder`, noting its UIDVALIDITY and size.
pub(super) async fn select(conn: &mut Conn, folder: &str) -> Result<(), Failure> {
    let mut validity = None;
    let mut exists = 0;
    command(
        conn,
        &format!("SELECT {}", quote(folder)),
        |response| match response {
            Response::Data {
                status: Status::Ok,
                outcome,
            } => {
                if let Some(ResponseCode::UidValidity(v)) = outcome.code {
                    validity = Some(v);
                }
            }
            Response::MailboxData(MailboxDatum::Exists(n)) => exists = *n,
            _ => {}
        },
    )
    .await
    .map_err(|e| match e {
        Failure::Refused(text) => Failure::Refused(format!("folder {folder}: {text}")),
        other => other,
    })?;
    conn.uid_validity = validity
        .ok_or_else(|| Failure::Lost(format!("SELECT {folder}: no UIDVALIDITY in the answer")))?;
    conn.exists = exists;
    conn.new_mail = false;
    Ok(())
}

/// `UID SEARCH query`.
pub(super) async fn search(conn: &mut Conn, query: &str) -> Result<Vec<u32>, Failure> {
    let mut uids = Vec::new();
    command(conn, &format!("UID SEARCH {query}"), |response| {
        if let Response::MailboxData(MailboxDatum::Search(found)) = response {
            uids.extend_from_slice(found);
        }
    })
    .await?;
    uids.sort_unstable();
    uids.dedup();
    Ok(uids)
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn quoting() {
        assert_eq!(quote("INBOX"), "\"INBOX\"");
        assert_eq!(quote("a \"b\" \\c"), "\"a \\\"b\\\" \\\\c\"");
    }
}
