//! The mails one mail makes orderly send to the seats besides the reply:
//! the update to both seats after the game changed, a notice to the other
//! seat, each threaded on the seat's previous mail.
//!
//! One incoming mail makes at most one mail to each seat of a game: what
//! its lines change is owed ([`Work::broadcast`]) and what they tell a
//! seat is kept ([`Work::notify`]) until every line is answered; then
//! [`Work::send_updates`] sends each seat one update telling everything
//! that happened, headed by its notices, and the notices no update carries
//! in one mail a seat. The writer's own update goes into the reply, where
//! the first change was made.

use super::identity::reply_address;
use super::ratings::reads_no_mail;
use super::subject::game_subject;
use super::update::{update_text_keyed, BoardWanted};
use super::work::Work;
use super::{texts, Result};
use crate::config::Config;
use crate::games::{AnyGame, Happened, Seat};
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};
use crate::store::{GameRow, GameStatus, SeatRow, Tx};

/// An update this mail owes the seats of a game: everything that happened
/// in it, told once, when the mail is answered.
#[derive(Debug)]
pub(super) struct Owed {
    game: i64,
    /// The seat whose lines made the changes.
    actor: Option<Seat>,
    /// What happened, in the order it happened, over all the mail's lines.
    happened: Vec<Happened>,
    /// The writer's copy: its place among the reply's parts.
    slot: Option<usize>,
    /// Whether the game's watchers get it too: a change a player's lines
    /// made, or a moderator's action that changed the board or ended the
    /// game (not one that only moved a deadline).
    watched: bool,
}

/// Words for one seat of a game that this mail made (a notice, the
/// opponent's message): at the head of the seat's update, or in one mail
/// with the seat's other words when there is no update.
#[derive(Debug)]
pub(super) struct Notice {
    game: i64,
    seat: Seat,
    text: String,
    /// The subject of the notice alone.
    subject: String,
    /// What kind of mail it is alone (the seed of its Message-ID).
    kind: &'static str,
}

/// The board picture of `state` from `seat`, with the arrows of
/// `happened`, for a mail to `address`; none when the server sends none
/// (`[outgoing] pictures`, which needs `html`) or the reader turned theirs
/// off (SET PICTURES OFF).
pub(super) fn picture_of(
    tx: &Tx<'_>,
    config: &Config,
    state: &dyn AnyGame,
    seat: Seat,
    happened: &[Happened],
    observer: bool,
    address: &str,
) -> Result<Option<String>> {
    let outgoing = &config.outgoing;
    if !(outgoing.pictures && outgoing.html && tx.wants_pictures(address)?) {
        return Ok(None);
    }
    Ok(state.picture(seat, happened, observer))
}

