//! The ASCII board (`Game::draw_board`): golden files for a range of
//! positions, each drawn from both seats, and properties of the drawing of
//! random positions reached by play.
//!
//! The golden files live in `tests/data/<game>/boards/`, one per position
//! and seat: `squares/boards/<name>-blue.txt` and `-gray.txt`;
//! `napoleonic/boards/nap-<name>-british.txt` and `-french.txt`. `UPDATE_GOLDEN=1 cargo test --test
//! board_drawing` rewrites them instead of comparing; read every rewritten
//! file before committing it.

#[path = "../common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::squares::*;
use orderly::games::squares::notation::{Notation, CIVIL_WAR, NAPOLEONIC};
use orderly::games::squares::DecisionKind;
use orderly::games::squares::{
    board, Event, NapEvent, Napoleonic, Side, Space, Squares, UnitId, UnitKind, Variant,
};
use orderly::games::{Game, GameOptions, GameText, Seat};
use proptest::prelude::*;

// ----- what each game writes ---------------------------------------------------

/// How a game's drawing names things, written out here rather than taken
/// from the drawing code: the board's unit abbreviations with each army's
/// count (squares-board.md; N2 for the variant), and the notation of sides
/// and codes.
struct Words {
    /// Abbreviation, type, units of that type in an army.
    kinds: &'static [(&'static str, UnitKind, u32)],
    notation: &'static Notation,
    variant: Variant,
}

const CIVIL_WAR_WORDS: Words = Words {
    kinds: &[
        ("inf", UnitKind::Infantry, 9),
        ("art", UnitKind::Artillery, 3),
        ("cav", UnitKind::Cavalry, 4),
    ],
    notation: &CIVIL_WAR,
    variant: Variant::CivilWar,
};

const NAPOLEONIC_WORDS: Words = Words {
    kinds: &[
        ("inf", UnitKind::Infantry, 6),
        ("gua", UnitKind::Guard, 1),
        ("li", UnitKind::Light, 2),
        ("art", UnitKind::Artillery, 2),
        ("hb", UnitKind::HorseBattery, 1),
        ("cav", UnitKind::Cavalry, 3),
        ("hc", UnitKind::HeavyCavalry, 1),
    ],
    notation: &NAPOLEONIC,
    variant: Variant::Napoleonic,
};

impl Words {
    /// The position of `kind` in this game's list.
    fn index(&self, kind: UnitKind) -> Option<usize> {
        self.kinds.iter().position(|(_, k, _)| *k == kind)
    }

    fn kind_of(&self, word: &str) -> Option<UnitKind> {
        self.kinds.iter().find(|(w, _, _)| *w == word).map(|k| k.1)
    }

    /// The side named by the first letter of its name (B, G; B, F).
    fn side_of_letter(&self, letter: u8) -> Option<usize> {
        self.notation
            .sides
            .iter()
            .position(|name| name.as_bytes()[0] == letter)
    }

    fn side_name(&self, side: Side) -> &'static str {
        self.notation.sides[side.index()]
    }

    /// The square a word of the drawing writes, in this game's codes.
    fn square(&self, word: &str) -> Option<Space> {
        Space::all().find(|s| self.notation.code(s.code()) == word)
    }
}

/// Lines of a drawing, checked for what every mail needs: at most 76
/// columns, printable ASCII, no tabs, no trailing blanks.
fn check_lines(text: &str) -> Result<(), String> {
    if !text.ends_with('\n') {
        return Err("the drawing does not end with a newline".into());
    }
    for (i, line) in text.lines().enumerate() {
        if line.len() > 76 {
            return Err(format!("line {i} has {} columns: {line:?}", line.len()));
        }
        if let Some(c) = line.chars().find(|c| !(c.is_ascii_graphic() || *c == ' ')) {
            return Err(format!("line {i} holds {c:?}: {line:?}"));
        }
        if line.ends_with(' ') {
            return Err(format!("line {i} ends in a blank: {line:?}"));
        }
    }
    Ok(())
}

/// The golden file `name` of `game` (its `Game::NAME`, the folder of its
/// test data).
fn golden_path(game: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(game)
        .join("boards")
        .join(format!("{name}.txt"))
}

/// Compares `text` with `game`'s golden file `name`, or rewrites the file
/// when `UPDATE_GOLDEN=1`.
fn golden(game: &str, name: &str, text: &str) {
    if let Err(e) = check_lines(text) {
        panic!("{name}: {e}\n{text}");
    }
    let path = golden_path(game, name);
    if std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(&path, text).expect("golden file written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    if expected != text {
        let first = expected
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(text.lines().count()));
        panic!(
            "{name} differs from {} from line {first} on \
             (UPDATE_GOLDEN=1 rewrites it):\n{text}",
            path.display()
        );
    }
}

