//! The legal orders nearest to one that was refused: what to offer a
//! player instead of a bare "no".
//!
//! Nearness is judged by what the player evidently meant: the same unit
//! (its square) matters most, then the same destination or target, then the
//! same kind of order, then squares next to the ones named. Inside an
//! attack the few legal choices are all offered, an option with the number
//! asked for first. Orders are ordered by their text in the game's own
//! notation (F codes and the variant's unit words, N1, N24), as the reader
//! prints them.

use crate::games::squares::core::board::{board, Space};
use crate::games::squares::core::order::Order;
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::UnitKind;
use crate::games::Game;

/// The most suggestions a refusal carries.
pub(crate) const LIMIT: usize = 5;

/// The squares an order names, by role.
#[derive(Default)]
struct Roles {
    /// The acting unit's square (a move's start, the attacker).
    from: Vec<Space>,
    /// Where it goes (a move's end, the target, a retreat's first square).
    to: Vec<Space>,
    /// A supporting unit's square.
    support: Option<Space>,
}

fn roles(order: &Order) -> Roles {
    match *order {
        Order::Move(s) => Roles {
            from: vec![s.from],
            to: vec![s.to],
            support: None,
        },
        Order::MoveTwo(a, b) => Roles {
            from: vec![a.from, b.from],
            to: vec![a.to, b.to],
            support: None,
        },
        Order::Attack {
            attacker,
            target,
            support,
        } => Roles {
            from: vec![attacker],
            to: vec![target],
            support,
        },
        Order::Retreat(chain) => Roles {
            from: vec![],
            to: chain.squares().to_vec(),
            support: None,
        },
        _ => Roles::default(),
    }
}

fn same_kind(a: &Order, b: &Order) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// The unit type an order acts with: a reserve move's named type, or the
/// type of the unit on the moving or attacking square.
fn acting_unit(game: &Squares, order: &Order) -> Option<UnitKind> {
    let kind_at = |s: Space| game.unit_at(s).map(|u| u.kind());
    match *order {
        Order::Move(s) => s.unit.or_else(|| kind_at(s.from)),
        Order::MoveTwo(a, _) => a.unit.or_else(|| kind_at(a.from)),
        Order::Attack { attacker, .. } => kind_at(attacker),
        Order::Lose(kind) => Some(kind),
        _ => None,
    }
}

/// The number of an attacker's option of any list (`OPTION 2`, `OPTION
/// GB2`, `OPTION HB2`).
fn option_number(order: &Order) -> Option<u8> {
    match *order {
        Order::Option(n) | Order::GrandBattery(n) | Order::HorseBattery(n) => Some(n),
        _ => None,
    }
}

/// What a refused line asked for, as far as it was read: the squares by
/// their part where the line gave one, the unit type, the kind of order.
/// Built from a whole order ([`Hint::of`]) or from a line that names only
/// part of one ("cav to G1C").
#[derive(Clone, Debug, Default)]
pub(crate) struct Hint {
    /// An order of the kind asked for (only its kind counts).
    pub kind: Option<Order>,
    /// The acting unit's square(s).
    pub from: Vec<Space>,
    /// Where it goes, or what it attacks.
    pub to: Vec<Space>,
    pub support: Option<Space>,
    /// Squares named without a part.
    pub named: Vec<Space>,
    /// The acting unit's type.
    pub unit: Option<UnitKind>,
    /// An option's number.
    pub option: Option<u8>,
}

impl Hint {
    /// Only the kind of order.
    pub(crate) fn of_kind(kind: Order) -> Hint {
        Hint {
            kind: Some(kind),
            ..Hint::default()
        }
    }

    /// All that a whole order says.
    pub(crate) fn of(order: &Order) -> Hint {
        let r = roles(order);
        Hint {
            kind: Some(*order),
            from: r.from,
            to: r.to,
            support: r.support,
            named: Vec::new(),
            unit: match order {
                Order::Move(s) => s.unit,
                _ => None,
            },
            option: option_number(order),
        }
    }
}

