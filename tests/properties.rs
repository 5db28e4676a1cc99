//! Property tests of the SQUARES engine over random legal play from the
//! opening and over positions generated directly as position strings.
//!
//! What holds everywhere (see `check_state`, `check_listed`, `check_unlisted`):
//! - every listed order applies through the checked `Game::apply` exactly as
//!   through `apply_listed` (same events, same state);
//! - a plausible order that is not listed (after normalising cavalry paths
//!   and part order the way the notation allows) is refused with a rule
//!   R1..R28 and leaves the state unchanged;
//! - 16 units per side (9 infantry, 3 artillery, 4 cavalry) are on the board,
//!   in a reserve or eliminated; points are R26's value of the eliminations;
//! - position strings round-trip, and a position read back from its string
//!   behaves like the original (same legal orders, same results);
//! - listed orders print and parse back, have no duplicates (also none that
//!   denote the same move), and exist exactly while the game is not over;
//! - a decision with a single legal order is never left pending;
//! - a finished game lists nothing and refuses everything with R27;
//! - the listed single moves, attacks and two-cavalry moves are exactly those
//!   of an independent reading of R5-R16 and S2/S3, listed retreats are legal
//!   retreats (R21-R24), STAND/OPTION/LOSE/ADVANCE are offered as R17-R20 say;
//! - turn order and numbering (R1, R3-R5, S1) and the R6/R7/R21 bookkeeping
//!   of runs and rest follow each action.
//!
//! `PROPTEST_CASES=n` runs every property with `n` cases instead of its default.

mod common;

use std::collections::HashSet;

