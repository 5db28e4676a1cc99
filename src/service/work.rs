//! The processing of one mail, inside its transaction: what it holds
//! while its lines are answered (the reply so far, the mails to others,
//! the game it acts on), and who it may act for.

use chrono::{DateTime, Utc};

use super::clock::fresh_deadline;
use super::compose::{Notice, Owed};
use super::game::side_name;
use super::identity::{self, claim_from_address, secrets_match, Claim};
use super::reply::Answer;
use super::reply::Item;
use super::subject::game_subject;
use super::{texts, Result};
use crate::config::Config;
use crate::games::{AnyGame, Seat};
use crate::mail::intake::Incoming;
use crate::mail::outgoing::{AutoKind, OutgoingMail};
use crate::store::{GameRow, SeatRow, StoreError, Timestamp, Tx};

/// The processing of one mail, inside its transaction.
pub(super) struct Work<'a> {
    pub(super) config: &'a Config,
    pub(super) secret: &'a [u8],
    pub(super) tx: &'a Tx<'a>,
    pub(super) incoming: &'a Incoming,
    pub(super) message_id: &'a str,
    pub(super) sender: &'a str,
    pub(super) at: Timestamp,
    pub(super) now: DateTime<Utc>,
    pub(super) items: Vec<Item>,
    /// Further sections of the reply (boards, help, lists).
    pub(super) parts: Vec<String>,
    /// Mails to others, queued with the reply.
    pub(super) outgoing: Vec<(OutgoingMail, Option<(i64, Seat)>)>,
    /// The game the mail acts on, once authenticated.
    pub(super) game: Option<(GameRow, SeatRow)>,
    /// The lines as written, by the text read from them (an order without
    /// the greeting before it), in the mail's order: the reply quotes
    /// what the player wrote, each line for its own answer. Each comes
    /// with its place among the mail's lines: the reply's echo keeps the
    /// mail's order.
    pub(super) written:
        std::collections::HashMap<String, std::collections::VecDeque<(usize, String)>>,
    /// Orders of this mail taken.
    pub(super) taken: usize,
    /// More order lines of this mail follow the ones being played: the
    /// end of the mail, which may close a turn of many orders
    /// (`MailTurn`), is not reached yet.
    pub(super) more_orders_follow: bool,
    /// A line of play of this mail was refused: the lines of play after
    /// it, even in a later group (a line played on its own, a command
    /// between), are not applied (`submission`: the first refused order
    /// stops the message); standing orders still are.
    pub(super) halted: bool,
    /// The games in which a line of this mail, in the writer's own turn,
    /// left the other seat reacting (an attack's defender, a question):
    /// the mail's later lines of play for that game wait for the answer,
    /// held, even in a later group (R4, B7).
    pub(super) reacting: std::collections::BTreeSet<i64>,
    /// Lines of this mail ignored as prose.
    pub(super) ignored: usize,
    /// The games whose seat owner was warned of this mail using their key.
    pub(super) warned: std::collections::BTreeSet<i64>,
    /// The events the reply's echo already tells, in words: the sender's
    /// own update does not tell them again.
    pub(super) echoed: Vec<String>,
    /// The incoming mail's size in bytes (the reply is capped by it).
    pub(super) incoming_size: usize,
    /// The games whose board this reply carries already.
    pub(super) board_shown: std::collections::BTreeSet<i64>,
    /// The board picture this reply carries (issue 19): the first board
    /// its parts show, as SVG.
    pub(super) reply_picture: Option<String>,
    /// Commands and orders read from this mail so far.
    pub(super) commands: i64,
    /// The informing commands answered already (once per mail each).
    pub(super) answered: std::collections::BTreeSet<String>,
    /// Whether the sender wrote with a key that is not theirs (a stranger
    /// to the game): the reply is kept to one short answer.
    pub(super) stranger: bool,
    /// The updates this mail owes the seats of the games it changed, sent
    /// once when every line is answered (`compose.rs`).
    pub(super) owed: Vec<Owed>,
    /// Words for seats (notices, messages) not sent yet: they go with the
    /// seat's update, or alone, once every line is answered.
    pub(super) notices: Vec<Notice>,
    /// The position of the mail's game as its writer saw it, before the
    /// mail's orders, when the mail also asks about it (HELP MOVES): the
    /// question is about what they saw, not what their orders made of it.
    pub(super) seen: std::collections::BTreeMap<i64, String>,
    /// The key the reply carries in its Reply-To when it is about no
    /// seat of the sender's: (game, key, subject) of a Play of the Day
    /// member's key or a watcher's, so that replying to it votes or
    /// confirms.
    pub(super) reply_key: Option<(i64, String, String)>,
}

