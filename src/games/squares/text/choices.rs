//! The pending choices, worded for the player who must decide.
//!
//! On a turn: every legal attack first, each written out in full in the
//! notation a player copies (two to a line when there are many), with what
//! it does when that is decided already; then the moves by unit (`HELP
//! MOVES <square>` writes one unit's out in full); then one line for each
//! unit, or group of units, that cannot act, saying why with the rule the
//! engine refuses its orders by; then an example order that is sensible to
//! copy. Inside an attack: each legal choice with one line saying what it
//! does in this position, worked out by playing it on a copy of the game,
//! so the text can never promise what the rules would not do; an
//! attacker's option first says what it does by the rules.
//!
//! The Napoleonic variant's choices are worded in its notation (British and
//! French, F codes, its seven unit types; N1, N24), with its rules cited
//! where they decide: the charge (N10), the Guard's and the others'
//! immunities (N11, N14, N15), the forced retreat from the attacking Guard
//! (N12), and the Grand Battery and Horse Battery option lists (N18, N19).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::drawing::{must_retreat_rule, option_list};
use super::notation::Notation;
use super::reader::edit_distance;
use crate::games::squares::core::attack::{AttackState, Stage};
use crate::games::squares::core::board::{board, Space, SpaceSet, Terrain};
use crate::games::squares::core::event::Event;
use crate::games::squares::core::order::{Order, Step};
use crate::games::squares::core::state::{Half, Squares};
use crate::games::squares::core::unit::{Side, UnitKind};
use crate::games::squares::core::variant::Variant;
use crate::games::squares::engine::attack::Immunity;
use crate::games::squares::engine::options::OptionsOffered;
use crate::games::squares::engine::refusal::Refusal;
use crate::games::squares::engine::rules::Family;
use crate::games::{Game, Rejection};

/// Mail lines are at most this wide (design: plain text, 76 columns).
const WIDTH: usize = crate::games::text::MAIL_WIDTH;

/// The notation of the game described: its choices are worded in the
/// game's own words and codes, whoever asks (N1).
fn notation_of(game: &Squares) -> &'static Notation {
    game.variant().notation()
}

/// The pending choices for the player who must decide, in the game's own
/// notation (N1).
pub(crate) fn describe(game: &Squares) -> String {
    let Some(side) = game.side_to_decide() else {
        return String::new();
    };
    match game.attack {
        Some(attack) => describe_decision(game, side, attack.stage),
        None => describe_turn(game, side),
    }
}

/// `HELP MOVES <square>`: every legal order of the unit on `square` (or of
/// the reserve), one per line in canonical notation; the square read and
/// written in the game's own codes (F codes in the variant, N1).
pub(crate) fn describe_from(game: &Squares, square: &str) -> Result<String, Rejection> {
    let notation = notation_of(game);
    let reject = |problem: String, suggestions: Vec<String>| Rejection {
        line: format!("HELP MOVES {square}"),
        problem,
        rule: None,
        suggestions,
    };
    let Some(space) = Space::read(square.trim(), notation) else {
        let written = square.trim().to_ascii_uppercase();
        // A code of another length by more than one is no slip of it (and
        // the distance costs the product of the lengths).
        let near: Vec<String> = Space::all()
            .map(|s| s.display_in(notation).to_string())
            .filter(|s| s.len().abs_diff(written.len()) <= 1 && edit_distance(&written, s) <= 1)
            .map(|s| format!("HELP MOVES {s}"))
            .collect();
        return Err(reject(
            format!("{:?} is not a square of the board", square.trim()),
            near,
        ));
    };
    let orders: Vec<String> = sorted(
        game.legal_orders()
            .into_iter()
            .filter(|o| acting_squares(o).contains(&space)),
        notation,
    );
    let space = space.display_in(notation);
    if orders.is_empty() {
        let problem = match game.side_to_decide() {
            None => "the game is over".to_string(),
            Some(side) => format!(
                "{} has no legal order for a unit in {space} now",
                side.display_in(notation)
            ),
        };
        return Err(reject(problem, Vec::new()));
    }
    let mut out = format!("Legal orders for {space} ({}):\n", orders.len());
    for o in orders {
        let _ = writeln!(out, "  {o}");
    }
    Ok(out)
}

/// The squares of the units an order acts with.
fn acting_squares(order: &Order) -> Vec<Space> {
    match *order {
        Order::Move(s) => vec![s.from],
        Order::MoveTwo(a, b) => vec![a.from, b.from],
        Order::Attack {
            attacker, support, ..
        } => std::iter::once(attacker).chain(support).collect(),
        _ => Vec::new(),
    }
}

fn sorted(orders: impl Iterator<Item = Order>, notation: &Notation) -> Vec<String> {
    let mut v: Vec<String> = orders.map(|o| o.display_in(notation).to_string()).collect();
    v.sort();
    v
}

