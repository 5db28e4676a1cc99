//! A service on one machine, for the tests of tests/service/: a directory
//! of its own ([`scratch_dir`]) with a real SQLite file, a real Maildir to
//! deliver into and the `.eml` files the file transport writes, read back
//! as [`Out`]. [`Site`] runs the service in the test's process; a test that
//! runs the binary writes its configuration with [`config_file`] and reads
//! what it sent with [`new_sent`] and [`read_out`].
//!
//! What differs from one test file to another stays there, as methods of
//! its own on [`Site`]: how its mails are written (their subject and
//! Message-ID, which a game's draws of chance mix in), at what time they
//! are processed, and the games they start.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use chrono::TimeZone;
use orderly::config::Config;
use orderly::mail::intake;
use orderly::mail::maildir::Maildir;
use orderly::service::Service;

/// The service's own address in every site.
pub const ORDERLY: &str = "orderly@example.org";

/// An empty directory of its own for one test: `<tmp>/<prefix>-<pid>-<name>`.
pub fn scratch_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `dir/orderly.toml` for the binary: the service at [`ORDERLY`]
/// with `secret` and the lines `service` in `[service]`, its store, Maildir
/// and sent mail in `dir`, then the tables `more`. Returns its path.
pub fn config_file(dir: &Path, secret: &str, service: &str, more: &str) -> PathBuf {
    let path = dir.join("orderly.toml");
    std::fs::write(
        &path,
        format!(
            "[service]\naddress = \"{ORDERLY}\"\nsecret = \"{secret}\"\n{service}\
             [store]\npath = \"{d}/orderly.db\"\n[intake]\nmaildir = \"{d}/inbox\"\n\
             [outgoing]\ndir = \"{d}/sent\"\n{more}",
            d = dir.display()
        ),
    )
    .expect("the config is written");
    path
}

/// The files in the folder `sent` not in `seen` (then added to it), in
/// name order, less the file transport's hidden files being written.
pub fn new_sent(sent: &Path, seen: &mut HashSet<PathBuf>) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(sent)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    paths.sort();
    paths
        .into_iter()
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .filter(|p| seen.insert(p.clone()))
        .collect()
}

/// One mail the service wrote.
#[derive(Clone)]
pub struct Out {
    pub to: String,
    pub reply_to: String,
    pub subject: String,
    pub message_id: String,
    pub in_reply_to: Vec<String>,
    /// The text as a player reads it.
    pub body: String,
    /// The whole mail as written.
    pub raw: String,
}

/// All but the raw mail, which repeats the body.
impl fmt::Debug for Out {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Out")
            .field("to", &self.to)
            .field("reply_to", &self.reply_to)
            .field("subject", &self.subject)
            .field("message_id", &self.message_id)
            .field("in_reply_to", &self.in_reply_to)
            .field("body", &self.body)
            .finish_non_exhaustive()
    }
}

/// The mail the file transport wrote at `path`.
pub fn read_out(path: &Path) -> Out {
    let raw = std::fs::read(path).unwrap();
    let m = intake::parse(&raw).unwrap();
    let parsed = mailparse::parse_mail(&raw).unwrap();
    use mailparse::MailHeaderMap;
    Out {
        to: m.to.first().cloned().unwrap_or_default(),
        reply_to: parsed
            .headers
            .get_first_value("Reply-To")
            .unwrap_or_default(),
        subject: m.subject.clone(),
        message_id: m.message_id.clone().unwrap_or_default(),
        in_reply_to: m.in_reply_to.clone(),
        body: m.full_text.clone(),
        raw: String::from_utf8_lossy(&raw).into_owned(),
    }
}

/// The mail of `outs` to `who`; fails the test if there is none.
pub fn to(outs: &[Out], who: &str) -> Out {
    outs.iter()
        .find(|o| o.to == who)
        .cloned()
        .unwrap_or_else(|| panic!("no mail to {who} in {outs:#?}"))
}

/// The text with every run of blanks and line breaks one space, so that a
/// sentence is found wherever the mail's wrapping broke it.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A plain-text mail as a client writes it, lines ending CRLF, dated `n`
/// seconds after 2026-11-21 10:00 UTC (each mail its own Date).
pub fn plain_mail(
    from: &str,
    to: &str,
    subject: &str,
    message_id: &str,
    n: u32,
    body: &str,
) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n\
         Date: {date}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
        date = (chrono::Utc
            .with_ymd_and_hms(2026, 11, 21, 10, 0, 0)
            .unwrap()
            + chrono::Duration::seconds(i64::from(n)))
        .to_rfc2822(),
        body = body.replace('\n', "\r\n"),
    )
}

