//! The compiled map: a scenario's grids, hexsides, roads and charts
//! resolved per hex, so that the engine and the sight-line code ask
//! questions ("what terrain is 0712?", "does a fence run between 0712 and
//! 0713?") rather than read the file's text.
//!
//! [`BattleMap::build`] reports every problem it finds at once, each naming
//! the field of the file it concerns, so that an owner transcribing a map
//! fixes them in one pass.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use crate::games::brothers_at_war::core::hex::MAX_SIDE;
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::field::Field;
use crate::games::brothers_at_war::scenario::model::{
    Costs, Hexside, PerSide, Scenario, Side, Terrain,
};

/// Index of a hex terrain type in the chart (`BattleMap::terrains()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerrainId(pub u8);

/// Index of a hexside feature type in the chart (`BattleMap::hexside_kinds()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HexsideId(pub u8);

/// The most terrain types, or hexside kinds, a chart may hold: ids are
/// one byte.
pub const MAX_KINDS: usize = 255;

/// The most hexes a road, trail or hexside list may name in all: a
/// 99 x 99 map has fewer than 30,000 hexsides.
pub const MAX_LIST: usize = 30_000;

/// One thing wrong with a scenario's map: the field it concerns and what
/// is wrong, in words for the owner who wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapProblem {
    /// The key or array entry at fault (`map.terrain[2]`, `map.roads[0]`).
    pub field: Field,
    /// What is wrong.
    pub message: String,
}

