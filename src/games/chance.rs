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
//!
//! [`draw_pending`] makes the draws a game waits for and applies them;
//! [`submit`](crate::games::submission::submit) stops before the lines
//! that follow a pending draw, so that the caller draws and goes on.

use serde::{Deserialize, Serialize};

use super::{AnyGame, Happened, Rejection};

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

/// A draw of chance made and applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    /// What was drawn ([`Chance::what`]).
    pub what: &'static str,
    /// The outcome, in `0..outcomes`.
    pub outcome: u32,
    /// The order that applied it, in canonical notation.
    pub order: String,
    /// What it did.
    pub events: Vec<Happened>,
}

/// At most this many draws follow one another without a player's
/// decision between them: a bound against a game that would draw forever.
pub const MAX_DRAWS_IN_A_ROW: usize = 64;

/// Makes every draw of chance `game` waits for, one after the other,
/// `next` being the number of the game's next draw (it counts on), and
/// applies each outcome as the game's order. Stops when a player must
/// decide or the game is over; a game whose chance order it refuses is a
/// bug in that game, answered as the refusal.
pub fn draw_pending(
    game: &mut dyn AnyGame,
    draws: Draws,
    next: &mut u64,
) -> Result<Vec<Drawn>, Rejection> {
    let mut drawn = Vec::new();
    while let Some(chance) = game.chance() {
        if drawn.len() >= MAX_DRAWS_IN_A_ROW {
            break;
        }
        let outcome = draws.outcome(*next, chance);
        let Some(order) = game.chance_order(outcome) else {
            break;
        };
        let (order, events) = game.apply_canonical(&order)?;
        *next += 1;
        drawn.push(Drawn {
            what: chance.what,
            outcome,
            order,
            events,
        });
    }
    Ok(drawn)
}

/// One step of the splitmix64 generator (Steele, Lea, Flood 2014): a
/// well-mixed 64-bit function of its input.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game small enough to read at a glance, with a coin toss in every
/// turn, to exercise the chance seam where the hosted games have none:
/// on your turn you TOSS; heads scores you a point; first to 3 wins.
#[cfg(test)]
mod coin_race {
    use std::fmt;

    use serde::{Deserialize, Serialize};

    use super::Chance;
    use crate::games::{
        CitesRule, Game, GameOptions, GameResult, GameText, OrderWord, Outcome, ParseError,
        Pending, Phase, Rejection, RuleId, Seat,
    };

    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct CoinRace {
        pub points: [u8; 2],
        pub to_move: Seat,
        pub tossing: bool,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub enum Play {
        Toss,
        Heads,
        Tails,
    }

    impl fmt::Display for Play {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(match self {
                Play::Toss => "TOSS",
                Play::Heads => "HEADS",
                Play::Tails => "TAILS",
            })
        }
    }

    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[error("not now")]
    pub struct NotNow;

    impl CitesRule for NotNow {
        fn rule(&self) -> RuleId {
            RuleId("C1")
        }
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct TossDecision;

    impl fmt::Display for TossDecision {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("toss")
        }
    }

    impl Game for CoinRace {
        type Order = Play;
        type Event = String;
        type Refusal = NotNow;
        type Decision = TossDecision;
        type Ending = u8;
        const NAME: &'static str = "coinrace";
        const RULES_VERSION: &'static str = "coin race 1";

        fn new(options: &GameOptions) -> Self {
            CoinRace {
                points: [0, 0],
                to_move: options.first,
                tossing: false,
            }
        }
        fn pending(&self) -> Option<Pending<TossDecision>> {
            (!self.tossing && Game::outcome(self).is_none()).then_some(Pending {
                seat: self.to_move,
                phase: Phase::WHOLE_TURN,
                kind: TossDecision,
            })
        }
        fn legal_orders(&self) -> Vec<Play> {
            match (self.tossing, Game::outcome(self)) {
                (_, Some(_)) => vec![],
                (false, None) => vec![Play::Toss],
                (true, None) => vec![Play::Heads, Play::Tails],
            }
        }
        fn parse_order(&self, text: &str) -> Result<Play, ParseError> {
            match text.trim().to_ascii_uppercase().as_str() {
                "TOSS" => Ok(Play::Toss),
                "HEADS" => Ok(Play::Heads),
                "TAILS" => Ok(Play::Tails),
                _ => Err(ParseError::new("TOSS")),
            }
        }
        fn apply(&mut self, order: &Play) -> Result<Vec<String>, NotNow> {
            if !Game::legal_orders(self).contains(order) {
                return Err(NotNow);
            }
            let me = self.to_move;
            match order {
                Play::Toss => self.tossing = true,
                toss => {
                    if *toss == Play::Heads {
                        self.points[me.index()] += 1;
                    }
                    self.tossing = false;
                    self.to_move = me.other();
                }
            }
            Ok(vec![format!("{me:?} {order}")])
        }
        fn outcome(&self) -> Option<Outcome<u8>> {
            Seat::BOTH
                .into_iter()
                .find(|s| self.points[s.index()] >= 3)
                .map(|s| Outcome {
                    result: GameResult::Win(s),
                    reason: 3,
                })
        }
        fn position(&self) -> String {
            serde_json::to_string(self).unwrap_or_default()
        }
        fn from_position(text: &str) -> Result<Self, ParseError> {
            serde_json::from_str(text).map_err(|e| ParseError::new(e.to_string()))
        }
        fn turn_number(&self) -> u32 {
            u32::from(self.points[0] + self.points[1])
        }
        fn forced(_: &String) -> Option<(Seat, Play)> {
            None
        }
        fn chance(&self) -> Option<Chance> {
            self.tossing.then_some(Chance {
                outcomes: 2,
                what: "a coin toss",
            })
        }
        fn chance_order(&self, outcome: u32) -> Option<Play> {
            self.tossing.then_some(if outcome == 0 {
                Play::Heads
            } else {
                Play::Tails
            })
        }
    }

