//! Reading a record from text: the syntax only. Whether the orders are
//! legal is [`super::replay`]'s business.

use crate::games::fair::{DrawInputs, InputDigest};
use crate::games::hosted::{self, Hosted};
use crate::games::{GameResult, Seat};

use super::tags::{clean_value, is_tag_name, ROSTER};
use super::write::{EntryLines, Layout, Line};
use super::{
    clean_comment, read_words as words, DrawEntry, EndMarker, Ending, Entry, Finish, ForcedNote,
    OrderEntry, Record, Tags, Termination,
};

/// Text that could not be read as a record: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ReadError {
    /// The line number, from 1.
    pub line: usize,
    /// The line as written (without its line break).
    pub text: String,
    /// What is wrong with it.
    pub problem: String,
}

/// The value of a record's `Game` tag, if it has one: which engine reads
/// the rest.
pub fn game_tag(text: &str) -> Option<String> {
    let lines: Vec<Line> = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| Line {
            number: i + 1,
            text: l.to_string(),
        })
        .collect();
    let mut at = 0;
    while let Some(line) = lines.get(at) {
        let t = line.text.trim();
        if t.is_empty() {
            at += 1;
            continue;
        }
        if !t.starts_with('[') {
            return None;
        }
        // A tag that does not read is skipped: reading the record says
        // what is wrong with it, in the words of the game it names.
        if let Ok((name, value)) = whole_tag(&lines, &mut at) {
            if name.eq_ignore_ascii_case("Game") {
                return Some(value);
            }
        }
    }
    None
}

/// Reads the tag that starts on line `at`, over as many lines as it takes
/// (a long tag is wrapped: its lines are joined with single spaces, up to
/// the one that ends with `]`); `at` is moved past it.
fn whole_tag(lines: &[Line], at: &mut usize) -> Result<(String, String), ReadError> {
    let first = &lines[*at];
    let mut whole = first.text.trim().to_string();
    *at += 1;
    while !whole.ends_with(']') {
        match lines.get(*at).map(|l| l.text.trim()) {
            Some(next) if !next.is_empty() && !next.starts_with('[') => {
                whole.push(' ');
                whole.push_str(next);
                *at += 1;
            }
            _ => {
                return Err(error(
                    first,
                    "a tag is written [Name \"value\"] on a line of its own (a long one \
                     over lines, the last ending with ])",
                ))
            }
        }
    }
    tag_line(&whole).map_err(|p| error(first, p))
}

