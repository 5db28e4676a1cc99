//! Chance, kept out of the games: a game that tosses a coin, rolls a die
//! or draws a card says so ([`Game::chance`](crate::games::Game::chance)),
//! the service draws the outcome, and the game applies it as an order
//! ([`Game::chance_order`](crate::games::Game::chance_order)).
//!
//! A game stays a pure state machine: replaying its orders, the drawn
//! outcomes among them, rebuilds it exactly, without the seed. The seed
//! ([`GameOptions::seed`](crate::games::GameOptions::seed)) is stored with
//! the game so that the service's draws can be checked afterwards: the
//! `n`th draw of a game is a function of the seed and `n` alone
//! ([`Draws`]), never of the time or of what else the service did.

use serde::{Deserialize, Serialize};

/// A draw of chance a game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chance {
    /// How many outcomes there are, all equally likely (2 for a coin,
    /// 6 for a die, the cards left for a draw); at least 1.
    pub outcomes: u32,
    /// What is drawn, in a few words for the record and the mail ("a coin
    /// toss for the first move").
    pub what: &'static str,
}

/// The draws of one game: the `n`th outcome is a function of the game's
/// seed and `n`, so that anyone with the seed can check every draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draws {
    seed: u64,
}

impl Draws {
    /// The draws of the game with this seed.
    pub fn new(seed: u64) -> Draws {
        Draws { seed }
    }

    /// The outcome of draw number `n` (from 0) of `chance`: a number in
    /// `0..chance.outcomes`.
    pub fn outcome(self, n: u64, chance: Chance) -> u32 {
        let outcomes = u64::from(chance.outcomes.max(1));
        // Rejection sampling keeps every outcome equally likely; the
        // k-th candidate is splitmix64 of (seed, n, k).
        let zone = u64::MAX - u64::MAX % outcomes;
        (0u64..)
            .map(|k| splitmix64(self.seed ^ splitmix64(n) ^ splitmix64(k.wrapping_add(1) << 32)))
            .find(|&x| x < zone)
            .map_or(0, |x| (x % outcomes) as u32)
    }
}

/// One step of the splitmix64 generator (Steele, Lea, Flood 2014): a
/// well-mixed 64-bit function of its input.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COIN: Chance = Chance {
        outcomes: 2,
        what: "a coin toss",
    };
    const DIE: Chance = Chance {
        outcomes: 6,
        what: "a die",
    };

    #[test]
    fn a_draw_depends_only_on_the_seed_and_its_number() {
        let a = Draws::new(7);
        let b = Draws::new(7);
        for n in 0..100 {
            assert_eq!(a.outcome(n, DIE), b.outcome(n, DIE));
        }
        let other: Vec<u32> = (0..64).map(|n| Draws::new(8).outcome(n, DIE)).collect();
        let ours: Vec<u32> = (0..64).map(|n| a.outcome(n, DIE)).collect();
        assert_ne!(ours, other, "another seed draws otherwise");
    }

    #[test]
    fn every_outcome_comes_up_about_equally_often() {
        let draws = Draws::new(2026);
        let mut counts = [0u32; 6];
        for n in 0..60_000 {
            counts[draws.outcome(n, DIE) as usize] += 1;
        }
        // 10,000 expected each; 4.5 standard deviations is about 410.
        assert!(
            counts.iter().all(|&c| (9_590..=10_410).contains(&c)),
            "{counts:?}"
        );
        let heads = (0..10_000).filter(|&n| draws.outcome(n, COIN) == 0).count();
        assert!((4_775..=5_225).contains(&heads), "{heads}");
    }

    #[test]
    fn a_chance_with_one_outcome_or_none_draws_that_one() {
        for outcomes in [0, 1] {
            let c = Chance {
                outcomes,
                what: "nothing",
            };
            assert_eq!(Draws::new(1).outcome(5, c), 0);
        }
    }
}
