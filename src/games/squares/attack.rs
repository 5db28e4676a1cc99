//! Resolving an attack (R14-R20): a small state machine whose every stage is
//! a decision by one player, with its own legal orders.

use super::board::{board, Space};
use super::event::Event;
use super::flow::DecisionKind;
use super::order::{Chain, Order};
use super::retreat::RetreatCause;
use super::rules::{Access, Defence, Family, OptionList};
use super::state::{Half, Squares, WINNING_POINTS};
use super::unit::{Side, UnitId, UnitKind};

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
            Stage::GrandSupportRetreat => "GS",
            Stage::GrandSecondChance => "GC",
            Stage::HorseDefenderRetreat => "HD",
            Stage::HorseSupportRetreat => "HS",
            Stage::HorseBatteryRetreat => "HA",
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
            Stage::GrandSupportRetreat,
            Stage::GrandSecondChance,
            Stage::HorseDefenderRetreat,
            Stage::HorseSupportRetreat,
            Stage::HorseBatteryRetreat,
            Stage::Lose,
            Stage::Advance,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }

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

/// The list of options the attacker chooses from when the defender stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionsOffered {
    /// Options 1-5 (R19).
    General,
    /// GB1-GB3: a Grand Battery against a defender outside the artillery
    /// family (N18).
    GrandBattery,
    /// HB1-HB5: the Horse Battery is the attacking unit (N19, N33).
    HorseBattery,
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
    /// The defender has no legal retreat (HB1).
    NoDefenderRetreat,
    /// N20: against the artillery family, option 1 needs artillery among
    /// the attackers.
    NoOption1AgainstGuns,
    /// The option belongs to another list than the one this attack offers.
    OtherList(OptionsOffered),
}

/// What becomes of the defender when an option is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Stays,
    Eliminated,
    EliminatedUnlessSecondChance,
}

/// What follows an option's eliminations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Then {
    Decide(Stage),
    Advance,
    End,
}

/// What an option does at once, and what it leaves to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OptionPlan {
    defender: Fate,
    support_eliminated: bool,
    attacker_eliminated: bool,
    then: Then,
}

