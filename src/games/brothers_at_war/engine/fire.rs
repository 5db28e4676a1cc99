//! Declaring fire (6.0-6.4, 6.14, B64-B77): who may fire at what, how many
//! dice at what face, the cap, and the target's save rolls. The dice are
//! rolled through the chance seam ([`super::volley`]).

use super::battery::{Aim, BatteryAim};
use super::fire_math::{
    self, reach, save_rolls, side_for_fire, Attack, FireKind, FireMode, SaveFactor, SaveFacts,
    Shooter, ToHit,
};
use super::refusal::Refusal;
use super::sight::{self, BrigadeIndex, Firer, Occupancy, Skirmisher, Target, Viewpoint};
use crate::games::brothers_at_war::core::combat::{
    CombatEvent, FireAttack, FireType, SaveLine, Stage,
};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::line::LineSide;
use crate::games::brothers_at_war::core::order::MAX_DICE;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, CardEffect, Place};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Face, Side, UnitKind};

/// Movement points a fire costs (6.11).
pub const FIRE_COST: u8 = 2;

/// Why a fire is refused, each citing its rule or ruling.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FireRefusal {
    /// Fire targets a hex holding enemy units (6.0).
    #[error("{0} holds no enemy unit")]
    NoEnemy(Hex),
    /// Beyond the range (6.2, 6.12 d).
    #[error("{what}")]
    OutOfRange {
        /// In words.
        what: String,
        /// The rule.
        rule: &'static str,
    },
    /// The line of sight is blocked (6.3-6.37).
    #[error("no line of sight: {what}")]
    NoSight {
        /// In words.
        what: String,
        /// The rule.
        rule: &'static str,
    },
    /// A skirmish zone shields the target, and the skirmisher in this
    /// hex cannot be fired on in its place either (6.361, B29).
    #[error("no line of sight: {what}, and the skirmisher there may not be fired on instead")]
    Shielded {
        /// In words.
        what: String,
        /// The skirmisher's hex.
        skirmisher: Hex,
    },
    /// Artillery may not fire at skirmishers (6.135).
    #[error("artillery may not fire at skirmishers")]
    ArtilleryAtSkirmisher,
    /// Limbered artillery does not fire (5.42, B56).
    #[error("limbered artillery does not fire: deploy it first")]
    Limbered,
    /// No more fire comes from a hex with a Finished marker (5.37, B44).
    #[error("{0} holds a Finished marker: no more fire comes from it (5.37)")]
    FinishedHex(Hex),
    /// Remnants never fire (B116).
    #[error("remnants do not fire")]
    Remnant,
    /// Combined fire is two formed infantry or two artillery of one
    /// brigade, stacked or adjacent (6.14, B66): the rule is 5.36 for a
    /// stack's pair, 6.14 for any other.
    #[error("{0} and {1} may not combine fire")]
    NotCombined(String, String, &'static str),
    /// A unit fires once per activation (B64).
    #[error("{0} has already fired")]
    AlreadyFired(String),
}

impl FireRefusal {
    /// The rule it enforces.
    pub fn rule(&self) -> &'static str {
        match self {
            FireRefusal::NoEnemy(_) => "6.0",
            FireRefusal::OutOfRange { rule, .. } | FireRefusal::NoSight { rule, .. } => rule,
            FireRefusal::Shielded { .. } => "6.361",
            FireRefusal::ArtilleryAtSkirmisher => "6.135",
            FireRefusal::Limbered => "B56",
            FireRefusal::Remnant => "B116",
            FireRefusal::FinishedHex(_) => "5.37",
            FireRefusal::NotCombined(_, _, rule) => rule,
            FireRefusal::AlreadyFired(_) => "B64",
        }
    }
}

impl From<FireRefusal> for Refusal {
    fn from(r: FireRefusal) -> Refusal {
        Refusal::Fire(r)
    }
}

impl Occupancy for BrothersAtWar {
    fn standing(&self, hex: Hex) -> Option<Side> {
        self.units_at(hex)
            .into_iter()
            .find(|&u| self.kind_of(u) != UnitKind::Skirmisher)
            .map(|u| self.side_of(u))
    }

