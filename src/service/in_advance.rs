//! Answers given in advance (`IF ATTACKED AT B2C RETREAT B1R`, `IF STAND
//! OPTION 2`): kept per seat, played when their condition holds for the
//! decision pending, each once; those given "for the attack of this mail"
//! lapse when no attack follows.

use serde::Serialize;

use super::reply::Answer;
use super::texts::{self, sentence};
use super::work::Work;
use super::Result;
use crate::games::submission::submit;
use crate::games::{hosted, AnyGame, Happened, OrderWord, Seat};
use crate::store::{EntryKind, GameRow, SeatRow};

impl Work<'_> {
    /// Stores a seat's answers given in advance (`IF STAND OPTION 2`, `IF
    /// ATTACKED AT B2C RETREAT B1R`), each replacing an earlier one with the
    /// same condition.
    pub(super) fn give_answers_in_advance(
        &mut self,
        state: &dyn AnyGame,
        game: &GameRow,
        seat: &SeatRow,
        ifs: &[String],
    ) -> Result<Vec<String>> {
        let mut prepared = self.answers_of(game.id, seat.seat)?;
        let mut given = Vec::new();
        for line in ifs {
            let read = read_answer_in_advance(state, line).and_then(|answer| {
                match mistaken_word(state.name(), &answer.then) {
                    Some(why) => Err(why),
                    None => Ok(answer),
                }
            });
            match read {
                Ok(answer) => {
                    let kept = if answer.condition.standing {
                        texts::say("in_advance.kept_standing", ())
                    } else {
                        texts::say("in_advance.kept_for_the_attack", ())
                    };
                    self.item(
                        line,
                        Answer::Done(texts::say(
                            "in_advance.noted",
                            minijinja::context! {
                                condition => spoken(&answer.condition.text),
                                answer => answer.then,
                                kept => kept,
                            },
                        )),
                    );
                    prepared.retain(|p| p.condition.text != answer.condition.text);
                    given.push(answer.written.clone());
                    prepared.push(answer);
                }
                Err(why) => self.item(
                    line,
                    Answer::NotUnderstood(texts::say(
                        "mail.not_understood",
                        minijinja::context! { why => why },
                    )),
                ),
            }
        }
        // A bound on what one seat may keep waiting.
        const MOST: usize = 16;
        let keep = prepared.len().saturating_sub(MOST);
        prepared.drain(..keep);
        self.set_answers(game.id, seat.seat, &prepared)?;
        Ok(given)
    }

    /// The answers `seat` gave in advance in `game`.
    fn answers_of(&self, game: i64, seat: Seat) -> Result<Vec<AnswerInAdvance>> {
        Ok(serde_json::from_str(&self.tx.conditions(game, seat)?).unwrap_or_default())
    }

    /// Keeps `answers` as those `seat` gave in advance in `game`.
    fn set_answers(&self, game: i64, seat: Seat, answers: &[AnswerInAdvance]) -> Result<()> {
        let json = serde_json::to_string(answers).unwrap_or_else(|_| "[]".into());
        Ok(self.tx.set_conditions(game, seat, &json)?)
    }

    /// Plays every answer given in advance whose condition holds for the
    /// decision now pending, one after the other; each is used once. An
    /// answer that is not legal then is dropped and its writer told.
    pub(super) fn answer_in_advance(
        &mut self,
        state: &mut dyn AnyGame,
        game: &GameRow,
    ) -> Result<Vec<Happened>> {
        let mut happened = Vec::new();
        // Each answer is used once, so this ends; the bound is for safety.
        for _ in 0..8 {
            let Some(pending) = state.pending() else {
                break;
            };
            let mut answers = self.answers_of(game.id, pending.seat)?;
            let Some(i) = answers
                .iter()
                .position(|a| state.condition_holds(pending.seat, &a.condition))
            else {
                break;
            };
            let answer = answers.remove(i);
            self.set_answers(game.id, pending.seat, &answers)?;
            let mut r = submit(state, pending.seat, std::slice::from_ref(&answer.then));
            for t in &mut r.taken {
                t.line = answer.written.clone();
            }
            happened.extend(self.record_submission(game, pending.seat, &r, false)?);
            if !r.taken.is_empty() {
                // The record says the order was given in advance.
                let words = texts::say(
                    "in_advance.played",
                    minijinja::context! {
                        side => state.seat_name(pending.seat),
                        answer => answer.written,
                    },
                );
                self.tx.add_entry(
                    game.id,
                    EntryKind::Comment,
                    Some(pending.seat),
                    &words,
                    "",
                    None,
                    self.at,
                    &[],
                )?;
            }
            if let Some(refused) = &r.refused {
                let seat = self
                    .tx
                    .seats(game.id)?
                    .into_iter()
                    .find(|s| s.seat == pending.seat);
                if let Some(seat) = seat {
                    let text = texts::say(
                        "in_advance.not_played",
                        minijinja::context! {
                            answer => answer.written,
                            problem => sentence(&refused.problem),
                        },
                    );
                    let subject = texts::say(
                        "in_advance.not_played_subject",
                        minijinja::context! { game => game.id },
                    );
                    self.notify(game, seat.seat, &text, Some(subject), "answer-refused");
                }
                break;
            }
        }
        Ok(happened)
    }

    /// Drops the answers for "the attack of this mail" that this mail gave,
    /// when the mail made no attack, and says so.
    pub(super) fn forget_answers_given_now(
        &mut self,
        game: &GameRow,
        seat: &SeatRow,
        given_now: &[String],
    ) -> Result<()> {
        let answers = self.answers_of(game.id, seat.seat)?;
        let (gone, kept): (Vec<_>, Vec<_>) = answers
            .into_iter()
            .partition(|a| !a.condition.standing && given_now.contains(&a.written));
        if gone.is_empty() {
            return Ok(());
        }
        self.set_answers(game.id, seat.seat, &kept)?;
        for a in gone {
            self.item(
                &a.written,
                Answer::Refused(texts::say("in_advance.not_kept", ())),
            );
        }
        Ok(())
    }

    /// Drops the answers given "for the attack of this mail" once no attack
    /// is under way.
    pub(super) fn drop_answers_for_the_attack(&mut self, game: i64) -> Result<()> {
        for seat in Seat::BOTH {
            let answers = self.answers_of(game, seat)?;
            if answers.iter().any(|a| !a.condition.standing) {
                let kept: Vec<_> = answers
                    .into_iter()
                    .filter(|a| a.condition.standing)
                    .collect();
                self.set_answers(game, seat, &kept)?;
            }
        }
        Ok(())
    }

    /// `CANCEL IF [condition]`.
    pub(super) fn cancel_answers(
        &mut self,
        line: &str,
        words: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let answers = self.answers_of(game.id, seat.seat)?;
        let kept: Vec<AnswerInAdvance> = if words.trim().is_empty() {
            Vec::new()
        } else {
            let state = self.state(game)?;
            match state.read_condition(words) {
                Ok(c) => answers
                    .iter()
                    .filter(|a| a.condition.text != c.text)
                    .cloned()
                    .collect(),
                Err(why) => {
                    self.item(
                        line,
                        Answer::NotUnderstood(texts::say(
                            "mail.not_understood",
                            minijinja::context! { why => why },
                        )),
                    );
                    return Ok(());
                }
            }
        };
        let dropped = answers.len() - kept.len();
        self.set_answers(game.id, seat.seat, &kept)?;
        self.item(
            line,
            Answer::Done(texts::say(
                "in_advance.cancelled",
                minijinja::context! { dropped => dropped, left => kept.len() },
            )),
        );
        Ok(())
    }
}

