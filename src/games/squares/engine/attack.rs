//! Resolving an attack (R14-R20): a small state machine whose every stage is
//! a decision by one player, with its own legal orders. The stages are the
//! core's [`Stage`]; the attacker's option lists are in `options.rs`.

use crate::games::squares::core::attack::{AttackState, Stage};
use crate::games::squares::core::board::{board, Space};
use crate::games::squares::core::event::Event;
use crate::games::squares::core::order::{Chain, Order};
use crate::games::squares::core::state::{Half, Squares};
use crate::games::squares::core::unit::{Side, UnitId, UnitKind};
use crate::games::squares::engine::options::{option_plan, Fate, OptionsOffered, Then};
use crate::games::squares::engine::retreat::RetreatCause;
use crate::games::squares::engine::rules::{Access, Defence, Family};
use crate::games::squares::engine::turn::WINNING_POINTS;

/// What an unsupported attacker the defender is immune to comes to (R17;
/// N11, N14, N15 in the variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Immunity {
    /// The defender is not immune to this attacker: standing eliminates both.
    None,
    /// The defender's rules give it no retreat here (artillery outside a
    /// forest, R23): there is no decision, the attacker is eliminated.
    AtOnce,
    /// The defender chooses as it always does (RETREAT or STAND); if it
    /// stands, the attacker is eliminated and it is unharmed (N38).
    OnStand,
}

