//! An attack in progress, as data: the squares involved and the decision
//! it waits for. The engine resolves it (`engine/attack.rs`); a position
//! string writes it (`text/position.rs`).

use super::board::Space;
use super::flow::DecisionKind;

/// Which decision an attack waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The defender: RETREAT (where to) or STAND (R17-R19, R22-R24).
    Response,
    /// The attacker: one of the options against a standing defender (R19).
    Option,
    /// Option 1: the attacker picks the supporting unit's retreat.
    SupportRetreat1,
    /// Option 1 with supporting artillery: the defender's second chance (R19).
    SecondChance,
    /// Option 1: the attacker picks the attacking unit's retreat.
    AttackerRetreat1,
    /// Option 4: the attacker picks the attacking unit's retreat.
    AttackerRetreat4,
    /// Option 5 (also GB3, HB5): the attacker picks the supporting unit's retreat.
    SupportRetreat5,
    /// GB1: the attacker picks the supporting unit's retreat (N18).
    GrandSupportRetreat,
    /// GB1 with supporting artillery: the defender's second chance (N21).
    GrandSecondChance,
    /// HB1: the defender picks its retreat (N19, N30).
    HorseDefenderRetreat,
    /// HB1: the attacker picks the supporting unit's retreat.
    HorseSupportRetreat,
    /// HB1, HB2: the attacker picks the Horse Battery's retreat.
    HorseBatteryRetreat,
    /// The reserve's owner picks the unit he loses (R17, R19).
    Lose,
    /// The attacker: ADVANCE or STAY (R20).
    Advance,
}

impl Stage {
    /// Whether the defending side decides this stage (else the attacker).
    pub fn defender_decides(self) -> bool {
        matches!(
            self,
            Stage::Response
                | Stage::SecondChance
                | Stage::GrandSecondChance
                | Stage::HorseDefenderRetreat
                | Stage::Lose
        )
    }

    /// The generic kind of decision.
    pub fn decision_kind(self) -> DecisionKind {
        match self {
            Stage::Response => DecisionKind::Defence,
            Stage::Option => DecisionKind::AttackOption,
            Stage::SupportRetreat1
            | Stage::AttackerRetreat1
            | Stage::AttackerRetreat4
            | Stage::SupportRetreat5
            | Stage::GrandSupportRetreat
            | Stage::HorseDefenderRetreat
            | Stage::HorseSupportRetreat
            | Stage::HorseBatteryRetreat => DecisionKind::Retreat,
            Stage::SecondChance | Stage::GrandSecondChance => DecisionKind::SecondChance,
            Stage::Lose => DecisionKind::ReserveLoss,
            Stage::Advance => DecisionKind::Advance,
        }
    }
}

/// An attack being resolved: the squares involved and the pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttackState {
    /// The attacking unit's square.
    pub attacker: Space,
    /// The attacked square (a board square or the enemy reserve).
    pub target: Space,
    /// The supporting unit's square, for a supported attack.
    pub support: Option<Space>,
    /// The decision waited for.
    pub stage: Stage,
}
