//! Several orders in one message.
//!
//! A player may write both halves of a double turn in one mail, or an
//! attack followed by the second half. Orders are taken in the order
//! written while the decision is the writer's. When the first half is an
//! attack that waits for the opponent's decision, the orders after it are
//! *held* and applied once the attack is resolved and the second half
//! comes, if they are still legal then (SQUARES R4: the second half is
//! ordered after the first is resolved). The first refused order stops
//! the message: what follows it was written on the assumption that it
//! would be taken.
//!
//! ```
//! use orderly::games::{Game, GameOptions, Seat};
//! use orderly::games::squares::Squares;
//! use orderly::games::submission::submit;
//!
//! let mut game = Squares::new(&GameOptions::default());
//! let s = submit(&mut game, Seat::North, &["cav BR B3C", "PASS"]);
//! assert_eq!(s.taken.len(), 1);
//! // Blue's turn ended with the move: PASS was not applied, and why is said.
//! assert_eq!(s.unused.len(), 1);
//! assert!(s.unused[0].why.to_string().contains("turn"));
//! ```

use std::fmt;

use super::{AnyGame, Happened, Rejection, Seat};

/// An order that was applied.
#[derive(Clone, Debug)]
pub struct Taken {
    /// The line as written.
    pub line: String,
    /// The order read from it, in canonical notation.
    pub order: String,
    /// What happened.
    pub events: Vec<Happened>,
}

/// Why a line of a message was not applied (and not refused either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotApplied {
    /// An earlier line of the same message was refused.
    EarlierRefused,
    /// The game ended before this line.
    GameOver,
    /// The writer's turn ended before this line; the other seat decides now.
    TurnEnded {
        /// Who decides now.
        now: Seat,
    },
    /// A held second half that no longer has a turn to be played in.
    NoSecondHalf,
}

impl NotApplied {
    /// Why, in words for a player, naming seats with the game's names
    /// (`seats`, North first); the caller says "not applied" before it.
    pub fn describe(self, seats: [&str; 2]) -> String {
        match self {
            NotApplied::EarlierRefused => "an earlier order of this message was refused".into(),
            NotApplied::GameOver => "the game is over".into(),
            NotApplied::TurnEnded { now } => format!(
                "your turn had ended; {} decides now. Send it on your next turn",
                seats[now.index()]
            ),
            NotApplied::NoSecondHalf => {
                "the attack ended your turn, so there was no second half to play".into()
            }
        }
    }
}

impl fmt::Display for NotApplied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotApplied::EarlierRefused => f.write_str("an earlier order was refused"),
            NotApplied::GameOver => f.write_str("the game is over"),
            NotApplied::TurnEnded { .. } => f.write_str("your turn had ended"),
            NotApplied::NoSecondHalf => f.write_str("there was no second half to play"),
        }
    }
}

/// A line that was neither applied nor refused, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unused {
    /// The line as written.
    pub line: String,
    /// Why it was not applied.
    pub why: NotApplied,
}

/// What became of each line of a message.
#[derive(Clone, Debug, Default)]
pub struct Submission {
    /// The orders applied, in order.
    pub taken: Vec<Taken>,
    /// The first refused line, with its reason and suggestions.
    pub refused: Option<Rejection>,
    /// Lines kept for the second half of the double turn: pass them to
    /// [`release`] after each of the opponent's orders.
    pub held: Vec<String>,
    /// Lines not applied, each with why.
    pub unused: Vec<Unused>,
    /// Lines not yet tried: [`submit_until_turn`] stopped before them when
    /// the writer's turn came, or the game waits for a draw of chance
    /// before them.
    pub rest: Vec<String>,
    /// A line ended the last part of the writer's turn: whatever turn of
    /// his follows was not what the mail was written for, so the end of
    /// the mail does not close it ([`crate::games::MailTurn`]).
    pub finished_turn: bool,
    /// The [`AnyGame::turn_serial`] the last line of the writer's turn
    /// (not a standing order) left: the turn the mail's end may close.
    /// `None`: no such line was taken.
    pub turn: Option<u64>,
    /// That last line left its order unfinished ([`AnyGame::interrupts`]):
    /// the rest waits for the writer, and the mail's end closes nothing.
    pub interrupted: bool,
    /// The [`Submission::rest`] waits for a draw that a part of the
    /// writer's turn with more parts to follow began: once it is drawn,
    /// [`submit_after_draw`] holds the rest if the other seat must react
    /// first.
    pub rest_in_first_half: bool,
}

