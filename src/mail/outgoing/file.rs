//! Delivery into a directory of `.eml` files, for tests, for a local MTA
//! that picks files up, and for running without SMTP.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

use super::{MailSender, OutgoingMail, SendError};

/// Writes each mail, formatted by lettre, to `<dir>/<date>-<file_name(id)>`.
///
/// lettre's own `FileTransport` is not used because it names files by a
/// fresh random UUID: a retried send would leave a second copy. Here the
/// name comes from the mail's date and Message-ID, so a retry overwrites
/// the same file.
/// The write is atomic (a temporary dot-file in the same directory, made
/// durable, then renamed), so a reader sees a whole mail or none, even after
/// a crash; readers should skip names starting with a dot.
///
/// A batch costs two disk flushes whatever its size: `send_unsynced` only
/// writes the temporary file; `sync` flushes the file system once (Linux
/// `syncfs`: one journal commit for every file of the batch instead of one
/// each), then renames the files into place and syncs the directory once.
/// `send` is the batch of one.
#[derive(Debug, Clone)]
pub struct FileSender {
    dir: PathBuf,
    /// Written but not yet renamed into place: (temporary, final) paths.
    /// Shared by clones, so whichever clone syncs finishes them all.
    unsynced: Arc<Mutex<Vec<(PathBuf, PathBuf)>>>,
}

impl FileSender {
    /// A sender into `dir`, which is created (with its parents) at the first
    /// send if missing.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            unsynced: Arc::default(),
        }
    }

    /// The directory mails go to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where `mail` is (or will be) written: its date first, to the
    /// millisecond, so that `ls` lists the mails in the order they were
    /// made; then its Message-ID. Both are stored with the mail, so a retry
    /// writes the same name.
    pub fn path_for(&self, mail: &OutgoingMail) -> PathBuf {
        let date = mail.date.format("%Y%m%dT%H%M%S%.3fZ");
        self.dir
            .join(format!("{date}-{}", file_name(&mail.message_id)))
    }
}

impl MailSender for FileSender {
    fn send(&self, mail: &OutgoingMail) -> Result<(), SendError> {
        self.send_unsynced(mail)?;
        self.sync()
    }

    /// Writes the mail to a temporary file, neither flushed nor in place:
    /// [`Self::sync`] does both for the whole batch.
    fn send_unsynced(&self, mail: &OutgoingMail) -> Result<(), SendError> {
        let bytes = mail.to_bytes().map_err(|source| SendError::Compose {
            message_id: mail.message_id.clone(),
            source,
        })?;
        create_dir(&self.dir)?;
        let path = self.path_for(mail);
        let tmp = write_temporary(&self.dir, &path, &bytes)?;
        tracing::debug!(message_id = %mail.message_id, path = %path.display(), "mail written");
        self.unsynced
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((tmp, path));
        Ok(())
    }

    /// Makes every mail written since durable and visible: their data is
    /// flushed first, so that no crash can leave a renamed file without its
    /// contents; then the renames, made durable by one sync of the
    /// directory. On an error the files not yet renamed are removed: the
    /// outbox sends those mails again.
    fn sync(&self) -> Result<(), SendError> {
        let batch =
            std::mem::take(&mut *self.unsynced.lock().unwrap_or_else(PoisonError::into_inner));
        if batch.is_empty() {
            return Ok(());
        }
        let dir_error = |source| SendError::File {
            path: self.dir.clone(),
            source,
        };
        if let Err(source) = flush_data(&self.dir, &batch) {
            remove_all(&batch);
            return Err(dir_error(source));
        }
        for (i, (tmp, path)) in batch.iter().enumerate() {
            if let Err(source) = fs::rename(tmp, path) {
                remove_all(&batch[i..]);
                return Err(SendError::File {
                    path: path.clone(),
                    source,
                });
            }
        }
        sync_dir(&self.dir).map_err(dir_error)
    }

    /// A file is written and synced in well under a millisecond, with no
    /// wait to overlap: the outbox writes them on its own thread.
    fn parallel(&self) -> bool {
        false
    }
}

/// The file name for a Message-ID: `[A-Za-z0-9._-]` kept, anything else
/// (notably `@`) turned into `_`, a leading dot too (no hidden files), and
/// `.eml` appended. Overlong ids are cut and given a hash of the whole id,
/// so names stay under file-system limits and still differ.
pub fn file_name(message_id: &str) -> String {
    const MAX: usize = 200;
    let mut name: String = message_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    if name.len() > MAX {
        let digest = Sha256::digest(message_id.as_bytes());
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        // Only ASCII is left, so any byte index is a char boundary.
        name.truncate(MAX - hex.len() - 1);
        name.push('-');
        name.push_str(&hex);
    }
    name.push_str(".eml");
    name
}

fn create_dir(dir: &Path) -> Result<(), SendError> {
    crate::private::create_dir_all(dir).map_err(|source| {
        // create_dir_all reports a plain file in the way as AlreadyExists,
        // which in a log reads like success rather than the misconfiguration.
        let source = if source.kind() == io::ErrorKind::AlreadyExists {
            io::Error::new(
                io::ErrorKind::NotADirectory,
                "exists and is not a directory",
            )
        } else {
            source
        };
        SendError::File {
            path: dir.to_owned(),
            source,
        }
    })
}

/// Writes `bytes` to a fresh temporary dot-file beside `path` and returns
/// its path. Not flushed: see [`FileSender::sync`].
fn write_temporary(dir: &Path, path: &Path, bytes: &[u8]) -> Result<PathBuf, SendError> {
    // Unique per process and call, so concurrent senders never share a
    // temporary file even when they write the same mail.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let final_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{final_name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| {
        // Mail to players is for the service's own user to read only.
        let mut file = {
            use std::os::unix::fs::OpenOptionsExt;
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&tmp)?
        };
        file.write_all(bytes)
    })();
    if let Err(source) = written {
        let _ = fs::remove_file(&tmp);
        return Err(SendError::File { path: tmp, source });
    }
    Ok(tmp)
}

fn remove_all(batch: &[(PathBuf, PathBuf)]) {
    for (tmp, _) in batch {
        let _ = fs::remove_file(tmp);
    }
}

/// Flushes the data of the temporary files in `batch` to disk. On Linux one
/// `syncfs` of the file system holding `dir` does it for all of them at the
/// cost of one journal commit; elsewhere each file is synced.
#[cfg(target_os = "linux")]
fn flush_data(dir: &Path, _batch: &[(PathBuf, PathBuf)]) -> io::Result<()> {
    let dir = fs::File::open(dir)?;
    rustix::fs::syncfs(&dir).map_err(io::Error::from)
}

#[cfg(not(target_os = "linux"))]
fn flush_data(_dir: &Path, batch: &[(PathBuf, PathBuf)]) -> io::Result<()> {
    for (tmp, _) in batch {
        fs::File::open(tmp)?.sync_all()?;
    }
    Ok(())
}

/// Makes the rename itself durable.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}
