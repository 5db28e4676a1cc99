//! The private mail stack itself (scripts/mailstack, tests/common/mailstack.rs):
//! SMTP in, IMAP out, plus-addresses, a bounce (DSN) to the orderly mailbox,
//! TLS with the throwaway CA, Dovecot and Postfix restarts, and that stopping
//! frees the ports.

#[path = "../common/mod.rs"]
mod common;

use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::mailstack::MailStack;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{SmtpTransport, Transport};

const WAIT: Duration = Duration::from_secs(15);

/// A token no other run of this test produces.
fn token(what: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{what}-{}-{nanos}", std::process::id())
}

fn message(from: &str, to: &str, subject: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\n\
         Message-ID: <{subject}@example.test>\r\n\
         Date: Sat, 1 Nov 2025 12:00:00 +0000\r\n\r\nHello, {subject}.\r\n"
    )
    .into_bytes()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

#[test]
fn mail_stack_delivers_bounces_survives_restarts_and_stops() {
    let Some(stack) = MailStack::start() else {
        return;
    };

    // ann -> bob over SMTP, read from bob's INBOX over IMAP.
    let hello = token("hello");
    let sent = Instant::now();
    stack.send(
        &stack.address("ann"),
        &stack.address("bob"),
        &message(&stack.address("ann"), &stack.address("bob"), &hello),
    );
    let got = stack
        .wait_for("bob", WAIT, |m| contains(m, &hello))
        .expect("ann's mail in bob's INBOX");
    eprintln!("SMTP -> IMAP in {} ms", sent.elapsed().as_millis());
    assert!(contains(&got, "Delivered-To: bob@example.test"));
    assert!(stack.fetch_all("ann").iter().all(|m| !contains(m, &hello)));

    // A per-game reply address lands in orderly's INBOX.
    let reply = token("reply");
    stack.send(
        &stack.address("bob"),
        "orderly+g1.x@example.test",
        &message(&stack.address("bob"), "orderly+g1.x@example.test", &reply),
    );
    let got = stack
        .wait_for("orderly", WAIT, |m| contains(m, &reply))
        .expect("mail to orderly+g1.x in orderly's INBOX");
    assert!(contains(&got, "Delivered-To: orderly+g1.x@example.test"));

    // An unknown local user: LMTP refuses, Postfix bounces to the envelope
    // sender bounces+x@, which is orderly's mailbox.
    let lost = token("lost");
    stack.send(
        "bounces+x@example.test",
        "nobody@example.test",
        &message("orderly@example.test", "nobody@example.test", &lost),
    );
    let dsn = stack
        .wait_for("orderly", WAIT, |m| {
            contains(m, &lost) && contains(m, "report-type=delivery-status")
        })
        .expect("a DSN for nobody@ in orderly's INBOX");
    assert!(contains(&dsn, "Delivered-To: orderly+x@example.test"));
    assert!(contains(
        &dsn,
        "Final-Recipient: rfc822; nobody@example.test"
    ));
    assert!(contains(&dsn, "Action: failed"));

    tls_with_the_throwaway_ca(&stack);

    // Postfix down: SMTP refused; up again: accepted.
    stack.stop_postfix();
    let down = token("down");
    let raw = message(&stack.address("eve"), &stack.address("mod"), &down);
    assert!(stack
        .try_send(&stack.address("eve"), &stack.address("mod"), &raw)
        .is_err());
    stack.start_postfix();
    stack.send(&stack.address("eve"), &stack.address("mod"), &raw);
    stack
        .wait_for("mod", WAIT, |m| contains(m, &down))
        .expect("mail after Postfix came back");

    // Dovecot restarted: delivered mail stays, new mail arrives.
    stack.restart_dovecot();
    assert!(stack.fetch_all("bob").iter().any(|m| contains(m, &hello)));
    let after = token("after");
    stack.send(
        &stack.address("carol"),
        &stack.address("bob"),
        &message(&stack.address("carol"), &stack.address("bob"), &after),
    );
    stack
        .wait_for("bob", WAIT, |m| contains(m, &after))
        .expect("mail after Dovecot restarted");

    // Stopping frees every port.
    let mut ports = vec![stack.imap_port, stack.imaps_port, stack.smtp_port];
    ports.extend(stack.submission_port);
    let stopping = Instant::now();
    drop(stack);
    eprintln!("stopped in {} ms", stopping.elapsed().as_millis());
    for port in ports {
        assert!(
            TcpStream::connect(("127.0.0.1", port)).is_err(),
            "port {port} still open after stop"
        );
    }
}

/// Submission (STARTTLS + AUTH) with lettre, and IMAPS with tokio-rustls,
/// both trusting only the stack's CA.
fn tls_with_the_throwaway_ca(stack: &MailStack) {
    let pem = std::fs::read(&stack.ca_file).expect("CA file");
    let port = stack.submission_port.expect("a submission port");
    let tls = TlsParameters::builder("localhost".into())
        .add_root_certificate(Certificate::from_pem(&pem).expect("CA PEM"))
        .build_rustls()
        .expect("TLS parameters");
    let submission = SmtpTransport::builder_dangerous("localhost")
        .port(port)
        .tls(Tls::Required(tls))
        .credentials(Credentials::new(
            "carol".into(),
            MailStack::password("carol"),
        ))
        .timeout(Some(Duration::from_secs(15)))
        .build();
    let secret = token("secret");
    let envelope = Envelope::new(
        Some(stack.address("carol").parse().expect("address")),
        vec![stack.address("eve").parse().expect("address")],
    )
    .expect("envelope");
    let raw = message(&stack.address("carol"), &stack.address("eve"), &secret);
    submission
        .send_raw(&envelope, &raw)
        .expect("submission with STARTTLS and AUTH");
    stack
        .wait_for("eve", WAIT, |m| contains(m, &secret))
        .expect("submitted mail in eve's INBOX");

    // Wrong password: refused.
    let wrong = SmtpTransport::builder_dangerous("localhost")
        .port(port)
        .tls(Tls::Required(
            TlsParameters::builder("localhost".into())
                .add_root_certificate(Certificate::from_pem(&pem).expect("CA PEM"))
                .build_rustls()
                .expect("TLS parameters"),
        ))
        .credentials(Credentials::new("carol".into(), "wrong".into()))
        .build();
    assert!(wrong.send_raw(&envelope, &raw).is_err());

    // IMAPS: the certificate verifies for 127.0.0.1 against the CA alone.
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_pemfile::certs(&mut pem.as_slice()) {
        roots.add(cert.expect("CA PEM")).expect("CA certificate");
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_root_certificates(roots)
    .with_no_client_auth();
    let imaps_port = stack.imaps_port;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", imaps_port))
            .await
            .expect("connect IMAPS");
        let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("name");
        let stream = tokio_rustls::TlsConnector::from(Arc::new(config))
            .connect(name, tcp)
            .await
            .expect("TLS handshake with the stack's certificate");
        let mut client = async_imap::Client::new(stream);
        client.read_response().await.expect("greeting");
        let mut session = client
            .login("eve", MailStack::password("eve"))
            .await
            .map_err(|(e, _)| e)
            .expect("LOGIN over IMAPS");
        let inbox = session.examine("INBOX").await.expect("EXAMINE");
        assert!(inbox.exists >= 1);
        session.logout().await.expect("LOGOUT");
    });
}
