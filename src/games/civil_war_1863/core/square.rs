//! The 324 squares of the 18 x 18 board, named by column letter A-R (west to
//! east) and row number 1-18 (north to south): `A1` is the north-west corner.

use std::fmt;
use std::str::FromStr;

/// How many squares a side of the board has.
pub const SIDE_LEN: u8 = 18;

/// How many squares the board has.
pub const SQUARE_COUNT: usize = (SIDE_LEN as usize) * (SIDE_LEN as usize);

const COLUMNS: &[u8; SIDE_LEN as usize] = b"ABCDEFGHIJKLMNOPQR";

/// Each square's neighbours by index, and how many: computed once, since
/// the move generators ask for them millions of times a second.
static NEIGHBOURS: [([u16; 8], u8); SQUARE_COUNT] = neighbour_table();

const fn neighbour_table() -> [([u16; 8], u8); SQUARE_COUNT] {
    let side = SIDE_LEN as i16;
    let mut table = [([0u16; 8], 0u8); SQUARE_COUNT];
    let mut i = 0;
    while i < SQUARE_COUNT {
        let (c, r) = ((i as i16) % side, (i as i16) / side);
        let mut n = 0;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nr >= 0 && nc < side && nr < side {
                    table[i].0[n] = (nr * side + nc) as u16;
                    n += 1;
                }
                dc += 1;
            }
            dr += 1;
        }
        table[i].1 = n as u8;
        i += 1;
    }
    table
}

/// One square of the board.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Square(u16);

impl Square {
    /// The square in this column (0 = A, west) and row (0 = row 1, north),
    /// or `None` off the board.
    pub fn at(column: u8, row: u8) -> Option<Square> {
        (column < SIDE_LEN && row < SIDE_LEN)
            .then(|| Square(u16::from(row) * u16::from(SIDE_LEN) + u16::from(column)))
    }

    /// The square with this number, counted west to east along each row,
    /// north row first (0..324).
    ///
    /// # Panics
    /// When `index` is 324 or more.
    pub fn from_index(index: usize) -> Square {
        assert!(index < SQUARE_COUNT, "square index {index} out of range");
        Square(index as u16)
    }

    /// The square's number, 0..324 (see [`Square::from_index`]).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The column, 0 (A, west) to 17 (R, east).
    pub fn column(self) -> u8 {
        (self.0 % u16::from(SIDE_LEN)) as u8
    }

    /// The row, 0 (row 1, north) to 17 (row 18, south).
    pub fn row(self) -> u8 {
        (self.0 / u16::from(SIDE_LEN)) as u8
    }

    /// Every square, row 1 first, west to east.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_COUNT as u16).map(Square)
    }

    /// The up to eight squares one step away, diagonals included (P2); an
    /// edge square has fewer. In board order: the row above west to east,
    /// then west and east, then the row below.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        let (list, count) = &NEIGHBOURS[self.index()];
        list[..usize::from(*count)].iter().map(|&i| Square(i))
    }

    /// Which of the eight directions `other` lies in (0 north-west, in the
    /// order of [`Square::neighbours`] on an inner square), or `None` when
    /// it is not a neighbour. Tables of the steps from each square (water
    /// joins, rail steps) are kept as eight bits by this number.
    pub fn direction_to(self, other: Square) -> Option<u8> {
        if !self.is_neighbour(other) {
            return None;
        }
        let dc = i16::from(other.column()) - i16::from(self.column()) + 1;
        let dr = i16::from(other.row()) - i16::from(self.row()) + 1;
        let cell = (dr * 3 + dc) as u8;
        // Cell 4 is the square itself, which is no neighbour.
        Some(if cell > 4 { cell - 1 } else { cell })
    }

    /// Whether `other` is one step away (P2).
    pub fn is_neighbour(self, other: Square) -> bool {
        self != other
            && self.column().abs_diff(other.column()) <= 1
            && self.row().abs_diff(other.row()) <= 1
    }

    /// Whether `other` is a diagonal neighbour.
    pub fn is_diagonal_to(self, other: Square) -> bool {
        self.column().abs_diff(other.column()) == 1 && self.row().abs_diff(other.row()) == 1
    }

    /// For a diagonal neighbour, the two squares that touch both (P6 calls
    /// them the step's flanking squares); `None` for any other square.
    pub fn flanks(self, other: Square) -> Option<[Square; 2]> {
        if !self.is_diagonal_to(other) {
            return None;
        }
        Some([
            Square::at(other.column(), self.row())?,
            Square::at(self.column(), other.row())?,
        ])
    }

    /// The square named like `B12` (any case, spaces around ignored).
    pub fn parse(text: &str) -> Option<Square> {
        let text = text.trim().as_bytes();
        let (&letter, digits) = text.split_first()?;
        let column = COLUMNS
            .iter()
            .position(|&c| c == letter.to_ascii_uppercase())?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let row: u8 = std::str::from_utf8(digits).ok()?.parse().ok()?;
        if row == 0 {
            return None;
        }
        Square::at(column as u8, row - 1)
    }
}

