//! Opening a session: the TCP connection, TLS from the first byte or
//! after STARTTLS, the server's greeting, login, the capabilities, the
//! processed folder created when missing and the folder selected. `check`
//! runs the same steps one by one to report each.

use std::fmt;

use async_imap::imap_proto::{Response, Status};
use async_imap::{Client, Session};
use rustls::pki_types::ServerName;
use tokio::net::TcpStream;

use super::config::Security;
use super::connection::{capabilities, select, timed, Conn, Failure};
use super::folders::ensure_folder;
use super::settings::Settings;
use super::stream::Stream;

/// Opens the TCP connection.
pub(super) async fn open_tcp(s: &Settings) -> Result<TcpStream, Failure> {
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
pub(super) async fn open_stream(
    s: &Settings,
    tcp: TcpStream,
) -> Result<(Client<Stream>, String), Failure> {
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
pub(super) async fn login(
    s: &Settings,
    client: Client<Stream>,
) -> Result<Session<Stream>, Failure> {
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

/// Opens a session: connection, TLS, login, capabilities, the processed
/// folder created when missing, the folder selected.
pub(super) async fn connect(s: &Settings) -> Result<Conn, Failure> {
    let tcp = open_tcp(s).await?;
    let (client, _) = open_stream(s, tcp).await?;
    let session = login(s, client).await?;
    let mut conn = Conn::new(session);
    capabilities(&mut conn).await?;
    if let Some(processed) = &s.config.processed_folder {
        if ensure_folder(&mut conn, processed).await? {
            tracing::info!(folder = %processed, "created the IMAP processed folder");
        }
    }
    select(&mut conn, &s.config.folder).await?;
    Ok(conn)
}
