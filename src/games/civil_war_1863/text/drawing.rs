//! The board as plain text at 75 columns (docs/civil-war-1863-design.md,
//! "The board drawing"): 18 squares of 4 columns after the row numbers,
//! each showing its force or, when empty, its terrain; the Union sees it
//! from the north (row 1 at the top), the Confederacy turned 180 degrees.
//! Under the grid: the key (on the first board of a game), the stacks by
//! square, the markers, the battle under way and the last action in words.

use std::fmt::Write as _;

use super::event::{pieces_words, public_words, words as event_words};
use crate::games::civil_war_1863::core::event::Event;
use crate::games::civil_war_1863::core::side::Side;
use crate::games::civil_war_1863::core::square::{Square, SIDE_LEN};
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::core::terrain::Terrain;
use crate::games::text::{wrap, MAIL_WIDTH};
use crate::games::BoardStyle;

/// The columns of one square.
const CELL: usize = 4;

/// The key printed under the first board of a game and on `HELP BOARD`.
pub const KEY: &str = "Key: U Union, C Confederacy, with the number of pieces \
(lower case: a disabled force, P23; + fortified, P31; > in the last action). \
Empty squares: @ capital, * key city, o other city, ! captured city, # \
railroad, ^ mountains, ~ sea, = river, : coast, . land. Columns A-R run west \
to east, rows 1-18 north to south.";

/// The symbol of an empty square: what matters most to a move first.
fn terrain_symbol(game: &CivilWar1863, sq: Square) -> char {
    let board = game.board();
    if board.capital(sq).is_some() {
        '@'
    } else if board.key_city_side(sq).is_some() {
        '*'
    } else if board.is_city(sq) {
        'o'
    } else if board.is_rail(sq) {
        '#'
    } else if board.holds_mountains(sq) {
        '^'
    } else if board.is_water_only(sq) {
        '~'
    } else if board.holds_river(sq) {
        '='
    } else if board.terrain(sq) == Terrain::Coast {
        ':'
    } else {
        '.'
    }
}

/// A square's four columns.
fn cell(game: &CivilWar1863, sq: Square, marked: bool) -> String {
    let lead = if marked { '>' } else { ' ' };
    let text = match game.stack(sq) {
        Some(stack) => {
            let letter = match (stack.side, stack.has_disabled_marker()) {
                (Side::Union, false) => 'U',
                (Side::Union, true) => 'u',
                (Side::Confederacy, false) => 'C',
                (Side::Confederacy, true) => 'c',
            };
            let mark = if stack.fort.has_marker() {
                "+"
            } else if game.is_flagged(sq) {
                "!"
            } else {
                ""
            };
            format!("{letter}{}{mark}", stack.all().total())
        }
        None if game.is_flagged(sq) => format!("{}!", terrain_symbol(game, sq)),
        None => terrain_symbol(game, sq).to_string(),
    };
    if text.len() >= CELL {
        text
    } else {
        format!("{lead}{text:<width$}", width = CELL - 1)
    }
}

/// The squares an action's events touch, marked on the board (and
/// outlined on the picture).
pub(super) fn touched(last: &[Event]) -> Vec<Square> {
    let mut out = Vec::new();
    for e in last {
        match e {
            Event::Moved { from, to, .. } => out.extend([*from, *to]),
            Event::Battle { at, .. }
            | Event::Eliminated { at, .. }
            | Event::Kept { at, .. }
            | Event::Took { at, .. }
            | Event::Disabled { at }
            | Event::GarrisonDestroyed { at }
            | Event::Captured { at, .. }
            | Event::Fortified { at }
            | Event::Unfortified { at } => out.push(*at),
            _ => {}
        }
    }
    out
}

