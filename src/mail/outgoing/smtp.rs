//! Delivery through an SMTP relay ([`SmtpSender`], lettre's SMTP transport
//! over rustls) or the local `sendmail` command ([`SendmailSender`]).
//!
//! The relay is configured by `[outgoing.smtp]` ([`SmtpConfig`]):
//!
//! ```toml
//! [outgoing.smtp]
//! host = "smtp.example.org"
//! security = "starttls"            # "plain" (loopback only), "starttls", "tls"
//! port = 587                       # default: 25 plain, 587 starttls, 465 tls
//! username = "orderly@example.org" # leave out for a relay without AUTH
//! password_file = "var/smtp-password"
//! ca_file = "config/relay-ca.pem"  # optional, added to the system roots
//! timeout_secs = 30
//! ```

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::{SendmailTransport, SmtpTransport, Transport};
use serde::Deserialize;

use super::{MailSender, OutgoingMail, SendError};
use crate::mail::trust::{self, is_loopback, read_secret_file};

/// How the connection to the relay is protected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// No TLS at all: accepted only for a relay on the loopback interface
    /// (`localhost`, `127.0.0.1`, `::1`), where nothing travels a network.
    Plain,
    /// Plain connection upgraded with `STARTTLS`, which the relay must
    /// offer (no fallback to plain text). The usual submission port 587.
    #[default]
    Starttls,
    /// TLS from the first byte ("implicit TLS", port 465).
    Tls,
}

impl Security {
    /// The port used when the configuration names none.
    pub fn default_port(self) -> u16 {
        match self {
            Security::Plain => 25,
            Security::Starttls => 587,
            Security::Tls => 465,
        }
    }

    /// The configuration spelling: `plain`, `starttls` or `tls`.
    pub fn as_str(self) -> &'static str {
        match self {
            Security::Plain => "plain",
            Security::Starttls => "starttls",
            Security::Tls => "tls",
        }
    }
}

fn default_timeout_secs() -> u64 {
    30
}

/// `[outgoing.smtp]`: the relay outgoing mail is handed to.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    /// The relay's host name (checked against its TLS certificate) or IP
    /// address.
    pub host: String,
    /// The relay's port; by default 25 (`plain`), 587 (`starttls`) or 465
    /// (`tls`).
    #[serde(default)]
    pub port: Option<u16>,
    /// `plain`, `starttls` (the default) or `tls`; see [`Security`].
    #[serde(default)]
    pub security: Security,
    /// The AUTH user name. Leave it out (and the password) for a relay that
    /// accepts mail without authentication, such as a local Postfix.
    #[serde(default)]
    pub username: Option<String>,
    /// The AUTH password, written in the configuration file. Prefer
    /// [`password_file`](Self::password_file); set at most one of the two.
    #[serde(default)]
    pub password: Option<String>,
    /// A file holding the AUTH password (trailing line breaks are ignored),
    /// read once when the sender is built.
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// A PEM file of extra CA certificates trusted for the relay, in
    /// addition to the system's roots (for a relay with a private CA).
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// Seconds to wait for connecting and for each answer of the relay
    /// before the attempt counts as a temporary failure. Default 30.
    #[serde(default = "default_timeout_secs")]
    pub timeout_secs: u64,
}

impl fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<hidden>"))
            .field("password_file", &self.password_file)
            .field("ca_file", &self.ca_file)
            .field("timeout_secs", &self.timeout_secs)
            .finish()
    }
}

impl SmtpConfig {
    /// A configuration for `host` with the defaults: `starttls` on the
    /// default port, no AUTH, no extra CA, 30 s timeout.
    pub fn new(host: impl Into<String>, security: Security) -> Self {
        SmtpConfig {
            host: host.into(),
            port: None,
            security,
            username: None,
            password: None,
            password_file: None,
            ca_file: None,
            timeout_secs: default_timeout_secs(),
        }
    }

    /// The port in effect: the configured one or the default for the
    /// security mode.
    pub fn effective_port(&self) -> u16 {
        self.port.unwrap_or(self.security.default_port())
    }

    /// `host:port`, for logs and messages.
    pub fn relay_name(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.effective_port())
        } else {
            format!("{}:{}", self.host, self.effective_port())
        }
    }
}

