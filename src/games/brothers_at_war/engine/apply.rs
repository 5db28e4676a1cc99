//! Applying an order to the pending decision or draw of chance, and what
//! is pending ([`Pending`]): the dispatch of every order to its rule.

use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::Setting;
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::ids::BrigadeId;
use crate::games::brothers_at_war::core::order::{Action, Order, PassDiscard};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Step};
use crate::games::brothers_at_war::scenario::model::Side;
use crate::games::Chance;

/// The most outcomes of a dice roll: 6^12 fits a `u32`.
pub const MAX_DICE: usize = crate::games::brothers_at_war::core::order::MAX_DICE;

/// What a pending draw of chance is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// A battle card for this side (11.2): outcomes are the cards left.
    Card(Side),
    /// Dice for the checks waiting: this many.
    Checks(usize),
    /// A marker from the cup (2.21): outcomes are the markers in it.
    Cup,
    /// Which side's free activation goes first, when both have as many
    /// (2.321, B13: one draw of two outcomes).
    FreeTie,
    /// Dice for the fire or assault under way: attack, save or assault
    /// dice (6.0, 6.6, 7.1).
    Fire(usize),
}

impl BrothersAtWar {
    /// The draw of chance the game waits for, if any.
    pub fn draw_pending(&self) -> Option<Draw> {
        // B148: the draw that opened a card window waits for the answer.
        if self.now.ended.is_some() || self.now.held.is_some() {
            return None;
        }
        if let Some(k) = self.fire_dice_pending() {
            return Some(Draw::Fire(k));
        }
        if let Some(&side) = self.now.draws.first() {
            if !self.now.deck.is_empty() {
                return Some(Draw::Card(side));
            }
        }
        if !self.now.checks.is_empty() {
            return Some(Draw::Checks(self.now.checks.len().min(MAX_DICE)));
        }
        match self.now.step {
            Step::Select => Some(Draw::Cup),
            Step::FreeTie => Some(Draw::FreeTie),
            _ => None,
        }
    }

    /// The pending draw as the seam words it.
    pub fn chance_pending(&self) -> Option<Chance> {
        Some(match self.draw_pending()? {
            Draw::Card(side) => {
                Chance::private(self.now.deck.len() as u32, "a battle card", side.seat())
            }
            Draw::Checks(k) => Chance::public(6u32.pow(k as u32), "dice for checks"),
            Draw::Cup => Chance::public(self.now.cup.len() as u32, "a marker from the cup"),
            Draw::FreeTie => Chance::public(2, "the side whose free activation is first"),
            Draw::Fire(k) => Chance::public(6u32.pow(k as u32), "dice for combat"),
        })
    }

    /// The order applying `outcome` of the pending draw.
    pub fn chance_order_of(&self, outcome: u32) -> Option<Order> {
        Some(match self.draw_pending()? {
            Draw::Card(_) => Order::Card(*self.now.deck.get(outcome as usize)?),
            Draw::Cup => Order::Draw(u16::try_from(outcome).ok()?.checked_add(1)?),
            Draw::Checks(k) => Order::Roll(dice(outcome, k)),
            Draw::FreeTie => Order::First(if outcome == 0 {
                Side::Union
            } else {
                Side::Confederacy
            }),
            Draw::Fire(k) => Order::Roll(dice(outcome, k)),
        })
    }

    /// The side whose decision is pending, with its step.
    pub fn decider(&self) -> Option<Side> {
        if self.now.ended.is_some() || self.draw_pending().is_some() {
            return None;
        }
        if let Some(r) = &self.now.reaction {
            return Some(r.side);
        }
        match self.now.step {
            Step::Commitment(side) | Step::EndDiscard(side) => Some(side),
            Step::Units(b) | Step::PassDiscard(b) | Step::Commander(b) => {
                Some(self.battle.brigade_side(b))
            }
            _ => None,
        }
    }

    /// Applies an order: its events, or why it is refused (the state is
    /// then unchanged).
    pub fn apply_order(&mut self, order: &Order) -> Result<Vec<Event>, Refusal> {
        // B148: an order waits for its card questions; instructions (B5)
        // are given at any moment and never wait.
        if self.now.held.is_some() && !Self::is_standing(order) {
            return self.answer_held(order);
        }
        if self.asks_held() && self.now.ended.is_none() && !Self::is_standing(order) {
            let reaction = self.now.reaction.clone();
            return self.apply_holding(order.clone(), Vec::new(), reaction);
        }
        let mut next = self.clone();
        let mut events = Vec::new();
        next.dispatch(order, &mut events)?;
        next.advance(&mut events);
        *self = next;
        Ok(events)
    }

