//! The board as a picture (issue 19): the same rectangles as the ASCII
//! board (`board().rect`, from `data/squares-board.csv`), drawn to scale
//! with the units as counters in their side's colour, each with its type's
//! symbol and name and its marks (R6, R21), the reserves with their
//! contents, the last action as arrows, and a small legend.
//!
//! Like the ASCII board, the picture is turned so that the reader's own
//! reserve is at the bottom (Gray sees the table of squares-board.md as it
//! stands, Blue sees it turned 180 degrees); the words stay upright.

use super::notation::Notation;
use crate::games::squares::core::board::{board, Rect, Space, Terrain};
use crate::games::squares::core::event::Event;
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::{Side, UnitId, UnitKind};
use crate::games::squares::core::variant::Variant;
use crate::picture::shapes::shorten;
use crate::picture::{Anchor, Colour, Stroke, Svg};

/// Pixels per quarter inch: 44 to the inch, so the smallest square (1.5")
/// is 66 pixels a side, room for a code, a counter and its marks.
const SCALE: f32 = 11.0;
/// The blank around the board.
const MARGIN: f32 = 12.0;
/// The legend's height under the board.
const LEGEND: f32 = 58.0;

/// A counter's size.
const COUNTER_W: f32 = 44.0;
const COUNTER_H: f32 = 32.0;

const PAPER: Colour = "#ffffff";
const CLEAR: Colour = "#f1e7cc";
const FOREST: Colour = "#a9cf94";
const TREES: Colour = "#5e8f4c";
const EDGE: Colour = "#6b5a3e";
const CODE: Colour = "#7a6a50";
const INK: Colour = "#2a2118";
const WHITE: Colour = "#ffffff";
const HIGHLIGHT: Colour = "#e0a800";
const MOVE: Colour = "#1b1b1b";
const ATTACK: Colour = "#c0392b";
const RETREAT: Colour = "#d97a00";

/// A side's counter colour and its reserve's tint, in its game's colours:
/// Blue and Gray, or the British red and the French blue (N1).
fn colours(variant: Variant, side: Side) -> (Colour, Colour) {
    match (variant, side) {
        (Variant::CivilWar, Side::Blue) => ("#2c5aa0", "#dce5f3"),
        (Variant::CivilWar, Side::Gray) => ("#6f7680", "#e4e5e7"),
        (Variant::Napoleonic, Side::Blue) => ("#b03a2e", "#f3dcd9"),
        (Variant::Napoleonic, Side::Gray) => ("#2c5aa0", "#dce5f3"),
    }
}

/// The board's extent in quarter inches: west, east, Blue's edge, Gray's.
fn extent() -> (i32, i32, i32, i32) {
    let b = board();
    let rects: Vec<Rect> = Space::all().map(|s| b.rect(s)).collect();
    (
        rects.iter().map(|r| r.x_from).min().unwrap_or(0),
        rects.iter().map(|r| r.x_to).max().unwrap_or(0),
        rects.iter().map(|r| r.y_from).min().unwrap_or(0),
        rects.iter().map(|r| r.y_to).max().unwrap_or(0),
    )
}

/// `s` in pixels as `viewer` sees it: left, top, width, height.
fn place(s: Space, viewer: Side) -> (f32, f32, f32, f32) {
    let (x_min, x_max, y_min, y_max) = extent();
    let r = board().rect(s);
    let (left, top) = match viewer {
        Side::Gray => (r.x_from - x_min, r.y_from - y_min),
        Side::Blue => (x_max - r.x_to, y_max - r.y_to),
    };
    (
        MARGIN + left as f32 * SCALE,
        MARGIN + top as f32 * SCALE,
        (r.x_to - r.x_from) as f32 * SCALE,
        (r.y_to - r.y_from) as f32 * SCALE,
    )
}

/// Where a unit's counter stands in `s`: its centre.
fn counter_centre(s: Space, viewer: Side) -> (f32, f32) {
    let (x, y, w, h) = place(s, viewer);
    (x + w / 2.0, y + h / 2.0 + 1.0)
}

