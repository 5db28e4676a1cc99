//! The battle map as a picture (issue 19; docs/pictures.md): every hex of
//! the scenario's map in its terrain's colour with its name, the height
//! levels as contour lines and figures, the hexside features (fords,
//! walls, fences), the roads and trails, the places, key hexes and rally
//! points; each unit as a counter in its side's colour with its code and
//! its type's symbol, the hex's marker, and the commanders; the last
//! action drawn as arrows: moves, fire along its line of sight, assaults
//! and retreats; and a legend built from the scenario's own charts.
//!
//! Everything comes from the scenario file the engine reads (orderly's own
//! Tanner's Ford, or an owner's typed copy of a boxed scenario): nothing of
//! the published maps is drawn from anywhere else. The map keeps north up
//! for both players, as the ASCII board does (its window is never turned),
//! so that the picture and the hexes named under it agree.

use super::codes::Codes;
use super::drawing::event_hexes;
use crate::games::brothers_at_war::core::combat::CombatEvent;
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::map::{BattleMap, HexsideId, TerrainId};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, UnitState};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};
use crate::picture::font::width as text_width;
use crate::picture::shapes::{segments, shorten, star as star_of, Segment};
use crate::picture::{Anchor, Colour, Stroke, Svg};

/// A hex's radius (centre to corner) in pixels: room for its name, a
/// counter and a place name.
const RADIUS: f32 = 22.0;
/// A hex's height, flat side to flat side.
const HEIGHT: f32 = RADIUS * 1.732_050_8;
/// The blank round the map, which holds the column and row numbers.
const MARGIN: f32 = 22.0;
/// The title line above the map.
const TITLE: f32 = 16.0;
/// The height of one line of the legend.
const LEGEND_LINE: f32 = 19.0;
/// The largest side a picture is shown at: a large scenario map is drawn
/// whole and scaled down to this (the renderer's limit is 2048).
const SHOWN_SIDE: u32 = 1600;

const PAPER: Colour = "#ffffff";
const OPEN: Colour = "#efe6c8";
const WOODS: Colour = "#9cc48a";
const TREE: Colour = "#4f7d3a";
const ORCHARD: Colour = "#cfe3b0";
const FIELD: Colour = "#efdc8c";
const FURROW: Colour = "#c9ae4a";
const WATER: Colour = "#9cc3e4";
const MARSH: Colour = "#c4dccf";
const ROUGH: Colour = "#d2c3a0";
const HOUSE: Colour = "#8b3a2e";
const BRIDGE: Colour = "#8c8c8c";
const GRID: Colour = "#b8ab88";
const LABEL: Colour = "#5a4d35";
const HEX_NAME: Colour = "#9a8c6a";
const CONTOUR: Colour = "#8a5a2b";
const ROAD: Colour = "#6b4a2b";
const FORD: Colour = "#2f7fd0";
const WALL: Colour = "#4a4a4a";
const FENCE: Colour = "#7a5230";
const OTHER_SIDE: Colour = "#5b3a8c";
const INK: Colour = "#1b1b1b";
const WHITE: Colour = "#ffffff";
const HIGHLIGHT: Colour = "#e0a800";
const MOVE: Colour = "#1b1b1b";
const FIRE: Colour = "#c0392b";
const RETREAT: Colour = "#e67e22";
const FINISHED: Colour = "#1b1b1b";
const DISRUPTED: Colour = "#c0392b";
const OUT_OF_COMMAND: Colour = "#e67e22";

/// A side's colour: Union blue, Confederate gray (as in the 1863 game's
/// picture).
fn colour(side: Side) -> Colour {
    match side {
        Side::Union => "#2c5aa0",
        Side::Confederacy => "#6f7680",
    }
}

/// How a kind of terrain is drawn. The scenario's terrain chart names the
/// kinds freely, so the look comes from what the chart says the terrain
/// is (woods, a building, a river: B16) and, for the rest, from common
/// words in its key or name; anything else is open ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    Open,
    Woods,
    Orchard,
    Field,
    Water,
    Bridge,
    Marsh,
    Rough,
    Building,
}

impl Look {
    fn of(map: &BattleMap, id: TerrainId) -> Look {
        let terrain = &map.terrains()[usize::from(id.0)];
        let words = format!("{} {}", map.terrain_name(id), terrain.name).to_ascii_lowercase();
        let has = |w: &[&str]| w.iter().any(|w| words.contains(w));
        if has(&["bridge"]) {
            Look::Bridge
        } else if terrain.river {
            Look::Water
        } else if terrain.woods {
            Look::Woods
        } else if terrain.building || has(&["town", "village", "house", "mill", "church"]) {
            Look::Building
        } else if has(&["orchard"]) {
            Look::Orchard
        } else if has(&["corn", "wheat", "field", "crop", "grain"]) {
            Look::Field
        } else if has(&["marsh", "swamp", "bog"]) {
            Look::Marsh
        } else if has(&["rough", "rock", "broken", "boulder"]) {
            Look::Rough
        } else if has(&["river", "creek", "stream", "run", "pond", "lake", "water"]) {
            Look::Water
        } else if has(&["wood", "forest", "thicket"]) {
            Look::Woods
        } else {
            Look::Open
        }
    }