fn describe_turn(game: &Squares, side: Side) -> String {
    let notation = notation_of(game);
    let mut out = String::new();
    let turn = game.turn();
    let what = match game.half {
        Half::Single => "your turn",
        Half::First => "the first half of your double turn (R4)",
        Half::Second => "the second half of your double turn (R4)",
    };
    let _ = writeln!(out, "{}, turn {turn}: {what}.", side.display_in(notation));
    let legal = game.legal_orders();

    // Every attack in full: attacks are what a player looks for first.
    let mut attacks: Vec<(u8, Space, Space, Option<Space>)> = legal
        .iter()
        .filter_map(|o| match *o {
            Order::Attack {
                attacker,
                target,
                support,
            } => Some((front_rank(side, attacker), attacker, target, support)),
            _ => None,
        })
        .collect();
    attacks.sort();
    if attacks.is_empty() {
        let _ = writeln!(out, "Attacks: none now.");
    } else {
        let _ = writeln!(out, "Attacks ({}):", attacks.len());
        let listed: Vec<((Space, Space), String, Option<String>)> = attacks
            .iter()
            .map(|&(_, attacker, target, support)| {
                let order = Order::Attack {
                    attacker,
                    target,
                    support,
                };
                (
                    (attacker, target),
                    order.display_in(notation).to_string(),
                    attack_note(game, attacker, target, support),
                )
            })
            .collect();
        out.push_str(&attack_lines(&listed));
    }

    // Units are keyed by square; a reserve is keyed by square and type,
    // because its units of one type are interchangeable (R7).
    let mut by_unit: BTreeMap<(u8, Space, Option<UnitKind>), Vec<Step>> = BTreeMap::new();
    let mut pairs = 0usize;
    let mut pass = false;
    for order in &legal {
        match *order {
            Order::Move(step) => by_unit
                .entry((front_rank(side, step.from), step.from, step.unit))
                .or_default()
                .push(step),
            Order::MoveTwo(..) => pairs += 1,
            Order::Pass => pass = true,
            _ => {}
        }
    }
    if !by_unit.is_empty() || pairs > 0 || pass {
        let _ = writeln!(out, "Your orders, by unit:");
    }
    let mut whole_turn_note = false;
    for ((_, square, kind), steps) in &by_unit {
        let kind = kind
            .or_else(|| game.unit_at(*square).map(|u| u.kind()))
            .unwrap_or(UnitKind::Infantry);
        let (line, whole) = moves_line(game, kind, *square, steps);
        whole_turn_note |= whole;
        out.push_str(&line);
        out.push('\n');
    }
    if pairs > 0 {
        let ways = count(pairs, "way");
        match game.variant() {
            Variant::CivilWar => {
                let _ = writeln!(
                    out,
                    "  two cavalry at once, one step each (R11): {ways}; HELP MOVES \
                     on either cavalry's square lists them"
                );
            }
            Variant::Napoleonic => {
                let _ = writeln!(
                    out,
                    "  two cavalry or heavy cavalry at once, one step each (R11, N6): \
                     {ways}; HELP MOVES on either unit's square lists them"
                );
            }
        }
    }
    if pass {
        let _ = writeln!(
            out,
            "  PASS: do nothing now; your next turn is then a double turn (R4)"
        );
    }
    if whole_turn_note {
        let _ = writeln!(out, "  * this move uses your whole double turn (R5)");
    }

    let idle = idle_units(game, side, &legal);
    if !idle.is_empty() {
        let _ = writeln!(out, "Units that cannot act now:");
        for (units, why) in idle {
            let _ = writeln!(out, "  {}: {why}", units.join(", "));
        }
    }
    let _ = writeln!(
        out,
        "Write one order per line, such as {}. HELP MOVES <square> lists \
         one unit's orders in full.",
        example(game, side, &legal)
    );
    wrap_all(&out)
}

/// Attacks listed one per line up to this many; beyond it, the attacks of
/// one unit on one target without a note share lines, in columns, each
/// still a whole order to copy.
const ONE_ATTACK_PER_LINE: usize = 12;

/// The attack lines: each attack in canonical notation, with what it does
/// without a choice when that is decided already (`attack_note`). Each
/// attack comes with its engagement (attacker and target): in the compact
/// form an engagement starts a new line.
fn attack_lines(attacks: &[((Space, Space), String, Option<String>)]) -> String {
    let mut out = String::new();
    if attacks.len() <= ONE_ATTACK_PER_LINE {
        for (_, order, note) in attacks {
            match note {
                Some(note) => {
                    let _ = writeln!(out, "  {order} ({note})");
                }
                None => {
                    let _ = writeln!(out, "  {order}");
                }
            }
        }
        return out;
    }
    // Columns three spaces apart; the last needs no gap after it.
    let column = attacks.iter().map(|(_, o, _)| o.len()).max().unwrap_or(0) + 3;
    let per_line = ((WIDTH - 2 + 3) / column).max(1);
    let mut row: Vec<&str> = Vec::new();
    let flush = |row: &mut Vec<&str>, out: &mut String| {
        if row.is_empty() {
            return;
        }
        let mut line = String::from("  ");
        for (i, order) in row.iter().enumerate() {
            if i + 1 < row.len() {
                let _ = write!(line, "{order:<column$}");
            } else {
                line.push_str(order);
            }
        }
        out.push_str(&line);
        out.push('\n');
        row.clear();
    };
    let mut engagement = None;
    for (pair, order, note) in attacks {
        if engagement != Some(*pair) {
            flush(&mut row, &mut out);
            engagement = Some(*pair);
        }
        match note {
            Some(note) => {
                flush(&mut row, &mut out);
                let _ = writeln!(out, "  {order} ({note})");
            }
            None => {
                row.push(order);
                if row.len() == per_line {
                    flush(&mut row, &mut out);
                }
            }
        }
    }
    flush(&mut row, &mut out);
    out
}

