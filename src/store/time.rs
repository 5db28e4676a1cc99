//! The one way the store writes a moment: RFC 3339 in UTC, to the
//! millisecond, with a `Z` (`2026-11-24T09:30:00.000Z`).
//!
//! Every time column holds that text, written since the first schema, so
//! that SQL compares times as text (`deadline <= ?1`, the partial indexes)
//! and old databases read the same. [`Timestamp`] is that text as a value:
//! it keeps only whole milliseconds, so a time in memory equals the time
//! read back, and a column that does not hold a time is an error, never
//! taken for "now".

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::store::values::Unknown;

/// A moment as the store keeps it: UTC, whole milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(DateTime<Utc>);

impl Timestamp {
    /// The moment, for arithmetic and time zones.
    pub fn utc(self) -> DateTime<Utc> {
        self.0
    }
}

impl From<DateTime<Utc>> for Timestamp {
    /// The moment as it will be stored: what lies below the millisecond is
    /// dropped, as the stored text always dropped it.
    fn from(at: DateTime<Utc>) -> Timestamp {
        Timestamp(at.trunc_subsecs(3))
    }
}

impl From<Timestamp> for DateTime<Utc> {
    fn from(at: Timestamp) -> DateTime<Utc> {
        at.0
    }
}

impl fmt::Display for Timestamp {
    /// The stored text: seeds of Message-IDs and record comments quote it,
    /// so it never changes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.to_rfc3339_opts(SecondsFormat::Millis, true))
    }
}

impl FromStr for Timestamp {
    type Err = chrono::ParseError;

    /// Any RFC 3339 time (the store's own text, or one with an offset).
    fn from_str(text: &str) -> Result<Timestamp, chrono::ParseError> {
        Ok(DateTime::parse_from_rfc3339(text)?
            .with_timezone(&Utc)
            .into())
    }
}

impl ToSql for Timestamp {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.to_string()))
    }
}

impl FromSql for Timestamp {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Timestamp> {
        let text = value.as_str()?;
        text.parse()
            .map_err(|_| FromSqlError::other(Unknown::new("a time (RFC 3339)", text)))
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::Timestamp;

    #[test]
    fn the_text_is_the_one_written_since_the_first_schema() {
        let at = Utc
            .with_ymd_and_hms(2026, 11, 24, 9, 30, 0)
            .single()
            .unwrap()
            + chrono::Duration::nanoseconds(123_456_789);
        let stamp = Timestamp::from(at);
        assert_eq!(stamp.to_string(), "2026-11-24T09:30:00.123Z");
        assert_eq!(
            stamp.to_string(),
            at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
        );
        assert_eq!("2026-11-24T09:30:00.123Z".parse::<Timestamp>(), Ok(stamp));
        assert_eq!(
            "2026-11-24T10:30:00.123+01:00".parse::<Timestamp>(),
            Ok(stamp)
        );
        assert!("yesterday".parse::<Timestamp>().is_err());
    }
}
