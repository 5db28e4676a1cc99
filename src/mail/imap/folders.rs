//! Where a processed message goes: `\Seen` in its folder, or moved to the
//! processed folder (MOVE, else COPY, `\Deleted` and EXPUNGE); a poison
//! message moved to the quarantine folder; and folders created when
//! missing. A message already gone counts as done: someone else moved it.

use async_imap::imap_proto::{MailboxDatum, Response};

use super::connection::{command, quote, search, select, Conn, Failure};
use super::keys::message_key;
use super::settings::Settings;

/// Creates `folder` unless it exists. Returns whether it was created.
pub(super) async fn ensure_folder(conn: &mut Conn, folder: &str) -> Result<bool, Failure> {
    let mut found = false;
    command(conn, &format!("LIST \"\" {}", quote(folder)), |response| {
        if let Response::MailboxData(MailboxDatum::List(_)) = response {
            found = true;
        }
    })
    .await?;
    if found {
        return Ok(false);
    }
    command(conn, &format!("CREATE {}", quote(folder)), |_| {})
        .await
        .map_err(|e| match e {
            Failure::Refused(text) => {
                Failure::Refused(format!("cannot create processed folder {folder}: {text}"))
            }
            other => other,
        })?;
    Ok(true)
}

/// Marks one message done: `\Seen`, or moved to the processed folder.
pub(super) async fn mark(
    conn: &mut Conn,
    s: &Settings,
    validity: u32,
    uid: u32,
) -> Result<(), Failure> {
    if conn.uid_validity != validity {
        // Reselect in case the folder changed since the last listing.
        select(conn, &s.config.folder).await?;
        if conn.uid_validity != validity {
            tracing::warn!(
                key = %message_key(validity, uid),
                uid_validity = conn.uid_validity,
                "the IMAP folder's UIDVALIDITY changed: the message cannot be identified and \
                 is left alone (it is listed again under its new key)"
            );
            return Ok(());
        }
    }
    let done = match &s.config.processed_folder {
        None => {
            command(
                conn,
                &format!("UID STORE {uid} +FLAGS.SILENT (\\Seen)"),
                |_| {},
            )
            .await
        }
        Some(folder) if conn.moves => {
            command(conn, &format!("UID MOVE {uid} {}", quote(folder)), |_| {}).await
        }
        Some(folder) => move_by_copy(conn, &uid.to_string(), folder).await,
    };
    match done {
        Err(Failure::Refused(text)) => {
            // A message already gone (moved or expunged by someone else) is
            // done; anything else is an error.
            if search(conn, &format!("UID {uid}")).await?.contains(&uid) {
                Err(Failure::Refused(text))
            } else {
                Ok(())
            }
        }
        other => other,
    }
}

/// Marks a batch of messages done in one command over a UID set (one for
/// `\Seen` or MOVE; COPY, STORE and EXPUNGE without MOVE). `Ok(false)`
/// when that cannot be done (the folder's UIDVALIDITY changed, or the
/// server refused, as it may when one of them is already gone): the
/// caller then marks each on its own, which tells those cases apart.
pub(super) async fn mark_many(
    conn: &mut Conn,
    s: &Settings,
    validity: u32,
    uids: &[u32],
) -> Result<bool, Failure> {
    if conn.uid_validity != validity {
        select(conn, &s.config.folder).await?;
        if conn.uid_validity != validity {
            return Ok(false);
        }
    }
    let set = uid_set(uids);
    let done = match &s.config.processed_folder {
        None => {
            command(
                conn,
                &format!("UID STORE {set} +FLAGS.SILENT (\\Seen)"),
                |_| {},
            )
            .await
        }
        Some(folder) if conn.moves => {
            command(conn, &format!("UID MOVE {set} {}", quote(folder)), |_| {}).await
        }
        Some(folder) => move_by_copy(conn, &set, folder).await,
    };
    match done {
        Ok(()) => Ok(true),
        Err(Failure::Refused(_)) => Ok(false),
        Err(other) => Err(other),
    }
}

/// An IMAP sequence set of `uids` (RFC 3501 section 9, `sequence-set`):
/// runs of consecutive UIDs written as ranges, `3:5,9`.
pub(super) fn uid_set(uids: &[u32]) -> String {
    let mut sorted = uids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut set = String::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        if !set.is_empty() {
            set.push(',');
        }
        if end == start {
            set.push_str(&start.to_string());
        } else {
            set.push_str(&format!("{start}:{end}"));
        }
        i += 1;
    }
    set
}

/// Moves one message to the quarantine folder (created when missing).
pub(super) async fn set_aside(
    conn: &mut Conn,
    s: &Settings,
    validity: u32,
    uid: u32,
) -> Result<(), Failure> {
    if conn.uid_validity != validity {
        select(conn, &s.config.folder).await?;
        if conn.uid_validity != validity {
            // Listed again under its new key, and tried again.
            return Ok(());
        }
    }
    let folder = &s.config.quarantine_folder;
    ensure_folder(conn, folder).await?;
    if conn.moves {
        command(conn, &format!("UID MOVE {uid} {}", quote(folder)), |_| {}).await
    } else {
        move_by_copy(conn, &uid.to_string(), folder).await
    }
}

/// MOVE for servers without it: COPY, `\Deleted`, EXPUNGE, for the UID
/// set `uid` (one UID or several).
async fn move_by_copy(conn: &mut Conn, uid: &str, folder: &str) -> Result<(), Failure> {
    command(conn, &format!("UID COPY {uid} {}", quote(folder)), |_| {}).await?;
    command(
        conn,
        &format!("UID STORE {uid} +FLAGS.SILENT (\\Deleted)"),
        |_| {},
    )
    .await?;
    if conn.uidplus {
        command(conn, &format!("UID EXPUNGE {uid}"), |_| {}).await
    } else {
        command(conn, "EXPUNGE", |_| {}).await
    }
}

#[cfg(test)]
mod tests {
    use super::uid_set;

    #[test]
    fn a_uid_set_writes_runs_as_ranges_in_order_without_repeats() {
        assert_eq!(uid_set(&[7]), "7");
        assert_eq!(uid_set(&[5, 3, 4, 9, 3]), "3:5,9");
        assert_eq!(uid_set(&[1, 2, 4, 5, 7]), "1:2,4:5,7");
        assert_eq!(uid_set(&[u32::MAX, u32::MAX - 1]), "4294967294:4294967295");
    }
}
