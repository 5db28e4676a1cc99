//! What each unit type may do, as data: one row per unit type and game.
//!
//! The Civil War game and its Napoleonic variant share the board, the turn
//! structure, attacks, retreats and scoring; they differ in their armies and
//! in what each unit type may do. The engine never asks "is this cavalry?":
//! it reads the row of the unit's type in the game's [`Ruleset`]. The Civil
//! War rows reproduce R9-R26 exactly; the Napoleonic rows follow the
//! variant's text as N1-N24 settle it (docs/napoleonic-design.md, N25-N38
//! for the points even those leave open).

use crate::games::squares::core::unit::UnitKind;
use crate::games::squares::core::variant::Variant;

impl Variant {
    /// The rules of this game.
    #[inline]
    pub fn rules(self) -> &'static Ruleset {
        match self {
            Variant::CivilWar => &CIVIL_WAR,
            Variant::Napoleonic => &NAPOLEONIC,
        }
    }

    /// The row of `kind` in this game.
    #[inline]
    pub fn unit(self, kind: UnitKind) -> &'static UnitRules {
        &self.rules().units[kind as usize]
    }

    /// The numbers of this game's units of the artillery family (the
    /// types whose row says [`Family::Guns`]: R16's pin, N18), as bits.
    #[inline]
    pub(crate) fn guns_mask(self) -> u16 {
        self.kind_mask(UnitKind::Artillery) | self.kind_mask(UnitKind::HorseBattery)
    }
}

/// The three families the variant's text groups its seven unit types into;
/// the Civil War's three types are one family each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Infantry, Guard, Light Infantry ("LI/Infantry/Guard").
    Foot,
    /// Artillery and the Horse Battery ("Artillery/Horse Battery").
    Guns,
    /// Cavalry and Heavy Cavalry ("Cavalry/Heavy Cavalry").
    Horse,
}

/// How a unit may make a kind of step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// As an ordinary one-action move.
    Step,
    /// Only as a whole double turn (R5).
    WholeDoubleTurn,
    /// Never (N6: Heavy Cavalry and forests).
    Never,
}

/// A set of unit types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KindSet(u8);

impl KindSet {
    /// No type.
    pub const NONE: KindSet = KindSet(0);
    /// Every type.
    pub const ALL: KindSet = KindSet(0x7F);

    /// The set of these types.
    pub const fn of(kinds: &[UnitKind]) -> KindSet {
        let mut bits = 0;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << kinds[i] as u8;
            i += 1;
        }
        KindSet(bits)
    }

    /// Whether `kind` is in the set.
    #[inline]
    pub const fn contains(self, kind: UnitKind) -> bool {
        self.0 & (1 << kind as u8) != 0
    }
}

/// How a unit retreats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RetreatStyle {
    /// Straight to the reserve along a clear path (R22).
    Path,
    /// Artillery: when attacked only from forest to forest, otherwise along a
    /// clear path (R23).
    Gun,
    /// The Guard: one step into an empty clear square strictly closer to the
    /// reserve, or into the reserve; failing that, along a clear path (N13).
    Guard,
    /// Cavalry: one step closer, displacing friends in a chain when no empty
    /// square is left (R24); `forest` says whether the step may enter a
    /// forest (N6: Heavy Cavalry never does).
    Horse {
        /// Whether the step may end in a forest.
        forest: bool,
    },
}

/// Whether an attacked unit may stand when it has a retreat (and the attack
/// is neither a flank attack nor one it must yield to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Defence {
    /// It chooses (R22, R23, N14, N15).
    MayStand,
    /// It must retreat, except in a forest or when attacked by a lone unit
    /// of these types (R24; N27: bare "Cavalry" is CAV only).
    MustRetreat {
        /// The unsupported attackers it may stand against.
        stand_against_alone: KindSet,
    },
}