impl Submission {
    /// Adds a later round of the same message (its lines after a draw of
    /// chance, [`submit_after_draw`]): what it took, refused, held and
    /// left, and the turn its last line of play acted in.
    pub fn absorb(&mut self, later: Submission) {
        self.taken.extend(later.taken);
        if self.refused.is_none() {
            self.refused = later.refused;
        }
        self.held.extend(later.held);
        self.unused.extend(later.unused);
        self.rest = later.rest;
        self.finished_turn |= later.finished_turn;
        if later.turn.is_some() {
            self.turn = later.turn;
            self.interrupted = later.interrupted;
        }
        self.rest_in_first_half = later.rest_in_first_half;
    }
}

/// Applies the order lines of one message from `seat`, as far as they go.
///
/// Lines that are empty after trimming are skipped. The state changes only
/// by the orders in [`Submission::taken`].
pub fn submit<S: AsRef<str>>(game: &mut dyn AnyGame, seat: Seat, lines: &[S]) -> Submission {
    submit_lines(game, seat, lines, false, false)
}

/// [`submit`] for the [`Submission::rest`] of a message once the draw it
/// waited for is made: when that draw belonged to a part of the writer's
/// turn that more parts follow and the other seat must now react (an
/// attack's defender, a question asked under Brothers at War's `ASK`), the
/// lines are held as if the action had been resolved in the same call
/// (R4, B7: the mover's remaining orders wait and resume after it).
pub fn submit_after_draw<S: AsRef<str>>(
    game: &mut dyn AnyGame,
    seat: Seat,
    lines: &[S],
    in_first_half: bool,
) -> Submission {
    submit_lines(game, seat, lines, false, in_first_half)
}

/// [`submit`] for a writer who has lines held from an earlier mail: it
/// stops as soon as the writer has a turn to play, leaving the lines not
/// yet tried in [`Submission::rest`], so that the held lines, written
/// first, are played first (R4) and this mail's rest after them.
pub fn submit_until_turn<S: AsRef<str>>(
    game: &mut dyn AnyGame,
    seat: Seat,
    lines: &[S],
) -> Submission {
    submit_lines(game, seat, lines, true, false)
}

