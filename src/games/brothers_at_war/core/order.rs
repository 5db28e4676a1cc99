//! The orders as data and their canonical notation, short enough to write
//! by mail (docs/brothers-at-war-orders.md).
//!
//! A unit order names one unit, or the two units of a stack, then a verb:
//! `19IN MOVE 0713 0714`, `19IN 2WI FIRE 0916`. Other orders start with
//! their verb: `PASS`, `COMMANDER 0712`, `DISCARD 17`. Chance orders (the
//! cup, dice, cards) are written by the service: `DRAW 3`, `ROLL 5 6 2`,
//! `CARD 17`. `Display` writes the canonical form; `FromStr` reads it back
//! in any case and spacing. Unit names are kept as written: the game
//! canonicalises them against its scenario
//! ([`Game::parse_order`](crate::games::Game::parse_order)).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::combat::{parse_setting, Setting, SETTING_WORDS};
use super::hex::Hex;
use super::line::LineSide;
use crate::games::brothers_at_war::scenario::model::Side;
use crate::games::ParseError;

/// The most hexes one MOVE order may list.
pub const MAX_PATH: usize = 32;
/// The most dice one ROLL order may carry (6^12 outcomes fit a `u32`).
pub const MAX_DICE: usize = 12;
/// The most units one order may name: a stack is at most two (5.3).
pub const MAX_UNITS: usize = 2;

/// One order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Order {
    /// An action of a unit or of the two units of a stack (5.2).
    Act {
        /// The units, by their scenario ids (1 or 2).
        units: Vec<String>,
        /// What they do.
        action: Action,
    },
    /// The brigade activates none of its units and draws a card (3.221);
    /// the card to discard if the hand is then over its size (B46).
    Pass(Option<PassDiscard>),
    /// The brigade is done activating units: on to moving its commander
    /// (3.22, 3.23).
    End,
    /// The move commander step (3.23, 4.11): a hex, or `None` to stay
    /// (`COMMANDER STAY`).
    Commander(Option<Hex>),
    /// A retreat along these hexes (6.7).
    Retreat(Vec<Hex>),
    /// The hex a broken brigade's remnant is placed on, when its owner is
    /// asked (2.33 a, B110, `PATHS ... ASK`).
    Remnant(Hex),
    /// Spend a reserve to cancel a hit (8.11).
    SpendReserve,
    /// Eliminate a disbanded skirmisher waiting on its brigade's display
    /// to recover one reserve (8.133, B104), or take a remnant off the
    /// map (B116): its owner's, at any moment. `REMOVE` reads the same.
    Eliminate(String),
    /// The unit of a stack lost to a killing hit, when its owner is asked
    /// (6.54, `LOSSES ... ASK`, B145).
    Lose(String),
    /// Play the battle card of this number (11), on a target its effect
    /// kind needs: a unit, a hex or a brigade, as written (B122-B125).
    Play {
        /// The card's number.
        card: u8,
        /// What it is played on, if its kind takes a target.
        on: Option<String>,
    },
    /// Discard the battle card of this number (2.31, 3.221).
    Discard(u8),
    /// Keep the hand as it is (no further discard).
    Keep,
    /// A standing instruction for opportunity fire by a brigade (6.12).
    OpFire {
        /// The brigade's id.
        brigade: String,
        /// When it fires.
        rule: OpFireRule,
    },
    /// A standing instruction other than `OPFIRE` (B5): for a brigade, or
    /// `USA` / `CSA` for all of a side's brigades.
    Instruct {
        /// The brigade's id, or the side's code.
        scope: String,
        /// The setting.
        setting: Setting,
    },
    /// Move an uncommitted brigade's markers to the track (3.15).
    Commit(String),
    /// Done with the preparation choices.
    Ready,
    /// Chance: the marker drawn from the cup, as its place (from 1) in the
    /// cup's canonical order (3.12).
    Draw(u16),
    /// Chance: dice rolled, each 1-6.
    Roll(Vec<u8>),
    /// Chance: the battle card drawn, by number (11.1).
    Card(u8),
    /// Chance: which side's free activation goes first when both have as
    /// many (2.321, B13).
    First(Side),
}

