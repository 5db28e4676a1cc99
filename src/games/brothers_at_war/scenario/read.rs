//! Reading a scenario file's text into a [`Scenario`].

use super::lines::Lines;
use super::problem::Problem;
use super::Scenario;

/// The largest scenario file read: a full boxed battle transcribed by hand
/// is a few tens of kilobytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;

impl Scenario {
    /// Reads a scenario file's text: its TOML syntax and shape (every key
    /// known, every value of its type). The relations between values (a
    /// unit's brigade exists, a hex is on the map) are [`check`]'s.
    ///
    /// [`check`]: super::check::check
    pub fn from_toml(text: &str) -> Result<Scenario, Problem> {
        if text.len() > MAX_FILE_BYTES {
            return Err(Problem {
                line: 1,
                message: format!(
                    "the file is {} bytes; a scenario file is at most {MAX_FILE_BYTES}",
                    text.len()
                ),
            });
        }
        toml::from_str(text).map_err(|e| Problem {
            line: e
                .span()
                .map_or(1, |span| Lines::new(text).line_of_offset(span.start)),
            message: e.message().trim().to_owned(),
        })
    }
}
