//! NEW: a game proposed to an opponent, with its sides and time control;
//! the invitation goes to them (and, for a game with its own moderator,
//! the request to moderate it). Bounded: a player has only so many
//! invitations open, and sends only so many a day.

use super::identity::{self, reply_address, seat_secret};
use super::notices::queue_notice;
use super::ratings::{is_computer, rated_by_default};
use super::reply::Answer;
use super::subject::game_subject;
use super::work::Work;
use super::zones::local_time;
use super::{texts, Result};
use crate::bot::{self, Level};
use crate::games::hosted::{self, Hosted};
use crate::games::GameOptions;
use crate::games::Seat;
use crate::mail::outgoing::AutoKind;
use crate::store::{GameRow, GameStatus, StoreError};

/// The sides and battle a `NEW` asks for, as written.
pub(super) struct Sides<'a> {
    /// The side the writer takes (`AS`).
    pub(super) mine: Option<&'a str>,
    /// The side that begins (`FIRST`).
    pub(super) first: Option<&'a str>,
    /// The battle (`SCENARIO`), for a game played on scenarios.
    pub(super) scenario: Option<&'a str>,
}

/// The time control a `NEW` asks for.
pub(super) struct TimeControl {
    pub(super) days: Option<u32>,
    pub(super) clock: Option<(u32, u32, Option<u32>)>,
    pub(super) timeout: Option<String>,
    pub(super) moderator: Option<String>,
}

/// Who may watch a game, and whether it is rated, as a `NEW` asks.
pub(super) struct Terms {
    /// `PUBLIC`: anyone may watch it.
    pub(super) public: bool,
    /// `RATED` or `UNRATED`; by default, rated between two people
    /// ([`rated_by_default`]).
    pub(super) rated: Option<bool>,
    /// `VS COMPUTER [LEVEL n]`: the computer's level, 1 to 5.
    pub(super) computer: Option<u8>,
}