/// The card a pass discards if the draw leaves the hand over its size
/// (3.221, B46).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PassDiscard {
    /// This card of the hand.
    Card(u8),
    /// The card the pass draws.
    New,
}

/// What a unit or stack does (5.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Move along these hexes, each adjacent to the one before (5.21);
    /// from off the map, the first is the entry hex (10.1).
    Move(Vec<Hex>),
    /// Change formation: flip the counter (5.22, 5.222).
    Form,
    /// Fire at a hex (5.24, 6.0).
    Fire(Hex),
    /// Fire at a hex along the named side of a line that runs along
    /// hexsides (6.32, B24: `FIRE 0712 SIDE LEFT`).
    FireSide(Hex, LineSide),
    /// Fire at an enemy off-board battery, named by its unit id (9.43,
    /// B147: `FIRE LNG`).
    FireAtBattery(String),
    /// Hold fire: end the activation without a Finished marker (5.25).
    Hold,
    /// Deploy one of the brigade's skirmishers (5.26, 9.13), mounted or
    /// not (a cavalry skirmisher may enter either way).
    Deploy {
        /// The skirmisher's id.
        skirmisher: String,
        /// Whether it enters mounted.
        mounted: bool,
    },
    /// A deployed skirmisher goes back to the display (5.27, 9.14).
    Disband,
    /// End the unit's activation (5.1).
    Done,
    /// Leave the map by an exit the scenario names (5.214, B20).
    Exit,
}

/// When a brigade conducts opportunity fire (6.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpFireRule {
    /// Whenever it may.
    Always,
    /// Never.
    Never,
    /// Ask its owner each time.
    Ask,
}

impl fmt::Display for OpFireRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpFireRule::Always => "ALWAYS",
            OpFireRule::Never => "NEVER",
            OpFireRule::Ask => "ASK",
        })
    }
}

fn write_hexes(f: &mut fmt::Formatter<'_>, hexes: &[Hex]) -> fmt::Result {
    for h in hexes {
        write!(f, " {h}")?;
    }
    Ok(())
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(path) => {
                f.write_str("MOVE")?;
                write_hexes(f, path)
            }
            Action::Form => f.write_str("FORM"),
            Action::Fire(h) => write!(f, "FIRE {h}"),
            Action::FireSide(h, side) => write!(
                f,
                "FIRE {h} SIDE {}",
                match side {
                    LineSide::Left => "LEFT",
                    LineSide::Right => "RIGHT",
                }
            ),
            Action::FireAtBattery(unit) => write!(f, "FIRE {unit}"),
            Action::Hold => f.write_str("HOLD"),
            Action::Deploy {
                skirmisher,
                mounted,
            } => {
                write!(f, "DEPLOY {skirmisher}")?;
                if *mounted {
                    f.write_str(" MOUNTED")?;
                }
                Ok(())
            }
            Action::Disband => f.write_str("DISBAND"),
            Action::Done => f.write_str("DONE"),
            Action::Exit => f.write_str("EXIT"),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Act { units, action } => {
                for u in units {
                    write!(f, "{u} ")?;
                }
                write!(f, "{action}")
            }
            Order::Pass(None) => f.write_str("PASS"),
            Order::Pass(Some(PassDiscard::Card(n))) => write!(f, "PASS DISCARD {n}"),
            Order::Pass(Some(PassDiscard::New)) => f.write_str("PASS DISCARD NEW"),
            // Not `END` alone: a line of `END` alone ends a mail at intake,
            // and every canonical order must be mailable as written.
            Order::End => f.write_str("END UNITS"),
            Order::Commander(Some(h)) => write!(f, "COMMANDER {h}"),
            Order::Commander(None) => f.write_str("COMMANDER STAY"),
            Order::Retreat(path) => {
                f.write_str("RETREAT")?;
                write_hexes(f, path)
            }
            Order::Remnant(h) => write!(f, "REMNANT {h}"),
            Order::SpendReserve => f.write_str("SPEND RESERVE"),
            Order::Lose(unit) => write!(f, "LOSE {unit}"),
            Order::Eliminate(unit) => write!(f, "ELIMINATE {unit}"),
            Order::Play { card, on: None } => write!(f, "PLAY {card}"),
            Order::Play { card, on: Some(x) } => write!(f, "PLAY {card} ON {x}"),
            Order::Discard(n) => write!(f, "DISCARD {n}"),
            Order::Keep => f.write_str("KEEP"),
            Order::OpFire { brigade, rule } => write!(f, "OPFIRE {brigade} {rule}"),
            Order::Instruct { scope, setting } => {
                write!(f, "{} {scope} {setting}", setting.word())
            }
            Order::Commit(b) => write!(f, "COMMIT {b}"),
            Order::Ready => f.write_str("READY"),
            Order::Draw(n) => write!(f, "DRAW {n}"),
            Order::Roll(dice) => {
                f.write_str("ROLL")?;
                for d in dice {
                    write!(f, " {d}")?;
                }
                Ok(())
            }
            Order::Card(n) => write!(f, "CARD {n}"),
            Order::First(side) => write!(f, "FIRST {}", side.code()),
        }
    }
}

