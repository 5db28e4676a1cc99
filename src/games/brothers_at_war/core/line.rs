//! The hexes a sight line passes through (6.3), by exact geometry.
//!
//! A sight line runs from the centre of one hex to the centre of another.
//! Where it runs precisely along hexsides, or touches a hex only at a
//! vertex, the firer may trace it on either side (6.32). Both readings
//! are one idea: the line nudged an infinitely small distance to its left,
//! or to its right, as seen from the firer looking at the target. Where
//! the line crosses hex interiors only, both sides are the same hexes.
//!
//! These are all the hexes the segment between the centres passes through
//! (6.3: any hex the line crosses), which for a steep line can be more
//! than one per step of distance: 0101 to 0205, four hexes apart,
//! passes through four hexes between (see the tests). B? 6.3, B22: this
//! differs from B22's reading, which takes only N+1 evenly spaced points
//! of the segment and so skips a hex the line clips, or offers a choice
//! of side where the line crosses a hexside at one of those points.
//!
//! Everything is integer arithmetic on cube coordinates: every boundary
//! between two hexes lies on a line where the difference of two cube
//! coordinates is a whole number, so the line only changes hex at times
//! `t = k / g`; between two such times it is inside one hex or along one
//! hexside, and one exact test at the midpoint says which.

use super::Hex;

/// A value for each side of a sight line, as seen from its start looking
/// at its end (6.32: the firer chooses the side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sides<T> {
    /// The hexes to the left of the line when it runs along hexsides.
    pub left: T,
    /// The hexes to the right.
    pub right: T,
}

/// One side of a sight line (6.32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LineSide {
    /// The left, seen from the line's start.
    Left,
    /// The right.
    Right,
}

impl<T> Sides<T> {
    /// The value for one side.
    pub fn get(&self, side: LineSide) -> &T {
        match side {
            LineSide::Left => &self.left,
            LineSide::Right => &self.right,
        }
    }
}

impl<T: PartialEq> Sides<T> {
    /// Whether the two sides differ: the line runs along a hexside or
    /// touches a vertex somewhere (6.32).
    pub fn split(&self) -> bool {
        self.left != self.right
    }
}

/// The hexes strictly between `from` and `to` on the sight line from the
/// centre of one to the centre of the other, in order from `from`, on each
/// side (6.3, 6.32). A side is `None` when it passes through a hex that
/// cannot be named (beyond row or column 01 or 99): such a side runs off
/// any map.
pub fn between(from: Hex, to: Hex) -> Sides<Option<Vec<Hex>>> {
    let a = cube(from);
    let b = cube(to);
    let cells = trace(a, b);
    let inner = |seq: Vec<Cube>| -> Option<Vec<Hex>> {
        let n = seq.len();
        seq.into_iter()
            .skip(1)
            .take(n.saturating_sub(2))
            .map(hex_of)
            .collect()
    };
    Sides {
        left: inner(cells.left),
        right: inner(cells.right),
    }
}

/// The hex directly behind `target` as seen from `firer`: the first hex the
/// sight line enters after the target's, were it continued (6.4, 6.35),
/// on each side. When the continuation runs along a hexside the two sides
/// differ. `None` for a side whose hex cannot be named, and for both when
/// the two hexes are the same.
pub fn behind(firer: Hex, target: Hex) -> Sides<Option<Hex>> {
    let a = cube(firer);
    let b = cube(target);
    if a == b {
        return Sides {
            left: None,
            right: None,
        };
    }
    let far = [2 * b[0] - a[0], 2 * b[1] - a[1], 2 * b[2] - a[2]];
    let cells = trace(a, far);
    // The extended line passes through the target's centre, inside it, so
    // the target appears once on each side and its successor is the hex
    // behind.
    let next = |seq: &[Cube]| {
        let at = seq.iter().position(|c| *c == b)?;
        seq.get(at + 1).copied().and_then(hex_of)
    };
    Sides {
        left: next(&cells.left),
        right: next(&cells.right),
    }
}

