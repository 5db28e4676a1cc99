//! The Civil War Game 1863 scenario files (`tests/data/civilwar1863/`), replayed against the
//! engine: one test per file, named by its id.
//!
//! Each file draws its own small board, which this harness writes as a board file and reads
//! with `Board::parse`; it sets up the file's position through the position string, gives
//! each step to the engine as its order and compares every expectation the file states.
//! Where the engine and a file disagree and the rulings side with the engine, the file was
//! corrected (with a comment in it); where they side with the file, or the file's format
//! cannot be put onto the engine, the case is listed in `DISAGREEMENTS.md`, and each test
//! asserts that exactly the listed steps of its file disagree: an engine fix, or a new
//! disagreement, fails the test until the list follows.
//!
//! Mapping the format onto the engine:
//! - The engine's board file wants both capitals and start circles holding the whole box
//!   (the opening needs them; a scenario never does). The harness puts what a file lacks on
//!   two coast squares as far as possible from every square the file names, so no piece of
//!   the scenario can reach them.
//! - A sea body of the board file joins all its neighbouring squares, while a file lists
//!   its water joins one by one: every water square becomes a sea of its own and every
//!   join a river of two squares (the engine reads rivers and seas alike but for joins).
//! - The engine has no state for `aboard`: it follows from the square (P13), so `aboard`
//!   is not compared.
//! - A decision the engine takes by itself (one possible answer) shows as a `Forced`
//!   event: the step that caused it is checked on its events and on the decision the
//!   engine took (`pending`), and the forced step on the position as it stands after.
//! - A removal step names a set of pieces; the engine takes one piece an order. A refused
//!   set agrees when one of its orders is refused with a cited id, or when the whole set is
//!   taken but leaves the debt unpaid and the file cites P27 or P30.
//! - A refused step given while the engine has already taken, by itself, decisions the file
//!   gives later (one possible answer) has no moment to be given in: it is counted as
//!   moot, not as agreeing or disagreeing; the decisions taken are checked by the file's
//!   next steps.
//! - `moved` is compared for the side to move only: the engine marks a defender's
//!   survivors (P21) as moved until the turn ends, the files leave them unmarked, and no
//!   rule reads it for the side not moving (P10 is about one's own turn).
//! - Resignation is the service's, not the engine's: a `resign` step cannot be replayed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use orderly::games::civil_war_1863::core::board::Board;
use orderly::games::civil_war_1863::core::path::Path as OrderPath;
use orderly::games::civil_war_1863::text::reader::read_checked;
use orderly::games::civil_war_1863::{
    Cause, CivilWar1863, Counts, DecisionKind, EndReason, Event, Order, PieceKind, Side, Square,
};
use orderly::games::{CitesRule, Game, GameResult};
#[path = "../common/civilwar1863_format.rs"]
mod format;

// The file format's names beside the engine's own (Side, Board, Order...).
use format::{
    Citation, CityKind, Coin, EndReason as EndKind, Expect, Force, Giver, Kind, Order as OrderKind,
    Pending as PendingKind, Pieces, Scenario, Side as FileSide, Step,
};

// ---------------------------------------------------------------------------------------
// The file format (README.md), read as data.

impl FileSide {
    fn side(self) -> Side {
        match self {
            FileSide::Union => Side::Union,
            FileSide::Confederacy => Side::Confederacy,
        }
    }
}

impl Kind {
    fn piece(self) -> PieceKind {
        match self {
            Kind::Infantry => PieceKind::Infantry,
            Kind::Cavalry => PieceKind::Cavalry,
            Kind::Gunboat => PieceKind::Gunboat,
        }
    }
}

impl Pieces {
    fn counts(self) -> Counts {
        Counts::of(PieceKind::Infantry, self.infantry)
            .plus(Counts::of(PieceKind::Cavalry, self.cavalry))
            .plus(Counts::of(PieceKind::Gunboat, self.gunboat))
    }
}

impl Force {
    fn pieces(&self) -> Counts {
        Pieces {
            infantry: self.infantry,
            cavalry: self.cavalry,
            gunboat: self.gunboat,
        }
        .counts()
    }

    /// What the harness compares of a force: side, pieces, moved, disabled, fortified.
    fn view(&self) -> ForceView {
        ForceView {
            side: self.side.side(),
            pieces: self.pieces(),
            moved: self.moved.unwrap_or_default().counts(),
            disabled: self.disabled.unwrap_or_default().counts(),
            fortified: self.fortified,
        }
    }
}

impl Citation {
    fn ids(&self) -> Vec<&str> {
        match self {
            Citation::One(id) => vec![id.as_str()],
            Citation::AnyOf(ids) => ids.iter().map(String::as_str).collect(),
        }
    }
}

/// The parts of a force the files state and the engine holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ForceView {
    side: Side,
    pieces: Counts,
    moved: Counts,
    disabled: Counts,
    fortified: bool,
}

// ---------------------------------------------------------------------------------------
// The board and the position.

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("{name:?} is not a square"))
}