    fn fill(self) -> Colour {
        match self {
            Look::Open | Look::Building => OPEN,
            Look::Woods => WOODS,
            Look::Orchard => ORCHARD,
            Look::Field => FIELD,
            Look::Water | Look::Bridge => WATER,
            Look::Marsh => MARSH,
            Look::Rough => ROUGH,
        }
    }
}

/// The centre of `hex` in pixels: columns from the west, even columns
/// half a hex higher than odd ones (B15).
fn centre(hex: Hex) -> (f32, f32) {
    let c = f32::from(hex.column() - 1);
    let r = f32::from(hex.row() - 1);
    let lower = if hex.column() % 2 == 1 {
        HEIGHT / 2.0
    } else {
        0.0
    };
    (
        MARGIN + RADIUS + c * 1.5 * RADIUS,
        TITLE + MARGIN + HEIGHT / 2.0 + r * HEIGHT + lower,
    )
}

/// The six corners of a flat-topped hex about (`cx`, `cy`), `r` from it.
fn corners(cx: f32, cy: f32, r: f32) -> Vec<(f32, f32)> {
    (0..6)
        .map(|i| {
            let angle = std::f32::consts::PI / 3.0 * i as f32;
            (cx + r * angle.cos(), cy + r * angle.sin())
        })
        .collect()
}

/// The hexside between two neighbours: its two ends.
fn side_between(a: Hex, b: Hex) -> ((f32, f32), (f32, f32)) {
    let (ax, ay) = centre(a);
    let (bx, by) = centre(b);
    let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
    let (dx, dy) = (bx - ax, by - ay);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    // A hexside is as long as the radius, square to the line between the
    // centres.
    let (px, py) = (-dy / length * RADIUS / 2.0, dx / length * RADIUS / 2.0);
    ((mx + px, my + py), (mx - px, my - py))
}

/// The decoration a look adds over its colour: trees, rows of fruit
/// trees, furrows, a bridge's deck, a building.
fn decorate(svg: &mut Svg, look: Look, cx: f32, cy: f32) {
    match look {
        Look::Woods => {
            for (dx, dy) in [(-10.0, 4.0), (9.0, 5.0), (-1.0, 11.0), (14.0, -4.0)] {
                svg.circle(cx + dx, cy + dy, 3.2, Some(TREE), None);
            }
        }
        Look::Orchard => {
            for (dx, dy) in [(-12.0, 6.0), (-4.0, 12.0), (4.0, 12.0), (12.0, 6.0)] {
                svg.circle(cx + dx, cy + dy, 1.8, Some(TREE), None);
            }
        }
        Look::Field => {
            let rows: Vec<Segment> = [6.0, 10.0, 14.0]
                .iter()
                .map(|dy| ((cx - 12.0, cy + dy), (cx + 12.0, cy + dy)))
                .collect();
            svg.path(&segments(&rows), None, Some(Stroke::solid(FURROW, 1.0)));
        }
        Look::Bridge => {
            svg.rect(
                cx - RADIUS * 0.9,
                cy - 4.0,
                RADIUS * 1.8,
                8.0,
                Some(BRIDGE),
                Some(Stroke::solid(INK, 0.6)),
            );
        }
        Look::Marsh => {
            let tufts: Vec<Segment> = [(-10.0, 8.0), (0.0, 13.0), (10.0, 8.0)]
                .iter()
                .map(|(dx, dy)| ((cx + dx - 3.0, cy + dy), (cx + dx + 3.0, cy + dy)))
                .collect();
            svg.path(&segments(&tufts), None, Some(Stroke::solid(FORD, 1.0)));
        }
        Look::Rough => {
            for (dx, dy) in [(-9.0, 8.0), (8.0, 10.0)] {
                svg.polyline(
                    &[
                        (cx + dx - 3.0, cy + dy),
                        (cx + dx, cy + dy - 4.0),
                        (cx + dx + 3.0, cy + dy),
                    ],
                    Some(CONTOUR),
                    None,
                );
            }
        }
        Look::Building => {
            svg.rect(
                cx + 7.0,
                cy + 3.0,
                8.0,
                7.0,
                Some(HOUSE),
                Some(Stroke::solid(INK, 0.6)),
            );
        }
        Look::Open | Look::Water => {}
    }
}

