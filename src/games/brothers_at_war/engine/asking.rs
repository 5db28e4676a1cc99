//! Questions in the middle of a combat result (B7, B145): `LOSSES`,
//! `RESERVES` and `PATHS ... ASK`.
//!
//! A result (the hits, retreats and reserves after a fire's or an
//! assault's dice) is first applied to a copy. The first choice that an
//! `ASK` instruction leaves open and no answer covers yet stops it: the
//! owner is asked, and his answer is kept. Once a copy meets no open
//! question, the result is applied to the game with the answers in the
//! order they were given. The result is thus never half applied while a
//! player thinks, and an answer always meets the question it was given
//! to, because the same position asks the same questions in the same
//! order.

use crate::games::brothers_at_war::core::combat::{
    CardsRule, LossesRule, PathsRule, Reaction, ReservesRule, Setting, Stage,
};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::order::Order;
use crate::games::brothers_at_war::core::question::{Answer, Asking, Question, MAX_ANSWERS};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::scenario::model::Side;

use super::refusal::Refusal;
use super::retreat::RetreatPlan;

impl BrothersAtWar {
    /// Whether any player asked to be asked a combat result's questions.
    fn asks_anything(&self) -> bool {
        self.now.instructions.given.iter().any(|(_, s)| {
            matches!(
                s,
                Setting::Losses(LossesRule::Ask)
                    | Setting::Reserves(ReservesRule::Ask)
                    | Setting::Paths(PathsRule::Ask)
                    | Setting::Cards(CardsRule::Ask)
            )
        })
    }

    /// The answer given to `question`, if one was; on a trial copy the
    /// first question without one is noted. `None`: the setting's default
    /// decides (B6).
    pub(super) fn ask(&mut self, side: Side, question: Question) -> Option<Answer> {
        let asking = &mut self.now.asking;
        if !asking.probing && !asking.resolving {
            return None;
        }
        if let Some(a) = self.now.answers.get(asking.cursor).cloned() {
            asking.cursor += 1;
            return Some(a);
        }
        if asking.probing && asking.found.is_none() {
            asking.found = Some((side, question));
        }
        None
    }

    /// Applies a combat result that may ask questions (B145): tried on a
    /// copy first; returns the first question no answer covers (the game
    /// is then unchanged), or applies it with the answers given.
    pub(super) fn resolve_asking(
        &mut self,
        events: &mut Vec<Event>,
        result: impl Fn(&mut BrothersAtWar, &mut Vec<Event>),
    ) -> Option<(Side, Question)> {
        if self.now.asking.probing || self.now.asking.resolving || !self.asks_anything() {
            result(self, events);
            return None;
        }
        let mut trial = self.clone();
        trial.now.asking = Asking {
            probing: true,
            ..Asking::default()
        };
        result(&mut trial, &mut Vec::new());
        // A result asks at most a bounded number of questions; past it the
        // defaults decide (never reached by the rules: two units, a few
        // hits a side).
        if let Some(found) = trial.now.asking.found {
            if self.now.answers.len() < MAX_ANSWERS {
                return Some(found);
            }
        }
        self.now.asking = Asking {
            resolving: true,
            ..Asking::default()
        };
        result(self, events);
        self.now.asking = Asking::default();
        self.now.answers.clear();
        None
    }

    /// Asks `question` of `side`, the fire or assault under way waiting.
    pub(super) fn pose(&mut self, side: Side, question: Question) {
        self.now.reaction = Some(Reaction {
            side,
            choices: Vec::new(),
            paths: Vec::new(),
            question: Some(question),
        });
    }

