//! The SQUARES board, derived from its rectangles.
//!
//! The 32 spaces come from `data/squares-board.csv`, a copy of the rectangle
//! table in squares-board.md. Everything else (which spaces touch along an
//! edge, which only at a corner, which is closer to a reserve) is computed
//! from those rectangles when the board is first used, so the geometry has
//! one source and no hand-typed adjacency list.

use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::unit::Side;

/// The board data, compiled into the binary.
const BOARD_CSV: &str = include_str!("../../../../data/squares-board.csv");

/// One of the 32 spaces, numbered in the order of the board file (by depth,
/// Blue's reserve first, west to east within a rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Space(u8);

impl Space {
    /// The space with this number (0..32).
    ///
    /// # Panics
    /// When `index` is 32 or more.
    pub fn new(index: usize) -> Space {
        assert!(index < SPACE_COUNT, "space index {index} out of range");
        Space(index as u8)
    }

    /// The space's number, 0..32.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The space whose board code is `code` (any case), such as `B1CR`,
    /// `G1C` or `BR`: the codes of the board's map, which the Civil War
    /// notation writes unchanged (a game's own codes are read by
    /// `Space::read`).
    pub fn from_code(code: &str) -> Option<Space> {
        board()
            .codes
            .iter()
            .position(|c| c.eq_ignore_ascii_case(code))
            .map(|i| Space(i as u8))
    }

    /// The space's code on the board's map, such as `G1CR`, whatever the
    /// notation (`Space::display_in` writes it in a game's own).
    pub fn code(self) -> &'static str {
        board().codes[self.index()]
    }

    /// This space as a one-element set.
    pub fn set(self) -> SpaceSet {
        SpaceSet(1 << self.0)
    }

    /// Every space, in board order.
    pub fn all() -> impl Iterator<Item = Space> {
        (0..SPACE_COUNT as u8).map(Space)
    }
}

/// Written as its board code (`G1C`), as the Civil War notation writes it.
impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Serialised as its board code, read back by [`Space::from_code`].
impl Serialize for Space {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Space {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Space, D::Error> {
        let code = String::deserialize(deserializer)?;
        Space::from_code(&code)
            .ok_or_else(|| serde::de::Error::custom(format!("no square {code:?}")))
    }
}

/// How many spaces the board has.
pub const SPACE_COUNT: usize = 32;

/// A set of spaces as 32 bits, one per space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpaceSet(pub u32);

impl SpaceSet {
    /// No space.
    pub const EMPTY: SpaceSet = SpaceSet(0);

    /// Whether `space` is in the set.
    #[inline]
    pub fn contains(self, space: Space) -> bool {
        self.0 & (1 << space.0) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many spaces are in the set.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The lowest-numbered space of the set.
    #[inline]
    pub fn first(self) -> Option<Space> {
        if self.0 == 0 {
            None
        } else {
            Some(Space(self.0.trailing_zeros() as u8))
        }
    }

    /// The space of the set at `n` counting from the lowest (0 for the
    /// lowest), if the set has that many.
    #[inline]
    pub fn nth_space(self, n: usize) -> Option<Space> {
        let mut bits = self.0;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        SpaceSet(bits).first()
    }

    /// The spaces of the set, lowest number first.
    #[inline]
    pub fn iter(self) -> SpaceSetIter {
        SpaceSetIter(self.0)
    }
}

impl std::ops::BitOr for SpaceSet {
    type Output = SpaceSet;
    #[inline]
    fn bitor(self, rhs: SpaceSet) -> SpaceSet {
        SpaceSet(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for SpaceSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: SpaceSet) {
        self.0 |= rhs.0;
    }
}

impl std::ops::BitAnd for SpaceSet {
    type Output = SpaceSet;
    #[inline]
    fn bitand(self, rhs: SpaceSet) -> SpaceSet {
        SpaceSet(self.0 & rhs.0)
    }
}

impl std::ops::BitAndAssign for SpaceSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: SpaceSet) {
        self.0 &= rhs.0;
    }
}

impl std::ops::Not for SpaceSet {
    type Output = SpaceSet;
    #[inline]
    fn not(self) -> SpaceSet {
        SpaceSet(!self.0)
    }
}

impl IntoIterator for SpaceSet {
    type Item = Space;
    type IntoIter = SpaceSetIter;
    fn into_iter(self) -> SpaceSetIter {
        self.iter()
    }
}

/// Iterator over a [`SpaceSet`], lowest number first.
#[derive(Clone, Debug)]
pub struct SpaceSetIter(u32);

impl Iterator for SpaceSetIter {
    type Item = Space;
    #[inline]
    fn next(&mut self) -> Option<Space> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Space(i as u8))
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SpaceSetIter {}

/// What a space is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// A clear square: holds one unit, open to every move.
    Clear,
    /// A forest square: holds one unit; entry is restricted (R5, R11).
    Forest,
    /// A side's reserve area: holds any number of that side's units.
    Reserve(Side),
}

