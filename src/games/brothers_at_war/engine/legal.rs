//! Every legal order of the pending decision (moves as single steps),
//! found by trying each candidate on a copy: a listed order always
//! applies.

use std::collections::HashSet;

use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::order::{Action, Order, PassDiscard};
use crate::games::brothers_at_war::core::question::Question;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use crate::games::brothers_at_war::scenario::model::UnitKind;

impl BrothersAtWar {
    /// Every legal order of the pending decision; empty while chance is
    /// pending or the battle is over.
    pub fn legal(&self) -> Vec<Order> {
        if self.decider().is_none() {
            return Vec::new();
        }
        // Each order once: a unit of a stack is a candidate both alone and
        // as the stack's member (`19IN FORM`, 5.34).
        let mut seen = HashSet::new();
        let mut all: Vec<Order> = self
            .candidates()
            .into_iter()
            .filter(|o| seen.insert(o.clone()))
            .filter(|o| self.clone().apply_order(o).is_ok())
            .collect();
        // 11.0, B124: the cards the decider may play now, in any decision;
        // a play its check passes always applies (the property tests
        // apply every listed order), so no copy is tried.
        all.extend(
            self.card_candidates()
                .into_iter()
                .map(|(card, on)| Order::Play { card, on }),
        );
        all
    }

