//! `orderly engine`: a line tool for people and for checking the engine.
//!
//! It reads one order per line and answers each with a block:
//!
//! ```text
//! order MOVE CAVALRY BR B3C
//! event Blue cavalry moves BR -> B3C
//! position 9I3A3C/1C1/4/2/5/2/5/2/4/3/9i3a4c - g - 2 -
//! pending Gray turn
//! legal 27
//! MOVE ARTILLERY GR G3C
//! ...
//! ```
//!
//! A refused order answers `order ...` then `refused R9: <reason>` and the
//! position is unchanged. Blank lines and lines starting with `#` are
//! skipped. The first block, before any order, shows the starting position.
//!
//! Orders are read forgivingly (`G2CR-G1C`, `move inf from reserve to
//! B3C`); a line read into another canonical form is followed by `read
//! <canonical>`. A refusal is followed by `suggest <order>` lines, the
//! nearest legal orders. Several orders on one line, separated by `;`, are
//! one message: `held` marks orders kept for the second half of a double
//! turn, `unused` orders that were not applied, with why.
//!
//! With `--picture DIR`, each position is also drawn as a picture
//! (issue 19): `DIR/0000.svg` and `DIR/0000.png` for the opening, then one
//! pair per message, each announced by a `picture <path>` line.
//!
//! The tool plays any hosted game (`orderly engine --game napoleonic`)
//! through the game-neutral door [`AnyGame`]; the command line finds the
//! game by name in the registry ([`hosted::find`](crate::games::hosted::find)).

use std::io::{self, BufRead, Write};
use std::path::Path;

use crate::games::submission::{release, submit, Submission};
use crate::games::{AnyGame, BoardStyle, GameResult, Happened, Seat};

/// What `orderly engine` prints besides the position and the legal orders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras<'a> {
    /// Print the ASCII board after each message: from this seat, or (None
    /// inside `Some`) from the seat of the player to act.
    pub board: Option<Option<Seat>>,
    /// Print the pending choices worded for the player to act.
    pub choices: bool,
    /// Make the draws of chance a game waits for (dice, cards, the cup)
    /// from this seed: the same seed makes the same draws. `None`: the
    /// tool only says what the game waits for.
    pub seed: Option<u64>,
    /// Write each position's picture (SVG and PNG) into this directory,
    /// drawn from the seat `board` names.
    pub pictures: Option<&'a Path>,
}

/// The tool's own draws of chance: SplitMix64, enough for a line tool whose
/// runs must repeat (the service draws fairly, docs/dice.md).
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % u64::from(n.max(1))) as u32
    }
}

/// Writes the draws of chance the game waits for: made from `draws` when
/// the tool has a seed, else only named. Returns the events they made.
fn write_chance(
    out: &mut impl Write,
    game: &mut dyn AnyGame,
    draws: &mut Option<Draws>,
) -> io::Result<Vec<Happened>> {
    let Some(chance) = game.chance() else {
        return Ok(Vec::new());
    };
    let Some(draws) = draws.as_mut() else {
        writeln!(
            out,
            "chance waiting: {} ({} outcomes); run with --seed N to draw it",
            chance.what, chance.outcomes
        )?;
        return Ok(Vec::new());
    };
    let mut events = Vec::new();
    match crate::games::chance::draw_pending(game, &mut |c| draws.below(c.outcomes)) {
        Ok(drawn) => {
            for d in drawn {
                writeln!(out, "chance {}: {}", d.what, d.order)?;
                for e in &d.events {
                    writeln!(out, "event {}", e.text)?;
                }
                events.extend(d.events);
            }
        }
        Err(r) => writeln!(out, "chance refused: {}", r.problem)?,
    }
    Ok(events)
}

/// Writes the position, the pending decision and the sorted legal orders.
pub fn write_state(out: &mut impl Write, game: &dyn AnyGame) -> io::Result<()> {
    writeln!(out, "position {}", game.position())?;
    match (game.pending(), game.outcome()) {
        (_, Some(outcome)) => {
            let result = match outcome.result {
                GameResult::Win(seat) => format!("{} wins", game.seat_name(seat)),
                GameResult::Draw => "draw".to_string(),
            };
            writeln!(out, "over {result} ({})", outcome.reason)?;
        }
        (Some(pending), None) => {
            let seat = game.seat_name(pending.seat);
            writeln!(out, "pending {seat} {}", pending.kind)?;
        }
        (None, None) => writeln!(out, "pending none")?,
    }
    let mut legal = game.legal_orders();
    legal.sort();
    writeln!(out, "legal {}", legal.len())?;
    for order in legal {
        writeln!(out, "{order}")?;
    }
    Ok(())
}