/// Reads `[Name "value"]`.
fn tag_line(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("a tag is written [Name \"value\"] on a line of its own")?
        .trim();
    let (name, rest) = inner
        .split_once(|c: char| c.is_whitespace())
        .ok_or("a tag is written [Name \"value\"]: the value is missing")?;
    if !is_tag_name(name) {
        return Err(format!(
            "{name:?} is not a tag name: use letters, digits and _, starting with a letter"
        ));
    }
    let quoted = rest
        .trim()
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or("a tag's value is written between double quotes")?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                Some(other) => {
                    value.push('\\');
                    value.push(other);
                }
                None => value.push('\\'),
            },
            '"' => return Err("a double quote inside a value is written \\\"".to_string()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// What a result token or `Result` tag says: `None` for `*`.
fn result_named(game: &Hosted, text: &str) -> Result<Option<GameResult>, String> {
    let t = text.trim();
    if t == "*" {
        return Ok(None);
    }
    if t.eq_ignore_ascii_case("draw") {
        return Ok(Some(GameResult::Draw));
    }
    game.seat_named(t)
        .map(|seat| Some(GameResult::Win(seat)))
        .ok_or_else(|| {
            format!(
                "{t:?} is not a result: write {}, {}, Draw, or * while the game goes on",
                game.seat_name(Seat::North),
                game.seat_name(Seat::South)
            )
        })
}

/// Reads a `Termination` tag's text, in any case and spacing: the
/// service's endings, or the game's own ([`GameText::read_ending`]),
/// kept in the game's one wording.
pub(crate) fn termination_named(game: &Hosted, text: &str) -> Option<Termination> {
    let t = words(text).to_ascii_lowercase();
    match t.as_str() {
        "draw agreed" => return Some(Termination::DrawAgreed),
        "adjudicated by moderator" | "adjudicated" => return Some(Termination::Adjudicated),
        _ => {}
    }
    if let Some(seat) = t.strip_suffix(" resigned").and_then(|s| game.seat_named(s)) {
        return Some(Termination::Resigned(seat));
    }
    (game.read_ending)(&t).map(Termination::Rules)
}

/// The parts of a tag section as read, before they are checked together.
#[derive(Default)]
struct Seen {
    values: Vec<(String, String, Line)>,
}

impl Seen {
    fn get(&self, name: &str) -> Option<&(String, String, Line)> {
        self.values
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
    }
}

fn error(line: &Line, problem: impl Into<String>) -> ReadError {
    ReadError {
        line: line.number,
        text: line.text.clone(),
        problem: problem.into(),
    }
}

impl Record {
    /// Reads a record written in the format of docs/record-format.md, of
    /// the hosted game its `Game` tag names.
    pub fn read(text: &str) -> Result<Record, ReadError> {
        // A record without a known game is read as SQUARES', whose reading
        // then says what is wrong with its Game tag.
        let game = game_tag(text)
            .and_then(|name| hosted::find(&name))
            .unwrap_or(&hosted::HOSTED[0]);
        Record::read_as(text, game)
    }

    /// Reads a record of `game` written in the format of
    /// docs/record-format.md (a record of another game is an error).
    ///
    /// Reading is lenient where the meaning is plain (any case for tag names,
    /// seats and keywords, tags in any order, blank lines, CRLF, continuation
    /// lines without indentation, comments over several lines) and refuses
    /// everything else with the line and what is wrong. The orders are kept
    /// as written: [`super::replay`] checks them.
    pub fn read_as(text: &str, game: &Hosted) -> Result<Record, ReadError> {
        let text = text.trim_start_matches('\u{feff}');
        let lines: Vec<Line> = text
            .lines()
            .enumerate()
            .map(|(i, l)| Line {
                number: i + 1,
                text: l.trim_end().to_string(),
            })
            .collect();
        let mut at = 0;
        let mut seen = Seen::default();
        while let Some(line) = lines.get(at) {
            let t = line.text.trim();
            if t.is_empty() {
                at += 1;
                continue;
            }
            if !t.starts_with('[') {
                break;
            }
            let line = line.clone();
            let (name, value) = whole_tag(&lines, &mut at)?;
            if seen.get(&name).is_some() {
                return Err(error(&line, format!("the tag {name} is given twice")));
            }
            seen.values.push((name, value, line));
        }
        let mut record = tags_of(game, &seen, lines.first())?;
        let mut origin = Layout::default();
        for (name, _, line) in &seen.values {
            origin.tags.push((name.clone(), line.clone()));
        }
        let result_token = read_movetext(game, &lines[at..], &mut record, &mut origin)?;
        settle_result(
            game,
            &seen,
            result_token,
            &mut record,
            &mut origin,
            lines.last(),
        )?;
        // A game where chance decides who acts first has no such seat.
        if record.tags.first.is_none() && record.tags.position.is_none() && game.who_first.is_none()
        {
            // Lenient: a record that does not say who moved first shows it.
            record.tags.first = Some(
                record
                    .entries
                    .iter()
                    .find_map(|e| match e {
                        Entry::Order(o) if o.number.is_some() => Some(o.seat),
                        _ => None,
                    })
                    .unwrap_or(Seat::North),
            );
        }
        record.origin = Some(origin);
        Ok(record)
    }
}

/// Builds the tags from what was read, checking each value.
fn tags_of(game_of: &Hosted, seen: &Seen, first_line: Option<&Line>) -> Result<Record, ReadError> {
    let mut tags = Tags::new(game_of, None, None, None);
    let Some((_, game, line)) = seen.get("Game") else {
        let line = first_line.cloned().unwrap_or(Line {
            number: 1,
            text: String::new(),
        });
        return Err(error(
            &line,
            format!(
                "the record does not say which game it is: add [Game \"{}\"]",
                game_of.name
            ),
        ));
    };
    if !game.trim().eq_ignore_ascii_case(game_of.name) {
        return Err(error(
            line,
            format!("this is a record of {game:?}, not of {}", game_of.name),
        ));
    }
    for (name, value, line) in &seen.values {
        let value = clean_value(value);
        let seat = game_of.seat_named(name);
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        let unknown = value.is_empty() || value.chars().all(|c| matches!(c, '?' | '.' | '-'));
        if let Some(seat) = seat {
            tags.players[seat.index()] = if value.is_empty() {
                "?".to_string()
            } else {
                value
            };
        } else if is("Game") || is("Result") || is("Termination") {
            // Checked above, or together once the movetext is read.
        } else if is("Title") {
            tags.title = value;
        } else if is("Rules") {
            tags.rules = value;
        } else if is("GameId") {
            tags.game_id = if value.is_empty() { "?".into() } else { value };
        } else if is("Site") {
            tags.site = if value.is_empty() { "?".into() } else { value };
        } else if is("First") {
            let seat = game_of.seat_named(&value).ok_or_else(|| {
                error(
                    line,
                    format!(
                        "First names the seat that moved first: {} or {}",
                        game_of.seat_name(Seat::North),
                        game_of.seat_name(Seat::South)
                    ),
                )
            })?;
            tags.first = Some(seat);
        } else if is("Seed") {
            let seed = value.parse::<u64>().map_err(|_| {
                error(
                    line,
                    format!("{value:?} is not a seed: write a whole number"),
                )
            })?;
            tags.seed = Some(seed);
        } else if is("Started") || is("Ended") {
            let date = if unknown {
                None
            } else {
                Some(
                    value
                        .parse()
                        .map_err(|e: super::DateError| error(line, e.to_string()))?,
                )
            };
            if is("Started") {
                tags.started = date;
            } else {
                tags.ended = date;
            }
        } else if is("Position") {
            if value.is_empty() {
                return Err(error(line, "the Position tag is empty"));
            }
            tags.position = Some(value);
        } else if ROSTER
            .iter()
            .any(|r| matches!(*r, "North" | "South") && name.eq_ignore_ascii_case(r))
        {
            return Err(error(
                line,
                format!(
                    "this game's seats are {} and {}: name the player tags so",
                    game_of.seat_name(Seat::North),
                    game_of.seat_name(Seat::South)
                ),
            ));
        } else {
            tags.push_extra(name.clone(), value);
        }
    }
    Ok(Record {
        tags,
        entries: Vec::new(),
        origin: None,
    })
}

/// Reads the movetext into `record`, returning the result token's line and
/// value, if there is one.
fn read_movetext(
    game: &Hosted,
    lines: &[Line],
    record: &mut Record,
    origin: &mut Layout,
) -> Result<Option<(Line, Option<GameResult>)>, ReadError> {
    let mut result: Option<(Line, Option<GameResult>)> = None;
    // The draws written without their inputs, which the proof after the
    // result token gives: (their entry, their line).
    let mut without_inputs: Vec<(usize, Line)> = Vec::new();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        i += 1;
        let t = line.text.trim();
        if t.is_empty() {
            continue;
        }
        if let Some((token, _)) = &result {
            let proof = read_proof(&lines[i - 1..], token, record, origin)?;
            fill_inputs(&proof, &without_inputs, record)?;
            return Ok(result);
        }
        if let Some(rest) = t.strip_prefix('{') {
            let mut text = String::new();
            let mut current = rest.to_string();
            loop {
                if let Some((inside, after)) = current.split_once('}') {
                    text.push(' ');
                    text.push_str(inside);
                    if !after.trim().is_empty() {
                        return Err(error(
                            &lines[i - 1],
                            "a comment stands on lines of its own: nothing may follow its }",
                        ));
                    }
                    break;
                }
                text.push(' ');
                text.push_str(&current);
                match lines.get(i) {
                    Some(next) => {
                        current = next.text.clone();
                        i += 1;
                    }
                    None => return Err(error(line, "this comment is not closed with }")),
                }
            }
            push(record, origin, Entry::Comment(clean_comment(&text)), line);
            continue;
        }
        if t.starts_with('}') {
            return Err(error(line, "a } without its {"));
        }
        if let Some(note) = t.strip_prefix(';') {
            read_note(game, note, line, record, origin)?;
            continue;
        }
        if t.starts_with('[') {
            return Err(error(
                line,
                "tags come before the movetext, with no other line among them",
            ));
        }
        if !t.contains(char::is_whitespace) && result_named(game, t).is_ok() {
            let value = result_named(game, t).map_err(|p| error(line, p))?;
            result = Some((line.clone(), value));
            continue;
        }
        if let Some(draw) = draw_line(t) {
            let (number, order) = draw.map_err(|p| error(line, p))?;
            let mut digests = Vec::new();
            let mut input_lines = Vec::new();
            let mut next = i;
            while lines.get(next).is_some_and(|l| l.text.trim().is_empty()) {
                next += 1;
            }
            let inline = lines.get(next).is_some_and(|l| is_input_line(&l.text));
            if !inline {
                // Its inputs are in the proof after the result token.
                without_inputs.push((record.entries.len(), line.clone()));
                let none = InputDigest::of("");
                record.entries.push(Entry::Draw(DrawEntry {
                    inputs: DrawInputs {
                        number,
                        mail: none,
                        reply: none,
                        words: none,
                    },
                    order,
                }));
                origin.entries.push(EntryLines {
                    main: line.clone(),
                    forced: Vec::new(),
                });
                continue;
            }
            for name in DRAW_INPUTS {
                while lines.get(i).is_some_and(|l| l.text.trim().is_empty()) {
                    i += 1;
                }
                let Some(next) = lines.get(i) else {
                    return Err(error(line, format!("this draw's {name} line is missing")));
                };
                digests.push(draw_input(name, &next.text).map_err(|p| error(next, p))?);
                input_lines.push(next.clone());
                i += 1;
            }
            record.entries.push(Entry::Draw(DrawEntry {
                inputs: DrawInputs {
                    number,
                    mail: digests[0],
                    reply: digests[1],
                    words: digests[2],
                },
                order,
            }));
            origin.entries.push(EntryLines {
                main: line.clone(),
                forced: input_lines,
            });
            continue;
        }
        let entry = read_entry(game, t).map_err(|p| error(line, p))?;
        push(record, origin, entry, line);
    }
    fill_inputs(&[], &without_inputs, record)?;
    Ok(result)
}

