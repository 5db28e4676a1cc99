//! Events in words and in their serde form, in a game's notation: "Blue
//! cavalry moves BR -> B3C", `{"event":"moved","side":"blue",...}`, and in
//! the variant "British ..." with F codes (N1).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::notation::{InNotation, Notation, CIVIL_WAR};
use crate::games::squares::core::board::Space;
use crate::games::squares::core::event::Event;
use crate::games::squares::core::flow::{EndReason, Outcome};
use crate::games::squares::core::order::Order;
use crate::games::squares::core::unit::{Side, UnitKind};
use crate::games::squares::core::variant::Variant;
use crate::games::GameResult;

impl Event {
    /// This event in words as `notation` writes them ("Blue cavalry moves
    /// BR -> B3C", "British cavalry moves BR -> B3C").
    pub fn display_in<'a>(&'a self, notation: &'a Notation) -> InNotation<'a, &'a Event> {
        InNotation::new(self, notation)
    }
}

impl fmt::Display for InNotation<'_, &Event> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.notation;
        match self.value {
            Event::Moved {
                side: s,
                unit,
                from,
                to,
            } => write!(
                f,
                "{} {unit} moves {} -> {}",
                self.with(*s),
                self.with(*from),
                self.with(*to)
            ),
            Event::Passed { side: s } => write!(f, "{} passes", self.with(*s)),
            Event::DoubleTurn { side: s } => write!(f, "{} has a double turn", self.with(*s)),
            Event::Attacked {
                side: s,
                unit,
                from,
                target,
                support,
            } => {
                write!(
                    f,
                    "{} {unit} in {} attacks {}",
                    self.with(*s),
                    self.with(*from),
                    self.with(*target)
                )?;
                match support {
                    Some((kind, square)) => {
                        write!(f, ", supported by the {kind} in {}", self.with(*square))
                    }
                    None => f.write_str(", unsupported"),
                }
            }
            Event::Flank { target } => {
                write!(
                    f,
                    "flank attack: the defender in {} must retreat if it can",
                    self.with(*target)
                )
            }
            Event::Retreated {
                side: s,
                unit,
                from,
                to,
            } => write!(
                f,
                "{} {unit} retreats {} -> {}",
                self.with(*s),
                self.with(*from),
                self.with(*to)
            ),
            Event::Stood {
                side: s,
                unit,
                square,
            } => write!(
                f,
                "{} {unit} in {} stands",
                self.with(*s),
                self.with(*square)
            ),
            Event::OptionChosen { side: s, option } => {
                let text = option.display_in(n).to_string();
                let code = text.strip_prefix("OPTION ").unwrap_or(&text);
                write!(f, "{} takes option {code}", self.with(*s))
            }
            Event::Charge { target } => write!(
                f,
                "charge after a PASS: the defender in {} is eliminated (N10)",
                self.with(*target)
            ),
            Event::Eliminated {
                side: s,
                unit,
                square,
            } => {
                write!(
                    f,
                    "{} {unit} in {} is eliminated",
                    self.with(*s),
                    self.with(*square)
                )
            }
            Event::Advanced {
                side: s,
                unit,
                from,
                to,
            } => write!(
                f,
                "{} {unit} advances {} -> {}",
                self.with(*s),
                self.with(*from),
                self.with(*to)
            ),
            Event::Stayed { side: s, square } => {
                write!(f, "{} stays in {}", self.with(*s), self.with(*square))
            }
            Event::Forced { side: s, order } => {
                write!(
                    f,
                    "{}'s only choice is taken: {}",
                    self.with(*s),
                    order.display_in(n)
                )
            }
            Event::GameOver(outcome) => {
                match outcome.result {
                    GameResult::Win(seat) => {
                        write!(f, "game over: {} wins", Side::from(seat).display_in(n))?
                    }
                    GameResult::Draw => f.write_str("game over: draw")?,
                }
                match outcome.reason {
                    EndReason::ReserveEntered => {
                        f.write_str(" by entering the enemy reserve (R13)")
                    }
                    EndReason::Points { north, south } => {
                        let rule = match n.variant {
                            Variant::CivilWar => "R26",
                            Variant::Napoleonic => "N22",
                        };
                        write!(
                            f,
                            " on points, {} {north} - {} {south} ({rule}, R27)",
                            Side::Blue.display_in(n),
                            Side::Gray.display_in(n)
                        )
                    }
                    EndReason::NoLegalAction => {
                        f.write_str(" because the other side has no legal action (R8)")
                    }
                }
            }
        }
    }
}

