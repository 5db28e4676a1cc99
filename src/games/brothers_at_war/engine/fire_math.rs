//! The arithmetic of fire: range and its limits (1.23, 6.2, 6.12 d,
//! 6.134, 9.41), artillery range bands (6.16), pass-through fire (6.4),
//! the dice (1.7), the most hits an attack scores (6.5) and the save
//! rolls a target makes (6.6, 6.132, 9.433).
//!
//! Pure functions of small inputs; whether the line is open is
//! [`super::sight`]'s, and the state supplies what it knows of units.

use std::fmt;

use crate::games::brothers_at_war::core::line::{self, LineSide, Sides};
use crate::games::brothers_at_war::core::map::BattleMap;
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::engine::sight::{
    self, entry_hexside, Feature, Firer, Occupancy, Open, Target, Trace,
};
use crate::games::brothers_at_war::scenario::model::{Cover, Saves, Side, Sight};

/// What limits how far a unit fires (6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shooter {
    /// Artillery, with its printed range (1.23).
    Artillery {
        /// The printed range.
        printed: u8,
    },
    /// A skirmisher with the sharpshooter symbol (6.134).
    Sharpshooter,
    /// Every other unit.
    Other,
}

/// How fire may be conducted (6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireKind {
    /// Standing fire (6.11).
    Standing,
    /// Moving fire: the unit moved before firing (6.11).
    Moving,
    /// Opportunity fire, out of turn (6.12).
    Opportunity,
    /// Point blank fire (6.15).
    PointBlank,
}

/// How a fire is made, for the rules that depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FireMode {
    /// Standing, moving, opportunity or point blank.
    pub kind: FireKind,
    /// Made by a skirmisher (6.13).
    pub skirmisher: bool,
    /// Made by off-board artillery, which has no hex of its own to
    /// extend a line from (B75, B112).
    pub off_board: bool,
}

/// The greatest distance fire of this shooter and kind may reach.
pub fn max_range(shooter: Shooter, kind: FireKind) -> u32 {
    match shooter {
        Shooter::Artillery { printed } => {
            let full = 3 * u32::from(printed);
            // 6.12 d, B69: artillery's opportunity fire reaches 9 hexes at
            // most (point blank fire is at an adjacent hex, B72).
            if kind == FireKind::Opportunity {
                full.min(9)
            } else {
                full
            }
        }
        Shooter::Sharpshooter => 4,
        Shooter::Other => 3,
    }
}

/// Why a target is out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    /// The range to the target.
    pub range: u32,
    /// The most this fire reaches.
    pub limit: u32,
    /// The rule that sets the limit: 6.2, or 6.12 d for artillery's
    /// opportunity fire.
    pub rule: &'static str,
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the target is {} hexes away, beyond this fire's {} ({})",
            self.range, self.limit, self.rule
        )
    }
}

/// What the range does to a fire within it (6.16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Reach {
    /// Extra dice: artillery at close range, 0-3 hexes.
    pub firepower_bonus: u8,
    /// How much harder each die hits: artillery beyond its printed range.
    pub to_hit_penalty: u8,
    /// At most one hit: artillery beyond twice its printed range.
    pub one_hit_at_most: bool,
}

/// The effect of `range` on fire of this shooter and kind, or why it
/// cannot reach. The bands are judged each on its own (B67), so a
/// battery of printed range 2 firing 3 hexes gains the close bonus and
/// suffers the long range penalty.
pub fn reach(shooter: Shooter, kind: FireKind, range: u32) -> Result<Reach, OutOfRange> {
    let limit = max_range(shooter, kind);
    if range > limit {
        let capped = limit < max_range(shooter, FireKind::Standing);
        let rule = if capped { "6.12 d" } else { "6.2" };
        return Err(OutOfRange { range, limit, rule });
    }
    let Shooter::Artillery { printed } = shooter else {
        return Ok(Reach::default());
    };
    let printed = u32::from(printed);
    Ok(Reach {
        firepower_bonus: u8::from(range <= 3),
        to_hit_penalty: u8::from(range > printed),
        one_hit_at_most: range > 2 * printed,
    })
}

/// The range from off-board artillery to a hex on the map, or back (9.41,
/// 9.431): the hexes from the fire point (not counted) to the hex
/// (counted), plus the number printed beside the fire point.
pub fn off_board_range(fire_point: Hex, number: u8, hex: Hex) -> u32 {
    fire_point.distance(hex) + u32::from(number)
}

