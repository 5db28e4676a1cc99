//! Checking a record's draws of chance (docs/dice.md): the revealed seed
//! must open the commitment, and every draw must be the one the seed and
//! the draw's public inputs give, where the game waited for it.

use crate::games::fair::{self, Commitment, Seed};

use super::replay::{replay_checking, ReplayError};
use super::{read_words, Entry, Record, COMMITMENT_TAG, REVEALED_TAG};

/// A draw that checked out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedDraw {
    /// Its line in the record.
    pub line: usize,
    /// Its number in the game.
    pub number: u32,
    /// What was drawn ("a coin toss").
    pub what: &'static str,
    /// How many outcomes it had.
    pub outcomes: u32,
    /// The order that applied it.
    pub order: String,
}

/// Why a record's draws do not check out: the first thing wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The record has no commitment, or not one that reads.
    #[error("line {line}: {problem}")]
    Commitment {
        /// The line of the tag (the first line when there is none).
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The seed is not revealed (the game goes on), or not one that reads.
    #[error("line {line}: {problem}")]
    Seed {
        /// The line of the tag (the first line when there is none).
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// A draw is not the one the seed and its inputs give.
    #[error("line {line}: draw {number} does not check out: {problem}")]
    Draw {
        /// Its line.
        line: usize,
        /// Its number.
        number: u32,
        /// What is wrong.
        problem: String,
    },
    /// The record does not replay.
    #[error("{0}")]
    Replay(ReplayError),
}

/// `orderly verify`: reads a record and checks its draws; returns what to
/// print (each draw checked, or what does not check out) and whether
/// everything checked out.
pub fn verify_report(text: &str) -> (String, bool) {
    let record = match Record::read(text) {
        Ok(record) => record,
        Err(e) => return (format!("the record does not read: {e}\n"), false),
    };
    match verify(&record) {
        Ok(draws) => {
            let mut out = String::from("the revealed seed opens the commitment\n");
            for d in &draws {
                out.push_str(&format!(
                    "draw {} ({}, {} outcomes): {} checks (line {})\n",
                    d.number, d.what, d.outcomes, d.order, d.line
                ));
            }
            out.push_str(&format!("{} draws checked\n", draws.len()));
            (out, true)
        }
        Err(e) => (format!("{e}\n"), false),
    }
}

/// Checks every draw of `record` against its revealed seed; returns the
/// draws checked, in order, or the first that does not check out.
pub fn verify(record: &Record) -> Result<Vec<CheckedDraw>, VerifyError> {
    let lines = record.lines();
    let tag = |name: &str| {
        let value = record
            .tags
            .extra()
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone());
        let line = lines.tag(name).map_or(1, |l| l.number);
        (value, line)
    };
    let (commitment, commitment_line) = tag(COMMITMENT_TAG);
    let Some(commitment) = commitment else {
        return Err(VerifyError::Commitment {
            line: 1,
            problem: format!("the record has no {COMMITMENT_TAG} tag: its game drew no chance"),
        });
    };
    let commitment = Commitment::from_hex(&commitment).ok_or_else(|| VerifyError::Commitment {
        line: commitment_line,
        problem: "the commitment is not 64 hex digits".to_string(),
    })?;
    let (seed, seed_line) = tag(REVEALED_TAG);
    let Some(seed) = seed else {
        return Err(VerifyError::Seed {
            line: 1,
            problem: format!(
                "the record has no {REVEALED_TAG} tag: the seed is revealed when the game is over"
            ),
        });
    };
    let seed = Seed::from_hex(&seed).ok_or_else(|| VerifyError::Seed {
        line: seed_line,
        problem: "the revealed seed is not 64 hex digits".to_string(),
    })?;
    if !commitment.opens_with(&seed) {
        return Err(VerifyError::Commitment {
            line: seed_line,
            problem: format!(
                "the revealed seed is not the one committed to: its SHA-256 is {}, \
                 the commitment {commitment}",
                seed.commitment()
            ),
        });
    }
    let mut checked = Vec::new();
    let mut failed = None;
    let mut last = 0;
    let draw_lines: Vec<usize> = record
        .entries()
        .iter()
        .zip(&lines.entries)
        .filter(|(e, _)| matches!(e, Entry::Draw(_)))
        .map(|(_, l)| l.main.number)
        .collect();
    let replayed = replay_checking(record, &mut |game, chance, d| {
        let number = d.inputs.number;
        let line = draw_lines.get(checked.len()).copied().unwrap_or(0);
        let problem = if number <= last {
            Some(format!("it comes after draw {last}: numbers only go up"))
        } else {
            let outcome = fair::outcome(&seed, &d.inputs, chance);
            match game.chance_order(outcome) {
                Some(expected) if read_words(&d.order).eq_ignore_ascii_case(&expected) => None,
                Some(expected) => Some(format!(
                    "the seed and its inputs draw {expected}, not {}",
                    d.order
                )),
                None => Some("the game has no order for its outcome".to_string()),
            }
        };
        if let Some(problem) = problem {
            failed = Some(VerifyError::Draw {
                line,
                number,
                problem: problem.clone(),
            });
            return Err(problem);
        }
        last = number;
        checked.push(CheckedDraw {
            line,
            number,
            what: chance.what,
            outcomes: chance.outcomes,
            order: d.order.clone(),
        });
        Ok(())
    });
    match (replayed, failed) {
        (Err(_), Some(draw)) => Err(draw),
        (Err(e), None) => Err(VerifyError::Replay(e)),
        (Ok(_), _) => Ok(checked),
    }
}