/// The options an attacking unit chooses from when the defender stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionList {
    /// Options 1-5 (R19).
    General,
    /// HB1-HB5 (N19).
    HorseBattery,
}

/// Everything the engine needs to know about one unit type in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRules {
    /// Its family.
    pub family: Family,
    /// What eliminating it scores, before the cavalry doubling (R26, N22).
    pub points: u8,
    /// The longest move of one unit: 1 step, or 2 through an empty square (R11a).
    pub steps: u8,
    /// How it may step diagonally (through a corner).
    pub corner: Access,
    /// How it may enter a forest.
    pub forest: Access,
    /// Whether it may be one of the two units of a two-unit move (R11b, N6).
    pub pairs: bool,
    /// What it may attack as an unsupported attacking unit (R15, N7-N9).
    pub attacks_alone: KindSet,
    /// What it may attack as the attacking unit of a supported attack.
    pub attacks_supported: KindSet,
    /// Whether it charges directly after a PASS (N10).
    pub charges: bool,
    /// Whether, supported by the artillery family, it forms a Grand Battery
    /// and may attack any unit (N18).
    pub grand_battery: bool,
    /// Whether it may retreat as an attacker's option (1 and 4; R19, N17).
    pub attacker_retreats: bool,
    /// Its options as the attacking unit when the defender stands.
    pub options: OptionList,
    /// Whether it may advance after an attack (R20).
    pub advances: bool,
    /// Unsupported attackers of these types are eliminated and it is
    /// unharmed: at once when it has no retreat to choose (R17), else when it
    /// stands (N11, N14, N15, N38).
    pub immune_to: KindSet,
    /// Its immunity lapses directly after the attacker's PASS (N11).
    pub immunity_lapses_after_pass: bool,
    /// A unit charging it dies with it (N10: the Guard).
    pub costs_its_charger: bool,
    /// It must retreat, if it can, from these attacking units (N12).
    pub yields_to: KindSet,
    /// Whether it may stand when it could retreat.
    pub defence: Defence,
    /// How it retreats.
    pub retreat: RetreatStyle,
    /// Whether, attacked in a forest, it may retreat to another forest (R22, R23).
    pub forest_to_forest: bool,
    /// Whether it rests for its owner's next turn after a retreat (R21, N16).
    pub rests: bool,
    /// Whether its retreat as a supporting unit gives the defender a second
    /// chance (R19, N21).
    pub second_chance_as_support: bool,
    /// Whether option 1 against it needs the artillery family among the
    /// attackers (N20).
    pub option1_needs_guns: bool,
}

impl UnitRules {
    /// Whether its rules let it retreat when attacked on a forest square
    /// (`forest`) or a clear one, when a retreat exists: every type but
    /// artillery, which retreats when attacked only from a forest (R23).
    pub fn retreats_when_attacked(&self, forest: bool) -> bool {
        forest || self.retreat != RetreatStyle::Gun
    }
}

/// One game's rules: a row per unit type (its army is the variant's,
/// `core/variant.rs`).
#[derive(Debug)]
pub struct Ruleset {
    /// A row per [`UnitKind`], by its index; types outside the army have
    /// rows that are never read.
    pub units: [UnitRules; 7],
}

use UnitKind::{Artillery, Cavalry, Guard, HeavyCavalry, HorseBattery, Infantry, Light};

const GUNS: KindSet = KindSet::of(&[Artillery, HorseBattery]);
const NOT_HORSE: KindSet = KindSet::of(&[Infantry, Guard, Light, Artillery, HorseBattery]);
const NOT_FOOT: KindSet = KindSet::of(&[Artillery, HorseBattery, Cavalry, HeavyCavalry]);
const FOOT_AND_HORSE: KindSet = KindSet::of(&[Infantry, Guard, Light, Cavalry, HeavyCavalry]);