/// Whether a line is one of a draw's inputs (`mail <hex>`, ...).
fn is_input_line(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|w| DRAW_INPUTS.iter().any(|n| n.eq_ignore_ascii_case(w)))
}

/// A run of draws the proof gives the inputs of: the first and last
/// number, the inputs, and the line that names them.
type InputGroup = (u32, u32, [InputDigest; 3], Line);

/// Reads the proof of the draws that follows the result token `token`
/// (docs/record-format.md): the `Commitment` and `Revealed` tags, each on
/// a line `Name <hex>`, and the draws' inputs by runs of numbers (`Draws
/// 1-7` or `Draw 8`, then its `mail`, `reply` and `words` lines). Remarks
/// and blank lines are dropped; anything else is an error.
fn read_proof(
    lines: &[Line],
    token: &Line,
    record: &mut Record,
    origin: &mut Layout,
) -> Result<Vec<InputGroup>, ReadError> {
    let mut groups: Vec<InputGroup> = Vec::new();
    let mut i = 0;
    while let Some(line) = lines.get(i) {
        i += 1;
        let t = line.text.trim();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        let mut words = t.split_whitespace();
        let (first, rest) = (words.next().unwrap_or(""), words.collect::<Vec<_>>());
        let tag = [super::COMMITMENT_TAG, super::REVEALED_TAG]
            .into_iter()
            .find(|n| n.eq_ignore_ascii_case(first));
        if let Some(name) = tag {
            let [value] = rest.as_slice() else {
                return Err(error(
                    line,
                    format!("{name} is followed by its 64 hex digits"),
                ));
            };
            if record.tags.get_extra(name).is_some() {
                return Err(error(line, format!("the tag {name} is given twice")));
            }
            record.tags.push_extra(name.to_string(), value.to_string());
            origin.tags.push((name.to_string(), line.clone()));
            continue;
        }
        let Some(range) = draws_range(first, &rest) else {
            return Err(error(
                line,
                format!(
                    "nothing may follow the result token on line {} but the proof of \
                     the draws: Commitment, Revealed, and Draws 1-7 with their inputs",
                    token.number
                ),
            ));
        };
        let (from, to) = range.map_err(|p| error(line, p))?;
        let mut digests = Vec::new();
        for name in DRAW_INPUTS {
            let Some(next) = lines.get(i) else {
                return Err(error(line, format!("this draw's {name} line is missing")));
            };
            digests.push(draw_input(name, &next.text).map_err(|p| error(next, p))?);
            i += 1;
        }
        if let Some((a, b, _, other)) = groups.iter().find(|(a, b, ..)| from <= *b && *a <= to) {
            return Err(error(
                line,
                format!(
                    "these draws share numbers with draws {a}-{b} on line {}",
                    other.number
                ),
            ));
        }
        groups.push((from, to, [digests[0], digests[1], digests[2]], line.clone()));
    }
    Ok(groups)
}

