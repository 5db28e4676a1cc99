//! The registry of hosted games: the one list of the games orderly plays,
//! and the two ways code reaches a game known only by its stored name.
//!
//! - [`find`] gives a game's [`Hosted`] entry: its names, its rules text,
//!   and constructors of a `Box<dyn AnyGame>` (the service's door).
//! - [`with_game`] runs generic code (a [`WithGame`]) with the game's type,
//!   for tools that want the rich static traits (the replay tool's typed
//!   record replay, the engine's benchmarks).
//!
//! ```
//! use orderly::games::{hosted, GameOptions};
//!
//! let squares = hosted::find("SQUARES").unwrap();
//! let game = (squares.new)(&GameOptions::default());
//! assert_eq!(game.name(), "squares");
//! assert!(hosted::find("chess").is_none());
//! ```
//!
//! Adding a game: one line in [`each_game`]; a test checks that every listed
//! name finds the game of that name.

use std::sync::LazyLock;

use super::brothers_at_war::BrothersAtWar;
use super::civil_war_1863::CivilWar1863;
use super::squares::{Napoleonic, Squares};
use super::text::MailTurn;
use super::{AnyGame, GameOptions, GameText, OrderWord, ParseError, Seat};

/// Code run once for each hosted game, with its type.
pub trait EachGame {
    /// Called with each hosted game in turn, in the order offered to
    /// players.
    fn game<G: GameText>(&mut self);
}

/// Runs `visitor` for every hosted game, in the order they are offered to
/// players. This is the list of hosted games.
pub fn each_game(visitor: &mut impl EachGame) {
    visitor.game::<Squares>();
    visitor.game::<Napoleonic>();
    visitor.game::<CivilWar1863>();
    visitor.game::<BrothersAtWar>();
}

/// Generic code run with the type of one hosted game (see [`with_game`]).
pub trait WithGame {
    /// What the code gives.
    type Output;
    /// Runs with `G`, the game's type.
    fn with<G: GameText>(self) -> Self::Output;
}

/// Runs `code` with the type of the hosted game called `name` (any case,
/// surrounding blanks ignored): `None` when no hosted game has that name.
pub fn with_game<W: WithGame>(name: &str, code: W) -> Option<W::Output> {
    struct Find<'n, W: WithGame> {
        name: &'n str,
        code: Option<W>,
        out: Option<W::Output>,
    }
    impl<W: WithGame> EachGame for Find<'_, W> {
        fn game<G: GameText>(&mut self) {
            if G::NAME.eq_ignore_ascii_case(self.name) {
                self.out = self.code.take().map(W::with::<G>);
            }
        }
    }
    let mut find = Find {
        name: name.trim(),
        code: Some(code),
        out: None,
    };
    each_game(&mut find);
    find.out
}

/// A hosted game as the registry lists it: names, texts and constructors,
/// all without its type.
#[derive(Clone, Copy)]
pub struct Hosted {
    /// [`Game::NAME`](super::Game::NAME): how records and the database
    /// name it.
    pub name: &'static str,
    /// [`GameText::TITLE`].
    pub title: &'static str,
    /// [`Game::RULES_VERSION`](super::Game::RULES_VERSION).
    pub rules_version: &'static str,
    /// [`GameText::RULES`]: the rules in the project's words.
    pub rules: &'static str,
    /// The seats' names, North first ([`GameText::seat_name`]).
    pub seats: [&'static str; 2],
    /// [`GameText::SEAT_CODES`].
    pub seat_codes: [&'static str; 2],
    /// A new game ([`Game::new`](super::Game::new)).
    pub new: fn(&GameOptions) -> Box<dyn AnyGame>,
    /// A game at a position ([`Game::from_position`](super::Game::from_position)).
    pub from_position: fn(&str) -> Result<Box<dyn AnyGame>, ParseError>,
    /// [`GameText::order_word`].
    pub order_word: fn(&str) -> OrderWord,
    /// [`GameText::slip_of`].
    pub slip_of: fn(&str) -> Option<&'static str>,
    /// [`Game::CHANCE`](super::Game::CHANCE): whether the game draws
    /// chance, and so has a committed seed (docs/dice.md).
    pub chance: bool,
    /// [`GameText::read_ending`], giving the ending back in the game's one
    /// wording ([`GameText::ending_words`]).
    pub read_ending: fn(&str) -> Option<String>,
    /// [`GameText::MAIL_TURN`]: how a mail closes a turn of many orders.
    pub mail_turn: Option<MailTurn>,
    /// [`GameText::NOTICE`]: what every invitation to the game states.
    pub notice: Option<&'static str>,
    /// [`GameText::ORDERS`]: a few orders as players write them.
    pub orders: &'static str,
    /// [`GameText::COMMANDS`]: the game's own commands, for HELP.
    pub commands: &'static str,
    /// [`GameText::WHO_FIRST`]: who acts first, when no seat simply does.
    pub who_first: Option<&'static str>,
    /// [`GameText::FIRST`]: the seat that always moves first, if fixed.
    pub first: Option<Seat>,
    /// [`Game::scenarios`](crate::games::Game::scenarios).
    pub scenarios: fn() -> Vec<String>,
    /// [`GameText::ORDER_WITHOUT_VERB_OR_UNIT`]: whether an order may name
    /// neither a verb nor a unit.
    pub order_without_verb_or_unit: bool,
}

impl std::fmt::Debug for Hosted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hosted").field("name", &self.name).finish()
    }
}