/// One unit's moves on one line (wrapped when long), by destination; a
/// star marks a move that takes the whole double turn (R5).
fn moves_line(game: &Squares, kind: UnitKind, square: Space, steps: &[Step]) -> (String, bool) {
    let notation = notation_of(game);
    let mut moves: Vec<String> = Vec::new();
    let mut whole = false;
    for step in steps {
        let takes_whole =
            game.half == Half::First && game.is_whole_double_turn(kind, step.from, step.to);
        whole |= takes_whole;
        let dest = format!(
            "{}{}",
            step.to.display_in(notation),
            if takes_whole { "*" } else { "" }
        );
        if !moves.contains(&dest) {
            moves.push(dest);
        }
    }
    (
        format!(
            "  {kind} {}: MOVE to {}",
            square.display_in(notation),
            moves.join(" ")
        ),
        whole,
    )
}

/// One part of why a unit cannot act: a head ("no move", "no attack on"),
/// the squares it concerns if any, perhaps a detail, and the rules the
/// engine's refusals cite.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Why {
    head: &'static str,
    squares: Vec<Space>,
    detail: Option<String>,
    rules: Vec<&'static str>,
}

impl Why {
    fn new(head: &'static str, detail: Option<String>, rule: &'static str) -> Why {
        Why::citing(head, detail, vec![rule])
    }

    fn citing(head: &'static str, detail: Option<String>, rules: Vec<&'static str>) -> Why {
        Why {
            head,
            squares: Vec::new(),
            detail,
            rules,
        }
    }

    fn on(head: &'static str, square: Space, detail: Option<String>, rule: &'static str) -> Why {
        Why {
            squares: vec![square],
            ..Why::new(head, detail, rule)
        }
    }

    /// Whether `other` says the same, perhaps of other squares or citing
    /// other rules.
    fn same_kind(&self, other: &Why) -> bool {
        self.head == other.head && self.detail == other.detail
    }

    /// Takes in the squares and rules of `other`, a reason of the same kind.
    fn merge(&mut self, other: Why) {
        for s in other.squares {
            if !self.squares.contains(&s) {
                self.squares.push(s);
            }
        }
        for r in other.rules {
            if !self.rules.contains(&r) {
                self.rules.push(r);
            }
        }
    }

    fn render(&self, notation: &Notation) -> String {
        let mut head = self.head.to_string();
        if !self.squares.is_empty() {
            let squares: Vec<String> = self
                .squares
                .iter()
                .map(|s| s.display_in(notation).to_string())
                .collect();
            let _ = write!(head, " {}", squares.join(" or "));
        }
        let mut inside: Vec<String> = self.detail.iter().cloned().collect();
        inside.extend(self.rules.iter().map(|r| r.to_string()));
        if inside.is_empty() {
            head
        } else {
            format!("{head} ({})", inside.join(", "))
        }
    }
}

/// The units of `side` (and the reserve's unit types) with no legal order
/// now, each with why, grouped where the reasons are the same: nearest the
/// enemy first, the reserve last.
///
/// The reasons are the engine's own: each order the unit would give (a
/// step to every square in reach, an attack on every enemy next to it,
/// alone or with each unit that could support it) is put to the engine's
/// refusal machinery (`Squares::diagnose`), and its refusals and the rules
/// they cite are worded here.
fn idle_units(game: &Squares, side: Side, legal: &[Order]) -> Vec<(Vec<String>, String)> {
    let b = board();
    let own_reserve = b.reserve(side);
    let mut acting = SpaceSet::EMPTY;
    let mut reserve_acting: Vec<UnitKind> = Vec::new();
    for order in legal {
        for s in acting_squares(order) {
            acting |= s.set();
        }
        let steps = match *order {
            Order::Move(a) => vec![a],
            Order::MoveTwo(a, c) => vec![a, c],
            _ => Vec::new(),
        };
        for step in steps {
            if step.from == own_reserve {
                reserve_acting.extend(step.unit);
            }
        }
    }
    let mut idle: Vec<(u8, Space, UnitKind, Vec<Why>)> = Vec::new();
    for s in game.occupied_by(side) {
        if b.reserve_owner(s).is_some() || acting.contains(s) {
            continue;
        }
        let Some(u) = game.unit_at(s) else { continue };
        idle.push((
            front_rank(side, s),
            s,
            u.kind(),
            unit_reasons(game, s, None),
        ));
    }
    let mut kinds: Vec<UnitKind> = Vec::new();
    for u in game.reserve_units(side) {
        if !kinds.contains(&u.kind()) && !reserve_acting.contains(&u.kind()) {
            kinds.push(u.kind());
        }
    }
    kinds.sort_by_key(|k| game.variant().kinds().iter().position(|v| v == k));
    for kind in kinds {
        let why = unit_reasons(game, own_reserve, Some(kind));
        idle.push((u8::MAX, own_reserve, kind, why));
    }
    idle.sort_by_key(|&(rank, s, _, _)| (rank, s));
    // Grouped by the same reasons; the rules of a group are all cited.
    let mut groups: Vec<(Vec<String>, Vec<Why>)> = Vec::new();
    for (_, s, kind, whys) in idle {
        let name = format!("{kind} {}", s.display_in(notation_of(game)));
        let same = |a: &[Why], c: &[Why]| {
            a.len() == c.len()
                && a.iter()
                    .zip(c)
                    .all(|(x, y)| x.same_kind(y) && x.squares == y.squares)
        };
        match groups.iter_mut().find(|(_, g)| same(g, &whys)) {
            Some((names, g)) => {
                names.push(name);
                for (x, y) in g.iter_mut().zip(whys) {
                    x.merge(y);
                }
            }
            None => groups.push((vec![name], whys)),
        }
    }
    groups
        .into_iter()
        .map(|(names, whys)| {
            let text: Vec<String> = whys.iter().map(|w| w.render(notation_of(game))).collect();
            (names, text.join("; "))
        })
        .collect()
}

