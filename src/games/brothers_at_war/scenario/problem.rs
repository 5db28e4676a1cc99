//! One thing wrong with a scenario file, located by its line, so that
//! `orderly scenario check` can print it as a compiler would.

use std::fmt;

/// A problem found in a scenario file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// The line it concerns, from 1.
    pub line: usize,
    /// What is wrong, in words for the owner who wrote the file.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}
