//! Orders held while their questions are answered (B148, B47): under
//! `CARDS ... ASK` (and `PATHS ... ASK` for a displaced commander), an order (or a draw of chance) that opens a window of
//! the enemy's moments is first tried on a copy. The first card question
//! no answer covers yet stops it: the game stays as it was, the order is
//! kept with the answers so far, and the owner of the cards is asked.
//! Each answer tries the order again from the same position, so the same
//! questions come in the same order, until none is left; the order is then
//! applied whole. Questions inside a combat result are B145's
//! (engine/asking.rs): the result is already under way there.

use crate::games::brothers_at_war::core::combat::{CardsRule, PathsRule, Reaction, Setting};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::order::Order;
use crate::games::brothers_at_war::core::question::{Answer, Held, Holding, Question, MAX_ANSWERS};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::scenario::model::Side;

use super::asking::question_forms;
use super::refusal::Refusal;

impl BrothersAtWar {
    /// Whether a player asked to be asked a question outside a combat
    /// result: which card to play (B148), where a displaced commander
    /// goes (B47), where a remnant goes (B110).
    pub(super) fn asks_held(&self) -> bool {
        self.now.instructions.given.iter().any(|(_, s)| {
            matches!(
                s,
                Setting::Cards(CardsRule::Ask) | Setting::Paths(PathsRule::Ask)
            )
        })
    }

    /// Whether a card question waits for its answer (B148): then only the
    /// cards it offers, or `PASS`, answer it.
    pub fn card_question_pending(&self) -> bool {
        self.now
            .reaction
            .as_ref()
            .is_some_and(|r| matches!(r.question, Some(Question::Card { .. })))
    }

    /// Whether an order is a standing instruction, given at any moment
    /// (B5) and never held.
    pub(super) fn is_standing(order: &Order) -> bool {
        matches!(
            order,
            Order::Instruct { .. } | Order::OpFire { .. } | Order::Eliminate(_)
        )
    }

    /// The answer to a card question (B148), if the position asks one:
    /// from a combat result under way (B145), or from the held order's
    /// answers; on a trial copy the first question without one is noted.
    /// `None`: no card is played.
    pub(super) fn ask_now(&mut self, side: Side, question: Question) -> Option<Answer> {
        if self.now.asking.probing || self.now.asking.resolving {
            return self.ask(side, question);
        }
        let h = &mut self.now.holding;
        if !h.probing && !h.resolving {
            return None;
        }
        if let Some(a) = h.answers.get(h.cursor).cloned() {
            h.cursor += 1;
            return Some(a);
        }
        if h.probing && h.found.is_none() {
            h.found = Some((side, question));
        }
        None
    }

    /// Applies `order` from this position with the `answers` given so far
    /// to the questions it raises (B148): tried on a copy first; the first
    /// unanswered question holds it (the game is unchanged but for the
    /// question), else it is applied.
    pub(super) fn apply_holding(
        &mut self,
        order: Order,
        answers: Vec<Answer>,
        reaction: Option<Reaction>,
    ) -> Result<Vec<Event>, Refusal> {
        let mut base = self.clone();
        base.now.held = None;
        base.now.reaction = reaction.clone();
        let mut trial = base.clone();
        trial.now.holding = Holding {
            probing: true,
            answers: answers.clone(),
            ..Holding::default()
        };
        let mut ignored = Vec::new();
        trial.dispatch(&order, &mut ignored)?;
        trial.advance(&mut ignored);
        // A bounded number of answers (never reached by the rules: one
        // question per window, a few windows an order); past it no card.
        if let Some((side, question)) = trial.now.holding.found.take() {
            if answers.len() < MAX_ANSWERS {
                self.now.held = Some(Box::new(Held {
                    order,
                    answers,
                    reaction,
                }));
                self.now.reaction = Some(Reaction {
                    side,
                    choices: Vec::new(),
                    paths: Vec::new(),
                    question: Some(question),
                });
                return Ok(Vec::new());
            }
        }
        base.now.holding = Holding {
            resolving: true,
            answers,
            ..Holding::default()
        };
        let mut events = Vec::new();
        base.dispatch(&order, &mut events)?;
        base.advance(&mut events);
        base.now.holding = Holding::default();
        *self = base;
        Ok(events)
    }

    /// The answer to the question of a held order (B148): `PLAY n` for a
    /// card offered, or `PASS`; the order is then tried again.
    pub(super) fn answer_held(&mut self, order: &Order) -> Result<Vec<Event>, Refusal> {
        let Some(held) = self.now.held.clone() else {
            return Err(Refusal::NotNow {
                expected: "an order".into(),
            });
        };
        let question = self.now.reaction.as_ref().and_then(|r| r.question.clone());
        let Some(question) = question else {
            return Err(Refusal::NotNow {
                expected: "an order".into(),
            });
        };
        let answer = held_answer(&question, order)?;
        let Held {
            order,
            mut answers,
            reaction,
        } = *held;
        answers.push(answer);
        self.apply_holding(order, answers, reaction)
    }
}

/// What an order answers to a card question (B148) or a displaced
/// commander's (B47).
pub(super) fn held_answer(question: &Question, order: &Order) -> Result<Answer, Refusal> {
    match (question, order) {
        (_, Order::Pass(None)) => Ok(Answer::Default),
        (Question::Remnant { hexes, .. }, Order::Remnant(h)) => {
            if hexes.contains(h) {
                Ok(Answer::Place(*h))
            } else {
                Err(Refusal::RemnantHex(*h))
            }
        }
        (Question::Commander { hexes, .. }, Order::Commander(Some(h))) => {
            if hexes.contains(h) {
                Ok(Answer::Place(*h))
            } else {
                Err(Refusal::CommanderHex(*h))
            }
        }
        (Question::Card { cards, .. }, Order::Play { card, on: None }) if cards.contains(card) => {
            Ok(Answer::Play(*card))
        }
        (Question::Card { cards, .. }, Order::Play { card, .. }) => Err(Refusal::CardNotOffered {
            card: *card,
            offered: cards.clone(),
        }),
        _ => Err(Refusal::NotNow {
            expected: question_forms(question).to_string(),
        }),
    }
}
