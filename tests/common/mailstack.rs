//! Real mail servers for end-to-end tests: a private Dovecot (IMAP, IMAPS,
//! LMTP) and Postfix (SMTP, submission) on loopback, started and stopped
//! through `scripts/mailstack` (see there for what is configured).
//!
//! ```ignore
//! #[path = "../common/mod.rs"]
//! mod common;
//! use common::mailstack::MailStack;
//! let Some(stack) = MailStack::start() else { return }; // skipped: no servers
//! stack.send("ann@example.test", "bob@example.test", raw);
//! let mail = stack.wait_for("bob", Duration::from_secs(10), |m| ...);
//! ```
//!
//! Users: orderly, ann, bob, carol, eve, mod; password: the user name + "-pw"
//! ([`MailStack::password`]). Mail to `orderly+anything@` and
//! `bounces+anything@example.test` lands in orderly's INBOX. Mail never leaves
//! the machine. Never assume an order of arrival, nor instant delivery: poll.
//!
//! Without the servers (or without root), [`MailStack::start`] returns
//! `None` after a loud SKIPPED line, unless `ORDERLY_E2E_REQUIRED` is set
//! (scripts/test sets it): then it panics, saying what to install.

use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use futures::TryStreamExt;
use lettre::address::{Address, Envelope};
use lettre::{SmtpTransport, Transport};

/// What to install when the servers are missing (Debian).
pub const INSTALL: &str =
    "as root: apt-get update && apt-get install -y dovecot-imapd dovecot-lmtpd postfix openssl";

/// One running stack; stopped (and its directory removed) on drop. After a
/// panic the directory is kept for its logs (`dovecot.log`, `postfix.log`).
pub struct MailStack {
    pub dir: PathBuf,
    /// IMAP, plain text with STARTTLS offered.
    pub imap_port: u16,
    /// IMAP over implicit TLS.
    pub imaps_port: u16,
    /// SMTP, plain text with STARTTLS offered, no AUTH; relays for loopback.
    pub smtp_port: u16,
    /// Submission: STARTTLS required, then AUTH PLAIN/LOGIN (Dovecot SASL).
    pub submission_port: Option<u16>,
    /// The throwaway CA that signed the servers' certificate (for 127.0.0.1
    /// and localhost).
    pub ca_file: PathBuf,
    /// `example.test`
    pub domain: String,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mailstack")
}

/// Why the stack cannot run here, if it cannot.
fn unavailable() -> Option<String> {
    let mut missing = Vec::new();
    for path in [
        "/usr/sbin/dovecot",
        "/usr/lib/dovecot/imap",
        "/usr/lib/dovecot/lmtp",
        "/usr/sbin/postfix",
    ] {
        if !Path::new(path).exists() {
            missing.push(path);
        }
    }
    let openssl = Command::new("openssl")
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !openssl {
        missing.push("openssl");
    }
    if !missing.is_empty() {
        return Some(format!("missing {}; {INSTALL}", missing.join(", ")));
    }
    // /proc/self belongs to the effective user.
    match fs::metadata("/proc/self").map(|m| m.uid()) {
        Ok(0) => None,
        Ok(uid) => Some(format!(
            "Postfix starts only as root, and this runs as uid {uid}"
        )),
        Err(e) => Some(format!("cannot tell the user id: {e}")),
    }
}

fn required() -> bool {
    std::env::var("ORDERLY_E2E_REQUIRED").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Past the test harness's output capture, so that it is seen.
fn loud(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn parse_env(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().trim_matches('"').to_string()))
        .collect()
}

