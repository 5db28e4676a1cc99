//! SQUARES - The Civil War Battle Game (Deer Valley Game Company, 1995).
//!
//! The rules follow the publisher's rulebook as settled by the rulings
//! R1-R28; the board is read from `data/squares-board.csv`. Readings of our
//! own, where even the rulings leave a choice, are in docs/squares-engine.md
//! (S1-S8); docs/rules/ has the rules of both games in our own words. The
//! same engine plays the Napoleonic variant ([`Napoleonic`]).
//!
//! ```
//! use orderly::games::{Game, GameOptions};
//! use orderly::games::squares::Squares;
//!
//! let mut game = Squares::new(&GameOptions::default());
//! let order = game.parse_order("MOVE CAVALRY BR B3C").unwrap();
//! let events = game.apply(&order).unwrap();
//! assert_eq!(events[0].to_string(), "Blue cavalry moves BR -> B3C");
//! assert!(game.legal_orders().iter().any(|o| o.to_string() == "MOVE INFANTRY GR G3C"));
//! ```
//!
//! # Layers
//!
//! The folder is three layers, each depending only on those before it, so
//! that the rules can be read without the text and the text changed without
//! touching the rules (the next games copy this layout):
//!
//! 1. `core/`: what a game *is*, as data: the board's geometry
//!    (`board`), sides and units (`unit`), which game is played and its
//!    army (`variant`), the decisions it asks for and how it ends (`flow`),
//!    orders and events (`order`, `event`), an attack in progress
//!    (`attack`) and the whole state (`state`). No rule, no text.
//! 2. `engine/`: what the rules *do*: each unit type's rules as data
//!    (`rules`), the legal orders of a turn (`movegen`), the bookkeeping of
//!    every action (`turn`), retreats (`retreat`), the attacker's options
//!    (`options`), resolving an attack (`attack`), applying an order
//!    (`apply`) and why an order is refused, as data (`refusal`).
//! 3. `text/`: how a game is *written*, always in a notation passed
//!    explicitly: the notation itself (`notation`), orders, events and
//!    refusals in words (`order`, `event`, `refusal`), how a game ends
//!    (`ending`), position strings (`position`), the forgiving reader
//!    (`reader`), suggestions
//!    (`suggest`), the board drawing (`drawing`), the choices (`choices`),
//!    answers in advance (`conditions`) and the rules text (`rules_text`).
//!
//! Within a layer the files depend on each other one way too: in `core/`
//! unit -> board -> variant -> flow -> order -> event -> attack -> state; in
//! `engine/` rules -> movegen -> turn -> retreat -> options -> attack ->
//! apply -> refusal; in `text/` notation -> order -> event -> refusal ->
//! ending -> position -> suggest -> reader -> conditions -> drawing ->
//! choices (each
//! file uses only files before it). This file and `napoleonic.rs` sit on
//! top: each game's [`Game`] and [`GameText`] impls, and the public names.

mod core;
mod engine;
mod napoleonic;
mod text;

pub use self::core::attack::{AttackState, Stage};
pub use self::core::board::{board, Board, Rect, Space, SpaceSet, Terrain, SPACE_COUNT};
pub use self::core::event::Event;
pub use self::core::flow::{DecisionKind, EndReason, Outcome};
pub use self::core::order::{Chain, Order, Step, MAX_CHAIN};
pub use self::core::state::{Half, Squares};
pub use self::core::unit::{Side, UnitId, UnitKind, UnitState, ARMY_SIZE};
pub use self::core::variant::Variant;
pub use engine::options::{OptionBar, OptionsOffered};
pub use engine::refusal::{Refusal, TwoMoveFault};
pub use engine::rules;
pub use engine::turn::WINNING_POINTS;
pub use napoleonic::{NapEvent, NapOrder, NapRefusal, Napoleonic};
pub use text::notation;

use text::{choices, conditions, drawing, picture, reader, rules_text};

use crate::games::{
    BoardStyle, Condition, Game, GameOptions, GameText, OrderWord, ParseError, Pending, Rejection,
    Seat,
};

impl Game for Squares {
    type Order = Order;
    type Event = Event;
    type Refusal = Refusal;
    type Decision = DecisionKind;
    type Ending = EndReason;

    const NAME: &'static str = "squares";

    const RULES_VERSION: &'static str = "squares-rulings R1-R28 S1-S8; orderly 2";

    fn new(options: &GameOptions) -> Self {
        Squares::opening(options.first.into())
    }

    fn pending(&self) -> Option<Pending<DecisionKind>> {
        let side = self.side_to_decide()?;
        let kind = match (&self.attack, self.half) {
            (Some(attack), _) => attack.stage.decision_kind(),
            (None, Half::Single) => DecisionKind::Turn,
            (None, Half::First) => DecisionKind::DoubleTurn { half: 1 },
            (None, Half::Second) => DecisionKind::DoubleTurn { half: 2 },
        };
        Some(Pending {
            seat: side.into(),
            phase: kind.phase(),
            kind,
        })
    }

