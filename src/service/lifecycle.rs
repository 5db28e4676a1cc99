//! A game's life after its invitation (`invitation.rs`): begun or
//! declined (ACCEPT, DECLINE), ended by a resignation, a draw agreed or a
//! win claimed on time; and a player's call for a moderator (MODERATOR).

use super::clock::claims;
use super::game::load;
use super::notices::{moderators_of, queue_notice};
use super::reply::Answer;
use super::work::Work;
use super::{texts, Result};
use crate::games::{Game, GameOptions};
use crate::store::{seat_text, GameRow, SeatRow};

impl Work<'_> {
    /// `CLAIM WIN`: the opponent's time ran out (past the grace period) and
    /// the policy lets the waiting player claim the game.
    pub(super) fn claim_win<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let deadline = self.tx.deadline(game.id)?;
        let claimable = claims(self.tx, self.config, game.id)?;
        match deadline {
            Some(d) if d.timed_out && d.seat != seat.seat && claimable => {
                let loser = G::seat_name(d.seat);
                let text = format!(
                    "{} claimed the win: {loser} did not act by {}",
                    G::seat_name(seat.seat),
                    d.at
                );
                self.tx.add_entry(
                    game.id,
                    "comment",
                    None,
                    &text,
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx.add_entry(
                    game.id,
                    "adjudicate",
                    Some(seat.seat),
                    seat_text(seat.seat),
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx.finish(
                    game.id,
                    seat_text(seat.seat),
                    &format!("{loser} ran out of time"),
                    self.at,
                )?;
                self.tx.set_deadline(game.id, None)?;
                self.item(
                    line,
                    Answer::Done(format!(
                        "You win game {}: {loser} ran out of time.",
                        game.id
                    )),
                );
                let state = self.state::<G>(game)?;
                let game = self.reload(game.id)?;
                self.broadcast(&game, &state, &[], Some(seat.seat))?;
            }
            Some(d) if d.seat != seat.seat && !d.timed_out => self.item(
                line,
                Answer::Refused(format!(
                    "Refused: {} still has time (deadline {} and the grace period after it).",
                    G::seat_name(d.seat),
                    d.at
                )),
            ),
            _ if !claimable => self.item(
                line,
                Answer::Refused(
                    "Refused: on this server a game whose time ran out goes to the moderators."
                        .into(),
                ),
            ),
            _ => self.item(
                line,
                Answer::Refused(
                    "Refused: there is no run-out time of the other player to claim.".into(),
                ),
            ),
        }
        Ok(())
    }

    /// `ACCEPT` of an invitation by the player invited: the game begins.
    pub(super) fn accept<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let side = G::seat_name(seat.seat);
        self.tx.set_status(game.id, "active", self.at)?;
        let state = G::new(&GameOptions {
            first: game.first_seat,
            seed: None,
        });
        self.tx
            .set_position(game.id, &state.position(), 0, self.at)?;
        self.refresh_deadline(game.id, &state)?;
        self.item(
            line,
            Answer::Done(format!("Game {} begins; you play {side}.", game.id)),
        );
        let game = self.reload(game.id)?;
        self.broadcast(&game, &state, &[], Some(seat.seat))
    }

    /// `DECLINE` of an invitation by the player invited.
    pub(super) fn decline(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        self.tx.set_status(game.id, "declined", self.at)?;
        self.item(
            line,
            Answer::Done(format!("You declined game {}.", game.id)),
        );
        self.notify_other(
            game,
            seat.seat,
            format!("{} declined game {}.", self.sender, game.id),
        )
    }

    /// `ACCEPT` or `DECLINE` by the inviter of their own invitation.
    pub(super) fn not_yours_to_answer(&mut self, line: &str) {
        self.item(
            line,
            Answer::Refused(
                "Refused: the invitation is for the other player; wait for their answer.".into(),
            ),
        );
    }

    /// Any other command about a game still invited.
    pub(super) fn not_begun(&mut self, line: &str, game: &GameRow) {
        self.item(
            line,
            Answer::Refused(format!(
                "Refused: game {} has not begun: the invitation is still open.",
                game.id
            )),
        );
    }

    /// A command that needs a game under way, about one that is over (or
    /// declined, or expired): refused, with the game as it stands.
    pub(super) fn not_active<G: Game>(&mut self, line: &str, game: &GameRow, seat: &SeatRow) {
        self.item(
            line,
            Answer::Refused(format!("Refused: game {} is {}.", game.id, game.status)),
        );
        if let Some(state) = load::<G>(game) {
            self.parts
                .push(self.update_text(game, &state, seat.seat, &[]));
        }
    }

    /// `RESIGN`: the other seat wins.
    pub(super) fn resign<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let side = G::seat_name(seat.seat);
        let winner = seat.seat.other();
        self.tx.add_entry(
            game.id,
            "resign",
            Some(seat.seat),
            "RESIGNS",
            line,
            Some(self.message_id),
            self.at,
            &[],
        )?;
        self.tx.finish(
            game.id,
            seat_text(winner),
            &format!("{side} resigned"),
            self.at,
        )?;
        self.item(
            line,
            Answer::Done(format!(
                "You resigned game {}. {} wins.",
                game.id,
                G::seat_name(winner)
            )),
        );
        let state = self.state::<G>(game)?;
        let game = self.reload(game.id)?;
        self.broadcast(&game, &state, &[], Some(seat.seat))
    }

    /// `OFFER DRAW`: the other player may accept or decline it (an order
    /// declines it too).
    pub(super) fn offer_draw<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let side = G::seat_name(seat.seat);
        self.tx.set_draw_offer(game.id, Some(seat.seat))?;
        self.item(
            line,
            Answer::Done("Draw offered; the other player may ACCEPT DRAW or DECLINE DRAW.".into()),
        );
        self.notify_other(game, seat.seat, format!(
            "{side} offers a draw in game {}. Write ACCEPT DRAW or DECLINE DRAW (or play on: an order declines it).",
            game.id
        ))
    }

    /// `ACCEPT DRAW` of the other player's offer: the game ends drawn.
    pub(super) fn accept_draw<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        self.tx.add_entry(
            game.id,
            "draw",
            Some(seat.seat),
            "DRAW AGREED",
            line,
            Some(self.message_id),
            self.at,
            &[],
        )?;
        self.tx.finish(game.id, "draw", "draw agreed", self.at)?;
        self.item(
            line,
            Answer::Done(format!("Draw agreed: game {} is over.", game.id)),
        );
        let state = self.state::<G>(game)?;
        let game = self.reload(game.id)?;
        self.broadcast(&game, &state, &[], Some(seat.seat))
    }

    /// `DECLINE DRAW` of the other player's offer: play goes on.
    pub(super) fn decline_draw<G: Game>(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let side = G::seat_name(seat.seat);
        self.tx.set_draw_offer(game.id, None)?;
        self.item(line, Answer::Done("Draw declined; play goes on.".into()));
        self.notify_other(
            game,
            seat.seat,
            format!("{side} declines the draw in game {}.", game.id),
        )
    }

    /// `ACCEPT DRAW` or `DECLINE DRAW` with no offer from the other player.
    pub(super) fn no_draw_offer(&mut self, line: &str) {
        self.item(
            line,
            Answer::Refused(
                "Refused: there is no draw offer from the other player to answer.".into(),
            ),
        );
    }

    /// `MODERATOR text`: the game is marked disputed and its moderators are
    /// asked, by mail.
    pub(super) fn ask_moderators<G: Game>(
        &mut self,
        line: &str,
        text: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let side = G::seat_name(seat.seat);
        self.tx.set_disputed(game.id, Some(text))?;
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
                game,
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
        self.item(line, Answer::Done(answer.into()));
        Ok(())
    }
}