/// The lowest die face that hits (1.7): 5 unless modified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToHit(u8);

impl ToHit {
    /// A 5 or 6 hits (1.21, 1.7).
    pub const BASE: ToHit = ToHit(5);

    /// The number after penalties (each one makes a hit one face harder,
    /// 1.72) and bonuses. Above 6 nothing hits; below 1 everything does.
    pub fn modified(penalty: u8, bonus: u8) -> ToHit {
        let face = i16::from(ToHit::BASE.0) + i16::from(penalty) - i16::from(bonus);
        ToHit(face.clamp(1, 7) as u8)
    }

    /// The lowest face that succeeds (7 when none can).
    pub fn face(self) -> u8 {
        self.0
    }

    /// How many of the dice succeed.
    pub fn successes(self, dice: &[u8]) -> u32 {
        dice.iter().filter(|&&d| d >= self.0).count() as u32
    }
}

/// The kinds of attack whose hits are capped (6.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attack {
    /// An assault: 4 hits at most.
    Assault,
    /// A fire attack: 3.
    Fire,
    /// A skirmisher's fire (6.131): 1.
    SkirmishFire,
    /// Artillery fire at extreme range (6.16): 1.
    ExtremeRange,
}

impl Attack {
    /// The most hits it scores (6.5).
    pub fn max_hits(self) -> u32 {
        match self {
            Attack::Assault => 4,
            Attack::Fire => 3,
            Attack::SkirmishFire | Attack::ExtremeRange => 1,
        }
    }
}

/// The hits that stand: successes less saves, never more than the
/// attack's maximum: the cap applies to the hits left after saves (B68,
/// as 9.421 says of extreme range).
pub fn hits(successes: u32, saves: u32, attack: Attack) -> u32 {
    successes.saturating_sub(saves).min(attack.max_hits())
}

/// Extra dice from pass-through fire (6.4, 6.41), and the hex behind that
/// gave them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PassThrough {
    /// The hex directly behind the target on the side traced, if one
    /// holds enemy units that count.
    pub behind: Option<Hex>,
    /// +1 for pass-through fire, +1 more when both hexes hold stacks.
    pub firepower_bonus: u8,
}

/// Pass-through fire on the side of the line the firer traces (6.4-6.43):
/// standing or moving fire only (6.12 c), never by skirmishers (6.133),
/// from a target hex and into a hex behind it both holding enemy units
/// other than artillery and skirmishers (6.42), at the target's level, the line through the
/// target's hex not blocked by an obstacle (6.43), never from off-board
/// artillery (B75). Range to the hex behind does not matter (6.4).
pub fn pass_through(
    map: &BattleMap,
    units: &impl Occupancy,
    firer: &Firer,
    target: &Target,
    side: LineSide,
    mode: FireMode,
) -> PassThrough {
    let none = PassThrough::default();
    if mode.skirmisher
        || mode.off_board
        || !matches!(mode.kind, FireKind::Standing | FireKind::Moving)
    {
        return none;
    }
    let Some(behind) = *line::behind(firer.at.hex, target.at.hex).get(side) else {
        return none;
    };
    let enemy = other(firer.side);
    let second = units.pass_through_units(behind, enemy);
    if !map.contains(behind) || second == 0 || map.level(behind) != target.at.level {
        return none;
    }
    // 6.42, B75: artillery and skirmishers are ignored, in the target's
    // hex as behind it: a hex of them alone starts no pass-through.
    if units.pass_through_units(target.at.hex, enemy) == 0 {
        return none;
    }
    let obstacle = |sight: Sight| sight == Sight::Obstacle;
    // 6.43: the target's hex is now a hex between; its terrain (woods) or
    // an obstacle on the hexside beyond it stops the line.
    if obstacle(map.terrain_of(target.at.hex).sight)
        || map
            .hexside(target.at.hex, behind)
            .iter()
            .any(|id| obstacle(map.hexside_kinds()[usize::from(id.0)].sight))
    {
        return none;
    }
    let massed = units.pass_through_units(target.at.hex, enemy) >= 2 && second >= 2;
    PassThrough {
        behind: Some(behind),
        firepower_bonus: 1 + u8::from(massed),
    }
}

