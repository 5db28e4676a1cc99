//! The attacker's options against a standing defender (R19), the Grand
//! Battery's (N18) and the attacking Horse Battery's (N19): which list an
//! attack offers, which of its options are barred here (N17-N21, N30,
//! N31), and what each one does.

use crate::games::squares::core::attack::{AttackState, Stage};
use crate::games::squares::core::board::Space;
use crate::games::squares::core::order::{Chain, Order};
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::{UnitId, UnitKind};
use crate::games::squares::engine::retreat::RetreatCause;
use crate::games::squares::engine::rules::{Family, OptionList};

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
pub(crate) enum Fate {
    Stays,
    Eliminated,
    EliminatedUnlessSecondChance,
}

/// What follows an option's eliminations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Then {
    Decide(Stage),
    Advance,
    End,
}

/// What an option does at once, and what it leaves to decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OptionPlan {
    pub(crate) defender: Fate,
    pub(crate) support_eliminated: bool,
    pub(crate) attacker_eliminated: bool,
    pub(crate) then: Then,
}

/// The options of R19 (1-5), of the Grand Battery (N18) and of the
/// attacking Horse Battery (N19), as the rulebooks list them.
pub(crate) fn option_plan(order: Order) -> OptionPlan {
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

impl Squares {
    /// The unit on the square of an attacking, supporting or defending
    /// unit that the stage needs in place.
    pub(crate) fn attack_unit(&self, square: Space) -> UnitId {
        self.unit_at(square)
            .expect("the attacking and supporting units stand on their squares")
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
}
