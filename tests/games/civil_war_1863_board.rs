//! The Civil War Game 1863 board as data: the standard (reconstructed)
//! board, its file format, and the generator that wrote it.

use std::collections::{BTreeSet, VecDeque};
use std::path::Path;
use std::process::Command;

use orderly::games::civil_war_1863::core::board::{Board, RECONSTRUCTION_NOTE, STANDARD_TEXT};
use orderly::games::civil_war_1863::core::side::{PieceKind, Side};
use orderly::games::civil_war_1863::core::square::Square;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("{name} is not a square"))
}

fn city_square(board: &Board, name: &str) -> Square {
    board
        .city_named(name)
        .unwrap_or_else(|| panic!("the board has no city named {name}"))
        .square
}

/// Runs of whitespace and comment marks read as one space.
fn words(text: &str) -> String {
    text.replace('#', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_standard_board_parses() {
    let board = Board::parse(STANDARD_TEXT).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&board, Board::standard());
}

#[test]
fn the_file_and_the_docs_page_say_it_is_a_reconstruction() {
    let note = words(RECONSTRUCTION_NOTE);
    assert!(note.contains("never been published") && note.contains("reconstruction"));
    assert!(
        words(STANDARD_TEXT).contains(&note),
        "the data file's header lacks the note"
    );
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/civil-war-1863-board.md"),
    )
    .expect("docs/civil-war-1863-board.md");
    assert!(words(&docs).contains(&note), "the docs page lacks the note");
    assert!(
        words(&Board::standard().to_text()).contains(&note),
        "a written board lacks the note"
    );
}

#[test]
fn every_named_city_has_its_own_square_and_role() {
    let board = Board::standard();
    let union = ["St. Louis", "Indianapolis", "Pittsburg", "Baltimore"];
    let confederacy = ["Chattanooga", "Atlanta", "Charleston"];
    let mut squares = BTreeSet::new();
    for name in union
        .iter()
        .chain(&confederacy)
        .chain(&["Washington", "Richmond"])
    {
        assert!(
            squares.insert(city_square(board, name)),
            "{name} shares a square"
        );
    }
    for name in union {
        assert_eq!(
            board.key_city_side(city_square(board, name)),
            Some(Side::Union),
            "{name}"
        );
    }
    for name in confederacy {
        assert_eq!(
            board.key_city_side(city_square(board, name)),
            Some(Side::Confederacy),
            "{name}"
        );
    }
    assert_eq!(board.key_cities(Side::Union).count(), 4);
    assert_eq!(board.key_cities(Side::Confederacy).count(), 3);
    let washington = board.capital_of(Side::Union);
    assert_eq!(
        (washington.square, washington.garrison),
        (city_square(board, "Washington"), 4)
    );
    let richmond = board.capital_of(Side::Confederacy);
    assert_eq!(
        (richmond.square, richmond.garrison),
        (city_square(board, "Richmond"), 5)
    );
    assert_eq!(board.capitals().len(), 2);
    for name in ["Washington", "Richmond", "Nashville", "Memphis"] {
        assert_eq!(
            board.key_city_side(city_square(board, name)),
            None,
            "{name} is no key city"
        );
    }
    // The cities keep their compass order: St. Louis west of Pittsburg,
    // Richmond south of Washington, Atlanta south of Chattanooga.
    assert!(city_square(board, "St. Louis").column() < city_square(board, "Pittsburg").column());
    assert!(city_square(board, "Richmond").row() > city_square(board, "Washington").row());
    assert!(city_square(board, "Atlanta").row() > city_square(board, "Chattanooga").row());
    let squares: BTreeSet<Square> = board.cities().iter().map(|c| c.square).collect();
    assert_eq!(
        squares.len(),
        board.cities().len(),
        "two cities on one square"
    );
}

#[test]
fn the_start_circles_hold_the_box() {
    let board = Board::standard();
    let expected = [
        (Side::Union, PieceKind::Infantry, 15),
        (Side::Union, PieceKind::Cavalry, 2),
        (Side::Union, PieceKind::Gunboat, 3),
        (Side::Confederacy, PieceKind::Infantry, 10),
        (Side::Confederacy, PieceKind::Cavalry, 4),
        (Side::Confederacy, PieceKind::Gunboat, 1),
    ];
    for (side, kind, count) in expected {
        let placed: u32 = board
            .start_circles_of(side)
            .filter(|c| c.kind == kind)
            .map(|c| u32::from(c.count))
            .sum();
        assert_eq!(placed, count, "{side} {kind}");
    }
    for c in board.start_circles() {
        assert!(
            !c.note.is_empty(),
            "the circle on {} says no force",
            c.square
        );
        if c.kind.is_ground() {
            assert!(
                board.holds_land(c.square),
                "{} {} on {}",
                c.side,
                c.kind,
                c.square
            );
        }
    }
    // The sides sit as the rules seat them: the Union nearer the Great
    // Lakes, the Confederacy nearer the Gulf.
    let mean_row = |side| {
        let (sum, n) = board
            .start_circles_of(side)
            .fold((0u32, 0u32), |(sum, n), c| {
                let count = u32::from(c.count);
                (sum + u32::from(c.square.row()) * count, n + count)
            });
        f64::from(sum) / f64::from(n)
    };
    assert!(mean_row(Side::Union) < mean_row(Side::Confederacy));
}

