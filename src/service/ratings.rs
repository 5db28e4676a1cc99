//! Ratings in the service (docs/ratings.md): which games are rated, what a
//! rated game's end does to its players' Glicko-2 ratings (in the
//! transaction that ends it), the words of the last mails, `RATINGS` and
//! `RATING` by mail, and the command line's `orderly ratings`. The
//! arithmetic is the `skillratings` crate's, through [`crate::ratings`].

use chrono::{DateTime, Utc};

use super::game::side_name;
use super::reply::Answer;
use super::work::Work;
use super::{texts, Result};
use crate::config::{Config, RatingsConfig};
use crate::games::{hosted, GameResult};
use crate::ratings::{decayed, idle_periods, rate, Rating};
use crate::store::{GameRow, RatingChange, RatingRow, Store, Timestamp, Tx};

/// Whether a game is rated when its NEW says neither RATED nor UNRATED:
/// a game between two people is; a game against the computer only when
/// `[ratings] against_computer` says so. (The same rule bounds RATED: a
/// game against the computer is never rated while it is false.)
pub fn rated_by_default(config: &RatingsConfig, against_computer: bool) -> bool {
    !against_computer || config.against_computer
}

/// Whether `address` is the computer's own player (the computer
/// opponent, `NEW <GAME> VS COMPUTER`), whose games [`rated_by_default`]
/// rates only when configured.
///
/// The computer's player is the reserved address of `[computer] address`
/// (`computer.rs`); every other address is a person.
pub(crate) fn is_computer(config: &Config, address: &str) -> bool {
    address
        .trim()
        .eq_ignore_ascii_case(config.computer.address.trim())
}

/// Whether `address` is a reserved seat's that reads no mail and sends
/// none: the computer's, or the community's in the Play of the Day
/// (`daily.rs`). Nothing is ever queued to it, its seat has no deadline,
/// and mail from it is ignored.
pub(crate) fn reads_no_mail(config: &Config, address: &str) -> bool {
    is_computer(config, address) || super::daily::is_community(config, address)
}

/// Ends `game` with `result`: its end recorded ([`Tx::finish`]) and, for a
/// rated game, both players' ratings changed, in the same transaction.
/// Every end of a game goes through here: by the rules, a resignation, a
/// draw agreed, a win on time, a moderator's forfeit or ruling.
pub(crate) fn finish(
    tx: &Tx<'_>,
    config: &Config,
    game: i64,
    result: GameResult,
    termination: &str,
    at: Timestamp,
) -> Result<()> {
    tx.finish(game, result, termination, at)?;
    settle(tx, &config.ratings, game, at)
}

/// What the end of rated game `game` (at `at`) does to its players'
/// ratings in its kind: one rating period of one game for both, after
/// each one's deviation grew for the periods they were away. Nothing for
/// a game not rated, without a result, or rated already.
fn settle(tx: &Tx<'_>, config: &RatingsConfig, game: i64, at: Timestamp) -> Result<()> {
    let Some(row) = tx.game(game)? else {
        return Ok(());
    };
    let Some(result) = row.result else {
        return Ok(());
    };
    if !row.rated || !tx.rating_changes(game)?.is_empty() {
        return Ok(());
    }
    let seats = tx.seats(game)?;
    let (Some(north), Some(south)) = (
        seats.iter().find(|s| s.seat == crate::games::Seat::North),
        seats.iter().find(|s| s.seat == crate::games::Seat::South),
    ) else {
        return Ok(());
    };
    // A player given both seats (REPLACE) plays nobody.
    if north.player_id == south.player_id {
        return Ok(());
    }
    let before = |player: i64| -> Result<(Rating, i64)> {
        Ok(match tx.rating(player, &row.kind)? {
            Some(r) => (
                decayed(
                    r.rating,
                    idle_periods(r.updated.utc(), at.utc(), config.period_days),
                ),
                r.games,
            ),
            None => (Rating::newcomer(), 0),
        })
    };
    let (n_old, n_games) = before(north.player_id)?;
    let (s_old, s_games) = before(south.player_id)?;
    let (n_new, s_new) = rate(n_old, s_old, result);
    for (seat, old, new, games) in [
        (north, n_old, n_new, n_games),
        (south, s_old, s_new, s_games),
    ] {
        tx.set_rating(seat.player_id, &row.kind, new, games + 1, at)?;
        tx.add_rating_change(&RatingChange {
            game_id: game,
            seat: seat.seat,
            player_id: seat.player_id,
            kind: row.kind.clone(),
            old: (old.rating, old.deviation),
            new: (new.rating, new.deviation),
        })?;
    }
    Ok(())
}

