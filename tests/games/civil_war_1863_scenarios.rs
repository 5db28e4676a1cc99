//! The Civil War Game 1863 scenario files (`tests/data/civilwar1863/`), checked for form.
//!
//! The files hold the expected results of every ruling P1-P36 and worked example E1-E10 of
//! `../shared/rules/civil-war-1863-rulings.md`, worked out from the rules text by an author
//! who has not seen the engine; their format is `tests/data/civilwar1863/README.md`.
//! The engine does not exist yet, so today these tests check only that the files say what
//! the README lets them say: every file parses with exactly the README's fields, every
//! ruling and example has a file, every square is on the 18 x 18 grid, every chain of steps
//! joins neighbours, no side fields more pieces or markers than the box holds, and every
//! refusal cites an existing rule id. Once the engine lands, the engine harness will replay
//! each file's steps against it and check every expectation.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "../common/civilwar1863_format.rs"]
mod format;

use format::*;

/// The highest ruling id (P1-P36) and worked example id (E1-E10) of the rulings page.
const RULINGS: u32 = 36;
const EXAMPLES: u32 = 10;

/// A square of the 18 x 18 board: column A-R west to east, row 1-18 north to south.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Square {
    column: u8,
    row: u8,
}

impl Square {
    /// Reads `"A1"`..`"R18"` (upper case, as the README writes them).
    fn parse(name: &str) -> Option<Square> {
        let mut chars = name.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_uppercase() || letter > 'R' {
            return None;
        }
        let digits = chars.as_str();
        if digits.starts_with('0') {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        if !(1..=18).contains(&row) {
            return None;
        }
        Some(Square {
            column: letter as u8 - b'A',
            row,
        })
    }

    /// P2: a step joins two squares that differ by at most one in column and row.
    fn is_neighbour(self, other: Square) -> bool {
        self != other
            && self.column.abs_diff(other.column) <= 1
            && self.row.abs_diff(other.row) <= 1
    }

    fn is_diagonal_neighbour(self, other: Square) -> bool {
        self.column.abs_diff(other.column) == 1 && self.row.abs_diff(other.row) == 1
    }
}

impl Pieces {
    fn total(self) -> u32 {
        u32::from(self.infantry) + u32::from(self.cavalry) + u32::from(self.gunboat)
    }

    fn fits_in(self, other: Pieces) -> bool {
        self.infantry <= other.infantry
            && self.cavalry <= other.cavalry
            && self.gunboat <= other.gunboat
    }
}

/// The box of 1961: Union 15 infantry, 2 cavalry, 3 gunboats; Confederacy 10, 4, 1.
fn box_pieces(side: Side) -> Pieces {
    match side {
        Side::Union => Pieces {
            infantry: 15,
            cavalry: 2,
            gunboat: 3,
        },
        Side::Confederacy => Pieces {
            infantry: 10,
            cavalry: 4,
            gunboat: 1,
        },
    }
}

/// The nine cities the rules text names, their kind and owner.
fn named_city(name: &str) -> Option<(CityKind, Side)> {
    Some(match name {
        "St. Louis" | "Indianapolis" | "Pittsburg" | "Baltimore" => (CityKind::Key, Side::Union),
        "Chattanooga" | "Charleston" | "Atlanta" => (CityKind::Key, Side::Confederacy),
        "Washington" => (CityKind::Capital, Side::Union),
        "Richmond" => (CityKind::Capital, Side::Confederacy),
        _ => return None,
    })
}

impl Force {
    fn pieces(&self) -> Pieces {
        Pieces {
            infantry: self.infantry,
            cavalry: self.cavalry,
            gunboat: self.gunboat,
        }
    }
}

impl Citation {
    fn ids(&self) -> Vec<&str> {
        match self {
            Citation::One(id) => vec![id.as_str()],
            Citation::AnyOf(ids) => ids.iter().map(String::as_str).collect(),
        }
    }
}

/// A scenario file's kind and the ruling or example number its name gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Owner {
    Ruling(u32),
    Example(u32),
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Ruling(n) => write!(f, "P{n}"),
            Owner::Example(n) => write!(f, "E{n}"),
        }
    }
}

/// Reads a file stem such as `P07`, `P17b` or `E02a`: a letter, two digits, an optional
/// lower-case letter.
fn owner_of_stem(prefix: char, stem: &str) -> Option<Owner> {
    let rest = stem.strip_prefix(prefix)?;
    let (digits, suffix) = rest.split_at(rest.len().min(2));
    if digits.len() != 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if suffix.len() > 1 || !suffix.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let number: u32 = digits.parse().ok()?;
    match prefix {
        'P' if (1..=RULINGS).contains(&number) => Some(Owner::Ruling(number)),
        'E' if (1..=EXAMPLES).contains(&number) => Some(Owner::Example(number)),
        _ => None,
    }
}