/// `Draws 1-7` or `Draw 8` (any case) read as its first and last number;
/// `None` when the line is not one.
fn draws_range(word: &str, rest: &[&str]) -> Option<Result<(u32, u32), String>> {
    if !(word.eq_ignore_ascii_case("Draws") || word.eq_ignore_ascii_case("Draw")) {
        return None;
    }
    let written = rest.join("");
    let (a, b) = written.split_once('-').unwrap_or((&written, &written));
    let number = |n: &str| n.trim().parse::<u32>().ok().filter(|n| *n > 0);
    Some(match (number(a), number(b)) {
        (Some(a), Some(b)) if a <= b => Ok((a, b)),
        _ => Err("the draws are named by their numbers: Draws 1-7, or Draw 8".to_string()),
    })
}

/// Gives each draw written without its inputs those of the proof's run
/// that holds its number; a draw no run holds is an error at its line.
fn fill_inputs(
    groups: &[InputGroup],
    without: &[(usize, Line)],
    record: &mut Record,
) -> Result<(), ReadError> {
    for (entry, line) in without {
        let Some(Entry::Draw(d)) = record.entries.get_mut(*entry) else {
            continue;
        };
        let n = d.inputs.number;
        let Some((_, _, [mail, reply, words], _)) =
            groups.iter().find(|(a, b, ..)| (*a..=*b).contains(&n))
        else {
            return Err(error(
                line,
                format!(
                    "draw {n} has no inputs: write its mail, reply and words lines \
                     below it, or in the proof of the draws after the result"
                ),
            ));
        };
        d.inputs.mail = *mail;
        d.inputs.reply = *reply;
        d.inputs.words = *words;
    }
    Ok(())
}

