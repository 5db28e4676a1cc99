//! Fair draws of chance by commit and reveal (docs/dice.md): a secret seed
//! whose SHA-256 the players get before the first move, public inputs
//! that come from the players' own mails, and each outcome an HMAC of the
//! seed over them, made uniform by rejection sampling. Game-neutral: a
//! coin, a die or a card is a [`Chance`] of so many outcomes.

use std::fmt;
use std::io::Read;

use hmac::{Hmac, Mac};
use sha2::{Digest as _, Sha256};

use super::Chance;

/// The secret seed of one game's draws: 32 random bytes, shown to nobody
/// until the game is over. Its `Debug` never prints it.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; 32]);

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(..)")
    }
}

impl Seed {
    /// A fresh seed from the operating system's random source.
    pub fn fresh() -> std::io::Result<Seed> {
        let mut bytes = [0u8; 32];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        Ok(Seed(bytes))
    }

    /// The seed of these bytes (tests, and a seed read back).
    pub fn from_bytes(bytes: [u8; 32]) -> Seed {
        Seed(bytes)
    }

    /// The seed written in hex (as [`Seed::to_hex`] writes it, any case).
    pub fn from_hex(text: &str) -> Option<Seed> {
        from_hex(text).map(Seed)
    }

    /// The seed in lower-case hex: what the record reveals.
    pub fn to_hex(&self) -> String {
        to_hex(&self.0)
    }

    /// The seed's commitment: its SHA-256.
    pub fn commitment(&self) -> Commitment {
        Commitment(Sha256::digest(self.0).into())
    }
}

/// The SHA-256 of a game's seed, given to both players when the game is
/// created: the seed revealed at the end must hash to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Commitment([u8; 32]);

impl Commitment {
    /// A commitment written in hex (any case).
    pub fn from_hex(text: &str) -> Option<Commitment> {
        from_hex(text).map(Commitment)
    }

    /// Whether `seed` is the seed committed to.
    pub fn opens_with(&self, seed: &Seed) -> bool {
        seed.commitment() == *self
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

/// A SHA-256 of a public input's text (a Message-ID, the players' words):
/// fixed in size, so that a record line holds it whatever the text was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputDigest([u8; 32]);

impl InputDigest {
    /// The digest of `text`, as UTF-8.
    pub fn of(text: &str) -> InputDigest {
        InputDigest(Sha256::digest(text.as_bytes()).into())
    }

    /// A digest written in hex (any case).
    pub fn from_hex(text: &str) -> Option<InputDigest> {
        from_hex(text).map(InputDigest)
    }
}

impl fmt::Display for InputDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

/// At most this many characters of a player's `SEED` words count: a bound
/// on what one mail can make the service store.
pub const MAX_WORDS: usize = 64;

/// The players' `SEED` words as one input: the first seat's, a line
/// break, the second seat's (empty for a seat that gave none), each cut
/// to [`MAX_WORDS`] characters with its runs of white space made one.
pub fn words_digest(words: [&str; 2]) -> InputDigest {
    let [north, south] = words.map(clean_words);
    InputDigest::of(&format!("{north}\n{south}"))
}

/// Words as the service keeps them: one space between words, at most
/// [`MAX_WORDS`] characters.
pub fn clean_words(words: &str) -> String {
    words
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_WORDS)
        .collect()
}

/// The public inputs of one draw: everything but the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawInputs {
    /// The draw's number in its game, from 1.
    pub number: u32,
    /// The Message-ID of the mail whose order caused the draw.
    pub mail: InputDigest,
    /// The Message-ID of the opponent's latest mail the game recorded.
    pub reply: InputDigest,
    /// The players' `SEED` words ([`words_digest`]).
    pub words: InputDigest,
}

/// How many candidates a draw tries before it takes the last: each is
/// rejected with a chance below outcomes / 2^64 (at most 2^-32), so the
/// bound is never met.
const MAX_CANDIDATES: u32 = 64;

/// The outcome of the draw with `inputs` of `chance`, under `seed`: a
/// number in `0..chance.outcomes`, every one equally likely.
pub fn outcome(seed: &Seed, inputs: &DrawInputs, chance: Chance) -> u32 {
    let outcomes = u64::from(chance.outcomes.max(1));
    // The largest multiple of `outcomes` a u64 holds: candidates at or
    // above it would favour the small outcomes.
    let zone = u64::MAX - u64::MAX % outcomes;
    let mut last = 0;
    for k in 0..MAX_CANDIDATES {
        last = candidate(seed, inputs, outcomes, k);
        if last < zone {
            break;
        }
    }
    // The remainder is below `outcomes`, itself at most u32::MAX.
    (last % outcomes) as u32
}

fn candidate(seed: &Seed, inputs: &DrawInputs, outcomes: u64, k: u32) -> u64 {
    let mut mac = Hmac::<Sha256>::new_from_slice(&seed.0).expect("HMAC takes any key");
    let text = format!(
        "orderly draw 1\n{}\n{outcomes}\n{}\n{}\n{}\n{k}\n",
        inputs.number, inputs.mail, inputs.reply, inputs.words
    );
    mac.update(text.as_bytes());
    let bytes = mac.finalize().into_bytes();
    u64::from_be_bytes(bytes[..8].try_into().expect("SHA-256 has 32 bytes"))
}