    /// The side a standing instruction is for (B5), if `order` is one
    /// whose scope names a brigade or a side.
    pub fn standing_side(&self, order: &Order) -> Option<Side> {
        let scope = match order {
            Order::Instruct { scope, .. } => scope,
            Order::OpFire { brigade, .. } => brigade,
            // B104: a skirmisher is given up by its owner at any moment.
            Order::Eliminate(name) => return self.unit_named(name).map(|u| self.side_of(u)),
            _ => return None,
        };
        let upper = scope.to_ascii_uppercase();
        if let Some(side) = Side::BOTH.into_iter().find(|s| s.code() == upper) {
            return Some(side);
        }
        self.battle
            .brigade_named(scope)
            .map(|b| self.battle.brigade_side(b))
    }

    fn instruction_scope(&self, order: &Order) -> String {
        match order {
            Order::Instruct { scope, .. } => scope.clone(),
            Order::OpFire { brigade, .. } => brigade.clone(),
            Order::Eliminate(name) => name.clone(),
            _ => String::new(),
        }
    }

    fn instruct_order(&mut self, order: &Order, events: &mut Vec<Event>) -> Result<(), Refusal> {
        match order {
            Order::Instruct { scope, setting } => self.instruct(scope, *setting, events),
            Order::OpFire { brigade, rule } => {
                self.instruct(brigade, Setting::OpFire(*rule), events)
            }
            Order::Eliminate(name) => self.give_up_skirmisher(name, events),
            _ => Err(Refusal::NotNow {
                expected: "a standing instruction".into(),
            }),
        }
    }

    /// Applies a standing instruction of `side`'s (B5, B8) whatever
    /// decision is pending, and whoever's: the door for a player who
    /// writes instructions while the other decides.
    pub fn apply_standing(&mut self, side: Side, order: &Order) -> Result<Vec<Event>, Refusal> {
        if self.now.ended.is_some() {
            return Err(Refusal::GameOver);
        }
        if self.standing_side(order) != Some(side) {
            return Err(Refusal::NotYourInstruction(self.instruction_scope(order)));
        }
        let mut next = self.clone();
        let mut events = Vec::new();
        next.instruct_order(order, &mut events)?;
        *self = next;
        Ok(events)
    }