    fn skirmisher(&self, hex: Hex) -> Option<Skirmisher> {
        self.units_at(hex)
            .into_iter()
            .find(|&u| self.formation(u) == Formation::OnFoot)
            .map(|u| Skirmisher {
                side: self.side_of(u),
                brigade: self.brigade_of(u).map(|b| BrigadeIndex(u16::from(b.0))),
            })
    }

    fn pass_through_units(&self, hex: Hex, side: Side) -> u8 {
        self.units_at(hex)
            .into_iter()
            .filter(|&u| {
                self.side_of(u) == side
                    && !matches!(self.kind_of(u), UnitKind::Artillery | UnitKind::Skirmisher)
            })
            .count() as u8
    }
}

/// Segments cut to the twelve dice one roll holds.
fn bounded(segments: &[(u8, u8)]) -> Vec<(u8, u8)> {
    let mut left = MAX_DICE as u8;
    segments
        .iter()
        .map(|&(n, face)| {
            let n = n.min(left);
            left -= n;
            (n, face)
        })
        .collect()
}

impl BrothersAtWar {
    /// A unit's firepower on its side face up (1.21); generic remnants 1.
    pub fn firepower(&self, unit: UnitId) -> u8 {
        match self.battle.scenario.units.get(unit.index()) {
            Some(u) if self.unit(unit).generic.is_none() => match self.unit(unit).face {
                Face::Front => u.front.firepower,
                Face::Back => u.back.firepower,
            },
            _ => 1,
        }
    }

    fn shooter(&self, unit: UnitId) -> Shooter {
        let s = self.battle.scenario.units.get(unit.index());
        match self.kind_of(unit) {
            UnitKind::Artillery => Shooter::Artillery {
                printed: s.and_then(|s| s.range).unwrap_or(1),
            },
            UnitKind::Skirmisher if s.is_some_and(|s| s.sharpshooter) => Shooter::Sharpshooter,
            _ => Shooter::Other,
        }
    }

    /// The sight rules' view of a unit firing from its hex.
    pub fn firer_at(&self, unit: UnitId, hex: Hex) -> Firer {
        Firer {
            at: Viewpoint::on_map(&self.battle.map, hex),
            side: self.side_of(unit),
            artillery: self.kind_of(unit) == UnitKind::Artillery,
        }
    }

    /// The sight rules' view of the units fired at in `hex`.
    pub fn target_at(&self, hex: Hex, units: &[UnitId]) -> Target {
        Target {
            at: Viewpoint::on_map(&self.battle.map, hex),
            brigade: units
                .iter()
                .find_map(|&u| self.brigade_of(u))
                .map(|b| BrigadeIndex(u16::from(b.0))),
            artillery: units
                .iter()
                .any(|&u| self.kind_of(u) == UnitKind::Artillery),
        }
    }

    /// Where a unit may fire from at `hex`, with the range from there: its
    /// own hex; for an off-board battery each fire point of its card,
    /// nearest first, its sight from the edge hex at the card's level and
    /// its range the fire point's number plus the distance (9.41, B112).
    fn stations(&self, unit: UnitId, hex: Hex) -> Result<Vec<(Firer, u32)>, Refusal> {
        if let Some(at) = self.hex_of(unit) {
            return Ok(vec![(self.firer_at(unit, at), at.distance(hex))]);
        }
        let scenario = &self.battle.scenario;
        let card = scenario
            .units
            .get(unit.index())
            .and_then(|s| s.off_board.as_ref())
            .and_then(|id| scenario.off_board.iter().find(|c| &c.id == id))
            .filter(|_| self.unit(unit).place == Place::OffBoard)
            .ok_or_else(|| Refusal::NotOnMap(self.unit_name(unit)))?;
        let mut v: Vec<(Firer, u32)> = card
            .fire_points
            .iter()
            .filter_map(|id| scenario.map.fire_points.iter().find(|p| &p.id == id))
            .map(|p| {
                let firer = Firer {
                    at: Viewpoint::off_board(p.sight_from(), card.level),
                    side: self.side_of(unit),
                    artillery: true,
                };
                (firer, fire_math::off_board_range(p.at, p.range, hex))
            })
            .collect();
        v.sort_by_key(|&(f, d)| (d, f.at.hex));
        Ok(v)
    }