/// Written as its name, column letter then row number (`B12`).
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(COLUMNS[usize::from(self.column())]),
            self.row() + 1
        )
    }
}

/// A text that names no square of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a square: write a column A-R and a row 1-18, such as B12")]
pub struct NotASquare(pub String);

impl FromStr for Square {
    type Err = NotASquare;

    fn from_str(text: &str) -> Result<Square, NotASquare> {
        Square::parse(text).ok_or_else(|| NotASquare(text.trim().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_in_any_case() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(Square::parse(&name), Some(sq));
            assert_eq!(Square::parse(&name.to_lowercase()), Some(sq));
        }
        for bad in ["", "A", "A0", "A19", "S1", "1A", "A1x", "A001"] {
            assert_eq!(Square::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn corners_have_three_neighbours_and_the_middle_eight() {
        let a1 = Square::parse("A1").unwrap();
        let mut n: Vec<String> = a1.neighbours().map(|s| s.to_string()).collect();
        n.sort();
        assert_eq!(n, ["A2", "B1", "B2"]);
        assert_eq!(Square::parse("R18").unwrap().neighbours().count(), 3);
        assert_eq!(Square::parse("J9").unwrap().neighbours().count(), 8);
        assert_eq!(Square::parse("A9").unwrap().neighbours().count(), 5);
    }

    #[test]
    fn neighbours_come_row_above_first_and_each_has_its_own_direction() {
        let j9 = Square::parse("J9").unwrap();
        let names: Vec<String> = j9.neighbours().map(|s| s.to_string()).collect();
        assert_eq!(names, ["I8", "J8", "K8", "I9", "K9", "I10", "J10", "K10"]);
        for (d, n) in j9.neighbours().enumerate() {
            assert_eq!(j9.direction_to(n), Some(d as u8), "{n}");
        }
        for sq in Square::all() {
            let listed: Vec<Square> = sq.neighbours().collect();
            let every: Vec<Square> = Square::all().filter(|&o| sq.is_neighbour(o)).collect();
            assert_eq!(listed, every, "{sq}: the neighbours, in board order");
            let mut dirs: Vec<u8> = listed
                .iter()
                .map(|&n| sq.direction_to(n).unwrap())
                .collect();
            dirs.dedup();
            assert_eq!(
                dirs.len(),
                listed.len(),
                "{sq}: one direction per neighbour"
            );
            assert_eq!(sq.direction_to(sq), None);
        }
        assert_eq!(j9.direction_to(Square::parse("J11").unwrap()), None);
    }

    #[test]
    fn flanks_are_the_two_squares_touching_both_ends() {
        let (x, y) = (Square::parse("I8").unwrap(), Square::parse("J9").unwrap());
        let mut f: Vec<String> = x.flanks(y).unwrap().iter().map(|s| s.to_string()).collect();
        f.sort();
        assert_eq!(f, ["I9", "J8"]);
        assert_eq!(x.flanks(Square::parse("I9").unwrap()), None);
    }
}
