//! A rule case (tests/data/brothersatwar/README.md) turned into the engine's terms: its
//! map fragment and our terrain chart (terrain.toml) as a `Scenario` value, and a game
//! standing at the case's position (markers, displays, cup, track, the brigade
//! activating). The engine's state is public data, so the position is set directly: no
//! test-support code in src/ is needed.

use std::collections::BTreeMap;
use std::sync::Arc;

use orderly::games::brothers_at_war::core::battle::Battle;
use orderly::games::brothers_at_war::core::combat::{ReservesRule, RetreatRule, Scope, Setting};
use orderly::games::brothers_at_war::core::ids::{BrigadeId, Marker};
use orderly::games::brothers_at_war::core::order::OpFireRule;
use orderly::games::brothers_at_war::core::state::{Activation, BrothersAtWar, Place, Step};
use orderly::games::brothers_at_war::core::Hex;
use orderly::games::brothers_at_war::scenario::model::{
    self as m, ActivationTrack, Commander, Cost, Costs, Face, PerSide, ReserveTrack, Saves,
    Scenario, Sight, Upslope, Victory, FORMAT,
};
use serde::Deserialize;

use crate::format::{self as f, Case, Formation, Kind, Phase, Side, Status};

/// Our terrain chart (terrain.toml), as the case author wrote it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chart {
    hex: BTreeMap<String, ChartRow>,
    hexside: BTreeMap<String, ChartRow>,
    /// Roads and trails cost 1 a hex whatever else (5.211): the engine's rule, so the
    /// chart's value is read only to keep the file's every field known.
    #[serde(rename = "path")]
    _paths: BTreeMap<String, PathRow>,
}

/// One hex terrain or hexside feature of the chart.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChartRow {
    #[serde(rename = "move")]
    extra: u8,
    move_mounted: Option<u8>,
    los: String,
    cover: String,
    #[serde(default)]
    prohibited: bool,
    #[serde(default)]
    upslope_only: bool,
}

/// A road or trail: every hex entered along it costs `move` (5.211).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PathRow {
    #[serde(rename = "move")]
    _cost: u8,
}

/// The chart of tests/data/brothersatwar/terrain.toml.
pub fn chart() -> Chart {
    toml::from_str(include_str!("../data/brothersatwar/terrain.toml")).expect("terrain.toml")
}

/// Track spaces of the made-up activation track: long enough for every case's markers.
const TRACK_SPACES: usize = 12;

/// A hex by its CCRR name.
pub fn hex(name: &str) -> Result<Hex, String> {
    name.parse().map_err(|_| format!("{name} is not a hex"))
}

/// The engine's side for a seat.
pub fn side(s: Side) -> m::Side {
    match s {
        Side::North => m::Side::Union,
        Side::South => m::Side::Confederacy,
    }
}

/// The side of the counter a formation is printed on (5.4): formed, dismounted and
/// deployed are the fronts.
pub fn face(kind: Kind, formation: Option<Formation>) -> Face {
    match (kind, formation) {
        (_, None) => Face::Front,
        (Kind::Infantry, Some(Formation::Unformed))
        | (Kind::Cavalry | Kind::Skirmisher, Some(Formation::Mounted))
        | (Kind::Artillery, Some(Formation::Limbered)) => Face::Back,
        _ => Face::Front,
    }
}

fn sight(los: &str) -> Sight {
    match los {
        "hindrance" => Sight::Hindrance,
        "obstacle" => Sight::Obstacle,
        _ => Sight::Clear,
    }
}

fn cover(c: &str) -> m::Cover {
    match c {
        "cover" => m::Cover::Cover,
        "heavy" => m::Cover::Heavy,
        _ => m::Cover::None,
    }
}

fn costs(row: &ChartRow) -> Costs {
    let mounted = row.move_mounted.unwrap_or(row.extra);
    Costs {
        infantry: Cost::Extra(row.extra),
        cavalry: Cost::Extra(mounted),
        artillery: Cost::Extra(mounted),
    }
}

/// One character per terrain of the chart, for the map's grid.
fn legend(chart: &Chart) -> BTreeMap<String, String> {
    chart
        .hex
        .keys()
        .enumerate()
        .map(|(i, name)| (char::from(b'a' + i as u8).to_string(), name.clone()))
        .collect()
}

