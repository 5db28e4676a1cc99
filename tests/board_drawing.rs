//! The ASCII board (`Game::draw_board`): golden files for a range of
//! positions, each drawn from both seats, and properties of the drawing of
//! random positions reached by play.
//!
//! The golden files live in `tests/data/boards/`, one per position and seat.
//! `UPDATE_GOLDEN=1 cargo test --test board_drawing` rewrites them instead of
//! comparing; read every rewritten file before committing it.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::*;
use orderly::games::squares::{board, Event, Side, Space, Squares, UnitKind};
use orderly::games::{DecisionKind, Game, GameOptions, Seat};
use proptest::prelude::*;

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

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/boards")
        .join(format!("{name}.txt"))
}

/// Compares `text` with the golden file `name`, or rewrites the file when
/// `UPDATE_GOLDEN=1`.
fn golden(name: &str, text: &str) {
    if let Err(e) = check_lines(text) {
        panic!("{name}: {e}\n{text}");
    }
    let path = golden_path(name);
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
        golden(&format!("{name}-{suffix}"), &text);
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

fn kind_of(word: &str) -> Option<UnitKind> {
    match word {
        "inf" => Some(UnitKind::Infantry),
        "art" => Some(UnitKind::Artillery),
        "cav" => Some(UnitKind::Cavalry),
        _ => None,
    }
}

/// Units drawn on board squares, by [side][kind]: `B inf` or `Binf`, marks
/// after it.
fn board_units(lines: &[&str]) -> [[u32; 3]; 2] {
    let mut out = [[0; 3]; 2];
    for line in lines {
        let ws: Vec<&str> = words(line).collect();
        for (i, w) in ws.iter().enumerate() {
            let (side, kind) = match (w.len(), w.as_bytes().first()) {
                (4, Some(b'B')) => (0, kind_of(&w[1..])),
                (4, Some(b'G')) => (1, kind_of(&w[1..])),
                (1, Some(b'B')) => (0, ws.get(i + 1).and_then(|k| kind_of(k))),
                (1, Some(b'G')) => (1, ws.get(i + 1).and_then(|k| kind_of(k))),
                _ => continue,
            };
            if let Some(kind) = kind {
                out[side][kind_index(kind)] += 1;
            }
        }
    }
    out
}

/// A reserve's contents as its first line states them, by kind.
fn reserve_units(lines: &[&str], side: Side) -> Result<[u32; 3], String> {
    let label = format!("{} reserve:", side.name());
    let line = lines
        .iter()
        .find(|l| l.contains(&label))
        .ok_or(format!("no line with {label:?}"))?;
    let rest = line.split(&label).nth(1).unwrap_or("");
    let rest = rest.trim_end_matches(['|', ' ']).trim();
    let mut out = [0; 3];
    if rest == "empty" {
        return Ok(out);
    }
    let ws: Vec<&str> = rest.split_whitespace().collect();
    for pair in ws.chunks(2) {
        let [n, k] = pair else {
            return Err(format!("odd reserve list {rest:?}"));
        };
        let n: u32 = n.parse().map_err(|_| format!("bad count in {rest:?}"))?;
        let kind = kind_of(k).ok_or(format!("bad kind in {rest:?}"))?;
        out[kind_index(kind)] += n;
    }
    Ok(out)
}

/// What every drawing of `game` must show: each code once on the board,
/// the units where the game has them, the reserves' contents, nothing else.
fn check_drawing(game: &Squares, text: &str) -> Result<(), String> {
    check_lines(text)?;
    let lines = board_part(text);
    if lines.len() != 25 {
        return Err(format!("the board has {} lines, not 25", lines.len()));
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for line in &lines {
        for w in words(line) {
            if Space::from_code(w).is_some_and(|s| s.code() == w) {
                *seen.entry(w).or_default() += 1;
            }
        }
    }
    for s in Space::all() {
        if seen.get(s.code()) != Some(&1) {
            return Err(format!(
                "{} appears {:?} times",
                s.code(),
                seen.get(s.code())
            ));
        }
    }
    let drawn = board_units(&lines);
    for side in Side::BOTH {
        let reserve = reserve_units(&lines, side)?;
        for kind in common::CIVIL_WAR_KINDS {
            let k = kind_index(kind);
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
                    (0..16)
                        .map(|n| orderly::games::squares::UnitId::new(side, n, common::ARMY[n]))
                        .filter(|&u| u.kind() == kind && game.location(u) == Some(s))
                        .count() as u32
                })
                .sum::<u32>();
            let alive = ARMY_COUNTS[k] - game.lost(side, kind);
            let drawn_here = drawn[side.index()][k];
            if drawn_here != on_board + invaders || reserve[k] != in_reserve {
                return Err(format!(
                    "{side} {kind}: drawn {drawn_here} on the board and {} in reserve, \
                     the game has {on_board} (and {invaders} in the enemy reserve) and {in_reserve}",
                    reserve[k]
                ));
            }
            if drawn_here + reserve[k] != alive {
                return Err(format!(
                    "{side} {kind}: {} drawn, {alive} not eliminated",
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
fn code_cells(g: &[Vec<u8>]) -> BTreeMap<String, (usize, usize)> {
    let mut out = BTreeMap::new();
    for (l, row) in g.iter().enumerate() {
        let text = String::from_utf8_lossy(row);
        let mut c = 0;
        for piece in text.split(|ch: char| !ch.is_ascii_alphanumeric()) {
            if Space::from_code(piece).is_some_and(|s| s.code() == piece) {
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
    let blue = grid(&board_part(&blue_text));
    let gray = grid(&board_part(&gray_text));
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
    let (cb, cg) = (code_cells(&blue), code_cells(&gray));
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
