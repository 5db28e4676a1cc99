//! Why an order is refused, each reason naming the ruling it enforces: the
//! engine works out the reason as data (`Squares::diagnose`); the words a
//! player reads are the notation's (`text/refusal.rs`).

use crate::games::squares::core::attack::Stage;
use crate::games::squares::core::board::{board, Space, Terrain};
use crate::games::squares::core::flow::DecisionKind;
use crate::games::squares::core::order::{Order, Step};
use crate::games::squares::core::state::{Half, Squares};
use crate::games::squares::core::unit::{UnitId, UnitKind};
use crate::games::squares::core::variant::Variant;
use crate::games::squares::engine::movegen::MoveContext;
use crate::games::squares::engine::options::{OptionBar, OptionsOffered};
use crate::games::squares::engine::rules::{Access, Family};
use crate::games::RuleId;

/// Why an order was refused, as data: the ruling it enforces is
/// [`Refusal::rule_in`], the sentence a player reads is written by
/// `Refusal::display_in` in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// The order does not answer the decision the game waits for.
    NotNow {
        /// What the game waits for.
        expected: DecisionKind,
        /// The rule that makes it wait for that.
        rule: RuleId,
    },
    /// No unit of the player's stands there.
    NoUnit {
        /// The square named.
        square: Space,
    },
    /// An order from a reserve must name the unit type (R7).
    UnitTypeNeeded {
        /// The reserve.
        square: Space,
    },
    /// The unit named is not the type of the unit there.
    WrongUnitType {
        /// The square.
        square: Space,
        /// The type named in the order.
        named: UnitKind,
        /// The type of the unit there.
        actual: UnitKind,
    },
    /// No unit of that type is in the reserve.
    NoneInReserve {
        /// The type named.
        kind: UnitKind,
    },
    /// The unit retreated last turn and rests (R21).
    Resting {
        /// Its type.
        kind: UnitKind,
        /// Its square.
        square: Space,
    },
    /// The unit moved on its owner's last two turns (R6).
    MovedTwice {
        /// Its type.
        kind: UnitKind,
        /// Its square.
        square: Space,
    },
    /// The unit attacked on its owner's last two turns (R6).
    AttackedTwice {
        /// Its type.
        kind: UnitKind,
        /// Its square.
        square: Space,
    },
    /// PASS twice in a row (R3).
    PassTwice,
    /// PASS inside a double turn (R4).
    PassInDoubleTurn,
    /// An infantry diagonal or an infantry/artillery forest entry outside the
    /// first half of a double turn (R5).
    NeedsDoubleTurn {
        /// The unit's type.
        kind: UnitKind,
        /// Its square.
        from: Space,
        /// The square it would enter.
        to: Space,
    },
    /// The squares do not touch the way this unit moves.
    OutOfReach {
        /// The unit's type.
        kind: UnitKind,
        /// Its square.
        from: Space,
        /// Where it was sent.
        to: Space,
        /// R9, R10 or R11.
        rule: RuleId,
    },
    /// The square is occupied (movement never enters an occupied square).
    Occupied {
        /// The square.
        square: Space,
        /// The rule of the moving unit's kind.
        rule: RuleId,
    },
    /// Entering the enemy reserve while it holds a unit (R13).
    EnemyReserveHeld {
        /// The reserve.
        square: Space,
    },
    /// A two-step move into or through a forest (R11, N5, N6).
    CavalryForest {
        /// The moving unit's type.
        kind: UnitKind,
        /// R11, N5 or N6.
        rule: RuleId,
    },
    /// Heavy Cavalry entering a forest (N6).
    NeverForest,
    /// A two-step path through an occupied square (R11, N5, N6).
    PathBlocked {
        /// The square stepped through.
        square: Space,
        /// The moving unit's type.
        kind: UnitKind,
        /// R11, or the variant's N5 (horse battery) or N6 (heavy cavalry).
        rule: RuleId,
    },
    /// A two-unit move that is not two cavalry, one step each (R11, N5, N6).
    BadTwoMove {
        /// What is wrong.
        reason: TwoMoveFault,
        /// R11, or N5 when the Horse Battery was named.
        rule: RuleId,
    },
    /// Attacking or supporting from a reserve (R25).
    FromReserve,
    /// The target holds no enemy unit (R14).
    NoEnemy {
        /// The target.
        square: Space,
    },
    /// The attacker is not edge-adjacent to the target (R14).
    AttackerNotAdjacent {
        /// The attacker's square.
        attacker: Space,
        /// The target.
        target: Space,
    },
    /// The supporting unit does not touch the target (R14).
    SupportNotAdjacent {
        /// The supporter's square.
        support: Space,
        /// The target.
        target: Space,
    },
    /// The same unit named twice.
    SupportIsAttacker,
    /// Cavalry attacking infantry unsupported (R15, N8).
    CavalryUnsupportedOnInfantry,
    /// Artillery attacking something other than artillery or the reserve (R15, N9).
    ArtilleryTarget,
    /// An infantry-family unit as the attacking unit against cavalry (N7).
    FootOnCavalry {
        /// The attacking unit's type.
        kind: UnitKind,
    },
    /// A unit next to one enemy artillery acting elsewhere (R16).
    Pinned {
        /// The pinned unit's square.
        square: Space,
        /// The pinning artillery.
        artillery: Space,
    },
    /// A unit next to two or more enemy artillery (R16).
    PinnedTwice {
        /// The pinned unit's square.
        square: Space,
    },
    /// STAND where the defender must retreat (R18, R24, N12).
    MustRetreat {
        /// R18 (flank attack), R24 (cavalry) or N12 (foot attacked by the Guard).
        rule: RuleId,
    },
    /// A retreat that is not among the legal ones.
    NoSuchRetreat {
        /// The legal retreats.
        legal: Vec<Order>,
        /// The retreat procedure of the unit.
        rule: RuleId,
    },
    /// An attacker option that is not offered (R19).
    OptionBarred {
        /// The option order refused (`OPTION 1`, `OPTION GB1`).
        option: Order,
        /// Why, when the rules name a reason (else it is not among the
        /// options).
        why: Option<OptionBar>,
        /// The orders the decision offers (for [`OptionBar::OtherList`]).
        offered: Vec<Order>,
        /// R19, or the variant's N17-N21.
        rule: RuleId,
    },
    /// ADVANCE or STAY where there is nothing to advance into.
    NoAdvance,
    /// LOSE of a type not in the reserve (R17).
    NoneToLose {
        /// The type named.
        kind: UnitKind,
    },
    /// Anything else that is not among the legal orders.
    NotLegal,
}