fn terrain(chart: &Chart) -> BTreeMap<String, m::Terrain> {
    chart
        .hex
        .iter()
        .map(|(name, row)| {
            let t = m::Terrain {
                name: name.clone(),
                moving: costs(row),
                sight: sight(&row.los),
                cover: cover(&row.cover),
                // The chart's names carry the rules that hang on a terrain's kind (5.41
                // woods, 6.6 buildings) and its prohibition is the river's (5.213).
                woods: name == "woods",
                building: name == "building",
                river: row.prohibited,
            };
            (name.clone(), t)
        })
        .collect()
}

/// The chart's hexside features. A feature that costs only upslope (the slope) is the
/// engine's `upslope` cost instead, which the engine charges on entering a higher hex
/// (5.21): the cases draw a slope hexside wherever levels change under a mover.
fn hexsides(chart: &Chart) -> (BTreeMap<String, m::Hexside>, Upslope) {
    let mut upslope = Upslope::default();
    let mut out = BTreeMap::new();
    for (name, row) in &chart.hexside {
        let crossing = if row.upslope_only {
            upslope.moving = costs(row);
            Costs::default()
        } else {
            costs(row)
        };
        out.insert(
            name.clone(),
            m::Hexside {
                name: name.clone(),
                crossing,
                sight: sight(&row.los),
                cover: cover(&row.cover),
                ford: name == "ford",
            },
        );
    }
    (out, upslope)
}

