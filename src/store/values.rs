//! The words the store writes for what it types: seats, results, a game's
//! status, an entry's kind.
//!
//! Each is written as the same lower-case word since the first schema, and
//! read back strictly: a word orderly never writes (a hand-edited or
//! damaged database) is an error naming the column, never quietly taken
//! for the nearest thing (a result once read as South whenever it was not
//! `north`).

use std::fmt;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::games::{GameResult, Seat};

/// Text in a column that orderly never writes there.
#[derive(Debug, thiserror::Error)]
#[error("{value:?} is not {expected}")]
pub struct Unknown {
    /// What the column should hold, in words.
    pub expected: &'static str,
    /// What it holds.
    pub value: String,
}

impl Unknown {
    /// `value` found where `expected` belongs.
    pub fn new(expected: &'static str, value: &str) -> Unknown {
        Unknown {
            expected,
            value: value.to_string(),
        }
    }
}

/// Reads one of `words`, by the value each stands for.
fn read<T: Copy>(
    value: ValueRef<'_>,
    expected: &'static str,
    words: &[(T, &'static str)],
) -> FromSqlResult<T> {
    let text = value.as_str()?;
    words
        .iter()
        .find(|(_, word)| *word == text)
        .map(|(v, _)| *v)
        .ok_or_else(|| FromSqlError::other(Unknown::new(expected, text)))
}

/// The seat's name in the database (and in the seeds of Message-IDs, which
/// quote it).
pub fn seat_text(seat: Seat) -> &'static str {
    match seat {
        Seat::North => "north",
        Seat::South => "south",
    }
}

impl ToSql for Seat {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(seat_text(*self)))
    }
}

impl FromSql for Seat {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Seat> {
        read(
            value,
            "a seat (north or south)",
            &Seat::BOTH.map(|s| (s, seat_text(s))),
        )
    }
}

/// How a result is written: the winning seat, or `draw` (in `games.result`
/// and as the text of an `adjudicate` entry).
pub fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::Win(seat) => seat_text(seat),
        GameResult::Draw => "draw",
    }
}

/// The result `text` names, if it names one (the text of an `adjudicate`
/// entry).
pub fn result_from_text(text: &str) -> Option<GameResult> {
    RESULTS.iter().find(|r| result_text(**r) == text).copied()
}

const RESULTS: [GameResult; 3] = [
    GameResult::Win(Seat::North),
    GameResult::Win(Seat::South),
    GameResult::Draw,
];

impl ToSql for GameResult {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(result_text(*self)))
    }
}

impl FromSql for GameResult {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<GameResult> {
        read(
            value,
            "a result (north, south or draw)",
            &RESULTS.map(|r| (r, result_text(r))),
        )
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Proposed by NEW, waiting for the invited player.
    Invited,
    /// Being played.
    Active,
    /// Over, with a result.
    Finished,
    /// The invited player declined.
    Declined,
    /// Nobody answered the invitation in time.
    Expired,
}

impl GameStatus {
    const ALL: [GameStatus; 5] = [
        GameStatus::Invited,
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Declined,
        GameStatus::Expired,
    ];

    /// The word stored, and shown to players and moderators (`game 12 is
    /// finished`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Invited => "invited",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Declined => "declined",
            GameStatus::Expired => "expired",
        }
    }

    /// Whether the game is still going on (proposed or played): what
    /// moderators may act on and bounces concern.
    pub fn is_open(self) -> bool {
        matches!(self, GameStatus::Invited | GameStatus::Active)
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ToSql for GameStatus {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for GameStatus {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<GameStatus> {
        read(
            value,
            "a game status (invited, active, finished, declined or expired)",
            &GameStatus::ALL.map(|s| (s, s.as_str())),
        )
    }
}

/// What an entry of a game's record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// An order of the game, in its canonical notation.
    Order,
    /// A seat resigned.
    Resign,
    /// Both seats agreed a draw.
    Draw,
    /// Words for the record only (a moderator's note, an answer given in
    /// advance).
    Comment,
    /// A result decided outside the rules (a moderator's ruling, a win
    /// claimed on time); its text is the result (see [`result_text`]).
    Adjudicate,
}

impl EntryKind {
    const ALL: [EntryKind; 5] = [
        EntryKind::Order,
        EntryKind::Resign,
        EntryKind::Draw,
        EntryKind::Comment,
        EntryKind::Adjudicate,
    ];

    /// The word stored.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Order => "order",
            EntryKind::Resign => "resign",
            EntryKind::Draw => "draw",
            EntryKind::Comment => "comment",
            EntryKind::Adjudicate => "adjudicate",
        }
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ToSql for EntryKind {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for EntryKind {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<EntryKind> {
        read(
            value,
            "an entry kind (order, resign, draw, comment or adjudicate)",
            &EntryKind::ALL.map(|k| (k, k.as_str())),
        )
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::types::{FromSql, ToSql, ToSqlOutput, Value, ValueRef};

    use super::{result_from_text, EntryKind, GameStatus};
    use crate::games::{GameResult, Seat};

    fn written(value: &dyn ToSql) -> String {
        match value.to_sql().unwrap() {
            ToSqlOutput::Borrowed(ValueRef::Text(t)) => String::from_utf8(t.to_vec()).unwrap(),
            ToSqlOutput::Owned(Value::Text(t)) => t,
            other => panic!("not text: {other:?}"),
        }
    }

    fn read<T: FromSql>(text: &str) -> Option<T> {
        T::column_result(ValueRef::Text(text.as_bytes())).ok()
    }

    #[test]
    fn every_word_reads_back_as_what_wrote_it() {
        for seat in Seat::BOTH {
            assert_eq!(read::<Seat>(&written(&seat)), Some(seat));
        }
        for result in [
            GameResult::Win(Seat::North),
            GameResult::Win(Seat::South),
            GameResult::Draw,
        ] {
            let text = written(&result);
            assert_eq!(read::<GameResult>(&text), Some(result));
            assert_eq!(result_from_text(&text), Some(result));
        }
        for status in GameStatus::ALL {
            assert_eq!(read::<GameStatus>(&written(&status)), Some(status));
        }
        for kind in EntryKind::ALL {
            assert_eq!(read::<EntryKind>(&written(&kind)), Some(kind));
        }
        assert_eq!(written(&GameResult::Win(Seat::South)), "south");
        assert_eq!(written(&GameStatus::Expired), "expired");
    }

    #[test]
    fn a_word_orderly_never_writes_is_no_value() {
        assert_eq!(read::<Seat>("west"), None);
        assert_eq!(read::<Seat>("North"), None);
        // Once read as a win of South.
        assert_eq!(read::<GameResult>("blue"), None);
        assert_eq!(result_from_text("blue"), None);
        assert_eq!(read::<GameStatus>("paused"), None);
        assert_eq!(read::<EntryKind>("move"), None);
    }
}