/// The public inputs that follow a draw's line, each on a line of its own.
const DRAW_INPUTS: [&str; 3] = ["mail", "reply", "words"];

/// A draw's line, `DRAW <number> <order>`, read as its number and order;
/// `None` when the line is not a draw's.
fn draw_line(t: &str) -> Option<Result<(u32, String), String>> {
    let (word, rest) = t.split_once(char::is_whitespace)?;
    if !word.eq_ignore_ascii_case("DRAW") {
        return None;
    }
    let rest = rest.trim_start();
    let (number, order) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if !number.bytes().all(|b| b.is_ascii_digit()) || number.is_empty() {
        // "DRAW AGREED" and the like are no draw of chance.
        return None;
    }
    Some(match number.parse::<u32>() {
        Ok(n) if n > 0 && !order.trim().is_empty() => Ok((n, words(order))),
        Ok(0) => Err("draws are numbered from 1".to_string()),
        Ok(_) => Err("a draw is written DRAW <number> <order>: the order is missing".into()),
        Err(_) => Err(format!("{number} is too large for a draw's number")),
    })
}

/// One input line of a draw: `<name> <64 hex digits>`.
fn draw_input(name: &str, text: &str) -> Result<InputDigest, String> {
    let mut parts = text.split_whitespace();
    let (Some(found), Some(hex), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!(
            "a draw's {name} line is written {name} <64 hex digits>"
        ));
    };
    if !found.eq_ignore_ascii_case(name) {
        return Err(format!(
            "a draw's inputs are mail, reply and words in that order: {name} comes here"
        ));
    }
    InputDigest::from_hex(hex).ok_or_else(|| format!("the {name} of a draw is 64 hex digits"))
}

