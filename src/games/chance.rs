//! Chance, kept out of the games: a game that tosses a coin, rolls a die
//! or draws a card says so ([`Game::chance`](crate::games::Game::chance)),
//! the service draws the outcome, and the game applies it as an order
//! ([`Game::chance_order`](crate::games::Game::chance_order)).
//!
//! A game stays a pure state machine: replaying its orders, the drawn
//! outcomes among them, rebuilds it exactly, without the seed. How the
//! service draws, so that nobody can bias or foresee a draw and everybody
//! can check it afterwards, is [`fair`](crate::games::fair) (docs/dice.md).
//!
//! [`draw_pending`] makes the draws a game waits for and applies them;
//! [`submit`](crate::games::submission::submit) stops before the lines
//! that follow a pending draw, so that the caller draws and goes on.

use serde::{Deserialize, Serialize};

use super::{AnyGame, Happened, Rejection, Seat};

/// A draw of chance a game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chance {
    /// How many outcomes there are, all equally likely (2 for a coin,
    /// 6 for a die, the cards left for a draw); at least 1.
    pub outcomes: u32,
    /// What is drawn, in a few words for the record and the mail ("a coin
    /// toss for the first move").
    pub what: &'static str,
    /// The seat that alone may know the outcome until the game is over (a
    /// card drawn into a hidden hand); `None` for a draw both players see.
    /// The other seat is told that a draw was made and its number, not
    /// what it gave; the record shows it to him once the game has ended.
    pub private_to: Option<Seat>,
}

impl Chance {
    /// A draw both players see.
    pub const fn public(outcomes: u32, what: &'static str) -> Chance {
        Chance {
            outcomes,
            what,
            private_to: None,
        }
    }

    /// A draw only `seat` may know until the game is over.
    pub const fn private(outcomes: u32, what: &'static str, seat: Seat) -> Chance {
        Chance {
            outcomes,
            what,
            private_to: Some(seat),
        }
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
    /// [`Chance::private_to`].
    pub private_to: Option<Seat>,
}

/// At most this many draws follow one another without a player's
/// decision between them: a bound against a game that would draw forever.
pub const MAX_DRAWS_IN_A_ROW: usize = 64;

/// Makes every draw of chance `game` waits for, one after the other, each
/// outcome given by `draw` (the service's fair draw, docs/dice.md), and
/// applies each as the game's order. Stops when a player must decide or
/// the game is over; a game whose chance order it refuses is a bug in
/// that game, answered as the refusal.
pub fn draw_pending(
    game: &mut dyn AnyGame,
    draw: &mut dyn FnMut(Chance) -> u32,
) -> Result<Vec<Drawn>, Rejection> {
    let mut drawn = Vec::new();
    while let Some(chance) = game.chance() {
        if drawn.len() >= MAX_DRAWS_IN_A_ROW {
            break;
        }
        let outcome = draw(chance).min(chance.outcomes.max(1) - 1);
        let Some(order) = game.chance_order(outcome) else {
            break;
        };
        let (order, events) = game.apply_canonical(&order)?;
        drawn.push(Drawn {
            what: chance.what,
            outcome,
            order,
            events,
            private_to: chance.private_to,
        });
    }
    Ok(drawn)
}

/// A game small enough to read at a glance, with a coin toss in every
/// turn, to exercise the chance seam where the hosted games have none:
/// on your turn you TOSS; heads scores you a point; first to 3 wins (or
/// to 5, on its second scenario, to exercise the choice of a battle).
#[cfg(test)]
pub(crate) mod coin_race {
    use std::fmt;

    use serde::{Deserialize, Serialize};

    use super::Chance;
    use crate::games::{
        CitesRule, Game, GameOptions, GameResult, GameText, OrderWord, Outcome, ParseError,
        Pending, Phase, Rejection, RuleId, Seat,
    };