/// Whether `id` names a ruling of the rulings page ("P1".."P36"); refusals cite these.
fn is_rule_id(id: &str) -> bool {
    id.strip_prefix('P')
        .filter(|n| !n.starts_with('0'))
        .and_then(|n| n.parse::<u32>().ok())
        .is_some_and(|n| (1..=RULINGS).contains(&n))
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/civilwar1863")
}

/// Every scenario file: its path, the owner its name gives, and its parsed content (or the
/// parse error).
fn load_all() -> Vec<(PathBuf, Option<Owner>, Result<Scenario, String>)> {
    let mut files = Vec::new();
    for (folder, prefix) in [("rulings", 'P'), ("examples", 'E')] {
        let dir = data_dir().join(folder);
        let entries =
            fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let owner = if path.extension().is_some_and(|e| e == "toml") {
                owner_of_stem(prefix, stem)
            } else {
                None
            };
            let parsed = fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| toml::from_str::<Scenario>(&text).map_err(|e| e.to_string()));
            files.push((path, owner, parsed));
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// Collects the problems of one file, each as a sentence.
struct Problems<'a> {
    file: &'a Path,
    found: Vec<String>,
}

impl Problems<'_> {
    fn add(&mut self, problem: String) {
        self.found
            .push(format!("{}: {problem}", self.file.display()));
    }

    fn square(&mut self, name: &str, what: &str) -> Option<Square> {
        let square = Square::parse(name);
        if square.is_none() {
            self.add(format!(
                "{what}: {name:?} is not a square of the 18 x 18 board"
            ));
        }
        square
    }

    fn chain(&mut self, names: &[String], what: &str) {
        let squares: Vec<Option<Square>> = names.iter().map(|n| self.square(n, what)).collect();
        for pair in squares.windows(2) {
            if let [Some(a), Some(b)] = pair {
                if !a.is_neighbour(*b) {
                    self.add(format!("{what}: {a:?} and {b:?} are not neighbours"));
                }
            }
        }
    }

    fn cites(&mut self, id: &str, what: &str) {
        if !is_rule_id(id) {
            self.add(format!("{what}: {id:?} is not a ruling P1-P{RULINGS}"));
        }
    }

    fn forces(&mut self, squares: &BTreeMap<String, Force>, what: &str) {
        let mut per_side: BTreeMap<Side, Pieces> = BTreeMap::new();
        let mut disabled_markers = 0;
        let mut fortification_markers = 0;
        for (name, force) in squares {
            self.square(name, what);
            let pieces = force.pieces();
            if pieces.total() == 0 {
                self.add(format!("{what}: {name} holds a force of no pieces"));
            }
            if force.aboard > force.infantry || (force.aboard > 0 && force.gunboat == 0) {
                self.add(format!("{what}: {name} has infantry aboard no gunboat"));
            }
            if let Some(disabled) = force.disabled {
                disabled_markers += 1;
                if disabled.total() == 0 || !disabled.fits_in(pieces) {
                    self.add(format!(
                        "{what}: {name}'s disabled pieces are not its pieces"
                    ));
                }
            }
            if let Some(moved) = force.moved {
                if !moved.fits_in(pieces) {
                    self.add(format!("{what}: {name}'s moved pieces are not its pieces"));
                }
            }
            if force.fortified {
                fortification_markers += 1;
            }
            let total = per_side.entry(force.side).or_default();
            total.infantry += force.infantry;
            total.cavalry += force.cavalry;
            total.gunboat += force.gunboat;
        }
        for (side, pieces) in per_side {
            if !pieces.fits_in(box_pieces(side)) {
                self.add(format!(
                    "{what}: {side:?} fields more pieces than the box holds"
                ));
            }
        }
        if disabled_markers > 3 || fortification_markers > 6 {
            self.add(format!(
                "{what}: more markers than the box holds (P24, P31)"
            ));
        }
    }

    fn flags(
        &mut self,
        flags: &BTreeMap<String, Side>,
        cities: &BTreeMap<String, &City>,
        what: &str,
    ) {
        for (name, side) in flags {
            self.square(name, what);
            let owner = cities.get(name).and_then(|c| named_city(&c.name));
            match owner {
                Some((CityKind::Key | CityKind::Capital, owner)) if owner != *side => {}
                _ => self.add(format!(
                    "{what}: a {side:?} flag on {name}, which is no enemy key city or capital of it"
                )),
            }
        }
    }
}

