//! The ASCII board sent with every mail.
//!
//! The picture is rasterised from the board's rectangles (`board().rect`,
//! read from `data/squares-board.csv`), never typed by hand, so it keeps the
//! real shape of squares-board.md: 4 columns per 0.75 inch and 3 lines per
//! 1.5 inch, which puts every space edge on the character grid (every x is a
//! multiple of 0.75", every y of 1.5") and gives the smallest square 7x2
//! characters inside its frame. The whole board is 73 columns by 25 lines.
//!
//! Gray's view is the layout of squares-board.md (Blue's reserve at the top);
//! Blue's view is the same picture turned 180 degrees, so each player sees
//! his own reserve at the bottom. Only the geometry turns: the text inside
//! each space stays readable and the codes stay the publisher's.
//!
//! Below the board: a key, the score (R26, R27), the losses, whose turn and
//! which half of a double turn (R4), the decision an attack waits for
//! (R17-R20), the outcome, and the last action's events.
//!
//! The Napoleonic variant is drawn the same way in its own notation (N1,
//! N24; docs/napoleonic-design.md section 3): the British (B) and the French
//! (F), F codes on the French half, its seven unit types in the key and the
//! reserves, its scoring (N22) and the decisions of its option lists (N18,
//! N19).

use std::fmt::Write as _;

use super::notation::Notation;
use crate::games::squares::core::attack::{AttackState, Stage};
use crate::games::squares::core::board::{board, Space, Terrain, SPACE_COUNT};
use crate::games::squares::core::event::Event;
use crate::games::squares::core::flow::DecisionKind;
use crate::games::squares::core::order::Order;
use crate::games::squares::core::state::{Half, Squares};
use crate::games::squares::core::unit::{Side, UnitId, UnitKind};
use crate::games::squares::core::variant::Variant;
use crate::games::squares::engine::options::OptionsOffered;
use crate::games::squares::engine::turn::WINNING_POINTS;
use crate::games::{BoardStyle, Game as _, GameResult};

/// The widest line a mail may carry.
pub(crate) const MAX_WIDTH: usize = 76;

/// The interior width of the narrowest space (a 1.5" square): texts are
/// laid out for it, then centred the same way in wider spaces so that the
/// codes of a row line up with those of the rows above and below.
const BLOCK: usize = 7;

/// The indentation of continuation lines of a wrapped paragraph.
const HANG: usize = 6;

/// The key printed under every board of the Civil War game.
const KEY: &str = "Key: * last action; ^ forest; B Blue, G Gray; inf infantry, \
art artillery, cav cavalry. Marks: + moved on its side's last turn, ++ on the \
last two, so it may not move next (R6); > and >> attacked likewise; _ rests \
after a retreat: no move, attack or support on its side's current or next \
turn (R21); ~ retreated this turn, rests next.";

/// The key of the Napoleonic variant: its sides and seven unit types (N1,
/// N2, N24), and rest after a retreat for every type but cavalry (N16).
const NAPOLEONIC_KEY: &str = "Key: * last action; ^ forest; B British, F French; \
inf infantry, gua guard, li light infantry, art artillery, hb horse battery, \
cav cavalry, hc heavy cavalry. Marks: + moved on its side's last turn, ++ on \
the last two, so it may not move next (R6); > and >> attacked likewise; _ \
rests after a retreat: no move, attack or support on its side's current or \
next turn (R21, N16); ~ retreated this turn, rests next.";

/// A space's frame on the character grid: the columns of its west and east
/// edges and the lines of its top and bottom edges, as the viewer sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    left: usize,
    right: usize,
    top: usize,
    bottom: usize,
}

impl Frame {
    fn inner_width(self) -> usize {
        self.right - self.left - 1
    }

    fn inner_height(self) -> usize {
        self.bottom - self.top - 1
    }
}

/// Converts quarter inches to grid steps: `num` steps per `den` quarters,
/// rounded (exact for the SQUARES board, whose measures all fall on the grid).
fn scale(quarters: i32, num: i32, den: i32) -> usize {
    usize::try_from((quarters * num + den / 2) / den).unwrap_or(0)
}

