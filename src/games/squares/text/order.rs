//! Orders in their canonical one-line notation: written by
//! `display_in(notation)`, read by [`Order::read`], in either game's codes
//! and words (N1, N24).
//!
//! ```text
//! MOVE G2CR G1C                       one unit one step
//! MOVE B3C B2CR B1CR                  a cavalry path (the middle square optional
//!                                     when the move is otherwise unambiguous)
//! MOVE CAVALRY BR B3C                 an order from a reserve names the unit type
//! MOVE G2R G3R, G2L G3L               two cavalry, one step each
//! ATTACK G1C B1C SUPPORT G1CR         attacker, target, supporting unit
//! ATTACK G1C B1C                      unsupported
//! PASS  STAND  ADVANCE  STAY
//! RETREAT B1R                         a retreat
//! RETREAT B2CR BR                     a chain: the cavalry to B2CR, the unit
//!                                     displaced from B2CR to BR
//! OPTION 2                            the attacker's option 1-5
//! OPTION GB1  OPTION HB3              the variant's Grand Battery and Horse
//!                                     Battery options (N18, N19)
//! LOSE ARTILLERY                      the unit type lost from an attacked reserve
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::notation::{InNotation, Notation, CIVIL_WAR};
use crate::games::squares::core::board::Space;
use crate::games::squares::core::order::{Chain, Order, Step, MAX_CHAIN};
use crate::games::squares::core::unit::UnitKind;
use crate::games::squares::core::variant::Variant;
use crate::games::ParseError;

impl Step {
    /// This step as `notation` writes it (`CAVALRY BR B3C`, `G2CR G1C`).
    pub fn display_in(self, notation: &Notation) -> InNotation<'_, Step> {
        InNotation::new(self, notation)
    }
}

impl fmt::Display for InNotation<'_, Step> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let step = self.value;
        if let Some(kind) = step.unit {
            write!(f, "{} ", kind.word())?;
        }
        write!(f, "{}", self.with(step.from))?;
        if let Some(via) = step.via {
            write!(f, " {}", self.with(via))?;
        }
        write!(f, " {}", self.with(step.to))
    }
}

/// Written in the Civil War notation.
impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_in(&CIVIL_WAR).fmt(f)
    }
}

impl Order {
    /// This order in canonical notation as `notation` writes it: `ATTACK
    /// G1C B1C`, or `ATTACK F1C B1C` in the variant (N1).
    pub fn display_in(self, notation: &Notation) -> InNotation<'_, Order> {
        InNotation::new(self, notation)
    }
}

impl fmt::Display for InNotation<'_, Order> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let square = |s: Space| self.with(s);
        match self.value {
            Order::Move(step) => write!(f, "MOVE {}", self.with(step)),
            Order::MoveTwo(a, b) => write!(f, "MOVE {}, {}", self.with(a), self.with(b)),
            Order::Attack {
                attacker,
                target,
                support,
            } => {
                write!(f, "ATTACK {} {}", square(attacker), square(target))?;
                if let Some(s) = support {
                    write!(f, " SUPPORT {}", square(s))?;
                }
                Ok(())
            }
            Order::Pass => f.write_str("PASS"),
            Order::Stand => f.write_str("STAND"),
            Order::Retreat(chain) => {
                f.write_str("RETREAT")?;
                for s in chain.squares() {
                    write!(f, " {}", square(*s))?;
                }
                Ok(())
            }
            Order::Option(n) => write!(f, "OPTION {n}"),
            Order::GrandBattery(n) => write!(f, "OPTION GB{n}"),
            Order::HorseBattery(n) => write!(f, "OPTION HB{n}"),
            Order::Advance => f.write_str("ADVANCE"),
            Order::Stay => f.write_str("STAY"),
            Order::Lose(kind) => write!(f, "LOSE {}", kind.word()),
        }
    }
}