impl Squares {
    /// Whether the unit on `target` is immune to `a` attacking it alone, and
    /// what follows (R17, N11, N14, N15, N38). The Guard's immunity lapses
    /// directly after the attacker's PASS (N11).
    pub(crate) fn immunity(&self, a: UnitId, target: Space) -> Immunity {
        let Some(d) = self.unit_at(target) else {
            return Immunity::None;
        };
        let rules = self.variant.unit(d.kind());
        let lapsed = rules.immunity_lapses_after_pass && self.half == Half::First;
        if !rules.immune_to.contains(a.kind()) || lapsed {
            Immunity::None
        } else if rules.retreats_when_attacked(board().is_forest(target)) {
            Immunity::OnStand
        } else {
            Immunity::AtOnce
        }
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

    /// What the defender may do (R17, R18, R22-R24, N12-N15, N27): its
    /// retreats, and whether it may stand.
    pub(crate) fn defence_choices(&self, attack: &AttackState) -> (Vec<Chain>, bool) {
        let d = self.attack_unit(attack.target);
        let mut retreats = Vec::new();
        self.retreats(attack.target, RetreatCause::Attacked, &mut retreats);
        if retreats.is_empty() {
            return (retreats, true);
        }
        let rules = self.variant.unit(d.kind());
        let attacker = self.attack_unit(attack.attacker).kind();
        let may_stand = if self.is_flank(attack) || rules.yields_to.contains(attacker) {
            false
        } else if board().is_forest(attack.target) {
            true
        } else {
            match rules.defence {
                Defence::MayStand => true,
                Defence::MustRetreat {
                    stand_against_alone,
                } => attack.support.is_none() && stand_against_alone.contains(attacker),
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
                let candidates: &[Order] = match self.options_offered(attack) {
                    OptionsOffered::General => &[
                        Order::Option(1),
                        Order::Option(2),
                        Order::Option(3),
                        Order::Option(4),
                        Order::Option(5),
                    ],
                    OptionsOffered::GrandBattery => &[
                        Order::GrandBattery(1),
                        Order::GrandBattery(2),
                        Order::GrandBattery(3),
                    ],
                    OptionsOffered::HorseBattery => &[
                        Order::HorseBattery(1),
                        Order::HorseBattery(2),
                        Order::HorseBattery(3),
                        Order::HorseBattery(4),
                        Order::HorseBattery(5),
                    ],
                };
                for &order in candidates {
                    if self.option_bar(attack, order).is_none() {
                        out.push(order);
                    }
                }
            }
            Stage::SupportRetreat1 | Stage::HorseSupportRetreat => {
                out.extend(
                    self.option1_support_retreats(attack, true)
                        .into_iter()
                        .map(Order::Retreat),
                );
            }
            Stage::SecondChance => {
                self.retreats(attack.target, RetreatCause::Attacked, &mut chains);
                // N29: a defender that must yield to the attacking unit takes
                // the retreat it now has.
                let d = self.attack_unit(attack.target);
                let yields = self
                    .unit_at(attack.attacker)
                    .is_some_and(|a| self.variant.unit(d.kind()).yields_to.contains(a.kind()));
                let may_stand = chains.is_empty() || !yields;
                out.extend(chains.into_iter().map(Order::Retreat));
                if may_stand {
                    out.push(Order::Stand);
                }
            }
            Stage::GrandSecondChance => {
                self.retreats(attack.target, RetreatCause::Attacked, &mut chains);
                out.extend(chains.into_iter().map(Order::Retreat));
                out.push(Order::Stand);
            }
            Stage::HorseDefenderRetreat => {
                self.retreats(attack.target, RetreatCause::Attacked, &mut chains);
                out.extend(chains.into_iter().map(Order::Retreat));
            }
            Stage::AttackerRetreat1 | Stage::AttackerRetreat4 | Stage::HorseBatteryRetreat => {
                self.retreats(attack.attacker, RetreatCause::Other, &mut chains);
                out.extend(chains.into_iter().map(Order::Retreat));
            }
            Stage::SupportRetreat5 | Stage::GrandSupportRetreat => {
                if let Some(s) = attack.support {
                    self.retreats(s, RetreatCause::Other, &mut chains);
                }
                out.extend(chains.into_iter().map(Order::Retreat));
            }
            Stage::Lose => {
                if let Some(owner) = board().reserve_owner(attack.target) {
                    for &kind in self.variant.kinds() {
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
        let a_rules = self.variant.unit(a.kind());
        let d_rules = self.variant.unit(d.kind());
        let after_pass = self.half == Half::First;
        let forest = b.is_forest(target);
        if support.is_none() {
            // R17, N28: an unsupported attack on a forest costs the attacker
            // its unit and nothing else. R17: so does one by infantry or
            // cavalry on artillery, which has no retreat to choose. Other
            // immune defenders still choose (N38).
            if forest || self.immunity(a, target) == Immunity::AtOnce {
                self.eliminate(a, events);
                self.end_attack(events);
                return;
            }
        } else if self.is_flank(&attack) {
            // R18 and N10: the flank rule precedes the charge.
            events.push(Event::Flank { target });
            self.attack = Some(attack);
            return;
        }
        if a_rules.charges && after_pass && d_rules.family == Family::Foot && !forest {
            // N10: the charge eliminates the foot without a choice; the
            // Guard takes its charger with it.
            events.push(Event::Charge { target });
            self.eliminate(d, events);
            if d_rules.costs_its_charger {
                self.eliminate(a, events);
                self.end_attack(events);
            } else {
                self.offer_advance(&mut attack, events);
            }
            return;
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
                    // R17: defender and attacker are both eliminated; N11,
                    // N14, N15, N38: only the attacker, when the defender is
                    // immune to it.
                    let immune =
                        a.is_some_and(|a| self.immunity(a, attack.target) != Immunity::None);
                    if !immune {
                        self.eliminate(d, events);
                    }
                    if let Some(a) = a {
                        self.eliminate(a, events);
                    }
                    self.end_attack(events);
                } else if self.is_flank(&attack) {
                    // R18: a flanked defender that cannot retreat is eliminated.
                    self.eliminate(d, events);
                    self.offer_advance(&mut attack, events);
                } else {
                    self.wait_for(attack, Stage::Option);
                }
            }
            (Stage::Option, Order::Option(_) | Order::GrandBattery(_) | Order::HorseBattery(_)) => {
                events.push(Event::OptionChosen {
                    side,
                    option: order,
                });
                let plan = option_plan(order);
                let d = self.attack_unit(attack.target);
                let s = attack.support.and_then(|sq| self.unit_at(sq));
                let eliminate_defender = match plan.defender {
                    Fate::Stays => false,
                    Fate::Eliminated => true,
                    // R19, N21: a supporting artillery that retreats first
                    // leaves the defender its second chance.
                    Fate::EliminatedUnlessSecondChance => {
                        !s.is_some_and(|s| self.variant.unit(s.kind()).second_chance_as_support)
                    }
                };
                if eliminate_defender {
                    self.eliminate(d, events);
                }
                if plan.support_eliminated {
                    if let Some(s) = s {
                        self.eliminate(s, events);
                    }
                }
                if plan.attacker_eliminated {
                    if let Some(a) = a {
                        self.eliminate(a, events);
                    }
                }
                match plan.then {
                    Then::Decide(stage) => self.wait_for(attack, stage),
                    Then::Advance => self.offer_advance(&mut attack, events),
                    Then::End => self.end_attack(events),
                }
            }
            (Stage::SupportRetreat1 | Stage::GrandSupportRetreat, Order::Retreat(chain)) => {
                let mut second_chance = false;
                if let Some(s) = attack.support {
                    second_chance = self
                        .unit_at(s)
                        .is_some_and(|u| self.variant.unit(u.kind()).second_chance_as_support)
                        && self.unit_at(attack.target).is_some();
                    self.perform_retreat(s, &chain, events);
                }
                // With supporting artillery the defender is still there and
                // gets its second chance (R19, N21).
                match (attack.stage, second_chance) {
                    (Stage::SupportRetreat1, true) => self.wait_for(attack, Stage::SecondChance),
                    (Stage::SupportRetreat1, false) => {
                        self.wait_for(attack, Stage::AttackerRetreat1)
                    }
                    (_, true) => self.wait_for(attack, Stage::GrandSecondChance),
                    // GB1: the attacking artillery stays in place (N18).
                    (_, false) => self.end_attack(events),
                }
            }
            (Stage::SecondChance, Order::Retreat(chain)) => {
                self.perform_retreat(attack.target, &chain, events);
                self.offer_advance(&mut attack, events);
            }
            (Stage::SecondChance | Stage::GrandSecondChance, Order::Stand) => {
                let d = self.attack_unit(attack.target);
                events.push(Event::Stood {
                    side: d.side(),
                    unit: d.kind(),
                    square: attack.target,
                });
                self.eliminate(d, events);
                if attack.stage == Stage::SecondChance {
                    self.wait_for(attack, Stage::AttackerRetreat1);
                } else {
                    self.end_attack(events);
                }
            }
            (Stage::GrandSecondChance, Order::Retreat(chain)) => {
                // N18: a defender that retreats is not followed.
                self.perform_retreat(attack.target, &chain, events);
                self.end_attack(events);
            }
            (Stage::HorseDefenderRetreat, Order::Retreat(chain)) => {
                self.perform_retreat(attack.target, &chain, events);
                self.wait_for(attack, Stage::HorseSupportRetreat);
            }
            (Stage::HorseSupportRetreat, Order::Retreat(chain)) => {
                if let Some(s) = attack.support {
                    self.perform_retreat(s, &chain, events);
                }
                self.wait_for(attack, Stage::HorseBatteryRetreat);
            }
            (
                Stage::AttackerRetreat1 | Stage::AttackerRetreat4 | Stage::HorseBatteryRetreat,
                Order::Retreat(chain),
            ) => {
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
                // Every mark the position string shows takes part, so that
                // the unit number decides only between units the string
                // cannot tell apart, and a game read back loses the same unit.
                (
                    s.inactive || s.retreated,
                    s.move_run,
                    s.attack_run,
                    s.inactive,
                    u.index(),
                )
            })
    }

    /// The attacker may advance (R18, R19, R20), unless its type never
    /// advances (artillery), the square is a forest it may never enter (N6),
    /// or the game is already decided on points, which no advance can change.
    fn offer_advance(&mut self, attack: &mut AttackState, events: &mut Vec<Event>) {
        let may_advance = self.unit_at(attack.attacker).is_some_and(|a| {
            let rules = self.variant.unit(a.kind());
            rules.advances && !(rules.forest == Access::Never && board().is_forest(attack.target))
        });
        let decided = Side::BOTH.iter().any(|&s| self.points(s) >= WINNING_POINTS);
        if !may_advance || decided {
            self.end_attack(events);
        } else {
            attack.stage = Stage::Advance;
            self.attack = Some(*attack);
        }
    }

    /// The attack goes on to the decision of `stage`.
    fn wait_for(&mut self, mut attack: AttackState, stage: Stage) {
        attack.stage = stage;
        self.attack = Some(attack);
    }

    fn end_attack(&mut self, events: &mut Vec<Event>) {
        self.attack = None;
        // The turn was an action, not a PASS (R3); cleared only now so that
        // a position taken mid-attack still shows the double turn it is in.
        self.passed[self.to_move.index()] = false;
        self.finish_action(false, events);
    }
}
