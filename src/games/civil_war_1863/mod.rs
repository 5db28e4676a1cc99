//! The Parker Brothers Civil War Game 1863 (1961): an 18 x 18 board of
//! land, sea, navigable rivers, mountains with passes and railroads, on
//! which the Union (North, moving second) and the Confederacy (South,
//! moving first) fight for key cities and capitals.
//!
//! The printed board of the Parker Brothers Civil War Game 1863 has never
//! been published. The board used here is a reconstruction from the public
//! geography of 1863, not a copy of the printed board; an owner of the game
//! can replace it with a transcription of theirs
//! (`data/civil-war-1863-board.txt`; `docs/civil-war-1863-board.md` says
//! how). The same statement, word for word, is
//! [`core::board::RECONSTRUCTION_NOTE`].
//!
//! ```
//! use orderly::games::{Game, GameOptions};
//! use orderly::games::civil_war_1863::CivilWar1863;
//!
//! let mut game = CivilWar1863::new(&GameOptions::default());
//! let first = game.legal_orders()[0].clone();
//! game.apply(&first).unwrap();
//! assert_eq!(CivilWar1863::from_position(&game.position()).unwrap(), game);
//! ```
//!
//! # Layers
//!
//! As SQUARES: `core/` is what the game is, as data (the board, stacks,
//! orders, events, the flow of play, the state and its position string);
//! `engine/` is what the rules do, one idea per file, each citing the
//! rulings P1-P36 (`../shared/rules/civil-war-1863-rulings.md`) and the
//! points decided here (P37 on, docs/civil-war-1863-design.md); `text/`
//! is how players read and write it by mail (orders as people write them,
//! the board drawing, the choices, answers in advance). The game is hosted
//! as `civilwar1863` (src/games/hosted.rs).

pub mod core;
pub mod engine;
pub mod text;

pub use self::core::event::{BattleKind, Cause, Event};
pub use self::core::flow::{Battle, DecisionKind, EndReason, Removal, Stage};
pub use self::core::order::Order;
pub use self::core::side::{PieceKind, Side};
pub use self::core::square::Square;
pub use self::core::stack::{Counts, Fort, Stack};
pub use self::core::state::CivilWar1863;
pub use engine::refusal::Refusal;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::games::{Chance, Game, GameOptions, Outcome, ParseError, Pending, Seat};

/// The coin of an even battle (P22): outcome 0 is heads, the attacker wins.
pub const COIN: Chance = Chance::public(2, "the coin of an even battle");

/// The game serialises as its position string, which holds all of it.
impl Serialize for CivilWar1863 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for CivilWar1863 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Game for CivilWar1863 {
    type Order = Order;
    type Event = Event;
    type Refusal = Refusal;
    type Decision = DecisionKind;
    type Ending = EndReason;

    const NAME: &'static str = "civilwar1863";

    // The coin of an even battle (P22) is drawn from a committed seed
    // (docs/dice.md).
    const CHANCE: bool = true;

    const RULES_VERSION: &'static str = "civil-war-1863-rulings P1-P36, P37-P48; orderly 1";

    /// The standard board's opening; the Confederacy always moves first,
    /// whatever the options say (the rules' "always").
    fn new(_options: &GameOptions) -> Self {
        CivilWar1863::opening(core::board::Board::standard())
    }

    fn pending(&self) -> Option<Pending<DecisionKind>> {
        let (side, kind) = self.decision()?;
        Some(Pending {
            seat: side.into(),
            phase: kind.phase(),
            kind,
        })
    }

    fn legal_orders(&self) -> Vec<Order> {
        self.legal()
    }

    fn parse_order(&self, text: &str) -> Result<Order, ParseError> {
        Order::read(text)
    }

    fn apply(&mut self, order: &Order) -> Result<Vec<Event>, Refusal> {
        self.play(order)
    }

    fn outcome(&self) -> Option<Outcome<EndReason>> {
        CivilWar1863::outcome(self)
    }

    fn position(&self) -> String {
        self.to_string()
    }

    fn from_position(text: &str) -> Result<Self, ParseError> {
        text.parse()
    }

    fn turn_number(&self) -> u32 {
        self.turn()
    }

    fn forced(event: &Event) -> Option<(Seat, Order)> {
        match event {
            Event::Forced { side, order } => Some(((*side).into(), order.clone())),
            _ => None,
        }
    }

    fn chance(&self) -> Option<Chance> {
        (self.outcome.is_none() && self.battle.is_some_and(|b| b.stage == Stage::Coin))
            .then_some(COIN)
    }

    fn chance_order(&self, outcome: u32) -> Option<Order> {
        self.chance().map(|_| Order::Toss {
            heads: outcome == 0,
        })
    }
}
