//! Incoming mail in an IMAP folder: the `[intake.imap]` section.
//!
//! The service is synchronous; [`ImapMailbox`] owns a current-thread tokio
//! runtime and blocks on its own async IMAP session (async-imap over
//! rustls). What it does, as the [`Mailbox`] trait asks:
//!
//! - [`Mailbox::waiting`] selects the folder, searches the unseen messages
//!   (every message not deleted when a processed folder is configured),
//!   asks their sizes (`RFC822.SIZE`) and fetches them with `BODY.PEEK[]`,
//!   which leaves `\Seen` alone: one larger than the limit only as far as
//!   its headers (`BODY.PEEK[]<0.n>`). Each key
//!   is `v<UIDVALIDITY>:<UID>`, so that a folder recreated under the same
//!   name never has the wrong message marked.
//! - [`Mailbox::mark_done`] sets `\Seen`, or moves the message into the
//!   processed folder (`MOVE`, else `COPY`, `\Deleted` and `EXPUNGE`). A
//!   message already gone is done.
//! - [`Mailbox::wait`] stays in `IDLE` until the server reports anything,
//!   the timeout passes or `stop` is set (checked every 50 ms); without
//!   IDLE it sleeps.
//!
//! A lost connection is reopened at once; when that fails, the next
//! attempts wait 1 s, 2 s, 4 s ... up to `reconnect_max_secs`, each one
//! logged. In between, `waiting` lists nothing and `wait` sleeps. A
//! message that was not marked done is simply listed again later: nothing
//! is lost, and the service recognises a repeat by its Message-ID.

use std::fmt;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use async_imap::imap_proto::{AttributeValue, MailboxDatum, Response, ResponseCode, Status};
use async_imap::{Client, Session};
use rustls::pki_types::ServerName;
use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use super::trust::{is_loopback, pem_certificates, read_secret_file, system_roots};
use super::{sleep_unless_stopped, Mailbox, MailboxError, ReadLimit, Waiting};

/// How long any single server answer may take before the connection is
/// taken for dead.
const IO_TIMEOUT: Duration = Duration::from_secs(120);
/// How often `wait` looks at its stop flag while in IDLE.
const STOP_POLL: Duration = Duration::from_millis(50);
/// RFC 2177: leave IDLE at least every 29 minutes.
const MAX_IDLE: Duration = Duration::from_secs(25 * 60);
/// Messages listed by one `waiting` call; the rest come at the next one.
const MAX_LIST: usize = 200;
/// Messages fetched by one `UID FETCH`.
const FETCH_CHUNK: usize = 50;

/// How the connection to the IMAP server is protected.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// No encryption: allowed only when `host` is a loopback address
    /// (`localhost`, 127.0.0.0/8, `::1`).
    Plain,
    /// A plain connection upgraded with `STARTTLS` before login
    /// (port 143 by default).
    Starttls,
    /// TLS from the first byte (port 993 by default).
    #[default]
    Tls,
}

impl Security {
    /// The port used when the configuration names none.
    pub fn default_port(self) -> u16 {
        match self {
            Security::Plain | Security::Starttls => 143,
            Security::Tls => 993,
        }
    }
}