/// A service in its own temporary directory, fed through its Maildir or
/// directly, its mails read back from its sent folder.
pub struct Site {
    pub dir: PathBuf,
    pub config: Config,
    pub service: Service,
    pub inbox: Maildir,
    /// The sent mails already returned.
    pub seen: HashSet<PathBuf>,
    /// The mails the test wrote so far: each numbers its own.
    pub counter: u32,
}

impl Site {
    /// A site in [`scratch_dir`]`(prefix, name)`: the service at
    /// [`ORDERLY`], its secret, store, Maildir and sent mail in the
    /// directory, the configuration then changed by `adjust`.
    pub fn open(prefix: &str, name: &str, adjust: impl FnOnce(&mut Config)) -> Site {
        let dir = scratch_dir(prefix, name);
        let mut config = Config::default();
        config.service.address = ORDERLY.into();
        config.service.secret_file = dir.join("secret");
        config.store.path = dir.join("orderly.db");
        config.intake.maildir = dir.join("inbox");
        config.outgoing.dir = dir.join("sent");
        adjust(&mut config);
        let service = Service::open(config.clone()).unwrap();
        let inbox = Maildir::open_or_create(dir.join("inbox")).unwrap();
        Site {
            dir,
            config,
            service,
            inbox,
            seen: HashSet::new(),
            counter: 0,
        }
    }

    /// Replaces the seed the service committed to for game 1 with a fixed
    /// one, in the real SQLite file, so that every run draws the same dice,
    /// cards and coins (the service itself only ever takes a fresh seed).
    /// Fixed before the game's first draw, with mails whose Message-IDs
    /// are the same every run (the draws mix them in), the game is the
    /// same every run.
    pub fn fix_seed(&mut self, hex: &str) {
        let seed = orderly::games::fair::Seed::from_hex(hex).unwrap();
        let db = rusqlite::Connection::open(self.dir.join("orderly.db")).unwrap();
        let changed = db
            .execute(
                "UPDATE fair_seeds SET seed = ?1, commitment = ?2 WHERE game_id = 1",
                rusqlite::params![seed.to_hex(), seed.commitment().to_string()],
            )
            .unwrap();
        assert_eq!(changed, 1, "game 1 has a seed");
    }

    /// A site as [`Site::open`] makes it, sending plain text alone (the
    /// tests read bodies, not HTML), its clock starting at `start`.
    pub fn plain(
        prefix: &str,
        name: &str,
        start: chrono::DateTime<chrono::Utc>,
        adjust: impl FnOnce(&mut Config),
    ) -> Site {
        let mut site = Site::open(prefix, name, |config| {
            config.outgoing.html = false;
            adjust(config);
        });
        site.service
            .set_clock(orderly::clock::Clock::starting_at(start));
        site
    }

    /// A plain-text mail from `from` to `to`, numbered by the site's
    /// counter (its own Message-ID and Date), dropped into the Maildir and
    /// polled; the new mails.
    pub fn send(&mut self, from: &str, to: &str, body: &str) -> Vec<Out> {
        self.counter += 1;
        let n = self.counter;
        let raw = plain_mail(
            from,
            to,
            &format!("test {n}"),
            &format!("<c{n}@test>"),
            n,
            body,
        );
        self.raw(raw.as_bytes())
    }

    /// Game `id` as stored.
    pub fn game_row(&mut self, id: i64) -> orderly::store::GameRow {
        let tx = self.service.store().read().unwrap();
        tx.game(id).unwrap().unwrap()
    }

    /// Game `id`'s record entries as stored.
    pub fn entry_rows(&mut self, id: i64) -> Vec<orderly::store::EntryRow> {
        let tx = self.service.store().read().unwrap();
        tx.entries(id).unwrap()
    }

    /// Closes and opens the service again on the same files.
    pub fn restart(&mut self) {
        self.service = Service::open(self.config.clone()).unwrap();
    }

    /// Drops a raw mail into the Maildir and polls; returns the new mails.
    pub fn raw(&mut self, raw: &[u8]) -> Vec<Out> {
        self.inbox.deliver(raw).unwrap();
        self.service.poll_once().unwrap();
        self.collect()
    }

    /// The mails written since the last call.
    pub fn collect(&mut self) -> Vec<Out> {
        new_sent(&self.dir.join("sent"), &mut self.seen)
            .iter()
            .map(|p| read_out(p))
            .collect()
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
