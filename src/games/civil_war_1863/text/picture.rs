//! The board as a picture (issue 19; docs/pictures.md): the 18 x 18 grid
//! of the board file, each square in its terrain's colour, the navigable
//! rivers and the railroads as lines joining the squares the board joins
//! (P3, P15), the cities, key cities and capitals (P4, P27, P29), each
//! side's stack as a counter with its number of pieces and the markers the
//! ASCII board shows (disabled P23, fortified P31, captured P28), the
//! battle under way, the last action as arrows, and a small legend.
//!
//! The board is a geographic map, but the picture is turned exactly as the
//! ASCII board in the same mail is (docs/civil-war-1863-design.md, "The
//! board drawing": the Union sees it from the north, the Confederacy turned
//! 180 degrees): a reader compares the two square by square, and a picture
//! turned differently from the grid under it would put every square
//! somewhere else. The words stay upright, and the letters and numbers
//! round the grid name the squares either way.

use super::drawing::touched;
use crate::games::civil_war_1863::core::event::Event;
use crate::games::civil_war_1863::core::features::WaterKind;
use crate::games::civil_war_1863::core::side::Side;
use crate::games::civil_war_1863::core::square::{Square, SIDE_LEN};
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::core::terrain::Terrain;
use crate::picture::font::width as text_width;
use crate::picture::shapes::{segments, shorten, star};
use crate::picture::{Anchor, Colour, Stroke, Svg};

/// Pixels a square: room for a city symbol and a counter with its number.
const CELL: f32 = 30.0;
/// The blank round the grid, which holds the column letters and row
/// numbers.
const MARGIN: f32 = 22.0;
/// The legend's height under the board.
const LEGEND: f32 = 66.0;

const PAPER: Colour = "#ffffff";
const LAND: Colour = "#efe6c8";
const MOUNTAIN: Colour = "#c9a97c";
const PEAK: Colour = "#7a5a36";
const SEA: Colour = "#9cc3e4";
const RIVER: Colour = "#2f7fd0";
const RAIL: Colour = "#2b2b2b";
const GRID: Colour = "#b8ab88";
const LABEL: Colour = "#5a4d35";
const INK: Colour = "#1b1b1b";
const WHITE: Colour = "#ffffff";
const HIGHLIGHT: Colour = "#e0a800";
const MOVE: Colour = "#1b1b1b";
const ATTACK: Colour = "#c0392b";
const FLAG: Colour = "#c0392b";
const FORT: Colour = "#8a5a2b";

/// A side's colour: Union blue, Confederate gray.
fn colour(side: Side) -> Colour {
    match side {
        Side::Union => "#2c5aa0",
        Side::Confederacy => "#6f7680",
    }
}

/// The left and top of `sq` in pixels as `viewer` sees it (the
/// Confederacy's view turned 180 degrees, as the ASCII board).
fn place(sq: Square, viewer: Side) -> (f32, f32) {
    let (c, r) = (sq.column(), sq.row());
    let (c, r) = match viewer {
        Side::Union => (c, r),
        Side::Confederacy => (SIDE_LEN - 1 - c, SIDE_LEN - 1 - r),
    };
    (MARGIN + f32::from(c) * CELL, MARGIN + f32::from(r) * CELL)
}

fn centre(sq: Square, viewer: Side) -> (f32, f32) {
    let (x, y) = place(sq, viewer);
    (x + CELL / 2.0, y + CELL / 2.0)
}

/// Where a square's city symbol stands: its upper left, clear of the
/// counter.
fn city_spot(sq: Square, viewer: Side) -> (f32, f32) {
    let (x, y) = place(sq, viewer);
    (x + 8.0, y + 8.0)
}

/// A small flag of `fill` on its pole, its foot at (`x`, `y`).
fn flag(svg: &mut Svg, x: f32, y: f32, fill: Colour) {
    svg.polyline(
        &[(x, y), (x, y - 10.0)],
        None,
        Some(Stroke::solid(INK, 1.2)),
    );
    svg.polyline(
        &[(x, y - 10.0), (x + 7.0, y - 7.5), (x, y - 5.0)],
        Some(fill),
        Some(Stroke::solid(INK, 0.6)),
    );
}

