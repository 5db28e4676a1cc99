//! How a game ends under the rules, in the one wording records and mails
//! use, and read back.

use crate::games::civil_war_1863::core::flow::EndReason;

/// The words of `end`.
pub fn words(end: EndReason) -> String {
    match end {
        // P34: the last piece of one side is gone.
        EndReason::AllEliminated => "all pieces eliminated",
        // P35: a piece each, or none on either side.
        EndReason::Stalemate => "stalemate",
    }
    .to_string()
}

/// Reads [`words`] back, in any case and spacing.
pub fn read(text: &str) -> Option<EndReason> {
    let t = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    [EndReason::AllEliminated, EndReason::Stalemate]
        .into_iter()
        .find(|&e| words(e) == t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_read_back_in_any_case() {
        for e in [EndReason::AllEliminated, EndReason::Stalemate] {
            assert_eq!(read(&words(e).to_uppercase().replace(' ', "  ")), Some(e));
        }
        assert_eq!(read("resigned"), None);
    }
}
