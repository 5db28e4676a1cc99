//! The board for one viewer: a window of the map around the action (or
//! the whole map, in strips, for `BOARD ALL`), then what the map cannot
//! show (every brigade with its display, its commander and each of its
//! units, drawn or not, with where it is; the hexside features, the turn,
//! the activation track and cup, the viewer's own hand and only the size
//! of the other's (B2), the standing instructions (B14), the key hexes and
//! who holds them).

use crate::games::brothers_at_war::engine::cards::{window_words, Kind};
use std::collections::BTreeMap;

use super::codes::Codes;
use super::hexmap::{self, Window, CELL, MAX_WIDTH};
use super::names;
use crate::games::brothers_at_war::core::combat::{Scope, Setting};
use crate::games::brothers_at_war::core::event::{count, Event};
use crate::games::brothers_at_war::core::ids::UnitId;
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::Side;
use crate::games::text::wrap;
use crate::games::{BoardStyle, Game, GameText, Seat};

/// The most rows a window shows: two lines a row, so a board with its key
/// still reads on one screen.
pub const WINDOW_ROWS: u8 = 14;

/// The hexes an event touches, for the window and the last-action marks.
pub fn event_hexes(event: &Event) -> Vec<Hex> {
    match event {
        Event::Moved { from, to, .. } => from.iter().copied().chain([*to]).collect(),
        Event::Exited { from, .. } => vec![*from],
        Event::Deployed { at, .. } | Event::RemnantPlaced { at, .. } => vec![*at],
        Event::CommanderMoved { to: Some(h), .. } => vec![*h],
        Event::Control { hex, .. } => vec![*hex],
        _ => Vec::new(),
    }
}

/// The hexes the window is drawn around: the last action's and those of
/// the units of the brigade to act.
fn focus(game: &BrothersAtWar, last: &[Event]) -> Vec<Hex> {
    let mut hexes: Vec<Hex> = last.iter().flat_map(event_hexes).collect();
    let acting = match game.now.step {
        Step::Units(b) | Step::Commander(b) | Step::Recovery(b) | Step::PassDiscard(b) => Some(b),
        _ => None,
    };
    if let Some(b) = acting {
        hexes.extend(
            game.units_of_brigade(b)
                .into_iter()
                .filter_map(|u| game.hex_of(u)),
        );
        hexes.extend(game.brigade(b).commander);
    }
    hexes
}

/// The three characters of a hex: a unit's code (`+` for a stack), or the
/// legend's character of its terrain and its level when above 1.
fn cell(
    game: &BrothersAtWar,
    codes: &Codes,
    legend: &BTreeMap<String, char>,
    hex: Hex,
) -> [char; CELL] {
    let units = game.units_at(hex);
    if let Some(&first) = units.first() {
        let [a, b] = codes.unit(game, first);
        return [a, b, if units.len() > 1 { '+' } else { ' ' }];
    }
    let map = &game.battle.map;
    let terrain = legend
        .get(map.terrain_name(map.terrain(hex)))
        .copied()
        .unwrap_or('?');
    let level = match map.level(hex) {
        0 | 1 => ' ',
        l @ 2..=9 => char::from(b'0' + l),
        _ => '^',
    };
    [terrain, level, ' ']
}

/// The legend inverted: a terrain's chart key to its map character.
fn legend(game: &BrothersAtWar) -> BTreeMap<String, char> {
    game.battle
        .scenario
        .map
        .legend
        .iter()
        .filter_map(|(c, t)| Some((t.clone(), c.chars().next()?)))
        .collect()
}

/// The window drawn for a board: around the action, as high as
/// [`WINDOW_ROWS`] and as wide as a mail line allows.
pub fn window(game: &BrothersAtWar, last: &[Event]) -> Window {
    let map = &game.battle.map;
    Window::around(
        &focus(game, last),
        map.columns(),
        map.rows(),
        hexmap::MAX_COLUMNS,
        WINDOW_ROWS,
    )
}

