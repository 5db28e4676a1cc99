//! What the ground costs a mover (5.21-5.213) and where commanders may go
//! and command reaches (4.11, 4.2), from the scenario's chart.

use std::collections::BTreeSet;

use super::refusal::Refusal;
use crate::games::brothers_at_war::core::formation::Mover;
use crate::games::brothers_at_war::core::map::BattleMap;
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Cost, Costs};

/// The column of a chart row a mover pays. Skirmishers on foot pay no
/// terrain cost (9.11) but what is closed to infantry stays closed to them
/// (reading: "no" on the chart is no cost but a prohibition).
fn column(costs: &Costs, mover: Mover) -> Cost {
    match mover {
        Mover::Foot | Mover::Skirmisher => costs.infantry,
        Mover::Horse => costs.cavalry,
        Mover::Guns => costs.artillery,
    }
}

/// Adds a chart cost; `false` when it prohibits.
fn pay(total: &mut u8, cost: Cost, mover: Mover) -> bool {
    match cost {
        Cost::Prohibited(_) => false,
        Cost::Extra(n) => {
            if mover != Mover::Skirmisher {
                *total = total.saturating_add(n);
            }
            true
        }
    }
}

/// Whether a river hex may be entered from `from` (5.213): only across a
/// ford hexside, so never from off the map.
pub fn river_ok(map: &BattleMap, from: Option<Hex>, to: Hex) -> bool {
    if !map.terrain_of(to).river {
        return true;
    }
    let Some(from) = from else { return false };
    map.hexside(from, to)
        .iter()
        .any(|id| map.hexside_kinds()[usize::from(id.0)].ford)
}

/// What entering `to` from `from` (or from off the map, 10.1) costs this
/// mover: 1, plus the chart's terrain, hexside and slope costs (5.21),
/// never more than 1 along a road or trail (5.211).
pub fn enter_cost(
    map: &BattleMap,
    mover: Mover,
    from: Option<Hex>,
    to: Hex,
) -> Result<u8, Refusal> {
    if !map.contains(to) {
        return Err(Refusal::OffMap(to));
    }
    if let Some(from) = from {
        if !from.is_neighbour(to) {
            return Err(Refusal::NotAdjacent { from, to });
        }
    }
    if !river_ok(map, from, to) {
        return Err(Refusal::River(to));
    }
    let mut total = 1u8;
    let mut open = pay(&mut total, column(&map.terrain_of(to).moving, mover), mover);
    if let Some(from) = from {
        for id in map.hexside(from, to) {
            let kind = &map.hexside_kinds()[usize::from(id.0)];
            open &= pay(&mut total, column(&kind.crossing, mover), mover);
        }
        if map.level(to) > map.level(from) {
            open &= pay(&mut total, column(map.upslope(), mover), mover);
        }
        if map.road(from, to) || map.trail(from, to) {
            total = 1;
        }
    }
    if open {
        Ok(total)
    } else {
        Err(Refusal::Prohibited(to))
    }
}

/// Whether a hex is open to movement at all: its terrain is not closed to
/// infantry, and a river hex has a ford on one of its sides (4.11, 4.2).
pub fn open_to_movement(map: &BattleMap, hex: Hex) -> bool {
    if !map.contains(hex) {
        return false;
    }
    if matches!(map.terrain_of(hex).moving.infantry, Cost::Prohibited(_)) {
        return false;
    }
    !map.terrain_of(hex).river || map.neighbours(hex).any(|n| river_ok(map, Some(n), hex))
}

/// Whether `unit_hex` is within `range` steps of `from` along hexes
/// open to movement and free of enemies (4.2, B48: costs and hexsides do
/// not matter); `blocked` says which hexes hold enemies.
pub fn within_command(
    map: &BattleMap,
    from: Hex,
    unit_hex: Hex,
    range: u32,
    blocked: &dyn Fn(Hex) -> bool,
) -> bool {
    if from == unit_hex {
        return true;
    }
    if from.distance(unit_hex) > range {
        return false;
    }
    let mut seen = BTreeSet::from([from]);
    let mut edge = vec![from];
    for _ in 0..range {
        let mut next = Vec::new();
        for h in edge {
            for n in map.neighbours(h) {
                if n == unit_hex {
                    return true;
                }
                if seen.insert(n) && !blocked(n) && open_to_movement(map, n) {
                    next.push(n);
                }
            }
        }
        edge = next;
    }
    false
}