/// The ground: each hex in its terrain's look with its name (CCRR, which
/// the orders use) at the top, and the height levels: a contour line along
/// every hexside where the ground falls, and the level in figures on a
/// hex above level 1 (or below it, at 0), as the ASCII board marks it.
fn ground(svg: &mut Svg, map: &BattleMap, looks: &[Look]) {
    for hex in map.hexes() {
        let (cx, cy) = centre(hex);
        let look = looks[usize::from(map.terrain(hex).0)];
        svg.crisp_polygon(
            &corners(cx, cy, RADIUS),
            Some(look.fill()),
            Some(Stroke::solid(GRID, 0.6)),
        );
        decorate(svg, look, cx, cy);
        svg.text(
            &hex.to_string(),
            cx,
            cy - HEIGHT / 2.0 + 2.5,
            4.5,
            Anchor::Middle,
            HEX_NAME,
        );
        let level = map.level(hex);
        if level != 1 {
            svg.text(
                &level.to_string(),
                cx - RADIUS + 6.0,
                cy - 3.0,
                6.0,
                Anchor::Middle,
                CONTOUR,
            );
        }
    }
    let mut contours = Vec::new();
    for hex in map.hexes() {
        for n in map.neighbours(hex) {
            if map.level(n) < map.level(hex) {
                contours.push(side_between(hex, n));
            }
        }
    }
    svg.path(
        &segments(&contours),
        None,
        Some(Stroke::solid(CONTOUR, 2.2)),
    );
}

/// How a kind of hexside is drawn: a ford as a blue dash across the
/// water, a wall grey and heavy, a fence brown and broken, anything else
/// in the one remaining colour.
fn hexside_stroke(map: &BattleMap, id: HexsideId) -> Stroke {
    let kind = &map.hexside_kinds()[usize::from(id.0)];
    let words = format!("{} {}", map.hexside_name(id), kind.name).to_ascii_lowercase();
    if kind.ford {
        Stroke::dashed(FORD, 3.0, 3.0, 2.0)
    } else if words.contains("wall") || words.contains("stone") {
        Stroke::solid(WALL, 3.2)
    } else if words.contains("fence") || words.contains("hedge") {
        Stroke::dashed(FENCE, 2.2, 4.0, 2.0)
    } else {
        Stroke::solid(OTHER_SIDE, 2.6)
    }
}

/// The hexside features, each kind as one path.
fn hexsides(svg: &mut Svg, map: &BattleMap) {
    for (i, _) in map.hexside_kinds().iter().enumerate() {
        let Ok(index) = u8::try_from(i) else {
            break;
        };
        let id = HexsideId(index);
        let mut pairs = Vec::new();
        for a in map.hexes() {
            for b in map.neighbours(a).filter(|&b| b > a) {
                if map.hexside(a, b).contains(&id) {
                    pairs.push(side_between(a, b));
                }
            }
        }
        svg.path(&segments(&pairs), None, Some(hexside_stroke(map, id)));
    }
}

/// The roads as dark lines from centre to centre, the trails dashed.
fn roads(svg: &mut Svg, map: &BattleMap) {
    let mut roads = Vec::new();
    let mut trails = Vec::new();
    for a in map.hexes() {
        for b in map.neighbours(a).filter(|&b| b > a) {
            if map.road(a, b) {
                roads.push((centre(a), centre(b)));
            } else if map.trail(a, b) {
                trails.push((centre(a), centre(b)));
            }
        }
    }
    svg.path(&segments(&roads), None, Some(Stroke::solid(ROAD, 2.6)));
    svg.path(
        &segments(&trails),
        None,
        Some(Stroke::dashed(ROAD, 1.4, 4.0, 3.0)),
    );
}

/// A star about (`cx`, `cy`): a key hex.
fn star(svg: &mut Svg, cx: f32, cy: f32, r: f32, fill: Colour) {
    star_of(svg, cx, cy, r, fill, Stroke::solid(INK, 0.7));
}

/// A rally point: a small pennant of its side's colour (2.0: where beaten
/// units run to).
fn pennant(svg: &mut Svg, x: f32, y: f32, side: Side) {
    svg.polyline(
        &[(x, y), (x, y - 10.0)],
        None,
        Some(Stroke::solid(INK, 1.0)),
    );
    svg.polyline(
        &[(x, y - 10.0), (x + 7.0, y - 7.5), (x, y - 5.0)],
        Some(colour(side)),
        Some(Stroke::solid(INK, 0.5)),
    );
}

