//! Glicko-2 ratings for correspondence play, computed by the `skillratings`
//! crate (never by a formula of our own): what a finished rated game does
//! to its two players' ratings. Pure: no store, no clock of its own; the
//! service passes the moments it read from its injected clock.
//!
//! A rating period (docs/ratings.md): a game by mail takes weeks, and a
//! player has a few games at a time, each ending on its own day. Every
//! finished rated game is therefore its own rating period for its two
//! players: Glicko-2 over one game ([`rate`], the crate's two-player
//! `glicko2`). Time away from rated play counts too: before a game is
//! rated, each player's deviation grows once for every whole period of
//! `period_days` since their last rated game ended ([`idle_periods`],
//! [`decayed`], the crate's `decay_deviation`, Glickman's step for a
//! player who did not compete in a period).

use chrono::{DateTime, Utc};
use skillratings::glicko2::{decay_deviation, glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::games::{GameResult, Seat};

/// A player's Glicko-2 rating in one kind of game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a newcomer).
    pub rating: f64,
    /// The rating deviation (350 for a newcomer; the lower, the surer).
    pub deviation: f64,
    /// The volatility (0.06 for a newcomer).
    pub volatility: f64,
}

impl Rating {
    /// The rating of a player's first rated game of a kind: the crate's
    /// newcomer (1500, 350, 0.06).
    pub fn newcomer() -> Rating {
        Rating::from(Glicko2Rating::new())
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::newcomer()
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The most idle periods counted: the deviation reaches the crate's
/// ceiling (350) long before, and a bound keeps a date far off (a clock
/// set wrong) from costing a long loop.
pub const MOST_IDLE_PERIODS: u32 = 1000;

/// Whole rating periods of `period_days` from `last` (a player's last
/// rated game's end) to `now`; none when `period_days` is 0 (no decay) or
/// `now` is not after `last`.
pub fn idle_periods(last: DateTime<Utc>, now: DateTime<Utc>, period_days: u32) -> u32 {
    if period_days == 0 {
        return 0;
    }
    let days = (now - last).num_days().max(0);
    u32::try_from(days / i64::from(period_days))
        .unwrap_or(MOST_IDLE_PERIODS)
        .min(MOST_IDLE_PERIODS)
}

/// `rating` after `periods` rating periods without a game: its deviation
/// grown by the crate's `decay_deviation` once a period (up to its
/// ceiling); rating and volatility unchanged.
pub fn decayed(rating: Rating, periods: u32) -> Rating {
    let mut r = Glicko2Rating::from(rating);
    for _ in 0..periods.min(MOST_IDLE_PERIODS) {
        let next = decay_deviation(&r);
        if next == r {
            break;
        }
        r = next;
    }
    Rating::from(r)
}

/// One finished game as one rating period for its two players: the new
/// ratings of (north, south) after `result`, by the crate's Glicko-2 with
/// its default system constant (tau 0.5).
pub fn rate(north: Rating, south: Rating, result: GameResult) -> (Rating, Rating) {
    let outcome = match result {
        GameResult::Win(Seat::North) => Outcomes::WIN,
        GameResult::Win(Seat::South) => Outcomes::LOSS,
        GameResult::Draw => Outcomes::DRAW,
    };
    let (n, s) = glicko2(
        &north.into(),
        &south.into(),
        &outcome,
        &Glicko2Config::new(),
    );
    (Rating::from(n), Rating::from(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn idle_periods_are_whole_periods_and_bounded() {
        let t =
            |d: i64| Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + chrono::Duration::days(d);
        assert_eq!(idle_periods(t(0), t(29), 30), 0);
        assert_eq!(idle_periods(t(0), t(30), 30), 1);
        assert_eq!(idle_periods(t(0), t(95), 30), 3);
        assert_eq!(idle_periods(t(10), t(0), 30), 0, "a clock set back");
        assert_eq!(idle_periods(t(0), t(3000), 0), 0, "no decay");
        assert_eq!(idle_periods(t(0), t(1_000_000), 1), MOST_IDLE_PERIODS);
    }

    #[test]
    fn a_newcomer_decays_no_further_and_a_draw_between_equals_moves_no_rating() {
        assert_eq!(decayed(Rating::newcomer(), 5), Rating::newcomer());
        let (n, s) = rate(Rating::newcomer(), Rating::newcomer(), GameResult::Draw);
        assert!((n.rating - 1500.0).abs() < 1e-9 && (s.rating - 1500.0).abs() < 1e-9);
        assert!(n.deviation < 350.0);
    }
}
