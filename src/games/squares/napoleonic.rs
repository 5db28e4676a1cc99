//! SQUARES - The Napoleonic War Variant, as a second game behind [`Game`].
//!
//! The variant is not a second engine: it is the [`Squares`] engine playing
//! with the Napoleonic army and unit rules ([`Variant::Napoleonic`], see
//! `core/variant.rs` and `engine/rules.rs`), written in the variant's
//! notation (British and French, F codes, the new unit words;
//! `text/notation.rs`). This file only gives it its own name, title and
//! seats, and its own order, event and refusal types, which write and read
//! every text with [`NAPOLEONIC`] passed explicitly, whichever thread asks.
//!
//! ```
//! use orderly::games::{Game, GameOptions};
//! use orderly::games::squares::Napoleonic;
//!
//! let mut game = Napoleonic::new(&GameOptions::default());
//! let order = game.parse_order("MOVE GUARD BR B3C").unwrap();
//! let events = game.apply(&order).unwrap();
//! assert_eq!(events[0].to_string(), "British guard moves BR -> B3C");
//! assert!(game.legal_orders().iter().any(|o| o.to_string() == "MOVE LIGHT FR F3C"));
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::notation::NAPOLEONIC;
use super::text::{choices, conditions, drawing, picture, reader, rules_text};
use super::{DecisionKind, EndReason, Event, Order, Outcome, Refusal, Side, Squares, Variant};
use crate::games::{
    BoardStyle, CitesRule, Condition, Game, GameOptions, GameText, OrderWord, ParseError, Pending,
    Rejection, RuleId, Seat,
};

/// A game of the Napoleonic variant: the British (North) against the French.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Napoleonic(Squares);

impl Napoleonic {
    /// The opening: both armies in their reserves (N2), `first` to move.
    pub fn opening(first: Side) -> Napoleonic {
        Napoleonic(Squares::opening_of(Variant::Napoleonic, first))
    }

    /// The engine state underneath, for the engine's own queries.
    pub fn squares(&self) -> &Squares {
        &self.0
    }
}

impl fmt::Display for Napoleonic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for Napoleonic {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Napoleonic, ParseError> {
        let game: Squares = text.parse()?;
        if game.variant() != Variant::Napoleonic {
            return Err(ParseError::new(
                "this is a position of the Civil War game: a Napoleonic position starts \
                 with the word napoleonic",
            ));
        }
        Ok(Napoleonic(game))
    }
}

impl Serialize for Napoleonic {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Napoleonic {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Napoleonic, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// An order of the variant (`MOVE LIGHT BR B3C`, `OPTION GB1`): written,
/// read and serialised in its notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapOrder(pub Order);

impl fmt::Display for NapOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.display_in(&NAPOLEONIC).fmt(f)
    }
}

impl Serialize for NapOrder {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.display_in(&NAPOLEONIC).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for NapOrder {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NapOrder, D::Error> {
        let text = String::deserialize(deserializer)?;
        Order::read(&text, &NAPOLEONIC)
            .map(NapOrder)
            .map_err(serde::de::Error::custom)
    }
}

/// Something that happened in a game of the variant: written and
/// serialised in its notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapEvent(pub Event);

impl fmt::Display for NapEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.display_in(&NAPOLEONIC).fmt(f)
    }
}

impl Serialize for NapEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.display_in(&NAPOLEONIC).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for NapEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NapEvent, D::Error> {
        Event::deserialize_in(deserializer, &NAPOLEONIC).map(NapEvent)
    }
}

/// Why an order of the variant was refused: worded in its notation, citing
/// its rulings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NapRefusal(pub Refusal);

impl fmt::Display for NapRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.display_in(&NAPOLEONIC).fmt(f)
    }
}

impl std::error::Error for NapRefusal {}

impl CitesRule for NapRefusal {
    fn rule(&self) -> RuleId {
        self.0.rule_in(Variant::Napoleonic)
    }
}

impl Game for Napoleonic {
    type Order = NapOrder;
    type Event = NapEvent;
    type Refusal = NapRefusal;
    type Decision = DecisionKind;
    type Ending = EndReason;

    const NAME: &'static str = "napoleonic";

    const RULES_VERSION: &'static str =
        "napoleonic-rulings N1-N38; squares-rulings R1-R28 S1-S8; orderly 2";

    fn new(options: &GameOptions) -> Self {
        Napoleonic::opening(options.first.into())
    }

    fn pending(&self) -> Option<Pending<DecisionKind>> {
        Game::pending(&self.0)
    }