#[test]
fn gunboats_start_on_navigable_water_they_can_leave() {
    let board = Board::standard();
    let gunboats: Vec<_> = board
        .start_circles()
        .iter()
        .filter(|c| c.kind == PieceKind::Gunboat)
        .collect();
    assert_eq!(gunboats.len(), 4);
    for c in gunboats {
        assert!(
            board.holds_water(c.square),
            "{} gunboat on {}",
            c.side,
            c.square
        );
        assert!(
            board.water_neighbours(c.square).next().is_some(),
            "{} is a dead end",
            c.square
        );
    }
}

#[test]
fn every_rail_section_runs_between_two_cities_through_rail_squares() {
    let board = Board::standard();
    assert!(!board.sections().is_empty());
    for line in board.rail_lines() {
        for w in line.squares.windows(2) {
            assert!(w[0].is_neighbour(w[1]), "{}: {} {}", line.name, w[0], w[1]);
            assert!(board.rail_step(w[0], w[1]));
        }
        assert!(
            board.is_city(line.squares[0]) && board.is_city(*line.squares.last().unwrap()),
            "{}",
            line.name
        );
    }
    for (id, section) in board.sections().iter().enumerate() {
        assert_eq!(
            section.cities.len(),
            2,
            "section {:?} ends in {:?}",
            section.squares,
            section.cities
        );
        // A section between two cities is one unbranched chain (P16): walk it.
        let (from, to) = (section.cities[0], section.cities[1]);
        let mut at = from;
        let mut seen = BTreeSet::new();
        loop {
            let next: Vec<Square> = board
                .rail_neighbours(at)
                .filter(|&n| board.section_of(n) == Some(id) && !seen.contains(&n))
                .collect();
            match next[..] {
                [n] => {
                    seen.insert(n);
                    at = n;
                }
                [] => break,
                _ => panic!("section {id} branches at {at}"),
            }
        }
        assert_eq!(
            seen.len(),
            section.squares.len(),
            "section {id} is not one chain"
        );
        assert!(board.rail_step(at, to), "section {id} does not reach {to}");
        for &s in &section.squares {
            assert!(board.is_rail(s) && !board.is_city(s));
        }
    }
    // A rail square outside a city is always in a section (P16); a city in none.
    for s in Square::all() {
        assert_eq!(
            board.section_of(s).is_some(),
            board.is_rail(s) && !board.is_city(s),
            "{s}"
        );
    }
}

/// Squares a gunboat reaches from `start` along water joins.
fn waters_reached(board: &Board, start: Square) -> BTreeSet<Square> {
    let mut seen = BTreeSet::from([start]);
    let mut todo = VecDeque::from([start]);
    while let Some(s) = todo.pop_front() {
        for n in board.water_neighbours(s) {
            if seen.insert(n) {
                todo.push_back(n);
            }
        }
    }
    seen
}

#[test]
fn waters_join_as_p3_says() {
    let board = Board::standard();
    let cairo = city_square(board, "Cairo");
    let from_cairo = waters_reached(board, cairo);
    for name in [
        "St. Louis",
        "Memphis",
        "Louisville",
        "Nashville",
        "Pittsburg",
        "Knoxville",
    ] {
        assert!(
            from_cairo.contains(&city_square(board, name)),
            "{name} is not reached from Cairo"
        );
    }
    // P3: the Mississippi reaches the Gulf; the Ohio and Lake Erie never meet.
    let gulf = board
        .waters()
        .iter()
        .find(|w| w.name == "Gulf of Mexico")
        .unwrap();
    assert!(gulf.squares.iter().any(|s| from_cairo.contains(s)));
    let erie = board
        .waters()
        .iter()
        .find(|w| w.name == "Lake Erie")
        .unwrap();
    assert!(erie.squares.iter().all(|s| !from_cairo.contains(s)));
    // P3: the James and the Potomac meet the Atlantic through the Chesapeake.
    let from_richmond = waters_reached(board, city_square(board, "Richmond"));
    assert!(from_richmond.contains(&city_square(board, "Washington")));
    assert!(from_richmond.contains(&city_square(board, "Charleston")));
    assert!(!from_richmond.contains(&cairo));
    // P1, P12: a gunboat may stand on every water-only and every river square.
    for s in Square::all() {
        if board.is_water_only(s) || board.holds_river(s) {
            assert!(board.holds_water(s), "{s}");
        }
    }
}