/// The whole board for `viewer`: the map in a window around the action,
/// or whole when `style` asks for it (in strips of at most 76 columns,
/// west first).
pub fn draw(game: &BrothersAtWar, viewer: Seat, last: &[Event], style: &BoardStyle) -> String {
    let codes = Codes::of(game);
    let legend = legend(game);
    let map = &game.battle.map;
    let whole = Window::whole(map.columns(), map.rows());
    let window = if style.whole_map {
        whole
    } else {
        window(game, last)
    };
    let mut out = String::new();
    out.push_str(&heading(game, viewer, style));
    let strips: Vec<String> = window
        .strips()
        .into_iter()
        .map(|w| hexmap::draw(w, |h| cell(game, &codes, &legend, h)))
        .collect();
    out.push_str(&strips.join("\n"));
    if window != whole {
        out.push_str(&format!(
            "(columns {:02}-{:02}, rows {:02}-{:02} of {:02}x{:02}; BOARD ALL draws the whole map)\n",
            window.first_column,
            window.last_column,
            window.first_row,
            window.last_row,
            map.columns(),
            map.rows()
        ));
    }
    if !style.without_key {
        out.push_str(&terrain_key(game));
    }
    out.push_str(&brigades(game, &codes, viewer));
    out.push_str(&hexsides(game, window));
    out.push_str(&track(game));
    out.push_str(&if style.observer {
        hand_sizes(game)
    } else {
        hands(game, viewer)
    });
    out.push_str(&instructions(game));
    out.push_str(&key_hexes(game));
    if !style.without_last && !last.is_empty() {
        out.push_str("Last: ");
        let words: Vec<String> = last
            .iter()
            .map(|e| {
                if style.observer {
                    BrothersAtWar::public_event_text(e)
                } else {
                    BrothersAtWar::event_text(e, viewer)
                }
            })
            .collect();
        out.push_str(&words.join("; "));
        out.push('\n');
    }
    wrap(&out, |indent| indent + 2)
}

fn heading(game: &BrothersAtWar, viewer: Seat, style: &BoardStyle) -> String {
    let s = &game.battle.scenario;
    let you = names::side(Side::of(viewer));
    let state = if let Some(ended) = &style.ended {
        format!("Over: {ended}.")
    } else if let Some(e) = game.now.ended {
        format!("Over: {}.", BrothersAtWar::ending_words(&e))
    } else {
        match game.pending() {
            Some(p) if p.seat == viewer && !style.observer => {
                format!("You ({you}) decide: {}.", p.kind)
            }
            Some(p) => format!(
                "The game waits for the {}: {}.",
                names::side(Side::of(p.seat)),
                p.kind
            ),
            None => "The game waits for a draw of chance.".to_string(),
        }
    };
    let acting = match game.now.step {
        Step::Units(b) | Step::Commander(b) | Step::PassDiscard(b) => {
            format!(" Activating: {}.", names::brigade(game, b))
        }
        _ => String::new(),
    };
    format!(
        "{} - turn {} of {}. {state}{acting}\n",
        s.name, game.now.turn, s.turns
    )
}

fn terrain_key(game: &BrothersAtWar) -> String {
    let s = &game.battle.scenario;
    let terrain: Vec<String> = s
        .map
        .legend
        .iter()
        .map(|(c, t)| {
            let name = s.terrain.get(t).map_or(t.as_str(), |t| t.name.as_str());
            format!("{c} {name}")
        })
        .collect();
    format!(
        "Map: {}; a digit after it is the level above 1. Units: a letter per \
         brigade (upper case Union, lower case Confederacy), a digit per unit, \
         + for a stack.\n",
        terrain.join(", ")
    )
}

fn status(game: &BrothersAtWar, u: UnitId) -> String {
    let state = game.unit(u);
    let mut words = vec![names::formation(game.formation(u)).to_string()];
    if state.finished {
        words.push("Finished".into());
    }
    if state.disrupted {
        words.push("Disrupted".into());
    }
    if state.out_of_command {
        words.push("out of command".into());
    }
    words.join(", ")
}

fn unit_name(game: &BrothersAtWar, u: UnitId) -> String {
    game.battle
        .scenario
        .units
        .get(u.index())
        .filter(|_| game.unit(u).generic.is_none())
        .map_or_else(|| "remnant".to_string(), |s| s.name.clone())
}