/// A rectangle in quarter inches (every board measure is a multiple of 0.25").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// West edge.
    pub x_from: i32,
    /// East edge.
    pub x_to: i32,
    /// Edge towards Blue's reserve.
    pub y_from: i32,
    /// Edge towards Gray's reserve.
    pub y_to: i32,
}

/// The board: the spaces and their geometry, derived once from the data file.
#[derive(Debug)]
pub struct Board {
    codes: Vec<&'static str>,
    rects: Vec<Rect>,
    terrain: Vec<Terrain>,
    edge: [SpaceSet; SPACE_COUNT],
    corner: [SpaceSet; SPACE_COUNT],
    /// `edge | corner` per space, read on every move and attack.
    adjacent: [SpaceSet; SPACE_COUNT],
    /// The union of `edge` over a set, a byte of the set at a time: the
    /// front (R14) and similar unions take four look-ups, not a walk over
    /// up to sixteen squares.
    edge_union: [[SpaceSet; 256]; 4],
    /// The union of `adjacent` the same way (R11a's second step, R16's pins).
    adjacent_union: [[SpaceSet; 256]; 4],
    closer: [[SpaceSet; SPACE_COUNT]; 2],
    reserve: [Space; 2],
    forests: SpaceSet,
    reserves: SpaceSet,
}

static BOARD: LazyLock<Board> =
    LazyLock::new(|| Board::from_csv(BOARD_CSV).expect("data/squares-board.csv is valid"));

/// The SQUARES board.
#[inline]
pub fn board() -> &'static Board {
    &BOARD
}