/// The verbs a unit order may use after its units.
const UNIT_VERBS: [&str; 8] = [
    "MOVE", "FORM", "FIRE", "HOLD", "DEPLOY", "DISBAND", "DONE", "EXIT",
];

fn hex(word: &str) -> Result<Hex, ParseError> {
    word.parse::<Hex>()
        .map_err(|_| ParseError::new(format!("{word} is not a hex (CCRR, such as 0712)")))
}

fn hexes(words: &[&str], at_least: usize) -> Result<Vec<Hex>, ParseError> {
    if words.len() < at_least || words.len() > MAX_PATH {
        return Err(ParseError::new(format!(
            "give {at_least} to {MAX_PATH} hexes"
        )));
    }
    words.iter().map(|w| hex(w)).collect()
}

/// The longest unit, brigade or hex name an order may carry.
const MAX_NAME: usize = 24;

fn bounded_name(word: &str) -> Result<String, ParseError> {
    // A sentence's full stop or comma is not part of a name.
    let word = word.trim_end_matches(['.', ',', ';', '!']);
    if word.is_empty() || word.len() > MAX_NAME {
        return Err(ParseError::new(format!(
            "names are at most {MAX_NAME} characters"
        )));
    }
    Ok(word.to_string())
}

fn number<T: FromStr>(word: Option<&&str>, what: &str) -> Result<T, ParseError> {
    word.and_then(|w| w.parse().ok())
        .ok_or_else(|| ParseError::new(format!("give {what}")))
}

fn only(words: &[&str], n: usize, form: &str) -> Result<(), ParseError> {
    if words.len() == n {
        Ok(())
    } else {
        Err(ParseError::new(format!("write {form}")))
    }
}