    /// The target of the `secret` scenario, whose tosses only the tosser
    /// sees until the game is over.
    pub const SECRET_TARGET: u8 = 4;

    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct CoinRace {
        pub points: [u8; 2],
        pub target: u8,
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
        const CHANCE: bool = true;

        fn new(options: &GameOptions) -> Self {
            CoinRace {
                points: [0, 0],
                target: match options.scenario.as_deref() {
                    Some("first-to-5") => 5,
                    Some("secret") => SECRET_TARGET,
                    _ => 3,
                },
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
            // On the secret track a toss's event names its tosser, so
            // that the other seat's words can leave its outcome out.
            let secret = if self.target == SECRET_TARGET && *order != Play::Toss {
                "secret "
            } else {
                ""
            };
            Ok(vec![format!("{me:?} {secret}{order}")])
        }
        fn outcome(&self) -> Option<Outcome<u8>> {
            Seat::BOTH
                .into_iter()
                .find(|s| self.points[s.index()] >= self.target)
                .map(|s| Outcome {
                    result: GameResult::Win(s),
                    reason: self.target,
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
        fn scenarios() -> Vec<String> {
            vec![
                "first-to-3".to_string(),
                "first-to-5".to_string(),
                "secret".to_string(),
            ]
        }
        fn chance(&self) -> Option<Chance> {
            // On the secret track only the tosser learns his toss.
            self.tossing.then_some(if self.target == SECRET_TARGET {
                Chance::private(2, "a coin toss", self.to_move)
            } else {
                Chance::public(2, "a coin toss")
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
        fn event_text(event: &String, viewer: Seat) -> String {
            match event.split_once(" secret ") {
                Some((tosser, _)) if tosser != format!("{viewer:?}") => format!("{tosser} tossed"),
                _ => event.clone(),
            }
        }
        fn draw_board(&self, viewer: Seat, _: &[String]) -> String {
            let shown = |s: Seat| {
                if self.target == SECRET_TARGET && s != viewer && Game::outcome(self).is_none() {
                    "?".to_string()
                } else {
                    self.points[s.index()].to_string()
                }
            };
            format!("{} - {}", shown(Seat::North), shown(Seat::South))
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
    use super::coin_race::CoinRace;
    use super::{draw_pending, Drawn};
    use crate::games::submission::submit;
    use crate::games::{AnyGame, Game, GameOptions, Seat};

    #[test]
    fn the_service_side_draws_and_the_game_applies_the_outcome_as_an_order() {
        let mut game: Box<dyn AnyGame> = Box::new(CoinRace::new(&GameOptions::default()));
        // A TOSS leaves a draw pending: the rest of the mail waits for it.
        let s = submit(game.as_mut(), Seat::North, &["TOSS", "TOSS"]);
        assert_eq!(s.taken.len(), 1);
        assert_eq!(s.rest, vec!["TOSS".to_string()]);
        assert!(s.unused.is_empty() && game.pending().is_none());
        let mut asked = Vec::new();
        let drawn: Vec<Drawn> = draw_pending(game.as_mut(), &mut |c| {
            asked.push(c.outcomes);
            1
        })
        .unwrap();
        assert_eq!(asked, vec![2]);
        assert_eq!(drawn.len(), 1);
        assert_eq!(drawn[0].order, "TAILS");
        assert_eq!(drawn[0].what, "a coin toss");
        // South's turn now: North's second TOSS is no longer North's to play.
        assert_eq!(game.pending().map(|p| p.seat), Some(Seat::South));
        // Nothing is pending: no draw.
        assert!(draw_pending(game.as_mut(), &mut |_| unreachable!())
            .unwrap()
            .is_empty());
    }

    #[test]
    fn an_outcome_out_of_range_is_taken_as_the_last() {
        let mut game: Box<dyn AnyGame> = Box::new(CoinRace::new(&GameOptions::default()));
        game.play("TOSS").unwrap();
        let drawn = draw_pending(game.as_mut(), &mut |_| 9).unwrap();
        assert_eq!(drawn[0].outcome, 1);
    }

    #[test]
    fn replaying_the_drawn_outcomes_needs_no_seed() {
        let mut played: Box<dyn AnyGame> = Box::new(CoinRace::new(&GameOptions::default()));
        let mut orders = Vec::new();
        let mut n = 0u32;
        while let Some(p) = played.pending() {
            let (order, _) = played.play("TOSS").unwrap();
            orders.push((p.seat, order));
            n += 1;
            for d in draw_pending(played.as_mut(), &mut |_| n % 3 % 2).unwrap() {
                orders.push((p.seat, d.order));
            }
        }
        assert!(played.outcome().is_some());
        let mut replayed: Box<dyn AnyGame> = Box::new(CoinRace::new(&GameOptions {
            first: Seat::North,
            ..GameOptions::default()
        }));
        for (_, order) in &orders {
            replayed.apply_canonical(order).unwrap();
        }
        assert_eq!(replayed.position(), played.position());
        assert_eq!(replayed.outcome(), played.outcome());
    }
}