impl MailStack {
    /// Starts a stack in a fresh short directory under /tmp. `None` (after a
    /// SKIPPED line) when the servers are not installed and
    /// `ORDERLY_E2E_REQUIRED` is not set; panics when they are installed but
    /// do not start.
    pub fn start() -> Option<MailStack> {
        if let Some(why) = unavailable() {
            if required() {
                panic!("ORDERLY_E2E_REQUIRED is set but the mail servers cannot run: {why}");
            }
            loud(&format!(
                "SKIPPED: end-to-end mail test without real servers: {why}"
            ));
            return None;
        }
        let dir = loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = PathBuf::from(format!("/tmp/om-{}-{n}", std::process::id()));
            match fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create {}: {e}", dir.display()),
            }
        };
        let started = Instant::now();
        run_script("start", &dir);
        let text = fs::read_to_string(dir.join("env"))
            .unwrap_or_else(|e| panic!("no {}/env after start: {e}", dir.display()));
        let vars = parse_env(&text);
        let get = |key: &str| {
            vars.iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("{}/env has no {key}", dir.display()))
        };
        let port = |key: &str| {
            get(key)
                .parse::<u16>()
                .unwrap_or_else(|e| panic!("{key} in {}/env: {e}", dir.display()))
        };
        let stack = MailStack {
            imap_port: port("IMAP_PORT"),
            imaps_port: port("IMAPS_PORT"),
            smtp_port: port("SMTP_PORT"),
            submission_port: vars
                .iter()
                .find(|(k, _)| k == "SUBMISSION_PORT")
                .and_then(|(_, v)| v.parse().ok()),
            ca_file: PathBuf::from(get("CA_FILE")),
            domain: get("DOMAIN"),
            dir,
        };
        eprintln!(
            "mail stack in {} started in {} ms",
            stack.dir.display(),
            started.elapsed().as_millis()
        );
        Some(stack)
    }

    /// The password of a test user: its name + "-pw".
    pub fn password(user: &str) -> String {
        format!("{user}-pw")
    }

    /// `user@example.test`
    pub fn address(&self, user: &str) -> String {
        format!("{user}@{}", self.domain)
    }

    /// Stops Dovecot and starts it again on the same ports (mail already
    /// delivered stays; Postfix retries deliveries that failed meanwhile
    /// within a few seconds).
    pub fn restart_dovecot(&self) {
        run_script("restart-dovecot", &self.dir);
    }

    /// Stops Dovecot (IMAP refuses connections, Postfix queues deliveries).
    pub fn stop_dovecot(&self) {
        run_script("stop-dovecot", &self.dir);
    }

    pub fn start_dovecot(&self) {
        run_script("start-dovecot", &self.dir);
    }

    /// Stops Postfix: SMTP and submission refuse connections until
    /// [`MailStack::start_postfix`]; queued mail is kept.
    pub fn stop_postfix(&self) {
        run_script("stop-postfix", &self.dir);
    }

    pub fn start_postfix(&self) {
        run_script("start-postfix", &self.dir);
    }

    /// Sends `raw_message` (a whole RFC 5322 message, CRLF or LF) over plain
    /// SMTP with this envelope; panics if it is not accepted.
    pub fn send(&self, from: &str, to: &str, raw_message: &[u8]) {
        if let Err(e) = self.try_send(from, to, raw_message) {
            panic!("SMTP {from} -> {to} on port {}: {e}", self.smtp_port);
        }
    }

    /// As [`MailStack::send`], with the error (e.g. while Postfix is down).
    pub fn try_send(&self, from: &str, to: &str, raw_message: &[u8]) -> Result<(), String> {
        let from: Address = from.parse().map_err(|e| format!("sender {from}: {e}"))?;
        let to: Address = to.parse().map_err(|e| format!("recipient {to}: {e}"))?;
        let envelope = Envelope::new(Some(from), vec![to]).map_err(|e| e.to_string())?;
        SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.smtp_port)
            .timeout(Some(Duration::from_secs(15)))
            .build()
            .send_raw(&envelope, raw_message)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Every message in `user`'s INBOX, read over plain IMAP on loopback
    /// without changing flags (EXAMINE, BODY.PEEK[]), in mailbox order
    /// (which is not send order). Panics when IMAP fails.
    pub fn fetch_all(&self, user: &str) -> Vec<Vec<u8>> {
        self.try_fetch_all(user)
            .unwrap_or_else(|e| panic!("IMAP {user} on port {}: {e}", self.imap_port))
    }

    /// As [`MailStack::fetch_all`], with the error.
    pub fn try_fetch_all(&self, user: &str) -> Result<Vec<Vec<u8>>, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let port = self.imap_port;
        runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(15), fetch_inbox(port, user))
                .await
                .map_err(|_| "timed out after 15 s".to_string())?
        })
    }

    /// Polls `user`'s INBOX until a message satisfies `pred` or `timeout`
    /// passes; the first such message.
    pub fn wait_for(
        &self,
        user: &str,
        timeout: Duration,
        pred: impl Fn(&[u8]) -> bool,
    ) -> Option<Vec<u8>> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(found) = self.fetch_all(user).into_iter().find(|m| pred(m)) {
                return Some(found);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

async fn fetch_inbox(port: u16, user: &str) -> Result<Vec<Vec<u8>>, String> {
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let mut client = async_imap::Client::new(tcp);
    client
        .read_response()
        .await
        .map_err(|e| format!("greeting: {e}"))?
        .ok_or("closed before its greeting")?;
    let mut session = client
        .login(user, MailStack::password(user))
        .await
        .map_err(|(e, _)| format!("LOGIN {user}: {e}"))?;
    let mailbox = session
        .examine("INBOX")
        .await
        .map_err(|e| format!("EXAMINE INBOX: {e}"))?;
    let mut messages = Vec::new();
    if mailbox.exists > 0 {
        let fetched: Vec<_> = session
            .fetch("1:*", "BODY.PEEK[]")
            .await
            .map_err(|e| format!("FETCH: {e}"))?
            .try_collect()
            .await
            .map_err(|e| format!("FETCH: {e}"))?;
        messages.extend(fetched.iter().filter_map(|f| f.body().map(<[u8]>::to_vec)));
    }
    session.logout().await.map_err(|e| format!("LOGOUT: {e}"))?;
    Ok(messages)
}

/// Runs `scripts/mailstack VERB DIR`, its output in DIR/mailstack.log;
/// panics with that output when it fails.
fn run_script(verb: &str, dir: &Path) {
    let log_path = dir.join("mailstack.log");
    let log = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", log_path.display()));
    let err = log
        .try_clone()
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", log_path.display()));
    // The servers' own output goes to their logs: nothing holds our pipes.
    let status = Command::new("bash")
        .arg(script())
        .arg(verb)
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        .status()
        .unwrap_or_else(|e| panic!("cannot run scripts/mailstack: {e}"));
    if !status.success() {
        let out = fs::read_to_string(&log_path).unwrap_or_default();
        panic!(
            "scripts/mailstack {verb} {} failed ({status}):\n{out}",
            dir.display()
        );
    }
}

impl Drop for MailStack {
    fn drop(&mut self) {
        let status = Command::new("bash")
            .arg(script())
            .arg("stop")
            .arg(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let stopped = status.is_ok_and(|s| s.success());
        if std::thread::panicking() || !stopped {
            loud(&format!(
                "mail stack logs kept in {} (stopped: {stopped})",
                self.dir.display()
            ));
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}