/// R9, R22: Civil War infantry.
const CW_INFANTRY: UnitRules = UnitRules {
    family: Family::Foot,
    points: 1,
    steps: 1,
    corner: Access::WholeDoubleTurn,
    forest: Access::WholeDoubleTurn,
    pairs: false,
    attacks_alone: KindSet::ALL,
    attacks_supported: KindSet::ALL,
    charges: false,
    grand_battery: false,
    attacker_retreats: true,
    options: OptionList::General,
    advances: true,
    immune_to: KindSet::NONE,
    immunity_lapses_after_pass: false,
    costs_its_charger: false,
    yields_to: KindSet::NONE,
    defence: Defence::MayStand,
    retreat: RetreatStyle::Path,
    forest_to_forest: true,
    rests: true,
    second_chance_as_support: false,
    option1_needs_guns: false,
};

/// R10, R15, R17, R23: Civil War artillery.
const CW_ARTILLERY: UnitRules = UnitRules {
    family: Family::Guns,
    points: 2,
    steps: 1,
    corner: Access::Step,
    forest: Access::WholeDoubleTurn,
    pairs: false,
    attacks_alone: KindSet::of(&[Artillery]),
    attacks_supported: KindSet::of(&[Artillery]),
    charges: false,
    grand_battery: false,
    attacker_retreats: false,
    options: OptionList::General,
    advances: false,
    immune_to: KindSet::of(&[Infantry, Cavalry]),
    immunity_lapses_after_pass: false,
    costs_its_charger: false,
    yields_to: KindSet::NONE,
    defence: Defence::MayStand,
    retreat: RetreatStyle::Gun,
    forest_to_forest: true,
    rests: true,
    second_chance_as_support: true,
    option1_needs_guns: false,
};

/// R11, R15, R24: Civil War cavalry.
const CW_CAVALRY: UnitRules = UnitRules {
    family: Family::Horse,
    points: 1,
    steps: 2,
    corner: Access::Step,
    forest: Access::Step,
    pairs: true,
    attacks_alone: KindSet::of(&[Artillery, Cavalry]),
    attacks_supported: KindSet::ALL,
    charges: false,
    grand_battery: false,
    attacker_retreats: false,
    options: OptionList::General,
    advances: true,
    immune_to: KindSet::NONE,
    immunity_lapses_after_pass: false,
    costs_its_charger: false,
    yields_to: KindSet::NONE,
    defence: Defence::MustRetreat {
        stand_against_alone: KindSet::of(&[Cavalry]),
    },
    retreat: RetreatStyle::Horse { forest: true },
    forest_to_forest: false,
    rests: false,
    second_chance_as_support: false,
    option1_needs_guns: false,
};

/// N3, N7, N12: Napoleonic infantry.
const N_INFANTRY: UnitRules = UnitRules {
    attacks_alone: NOT_HORSE,
    attacks_supported: NOT_HORSE,
    yields_to: KindSet::of(&[Guard]),
    ..CW_INFANTRY
};

/// N3, N7, N10, N11, N13, N22: the Guard.
const N_GUARD: UnitRules = UnitRules {
    points: 2,
    yields_to: KindSet::NONE,
    immune_to: KindSet::of(&[Infantry, Light]),
    immunity_lapses_after_pass: true,
    costs_its_charger: true,
    retreat: RetreatStyle::Guard,
    ..N_INFANTRY
};

/// N4: Light Infantry enters a forest as an ordinary move.
const N_LIGHT: UnitRules = UnitRules {
    forest: Access::Step,
    ..N_INFANTRY
};

/// N5, N9, N15, N18, N20, N21: Napoleonic artillery.
const N_ARTILLERY: UnitRules = UnitRules {
    attacks_alone: GUNS,
    attacks_supported: GUNS,
    grand_battery: true,
    immune_to: FOOT_AND_HORSE,
    option1_needs_guns: true,
    ..CW_ARTILLERY
};