/// What a rated game's end did to its players' ratings, in words, for its
/// last mails (to the players and the observers); `None` for a game whose
/// end changed no rating.
pub(super) fn changes_told(tx: &Tx<'_>, game: &GameRow) -> Result<Option<String>> {
    let changes = tx.rating_changes(game.id)?;
    if changes.is_empty() {
        return Ok(None);
    }
    let seats = tx.seats(game.id)?;
    let lines: Vec<minijinja::Value> = changes
        .iter()
        .map(|c| {
            let who = seats
                .iter()
                .find(|s| s.seat == c.seat)
                .map(|s| super::computer::seat_name(game, s))
                .unwrap_or_default();
            minijinja::context! {
                side => side_name(game, c.seat),
                who => who,
                old => whole(c.old.0),
                old_deviation => whole(c.old.1),
                new => whole(c.new.0),
                new_deviation => whole(c.new.1),
                change => signed(c.new.0 - c.old.0),
            }
        })
        .collect();
    Ok(Some(
        texts::say(
            "ratings.changed",
            minijinja::context! { kind => game.kind.to_ascii_uppercase(), changes => lines },
        )
        .trim_end()
        .to_string(),
    ))
}

/// A rating as players read it: whole points.
fn whole(x: f64) -> String {
    format!("{x:.0}")
}

/// A change of rating with its sign: `+162`, `-162`, `0`.
fn signed(x: f64) -> String {
    let rounded = x.round();
    if rounded > 0.0 {
        format!("+{rounded:.0}")
    } else if rounded < 0.0 {
        format!("{rounded:.0}")
    } else {
        "0".to_string()
    }
}

/// A rating as of `now`: its deviation grown for the whole periods since
/// its last rated game.
fn as_of(row: &RatingRow, config: &RatingsConfig, now: DateTime<Utc>) -> Rating {
    decayed(
        row.rating,
        idle_periods(row.updated.utc(), now, config.period_days),
    )
}

/// How a rated player is named in a list anyone may ask for (`RATINGS`):
/// their display name when known, else their address's local part only,
/// so that the list hands out nobody's address.
fn listed_name(row: &RatingRow) -> String {
    if !row.name.trim().is_empty() {
        return row.name.trim().to_string();
    }
    let local = row.address.split('@').next().unwrap_or_default();
    format!("{local}@...")
}