/// Why the unit on `from` (of type `kind` when `from` is the reserve) has
/// no legal order: its would-be orders, refused by the engine.
fn unit_reasons(game: &Squares, from: Space, kind: Option<UnitKind>) -> Vec<Why> {
    let b = board();
    let Some(unit_kind) = kind.or_else(|| game.unit_at(from).map(|u| u.kind())) else {
        return vec![Why::citing("no legal order", None, Vec::new())];
    };
    let rule_of = |r: &Refusal| r.rule_in(game.variant()).0;

    // Moves: one step to every square in reach, two for the units that
    // move two (R11).
    let mut reach = b.adjacent(from);
    if game.variant().unit(unit_kind).steps >= 2 {
        for s in b.adjacent(from) {
            reach |= b.adjacent(s);
        }
    }
    let move_refusals: Vec<Refusal> = reach
        .iter()
        .filter(|&to| to != from)
        .map(|to| {
            game.diagnose(&Order::Move(Step {
                from,
                via: None,
                to,
                unit: kind,
            }))
        })
        .collect();
    if let Some(r) = move_refusals
        .iter()
        .find(|r| matches!(r, Refusal::Resting { .. }))
    {
        return vec![Why::new("resting after a retreat", None, rule_of(r))];
    }
    let mut whys = Vec::new();
    let no_move = |detail: &str, rules| Why::citing("no move", Some(detail.to_string()), rules);
    let rules_of = |pick: &dyn Fn(&Refusal) -> bool| {
        let mut rules: Vec<&'static str> = Vec::new();
        for r in move_refusals.iter().filter(|r| pick(r)) {
            if !rules.contains(&rule_of(r)) {
                rules.push(rule_of(r));
            }
        }
        rules
    };
    let any = |pick: &dyn Fn(&Refusal) -> bool| move_refusals.iter().any(pick);
    let moved_twice = |r: &Refusal| matches!(r, Refusal::MovedTwice { .. });
    let double_turn = |r: &Refusal| matches!(r, Refusal::NeedsDoubleTurn { .. });
    let forest = |r: &Refusal| matches!(r, Refusal::NeverForest);
    let taken = |r: &Refusal| {
        matches!(
            r,
            Refusal::Occupied { .. } | Refusal::EnemyReserveHeld { .. }
        )
    };
    if any(&moved_twice) {
        whys.push(no_move(
            "moved on your last two turns",
            rules_of(&moved_twice),
        ));
    } else if any(&double_turn) {
        whys.push(no_move(
            "its free squares need a whole double turn",
            rules_of(&double_turn),
        ));
    } else if any(&forest) {
        whys.push(no_move("its free squares are forest", rules_of(&forest)));
    } else if any(&taken) {
        whys.push(no_move(
            "every square in reach is occupied",
            rules_of(&taken),
        ));
    } else {
        whys.push(Why::citing("no move", None, rules_of(&|_| true)));
    }
    if kind.is_some() {
        // A reserve never attacks (R25): its units only move out.
        return whys;
    }

    // Attacks: on every enemy next to it by an edge, alone and with each
    // unit that could support.
    let side = game.to_move;
    let enemy = side.opponent();
    let own = game.occupied_by(side);
    let mut push = |why: Why| match whys.iter_mut().find(|w| w.same_kind(&why)) {
        Some(w) => w.merge(why),
        None => whys.push(why),
    };
    for target in b.edge(from) {
        let enemy_there = match b.terrain(target) {
            Terrain::Reserve(owner) => owner == enemy && game.reserve_count(enemy) > 0,
            _ => game.occupied_by(enemy).contains(target),
        };
        if !enemy_there {
            continue;
        }
        let supports: Vec<Space> = b
            .adjacent(target)
            .iter()
            .filter(|&s| s != from && own.contains(s) && b.reserve_owner(s).is_none())
            .collect();
        let attack = |support| {
            game.diagnose(&Order::Attack {
                attacker: from,
                target,
                support,
            })
        };
        let defender = match game.unit_at(target) {
            Some(d) => d.kind().to_string(),
            None => "reserve".to_string(),
        };
        for (support, r) in std::iter::once((None, attack(None)))
            .chain(supports.iter().map(|&s| (Some(s), attack(Some(s)))))
        {
            let rule = rule_of(&r);
            let why = match r {
                Refusal::AttackedTwice { .. } => Why::new(
                    "no attack",
                    Some("attacked on your last two turns".to_string()),
                    rule,
                ),
                Refusal::Pinned { square, artillery } if square == from => {
                    let by = game
                        .unit_at(artillery)
                        .map_or("artillery".to_string(), |u| u.kind().to_string());
                    Why::new(
                        "no attack",
                        Some(format!(
                            "pinned by the {by} in {}",
                            artillery.display_in(notation_of(game))
                        )),
                        rule,
                    )
                }
                Refusal::PinnedTwice { square } if square == from => Why::new(
                    "no attack",
                    Some("next to two or more enemy artillery".to_string()),
                    rule,
                ),
                Refusal::Pinned { square, .. } | Refusal::PinnedTwice { square } => {
                    Why::on("no support from", square, Some("pinned".to_string()), rule)
                }
                Refusal::Resting { square, .. } => {
                    Why::on("no support from", square, Some("resting".to_string()), rule)
                }
                Refusal::CavalryUnsupportedOnInfantry if support.is_none() => Why::on(
                    "no attack on",
                    target,
                    Some(if supports.is_empty() {
                        format!("{unit_kind} needs a support there, and none is next to it")
                    } else {
                        format!("{unit_kind} needs a support there")
                    }),
                    rule,
                ),
                Refusal::ArtilleryTarget if game.variant().unit(unit_kind).grand_battery => {
                    Why::on(
                        "no attack on",
                        target,
                        Some(format!(
                            "{unit_kind} attacks {defender} only as a Grand Battery"
                        )),
                        rule,
                    )
                }
                Refusal::FootOnCavalry { .. } => Why::on(
                    "no attack on",
                    target,
                    Some(format!("{unit_kind} may not lead an attack on {defender}")),
                    rule,
                ),
                Refusal::CavalryUnsupportedOnInfantry | Refusal::ArtilleryTarget => Why::on(
                    "no attack on",
                    target,
                    Some(format!("{unit_kind} may not attack {defender}")),
                    rule,
                ),
                _ => Why::on("no attack on", target, None, rule),
            };
            push(why);
        }
    }
    whys
}

