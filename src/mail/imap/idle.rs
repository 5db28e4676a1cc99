//! Waiting for new mail in IMAP IDLE (RFC 2177): until the server reports
//! anything, the wait is over or the service is told to stop, checked
//! often enough that a shutdown never waits for the server.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_imap::imap_proto::{MailboxDatum, Response, Status};

use super::connection::{next_response, timed, Conn, Failure};

/// How often `wait` looks at its stop flag while in IDLE.
const STOP_POLL: Duration = Duration::from_millis(50);
/// RFC 2177: leave IDLE at least every 29 minutes.
pub(super) const MAX_IDLE: Duration = Duration::from_secs(25 * 60);

/// IDLE until the server reports anything (true), `dur` passes or `stop`
/// is set (false).
pub(super) async fn idle(
    conn: &mut Conn,
    dur: Duration,
    stop: &AtomicBool,
) -> Result<bool, Failure> {
    let tag = timed("IDLE", conn.session.run_command("IDLE")).await?;
    let mut woke = false;
    let mut done = false;
    // Until the server's "+ idling": anything it reports here counts.
    loop {
        let response = next_response!(conn, "IDLE");
        match response.parsed() {
            Response::Continue(_) => break,
            Response::Done {
                tag: t,
                status,
                outcome,
            } if t == &tag => {
                let text = outcome.information.as_deref().unwrap_or("");
                match status {
                    Status::Ok => {
                        // Ended already: nothing to send DONE for.
                        done = true;
                        break;
                    }
                    _ => return Err(Failure::Refused(format!("IDLE: {status:?} {text}"))),
                }
            }
            Response::Data {
                status: Status::Bye,
                ..
            } => return Err(Failure::Lost("the server closed the connection".into())),
            Response::Data {
                status: Status::Ok, ..
            } => {}
            _ => woke = true,
        }
    }
    if done {
        return Ok(woke || conn.new_mail);
    }
    let until = tokio::time::Instant::now() + dur;
    while !woke && !stop.load(Ordering::SeqCst) {
        let left = until.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            break;
        }
        // Reading is cancel-safe: a partly read response stays buffered.
        match tokio::time::timeout(STOP_POLL.min(left), conn.session.read_response()).await {
            Err(_) => {}
            Ok(Err(e)) => return Err(e.into()),
            Ok(Ok(None)) => return Err(Failure::Lost("connection closed while idling".into())),
            Ok(Ok(Some(response))) => match response.parsed() {
                Response::Data {
                    status: Status::Bye,
                    ..
                } => return Err(Failure::Lost("the server closed the connection".into())),
                // "* OK Still here"
                Response::Data {
                    status: Status::Ok, ..
                } => {}
                Response::Done { tag: t, .. } if t == &tag => {
                    return Err(Failure::Lost("the server ended IDLE unasked".into()))
                }
                _ => woke = true,
            },
        }
    }
    timed("DONE", conn.session.run_command_untagged("DONE")).await?;
    loop {
        let response = next_response!(conn, "DONE");
        match response.parsed() {
            Response::Done {
                tag: t,
                status,
                outcome,
            } if t == &tag => {
                return match status {
                    Status::Ok => Ok(woke || conn.new_mail),
                    _ => Err(Failure::Lost(format!(
                        "IDLE ended with {status:?} {}",
                        outcome.information.as_deref().unwrap_or("")
                    ))),
                };
            }
            Response::Data {
                status: Status::Bye,
                ..
            } => return Err(Failure::Lost("the server closed the connection".into())),
            Response::MailboxData(MailboxDatum::Exists(_) | MailboxDatum::Recent(_)) => woke = true,
            _ => {}
        }
    }
}