/// What is wrong with a two-unit move (R11, N5, N6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoMoveFault {
    /// A part names a middle square or goes further than one step.
    OneStepEach,
    /// A part moves a unit that never moves in pairs.
    OnlyCavalry,
    /// A part enters a forest.
    NoForest,
    /// A part enters the enemy reserve.
    EnemyReserve,
    /// Both parts name the same unit.
    SameUnit,
    /// Both parts leave the reserve with one type it lacks two of.
    ReserveLacksTwo,
}

impl Refusal {
    /// The ruling this refusal enforces in `variant` (squares-rulings.md,
    /// napoleonic-rulings.md).
    pub fn rule_in(&self, variant: Variant) -> RuleId {
        let in_game = |civil_war, napoleonic| match variant {
            Variant::CivilWar => civil_war,
            Variant::Napoleonic => napoleonic,
        };
        RuleId(match self {
            Refusal::GameOver => "R27",
            Refusal::NotNow { rule, .. } => rule.0,
            Refusal::NoUnit { .. } => "R2",
            Refusal::UnitTypeNeeded { .. } | Refusal::NoneInReserve { .. } => "R7",
            Refusal::WrongUnitType { .. } => "R7",
            Refusal::Resting { .. } => "R21",
            Refusal::MovedTwice { .. } | Refusal::AttackedTwice { .. } => "R6",
            Refusal::PassTwice => "R3",
            Refusal::PassInDoubleTurn => "R4",
            Refusal::NeedsDoubleTurn { .. } => "R5",
            Refusal::OutOfReach { rule, .. } | Refusal::Occupied { rule, .. } => rule.0,
            Refusal::EnemyReserveHeld { .. } => "R13",
            Refusal::CavalryForest { rule, .. } | Refusal::BadTwoMove { rule, .. } => rule.0,
            Refusal::PathBlocked { rule, .. } => rule.0,
            Refusal::NeverForest => "N6",
            Refusal::FootOnCavalry { .. } => "N7",
            Refusal::FromReserve => "R25",
            Refusal::NoEnemy { .. }
            | Refusal::AttackerNotAdjacent { .. }
            | Refusal::SupportNotAdjacent { .. }
            | Refusal::SupportIsAttacker => "R14",
            Refusal::CavalryUnsupportedOnInfantry => in_game("R15", "N8"),
            Refusal::ArtilleryTarget => in_game("R15", "N9"),
            Refusal::Pinned { .. } | Refusal::PinnedTwice { .. } => "R16",
            Refusal::MustRetreat { rule } | Refusal::NoSuchRetreat { rule, .. } => rule.0,
            Refusal::OptionBarred { rule, .. } => rule.0,
            Refusal::NoAdvance => "R20",
            Refusal::NoneToLose { .. } => "R17",
            Refusal::NotLegal => "R2",
        })
    }
}

