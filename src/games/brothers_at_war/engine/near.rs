//! Distances to the enemy that rules count "in line of sight": the rally
//! and command check bonus for 7 or more hexes (3.211, 4.31), the fate
//! check bonus (2.33) and the Disrupted unit's limit (6.531).
//!
//! Sight lines are engine/sight.rs (another part of issue 17); until the
//! lead wires it here, [`sees`] takes every enemy as seen, the reading
//! that gives no bonus a sight line could deny.

use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::Side;

/// The hexes of 7 or more that count as far from the enemy.
pub const FAR: u32 = 7;

/// Whether a unit in `from` sees `to` (6.3).
pub fn sees(_game: &BrothersAtWar, _from: Hex, _to: Hex) -> bool {
    true
}

/// Whether `hex` is 7 or more hexes from every unit of `enemy` it sees.
pub fn far_from(game: &BrothersAtWar, hex: Hex, enemy: Side) -> bool {
    game.units_of(enemy).all(|e| {
        let Some(at) = game.hex_of(e) else {
            return true;
        };
        hex.distance(at) >= FAR || !sees(game, hex, at)
    })
}

/// The hexes of enemy units within 7 hexes of `hex` and in its sight.
pub fn near_enemies(game: &BrothersAtWar, hex: Hex, enemy: Side) -> Vec<Hex> {
    game.units_of(enemy)
        .filter_map(|e| game.hex_of(e))
        .filter(|&at| hex.distance(at) <= FAR && sees(game, hex, at))
        .collect()
}
