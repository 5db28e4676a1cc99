//! `orderly scenario check`: every problem of a scenario file, each with
//! its line. The file's syntax and shape first ([`Scenario::from_toml`]);
//! then the map ([`BattleMap::build`]), the forces, the track, the deck
//! and victory, all reported together.

use std::collections::HashSet;

use super::cards::{self, Words};
use super::field::Field;
use super::findings::{short_id, Finding, Findings};
use super::forces;
use super::lines::Lines;
use super::model::{Scenario, FORMAT};
use super::problem::Problem;
use crate::games::brothers_at_war::core::BattleMap;

/// The longest battle, in turns.
pub const MAX_TURNS: u8 = 60;
/// The longest activation track.
pub const MAX_TRACK: usize = 99;
/// The most key hexes, instant conditions, exits or fire points.
pub const MAX_LIST: usize = 99;
/// The most cards a hand may be set to hold.
pub const MAX_HAND: u8 = 10;
/// The symbols an activation track space may carry (3.14).
pub const TRACK_SYMBOLS: &[&str] = &["", "countdown", "cards"];

/// A scenario file that checked clean, with its compiled map.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The file, read.
    pub scenario: Scenario,
    /// Its map.
    pub map: BattleMap,
}

impl Checked {
    /// The one-line summary `orderly scenario check` prints for a clean
    /// file: id, name, turns, map size, brigades (divisional artillery is
    /// not a brigade, 9.3), units and cards.
    pub fn summary(&self) -> String {
        let s = &self.scenario;
        let brigades = s.brigades.iter().filter(|b| !b.divisional).count();
        let cards: usize = s.cards.iter().map(|c| c.numbers.len()).sum();
        format!(
            "{}: {}, {} turns, {} x {} hexes, {} brigades, {} units, {} cards",
            s.id,
            s.name,
            s.turns,
            self.map.columns(),
            self.map.rows(),
            brigades,
            s.units.len(),
            cards
        )
    }
}

/// Every problem of the file, sorted by line; empty when it is fine.
pub fn check(text: &str) -> Vec<Problem> {
    load_with(text, &Words::default()).err().unwrap_or_default()
}

/// Reads and checks a scenario file with the engine's card words.
pub fn load(text: &str) -> Result<Checked, Vec<Problem>> {
    load_with(text, &Words::default())
}

/// Reads and checks a scenario file, the deck against `words`.
pub fn load_with(text: &str, words: &Words<'_>) -> Result<Checked, Vec<Problem>> {
    let scenario = Scenario::from_toml(text)?;
    let (map, found) = findings(&scenario, words);
    match map {
        Some(map) if found.is_empty() => Ok(Checked { scenario, map }),
        _ => {
            let lines = Lines::new(text);
            let mut problems: Vec<Problem> = found
                .into_iter()
                .map(|Finding { field, message }| Problem {
                    line: lines.line(&field),
                    message,
                })
                .collect();
            problems.sort();
            problems.dedup();
            Err(problems)
        }
    }
}

/// The problems of a scenario already read, each by field, with its map
/// when the map is sound.
pub fn findings(s: &Scenario, words: &Words<'_>) -> (Option<BattleMap>, Vec<Finding>) {
    let mut f = Findings::default();
    header(s, &mut f);
    // The rest is checked against the map as far as it resolves, so that
    // one bad grid line does not hide the set-up's problems.
    let (map, problems) = BattleMap::build_partial(s);
    let map_ok = problems.is_empty();
    for p in problems {
        f.push(p.field, p.message);
    }
    fire_points(s, &mut f);
    forces::check(s, map.as_ref(), &mut f);
    track(s, &mut f);
    cards::check(&s.cards, words, &mut f);
    if let Some(map) = &map {
        victory(s, map, &mut f);
    }
    (map.filter(|_| map_ok), f.into_vec())
}