impl FromStr for Order {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Order, ParseError> {
        let upper = text.trim().to_ascii_uppercase();
        let words: Vec<&str> = upper.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Err(ParseError::new("an empty order"));
        };
        let order = match first {
            "PASS" => match rest {
                [] => Order::Pass(None),
                ["DISCARD", "NEW"] => Order::Pass(Some(PassDiscard::New)),
                ["DISCARD", n] => {
                    Order::Pass(Some(PassDiscard::Card(number(Some(n), "a card number")?)))
                }
                _ => return Err(ParseError::new("write PASS, or PASS DISCARD card|NEW")),
            },
            "FIRST" => {
                only(&words, 2, "FIRST USA|CSA")?;
                match rest[0] {
                    "USA" => Order::First(Side::Union),
                    "CSA" => Order::First(Side::Confederacy),
                    _ => return Err(ParseError::new("write FIRST USA or FIRST CSA")),
                }
            }
            "END" => match rest {
                [] | ["UNITS"] => Order::End,
                _ => return Err(ParseError::new("write END UNITS")),
            },
            "KEEP" => only(&words, 1, "KEEP").map(|_| Order::Keep)?,
            "READY" => only(&words, 1, "READY").map(|_| Order::Ready)?,
            "REMNANT" => {
                only(&words, 2, "REMNANT hex")?;
                Order::Remnant(hex(rest[0])?)
            }
            "COMMANDER" => {
                only(&words, 2, "COMMANDER hex, or COMMANDER STAY")?;
                match rest[0] {
                    "STAY" => Order::Commander(None),
                    w => Order::Commander(Some(hex(w)?)),
                }
            }
            "RETREAT" if rest.first().is_some_and(|w| w.parse::<Hex>().is_ok()) => {
                Order::Retreat(hexes(rest, 1)?)
            }
            // `DISCARD 17` discards a card; `DISCARD USA ASK` instructs.
            "DISCARD" if rest.len() == 1 => Order::Discard(number(rest.first(), "a card number")?),
            w if SETTING_WORDS.contains(&w) && w != "OPFIRE" => {
                let (Some(scope), Some(setting)) = (
                    rest.first(),
                    rest.get(1..).and_then(|v| parse_setting(w, v)),
                ) else {
                    return Err(ParseError::new(format!(
                        "write {w} brigade (or USA, CSA) and its value (B5)"
                    )));
                };
                Order::Instruct {
                    scope: scope.to_string(),
                    setting,
                }
            }
            "ELIMINATE" | "REMOVE" => {
                only(&words, 2, "ELIMINATE skirmisher (or remnant)")?;
                Order::Eliminate(bounded_name(rest[0])?)
            }
            "LOSE" => {
                only(&words, 2, "LOSE unit")?;
                Order::Lose(bounded_name(rest[0])?)
            }
            "SPEND" => {
                only(&words, 2, "SPEND RESERVE")?;
                if rest[0] != "RESERVE" {
                    return Err(ParseError::new("write SPEND RESERVE"));
                }
                Order::SpendReserve
            }
            "PLAY" => {
                let form = "PLAY card-number, or PLAY card-number ON unit|hex|brigade";
                let card = number(rest.first(), "a card number")?;
                let on = match &rest[1..] {
                    [] => None,
                    ["ON", x] => Some(bounded_name(x)?),
                    ["ON"] => return Err(ParseError::new(format!("write {form}"))),
                    [x] => Some(bounded_name(x)?),
                    _ => return Err(ParseError::new(format!("write {form}"))),
                };
                Order::Play { card, on }
            }
            "DISCARD" => {
                only(&words, 2, "DISCARD card-number")?;
                Order::Discard(number(rest.first(), "a card number")?)
            }
            "CARD" => {
                only(&words, 2, "CARD card-number")?;
                Order::Card(number(rest.first(), "a card number")?)
            }
            "DRAW" => {
                only(&words, 2, "DRAW n")?;
                let n: u16 = number(rest.first(), "the marker's place in the cup")?;
                if n == 0 {
                    return Err(ParseError::new("cup places count from 1"));
                }
                Order::Draw(n)
            }
            "ROLL" => {
                if rest.is_empty() || rest.len() > MAX_DICE {
                    return Err(ParseError::new(format!("ROLL 1 to {MAX_DICE} dice")));
                }
                let dice = rest
                    .iter()
                    .map(|w| match w.parse::<u8>() {
                        Ok(d @ 1..=6) => Ok(d),
                        _ => Err(ParseError::new(format!("{w} is not a die (1-6)"))),
                    })
                    .collect::<Result<Vec<u8>, _>>()?;
                Order::Roll(dice)
            }
            "OPFIRE" => {
                only(&words, 3, "OPFIRE brigade ALWAYS|NEVER|ASK")?;
                let rule = match rest[1] {
                    "ALWAYS" => OpFireRule::Always,
                    "NEVER" => OpFireRule::Never,
                    "ASK" => OpFireRule::Ask,
                    _ => return Err(ParseError::new("OPFIRE brigade ALWAYS|NEVER|ASK")),
                };
                Order::OpFire {
                    brigade: rest[0].to_string(),
                    rule,
                }
            }
            "COMMIT" => {
                only(&words, 2, "COMMIT brigade")?;
                Order::Commit(rest[0].to_string())
            }
            _ => unit_order(&words)?,
        };
        Ok(order)
    }
}