    /// Why `a` and `b` may not combine fire, citing 5.36 for a stack's
    /// pair and 6.14 for any other (B66).
    fn not_combined(&self, a: UnitId, b: UnitId) -> Refusal {
        let stacked = self.hex_of(a).is_some() && self.hex_of(a) == self.hex_of(b);
        FireRefusal::NotCombined(
            self.unit_name(a),
            self.unit_name(b),
            if stacked { "5.36" } else { "6.14" },
        )
        .into()
    }

    /// Whether two units may combine fire (6.14, B66): one brigade, both
    /// formed infantry or both deployed artillery, stacked or adjacent.
    pub fn may_combine(&self, a: UnitId, b: UnitId) -> bool {
        let both = |f: Formation| self.formation(a) == f && self.formation(b) == f;
        let card = |u: UnitId| {
            self.battle
                .scenario
                .units
                .get(u.index())
                .and_then(|s| s.off_board.clone())
                .filter(|_| self.unit(u).place == Place::OffBoard)
        };
        let near = match (self.hex_of(a), self.hex_of(b)) {
            (Some(x), Some(y)) => x == y || x.is_neighbour(y),
            // 9.4, B66: batteries on one card may combine.
            _ => card(a).is_some() && card(a) == card(b),
        };
        self.brigade_of(a).is_some()
            && self.brigade_of(a) == self.brigade_of(b)
            && (both(Formation::Formed) || both(Formation::Deployed))
            && near
    }

    /// Declares a fire by `firers` at the units `targets` in `hex`: checks
    /// range and sight for each firer and counts dice, face, cap and
    /// saves (6.0-6.6, B64-B79). `moving` says the firers moved first.
    pub fn declare_fire(
        &self,
        firers: &[UnitId],
        hex: Hex,
        targets: &[UnitId],
        kind: FireType,
    ) -> Result<FireAttack, Refusal> {
        self.declare_fire_along(firers, hex, targets, kind, None)
    }

    /// [`BrothersAtWar::declare_fire`] along the side of the line the
    /// firer named, if he named one (6.32, B24).
    pub fn declare_fire_along(
        &self,
        firers: &[UnitId],
        hex: Hex,
        targets: &[UnitId],
        kind: FireType,
        side: Option<LineSide>,
    ) -> Result<FireAttack, Refusal> {
        match self.declare_fire_traced(firers, hex, targets, kind, true, side, None) {
            // B29: the attack goes to the shielding skirmisher instead, its
            // line traced without zones; if it may not be fired on either,
            // neither may the unit it covers.
            Err(Refusal::Fire(FireRefusal::Shielded { what, skirmisher })) => {
                let covering = self.enemies_at(skirmisher, self.side_of(firers[0]));
                self.declare_fire_traced(firers, skirmisher, &covering, kind, false, None, None)
                    .map_err(|_| FireRefusal::Shielded { what, skirmisher }.into())
            }
            other => other,
        }
    }