impl<'a> Work<'a> {
    /// The processing of `incoming` (known as `message_id`, from
    /// `sender`), read at `at` with the service's clock at `now`: nothing
    /// answered yet.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        config: &'a Config,
        secret: &'a [u8],
        tx: &'a Tx<'a>,
        incoming: &'a Incoming,
        message_id: &'a str,
        sender: &'a str,
        at: Timestamp,
        now: DateTime<Utc>,
    ) -> Work<'a> {
        Work {
            config,
            secret,
            tx,
            incoming,
            message_id,
            sender,
            at,
            now,
            items: Vec::new(),
            parts: Vec::new(),
            outgoing: Vec::new(),
            game: None,
            written: Default::default(),
            taken: 0,
            more_orders_follow: false,
            halted: false,
            reacting: Default::default(),
            ignored: 0,
            warned: Default::default(),
            echoed: Vec::new(),
            incoming_size: 0,
            board_shown: Default::default(),
            reply_picture: None,
            commands: 0,
            answered: Default::default(),
            stranger: false,
            owed: Vec::new(),
            notices: Vec::new(),
            seen: Default::default(),
            reply_key: None,
        }
    }
}

impl Work<'_> {
    /// The domain of the service's address (Message-IDs, List-IDs).
    pub(super) fn domain(&self) -> &str {
        self.config.address_parts().1
    }

    /// The service as the From of its mails.
    pub(super) fn sender_mailbox(&self) -> String {
        format!(
            "{} <{}>",
            self.config.service.name, self.config.service.address
        )
    }

    /// The sender's display name from the mail's From, empty without one:
    /// the name a new player row keeps.
    pub(super) fn sender_name(&self) -> String {
        self.incoming
            .from
            .as_ref()
            .and_then(|a| a.name.clone())
            .unwrap_or_default()
    }

    /// The game named by the recipients or a `GAME` line, if any.
    pub(super) fn claim(&self, lines: &[&str]) -> Option<Claim> {
        let service = &self.config.service.address;
        let recipients = self
            .incoming
            .to
            .iter()
            .chain(&self.incoming.cc)
            .chain(&self.incoming.delivered_to);
        recipients
            .filter_map(|a| claim_from_address(service, a))
            .next()
            .or_else(|| lines.iter().find_map(|l| identity::claim_from_line(l)))
    }

    /// Whether this mail carries the key of one of the sender's seats (a
    /// reply to orderly's mail about a game, or a GAME line); if not, the
    /// line is refused saying how to send it.
    pub(super) fn holds_a_key(&mut self, line: &str, claim: Option<&Claim>) -> Result<bool> {
        if claim.is_none() {
            self.item(
                line,
                Answer::Refused(texts::say("keys.settings_need_a_key", ())),
            );
            return Ok(false);
        }
        // A Play of the Day member's key proves the sender as a seat's key
        // does: a member who plays no game of their own sets their time
        // zone in a reply to a Play of the Day mail.
        if let Some(player) = self.member_of(claim)? {
            if let Some(claim) = claim {
                self.carry_member_key(player, claim.game);
            }
            return Ok(true);
        }
        Ok(self.authenticate(line, claim)?.is_some())
    }

    /// The sender's seat when the sender plays exactly one active game (in
    /// one seat of it): the key a mail without one most likely meant. The
    /// reply goes to the sender's own address, which is that seat's, so
    /// telling its key there tells nobody else: orderly's every mail about
    /// the game goes there with it.
    fn only_active_seat(&self) -> Result<Option<SeatRow>> {
        let Some(player) = self.tx.player_id(self.sender)? else {
            return Ok(None);
        };
        let mut mine = Vec::new();
        for game in self.tx.games_of(player)? {
            if game.status != crate::store::GameStatus::Active {
                continue;
            }
            mine.extend(
                self.tx
                    .seats(game.id)?
                    .into_iter()
                    .filter(|s| s.player_id == player),
            );
        }
        Ok(match mine.as_slice() {
            [seat] if seat.address == self.sender => mine.pop(),
            _ => None,
        })
    }

    /// The game and seat this mail may act for, or an item saying why not
    /// (and, for someone else's key, a warning to the seat's owner).
    pub(super) fn authenticate(
        &mut self,
        line: &str,
        claim: Option<&Claim>,
    ) -> Result<Option<(GameRow, SeatRow)>> {
        let Some(claim) = claim else {
            let answer = match self.only_active_seat()? {
                Some(seat) => texts::say(
                    "keys.no_game_named_yours",
                    minijinja::context! {
                        game => seat.game_id,
                        key => seat.secret,
                        address => identity::reply_address(
                            &self.config.service.address,
                            seat.game_id,
                            &seat.secret,
                        ),
                    },
                ),
                None => {
                    let (local, domain) = self.config.address_parts();
                    texts::say(
                        "keys.no_game_named",
                        minijinja::context! { local => local, domain => domain },
                    )
                }
            };
            self.item(line, Answer::Refused(answer));
            return Ok(None);
        };
        let Some(game) = self.tx.game(claim.game)? else {
            self.stranger = true;
            self.item(
                line,
                Answer::Refused(texts::say(
                    "keys.no_such_game",
                    minijinja::context! { game => claim.game },
                )),
            );
            return Ok(None);
        };
        let seats = self.tx.seats(game.id)?;
        let Some(seat) = seats
            .iter()
            .find(|s| secrets_match(&s.secret, &claim.secret))
            .cloned()
        else {
            // A Play of the Day member's own key, on a line that is not a
            // vote (BOARD, HISTORY): the member is no stranger, and the
            // rest of the mail (a vote, the round it closed) is answered.
            // A watcher's own key (the answer to WATCH): no stranger either.
            if self.is_watcher_key(claim)? {
                self.item(
                    line,
                    Answer::Refused(texts::say(
                        "observers.watcher_key_only",
                        minijinja::context! { game => game.id },
                    )),
                );
                return Ok(None);
            }
            if let Some(player) = self.member_of(Some(claim))? {
                self.carry_member_key(player, game.id);
                self.item(
                    line,
                    Answer::Refused(texts::say(
                        "daily.member_key_votes_only",
                        minijinja::context! { game => game.id },
                    )),
                );
                return Ok(None);
            }
            self.stranger |= !seats.iter().any(|s| s.address == self.sender);
            self.item(
                line,
                Answer::Refused(texts::say(
                    "keys.not_a_key",
                    minijinja::context! { key => claim.secret, game => game.id },
                )),
            );
            return Ok(None);
        };
        if seat.address != self.sender {
            let seats = self.tx.seats(game.id)?;
            let answer = match seats.iter().find(|s| s.address == self.sender) {
                // A player who answered the opponent's copy of a mail.
                Some(own) => texts::say(
                    "keys.opponents_key",
                    minijinja::context! {
                        their_side => side_name(&game, seat.seat),
                        game => game.id,
                        side => side_name(&game, own.seat),
                    },
                ),
                // A stranger learns nothing about whose key this is.
                None => {
                    self.stranger = true;
                    texts::say("keys.not_a_player", minijinja::context! { game => game.id })
                }
            };
            self.item(line, Answer::Refused(answer));
            // One warning to the key's owner per mail, however many lines.
            if !self.warned.insert(game.id) {
                return Ok(None);
            }
            let body = texts::render(
                "intruder",
                minijinja::context! {
                    sender => self.sender,
                    game => game.id,
                    side => side_name(&game, seat.seat),
                    owner => seat.address,
                },
            );
            let subject = game_subject(&game, Some(seat.seat));
            self.send_to(
                &game,
                &seat,
                subject,
                texts::wrap(&body),
                AutoKind::Generated,
                "intruder",
            )?;
            return Ok(None);
        }
        // A player's display name is learnt from their own mail.
        if let Some(name) = self.incoming.from.as_ref().and_then(|a| a.name.clone()) {
            self.tx.player(self.sender, &name, self.at)?;
        }
        self.game = Some((game.clone(), seat.clone()));
        Ok(Some((game, seat)))
    }

    /// The game as it is stored now.
    pub(super) fn reload(&self, id: i64) -> Result<GameRow> {
        Ok(self
            .tx
            .game(id)?
            .ok_or_else(|| StoreError::Corrupt(format!("game {id} vanished")))?)
    }

    /// Keeps `state` as game `game`'s position after the orders of this
    /// work: the cached position and its entry count, the deadline of the
    /// decision now pending, and the end of the game (ratings) when it is
    /// over.
    pub(super) fn keep_state(&self, game: i64, state: &dyn AnyGame) -> Result<()> {
        let count = self.tx.entry_count(game)?;
        self.tx
            .set_position(game, &state.position(), count, self.at)?;
        self.refresh_deadline(game, state)?;
        if let Some(outcome) = state.outcome() {
            super::ratings::finish(
                self.tx,
                self.config,
                game,
                outcome.result,
                &outcome.reason,
                self.at,
            )?;
        }
        Ok(())
    }

    /// Gives the game's pending decision a fresh deadline: the game's days
    /// for a turn, `decision_hours` for a decision inside an attack; none
    /// once the game is over.
    pub(super) fn refresh_deadline(&self, game: i64, state: &dyn AnyGame) -> Result<()> {
        fresh_deadline(self.tx, self.config, game, state, self.now)
    }
}
