//! SQUARES' words for the flow of play: the decisions it asks for and how
//! it ends, with their place in the neutral [`Phase`] of the service.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::games::Phase;

/// What kind of decision a SQUARES game is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DecisionKind {
    /// An ordinary turn: one action, or PASS where allowed.
    Turn,
    /// One half (1 or 2) of a double turn earned by a PASS (R4).
    DoubleTurn {
        /// Which half: 1 or 2.
        half: u8,
    },
    /// A defender decides to RETREAT (and where) or to STAND.
    Defence,
    /// The attacker picks one of the options a standing defender leaves him.
    AttackOption,
    /// A player picks where one of his own units retreats to.
    Retreat,
    /// A defender may take a second chance to RETREAT.
    SecondChance,
    /// The owner of an attacked reserve picks the unit he loses there.
    ReserveLoss,
    /// The attacker decides to ADVANCE into the vacated square or STAY.
    Advance,
}

impl DecisionKind {
    /// Where the decision stands in play: a turn, a half of a double turn
    /// (the first is followed by the second, R4), or a decision inside an
    /// attack.
    pub fn phase(self) -> Phase {
        match self {
            DecisionKind::Turn => Phase::WHOLE_TURN,
            DecisionKind::DoubleTurn { half } => Phase::Turn {
                part: half,
                last: half >= 2,
            },
            _ => Phase::InAction,
        }
    }
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecisionKind::Turn => f.write_str("turn"),
            DecisionKind::DoubleTurn { half } => write!(f, "double turn, half {half}"),
            DecisionKind::Defence => f.write_str("defence: retreat or stand"),
            DecisionKind::AttackOption => f.write_str("attack option"),
            DecisionKind::Retreat => f.write_str("retreat"),
            DecisionKind::SecondChance => f.write_str("second-chance retreat"),
            DecisionKind::ReserveLoss => f.write_str("reserve loss"),
            DecisionKind::Advance => f.write_str("advance or stay"),
        }
    }
}

/// How a SQUARES game ended: the neutral [`Outcome`](crate::games::Outcome)
/// with SQUARES' [`EndReason`].
pub type Outcome = crate::games::Outcome<EndReason>;

/// Why a SQUARES game ended, as the rulebook states its victory conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// A unit entered the empty enemy reserve (R13).
    ReserveEntered,
    /// Points for eliminated enemy units reached the target (R26, R27).
    Points {
        /// North's points.
        north: u32,
        /// South's points.
        south: u32,
    },
    /// The player who had to act had no legal action (R8).
    NoLegalAction,
}

#[cfg(test)]
mod tests {
    use super::DecisionKind;
    use crate::games::Phase;

    #[test]
    fn r4_the_first_half_of_a_double_turn_is_followed_by_the_second() {
        let first = DecisionKind::DoubleTurn { half: 1 }.phase();
        let second = DecisionKind::DoubleTurn { half: 2 }.phase();
        assert!(first.starts_turn() && first.more_parts_follow());
        assert!(second.is_turn() && !second.more_parts_follow());
        assert_eq!(DecisionKind::Turn.phase(), Phase::WHOLE_TURN);
        for kind in [
            DecisionKind::Defence,
            DecisionKind::AttackOption,
            DecisionKind::Retreat,
            DecisionKind::SecondChance,
            DecisionKind::ReserveLoss,
            DecisionKind::Advance,
        ] {
            assert_eq!(kind.phase(), Phase::InAction, "{kind}");
        }
    }
}