fn check_board(board: &Board, p: &mut Problems) {
    for name in board
        .water_only
        .iter()
        .chain(&board.sea)
        .chain(&board.river)
        .chain(&board.mountain)
    {
        p.square(name, "board");
    }
    for name in &board.water_only {
        if !board.sea.contains(name) && !board.river.contains(name) {
            p.add(format!(
                "board: water-only {name} is in neither sea nor river"
            ));
        }
    }
    for chain in &board.water_joins {
        if chain.len() < 2 {
            p.add("board: a water join chain of fewer than two squares".into());
        }
        for name in chain {
            if !board.sea.contains(name) && !board.river.contains(name) {
                p.add(format!(
                    "board: water join through {name}, which holds no water"
                ));
            }
        }
        p.chain(chain, "board water_joins");
    }
    for pass in &board.passes {
        let ends: Vec<Option<Square>> = pass.iter().map(|n| p.square(n, "board passes")).collect();
        match ends.as_slice() {
            [Some(a), Some(b)] if a.is_diagonal_neighbour(*b) => {}
            _ => p.add(format!(
                "board: pass {pass:?} is not a pair of diagonal neighbours"
            )),
        }
    }
    for line in &board.rail_lines {
        if line.len() < 2 {
            p.add("board: a railroad line of fewer than two squares".into());
        }
        p.chain(line, "board rail_lines");
    }
    let rail: BTreeSet<&String> = board.rail_lines.iter().flatten().collect();
    for section in board.sections.iter().flatten() {
        for name in section {
            p.square(name, "board sections");
            if !rail.contains(name) {
                p.add(format!(
                    "board: section square {name} is on no railroad line"
                ));
            }
        }
    }
    let mut names = BTreeSet::new();
    let mut squares = BTreeSet::new();
    for city in &board.cities {
        p.square(&city.square, "board city");
        if !names.insert(city.name.as_str()) || !squares.insert(city.square.as_str()) {
            p.add(format!(
                "board: city {} or its square is given twice",
                city.name
            ));
        }
        let expected = named_city(&city.name).map_or(CityKind::Town, |(kind, _)| kind);
        if city.kind != expected {
            p.add(format!(
                "board: {} is a {expected:?}, not a {:?}",
                city.name, city.kind
            ));
        }
        if board.water_only.contains(&city.square) {
            p.add(format!(
                "board: city {} stands on a water-only square",
                city.name
            ));
        }
    }
}

