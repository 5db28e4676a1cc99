//! Replaying a record through the engine: every order re-validated, every
//! number and seat checked, the result compared with the tags.

use crate::games::hosted;
use crate::games::{AnyGame, Chance, GameOptions, Happened, Pending, RuleId, Seat};

use super::write::{Layout, Line};
use super::{DrawEntry, Entry, Finish, ForcedNote, OrderEntry, Record, SCENARIO_TAG};

/// Why a record does not replay: the line, as written, and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}{}", .rule.map(|r| format!(" (rule {r})")).unwrap_or_default())]
pub struct ReplayError {
    /// The line number in the record, from 1.
    pub line: usize,
    /// The line as written.
    pub text: String,
    /// What is wrong, in words a player understands.
    pub reason: String,
    /// The rule the order breaks, when the engine named one.
    pub rule: Option<RuleId>,
    /// The legal orders nearest to what was written, best first.
    pub suggestions: Vec<String>,
}

/// One order as the replay applied it.
#[derive(Clone, Debug)]
pub struct ReplayedOrder {
    /// Its line in the record.
    pub line: usize,
    /// The turn number when it was given ([`AnyGame::turn_number`] before
    /// it).
    pub number: u32,
    /// Whether it started a turn (rather than deciding inside an action).
    pub turn_level: bool,
    /// The seat that gave it.
    pub seat: Seat,
    /// The decision it answered, in the game's words.
    pub kind: String,
    /// The order, as the engine read it, in canonical notation.
    pub order: String,
    /// What it did, forced decisions included.
    pub events: Vec<Happened>,
    /// The position string after it.
    pub position: String,
}

/// A record that replayed: the game it leads to and what each order did.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game after the last order.
    pub game: Box<dyn AnyGame>,
    /// The position the game started from.
    pub start: String,
    /// Every order, in order.
    pub orders: Vec<ReplayedOrder>,
    /// The events of the last action (its turn-level order and the
    /// decisions inside it), for marking the board.
    pub last_action: Vec<Happened>,
    /// How the game ended, or `None` while it goes on.
    pub finish: Option<Finish>,
    /// The record rewritten in canonical form: orders as the engine prints
    /// them, forced decisions noted, tags in their order.
    pub record: Record,
    /// The line in the record that was replayed of each entry of `record`.
    pub entry_lines: Vec<usize>,
}

impl Replayed {
    /// Whether the record was played under other rules than this engine's
    /// ([`Game::RULES_VERSION`](crate::games::Game::RULES_VERSION)): the
    /// replay may then differ from the game.
    pub fn rules_differ(&self) -> bool {
        self.record.tags.rules.trim() != self.game.hosted().rules_version
    }
}

/// Replays `record` as a game of the hosted game its `Game` tag names:
/// each order is read and applied by the game ([`AnyGame::play`]) for the
/// seat and turn number the record gives it, the forced decisions the
/// record notes are compared with the engine's, and the `Result` and
/// `Termination` tags with how the game ended. The first thing wrong is the
/// error, with its line.
pub fn replay(record: &Record) -> Result<Replayed, ReplayError> {
    Replay::new(record)?.run(&mut |_, _, _| Ok(()))
}

/// A check of each draw of chance as the replay meets it, given the game
/// before the draw, the chance it waits for and the record's draw: why the
/// draw does not check out, if it does not ([`super::verify`]).
pub(crate) type DrawCheck<'c> =
    &'c mut dyn FnMut(&dyn AnyGame, Chance, &DrawEntry) -> Result<(), String>;

/// [`replay`], with `check` run at each draw before its order is applied.
pub(crate) fn replay_checking(
    record: &Record,
    check: DrawCheck<'_>,
) -> Result<Replayed, ReplayError> {
    Replay::new(record)?.run(check)
}