/// Every space's frame as `viewer` sees it, and the grid's width and height.
///
/// Gray sees the board as the rectangle table has it (y grows towards
/// Gray's reserve, so Gray's reserve is at the bottom); Blue sees it turned
/// 180 degrees, both axes reversed.
fn frames(viewer: Side) -> ([Frame; SPACE_COUNT], usize, usize) {
    let b = board();
    let rects: Vec<_> = Space::all().map(|s| b.rect(s)).collect();
    let x_min = rects.iter().map(|r| r.x_from).min().unwrap_or(0);
    let x_max = rects.iter().map(|r| r.x_to).max().unwrap_or(0);
    let y_min = rects.iter().map(|r| r.y_from).min().unwrap_or(0);
    let y_max = rects.iter().map(|r| r.y_to).max().unwrap_or(0);
    // 4 columns per 0.75" (3 quarters), 3 lines per 1.5" (6 quarters).
    let col = |x: i32| scale(x, 4, 3);
    let line = |y: i32| scale(y, 3, 6);
    let mut out = [Frame {
        left: 0,
        right: 0,
        top: 0,
        bottom: 0,
    }; SPACE_COUNT];
    for (frame, r) in out.iter_mut().zip(&rects) {
        *frame = match viewer {
            Side::Gray => Frame {
                left: col(r.x_from - x_min),
                right: col(r.x_to - x_min),
                top: line(r.y_from - y_min),
                bottom: line(r.y_to - y_min),
            },
            Side::Blue => Frame {
                left: col(x_max - r.x_to),
                right: col(x_max - r.x_from),
                top: line(y_max - r.y_to),
                bottom: line(y_max - r.y_from),
            },
        };
    }
    (out, col(x_max - x_min) + 1, line(y_max - y_min) + 1)
}

/// Each space's frame, and the board with its frame lines only.
type EmptyBoard = ([Frame; SPACE_COUNT], Vec<Vec<u8>>);

/// The frames and the empty board (frame lines only) from `viewer`'s side,
/// worked out once: every board drawn from that side starts from a copy.
fn empty_board(viewer: Side) -> &'static EmptyBoard {
    static VIEWS: [std::sync::OnceLock<EmptyBoard>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let slot = match viewer {
        Side::Gray => &VIEWS[0],
        Side::Blue => &VIEWS[1],
    };
    slot.get_or_init(|| {
        let (frames, width, height) = frames(viewer);
        let grid = raster(&frames, width, height);
        (frames, grid)
    })
}

/// The frame lines of the board: `+` where edges meet or turn, `-` and `|`
/// along them, blanks inside the spaces.
fn raster(frames: &[Frame], width: usize, height: usize) -> Vec<Vec<u8>> {
    let mut horizontal = vec![vec![false; width]; height];
    let mut vertical = vec![vec![false; width]; height];
    for f in frames {
        for l in [f.top, f.bottom] {
            horizontal[l][f.left..=f.right].fill(true);
        }
        for row in vertical.iter_mut().take(f.bottom + 1).skip(f.top) {
            row[f.left] = true;
            row[f.right] = true;
        }
    }
    (0..height)
        .map(|l| {
            (0..width)
                .map(|c| match (horizontal[l][c], vertical[l][c]) {
                    (true, true) => b'+',
                    (true, false) => b'-',
                    (false, true) => b'|',
                    (false, false) => b' ',
                })
                .collect()
        })
        .collect()
}

/// Writes `text` into the grid from (`line`, `col`), never past `limit`.
fn put(grid: &mut [Vec<u8>], line: usize, col: usize, limit: usize, text: &str) {
    for (i, byte) in text.bytes().enumerate() {
        let c = col + i;
        if c >= limit {
            break;
        }
        grid[line][c] = byte;
    }
}

/// The kind as the board abbreviates it.
fn short(kind: UnitKind) -> &'static str {
    kind.short()
}

/// The side's letter on the board (upper case for both: the kind follows
/// in lower case, so `B inf` and `G inf` stand out).
fn side_letter(side: Side, notation: &Notation) -> char {
    notation.side_name(side).chars().next().unwrap_or('?')
}

/// The notation of the game drawn: the board, its key and its texts are
/// in the game's own words and codes, whoever asks (N1).
fn notation_of(game: &Squares) -> &'static Notation {
    game.variant().notation()
}