/// The movement rule of a unit type: R9-R11, or the variant's N3-N6.
fn move_rule(variant: Variant, kind: UnitKind) -> RuleId {
    RuleId(match (variant, kind) {
        (_, UnitKind::Infantry) => "R9",
        (_, UnitKind::Artillery) => "R10",
        (_, UnitKind::Cavalry) => "R11",
        (_, UnitKind::Guard) => "N3",
        (_, UnitKind::Light) => "N4",
        (_, UnitKind::HorseBattery) => "N5",
        (_, UnitKind::HeavyCavalry) => "N6",
    })
}

/// The retreat rule of a unit type: R22-R24, or the variant's N13-N15.
fn retreat_rule(variant: Variant, kind: UnitKind) -> RuleId {
    RuleId(match (variant, kind) {
        (_, UnitKind::Infantry | UnitKind::Light) => "R22",
        (_, UnitKind::Artillery) => "R23",
        (_, UnitKind::Cavalry) => "R24",
        (_, UnitKind::Guard) => "N13",
        (_, UnitKind::HorseBattery) => "N15",
        (_, UnitKind::HeavyCavalry) => "N14",
    })
}

impl Squares {
    /// Explains why `order`, which is not among the legal orders, is refused.
    pub(crate) fn diagnose(&self, order: &Order) -> Refusal {
        if self.outcome.is_some() {
            return Refusal::GameOver;
        }
        match self.attack {
            Some(attack) => self.diagnose_decision(attack.stage, order),
            None => self.diagnose_turn(order),
        }
    }

    fn diagnose_turn(&self, order: &Order) -> Refusal {
        let expected = match self.half {
            Half::Single => DecisionKind::Turn,
            Half::First => DecisionKind::DoubleTurn { half: 1 },
            Half::Second => DecisionKind::DoubleTurn { half: 2 },
        };
        match order {
            Order::Pass => {
                if self.passed[self.to_move.index()] {
                    Refusal::PassTwice
                } else if self.half != Half::Single {
                    Refusal::PassInDoubleTurn
                } else {
                    Refusal::NotLegal
                }
            }
            Order::Move(step) => {
                let ctx = self.move_context();
                self.diagnose_step(&ctx, step).unwrap_or(Refusal::NotLegal)
            }
            Order::MoveTwo(p, q) => self.diagnose_two(p, q),
            Order::Attack {
                attacker,
                target,
                support,
            } => self.diagnose_attack(*attacker, *target, *support),
            _ => Refusal::NotNow {
                expected,
                rule: RuleId("R2"),
            },
        }
    }

    /// The unit an order from `from` acts on, or why there is none.
    fn acting_unit(&self, from: Space, named: Option<UnitKind>) -> Result<UnitId, Refusal> {
        let side = self.to_move;
        match board().terrain(from) {
            Terrain::Reserve(owner) if owner == side => {
                let kind = named.ok_or(Refusal::UnitTypeNeeded { square: from })?;
                let mut of_kind = self.reserve_units(side).filter(|u| u.kind() == kind);
                let first = of_kind.next().ok_or(Refusal::NoneInReserve { kind })?;
                Ok(self.reserve_pick(side, kind, None).unwrap_or(first))
            }
            Terrain::Reserve(_) => Err(Refusal::NoUnit { square: from }),
            _ => {
                let u = self
                    .unit_at(from)
                    .filter(|u| u.side() == side)
                    .ok_or(Refusal::NoUnit { square: from })?;
                match named {
                    Some(kind) if kind != u.kind() => Err(Refusal::WrongUnitType {
                        square: from,
                        named: kind,
                        actual: u.kind(),
                    }),
                    _ => Ok(u),
                }
            }
        }
    }