impl MapProblem {
    fn new(field: Field, message: impl Into<String>) -> MapProblem {
        MapProblem {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for MapProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// The two hexes of a hexside, in a fixed order, so that lookups do not
/// depend on which side one asks from.
fn side_key(a: Hex, b: Hex) -> (Hex, Hex) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// A scenario's map, resolved.
#[derive(Clone, Debug)]
pub struct BattleMap {
    columns: u8,
    rows: u8,
    /// Per hex, row 01 first, west to east.
    terrain: Vec<TerrainId>,
    /// Per hex, as `terrain`.
    levels: Vec<u8>,
    terrains: Vec<Terrain>,
    terrain_names: Vec<String>,
    hexside_kinds: Vec<Hexside>,
    hexside_names: Vec<String>,
    hexsides: HashMap<(Hex, Hex), Vec<HexsideId>>,
    roads: HashSet<(Hex, Hex)>,
    trails: HashSet<(Hex, Hex)>,
    rally_points: PerSide<Vec<Hex>>,
    places: BTreeMap<Hex, String>,
    upslope: Costs,
}

/// Problems gathered while building, with a bound so that a file of
/// thousands of bad characters does not produce thousands of lines.
struct Problems(Vec<MapProblem>);

/// More than this many problems in one map are summarised by the first
/// ones: the owner fixes those and runs the check again.
const MAX_PROBLEMS: usize = 100;

impl Problems {
    fn push(&mut self, field: Field, message: impl Into<String>) {
        if self.0.len() < MAX_PROBLEMS {
            self.0.push(MapProblem::new(field, message));
        }
    }
}

/// One grid line's characters, spaces dropped (they may separate hexes
/// for legibility).
fn cells(line: &str) -> impl Iterator<Item = char> + '_ {
    line.chars().filter(|c| !c.is_whitespace())
}

impl BattleMap {
    /// Resolves the scenario's map and charts; every problem found, each
    /// naming the field (`map.terrain` row 3 column 7, `map.roads[2]` ...).
    pub fn build(scenario: &Scenario) -> Result<BattleMap, Vec<MapProblem>> {
        match Self::build_partial(scenario) {
            (Some(map), problems) if problems.is_empty() => Ok(map),
            (_, problems) => Err(problems),
        }
    }

    /// As [`build`](Self::build), but also the map as far as it could be
    /// resolved despite the problems (a hex whose character is unknown
    /// gets the chart's first terrain type, a bad hexside or road entry is
    /// left out), so that a checker can go on to the set-up and report
    /// those problems too. `None` only when the terrain chart is empty.
    pub fn build_partial(scenario: &Scenario) -> (Option<BattleMap>, Vec<MapProblem>) {
        let mut problems = Problems(Vec::new());
        let map = &scenario.map;
        for (name, value) in [("columns", map.columns), ("rows", map.rows)] {
            if !(1..=MAX_SIDE).contains(&value) {
                problems.push(
                    Field::keys("map").then(name),
                    format!("must be 1 to {MAX_SIDE}, not {value}"),
                );
            }
        }
        let (columns, rows) = (map.columns.clamp(1, MAX_SIDE), map.rows.clamp(1, MAX_SIDE));

        let terrain_names: Vec<String> = scenario.terrain.keys().cloned().collect();
        let terrains: Vec<Terrain> = scenario.terrain.values().cloned().collect();
        if terrains.is_empty() {
            problems.push(Field::key("terrain"), "the chart names no terrain type");
        }
        if terrains.len() > MAX_KINDS {
            problems.push(
                Field::key("terrain"),
                format!("at most {MAX_KINDS} terrain types, not {}", terrains.len()),
            );
        }
        let hexside_names: Vec<String> = scenario.hexside.keys().cloned().collect();
        let hexside_kinds: Vec<Hexside> = scenario.hexside.values().cloned().collect();
        if hexside_kinds.len() > MAX_KINDS {
            problems.push(
                Field::key("hexside"),
                format!(
                    "at most {MAX_KINDS} hexside kinds, not {}",
                    hexside_kinds.len()
                ),
            );
        }

        let legend = Self::legend(scenario, &terrain_names, &mut problems);
        let terrain = Self::terrain_grid(scenario, columns, rows, &legend, &mut problems);
        let levels = Self::level_grid(scenario, columns, rows, &mut problems);

        let mut built = BattleMap {
            columns,
            rows,
            terrain,
            levels,
            terrains,
            terrain_names,
            hexside_kinds,
            hexside_names,
            hexsides: HashMap::new(),
            roads: HashSet::new(),
            trails: HashSet::new(),
            rally_points: map.rally_points.clone(),
            places: map.places.clone(),
            upslope: scenario.upslope.moving,
        };
        built.hexsides = built.hexside_list(scenario, &mut problems);
        built.roads = built.paths("roads", &map.roads, &mut problems);
        built.trails = built.paths("trails", &map.trails, &mut problems);
        for (side, key) in [(Side::Union, "union"), (Side::Confederacy, "confederacy")] {
            for (i, &hex) in built.rally_points(side).iter().enumerate() {
                if !built.contains(hex) {
                    problems.push(
                        Field::keys("map.rally_points").then(key).at(i),
                        format!("rally point {hex} is off the map"),
                    );
                }
            }
        }
        for (i, point) in map.fire_points.iter().enumerate() {
            let field = Field::keys("map.fire_points").at(i);
            if !built.contains(point.at) {
                problems.push(
                    field.clone().then("at"),
                    format!("fire point {} is off the map (9.41)", point.at),
                );
            }
            if !built.on_edge(point.sight_from()) {
                let key = if point.edge.is_some() { "edge" } else { "at" };
                problems.push(
                    field.then(key),
                    format!(
                        "fire point {}'s sight starts from {}, which must be on the map's edge (9.42, B112); give `edge` when the point is inland",
                        point.id,
                        point.sight_from()
                    ),
                );
            }
        }
        for hex in built.places.keys() {
            if !built.contains(*hex) {
                problems.push(
                    Field::keys("map.places").then(&hex.to_string()),
                    format!("place {hex} is off the map"),
                );
            }
        }
        let usable = !built.terrains.is_empty();
        (usable.then_some(built), problems.0)
    }

    /// The legend, character to terrain id.
    fn legend(
        scenario: &Scenario,
        names: &[String],
        problems: &mut Problems,
    ) -> HashMap<char, TerrainId> {
        let mut legend = HashMap::new();
        for (key, id) in &scenario.map.legend {
            let field = Field::keys("map.legend").then(key);
            let mut chars = key.chars();
            let c = match (chars.next(), chars.next()) {
                (Some(c), None) if !c.is_whitespace() => c,
                _ => {
                    problems.push(field, format!("`{key}` must be one character, not a space"));
                    continue;
                }
            };
            match names.iter().position(|n| n == id) {
                Some(i) if i < MAX_KINDS => {
                    legend.insert(c, TerrainId(i as u8));
                }
                _ => problems.push(field, format!("`{id}` is not a terrain type of [terrain]")),
            }
        }
        legend
    }

    /// The terrain grid, per hex; hexes left unresolved get terrain 0 (the
    /// map is refused then anyway).
    fn terrain_grid(
        scenario: &Scenario,
        columns: u8,
        rows: u8,
        legend: &HashMap<char, TerrainId>,
        problems: &mut Problems,
    ) -> Vec<TerrainId> {
        let lines = &scenario.map.terrain;
        let mut grid = vec![TerrainId(0); usize::from(columns) * usize::from(rows)];
        if lines.len() != usize::from(rows) {
            problems.push(
                Field::keys("map.terrain"),
                format!("{} lines for {rows} rows", lines.len()),
            );
        }
        for (r, line) in lines.iter().take(usize::from(rows)).enumerate() {
            let field = Field::keys("map.terrain").at(r);
            let count = cells(line).count();
            if count != usize::from(columns) {
                problems.push(
                    field.clone(),
                    format!("row {:02} has {count} hexes for {columns} columns", r + 1),
                );
            }
            for (c, ch) in cells(line).take(usize::from(columns)).enumerate() {
                match legend.get(&ch) {
                    Some(&id) => grid[r * usize::from(columns) + c] = id,
                    None => problems.push(
                        field.clone(),
                        format!(
                            "row {:02} column {:02}: `{ch}` is not in map.legend",
                            r + 1,
                            c + 1
                        ),
                    ),
                }
            }
        }
        grid
    }

    /// The level grid, per hex: level 1 everywhere when the file gives
    /// none.
    fn level_grid(scenario: &Scenario, columns: u8, rows: u8, problems: &mut Problems) -> Vec<u8> {
        let lines = &scenario.map.levels;
        let mut grid = vec![1; usize::from(columns) * usize::from(rows)];
        if lines.is_empty() {
            return grid;
        }
        if lines.len() != usize::from(rows) {
            problems.push(
                Field::keys("map.levels"),
                format!("{} lines for {rows} rows", lines.len()),
            );
        }
        for (r, line) in lines.iter().take(usize::from(rows)).enumerate() {
            let field = Field::keys("map.levels").at(r);
            let count = cells(line).count();
            if count != usize::from(columns) {
                problems.push(
                    field.clone(),
                    format!("row {:02} has {count} hexes for {columns} columns", r + 1),
                );
            }
            for (c, ch) in cells(line).take(usize::from(columns)).enumerate() {
                match ch.to_digit(10) {
                    Some(level) => grid[r * usize::from(columns) + c] = level as u8,
                    None => problems.push(
                        field.clone(),
                        format!(
                            "row {:02} column {:02}: `{ch}` is not a level (a digit 0-9)",
                            r + 1,
                            c + 1
                        ),
                    ),
                }
            }
        }
        grid
    }

    /// Reads one hex of a whitespace-separated list, or reports why not.
    fn hex_on_map(&self, word: &str, field: &Field, problems: &mut Problems) -> Option<Hex> {
        match word.parse::<Hex>() {
            Ok(hex) if self.contains(hex) => Some(hex),
            Ok(hex) => {
                problems.push(field.clone(), format!("{hex} is off the map"));
                None
            }
            Err(e) => {
                problems.push(field.clone(), e.to_string());
                None
            }
        }
    }

    /// `map.hexsides`: `"0712 0713 fence"` entries.
    fn hexside_list(
        &self,
        scenario: &Scenario,
        problems: &mut Problems,
    ) -> HashMap<(Hex, Hex), Vec<HexsideId>> {
        let mut sides: HashMap<(Hex, Hex), Vec<HexsideId>> = HashMap::new();
        let list = &scenario.map.hexsides;
        if list.len() > MAX_LIST {
            problems.push(
                Field::keys("map.hexsides"),
                format!("at most {MAX_LIST} entries"),
            );
        }
        for (i, entry) in list.iter().take(MAX_LIST).enumerate() {
            let field = Field::keys("map.hexsides").at(i);
            let words: Vec<&str> = entry.split_whitespace().take(4).collect();
            let [a, b, kind] = words[..] else {
                problems.push(
                    field,
                    format!(
                        "`{entry}` must be two hexes and a hexside kind, as \"0712 0713 fence\""
                    ),
                );
                continue;
            };
            let a = self.hex_on_map(a, &field, problems);
            let b = self.hex_on_map(b, &field, problems);
            let id = match self.hexside_names.iter().position(|n| n == kind) {
                Some(i) if i < MAX_KINDS => Some(HexsideId(i as u8)),
                _ => {
                    problems.push(
                        field.clone(),
                        format!("`{kind}` is not a kind of [hexside]"),
                    );
                    None
                }
            };
            let (Some(a), Some(b), Some(id)) = (a, b, id) else {
                continue;
            };
            if !a.is_neighbour(b) {
                problems.push(
                    field,
                    format!("{a} and {b} are not adjacent: no hexside joins them"),
                );
                continue;
            }
            let features = sides.entry(side_key(a, b)).or_default();
            if features.contains(&id) {
                problems.push(
                    field,
                    format!("the {kind} between {a} and {b} is listed twice"),
                );
            } else {
                features.push(id);
            }
        }
        sides
    }

    /// Roads or trails: paths of adjacent hexes (5.211), as the set of
    /// hexsides they cross.
    fn paths(&self, key: &str, list: &[String], problems: &mut Problems) -> HashSet<(Hex, Hex)> {
        let mut joined = HashSet::new();
        let mut hexes_named = 0usize;
        for (i, path) in list.iter().enumerate() {
            let field = Field::keys("map").then(key).at(i);
            let mut previous: Option<Hex> = None;
            let mut count = 0usize;
            for word in path.split_whitespace() {
                hexes_named += 1;
                if hexes_named > MAX_LIST {
                    problems.push(field, format!("at most {MAX_LIST} hexes in map.{key}"));
                    return joined;
                }
                count += 1;
                let Some(hex) = self.hex_on_map(word, &field, problems) else {
                    previous = None;
                    continue;
                };
                if let Some(p) = previous {
                    if p.is_neighbour(hex) {
                        joined.insert(side_key(p, hex));
                    } else {
                        problems.push(
                            field.clone(),
                            format!(
                                "a gap between {p} and {hex}: each hex must touch the one before"
                            ),
                        );
                    }
                }
                previous = Some(hex);
            }
            if count < 2 {
                problems.push(field, "a path names at least two hexes");
            }
        }
        joined
    }

    fn index(&self, hex: Hex) -> usize {
        usize::from(hex.row() - 1) * usize::from(self.columns) + usize::from(hex.column() - 1)
    }

    /// Columns, west to east.
    pub fn columns(&self) -> u8 {
        self.columns
    }

    /// Rows, north to south.
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Whether the hex is on this map.
    pub fn contains(&self, hex: Hex) -> bool {
        hex.column() <= self.columns && hex.row() <= self.rows
    }

    /// Every hex of the map, row 01 first, west to east.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (1..=self.rows).flat_map(move |r| (1..=self.columns).filter_map(move |c| Hex::new(c, r)))
    }

    /// The hex's neighbours that are on the map.
    pub fn neighbours(&self, hex: Hex) -> impl Iterator<Item = Hex> + '_ {
        hex.neighbours().filter(move |n| self.contains(*n))
    }

