//! The ASCII board (placeholder until the drawing lands).

use super::event::Event;
use super::state::Squares;
use super::unit::Side;

/// The board drawn from `viewer`'s seat.
pub(crate) fn draw(_game: &Squares, _viewer: Side, _last: &[Event]) -> String {
    String::new()
}
