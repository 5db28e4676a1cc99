//! The board file: reading it ([`Board::parse`]) with an error that names
//! the line of a mistake, and writing it back ([`Board::to_text`]).
//!
//! The format is meant to be typed by hand: an owner of the printed game
//! transcribes his board into it. Lines starting with `#` (and anything
//! after a `#`) are comments. Sections, each headed `[name]`:
//!
//! - `[terrain]`: 18 lines, north first, each the row number then 18
//!   letters ([`Terrain::letter`]), west to east.
//! - `[water]`: `sea NAME: squares` and `river NAME: squares in order`.
//! - `[passes]`: `NAME: two diagonal neighbours`.
//! - `[railroads]`: `NAME: squares in order`, each a step from the next.
//! - `[cities]`: `SQUARE NAME`.
//! - `[key cities]`: `SIDE: squares`.
//! - `[capitals]`: `SQUARE SIDE GARRISON`.
//! - `[start circles]`: `SQUARE SIDE COUNT KIND: what force it stands for`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::board::{Board, RECONSTRUCTION_NOTE};
use super::features::{Capital, City, Pass, RailLine, StartCircle, Water, WaterKind};
use super::side::{PieceKind, Side};
use super::square::{Square, SIDE_LEN, SQUARE_COUNT};
use super::terrain::Terrain;

/// A board file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct BoardError {
    /// The line of the mistake, counting from 1.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, BoardError> {
    Err(BoardError {
        line,
        message: message.into(),
    })
}

const SECTIONS: [&str; 8] = [
    "terrain",
    "water",
    "passes",
    "railroads",
    "cities",
    "key cities",
    "capitals",
    "start circles",
];

/// A section's header line and its content lines (number, text).
#[derive(Default)]
struct Section<'a> {
    header: usize,
    lines: Vec<(usize, &'a str)>,
}

fn square(line: usize, word: &str) -> Result<Square, BoardError> {
    match Square::parse(word) {
        Some(sq) => Ok(sq),
        None => fail(
            line,
            format!("{word:?} is not a square of the board: write a column A-R and a row 1-18"),
        ),
    }
}

fn side(line: usize, word: &str) -> Result<Side, BoardError> {
    match Side::parse(word) {
        Some(s) => Ok(s),
        None => fail(
            line,
            format!("{word:?} is not a side: write Union or Confederacy"),
        ),
    }
}

/// `NAME: squares`, the squares read.
fn named_squares(line: usize, text: &str) -> Result<(String, Vec<Square>), BoardError> {
    let Some((name, rest)) = text.split_once(':') else {
        return fail(line, "expected NAME: squares");
    };
    let name = name.trim();
    if name.is_empty() {
        return fail(line, "the name before the colon is missing");
    }
    let squares = rest
        .split_whitespace()
        .map(|w| square(line, w))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((name.to_string(), squares))
}

/// Squares in order, each a step from the one before, none twice.
fn chain(line: usize, what: &str, squares: &[Square]) -> Result<(), BoardError> {
    if squares.len() < 2 {
        return fail(line, format!("a {what} needs at least two squares"));
    }
    for w in squares.windows(2) {
        if !w[0].is_neighbour(w[1]) {
            return fail(
                line,
                format!(
                    "{} and {} are not neighbours: a {what} runs square by square",
                    w[0], w[1]
                ),
            );
        }
    }
    let mut seen = BTreeSet::new();
    for &sq in squares {
        if !seen.insert(sq) {
            return fail(line, format!("the {what} passes {sq} twice"));
        }
    }
    Ok(())
}

