//! Where moderator commands come in: a mail to a moderator's own address
//! (`orderly+mod.<key>@host`), taken only from a moderator writing to
//! their own key, or the command line (`orderly mod ...`). What each
//! command does is [`moderation`](super::moderation)'s.

use chrono::{DateTime, Utc};

use super::game::kind_of;
use super::identity::{self, secrets_match};
use super::notices::{moderators_of, queue_notice};
use super::reply::Answer;
use super::work::Work;
use super::{moderation, texts, Result, Service};
use crate::store::Timestamp;

impl Service {
    /// Carries out one moderator command from the command line (as
    /// `cli:<moderator>`), then sends the announcements.
    pub fn moderate(&mut self, line: &str, moderator: &str, now: DateTime<Utc>) -> Result<String> {
        let tx = self.store.tx()?;
        // Dropping the transaction unused, on a line not understood, changes nothing.
        let action = match moderation::parse(line, |id| kind_of(&tx, id)) {
            Ok(a) => a,
            Err(usage) => {
                return Ok(texts::say(
                    "moderator.not_understood",
                    minijinja::context! { usage => usage },
                ))
            }
        };
        let seed = format!("cli/{}/{}", Timestamp::from(now), line);
        let cx = moderation::Context {
            config: &self.config,
            secret: &self.secret,
            moderator,
            now,
            seed: &seed,
        };
        let answer = moderation::execute(&tx, &cx, &action)?;
        tx.commit()?;
        self.drain_outbox(now)?;
        Ok(answer.into_text())
    }

    /// The address a moderator writes commands to by mail.
    pub fn moderator_address(&self, moderator: &str) -> String {
        let key = identity::moderator_secret(&self.secret, moderator);
        let (local, domain) = self.config.address_parts();
        format!("{local}+mod.{key}@{domain}")
    }
}