/// Written in the Civil War notation, as [`Game`](crate::games::Game)
/// asks of `Squares`' orders; the variant's orders are written by
/// `NapOrder`, in its notation.
impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_in(&CIVIL_WAR).fmt(f)
    }
}

fn space(token: &str, notation: &Notation) -> Result<Space, ParseError> {
    Space::read(token, notation).ok_or_else(|| {
        ParseError::new(format!(
            "{token:?} is not a square of the board (codes such as B1C, G2CR, NWF, BR)"
        ))
    })
}

fn parse_step(tokens: &[&str], notation: &Notation) -> Result<Step, ParseError> {
    let (unit, rest) = match tokens.first().and_then(|t| UnitKind::read(t, notation)) {
        Some(kind) => (Some(kind), &tokens[1..]),
        None => (None, tokens),
    };
    let squares = rest
        .iter()
        .map(|t| space(t, notation))
        .collect::<Result<Vec<_>, _>>()?;
    match squares.as_slice() {
        [from, to] => Ok(Step {
            from: *from,
            via: None,
            to: *to,
            unit,
        }),
        [from, via, to] => Ok(Step {
            from: *from,
            via: Some(*via),
            to: *to,
            unit,
        }),
        _ => Err(ParseError::new(
            "a move names the square it leaves and the square it enters, \
             with at most one square between them for cavalry (MOVE G2CR G1C)",
        )),
    }
}

impl Order {
    /// Reads an order in the Civil War game's canonical notation (see
    /// [`Order::read`]).
    pub fn parse(text: &str) -> Result<Order, ParseError> {
        Order::read(text, &CIVIL_WAR)
    }