impl Board {
    /// Reads a board file, such as a transcription of the printed board.
    /// A mistake is refused with the number of its line.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let total = text.lines().count();
        let mut sections: BTreeMap<&str, Section> = BTreeMap::new();
        let mut current: Option<&str> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(head) = line.strip_prefix('[') {
                let Some(name) = head.strip_suffix(']') else {
                    return fail(n, "a section header is written [name]");
                };
                let name = name.trim().to_ascii_lowercase();
                let Some(&known) = SECTIONS.iter().find(|&&s| s == name) else {
                    return fail(
                        n,
                        format!(
                            "unknown section [{name}]; the sections are [{}]",
                            SECTIONS.join("], [")
                        ),
                    );
                };
                if sections.contains_key(known) {
                    return fail(n, format!("a second [{known}] section"));
                }
                sections.insert(
                    known,
                    Section {
                        header: n,
                        lines: Vec::new(),
                    },
                );
                current = Some(known);
                continue;
            }
            match current {
                Some(s) => sections.get_mut(s).expect("inserted").lines.push((n, line)),
                None => return fail(n, "text before the first [section] header"),
            }
        }
        for s in SECTIONS {
            if !sections.contains_key(s) {
                return fail(total, format!("the file has no [{s}] section"));
            }
        }
        let (terrain, row_lines) = read_terrain(&sections["terrain"])?;
        let cities = read_cities(&sections["cities"], &terrain)?;
        let is_city = |sq: Square| cities.iter().any(|c| c.square == sq);
        let waters = read_waters(&sections["water"], &terrain, &row_lines)?;
        let passes = read_passes(&sections["passes"])?;
        let lines = read_railroads(&sections["railroads"], &terrain)?;
        let key_cities = read_key_cities(&sections["key cities"], &is_city)?;
        let capitals = read_capitals(&sections["capitals"], &is_city)?;
        let water_at = |sq: Square| {
            terrain[sq.index()].holds_sea() || waters.iter().any(|w| w.squares.contains(&sq))
        };
        let start = read_start(&sections["start circles"], &terrain, &water_at)?;
        Ok(Board::assemble(
            terrain, waters, passes, lines, cities, key_cities, capitals, start,
        ))
    }

    /// The board as a board file, which [`Board::parse`] reads back to the
    /// same board.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for line in wrap(RECONSTRUCTION_NOTE, 74) {
            let _ = writeln!(out, "# {line}");
        }
        out.push_str("\n[terrain]\n");
        let letters: Vec<String> = Terrain::ALL
            .iter()
            .map(|t| t.letter().to_string())
            .collect();
        let _ = writeln!(out, "# letters: {}", letters.join(" "));
        for row in 0..SIDE_LEN {
            let cells: Vec<String> = (0..SIDE_LEN)
                .map(|col| {
                    self.terrain(Square::at(col, row).expect("on the board"))
                        .letter()
                        .to_string()
                })
                .collect();
            let _ = writeln!(out, "{:>2}   {}", row + 1, cells.join(" "));
        }
        out.push_str("\n[water]\n");
        for w in &self.waters {
            let _ = writeln!(out, "{} {}: {}", w.kind.word(), w.name, names(&w.squares));
        }
        out.push_str("\n[passes]\n");
        for p in &self.passes {
            let _ = writeln!(out, "{}: {}", p.name, names(&p.ends));
        }
        out.push_str("\n[railroads]\n");
        for l in &self.lines {
            let _ = writeln!(out, "{}: {}", l.name, names(&l.squares));
        }
        out.push_str("\n[cities]\n");
        for c in &self.cities {
            let _ = writeln!(out, "{} {}", c.square, c.name);
        }
        out.push_str("\n[key cities]\n");
        for side in Side::BOTH {
            let squares: Vec<Square> = self.key_cities(side).collect();
            if !squares.is_empty() {
                let _ = writeln!(out, "{side}: {}", names(&squares));
            }
        }
        out.push_str("\n[capitals]\n");
        for c in &self.capitals {
            let _ = writeln!(out, "{} {} {}", c.square, c.side, c.garrison);
        }
        out.push_str("\n[start circles]\n");
        for c in &self.start {
            let _ = writeln!(
                out,
                "{} {} {} {}: {}",
                c.square, c.side, c.count, c.kind, c.note
            );
        }
        out
    }
}

