//! Property tests of the SQUARES engine over random legal play from the
//! opening and over positions generated directly as position strings, for
//! both games it plays: the Civil War game and the Napoleonic variant. Each
//! property runs once per game; the variant's carry a `napoleonic_` prefix.
//!
//! What holds everywhere (see `check_state`, `check_listed`, `check_unlisted`):
//! - every listed order applies through the checked `Game::apply` exactly as
//!   through `apply_listed` (same events, same state), and in the variant
//!   through its own `Game` (`Napoleonic`) alike, whatever notation the
//!   caller's thread is in;
//! - a plausible order that is not listed (after normalising cavalry paths
//!   and part order the way the notation allows) is refused with a rule
//!   (R1..R28; in the variant also N1..N38) and leaves the state unchanged;
//! - 16 units per side (9 infantry, 3 artillery, 4 cavalry; in the variant
//!   N2's 6 INF, 1 GUA, 2 LI, 2 ART, 1 HB, 3 CAV, 1 HC) are on the board, in
//!   a reserve or eliminated; points are R26's (N22's) value of the
//!   eliminations;
//! - position strings round-trip, a game's `Game::from_position` refuses
//!   the other game's strings, and a position read back from its string
//!   behaves like the original (same legal orders, same results);
//! - listed orders print and parse back, have no duplicates (also none that
//!   denote the same move), and exist exactly while the game is not over;
//! - a decision with a single legal order is never left pending;
//! - a finished game lists nothing and refuses everything with R27;
//! - the listed single moves, attacks and two-unit moves are exactly those
//!   of an independent reading of R5-R16 and S2/S3 (in the variant N3-N10,
//!   N18, N25, N37); what an attack does when declared (R17, R18, N10, N11,
//!   N14, N15) follows that reading; the one-square retreats listed are
//!   exactly the reading's and every listed retreat is legal (R21-R24, N6,
//!   N13, N15, N26); STAND/OPTION/LOSE/ADVANCE are offered as R17-R20 say
//!   (in the variant N12, N17-N20, N29, N31, N33);
//! - turn order and numbering (R1, R3-R5, S1) and the R6/R7/R21 bookkeeping
//!   of runs and rest follow each action (N16: only CAV never rests); the
//!   heavy cavalry never enters a forest (N6).
//!
//! The model in this file is written from squares-rulings.md,
//! napoleonic-rulings.md and docs/napoleonic-design.md, not from the engine.
//!
//! `PROPTEST_CASES=n` runs every property with `n` cases instead of its default.

#[path = "../common/mod.rs"]
mod common;

use std::collections::HashSet;

use common::rng::XorShift;
use common::squares::*;
use orderly::games::squares::notation::{Notation, NAPOLEONIC};
use orderly::games::squares::{
    board, Chain, Event, Half, NapOrder, Napoleonic, Order, Refusal, Side, Space, SpaceSet,
    Squares, Stage, Step, UnitId, UnitKind as K, Variant,
};
use orderly::games::squares::{DecisionKind, EndReason};
use orderly::games::{CitesRule, Game, GameResult, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

type Checked = Result<(), TestCaseError>;

/// The notation `game` is written in: orders, squares and refusals print
/// and read as that game writes them.
fn notation_of(game: &Squares) -> &'static Notation {
    game.variant().notation()
}

fn is_napoleonic(game: &Squares) -> bool {
    game.variant() == Variant::Napoleonic
}

/// A rule id the game's rulings define: R1..R28, and in the variant also
/// N1..N38 (napoleonic-rulings.md and the readings of the design).
fn is_rule_id(id: &str, variant: Variant) -> bool {
    let numbered = |prefix: char, last: u32| match id.strip_prefix(prefix) {
        Some(n) if !n.starts_with('0') => n.parse::<u32>().is_ok_and(|n| (1..=last).contains(&n)),
        _ => false,
    };
    numbered('R', 28) || (variant == Variant::Napoleonic && numbered('N', 38))
}

