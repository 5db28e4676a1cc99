//! How a SQUARES game ends, in the one wording records, the database and
//! mails use ("reserve entered", "points: Blue 11, Gray 2"), and read back.

use crate::games::squares::core::flow::EndReason;

/// The one wording of the ending (records' `Termination` tag, the
/// database, mails), with the seats named `sides` (North first).
pub fn words(end: EndReason, sides: [&str; 2]) -> String {
    match end {
        EndReason::ReserveEntered => "reserve entered".to_string(),
        EndReason::Points { north, south } => {
            format!("points: {} {north}, {} {south}", sides[0], sides[1])
        }
        EndReason::NoLegalAction => "no legal action".to_string(),
    }
}

/// Reads [`words`] back, in any case and spacing.
pub fn read(words: &str, sides: [&str; 2]) -> Option<EndReason> {
    let t = words
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    match t.as_str() {
        "reserve entered" => return Some(EndReason::ReserveEntered),
        "no legal action" => return Some(EndReason::NoLegalAction),
        _ => {}
    }
    let scores = t.strip_prefix("points")?.trim_start_matches(':');
    let mut points = [None, None];
    for part in scores.split(',') {
        let (side, n) = part.trim().rsplit_once(' ')?;
        let index = sides
            .iter()
            .position(|s| s.eq_ignore_ascii_case(side.trim()))?;
        let n: u32 = n.parse().ok()?;
        if points[index].replace(n).is_some() {
            return None;
        }
    }
    Some(EndReason::Points {
        north: points[0]?,
        south: points[1]?,
    })
}

#[cfg(test)]
mod tests {
    use super::{read, words, EndReason};

    const SIDES: [&str; 2] = ["Blue", "Gray"];

    #[test]
    fn every_ending_reads_back_from_its_words() {
        for end in [
            EndReason::ReserveEntered,
            EndReason::NoLegalAction,
            EndReason::Points {
                north: 11,
                south: 2,
            },
        ] {
            assert_eq!(read(&words(end, SIDES), SIDES), Some(end));
            let shouted = words(end, SIDES).to_ascii_uppercase().replace(' ', "  ");
            assert_eq!(read(&shouted, SIDES), Some(end));
        }
        assert_eq!(
            read("points: Gray 3, Blue 10", SIDES),
            Some(EndReason::Points {
                north: 10,
                south: 3
            })
        );
        assert_eq!(read("points: Blue 3, Blue 10", SIDES), None);
        assert_eq!(read("points: British 3, Gray 10", SIDES), None);
        assert_eq!(read("checkmate", SIDES), None);
    }
}
