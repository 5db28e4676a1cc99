//! The one pseudo-random generator of the tests and benchmarks: xorshift64
//! (Marsaglia, shifts 13, 7, 17).
//!
//! Tests that play seeded games, build random positions or write random
//! mail must replay the same sequence on every machine and every run, and
//! without a dependency: a failing seed printed by a test is all it takes
//! to replay the failure. Each test file once carried its own copy of these
//! three lines, seeded in one of two ways; both ways are kept here
//! ([`XorShift::new`] and [`XorShift::from_state`]) so that every seed in
//! the tests still draws exactly the sequence its expectations (golden
//! files, sample records, the seeds that reach a chosen position) were
//! written against.
//!
//! The benchmarks include this file by path (`#[path =
//! "../tests/common/rng.rs"]`), so it uses nothing but `std`.
#![allow(dead_code)]

/// xorshift64: deterministic, no dependencies. Its state is never zero
/// (zero would stay zero).
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// The generator for `seed`: the seed multiplied by the 64-bit golden
    /// ratio, so that neighbouring small seeds start far apart, and made
    /// odd, so that no seed gives the zero state.
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The generator whose state is `state` itself, not spread: the tests
    /// and benchmarks that start from a fixed constant (or from `seed | 1`)
    /// were written against the sequence this draws.
    ///
    /// # Panics
    ///
    /// When `state` is zero: the generator would draw zero forever.
    pub fn from_state(state: u64) -> XorShift {
        assert_ne!(state, 0, "xorshift64 never leaves the zero state");
        XorShift(state)
    }

    /// The next number of the sequence (also the new state).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform-ish in `0..n` (`n > 0`): the next number modulo `n`.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One of `items` (not empty), uniform-ish.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// `len` bytes, each the low byte of the next number.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}