/// Written in the Civil War notation; the variant's events are written by
/// `NapEvent`, in its notation.
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_in(&CIVIL_WAR).fmt(f)
    }
}

/// An event's serde form, with its sides, squares and orders as `S`, `P`
/// and `O`: written ones (in a notation) when serialising, plain text when
/// reading. One shape for both games, so that their JSON differs only in
/// the words.
#[derive(Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum Form<S, P, O> {
    Moved {
        side: S,
        unit: UnitKind,
        from: P,
        to: P,
    },
    Passed {
        side: S,
    },
    DoubleTurn {
        side: S,
    },
    Attacked {
        side: S,
        unit: UnitKind,
        from: P,
        target: P,
        support: Option<(UnitKind, P)>,
    },
    Flank {
        target: P,
    },
    Retreated {
        side: S,
        unit: UnitKind,
        from: P,
        to: P,
    },
    Stood {
        side: S,
        unit: UnitKind,
        square: P,
    },
    OptionChosen {
        side: S,
        option: O,
    },
    Charge {
        target: P,
    },
    Eliminated {
        side: S,
        unit: UnitKind,
        square: P,
    },
    Advanced {
        side: S,
        unit: UnitKind,
        from: P,
        to: P,
    },
    Stayed {
        side: S,
        square: P,
    },
    Forced {
        side: S,
        order: O,
    },
    GameOver(Outcome),
}

/// The form an event is serialised in, borrowing from it.
type Written<'a> = Form<InNotation<'a, Side>, InNotation<'a, Space>, InNotation<'a, Order>>;

/// The form an event is read from.
type Read = Form<String, String, String>;

impl<'a> InNotation<'a, &'a Event> {
    fn form(&self) -> Written<'a> {
        let n = self.notation;
        let side = |s: &Side| s.display_in(n);
        let sq = |s: &Space| s.display_in(n);
        match self.value {
            Event::Moved {
                side: s,
                unit,
                from,
                to,
            } => Form::Moved {
                side: side(s),
                unit: *unit,
                from: sq(from),
                to: sq(to),
            },
            Event::Passed { side: s } => Form::Passed { side: side(s) },
            Event::DoubleTurn { side: s } => Form::DoubleTurn { side: side(s) },
            Event::Attacked {
                side: s,
                unit,
                from,
                target,
                support,
            } => Form::Attacked {
                side: side(s),
                unit: *unit,
                from: sq(from),
                target: sq(target),
                support: support.as_ref().map(|(kind, square)| (*kind, sq(square))),
            },
            Event::Flank { target } => Form::Flank { target: sq(target) },
            Event::Retreated {
                side: s,
                unit,
                from,
                to,
            } => Form::Retreated {
                side: side(s),
                unit: *unit,
                from: sq(from),
                to: sq(to),
            },
            Event::Stood {
                side: s,
                unit,
                square,
            } => Form::Stood {
                side: side(s),
                unit: *unit,
                square: sq(square),
            },
            Event::OptionChosen { side: s, option } => Form::OptionChosen {
                side: side(s),
                option: option.display_in(n),
            },
            Event::Charge { target } => Form::Charge { target: sq(target) },
            Event::Eliminated {
                side: s,
                unit,
                square,
            } => Form::Eliminated {
                side: side(s),
                unit: *unit,
                square: sq(square),
            },
            Event::Advanced {
                side: s,
                unit,
                from,
                to,
            } => Form::Advanced {
                side: side(s),
                unit: *unit,
                from: sq(from),
                to: sq(to),
            },
            Event::Stayed { side: s, square } => Form::Stayed {
                side: side(s),
                square: sq(square),
            },
            Event::Forced { side: s, order } => Form::Forced {
                side: side(s),
                order: order.display_in(n),
            },
            Event::GameOver(outcome) => Form::GameOver(*outcome),
        }
    }
}

