//! The stacks on the board by square, with a bit per square saying which
//! squares hold one: a search asks for a side's stacks at every order of
//! every playout, and reading 40 stacks from the bits is much cheaper than
//! looking at all 324 squares.

use super::square::{Square, SIDE_LEN, SQUARE_COUNT};
use super::stack::Stack;

/// How many 64-bit words hold a bit for every square.
const WORDS: usize = SQUARE_COUNT.div_ceil(64);

/// The stack on each square, if any, and which squares hold one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardStacks {
    cells: Vec<Option<Stack>>,
    /// Bit `i % 64` of word `i / 64` is set when square `i` holds a stack.
    occupied: [u64; WORDS],
}

impl Default for BoardStacks {
    fn default() -> BoardStacks {
        BoardStacks {
            cells: vec![None; SQUARE_COUNT],
            occupied: [0; WORDS],
        }
    }
}

impl BoardStacks {
    /// The stack on `sq`.
    pub fn get(&self, sq: Square) -> Option<&Stack> {
        self.cells[sq.index()].as_ref()
    }

    /// The stack on `sq`, to change its pieces or flags; it stays on the
    /// square (an emptied one is taken away with [`set`](Self::set)).
    pub fn get_mut(&mut self, sq: Square) -> Option<&mut Stack> {
        self.cells[sq.index()].as_mut()
    }

    /// Puts `stack` on `sq`, or clears the square.
    pub fn set(&mut self, sq: Square, stack: Option<Stack>) {
        let (word, bit) = (sq.index() / 64, 1u64 << (sq.index() % 64));
        if stack.is_some() {
            self.occupied[word] |= bit;
        } else {
            self.occupied[word] &= !bit;
        }
        self.cells[sq.index()] = stack;
    }

    /// The stack on `sq`, first putting `empty` there if it has none.
    pub fn get_or_insert(&mut self, sq: Square, empty: Stack) -> &mut Stack {
        self.occupied[sq.index() / 64] |= 1 << (sq.index() % 64);
        self.cells[sq.index()].get_or_insert(empty)
    }

    /// Every stack with its square, in board order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, &Stack)> + '_ {
        self.occupied
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| {
                let mut bits = word;
                std::iter::from_fn(move || {
                    let low = bits.trailing_zeros();
                    (bits != 0).then(|| {
                        bits &= bits - 1;
                        w * 64 + low as usize
                    })
                })
            })
            .map(|i| {
                let stack = self.cells[i]
                    .as_ref()
                    .expect("an occupied square holds a stack");
                (Square::from_index(i), stack)
            })
    }

    /// Every stack within `reach` king steps of `sq` (`sq`'s own
    /// included), in board order: the computer reads the danger to a
    /// square from these at almost every order it weighs, and a few bits
    /// per row say where they are.
    pub fn near(&self, sq: Square, reach: u8) -> Near<'_> {
        let last = SIDE_LEN - 1;
        let (first_column, last_column) = (
            sq.column().saturating_sub(reach),
            sq.column().saturating_add(reach).min(last),
        );
        Near {
            stacks: self,
            row: sq.row().saturating_sub(reach),
            last_row: sq.row().saturating_add(reach).min(last),
            first_column,
            width: u32::from(last_column - first_column) + 1,
            start: 0,
            bits: 0,
        }
    }

    /// The occupied bits of the `width` squares from number `start` on
    /// (`width` at most a row), lowest first.
    fn bits(&self, start: usize, width: u32) -> u64 {
        let (word, offset) = (start / 64, start % 64);
        let mut bits = self.occupied[word] >> offset;
        // A run that goes on into the next word (offset is then not 0).
        if offset + width as usize > 64 {
            bits |= self.occupied[word + 1] << (64 - offset);
        }
        bits & ((1u64 << width) - 1)
    }

    /// Every stack, to change its pieces or flags.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Stack> {
        self.cells.iter_mut().flatten()
    }
}

/// The stacks near a square ([`BoardStacks::near`]), row by row: a plain
/// loop over each row's bits, which the search runs at almost every order
/// it weighs (the chain of iterator adapters it replaced stood out in
/// the profile of a playout).
pub struct Near<'a> {
    stacks: &'a BoardStacks,
    /// The next row to read, and the last.
    row: u8,
    last_row: u8,
    first_column: u8,
    width: u32,
    /// The number of the first square of the row being read, and the
    /// occupied squares of it not yet given.
    start: usize,
    bits: u64,
}

impl<'a> Iterator for Near<'a> {
    type Item = (Square, &'a Stack);

    fn next(&mut self) -> Option<(Square, &'a Stack)> {
        while self.bits == 0 {
            if self.row > self.last_row {
                return None;
            }
            self.start =
                usize::from(self.row) * usize::from(SIDE_LEN) + usize::from(self.first_column);
            self.bits = self.stacks.bits(self.start, self.width);
            self.row += 1;
        }
        let i = self.start + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let stack = self.stacks.cells[i]
            .as_ref()
            .expect("an occupied square holds a stack");
        Some((Square::from_index(i), stack))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::civil_war_1863::core::side::{PieceKind, Side};
    use crate::games::civil_war_1863::core::stack::Counts;
    use proptest::prelude::*;

    proptest! {
        /// Whatever is put on and taken off, `iter` lists exactly the
        /// squares holding a stack, in board order, as a look at every
        /// square would.
        #[test]
        fn iter_lists_the_occupied_squares_in_board_order(
            steps in proptest::collection::vec((0..SQUARE_COUNT, 0u8..3), 0..200)
        ) {
            let mut stacks = BoardStacks::default();
            let one = Stack::new(Side::Union, Counts::of(PieceKind::Infantry, 1));
            for (i, what) in steps {
                let sq = Square::from_index(i);
                match what {
                    0 => stacks.set(sq, None),
                    1 => stacks.set(sq, Some(one)),
                    _ => {
                        stacks.get_or_insert(sq, one);
                    }
                }
            }
            let by_bits: Vec<Square> = stacks.iter().map(|(sq, _)| sq).collect();
            let by_look: Vec<Square> = Square::all().filter(|&sq| stacks.get(sq).is_some()).collect();
            prop_assert_eq!(by_bits, by_look.clone());
            // And `near` lists those within reach of every square.
            for centre in Square::all() {
                for reach in [0, 1, 2, 5, 17] {
                    let near: Vec<Square> = stacks.near(centre, reach).map(|(sq, _)| sq).collect();
                    let within: Vec<Square> = by_look
                        .iter()
                        .copied()
                        .filter(|sq| {
                            sq.column().abs_diff(centre.column()) <= reach
                                && sq.row().abs_diff(centre.row()) <= reach
                        })
                        .collect();
                    prop_assert_eq!(near, within, "{:?} within {}", centre, reach);
                }
            }
        }
    }
}