    /// Reads an order in `notation`'s canonical form. Case and spacing are
    /// free; the forgiving, many-styled reader for players is built on top
    /// of this.
    pub fn read(text: &str, notation: &Notation) -> Result<Order, ParseError> {
        let text = text.trim();
        let (word, rest) = match text.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (text, ""),
        };
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        let no_args = |order: Order| {
            if tokens.is_empty() {
                Ok(order)
            } else {
                Err(ParseError::new(format!(
                    "{} takes nothing after it",
                    word.to_ascii_uppercase()
                )))
            }
        };
        match word.to_ascii_uppercase().as_str() {
            "MOVE" => {
                let parts: Vec<&str> = rest.split(',').collect();
                match parts.as_slice() {
                    [one] => Ok(Order::Move(parse_step(
                        &one.split_whitespace().collect::<Vec<_>>(),
                        notation,
                    )?)),
                    [a, b] => Ok(Order::MoveTwo(
                        parse_step(&a.split_whitespace().collect::<Vec<_>>(), notation)?,
                        parse_step(&b.split_whitespace().collect::<Vec<_>>(), notation)?,
                    )),
                    _ => Err(ParseError::new(
                        "a move moves one unit, or two cavalry separated by a comma",
                    )),
                }
            }
            "ATTACK" => match tokens.as_slice() {
                [a, t] => Ok(Order::Attack {
                    attacker: space(a, notation)?,
                    target: space(t, notation)?,
                    support: None,
                }),
                [a, t, s, sq] if s.eq_ignore_ascii_case("SUPPORT") => Ok(Order::Attack {
                    attacker: space(a, notation)?,
                    target: space(t, notation)?,
                    support: Some(space(sq, notation)?),
                }),
                _ => Err(ParseError::new(
                    "an attack names the attacking unit's square and the target, \
                     then optionally SUPPORT and the supporting unit's square \
                     (ATTACK G1C B1C SUPPORT G1CR)",
                )),
            },
            "PASS" => no_args(Order::Pass),
            "STAND" => no_args(Order::Stand),
            "ADVANCE" => no_args(Order::Advance),
            "STAY" => no_args(Order::Stay),
            "RETREAT" => {
                let squares = tokens
                    .iter()
                    .map(|t| space(t, notation))
                    .collect::<Result<Vec<_>, _>>()?;
                Chain::from_squares(&squares)
                    .map(Order::Retreat)
                    .ok_or_else(|| {
                        ParseError::new(format!(
                            "a retreat names 1 to {MAX_CHAIN} squares (RETREAT B1R)"
                        ))
                    })
            }
            "OPTION" => {
                let variant = notation.variant;
                let options = match variant {
                    Variant::CivilWar => "the options are 1 to 5",
                    Variant::Napoleonic => "the options are 1 to 5, GB1 to GB3 and HB1 to HB5",
                };
                match tokens.as_slice() {
                    [n] => {
                        let upper = n.to_ascii_uppercase();
                        let (list, digits) = match variant {
                            Variant::Napoleonic if upper.starts_with("GB") => {
                                (Some(true), &upper[2..])
                            }
                            Variant::Napoleonic if upper.starts_with("HB") => {
                                (Some(false), &upper[2..])
                            }
                            _ => (None, upper.as_str()),
                        };
                        match (list, digits.parse::<u8>()) {
                            (None, Ok(n @ 1..=5)) => Ok(Order::Option(n)),
                            (Some(true), Ok(n @ 1..=3)) => Ok(Order::GrandBattery(n)),
                            (Some(false), Ok(n @ 1..=5)) => Ok(Order::HorseBattery(n)),
                            _ => Err(ParseError::new(format!(
                                "{n:?} is not an option: {options}"
                            ))),
                        }
                    }
                    _ => Err(ParseError::new(format!(
                        "OPTION takes one option: {options}"
                    ))),
                }
            }
            "LOSE" => {
                let words = notation
                    .variant
                    .kinds()
                    .iter()
                    .map(|k| k.word())
                    .collect::<Vec<_>>()
                    .join(", ");
                match tokens.as_slice() {
                    [w] => UnitKind::read(w, notation).map(Order::Lose).ok_or_else(|| {
                        ParseError::new(format!("{w:?} is not a unit type: {words}"))
                    }),
                    _ => Err(ParseError::new(format!(
                        "LOSE takes one unit type: {words}"
                    ))),
                }
            }
            "" => Err(ParseError::new("no order given")),
            other => Err(ParseError::new(format!(
                "{other:?} is not an order: MOVE, ATTACK, PASS, STAND, RETREAT, \
                 OPTION, ADVANCE, STAY or LOSE"
            ))),
        }
    }
}

impl std::str::FromStr for Order {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Order, ParseError> {
        Order::parse(s)
    }
}

/// Serialised as its text in the Civil War notation, whatever thread
/// serialises it; the variant's orders serialise as `NapOrder`.
impl Serialize for Order {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.display_in(&CIVIL_WAR).serialize(serializer)
    }
}

impl Serialize for InNotation<'_, Order> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Order {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Order, D::Error> {
        let text = String::deserialize(deserializer)?;
        Order::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::Order;

    #[test]
    fn the_issue_examples_print_back_identically() {
        for text in [
            "MOVE G2CR G1C",
            "MOVE B3C B2CR B1CR",
            "MOVE CAVALRY BR B3C",
            "MOVE G2R G3R, G2L G3L",
            "ATTACK G1C B1C SUPPORT G1CR",
            "ATTACK G1C B1C",
            "PASS",
            "STAND",
            "RETREAT B1R",
            "RETREAT B2CR B3C BR",
            "OPTION 2",
            "ADVANCE",
            "STAY",
            "LOSE ARTILLERY",
        ] {
            assert_eq!(Order::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        for text in [
            "",
            "MOVE",
            "MOVE B9 B1C",
            "OPTION 6",
            "LOSE TANKS",
            "PASS NOW",
            "ATTACK G1C",
            "RETREAT",
            "FLY B1C",
        ] {
            let err = Order::parse(text).unwrap_err();
            assert!(!err.message.is_empty(), "{text:?}");
        }
    }
}