impl Serialize for InNotation<'_, &Event> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.form().serialize(serializer)
    }
}

impl Event {
    /// Reads an event serialised in `notation` (by `display_in(notation)`'s
    /// serde form): its squares and orders in that notation, its sides by
    /// either game's names.
    pub fn deserialize_in<'de, D: Deserializer<'de>>(
        deserializer: D,
        notation: &Notation,
    ) -> Result<Event, D::Error> {
        use serde::de::Error;
        let side = |text: String| {
            Side::from_any_name(&text).ok_or_else(|| D::Error::custom(format!("no side {text:?}")))
        };
        let sq = |code: String| {
            Space::read(&code, notation)
                .ok_or_else(|| D::Error::custom(format!("no square {code:?}")))
        };
        let order = |text: String| Order::read(&text, notation).map_err(D::Error::custom);
        Ok(match Read::deserialize(deserializer)? {
            Form::Moved {
                side: s,
                unit,
                from,
                to,
            } => Event::Moved {
                side: side(s)?,
                unit,
                from: sq(from)?,
                to: sq(to)?,
            },
            Form::Passed { side: s } => Event::Passed { side: side(s)? },
            Form::DoubleTurn { side: s } => Event::DoubleTurn { side: side(s)? },
            Form::Attacked {
                side: s,
                unit,
                from,
                target,
                support,
            } => Event::Attacked {
                side: side(s)?,
                unit,
                from: sq(from)?,
                target: sq(target)?,
                support: match support {
                    Some((kind, square)) => Some((kind, sq(square)?)),
                    None => None,
                },
            },
            Form::Flank { target } => Event::Flank {
                target: sq(target)?,
            },
            Form::Retreated {
                side: s,
                unit,
                from,
                to,
            } => Event::Retreated {
                side: side(s)?,
                unit,
                from: sq(from)?,
                to: sq(to)?,
            },
            Form::Stood {
                side: s,
                unit,
                square,
            } => Event::Stood {
                side: side(s)?,
                unit,
                square: sq(square)?,
            },
            Form::OptionChosen { side: s, option } => Event::OptionChosen {
                side: side(s)?,
                option: order(option)?,
            },
            Form::Charge { target } => Event::Charge {
                target: sq(target)?,
            },
            Form::Eliminated {
                side: s,
                unit,
                square,
            } => Event::Eliminated {
                side: side(s)?,
                unit,
                square: sq(square)?,
            },
            Form::Advanced {
                side: s,
                unit,
                from,
                to,
            } => Event::Advanced {
                side: side(s)?,
                unit,
                from: sq(from)?,
                to: sq(to)?,
            },
            Form::Stayed { side: s, square } => Event::Stayed {
                side: side(s)?,
                square: sq(square)?,
            },
            Form::Forced { side: s, order: o } => Event::Forced {
                side: side(s)?,
                order: order(o)?,
            },
            Form::GameOver(outcome) => Event::GameOver(outcome),
        })
    }
}

/// Serialised in the Civil War notation, whatever thread serialises it;
/// the variant's events serialise as `NapEvent`.
impl Serialize for Event {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.display_in(&CIVIL_WAR).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Event, D::Error> {
        Event::deserialize_in(deserializer, &CIVIL_WAR)
    }
}