impl Work<'_> {
    /// The moderator key this mail was sent to (`orderly+mod.<key>@host`).
    pub(super) fn moderator_key(&self) -> Option<String> {
        let (local, domain) = self.config.address_parts();
        self.incoming.recipients().find_map(|a| {
            let (l, d) = a.rsplit_once('@')?;
            if !d.eq_ignore_ascii_case(domain) {
                return None;
            }
            let (base, sub) = l.split_once('+')?;
            let key = sub.strip_prefix("mod.")?;
            base.eq_ignore_ascii_case(local)
                .then(|| key.to_ascii_lowercase())
        })
    }

    /// Whether the action is about a game that names the sender as its
    /// own moderator.
    pub(super) fn own_game(&self, action: &moderation::Action) -> Result<bool> {
        Ok(match moderation::game_of(action) {
            Some(game) => self
                .tx
                .game_moderator(game)?
                .is_some_and(|m| m.eq_ignore_ascii_case(self.sender)),
            None => false,
        })
    }

    /// A mail to a moderator address: every line a moderator command, taken
    /// only from a configured moderator writing to their own key. Like a
    /// player's, the mail is answered once: the moderator's reply echoes
    /// every command, and each player (and each other moderator told)
    /// gets one mail telling all that the mail did in the game
    /// ([`Work::tell_moderated`]).
    pub(super) fn moderator_mail(&mut self, key: &str, lines: &[&str]) -> Result<()> {
        let is_moderator = self
            .config
            .moderators
            .addresses
            .iter()
            .any(|a| a.eq_ignore_ascii_case(self.sender));
        let moderates_a_game = !is_moderator && self.tx.moderates_any(self.sender)?;
        let asked = self.tx.moderation_asked(self.sender)?;
        let own_key = identity::moderator_secret(self.secret, self.sender);
        if !(is_moderator || moderates_a_game || !asked.is_empty()) || !secrets_match(&own_key, key)
        {
            self.item(
                &lines
                    .first()
                    .map_or_else(|| texts::say("mail.nothing", ()), |l| l.to_string()),
                Answer::Refused(texts::say("moderator.not_a_moderator", ())),
            );
            return Ok(());
        }
        let mut told: Vec<Told> = Vec::new();
        for line in lines {
            // A game's own moderator is appointed by accepting, by mail.
            if let Some((accept, game)) = moderation_answer(line) {
                let answer = if asked.contains(&game) {
                    self.tx.answer_moderation(game, accept)?;
                    let context = minijinja::context! { moderator => self.sender, game => game };
                    let words = if accept {
                        texts::say("moderator.accepted", &context)
                    } else {
                        texts::say("moderator.declined", &context)
                    };
                    told.push(Told::Answered(game, words.clone()));
                    Answer::Done(words)
                } else {
                    Answer::Refused(texts::say(
                        "moderator.not_asked",
                        minijinja::context! { game => game },
                    ))
                };
                self.item(line, answer);
                continue;
            }
            let answer = match moderation::parse(line, |id| kind_of(self.tx, id)) {
                // A game's own moderator acts on that game only.
                Ok(action) if !is_moderator && !self.own_game(&action)? => {
                    Answer::Refused(texts::say("moderator.not_your_game", ()))
                }
                Ok(action) => {
                    let seed = format!("{}/{line}", self.message_id);
                    let cx = moderation::Context {
                        config: self.config,
                        secret: self.secret,
                        moderator: self.sender,
                        now: self.now,
                        seed: &seed,
                    };
                    let mut announcement = None;
                    let answer = moderation::carry_out(self.tx, &cx, &action, &mut announcement)?;
                    told.extend(announcement.map(Told::Acted));
                    answer
                }
                Err(usage) => Answer::NotUnderstood(texts::say(
                    "moderator.not_understood",
                    minijinja::context! { usage => usage },
                )),
            };
            self.item(line, answer);
        }
        self.tell_moderated(&told)
    }

    /// Tells what a moderator's mail did, once to each: every player of a
    /// game it acted on gets one mail (a new player's welcome, what was
    /// done, in the order of the mail's lines, then the game as it now
    /// stands: the update owed, sent with the reply); the moderators of a
    /// game whose moderation was answered get one mail each, the writer
    /// none (his reply says it).
    fn tell_moderated(&mut self, told: &[Told]) -> Result<()> {
        let mut games: Vec<i64> = Vec::new();
        for t in told {
            if !games.contains(&t.game()) {
                games.push(t.game());
            }
        }
        let mut to_moderators: Vec<(String, i64, Vec<String>)> = Vec::new();
        for game in games {
            let row = self.reload(game)?;
            let seats = self.tx.seats(game)?;
            let here = || told.iter().filter(|t| t.game() == game);
            if here().any(|t| matches!(t, Told::Acted(_))) {
                self.broadcast(&row, &[], None)?;
            }
            if here().any(|t| matches!(t, Told::Acted(a) if a.board_changed)) {
                self.owe_watchers(game);
            }
            for seat in &seats {
                for t in here() {
                    let words = match t {
                        Told::Acted(a) => {
                            if let Some((_, welcome)) =
                                a.welcome.iter().find(|(s, _)| *s == seat.seat)
                            {
                                self.notify(&row, seat.seat, welcome, None, "welcome");
                            }
                            a.to(self.tx, &seat.address)?
                        }
                        Told::Answered(_, words) => words.clone(),
                    };
                    self.notify(&row, seat.seat, &words, None, "moderator");
                }
            }
            // The players who lost their seat to a new one (REPLACE).
            for (n, t) in here().enumerate() {
                if let Told::Acted(moderation::Announcement {
                    farewell: Some((old, words)),
                    ..
                }) = t
                {
                    let seed = format!("{}/farewell/{game}/{n}", self.message_id);
                    queue_notice(
                        self.tx,
                        self.config,
                        &row,
                        old,
                        None,
                        words.clone(),
                        &seed,
                        self.now,
                    )?;
                }
            }
            for moderator in moderators_of(self.tx, self.config, game)? {
                if moderator.eq_ignore_ascii_case(self.sender) {
                    continue;
                }
                for t in here() {
                    let Told::Answered(_, words) = t else {
                        continue;
                    };
                    match to_moderators.iter_mut().find(|(m, ..)| *m == moderator) {
                        Some((_, _, all)) => all.push(words.clone()),
                        None => to_moderators.push((moderator.clone(), game, vec![words.clone()])),
                    }
                }
            }
        }
        for (n, (moderator, game, words)) in to_moderators.into_iter().enumerate() {
            let row = self.reload(game)?;
            let body = texts::wrap(&words.join("\n"));
            let seed = format!("{}/moderation/{n}", self.message_id);
            queue_notice(
                self.tx,
                self.config,
                &row,
                &moderator,
                None,
                body,
                &seed,
                self.now,
            )?;
        }
        Ok(())
    }
}

/// What one line of a moderator's mail tells the people of a game.
enum Told {
    /// A moderator command carried out, for the game's players.
    Acted(moderation::Announcement),
    /// A game's own moderator answered (ACCEPT or DECLINE MODERATION), for
    /// the game's players and moderators: the game and the words.
    Answered(i64, String),
}

impl Told {
    /// The game it is about.
    fn game(&self) -> i64 {
        match self {
            Told::Acted(a) => a.game,
            Told::Answered(game, _) => *game,
        }
    }
}

/// `ACCEPT MODERATION 12` or `DECLINE MODERATION 12` (also `... GAME 12`):
/// (accepts?, the game).
fn moderation_answer(line: &str) -> Option<(bool, i64)> {
    let words: Vec<String> = line
        .split_whitespace()
        .take(4)
        .map(str::to_ascii_uppercase)
        .collect();
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [verb @ ("ACCEPT" | "DECLINE"), "MODERATION" | "GAME", n] => {
            Some((*verb == "ACCEPT", n.parse().ok()?))
        }
        _ => None,
    }
}