/// The occupant line of a square, such as `B inf+`, within `width`
/// characters. A reachable unit carries at most three marks (its runs are
/// never both non-zero, R6), which fit the narrowest square once the blank
/// goes; a hand-written position with more loses the marks that do not fit.
fn occupant(game: &Squares, u: UnitId, width: usize) -> String {
    let m = game.unit_state(u).marks();
    let letter = side_letter(u.side(), notation_of(game));
    let spaced = format!("{letter} {}{}", short(u.kind()), m);
    let mut text = if spaced.len() <= width {
        spaced
    } else {
        format!("{letter}{}{}", short(u.kind()), m)
    };
    text.truncate(width);
    text
}

/// A reserve's two lines: its contents by type, and the units in it that
/// carry a mark (a run or a rest), grouped.
fn reserve_lines(game: &Squares, side: Side, marked: bool) -> [String; 2] {
    let notation = notation_of(game);
    let code = board().reserve(side).display_in(notation).to_string();
    let star = if marked { "*" } else { "" };
    let mut first = format!(
        "{:<4}{} reserve: ",
        format!("{code}{star}"),
        side.display_in(notation)
    );
    let counts: Vec<String> = game
        .variant()
        .kinds()
        .iter()
        .filter_map(|&k| {
            let n = game.reserve_units(side).filter(|u| u.kind() == k).count();
            (n > 0).then(|| format!("{n} {}", short(k)))
        })
        .collect();
    if counts.is_empty() {
        first.push_str("empty");
    } else {
        first.push_str(&counts.join(" "));
    }
    // R7: a reserve move takes the eligible unit with the shortest run, so
    // the player needs to see which units there carry runs or rest.
    let mut groups: Vec<(UnitKind, String, usize)> = Vec::new();
    for u in game.reserve_units(side) {
        let m = game.unit_state(u).marks();
        if m.is_empty() {
            continue;
        }
        match groups
            .iter_mut()
            .find(|(k, g, _)| *k == u.kind() && *g == m)
        {
            Some(group) => group.2 += 1,
            None => groups.push((u.kind(), m, 1)),
        }
    }
    groups.sort();
    // R13: a unit that entered the empty reserve stands in it.
    let invaders: Vec<String> = game
        .units_of(side.opponent())
        .filter(|&u| game.location(u) == Some(board().reserve(side)))
        .map(|u| format!("{} {}", side_letter(u.side(), notation), short(u.kind())))
        .collect();
    let second = if !invaders.is_empty() {
        format!("    entered by {} (R13)", invaders.join(", "))
    } else if groups.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = groups
            .iter()
            .map(|(k, m, n)| format!("{n} {}{m}", short(*k)))
            .collect();
        format!("    including {}", list.join(", "))
    };
    [first, second]
}

/// The squares the events of the last action name (the ASCII board's `*`,
/// the picture's outlines).
pub(super) fn last_squares(last: &[Event]) -> Vec<Space> {
    let mut out = Vec::new();
    for event in last {
        match *event {
            Event::Moved { from, to, .. }
            | Event::Retreated { from, to, .. }
            | Event::Advanced { from, to, .. } => out.extend([from, to]),
            Event::Attacked {
                from,
                target,
                support,
                ..
            } => {
                out.extend([from, target]);
                out.extend(support.map(|(_, s)| s));
            }
            Event::Flank { target } | Event::Charge { target } => out.push(target),
            Event::Stood { square, .. }
            | Event::Eliminated { square, .. }
            | Event::Stayed { square, .. } => out.push(square),
            // A forced decision is followed by the events it caused, which
            // name its squares.
            Event::Passed { .. }
            | Event::OptionChosen { .. }
            | Event::DoubleTurn { .. }
            | Event::Forced { .. }
            | Event::GameOver(_) => {}
        }
    }
    out
}