/// The places by name, the key hexes as stars in the colour of the side
/// holding them (white while nobody does), the rally points.
fn places(svg: &mut Svg, game: &BrothersAtWar) {
    let map = &game.battle.map;
    for hex in map.hexes() {
        if let Some(name) = map.place(hex) {
            let (cx, cy) = centre(hex);
            svg.text(name, cx, cy + 11.5, 4.5, Anchor::Middle, LABEL);
        }
    }
    for hex in game.key_hexes() {
        let (cx, cy) = centre(hex);
        let fill = game.now.control.get(&hex).map_or(WHITE, |&s| colour(s));
        star(svg, cx + RADIUS - 8.0, cy - 6.0, 5.0, fill);
    }
    for side in [Side::Union, Side::Confederacy] {
        for &hex in map.rally_points(side) {
            let (cx, cy) = centre(hex);
            pennant(svg, cx + RADIUS - 10.0, cy + 12.0, side);
        }
    }
}

/// Whether a unit shows its counter's back: unformed infantry, mounted
/// cavalry, limbered guns (5.4).
fn back_face(formation: Formation) -> bool {
    matches!(
        formation,
        Formation::Unformed
            | Formation::Mounted
            | Formation::Limbered
            | Formation::MountedSkirmisher
    )
}

/// A unit type's symbol in white inside a counter's left part, `x`, `y` its
/// top left, 9 x 9: a cross for foot, a bar for horse, a disc for guns,
/// dots for skirmishers, a broken bar for a remnant.
fn symbol(svg: &mut Svg, kind: UnitKind, x: f32, y: f32) {
    let white = Stroke::solid(WHITE, 1.3);
    match kind {
        UnitKind::Infantry => {
            svg.rect(x, y, 9.0, 7.0, None, Some(Stroke::solid(WHITE, 0.9)));
            svg.path(
                &segments(&[((x, y), (x + 9.0, y + 7.0)), ((x + 9.0, y), (x, y + 7.0))]),
                None,
                Some(Stroke::solid(WHITE, 0.9)),
            );
        }
        UnitKind::Cavalry => {
            svg.rect(x, y, 9.0, 7.0, None, Some(Stroke::solid(WHITE, 0.9)));
            svg.polyline(&[(x, y + 7.0), (x + 9.0, y)], None, Some(white));
        }
        UnitKind::Artillery => {
            svg.rect(x, y, 9.0, 7.0, None, Some(Stroke::solid(WHITE, 0.9)));
            svg.circle(x + 4.5, y + 3.5, 2.0, Some(WHITE), None);
        }
        UnitKind::Skirmisher => {
            for dx in [1.5, 4.5, 7.5] {
                svg.circle(x + dx, y + 3.5, 1.0, Some(WHITE), None);
            }
        }
        UnitKind::Remnant => {
            svg.path(
                &segments(&[
                    ((x, y + 3.5), (x + 3.5, y + 3.5)),
                    ((x + 5.5, y + 3.5), (x + 9.0, y + 3.5)),
                ]),
                None,
                Some(white),
            );
        }
    }
}

/// A small square badge with one letter: a hex's marker (1.5).
fn badge(svg: &mut Svg, x: f32, y: f32, letter: &str, fill: Colour) {
    svg.rect(x, y, 8.0, 8.0, Some(fill), Some(Stroke::solid(WHITE, 0.6)));
    svg.text(letter, x + 4.0, y + 1.8, 4.5, Anchor::Middle, WHITE);
}

const COUNTER_W: f32 = 26.0;
const COUNTER_H: f32 = 16.0;

/// One counter with its top left at (`x`, `y`): the side's colour, the
/// type's symbol, the unit's code, and a white corner when the counter
/// shows its back.
fn counter(svg: &mut Svg, x: f32, y: f32, side: Side, kind: UnitKind, code: &str, back: bool) {
    let outline = if kind == UnitKind::Remnant {
        Stroke::dashed(INK, 1.0, 2.0, 1.5)
    } else {
        Stroke::solid(INK, 1.0)
    };
    svg.rounded(
        x,
        y,
        COUNTER_W,
        COUNTER_H,
        2.0,
        Some(colour(side)),
        Some(outline),
    );
    symbol(svg, kind, x + 2.5, y + 4.5);
    svg.text(code, x + 18.5, y + 5.0, 6.0, Anchor::Middle, WHITE);
    if back {
        svg.polyline(
            &[
                (x + COUNTER_W - 6.0, y + COUNTER_H),
                (x + COUNTER_W, y + COUNTER_H - 6.0),
                (x + COUNTER_W, y + COUNTER_H),
            ],
            Some(WHITE),
            None,
        );
    }
}

