//! The one object-safe door through which the service and the tools see a
//! game whose type is known only at run time: [`AnyGame`].
//!
//! [`Game`] and [`GameText`] are rich static traits (typed orders, events,
//! decisions): the engines and their tests use them. Code that picks the
//! game by its stored name holds a `Box<dyn AnyGame>` instead, built by
//! [`hosted`](crate::games::hosted), and speaks to it in strings and the
//! neutral types of this module: orders in canonical notation, events as
//! [`Happened`] (data and words), decisions and endings in the game's
//! words. Every hosted game is an `AnyGame` through the blanket impl below,
//! so a new game gets the door by implementing the two static traits.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::chance::Chance;
use super::flow::{Outcome, Pending};
use super::hosted::Hosted;
use super::text::{BoardStyle, Condition, GameText, Rejection};
use super::{CitesRule, Game, Seat};

/// Something that happened when an order was applied, as a game-neutral
/// caller keeps it: the game's event as data (its serde form), so that it
/// can be stored and given back to the game, with its public words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Happened {
    /// The event as the game's serde form.
    pub data: serde_json::Value,
    /// What it tells everybody (the event's `Display`); a viewer's own
    /// words come from [`AnyGame::event_text`].
    pub text: String,
    /// The decision the event reports as taken automatically, with the
    /// seat it was taken for, in canonical notation (see [`Game::forced`]).
    pub forced: Option<(Seat, String)>,
    /// Words only one seat may read until the game is over (the outcome of
    /// a private draw: [`Chance::private_to`]), and what the other reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private: Option<Private>,
}

/// What one seat reads of a [`Happened`] that the other may not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Private {
    /// The seat that reads the [`Happened::text`].
    pub seat: Seat,
    /// What the other seat reads instead.
    pub others: String,
}