/// The side of a sight line the engine traces for a firer who named none
/// (6.32, 6.4, B24): an open side giving the fewest save rolls by the
/// line, then the one giving pass-through fire (6.431 B), then the left.
/// `None` when neither side is open.
pub fn side_for_fire(
    map: &BattleMap,
    units: &impl Occupancy,
    saves: &Saves,
    firer: &Firer,
    target: &Target,
    sides: &Sides<Trace>,
    mode: FireMode,
) -> Option<(LineSide, PassThrough)> {
    [&sides.left, &sides.right]
        .into_iter()
        .filter_map(|trace| {
            let open = trace.outcome.as_ref().ok()?;
            let pass = pass_through(map, units, firer, target, trace.side, mode);
            let cost = sight::line_saves(map, saves, firer, target, open);
            Some((trace.side, pass, cost))
        })
        .min_by_key(|(_, pass, cost)| (*cost, std::cmp::Reverse(pass.firepower_bonus)))
        .map(|(side, pass, _)| (side, pass))
}

fn other(side: Side) -> Side {
    match side {
        Side::Union => Side::Confederacy,
        Side::Confederacy => Side::Union,
    }
}

/// The dice a fire rolls: the firing units' firepower, the close range
/// bonus, the pass-through bonus (1.71, 6.16, 6.4).
pub fn firepower(base: u8, reach: Reach, pass: PassThrough) -> u8 {
    base.saturating_add(reach.firepower_bonus)
        .saturating_add(pass.firepower_bonus)
}

/// What gives a target a save roll (6.6), each citing its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveFactor {
    /// The attacker moved before firing (6.6 item 1).
    MovingFire,
    /// Hexes between attacker and target (6.6 item 2).
    HexesBetween,
    /// Unformed, dismounted, a skirmisher or Disrupted (6.6 item 3;
    /// for off-board artillery, Disrupted, 9.433).
    Formation,
    /// A hindrance type crossed (6.33).
    Hindrance(Feature),
    /// A type of cover in the target's hex (6.6 item 4).
    Cover(Feature),
    /// A type of heavy cover in the target's hex (6.6 item 4).
    HeavyCover(Feature),
    /// Firer and target at different levels (6.6 item 4; for off-board
    /// artillery, only when it is the higher, 9.433).
    Elevation,
    /// A skirmisher in a building (6.6 item 4).
    SkirmisherInBuilding,
    /// The target chose to retreat (6.7).
    Retreat,
    /// Cavalry or horse artillery chose to retreat four hexes (6.72).
    LongRetreat,
    /// An off-board artillery card's own saves (9.433).
    OffBoardCard,
}

impl SaveFactor {
    /// The rule that grants it.
    pub fn rule(self) -> &'static str {
        match self {
            SaveFactor::Hindrance(_) => "6.33",
            SaveFactor::Retreat => "6.7",
            SaveFactor::LongRetreat => "6.72",
            SaveFactor::OffBoardCard => "9.433",
            _ => "6.6",
        }
    }
}

/// A target's choice to retreat for a save (6.7, 6.72).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Retreat {
    /// It stands.
    #[default]
    No,
    /// Two hexes: one more save.
    Two,
    /// Four hexes, cavalry and horse artillery only: two more.
    Four,
}

/// What the save rolls depend on besides the map and the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SaveFacts {
    /// The attacker moved before firing (6.11).
    pub moving_fire: bool,
    /// The attacker is a skirmisher: only moving fire and retreat count
    /// (6.132).
    pub skirmish_fire: bool,
    /// The range (for off-board artillery, counted to its fire point,
    /// 9.41).
    pub range: u32,
    /// The target is unformed infantry, dismounted cavalry, a skirmisher
    /// or Disrupted (6.6 item 3).
    pub loose_or_disrupted: bool,
    /// The target is a skirmisher (6.6 item 4: in a building).
    pub target_skirmisher: bool,
    /// The target is off-board artillery, with its card's extra saves
    /// (9.433).
    pub off_board_card: Option<u8>,
    /// The target's choice to retreat.
    pub retreat: Retreat,
}