/// The units: each hex's stack as its first unit's counter over the edges
/// of the others' (at most two shown behind), the number of units when
/// more than one, and the hex's markers: Finished, Disrupted, out of
/// command (1.5, 4.3).
fn units(svg: &mut Svg, game: &BrothersAtWar, codes: &Codes) {
    // Each hex's stack in id order, gathered in one pass over the units
    // rather than one per hex of the map; drawn row by row, as the map's
    // hexes are listed, so that overlapping counters lie the same way.
    let mut stacks: std::collections::BTreeMap<(u8, u8), (Hex, Vec<UnitId>)> =
        std::collections::BTreeMap::new();
    for u in game.unit_ids() {
        if let Some(hex) = game.hex_of(u) {
            stacks
                .entry((hex.row(), hex.column()))
                .or_insert_with(|| (hex, Vec::new()))
                .1
                .push(u);
        }
    }
    for (hex, stack) in stacks.into_values() {
        let Some(&top) = stack.first() else {
            continue;
        };
        let (cx, cy) = centre(hex);
        let (x, y) = (cx - COUNTER_W / 2.0, cy - 9.0);
        let side = game.side_of(top);
        for depth in (1..stack.len().min(3)).rev() {
            let shift = depth as f32 * 2.0;
            svg.rounded(
                x + shift,
                y - shift,
                COUNTER_W,
                COUNTER_H,
                2.0,
                Some(colour(game.side_of(stack[depth]))),
                Some(Stroke::solid(INK, 1.0)),
            );
        }
        counter(
            svg,
            x,
            y,
            side,
            game.kind_of(top),
            &codes.text(game, top),
            back_face(game.formation(top)),
        );
        if stack.len() > 1 {
            svg.circle(
                x + COUNTER_W + 2.0,
                y + COUNTER_H,
                4.0,
                Some(WHITE),
                Some(Stroke::solid(INK, 0.7)),
            );
            svg.text(
                &stack.len().min(99).to_string(),
                x + COUNTER_W + 2.0,
                y + COUNTER_H - 2.0,
                4.5,
                Anchor::Middle,
                INK,
            );
        }
        let any = |mark: fn(&UnitState) -> bool| stack.iter().any(|&u| mark(game.unit(u)));
        let marks = [
            (any(|u| u.finished), "F", FINISHED),
            (any(|u| u.disrupted), "D", DISRUPTED),
            (any(|u| u.out_of_command), "C", OUT_OF_COMMAND),
        ];
        // The markers stand one under the other left of the counter.
        for (i, (_, letter, fill)) in marks.iter().filter(|m| m.0).enumerate() {
            badge(svg, x - 9.0, y - 4.0 + i as f32 * 9.0, letter, fill);
        }
    }
}

/// The commanders: a ring in the side's colour with the brigade's letter,
/// low in the commander's hex (4.1: not a unit, never shot at).
fn commanders(svg: &mut Svg, game: &BrothersAtWar, codes: &Codes) {
    for b in game.battle.brigade_ids() {
        let Some(hex) = game.brigade(b).commander else {
            continue;
        };
        let (cx, cy) = centre(hex);
        let side = game.battle.brigade_side(b);
        let (x, y) = (cx - RADIUS + 10.0, cy + 11.0);
        svg.circle(
            x,
            y,
            5.5,
            Some(WHITE),
            Some(Stroke::solid(colour(side), 2.0)),
        );
        svg.text(
            &codes.brigade(b).to_string(),
            x,
            y - 2.2,
            4.5,
            Anchor::Middle,
            INK,
        );
    }
}

/// The hexes a unit named in an event stands on now.
fn hex_named(game: &BrothersAtWar, name: &str) -> Option<Hex> {
    game.unit_named(name).and_then(|u: UnitId| game.hex_of(u))
}

