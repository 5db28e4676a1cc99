//! What only informs (answered once a mail, however often asked): HELP,
//! the player's games (GAMES), the board (BOARD, HELP BOARD), one unit's
//! choices (HELP MOVES), the record (HISTORY). HELP RULES is `rules.rs`.

use super::game::{pending_of, side_name};
use super::reply::Answer;
use super::update::update_text_keyed;
use super::work::Work;
use super::zones::local_time;
use super::{texts, Result};
use crate::games::{hosted, Game};
use crate::store::{seat_from_text, GameRow, SeatRow};

impl Work<'_> {
    /// `HELP`: the commands.
    pub(super) fn help(&mut self, line: &str) {
        self.item(line, Answer::Done("The commands are below.".into()));
        self.parts.push(texts::render(
            "help",
            minijinja::context! { games => hosted_games() },
        ));
    }

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
                .map(|until| format!(", paused until {}", local_time(&until, &zone)))
                .unwrap_or_default();
            let state = match g.status.as_str() {
                "active" => match pending_of(&g) {
                    Some(p) if Some(p.seat) == me.map(|s| s.seat) => {
                        format!("your turn{paused}")
                    }
                    Some(p) => format!("waiting for {}{paused}", side_name(&g, p.seat)),
                    None => "over".to_string(),
                },
                "invited" => "invitation open".to_string(),
                "finished" => {
                    let winner = match g.result.as_deref() {
                        Some("draw") => "a draw".to_string(),
                        Some(r) => match seat_from_text(r) {
                            Some(w) if Some(w) == me.map(|s| s.seat) => {
                                format!("you won as {}", side_name(&g, w))
                            }
                            Some(w) => format!("{} won", side_name(&g, w)),
                            None => "over".to_string(),
                        },
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
        self.item(line, Answer::Done(format!("{} game(s).", list.len())));
        self.parts.push(texts::wrap(&texts::render(
            "games",
            minijinja::context! { games => list, hosted => hosted_games() },
        )));
        Ok(())
    }

    /// `BOARD`: the game as it stands, unless this reply carries it already.
    pub(super) fn board<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        if self.board_shown.contains(&game.id) {
            // The update this mail made carries the board already.
            self.item(
                line,
                Answer::Done("The board and the choices are below.".into()),
            );
            return Ok(());
        }
        let state = self.state::<G>(game)?;
        self.item(
            line,
            Answer::Done("The board and the choices are below.".into()),
        );
        self.board_shown.insert(game.id);
        self.parts
            .push(self.update_text(game, &state, seat.seat, &[]));
        Ok(())
    }

    /// `HELP BOARD`: the board again, with the key to its marks.
    pub(super) fn help_board<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let state = self.state::<G>(game)?;
        self.item(
            line,
            Answer::Done("The board, with its key, is below.".into()),
        );
        let text = update_text_keyed(self.tx, game, &state, seat.seat, &[], true, &[])?;
        self.parts.push(texts::wrap(&text));
        Ok(())
    }

    /// `HELP MOVES <square>`: the legal orders of the unit there.
    pub(super) fn help_moves<G: Game>(
        &mut self,
        line: &str,
        square: &str,
        game: &GameRow,
    ) -> Result<()> {
        let state = self.state::<G>(game)?;
        match state.choices_from(square) {
            Ok(text) => {
                self.item(line, Answer::Done("See below.".into()));
                self.parts.push(text);
            }
            Err(r) => self.refuse(line, &r),
        }
        Ok(())
    }

    /// `HISTORY`: the record of the game so far.
    pub(super) fn history<G: Game>(&mut self, line: &str, game: &GameRow) -> Result<()> {
        let record = self.record::<G>(game)?;
        self.item(
            line,
            Answer::Done("The record of the game so far is below.".into()),
        );
        self.parts.push(record.to_string());
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
