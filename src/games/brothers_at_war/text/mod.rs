//! How players read and write Brothers at War by mail: the board for each
//! viewer ([`drawing`], over [`hexmap`] and [`codes`]), the forgiving
//! order reader ([`reader`], [`words`]), the choices with their costs
//! ([`choices`]), the events per viewer ([`event`]), the endings
//! ([`ending`]) and the rules in short (`rules.md`).
//!
//! Hidden hands (B2): a player's own cards appear in his board and choices
//! only; the other player reads how many cards he holds and that a card was
//! drawn, never which.

pub mod asked;
pub mod choices;
pub mod codes;
pub mod drawing;
pub mod ending;
pub mod event;
pub mod hexmap;
pub mod names;
pub mod picture;
pub mod reader;
pub mod words;

use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::order::Order;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Ending};
use crate::games::brothers_at_war::scenario::model::Side;
use crate::games::text::MailTurn;
use crate::games::{BoardStyle, Game, GameText, OrderWord, Rejection, Seat};

/// The rules a record of the game was played under (its `Rules` tag,
/// [`Game::RULES_VERSION`]): the system, and our rulings from B1 to the
/// last one in docs/brothers-at-war-rulings.md (a test keeps the two
/// together).
pub const RULES_VERSION: &str =
    "Brothers at War 1862 system: sequence, command, movement, fire, assault; rulings B1-B151; orderly 1";

/// The rules in short, as `HELP RULES BROTHERSATWAR` mails them.
pub const RULES: &str = include_str!("rules.md");

impl GameText for BrothersAtWar {
    const TITLE: &'static str = "Brothers at War: 1862 (Compass Games, 2022), the system";

    const SEAT_CODES: [&'static str; 2] = ["USA", "CSA"];
    const WHO_FIRST: Option<&'static str> =
        Some("The activation cup decides which brigade acts first (2.21)");

    const ORDERS: &'static str = "10M MOVE 1005 1006, 10M FIRE 0916, 10M FORM, PASS, \
        END UNITS, COMMANDER 0712, COMMANDER STAY, PLAY 17 ON 10M, OPFIRE ward NEVER, \
        CARDS USA AUTO (MORE as the last line keeps an activation open)";

    // The answers to the questions an instruction set to ASK puts (B7,
    // B145, B148), and the turn kept open.
    const COMMANDS: &'static str = "  \
MORE                     as a mail's last line: your activation goes on
                           (else the end of the mail ends its units)
  PASS                     the answer that takes the default, or no card
                           (also in words: no card, keep my cards, stand)
  RETREAT 0804 0904        a retreat's path (RETREAT, EVADE, PATHS ASK)
  LOSE 10M                 which unit of a stack is lost (LOSSES ASK)
  SPEND RESERVE, KEEP      whether a reserve saves a unit (RESERVES ASK)
  PLAY 19                  the card to play (CARDS ASK; its title too:
                           play Fortune of War)
  COMMANDER 0604, REMNANT 0404
                           where a commander or a remnant goes (PATHS ASK)
";

    const RULES: &'static str = RULES;

    // A whole activation goes in one mail (B9): a mail that ends with the
    // brigade's units still to act ends them (END: on to the commander),
    // unless its last line is MORE. A line that is END alone ends a mail
    // at intake, so END is written `END UNITS` (its canonical form).
    const MAIL_TURN: Option<MailTurn> = Some(MailTurn {
        close: "END UNITS",
        keep_open: "MORE",
    });

    // Who acts is drawn from the cup (2.21), so no player chooses who
    // begins; the Union draws its cards first (B3).
    const FIRST: Option<Seat> = Some(Seat::North);

    // Every order names its verb or its unit (`10M 0904`, `MOVE 0904`):
    // a hex in a sentence is a remark (the service's mail reading).
    const ORDER_WITHOUT_VERB_OR_UNIT: bool = false;

    fn seat_name(seat: Seat) -> &'static str {
        names::side(Side::of(seat))
    }

    fn ending_words(ending: &Ending) -> String {
        ending::words(*ending)
    }

    fn read_ending(words: &str) -> Option<Ending> {
        ending::read(words)
    }

    fn event_text(event: &Event, viewer: Seat) -> String {
        event::words(event, viewer)
    }

    fn public_event_text(event: &Event) -> String {
        event::public_words(event)
    }

    fn read_order(&self, line: &str) -> Result<Order, Rejection> {
        // B5: a refused standing instruction suggests the instructions its
        // writer may give, not the orders of the decision pending; the
        // lines read here are the decider's (the service plays the other
        // player's instructions by `standing_suggestions`' door).
        reader::read_checked(self, line).map_err(|mut r| {
            if let (Some(order), Some(side)) = (instruction_in(self, line), self.decider()) {
                r.suggestions = choices::instructions_for(self, side, &order);
            } else if let Some(others) =
                order_in(self, line).and_then(|order| choices::for_units_gone(self, &order))
            {
                // A unit gone from the map: what his other units can do.
                r.suggestions = others;
            }
            r
        })
    }

