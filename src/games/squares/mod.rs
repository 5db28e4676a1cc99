//! SQUARES - The Civil War Battle Game (Deer Valley Game Company, 1995).
//!
//! The rules follow the publisher's rulebook as settled by the rulings
//! R1-R28; the board is read from `data/squares-board.csv`. Readings of our
//! own, where even the rulings leave a choice, are in docs/squares-engine.md
//! (S1-S8); docs/rules/ has the rules of both games in our own words.
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

mod attack;
mod board;
mod choices;
mod conditions;
mod drawing;
mod event;
mod movegen;
mod napoleonic;
pub mod notation;
mod order;
mod position;
mod reader;
mod refusal;
mod retreat;
pub mod rules;
mod rules_text;
mod state;
mod suggest;
mod unit;

pub use attack::{AttackState, Stage};
pub use board::{board, Board, Rect, Space, SpaceSet, Terrain, SPACE_COUNT};
pub use event::Event;
pub use napoleonic::{NapEvent, NapOrder, NapRefusal, Napoleonic};
pub use order::{Chain, Order, Step, MAX_CHAIN};
pub use refusal::Refusal;
pub use rules::Variant;
pub use state::{Half, Squares, WINNING_POINTS};
pub use unit::{Side, UnitId, UnitKind, UnitState, ARMY_SIZE};

use rules::Access;

use crate::games::{
    BoardStyle, Condition, DecisionKind, Game, GameOptions, OrderWord, Outcome, ParseError,
    Pending, Rejection, Seat,
};

impl Squares {
    /// Appends every legal order for the pending decision to `out` (the
    /// allocation-free form of [`Game::legal_orders`]).
    pub fn legal_orders_into(&self, out: &mut Vec<Order>) {
        if self.outcome.is_some() {
            return;
        }
        match &self.attack {
            Some(attack) => self.decision_orders(attack, out),
            None => self.turn_orders(out),
        }
    }

    /// The side that must decide now, or `None` when the game is over.
    pub fn side_to_decide(&self) -> Option<Side> {
        if self.outcome.is_some() {
            return None;
        }
        Some(match &self.attack {
            Some(a) if a.stage.defender_decides() => self.to_move.opponent(),
            _ => self.to_move,
        })
    }

    /// Finds the listed order that `given` denotes: the same order, or the
    /// same move written with another legal cavalry path, without its
    /// optional path, or with its two parts the other way round.
    fn matching(&self, legal: &[Order], given: &Order) -> Option<Order> {
        if legal.contains(given) {
            return Some(*given);
        }
        let same_step = |a: &Step, b: &Step| a.from == b.from && a.to == b.to && a.unit == b.unit;
        legal.iter().copied().find(|listed| match (listed, given) {
            (Order::Move(l), Order::Move(g)) => same_step(l, g) && self.path_ok(l, g),
            // S2: the parts move in the order written, so the other order
            // is the same move only when that sequence is legal too.
            (Order::MoveTwo(l1, l2), Order::MoveTwo(g1, g2)) => {
                same_step(l1, g2)
                    && same_step(l2, g1)
                    && g1.via.is_none()
                    && g2.via.is_none()
                    && self.two_cavalry_sequence_ok(g1, g2)
            }
            _ => false,
        })
    }

    /// Whether the cavalry path a player wrote fits a listed move (R11, S3;
    /// N25 for the Horse Battery): any middle square adjacent to both ends
    /// that is not a forest and is empty or the mover's own reserve, even
    /// where one step would do.
    fn path_ok(&self, listed: &Step, given: &Step) -> bool {
        match (listed.via, given.via) {
            (_, Some(v)) => {
                let kind = listed
                    .unit
                    .or_else(|| self.unit_at(listed.from).map(|u| u.kind()));
                if kind.is_none_or(|k| self.variant.unit(k).steps < 2) {
                    return false;
                }
                let b = board();
                let own_reserve = b.reserve(self.to_move);
                b.adjacent(given.from).contains(v)
                    && b.adjacent(v).contains(given.to)
                    && !b.is_forest(v)
                    && !b.is_forest(given.to)
                    && (v == own_reserve
                        || (b.reserve_owner(v).is_none() && !self.occupied().contains(v)))
            }
            _ => true,
        }
    }

    /// Applies an order known to be legal (one of [`Squares::legal_orders_into`]),
    /// then takes every following decision that has exactly one legal choice.
    /// The fast path for search and random play; [`Game::apply`] checks first.
    pub fn apply_listed(&mut self, order: Order, events: &mut Vec<Event>) {
        self.execute(order, events);
        let mut legal = Vec::with_capacity(8);
        while let (Some(attack), None) = (self.attack, self.outcome) {
            legal.clear();
            self.decision_orders(&attack, &mut legal);
            if legal.len() != 1 {
                break;
            }
            let only = legal[0];
            let side = self.side_to_decide().unwrap_or(self.to_move);
            events.push(Event::Forced { side, order: only });
            self.execute(only, events);
        }
    }