/// A square's ground: land, mountains, or sea. A square with land and
/// open sea (a coast) shows the sea along each side it shares with a
/// square of open water only, so the shore reads where the water is; a
/// coast with no such neighbour (an inland lake's shore) shows a sea
/// corner.
fn ground(svg: &mut Svg, game: &CivilWar1863, sq: Square, viewer: Side) {
    let board = game.board();
    let terrain = board.terrain(sq);
    let (x, y) = place(sq, viewer);
    let fill = match terrain {
        Terrain::WaterOnly => SEA,
        Terrain::Mountain | Terrain::MountainCoast => MOUNTAIN,
        Terrain::Land | Terrain::Coast => LAND,
    };
    svg.rect(x, y, CELL, CELL, Some(fill), None);
    if matches!(terrain, Terrain::Coast | Terrain::MountainCoast) {
        let strip = CELL / 3.0;
        let mut any = false;
        for n in sq.neighbours() {
            if board.terrain(n) != Terrain::WaterOnly || sq.is_diagonal_to(n) {
                continue;
            }
            any = true;
            let (nx, ny) = place(n, viewer);
            let (sx, sy, w, h) = if nx < x {
                (x, y, strip, CELL)
            } else if nx > x {
                (x + CELL - strip, y, strip, CELL)
            } else if ny < y {
                (x, y, CELL, strip)
            } else {
                (x, y + CELL - strip, CELL, strip)
            };
            svg.rect(sx, sy, w, h, Some(SEA), None);
        }
        if !any {
            svg.polyline(
                &[
                    (x + CELL, y),
                    (x + CELL, y + CELL / 2.0),
                    (x + CELL / 2.0, y),
                ],
                Some(SEA),
                None,
            );
        }
    }
    if terrain.holds_mountains() {
        // P5: mountains stop most moves, so they read at a glance.
        let (px, py) = (x + CELL - 9.0, y + CELL - 4.0);
        svg.polyline(
            &[(px - 6.0, py), (px - 2.0, py - 7.0), (px + 2.0, py)],
            Some(PEAK),
            None,
        );
    }
}

/// The rivers: a line for each pair of squares a river joins (P3), drawn a
/// little off the squares' centres so that a railroad along the same
/// squares stays visible.
fn rivers(svg: &mut Svg, game: &CivilWar1863, viewer: Side) {
    let off = |sq: Square| {
        let (cx, cy) = centre(sq, viewer);
        (cx - 4.0, cy - 4.0)
    };
    let mut pairs = Vec::new();
    for water in game.board().waters() {
        if water.kind != WaterKind::River {
            continue;
        }
        for w in water.squares.windows(2) {
            if game.board().water_joined(w[0], w[1]) {
                pairs.push((off(w[0]), off(w[1])));
            }
        }
    }
    svg.path(&segments(&pairs), None, Some(Stroke::solid(RIVER, 3.0)));
}

/// The railroads: a dark line for each rail step (P15), with ties across
/// it.
fn railroads(svg: &mut Svg, game: &CivilWar1863, viewer: Side) {
    let mut pairs = Vec::new();
    let mut ties = Vec::new();
    for line in game.board().rail_lines() {
        for w in line.squares.windows(2) {
            let (a, b) = (centre(w[0], viewer), centre(w[1], viewer));
            pairs.push((a, b));
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let length = (dx * dx + dy * dy).sqrt().max(1.0);
            let (ux, uy) = (dx / length, dy / length);
            let mut t = 5.0;
            while t < length - 2.0 {
                let (px, py) = (a.0 + ux * t, a.1 + uy * t);
                ties.push((
                    (px - uy * 3.0, py + ux * 3.0),
                    (px + uy * 3.0, py - ux * 3.0),
                ));
                t += 7.0;
            }
        }
    }
    svg.path(&segments(&pairs), None, Some(Stroke::solid(RAIL, 1.6)));
    svg.path(&segments(&ties), None, Some(Stroke::solid(RAIL, 1.0)));
}

