//! Reading a scenario file's text into a [`Scenario`].

use super::lines::line_at;
use super::problem::Problem;
use super::Scenario;

/// The largest scenario file read: a full boxed battle transcribed by hand
/// is a few tens of kilobytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// The most syntax errors reported at once: after a few, the rest are
/// usually echoes of the first.
pub const MAX_SYNTAX_ERRORS: usize = 20;

impl Scenario {
    /// Reads a scenario file's text: its TOML syntax and shape (every key
    /// known, every value of its type). The relations between values (a
    /// unit's brigade exists, a hex is on the map) are [`check`]'s.
    ///
    /// [`check`]: super::check::check
    pub fn from_toml(text: &str) -> Result<Scenario, Vec<Problem>> {
        if text.len() > MAX_FILE_BYTES {
            return Err(vec![Problem {
                line: 1,
                message: format!(
                    "the file is {} bytes; a scenario file is at most {MAX_FILE_BYTES}",
                    text.len()
                ),
            }]);
        }
        let problem = |e: &toml::de::Error| Problem {
            line: e.span().map_or(1, |span| line_at(text, span.start)),
            message: e.message().trim().to_owned(),
        };
        // The recovering parser reports every syntax error, where reading
        // into the types stops at the first.
        let (_, errors) = toml::de::DeTable::parse_recoverable(text);
        if !errors.is_empty() {
            let mut problems: Vec<Problem> = errors.iter().map(problem).collect();
            // One error per line: the parser's later ones on a line are
            // echoes of its first.
            problems.sort_by_key(|p| p.line);
            problems.dedup_by_key(|p| p.line);
            problems.truncate(MAX_SYNTAX_ERRORS);
            return Err(problems);
        }
        toml::from_str(text).map_err(|e| vec![problem(&e)])
    }
}