/// The save rolls a target makes against one fire (6.6), as (factor,
/// rolls), leaving out factors that give none. `open` is the side of the
/// line the firer traced.
pub fn save_rolls(
    map: &BattleMap,
    saves: &Saves,
    firer: &Firer,
    target: &Target,
    open: &Open,
    facts: &SaveFacts,
) -> Vec<(SaveFactor, u8)> {
    let mut rolls = Vec::new();
    let mut add = |factor: SaveFactor, count: u8| {
        if count > 0 {
            rolls.push((factor, count));
        }
    };
    if let Some(card) = facts.off_board_card {
        off_board_target(saves, firer, target, facts, card, &mut add);
        return rolls;
    }
    if facts.moving_fire {
        add(SaveFactor::MovingFire, saves.moving_fire);
    }
    // 6.132, B74: against skirmisher fire only moving fire and retreat
    // count (and battle cards' saves, which the engine adds).
    if !facts.skirmish_fire {
        on_map_target(map, saves, firer, target, open, facts, &mut add);
    }
    match facts.retreat {
        Retreat::No => {}
        Retreat::Two => add(SaveFactor::Retreat, saves.retreat),
        Retreat::Four => add(SaveFactor::LongRetreat, saves.long_retreat),
    }
    rolls
}

/// 6.6 items 2 to 4 for a target on the map.
fn on_map_target(
    map: &BattleMap,
    saves: &Saves,
    firer: &Firer,
    target: &Target,
    open: &Open,
    facts: &SaveFacts,
    add: &mut impl FnMut(SaveFactor, u8),
) {
    if !firer.artillery {
        let between = facts.range.saturating_sub(1).min(u32::from(u8::MAX)) as u8;
        add(
            SaveFactor::HexesBetween,
            between.saturating_mul(saves.per_hex_between),
        );
    }
    if facts.loose_or_disrupted {
        add(SaveFactor::Formation, saves.formation);
    }
    for &h in &open.hindrances {
        add(SaveFactor::Hindrance(h), saves.hindrance);
    }
    let terrain = map.terrain(target.at.hex);
    let mut cover = vec![(
        Feature::Terrain(terrain),
        map.terrain_of(target.at.hex).cover,
    )];
    let mut sides = entry_hexside(map, firer, target, open).to_vec();
    sides.sort();
    sides.dedup();
    cover.extend(sides.into_iter().map(|id| {
        (
            Feature::Hexside(id),
            map.hexside_kinds()[usize::from(id.0)].cover,
        )
    }));
    for (feature, kind) in cover {
        match kind {
            Cover::None => {}
            Cover::Cover => add(SaveFactor::Cover(feature), saves.cover),
            Cover::Heavy => add(SaveFactor::HeavyCover(feature), saves.heavy_cover),
        }
    }
    let (from, to) = (firer.at.level, target.at.level);
    // Artillery firing down gains no elevation save for its target.
    if from != to && !(firer.artillery && to < from) {
        add(SaveFactor::Elevation, saves.elevation);
    }
    if facts.target_skirmisher && map.terrain_of(target.at.hex).building {
        add(
            SaveFactor::SkirmisherInBuilding,
            saves.skirmisher_in_building,
        );
    }
}

/// 9.433, B114: off-board artillery fired upon saves for being Disrupted,
/// for standing higher than the firer, and its card's extra saves; no
/// others (the edge hex is not where it stands).
fn off_board_target(
    saves: &Saves,
    firer: &Firer,
    target: &Target,
    facts: &SaveFacts,
    card: u8,
    add: &mut impl FnMut(SaveFactor, u8),
) {
    if facts.loose_or_disrupted {
        add(SaveFactor::Formation, saves.formation);
    }
    if target.at.level > firer.at.level {
        add(SaveFactor::Elevation, saves.elevation);
    }
    add(SaveFactor::OffBoardCard, card);
}