/// The last action: the hexes it touched outlined, each step moved as a
/// black arrow, each fire as a red arrow along its line of sight from the
/// firers' hexes (6.2; to the skirmisher that shielded the hex, 6.361), an
/// assault as a heavier red arrow (7.1), a retreat as an orange line
/// through the hexes it entered (6.7).
fn last_action(svg: &mut Svg, game: &BrothersAtWar, last: &[Event]) {
    let map = &game.battle.map;
    let mut touched: Vec<Hex> = last.iter().flat_map(event_hexes).collect();
    let mut fire: Vec<(Hex, Hex)> = Vec::new();
    let mut assaults: Vec<Segment> = Vec::new();
    let mut retreats: Vec<Vec<(f32, f32)>> = Vec::new();
    let mut moves: Vec<Segment> = Vec::new();
    // The hex fire or an assault last fell on: where a retreat starts.
    let mut struck: Option<Hex> = None;
    for e in last {
        match e {
            Event::Moved {
                from: Some(from),
                to,
                ..
            } => moves.push(shorten(centre(*from), centre(*to), 6.0)),
            Event::Combat(CombatEvent::Fire { firers, target, .. }) => {
                touched.push(*target);
                struck = Some(*target);
                for hex in firers.iter().filter_map(|f| hex_named(game, f)) {
                    touched.push(hex);
                    fire.push((hex, *target));
                }
            }
            Event::Combat(CombatEvent::Shielded { aimed, skirmisher }) => {
                touched.push(*skirmisher);
                struck = Some(*skirmisher);
                // The fire falls on the skirmisher instead of the hex
                // aimed at (6.361): the arrows turn to it.
                for line in fire.iter_mut().filter(|l| l.1 == *aimed) {
                    line.1 = *skirmisher;
                }
            }
            Event::Combat(CombatEvent::Assault { attackers, hex, .. }) => {
                touched.push(*hex);
                struck = Some(*hex);
                for from in attackers.iter().filter_map(|a| hex_named(game, a)) {
                    if from != *hex {
                        touched.push(from);
                        assaults.push(shorten(centre(from), centre(*hex), 6.0));
                    }
                }
            }
            Event::Combat(CombatEvent::Retreated { path, .. }) => {
                let mut points: Vec<(f32, f32)> = struck.iter().map(|&h| centre(h)).collect();
                points.extend(path.iter().map(|&h| centre(h)));
                touched.extend(path.iter().copied());
                if points.len() > 1 {
                    retreats.push(points);
                }
            }
            _ => {}
        }
    }
    touched.retain(|&h| map.contains(h));
    touched.sort();
    touched.dedup();
    for hex in touched {
        let (cx, cy) = centre(hex);
        svg.polyline(
            &corners(cx, cy, RADIUS - 2.0),
            None,
            Some(Stroke::solid(HIGHLIGHT, 3.0)),
        );
    }
    for (a, b) in moves {
        svg.arrow(a, b, Stroke::solid(MOVE, 2.5));
    }
    for points in retreats {
        let n = points.len();
        if n > 2 {
            svg.polyline(&points[..n - 1], None, Some(Stroke::solid(RETREAT, 2.5)));
        }
        let (a, b) = shorten(points[n - 2], points[n - 1], 4.0);
        svg.arrow(
            if n > 2 { points[n - 2] } else { a },
            b,
            Stroke::solid(RETREAT, 2.5),
        );
    }
    for (from, to) in fire.into_iter().filter(|(a, b)| a != b) {
        let (a, b) = shorten(centre(from), centre(to), 8.0);
        svg.arrow(a, b, Stroke::solid(FIRE, 2.0));
    }
    for (a, b) in assaults {
        svg.arrow(a, b, Stroke::solid(FIRE, 3.5));
    }
}

/// Draws a legend entry's sample with its top left at the point given.
type Sample = Box<dyn Fn(&mut Svg, f32, f32)>;

/// One entry of the legend: its sample, drawn at a top-left corner, how
/// wide the sample is, and its words.
struct Entry {
    sample: Sample,
    width: f32,
    words: String,
}

impl Entry {
    fn new(
        width: f32,
        words: impl Into<String>,
        sample: impl Fn(&mut Svg, f32, f32) + 'static,
    ) -> Entry {
        Entry {
            sample: Box::new(sample),
            width,
            words: words.into(),
        }
    }

    const SIZE: f32 = 7.0;

    fn span(&self) -> f32 {
        self.width + 5.0 + text_width(&self.words, Entry::SIZE) + 14.0
    }
}

