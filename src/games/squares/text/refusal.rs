//! Refusals in words, as a game's notation writes them ("there is no unit
//! of yours in F1C"), and the ruling each cites in the Civil War game.

use std::fmt;

use super::notation::{InNotation, Notation, CIVIL_WAR};
use crate::games::squares::core::board::Space;
use crate::games::squares::core::order::Order;
use crate::games::squares::core::unit::UnitKind;
use crate::games::squares::core::variant::Variant;
use crate::games::squares::engine::options::OptionBar;
use crate::games::squares::engine::refusal::{Refusal, TwoMoveFault};
use crate::games::{CitesRule, RuleId};

impl Refusal {
    /// Why the order was refused, in words as `notation` writes them.
    pub fn display_in<'a>(&'a self, notation: &'a Notation) -> InNotation<'a, &'a Refusal> {
        InNotation::new(self, notation)
    }
}

/// The ruling in the Civil War game; the variant's refusals cite theirs
/// through `NapRefusal`.
impl CitesRule for Refusal {
    fn rule(&self) -> RuleId {
        self.rule_in(Variant::CivilWar)
    }
}

/// Written in the Civil War notation; the variant's refusals are written
/// by `NapRefusal`, in its notation.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_in(&CIVIL_WAR).fmt(f)
    }
}

impl std::error::Error for Refusal {}