fn listing(legal: &[Order], n: &Notation) -> String {
    legal
        .iter()
        .map(|o| o.display_in(n).to_string())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The six fields of a position string after the variant's header.
fn fields(pos: &str) -> Vec<&str> {
    let mut f: Vec<&str> = pos.split(' ').collect();
    if f.first() == Some(&"napoleonic") {
        f.remove(0);
    }
    f
}

// The unit families of the variant's text ("LI/Infantry/Guard",
// "Artillery/Horse Battery", "Cavalry/Heavy Cavalry"); the Civil War's
// three types are one family each.

fn is_foot(k: K) -> bool {
    matches!(k, K::Infantry | K::Guard | K::Light)
}

fn is_guns(k: K) -> bool {
    matches!(k, K::Artillery | K::HorseBattery)
}

fn is_horse(k: K) -> bool {
    matches!(k, K::Cavalry | K::HeavyCavalry)
}

// ----- per-position checks ---------------------------------------------------

/// Everything that must hold of one position, whatever its origin.
fn check_state(game: &Squares) -> Checked {
    let spec = spec(game.variant());
    let pos = game.to_string();
    prop_assert_eq!(game.position(), pos.clone());
    prop_assert_eq!(
        pos.starts_with("napoleonic "),
        is_napoleonic(game),
        "header of {}",
        pos
    );

    // Position string -> state -> string.
    let back: Squares = pos
        .parse()
        .map_err(|e| fail(format!("{pos}: the engine refuses its own string: {e}")))?;
    prop_assert_eq!(back.to_string(), pos.clone(), "round trip");
    prop_assert_eq!(back.variant(), game.variant());
    check_game_entry(game, &pos)?;

    // Conservation, read independently from the string.
    let counts = count_units_in(spec, &pos).map_err(fail)?;
    army_complete_in(spec, &counts).map_err(|e| fail(format!("{pos}: {e}")))?;
    for side in Side::BOTH {
        for &kind in spec.kinds {
            prop_assert_eq!(
                game.lost(side, kind),
                counts.eliminated[side.index()][spec.slot(kind)],
                "lost() vs string in {}",
                pos
            );
        }
    }
    // ... and through the API.
    let b = board();
    for side in Side::BOTH {
        let s = side.index();
        let mut on_board = [0u32; MAX_KINDS];
        let mut in_reserve = [[0u32; MAX_KINDS]; 2];
        let mut eliminated = [0u32; MAX_KINDS];
        let mut units = 0;
        for u in game.units_of(side) {
            units += 1;
            prop_assert!(spec.has(u.kind()), "{:?} in the army of {}", u.kind(), pos);
            let k = spec.slot(u.kind());
            prop_assert_eq!(u.side(), side);
            match game.location(u) {
                None => eliminated[k] += 1,
                Some(sq) => match b.reserve_owner(sq) {
                    Some(owner) => in_reserve[owner.index()][k] += 1,
                    None => {
                        prop_assert_eq!(game.unit_at(sq), Some(u), "{} in {}", sq, pos);
                        prop_assert!(game.occupied_by(side).contains(sq));
                        on_board[k] += 1;
                    }
                },
            }
        }
        prop_assert_eq!(units, 16, "army size in {}", pos);
        prop_assert_eq!(
            on_board,
            counts.board[s],
            "board units of {:?} in {}",
            side,
            pos
        );
        prop_assert_eq!(
            game.occupied_by(side).len() as u32,
            on_board.iter().sum::<u32>()
        );
        prop_assert_eq!(eliminated, counts.eliminated[s]);
        for (r, units) in in_reserve.iter().enumerate() {
            prop_assert_eq!(*units, counts.reserve[r][s], "reserve {} in {}", r, pos);
        }
        prop_assert_eq!(
            game.reserve_count(side) as u32,
            in_reserve[s].iter().sum::<u32>()
        );
        // R26 (N22), computed from the string's eliminated field.
        prop_assert_eq!(
            game.points(side),
            points_in(spec, &counts.eliminated, s),
            "points of {:?} in {}",
            side,
            pos
        );
    }
    prop_assert!(
        (game.occupied_by(Side::Blue).0 & game.occupied_by(Side::Gray).0) == 0,
        "a square held by both sides in {}",
        pos
    );

    check_outcome(game, &pos, &counts)?;
    check_legal(game, &pos)?;

    // The string holds the whole game: the state read back decides alike.
    prop_assert_eq!(
        back.outcome(),
        game.outcome(),
        "outcome after reading {}",
        pos
    );
    prop_assert_eq!(
        back.pending(),
        game.pending(),
        "pending after reading {}",
        pos
    );
    prop_assert_eq!(
        back.legal_orders(),
        game.legal_orders(),
        "legal orders after reading {}",
        pos
    );
    Ok(())
}

/// Each game's own `Game::from_position` reads its strings and refuses the
/// other game's (N1); the variant's `Game` decides as the engine under it.
fn check_game_entry(game: &Squares, pos: &str) -> Checked {
    match game.variant() {
        Variant::CivilWar => {
            let read = <Squares as Game>::from_position(pos).map_err(|e| fail(e.message))?;
            prop_assert_eq!(read.to_string(), pos);
            prop_assert!(
                Napoleonic::from_position(pos).is_err(),
                "the variant reads a Civil War string: {}",
                pos
            );
        }
        Variant::Napoleonic => {
            prop_assert!(
                <Squares as Game>::from_position(pos).is_err(),
                "the Civil War game reads a variant string: {}",
                pos
            );
            let read = Napoleonic::from_position(pos).map_err(|e| fail(e.message))?;
            prop_assert_eq!(read.position(), pos);
            prop_assert_eq!(read.squares().to_string(), pos);
            prop_assert_eq!(read.pending(), game.pending(), "{}", pos);
            prop_assert_eq!(read.outcome(), game.outcome(), "{}", pos);
            prop_assert_eq!(read.turn_number(), game.turn());
            let wrapped: Vec<Order> = read.legal_orders().into_iter().map(|o| o.0).collect();
            prop_assert_eq!(wrapped, game.legal_orders(), "{}", pos);
        }
    }
    Ok(())
}

fn check_outcome(game: &Squares, pos: &str, counts: &KindCounts) -> Checked {
    let blue = game.points(Side::Blue);
    let gray = game.points(Side::Gray);
    // Units standing in the enemy reserve: North's in the south reserve,
    // South's in the north reserve.
    let invaders = |side: usize| -> u32 { counts.reserve[1 - side][side].iter().sum() };
    match game.outcome() {
        None => {
            prop_assert!(
                game.pending().is_some(),
                "no outcome, nothing pending: {}",
                pos
            );
            if game.attack().is_none() {
                prop_assert!(
                    blue < 10 && gray < 10,
                    "10 points but the game goes on: {}",
                    pos
                );
                prop_assert!(
                    invaders(0) == 0 && invaders(1) == 0,
                    "a unit in the enemy reserve but the game goes on: {}",
                    pos
                );
            }
        }
        Some(outcome) => {
            prop_assert!(game.pending().is_none(), "over, yet pending: {}", pos);
            prop_assert!(game.side_to_decide().is_none());
            prop_assert!(game.attack().is_none(), "over during an attack: {}", pos);
            match outcome.reason {
                EndReason::Points { north, south } => {
                    prop_assert_eq!((north, south), (blue, gray), "{}", pos);
                    prop_assert!(blue >= 10 || gray >= 10, "{}", pos);
                    let expected = match (blue >= 10, gray >= 10) {
                        (true, false) => GameResult::Win(Seat::North),
                        (false, true) => GameResult::Win(Seat::South),
                        _ if blue > gray => GameResult::Win(Seat::North),
                        _ if gray > blue => GameResult::Win(Seat::South),
                        _ => GameResult::Draw,
                    };
                    prop_assert_eq!(outcome.result, expected, "R27 in {}", pos);
                }
                EndReason::ReserveEntered => {
                    let GameResult::Win(seat) = outcome.result else {
                        return Err(fail(format!("a reserve entry drawn: {pos}")));
                    };
                    let winner = Side::from(seat).index();
                    prop_assert!(invaders(winner) > 0, "R13 win without entry: {}", pos);
                }
                EndReason::NoLegalAction => {
                    prop_assert_eq!(
                        outcome.result,
                        GameResult::Win(game.to_move().opponent().into()),
                        "R8 in {}",
                        pos
                    );
                    prop_assert!(blue < 10 && gray < 10, "{}", pos);
                }
            }
        }
    }
    Ok(())
}

fn step_key(s: &Step) -> (Space, Space, Option<K>) {
    (s.from, s.to, s.unit)
}

fn check_legal(game: &Squares, pos: &str) -> Checked {
    let legal = game.legal_orders();
    // The allocation-free form appends the same orders.
    let mut into = vec![Order::Stay];
    game.legal_orders_into(&mut into);
    prop_assert_eq!(into[0], Order::Stay);
    prop_assert_eq!(&into[1..], &legal[..]);

    match game.outcome() {
        Some(_) => prop_assert!(legal.is_empty(), "legal orders after the end: {}", pos),
        None => prop_assert!(!legal.is_empty(), "stuck: nothing legal, not over: {}", pos),
    }

    // No duplicates: as values, as text, and as moves they denote.
    let values: HashSet<Order> = legal.iter().copied().collect();
    prop_assert_eq!(
        values.len(),
        legal.len(),
        "duplicates in {}: {}",
        pos,
        listing(&legal, notation_of(game))
    );
    let texts: HashSet<String> = legal
        .iter()
        .map(|o| o.display_in(notation_of(game)).to_string())
        .collect();
    prop_assert_eq!(texts.len(), legal.len(), "duplicate texts in {}", pos);
    let mut moves = HashSet::new();
    for o in &legal {
        let key = match o {
            Order::Move(s) => vec![step_key(s)],
            Order::MoveTwo(p, q) => {
                let (a, b) = two_move_key(game, p, q);
                vec![a, b]
            }
            _ => continue,
        };
        prop_assert!(
            moves.insert(key),
            "two listed orders denote the same move ({}) in {}",
            o.display_in(notation_of(game)),
            pos
        );
    }

    // Each listed order prints and parses back (any case); in the variant
    // also through its own `Game`.
    for o in &legal {
        let text = o.display_in(notation_of(game)).to_string();
        let parsed =
            Order::read(&text, notation_of(game)).map_err(|e| fail(format!("{text}: {e}")))?;
        prop_assert_eq!(parsed, *o, "{} in {}", text, pos);
        prop_assert_eq!(game.parse_order(&text.to_lowercase()).ok(), Some(*o));
    }
    if is_napoleonic(game) {
        let wrapper = Napoleonic::from_position(pos).map_err(|e| fail(e.message))?;
        check_variant_orders(&wrapper, &legal, pos)?;
    }

    check_turn_model(game, &legal, pos)?;
    check_decision_model(game, &legal, pos)?;

    // The orders fit the pending decision.
    let fields = fields(pos);
    match game.attack() {
        None => {
            if let Some(p) = game.pending() {
                let expected = match fields[2].len() {
                    1 => DecisionKind::Turn,
                    _ if fields[2].ends_with('1') => DecisionKind::DoubleTurn { half: 1 },
                    _ => DecisionKind::DoubleTurn { half: 2 },
                };
                prop_assert_eq!(p.kind, expected, "{}", pos);
                prop_assert_eq!(p.seat, Seat::from(game.to_move()));
            }
            for o in &legal {
                prop_assert!(is_turn_order(o), "{} listed for a turn in {}", o, pos);
            }
            // R3, R4, read from the string: PASS on an ordinary turn of a
            // side whose last turn was not a PASS.
            let mover = spec(game.variant()).side_letters[game.to_move().index()];
            let pass_allowed = fields[2].len() == 1 && !fields[3].contains(mover);
            if game.outcome().is_none() {
                prop_assert_eq!(
                    legal.contains(&Order::Pass),
                    pass_allowed,
                    "PASS in {}",
                    pos
                );
            }
        }
        Some(attack) => {
            let p = game
                .pending()
                .ok_or_else(|| fail(format!("attack, nothing pending: {pos}")))?;
            prop_assert_eq!(p.kind, attack.stage.decision_kind(), "{}", pos);
            let decider = if attack.stage.defender_decides() {
                game.to_move().opponent()
            } else {
                game.to_move()
            };
            prop_assert_eq!(p.seat, Seat::from(decider));
            let napoleonic = is_napoleonic(game);
            for o in &legal {
                let fits = match p.kind {
                    DecisionKind::Defence | DecisionKind::SecondChance => {
                        matches!(o, Order::Retreat(_) | Order::Stand)
                    }
                    DecisionKind::AttackOption => match o {
                        Order::Option(1..=5) => true,
                        Order::GrandBattery(1..=3) | Order::HorseBattery(1..=5) => napoleonic,
                        _ => false,
                    },
                    DecisionKind::Retreat => matches!(o, Order::Retreat(_)),
                    DecisionKind::ReserveLoss => matches!(o, Order::Lose(_)),
                    DecisionKind::Advance => matches!(o, Order::Advance | Order::Stay),
                    _ => false,
                };
                prop_assert!(fits, "{} listed for {:?} in {}", o, p.kind, pos);
            }
        }
    }
    Ok(())
}

/// Applies a listed order both ways, compares, and checks the new state.
fn check_listed(game: &Squares, order: Order) -> Result<(Squares, Vec<Event>), TestCaseError> {
    let (next, events) = apply_both_ways(game, order)?;
    check_state(&next).map_err(|e| fail(format!("after {order} from {game}:\n{e}")))?;
    Ok((next, events))
}

/// Applies a listed order both ways and compares; returns the new state.
fn apply_both_ways(game: &Squares, order: Order) -> Result<(Squares, Vec<Event>), TestCaseError> {
    let pos = game.to_string();
    let mut checked = game.clone();
    let events = checked.apply(&order).map_err(|r| {
        fail(format!(
            "{pos}: listed {} refused: {} ({})",
            order.display_in(notation_of(game)),
            r.display_in(notation_of(game)),
            r.rule_in(game.variant())
        ))
    })?;
    let mut fast = game.clone();
    let mut fast_events = Vec::new();
    fast.apply_listed(order, &mut fast_events);
    prop_assert_eq!(&events, &fast_events, "{}: {}", pos, order);
    prop_assert_eq!(&checked, &fast, "{}: {}", pos, order);
    if is_napoleonic(game) {
        check_variant_apply(game, order, &events, &checked)?;
    }

    prop_assert!(!events.is_empty(), "{}: {} had no effect", pos, order);
    for e in &events {
        prop_assert!(
            !e.to_string().is_empty(),
            "{}: {} gave a silent event",
            pos,
            order
        );
    }
    let game_overs = events
        .iter()
        .filter(|e| matches!(e, Event::GameOver(_)))
        .count();
    match checked.outcome() {
        Some(outcome) => {
            prop_assert_eq!(game_overs, 1, "{}: {}", pos, order);
            prop_assert_eq!(
                events.last(),
                Some(&Event::GameOver(outcome)),
                "{}: {}",
                pos,
                order
            );
        }
        None => prop_assert_eq!(game_overs, 0, "{}: {}", pos, order),
    }
    prop_assert!(
        checked.turn() >= game.turn(),
        "turn number went back: {}: {}",
        pos,
        order
    );
    check_heavy_cavalry(game, order, &checked)?;
    check_declaration(game, order, &events)?;
    check_stand_decision(game, order, &events)?;
    check_transition(game, order, &checked)?;
    check_bookkeeping(game, order, &events, &checked)?;
    if checked.outcome().is_none() && checked.attack().is_some() {
        let next = checked.legal_orders();
        prop_assert!(
            next.len() != 1,
            "{}: after {} the only choice {} was left pending in {}",
            pos,
            order,
            listing(&next, notation_of(game)),
            checked
        );
    }
    Ok((checked, events))
}

// The variant's own `Game` (`Napoleonic`) against the engine under it. The
// three checks below run in whatever notation the calling thread is in and
// compare with the engine's texts in the variant's notation: the variant's
// `Game` must write its notation whoever calls it.

/// The listed orders print through the variant's `Game` as the engine
/// prints them in the variant's notation, and read back.
fn check_variant_orders(wrapper: &Napoleonic, legal: &[Order], pos: &str) -> Checked {
    for o in legal {
        let text = o.display_in(&NAPOLEONIC).to_string();
        prop_assert_eq!(
            NapOrder(*o).to_string(),
            text.clone(),
            "the variant's order text in {}",
            pos
        );
        let read = wrapper.parse_order(&text.to_lowercase());
        prop_assert_eq!(read.ok().map(|n| n.0), Some(*o), "{} in {}", text, pos);
    }
    Ok(())
}

/// The variant's `Game` applies a listed order as the engine does, and
/// writes its events as the engine does in the variant's notation.
fn check_variant_apply(game: &Squares, order: Order, events: &[Event], after: &Squares) -> Checked {
    let pos = game.to_string();
    let mut wrapper = Napoleonic::from_position(&pos).map_err(|e| fail(e.message))?;
    let wrapped = wrapper
        .apply(&NapOrder(order))
        .map_err(|r| fail(format!("{pos}: the variant refuses {order}: {r}")))?;
    let texts: Vec<String> = wrapped.iter().map(|e| e.to_string()).collect();
    let inner: Vec<Event> = wrapped.into_iter().map(|e| e.0).collect();
    prop_assert_eq!(&inner[..], events, "{}: {}", pos, order);
    // Read from its string, the game may number identical units otherwise
    // (R7), so the states compare as strings.
    prop_assert_eq!(
        wrapper.squares().to_string(),
        after.to_string(),
        "{}: {}",
        pos,
        order
    );
    let expected: Vec<String> = events
        .iter()
        .map(|e| e.display_in(&NAPOLEONIC).to_string())
        .collect();
    prop_assert_eq!(texts, expected, "{}: {}", pos, order);
    Ok(())
}

/// N6: the heavy cavalry never enters a forest, by any means (move,
/// retreat, advance).
fn check_heavy_cavalry(game: &Squares, order: Order, next: &Squares) -> Checked {
    let b = board();
    for side in Side::BOTH {
        for u in game.units_of(side).filter(|u| u.kind() == K::HeavyCavalry) {
            let (before, after) = (game.location(u), next.location(u));
            if let Some(sq) = after {
                prop_assert!(
                    !b.is_forest(sq) || before == after,
                    "{}: {}: N6: the heavy cavalry entered {}",
                    game,
                    order,
                    sq
                );
            }
        }
    }
    Ok(())
}

// ----- an independent reading of the rules ----------------------------------------
//
// Written from squares-rulings.md, docs/squares-engine.md,
// napoleonic-rulings.md and docs/napoleonic-design.md, not from the
// engine's code: the single-unit moves (R5, R9-R13, S3; N3-N6, N25), the
// two-unit moves as the pairs of steps they achieve (R11b, S2; N6, N37),
// the attacks (R14-R16, R21, R25; N7-N10, N18, N34) of a turn and what an
// attack does when declared (R17, R18; N10, N11, N14, N15) are computed here
// and compared with the engine's; the one-square retreats (R22-R24, N6,
// N13, N15, N26) are computed and compared, the decisions inside an attack
// checked for soundness.

/// Whether a unit may be the moving unit: not resting (R21), not at the
/// consecutive-turn limit (R6).
fn may_move(game: &Squares, u: UnitId) -> bool {
    let s = game.unit_state(u);
    !s.inactive && s.move_run < 2
}

fn eligible_in_reserve(game: &Squares, kind: K) -> usize {
    game.reserve_units(game.to_move())
        .filter(|&u| u.kind() == kind && may_move(game, u))
        .count()
}

/// The squares a unit of the side to move could stand on and order from:
/// its board squares with the unit there, and its reserve once per type
/// with an eligible unit.
fn movers(game: &Squares) -> Vec<(Space, K, Option<K>)> {
    let side = game.to_move();
    let mut out = Vec::new();
    for sq in game.occupied_by(side).iter() {
        if let Some(u) = game.unit_at(sq) {
            if may_move(game, u) {
                out.push((sq, u.kind(), None));
            }
        }
    }
    for &kind in spec(game.variant()).kinds {
        if eligible_in_reserve(game, kind) > 0 {
            out.push((board().reserve(side), kind, Some(kind)));
        }
    }
    out
}

/// Where a single move may end: an empty board square, the own reserve
/// (R12), the enemy reserve while empty (R13).
fn may_end_on(game: &Squares, to: Space) -> bool {
    let b = board();
    let side = game.to_move();
    match b.reserve_owner(to) {
        Some(owner) if owner == side => true,
        Some(owner) => game.reserve_count(owner) == 0,
        None => !game.occupied().contains(to),
    }
}

/// How a unit type moves one unit in one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mobility {
    /// One edge step to a clear square; a corner step needs a whole double
    /// turn (R5, R9, N3); a forest entry needs one too unless `forest_step`
    /// (N4: light infantry enters an edge-adjacent forest as a normal move).
    Foot { forest_step: bool },
    /// One edge or corner step; a forest entry needs a whole double turn (R10).
    Gun,
    /// One or two steps (edge or corner) through an empty clear middle
    /// square or the own reserve (R11a, R12, S3, N25); a one-step forest
    /// entry as an ordinary move (R11c), as a whole double turn (N5: the
    /// horse battery) or never (N6: the heavy cavalry).
    TwoSteps { forest: ForestEntry },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ForestEntry {
    Step,
    WholeDoubleTurn,
    Never,
}

fn mobility(kind: K) -> Mobility {
    match kind {
        K::Infantry | K::Guard => Mobility::Foot { forest_step: false },
        K::Light => Mobility::Foot { forest_step: true },
        K::Artillery => Mobility::Gun,
        K::HorseBattery => Mobility::TwoSteps {
            forest: ForestEntry::WholeDoubleTurn,
        },
        K::Cavalry => Mobility::TwoSteps {
            forest: ForestEntry::Step,
        },
        K::HeavyCavalry => Mobility::TwoSteps {
            forest: ForestEntry::Never,
        },
    }
}

/// Whether a one-unit move of `kind` from `from` to `to` takes a whole
/// double turn (R5, N3-N5): a foot diagonal, a foot forest entry other than
/// the light infantry's, an artillery or horse battery forest entry.
fn needs_whole_double_turn(kind: K, from: Space, to: Space) -> bool {
    let b = board();
    let forest = b.is_forest(to);
    match mobility(kind) {
        Mobility::Foot { forest_step } => b.corner(from).contains(to) || (forest && !forest_step),
        Mobility::Gun => forest,
        Mobility::TwoSteps { forest: entry } => {
            forest && entry == ForestEntry::WholeDoubleTurn && b.adjacent(from).contains(to)
        }
    }
}

/// The canonical single-unit moves of the turn.
fn model_single_moves(game: &Squares) -> HashSet<Order> {
    let b = board();
    let whole_allowed = game.half() == Half::First;
    let mut out = HashSet::new();
    for (from, kind, unit) in movers(game) {
        for to in Space::all() {
            if to == from || !may_end_on(game, to) {
                continue;
            }
            let forest = b.is_forest(to);
            let adjacent = b.adjacent(from).contains(to);
            if needs_whole_double_turn(kind, from, to) && !whole_allowed {
                continue;
            }
            let via = match mobility(kind) {
                Mobility::Foot { .. } | Mobility::Gun => {
                    if !adjacent {
                        continue;
                    }
                    None
                }
                Mobility::TwoSteps { forest: entry } => {
                    if forest && (entry == ForestEntry::Never || !adjacent) {
                        continue;
                    }
                    if adjacent {
                        None
                    } else {
                        // S3: the first legal middle square in board order.
                        match (b.adjacent(from) & b.adjacent(to))
                            .iter()
                            .find(|&v| middle_ok(game, from, v, to))
                        {
                            Some(v) => Some(v),
                            None => continue,
                        }
                    }
                }
            };
            out.insert(Order::Move(Step {
                from,
                via,
                to,
                unit,
            }));
        }
    }
    out
}

/// One step of a two-unit move, given what is occupied at that moment:
/// edge or corner, into an empty clear square or the own reserve.
fn pair_step_ok(game: &Squares, occupied: SpaceSet, from: Space, to: Space) -> bool {
    let b = board();
    b.adjacent(from).contains(to)
        && (to == b.reserve(game.to_move())
            || (b.reserve_owner(to).is_none() && !b.is_forest(to) && !occupied.contains(to)))
}

/// Whether two one-step moves make a legal two-unit move in this sequence
/// (R11b, S2): two cavalry, in the variant any two of CAV and HC (N6), never
/// the horse battery (N5).
fn two_in_sequence(game: &Squares, p: &Step, q: &Step) -> bool {
    let b = board();
    let reserve = b.reserve(game.to_move());
    let pairs_at = |s: &Step| match s.unit {
        Some(kind) if is_horse(kind) => s.from == reserve && eligible_in_reserve(game, kind) > 0,
        Some(_) => false,
        None => {
            s.from != reserve
                && game.unit_at(s.from).is_some_and(|u| {
                    u.side() == game.to_move() && is_horse(u.kind()) && may_move(game, u)
                })
        }
    };
    if p.via.is_some() || q.via.is_some() || !pairs_at(p) || !pairs_at(q) {
        return false;
    }
    if p.from == q.from {
        // Two units of one reserve: two eligible ones when of one type.
        let two = match (p.unit, q.unit) {
            (Some(a), Some(c)) if a == c => eligible_in_reserve(game, a) >= 2,
            (Some(_), Some(_)) => true,
            _ => false,
        };
        if !two {
            return false;
        }
    }
    let occupied = game.occupied();
    if !pair_step_ok(game, occupied, p.from, p.to) {
        return false;
    }
    let mut after = occupied & !p.from.set();
    if b.reserve_owner(p.to).is_none() {
        after |= p.to.set();
    }
    pair_step_ok(game, after, q.from, q.to)
}

type StepKey = (Space, Space, Option<K>);

fn pair_key(p: &Step, q: &Step) -> (StepKey, StepKey) {
    let (a, b) = (step_key(p), step_key(q));
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Whether the two units R7 gives first and second for `kind` out of the
/// reserve of the side to move have different move runs (R6): the shortest
/// two move runs of its eligible units differ.
fn reserve_picks_differ(game: &Squares, kind: K) -> bool {
    let mut runs: Vec<u8> = game
        .reserve_units(game.to_move())
        .filter(|&u| u.kind() == kind && may_move(game, u))
        .map(|u| game.unit_state(u).move_run)
        .collect();
    runs.sort_unstable();
    runs.len() >= 2 && runs[0] != runs[1]
}

/// The move two parts make (S2): the pair of steps, whatever their order,
/// except when both leave the reserve as one type and R7's first two picks
/// there differ: then the part written first takes the first pick, so the
/// order of the parts is part of the move.
fn two_move_key(game: &Squares, p: &Step, q: &Step) -> (StepKey, StepKey) {
    match (p.unit, q.unit) {
        (Some(a), Some(c)) if a == c && p.from == q.from && reserve_picks_differ(game, a) => {
            (step_key(p), step_key(q))
        }
        _ => pair_key(p, q),
    }
}

/// The two-unit moves of the turn, as the pairs of steps they achieve
/// (ordered where the order matters, `two_move_key`).
fn model_two_moves(game: &Squares) -> HashSet<(StepKey, StepKey)> {
    let b = board();
    let riders: Vec<(Space, Option<K>)> = movers(game)
        .into_iter()
        .filter(|&(_, k, _)| is_horse(k))
        .map(|(s, _, u)| (s, u))
        .collect();
    let mut out = HashSet::new();
    for &(pf, pu) in &riders {
        for &(qf, qu) in &riders {
            for x in b.adjacent(pf).iter() {
                for y in b.adjacent(qf).iter() {
                    let p = Step {
                        from: pf,
                        via: None,
                        to: x,
                        unit: pu,
                    };
                    let q = Step {
                        from: qf,
                        via: None,
                        to: y,
                        unit: qu,
                    };
                    if two_in_sequence(game, &p, &q) {
                        out.insert(two_move_key(game, &p, &q));
                    }
                }
            }
        }
    }
    out
}

/// The enemy artillery that pins a unit on `square` (R16; the variant's
/// text counts the horse battery as artillery here): `Ok(None)` when free,
/// `Ok(Some(a))` when it may act only into `a`, `Err(())` when it may not
/// attack or support at all.
fn pin(game: &Squares, square: Space) -> Result<Option<Space>, ()> {
    let enemy = game.to_move().opponent();
    let guns: Vec<Space> = (board().adjacent(square) & game.occupied_by(enemy))
        .iter()
        .filter(|&s| game.unit_at(s).is_some_and(|u| is_guns(u.kind())))
        .collect();
    match guns.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(*one)),
        _ => Err(()),
    }
}

