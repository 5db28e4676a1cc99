//! The `[intake.imap]` section: how to reach the server, whom to log in
//! as, which folders to use; and its checks, made before any connection so
//! that a wrong setting is named at start-up rather than found on the wire.

use std::fmt;
use std::path::PathBuf;

use serde::Deserialize;

use crate::mail::trust::{is_loopback, read_secret_file};
use crate::mail::MailboxError;

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
pub(super) fn quotable(text: &str) -> bool {
    !text.is_empty() && !text.chars().any(char::is_control)
}

/// INBOX is case-insensitive in IMAP; other names are not.
pub(super) fn same_folder(a: &str, b: &str) -> bool {
    a == b || (a.eq_ignore_ascii_case("INBOX") && b.eq_ignore_ascii_case("INBOX"))
}

#[cfg(test)]
mod tests {
    use super::{ImapConfig, ImapConfigError, Security};

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
}
