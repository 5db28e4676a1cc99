//! Orders: the lines of a mail given to the game of its key, several to a
//! line, played for the seat whose turn it is; lines held for the second
//! half of a double turn; each taken order recorded and echoed, each
//! refusal with its rule and the nearest legal orders.

use super::game::{load, pending_of, side_name};
use super::identity::Claim;
use super::in_advance::split_answers_in_advance;
use super::reply::Answer;
use super::texts::{self, sentence};
use super::work::Work;
use super::Result;
use crate::games::submission::{
    after_refusal, release, submit, submit_after_draw, submit_until_turn, Submission,
};
use crate::games::{AnyGame, Happened, Phase, Rejection, Seat};
use crate::store::{EntryKind, GameRow, GameStatus, SeatRow};

impl Work<'_> {
    /// Order lines in a row: given to the game of the mail's key, if it
    /// is under way.
    pub(super) fn orders(&mut self, lines: &[String], claim: Option<&Claim>) -> Result<()> {
        // A reply with a Play of the Day member's key: its order lines
        // are votes (a player who bottom-posts `B1C-B2C` means VOTE).
        if self.member_of(claim)?.is_some() {
            for line in lines {
                self.vote(line, line, claim)?;
            }
            return Ok(());
        }
        let first = lines[0].clone();
        if let Some((game, seat)) = self.authenticate(&first, claim)? {
            if game.status != GameStatus::Active {
                for l in lines {
                    self.item(
                        l,
                        Answer::Refused(texts::say(
                            "orders.game_not_active",
                            minijinja::context! { game => game.id, status => game.status.to_string() },
                        )),
                    );
                }
                return Ok(());
            }
            self.orders_for(lines, game, seat)?;
        }
        Ok(())
    }

    /// Order lines for `seat` of `game`: played if it is the seat's turn,
    /// with the lines held from earlier mails and the answers given in
    /// advance; the update goes to both seats.
    pub(super) fn orders_for(
        &mut self,
        lines: &[String],
        game: GameRow,
        seat: SeatRow,
    ) -> Result<()> {
        let mut state = self.state(&game)?;
        let position_before = state.position();
        let taken_before = self.taken;
        // Several orders may share a line, `;` between them; answers given
        // in advance (IF ...) are kept aside, whoever's turn it is.
        let (lines, ifs) = split_answers_in_advance(lines);
        // A game whose turn is many orders ends it with the mail, unless
        // the mail's last line keeps it open (`GameText::MAIL_TURN`).
        let mail_turn = state.hosted().mail_turn;
        let keep_word = mail_turn.map(|m| m.keep_open);
        let keep_open = state.pending().is_some_and(|p| p.seat == seat.seat)
            && mail_turn.is_some_and(|m| {
                lines
                    .last()
                    .is_some_and(|l| l.trim().eq_ignore_ascii_case(m.keep_open))
            });
        let more = keep_open.then(|| lines[lines.len() - 1].clone());
        let lines = &lines[..lines.len() - usize::from(keep_open)];
        // The first refused line of play stops the mail (`submission`),
        // whatever group its later lines fall in.
        if self.halted && !lines.is_empty() {
            let s = after_refusal(state.as_mut(), seat.seat, lines);
            self.record_submission(&game, seat.seat, &s, true)?;
            if !s.taken.is_empty() {
                let count = self.tx.entry_count(game.id)?;
                self.tx
                    .set_position(game.id, &state.position(), count, self.at)?;
            }
            return Ok(());
        }
        let mut given_now = Vec::new();
        if !ifs.is_empty() {
            given_now = self.give_answers_in_advance(state.as_ref(), &game, &seat, &ifs)?;
        }
        // An earlier group of this mail left the other seat reacting in the
        // writer's turn: these lines wait with the others (R4, B7).
        let reacting = state
            .pending()
            .is_some_and(|p| p.seat != seat.seat && !p.phase.is_turn());
        if reacting && self.reacting.contains(&game.id) && !lines.is_empty() {
            let held = self
                .tx
                .seats(game.id)?
                .into_iter()
                .find(|s| s.seat == seat.seat)
                .map(|s| s.held)
                .unwrap_or_default();
            // This mail's end (with its `MORE`, if written) is the one
            // that travels with the held lines now.
            let (mut held, _) = split_more(&held, keep_word);
            for l in lines {
                match state.play_standing(seat.seat, l) {
                    Some(Ok((order, events))) => {
                        self.take_standing(&game, seat.seat, l, &order, &events)?;
                    }
                    _ => {
                        held.push(l.clone());
                        self.echo_held(l);
                    }
                }
            }
            self.tx.set_held(game.id, seat.seat, &held)?;
            let count = self.tx.entry_count(game.id)?;
            self.tx
                .set_position(game.id, &state.position(), count, self.at)?;
            return Ok(());
        }
        let refused_all = match state.pending() {
            _ if lines.is_empty() => false,
            Some(p) if p.seat != seat.seat => {
                let mut standing = false;
                for l in lines {
                    // A standing order (B5 of Brothers at War) is taken
                    // whoever decides; it is recorded as the seat's own.
                    match state.play_standing(seat.seat, l) {
                        Some(Ok((order, events))) => {
                            self.take_standing(&game, seat.seat, l, &order, &events)?;
                            standing = true;
                            continue;
                        }
                        Some(Err(r)) => {
                            self.refuse(l, &r);
                            continue;
                        }
                        None => {}
                    }
                    let mut answer = texts::say(
                        "orders.not_your_turn",
                        minijinja::context! {
                            game => game.id,
                            side => state.seat_name(p.seat),
                            decision => p.kind.to_string(),
                        },
                    );
                    if let Some(other) = self.fits_another_game(l) {
                        answer.push(' ');
                        answer.push_str(&texts::say(
                            "orders.legal_elsewhere",
                            minijinja::context! { game => other },
                        ));
                    }
                    self.item(l, Answer::Refused(answer));
                }
                if standing {
                    let count = self.tx.entry_count(game.id)?;
                    self.tx
                        .set_position(game.id, &state.position(), count, self.at)?;
                }
                true
            }
            None => {
                for l in lines {
                    self.item(
                        l,
                        Answer::Refused(texts::say(
                            "orders.game_over",
                            minijinja::context! { game => game.id },
                        )),
                    );
                }
                true
            }
            Some(_) => false,
        };
        if refused_all {
            // Nothing of this mail was played: unless an attack is under way
            // already, its answers for "this mail's attack" answer nothing.
            if state.pending().is_none_or(|p| p.phase.is_turn()) {
                self.forget_answers_given_now(&game, &seat, &given_now)?;
            }
            return Ok(());
        }
        // Lines held from an earlier mail of this seat wait for the attack
        // that this mail may end: they are played the moment the seat's turn
        // comes, before the rest of this mail (they were written first).
        let (earlier_lines, earlier_more) = split_more(&seat.held, keep_word);
        let s = if earlier_lines.is_empty() {
            submit(state.as_mut(), seat.seat, lines)
        } else {
            submit_until_turn(state.as_mut(), seat.seat, lines)
        };
        if !s.taken.is_empty() {
            self.end_vacation_early()?;
        }
        let mut happened = self.record_submission(&game, seat.seat, &s, true)?;
        // A draw of chance the game now waits for is made before anything
        // else is played (docs/dice.md); in a game without chance it is
        // nothing.
        happened.extend(self.draw_chance(state.as_mut(), &game, seat.seat)?);
        happened.extend(self.answer_in_advance(state.as_mut(), &game)?);
        let released = release(state.as_mut(), seat.seat, &earlier_lines);
        let (earlier, played) =
            self.play_through(state.as_mut(), &game, seat.seat, released, true)?;
        happened.extend(played);
        let mut held_mine = earlier.held.clone();
        held_mine.extend(s.held.iter().cloned());
        // Whether lines of this mail wait (its own end then travels with
        // them), and whether its last line of play was an earlier mail's
        // (that mail's end then says whether the turn closes).
        let mut mine_held = !s.held.is_empty();
        let mut last_from_earlier = false;
        let mut refused = s.refused.is_some() || earlier.refused.is_some();
        // A mail that ended its turn does not close the next one, even the
        // same player's (a new Brothers at War activation after a COMMANDER
        // line): it was not written for it.
        let mut finished_turn = s.finished_turn || earlier.finished_turn;
        // The turn the mail's last line of play acted in, and whether that
        // line left its order unfinished: the end of the mail closes only
        // that turn, and only a finished order's.
        let mut last_play = (s.turn, s.interrupted);
        if earlier.turn.is_some() {
            last_play = (earlier.turn, earlier.interrupted);
            last_from_earlier = true;
        }
        let rest = Submission {
            rest: s.rest.clone(),
            rest_in_first_half: s.rest_in_first_half,
            ..Submission::default()
        };
        if !earlier.held.is_empty() && !rest.rest.is_empty() {
            // The earlier lines wait again: this mail's rest waits behind.
            for l in &rest.rest {
                self.echo_held(l);
            }
            held_mine.extend(rest.rest);
            mine_held = true;
        } else {
            let (after, played) =
                self.play_through(state.as_mut(), &game, seat.seat, rest, true)?;
            happened.extend(played);
            refused |= after.refused.is_some();
            finished_turn |= after.finished_turn;
            if after.turn.is_some() {
                last_play = (after.turn, after.interrupted);
                last_from_earlier = false;
            }
            mine_held |= !after.held.is_empty();
            held_mine.extend(after.held);
        }
        // This mail may have resolved an attack the other seat's held
        // orders wait for (R4: the second half is ordered after it).
        let seats = self.tx.seats(game.id)?;
        for other in seats
            .iter()
            .filter(|o| o.seat != seat.seat && !o.held.is_empty())
        {
            let (their_lines, their_more) = split_more(&other.held, keep_word);
            let released = release(state.as_mut(), other.seat, &their_lines);
            let (r, played) =
                self.play_through(state.as_mut(), &game, other.seat, released, false)?;
            happened.extend(played);
            // Its owner hears what became of each held line: none is
            // dropped without a word.
            if let Some(words) = held_report(&game, &r) {
                self.notify(&game, other.seat, &words, None, "held");
            }
            let kept = with_more(r.held.clone(), their_more, keep_word);
            self.tx.set_held(game.id, other.seat, &kept)?;
            // The held lines were the rest of that seat's mail: its end
            // closes the turn they played in once they are all played, as
            // the end of any mail does: not a turn they ended (the next
            // one was not written for), not a move a reaction cut short
            // (B9), not a mail that ended with `MORE`.
            if r.held.is_empty()
                && r.refused.is_none()
                && !their_more
                && !r.finished_turn
                && !r.interrupted
                && r.turn == Some(state.turn_serial())
            {
                happened.extend(self.close_turn(state.as_mut(), &game, other.seat, false)?);
            }
        }
        let r = release(state.as_mut(), seat.seat, &held_mine);
        if !r.taken.is_empty() || !r.unused.is_empty() || r.refused.is_some() || !r.rest.is_empty()
        {
            let (r, played) = self.play_through(state.as_mut(), &game, seat.seat, r, true)?;
            happened.extend(played);
            refused |= r.refused.is_some();
            finished_turn |= r.finished_turn;
            if r.turn.is_some() {
                last_play = (r.turn, r.interrupted);
                last_from_earlier &= !mine_held;
            }
            held_mine = r.held;
        }
        let held_more = if mine_held { keep_open } else { earlier_more };
        let kept = with_more(held_mine.clone(), held_more, keep_word);
        self.tx.set_held(game.id, seat.seat, &kept)?;
        if self.taken > taken_before
            && state
                .pending()
                .is_some_and(|p| p.seat != seat.seat && !p.phase.is_turn())
        {
            self.reacting.insert(game.id);
        }
        let ends_open = if last_from_earlier {
            earlier_more
        } else {
            keep_open
        };
        if held_mine.is_empty()
            && !lines.is_empty()
            && !refused
            && !ends_open
            && !finished_turn
            && !self.more_orders_follow
            && last_play.0 == Some(state.turn_serial())
            && !last_play.1
        {
            happened.extend(self.close_turn(state.as_mut(), &game, seat.seat, true)?);
        }
        if let Some(line) = &more {
            let close = mail_turn.map(|m| m.close).unwrap_or("END");
            // The close order is offered only when it would be taken now
            // (after a DEPLOY the deploying unit must first move, 5.32).
            let close = state.read_order(close).is_ok().then_some(close);
            self.item(
                line,
                Answer::Done(texts::say(
                    "orders.kept_open",
                    minijinja::context! { close => close },
                )),
            );
        }
        happened.extend(self.answer_in_advance(state.as_mut(), &game)?);
        happened.extend(self.draw_chance(state.as_mut(), &game, seat.seat)?);
        // In a game against the computer, its answer, in this mail.
        happened.extend(self.computer_plays(state.as_mut(), &game)?);
        if state.pending().is_none_or(|p| p.phase.is_turn()) {
            // No attack under way: answers for "this mail's attack" lapse.
            self.forget_answers_given_now(&game, &seat, &given_now)?;
            self.drop_answers_for_the_attack(game.id)?;
        }
        if !s.taken.is_empty() && game.draw_offer == Some(seat.seat.other()) {
            // Playing on answers a draw offer.
            self.tx.set_draw_offer(game.id, None)?;
        }
        // An order may change the position without an event to tell (END
        // UNITS moves on to the commander's step): the update still goes.
        if happened.is_empty() && state.position() == position_before {
            return Ok(());
        }
        self.keep_state(game.id, state.as_ref())?;
        let game = self.reload(game.id)?;
        // The house of the Play of the Day played: the community's vote
        // may open.
        super::daily::after_house_played(
            self.tx,
            self.config,
            self.secret,
            &game,
            state.as_ref(),
            &happened,
            self.now,
        )?;
        self.broadcast(&game, &happened, Some(seat.seat))
    }

    /// Records a submission of `seat`'s lines (echoed to the writer when
    /// `echo`), makes the draws of chance it waits for, and plays on the
    /// lines it left for after them, round by round: the whole, and what
    /// happened. No line is left untried without a word.
    pub(super) fn play_through(
        &mut self,
        state: &mut dyn AnyGame,
        game: &GameRow,
        seat: Seat,
        first: Submission,
        echo: bool,
    ) -> Result<(Submission, Vec<Happened>)> {
        let mut happened = self.record_submission(game, seat, &first, echo)?;
        happened.extend(self.draw_chance(state, game, seat)?);
        let mut all = first;
        let mut rest = std::mem::take(&mut all.rest);
        let mut in_first_half = all.rest_in_first_half;
        // Each round takes a line or stops: the lines bound the rounds.
        while !rest.is_empty() {
            let after = submit_after_draw(state, seat, &rest, in_first_half);
            in_first_half = after.rest_in_first_half;
            happened.extend(self.record_submission(game, seat, &after, echo)?);
            happened.extend(self.draw_chance(state, game, seat)?);
            let progressed = !after.taken.is_empty();
            all.absorb(after);
            rest = std::mem::take(&mut all.rest);
            if !progressed && !rest.is_empty() {
                // Still waiting for what nothing here can give: the lines
                // wait with the held ones, said so.
                if echo {
                    for l in &rest {
                        self.echo_held(l);
                    }
                }
                all.held.append(&mut rest);
            }
        }
        Ok((all, happened))
    }

    /// For a game whose turn is many orders ([`crate::games::text::MailTurn`]): the order that
    /// closes `seat`'s turn, played when its mail has ended with the turn
    /// still open (no decision inside an order pending, nothing refused);
    /// what happened. Nothing for other games.
    fn close_turn(
        &mut self,
        state: &mut dyn AnyGame,
        game: &GameRow,
        seat: Seat,
        echo: bool,
    ) -> Result<Vec<Happened>> {
        let Some(m) = state.hosted().mail_turn else {
            return Ok(Vec::new());
        };
        // A part that more parts follow, or an only part that the close
        // ends (a Brothers at War brigade without a commander: its units'
        // step; not a choice of commitment, which END UNITS is not).
        let open = state.pending().is_some_and(|p| {
            p.seat == seat
                && (p.phase.more_parts_follow()
                    || (p.phase == Phase::WHOLE_TURN && state.read_order(m.close).is_ok()))
        });
        if !open {
            return Ok(Vec::new());
        }
        let mut s = submit(state, seat, &[m.close]);
        // The line is the service's, not the player's: say so in the echo.
        for t in &mut s.taken {
            t.line = format!("(the end of your mail: {})", t.line);
        }
        let mut happened = self.record_submission(game, seat, &s, echo)?;
        happened.extend(self.draw_chance(state, game, seat)?);
        Ok(happened)
    }

    /// Records a standing order `seat` gave whoever decides (B5 of
    /// Brothers at War) as the seat's own, and echoes it as taken.
    fn take_standing(
        &mut self,
        game: &GameRow,
        seat: Seat,
        line: &str,
        order: &str,
        events: &[Happened],
    ) -> Result<()> {
        self.tx.add_entry(
            game.id,
            EntryKind::Order,
            Some(seat),
            order,
            line,
            Some(self.message_id),
            self.at,
            events,
        )?;
        self.taken += 1;
        let words: Vec<String> = events.iter().map(|e| e.text.clone()).collect();
        let answer = texts::say(
            "orders.taken",
            minijinja::context! { order => order, events => words },
        );
        self.item(line, Answer::Done(answer));
        Ok(())
    }

    /// Stores the applied orders of a submission and echoes every line;
    /// returns what happened, in words, for the update mails.
    pub(super) fn record_submission(
        &mut self,
        game: &GameRow,
        seat: Seat,
        s: &Submission,
        echo: bool,
    ) -> Result<Vec<Happened>> {
        let mut happened = Vec::new();
        if echo {
            self.taken += s.taken.len();
            self.halted |= s.refused.is_some();
        }
        for t in &s.taken {
            let events: Vec<String> = t.events.iter().map(|e| e.text.clone()).collect();
            self.tx.add_entry(
                game.id,
                EntryKind::Order,
                Some(seat),
                &t.order.to_string(),
                &t.line,
                Some(self.message_id),
                self.at,
                &t.events,
            )?;
            if echo {
                let answer = texts::say(
                    "orders.taken",
                    minijinja::context! { order => t.order.to_string(), events => events },
                );
                self.echoed.extend(events.iter().cloned());
                self.item(&t.line, Answer::Done(answer));
            }
            happened.extend(t.events.iter().cloned());
        }
        if let Some(r) = &s.refused {
            if echo {
                self.refuse(&r.line.clone(), r);
            }
        }
        if echo {
            for l in &s.held {
                self.echo_held(l);
            }
            for u in &s.unused {
                self.item(
                    &u.line,
                    Answer::Refused(texts::say(
                        "orders.not_applied",
                        minijinja::context! {
                            why => u.why.describe(Seat::BOTH.map(|s| side_name(game, s))),
                        },
                    )),
                );
            }
        }
        Ok(happened)
    }

    /// Echoes a line that waits, held, for the attack to be resolved.
    fn echo_held(&mut self, line: &str) {
        self.item(line, Answer::Done(texts::say("orders.held", ())));
    }

    /// Answers a line the game refused, with its rule, the nearest legal
    /// orders, and the game where it would be legal.
    pub(super) fn refuse(&mut self, line: &str, r: &Rejection) {
        let mut answer = texts::say(
            "orders.rejected",
            minijinja::context! {
                rule => r.rule.map(|rule| rule.to_string()),
                problem => sentence(&r.problem),
                suggestions => r.suggestions,
            },
        );
        if let Some(other) = self.fits_another_game(line) {
            answer.push('\n');
            answer.push_str(&texts::say(
                "orders.legal_elsewhere",
                minijinja::context! { game => other },
            ));
        }
        let answer = match r.rule {
            Some(_) => Answer::Refused(answer),
            None => Answer::NotUnderstood(answer),
        };
        self.item(line, answer);
    }

    /// Another active game of the sender's, waiting for the sender, in which
    /// `line` is a legal order: the game a refused line was likely meant
    /// for. Only the sender's most recent games are tried.
    pub(super) fn fits_another_game(&self, line: &str) -> Option<i64> {
        const TRIED: usize = 20;
        let current = self.game.as_ref().map(|(g, _)| g.id);
        let player = self.tx.player_id(self.sender).ok()??;
        let games = self.tx.games_of(player).ok()?;
        games
            .into_iter()
            .filter(|g| g.status == GameStatus::Active && Some(g.id) != current)
            .take(TRIED)
            .find(|g| {
                let Ok(seats) = self.tx.seats(g.id) else {
                    return false;
                };
                let mine = seats.iter().find(|s| s.player_id == player).map(|s| s.seat);
                let waits_for_me = pending_of(g).is_some_and(|p| Some(p.seat) == mine);
                waits_for_me && load(g).is_some_and(|state| state.read_order(line).is_ok())
            })
            .map(|g| g.id)
    }
}

