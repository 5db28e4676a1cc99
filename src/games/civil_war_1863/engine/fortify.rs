//! Fortification (P31-P33): the order that places a marker on a key city,
//! the order that lifts it, and what each does to the turn.

use crate::games::civil_war_1863::core::event::Event;
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::Fort;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::refusal::Refusal;

impl CivilWar1863 {
    /// Whether the side to move may fortify the city now (P23, P31).
    pub(crate) fn check_fortify(&self, at: Square) -> Result<(), Refusal> {
        if self.board.key_city_side(at).is_none() || self.board.capital(at).is_some() {
            return Err(Refusal::NotFortifiable { square: at });
        }
        let stack = self
            .stack(at)
            .filter(|s| s.side == self.to_move)
            .ok_or(Refusal::NoPieces { square: at })?;
        if stack.fort != Fort::None {
            return Err(Refusal::AlreadyFortified { square: at });
        }
        if stack.moved.ground() > 0 {
            return Err(Refusal::MovedInThisTurn { square: at });
        }
        if stack.unmoved.ground() == 0 {
            return Err(Refusal::NoTroopsToFortify { square: at });
        }
        if stack.disabled.ground() > 0 {
            return Err(Refusal::DisabledFortify { square: at });
        }
        if self.fort_markers_left() == 0 {
            return Err(Refusal::NoFortMarker);
        }
        Ok(())
    }

    /// Whether the side to move may lift the city's marker now (P33).
    pub(crate) fn check_unfortify(&self, at: Square) -> Result<(), Refusal> {
        match self.stack(at) {
            Some(s) if s.side == self.to_move && s.fort == Fort::Fortified => Ok(()),
            Some(s) if s.side == self.to_move && s.fort != Fort::None => {
                Err(Refusal::AlreadyFortified { square: at })
            }
            _ => Err(Refusal::NotFortified { square: at }),
        }
    }

    /// Places or lifts a marker: the order is the turn's required move
    /// (P8), and the city takes no other order this turn (P31, P33).
    pub(crate) fn apply_fortify(&mut self, at: Square, fortify: bool, events: &mut Vec<Event>) {
        if let Some(s) = self.stacks.get_mut(at) {
            s.fort = if fortify {
                Fort::FortifiedNow
            } else {
                Fort::UnfortifiedNow
            };
        }
        self.orders = self.orders.saturating_add(1);
        events.push(if fortify {
            Event::Fortified { at }
        } else {
            Event::Unfortified { at }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::civil_war_1863::core::side::Side;
    use crate::games::Game;

    fn atlanta() -> Square {
        crate::games::civil_war_1863::core::board::Board::standard()
            .city_named("Atlanta")
            .unwrap()
            .square
    }

    #[test]
    fn p31_troops_moved_in_this_turn_cannot_fortify() {
        let a = atlanta();
        let g: CivilWar1863 = format!("cw1863 1; south to move; U: A1 1I; C: {a} 1I m1I")
            .parse()
            .unwrap();
        assert_eq!(
            g.check_fortify(a),
            Err(Refusal::MovedInThisTurn { square: a })
        );
    }

    #[test]
    fn p32_fortified_troops_count_two_and_stay() {
        let a = atlanta();
        let mut g: CivilWar1863 = format!("cw1863 1; south to move; U: A1 1I; C: {a} 2I1G")
            .parse()
            .unwrap();
        g.apply(&Order::Fortify(a)).unwrap();
        assert_eq!(g.strength(a), 5);
        let n = a.neighbours().next().unwrap();
        assert_eq!(
            g.check_move(
                a,
                crate::games::civil_war_1863::core::stack::Counts::of(
                    crate::games::civil_war_1863::core::side::PieceKind::Infantry,
                    1
                ),
                &[n]
            ),
            Err(Refusal::LockedIn { square: a })
        );
        assert_eq!(g.to_move(), Side::Confederacy);
    }

    use crate::games::civil_war_1863::core::order::Order;

    #[test]
    fn p33_unfortifying_keeps_the_troops_in_for_the_turn() {
        let a = atlanta();
        let mut g: CivilWar1863 = format!("cw1863 1; south to move; U: A1 1I; C: {a} 2I F")
            .parse()
            .unwrap();
        assert_eq!(g.strength(a), 4);
        g.apply(&Order::Unfortify(a)).unwrap();
        assert_eq!(g.strength(a), 2);
        assert_eq!(g.fort_markers_left(), 6);
        let n = a.neighbours().next().unwrap();
        assert_eq!(
            g.check_move(
                a,
                crate::games::civil_war_1863::core::stack::Counts::of(
                    crate::games::civil_war_1863::core::side::PieceKind::Infantry,
                    1
                ),
                &[n]
            ),
            Err(Refusal::UnfortifiedThisTurn { square: a })
        );
        assert_eq!(
            g.check_fortify(a),
            Err(Refusal::AlreadyFortified { square: a })
        );
    }

    #[test]
    fn p48_a_move_may_pass_through_a_city_fortified_this_turn() {
        let a = atlanta();
        assert_eq!(a, Square::parse("I12").unwrap());
        let g: CivilWar1863 = "cw1863 1; south to move; orders 1; U: A1 1I; C: I12 2I F! / H12 1C"
            .parse()
            .unwrap();
        let cavalry = crate::games::civil_war_1863::core::stack::Counts::of(
            crate::games::civil_war_1863::core::side::PieceKind::Cavalry,
            1,
        );
        let (h12, j12) = (Square::parse("H12").unwrap(), Square::parse("J12").unwrap());
        assert_eq!(g.check_move(h12, cavalry, &[a, j12]), Ok(()));
        assert_eq!(
            g.check_move(h12, cavalry, &[a]),
            Err(Refusal::FortifiedThisTurn { square: a })
        );
    }
}