impl Work<'_> {
    /// `RATINGS [<GAME>]`: the best rated players of each kind of game (or
    /// of the one named), their deviation as of now.
    pub(super) fn ratings(&mut self, line: &str, game: Option<&str>) -> Result<()> {
        let kinds: Vec<&str> = match game {
            None => hosted::GAMES.to_vec(),
            Some(name) => match hosted::canonical(name) {
                Some(kind) => vec![kind],
                None => {
                    self.item(
                        line,
                        Answer::Refused(texts::say(
                            "ratings.no_such_game",
                            minijinja::context! { game => name, listing => hosted::listing() },
                        )),
                    );
                    return Ok(());
                }
            },
        };
        let config = &self.config.ratings;
        let mut sections = Vec::new();
        for kind in kinds {
            let rows = self.tx.top_ratings(kind, i64::from(config.top))?;
            let players: Vec<minijinja::Value> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let now = as_of(r, config, self.now);
                    minijinja::context! {
                        place => i + 1,
                        rating => whole(now.rating),
                        deviation => whole(now.deviation),
                        games => r.games,
                        name => listed_name(r),
                    }
                })
                .collect();
            sections.push(minijinja::context! {
                kind => kind.to_ascii_uppercase(),
                players => players,
            });
        }
        self.item(
            line,
            Answer::Done(texts::say(
                "ratings.top",
                minijinja::context! { top => config.top },
            )),
        );
        self.parts.push(texts::wrap(&texts::say(
            "ratings.list",
            minijinja::context! { sections => sections },
        )));
        Ok(())
    }

    /// `RATING [address]`: a player's rating in each kind of game they
    /// were rated in, with their rated games; the writer's own without
    /// an address.
    pub(super) fn rating(&mut self, line: &str, who: Option<&str>) -> Result<()> {
        let address = who.unwrap_or(self.sender).to_string();
        let rows = match self.tx.player_id(&address)? {
            Some(player) => self.tx.ratings_of(player)?,
            None => Vec::new(),
        };
        if rows.is_empty() {
            self.item(
                line,
                Answer::Done(texts::say(
                    "ratings.none",
                    minijinja::context! { who => address, own => who.is_none() },
                )),
            );
            return Ok(());
        }
        let config = &self.config.ratings;
        let kinds: Vec<minijinja::Value> = rows
            .iter()
            .map(|r| {
                let now = as_of(r, config, self.now);
                minijinja::context! {
                    kind => r.kind.to_ascii_uppercase(),
                    rating => whole(now.rating),
                    deviation => whole(now.deviation),
                    volatility => format!("{:.4}", now.volatility),
                    games => r.games,
                    last => r.updated.utc().format("%Y-%m-%d").to_string(),
                }
            })
            .collect();
        self.item(
            line,
            Answer::Done(texts::say(
                "ratings.of",
                minijinja::context! { who => address, kinds => kinds },
            )),
        );
        Ok(())
    }
}

/// `orderly ratings [--game KIND]`: every rated player of each kind (or of
/// `kind`), highest first, with full addresses (the command line is the
/// operator's), deviations as of `now`. `Err` names an unknown game.
pub fn ratings_report(
    store: &mut Store,
    config: &Config,
    kind: Option<&str>,
    now: DateTime<Utc>,
) -> Result<std::result::Result<String, String>> {
    let kinds: Vec<&str> = match kind {
        None => hosted::GAMES.to_vec(),
        Some(name) => match hosted::canonical(name) {
            Some(kind) => vec![kind],
            None => {
                return Ok(Err(format!(
                    "orderly hosts no game {name:?}: {}",
                    hosted::GAMES.join(", ")
                )))
            }
        },
    };
    let tx = store.read()?;
    let mut out = String::new();
    for kind in kinds {
        let rows = tx.top_ratings(kind, i64::MAX)?;
        out.push_str(&format!("{kind}: {} rated\n", rows.len()));
        for (i, r) in rows.iter().enumerate() {
            let now = as_of(r, &config.ratings, now);
            out.push_str(&format!(
                "{:>4}  {:>6.1}  RD {:>5.1}  vol {:.4}  {:>3} game{}  {}\n",
                i + 1,
                now.rating,
                now.deviation,
                now.volatility,
                r.games,
                if r.games == 1 { " " } else { "s" },
                r.address
            ));
        }
    }
    Ok(Ok(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_against_the_computer_is_rated_only_when_configured() {
        let mut config = RatingsConfig::default();
        assert!(rated_by_default(&config, false));
        assert!(!rated_by_default(&config, true));
        config.against_computer = true;
        assert!(rated_by_default(&config, true));
    }

    #[test]
    fn changes_are_signed_whole_points() {
        assert_eq!(signed(161.6), "+162");
        assert_eq!(signed(-161.6), "-162");
        assert_eq!(signed(0.2), "0");
        assert_eq!(whole(289.5), "290");
    }
}
