//! The squares an order's group enters, in order: one or two for a move
//! or a survivors' move (P10-P12, P21), up to three for a rail ride (P15).
//!
//! A path is held in place rather than in a `Vec`: the search lists and
//! drops thousands of orders per decision, and an allocation per order
//! was a quarter of its time.

use std::fmt;
use std::ops::Deref;

use super::square::Square;

/// The most squares a path names: a ride of three steps (P15).
pub const MAX_PATH: usize = 3;

/// One to [`MAX_PATH`] squares, in the order entered. Compares, orders,
/// hashes and serialises as its squares (a JSON list, as the `Vec` it replaced).
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Vec<Square>", into = "Vec<Square>")]
pub struct Path {
    squares: [Square; MAX_PATH],
    len: u8,
}

/// A list of squares too long to be a path.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a path names at most {MAX_PATH} squares, not {0}")]
pub struct TooLong(pub usize);

impl Path {
    /// The path through `squares`, or `None` when they are more than
    /// [`MAX_PATH`].
    pub fn new(squares: &[Square]) -> Option<Path> {
        let first = *squares.first().unwrap_or(&Square::from_index(0));
        let mut path = Path {
            squares: [first; MAX_PATH],
            len: u8::try_from(squares.len()).ok()?,
        };
        path.squares
            .get_mut(..squares.len())?
            .copy_from_slice(squares);
        Some(path)
    }

    /// The path of one step.
    pub fn one(a: Square) -> Path {
        Path {
            squares: [a; MAX_PATH],
            len: 1,
        }
    }

    /// The path of two steps.
    pub fn two(a: Square, b: Square) -> Path {
        Path {
            squares: [a, b, b],
            len: 2,
        }
    }

    /// The squares, in order.
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..usize::from(self.len)]
    }
}

impl Deref for Path {
    type Target = [Square];

    fn deref(&self) -> &[Square] {
        self.as_slice()
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Path {}

impl PartialOrd for Path {
    fn partial_cmp(&self, other: &Path) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Path {
    fn cmp(&self, other: &Path) -> std::cmp::Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl TryFrom<Vec<Square>> for Path {
    type Error = TooLong;

    fn try_from(squares: Vec<Square>) -> Result<Path, TooLong> {
        Path::new(&squares).ok_or(TooLong(squares.len()))
    }
}

impl From<Path> for Vec<Square> {
    fn from(path: Path) -> Vec<Square> {
        path.as_slice().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(i: usize) -> Square {
        Square::from_index(i)
    }

    #[test]
    fn a_path_is_its_squares() {
        let squares = [sq(5), sq(23), sq(41)];
        for n in 0..=MAX_PATH {
            let p = Path::new(&squares[..n]).unwrap();
            assert_eq!(p.as_slice(), &squares[..n]);
            assert_eq!(p.len(), n);
        }
        assert_eq!(Path::one(sq(5)).as_slice(), &[sq(5)]);
        assert_eq!(Path::two(sq(5), sq(23)).as_slice(), &[sq(5), sq(23)]);
    }

    #[test]
    fn more_than_three_squares_are_no_path() {
        let squares = [sq(1), sq(2), sq(3), sq(4)];
        assert_eq!(Path::new(&squares), None);
        assert_eq!(Path::try_from(squares.to_vec()), Err(TooLong(4)));
    }

    #[test]
    fn paths_compare_and_hash_by_their_squares_only() {
        use std::collections::HashSet;
        // Built two ways, the unused slots differ; the paths do not.
        let a = Path::one(sq(7));
        let b = Path::new(&[sq(7)]).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, Path::two(sq(7), sq(8)));
        let set: HashSet<Path> = [a, b].into_iter().collect();
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn a_path_serialises_as_the_list_of_its_squares() {
        let p = Path::two(sq(5), sq(23));
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, serde_json::to_string(&vec![sq(5), sq(23)]).unwrap());
        assert_eq!(serde_json::from_str::<Path>(&json).unwrap(), p);
        let four = serde_json::to_string(&vec![sq(1), sq(2), sq(3), sq(4)]).unwrap();
        assert!(serde_json::from_str::<Path>(&four).is_err());
    }
}