/// What became of a seat's held lines played by the other seat's mail
/// (each line quoted, then taken, refused or not applied), for that
/// seat's next update; `None` when none was played or refused.
pub(super) fn held_report(game: &GameRow, r: &Submission) -> Option<String> {
    if r.taken.is_empty() && r.refused.is_none() && r.unused.is_empty() {
        return None;
    }
    let mut out = vec![texts::say("orders.held_played", ())];
    for t in &r.taken {
        let events: Vec<String> = t.events.iter().map(|e| e.text.clone()).collect();
        out.push(format!("> {}", t.line));
        out.push(texts::say(
            "orders.taken",
            minijinja::context! { order => t.order.to_string(), events => events },
        ));
    }
    if let Some(refused) = &r.refused {
        out.push(format!("> {}", refused.line));
        out.push(texts::say(
            "orders.rejected",
            minijinja::context! {
                rule => refused.rule.map(|rule| rule.to_string()),
                problem => sentence(&refused.problem),
                suggestions => refused.suggestions,
            },
        ));
    }
    for u in &r.unused {
        out.push(format!("> {}", u.line));
        out.push(texts::say(
            "orders.not_applied",
            minijinja::context! {
                why => u.why.describe(Seat::BOTH.map(|s| side_name(game, s))),
            },
        ));
    }
    for l in &r.held {
        out.push(format!("> {l}"));
        out.push(texts::say("orders.held", ()));
    }
    Some(out.join("\n"))
}

/// Held lines, and whether the mail they came from ended with the line
/// that keeps the turn open (`MORE`), kept after them: its end still
/// speaks when they are played.
fn split_more(held: &[String], keep_word: Option<&str>) -> (Vec<String>, bool) {
    match (held.split_last(), keep_word) {
        (Some((last, lines)), Some(word)) if last.trim().eq_ignore_ascii_case(word) => {
            (lines.to_vec(), true)
        }
        _ => (held.to_vec(), false),
    }
}

/// The held lines to store: with the keep-open line after them when their
/// mail ended with it ([`split_more`]).
fn with_more(mut held: Vec<String>, more: bool, keep_word: Option<&str>) -> Vec<String> {
    if let (true, false, Some(word)) = (more, held.is_empty(), keep_word) {
        held.push(word.to_string());
    }
    held
}