    /// Whether the hex is on the map and on its edge (a neighbour of it
    /// would be off the map): entry hexes (10.1), fire points (9.41).
    pub fn on_edge(&self, hex: Hex) -> bool {
        self.contains(hex)
            && (hex.column() == 1
                || hex.row() == 1
                || hex.column() == self.columns
                || hex.row() == self.rows)
    }

    /// The hex's terrain type. The hex must be on the map.
    pub fn terrain(&self, hex: Hex) -> TerrainId {
        self.terrain[self.index(hex)]
    }

    /// The hex's terrain, from the chart. The hex must be on the map.
    pub fn terrain_of(&self, hex: Hex) -> &Terrain {
        &self.terrains[usize::from(self.terrain(hex).0)]
    }

    /// The terrain chart, by [`TerrainId`].
    pub fn terrains(&self) -> &[Terrain] {
        &self.terrains
    }

    /// The chart's key for a terrain type ("woods").
    pub fn terrain_name(&self, id: TerrainId) -> &str {
        &self.terrain_names[usize::from(id.0)]
    }

    /// The terrain type the chart names `name`, if any.
    pub fn terrain_id(&self, name: &str) -> Option<TerrainId> {
        let i = self.terrain_names.iter().position(|n| n == name)?;
        Some(TerrainId(u8::try_from(i).ok()?))
    }

