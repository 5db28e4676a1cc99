//! What the command line shows a moderator: the games, one game's board and
//! state, a game's record.

use crate::games::{Game, Seat};
use crate::store::{Store, StoreError};

use super::{rebuild, update_text, Result, ServiceError};

/// One line per game: number, players, status, whose turn.
pub fn games(store: &mut Store) -> Result<String> {
    let tx = store.tx()?;
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
        let state = match g.status.as_str() {
            "active" => match super::load(&g).and_then(|s| s.pending()) {
                Some(p) => format!(
                    "waits for {} ({})",
                    crate::games::squares::Squares::seat_name(p.seat),
                    p.kind
                ),
                None => "over".into(),
            },
            "finished" => format!(
                "finished: {}{}",
                g.result.as_deref().unwrap_or("?"),
                g.termination
                    .as_deref()
                    .map(|t| format!(", {t}"))
                    .unwrap_or_default()
            ),
            other => other.to_string(),
        };
        out.push_str(&format!(
            "{:>5}  {}  Blue {}  Gray {}  {}\n",
            g.id,
            g.kind,
            who(Seat::North),
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
    let tx = store.tx()?;
    tx.game(id)?
        .ok_or_else(|| ServiceError::Store(StoreError::Corrupt(format!("there is no game {id}"))))
}

/// The board and state of one game, rebuilt from its orders (and checked
/// against the cached position).
pub fn show(store: &mut Store, id: i64, site: &str) -> Result<String> {
    let game = game_row(store, id)?;
    let tx = store.tx()?;
    let recorder = rebuild(&tx, &game, site)?;
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
    out.push_str(&update_text(&tx, &game, state, viewer, &[])?);
    Ok(out)
}

/// A game's record as text, or as JSON for tools.
pub fn export(store: &mut Store, id: i64, json: bool, site: &str) -> Result<String> {
    let game = game_row(store, id)?;
    let tx = store.tx()?;
    let record = rebuild(&tx, &game, site)?.into_record();
    if !json {
        return Ok(record.to_string());
    }
    let replayed =
        crate::record::replay::<crate::games::squares::Squares>(&record).map_err(|e| {
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