/// Why an [`SmtpConfig`] cannot be used. Raised when the sender is built,
/// so that a bad configuration stops the service at start rather than
/// failing every mail.
#[derive(Debug, thiserror::Error)]
pub enum SmtpConfigError {
    /// `security = "plain"` for a relay that is not on the loopback
    /// interface: mail and passwords would cross a network in clear.
    #[error(
        "security = \"plain\" is only allowed for a relay on the loopback interface, \
         not {host:?}: use \"starttls\" or \"tls\""
    )]
    PlainNotLoopback {
        /// The configured host.
        host: String,
    },
    /// The host is empty or the timeout zero.
    #[error("{0}")]
    Value(String),
    /// A user name without password, a password without user name, or
    /// both `password` and `password_file`.
    #[error("{0}")]
    Credentials(String),
    /// The password file cannot be read.
    #[error("cannot read password_file {}: {source}", path.display())]
    PasswordFile {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The CA file cannot be read or holds no usable certificate.
    #[error("ca_file {}: {message}", path.display())]
    CaFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// lettre could not set up TLS.
    #[error("cannot set up TLS: {0}")]
    Tls(#[source] lettre::transport::smtp::Error),
}

/// Sends each mail to an SMTP relay with `MAIL FROM` = the mail's return
/// path (its VERP address) and `RCPT TO` = its one recipient, over
/// connections lettre's pool keeps open between mails (a new connection
/// costs the relay a handshake and the daemon a round trip per mail).
///
/// # Which failures are permanent
///
/// [`SendError::is_permanent`] decides whether the outbox retries a mail or
/// gives it up and tells the moderators. Here:
///
/// - A `5xx` reply is permanent (the relay refused this mail or this
///   recipient; the same mail would be refused again) -- except the
///   authentication replies `530`, `534`, `535` and `538` (RFC 4954): a
///   refused AUTH is a fault of the configuration, not of the mail, so it is
///   temporary (the mail goes out once the password is mended) and logged
///   at error level so that someone notices.
/// - A `4xx` reply is temporary.
/// - Failing to connect, a timeout, a broken connection, an unreadable
///   reply and a failed TLS handshake (an unknown CA, a wrong host name, a
///   relay that does not offer `STARTTLS`) are temporary: they are faults
///   of the network or the configuration. TLS and AUTH problems are logged
///   at error level.
/// - A recipient or sender address that needs SMTPUTF8 when the relay does
///   not offer it is permanent: that mail cannot pass this relay.
#[derive(Clone, Debug)]
pub struct SmtpSender {
    transport: SmtpTransport,
    relay: String,
    timeout_secs: u64,
}

impl SmtpSender {
    /// Checks the configuration, reads the password file and the CA file,
    /// and prepares the transport. Connects to nothing yet.
    pub fn new(config: &SmtpConfig) -> Result<Self, SmtpConfigError> {
        if config.host.trim().is_empty() {
            return Err(SmtpConfigError::Value("outgoing.smtp.host is empty".into()));
        }
        if config.timeout_secs == 0 {
            return Err(SmtpConfigError::Value(
                "outgoing.smtp.timeout_secs must be at least 1".into(),
            ));
        }
        let credentials = credentials(config)?;
        let tls = match config.security {
            Security::Plain => {
                if !is_loopback(&config.host) {
                    return Err(SmtpConfigError::PlainNotLoopback {
                        host: config.host.clone(),
                    });
                }
                Tls::None
            }
            Security::Starttls => Tls::Required(tls_parameters(config)?),
            Security::Tls => Tls::Wrapper(tls_parameters(config)?),
        };
        let mut builder = SmtpTransport::builder_dangerous(config.host.as_str())
            .port(config.effective_port())
            .tls(tls)
            .timeout(Some(Duration::from_secs(config.timeout_secs)));
        if let Some(credentials) = credentials {
            builder = builder.credentials(credentials);
        }
        Ok(SmtpSender {
            transport: builder.build(),
            relay: config.relay_name(),
            timeout_secs: config.timeout_secs,
        })
    }

    /// The relay as `host:port`.
    pub fn relay(&self) -> &str {
        &self.relay
    }

    /// Sends an already formatted message with this envelope: the one step
    /// of [`MailSender::send`] after formatting, for callers that hold raw
    /// bytes. Errors are classified as described on [`SmtpSender`].
    pub fn send_raw(
        &self,
        envelope: &lettre::address::Envelope,
        bytes: &[u8],
    ) -> Result<(), SendError> {
        match self.transport.send_raw(envelope, bytes) {
            Ok(response) => {
                tracing::debug!(
                    relay = %self.relay,
                    reply = %response.message().collect::<Vec<_>>().join(" "),
                    "relay accepted mail"
                );
                Ok(())
            }
            Err(e) => Err(classify(&e, &self.relay, self.timeout_secs)),
        }
    }
}

impl MailSender for SmtpSender {
    fn send(&self, mail: &OutgoingMail) -> Result<(), SendError> {
        let compose = |source| SendError::Compose {
            message_id: mail.message_id.clone(),
            source,
        };
        let bytes = mail.to_bytes().map_err(compose)?;
        let envelope = mail.envelope().map_err(compose)?;
        self.send_raw(&envelope, &bytes).inspect_err(|e| {
            tracing::debug!(message_id = %mail.message_id, error = %e, "SMTP send failed");
        })?;
        tracing::debug!(message_id = %mail.message_id, relay = %self.relay, "mail sent");
        Ok(())
    }
}

/// Connects to the relay as the service would (TLS, AUTH) and sends `NOOP`:
/// `Ok` with a line describing the connection, or `Err` with why not.
/// For `orderly check-mail`.
pub fn check(config: &SmtpConfig) -> Result<String, String> {
    let sender = SmtpSender::new(config).map_err(|e| e.to_string())?;
    match sender.transport.test_connection() {
        Ok(true) => {
            let auth = match &config.username {
                Some(user) => format!(", authenticated as {user}"),
                None => ", no AUTH".to_string(),
            };
            Ok(format!(
                "SMTP {}: connected ({}{auth}), relay answers",
                sender.relay,
                config.security.as_str()
            ))
        }
        Ok(false) => Err(format!(
            "SMTP {}: connected, but the relay did not answer NOOP",
            sender.relay
        )),
        Err(e) => Err(classify(&e, &sender.relay, config.timeout_secs).to_string()),
    }
}

/// Hands each mail to the local MTA's `sendmail` command (lettre's sendmail
/// transport): `sendmail -i -f <return path> -- <recipient>`, the message on
/// standard input. Every failure is temporary (see [`SendError::Sendmail`]).
#[derive(Clone, Debug)]
pub struct SendmailSender {
    transport: SendmailTransport,
    command: PathBuf,
}

impl SendmailSender {
    /// A sender running `command` (e.g. `/usr/sbin/sendmail`; a bare name is
    /// looked up in `PATH`).
    pub fn new(command: impl Into<PathBuf>) -> Self {
        let command = command.into();
        SendmailSender {
            transport: SendmailTransport::new_with_command(command.as_os_str()),
            command,
        }
    }

    /// The command run for each mail.
    pub fn command(&self) -> &Path {
        &self.command
    }
}

impl MailSender for SendmailSender {
    fn send(&self, mail: &OutgoingMail) -> Result<(), SendError> {
        let compose = |source| SendError::Compose {
            message_id: mail.message_id.clone(),
            source,
        };
        let bytes = mail.to_bytes().map_err(compose)?;
        let envelope = mail.envelope().map_err(compose)?;
        self.transport
            .send_raw(&envelope, &bytes)
            .map_err(|e| SendError::Sendmail {
                message: format!("{}: {}", self.command.display(), e.to_string().trim_end()),
            })?;
        tracing::debug!(message_id = %mail.message_id, command = %self.command.display(), "mail handed to sendmail");
        Ok(())
    }
}

fn credentials(config: &SmtpConfig) -> Result<Option<Credentials>, SmtpConfigError> {
    let password = match (&config.password, &config.password_file) {
        (Some(_), Some(_)) => {
            return Err(SmtpConfigError::Credentials(
                "outgoing.smtp: set password or password_file, not both".into(),
            ))
        }
        (Some(password), None) => Some(password.clone()),
        (None, Some(path)) => {
            Some(
                read_secret_file(path).map_err(|source| SmtpConfigError::PasswordFile {
                    path: path.clone(),
                    source,
                })?,
            )
        }
        (None, None) => None,
    };
    match (&config.username, password) {
        (Some(user), Some(password)) => Ok(Some(Credentials::new(user.clone(), password))),
        (None, None) => Ok(None),
        (Some(_), None) => Err(SmtpConfigError::Credentials(
            "outgoing.smtp: username is set but no password or password_file".into(),
        )),
        (None, Some(_)) => Err(SmtpConfigError::Credentials(
            "outgoing.smtp: a password is set but no username".into(),
        )),
    }
}

/// TLS parameters trusting the system's roots (Mozilla's bundled roots if
/// the system has none) and the certificates of `ca_file`.
fn tls_parameters(config: &SmtpConfig) -> Result<TlsParameters, SmtpConfigError> {
    let mut builder =
        TlsParameters::builder(config.host.clone()).certificate_store(CertificateStore::None);
    let system = system_roots();
    if system.is_empty() {
        tracing::warn!("no system CA certificates found; trusting Mozilla's bundled roots");
        builder = builder.certificate_store(CertificateStore::WebpkiRoots);
    }
    for cert in system {
        builder = builder.add_root_certificate(cert);
    }
    if let Some(path) = &config.ca_file {
        for cert in ca_file_certificates(path)? {
            builder = builder.add_root_certificate(cert);
        }
    }
    builder.build().map_err(SmtpConfigError::Tls)
}

/// The system's CA certificates that rustls accepts as roots (lettre
/// refuses the whole set if one of them does not parse).
fn system_roots() -> Vec<Certificate> {
    let mut probe = rustls::RootCertStore::empty();
    trust::system_roots()
        .into_iter()
        .filter(|der| probe.add(der.clone()).is_ok())
        .filter_map(|der| Certificate::from_der(der.to_vec()).ok())
        .collect()
}

fn ca_file_certificates(path: &Path) -> Result<Vec<Certificate>, SmtpConfigError> {
    let refuse = |message: String| SmtpConfigError::CaFile {
        path: path.to_owned(),
        message,
    };
    let ders = trust::pem_certificates(path).map_err(refuse)?;
    let mut probe = rustls::RootCertStore::empty();
    ders.into_iter()
        .map(|der| {
            probe
                .add(der.clone())
                .map_err(|e| refuse(format!("unusable certificate: {e}")))?;
            Certificate::from_der(der.to_vec()).map_err(|e| refuse(e.to_string()))
        })
        .collect()
}

/// RFC 4954 replies that refuse authentication rather than the mail.
fn is_auth_reply(code: u16) -> bool {
    matches!(code, 530 | 534 | 535 | 538)
}

/// Turns lettre's error into [`SendError::Smtp`], deciding permanence as
/// documented on [`SmtpSender`].
fn classify(e: &lettre::transport::smtp::Error, relay: &str, timeout_secs: u64) -> SendError {
    let code = e.status().map(u16::from);
    let text = e.to_string();
    let (permanent, message) = if e.is_permanent() {
        match code {
            Some(code) if is_auth_reply(code) => {
                tracing::error!(
                    relay,
                    error = %text,
                    "SMTP relay refused authentication: check outgoing.smtp username and \
                     password (mail is kept and retried)"
                );
                (false, format!("{relay}: authentication refused: {text}"))
            }
            _ => (true, format!("{relay}: {text}")),
        }
    } else if e.is_transient() {
        (false, format!("{relay}: {text}"))
    } else if e.is_tls() || tls_failed(e) {
        tracing::error!(
            relay,
            error = %text,
            "TLS with the SMTP relay failed: check outgoing.smtp host, security and ca_file \
             (mail is kept and retried)"
        );
        (false, format!("{relay}: TLS failed: {text}"))
    } else if e.is_client() && text.contains("non-ascii") {
        (true, format!("{relay}: {text}"))
    } else if e.is_client() {
        // No common AUTH mechanism, no STARTTLS offered: configuration.
        tracing::error!(relay, error = %text, "SMTP relay cannot be used as configured");
        (false, format!("{relay}: {text}"))
    } else if timed_out(e) {
        (
            false,
            format!("{relay}: no answer within {timeout_secs} s ({text})"),
        )
    } else {
        (false, format!("{relay}: {text}"))
    };
    SendError::Smtp {
        code,
        message,
        permanent,
    }
}

/// Whether rustls is behind the error. lettre reports a failed handshake
/// (an untrusted certificate, a wrong name) as a network error, because
/// rustls only shakes hands at the first read or write.
fn tls_failed(e: &lettre::transport::smtp::Error) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(err) = source {
        if err.is::<rustls::Error>() {
            return true;
        }
        if let Some(inner) = err.downcast_ref::<io::Error>().and_then(|io| io.get_ref()) {
            if inner.is::<rustls::Error>() {
                return true;
            }
        }
        source = err.source();
    }
    false
}