/// The cities: a dot for a city (P4), a star in its side's colour for a
/// key city (P27), a larger star on a ring for a capital (P29), and the
/// capturer's flag on a city captured once (P28).
fn cities(svg: &mut Svg, game: &CivilWar1863, viewer: Side) {
    let board = game.board();
    let edge = Stroke::solid(INK, 0.8);
    for city in board.cities() {
        let sq = city.square;
        let (cx, cy) = city_spot(sq, viewer);
        if let Some(capital) = board.capital(sq) {
            svg.circle(cx, cy, 7.0, Some(WHITE), Some(Stroke::solid(INK, 1.2)));
            star(svg, cx, cy, 6.5, colour(capital.side), edge);
        } else if let Some(side) = board.key_city_side(sq) {
            star(svg, cx, cy, 6.0, colour(side), edge);
        } else {
            svg.circle(cx, cy, 3.0, Some(INK), Some(Stroke::solid(WHITE, 1.0)));
        }
    }
    // A capital without a city entry is still drawn, so that no board file
    // loses its capitals.
    for capital in board.capitals() {
        if board.is_city(capital.square) {
            continue;
        }
        let (cx, cy) = city_spot(capital.square, viewer);
        svg.circle(cx, cy, 7.0, Some(WHITE), Some(Stroke::solid(INK, 1.2)));
        star(svg, cx, cy, 6.5, colour(capital.side), edge);
    }
    let mut flagged: Vec<Square> = game.flags().to_vec();
    flagged.sort();
    for sq in flagged {
        // P28: only key cities and capitals take flags, and the flag is the
        // capturer's, the other side from the city's owner.
        let owner = board
            .capital(sq)
            .map(|c| c.side)
            .or_else(|| board.key_city_side(sq));
        let fill = owner.map_or(FLAG, |side| colour(side.opponent()));
        let (x, y) = place(sq, viewer);
        flag(svg, x + CELL - 9.0, y + 12.0, fill);
    }
}

/// A counter of `side` with `n` pieces, its marks: a white bar across it
/// when a disabled marker is on the square (P23), a brown frame when the
/// city is fortified (P31).
fn counter(svg: &mut Svg, x: f32, y: f32, side: Side, n: u32, disabled: bool, fortified: bool) {
    let (w, h) = (20.0, 14.0);
    if fortified {
        svg.rect(
            x - 2.5,
            y - 2.5,
            w + 5.0,
            h + 5.0,
            Some(FORT),
            Some(Stroke::solid(INK, 0.8)),
        );
    }
    svg.rounded(
        x,
        y,
        w,
        h,
        2.0,
        Some(colour(side)),
        Some(Stroke::solid(INK, 1.0)),
    );
    if disabled {
        svg.polyline(
            &[(x + 1.5, y + h - 1.5), (x + w - 1.5, y + 1.5)],
            None,
            Some(Stroke::solid(WHITE, 1.6)),
        );
    }
    svg.text(
        &n.to_string(),
        x + w / 2.0,
        y + 3.5,
        7.0,
        Anchor::Middle,
        WHITE,
    );
}

/// Each stack as a counter in the lower right of its square.
fn stacks(svg: &mut Svg, game: &CivilWar1863, viewer: Side) {
    for sq in Square::all() {
        let Some(stack) = game.stack(sq) else {
            continue;
        };
        let (x, y) = place(sq, viewer);
        counter(
            svg,
            x + 8.0,
            y + 13.0,
            stack.side,
            stack.all().total(),
            stack.has_disabled_marker(),
            stack.fort.has_marker(),
        );
    }
}

