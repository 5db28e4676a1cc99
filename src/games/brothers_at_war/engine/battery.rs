//! Fire at an off-board battery (9.43, B147): map units count range to
//! the battery's fire point and trace sight to the map edge it stands
//! behind (9.431); batteries fire at one another only when their card
//! says so (9.432, B113); the battery saves by 9.433 (B114) and its local
//! support takes the first killing hit (9.44).

use crate::games::brothers_at_war::core::combat::{FireAttack, FireType};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::line::LineSide;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::OffBoard;

use super::refusal::Refusal;

/// What a fire is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// The enemy units in a hex, along the side of a line named if any
    /// (6.32).
    Hex(Hex, Option<LineSide>),
    /// An enemy off-board battery (9.43).
    Battery(UnitId),
}

/// An off-board battery as a target through one of its card's fire
/// points (9.431, B112).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatteryAim {
    /// The fire point's hex, to which range is counted.
    pub point: Hex,
    /// The fire point's number, added to the range (9.41).
    pub number: u8,
    /// The map-edge hex sight is traced to (9.42).
    pub edge: Hex,
    /// The card's level (9.42, 9.433).
    pub level: u8,
    /// The card's extra save rolls (9.433).
    pub saves: u8,
}

impl BrothersAtWar {
    /// The card of an off-board battery, while it is off board.
    pub fn battery_card(&self, unit: UnitId) -> Option<&OffBoard> {
        let scenario = &self.battle.scenario;
        scenario
            .units
            .get(unit.index())
            .and_then(|s| s.off_board.as_ref())
            .and_then(|id| scenario.off_board.iter().find(|c| &c.id == id))
            .filter(|_| self.unit(unit).place == Place::OffBoard)
    }

    /// The ways to aim at `unit`'s card: one per fire point.
    fn battery_aims(&self, unit: UnitId) -> Vec<BatteryAim> {
        let Some(card) = self.battery_card(unit) else {
            return Vec::new();
        };
        card.fire_points
            .iter()
            .filter_map(|id| {
                self.battle
                    .scenario
                    .map
                    .fire_points
                    .iter()
                    .find(|p| &p.id == id)
            })
            .map(|p| BatteryAim {
                point: p.at,
                number: p.range,
                edge: p.sight_from(),
                level: card.level,
                saves: card.saves,
            })
            .collect()
    }

    /// Declares a fire at a hex or at a battery.
    pub(super) fn declare_aimed(
        &self,
        firers: &[UnitId],
        aim: Aim,
        kind: FireType,
    ) -> Result<FireAttack, Refusal> {
        match aim {
            Aim::Hex(hex, side) => {
                let targets = self.enemies_at(hex, self.side_of(firers[0]));
                self.declare_fire_along(firers, hex, &targets, kind, side)
            }
            Aim::Battery(unit) => self.declare_fire_at_battery(firers, unit, kind),
        }
    }

    /// A fire at an off-board battery (9.43): through the fire point of
    /// its card that the firers reach and see, the nearest first (B147).
    pub fn declare_fire_at_battery(
        &self,
        firers: &[UnitId],
        unit: UnitId,
        kind: FireType,
    ) -> Result<FireAttack, Refusal> {
        let name = self.unit_name(unit);
        if self.battery_card(unit).is_none() || self.side_of(unit) == self.side_of(firers[0]) {
            return Err(Refusal::NotABattery(name));
        }
        // 9.432, B113: a battery fires at another only by its card.
        for &f in firers {
            if let Some(card) = self.battery_card(f) {
                if !card.counter_battery {
                    return Err(Refusal::NoCounterBattery(card.name.clone()));
                }
            }
        }
        let mut aims = self.battery_aims(unit);
        let from = self.hex_of(firers[0]);
        aims.sort_by_key(|a| {
            (
                from.map_or(0, |h| h.distance(a.point)) + u32::from(a.number),
                a.point,
            )
        });
        let mut first_error = None;
        for aim in &aims {
            match self.declare_fire_traced(firers, aim.point, &[unit], kind, false, None, Some(aim))
            {
                Ok(attack) => return Ok(attack),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or(Refusal::NotABattery(name)))
    }

    /// `FIRE LNG` (9.43, B147): the unit order to fire at an enemy
    /// off-board battery, named by its unit id.
    pub fn fire_at_battery(
        &mut self,
        units: &[UnitId],
        name: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let unit = self
            .unit_named(name)
            .ok_or_else(|| Refusal::NotAHexNorUnit(name.to_string()))?;
        self.fire_aimed(units, Aim::Battery(unit), events)
    }

    /// Whether a unit is in play where fire can reach it: on the map, or
    /// an off-board battery on its card (9.4).
    pub fn within_fire(&self, unit: UnitId) -> bool {
        self.hex_of(unit).is_some() || self.unit(unit).place == Place::OffBoard
    }
}
