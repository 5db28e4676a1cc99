//! Observers of public games: `WATCH`, `UNWATCH`, `GAMES PUBLIC`, and the
//! mail each watcher gets with every board the players get.
//!
//! A game is public when its NEW said so (`NEW ... PUBLIC`). Anyone may
//! watch it, from any address, as anyone may ask for their `GAMES`: a
//! watcher gets the board at once (in the reply to WATCH), then, with
//! every update the players get, one mail with what happened and the
//! board, and the game's clock (its deadline or pause, in the watcher's
//! time zone). What a watcher reads is what both players may know: the board
//! drawn for an observer (`BoardStyle::observer`: each side's hand as the
//! other side sees it, nobody's "you"), the events in their public words
//! (`AnyGame::public_event_text`: a private draw as the other seat reads
//! it), and never a seat's key (their mails carry no reply address with
//! one), its choices, its held lines or answers in advance, a message
//! between the players, a moderator's words to them, or the record (which
//! keeps those messages).
//!
//! Bounded: a game has at most `[observers] max_per_game` watchers, an
//! address watches at most `max_per_address` games not over yet, and one
//! incoming mail makes at most one mail to each watcher of each game it
//! changed (the reply to WATCH carries the board: no second mail). An
//! address whose mail fails for good stops watching (`notices.rs`).

use chrono::{DateTime, Utc};

use super::game::{load, pending_of, side_name};
use super::identity::{secrets_match, watcher_secret, Claim};
use super::reply::Answer;
use super::subject::game_subject;
use super::update::result_words;
use super::work::Work;
use super::{texts, Result};
use crate::config::Config;
use crate::games::{AnyGame, BoardStyle, GameResult, Happened, Seat};
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};
use crate::store::{GameRow, GameStatus, Tx};

/// The mail a watcher of `game` reads: the players, what `happened` in
/// public words, the board drawn for an observer (with its key when
/// `key`), whom the game waits for or how it ended (with the ratings a
/// rated game's end changed, and a game's revealed seed), and how to
/// stop watching. The game's clock (whom it waits for by when, or a
/// pause) is given in the time zone of `reader`, the watcher's address.
pub(super) fn watcher_text(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
    state: &dyn AnyGame,
    happened: &[Happened],
    key: bool,
    reader: &str,
) -> Result<String> {
    let seats = tx.seats(game.id)?;
    let name = |s: Seat| {
        seats
            .iter()
            .find(|r| r.seat == s)
            .map(|r| super::computer::seat_name(game, r))
            .unwrap_or_default()
    };
    let result = result_words(game, state);
    let pending = state.pending();
    let ratings = super::ratings::changes_told(tx, game)?;
    let revealed = super::dice::revealed_without_record(tx, game)?;
    let (zone, _) = tx.player_settings(reader)?;
    let clock = match result {
        Some(_) => None,
        None => super::update::clock_line(tx, game, state, None, &zone)?,
    };
    let text = texts::render(
        "watching",
        minijinja::context! {
            game => game.id,
            title => state.title(),
            north_side => state.seat_name(Seat::North),
            north_name => name(Seat::North),
            south_side => state.seat_name(Seat::South),
            south_name => name(Seat::South),
            happened => public_lines(state, happened),
            board => state.draw_board(Seat::North, happened, &BoardStyle {
                without_key: !key,
                whole_map: false,
                ended: result.clone().filter(|_| state.outcome().is_none()),
                without_last: !happened.is_empty(),
                observer: true,
            }),
            result => result,
            ratings => ratings,
            revealed => revealed,
            waiting => pending.as_ref().map(|p| texts::say(
                "update.pending",
                minijinja::context! { side => state.seat_name(p.seat), decision => p.kind.to_string() },
            )),
            clock => clock,
            address => config.service.address,
        },
    );
    Ok(texts::wrap(&text))
}

/// The picture a watcher at `address` gets with the board (issue 19): the
/// board as an observer sees it (nobody's "you"), from the same side as
/// the watcher's text board.
fn watcher_picture(
    tx: &Tx<'_>,
    config: &Config,
    state: &dyn AnyGame,
    happened: &[Happened],
    address: &str,
) -> Result<Option<String>> {
    super::compose::picture_of(tx, config, state, Seat::North, happened, true, address)
}

/// What happened, in the words anyone may read (a private draw as the
/// other seat reads it), one indented line each.
pub(super) fn public_lines(state: &dyn AnyGame, happened: &[Happened]) -> Vec<String> {
    happened
        .iter()
        .map(|h| {
            texts::wrap(&format!("  {}", state.public_event_text(h)))
                .trim_end()
                .to_string()
        })
        .collect()
}

