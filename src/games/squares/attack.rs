//! Resolving an attack (R14-R20): a small state machine whose every stage is
//! a decision by one player, with its own legal orders.

use super::board::{board, Space};
use super::event::Event;
use super::order::{Chain, Order};
use super::retreat::RetreatCause;
use super::state::{Squares, WINNING_POINTS};
use super::unit::{Side, UnitId, UnitKind};
use crate::games::DecisionKind;

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
    /// Option 5: the attacker picks the supporting unit's retreat.
    SupportRetreat5,
    /// The reserve's owner picks the unit he loses (R17, R19).
    Lose,
    /// The attacker: ADVANCE or STAY (R20).
    Advance,
}

impl Stage {
    /// The short code used in position strings.
    pub fn code(self) -> &'static str {
        match self {
            Stage::Response => "R",
            Stage::Option => "O",
            Stage::SupportRetreat1 => "S1",
            Stage::SecondChance => "C",
            Stage::AttackerRetreat1 => "A1",
            Stage::AttackerRetreat4 => "A4",
            Stage::SupportRetreat5 => "S5",
            Stage::Lose => "L",
            Stage::Advance => "V",
        }
    }

    /// Reads a position-string stage code.
    pub fn from_code(code: &str) -> Option<Stage> {
        [
            Stage::Response,
            Stage::Option,
            Stage::SupportRetreat1,
            Stage::SecondChance,
            Stage::AttackerRetreat1,
            Stage::AttackerRetreat4,
            Stage::SupportRetreat5,
            Stage::Lose,
            Stage::Advance,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }

    /// Whether the defending side decides this stage (else the attacker).
    pub fn defender_decides(self) -> bool {
        matches!(self, Stage::Response | Stage::SecondChance | Stage::Lose)
    }

    /// The generic kind of decision.
    pub fn decision_kind(self) -> DecisionKind {
        match self {
            Stage::Response => DecisionKind::Defence,
            Stage::Option => DecisionKind::AttackOption,
            Stage::SupportRetreat1
            | Stage::AttackerRetreat1
            | Stage::AttackerRetreat4
            | Stage::SupportRetreat5 => DecisionKind::Retreat,
            Stage::SecondChance => DecisionKind::SecondChance,
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

/// Why an option is not offered (for refusals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionBar {
    /// Attacking artillery or cavalry never retreats (options 1 and 4).
    AttackerNeverRetreats(UnitKind),
    /// The supporting unit has no legal retreat.
    NoSupportRetreat,
    /// The attacking unit has no legal retreat.
    NoAttackerRetreat,
}

impl Squares {
    fn attack_unit(&self, square: Space) -> UnitId {
        self.unit_at(square)
            .expect("the attacking and supporting units stand on their squares")
    }

    /// Whether a supported attack is a flank attack (R18): the attacking or
    /// the supporting unit is strictly closer to the defender's reserve than
    /// the defender.
    pub(crate) fn is_flank(&self, attack: &AttackState) -> bool {
        let Some(support) = attack.support else {
            return false;
        };
        let Some(defender) = self.unit_at(attack.target) else {
            return false;
        };
        let closer = board().closer(defender.side(), attack.target);
        closer.contains(attack.attacker) || closer.contains(support)
    }

    /// Why option `n` (1-5) is not offered, or `None` when it is (R19).
    pub(crate) fn option_bar(&self, attack: &AttackState, n: u8) -> Option<OptionBar> {
        let a = self.attack_unit(attack.attacker);
        let support = attack.support?;
        let attacker_retreats = matches!(n, 1 | 4);
        if attacker_retreats && a.kind() != UnitKind::Infantry {
            return Some(OptionBar::AttackerNeverRetreats(a.kind()));
        }
        match n {
            1 => {
                if self.option1_support_retreats(attack).is_empty() {
                    let mut any = Vec::new();
                    self.retreats(support, RetreatCause::Other, &mut any);
                    Some(if any.is_empty() {
                        OptionBar::NoSupportRetreat
                    } else {
                        OptionBar::NoAttackerRetreat
                    })
                } else {
                    None
                }
            }
            4 => (!self.can_retreat(attack.attacker, RetreatCause::Other))
                .then_some(OptionBar::NoAttackerRetreat),
            5 => (!self.can_retreat(support, RetreatCause::Other))
                .then_some(OptionBar::NoSupportRetreat),
            _ => None,
        }
    }

    /// Option 1's retreats of the supporting unit: those after which the
    /// attacking unit still has a retreat, as option 1 requires (R19).
    fn option1_support_retreats(&self, attack: &AttackState) -> Vec<Chain> {
        let Some(support) = attack.support else {
            return Vec::new();
        };
        let s = self.attack_unit(support);
        let a = self.attack_unit(attack.attacker);
        let defender = self.unit_at(attack.target);
        let mut scratch = self.clone();
        let mut sink = Vec::new();
        // Without supporting artillery the defender is eliminated first.
        if s.kind() != UnitKind::Artillery {
            if let Some(d) = defender {
                scratch.eliminate(d, &mut sink);
            }
        }
        let mut candidates = Vec::new();
        scratch.retreats(support, RetreatCause::Other, &mut candidates);
        candidates.retain(|chain| {
            let mut after = scratch.clone();
            let mut sink = Vec::new();
            after.perform_retreat(support, chain, &mut sink);
            if let Some(d) = defender {
                after.eliminate(d, &mut sink);
            }
            // A chain that displaced the attacking unit has retreated it
            // already; option 1 needs it still in place, with a retreat (S8).
            after.unit_at(attack.attacker) == Some(a)
                && after.can_retreat(attack.attacker, RetreatCause::Other)
        });
        candidates
    }

    /// What the defender may do (R17, R18, R22-R24): its retreats, and
    /// whether it may stand.
    pub(crate) fn defence_choices(&self, attack: &AttackState) -> (Vec<Chain>, bool) {
        let d = self.attack_unit(attack.target);
        let mut retreats = Vec::new();
        self.retreats(attack.target, RetreatCause::Attacked, &mut retreats);
        if retreats.is_empty() {
            return (retreats, true);
        }
        let may_stand = if self.is_flank(attack) {
            false
        } else {
            match d.kind() {
                UnitKind::Infantry | UnitKind::Artillery => true,
                UnitKind::Cavalry => {
                    board().is_forest(attack.target)
                        || (attack.support.is_none()
                            && self.attack_unit(attack.attacker).kind() == UnitKind::Cavalry)
                }
            }
        };
        (retreats, may_stand)
    }

    /// Appends the legal orders for the attack's pending decision.
    pub(crate) fn decision_orders(&self, attack: &AttackState, out: &mut Vec<Order>) {
        let mut chains = Vec::new();
        match attack.stage {
            Stage::Response => {
                let (retreats, may_stand) = self.defence_choices(attack);
                out.extend(retreats.into_iter().map(Order::Retreat));
                if may_stand {
                    out.push(Order::Stand);
                }
            }
            Stage::Option => {
                for n in 1..=5 {
                    if self.option_bar(attack, n).is_none() {
                        out.push(Order::Option(n));
                    }
                }
            }
            Stage::SupportRetreat1 => {
                out.extend(
                    self.option1_support_retreats(attack)
                        .into_iter()
                        .map(Order::Retreat),
                );
            }
            Stage::SecondChance => {
                self.retreats(attack.target, RetreatCause::Attacked, &mut chains);
                out.extend(chains.into_iter().map(Order::Retreat));
                out.push(Order::Stand);
            }
            Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => {
                self.retreats(attack.attacker, RetreatCause::Other, &mut chains);
                out.extend(chains.into_iter().map(Order::Retreat));
            }
            Stage::SupportRetreat5 => {
                if let Some(s) = attack.support {
                    self.retreats(s, RetreatCause::Other, &mut chains);
                }
                out.extend(chains.into_iter().map(Order::Retreat));
            }
            Stage::Lose => {
                if let Some(owner) = board().reserve_owner(attack.target) {
                    for kind in UnitKind::ALL {
                        if self.reserve_units(owner).any(|u| u.kind() == kind) {
                            out.push(Order::Lose(kind));
                        }
                    }
                }
            }
            Stage::Advance => {
                out.push(Order::Advance);
                out.push(Order::Stay);
            }
        }
    }

    /// Declares an attack (a listed, legal order) and resolves what needs no
    /// decision.
    pub(crate) fn start_attack(
        &mut self,
        attacker: Space,
        target: Space,
        support: Option<Space>,
        events: &mut Vec<Event>,
    ) {
        let b = board();
        let side = self.to_move;
        let a = self.attack_unit(attacker);
        self.record_runs(&[], Some(a), 1);
        events.push(Event::Attacked {
            side,
            unit: a.kind(),
            from: attacker,
            target,
            support: support.map(|s| (self.attack_unit(s).kind(), s)),
        });
        let mut attack = AttackState {
            attacker,
            target,
            support,
            stage: Stage::Response,
        };
        if b.reserve_owner(target).is_some() {
            attack.stage = Stage::Lose;
            self.attack = Some(attack);
            return;
        }
        let d = self.attack_unit(target);
        if support.is_none() {
            // R17: an unsupported attack on a forest, or by infantry or
            // cavalry on artillery, costs the attacker its unit and nothing else.
            if b.is_forest(target)
                || (d.kind() == UnitKind::Artillery && a.kind() != UnitKind::Artillery)
            {
                self.eliminate(a, events);
                self.end_attack(events);
                return;
            }
        } else if self.is_flank(&attack) {
            events.push(Event::Flank { target });
        }
        self.attack = Some(attack);
    }

    /// Applies a listed order for the attack's pending decision.
    pub(crate) fn apply_decision(&mut self, order: Order, events: &mut Vec<Event>) {
        let Some(mut attack) = self.attack else {
            return;
        };
        let side = self.to_move;
        let a = self.unit_at(attack.attacker);
        match (attack.stage, order) {
            (Stage::Response, Order::Retreat(chain)) => {
                self.perform_retreat(attack.target, &chain, events);
                if attack.support.is_none() {
                    // R17: an unsupported attack ends when the defender retreats.
                    self.end_attack(events);
                } else {
                    self.offer_advance(&mut attack, events);
                }
            }
            (Stage::Response, Order::Stand) => {
                let d = self.attack_unit(attack.target);
                events.push(Event::Stood {
                    side: d.side(),
                    unit: d.kind(),
                    square: attack.target,
                });
                if attack.support.is_none() {
                    // R17: defender and attacker are both eliminated.
                    self.eliminate(d, events);
                    if let Some(a) = a {
                        self.eliminate(a, events);
                    }
                    self.end_attack(events);
                } else if self.is_flank(&attack) {
                    // R18: a flanked defender that cannot retreat is eliminated.
                    self.eliminate(d, events);
                    self.offer_advance(&mut attack, events);
                } else {
                    attack.stage = Stage::Option;
                    self.attack = Some(attack);
                }
            }
            (Stage::Option, Order::Option(n)) => {
                events.push(Event::OptionChosen { side, option: n });
                let d = self.attack_unit(attack.target);
                let s = attack.support.and_then(|sq| self.unit_at(sq));
                match n {
                    1 => {
                        if s.map(|s| s.kind()) != Some(UnitKind::Artillery) {
                            self.eliminate(d, events);
                        }
                        attack.stage = Stage::SupportRetreat1;
                        self.attack = Some(attack);
                    }
                    2 => {
                        self.eliminate(d, events);
                        if let Some(s) = s {
                            self.eliminate(s, events);
                        }
                        self.offer_advance(&mut attack, events);
                    }
                    3 => {
                        self.eliminate(d, events);
                        if let Some(a) = a {
                            self.eliminate(a, events);
                        }
                        self.end_attack(events);
                    }
                    4 => {
                        attack.stage = Stage::AttackerRetreat4;
                        self.attack = Some(attack);
                    }
                    _ => {
                        attack.stage = Stage::SupportRetreat5;
                        self.attack = Some(attack);
                    }
                }
            }
            (Stage::SupportRetreat1, Order::Retreat(chain)) => {
                let mut artillery = false;
                if let Some(s) = attack.support {
                    artillery = self.unit_at(s).map(|u| u.kind()) == Some(UnitKind::Artillery);
                    self.perform_retreat(s, &chain, events);
                }
                // With supporting artillery the defender is still there and
                // gets its second chance (R19).
                attack.stage = if artillery {
                    Stage::SecondChance
                } else {
                    Stage::AttackerRetreat1
                };
                self.attack = Some(attack);
            }
            (Stage::SecondChance, Order::Retreat(chain)) => {
                self.perform_retreat(attack.target, &chain, events);
                self.offer_advance(&mut attack, events);
            }
            (Stage::SecondChance, Order::Stand) => {
                let d = self.attack_unit(attack.target);
                events.push(Event::Stood {
                    side: d.side(),
                    unit: d.kind(),
                    square: attack.target,
                });
                self.eliminate(d, events);
                attack.stage = Stage::AttackerRetreat1;
                self.attack = Some(attack);
            }
            (Stage::AttackerRetreat1 | Stage::AttackerRetreat4, Order::Retreat(chain)) => {
                self.perform_retreat(attack.attacker, &chain, events);
                self.end_attack(events);
            }
            (Stage::SupportRetreat5, Order::Retreat(chain)) => {
                if let Some(s) = attack.support {
                    self.perform_retreat(s, &chain, events);
                }
                self.end_attack(events);
            }
            (Stage::Lose, Order::Lose(kind)) => {
                let owner = side.opponent();
                if let Some(u) = self.reserve_loss_pick(owner, kind) {
                    self.eliminate(u, events);
                }
                // R19: a supported attack that empties the reserve lets a
                // non-artillery attacker advance into it (and win, R13).
                if attack.support.is_some() && self.reserve_count(owner) == 0 {
                    self.offer_advance(&mut attack, events);
                } else {
                    self.end_attack(events);
                }
            }
            (Stage::Advance, Order::Advance) => {
                if let Some(a) = a {
                    self.relocate(a, attack.target);
                    events.push(Event::Advanced {
                        side,
                        unit: a.kind(),
                        from: attack.attacker,
                        to: attack.target,
                    });
                }
                self.end_attack(events);
            }
            (Stage::Advance, Order::Stay) => {
                events.push(Event::Stayed {
                    side,
                    square: attack.attacker,
                });
                self.end_attack(events);
            }
            _ => {}
        }
    }

    /// The unit a reserve loses for `LOSE kind`: the owner's choice (R17), so
    /// the one of that type least able to act: resting after a retreat
    /// first, then the longest move run, then the highest number.
    fn reserve_loss_pick(&self, owner: Side, kind: UnitKind) -> Option<UnitId> {
        self.reserve_units(owner)
            .filter(|u| u.kind() == kind)
            .max_by_key(|&u| {
                let s = self.units[u.index()];
                (s.inactive || s.retreated, s.move_run, u.index())
            })
    }

    /// The attacker may advance (R18, R19, R20), unless it is artillery
    /// (never advances) or the game is already decided on points, which no
    /// advance can change.
    fn offer_advance(&mut self, attack: &mut AttackState, events: &mut Vec<Event>) {
        let artillery = self
            .unit_at(attack.attacker)
            .is_none_or(|a| a.kind() == UnitKind::Artillery);
        let decided = Side::BOTH.iter().any(|&s| self.points(s) >= WINNING_POINTS);
        if artillery || decided {
            self.end_attack(events);
        } else {
            attack.stage = Stage::Advance;
            self.attack = Some(*attack);
        }
    }

    fn end_attack(&mut self, events: &mut Vec<Event>) {
        self.attack = None;
        // The turn was an action, not a PASS (R3); cleared only now so that
        // a position taken mid-attack still shows the double turn it is in.
        self.passed[self.to_move.index()] = false;
        self.finish_action(false, events);
    }
}