fn to_hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Option<[u8; 32]> {
    let text = text.trim().as_bytes();
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in text.chunks(2).enumerate() {
        let pair = std::str::from_utf8(pair).ok()?;
        out[i] = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const COIN: Chance = Chance::public(2, "a coin toss");
    const DIE: Chance = Chance::public(6, "a die");

    fn inputs(number: u32) -> DrawInputs {
        DrawInputs {
            number,
            mail: InputDigest::of("<a@x>"),
            reply: InputDigest::of("<b@y>"),
            words: words_digest(["lucky", ""]),
        }
    }

    #[test]
    fn a_fresh_seed_is_new_each_time_and_opens_its_commitment_only() {
        let a = Seed::fresh().unwrap();
        let b = Seed::fresh().unwrap();
        assert_ne!(a, b);
        assert!(a.commitment().opens_with(&a));
        assert!(!a.commitment().opens_with(&b));
        assert_eq!(Seed::from_hex(&a.to_hex()), Some(a.clone()));
        let c = a.commitment();
        assert_eq!(Commitment::from_hex(&c.to_string()), Some(c));
        assert_eq!(format!("{a:?}"), "Seed(..)");
    }

    #[test]
    fn the_commitment_is_the_sha256_of_the_seed() {
        // SHA-256 of 32 zero bytes, from the standard's definition.
        let zero = Seed::from_bytes([0; 32]);
        assert_eq!(
            zero.commitment().to_string(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn hex_of_the_wrong_length_or_letters_is_no_seed() {
        assert_eq!(Seed::from_hex("00"), None);
        assert_eq!(Seed::from_hex(&"g".repeat(64)), None);
        assert!(Seed::from_hex(&"AB".repeat(32)).is_some());
    }

    #[test]
    fn every_face_comes_up_about_equally_often() {
        let seed = Seed::from_bytes([7; 32]);
        let mut counts = [0u32; 6];
        for n in 1..=60_000 {
            counts[outcome(&seed, &inputs(n), DIE) as usize] += 1;
        }
        // 10,000 expected each; 4.5 standard deviations is about 410.
        assert!(
            counts.iter().all(|&c| (9_590..=10_410).contains(&c)),
            "{counts:?}"
        );
        let heads = (1..=10_000)
            .filter(|&n| outcome(&seed, &inputs(n), COIN) == 0)
            .count();
        assert!((4_775..=5_225).contains(&heads), "{heads}");
    }

    #[test]
    fn words_are_cut_and_their_spacing_does_not_count() {
        assert_eq!(words_digest(["a  b", ""]), words_digest([" a b ", "\t"]));
        assert_ne!(words_digest(["a b", ""]), words_digest(["", "a b"]));
        let long = "x".repeat(MAX_WORDS + 10);
        assert_eq!(clean_words(&long).chars().count(), MAX_WORDS);
    }

    fn digest() -> impl Strategy<Value = InputDigest> {
        any::<[u8; 32]>().prop_map(InputDigest)
    }

    fn draw() -> impl Strategy<Value = DrawInputs> {
        (1u32..10_000, digest(), digest(), digest()).prop_map(|(number, mail, reply, words)| {
            DrawInputs {
                number,
                mail,
                reply,
                words,
            }
        })
    }

    proptest! {
        #[test]
        fn outcomes_are_in_range_and_the_same_inputs_give_the_same_draw(
            seed in any::<[u8; 32]>(), d in draw(), outcomes in 0u32..1000,
        ) {
            let seed = Seed::from_bytes(seed);
            let chance = Chance::public(outcomes, "a draw");
            let o = outcome(&seed, &d, chance);
            prop_assert!(o < outcomes.max(1));
            prop_assert_eq!(o, outcome(&seed.clone(), &d.clone(), chance));
        }

        #[test]
        fn any_changed_input_or_seed_changes_the_derivation(
            seed in any::<[u8; 32]>(), d in draw(), which in 0usize..5, flip in any::<u8>(),
        ) {
            // Over a large die, a change of any input changes the outcome
            // but for a chance of 1 in 2^32: the derivation reads them all.
            let big = Chance::public(u32::MAX, "a large die");
            let s = Seed::from_bytes(seed);
            let before = outcome(&s, &d, big);
            let bit = 1u8 << (flip % 8);
            let mut changed = d;
            let mut other = seed;
            match which {
                0 => changed.number = d.number + 1,
                1 => changed.mail.0[usize::from(flip) % 32] ^= bit,
                2 => changed.reply.0[usize::from(flip) % 32] ^= bit,
                3 => changed.words.0[usize::from(flip) % 32] ^= bit,
                _ => other[usize::from(flip) % 32] ^= bit,
            }
            prop_assert_ne!(before, outcome(&Seed::from_bytes(other), &changed, big));
        }
    }
}
