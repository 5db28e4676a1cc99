//! What the checks gather: problems located by field, bounded in number.

use super::field::Field;

/// More than this many problems in one file are cut to the first ones:
/// the owner fixes those and checks again.
pub const MAX_FINDINGS: usize = 200;

/// One problem, located by the field it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The key or array entry at fault.
    pub field: Field,
    /// What is wrong.
    pub message: String,
}

/// The problems found so far.
#[derive(Debug, Default)]
pub struct Findings(Vec<Finding>);

impl Findings {
    /// Records a problem (beyond [`MAX_FINDINGS`], drops it).
    pub fn push(&mut self, field: Field, message: impl Into<String>) {
        if self.0.len() < MAX_FINDINGS {
            self.0.push(Finding {
                field,
                message: message.into(),
            });
        }
    }

    /// Records a problem unless `ok`.
    pub fn require(&mut self, ok: bool, field: Field, message: impl Into<String>) {
        if !ok {
            self.push(field, message);
        }
    }

    /// Records that the list at `field` holds more than `max` entries,
    /// when it does.
    pub fn bound(&mut self, field: &Field, len: usize, max: usize, what: &str) {
        self.require(
            len <= max,
            field.clone(),
            format!("{len} {what}; at most {max}"),
        );
    }

    /// The problems, in the order found.
    pub fn into_vec(self) -> Vec<Finding> {
        self.0
    }

    /// Whether none was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether `id` is a short id as orders name units, brigades and cards:
/// 1 to 16 letters, digits, `-` or `_`.
pub fn short_id(id: &str) -> bool {
    (1..=16).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