    /// The first thing wrong with one unit's move, if anything.
    fn diagnose_step(&self, ctx: &MoveContext, step: &Step) -> Option<Refusal> {
        let b = board();
        let u = match self.acting_unit(step.from, step.unit) {
            Ok(u) => u,
            Err(r) => return Some(r),
        };
        let kind = u.kind();
        let state = self.units[u.index()];
        if state.inactive {
            return Some(Refusal::Resting {
                kind,
                square: step.from,
            });
        }
        if state.move_run >= 2 {
            return Some(Refusal::MovedTwice {
                kind,
                square: step.from,
            });
        }
        let to = step.to;
        if to == ctx.enemy_reserve && !ctx.enter.contains(to) {
            return Some(Refusal::EnemyReserveHeld { square: to });
        }
        if self.occupied().contains(to) {
            return Some(Refusal::Occupied {
                square: to,
                rule: move_rule(self.variant, kind),
            });
        }
        let out_of_reach = Refusal::OutOfReach {
            kind,
            from: step.from,
            to,
            rule: move_rule(self.variant, kind),
        };
        let double = Refusal::NeedsDoubleTurn {
            kind,
            from: step.from,
            to,
        };
        let rules = self.variant.unit(kind);
        let forest_rule = move_rule(self.variant, kind);
        let forest_reach = if rules.family == Family::Foot {
            b.edge(step.from)
        } else {
            b.adjacent(step.from)
        };
        if b.is_forest(to) && forest_reach.contains(to) && step.via.is_none() {
            return match rules.forest {
                Access::Step => None,
                Access::WholeDoubleTurn => Some(double),
                Access::Never => Some(Refusal::NeverForest),
            };
        }
        if rules.steps == 1 {
            if step.via.is_some() {
                return Some(out_of_reach);
            }
            if rules.corner == Access::WholeDoubleTurn && b.corner(step.from).contains(to) {
                return Some(double);
            }
            if !b.adjacent(step.from).contains(to) || b.is_forest(to) {
                return Some(out_of_reach);
            }
            return None;
        }
        let forest_in_path = Refusal::CavalryForest {
            kind,
            rule: forest_rule,
        };
        match step.via {
            None => {
                if b.adjacent(step.from).contains(to) {
                    return if b.is_forest(to) {
                        Some(forest_in_path)
                    } else {
                        None
                    };
                }
                if b.is_forest(to) {
                    return Some(forest_in_path);
                }
                // Two steps without naming the square between: is there any?
                let through = b.adjacent(step.from) & b.adjacent(to);
                if through.is_empty() {
                    return Some(out_of_reach);
                }
                let blocked = through.first().unwrap_or(step.from);
                if (through & b.forests()) == through {
                    return Some(forest_in_path);
                }
                Some(Refusal::PathBlocked {
                    square: blocked,
                    kind,
                    rule: forest_rule,
                })
            }
            Some(via) => {
                if b.is_forest(to) || b.is_forest(via) {
                    return Some(forest_in_path);
                }
                if !b.adjacent(step.from).contains(via) || !b.adjacent(via).contains(to) {
                    return Some(out_of_reach);
                }
                if via == ctx.enemy_reserve
                    || (via != ctx.own_reserve && self.occupied().contains(via))
                {
                    return Some(Refusal::PathBlocked {
                        square: via,
                        kind,
                        rule: forest_rule,
                    });
                }
                None
            }
        }
    }

