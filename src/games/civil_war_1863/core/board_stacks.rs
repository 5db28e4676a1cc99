//! The stacks on the board by square, with a bit per square saying which
//! squares hold one: a search asks for a side's stacks at every order of
//! every playout, and reading 40 stacks from the bits is much cheaper than
//! looking at all 324 squares.

use super::square::{Square, SQUARE_COUNT};
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

    /// Every stack, to change its pieces or flags.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Stack> {
        self.cells.iter_mut().flatten()
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
            prop_assert_eq!(by_bits, by_look);
        }
    }
}