/// The grid alone, from `viewer`'s side, with its column letters.
pub fn grid(game: &CivilWar1863, viewer: Side, last: &[Event]) -> String {
    let marked = touched(last);
    let order: Vec<u8> = match viewer {
        Side::Union => (0..SIDE_LEN).collect(),
        Side::Confederacy => (0..SIDE_LEN).rev().collect(),
    };
    let mut header = String::from("   ");
    for &c in &order {
        let sq = Square::at(c, 0).unwrap_or(Square::from_index(0));
        let name = sq.to_string();
        let _ = write!(header, " {:<3}", &name[..1]);
    }
    let mut out = header.trim_end().to_string();
    out.push('\n');
    for &r in &order {
        let mut line = format!("{:>2} ", r + 1);
        for &c in &order {
            if let Some(sq) = Square::at(c, r) {
                line.push_str(&cell(game, sq, marked.contains(&sq)));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Each side's stacks by square: `Union: A3 2I1C, B4 1G`; a group in a
/// battle under way has left its square and not yet taken the other
/// (P18-P22), so it is listed as attacking: `3I attacking Q8 from P7`.
fn stacks(game: &CivilWar1863) -> String {
    let mut out = String::new();
    for side in Side::BOTH {
        let mut list: Vec<String> = game
            .stacks()
            .filter(|(_, s)| s.side == side)
            .map(|(sq, s)| {
                let mut t = format!("{sq} {}", s.all());
                if !s.disabled.is_empty() {
                    t.push_str(" disabled");
                }
                if s.fort.has_marker() {
                    t.push_str(" fortified");
                }
                t
            })
            .collect();
        if let Some(b) = game.battle().filter(|b| b.attacker == side) {
            list.push(format!("{} attacking {} from {}", b.group, b.at, b.from));
        }
        let list = if list.is_empty() {
            "no pieces".to_string()
        } else {
            list.join(", ")
        };
        let _ = writeln!(out, "{side}: {list}");
    }
    out
}

/// Where the game stands, for `viewer`.
fn status(game: &CivilWar1863, viewer: Side, style: &BoardStyle) -> String {
    let mut out = String::new();
    // The board's own line, in words of its own: the mail around it says
    // "The game is over: ..." with the result (and would say it twice).
    if let Some(ended) = &style.ended {
        let _ = writeln!(out, "Over in turn {}: {ended}.", game.turn());
        return out;
    }
    if let Some(outcome) = game.outcome() {
        let _ = writeln!(
            out,
            "Over in turn {}: {}.",
            game.turn(),
            super::ending::words(outcome.reason)
        );
        return out;
    }
    let mover = game.to_move();
    let _ = writeln!(
        out,
        "Turn {}: {} to move; {} order{} given so far.",
        game.turn(),
        if mover == viewer && !style.observer {
            "you".to_string()
        } else {
            format!("the {mover}")
        },
        game.orders_this_turn(),
        if game.orders_this_turn() == 1 {
            ""
        } else {
            "s"
        }
    );
    if let Some(b) = game.battle() {
        let _ = writeln!(
            out,
            "Battle at {}: the {} attacks from {} with {}.",
            b.at,
            b.attacker,
            b.from,
            pieces_words(b.group)
        );
    }
    if let Some((side, kind)) = game.decision() {
        if !matches!(
            kind,
            crate::games::civil_war_1863::core::flow::DecisionKind::Turn { .. }
        ) {
            let _ = writeln!(out, "The {side} decides now: {kind}.");
        }
    }
    let flags: Vec<String> = game.flags().iter().map(ToString::to_string).collect();
    if !flags.is_empty() {
        let _ = writeln!(out, "Captured cities: {}.", flags.join(" "));
    }
    let _ = writeln!(
        out,
        "Markers left: {} disabled, {} fortification.",
        game.disabled_markers_left(),
        game.fort_markers_left()
    );
    out
}

/// The whole board for a mail, as `viewer` reads it.
pub fn draw(game: &CivilWar1863, viewer: Side, last: &[Event], style: &BoardStyle) -> String {
    let mut out = grid(game, viewer, last);
    out.push('\n');
    if !style.without_key {
        out.push_str(&wrap(KEY, |_| 0));
        out.push('\n');
    }
    out.push_str(&wrap(&stacks(game), |_| 2));
    out.push_str(&wrap(&status(game, viewer, style), |_| 2));
    if !style.without_last && !last.is_empty() {
        out.push_str("Last action:\n");
        for e in last {
            let words = if style.observer {
                public_words(e)
            } else {
                event_words(e, viewer)
            };
            out.push_str(&wrap(&format!("  {words}"), |_| 4));
        }
    }
    debug_assert!(out.lines().all(|l| l.len() <= MAIL_WIDTH));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, GameOptions};

    fn start() -> CivilWar1863 {
        CivilWar1863::new(&GameOptions::default())
    }

    #[test]
    fn every_line_fits_a_mail_from_either_side() {
        let game = start();
        for side in Side::BOTH {
            let text = draw(&game, side, &[], &BoardStyle::default());
            assert!(text.lines().all(|l| l.len() <= MAIL_WIDTH), "{text}");
            assert_eq!(grid(&game, side, &[]).lines().count(), 19);
        }
    }

    #[test]
    fn the_key_comes_only_when_asked_for() {
        let game = start();
        let first = draw(&game, Side::Union, &[], &BoardStyle::default());
        let later = BoardStyle {
            without_key: true,
            ..BoardStyle::default()
        };
        assert!(first.contains("Key:"));
        assert!(!draw(&game, Side::Union, &[], &later).contains("Key:"));
    }

    #[test]
    fn a_group_in_a_battle_under_way_is_listed_as_attacking() {
        // It has left H7 and not yet taken H8 (P18-P20): neither square
        // shows it, the list must.
        let game: CivilWar1863 =
            "cw1863 3; south to move; orders 1; U: H8 2I; C: A18 1I; battle H8 from H7 by south group 3I stage losses"
                .parse()
                .unwrap();
        let text = stacks(&game);
        assert!(
            text.contains("Confederacy: A18 1I, 3I attacking H8 from H7\n"),
            "{text}"
        );
        assert!(text.contains("Union: H8 2I\n"), "{text}");
    }

    #[test]
    fn the_confederacy_sees_the_board_turned() {
        let game = start();
        let union = grid(&game, Side::Union, &[]);
        let south = grid(&game, Side::Confederacy, &[]);
        let first_row = |g: &str| g.lines().nth(1).unwrap_or("").to_string();
        assert!(first_row(&union).starts_with(" 1 "));
        assert!(first_row(&south).starts_with("18 "));
        assert!(union.lines().next().unwrap().trim().starts_with('A'));
        assert!(south.lines().next().unwrap().trim().starts_with('R'));
        // Every stack is on both views: the same cells, turned.
        let count = |g: &str| g.matches(['U', 'C']).count();
        assert_eq!(count(&union), count(&south));
        assert!(game.stacks().count() > 0);
    }
}