fn squares(names: &[String]) -> Vec<Square> {
    names.iter().map(|n| sq(n)).collect()
}

fn names(list: &[Square]) -> String {
    list.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rules text's named cities, their kind and owner (P4); a capital's garrison (P29).
fn named_city(name: &str) -> Option<(Side, Option<u8>)> {
    Some(match name {
        "St. Louis" | "Indianapolis" | "Pittsburg" | "Baltimore" => (Side::Union, None),
        "Chattanooga" | "Charleston" | "Atlanta" => (Side::Confederacy, None),
        "Washington" => (Side::Union, Some(4)),
        "Richmond" => (Side::Confederacy, Some(5)),
        _ => return None,
    })
}

/// Every square a scenario names anywhere.
fn named_squares(s: &Scenario) -> BTreeSet<Square> {
    let b = &s.board;
    let mut all: Vec<&String> = Vec::new();
    all.extend(&b.water_only);
    all.extend(&b.sea);
    all.extend(&b.river);
    all.extend(&b.mountain);
    all.extend(b.water_joins.iter().flatten());
    all.extend(b.passes.iter().flatten());
    all.extend(b.rail_lines.iter().flatten());
    all.extend(b.cities.iter().map(|c| &c.square));
    all.extend(s.start.squares.keys());
    for step in &s.steps {
        all.extend(&step.from);
        all.extend(step.path.iter().flatten());
        all.extend(&step.square);
        all.extend(step.removals.iter().flatten().map(|r| &r.square));
        all.extend(step.expect.squares.iter().flat_map(|m| m.keys()));
    }
    all.into_iter().map(|n| sq(n)).collect()
}

/// Two squares as far as possible from everything the scenario names (and from each
/// other), for what the board file needs and the scenario does not have.
fn far_squares(named: &BTreeSet<Square>) -> [Square; 2] {
    let distance = |a: Square, b: Square| {
        a.column()
            .abs_diff(b.column())
            .max(a.row().abs_diff(b.row()))
    };
    let far = |a: Square, taken: &[Square]| {
        named
            .iter()
            .chain(taken)
            .map(|&b| distance(a, b))
            .min()
            .unwrap_or(u8::MAX)
    };
    let first = Square::all().max_by_key(|&a| far(a, &[])).expect("a board");
    let second = Square::all()
        .filter(|&a| a != first)
        .max_by_key(|&a| far(a, &[first]))
        .expect("a board");
    [first, second]
}

/// The scenario's board as a board file.
fn board_text(s: &Scenario) -> String {
    let b = &s.board;
    let water_only: BTreeSet<Square> = squares(&b.water_only).into_iter().collect();
    let water: BTreeSet<Square> = squares(&b.sea)
        .into_iter()
        .chain(squares(&b.river))
        .chain(water_only.iter().copied())
        .collect();
    let mountain: BTreeSet<Square> = squares(&b.mountain).into_iter().collect();
    let [union_spot, south_spot] = far_squares(&named_squares(s));
    let mut out = String::from("[terrain]\n");
    for row in 0..18u8 {
        let _ = write!(out, "{}  ", row + 1);
        for col in 0..18u8 {
            let at = Square::at(col, row).expect("on the board");
            let letter = if water_only.contains(&at) {
                '~'
            } else if water.contains(&at) || at == union_spot || at == south_spot {
                if mountain.contains(&at) {
                    ';'
                } else {
                    ':'
                }
            } else if mountain.contains(&at) {
                '^'
            } else {
                '.'
            };
            out.push(letter);
        }
        out.push('\n');
    }
    out.push_str("[water]\n");
    for (i, at) in water.iter().chain([&union_spot, &south_spot]).enumerate() {
        let _ = writeln!(out, "sea W{i}: {at}");
    }
    let mut join = 0;
    for chain in &b.water_joins {
        for pair in squares(chain).windows(2) {
            join += 1;
            let _ = writeln!(out, "river J{join}: {}", names(pair));
        }
    }
    out.push_str("[passes]\n");
    for (i, pass) in b.passes.iter().enumerate() {
        let _ = writeln!(out, "P{i}: {}", names(&squares(pass)));
    }
    out.push_str("[railroads]\n");
    for (i, line) in b.rail_lines.iter().enumerate() {
        let _ = writeln!(out, "R{i}: {}", names(&squares(line)));
    }
    let mut cities: Vec<(Square, String)> = b
        .cities
        .iter()
        .map(|c| (sq(&c.square), c.name.clone()))
        .collect();
    for (spot, capital) in [(union_spot, "Washington"), (south_spot, "Richmond")] {
        if !cities.iter().any(|(_, n)| n == capital) {
            cities.push((spot, capital.to_string()));
        }
    }
    out.push_str("[cities]\n");
    for (at, name) in &cities {
        let _ = writeln!(out, "{at} {name}");
    }
    out.push_str("[key cities]\n");
    for (at, name) in &cities {
        if let Some((side, None)) = named_city(name) {
            let _ = writeln!(out, "{side}: {at}");
        }
    }
    out.push_str("[capitals]\n");
    for (at, name) in &cities {
        if let Some((side, Some(garrison))) = named_city(name) {
            let _ = writeln!(out, "{at} {side} {garrison}");
        }
    }
    out.push_str("[start circles]\n");
    for (spot, side) in [(union_spot, Side::Union), (south_spot, Side::Confederacy)] {
        for kind in PieceKind::ALL {
            let _ = writeln!(
                out,
                "{spot} {side} {} {kind}: the box, for the board file only",
                kind.in_box(side)
            );
        }
    }
    // The README ties a city's kind to its name (P4): a file saying otherwise is mistaken.
    for c in &b.cities {
        let expected = match named_city(&c.name) {
            Some((_, Some(_))) => CityKind::Capital,
            Some((_, None)) => CityKind::Key,
            None => CityKind::Town,
        };
        assert_eq!(c.kind, expected, "{}: the kind of {}", s.id, c.name);
    }
    out
}

fn seat_word(side: Side) -> &'static str {
    match side {
        Side::Union => "north",
        Side::Confederacy => "south",
    }
}