/// A mail to a watcher of `game`: from the service, with no reply address
/// of a seat (replies go to the service's own address, where WATCH and
/// UNWATCH are read), in the game's list.
fn to_watcher(
    config: &Config,
    game: &GameRow,
    address: &str,
    body: String,
    id: String,
    now: DateTime<Utc>,
) -> OutgoingMail {
    OutgoingMail {
        message_id: id,
        from: format!("{} <{}>", config.service.name, config.service.address),
        to: address.to_string(),
        reply_to: None,
        subject: game_subject(game, None),
        in_reply_to: None,
        references: Vec::new(),
        list_id: Some(format!("<game-{}.{}>", game.id, config.address_parts().1)),
        body,
        date: now,
        auto: AutoKind::Generated,
        return_path: None,
        text_only: false,
        picture: None,
    }
}

/// Queues the game as it now stands to every watcher of `game` (a
/// moderator's action on the command line, which changed the board or
/// ended the game); Message-IDs from `seed`.
pub(super) fn queue_to_watchers(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
    state: &dyn AnyGame,
    happened: &[Happened],
    seed: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    if !game.public {
        return Ok(());
    }
    let watchers = tx.watchers(game.id)?;
    if watchers.is_empty() {
        return Ok(());
    }
    let count = tx.entry_count(game.id)?;
    for address in watchers {
        let body = watcher_text(tx, config, game, state, happened, false, &address)?;
        let id = message_id(
            &format!("{seed}/watch/{}/{address}/{count}", game.id),
            config.address_parts().1,
        );
        let mut mail = to_watcher(config, game, &address, body, id, now);
        mail.picture = watcher_picture(tx, config, state, happened, &address)?;
        super::outbox::queue(tx, &mut mail, Some(game.id), now.into())?;
    }
    Ok(())
}