    /// The hex's elevation level. The hex must be on the map.
    pub fn level(&self, hex: Hex) -> u8 {
        self.levels[self.index(hex)]
    }

    /// The features on the hexside between two adjacent hexes (a side may
    /// carry several, e.g. a fence and a stream); empty if none or not adjacent.
    pub fn hexside(&self, a: Hex, b: Hex) -> &[HexsideId] {
        self.hexsides
            .get(&side_key(a, b))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The hexside chart, by [`HexsideId`].
    pub fn hexside_kinds(&self) -> &[Hexside] {
        &self.hexside_kinds
    }

    /// The chart's key for a hexside kind ("fence").
    pub fn hexside_name(&self, id: HexsideId) -> &str {
        &self.hexside_names[usize::from(id.0)]
    }

    /// The hexside kind the chart names `name`, if any.
    pub fn hexside_id(&self, name: &str) -> Option<HexsideId> {
        let i = self.hexside_names.iter().position(|n| n == name)?;
        Some(HexsideId(u8::try_from(i).ok()?))
    }

    /// Whether a road joins the two hexes (5.211).
    pub fn road(&self, a: Hex, b: Hex) -> bool {
        self.roads.contains(&side_key(a, b))
    }

    /// Whether a trail joins the two hexes (5.211).
    pub fn trail(&self, a: Hex, b: Hex) -> bool {
        self.trails.contains(&side_key(a, b))
    }

    /// A side's rally points (6.73).
    pub fn rally_points(&self, side: Side) -> &[Hex] {
        match side {
            Side::Union => &self.rally_points.union,
            Side::Confederacy => &self.rally_points.confederacy,
        }
    }

    /// The place name of a hex, if the file gives one.
    pub fn place(&self, hex: Hex) -> Option<&str> {
        self.places.get(&hex).map(String::as_str)
    }

    /// The hex a place name stands for, if any (players may write a name
    /// instead of a hex); names compare without regard to case.
    pub fn place_hex(&self, name: &str) -> Option<Hex> {
        self.places
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(h, _)| *h)
    }

