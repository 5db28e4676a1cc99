//! Whether a sight line is open (6.3-6.37, 6.16, 9.42), and what it
//! crosses on the way.
//!
//! The line's hexes come from [`line::between`]; this file judges them
//! against the map and against where units stand, which it learns through
//! [`Occupancy`] (the game state implements it). Each side of a line that
//! runs along hexsides is judged on its own, and [`best`] picks the side
//! the firer would choose (6.32).

use std::fmt;

use crate::games::brothers_at_war::core::line::{self, LineSide, Sides};
use crate::games::brothers_at_war::core::map::{BattleMap, HexsideId, TerrainId};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Cover, Saves, Side, Sight};

/// A brigade, by its index in the scenario's list of brigades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BrigadeIndex(pub u16);

/// A skirmisher on foot, which casts a skirmish zone (6.36; mounted
/// skirmishers cast none, 6.362).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skirmisher {
    /// Whose it is.
    pub side: Side,
    /// Its brigade; none for one of no brigade.
    pub brigade: Option<BrigadeIndex>,
}

/// What the sight rules need to know of where units stand.
pub trait Occupancy {
    /// Whose units other than skirmishers stand in `hex`, if any: units
    /// block sight lines (6.3, 6.37; skirmishers do not, 6.37 a), and
    /// those friendly to the firer cast shadows (6.35).
    fn standing(&self, hex: Hex) -> Option<Side>;
    /// The skirmisher on foot standing in `hex`, if any (6.36).
    fn skirmisher(&self, hex: Hex) -> Option<Skirmisher>;
    /// How many units of `side` in `hex` count for pass-through fire:
    /// all but artillery and skirmishers (6.42).
    fn pass_through_units(&self, hex: Hex, side: Side) -> u8;
}

/// One end of a sight line: a hex and the level the unit there stands at
/// (the hex's level on the map, or an off-board card's level, 9.42).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewpoint {
    /// The hex the line is traced from or to (for off-board artillery,
    /// the map-edge hex of its fire point, 9.42).
    pub hex: Hex,
    /// Its level.
    pub level: u8,
}

impl Viewpoint {
    /// A unit standing in `hex` on the map.
    pub fn on_map(map: &BattleMap, hex: Hex) -> Viewpoint {
        Viewpoint {
            hex,
            level: map.level(hex),
        }
    }

    /// Off-board artillery seen from the map: lines run to or from the
    /// map-edge hex of its fire point, at its card's level (9.42, 9.431).
    /// The edge hex is the line's end, so its terrain neither blocks nor
    /// hinders (B112).
    pub fn off_board(edge: Hex, card_level: u8) -> Viewpoint {
        Viewpoint {
            hex: edge,
            level: card_level,
        }
    }
}

/// The unit (or pair of units) firing, as the sight rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Firer {
    /// Where it fires from.
    pub at: Viewpoint,
    /// Whose it is.
    pub side: Side,
    /// Artillery sees over lower units (6.37 b) and ignores skirmish
    /// zones (6.362).
    pub artillery: bool,
}

/// The unit fired at, as the sight rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Where it stands.
    pub at: Viewpoint,
    /// Its brigade, which a skirmisher of the same brigade shields
    /// (6.361).
    pub brigade: Option<BrigadeIndex>,
    /// Skirmish zones shield artillery of any brigade (6.361).
    pub artillery: bool,
}

/// A type of terrain or hexside feature: each distinct hindrance type a
/// line crosses gives a save (6.33), as each type of cover in the
/// target's hex does (6.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// A hex terrain type.
    Terrain(TerrainId),
    /// A hexside feature type.
    Hexside(HexsideId),
}

/// Why a side of a sight line is blocked, each citing its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// An obstacle terrain in a hex between (6.31).
    Obstacle {
        /// The hex.
        hex: Hex,
    },
    /// An obstacle feature on a hexside crossed between two hexes between
    /// (6.31).
    HexsideObstacle {
        /// One hex of the side.
        a: Hex,
        /// The other.
        b: Hex,
    },
    /// A hex between at least as high as the higher end (6.34 rules 1
    /// and 2), or, between ends at one level, higher than both.
    Elevation {
        /// The hex.
        hex: Hex,
    },
    /// A unit in a hex between (6.3, 6.37, B27).
    Unit {
        /// The hex.
        hex: Hex,
    },
    /// The lower end lies in the shadow of an obstacle or a friendly unit
    /// in the hex next to it on the line (6.35).
    Shadow {
        /// The hex casting the shadow.
        caster: Hex,
    },
    /// This side of the line runs off the map (B? 6.32, B23: only the
    /// other side may be traced).
    OffMap,
    /// An enemy skirmisher's zone shields the target: the firer must fire
    /// at the skirmisher instead (6.361).
    SkirmishZone {
        /// The skirmisher's hex.
        skirmisher: Hex,
    },
}

