//! Why an order is refused, each reason naming the ruling it enforces.

use super::attack::{OptionBar, Stage};
use super::board::{board, Space, Terrain};
use super::movegen::MoveContext;
use super::order::{Order, Step};
use super::state::{Half, Squares};
use super::unit::{UnitId, UnitKind};
use crate::games::{CitesRule, DecisionKind, RuleId};

/// Why an order was refused. `rule()` names the ruling (squares-rulings.md).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The order does not answer the decision the game waits for.
    #[error("the game waits for {expected}, which this order does not answer")]
    NotNow {
        /// What the game waits for.
        expected: DecisionKind,
        /// The rule that makes it wait for that.
        rule: RuleId,
    },
    /// No unit of the player's stands there.
    #[error("there is no unit of yours in {square}")]
    NoUnit {
        /// The square named.
        square: Space,
    },
    /// An order from a reserve must name the unit type (R7).
    #[error("an order from a reserve names the unit type, as in MOVE CAVALRY {square} ...")]
    UnitTypeNeeded {
        /// The reserve.
        square: Space,
    },
    /// The unit named is not the type of the unit there.
    #[error("the unit in {square} is {actual}, not {named}")]
    WrongUnitType {
        /// The square.
        square: Space,
        /// The type named in the order.
        named: UnitKind,
        /// The type of the unit there.
        actual: UnitKind,
    },
    /// No unit of that type is in the reserve.
    #[error("there is no {kind} in your reserve")]
    NoneInReserve {
        /// The type named.
        kind: UnitKind,
    },
    /// The unit retreated last turn and rests (R21).
    #[error("the {kind} in {square} retreated and may not move, attack or support this turn")]
    Resting {
        /// Its type.
        kind: UnitKind,
        /// Its square.
        square: Space,
    },
    /// The unit moved on its owner's last two turns (R6).
    #[error("the {kind} in {square} moved on your last two turns and may not move on a third")]
    MovedTwice {
        /// Its type.
        kind: UnitKind,
        /// Its square.
        square: Space,
    },
    /// The unit attacked on its owner's last two turns (R6).
    #[error(
        "the {kind} in {square} attacked on your last two turns and may not attack on a third"
    )]
    AttackedTwice {
        /// Its type.
        kind: UnitKind,
        /// Its square.
        square: Space,
    },
    /// PASS twice in a row (R3).
    #[error("you passed on your last turn and may not pass twice in a row")]
    PassTwice,
    /// PASS inside a double turn (R4).
    #[error("a double turn is two actions: PASS is not one of them")]
    PassInDoubleTurn,
    /// An infantry diagonal or an infantry/artillery forest entry outside the
    /// first half of a double turn (R5).
    #[error("the {kind} in {from} may enter {to} only with a whole double turn (pass first, then make this move as the first half)")]
    NeedsDoubleTurn {
        /// The unit's type.
        kind: UnitKind,
        /// Its square.
        from: Space,
        /// The square it would enter.
        to: Space,
    },
    /// The squares do not touch the way this unit moves.
    #[error("{to} is not a square the {kind} in {from} can reach in one move")]
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
    #[error("{square} is occupied")]
    Occupied {
        /// The square.
        square: Space,
        /// The rule of the moving unit's kind.
        rule: RuleId,
    },
    /// Entering the enemy reserve while it holds a unit (R13).
    #[error("the enemy reserve {square} still holds units: it may be entered only when empty")]
    EnemyReserveHeld {
        /// The reserve.
        square: Space,
    },
    /// Cavalry moving into or through a forest in a two-step move (R11).
    #[error("cavalry enters a forest only by a one-step move into it, never through it")]
    CavalryForest,
    /// A cavalry path through an occupied square (R11).
    #[error("cavalry may not move through {square}: the square stepped through must be empty")]
    PathBlocked {
        /// The square stepped through.
        square: Space,
    },
    /// A two-unit move that is not two cavalry, one step each (R11).
    #[error("a two-unit move is two cavalry one step each into clear squares: {reason}")]
    BadTwoMove {
        /// What is wrong.
        reason: &'static str,
    },
    /// Attacking or supporting from a reserve (R25).
    #[error("units never attack or support from their reserve")]
    FromReserve,
    /// The target holds no enemy unit (R14).
    #[error("{square} holds no enemy unit to attack")]
    NoEnemy {
        /// The target.
        square: Space,
    },
    /// The attacker is not edge-adjacent to the target (R14).
    #[error("the attacking unit in {attacker} must share an edge with {target} (an attack never comes from a diagonal)")]
    AttackerNotAdjacent {
        /// The attacker's square.
        attacker: Space,
        /// The target.
        target: Space,
    },
    /// The supporting unit does not touch the target (R14).
    #[error("the supporting unit in {support} must touch {target} (an edge or a corner)")]
    SupportNotAdjacent {
        /// The supporter's square.
        support: Space,
        /// The target.
        target: Space,
    },
    /// The same unit named twice.
    #[error("the attacking and the supporting unit must be two different units")]
    SupportIsAttacker,
    /// Cavalry attacking infantry unsupported (R15).
    #[error("cavalry may not attack infantry unsupported: add a SUPPORT")]
    CavalryUnsupportedOnInfantry,
    /// Artillery attacking something other than artillery or the reserve (R15).
    #[error("artillery may attack only artillery or the enemy reserve; it may support any attack")]
    ArtilleryTarget,
    /// A unit next to one enemy artillery acting elsewhere (R16).
    #[error("the unit in {square} is next to the enemy artillery in {artillery}: it may attack or support only into {artillery}")]
    Pinned {
        /// The pinned unit's square.
        square: Space,
        /// The pinning artillery.
        artillery: Space,
    },
    /// A unit next to two or more enemy artillery (R16).
    #[error("the unit in {square} is next to two or more enemy artillery and may neither attack nor support")]
    PinnedTwice {
        /// The pinned unit's square.
        square: Space,
    },
    /// STAND where the defender must retreat (R18, R24).
    #[error("the defender must retreat: it has a legal retreat and may not stand here")]
    MustRetreat {
        /// R18 (flank attack) or R24 (cavalry).
        rule: RuleId,
    },
    /// A retreat that is not among the legal ones.
    #[error("that retreat is not legal; legal retreats: {legal}")]
    NoSuchRetreat {
        /// The legal retreats in canonical notation.
        legal: String,
        /// The retreat procedure of the unit.
        rule: RuleId,
    },
    /// An attacker option that is not offered (R19).
    #[error("option {option} is not offered: {why}")]
    OptionBarred {
        /// The option.
        option: u8,
        /// Why.
        why: String,
    },
    /// ADVANCE or STAY where there is nothing to advance into.
    #[error("there is no advance to decide")]
    NoAdvance,
    /// LOSE of a type not in the reserve (R17).
    #[error("there is no {kind} in the attacked reserve")]
    NoneToLose {
        /// The type named.
        kind: UnitKind,
    },
    /// Anything else that is not among the legal orders.
    #[error("that order is not legal here")]
    NotLegal,
}