    /// What entering a higher hex costs (`upslope.moving`, 5.21).
    pub fn upslope(&self) -> &Costs {
        &self.upslope
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small scenario of our own whose map the tests vary: 4 columns, 3
    /// rows, open ground, woods and a creek.
    const BASE: &str = r#"
format = "orderly-brothers-at-war 1"
id = "test"
name = "Test"
source = "tests"
turns = 1

[map]
columns = 4
rows = 3
legend = { "." = "open", "w" = "woods", "~" = "creek" }
terrain = [
  ". . w w",
  ". ~ ~ .",
  ". . . w",
]
levels = ["1123", "1112", "1111"]
hexsides = ["0101 0102 fence", "0102 0101 wall", "0202 0302 ford"]
roads = ["0101 0201 0301 0401"]
trails = ["0103 0203"]
places = { "0202" = "Mill" }

[map.rally_points]
union = ["0101"]
confederacy = ["0403"]

[terrain.open]
name = "Open"

[terrain.woods]
name = "Woods"
woods = true
sight = "obstacle"

[terrain.creek]
name = "Creek"
river = true

[hexside.fence]
name = "Fence"

[hexside.wall]
name = "Stone wall"
cover = "heavy"

[hexside.ford]
name = "Ford"
ford = true

[activation]
spaces = ["", "countdown"]
countdown_markers = 1

[victory]
"#;

    fn scenario(edit: impl FnOnce(&mut Scenario)) -> Scenario {
        let mut s: Scenario = toml::from_str(BASE).unwrap();
        edit(&mut s);
        s
    }

    fn hex(name: &str) -> Hex {
        name.parse().unwrap()
    }

    fn problems(edit: impl FnOnce(&mut Scenario)) -> Vec<MapProblem> {
        BattleMap::build(&scenario(edit)).unwrap_err()
    }

    #[test]
    fn the_base_map_resolves_per_hex() {
        let map = BattleMap::build(&scenario(|_| {})).unwrap();
        assert_eq!((map.columns(), map.rows()), (4, 3));
        let hexes: Vec<String> = map.hexes().map(|h| h.to_string()).collect();
        assert_eq!(hexes[..5], ["0101", "0201", "0301", "0401", "0102"]);
        assert_eq!(hexes.len(), 12);
        assert_eq!(map.terrain_name(map.terrain(hex("0301"))), "woods");
        assert!(map.terrain_of(hex("0202")).river);
        assert!(!map.terrain_of(hex("0101")).river);
        assert_eq!(map.terrain_id("creek"), Some(map.terrain(hex("0302"))));
        assert_eq!(map.level(hex("0401")), 3);
        assert_eq!(map.level(hex("0103")), 1);
        assert_eq!(map.place(hex("0202")), Some("Mill"));
        assert_eq!(map.place_hex("mill"), Some(hex("0202")));
        assert_eq!(map.place(hex("0203")), None);
        assert_eq!(map.rally_points(Side::Confederacy), [hex("0403")]);
        assert!(map.on_edge(hex("0101")) && map.on_edge(hex("0402")));
        assert!(!map.on_edge(hex("0202")) && !map.on_edge(hex("0505")));
        assert!(!map.contains(hex("0501")) && !map.contains(hex("0104")));
        let mut n: Vec<String> = map.neighbours(hex("0101")).map(|h| h.to_string()).collect();
        n.sort();
        assert_eq!(n, ["0102", "0201", "0202"]);
    }

    #[test]
    fn levels_default_to_one() {
        let map = BattleMap::build(&scenario(|s| s.map.levels.clear())).unwrap();
        assert!(map.hexes().all(|h| map.level(h) == 1));
    }

    #[test]
    fn lookups_are_symmetric() {
        let map = BattleMap::build(&scenario(|_| {})).unwrap();
        let (a, b) = (hex("0101"), hex("0102"));
        let names = |ids: &[HexsideId]| {
            let mut v: Vec<&str> = ids.iter().map(|&i| map.hexside_name(i)).collect();
            v.sort();
            v
        };
        assert_eq!(names(map.hexside(a, b)), ["fence", "wall"]);
        assert_eq!(names(map.hexside(b, a)), ["fence", "wall"]);
        let ford = map.hexside(hex("0302"), hex("0202"));
        assert_eq!(ford, map.hexside(hex("0202"), hex("0302")));
        assert!(map.hexside_kinds()[usize::from(ford[0].0)].ford);
        assert!(map.hexside(hex("0201"), hex("0202")).is_empty());
        assert!(map.hexside(hex("0101"), hex("0401")).is_empty());
        assert!(map.road(hex("0201"), hex("0301")) && map.road(hex("0301"), hex("0201")));
        assert!(!map.road(hex("0101"), hex("0301")));
        assert!(!map.road(hex("0101"), hex("0102")));
        assert!(map.trail(hex("0203"), hex("0103")) && map.trail(hex("0103"), hex("0203")));
        assert!(!map.trail(hex("0101"), hex("0201")));
    }

    fn messages(found: &[MapProblem]) -> Vec<String> {
        found.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn grids_of_the_wrong_size_are_problems() {
        let found = problems(|s| s.map.terrain[1] = ". ~ ~".into());
        assert_eq!(
            messages(&found),
            ["map.terrain[1]: row 02 has 3 hexes for 4 columns"]
        );
        let found = problems(|s| {
            s.map.terrain.pop();
        });
        assert_eq!(messages(&found), ["map.terrain: 2 lines for 3 rows"]);
        let found = problems(|s| s.map.levels[2] = "11111".into());
        assert_eq!(
            messages(&found),
            ["map.levels[2]: row 03 has 5 hexes for 4 columns"]
        );
        let found = problems(|s| s.map.columns = 0);
        assert!(found.iter().any(|p| p.field.to_string() == "map.columns"));
        let found = problems(|s| s.map.rows = 100);
        assert!(found.iter().any(|p| p.field.to_string() == "map.rows"));
    }

    #[test]
    fn unknown_legend_characters_and_ids_are_problems() {
        let found = problems(|s| s.map.terrain[2] = ". x . w".into());
        assert_eq!(
            messages(&found),
            ["map.terrain[2]: row 03 column 02: `x` is not in map.legend"]
        );
        let found = problems(|s| {
            s.map.legend.insert("o".into(), "orchard".into());
        });
        assert_eq!(
            messages(&found),
            ["map.legend.o: `orchard` is not a terrain type of [terrain]"]
        );
        let found = problems(|s| {
            s.map.legend.insert("ab".into(), "open".into());
        });
        assert_eq!(found[0].field.to_string(), "map.legend.ab");
        let found = problems(|s| s.map.levels[0] = "11x3".into());
        assert_eq!(found[0].field.to_string(), "map.levels[0]");
    }

    #[test]
    fn hexsides_must_join_adjacent_hexes_of_known_kinds() {
        let found = problems(|s| s.map.hexsides.push("0101 0103 fence".into()));
        assert_eq!(
            messages(&found),
            ["map.hexsides[3]: 0101 and 0103 are not adjacent: no hexside joins them"]
        );
        let found = problems(|s| s.map.hexsides.push("0101 0201 hedge".into()));
        assert_eq!(
            messages(&found),
            ["map.hexsides[3]: `hedge` is not a kind of [hexside]"]
        );
        let found = problems(|s| s.map.hexsides.push("0102 0101 fence".into()));
        assert_eq!(
            messages(&found),
            ["map.hexsides[3]: the fence between 0102 and 0101 is listed twice"]
        );
        let found = problems(|s| s.map.hexsides.push("0401 0501 fence".into()));
        assert_eq!(messages(&found), ["map.hexsides[3]: 0501 is off the map"]);
        let found = problems(|s| s.map.hexsides.push("0101 fence".into()));
        assert_eq!(found[0].field.to_string(), "map.hexsides[3]");
    }

    #[test]
    fn roads_and_trails_must_not_have_gaps() {
        let found = problems(|s| s.map.roads.push("0101 0102 0104".into()));
        assert!(messages(&found)[0].starts_with("map.roads[1]: 0104 is off the map"));
        let found = problems(|s| s.map.roads.push("0101 0102 0302".into()));
        assert_eq!(
            messages(&found),
            ["map.roads[1]: a gap between 0102 and 0302: each hex must touch the one before"]
        );
        let found = problems(|s| s.map.trails[0] = "0103".into());
        assert_eq!(
            messages(&found),
            ["map.trails[0]: a path names at least two hexes"]
        );
    }

    #[test]
    fn points_and_places_off_the_map_are_problems() {
        let found = problems(|s| s.map.rally_points.union.push(hex("0505")));
        assert_eq!(
            messages(&found),
            ["map.rally_points.union[1]: rally point 0505 is off the map"]
        );
        let found = problems(|s| {
            s.map.places.insert(hex("0909"), "Far".into());
        });
        assert_eq!(
            messages(&found),
            ["map.places.0909: place 0909 is off the map"]
        );
        let found = problems(|s| {
            s.map
                .fire_points
                .push(crate::games::brothers_at_war::scenario::model::FirePoint {
                    id: "A".into(),
                    at: hex("0202"),
                    edge: None,
                    range: 4,
                })
        });
        assert_eq!(found[0].field.to_string(), "map.fire_points[0].at");
        let inland = |edge: &str| crate::games::brothers_at_war::scenario::model::FirePoint {
            id: "A".into(),
            at: hex("0202"),
            edge: Some(hex(edge)),
            range: 4,
        };
        assert!(BattleMap::build(&scenario(|s| s.map.fire_points.push(inland("0402")))).is_ok());
        let found = problems(|s| s.map.fire_points.push(inland("0202")));
        assert_eq!(found[0].field.to_string(), "map.fire_points[0].edge");
    }

    #[test]
    fn a_partial_map_survives_its_problems() {
        let (map, found) = BattleMap::build_partial(&scenario(|s| {
            s.map.terrain[0] = ". . w x".into();
        }));
        let map = map.unwrap();
        assert_eq!(found.len(), 1);
        assert!(map.contains(hex("0403")) && !map.contains(hex("0503")));
        assert_eq!(map.terrain_name(map.terrain(hex("0301"))), "woods");
        let (map, _) = BattleMap::build_partial(&scenario(|s| s.terrain.clear()));
        assert!(map.is_none());
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let found = problems(|s| {
            s.map.terrain[0] = ". . w x".into();
            s.map.roads.push("0101 0103".into());
            s.map.rally_points.confederacy.push(hex("0404"));
        });
        assert_eq!(found.len(), 3, "{found:?}");
    }
}