impl Blocked {
    /// The rule that blocks.
    pub fn rule(self) -> &'static str {
        match self {
            Blocked::Obstacle { .. } | Blocked::HexsideObstacle { .. } => "6.31",
            Blocked::Elevation { .. } => "6.34",
            Blocked::Unit { .. } => "6.37",
            Blocked::Shadow { .. } => "6.35",
            Blocked::OffMap => "6.32",
            Blocked::SkirmishZone { .. } => "6.361",
        }
    }
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocked::Obstacle { hex } => write!(f, "an obstacle in {hex}"),
            Blocked::HexsideObstacle { a, b } => {
                write!(f, "an obstacle on the hexside {a}-{b}")
            }
            Blocked::Elevation { hex } => write!(f, "higher ground in {hex}"),
            Blocked::Unit { hex } => write!(f, "a unit in {hex}"),
            Blocked::Shadow { caster } => write!(f, "the shadow cast from {caster}"),
            Blocked::OffMap => write!(f, "the line runs off the map"),
            Blocked::SkirmishZone { skirmisher } => {
                write!(f, "the skirmish zone of the skirmisher in {skirmisher}")
            }
        }?;
        write!(f, " ({})", self.rule())
    }
}

/// An open side of a sight line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Open {
    /// The distinct hindrance types crossed, sorted (6.33).
    pub hindrances: Vec<Feature>,
    /// The hex the line enters the target's hex from: the last hex
    /// between, or the firer's when adjacent (hexside cover, 6.6).
    pub entered_from: Hex,
}

/// One side of a sight line, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Which side it is.
    pub side: LineSide,
    /// The hexes between firer and target on this side, in order (empty
    /// when this side runs off the named grid).
    pub hexes: Vec<Hex>,
    /// Open, or why not.
    pub outcome: Result<Open, Blocked>,
}

/// Judges both sides of the sight line from `firer` to `target` (6.3).
/// The sides are the same when the line never runs along a hexside.
pub fn check(
    map: &BattleMap,
    units: &impl Occupancy,
    firer: &Firer,
    target: &Target,
) -> Sides<Trace> {
    let sides = line::between(firer.at.hex, target.at.hex);
    let side = |side: LineSide, hexes: Option<Vec<Hex>>| match hexes {
        Some(hexes) if hexes.iter().all(|h| map.contains(*h)) => Trace {
            side,
            outcome: judge(map, units, firer, target, &hexes),
            hexes,
        },
        hexes => Trace {
            side,
            hexes: hexes.unwrap_or_default(),
            outcome: Err(Blocked::OffMap),
        },
    };
    Sides {
        left: side(LineSide::Left, sides.left),
        right: side(LineSide::Right, sides.right),
    }
}

/// The side traced for a firer who named none (6.32, B24): an open side
/// with the fewest save rolls it gives the target (hindrances, and
/// hexside cover entering the target's hex), the left on a tie; failing
/// that a side blocked only by a skirmish zone (the fire may turn on the
/// skirmisher, B29); otherwise the left side. For fire, where
/// pass-through breaks a tie, see `fire_math::side_for_fire`.
pub fn best<'a>(
    map: &BattleMap,
    saves: &Saves,
    firer: &Firer,
    target: &Target,
    sides: &'a Sides<Trace>,
) -> &'a Trace {
    let rank = |t: &Trace| match &t.outcome {
        Ok(open) => (0, line_saves(map, saves, firer, target, open)),
        Err(Blocked::SkirmishZone { .. }) => (1, 0),
        Err(_) => (2, 0),
    };
    if rank(&sides.right) < rank(&sides.left) {
        &sides.right
    } else {
        &sides.left
    }
}

/// The save rolls an open side gives by itself: one set per distinct
/// hindrance (6.33) and the cover of hexside features crossed into the
/// target's hex (6.6 item 4).
pub fn line_saves(
    map: &BattleMap,
    saves: &Saves,
    firer: &Firer,
    target: &Target,
    open: &Open,
) -> u32 {
    let hindrances = open.hindrances.len() as u32 * u32::from(saves.hindrance);
    let cover: u32 = entry_hexside(map, firer, target, open)
        .iter()
        .map(|id| cover_saves(saves, map.hexside_kinds()[usize::from(id.0)].cover))
        .sum();
    hindrances + cover
}