fn pin_allows(game: &Squares, square: Space, target: Space) -> bool {
    match pin(game, square) {
        Ok(None) => true,
        Ok(Some(a)) => a == target,
        Err(()) => false,
    }
}

/// Whether `attacker` may attack a unit of type `defender` unsupported
/// (R15; N7-N10; the enemy reserve is always a target, N34).
fn may_attack_alone(game: &Squares, attacker: K, defender: K) -> bool {
    if !is_napoleonic(game) {
        return match attacker {
            K::Cavalry => defender != K::Infantry,
            K::Artillery => defender == K::Artillery,
            _ => true,
        };
    }
    let charge = game.half() == Half::First;
    match attacker {
        // N7: the infantry family never attacks the cavalry family.
        K::Infantry | K::Guard | K::Light => !is_horse(defender),
        // N8, N10: cavalry attacks the foot alone only directly after a PASS.
        K::Cavalry => !is_foot(defender) || charge,
        // N9: artillery attacks only the artillery family.
        K::Artillery => is_guns(defender),
        // N8: heavy cavalry may; N9: the horse battery attacks any unit.
        K::HeavyCavalry | K::HorseBattery => true,
    }
}

/// Whether `attacker` supported by `support` may attack a `defender` (R15;
/// N7, N9, N18: artillery supported by the artillery family forms a Grand
/// Battery and may attack any unit).
fn may_attack_supported(game: &Squares, attacker: K, defender: K, support: K) -> bool {
    if !is_napoleonic(game) {
        return attacker != K::Artillery || defender == K::Artillery;
    }
    match attacker {
        K::Infantry | K::Guard | K::Light => !is_horse(defender),
        K::Artillery => is_guns(defender) || is_guns(support),
        K::Cavalry | K::HeavyCavalry | K::HorseBattery => true,
    }
}

/// The attacks of the turn (R14-R16, R21, R25, R6; N7-N10, N18, N34).
fn model_attacks(game: &Squares) -> HashSet<Order> {
    let b = board();
    let side = game.to_move();
    let enemy = side.opponent();
    let own = game.occupied_by(side);
    let mut out = HashSet::new();
    for attacker in own.iter() {
        let Some(a) = game.unit_at(attacker) else {
            continue;
        };
        let st = game.unit_state(a);
        if st.inactive || st.attack_run >= 2 {
            continue;
        }
        for target in b.edge(attacker).iter() {
            let defender = match b.reserve_owner(target) {
                Some(owner) if owner == enemy && game.reserve_count(enemy) > 0 => None,
                Some(_) => continue,
                None => match game.unit_at(target) {
                    Some(d) if d.side() == enemy => Some(d.kind()),
                    _ => continue,
                },
            };
            if !pin_allows(game, attacker, target) {
                continue;
            }
            if defender.is_none_or(|d| may_attack_alone(game, a.kind(), d)) {
                out.insert(Order::Attack {
                    attacker,
                    target,
                    support: None,
                });
            }
            for s in (own & b.adjacent(target)).iter() {
                let Some(su) = game.unit_at(s) else { continue };
                if s == attacker || game.unit_state(su).inactive || !pin_allows(game, s, target) {
                    continue;
                }
                if defender.is_none_or(|d| may_attack_supported(game, a.kind(), d, su.kind())) {
                    out.insert(Order::Attack {
                        attacker,
                        target,
                        support: Some(s),
                    });
                }
            }
        }
    }
    out
}

/// The turn's listed orders against the independent reading.
fn check_turn_model(game: &Squares, legal: &[Order], pos: &str) -> Checked {
    if game.outcome().is_some() || game.attack().is_some() {
        return Ok(());
    }
    let listed_moves: HashSet<Order> = legal
        .iter()
        .copied()
        .filter(|o| matches!(o, Order::Move(_)))
        .collect();
    let expected_moves = model_single_moves(game);
    if listed_moves != expected_moves {
        let missing: Vec<String> = expected_moves
            .difference(&listed_moves)
            .map(|o| o.display_in(notation_of(game)).to_string())
            .collect();
        let extra: Vec<String> = listed_moves
            .difference(&expected_moves)
            .map(|o| o.display_in(notation_of(game)).to_string())
            .collect();
        return Err(fail(format!(
            "{pos}: single moves differ from R5/R9-R13/S3 (N3-N6, N25): not listed {missing:?}, listed against the rules {extra:?}"
        )));
    }
    let listed_attacks: HashSet<Order> = legal
        .iter()
        .copied()
        .filter(|o| matches!(o, Order::Attack { .. }))
        .collect();
    let expected_attacks = model_attacks(game);
    if listed_attacks != expected_attacks {
        let missing: Vec<String> = expected_attacks
            .difference(&listed_attacks)
            .map(|o| o.display_in(notation_of(game)).to_string())
            .collect();
        let extra: Vec<String> = listed_attacks
            .difference(&expected_attacks)
            .map(|o| o.display_in(notation_of(game)).to_string())
            .collect();
        return Err(fail(format!(
            "{pos}: attacks differ from R14-R16 (N7-N10, N18): not listed {missing:?}, listed against the rules {extra:?}"
        )));
    }
    let mut listed_pairs = HashSet::new();
    for o in legal {
        if let Order::MoveTwo(p, q) = o {
            prop_assert!(
                two_in_sequence(game, p, q),
                "{}: {} is not legal in its written sequence",
                pos,
                o
            );
            if let (Some(a), Some(c)) = (p.unit, q.unit) {
                // S2, N37: parts from the reserve in destination board order,
                // unless R7's picks make the order of the parts part of the
                // move (then both orders are listed: compared below).
                prop_assert!(
                    p.to < q.to || (a == c && reserve_picks_differ(game, a)),
                    "{}: {} not in board order (S2)",
                    pos,
                    o
                );
            } else if two_in_sequence(game, q, p) {
                prop_assert!(
                    (p.from, p.to) < (q.from, q.to),
                    "{}: {} legal both ways but not sorted (S2)",
                    pos,
                    o
                );
            }
            listed_pairs.insert(two_move_key(game, p, q));
        }
    }
    let expected_pairs = model_two_moves(game);
    if listed_pairs != expected_pairs {
        let missing: Vec<_> = expected_pairs.difference(&listed_pairs).collect();
        let extra: Vec<_> = listed_pairs.difference(&expected_pairs).collect();
        return Err(fail(format!(
            "{pos}: two-unit moves differ from R11b/S2 (N6, N37): not listed {missing:?}, listed against the rules {extra:?}"
        )));
    }
    Ok(())
}