impl Work<'_> {
    /// Queues the update of `game` (`happened`, the game as it now stands)
    /// to each of its watchers, with the mails of this mail.
    pub(super) fn tell_watchers(
        &mut self,
        game: &GameRow,
        state: &dyn AnyGame,
        happened: &[Happened],
    ) -> Result<()> {
        if !game.public {
            return Ok(());
        }
        let watchers = self.tx.watchers(game.id)?;
        if watchers.is_empty() {
            return Ok(());
        }
        // The key to the board's marks with its first board, as the
        // players get it.
        let key = super::update::BoardWanted::usual(game).key;
        for address in watchers {
            // Each watcher reads the clock in its own time zone; a game has
            // at most `[observers] max_per_game` of them.
            let body = watcher_text(self.tx, self.config, game, state, happened, key, &address)?;
            let n = self.outgoing.len();
            let id = message_id(
                &format!("{}/watch/{}/{address}/{n}", self.message_id, game.id),
                self.domain(),
            );
            let mut mail = to_watcher(self.config, game, &address, body, id, self.now);
            mail.picture = watcher_picture(self.tx, self.config, state, happened, &address)?;
            self.outgoing.push((mail, None));
        }
        Ok(())
    }

    /// `WATCH <game>`: the writer watches a public game, and gets its
    /// board in this reply; refused for a game that is not public (saying
    /// how a game is made so), over, or full.
    pub(super) fn watch(&mut self, line: &str, id: i64) -> Result<()> {
        let Some(game) = self.tx.game(id)? else {
            self.item(
                line,
                Answer::Refused(texts::say(
                    "keys.no_such_game",
                    minijinja::context! { game => id },
                )),
            );
            return Ok(());
        };
        if !game.public {
            let new = texts::say(
                "observers.how_public",
                minijinja::context! { kind => game.kind.to_ascii_uppercase() },
            );
            self.item(
                line,
                Answer::Refused(texts::say(
                    "observers.not_public",
                    minijinja::context! { game => id, new => new },
                )),
            );
            return Ok(());
        }
        let name = self.sender_name();
        let player = self.tx.player(self.sender, &name, self.at)?;
        if self
            .tx
            .seats(game.id)?
            .iter()
            .any(|s| s.player_id == player)
        {
            self.item(
                line,
                Answer::Done(texts::say(
                    "observers.own_game",
                    minijinja::context! { game => id },
                )),
            );
            return Ok(());
        }
        if !game.status.is_open() {
            self.item(
                line,
                Answer::Refused(texts::say(
                    "observers.over",
                    minijinja::context! { game => id, status => game.status.to_string() },
                )),
            );
            return Ok(());
        }
        let already = self.tx.watches(game.id, player)?;
        if !already {
            let limits = &self.config.observers;
            let why = if self.tx.watcher_count(game.id)? >= i64::from(limits.max_per_game) {
                Some(texts::say(
                    "observers.game_full",
                    minijinja::context! { game => id, most => limits.max_per_game },
                ))
            } else if self.tx.watching_count(player)? >= i64::from(limits.max_per_address) {
                Some(texts::say(
                    "observers.too_many",
                    minijinja::context! { most => limits.max_per_address },
                ))
            } else {
                None
            };
            if let Some(why) = why {
                self.item(line, Answer::Refused(why));
                return Ok(());
            }
            self.tx.watch(game.id, player, self.at)?;
        }
        // WATCH needs no key: until the address replies to this answer
        // (its Reply-To carries a key of theirs), nothing more goes to it,
        // so a forged From cannot have boards mailed to somebody.
        let confirmed = self.tx.watch_confirmed(game.id, player)?;
        if !confirmed {
            self.reply_key = Some((
                game.id,
                watcher_secret(self.secret, player, game.id),
                game_subject(&game, None),
            ));
        }
        let begun = game.status == GameStatus::Active;
        self.item(
            line,
            Answer::Done(texts::say(
                "observers.watching",
                minijinja::context! {
                    game => id,
                    already => already && confirmed,
                    confirm => !confirmed,
                    begun => begun,
                },
            )),
        );
        // The board at once, in this reply (one mail for one WATCH).
        if begun && self.board_shown.insert(game.id) {
            let state = self.state(&game)?;
            let text = watcher_text(
                self.tx,
                self.config,
                &game,
                state.as_ref(),
                &[],
                true,
                self.sender,
            )?;
            self.parts.push(text);
            self.show_picture(state.as_ref(), Seat::North, &[], true)?;
        }
        Ok(())
    }

    /// A reply carrying the sender's own watcher key (the answer to WATCH)
    /// or Play of the Day member key (the answer to PLAYOFTHEDAY) confirms
    /// that the address asked for those mails; whether it confirmed one
    /// now.
    pub(super) fn confirm_by_key(&mut self, claim: Option<&Claim>) -> Result<bool> {
        let Some(claim) = claim else {
            return Ok(false);
        };
        let Some(player) = self.tx.player_id(self.sender)? else {
            return Ok(false);
        };
        let watcher = watcher_secret(self.secret, player, claim.game);
        if secrets_match(&watcher, &claim.secret) {
            if !self.tx.confirm_watch(claim.game, player)? {
                return Ok(false);
            }
            self.item(
                &texts::say("observers.your_reply", ()),
                Answer::Done(texts::say(
                    "observers.confirmed",
                    minijinja::context! { game => claim.game },
                )),
            );
            return Ok(true);
        }
        if self.member_of(Some(claim))? == Some(player) && self.tx.confirm_member(player)? {
            self.carry_member_key(player, claim.game);
            self.item(
                &texts::say("observers.your_reply", ()),
                Answer::Done(texts::say("daily.confirmed", ())),
            );
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether `claim` is the sender's own watcher key of its game.
    pub(super) fn is_watcher_key(&self, claim: &Claim) -> Result<bool> {
        let Some(player) = self.tx.player_id(self.sender)? else {
            return Ok(false);
        };
        let watcher = watcher_secret(self.secret, player, claim.game);
        Ok(secrets_match(&watcher, &claim.secret))
    }

    /// `UNWATCH <game>`: no more of its mails. Said the same way however
    /// often it is written.
    pub(super) fn unwatch(&mut self, line: &str, id: i64) -> Result<()> {
        let stopped = match self.tx.player_id(self.sender)? {
            Some(player) => self.tx.unwatch(id, player)?,
            None => false,
        };
        self.item(
            line,
            Answer::Done(texts::say(
                "observers.unwatched",
                minijinja::context! { game => id, stopped => stopped },
            )),
        );
        Ok(())
    }

    /// `GAMES PUBLIC`: the most recent public games (at most `[observers]
    /// public_list`), each with its players, turn and whose move it is.
    pub(super) fn games_public(&mut self, line: &str) -> Result<()> {
        let most = self.config.observers.public_list;
        let mut list = Vec::new();
        for g in self.tx.public_games(i64::from(most))? {
            let seats = self.tx.seats(g.id)?;
            let who = |s: Seat| {
                seats
                    .iter()
                    .find(|r| r.seat == s)
                    .map(|r| super::computer::seat_name(&g, r))
                    .unwrap_or_default()
            };
            let state = load(&g);
            let standing = match g.status {
                GameStatus::Active => match pending_of(&g) {
                    Some(p) => texts::say(
                        "observers.public_to_move",
                        minijinja::context! { side => side_name(&g, p.seat) },
                    ),
                    None => texts::say("inform.state_over", ()),
                },
                GameStatus::Invited => texts::say("inform.state_invited", ()),
                GameStatus::Finished => match g.result {
                    Some(GameResult::Win(w)) => texts::say(
                        "inform.result_won",
                        minijinja::context! { side => side_name(&g, w) },
                    ),
                    _ => texts::say("inform.result_draw", ()),
                },
                other => other.to_string(),
            };
            list.push(texts::say(
                "observers.public_game",
                minijinja::context! {
                    game => g.id,
                    kind => g.kind.to_ascii_uppercase(),
                    north_side => side_name(&g, Seat::North),
                    north => who(Seat::North),
                    south_side => side_name(&g, Seat::South),
                    south => who(Seat::South),
                    turn => state.as_ref().filter(|_| g.status != GameStatus::Invited).map(|s| s.turn_number()),
                    status => g.status.to_string(),
                    standing => standing,
                },
            ));
        }
        self.item(
            line,
            Answer::Done(texts::say(
                "observers.public_count",
                minijinja::context! { count => list.len(), most => most },
            )),
        );
        self.parts.push(texts::wrap(&texts::say(
            "observers.public_list",
            minijinja::context! { games => list },
        )));
        Ok(())
    }
}
