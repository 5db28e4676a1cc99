//! The pending choices worded for the player who must decide.

use super::state::Squares;
use crate::games::Rejection;

/// The pending choices.
pub(crate) fn describe(_game: &Squares) -> String {
    String::new()
}

/// The legal orders of the unit on one square.
pub(crate) fn describe_from(_game: &Squares, _square: &str) -> Result<String, Rejection> {
    Ok(String::new())
}