/// What an attack does as it is declared, before any decision (R17, R18;
/// N10, N11, N14, N15, N28): checked on the events of an attack order.
fn check_declaration(game: &Squares, order: Order, events: &[Event]) -> Checked {
    let Order::Attack {
        attacker,
        target,
        support,
    } = order
    else {
        return Ok(());
    };
    if game.attack().is_some() {
        return Ok(());
    }
    let pos = game.to_string();
    let b = board();
    let a = game
        .unit_at(attacker)
        .ok_or_else(|| fail(format!("{pos}: {order}: no attacking unit")))?;
    let declared = Event::Attacked {
        side: a.side(),
        unit: a.kind(),
        from: attacker,
        target,
        support: support.and_then(|s| game.unit_at(s).map(|u| (u.kind(), s))),
    };
    prop_assert_eq!(events.first(), Some(&declared), "{}: {}", pos, order);
    let rest = &events[1..];
    let eliminations: Vec<&Event> = rest
        .iter()
        .filter(|e| matches!(e, Event::Eliminated { .. }))
        .collect();
    let gone = |u: UnitId, square: Space| Event::Eliminated {
        side: u.side(),
        unit: u.kind(),
        square,
    };
    let Some(d) = game.unit_at(target) else {
        // R17, R19: the reserve's owner chooses the unit he loses.
        prop_assert!(
            rest.first().is_none_or(|e| matches!(
                e,
                Event::Forced {
                    order: Order::Lose(_),
                    ..
                }
            )),
            "{}: {}: an attack on the reserve: {:?}",
            pos,
            order,
            rest
        );
        return Ok(());
    };
    let (ak, dk) = (a.kind(), d.kind());
    let napoleonic = is_napoleonic(game);
    let after_pass = game.half() == Half::First;
    let forest = b.is_forest(target);
    let flank = support.is_some_and(|s| {
        let closer = b.closer(d.side(), target);
        closer.contains(s) || closer.contains(attacker)
    });
    let immune = immune_to_lone(game, ak, dk);
    // R17, R23: artillery may not retreat when attacked outside a forest, so
    // there is nothing to ask it; the other immune defenders choose (N38).
    let no_choice = retreat_of(dk) == Retreat::Gun;
    let charge = napoleonic && is_horse(ak) && is_foot(dk) && after_pass && !forest;
    if support.is_none() && (forest || (immune && no_choice)) {
        // R17, N28: the attacker is eliminated and nothing else happens.
        prop_assert_eq!(rest.first(), Some(&gone(a, attacker)), "{}: {}", pos, order);
        prop_assert_eq!(eliminations.len(), 1, "{}: {}: {:?}", pos, order, rest);
    } else if flank {
        prop_assert_eq!(
            rest.first(),
            Some(&Event::Flank { target }),
            "{}: {} (R18)",
            pos,
            order
        );
    } else if charge {
        // N10: the foot unit is eliminated without a choice; the guard takes
        // its attacker with it.
        prop_assert_eq!(
            rest.first(),
            Some(&Event::Charge { target }),
            "{}: {}",
            pos,
            order
        );
        prop_assert_eq!(rest.get(1), Some(&gone(d, target)), "{}: {}", pos, order);
        if dk == K::Guard {
            prop_assert_eq!(rest.get(2), Some(&gone(a, attacker)), "{}: {}", pos, order);
            prop_assert_eq!(eliminations.len(), 2, "{}: {}: {:?}", pos, order, rest);
        } else {
            prop_assert_eq!(eliminations.len(), 1, "{}: {}: {:?}", pos, order, rest);
        }
        prop_assert!(
            !rest.iter().any(|e| matches!(e, Event::Forced { .. })),
            "{}: {}: a decision after a charge: {:?}",
            pos,
            order,
            rest
        );
    } else {
        // The defender decides (or its only choice is taken).
        prop_assert!(
            rest.first()
                .is_none_or(|e| matches!(e, Event::Forced { .. })),
            "{}: {}: no decision for the defender: {:?}",
            pos,
            order,
            rest
        );
        if support.is_none()
            && rest.first()
                == Some(&Event::Forced {
                    side: d.side(),
                    order: Order::Stand,
                })
        {
            check_lone_stand(&pos, order, immune, (a, attacker), (d, target), &rest[1..])?;
        }
    }
    if !charge {
        prop_assert!(
            !rest.iter().any(|e| matches!(e, Event::Charge { .. })),
            "{}: {}: a charge against N10: {:?}",
            pos,
            order,
            rest
        );
    }
    Ok(())
}

/// A STAND chosen by the defender of a lone attack (R17, N38).
fn check_stand_decision(game: &Squares, order: Order, events: &[Event]) -> Checked {
    let Some(attack) = game.attack() else {
        return Ok(());
    };
    if order != Order::Stand || attack.stage != Stage::Response || attack.support.is_some() {
        return Ok(());
    }
    let pos = game.to_string();
    let (Some(a), Some(d)) = (game.unit_at(attack.attacker), game.unit_at(attack.target)) else {
        return Err(fail(format!("{pos}: a lone attack without its two units")));
    };
    let immune = immune_to_lone(game, a.kind(), d.kind());
    check_lone_stand(
        &pos,
        order,
        immune,
        (a, attack.attacker),
        (d, attack.target),
        events,
    )
}

/// Whether a defender of type `dk` is immune to a lone attacker of type
/// `ak`: in the variant the artillery family to any lone foot or
/// cavalry-family unit (N15), the guard to lone infantry or light infantry
/// except directly after the attacker's PASS (N11), the heavy cavalry to a
/// lone cavalry (N14); in the Civil War game artillery to infantry and
/// cavalry (R17).
fn immune_to_lone(game: &Squares, ak: K, dk: K) -> bool {
    if is_napoleonic(game) {
        let after_pass = game.half() == Half::First;
        (is_guns(dk) && !is_guns(ak))
            || (dk == K::Guard && matches!(ak, K::Infantry | K::Light) && !after_pass)
            || (dk == K::HeavyCavalry && ak == K::Cavalry)
    } else {
        dk == K::Artillery && ak != K::Artillery
    }
}

/// What a defender's STAND against a lone attacker does (R17; N38 for an
/// immune defender): `events` from the STAND on begin with the defender's
/// stand, then its elimination unless it is immune, then the attacker's;
/// no unit is eliminated or retreats after that.
fn check_lone_stand(
    pos: &str,
    order: Order,
    immune: bool,
    (a, attacker): (UnitId, Space),
    (d, target): (UnitId, Space),
    events: &[Event],
) -> Checked {
    let gone = |u: UnitId, square: Space| Event::Eliminated {
        side: u.side(),
        unit: u.kind(),
        square,
    };
    let mut expected = vec![Event::Stood {
        side: d.side(),
        unit: d.kind(),
        square: target,
    }];
    if !immune {
        expected.push(gone(d, target));
    }
    expected.push(gone(a, attacker));
    let n = expected.len();
    prop_assert_eq!(
        events.get(..n),
        Some(&expected[..]),
        "{}: {}: STAND against a lone attacker (R17, N38)",
        pos,
        order
    );
    prop_assert!(
        !events[n..]
            .iter()
            .any(|e| matches!(e, Event::Eliminated { .. } | Event::Retreated { .. })),
        "{}: {}: more after a STAND against a lone attacker: {:?}",
        pos,
        order,
        events
    );
    Ok(())
}

/// Whether `side`'s unit on `from` has a clear path to its reserve (R22):
/// adjacent squares, each strictly closer, none holding an enemy unit.
fn clear_path(game: &Squares, side: Side, from: Space) -> bool {
    let b = board();
    let reserve = b.reserve(side);
    let enemy = game.occupied_by(side.opponent());
    let mut seen = HashSet::new();
    let mut frontier = vec![from];
    while let Some(s) = frontier.pop() {
        for n in (b.adjacent(s) & b.closer(side, s)).iter() {
            if n == reserve {
                return true;
            }
            if !enemy.contains(n) && seen.insert(n) {
                frontier.push(n);
            }
        }
    }
    false
}

/// How a unit type retreats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Retreat {
    /// Into the reserve along a clear path (R22: infantry, light infantry).
    Path,
    /// As `Path`, except that when attacked only forest to forest (R23).
    Gun,
    /// One step into an empty clear square strictly closer, or into the
    /// adjacent reserve; failing that along a clear path (N13).
    Guard,
    /// One step strictly closer into an empty square or the adjacent
    /// reserve, else displacing a friend (R24: cavalry; N15, N26: the horse
    /// battery, forests included; N6: the heavy cavalry, never a forest).
    Horse { forest: bool },
}

fn retreat_of(kind: K) -> Retreat {
    match kind {
        K::Infantry | K::Light => Retreat::Path,
        K::Artillery => Retreat::Gun,
        K::Guard => Retreat::Guard,
        K::Cavalry | K::HorseBattery => Retreat::Horse { forest: true },
        K::HeavyCavalry => Retreat::Horse { forest: false },
    }
}

/// The forest-to-forest retreats of `side`'s unit attacked on `from` (R22,
/// R23): an adjacent empty forest strictly closer to its reserve, adjacent
/// to no enemy artillery (in the variant: artillery or horse battery).
fn forest_retreats(game: &Squares, side: Side, from: Space) -> Vec<Space> {
    let b = board();
    if !b.is_forest(from) {
        return Vec::new();
    }
    (b.adjacent(from) & b.closer(side, from) & b.forests())
        .iter()
        .filter(|&f| {
            game.unit_at(f).is_none()
                && b.adjacent(f).iter().all(|s| {
                    game.unit_at(s)
                        .is_none_or(|u| u.side() == side || !is_guns(u.kind()))
                })
        })
        .collect()
}

/// The strictly closer adjacent squares a one-step retreat of `side`'s unit
/// on `from` may end on: empty board squares (clear ones only with
/// `forest` false) and the own reserve.
fn closer_steps(game: &Squares, side: Side, from: Space, forest: bool) -> Vec<Space> {
    let b = board();
    let reserve = b.reserve(side);
    (b.adjacent(from) & b.closer(side, from))
        .iter()
        .filter(|&s| {
            s == reserve
                || (b.reserve_owner(s).is_none()
                    && game.unit_at(s).is_none()
                    && (forest || !b.is_forest(s)))
        })
        .collect()
}

/// The retreats of the unit on `from` that end on their first square: into
/// an empty square or the reserve (`attacked`: it is the attacked unit,
/// which alone may retreat forest to forest, R22).
fn single_retreats(game: &Squares, from: Space, attacked: bool) -> HashSet<Space> {
    let b = board();
    let Some(u) = game.unit_at(from) else {
        return HashSet::new();
    };
    let side = u.side();
    let reserve = b.reserve(side);
    let style = retreat_of(u.kind());
    let mut out = HashSet::new();
    if attacked && !matches!(style, Retreat::Horse { .. }) {
        out.extend(forest_retreats(game, side, from));
    }
    match style {
        Retreat::Path => {
            if clear_path(game, side, from) {
                out.insert(reserve);
            }
        }
        Retreat::Gun => {
            if !attacked && clear_path(game, side, from) {
                out.insert(reserve);
            }
        }
        Retreat::Guard => {
            let steps = closer_steps(game, side, from, false);
            if steps.is_empty() {
                if clear_path(game, side, from) {
                    out.insert(reserve);
                }
            } else {
                out.extend(steps);
            }
        }
        Retreat::Horse { forest } => out.extend(closer_steps(game, side, from, forest)),
    }
    out
}

/// Whether the unit on `from` has any legal retreat, chains included (R24).
fn can_retreat(game: &Squares, from: Space, attacked: bool) -> bool {
    if !single_retreats(game, from, attacked).is_empty() {
        return true;
    }
    let b = board();
    let Some(u) = game.unit_at(from) else {
        return false;
    };
    match retreat_of(u.kind()) {
        Retreat::Horse { forest } => {
            (b.adjacent(from) & b.closer(u.side(), from) & game.occupied_by(u.side()))
                .iter()
                .any(|s| (forest || !b.is_forest(s)) && can_retreat(game, s, false))
        }
        _ => false,
    }
}

/// Soundness of one listed retreat of the unit on `from` (R21-R24, S8; N6,
/// N13, N15, N26).
fn retreat_sound(game: &Squares, from: Space, chain: &Chain, attacked: bool) -> Result<(), String> {
    let b = board();
    let Some(r) = game.unit_at(from) else {
        return Err(format!("no unit on {from} to retreat"));
    };
    let side = r.side();
    let squares = chain.squares();
    let mut prev = from;
    let mut mover = r;
    for (k, &to) in squares.iter().enumerate() {
        let last = k + 1 == squares.len();
        let singles = single_retreats(game, prev, attacked && k == 0);
        if singles.contains(&to) {
            return if last {
                Ok(())
            } else {
                Err(format!("the chain goes on after {to}"))
            };
        }
        match retreat_of(mover.kind()) {
            Retreat::Horse { forest } => {
                if !singles.is_empty() {
                    return Err(format!("chain from {prev} while a closer square is free"));
                }
                if !(b.adjacent(prev) & b.closer(side, prev)).contains(to) {
                    return Err(format!("link {prev} -> {to} is not one step closer"));
                }
                if !forest && b.is_forest(to) {
                    return Err(format!("N6: the heavy cavalry retreats into {to}"));
                }
                match game.unit_at(to) {
                    Some(u) if !last && u.side() == side && u != r => mover = u,
                    Some(u) => return Err(format!("{to} holds {:?} {:?}", u.side(), u.kind())),
                    None => return Err(format!("chain displaces nobody on {to}")),
                }
            }
            other => {
                return Err(format!(
                    "{:?} ({other:?}) link {prev} -> {to} is not a legal retreat",
                    mover.kind()
                ))
            }
        }
        prev = to;
    }
    Err(format!("the chain ends on {prev}, which is occupied"))
}

