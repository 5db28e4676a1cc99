//! The turn (P7-P9): the end of a turn, disabled pieces (P23), the turn
//! with no legal order (P8), and the end of the game (P34, P35).

use crate::games::civil_war_1863::core::event::Event;
use crate::games::civil_war_1863::core::flow::EndReason;
use crate::games::civil_war_1863::core::side::Side;
use crate::games::civil_war_1863::core::stack::{Counts, Fort};
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::{GameResult, Outcome, Seat};

impl CivilWar1863 {
    /// Ends the turn of the side to move (P7): its disabled markers go back
    /// (P23), this turn's fortification orders take effect (P31, P33), and
    /// every piece may move again. A side that then can give no order at
    /// all passes at once (P8), once: two such sides in a row wait for END.
    pub(crate) fn end_turn(&mut self, events: &mut Vec<Event>) {
        events.push(Event::TurnEnded { side: self.to_move });
        self.pass_turn();
        if self.outcome.is_none() && !self.can_act() {
            events.push(Event::TurnSkipped { side: self.to_move });
            self.pass_turn();
        }
    }

    fn pass_turn(&mut self) {
        let mover = self.to_move;
        for stack in self.stacks.iter_mut() {
            if stack.side == mover {
                stack.disabled = Counts::NONE;
                stack.fort = match stack.fort {
                    Fort::FortifiedNow => Fort::Fortified,
                    Fort::UnfortifiedNow => Fort::None,
                    f => f,
                };
            }
            stack.unmoved = stack.unmoved.plus(stack.moved);
            stack.moved = Counts::NONE;
        }
        self.to_move = mover.opponent();
        self.turn = self.turn.saturating_add(1);
        self.orders = 0;
    }

    /// Checks the end of the game once an order is fully resolved (P34,
    /// P35): no pieces on one side, or one each, or none at all.
    pub(crate) fn check_end(&mut self, events: &mut Vec<Event>) {
        // Both sides' pieces in one pass: this runs after every order.
        let (mut union, mut south) = (0, 0);
        for (_, s) in self.stacks() {
            match s.side {
                Side::Union => union += s.all().total(),
                Side::Confederacy => south += s.all().total(),
            }
        }
        let winner = match (union, south) {
            (0, 0) | (1, 1) => None,
            (0, _) => Some(Side::Confederacy),
            (_, 0) => Some(Side::Union),
            _ => return,
        };
        self.outcome = Some(match winner {
            Some(side) => Outcome {
                result: GameResult::Win(Seat::from(side)),
                reason: EndReason::AllEliminated,
            },
            None => Outcome {
                result: GameResult::Draw,
                reason: EndReason::Stalemate,
            },
        });
        events.push(Event::Ended { winner });
    }
}

#[cfg(test)]
mod tests {
    use crate::games::civil_war_1863::core::order::Order;
    use crate::games::civil_war_1863::core::side::Side;
    use crate::games::civil_war_1863::core::state::CivilWar1863;
    use crate::games::civil_war_1863::engine::refusal::Refusal;
    use crate::games::Game;

    #[test]
    fn p8_a_turn_needs_one_order_while_one_is_legal() {
        let mut g: CivilWar1863 = "cw1863 1; south to move; U: A1 2I; C: E14 2I"
            .parse()
            .unwrap();
        assert_eq!(g.apply(&Order::EndTurn), Err(Refusal::MustAct));
        g.apply(&g.parse_order("E14 1I-E15").unwrap()).unwrap();
        g.apply(&Order::EndTurn).unwrap();
        assert_eq!(g.to_move(), Side::Union);
    }

    #[test]
    fn p23_disabled_pieces_sit_out_their_next_turn_only() {
        let mut g: CivilWar1863 = "cw1863 1; south to move; U: F14 4I / A1 1C; C: E14 1C / R18 1G"
            .parse()
            .unwrap();
        g.apply(&g.parse_order("E14 1C-F14").unwrap()).unwrap();
        g.apply(&Order::EndTurn).unwrap();
        assert!(g
            .legal_orders()
            .iter()
            .all(|o| !o.to_string().starts_with("F14")));
        g.apply(&g.parse_order("A1 1C-A2").unwrap()).unwrap();
        g.apply(&Order::EndTurn).unwrap();
        assert!(!g
            .stack(crate::games::civil_war_1863::core::square::Square::parse("F14").unwrap())
            .unwrap()
            .has_disabled_marker());
    }

    #[test]
    fn p35_one_piece_each_is_a_stalemate() {
        let mut g: CivilWar1863 = "cw1863 1; south to move; U: F14 1I / A1 1C; C: E14 1I"
            .parse()
            .unwrap();
        g.apply(&g.parse_order("E14 1I-F14").unwrap()).unwrap();
        g.apply(&Order::Toss { heads: true }).unwrap();
        let outcome = g.outcome().expect("one piece each ends the game");
        assert_eq!(outcome.reason, EndReason::Stalemate);
    }

    use crate::games::civil_war_1863::core::flow::EndReason;

    #[test]
    fn p34_a_side_with_no_pieces_has_lost() {
        let mut g: CivilWar1863 = "cw1863 2; north to move; U: H15 2I / A1 1I; C: I15 1I"
            .parse()
            .unwrap();
        g.apply(&g.parse_order("H15 2I-I15").unwrap()).unwrap();
        let outcome = g.outcome().expect("the South has no piece");
        assert_eq!(outcome.reason, EndReason::AllEliminated);
        assert_eq!(
            outcome.result,
            crate::games::GameResult::Win(crate::games::Seat::North)
        );
    }
}