struct Replay<'r> {
    record: &'r Record,
    lines: Layout,
    game: Box<dyn AnyGame>,
    out: Replayed,
    /// The line and the finish of an end marker or of the engine's outcome.
    ended: Option<(usize, Finish)>,
}

/// The engine's refusal of the order on `line`.
fn refused_at(line: &Line, r: crate::games::Rejection) -> ReplayError {
    ReplayError {
        line: line.number,
        text: line.text.clone(),
        reason: r.problem,
        rule: r.rule,
        suggestions: r.suggestions,
    }
}

fn fail(line: &Line, reason: impl Into<String>) -> ReplayError {
    ReplayError {
        line: line.number,
        text: line.text.clone(),
        reason: reason.into(),
        rule: None,
        suggestions: Vec::new(),
    }
}

impl<'r> Replay<'r> {
    fn new(record: &'r Record) -> Result<Self, ReplayError> {
        let lines = record.lines();
        let tags = &record.tags;
        let Some(hosted) = hosted::find(&tags.game) else {
            return Err(fail(
                &tag_line(&lines, "Game"),
                format!(
                    "this is a record of {:?}, which orderly does not host",
                    tags.game
                ),
            ));
        };
        let game = match &tags.position {
            Some(position) => (hosted.from_position)(position).map_err(|e| {
                fail(
                    &tag_line(&lines, "Position"),
                    format!("the starting position cannot be read: {e}"),
                )
            })?,
            None => (hosted.new)(&GameOptions {
                first: tags.first.or(hosted.first).unwrap_or(Seat::North),
                seed: tags.seed,
                scenario: tags.get_extra(SCENARIO_TAG).map(str::to_string),
            }),
        };
        let ended = game.outcome().map(|o| (0, Finish::of(o)));
        let mut canonical = record.clone();
        canonical.entries.clear();
        canonical.origin = None;
        let out = Replayed {
            start: game.position(),
            game: game.clone(),
            orders: Vec::new(),
            last_action: Vec::new(),
            finish: None,
            record: canonical,
            entry_lines: Vec::new(),
        };
        Ok(Replay {
            record,
            lines,
            game,
            out,
            ended,
        })
    }

    fn run(mut self, check: DrawCheck<'_>) -> Result<Replayed, ReplayError> {
        for (i, entry) in self.record.entries.iter().enumerate() {
            let here = self.lines.entries[i].clone();
            match entry {
                Entry::Comment(_) => {}
                Entry::End(marker) => {
                    self.still_going(&here.main)?;
                    let turn = self.game.turn_number();
                    if marker.number != turn {
                        return Err(fail(
                            &here.main,
                            format!("this is turn {turn}, not turn {}", marker.number),
                        ));
                    }
                    self.ended = Some((here.main.number, marker.ending.finish()));
                }
                Entry::Order(o) => {
                    let entry = self.order(o, &here.main, &here.forced)?;
                    self.out.entry_lines.push(here.main.number);
                    self.out.record.entries.push(Entry::Order(entry));
                    continue;
                }
                Entry::Draw(d) => {
                    let entry = self.draw(d, &here.main, check)?;
                    self.out.entry_lines.push(here.main.number);
                    self.out.record.entries.push(Entry::Draw(entry));
                    continue;
                }
            }
            self.out.entry_lines.push(here.main.number);
            self.out.record.entries.push(entry.clone());
        }
        self.check_result()?;
        self.out.finish = self.ended.map(|(_, f)| f);
        self.out.game = self.game;
        Ok(self.out)
    }

    /// Refuses anything but a comment once the game has ended.
    fn still_going(&self, line: &Line) -> Result<(), ReplayError> {
        match self.ended.clone() {
            None => Ok(()),
            Some((at, finish)) => {
                let how = self.describe(Some(finish));
                Err(fail(
                    line,
                    if at == 0 {
                        format!("the game is already over in its starting position ({how})")
                    } else {
                        format!("the game ended on line {at} ({how}): only comments may follow")
                    },
                ))
            }
        }
    }