/// Cube coordinates, widened for the scaled arithmetic below.
type Cube = [i64; 3];

fn cube(hex: Hex) -> Cube {
    let (x, y, z) = hex.cube();
    [i64::from(x), i64::from(y), i64::from(z)]
}

/// The inverse of [`Hex::cube`], for hexes the line reaches.
fn hex_of(c: Cube) -> Option<Hex> {
    let q = c[0];
    let column = q + 1;
    let row = c[1] + (q + (q & 1)) / 2;
    Hex::new(u8::try_from(column).ok()?, u8::try_from(row).ok()?)
}

/// A time along the line, `numerator / denominator`, in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Time {
    numerator: i64,
    denominator: i64,
}

impl Time {
    fn new(numerator: i64, denominator: i64) -> Time {
        let g = gcd(numerator, denominator).max(1);
        Time {
            numerator: numerator / g,
            denominator: denominator / g,
        }
    }

    fn midpoint(self, later: Time) -> Time {
        Time::new(
            self.numerator * later.denominator + later.numerator * self.denominator,
            2 * self.denominator * later.denominator,
        )
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Every hex of the line from the centre of `a` to the centre of `b`,
/// both ends included, on each side.
fn trace(a: Cube, b: Cube) -> Sides<Vec<Cube>> {
    let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let mut times = vec![Time::new(0, 1), Time::new(1, 1)];
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let g = (d[i] - d[j]).abs();
        times.extend((1..g).map(|k| Time::new(k, g)));
    }
    times.sort_by(|x, y| (x.numerator * y.denominator).cmp(&(y.numerator * x.denominator)));
    times.dedup();

    let mids: Vec<Vec<Cube>> = times
        .windows(2)
        .map(|w| containing(a, d, w[0].midpoint(w[1])))
        .collect();
    let mut sides = Sides {
        left: vec![a],
        right: vec![a],
    };
    for (k, mid) in mids.iter().enumerate() {
        if k > 0 {
            // A vertex at the time before this interval: the hex that
            // meets the line only there is on one side of it.
            let before = &mids[k - 1];
            for touched in containing(a, d, times[k]) {
                if before.contains(&touched) || mid.contains(&touched) {
                    continue;
                }
                push(&mut sides, a, d, touched);
            }
        }
        match mid.as_slice() {
            [one] => {
                add(&mut sides.left, *one);
                add(&mut sides.right, *one);
            }
            // Between two event times the line is along a hexside only
            // when two hexes hold it: their centres lie on opposite sides.
            cells => {
                for c in cells {
                    push(&mut sides, a, d, *c);
                }
            }
        }
    }
    sides
}

/// Adds a hex touched by the line on one side only to that side.
fn push(sides: &mut Sides<Vec<Cube>>, a: Cube, d: Cube, cell: Cube) {
    match side_of(a, d, cell) {
        std::cmp::Ordering::Less => add(&mut sides.left, cell),
        std::cmp::Ordering::Greater => add(&mut sides.right, cell),
        std::cmp::Ordering::Equal => {
            add(&mut sides.left, cell);
            add(&mut sides.right, cell);
        }
    }
}

fn add(seq: &mut Vec<Cube>, cell: Cube) {
    if seq.last() != Some(&cell) {
        seq.push(cell);
    }
}

/// Which side of the line through `a` along `d` the centre of `cell` lies:
/// `Less` is left, as seen looking along `d` on a map drawn north up.
fn side_of(a: Cube, d: Cube, cell: Cube) -> std::cmp::Ordering {
    // Screen coordinates up to a positive linear map: x east = 2q,
    // y south = 2r + q (the same orientation as the drawn map, so the
    // sign of the cross product is the drawn one).
    let screen = |c: Cube| (2 * c[0], 2 * c[1] + c[0]);
    let (dx, dy) = screen(d);
    let (vx, vy) = screen([cell[0] - a[0], cell[1] - a[1], cell[2] - a[2]]);
    // With y pointing south, a negative cross product is to the left.
    (dx * vy - dy * vx).cmp(&0)
}

/// The hexes whose closed area holds the point of the line at time `t`:
/// one inside a hex, two on a hexside, three at a vertex.
fn containing(a: Cube, d: Cube, t: Time) -> Vec<Cube> {
    let m = t.denominator;
    let p = [
        m * a[0] + t.numerator * d[0],
        m * a[1] + t.numerator * d[1],
        m * a[2] + t.numerator * d[2],
    ];
    let round = |v: i64| (2 * v + m).div_euclid(2 * m);
    let (q, r) = (round(p[0]), round(p[1]));
    let mut found = Vec::with_capacity(3);
    // Rounding two coordinates on their own lands within two hexes of the
    // one holding the point.
    for dq in -2i64..=2 {
        for dr in -2i64..=2 {
            if (dq + dr).abs() > 2 {
                continue;
            }
            let h = [q + dq, r + dr, -(q + dq) - (r + dr)];
            let e = [p[0] - m * h[0], p[1] - m * h[1], p[2] - m * h[2]];
            if (e[0] - e[1]).abs() <= m && (e[1] - e[2]).abs() <= m && (e[2] - e[0]).abs() <= m {
                found.push(h);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(name: &str) -> Hex {
        name.parse().unwrap()
    }

    fn names(hexes: &Option<Vec<Hex>>) -> Vec<String> {
        hexes
            .as_ref()
            .unwrap()
            .iter()
            .map(|h| h.to_string())
            .collect()
    }

    fn all(upto: u8) -> impl Iterator<Item = Hex> {
        (1..=upto).flat_map(move |c| (1..=upto).map(move |r| Hex::new(c, r).unwrap()))
    }

    #[test]
    fn example_6_321_one_along_hexsides_east() {
        let s = between(hex("0613"), hex("1013"));
        assert_eq!(names(&s.left), ["0712", "0813", "0912"]);
        assert_eq!(names(&s.right), ["0713", "0813", "0913"]);
    }

    #[test]
    fn example_6_321_two_along_hexsides_north_east() {
        let s = between(hex("0709"), hex("0906"));
        assert_eq!(names(&s.right), ["0809", "0808", "0907"]);
        assert_eq!(names(&s.left), ["0708", "0808", "0807"]);
    }

    #[test]
    fn example_6_321_three_along_hexsides_north_west() {
        let s = between(hex("0511"), hex("0308"));
        assert_eq!(names(&s.left), ["0411", "0410", "0309"]);
        assert_eq!(names(&s.right), ["0510", "0410", "0409"]);
    }

    #[test]
    fn example_6_321_four_one_hexside() {
        let s = between(hex("0313"), hex("0513"));
        assert_eq!(names(&s.left), ["0413"]);
        assert_eq!(names(&s.right), ["0414"]);
    }

    #[test]
    fn example_6_431_hexes_behind_the_target() {
        // A: straight through, no choice.
        let a = behind(hex("0408"), hex("0607"));
        assert_eq!(a.left, Some(hex("0706")));
        assert_eq!(a.right, Some(hex("0706")));
        // B: along a hexside, the side of the line and of the hex behind
        // go together.
        let line = between(hex("0408"), hex("0506"));
        let b = behind(hex("0408"), hex("0506"));
        assert_eq!(names(&line.right), ["0507"]);
        assert_eq!(b.right, Some(hex("0606")));
        assert_eq!(names(&line.left), ["0407"]);
        assert_eq!(b.left, Some(hex("0505")));
        // C: from two hexes south-west of the target, the line continues
        // north-east into the hex beyond.
        let c = behind(hex("0307"), hex("0506"));
        assert!(!c.split());
        assert_eq!(c.left, Some(hex("0606")));
    }

    #[test]
    fn the_hex_behind_touches_the_target_and_lies_beyond_it() {
        for a in all(6) {
            for b in all(6) {
                if a == b {
                    continue;
                }
                let behind = behind(a, b);
                let line = between(a, b);
                for (h, side) in [(behind.left, &line.left), (behind.right, &line.right)] {
                    let Some(h) = h else { continue };
                    assert!(h.is_neighbour(b), "{a} {b} {h}");
                    assert!(a.distance(h) >= a.distance(b), "{a} {b} {h}");
                    assert!(!side.iter().flatten().any(|x| *x == h), "{a} {b} {h}");
                }
            }
        }
    }

    #[test]
    fn adjacent_and_same_hex_have_nothing_between() {
        let s = between(hex("0712"), hex("0612"));
        assert_eq!(names(&s.left), Vec::<String>::new());
        assert!(!s.split());
        assert_eq!(names(&between(hex("0712"), hex("0712")).left).len(), 0);
        assert_eq!(behind(hex("0712"), hex("0712")).left, None);
    }

    #[test]
    fn every_side_is_a_chain_of_adjacent_hexes_from_end_to_end() {
        for a in all(9) {
            for b in all(9) {
                let s = between(a, b);
                for side in [&s.left, &s.right] {
                    let Some(inner) = side else { continue };
                    let mut chain = vec![a];
                    chain.extend(inner);
                    chain.push(b);
                    if a == b {
                        continue;
                    }
                    for w in chain.windows(2) {
                        assert!(w[0].is_neighbour(w[1]), "{a} {b}: {chain:?}");
                    }
                    // Never further from the firer than the target.
                    assert!(inner.iter().all(|h| a.distance(*h) < a.distance(b)));
                }
            }
        }
    }

    #[test]
    fn reversing_the_line_reverses_it_and_swaps_the_sides() {
        for a in all(8) {
            for b in all(8) {
                let there = between(a, b);
                let back = between(b, a);
                let rev = |s: &Option<Vec<Hex>>| {
                    s.clone().map(|mut v| {
                        v.reverse();
                        v
                    })
                };
                assert_eq!(back.left, rev(&there.right), "{a} {b}");
                assert_eq!(back.right, rev(&there.left), "{a} {b}");
            }
        }
    }

    #[test]
    fn a_line_never_skips_a_step_and_may_clip_extra_hexes() {
        let mut longer = 0;
        for a in all(9) {
            for b in all(9) {
                if a == b {
                    continue;
                }
                let s = between(a, b);
                for side in [&s.left, &s.right].into_iter().flatten() {
                    let n = side.len() as u32;
                    assert!(n + 1 >= a.distance(b), "{a} {b}");
                    longer += u32::from(n + 1 > a.distance(b));
                }
            }
        }
        assert!(longer > 0);
        // 0101 to 0205 is four hexes away, and the segment between the
        // centres runs through four hexes, one after another: it crosses
        // the hexside 0103-0203 at its midpoint, after passing through
        // 0203 across its western corner. Points taken only at quarter
        // steps would find the halfway point on that hexside and miss one
        // of the two; the line crosses both.
        let steep = between(hex("0101"), hex("0205"));
        assert!(!steep.split());
        assert_eq!(names(&steep.left), ["0102", "0203", "0103", "0204"]);
    }

    #[test]
    fn straight_lines_along_a_row_of_hexes_are_never_split() {
        let a = hex("0505");
        for first in a.neighbours() {
            // Walk on in the same direction: each step repeats the first.
            let (ca, cf) = (cube(a), cube(first));
            let step = [cf[0] - ca[0], cf[1] - ca[1], cf[2] - ca[2]];
            for n in 2..=4 {
                let far = [
                    ca[0] + n * step[0],
                    ca[1] + n * step[1],
                    ca[2] + n * step[2],
                ];
                let Some(b) = hex_of(far) else { continue };
                let s = between(a, b);
                assert!(!s.split(), "{a} {b}");
                assert_eq!(s.left.unwrap().len() as i64, n - 1);
            }
        }
    }

    #[test]
    fn a_side_off_the_named_grid_is_none() {
        // Along row 01 the north side of the line is beyond the edge.
        let s = between(hex("0201"), hex("0401"));
        assert!(s.left.is_none());
        assert_eq!(names(&s.right), ["0301"]);
    }
}
