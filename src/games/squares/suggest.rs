//! The legal orders nearest to one that was refused: what to offer a
//! player instead of a bare "no".
//!
//! Nearness is judged by what the player evidently meant: the same unit
//! (its square) matters most, then the same destination or target, then the
//! same kind of order, then squares next to the ones named. Inside an
//! attack the few legal choices are all offered, an option with the number
//! asked for first. Orders print in the current game's notation (F codes
//! and the variant's unit words, N1, N24), as the reader's are.

use super::board::{board, Space};
use super::order::Order;
use super::state::Squares;
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

/// The unit type a reserve move names, if any.
fn named_unit(order: &Order) -> Option<super::unit::UnitKind> {
    match order {
        Order::Move(s) => s.unit,
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

/// How near `candidate` is to what `wanted` asked for.
fn score(wanted: &Order, w: &Roles, candidate: &Order) -> u32 {
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
    if same_kind(wanted, candidate) {
        s += 3;
    }
    if named_unit(wanted).is_some() && named_unit(wanted) == named_unit(candidate) {
        s += 4;
    }
    // An option of another list with the same number (`OPTION HB2` where
    // the Grand Battery list is offered, N18) most likely meant this one.
    if option_number(wanted).is_some() && option_number(wanted) == option_number(candidate) {
        s += 5;
    }
    s
}

/// The legal orders nearest to `wanted`, best first, at most [`LIMIT`].
pub(crate) fn nearest(game: &Squares, wanted: &Order) -> Vec<Order> {
    let legal = game.legal_orders();
    let in_attack = game.attack.is_some();
    let w = roles(wanted);
    let mut scored: Vec<(u32, String, Order)> = legal
        .into_iter()
        .map(|o| (score(wanted, &w, &o), o.to_string(), o))
        .collect();
    // A bare kind match (some other move) is no suggestion on a turn, where
    // dozens of orders share a kind; inside an attack every choice is.
    let threshold = if in_attack { 0 } else { 5 };
    scored.retain(|(s, _, _)| *s >= threshold);
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.into_iter().take(LIMIT).map(|(_, _, o)| o).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