#[cfg(test)]
mod tests {
    use crate::games::chance::draw_pending;
    use crate::games::fair::{self, words_digest, DrawInputs, InputDigest, Seed};
    use crate::games::hosted;
    use crate::games::GameOptions;
    use crate::record::{verify, Record, Recorder, VerifyError, COMMITMENT_TAG, REVEALED_TAG};

    /// A coin race played to its end with fair draws under `seed`, as a
    /// record that reveals the seed.
    fn played(seed: &Seed) -> String {
        let coin = hosted::find("coinrace").expect("the test build hosts the coin race");
        let mut rec = Recorder::new(coin, &GameOptions::default());
        let mut number = 0;
        while rec.finish().is_none() {
            rec.apply("TOSS").unwrap();
            let mut game = rec.game().clone_box();
            let mut inputs = Vec::new();
            let drawn = draw_pending(game.as_mut(), &mut |chance| {
                number += 1;
                let i = DrawInputs {
                    number,
                    mail: InputDigest::of(&format!("m{number}@x")),
                    reply: InputDigest::of(""),
                    words: words_digest(["", ""]),
                };
                inputs.push(i);
                fair::outcome(seed, &i, chance)
            })
            .unwrap();
            for (d, i) in drawn.iter().zip(inputs) {
                rec.draw(&d.order, i).unwrap();
            }
        }
        let tags = rec.tags_mut();
        tags.set_extra(COMMITMENT_TAG, &seed.commitment().to_string())
            .unwrap();
        tags.set_extra(REVEALED_TAG, &seed.to_hex()).unwrap();
        rec.record().to_string()
    }

    #[test]
    fn a_record_with_draws_reads_back_as_written_and_verifies() {
        let seed = Seed::from_bytes([9; 32]);
        let text = played(&seed);
        let record = Record::read(&text).unwrap();
        assert_eq!(record.to_string(), text);
        let draws = verify(&record).unwrap();
        assert!(draws.len() >= 3);
        let json = crate::record::replay(&record).unwrap().to_json();
        assert_eq!(json.draws.len(), draws.len());
        assert_eq!(json.draws[0].number, 1);
        assert_eq!(
            json.draws[0].inputs["mail"],
            InputDigest::of("m1@x").to_string()
        );
        // The record survives mail: no line past 76 columns. The draws'
        // lines hold their outcomes; their inputs, the commitment and the
        // seed are in the proof after the result.
        assert!(text.lines().all(|l| l.chars().count() <= 76), "{text}");
        let (moves, proof) = text.split_once("\n\n;").unwrap();
        assert!(!moves.contains("mail ") && !moves.contains("[Commitment"));
        assert!(proof.contains(&format!("\nCommitment {}\n", seed.commitment())));
        assert!(proof.contains(&format!("\nRevealed {}\n", seed.to_hex())));
        assert!(proof.contains("\nDraw 1\n  mail "), "{text}");
    }