/// Writes text that may hold blank lines inside a block, which must not
/// have any (a blank line ends a block).
fn write_lines(out: &mut impl Write, text: &str) -> io::Result<()> {
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Writes `game`'s picture from `seat` as `dir/NNNN.svg` and `.png`, the
/// `number`th of the run, and says so in a `picture` line; a game without
/// pictures says that instead.
pub fn write_picture(
    out: &mut impl Write,
    game: &dyn AnyGame,
    seat: Seat,
    last: &[Happened],
    dir: &Path,
    number: usize,
) -> io::Result<()> {
    let Some(svg) = game.picture(seat, last, false) else {
        return writeln!(out, "picture none: {} has no picture yet", game.name());
    };
    let png = crate::picture::png(&svg).map_err(io::Error::other)?;
    let stem = dir.join(format!("{number:04}"));
    std::fs::write(stem.with_extension("svg"), svg)?;
    let path = stem.with_extension("png");
    std::fs::write(&path, png.bytes)?;
    writeln!(out, "picture {}", path.display())
}

fn write_extras(
    out: &mut impl Write,
    game: &dyn AnyGame,
    extras: Extras,
    last: &[Happened],
    pictures: &mut usize,
) -> io::Result<()> {
    let seat = extras
        .board
        .flatten()
        .or_else(|| game.pending().map(|p| p.seat))
        .unwrap_or(Seat::North);
    if extras.board.is_some() {
        write_lines(out, &game.draw_board(seat, last, &BoardStyle::default()))?;
    }
    if let Some(dir) = extras.pictures {
        write_picture(out, game, seat, last, dir, *pictures)?;
        *pictures += 1;
    }
    if extras.choices {
        let viewer = game.pending().map_or(Seat::North, |p| p.seat);
        write_lines(out, &game.choices(viewer))?;
    }
    Ok(())
}

/// Writes what became of each line of a message.
fn write_submission(out: &mut impl Write, game: &dyn AnyGame, s: &Submission) -> io::Result<()> {
    for taken in &s.taken {
        writeln!(out, "order {}", taken.line)?;
        if taken.order != taken.line {
            writeln!(out, "read {}", taken.order)?;
        }
        for event in &taken.events {
            writeln!(out, "event {}", event.text)?;
        }
    }
    if let Some(r) = &s.refused {
        writeln!(out, "order {}", r.line)?;
        match r.rule {
            Some(rule) => writeln!(out, "refused {rule}: {}", r.problem)?,
            None => writeln!(out, "refused parse: {}", r.problem)?,
        }
        for suggestion in &r.suggestions {
            writeln!(out, "suggest {suggestion}")?;
        }
    }
    for line in &s.held {
        writeln!(out, "held {line}")?;
    }
    for u in &s.unused {
        writeln!(
            out,
            "unused {}: not applied: {}",
            u.line,
            u.why.describe(Seat::BOTH.map(|s| game.seat_name(s)))
        )?;
    }
    Ok(())
}

/// Plays the messages read from `input` from `game`, writing a block per
/// message. A line is one message from the player to act: one order, or
/// several separated by `;` (a double turn written at once).
pub fn run(game: &mut dyn AnyGame, input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
    run_with(game, input, out, Extras::default())
}

/// [`run`], printing the board and the choices as `extras` asks.
pub fn run_with(
    game: &mut dyn AnyGame,
    input: impl BufRead,
    out: &mut impl Write,
    extras: Extras,
) -> io::Result<()> {
    let mut draws = extras.seed.map(Draws);
    let mut pictures = 0;
    write_state(out, game)?;
    write_extras(out, game, extras, &[], &mut pictures)?;
    if game.chance().is_some() {
        // The opening waits for chance (a deal, the cup): drawn, or named.
        writeln!(out)?;
        let drawn = write_chance(out, game, &mut draws)?;
        if !drawn.is_empty() {
            write_state(out, game)?;
            write_extras(out, game, extras, &drawn, &mut pictures)?;
        }
    }
    // A person types an order and waits: each answer goes out at once.
    out.flush()?;
    // Lines held for the second half of a double turn, per seat.
    let mut held: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for line in input.lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        writeln!(out)?;
        let seat = game.pending().map_or(Seat::North, |p| p.seat);
        let orders: Vec<&str> = text.split(';').collect();
        let submission = submit(game, seat, &orders);
        write_submission(out, game, &submission)?;
        let mut last: Vec<_> = submission
            .taken
            .iter()
            .flat_map(|t| t.events.iter().cloned())
            .collect();
        held[seat.index()].extend(submission.held);
        // The opponent's decision may have resolved an attack that held
        // orders were waiting for.
        for waiting in Seat::BOTH {
            let lines = std::mem::take(&mut held[waiting.index()]);
            let released = release(game, waiting, &lines);
            if released.held != lines {
                write_submission(out, game, &released)?;
            }
            last.extend(released.taken.iter().flat_map(|t| t.events.iter().cloned()));
            held[waiting.index()] = released.held;
        }
        last.extend(write_chance(out, game, &mut draws)?);
        write_state(out, game)?;
        write_extras(out, game, extras, &last, &mut pictures)?;
        out.flush()?;
    }
    Ok(())
}
