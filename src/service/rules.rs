//! `HELP RULES`: a game's rules in the project's own words, as each game
//! carries them (`Game::RULES`, the pages of `docs/rules/` built into the
//! binary).

use super::identity::{secrets_match, Claim};
use super::work::Work;
use super::Result;
use crate::games::hosted;

impl Work<'_> {
    /// Answers `HELP RULES [game]` with the rules of the game named, else of
    /// the game the mail is about (by a key of that game), else of the first
    /// hosted game; the answer says how to ask for the other games'.
    pub(super) fn help_rules(
        &mut self,
        line: &str,
        named: Option<&str>,
        claim: Option<&Claim>,
    ) -> Result<()> {
        let name = match named {
            Some(word) => match hosted::canonical(word) {
                Some(name) => name,
                None => {
                    let answer = format!(
                        "Not understood: {word:?} is not a game here; write {}.",
                        asking(hosted::GAMES.iter().copied())
                    );
                    self.item(line, answer, true);
                    return Ok(());
                }
            },
            None => self.claimed_game(claim)?.unwrap_or(hosted::GAMES[0]),
        };
        let (Some(title), Some(rules)) = (hosted::title(name), hosted::rules(name)) else {
            return Ok(());
        };
        let others = asking(hosted::GAMES.iter().copied().filter(|g| *g != name));
        self.item(
            line,
            format!("The rules of {title} are below. For another game's, write {others}."),
            false,
        );
        self.parts.push(rules.trim_end().to_string());
        Ok(())
    }

    /// The hosted game the mail names by one of its keys, if any. Rules
    /// are no secret, but the kind of someone else's game is not told.
    fn claimed_game(&self, claim: Option<&Claim>) -> Result<Option<&'static str>> {
        let Some(claim) = claim else {
            return Ok(None);
        };
        let Some(game) = self.tx.game(claim.game)? else {
            return Ok(None);
        };
        let seats = self.tx.seats(game.id)?;
        let own = seats
            .iter()
            .any(|s| secrets_match(&s.secret, &claim.secret));
        Ok(own.then(|| hosted::canonical(&game.kind)).flatten())
    }
}

/// `HELP RULES NAPOLEONIC`, or several joined by "or".
fn asking<'a>(games: impl Iterator<Item = &'a str>) -> String {
    games
        .map(|g| format!("HELP RULES {}", g.to_ascii_uppercase()))
        .collect::<Vec<_>>()
        .join(" or ")
}
