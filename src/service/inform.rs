//! What only informs: the player's games (GAMES), and the list of hosted
//! games the help and that list show.

use super::game::{pending_of, side_name};
use super::work::Work;
use super::zones::local_time;
use super::{texts, Result};
use crate::games::{hosted, GameResult};
use crate::store::GameStatus;

impl Work<'_> {
    pub(super) fn games(&mut self, line: &str) -> Result<()> {
        let player = self.tx.player(self.sender, "", self.at)?;
        let mut list = Vec::new();
        for g in self.tx.games_of(player)? {
            let seats = self.tx.seats(g.id)?;
            let me = seats.iter().find(|s| s.player_id == player);
            let other = seats
                .iter()
                .find(|s| s.player_id != player || seats.len() == 1);
            let side = me.map(|s| side_name(&g, s.seat)).unwrap_or("?");
            let vs = other.map(|s| s.address.as_str()).unwrap_or("?");
            let (zone, _) = self.tx.player_settings(self.sender)?;
            let paused = self
                .tx
                .paused_until(g.id)?
                .map(|until| format!(", paused until {}", local_time(until.utc(), &zone)))
                .unwrap_or_default();
            let state = match g.status {
                GameStatus::Active => match pending_of(&g) {
                    Some(p) if Some(p.seat) == me.map(|s| s.seat) => {
                        format!("your turn{paused}")
                    }
                    Some(p) => format!("waiting for {}{paused}", side_name(&g, p.seat)),
                    None => "over".to_string(),
                },
                GameStatus::Invited => "invitation open".to_string(),
                GameStatus::Finished => {
                    let winner = match g.result {
                        Some(GameResult::Draw) => "a draw".to_string(),
                        Some(GameResult::Win(w)) if Some(w) == me.map(|s| s.seat) => {
                            format!("you won as {}", side_name(&g, w))
                        }
                        Some(GameResult::Win(w)) => format!("{} won", side_name(&g, w)),
                        None => "over".to_string(),
                    };
                    format!(
                        "finished, {winner}{}",
                        g.termination
                            .as_deref()
                            .map(|t| format!(" ({t})"))
                            .unwrap_or_default()
                    )
                }
                other => format!(
                    "{other}{}",
                    g.termination
                        .as_deref()
                        .map(|t| format!(", {t}"))
                        .unwrap_or_default()
                ),
            };
            list.push(format!(
                "game {}: {} as {side} vs {vs}: {state}",
                g.id,
                g.kind.to_ascii_uppercase()
            ));
        }
        self.item(line, format!("{} game(s).", list.len()), false);
        self.parts.push(texts::wrap(&texts::render(
            "games",
            minijinja::context! { games => list, hosted => hosted_games() },
        )));
        Ok(())
    }
}

/// The hosted games as the help and games templates list them.
pub(super) fn hosted_games() -> Vec<minijinja::Value> {
    hosted::GAMES
        .iter()
        .map(|name| {
            minijinja::context! {
                name => name.to_ascii_uppercase(),
                title => hosted::title(name),
                sides => hosted::seat_words(name),
            }
        })
        .collect()
}