    fn candidates(&self) -> Vec<Order> {
        if let Some(r) = &self.now.reaction {
            let mut v = vec![Order::Pass(None)];
            match &r.question {
                Some(Question::Loss { units }) => {
                    v.extend(units.iter().map(|&u| Order::Lose(self.unit_name(u))));
                }
                Some(Question::Reserve { .. }) => v.extend([Order::SpendReserve, Order::Keep]),
                Some(Question::Path { paths, .. }) => {
                    v.extend(paths.iter().map(|p| Order::Retreat(p.clone())));
                }
                Some(Question::Commander { hexes, .. }) => {
                    v.extend(hexes.iter().map(|&h| Order::Commander(Some(h))));
                }
                Some(Question::Remnant { hexes, .. }) => {
                    v.extend(hexes.iter().map(|&h| Order::Remnant(h)));
                }
                Some(Question::Card { cards, .. }) => {
                    v.extend(cards.iter().map(|&card| Order::Play { card, on: None }));
                }
                None => {}
            }
            v.extend(r.paths.iter().map(|p| Order::Retreat(p.clone())));
            v.extend(
                r.choices
                    .iter()
                    .map(|f| self.order_for(&f.firers, Action::Fire(f.target))),
            );
            return v;
        }
        match self.now.step {
            Step::Commitment(side) => {
                let mut v: Vec<Order> = self
                    .uncommitted(side)
                    .into_iter()
                    .map(|b| Order::Commit(self.brigade_name(b)))
                    .collect();
                v.push(Order::Ready);
                v
            }
            Step::Units(_) => self.unit_candidates(),
            Step::Commander(_) => {
                let mut v = vec![Order::Commander(None)];
                v.extend(self.battle.map.hexes().map(|h| Order::Commander(Some(h))));
                v
            }
            Step::PassDiscard(b) => {
                let side = self.battle.brigade_side(b);
                self.now.hands[side.index()]
                    .iter()
                    .map(|&c| Order::Discard(c))
                    .collect()
            }
            Step::EndDiscard(side) => self.now.hands[side.index()]
                .iter()
                .map(|&c| Order::Discard(c))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// 9.43: the enemy off-board batteries, as targets worth trying.
    fn battery_targets(&self, units: &[UnitId], out: &mut Vec<Order>) {
        let enemy = self.side_of(units[0]).other();
        for b in self.unit_ids() {
            if self.side_of(b) == enemy && self.battery_card(b).is_some() {
                out.push(self.order_for(units, Action::FireAtBattery(self.unit_name(b))));
            }
        }
    }

    fn order_for(&self, units: &[UnitId], action: Action) -> Order {
        Order::Act {
            units: units.iter().map(|&u| self.unit_name(u)).collect(),
            action,
        }
    }

    /// The actions worth listing for a unit or stack.
    fn actions_of(&self, units: &[UnitId], active: bool, out: &mut Vec<Order>) {
        let steps: Vec<_> = match self.hex_of(units[0]) {
            Some(h) => self.battle.map.neighbours(h).collect(),
            None => self.entry_hexes(units),
        };
        for to in steps {
            out.push(self.order_for(units, Action::Move(vec![to])));
        }
        out.push(self.order_for(units, Action::Form));
        if units.len() == 2 {
            for &u in units {
                out.push(self.order_for(&[u], Action::Form));
            }
        }
        out.push(self.order_for(units, Action::Hold));
        for target in self.fire_targets(units) {
            out.push(self.order_for(units, Action::Fire(target)));
        }
        self.battery_targets(units, out);
        if active {
            out.push(self.order_for(units, Action::Done));
            if units.len() == 2 {
                for &u in units {
                    out.push(self.order_for(&[u], Action::Done));
                }
            }
        }
        out.push(self.order_for(units, Action::Exit));
        if let [u] = units {
            if self.kind_of(*u) == UnitKind::Skirmisher {
                out.push(self.order_for(units, Action::Disband));
            }
            if matches!(self.kind_of(*u), UnitKind::Infantry | UnitKind::Cavalry) {
                let brigade = self.brigade_of(*u);
                for sk in self.unit_ids() {
                    if self.kind_of(sk) == UnitKind::Skirmisher
                        && self.brigade_of(sk) == brigade
                        && self.unit(sk).place == Place::Display
                    {
                        for mounted in [false, true] {
                            out.push(self.order_for(
                                units,
                                Action::Deploy {
                                    skirmisher: self.unit_name(sk),
                                    mounted,
                                },
                            ));
                        }
                    }
                }
            }
        }
    }

    fn unit_candidates(&self) -> Vec<Order> {
        let Some(a) = self.now.activation.as_ref() else {
            return Vec::new();
        };
        let side = self.battle.brigade_side(a.brigade);
        let mut out = vec![
            Order::Pass(None),
            Order::Pass(Some(PassDiscard::New)),
            Order::End,
        ];
        out.extend(
            self.now.hands[side.index()]
                .iter()
                .map(|&c| Order::Pass(Some(PassDiscard::Card(c)))),
        );
        if let Some(g) = &a.group {
            self.actions_of(&g.units, true, &mut out);
        }
        // 9.4: off-board batteries only fire.
        for u in self.units_of_brigade(a.brigade) {
            if self.unit(u).place == Place::OffBoard && !a.acted.contains(&u) {
                for target in self.fire_targets(&[u]) {
                    out.push(self.order_for(&[u], Action::Fire(target)));
                }
                self.battery_targets(&[u], &mut out);
            }
        }
        // 9.19 b: an independent skirmisher next to the commander.
        if let Some(c) = self.brigade(a.brigade).commander {
            for u in self.units_of_brigade(a.brigade) {
                if self.independent(u) && self.unit(u).place == Place::Display {
                    for to in self.battle.map.neighbours(c) {
                        out.push(self.order_for(&[u], Action::Move(vec![to])));
                    }
                }
            }
        }
        let ready: Vec<UnitId> = self
            .units_of_brigade(a.brigade)
            .into_iter()
            .filter(|u| {
                !a.acted.contains(u)
                    && !self.unit(*u).finished
                    && matches!(self.unit(*u).place, Place::Map(_) | Place::Waiting)
            })
            .collect();
        for (i, &u) in ready.iter().enumerate() {
            self.actions_of(&[u], false, &mut out);
            for &v in &ready[i + 1..] {
                if self.unit(u).place == self.unit(v).place {
                    self.actions_of(&[u, v], false, &mut out);
                }
            }
        }
        out
    }
}