/// `[intake.imap]`: read incoming mail from an IMAP folder instead of the
/// local Maildir.
///
/// ```toml
/// [intake.imap]
/// host = "imap.example.org"
/// # port = 993                  # default: 993 for tls, 143 otherwise
/// security = "tls"              # "tls" | "starttls" | "plain" (loopback only)
/// username = "orderly"
/// password_file = "var/imap-password"   # or: password = "..."
/// folder = "INBOX"
/// # processed_folder = "Processed"      # default: mark \Seen and leave it
/// # quarantine_folder = "Quarantine"    # where poison mail is set aside
/// # ca_file = "/etc/orderly/ca.pem"     # an extra CA besides the system's
/// idle = true
/// reconnect_max_secs = 300
/// ```
#[derive(Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ImapConfig {
    /// The server's host name or address; with TLS, the name its
    /// certificate must carry.
    pub host: String,
    /// The server's port; without it, 993 for `tls` and 143 otherwise.
    #[serde(default)]
    pub port: Option<u16>,
    /// `tls` (the default), `starttls`, or `plain` (loopback hosts only).
    #[serde(default)]
    pub security: Security,
    /// The login name.
    pub username: String,
    /// The password. Prefer `password_file`; exactly one of the two.
    #[serde(default)]
    pub password: Option<String>,
    /// A file holding the password (a trailing newline is ignored).
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// The folder incoming mail arrives in.
    #[serde(default = "default_folder")]
    pub folder: String,
    /// Where processed mail is moved (created when missing). Without it,
    /// processed mail gets the `\Seen` flag and stays in `folder`, and only
    /// unseen mail is read.
    #[serde(default)]
    pub processed_folder: Option<String>,
    /// Where a message that could not be processed however often it was
    /// tried is moved (created when needed).
    #[serde(default = "default_quarantine_folder")]
    pub quarantine_folder: String,
    /// A PEM file of CA certificates trusted besides the system's.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// Whether to wait for new mail with IMAP IDLE (when the server offers
    /// it) rather than polling.
    #[serde(default = "default_idle")]
    pub idle: bool,
    /// The longest wait, in seconds, between two reconnection attempts
    /// (the wait starts at 1 s and doubles).
    #[serde(default = "default_reconnect_max_secs")]
    pub reconnect_max_secs: u64,
}

fn default_folder() -> String {
    "INBOX".into()
}

fn default_quarantine_folder() -> String {
    "Quarantine".into()
}

fn default_idle() -> bool {
    true
}

fn default_reconnect_max_secs() -> u64 {
    300
}

impl fmt::Debug for ImapConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "(hidden)"))
            .field("password_file", &self.password_file)
            .field("folder", &self.folder)
            .field("processed_folder", &self.processed_folder)
            .field("ca_file", &self.ca_file)
            .field("idle", &self.idle)
            .field("reconnect_max_secs", &self.reconnect_max_secs)
            .finish()
    }
}