impl Board {
    /// Reads the board from the CSV format of `data/squares-board.csv`.
    pub fn from_csv(text: &'static str) -> Result<Board, String> {
        let mut codes = Vec::new();
        let mut rects = Vec::new();
        let mut terrain = Vec::new();
        let mut lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        let header = lines.next().ok_or("empty board file")?;
        if header != "code,x_from,x_to,y_from,y_to,kind" {
            return Err(format!("unexpected header {header:?}"));
        }
        for line in lines {
            let f: Vec<&'static str> = line.split(',').collect();
            if f.len() != 6 {
                return Err(format!("expected 6 fields: {line:?}"));
            }
            let q = |s: &str| -> Result<i32, String> {
                let v: f64 = s.parse().map_err(|_| format!("bad number {s:?}"))?;
                let quarters = v * 4.0;
                if quarters.fract() != 0.0 {
                    return Err(format!("{s} is not a multiple of a quarter inch"));
                }
                Ok(quarters as i32)
            };
            codes.push(f[0]);
            rects.push(Rect {
                x_from: q(f[1])?,
                x_to: q(f[2])?,
                y_from: q(f[3])?,
                y_to: q(f[4])?,
            });
            terrain.push(match f[5] {
                "clear" => Terrain::Clear,
                "forest" => Terrain::Forest,
                "blue-reserve" => Terrain::Reserve(Side::Blue),
                "gray-reserve" => Terrain::Reserve(Side::Gray),
                other => return Err(format!("unknown kind {other:?}")),
            });
        }
        if codes.len() != SPACE_COUNT {
            return Err(format!(
                "expected {SPACE_COUNT} spaces, found {}",
                codes.len()
            ));
        }
        let n = SPACE_COUNT;
        let mut edge = [SpaceSet::EMPTY; SPACE_COUNT];
        let mut corner = [SpaceSet::EMPTY; SPACE_COUNT];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let (a, b) = (rects[i], rects[j]);
                let x_overlap = a.x_to.min(b.x_to) - a.x_from.max(b.x_from);
                let y_overlap = a.y_to.min(b.y_to) - a.y_from.max(b.y_from);
                if (x_overlap == 0 && y_overlap > 0) || (y_overlap == 0 && x_overlap > 0) {
                    edge[i] |= Space(j as u8).set();
                } else if x_overlap == 0 && y_overlap == 0 {
                    corner[i] |= Space(j as u8).set();
                }
            }
        }
        // Twice the depth of the centre: an integer, and only comparisons matter.
        let depth2: Vec<i32> = rects.iter().map(|r| r.y_from + r.y_to).collect();
        let mut closer = [[SpaceSet::EMPTY; SPACE_COUNT]; 2];
        for i in 0..n {
            for j in 0..n {
                if depth2[j] < depth2[i] {
                    closer[Side::Blue.index()][i] |= Space(j as u8).set();
                }
                if depth2[j] > depth2[i] {
                    closer[Side::Gray.index()][i] |= Space(j as u8).set();
                }
            }
        }
        let find_reserve = |side: Side| {
            terrain
                .iter()
                .position(|t| *t == Terrain::Reserve(side))
                .map(|i| Space(i as u8))
                .ok_or(format!("no reserve for {side:?}"))
        };
        let reserve = [find_reserve(Side::Blue)?, find_reserve(Side::Gray)?];
        let forests = SpaceSet(
            (0..n)
                .filter(|&i| terrain[i] == Terrain::Forest)
                .fold(0, |m, i| m | 1 << i),
        );
        let reserves = reserve[0].set() | reserve[1].set();
        let mut adjacent = [SpaceSet::EMPTY; SPACE_COUNT];
        for i in 0..n {
            adjacent[i] = edge[i] | corner[i];
        }
        let unions = |of: &[SpaceSet; SPACE_COUNT]| {
            let mut table = [[SpaceSet::EMPTY; 256]; 4];
            for (byte, row) in table.iter_mut().enumerate() {
                for (bits, union) in row.iter_mut().enumerate() {
                    for bit in 0..8 {
                        if bits & (1 << bit) != 0 {
                            *union |= of[8 * byte + bit];
                        }
                    }
                }
            }
            table
        };
        let edge_union = unions(&edge);
        let adjacent_union = unions(&adjacent);
        Ok(Board {
            codes,
            rects,
            terrain,
            edge,
            corner,
            adjacent,
            edge_union,
            adjacent_union,
            closer,
            reserve,
            forests,
            reserves,
        })
    }

    /// Spaces sharing a boundary segment of positive length with `s`.
    #[inline]
    pub fn edge(&self, s: Space) -> SpaceSet {
        self.edge[s.index()]
    }

    /// Spaces touching `s` at a single point only (the "diagonals").
    #[inline]
    pub fn corner(&self, s: Space) -> SpaceSet {
        self.corner[s.index()]
    }

    /// Spaces touching `s` at an edge or a corner.
    #[inline]
    pub fn adjacent(&self, s: Space) -> SpaceSet {
        self.adjacent[s.index()]
    }

    /// Spaces sharing an edge with some space of `set`.
    #[inline]
    pub fn edge_of(&self, set: SpaceSet) -> SpaceSet {
        Self::union_of(&self.edge_union, set)
    }

    /// Spaces touching some space of `set` at an edge or a corner.
    #[inline]
    pub fn adjacent_of(&self, set: SpaceSet) -> SpaceSet {
        Self::union_of(&self.adjacent_union, set)
    }

    #[inline]
    fn union_of(table: &[[SpaceSet; 256]; 4], set: SpaceSet) -> SpaceSet {
        let [b0, b1, b2, b3] = set.0.to_le_bytes();
        table[0][b0 as usize]
            | table[1][b1 as usize]
            | table[2][b2 as usize]
            | table[3][b3 as usize]
    }

    /// Spaces strictly closer to `side`'s reserve than `s` (by the depth of
    /// their centres; the reserve itself is closer than everything).
    #[inline]
    pub fn closer(&self, side: Side, s: Space) -> SpaceSet {
        self.closer[side.index()][s.index()]
    }

    /// `side`'s reserve area.
    #[inline]
    pub fn reserve(&self, side: Side) -> Space {
        self.reserve[side.index()]
    }

    /// Both reserve areas.
    #[inline]
    pub fn reserves(&self) -> SpaceSet {
        self.reserves
    }

    /// The six forest squares.
    #[inline]
    pub fn forests(&self) -> SpaceSet {
        self.forests
    }

    /// Whether `s` is a forest.
    #[inline]
    pub fn is_forest(&self, s: Space) -> bool {
        self.forests.contains(s)
    }

    /// What `s` is.
    pub fn terrain(&self, s: Space) -> Terrain {
        self.terrain[s.index()]
    }

    /// `s` as a rectangle in quarter inches.
    pub fn rect(&self, s: Space) -> Rect {
        self.rects[s.index()]
    }

    /// The reserve's owner when `s` is a reserve.
    #[inline]
    pub fn reserve_owner(&self, s: Space) -> Option<Side> {
        match self.terrain[s.index()] {
            Terrain::Reserve(side) => Some(side),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{board, Space, SpaceSet, Terrain};
    use crate::games::squares::core::unit::Side;

    fn pairs(f: impl Fn(Space) -> SpaceSet) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for a in Space::all() {
            for b in f(a) {
                if a < b {
                    out.push((a.code().to_string(), b.code().to_string()));
                }
            }
        }
        out
    }

    #[test]
    fn there_are_79_edge_pairs() {
        assert_eq!(pairs(|s| board().edge(s)).len(), 79);
    }

    #[test]
    fn the_8_corner_pairs_are_the_listed_ones() {
        let mut found = pairs(|s| board().corner(s));
        found.sort();
        let mut listed: Vec<(String, String)> = [
            ("B1R", "G1CL"),
            ("B1CR", "G1L"),
            ("B1CR", "G1C"),
            ("B1C", "G1CL"),
            ("B1C", "G1CR"),
            ("B1CL", "G1C"),
            ("B1CL", "G1R"),
            ("B1L", "G1CR"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        listed.sort();
        assert_eq!(found, listed);
    }

    #[test]
    fn unions_by_table_are_the_unions_space_by_space() {
        let b = board();
        let mut bits = 0x9E37_79B9u32;
        for _ in 0..2000 {
            bits ^= bits << 13;
            bits ^= bits >> 17;
            bits ^= bits << 5;
            for set in [
                SpaceSet(bits),
                SpaceSet(bits & bits >> 7),
                SpaceSet(bits & 0xFF),
            ] {
                let mut edge = SpaceSet::EMPTY;
                let mut adjacent = SpaceSet::EMPTY;
                for s in set {
                    edge |= b.edge(s);
                    adjacent |= b.edge(s) | b.corner(s);
                }
                assert_eq!(b.edge_of(set), edge);
                assert_eq!(b.adjacent_of(set), adjacent);
            }
        }
    }

    #[test]
    fn adjacency_is_symmetric() {
        let b = board();
        for a in Space::all() {
            for c in b.adjacent(a) {
                assert!(b.adjacent(c).contains(a), "{a} ~ {c}");
            }
        }
    }

    #[test]
    fn each_reserve_touches_exactly_its_own_row_3() {
        let names = |set: SpaceSet| set.iter().map(|s| s.code()).collect::<Vec<_>>();
        let b = board();
        assert_eq!(
            names(b.adjacent(b.reserve(Side::Blue))),
            ["B3R", "B3C", "B3L"]
        );
        assert_eq!(
            names(b.adjacent(b.reserve(Side::Gray))),
            ["G3L", "G3C", "G3R"]
        );
    }

    #[test]
    fn a_three_quarter_inch_contact_is_an_edge() {
        // E2: the publisher's game moved infantry G3R to G2CR.
        let g3r = Space::from_code("G3R").unwrap();
        let g2cr = Space::from_code("G2CR").unwrap();
        assert!(board().edge(g3r).contains(g2cr));
    }

    #[test]
    fn forests_sit_between_the_rows() {
        let b = board();
        let s = |c| Space::from_code(c).unwrap();
        // WF is on the centre line: never closer to either reserve than EF.
        assert!(!b.closer(Side::Blue, s("EF")).contains(s("WF")));
        assert!(!b.closer(Side::Gray, s("EF")).contains(s("WF")));
        assert!(b.closer(Side::Blue, s("WF")).contains(s("NWF")));
        assert!(b.closer(Side::Gray, s("WF")).contains(s("SWF")));
        assert!(b.closer(Side::Blue, s("NWF")).contains(s("B2R")));
        assert!(b.closer(Side::Blue, s("B1R")).contains(s("NWF")));
        // A reserve is closer to its owner than every other space.
        for sp in Space::all() {
            if sp != b.reserve(Side::Blue) {
                assert!(b.closer(Side::Blue, sp).contains(b.reserve(Side::Blue)));
            }
        }
    }

    #[test]
    fn there_are_six_forests_and_24_clear_squares() {
        let b = board();
        assert_eq!(b.forests().len(), 6);
        let clear = Space::all()
            .filter(|&s| b.terrain(s) == Terrain::Clear)
            .count();
        assert_eq!(clear, 24);
    }

    #[test]
    fn codes_round_trip() {
        for s in Space::all() {
            assert_eq!(Space::from_code(s.code()), Some(s));
            assert_eq!(Space::from_code(&s.code().to_lowercase()), Some(s));
        }
        assert_eq!(Space::from_code("B9X"), None);
    }
}
