//! The Maildir incoming mail arrives in: `tmp/`, `new/` and `cur/`.
//!
//! The delivery agent writes each message to `tmp/` and renames it into
//! `new/`; the service reads `new/` and, once the message's effects are
//! committed, renames it into `cur/` with the Seen flag. A crash between
//! the commit and the rename leaves the message in `new/`: it is read again
//! and the store's record of its Message-ID makes that a no-op.
//!
//! ```
//! use orderly::mail::maildir::Maildir;
//!
//! let dir = std::env::temp_dir().join(format!("orderly-maildir-doc-{}", std::process::id()));
//! let maildir = Maildir::open_or_create(&dir)?;
//! maildir.deliver(b"Subject: hello\r\n\r\nPASS\r\n")?;
//! for entry in maildir.new_messages()? {
//!     let raw = maildir.read(&entry)?;
//!     assert!(raw.starts_with(b"Subject"));
//!     maildir.mark_done(&entry)?;
//! }
//! assert_eq!(maildir.cur_messages()?.len(), 1);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

/// A Maildir on disk.
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
    /// The last listing (as a [`crate::mail::Mailbox`]) left messages for
    /// the next one.
    pub(crate) more_waiting: bool,
}

/// One message file in `new/` or `cur/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaildirEntry {
    /// The unique part of the file name: everything before the `:` that
    /// starts the flags.
    pub id: String,
    /// Where the file was when it was listed.
    pub path: PathBuf,
}

impl Maildir {
    /// Opens the Maildir at `path`, creating it and its `tmp/`, `new/` and
    /// `cur/` directories when missing.
    pub fn open_or_create(path: impl AsRef<Path>) -> io::Result<Maildir> {
        let root = path.as_ref().to_path_buf();
        // Players' mail: for the service's own user only.
        for sub in ["tmp", "new", "cur"] {
            crate::private::create_dir_all(&root.join(sub))?;
        }
        Ok(Maildir {
            root,
            more_waiting: false,
        })
    }

    /// The Maildir's own directory.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// The messages waiting in `new/`, sorted by file name so that every run
    /// takes them in the same order (delivery order for the names
    /// [`Maildir::deliver`] makes within one process): the first
    /// [`MAX_LISTED`] of them, however many a flood has left there.
    pub fn new_messages(&self) -> io::Result<Vec<MaildirEntry>> {
        Ok(self.new_messages_upto(MAX_LISTED)?.0)
    }

    /// The first `limit` messages of `new/` by file name, and whether more
    /// are waiting. Memory stays bounded by `limit` whatever the number of
    /// files: the directory is read as a stream, keeping the smallest names.
    pub fn new_messages_upto(&self, limit: usize) -> io::Result<(Vec<MaildirEntry>, bool)> {
        list(&self.root.join("new"), limit)
    }

    /// The message of `new/` whose unique name is `id`, if there.
    pub fn find_new(&self, id: &str) -> io::Result<Option<MaildirEntry>> {
        find(&self.root.join("new"), id)
    }

    /// The messages in `cur/` (those marked done, and any a mail client
    /// moved there), sorted by file name: the first [`MAX_LISTED`].
    pub fn cur_messages(&self) -> io::Result<Vec<MaildirEntry>> {
        Ok(list(&self.root.join("cur"), MAX_LISTED)?.0)
    }

    /// The raw bytes of a message.
    pub fn read(&self, entry: &MaildirEntry) -> io::Result<Vec<u8>> {
        fs::read(&entry.path)
    }