/// The board itself: frames, codes, occupants and reserves.
fn board_lines(game: &Squares, viewer: Side, last: &[Event]) -> Vec<String> {
    let (frames, empty) = empty_board(viewer);
    let mut grid = empty.clone();
    let marked = last_squares(last);
    let b = board();
    for s in Space::all() {
        let f = frames[s.index()];
        let (w, h) = (f.inner_width(), f.inner_height());
        let (top, left, limit) = (f.top + 1, f.left + 1, f.right);
        let star = marked.contains(&s);
        match b.terrain(s) {
            Terrain::Reserve(side) => {
                let lines = reserve_lines(game, side, star);
                let offset = w.saturating_sub(lines[0].len()) / 2;
                for (i, text) in lines.iter().enumerate().take(h) {
                    // A long list of marked units (seven types in the
                    // variant) moves left rather than lose its end.
                    let offset = offset.min(w.saturating_sub(text.len()));
                    put(&mut grid, top + i, left + offset, limit, text);
                }
            }
            terrain => {
                let mut lines = vec![format!(
                    "{}{}",
                    s.display_in(notation_of(game)),
                    if star { "*" } else { "" }
                )];
                lines.extend(game.unit_at(s).map(|u| occupant(game, u, w)));
                if terrain == Terrain::Forest {
                    let trees: String =
                        (0..w).map(|i| if i % 2 == 1 { '^' } else { ' ' }).collect();
                    while lines.len() < h {
                        lines.push(String::new());
                    }
                    for line in lines.iter_mut().skip(2) {
                        line.clone_from(&trees);
                    }
                }
                for (i, text) in lines.iter().enumerate().take(h) {
                    let offset = if text.len() == w {
                        0
                    } else {
                        (w.saturating_sub(BLOCK) / 2 + 1).min(w.saturating_sub(text.len()))
                    };
                    put(&mut grid, top + i, left + offset, limit, text);
                }
            }
        }
    }
    grid.into_iter()
        .map(|row| String::from_utf8_lossy(&row).trim_end().to_string())
        .collect()
}

/// Appends `text` wrapped at [`MAX_WIDTH`], continuation lines indented.
fn wrap(out: &mut Vec<String>, text: &str) {
    let mut line = String::new();
    // Whether `line` holds no word yet (only its indentation).
    let mut fresh = true;
    for word in text.split_whitespace() {
        if !fresh {
            if line.len() + 1 + word.len() > MAX_WIDTH {
                out.push(std::mem::replace(&mut line, " ".repeat(HANG)));
            } else {
                line.push(' ');
            }
        }
        // A word longer than a line (none in practice) is cut, to keep the
        // mail within its width.
        let mut rest = word;
        while line.len() + rest.len() > MAX_WIDTH {
            let (head, tail) = rest.split_at(MAX_WIDTH - line.len());
            line.push_str(head);
            out.push(std::mem::replace(&mut line, " ".repeat(HANG)));
            rest = tail;
        }
        line.push_str(rest);
        fresh = false;
    }
    if !fresh {
        out.push(line);
    }
}

/// "Blue 2 inf 1 art" or "Blue none".
fn losses(game: &Squares, side: Side) -> String {
    let lost: Vec<String> = game
        .variant()
        .kinds()
        .iter()
        .filter_map(|&k| {
            let n = game.lost(side, k);
            (n > 0).then(|| format!("{n} {}", short(k)))
        })
        .collect();
    let side = side.display_in(notation_of(game));
    if lost.is_empty() {
        format!("{side} none")
    } else {
        format!("{side} {}", lost.join(" "))
    }
}

/// The turn number and, in a double turn, which half (R4).
fn turn_text(game: &Squares) -> String {
    let n = game.turn();
    match game.half() {
        Half::Single => format!("Turn {n}"),
        Half::First => format!("Turn {n}, first half of a double turn (R4)"),
        Half::Second => format!("Turn {n}, second half of a double turn (R4)"),
    }
}

/// A list in words: "1, 2 or 5".
fn either(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The kind of the unit on `square`, in words, when there is one.
fn kind_on(game: &Squares, square: Space) -> String {
    game.unit_at(square)
        .map(|u| format!("{} ", u.kind().name()))
        .unwrap_or_default()
}

/// The option list of an attack whose attacking unit is in place (R19,
/// N18, N19); the general list otherwise.
pub(crate) fn option_list(game: &Squares, attack: &AttackState) -> OptionsOffered {
    if game.unit_at(attack.attacker).is_some() {
        game.options_offered(attack)
    } else {
        OptionsOffered::General
    }
}

/// Why a defender that could retreat may not stand: a flank attack (R18),
/// the attacking Guard (N12), or cavalry's duty to retreat (R24).
pub(crate) fn must_retreat_rule(game: &Squares, attack: &AttackState) -> &'static str {
    let yields = match (game.unit_at(attack.target), game.unit_at(attack.attacker)) {
        (Some(d), Some(a)) => game.variant().unit(d.kind()).yields_to.contains(a.kind()),
        _ => false,
    };
    if game.is_flank(attack) {
        "R18"
    } else if yields {
        "N12"
    } else {
        "R24"
    }
}