/// Both seats' drawings of `game` against their golden files
/// `<name>-blue.txt` and `<name>-gray.txt`.
fn both_seats(name: &str, game: &Squares, last: &[Event]) {
    for (seat, suffix) in [(Seat::North, "blue"), (Seat::South, "gray")] {
        let text = game.draw_board(seat, last);
        golden(Squares::NAME, &format!("{name}-{suffix}"), &text);
        check_drawing(game, &text).unwrap_or_else(|e| panic!("{name}-{suffix}: {e}\n{text}"));
    }
    check_rotation(game, last).unwrap_or_else(|e| panic!("{name}: {e}"));
}

fn position(text: &str) -> Squares {
    Squares::from_position(text).unwrap_or_else(|e| panic!("{text}: {}", e.message))
}

/// Plays `orders` on `game`; returns the events of them all.
fn play_orders(game: &mut Squares, orders: &[&str]) -> Vec<Event> {
    let mut events = Vec::new();
    for text in orders {
        let order = game
            .parse_order(text)
            .unwrap_or_else(|e| panic!("{text}: {}", e.message));
        events.extend(
            game.apply(&order)
                .unwrap_or_else(|r| panic!("{game}: {text} refused: {r}")),
        );
    }
    events
}

fn pending(game: &Squares) -> Option<(Seat, DecisionKind)> {
    game.pending().map(|p| (p.seat, p.kind))
}

// ----- reading a drawing back --------------------------------------------------

/// The board part of a drawing: the lines from its top frame to its bottom
/// frame.
fn board_part(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.starts_with('+'))
        .take_while(|l| l.starts_with('+') || l.starts_with('|'))
        .collect()
}

/// The words of a line: runs of letters and digits.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// Units drawn on board squares, by [side][kind index]: `B inf` or `Binf`,
/// marks after it.
fn board_units(w: &Words, lines: &[&str]) -> [[u32; 7]; 2] {
    let mut out = [[0; 7]; 2];
    for line in lines {
        let ws: Vec<&str> = words(line).collect();
        for (i, word) in ws.iter().enumerate() {
            let Some(side) = word.as_bytes().first().and_then(|&c| w.side_of_letter(c)) else {
                continue;
            };
            let kind = match word.len() {
                1 => ws.get(i + 1).and_then(|k| w.kind_of(k)),
                _ => w.kind_of(&word[1..]),
            };
            if let Some(k) = kind.and_then(|k| w.index(k)) {
                out[side][k] += 1;
            }
        }
    }
    out
}

/// A reserve's contents as its first line states them, by kind index.
fn reserve_units(w: &Words, lines: &[&str], side: Side) -> Result<[u32; 7], String> {
    let label = format!("{} reserve:", w.side_name(side));
    let line = lines
        .iter()
        .find(|l| l.contains(&label))
        .ok_or(format!("no line with {label:?}"))?;
    let rest = line.split(&label).nth(1).unwrap_or("");
    let rest = rest.trim_end_matches(['|', ' ']).trim();
    let mut out = [0; 7];
    if rest == "empty" {
        return Ok(out);
    }
    let ws: Vec<&str> = rest.split_whitespace().collect();
    for pair in ws.chunks(2) {
        let [n, k] = pair else {
            return Err(format!("odd reserve list {rest:?}"));
        };
        let n: u32 = n.parse().map_err(|_| format!("bad count in {rest:?}"))?;
        let kind = w.kind_of(k).ok_or(format!("bad kind in {rest:?}"))?;
        out[w.index(kind).unwrap_or(0)] += n;
    }
    Ok(out)
}

/// What every drawing of `game` must show: each code once on the board,
/// the units where the game has them, the reserves' contents, nothing else.
fn check_drawing(game: &Squares, text: &str) -> Result<(), String> {
    check_drawing_in(&CIVIL_WAR_WORDS, game, text)
}