    pub(super) fn dispatch(
        &mut self,
        order: &Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        if self.now.ended.is_some() {
            return Err(Refusal::GameOver);
        }
        // B5: standing instructions may be given at any time, each player
        // for his own brigades only: a mail's orders are the decider's.
        if matches!(
            order,
            Order::Instruct { .. } | Order::OpFire { .. } | Order::Eliminate(_)
        ) {
            if let (Some(side), Some(d)) = (self.standing_side(order), self.decider()) {
                if d != side {
                    return Err(Refusal::NotYourInstruction(self.instruction_scope(order)));
                }
            }
            return self.instruct_order(order, events);
        }
        if let Some(draw) = self.draw_pending() {
            return self.apply_chance(draw, order, events);
        }
        if matches!(
            order,
            Order::Draw(_) | Order::Roll(_) | Order::Card(_) | Order::First(_)
        ) {
            return Err(Refusal::NotAnOutcome);
        }
        // 11.0, B124: a card is played in the windows its holder's own
        // decisions open, whatever the decision is.
        // B148: a card question is answered by one of the cards offered.
        if let (Order::Play { card, on }, false) = (order, self.card_question_pending()) {
            return self.play_card(*card, on.as_deref(), events);
        }
        if self.now.reaction.is_some() {
            return self.answer_reaction(order, events);
        }
        // B128: a unit that fired by a fire-then-assault card assaults next.
        if matches!(self.now.step, Step::Units(_)) && self.charge_due().is_some() {
            let (units, first) = match order {
                Order::Act { units, action } => (
                    units.iter().filter_map(|n| self.unit_named(n)).collect(),
                    match action {
                        Action::Move(path) => path.first().copied(),
                        _ => None,
                    },
                ),
                _ => (Vec::new(), None),
            };
            self.check_charge(&units, first)?;
        }
        match order {
            // 5.39, 6.7: a retreat names no unit: the whole stack under
            // fire retreats, as its owner answers or his RETREAT says.
            Order::Retreat(_) => {
                return Err(Refusal::OnlyWhenAsked {
                    what: "a retreat",
                    when: "by units under fire, as the answer to a question of the game \
                           (RETREAT, EVADE or PATHS ... ASK) or by your RETREAT instruction",
                    rule: "6.7",
                })
            }
            Order::Remnant(_) => {
                return Err(Refusal::OnlyWhenAsked {
                    what: "placing a remnant",
                    when: "as the answer to PATHS ... ASK, when a brigade breaks by its fate \
                           check and its units held more than one hex",
                    rule: "2.33",
                })
            }
            Order::SpendReserve => {
                return Err(Refusal::OnlyWhenAsked {
                    what: "spending a reserve",
                    when: "as a killing hit falls, as the answer to RESERVES ... ASK or by your \
                           RESERVES instruction",
                    rule: "8.11",
                })
            }
            _ => {}
        }
        let expected = |what: &str| Refusal::NotNow {
            expected: what.to_string(),
        };
        match (self.now.step.clone(), order) {
            (Step::Commitment(side), Order::Commit(name)) => {
                let b = self
                    .battle
                    .brigade_named(name)
                    .ok_or_else(|| Refusal::NoSuchBrigade(name.clone()))?;
                if self.battle.brigade_side(b) != side {
                    return Err(Refusal::NotYours(name.clone()));
                }
                if !self.uncommitted(side).contains(&b) {
                    return Err(Refusal::NotUncommitted(name.clone()));
                }
                self.now.brigades[b.index()].committing = true;
                events.push(Event::Committed {
                    brigade: self.brigade_name(b),
                });
                Ok(())
            }
            (Step::Commitment(side), Order::Ready) => {
                self.after_commitment(side);
                Ok(())
            }
            (Step::Commitment(_), _) => Err(expected("COMMIT brigade or READY")),
            // 2.33 b, B111: a fate check's move is move actions only.
            (Step::Units(_), Order::Act { .. } | Order::Pass(_))
                if self.now.activation.as_ref().is_some_and(|a| a.fate_move)
                    && !matches!(
                        order,
                        Order::Act {
                            action: Action::Move(_) | Action::Done,
                            ..
                        }
                    ) =>
            {
                Err(Refusal::FateMoveOnly)
            }
            (Step::Units(_), Order::Act { units, action }) => self.act(units, action, events),
            (Step::Units(b), Order::Pass(discard)) => {
                let a = self.now.activation.as_ref();
                if a.is_some_and(|a| !a.acted.is_empty() || a.group.is_some()) {
                    return Err(Refusal::PassAfterActing);
                }
                let side = self.battle.brigade_side(b);
                if let Some(PassDiscard::Card(n)) = discard {
                    if !self.now.hands[side.index()].contains(n) {
                        return Err(Refusal::NotInHand(*n));
                    }
                }
                self.now.pass_discard = *discard;
                events.push(Event::Passed {
                    brigade: self.brigade_name(b),
                });
                self.now.draws.push(self.battle.brigade_side(b));
                self.now.step = Step::PassDiscard(b);
                Ok(())
            }
            (Step::Units(b), Order::End) => self.end_units(b, events),
            // 3.23: a commander's move after the units means they are done.
            (Step::Units(b), Order::Commander(_))
                if self.battle.scenario.brigades[b.index()].commander.is_some() =>
            {
                self.end_units(b, events)?;
                self.dispatch(order, events)
            }
            (Step::Units(_), _) => Err(expected("a unit order, PASS or END UNITS")),
            (Step::Commander(b), Order::Commander(to)) => {
                if let (Some(_), Some(turn)) = (to, self.commander_away(b)) {
                    return Err(Refusal::CommanderAway(self.brigade_name(b), turn));
                }
                if let Some(h) = to {
                    if !self.commander_may_stand(*h, self.battle.brigade_side(b)) {
                        return Err(Refusal::CommanderHex(*h));
                    }
                    self.now.brigades[b.index()].commander = Some(*h);
                }
                events.push(Event::CommanderMoved {
                    brigade: self.brigade_name(b),
                    to: *to,
                });
                self.end_activation(b);
                Ok(())
            }
            // END UNITS asks for what is so: the mail goes on (3.22).
            (Step::Commander(b), Order::End) => {
                events.push(Event::UnitsDone {
                    brigade: self.brigade_name(b),
                });
                Ok(())
            }
            (Step::Commander(_), _) => Err(expected("COMMANDER hex or COMMANDER STAY")),
            (Step::PassDiscard(b), Order::Discard(card)) => {
                self.discard(self.battle.brigade_side(b), *card, events)?;
                self.now.step = Step::Commander(b);
                Ok(())
            }
            (Step::EndDiscard(side), Order::Discard(card)) => self.discard(side, *card, events),
            (Step::PassDiscard(_) | Step::EndDiscard(_), Order::Keep) => Err(Refusal::MustDiscard),
            (Step::PassDiscard(_) | Step::EndDiscard(_), _) => Err(expected("DISCARD card")),
            _ => Err(expected("nothing from a player")),
        }
    }

