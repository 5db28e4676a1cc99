//! Applying an order: it is checked against the decision the game waits
//! for and the rules of its kind, then carried out and resolved as far as
//! it goes without a player's choice (P7): battles, survivors, captures,
//! removals and the end of the game.

use crate::games::civil_war_1863::core::event::Event;
use crate::games::civil_war_1863::core::flow::{DecisionKind, Stage};
use crate::games::civil_war_1863::core::order::Order;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::refusal::Refusal;

impl CivilWar1863 {
    /// The decision the game waits for, or `None` when it is over or waits
    /// for the coin.
    pub fn decision(
        &self,
    ) -> Option<(crate::games::civil_war_1863::core::side::Side, DecisionKind)> {
        if self.outcome.is_some() {
            return None;
        }
        if let Some(b) = self.battle {
            return match b.stage {
                Stage::Losses => Some((b.attacker, DecisionKind::Losses)),
                Stage::Coin => None,
                Stage::Keep { attacker } => Some((
                    if attacker {
                        b.attacker
                    } else {
                        b.attacker.opponent()
                    },
                    DecisionKind::Keep { attacker },
                )),
                Stage::Survivors => Some((b.attacker.opponent(), DecisionKind::Survivors)),
            };
        }
        if let Some(r) = self.removals.first() {
            return Some((
                r.side,
                DecisionKind::Remove {
                    own_turn: r.side == self.to_move,
                },
            ));
        }
        Some((
            self.to_move,
            DecisionKind::Turn {
                part: self.orders.saturating_add(1),
            },
        ))
    }

    /// Whether the order answers the decision the game waits for and obeys
    /// the rules.
    pub fn check(&self, order: &Order) -> Result<(), Refusal> {
        if self.outcome.is_some() {
            return Err(Refusal::GameOver);
        }
        let waiting = self.decision();
        let expected = match waiting {
            Some((_, kind)) => kind,
            None => {
                return match order {
                    Order::Toss { .. } => Ok(()),
                    _ => Err(Refusal::WaitingForCoin),
                }
            }
        };
        let not_now = Err(Refusal::NotNow { expected });
        match (expected, order) {
            (DecisionKind::Turn { .. }, Order::Move { from, pieces, path }) => {
                self.check_move(*from, *pieces, path)
            }
            (DecisionKind::Turn { .. }, Order::Ride { from, pieces, path }) => {
                self.check_ride(*from, *pieces, path)
            }
            (DecisionKind::Turn { .. }, Order::Fortify(at)) => self.check_fortify(*at),
            (DecisionKind::Turn { .. }, Order::Unfortify(at)) => self.check_unfortify(*at),
            (DecisionKind::Turn { .. }, Order::EndTurn) => {
                if self.orders == 0 && self.can_act() {
                    Err(Refusal::MustAct)
                } else {
                    Ok(())
                }
            }
            (DecisionKind::Losses, Order::Losses { take, enemy, own }) => {
                self.check_losses(*take, *enemy, *own)
            }
            (DecisionKind::Survivors, Order::Survivors { pieces, path }) => {
                self.check_survivors(*pieces, path)
            }
            (DecisionKind::Survivors, Order::Ride { .. }) => Err(Refusal::SurvivorsRide),
            (DecisionKind::Keep { .. }, Order::Keep(kind)) => {
                if self.keep_orders().contains(order) {
                    Ok(())
                } else {
                    Err(Refusal::NoSuchKeep { kind: *kind })
                }
            }
            (DecisionKind::Remove { .. }, Order::Remove { square, kind }) => {
                self.check_removal(*square, *kind)
            }
            _ => not_now,
        }
    }

    /// Applies an order, or refuses it and leaves the game unchanged.
    pub fn play(&mut self, order: &Order) -> Result<Vec<Event>, Refusal> {
        self.check(order)?;
        let mut events = Vec::new();
        self.carry_out(order, &mut events);
        self.settle(&mut events);
        Ok(events)
    }

    /// Applies an order taken from [`legal`](Self::legal) for this very
    /// position without checking it again, its events appended to
    /// `events`: for a search that plays thousands of listed orders. An
    /// order not so taken may leave the game in a state the rules forbid.
    pub fn apply_listed(&mut self, order: &Order, events: &mut Vec<Event>) {
        self.carry_out(order, events);
        self.settle(events);
    }

    fn carry_out(&mut self, order: &Order, events: &mut Vec<Event>) {
        match order {
            Order::Move { from, pieces, path } | Order::Ride { from, pieces, path } => {
                let (from, pieces) = (*from, *pieces);
                let to = *path.last().expect("checked: a path");
                let side = self.to_move;
                self.orders = self.orders.saturating_add(1);
                let hostile = self.hostile_to(side, to);
                self.lift(from, pieces);
                if hostile {
                    self.start_battle(from, to, pieces, events);
                } else {
                    self.set_down(side, pieces, to);
                    events.push(Event::Moved {
                        side,
                        pieces,
                        from,
                        to,
                    });
                    self.entered(side, to, events);
                }
            }
            Order::Fortify(at) => self.apply_fortify(*at, true, events),
            Order::Unfortify(at) => self.apply_fortify(*at, false, events),
            Order::EndTurn => self.end_turn(events),
            Order::Losses { enemy, own, .. } => self.apply_losses(*enemy, *own, events),
            Order::Survivors { pieces, path } => self.apply_survivors(*pieces, path, events),
            Order::Keep(kind) => self.apply_keep(*kind, events),
            Order::Remove { square, kind } => self.apply_removal(*square, *kind, events),
            Order::Toss { heads } => self.apply_toss(*heads, events),
        }
    }

    /// Takes a decision inside the battle that has one legal choice, telling
    /// both players (P20, P22).
    pub(crate) fn force_single(&mut self, events: &mut Vec<Event>) {
        loop {
            let Some((side, kind)) = self.decision() else {
                return;
            };
            if matches!(
                kind,
                DecisionKind::Turn { .. } | DecisionKind::Remove { .. }
            ) {
                return;
            }
            let options = self.legal();
            let [only] = options.as_slice() else { return };
            let only = only.clone();
            events.push(Event::Forced {
                side,
                order: only.clone(),
            });
            self.carry_out(&only, events);
        }
    }

    /// Resolves what needs no choice once an order is carried out: forced
    /// decisions, removals, and the end of the game (P34, P35).
    fn settle(&mut self, events: &mut Vec<Event>) {
        self.force_single(events);
        if self.battle.is_some() {
            return;
        }
        self.settle_removals(events);
        if !self.removals.is_empty() {
            return;
        }
        if self.outcome.is_none() {
            self.check_end(events);
        }
    }
}