/// The scenario's start as a position string.
fn position_text(s: &Scenario) -> String {
    let mut text = format!("cw1863 1; {} to move", seat_word(s.start.turn.side()));
    for (side, letter) in [(FileSide::Union, "U"), (FileSide::Confederacy, "C")] {
        let stacks: Vec<String> = s
            .start
            .squares
            .iter()
            .filter(|(_, f)| f.side == side)
            .map(|(at, f)| {
                let mut stack = format!("{} {}", sq(at), f.pieces());
                if let Some(d) = f.disabled {
                    let _ = write!(stack, " d{}", d.counts());
                }
                if f.fortified {
                    stack.push_str(" F");
                }
                stack
            })
            .collect();
        let list = if stacks.is_empty() {
            "none".to_string()
        } else {
            stacks.join(" / ")
        };
        let _ = write!(text, "; {letter}: {list}");
    }
    if !s.start.flags.is_empty() {
        let flags: Vec<String> = s.start.flags.keys().map(|k| sq(k).to_string()).collect();
        let _ = write!(text, "; flags {}", flags.join(" "));
    }
    text
}

/// The side whose flag flies on a captured city: the other side than its owner (P28).
fn flag_side(board: &Board, at: Square) -> Option<Side> {
    board
        .key_city_side(at)
        .or_else(|| board.capital(at).map(|c| c.side))
        .map(Side::opponent)
}

// ---------------------------------------------------------------------------------------
// Replaying.

/// A step the engine and the file disagree on, with what differs.
struct Disagreement {
    step: usize,
    what: String,
}

/// A move or ride step whose path is longer than any order holds, written
/// as a player would write it.
fn too_long_for_an_order(step: &Step) -> Option<String> {
    let names = step.path.as_deref().unwrap_or_default();
    if OrderPath::new(&squares(names)).is_some() {
        return None;
    }
    let from = step.from.as_deref().unwrap_or_default();
    let pieces = step.pieces.unwrap_or_default().counts();
    let path = names.join("-");
    match step.order {
        OrderKind::Ride => Some(format!("RIDE {from} {pieces}-{path}")),
        OrderKind::Move => Some(format!("{from} {pieces}-{path}")),
        _ => None,
    }
}

/// The engine orders of a step, or why the step cannot be one.
fn orders_of(step: &Step, g: &CivilWar1863) -> Result<Vec<Order>, String> {
    let names = step.path.as_deref().unwrap_or_default();
    let path = OrderPath::new(&squares(names))
        .ok_or_else(|| format!("the path {names:?} is longer than an order holds"))?;
    let path = || path;
    let from = || sq(step.from.as_deref().unwrap_or_default());
    let pieces = || step.pieces.unwrap_or_default().counts();
    Ok(match step.order {
        OrderKind::Move => vec![Order::Move {
            from: from(),
            pieces: pieces(),
            path: path(),
        }],
        OrderKind::Ride => vec![Order::Ride {
            from: from(),
            pieces: pieces(),
            path: path(),
        }],
        OrderKind::Fortify => vec![Order::Fortify(sq(step
            .square
            .as_deref()
            .unwrap_or_default()))],
        OrderKind::Unfortify => vec![Order::Unfortify(sq(step
            .square
            .as_deref()
            .unwrap_or_default()))],
        OrderKind::EndTurn => vec![Order::EndTurn],
        OrderKind::Losses => {
            let take = step.k.unwrap_or_default();
            // Omitted: k takes the whole defending force.
            let enemy = match step.eliminate {
                Some(p) => p.counts(),
                None => g
                    .battle()
                    .and_then(|b| g.stack(b.at))
                    .map_or(Counts::NONE, |s| s.all()),
            };
            vec![Order::Losses {
                take,
                enemy,
                own: step.lose.unwrap_or_default().counts(),
            }]
        }
        OrderKind::Toss => vec![Order::Toss {
            heads: matches!(step.outcome, Some(Coin::Heads)),
        }],
        OrderKind::Keep => vec![Order::Keep(
            step.kind.expect("a keep names its kind").piece(),
        )],
        OrderKind::Retreat => vec![Order::Survivors {
            pieces: pieces(),
            path: path(),
        }],
        OrderKind::Remove => step
            .removals
            .iter()
            .flatten()
            .flat_map(|r| {
                (0..r.count).map(|_| Order::Remove {
                    square: sq(&r.square),
                    kind: r.kind.piece(),
                })
            })
            .collect(),
        OrderKind::Resign => {
            return Err("resignation is the service's: the engine has no such order".into())
        }
    })
}