    fn legal_orders(&self) -> Vec<Order> {
        let mut out = Vec::new();
        self.legal_orders_into(&mut out);
        out
    }

    fn parse_order(&self, text: &str) -> Result<Order, ParseError> {
        // The position's own notation: the Civil War game's, unless the
        // engine plays the variant under this type (see `Napoleonic`).
        Order::read(text, self.variant.notation())
    }

    fn apply(&mut self, order: &Order) -> Result<Vec<Event>, Refusal> {
        if self.outcome.is_some() {
            return Err(Refusal::GameOver);
        }
        let legal = Game::legal_orders(self);
        let listed = self
            .matching(&legal, order)
            .ok_or_else(|| self.diagnose(order))?;
        let mut events = Vec::new();
        self.apply_listed(listed, &mut events);
        Ok(events)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn position(&self) -> String {
        self.to_string()
    }

    fn from_position(text: &str) -> Result<Self, ParseError> {
        let game: Squares = text.parse()?;
        if game.variant != Variant::CivilWar {
            return Err(ParseError::new(
                "this is a position of the Napoleonic variant, not of the Civil War game",
            ));
        }
        Ok(game)
    }

    fn turn_number(&self) -> u32 {
        self.turn()
    }

    fn forced(event: &Event) -> Option<(Seat, Order)> {
        match event {
            Event::Forced { side, order } => Some(((*side).into(), *order)),
            _ => None,
        }
    }
}

impl GameText for Squares {
    const TITLE: &'static str = "SQUARES - The Civil War Battle Game";

    const ORDERS: &'static str = "MOVE G2CR G1C, G2CR-G1C, ATTACK G1C B1C SUPPORT G1CR, \
        G1C x B1C + G1CR, PASS, RETREAT BR, STAND, OPTION 2, ADVANCE";

    // Answers given in advance (text/conditions.rs).
    const COMMANDS: &'static str = "  \
IF STAND OPTION 2, IF RETREAT ADVANCE
                           answers for your attack, given with it:
                           ATTACK G2CR G1C SUPPORT G2CL; IF STAND OPTION 2
  IF ATTACKED AT G1C RETREAT G2CR, IF ATTACKED STAND
                           a standing answer to an attack that may come
  CANCEL IF [condition]    drop answers given in advance
";

    const RULES: &'static str = rules_text::CIVIL_WAR;

    fn seat_name(seat: Seat) -> &'static str {
        notation::CIVIL_WAR.sides[seat.index()]
    }

    // HELP's examples from the reader's own half of the board.
    fn orders_for(&self, seat: Seat) -> String {
        notation::CIVIL_WAR.examples(seat)
    }

    fn ending_words(ending: &EndReason) -> String {
        text::ending::words(*ending, notation::CIVIL_WAR.sides)
    }

    fn read_ending(words: &str) -> Option<EndReason> {
        text::ending::read(words, notation::CIVIL_WAR.sides)
    }

    fn read_order(&self, line: &str) -> Result<Order, Rejection> {
        reader::read_checked(self, line)
    }

    fn order_word(word: &str) -> OrderWord {
        reader::order_word(word, &notation::CIVIL_WAR)
    }

    fn slip_of(word: &str) -> Option<&'static str> {
        reader::slip_of(word, &notation::CIVIL_WAR)
    }

    fn draw_board(&self, viewer: Seat, last: &[Event]) -> String {
        drawing::draw(self, viewer.into(), last)
    }

    fn draw_board_styled(&self, viewer: Seat, last: &[Event], style: &BoardStyle) -> String {
        drawing::draw_styled(self, viewer.into(), last, style)
    }

    fn headline(&self, viewer: Seat) -> String {
        drawing::headline(self, viewer.into())
    }

    fn draw_picture(&self, viewer: Seat, last: &[Event], observer: bool) -> Option<String> {
        let side = viewer.into();
        Some(picture::draw(self, side, (!observer).then_some(side), last))
    }

    fn read_condition(&self, words: &str) -> Result<Condition, String> {
        conditions::read(words, &notation::CIVIL_WAR)
    }

    fn condition_holds(&self, seat: Seat, condition: &Condition) -> bool {
        conditions::holds(self, seat, condition)
    }

    // SQUARES hides nothing: every seat reads the same choices.
    fn choices(&self, _viewer: Seat) -> String {
        choices::describe(self)
    }

    fn choices_from(&self, square: &str) -> Result<String, Rejection> {
        choices::describe_from(self, square)
    }
}