    fn diagnose_two(&self, p: &Step, q: &Step) -> Refusal {
        let ctx = self.move_context();
        let r11 = RuleId("R11");
        for step in [p, q] {
            if step.via.is_some() {
                return Refusal::BadTwoMove {
                    reason: TwoMoveFault::OneStepEach,
                    rule: r11,
                };
            }
            match self.acting_unit(step.from, step.unit) {
                Ok(u) if !self.variant.unit(u.kind()).pairs => {
                    return Refusal::BadTwoMove {
                        reason: TwoMoveFault::OnlyCavalry,
                        // N5: the Horse Battery is never part of it.
                        rule: if u.kind() == UnitKind::HorseBattery {
                            RuleId("N5")
                        } else {
                            r11
                        },
                    };
                }
                Err(r) => return r,
                Ok(_) => {}
            }
            if board().is_forest(step.to) {
                return Refusal::BadTwoMove {
                    reason: TwoMoveFault::NoForest,
                    rule: r11,
                };
            }
            if step.to == ctx.enemy_reserve {
                return Refusal::BadTwoMove {
                    reason: TwoMoveFault::EnemyReserve,
                    rule: r11,
                };
            }
            if let Some(r) = self.diagnose_step(&ctx, step) {
                return r;
            }
            if !board().adjacent(step.from).contains(step.to) {
                return Refusal::BadTwoMove {
                    reason: TwoMoveFault::OneStepEach,
                    rule: r11,
                };
            }
        }
        if p.from == q.from && p.unit.is_none() {
            return Refusal::BadTwoMove {
                reason: TwoMoveFault::SameUnit,
                rule: r11,
            };
        }
        if let (Some(kind), true) = (p.unit, p.from == q.from && p.unit == q.unit) {
            let side = self.to_move;
            let first = self.reserve_pick(side, kind, None);
            if self.reserve_pick(side, kind, first).is_none() {
                return Refusal::BadTwoMove {
                    reason: TwoMoveFault::ReserveLacksTwo,
                    rule: r11,
                };
            }
        }
        if p.to == q.to {
            return Refusal::Occupied {
                square: q.to,
                rule: RuleId("R11"),
            };
        }
        Refusal::NotLegal
    }

    fn diagnose_attack(&self, attacker: Space, target: Space, support: Option<Space>) -> Refusal {
        let b = board();
        let side = self.to_move;
        if b.reserve_owner(attacker) == Some(side) {
            return Refusal::FromReserve;
        }
        let a = match self.unit_at(attacker).filter(|u| u.side() == side) {
            Some(a) => a,
            None => return Refusal::NoUnit { square: attacker },
        };
        let state = self.units[a.index()];
        if state.inactive {
            return Refusal::Resting {
                kind: a.kind(),
                square: attacker,
            };
        }
        if state.attack_run >= 2 {
            return Refusal::AttackedTwice {
                kind: a.kind(),
                square: attacker,
            };
        }
        let enemy_there = match b.terrain(target) {
            Terrain::Reserve(owner) => owner != side && self.reserve_count(owner) > 0,
            _ => self.occupied_by(side.opponent()).contains(target),
        };
        if !enemy_there {
            return Refusal::NoEnemy { square: target };
        }
        if !b.edge(attacker).contains(target) {
            return Refusal::AttackerNotAdjacent { attacker, target };
        }
        let defender = self.unit_at(target);
        // R15, N7-N9: whom this type may attack at all, then unsupported.
        let wrong_target = || match self.family_of(a) {
            Family::Guns => Refusal::ArtilleryTarget,
            Family::Foot => Refusal::FootOnCavalry { kind: a.kind() },
            Family::Horse => Refusal::CavalryUnsupportedOnInfantry,
        };
        let rules = self.variant.unit(a.kind());
        if let Some(d) = defender {
            let with_any_support = rules.attacks_supported.contains(d.kind())
                || rules.grand_battery
                || self.may_attack(a, target, None);
            if !with_any_support {
                return wrong_target();
            }
        }
        if let Some(r) = self.diagnose_pin(attacker, target) {
            return r;
        }
        match support {
            None => {
                if !self.may_attack(a, target, None) {
                    return wrong_target();
                }
            }
            Some(s) => {
                if s == attacker {
                    return Refusal::SupportIsAttacker;
                }
                if b.reserve_owner(s) == Some(side) {
                    return Refusal::FromReserve;
                }
                let su = match self.unit_at(s).filter(|u| u.side() == side) {
                    Some(su) => su,
                    None => return Refusal::NoUnit { square: s },
                };
                if !self.is_active(su) {
                    return Refusal::Resting {
                        kind: su.kind(),
                        square: s,
                    };
                }
                if !b.adjacent(s).contains(target) {
                    return Refusal::SupportNotAdjacent { support: s, target };
                }
                if let Some(r) = self.diagnose_pin(s, target) {
                    return r;
                }
                if !self.may_attack(a, target, Some(su)) {
                    return wrong_target();
                }
            }
        }
        Refusal::NotLegal
    }

