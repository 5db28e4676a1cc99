//! Each line of a mail to its job: commands and orders read from the
//! lines, in order; what needs a game goes to the game the mail's key
//! names once it is authenticated.

use super::commands::Command;
use super::game::{hosted_of, load, side_name};
use super::identity::secrets_match;
use super::inform::hosted_games;
use super::lifecycle::TimeControl;
use super::notices::{moderators_of, queue_notice};
use super::update::update_text_keyed;
use super::work::Work;
use super::{lines, texts, Result};
use crate::games::{GameOptions, GameResult};
use crate::store::{EntryKind, GameRow, GameStatus, SeatRow};

impl Work<'_> {
    pub(super) fn run(&mut self) -> Result<()> {
        let text = self.incoming.text.clone();
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if let Some(key) = self.moderator_key() {
            return self.moderator_mail(&key, &lines);
        }
        if lines.is_empty() {
            self.item(
                "(nothing)",
                "This mail has no command or order in it (quoted lines and \
                 signatures are not read). Write HELP for the commands.",
                true,
            );
            return Ok(());
        }
        let claim = self.claim(&lines);
        // A mail with its seat's key from its seat's address is answered in
        // that game's thread (Reply-To with the key) even when none of its
        // lines is a command, so that the player's next reply still counts.
        if let Some(claim) = &claim {
            if let Some(game) = self.tx.game(claim.game)? {
                let seat =
                    self.tx.seats(game.id)?.into_iter().find(|s| {
                        secrets_match(&s.secret, &claim.secret) && s.address == self.sender
                    });
                if let Some(seat) = seat {
                    self.game = Some((game, seat));
                }
            }
        }
        let reader = self.line_reader(claim.as_ref())?;
        let mut orders: Vec<String> = Vec::new();
        // Prose not yet listed: it is listed in its place, but after the
        // orders around it, which are answered together.
        let mut prose: Vec<(String, Option<&'static str>)> = Vec::new();
        let mut read_any = false;
        for (index, written) in lines.iter().enumerate() {
            let (command, text, alone) = match reader.read(written) {
                lines::Reading::Prose { hint } => {
                    if written.chars().any(char::is_alphanumeric) {
                        prose.push((written.to_string(), hint));
                    }
                    continue;
                }
                lines::Reading::Order(text) => (Command::Order(text.clone()), text, false),
                lines::Reading::Mixed(text) => (Command::Order(text.clone()), text, true),
                lines::Reading::Command { command, text } => (command, text, false),
            };
            read_any = true;
            self.commands += 1;
            if self.commands > i64::from(self.config.service.max_commands_per_mail) {
                // A bound on what one mail may ask: the rest is not read.
                let left = lines.len() - index + self.incoming.unread.lines;
                self.item(
                    "(the rest of this mail)",
                    format!(
                        "Not read: {left} more line(s). A mail carries at most {} \
                         commands and orders; send the rest in another mail.",
                        self.config.service.max_commands_per_mail
                    ),
                    true,
                );
                break;
            }
            if text != *written {
                self.written.insert(text.clone(), written.to_string());
            }
            let line = text.as_str();
            if (alone || !matches!(command, Command::Order(_))) && !orders.is_empty() {
                self.orders(&std::mem::take(&mut orders), claim.as_ref())?;
            }
            if orders.is_empty() {
                self.ignore(&mut prose);
            }
            if alone {
                self.orders(std::slice::from_ref(&text), claim.as_ref())?;
                continue;
            }
            match command {
                Command::Order(l) => orders.push(l),
                Command::Game(_) => {}
                // What only informs is answered once a mail, however often
                // asked (no amplification).
                Command::Help
                | Command::HelpRules(_)
                | Command::HelpBoard
                | Command::HelpMoves(_)
                | Command::Games
                | Command::History
                | Command::Board
                    if !self.answered.insert(format!("{command:?}")) =>
                {
                    self.item(line, "Answered once, above.", false);
                }
                Command::Help => {
                    self.item(line, "The commands are below.", false);
                    self.parts.push(texts::render(
                        "help",
                        minijinja::context! { games => hosted_games() },
                    ));
                }
                Command::HelpRules(game) => {
                    self.help_rules(line, game.as_deref(), claim.as_ref())?
                }
                Command::Games => self.games(line)?,
                Command::New {
                    game,
                    opponent,
                    side,
                    first,
                    days,
                    clock,
                    timeout,
                    moderator,
                } => self.new_game(
                    line,
                    &game,
                    &opponent,
                    side.as_deref(),
                    first.as_deref(),
                    TimeControl {
                        days,
                        clock,
                        timeout,
                        moderator,
                    },
                )?,
                // A change to a player needs the player's key, as an order
                // does: a bare From is easily forged.
                Command::SetDigest(_)
                | Command::SetTimezone(_)
                | Command::Vacation(_)
                | Command::SetReminders(_)
                    if !self.holds_a_key(line, claim.as_ref())? => {}
                Command::SetDigest(on) => {
                    let player = self.tx.player(self.sender, "", self.at)?;
                    self.tx.set_digest(player, on)?;
                    let what = if on {
                        "You will get one mail a day listing your games and deadlines, \
                         instead of reminders."
                    } else {
                        "Daily digest off; reminders come per game again."
                    };
                    self.item(line, what, false);
                }
                Command::SetTimezone(zone) => self.set_timezone(line, &zone)?,
                Command::Vacation(span) => self.vacation(line, span)?,
                Command::BadVacation(why) => {
                    self.item(line, format!("Not understood: {why}."), true)
                }
                Command::SetReminders(on) => {
                    let player = self.tx.player(self.sender, "", self.at)?;
                    self.tx.set_reminders(player, on)?;
                    let what = if on { "on" } else { "off" };
                    self.item(
                        line,
                        format!("Reminders are {what} for all your games."),
                        false,
                    );
                }
                Command::BadNew(why) => self.item(line, format!("Not understood: {why}."), true),
                Command::ConfirmAddress(code) => self.confirm_address(line, &code)?,
                other => {
                    if let Some((game, seat)) = self.authenticate(line, claim.as_ref())? {
                        self.game_command(line, other, game, seat)?;
                    }
                }
            }
        }
        if !orders.is_empty() {
            self.orders(&orders, claim.as_ref())?;
        }
        self.ignore(&mut prose);
        if !read_any {
            self.parts.push(texts::wrap(
                "This mail has no command or order in it (quoted lines and \
                 signatures are not read). Write HELP for the commands.",
            ));
        }
        self.send_press()
    }

    pub(super) fn game_command(
        &mut self,
        line: &str,
        command: Command,
        game: GameRow,
        seat: SeatRow,
    ) -> Result<()> {
        let side = side_name(&game, seat.seat);
        match (command, game.status) {
            (Command::Accept, GameStatus::Invited) if seat.seat != game.inviter_seat => {
                self.tx.set_status(game.id, GameStatus::Active, self.at)?;
                let state = (hosted_of(&game)?.new)(&GameOptions {
                    first: game.first_seat,
                    seed: game.seed,
                });
                self.tx
                    .set_position(game.id, &state.position(), 0, self.at)?;
                self.refresh_deadline(game.id, state.as_ref())?;
                self.item(
                    line,
                    format!("Game {} begins; you play {side}.", game.id),
                    false,
                );
                let game = self.reload(game.id)?;
                self.broadcast(&game, state.as_ref(), &[], Some(seat.seat))?;
            }
            (Command::Decline, GameStatus::Invited) if seat.seat != game.inviter_seat => {
                self.tx.set_status(game.id, GameStatus::Declined, self.at)?;
                self.item(line, format!("You declined game {}.", game.id), false);
                self.notify_other(
                    &game,
                    seat.seat,
                    format!("{} declined game {}.", self.sender, game.id),
                )?;
            }
            (Command::Accept | Command::Decline, GameStatus::Invited) => {
                self.item(
                    line,
                    "Refused: the invitation is for the other player; wait for their answer.",
                    true,
                );
            }
            (_, GameStatus::Invited) => {
                self.item(
                    line,
                    format!(
                        "Refused: game {} has not begun: the invitation is still open.",
                        game.id
                    ),
                    true,
                );
            }
            // A finished game can still be read: its record and its
            // final board.
            (command, status)
                if status != GameStatus::Active
                    && !matches!(
                        command,
                        Command::History | Command::Board | Command::HelpBoard
                    ) =>
            {
                self.item(
                    line,
                    format!("Refused: game {} is {status}.", game.id),
                    true,
                );
                if let Some(state) = load(&game) {
                    self.parts
                        .push(self.update_text(&game, state.as_ref(), seat.seat, &[]));
                }
            }
            (Command::ClaimWin, _) => self.claim_win(line, &game, &seat)?,
            (Command::Moderator(text), _) => {
                self.tx.set_disputed(game.id, Some(&text))?;
                let body = texts::wrap(&format!(
                    "{} ({} in game {}) asks for a moderator:\n\n{text}\n\n\
                     Write STALLED to your moderator address for the games that wait.",
                    self.sender, side, game.id
                ));
                let moderators = moderators_of(self.tx, self.config, game.id)?;
                for (n, m) in moderators.iter().enumerate() {
                    let seed = format!("{}/moderator/{n}", self.message_id);
                    queue_notice(
                        self.tx,
                        self.config,
                        &game,
                        &m.to_lowercase(),
                        None,
                        body.clone(),
                        &seed,
                        self.now,
                    )?;
                }
                let answer = if moderators.is_empty() {
                    "Noted; this server has no moderator configured yet, so an \
                     administrator will see it in `orderly mod stalled`."
                } else {
                    "The moderators have been asked; they will answer by mail."
                };
                self.item(line, answer, false);
            }
            (Command::Board, _) if self.board_shown.contains(&game.id) => {
                // The update this mail made carries the board already.
                self.item(line, "The board and the choices are below.", false);
            }
            (Command::Board, _) => {
                let state = self.state(&game)?;
                self.item(line, "The board and the choices are below.", false);
                self.board_shown.insert(game.id);
                self.parts
                    .push(self.update_text(&game, state.as_ref(), seat.seat, &[]));
            }
            (Command::CancelIf(words), _) => self.cancel_answers(line, &words, &game, &seat)?,
            (Command::Say(text), _) => self.say(line, &text, &game, &seat)?,
            (Command::SetAddress(new), _) => self.set_address(line, &new, &game, &seat)?,
            (Command::HelpBoard, _) => {
                let state = self.state(&game)?;
                self.item(line, "The board, with its key, is below.", false);
                let text =
                    update_text_keyed(self.tx, &game, state.as_ref(), seat.seat, &[], true, &[])?;
                self.parts.push(texts::wrap(&text));
            }
            (Command::HelpMoves(square), _) => {
                let state = self.state(&game)?;
                match state.choices_from(&square) {
                    Ok(text) => {
                        self.item(line, "See below.", false);
                        self.parts.push(text);
                    }
                    Err(r) => self.refuse(line, &r),
                }
            }
            (Command::History, _) => {
                let record = self.record(&game)?;
                self.item(line, "The record of the game so far is below.", false);
                self.parts.push(record.to_string());
            }
            (Command::Resign, _) => {
                let winner = seat.seat.other();
                self.tx.add_entry(
                    game.id,
                    EntryKind::Resign,
                    Some(seat.seat),
                    "RESIGNS",
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx.finish(
                    game.id,
                    GameResult::Win(winner),
                    &format!("{side} resigned"),
                    self.at,
                )?;
                self.item(
                    line,
                    format!(
                        "You resigned game {}. {} wins.",
                        game.id,
                        side_name(&game, winner)
                    ),
                    false,
                );
                let state = self.state(&game)?;
                let game = self.reload(game.id)?;
                self.broadcast(&game, state.as_ref(), &[], Some(seat.seat))?;
            }
            (Command::OfferDraw, _) => {
                self.tx.set_draw_offer(game.id, Some(seat.seat))?;
                self.item(
                    line,
                    "Draw offered; the other player may ACCEPT DRAW or DECLINE DRAW.",
                    false,
                );
                self.notify_other(&game, seat.seat, format!(
                    "{side} offers a draw in game {}. Write ACCEPT DRAW or DECLINE DRAW (or play on: an order declines it).",
                    game.id
                ))?;
            }
            (Command::AcceptDraw, _) if game.draw_offer == Some(seat.seat.other()) => {
                self.tx.add_entry(
                    game.id,
                    EntryKind::Draw,
                    Some(seat.seat),
                    "DRAW AGREED",
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx
                    .finish(game.id, GameResult::Draw, "draw agreed", self.at)?;
                self.item(
                    line,
                    format!("Draw agreed: game {} is over.", game.id),
                    false,
                );
                let state = self.state(&game)?;
                let game = self.reload(game.id)?;
                self.broadcast(&game, state.as_ref(), &[], Some(seat.seat))?;
            }
            (Command::DeclineDraw, _) if game.draw_offer == Some(seat.seat.other()) => {
                self.tx.set_draw_offer(game.id, None)?;
                self.item(line, "Draw declined; play goes on.", false);
                self.notify_other(
                    &game,
                    seat.seat,
                    format!("{side} declines the draw in game {}.", game.id),
                )?;
            }
            (Command::AcceptDraw | Command::DeclineDraw, _) => {
                self.item(
                    line,
                    "Refused: there is no draw offer from the other player to answer.",
                    true,
                );
            }
            (Command::Accept | Command::Decline, _) => {
                // In a game under way ACCEPT/DECLINE mean nothing but
                // DECLINE may answer a second chance: an order line.
                self.orders_for(&[line.to_string()], game, seat)?;
            }
            (other, _) => {
                self.item(line, format!("Not understood here: {other:?}."), true);
            }
        }
        Ok(())
    }
}
