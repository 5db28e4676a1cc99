//! What the command line shows a moderator: the games, one game's board and
//! state, a game's record.

use crate::games::{GameResult, Seat};
use crate::store::{result_text, GameStatus, Store, StoreError};

use super::game::{pending_of, side_name};
use super::rebuild::rebuild;
use super::update::update_text;
use super::zones::local_time;
use super::{Result, ServiceError};

/// One line per game: number, players, status, whose turn.
pub fn games(store: &mut Store) -> Result<String> {
    let tx = store.read()?;
    let mut out = String::new();
    for g in tx.all_games()? {
        let seats = tx.seats(g.id)?;
        let who = |s: Seat| {
            seats
                .iter()
                .find(|r| r.seat == s)
                .map(|r| r.address.clone())
                .unwrap_or_default()
        };
        let paused = tx
            .paused_until(g.id)?
            .map(|until| format!(", paused until {}", local_time(until.utc(), "UTC")))
            .unwrap_or_default();
        let state = match g.status {
            GameStatus::Active => match pending_of(&g) {
                Some(p) => format!("waits for {} ({}){paused}", side_name(&g, p.seat), p.kind),
                None => "over".into(),
            },
            // The game's own side names (Gray, French), as every other
            // column of the line says them; not the stored seat word.
            GameStatus::Finished => format!(
                "finished: {}{}",
                match g.result {
                    Some(GameResult::Win(seat)) => format!("{} won", side_name(&g, seat)),
                    Some(draw @ GameResult::Draw) => result_text(draw).to_string(),
                    None => "?".to_string(),
                },
                g.termination
                    .as_deref()
                    .map(|t| format!(", {t}"))
                    .unwrap_or_default()
            ),
            other => other.as_str().to_string(),
        };
        out.push_str(&format!(
            "{:>5}  {}  {} {}  {} {}  {}\n",
            g.id,
            g.kind,
            side_name(&g, Seat::North),
            who(Seat::North),
            side_name(&g, Seat::South),
            who(Seat::South),
            state
        ));
    }
    if out.is_empty() {
        out.push_str("no games\n");
    }
    Ok(out)
}

fn game_row(store: &mut Store, id: i64) -> Result<crate::store::GameRow> {
    let tx = store.read()?;
    tx.game(id)?
        .ok_or_else(|| ServiceError::Store(StoreError::Corrupt(format!("there is no game {id}"))))
}

/// The board and state of one game, rebuilt from its orders (and checked
/// against the cached position).
pub fn show(store: &mut Store, id: i64, site: &str) -> Result<String> {
    let game = &game_row(store, id)?;
    let tx = store.read()?;
    let recorder = rebuild(&tx, game, site)?;
    let state = recorder.game();
    let mut out = format!("game {id}: status {}\n", game.status);
    if let Some(cached) = &game.position {
        if *cached != state.position() {
            out.push_str(&format!(
                "warning: the cached position differs from the replayed one\n  cached   {cached}\n  replayed {}\n",
                state.position()
            ));
        }
    }
    out.push_str(&format!("position {}\n", state.position()));
    let viewer = state.pending().map(|p| p.seat).unwrap_or(Seat::North);
    out.push_str(&update_text(&tx, game, state, viewer, &[])?);
    Ok(out)
}

/// The game as it stands as a picture (SVG, issue 19), drawn from the seat
/// of the player to act (North's when nobody is), as `orderly show --png`
/// writes it; `None` for a game that has no picture.
pub fn show_picture(store: &mut Store, id: i64, site: &str) -> Result<Option<String>> {
    let game = &game_row(store, id)?;
    let tx = store.read()?;
    let recorder = rebuild(&tx, game, site)?;
    let state = recorder.game();
    let viewer = state.pending().map(|p| p.seat).unwrap_or(Seat::North);
    Ok(state.picture(viewer, &[], false))
}

/// A game's record as text, or as JSON for tools.
pub fn export(store: &mut Store, id: i64, json: bool, site: &str) -> Result<String> {
    let game = &game_row(store, id)?;
    let tx = store.read()?;
    let record = rebuild(&tx, game, site)?.into_record();
    if !json {
        return Ok(record.to_string());
    }
    let replayed = crate::record::replay(&record).map_err(|e| {
        ServiceError::Store(StoreError::Corrupt(format!(
            "game {id} does not replay: {e}"
        )))
    })?;
    serde_json::to_string_pretty(&replayed.to_json())
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| ServiceError::Store(StoreError::Corrupt(e.to_string())))
}

/// `orderly check-mail`: tries the configured mail connections and says,
/// step by step, what works and what does not. Returns the report and
/// whether everything worked.
pub fn check_mail(config: &crate::config::Config) -> (String, bool) {
    let mut out = String::new();
    let mut ok = true;
    let mut line = |what: &str, outcome: &std::result::Result<String, String>| match outcome {
        Ok(found) => out.push_str(&format!("ok    {what}: {found}\n")),
        Err(why) => {
            ok = false;
            out.push_str(&format!("FAIL  {what}: {why}\n"));
        }
    };
    match &config.intake.imap {
        Some(imap) => {
            for (step, outcome) in crate::mail::imap::check(imap) {
                line(&format!("incoming (IMAP) {step}"), &outcome);
            }
        }
        None => {
            let outcome = crate::mail::maildir::Maildir::open_or_create(&config.intake.maildir)
                .map(|m| format!("Maildir {}", m.path().display()))
                .map_err(|e| e.to_string());
            line("incoming (Maildir)", &outcome);
        }
    }
    match (&config.outgoing.smtp, &config.outgoing.sendmail) {
        (Some(smtp), _) => line("outgoing (SMTP)", &crate::mail::outgoing::check(smtp)),
        (None, Some(command)) => {
            let outcome = if command.exists() {
                Ok(format!("sendmail command {}", command.display()))
            } else {
                Err(format!("no sendmail command at {}", command.display()))
            };
            line("outgoing (sendmail)", &outcome);
        }
        (None, None) => {
            let outcome = std::fs::create_dir_all(&config.outgoing.dir)
                .map(|()| format!(".eml files into {}", config.outgoing.dir.display()))
                .map_err(|e| e.to_string());
            line("outgoing (files)", &outcome);
        }
    }
    (out, ok)
}