    fn order(
        &mut self,
        o: &OrderEntry,
        line: &Line,
        notes: &[Line],
    ) -> Result<OrderEntry, ReplayError> {
        self.still_going(line)?;
        let Some(pending) = self.game.pending() else {
            if let Some(chance) = self.game.chance() {
                return Err(fail(
                    line,
                    format!("the game waits for a draw of chance here ({})", chance.what),
                ));
            }
            return Err(fail(line, "the game is over: no order may follow"));
        };
        let turn = self.game.turn_number();
        if o.seat != pending.seat && o.number.is_none() {
            // A standing order the other seat gave while this one decided.
            if let Some(applied) = self.game.play_standing(o.seat, &o.order) {
                let (order, events) = applied.map_err(|r| refused_at(line, r))?;
                self.out.orders.push(ReplayedOrder {
                    line: line.number,
                    number: turn,
                    turn_level: false,
                    seat: o.seat,
                    kind: "standing order".to_string(),
                    order: order.clone(),
                    events,
                    position: self.game.position(),
                });
                return Ok(OrderEntry {
                    number: None,
                    seat: o.seat,
                    order,
                    forced: Vec::new(),
                });
            }
        }
        let turn_level = pending.phase.is_turn();
        self.check_place(o, line, &pending, turn)?;
        let (order, events) = self.game.play(&o.order).map_err(|r| refused_at(line, r))?;
        let forced: Vec<ForcedNote> = ForcedNote::of_events(&events);
        self.check_notes(&o.forced, &forced, line, notes)?;
        if turn_level {
            self.out.last_action.clear();
        }
        self.out.last_action.extend(events.iter().cloned());
        if let Some(outcome) = self.game.outcome() {
            self.ended = Some((line.number, Finish::of(outcome)));
        }
        self.out.orders.push(ReplayedOrder {
            line: line.number,
            number: turn,
            turn_level,
            seat: pending.seat,
            kind: pending.kind,
            order: order.clone(),
            events,
            position: self.game.position(),
        });
        Ok(OrderEntry {
            number: turn_level.then_some(turn),
            seat: pending.seat,
            order,
            forced,
        })
    }

    /// Applies a draw's order where the game waits for a draw of chance,
    /// after `check` has passed it.
    fn draw(
        &mut self,
        d: &DrawEntry,
        line: &Line,
        check: DrawCheck<'_>,
    ) -> Result<DrawEntry, ReplayError> {
        self.still_going(line)?;
        let Some(chance) = self.game.chance() else {
            return Err(fail(line, "the game waits for no draw of chance here"));
        };
        check(self.game.as_ref(), chance, d).map_err(|why| fail(line, why))?;
        let (order, events) = self
            .game
            .apply_canonical(&d.order)
            .map_err(|r| refused_at(line, r))?;
        self.out.last_action.extend(events);
        if let Some(outcome) = self.game.outcome() {
            self.ended = Some((line.number, Finish::of(outcome)));
        }
        Ok(DrawEntry {
            inputs: d.inputs,
            order,
        })
    }

    /// Checks that the order stands where the game is: its number, its
    /// line kind and its seat.
    fn check_place(
        &self,
        o: &OrderEntry,
        line: &Line,
        pending: &Pending<String>,
        turn: u32,
    ) -> Result<(), ReplayError> {
        let name = |seat| self.record.seat_name(seat);
        let who = name(pending.seat);
        match (o.number, pending.phase.is_turn()) {
            (Some(n), true) if n != turn => {
                return Err(fail(line, format!("this is turn {turn}, not turn {n}")));
            }
            (Some(_), false) => {
                return Err(fail(
                    line,
                    format!(
                        "this is a decision inside the action of turn {turn} ({who}: {}): \
                         it goes on a continuation line, indented, without a number",
                        pending.kind
                    ),
                ));
            }
            (None, true) => {
                return Err(fail(
                    line,
                    format!("turn {turn} starts here: write it {turn}. {who} <order>"),
                ));
            }
            _ => {}
        }
        if o.seat != pending.seat {
            return Err(fail(
                line,
                format!(
                    "it is {who}'s decision here ({}), not {}'s",
                    pending.kind,
                    name(o.seat)
                ),
            ));
        }
        Ok(())
    }