/// Whether the engine's forced order is the step's: the same, or for losses whose
/// defending pieces the file leaves to k (README: omitted when k takes the whole force),
/// the same k and own losses.
fn same_decision(step: &Step, order: &Order, forced: &Option<Order>) -> bool {
    let Some(forced) = forced else {
        return matches!(order, Order::Remove { .. });
    };
    match (order, forced) {
        (
            Order::Losses { take, own, .. },
            Order::Losses {
                take: t, own: o, ..
            },
        ) if step.eliminate.is_none() => take == t && own == o,
        _ => order == forced,
    }
}

/// The decision the engine awaits, in the files' terms, and who owes it.
fn engine_pending(g: &CivilWar1863) -> (PendingKind, Option<Giver>) {
    if g.outcome().is_some() {
        return (PendingKind::None, None);
    }
    if g.chance().is_some() {
        return (PendingKind::Toss, Some(Giver::Service));
    }
    match g.pending() {
        None => (PendingKind::None, None),
        Some(p) => {
            let giver = match Side::from(p.seat) {
                Side::Union => Giver::Union,
                Side::Confederacy => Giver::Confederacy,
            };
            (decision_kind(p.kind), Some(giver))
        }
    }
}

fn decision_kind(kind: DecisionKind) -> PendingKind {
    match kind {
        DecisionKind::Turn { .. } => PendingKind::None,
        DecisionKind::Losses => PendingKind::Losses,
        DecisionKind::Survivors => PendingKind::Retreat,
        DecisionKind::Keep { .. } => PendingKind::Keep,
        DecisionKind::Remove { .. } => PendingKind::Removals,
    }
}

fn order_pending(order: &Order) -> PendingKind {
    match order {
        Order::Losses { .. } => PendingKind::Losses,
        Order::Survivors { .. } => PendingKind::Retreat,
        Order::Keep(_) => PendingKind::Keep,
        Order::Remove { .. } => PendingKind::Removals,
        Order::Toss { .. } => PendingKind::Toss,
        _ => PendingKind::None,
    }
}

fn giver_of(side: Side) -> Giver {
    match side {
        Side::Union => Giver::Union,
        Side::Confederacy => Giver::Confederacy,
    }
}

/// A decision the engine took by itself: its order, or `None` for removals it settled
/// without a choice (P27: an owner with no more pieces than he owes removes them all).
type Taken = (Side, Option<Order>, Vec<Event>);

/// The events of one apply, cut at each decision the engine took by itself: the first
/// part is the order's own, each later part follows a decision taken.
fn split_forced(order: &Order, events: Vec<Event>) -> (Vec<Event>, Vec<Taken>) {
    let mut own = Vec::new();
    let mut forced: Vec<Taken> = Vec::new();
    // A removal order owns the one piece it removes.
    let mut own_removal = matches!(order, Order::Remove { .. });
    for e in events {
        if own_removal && forced.is_empty() && matches!(e, Event::Eliminated { .. }) {
            own_removal = false;
            own.push(e);
            continue;
        }
        match e {
            Event::Forced { side, order } => forced.push((side, Some(order), Vec::new())),
            Event::Eliminated {
                side,
                cause: Cause::Removal,
                ..
            } if !removal_owned(forced.last()) => forced.push((side, None, vec![e])),
            e => match forced.last_mut() {
                Some((_, _, part)) => part.push(e),
                None => own.push(e),
            },
        }
    }
    (own, forced)
}

/// Whether a removal belongs to the decision last taken: a settlement goes on, a forced
/// removal owns its one piece.
fn removal_owned(last: Option<&Taken>) -> bool {
    match last {
        Some((_, None, _)) => true,
        Some((_, Some(Order::Remove { .. }), part)) => {
            !part.iter().any(|e| matches!(e, Event::Eliminated { .. }))
        }
        _ => false,
    }
}

fn taken_text(taken: &Taken) -> String {
    match &taken.1 {
        Some(o) => o.to_string(),
        None => format!("{}'s removals", taken.0),
    }
}

fn taken_pending(taken: &Option<Order>) -> PendingKind {
    taken.as_ref().map_or(PendingKind::Removals, order_pending)
}

