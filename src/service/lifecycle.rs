//! A game's life: invited (NEW), begun or declined (ACCEPT, DECLINE),
//! ended by a resignation, a draw agreed or a win claimed on time.

use super::clock::claims;
use super::game::side_name;
use super::identity::{self, reply_address, seat_secret};
use super::notices::queue_notice;
use super::subject::game_subject;
use super::work::Work;
use super::zones::local_time;
use super::{texts, Result};
use crate::games::hosted::{self, Hosted};
use crate::games::{GameResult, Seat};
use crate::mail::outgoing::AutoKind;
use crate::store::{result_text, EntryKind, GameRow, SeatRow, StoreError};

/// The time control a `NEW` asks for.
pub(super) struct TimeControl {
    pub(super) days: Option<u32>,
    pub(super) clock: Option<(u32, u32, Option<u32>)>,
    pub(super) timeout: Option<String>,
    pub(super) moderator: Option<String>,
}

impl Work<'_> {
    pub(super) fn new_game(
        &mut self,
        line: &str,
        game: &str,
        opponent: &str,
        side: Option<&str>,
        first: Option<&str>,
        time: TimeControl,
    ) -> Result<()> {
        let Some(hosted) = hosted::find(game) else {
            self.item(
                line,
                format!(
                    "Refused: {game:?} is not a game here; orderly hosts {} (each with \
                     its sides for AS and FIRST).",
                    hosted::listing()
                ),
                true,
            );
            return Ok(());
        };
        self.new_game_of(hosted, line, opponent, side, first, time)
    }

    /// `NEW <game> ...` for the hosted game `hosted`: the sides are its own.
    fn new_game_of(
        &mut self,
        hosted: &Hosted,
        line: &str,
        opponent: &str,
        side: Option<&str>,
        first: Option<&str>,
        time: TimeControl,
    ) -> Result<()> {
        if opponent == self.sender || identity::is_own_address(self.config, opponent) {
            self.item(line, "Refused: name the other player's address.", true);
            return Ok(());
        }
        if let Err(why) = identity::check_mailbox(opponent) {
            self.item(line, format!("Refused: {why}. Nothing was done."), true);
            return Ok(());
        }
        if let Some(moderator) = &time.moderator {
            // A moderator is a third person, appointed, never self-appointed.
            let why = identity::check_mailbox(moderator).err().or_else(|| {
                (moderator == self.sender
                    || moderator == opponent
                    || identity::is_own_address(self.config, moderator))
                .then(|| "the game's moderator must be neither player nor orderly".to_string())
            });
            if let Some(why) = why {
                self.item(line, format!("Refused: {why}. Nobody was invited."), true);
                return Ok(());
            }
        }
        let seat_of = |name: Option<&str>, default: Seat| match name {
            None => Some(default),
            Some(n) => hosted.seat_named(n),
        };
        let (Some(mine), Some(first)) = (seat_of(side, Seat::North), seat_of(first, Seat::North))
        else {
            let [north, south] = Seat::BOTH.map(|s| hosted.seat_name(s).to_ascii_uppercase());
            self.item(
                line,
                format!("Refused: the sides are {north} and {south} (AS {north}, FIRST {south})."),
                true,
            );
            return Ok(());
        };
        let name = self
            .incoming
            .from
            .as_ref()
            .and_then(|a| a.name.clone())
            .unwrap_or_default();
        let me = self.tx.player(self.sender, &name, self.at)?;
        // One mail (or many) cannot make orderly invite a crowd.
        let day_ago = self.now - chrono::Duration::days(1);
        let (today, open) = self.tx.invitations_by(me, day_ago.into())?;
        let service = &self.config.service;
        let limit = if open >= i64::from(service.max_open_invitations) {
            Some(format!(
                "you have {open} invitations waiting for an answer, the most one \
                 player may have open; wait for an answer (or their expiry)"
            ))
        } else if today >= i64::from(service.max_invitations_per_day) {
            Some(format!(
                "you sent {today} invitations in the last 24 hours, the most this \
                 server takes; try again tomorrow"
            ))
        } else {
            None
        };
        if let Some(why) = limit {
            self.item(line, format!("Refused: {why}. Nobody was invited."), true);
            return Ok(());
        }
        let them = self.tx.player(opponent, "", self.at)?;
        let seed = identity::game_seed(self.secret, self.message_id, line);
        let id = self
            .tx
            .create_game(hosted.name, first, mine, seed, self.at)?;
        let days = time.days.unwrap_or(self.config.deadlines.turn_days);
        self.tx.set_turn_days(id, i64::from(days))?;
        if let Some(policy) = &time.timeout {
            self.tx.set_timeout_policy(id, policy)?;
        }
        if let Some(moderator) = &time.moderator {
            self.tx.set_game_moderator(id, moderator)?;
        }
        let moderator_asked = time.moderator.clone();
        self.tx
            .add_seat(id, mine, me, &seat_secret(self.secret, id, mine))?;
        let theirs = mine.other();
        self.tx
            .add_seat(id, theirs, them, &seat_secret(self.secret, id, theirs))?;
        let pace = match time.clock {
            Some((initial, increment, cap)) => {
                let cap = cap
                    .unwrap_or(self.config.deadlines.clock_cap_days)
                    .max(initial);
                let day = 24 * 3600;
                self.tx.set_clock(
                    id,
                    i64::from(initial) * day,
                    i64::from(increment) * day,
                    i64::from(cap) * day,
                )?;
                format!("a clock of {initial} days plus {increment} per turn (at most {cap})")
            }
            None => format!("{days} days per turn"),
        };
        let game = self
            .tx
            .game(id)?
            .ok_or_else(|| StoreError::Corrupt("new game vanished".into()))?;
        let seats = self.tx.seats(id)?;
        let my_seat = seats.iter().find(|s| s.seat == mine).cloned();
        let their_seat = seats.iter().find(|s| s.seat == theirs).cloned();
        if let (Some(my_seat), Some(their_seat)) = (my_seat, their_seat) {
            self.game = Some((game.clone(), my_seat));
            let inviter = if name.is_empty() {
                self.sender.to_string()
            } else {
                format!("{name} <{}>", self.sender)
            };
            let (zone, _) = self.tx.player_settings(opponent)?;
            let expires =
                self.now + chrono::Duration::days(i64::from(self.config.deadlines.invitation_days));
            let body = texts::render(
                "invitation",
                minijinja::context! {
                    inviter => inviter,
                    title => hosted.title,
                    game => hosted.name.to_ascii_uppercase(),
                    you => hosted.seat_name(theirs),
                    first => hosted.seat_name(first),
                    pace => pace,
                    moderator => time.moderator,
                    expires => local_time(expires, &zone),
                    reply_to => reply_address(&self.config.service.address, id, &their_seat.secret),
                },
            );
            self.send_to(
                &game,
                &their_seat,
                game_subject(&game, Some(their_seat.seat)),
                texts::wrap(&body),
                AutoKind::Generated,
                "invitation",
            )?;
            if let Some(moderator) = &moderator_asked {
                let (local, domain) = self.config.address_parts();
                let key = identity::moderator_secret(self.secret, moderator);
                let body = texts::wrap(&format!(
                    "{} invites {opponent} to game {id} of {} and asks you to be \
                     its moderator: to settle a stalled or disputed game, by mail.\n\n\
                     To accept, write the line\n\n  ACCEPT MODERATION {id}\n\n\
                     to your moderator address {local}+mod.{key}@{domain} \
                     (keep it to yourself). To refuse, write DECLINE MODERATION {id} \
                     there. Until you accept, you have no say in the game.",
                    self.sender, hosted.title
                ));
                queue_notice(
                    self.tx,
                    self.config,
                    &game,
                    moderator,
                    None,
                    body,
                    &format!("{}/moderator-asked", self.message_id),
                    self.now,
                )?;
            }
        }
        self.item(
            line,
            format!(
                "Game {id} proposed: you play {} against {opponent}, {} moves first, \
                 {pace}. They have been invited; you will hear when they ACCEPT or \
                 DECLINE.",
                hosted.seat_name(mine),
                hosted.seat_name(first)
            ),
            false,
        );
        Ok(())
    }

    /// `CLAIM WIN`: the opponent's time ran out (past the grace period) and
    /// the policy lets the waiting player claim the game.
    pub(super) fn claim_win(&mut self, line: &str, game: &GameRow, seat: &SeatRow) -> Result<()> {
        let deadline = self.tx.deadline(game.id)?;
        let claimable = claims(self.tx, self.config, game.id)?;
        match deadline {
            Some(d) if d.timed_out && d.seat != seat.seat && claimable => {
                let loser = side_name(game, d.seat);
                let text = format!(
                    "{} claimed the win: {loser} did not act by {}",
                    side_name(game, seat.seat),
                    d.at
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
                self.tx.finish(
                    game.id,
                    GameResult::Win(seat.seat),
                    &format!("{loser} ran out of time"),
                    self.at,
                )?;
                self.tx.set_deadline(game.id, None)?;
                self.item(
                    line,
                    format!("You win game {}: {loser} ran out of time.", game.id),
                    false,
                );
                let state = self.state(game)?;
                let game = self.reload(game.id)?;
                self.broadcast(&game, state.as_ref(), &[], Some(seat.seat))?;
            }
            Some(d) if d.seat != seat.seat && !d.timed_out => self.item(
                line,
                format!(
                    "Refused: {} still has time (deadline {} and the grace period after it).",
                    side_name(game, d.seat),
                    d.at
                ),
                true,
            ),
            _ if !claimable => self.item(
                line,
                "Refused: on this server a game whose time ran out goes to the moderators.",
                true,
            ),
            _ => self.item(
                line,
                "Refused: there is no run-out time of the other player to claim.",
                true,
            ),
        }
        Ok(())
    }
}
