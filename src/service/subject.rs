//! Subjects: a mail about a game says the game and its state in a few
//! words; a reply to any other mail keeps the subject it answers.

use super::game::load;
use crate::games::{GameResult, Seat};
use crate::store::{GameRow, GameStatus};

/// The subject of a mail about `game` to the player of `seat` (or to
/// someone else): the game and its state in a few words, `Game 12: your
/// move (turn 27)`, `Game 12: Gray attacks B2C - retreat or stand?`,
/// `Game 12: over - Blue wins 11-2`. Threading rests on In-Reply-To and
/// References, which stay as they are.
pub fn game_subject(game: &GameRow, seat: Option<Seat>) -> String {
    let headline = match game.status {
        GameStatus::Invited => format!("invitation to {}", game.kind.to_ascii_uppercase()),
        GameStatus::Declined => "declined".to_string(),
        GameStatus::Expired => "invitation expired".to_string(),
        GameStatus::Active | GameStatus::Finished => {
            headline(game, seat).unwrap_or_else(|| game.kind.to_ascii_uppercase())
        }
    };
    format!("Game {}: {headline}", game.id)
}

fn headline(game: &GameRow, seat: Option<Seat>) -> Option<String> {
    let state = load(game)?;
    if state.outcome().is_none() {
        if let Some(result) = game.result {
            // Ended outside the rules: a resignation, a draw, a ruling.
            let how = game
                .termination
                .as_deref()
                .map(|t| format!(" ({t})"))
                .unwrap_or_default();
            return Some(match result {
                GameResult::Win(w) => format!("over - {} wins{how}", state.seat_name(w)),
                GameResult::Draw => format!("over - a draw{how}"),
            });
        }
    }
    // Someone outside the game reads it as a bystander: nobody's "your".
    let viewer = seat
        .or_else(|| state.pending().map(|p| p.seat.other()))
        .unwrap_or(Seat::North);
    Some(state.headline(viewer))
}

pub(super) fn reply_subject(subject: &str) -> String {
    let s = subject.trim();
    if s.is_empty() {
        "orderly".into()
    } else if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:")) {
        s.to_string()
    } else {
        format!("Re: {s}")
    }
}
