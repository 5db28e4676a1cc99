//! The computer opponent: a Monte Carlo tree search over a rules engine.
//!
//! The bot knows no strategy of its own. From the position it is asked
//! about it grows a search tree: each round walks down the tree by UCT
//! (the child with the best balance of results so far and of being little
//! tried), adds one new position, plays on from there with uniformly random
//! legal orders for a bounded number of orders, and scores the end reached:
//! a finished game by its result, an unfinished one by the points each side
//! has scored (R26). The order played is the one whose branch was visited
//! most.
//!
//! - **Deterministic**: the search draws from its own seeded generator and
//!   its budget is a count of rounds, never a time, so the same position,
//!   level and seed give the same order on every machine.
//! - **Levels** 1 to 5 differ only in that budget ([`Level::budget_in`]:
//!   rounds, and in the Civil War Game 1863 how they spread); the
//!   bench `cargo bench --bench bot` plays the levels against each other
//!   and prints the table and the time per decision.
//! - **Games**: SQUARES, its Napoleonic variant and the Civil War Game
//!   1863, through [`Searchable`];
//!   the search itself is game-blind (`mcts.rs`). The service and the
//!   command line reach it through [`order_for`], for any hosted game by
//!   its position string; games it does not play answer `None`.

mod civil_war_1863;
mod mcts;
mod squares;

pub use mcts::{search, Budget, SearchReport, Searchable, Spread};

use crate::games::civil_war_1863::CivilWar1863;
use crate::games::squares::{NapOrder, Napoleonic, Order, Squares};
use crate::games::{AnyGame, Game};

/// How hard the computer plays: 1 (weakest) to 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level (the Play of the Day's house).
    pub const MAX: Level = Level(5);
    /// The level a game gets when `NEW ... VS COMPUTER` names none.
    pub const DEFAULT: Level = Level(3);

    /// The level `n`, if it is one of 1 to 5.
    pub fn new(n: u8) -> Option<Level> {
        (1..=5).contains(&n).then_some(Level(n))
    }

    /// Its number, 1 to 5.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=5).map(Level)
    }

    /// The search rounds per decision: three times the level below, so
    /// that each level is measurably stronger than the one under it
    /// (docs/computer-opponent.md has the strength table).
    pub fn rounds(self) -> u32 {
        [40, 120, 360, 1_080, 3_240][usize::from(self.0 - 1)]
    }

    /// The search budget per decision in the hosted game called `game`.
    /// SQUARES and the Napoleonic variant search [`rounds`](Self::rounds)
    /// rounds of a playout each. The Civil War Game 1863 ranks its orders
    /// before searching them: a dozen rounds already play its best-ranked
    /// orders and beat random play, so its level 1 searches that few and
    /// level 2 ten times as many, both spread wide; level 3 searches the
    /// SQUARES rounds spread deep, since spread wide its extra rounds went
    /// to poorly ranked orders and bought little strength; levels 4 and 5
    /// spread deeper still, with two playouts a round at level 4 and four
    /// at level 5, since three times the rounds alone bought level 4 only
    /// about 61% against level 3, and level 5 with level 4's two playouts
    /// about 50% against level 4 ([`Spread`], docs/computer-opponent.md).
    pub fn budget_in(self, game: &str) -> Budget {
        if game != CivilWar1863::NAME {
            return Budget::rounds(self.rounds());
        }
        match self.0 {
            1 => Budget::rounds(12),
            2 => Budget::rounds(self.rounds()),
            3 => Budget {
                spread: Spread::DEEP,
                ..Budget::rounds(self.rounds())
            },
            4 => Budget {
                playouts: 2,
                spread: Spread::DEEPER,
                ..Budget::rounds(self.rounds())
            },
            _ => Budget {
                playouts: 4,
                spread: Spread::DEEPER,
                ..Budget::rounds(self.rounds())
            },
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The order the computer plays in a SQUARES position (either game) at
/// `level`, searching with `seed`; `None` when the game is over. The order
/// is always one of the position's legal orders.
pub fn choose(position: &Squares, level: Level, seed: u64) -> Option<Order> {
    search(position, level.rounds(), seed).map(|report| report.order)
}

/// The computer's answer for a game of any kind, in the game's canonical
/// notation (as records keep orders), with what the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputerOrder {
    /// The order, canonical: it applies with
    /// [`AnyGame::apply_canonical`].
    pub order: String,
    /// The rounds searched (0 when the order was the only legal one).
    pub rounds: u32,
    /// The playouts searched: the rounds times the level's playouts a
    /// round. What the search cost, on any machine.
    pub playouts: u64,
    /// The rounds that went through the order.
    pub visits: u32,
    /// The computer's expected score after it, 0 (lost) to 1 (won).
    pub expected: f64,
}

/// Whether the computer plays the hosted game called `game`.
pub fn plays(game: &str) -> bool {
    game == Squares::NAME || game == Napoleonic::NAME || game == CivilWar1863::NAME
}

/// The computer's order for the decision pending in `game` at `level`,
/// searching with `seed`; `None` when the computer does not play this
/// game, or nobody is to decide. The game is read from its position
/// string, so the search sees exactly what the record holds.
pub fn order_for(game: &dyn AnyGame, level: Level, seed: u64) -> Option<ComputerOrder> {
    let position = game.position();
    let budget = level.budget_in(game.name());
    match game.name() {
        Squares::NAME => {
            let g = Squares::from_position(&position).ok()?;
            search(&g, budget, seed).map(|r| answer(r, budget, Order::to_string))
        }
        Napoleonic::NAME => {
            let g = Napoleonic::from_position(&position).ok()?;
            search(g.squares(), budget, seed)
                .map(|r| answer(r, budget, |o| NapOrder(*o).to_string()))
        }
        CivilWar1863::NAME => {
            let g = CivilWar1863::from_position(&position).ok()?;
            search(&g, budget, seed).map(|r| answer(r, budget, ToString::to_string))
        }
        _ => None,
    }
}

/// A search's report as the service takes it, the order written by `write`.
fn answer<O>(
    report: SearchReport<O>,
    budget: Budget,
    write: impl Fn(&O) -> String,
) -> ComputerOrder {
    ComputerOrder {
        order: write(&report.order),
        rounds: report.rounds,
        playouts: u64::from(report.rounds) * u64::from(budget.playouts),
        visits: report.visits,
        expected: report.expected,
    }
}
