//! One hex of a map, named CCRR: two-digit column (01 is the west edge)
//! then two-digit row (01 is the north edge), as the rulebook's examples
//! name them ("0712").
//!
//! Hexes are flat-topped and stand in columns; even-numbered columns sit
//! half a hex north of odd ones. Under this convention the rulebook's
//! worked examples (6.321, 6.431) are consistent: 0712 touches 0612 and
//! 0613, and a sight line from 0613 to 1013 runs along hexsides.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most columns or rows a map may have: names have two digits.
pub const MAX_SIDE: u8 = 99;

/// One hex, by column and row, both counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    column: u8,
    row: u8,
}

impl Hex {
    /// The hex in this column and row (both from 1, at most
    /// [`MAX_SIDE`]), or `None` when either is out of that range.
    pub fn new(column: u8, row: u8) -> Option<Hex> {
        ((1..=MAX_SIDE).contains(&column) && (1..=MAX_SIDE).contains(&row))
            .then_some(Hex { column, row })
    }

    /// The column, from 1 at the west edge.
    pub fn column(self) -> u8 {
        self.column
    }

    /// The row, from 1 at the north edge.
    pub fn row(self) -> u8 {
        self.row
    }

    /// Whether this hex's column sits half a hex north of the odd ones.
    fn raised(self) -> bool {
        self.column.is_multiple_of(2)
    }

    /// The six hexes around this one, north first then clockwise, leaving
    /// out those whose column or row would fall outside 1..=99 (a map
    /// bounds them further).
    pub fn neighbours(self) -> impl Iterator<Item = Hex> {
        let (c, r) = (i16::from(self.column), i16::from(self.row));
        // The rows of the side columns' neighbours depend on whether this
        // column is raised (even) or not.
        let (upper, lower) = if self.raised() {
            (r - 1, r)
        } else {
            (r, r + 1)
        };
        [
            (c, r - 1),
            (c + 1, upper),
            (c + 1, lower),
            (c, r + 1),
            (c - 1, lower),
            (c - 1, upper),
        ]
        .into_iter()
        .filter_map(|(c, r)| Hex::new(u8::try_from(c).ok()?, u8::try_from(r).ok()?))
    }

    /// Whether `other` shares a hexside with this hex.
    pub fn is_neighbour(self, other: Hex) -> bool {
        self.neighbours().any(|n| n == other)
    }

    /// Cube coordinates (x + y + z = 0) of the hex, for distances and
    /// lines.
    pub fn cube(self) -> (i32, i32, i32) {
        // Counted from 0, the raised columns are the odd ones.
        let q = i32::from(self.column) - 1;
        let r = i32::from(self.row) - (q + (q & 1)) / 2;
        (q, r, -q - r)
    }

    /// The number of hexes from this hex to `other`, counting `other` and
    /// not this one (the range of 6.2: adjacent hexes are 1 apart).
    pub fn distance(self, other: Hex) -> u32 {
        let (a, b) = (self.cube(), other.cube());
        ((a.0 - b.0).unsigned_abs() + (a.1 - b.1).unsigned_abs() + (a.2 - b.2).unsigned_abs()) / 2
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.column, self.row)
    }
}

/// Why a hex name was not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a hex is named by four digits, column then row, such as 0712; `{0}` is not one")]
pub struct NotAHex(pub String);

impl FromStr for Hex {
    type Err = NotAHex;

    fn from_str(text: &str) -> Result<Hex, NotAHex> {
        let t = text.trim();
        let bad = || NotAHex(t.chars().take(16).collect());
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let column = t[..2].parse().map_err(|_| bad())?;
        let row = t[2..].parse().map_err(|_| bad())?;
        Hex::new(column, row).ok_or_else(bad)
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Hex, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(name: &str) -> Hex {
        name.parse().unwrap()
    }

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for name in ["0101", "0712", "9999", "1512"] {
            assert_eq!(hex(name).to_string(), name);
        }
        for bad in ["", "712", "07120", "0012", "0700", "07a2", "-712"] {
            assert!(bad.parse::<Hex>().is_err(), "{bad}");
        }
    }

    #[test]
    fn neighbours_follow_the_raised_even_columns() {
        let mut n: Vec<String> = hex("0712").neighbours().map(|h| h.to_string()).collect();
        n.sort();
        assert_eq!(n, ["0612", "0613", "0711", "0713", "0812", "0813"]);
        let mut n: Vec<String> = hex("0612").neighbours().map(|h| h.to_string()).collect();
        n.sort();
        assert_eq!(n, ["0511", "0512", "0611", "0613", "0711", "0712"]);
        assert_eq!(hex("0101").neighbours().count(), 3);
    }

    #[test]
    fn neighbours_are_mutual_and_one_apart() {
        for c in 1..=12 {
            for r in 1..=12 {
                let h = Hex::new(c, r).unwrap();
                for n in h.neighbours() {
                    assert!(n.is_neighbour(h), "{h} {n}");
                    assert_eq!(h.distance(n), 1, "{h} {n}");
                }
            }
        }
    }

    #[test]
    fn distances_match_the_rulebook_examples() {
        // 6.141 B and 6.431 A: 0408 to 0607 is close range (2 hexes).
        assert_eq!(hex("0408").distance(hex("0607")), 2);
        // 6.321 example 1 runs 0613 to 1013 along hexsides: four hexes.
        assert_eq!(hex("0613").distance(hex("1013")), 4);
        assert_eq!(hex("0709").distance(hex("0906")), 4);
    }
}