/// The attack options (R19, N17-N20, N31, N33) offered against a standing
/// defender: which list, what it always holds, what it never holds.
fn check_options(game: &Squares, legal: &[Order], pos: &str) -> Checked {
    let Some(attack) = game.attack() else {
        return Ok(());
    };
    let unit = |s: Space| {
        game.unit_at(s)
            .map(|u| u.kind())
            .ok_or_else(|| fail(format!("{pos}: no unit on {s}")))
    };
    let a = unit(attack.attacker)?;
    let d = unit(attack.target)?;
    let support = attack
        .support
        .ok_or_else(|| fail(format!("{pos}: options without a support")))?;
    let s = unit(support)?;
    let has = |o: Order| legal.contains(&o);
    #[derive(Debug, PartialEq)]
    enum List {
        General,
        Grand,
        Horse,
    }
    let list = match is_napoleonic(game) {
        // N19, N33: the horse battery as attacking unit has its own list.
        true if a == K::HorseBattery => List::Horse,
        // N18: a Grand Battery against a defender outside the artillery family.
        true if a == K::Artillery && is_guns(s) && !is_guns(d) => List::Grand,
        _ => List::General,
    };
    for o in legal {
        let fits = match o {
            Order::Option(_) => list == List::General,
            Order::GrandBattery(_) => list == List::Grand,
            Order::HorseBattery(_) => list == List::Horse,
            _ => false,
        };
        prop_assert!(fits, "{}: {} offered, the list is {:?}", pos, o, list);
    }
    let retreats = |sq: Space| can_retreat(game, sq, false);
    match list {
        List::General => {
            prop_assert!(
                has(Order::Option(2)) && has(Order::Option(3)),
                "options 2, 3 in {}",
                pos
            );
            // R19, N17: attacking artillery and cavalry never retreat; the
            // infantry family and the heavy cavalry may.
            let attacker_retreats = !matches!(a, K::Artillery | K::Cavalry);
            if !attacker_retreats {
                prop_assert!(
                    !has(Order::Option(1)) && !has(Order::Option(4)),
                    "R19: artillery and cavalry never retreat, in {}",
                    pos
                );
            }
            // N20: against the artillery family option 1 needs the
            // artillery family among the attackers.
            if is_napoleonic(game) && is_guns(d) && !is_guns(a) && !is_guns(s) {
                prop_assert!(!has(Order::Option(1)), "N20: option 1 in {}", pos);
            }
            prop_assert_eq!(
                has(Order::Option(4)),
                attacker_retreats && retreats(attack.attacker),
                "option 4 in {}",
                pos
            );
            prop_assert_eq!(
                has(Order::Option(5)),
                retreats(support),
                "option 5 in {}",
                pos
            );
        }
        List::Grand => {
            prop_assert!(has(Order::GrandBattery(2)), "GB2 in {}", pos);
            prop_assert_eq!(
                has(Order::GrandBattery(3)),
                retreats(support),
                "GB3 in {}",
                pos
            );
        }
        List::Horse => {
            prop_assert!(has(Order::HorseBattery(3)), "HB3 in {}", pos);
            prop_assert_eq!(
                has(Order::HorseBattery(4)),
                retreats(attack.attacker),
                "HB4 in {}",
                pos
            );
            prop_assert_eq!(
                has(Order::HorseBattery(5)),
                retreats(support),
                "HB5 in {}",
                pos
            );
            if has(Order::HorseBattery(1)) {
                prop_assert!(
                    can_retreat(game, attack.target, true),
                    "N19: HB1 without a defender's retreat in {}",
                    pos
                );
            }
        }
    }
    Ok(())
}

/// The decisions inside an attack, against the reading of the rules.
fn check_decision_model(game: &Squares, legal: &[Order], pos: &str) -> Checked {
    let (Some(attack), None) = (game.attack(), game.outcome()) else {
        return Ok(());
    };
    let b = board();
    let napoleonic = is_napoleonic(game);
    let attacker_kind = game.unit_at(attack.attacker).map(|u| u.kind());
    // Who retreats at this stage, whether as the attacked unit, and whether
    // every retreat it has is offered (the support's under option 1 and HB1
    // only those after which the attacking unit can follow, S6/S8, N30).
    let retreating = match attack.stage {
        Stage::Response
        | Stage::SecondChance
        | Stage::GrandSecondChance
        | Stage::HorseDefenderRetreat => Some((attack.target, true, true)),
        Stage::SupportRetreat5 | Stage::GrandSupportRetreat => {
            attack.support.map(|s| (s, false, true))
        }
        Stage::SupportRetreat1 | Stage::HorseSupportRetreat => {
            attack.support.map(|s| (s, false, false))
        }
        Stage::AttackerRetreat1 | Stage::AttackerRetreat4 | Stage::HorseBatteryRetreat => {
            Some((attack.attacker, false, true))
        }
        Stage::Option | Stage::Lose | Stage::Advance => None,
    };
    let chains: Vec<&Chain> = legal
        .iter()
        .filter_map(|o| match o {
            Order::Retreat(c) => Some(c),
            _ => None,
        })
        .collect();
    if let Some((from, attacked, complete)) = retreating {
        for chain in &chains {
            retreat_sound(game, from, chain, attacked).map_err(|why| {
                fail(format!(
                    "{pos}: listed RETREAT {chain:?} is not a legal retreat: {why}"
                ))
            })?;
        }
        if complete {
            let listed: HashSet<Space> = chains
                .iter()
                .filter(|c| c.len() == 1)
                .map(|c| c.first())
                .collect();
            let expected = single_retreats(game, from, attacked);
            let unit = game.unit_at(from).map(|u| u.kind());
            prop_assert_eq!(
                listed,
                expected,
                "{}: one-square retreats of the {:?} on {} (R22-R24, N13, N15, N26)",
                pos,
                unit,
                from
            );
            prop_assert_eq!(
                !chains.is_empty(),
                can_retreat(game, from, attacked),
                "{}: whether the {:?} on {} can retreat (R24 chains)",
                pos,
                unit,
                from
            );
        }
    } else {
        prop_assert!(
            chains.is_empty(),
            "{}: a retreat at {:?}",
            pos,
            attack.stage
        );
    }
    let has = |o: Order| legal.contains(&o);
    let may_retreat = !chains.is_empty();
    match attack.stage {
        Stage::Response => {
            let d = game
                .unit_at(attack.target)
                .ok_or_else(|| fail(format!("{pos}: no defender")))?;
            let flank = attack.support.is_some_and(|s| {
                let closer = b.closer(d.side(), attack.target);
                closer.contains(s) || closer.contains(attack.attacker)
            });
            // N12: infantry and light infantry yield to an attacking guard.
            let yields = napoleonic
                && matches!(d.kind(), K::Infantry | K::Light)
                && attacker_kind == Some(K::Guard);
            // R24, N27: cavalry (CAV) must retreat unless in a forest or
            // attacked by one unsupported cavalry; the heavy cavalry and
            // the horse battery may stand (N14, N15).
            let cavalry_must = d.kind() == K::Cavalry
                && !b.is_forest(attack.target)
                && !(attack.support.is_none() && attacker_kind == Some(K::Cavalry));
            let must_retreat = may_retreat && (flank || yields || cavalry_must);
            prop_assert_eq!(
                has(Order::Stand),
                !must_retreat,
                "STAND (R18, R22-R24, N12, N14, N15, N27) in {}",
                pos
            );
        }
        Stage::SecondChance => {
            // S7; N29: a defender yielding to an attacking guard retreats if it can.
            let yields = napoleonic
                && game
                    .unit_at(attack.target)
                    .is_some_and(|d| matches!(d.kind(), K::Infantry | K::Light))
                && attacker_kind == Some(K::Guard);
            prop_assert_eq!(
                has(Order::Stand),
                !(yields && may_retreat),
                "S7, N29: STAND in {}",
                pos
            );
        }
        Stage::GrandSecondChance => prop_assert!(has(Order::Stand), "N18: STAND in {}", pos),
        Stage::HorseDefenderRetreat => {
            prop_assert!(
                !has(Order::Stand),
                "N19: HB1 retreats the defender, in {}",
                pos
            )
        }
        Stage::Option => check_options(game, legal, pos)?,
        Stage::Lose => {
            let owner = game.to_move().opponent();
            let present: HashSet<Order> = game
                .reserve_units(owner)
                .map(|u| Order::Lose(u.kind()))
                .collect();
            let listed: HashSet<Order> = legal.iter().copied().collect();
            prop_assert_eq!(listed, present, "R17: LOSE per type present, in {}", pos);
        }
        Stage::Advance => {
            prop_assert!(
                has(Order::Advance) && has(Order::Stay) && legal.len() == 2,
                "{}",
                pos
            );
            prop_assert!(
                attacker_kind.is_some_and(|k| !is_guns(k)),
                "R19, N18: artillery never advances, {}",
                pos
            );
            prop_assert!(
                !(attacker_kind == Some(K::HeavyCavalry) && b.is_forest(attack.target)),
                "N6: the heavy cavalry may not advance into a forest, {}",
                pos
            );
        }
        _ => {}
    }
    Ok(())
}

/// R6, R7 and R21 bookkeeping over one whole action (a turn begun and
/// completed by this order, forced decisions included): the moving unit
/// extends its move run by one (two for a whole double turn, S1), the
/// attacking unit its attack run, every other unit of the side breaks both
/// runs; a reserve order moves the eligible unit with the shortest run (R7);
/// a unit that retreated rests unless it is cavalry (R21; N16: in the
/// variant only CAV is exempt), a unit that rested and did not retreat
/// again is free once its side's turn is over, and no `~` is left between
/// turns.
fn check_bookkeeping(game: &Squares, order: Order, events: &[Event], next: &Squares) -> Checked {
    if game.attack().is_some() || next.attack().is_some() || next.outcome().is_some() {
        return Ok(());
    }
    let pos = game.to_string();
    let b = board();
    let mover = game.to_move();
    let on_board = |s: Space| b.reserve_owner(s).is_none();
    let mut retreated_to = HashSet::new();
    let mut left = HashSet::new();
    let mut advanced_to = None;
    for e in events {
        match *e {
            Event::Retreated { from, to, .. } => {
                retreated_to.insert(to);
                left.insert(from);
            }
            Event::Eliminated { square, .. } => {
                left.insert(square);
            }
            Event::Advanced { to, .. } => advanced_to = Some(to),
            _ => {}
        }
    }
    // The runs the order's moving units had: a board unit its own, a reserve
    // part the shortest runs of the eligible units there, in order (R7).
    let mut reserve_runs: Vec<u8> = Vec::new();
    let mut reserve_kind = None;
    let mut old_run = |step: &Step| -> Option<u8> {
        match step.unit {
            None => game.unit_at(step.from).map(|u| game.unit_state(u).move_run),
            Some(kind) => {
                if reserve_kind != Some(kind) {
                    reserve_kind = Some(kind);
                    reserve_runs = game
                        .reserve_units(mover)
                        .filter(|&u| u.kind() == kind && may_move(game, u))
                        .map(|u| game.unit_state(u).move_run)
                        .collect();
                    reserve_runs.sort_unstable();
                    reserve_runs.reverse();
                }
                reserve_runs.pop()
            }
        }
    };
    let mut expected_move: Vec<(Space, u8)> = Vec::new();
    let mut expected_attack: Option<(Space, u8)> = None;
    let whole = whole_double_turn(game, order);
    match order {
        Order::Move(step) => {
            if let Some(run) = old_run(&step) {
                expected_move.push((step.to, run + if whole { 2 } else { 1 }));
            }
        }
        Order::MoveTwo(p, q) => {
            for part in [p, q] {
                if let Some(run) = old_run(&part) {
                    expected_move.push((part.to, run + 1));
                }
            }
        }
        Order::Attack { attacker, .. } => {
            let square = advanced_to.unwrap_or(attacker);
            if let Some(a) = game.unit_at(attacker) {
                if advanced_to.is_some() || !left.contains(&attacker) {
                    expected_attack = Some((square, game.unit_state(a).attack_run + 1));
                }
            }
        }
        _ => {}
    }
    for s in next.occupied_by(mover).iter() {
        let Some(u) = next.unit_at(s) else { continue };
        let st = next.unit_state(u);
        let want_move = expected_move
            .iter()
            .find(|&&(to, _)| to == s)
            .map_or(0, |&(_, run)| run);
        prop_assert_eq!(
            st.move_run,
            want_move,
            "{}: {}: R6 move run on {}",
            pos,
            order,
            s
        );
        let want_attack = expected_attack
            .filter(|&(sq, _)| sq == s)
            .map_or(0, |(_, run)| run);
        prop_assert_eq!(
            st.attack_run,
            want_attack,
            "{}: {}: R6 attack run on {}",
            pos,
            order,
            s
        );
    }
    for side in Side::BOTH {
        for s in next.occupied_by(side).iter() {
            let Some(u) = next.unit_at(s) else { continue };
            let st = next.unit_state(u);
            prop_assert!(
                !st.retreated,
                "{}: {}: '~' left on {} between turns",
                pos,
                order,
                s
            );
            if retreated_to.contains(&s) && u.kind() != K::Cavalry {
                prop_assert!(
                    st.inactive,
                    "{}: {}: R21: {} retreated, must rest",
                    pos,
                    order,
                    s
                );
            }
            // A unit of the side that just finished its turn, not retreated
            // in it, rests only if it carried `~` into the turn (and that
            // turn was not a whole double turn, which is two own turns).
            let unmoved = !retreated_to.contains(&s)
                && !expected_move.iter().any(|&(to, _)| to == s)
                && advanced_to != Some(s);
            if side == mover && unmoved && on_board(s) {
                let before = game.unit_at(s).map(|g| game.unit_state(g));
                if let Some(before) = before {
                    prop_assert_eq!(
                        st.inactive,
                        before.retreated && !whole,
                        "{}: {}: R21 rest on {} after its side's turn",
                        pos,
                        order,
                        s
                    );
                }
            }
        }
    }
    Ok(())
}

