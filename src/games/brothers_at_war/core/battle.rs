//! A battle ready to play: its scenario, its compiled map, and the
//! lookups the engine needs, shared by every state of a game (an `Arc`).

use std::collections::BTreeMap;
use std::fmt;

use sha2::{Digest, Sha256};

use super::ids::{BrigadeId, UnitId};
use super::map::{BattleMap, MapProblem};
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};
use crate::games::brothers_at_war::scenario::Scenario;

/// A scenario compiled for play.
pub struct Battle {
    /// The scenario as read.
    pub scenario: Scenario,
    /// Its map, resolved.
    pub map: BattleMap,
    /// The first 8 hex digits of the SHA-256 of the scenario's canonical
    /// JSON: a position names it, so that a position is never read against
    /// a different version of its battle.
    pub hash: String,
    units: BTreeMap<String, UnitId>,
    brigades: BTreeMap<String, BrigadeId>,
    unit_side: Vec<Side>,
    unit_brigade: Vec<Option<BrigadeId>>,
}

impl fmt::Debug for Battle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Battle({} {})", self.scenario.id, self.hash)
    }
}

/// Why a scenario could not be compiled for play.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BattleProblem {
    /// The map or its charts are wrong.
    #[error("the map: {0:?}")]
    Map(Vec<MapProblem>),
    /// A unit names a brigade that does not exist.
    #[error("unit {unit} names brigade {brigade}, which the scenario has not")]
    NoBrigade {
        /// The unit's id.
        unit: String,
        /// The brigade named.
        brigade: String,
    },
    /// A unit whose side nothing says: no `side` and no brigade (9.2).
    #[error("unit {0} has no side and no brigade")]
    NoSide(String),
    /// Two units or brigades share an id.
    #[error("the id {0} is used twice")]
    Duplicate(String),
    /// More units or brigades than a position can name.
    #[error("too many units or brigades")]
    TooMany,
}

impl Battle {
    /// Compiles a scenario.
    pub fn new(scenario: Scenario) -> Result<Battle, BattleProblem> {
        let map = BattleMap::build(&scenario).map_err(BattleProblem::Map)?;
        if scenario.brigades.len() > usize::from(u8::MAX) || scenario.units.len() > 4000 {
            return Err(BattleProblem::TooMany);
        }
        let mut brigades = BTreeMap::new();
        for (i, b) in scenario.brigades.iter().enumerate() {
            let id = BrigadeId(i as u8);
            if brigades.insert(b.id.to_ascii_uppercase(), id).is_some() {
                return Err(BattleProblem::Duplicate(b.id.clone()));
            }
        }
        let mut units = BTreeMap::new();
        let mut unit_side = Vec::new();
        let mut unit_brigade = Vec::new();
        for (i, u) in scenario.units.iter().enumerate() {
            if units
                .insert(u.id.to_ascii_uppercase(), UnitId(i as u16))
                .is_some()
            {
                return Err(BattleProblem::Duplicate(u.id.clone()));
            }
            let brigade = match &u.brigade {
                Some(b) => Some(*brigades.get(&b.to_ascii_uppercase()).ok_or_else(|| {
                    BattleProblem::NoBrigade {
                        unit: u.id.clone(),
                        brigade: b.clone(),
                    }
                })?),
                None => None,
            };
            let side = u
                .side
                .or_else(|| brigade.map(|b| scenario.brigades[b.index()].side));
            unit_side.push(side.ok_or_else(|| BattleProblem::NoSide(u.id.clone()))?);
            // A remnant belongs to no brigade (9.2), whatever its file says.
            unit_brigade.push(brigade.filter(|_| u.kind != UnitKind::Remnant));
        }
        let json = serde_json::to_string(&scenario).unwrap_or_default();
        let digest = Sha256::digest(json.as_bytes());
        let hash = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
        Ok(Battle {
            scenario,
            map,
            hash,
            units,
            brigades,
            unit_side,
            unit_brigade,
        })
    }

    /// The scenario unit of this id (any case).
    pub fn unit_named(&self, id: &str) -> Option<UnitId> {
        self.units.get(&id.to_ascii_uppercase()).copied()
    }

    /// The brigade of this id (any case).
    pub fn brigade_named(&self, id: &str) -> Option<BrigadeId> {
        self.brigades.get(&id.to_ascii_uppercase()).copied()
    }

    /// How many units the order of battle has (generic remnants made in
    /// play come after them).
    pub fn unit_count(&self) -> usize {
        self.scenario.units.len()
    }

    /// The side of a scenario unit.
    pub fn side_of(&self, unit: UnitId) -> Option<Side> {
        self.unit_side.get(unit.index()).copied()
    }

    /// The brigade of a scenario unit (none for remnants, 9.2).
    pub fn brigade_of(&self, unit: UnitId) -> Option<BrigadeId> {
        self.unit_brigade.get(unit.index()).copied().flatten()
    }

    /// The side of a brigade.
    pub fn brigade_side(&self, brigade: BrigadeId) -> Side {
        self.scenario.brigades[brigade.index()].side
    }

    /// Every brigade, in the scenario's order.
    pub fn brigade_ids(&self) -> impl Iterator<Item = BrigadeId> {
        (0..self.scenario.brigades.len()).map(|i| BrigadeId(i as u8))
    }
}