/// The hexside features the line crosses into the target's hex that count
/// for cover: none when firer and target are adjacent (6.6 item 4).
pub fn entry_hexside<'m>(
    map: &'m BattleMap,
    firer: &Firer,
    target: &Target,
    open: &Open,
) -> &'m [HexsideId] {
    if open.entered_from == firer.at.hex {
        return &[];
    }
    map.hexside(open.entered_from, target.at.hex)
}

/// The saves one type of cover gives (6.6 item 4).
pub fn cover_saves(saves: &Saves, cover: Cover) -> u32 {
    match cover {
        Cover::None => 0,
        Cover::Cover => u32::from(saves.cover),
        Cover::Heavy => u32::from(saves.heavy_cover),
    }
}

/// One side's hexes, all on the map, judged.
fn judge(
    map: &BattleMap,
    units: &impl Occupancy,
    firer: &Firer,
    target: &Target,
    hexes: &[Hex],
) -> Result<Open, Blocked> {
    let (from, to) = (firer.at.level, target.at.level);
    let higher = from.max(to);
    let same_level = from == to;
    let mut hindrances = Vec::new();
    for &hex in hexes {
        let level = map.level(hex);
        // 6.34: between ends at different levels, a hex as high as the
        // higher end blocks and lower hexes do not; between ends at one
        // level only higher ground blocks.
        if (same_level && level > higher) || (!same_level && level >= higher) {
            return Err(Blocked::Elevation { hex });
        }
        if same_level {
            // B25: the three elevation rules of 6.34 are for ends at
            // different levels; at one level every obstacle between
            // blocks, whatever the level of its hex.
            let terrain = map.terrain(hex);
            match map.terrains()[usize::from(terrain.0)].sight {
                Sight::Obstacle => return Err(Blocked::Obstacle { hex }),
                Sight::Hindrance => hindrances.push(Feature::Terrain(terrain)),
                Sight::Clear => {}
            }
        }
        if unit_blocks(units.standing(hex).is_some(), level, firer, target) {
            return Err(Blocked::Unit { hex });
        }
    }
    if same_level {
        // B25, B30: only hexsides between two hexes between count for
        // sight; the target's own hexside gives cover instead (6.6) and
        // the firer's does not hinder its own fire. B? 6.33, 6.34: between
        // ends at different levels hexside features are lower terrain and
        // are ignored (they cast no shadow: 6.35 speaks of hexes).
        for pair in hexes.windows(2) {
            for id in map.hexside(pair[0], pair[1]) {
                match map.hexside_kinds()[usize::from(id.0)].sight {
                    Sight::Obstacle => {
                        return Err(Blocked::HexsideObstacle {
                            a: pair[0],
                            b: pair[1],
                        })
                    }
                    Sight::Hindrance => hindrances.push(Feature::Hexside(*id)),
                    Sight::Clear => {}
                }
            }
        }
    } else if let Some(found) = shadow(map, units, firer, target, hexes)? {
        hindrances.push(found);
    }
    if !firer.artillery {
        if let Some(&skirmisher) = shielding(map, units, firer, target, hexes).first() {
            return Err(Blocked::SkirmishZone { skirmisher });
        }
    }
    hindrances.sort();
    hindrances.dedup();
    Ok(Open {
        hindrances,
        entered_from: hexes.last().copied().unwrap_or(firer.at.hex),
    })
}

/// Whether units in a hex of `level` between block the line.
fn unit_blocks(occupied: bool, level: u8, firer: &Firer, target: &Target) -> bool {
    let (from, to) = (firer.at.level, target.at.level);
    // 6.3, 6.37, B27: a unit of either side blocks fire by any unit but
    // artillery, whatever the levels; artillery sees over units in a hex
    // lower than either end (6.37 b, 6.16), friendly ones still casting
    // shadows (6.35).
    occupied && !(firer.artillery && (from > level || to > level))
}

/// 6.35: between ends at different levels, the hex next to the lower end
/// on the line shadows it with its terrain or a friendly unit, unless
/// the lower end is higher than that hex. Slopes cast no shadow, so a
/// plain hex does nothing. An obstacle or unit blocks; a hindrance
/// counts (6.33 keeps hindrances that cast shadows).
fn shadow(
    map: &BattleMap,
    units: &impl Occupancy,
    firer: &Firer,
    target: &Target,
    hexes: &[Hex],
) -> Result<Option<Feature>, Blocked> {
    let (lower, caster) = if firer.at.level < target.at.level {
        (firer.at, hexes.first())
    } else {
        (target.at, hexes.last())
    };
    let Some(&caster) = caster else {
        return Ok(None);
    };
    if lower.level > map.level(caster) {
        return Ok(None);
    }
    if units.standing(caster) == Some(firer.side) {
        return Err(Blocked::Shadow { caster });
    }
    let terrain = map.terrain(caster);
    match map.terrains()[usize::from(terrain.0)].sight {
        Sight::Obstacle => Err(Blocked::Shadow { caster }),
        Sight::Hindrance => Ok(Some(Feature::Terrain(terrain))),
        Sight::Clear => Ok(None),
    }
}