/// The order shown as an example of the notation. It must be one a player
/// could sensibly copy, never a suicidal one. "Sensible", simply, in this
/// order of preference:
/// 1. a MOVE of one unit to a square that no enemy unit touches (an edge or
///    a corner), preferring units that are not artillery (nor the horse
///    battery), then moves that do not take the whole double turn (R5),
///    then moves out of the own reserve;
/// 2. any other MOVE of one unit, in the same preference, then two cavalry
///    at once;
/// 3. PASS;
/// 4. an attack the choices do not mark as losing its attacker;
/// 5. whatever order is listed first.
///
/// Ties go to the first in alphabetical order, so the example is stable.
fn example(game: &Squares, side: Side, legal: &[Order]) -> String {
    let b = board();
    let enemy = game.occupied_by(side.opponent());
    let key = |o: &Order| -> (u8, bool, bool, bool, bool) {
        match *o {
            Order::Move(step) => {
                let kind = step
                    .unit
                    .or_else(|| game.unit_at(step.from).map(|u| u.kind()))
                    .unwrap_or(UnitKind::Infantry);
                let exposed = !(b.adjacent(step.to) & enemy).is_empty();
                let guns = game.variant().unit(kind).family == Family::Guns;
                let whole =
                    game.half == Half::First && game.is_whole_double_turn(kind, step.from, step.to);
                let not_reserve = b.reserve_owner(step.from) != Some(side);
                (u8::from(exposed), guns, whole, not_reserve, false)
            }
            Order::MoveTwo(..) => (2, false, false, false, false),
            Order::Pass => (3, false, false, false, false),
            Order::Attack {
                attacker,
                target,
                support,
            } => {
                let loses = attack_note(game, attacker, target, support)
                    .is_some_and(|n| n.contains("attacker lost") || n.contains("both eliminated"));
                (4 + u8::from(loses), false, false, false, false)
            }
            _ => (6, false, false, false, false),
        }
    };
    legal
        .iter()
        .map(|o| (key(o), o.display_in(notation_of(game)).to_string()))
        .min()
        .map(|(_, text)| text)
        .unwrap_or_else(|| "PASS".to_string())
}

/// Orders nearer the enemy come first: the front is what a player reads
/// first. The own reserve comes last.
fn front_rank(side: Side, s: Space) -> u8 {
    let b = board();
    if b.reserve_owner(s).is_some() {
        return u8::MAX;
    }
    let depth = b.rect(s).y_from + b.rect(s).y_to;
    let toward_enemy = match side {
        Side::Blue => 100 - depth,
        Side::Gray => depth,
    };
    toward_enemy.clamp(0, 254) as u8
}

/// What an attack from `attacker` on `target` does without a choice, if
/// anything. An unsupported one only loses the attacker on a forest (R17)
/// or against an artillery (R17); against another unit immune to it (N11,
/// N14, N15) it loses the attacker if the defender stands (N38). In
/// the variant a cavalry charge directly after a PASS, supported or not,
/// eliminates the foot (N10), taking the charger with it against the Guard;
/// the forest and flank rules come first (N10).
fn attack_note(
    game: &Squares,
    attacker: Space,
    target: Space,
    support: Option<Space>,
) -> Option<String> {
    let b = board();
    let variant = game.variant();
    let forest = b.is_forest(target);
    if forest && support.is_none() {
        return Some("attacker lost, R17".to_string());
    }
    let (a, d) = (game.unit_at(attacker)?, game.unit_at(target)?);
    let (a_rules, d_rules) = (variant.unit(a.kind()), variant.unit(d.kind()));
    let after_pass = game.half == Half::First;
    if support.is_none() {
        let rule = match (variant, d.kind()) {
            (Variant::Napoleonic, UnitKind::Guard) => "N11",
            (Variant::Napoleonic, UnitKind::HeavyCavalry) => "N14",
            (Variant::Napoleonic, UnitKind::HorseBattery) => "N15",
            _ => "R17",
        };
        match game.immunity(a, target) {
            Immunity::None => {}
            Immunity::AtOnce => return Some(format!("attacker lost, {rule}")),
            // N38: the defender still chooses; standing, it survives.
            Immunity::OnStand => {
                return Some(format!("attacker lost if the defender stands, {rule}"))
            }
        }
    }
    let flank = support.is_some_and(|s| {
        game.is_flank(&AttackState {
            attacker,
            target,
            support: Some(s),
            stage: Stage::Response,
        })
    });
    if a_rules.charges && after_pass && d_rules.family == Family::Foot && !forest && !flank {
        return Some(if d_rules.costs_its_charger {
            "charge: both eliminated, N10".to_string()
        } else {
            "charge: defender eliminated, N10".to_string()
        });
    }
    None
}

