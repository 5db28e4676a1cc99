//! What the IMAP and SMTP connections both need to decide whom to trust:
//! whether a host is this machine (plain text is allowed only there), a
//! password kept in a file, the system's CA certificates and an extra CA
//! file.

use std::net::IpAddr;
use std::path::Path;

use rustls::pki_types::CertificateDer;

/// Whether `host` names this machine: `localhost`, 127.0.0.0/8 or `::1`
/// (brackets and a trailing dot allowed).
pub fn is_loopback(host: &str) -> bool {
    let host = host.trim().trim_end_matches('.');
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A password kept in a file, without the line break editors leave at its
/// end.
pub fn read_secret_file(path: &Path) -> std::io::Result<String> {
    let text = std::fs::read_to_string(path)?;
    Ok(text.trim_end_matches(['\r', '\n']).to_string())
}

/// The system's CA certificates (those that cannot be read are logged and
/// left out).
pub fn system_roots() -> Vec<CertificateDer<'static>> {
    let found = rustls_native_certs::load_native_certs();
    for error in &found.errors {
        tracing::debug!(%error, "system CA certificates: not all could be read");
    }
    found.certs
}

/// The certificates of a PEM file, or what is wrong with it.
pub fn pem_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let pem = std::fs::read(path).map_err(|e| e.to_string())?;
    let certs = rustls_pemfile::certs(&mut pem.as_slice())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("not PEM: {e}"))?;
    if certs.is_empty() {
        return Err("holds no CERTIFICATE block".into());
    }
    Ok(certs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_recognised() {
        for host in [
            "localhost",
            "LOCALHOST.",
            "127.0.0.1",
            "127.1.2.3",
            "::1",
            "[::1]",
        ] {
            assert!(is_loopback(host), "{host}");
        }
        for host in ["example.org", "10.0.0.1", "localhost.example.org", "[::2]"] {
            assert!(!is_loopback(host), "{host}");
        }
    }
}
