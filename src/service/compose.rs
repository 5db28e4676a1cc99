//! The mails one mail makes orderly send to the seats besides the reply:
//! the update to both seats after the game changed, a notice to the other
//! seat, each threaded on the seat's previous mail.

use super::identity::reply_address;
use super::subject::game_subject;
use super::update::{update_text_keyed, BoardWanted};
use super::work::Work;
use super::{texts, Result};
use crate::games::{AnyGame, Happened, Seat};
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};
use crate::store::{GameRow, GameStatus, SeatRow};

impl Work<'_> {
    /// The update mail to both seats after something changed the game;
    /// the actor's copy goes into the reply.
    pub(super) fn broadcast(
        &mut self,
        game: &GameRow,
        state: &dyn AnyGame,
        happened: &[Happened],
        actor: Option<Seat>,
    ) -> Result<()> {
        // The mail that ends a game carries its whole record.
        let record = if game.status == GameStatus::Finished {
            Some(self.record(game)?.to_string())
        } else {
            None
        };
        // A game with chance reveals its seed in its last mails.
        let revealed = self.revealed_seed(game)?;
        // Messages written in this mail go with the update, first.
        let (press, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.press)
            .into_iter()
            .partition(|(g, _, _)| *g == game.id);
        self.press = rest;
        let press: String = press
            .iter()
            .map(|(_, _, words)| format!("{}\n", texts::wrap(words).trim_end()))
            .collect();
        for seat in self.tx.seats(game.id)? {
            let mine = Some(seat.seat) == actor && seat.address == self.sender;
            let told: &[String] = if mine { &self.echoed } else { &[] };
            let mut text = update_text_keyed(
                self.tx,
                game,
                state,
                seat.seat,
                happened,
                BoardWanted::usual(game),
                told,
            )
            .unwrap_or_default();
            if !mine && !press.is_empty() {
                text = format!("{press}\n{text}");
            }
            if let Some(record) = &record {
                text.push('\n');
                if let Some(revealed) = &revealed {
                    text.push_str(texts::wrap(revealed).trim_end());
                    text.push_str("\n\n");
                }
                text.push_str(&texts::say("update.record", ()));
                text.push_str("\n\n");
                text.push_str(record);
            }
            if mine {
                self.board_shown.insert(game.id);
                self.parts.push(text);
            } else {
                self.send_to(
                    game,
                    &seat,
                    game_subject(game, Some(seat.seat)),
                    text,
                    AutoKind::Generated,
                    "update",
                )?;
            }
        }
        Ok(())
    }

    /// A notice to the seats of `game` other than `from`.
    pub(super) fn notify_other(&mut self, game: &GameRow, from: Seat, text: String) -> Result<()> {
        for seat in self
            .tx
            .seats(game.id)?
            .into_iter()
            .filter(|s| s.seat != from)
        {
            self.send_to(
                game,
                &seat,
                game_subject(game, Some(seat.seat)),
                texts::wrap(&text),
                AutoKind::Generated,
                "notice",
            )?;
        }
        Ok(())
    }

    /// Queues a mail to a seat, threaded on the seat's previous mail.
    pub(super) fn send_to(
        &mut self,
        game: &GameRow,
        seat: &SeatRow,
        subject: String,
        body: String,
        auto: AutoKind,
        kind: &str,
    ) -> Result<()> {
        let n = self.outgoing.len();
        let id = message_id(
            &format!("{}/{}/{kind}/{n}", self.message_id, seat.address),
            self.domain(),
        );
        let mail = OutgoingMail {
            message_id: id,
            from: self.sender_mailbox(),
            to: seat.address.clone(),
            reply_to: Some(reply_address(
                &self.config.service.address,
                game.id,
                &seat.secret,
            )),
            subject,
            in_reply_to: seat.last_message_id.clone(),
            references: seat.last_message_id.iter().cloned().collect(),
            list_id: Some(format!("<game-{}.{}>", game.id, self.domain())),
            body,
            date: self.now,
            auto,
            return_path: None,
            text_only: false,
        };
        self.outgoing.push((mail, Some((game.id, seat.seat))));
        Ok(())
    }
}