    fn legal_orders(&self) -> Vec<NapOrder> {
        Game::legal_orders(&self.0)
            .into_iter()
            .map(NapOrder)
            .collect()
    }

    fn parse_order(&self, text: &str) -> Result<NapOrder, ParseError> {
        Order::read(text, &NAPOLEONIC).map(NapOrder)
    }

    fn apply(&mut self, order: &NapOrder) -> Result<Vec<NapEvent>, NapRefusal> {
        match Game::apply(&mut self.0, &order.0) {
            Ok(events) => Ok(events.into_iter().map(NapEvent).collect()),
            Err(refusal) => Err(NapRefusal(refusal)),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(&self.0)
    }

    fn position(&self) -> String {
        self.0.to_string()
    }

    fn from_position(text: &str) -> Result<Self, ParseError> {
        text.parse()
    }

    fn turn_number(&self) -> u32 {
        self.0.turn()
    }

    fn forced(event: &NapEvent) -> Option<(Seat, NapOrder)> {
        Squares::forced(&event.0).map(|(seat, order)| (seat, NapOrder(order)))
    }
}

impl GameText for Napoleonic {
    const TITLE: &'static str = "SQUARES - The Napoleonic War Variant";

    const ORDERS: &'static str = "as SQUARES: MOVE G2CR G1C, ATTACK G1C B1C SUPPORT G1CR, \
        PASS, RETREAT BR, STAND, OPTION 2, ADVANCE";

    // The same answers in advance as SQUARES (text/conditions.rs).
    const COMMANDS: &'static str = Squares::COMMANDS;

    const RULES: &'static str = rules_text::NAPOLEONIC;

    fn seat_name(seat: Seat) -> &'static str {
        NAPOLEONIC.sides[seat.index()]
    }

    // HELP's examples from the reader's own half of the board.
    fn orders_for(&self, seat: Seat) -> String {
        format!("as SQUARES: {}", NAPOLEONIC.examples(seat))
    }

    fn ending_words(ending: &EndReason) -> String {
        super::text::ending::words(*ending, NAPOLEONIC.sides)
    }

    fn read_ending(words: &str) -> Option<EndReason> {
        super::text::ending::read(words, NAPOLEONIC.sides)
    }

    fn read_order(&self, line: &str) -> Result<NapOrder, Rejection> {
        reader::read_checked(&self.0, line).map(NapOrder)
    }

    fn order_word(word: &str) -> OrderWord {
        reader::order_word(word, &NAPOLEONIC)
    }

    fn slip_of(word: &str) -> Option<&'static str> {
        reader::slip_of(word, &NAPOLEONIC)
    }

    fn draw_board(&self, viewer: Seat, last: &[NapEvent]) -> String {
        let last: Vec<Event> = last.iter().map(|e| e.0.clone()).collect();
        drawing::draw(&self.0, viewer.into(), &last)
    }

    fn headline(&self, viewer: Seat) -> String {
        drawing::headline(&self.0, viewer.into())
    }

    fn read_condition(&self, words: &str) -> Result<Condition, String> {
        conditions::read(words, &NAPOLEONIC)
    }

    fn condition_holds(&self, seat: Seat, condition: &Condition) -> bool {
        conditions::holds(&self.0, seat, condition)
    }

    fn draw_picture(&self, viewer: Seat, last: &[NapEvent], observer: bool) -> Option<String> {
        let last: Vec<Event> = last.iter().map(|e| e.0.clone()).collect();
        let side = viewer.into();
        Some(picture::draw(
            &self.0,
            side,
            (!observer).then_some(side),
            &last,
        ))
    }

    fn draw_board_styled(&self, viewer: Seat, last: &[NapEvent], style: &BoardStyle) -> String {
        let last: Vec<Event> = last.iter().map(|e| e.0.clone()).collect();
        drawing::draw_styled(&self.0, viewer.into(), &last, style)
    }

    // The variant hides nothing either: every seat reads the same choices.
    fn choices(&self, _viewer: Seat) -> String {
        choices::describe(&self.0)
    }

    fn choices_from(&self, square: &str) -> Result<String, Rejection> {
        choices::describe_from(&self.0, square)
    }
}

#[cfg(test)]
mod tests {
    use super::{NapEvent, NapOrder, Napoleonic, Side, Squares, Variant};
    use crate::games::{Game, GameOptions};