fn names(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

fn read_terrain(section: &Section) -> Result<(Vec<Terrain>, Vec<usize>), BoardError> {
    let mut terrain = Vec::with_capacity(SQUARE_COUNT);
    let mut row_lines = Vec::new();
    for &(n, text) in &section.lines {
        let expected = row_lines.len() + 1;
        if expected > usize::from(SIDE_LEN) {
            return fail(n, format!("the terrain has only {SIDE_LEN} rows"));
        }
        let (number, letters) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        if number.parse::<usize>().ok() != Some(expected) {
            return fail(
                n,
                format!("expected row {expected}, starting with its number, found {number:?}"),
            );
        }
        let letters: Vec<char> = letters.chars().filter(|c| !c.is_whitespace()).collect();
        if letters.len() != usize::from(SIDE_LEN) {
            return fail(
                n,
                format!(
                    "row {expected} has {} squares, not {SIDE_LEN}",
                    letters.len()
                ),
            );
        }
        for (col, &letter) in letters.iter().enumerate() {
            let Some(t) = Terrain::from_letter(letter) else {
                let sq = Square::at(col as u8, (expected - 1) as u8).expect("on the board");
                let known: Vec<String> = Terrain::ALL
                    .iter()
                    .map(|t| t.letter().to_string())
                    .collect();
                return fail(
                    n,
                    format!(
                        "unknown terrain letter {letter:?} at {sq}; the letters are {}",
                        known.join(" ")
                    ),
                );
            };
            terrain.push(t);
        }
        row_lines.push(n);
    }
    if row_lines.len() != usize::from(SIDE_LEN) {
        return fail(
            section.header,
            format!("the terrain has {} rows, not {SIDE_LEN}", row_lines.len()),
        );
    }
    Ok((terrain, row_lines))
}

fn read_cities(section: &Section, terrain: &[Terrain]) -> Result<Vec<City>, BoardError> {
    let mut cities: Vec<City> = Vec::new();
    for &(n, text) in &section.lines {
        let (word, name) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let sq = square(n, word)?;
        let name = name.trim();
        if name.is_empty() {
            return fail(n, "expected SQUARE NAME");
        }
        if !terrain[sq.index()].holds_land() {
            return fail(
                n,
                format!("{name} at {sq}: a city stands on land, and {sq} is water only"),
            );
        }
        if let Some(c) = cities.iter().find(|c| c.square == sq) {
            return fail(n, format!("{sq} is already {}: one city a square", c.name));
        }
        if cities.iter().any(|c| c.name.eq_ignore_ascii_case(name)) {
            return fail(n, format!("a second city named {name}"));
        }
        cities.push(City {
            square: sq,
            name: name.to_string(),
        });
    }
    Ok(cities)
}

fn read_waters(
    section: &Section,
    terrain: &[Terrain],
    row_lines: &[usize],
) -> Result<Vec<Water>, BoardError> {
    let mut waters = Vec::new();
    for &(n, text) in &section.lines {
        let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let kind = match word.to_ascii_lowercase().as_str() {
            "sea" => WaterKind::Sea,
            "river" => WaterKind::River,
            _ => return fail(n, format!("expected sea or river, found {word:?}")),
        };
        let (name, squares) = named_squares(n, rest)?;
        match kind {
            WaterKind::River => chain(n, "river", &squares)?,
            WaterKind::Sea => {
                if squares.is_empty() {
                    return fail(n, "a sea needs at least one square");
                }
                let mut seen = BTreeSet::new();
                for &sq in &squares {
                    if !seen.insert(sq) {
                        return fail(n, format!("{sq} is listed twice"));
                    }
                    if !terrain[sq.index()].holds_sea() {
                        return fail(n, format!("{sq} is in {name} but its terrain letter shows no sea (use ~, : or ;)"));
                    }
                }
            }
        }
        waters.push(Water {
            name,
            kind,
            squares,
        });
    }
    for sq in Square::all() {
        let t = terrain[sq.index()];
        let listed = |kind: Option<WaterKind>| {
            waters
                .iter()
                .any(|w| kind.is_none_or(|k| w.kind == k) && w.squares.contains(&sq))
        };
        if t.holds_sea() && t.holds_land() && !listed(Some(WaterKind::Sea)) {
            return fail(
                row_lines[usize::from(sq.row())],
                format!("{sq} is marked {t} (land and sea) but no sea in [water] lists it"),
            );
        }
        if !t.holds_land() && !listed(None) {
            return fail(
                row_lines[usize::from(sq.row())],
                format!("{sq} is water only but no sea or river in [water] lists it"),
            );
        }
    }
    Ok(waters)
}

fn read_passes(section: &Section) -> Result<Vec<Pass>, BoardError> {
    let mut passes: Vec<Pass> = Vec::new();
    for &(n, text) in &section.lines {
        let (name, squares) = named_squares(n, text)?;
        let [a, b] = squares[..] else {
            return fail(n, "a pass is two squares, diagonal neighbours");
        };
        if !a.is_diagonal_to(b) {
            return fail(
                n,
                format!("{a} and {b} are not diagonal neighbours: a pass is a diagonal step (P6)"),
            );
        }
        if passes.iter().any(|p| p.joins(a, b)) {
            return fail(n, format!("the pass {a} {b} is listed twice"));
        }
        passes.push(Pass { name, ends: [a, b] });
    }
    Ok(passes)
}

fn read_railroads(section: &Section, terrain: &[Terrain]) -> Result<Vec<RailLine>, BoardError> {
    let mut lines = Vec::new();
    for &(n, text) in &section.lines {
        let (name, squares) = named_squares(n, text)?;
        chain(n, "railroad", &squares)?;
        if let Some(sq) = squares.iter().find(|s| !terrain[s.index()].holds_land()) {
            return fail(n, format!("{sq} is water only: a railroad runs on land"));
        }
        lines.push(RailLine { name, squares });
    }
    Ok(lines)
}

fn read_key_cities(
    section: &Section,
    is_city: &dyn Fn(Square) -> bool,
) -> Result<Vec<(Side, Square)>, BoardError> {
    let mut keys: Vec<(Side, Square)> = Vec::new();
    for &(n, text) in &section.lines {
        let (word, squares) = named_squares(n, text)?;
        let side = side(n, &word)?;
        for sq in squares {
            if !is_city(sq) {
                return fail(n, format!("{sq} is not in [cities]: a key city is a city"));
            }
            if keys.iter().any(|&(_, s)| s == sq) {
                return fail(n, format!("{sq} is listed as a key city twice"));
            }
            keys.push((side, sq));
        }
    }
    keys.sort_by_key(|&(side, _)| side);
    Ok(keys)
}

fn read_capitals(
    section: &Section,
    is_city: &dyn Fn(Square) -> bool,
) -> Result<Vec<Capital>, BoardError> {
    let mut capitals: Vec<Capital> = Vec::new();
    for &(n, text) in &section.lines {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [sq, sd, garrison] = words[..] else {
            return fail(n, "expected SQUARE SIDE GARRISON, such as P6 Union 4");
        };
        let sq = square(n, sq)?;
        let side = side(n, sd)?;
        let garrison = match garrison.parse::<u8>() {
            Ok(g) if (1..=99).contains(&g) => g,
            _ => {
                return fail(
                    n,
                    format!("the garrison {garrison:?} is not a number from 1 to 99"),
                )
            }
        };
        if !is_city(sq) {
            return fail(n, format!("{sq} is not in [cities]: a capital is a city"));
        }
        if capitals.iter().any(|c| c.side == side) {
            return fail(n, format!("a second capital for the {side}"));
        }
        if capitals.iter().any(|c| c.square == sq) {
            return fail(n, format!("{sq} is already a capital"));
        }
        capitals.push(Capital {
            square: sq,
            side,
            garrison,
        });
    }
    if let Some(side) = Side::BOTH
        .into_iter()
        .find(|&s| capitals.iter().all(|c| c.side != s))
    {
        return fail(section.header, format!("the {side} has no capital"));
    }
    Ok(capitals)
}

fn read_start(
    section: &Section,
    terrain: &[Terrain],
    water_at: &dyn Fn(Square) -> bool,
) -> Result<Vec<StartCircle>, BoardError> {
    let mut circles: Vec<StartCircle> = Vec::new();
    for &(n, text) in &section.lines {
        let (head, note) = text.split_once(':').unwrap_or((text, ""));
        let words: Vec<&str> = head.split_whitespace().collect();
        let [sq, sd, count, kind] = words[..] else {
            return fail(n, "expected SQUARE SIDE COUNT KIND: note, such as G10 Union 3 infantry: Army of the Cumberland");
        };
        let sq = square(n, sq)?;
        let side = side(n, sd)?;
        let count = match count.parse::<u8>() {
            Ok(c) if c >= 1 => c,
            _ => return fail(n, format!("the count {count:?} is not a number of pieces")),
        };
        let Some(kind) = PieceKind::parse(kind) else {
            return fail(
                n,
                format!("{kind:?} is not a kind of piece: write infantry, cavalry or gunboat"),
            );
        };
        if kind.is_ground() && !terrain[sq.index()].holds_land() {
            return fail(n, format!("{sq} is water only: {kind} starts on land (P1)"));
        }
        if kind == PieceKind::Gunboat && !water_at(sq) {
            return fail(
                n,
                format!("{sq} holds no water: a gunboat starts on navigable water (P12)"),
            );
        }
        if let Some(other) = circles.iter().find(|c| c.square == sq && c.side != side) {
            return fail(
                n,
                format!("{sq} already has a start circle of the {}", other.side),
            );
        }
        if circles.iter().any(|c| c.square == sq && c.kind == kind) {
            return fail(n, format!("{sq} already has a start circle for {kind}"));
        }
        circles.push(StartCircle {
            square: sq,
            side,
            count,
            kind,
            note: note.trim().to_string(),
        });
    }
    for side in Side::BOTH {
        for kind in PieceKind::ALL {
            let placed: u32 = circles
                .iter()
                .filter(|c| c.side == side && c.kind == kind)
                .map(|c| u32::from(c.count))
                .sum();
            if placed != u32::from(kind.in_box(side)) {
                return fail(
                    section.header,
                    format!(
                        "the {side}'s start circles hold {placed} {kind}; the box has {}",
                        kind.in_box(side)
                    ),
                );
            }
        }
    }
    Ok(circles)
}