/// Flags only play produces in a certain shape: cavalry never rests (R21;
/// N16: of the variant's types only CAV), between turns no unit carries
/// `~`, and the heavy cavalry is never on a forest (N6).
fn check_play_flags(game: &Squares) -> Checked {
    for side in Side::BOTH {
        for u in game.units_of(side) {
            let st = game.unit_state(u);
            if u.kind() == K::Cavalry {
                prop_assert!(!st.inactive && !st.retreated, "resting cavalry in {}", game);
            }
            if u.kind() == K::HeavyCavalry {
                prop_assert!(
                    game.location(u).is_none_or(|s| !board().is_forest(s)),
                    "N6: heavy cavalry on a forest in {}",
                    game
                );
            }
            if game.attack().is_none() {
                prop_assert!(!st.retreated, "'~' between turns in {}", game);
            }
        }
    }
    Ok(())
}

/// Whether `order` is a move that takes a whole double turn (R5, S1; N3-N5),
/// made as the first half of a double turn.
fn whole_double_turn(game: &Squares, order: Order) -> bool {
    match order {
        Order::Move(step) if game.attack().is_none() && game.half() == Half::First => step
            .unit
            .or_else(|| game.unit_at(step.from).map(|u| u.kind()))
            .is_some_and(|kind| needs_whole_double_turn(kind, step.from, step.to)),
        _ => false,
    }
}

/// Whose turn and which turn number follow an order (R1, R4, R5, S1).
fn check_transition(game: &Squares, order: Order, next: &Squares) -> Checked {
    let pos = game.to_string();
    if next.outcome().is_some() {
        return Ok(());
    }
    if next.attack().is_some() {
        prop_assert_eq!(
            next.turn(),
            game.turn(),
            "{}: {} inside an attack",
            pos,
            order
        );
        prop_assert_eq!(next.to_move(), game.to_move());
        return Ok(());
    }
    let whole = whole_double_turn(game, order);
    let expected_turn = game.turn() + if whole { 2 } else { 1 };
    prop_assert_eq!(next.turn(), expected_turn, "{}: {} (R4, S1)", pos, order);
    let next_pos = next.to_string();
    let passes = fields(&next_pos).get(3).copied().unwrap_or("-").to_string();
    let letters = spec(game.variant()).side_letters;
    let mover = game.to_move();
    prop_assert_eq!(
        passes.contains(letters[mover.index()]),
        order == Order::Pass,
        "{}: {}: R3 pass flag in {}",
        pos,
        order,
        next_pos
    );
    if game.half() == Half::First && !whole {
        prop_assert_eq!(
            next.to_move(),
            mover,
            "{}: {}: second half (R4)",
            pos,
            order
        );
        prop_assert_eq!(next.half(), Half::Second);
    } else {
        let other = mover.opponent();
        prop_assert_eq!(next.to_move(), other, "{}: {}: R1", pos, order);
        let expected = if passes.contains(letters[other.index()]) {
            Half::First
        } else {
            Half::Single
        };
        prop_assert_eq!(next.half(), expected, "{}: {}: R4", pos, order);
    }
    Ok(())
}

// ----- unlisted orders --------------------------------------------------------

fn random_space(rng: &mut XorShift) -> Space {
    Space::new(rng.below(32))
}

/// Mostly a square adjacent to `s`, sometimes any square.
fn near(rng: &mut XorShift, s: Space) -> Space {
    let adjacent: Vec<Space> = board().adjacent(s).iter().collect();
    if adjacent.is_empty() || rng.chance(20) {
        random_space(rng)
    } else {
        rng.pick(&adjacent)
    }
}

/// A unit type of the game's army.
fn random_kind(rng: &mut XorShift, game: &Squares) -> K {
    rng.pick(spec(game.variant()).kinds)
}

/// An attacker's option order of the game: 1-5, in the variant also GB1-GB3
/// and HB1-HB5 (N24).
fn random_option(rng: &mut XorShift, game: &Squares) -> Order {
    match (is_napoleonic(game), rng.below(3)) {
        (true, 1) => Order::GrandBattery(1 + rng.below(3) as u8),
        (true, 2) => Order::HorseBattery(1 + rng.below(5) as u8),
        _ => Order::Option(1 + rng.below(5) as u8),
    }
}

fn own_square(rng: &mut XorShift, game: &Squares) -> Space {
    let side = game.to_move();
    let mut own: Vec<Space> = game.occupied_by(side).iter().collect();
    own.push(board().reserve(side));
    if rng.chance(75) {
        rng.pick(&own)
    } else {
        random_space(rng)
    }
}

fn random_step(rng: &mut XorShift, game: &Squares) -> Step {
    let from = own_square(rng, game);
    let unit = if board().reserve_owner(from).is_some() {
        (!rng.chance(15)).then(|| random_kind(rng, game))
    } else {
        rng.chance(10).then(|| random_kind(rng, game))
    };
    let to = near(rng, from);
    let via = rng.chance(30).then(|| near(rng, from));
    Step {
        from,
        via,
        to,
        unit,
    }
}

fn random_chain(rng: &mut XorShift, start: Space) -> Chain {
    let mut squares = vec![near(rng, start)];
    while squares.len() < 4 && rng.chance(30) {
        let last = squares[squares.len() - 1];
        squares.push(near(rng, last));
    }
    Chain::from_squares(&squares).unwrap_or(Chain::to(start))
}

fn mutate(rng: &mut XorShift, game: &Squares, order: Order) -> Order {
    match order {
        Order::Move(mut s) => {
            match rng.below(5) {
                0 => s.to = near(rng, s.from),
                1 => s.from = near(rng, s.from),
                2 => {
                    s.via = if s.via.is_some() && rng.chance(50) {
                        None
                    } else {
                        Some(near(rng, s.from))
                    }
                }
                3 => s.unit = rng.chance(70).then(|| random_kind(rng, game)),
                _ => std::mem::swap(&mut s.from, &mut s.to),
            }
            Order::Move(s)
        }
        Order::MoveTwo(mut p, mut q) => match rng.below(5) {
            0 => Order::MoveTwo(q, p),
            1 => {
                p.to = near(rng, p.from);
                Order::MoveTwo(p, q)
            }
            2 => {
                q.via = Some(near(rng, q.from));
                Order::MoveTwo(p, q)
            }
            3 => Order::MoveTwo(p, random_step(rng, game)),
            _ => Order::Move(p),
        },
        Order::Attack {
            attacker,
            target,
            support,
        } => match rng.below(4) {
            0 => Order::Attack {
                attacker,
                target: near(rng, attacker),
                support,
            },
            1 => Order::Attack {
                attacker,
                target,
                support: match support {
                    Some(_) if rng.chance(50) => None,
                    _ => Some(near(rng, target)),
                },
            },
            2 => Order::Attack {
                attacker: support.unwrap_or(near(rng, target)),
                target,
                support: Some(attacker),
            },
            _ => Order::Attack {
                attacker: near(rng, target),
                target,
                support,
            },
        },
        Order::Retreat(chain) => {
            let mut squares = chain.squares().to_vec();
            match rng.below(3) {
                0 => {
                    let i = rng.below(squares.len());
                    squares[i] = near(rng, squares[i]);
                }
                1 if squares.len() > 1 => {
                    squares.pop();
                }
                _ => {
                    let last = squares[squares.len() - 1];
                    squares.push(near(rng, last));
                }
            }
            Chain::from_squares(&squares).map_or(Order::Stand, Order::Retreat)
        }
        Order::Option(n) if !is_napoleonic(game) => Order::Option(1 + (n + rng.below(4) as u8) % 5),
        Order::Option(_) | Order::GrandBattery(_) | Order::HorseBattery(_) => {
            random_option(rng, game)
        }
        Order::Stand => {
            let start = own_square(rng, game);
            Order::Retreat(random_chain(rng, start))
        }
        Order::Advance => Order::Stay,
        Order::Stay => Order::Advance,
        Order::Lose(k) => {
            let kinds = spec(game.variant()).kinds;
            let i = spec(game.variant()).slot(k);
            Order::Lose(kinds[(i + 1 + rng.below(kinds.len() - 1)) % kinds.len()])
        }
        Order::Pass => Order::Move(random_step(rng, game)),
    }
}

/// A plausible order for this position, legal or not.
fn candidate(rng: &mut XorShift, game: &Squares, legal: &[Order]) -> Order {
    let b = board();
    match rng.below(14) {
        0 | 1 => Order::Move(random_step(rng, game)),
        2 => {
            let mut p = random_step(rng, game);
            p.via = None;
            let mut q = random_step(rng, game);
            q.via = None;
            Order::MoveTwo(p, q)
        }
        3 | 4 => {
            let attacker = own_square(rng, game);
            let edge: Vec<Space> = b.edge(attacker).iter().collect();
            let target = if edge.is_empty() || rng.chance(15) {
                random_space(rng)
            } else {
                rng.pick(&edge)
            };
            let support = rng.chance(60).then(|| near(rng, target));
            Order::Attack {
                attacker,
                target,
                support,
            }
        }
        5 => {
            let start = game
                .attack()
                .map(|a| if rng.chance(50) { a.target } else { a.attacker })
                .unwrap_or_else(|| random_space(rng));
            Order::Retreat(random_chain(rng, start))
        }
        6 => random_option(rng, game),
        7 => rng.pick(&[Order::Pass, Order::Stand, Order::Advance, Order::Stay]),
        8 => Order::Lose(random_kind(rng, game)),
        _ if !legal.is_empty() => {
            let base = rng.pick(legal);
            mutate(rng, game, base)
        }
        _ => Order::Pass,
    }
}

/// Whether a two-step path through `via` is one a player may write (R11,
/// R12, S3; N25 for the horse battery): adjacent to both ends, not a
/// forest, empty or the own reserve.
fn middle_ok(game: &Squares, from: Space, via: Space, to: Space) -> bool {
    let b = board();
    b.adjacent(from).contains(via)
        && b.adjacent(via).contains(to)
        && !b.is_forest(via)
        && (via == b.reserve(game.to_move())
            || (b.reserve_owner(via).is_none() && !game.occupied().contains(via)))
}

/// The listed order that `given` denotes under the notation's allowances
/// (docs/squares-engine.md): the same order; a listed move of a unit that
/// moves two steps (cavalry; in the variant also HC and HB, N25) written
/// without its middle square or with any legal one, also where one step
/// would do, but never into a forest (S3); two parts of a two-unit move
/// written the other way round, when that sequence is legal too (S2, N37).
fn denoted(game: &Squares, legal: &[Order], given: &Order) -> Option<Order> {
    if legal.contains(given) {
        return Some(*given);
    }
    let same = |a: &Step, b: &Step| step_key(a) == step_key(b);
    let two_steps = |s: &Step| {
        s.unit
            .or_else(|| game.unit_at(s.from).map(|u| u.kind()))
            .is_some_and(|k| matches!(mobility(k), Mobility::TwoSteps { .. }))
    };
    legal.iter().copied().find(|listed| match (listed, given) {
        (Order::Move(l), Order::Move(g)) => {
            same(l, g)
                && match g.via {
                    None => true,
                    Some(v) => {
                        two_steps(l) && !board().is_forest(g.to) && middle_ok(game, g.from, v, g.to)
                    }
                }
        }
        (Order::MoveTwo(l1, l2), Order::MoveTwo(g1, g2)) => {
            same(l1, g2)
                && same(l2, g1)
                && g1.via.is_none()
                && g2.via.is_none()
                && two_in_sequence(game, g1, g2)
        }
        _ => false,
    })
}

fn is_turn_order(o: &Order) -> bool {
    matches!(
        o,
        Order::Move(_) | Order::MoveTwo(..) | Order::Attack { .. } | Order::Pass
    )
}