/// What an attack waits for, and from whom (R17-R20; docs/squares-engine.md,
/// "Decisions inside an attack"; N18, N19 for the variant's option lists).
fn decision_text(game: &Squares, attack: &AttackState) -> String {
    let notation = notation_of(game);
    let (attacker, defender) = (game.to_move(), game.to_move().opponent());
    let (attacker, defender) = (attacker.display_in(notation), defender.display_in(notation));
    let mut legal = Vec::new();
    game.decision_orders(attack, &mut legal);
    let (a, t) = (
        attack.attacker.display_in(notation),
        attack.target.display_in(notation),
    );
    let support = attack
        .support
        .map(|s| s.display_in(notation).to_string())
        .unwrap_or_else(|| "-".to_string());
    match attack.stage {
        Stage::Response => {
            let stand = legal.contains(&Order::Stand);
            if stand {
                format!("{defender} to decide: retreat or stand in {t}.")
            } else if game.variant() == Variant::Napoleonic {
                format!(
                    "{defender} to decide where the {}in {t} retreats (it may not stand, {}).",
                    kind_on(game, attack.target),
                    must_retreat_rule(game, attack)
                )
            } else {
                format!(
                    "{defender} to decide where the {}in {t} retreats (it may not stand).",
                    kind_on(game, attack.target)
                )
            }
        }
        Stage::Option => {
            let offered: Vec<String> = legal
                .iter()
                .filter_map(|o| match o {
                    Order::Option(n) => Some(n.to_string()),
                    Order::GrandBattery(n) => Some(format!("GB{n}")),
                    Order::HorseBattery(n) => Some(format!("HB{n}")),
                    _ => None,
                })
                .collect();
            let list = match option_list(game, attack) {
                OptionsOffered::General => "R19",
                OptionsOffered::GrandBattery => "Grand Battery, N18",
                OptionsOffered::HorseBattery => "Horse Battery, N19",
            };
            format!(
                "{attacker} to choose an option against the {}standing in {t} ({list}): {}.",
                kind_on(game, attack.target),
                either(&offered)
            )
        }
        Stage::SupportRetreat1 | Stage::SupportRetreat5 => {
            // GB3 and HB5 reuse option 5's stage (N18, N19).
            let option = match (attack.stage, option_list(game, attack)) {
                (Stage::SupportRetreat1, _) => "option 1, R19",
                (_, OptionsOffered::GrandBattery) => "option GB3, N18",
                (_, OptionsOffered::HorseBattery) => "option HB5, N19",
                (_, OptionsOffered::General) => "option 5, R19",
            };
            format!(
                "{attacker} to choose where the supporting {}in {support} retreats ({option}).",
                attack.support.map(|s| kind_on(game, s)).unwrap_or_default()
            )
        }
        Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => {
            // HB4 reuses option 4's stage (N19).
            let option = match (attack.stage, option_list(game, attack)) {
                (Stage::AttackerRetreat1, _) => "option 1, R19",
                (_, OptionsOffered::HorseBattery) => "option HB4, N19",
                _ => "option 4, R19",
            };
            format!(
                "{attacker} to choose where the attacking {}in {a} retreats ({option}).",
                kind_on(game, attack.attacker)
            )
        }
        Stage::SecondChance => format!(
            "{defender} to decide: retreat from {t} after all, or stand and be eliminated \
             (second chance, option 1, R19)."
        ),
        Stage::GrandSecondChance => format!(
            "{defender} to decide: retreat from {t} after all, or stand and be eliminated \
             (second chance, option GB1, N18, N21)."
        ),
        Stage::GrandSupportRetreat => format!(
            "{attacker} to choose where the supporting {}in {support} retreats (option GB1, N18).",
            attack.support.map(|s| kind_on(game, s)).unwrap_or_default()
        ),
        Stage::HorseDefenderRetreat => format!(
            "{defender} to choose where the {}in {t} retreats (option HB1, N19).",
            kind_on(game, attack.target)
        ),
        Stage::HorseSupportRetreat => format!(
            "{attacker} to choose where the supporting {}in {support} retreats (option HB1, N19).",
            attack.support.map(|s| kind_on(game, s)).unwrap_or_default()
        ),
        Stage::HorseBatteryRetreat => format!(
            "{attacker} to choose where the horse battery in {a} retreats (option HB1 or HB2, N19)."
        ),
        Stage::Lose => {
            let kinds: Vec<String> = legal
                .iter()
                .filter_map(|o| match o {
                    Order::Lose(k) => Some(k.name().to_string()),
                    _ => None,
                })
                .collect();
            format!(
                "{defender} to choose the unit {t} loses (R17): {}.",
                either(&kinds)
            )
        }
        Stage::Advance => {
            format!("{attacker} to decide: advance from {a} into {t}, or stay (R20).")
        }
    }
}