fn push(record: &mut Record, origin: &mut Layout, entry: Entry, line: &Line) {
    record.entries.push(entry);
    origin.entries.push(EntryLines {
        main: line.clone(),
        forced: Vec::new(),
    });
}

/// A `;` line: a forced decision's note when it reads as one (attached to
/// the order before it), any other remark otherwise (dropped).
fn read_note(
    game: &Hosted,
    note: &str,
    line: &Line,
    record: &mut Record,
    origin: &mut Layout,
) -> Result<(), ReadError> {
    let note = words(note);
    let lower = note.to_ascii_lowercase();
    let Some(body) = lower
        .strip_suffix("(only choice)")
        .map(|b| note[..b.len()].trim())
    else {
        return Ok(());
    };
    let (seat, order) = body.split_once(' ').unwrap_or((body, ""));
    let seat = game.seat_named(seat).ok_or_else(|| {
        error(
            line,
            "a forced decision's note is written ; <seat> <order> (only choice)",
        )
    })?;
    if order.is_empty() {
        return Err(error(line, "this note does not say which order was forced"));
    }
    match (record.entries.last_mut(), origin.entries.last_mut()) {
        (Some(Entry::Order(o)), Some(lines)) => {
            o.forced.push(ForcedNote {
                seat,
                order: order.to_string(),
            });
            lines.forced.push(line.clone());
            Ok(())
        }
        _ => Err(error(
            line,
            "a forced decision's note follows the order that forced it",
        )),
    }
}