/// The variant's `Game` answers an order as the engine (`result`, obtained
/// in the variant's notation) does: the same events, or the same refusal
/// with the same text and rule as the engine's in the variant's notation.
fn check_variant_answer(
    wrapper: &Napoleonic,
    order: Order,
    result: &Result<Vec<Event>, Refusal>,
    pos: &str,
) -> Checked {
    let mut w = wrapper.clone();
    match (w.apply(&NapOrder(order)), result) {
        (Ok(events), Ok(expected)) => {
            let inner: Vec<Event> = events.into_iter().map(|e| e.0).collect();
            prop_assert_eq!(&inner, expected, "{}: {}", pos, order);
        }
        (Err(refusal), Err(expected)) => {
            let (text, rule) = (
                expected.display_in(&NAPOLEONIC).to_string(),
                expected.rule_in(Variant::Napoleonic),
            );
            prop_assert_eq!(&refusal.0, expected, "{}: {}", pos, order);
            prop_assert_eq!(refusal.to_string(), text, "{}: {}", pos, order);
            prop_assert_eq!(refusal.rule(), rule, "{}: {}", pos, order);
        }
        (answer, _) => {
            return Err(fail(format!(
                "{pos}: {order}: the variant's Game answers {answer:?}, the engine {result:?}"
            )))
        }
    }
    Ok(())
}

/// Tries `n` plausible orders: those that denote a listed order must act as
/// it; the others must be refused with a rule and change nothing. In the
/// variant its own `Game` answers every one of them alike.
fn check_unlisted(game: &Squares, rng: &mut XorShift, n: usize) -> Checked {
    let pos = game.to_string();
    let legal = game.legal_orders();
    let wrapper = if is_napoleonic(game) {
        Some(Napoleonic::from_position(&pos).map_err(|e| fail(e.message))?)
    } else {
        None
    };
    for _ in 0..n {
        let order = candidate(rng, game, &legal);
        // Any order value prints canonically and reads back.
        let n = notation_of(game);
        prop_assert_eq!(
            Order::read(&order.display_in(n).to_string(), n).ok(),
            Some(order)
        );
        let mut after = game.clone();
        let result = after.apply(&order);
        if let Some(w) = &wrapper {
            check_variant_answer(w, order, &result, &pos)?;
        }
        match denoted(game, &legal, &order) {
            Some(listed) => {
                let events = result.map_err(|r| {
                    fail(format!("{pos}: {order} (= listed {listed}) refused: {r}"))
                })?;
                let mut fast = game.clone();
                let mut fast_events = Vec::new();
                fast.apply_listed(listed, &mut fast_events);
                prop_assert_eq!(events, fast_events, "{}: {} vs {}", pos, order, listed);
                prop_assert_eq!(&after, &fast, "{}: {} vs {}", pos, order, listed);
            }
            None => match result {
                Ok(events) => {
                    return Err(fail(format!(
                        "{pos}: unlisted {} accepted ({events:?}); legal: {}",
                        order.display_in(n),
                        listing(&legal, n)
                    )))
                }
                Err(refusal) => {
                    prop_assert_eq!(&after, game, "{}: refused {} changed the state", pos, order);
                    let rule = refusal.rule_in(game.variant());
                    prop_assert!(
                        is_rule_id(rule.0, game.variant()),
                        "{}: {} refused citing {:?}",
                        pos,
                        order,
                        rule.0
                    );
                    prop_assert!(!refusal.to_string().is_empty());
                    match (game.pending(), game.outcome()) {
                        (_, Some(_)) => {
                            prop_assert_eq!(rule.0, "R27", "{}: {} after the end", pos, order)
                        }
                        (Some(p), None) => {
                            // An order of the wrong kind for the decision
                            // says what the game waits for.
                            let wrong_kind = match game.attack() {
                                None => !is_turn_order(&order),
                                Some(_) => is_turn_order(&order),
                            };
                            if wrong_kind {
                                prop_assert!(
                                    matches!(
                                        refusal,
                                        Refusal::NotNow { expected, .. } if expected == p.kind
                                    ),
                                    "{}: {} refused as {:?}",
                                    pos,
                                    order,
                                    refusal
                                );
                            }
                        }
                        (None, None) => {}
                    }
                }
            },
        }
    }
    Ok(())
}

// ----- whole games -------------------------------------------------------------

fn opening(variant: Variant, gray_first: bool) -> Squares {
    let first = if gray_first { Side::Gray } else { Side::Blue };
    let game = Squares::opening_of(variant, first);
    if variant == Variant::Napoleonic {
        assert_eq!(Napoleonic::opening(first).squares(), &game);
    }
    game
}

/// After the end: nothing listed, everything refused with R27, nothing changed.
fn check_finished(game: &Squares, rng: &mut XorShift, tried: &[Order]) -> Checked {
    let pos = game.to_string();
    prop_assert!(game.outcome().is_some());
    prop_assert!(game.legal_orders().is_empty(), "{}", pos);
    prop_assert!(game.pending().is_none(), "{}", pos);
    let mut orders: Vec<Order> = tried.to_vec();
    for _ in 0..20 {
        orders.push(candidate(rng, game, tried));
    }
    for order in orders {
        let mut after = game.clone();
        let refusal = after
            .apply(&order)
            .err()
            .ok_or_else(|| fail(format!("{pos}: {order} accepted after the end")))?;
        prop_assert_eq!(&refusal, &Refusal::GameOver);
        prop_assert_eq!(refusal.rule().0, "R27");
        prop_assert_eq!(&after, game);
    }
    Ok(())
}

/// Reads a generated position, then checks it, every listed order, unlisted
/// orders, and a short random continuation. With `consistent`, the position
/// is one play could reach in shape: the side starting a double turn holds
/// no runs, and an attack in progress arises only by playing one (attacks
/// preferred in the continuation); otherwise the layout may also ask for an
/// attack in progress written into the string.
fn check_generated(variant: Variant, l: &Layout, consistent: bool, seed: u64) -> Checked {
    let spec = spec(variant);
    let base = layout_position_in(spec, l, consistent);
    let game: Squares = base
        .parse()
        .map_err(|e: orderly::games::ParseError| fail(format!("{base}: refused: {e}")))?;
    prop_assert_eq!(game.to_string(), base.clone(), "string -> state -> string");
    let text = if consistent {
        base
    } else {
        // A written advance of the heavy cavalry into a forest is the case
        // of napoleonic_heavy_cavalry_is_never_offered_a_forest_advance.
        with_attack_in(spec, &base, &game, l)
            .filter(|t| !heavy_cavalry_forest_advance(t))
            .unwrap_or(base)
    };
    let mut game: Squares = text
        .parse()
        .map_err(|e: orderly::games::ParseError| fail(e.message))?;
    prop_assert_eq!(game.to_string(), text.clone(), "string -> state -> string");
    let mut rng = XorShift::new(seed);
    check_state(&game)?;
    for &order in &game.legal_orders() {
        check_listed(&game, order)?;
    }
    check_unlisted(&game, &mut rng, 60)?;
    for _ in 0..12 {
        let legal = game.legal_orders();
        if legal.is_empty() {
            check_finished(&game, &mut rng, &[])?;
            break;
        }
        let attacks: Vec<Order> = legal
            .iter()
            .copied()
            .filter(|o| matches!(o, Order::Attack { .. }))
            .collect();
        let order = if consistent && !attacks.is_empty() && rng.chance(60) {
            rng.pick(&attacks)
        } else {
            legal[rng.below(legal.len())]
        };
        game = check_listed(&game, order)?.0;
        if game.attack().is_some() {
            // Every decision of an attack reached by play, both ways.
            for &o in &game.legal_orders() {
                check_listed(&game, o)?;
            }
        }
        check_unlisted(&game, &mut rng, 8)?;
    }
    Ok(())
}

/// Whether a position string holds an attack at its advance whose
/// attacking unit is the heavy cavalry and whose target is a forest.
fn heavy_cavalry_forest_advance(text: &str) -> bool {
    let Ok(game) = text.parse::<Squares>() else {
        return false;
    };
    game.attack().is_some_and(|a| {
        a.stage == Stage::Advance
            && board().is_forest(a.target)
            && game
                .unit_at(a.attacker)
                .is_some_and(|u| u.kind() == K::HeavyCavalry)
    })
}

/// Random play by the engine in the variant; at each position the
/// variant's `Game` is asked, from a thread in the Civil War notation (every
/// thread's default, the service's included), for the listed orders, a few
/// unlisted ones and the order played: it must answer in its own notation.
fn variant_game_from_any_thread(gray_first: bool, choices: &[u32], seed: u64) -> Checked {
    let mut rng = XorShift::new(seed);
    let mut game = opening(Variant::Napoleonic, gray_first);
    for &c in choices {
        let legal = game.legal_orders();
        if legal.is_empty() {
            break;
        }
        let pos = game.to_string();
        let wrapper = Napoleonic::from_position(&pos).map_err(|e| fail(e.message))?;
        check_variant_orders(&wrapper, &legal, &pos)?;
        for _ in 0..6 {
            let order = candidate(&mut rng, &game, &legal);
            let result = game.clone().apply(&order);
            check_variant_answer(&wrapper, order, &result, &pos)?;
        }
        let order = legal[c as usize % legal.len()];
        let mut next = game.clone();
        let events = next.apply(&order).map_err(|r| {
            fail(format!(
                "{pos}: listed {} refused: {}",
                order.display_in(&NAPOLEONIC),
                r.display_in(&NAPOLEONIC)
            ))
        })?;
        check_variant_apply(&game, order, &events, &next)?;
        game = next;
    }
    Ok(())
}

