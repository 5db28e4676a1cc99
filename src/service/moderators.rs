//! Where moderator commands come in: a mail to a moderator's own address
//! (`orderly+mod.<key>@host`), taken only from a moderator writing to
//! their own key, or the command line (`orderly mod ...`). What each
//! command does is [`moderation`](super::moderation)'s.

use chrono::{DateTime, Utc};

use super::game::kind_of;
use super::identity::{self, secrets_match};
use super::notices::notify_game;
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
            Err(usage) => return Ok(format!("Not understood: {usage}")),
        };
        let seed = format!("cli/{}/{}", Timestamp::from(now), line);
        let cx = moderation::Context {
            config: &self.config,
            secret: &self.secret,
            moderator,
            now,
            seed: &seed,
        };
        let report = moderation::execute(&tx, &cx, &action)?;
        tx.commit()?;
        self.drain_outbox(now)?;
        Ok(report)
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
    /// only from a configured moderator writing to their own key.
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
                lines.first().copied().unwrap_or("(nothing)"),
                "Refused: this address takes commands only from a moderator writing \
                 to their own moderator address. Nothing was done.",
                true,
            );
            return Ok(());
        }
        for line in lines {
            // A game's own moderator is appointed by accepting, by mail.
            if let Some((accept, game)) = moderation_answer(line) {
                let answer = if asked.contains(&game) {
                    self.tx.answer_moderation(game, accept)?;
                    let row = self.reload(game)?;
                    let words = if accept {
                        format!("{} accepted to moderate game {game}.", self.sender)
                    } else {
                        format!(
                            "{} declined to moderate game {game}; it has no moderator of its own.",
                            self.sender
                        )
                    };
                    let seed = format!("{}/moderation/{game}", self.message_id);
                    notify_game(
                        self.tx,
                        self.config,
                        &row,
                        |_| true,
                        &texts::wrap(&words),
                        &seed,
                        self.now,
                    )?;
                    (words, false)
                } else {
                    (
                        format!("Refused: game {game} has not asked you to moderate it."),
                        true,
                    )
                };
                self.item(line, answer.0, answer.1);
                continue;
            }
            let report = match moderation::parse(line, |id| kind_of(self.tx, id)) {
                // A game's own moderator acts on that game only.
                Ok(action) if !is_moderator && !self.own_game(&action)? => {
                    "Refused: you moderate only the games that name you, once you \
                     accepted (ACCEPT MODERATION <game>)."
                        .to_string()
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
                    moderation::execute(self.tx, &cx, &action)?
                }
                Err(usage) => format!("Not understood: {usage}"),
            };
            let refused = report.starts_with("Refused") || report.starts_with("Not understood");
            self.item(line, report, refused);
        }
        Ok(())
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
