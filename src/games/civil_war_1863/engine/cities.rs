//! Key cities and capitals (P26-P30): captures, flags, the removals their
//! owner makes, and the garrisons.

use crate::games::civil_war_1863::core::event::{Cause, Event};
use crate::games::civil_war_1863::core::flow::Removal;
use crate::games::civil_war_1863::core::order::Order;
use crate::games::civil_war_1863::core::side::{PieceKind, Side};
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::Counts;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::refusal::Refusal;

/// How many pieces a side removes when it loses one of its key cities
/// (P27): the North two, the South one.
pub fn key_city_cost(owner: Side) -> u8 {
    match owner {
        Side::Union => 2,
        Side::Confederacy => 1,
    }
}

/// How many pieces a side removes when it loses its capital (P30): the
/// Union six, the Confederacy five.
pub fn capital_cost(owner: Side) -> u8 {
    match owner {
        Side::Union => 6,
        Side::Confederacy => 5,
    }
}

impl CivilWar1863 {
    /// The first capture of a city by `side` (P27, P28, P30): the flag goes
    /// on, and its owner owes his removals at once.
    fn capture(&mut self, side: Side, at: Square, cost: u8, events: &mut Vec<Event>) {
        self.flags.push(at);
        self.flags.sort();
        events.push(Event::Captured {
            side,
            at,
            removals: cost,
        });
        self.removals.push(Removal {
            side: side.opponent(),
            left: cost,
        });
    }

    /// A move, ride or survivors' move of `side` ended on `at` with no
    /// enemy there: an enemy key city not captured before is captured
    /// (P27). Capitals fall only in battle (P30).
    pub(crate) fn entered(&mut self, side: Side, at: Square, events: &mut Vec<Event>) {
        if self.board.key_city_side(at) == Some(side.opponent()) && !self.is_flagged(at) {
            self.capture(side, at, key_city_cost(side.opponent()), events);
        }
    }

    /// `side` won a battle on `at`: an enemy capital not captured before
    /// loses its garrison and is captured (P29, P30); an enemy key city is
    /// captured as by entering it (P27).
    pub(crate) fn won_battle_at(&mut self, side: Side, at: Square, events: &mut Vec<Event>) {
        match self.garrison(at) {
            Some((owner, _)) if owner != side => {
                events.push(Event::GarrisonDestroyed { at });
                self.capture(side, at, capital_cost(owner), events);
            }
            _ => self.entered(side, at, events),
        }
    }

    /// Every single removal the side that owes one may make (P27): any of
    /// its pieces, anywhere.
    pub(crate) fn removal_orders(&self) -> Vec<Order> {
        let Some(r) = self.removals.first() else {
            return Vec::new();
        };
        self.stacks()
            .filter(|(_, s)| s.side == r.side)
            .flat_map(|(square, s)| {
                s.all()
                    .kinds()
                    .map(move |kind| Order::Remove { square, kind })
            })
            .collect()
    }

    /// Whether the removal names a piece of the side that owes one.
    pub(crate) fn check_removal(&self, square: Square, kind: PieceKind) -> Result<(), Refusal> {
        let side = self
            .removals
            .first()
            .expect("checked: a removal is due")
            .side;
        match self.stack(square) {
            Some(s) if s.side == side && s.all().get(kind) > 0 => Ok(()),
            _ => Err(Refusal::NoSuchRemoval { square, kind }),
        }
    }

    /// Removes one piece (P27); infantry it leaves at sea goes too (P14).
    pub(crate) fn apply_removal(
        &mut self,
        square: Square,
        kind: PieceKind,
        events: &mut Vec<Event>,
    ) {
        let side = self.removals[0].side;
        self.eliminate(side, square, Counts::of(kind, 1), Cause::Removal, events);
        self.removals[0].left -= 1;
        self.strand_at_sea(square, events);
    }

    /// Settles what removals need no choice: a debt of nothing, or a side
    /// with no more pieces than it owes, removes all it has (P27); a single
    /// possible removal is taken for its side.
    pub(crate) fn settle_removals(&mut self, events: &mut Vec<Event>) {
        while let Some(&r) = self.removals.first() {
            if r.left == 0 || self.pieces_of(r.side) == 0 {
                self.removals.remove(0);
                continue;
            }
            let options = self.removal_orders();
            // P27: with no more pieces than he owes, every piece goes, one
            // forced removal after another; so does a single choice.
            let all_go = self.pieces_of(r.side) <= u32::from(r.left);
            if let (true, [Order::Remove { square, kind }, ..])
            | (_, [Order::Remove { square, kind }]) = (all_go, options.as_slice())
            {
                let (square, kind) = (*square, *kind);
                events.push(Event::Forced {
                    side: r.side,
                    order: options[0].clone(),
                });
                self.apply_removal(square, kind, events);
                continue;
            }
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    fn game(text: &str) -> CivilWar1863 {
        text.parse().unwrap()
    }

    #[test]
    fn p27_entering_an_empty_enemy_key_city_captures_it_once() {
        let board = crate::games::civil_war_1863::core::board::Board::standard();
        let city = board.key_cities(Side::Union).next().unwrap();
        let from = city
            .neighbours()
            .find(|&n| board.holds_land(n) && !board.holds_mountains(n) && !board.is_city(n))
            .unwrap();
        let mut g = game(&format!(
            "cw1863 1; south to move; U: A1 3I; C: {from} 1C / R18 1G"
        ));
        let events = g
            .apply(&g.parse_order(&format!("{from} 1C-{city}")).unwrap())
            .unwrap();
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::Captured { removals: 2, .. })));
        assert!(g.is_flagged(city));
        // A single square of one kind: the removals are taken for the North.
        assert_eq!(g.pieces_of(Side::Union), 1);
        assert!(g.removals().is_empty());
    }

    #[test]
    fn p30_capital_costs_six_and_five() {
        assert_eq!(capital_cost(Side::Union), 6);
        assert_eq!(capital_cost(Side::Confederacy), 5);
        assert_eq!(key_city_cost(Side::Union), 2);
        assert_eq!(key_city_cost(Side::Confederacy), 1);
    }

    #[test]
    fn p28_the_flag_stays_whoever_holds_the_city() {
        // The South captured Indianapolis (G5); the North retakes it.
        let mut g = game("cw1863 2; north to move; U: F5 1I / A1 1I; C: A18 1I; flags G5");
        let events = g.apply(&g.parse_order("F5 1I-G5").unwrap()).unwrap();
        assert!(!events.iter().any(|e| matches!(e, Event::Captured { .. })));
        assert!(g.is_flagged(Square::parse("G5").unwrap()));
    }

    #[test]
    fn p27_the_owner_chooses_his_removals() {
        let mut g = game("cw1863 1; south to move; U: A1 1I / A3 1C / A5 1G; C: F4 1C / R18 1G");
        g.apply(&g.parse_order("F4 1C-G5").unwrap()).unwrap();
        let options = g.legal_orders();
        assert_eq!(options.len(), 3);
        g.apply(&g.parse_order("REMOVE A3 C").unwrap()).unwrap();
        assert_eq!(
            g.apply(&g.parse_order("REMOVE A3 C").unwrap()),
            Err(Refusal::NoSuchRemoval {
                square: Square::parse("A3").unwrap(),
                kind: PieceKind::Cavalry
            })
        );
    }
}