/// Whether an I/O timeout is behind the error. A socket read timeout shows
/// as `WouldBlock` on Unix, which lettre's own `is_timeout` misses.
fn timed_out(e: &lettre::transport::smtp::Error) -> bool {
    let mut source = std::error::Error::source(e);
    while let Some(err) = source {
        if let Some(io) = err.downcast_ref::<io::Error>() {
            return matches!(
                io.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
            );
        }
        source = err.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    use std::thread::JoinHandle;

    use chrono::{TimeZone, Utc};

    use super::*;
    use crate::mail::outgoing::AutoKind;

    fn mail() -> OutgoingMail {
        OutgoingMail {
            message_id: "0123456789abcdef01234567@example.org".into(),
            from: "orderly <orderly@example.org>".into(),
            to: "Ann Player <ann@example.net>".into(),
            reply_to: None,
            subject: "Game 42: your move".into(),
            in_reply_to: None,
            references: Vec::new(),
            list_id: None,
            body: "Hello\n".into(),
            date: Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap(),
            auto: AutoKind::Generated,
            return_path: Some("bounces+1.abcdefghij@example.org".into()),
            text_only: false,
            picture: None,
        }
    }

    /// A one-connection SMTP server on loopback: greets, offers AUTH (and
    /// whatever `extra_ehlo` adds), answers each command with `answer`
    /// (the default reply when it gives `None`), and returns every line
    /// the client sent.
    fn fake_relay(
        extra_ehlo: &'static [&'static str],
        answer: fn(&str) -> Option<&'static str>,
    ) -> (u16, JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let handle = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut out = stream.try_clone().unwrap();
            let mut reader = BufReader::new(stream);
            let mut seen = Vec::new();
            let mut send = |text: &str| {
                let _ = out.write_all(format!("{text}\r\n").as_bytes());
            };
            send("220 fake.example ESMTP");
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 {
                let command = line.trim_end().to_string();
                line.clear();
                seen.push(command.clone());
                let verb = command
                    .split([' ', ':'])
                    .next()
                    .unwrap_or_default()
                    .to_ascii_uppercase();
                if let Some(reply) = answer(&command) {
                    send(reply);
                    if reply.starts_with("354") {
                        let mut data = String::new();
                        while reader.read_line(&mut data).unwrap_or(0) > 0 {
                            if data == ".\r\n" {
                                break;
                            }
                            data.clear();
                        }
                        send(answer("<end of data>").unwrap_or("250 2.0.0 queued as X"));
                    }
                    if reply.starts_with("221") {
                        break;
                    }
                    continue;
                }
                match verb.as_str() {
                    "EHLO" => {
                        for extension in extra_ehlo {
                            send(&format!("250-{extension}"));
                        }
                        send("250-fake.example");
                        send("250 AUTH PLAIN LOGIN");
                    }
                    "DATA" => {
                        send("354 go ahead");
                        let mut data = String::new();
                        while reader.read_line(&mut data).unwrap_or(0) > 0 {
                            if data == ".\r\n" {
                                break;
                            }
                            data.clear();
                        }
                        send(answer("<end of data>").unwrap_or("250 2.0.0 queued as X"));
                    }
                    "QUIT" => {
                        send("221 2.0.0 bye");
                        break;
                    }
                    _ => send("250 2.0.0 ok"),
                }
            }
            seen
        });
        (port, handle)
    }

    fn plain_config(port: u16) -> SmtpConfig {
        SmtpConfig {
            port: Some(port),
            timeout_secs: 5,
            ..SmtpConfig::new("127.0.0.1", Security::Plain)
        }
    }

    fn send_to(config: &SmtpConfig) -> Result<(), SendError> {
        SmtpSender::new(config).unwrap().send(&mail())
    }

    fn smtp_parts(err: SendError) -> (Option<u16>, String, bool) {
        match err {
            SendError::Smtp {
                code,
                message,
                permanent,
            } => (code, message, permanent),
            other => panic!("not an SMTP error: {other:?}"),
        }
    }

    #[test]
    fn accepted_mail_uses_the_return_path_as_envelope_sender() {
        let (port, relay) = fake_relay(&[], |_| None);
        send_to(&plain_config(port)).unwrap();
        let seen = relay.join().unwrap();
        assert!(
            seen.contains(&"MAIL FROM:<bounces+1.abcdefghij@example.org>".to_string()),
            "{seen:?}"
        );
        assert!(
            seen.contains(&"RCPT TO:<ann@example.net>".to_string()),
            "{seen:?}"
        );
        assert!(!seen.iter().any(|l| l.starts_with("AUTH")), "{seen:?}");
    }

    #[test]
    fn a_5xx_refusal_of_the_recipient_is_permanent() {
        let (port, relay) = fake_relay(&[], |c| {
            c.starts_with("RCPT")
                .then_some("550 5.1.1 <ann@example.net>: Recipient address rejected")
        });
        let (code, message, permanent) = smtp_parts(send_to(&plain_config(port)).unwrap_err());
        relay.join().unwrap();
        assert_eq!(code, Some(550));
        assert!(permanent);
        assert!(message.contains("Recipient address rejected"), "{message}");
    }

    #[test]
    fn a_5xx_after_the_data_is_permanent() {
        let (port, relay) = fake_relay(&[], |c| {
            (c == "<end of data>").then_some("552 5.3.4 Message size exceeds fixed limit")
        });
        let (code, _, permanent) = smtp_parts(send_to(&plain_config(port)).unwrap_err());
        relay.join().unwrap();
        assert_eq!((code, permanent), (Some(552), true));
    }

    #[test]
    fn a_4xx_is_temporary() {
        let (port, relay) = fake_relay(&[], |c| {
            c.starts_with("RCPT")
                .then_some("450 4.2.0 <ann@example.net>: Recipient address rejected: Greylisted")
        });
        let err = send_to(&plain_config(port)).unwrap_err();
        relay.join().unwrap();
        assert!(!err.is_permanent());
        assert_eq!(smtp_parts(err).0, Some(450));
    }

    #[test]
    fn a_refused_login_is_temporary() {
        let (port, relay) = fake_relay(&[], |c| {
            c.starts_with("AUTH")
                .then_some("535 5.7.8 Error: authentication failed")
        });
        let config = SmtpConfig {
            username: Some("orderly".into()),
            password: Some("wrong".into()),
            ..plain_config(port)
        };
        let err = send_to(&config).unwrap_err();
        let seen = relay.join().unwrap();
        assert!(seen.iter().any(|l| l.starts_with("AUTH PLAIN")), "{seen:?}");
        assert!(!seen.iter().any(|l| l.starts_with("MAIL")), "{seen:?}");
        let (code, message, permanent) = smtp_parts(err);
        assert_eq!((code, permanent), (Some(535), false));
        assert!(message.contains("authentication refused"), "{message}");
    }

    #[test]
    fn no_listener_is_temporary() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let (code, message, permanent) = smtp_parts(send_to(&plain_config(port)).unwrap_err());
        assert_eq!((code, permanent), (None, false));
        assert!(message.contains(&format!("127.0.0.1:{port}")), "{message}");
    }

    #[test]
    fn a_silent_relay_times_out_temporarily() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let silent = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            std::thread::sleep(Duration::from_secs(3));
            drop(stream);
        });
        let config = SmtpConfig {
            timeout_secs: 1,
            ..plain_config(port)
        };
        let (code, message, permanent) = smtp_parts(send_to(&config).unwrap_err());
        silent.join().unwrap();
        assert_eq!((code, permanent), (None, false));
        assert!(message.contains("no answer within 1 s"), "{message}");
    }

    #[test]
    fn a_failed_tls_handshake_is_temporary() {
        // The fake relay speaks plain SMTP where TLS is expected.
        let (port, relay) = fake_relay(&[], |_| None);
        let config = SmtpConfig {
            port: Some(port),
            timeout_secs: 5,
            ..SmtpConfig::new("localhost", Security::Tls)
        };
        let (code, message, permanent) = smtp_parts(send_to(&config).unwrap_err());
        drop(relay);
        assert_eq!((code, permanent), (None, false));
        assert!(message.contains("TLS failed"), "{message}");
    }

    #[test]
    fn starttls_not_offered_is_temporary() {
        let (port, relay) = fake_relay(&[], |_| None);
        let config = SmtpConfig {
            port: Some(port),
            timeout_secs: 5,
            ..SmtpConfig::new("127.0.0.1", Security::Starttls)
        };
        let (code, message, permanent) = smtp_parts(send_to(&config).unwrap_err());
        let seen = relay.join().unwrap();
        assert!(!seen.iter().any(|l| l.starts_with("MAIL")), "{seen:?}");
        assert_eq!((code, permanent), (None, false));
        assert!(message.contains("STARTTLS"), "{message}");
    }

    #[test]
    fn an_address_needing_smtputf8_is_permanent_where_it_is_not_offered() {
        let (port, relay) = fake_relay(&[], |_| None);
        let mut m = mail();
        m.to = "j\u{f6}rg@example.net".into();
        let err = SmtpSender::new(&plain_config(port))
            .unwrap()
            .send(&m)
            .unwrap_err();
        drop(relay);
        let (code, message, permanent) = smtp_parts(err);
        assert_eq!((code, permanent), (None, true), "{message}");
        assert!(message.contains("SMTPUTF8"), "{message}");
    }

    #[test]
    fn check_reports_success_and_failure() {
        let (port, relay) = fake_relay(&[], |_| None);
        let line = check(&plain_config(port)).unwrap();
        let seen = relay.join().unwrap();
        assert!(seen.contains(&"NOOP".to_string()), "{seen:?}");
        assert!(line.contains(&format!("127.0.0.1:{port}")), "{line}");
        assert!(line.contains("plain, no AUTH"), "{line}");

        let (port, relay) = fake_relay(&[], |c| {
            c.starts_with("AUTH")
                .then_some("535 5.7.8 Error: authentication failed")
        });
        let config = SmtpConfig {
            username: Some("orderly".into()),
            password: Some("wrong".into()),
            ..plain_config(port)
        };
        let err = check(&config).unwrap_err();
        relay.join().unwrap();
        assert!(err.contains("535"), "{err}");
    }

    #[test]
    fn an_unformattable_mail_is_a_compose_error() {
        let mut bad = mail();
        bad.return_path = Some("not an address".into());
        let sender = SmtpSender::new(&plain_config(1)).unwrap();
        let err = sender.send(&bad).unwrap_err();
        assert!(matches!(err, SendError::Compose { .. }), "{err:?}");
        assert!(err.is_permanent());
    }

    #[test]
    fn plain_is_for_loopback_only() {
        for host in [
            "127.0.0.1",
            "127.1.2.3",
            "::1",
            "[::1]",
            "localhost",
            "LocalHost.",
        ] {
            assert!(
                SmtpSender::new(&SmtpConfig::new(host, Security::Plain)).is_ok(),
                "{host}"
            );
        }
        for host in [
            "smtp.example.org",
            "192.0.2.1",
            "10.0.0.1",
            "localhost.example.org",
        ] {
            assert!(
                matches!(
                    SmtpSender::new(&SmtpConfig::new(host, Security::Plain)),
                    Err(SmtpConfigError::PlainNotLoopback { .. })
                ),
                "{host}"
            );
        }
        // TLS to anywhere is fine; nothing is contacted yet.
        assert!(SmtpSender::new(&SmtpConfig::new("smtp.example.org", Security::Tls)).is_ok());
    }

    #[test]
    fn credentials_must_be_complete_and_single() {
        let base = SmtpConfig::new("localhost", Security::Plain);
        let user = |password: Option<&str>, file: Option<PathBuf>| SmtpConfig {
            username: Some("orderly".into()),
            password: password.map(str::to_owned),
            password_file: file,
            ..base.clone()
        };
        assert!(matches!(
            SmtpSender::new(&user(None, None)),
            Err(SmtpConfigError::Credentials(_))
        ));
        assert!(matches!(
            SmtpSender::new(&user(Some("pw"), Some("x".into()))),
            Err(SmtpConfigError::Credentials(_))
        ));
        let no_user = SmtpConfig {
            password: Some("pw".into()),
            ..base.clone()
        };
        assert!(matches!(
            SmtpSender::new(&no_user),
            Err(SmtpConfigError::Credentials(_))
        ));
        assert!(matches!(
            SmtpSender::new(&user(None, Some("/nonexistent/orderly-pw".into()))),
            Err(SmtpConfigError::PasswordFile { .. })
        ));
        assert!(SmtpSender::new(&user(Some("pw"), None)).is_ok());
    }

    #[test]
    fn password_file_loses_its_final_line_break() {
        let dir = std::env::temp_dir().join(format!("orderly-smtp-pw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pw");
        std::fs::write(&path, "s3cret pass \r\n").unwrap();
        let config = SmtpConfig {
            username: Some("orderly".into()),
            password_file: Some(path),
            ..SmtpConfig::new("localhost", Security::Plain)
        };
        let credentials = credentials(&config).unwrap().unwrap();
        assert_eq!(
            credentials,
            Credentials::new("orderly".into(), "s3cret pass ".into())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn ca_file_must_hold_certificates() {
        let dir = std::env::temp_dir().join(format!("orderly-smtp-ca-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "no certificates here\n").unwrap();
        for path in [empty, dir.join("missing.pem")] {
            let config = SmtpConfig {
                ca_file: Some(path.clone()),
                ..SmtpConfig::new("smtp.example.org", Security::Starttls)
            };
            assert!(
                matches!(
                    SmtpSender::new(&config),
                    Err(SmtpConfigError::CaFile { .. })
                ),
                "{}",
                path.display()
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn config_from_toml() {
        let config: SmtpConfig = toml::from_str(
            r#"
            host = "smtp.example.org"
            username = "orderly@example.org"
            password_file = "var/smtp-password"
            "#,
        )
        .unwrap();
        assert_eq!(config.security, Security::Starttls);
        assert_eq!(config.effective_port(), 587);
        assert_eq!(config.timeout_secs, 30);
        assert_eq!(config.relay_name(), "smtp.example.org:587");

        let config: SmtpConfig = toml::from_str(
            r#"
            host = "::1"
            security = "plain"
            "#,
        )
        .unwrap();
        assert_eq!(config.relay_name(), "[::1]:25");
        let config: SmtpConfig =
            toml::from_str("host = \"x\"\nsecurity = \"tls\"\nport = 2465\ntimeout_secs = 5")
                .unwrap();
        assert_eq!((config.effective_port(), config.timeout_secs), (2465, 5));

        assert!(toml::from_str::<SmtpConfig>("host = \"x\"\nsecurity = \"ssl\"").is_err());
        assert!(toml::from_str::<SmtpConfig>("host = \"x\"\npasword = \"typo\"").is_err());
        assert!(toml::from_str::<SmtpConfig>("security = \"tls\"").is_err());
    }

    #[test]
    fn debug_hides_the_password() {
        let config = SmtpConfig {
            username: Some("orderly".into()),
            password: Some("hunter2".into()),
            ..SmtpConfig::new("localhost", Security::Plain)
        };
        let text = format!("{config:?}");
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("<hidden>"), "{text}");
    }

    #[test]
    fn zero_timeout_and_empty_host_are_refused() {
        let config = SmtpConfig {
            timeout_secs: 0,
            ..SmtpConfig::new("localhost", Security::Plain)
        };
        assert!(matches!(
            SmtpSender::new(&config),
            Err(SmtpConfigError::Value(_))
        ));
        assert!(matches!(
            SmtpSender::new(&SmtpConfig::new(" ", Security::Tls)),
            Err(SmtpConfigError::Value(_))
        ));
    }

    #[test]
    fn sendmail_failures_are_temporary() {
        let sender = SendmailSender::new("/nonexistent/sendmail");
        let err = sender.send(&mail()).unwrap_err();
        assert!(matches!(err, SendError::Sendmail { .. }), "{err:?}");
        assert!(!err.is_permanent());
        // `false` runs and fails.
        let err = SendmailSender::new("false").send(&mail()).unwrap_err();
        assert!(!err.is_permanent());
    }

    #[test]
    fn sendmail_gets_the_envelope_and_the_message() {
        let dir = std::env::temp_dir().join(format!("orderly-sendmail-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("sendmail");
        let out = dir.join("out");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho \"$@\" > {0}.args\ncat > {0}\n",
                out.display()
            ),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        SendmailSender::new(&script).send(&mail()).unwrap();
        let args = std::fs::read_to_string(dir.join("out.args")).unwrap();
        assert_eq!(
            args.trim(),
            "-i -f bounces+1.abcdefghij@example.org -- ann@example.net"
        );
        assert_eq!(std::fs::read(&out).unwrap(), mail().to_bytes().unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_send_error_names_the_code() {
        let err = SendError::Smtp {
            code: Some(550),
            message: "relay: permanent error (550): no".into(),
            permanent: true,
        };
        assert_eq!(err.to_string(), "SMTP: relay: permanent error (550): no");
        assert!(err.is_permanent());
    }
}