impl CitesRule for Refusal {
    fn rule(&self) -> RuleId {
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
            Refusal::CavalryForest | Refusal::PathBlocked { .. } | Refusal::BadTwoMove { .. } => {
                "R11"
            }
            Refusal::FromReserve => "R25",
            Refusal::NoEnemy { .. }
            | Refusal::AttackerNotAdjacent { .. }
            | Refusal::SupportNotAdjacent { .. }
            | Refusal::SupportIsAttacker => "R14",
            Refusal::CavalryUnsupportedOnInfantry | Refusal::ArtilleryTarget => "R15",
            Refusal::Pinned { .. } | Refusal::PinnedTwice { .. } => "R16",
            Refusal::MustRetreat { rule } | Refusal::NoSuchRetreat { rule, .. } => rule.0,
            Refusal::OptionBarred { .. } => "R19",
            Refusal::NoAdvance => "R20",
            Refusal::NoneToLose { .. } => "R17",
            Refusal::NotLegal => "R2",
        })
    }
}

fn move_rule(kind: UnitKind) -> RuleId {
    RuleId(match kind {
        UnitKind::Infantry => "R9",
        UnitKind::Artillery => "R10",
        UnitKind::Cavalry => "R11",
    })
}

fn retreat_rule(kind: UnitKind) -> RuleId {
    RuleId(match kind {
        UnitKind::Infantry => "R22",
        UnitKind::Artillery => "R23",
        UnitKind::Cavalry => "R24",
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
                rule: move_rule(kind),
            });
        }
        let out_of_reach = Refusal::OutOfReach {
            kind,
            from: step.from,
            to,
            rule: move_rule(kind),
        };
        let double = Refusal::NeedsDoubleTurn {
            kind,
            from: step.from,
            to,
        };
        match kind {
            UnitKind::Infantry | UnitKind::Artillery => {
                if step.via.is_some() {
                    return Some(out_of_reach);
                }
                let reach = if kind == UnitKind::Infantry {
                    b.edge(step.from)
                } else {
                    b.adjacent(step.from)
                };
                if b.is_forest(to) && b.adjacent(step.from).contains(to) {
                    return Some(double);
                }
                if kind == UnitKind::Infantry && b.corner(step.from).contains(to) {
                    return Some(double);
                }
                if !reach.contains(to) {
                    return Some(out_of_reach);
                }
                None
            }
            UnitKind::Cavalry => {
                match step.via {
                    None => {
                        if b.adjacent(step.from).contains(to) {
                            return None;
                        }
                        if b.is_forest(to) {
                            return Some(Refusal::CavalryForest);
                        }
                        // Two steps without naming the square between: is there any?
                        let through = b.adjacent(step.from) & b.adjacent(to);
                        if through.is_empty() {
                            return Some(out_of_reach);
                        }
                        let blocked = through.first().unwrap_or(step.from);
                        if (through & b.forests()) == through {
                            return Some(Refusal::CavalryForest);
                        }
                        Some(Refusal::PathBlocked { square: blocked })
                    }
                    Some(via) => {
                        if b.is_forest(to) || b.is_forest(via) {
                            return Some(Refusal::CavalryForest);
                        }
                        if !b.adjacent(step.from).contains(via) || !b.adjacent(via).contains(to) {
                            return Some(out_of_reach);
                        }
                        if via == ctx.enemy_reserve
                            || (via != ctx.own_reserve && self.occupied().contains(via))
                        {
                            return Some(Refusal::PathBlocked { square: via });
                        }
                        None
                    }
                }
            }
        }
    }

    fn diagnose_two(&self, p: &Step, q: &Step) -> Refusal {
        let ctx = self.move_context();
        for step in [p, q] {
            if step.via.is_some() {
                return Refusal::BadTwoMove {
                    reason: "each cavalry moves one step only",
                };
            }
            match self.acting_unit(step.from, step.unit) {
                Ok(u) if u.kind() != UnitKind::Cavalry => {
                    return Refusal::BadTwoMove {
                        reason: "only cavalry may move two units in one action",
                    }
                }
                Err(r) => return r,
                Ok(_) => {}
            }
            if board().is_forest(step.to) {
                return Refusal::BadTwoMove {
                    reason: "neither may enter a forest",
                };
            }
            if step.to == ctx.enemy_reserve {
                return Refusal::BadTwoMove {
                    reason: "the enemy reserve is entered by a move of one unit",
                };
            }
            if let Some(r) = self.diagnose_step(&ctx, step) {
                return r;
            }
            if !board().adjacent(step.from).contains(step.to) {
                return Refusal::BadTwoMove {
                    reason: "each cavalry moves one step only",
                };
            }
        }
        if p.from == q.from && p.unit.is_none() {
            return Refusal::BadTwoMove {
                reason: "name two different units",
            };
        }
        if p.unit.is_some() && p.from == q.from {
            let side = self.to_move;
            let first = self.reserve_pick(side, UnitKind::Cavalry, None);
            if self.reserve_pick(side, UnitKind::Cavalry, first).is_none() {
                return Refusal::BadTwoMove {
                    reason: "the reserve does not hold two cavalry able to move",
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
        if a.kind() == UnitKind::Artillery
            && !(b.reserve_owner(target).is_some()
                || defender.map(|d| d.kind()) == Some(UnitKind::Artillery))
        {
            return Refusal::ArtilleryTarget;
        }
        if let Some(r) = self.diagnose_pin(attacker, target) {
            return r;
        }
        match support {
            None => {
                if a.kind() == UnitKind::Cavalry
                    && defender.map(|d| d.kind()) == Some(UnitKind::Infantry)
                {
                    return Refusal::CavalryUnsupportedOnInfantry;
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
            }
        }
        Refusal::NotLegal
    }

    fn diagnose_pin(&self, square: Space, target: Space) -> Option<Refusal> {
        let pinning = board().adjacent(square) & self.artillery_squares(self.to_move.opponent());
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
            Stage::Lose => "R17",
            Stage::Advance => "R20",
        });
        let not_now = Refusal::NotNow {
            expected: stage.decision_kind(),
            rule: stage_rule,
        };
        let mut legal = Vec::new();
        self.decision_orders(&attack, &mut legal);
        let listed = |legal: &[Order]| {
            legal
                .iter()
                .map(|o| o.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (stage, order) {
            (Stage::Response, Order::Stand) => {
                let rule = if self.is_flank(&attack) { "R18" } else { "R24" };
                Refusal::MustRetreat { rule: RuleId(rule) }
            }
            (
                Stage::Response
                | Stage::SecondChance
                | Stage::SupportRetreat1
                | Stage::AttackerRetreat1
                | Stage::AttackerRetreat4
                | Stage::SupportRetreat5,
                Order::Retreat(_),
            ) => {
                let square = match stage {
                    Stage::Response | Stage::SecondChance => attack.target,
                    Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => attack.attacker,
                    _ => attack.support.unwrap_or(attack.attacker),
                };
                let kind = self
                    .unit_at(square)
                    .map(|u| u.kind())
                    .unwrap_or(UnitKind::Infantry);
                Refusal::NoSuchRetreat {
                    legal: listed(&legal),
                    rule: retreat_rule(kind),
                }
            }
            (Stage::Option, Order::Option(n)) => {
                let why = match self.option_bar(&attack, *n) {
                    Some(OptionBar::AttackerNeverRetreats(kind)) => {
                        format!("an attacking {kind} never retreats")
                    }
                    Some(OptionBar::NoSupportRetreat) => {
                        "the supporting unit has no legal retreat".to_string()
                    }
                    Some(OptionBar::NoAttackerRetreat) => {
                        "the attacking unit would have no legal retreat".to_string()
                    }
                    None => "it is not among the options".to_string(),
                };
                Refusal::OptionBarred { option: *n, why }
            }
            (Stage::Lose, Order::Lose(kind)) => Refusal::NoneToLose { kind: *kind },
            (_, Order::Advance | Order::Stay) => Refusal::NoAdvance,
            _ => not_now,
        }
    }
}