/// Compares what a step's expectations say about the events of the step.
fn check_events(expect: &Expect, events: &[Event], diffs: &mut Vec<String>) {
    if let Some(want) = &expect.battle {
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
            format!("{:?}", want.kind).to_lowercase(),
            want.attack,
            want.defence,
        );
        if got.as_ref() != Some(&want) {
            diffs.push(format!("battle: expected {want:?}, engine {got:?}"));
        }
    }
    if let Some(want) = &expect.eliminated {
        let mut got: BTreeMap<Side, Counts> = BTreeMap::new();
        for e in events {
            if let Event::Eliminated { side, pieces, .. } = e {
                let c = got.entry(*side).or_insert(Counts::NONE);
                *c = c.plus(*pieces);
            }
        }
        let want: BTreeMap<Side, Counts> = want
            .iter()
            .map(|(s, p)| (s.side(), p.counts()))
            .filter(|(_, c)| !c.is_empty())
            .collect();
        if got != want {
            diffs.push(format!("eliminated: expected {want:?}, engine {got:?}"));
        }
    }
    if let Some(want) = &expect.captured {
        let got: Vec<Square> = events
            .iter()
            .filter_map(|e| match e {
                Event::Captured { at, .. } => Some(*at),
                _ => None,
            })
            .collect();
        if got != vec![sq(want)] {
            diffs.push(format!("captured: expected {want}, engine {got:?}"));
        }
    }
}

/// Compares what a step's expectations say about the position after it.
fn check_position(expect: &Expect, g: &CivilWar1863, diffs: &mut Vec<String>) {
    let (pending, owner) = engine_pending(g);
    if let Some(want) = expect.pending {
        if want != pending {
            diffs.push(format!("pending: expected {want:?}, engine {pending:?}"));
        }
    }
    if let Some(want) = expect.pending_side {
        if Some(want) != owner {
            diffs.push(format!("pending_side: expected {want:?}, engine {owner:?}"));
        }
    }
    if let Some(want) = expect.turn {
        if want.side() != g.to_move() {
            diffs.push(format!("turn: expected {want:?}, engine {:?}", g.to_move()));
        }
    }
    if let Some(want) = &expect.squares {
        // `moved` means something only for the side to move (P10): a defender's survivors
        // (P21) are marked by the engine and the files alike leave them unmarked.
        let mover = g.to_move();
        let unmark = |mut v: ForceView| {
            if v.side != mover {
                v.moved = Counts::NONE;
            }
            v
        };
        let want: BTreeMap<Square, ForceView> = want
            .iter()
            .map(|(k, f)| (sq(k), unmark(f.view())))
            .collect();
        let got: BTreeMap<Square, ForceView> = g
            .stacks()
            .map(|(at, s)| {
                (
                    at,
                    ForceView {
                        side: s.side,
                        pieces: s.all(),
                        moved: s.moved,
                        disabled: s.disabled,
                        fortified: s.fort.has_marker(),
                    },
                )
            })
            .map(|(at, v)| (at, unmark(v)))
            .collect();
        for at in want.keys().chain(got.keys()).collect::<BTreeSet<_>>() {
            if want.get(at) != got.get(at) {
                diffs.push(format!(
                    "square {at}: expected {:?}, engine {:?}",
                    want.get(at),
                    got.get(at)
                ));
            }
        }
    }
    if let Some(want) = &expect.flags {
        let want: BTreeMap<Square, Side> = want.iter().map(|(k, s)| (sq(k), s.side())).collect();
        let got: BTreeMap<Square, Side> = g
            .flags()
            .iter()
            .map(|&at| (at, flag_side(g.board(), at).expect("a flag is on a city")))
            .collect();
        if want != got {
            diffs.push(format!("flags: expected {want:?}, engine {got:?}"));
        }
    }
    if let Some(want) = &expect.markers {
        let got = (g.disabled_markers_left(), g.fort_markers_left());
        if got != (want.disabled, want.fortification) {
            diffs.push(format!(
                "box: expected d{} f{}, engine d{} f{}",
                want.disabled, want.fortification, got.0, got.1
            ));
        }
    }
    if let Some(want) = &expect.cut {
        let want: BTreeSet<(Side, BTreeSet<Square>)> = want
            .iter()
            .map(|c| (c.against.side(), squares(&c.section).into_iter().collect()))
            .collect();
        let mut got = BTreeSet::new();
        for (i, section) in g.board().sections().iter().enumerate() {
            for side in Side::BOTH {
                if g.section_cut_against(side, i) {
                    got.insert((side, section.squares.iter().copied().collect()));
                }
            }
        }
        if want != got {
            diffs.push(format!("cut: expected {want:?}, engine {got:?}"));
        }
    }
    if let Some(want) = &expect.end {
        let got = g.outcome().map(|o| match (o.result, o.reason) {
            (GameResult::Win(seat), EndReason::AllEliminated) => {
                (EndKind::Elimination, Some(Side::from(seat)))
            }
            (GameResult::Win(seat), EndReason::Stalemate) => {
                (EndKind::Stalemate, Some(Side::from(seat)))
            }
            (GameResult::Draw, _) => (EndKind::Stalemate, None),
        });
        let want = (want.reason, want.winner.map(FileSide::side));
        if got != Some(want) {
            diffs.push(format!("end: expected {want:?}, engine {got:?}"));
        }
    }
}