/// [`check_drawing`] for a game written in `w`'s words and codes.
fn check_drawing_in(w: &Words, game: &Squares, text: &str) -> Result<(), String> {
    check_lines(text)?;
    let lines = board_part(text);
    if lines.len() != 25 {
        return Err(format!("the board has {} lines, not 25", lines.len()));
    }
    let mut seen: BTreeMap<Space, usize> = BTreeMap::new();
    for line in &lines {
        for word in words(line) {
            if let Some(s) = w.square(word) {
                *seen.entry(s).or_default() += 1;
            }
        }
    }
    for s in Space::all() {
        if seen.get(&s) != Some(&1) {
            return Err(format!(
                "{} appears {:?} times",
                w.notation.code(s.code()),
                seen.get(&s)
            ));
        }
    }
    let drawn = board_units(w, &lines);
    for side in Side::BOTH {
        let reserve = reserve_units(w, &lines, side)?;
        for (k, &(_, kind, army)) in w.kinds.iter().enumerate() {
            let on_board = Space::all()
                .filter_map(|s| game.unit_at(s))
                .filter(|u| u.side() == side && u.kind() == kind)
                .count() as u32;
            let in_reserve = game
                .reserve_units(side)
                .filter(|u| u.kind() == kind)
                .count() as u32;
            // A unit that entered the empty enemy reserve (R13) is drawn
            // in that reserve's frame.
            let invaders = Space::all()
                .filter(|&s| board().reserve_owner(s) == Some(side.opponent()))
                .map(|s| {
                    UnitId::of_side(w.variant, side)
                        .filter(|&u| u.kind() == kind && game.location(u) == Some(s))
                        .count() as u32
                })
                .sum::<u32>();
            let alive = army - game.lost(side, kind);
            let drawn_here = drawn[side.index()][k];
            if drawn_here != on_board + invaders || reserve[k] != in_reserve {
                return Err(format!(
                    "{side:?} {kind}: drawn {drawn_here} on the board and {} in reserve, \
                     the game has {on_board} (and {invaders} in the enemy reserve) and {in_reserve}",
                    reserve[k]
                ));
            }
            if drawn_here + reserve[k] != alive {
                return Err(format!(
                    "{side:?} {kind}: {} drawn, {alive} not eliminated",
                    drawn_here + reserve[k]
                ));
            }
        }
    }
    Ok(())
}

/// A character grid of the board part, padded to a rectangle.
fn grid(lines: &[&str]) -> Vec<Vec<u8>> {
    let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
    lines
        .iter()
        .map(|l| {
            let mut row = l.as_bytes().to_vec();
            row.resize(width, b' ');
            row
        })
        .collect()
}

/// The frame of a board grid: `|`, `-` and the `+` where edges meet (a `+`
/// beside a `-` or under or over a `|`; a `+` inside a space is a mark).
fn frame(g: &[Vec<u8>]) -> Vec<Vec<bool>> {
    let at = |l: usize, c: usize| g.get(l).and_then(|r| r.get(c)).copied();
    (0..g.len())
        .map(|l| {
            (0..g[l].len())
                .map(|c| match g[l][c] {
                    b'|' | b'-' => true,
                    b'+' => {
                        c.checked_sub(1).and_then(|c| at(l, c)) == Some(b'-')
                            || at(l, c + 1) == Some(b'-')
                            || l.checked_sub(1).and_then(|l| at(l, c)) == Some(b'|')
                            || at(l + 1, c) == Some(b'|')
                    }
                    _ => false,
                })
                .collect()
        })
        .collect()
}

/// The cells of the space around (`line`, `col`), by flooding the frame.
fn region(walls: &[Vec<bool>], line: usize, col: usize) -> Vec<(usize, usize)> {
    let mut seen = vec![vec![false; walls[0].len()]; walls.len()];
    let mut stack = vec![(line, col)];
    let mut out = Vec::new();
    while let Some((l, c)) = stack.pop() {
        if walls[l][c] || seen[l][c] {
            continue;
        }
        seen[l][c] = true;
        out.push((l, c));
        stack.extend([(l - 1, c), (l + 1, c), (l, c - 1), (l, c + 1)]);
    }
    out.sort();
    out
}

/// Where each code starts on a board grid.
fn code_cells(w: &Words, g: &[Vec<u8>]) -> BTreeMap<String, (usize, usize)> {
    let mut out = BTreeMap::new();
    for (l, row) in g.iter().enumerate() {
        let text = String::from_utf8_lossy(row);
        let mut c = 0;
        for piece in text.split(|ch: char| !ch.is_ascii_alphanumeric()) {
            if w.square(piece).is_some() {
                out.insert(piece.to_string(), (l, c));
            }
            c += piece.len() + 1;
        }
    }
    out
}

/// The text inside a region, line by line.
fn region_text(g: &[Vec<u8>], cells: &[(usize, usize)]) -> Vec<String> {
    let mut rows: BTreeMap<usize, String> = BTreeMap::new();
    for &(l, c) in cells {
        rows.entry(l).or_default().push(g[l][c] as char);
    }
    rows.into_values().collect()
}