    fn diagnose_pin(&self, square: Space, target: Space) -> Option<Refusal> {
        let pinning = board().adjacent(square) & self.guns_squares(self.to_move.opponent());
        match pinning.len() {
            0 => None,
            1 if pinning.contains(target) => None,
            1 => Some(Refusal::Pinned {
                square,
                artillery: pinning.first().unwrap_or(target),
            }),
            _ => Some(Refusal::PinnedTwice { square }),
        }
    }

    fn diagnose_decision(&self, stage: Stage, order: &Order) -> Refusal {
        let Some(attack) = self.attack else {
            return Refusal::NotLegal;
        };
        let stage_rule = RuleId(match stage {
            Stage::Response => "R17",
            Stage::Option | Stage::SecondChance => "R19",
            Stage::SupportRetreat1
            | Stage::AttackerRetreat1
            | Stage::AttackerRetreat4
            | Stage::SupportRetreat5 => "R21",
            Stage::GrandSupportRetreat | Stage::GrandSecondChance => "N18",
            Stage::HorseDefenderRetreat
            | Stage::HorseSupportRetreat
            | Stage::HorseBatteryRetreat => "N19",
            Stage::Lose => "R17",
            Stage::Advance => "R20",
        });
        let not_now = Refusal::NotNow {
            expected: stage.decision_kind(),
            rule: stage_rule,
        };
        let mut legal = Vec::new();
        self.decision_orders(&attack, &mut legal);
        match (stage, order) {
            (Stage::Response | Stage::SecondChance, Order::Stand) => {
                let yields = match (self.unit_at(attack.target), self.unit_at(attack.attacker)) {
                    (Some(d), Some(a)) => self.variant.unit(d.kind()).yields_to.contains(a.kind()),
                    _ => false,
                };
                let rule = if self.is_flank(&attack) {
                    "R18"
                } else if yields {
                    "N12"
                } else {
                    "R24"
                };
                Refusal::MustRetreat { rule: RuleId(rule) }
            }
            (Stage::Option | Stage::Advance | Stage::Lose, Order::Retreat(_)) => not_now,
            (_, Order::Retreat(_)) => {
                let square = match stage {
                    Stage::Response
                    | Stage::SecondChance
                    | Stage::GrandSecondChance
                    | Stage::HorseDefenderRetreat => attack.target,
                    Stage::AttackerRetreat1
                    | Stage::AttackerRetreat4
                    | Stage::HorseBatteryRetreat => attack.attacker,
                    _ => attack.support.unwrap_or(attack.attacker),
                };
                let kind = self
                    .unit_at(square)
                    .map(|u| u.kind())
                    .unwrap_or(UnitKind::Infantry);
                Refusal::NoSuchRetreat {
                    legal,
                    rule: retreat_rule(self.variant, kind),
                }
            }
            (Stage::Option, Order::Option(_) | Order::GrandBattery(_) | Order::HorseBattery(_)) => {
                let why = self.option_bar(&attack, *order);
                let rule = match why {
                    Some(OptionBar::NoOption1AgainstGuns) => "N20",
                    Some(OptionBar::NoDefenderRetreat) => "N19",
                    Some(OptionBar::OtherList(list)) => match list {
                        OptionsOffered::General => "R19",
                        OptionsOffered::GrandBattery => "N18",
                        OptionsOffered::HorseBattery => "N19",
                    },
                    _ => "R19",
                };
                Refusal::OptionBarred {
                    option: *order,
                    why,
                    offered: legal,
                    rule: RuleId(rule),
                }
            }
            (Stage::Lose, Order::Lose(kind)) => Refusal::NoneToLose { kind: *kind },
            (_, Order::Advance | Order::Stay) => Refusal::NoAdvance,
            _ => not_now,
        }
    }
}