/// A group of clean units (a reserve or the eliminated) by [side][slot] in
/// canonical form.
fn group_text(spec: &GameSpec, counts: &[[u32; MAX_KINDS]; 2]) -> String {
    let mut out = String::new();
    for (side, by_slot) in counts.iter().enumerate() {
        for (slot, &n) in by_slot.iter().enumerate().take(spec.kinds.len()) {
            if n > 1 {
                out.push_str(&n.to_string());
            }
            if n > 0 {
                let c = spec.letters[slot];
                out.push(if side == 0 { c } else { c.to_ascii_lowercase() });
            }
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// A position of the variant with guns in action: the side to move has an
/// artillery or its horse battery next to an enemy unit of any type, and a
/// second unit (mostly a gun) next to the same unit; the other units are
/// scattered over the board, the reserves and the eliminated. Grand
/// Batteries (N18), the horse battery's list (N19, N33), N20 and N21 arise
/// here far more often than in random play.
fn battery_position(seed: u64) -> String {
    let spec = &NAPOLEONIC_SPEC;
    let b = board();
    let mut rng = XorShift::new(seed);
    let mover = if rng.chance(50) {
        Side::Blue
    } else {
        Side::Gray
    };
    let board_squares: Vec<Space> = Space::all()
        .filter(|&s| b.reserve_owner(s).is_none())
        .collect();
    let (target, attacker, support) = loop {
        let t = rng.pick(&board_squares);
        let edge: Vec<Space> = b
            .edge(t)
            .iter()
            .filter(|&s| b.reserve_owner(s).is_none())
            .collect();
        if edge.is_empty() {
            continue;
        }
        let a = rng.pick(&edge);
        let near: Vec<Space> = b
            .adjacent(t)
            .iter()
            .filter(|&s| b.reserve_owner(s).is_none() && s != a)
            .collect();
        if !near.is_empty() {
            break (t, a, rng.pick(&near));
        }
    };
    let attacker_kind = if rng.chance(65) {
        K::Artillery
    } else {
        K::HorseBattery
    };
    let support_kind = match (attacker_kind, rng.below(4)) {
        (K::Artillery, 0 | 1) => K::Artillery,
        (K::Artillery, 2) => K::HorseBattery,
        (K::HorseBattery, 0 | 1) => K::Artillery,
        _ => rng.pick(&NAPOLEONIC_KINDS[..3]),
    };
    let mut defender_kind = rng.pick(&NAPOLEONIC_KINDS);
    let forest = |s: Space| b.is_forest(s);
    if defender_kind == K::HeavyCavalry && forest(target) {
        defender_kind = K::Infantry;
    }
    // What is left of each army, by [side][slot].
    let mut left = [[0u32; MAX_KINDS]; 2];
    for row in &mut left {
        row[..7].copy_from_slice(&NAPOLEONIC_ARMY_COUNTS);
    }
    let (m, e) = (mover.index(), mover.opponent().index());
    let letter = |side: usize, kind: K| {
        let c = spec.letters[spec.slot(kind)];
        if side == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        }
    };
    let mut placed = vec![
        (attacker, letter(m, attacker_kind)),
        (support, letter(m, support_kind)),
        (target, letter(e, defender_kind)),
    ];
    left[m][spec.slot(attacker_kind)] -= 1;
    left[m][spec.slot(support_kind)] -= 1;
    left[e][spec.slot(defender_kind)] -= 1;
    let mut reserves = [[[0u32; MAX_KINDS]; 2]; 2];
    let mut eliminated = [[0u32; MAX_KINDS]; 2];
    let board_rate = 20 + rng.below(50) as u64;
    for side in 0..2 {
        for slot in 0..7 {
            for _ in 0..left[side][slot] {
                let kind = spec.kinds[slot];
                let free: Vec<Space> = board_squares
                    .iter()
                    .copied()
                    .filter(|&s| {
                        let taken = placed.iter().any(|&(p, _)| p == s);
                        // N6: never the heavy cavalry on a forest.
                        let barred = kind == K::HeavyCavalry && forest(s);
                        !(taken || barred)
                    })
                    .collect();
                if rng.chance(board_rate) && !free.is_empty() {
                    placed.push((rng.pick(&free), letter(side, kind)));
                } else if rng.chance(12) {
                    eliminated[side][slot] += 1;
                } else {
                    reserves[side][side][slot] += 1;
                }
            }
        }
    }
    let ranks = ranks_field(
        &placed,
        &group_text(spec, &reserves[0]),
        &group_text(spec, &reserves[1]),
    );
    let turn = spec.side_letters[m];
    let (half, passes) = match rng.below(4) {
        0 => ("1", turn.to_string()),
        _ => ("", "-".to_string()),
    };
    format!(
        "napoleonic {ranks} {} {turn}{half} {passes} {} -",
        group_text(spec, &eliminated),
        10 + rng.below(80)
    )
}

/// The ranks field of a position with `units` (a square and its letter)
/// on the board and the two reserve groups given.
fn ranks_field(units: &[(Space, char)], north: &str, south: &str) -> String {
    let mut out = String::new();
    let mut index = 0;
    for (r, &size) in RANK_SIZES.iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        if r == 0 || r == RANK_SIZES.len() - 1 {
            out.push_str(if r == 0 { north } else { south });
            index += 1;
            continue;
        }
        let mut empty = 0;
        for _ in 0..size {
            match units.iter().find(|(s, _)| s.index() == index) {
                None => empty += 1,
                Some((_, c)) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(*c);
                }
            }
            index += 1;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

/// Every decision of every attack listed in a generated position, explored
/// branch by branch to the end of the attack.
fn check_attack_trees(variant: Variant, l: &Layout) -> Checked {
    check_attacks_from(&layout_position_in(spec(variant), l, true))
}

/// Every decision of every attack listed in the position `text`, explored
/// branch by branch to the end of the attack (at most 400 orders in all).
fn check_attacks_from(text: &str) -> Checked {
    let game: Squares = text
        .parse()
        .map_err(|e: orderly::games::ParseError| fail(format!("{text}: refused: {e}")))?;
    check_state(&game)?;
    let attacks: Vec<Order> = game
        .legal_orders()
        .into_iter()
        .filter(|o| matches!(o, Order::Attack { .. }))
        .collect();
    let mut budget = 400;
    for order in attacks {
        explore_attack(&game, order, &mut budget)?;
    }
    Ok(())
}

fn explore_attack(game: &Squares, order: Order, budget: &mut usize) -> Checked {
    if *budget == 0 {
        return Ok(());
    }
    *budget -= 1;
    let (next, _) = check_listed(game, order)?;
    if next.attack().is_some() && next.outcome().is_none() {
        for o in next.legal_orders() {
            explore_attack(&next, o, budget)?;
        }
    }
    Ok(())
}

/// Random play from the opening, checking every position on the way and
/// the chosen order both ways, plus a few unlisted orders per step.
fn random_play(variant: Variant, gray_first: bool, choices: &[u32], seed: u64) -> Checked {
    let mut rng = XorShift::new(seed);
    let mut game = opening(variant, gray_first);
    prop_assert_eq!(game.turn(), 1);
    check_state(&game)?;
    for &c in choices {
        let legal = game.legal_orders();
        if legal.is_empty() {
            break;
        }
        check_unlisted(&game, &mut rng, 4)?;
        let order = legal[c as usize % legal.len()];
        let (next, events) = check_listed(&game, order)?;
        check_play_flags(&next)?;
        // The same order from the position read back from its string.
        let mut reread: Squares = game
            .to_string()
            .parse()
            .map_err(|e: orderly::games::ParseError| fail(e.message))?;
        let reread_events = reread
            .apply(&order)
            .map_err(|r| fail(format!("{game}: reread refuses {order}: {r}")))?;
        prop_assert_eq!(reread_events, events, "{}: {}", game, order);
        prop_assert_eq!(reread.to_string(), next.to_string(), "{}: {}", game, order);
        game = next;
    }
    Ok(())
}

/// At a random position reached by play: every listed order, both ways,
/// and many unlisted ones.
fn listed_orders_at(variant: Variant, gray_first: bool, choices: &[u32], seed: u64) -> Checked {
    let game = play_in(variant, gray_first, choices);
    check_state(&game)?;
    check_play_flags(&game)?;
    let legal = game.legal_orders();
    for &order in &legal {
        check_listed(&game, order)?;
    }
    let mut rng = XorShift::new(seed);
    check_unlisted(&game, &mut rng, 80)?;
    if game.outcome().is_some() {
        check_finished(&game, &mut rng, &[])?;
    }
    Ok(())
}

/// A complete random game from the opening: each position has legal orders
/// until the game ends (within 2,000 orders or not), and the end is final.
fn complete_game(variant: Variant, gray_first: bool, seed: u64) -> Checked {
    let mut rng = XorShift::new(seed);
    let mut game = opening(variant, gray_first);
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut last_legal = Vec::new();
    let mut n = 0;
    while n < 2000 {
        legal.clear();
        game.legal_orders_into(&mut legal);
        if legal.is_empty() {
            break;
        }
        prop_assert!(game.outcome().is_none());
        if n % 25 == 0 {
            check_state(&game)?;
            check_play_flags(&game)?;
        }
        let order = legal[rng.below(legal.len())];
        last_legal.clone_from(&legal);
        events.clear();
        game.apply_listed(order, &mut events);
        n += 1;
    }
    check_state(&game)?;
    if let Some(outcome) = game.outcome() {
        prop_assert_eq!(events.last(), Some(&Event::GameOver(outcome)));
        check_finished(&game, &mut rng, &last_legal)?;
    } else {
        prop_assert_eq!(n, 2000);
        prop_assert!(!game.legal_orders().is_empty());
    }
    Ok(())
}

/// Layouts with most units on the board and no attack written in, for the
/// attack trees.
fn crowded_layout() -> impl Strategy<Value = Layout> {
    layout().prop_map(|mut l| {
        l.board_rate = 55 + l.board_rate % 40;
        l.invader = None;
        l.attack = None;
        l
    })
}

proptest! {
    #![proptest_config(config(48))]

    /// Random play from the opening, checking every position on the way and
    /// the chosen order both ways, plus a few unlisted orders per step.
    #[test]
    fn random_play_keeps_every_invariant(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..250),
        seed in any::<u64>(),
    ) {
        random_play(Variant::CivilWar, gray_first, &choices, seed)?;
    }

    /// As above, in the Napoleonic variant.
    #[test]
    fn napoleonic_random_play_keeps_every_invariant(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..250),
        seed in any::<u64>(),
    ) {
        random_play(Variant::Napoleonic, gray_first, &choices, seed)?;
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// At a random position reached by play: every listed order, both ways,
    /// and many unlisted ones.
    #[test]
    fn every_listed_order_applies_alike(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..400),
        seed in any::<u64>(),
    ) {
        listed_orders_at(Variant::CivilWar, gray_first, &choices, seed)?;
    }

    /// As above, in the Napoleonic variant.
    #[test]
    fn napoleonic_every_listed_order_applies_alike(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..400),
        seed in any::<u64>(),
    ) {
        listed_orders_at(Variant::Napoleonic, gray_first, &choices, seed)?;
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// Positions generated directly as strings, anything the reader accepts:
    /// accepted, canonical, and as sound as positions reached by play; then a
    /// short random continuation.
    #[test]
    fn generated_positions_behave(l in layout(), seed in any::<u64>()) {
        check_generated(Variant::CivilWar, &l, false, seed)?;
    }

    /// As above, with the variant's 16-unit army (N2).
    #[test]
    fn napoleonic_generated_positions_behave(l in layout(), seed in any::<u64>()) {
        check_generated(Variant::Napoleonic, &l, false, seed)?;
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// As above, in the shape play leaves positions (the side starting a
    /// double turn holds no runs, no `~` between turns), with attacks in
    /// progress only as reached by playing them.
    #[test]
    fn generated_consistent_positions_behave(l in layout(), seed in any::<u64>()) {
        check_generated(Variant::CivilWar, &l, true, seed)?;
    }

    /// As above, in the Napoleonic variant.
    #[test]
    fn napoleonic_generated_consistent_positions_behave(l in layout(), seed in any::<u64>()) {
        check_generated(Variant::Napoleonic, &l, true, seed)?;
    }
}

proptest! {
    #![proptest_config(config(24))]

    /// Crowded generated positions: every attack listed, and every decision
    /// of it, branch by branch, both ways (defences, options, retreats,
    /// second chances, advances).
    #[test]
    fn attack_trees_behave(l in crowded_layout()) {
        check_attack_trees(Variant::CivilWar, &l)?;
    }

    /// As above, in the Napoleonic variant (charges, Grand Batteries, the
    /// horse battery's options).
    #[test]
    fn napoleonic_attack_trees_behave(l in crowded_layout()) {
        check_attack_trees(Variant::Napoleonic, &l)?;
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// Positions with the variant's guns in action (see `battery_position`):
    /// every attack listed and every decision of it, branch by branch.
    #[test]
    fn napoleonic_batteries_behave(seed in any::<u64>()) {
        check_attacks_from(&battery_position(seed))?;
    }
}

proptest! {
    #![proptest_config(config(24))]

    /// The variant's own `Game` writes and reads its notation (British and
    /// French, F codes, its unit words) whatever notation the calling
    /// thread is in: orders, events and refusals alike.
    #[test]
    fn napoleonic_game_writes_its_notation_from_any_thread(
        gray_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
        seed in any::<u64>(),
    ) {
        variant_game_from_any_thread(gray_first, &choices, seed)?;
    }
}

/// N6 in positions read from strings: an attack in progress written into a
/// position never offers the heavy cavalry an advance into a forest (play
/// never reaches that decision; a string must not reach it either): each
/// side's heavy cavalry next to each forest it shares an edge with.
#[test]
fn napoleonic_heavy_cavalry_is_never_offered_a_forest_advance() {
    let b = board();
    let mut cases = 0;
    for side in Side::BOTH {
        let (letter, north, south, turn) = match side {
            Side::Blue => ('K', "6IG2L2AH3C", "6ig2l2ah3ck", 'b'),
            Side::Gray => ('k', "6IG2L2AH3CK", "6ig2l2ah3c", 'f'),
        };
        for from in Space::all().filter(|&s| b.reserve_owner(s).is_none() && !b.is_forest(s)) {
            for forest in (b.edge(from) & b.forests()).iter() {
                let ranks = ranks_field(&[(from, letter)], north, south);
                let text = format!(
                    "napoleonic {ranks} - {turn} - 20 {}x{}/V",
                    from.display_in(&NAPOLEONIC),
                    forest.display_in(&NAPOLEONIC)
                );
                cases += 1;
                if let Ok(game) = text.parse::<Squares>() {
                    let legal = game.legal_orders();
                    assert!(
                        !legal.contains(&Order::Advance),
                        "N6: {text} offers the heavy cavalry ADVANCE into {forest}"
                    );
                }
            }
        }
    }
    assert!(cases >= 8, "{cases} squares next to a forest");
}

/// The position string holds the whole game (R7: units are individuals,
/// but a string names them only by type and marks), so the unit a reserve
/// loses (R17: its owner's choice, the one least able to act) must not
/// depend on how the engine numbers identical-looking units: a game reached
/// by play and the same game read back from its string lose the same one.
/// Here the French reserve holds an infantry resting after a retreat (`i_`,
/// displaced into it by the heavy cavalry) and the attacking infantry that
/// retreated after option 1 (`i>_`).
#[test]
fn a_game_and_its_string_lose_the_same_reserve_unit() {
    let start = "napoleonic I2I_G_LL_AA_2CK_/Il1/4/2/2ci_a/g1/1i1iI_/c1/aH_k1/CIi/2i_l_h_c \
                 - f1 f 1 -";
    let mut game = Napoleonic::from_position(start).expect("the position reads");
    for text in [
        "ATTACK F2L F2CL",
        "STAND",
        "ATTACK F1CR F1R SUPPORT F2CR",
        "STAND",
        "OPTION 1",
        "ATTACK F3L FR",
    ] {
        let order = game.parse_order(text).expect("the order reads");
        game.apply(&order)
            .unwrap_or_else(|r| panic!("{text} refused: {r}"));
    }
    let before = game.position();
    assert!(before.contains("2ii_i>_lhc"), "{before}");
    let mut reread = Napoleonic::from_position(&before).expect("the position reads back");
    let lose = game.parse_order("LOSE INFANTRY").expect("LOSE reads");
    game.apply(&lose).expect("the French lose an infantry");
    reread.apply(&lose).expect("the French lose an infantry");
    assert_eq!(
        game.position(),
        reread.position(),
        "LOSE INFANTRY in {before}"
    );
}

proptest! {
    #![proptest_config(config(64))]

    /// Complete random games from the opening: each position has legal
    /// orders until the game ends (within 2,000 orders or not), and the end
    /// is final.
    #[test]
    fn complete_games_end_cleanly(gray_first in any::<bool>(), seed in any::<u64>()) {
        complete_game(Variant::CivilWar, gray_first, seed)?;
    }

    /// As above, in the Napoleonic variant.
    #[test]
    fn napoleonic_complete_games_end_cleanly(gray_first in any::<bool>(), seed in any::<u64>()) {
        complete_game(Variant::Napoleonic, gray_first, seed)?;
    }
}
