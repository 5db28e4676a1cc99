//! The checked `[intake.imap]` section with what it names read in: the
//! password and the certificates TLS trusts. Read once, when the mailbox is
//! made, so that a reconnection at night never fails on a file.

use std::path::Path;
use std::sync::Arc;

use super::config::{ImapConfig, ImapConfigError, Security};
use crate::mail::trust::{pem_certificates, system_roots};

/// The validated configuration with what it names read in.
pub(super) struct Settings {
    /// The section, checked.
    pub(super) config: ImapConfig,
    /// The password, read from `password` or `password_file`.
    pub(super) password: String,
    /// For `tls` and `starttls`.
    pub(super) tls: Option<Arc<rustls::ClientConfig>>,
}

impl Settings {
    /// Checks `config` and reads the password and the trusted certificates.
    pub(super) fn new(config: ImapConfig) -> Result<Settings, ImapConfigError> {
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

    /// `host:port`, for messages and logs.
    pub(super) fn server(&self) -> String {
        format!("{}:{}", self.config.host, self.config.port())
    }
}

/// A rustls client configuration trusting the system's CA certificates and
/// those in `ca_file`; with a description of what it trusts.
pub(super) fn tls_config(
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

#[cfg(test)]
mod tests {
    use super::tls_config;
    use crate::mail::imap::config::ImapConfigError;

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
}