/// The legend's entries, first the sides and arrows, then the scenario's
/// terrain chart, its hexsides and map symbols, then the counters.
fn legend_entries(game: &BrothersAtWar, reader: Option<Side>) -> Vec<Entry> {
    let thin = Stroke::solid(INK, 0.8);
    let mut entries = Vec::new();
    for side in [Side::Union, Side::Confederacy] {
        let mut words = super::names::side(side).to_ascii_uppercase();
        if reader == Some(side) {
            words.push_str(" (YOU)");
        }
        entries.push(Entry::new(16.0, words, move |svg, x, y| {
            svg.rounded(x, y, 16.0, 12.0, 2.0, Some(colour(side)), Some(thin));
        }));
    }
    for (words, stroke) in [
        ("MOVE", Stroke::solid(MOVE, 2.5)),
        ("FIRE", Stroke::solid(FIRE, 2.0)),
        ("ASSAULT", Stroke::solid(FIRE, 3.5)),
        ("RETREAT", Stroke::solid(RETREAT, 2.5)),
    ] {
        entries.push(Entry::new(26.0, words, move |svg, x, y| {
            svg.arrow((x, y + 6.0), (x + 26.0, y + 6.0), stroke);
        }));
    }
    entries.push(Entry::new(16.0, "LAST ACTION", |svg, x, y| {
        svg.rect(x, y, 16.0, 12.0, None, Some(Stroke::solid(HIGHLIGHT, 3.0)));
    }));
    let map = &game.battle.map;
    let scenario = &game.battle.scenario;
    // The terrain chart in the order of the map's legend, each kind once.
    let mut seen = std::collections::BTreeSet::new();
    for key in scenario.map.legend.values() {
        let Some(id) = map.terrain_id(key) else {
            continue;
        };
        if !seen.insert(key.clone()) {
            continue;
        }
        let look = Look::of(map, id);
        let name = scenario
            .terrain
            .get(key)
            .map_or(key.as_str(), |t| t.name.as_str())
            .to_ascii_uppercase();
        entries.push(Entry::new(16.0, name, move |svg, x, y| {
            svg.rect(x, y, 16.0, 12.0, Some(look.fill()), Some(thin));
            match look {
                Look::Woods | Look::Orchard => {
                    svg.circle(x + 5.0, y + 7.0, 2.2, Some(TREE), None);
                    svg.circle(x + 11.0, y + 5.0, 2.2, Some(TREE), None);
                }
                Look::Field => svg.path(
                    &segments(&[
                        ((x + 2.0, y + 5.0), (x + 14.0, y + 5.0)),
                        ((x + 2.0, y + 8.0), (x + 14.0, y + 8.0)),
                    ]),
                    None,
                    Some(Stroke::solid(FURROW, 1.0)),
                ),
                Look::Bridge => svg.rect(x, y + 4.0, 16.0, 4.0, Some(BRIDGE), None),
                Look::Building => svg.rect(x + 5.0, y + 3.0, 6.0, 6.0, Some(HOUSE), None),
                _ => {}
            }
        }));
    }
    for (i, kind) in map.hexside_kinds().iter().enumerate() {
        let Ok(index) = u8::try_from(i) else {
            break;
        };
        let stroke = hexside_stroke(map, HexsideId(index));
        entries.push(Entry::new(
            22.0,
            kind.name.to_ascii_uppercase(),
            move |svg, x, y| {
                svg.polyline(&[(x, y + 6.0), (x + 22.0, y + 6.0)], None, Some(stroke));
            },
        ));
    }
    entries.push(Entry::new(22.0, "ROAD", |svg, x, y| {
        svg.polyline(
            &[(x, y + 6.0), (x + 22.0, y + 6.0)],
            None,
            Some(Stroke::solid(ROAD, 2.6)),
        );
    }));
    entries.push(Entry::new(22.0, "TRAIL", |svg, x, y| {
        svg.polyline(
            &[(x, y + 6.0), (x + 22.0, y + 6.0)],
            None,
            Some(Stroke::dashed(ROAD, 1.4, 4.0, 3.0)),
        );
    }));
    entries.push(Entry::new(22.0, "RISE TO THE NEXT LEVEL", |svg, x, y| {
        svg.polyline(
            &[(x, y + 6.0), (x + 22.0, y + 6.0)],
            None,
            Some(Stroke::solid(CONTOUR, 2.2)),
        );
    }));
    entries.push(Entry::new(12.0, "KEY HEX", |svg, x, y| {
        star(svg, x + 6.0, y + 6.0, 6.0, WHITE);
    }));
    entries.push(Entry::new(8.0, "RALLY POINT", |svg, x, y| {
        pennant(svg, x + 1.0, y + 11.0, Side::Union);
    }));
    for (kind, words) in [
        (UnitKind::Infantry, "INFANTRY"),
        (UnitKind::Cavalry, "CAVALRY"),
        (UnitKind::Artillery, "ARTILLERY"),
        (UnitKind::Skirmisher, "SKIRMISHER"),
        (UnitKind::Remnant, "REMNANT"),
    ] {
        entries.push(Entry::new(14.0, words, move |svg, x, y| {
            svg.rounded(x, y, 14.0, 12.0, 2.0, Some(colour(Side::Union)), Some(thin));
            symbol(svg, kind, x + 2.5, y + 2.5);
        }));
    }
    entries.push(Entry::new(14.0, "BACK FACE UP", move |svg, x, y| {
        svg.rounded(
            x,
            y,
            14.0,
            12.0,
            2.0,
            Some(colour(Side::Confederacy)),
            Some(thin),
        );
        svg.polyline(
            &[
                (x + 8.0, y + 12.0),
                (x + 14.0, y + 6.0),
                (x + 14.0, y + 12.0),
            ],
            Some(WHITE),
            None,
        );
    }));
    for (letter, words, fill) in [
        ("F", "FINISHED", FINISHED),
        ("D", "DISRUPTED", DISRUPTED),
        ("C", "OUT OF COMMAND", OUT_OF_COMMAND),
    ] {
        entries.push(Entry::new(8.0, words, move |svg, x, y| {
            badge(svg, x, y + 2.0, letter, fill)
        }));
    }
    entries.push(Entry::new(12.0, "COMMANDER", |svg, x, y| {
        svg.circle(
            x + 6.0,
            y + 6.0,
            5.5,
            Some(WHITE),
            Some(Stroke::solid(colour(Side::Union), 2.0)),
        );
    }));
    entries
}

