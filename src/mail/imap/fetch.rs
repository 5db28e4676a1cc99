//! Listing the waiting messages: UID SEARCH, then each one's size asked
//! before any byte of it is fetched, so that one huge message costs no
//! more than its head, and what one listing holds stays within the
//! service's limits (the rest waits for the next listing).

use async_imap::imap_proto::{AttributeValue, Response};

use super::config::ImapConfig;
use super::connection::{command, search, select, Conn, Failure};
use super::keys::message_key;
use super::settings::Settings;
use crate::mail::{ReadLimit, Waiting};

/// Messages listed by one `waiting` call; the rest come at the next one.
const MAX_LIST: usize = 200;
/// Messages fetched by one `UID FETCH`.
const FETCH_CHUNK: usize = 50;

/// The sizes (RFC822.SIZE) of the messages with these UIDs (those still
/// there): looked at before any message is fetched.
async fn sizes(conn: &mut Conn, uids: &[u32]) -> Result<Vec<(u32, usize)>, Failure> {
    let set = uid_set(uids);
    let mut out = Vec::new();
    command(
        conn,
        &format!("UID FETCH {set} (UID RFC822.SIZE)"),
        |response| {
            if let Response::Fetch(_, attributes) = response {
                let mut uid = None;
                let mut size = None;
                for attribute in attributes {
                    match attribute {
                        AttributeValue::Uid(u) => uid = Some(*u),
                        AttributeValue::Rfc822Size(n) => {
                            size = Some(usize::try_from(*n).unwrap_or(usize::MAX))
                        }
                        _ => {}
                    }
                }
                if let (Some(uid), Some(size)) = (uid, size) {
                    if uids.binary_search(&uid).is_ok() {
                        out.push((uid, size));
                    }
                }
            }
        },
    )
    .await?;
    Ok(out)
}

/// The search for the waiting messages: with a processed folder every
/// message left in the folder waits (done ones are moved out); without
/// one, done ones stay and are marked `\Seen`, so only unseen ones wait.
pub(super) fn waiting_query(config: &ImapConfig) -> &'static str {
    match config.processed_folder {
        Some(_) => "UNDELETED",
        None => "UNSEEN UNDELETED",
    }
}

/// `uids` as an IMAP sequence set (`4,7,9`).
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The raw messages with these UIDs (those still there, sorted), whole,
/// or only their first `head` bytes (`BODY.PEEK[]<0.head>`).
async fn fetch(
    conn: &mut Conn,
    uids: &[u32],
    head: Option<usize>,
) -> Result<Vec<(u32, Vec<u8>)>, Failure> {
    if uids.is_empty() {
        return Ok(Vec::new());
    }
    let set = uid_set(uids);
    let section = match head {
        Some(n) => format!("BODY.PEEK[]<0.{n}>"),
        None => "BODY.PEEK[]".to_string(),
    };
    let mut out = Vec::new();
    command(
        conn,
        &format!("UID FETCH {set} (UID {section})"),
        |response| {
            if let Response::Fetch(_, attributes) = response {
                let mut uid = None;
                let mut body = None;
                for attribute in attributes {
                    match attribute {
                        AttributeValue::Uid(u) => uid = Some(*u),
                        AttributeValue::BodySection {
                            section: None,
                            data: Some(data),
                            ..
                        }
                        | AttributeValue::Rfc822(Some(data)) => body = Some(data.to_vec()),
                        _ => {}
                    }
                }
                if let (Some(uid), Some(mut body)) = (uid, body) {
                    if uids.binary_search(&uid).is_ok() {
                        if let Some(n) = head {
                            body.truncate(n);
                        }
                        out.push((uid, body));
                    }
                }
            }
        },
    )
    .await?;
    Ok(out)
}

/// The waiting messages, oldest first, and whether more are left. Each
/// one's size is asked first: one larger than `limit.max_bytes` is fetched
/// only as far as its head.
pub(super) async fn list(
    conn: &mut Conn,
    s: &Settings,
    limit: ReadLimit,
) -> Result<(Vec<Waiting>, bool), Failure> {
    select(conn, &s.config.folder).await?;
    let mut uids = search(conn, waiting_query(&s.config)).await?;
    let mut more = uids.len() > MAX_LIST;
    uids.truncate(MAX_LIST);
    let mut found = Vec::with_capacity(uids.len());
    let mut held = 0usize;
    for chunk in uids.chunks(FETCH_CHUNK) {
        let mut sizes = sizes(conn, chunk).await?;
        // What one listing holds is bounded: the messages past the budget
        // wait for the next listing, which follows at once.
        let mut chunk = chunk.to_vec();
        if let Some(cut) = chunk.iter().position(|&uid| {
            let size = sizes
                .iter()
                .find(|(u, _)| *u == uid)
                .map_or(limit.max_bytes, |(_, size)| *size);
            held = held.saturating_add(if size > limit.max_bytes {
                limit.head_bytes
            } else {
                size
            });
            held > limit.listing_bytes
        }) {
            let cut = cut.max(usize::from(found.is_empty()));
            chunk.truncate(cut);
            sizes.retain(|(uid, _)| chunk.contains(uid));
            more = true;
        }
        let chunk = chunk.as_slice();
        let size_of = |uid: u32| {
            sizes
                .iter()
                .find(|(u, _)| *u == uid)
                .map_or(0, |(_, size)| *size)
        };
        // A message whose size the server did not say is fetched no
        // further than the limit and one byte, to tell.
        let (whole, large): (Vec<u32>, Vec<u32>) = chunk
            .iter()
            .copied()
            .filter(|&uid| sizes.iter().any(|(u, _)| *u == uid))
            .partition(|&uid| size_of(uid) <= limit.max_bytes);
        let unsized_uids: Vec<u32> = chunk
            .iter()
            .copied()
            .filter(|&uid| !sizes.iter().any(|(u, _)| *u == uid))
            .collect();
        for (uid, raw) in fetch(conn, &whole, Some(limit.max_bytes.saturating_add(1))).await? {
            let size = size_of(uid).max(raw.len());
            found.push(bounded(uid, raw, size, limit));
        }
        for (uid, raw) in fetch(conn, &large, Some(limit.head_bytes)).await? {
            found.push((uid, raw, size_of(uid)));
        }
        for (uid, raw) in
            fetch(conn, &unsized_uids, Some(limit.max_bytes.saturating_add(1))).await?
        {
            let size = raw.len();
            found.push(bounded(uid, raw, size, limit));
        }
        if held > limit.listing_bytes {
            break;
        }
    }
    found.sort_by_key(|(uid, _, _)| *uid);
    found.dedup_by_key(|(uid, _, _)| *uid);
    let validity = conn.uid_validity;
    let waiting = found
        .into_iter()
        .map(|(uid, raw, size)| Waiting {
            key: message_key(validity, uid),
            raw,
            size,
        })
        .collect();
    Ok((waiting, more))
}

/// A message fetched up to the limit and one byte: whole when it is
/// within the limit, else only its head.
fn bounded(uid: u32, mut raw: Vec<u8>, size: usize, limit: ReadLimit) -> (u32, Vec<u8>, usize) {
    if raw.len() > limit.max_bytes {
        raw.truncate(limit.head_bytes.min(limit.max_bytes));
        (uid, raw, size.max(limit.max_bytes.saturating_add(1)))
    } else {
        (uid, raw, size)
    }
}