/// A counter of `side`'s `kind` centred on (`cx`, `cy`): the side's colour,
/// the type's symbol in a box (the usual map symbols: a cross for foot, a
/// bar for horse, a disc for guns) and its short name.
fn counter(svg: &mut Svg, variant: Variant, side: Side, kind: UnitKind, cx: f32, cy: f32) {
    let (fill, _) = colours(variant, side);
    let (x, y) = (cx - COUNTER_W / 2.0, cy - COUNTER_H / 2.0);
    svg.rounded(
        x,
        y,
        COUNTER_W,
        COUNTER_H,
        3.0,
        Some(fill),
        Some(Stroke::solid(INK, 1.0)),
    );
    let (bx, by, bw, bh) = (x + 8.0, y + 4.0, COUNTER_W - 16.0, 14.0);
    let line = Stroke::solid(WHITE, 1.4);
    svg.rect(bx, by, bw, bh, None, Some(line));
    let cross = |svg: &mut Svg| {
        svg.polyline(&[(bx, by), (bx + bw, by + bh)], None, Some(line));
        svg.polyline(&[(bx, by + bh), (bx + bw, by)], None, Some(line));
    };
    let bar = |svg: &mut Svg, shift: f32| {
        svg.polyline(
            &[(bx + shift, by + bh), (bx + bw + shift, by)],
            None,
            Some(line),
        );
    };
    let disc = |svg: &mut Svg| svg.circle(bx + bw / 2.0, by + bh / 2.0, 3.2, Some(WHITE), None);
    match kind {
        UnitKind::Infantry => cross(svg),
        UnitKind::Guard => {
            cross(svg);
            svg.polyline(&[(bx, by + 2.5), (bx + bw, by + 2.5)], None, Some(line));
        }
        UnitKind::Light => {
            cross(svg);
            svg.circle(bx + bw / 2.0, by + bh / 2.0, 2.5, Some(fill), Some(line));
        }
        UnitKind::Artillery => disc(svg),
        UnitKind::HorseBattery => {
            bar(svg, 0.0);
            disc(svg);
        }
        UnitKind::Cavalry => bar(svg, 0.0),
        UnitKind::HeavyCavalry => {
            bar(svg, -3.0);
            bar(svg, 3.0);
        }
    }
    svg.text(kind.short(), cx, y + 21.5, 6.0, Anchor::Middle, WHITE);
}

/// The squares the last action named, and its arrows: what moved, attacked
/// (with its support) and retreated.
fn draw_last(svg: &mut Svg, viewer: Side, last: &[Event]) {
    let mut named = super::drawing::last_squares(last);
    let mut arrows: Vec<(Space, Space, Stroke)> = Vec::new();
    for event in last {
        match *event {
            Event::Moved { from, to, .. } | Event::Advanced { from, to, .. } => {
                arrows.push((from, to, Stroke::solid(MOVE, 3.0)));
            }
            Event::Retreated { from, to, .. } => {
                arrows.push((from, to, Stroke::solid(RETREAT, 3.0)));
            }
            Event::Attacked {
                from,
                target,
                support,
                ..
            } => {
                arrows.push((from, target, Stroke::solid(ATTACK, 4.0)));
                if let Some((_, s)) = support {
                    arrows.push((s, target, Stroke::dashed(ATTACK, 2.5, 6.0, 4.0)));
                }
            }
            _ => {}
        }
    }
    named.sort_by_key(|s| s.index());
    named.dedup();
    for s in named {
        let (x, y, w, h) = place(s, viewer);
        svg.rect(
            x + 2.5,
            y + 2.5,
            w - 5.0,
            h - 5.0,
            None,
            Some(Stroke::solid(HIGHLIGHT, 3.0)),
        );
    }
    for (from, to, stroke) in arrows {
        let (a, b) = shorten(
            counter_centre(from, viewer),
            counter_centre(to, viewer),
            12.0,
        );
        svg.arrow(a, b, stroke);
    }
}

/// A reserve: its code, a counter for each type it holds with the number
/// beside it, the units of the other side that entered it (R13), and the
/// units in it that carry a mark (R7 takes the shortest run, so they
/// matter).
fn draw_reserve(svg: &mut Svg, game: &Squares, side: Side, viewer: Side) {
    let reserve = board().reserve(side);
    let (x, y, _, h) = place(reserve, viewer);
    let variant = game.variant();
    let mut pen = x + 70.0;
    let cy = y + h / 2.0 + 1.0;
    for &kind in variant.kinds() {
        let n = game
            .reserve_units(side)
            .filter(|u| u.kind() == kind)
            .count();
        if n == 0 {
            continue;
        }
        counter(svg, variant, side, kind, pen, cy);
        svg.text(
            &format!("x{n}"),
            pen + COUNTER_W / 2.0 + 3.0,
            cy - 4.0,
            8.0,
            Anchor::Start,
            INK,
        );
        pen += COUNTER_W + 32.0;
    }
    let invaders: Vec<UnitId> = game
        .units_of(side.opponent())
        .filter(|&u| game.location(u) == Some(reserve))
        .collect();
    for u in invaders {
        counter(svg, variant, u.side(), u.kind(), pen, cy);
        pen += COUNTER_W + 8.0;
    }
    let mut marked: Vec<String> = game
        .reserve_units(side)
        .filter_map(|u| {
            let m = game.unit_state(u).marks();
            (!m.is_empty()).then(|| format!("{}{m}", u.kind().short()))
        })
        .collect();
    marked.sort();
    if marked.is_empty() {
        if game.reserve_units(side).next().is_none() {
            svg.text("EMPTY", x + 70.0, cy - 3.0, 7.0, Anchor::Start, CODE);
        }
    } else {
        svg.text(
            &format!("MARKED: {}", marked.join(" ")),
            x + 6.0,
            y + h - 10.0,
            6.0,
            Anchor::Start,
            INK,
        );
    }
}