fn submit_lines<S: AsRef<str>>(
    game: &mut dyn AnyGame,
    seat: Seat,
    lines: &[S],
    stop_at_turn: bool,
    in_first_half: bool,
) -> Submission {
    let mut out = Submission::default();
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| l.as_ref().trim())
        .filter(|l| !l.is_empty())
        .collect();
    // Set when this message began an action in a part of a turn that more
    // parts follow (the first half of a SQUARES double turn): the lines
    // after it wait for the action to be resolved (R4).
    let mut first_half_attack = in_first_half && game.pending().is_some_and(|p| !p.phase.is_turn());
    // Kept across a round that plays no line (a draw after a draw).
    let mut last_first_half = in_first_half;
    // In a game whose turn is many orders, a part goes on after the action
    // its line began, even its last part (a Brothers at War brigade
    // without a commander): the lines after it wait too.
    let many_orders = game.hosted().mail_turn.is_some();
    for (i, line) in lines.iter().enumerate() {
        let rest = || lines[i..].iter().map(|l| l.to_string());
        let Some(pending) = game.pending() else {
            if game.chance().is_some() {
                // A draw of chance comes first: the service draws it
                // (`chance::draw_pending`) and goes on with the rest.
                out.rest.extend(rest());
                out.rest_in_first_half = last_first_half;
                break;
            }
            out.unused.extend(rest().map(|line| Unused {
                line,
                why: NotApplied::GameOver,
            }));
            break;
        };
        // B7, R4: a question the writer's own line raised asks the writer
        // himself (his units under fire in his own turn). A line that
        // answers it is taken (the attacker's losses of Civil War 1863,
        // foreseen); one that does not was not written as its answer: it
        // and the lines after it wait for the answer, held.
        let own_question = first_half_attack && pending.seat == seat && !pending.phase.is_turn();
        if own_question {
            let mut trial = game.clone_box();
            if trial.play(line).is_err() {
                out.held.extend(rest());
                break;
            }
        }
        if pending.seat != seat {
            // A standing order (Brothers at War's instructions, B5) is
            // taken whoever decides; the others wait or are not applied.
            for line in rest() {
                match game.play_standing(seat, &line) {
                    Some(Ok((order, events))) => out.taken.push(Taken {
                        line,
                        order,
                        events,
                    }),
                    _ if first_half_attack => out.held.push(line),
                    _ => out.unused.push(Unused {
                        line,
                        why: NotApplied::TurnEnded { now: pending.seat },
                    }),
                }
            }
            break;
        }
        if stop_at_turn && pending.seat == seat && pending.phase.is_turn() {
            out.rest.extend(rest());
            break;
        }
        let first_half = pending.phase.more_parts_follow();
        let goes_on = first_half || (many_orders && pending.phase.is_turn());
        last_first_half = goes_on;
        let last_part = pending.phase.is_turn() && !first_half;
        match read_and_apply(game, line) {
            Ok(taken) => {
                out.finished_turn |= last_part && game.pending() != Some(pending);
                if !game.is_standing(seat, &taken.order) {
                    out.turn = Some(game.turn_serial());
                    out.interrupted = taken.events.iter().any(|e| game.interrupts(e));
                }
                out.taken.push(taken);
            }
            Err(rejection) => {
                out.refused = Some(rejection);
                let after = after_refusal(game, seat, &lines[i + 1..]);
                out.taken.extend(after.taken);
                out.unused.extend(after.unused);
                break;
            }
        }
        if goes_on {
            first_half_attack = game.pending().is_some_and(|p| !p.phase.is_turn());
        }
    }
    out
}

/// The lines after a refused line of play (the first refused order stops
/// the message): standing orders are still taken, since they do not
/// depend on the lines before them (Brothers at War's instructions, B5);
/// the others are not applied.
pub fn after_refusal<S: AsRef<str>>(game: &mut dyn AnyGame, seat: Seat, lines: &[S]) -> Submission {
    let mut out = Submission::default();
    for l in lines {
        let line = l.as_ref().to_string();
        match game.play_standing(seat, &line) {
            Some(Ok((order, events))) => out.taken.push(Taken {
                line,
                order,
                events,
            }),
            _ => out.unused.push(Unused {
                line,
                why: NotApplied::EarlierRefused,
            }),
        }
    }
    out
}

/// Applies held lines (see [`Submission::held`]) once their time has come:
/// when `seat` must play a turn. While the attack is still being resolved
/// nothing happens and the lines stay held; when the game has gone on
/// without a second half (it ended, or the other seat's turn came) they are
/// returned as unused.
pub fn release<S: AsRef<str>>(game: &mut dyn AnyGame, seat: Seat, held: &[S]) -> Submission {
    let mut out = Submission::default();
    if held.is_empty() {
        return out;
    }
    match game.pending() {
        Some(p) if p.seat == seat && p.phase.is_turn() => submit(game, seat, held),
        Some(p) if !p.phase.is_turn() => {
            out.held = held.iter().map(|l| l.as_ref().to_string()).collect();
            out
        }
        pending => {
            let why = match pending {
                None => NotApplied::GameOver,
                Some(_) => NotApplied::NoSecondHalf,
            };
            out.unused = held
                .iter()
                .map(|l| Unused {
                    line: l.as_ref().to_string(),
                    why,
                })
                .collect();
            out
        }
    }
}

fn read_and_apply(game: &mut dyn AnyGame, line: &str) -> Result<Taken, Rejection> {
    let (order, events) = game.play(line)?;
    Ok(Taken {
        line: line.to_string(),
        order,
        events,
    })
}