    fn execute(&mut self, order: Order, events: &mut Vec<Event>) {
        if self.attack.is_some() {
            self.apply_decision(order, events);
            return;
        }
        let side = self.to_move;
        match order {
            Order::Pass => {
                self.passed[side.index()] = true;
                self.record_runs(&[], None, 1);
                events.push(Event::Passed { side });
                self.finish_action(false, events);
            }
            Order::Move(step) => {
                let u = self.mover(&step, None);
                let whole = self.is_whole_double_turn(u.kind(), step.from, step.to);
                self.passed[side.index()] = false;
                self.record_runs(&[u], None, if whole { 2 } else { 1 });
                self.relocate(u, step.to);
                events.push(Event::Moved {
                    side,
                    unit: u.kind(),
                    from: step.from,
                    to: step.to,
                });
                self.finish_action(whole, events);
            }
            Order::MoveTwo(p, q) => {
                let first = self.mover(&p, None);
                self.relocate(first, p.to);
                let second = self.mover(&q, Some(first));
                self.relocate(second, q.to);
                self.passed[side.index()] = false;
                self.record_runs(&[first, second], None, 1);
                for (u, step) in [(first, p), (second, q)] {
                    events.push(Event::Moved {
                        side,
                        unit: u.kind(),
                        from: step.from,
                        to: step.to,
                    });
                }
                self.finish_action(false, events);
            }
            Order::Attack {
                attacker,
                target,
                support,
            } => self.start_attack(attacker, target, support, events),
            _ => {}
        }
    }

    /// The unit a listed move acts on (R7 for a reserve).
    fn mover(&self, step: &Step, except: Option<UnitId>) -> UnitId {
        match step.unit {
            Some(kind) => self
                .reserve_pick(self.to_move, kind, except)
                .expect("a listed reserve move has an eligible unit"),
            None => self
                .unit_at(step.from)
                .expect("a listed move starts from a unit"),
        }
    }

    /// R5: a step its type makes only as a whole double turn (infantry
    /// stepping diagonally; infantry or artillery entering a forest; N3-N5).
    fn is_whole_double_turn(&self, kind: UnitKind, from: Space, to: Space) -> bool {
        let b = board();
        let rules = self.variant.unit(kind);
        (rules.forest == Access::WholeDoubleTurn && b.is_forest(to))
            || (rules.corner == Access::WholeDoubleTurn && b.corner(from).contains(to))
    }
}

impl Game for Squares {
    type Order = Order;
    type Event = Event;
    type Refusal = Refusal;

    const NAME: &'static str = "squares";

    fn new(options: &GameOptions) -> Self {
        Squares::opening(options.first.into())
    }

    fn seat_name(seat: Seat) -> &'static str {
        notation::CIVIL_WAR.side_name(seat.into())
    }

    fn pending(&self) -> Option<Pending> {
        let side = self.side_to_decide()?;
        let kind = match (&self.attack, self.half) {
            (Some(attack), _) => attack.stage.decision_kind(),
            (None, Half::Single) => DecisionKind::Turn,
            (None, Half::First) => DecisionKind::DoubleTurn { half: 1 },
            (None, Half::Second) => DecisionKind::DoubleTurn { half: 2 },
        };
        Some(Pending {
            seat: side.into(),
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
        let legal = self.legal_orders();
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

    const TITLE: &'static str = "SQUARES - The Civil War Battle Game";

    const RULES_VERSION: &'static str = "squares-rulings R1-R28 S1-S8; orderly 2";

    const RULES: &'static str = rules_text::CIVIL_WAR;

    fn turn_number(&self) -> u32 {
        self.turn()
    }

    fn forced(event: &Event) -> Option<(Seat, Order)> {
        match event {
            Event::Forced { side, order } => Some(((*side).into(), *order)),
            _ => None,
        }
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

    fn read_condition(&self, words: &str) -> Result<Condition, String> {
        conditions::read(words, &notation::CIVIL_WAR)
    }

    fn condition_holds(&self, seat: Seat, condition: &Condition) -> bool {
        conditions::holds(self, seat, condition)
    }

    fn choices(&self) -> String {
        choices::describe(self)
    }

    fn choices_from(&self, square: &str) -> Result<String, Rejection> {
        choices::describe_from(self, square)
    }
}