/// N5, N9, N15, N19, N20, N21, N26: the Horse Battery.
const N_HORSE_BATTERY: UnitRules = UnitRules {
    family: Family::Guns,
    points: 2,
    steps: 2,
    corner: Access::Step,
    forest: Access::WholeDoubleTurn,
    pairs: false,
    attacks_alone: KindSet::ALL,
    attacks_supported: KindSet::ALL,
    charges: false,
    grand_battery: false,
    attacker_retreats: true,
    options: OptionList::HorseBattery,
    advances: false,
    immune_to: FOOT_AND_HORSE,
    immunity_lapses_after_pass: false,
    costs_its_charger: false,
    yields_to: KindSet::NONE,
    defence: Defence::MayStand,
    retreat: RetreatStyle::Horse { forest: true },
    forest_to_forest: false,
    rests: true,
    second_chance_as_support: false,
    option1_needs_guns: true,
};

/// N6, N8, N10, N27: Napoleonic cavalry.
const N_CAVALRY: UnitRules = UnitRules {
    attacks_alone: NOT_FOOT,
    charges: true,
    ..CW_CAVALRY
};

/// N6, N8, N10, N14, N16, N17: Heavy Cavalry.
const N_HEAVY_CAVALRY: UnitRules = UnitRules {
    forest: Access::Never,
    attacks_alone: KindSet::ALL,
    attacker_retreats: true,
    immune_to: KindSet::of(&[Cavalry]),
    defence: Defence::MayStand,
    retreat: RetreatStyle::Horse { forest: false },
    rests: true,
    ..N_CAVALRY
};

/// SQUARES - The Civil War Battle Game: its three types' rows.
pub static CIVIL_WAR: Ruleset = Ruleset {
    // Rows for the Napoleonic types are never read in this game.
    units: [
        CW_INFANTRY,
        CW_INFANTRY,
        CW_INFANTRY,
        CW_ARTILLERY,
        CW_ARTILLERY,
        CW_CAVALRY,
        CW_CAVALRY,
    ],
};

/// The Napoleonic variant: its seven types' rows (N3-N24).
pub static NAPOLEONIC: Ruleset = Ruleset {
    units: [
        N_INFANTRY,
        N_GUARD,
        N_LIGHT,
        N_ARTILLERY,
        N_HORSE_BATTERY,
        N_CAVALRY,
        N_HEAVY_CAVALRY,
    ],
};

#[cfg(test)]
mod tests {
    use super::{Access, Family, OptionList, CIVIL_WAR, GUNS, NAPOLEONIC};
    use crate::games::squares::core::unit::UnitKind::{
        Artillery, Cavalry, Guard, HeavyCavalry, HorseBattery, Light,
    };

    #[test]
    fn the_guns_mask_is_the_artillery_family() {
        use crate::games::squares::core::variant::Variant;
        for v in [Variant::CivilWar, Variant::Napoleonic] {
            for (n, &kind) in v.army().iter().enumerate() {
                assert_eq!(
                    v.guns_mask() & (1 << n) != 0,
                    v.unit(kind).family == Family::Guns,
                    "{v:?} unit {n}"
                );
            }
        }
    }

    #[test]
    fn rows_sit_at_their_kinds_index() {
        // The tables are indexed by `UnitKind as usize`; a misplaced row would
        // silently give a unit another type's rules.
        assert_eq!(NAPOLEONIC.units[Guard as usize].points, 2);
        assert_eq!(
            NAPOLEONIC.units[HorseBattery as usize].options,
            OptionList::HorseBattery
        );
        assert_eq!(
            NAPOLEONIC.units[HeavyCavalry as usize].forest,
            Access::Never
        );
        assert_eq!(NAPOLEONIC.units[Light as usize].forest, Access::Step);
        assert_eq!(CIVIL_WAR.units[Cavalry as usize].steps, 2);
        assert_eq!(CIVIL_WAR.units[Artillery as usize].family, Family::Guns);
        assert!(GUNS.contains(HorseBattery) && !GUNS.contains(Cavalry));
    }
}