    /// A message's bytes and its size, read whole only when it is no larger
    /// than `max_bytes` (by the file's size, looked at first), else only its
    /// first `head_bytes`.
    pub fn read_bounded(
        &self,
        entry: &MaildirEntry,
        max_bytes: usize,
        head_bytes: usize,
    ) -> io::Result<(Vec<u8>, usize)> {
        use std::io::Read;
        let file = File::open(&entry.path)?;
        let size = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
        let want = if size > max_bytes {
            head_bytes.min(max_bytes)
        } else {
            // A file that grew since (it should not in new/) is still read
            // no further than the limit and one byte to tell.
            max_bytes.saturating_add(1)
        };
        let mut raw = Vec::with_capacity(size.min(want));
        file.take(u64::try_from(want).unwrap_or(u64::MAX))
            .read_to_end(&mut raw)?;
        let size = if raw.len() > max_bytes {
            raw.truncate(head_bytes.min(max_bytes));
            size.max(max_bytes.saturating_add(1))
        } else {
            size.max(raw.len())
        };
        Ok((raw, size))
    }

    /// Moves a message from `new/` to `cur/` with the Seen flag
    /// (`new/NAME` becomes `cur/NAME:2,S`). Succeeds when the message is
    /// already in `cur/`, as after a crash between the rename and the
    /// report of it.
    ///
    /// The move is not synced to disk: mark a message done only once what
    /// it caused is durable and a second reading of it is recognised (the
    /// service's recorded Message-ID), so that losing the move costs a
    /// re-read and nothing else.
    pub fn mark_done(&self, entry: &MaildirEntry) -> io::Result<()> {
        let cur = self.root.join("cur");
        let name = entry
            .path
            .file_name()
            .map(OsStr::to_os_string)
            .unwrap_or_else(|| entry.id.clone().into());
        let target = cur.join(seen_name(&name));
        match fs::rename(&entry.path, &target) {
            // No sync of `cur/` (nor `new/`): the service marks a message
            // done only after the transaction that recorded its Message-ID
            // (and queued its replies) committed. Should a crash lose the
            // rename, the message is read again from `new/`, found seen and
            // only marked: a re-read, never a second answer. Syncing here
            // cost a disk flush per mail for nothing.
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if target.exists() || self.in_cur(&entry.id)? {
                    Ok(())
                } else {
                    Err(e)
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The Maildir++ folder poison mail is moved to, beside `new/` and
    /// `cur/`: mail clients show it as the folder "Quarantine".
    pub fn quarantine_dir(&self) -> PathBuf {
        self.root.join(".Quarantine")
    }

    /// Moves the message `id` from `new/` into the quarantine folder's
    /// `cur/` (created when missing), where it is never listed again. A
    /// message already gone is left alone.
    pub fn quarantine(&self, id: &str) -> io::Result<()> {
        let folder = self.quarantine_dir();
        for sub in ["cur", "new", "tmp"] {
            fs::create_dir_all(folder.join(sub))?;
        }
        let Some(entry) = find(&self.root.join("new"), id)? else {
            return Ok(());
        };
        let name = entry
            .path
            .file_name()
            .map(OsStr::to_os_string)
            .unwrap_or_else(|| id.into());
        let cur = folder.join("cur");
        fs::rename(&entry.path, cur.join(name))?;
        sync_dir(&cur)?;
        sync_dir(&self.root.join("new"))
    }

    /// Whether `cur/` holds a message with this unique name, whatever its
    /// flags (a mail client may have changed them).
    fn in_cur(&self, id: &str) -> io::Result<bool> {
        Ok(find(&self.root.join("cur"), id)?.is_some())
    }

    /// Delivers a message as a delivery agent does: written to `tmp/` under
    /// a unique name, flushed to disk, then renamed into `new/`. Returns the
    /// path in `new/`. Used by tests, examples and benchmarks.
    pub fn deliver(&self, raw: &[u8]) -> io::Result<PathBuf> {
        let tmp_dir = self.root.join("tmp");
        // A leftover file from a crashed process could carry the same name
        // only if the clock went back; take the next name then.
        for _ in 0..16 {
            let name = unique_name();
            let tmp = tmp_dir.join(&name);
            let mut file = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(file) => file,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            };
            let written = file.write_all(raw).and_then(|()| file.sync_all());
            drop(file);
            if let Err(e) = written {
                // The half-written file is nobody's message.
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
            let new_dir = self.root.join("new");
            let target = new_dir.join(&name);
            if let Err(e) = fs::rename(&tmp, &target) {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
            sync_dir(&new_dir)?;
            return Ok(target);
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no unused file name in the Maildir's tmp/",
        ))
    }
}

/// `NAME:2,S`, or NAME's own flags with S added when it already has some.
/// A name that is not UTF-8 keeps its bytes.
fn seen_name(name: &OsStr) -> OsString {
    match name.to_str() {
        Some(name) => seen_name_str(name).into(),
        None => {
            let mut name = name.to_os_string();
            name.push(":2,S");
            name
        }
    }
}

fn seen_name_str(name: &str) -> String {
    match name.split_once(':') {
        Some((id, info)) => match info.strip_prefix("2,") {
            Some(flags) => {
                let mut flags: Vec<char> = flags.chars().chain(['S']).collect();
                // The Maildir specification wants flags in ASCII order.
                flags.sort_unstable();
                flags.dedup();
                format!("{id}:2,{}", flags.into_iter().collect::<String>())
            }
            None => format!("{id}:2,S"),
        },
        None => format!("{name}:2,S"),
    }
}

/// The most messages one listing returns: a public address can be sent
/// millions of mails, and the service takes them a batch at a time anyway.
pub const MAX_LISTED: usize = 4096;

/// The message files of `dir` (no dot files, no directories) with the
/// `limit` smallest names, sorted, and whether there were more.
fn list(dir: &Path, limit: usize) -> io::Result<(Vec<MaildirEntry>, bool)> {
    // A max-heap of the smallest names seen: its top is dropped whenever
    // it grows past `limit`, so memory never holds more than that.
    let mut kept = std::collections::BinaryHeap::new();
    let mut more = false;
    for_each_message(dir, |name, path, id| {
        kept.push((name.to_os_string(), path, id));
        if kept.len() > limit {
            kept.pop();
            more = true;
        }
        std::ops::ControlFlow::Continue(())
    })?;
    let entries = kept
        .into_sorted_vec()
        .into_iter()
        .map(|(_, path, id)| MaildirEntry { id, path })
        .collect();
    Ok((entries, more))
}

/// The message of `dir` whose unique name is `id`, read as a stream.
fn find(dir: &Path, id: &str) -> io::Result<Option<MaildirEntry>> {
    let mut found = None;
    for_each_message(dir, |_, path, unique| {
        if unique == id {
            found = Some(MaildirEntry { id: unique, path });
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    })?;
    Ok(found)
}

/// Calls `each` with the name, path and unique name of every message file
/// of `dir` until it breaks.
fn for_each_message(
    dir: &Path,
    mut each: impl FnMut(&OsStr, PathBuf, String) -> std::ops::ControlFlow<()>,
) -> io::Result<()> {
    for item in fs::read_dir(dir)? {
        let item = item?;
        let name = item.file_name();
        let text = name.to_string_lossy();
        // Dot files are not messages (the specification reserves them).
        if text.starts_with('.') {
            continue;
        }
        // A message removed by someone else between listing and this call
        // is simply not there any more.
        match item.file_type() {
            Ok(kind) if kind.is_file() => {}
            Ok(_) => continue,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        }
        let id = text.split(':').next().unwrap_or_default().to_string();
        if each(&name, item.path(), id).is_break() {
            break;
        }
    }
    Ok(())
}

/// Makes a rename in `dir` survive a power cut.
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Deliveries made by this process: with the pid, it tells apart two
/// messages written in the same nanosecond.
static DELIVERIES: AtomicU64 = AtomicU64::new(0);

/// `SECONDS.PpidQcounterNnanos.HOST`: unique across processes (pid) and
/// hosts, and within a process (counter), while sorting in delivery order
/// within one process (the counter is zero-padded).
fn unique_name() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let counter = DELIVERIES.fetch_add(1, Ordering::Relaxed);
    format!(
        "{}.P{}Q{:012}N{:09}.{}",
        now.as_secs(),
        std::process::id(),
        counter,
        now.subsec_nanos(),
        hostname()
    )
}

/// The host name with `/` and `:` escaped as the Maildir specification
/// asks (they would break the path or the flags).
fn hostname() -> &'static str {
    static HOST: OnceLock<String> = OnceLock::new();
    HOST.get_or_init(|| {
        let raw = fs::read_to_string("/proc/sys/kernel/hostname")
            .or_else(|_| fs::read_to_string("/etc/hostname"))
            .ok()
            .or_else(|| std::env::var("HOSTNAME").ok())
            .unwrap_or_default();
        let host: String = raw
            .trim()
            .chars()
            .filter(|c| !c.is_control() && !c.is_whitespace())
            .map(|c| match c {
                '/' => "\\057".to_string(),
                ':' => "\\072".to_string(),
                c => c.to_string(),
            })
            .collect();
        if host.is_empty() {
            "localhost".to_string()
        } else {
            host
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory, removed
    /// when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("orderly-maildir-{}-{name}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_listing_keeps_the_first_names_and_says_more_are_waiting() {
        let scratch = Scratch::new("bounded");
        let maildir = Maildir::open_or_create(&scratch.0).unwrap();
        // Names written out of order: the listing sorts them.
        for n in [7, 3, 9, 1, 5, 8, 2, 6, 4, 0] {
            fs::write(scratch.0.join("new").join(format!("{n:03}.host")), "x").unwrap();
        }
        fs::write(scratch.0.join("new").join(".hidden"), "x").unwrap();
        let (first, more) = maildir.new_messages_upto(3).unwrap();
        let ids: Vec<&str> = first.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["000.host", "001.host", "002.host"]);
        assert!(more);
        let (all, more) = maildir.new_messages_upto(10).unwrap();
        assert_eq!(all.len(), 10);
        assert!(!more, "exactly the limit is not more");
        assert_eq!(maildir.new_messages().unwrap(), all);
        assert_eq!(
            maildir.find_new("007.host").unwrap().map(|e| e.id),
            Some("007.host".to_string())
        );
        assert_eq!(maildir.find_new("nope").unwrap(), None);
    }

    #[test]
    fn seen_name_adds_the_seen_flag() {
        let seen = |name: &str| seen_name(OsStr::new(name)).into_string().unwrap();
        assert_eq!(seen("123.P4Q5.host"), "123.P4Q5.host:2,S");
        assert_eq!(seen("123.host:2,"), "123.host:2,S");
        assert_eq!(seen("123.host:2,F"), "123.host:2,FS");
        assert_eq!(seen("123.host:2,ST"), "123.host:2,ST");
        assert_eq!(seen("123.host:1,x"), "123.host:2,S");
    }

    #[test]
    fn names_sort_in_delivery_order_and_never_repeat() {
        let names: Vec<String> = (0..1000).map(|_| unique_name()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        // Within one second the counter decides; across seconds the time.
        let same_second = names
            .windows(2)
            .filter(|w| w[0].split('.').next() == w[1].split('.').next())
            .all(|w| w[0] < w[1]);
        assert!(same_second);
    }

    #[test]
    fn host_name_has_no_path_or_flag_separator() {
        let host = hostname();
        assert!(!host.is_empty());
        assert!(!host.contains('/') && !host.contains(':'));
    }

    #[test]
    fn open_creates_the_three_directories() {
        let scratch = Scratch::new("open");
        let maildir = Maildir::open_or_create(&scratch.0).unwrap();
        for sub in ["tmp", "new", "cur"] {
            assert!(scratch.0.join(sub).is_dir(), "{sub}");
        }
        assert_eq!(maildir.path(), scratch.0.as_path());
        // Opening again is fine.
        Maildir::open_or_create(&scratch.0).unwrap();
    }

    #[test]
    fn listing_skips_dot_files_and_directories() {
        let scratch = Scratch::new("skip");
        let maildir = Maildir::open_or_create(&scratch.0).unwrap();
        fs::write(scratch.0.join("new/.hidden"), b"x").unwrap();
        fs::create_dir(scratch.0.join("new/subdir")).unwrap();
        fs::write(scratch.0.join("new/2.b.host:2,"), b"b").unwrap();
        fs::write(scratch.0.join("new/1.a.host"), b"a").unwrap();
        let ids: Vec<String> = maildir
            .new_messages()
            .unwrap()
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(ids, ["1.a.host", "2.b.host"]);
    }

    #[test]
    fn mark_done_keeps_existing_flags_and_tolerates_a_client_move() {
        let scratch = Scratch::new("flags");
        let maildir = Maildir::open_or_create(&scratch.0).unwrap();
        fs::write(scratch.0.join("new/7.x.host:2,F"), b"m").unwrap();
        let entry = maildir.new_messages().unwrap().remove(0);
        maildir.mark_done(&entry).unwrap();
        assert!(scratch.0.join("cur/7.x.host:2,FS").is_file());
        // A mail client then changes the flags: still done.
        fs::rename(
            scratch.0.join("cur/7.x.host:2,FS"),
            scratch.0.join("cur/7.x.host:2,FRS"),
        )
        .unwrap();
        maildir.mark_done(&entry).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_keeps_its_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let scratch = Scratch::new("bytes");
        let maildir = Maildir::open_or_create(&scratch.0).unwrap();
        let name = OsStr::from_bytes(b"9.\xff.host");
        fs::write(scratch.0.join("new").join(name), b"m").unwrap();
        let entry = maildir.new_messages().unwrap().remove(0);
        maildir.mark_done(&entry).unwrap();
        assert!(scratch
            .0
            .join("cur")
            .join(OsStr::from_bytes(b"9.\xff.host:2,S"))
            .is_file());
        maildir.mark_done(&entry).unwrap();
    }

    #[test]
    fn a_listing_reads_large_mail_only_as_far_as_its_head_and_holds_a_bounded_sum() {
        use crate::mail::{Mailbox, ReadLimit};
        let scratch = Scratch::new("budget");
        let mut maildir = Maildir::open_or_create(&scratch.0).unwrap();
        for _ in 0..3 {
            maildir.deliver(b"0123456789").unwrap();
        }
        fs::write(scratch.0.join("new/zzz.big"), vec![b'x'; 100]).unwrap();
        let limit = ReadLimit {
            max_bytes: 50,
            head_bytes: 5,
            listing_bytes: 25,
        };
        let first = maildir.waiting_within(limit).unwrap();
        assert_eq!(first.len(), 2);
        assert!(maildir.more_waiting);
        for w in &first {
            Mailbox::mark_done(&mut maildir, &w.key).unwrap();
        }
        let rest = maildir.waiting_within(limit).unwrap();
        assert!(!maildir.more_waiting);
        assert_eq!(rest.len(), 2);
        assert_eq!((rest[0].raw.len(), rest[0].size), (10, 10));
        assert!(!rest[0].is_head_only());
        assert_eq!((rest[1].raw.as_slice(), rest[1].size), (&b"xxxxx"[..], 100));
        assert!(rest[1].is_head_only());
    }

    #[test]
    fn mark_done_of_a_vanished_message_fails() {
        let scratch = Scratch::new("vanished");
        let maildir = Maildir::open_or_create(&scratch.0).unwrap();
        let path = maildir.deliver(b"x").unwrap();
        let entry = maildir.new_messages().unwrap().remove(0);
        fs::remove_file(path).unwrap();
        let err = maildir.mark_done(&entry).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
    }
}