/// Where a unit is, in words: its hex, or why it is not on the map.
fn whereabouts(game: &BrothersAtWar, u: UnitId) -> String {
    match game.unit(u).place {
        Place::Map(hex) => hex.to_string(),
        Place::Display => "on the display".to_string(),
        Place::Waiting => match game
            .battle
            .scenario
            .units
            .get(u.index())
            .and_then(|s| s.enters.as_ref())
        {
            Some(e) => format!("to arrive turn {}", e.turn),
            None => "to arrive".to_string(),
        },
        Place::Eliminated => "eliminated".to_string(),
        Place::Removed => "removed".to_string(),
        Place::Exited => "left the map".to_string(),
        Place::OffBoard => "off the map, on its card".to_string(),
        Place::Track(turn) => format!("on the turn track, back on the display turn {turn}"),
    }
}

/// One unit's line: its code on the map, its id and name, its state while
/// in play, and where it is.
fn unit_line(game: &BrothersAtWar, codes: &Codes, u: UnitId) -> String {
    let gone = matches!(
        game.unit(u).place,
        Place::Eliminated | Place::Removed | Place::Exited
    );
    let state = if gone {
        String::new()
    } else {
        format!(" ({})", status(game, u))
    };
    format!(
        "    {} {} {}{state} {}\n",
        codes.text(game, u),
        game.unit_name(u),
        unit_name(game, u),
        whereabouts(game, u)
    )
}

/// Every brigade, the viewer's own first: its display (reserve,
/// casualties, flags), its commander and where he is, then each of its
/// units, inside the window drawn or not, with where it is; last, the
/// units of no brigade (remnants, 9.2).
fn brigades(game: &BrothersAtWar, codes: &Codes, viewer: Seat) -> String {
    let mut out = String::from("Brigades and their units:\n");
    let mut ids: Vec<_> = game.battle.brigade_ids().collect();
    ids.sort_by_key(|&b| game.battle.brigade_side(b).seat() != viewer);
    for b in ids {
        let s = game.brigade(b);
        let scenario = &game.battle.scenario.brigades[b.index()];
        let mut words = Vec::new();
        if let Some(r) = &scenario.reserves {
            words.push(format!(
                "reserve space {} of {}, casualties {}",
                s.reserve, r.length, s.casualties
            ));
        }
        if !s.committed {
            words.push("uncommitted".into());
        }
        if s.exhausted {
            words.push("exhausted".into());
        }
        if s.broken {
            words.push("broken".into());
        }
        out.push_str(&format!(
            "  {} {}: {}\n",
            game.battle.brigade_side(b).code(),
            names::brigade(game, b),
            if words.is_empty() {
                "in good order".to_string()
            } else {
                words.join(", ")
            }
        ));
        if let Some(c) = &scenario.commander {
            match s.commander {
                Some(at) => out.push_str(&format!("    commander {} {at}\n", c.name)),
                None => out.push_str(&format!("    commander {}, off the map\n", c.name)),
            }
        }
        for u in game.units_of_brigade(b) {
            out.push_str(&unit_line(game, codes, u));
        }
    }
    let own = Side::of(viewer);
    for side in [own, own.other()] {
        let loose: Vec<UnitId> = game
            .unit_ids()
            .filter(|&u| game.brigade_of(u).is_none() && game.side_of(u) == side)
            .collect();
        if loose.is_empty() {
            continue;
        }
        out.push_str(&format!("  {} without a brigade:\n", side.code()));
        for u in loose {
            out.push_str(&unit_line(game, codes, u));
        }
    }
    out
}

/// The hexside features with both hexes inside the window, by kind.
fn hexsides(game: &BrothersAtWar, window: Window) -> String {
    let map = &game.battle.map;
    let mut by_kind: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for a in map.hexes().filter(|&h| window.contains(h)) {
        for b in map.neighbours(a).filter(|&h| h > a && window.contains(h)) {
            for &id in map.hexside(a, b) {
                let kind = &map.hexside_kinds()[usize::from(id.0)];
                by_kind
                    .entry(kind.name.clone())
                    .or_default()
                    .push(format!("{a}/{b}"));
            }
        }
    }
    if by_kind.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = by_kind
        .into_iter()
        .map(|(k, sides)| format!("{k} {}", sides.join(" ")))
        .collect();
    format!("Hexsides: {}\n", parts.join("; "))
}