/// A removal step is a set of pieces, the engine's removals one piece an order: the set is
/// refused when one of its orders is, or when it leaves the debt unpaid (P27, P30).
/// Returns what differs, if anything.
fn refused_removals(g: &CivilWar1863, orders: &[Order], citation: &Citation) -> Option<String> {
    let mut trial = g.clone();
    let remover = g.removals().first().map(|r| r.side);
    for order in orders {
        if let Err(r) = trial.apply(order) {
            return (!citation.ids().contains(&r.rule().0)).then(|| {
                format!(
                    "{order}: expected refused citing {:?}, engine refuses citing {} ({r})",
                    citation.ids(),
                    r.rule()
                )
            });
        }
    }
    let short = remover.is_some() && trial.removals().first().map(|r| r.side) == remover;
    let about_debt = citation.ids().iter().any(|id| ["P27", "P30"].contains(id));
    (!(short && about_debt)).then(|| {
        format!(
            "the removals {orders:?}: expected refused citing {:?}, engine accepts them all",
            citation.ids()
        )
    })
}

/// The outcome of replaying one file.
struct Replay {
    steps: usize,
    disagreements: Vec<Disagreement>,
    /// Steps not replayed after a disagreement that left the engine elsewhere.
    skipped: usize,
    /// Refusals of a decision the engine took by itself (README: one possible answer).
    moot: usize,
}

fn replay(s: &Scenario) -> Replay {
    let text = board_text(s);
    let board: &'static Board = Box::leak(Box::new(
        Board::parse(&text).unwrap_or_else(|e| panic!("{}: board: {e}\n{text}", s.id)),
    ));
    let position = position_text(s);
    let mut g = CivilWar1863::read(board, &position)
        .unwrap_or_else(|e| panic!("{}: position {position}: {e}", s.id));
    for (at, side) in &s.start.flags {
        assert_eq!(
            flag_side(board, sq(at)),
            Some(side.side()),
            "{}: the flag on {at}",
            s.id
        );
    }
    let mut out = Replay {
        steps: s.steps.len(),
        disagreements: Vec::new(),
        skipped: 0,
        moot: 0,
    };
    if let Some(want) = &s.board.sections {
        let want: BTreeSet<BTreeSet<Square>> = want
            .iter()
            .map(|sec| squares(sec).into_iter().collect())
            .collect();
        let got: BTreeSet<BTreeSet<Square>> = board
            .sections()
            .iter()
            .map(|sec| sec.squares.iter().copied().collect())
            .collect();
        if want != got {
            out.disagreements.push(Disagreement {
                step: 0,
                what: format!("sections: expected {want:?}, engine {got:?}"),
            });
        }
    }
    // Decisions the engine took by itself and the file has yet to reach.
    let mut forced: Vec<Taken> = Vec::new();
    for (i, step) in s.steps.iter().enumerate() {
        let number = i + 1;
        let disagree = |what: String| Disagreement { step: number, what };
        if let Some(line) = too_long_for_an_order(step) {
            // No order holds a path this long: a player can only write it, so the mail
            // reader answers it, and must cite the rule the file expects.
            let answer = read_checked(&g, &line);
            let cited = answer.as_ref().err().and_then(|r| r.rule);
            let expected = step.expect.refused.as_ref().map(Citation::ids);
            if !forced.is_empty()
                || !expected
                    .as_ref()
                    .is_some_and(|ids| cited.is_some_and(|c| ids.contains(&c.0)))
            {
                out.disagreements.push(disagree(format!(
                    "{line}: expected refused citing {expected:?}, the reader answers {answer:?}"
                )));
            }
            continue;
        }
        let orders = match orders_of(step, &g) {
            Ok(o) => o,
            Err(why) => {
                out.disagreements.push(disagree(why));
                out.skipped = s.steps.len() - number;
                break;
            }
        };
        if let Some(citation) = &step.expect.refused {
            if !forced.is_empty() {
                // The engine took decisions by itself that the file gives later: there
                // was no moment at which this order could be given, and the only answers
                // it allowed are checked by the file's next steps.
                out.moot += 1;
                continue;
            }
            if step.order == OrderKind::Remove {
                if let Some(what) = refused_removals(&g, &orders, citation) {
                    out.disagreements.push(disagree(what));
                }
                continue;
            }
            let before = g.clone();
            let result = g.apply(&orders[0]);
            match result {
                Err(r) if citation.ids().contains(&r.rule().0) => {
                    assert_eq!(g, before, "{}: a refusal changes nothing", s.id);
                    continue;
                }
                Err(r) => out.disagreements.push(disagree(format!(
                    "{}: expected refused citing {:?}, engine refuses citing {} ({r})",
                    orders[0],
                    citation.ids(),
                    r.rule()
                ))),
                Ok(events) => out.disagreements.push(disagree(format!(
                    "{}: expected refused citing {:?}, engine accepts: {}",
                    orders[0],
                    citation.ids(),
                    events
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                ))),
            }
            // The file goes on from the position before the order.
            g = before;
            continue;
        }
        let mut diffs = Vec::new();
        let mut events = Vec::new();
        let mut refused = None;
        for order in &orders {
            if let Some(pos) = forced
                .iter()
                .position(|(_, o, _)| same_decision(step, order, o))
            {
                // The engine took this decision by itself (README: one possible answer).
                if pos != 0 {
                    diffs.push(format!(
                        "the engine forced {} out of the file's order",
                        order
                    ));
                }
                let (_, taken, part) = forced.remove(pos);
                events.extend(part);
                if taken.is_none() {
                    // A settlement covers all the step's removals.
                    break;
                }
                continue;
            }
            if !forced.is_empty() {
                let list: Vec<String> = forced.iter().map(taken_text).collect();
                diffs.push(format!(
                    "the engine took decisions the file does not give: {list:?}"
                ));
                forced.clear();
            }
            let (_, owner) = engine_pending(&g);
            if owner.is_some() && owner != Some(step.side) {
                diffs.push(format!(
                    "{order} given by {:?}, the engine awaits {:?}",
                    step.side, owner
                ));
            }
            match g.apply(order) {
                Ok(all) => {
                    let (own, more) = split_forced(order, all);
                    events.extend(own);
                    forced.extend(more);
                }
                Err(r) => {
                    refused = Some(format!("{order}: engine refuses citing {} ({r})", r.rule()));
                    break;
                }
            }
        }
        if let Some(why) = refused {
            out.disagreements.push(disagree(why));
            out.skipped = s.steps.len() - number;
            break;
        }
        check_events(&step.expect, &events, &mut diffs);
        let awaited_forced = forced
            .first()
            .map(|(side, o, _)| (taken_pending(o), giver_of(*side)));
        match awaited_forced {
            // The position the file describes lies between this order and the decision
            // the engine took: only the decision awaited there can be compared.
            Some((pending, owner)) => {
                if let Some(want) = step.expect.pending {
                    if want != pending {
                        diffs.push(format!(
                            "pending: expected {want:?}, engine took {pending:?}"
                        ));
                    }
                }
                if let Some(want) = step.expect.pending_side {
                    if want != owner {
                        diffs.push(format!(
                            "pending_side: expected {want:?}, engine took {owner:?}'s"
                        ));
                    }
                }
            }
            None => check_position(&step.expect, &g, &mut diffs),
        }
        if !diffs.is_empty() {
            let seen: Vec<String> = events.iter().map(|e| e.to_string()).collect();
            diffs.push(format!("events: {}", seen.join("; ")));
            out.disagreements.push(disagree(diffs.join("\n    ")));
            out.skipped = s.steps.len() - number;
            break;
        }
    }
    if out.skipped == 0 && !forced.is_empty() {
        let list: Vec<String> = forced.iter().map(taken_text).collect();
        out.disagreements.push(Disagreement {
            step: s.steps.len(),
            what: format!("the engine took decisions the file does not give: {list:?}"),
        });
    }
    out
}