/// The entries in lines no wider than `width`: each line's entries with
/// their left edges.
fn lay_out(entries: &[Entry], width: f32) -> Vec<Vec<(usize, f32)>> {
    let mut lines: Vec<Vec<(usize, f32)>> = vec![Vec::new()];
    let mut pen = MARGIN;
    for (i, e) in entries.iter().enumerate() {
        if pen + e.span() > width - MARGIN + 14.0 && pen > MARGIN {
            lines.push(Vec::new());
            pen = MARGIN;
        }
        if let Some(line) = lines.last_mut() {
            line.push((i, pen));
        }
        pen += e.span();
    }
    lines
}

/// The map as SVG; the legend names `reader`'s side "(YOU)" (`None`: an
/// observer), and the `last` action is outlined and drawn as arrows.
pub fn draw(game: &BrothersAtWar, reader: Option<Side>, last: &[Event]) -> String {
    let map = &game.battle.map;
    let (columns, rows) = (map.columns(), map.rows());
    let map_width = 2.0 * RADIUS + f32::from(columns.max(1) - 1) * 1.5 * RADIUS;
    let map_height = (f32::from(rows.max(1)) + 0.5) * HEIGHT;
    let width = (map_width + 2.0 * MARGIN).max(420.0);
    let entries = legend_entries(game, reader);
    let lines = lay_out(&entries, width);
    let legend_top = TITLE + map_height + 2.0 * MARGIN;
    let height = legend_top + lines.len() as f32 * LEGEND_LINE;
    let mut svg = Svg::new(width.ceil() as u32, height.ceil() as u32, PAPER);
    let scenario = &game.battle.scenario;
    let title = format!(
        "{} - TURN {} OF {}",
        scenario.name.to_ascii_uppercase(),
        game.now.turn,
        scenario.turns
    );
    svg.text(&title, MARGIN, 6.0, 8.0, Anchor::Start, INK);
    let looks: Vec<Look> = (0..map.terrains().len())
        .map(|i| Look::of(map, TerrainId(u8::try_from(i).unwrap_or(u8::MAX))))
        .collect();
    ground(&mut svg, map, &looks);
    // The column numbers above and below, the row numbers left and right,
    // at the height of the odd columns' hexes.
    for column in 1..=columns {
        let (Some(top), Some(bottom)) = (Hex::new(column, 1), Hex::new(column, rows.max(1))) else {
            continue;
        };
        let label = format!("{column:02}");
        let (x, _) = centre(top);
        svg.text(&label, x, TITLE + 6.0, 7.0, Anchor::Middle, LABEL);
        let (x, _) = centre(bottom);
        svg.text(
            &label,
            x,
            TITLE + MARGIN + map_height + 8.0,
            7.0,
            Anchor::Middle,
            LABEL,
        );
    }
    for row in 1..=rows {
        let Some(west) = Hex::new(1, row) else {
            continue;
        };
        let label = format!("{row:02}");
        let (_, y) = centre(west);
        svg.text(&label, MARGIN / 2.0, y - 3.5, 7.0, Anchor::Middle, LABEL);
        svg.text(
            &label,
            MARGIN + map_width + MARGIN / 2.0,
            y - 3.5,
            7.0,
            Anchor::Middle,
            LABEL,
        );
    }
    roads(&mut svg, map);
    hexsides(&mut svg, map);
    places(&mut svg, game);
    let codes = Codes::of(game);
    commanders(&mut svg, game, &codes);
    units(&mut svg, game, &codes);
    last_action(&mut svg, game, last);
    for (n, line) in lines.iter().enumerate() {
        let top = legend_top + n as f32 * LEGEND_LINE;
        for &(i, x) in line {
            let e = &entries[i];
            (e.sample)(&mut svg, x, top);
            svg.text(
                &e.words,
                x + e.width + 5.0,
                top + 3.0,
                Entry::SIZE,
                Anchor::Start,
                INK,
            );
        }
    }
    svg.fit(SHOWN_SIDE);
    svg.finish()
}