/// Why an `[intake.imap]` section cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ImapConfigError {
    /// `host` is empty.
    #[error("[intake.imap] host is empty")]
    NoHost,
    /// `security = "plain"` with a host that is not loopback.
    #[error(
        "[intake.imap] security = \"plain\" would send the password in clear text to {0}: \
         it is allowed only for localhost, 127.0.0.0/8 and ::1 (use \"tls\" or \"starttls\")"
    )]
    PlainNotLoopback(String),
    /// `port = 0`.
    #[error("[intake.imap] port 0 is not a port")]
    ZeroPort,
    /// Neither `password` nor `password_file`.
    #[error("[intake.imap] needs password or password_file")]
    NoPassword,
    /// Both `password` and `password_file`.
    #[error("[intake.imap] has both password and password_file: keep one")]
    TwoPasswords,
    /// The password file could not be read.
    #[error("[intake.imap] cannot read password_file {path}: {source}")]
    PasswordFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A name (user, password, folder) is empty or holds a character IMAP
    /// cannot carry in a quoted string.
    #[error("[intake.imap] {0} is empty or holds a control character")]
    BadText(&'static str),
    /// `processed_folder` is `folder`.
    #[error("[intake.imap] processed_folder must differ from folder")]
    SameFolder,
    /// `reconnect_max_secs = 0`.
    #[error("[intake.imap] reconnect_max_secs must be at least 1")]
    ZeroReconnect,
    /// The CA file could not be read or holds no certificate.
    #[error("[intake.imap] ca_file {path}: {message}")]
    CaFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// No CA certificate to check the server's against.
    #[error("[intake.imap] no trusted CA certificates: the system store is empty and no ca_file")]
    NoRoots,
    /// rustls refused the TLS setup.
    #[error("[intake.imap] TLS setup: {0}")]
    Tls(#[from] rustls::Error),
}

impl From<ImapConfigError> for MailboxError {
    fn from(e: ImapConfigError) -> MailboxError {
        MailboxError::Server(e.to_string())
    }
}

impl ImapConfig {
    /// The port to connect to: `port`, or the default of `security`.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(self.security.default_port())
    }

    /// Checks the section without touching the network or any file.
    pub fn validate(&self) -> Result<(), ImapConfigError> {
        if self.host.trim().is_empty() {
            return Err(ImapConfigError::NoHost);
        }
        if self.port == Some(0) {
            return Err(ImapConfigError::ZeroPort);
        }
        if self.security == Security::Plain && !is_loopback(&self.host) {
            return Err(ImapConfigError::PlainNotLoopback(self.host.clone()));
        }
        match (&self.password, &self.password_file) {
            (None, None) => return Err(ImapConfigError::NoPassword),
            (Some(_), Some(_)) => return Err(ImapConfigError::TwoPasswords),
            (Some(p), None) if !quotable(p) => return Err(ImapConfigError::BadText("password")),
            _ => {}
        }
        if !quotable(&self.username) {
            return Err(ImapConfigError::BadText("username"));
        }
        if !quotable(&self.folder) {
            return Err(ImapConfigError::BadText("folder"));
        }
        if let Some(processed) = &self.processed_folder {
            if !quotable(processed) {
                return Err(ImapConfigError::BadText("processed_folder"));
            }
            if same_folder(processed, &self.folder) {
                return Err(ImapConfigError::SameFolder);
            }
        }
        if self.reconnect_max_secs == 0 {
            return Err(ImapConfigError::ZeroReconnect);
        }
        Ok(())
    }

    /// The password, from `password` or read from `password_file`.
    pub fn read_password(&self) -> Result<String, ImapConfigError> {
        let password = match (&self.password, &self.password_file) {
            (Some(p), None) => p.clone(),
            (None, Some(path)) => {
                read_secret_file(path).map_err(|source| ImapConfigError::PasswordFile {
                    path: path.clone(),
                    source,
                })?
            }
            (None, None) => return Err(ImapConfigError::NoPassword),
            (Some(_), Some(_)) => return Err(ImapConfigError::TwoPasswords),
        };
        if !quotable(&password) {
            return Err(ImapConfigError::BadText("password"));
        }
        Ok(password)
    }
}

/// Non-empty and free of control characters, so it can be sent as an
/// IMAP quoted string.
fn quotable(text: &str) -> bool {
    !text.is_empty() && !text.chars().any(char::is_control)
}

/// INBOX is case-insensitive in IMAP; other names are not.
fn same_folder(a: &str, b: &str) -> bool {
    a == b || (a.eq_ignore_ascii_case("INBOX") && b.eq_ignore_ascii_case("INBOX"))
}

