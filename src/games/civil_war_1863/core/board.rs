//! The board of the Civil War Game 1863 as data, and the questions the
//! rules ask of it.
//!
//! The printed board is unpublished: the standard board is the
//! reconstruction in `data/civil-war-1863-board.txt` (see
//! [`RECONSTRUCTION_NOTE`]). The rules are written against what a square
//! holds and what the data joins (water joins, rail steps, passes), so a
//! transcription of the printed board, in the same format, replaces it
//! without touching the rules ([`Board::parse`]).

use std::collections::BTreeSet;
use std::sync::{LazyLock, OnceLock};

use super::features::{Capital, City, Pass, RailLine, RailSection, StartCircle, Water, WaterKind};
use super::side::Side;
use super::square::{Square, SQUARE_COUNT};
use super::terrain::Terrain;

/// The plain statement every file, page and invitation about this board
/// makes.
pub const RECONSTRUCTION_NOTE: &str = "The printed board of the Parker Brothers \
Civil War Game 1863 has never been published. The board used here is a \
reconstruction from the public geography of 1863, not a copy of the printed \
board. An owner of the game can replace it with a transcription of theirs \
(data/civil-war-1863-board.txt; docs/civil-war-1863-board.md says how).";

/// The standard board's file, compiled into the binary.
pub const STANDARD_TEXT: &str = include_str!("../../../../data/civil-war-1863-board.txt");

static STANDARD: LazyLock<Board> = LazyLock::new(|| {
    Board::parse(STANDARD_TEXT).unwrap_or_else(|e| panic!("data/civil-war-1863-board.txt: {e}"))
});

/// A whole board: terrain, waters, passes, railroads, cities, capitals and
/// start circles, with the joins and sections the rules read from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub(super) terrain: Vec<Terrain>,
    pub(super) waters: Vec<Water>,
    pub(super) passes: Vec<Pass>,
    pub(super) lines: Vec<RailLine>,
    pub(super) cities: Vec<City>,
    pub(super) key_cities: Vec<(Side, Square)>,
    pub(super) capitals: Vec<Capital>,
    pub(super) start: Vec<StartCircle>,
    water_joins: BTreeSet<(Square, Square)>,
    rail_steps: BTreeSet<(Square, Square)>,
    /// Per square, the directions ([`Square::direction_to`]) a gunboat may
    /// step to (the joins above, read in one look).
    water_dirs: Vec<u8>,
    /// Per square, the directions of its rail steps.
    rail_dirs: Vec<u8>,
    sections: Vec<RailSection>,
    section_of: Vec<Option<usize>>,
    rail: Vec<bool>,
    water: Vec<bool>,
    city_at: Vec<Option<usize>>,
    steps: StepTable,
}

/// Per square, for each mix of piece kinds, the directions
/// ([`Square::direction_to`]) a group of that mix may step to: worked out
/// by the engine from its rules on first use, since a playout asks it for
/// every path of every group it lists. It follows from the rest of the
/// board, so it takes no part in comparing boards.
#[derive(Clone, Default)]
pub(crate) struct StepTable(OnceLock<Box<[[u8; 8]]>>);

impl PartialEq for StepTable {
    fn eq(&self, _: &StepTable) -> bool {
        true
    }
}

impl Eq for StepTable {}

impl std::fmt::Debug for StepTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StepTable")
    }
}

/// A pair of squares in a fixed order, so that a join is found either way.
fn pair(a: Square, b: Square) -> (Square, Square) {
    (a.min(b), a.max(b))
}

/// The joins as eight direction bits per square, both ways.
fn direction_bits(joins: &BTreeSet<(Square, Square)>) -> Vec<u8> {
    let mut bits = vec![0u8; SQUARE_COUNT];
    for &(a, b) in joins {
        if let (Some(ab), Some(ba)) = (a.direction_to(b), b.direction_to(a)) {
            bits[a.index()] |= 1 << ab;
            bits[b.index()] |= 1 << ba;
        }
    }
    bits
}

/// Whether `joins` (in [`direction_bits`] form, or as pairs for squares
/// that are not neighbours) join `a` and `b`.
fn joined(bits: &[u8], joins: &BTreeSet<(Square, Square)>, a: Square, b: Square) -> bool {
    match a.direction_to(b) {
        Some(d) => bits[a.index()] & (1 << d) != 0,
        None => joins.contains(&pair(a, b)),
    }
}