fn describe_decision(game: &Squares, side: Side, stage: Stage) -> String {
    let notation = notation_of(game);
    let attack = game.attack.expect("a decision is inside an attack");
    let v = View {
        game,
        side,
        notation,
    };
    let attacker = v.unit(attack.attacker);
    let target = v.unit(attack.target);
    let support = attack
        .support
        .map(|s| format!(", supported by {}", v.unit(s)))
        .unwrap_or_default();
    let (side, enemy) = (
        side.display_in(notation),
        side.opponent().display_in(notation),
    );
    let list = option_list(game, &attack);
    let legal = game.legal_orders();
    let head = match stage {
        Stage::Response => {
            let mut h = format!("{side}: {attacker} attacks {target}{support}.");
            if game.is_flank(&attack) {
                h.push_str(" It is a flank attack: you must retreat if you can (R18).");
            }
            let may_stand = legal.contains(&Order::Stand);
            // Only the reason that applies is given (R18, N12, R24).
            let reason = match must_retreat_rule(game, &attack) {
                _ if may_stand => " Retreat or stand:",
                "R18" => " Choose where:",
                "N12" => " It must retreat from the attacking guard (N12); choose where:",
                _ if game.variant() == Variant::Napoleonic
                    && attack.support.is_none()
                    && game.unit_at(attack.attacker).map(|u| u.kind())
                        == Some(UnitKind::HeavyCavalry) =>
                {
                    // N27: a lone Heavy Cavalry is not "Cavalry" of R24(2).
                    " Cavalry must retreat when it can, also from a lone heavy \
                     cavalry (R24, N27); choose where:"
                }
                _ => " Cavalry must retreat when it can (R24); choose where:",
            };
            h.push_str(reason);
            h
        }
        Stage::Option => {
            let how = match list {
                OptionsOffered::General => "an option (R19)",
                OptionsOffered::GrandBattery => "a Grand Battery option (N18)",
                OptionsOffered::HorseBattery => "a Horse Battery option (N19)",
            };
            format!("{side}: {target} stands against {attacker}{support}. Choose {how}:")
        }
        Stage::SupportRetreat1 | Stage::SupportRetreat5 => {
            // GB3 and HB5 reuse option 5's stage.
            let why = match (stage, list) {
                (Stage::SupportRetreat5, OptionsOffered::GrandBattery) => "GB3, N18",
                (Stage::SupportRetreat5, OptionsOffered::HorseBattery) => "HB5, N19",
                _ => "R19, R21",
            };
            format!(
                "{side}: choose where {} retreats ({why}):",
                v.unit(attack.support.unwrap_or(attack.attacker))
            )
        }
        Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => {
            // HB4 reuses option 4's stage.
            let why = match (stage, list) {
                (Stage::AttackerRetreat4, OptionsOffered::HorseBattery) => "HB4, N19",
                _ => "R19, R21",
            };
            format!("{side}: choose where {attacker} retreats ({why}):")
        }
        Stage::SecondChance | Stage::GrandSecondChance => {
            let (option, rules) = if stage == Stage::GrandSecondChance {
                ("GB1", "N18, N21")
            } else {
                ("option 1", "R19")
            };
            // The defender begins the sentence: "Your infantry in F1C".
            let target = crate::games::text::capitalised(&target);
            if legal.contains(&Order::Stand) {
                format!(
                    "{side}: the supporting {enemy} artillery has retreated. {target} may \
                     retreat a second time and survive; if it stands it is eliminated \
                     ({}):",
                    if stage == Stage::GrandSecondChance {
                        format!("{option}, {rules}")
                    } else {
                        rules.to_string()
                    }
                )
            } else {
                // N29: the defender that yields to the attacking Guard takes
                // the retreat it now has.
                format!(
                    "{side}: the supporting {enemy} artillery has retreated ({option}). \
                     {target} must now retreat from the attacking guard (N12, N29); \
                     choose where:"
                )
            }
        }
        Stage::GrandSupportRetreat | Stage::HorseSupportRetreat => format!(
            "{side}: choose where {} retreats ({}):",
            v.unit(attack.support.unwrap_or(attack.attacker)),
            if stage == Stage::GrandSupportRetreat {
                "GB1, N18"
            } else {
                "HB1, N19"
            }
        ),
        Stage::HorseDefenderRetreat => {
            format!("{side}: {attacker} takes option HB1: choose where {target} retreats (N19):")
        }
        Stage::HorseBatteryRetreat => {
            format!("{side}: choose where {attacker} retreats (N19):")
        }
        Stage::Lose => format!(
            "{side}: {attacker} attacks your reserve {}. Choose the unit you lose \
             there (R17):",
            attack.target.display_in(notation)
        ),
        Stage::Advance => format!(
            "{side}: {} is empty: {attacker} may advance into it, or stay (R20):",
            attack.target.display_in(notation)
        ),
    };
    let mut out = head;
    out.push('\n');
    let mut legal = legal;
    legal.sort_by_key(|o| o.display_in(notation).to_string());
    for order in legal {
        let effect = v.effect(&order);
        let written = order.display_in(notation);
        match option_summary(game, &order) {
            // What the option does by the rules, then what it does here.
            Some(what) => {
                let effect = crate::games::text::capitalised(&effect);
                let _ = writeln!(out, "  {written}: {what}. {effect}.");
            }
            None => {
                let _ = writeln!(out, "  {written}: {effect}");
            }
        }
    }
    wrap_all(&out)
}