/// Orders listed in a refusal: "RETREAT BR, RETREAT B2CR".
fn listed(orders: &[Order], notation: &Notation) -> String {
    orders
        .iter()
        .map(|o| o.display_in(notation).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for InNotation<'_, &Refusal> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.notation;
        let sq = |s: &Space| s.display_in(n);
        let in_game = |civil_war, napoleonic| match n.variant {
            Variant::CivilWar => civil_war,
            Variant::Napoleonic => napoleonic,
        };
        match self.value {
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::NotNow { expected, .. } => write!(
                f,
                "the game waits for {expected}, which this order does not answer"
            ),
            Refusal::NoUnit { square } => write!(f, "there is no unit of yours in {}", sq(square)),
            Refusal::UnitTypeNeeded { square } => write!(
                f,
                "an order from a reserve names the unit type, as in MOVE CAVALRY {} ...",
                sq(square)
            ),
            Refusal::WrongUnitType {
                square,
                named,
                actual,
            } => write!(f, "the unit in {} is {actual}, not {named}", sq(square)),
            Refusal::NoneInReserve { kind } => write!(f, "there is no {kind} in your reserve"),
            Refusal::Resting { kind, square } => write!(
                f,
                "the {kind} in {} retreated and may not move, attack or support this turn",
                sq(square)
            ),
            Refusal::MovedTwice { kind, square } => write!(
                f,
                "the {kind} in {} moved on your last two turns and may not move on a third",
                sq(square)
            ),
            Refusal::AttackedTwice { kind, square } => write!(
                f,
                "the {kind} in {} attacked on your last two turns and may not attack on a third",
                sq(square)
            ),
            Refusal::PassTwice => {
                f.write_str("you passed on your last turn and may not pass twice in a row")
            }
            Refusal::PassInDoubleTurn => {
                f.write_str("a double turn is two actions: PASS is not one of them")
            }
            Refusal::NeedsDoubleTurn { kind, from, to } => write!(
                f,
                "the {kind} in {} may enter {} only with a whole double turn (pass first, \
                 then make this move as the first half)",
                sq(from),
                sq(to)
            ),
            Refusal::OutOfReach { kind, from, to, .. } => write!(
                f,
                "{} is not a square the {kind} in {} can reach in one move",
                sq(to),
                sq(from)
            ),
            Refusal::Occupied { square, .. } => write!(f, "{} is occupied", sq(square)),
            Refusal::EnemyReserveHeld { square } => write!(
                f,
                "the enemy reserve {} still holds units: it may be entered only when empty",
                sq(square)
            ),
            Refusal::CavalryForest { kind, .. } => write!(
                f,
                "a two-step move never enters or passes through a forest{}",
                match kind {
                    UnitKind::Cavalry =>
                        ": cavalry enters a forest only by a one-step move into it",
                    UnitKind::HorseBattery => {
                        ": the horse battery enters a forest only as a whole double turn"
                    }
                    _ => "",
                }
            ),
            Refusal::NeverForest => f.write_str("the heavy cavalry never enters a forest"),
            Refusal::PathBlocked { square, kind, .. } => write!(
                f,
                "the {kind} may not move through {}: the square stepped through must be empty",
                sq(square)
            ),
            Refusal::BadTwoMove { reason, .. } => write!(
                f,
                "a two-unit move is two cavalry{} one step each into clear squares: {}",
                in_game("", " (or a cavalry and the heavy cavalry)"),
                match reason {
                    TwoMoveFault::OneStepEach => "each cavalry moves one step only",
                    TwoMoveFault::OnlyCavalry => "only cavalry may move two units in one action",
                    TwoMoveFault::NoForest => "neither may enter a forest",
                    TwoMoveFault::EnemyReserve => {
                        "the enemy reserve is entered by a move of one unit"
                    }
                    TwoMoveFault::SameUnit => "name two different units",
                    TwoMoveFault::ReserveLacksTwo => {
                        "the reserve does not hold two such units able to move"
                    }
                }
            ),
            Refusal::FromReserve => f.write_str("units never attack or support from their reserve"),
            Refusal::NoEnemy { square } => {
                write!(f, "{} holds no enemy unit to attack", sq(square))
            }
            Refusal::AttackerNotAdjacent { attacker, target } => write!(
                f,
                "the attacking unit in {} must share an edge with {} (an attack never comes \
                 from a diagonal)",
                sq(attacker),
                sq(target)
            ),
            Refusal::SupportNotAdjacent { support, target } => write!(
                f,
                "the supporting unit in {} must touch {} (an edge or a corner)",
                sq(support),
                sq(target)
            ),
            Refusal::SupportIsAttacker => {
                f.write_str("the attacking and the supporting unit must be two different units")
            }
            Refusal::CavalryUnsupportedOnInfantry => f.write_str(in_game(
                "cavalry may not attack infantry unsupported: add a SUPPORT",
                "cavalry may not attack infantry, the guard or light infantry unsupported, \
                 except as the first action of the double turn after your PASS (N10): add a \
                 SUPPORT",
            )),
            Refusal::ArtilleryTarget => f.write_str(in_game(
                "artillery may attack only artillery or the enemy reserve; it may support any \
                 attack",
                "artillery may attack only artillery, the horse battery or the enemy reserve, \
                 unless it leads a Grand Battery supported by artillery or the horse battery \
                 (N18); it may support any attack",
            )),
            Refusal::FootOnCavalry { kind } => write!(
                f,
                "the {kind} may not be the attacking unit against cavalry or heavy cavalry; it \
                 may support such an attack"
            ),
            Refusal::Pinned { square, artillery } => write!(
                f,
                "the unit in {} is next to the enemy artillery in {}: it may attack or support \
                 only into {}",
                sq(square),
                sq(artillery),
                sq(artillery)
            ),
            Refusal::PinnedTwice { square } => write!(
                f,
                "the unit in {} is next to two or more enemy artillery and may neither attack \
                 nor support",
                sq(square)
            ),
            Refusal::MustRetreat { .. } => f.write_str(
                "the defender must retreat: it has a legal retreat and may not stand here",
            ),
            Refusal::NoSuchRetreat { legal, .. } => write!(
                f,
                "that retreat is not legal; legal retreats: {}",
                listed(legal, n)
            ),
            Refusal::OptionBarred {
                option,
                why,
                offered,
                ..
            } => {
                let text = option.display_in(n).to_string();
                let code = text.strip_prefix("OPTION ").unwrap_or(&text);
                write!(f, "option {code} is not offered: ")?;
                match why {
                    Some(OptionBar::NoOption1AgainstGuns) => f.write_str(
                        "against artillery or the horse battery, option 1 needs artillery or \
                         the horse battery among the attacking units",
                    ),
                    Some(OptionBar::NoDefenderRetreat) => {
                        f.write_str("the defender has no legal retreat")
                    }
                    Some(OptionBar::OtherList(_)) => {
                        write!(f, "this attack offers {}", listed(offered, n))
                    }
                    Some(OptionBar::AttackerNeverRetreats(kind)) => {
                        write!(f, "an attacking {kind} never retreats")
                    }
                    Some(OptionBar::NoSupportRetreat) => {
                        f.write_str("the supporting unit has no legal retreat")
                    }
                    Some(OptionBar::NoAttackerRetreat) => {
                        f.write_str("the attacking unit would have no legal retreat")
                    }
                    None => f.write_str("it is not among the options"),
                }
            }
            Refusal::NoAdvance => f.write_str("there is no advance to decide"),
            Refusal::NoneToLose { kind } => write!(f, "there is no {kind} in the attacked reserve"),
            Refusal::NotLegal => f.write_str("that order is not legal here"),
        }
    }
}