/// The options of R19 (1-5), of the Grand Battery (N18) and of the
/// attacking Horse Battery (N19), as the rulebooks list them.
fn option_plan(order: Order) -> OptionPlan {
    let plan = |defender, support_eliminated, attacker_eliminated, then| OptionPlan {
        defender,
        support_eliminated,
        attacker_eliminated,
        then,
    };
    use Fate::{Eliminated, EliminatedUnlessSecondChance as UnlessSecondChance, Stays};
    match order {
        // 1: eliminate the defender, retreat the support, then the attacker.
        Order::Option(1) => plan(
            UnlessSecondChance,
            false,
            false,
            Then::Decide(Stage::SupportRetreat1),
        ),
        // 2: eliminate defender and support; the attacker may advance.
        Order::Option(2) => plan(Eliminated, true, false, Then::Advance),
        // 3: eliminate defender and attacker.
        Order::Option(3) => plan(Eliminated, false, true, Then::End),
        // 4: retreat the attacker.
        Order::Option(4) => plan(Stays, false, false, Then::Decide(Stage::AttackerRetreat4)),
        // GB1: eliminate the defender, retreat the support; the guns stay.
        Order::GrandBattery(1) => plan(
            UnlessSecondChance,
            false,
            false,
            Then::Decide(Stage::GrandSupportRetreat),
        ),
        // GB2: eliminate the defender and the attacking artillery.
        Order::GrandBattery(2) => plan(Eliminated, false, true, Then::End),
        // HB1: all three retreat, the defender first (N30).
        Order::HorseBattery(1) => plan(
            Stays,
            false,
            false,
            Then::Decide(Stage::HorseDefenderRetreat),
        ),
        // HB2: eliminate defender and support; the horse battery retreats.
        Order::HorseBattery(2) => plan(
            Eliminated,
            true,
            false,
            Then::Decide(Stage::HorseBatteryRetreat),
        ),
        // HB3: eliminate the defender and the horse battery.
        Order::HorseBattery(3) => plan(Eliminated, false, true, Then::End),
        // HB4: retreat the horse battery.
        Order::HorseBattery(4) => plan(Stays, false, false, Then::Decide(Stage::AttackerRetreat4)),
        // 5, GB3, HB5: retreat the support.
        _ => plan(Stays, false, false, Then::Decide(Stage::SupportRetreat5)),
    }
}

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

    /// The list of options this attack offers against a standing defender.
    pub(crate) fn options_offered(&self, attack: &AttackState) -> OptionsOffered {
        let a = self.attack_unit(attack.attacker);
        let rules = self.variant.unit(a.kind());
        if rules.options == OptionList::HorseBattery {
            return OptionsOffered::HorseBattery;
        }
        let guns_support = attack
            .support
            .and_then(|s| self.unit_at(s))
            .is_some_and(|s| self.family_of(s) == Family::Guns);
        let guns_defender = self
            .unit_at(attack.target)
            .is_some_and(|d| self.family_of(d) == Family::Guns);
        if rules.grand_battery && guns_support && !guns_defender {
            OptionsOffered::GrandBattery
        } else {
            OptionsOffered::General
        }
    }

    /// Why option `order` is not offered, or `None` when it is (R19, N17-N21,
    /// N31: an option is offered only when every retreat it requires is legal).
    pub(crate) fn option_bar(&self, attack: &AttackState, order: Order) -> Option<OptionBar> {
        let offered = self.options_offered(attack);
        let support = attack.support?;
        let a = self.attack_unit(attack.attacker);
        let a_rules = self.variant.unit(a.kind());
        let other = |list| Some(OptionBar::OtherList(list));
        let support_retreats = || {
            (!self.can_retreat(support, RetreatCause::Other)).then_some(OptionBar::NoSupportRetreat)
        };
        let attacker_retreats = || {
            (!self.can_retreat(attack.attacker, RetreatCause::Other))
                .then_some(OptionBar::NoAttackerRetreat)
        };
        match (offered, order) {
            (OptionsOffered::General, Order::Option(n)) => {
                if matches!(n, 1 | 4) && !a_rules.attacker_retreats {
                    return Some(OptionBar::AttackerNeverRetreats(a.kind()));
                }
                match n {
                    1 => {
                        let d = self.attack_unit(attack.target);
                        let s = self.attack_unit(support);
                        if self.variant.unit(d.kind()).option1_needs_guns
                            && self.family_of(a) != Family::Guns
                            && self.family_of(s) != Family::Guns
                        {
                            return Some(OptionBar::NoOption1AgainstGuns);
                        }
                        if self.option1_support_retreats(attack, true).is_empty() {
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
                    4 => attacker_retreats(),
                    5 => support_retreats(),
                    _ => None,
                }
            }
            (OptionsOffered::GrandBattery, Order::GrandBattery(n)) => match n {
                1 => self
                    .option1_support_retreats(attack, false)
                    .is_empty()
                    .then_some(OptionBar::NoSupportRetreat),
                3 => support_retreats(),
                _ => None,
            },
            (OptionsOffered::HorseBattery, Order::HorseBattery(n)) => match n {
                1 => {
                    if !self.can_retreat(attack.target, RetreatCause::Attacked) {
                        Some(OptionBar::NoDefenderRetreat)
                    } else if self.option1_support_retreats(attack, true).is_empty() {
                        support_retreats().or(Some(OptionBar::NoAttackerRetreat))
                    } else {
                        None
                    }
                }
                2 => {
                    let mut after = self.clone();
                    let mut sink = Vec::new();
                    after.eliminate(self.attack_unit(attack.target), &mut sink);
                    after.eliminate(self.attack_unit(support), &mut sink);
                    (!after.can_retreat(attack.attacker, RetreatCause::Other))
                        .then_some(OptionBar::NoAttackerRetreat)
                }
                4 => attacker_retreats(),
                5 => support_retreats(),
                _ => None,
            },
            (list, _) => other(list),
        }
    }

    /// The supporting unit's retreats under option 1, GB1 or HB1. Unless the
    /// supporting unit gives the defender a second chance (R19, N21) or the
    /// option never eliminates it (HB1), the defender is eliminated first.
    /// With `attacker_follows` (options 1 and HB1) only the retreats after
    /// which the attacking unit is still in place with a retreat of its own.
    pub(crate) fn option1_support_retreats(
        &self,
        attack: &AttackState,
        attacker_follows: bool,
    ) -> Vec<Chain> {
        let Some(support) = attack.support else {
            return Vec::new();
        };
        let s = self.attack_unit(support);
        let a = self.attack_unit(attack.attacker);
        let defender = self.unit_at(attack.target);
        let horse_battery_list = self.options_offered(attack) == OptionsOffered::HorseBattery;
        let mut scratch = self.clone();
        let mut sink = Vec::new();
        if !self.variant.unit(s.kind()).second_chance_as_support && !horse_battery_list {
            if let Some(d) = defender {
                scratch.eliminate(d, &mut sink);
            }
        }
        let mut candidates = Vec::new();
        scratch.retreats(support, RetreatCause::Other, &mut candidates);
        if !attacker_follows {
            return candidates;
        }
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