/// What an attacker's option does by the rules, in our words, from the
/// attacker's seat: the options of R19 (1-5), of the Grand Battery (N18)
/// and of the attacking Horse Battery (N19), as the engine's option table
/// plays them. Option 1 and GB1 with a supporting unit that gives the
/// defender a second chance (R19, N21) say so.
fn option_summary(game: &Squares, order: &Order) -> Option<&'static str> {
    let attack = game.attack?;
    let rules = |s: Space| game.unit_at(s).map(|u| game.variant().unit(u.kind()));
    let second_chance = attack
        .support
        .and_then(rules)
        .is_some_and(|r| r.second_chance_as_support);
    let advances = rules(attack.attacker).is_some_and(|r| r.advances);
    Some(match *order {
        Order::Option(1) if second_chance => {
            "your supporting artillery retreats first; the defender may then \
             retreat a second time and survive, else it is eliminated and your \
             attacking unit retreats"
        }
        Order::Option(1) => {
            "the defender is eliminated; your supporting unit retreats, then your \
             attacking unit"
        }
        Order::Option(2) if advances => {
            "the defender and your supporting unit are eliminated; your attacking \
             unit may advance"
        }
        Order::Option(2) => "the defender and your supporting unit are eliminated",
        Order::Option(3) => "the defender and your attacking unit are eliminated",
        Order::Option(4) => "only your attacking unit retreats; the defender stays",
        Order::Option(5) => "only your supporting unit retreats; the defender stays",
        Order::GrandBattery(1) if second_chance => {
            "your supporting artillery retreats first; the defender may then \
             retreat a second time and survive, else it is eliminated; your \
             attacking artillery stays"
        }
        Order::GrandBattery(1) => {
            "the defender is eliminated and your supporting unit retreats; your \
             attacking artillery stays"
        }
        Order::GrandBattery(2) => "the defender and your attacking artillery are eliminated",
        Order::GrandBattery(3) => "only your supporting unit retreats; the defender stays",
        Order::HorseBattery(1) => {
            "the defender, your supporting unit and your horse battery all retreat; \
             none is eliminated"
        }
        Order::HorseBattery(2) => {
            "the defender and your supporting unit are eliminated; your horse \
             battery retreats"
        }
        Order::HorseBattery(3) => "the defender and your horse battery are eliminated",
        Order::HorseBattery(4) => "only your horse battery retreats; the defender stays",
        Order::HorseBattery(5) => "only your supporting unit retreats; the defender stays",
        _ => return None,
    })
}

/// Words for units and events from one side's seat: "your infantry in
/// B1C", "the Gray cavalry in G2R".
struct View<'a> {
    game: &'a Squares,
    side: Side,
    /// The game's notation, which every word here is in.
    notation: &'a Notation,
}

