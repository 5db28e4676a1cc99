//! What only informs (answered once a mail, however often asked): HELP,
//! the player's games (GAMES), the board (BOARD, BOARD ALL, HELP BOARD), one unit's
//! choices (HELP MOVES), the record (HISTORY). HELP RULES is `rules.rs`.

use std::collections::HashSet;

use super::game::{hosted_of, pending_of, side_name};
use super::reply::Answer;
use super::update::{update_text_keyed, BoardWanted};
use super::work::Work;
use super::zones::local_time;
use super::{texts, Result};
use crate::games::{hosted, GameResult};
use crate::store::{GameRow, GameStatus, SeatRow};

impl Work<'_> {
    /// `HELP`: the commands every game takes, then the orders and own
    /// commands of the games the writer plays (an invitation open, or a
    /// game under way, or the game of the mail's key), or of every game,
    /// each under its name, for a writer who plays none.
    pub(super) fn help(&mut self, line: &str) -> Result<()> {
        self.item(line, Answer::Done(texts::say("inform.help", ())));
        let mine = self.games_played()?;
        // The orders of the mail's game are shown from the writer's own
        // seat (his units, his squares).
        let own = match &self.game {
            Some((g, s)) if g.status == GameStatus::Active => {
                let state = self.state(g)?;
                Some((state.hosted().name, state.orders_for(s.seat)))
            }
            _ => None,
        };
        let games = hosted_games_with(&|name| {
            own.as_ref()
                .filter(|(game, orders)| *game == name && !orders.is_empty())
                .map(|(_, orders)| orders.clone())
        });
        let shown: Vec<minijinja::Value> = hosted::GAMES
            .iter()
            .zip(&games)
            .filter(|(name, _)| mine.is_empty() || mine.contains(&name.to_string()))
            .map(|(_, g)| g.clone())
            .collect();
        self.parts.push(texts::render(
            "help",
            minijinja::context! { games => games, shown => shown, yours => !mine.is_empty() },
        ));
        Ok(())
    }

    /// The names of the games the writer plays: those of their invitations
    /// open and their games under way, and the game of the mail's key.
    fn games_played(&self) -> Result<Vec<String>> {
        let mut names: Vec<String> = self.game.iter().map(|(g, _)| g.kind.clone()).collect();
        if let Some(player) = self.tx.player_id(self.sender)? {
            names.extend(
                self.tx
                    .games_of(player)?
                    .into_iter()
                    .filter(|g| matches!(g.status, GameStatus::Active | GameStatus::Invited))
                    .map(|g| g.kind),
            );
        }
        Ok(names
            .into_iter()
            .filter_map(|kind| hosted::find(&kind).map(|h| h.name.to_string()))
            .collect())
    }

    /// `GAMES`: the sender's games, each with whose turn it is.
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
            let vs = match other {
                Some(s) => super::computer::seat_name(&g, s),
                None => "?".to_string(),
            };
            let (zone, _) = self.tx.player_settings(self.sender)?;
            let paused = self
                .tx
                .paused_until(g.id)?
                .map(|until| {
                    texts::say(
                        "inform.paused",
                        minijinja::context! { until => local_time(until.utc(), &zone) },
                    )
                })
                .unwrap_or_default();
            let state = match g.status {
                GameStatus::Active => match pending_of(&g) {
                    Some(p) if Some(p.seat) == me.map(|s| s.seat) => texts::say(
                        "inform.state_your_turn",
                        minijinja::context! { paused => paused },
                    ),
                    Some(p) => texts::say(
                        "inform.state_waiting_for",
                        minijinja::context! { side => side_name(&g, p.seat), paused => paused },
                    ),
                    None => texts::say("inform.state_over", ()),
                },
                GameStatus::Invited => texts::say("inform.state_invited", ()),
                GameStatus::Finished => {
                    let result = match g.result {
                        Some(GameResult::Draw) => texts::say("inform.result_draw", ()),
                        Some(GameResult::Win(w)) if Some(w) == me.map(|s| s.seat) => texts::say(
                            "inform.result_you_won",
                            minijinja::context! { side => side_name(&g, w) },
                        ),
                        Some(GameResult::Win(w)) => texts::say(
                            "inform.result_won",
                            minijinja::context! { side => side_name(&g, w) },
                        ),
                        None => texts::say("inform.state_over", ()),
                    };
                    texts::say(
                        "inform.state_finished",
                        minijinja::context! { result => result, ended => g.termination },
                    )
                }
                other => texts::say(
                    "inform.state_other",
                    minijinja::context! { status => other.to_string(), ended => g.termination },
                ),
            };
            list.push(texts::say(
                "inform.game",
                minijinja::context! {
                    game => g.id,
                    kind => g.kind.to_ascii_uppercase(),
                    side => side,
                    opponent => vs,
                    state => state,
                },
            ));
        }
        self.item(
            line,
            Answer::Done(texts::say(
                "inform.count",
                minijinja::context! { count => list.len() },
            )),
        );
        let (zone, _) = self.tx.player_settings(self.sender)?;
        let daily = super::daily::games_line(self.tx, player, self.sender, &zone)?;
        self.parts.push(texts::wrap(&texts::render(
            "games",
            minijinja::context! { games => list, hosted => hosted_games(), daily => daily },
        )));
        Ok(())
    }

    /// `BOARD`: the game as it stands, unless this reply carries it already.
    pub(super) fn board(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        if self.board_shown.contains(&game.id) {
            // The update this mail made carries the board already.
            self.item(line, Answer::Done(texts::say("inform.board", ())));
            return Ok(());
        }
        let state = self.state(game)?;
        self.item(line, Answer::Done(texts::say("inform.board", ())));
        self.board_shown.insert(game.id);
        self.parts
            .push(self.update_text(game, state.as_ref(), seat.seat, &[]));
        self.show_picture(state.as_ref(), seat.seat, &[], false)?;
        Ok(())
    }

    /// `BOARD ALL`: the game as it stands with the whole map, not a window
    /// around the action; sent even when this reply carries the board
    /// already, which may be a window. A game whose board is always whole
    /// sends its board as it is.
    pub(super) fn board_all(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let state = self.state(game)?;
        self.item(line, Answer::Done(texts::say("inform.board_all", ())));
        self.board_shown.insert(game.id);
        let board = BoardWanted {
            whole_map: true,
            ..BoardWanted::for_seat(self.tx, game, seat.seat)?
        };
        let text = update_text_keyed(self.tx, game, state.as_ref(), seat.seat, &[], board, &[])?;
        self.parts.push(text);
        self.show_picture(state.as_ref(), seat.seat, &[], false)?;
        Ok(())
    }

    /// `HELP BOARD`: the board again, with the key to its marks.
    pub(super) fn help_board(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let state = self.state(game)?;
        self.item(line, Answer::Done(texts::say("inform.board_keyed", ())));
        self.board_shown.insert(game.id);
        let board = BoardWanted {
            key: true,
            whole_map: false,
        };
        let text = update_text_keyed(self.tx, game, state.as_ref(), seat.seat, &[], board, &[])?;
        self.parts.push(texts::wrap(&text));
        self.show_picture(state.as_ref(), seat.seat, &[], false)?;
        Ok(())
    }

    /// `HELP MOVES <square>`: the legal orders of the unit there. In a
    /// mail that carries orders too, the position is the one its writer
    /// saw (before the mail's orders), said so when those orders changed
    /// it, and a square without choices is an answer, not a failure of
    /// the mail: the question only informs.
    pub(super) fn help_moves(&mut self, line: &str, square: &str, game: &GameRow) -> Result<()> {
        let now = self.state(game)?;
        let with_orders = self.seen.get(&game.id).cloned();
        let before = match &with_orders {
            Some(seen) if *seen != now.position() => {
                Some((hosted_of(game)?.from_position)(seen).map_err(|e| {
                    super::ServiceError::Store(crate::store::StoreError::Corrupt(format!(
                        "game {}: the position this mail found does not read: {e:?}",
                        game.id
                    )))
                })?)
            }
            _ => None,
        };
        let changed = before.is_some();
        let state = before.unwrap_or(now);
        match state.choices_from(square) {
            Ok(text) => {
                let answer = if changed {
                    texts::say("inform.moves_before", ())
                } else {
                    texts::say("inform.moves", ())
                };
                self.item(line, Answer::Done(answer));
                self.parts.push(text);
            }
            Err(r) if with_orders.is_some() => self.item(
                line,
                Answer::Done(texts::say(
                    "inform.moves_none",
                    minijinja::context! {
                        problem => r.problem.trim_end_matches('.'),
                        before => changed,
                        suggestions => r.suggestions,
                    },
                )),
            ),
            Err(r) => self.refuse(line, &r),
        }
        Ok(())
    }

    /// `HISTORY`: the record of the game so far, or, once it is over, the
    /// whole of it (no "so far" about a game that has ended).
    pub(super) fn history(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let mut record = self.record(game)?;
        if game.status != GameStatus::Finished {
            // The other seat's private draws stay his until the end.
            let theirs: HashSet<u32> = self
                .tx
                .fair_draws(game.id)?
                .into_iter()
                .filter(|d| d.private_to.is_some_and(|s| s != seat.seat))
                .map(|d| d.inputs.number)
                .collect();
            record.hide_draws(&theirs);
        }
        let answer = if game.status == GameStatus::Active {
            texts::say("inform.history", ())
        } else {
            texts::say("inform.history_ended", ())
        };
        self.item(line, Answer::Done(answer));
        self.parts.push(record.to_string());
        Ok(())
    }
}

