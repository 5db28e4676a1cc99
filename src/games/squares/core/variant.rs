//! Which game is played: SQUARES - The Civil War Battle Game or its
//! Napoleonic variant, and each game's army.
//!
//! The two games share one engine; a position carries its [`Variant`], and
//! everything that differs between the games is looked up from it: the
//! army here, the unit rules in the engine (`engine/rules.rs`), the words
//! and codes in the notation (`text/notation.rs`).

use super::unit::{Side, UnitId, UnitKind, ARMY_SIZE};

/// Which of the two SQUARES games a position belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Variant {
    /// SQUARES - The Civil War Battle Game: Blue and Gray.
    #[default]
    CivilWar,
    /// SQUARES - The Napoleonic War Variant: the British and the French.
    Napoleonic,
}

use UnitKind::{Artillery, Cavalry, Guard, HeavyCavalry, HorseBattery, Infantry, Light};

/// The Civil War army: 9 infantry, 3 artillery, 4 cavalry.
const CIVIL_WAR_ARMY: [UnitKind; ARMY_SIZE] = [
    Infantry, Infantry, Infantry, Infantry, Infantry, Infantry, Infantry, Infantry, Infantry,
    Artillery, Artillery, Artillery, Cavalry, Cavalry, Cavalry, Cavalry,
];

/// The Napoleonic army (N2): 6 infantry, a Guard, 2 Light Infantry, 2
/// artillery, a Horse Battery, 3 cavalry and a Heavy Cavalry.
const NAPOLEONIC_ARMY: [UnitKind; ARMY_SIZE] = [
    Infantry,
    Infantry,
    Infantry,
    Infantry,
    Infantry,
    Infantry,
    Guard,
    Light,
    Light,
    Artillery,
    Artillery,
    HorseBattery,
    Cavalry,
    Cavalry,
    Cavalry,
    HeavyCavalry,
];

/// For each unit type (by its index), the numbers of an army's units of
/// that type, as bits.
const fn kind_masks(army: &[UnitKind; ARMY_SIZE]) -> [u16; 7] {
    let mut masks = [0u16; 7];
    let mut n = 0;
    while n < ARMY_SIZE {
        masks[army[n] as usize] |= 1 << n;
        n += 1;
    }
    masks
}

const CIVIL_WAR_MASKS: [u16; 7] = kind_masks(&CIVIL_WAR_ARMY);
const NAPOLEONIC_MASKS: [u16; 7] = kind_masks(&NAPOLEONIC_ARMY);

impl Variant {
    /// The numbers of this game's units of `kind`, as bits (bit n: unit
    /// number n), for the unit masks a position keeps.
    #[inline]
    pub fn kind_mask(self, kind: UnitKind) -> u16 {
        match self {
            Variant::CivilWar => CIVIL_WAR_MASKS[kind as usize],
            Variant::Napoleonic => NAPOLEONIC_MASKS[kind as usize],
        }
    }

    /// The unit types of this game's army, in army order.
    pub fn kinds(self) -> &'static [UnitKind] {
        match self {
            Variant::CivilWar => &[Infantry, Artillery, Cavalry],
            Variant::Napoleonic => &[
                Infantry,
                Guard,
                Light,
                Artillery,
                HorseBattery,
                Cavalry,
                HeavyCavalry,
            ],
        }
    }

    /// Each side's 16 units by number.
    #[inline]
    pub fn army(self) -> &'static [UnitKind; ARMY_SIZE] {
        match self {
            Variant::CivilWar => &CIVIL_WAR_ARMY,
            Variant::Napoleonic => &NAPOLEONIC_ARMY,
        }
    }

    /// How many units of `kind` an army of this game has.
    pub fn army_count(self, kind: UnitKind) -> usize {
        self.army().iter().filter(|&&k| k == kind).count()
    }
}

impl UnitId {
    /// The units of `side` in `variant`'s army, by number.
    pub fn of_side(variant: Variant, side: Side) -> impl Iterator<Item = UnitId> {
        variant
            .army()
            .iter()
            .enumerate()
            .map(move |(n, &kind)| UnitId::new(side, n, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::{UnitKind::Infantry, Variant};

    #[test]
    fn armies_have_sixteen_units_of_their_kinds() {
        for v in [Variant::CivilWar, Variant::Napoleonic] {
            let total: usize = v.kinds().iter().map(|&k| v.army_count(k)).sum();
            assert_eq!(total, 16);
            for k in v.army() {
                assert!(v.kinds().contains(k));
            }
        }
        assert_eq!(Variant::Napoleonic.army_count(Infantry), 6);
        for v in [Variant::CivilWar, Variant::Napoleonic] {
            for &k in v.kinds() {
                assert_eq!(v.kind_mask(k).count_ones() as usize, v.army_count(k));
                for (n, &kind) in v.army().iter().enumerate() {
                    assert_eq!(v.kind_mask(k) & (1 << n) != 0, kind == k);
                }
            }
        }
        assert_eq!(Variant::CivilWar.army_count(Infantry), 9);
    }
}
