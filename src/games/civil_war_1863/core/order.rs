//! Orders, in their canonical notation (records keep them so): pieces are
//! named by counts per kind, never by identity (P10).
//!
//! | order | written |
//! |---|---|
//! | a move (march, cavalry, gunboat) | `H7 2I1C-H8`, `H7 1C-I8-J9` |
//! | a rail ride (P15) | `RIDE H7 2I-H8-H9-I10` |
//! | fortify, unfortify (P31, P33) | `FORTIFY G12`, `UNFORTIFY G12` |
//! | end the turn (P7) | `END` |
//! | the attacker's losses (P20) | `TAKE 2 KILL 2I LOSE 1C` |
//! | a survivors' move (P21) | `SURVIVORS H8 1C-H9` |
//! | a removal (P27, P30) | `REMOVE K3 I` |
//! | the piece kept (P22) | `KEEP I` |
//! | the coin (P22) | `TOSS HEADS`, `TOSS TAILS` |

use std::fmt;

use super::side::PieceKind;
use super::square::Square;
use super::stack::{kind_letter, kind_of_letter, Counts};
use crate::games::ParseError;

pub use super::path::{Path, MAX_PATH};

/// One order of the Civil War Game 1863.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// A group leaves `from` along `path` (the squares entered, in order):
    /// a march, a cavalry or gunboat move, or an attack (P9-P14).
    Move {
        /// Where the group stands.
        from: Square,
        /// The group.
        pieces: Counts,
        /// The squares entered, 1 or 2.
        path: Path,
    },
    /// Infantry rides a railroad, 1 to 3 rail steps (P15).
    Ride {
        /// Where the group stands.
        from: Square,
        /// The group (infantry only).
        pieces: Counts,
        /// The squares entered, 1 to 3.
        path: Path,
    },
    /// Fortify a key city (P31).
    Fortify(Square),
    /// Remove a city's fortification (P33).
    Unfortify(Square),
    /// End the turn (P7, P8).
    EndTurn,
    /// The attacker's choice in a larger battle (P20): `take` is k.
    Losses {
        /// k: the defending strength eliminated.
        take: u8,
        /// The defender's pieces eliminated.
        enemy: Counts,
        /// The attacker's own pieces lost (k - 1).
        own: Counts,
    },
    /// Survivors of a lost battle leave its square (P21).
    Survivors {
        /// The group.
        pieces: Counts,
        /// The squares entered, 1 or 2.
        path: Path,
    },
    /// One piece removed for a lost city (P27, P30).
    Remove {
        /// Its square.
        square: Square,
        /// Its kind.
        kind: PieceKind,
    },
    /// The piece kept by the winner of an even battle (P22).
    Keep(PieceKind),
    /// The coin of an even battle (P22): heads, the attacker wins.
    Toss {
        /// Whether it came down heads.
        heads: bool,
    },
}

fn write_path(f: &mut fmt::Formatter<'_>, path: &[Square]) -> fmt::Result {
    for sq in path {
        write!(f, "-{sq}")?;
    }
    Ok(())
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Move { from, pieces, path } => {
                write!(f, "{from} {pieces}")?;
                write_path(f, path)
            }
            Order::Ride { from, pieces, path } => {
                write!(f, "RIDE {from} {pieces}")?;
                write_path(f, path)
            }
            Order::Fortify(sq) => write!(f, "FORTIFY {sq}"),
            Order::Unfortify(sq) => write!(f, "UNFORTIFY {sq}"),
            Order::EndTurn => f.write_str("END"),
            Order::Losses { take, enemy, own } => {
                write!(f, "TAKE {take} KILL {enemy} LOSE {own}")
            }
            Order::Survivors { pieces, path } => {
                write!(f, "SURVIVORS {pieces}")?;
                write_path(f, path)
            }
            Order::Remove { square, kind } => {
                write!(f, "REMOVE {square} {}", kind_letter(*kind))
            }
            Order::Keep(kind) => write!(f, "KEEP {}", kind_letter(*kind)),
            Order::Toss { heads: true } => f.write_str("TOSS HEADS"),
            Order::Toss { heads: false } => f.write_str("TOSS TAILS"),
        }
    }
}

fn square(word: &str) -> Result<Square, ParseError> {
    Square::parse(word).ok_or_else(|| ParseError::new(format!("{word:?} is not a square")))
}

fn counts(word: &str) -> Result<Counts, ParseError> {
    Counts::parse(word)
        .ok_or_else(|| ParseError::new(format!("{word:?} is not a count of pieces such as 2I1C")))
}

fn kind(word: &str) -> Result<PieceKind, ParseError> {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => kind_of_letter(c),
        _ => PieceKind::parse(word),
    }
    .ok_or_else(|| ParseError::new(format!("{word:?} is not a kind of piece (I, C or G)")))
}

/// `2I1C-H8-H9`: the pieces and the path.
fn pieces_and_path(text: &str) -> Result<(Counts, Path), ParseError> {
    let mut parts = text.split('-');
    let pieces = counts(parts.next().unwrap_or(""))?;
    let path = parts.map(square).collect::<Result<Vec<_>, _>>()?;
    match Path::new(&path) {
        Some(path) if !path.is_empty() => Ok((pieces, path)),
        _ => Err(ParseError::new(format!(
            "a move names 1 to {MAX_PATH} squares after its pieces"
        ))),
    }
}

impl Order {
    /// Reads an order in canonical notation (any case).
    pub fn read(text: &str) -> Result<Order, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
        let up: Vec<&str> = upper.iter().map(String::as_str).collect();
        match up.as_slice() {
            ["END"] => Ok(Order::EndTurn),
            ["FORTIFY", sq] => Ok(Order::Fortify(square(sq)?)),
            ["UNFORTIFY", sq] => Ok(Order::Unfortify(square(sq)?)),
            ["TOSS", "HEADS"] => Ok(Order::Toss { heads: true }),
            ["TOSS", "TAILS"] => Ok(Order::Toss { heads: false }),
            ["KEEP", k] => Ok(Order::Keep(kind(k)?)),
            ["REMOVE", sq, k] => Ok(Order::Remove {
                square: square(sq)?,
                kind: kind(k)?,
            }),
            ["TAKE", k, "KILL", enemy, "LOSE", own] => Ok(Order::Losses {
                take: k
                    .parse()
                    .ok()
                    .filter(|&k: &u8| k <= 2 * super::stack::MAX_COUNT)
                    .ok_or_else(|| ParseError::new(format!("{k:?} is not a number of pieces")))?,
                enemy: counts(enemy)?,
                own: counts(own)?,
            }),
            ["SURVIVORS", rest] => {
                let (pieces, path) = pieces_and_path(rest)?;
                Ok(Order::Survivors { pieces, path })
            }
            ["RIDE", from, rest] => {
                let (pieces, path) = pieces_and_path(rest)?;
                Ok(Order::Ride {
                    from: square(from)?,
                    pieces,
                    path,
                })
            }
            [from, rest] => {
                let (pieces, path) = pieces_and_path(rest)?;
                Ok(Order::Move {
                    from: square(from)?,
                    pieces,
                    path,
                })
            }
            _ => Err(ParseError::new(format!("{text:?} is not an order"))),
        }
    }
}

impl std::str::FromStr for Order {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Order, ParseError> {
        Order::read(text)
    }
}
