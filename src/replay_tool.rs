//! `orderly replay FILE`: re-validates every order of a game record and
//! prints the final board and the result, or the first line that does not
//! replay, as `FILE:LINE: <the line>` with the reason and its rule.
//!
//! The game is chosen by the record's `[Game]` tag, among the hosted games
//! ([`GAMES`]). `--json` prints the JSON export instead of the board;
//! `--canonical` prints the record rewritten in canonical form
//! (docs/record-format.md).

use std::io::{self, Write};
use std::path::PathBuf;

use crate::games::hosted::{self, Hosted, GAMES};
use crate::games::text::capitalised;
use crate::games::{BoardStyle, GameResult, Seat};
use crate::record::{game_tag, replay, Record};

/// The arguments of `orderly replay`.
#[derive(Clone, Debug, clap::Args)]
pub struct ReplayArgs {
    /// The record to replay (docs/record-format.md).
    pub file: PathBuf,
    /// Print the JSON export for tools instead of the board.
    #[arg(long)]
    pub json: bool,
    /// Print the record rewritten in canonical form instead of the board.
    #[arg(long, conflicts_with = "json")]
    pub canonical: bool,
    /// Also draw the game as a picture after every order into this
    /// directory (made if missing): 0000.svg and 0000.png for the start,
    /// then a pair per order, all from the first seat's side.
    #[arg(long, value_name = "DIR")]
    pub pictures: Option<PathBuf>,
}

/// What to print once a record has replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The final board and the result.
    Board,
    /// The JSON export.
    Json,
    /// The record in canonical form.
    Canonical,
}

/// Runs `orderly replay` with `args`: the output goes to `out`, the errors
/// to `err`. Returns whether the record replayed (the exit status is 1
/// when it did not).
pub fn run(args: &ReplayArgs, out: &mut impl Write, err: &mut impl Write) -> io::Result<bool> {
    let name = args.file.display().to_string();
    let output = if args.json {
        Output::Json
    } else if args.canonical {
        Output::Canonical
    } else {
        Output::Board
    };
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            writeln!(err, "{name}: cannot read the record: {e}")?;
            return Ok(false);
        }
    };
    match &args.pictures {
        None => replay_text(&name, &text, output, out, err),
        Some(dir) => replay_drawing(&name, &text, output, dir, out, err),
    }
}