    fn standing_suggestions(&self, seat: Seat, order: &Order) -> Vec<String> {
        choices::instructions_for(self, Side::of(seat), order)
    }

    fn order_word(word: &str) -> OrderWord {
        words::order_word(word)
    }

    fn slip_of(word: &str) -> Option<&'static str> {
        words::slip_of(word)
    }

    fn draw_board(&self, viewer: Seat, last: &[Event]) -> String {
        drawing::draw(self, viewer, last, &BoardStyle::default())
    }

    fn draw_board_styled(&self, viewer: Seat, last: &[Event], style: &BoardStyle) -> String {
        drawing::draw(self, viewer, last, style)
    }

    fn draw_picture(&self, viewer: Seat, last: &[Event], observer: bool) -> Option<String> {
        Some(picture::draw(
            self,
            (!observer).then(|| Side::of(viewer)),
            last,
        ))
    }

    fn choices(&self, viewer: Seat) -> String {
        choices::describe(self, viewer)
    }

    fn orders_for(&self, seat: Seat) -> String {
        let own = reader::examples(self, Side::of(seat));
        if own.is_empty() {
            Self::ORDERS.to_string()
        } else {
            own
        }
    }

    fn choices_from(&self, square: &str) -> Result<String, Rejection> {
        choices::describe_from(self, square)
    }
}

/// The standing instruction `line` gives, if it gives one (B5): as
/// written canonically, or as the reader takes it.
fn instruction_in(game: &BrothersAtWar, line: &str) -> Option<Order> {
    order_in(game, line).filter(|o| matches!(o, Order::Instruct { .. } | Order::OpFire { .. }))
}

/// The order `line` gives, if it reads as one: as written canonically,
/// or as the reader takes it.
fn order_in(game: &BrothersAtWar, line: &str) -> Option<Order> {
    // A numbered or bulleted line (`3. OPFIRE hale NEVER.`).
    let line = line.trim_start();
    let line = line
        .strip_prefix(['-', '*'])
        .or_else(|| {
            let rest = line.trim_start_matches(|c: char| c.is_ascii_digit());
            (rest.len() < line.len())
                .then_some(rest)?
                .strip_prefix(['.', ')'])
        })
        .unwrap_or(line);
    let canonical = line.trim().trim_end_matches(['.', '!']);
    game.parse_order(canonical).ok().or_else(|| {
        reader::canonical(game, line)
            .ok()
            .and_then(|text| game.parse_order(&text).ok())
    })
}

#[cfg(test)]
mod tests {
    use super::{RULES, RULES_VERSION};

    #[test]
    fn the_rules_tag_names_the_last_ruling_written() {
        let rulings = include_str!("../../../../docs/brothers-at-war-rulings.md");
        let last = rulings
            .lines()
            .filter_map(|l| l.strip_prefix("- **B"))
            .filter_map(|l| l.split("**").next()?.parse::<u32>().ok())
            .max()
            .expect("rulings");
        assert!(
            RULES_VERSION.contains(&format!("rulings B1-B{last};")),
            "{RULES_VERSION} (the last ruling is B{last})"
        );
        assert_eq!(
            <crate::games::brothers_at_war::core::state::BrothersAtWar as crate::games::Game>::RULES_VERSION,
            RULES_VERSION
        );
    }
    use crate::games::text::MAIL_WIDTH;

    #[test]
    fn the_rules_fit_a_mail_and_explain_every_cited_rule() {
        assert!(RULES.lines().all(|l| l.len() <= MAIL_WIDTH));
        let (_, ids) = RULES.split_once("## Rule ids").unwrap_or_default();
        // Where refusals take their rule ids: the refusals, the fire's and
        // the assault's, and the range limits of the fire's arithmetic.
        let code: [(&str, &[&str]); 4] = [
            (include_str!("../engine/refusal.rs"), &["rule: \"", "=> \""]),
            (include_str!("../engine/fire.rs"), &["rule: \"", "=> \""]),
            (include_str!("../engine/assault.rs"), &["rule: \"", "=> \""]),
            (include_str!("../engine/fire_math.rs"), &["{ \""]),
        ];
        for (text, patterns) in code {
            for (i, _) in patterns.iter().flat_map(|p| text.match_indices(p)) {
                let start = text[i..].find('"').map_or(i, |q| i + q + 1);
                let id: String = text[start..].chars().take_while(|c| *c != '"').collect();
                let cited = id.starts_with(|c: char| c.is_ascii_digit())
                    || (id.starts_with('B') && id[1..].chars().all(|c| c.is_ascii_digit()));
                if cited && id.len() <= 8 && !id.is_empty() {
                    assert!(
                        ids.contains(&format!("- {id} ")),
                        "{id} is cited but not explained"
                    );
                }
            }
        }
    }
}