// ---------------------------------------------------------------------------------------
// The listed disagreements and the tests.

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/civilwar1863")
}

/// The steps `DISAGREEMENTS.md` lists for a file: its headings `## P17a step 3`.
fn listed(stem: &str) -> BTreeSet<usize> {
    let text = fs::read_to_string(data_dir().join("DISAGREEMENTS.md")).expect("DISAGREEMENTS.md");
    text.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let id = words.next()?;
            (id == stem && words.next() == Some("step")).then(|| words.next()?.parse().ok())?
        })
        .collect()
}

fn run(path: &str) {
    let file = data_dir().join(path);
    let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let scenario: Scenario = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let stem = file.file_stem().and_then(|s| s.to_str()).expect("a name");
    let result = replay(&scenario);
    let got: BTreeSet<usize> = result.disagreements.iter().map(|d| d.step).collect();
    let listed = listed(stem);
    eprintln!(
        "SUMMARY {stem} steps {} disagree {} skipped {} moot {}",
        result.steps,
        got.len(),
        result.skipped,
        result.moot
    );
    if got != listed {
        let detail: Vec<String> = result
            .disagreements
            .iter()
            .map(|d| format!("  step {}: {}", d.step, d.what))
            .collect();
        panic!(
            "{path}: the engine disagrees at steps {got:?}, DISAGREEMENTS.md lists {listed:?}\n{}",
            detail.join("\n")
        );
    }
}