fn check_step(step: &Step, index: usize, cities: &BTreeMap<String, &City>, p: &mut Problems) {
    let what = format!("step {}", index + 1);
    let needs_side = !matches!(step.order, Order::Toss);
    if needs_side == (step.side == Giver::Service) {
        p.add(format!(
            "{what}: a {:?} is not given by {:?}",
            step.order, step.side
        ));
    }
    let fields = [
        ("from", step.from.is_some()),
        ("path", step.path.is_some()),
        ("pieces", step.pieces.is_some()),
        ("square", step.square.is_some()),
        ("k", step.k.is_some()),
        ("eliminate", step.eliminate.is_some()),
        ("lose", step.lose.is_some()),
        ("outcome", step.outcome.is_some()),
        ("kind", step.kind.is_some()),
        ("removals", step.removals.is_some()),
    ];
    let (required, optional): (&[&str], &[&str]) = match step.order {
        Order::Move | Order::Ride | Order::Retreat => (&["from", "path", "pieces"], &[]),
        Order::Fortify | Order::Unfortify => (&["square"], &[]),
        Order::Losses => (&["k"], &["eliminate", "lose"]),
        Order::Toss => (&["outcome"], &[]),
        Order::Keep => (&["kind"], &[]),
        Order::Remove => (&["removals"], &[]),
        Order::EndTurn | Order::Resign => (&[], &[]),
    };
    for (field, present) in fields {
        if required.contains(&field) && !present {
            p.add(format!("{what}: a {:?} needs {field}", step.order));
        }
        if present && !required.contains(&field) && !optional.contains(&field) {
            p.add(format!("{what}: a {:?} takes no {field}", step.order));
        }
    }
    for name in step.from.iter().chain(&step.square) {
        p.square(name, &what);
    }
    if let Some(pieces) = step.pieces {
        if pieces.total() == 0 {
            p.add(format!("{what}: a group of no pieces"));
        }
    }
    if step.k == Some(0) {
        p.add(format!("{what}: k is at least 1 (P20)"));
    }
    for removal in step.removals.iter().flatten() {
        p.square(&removal.square, &what);
        if removal.count == 0 {
            p.add(format!("{what}: a removal of no pieces"));
        }
    }
    let expect = &step.expect;
    match (&expect.refused, expect.accepted) {
        (Some(citation), None) => {
            for id in citation.ids() {
                p.cites(id, &what);
            }
            let checks = expect.battle.is_some()
                || expect.pending.is_some()
                || expect.pending_side.is_some()
                || expect.turn.is_some()
                || expect.squares.is_some()
                || expect.flags.is_some()
                || expect.markers.is_some()
                || expect.cut.is_some()
                || expect.eliminated.is_some()
                || expect.captured.is_some()
                || expect.end.is_some();
            if checks {
                p.add(format!(
                    "{what}: a refusal changes nothing, so it checks nothing else"
                ));
            }
        }
        (None, Some(true)) => {
            if let (Some(from), Some(path)) = (&step.from, &step.path) {
                let mut chain = vec![from.clone()];
                chain.extend(path.iter().cloned());
                p.chain(&chain, &what);
            }
            if let Some(k) = step.k {
                check_accepted_losses(u32::from(k), step.eliminate, step.lose, &what, p);
            }
        }
        _ => p.add(format!(
            "{what}: expect holds exactly one of refused and accepted = true"
        )),
    }
    if let Some(squares) = &expect.squares {
        p.forces(squares, &what);
    }
    if let Some(flags) = &expect.flags {
        p.flags(flags, cities, &what);
    }
    if let Some(markers) = &expect.markers {
        if markers.disabled > 3 || markers.fortification > 6 {
            p.add(format!(
                "{what}: the box holds 3 disabled and 6 fortification markers"
            ));
        }
    }
    for cut in expect.cut.iter().flatten() {
        for name in &cut.section {
            p.square(name, &what);
        }
    }
    if let Some(city) = &expect.captured {
        if cities.get(city).and_then(|c| named_city(&c.name)).is_none() {
            p.add(format!("{what}: captured {city} is no key city or capital"));
        }
    }
    if let Some(end) = &expect.end {
        if (end.reason == EndReason::Stalemate) != end.winner.is_none() {
            p.add(format!(
                "{what}: a stalemate has no winner, any other end has one"
            ));
        }
    }
    if expect.pending_side.is_some() && expect.pending.is_none_or(|d| d == Pending::None) {
        p.add(format!("{what}: pending_side without a pending decision"));
    }
    if let Some(battle) = &expect.battle {
        let consistent = match battle.kind {
            BattleKind::Larger => battle.attack > battle.defence,
            BattleKind::Even => battle.attack == battle.defence,
            BattleKind::Sacrifice => battle.attack == 1 && battle.defence > 1,
        };
        if !consistent {
            p.add(format!(
                "{what}: strengths do not make a {:?} battle (P19)",
                battle.kind
            ));
        }
    }
}

/// P20: an accepted choice eliminates at most k defenders and loses exactly k - 1 of the
/// attacker's own pieces, which the README has the file name unless k is 1. (A refused
/// choice may break this on purpose.)
fn check_accepted_losses(
    k: u32,
    eliminate: Option<Pieces>,
    lose: Option<Pieces>,
    what: &str,
    p: &mut Problems,
) {
    if eliminate.is_some_and(|e| e.total() > k) {
        p.add(format!("{what}: more defenders named than k = {k}"));
    }
    let lost = lose.map_or(0, Pieces::total);
    if lost + 1 != k {
        p.add(format!("{what}: k = {k} loses k - 1 pieces, not {lost}"));
    }
}

