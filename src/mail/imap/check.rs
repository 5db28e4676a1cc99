//! `orderly check-mail`: the steps of reading mail from the server tried
//! one by one, each reported with what it found or why it failed, so that
//! a moderator setting up the service sees which one to fix.

use std::time::Duration;

use super::config::{ImapConfig, Security};
use super::connect::{login, open_stream, open_tcp};
use super::connection::{capabilities, search, select, Conn, Failure};
use super::fetch::waiting_query;
use super::folders::ensure_folder;
use super::settings::{tls_config, Settings};

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
    let mut conn = Conn::new(session);
    if let Err(e) = capabilities(&mut conn).await {
        step("capabilities", Err(text(e)));
        return;
    }
    let folder = &s.config.folder;
    let selected = async {
        select(&mut conn, folder).await?;
        search(&mut conn, waiting_query(&s.config)).await
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
    use super::check;
    use crate::mail::imap::config::{ImapConfig, Security};

    fn minimal() -> ImapConfig {
        toml::from_str("host = \"imap.example.org\"\nusername = \"orderly\"\npassword = \"pw\"\n")
            .expect("minimal config")
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