/// An order line (numbered or a continuation) or an end marker.
fn read_entry(game: &Hosted, t: &str) -> Result<Entry, String> {
    let seats = format!(
        "{} or {}",
        game.seat_name(Seat::North),
        game.seat_name(Seat::South)
    );
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let (number, rest) = if digits > 0 {
        let rest = t[digits..]
            .strip_prefix('.')
            .ok_or("a turn number is followed by a dot: 17. Blue ...")?;
        let n: u32 = t[..digits]
            .parse()
            .map_err(|_| format!("{} is too large for a turn number", &t[..digits]))?;
        (Some(n), words(rest.trim_start_matches('.')))
    } else {
        (None, words(t))
    };
    let upper = rest.to_ascii_uppercase();
    if let Some(number) = number {
        if upper == "DRAW AGREED" {
            return Ok(Entry::End(EndMarker {
                number,
                ending: Ending::DrawAgreed,
            }));
        }
        if let Some(who) = upper.strip_prefix("ADJUDICATED ") {
            let result = result_named(game, who)
                .ok()
                .flatten()
                .ok_or(format!("ADJUDICATED is followed by {seats} or Draw"))?;
            return Ok(Entry::End(EndMarker {
                number,
                ending: Ending::Adjudicated(result),
            }));
        }
    }
    let (seat, order) = rest.split_once(' ').unwrap_or((&rest, ""));
    let Some(seat) = game.seat_named(seat) else {
        return Err(match number {
            Some(_) => format!("the turn number is followed by the seat, {seats}, and its order"),
            None => format!(
                "cannot read this line: an order line starts with its turn number or, \
                 inside an action, with the seat ({seats})"
            ),
        });
    };
    if order.is_empty() {
        return Err("the order is missing after the seat".to_string());
    }
    if order.eq_ignore_ascii_case("RESIGNS") {
        return match number {
            Some(number) => Ok(Entry::End(EndMarker {
                number,
                ending: Ending::Resigned(seat),
            })),
            None => Err("a resignation is written with the turn number: 17. Gray RESIGNS".into()),
        };
    }
    Ok(Entry::Order(OrderEntry {
        number,
        seat,
        order: order.to_string(),
        forced: Vec::new(),
    }))
}

/// Checks the `Result` tag, the result token and the `Termination` tag
/// against each other, and sets the record's finish.
fn settle_result(
    game: &Hosted,
    seen: &Seen,
    token: Option<(Line, Option<GameResult>)>,
    record: &mut Record,
    origin: &mut Layout,
    last_line: Option<&Line>,
) -> Result<(), ReadError> {
    let tag = match seen.get("Result") {
        Some((_, value, line)) => Some((
            line.clone(),
            result_named(game, value).map_err(|p| error(line, p))?,
        )),
        None => None,
    };
    let result = match (&tag, &token) {
        (Some((_, tagged)), Some((line, written))) => {
            if tagged != written {
                return Err(error(
                    line,
                    format!(
                        "the result token says {}, the Result tag {}",
                        line.text.trim(),
                        seen.get("Result").map_or("", |(_, v, _)| v.as_str())
                    ),
                ));
            }
            *tagged
        }
        (Some((_, r)), None) | (None, Some((_, r))) => *r,
        (None, None) => {
            let line = last_line.cloned().unwrap_or(Line {
                number: 1,
                text: String::new(),
            });
            return Err(error(
                &line,
                "the record has no result: add [Result \"*\"] (or the winner, or Draw) \
                 and end the movetext with the same token",
            ));
        }
    };
    let termination = seen.get("Termination");
    record.tags.finish = match (result, termination) {
        (None, None) => None,
        (None, Some((_, value, line))) => {
            let v = words(value).to_ascii_lowercase();
            if !matches!(v.as_str(), "*" | "?" | "" | "in progress" | "unterminated") {
                return Err(error(
                    line,
                    "the Result tag says the game goes on (*), so the Termination is *",
                ));
            }
            None
        }
        (Some(_), None) => {
            let line = tag.map(|(l, _)| l).or(token.clone().map(|(l, _)| l));
            let line = line.unwrap_or(Line {
                number: 1,
                text: String::new(),
            });
            return Err(error(
                &line,
                "a finished game's record says how it ended: add a Termination tag",
            ));
        }
        (Some(result), Some((_, value, line))) => {
            let termination = termination_named(game, value).ok_or_else(|| {
                error(
                    line,
                    format!(
                        "{value:?} is not a termination: write reserve entered, \
                         points: {n} 10, {s} 7, no legal action, {s} resigned, \
                         draw agreed, or adjudicated by moderator",
                        n = game.seat_name(Seat::North),
                        s = game.seat_name(Seat::South)
                    ),
                )
            })?;
            Some(Finish {
                result,
                termination,
            })
        }
    };
    origin.result = token.map(|(line, _)| line);
    Ok(())
}