    /// Compares the forced decisions the record notes (if it notes any)
    /// with those the engine took.
    fn check_notes(
        &self,
        noted: &[ForcedNote],
        taken: &[ForcedNote],
        line: &Line,
        notes: &[Line],
    ) -> Result<(), ReplayError> {
        if noted.is_empty() {
            return Ok(());
        }
        let name = |seat| self.record.seat_name(seat);
        for k in 0..noted.len().max(taken.len()) {
            let at = notes.get(k).unwrap_or(line);
            let same = match (noted.get(k), taken.get(k)) {
                (Some(n), Some(t)) => {
                    n.seat == t.seat && super::read_words(&n.order).eq_ignore_ascii_case(&t.order)
                }
                _ => false,
            };
            if !same {
                let engine = match taken.get(k) {
                    Some(t) => format!("the engine takes {} {} here", name(t.seat), t.order),
                    None => "the engine takes no other decision by itself here".to_string(),
                };
                let record = match noted.get(k) {
                    Some(n) => format!("the record notes {} {}", name(n.seat), n.order),
                    None => "the record notes no more".to_string(),
                };
                return Err(fail(
                    at,
                    format!("this forced decision does not match: {engine}, {record}"),
                ));
            }
        }
        Ok(())
    }

    fn describe(&self, finish: Option<Finish>) -> String {
        match finish {
            None => match self.game.pending() {
                Some(p) => format!(
                    "in progress, {} to decide ({}), turn {}",
                    self.record.seat_name(p.seat),
                    p.kind,
                    self.game.turn_number()
                ),
                None => "in progress".to_string(),
            },
            Some(f) => {
                let result = match f.result {
                    crate::games::GameResult::Win(seat) => {
                        format!("{} wins", self.record.seat_name(seat))
                    }
                    crate::games::GameResult::Draw => "a draw".to_string(),
                };
                format!(
                    "{result}, {}",
                    self.record.termination_text(Some(f.termination))
                )
            }
        }
    }

    /// The tags must say how the replay ended.
    fn check_result(&self) -> Result<(), ReplayError> {
        let replayed = self.ended.clone().map(|(_, f)| f);
        let tagged = self.record.tags.finish.clone();
        if replayed == tagged {
            return Ok(());
        }
        let result_line = || {
            self.lines
                .tag("Result")
                .cloned()
                .or_else(|| self.lines.result.clone())
                .unwrap_or_else(|| tag_line(&self.lines, "Result"))
        };
        let (line, what) = match (replayed.clone(), tagged.clone()) {
            (Some(r), Some(t)) if r.result == t.result => (
                self.lines
                    .tag("Termination")
                    .cloned()
                    .unwrap_or_else(result_line),
                format!(
                    "the Termination tag says {:?}",
                    self.record.termination_text(Some(t.termination))
                ),
            ),
            _ => (
                result_line(),
                format!(
                    "the Result tag says {}",
                    match tagged {
                        None => "* (in progress)".to_string(),
                        Some(t) => self.describe(Some(t)),
                    }
                ),
            ),
        };
        Err(fail(
            &line,
            format!(
                "the replayed game is {}, but {what}",
                self.describe(replayed)
            ),
        ))
    }
}

/// The line of a tag, or the first line when the record does not have it.
fn tag_line(lines: &Layout, name: &str) -> Line {
    lines.tag(name).cloned().unwrap_or(Line {
        number: 1,
        text: lines
            .tags
            .first()
            .map_or(String::new(), |(_, l)| l.text.clone()),
    })
}