/// Checks one parsed file against the README and returns its problems.
fn check(path: &Path, owner: Owner, scenario: &Scenario) -> Vec<String> {
    let mut p = Problems {
        file: path,
        found: Vec::new(),
    };
    if scenario.id != owner.to_string() {
        p.add(format!(
            "id {:?} does not match the file name ({owner})",
            scenario.id
        ));
    }
    if scenario.title.trim().is_empty() {
        p.add("an empty title".into());
    }
    if scenario.rules.is_empty() {
        p.add("rules lists no ruling".into());
    }
    for id in &scenario.rules {
        p.cites(id, "rules");
    }
    if let Owner::Ruling(_) = owner {
        if !scenario.rules.contains(&scenario.id) {
            p.add("rules does not list the file's own ruling".into());
        }
    }
    check_board(&scenario.board, &mut p);
    let cities: BTreeMap<String, &City> = scenario
        .board
        .cities
        .iter()
        .map(|c| (c.square.clone(), c))
        .collect();
    p.forces(&scenario.start.squares, "start");
    p.flags(&scenario.start.flags, &cities, "start");
    for (name, force) in &scenario.start.squares {
        if force.moved.is_some() {
            p.add(format!(
                "start: {name} lists moved pieces at the start of a turn"
            ));
        }
        // P13: at the start of a turn the mover's infantry and gunboat on one square have
        // stood together since it began, so all of that infantry is aboard.
        let mover_with_boat = force.gunboat > 0 && force.side == scenario.start.turn;
        if mover_with_boat && force.aboard != 0 && force.aboard != force.infantry {
            p.add(format!(
                "start: all the mover's infantry on {name} is aboard (P13)"
            ));
        }
        if force.fortified && cities.get(name).is_none_or(|c| c.kind != CityKind::Key) {
            p.add(format!(
                "start: a fortification marker on {name}, no key city (P31)"
            ));
        }
    }
    if scenario.steps.is_empty() {
        p.add("no steps".into());
    }
    for (index, step) in scenario.steps.iter().enumerate() {
        check_step(step, index, &cities, &mut p);
    }
    p.found
}

fn fail_on(problems: Vec<String>) {
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn every_file_has_the_readme_form() {
    let mut problems = Vec::new();
    for (path, owner, parsed) in load_all() {
        match (owner, parsed) {
            (None, _) => problems.push(format!(
                "{}: not named P01-P36 or E01-E10 (two digits, an optional letter) .toml",
                path.display()
            )),
            (Some(_), Err(e)) => problems.push(format!("{}: does not parse:\n{e}", path.display())),
            (Some(owner), Ok(scenario)) => problems.extend(check(&path, owner, &scenario)),
        }
    }
    fail_on(problems);
}

#[test]
fn every_ruling_and_example_has_a_file() {
    let covered: BTreeSet<Owner> = load_all().into_iter().filter_map(|(_, o, _)| o).collect();
    let missing: Vec<String> = (1..=RULINGS)
        .map(Owner::Ruling)
        .chain((1..=EXAMPLES).map(Owner::Example))
        .filter(|o| !covered.contains(o))
        .map(|o| format!("no scenario file for {o}"))
        .collect();
    fail_on(missing);
}

#[test]
fn every_ruling_has_an_accepted_and_a_refused_step() {
    let mut accepted = BTreeSet::new();
    let mut refused = BTreeSet::new();
    for (_, owner, parsed) in load_all() {
        let (Some(owner @ Owner::Ruling(_)), Ok(scenario)) = (owner, parsed) else {
            continue;
        };
        for step in &scenario.steps {
            if step.expect.refused.is_some() {
                refused.insert(owner);
            }
            if step.expect.accepted == Some(true) {
                accepted.insert(owner);
            }
        }
    }
    let mut problems = Vec::new();
    for owner in (1..=RULINGS).map(Owner::Ruling) {
        if !accepted.contains(&owner) {
            problems.push(format!("{owner}: no accepted step in its files"));
        }
        if !refused.contains(&owner) {
            problems.push(format!("{owner}: no refused step in its files"));
        }
    }
    fail_on(problems);
}

#[test]
fn the_checks_catch_what_they_are_for() {
    assert_eq!(Square::parse("A1"), Some(Square { column: 0, row: 1 }));
    assert_eq!(
        Square::parse("R18"),
        Some(Square {
            column: 17,
            row: 18
        })
    );
    for bad in ["S1", "A0", "A19", "a1", "A01", "", "A"] {
        assert_eq!(Square::parse(bad), None, "{bad}");
    }
    let a = Square::parse("B2").unwrap();
    assert!(a.is_neighbour(Square::parse("C3").unwrap()));
    assert!(!a.is_neighbour(Square::parse("B4").unwrap()));
    assert!(!a.is_neighbour(a));
    assert!(is_rule_id("P36") && is_rule_id("P1"));
    assert!(!is_rule_id("P37") && !is_rule_id("P0") && !is_rule_id("P01") && !is_rule_id("E1"));
    assert_eq!(owner_of_stem('P', "P17b"), Some(Owner::Ruling(17)));
    assert_eq!(owner_of_stem('E', "E10"), Some(Owner::Example(10)));
    assert_eq!(owner_of_stem('P', "P7"), None);
    assert_eq!(owner_of_stem('P', "P37"), None);
    assert_eq!(owner_of_stem('P', "P17_x"), None);
}