/// Blue's view is Gray's turned 180 degrees: the frame exactly, and each
/// space, found by its code, is the turned space and holds the same text.
fn check_rotation(game: &Squares, last: &[Event]) -> Result<(), String> {
    let blue_text = game.draw_board(Seat::North, last);
    let gray_text = game.draw_board(Seat::South, last);
    check_turned(&CIVIL_WAR_WORDS, &blue_text, &gray_text)
}

/// The North seat's drawing is the South seat's turned (see
/// [`check_rotation`]), for drawings in `w`'s codes.
fn check_turned(game_words: &Words, blue_text: &str, gray_text: &str) -> Result<(), String> {
    let blue = grid(&board_part(blue_text));
    let gray = grid(&board_part(gray_text));
    let (fb, fg) = (frame(&blue), frame(&gray));
    let (h, w) = (fg.len(), fg[0].len());
    if fb.len() != h || fb[0].len() != w {
        return Err("the views differ in size".into());
    }
    for l in 0..h {
        for c in 0..w {
            if fb[l][c] != fg[h - 1 - l][w - 1 - c] {
                return Err(format!("frames differ at line {l} column {c}"));
            }
        }
    }
    let (cb, cg) = (code_cells(game_words, &blue), code_cells(game_words, &gray));
    if cb.len() != 32 || cg.len() != 32 {
        return Err(format!("codes found: {} and {}", cb.len(), cg.len()));
    }
    for (code, &(l, c)) in &cg {
        let in_gray = region(&fg, l, c);
        let (lb, cbl) = cb[code];
        let in_blue = region(&fb, lb, cbl);
        let mut turned: Vec<(usize, usize)> = in_gray
            .iter()
            .map(|&(l, c)| (h - 1 - l, w - 1 - c))
            .collect();
        turned.sort();
        if turned != in_blue {
            return Err(format!("{code} is not in the turned space"));
        }
        if region_text(&gray, &in_gray) != region_text(&blue, &in_blue) {
            return Err(format!("{code} holds different text in the two views"));
        }
    }
    Ok(())
}

// ----- golden files ---------------------------------------------------------------

#[test]
fn opening() {
    let game = Squares::new(&GameOptions::default());
    assert_eq!(pending(&game), Some((Seat::North, DecisionKind::Turn)));
    both_seats("opening", &game, &[]);
}

#[test]
fn first_move_marked() {
    let mut game = Squares::new(&GameOptions::default());
    let last = play_orders(&mut game, &["MOVE CAVALRY BR B3C"]);
    both_seats("first-move", &game, &last);
}

#[test]
fn crowded_front() {
    // Both first rows full, every forest held, a few units behind.
    let game = position("4I1A1C/3/1A1C/IC/IAICI/Ia/icaii/ac/i2i/3/4i2c - g - 31 -");
    both_seats("crowded-front", &game, &[]);
}

#[test]
fn runs_and_rest() {
    // Runs (R6) and rest after a retreat (R21), on the board and in a reserve.
    let mut game = position("7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b - 20 -");
    play_orders(
        &mut game,
        &[
            "ATTACK B1C G1C SUPPORT B1CL",
            "STAND",
            "OPTION 5",
            "MOVE INFANTRY GR G3C",
        ],
    );
    let last = play_orders(&mut game, &["ATTACK B1C G1C", "RETREAT GR"]);
    assert_eq!(pending(&game), Some((Seat::South, DecisionKind::Turn)));
    both_seats("runs-and-rest", &game, &last);
}

#[test]
fn marks_on_board() {
    // Blue's B2CR infantry moved on its last two turns (R6); the one in
    // B1CR retreated during Gray's turn and sits this one out (R21).
    let game = position("7I3A4C/3/1I++2/2/1I_3/2/2i+2/2/4/3/8i3a4c - b - 26 -");
    both_seats("marks-on-board", &game, &[]);
}

#[test]
fn attack_defence() {
    let mut game = position("6I3A4C/3/1I2/2/2II1/2/2i2/2/4/3/8i3a4c - b - 20 -");
    let last = play_orders(&mut game, &["ATTACK B1C G1C SUPPORT B1CL"]);
    assert_eq!(pending(&game), Some((Seat::South, DecisionKind::Defence)));
    both_seats("attack-defence", &game, &last);
}

#[test]
fn attack_flank() {
    // The supporting unit in G1L is closer to Gray's reserve than the
    // defender in WF: a flank attack (R18), so it may not stand, and it may
    // retreat to its reserve or into SWF (R22).
    let mut game = position("7I3A4C/3/4/2/I4/i1/I4/2/4/3/8i3a4c - b - 20 -");
    let last = play_orders(&mut game, &["ATTACK B1R WF SUPPORT G1L"]);
    assert_eq!(pending(&game), Some((Seat::South, DecisionKind::Defence)));
    both_seats("attack-flank", &game, &last);
}

