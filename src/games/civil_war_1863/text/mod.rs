//! How a Civil War 1863 game is written and read: the order language
//! (docs/civil-war-1863-design.md, "By mail"), the events in words for
//! each side, the endings, the board drawing, the choices and the rules
//! text. It builds on the core and the engine and changes neither.
//!
//! Where it departs from the design's "By mail" table, and why:
//!
//! - An attack and its losses are two orders, so two lines (or one line
//!   with `;` between them, which the service splits): a game reads one
//!   order a line. `TAKE ALL` is read when one choice of pieces takes the
//!   most; `SET LOSSES ALL` is not offered, `IF BATTLE TAKE ALL` given with
//!   the attack does the same for that mail.
//! - `REMOVE` names one piece a line (`REMOVE K3 I`, `REMOVE 1 INFANTRY FROM
//!   K3`): removals are one order each in the engine (P27, P30).
//! - A kind named without a number (`H7 C-I8-J9`) means every free piece of
//!   that kind on the square; `A`, `AN`, `ONE` count one.
//! - The board marks coasts `:` as well (the board file's own letter), and
//!   `>` the squares of the last action.

pub mod words;

pub mod reader;

pub mod event;

pub mod ending;

pub mod drawing;

pub mod picture;

pub mod choices;

pub mod conditions;

pub mod rules_text;

use super::core::board::RECONSTRUCTION_NOTE;
use super::core::event::Event;
use super::core::flow::EndReason;
use super::core::order::Order;
use super::core::side::Side;
use super::core::state::CivilWar1863;
use crate::games::text::MailTurn;
use crate::games::{BoardStyle, Condition, GameText, OrderWord, Rejection, Seat};

impl GameText for CivilWar1863 {
    const TITLE: &'static str = "Civil War Game 1863 (Parker Brothers, 1961)";

    const ORDERS: &'static str = "H7-H8, H7 2I 1C-H8, RIDE H7 2I-H8-H9, FORTIFY G12, END; \
        in a battle TAKE 2 KILL 2I LOSE 1C, SURVIVORS 1C-H9";

    // The turn kept open, and answers given in advance (conditions.rs).
    const COMMANDS: &'static str = "  \
MORE                     as a mail's last line: your turn goes on (else
                           the end of the mail ends it with END)
  IF BATTLE TAKE ALL       an answer for your attack, given with it
  IF ATTACKED AT H8 SURVIVORS TO H9, IF CITY LOST REMOVE K3 I,
  IF CAPITAL LOST REMOVE K3 I, IF EVEN BATTLE WON KEEP I
                           standing answers for what may come
  CANCEL IF [condition]    drop answers given in advance
";

    const RULES: &'static str = rules_text::RULES;

    // A turn is many orders (P7): the mail's end closes it with END,
    // unless its last line is MORE (design, "By mail").
    const MAIL_TURN: Option<MailTurn> = Some(MailTurn {
        close: "END",
        keep_open: "MORE",
    });

    // The printed board is unpublished: every invitation says the board
    // played is a reconstruction (issue 16).
    const NOTICE: Option<&'static str> = Some(RECONSTRUCTION_NOTE);

    // The Confederacy always moves first (the engine opens so).
    const FIRST: Option<Seat> = Some(Seat::South);

    fn seat_name(seat: Seat) -> &'static str {
        Side::from(seat).name()
    }

    fn ending_words(ending: &EndReason) -> String {
        ending::words(*ending)
    }

    fn read_ending(words: &str) -> Option<EndReason> {
        ending::read(words)
    }

    fn event_text(event: &Event, viewer: Seat) -> String {
        event::words(event, viewer.into())
    }

    fn public_event_text(event: &Event) -> String {
        event::public_words(event)
    }

    fn read_order(&self, line: &str) -> Result<Order, Rejection> {
        reader::read_checked(self, line)
    }

    fn order_word(word: &str) -> OrderWord {
        words::order_word(word)
    }

    fn slip_of(word: &str) -> Option<&'static str> {
        words::slip_of(word)
    }

    fn draw_board(&self, viewer: Seat, last: &[Event]) -> String {
        drawing::draw(self, viewer.into(), last, &BoardStyle::default())
    }

    fn draw_board_styled(&self, viewer: Seat, last: &[Event], style: &BoardStyle) -> String {
        drawing::draw(self, viewer.into(), last, style)
    }

    fn draw_picture(&self, viewer: Seat, last: &[Event], observer: bool) -> Option<String> {
        let side = Side::from(viewer);
        Some(picture::draw(self, side, (!observer).then_some(side), last))
    }

    fn read_condition(&self, words: &str) -> Result<Condition, String> {
        conditions::read(words)
    }

    fn condition_holds(&self, seat: Seat, condition: &Condition) -> bool {
        conditions::holds(self, seat, condition)
    }

    fn choices(&self, viewer: Seat) -> String {
        choices::describe(self, viewer.into())
    }

    fn choices_from(&self, square: &str) -> Result<String, Rejection> {
        choices::describe_from(self, square)
    }
}
