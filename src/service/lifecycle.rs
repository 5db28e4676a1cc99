//! A game's life after its invitation (`invitation.rs`): begun or
//! declined (ACCEPT, DECLINE), ended by a resignation, a draw agreed or a
//! win claimed on time; and a player's call for a moderator (MODERATOR).

use super::clock::claims;
use super::game::{hosted_of, load, side_name};
use super::notices::{moderators_of, queue_notice};
use super::ratings::finish;
use super::reply::Answer;
use super::work::Work;
use super::{texts, Result};
use crate::games::{GameOptions, GameResult};
use crate::store::{result_text, EntryKind, GameRow, GameStatus, SeatRow};

impl Work<'_> {
    /// `CLAIM WIN`: the opponent's time ran out (past the grace period) and
    /// the policy lets the waiting player claim the game.
    pub(super) fn claim_win(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let deadline = self.tx.deadline(game.id)?;
        let claimable = claims(self.tx, self.config, game.id)?;
        match deadline {
            Some(d) if d.timed_out && d.seat != seat.seat && claimable => {
                let loser = side_name(game, d.seat);
                let text = texts::say(
                    "game.win_claimed",
                    minijinja::context! {
                        winner => side_name(game, seat.seat),
                        loser => loser,
                        deadline => d.at.to_string(),
                    },
                );
                self.tx.add_entry(
                    game.id,
                    EntryKind::Comment,
                    None,
                    &text,
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                self.tx.add_entry(
                    game.id,
                    EntryKind::Adjudicate,
                    Some(seat.seat),
                    result_text(GameResult::Win(seat.seat)),
                    line,
                    Some(self.message_id),
                    self.at,
                    &[],
                )?;
                finish(
                    self.tx,
                    self.config,
                    game.id,
                    GameResult::Win(seat.seat),
                    &texts::say(
                        "game.ended_out_of_time",
                        minijinja::context! { loser => loser },
                    ),
                    self.at,
                )?;
                self.tx.set_deadline(game.id, None)?;
                self.item(
                    line,
                    Answer::Done(texts::say(
                        "game.won_on_time",
                        minijinja::context! { game => game.id, loser => loser },
                    )),
                );
                self.broadcast(game, &[], Some(seat.seat))?;
            }
            Some(d) if d.seat != seat.seat && !d.timed_out => self.item(
                line,
                Answer::Refused(texts::say(
                    "game.still_has_time",
                    minijinja::context! { side => side_name(game, d.seat), deadline => d.at.to_string() },
                )),
            ),
            _ if !claimable => self.item(
                line,
                Answer::Refused(texts::say("game.claims_go_to_moderators", ())),
            ),
            _ => self.item(
                line,
                Answer::Refused(texts::say("game.nothing_to_claim", ())),
            ),
        }
        Ok(())
    }

    /// `ACCEPT` of an invitation by the player invited: the game begins.
    pub(super) fn accept(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let side = side_name(game, seat.seat);
        self.tx.set_status(game.id, GameStatus::Active, self.at)?;
        let mut state = (hosted_of(game)?.new)(&GameOptions {
            first: game.first_seat,
            seed: game.seed,
            scenario: game.scenario.clone(),
        });
        // A game that opens with a draw of chance makes it now, mixing in
        // this mail (docs/dice.md); other games draw nothing.
        let happened = self.draw_chance(state.as_mut(), game, seat.seat)?;
        let count = self.tx.entry_count(game.id)?;
        self.tx
            .set_position(game.id, &state.position(), count, self.at)?;
        self.refresh_deadline(game.id, state.as_ref())?;
        self.item(
            line,
            Answer::Done(texts::say(
                "game.begins",
                minijinja::context! { game => game.id, side => side },
            )),
        );
        self.broadcast(game, &happened, Some(seat.seat))
    }

    /// `DECLINE` of an invitation by the player invited.
    pub(super) fn decline(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        self.tx.set_status(game.id, GameStatus::Declined, self.at)?;
        self.item(
            line,
            Answer::Done(texts::say(
                "game.declined",
                minijinja::context! { game => game.id },
            )),
        );
        self.notify_other(
            game,
            seat.seat,
            texts::say(
                "game.declined_notice",
                minijinja::context! { player => self.sender, game => game.id },
            ),
        )
    }

    /// `ACCEPT` or `DECLINE` by the inviter of their own invitation.
    pub(super) fn not_yours_to_answer(&mut self, line: &str) {
        self.item(
            line,
            Answer::Refused(texts::say("game.not_yours_to_answer", ())),
        );
    }

    /// Any other command about a game still invited.
    pub(super) fn not_begun(&mut self, line: &str, game: &GameRow) {
        self.item(
            line,
            Answer::Refused(texts::say(
                "game.not_begun",
                minijinja::context! { game => game.id },
            )),
        );
    }

    /// A command that needs a game under way, about one that is over (or
    /// declined, or expired): refused, with the game as it stands.
    pub(super) fn not_active(&mut self, line: &str, game: &GameRow, seat: &SeatRow) {
        self.item(
            line,
            Answer::Refused(texts::say(
                "game.not_active",
                minijinja::context! { game => game.id, status => game.status.to_string() },
            )),
        );
        if let Some(state) = load(game) {
            self.parts
                .push(self.update_text(game, state.as_ref(), seat.seat, &[]));
        }
    }

    /// `RESIGN`: the other seat wins.
    pub(super) fn resign(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let side = side_name(game, seat.seat);
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
        finish(
            self.tx,
            self.config,
            game.id,
            GameResult::Win(winner),
            &texts::say("game.ended_resigned", minijinja::context! { side => side }),
            self.at,
        )?;
        self.item(
            line,
            Answer::Done(texts::say(
                "game.resigned",
                minijinja::context! { game => game.id, winner => side_name(game, winner) },
            )),
        );
        self.broadcast(game, &[], Some(seat.seat))
    }

    /// `OFFER DRAW`: the other player may accept or decline it (an order
    /// declines it too).
    pub(super) fn offer_draw(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let side = side_name(game, seat.seat);
        self.tx.set_draw_offer(game.id, Some(seat.seat))?;
        self.item(line, Answer::Done(texts::say("game.draw_offered", ())));
        self.notify_other(
            game,
            seat.seat,
            texts::say(
                "game.draw_offer_notice",
                minijinja::context! { side => side, game => game.id },
            ),
        )
    }

    /// `ACCEPT DRAW` of the other player's offer: the game ends drawn.
    pub(super) fn accept_draw(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
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
        let ended = texts::say("game.ended_draw_agreed", ());
        finish(
            self.tx,
            self.config,
            game.id,
            GameResult::Draw,
            &ended,
            self.at,
        )?;
        self.item(
            line,
            Answer::Done(texts::say(
                "game.draw_agreed",
                minijinja::context! { game => game.id },
            )),
        );
        self.broadcast(game, &[], Some(seat.seat))
    }

    /// `DECLINE DRAW` of the other player's offer: play goes on.
    pub(super) fn decline_draw(
        &mut self,
        line: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let side = side_name(game, seat.seat);
        self.tx.set_draw_offer(game.id, None)?;
        self.item(line, Answer::Done(texts::say("game.draw_declined", ())));
        self.notify_other(
            game,
            seat.seat,
            texts::say(
                "game.draw_declined_notice",
                minijinja::context! { side => side, game => game.id },
            ),
        )
    }

    /// `ACCEPT DRAW` or `DECLINE DRAW` with no offer from the other player.
    pub(super) fn no_draw_offer(&mut self, line: &str) {
        self.item(line, Answer::Refused(texts::say("game.no_draw_offer", ())));
    }

    /// `MODERATOR text`: the game is marked disputed and its moderators are
    /// asked, by mail.
    pub(super) fn ask_moderators(
        &mut self,
        line: &str,
        text: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let side = side_name(game, seat.seat);
        self.tx.set_disputed(game.id, Some(text))?;
        let body = texts::wrap(&texts::say(
            "game.moderator_asked",
            minijinja::context! {
                player => self.sender,
                side => side,
                game => game.id,
                text => text,
            },
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
            texts::say("game.no_moderator_yet", ())
        } else {
            texts::say("game.moderators_asked", ())
        };
        self.item(line, Answer::Done(answer));
        Ok(())
    }
}