impl Work<'_> {
    /// Asks `moderator`, named in the writer's NEW, to moderate `game`,
    /// which the writer plays against `opponent`.
    fn ask_moderator(
        &self,
        game: &GameRow,
        moderator: &str,
        opponent: &str,
        title: &str,
    ) -> Result<()> {
        let (local, domain) = self.config.address_parts();
        let key = identity::moderator_secret(self.secret, moderator);
        let body = texts::wrap(&texts::say(
            "invitation.moderator_asked",
            minijinja::context! {
                inviter => self.sender,
                opponent => opponent,
                game => game.id,
                title => title,
                address => format!("{local}+mod.{key}@{domain}"),
            },
        ));
        queue_notice(
            self.tx,
            self.config,
            game,
            moderator,
            None,
            body,
            &format!("{}/moderator-asked", self.message_id),
            self.now,
        )
    }

    /// `NEW <game> VS ...`: refused for a game not hosted here, else
    /// proposed in the words of that game.
    pub(super) fn new_game(
        &mut self,
        line: &str,
        game: &str,
        opponent: &str,
        sides: Sides<'_>,
        time: TimeControl,
        terms: Terms,
    ) -> Result<()> {
        let Some(hosted) = hosted::find(game) else {
            self.item(
                line,
                Answer::Refused(texts::say(
                    "invitation.not_hosted",
                    minijinja::context! { game => game, listing => hosted::listing() },
                )),
            );
            return Ok(());
        };
        self.new_game_of(hosted, line, opponent, sides, time, terms)
    }

    /// `NEW <game> ...` for the hosted game `hosted`: the sides are its own.
    fn new_game_of(
        &mut self,
        hosted: &Hosted,
        line: &str,
        opponent: &str,
        sides: Sides<'_>,
        time: TimeControl,
        terms: Terms,
    ) -> Result<()> {
        let Sides {
            mine: side,
            first,
            scenario,
        } = sides;
        // Against the computer: only in a game it plays, its seat held
        // under its reserved address, which nobody may name as a person.
        let level = match terms.computer.map(Level::new) {
            Some(None) => {
                self.item(
                    line,
                    Answer::Refused(texts::say(
                        "mail.not_understood",
                        minijinja::context! { why => texts::say("commands.new_level", minijinja::context! { level => "?" }) },
                    )),
                );
                return Ok(());
            }
            Some(Some(level)) if !bot::plays(hosted.name) => {
                let _ = level;
                let plays: Vec<String> = hosted::GAMES
                    .iter()
                    .filter(|g| bot::plays(g))
                    .map(|g| g.to_ascii_uppercase())
                    .collect();
                self.item(
                    line,
                    Answer::Refused(texts::say(
                        "invitation.computer_does_not_play",
                        minijinja::context! {
                            game => hosted.name.to_ascii_uppercase(),
                            plays => match plays.split_last() {
                                Some((last, [])) => last.clone(),
                                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                                None => String::new(),
                            },
                        },
                    )),
                );
                return Ok(());
            }
            Some(Some(level)) => Some(level),
            None => None,
        };
        if level.is_none() && is_computer(self.config, opponent) {
            self.item(
                line,
                Answer::Refused(texts::say("invitation.computer_by_name", ())),
            );
            return Ok(());
        }
        let computer_address = self.config.computer.address.trim().to_ascii_lowercase();
        let opponent = if level.is_some() {
            computer_address.as_str()
        } else {
            opponent
        };
        if level.is_none()
            && (opponent == self.sender || identity::is_own_address(self.config, opponent))
        {
            self.item(
                line,
                Answer::Refused(texts::say("invitation.name_the_opponent", ())),
            );
            return Ok(());
        }
        if let (None, Err(why)) = (level, identity::check_mailbox(opponent)) {
            self.item(
                line,
                Answer::Refused(texts::say(
                    "invitation.not_a_mailbox",
                    minijinja::context! { why => why },
                )),
            );
            return Ok(());
        }
        if let Some(moderator) = &time.moderator {
            // A moderator is a third person, appointed, never self-appointed.
            let why = identity::check_mailbox(moderator).err().or_else(|| {
                (moderator == self.sender
                    || moderator == opponent
                    || identity::is_own_address(self.config, moderator))
                .then(|| texts::say("invitation.moderator_is_a_third", ()))
            });
            if let Some(why) = why {
                self.item(
                    line,
                    Answer::Refused(texts::say(
                        "invitation.nobody_invited",
                        minijinja::context! { why => why },
                    )),
                );
                return Ok(());
            }
        }
        let seat_of = |name: Option<&str>, default: Seat| match name {
            None => Some(default),
            Some(n) => hosted.seat_named(n),
        };
        // Against the computer the writer plays the first side unless AS
        // says otherwise, and that side begins unless FIRST says otherwise.
        let (Some(mine), Some(first)) = (seat_of(side, Seat::North), seat_of(first, Seat::North))
        else {
            let [north, south] = Seat::BOTH.map(|s| hosted.seat_name(s).to_ascii_uppercase());
            self.item(
                line,
                Answer::Refused(texts::say(
                    "invitation.sides",
                    minijinja::context! { north => north, south => south },
                )),
            );
            return Ok(());
        };
        // Some games fix who begins; the invitation then says so truly.
        let first = hosted.first.unwrap_or(first);
        let scenarios = (hosted.scenarios)();
        let scenario = match scenario {
            None => scenarios.first().cloned(),
            Some(id) => match scenarios.iter().find(|k| k.eq_ignore_ascii_case(id)) {
                Some(known) => Some(known.clone()),
                None => {
                    self.item(
                        line,
                        Answer::Refused(texts::say(
                            "invitation.scenario",
                            minijinja::context! {
                                game => hosted.name.to_ascii_uppercase(),
                                scenario => id,
                                known => scenarios.join(", "),
                            },
                        )),
                    );
                    return Ok(());
                }
            },
        };
        let name = self.sender_name();
        let me = self.tx.player(self.sender, &name, self.at)?;
        // One mail (or many) cannot make orderly invite a crowd.
        let day_ago = self.now - chrono::Duration::days(1);
        let (today, open) = self.tx.invitations_by(me, day_ago.into())?;
        let service = &self.config.service;
        let limit = if open >= i64::from(service.max_open_invitations) {
            Some(texts::say(
                "invitation.too_many_open",
                minijinja::context! { open => open },
            ))
        } else if today >= i64::from(service.max_invitations_per_day) {
            Some(texts::say(
                "invitation.too_many_today",
                minijinja::context! { today => today },
            ))
        } else {
            None
        };
        if let Some(why) = limit {
            self.item(
                line,
                Answer::Refused(texts::say(
                    "invitation.nobody_invited",
                    minijinja::context! { why => why },
                )),
            );
            return Ok(());
        }
        let them = self.tx.player(opponent, "", self.at)?;
        let seed = identity::game_seed(self.secret, self.message_id, line);
        let id =
            self.tx
                .create_game(hosted.name, first, mine, seed, scenario.as_deref(), self.at)?;
        // A game with chance commits to its seed now, before either player
        // has written a line of it (docs/dice.md).
        let commitment = if hosted.chance {
            Some(self.commit_to_a_seed(id)?)
        } else {
            None
        };
        // Rated between two people unless UNRATED; against the computer
        // only where the configuration allows it (RATED or not).
        let against_computer =
            is_computer(self.config, opponent) || is_computer(self.config, self.sender);
        let may_be_rated = rated_by_default(&self.config.ratings, against_computer);
        let rated = terms.rated.unwrap_or(true) && may_be_rated;
        self.tx.set_public_and_rated(id, terms.public, rated)?;
        let terms_told = texts::say(
            "invitation.terms",
            minijinja::context! {
                game => id,
                public => terms.public,
                rated => rated,
                refused_rating => terms.rated == Some(true) && !rated,
            },
        );
        let days = time.days.unwrap_or(self.config.deadlines.turn_days);
        self.tx.set_turn_days(id, i64::from(days))?;
        if let Some(policy) = &time.timeout {
            self.tx.set_timeout_policy(id, policy)?;
        }
        if let Some(moderator) = &time.moderator {
            self.tx.set_game_moderator(id, moderator)?;
        }
        let moderator_asked = time.moderator.clone();
        if let Some(level) = level {
            self.tx.set_computer_level(id, level.number())?;
        }
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
                texts::say(
                    "invitation.pace_clock",
                    minijinja::context! { initial => initial, increment => increment, cap => cap },
                )
            }
            None => texts::say("invitation.pace_days", minijinja::context! { days => days }),
        };
        let game = self
            .tx
            .game(id)?
            .ok_or_else(|| StoreError::Corrupt("new game vanished".into()))?;
        if let Some(level) = level {
            return self.start_against_computer(
                line,
                hosted,
                &game,
                mine,
                level,
                &pace,
                &terms_told,
                moderator_asked.as_deref(),
            );
        }
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
                    who_first => hosted.who_first,
                    pace => pace,
                    scenario => scenario,
                    scenario_name => scenario.as_deref().and_then(|id| scenario_name(hosted.name, id)),
                    moderator => time.moderator,
                    commitment => commitment,
                    terms => terms_told,
                    notice => hosted.notice,
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
                self.ask_moderator(&game, moderator, opponent, hosted.title)?;
            }
        }
        let mut proposed = texts::say(
            "invitation.proposed",
            minijinja::context! {
                game => id,
                side => hosted.seat_name(mine),
                opponent => opponent,
                first => hosted.seat_name(first),
                who_first => hosted.who_first,
                pace => pace,
            },
        );
        proposed.push('\n');
        proposed.push_str(&terms_told);
        if let Some(commitment) = commitment {
            proposed.push('\n');
            proposed.push_str(&commitment);
        }
        self.item(line, Answer::Done(proposed));
        Ok(())
    }
}