impl View<'_> {
    fn unit(&self, square: Space) -> String {
        let n = self.notation;
        match board().terrain(square) {
            Terrain::Reserve(owner) if owner == self.side => {
                format!("your reserve {}", square.display_in(n))
            }
            Terrain::Reserve(owner) => format!(
                "the {} reserve {}",
                owner.display_in(n),
                square.display_in(n)
            ),
            _ => match self.game.unit_at(square) {
                Some(u) => self.named(u.side(), u.kind(), square),
                None => square.display_in(n).to_string(),
            },
        }
    }

    fn named(&self, side: Side, kind: UnitKind, square: Space) -> String {
        let n = self.notation;
        if side == self.side {
            format!("your {kind} in {}", square.display_in(n))
        } else {
            format!(
                "the {} {kind} in {}",
                side.display_in(n),
                square.display_in(n)
            )
        }
    }

    /// [`View::named`], calling the supporting unit so: the issue's own
    /// wording ("your supporting infantry in G1CR is eliminated").
    fn named_in_role(&self, side: Side, kind: UnitKind, square: Space) -> String {
        match self.game.attack {
            Some(a) if a.support == Some(square) => self.named(side, kind, square).replacen(
                &format!("{kind} in"),
                &format!("supporting {kind} in"),
                1,
            ),
            _ => self.named(side, kind, square),
        }
    }

    fn place(&self, square: Space) -> String {
        let n = self.notation;
        match board().terrain(square) {
            Terrain::Reserve(owner) if owner == self.side => {
                format!("your reserve {}", square.display_in(n))
            }
            Terrain::Reserve(owner) => format!(
                "the {} reserve {}",
                owner.display_in(n),
                square.display_in(n)
            ),
            _ => square.display_in(n).to_string(),
        }
    }

    /// What `order` does here: its consequences, played on a copy, up to
    /// the next decision, which is named.
    fn effect(&self, order: &Order) -> String {
        let mut after = self.game.clone();
        let mut events = Vec::new();
        after.apply_listed(*order, &mut events);
        let mut phrases: Vec<String> = Vec::new();
        let mut eliminated: Vec<String> = Vec::new();
        let flush = |eliminated: &mut Vec<String>, phrases: &mut Vec<String>| {
            match eliminated.len() {
                0 => {}
                1 => phrases.push(format!("{} is eliminated", eliminated[0])),
                _ => phrases.push(format!("{} are eliminated", join_and(eliminated))),
            }
            eliminated.clear();
        };
        for e in &events {
            if let Event::Eliminated { side, unit, square } = e {
                eliminated.push(self.named_in_role(*side, *unit, *square));
                continue;
            }
            flush(&mut eliminated, &mut phrases);
            match e {
                Event::Retreated {
                    side,
                    unit,
                    from,
                    to,
                } => {
                    // R21; N16: every type but cavalry rests in the variant.
                    let rests = *side == self.side && self.game.variant().unit(*unit).rests;
                    let rule = match self.game.variant() {
                        Variant::CivilWar => "R21",
                        Variant::Napoleonic => "N16",
                    };
                    phrases.push(format!(
                        "{} retreats to {}{}",
                        self.named_in_role(*side, *unit, *from),
                        self.place(*to),
                        if rests {
                            format!(" and rests on your next turn ({rule})")
                        } else {
                            String::new()
                        }
                    ));
                }
                Event::Stood { side, unit, square } => {
                    phrases.push(format!("{} stands", self.named(*side, *unit, *square)))
                }
                Event::Advanced {
                    side,
                    unit,
                    from,
                    to,
                } => phrases.push(format!(
                    "{} advances into {}",
                    self.named(*side, *unit, *from),
                    self.place(*to)
                )),
                Event::Stayed { side, square } => {
                    let who = match self.game.unit_at(*square) {
                        Some(u) => self.named(*side, u.kind(), *square),
                        None => square.display_in(self.notation).to_string(),
                    };
                    phrases.push(format!("{who} stays"));
                }
                Event::GameOver(outcome) => phrases.push(format!(
                    "the game ends: {}",
                    Event::GameOver(*outcome)
                        .display_in(self.notation)
                        .to_string()
                        .trim_start_matches("game over: ")
                )),
                _ => {}
            }
        }
        flush(&mut eliminated, &mut phrases);
        let before = [Side::Blue, Side::Gray].map(|s| self.game.points(s));
        let now = [Side::Blue, Side::Gray].map(|s| after.points(s));
        if before != now && after.outcome.is_none() {
            phrases.push(format!(
                "score then {} {} - {} {}",
                Side::Blue.display_in(self.notation),
                now[0],
                Side::Gray.display_in(self.notation),
                now[1]
            ));
        }
        if let Some(next) = self.next_decision(&after) {
            phrases.push(next);
        }
        if phrases.is_empty() {
            phrases.push("nothing more happens".to_string());
        }
        let mut text = phrases.join("; ");
        text.push('.');
        text
    }

    /// The decision the attack waits for after a choice, from this seat.
    fn next_decision(&self, after: &Squares) -> Option<String> {
        let attack = after.attack?;
        let decider = after.side_to_decide()?;
        let n = self.notation;
        let who = if decider == self.side {
            "you".to_string()
        } else {
            decider.display_in(n).to_string()
        };
        // "Blue may advance its infantry", not "the Blue infantry".
        let unit = |s: Space| match after.unit_at(s) {
            Some(u) if u.side() == decider && decider != self.side => {
                format!("its {} in {}", u.kind(), s.display_in(n))
            }
            Some(u) => self.named(u.side(), u.kind(), s),
            None => s.display_in(n).to_string(),
        };
        // "you pick" but "Gray picks".
        let verb = |v: &str| {
            if decider == self.side {
                v.to_string()
            } else {
                format!("{v}s")
            }
        };
        Some(match attack.stage {
            Stage::Response => format!("then {who} {} to retreat or stand", verb("decide")),
            Stage::Option => format!("then {who} {} an option", verb("choose")),
            Stage::SupportRetreat1 | Stage::SupportRetreat5 => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.support.unwrap_or(attack.attacker))
            ),
            Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.attacker)
            ),
            Stage::SecondChance | Stage::GrandSecondChance => format!(
                "then {who} may retreat {} a second time",
                unit(attack.target)
            ),
            Stage::GrandSupportRetreat | Stage::HorseSupportRetreat => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.support.unwrap_or(attack.attacker))
            ),
            Stage::HorseDefenderRetreat => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.target)
            ),
            Stage::HorseBatteryRetreat => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.attacker)
            ),
            Stage::Lose => format!("then {who} {} the unit lost from the reserve", verb("pick")),
            Stage::Advance => format!(
                "then {who} may advance {} into {}",
                unit(attack.attacker),
                self.place(attack.target)
            ),
        })
    }
}

/// "1 move", "3 moves".
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Wraps at 76 columns with a hanging indent of four, so a wrapped choice
/// stays visibly one choice.
fn wrap_all(text: &str) -> String {
    crate::games::text::wrap(text, |indent| indent + 4)
}

#[cfg(test)]
mod tests {
    use super::{wrap_all, WIDTH};

    #[test]
    fn wrapping_keeps_lines_within_76_columns_and_indents_continuations() {
        let long = format!("  OPTION 1: {}", "word ".repeat(40));
        let wrapped = wrap_all(&long);
        assert!(wrapped.lines().count() > 1);
        for line in wrapped.lines() {
            assert!(line.len() <= WIDTH, "{line:?}");
        }
        assert!(wrapped.lines().nth(1).unwrap().starts_with("      word"));
    }
}