/// The squares the last action touched (the ones the ASCII board marks
/// `>`), outlined; its moves as black arrows; the battle under way as a red
/// arrow from where the attack came (P18) and a red cross on its square.
fn last_action(svg: &mut Svg, game: &CivilWar1863, viewer: Side, last: &[Event]) {
    let mut named = touched(last);
    if let Some(b) = game.battle() {
        named.extend([b.from, b.at]);
    }
    named.sort();
    named.dedup();
    for sq in &named {
        let (x, y) = place(*sq, viewer);
        svg.rect(
            x + 1.5,
            y + 1.5,
            CELL - 3.0,
            CELL - 3.0,
            None,
            Some(Stroke::solid(HIGHLIGHT, 3.0)),
        );
    }
    let spot = |sq: Square| {
        let (x, y) = place(sq, viewer);
        (x + 18.0, y + 20.0)
    };
    for e in last {
        if let Event::Moved { from, to, .. } = e {
            let (a, b) = shorten(spot(*from), spot(*to), 4.0);
            svg.arrow(a, b, Stroke::solid(MOVE, 2.5));
        }
    }
    let mut battles: Vec<Square> = last
        .iter()
        .filter_map(|e| match e {
            Event::Battle { at, .. } => Some(*at),
            _ => None,
        })
        .collect();
    if let Some(b) = game.battle() {
        battles.push(b.at);
        let (a, z) = shorten(spot(b.from), spot(b.at), 4.0);
        svg.arrow(a, z, Stroke::solid(ATTACK, 3.0));
    }
    battles.sort();
    battles.dedup();
    for sq in battles {
        let (x, y) = place(sq, viewer);
        let cross = Stroke::solid(ATTACK, 2.0);
        svg.polyline(
            &[(x + 4.0, y + 4.0), (x + 12.0, y + 12.0)],
            None,
            Some(cross),
        );
        svg.polyline(
            &[(x + 12.0, y + 4.0), (x + 4.0, y + 12.0)],
            None,
            Some(cross),
        );
    }
}

/// The legend: the sides (the reader's marked), the ground, the symbols
/// and the arrows.
fn legend(svg: &mut Svg, reader: Option<Side>, top: f32) {
    let size = 7.0;
    let word = |svg: &mut Svg, text: &str, x: f32, y: f32| -> f32 {
        svg.text(text, x, y + 3.0, size, Anchor::Start, INK);
        x + text_width(text, size) + 14.0
    };
    let thin = Stroke::solid(INK, 0.8);
    // First line: the sides and the arrows.
    let mut pen = MARGIN;
    for side in Side::BOTH {
        svg.rounded(pen, top, 16.0, 12.0, 2.0, Some(colour(side)), Some(thin));
        let mut name = side.name().to_string();
        if reader == Some(side) {
            name.push_str(" (YOU)");
        }
        pen = word(svg, &name, pen + 21.0, top);
    }
    svg.arrow(
        (pen, top + 6.0),
        (pen + 26.0, top + 6.0),
        Stroke::solid(MOVE, 2.5),
    );
    pen = word(svg, "MOVE", pen + 31.0, top);
    svg.arrow(
        (pen, top + 6.0),
        (pen + 26.0, top + 6.0),
        Stroke::solid(ATTACK, 3.0),
    );
    pen = word(svg, "ATTACK", pen + 31.0, top);
    svg.rect(
        pen,
        top,
        16.0,
        12.0,
        None,
        Some(Stroke::solid(HIGHLIGHT, 3.0)),
    );
    word(svg, "LAST ACTION", pen + 21.0, top);
    // Second line: the ground and the lines.
    let top = top + 20.0;
    let mut pen = MARGIN;
    for (name, fill) in [("LAND", LAND), ("MOUNTAINS", MOUNTAIN), ("SEA", SEA)] {
        svg.rect(pen, top, 16.0, 12.0, Some(fill), Some(thin));
        pen = word(svg, name, pen + 21.0, top);
    }
    svg.rect(pen, top, 16.0, 12.0, Some(LAND), Some(thin));
    svg.rect(pen, top, 16.0, 4.0, Some(SEA), None);
    svg.rect(pen, top, 16.0, 12.0, None, Some(thin));
    pen = word(svg, "COAST", pen + 21.0, top);
    svg.polyline(
        &[(pen, top + 6.0), (pen + 22.0, top + 6.0)],
        None,
        Some(Stroke::solid(RIVER, 3.0)),
    );
    pen = word(svg, "RIVER", pen + 27.0, top);
    svg.polyline(
        &[(pen, top + 6.0), (pen + 22.0, top + 6.0)],
        None,
        Some(Stroke::solid(RAIL, 1.6)),
    );
    let ties: Vec<_> = (0..4)
        .map(|i| {
            let x = pen + 3.0 + i as f32 * 5.5;
            ((x, top + 3.0), (x, top + 9.0))
        })
        .collect();
    svg.path(&segments(&ties), None, Some(Stroke::solid(RAIL, 1.0)));
    word(svg, "RAILROAD", pen + 27.0, top);
    // Third line: the cities and the markers.
    let top = top + 20.0;
    let mut pen = MARGIN;
    svg.circle(
        pen + 6.0,
        top + 6.0,
        3.0,
        Some(INK),
        Some(Stroke::solid(WHITE, 1.0)),
    );
    pen = word(svg, "CITY", pen + 14.0, top);
    // A key city's star is in the colour of the side that loses pieces
    // when it falls (P27).
    for side in Side::BOTH {
        star(svg, pen + 6.0, top + 6.0, 6.0, colour(side), thin);
        pen += 14.0;
    }
    pen = word(svg, "KEY CITIES", pen + 1.0, top);
    svg.circle(
        pen + 7.0,
        top + 6.0,
        7.0,
        Some(WHITE),
        Some(Stroke::solid(INK, 1.2)),
    );
    star(svg, pen + 7.0, top + 6.0, 6.5, colour(Side::Union), thin);
    pen = word(svg, "CAPITAL", pen + 17.0, top);
    flag(svg, pen + 2.0, top + 11.0, colour(Side::Confederacy));
    pen = word(svg, "CAPTURED", pen + 13.0, top);
    counter(svg, pen + 3.0, top - 1.0, Side::Union, 2, false, true);
    pen = word(svg, "FORTIFIED", pen + 28.0, top);
    counter(svg, pen, top - 1.0, Side::Confederacy, 2, true, false);
    word(svg, "DISABLED", pen + 25.0, top);
}