impl Board {
    /// The standard board: the reconstruction (see [`RECONSTRUCTION_NOTE`]).
    pub fn standard() -> &'static Board {
        &STANDARD
    }

    /// A board from what a board file lists, checked by the parser; the
    /// joins and sections follow from it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn assemble(
        terrain: Vec<Terrain>,
        waters: Vec<Water>,
        passes: Vec<Pass>,
        lines: Vec<RailLine>,
        cities: Vec<City>,
        key_cities: Vec<(Side, Square)>,
        capitals: Vec<Capital>,
        start: Vec<StartCircle>,
    ) -> Board {
        assert_eq!(terrain.len(), SQUARE_COUNT);
        let mut water_joins = BTreeSet::new();
        for water in &waters {
            match water.kind {
                WaterKind::River => {
                    for w in water.squares.windows(2) {
                        water_joins.insert(pair(w[0], w[1]));
                    }
                }
                WaterKind::Sea => {
                    for (i, &a) in water.squares.iter().enumerate() {
                        for &b in &water.squares[i + 1..] {
                            if a.is_neighbour(b) {
                                water_joins.insert(pair(a, b));
                            }
                        }
                    }
                }
            }
        }
        let rail_steps: BTreeSet<_> = lines
            .iter()
            .flat_map(|l| l.squares.windows(2).map(|w| pair(w[0], w[1])))
            .collect();
        let mut rail = vec![false; SQUARE_COUNT];
        for sq in lines.iter().flat_map(|l| &l.squares) {
            rail[sq.index()] = true;
        }
        let water = Square::all()
            .map(|sq| {
                terrain[sq.index()].holds_sea() || waters.iter().any(|w| w.squares.contains(&sq))
            })
            .collect();
        let mut city_at = vec![None; SQUARE_COUNT];
        for (i, c) in cities.iter().enumerate() {
            city_at[c.square.index()] = Some(i);
        }
        let mut board = Board {
            terrain,
            waters,
            passes,
            lines,
            cities,
            key_cities,
            capitals,
            start,
            water_dirs: direction_bits(&water_joins),
            rail_dirs: direction_bits(&rail_steps),
            water_joins,
            rail_steps,
            sections: Vec::new(),
            section_of: vec![None; SQUARE_COUNT],
            rail,
            water,
            city_at,
            steps: StepTable::default(),
        };
        board.find_sections();
        board
    }

    /// P16: the railroad squares that are not cities, grouped by the rail
    /// steps that join them without passing through a city.
    fn find_sections(&mut self) {
        for start in Square::all() {
            if !self.is_rail(start)
                || self.is_city(start)
                || self.section_of[start.index()].is_some()
            {
                continue;
            }
            let id = self.sections.len();
            let (mut squares, mut cities) = (Vec::new(), BTreeSet::new());
            let mut todo = vec![start];
            self.section_of[start.index()] = Some(id);
            while let Some(sq) = todo.pop() {
                squares.push(sq);
                for next in self.rail_neighbours(sq).collect::<Vec<_>>() {
                    if self.is_city(next) {
                        cities.insert(next);
                    } else if self.section_of[next.index()].is_none() {
                        self.section_of[next.index()] = Some(id);
                        todo.push(next);
                    }
                }
            }
            squares.sort();
            self.sections.push(RailSection {
                squares,
                cities: cities.into_iter().collect(),
            });
        }
    }

    /// What the square's ground holds.
    pub fn terrain(&self, sq: Square) -> Terrain {
        self.terrain[sq.index()]
    }

    /// Whether the square holds any land, so ground pieces may use it (P1).
    pub fn holds_land(&self, sq: Square) -> bool {
        self.terrain(sq).holds_land()
    }

    /// Whether the square holds water and no land (P1): only gunboats and
    /// infantry aboard them may stand there (P13).
    pub fn is_water_only(&self, sq: Square) -> bool {
        !self.holds_land(sq)
    }

    /// Whether the square holds any water, sea or river, so a gunboat may
    /// stand there (P12). Every water the board draws is navigable (P1).
    pub fn holds_water(&self, sq: Square) -> bool {
        self.water[sq.index()]
    }

    /// Whether a river runs through the square.
    pub fn holds_river(&self, sq: Square) -> bool {
        self.waters_at(sq).any(|w| w.kind == WaterKind::River)
    }

    /// The seas and rivers the square holds.
    pub fn waters_at(&self, sq: Square) -> impl Iterator<Item = &Water> + '_ {
        self.waters.iter().filter(move |w| w.squares.contains(&sq))
    }

    /// Every sea and river, as the file lists them.
    pub fn waters(&self) -> &[Water] {
        &self.waters
    }

    /// Whether a gunboat may step between these neighbours: their waters
    /// connect (P3).
    pub fn water_joined(&self, a: Square, b: Square) -> bool {
        joined(&self.water_dirs, &self.water_joins, a, b)
    }

    /// The table of each square's steps by mix of kinds, filled with
    /// `work_out` the first time it is asked for.
    pub(crate) fn steps(&self, work_out: impl FnOnce() -> Box<[[u8; 8]]>) -> &[[u8; 8]] {
        self.steps.0.get_or_init(work_out)
    }

    /// The squares a gunboat may step to from `sq` (P3).
    pub fn water_neighbours(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        sq.neighbours().filter(move |&n| self.water_joined(sq, n))
    }

    /// Whether the square holds any mountain (P5).
    pub fn holds_mountains(&self, sq: Square) -> bool {
        self.terrain(sq).holds_mountains()
    }

    /// Every pass, as the file lists them.
    pub fn passes(&self) -> &[Pass] {
        &self.passes
    }

    /// The pass that is the diagonal step between `a` and `b`, if the board
    /// marks one (P6).
    pub fn pass_between(&self, a: Square, b: Square) -> Option<&Pass> {
        self.passes.iter().find(|p| p.joins(a, b))
    }

    /// Whether the step between these diagonal neighbours crosses a corner
    /// where the range runs on: both flanking squares hold mountains (P6).
    pub fn mountain_corner(&self, a: Square, b: Square) -> bool {
        a.flanks(b)
            .is_some_and(|f| f.iter().all(|&s| self.holds_mountains(s)))
    }

    /// Every railroad line, as the file lists them.
    pub fn rail_lines(&self) -> &[RailLine] {
        &self.lines
    }

    /// Whether a railroad runs through the square.
    pub fn is_rail(&self, sq: Square) -> bool {
        self.rail[sq.index()]
    }

    /// Whether `a` and `b` are next to each other along one railroad line:
    /// a rail step (P15), also the step of a march along the bed (P5).
    pub fn rail_step(&self, a: Square, b: Square) -> bool {
        joined(&self.rail_dirs, &self.rail_steps, a, b)
    }

    /// The squares one rail step from `sq`.
    pub fn rail_neighbours(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        sq.neighbours().filter(move |&n| self.rail_step(sq, n))
    }

    /// Every section of track (P16), in board order of their first square.
    pub fn sections(&self) -> &[RailSection] {
        &self.sections
    }

    /// The number of the section (an index into [`Board::sections`]) the
    /// square belongs to; `None` off the railroads and on cities, which
    /// belong to no section.
    pub fn section_of(&self, sq: Square) -> Option<usize> {
        self.section_of[sq.index()]
    }

    /// Every city, as the file lists them.
    pub fn cities(&self) -> &[City] {
        &self.cities
    }

    /// The city on the square, if any (P4).
    pub fn city(&self, sq: Square) -> Option<&City> {
        self.city_at[sq.index()].map(|i| &self.cities[i])
    }

    /// Whether the square is a city (P4).
    pub fn is_city(&self, sq: Square) -> bool {
        self.city(sq).is_some()
    }

    /// The city with this name (any case).
    pub fn city_named(&self, name: &str) -> Option<&City> {
        self.cities
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Whose key city the square is, if it is one: the side that loses
    /// pieces when the other captures it (P27).
    pub fn key_city_side(&self, sq: Square) -> Option<Side> {
        self.key_cities
            .iter()
            .find(|&&(_, s)| s == sq)
            .map(|&(side, _)| side)
    }

    /// The key cities of a side, as the file lists them.
    pub fn key_cities(&self, side: Side) -> impl Iterator<Item = Square> + '_ {
        self.key_cities
            .iter()
            .filter(move |&&(s, _)| s == side)
            .map(|&(_, sq)| sq)
    }

    /// Every capital.
    pub fn capitals(&self) -> &[Capital] {
        &self.capitals
    }

    /// The capital on the square, if any (P29).
    pub fn capital(&self, sq: Square) -> Option<&Capital> {
        self.capitals.iter().find(|c| c.square == sq)
    }

    /// The side's capital; the parser makes sure each side has one.
    pub fn capital_of(&self, side: Side) -> &Capital {
        self.capitals
            .iter()
            .find(|c| c.side == side)
            .expect("a parsed board has a capital per side")
    }

    /// Every start circle, as the file lists them.
    pub fn start_circles(&self) -> &[StartCircle] {
        &self.start
    }

    /// The start circles of one side.
    pub fn start_circles_of(&self, side: Side) -> impl Iterator<Item = &StartCircle> + '_ {
        self.start.iter().filter(move |c| c.side == side)
    }
}
