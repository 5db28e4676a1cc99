//! What a line that is not one order comes to (a problem and the legal
//! orders it may have meant), and the readings moves and attacks share:
//! squares named in words, a unit's step, the legal orders of a kind.

use super::words::Token;
use crate::games::squares::core::board::{board, Space, Terrain};
use crate::games::squares::core::order::{Order, Step};
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::{Side, UnitKind};
use crate::games::squares::core::variant::Variant;
use crate::games::squares::text::notation::Notation;
use crate::games::Game;

/// Why a line could not be turned into one order.
pub(super) struct Misread {
    pub(super) problem: String,
    /// Legal orders the line may have meant.
    pub(super) candidates: Vec<Order>,
}

impl Misread {
    pub(super) fn new(problem: impl Into<String>) -> Misread {
        Misread {
            problem: problem.into(),
            candidates: Vec::new(),
        }
    }
}

/// The notation of the game a position belongs to: the reader reads and
/// answers in it (N1, N36).
pub(super) fn notation_of(game: &Squares) -> &'static Notation {
    game.variant().notation()
}

/// The side whose decision is pending (the mover when none is).
pub(super) fn decider(game: &Squares) -> Side {
    game.side_to_decide().unwrap_or(game.to_move)
}

/// A square token as a space: a reserve named in words is the named
/// side's, or the decider's own.
pub(super) fn space_of(game: &Squares, t: &Token) -> Option<Space> {
    match t {
        Token::Square(s) => Some(*s),
        Token::Reserve(Some(side)) => Some(board().reserve(*side)),
        Token::Reserve(None) => Some(board().reserve(decider(game))),
        Token::EnemyReserve => Some(board().reserve(decider(game).opponent())),
        _ => None,
    }
}

/// The legal orders for which `keep` holds.
pub(super) fn legal_of(game: &Squares, keep: impl Fn(&Order) -> bool) -> Vec<Order> {
    let notation = notation_of(game);
    let mut v: Vec<Order> = game.legal_orders().into_iter().filter(keep).collect();
    v.sort_by_key(|o| o.display_in(notation).to_string());
    v
}

/// The one candidate, or a misread offering them all.
pub(super) fn unique(candidates: Vec<Order>, problem: &str) -> Result<Order, Misread> {
    match candidates.as_slice() {
        [one] => Ok(*one),
        [] => Err(Misread::new(format!("{problem}, and none is legal now"))),
        _ => Err(Misread {
            problem: format!("{problem}: {} are possible", candidates.len()),
            candidates,
        }),
    }
}

/// The units that move in pairs, one step each (R11; N6 in the variant).
pub(super) fn pair_movers(game: &Squares) -> &'static str {
    match game.variant() {
        Variant::CivilWar => "cavalry",
        Variant::Napoleonic => "cavalry or heavy cavalry",
    }
}

/// The units whose move may pass through a middle square (R11; N5, N6).
pub(super) fn two_steppers(game: &Squares) -> &'static str {
    match game.variant() {
        Variant::CivilWar => "cavalry",
        Variant::Napoleonic => "cavalry, heavy cavalry or the horse battery",
    }
}

/// One unit's step from the squares written (two, or three with a cavalry
/// path), resolving a reserve move without its unit type when only one
/// type can make it.
pub(super) fn step_of(
    game: &Squares,
    squares: &[Space],
    unit: Option<UnitKind>,
) -> Result<Step, Misread> {
    let (from, via, to) = match squares {
        [from, to] => (*from, None, *to),
        [from, via, to] => (*from, Some(*via), *to),
        [only] => {
            let moves = legal_of(game, |o| match o {
                Order::Move(s) => s.from == *only || s.to == *only,
                _ => false,
            });
            return Err(Misread {
                problem: format!(
                    "a move names the square it leaves and the square it enters; \
                     this one names only {}",
                    only.display_in(notation_of(game))
                ),
                candidates: moves,
            });
        }
        _ => {
            return Err(Misread::new(format!(
                "a move names the square it leaves and the square it enters, \
                 with at most one square between them for {}",
                two_steppers(game)
            )))
        }
    };
    let is_reserve = matches!(board().terrain(from), Terrain::Reserve(_));
    let unit = if is_reserve {
        match unit {
            Some(u) => Some(u),
            None => {
                let kinds = legal_of(
                    game,
                    |o| matches!(o, Order::Move(s) if s.from == from && s.to == to),
                );
                match kinds.as_slice() {
                    [Order::Move(s)] => s.unit,
                    [] => None,
                    _ => {
                        return Err(Misread {
                            problem: format!(
                                "a move out of the reserve names the unit type (R7): \
                                 which unit goes from {} to {}?",
                                from.display_in(notation_of(game)),
                                to.display_in(notation_of(game))
                            ),
                            candidates: kinds,
                        })
                    }
                }
            }
        }
    } else {
        // The unit type is optional on the board; a wrong one is caught
        // by the rules check with the unit actually there.
        match (unit, game.unit_at(from)) {
            (Some(named), Some(u)) if u.kind() == named => None,
            (named, _) => named,
        }
    };
    Ok(Step {
        from,
        via,
        to,
        unit,
    })
}

/// What an attack names, with an example in the game's codes.
pub(super) fn attack_shape(notation: &Notation) -> Misread {
    Misread::new(format!(
        "an attack names the attacking unit's square, the target and \
         perhaps a supporting unit's square (ATTACK {} B1C SUPPORT {})",
        notation.code("G1C"),
        notation.code("G1CR")
    ))
}