/// `text` as an IMAP quoted string.
fn quote(text: &str) -> String {
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

/// The key of a message: `v<UIDVALIDITY>:<UID>`.
pub fn message_key(uid_validity: u32, uid: u32) -> String {
    format!("v{uid_validity}:{uid}")
}

/// The UIDVALIDITY and UID in a key made by [`message_key`].
pub fn parse_key(key: &str) -> Option<(u32, u32)> {
    let (validity, uid) = key.strip_prefix('v')?.split_once(':')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(validity) || !digits(uid) {
        return None;
    }
    let uid: u32 = uid.parse().ok()?;
    (uid != 0).then_some(())?;
    Some((validity.parse().ok()?, uid))
}

/// The wait before reconnection attempt number `failures + 1`: 1 s
/// doubling, at most `max_secs`.
fn backoff(failures: u32, max_secs: u64) -> Duration {
    Duration::from_secs(1u64.checked_shl(failures).unwrap_or(u64::MAX).min(max_secs))
}

/// What went wrong talking to the server.
#[derive(Debug, thiserror::Error)]
enum Failure {
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
async fn timed<T, E: Into<Failure>>(
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

/// The byte stream under the IMAP session: plain TCP or TLS over TCP.
#[derive(Debug)]
enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// The validated configuration with what it names read in.
struct Settings {
    config: ImapConfig,
    password: String,
    /// For `tls` and `starttls`.
    tls: Option<Arc<rustls::ClientConfig>>,
}

impl Settings {
    fn new(config: ImapConfig) -> Result<Settings, ImapConfigError> {
        config.validate()?;
        let password = config.read_password()?;
        let tls = match config.security {
            Security::Plain => None,
            Security::Starttls | Security::Tls => Some(tls_config(config.ca_file.as_deref())?.0),
        };
        Ok(Settings {
            config,
            password,
            tls,
        })
    }

    fn server(&self) -> String {
        format!("{}:{}", self.config.host, self.config.port())
    }
}

/// A rustls client configuration trusting the system's CA certificates and
/// those in `ca_file`; with a description of what it trusts.
fn tls_config(
    ca_file: Option<&Path>,
) -> Result<(Arc<rustls::ClientConfig>, String), ImapConfigError> {
    let mut roots = rustls::RootCertStore::empty();
    let (system, _unusable) = roots.add_parsable_certificates(system_roots());
    let mut described = format!("{system} system CA certificates");
    if let Some(path) = ca_file {
        let ca_error = |message: String| ImapConfigError::CaFile {
            path: path.to_path_buf(),
            message,
        };
        let certs = pem_certificates(path).map_err(ca_error)?;
        let count = certs.len();
        for cert in certs {
            roots.add(cert).map_err(|e| ca_error(e.to_string()))?;
        }
        described.push_str(&format!(" and {count} from {}", path.display()));
    }
    if roots.is_empty() {
        return Err(ImapConfigError::NoRoots);
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok((Arc::new(config), described))
}

/// An open, logged-in session with the folder selected.
struct Conn {
    session: Session<Stream>,
    /// The server offers IDLE.
    idle: bool,
    /// The server offers MOVE.
    moves: bool,
    /// The server offers UID EXPUNGE.
    uidplus: bool,
    /// The selected folder's UIDVALIDITY.
    uid_validity: u32,
    /// The selected folder's message count.
    exists: u32,
    /// The server reported new mail since the last SELECT.
    new_mail: bool,
}

/// Opens the TCP connection.
async fn open_tcp(s: &Settings) -> Result<TcpStream, Failure> {
    let config = &s.config;
    let tcp = timed(
        "connect",
        TcpStream::connect((config.host.trim(), config.port())),
    )
    .await?;
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// The TLS handshake over `tcp`; with the negotiated protocol version.
async fn handshake(s: &Settings, tcp: TcpStream) -> Result<(Stream, String), Failure> {
    let Some(tls) = &s.tls else {
        return Ok((Stream::Plain(tcp), "plain text (loopback)".into()));
    };
    let host = s.config.host.trim();
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    let name = ServerName::try_from(bare.to_string())
        .map_err(|e| Failure::Lost(format!("{host} is not a TLS server name: {e}")))?;
    let connector = tokio_rustls::TlsConnector::from(tls.clone());
    let stream = timed("TLS", connector.connect(name, tcp)).await?;
    let version = stream.get_ref().1.protocol_version().map_or_else(
        || "TLS".to_string(),
        |v| format!("{v:?}").replace("TLSv1_", "TLS 1."),
    );
    let how = format!("{version}, certificate verified for {bare}");
    Ok((Stream::Tls(Box::new(stream)), how))
}

/// Reads the server's greeting.
async fn greeting<T>(client: &mut Client<T>) -> Result<(), Failure>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + fmt::Debug + Send,
{
    let Some(greeting) = timed("greeting", client.read_response()).await? else {
        return Err(Failure::Lost("closed before its greeting".into()));
    };
    match greeting.parsed() {
        Response::Data {
            status: Status::Ok, ..
        } => Ok(()),
        Response::Data {
            status: Status::Bye,
            outcome,
        } => Err(Failure::Lost(format!(
            "the server refused the connection: {}",
            outcome.information.as_deref().unwrap_or("BYE")
        ))),
        other => Err(Failure::Lost(format!("unexpected greeting {other:?}"))),
    }
}

/// The connected stream, TLS already in place: TCP, TLS or STARTTLS, and
/// the greeting read. Returns how the connection is protected.
async fn open_stream(s: &Settings, tcp: TcpStream) -> Result<(Client<Stream>, String), Failure> {
    match s.config.security {
        Security::Plain | Security::Tls => {
            let (stream, how) = handshake(s, tcp).await?;
            let mut client = Client::new(stream);
            greeting(&mut client).await?;
            Ok((client, how))
        }
        Security::Starttls => {
            let mut client = Client::new(tcp);
            greeting(&mut client).await?;
            timed(
                "STARTTLS",
                client.run_command_and_check_ok("STARTTLS", None),
            )
            .await
            .map_err(|e| match e {
                Failure::Refused(text) => Failure::Refused(format!("STARTTLS refused: {text}")),
                other => other,
            })?;
            let (stream, how) = handshake(s, client.into_inner()).await?;
            Ok((Client::new(stream), format!("STARTTLS, {how}")))
        }
    }
}

/// Logs in.
async fn login(s: &Settings, client: Client<Stream>) -> Result<Session<Stream>, Failure> {
    let login = async {
        client
            .login(&s.config.username, &s.password)
            .await
            .map_err(|(e, _client)| e)
    };
    timed("LOGIN", login).await.map_err(|e| match e {
        Failure::Refused(text) => {
            Failure::Refused(format!("login as {} refused: {text}", s.config.username))
        }
        other => other,
    })
}

/// The next response on `$conn`'s session (`?` on failure, a `Lost` one
/// when the connection ended). A macro: async-imap does not export the
/// response type's name.
macro_rules! next_response {
    ($conn:expr, $what:expr) => {
        match timed($what, $conn.session.read_response()).await? {
            Some(response) => response,
            None => {
                return Err(Failure::Lost(format!(
                    "{}: connection closed by the server",
                    $what
                )))
            }
        }
    };
}

/// Runs `command` to its tagged end, handing each untagged response to
/// `on_data`. NO and BAD become `Refused`; BYE and the end of the
/// connection become `Lost`. New-mail notices set `conn.new_mail`.
async fn command(
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
async fn capabilities(conn: &mut Conn) -> Result<Vec<String>, Failure> {
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
async fn select(conn: &mut Conn, folder: &str) -> Result<(), Failure> {
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

/// Creates `folder` unless it exists. Returns whether it was created.
async fn ensure_folder(conn: &mut Conn, folder: &str) -> Result<bool, Failure> {
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

/// `UID SEARCH query`.
async fn search(conn: &mut Conn, query: &str) -> Result<Vec<u32>, Failure> {
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

/// Opens a session: connection, TLS, login, capabilities, the processed
/// folder created when missing, the folder selected.
async fn connect(s: &Settings) -> Result<Conn, Failure> {
    let tcp = open_tcp(s).await?;
    let (client, _) = open_stream(s, tcp).await?;
    let session = login(s, client).await?;
    let mut conn = Conn {
        session,
        idle: false,
        moves: false,
        uidplus: false,
        uid_validity: 0,
        exists: 0,
        new_mail: false,
    };
    capabilities(&mut conn).await?;
    if let Some(processed) = &s.config.processed_folder {
        if ensure_folder(&mut conn, processed).await? {
            tracing::info!(folder = %processed, "created the IMAP processed folder");
        }
    }
    select(&mut conn, &s.config.folder).await?;
    Ok(conn)
}

/// The waiting messages, oldest first, and whether more are left. Each
/// one's size is asked first: one larger than `limit.max_bytes` is fetched
/// only as far as its head.
async fn list(
    conn: &mut Conn,
    s: &Settings,
    limit: ReadLimit,
) -> Result<(Vec<Waiting>, bool), Failure> {
    select(conn, &s.config.folder).await?;
    let query = match s.config.processed_folder {
        Some(_) => "UNDELETED",
        None => "UNSEEN UNDELETED",
    };
    let mut uids = search(conn, query).await?;
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

/// Marks one message done: `\Seen`, or moved to the processed folder.
async fn mark(conn: &mut Conn, s: &Settings, validity: u32, uid: u32) -> Result<(), Failure> {
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
        Some(folder) => move_by_copy(conn, uid, folder).await,
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

/// Moves one message to the quarantine folder (created when missing).
async fn set_aside(conn: &mut Conn, s: &Settings, validity: u32, uid: u32) -> Result<(), Failure> {
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
        move_by_copy(conn, uid, folder).await
    }
}

/// MOVE for servers without it: COPY, `\Deleted`, EXPUNGE.
async fn move_by_copy(conn: &mut Conn, uid: u32, folder: &str) -> Result<(), Failure> {
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

/// IDLE until the server reports anything (true), `dur` passes or `stop`
/// is set (false).
async fn idle(conn: &mut Conn, dur: Duration, stop: &AtomicBool) -> Result<bool, Failure> {
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

/// One step of [`check`]: its name, and what it found or why it failed.
pub type CheckStep = (String, Result<String, String>);

/// `orderly check-mail`: tries each step of reading mail from the server
/// and reports each one, stopping at the first that fails: the
/// configuration, the TLS trust roots, the connection, TLS, login, the
/// folder, the processed folder, and the IDLE and MOVE capabilities.
pub fn check(config: &ImapConfig) -> Vec<CheckStep> {
    let mut steps: Vec<CheckStep> = Vec::new();
    let mut step = |name: &str, outcome: Result<String, String>| {
        let ok = outcome.is_ok();
        steps.push((name.to_string(), outcome));
        ok
    };
    if !step(
        "configuration",
        config
            .validate()
            .map(|()| {
                format!(
                    "{}:{} ({:?}), user {}",
                    config.host,
                    config.port(),
                    config.security,
                    config.username
                )
            })
            .map_err(|e| e.to_string()),
    ) {
        return steps;
    }
    let password = match config.read_password() {
        Ok(password) => password,
        Err(e) => {
            step("password", Err(e.to_string()));
            return steps;
        }
    };
    let tls = match config.security {
        Security::Plain => None,
        _ => match tls_config(config.ca_file.as_deref()) {
            Ok((tls, described)) => {
                step("trusted certificates", Ok(described));
                Some(tls)
            }
            Err(e) => {
                step("trusted certificates", Err(e.to_string()));
                return steps;
            }
        },
    };
    let settings = Settings {
        config: config.clone(),
        password,
        tls,
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            step("runtime", Err(e.to_string()));
            return steps;
        }
    };
    runtime.block_on(check_steps(&settings, &mut step));
    steps
}

async fn check_steps(s: &Settings, step: &mut impl FnMut(&str, Result<String, String>) -> bool) {
    let text = |e: Failure| e.to_string();
    let tcp = match open_tcp(s).await {
        Ok(tcp) => {
            let peer = tcp
                .peer_addr()
                .map_or_else(|_| s.server(), |a| a.to_string());
            step("connect", Ok(format!("connected to {peer}")));
            tcp
        }
        Err(e) => {
            step("connect", Err(text(e)));
            return;
        }
    };
    let client = match open_stream(s, tcp).await {
        Ok((client, how)) => {
            step("tls", Ok(how));
            client
        }
        Err(e) => {
            step("tls", Err(text(e)));
            return;
        }
    };
    let session = match login(s, client).await {
        Ok(session) => {
            step("login", Ok(format!("logged in as {}", s.config.username)));
            session
        }
        Err(e) => {
            step("login", Err(text(e)));
            return;
        }
    };
    let mut conn = Conn {
        session,
        idle: false,
        moves: false,
        uidplus: false,
        uid_validity: 0,
        exists: 0,
        new_mail: false,
    };
    if let Err(e) = capabilities(&mut conn).await {
        step("capabilities", Err(text(e)));
        return;
    }
    let folder = &s.config.folder;
    let selected = async {
        select(&mut conn, folder).await?;
        let query = match s.config.processed_folder {
            Some(_) => "UNDELETED",
            None => "UNSEEN UNDELETED",
        };
        search(&mut conn, query).await
    }
    .await;
    match selected {
        Ok(waiting) => step(
            "folder",
            Ok(format!(
                "{folder}: {} messages, {} waiting, UIDVALIDITY {}",
                conn.exists,
                waiting.len(),
                conn.uid_validity
            )),
        ),
        Err(e) => {
            step("folder", Err(text(e)));
            return;
        }
    };
    if let Some(processed) = &s.config.processed_folder {
        let outcome = ensure_folder(&mut conn, processed).await;
        let mover = if conn.moves {
            "moved with MOVE"
        } else {
            "moved with COPY, \\Deleted and EXPUNGE (no MOVE)"
        };
        let ok = step(
            "processed folder",
            outcome
                .map(|created| {
                    let state = if created { "created" } else { "exists" };
                    format!("{processed} {state}; processed mail is {mover}")
                })
                .map_err(text),
        );
        if !ok {
            return;
        }
    }
    step(
        "idle",
        match (s.config.idle, conn.idle) {
            (true, true) => Ok("IDLE offered: new mail is noticed at once".into()),
            (false, _) => Ok("idle = false: polling".into()),
            (true, false) => Ok("the server does not offer IDLE: polling instead".into()),
        },
    );
    let _ = tokio::time::timeout(Duration::from_secs(5), conn.session.logout()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ImapConfig, toml::de::Error> {
        toml::from_str(text)
    }

    fn minimal() -> ImapConfig {
        parse("host = \"imap.example.org\"\nusername = \"orderly\"\npassword = \"pw\"\n")
            .expect("minimal config")
    }

    #[test]
    fn defaults() {
        let config = minimal();
        assert_eq!(config.security, Security::Tls);
        assert_eq!(config.port(), 993);
        assert_eq!(config.folder, "INBOX");
        assert_eq!(config.processed_folder, None);
        assert_eq!(config.ca_file, None);
        assert!(config.idle);
        assert_eq!(config.reconnect_max_secs, 300);
        config.validate().expect("valid");
    }

    #[test]
    fn every_key() {
        let config = parse(
            r#"
            host = "localhost"
            port = 1143
            security = "starttls"
            username = "orderly"
            password_file = "/run/secrets/imap"
            folder = "Orders"
            processed_folder = "Orders/Done"
            ca_file = "/etc/orderly/ca.pem"
            idle = false
            reconnect_max_secs = 60
            "#,
        )
        .expect("full config");
        assert_eq!(config.port(), 1143);
        assert_eq!(config.security, Security::Starttls);
        assert_eq!(config.processed_folder.as_deref(), Some("Orders/Done"));
        assert!(!config.idle);
        config.validate().expect("valid");
        let starttls =
            parse("host = \"h\"\nusername = \"u\"\npassword = \"p\"\nsecurity = \"starttls\"\n")
                .expect("starttls");
        assert_eq!(starttls.port(), 143);
    }

    #[test]
    fn unknown_keys_and_values_are_refused() {
        assert!(parse("host = \"h\"\nusername = \"u\"\npassword = \"p\"\nuser = \"x\"\n").is_err());
        assert!(
            parse("host = \"h\"\nusername = \"u\"\npassword = \"p\"\nsecurity = \"ssl\"\n")
                .is_err()
        );
        assert!(parse("username = \"u\"\npassword = \"p\"\n").is_err());
    }

    #[test]
    fn plain_only_on_loopback() {
        for host in [
            "localhost",
            "LocalHost",
            "127.0.0.1",
            "127.1.2.3",
            "::1",
            "[::1]",
        ] {
            let mut config = minimal();
            config.host = host.into();
            config.security = Security::Plain;
            assert!(config.validate().is_ok(), "{host}");
        }
        for host in [
            "imap.example.org",
            "192.168.1.2",
            "10.0.0.1",
            "localhost.example.org",
            "::2",
        ] {
            let mut config = minimal();
            config.host = host.into();
            config.security = Security::Plain;
            let error = config.validate().expect_err(host);
            assert!(
                matches!(error, ImapConfigError::PlainNotLoopback(_)),
                "{host}"
            );
            assert!(error.to_string().contains("clear text"), "{error}");
        }
    }

    #[test]
    fn passwords() {
        let mut config = minimal();
        config.password = None;
        assert!(matches!(
            config.validate(),
            Err(ImapConfigError::NoPassword)
        ));
        config.password = Some("pw".into());
        config.password_file = Some("/x".into());
        assert!(matches!(
            config.validate(),
            Err(ImapConfigError::TwoPasswords)
        ));
        config.password = Some("a\r\nb".into());
        config.password_file = None;
        assert!(matches!(
            config.validate(),
            Err(ImapConfigError::BadText("password"))
        ));

        let dir = std::env::temp_dir().join(format!("orderly-imap-pw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("password");
        std::fs::write(&file, "s3cret \"x\"\n").expect("write");
        config.password = None;
        config.password_file = Some(file.clone());
        config.validate().expect("valid");
        assert_eq!(config.read_password().expect("read"), "s3cret \"x\"");
        config.password_file = Some(dir.join("missing"));
        assert!(matches!(
            config.read_password(),
            Err(ImapConfigError::PasswordFile { .. })
        ));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn debug_hides_the_password() {
        let shown = format!("{:?}", minimal());
        assert!(!shown.contains("\"pw\""), "{shown}");
        assert!(shown.contains("hidden"), "{shown}");
    }

    #[test]
    fn folders_and_other_values() {
        let mut config = minimal();
        config.processed_folder = Some("inbox".into());
        assert!(matches!(
            config.validate(),
            Err(ImapConfigError::SameFolder)
        ));
        config.processed_folder = Some("".into());
        assert!(matches!(
            config.validate(),
            Err(ImapConfigError::BadText("processed_folder"))
        ));
        config.processed_folder = Some("Done".into());
        config.folder = "".into();
        assert!(matches!(
            config.validate(),
            Err(ImapConfigError::BadText("folder"))
        ));
        let mut config = minimal();
        config.reconnect_max_secs = 0;
        assert!(matches!(
            config.validate(),
            Err(ImapConfigError::ZeroReconnect)
        ));
        let mut config = minimal();
        config.port = Some(0);
        assert!(matches!(config.validate(), Err(ImapConfigError::ZeroPort)));
        let mut config = minimal();
        config.host = " ".into();
        assert!(matches!(config.validate(), Err(ImapConfigError::NoHost)));
    }

    #[test]
    fn keys() {
        assert_eq!(message_key(123, 45), "v123:45");
        assert_eq!(parse_key("v123:45"), Some((123, 45)));
        assert_eq!(
            parse_key(&message_key(u32::MAX, u32::MAX)),
            Some((u32::MAX, u32::MAX))
        );
        for bad in [
            "",
            "45",
            "v123",
            "v123:",
            "v:45",
            "123:45",
            "v123:0",
            "v-1:4",
            "v1:+4",
            "v1:4:5",
            "v1: 4",
            "v99999999999:1",
            "V1:2",
            "1700000000.M1P2.host",
        ] {
            assert_eq!(parse_key(bad), None, "{bad}");
        }
    }

    #[test]
    fn backoff_doubles_to_the_limit() {
        let waits: Vec<u64> = (0..12).map(|n| backoff(n, 300).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]);
        assert_eq!(backoff(200, 300).as_secs(), 300);
        assert_eq!(backoff(3, 5).as_secs(), 5);
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("INBOX"), "\"INBOX\"");
        assert_eq!(quote("a \"b\" \\c"), "\"a \\\"b\\\" \\\\c\"");
    }

    #[test]
    fn ca_file_errors() {
        let dir = std::env::temp_dir().join(format!("orderly-imap-ca-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("ca.pem");
        std::fs::write(&file, "not a certificate\n").expect("write");
        assert!(matches!(
            tls_config(Some(&file)),
            Err(ImapConfigError::CaFile { .. })
        ));
        assert!(matches!(
            tls_config(Some(&dir.join("missing.pem"))),
            Err(ImapConfigError::CaFile { .. })
        ));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn check_stops_at_a_bad_config() {
        let mut config = minimal();
        config.security = Security::Plain;
        let steps = check(&config);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].0, "configuration");
        assert!(steps[0].1.is_err());
    }
}