/// An answer a player gave in advance: when `condition` holds for their
/// decision, `then` is their order.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub(super) struct AnswerInAdvance {
    pub(super) condition: crate::games::Condition,
    pub(super) then: String,
    /// As the record shows it: `IF ATTACKED AT B2C RETREAT B1R`.
    pub(super) written: String,
}

/// Splits a mail's order lines at `;` and sets the answers given in
/// advance (`IF ...`) apart from the orders.
pub(super) fn split_answers_in_advance(lines: &[String]) -> (Vec<String>, Vec<String>) {
    let mut orders = Vec::new();
    let mut ifs = Vec::new();
    for part in lines.iter().flat_map(|l| l.split(';')) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let first = part.split_whitespace().next().unwrap_or_default();
        if first.eq_ignore_ascii_case("IF") {
            ifs.push(part.to_string());
        } else {
            orders.push(part.to_string());
        }
    }
    (orders, ifs)
}

/// Reads `IF <condition> <answer>`: the longest beginning the game reads as
/// a condition, and the order after it.
/// A condition as said inside a sentence: its words in lower case, but a
/// square or pieces (`B2C`, `K3`, `OPTION 2`'s number) as written, so that
/// they read as on the board.
fn spoken(condition: &str) -> String {
    condition
        .split_whitespace()
        .map(|w| {
            if w.chars().any(|c| c.is_ascii_digit()) {
                w.to_string()
            } else {
                w.to_lowercase()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What is surely wrong with the answer `then` of an answer in advance,
/// if anything: a word that is a slip of an order word (`RETRAET` for
/// `RETREAT`) or shaped like a square none of the board's is (`B9Z`).
/// Only this is checked when the answer is noted: whether it is legal
/// depends on the position when its moment comes, but a misspelt answer
/// would never play, and its writer would learn that only then.
fn mistaken_word(game: &str, then: &str) -> Option<String> {
    let hosted = hosted::find(game)?;
    then.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_uppercase)
        .find_map(|word| match (hosted.order_word)(&word) {
            OrderWord::CodeLike => Some(texts::say(
                "in_advance.no_such_square",
                minijinja::context! { word => word },
            )),
            OrderWord::Other => (hosted.slip_of)(&word).map(|meant| {
                texts::say(
                    "in_advance.slip",
                    minijinja::context! { word => word, meant => meant },
                )
            }),
            _ => None,
        })
}

fn read_answer_in_advance(
    state: &dyn AnyGame,
    line: &str,
) -> std::result::Result<AnswerInAdvance, String> {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut found = None;
    let mut why = texts::say("in_advance.how", ());
    let mut longer = Vec::new();
    for k in 1..words.len() {
        match state.read_condition(&words[..k].join(" ")) {
            Ok(c) => found = Some((c, k)),
            Err(e) if found.is_none() => why = e,
            Err(e) => longer.push(e),
        }
    }
    // `IF ATTACKED AT B9Z ...`: the condition goes on past what was read,
    // so what is wrong is in the longer condition.
    if let Some((_, k)) = &found {
        let next = words
            .get(*k)
            .map(|w| w.to_ascii_uppercase())
            .unwrap_or_default();
        if matches!(next.as_str(), "AT" | "IN" | "ON") {
            return Err(longer.pop().unwrap_or(why));
        }
    }
    match found.map(|(c, k)| (c, words[k..].join(" "))) {
        Some((condition, then)) => Ok(AnswerInAdvance {
            written: format!("IF {} {then}", condition.text),
            condition,
            then,
        }),
        None => Err(why),
    }
}

#[cfg(test)]
mod tests {
    use super::{mistaken_word, spoken};
    use crate::games::civil_war_1863::CivilWar1863;
    use crate::games::squares::Squares;
    use crate::games::Game;

    #[test]
    fn an_answer_with_a_misspelt_word_or_no_square_is_caught_when_given() {
        let squares = Squares::NAME;
        for fine in ["RETREAT B1R", "stand", "OPTION 3", "retreat b1r please"] {
            assert_eq!(mistaken_word(squares, fine), None, "{fine}");
        }
        let slip = mistaken_word(squares, "retraet b1r").unwrap();
        assert!(slip.contains("\"RETRAET\""), "{slip}");
        assert!(slip.contains("did you mean RETREAT?"), "{slip}");
        let square = mistaken_word(squares, "retreat b9z").unwrap();
        assert!(square.contains("\"B9Z\""), "{square}");
        let cw = CivilWar1863::NAME;
        for fine in [
            "REMOVE K3 I",
            "SURVIVORS 1G-R8",
            "E14 1I-E15",
            "take 2 kill 2i lose 1c",
        ] {
            assert_eq!(mistaken_word(cw, fine), None, "{fine}");
        }
        assert!(mistaken_word(cw, "REMVOE K3 I").is_some());
    }

    #[test]
    fn a_condition_is_said_in_lower_case_with_its_squares_as_on_the_board() {
        assert_eq!(spoken("ATTACKED AT B2C"), "attacked at B2C");
        assert_eq!(spoken("CITY LOST"), "city lost");
        assert_eq!(spoken("ATTACKED  AT K3"), "attacked at K3");
    }
}
