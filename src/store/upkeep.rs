//! Keeping the database file in shape: how much of it is used, a
//! consistent copy taken while the service runs (`orderly backup`), and
//! giving the space of deleted rows back (`orderly vacuum`).

use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::Connection;

use super::{Result, Store};

/// How much of its file the database uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Space {
    /// Bytes per page.
    pub page_size: u64,
    /// Pages in the file.
    pub pages: u64,
    /// Pages free for reuse: what a vacuum gives back.
    pub free_pages: u64,
}

impl Space {
    /// Bytes of the file (its write-ahead log not counted).
    pub fn file_bytes(&self) -> u64 {
        self.page_size * self.pages
    }

    /// Bytes holding rows and indexes.
    pub fn used_bytes(&self) -> u64 {
        self.page_size * self.pages.saturating_sub(self.free_pages)
    }
}

/// How long a backup waits out a source that is busy (a checkpoint or a
/// recovery in progress: in WAL mode a writer never blocks the copy).
const BACKUP_PATIENCE: Duration = Duration::from_secs(10);

impl Store {
    /// How much of the file the database uses now.
    pub fn space(&self) -> Result<Space> {
        let get = |pragma: &str| -> Result<u64> {
            Ok(self
                .conn
                .pragma_query_value(None, pragma, |r| r.get::<_, i64>(0))?
                .max(0) as u64)
        };
        Ok(Space {
            page_size: get("page_size")?,
            pages: get("page_count")?,
            free_pages: get("freelist_count")?,
        })
    }

    /// Copies the database to `dest` with SQLite's online backup, while
    /// the service may go on writing through other connections; returns
    /// the pages copied. The copy is one snapshot: every page is copied in
    /// a single step, under one read transaction, so a commit elsewhere
    /// neither tears it nor restarts it (in WAL mode that read blocks no
    /// writer). It is written beside `dest` and renamed into place once
    /// synced, so `dest` is never a half copy. An existing `dest` is an
    /// error unless `overwrite`.
    pub fn backup_to(&self, dest: &Path, overwrite: bool) -> Result<u64> {
        let refuse = |why: String| {
            super::StoreError::Io(std::io::Error::new(std::io::ErrorKind::AlreadyExists, why))
        };
        if let Some(source) = self.conn.path().filter(|p| !p.is_empty()) {
            if let (Ok(source), Ok(dest)) = (std::fs::canonicalize(source), dest.canonicalize()) {
                if source == dest {
                    return Err(refuse(format!("{} is the database itself", dest.display())));
                }
            }
        }
        if !overwrite && std::fs::symlink_metadata(dest).is_ok() {
            return Err(refuse(format!(
                "{} exists (--force overwrites it)",
                dest.display()
            )));
        }
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        let mut partial = dest.as_os_str().to_owned();
        partial.push(format!(".partial-{}", std::process::id()));
        let partial = std::path::PathBuf::from(partial);
        let _ = std::fs::remove_file(&partial);
        // The copy holds what the database holds: only its owner reads it,
        // from before the first page is written.
        std::fs::File::create(&partial)?;
        crate::private::restrict_file(&partial)?;
        let copied = copy_into(&self.conn, &partial);
        let copied = match copied {
            Ok(pages) => pages,
            Err(e) => {
                let _ = std::fs::remove_file(&partial);
                return Err(e);
            }
        };
        std::fs::File::open(&partial)?.sync_all()?;
        if overwrite {
            // A log left beside an older file of that name would be read
            // into the copy when it is opened.
            for suffix in ["-wal", "-shm"] {
                let mut name = dest.as_os_str().to_owned();
                name.push(suffix);
                match std::fs::remove_file(&name) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
                    _ => {}
                }
            }
        }
        std::fs::rename(&partial, dest)?;
        std::fs::File::open(&dir)?.sync_all()?;
        Ok(copied)
    }

    /// Rebuilds the file without its free pages (the rows deleted since,
    /// such as sent mail past its retention) and empties the write-ahead
    /// log into it; returns the space before and after. It takes the write
    /// lock for as long as it runs: the daemon waits meanwhile.
    pub fn vacuum(&mut self) -> Result<(Space, Space)> {
        let before = self.space()?;
        self.conn.execute_batch("VACUUM")?;
        // In WAL mode VACUUM writes the new pages through the log; a
        // truncating checkpoint moves them into the file and gives the
        // log's own space back too.
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok((before, self.space()?))
    }
}

/// Copies every page of `from` into a new database at `path` in one step.
fn copy_into(from: &Connection, path: &Path) -> Result<u64> {
    let mut to = Connection::open(path)?;
    let pages = {
        let backup = Backup::new(from, &mut to)?;
        let started = std::time::Instant::now();
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => continue,
                StepResult::Busy | StepResult::Locked if started.elapsed() < BACKUP_PATIENCE => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                // Busy and locked, for too long (the enum is open to more).
                _ => {
                    return Err(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
                        Some("the database stayed busy during the backup".into()),
                    )
                    .into())
                }
            }
        }
        backup.progress().pagecount.max(0) as u64
    };
    to.close().map_err(|(_, e)| e)?;
    Ok(pages)
}