impl Hosted {
    /// The entry of `G`.
    pub fn of<G: GameText>() -> Hosted {
        fn new<G: GameText>(options: &GameOptions) -> Box<dyn AnyGame> {
            Box::new(G::new(options))
        }
        fn from_position<G: GameText>(text: &str) -> Result<Box<dyn AnyGame>, ParseError> {
            G::from_position(text).map(|g| Box::new(g) as Box<dyn AnyGame>)
        }
        fn read_ending<G: GameText>(words: &str) -> Option<String> {
            G::read_ending(words).map(|e| G::ending_words(&e))
        }
        Hosted {
            name: G::NAME,
            title: G::TITLE,
            rules_version: G::RULES_VERSION,
            rules: G::RULES,
            seats: Seat::BOTH.map(G::seat_name),
            seat_codes: G::SEAT_CODES,
            new: new::<G>,
            from_position: from_position::<G>,
            order_word: G::order_word,
            slip_of: G::slip_of,
            chance: G::CHANCE,
            read_ending: read_ending::<G>,
            mail_turn: G::MAIL_TURN,
            notice: G::NOTICE,
            orders: G::ORDERS,
            commands: G::COMMANDS,
            who_first: G::WHO_FIRST,
            first: G::FIRST,
            scenarios: G::scenarios,
            order_without_verb_or_unit: G::ORDER_WITHOUT_VERB_OR_UNIT,
        }
    }

    /// The game's own name for `seat`.
    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.seats[seat.index()]
    }

    /// The seats' words as players write them, North first: `BLUE|GRAY`.
    pub fn seat_words(&self) -> String {
        self.seats.map(str::to_ascii_uppercase).join("|")
    }

    /// The seat the game calls `word` (any case), if any.
    pub fn seat_named(&self, word: &str) -> Option<Seat> {
        let word = word.trim();
        Seat::BOTH.into_iter().find(|&seat| {
            let code = self.seat_codes[seat.index()];
            self.seat_name(seat).eq_ignore_ascii_case(word)
                || (!code.is_empty() && code.eq_ignore_ascii_case(word))
        })
    }
}

/// Every hosted game, in the order they are offered to players.
pub static HOSTED: LazyLock<Vec<Hosted>> = LazyLock::new(|| {
    struct List(Vec<Hosted>);
    impl EachGame for List {
        fn game<G: GameText>(&mut self) {
            self.0.push(Hosted::of::<G>());
        }
    }
    let mut list = List(Vec::new());
    each_game(&mut list);
    list.0
});

/// The name of every hosted game, as stored and as written in records
/// (`[Game "squares"]`), in the order they are offered to players.
pub static GAMES: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| HOSTED.iter().map(|h| h.name).collect());

/// The hosted game called `name` (any case, surrounding blanks ignored).
pub fn find(name: &str) -> Option<&'static Hosted> {
    HOSTED
        .iter()
        .chain(TEST_ONLY.iter())
        .find(|h| h.name.eq_ignore_ascii_case(name.trim()))
}

/// Games the lib's own tests can play through the service, found by name
/// but never listed or offered: a coin race drives the service's fair
/// draws end to end (src/service/dice.rs) while no hosted game has chance
/// yet. In any other build the list is empty, so no player meets a toy.
#[cfg(test)]
static TEST_ONLY: LazyLock<Vec<Hosted>> =
    LazyLock::new(|| vec![Hosted::of::<super::chance::coin_race::CoinRace>()]);
#[cfg(not(test))]
static TEST_ONLY: LazyLock<Vec<Hosted>> = LazyLock::new(Vec::new);

/// The stored name of the hosted game called `name` in any case
/// (`"Squares"` -> `"squares"`), if orderly hosts it.
pub fn canonical(name: &str) -> Option<&'static str> {
    find(name).map(|h| h.name)
}

/// The full title of a hosted game ("SQUARES - The Civil War Battle Game").
pub fn title(name: &str) -> Option<&'static str> {
    find(name).map(|h| h.title)
}

/// A hosted game's rules in the project's own words (`HELP RULES`).
pub fn rules(name: &str) -> Option<&'static str> {
    find(name).map(|h| h.rules)
}

/// A hosted game's own name for a seat ("Blue", "British").
pub fn seat_name(name: &str, seat: Seat) -> Option<&'static str> {
    find(name).map(|h| h.seat_name(seat))
}

/// The seat a hosted game calls `word` (any case), if the game is hosted
/// and has a seat of that name.
pub fn seat_named(name: &str, word: &str) -> Option<Seat> {
    find(name)?.seat_named(word)
}

/// A hosted game's seat words as players write them, North first:
/// `BLUE|GRAY`.
pub fn seat_words(name: &str) -> Option<String> {
    find(name).map(Hosted::seat_words)
}

