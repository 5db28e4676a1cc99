//! The forgiving order reader.

use super::order::Order;
use super::state::Squares;
use crate::games::Rejection;

/// Reads a line forgivingly and checks it.
pub(crate) fn read_checked(_game: &Squares, line: &str) -> Result<Order, Rejection> {
    Order::parse(line).map_err(|e| Rejection {
        line: line.trim().to_string(),
        problem: e.message,
        rule: None,
        suggestions: Vec::new(),
    })
}