/// The lines under the board: key, score, losses, turn, pending decision
/// or outcome, last action.
fn status_lines(game: &Squares, last: &[Event], style: &BoardStyle) -> Vec<String> {
    let mut out = Vec::new();
    let mut para = |text: &str| {
        let mut lines = Vec::new();
        wrap(&mut lines, text);
        out.extend(lines);
    };
    let (key, scoring) = match game.variant() {
        Variant::CivilWar => (KEY, "R26"),
        Variant::Napoleonic => (NAPOLEONIC_KEY, "N22"),
    };
    if !style.without_key {
        para(key);
    }
    let notation = notation_of(game);
    para(&format!(
        "Score: {} {}, {} {} ({WINNING_POINTS} points win, {scoring}, R27).",
        Side::Blue.display_in(notation),
        game.points(Side::Blue),
        Side::Gray.display_in(notation),
        game.points(Side::Gray)
    ));
    para(&format!(
        "Lost: {}; {}.",
        losses(game, Side::Blue),
        losses(game, Side::Gray)
    ));
    match (game.outcome(), game.attack()) {
        (None, _) if style.ended.is_some() => {
            let result = style.ended.as_deref().unwrap_or_default();
            para(&format!("Game over in turn {}: {result}.", game.turn()));
        }
        (Some(outcome), _) => {
            let text = Event::GameOver(outcome).display_in(notation).to_string();
            let result = text.strip_prefix("game over: ").unwrap_or(&text);
            para(&format!(
                "Game over after turn {}: {result}.",
                game.turn().saturating_sub(1)
            ));
        }
        (None, Some(attack)) => {
            let flank = if game.is_flank(attack) {
                " (flank attack, R18)"
            } else {
                ""
            };
            let support = attack
                .support
                .map(|s| format!(", supported from {}", s.display_in(notation)))
                .unwrap_or_default();
            // N18: say when the attack is a Grand Battery, whose options
            // differ; against the artillery family it attacks normally.
            let grand = if option_list(game, attack) == OptionsOffered::GrandBattery
                && board().reserve_owner(attack.target).is_none()
                && !game.is_flank(attack)
            {
                " (a Grand Battery, N18)"
            } else {
                ""
            };
            para(&format!(
                "{}: {} attacks {} from {}{support}{grand}{flank}.",
                turn_text(game),
                game.to_move().display_in(notation),
                attack.target.display_in(notation),
                attack.attacker.display_in(notation)
            ));
            para(&decision_text(game, attack));
        }
        (None, None) => para(&format!(
            "{}: {} to {}.",
            turn_text(game),
            game.to_move().display_in(notation),
            match game.half() {
                Half::Single => "move, attack or pass",
                _ => "move or attack",
            }
        )),
    }
    if !last.is_empty() && !style.without_last {
        let events: Vec<String> = last
            .iter()
            .map(|e| e.display_in(notation).to_string())
            .collect();
        para(&format!("Last: {}.", events.join("; ")));
    }
    out
}

/// The board drawn from `viewer`'s seat (his reserve at the bottom), with
/// the squares of the last action (`last`, the events it produced) marked,
/// followed by the key, score, losses, turn, pending decision or outcome,
/// and the last action in words. Plain ASCII, at most 76 columns a line, no
/// trailing blanks, ending in a newline.
pub(crate) fn draw(game: &Squares, viewer: Side, last: &[Event]) -> String {
    draw_styled(game, viewer, last, &BoardStyle::default())
}