#[test]
fn attack_option() {
    let mut game = position("7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b - 20 -");
    play_orders(&mut game, &["ATTACK B1C G1C SUPPORT B1CL"]);
    let last = play_orders(&mut game, &["STAND"]);
    assert_eq!(
        pending(&game),
        Some((Seat::North, DecisionKind::AttackOption))
    );
    both_seats("attack-option", &game, &last);
}

#[test]
fn attack_second_chance() {
    // Option 1 with supporting artillery: the defender may still retreat.
    let mut game = position("8I2A4C/3/4/2/2IA1/2/2i2/2/4/3/8i3a4c - b - 20 -");
    play_orders(&mut game, &["ATTACK B1C G1C SUPPORT B1CL", "STAND"]);
    let last = play_orders(&mut game, &["OPTION 1"]);
    assert_eq!(
        pending(&game),
        Some((Seat::South, DecisionKind::SecondChance))
    );
    both_seats("attack-second-chance", &game, &last);
}

#[test]
fn attack_advance() {
    let mut game = position("7I3A4C/3/4/2/2II1/2/2i2/2/4/3/8i3a4c - b - 20 -");
    play_orders(&mut game, &["ATTACK B1C G1C SUPPORT B1CL", "STAND"]);
    let last = play_orders(&mut game, &["OPTION 2"]);
    assert_eq!(pending(&game), Some((Seat::North, DecisionKind::Advance)));
    both_seats("attack-advance", &game, &last);
}

#[test]
fn attack_reserve_loss() {
    let mut game = position("9I3A3C/3/4/2/5/2/5/2/4/1C1/8i3a4c i b - 40 -");
    let last = play_orders(&mut game, &["ATTACK G3C GR"]);
    assert_eq!(
        pending(&game),
        Some((Seat::South, DecisionKind::ReserveLoss))
    );
    both_seats("attack-reserve-loss", &game, &last);
}

#[test]
fn double_turn() {
    let mut game = Squares::new(&GameOptions::default());
    play_orders(&mut game, &["PASS"]);
    let last = play_orders(&mut game, &["MOVE INFANTRY GR G3C"]);
    assert_eq!(
        pending(&game),
        Some((Seat::North, DecisionKind::DoubleTurn { half: 1 }))
    );
    both_seats("double-turn-first", &game, &last);
    let last = play_orders(&mut game, &["MOVE CAVALRY BR B3L"]);
    assert_eq!(
        pending(&game),
        Some((Seat::North, DecisionKind::DoubleTurn { half: 2 }))
    );
    both_seats("double-turn-second", &game, &last);
}

#[test]
fn finished_on_points() {
    // Blue has lost 9 points' worth; Gray's option 2 takes the tenth.
    let mut game = position("3I1A4C/3/4/2/5/2/2I2/2/1ii1/3/7i3a4c 5I2A g - 80 -");
    play_orders(&mut game, &["ATTACK G2CL G1C SUPPORT G2CR", "STAND"]);
    let last = play_orders(&mut game, &["OPTION 2"]);
    assert!(game.outcome().is_some());
    both_seats("finished-points", &game, &last);
}

#[test]
fn finished_in_the_reserve() {
    let mut game = position("9I3A3C/3/c3/ca/iiaii/ic/5/2/4/1C1/- 4i1a1c b - 60 -");
    let last = play_orders(&mut game, &["MOVE G3C GR"]);
    assert!(game.outcome().is_some());
    both_seats("finished-reserve", &game, &last);
}

// ----- the Napoleonic variant -------------------------------------------------------

fn nap_position(text: &str) -> Napoleonic {
    let text = format!("napoleonic {text}");
    Napoleonic::from_position(&text).unwrap_or_else(|e| panic!("{text}: {}", e.message))
}

/// Plays `orders`, in the variant's notation, on `game`; returns the events
/// of them all.
fn nap_play_orders(game: &mut Napoleonic, orders: &[&str]) -> Vec<NapEvent> {
    let mut events = Vec::new();
    for text in orders {
        let order = game
            .parse_order(text)
            .unwrap_or_else(|e| panic!("{text}: {}", e.message));
        events.extend(
            game.apply(&order)
                .unwrap_or_else(|r| panic!("{game}: {text} refused: {r}")),
        );
    }
    events
}