    #[test]
    fn the_opening_is_written_with_its_header_and_reads_back() {
        let game = Napoleonic::new(&GameOptions::default());
        let text = game.position();
        assert_eq!(
            text,
            "napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -"
        );
        assert_eq!(Napoleonic::from_position(&text).unwrap(), game);
    }

    #[test]
    fn n1_headers_distinguish_games() {
        let civil_war = Squares::opening(Side::Blue).to_string();
        assert!(Napoleonic::from_position(&civil_war).is_err());
        let variant = Napoleonic::opening(Side::Blue).position();
        assert!(variant
            .parse::<Squares>()
            .is_ok_and(|g| g.variant() == Variant::Napoleonic));
        assert!(<Squares as Game>::from_position(&variant).is_err());
    }

    #[test]
    fn n2_army_limits() {
        for text in [
            "napoleonic 7IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -",
            "napoleonic 6I2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -",
            "napoleonic 9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        ] {
            let e = Napoleonic::from_position(text).unwrap_err();
            assert!(
                e.message.contains("16")
                    || e.message.contains("guard")
                    || e.message.contains("infantry"),
                "{text}: {}",
                e.message
            );
        }
        assert!("9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - g - 1 -"
            .parse::<Squares>()
            .is_ok());
        assert!("9IG3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - g - 1 -"
            .parse::<Squares>()
            .is_err());
    }

    #[test]
    fn an_hb1_defender_retreat_that_would_stall_is_refused() {
        // N30, N31: here the supporting light infantry in B2L has no retreat
        // that leaves the horse battery one, so HB1 could never have been
        // taken; after the defender's retreat nothing would be legal.
        let text = "napoleonic 4IACK/Iii/iLAC/iH/IGLCi/gi/llaah/cc/ck2/3/- - b - 1 NEFxEF+B2L/HD";
        let e = Napoleonic::from_position(text).unwrap_err();
        assert!(e.message.contains("N30"), "{}", e.message);
    }

    #[test]
    fn orders_and_events_print_in_the_variant_notation() {
        let mut game = Napoleonic::opening(Side::Gray);
        let order = game.parse_order("MOVE INFANTRY GR G3C").unwrap();
        assert_eq!(order.to_string(), "MOVE INFANTRY FR F3C");
        let events = game.apply(&order).unwrap();
        assert_eq!(events[0].to_string(), "French infantry moves FR -> F3C");
        let json = serde_json::to_string(&order).unwrap();
        assert_eq!(json, "\"MOVE INFANTRY FR F3C\"");
        let back: NapOrder = serde_json::from_str(&json).unwrap();
        assert_eq!(back, order);
        // The Civil War game is untouched: G codes, Blue and Gray, no F codes.
        let cw = Squares::opening(Side::Gray);
        assert!(cw.parse_order("MOVE INFANTRY GR F3C").is_err());
        assert!(cw.parse_order("MOVE GUARD GR G3C").is_err());
    }

    #[test]
    fn a_variant_order_is_written_and_serialised_alike_on_a_fresh_thread() {
        // The notation is an argument, never a setting of the thread: a
        // thread that never touched the variant writes it as any other.
        let game = Napoleonic::opening(Side::Gray);
        let order = game.parse_order("MOVE LIGHT FR F3C").unwrap();
        let events = game.clone().apply(&order).unwrap();
        let here = (
            order.to_string(),
            serde_json::to_string(&order).unwrap(),
            serde_json::to_string(&events).unwrap(),
            events[0].to_string(),
        );
        let (sent, sent_events) = (order.clone(), events.clone());
        let there = std::thread::spawn(move || {
            let (order, events) = (sent, sent_events);
            (
                order.to_string(),
                serde_json::to_string(&order).unwrap(),
                serde_json::to_string(&events).unwrap(),
                events[0].to_string(),
            )
        })
        .join()
        .unwrap();
        assert_eq!(here, there);
        assert_eq!(there.0, "MOVE LIGHT FR F3C");
        assert_eq!(there.1, "\"MOVE LIGHT FR F3C\"");
        assert_eq!(
            there.2,
            "[{\"event\":\"moved\",\"side\":\"french\",\"unit\":\"light\",\"from\":\"FR\",\"to\":\"F3C\"}]"
        );
        assert_eq!(there.3, "French light infantry moves FR -> F3C");
        let back: Vec<NapEvent> = serde_json::from_str(&there.2).unwrap();
        assert_eq!(back, events);
        // A side alone serialises the same on every thread too.
        let side = std::thread::spawn(|| serde_json::to_string(&Side::Gray).unwrap());
        assert_eq!(side.join().unwrap(), "\"gray\"");
    }
}
