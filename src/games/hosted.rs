//! The games orderly hosts, by the name the database and the records store
//! (`Game::NAME`), and the one place that turns such a name into a type.
//!
//! The service, `orderly engine` and `orderly replay` are written once,
//! generic over `G: Game`; what game a stored row or a record is, is only
//! known at run time, as its name. [`with_game!`](crate::with_game) bridges
//! the two: it matches the name against the hosted games and evaluates its
//! body with `G` standing for the matching type, so that no code outside
//! this file lists the games and no trait object is needed (a `Game` has
//! associated types and constants, which a `dyn` could not carry).
//!
//! ```
//! use orderly::games::{Game, GameOptions};
//!
//! let opening = orderly::with_game!("SQUARES", G => G::new(&GameOptions::default()).position());
//! assert_eq!(opening.as_deref(), Some("9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -"));
//! assert!(orderly::with_game!("chess", G => G::TITLE).is_none());
//! ```
//!
//! Adding a game: its name goes into [`GAMES`] and one arm into
//! `with_game!` (both below); a test checks that every listed name
//! dispatches to the game of that name.

use super::{Game, Seat};

/// The name of every hosted game, as stored and as written in records
/// (`[Game "squares"]`), in the order they are offered to players.
pub const GAMES: &[&str] = &[
    crate::games::squares::Squares::NAME,
    crate::games::squares::Napoleonic::NAME,
];

/// Evaluates an expression with a type standing for the hosted game named
/// by a string (any case, surrounding blanks ignored).
///
/// `with_game!(name, G => expr)` is `Some(expr)` with `G` the type whose
/// `Game::NAME` is `name`, or `None` when no hosted game has that name.
/// `expr` may use `?` and `return`: they act on the enclosing function, as
/// the expression is expanded in place (once per hosted game, each copy
/// with its own `G`, so it must have one type whatever the game).
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {{
        let name: &str = $name;
        if $crate::games::hosted::is::<$crate::games::squares::Squares>(name) {
            #[allow(dead_code)]
            type $G = $crate::games::squares::Squares;
            Some($body)
        } else if $crate::games::hosted::is::<$crate::games::squares::Napoleonic>(name) {
            #[allow(dead_code)]
            type $G = $crate::games::squares::Napoleonic;
            Some($body)
        } else {
            None
        }
    }};
}

/// Whether `name` names the game `G` (any case): the test `with_game!`
/// matches with.
pub fn is<G: Game>(name: &str) -> bool {
    G::NAME.eq_ignore_ascii_case(name.trim())
}

/// The stored name of the hosted game called `name` in any case
/// (`"Squares"` -> `"squares"`), if orderly hosts it.
pub fn canonical(name: &str) -> Option<&'static str> {
    crate::with_game!(name, G => G::NAME)
}

/// The full title of a hosted game ("SQUARES - The Civil War Battle Game").
pub fn title(name: &str) -> Option<&'static str> {
    crate::with_game!(name, G => G::TITLE)
}

/// A hosted game's rules in the project's own words (`HELP RULES`).
pub fn rules(name: &str) -> Option<&'static str> {
    crate::with_game!(name, G => G::RULES)
}

/// A hosted game's own name for a seat ("Blue", "British").
pub fn seat_name(name: &str, seat: Seat) -> Option<&'static str> {
    crate::with_game!(name, G => G::seat_name(seat))
}

/// The seat a hosted game calls `word` (any case), if the game is hosted
/// and has a seat of that name.
pub fn seat_named(name: &str, word: &str) -> Option<Seat> {
    crate::with_game!(name, G => super::seat_named::<G>(word)).flatten()
}

/// A hosted game's seat words as players write them, North first:
/// `BLUE|GRAY`.
pub fn seat_words(name: &str) -> Option<String> {
    crate::with_game!(name, G => Seat::BOTH
        .map(|s| G::seat_name(s).to_ascii_uppercase())
        .join("|"))
}

/// Every hosted game with its seat words, as usage texts list them:
/// `SQUARES (BLUE|GRAY), NAPOLEONIC (BRITISH|FRENCH)`.
pub fn listing() -> String {
    GAMES
        .iter()
        .map(|name| {
            format!(
                "{} ({})",
                name.to_ascii_uppercase(),
                seat_words(name).unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::squares::{Napoleonic, Squares};

    #[test]
    fn every_listed_name_dispatches_to_the_game_of_that_name() {
        assert_eq!(GAMES[0], "squares", "SQUARES is offered first");
        for name in GAMES {
            assert_eq!(crate::with_game!(name, G => G::NAME), Some(*name));
            let upper = name.to_ascii_uppercase();
            assert_eq!(canonical(&format!(" {upper} ")), Some(*name));
            assert!(title(name).is_some_and(|t| !t.is_empty()));
            assert!(rules(name).is_some_and(|r| r.contains("## Rule ids")));
        }
        let distinct: std::collections::HashSet<_> = GAMES.iter().collect();
        assert_eq!(distinct.len(), GAMES.len());
    }

    #[test]
    fn unknown_names_dispatch_to_nothing() {
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
            "SQUARES (BLUE|GRAY), NAPOLEONIC (BRITISH|FRENCH)"
        );
    }

    #[test]
    fn the_body_may_return_early_from_the_enclosing_function() {
        fn first_legal(name: &str) -> Result<String, String> {
            let order = crate::with_game!(name, G => {
                let game = G::new(&crate::games::GameOptions::default());
                let legal = game.legal_orders();
                legal.first().ok_or("no legal order")?.to_string()
            });
            order.ok_or_else(|| format!("{name} is not hosted"))
        }
        assert!(first_legal("squares").is_ok());
        assert!(first_legal("napoleonic").is_ok());
        assert_eq!(first_legal("go"), Err("go is not hosted".to_string()));
    }
}