/// Whitespace squeezed, so that a wrapped paragraph reads as one line.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a drawing of the variant never holds: a code of the Civil War's
/// south half (the French half is written with F, N1) or a Civil War side.
fn no_civil_war_words(text: &str) -> Result<(), String> {
    for word in words(text) {
        let g_code = Space::all().any(|s| s.code() == word && word.starts_with('G'));
        if g_code || word == "Blue" || word == "Gray" {
            return Err(format!("the variant's drawing holds {word:?}"));
        }
    }
    Ok(())
}

/// Both seats' drawings of a variant position against their golden files
/// `nap-<name>-british.txt` and `nap-<name>-french.txt`, checked as every
/// drawing is.
fn nap_both_seats(name: &str, game: &Napoleonic, last: &[NapEvent]) {
    let mut texts = Vec::new();
    for (seat, suffix) in [(Seat::North, "british"), (Seat::South, "french")] {
        let text = game.draw_board(seat, last);
        golden(Napoleonic::NAME, &format!("nap-{name}-{suffix}"), &text);
        check_drawing_in(&NAPOLEONIC_WORDS, game.squares(), &text)
            .and_then(|()| no_civil_war_words(&text))
            .unwrap_or_else(|e| panic!("nap-{name}-{suffix}: {e}\n{text}"));
        texts.push(text);
    }
    check_turned(&NAPOLEONIC_WORDS, &texts[0], &texts[1])
        .unwrap_or_else(|e| panic!("nap-{name}: {e}"));
}

fn nap_pending(game: &Napoleonic) -> Option<(Seat, DecisionKind)> {
    game.pending().map(|p| (p.seat, p.kind))
}

#[test]
fn nap_opening() {
    let game = Napoleonic::new(&GameOptions::default());
    nap_both_seats("opening", &game, &[]);
    let text = game.draw_board(Seat::North, &[]);
    let first = text.lines().next().unwrap_or("");
    assert_eq!(
        first,
        "SQUARES Napoleonic - the British view (British reserve BR at the bottom)"
    );
    // docs/napoleonic-design.md section 3: the key and the reserve line.
    assert!(
        squeezed(&text).contains(
            "B British, F French; inf infantry, gua guard, li light infantry, \
             art artillery, hb horse battery, cav cavalry, hc heavy cavalry."
        ),
        "{text}"
    );
    assert!(text.contains("BR  British reserve: 6 inf 1 gua 2 li 2 art 1 hb 3 cav 1 hc"));
    assert!(text.contains("FR  French reserve: 6 inf 1 gua 2 li 2 art 1 hb 3 cav 1 hc"));
    assert!(text.contains("Score: British 0, French 0 (10 points win, N22, R27)."));
    assert!(text.contains("Turn 1: British to move, attack or pass."));
}

#[test]
fn n24_board_legend() {
    // P56 of docs/napoleonic-design.md, drawn for the British.
    let game = nap_position("6IG2L2AH3C/3/4/2/2K2/2/2k2/2/4/3/g2l2ahc 6i2c b - 20 -");
    let text = game.draw_board(Seat::North, &[]);
    assert!(squeezed(&text).contains("B British, F French;"), "{text}");
    assert!(text.contains("Score: British 8, French 0"), "{text}");
    assert!(
        text.contains("Lost: British none; French 6 inf 2 cav."),
        "{text}"
    );
    assert!(text.contains("F1C") && !text.contains("G1C"), "{text}");
}

#[test]
fn nap_grand_battery_option() {
    // P41: artillery in B1C supported by artillery in B1CL against an
    // infantry that stands: the Grand Battery list (N18).
    let mut game = nap_position("6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -");
    nap_play_orders(&mut game, &["ATTACK B1C F1C SUPPORT B1CL"]);
    let last = nap_play_orders(&mut game, &["STAND"]);
    assert_eq!(
        nap_pending(&game),
        Some((Seat::North, DecisionKind::AttackOption))
    );
    nap_both_seats("grand-battery-option", &game, &last);
    let text = squeezed(&game.draw_board(Seat::North, &last));
    assert!(
        text.contains("British attacks F1C from B1C, supported from B1CL (a Grand Battery, N18)."),
        "{text}"
    );
    assert!(
        text.contains(
            "British to choose an option against the infantry standing in F1C \
             (Grand Battery, N18): GB1, GB2 or GB3."
        ),
        "{text}"
    );
}

#[test]
fn nap_grand_battery_second_chance() {
    // P41, GB1: the supporting artillery retreats (forced), and the
    // infantry has its second chance (N18, N21).
    let mut game = nap_position("6IG2LH3CK/3/4/2/2AA1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -");
    nap_play_orders(&mut game, &["ATTACK B1C F1C SUPPORT B1CL", "STAND"]);
    let last = nap_play_orders(&mut game, &["OPTION GB1"]);
    assert_eq!(
        nap_pending(&game),
        Some((Seat::South, DecisionKind::SecondChance))
    );
    nap_both_seats("grand-battery-second-chance", &game, &last);
    let text = squeezed(&game.draw_board(Seat::South, &last));
    assert!(
        text.contains("(second chance, option GB1, N18, N21)"),
        "{text}"
    );
    assert!(text.contains("British takes option GB1"), "{text}");
}