/// The board as SVG from `viewer`'s side (turned as the ASCII board); the
/// legend names `reader`'s side "(YOU)" (`None`: an observer), and the
/// `last` action is outlined and drawn as arrows.
pub fn draw(game: &CivilWar1863, viewer: Side, reader: Option<Side>, last: &[Event]) -> String {
    let grid = CELL * f32::from(SIDE_LEN);
    let width = (grid + 2.0 * MARGIN) as u32;
    let height = (grid + 2.0 * MARGIN + LEGEND) as u32;
    let mut svg = Svg::new(width, height, PAPER);
    for sq in Square::all() {
        ground(&mut svg, game, sq, viewer);
    }
    // The square lines, as one path.
    let mut lines = Vec::new();
    for i in 0..=SIDE_LEN {
        let at = MARGIN + f32::from(i) * CELL;
        lines.push(((MARGIN, at), (MARGIN + grid, at)));
        lines.push(((at, MARGIN), (at, MARGIN + grid)));
    }
    svg.path(&segments(&lines), None, Some(Stroke::solid(GRID, 0.6)));
    // The column letters and row numbers on all four sides.
    for i in 0..SIDE_LEN {
        let Some(sq) = Square::at(i, i) else {
            continue;
        };
        let name = sq.to_string();
        let (letter, number) = name.split_at(1);
        let (x, y) = place(sq, viewer);
        for top in [MARGIN / 2.0 - 3.0, MARGIN + grid + MARGIN / 2.0 - 3.0] {
            svg.text(letter, x + CELL / 2.0, top, 7.0, Anchor::Middle, LABEL);
        }
        for left in [MARGIN / 2.0, MARGIN + grid + MARGIN / 2.0] {
            svg.text(
                number,
                left,
                y + CELL / 2.0 - 3.5,
                7.0,
                Anchor::Middle,
                LABEL,
            );
        }
    }
    rivers(&mut svg, game, viewer);
    railroads(&mut svg, game, viewer);
    cities(&mut svg, game, viewer);
    stacks(&mut svg, game, viewer);
    last_action(&mut svg, game, viewer, last);
    legend(&mut svg, reader, grid + 2.0 * MARGIN);
    svg.finish()
}
