//! Where a game stands, in words every game shares: whose decision is
//! pending and what part of play it is, and how a finished game ended.
//!
//! The service needs to know a few things about any game's flow without
//! knowing its rules: whether a decision starts a turn (deadlines run per
//! turn, records number turns), whether more parts of the same turn follow
//! (order lines written for a later part wait for it), and whether a
//! decision is an answer out of turn. [`Phase`] says exactly that. What
//! the decision is in the game's own terms (a defence, a retreat, which
//! card to play) is the game's [`Decision`](crate::games::Game::Decision)
//! type; how a game ended under its rules is its
//! [`Ending`](crate::games::Game::Ending), worded once by the game.

use serde::{Deserialize, Serialize};

use super::Seat;

/// The part of play a pending decision belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// A part of the deciding seat's own turn. `part` counts from 1; `last`
    /// says whether the turn ends with this part. An ordinary turn is part
    /// 1 and last; the first half of a SQUARES double turn (R4) is part 1
    /// and not last; a turn moving several pieces one by one has a part per
    /// piece.
    Turn {
        /// Which part of the turn, from 1.
        part: u8,
        /// Whether the turn ends with this part.
        last: bool,
    },
    /// A decision inside an action under way (a defence, a retreat, an
    /// advance): the turn it belongs to goes on once it is taken.
    InAction,
    /// An answer out of turn to what the other seat just did, which a game
    /// may allow at any moment (a reaction).
    Reaction,
}

impl Phase {
    /// An ordinary turn: one part.
    pub const WHOLE_TURN: Phase = Phase::Turn {
        part: 1,
        last: true,
    };

    /// Whether the decision is a part of the decider's own turn (not a
    /// decision inside an action, nor a reaction).
    pub fn is_turn(self) -> bool {
        matches!(self, Phase::Turn { .. })
    }

    /// Whether the decision starts a turn: the first part of one.
    pub fn starts_turn(self) -> bool {
        matches!(self, Phase::Turn { part: 1, .. })
    }

    /// Whether more parts of the same turn follow this one: lines written
    /// for them wait while the action this part starts is resolved.
    pub fn more_parts_follow(self) -> bool {
        matches!(self, Phase::Turn { last: false, .. })
    }
}

/// The decision a game waits for: who must decide, in what part of play,
/// and what, in the game's own terms (`D`, the game's
/// [`Decision`](crate::games::Game::Decision), or its words through the
/// [`AnyGame`](crate::games::AnyGame) door).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending<D> {
    /// The seat that must decide.
    pub seat: Seat,
    /// The part of play the decision belongs to.
    pub phase: Phase,
    /// What must be decided, in the game's terms.
    pub kind: D,
}

/// How a finished game ended: who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// That seat won.
    Win(Seat),
    /// Nobody won.
    Draw,
}

/// The end of a game under its rules: the result and how it was reached
/// (`E`, the game's [`Ending`](crate::games::Game::Ending), or its words
/// through the [`AnyGame`](crate::games::AnyGame) door).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome<E> {
    /// Who won, or a draw.
    pub result: GameResult,
    /// How, in the game's terms.
    pub reason: E,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_turn_starts_a_turn_and_has_no_further_part() {
        let p = Phase::WHOLE_TURN;
        assert!(p.is_turn() && p.starts_turn() && !p.more_parts_follow());
    }

    #[test]
    fn a_first_part_of_two_waits_for_its_second() {
        let first = Phase::Turn {
            part: 1,
            last: false,
        };
        let second = Phase::Turn {
            part: 2,
            last: true,
        };
        assert!(first.starts_turn() && first.more_parts_follow());
        assert!(second.is_turn() && !second.starts_turn() && !second.more_parts_follow());
    }

    #[test]
    fn decisions_inside_actions_and_reactions_are_not_turns() {
        for p in [Phase::InAction, Phase::Reaction] {
            assert!(!p.is_turn() && !p.starts_turn() && !p.more_parts_follow());
        }
    }
}