/// [`replay_text`], then a picture of the start and of the game after
/// each order into `dir`; the pictures are said in one line on `err`, so
/// that a JSON or canonical output stays what it is.
fn replay_drawing(
    name: &str,
    text: &str,
    output: Output,
    dir: &std::path::Path,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<bool> {
    if !replay_text(name, text, output, out, err)? {
        return Ok(false);
    }
    // It replayed, so its tag names a hosted game and it reads again.
    let Some(hosted) = game_tag(text).and_then(|g| hosted::find(&g)) else {
        return Ok(false);
    };
    let replayed = Record::read_as(text, hosted)
        .ok()
        .and_then(|record| replay(&record).ok());
    let Some(replayed) = replayed else {
        return Ok(false);
    };
    std::fs::create_dir_all(dir)?;
    let positions = std::iter::once((replayed.start.as_str(), &[][..])).chain(
        replayed
            .orders
            .iter()
            .map(|o| (o.position.as_str(), o.events.as_slice())),
    );
    let mut said = Vec::new();
    for (number, (position, events)) in positions.enumerate() {
        let game = (hosted.from_position)(position).map_err(io::Error::other)?;
        crate::engine_tool::write_picture(
            &mut said,
            game.as_ref(),
            Seat::North,
            events,
            dir,
            number,
        )?;
    }
    if said.starts_with(b"picture none") {
        writeln!(
            err,
            "{name}: {}",
            String::from_utf8_lossy(&said)
                .lines()
                .next()
                .unwrap_or_default()
        )?;
        return Ok(false);
    }
    writeln!(
        err,
        "{} pictures in {}",
        replayed.orders.len() + 1,
        dir.display()
    )?;
    Ok(true)
}

/// Replays the record `text`, read from the file `name`.
pub fn replay_text(
    name: &str,
    text: &str,
    output: Output,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<bool> {
    if text.trim_start().starts_with('{') {
        // A JSON export is the replay's output, not its input.
        let what = match serde_json::from_str::<crate::record::JsonRecord>(text) {
            Ok(json) => format!("a JSON export of a {} game ({})", json.game, json.format),
            Err(_) => "JSON, not a game record".to_string(),
        };
        writeln!(
            err,
            "{name}: this file is {what}; replay reads the record text: \
             `orderly export <game>` without --json, or the record a HISTORY mail carries"
        )?;
        return Ok(false);
    }
    let Some(game) = game_tag(text) else {
        writeln!(
            err,
            "{name}: the record does not say which game it is: add a [Game \"{}\"] tag",
            GAMES[0]
        )?;
        return Ok(false);
    };
    if let Some(hosted) = hosted::find(&game) {
        return replay_as(name, text, hosted, output, out, err);
    }
    let (number, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with('[') && l.contains(&format!("\"{game}\"")))
        .map_or((1, ""), |(i, l)| (i + 1, l.trim()));
    writeln!(err, "{name}:{number}: {line}")?;
    writeln!(
        err,
        "Unknown game {game:?}: orderly replays {}.",
        GAMES.join(", ")
    )?;
    Ok(false)
}

/// `text` with a capital first letter and one full stop.
fn sentence(text: &str) -> String {
    match capitalised(text) {
        t if t.is_empty() => t,
        t => format!("{t}."),
    }
}

fn replay_as(
    name: &str,
    text: &str,
    game: &Hosted,
    output: Output,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<bool> {
    let record = match Record::read_as(text, game) {
        Ok(record) => record,
        Err(e) => {
            writeln!(err, "{name}:{}: {}", e.line, e.text.trim())?;
            writeln!(err, "{}", sentence(&e.problem))?;
            return Ok(false);
        }
    };
    let replayed = match replay(&record) {
        Ok(replayed) => replayed,
        Err(e) => {
            writeln!(err, "{name}:{}: {}", e.line, e.text.trim())?;
            match e.rule {
                Some(rule) => writeln!(err, "{} (rule {rule}).", capitalised(&e.reason))?,
                None => writeln!(err, "{}", sentence(&e.reason))?,
            }
            if !e.suggestions.is_empty() {
                writeln!(err, "Nearest legal orders:")?;
                for s in &e.suggestions {
                    writeln!(err, "  {s}")?;
                }
            }
            return Ok(false);
        }
    };
    match output {
        Output::Json => {
            let json =
                serde_json::to_string_pretty(&replayed.to_json()).map_err(io::Error::other)?;
            writeln!(out, "{json}")?;
        }
        Output::Canonical => write!(out, "{}", replayed.record)?,
        Output::Board => {
            let game = replayed.game.as_ref();
            let viewer = game.pending().map_or(Seat::North, |p| p.seat);
            let board = game.draw_board(viewer, &replayed.last_action, &BoardStyle::default());
            if !board.is_empty() {
                writeln!(out, "{}", board.trim_end())?;
                writeln!(out)?;
            }
            let record = &replayed.record;
            writeln!(
                out,
                "Replayed {} orders of {}.",
                replayed.orders.len(),
                record.tags.title
            )?;
            writeln!(out, "Position: {}", game.position())?;
            match replayed.finish.clone() {
                Some(finish) => {
                    let result = match finish.result {
                        GameResult::Win(seat) => format!("{} wins", record.seat_name(seat)),
                        GameResult::Draw => "Draw".to_string(),
                    };
                    let how = record.termination_text(Some(finish.termination));
                    writeln!(out, "Result: {result} ({how}).")?;
                }
                None => match game.pending() {
                    Some(p) => writeln!(
                        out,
                        "In progress: turn {}, {} to decide ({}).",
                        game.turn_number(),
                        record.seat_name(p.seat),
                        p.kind
                    )?,
                    None => writeln!(out, "In progress.")?,
                },
            }
            if replayed.rules_differ() {
                writeln!(
                    out,
                    "Note: the record was played under \"{}\"; this orderly plays \"{}\".",
                    record.tags.rules,
                    game.hosted().rules_version
                )?;
            }
        }
    }
    Ok(true)
}