    /// `text` in the layout orderly wrote before the proof of the draws:
    /// the commitment and seed as tags, each draw's inputs under its line.
    fn in_the_old_layout(text: &str) -> String {
        let record = Record::read(text).unwrap();
        let (moves, _) = text.split_once("\n\n;").unwrap();
        let mut out = String::new();
        let mut draws = record.entries().iter().filter_map(|e| match e {
            crate::record::Entry::Draw(d) => Some(d.inputs),
            _ => None,
        });
        for line in moves.lines() {
            if line.is_empty() {
                for name in [COMMITMENT_TAG, REVEALED_TAG] {
                    let value = record.tags.get_extra(name).unwrap();
                    out.push_str(&format!("[{name} \"{value}\"]\n"));
                }
            }
            out.push_str(line);
            out.push('\n');
            if line.trim_start().starts_with("DRAW ") {
                let i = draws.next().unwrap();
                for (name, digest) in [("mail", i.mail), ("reply", i.reply), ("words", i.words)] {
                    out.push_str(&format!("      {name} {digest}\n"));
                }
            }
        }
        out
    }

    #[test]
    fn a_record_in_the_old_layout_still_reads_and_verifies() {
        let seed = Seed::from_bytes([5; 32]);
        let text = played(&seed);
        let old = in_the_old_layout(&text);
        assert!(old.contains("[Commitment \"") && old.contains("\n      mail "));
        let record = Record::read(&old).unwrap();
        assert!(verify(&record).unwrap().len() >= 3);
        // Written again, it is in today's layout.
        assert_eq!(record.to_string(), text);
    }

    #[test]
    fn a_draw_without_inputs_or_inputs_given_twice_is_refused() {
        let text = played(&Seed::from_bytes([6; 32]));
        // The proof's runs of draws overlap.
        let twice = text.replacen("\nDraw 2\n", "\nDraws 1-2\n", 1);
        let err = Record::read(&twice).unwrap_err();
        assert!(err.problem.contains("share numbers"), "{err:?}");
        // Draw 2 has no run of its own.
        let none = text.replacen("\nDraw 2\n", "\nDraw 99\n", 1);
        let err = Record::read(&none).unwrap_err();
        assert!(err.problem.contains("draw 2 has no inputs"), "{err:?}");
        assert!(err.text.contains("DRAW 2 "), "{err:?}");
        // Anything else after the result is refused.
        let more = text.replacen("\nDraw 2\n", "\n1. North TOSS\nDraw 2\n", 1);
        let err = Record::read(&more).unwrap_err();
        assert!(err.problem.contains("nothing may follow"), "{err:?}");
    }

    #[test]
    fn a_draw_where_the_game_waits_for_none_does_not_replay() {
        let text = played(&Seed::from_bytes([1; 32]));
        // Draw 1 given twice in a row: the second stands where South's TOSS
        // is due.
        let line = text.lines().find(|l| l.contains("DRAW 1 ")).unwrap();
        let moved = text.replacen(line, &format!("{line}\n{line}"), 1);
        let err = verify(&Record::read(&moved).unwrap()).unwrap_err();
        assert!(matches!(err, VerifyError::Replay(_)), "{err:?}");
    }

    #[test]
    fn draw_lines_that_do_not_read_are_refused_with_their_line() {
        let text = played(&Seed::from_bytes([2; 32]));
        let reply = text
            .lines()
            .position(|l| l.trim_start().starts_with("reply "))
            .unwrap();
        let without: Vec<&str> = text
            .lines()
            .enumerate()
            .filter(|(i, _)| *i != reply)
            .map(|(_, l)| l)
            .collect();
        let err = Record::read(&without.join("\n")).unwrap_err();
        assert!(err.problem.contains("reply comes here"), "{err:?}");
        let zero = text.replacen("DRAW 1 ", "DRAW 0 ", 1);
        let err = Record::read(&zero).unwrap_err();
        assert!(err.problem.contains("numbered from 1"), "{err:?}");
        let short = text.replacen("  mail ", "  mail 12", 1);
        assert!(Record::read(&short).is_err());
    }

    #[test]
    fn a_number_given_twice_is_refused() {
        let text = played(&Seed::from_bytes([4; 32]));
        let again = text.replacen("DRAW 2 ", "DRAW 1 ", 1);
        match verify(&Record::read(&again).unwrap()) {
            Err(VerifyError::Draw {
                number, problem, ..
            }) => {
                assert_eq!(number, 1);
                assert!(problem.contains("numbers only go up"), "{problem}");
            }
            other => panic!("{other:?}"),
        }
    }
}