#[test]
fn nap_horse_battery_option() {
    // P46: the horse battery in B1C attacks, supported by infantry, and the
    // defender stands: HB1-HB5 (N19).
    let mut game = nap_position("5IG2L2A3CK/3/4/2/2HI1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -");
    nap_play_orders(&mut game, &["ATTACK B1C F1C SUPPORT B1CL"]);
    let last = nap_play_orders(&mut game, &["STAND"]);
    nap_both_seats("horse-battery-option", &game, &last);
    let text = squeezed(&game.draw_board(Seat::South, &last));
    assert!(
        text.contains("(Horse Battery, N19): HB1, HB2, HB3, HB4 or HB5."),
        "{text}"
    );
}

#[test]
fn nap_horse_battery_retreats_last() {
    // P46, HB1: the defender and the supporting infantry have retreated
    // (each forced); the horse battery's own retreat is chosen last (N19, N30).
    let mut game = nap_position("5IG2L2A3CK/3/4/2/2HI1/2/2i2/2/4/3/5ig2l2ah3ck - b - 20 -");
    nap_play_orders(&mut game, &["ATTACK B1C F1C SUPPORT B1CL", "STAND"]);
    let last = nap_play_orders(&mut game, &["OPTION HB1"]);
    assert_eq!(
        nap_pending(&game),
        Some((Seat::North, DecisionKind::Retreat))
    );
    nap_both_seats("horse-battery-retreat", &game, &last);
    let text = squeezed(&game.draw_board(Seat::North, &last));
    assert!(
        text.contains("British to choose where the horse battery in B1C retreats"),
        "{text}"
    );
}

#[test]
fn nap_charge() {
    // P19: cavalry directly after a PASS charges the infantry in F1C (N10).
    let mut game = nap_position("6IG2L2AH2CK/3/4/2/2C2/2/2i2/2/4/3/5ig2l2ah3ck - b1 b 20 -");
    let last = nap_play_orders(&mut game, &["ATTACK B1C F1C"]);
    assert_eq!(
        nap_pending(&game),
        Some((Seat::North, DecisionKind::Advance))
    );
    nap_both_seats("charge", &game, &last);
    let text = squeezed(&game.draw_board(Seat::North, &last));
    assert!(
        text.contains("charge after a PASS: the defender in F1C is eliminated (N10)"),
        "{text}"
    );
    assert!(text.contains("British to decide: advance from B1C into F1C, or stay (R20)."));
}

#[test]
fn nap_finished_on_points() {
    // P56: the British heavy cavalry attacks the French one unsupported; it
    // stands and both are eliminated; with three of its four cavalry-family
    // units lost, each French one counts double (N22): 6 + 3 x 2 = 12.
    let mut game = nap_position("6IG2L2AH3C/3/4/2/2K2/2/2k2/2/4/3/g2l2ahc 6i2c b - 20 -");
    let last = nap_play_orders(&mut game, &["ATTACK B1C F1C", "STAND"]);
    assert!(game.outcome().is_some());
    nap_both_seats("finished-points", &game, &last);
    let text = squeezed(&game.draw_board(Seat::South, &last));
    assert!(
        text.contains(
            "Game over after turn 20: British wins on points, British 12 - French 1 (N22, R27)."
        ),
        "{text}"
    );
}

#[test]
fn nap_guard_and_heavy_cavalry_on_the_board() {
    // Every type on the board, marks included: a moved heavy cavalry (R6),
    // a resting infantry (R21, N16).
    let game = nap_position("4ILA2C/3/1AH1/L1/CK+GI_I/2/1igk1/l1/1ahc/3/5ila2c - f - 31 -");
    nap_both_seats("guard-and-heavy", &game, &[]);
    let text = game.draw_board(Seat::South, &[]);
    for unit in [
        "B gua", "B hc+", "B hb", "B li", "F gua", "F hc", "F hb", "F li",
    ] {
        assert!(text.contains(unit), "{unit}:\n{text}");
    }
}

// ----- properties -------------------------------------------------------------------