impl Work<'_> {
    /// A game against the computer, made: it begins at once (nobody to
    /// invite), the computer plays its first orders if it begins, and the
    /// writer's reply carries the board of their seat. A moderator the
    /// game names is asked as for any game.
    #[allow(clippy::too_many_arguments)]
    fn start_against_computer(
        &mut self,
        line: &str,
        hosted: &Hosted,
        game: &GameRow,
        mine: Seat,
        level: Level,
        pace: &str,
        terms_told: &str,
        moderator: Option<&str>,
    ) -> Result<()> {
        let Some(my_seat) = self.tx.seats(game.id)?.into_iter().find(|s| s.seat == mine) else {
            return Err(StoreError::Corrupt("new game without its seat".into()).into());
        };
        self.tx.set_status(game.id, GameStatus::Active, self.at)?;
        let game = self.reload(game.id)?;
        self.game = Some((game.clone(), my_seat.clone()));
        let mut state = (hosted.new)(&GameOptions {
            first: game.first_seat,
            seed: game.seed,
            scenario: game.scenario.clone(),
        });
        let mut happened = self.draw_chance(state.as_mut(), &game, mine)?;
        happened.extend(self.computer_plays(state.as_mut(), &game)?);
        self.keep_state(game.id, state.as_ref())?;
        if let Some(moderator) = moderator {
            let opponent = super::computer::computer_label(&game);
            self.ask_moderator(&game, moderator, &opponent, hosted.title)?;
        }
        let mut begins = texts::say(
            "invitation.computer_begins",
            minijinja::context! {
                game => game.id,
                side => hosted.seat_name(mine),
                level => level.number(),
                first => hosted.seat_name(game.first_seat),
                who_first => hosted.who_first,
                pace => pace,
                moved => !happened.is_empty(),
            },
        );
        begins.push('\n');
        begins.push_str(terms_told);
        self.item(line, Answer::Done(begins));
        let game = self.reload(game.id)?;
        self.broadcast(&game, &happened, Some(mine))
    }
}

/// The name of a game's scenario (`Tanner's Ford` for `tanners-ford`),
/// for the invitation to say which battle, not only its id.
fn scenario_name(game: &str, id: &str) -> Option<String> {
    match game {
        "brothersatwar" => crate::games::brothers_at_war::scenario::registry::get(id)
            .map(|b| b.scenario.name.clone()),
        _ => None,
    }
}