macro_rules! scenarios {
    ($($name:ident => $path:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run($path);
            }
        )*

        /// Every file under rulings/ and examples/ has its test here.
        #[test]
        fn every_file_is_replayed() {
            let listed: BTreeSet<&str> = [$($path),*].into_iter().collect();
            let mut found = BTreeSet::new();
            for dir in ["rulings", "examples"] {
                for entry in fs::read_dir(data_dir().join(dir)).expect(dir) {
                    let name = entry.expect("an entry").file_name();
                    found.insert(format!("{dir}/{}", name.to_string_lossy()));
                }
            }
            let found: BTreeSet<&str> = found.iter().map(String::as_str).collect();
            assert_eq!(found, listed);
        }

        /// Every case `DISAGREEMENTS.md` lists names a file and one of its steps.
        #[test]
        fn every_listed_case_is_a_step() {
            let text = fs::read_to_string(data_dir().join("DISAGREEMENTS.md"))
                .expect("DISAGREEMENTS.md");
            let heads: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("## ")).collect();
            for head in heads {
                let words: Vec<&str> = head.split_whitespace().collect();
                let [stem, "step", number] = words[..] else {
                    panic!("{head:?}: a case is written ## P21a step 3");
                };
                let path = [$($path),*]
                    .into_iter()
                    .find(|p| p.ends_with(&format!("/{stem}.toml")))
                    .unwrap_or_else(|| panic!("{head:?}: no such file"));
                let text = fs::read_to_string(data_dir().join(path)).expect(path);
                let scenario: Scenario = toml::from_str(&text).expect(path);
                let number: usize = number.parse().expect("a step number");
                assert!(
                    (1..=scenario.steps.len()).contains(&number),
                    "{head:?}: {path} has {} steps",
                    scenario.steps.len()
                );
            }
        }
    };
}

scenarios! {
    p01 => "rulings/P01.toml",
    p02 => "rulings/P02.toml",
    p03 => "rulings/P03.toml",
    p04 => "rulings/P04.toml",
    p05 => "rulings/P05.toml",
    p05b => "rulings/P05b.toml",
    p06 => "rulings/P06.toml",
    p07 => "rulings/P07.toml",
    p08a => "rulings/P08a.toml",
    p08b => "rulings/P08b.toml",
    p09 => "rulings/P09.toml",
    p09b => "rulings/P09b.toml",
    p10 => "rulings/P10.toml",
    p11 => "rulings/P11.toml",
    p12a => "rulings/P12a.toml",
    p12b => "rulings/P12b.toml",
    p13a => "rulings/P13a.toml",
    p13b => "rulings/P13b.toml",
    p14a => "rulings/P14a.toml",
    p14b => "rulings/P14b.toml",
    p14c => "rulings/P14c.toml",
    p15 => "rulings/P15.toml",
    p15b => "rulings/P15b.toml",
    p16 => "rulings/P16.toml",
    p17a => "rulings/P17a.toml",
    p17b => "rulings/P17b.toml",
    p18a => "rulings/P18a.toml",
    p18b => "rulings/P18b.toml",
    p19 => "rulings/P19.toml",
    p20 => "rulings/P20.toml",
    p21a => "rulings/P21a.toml",
    p21b => "rulings/P21b.toml",
    p22a => "rulings/P22a.toml",
    p22b => "rulings/P22b.toml",
    p23 => "rulings/P23.toml",
    p24a => "rulings/P24a.toml",
    p24b => "rulings/P24b.toml",
    p25 => "rulings/P25.toml",
    p26 => "rulings/P26.toml",
    p27a => "rulings/P27a.toml",
    p27b => "rulings/P27b.toml",
    p27c => "rulings/P27c.toml",
    p27d => "rulings/P27d.toml",
    p28 => "rulings/P28.toml",
    p29 => "rulings/P29.toml",
    p30 => "rulings/P30.toml",
    p31a => "rulings/P31a.toml",
    p31b => "rulings/P31b.toml",
    p32 => "rulings/P32.toml",
    p33 => "rulings/P33.toml",
    p34 => "rulings/P34.toml",
    p35a => "rulings/P35a.toml",
    p35b => "rulings/P35b.toml",
    p36 => "rulings/P36.toml",
    e01a => "examples/E01a.toml",
    e01b => "examples/E01b.toml",
    e01c => "examples/E01c.toml",
    e02a => "examples/E02a.toml",
    e02b => "examples/E02b.toml",
    e02c => "examples/E02c.toml",
    e02d => "examples/E02d.toml",
    e03a => "examples/E03a.toml",
    e03b => "examples/E03b.toml",
    e03c => "examples/E03c.toml",
    e03d => "examples/E03d.toml",
    e04a => "examples/E04a.toml",
    e04b => "examples/E04b.toml",
    e05a => "examples/E05a.toml",
    e05b => "examples/E05b.toml",
    e05c => "examples/E05c.toml",
    e05d => "examples/E05d.toml",
    e06a => "examples/E06a.toml",
    e06b => "examples/E06b.toml",
    e06c => "examples/E06c.toml",
    e06d => "examples/E06d.toml",
    e07a => "examples/E07a.toml",
    e07b => "examples/E07b.toml",
    e07c => "examples/E07c.toml",
    e08 => "examples/E08.toml",
    e09a => "examples/E09a.toml",
    e09b => "examples/E09b.toml",
    e09c => "examples/E09c.toml",
    e10a => "examples/E10a.toml",
    e10b => "examples/E10b.toml",
    e10c => "examples/E10c.toml",
    e10d => "examples/E10d.toml",
    e10e => "examples/E10e.toml",
}