proptest! {
    #![proptest_config(config(64))]

    /// Random positions reached by play, from both seats: the shape, every
    /// code once, the units where they are, Blue's view Gray's turned.
    #[test]
    fn random_positions_draw_soundly(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..300),
    ) {
        let game = play(gray_first, &choices);
        for seat in Seat::BOTH {
            let text = game.draw_board(seat, &[]);
            check_drawing(&game, &text).map_err(|e| fail(format!("{game}: {e}\n{text}")))?;
        }
        check_rotation(&game, &[]).map_err(|e| fail(format!("{game}: {e}")))?;
    }

    /// Positions written directly as strings, any the reader accepts (marks
    /// play cannot produce, attacks at any stage): still sound drawings.
    #[test]
    fn generated_positions_draw_soundly(l in layout()) {
        let base = layout_position(&l);
        let parsed = base.parse::<Squares>();
        prop_assume!(parsed.is_ok());
        let Ok(game) = parsed else {
            return Ok(());
        };
        let game = match with_attack(&base, &game, &l) {
            Some(text) => position(&text),
            None => game,
        };
        for seat in Seat::BOTH {
            let text = game.draw_board(seat, &[]);
            check_drawing(&game, &text).map_err(|e| fail(format!("{game}: {e}\n{text}")))?;
        }
        check_rotation(&game, &[]).map_err(|e| fail(format!("{game}: {e}")))?;
    }

    /// The last action's squares are marked, and only those.
    #[test]
    fn last_action_squares_are_marked(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 1..200),
    ) {
        let (head, tail) = choices.split_at(choices.len() - 1);
        let mut game = play(gray_first, head);
        let legal = game.legal_orders();
        prop_assume!(!legal.is_empty());
        let order = legal[tail[0] as usize % legal.len()];
        let events = game.apply(&order).map_err(|r| fail(r.to_string()))?;
        let text = game.draw_board(Seat::South, &events);
        let lines = board_part(&text);
        let log = events.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ");
        let starred: Vec<&str> = lines
            .iter()
            .flat_map(|l| l.split('*').collect::<Vec<_>>().split_last().map(|(_, init)| init.to_vec()).unwrap_or_default())
            .filter_map(|before| before.rsplit(|c: char| !c.is_ascii_alphanumeric()).next())
            .collect();
        for s in Space::all() {
            let marked = starred.contains(&s.code());
            let named = words(&log).any(|w| w == s.code());
            prop_assert_eq!(marked, named, "{} in {}\n{}", s.code(), log, text);
        }
        prop_assert!(text.contains("Last: "));
        check_drawing(&game, &text).map_err(|e| fail(format!("{game}: {e}\n{text}")))?;
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// Random positions of the variant reached by play, from both seats:
    /// the shape, every F and B code once, the units where they are, the
    /// North view the South view turned, no G code and no Civil War side.
    #[test]
    fn nap_random_positions_draw_soundly(seed in any::<u64>(), steps in 0usize..300) {
        let (game, last) = nap_play_with_events(seed, steps);
        let mut texts = Vec::new();
        for seat in Seat::BOTH {
            let text = game.draw_board(seat, &last);
            check_drawing_in(&NAPOLEONIC_WORDS, game.squares(), &text)
                .and_then(|()| no_civil_war_words(&text))
                .map_err(|e| fail(format!("{game}: {e}\n{text}")))?;
            texts.push(text);
        }
        check_turned(&NAPOLEONIC_WORDS, &texts[0], &texts[1])
            .map_err(|e| fail(format!("{game}: {e}")))?;
    }
}

#[test]
fn the_board_is_the_rectangle_table_to_scale() {
    // 13.5" wide at 4 columns per 0.75", 12" deep at 3 lines per 1.5".
    let game = Squares::new(&GameOptions::default());
    let text = game.draw_board(Seat::South, &[]);
    let lines = board_part(&text);
    assert_eq!(lines.len(), 25);
    assert!(lines.iter().all(|l| l.len() == 73));
    // B1C is 1.5" square: its frame spans 9 columns and 4 lines.
    let b = board();
    let r = b.rect(Space::from_code("B1C").unwrap());
    assert_eq!((r.x_to - r.x_from, r.y_to - r.y_from), (6, 6));
    let top = lines.iter().position(|l| l.contains("B1C ")).unwrap() - 1;
    let col = lines[top + 1].find("B1C ").unwrap() - 2;
    for l in [top, top + 3] {
        assert_eq!(&lines[l][col..col + 1], "+");
        assert_eq!(&lines[l][col + 8..col + 9], "+");
    }
    for l in [top + 1, top + 2] {
        assert_eq!(&lines[l][col..col + 1], "|");
        assert_eq!(&lines[l][col + 8..col + 9], "|");
    }
    assert_eq!(&lines[top + 3][col..=col + 8], "+-------+");
}