    impl GameText for CoinRace {
        const TITLE: &'static str = "Coin race";
        const RULES: &'static str = "Play; heads scores; first to 3 wins.";
        fn seat_name(seat: Seat) -> &'static str {
            ["North", "South"][seat.index()]
        }
        fn ending_words(points: &u8) -> String {
            format!("first to {points}")
        }
        fn read_ending(words: &str) -> Option<u8> {
            words.strip_prefix("first to ")?.parse().ok()
        }
        fn read_order(&self, line: &str) -> Result<Play, Rejection> {
            match self.parse_order(line) {
                Ok(Play::Toss) if Game::legal_orders(self).contains(&Play::Toss) => Ok(Play::Toss),
                _ => Err(Rejection {
                    line: line.to_string(),
                    problem: "only TOSS, on your turn".to_string(),
                    rule: Some(RuleId("C1")),
                    suggestions: vec!["TOSS".to_string()],
                }),
            }
        }
        fn order_word(word: &str) -> OrderWord {
            if word.eq_ignore_ascii_case("TOSS") {
                OrderWord::Verb
            } else {
                OrderWord::Other
            }
        }
        fn slip_of(_: &str) -> Option<&'static str> {
            None
        }
        fn draw_board(&self, _: Seat, _: &[String]) -> String {
            format!("{} - {}", self.points[0], self.points[1])
        }
        fn choices(&self, _: Seat) -> String {
            "TOSS".to_string()
        }
        fn choices_from(&self, _: &str) -> Result<String, Rejection> {
            Ok("TOSS".to_string())
        }
    }
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

    #[test]
    fn the_service_side_draws_and_the_game_applies_the_outcome_as_an_order() {
        use super::coin_race::CoinRace;
        use super::{draw_pending, Drawn};
        use crate::games::submission::submit;
        use crate::games::{AnyGame, Game, GameOptions, Seat};

        let mut game: Box<dyn AnyGame> = Box::new(CoinRace::new(&GameOptions::default()));
        // A TOSS leaves a draw pending: the rest of the mail waits for it.
        let s = submit(game.as_mut(), Seat::North, &["TOSS", "TOSS"]);
        assert_eq!(s.taken.len(), 1);
        assert_eq!(s.rest, vec!["TOSS".to_string()]);
        assert!(s.unused.is_empty() && game.pending().is_none());
        let draws = Draws::new(42);
        let mut next = 0;
        let drawn: Vec<Drawn> = draw_pending(game.as_mut(), draws, &mut next).unwrap();
        assert_eq!(drawn.len(), 1);
        assert_eq!(next, 1);
        let expected = ["HEADS", "TAILS"][draws.outcome(0, COIN) as usize];
        assert_eq!(drawn[0].order, expected);
        assert_eq!(drawn[0].what, "a coin toss");
        // South's turn now: North's second TOSS is no longer North's to play.
        assert_eq!(game.pending().map(|p| p.seat), Some(Seat::South));
        // Nothing is pending: no draw.
        assert!(draw_pending(game.as_mut(), draws, &mut next)
            .unwrap()
            .is_empty());
        assert_eq!(next, 1);
    }

    #[test]
    fn replaying_the_drawn_outcomes_needs_no_seed() {
        use super::coin_race::CoinRace;
        use super::draw_pending;
        use crate::games::{AnyGame, Game, GameOptions, Seat};

        let draws = Draws::new(7);
        let mut played: Box<dyn AnyGame> = Box::new(CoinRace::new(&GameOptions::default()));
        let mut orders = Vec::new();
        let mut next = 0;
        while let Some(p) = played.pending() {
            let (order, _) = played.play("TOSS").unwrap();
            orders.push((p.seat, order));
            for d in draw_pending(played.as_mut(), draws, &mut next).unwrap() {
                orders.push((p.seat, d.order));
            }
        }
        assert!(played.outcome().is_some());
        let mut replayed: Box<dyn AnyGame> = Box::new(CoinRace::new(&GameOptions {
            first: Seat::North,
            seed: None,
        }));
        for (_, order) in &orders {
            replayed.apply_canonical(order).unwrap();
        }
        assert_eq!(replayed.position(), played.position());
        assert_eq!(replayed.outcome(), played.outcome());
    }
}