    /// The brigade is done with its units: on to its commander (3.22,
    /// 3.23), once the unit acting may end where it stands (5.32).
    fn end_units(&mut self, b: BrigadeId, events: &mut Vec<Event>) -> Result<(), Refusal> {
        if !self.group_may_end() {
            let u = self
                .now
                .activation
                .as_ref()
                .and_then(|a| a.group.as_ref())
                .map(|g| self.unit_name(g.units[0]))
                .unwrap_or_default();
            return Err(Refusal::ActiveCannotEnd(u));
        }
        self.end_group(true, events);
        self.now.step = Step::Commander(b);
        Ok(())
    }

    fn discard(&mut self, side: Side, card: u8, events: &mut Vec<Event>) -> Result<(), Refusal> {
        if !self.now.hands[side.index()].contains(&card) {
            return Err(Refusal::NotInHand(card));
        }
        self.discard_card(side, card, events);
        Ok(())
    }

    fn apply_chance(
        &mut self,
        draw: Draw,
        order: &Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        match (draw, order) {
            (Draw::Card(side), Order::Card(card)) => {
                let i = self
                    .now
                    .deck
                    .iter()
                    .position(|c| c == card)
                    .ok_or(Refusal::NotAnOutcome)?;
                self.now.deck.remove(i);
                self.now.draws.remove(0);
                self.now.hands[side.index()].push(*card);
                events.push(Event::CardDrawn { side, card: *card });
                self.card_drawn(side, *card, events);
                Ok(())
            }
            (Draw::Cup, Order::Draw(n)) => {
                let n = usize::from(*n);
                if n == 0 || n > self.now.cup.len() {
                    return Err(Refusal::NotAnOutcome);
                }
                self.draw_marker(n, events);
                Ok(())
            }
            (_, Order::Roll(dice)) if dice.iter().any(|d| !(1..=6).contains(d)) => {
                Err(Refusal::NotAnOutcome)
            }
            (Draw::Fire(k), Order::Roll(dice)) if dice.len() == k => {
                self.fire_roll(dice, events);
                Ok(())
            }
            (Draw::Checks(k), Order::Roll(dice)) if dice.len() == k => {
                let mut again = Vec::new();
                for &d in dice {
                    again.extend(self.resolve_check(d, events));
                }
                // B150: a check rolled again waits for its new die, before
                // the checks still to roll, once the others of its roll
                // are judged.
                for check in again.into_iter().rev() {
                    self.now.checks.insert(0, check);
                }
                Ok(())
            }
            (Draw::FreeTie, Order::First(side)) => {
                if !self.card_rerolls_tie(*side, events) {
                    self.order_free_activations(Some(*side));
                }
                Ok(())
            }
            _ => Err(Refusal::WaitingForChance),
        }
    }
}

/// `outcome` in base 6 as `k` dice, the first die the most significant.
pub fn dice(outcome: u32, k: usize) -> Vec<u8> {
    let mut out = vec![1u8; k];
    let mut rest = outcome;
    for d in out.iter_mut().rev() {
        *d = (rest % 6) as u8 + 1;
        rest /= 6;
    }
    out
}