/// Every hosted game with its seat words, as usage texts list them:
/// `SQUARES (BLUE|GRAY), NAPOLEONIC (BRITISH|FRENCH)`.
pub fn listing() -> String {
    HOSTED
        .iter()
        .map(|h| format!("{} ({})", h.name.to_ascii_uppercase(), h.seat_words()))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    #[test]
    fn every_listed_name_finds_the_game_of_that_name() {
        struct Name;
        impl WithGame for Name {
            type Output = &'static str;
            fn with<G: GameText>(self) -> &'static str {
                G::NAME
            }
        }
        assert_eq!(GAMES[0], "squares", "SQUARES is offered first");
        for name in GAMES.iter() {
            assert_eq!(with_game(name, Name), Some(*name));
            let upper = name.to_ascii_uppercase();
            assert_eq!(canonical(&format!(" {upper} ")), Some(*name));
            assert!(title(name).is_some_and(|t| !t.is_empty()));
            assert!(rules(name).is_some_and(|r| r.contains("## Rule ids")));
            let hosted = find(name).unwrap();
            let game = (hosted.new)(&GameOptions::default());
            assert_eq!(game.name(), *name);
            let again = (hosted.from_position)(&game.position()).unwrap();
            assert_eq!(again.position(), game.position());
        }
        let distinct: std::collections::HashSet<_> = GAMES.iter().collect();
        assert_eq!(distinct.len(), GAMES.len());
    }

    #[test]
    fn unknown_names_find_nothing() {
        for name in ["chess", "", "squares2", "square"] {
            assert_eq!(canonical(name), None, "{name}");
            assert_eq!(seat_name(name, Seat::North), None, "{name}");
            assert_eq!(seat_words(name), None, "{name}");
        }
    }

    #[test]
    fn the_lookups_are_the_games_own() {
        assert_eq!(title("squares"), Some(Squares::TITLE));
        assert_eq!(seat_name("SQUARES", Seat::South), Some("Gray"));
        assert_eq!(seat_named("squares", "blue"), Some(Seat::North));
        assert_eq!(seat_named("squares", "british"), None);
        assert_eq!(seat_named("chess", "blue"), None);
        assert_eq!(seat_words("squares").as_deref(), Some("BLUE|GRAY"));
        assert_eq!(title("Napoleonic"), Some(Napoleonic::TITLE));
        assert_eq!(rules("squares"), Some(Squares::RULES));
        assert_eq!(rules("NAPOLEONIC"), Some(Napoleonic::RULES));
        assert_ne!(Squares::RULES, Napoleonic::RULES);
        assert_eq!(rules("chess"), None);
        assert_eq!(seat_name("napoleonic", Seat::North), Some("British"));
        assert_eq!(seat_named("NAPOLEONIC", "french"), Some(Seat::South));
        assert_eq!(seat_named("napoleonic", "gray"), None);
        assert_eq!(seat_words("napoleonic").as_deref(), Some("BRITISH|FRENCH"));
        assert_eq!(
            listing(),
            "SQUARES (BLUE|GRAY), NAPOLEONIC (BRITISH|FRENCH), \
             CIVILWAR1863 (UNION|CONFEDERACY), BROTHERSATWAR (UNION|CONFEDERACY)"
        );
        assert_eq!(
            seat_words("civilwar1863").as_deref(),
            Some("UNION|CONFEDERACY")
        );
        assert!(find("CivilWar1863").is_some_and(|h| h.chance && h.notice.is_some()));
        assert!(find("squares").is_some_and(|h| !h.chance && h.notice.is_none()));
    }

    #[test]
    fn generic_code_runs_with_the_games_type() {
        struct FirstLegal;
        impl WithGame for FirstLegal {
            type Output = Option<String>;
            fn with<G: GameText>(self) -> Option<String> {
                let game = G::new(&GameOptions::default());
                Game::legal_orders(&game).first().map(|o| o.to_string())
            }
        }
        assert!(with_game("squares", FirstLegal).flatten().is_some());
        assert!(with_game("napoleonic", FirstLegal).flatten().is_some());
        assert!(with_game("civilwar1863", FirstLegal).flatten().is_some());
        // A new battle waits for the deal, a draw of chance: no order yet.
        assert_eq!(with_game("brothersatwar", FirstLegal), Some(None));
        assert_eq!(with_game("go", FirstLegal), None);
    }

    #[test]
    fn a_games_own_commands_are_lines_of_helps_table() {
        use crate::games::text::MAIL_WIDTH;
        for h in HOSTED.iter() {
            for line in h.commands.lines() {
                assert!(line.len() <= MAIL_WIDTH, "{}: {line:?}", h.name);
                // A command from column 3, what it does from column 28.
                let indent = line.len() - line.trim_start().len();
                assert!(indent == 2 || indent == 27, "{}: {line:?}", h.name);
            }
            assert!(h.commands.is_empty() || h.commands.ends_with('\n'));
        }
        assert!(find("squares").is_some_and(|h| h.commands.contains("IF STAND OPTION 2")));
        assert!(find("civilwar1863").is_some_and(|h| h.commands.contains("MORE")));
    }
}
