//! The tag pairs of a record: a fixed roster in a fixed order, then any
//! extra tags in the order they were given.

use std::fmt;
use std::str::FromStr;

use crate::games::hosted::Hosted;
use crate::games::Seat;

use super::Finish;

/// The tag pairs of a record.
///
/// Unknown values are `"?"` for text and `None` for dates. The seat tags are
/// named by the game's seat names (`[Blue "..."]`, `[Gray "..."]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tags {
    /// `Game`: the game's short name ([`Game::NAME`](crate::games::Game::NAME)).
    pub game: String,
    /// `Title`: the game's full title ([`GameText::TITLE`](crate::games::GameText::TITLE)).
    pub title: String,
    /// `Rules`: the rules and their version the game was played under
    /// ([`Game::RULES_VERSION`](crate::games::Game::RULES_VERSION) when orderly recorded it).
    pub rules: String,
    /// `GameId`: the service's identifier of the game.
    pub game_id: String,
    /// `Site`: where it was played (the service's address).
    pub site: String,
    /// The players, by seat (North, South): `Name <address>` or `"?"`.
    pub players: [String; 2],
    /// `First`: the seat that took the first turn; `None` when the game
    /// starts from a `Position` and the record does not say.
    pub first: Option<Seat>,
    /// `Seed`: the seed of a game with chance.
    pub seed: Option<u64>,
    /// `Started`: the day the game was created.
    pub started: Option<Date>,
    /// `Ended`: the day it ended.
    pub ended: Option<Date>,
    /// `Result` and `Termination`: how the game ended, or `None` while it
    /// goes on (`"*"`).
    pub finish: Option<Finish>,
    /// `Position`: the position the game started from, when not the opening.
    pub position: Option<String>,
    extra: Vec<(String, String)>,
    /// The game's seat names (North, South), which name the seat tags.
    seats: [&'static str; 2],
}

/// The tags of the roster, in the order they are written. `North` and
/// `South` stand for the game's seat names; `Seed` and `Position` are
/// written only when set.
pub(crate) const ROSTER: [&str; 14] = [
    "Game",
    "Title",
    "Rules",
    "GameId",
    "Site",
    "North",
    "South",
    "First",
    "Seed",
    "Started",
    "Ended",
    "Result",
    "Termination",
    "Position",
];

/// An extra tag that cannot be added.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    /// The name is not letters, digits and `_`, starting with a letter.
    #[error("{0:?} is not a tag name: use letters, digits and _, starting with a letter")]
    BadName(String),
    /// The name is one of the roster's (a seat's name included), which
    /// have their own fields.
    #[error("{0} is a standard tag: set its field instead")]
    Standard(String),
}

impl Tags {
    /// The roster of a new game of `game`: every value unknown but what the
    /// game itself says.
    pub fn new(
        game: &Hosted,
        first: Option<Seat>,
        seed: Option<u64>,
        position: Option<String>,
    ) -> Tags {
        Tags {
            game: game.name.to_string(),
            title: game.title.to_string(),
            rules: game.rules_version.to_string(),
            game_id: "?".to_string(),
            site: "?".to_string(),
            players: ["?".to_string(), "?".to_string()],
            first,
            seed,
            started: None,
            ended: None,
            finish: None,
            position,
            extra: Vec::new(),
            seats: game.seats,
        }
    }

    /// The game's name for `seat`, which is also its tag's name.
    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.seats[seat.index()]
    }

    /// The extra tags, in the order they were given.
    pub fn extra(&self) -> &[(String, String)] {
        &self.extra
    }

    /// Sets an extra tag (replacing one of the same name, any case).
    pub fn set_extra(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        if !is_tag_name(name) {
            return Err(TagError::BadName(name.to_string()));
        }
        if is_standard(name) || self.seats.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            return Err(TagError::Standard(name.to_string()));
        }
        let value = clean_value(value);
        match self
            .extra
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value,
            None => self.extra.push((name.to_string(), value)),
        }
        Ok(())
    }

    /// An extra tag's value.
    pub fn get_extra(&self, name: &str) -> Option<&str> {
        self.extra
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Adds an extra tag read from a record, already checked.
    pub(crate) fn push_extra(&mut self, name: String, value: String) {
        self.extra.push((name, value));
    }
}

/// Whether `name` is one of the roster's tags (`North` and `South` stand
/// for the seat tags, which the caller checks).
pub(crate) fn is_standard(name: &str) -> bool {
    ROSTER
        .iter()
        .filter(|r| !matches!(**r, "North" | "South"))
        .any(|r| r.eq_ignore_ascii_case(name))
}

/// Letters, digits and `_`, starting with a letter.
pub(crate) fn is_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A tag value as written: one line, no control characters.
pub(crate) fn clean_value(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// A calendar day, written `YYYY-MM-DD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

/// Text that is not a day.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a date: write YYYY-MM-DD, or ? when unknown")]
pub struct DateError {
    /// The text.
    pub text: String,
}

impl Date {
    /// The day, if it exists (years 1000 to 9999 of the Gregorian calendar).
    pub fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        let leap =
            year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        ((1000..=9999).contains(&year) && (1..=days).contains(&day)).then_some(Date {
            year,
            month,
            day,
        })
    }

    /// The year.
    pub fn year(self) -> u16 {
        self.year
    }

    /// The month, 1 to 12.
    pub fn month(self) -> u8 {
        self.month
    }

    /// The day of the month, from 1.
    pub fn day(self) -> u8 {
        self.day
    }
}

/// Reads `YYYY-MM-DD`, or PGN's `YYYY.MM.DD`.
impl FromStr for Date {
    type Err = DateError;

    fn from_str(text: &str) -> Result<Date, DateError> {
        let error = || DateError {
            text: text.to_string(),
        };
        let t = text.trim();
        let sep = if t.contains('.') { '.' } else { '-' };
        let parts: Vec<&str> = t.split(sep).collect();
        let [y, m, d] = parts.as_slice() else {
            return Err(error());
        };
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(y, 4) || !digits(m, 2) || !digits(d, 2) {
            return Err(error());
        }
        let (Ok(year), Ok(month), Ok(day)) = (y.parse(), m.parse(), d.parse()) else {
            return Err(error());
        };
        Date::new(year, month, day).ok_or_else(error)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_checked_by_hand() {
        assert_eq!(
            "2026-11-21".parse::<Date>().map(|d| d.to_string()),
            Ok("2026-11-21".to_string())
        );
        assert_eq!(
            "2024.02.29".parse::<Date>().map(|d| d.to_string()),
            Ok("2024-02-29".to_string())
        );
        for bad in [
            "2026-02-29",
            "1900-02-29",
            "2026-13-01",
            "2026-1-01",
            "26-01-01",
            "2026-04-31",
            "today",
            "",
        ] {
            assert!(bad.parse::<Date>().is_err(), "{bad}");
        }
        assert!("2000-02-29".parse::<Date>().is_ok());
    }

    #[test]
    fn extra_tags_are_checked() {
        let squares = Hosted::of::<crate::games::squares::Squares>();
        let mut tags = Tags::new(&squares, Some(Seat::North), None, None);
        assert!(tags.set_extra("Round", "3").is_ok());
        assert!(tags.set_extra("round", "4").is_ok());
        assert_eq!(tags.extra(), &[("Round".to_string(), "4".to_string())]);
        assert!(matches!(
            tags.set_extra("result", "x"),
            Err(TagError::Standard(_))
        ));
        assert!(matches!(
            tags.set_extra("1x", "x"),
            Err(TagError::BadName(_))
        ));
    }
}