/// 6.36, 6.361: the enemy skirmishers whose zones (each one's hex and
/// those around it) hold a hex between `hexes` and shield this target:
/// one of their own brigade, or any artillery. Nearest the firer first,
/// then by hex, the order in which the engine picks one for a firer who
/// named none (B29). The target's own zone does not shield it from
/// itself. Artillery fire ignores zones (6.362): callers do not ask.
pub fn shielding(
    map: &BattleMap,
    units: &impl Occupancy,
    firer: &Firer,
    target: &Target,
    hexes: &[Hex],
) -> Vec<Hex> {
    let mut found: Vec<Hex> = hexes
        .iter()
        .flat_map(|&hex| std::iter::once(hex).chain(map.neighbours(hex)))
        .filter(|&at| at != target.at.hex)
        .filter(|&at| {
            units.skirmisher(at).is_some_and(|s| {
                s.side != firer.side
                    && (target.artillery
                        || (target.brigade.is_some() && s.brigade == target.brigade))
            })
        })
        .collect();
    found.sort_by_key(|&at| (firer.at.hex.distance(at), at));
    found.dedup();
    found
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::brothers_at_war::scenario::Scenario;

    /// A chart of our own for sight tests: `.` open, `w` woods (an
    /// obstacle, cover), `c` corn, `o` orchard (hindrances), `b` a farm
    /// (a hindrance, a building, cover); hexsides: fence (cover), wall
    /// (heavy cover), hedge (a hindrance), bank (an obstacle).
    const CHART: &str = r#"
format = "orderly-brothers-at-war 1"
id = "sight-test"
name = "Sight test"
source = "tests, original"
turns = 1

[map]
columns = 1
rows = 1
legend = { "." = "open", "w" = "woods", "c" = "corn", "o" = "orchard", "b" = "farm" }
terrain = ["."]

[map.rally_points]
union = ["0101"]
confederacy = ["0101"]

[terrain.open]
name = "Open"

[terrain.woods]
name = "Woods"
woods = true
sight = "obstacle"
cover = "cover"

[terrain.corn]
name = "Corn"
sight = "hindrance"

[terrain.orchard]
name = "Orchard"
sight = "hindrance"

[terrain.farm]
name = "Farm"
sight = "hindrance"
building = true
cover = "cover"

[hexside.fence]
name = "Fence"
cover = "cover"

[hexside.wall]
name = "Wall"
cover = "heavy"

[hexside.hedge]
name = "Hedge"
sight = "hindrance"

[hexside.bank]
name = "Bank"
sight = "obstacle"

[activation]
spaces = ["", "countdown"]
countdown_markers = 1

[victory]
"#;

    /// A map of our own: rows of terrain characters, rows of level
    /// digits (all 1 when empty), hexsides as `"0913 1013 fence"`.
    pub(crate) fn battle_map(terrain: &[&str], levels: &[&str], hexsides: &[&str]) -> BattleMap {
        let mut s: Scenario = toml::from_str(CHART).unwrap();
        s.map.rows = terrain.len() as u8;
        s.map.columns = terrain[0].len() as u8;
        s.map.terrain = terrain.iter().map(|r| r.to_string()).collect();
        s.map.levels = levels.iter().map(|r| r.to_string()).collect();
        s.map.hexsides = hexsides.iter().map(|r| r.to_string()).collect();
        BattleMap::build(&s).unwrap()
    }

    /// An open map of `columns` x `rows`, every hex at level 1.
    pub(crate) fn open_map(columns: usize, rows: usize) -> BattleMap {
        let row = ".".repeat(columns);
        battle_map(&vec![row.as_str(); rows], &[], &[])
    }

    /// Units as the tests place them.
    #[derive(Default)]
    pub(crate) struct Units {
        /// Hex, side, and how many units other than artillery and
        /// skirmishers stand there.
        pub standing: Vec<(Hex, Side, u8)>,
        /// Skirmishers on foot.
        pub skirmishers: Vec<(Hex, Skirmisher)>,
    }

    impl Occupancy for Units {
        fn standing(&self, hex: Hex) -> Option<Side> {
            self.standing.iter().find(|u| u.0 == hex).map(|u| u.1)
        }
        fn skirmisher(&self, hex: Hex) -> Option<Skirmisher> {
            self.skirmishers.iter().find(|s| s.0 == hex).map(|s| s.1)
        }
        fn pass_through_units(&self, hex: Hex, side: Side) -> u8 {
            self.standing
                .iter()
                .find(|u| u.0 == hex && u.1 == side)
                .map_or(0, |u| u.2)
        }
    }

    pub(crate) fn hex(name: &str) -> Hex {
        name.parse().unwrap()
    }

    pub(crate) fn firer(map: &BattleMap, at: &str, artillery: bool) -> Firer {
        Firer {
            at: Viewpoint::on_map(map, hex(at)),
            side: Side::Confederacy,
            artillery,
        }
    }

    pub(crate) fn target(map: &BattleMap, at: &str) -> Target {
        Target {
            at: Viewpoint::on_map(map, hex(at)),
            brigade: Some(BrigadeIndex(0)),
            artillery: false,
        }
    }

    pub(crate) fn union_at(at: &str) -> (Hex, Side, u8) {
        (hex(at), Side::Union, 1)
    }

    pub(crate) fn csa_at(at: &str) -> (Hex, Side, u8) {
        (hex(at), Side::Confederacy, 1)
    }

    fn outcome(map: &BattleMap, units: &Units, f: &Firer, t: &Target) -> Result<Open, Blocked> {
        let sides = check(map, units, f, t);
        assert_eq!(sides.left.hexes, sides.right.hexes, "a straight line here");
        sides.left.outcome
    }

    fn chosen(map: &BattleMap, units: &Units, f: &Firer, t: &Target) -> Trace {
        best(map, &Saves::default(), f, t, &check(map, units, f, t)).clone()
    }

    fn names(hexes: &[Hex]) -> Vec<String> {
        hexes.iter().map(|h| h.to_string()).collect()
    }

    #[test]
    fn example_6_321_one_blocked_left_open_right_with_the_fence() {
        let map = battle_map(&[".".repeat(11).as_str(); 14], &[], &["0913 1013 fence"]);
        let units = Units {
            standing: vec![union_at("0912")],
            ..Units::default()
        };
        let (f, t) = (firer(&map, "0613", true), target(&map, "1013"));
        let sides = check(&map, &units, &f, &t);
        assert_eq!(sides.left.outcome, Err(Blocked::Unit { hex: hex("0912") }));
        let pick = chosen(&map, &units, &f, &t);
        assert_eq!(names(&pick.hexes), ["0713", "0813", "0913"]);
        let open = pick.outcome.unwrap();
        assert_eq!(line_saves(&map, &Saves::default(), &f, &t, &open), 1);
    }

    #[test]
    fn example_6_321_two_both_sides_blocked() {
        let map = open_map(11, 14);
        let units = Units {
            standing: vec![union_at("0809"), union_at("0807")],
            ..Units::default()
        };
        let (f, t) = (firer(&map, "0709", true), target(&map, "0906"));
        let sides = check(&map, &units, &f, &t);
        assert_eq!(sides.right.outcome, Err(Blocked::Unit { hex: hex("0809") }));
        assert_eq!(sides.left.outcome, Err(Blocked::Unit { hex: hex("0807") }));
        assert!(chosen(&map, &units, &f, &t).outcome.is_err());
        // Either unit alone leaves a side open.
        let one = Units {
            standing: vec![union_at("0809")],
            ..Units::default()
        };
        assert!(chosen(&map, &one, &f, &t).outcome.is_ok());
    }

    #[test]
    fn example_6_321_three_higher_ground_on_one_side() {
        let mut levels = vec!["11111111111"; 14];
        levels[8] = "11211111111"; // 0309
        let map = battle_map(&[".".repeat(11).as_str(); 14], &levels, &[]);
        let units = Units::default();
        let (f, t) = (firer(&map, "0511", true), target(&map, "0308"));
        let sides = check(&map, &units, &f, &t);
        assert_eq!(
            sides.left.outcome,
            Err(Blocked::Elevation { hex: hex("0309") })
        );
        let pick = chosen(&map, &units, &f, &t);
        assert_eq!(names(&pick.hexes), ["0510", "0410", "0409"]);
        assert!(pick.outcome.is_ok());
    }

    #[test]
    fn example_6_321_four_the_firer_avoids_the_fence() {
        let map = battle_map(&[".".repeat(11).as_str(); 14], &[], &["0413 0513 fence"]);
        let units = Units::default();
        let (f, t) = (firer(&map, "0313", false), target(&map, "0513"));
        let sides = check(&map, &units, &f, &t);
        let saves = |tr: &Trace| {
            line_saves(
                &map,
                &Saves::default(),
                &f,
                &t,
                tr.outcome.as_ref().unwrap(),
            )
        };
        assert_eq!((saves(&sides.left), saves(&sides.right)), (1, 0));
        assert_eq!(names(&chosen(&map, &units, &f, &t).hexes), ["0414"]);
    }

    #[test]
    fn hindrances_count_by_type_and_only_between() {
        // A column: firer 0101, corn 0102 and 0103, orchard 0104, open
        // 0105, target in corn 0106 (entered, not crossed: no save).
        let map = battle_map(&[".", "c", "c", "o", ".", "c"], &[], &[]);
        let (f, t) = (firer(&map, "0101", false), target(&map, "0106"));
        let open = outcome(&map, &Units::default(), &f, &t).unwrap();
        assert_eq!(open.hindrances.len(), 2);
        assert_eq!(open.entered_from, hex("0105"));
    }

    #[test]
    fn hexside_features_between_count_and_obstacles_block() {
        let map = battle_map(&[".", ".", ".", ".", "."], &[], &["0102 0103 hedge"]);
        let (f, t) = (firer(&map, "0101", false), target(&map, "0105"));
        let open = outcome(&map, &Units::default(), &f, &t).unwrap();
        assert_eq!(open.hindrances.len(), 1);
        let map = battle_map(&[".", ".", ".", ".", "."], &[], &["0103 0102 bank"]);
        assert!(matches!(
            outcome(&map, &Units::default(), &f, &t),
            Err(Blocked::HexsideObstacle { .. })
        ));
        // On the target's own hexside a bank is no obstacle.
        let map = battle_map(&[".", ".", ".", ".", "."], &[], &["0104 0105 bank"]);
        assert!(outcome(&map, &Units::default(), &f, &t).is_ok());
    }

    #[test]
    fn example_6_341_figure_1_the_three_elevation_rules() {
        // Firer on a level 4 hill in 0101, target at level 1 in 0105.
        let terrain = [".", ".", ".", ".", "."];
        let line = |between: &str, firer_level: char| {
            let levels: Vec<String> = std::iter::once(firer_level.to_string())
                .chain(between.chars().map(String::from))
                .chain(std::iter::once("1".to_string()))
                .collect();
            let levels: Vec<&str> = levels.iter().map(String::as_str).collect();
            let map = battle_map(&terrain, &levels, &[]);
            outcome(
                &map,
                &Units::default(),
                &firer(&map, "0101", false),
                &target(&map, "0105"),
            )
        };
        // Rule 1: higher than both blocks.
        assert!(matches!(line("151", '4'), Err(Blocked::Elevation { .. })));
        // Rule 2: as high as the higher end blocks.
        assert!(matches!(line("141", '4'), Err(Blocked::Elevation { .. })));
        // Rule 3: lower than the higher end does not; the same hex blocks a
        // firer one level lower.
        assert!(line("131", '4').is_ok());
        assert!(matches!(line("131", '3'), Err(Blocked::Elevation { .. })));
        // Rule 3 also passes over obstacles in lower hexes; units there
        // still block all fire but artillery's (B27).
        let map = battle_map(&[".", "w", "w", ".", "."], &["3", "1", "1", "1", "1"], &[]);
        let (t, infantry) = (target(&map, "0105"), firer(&map, "0101", false));
        assert!(outcome(&map, &Units::default(), &infantry, &t).is_ok());
        let units = Units {
            standing: vec![union_at("0103")],
            ..Units::default()
        };
        assert_eq!(
            outcome(&map, &units, &infantry, &t),
            Err(Blocked::Unit { hex: hex("0103") })
        );
        assert!(outcome(&map, &units, &firer(&map, "0101", true), &t).is_ok());
    }

    #[test]
    fn between_levels_hexside_features_are_ignored() {
        let sides = ["0102 0103 bank", "0103 0104 hedge"];
        let map = battle_map(
            &[".", ".", ".", ".", "."],
            &["3", "1", "1", "1", "1"],
            &sides,
        );
        let open = outcome(
            &map,
            &Units::default(),
            &firer(&map, "0101", false),
            &target(&map, "0105"),
        );
        assert!(open.unwrap().hindrances.is_empty());
        let level = battle_map(&[".", ".", ".", ".", "."], &[], &sides);
        let r = outcome(
            &level,
            &Units::default(),
            &firer(&level, "0101", false),
            &target(&level, "0105"),
        );
        assert!(matches!(r, Err(Blocked::HexsideObstacle { .. })));
    }

    #[test]
    fn at_one_level_obstacles_block_and_higher_ground_blocks() {
        let map = battle_map(&[".", "w", "."], &[], &[]);
        let (f, t) = (firer(&map, "0101", false), target(&map, "0103"));
        assert_eq!(
            outcome(&map, &Units::default(), &f, &t),
            Err(Blocked::Obstacle { hex: hex("0102") })
        );
        let map = battle_map(&[".", ".", "."], &["1", "2", "1"], &[]);
        let (f, t) = (firer(&map, "0101", false), target(&map, "0103"));
        assert!(matches!(
            outcome(&map, &Units::default(), &f, &t),
            Err(Blocked::Elevation { .. })
        ));
    }

    /// 6.351: a battery on a level 3 hill in 0101 fires down a column at
    /// targets at level 1 in 0105; `next` is the terrain of 0104, the
    /// hex before the target.
    fn shadow_case(next: &str, next_level: &str, units: Units) -> Result<Open, Blocked> {
        let map = battle_map(
            &[".", ".", ".", next, "."],
            &["3", "1", "1", next_level, "1"],
            &[],
        );
        outcome(
            &map,
            &units,
            &firer(&map, "0101", true),
            &target(&map, "0105"),
        )
    }

    #[test]
    fn example_6_351_shadows() {
        // A: a friendly unit in front of the target shadows it.
        let friendly = Units {
            standing: vec![csa_at("0104")],
            ..Units::default()
        };
        assert_eq!(
            shadow_case(".", "1", friendly),
            Err(Blocked::Shadow {
                caster: hex("0104")
            })
        );
        // B: a slope casts none.
        assert!(shadow_case(".", "2", Units::default()).is_ok());
        // C: woods do.
        assert_eq!(
            shadow_case("w", "1", Units::default()),
            Err(Blocked::Shadow {
                caster: hex("0104")
            })
        );
        // D: enemy units cast none.
        let enemy = Units {
            standing: vec![union_at("0104")],
            ..Units::default()
        };
        assert!(shadow_case(".", "1", enemy).is_ok());
        // E: a hindrance in the shadow counts.
        assert_eq!(
            shadow_case("b", "1", Units::default())
                .unwrap()
                .hindrances
                .len(),
            1
        );
        // A hindrance further away is ignored between different levels.
        let map = battle_map(&[".", ".", "c", ".", "."], &["3", "1", "1", "1", "1"], &[]);
        let open = outcome(
            &map,
            &Units::default(),
            &firer(&map, "0101", true),
            &target(&map, "0105"),
        );
        assert!(open.unwrap().hindrances.is_empty());
    }

    #[test]
    fn shadows_do_not_go_up_and_fall_on_a_lower_firer_too() {
        let map = battle_map(&[".", ".", ".", "w", "."], &["3", "1", "1", "1", "2"], &[]);
        assert!(outcome(
            &map,
            &Units::default(),
            &firer(&map, "0101", true),
            &target(&map, "0105")
        )
        .is_ok());
        // Firing up: woods next to the low firer shadow it.
        let map = battle_map(&[".", "w", ".", ".", "."], &["1", "1", "1", "1", "3"], &[]);
        let r = outcome(
            &map,
            &Units::default(),
            &firer(&map, "0101", false),
            &target(&map, "0105"),
        );
        assert_eq!(
            r,
            Err(Blocked::Shadow {
                caster: hex("0102")
            })
        );
    }

    #[test]
    fn friendly_units_block_all_but_artillery_firing_over_them() {
        let map = battle_map(&[".", ".", ".", ".", "."], &["3", "1", "1", "1", "1"], &[]);
        let units = Units {
            standing: vec![csa_at("0102")],
            ..Units::default()
        };
        let t = target(&map, "0105");
        assert_eq!(
            outcome(&map, &units, &firer(&map, "0101", false), &t),
            Err(Blocked::Unit { hex: hex("0102") })
        );
        assert!(outcome(&map, &units, &firer(&map, "0101", true), &t).is_ok());
        // At one level nothing is lower: artillery is blocked too.
        let map = open_map(1, 5);
        let t = target(&map, "0105");
        assert!(outcome(&map, &units, &firer(&map, "0101", true), &t).is_err());
        // A skirmisher is not a unit that blocks: the state leaves it out.
        assert!(outcome(&map, &Units::default(), &firer(&map, "0101", true), &t).is_ok());
    }

    /// 6.363: a Union skirmisher of brigade 1 in 0203, whose zone holds
    /// 0102 and 0103 on the column the Confederate firer in 0101 fires
    /// down.
    fn zone_units() -> Units {
        Units {
            skirmishers: vec![(
                hex("0203"),
                Skirmisher {
                    side: Side::Union,
                    brigade: Some(BrigadeIndex(1)),
                },
            )],
            ..Units::default()
        }
    }

    #[test]
    fn example_6_363_skirmish_zones() {
        let map = open_map(3, 7);
        let units = zone_units();
        let infantry = firer(&map, "0101", false);
        let of_brigade = |b: u16, artillery: bool| Target {
            brigade: Some(BrigadeIndex(b)),
            artillery,
            ..target(&map, "0106")
        };
        let shielded = Err(Blocked::SkirmishZone {
            skirmisher: hex("0203"),
        });
        // A: a unit of the skirmisher's brigade.
        assert_eq!(
            outcome(&map, &units, &infantry, &of_brigade(1, false)),
            shielded
        );
        // B: artillery of another brigade.
        assert_eq!(
            outcome(&map, &units, &infantry, &of_brigade(2, true)),
            shielded
        );
        // C: a unit of another brigade.
        assert!(outcome(&map, &units, &infantry, &of_brigade(2, false)).is_ok());
        // D: artillery fire ignores the zone.
        assert!(outcome(
            &map,
            &units,
            &firer(&map, "0101", true),
            &of_brigade(1, false)
        )
        .is_ok());
        // The firer's own side's skirmisher shields nothing from it.
        let union_firer = Firer {
            side: Side::Union,
            ..infantry
        };
        assert!(outcome(&map, &units, &union_firer, &of_brigade(1, false)).is_ok());
    }

    #[test]
    fn of_several_shielding_skirmishers_the_nearest_comes_first() {
        let map = open_map(3, 7);
        let mut units = zone_units();
        // 0205's zone holds 0104 and 0105, further down the line.
        units
            .skirmishers
            .insert(0, (hex("0205"), units.skirmishers[0].1));
        let (f, t) = (firer(&map, "0101", false), target(&map, "0106"));
        let hexes = check(&map, &units, &f, &t).left.hexes;
        let t = Target {
            brigade: Some(BrigadeIndex(1)),
            ..t
        };
        assert_eq!(
            shielding(&map, &units, &f, &t, &hexes),
            [hex("0203"), hex("0205")]
        );
        assert_eq!(
            outcome(&map, &units, &f, &t),
            Err(Blocked::SkirmishZone {
                skirmisher: hex("0203")
            })
        );
    }

    #[test]
    fn a_zone_entered_only_at_the_target_does_not_shield() {
        let map = open_map(3, 7);
        // 0207's zone holds 0106 (the target) and 0107, none between.
        let units = Units {
            skirmishers: vec![(
                hex("0207"),
                Skirmisher {
                    side: Side::Union,
                    brigade: Some(BrigadeIndex(0)),
                },
            )],
            ..Units::default()
        };
        assert!(outcome(
            &map,
            &units,
            &firer(&map, "0101", false),
            &target(&map, "0106")
        )
        .is_ok());
        // Nor does the target's own zone shield it from fire at itself.
        let units = Units {
            skirmishers: vec![(
                hex("0106"),
                Skirmisher {
                    side: Side::Union,
                    brigade: Some(BrigadeIndex(0)),
                },
            )],
            ..Units::default()
        };
        assert!(outcome(
            &map,
            &units,
            &firer(&map, "0101", false),
            &target(&map, "0106")
        )
        .is_ok());
    }

    #[test]
    fn a_hex_touched_only_at_a_vertex_blocks_one_side() {
        // 0505 to 1007 grazes a vertex of 0705 on its left and one of 0807
        // on its right; woods in 0705 close only the left.
        let mut rows = vec![".".repeat(11); 9];
        rows[4].replace_range(6..7, "w");
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let map = battle_map(&rows, &[], &[]);
        let (f, t) = (firer(&map, "0505", false), target(&map, "1007"));
        let sides = check(&map, &Units::default(), &f, &t);
        assert_eq!(
            sides.left.outcome,
            Err(Blocked::Obstacle { hex: hex("0705") })
        );
        assert!(!sides.right.hexes.contains(&hex("0705")));
        assert!(sides.right.outcome.is_ok());
    }

    #[test]
    fn a_side_off_the_map_is_not_traced() {
        let map = open_map(5, 3);
        // Along row 01 the northern side leaves the map.
        let (f, t) = (firer(&map, "0201", false), target(&map, "0401"));
        let sides = check(&map, &Units::default(), &f, &t);
        assert_eq!(sides.left.outcome, Err(Blocked::OffMap));
        assert!(sides.right.outcome.is_ok());
        assert!(best(&map, &Saves::default(), &f, &t, &sides)
            .outcome
            .is_ok());
    }

    #[test]
    fn blocked_says_which_rule() {
        let text = Blocked::Shadow {
            caster: hex("0406"),
        }
        .to_string();
        assert!(text.contains("0406") && text.ends_with("(6.35)"), "{text}");
        assert_eq!(
            Blocked::SkirmishZone {
                skirmisher: hex("0101")
            }
            .rule(),
            "6.361"
        );
    }
}