fn unit_order(words: &[&str]) -> Result<Order, ParseError> {
    let Some(v) = words.iter().position(|w| UNIT_VERBS.contains(w)) else {
        return Err(ParseError::new(
            "no order verb (MOVE, FORM, FIRE, HOLD, DEPLOY, DISBAND, DONE, PASS, END, COMMANDER ...)",
        ));
    };
    let units: Vec<String> = words[..v].iter().map(|w| w.to_string()).collect();
    if units.is_empty() || units.len() > MAX_UNITS {
        return Err(ParseError::new(
            "name one unit, or the two units of a stack",
        ));
    }
    let rest = &words[v + 1..];
    let action = match words[v] {
        "MOVE" => Action::Move(hexes(rest, 1)?),
        "FIRE" => match rest {
            [h] if h.parse::<Hex>().is_ok() => Action::Fire(hex(h)?),
            // 9.43, B147: a name that is no hex is an off-board battery.
            [h] => Action::FireAtBattery(bounded_name(h)?),
            [h, "SIDE", "LEFT"] => Action::FireSide(hex(h)?, LineSide::Left),
            [h, "SIDE", "RIGHT"] => Action::FireSide(hex(h)?, LineSide::Right),
            _ => {
                return Err(ParseError::new(
                    "write FIRE hex, or FIRE hex SIDE LEFT (or RIGHT) along hexsides",
                ))
            }
        },
        "DEPLOY" => match rest {
            [s] => Action::Deploy {
                skirmisher: s.to_string(),
                mounted: false,
            },
            [s, "MOUNTED"] => Action::Deploy {
                skirmisher: s.to_string(),
                mounted: true,
            },
            _ => return Err(ParseError::new("write DEPLOY skirmisher [MOUNTED]")),
        },
        verb => {
            if !rest.is_empty() {
                return Err(ParseError::new(format!("{verb} takes nothing after it")));
            }
            match verb {
                "FORM" => Action::Form,
                "HOLD" => Action::Hold,
                "DISBAND" => Action::Disband,
                "EXIT" => Action::Exit,
                _ => Action::Done,
            }
        }
    };
    Ok(Order::Act { units, action })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) {
        let order: Order = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(order.to_string(), text);
        assert_eq!(order.to_string().parse::<Order>().as_ref(), Ok(&order));
    }

    #[test]
    fn every_form_of_the_notation_round_trips() {
        for text in [
            "19IN MOVE 0713 0714",
            "19IN FORM",
            "19IN FIRE 0916",
            "19IN 2WI FIRE 0916",
            "19IN HOLD",
            "19IN DEPLOY SK1",
            "19IN DEPLOY SK1 MOUNTED",
            "SK1 DISBAND",
            "19IN DONE",
            "PASS",
            "PASS DISCARD 17",
            "PASS DISCARD NEW",
            "19IN EXIT",
            "FIRST USA",
            "FIRST CSA",
            "END UNITS",
            "COMMANDER 0712",
            "COMMANDER STAY",
            "RETREAT 0812 0911",
            "SPEND RESERVE",
            "PLAY 17",
            "DISCARD 17",
            "KEEP",
            "OPFIRE IRON ALWAYS",
            "RETREAT IRON IFKILLED LONG",
            "RESERVES USA KEEPLAST",
            "LOSSES CSA STRONGEST",
            "EVADE IRON ALWAYS",
            "POINTBLANK IRON NEVER",
            "PATHS USA AUTO",
            "COMMIT IRON",
            "READY",
            "DRAW 3",
            "ROLL 5 6 2",
            "CARD 17",
        ] {
            round_trip(text);
        }
    }

    #[test]
    fn any_case_and_spacing_reads_the_same_order() {
        assert_eq!(
            "  19in   move 0713\t0714 ".parse::<Order>(),
            "19IN MOVE 0713 0714".parse::<Order>()
        );
    }

    #[test]
    fn counts_from_the_text_are_bounded() {
        assert!("ROLL 1 2 3 4 5 6 1 2 3 4 5 6 1".parse::<Order>().is_err());
        assert!("ROLL 7".parse::<Order>().is_err());
        assert!("A B C MOVE 0101".parse::<Order>().is_err());
        let long = format!("A MOVE{}", " 0101".repeat(MAX_PATH + 1));
        assert!(long.parse::<Order>().is_err());
        assert!("DRAW 0".parse::<Order>().is_err());
        assert!("19IN MOVE".parse::<Order>().is_err());
        assert!("19IN MOVE 9999x".parse::<Order>().is_err());
        assert!("".parse::<Order>().is_err());
    }
}