#[test]
fn passes_are_marked_diagonals_into_the_mountains() {
    let board = Board::standard();
    assert!(!board.passes().is_empty());
    for p in board.passes() {
        let [a, b] = p.ends;
        assert!(a.is_diagonal_to(b), "{}", p.name);
        assert!(
            board.holds_mountains(a) || board.holds_mountains(b),
            "{} leads into no mountains",
            p.name
        );
        assert!(
            !(board.holds_mountains(a) && board.holds_mountains(b)),
            "{} starts in the mountains",
            p.name
        );
        assert!(board.pass_between(b, a).is_some());
    }
    let gap = board
        .passes()
        .iter()
        .find(|p| p.name == "Cumberland Gap")
        .expect("the Cumberland Gap");
    let [a, b] = gap.ends;
    assert!(
        board.mountain_corner(a, b),
        "the Cumberland Gap opens a closed corner"
    );
    assert!(board.pass_between(sq("A1"), sq("B2")).is_none());
}

#[test]
fn a_written_board_reads_back_the_same() {
    let board = Board::standard();
    let text = board.to_text();
    let again = Board::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&again, board);
    assert_eq!(again.to_text(), text);
}

/// The number of the first line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line {start:?}"))
        + 1
}

fn refused(text: &str) -> (usize, String) {
    let e = Board::parse(text).expect_err("a damaged file is refused");
    assert!(e.to_string().starts_with(&format!("line {}:", e.line)));
    (e.line, e.message)
}

#[test]
fn a_damaged_file_is_refused_at_its_line() {
    let text = STANDARD_TEXT;
    let row5 = text.lines().find(|l| l.starts_with(" 5   ")).unwrap();

    let short = text.replacen(row5, &row5[..row5.len() - 2], 1);
    let (line, message) = refused(&short);
    assert_eq!(line, line_of(text, " 5   "));
    assert!(message.contains("17 squares"), "{message}");

    let bad_letter = text.replacen(row5, &format!("{}x", &row5[..row5.len() - 1]), 1);
    let (line, message) = refused(&bad_letter);
    assert_eq!(line, line_of(text, " 5   "));
    assert!(
        message.contains("unknown terrain letter 'x' at R5"),
        "{message}"
    );

    let washington = city_square(Board::standard(), "Washington").to_string();
    let city_line = format!("{washington} Washington");
    let off_grid = text.replacen(&city_line, "S6 Washington", 1);
    let (line, message) = refused(&off_grid);
    assert_eq!(line, line_of(text, &city_line));
    assert!(message.contains("\"S6\" is not a square"), "{message}");

    let rail = text
        .lines()
        .find(|l| l.starts_with("Western & Atlantic"))
        .unwrap();
    let gap = text.replacen(rail, &format!("{rail} A1"), 1);
    let (line, message) = refused(&gap);
    assert_eq!(line, line_of(text, "Western & Atlantic"));
    assert!(message.contains("not neighbours"), "{message}");

    let circle = text
        .lines()
        .find(|l| l.contains(" Confederacy 1 gunboat"))
        .unwrap();
    let (_, rest) = circle.split_once(' ').unwrap();
    let (line, message) = refused(&text.replacen(circle, &format!("A1 {rest}"), 1));
    assert_eq!(line, line_of(text, circle));
    assert!(
        message.contains("gunboat starts on navigable water"),
        "{message}"
    );

    let (line, message) = refused(&text.replacen("[passes]", "[passages]", 1));
    assert_eq!(line, line_of(text, "[passes]"));
    assert!(message.contains("unknown section"), "{message}");
}

/// What `python3 scripts/civil-war-1863-board.py FLAG` prints.
fn generator(flag: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let run = Command::new("python3")
        .arg(root.join("scripts/civil-war-1863-board.py"))
        .arg(flag)
        .output();
    let out = match run {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "python3 is not installed, and this test runs scripts/civil-war-1863-board.py: \
             install Python 3 (Debian/Ubuntu: apt-get install python3; it needs only the \
             standard library)"
        ),
        Err(e) => panic!("could not run python3: {e}"),
    };
    assert!(
        out.status.success(),
        "the generator failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn the_data_file_is_what_the_generator_writes() {
    let written = generator("--stdout");
    assert!(
        written == STANDARD_TEXT,
        "data/civil-war-1863-board.txt is not what scripts/civil-war-1863-board.py writes: \
         run `python3 scripts/civil-war-1863-board.py` and commit the result"
    );
}

#[test]
fn the_docs_page_shows_the_board_the_generator_draws() {
    let picture = generator("--picture");
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/civil-war-1863-board.md"),
    )
    .expect("docs/civil-war-1863-board.md");
    assert!(
        docs.contains(picture.trim_end()),
        "docs/civil-war-1863-board.md does not show the board as \
         `python3 scripts/civil-war-1863-board.py --picture` draws it: paste it under \"The board\""
    );
}