impl Work<'_> {
    /// Owes the seats of `game` an update for `happened`, made by `actor`'s
    /// lines: sent once the mail is answered ([`Work::send_updates`]), with
    /// whatever else the mail's lines make happen in the game. The
    /// writer's copy takes its place in the reply now.
    pub(super) fn broadcast(
        &mut self,
        game: &GameRow,
        happened: &[Happened],
        actor: Option<Seat>,
    ) -> Result<()> {
        if let Some(owed) = self
            .owed
            .iter_mut()
            .find(|o| o.game == game.id && o.actor == actor)
        {
            owed.happened.extend_from_slice(happened);
            owed.watched |= actor.is_some();
            return Ok(());
        }
        let mine = actor.is_some()
            && self
                .tx
                .seats(game.id)?
                .iter()
                .any(|s| Some(s.seat) == actor && s.address == self.sender);
        let slot = mine.then(|| {
            // The update this mail makes carries the board.
            self.board_shown.insert(game.id);
            self.parts.push(String::new());
            self.parts.len() - 1
        });
        self.owed.push(Owed {
            game: game.id,
            actor,
            happened: happened.to_vec(),
            slot,
            watched: actor.is_some(),
        });
        Ok(())
    }

    /// The update owed for a moderator's action on `game` (owed by
    /// [`Work::broadcast`] without an actor) goes to the game's watchers
    /// too: the action changed the board or ended the game.
    pub(super) fn owe_watchers(&mut self, game: i64) {
        for owed in self.owed.iter_mut().filter(|o| o.game == game) {
            owed.watched = true;
        }
    }

    /// Sends what the mail owes: one update to each seat of each game it
    /// changed (the writer's in the reply), headed by the seat's notices,
    /// then the notices no update carried, one mail a seat and game.
    pub(super) fn send_updates(&mut self) -> Result<()> {
        for owed in std::mem::take(&mut self.owed) {
            let game = self.reload(owed.game)?;
            let state = self.state(&game)?;
            self.send_update(&game, state.as_ref(), &owed)?;
        }
        let mut notices = std::mem::take(&mut self.notices);
        while let Some(first) = notices.first() {
            let (game, seat) = (first.game, first.seat);
            let (these, rest): (Vec<Notice>, Vec<Notice>) = notices
                .into_iter()
                .partition(|n| n.game == game && n.seat == seat);
            notices = rest;
            let row = self.reload(game)?;
            let Some(seat) = self.tx.seats(game)?.into_iter().find(|s| s.seat == seat) else {
                continue;
            };
            let body = these
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let (subject, kind) = (these[0].subject.clone(), these[0].kind);
            self.send_to(&row, &seat, subject, body, AutoKind::Generated, kind)?;
        }
        Ok(())
    }

    /// The update of `owed` to each seat of `game`: the actor's copy into
    /// the reply, the others' by mail.
    fn send_update(&mut self, game: &GameRow, state: &dyn AnyGame, owed: &Owed) -> Result<()> {
        // The mail that ends a game carries its whole record.
        let record = if game.status == GameStatus::Finished {
            Some(self.record(game)?.to_string())
        } else {
            None
        };
        // A game with chance reveals its seed in its last mails.
        let revealed = self.revealed_seed(game)?;
        for seat in self.tx.seats(game.id)? {
            // The computer's seat reads no mail.
            if reads_no_mail(self.config, &seat.address) {
                continue;
            }
            let mine = Some(seat.seat) == owed.actor && seat.address == self.sender;
            let told: &[String] = if mine { &self.echoed } else { &[] };
            let mut text = update_text_keyed(
                self.tx,
                game,
                state,
                seat.seat,
                &owed.happened,
                BoardWanted::for_seat(self.tx, game, seat.seat)?,
                told,
            )
            .unwrap_or_default();
            // Notices and messages of this mail go with the update, first.
            let (notices, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.notices)
                .into_iter()
                .partition(|n| n.game == game.id && n.seat == seat.seat);
            self.notices = rest;
            let heads: String = notices
                .iter()
                .map(|n| format!("{}\n", n.text.trim_end()))
                .collect();
            if !heads.is_empty() {
                text = format!("{heads}\n{text}");
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
            match owed.slot {
                Some(slot) if mine => {
                    self.parts[slot] = text;
                    self.show_picture(state, seat.seat, &owed.happened, false)?;
                }
                _ => {
                    let picture =
                        self.picture_for(state, seat.seat, &owed.happened, false, &seat.address)?;
                    self.send_board_to(
                        game,
                        &seat,
                        game_subject(game, Some(seat.seat)),
                        text,
                        AutoKind::Generated,
                        "update",
                        picture,
                    )?
                }
            }
        }
        // The game's watchers: the same change, told publicly.
        if owed.watched {
            self.tell_watchers(game, state, &owed.happened)?;
        }
        Ok(())
    }

    /// A notice to the seats of `game` other than `from` (see
    /// [`Work::notify`]).
    pub(super) fn notify_other(&mut self, game: &GameRow, from: Seat, text: String) -> Result<()> {
        for seat in self
            .tx
            .seats(game.id)?
            .into_iter()
            .filter(|s| s.seat != from)
        {
            self.notify(game, seat.seat, &text, None, "notice");
        }
        Ok(())
    }

    /// Words for `seat` of `game`: they head the seat's update if this mail
    /// makes one, else they go alone (with the seat's other words of this
    /// mail), under `subject` (by default the game's).
    pub(super) fn notify(
        &mut self,
        game: &GameRow,
        seat: Seat,
        text: &str,
        subject: Option<String>,
        kind: &'static str,
    ) {
        self.notices.push(Notice {
            game: game.id,
            seat,
            text: texts::wrap(text),
            subject: subject.unwrap_or_else(|| game_subject(game, Some(seat))),
            kind,
        });
    }

    /// The board picture of `state` from `seat` (issue 19) for the mail to
    /// `address`, with the arrows of `happened`: none when the server
    /// sends none (`[outgoing] pictures`, which needs `html`) or the
    /// player turned theirs off (SET PICTURES OFF).
    pub(super) fn picture_for(
        &self,
        state: &dyn AnyGame,
        seat: Seat,
        happened: &[Happened],
        observer: bool,
        address: &str,
    ) -> Result<Option<String>> {
        picture_of(
            self.tx,
            self.config,
            state,
            seat,
            happened,
            observer,
            address,
        )
    }

    /// The reply shows this board as its picture, unless it shows an
    /// earlier one already (one picture a mail: the first board in it).
    pub(super) fn show_picture(
        &mut self,
        state: &dyn AnyGame,
        seat: Seat,
        happened: &[Happened],
        observer: bool,
    ) -> Result<()> {
        if self.reply_picture.is_none() {
            self.reply_picture = self.picture_for(state, seat, happened, observer, self.sender)?;
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
        self.send_board_to(game, seat, subject, body, auto, kind, None)
    }

    /// [`Work::send_to`] with the board as a picture.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn send_board_to(
        &mut self,
        game: &GameRow,
        seat: &SeatRow,
        subject: String,
        body: String,
        auto: AutoKind,
        kind: &str,
        picture: Option<String>,
    ) -> Result<()> {
        // Never a mail to the computer's reserved address.
        if reads_no_mail(self.config, &seat.address) {
            return Ok(());
        }
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
            picture,
        };
        self.outgoing.push((mail, Some((game.id, seat.seat))));
        Ok(())
    }
}