use common::*;
use orderly::games::squares::{
    board, Chain, Event, Half, Order, Refusal, Side, Space, SpaceSet, Squares, Stage, Step, UnitId,
    UnitKind,
};
use orderly::games::{CitesRule, DecisionKind, EndReason, Game, GameResult, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

type Checked = Result<(), TestCaseError>;

fn is_rule_id(id: &str) -> bool {
    match id.strip_prefix('R') {
        Some(n) if !n.starts_with('0') => n.parse::<u32>().is_ok_and(|n| (1..=28).contains(&n)),
        _ => false,
    }
}

fn listing(legal: &[Order]) -> String {
    legal
        .iter()
        .map(|o| o.to_string())
        .collect::<Vec<_>>()
        .join(" | ")
}

// ----- per-position checks ---------------------------------------------------

/// Everything that must hold of one position, whatever its origin.
fn check_state(game: &Squares) -> Checked {
    let pos = game.to_string();
    prop_assert_eq!(game.position(), pos.clone());

    // Position string -> state -> string.
    let back: Squares = pos
        .parse()
        .map_err(|e| fail(format!("{pos}: the engine refuses its own string: {e}")))?;
    prop_assert_eq!(back.to_string(), pos.clone(), "round trip");
    let via_trait = Squares::from_position(&pos).map_err(|e| fail(e.message))?;
    prop_assert_eq!(via_trait.to_string(), pos.clone());

    // Conservation, read independently from the string.
    let counts = count_units(&pos).map_err(fail)?;
    army_complete(&counts).map_err(|e| fail(format!("{pos}: {e}")))?;
    for side in Side::BOTH {
        for kind in common::CIVIL_WAR_KINDS {
            prop_assert_eq!(
                game.lost(side, kind),
                counts.eliminated[side.index()][kind_index(kind)],
                "lost() vs string in {}",
                pos
            );
        }
    }
    // ... and through the API.
    let b = board();
    for side in Side::BOTH {
        let s = side.index();
        let mut on_board = [0u32; 3];
        let mut in_reserve = [[0u32; 3]; 2];
        let mut eliminated = [0u32; 3];
        for u in game.units_of(side) {
            let k = kind_index(u.kind());
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
        // R26, computed from the string's eliminated field.
        prop_assert_eq!(
            game.points(side),
            r26_points(&counts.eliminated, s),
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

fn check_outcome(game: &Squares, pos: &str, counts: &Counts) -> Checked {
    let blue = game.points(Side::Blue);
    let gray = game.points(Side::Gray);
    // Units standing in the enemy reserve: Blue's in GR, Gray's in BR.
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
                other => return Err(fail(format!("unknown end {other:?} in {pos}"))),
            }
        }
    }
    Ok(())
}

fn step_key(s: &Step) -> (Space, Space, Option<UnitKind>) {
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
        listing(&legal)
    );
    let texts: HashSet<String> = legal.iter().map(|o| o.to_string()).collect();
    prop_assert_eq!(texts.len(), legal.len(), "duplicate texts in {}", pos);
    let mut moves = HashSet::new();
    for o in &legal {
        let key = match o {
            Order::Move(s) => vec![step_key(s)],
            Order::MoveTwo(p, q) => {
                let mut k = vec![step_key(p), step_key(q)];
                k.sort();
                k
            }
            _ => continue,
        };
        prop_assert!(
            moves.insert(key),
            "two listed orders denote the same move ({}) in {}",
            o,
            pos
        );
    }

    // Each listed order prints and parses back (any case).
    for o in &legal {
        let text = o.to_string();
        let parsed = Order::parse(&text).map_err(|e| fail(format!("{text}: {e}")))?;
        prop_assert_eq!(parsed, *o, "{} in {}", text, pos);
        prop_assert_eq!(game.parse_order(&text.to_lowercase()).ok(), Some(*o));
    }

    check_turn_model(game, &legal, pos)?;
    check_decision_model(game, &legal, pos)?;

    // The orders fit the pending decision.
    let fields: Vec<&str> = pos.split(' ').collect();
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
                prop_assert!(
                    matches!(
                        o,
                        Order::Move(_) | Order::MoveTwo(..) | Order::Attack { .. } | Order::Pass
                    ),
                    "{} listed for a turn in {}",
                    o,
                    pos
                );
            }
            // R3, R4, read from the string: PASS on an ordinary turn of a
            // side whose last turn was not a PASS.
            let mover = game.to_move().letter();
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
            for o in &legal {
                let fits = match p.kind {
                    DecisionKind::Defence | DecisionKind::SecondChance => {
                        matches!(o, Order::Retreat(_) | Order::Stand)
                    }
                    DecisionKind::AttackOption => matches!(o, Order::Option(1..=5)),
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
    let events = checked
        .apply(&order)
        .map_err(|r| fail(format!("{pos}: listed {order} refused: {r} ({})", r.rule())))?;
    let mut fast = game.clone();
    let mut fast_events = Vec::new();
    fast.apply_listed(order, &mut fast_events);
    prop_assert_eq!(&events, &fast_events, "{}: {}", pos, order);
    prop_assert_eq!(&checked, &fast, "{}: {}", pos, order);

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
    check_transition(game, order, &checked)?;
    check_bookkeeping(game, order, &events, &checked)?;
    if checked.outcome().is_none() && checked.attack().is_some() {
        let next = checked.legal_orders();
        prop_assert!(
            next.len() != 1,
            "{}: after {} the only choice {} was left pending in {}",
            pos,
            order,
            listing(&next),
            checked
        );
    }
    Ok((checked, events))
}

// ----- an independent reading of the rules ----------------------------------------
//
// Written from squares-rulings.md and docs/squares-engine.md, not from the
// engine's code: the single-unit moves (R5, R9-R13, S3), the two-cavalry
// moves as the pairs of steps they achieve (R11b, S2) and the attacks
// (R14-R16, R21, R25) of a turn are computed here and compared with the
// listed ones; the decisions inside an attack are checked for soundness.

/// Whether a unit may be the moving unit: not resting (R21), not at the
/// consecutive-turn limit (R6).
fn may_move(game: &Squares, u: UnitId) -> bool {
    let s = game.unit_state(u);
    !s.inactive && s.move_run < 2
}

fn eligible_in_reserve(game: &Squares, kind: UnitKind) -> usize {
    game.reserve_units(game.to_move())
        .filter(|&u| u.kind() == kind && may_move(game, u))
        .count()
}

/// The squares a unit of the side to move could stand on and order from:
/// its board squares with the unit there, and its reserve once per type
/// with an eligible unit.
fn movers(game: &Squares) -> Vec<(Space, UnitKind, Option<UnitKind>)> {
    let side = game.to_move();
    let mut out = Vec::new();
    for sq in game.occupied_by(side).iter() {
        if let Some(u) = game.unit_at(sq) {
            if may_move(game, u) {
                out.push((sq, u.kind(), None));
            }
        }
    }
    for kind in common::CIVIL_WAR_KINDS {
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
            let via = match kind {
                UnitKind::Infantry => {
                    let whole = b.corner(from).contains(to) || forest;
                    let reach = b.adjacent(from).contains(to);
                    if !reach || (whole && !whole_allowed) {
                        continue;
                    }
                    None
                }
                UnitKind::Artillery => {
                    if !b.adjacent(from).contains(to) || (forest && !whole_allowed) {
                        continue;
                    }
                    None
                }
                UnitKind::Cavalry => {
                    if b.adjacent(from).contains(to) {
                        None
                    } else if forest {
                        continue;
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
                other => panic!("{other:?} is not a Civil War unit type"),
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

/// One cavalry step of a two-cavalry move, given what is occupied at that
/// moment: edge or corner, into an empty clear square or the own reserve.
fn cavalry_step_ok(game: &Squares, occupied: SpaceSet, from: Space, to: Space) -> bool {
    let b = board();
    b.adjacent(from).contains(to)
        && (to == b.reserve(game.to_move())
            || (b.reserve_owner(to).is_none() && !b.is_forest(to) && !occupied.contains(to)))
}

/// Whether two cavalry steps are legal in this sequence (R11b, S2).
fn two_in_sequence(game: &Squares, p: &Step, q: &Step) -> bool {
    let b = board();
    let reserve = b.reserve(game.to_move());
    let cavalry_at = |s: &Step| match s.unit {
        Some(UnitKind::Cavalry) => {
            s.from == reserve && eligible_in_reserve(game, UnitKind::Cavalry) > 0
        }
        Some(_) => false,
        None => {
            s.from != reserve
                && game.unit_at(s.from).is_some_and(|u| {
                    u.side() == game.to_move() && u.kind() == UnitKind::Cavalry && may_move(game, u)
                })
        }
    };
    if p.via.is_some() || q.via.is_some() || !cavalry_at(p) || !cavalry_at(q) {
        return false;
    }
    if p.from == q.from && !(p.from == reserve && eligible_in_reserve(game, UnitKind::Cavalry) >= 2)
    {
        return false;
    }
    let occupied = game.occupied();
    if !cavalry_step_ok(game, occupied, p.from, p.to) {
        return false;
    }
    let mut after = occupied & !p.from.set();
    if b.reserve_owner(p.to).is_none() {
        after |= p.to.set();
    }
    cavalry_step_ok(game, after, q.from, q.to)
}

type StepKey = (Space, Space, Option<UnitKind>);

fn pair_key(p: &Step, q: &Step) -> (StepKey, StepKey) {
    let (a, b) = (step_key(p), step_key(q));
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The two-cavalry moves of the turn, as the pairs of steps they achieve.
fn model_two_moves(game: &Squares) -> HashSet<(StepKey, StepKey)> {
    let b = board();
    let cavalry: Vec<(Space, Option<UnitKind>)> = movers(game)
        .into_iter()
        .filter(|&(_, k, _)| k == UnitKind::Cavalry)
        .map(|(s, _, u)| (s, u))
        .collect();
    let mut out = HashSet::new();
    for &(pf, pu) in &cavalry {
        for &(qf, qu) in &cavalry {
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
                        out.insert(pair_key(&p, &q));
                    }
                }
            }
        }
    }
    out
}

/// The enemy artillery that pins a unit on `square` (R16): `Ok(None)` when
/// free, `Ok(Some(a))` when it may act only into `a`, `Err(())` when it may
/// not attack or support at all.
fn pin(game: &Squares, square: Space) -> Result<Option<Space>, ()> {
    let enemy = game.to_move().opponent();
    let artillery: Vec<Space> = (board().adjacent(square) & game.occupied_by(enemy))
        .iter()
        .filter(|&s| {
            game.unit_at(s)
                .is_some_and(|u| u.kind() == UnitKind::Artillery)
        })
        .collect();
    match artillery.as_slice() {
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

/// The attacks of the turn (R14-R16, R21, R25, R6).
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
            if a.kind() == UnitKind::Artillery
                && !(defender.is_none() || defender == Some(UnitKind::Artillery))
            {
                continue;
            }
            if !pin_allows(game, attacker, target) {
                continue;
            }
            if !(a.kind() == UnitKind::Cavalry && defender == Some(UnitKind::Infantry)) {
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
                out.insert(Order::Attack {
                    attacker,
                    target,
                    support: Some(s),
                });
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
            .map(|o| o.to_string())
            .collect();
        let extra: Vec<String> = listed_moves
            .difference(&expected_moves)
            .map(|o| o.to_string())
            .collect();
        return Err(fail(format!(
            "{pos}: single moves differ from R5/R9-R13/S3: not listed {missing:?}, listed against the rules {extra:?}"
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
            .map(|o| o.to_string())
            .collect();
        let extra: Vec<String> = listed_attacks
            .difference(&expected_attacks)
            .map(|o| o.to_string())
            .collect();
        return Err(fail(format!(
            "{pos}: attacks differ from R14-R16: not listed {missing:?}, listed against the rules {extra:?}"
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
            let both_reserve = p.unit.is_some() && q.unit.is_some();
            if both_reserve {
                prop_assert!(p.to < q.to, "{}: {} not in board order (S2)", pos, o);
            } else if two_in_sequence(game, q, p) {
                prop_assert!(
                    (p.from, p.to) < (q.from, q.to),
                    "{}: {} legal both ways but not sorted (S2)",
                    pos,
                    o
                );
            }
            listed_pairs.insert(pair_key(p, q));
        }
    }
    let expected_pairs = model_two_moves(game);
    if listed_pairs != expected_pairs {
        let missing: Vec<_> = expected_pairs.difference(&listed_pairs).collect();
        let extra: Vec<_> = listed_pairs.difference(&expected_pairs).collect();
        return Err(fail(format!(
            "{pos}: two-cavalry moves differ from R11b/S2: not listed {missing:?}, listed against the rules {extra:?}"
        )));
    }
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

/// Soundness of one listed retreat of the unit on `from` (R21-R24, S8).
fn retreat_sound(game: &Squares, from: Space, chain: &Chain, attacked: bool) -> Result<(), String> {
    let b = board();
    let Some(r) = game.unit_at(from) else {
        return Err(format!("no unit on {from} to retreat"));
    };
    let side = r.side();
    let reserve = b.reserve(side);
    let squares = chain.squares();
    let mut prev = from;
    let mut mover = r;
    for (k, &to) in squares.iter().enumerate() {
        let last = k + 1 == squares.len();
        match mover.kind() {
            UnitKind::Cavalry => {
                let step_ok =
                    to == reserve || (b.adjacent(prev) & b.closer(side, prev)).contains(to);
                if !step_ok {
                    return Err(format!(
                        "cavalry link {prev} -> {to} is not one step closer"
                    ));
                }
                if k + 1 < squares.len() {
                    // R24: a chain only when no closer square is free.
                    let free = (b.adjacent(prev) & b.closer(side, prev)).iter().any(|s| {
                        s == reserve || (b.reserve_owner(s).is_none() && game.unit_at(s).is_none())
                    });
                    if free {
                        return Err(format!("chain from {prev} while a closer square is free"));
                    }
                }
            }
            _ => {
                let forest = k == 0
                    && attacked
                    && b.is_forest(prev)
                    && b.is_forest(to)
                    && (b.adjacent(prev) & b.closer(side, prev)).contains(to)
                    && game.unit_at(to).is_none()
                    && (b.adjacent(to).iter()).all(|s| {
                        game.unit_at(s)
                            .is_none_or(|u| u.side() == side || u.kind() != UnitKind::Artillery)
                    });
                let to_reserve = to == reserve
                    && clear_path(game, side, prev)
                    && !(attacked && k == 0 && mover.kind() == UnitKind::Artillery);
                if !(forest || to_reserve) {
                    return Err(format!("{:?} link {prev} -> {to} is neither a clear path home nor a forest retreat", mover.kind()));
                }
            }
        }
        if to == reserve {
            if !last {
                return Err("the chain goes on after the reserve".to_string());
            }
            break;
        }
        match game.unit_at(to) {
            None if last => {}
            None => return Err(format!("chain displaces nobody on {to}")),
            Some(u) if !last && u.side() == side && u != r => mover = u,
            Some(u) => return Err(format!("{to} holds {:?} {:?}", u.side(), u.kind())),
        }
        prev = to;
    }
    Ok(())
}

/// The decisions inside an attack, checked for soundness.
fn check_decision_model(game: &Squares, legal: &[Order], pos: &str) -> Checked {
    let (Some(attack), None) = (game.attack(), game.outcome()) else {
        return Ok(());
    };
    let b = board();
    let attacker_kind = game.unit_at(attack.attacker).map(|u| u.kind());
    let retreating = match attack.stage {
        Stage::Response | Stage::SecondChance => Some((attack.target, true)),
        Stage::SupportRetreat1 | Stage::SupportRetreat5 => attack.support.map(|s| (s, false)),
        Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => Some((attack.attacker, false)),
        _ => None,
    };
    for o in legal {
        if let (Order::Retreat(chain), Some((from, attacked))) = (o, retreating) {
            retreat_sound(game, from, chain, attacked)
                .map_err(|why| fail(format!("{pos}: listed {o} is not a legal retreat: {why}")))?;
        }
    }
    let has = |o: Order| legal.contains(&o);
    let retreats = legal
        .iter()
        .filter(|o| matches!(o, Order::Retreat(_)))
        .count();
    match attack.stage {
        Stage::Response => {
            let d = game
                .unit_at(attack.target)
                .ok_or_else(|| fail(format!("{pos}: no defender")))?;
            let flank = attack.support.is_some_and(|s| {
                let closer = b.closer(d.side(), attack.target);
                closer.contains(s) || closer.contains(attack.attacker)
            });
            let cavalry_must = d.kind() == UnitKind::Cavalry
                && !b.is_forest(attack.target)
                && !(attack.support.is_none() && attacker_kind == Some(UnitKind::Cavalry));
            let must_retreat = retreats > 0 && (flank || cavalry_must);
            prop_assert_eq!(
                has(Order::Stand),
                !must_retreat,
                "STAND (R18, R22-R24) in {}",
                pos
            );
        }
        Stage::SecondChance => prop_assert!(has(Order::Stand), "S7: STAND in {}", pos),
        Stage::Option => {
            prop_assert!(
                has(Order::Option(2)) && has(Order::Option(3)),
                "options 2, 3 in {}",
                pos
            );
            if attacker_kind != Some(UnitKind::Infantry) {
                prop_assert!(
                    !has(Order::Option(1)) && !has(Order::Option(4)),
                    "R19: artillery and cavalry never retreat, in {}",
                    pos
                );
            }
        }
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
                attacker_kind.is_some_and(|k| k != UnitKind::Artillery),
                "R19: artillery never advances, {}",
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
/// an infantry or artillery that retreated rests, a unit that rested and did
/// not retreat again is free once its side's turn is over, and no `~` is
/// left between turns.
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
            if retreated_to.contains(&s) && u.kind() != UnitKind::Cavalry {
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

/// Flags only play produces in a certain shape: cavalry never rests (R21),
/// and between turns no unit carries `~`.
fn check_play_flags(game: &Squares) -> Checked {
    for side in Side::BOTH {
        for u in game.units_of(side) {
            let st = game.unit_state(u);
            if u.kind() == UnitKind::Cavalry {
                prop_assert!(!st.inactive && !st.retreated, "resting cavalry in {}", game);
            }
            if game.attack().is_none() {
                prop_assert!(!st.retreated, "'~' between turns in {}", game);
            }
        }
    }
    Ok(())
}

/// Whether `order` is a move that takes a whole double turn (R5, S1): an
/// infantry diagonal step or an infantry or artillery forest entry, made as
/// the first half of a double turn.
fn whole_double_turn(game: &Squares, order: Order) -> bool {
    let b = board();
    match order {
        Order::Move(step) if game.attack().is_none() && game.half() == Half::First => {
            let kind = step
                .unit
                .or_else(|| game.unit_at(step.from).map(|u| u.kind()));
            match kind {
                Some(UnitKind::Infantry) => {
                    b.is_forest(step.to) || b.corner(step.from).contains(step.to)
                }
                Some(UnitKind::Artillery) => b.is_forest(step.to),
                _ => false,
            }
        }
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
    let passes = next_pos.split(' ').nth(3).unwrap_or("-").to_string();
    let mover = game.to_move();
    prop_assert_eq!(
        passes.contains(mover.letter()),
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
        let expected = if passes.contains(other.letter()) {
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

fn random_kind(rng: &mut XorShift) -> UnitKind {
    rng.pick(&common::CIVIL_WAR_KINDS)
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
        (!rng.chance(15)).then(|| random_kind(rng))
    } else {
        rng.chance(10).then(|| random_kind(rng))
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
                3 => s.unit = rng.chance(70).then(|| random_kind(rng)),
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
        Order::Option(n) => Order::Option(1 + (n + rng.below(4) as u8) % 5),
        Order::GrandBattery(_) | Order::HorseBattery(_) => Order::Option(1 + rng.below(5) as u8),
        Order::Stand => {
            let start = own_square(rng, game);
            Order::Retreat(random_chain(rng, start))
        }
        Order::Advance => Order::Stay,
        Order::Stay => Order::Advance,
        Order::Lose(k) => {
            Order::Lose(common::CIVIL_WAR_KINDS[(kind_index(k) + 1 + rng.below(2)) % 3])
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
        6 => Order::Option(1 + rng.below(5) as u8),
        7 => rng.pick(&[Order::Pass, Order::Stand, Order::Advance, Order::Stay]),
        8 => Order::Lose(random_kind(rng)),
        _ if !legal.is_empty() => {
            let base = rng.pick(legal);
            mutate(rng, game, base)
        }
        _ => Order::Pass,
    }
}

/// Whether a cavalry path through `via` is one a player may write (R11,
/// R12, S3): adjacent to both ends, not a forest, empty or the own reserve.
fn middle_ok(game: &Squares, from: Space, via: Space, to: Space) -> bool {
    let b = board();
    b.adjacent(from).contains(via)
        && b.adjacent(via).contains(to)
        && !b.is_forest(via)
        && (via == b.reserve(game.to_move())
            || (b.reserve_owner(via).is_none() && !game.occupied().contains(via)))
}

/// The listed order that `given` denotes under the notation's allowances
/// (docs/squares-engine.md): the same order; a listed cavalry move written
/// without its middle square or with any legal one, also where one step
/// would do, but never into a forest (S3); two cavalry parts written the
/// other way round, when that sequence is legal too (S2).
fn denoted(game: &Squares, legal: &[Order], given: &Order) -> Option<Order> {
    if legal.contains(given) {
        return Some(*given);
    }
    let same = |a: &Step, b: &Step| step_key(a) == step_key(b);
    let cavalry = |s: &Step| {
        s.unit.or_else(|| game.unit_at(s.from).map(|u| u.kind())) == Some(UnitKind::Cavalry)
    };
    legal.iter().copied().find(|listed| match (listed, given) {
        (Order::Move(l), Order::Move(g)) => {
            same(l, g)
                && match g.via {
                    None => true,
                    Some(v) => {
                        cavalry(l) && !board().is_forest(g.to) && middle_ok(game, g.from, v, g.to)
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

/// Tries `n` plausible orders: those that denote a listed order must act as
/// it; the others must be refused with a rule and change nothing.
fn check_unlisted(game: &Squares, rng: &mut XorShift, n: usize) -> Checked {
    let pos = game.to_string();
    let legal = game.legal_orders();
    for _ in 0..n {
        let order = candidate(rng, game, &legal);
        // Any order value prints canonically and reads back.
        prop_assert_eq!(Order::parse(&order.to_string()).ok(), Some(order));
        let mut after = game.clone();
        let result = after.apply(&order);
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
                        "{pos}: unlisted {order} accepted ({events:?}); legal: {}",
                        listing(&legal)
                    )))
                }
                Err(refusal) => {
                    prop_assert_eq!(&after, game, "{}: refused {} changed the state", pos, order);
                    let rule = refusal.rule();
                    prop_assert!(
                        is_rule_id(rule.0),
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

fn opening(gray_first: bool) -> Squares {
    Squares::opening(if gray_first { Side::Gray } else { Side::Blue })
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
fn check_generated(l: &Layout, consistent: bool, seed: u64) -> Checked {
    let base = layout_position_with(l, consistent);
    let game: Squares = base
        .parse()
        .map_err(|e: orderly::games::ParseError| fail(format!("{base}: refused: {e}")))?;
    prop_assert_eq!(game.to_string(), base.clone(), "string -> state -> string");
    let text = if consistent {
        base
    } else {
        with_attack(&base, &game, l).unwrap_or(base)
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
        let mut rng = XorShift::new(seed);
        let mut game = opening(gray_first);
        prop_assert_eq!(game.turn(), 1);
        check_state(&game)?;
        for &c in &choices {
            let legal = game.legal_orders();
            if legal.is_empty() {
                break;
            }
            check_unlisted(&game, &mut rng, 4)?;
            let order = legal[c as usize % legal.len()];
            let (next, events) = check_listed(&game, order)?;
            check_play_flags(&next)?;
            // The same order from the position read back from its string.
            let mut reread: Squares = game.to_string().parse().map_err(|e: orderly::games::ParseError| fail(e.message))?;
            let reread_events = reread.apply(&order).map_err(|r| fail(format!("{game}: reread refuses {order}: {r}")))?;
            prop_assert_eq!(reread_events, events, "{}: {}", game, order);
            prop_assert_eq!(reread.to_string(), next.to_string(), "{}: {}", game, order);
            game = next;
        }
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
        let game = play(gray_first, &choices);
        check_state(&game)?;
        let legal = game.legal_orders();
        for &order in &legal {
            check_listed(&game, order)?;
        }
        let mut rng = XorShift::new(seed);
        check_unlisted(&game, &mut rng, 80)?;
        if game.outcome().is_some() {
            check_finished(&game, &mut rng, &[])?;
        }
    }

}

proptest! {
    #![proptest_config(config(128))]

    /// Positions generated directly as strings, anything the reader accepts:
    /// accepted, canonical, and as sound as positions reached by play; then a
    /// short random continuation.
    #[test]
    fn generated_positions_behave(l in layout(), seed in any::<u64>()) {
        check_generated(&l, false, seed)?;
    }

}

proptest! {
    #![proptest_config(config(128))]

    /// As above, in the shape play leaves positions (the side starting a
    /// double turn holds no runs, no `~` between turns), with attacks in
    /// progress only as reached by playing them.
    #[test]
    fn generated_consistent_positions_behave(l in layout(), seed in any::<u64>()) {
        check_generated(&l, true, seed)?;
    }

}

proptest! {
    #![proptest_config(config(64))]

    /// Complete random games from the opening: each position has legal
    /// orders until the game ends (within 2,000 orders or not), and the end
    /// is final.
    #[test]
    fn complete_games_end_cleanly(gray_first in any::<bool>(), seed in any::<u64>()) {
        let mut rng = XorShift::new(seed);
        let mut game = opening(gray_first);
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
    }
}
