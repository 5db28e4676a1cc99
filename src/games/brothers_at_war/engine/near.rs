//! Distances to the enemy that rules count "in line of sight": the rally
//! and command check bonus for 7 or more hexes (3.211, 4.31), the fate
//! check bonus (2.33) and the Disrupted unit's limit (6.531).
//!
//! B32: an enemy counts when a non-artillery unit of ours could trace an
//! open sight line to it (engine/sight.rs) by either side of the line,
//! skirmish zones ignored; next to each other, always (B31).

use super::sight::{self, Firer, Occupancy, Skirmisher, Target, Viewpoint};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};

/// The hexes of 7 or more that count as far from the enemy.
pub const FAR: u32 = 7;

/// Where units stand, as the sight rules ask it for B32: skirmishers do
/// not block (6.37 a) and cast no zone here.
struct Standing<'a>(&'a BrothersAtWar);

impl Occupancy for Standing<'_> {
    fn standing(&self, hex: Hex) -> Option<Side> {
        self.0
            .units_at(hex)
            .into_iter()
            .find(|&u| self.0.kind_of(u) != UnitKind::Skirmisher)
            .map(|u| self.0.side_of(u))
    }

    fn skirmisher(&self, _hex: Hex) -> Option<Skirmisher> {
        None
    }

    fn pass_through_units(&self, _hex: Hex, _side: Side) -> u8 {
        0
    }
}

/// Whether a unit of `side` in `from` sees `to` (6.3, B32).
pub fn sees(game: &BrothersAtWar, side: Side, from: Hex, to: Hex) -> bool {
    if from == to || from.is_neighbour(to) {
        return true;
    }
    let map = &game.battle.map;
    let firer = Firer {
        at: Viewpoint::on_map(map, from),
        side,
        artillery: false,
    };
    let target = Target {
        at: Viewpoint::on_map(map, to),
        brigade: None,
        artillery: false,
    };
    let sides = sight::check(map, &Standing(game), &firer, &target);
    sides.left.outcome.is_ok() || sides.right.outcome.is_ok()
}

/// Whether `hex` is 7 or more hexes from every unit of `enemy` that a
/// unit there sees.
pub fn far_from(game: &BrothersAtWar, hex: Hex, enemy: Side) -> bool {
    game.units_of(enemy).all(|e| {
        let Some(at) = game.hex_of(e) else {
            return true;
        };
        hex.distance(at) >= FAR || !sees(game, enemy.other(), hex, at)
    })
}

/// The hexes of enemy units within 7 hexes of `hex` that a unit there
/// sees (6.531, B33).
pub fn near_enemies(game: &BrothersAtWar, hex: Hex, enemy: Side) -> Vec<Hex> {
    game.units_of(enemy)
        .filter_map(|e| game.hex_of(e))
        .filter(|&at| hex.distance(at) <= FAR && sees(game, enemy.other(), hex, at))
        .collect()
}