/// How near `candidate` is to what `w` asked for.
fn score(game: &Squares, w: &Hint, candidate: &Order) -> u32 {
    let c = roles(candidate);
    let b = board();
    let mut s = 0;
    if w.from.iter().any(|f| c.from.contains(f)) {
        s += 8;
    }
    if w.to.iter().any(|t| c.to.contains(t)) {
        s += 5;
    } else if w
        .to
        .iter()
        .any(|t| c.to.iter().any(|ct| b.adjacent(*t).contains(*ct)))
    {
        s += 2;
    }
    if w.support.is_some() && w.support == c.support {
        s += 2;
    }
    // A square named without its part counts wherever the candidate has it.
    let all: Vec<Space> = c
        .from
        .iter()
        .chain(&c.to)
        .chain(c.support.iter())
        .copied()
        .collect();
    s += 4 * w.named.iter().filter(|n| all.contains(n)).count() as u32;
    if w.kind.is_some_and(|k| same_kind(&k, candidate)) {
        s += 3;
    }
    if w.unit.is_some() && w.unit == acting_unit(game, candidate) {
        s += 4;
    }
    // An option of another list with the same number (`OPTION HB2` where
    // the Grand Battery list is offered, N18) most likely meant this one.
    if w.option.is_some() && w.option == option_number(candidate) {
        s += 5;
    }
    s
}

/// The legal orders nearest to `wanted`, best first, at most [`LIMIT`].
pub(crate) fn nearest(game: &Squares, wanted: &Order) -> Vec<Order> {
    nearest_hint(game, &Hint::of(wanted))
}

/// The legal orders nearest to what a line asked for, best first, at most
/// [`LIMIT`]; never none while some order is legal: when nothing is near,
/// the best of what there is.
pub(crate) fn nearest_hint(game: &Squares, wanted: &Hint) -> Vec<Order> {
    let legal = game.legal_orders();
    let in_attack = game.attack.is_some();
    // Equals are ordered by their text in the game's own notation, as the
    // player reads them.
    let notation = game.variant().notation();
    let mut scored: Vec<(u32, String, Order)> = legal
        .into_iter()
        .map(|o| {
            let text = o.display_in(notation).to_string();
            (score(game, wanted, &o), text, o)
        })
        .collect();
    // Best first; among equals PASS first (the one order always at hand),
    // then by the text.
    let rank = |o: &Order| u8::from(*o != Order::Pass);
    scored.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| rank(&a.2).cmp(&rank(&b.2)))
            .then_with(|| a.1.cmp(&b.1))
    });
    // A bare kind match (some other move) is no suggestion on a turn, where
    // dozens of orders share a kind; inside an attack every choice is.
    // When nothing passes, the best there is.
    let threshold = if in_attack { 0 } else { 5 };
    let best = scored.first().map_or(0, |s| s.0);
    let threshold = threshold.min(best);
    scored
        .into_iter()
        .filter(|(s, _, _)| *s >= threshold)
        .take(LIMIT)
        .map(|(_, _, o)| o)
        .collect()
}

/// Suggestions for a line nothing could be read from: never none while
/// some order is legal.
pub(crate) fn any(game: &Squares) -> Vec<Order> {
    nearest_hint(game, &Hint::default())
}

#[cfg(test)]
mod tests {
    use super::{nearest, Order, Squares};

    #[test]
    fn a_square_out_of_reach_suggests_the_units_own_moves_first() {
        let game: Squares = "9I3A4C/3/4/2/5/2/5/2/1i2/3/8i3a4c - g - 2 -"
            .parse()
            .unwrap();
        let wanted: Order = "MOVE G2CL B1C".parse().unwrap();
        let near = nearest(&game, &wanted);
        assert!(!near.is_empty());
        for o in &near[..2] {
            assert!(o.to_string().starts_with("MOVE G2CL "), "{near:?}");
        }
    }
}