/// The state in a few words for a mail's subject, read by `viewer`.
pub(crate) fn headline(game: &Squares, viewer: Side) -> String {
    let notation = notation_of(game);
    if let Some(outcome) = game.outcome() {
        return match outcome.result {
            GameResult::Win(seat) => {
                let (winner, loser) = (Side::from(seat), Side::from(seat.other()));
                format!(
                    "over - {} wins {}-{}",
                    winner.display_in(notation),
                    game.points(winner),
                    game.points(loser)
                )
            }
            GameResult::Draw => "over - a draw".to_string(),
        };
    }
    let to_move = game.to_move().display_in(notation);
    if let Some(attack) = game.attack() {
        let question = match game.pending().map(|p| p.kind) {
            Some(DecisionKind::Defence) => "retreat or stand?",
            Some(DecisionKind::AttackOption) => "which option?",
            Some(DecisionKind::Retreat) => "retreat where?",
            Some(DecisionKind::SecondChance) => "second chance?",
            Some(DecisionKind::ReserveLoss) => "which reserve unit is lost?",
            Some(DecisionKind::Advance) => "advance or stay?",
            _ => "decision pending",
        };
        return format!(
            "{to_move} attacks {} - {question}",
            attack.target.display_in(notation)
        );
    }
    if game.to_move() == viewer {
        format!("your move (turn {})", game.turn())
    } else {
        format!("{to_move} to move (turn {})", game.turn())
    }
}