/// The legend: each side's colour and name (and which is the reader's),
/// the arrows, and the marks.
fn draw_legend(svg: &mut Svg, game: &Squares, viewer: Option<Side>, top: f32, notation: &Notation) {
    let variant = game.variant();
    let mut pen = MARGIN;
    for side in [Side::Blue, Side::Gray] {
        let (fill, _) = colours(variant, side);
        svg.rounded(
            pen,
            top,
            16.0,
            12.0,
            2.0,
            Some(fill),
            Some(Stroke::solid(INK, 1.0)),
        );
        let mut name = side.display_in(notation).to_string();
        if viewer == Some(side) {
            name.push_str(" (YOU)");
        }
        svg.text(&name, pen + 22.0, top + 3.0, 7.0, Anchor::Start, INK);
        pen += 22.0 + crate::picture::font::width(&name, 7.0) + 18.0;
    }
    for (word, stroke) in [
        ("MOVE", Stroke::solid(MOVE, 3.0)),
        ("ATTACK", Stroke::solid(ATTACK, 4.0)),
        ("SUPPORT", Stroke::dashed(ATTACK, 2.5, 6.0, 4.0)),
        ("RETREAT", Stroke::solid(RETREAT, 3.0)),
    ] {
        svg.arrow((pen, top + 6.0), (pen + 30.0, top + 6.0), stroke);
        svg.text(word, pen + 36.0, top + 3.0, 7.0, Anchor::Start, INK);
        pen += 36.0 + crate::picture::font::width(word, 7.0) + 16.0;
    }
    svg.rect(
        MARGIN,
        top + 22.0,
        16.0,
        12.0,
        None,
        Some(Stroke::solid(HIGHLIGHT, 3.0)),
    );
    svg.text(
        "LAST ACTION",
        MARGIN + 22.0,
        top + 25.0,
        7.0,
        Anchor::Start,
        INK,
    );
    svg.text(
        "MARKS: + MOVED, > ATTACKED (LAST TURNS); _ RESTS; ~ RETREATED",
        MARGIN + 120.0,
        top + 25.0,
        7.0,
        Anchor::Start,
        INK,
    );
}

/// The board as SVG, turned for `viewer` (the reader's own reserve at the
/// bottom); the legend names `reader`'s side as "you" (`None`: an observer,
/// who holds no seat), with the squares and arrows of the `last` action.
pub fn draw(game: &Squares, viewer: Side, reader: Option<Side>, last: &[Event]) -> String {
    let notation = game.variant().notation();
    let variant = game.variant();
    let (x_min, x_max, y_min, y_max) = extent();
    let board_w = (x_max - x_min) as f32 * SCALE;
    let board_h = (y_max - y_min) as f32 * SCALE;
    let width = (board_w + 2.0 * MARGIN) as u32;
    let height = (board_h + 2.0 * MARGIN + LEGEND) as u32;
    let mut svg = Svg::new(width, height, PAPER);
    let b = board();
    for s in Space::all() {
        let (x, y, w, h) = place(s, viewer);
        let fill = match b.terrain(s) {
            Terrain::Forest => FOREST,
            Terrain::Reserve(side) => colours(variant, side).1,
            _ => CLEAR,
        };
        svg.rect(x, y, w, h, Some(fill), Some(Stroke::solid(EDGE, 1.5)));
        if b.terrain(s) == Terrain::Forest {
            // Trees along the forest's lower half (R17: a forest changes
            // combat, so it must read at a glance).
            for i in 0..3 {
                let tx = x + w / 2.0 + (i as f32 - 1.0) * 14.0;
                let ty = y + h - 18.0 - (i % 2) as f32 * 10.0;
                svg.polyline(
                    &[(tx - 5.0, ty + 8.0), (tx, ty), (tx + 5.0, ty + 8.0)],
                    Some(TREES),
                    None,
                );
            }
        }
        // A reserve's code comes with its side's name: its counters fill
        // the space below.
        let label = match b.terrain(s) {
            Terrain::Reserve(side) => {
                format!("{} {}", s.display_in(notation), side.display_in(notation))
            }
            _ => s.display_in(notation).to_string(),
        };
        svg.text(&label, x + 4.0, y + 4.0, 7.0, Anchor::Start, CODE);
    }
    for side in [Side::Blue, Side::Gray] {
        draw_reserve(&mut svg, game, side, viewer);
    }
    for s in Space::all() {
        if matches!(b.terrain(s), Terrain::Reserve(_)) {
            continue;
        }
        if let Some(u) = game.unit_at(s) {
            let (cx, cy) = counter_centre(s, viewer);
            counter(&mut svg, variant, u.side(), u.kind(), cx, cy);
            let marks = game.unit_state(u).marks();
            if !marks.is_empty() {
                let (_, y, _, h) = place(s, viewer);
                svg.text(&marks, cx, y + h - 11.0, 7.0, Anchor::Middle, INK);
            }
        }
    }
    draw_last(&mut svg, viewer, last);
    draw_legend(&mut svg, game, reader, board_h + 2.0 * MARGIN, notation);
    svg.finish()
}