fn track(game: &BrothersAtWar) -> String {
    let spaces = game.battle.scenario.activation.spaces.len();
    let drawn: Vec<String> = game
        .now
        .track
        .iter()
        .map(|&m| names::marker(game, m))
        .collect();
    format!(
        "Track ({} of {}): {}. Cup: {} left.\n",
        drawn.len(),
        count(spaces, "space", "spaces"),
        if drawn.is_empty() {
            "nothing drawn yet".to_string()
        } else {
            drawn.join(", ")
        },
        count(game.now.cup.len(), "marker", "markers")
    )
}

/// The viewer's hand in full, the other's by its size only (B2).
fn hands(game: &BrothersAtWar, viewer: Seat) -> String {
    let own = Side::of(viewer);
    let scenario = &game.battle.scenario;
    let hand = &game.now.hands[own.index()];
    let mut out = format!("Your hand ({}):\n", count(hand.len(), "card", "cards"));
    for &n in hand {
        let text = names::card(scenario, n).map_or("", |c| c.text.as_str());
        // B124, B137: when it may be played, and how.
        let when = match names::card(scenario, n) {
            Some(c) if c.effect == "no-effect" => " [only discarded]".to_string(),
            Some(c) if Kind::of(&c.effect).by_instruction() => {
                format!(" [{}, by CARDS ... AUTO or ASK]", names::card_moment(c))
            }
            Some(c) if Kind::of(&c.effect) == Kind::Reaction => {
                " [not playable yet by mail]".to_string()
            }
            Some(c) if c.timing == "drawn" => " [acts when drawn]".to_string(),
            Some(c) => format!(" [{}: PLAY {n}]", window_words(&c.timing)),
            None => String::new(),
        };
        out.push_str(&format!(
            "  {} - {text}{when}\n",
            names::card_title(scenario, n)
        ));
    }
    let other = own.other();
    let theirs = game.now.hands[other.index()].len();
    out.push_str(&format!(
        "The {} holds {}. Deck {}, discards {}.\n",
        names::side(other),
        count(theirs, "card", "cards"),
        game.now.deck.len(),
        game.now.discard.len()
    ));
    out
}

/// Both hands by their size only, as each side reads the other's (B2):
/// an observer's board.
fn hand_sizes(game: &BrothersAtWar) -> String {
    let held: Vec<String> = [Side::Union, Side::Confederacy]
        .iter()
        .map(|&side| {
            format!(
                "the {} holds {}",
                names::side(side),
                count(game.now.hands[side.index()].len(), "card", "cards")
            )
        })
        .collect();
    format!(
        "Hands: {}. Deck {}, discards {}.\n",
        held.join(", "),
        game.now.deck.len(),
        game.now.discard.len()
    )
}

/// The standing instructions: shown to both (B14). Only `PLAY`
/// instructions would be the owner's alone, and the engine has none yet.
fn instructions(game: &BrothersAtWar) -> String {
    let mut rules: Vec<String> = game
        .battle
        .brigade_ids()
        .map(|b| format!("OPFIRE {} {}", game.brigade_name(b), game.brigade(b).opfire))
        .collect();
    for (scope, setting) in &game.now.instructions.given {
        if matches!(setting, Setting::OpFire(_)) {
            continue;
        }
        let scope = match scope {
            Scope::All(side) => side.code().to_string(),
            Scope::Brigade(b) => game.brigade_name(*b),
        };
        rules.push(format!("{} {scope} {setting}", setting.word()));
    }
    format!(
        "Standing instructions (the defaults for the rest): {}\n",
        rules.join(", ")
    )
}

fn key_hexes(game: &BrothersAtWar) -> String {
    let map = &game.battle.map;
    let parts: Vec<String> = game
        .key_hexes()
        .into_iter()
        .map(|h| {
            let place = map.place(h).map_or(String::new(), |p| format!(" {p}"));
            let held = game.now.control.get(&h).map_or("nobody", |s| s.code());
            format!("{h}{place} ({held})")
        })
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    format!("Key hexes: {}\n", parts.join(", "))
}

/// Whether every line of `text` fits a mail.
pub fn fits(text: &str) -> bool {
    text.lines().all(|l| l.chars().count() <= MAX_WIDTH)
}