/// [`draw`] in a mail's style: without the key, or with a result the rules
/// did not produce (see [`BoardStyle`]). In the game's own notation,
/// whoever calls (N1).
pub(crate) fn draw_styled(
    game: &Squares,
    viewer: Side,
    last: &[Event],
    style: &BoardStyle,
) -> String {
    let notation = notation_of(game);
    let (name, reserve) = (
        viewer.display_in(notation),
        board().reserve(viewer).display_in(notation),
    );
    let mut out = String::new();
    match game.variant() {
        Variant::CivilWar => {
            let _ = writeln!(
                out,
                "SQUARES - {name}'s view ({name}'s reserve {reserve} at the bottom)"
            );
        }
        Variant::Napoleonic => {
            let _ = writeln!(
                out,
                "SQUARES Napoleonic - the {name} view ({name} reserve {reserve} at the bottom)"
            );
        }
    }
    for line in board_lines(game, viewer, last) {
        out.push_str(&line);
        out.push('\n');
    }
    for line in status_lines(game, last, style) {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{
        board, draw, frames, last_squares, occupant, raster, reserve_lines, wrap, Event, Side,
        Space, Squares, UnitId, UnitKind, BLOCK, MAX_WIDTH,
    };

    fn cw_unit(side: Side, number: usize) -> UnitId {
        let mut units = UnitId::of_side(crate::games::squares::Variant::CivilWar, side);
        units.nth(number).expect("an army has 16 units")
    }
    use crate::games::squares::core::unit::{UnitState, ARMY_SIZE};

    fn space(code: &str) -> Space {
        Space::from_code(code).expect("a space code")
    }

    #[test]
    fn every_edge_falls_on_the_grid() {
        // Rounding would merge or split spaces: the scale must be exact.
        for s in Space::all() {
            let r = board().rect(s);
            for x in [r.x_from, r.x_to] {
                assert_eq!(x * 4 % 3, 0, "{s}: x {x}/4 inch is off the columns");
            }
            for y in [r.y_from, r.y_to] {
                assert_eq!(y * 3 % 6, 0, "{s}: y {y}/4 inch is off the lines");
            }
        }
    }

    #[test]
    fn the_grid_is_73_by_25_and_every_space_holds_its_texts() {
        for viewer in Side::BOTH {
            let (frames, width, height) = frames(viewer);
            assert_eq!((width, height), (73, 25));
            for s in Space::all() {
                let f = frames[s.index()];
                assert!(f.inner_width() >= BLOCK && f.inner_height() >= 2, "{s}");
            }
        }
    }

    #[test]
    fn the_frames_tile_the_board() {
        // Every character is on an edge or inside exactly one space.
        let (frames, width, height) = frames(Side::Gray);
        let grid = raster(&frames, width, height);
        for (l, row) in grid.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                let inside = frames
                    .iter()
                    .filter(|f| f.left < c && c < f.right && f.top < l && l < f.bottom)
                    .count();
                match ch {
                    b' ' => assert_eq!(inside, 1, "line {l} column {c}"),
                    _ => assert_eq!(inside, 0, "line {l} column {c}"),
                }
            }
        }
    }

    #[test]
    fn blues_frames_are_grays_turned() {
        let (blue, width, height) = frames(Side::Blue);
        let (gray, _, _) = frames(Side::Gray);
        for (b, g) in blue.iter().zip(&gray) {
            assert_eq!(b.left, width - 1 - g.right);
            assert_eq!(b.right, width - 1 - g.left);
            assert_eq!(b.top, height - 1 - g.bottom);
            assert_eq!(b.bottom, height - 1 - g.top);
        }
    }

    #[test]
    fn grays_view_has_blues_reserve_on_top() {
        let (frames, _, height) = frames(Side::Gray);
        assert_eq!(frames[space("BR").index()].top, 0);
        assert_eq!(frames[space("GR").index()].bottom, height - 1);
        let (frames, _, height) = super::frames(Side::Blue);
        assert_eq!(frames[space("GR").index()].top, 0);
        assert_eq!(frames[space("BR").index()].bottom, height - 1);
    }

    #[test]
    fn occupants_fit_the_narrowest_square() {
        let mut game = Squares::opening(Side::Blue);
        let u = cw_unit(Side::Gray, 0);
        game.units[u.index()] = UnitState {
            move_run: 1,
            ..UnitState::default()
        };
        assert_eq!(occupant(&game, u, BLOCK), "G inf+");
        // The most a reachable unit carries: a run of two and a rest.
        game.units[u.index()] = UnitState {
            move_run: 2,
            inactive: true,
            ..UnitState::default()
        };
        assert_eq!(occupant(&game, u, BLOCK), "Ginf++_");
        assert_eq!(occupant(&game, u, 11), "G inf++_");
        // A hand-written position may carry more than fits.
        game.units[u.index()] = UnitState {
            move_run: 2,
            attack_run: 2,
            inactive: true,
            retreated: true,
        };
        assert_eq!(occupant(&game, u, BLOCK), "Ginf++>");
    }

    #[test]
    fn reserves_list_their_units_and_marks() {
        let mut game = Squares::opening(Side::Blue);
        let [first, second] = reserve_lines(&game, Side::Blue, false);
        assert_eq!(first, "BR  Blue reserve: 9 inf 3 art 4 cav");
        assert_eq!(second, "");
        game.units[cw_unit(Side::Blue, 0).index()].inactive = true;
        game.units[cw_unit(Side::Blue, 1).index()].inactive = true;
        game.units[cw_unit(Side::Blue, 12).index()].move_run = 2;
        let [first, second] = reserve_lines(&game, Side::Blue, true);
        assert_eq!(first, "BR* Blue reserve: 9 inf 3 art 4 cav");
        assert_eq!(second, "    including 2 inf_, 1 cav++");
        for n in 0..ARMY_SIZE {
            game.remove(cw_unit(Side::Gray, n));
        }
        let [first, _] = reserve_lines(&game, Side::Gray, false);
        assert_eq!(first, "GR  Gray reserve: empty");
    }

    #[test]
    fn the_last_action_names_its_squares() {
        let event = Event::Attacked {
            side: Side::Blue,
            unit: UnitKind::Infantry,
            from: space("B1C"),
            target: space("G1C"),
            support: Some((UnitKind::Artillery, space("B1CL"))),
        };
        assert_eq!(
            last_squares(&[event, Event::Passed { side: Side::Gray }]),
            [space("B1C"), space("G1C"), space("B1CL")]
        );
    }

    #[test]
    fn paragraphs_wrap_within_the_width() {
        let mut out = Vec::new();
        let text = "word ".repeat(40) + &"x".repeat(100);
        wrap(&mut out, &text);
        assert!(out.iter().all(|l| l.len() <= MAX_WIDTH), "{out:?}");
        assert!(out[1..].iter().all(|l| l.starts_with("      ")));
        assert!(out[0].starts_with("word word"));
        let joined: String = out.concat().chars().filter(|c| *c == 'x').collect();
        assert_eq!(joined.len(), 100);
    }

    #[test]
    fn the_drawing_is_ascii_within_76_columns() {
        for viewer in Side::BOTH {
            let text = draw(&Squares::opening(Side::Gray), viewer, &[]);
            for line in text.lines() {
                assert!(line.len() <= MAX_WIDTH && line.is_ascii(), "{line:?}");
                assert!(!line.ends_with(' ') && !line.contains('\t'), "{line:?}");
            }
            assert!(text.starts_with(&format!(
                "SQUARES - {}'s view",
                viewer.display_in(&crate::games::squares::notation::CIVIL_WAR)
            )));
        }
    }
}