/// Whether `id` is a scenario id: 1 to 40 lower-case letters, digits and
/// single dashes, starting with a letter.
fn scenario_id(id: &str) -> bool {
    (1..=40).contains(&id.len())
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn header(s: &Scenario, f: &mut Findings) {
    f.require(
        s.format == FORMAT,
        Field::key("format"),
        format!("format must be \"{FORMAT}\", not \"{}\"", s.format),
    );
    f.require(
        scenario_id(&s.id),
        Field::key("id"),
        format!(
            "id `{}` must be lower-case letters, digits and dashes, starting with a letter",
            s.id
        ),
    );
    f.require(
        !s.name.trim().is_empty(),
        Field::key("name"),
        "the battle needs a name",
    );
    f.require(
        !s.source.trim().is_empty(),
        Field::key("source"),
        "say where the battle comes from",
    );
    f.require(
        (1..=MAX_TURNS).contains(&s.turns),
        Field::key("turns"),
        format!("turns must be 1 to {MAX_TURNS}, not {}", s.turns),
    );
    for (side, n) in [
        ("union", s.hand_size.union),
        ("confederacy", s.hand_size.confederacy),
    ] {
        f.require(
            n <= MAX_HAND,
            Field::key("hand_size").then(side),
            format!("a hand size is at most {MAX_HAND}"),
        );
    }
}

fn fire_points(s: &Scenario, f: &mut Findings) {
    let field = Field::keys("map.fire_points");
    f.bound(&field, s.map.fire_points.len(), MAX_LIST, "fire points");
    let mut ids = HashSet::new();
    for (i, p) in s.map.fire_points.iter().take(MAX_LIST).enumerate() {
        f.require(
            short_id(&p.id) && ids.insert(p.id.to_ascii_lowercase()),
            field.clone().at(i).then("id"),
            format!("fire point id `{}` must be a short id, used once", p.id),
        );
        f.require(
            (1..=forces::MAX_RANGE).contains(&p.range),
            field.clone().at(i).then("range"),
            format!("a fire point's range is 1 to {}", forces::MAX_RANGE),
        );
    }
}

/// The activation track (3.11-3.14): known symbols; START and at least
/// one more space, so that the two countdown markers that end the phase
/// (2.23) have places; and, when countdown markers wait in the box, a
/// countdown space to bring them into the cup (3.13, 3.14), or the phase
/// could only end when the cup runs dry. A track shorter than the markers
/// of a turn is allowed: later markers go to blank spaces (B38).
fn track(s: &Scenario, f: &mut Findings) {
    let field = Field::key("activation");
    let spaces = &s.activation.spaces;
    f.bound(
        &field.clone().then("spaces"),
        spaces.len(),
        MAX_TRACK,
        "spaces",
    );
    for (i, space) in spaces.iter().take(MAX_TRACK).enumerate() {
        f.require(
            TRACK_SYMBOLS.contains(&space.as_str()),
            field.clone().then("spaces").at(i),
            format!("`{space}` is not a track symbol: \"\", \"countdown\" or \"cards\" (3.14)"),
        );
    }
    f.require(
        spaces.len() >= 2,
        field.clone().then("spaces"),
        "the track needs START and at least one more space for the two countdown markers (2.23)",
    );
    f.require(
        spaces.iter().any(|space| space == "countdown"),
        field.clone().then("spaces"),
        "no countdown space: the countdown markers in the box would never reach the cup (3.13, 3.14)",
    );
    f.require(
        (2..=9).contains(&s.activation.countdown_markers),
        field.then("countdown_markers"),
        "2 to 9 countdown markers: the phase ends on the second (3.13)",
    );
}

fn victory(s: &Scenario, map: &BattleMap, f: &mut Findings) {
    let v = &s.victory;
    let field = Field::keys("victory.hex");
    f.bound(&field, v.hexes.len(), MAX_LIST, "key hexes");
    let mut seen = HashSet::new();
    for (i, key) in v.hexes.iter().take(MAX_LIST).enumerate() {
        f.require(
            map.contains(key.at),
            field.clone().at(i).then("at"),
            format!("key hex {} is off the map", key.at),
        );
        f.require(
            seen.insert(key.at),
            field.clone().at(i).then("at"),
            format!("key hex {} is listed twice", key.at),
        );
    }
    let field = Field::keys("victory.instant");
    f.bound(
        &field,
        v.instant.len(),
        MAX_LIST,
        "instant victory conditions",
    );
    for (i, instant) in v.instant.iter().take(MAX_LIST).enumerate() {
        let enemy_brigades = s
            .brigades
            .iter()
            .filter(|b| b.side != instant.side && !b.divisional)
            .count();
        f.require(
            !instant.control.is_empty() || instant.broken_brigades.is_some(),
            field.clone().at(i),
            "an instant victory needs hexes to control or brigades to break",
        );
        for (j, hex) in instant.control.iter().take(MAX_LIST).enumerate() {
            f.require(
                map.contains(*hex),
                field.clone().at(i).then("control").at(j),
                format!("{hex} is off the map"),
            );
        }
        if let Some(n) = instant.broken_brigades {
            f.require(
                usize::from(n) <= enemy_brigades,
                field.clone().at(i).then("broken_brigades"),
                format!("the enemy has only {enemy_brigades} brigades"),
            );
        }
    }
    let field = Field::keys("special.exits");
    f.bound(&field, s.special.exits.len(), MAX_LIST, "exits");
    for (i, exit) in s.special.exits.iter().take(MAX_LIST).enumerate() {
        for (j, hex) in exit.at.iter().take(MAX_LIST).enumerate() {
            f.require(
                map.on_edge(*hex),
                field.clone().at(i).then("at").at(j),
                format!("exit hex {hex} is not on the map's edge (5.214)"),
            );
        }
    }
}
