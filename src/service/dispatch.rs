//! Each line of a mail to its job: commands and orders read from the
//! lines, in order; what needs a game goes to the game the mail's key
//! names once it is authenticated.

use super::commands::Command;
use super::identity::secrets_match;
use super::invitation::{Sides, Terms, TimeControl};
use super::reply::Answer;
use super::work::Work;
use super::{lines, texts, Result};
use crate::store::{GameRow, GameStatus, SeatRow};

impl Work<'_> {
    /// Answers every line of the mail, in order: orders in a row go to
    /// the game together, every other command on its own.
    pub(super) fn run(&mut self) -> Result<()> {
        let text = self.incoming.text.clone();
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if let Some(key) = self.moderator_key() {
            self.moderator_mail(&key, &lines)?;
            return self.send_updates();
        }
        let claim = self.claim(&lines);
        let confirmed = self.confirm_by_key(claim.as_ref())?;
        if lines.is_empty() {
            if !confirmed {
                self.item(
                    &texts::say("mail.nothing", ()),
                    Answer::Refused(texts::say("mail.no_command", ())),
                );
            }
            return Ok(());
        }
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
        // Prose not yet listed: it is answered after the orders around it,
        // which are played together, and the reply puts every answer back
        // in the mail's order (`Work::item`).
        let mut prose: Vec<lines::Ignored> = Vec::new();
        let mut read_any = false;
        let readings: Vec<lines::Reading> = lines.iter().map(|l| reader.read(l)).collect();
        let readings = self.answers_in_words(&reader, &lines, readings)?;
        let cheers = self.cheers(&reader, &lines, &readings);
        // The last line read as an order: the end of the mail comes after
        // it, and closes a turn of many orders only then (`MailTurn`), not
        // after each group of lines played together.
        let last_order = readings
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                !cheers.contains(i)
                    && matches!(r, lines::Reading::Order(_) | lines::Reading::Mixed(_))
            })
            .map(|(i, _)| i)
            .next_back();
        self.remember_what_was_seen(&readings)?;
        let gave_orders = self.gave_orders(&readings);
        for ((index, written), reading) in lines.iter().enumerate().zip(readings) {
            let reading = if cheers.contains(&index) {
                lines::Reading::Prose {
                    hint: None,
                    remark: None,
                }
            } else {
                reading
            };
            let (command, text, alone) = match reading {
                lines::Reading::Prose { hint, remark } => {
                    if written.chars().any(char::is_alphanumeric) {
                        prose.push(lines::Ignored {
                            at: index,
                            line: written.to_string(),
                            hint,
                            remark,
                        });
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
                let answer = texts::say(
                    "mail.not_read",
                    minijinja::context! {
                        left => left,
                        most => self.config.service.max_commands_per_mail,
                    },
                );
                self.item(&texts::say("mail.rest", ()), Answer::Refused(answer));
                break;
            }
            // Each line read is echoed as written: the same text read
            // from two lines (`pass` alone, and in a sentence) is
            // answered for each in turn.
            self.written
                .entry(text.clone())
                .or_default()
                .push_back((index, written.to_string()));
            let line = text.as_str();
            if (alone || !matches!(command, Command::Order(_))) && !orders.is_empty() {
                self.more_orders_follow = last_order.is_some_and(|last| last >= index);
                self.orders(&std::mem::take(&mut orders), claim.as_ref())?;
            }
            if orders.is_empty() {
                self.ignore(&mut prose);
            }
            if alone {
                self.more_orders_follow = last_order.is_some_and(|last| last > index);
                let was = self.halted;
                self.orders(std::slice::from_ref(&text), claim.as_ref())?;
                // A line read on its own that names no square ("Stay
                // safe!") is talk shaped like an order: its refusal leaves
                // the orders after it alone. One that names what it acts
                // on was play: the lines after it assumed it was taken.
                if !reader.names_a_square(written) {
                    self.halted = was;
                }
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
                | Command::GamesPublic
                | Command::Ratings(_)
                | Command::Rating(_)
                | Command::History
                | Command::Board
                | Command::BoardAll
                | Command::PlayOfTheDay(_)
                    if !self.answered.insert(format!("{command:?}")) =>
                {
                    self.item(line, Answer::Done(texts::say("mail.answered_once", ())));
                }
                Command::Help => self.help(line)?,
                Command::HelpRules(game) => {
                    self.help_rules(line, game.as_deref(), claim.as_ref())?
                }
                Command::Games => self.games(line)?,
                // Anyone may ask these, as GAMES: no key is needed.
                Command::GamesPublic => self.games_public(line)?,
                Command::Watch(game) => self.watch(line, game)?,
                Command::PlayOfTheDay(ask) => self.play_of_the_day(line, ask)?,
                Command::Vote(order) => self.vote(line, &order, claim.as_ref())?,
                Command::Unwatch(game) => self.unwatch(line, game)?,
                Command::Ratings(kind) => self.ratings(line, kind.as_deref())?,
                Command::Rating(who) => self.rating(line, who.as_deref())?,
                Command::New {
                    game,
                    opponent,
                    side,
                    first,
                    scenario,
                    days,
                    clock,
                    timeout,
                    moderator,
                    public,
                    rated,
                    computer,
                } => self.new_game(
                    line,
                    &game,
                    &opponent,
                    Sides {
                        mine: side.as_deref(),
                        first: first.as_deref(),
                        scenario: scenario.as_deref(),
                    },
                    TimeControl {
                        days,
                        clock,
                        timeout,
                        moderator,
                    },
                    Terms {
                        public,
                        rated,
                        computer,
                    },
                )?,
                // A change to a player needs the player's key, as an order
                // does: a bare From is easily forged.
                Command::SetDigest(_)
                | Command::SetTimezone(_)
                | Command::Vacation(_)
                | Command::SetReminders(_)
                | Command::SetPictures(_)
                    if !self.holds_a_key(line, claim.as_ref())? => {}
                Command::SetDigest(on) => self.set_digest(line, on)?,
                Command::SetTimezone(zone) => self.set_timezone(line, &zone)?,
                Command::Vacation(span) => self.vacation(line, span)?,
                Command::BadVacation(why) => self.item(
                    line,
                    Answer::NotUnderstood(texts::say(
                        "mail.not_understood",
                        minijinja::context! { why => why },
                    )),
                ),
                Command::SetReminders(on) => self.set_reminders(line, on)?,
                Command::SetPictures(on) => self.set_pictures(line, on)?,
                Command::BadNew(why) => self.item(
                    line,
                    Answer::NotUnderstood(texts::say(
                        "mail.not_understood",
                        minijinja::context! { why => why },
                    )),
                ),
                Command::ConfirmAddress(code) => self.confirm_address(line, &code)?,
                other => {
                    if let Some((game, seat)) = self.authenticate(line, claim.as_ref())? {
                        self.game_command(line, other, game, seat)?;
                    }
                }
            }
        }
        if !orders.is_empty() {
            self.more_orders_follow = false;
            self.orders(&orders, claim.as_ref())?;
        }
        self.ignore(&mut prose);
        if !read_any && !confirmed {
            self.parts
                .push(texts::wrap(&texts::say("mail.no_command", ())));
        }
        if !read_any || !gave_orders {
            self.question_again()?;
        }
        // One mail to each seat for all the mail's lines.
        self.send_updates()
    }

    /// The mail's readings, each line found prose asked again of the game
    /// when the game waits for the writer's answer to a question (B7:
    /// `stand`, `no card`, `I'll play Fortune of War`), or when it is an
    /// exclamation with a verb (`Charge Tanner's Ford!`): a line the game
    /// reads (taken, or refused with its rule) is an order; one it cannot
    /// read stays prose, ignored.
    fn answers_in_words(
        &self,
        reader: &lines::LineReader,
        lines: &[&str],
        readings: Vec<lines::Reading>,
    ) -> Result<Vec<lines::Reading>> {
        let Some((game, _)) = &self.game else {
            return Ok(readings);
        };
        if game.status != GameStatus::Active {
            return Ok(readings);
        }
        let answering = self.answering();
        let asks = |line: &str, reading: &lines::Reading| {
            matches!(reading, lines::Reading::Prose { remark: None, .. })
                && line.chars().any(char::is_alphabetic)
                && (answering || reader.exclaims_a_verb(line))
        };
        if !lines.iter().zip(&readings).any(|(l, r)| asks(l, r)) {
            return Ok(readings);
        }
        let state = self.state(game)?;
        Ok(lines
            .iter()
            .zip(readings)
            .map(|(line, reading)| {
                let read = || match state.read_order(line) {
                    Ok(_) => true,
                    Err(r) => !r.is_unreadable(),
                };
                if asks(line, &reading) && read() {
                    lines::Reading::Mixed(line.trim().to_string())
                } else {
                    reading
                }
            })
            .collect())
    }

    /// Whether the mail holds a line of play for its game.
    fn gave_orders(&self, readings: &[lines::Reading]) -> bool {
        readings
            .iter()
            .any(|r| matches!(r, lines::Reading::Order(_) | lines::Reading::Mixed(_)))
    }

    /// When the mail's game still waits for the writer's answer to a
    /// question (B7) after a mail without a line of play: the question
    /// again, with the answers it takes.
    fn question_again(&mut self) -> Result<()> {
        if !self.answering() {
            return Ok(());
        }
        let Some((game, seat)) = self.game.clone() else {
            return Ok(());
        };
        // A board sent with this reply carries the question already.
        if self.board_shown.contains(&game.id) {
            return Ok(());
        }
        let state = self.state(&game)?;
        let asked = state.choices(seat.seat);
        if !asked.trim().is_empty() {
            self.parts.push(texts::wrap(&texts::say(
                "mail.question_pending",
                minijinja::context! { question => asked.trim_end() },
            )));
        }
        Ok(())
    }

    /// The lines that are an order's verb alone, exclaimed (`Charge!`), in
    /// a mail that also carries an order naming a square (`ATTACK B1R
    /// G1L`): conversation, not orders. Read as an order, such a verb is
    /// completed from the only legal one, or refused, and either spends or
    /// voids the real order below it. Unless the writer is answering out of
    /// their turn (a defence, a retreat), where a lone `Stand!` or
    /// `Retreat!` is the answer itself.
    fn cheers(
        &self,
        reader: &lines::LineReader,
        lines: &[&str],
        readings: &[lines::Reading],
    ) -> Vec<usize> {
        let names_a_square = readings.iter().any(|r| {
            matches!(r, lines::Reading::Order(t) | lines::Reading::Mixed(t)
                if reader.names_a_square(t))
        });
        if !names_a_square || self.answering() {
            return Vec::new();
        }
        lines
            .iter()
            .zip(readings)
            .enumerate()
            .filter(|(_, (line, reading))| {
                matches!(reading, lines::Reading::Order(_) | lines::Reading::Mixed(_))
                    && reader.exclaimed_verb(line)
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Keeps the position of the mail's game before any of its lines is
    /// answered, when the mail carries orders and asks about a unit's
    /// choices too: HELP MOVES answers for the position its writer saw.
    fn remember_what_was_seen(&mut self, readings: &[lines::Reading]) -> Result<()> {
        let orders = readings
            .iter()
            .any(|r| matches!(r, lines::Reading::Order(_) | lines::Reading::Mixed(_)));
        let asks = readings.iter().any(|r| {
            matches!(
                r,
                lines::Reading::Command {
                    command: Command::HelpMoves(_),
                    ..
                }
            )
        });
        if let (true, true, Some((game, _))) = (orders, asks, &self.game) {
            let position = self.state(game)?.position();
            self.seen.insert(game.id, position);
        }
        Ok(())
    }

    /// Whether the mail's game waits for the writer's seat in a decision
    /// that is not a part of its own turn (a defence, a retreat, a
    /// reaction).
    fn answering(&self) -> bool {
        self.game.as_ref().is_some_and(|(game, seat)| {
            super::game::pending_of(game).is_some_and(|p| p.seat == seat.seat && !p.phase.is_turn())
        })
    }

    /// A command about the game the mail's key names, for its seat: what
    /// an invitation or a game over allows, else the command's own job.
    pub(super) fn game_command(
        &mut self,
        line: &str,
        command: Command,
        game: GameRow,
        seat: SeatRow,
    ) -> Result<()> {
        let offered_to_me = game.draw_offer == Some(seat.seat.other());
        match (command, game.status) {
            (Command::Accept, GameStatus::Invited) if seat.seat != game.inviter_seat => {
                self.accept(line, &game, &seat)
            }
            (Command::Decline, GameStatus::Invited) if seat.seat != game.inviter_seat => {
                self.decline(line, &game, &seat)
            }
            (Command::Accept | Command::Decline, GameStatus::Invited) => {
                self.not_yours_to_answer(line);
                Ok(())
            }
            (_, GameStatus::Invited) => {
                self.not_begun(line, &game);
                Ok(())
            }
            // A finished game can still be read: its record and its
            // final board.
            (command, status)
                if status != GameStatus::Active
                    && !matches!(
                        command,
                        Command::History | Command::Board | Command::BoardAll | Command::HelpBoard
                    ) =>
            {
                self.not_active(line, &game, &seat);
                Ok(())
            }
            (Command::ClaimWin, _) => self.claim_win(line, &game, &seat),
            (Command::Moderator(text), _) => self.ask_moderators(line, &text, &game, &seat),
            (Command::Board, _) => self.board(line, &game, &seat),
            (Command::BoardAll, _) => self.board_all(line, &game, &seat),
            (Command::CancelIf(words), _) => self.cancel_answers(line, &words, &game, &seat),
            (Command::Say(text), _) => self.pass_message(line, &text, &game, &seat),
            (Command::Seed(words), _) => self.seed_words(line, &words, &game, &seat),
            (Command::SetAddress(new), _) => self.set_address(line, &new, &game, &seat),
            (Command::HelpBoard, _) => self.help_board(line, &game, &seat),
            (Command::HelpMoves(square), _) => self.help_moves(line, &square, &game),
            (Command::History, _) => self.history(line, &game, &seat),
            (Command::Resign, _) => self.resign(line, &game, &seat),
            (Command::OfferDraw, _) => self.offer_draw(line, &game, &seat),
            (Command::AcceptDraw, _) if offered_to_me => self.accept_draw(line, &game, &seat),
            (Command::DeclineDraw, _) if offered_to_me => self.decline_draw(line, &game, &seat),
            (Command::AcceptDraw | Command::DeclineDraw, _) => {
                self.no_draw_offer(line);
                Ok(())
            }
            // In a game under way ACCEPT/DECLINE mean nothing but DECLINE
            // may answer a second chance: an order line.
            (Command::Accept | Command::Decline, _) => {
                self.orders_for(&[line.to_string()], game, seat)
            }
            (_, _) => {
                self.item(
                    line,
                    Answer::NotUnderstood(texts::say(
                        "mail.not_understood_here",
                        // The command as the player wrote it, never Rust's
                        // form of it.
                        minijinja::context! {
                            command => line.split_whitespace().next().unwrap_or_default().to_ascii_uppercase()
                        },
                    )),
                );
                Ok(())
            }
        }
    }
}
