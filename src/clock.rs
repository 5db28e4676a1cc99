//! The one place the service reads the time of day.
//!
//! Deadlines, vacations, pauses and invitations all depend on "now", so a
//! test (or a moderator replaying a scenario) must be able to say what now
//! is. The command line takes a hidden `--now <RFC 3339 time>` (or the
//! environment variable [`NOW_VARIABLE`]); the clock then reads that time at
//! start and runs on from it at the real pace, so a daemon started "in the
//! past" still sees its sweeps and backoffs advance.

use chrono::{DateTime, TimeDelta, Utc};

/// The environment variable that sets the clock when `--now` is not given.
pub const NOW_VARIABLE: &str = "ORDERLY_NOW";

/// A clock: the system's, or one set to start at a given time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Added to the system time: zero for the real clock.
    offset: TimeDelta,
    /// The time a stopped clock always reads ([`Clock::stopped_at`]).
    stopped: Option<DateTime<Utc>>,
}

/// A `--now` value that is not a time.
#[derive(Debug, thiserror::Error)]
#[error("--now / {NOW_VARIABLE} takes an RFC 3339 time such as 2026-11-21T10:00:00Z, not {0:?}")]
pub struct BadNow(String);

impl Clock {
    /// The system clock.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// A clock that reads `start` now and runs on from there.
    pub fn starting_at(start: DateTime<Utc>) -> Clock {
        Clock {
            offset: start - Utc::now(),
            stopped: None,
        }
    }

    /// A clock that always reads `at`: for tests whose outcome must not
    /// depend on how fast the machine runs them (a budget per hour of
    /// searches stamped with the time they were made).
    pub fn stopped_at(at: DateTime<Utc>) -> Clock {
        Clock {
            offset: TimeDelta::zero(),
            stopped: Some(at),
        }
    }

    /// The clock the command line asked for: `--now` when given, else
    /// [`NOW_VARIABLE`] when set and not empty, else the system clock.
    pub fn from_flag_or_env(flag: Option<&str>) -> Result<Clock, BadNow> {
        let from_env = std::env::var(NOW_VARIABLE).ok();
        match flag.or(from_env.as_deref()).map(str::trim) {
            None | Some("") => Ok(Clock::system()),
            Some(text) => DateTime::parse_from_rfc3339(text)
                .map(|t| Clock::starting_at(t.with_timezone(&Utc)))
                .map_err(|_| BadNow(text.to_string())),
        }
    }

    /// The time now by this clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.stopped.unwrap_or_else(|| Utc::now() + self.offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_clock_set_in_the_past_reads_that_time_and_runs_on() {
        let start = Utc.with_ymd_and_hms(2001, 2, 3, 4, 5, 6).unwrap();
        let clock = Clock::starting_at(start);
        let read = clock.now();
        assert!(
            read >= start && read - start < TimeDelta::minutes(5),
            "{read}"
        );
    }

    #[test]
    fn a_stopped_clock_always_reads_its_time() {
        let at = Utc.with_ymd_and_hms(2001, 2, 3, 4, 5, 6).unwrap();
        let clock = Clock::stopped_at(at);
        assert_eq!(clock.now(), at);
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert_eq!(clock.now(), at);
    }

    #[test]
    fn a_flag_that_is_no_time_is_refused_with_an_example() {
        let err = Clock::from_flag_or_env(Some("yesterday")).unwrap_err();
        assert!(err.to_string().contains("2026-11-21T10:00:00Z"), "{err}");
        let start = Clock::from_flag_or_env(Some("2030-01-01T00:00:00+02:00"))
            .unwrap()
            .now();
        assert_eq!(start.date_naive().to_string(), "2029-12-31");
    }
}