/// The total of a list of save rolls.
pub fn total(rolls: &[(SaveFactor, u8)]) -> u32 {
    rolls.iter().map(|r| u32::from(r.1)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::brothers_at_war::engine::sight::tests::{
        battle_map, csa_at, firer, hex, open_map, target, union_at, Units,
    };
    use crate::games::brothers_at_war::engine::sight::{best, check, Viewpoint};

    fn mode(kind: FireKind, skirmisher: bool) -> FireMode {
        FireMode {
            kind,
            skirmisher,
            off_board: false,
        }
    }

    fn artillery(printed: u8) -> Shooter {
        Shooter::Artillery { printed }
    }

    #[test]
    fn range_limits_by_unit() {
        assert_eq!(max_range(Shooter::Other, FireKind::Standing), 3);
        assert_eq!(max_range(Shooter::Sharpshooter, FireKind::Moving), 4);
        assert_eq!(max_range(artillery(5), FireKind::Standing), 15);
        assert_eq!(max_range(artillery(5), FireKind::Opportunity), 9);
        assert_eq!(max_range(artillery(2), FireKind::Opportunity), 6);
        let refused = reach(Shooter::Other, FireKind::Standing, 4).unwrap_err();
        assert_eq!((refused.range, refused.limit, refused.rule), (4, 3, "6.2"));
        let capped = reach(artillery(5), FireKind::Opportunity, 10).unwrap_err();
        assert_eq!((capped.limit, capped.rule), (9, "6.12 d"));
        assert!(capped.to_string().ends_with("(6.12 d)"), "{capped}");
        assert!(reach(Shooter::Sharpshooter, FireKind::Standing, 4).is_ok());
        assert_eq!(
            reach(Shooter::Other, FireKind::Standing, 1),
            Ok(Reach::default())
        );
    }

    #[test]
    fn artillery_range_bands() {
        let at = |range| reach(artillery(4), FireKind::Standing, range).unwrap();
        assert_eq!(
            at(3),
            Reach {
                firepower_bonus: 1,
                ..Reach::default()
            }
        );
        assert_eq!(at(4), Reach::default());
        assert_eq!(at(5).to_hit_penalty, 1);
        assert!(!at(8).one_hit_at_most);
        assert!(at(9).one_hit_at_most && at(12).to_hit_penalty == 1);
        assert!(reach(artillery(4), FireKind::Standing, 13).is_err());
        assert!(reach(artillery(4), FireKind::Opportunity, 10).is_err());
    }

    #[test]
    fn dice_hit_on_five_and_six_unless_modified() {
        let dice = [1, 2, 3, 4, 5, 6, 6];
        assert_eq!(ToHit::BASE.successes(&dice), 3);
        assert_eq!(ToHit::modified(1, 0).successes(&dice), 2);
        assert_eq!(ToHit::modified(0, 1).successes(&dice), 4);
        assert_eq!(ToHit::modified(2, 0).successes(&dice), 0);
        assert_eq!(ToHit::modified(9, 0).face(), 7);
    }

    #[test]
    fn example_6_5_hits_are_capped() {
        // Two regiments of 5 combine and roll six successes: three hits.
        assert_eq!(hits(6, 0, Attack::Fire), 3);
        assert_eq!(hits(6, 0, Attack::Assault), 4);
        assert_eq!(hits(6, 0, Attack::SkirmishFire), 1);
        assert_eq!(hits(3, 1, Attack::Fire), 2);
        assert_eq!(hits(3, 3, Attack::ExtremeRange), 0);
        // B68: the cap is on hits left after saves.
        assert_eq!(hits(6, 2, Attack::Fire), 3);
    }

    /// 6.431: a Confederate battery of firepower 3 in 0408 on open ground.
    fn pass_case(units: &Units, at: &str, side: LineSide) -> (u8, PassThrough) {
        let map = open_map(8, 10);
        let f = firer(&map, "0408", true);
        let t = target(&map, at);
        let range = hex("0408").distance(hex(at));
        let r = reach(artillery(3), FireKind::Standing, range).unwrap();
        let pass = pass_through(&map, units, &f, &t, side, mode(FireKind::Standing, false));
        (firepower(3, r, pass), pass)
    }

    #[test]
    fn example_6_431_a_massed_pass_through() {
        let units = Units {
            standing: vec![(hex("0607"), Side::Union, 2), (hex("0706"), Side::Union, 2)],
            ..Units::default()
        };
        let (dice, pass) = pass_case(&units, "0607", LineSide::Left);
        assert_eq!(dice, 6);
        assert_eq!(pass.behind, Some(hex("0706")));
        // One unit in front: pass-through, not massed.
        let single = Units {
            standing: vec![union_at("0607"), (hex("0706"), Side::Union, 2)],
            ..Units::default()
        };
        assert_eq!(pass_case(&single, "0607", LineSide::Left).0, 5);
    }

    #[test]
    fn example_6_431_b_the_firer_picks_the_side_that_passes_through() {
        let units = Units {
            standing: vec![union_at("0506"), union_at("0606")],
            ..Units::default()
        };
        let map = open_map(8, 10);
        let sides = check(
            &map,
            &units,
            &firer(&map, "0408", true),
            &target(&map, "0506"),
        );
        assert!(sides.left.outcome.is_ok() && sides.right.outcome.is_ok());
        assert_eq!(pass_case(&units, "0506", LineSide::Right).0, 5);
        assert_eq!(pass_case(&units, "0506", LineSide::Left).0, 4);
        let (f, t) = (firer(&map, "0408", true), target(&map, "0506"));
        let pick = side_for_fire(
            &map,
            &units,
            &Saves::default(),
            &f,
            &t,
            &sides,
            mode(FireKind::Standing, false),
        );
        assert_eq!(pick.map(|p| p.0), Some(LineSide::Right));
        // With the Indiana regiment on the other side, the other side.
        let moved = Units {
            standing: vec![union_at("0506"), union_at("0505")],
            ..Units::default()
        };
        let sides = check(&map, &moved, &f, &t);
        let pick = side_for_fire(
            &map,
            &moved,
            &Saves::default(),
            &f,
            &t,
            &sides,
            mode(FireKind::Standing, false),
        );
        assert_eq!(
            pick.map(|p| (p.0, p.1.behind)),
            Some((LineSide::Left, Some(hex("0505"))))
        );
    }

    #[test]
    fn example_6_431_c_infantry_passes_through() {
        let map = open_map(8, 10);
        let units = Units {
            standing: vec![union_at("0506"), union_at("0606")],
            ..Units::default()
        };
        let f = firer(&map, "0307", false);
        let t = target(&map, "0506");
        let r = reach(Shooter::Other, FireKind::Standing, 2).unwrap();
        let pass = pass_through(
            &map,
            &units,
            &f,
            &t,
            LineSide::Left,
            mode(FireKind::Standing, false),
        );
        assert_eq!(firepower(2, r, pass), 3);
        // Not for opportunity fire, nor for a skirmisher.
        let opp = pass_through(
            &map,
            &units,
            &f,
            &t,
            LineSide::Left,
            mode(FireKind::Opportunity, false),
        );
        assert_eq!(opp.firepower_bonus, 0);
        let skirm = pass_through(
            &map,
            &units,
            &f,
            &t,
            LineSide::Left,
            mode(FireKind::Moving, true),
        );
        assert_eq!(skirm.firepower_bonus, 0);
        // Artillery or skirmishers alone behind do not count (the state
        // counts them as 0), nor do the firer's own units.
        let own = Units {
            standing: vec![union_at("0506"), csa_at("0606")],
            ..Units::default()
        };
        let none = pass_through(
            &map,
            &own,
            &f,
            &t,
            LineSide::Left,
            mode(FireKind::Standing, false),
        );
        assert_eq!(none, PassThrough::default());
    }

    #[test]
    fn pass_through_stops_at_woods_and_at_another_level() {
        let units = Units {
            standing: vec![union_at("0103"), union_at("0104")],
            ..Units::default()
        };
        let run = |terrain: &[&str], levels: &[&str]| {
            let map = battle_map(terrain, levels, &[]);
            let (f, t) = (firer(&map, "0101", false), target(&map, "0103"));
            pass_through(
                &map,
                &units,
                &f,
                &t,
                LineSide::Left,
                mode(FireKind::Standing, false),
            )
            .firepower_bonus
        };
        assert_eq!(run(&[".", ".", ".", "."], &[]), 1);
        assert_eq!(run(&[".", ".", "w", "."], &[]), 0);
        assert_eq!(run(&[".", ".", ".", "."], &["1", "1", "1", "2"]), 0);
    }

    #[test]
    fn example_6_341_figure_2_four_saves() {
        // A battery fires down a column across corn twice, a farm and an
        // orchard, over a fence between two of them, at a target behind
        // a fence: three hindrance types and one cover.
        let map = battle_map(
            &[".", "c", "c", "b", "o", ".", "."],
            &[],
            &["0103 0104 fence", "0106 0107 fence"],
        );
        let (f, t) = (firer(&map, "0101", true), target(&map, "0107"));
        let sides = check(&map, &Units::default(), &f, &t);
        let open = best(&map, &Saves::default(), &f, &t, &sides)
            .outcome
            .clone()
            .unwrap();
        let facts = SaveFacts {
            range: 6,
            ..SaveFacts::default()
        };
        let rolls = save_rolls(&map, &Saves::default(), &f, &t, &open, &facts);
        assert_eq!(total(&rolls), 4, "{rolls:?}");
        assert_eq!(
            rolls
                .iter()
                .filter(|r| matches!(r.0, SaveFactor::Hindrance(_)))
                .count(),
            3
        );
        assert!(rolls
            .iter()
            .any(|r| matches!(r.0, SaveFactor::Cover(Feature::Hexside(_)))));
    }

    fn rolls_for(
        map: &BattleMap,
        at: &str,
        to: &str,
        artillery: bool,
        facts: SaveFacts,
    ) -> Vec<(SaveFactor, u8)> {
        let (f, t) = (firer(map, at, artillery), target(map, to));
        let sides = check(map, &Units::default(), &f, &t);
        let open = best(map, &Saves::default(), &f, &t, &sides)
            .outcome
            .clone()
            .unwrap();
        save_rolls(map, &Saves::default(), &f, &t, &open, &facts)
    }

    #[test]
    fn infantry_fire_saves_by_factor() {
        // Target in woods behind a wall, a level above the firer, 3 hexes
        // away, unformed, the firer moved, and it retreats.
        let map = battle_map(
            &[".", ".", ".", "w"],
            &["1", "1", "1", "2"],
            &["0103 0104 wall"],
        );
        let facts = SaveFacts {
            moving_fire: true,
            range: 3,
            loose_or_disrupted: true,
            retreat: Retreat::Two,
            ..SaveFacts::default()
        };
        let rolls = rolls_for(&map, "0101", "0104", false, facts);
        let got: Vec<SaveFactor> = rolls.iter().map(|r| r.0).collect();
        assert_eq!(
            got[..3],
            [
                SaveFactor::MovingFire,
                SaveFactor::HexesBetween,
                SaveFactor::Formation
            ]
        );
        assert!(rolls.contains(&(SaveFactor::HexesBetween, 2)));
        assert!(rolls
            .iter()
            .any(|r| matches!(r, (SaveFactor::HeavyCover(_), 2))));
        assert!(rolls
            .iter()
            .any(|r| matches!(r, (SaveFactor::Cover(Feature::Terrain(_)), 1))));
        assert!(rolls.contains(&(SaveFactor::Elevation, 1)));
        assert!(rolls.contains(&(SaveFactor::Retreat, 1)));
        assert_eq!(total(&rolls), 1 + 2 + 1 + 2 + 1 + 1 + 1);
        // The same fire by a skirmisher: moving fire and retreat only.
        let skirmish = SaveFacts {
            skirmish_fire: true,
            ..facts
        };
        let rolls = rolls_for(&map, "0101", "0104", false, skirmish);
        assert_eq!(
            rolls,
            [(SaveFactor::MovingFire, 1), (SaveFactor::Retreat, 1)]
        );
    }

    #[test]
    fn adjacent_fire_ignores_hexside_cover_and_artillery_range_and_height() {
        let map = battle_map(&[".", "."], &["2", "1"], &["0101 0102 wall"]);
        let facts = SaveFacts {
            range: 1,
            retreat: Retreat::Four,
            ..SaveFacts::default()
        };
        let rolls = rolls_for(&map, "0101", "0102", true, facts);
        assert_eq!(rolls, [(SaveFactor::LongRetreat, 2)]);
        // Infantry firing down still gives the elevation save.
        let rolls = rolls_for(&map, "0101", "0102", false, facts);
        assert!(rolls.contains(&(SaveFactor::Elevation, 1)));
    }

    #[test]
    fn a_skirmisher_in_a_building_gains_a_save() {
        let map = battle_map(&[".", "b"], &[], &[]);
        let facts = SaveFacts {
            range: 1,
            loose_or_disrupted: true,
            target_skirmisher: true,
            ..SaveFacts::default()
        };
        let rolls = rolls_for(&map, "0101", "0102", false, facts);
        assert!(rolls.contains(&(SaveFactor::SkirmisherInBuilding, 1)));
        assert!(rolls.contains(&(SaveFactor::Formation, 1)));
    }

    /// 9.421 restated on a map of our own, 8 x 14: a level 4 off-board
    /// card's fire point is printed in 0716, beyond the south edge, with
    /// the number 24, and its sight starts from the edge hex 0714 (B112).
    /// A battery at level 3 in 0712 is behind a fence; 0713 is level 3
    /// too, the rest level 2.
    fn oba_map() -> BattleMap {
        let mut levels = vec!["22222222"; 14];
        levels[11] = "22222232"; // 0712
        levels[12] = "22222232"; // 0713
        battle_map(&[".".repeat(8).as_str(); 14], &levels, &["0712 0713 fence"])
    }

    const FIRE_POINT: &str = "0716";
    const EDGE: &str = "0714";

    #[test]
    fn example_9_421_one_off_board_fire() {
        let map = oba_map();
        // 4 hexes from the fire point, though 2 from the edge hex.
        let range = off_board_range(hex(FIRE_POINT), 24, hex("0712"));
        assert_eq!(range, 28);
        let f = Firer {
            at: Viewpoint::off_board(hex(EDGE), 4),
            side: Side::Union,
            artillery: true,
        };
        let t = target(&map, "0712");
        let sides = check(&map, &Units::default(), &f, &t);
        assert_eq!(sides.left.hexes, [hex("0713")]);
        let open = best(&map, &Saves::default(), &f, &t, &sides)
            .outcome
            .clone()
            .unwrap();
        let facts = SaveFacts {
            range,
            ..SaveFacts::default()
        };
        let rolls = save_rolls(&map, &Saves::default(), &f, &t, &open, &facts);
        assert_eq!(rolls.len(), 1, "only the fence: {rolls:?}");
        assert!(matches!(
            rolls[0],
            (SaveFactor::Cover(Feature::Hexside(_)), 1)
        ));
        let r = reach(artillery(10), FireKind::Standing, range).unwrap();
        assert_eq!((r.to_hit_penalty, r.one_hit_at_most), (1, true));
        assert_eq!(firepower(3, r, PassThrough::default()), 3);
        // Off-board fire never passes through (B75), where fire from the
        // same hex on the map would.
        let column = open_map(1, 5);
        let from_edge = Firer {
            at: Viewpoint::off_board(hex("0101"), 1),
            ..f
        };
        let t = target(&column, "0103");
        let behind = Units {
            standing: vec![csa_at("0103"), csa_at("0104")],
            ..Units::default()
        };
        let bonus = |mode: FireMode| {
            pass_through(&column, &behind, &from_edge, &t, LineSide::Left, mode).firepower_bonus
        };
        let on_map = mode(FireKind::Standing, false);
        assert_eq!(bonus(on_map), 1);
        assert_eq!(
            bonus(FireMode {
                off_board: true,
                ..on_map
            }),
            0
        );
    }

    #[test]
    fn example_9_421_two_firing_back_at_it() {
        let map = oba_map();
        let out = off_board_range(hex(FIRE_POINT), 24, hex("0712"));
        assert_eq!(
            reach(artillery(9), FireKind::Standing, out)
                .unwrap_err()
                .limit,
            27
        );
        let range = off_board_range(hex(FIRE_POINT), 24, hex("0713"));
        assert_eq!(range, 27);
        let r = reach(artillery(9), FireKind::Standing, range).unwrap();
        assert!(r.one_hit_at_most && r.to_hit_penalty == 1);
        assert_eq!(firepower(2, r, PassThrough::default()), 2);
        // The line runs from the battery to the edge hex (9.431).
        let f = firer(&map, "0713", true);
        let t = Target {
            at: Viewpoint::off_board(hex(EDGE), 4),
            brigade: None,
            artillery: true,
        };
        let sides = check(&map, &Units::default(), &f, &t);
        let open = best(&map, &Saves::default(), &f, &t, &sides)
            .outcome
            .clone()
            .unwrap();
        let facts = SaveFacts {
            range,
            moving_fire: true,
            off_board_card: Some(0),
            ..SaveFacts::default()
        };
        // Only 9.433's saves (B114): here the higher level.
        let rolls = save_rolls(&map, &Saves::default(), &f, &t, &open, &facts);
        assert_eq!(rolls, [(SaveFactor::Elevation, 1)]);
        let card = SaveFacts {
            off_board_card: Some(2),
            loose_or_disrupted: true,
            ..facts
        };
        let rolls = save_rolls(&map, &Saves::default(), &f, &t, &open, &card);
        assert_eq!(total(&rolls), 4);
    }
}