/// A game in play, whatever the game: the service's and the tools' view.
///
/// Each method is the [`Game`] or [`GameText`] method of the same name,
/// with orders as canonical text and events as [`Happened`].
pub trait AnyGame: fmt::Debug + Send + Sync {
    /// [`Game::NAME`].
    fn name(&self) -> &'static str;
    /// [`GameText::TITLE`].
    fn title(&self) -> &'static str;
    /// [`GameText::seat_name`].
    fn seat_name(&self, seat: Seat) -> &'static str;
    /// The game's entry in the registry: its names, rules and
    /// constructors ([`Hosted`]).
    fn hosted(&self) -> Hosted;
    /// A copy of the game, boxed.
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// [`Game::pending`], the decision in the game's words.
    fn pending(&self) -> Option<Pending<String>>;
    /// [`Game::outcome`], the ending in the game's one wording
    /// ([`GameText::ending_words`]).
    fn outcome(&self) -> Option<Outcome<String>>;
    /// [`Game::turn_number`].
    fn turn_number(&self) -> u32;
    /// [`Game::position`].
    fn position(&self) -> String;
    /// [`Game::legal_orders`], in canonical notation.
    fn legal_orders(&self) -> Vec<String>;
    /// [`GameText::read_order`]: the canonical order a player's line reads
    /// as, checked against the pending decision.
    fn read_order(&self, line: &str) -> Result<String, Rejection>;
    /// Reads `line` as a player wrote it and applies it: the canonical
    /// order and what happened, or why not (the state is then unchanged).
    fn play(&mut self, line: &str) -> Result<(String, Vec<Happened>), Rejection>;
    /// Applies an order in canonical notation, as records and the database
    /// keep them ([`Game::parse_order`], [`Game::apply`]): the order as the
    /// game prints it, and what happened.
    fn apply_canonical(&mut self, order: &str) -> Result<(String, Vec<Happened>), Rejection>;
    /// [`Game::apply_standing`] of a line (as written, or canonical):
    /// `None` when the line is no standing order of this game.
    fn play_standing(
        &mut self,
        seat: Seat,
        line: &str,
    ) -> Option<Result<(String, Vec<Happened>), Rejection>>;
    /// [`GameText::event_text`] of a [`Happened`] of this game.
    fn event_text(&self, happened: &Happened, viewer: Seat) -> String;
    /// [`GameText::public_event_text`]: what an observer reads of it (the
    /// other seat's words of a private draw).
    fn public_event_text(&self, happened: &Happened) -> String;
    /// [`Game::turn_serial`].
    fn turn_serial(&self) -> u64;
    /// Whether the canonical `order` is a standing order of `seat`'s
    /// ([`Game::apply_standing`]), not a move of his turn.
    fn is_standing(&self, seat: Seat, order: &str) -> bool;
    /// [`Game::interrupts`] of a [`Happened`] of this game.
    fn interrupts(&self, happened: &Happened) -> bool;
    /// [`GameText::draw_board_styled`], `last` being the [`Happened`] of
    /// the last action.
    fn draw_board(&self, viewer: Seat, last: &[Happened], style: &BoardStyle) -> String;
    /// [`GameText::draw_picture`], `last` being the [`Happened`] of the
    /// last action.
    fn picture(&self, viewer: Seat, last: &[Happened], observer: bool) -> Option<String>;
    /// [`GameText::headline`].
    fn headline(&self, viewer: Seat) -> String;
    /// [`GameText::choices`].
    fn choices(&self, viewer: Seat) -> String;
    /// [`GameText::orders_for`].
    fn orders_for(&self, seat: Seat) -> String;
    /// [`GameText::choices_from`].
    fn choices_from(&self, square: &str) -> Result<String, Rejection>;
    /// [`GameText::read_condition`].
    fn read_condition(&self, words: &str) -> Result<Condition, String>;
    /// [`GameText::condition_holds`].
    fn condition_holds(&self, seat: Seat, condition: &Condition) -> bool;
    /// [`Game::chance`].
    fn chance(&self) -> Option<Chance>;
    /// [`Game::chance_order`], in canonical notation.
    fn chance_order(&self, outcome: u32) -> Option<String>;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// An event of `G` as a game-neutral caller keeps it.
pub fn happened<G: Game>(event: &G::Event) -> Happened {
    Happened {
        // An event is plain data: its serde form cannot fail.
        data: serde_json::to_value(event).unwrap_or(serde_json::Value::Null),
        text: event.to_string(),
        forced: G::forced(event).map(|(seat, order)| (seat, order.to_string())),
        private: None,
    }
}

/// The events of `G` that `happened` keeps (those of another game, or
/// damaged, are left out: they only mark squares on a board).
fn events_of<G: Game>(happened: &[Happened]) -> Vec<G::Event> {
    happened
        .iter()
        .filter_map(|h| serde_json::from_value(h.data.clone()).ok())
        .collect()
}

/// The refusal of an order that was read but not applied: a bug in the
/// engine's reader if it happens, still answered as a refusal.
fn refused<G: Game>(line: &str, refusal: &G::Refusal) -> Rejection {
    Rejection {
        line: line.to_string(),
        problem: refusal.to_string(),
        rule: Some(refusal.rule()),
        suggestions: Vec::new(),
    }
}

impl<G: GameText> AnyGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        G::seat_name(seat)
    }

    fn hosted(&self) -> Hosted {
        Hosted::of::<G>()
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn pending(&self) -> Option<Pending<String>> {
        Game::pending(self).map(|p| Pending {
            seat: p.seat,
            phase: p.phase,
            kind: p.kind.to_string(),
        })
    }

    fn outcome(&self) -> Option<Outcome<String>> {
        Game::outcome(self).map(|o| Outcome {
            result: o.result,
            reason: G::ending_words(&o.reason),
        })
    }

    fn turn_number(&self) -> u32 {
        Game::turn_number(self)
    }

    fn position(&self) -> String {
        Game::position(self)
    }

    fn legal_orders(&self) -> Vec<String> {
        Game::legal_orders(self)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn read_order(&self, line: &str) -> Result<String, Rejection> {
        GameText::read_order(self, line).map(|o| o.to_string())
    }

    fn play(&mut self, line: &str) -> Result<(String, Vec<Happened>), Rejection> {
        let order = GameText::read_order(self, line)?;
        let events = Game::apply(self, &order).map_err(|r| refused::<G>(line, &r))?;
        Ok((
            order.to_string(),
            events.iter().map(happened::<G>).collect(),
        ))
    }

    fn apply_canonical(&mut self, order: &str) -> Result<(String, Vec<Happened>), Rejection> {
        let parsed = self.parse_order(order).map_err(|e| Rejection {
            line: order.to_string(),
            problem: e.message,
            rule: None,
            suggestions: Vec::new(),
        })?;
        let events = Game::apply(self, &parsed).map_err(|r| refused::<G>(order, &r))?;
        Ok((
            parsed.to_string(),
            events.iter().map(happened::<G>).collect(),
        ))
    }

    fn play_standing(
        &mut self,
        seat: Seat,
        line: &str,
    ) -> Option<Result<(String, Vec<Happened>), Rejection>> {
        let order = self.parse_order(line.trim().trim_end_matches('.')).ok()?;
        let applied = Game::apply_standing(self, seat, &order)?;
        Some(match applied {
            Ok(events) => Ok((
                order.to_string(),
                events.iter().map(happened::<G>).collect(),
            )),
            Err(r) => Err(Rejection {
                suggestions: self.standing_suggestions(seat, &order),
                ..refused::<G>(line, &r)
            }),
        })
    }

    fn event_text(&self, happened: &Happened, viewer: Seat) -> String {
        if let Some(private) = happened.private.as_ref().filter(|p| p.seat != viewer) {
            return private.others.clone();
        }
        match serde_json::from_value::<G::Event>(happened.data.clone()) {
            Ok(event) => G::event_text(&event, viewer),
            Err(_) => happened.text.clone(),
        }
    }

    fn public_event_text(&self, happened: &Happened) -> String {
        if let Some(private) = &happened.private {
            return private.others.clone();
        }
        match serde_json::from_value::<G::Event>(happened.data.clone()) {
            Ok(event) => G::public_event_text(&event),
            Err(_) => happened.text.clone(),
        }
    }

    fn draw_board(&self, viewer: Seat, last: &[Happened], style: &BoardStyle) -> String {
        self.draw_board_styled(viewer, &events_of::<G>(last), style)
    }

    fn picture(&self, viewer: Seat, last: &[Happened], observer: bool) -> Option<String> {
        self.draw_picture(viewer, &events_of::<G>(last), observer)
    }

    fn turn_serial(&self) -> u64 {
        Game::turn_serial(self)
    }

    fn is_standing(&self, seat: Seat, order: &str) -> bool {
        match self.parse_order(order) {
            Ok(order) => self.clone().apply_standing(seat, &order).is_some(),
            Err(_) => false,
        }
    }

    fn interrupts(&self, happened: &Happened) -> bool {
        serde_json::from_value::<G::Event>(happened.data.clone()).is_ok_and(|e| G::interrupts(&e))
    }

    fn headline(&self, viewer: Seat) -> String {
        GameText::headline(self, viewer)
    }

    fn choices(&self, viewer: Seat) -> String {
        GameText::choices(self, viewer)
    }

    fn orders_for(&self, seat: Seat) -> String {
        GameText::orders_for(self, seat)
    }

    fn choices_from(&self, square: &str) -> Result<String, Rejection> {
        GameText::choices_from(self, square)
    }

    fn read_condition(&self, words: &str) -> Result<Condition, String> {
        GameText::read_condition(self, words)
    }

    fn condition_holds(&self, seat: Seat, condition: &Condition) -> bool {
        GameText::condition_holds(self, seat, condition)
    }

    fn chance(&self) -> Option<Chance> {
        Game::chance(self)
    }

    fn chance_order(&self, outcome: u32) -> Option<String> {
        Game::chance_order(self, outcome).map(|o| o.to_string())
    }
}