    /// The answer to a question of a combat result (B145): `LOSE unit`,
    /// `SPEND RESERVE` or `KEEP`, `RETREAT hex hex`, or `PASS` for what
    /// the setting's default would do (B7). The result then goes on.
    pub(super) fn answer_question(
        &mut self,
        question: &Question,
        order: &Order,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let answer = match (question, order) {
            (_, Order::Pass(None)) => Answer::Default,
            (Question::Loss { units }, Order::Lose(name)) => {
                let unit = self
                    .unit_named(name)
                    .filter(|u| units.contains(u))
                    .ok_or_else(|| Refusal::NotInStack(name.clone()))?;
                Answer::Lose(unit)
            }
            (Question::Card { .. }, Order::Play { .. })
            | (Question::Commander { .. }, Order::Commander(_))
            | (Question::Remnant { .. }, Order::Remnant(_)) => {
                super::holding::held_answer(question, order)?
            }
            (Question::Reserve { .. }, Order::SpendReserve) => Answer::Spend(true),
            (Question::Reserve { .. }, Order::Keep) => Answer::Spend(false),
            (Question::Path { paths, units }, Order::Retreat(path)) => {
                if !paths.contains(path) {
                    let long = paths.first().is_some_and(|p| p.len() > 2);
                    return Err(self.path_refusal(units, path, long));
                }
                Answer::Path(path.clone())
            }
            _ => {
                return Err(Refusal::NotNow {
                    expected: question_forms(question).to_string(),
                })
            }
        };
        self.now.reaction = None;
        self.now.answers.push(answer);
        if let Some(f) = self.now.fire.take() {
            self.conclude_fire(f, events);
        } else if let Some(mut a) = self.now.assault.take() {
            a.asking = false;
            self.settled_assault(a, events);
        }
        Ok(())
    }

    /// The unit of a Disrupted stack lost to a killing hit (6.54): the
    /// owner's answer if he is asked (`LOSSES ... ASK`), else by the
    /// setting (B83).
    pub(super) fn choose_loss(&mut self, units: &[UnitId]) -> UnitId {
        let first = units[0];
        let rule = self.now.instructions.get(
            self.side_of(first),
            self.brigade_of(first),
            Setting::Losses(LossesRule::Weakest),
        );
        if rule == Setting::Losses(LossesRule::Ask) && units.len() > 1 {
            let question = Question::Loss {
                units: units.to_vec(),
            };
            if let Some(Answer::Lose(u)) = self.ask(self.side_of(first), question) {
                if units.contains(&u) {
                    return u;
                }
            }
        }
        self.loss(units)
    }

    /// The retreat path these units take (6.7): the owner's answer if he
    /// is asked (`PATHS ... ASK`) and more than one path is legal, else
    /// B92's choice. `None` when they cannot retreat.
    pub(super) fn chosen_retreat(&mut self, units: &[UnitId], long: bool) -> Option<RetreatPlan> {
        let first = *units.first()?;
        let side = self.side_of(first);
        let rule = self.now.instructions.get(
            side,
            self.brigade_of(first),
            Setting::Paths(PathsRule::Auto),
        );
        if rule == Setting::Paths(PathsRule::Ask) {
            if let Some((paths, short)) = self.legal_retreats(units, long) {
                if paths.len() > 1 {
                    let question = Question::Path {
                        units: units.to_vec(),
                        paths: paths.clone(),
                    };
                    if let Some(Answer::Path(path)) = self.ask(side, question) {
                        if paths.contains(&path) {
                            return Some(RetreatPlan { path, short });
                        }
                    }
                }
            }
        }
        self.retreat_plan(units, long)
    }

    /// Marks the fire under way as waiting for an answer (B145).
    pub(super) fn wait_fire_answer(
        &mut self,
        mut f: crate::games::brothers_at_war::core::combat::FireAttack,
        side: Side,
        question: Question,
    ) {
        f.stage = Stage::Asked;
        self.now.fire = Some(f);
        self.pose(side, question);
    }
}

/// The answers a question takes, in words.
pub fn question_forms(question: &Question) -> &'static str {
    match question {
        Question::Loss { .. } => "LOSE unit (one of the stack), or PASS",
        Question::Reserve { .. } => "SPEND RESERVE, KEEP, or PASS",
        Question::Path { .. } => "RETREAT along a path offered, or PASS",
        Question::Commander { .. } => "COMMANDER hex (a hex he may stand on), or PASS",
        Question::Remnant { .. } => "REMNANT and one of the hexes offered, or PASS",
        Question::Card { .. } => "PLAY one of the cards offered, or PASS (no card)",
    }
}