    /// [`BrothersAtWar::declare_fire`], its lines traced with skirmish
    /// zones or without them (B29's second line); at an off-board battery
    /// through one of its fire points when `battery` is given (9.43, B147:
    /// `hex` is then the fire point's hex).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_fire_traced(
        &self,
        firers: &[UnitId],
        hex: Hex,
        targets: &[UnitId],
        kind: FireType,
        zones: bool,
        named: Option<LineSide>,
        battery: Option<&BatteryAim>,
    ) -> Result<FireAttack, Refusal> {
        let enemy = self.side_of(firers[0]).other();
        if targets.is_empty() || targets.iter().any(|&t| self.side_of(t) != enemy) {
            return Err(FireRefusal::NoEnemy(hex).into());
        }
        if let [a, b] = firers {
            if !self.may_combine(*a, *b) {
                return Err(self.not_combined(*a, *b));
            }
        }
        let artillery = firers
            .iter()
            .any(|&u| self.kind_of(u) == UnitKind::Artillery);
        let skirmish = firers
            .iter()
            .any(|&u| self.kind_of(u) == UnitKind::Skirmisher);
        let only_skirmishers = targets
            .iter()
            .all(|&t| self.kind_of(t) == UnitKind::Skirmisher);
        if artillery && only_skirmishers {
            return Err(FireRefusal::ArtilleryAtSkirmisher.into());
        }
        let fire_kind = match kind {
            FireType::Standing => FireKind::Standing,
            FireType::Moving => FireKind::Moving,
            FireType::Opportunity => FireKind::Opportunity,
            FireType::PointBlank => FireKind::PointBlank,
        };
        let mode = FireMode {
            kind: fire_kind,
            skirmisher: skirmish,
            off_board: firers
                .iter()
                .any(|&u| self.unit(u).place == Place::OffBoard),
        };
        let mut target = self.target_at(hex, targets);
        // 9.431: sight to the map edge of the battery's fire point, at its
        // card's level; no skirmish zone shields it.
        if let Some(b) = battery {
            target.at = Viewpoint::off_board(b.edge, b.level);
            target.brigade = None;
        }
        // 9.431, B113: range counts on to the fire point's number.
        let beyond = battery.map_or(0, |b| u32::from(b.number));
        if !zones {
            // Nothing for a zone to shield (6.361 names only these two).
            target.brigade = None;
            target.artillery = false;
        }
        let map = &self.battle.map;
        let saves = &self.battle.scenario.saves;
        let mut dice = 0u8;
        let mut penalty = 0u8;
        let mut extreme = false;
        let mut range = 0;
        let mut chosen = None;
        let mut segments: Vec<(u8, u8)> = Vec::new();
        let mut bonus = 0u8;
        for &u in firers {
            match self.kind_of(u) {
                // B116, 9.2: remnants fire only in reaction.
                UnitKind::Remnant if matches!(kind, FireType::Standing | FireType::Moving) => {
                    return Err(FireRefusal::Remnant.into())
                }
                UnitKind::Artillery if self.formation(u) != Formation::Deployed => {
                    return Err(FireRefusal::Limbered.into())
                }
                _ => {}
            }
            // A unit on the map fires from its hex; an off-board battery
            // from the nearest of its card's fire points that reaches and
            // sees (9.41, 9.42, B112).
            let mut found = None;
            let mut first_error = None;
            for (firer, d) in self.stations(u, hex)? {
                let d = d.saturating_add(beyond);
                let r = match reach(self.shooter(u), fire_kind, d) {
                    Ok(r) => r,
                    Err(e) => {
                        first_error.get_or_insert(Refusal::from(FireRefusal::OutOfRange {
                            what: e.to_string(),
                            rule: e.rule,
                        }));
                        continue;
                    }
                };
                let sides = sight::check(map, self, &firer, &target);
                let pick = match named {
                    None => side_for_fire(map, self, saves, &firer, &target, &sides, mode),
                    // B24: the side named, if it is open.
                    Some(named) => sides.get(named).outcome.as_ref().ok().map(|_| {
                        let pass = fire_math::pass_through(map, self, &firer, &target, named, mode);
                        (named, pass)
                    }),
                };
                if let (Some(named), None) = (named, &pick) {
                    let why = sides.get(named).outcome.clone().err();
                    // 6.32: a line along hexsides is judged by the side
                    // named; the refusal cites the rule of the sides.
                    if sides.split() {
                        first_error.get_or_insert(Refusal::from(FireRefusal::NoSight {
                            what: format!(
                                "the {} side of the line: {}",
                                if named == LineSide::Left {
                                    "left"
                                } else {
                                    "right"
                                },
                                why.map_or("blocked".to_string(), |b| b.to_string())
                            ),
                            rule: "6.32",
                        }));
                        continue;
                    }
                }
                match pick {
                    Some((side, pass)) => {
                        found = Some((firer, d, r, sides, side, pass));
                        break;
                    }
                    None => {
                        let why = sight::best(map, saves, &firer, &target, &sides)
                            .outcome
                            .clone()
                            .err();
                        let what = why.map_or("blocked".to_string(), |b| b.to_string());
                        first_error.get_or_insert(Refusal::from(match why {
                            Some(sight::Blocked::SkirmishZone { skirmisher }) => {
                                FireRefusal::Shielded { what, skirmisher }
                            }
                            _ => FireRefusal::NoSight {
                                what,
                                rule: why.map_or("6.3", |b| b.rule()),
                            },
                        }));
                    }
                }
            }
            let Some((firer, d, r, sides, side, pass)) = found else {
                return Err(first_error.unwrap_or(Refusal::NotOnMap(self.unit_name(u))));
            };
            // 6.14: the firer chooses either hex for pass-through; the first
            // named decides, its bonus counted once.
            // B112: no pass-through at an off-board battery.
            let pass = if chosen.is_none() && battery.is_none() {
                pass
            } else {
                Default::default()
            };
            bonus = bonus.max(pass.firepower_bonus);
            let own = fire_math::firepower(self.firepower(u), r, pass);
            dice = dice.saturating_add(own);
            segments.push((own, ToHit::modified(r.to_hit_penalty, 0).face()));
            penalty = penalty.max(r.to_hit_penalty);
            extreme |= r.one_hit_at_most;
            if d >= range {
                range = d;
            }
            if chosen.is_none() {
                let trace = if side == sides.left.side {
                    &sides.left
                } else {
                    &sides.right
                };
                chosen = trace.outcome.clone().ok().map(|open| (firer, open));
            }
        }
        let Some((firer, open)) = chosen else {
            return Err(FireRefusal::NoSight {
                what: "blocked".to_string(),
                rule: "6.3",
            }
            .into());
        };
        let facts = SaveFacts {
            moving_fire: kind == FireType::Moving,
            skirmish_fire: skirmish,
            range,
            loose_or_disrupted: self.loose_or_disrupted(targets),
            target_skirmisher: only_skirmishers,
            off_board_card: battery.map(|b| b.saves),
            retreat: Default::default(),
        };
        let rolls = save_rolls(map, saves, &firer, &target, &open, &facts);
        let cap = if skirmish {
            Attack::SkirmishFire
        } else if extreme {
            Attack::ExtremeRange
        } else {
            Attack::Fire
        }
        .max_hits();
        Ok(FireAttack {
            firers: firers.to_vec(),
            target: hex,
            targets: targets.to_vec(),
            kind,
            dice: dice.min(MAX_DICE as u8),
            to_hit: ToHit::modified(penalty, 0).face(),
            cap: cap as u8,
            saves: rolls
                .into_iter()
                .map(|(factor, n)| self.save_line(factor, n))
                .collect(),
            retreat_saves: 0,
            successes: 0,
            saved: 0,
            retreating: false,
            stage: Stage::Dice,
            opfire_after: false,
            path: Vec::new(),
            segments: bounded(&segments),
            risky: None,
            pass_through: bonus,
            range: u8::try_from(range).unwrap_or(u8::MAX),
        })
    }

    /// B79: the hex is Disrupted, or every unit in it is loose.
    fn loose_or_disrupted(&self, targets: &[UnitId]) -> bool {
        targets.iter().any(|&t| self.unit(t).disrupted)
            || targets.iter().all(|&t| {
                matches!(
                    self.formation(t),
                    Formation::Unformed
                        | Formation::Dismounted
                        | Formation::OnFoot
                        | Formation::MountedSkirmisher
                )
            })
    }

    fn save_line(&self, factor: SaveFactor, rolls: u8) -> SaveLine {
        let map = &self.battle.map;
        let feature = |f: sight::Feature| match f {
            sight::Feature::Terrain(t) => map.terrain_name(t).to_string(),
            sight::Feature::Hexside(h) => map.hexside_name(h).to_string(),
        };
        let why = match factor {
            SaveFactor::MovingFire => "moving fire".to_string(),
            // One roll a hex between: the words count them (`1 hex between`).
            SaveFactor::HexesBetween if rolls == 1 => "hex between".to_string(),
            SaveFactor::HexesBetween => "hexes between".to_string(),
            SaveFactor::Formation => "loose formation or Disrupted".to_string(),
            SaveFactor::Hindrance(f) => format!("hindrance: {}", feature(f)),
            SaveFactor::Cover(f) => format!("cover: {}", feature(f)),
            SaveFactor::HeavyCover(f) => format!("heavy cover: {}", feature(f)),
            SaveFactor::Elevation => "different levels".to_string(),
            SaveFactor::SkirmisherInBuilding => "skirmisher in a building".to_string(),
            SaveFactor::Retreat => "retreat".to_string(),
            SaveFactor::LongRetreat => "long retreat".to_string(),
            SaveFactor::OffBoardCard => "off-board card".to_string(),
        };
        SaveLine {
            why,
            rule: factor.rule().to_string(),
            rolls,
        }
    }

    /// A unit order to fire (5.24, 6.11, 6.14, B64, B66): the active unit
    /// or stack, or a unit with an adjacent partner of its brigade that has
    /// not activated yet.
    pub fn fire_order(
        &mut self,
        units: &[UnitId],
        hex: Hex,
        side: Option<LineSide>,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        self.fire_aimed(units, Aim::Hex(hex, side), events)
    }

    /// [`BrothersAtWar::fire_order`] at a hex or at an off-board battery
    /// (9.43, B147).
    pub(super) fn fire_aimed(
        &mut self,
        units: &[UnitId],
        aim: Aim,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        if units.iter().all(|&u| self.unit(u).place == Place::OffBoard) {
            return self.off_board_fire(units, aim, events);
        }
        let (actors, partner) = match units {
            [a, b] if self.unit(*a).place != self.unit(*b).place => (vec![*a], Some(*b)),
            _ => (units.to_vec(), None),
        };
        self.activate(&actors, events)?;
        self.check_whole_group(&actors)?;
        let g = self
            .group()
            .cloned()
            .ok_or_else(|| Refusal::NotActive(self.unit_name(actors[0])))?;
        // 5.32: firing ends the activation, so only where it may end.
        if let Some(h) = self.hex_of(g.units[0]) {
            if !self.can_end(&g.units, h) {
                return Err(self.cannot_end(&g.units, h));
            }
        }
        let mut firers = g.units.clone();
        if let Some(p) = partner {
            let a = self.now.activation.as_ref();
            let name = self.unit_name(p);
            if self.brigade_of(p) != a.map(|a| a.brigade) {
                return Err(Refusal::NotOfBrigade(name));
            }
            if let Some(gone) = self.gone(p) {
                return Err(gone);
            }
            if a.is_some_and(|a| a.acted.contains(&p)) {
                return Err(Refusal::AlreadyActed(name));
            }
            if self.unit(p).finished {
                return Err(Refusal::Finished(name));
            }
            if self.formation(p) != Formation::Deployed && self.rating(p) < FIRE_COST {
                return Err(Refusal::NoPoints {
                    need: FIRE_COST,
                    left: self.rating(p),
                    rule: "5.24",
                });
            }
            firers.push(p);
        }
        if firers.iter().any(|&u| self.unit(u).disrupted) {
            return Err(Refusal::DisruptedOnlyMoves);
        }
        // 5.37, B44: no more fire comes from a hex with a Finished marker.
        for &u in &firers {
            if let Some(h) = self.hex_of(u) {
                let side = self.side_of(u);
                if self
                    .units_at(h)
                    .iter()
                    .any(|&o| o != u && self.side_of(o) == side && self.unit(o).finished)
                {
                    return Err(FireRefusal::FinishedHex(h).into());
                }
            }
        }
        if let Some(b) = self
            .brigade_of(firers[0])
            .filter(|&b| self.fire_forbidden(b))
        {
            return Err(Refusal::FireForbidden(self.brigade_name(b)));
        }
        // 5.36: a stack's pair that may not combine is refused as such,
        // whatever its points.
        if let [a, b] = firers[..] {
            if !self.may_combine(a, b) {
                return Err(self.not_combined(a, b));
            }
        }
        // B56: artillery deployed since the activation began fires free.
        let free = g.spent == 0
            && g.units
                .iter()
                .all(|&u| self.formation(u) == Formation::Deployed);
        let left = self
            .allowance(&g.units, g.road_march)
            .saturating_sub(g.spent);
        if !free && left < FIRE_COST {
            return Err(Refusal::NoPoints {
                need: FIRE_COST,
                left,
                rule: "5.24",
            });
        }
        let kind = if g.moved {
            FireType::Moving
        } else {
            FireType::Standing
        };
        let mut attack = self.declare_aimed(&firers, aim, kind)?;
        let hex = match aim {
            Aim::Hex(hex, _) => hex,
            Aim::Battery(_) => attack.target,
        };
        let shielded = (attack.target != hex).then_some(attack.target);
        if let Some((u, card)) = self.card_fire(&firers) {
            // B125: the card's dice come last in the roll (B1), at the
            // attack's face; only within the card's range.
            let (dice, risk, range) = self.card_fire_terms(card);
            let from = self.hex_of(u).unwrap_or(hex);
            if let Some(r) = range.filter(|&r| from.distance(hex) > r) {
                return Err(Refusal::CardTarget {
                    card,
                    name: self
                        .card_entry(card)
                        .map(|c| c.name.clone())
                        .unwrap_or_default(),
                    why: format!("at {hex}: its extra dice reach {r} hexes; fire at a nearer hex"),
                });
            }
            let room = (MAX_DICE as u8).saturating_sub(attack.dice);
            let dice = dice.min(room);
            attack.dice += dice;
            if !attack.segments.is_empty() {
                attack.segments.push((dice, attack.to_hit));
            }
            attack.risky = Some((u, card, dice, risk));
            self.now
                .card_effects
                .retain(|e| *e != CardEffect::Fire(u, card));
        }
        // B128: a fire-then-assault card keeps the firer active, to
        // assault the hex it fires at with the points it has left.
        let charge = self.charge_waiting(&g.units);
        if let Some((u, card)) = charge {
            let spent = g.spent.saturating_add(if free { 0 } else { FIRE_COST });
            if let Err(why) = self.may_charge(&g.units, attack.target, spent) {
                return Err(Refusal::CardTarget {
                    card,
                    name: self
                        .card_entry(card)
                        .map(|c| c.name.clone())
                        .unwrap_or_default(),
                    why: format!(
                        "with this fire: {why}; the unit must be able to assault the hex it fires at (B128)"
                    ),
                });
            }
            self.now.card_effects.retain(
                |e| !matches!(e, CardEffect::FireThenAssault(x, c) if *x == u && *c == card),
            );
            self.now
                .card_effects
                .push(CardEffect::MustAssault(u, attack.target, card));
        }
        if let Some(a) = self.now.activation.as_mut() {
            if let Some(p) = partner {
                a.acted.push(p);
            }
            if let Some(g) = a.group.as_mut() {
                g.spent = g.spent.saturating_add(if free { 0 } else { FIRE_COST });
            }
        }
        if charge.is_none() {
            self.end_group(true, events);
        }
        if let Some(skirmisher) = shielded {
            events.push(Event::Combat(CombatEvent::Shielded {
                aimed: hex,
                skirmisher,
            }));
        }
        self.open_fire(attack, events);
        if charge.is_some() && self.charge_due().is_some() {
            for &u in &g.units {
                self.now.units[u.index()].finished = false;
            }
            self.settle_charge(events);
        }
        Ok(())
    }

    /// Hexes worth trying as targets for these units: enemy hexes within
    /// the longest range any unit has (6.2).
    pub fn fire_targets(&self, units: &[UnitId]) -> Vec<Hex> {
        let Some(&first) = units.first() else {
            return Vec::new();
        };
        let reach = units
            .iter()
            .map(|&u| fire_math::max_range(self.shooter(u), FireKind::Standing))
            .max()
            .unwrap_or(0);
        let enemy = self.side_of(first).other();
        let within = |h: Hex| {
            self.stations(first, h)
                .is_ok_and(|v| v.iter().any(|&(_, d)| d <= reach))
        };
        let mut hexes: Vec<Hex> = self
            .units_of(enemy)
            .filter_map(|e| self.hex_of(e))
            .filter(|&h| within(h))
            .collect();
        hexes.sort();
        hexes.dedup();
        hexes
    }

    /// Off-board batteries of the activating brigade fire (9.4, B112):
    /// they never move, so firing is their whole activation, free as for
    /// any battery that began it deployed (B56).
    fn off_board_fire(
        &mut self,
        units: &[UnitId],
        aim: Aim,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let brigade = self.now.activation.as_ref().map(|a| a.brigade);
        for &u in units {
            let name = self.unit_name(u);
            if self.brigade_of(u) != brigade {
                return Err(Refusal::NotOfBrigade(name));
            }
            if self
                .now
                .activation
                .as_ref()
                .is_some_and(|a| a.acted.contains(&u))
            {
                return Err(Refusal::AlreadyActed(name));
            }
            if self.unit(u).finished {
                return Err(Refusal::Finished(name));
            }
            if self.unit(u).disrupted {
                return Err(Refusal::DisruptedOnlyMoves);
            }
        }
        if self.group().is_some() {
            if !self.group_may_end() {
                let g = self.group().map(|g| g.units[0]).unwrap_or(units[0]);
                return Err(Refusal::ActiveCannotEnd(self.unit_name(g)));
            }
            self.end_group(true, events);
        }
        let attack = self.declare_aimed(units, aim, FireType::Standing)?;
        if let Some(a) = self.now.activation.as_mut() {
            a.acted.extend(units.iter().copied());
        }
        self.open_fire(attack, events);
        Ok(())
    }

    /// Keeps a declared attack: the firers are Finished (6.11, 6.12) and
    /// the dice wait for the chance seam.
    pub fn open_fire(&mut self, mut attack: FireAttack, events: &mut Vec<Event>) {
        // B144: a skirmisher's card may raise its cap as it fires.
        if let [sk] = attack.firers[..] {
            if self.kind_of(sk) == UnitKind::Skirmisher {
                attack.cap = self.card_skirmisher_cap(sk, attack.cap, events);
            }
        }
        for &u in &attack.firers {
            // B72: point blank fire leaves a Disrupted unit as it was.
            if attack.kind != FireType::PointBlank || !self.unit(u).disrupted {
                self.now.units[u.index()].finished = true;
                // 6.141 D, B44: the marker is the hex's, so a stack one of
                // whose units fired is Finished whole.
                if let Some(h) = self.hex_of(u) {
                    let side = self.side_of(u);
                    for o in self.units_at(h) {
                        if self.side_of(o) == side && !self.unit(o).disrupted {
                            self.now.units[o.index()].finished = true;
                        }
                    }
                }
            }
        }
        // 3.151: fire at a unit of an uncommitted brigade commits it.
        for &t in &attack.targets {
            if let Some(b) = self.brigade_of(t) {
                let s = &mut self.now.brigades[b.index()];
                if !s.committed && !s.committing {
                    s.committing = true;
                    events.push(Event::Committed {
                        brigade: self.brigade_name(b),
                    });
                }
            }
        }
        events.push(Event::Combat(CombatEvent::Fire {
            firers: attack.firers.iter().map(|&u| self.unit_name(u)).collect(),
            target: attack.target,
            kind: attack.kind,
            dice: attack.dice,
            to_hit: attack.to_hit,
            cap: attack.cap,
            pass_through: attack.pass_through,
            range: attack.range,
        }));
        if attack.dice == 0 {
            return;
        }
        // B11: the defender's cards for a targeted unit, before the dice.
        if self.card_ends_fire(&attack, events) {
            let mut attack = attack;
            attack.successes = 0;
            self.conclude_fire(attack, events);
            return;
        }
        self.now.fire = Some(attack);
    }
}