/// The hosted games as the help and games templates list them.
pub(super) fn hosted_games() -> Vec<minijinja::Value> {
    hosted_games_with(&|_| None)
}

/// [`hosted_games`], the orders of a game given by `orders` (by the
/// game's name) in the place of its examples for everyone.
fn hosted_games_with(orders: &dyn Fn(&str) -> Option<String>) -> Vec<minijinja::Value> {
    hosted::GAMES
        .iter()
        .map(|name| {
            minijinja::context! {
                name => name.to_ascii_uppercase(),
                title => hosted::title(name),
                title_line => crate::games::text::wrap(
                    &format!(
                        "{:27}{}: {}\n",
                        "",
                        name.to_ascii_uppercase(),
                        hosted::title(name).unwrap_or_default()
                    ),
                    |_| 29,
                ),
                sides => hosted::seat_words(name),
                chosen_first => hosted::find(name).is_some_and(|h| h.first.is_none()),
                // A game played on scenarios names one in NEW (the first
                // is the default).
                scenarios => hosted::find(name).is_some_and(|h| !(h.scenarios)().is_empty()),
                // HELP's section of the game: its name, its orders, its
                // own commands (`GameText::COMMANDS`).
                heading => crate::games::text::wrap(
                    &format!(
                        "{} ({}):",
                        name.to_ascii_uppercase(),
                        hosted::title(name).unwrap_or_default()
                    ),
                    |_| 2,
                )
                .trim_end()
                .to_string(),
                orders => orders(name)
                    .or_else(|| hosted::find(name).map(|h| h.orders.to_string()))
                    .filter(|o| !o.is_empty())
                    .map(|o| crate::games::text::wrap(&format!("    {o}\n"), |_| 4))
                    .unwrap_or_default(),
                commands => hosted::find(name).map(|h| h.commands).unwrap_or_default(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::text::MAIL_WIDTH;

    /// HELP as a writer of `shown` reads it (the games' order: all).
    fn help(shown: &[minijinja::Value], yours: bool) -> String {
        texts::render(
            "help",
            minijinja::context! { games => hosted_games(), shown => shown, yours => yours },
        )
    }

    #[test]
    fn help_fits_a_mail_for_every_game_and_for_none() {
        let games = hosted_games();
        let mut cases: Vec<(Vec<minijinja::Value>, bool)> = vec![(games.clone(), false)];
        cases.extend(games.iter().map(|g| (vec![g.clone()], true)));
        for (shown, yours) in cases {
            let text = help(&shown, yours);
            for line in text.lines() {
                assert!(line.len() <= MAIL_WIDTH, "{line:?} in\n{text}");
            }
            assert!(!text.contains("could not word"), "{text}");
            // A game's heading stands right above its orders.
            assert!(!text.contains("):\n\n"), "{text}");
        }
    }

    #[test]
    fn help_shows_only_the_sections_of_the_games_shown() {
        let games = hosted_games();
        let name = |g: &minijinja::Value| g.get_attr("name").unwrap().to_string();
        for (i, g) in games.iter().enumerate() {
            let text = help(std::slice::from_ref(g), true);
            for (j, other) in games.iter().enumerate() {
                let heading = format!("\n{} (", name(other));
                assert_eq!(text.contains(&heading), i == j, "{heading} in\n{text}");
            }
        }
        let all = help(&games, false);
        assert!(games
            .iter()
            .all(|g| all.contains(&format!("\n{} (", name(g)))));
    }
}