fn map(case: &Case, chart: &Chart) -> Result<m::Map, String> {
    let last = hex(&case.map.last)?;
    let (columns, rows) = (last.column(), last.row());
    let legend = legend(chart);
    let char_of: BTreeMap<&str, &str> = legend
        .iter()
        .map(|(c, t)| (t.as_str(), c.as_str()))
        .collect();
    let clear = char_of
        .get("clear")
        .ok_or("the chart has no clear terrain")?;
    let mut grid = vec![vec![clear.to_string(); usize::from(columns)]; usize::from(rows)];
    let mut levels = vec![vec!['1'; usize::from(columns)]; usize::from(rows)];
    for h in &case.map.hexes {
        let at = hex(&h.hex)?;
        let (c, r) = (usize::from(at.column() - 1), usize::from(at.row() - 1));
        if let Some(t) = &h.terrain {
            let ch = char_of
                .get(t.as_str())
                .ok_or_else(|| format!("no terrain {t}"))?;
            grid[r][c] = ch.to_string();
        }
        if let Some(l) = h.level {
            levels[r][c] = char::from(b'0' + l.min(9));
        }
    }
    let mut rally = PerSide {
        union: Vec::new(),
        confederacy: Vec::new(),
    };
    for p in &case.map.rally_points {
        match p.side {
            Side::North => rally.union.push(hex(&p.hex)?),
            Side::South => rally.confederacy.push(hex(&p.hex)?),
        }
    }
    let paths = |kind: &str| -> Vec<String> {
        case.map
            .paths
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.hexes.join(" "))
            .collect()
    };
    let fire_points = case
        .map
        .fire_points
        .iter()
        .map(|p| {
            Ok(m::FirePoint {
                id: p.id.clone(),
                at: hex(&p.hex)?,
                edge: Some(hex(&p.edge)?),
                range: p.range,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(m::Map {
        columns,
        rows,
        legend,
        terrain: grid.into_iter().map(|r| r.concat()).collect(),
        levels: levels.into_iter().map(String::from_iter).collect(),
        hexsides: case
            .map
            .hexsides
            .iter()
            .map(|s| format!("{} {} {}", s.between[0], s.between[1], s.feature))
            .collect(),
        roads: paths("road"),
        trails: paths("trail"),
        rally_points: rally,
        fire_points,
        places: BTreeMap::new(),
    })
}

/// The commander units of a case, by the brigade they command (4.1).
fn commanders(case: &Case) -> BTreeMap<&str, &f::Unit> {
    case.units
        .iter()
        .filter(|u| u.kind == Kind::Commander)
        .filter_map(|u| u.brigade.as_deref().map(|b| (b, u)))
        .collect()
}

fn brigades(case: &Case) -> Result<Vec<m::Brigade>, String> {
    let commanders = commanders(case);
    case.brigades
        .iter()
        .map(|b| {
            let commander = match commanders.get(b.id.as_str()) {
                Some(c) => Some(Commander {
                    name: c.id.clone(),
                    at: hex(&c.hex).ok(),
                }),
                // A brigade whose commander the case leaves out: he stands off the map,
                // and no step of such a case depends on him.
                None if !b.divisional => Some(Commander {
                    name: format!("{} commander", b.id),
                    at: None,
                }),
                None => None,
            };
            let spaces = b.spaces.unwrap_or(8);
            Ok(m::Brigade {
                id: b.id.clone(),
                name: b.id.clone(),
                side: side(b.side),
                divisional: b.divisional,
                commander,
                markers: b.markers.unwrap_or(2),
                arrives: 1,
                uncommitted: case.state.uncommitted.contains(&b.id),
                reserves: (!b.divisional).then(|| ReserveTrack {
                    length: spaces.saturating_sub(1),
                    dark: b.dark_gray.unwrap_or(4),
                    spent: b.reserve,
                }),
            })
        })
        .collect()
}

fn units(case: &Case) -> Result<(Vec<m::Unit>, Vec<m::OffBoard>), String> {
    let mut out = Vec::new();
    let mut cards: Vec<m::OffBoard> = Vec::new();
    for u in case.units.iter().filter(|u| u.kind != Kind::Commander) {
        let kind = match u.kind {
            Kind::Infantry => m::UnitKind::Infantry,
            Kind::Cavalry => m::UnitKind::Cavalry,
            Kind::Artillery => m::UnitKind::Artillery,
            Kind::Skirmisher => m::UnitKind::Skirmisher,
            Kind::Remnant | Kind::Commander => m::UnitKind::Remnant,
        };
        let shown = m::Ratings {
            firepower: u.firepower.unwrap_or(0),
            movement: u.movement.unwrap_or(0),
        };
        let other = u.reverse.as_ref().map_or(shown, |r| m::Ratings {
            firepower: r.firepower,
            movement: r.movement,
        });
        let face = face(u.kind, u.formation);
        let (front, back) = match face {
            Face::Front => (shown, other),
            Face::Back => (other, shown),
        };
        let (at, enters, off_board) = match u.hex.as_str() {
            "display" => (None, None, None),
            "offboard" => (None, None, u.card.clone()),
            "offmap" => {
                let entry = u.entry.as_deref().ok_or("a reinforcement without entry")?;
                let e = m::Entry {
                    turn: u.turn.unwrap_or(1),
                    at: vec![hex(entry)?],
                };
                (None, Some(e), None)
            }
            h => (Some(hex(h)?), None, None),
        };
        if let Some(card) = &u.card {
            if !cards.iter().any(|c| &c.id == card) {
                cards.push(m::OffBoard {
                    id: card.clone(),
                    name: card.clone(),
                    side: side(u.side),
                    fire_points: u.fire_point.iter().cloned().collect(),
                    level: u.card_level.unwrap_or(1),
                    saves: u.card_saves.unwrap_or(0),
                    counter_battery: false,
                });
            }
        }
        out.push(m::Unit {
            id: u.id.clone(),
            name: u.id.clone(),
            brigade: u.brigade.clone(),
            side: Some(side(u.side)),
            kind,
            front,
            back,
            range: u.range,
            cavalry_symbol: u.flags.contains(&f::Flag::CavalrySymbol),
            sharpshooter: u.flags.contains(&f::Flag::Sharpshooter),
            regiment: u.regiment.clone(),
            independent: u.flags.contains(&f::Flag::Independent),
            at,
            face,
            disrupted: u.status.contains(&Status::Disrupted),
            enters,
            off_board,
        });
    }
    Ok((out, cards))
}

fn track(case: &Case) -> ActivationTrack {
    let spaces = (1..=TRACK_SPACES)
        .map(|space| {
            let s = space as u8;
            if case.state.countdown_symbols.contains(&s) {
                "countdown".to_string()
            } else if case.state.draw_symbols.contains(&s) {
                "cards".to_string()
            } else {
                String::new()
            }
        })
        .collect();
    ActivationTrack {
        spaces,
        countdown_markers: case.state.countdown_box.unwrap_or(3).saturating_add(1),
    }
}

/// Cards in the made-up deck: enough for every hand a case writes and every draw.
const DECK: u8 = 40;

/// A deck of numbered cards of our own with no effect: the cases that draw or discard
/// count cards, whichever they are (11.1).
fn deck() -> Vec<m::Card> {
    (1..=DECK)
        .map(|n| m::Card {
            numbers: vec![n],
            name: format!("card {n}"),
            timing: "none".to_string(),
            effect: "none".to_string(),
            params: BTreeMap::new(),
            text: String::new(),
        })
        .collect()
}

/// Every hex of the case's map, as a key hex worth nothing (2.41).
fn key_hexes(case: &Case) -> Result<Vec<m::KeyHex>, String> {
    let last = hex(&case.map.last)?;
    let mut out = Vec::new();
    for c in 1..=last.column() {
        for r in 1..=last.row() {
            let at = Hex::new(c, r).ok_or("a hex off the grid")?;
            out.push(m::KeyHex {
                at,
                points: 0,
                controlled_by: None,
            });
        }
    }
    Ok(out)
}

/// The case as a battle of its own.
pub fn scenario(case: &Case, chart: &Chart) -> Result<Scenario, String> {
    let (hexside, upslope) = hexsides(chart);
    let (units, off_board) = units(case)?;
    let hand = case.state.hand_size.unwrap_or(3);
    Ok(Scenario {
        format: FORMAT.to_string(),
        id: format!("case-{}", case.id.replace('_', "-")),
        name: case.about.clone(),
        source: "orderly rule cases: original, not from the boxed game".to_string(),
        briefing: String::new(),
        turns: case.state.last_turn.unwrap_or(5),
        hand_size: PerSide {
            union: hand,
            confederacy: hand,
        },
        map: map(case, chart)?,
        terrain: terrain(chart),
        hexside,
        upslope,
        saves: Saves::default(),
        brigades: brigades(case)?,
        units,
        remnant: None,
        activation: track(case),
        off_board,
        cards: deck(),
        // The cases follow the control of every hex (2.41), so every hex is a key hex,
        // worth no points.
        victory: Victory {
            hexes: key_hexes(case)?,
            per_broken_brigade: 0,
            per_casualty: 0,
            instant: Vec::new(),
            draw_within: 0,
        },
        special: Default::default(),
    })
}

/// A marker of the cup or track by the case's name: a brigade's id (its first, then
/// second marker) or `countdown`.
fn markers(g: &BrothersAtWar, names: &[String]) -> Result<Vec<Marker>, String> {
    let mut seen: BTreeMap<BrigadeId, u8> = BTreeMap::new();
    names
        .iter()
        .map(|n| {
            if n == "countdown" {
                return Ok(Marker::Countdown);
            }
            let b = g
                .battle
                .brigade_named(n)
                .ok_or_else(|| format!("no brigade {n}"))?;
            let k = seen.entry(b).or_default();
            *k += 1;
            Ok(Marker::Brigade(b, *k - 1))
        })
        .collect()
}

/// The brigade activating: the state's `active`, else the brigade of the first step's
/// first unit, else the first step's brigade (README "State").
pub fn active(case: &Case) -> Option<String> {
    if let Some(a) = &case.state.active {
        return Some(a.clone());
    }
    // Reactions are the other side's: the activating brigade is the first actor's.
    let step = case.steps.iter().find(|s| {
        !matches!(
            s.action,
            f::Action::OpportunityFire | f::Action::PointBlankFire
        )
    })?;
    let unit = step
        .units
        .first()
        .and_then(|id| case.units.iter().find(|u| &u.id == id));
    let unit = unit.or_else(|| {
        let sk = step.skirmisher.as_ref()?;
        case.units.iter().find(|u| &u.id == sk)
    });
    unit.and_then(|u| u.brigade.clone())
        .or_else(|| step.brigade.clone())
}

/// A game standing at the case's position.
pub fn game(case: &Case, chart: &Chart) -> Result<BrothersAtWar, String> {
    let battle = Battle::new(scenario(case, chart)?).map_err(|e| e.to_string())?;
    let mut g = BrothersAtWar::start(Arc::new(battle));
    for u in case.units.iter().filter(|u| u.kind != Kind::Commander) {
        let id = g.unit_named(&u.id).ok_or("a unit lost")?;
        let s = &mut g.now.units[id.index()];
        s.place = match u.hex.as_str() {
            "display" => Place::Display,
            "offboard" => Place::OffBoard,
            "offmap" => Place::Waiting,
            h => Place::Map(hex(h)?),
        };
        s.finished = u.status.contains(&Status::Finished);
        s.disrupted = u.status.contains(&Status::Disrupted);
        s.out_of_command = u.status.contains(&Status::OutOfCommand);
    }
    for b in &case.brigades {
        let id = g.battle.brigade_named(&b.id).ok_or("a brigade lost")?;
        let s = &mut g.now.brigades[id.index()];
        s.reserve = b.reserve;
        s.casualties = b.casualties;
        s.exhausted = b.exhausted;
        s.broken = case.state.broken_box.contains(&b.id);
        s.committed = !case.state.uncommitted.contains(&b.id);
        s.free_this_turn = false;
    }
    let st = &case.state;
    g.now.turn = st.turn.unwrap_or(1);
    let mut cup = markers(&g, &st.cup)?;
    cup.sort();
    g.now.cup = cup;
    g.now.track = markers(&g, &st.track)?;
    g.now.countdown_box = st.countdown_box.unwrap_or(3);
    g.now.exhausted_box = st
        .exhausted_box
        .iter()
        .map(|b| g.battle.brigade_named(b).ok_or(format!("no brigade {b}")))
        .collect::<Result<_, _>>()?;
    g.now.control = case
        .map
        .control
        .iter()
        .map(|c| Ok((hex(&c.hex)?, side(c.side))))
        .collect::<Result<_, String>>()?;
    // Each card a hand names is one of the deck's, in order; the rest is the deck.
    let (north, south) = st
        .hands
        .as_ref()
        .map_or((0, 0), |h| (h.north.len(), h.south.len()));
    let numbers: Vec<u8> = (1..=DECK).collect();
    let (north, rest) = numbers.split_at(north.min(numbers.len()));
    let (south, rest) = rest.split_at(south.min(rest.len()));
    g.now.hands = [north.to_vec(), south.to_vec()];
    g.now.deck = rest.to_vec();
    g.now.discard.clear();
    g.now.draws.clear();
    g.now.checks.clear();
    g.now.activation = None;
    g.now.free_queue.clear();
    g.now.ended = None;
    // The brigades whose markers reached the track this turn (2.32 c): those on the case's
    // track, or, with no track written, those the case does not call inactive.
    g.now.activated_this_turn = case
        .brigades
        .iter()
        .filter(|b| match st.track.is_empty() {
            true => !b.inactive,
            false => st.track.contains(&b.id),
        })
        .filter_map(|b| g.battle.brigade_named(&b.id))
        .collect();
    for b in case.brigades.iter().filter(|b| b.free_last_turn) {
        if let Some(id) = g.battle.brigade_named(&b.id) {
            g.now.brigades[id.index()].free_this_turn = true;
        }
    }
    // Reactions and a defender's choices are steps of their own in the cases (README
    // "Steps"): no opportunity or point blank fire, retreat or reserve unless a step says.
    for side in [m::Side::Union, m::Side::Confederacy] {
        for setting in [
            Setting::OpFire(OpFireRule::Never),
            Setting::PointBlank(OpFireRule::Never),
            Setting::Retreat(RetreatRule::Never, false),
            Setting::Reserves(ReservesRule::Keep),
            Setting::Evade(OpFireRule::Never, false),
        ] {
            g.now.instructions.set(Scope::All(side), setting);
        }
    }
    let first = case.steps.first().map(|s| s.action);
    let mut events = Vec::new();
    match st.phase.unwrap_or(Phase::Activation) {
        // A case that opens with a draw from the cup stands at the selection step (2.21).
        Phase::Activation if first == Some(f::Action::DrawMarker) => g.now.step = Step::Select,
        // A case that opens with a recovery or a check stands just before its brigade's
        // marker is drawn: the engine's own activation then recovers it (2.22, 3.21).
        Phase::Activation
            if matches!(
                first,
                Some(f::Action::Recover | f::Action::RallyCheck | f::Action::CommandCheck)
            ) =>
        {
            let name = active(case).ok_or("no brigade activates")?;
            let b = g
                .battle
                .brigade_named(&name)
                .ok_or(format!("no brigade {name}"))?;
            if !g
                .now
                .cup
                .iter()
                .any(|m| matches!(m, Marker::Brigade(x, _) if *x == b))
            {
                g.now.cup.push(Marker::Brigade(b, 0));
                g.sort_cup();
            }
            g.now.step = Step::Select;
        }
        Phase::Activation => {
            let name = active(case).ok_or("no brigade activates")?;
            let b = g
                .battle
                .brigade_named(&name)
                .ok_or(format!("no brigade {name}"))?;
            g.now.activation = Some(Activation::new(b, false));
            g.now.step = Step::Units(b);
        }
        // A preparation is reached the engine's way: the turn before ends (its clean up
        // decides the free activations due, 2.32, 2.321) and the next one is prepared.
        Phase::Preparation => {
            g.now.step = Step::Cleanup;
            g.advance(&mut events);
        }
        // The fate check step queues its checks as the engine reaches it (2.33).
        Phase::End if first == Some(f::Action::FateCheck) => {
            g.now.step = Step::Fate;
            g.advance(&mut events);
        }
        // The discard and draw step runs by itself (2.31, B121): the case stands before it.
        Phase::End if first == Some(f::Action::DiscardAndDraw) => {
            g.now.step = Step::EndDiscard(m::Side::Union);
            g.advance(&mut events);
        }
        Phase::End => g.now.step = Step::Cleanup,
    }
    Ok(g)
}
