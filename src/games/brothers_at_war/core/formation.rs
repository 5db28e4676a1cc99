//! What each side of a counter is, per kind of unit (1.2, 5.4), and which
//! column of the terrain effects chart a unit moves by (5.21, 9.11).

use serde::{Deserialize, Serialize};

use crate::games::brothers_at_war::scenario::model::{Face, UnitKind};

/// A unit's formation: its kind and the side of its counter face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Formation {
    /// Infantry, front (5.41 a).
    Formed,
    /// Infantry, back (5.41 b).
    Unformed,
    /// Cavalry, front (5.43 a).
    Dismounted,
    /// Cavalry, back (5.43 b).
    Mounted,
    /// Artillery, front (5.42 a).
    Deployed,
    /// Artillery, back (5.42 b).
    Limbered,
    /// A skirmisher on foot, infantry or dismounted cavalry (5.44 a).
    OnFoot,
    /// A cavalry skirmisher mounted (5.44 b).
    MountedSkirmisher,
    /// A remnant (5.45): unformed infantry of no brigade.
    Remnant,
}

/// Which column of the chart a mover pays (scenario `Costs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// Infantry of either formation and dismounted cavalry.
    Foot,
    /// Mounted cavalry and mounted skirmishers (9.11).
    Horse,
    /// Limbered artillery.
    Guns,
    /// Skirmishers on foot: 1 MP a hex whatever the ground (9.11).
    Skirmisher,
}

impl Formation {
    /// The formation of a unit of `kind` showing `face`.
    pub fn of(kind: UnitKind, face: Face) -> Formation {
        match (kind, face) {
            (UnitKind::Infantry, Face::Front) => Formation::Formed,
            (UnitKind::Infantry, Face::Back) => Formation::Unformed,
            (UnitKind::Cavalry, Face::Front) => Formation::Dismounted,
            (UnitKind::Cavalry, Face::Back) => Formation::Mounted,
            (UnitKind::Artillery, Face::Front) => Formation::Deployed,
            (UnitKind::Artillery, Face::Back) => Formation::Limbered,
            (UnitKind::Skirmisher, Face::Front) => Formation::OnFoot,
            (UnitKind::Skirmisher, Face::Back) => Formation::MountedSkirmisher,
            (UnitKind::Remnant, _) => Formation::Remnant,
        }
    }

    /// How it pays for ground; `None` for deployed artillery, which does
    /// not move (5.42: only limbered artillery moves).
    pub fn mover(self) -> Option<Mover> {
        match self {
            Formation::Formed | Formation::Unformed | Formation::Dismounted => Some(Mover::Foot),
            Formation::Remnant => Some(Mover::Foot),
            Formation::Mounted | Formation::MountedSkirmisher => Some(Mover::Horse),
            Formation::Limbered => Some(Mover::Guns),
            Formation::OnFoot => Some(Mover::Skirmisher),
            Formation::Deployed => None,
        }
    }

    /// Whether it is a skirmisher of either side of the counter.
    pub fn is_skirmisher(self) -> bool {
        matches!(self, Formation::OnFoot | Formation::MountedSkirmisher)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_two_formations() {
        assert_eq!(
            Formation::of(UnitKind::Infantry, Face::Front),
            Formation::Formed
        );
        assert_eq!(
            Formation::of(UnitKind::Cavalry, Face::Back),
            Formation::Mounted
        );
        assert_eq!(
            Formation::of(UnitKind::Artillery, Face::Back),
            Formation::Limbered
        );
        assert_eq!(
            Formation::of(UnitKind::Remnant, Face::Back),
            Formation::Remnant
        );
        assert_eq!(Formation::Deployed.mover(), None);
        assert_eq!(Formation::OnFoot.mover(), Some(Mover::Skirmisher));
        assert_eq!(Formation::MountedSkirmisher.mover(), Some(Mover::Horse));
    }
}
