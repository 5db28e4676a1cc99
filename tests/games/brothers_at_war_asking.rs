#[path = "../common/mod.rs"]
mod common;

// The questions a combat result asks when a standing instruction says ASK
// (B5, B7, B145): `LOSSES ... ASK` (which unit of a Disrupted stack is
// lost, 6.54, answered `LOSE unit`), `RESERVES ... ASK` (whether a reserve
// cancels a killing hit, 8.11, answered `SPEND RESERVE` or `KEEP`) and
// `PATHS ... ASK` (which legal path a retreat takes, 6.7, answered
// `RETREAT hex hex`), `PASS` taking the setting's default each time; and
// the order `ELIMINATE skirmisher` (8.133, B104, B146). Every expected
// result is worked out by hand from the rulebook (6.5-6.8, 7.12, 8.1-8.2,
// 8.13, 8.133) and the rulings (B5-B7, B80-B95, B102-B105, B145, B146),
// never from the engine.
//
// The ground: the test battle's order of battle on its 8 x 6 map made open
// and level everywhere (no roads, trails, fords, fences, woods or levels),
// with a deck of blank cards (so no card can be played) and, for the blue
// and gray brigades, a reserve track of 6 spaces with 4 dark ones (START is
// space 0, EXHAUSTED space 6, B102): long enough that a casualty or two
// never breaks the brigade (8.3). The Union rallies at 0101, the
// Confederacy at 0806 (the only rally point of each side). Commanders stand
// where the test battle puts them (Col. Ash 0201, Maj. Elm 0601, Col. Oak
// 0506, Col. Fir 0806); none is in or next to a hex fought over below
// unless said.
//
// Units (the test battle's ratings): 1NY (blue) infantry, firepower 4;
// 2NYA, 2NYB (blue) infantry, firepower 3; 1VA (gray) infantry, firepower
// 4; 2VA (gray) infantry, firepower 3; GSK the gray skirmisher. The front
// face of infantry is formed, the back unformed; every Disrupted unit is
// set unformed (a Disrupted unit is never formed, 5.34, B81), so that a hit
// on it is a killing hit (6.51, 6.53, B80) and never only unforms it
// (6.52).
//
// Hexes (B15: even columns sit half a hex north of odd ones; 0712 touches
// 0711, 0713, 0612, 0613, 0812, 0813), counted by hand:
// - 0304 touches 0303, 0305, 0204, 0205, 0404, 0405;
// - 0604 touches 0603, 0605, 0503, 0504, 0703, 0704;
// - 0805 touches 0804, 0806, 0704, 0705 (column 09 is off the map);
// - distances to the gray rally point 0806: 0604 3; 0605 2, 0704 2 (the
//   neighbours of 0604 nearer it); 0705 1, 0805 1; 0504 3, 0503 4, 0603 4,
//   0703 3.
// - 0504 touches 0404 4, 0405 4, 0503 4, 0505 3, 0604 3, 0605 2 (each
//   with its distance to 0806); 0605 touches 0504 3, 0505 3, 0604 3,
//   0606 2, 0704 2, 0705 1.
// So a gray unit retreating 2 hexes from 0604 (6.71, 6.73: each hex one
// nearer 0806) has exactly the paths 0605-0705, 0704-0705 and 0704-0805,
// and one from 0504 (3 from 0806) exactly one: 0605-0705.
//
// Fire (6.0, B82): a die hits on 5 or 6 here; every attack below is rolled
// with as many 6s as the successes wanted and 1s for the rest, whatever the
// number of dice; every save die is a 1 (no save). With no saves the hits
// are the successes, at most 3 (6.5, B68).
//
// Reserves (8.1, 8.11, 8.2, B102): the reserve marker's space r and the
// casualties c; a spent reserve moves r one space right; a casualty fills
// the next space from START and pushes r right when it lands on it (so r
// stays at least c). Giving up a disbanded skirmisher (8.133, B104) places
// its casualty first, then moves r one space back; allowed only when r is
// at least c + 2 before (8.13: not from START, not onto a casualty).

use common::brothers_at_war_decks::{brigade, deck_text, dice_waiting};
use common::brothersatwar::{activating, hex, id, only, order, refused, unit_mut};
use orderly::games::brothers_at_war::core::combat::CombatEvent;
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::UnitId;
use orderly::games::brothers_at_war::core::order::Order;
use orderly::games::brothers_at_war::core::question::Question;
use orderly::games::brothers_at_war::core::state::{BrigadeState, BrothersAtWar, Place, UnitState};
use orderly::games::brothers_at_war::core::Hex;
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::{Face, ReserveTrack, Side};
use orderly::games::brothers_at_war::scenario::{registry, Scenario};
use orderly::games::{CitesRule, Game, GameOptions, Phase, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Blank cards only: no card is ever playable (11.12, B123).
const DECK: &str = r#"
[[card]]
numbers = [1, 2, 3, 4, 5, 6, 7, 8]
name = "Blank (test)"
timing = "none"
effect = "no-effect"
"#;

/// EXHAUSTED on our blue and gray tracks.
const EXHAUSTED: u8 = 6;

/// The open field of these tests (see the head of the file).
fn field() -> BrothersAtWar {
    let mut s: Scenario = toml::from_str(&deck_text(DECK, false)).unwrap();
    s.id = "test-asking-field".into();
    s.map.terrain = vec![". . . . . . . .".to_string(); 6];
    s.map.levels = Vec::new();
    s.map.hexsides = Vec::new();
    s.map.roads = Vec::new();
    s.map.trails = Vec::new();
    for b in &mut s.brigades {
        if b.id == "blue" || b.id == "gray" {
            b.reserves = Some(ReserveTrack {
                length: EXHAUSTED,
                dark: 4,
                spent: 0,
            });
        }
    }
    let b = registry::register(s).unwrap();
    BrothersAtWar::new(&GameOptions {
        scenario: Some(b.scenario.id.clone()),
        ..GameOptions::default()
    })
}

// ----- helpers ---------------------------------------------------------------

/// How many dice the draw waiting rolls.
fn dice_count(g: &BrothersAtWar) -> usize {
    let n = dice_waiting(g).expect("dice are waiting");
    let mut k = 0;
    while 6u32.pow(k) < n {
        k += 1;
    }
    assert_eq!(6u32.pow(k), n, "dice are waiting");
    k as usize
}

/// Rolls the dice waiting: `sixes` 6s, then 1s.
fn roll_sixes(g: &mut BrothersAtWar, sixes: usize) -> Vec<Event> {
    let k = dice_count(g);
    assert!(sixes <= k, "{sixes} sixes of {k} dice");
    let dice: Vec<&str> = (0..k).map(|i| if i < sixes { "6" } else { "1" }).collect();
    let text = format!("ROLL {}", dice.join(" "));
    order(g, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Rolls 1s for every die still waiting (saves that save nothing).
fn fail_the_rest(g: &mut BrothersAtWar) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..4 {
        if dice_waiting(g).is_none() {
            return all;
        }
        all.extend(roll_sixes(g, 0));
    }
    panic!("dice keep coming");
}

fn combat(events: &[Event]) -> Vec<CombatEvent> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Combat(c) => Some(c.clone()),
            _ => None,
        })
        .collect()
}

fn eliminated(events: &[Event]) -> Vec<String> {
    combat(events)
        .into_iter()
        .filter_map(|c| match c {
            CombatEvent::Eliminated { unit } => Some(unit),
            _ => None,
        })
        .collect()
}

fn reserves_spent(events: &[Event]) -> Vec<(String, String)> {
    combat(events)
        .into_iter()
        .filter_map(|c| match c {
            CombatEvent::ReserveSpent { brigade, unit } => Some((brigade, unit)),
            _ => None,
        })
        .collect()
}

fn retreats(events: &[Event]) -> Vec<(Vec<String>, Vec<Hex>)> {
    combat(events)
        .into_iter()
        .filter_map(|c| match c {
            CombatEvent::Retreated { units, path } => Some((units, path)),
            _ => None,
        })
        .collect()
}

fn place(g: &BrothersAtWar, name: &str) -> Place {
    g.unit(id(g, name)).place
}

fn at(g: &BrothersAtWar, name: &str) -> Option<Hex> {
    g.hex_of(id(g, name))
}

fn path(hexes: &[&str]) -> Vec<Hex> {
    hexes.iter().map(|h| hex(h)).collect()
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

fn gray_state(g: &BrothersAtWar) -> BrigadeState {
    g.brigade(brigade(g, "gray")).clone()
}

/// Sets a brigade's reserve marker and casualties (B102).
fn track(g: &mut BrothersAtWar, name: &str, reserve: u8, casualties: u8) {
    let b = brigade(g, name);
    let s = &mut g.now.brigades[b.index()];
    s.reserve = reserve;
    s.casualties = casualties;
    s.exhausted = reserve == EXHAUSTED;
}

/// Sets a unit Disrupted and unformed (B81), or Undisrupted with a face.
fn status(g: &mut BrothersAtWar, name: &str, disrupted: bool, face: Face) {
    let u = unit_mut(g, name);
    u.disrupted = disrupted;
    u.face = if disrupted { Face::Back } else { face };
}

/// The question pending, after checking it is a reaction decision of
/// `seat`'s (B7) with no dice waiting (B145: the dice are already shown).
fn asked(g: &BrothersAtWar, seat: Seat) -> Question {
    assert!(
        g.chance().is_none(),
        "no dice wait while a question is asked"
    );
    let p = g.pending().expect("B7: the engine asks");
    assert_eq!(
        (p.seat, p.phase, p.kind),
        (seat, Phase::Reaction, Decision::Reaction)
    );
    let r = g.now.reaction.as_ref().expect("a reaction is pending");
    let side = if seat == Seat::South {
        Side::Confederacy
    } else {
        Side::Union
    };
    assert_eq!(r.side, side, "the owner is asked");
    assert_eq!(g.decider(), Some(side));
    r.question.clone().expect("a question of the result (B145)")
}

/// Nothing is asked: the mover (the Union here) decides again.
fn union_acts_again(g: &BrothersAtWar) {
    assert!(g.chance().is_none(), "no dice wait");
    assert!(g.now.reaction.is_none(), "nothing is asked");
    let p = g.pending().expect("the activation goes on");
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
}

fn units_named(g: &BrothersAtWar, names: &[&str]) -> Vec<UnitId> {
    sorted(names.iter().map(|n| id(g, n)).collect())
}

/// The units and brigades: what a combat result changes.
fn snapshot(g: &BrothersAtWar) -> (Vec<UnitState>, Vec<BrigadeState>) {
    (g.now.units.clone(), g.now.brigades.clone())
}

// ----- positions ---------------------------------------------------------------

/// 1NY (blue, formed, firepower 4) at 0303 next to a gray hex 0304 holding
/// `gray` (Disrupted, unformed); blue activating; gray never retreats for a
/// save (`RETREAT gray NEVER`: the default IFKILLED would retreat from a
/// killing hit, B95).
///
/// 1NY FIRE 0304: 4 dice (no pass-through: 0305 behind is empty, 6.4);
/// saves (B77): no hex between, 1 for a Disrupted target: 1 die.
fn next_to(gray: &[&str]) -> BrothersAtWar {
    let mut g = field();
    let mut placed = vec![("1NY", "0303")];
    placed.extend(gray.iter().map(|&n| (n, "0304")));
    only(&mut g, &placed);
    status(&mut g, "1NY", false, Face::Front);
    for n in gray {
        status(&mut g, n, true, Face::Back);
    }
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    g
}

/// 1NY fires at 0304 with `hits` successes and no save.
fn fire_at_0304(g: &mut BrothersAtWar, hits: usize) -> Vec<Event> {
    let mut e = order(g, "1NY FIRE 0304").unwrap();
    e.extend(roll_sixes(g, hits));
    e.extend(fail_the_rest(g));
    e
}

// ----- 1. LOSSES ASK (6.54, B83, B145) ------------------------------------

#[test]
fn losses_ask_asks_the_owner_which_unit_of_a_disrupted_stack_is_lost_and_lose_takes_it() {
    // 6.54: a hit on a Disrupted stack eliminates one unit, its owner's
    // choice (B83); `LOSSES ASK` asks (B145). RESERVES KEEP: no reserve
    // cancels the hit (8.11), so the unit chosen dies.
    let mut g = next_to(&["1VA", "2VA"]);
    order(&mut g, "RESERVES gray KEEP").unwrap();
    order(&mut g, "LOSSES gray ASK").unwrap();
    let before = gray_state(&g);
    fire_at_0304(&mut g, 1);
    match asked(&g, Seat::South) {
        Question::Loss { units } => assert_eq!(sorted(units), units_named(&g, &["1VA", "2VA"])),
        q => panic!("6.54: which unit is lost, not {q:?}"),
    }
    // B145: nothing applied while the owner thinks.
    assert_eq!(at(&g, "1VA"), Some(hex("0304")));
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    assert_eq!(gray_state(&g), before);
    // 6.54, B145: only a unit of the stack hit may be named.
    assert_eq!(refused(&mut g, "LOSE 1NY"), "6.54");
    assert_eq!(refused(&mut g, "LOSE 4VA"), "6.54");
    // The stronger unit (1VA, firepower 4) is named: it goes, 2VA stays.
    let e = order(&mut g, "LOSE 1VA").unwrap();
    assert_eq!(eliminated(&e), vec!["1VA".to_string()]);
    assert_eq!(place(&g, "1VA"), Place::Eliminated);
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    assert!(g.unit(id(&g, "2VA")).disrupted);
    // 8.2: one casualty, pushing the reserve marker off START (B102).
    let after = gray_state(&g);
    assert_eq!(after.casualties, before.casualties + 1);
    assert_eq!(after.reserve, before.reserve.max(after.casualties));
    union_acts_again(&g);
}

#[test]
fn losses_ask_answered_pass_loses_the_weakest_unit() {
    // B7: PASS takes the default, B5/B83 `WEAKEST`: the lower firepower,
    // 2VA (3) rather than 1VA (4).
    let mut g = next_to(&["1VA", "2VA"]);
    order(&mut g, "RESERVES gray KEEP").unwrap();
    order(&mut g, "LOSSES gray ASK").unwrap();
    fire_at_0304(&mut g, 1);
    assert!(matches!(asked(&g, Seat::South), Question::Loss { .. }));
    let e = order(&mut g, "PASS").unwrap();
    assert_eq!(eliminated(&e), vec!["2VA".to_string()]);
    assert_eq!(place(&g, "2VA"), Place::Eliminated);
    assert_eq!(at(&g, "1VA"), Some(hex("0304")));
    union_acts_again(&g);
}

#[test]
fn losses_ask_never_asks_about_a_lone_disrupted_unit() {
    // B145: asked only when the stack holds two units: a lone unit is the
    // one lost, nothing to choose.
    let mut g = next_to(&["2VA"]);
    order(&mut g, "RESERVES gray KEEP").unwrap();
    order(&mut g, "LOSSES gray ASK").unwrap();
    let e = fire_at_0304(&mut g, 1);
    union_acts_again(&g);
    assert_eq!(eliminated(&e), vec!["2VA".to_string()]);
    assert_eq!(place(&g, "2VA"), Place::Eliminated);
}

// ----- 2. RESERVES ASK (8.11, 8.111, 8.133, B102-B104, B145) -----------------

#[test]
fn reserves_ask_asks_at_a_killing_hit_and_spend_reserve_keeps_the_unit() {
    // 8.11: a hit that would eliminate a unit may be cancelled by a
    // reserve; RESERVES ASK asks (B145). START: 6 reserves before EXHAUSTED.
    let mut g = next_to(&["2VA"]);
    order(&mut g, "RESERVES gray ASK").unwrap();
    let before = gray_state(&g);
    assert_eq!((before.reserve, before.casualties), (0, 0));
    fire_at_0304(&mut g, 1);
    let gray = brigade(&g, "gray");
    assert_eq!(
        asked(&g, Seat::South),
        Question::Reserve {
            unit: id(&g, "2VA"),
            brigade: gray,
            left: EXHAUSTED
        }
    );
    assert_eq!(gray_state(&g), before, "B145: nothing applied yet");
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    let e = order(&mut g, "SPEND RESERVE").unwrap();
    assert_eq!(
        reserves_spent(&e),
        vec![("gray".to_string(), "2VA".to_string())]
    );
    assert!(eliminated(&e).is_empty());
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    assert!(g.unit(id(&g, "2VA")).disrupted);
    let after = gray_state(&g);
    assert_eq!(
        (after.reserve, after.casualties),
        (1, 0),
        "8.11: one space on"
    );
    assert!(!after.exhausted);
    union_acts_again(&g);
}

#[test]
fn reserves_ask_answered_keep_loses_the_unit_and_counts_a_casualty() {
    let mut g = next_to(&["2VA"]);
    order(&mut g, "RESERVES gray ASK").unwrap();
    fire_at_0304(&mut g, 1);
    assert!(matches!(asked(&g, Seat::South), Question::Reserve { .. }));
    let e = order(&mut g, "KEEP").unwrap();
    assert!(reserves_spent(&e).is_empty());
    assert_eq!(eliminated(&e), vec!["2VA".to_string()]);
    assert_eq!(place(&g, "2VA"), Place::Eliminated);
    // 8.2: the casualty goes on START, pushing the marker one space (B102).
    let after = gray_state(&g);
    assert_eq!((after.reserve, after.casualties), (1, 1));
    union_acts_again(&g);
}

#[test]
fn reserves_ask_answered_pass_spends_the_reserve() {
    // B7: PASS is the default, B5 `SPEND`.
    let mut g = next_to(&["2VA"]);
    order(&mut g, "RESERVES gray ASK").unwrap();
    fire_at_0304(&mut g, 1);
    assert!(matches!(asked(&g, Seat::South), Question::Reserve { .. }));
    let e = order(&mut g, "PASS").unwrap();
    assert_eq!(
        reserves_spent(&e),
        vec![("gray".to_string(), "2VA".to_string())]
    );
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    assert_eq!(gray_state(&g).reserve, 1);
    assert_eq!(gray_state(&g).casualties, 0);
}

#[test]
fn reserves_ask_asks_nothing_of_a_hit_that_does_not_kill() {
    // 8.11 "Important": reserves cancel only killing hits. 1VA, unformed
    // and Undisrupted: one hit disrupts it (6.51), no question.
    let mut g = next_to(&[]);
    only(&mut g, &[("1NY", "0303"), ("1VA", "0304")]);
    status(&mut g, "1VA", false, Face::Back);
    order(&mut g, "RESERVES gray ASK").unwrap();
    let before = gray_state(&g);
    let e = fire_at_0304(&mut g, 1);
    union_acts_again(&g);
    assert!(reserves_spent(&e).is_empty());
    assert!(g.unit(id(&g, "1VA")).disrupted);
    assert_eq!(at(&g, "1VA"), Some(hex("0304")));
    assert_eq!(gray_state(&g), before);
}

#[test]
fn reserves_ask_spending_the_last_reserve_exhausts_the_brigade() {
    // 8.111: the marker entering EXHAUSTED exhausts the brigade.
    let mut g = next_to(&["2VA"]);
    track(&mut g, "gray", EXHAUSTED - 1, 0);
    order(&mut g, "RESERVES gray ASK").unwrap();
    fire_at_0304(&mut g, 1);
    match asked(&g, Seat::South) {
        Question::Reserve { unit, left, .. } => {
            assert_eq!(unit, id(&g, "2VA"));
            assert_eq!(left, 1, "one space before EXHAUSTED");
        }
        q => panic!("8.11: a reserve question, not {q:?}"),
    }
    let e = order(&mut g, "SPEND RESERVE").unwrap();
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    let after = gray_state(&g);
    assert_eq!(after.reserve, EXHAUSTED);
    assert!(after.exhausted, "8.111");
    assert!(combat(&e)
        .iter()
        .any(|c| matches!(c, CombatEvent::Exhausted { .. })));
}

#[test]
fn reserves_ask_with_no_reserve_left_offers_to_give_up_a_disbanded_skirmisher() {
    // B104, B145: with the marker on EXHAUSTED, a skirmisher waiting on the
    // display buys a reserve back (r = 6 >= c + 2 = 2): the question is
    // still asked; SPEND RESERVE gives GSK up (a casualty, 8.2), recovers
    // a reserve (6 -> 5, 8.13) and spends it (5 -> 6).
    let mut g = next_to(&["2VA"]);
    track(&mut g, "gray", EXHAUSTED, 0);
    unit_mut(&mut g, "GSK").place = Place::Display;
    order(&mut g, "RESERVES gray ASK").unwrap();
    fire_at_0304(&mut g, 1);
    match asked(&g, Seat::South) {
        Question::Reserve {
            unit,
            brigade: b,
            left,
        } => {
            assert_eq!(unit, id(&g, "2VA"));
            assert_eq!(b, brigade(&g, "gray"));
            assert_eq!(left, 0, "only the skirmisher buys one back");
        }
        q => panic!("8.11: a reserve question, not {q:?}"),
    }
    assert_eq!(place(&g, "GSK"), Place::Display, "B145: not yet");
    order(&mut g, "SPEND RESERVE").unwrap();
    assert_eq!(place(&g, "GSK"), Place::Eliminated, "B104");
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    let after = gray_state(&g);
    assert_eq!((after.reserve, after.casualties), (EXHAUSTED, 1));
}

#[test]
fn reserves_ask_with_no_reserve_and_no_skirmisher_to_give_up_asks_nothing() {
    // B145: asked only when a reserve can be had. GSK gone, or on the map
    // (not on the display, 8.133): the unit is lost (6.54).
    for gsk in [Place::Removed, Place::Map(hex("0801"))] {
        let mut g = next_to(&["2VA"]);
        track(&mut g, "gray", EXHAUSTED, 0);
        unit_mut(&mut g, "GSK").place = gsk;
        order(&mut g, "RESERVES gray ASK").unwrap();
        let e = fire_at_0304(&mut g, 1);
        union_acts_again(&g);
        assert_eq!(eliminated(&e), vec!["2VA".to_string()], "{gsk:?}");
        assert_eq!(place(&g, "GSK"), gsk);
        let after = gray_state(&g);
        assert_eq!((after.reserve, after.casualties), (EXHAUSTED, 1));
    }
}

// ----- 3. PATHS ASK (6.7, 6.71, 6.73, 6.732, B85-B92, B145) -------------------

/// 1NY (blue, formed) at 0602, two hexes from 1VA (gray, unformed,
/// Undisrupted) at 0604; gray retreats whenever hit (`RETREAT gray
/// ALWAYS`, B90) and is asked its paths. 1NY FIRE 0604: saves 1 for the
/// hex between, 1 for unformed, 1 for the retreat (B77). With one success
/// and no save 1VA retreats, then takes the hit (Disrupted, 6.51).
///
/// Paths from 0604 (6.71: 2 hexes; 6.73: each one nearer 0806): 0605-0705,
/// 0704-0705, 0704-0805. None of these hexes is next to 1NY (0602 touches
/// 0601, 0603, 0501, 0502, 0701, 0702): no extra hit (6.73); the ends 0705
/// and 0805 are both 4 from 1NY. B92's AUTO then takes the lowest hexes:
/// 0605-0705.
fn retreating_from_0604() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0602"), ("1VA", "0604")]);
    status(&mut g, "1NY", false, Face::Front);
    status(&mut g, "1VA", false, Face::Back);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ALWAYS").unwrap();
    order(&mut g, "PATHS gray ASK").unwrap();
    g
}

fn fire_at_0604(g: &mut BrothersAtWar) -> Vec<Event> {
    let mut e = order(g, "1NY FIRE 0604").unwrap();
    e.extend(roll_sixes(g, 1));
    e.extend(fail_the_rest(g));
    e
}

fn asked_paths(g: &BrothersAtWar, units: &[&str]) -> Vec<Vec<Hex>> {
    match asked(g, Seat::South) {
        Question::Path { units: u, paths } => {
            assert_eq!(sorted(u), units_named(g, units));
            sorted(paths)
        }
        q => panic!("6.7: a path question, not {q:?}"),
    }
}

#[test]
fn paths_ask_offers_the_legal_paths_and_the_one_chosen_is_taken() {
    let mut g = retreating_from_0604();
    fire_at_0604(&mut g);
    assert_eq!(
        asked_paths(&g, &["1VA"]),
        vec![
            path(&["0605", "0705"]),
            path(&["0704", "0705"]),
            path(&["0704", "0805"])
        ]
    );
    assert_eq!(at(&g, "1VA"), Some(hex("0604")), "B145: not moved yet");
    // 6.732 f: 0504 is 3 from 0806, as 0604 is: it does not close.
    assert!(
        refused(&mut g, "RETREAT 0504 0505").starts_with("6.732"),
        "a path closing on no rally point"
    );
    // 6.71: exactly 2 hexes when 2 are possible.
    assert_eq!(refused(&mut g, "RETREAT 0704"), "6.71");
    // Not B92's pick (0605-0705): the owner's.
    let e = order(&mut g, "RETREAT 0704 0805").unwrap();
    assert_eq!(
        retreats(&e),
        vec![(vec!["1VA".to_string()], path(&["0704", "0805"]))]
    );
    assert_eq!(at(&g, "1VA"), Some(hex("0805")));
    // 6.51: the hit falls after the retreat (6.7). (Not checked: 6.77's
    // Finished marker, which 6.53 flips to its Disrupted side.)
    assert!(g.unit(id(&g, "1VA")).disrupted);
    union_acts_again(&g);
}

#[test]
fn paths_ask_answered_pass_takes_the_automatic_path() {
    // B7, B92: fewest extra hits (none), fewest disrupted (none), end
    // farthest from the enemy (both 4), then the lowest hexes: 0605-0705.
    let mut g = retreating_from_0604();
    fire_at_0604(&mut g);
    assert!(matches!(asked(&g, Seat::South), Question::Path { .. }));
    let e = order(&mut g, "PASS").unwrap();
    assert_eq!(
        retreats(&e),
        vec![(vec!["1VA".to_string()], path(&["0605", "0705"]))]
    );
    assert_eq!(at(&g, "1VA"), Some(hex("0705")));
}

#[test]
fn paths_ask_refuses_a_path_through_an_enemy() {
    // 2NYB (blue) in 0805: 0704-0805 enters an enemy hex (6.71, 6.732 e).
    // 0605-0705 and 0704-0705 stay legal (each hex entered next to 2NYB
    // costs an extra hit, 6.73, but is allowed). Col. Fir (reserve brigade,
    // 0806) is taken off the map so that no lone commander stands next to
    // 2NYB (B47).
    let mut g = retreating_from_0604();
    unit_mut(&mut g, "2NYB").place = Place::Map(hex("0805"));
    let fir = brigade(&g, "reserve");
    g.now.brigades[fir.index()].commander = None;
    fire_at_0604(&mut g);
    assert_eq!(
        asked_paths(&g, &["1VA"]),
        vec![path(&["0605", "0705"]), path(&["0704", "0705"])]
    );
    assert!(
        refused(&mut g, "RETREAT 0704 0805").starts_with("6.732"),
        "into an enemy unit"
    );
}

#[test]
fn paths_ask_asks_nothing_when_one_path_is_legal() {
    // From 0504 (3 from 0806) the only hex one nearer is 0605 (2), and
    // from 0605 the only hex one nearer is 0705 (1): one path, 0605-0705,
    // neither hex next to 1NY at 0502 (which touches 0402, 0403, 0501,
    // 0503, 0602, 0603). 1NY fires down the column through 0503: 1 hex
    // between. B145: asked only when more than one path is legal.
    let mut g = field();
    only(&mut g, &[("1NY", "0502"), ("1VA", "0504")]);
    status(&mut g, "1NY", false, Face::Front);
    status(&mut g, "1VA", false, Face::Back);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ALWAYS").unwrap();
    order(&mut g, "PATHS gray ASK").unwrap();
    let mut e = order(&mut g, "1NY FIRE 0504").unwrap();
    e.extend(roll_sixes(&mut g, 1));
    e.extend(fail_the_rest(&mut g));
    union_acts_again(&g);
    assert_eq!(
        retreats(&e),
        vec![(vec!["1VA".to_string()], path(&["0605", "0705"]))]
    );
    assert_eq!(at(&g, "1VA"), Some(hex("0705")));
}

#[test]
fn paths_ask_asks_the_loser_of_an_assault_its_path() {
    // 7.12: the loser retreats (no save); B145 asks the path. 2NYA (blue,
    // unformed, 3 dice hitting on 5) assaults 1VA (gray, formed, 4 dice
    // hitting on 4, 7.11) in 0604 from 0603. 2NYA rolls one hit, 1VA none:
    // the Union wins 1-0. 1VA retreats from 0604 while 2NYA is still in
    // 0603 (it enters after, B98): 0603 touches none of 0605, 0704, 0705,
    // 0805, so the three paths are those above, with no extra hit. Then
    // its one hit unforms it (6.52) and 2NYA enters 0604.
    let mut g = field();
    only(&mut g, &[("2NYA", "0603"), ("1VA", "0604")]);
    status(&mut g, "2NYA", false, Face::Back);
    status(&mut g, "1VA", false, Face::Front);
    activating(&mut g, "blue");
    order(&mut g, "PATHS gray ASK").unwrap();
    order(&mut g, "2NYA MOVE 0604").unwrap();
    assert_eq!(dice_count(&g), 3);
    roll_sixes(&mut g, 1);
    assert_eq!(dice_count(&g), 4);
    roll_sixes(&mut g, 0);
    assert_eq!(
        asked_paths(&g, &["1VA"]),
        vec![
            path(&["0605", "0705"]),
            path(&["0704", "0705"]),
            path(&["0704", "0805"])
        ]
    );
    assert_eq!(at(&g, "1VA"), Some(hex("0604")), "B145: not moved yet");
    assert_eq!(at(&g, "2NYA"), Some(hex("0603")));
    let e = order(&mut g, "RETREAT 0704 0805").unwrap();
    assert_eq!(
        retreats(&e),
        vec![(vec!["1VA".to_string()], path(&["0704", "0805"]))]
    );
    assert_eq!(at(&g, "1VA"), Some(hex("0805")));
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back, "6.52");
    assert!(!g.unit(id(&g, "1VA")).disrupted);
    assert!(g.unit(id(&g, "1VA")).finished, "7.12: every participant");
    assert_eq!(at(&g, "2NYA"), Some(hex("0604")), "7.12");
}

// ----- 4. Several questions in one result (B84, B145) --------------------------

#[test]
fn several_questions_are_answered_in_turn_and_the_result_falls_whole_after_the_last() {
    // Two hits on the Disrupted stack 1VA + 2VA (B84: one by one). Hit 1:
    // which unit (LOSSES ASK), then whether a reserve saves it (RESERVES
    // ASK: 6 left). 1VA, kept: eliminated, its casualty on START pushes
    // the marker to 1 (8.2). Hit 2: 2VA is alone, nothing to choose; 5
    // reserves left; spent: the marker goes to 2.
    let mut g = next_to(&["1VA", "2VA"]);
    order(&mut g, "LOSSES gray ASK").unwrap();
    order(&mut g, "RESERVES gray ASK").unwrap();
    let gray = brigade(&g, "gray");
    order(&mut g, "1NY FIRE 0304").unwrap();
    let declared = snapshot(&g);
    roll_sixes(&mut g, 2);
    fail_the_rest(&mut g);

    match asked(&g, Seat::South) {
        Question::Loss { units } => assert_eq!(sorted(units), units_named(&g, &["1VA", "2VA"])),
        q => panic!("first which unit (6.54), not {q:?}"),
    }
    assert_eq!(snapshot(&g), declared, "nothing applied");
    let e = order(&mut g, "LOSE 1VA").unwrap();
    assert!(eliminated(&e).is_empty() && reserves_spent(&e).is_empty());

    assert_eq!(
        asked(&g, Seat::South),
        Question::Reserve {
            unit: id(&g, "1VA"),
            brigade: gray,
            left: EXHAUSTED
        }
    );
    assert_eq!(snapshot(&g), declared, "nothing applied");
    let e = order(&mut g, "KEEP").unwrap();
    assert!(eliminated(&e).is_empty() && reserves_spent(&e).is_empty());

    assert_eq!(
        asked(&g, Seat::South),
        Question::Reserve {
            unit: id(&g, "2VA"),
            brigade: gray,
            left: EXHAUSTED - 1
        }
    );
    assert_eq!(snapshot(&g), declared, "nothing applied");
    let e = order(&mut g, "SPEND RESERVE").unwrap();

    // All at once.
    assert_eq!(eliminated(&e), vec!["1VA".to_string()]);
    assert_eq!(
        reserves_spent(&e),
        vec![("gray".to_string(), "2VA".to_string())]
    );
    assert_eq!(place(&g, "1VA"), Place::Eliminated);
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    let after = gray_state(&g);
    assert_eq!((after.reserve, after.casualties), (2, 1));
    union_acts_again(&g);
}

#[test]
fn a_retreat_path_asked_first_is_taken_only_with_the_hits_after_the_last_answer() {
    // 2VA (Disrupted) at 0604 retreats for a save (ALWAYS), its path asked
    // (PATHS ASK), then its killing hit asked (RESERVES ASK): B145's order,
    // the retreat then the hits. KEEP: it is lost at the end of its path.
    let mut g = field();
    only(&mut g, &[("1NY", "0602"), ("2VA", "0604")]);
    status(&mut g, "1NY", false, Face::Front);
    status(&mut g, "2VA", true, Face::Back);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ALWAYS").unwrap();
    order(&mut g, "PATHS gray ASK").unwrap();
    order(&mut g, "RESERVES gray ASK").unwrap();
    order(&mut g, "1NY FIRE 0604").unwrap();
    let declared = snapshot(&g);
    roll_sixes(&mut g, 1);
    fail_the_rest(&mut g);

    assert_eq!(asked_paths(&g, &["2VA"]).len(), 3);
    let e = order(&mut g, "RETREAT 0704 0805").unwrap();
    assert!(retreats(&e).is_empty());
    assert_eq!(snapshot(&g), declared, "not moved yet");
    assert_eq!(at(&g, "2VA"), Some(hex("0604")));

    match asked(&g, Seat::South) {
        Question::Reserve { unit, .. } => assert_eq!(unit, id(&g, "2VA")),
        q => panic!("then the killing hit (8.11), not {q:?}"),
    }
    assert_eq!(snapshot(&g), declared, "nothing applied");
    let e = order(&mut g, "KEEP").unwrap();
    assert_eq!(
        retreats(&e),
        vec![(vec!["2VA".to_string()], path(&["0704", "0805"]))]
    );
    assert_eq!(eliminated(&e), vec!["2VA".to_string()]);
    assert_eq!(place(&g, "2VA"), Place::Eliminated);
    assert_eq!(gray_state(&g).casualties, 1);
    union_acts_again(&g);
}

// ----- 5. ELIMINATE (8.13, 8.133, B103, B104, B146) ----------------------------

/// Blue activating (the Union decides); GSK on the gray display; gray's
/// marker on `reserve`, `casualties` casualties.
fn display(reserve: u8, casualties: u8) -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
    unit_mut(&mut g, "GSK").place = Place::Display;
    track(&mut g, "gray", reserve, casualties);
    activating(&mut g, "blue");
    g
}

fn eliminate_gsk(g: &mut BrothersAtWar) -> Result<Vec<Event>, String> {
    let o = g.parse_order("ELIMINATE GSK").unwrap();
    g.apply_standing(Side::Confederacy, &o)
        .map_err(|r| r.rule().0.to_string())
}

#[test]
fn eliminate_gives_up_a_disbanded_skirmisher_for_a_reserve_while_the_other_player_decides() {
    // B146: like a standing instruction, whoever decides (the Union here).
    // r = 2, c = 0: the casualty on START (c = 1), then the marker back to
    // space 1, which holds no casualty (8.13).
    let mut g = display(2, 0);
    let e = eliminate_gsk(&mut g).expect("B146");
    assert_eq!(place(&g, "GSK"), Place::Eliminated, "8.2");
    let after = gray_state(&g);
    assert_eq!((after.reserve, after.casualties), (1, 1));
    // B146: said once, as the skirmisher given up for the reserve.
    assert_eq!(
        e,
        vec![Event::SkirmisherGivenUp {
            unit: "GSK".into(),
            brigade: "gray".into(),
            saving: None,
        }]
    );
    assert_eq!(g.decider(), Some(Side::Union), "the Union still decides");
    assert_eq!(g.pending().unwrap().kind, Decision::Activate);
}

#[test]
fn eliminate_takes_an_exhausted_brigade_off_exhausted() {
    // B103: exhaustion ends whenever the marker leaves EXHAUSTED.
    let mut g = display(EXHAUSTED, 0);
    assert!(gray_state(&g).exhausted);
    eliminate_gsk(&mut g).expect("B146");
    let after = gray_state(&g);
    assert_eq!((after.reserve, after.casualties), (EXHAUSTED - 1, 1));
    assert!(!after.exhausted, "B102, B103");
}

#[test]
fn eliminate_is_refused_when_no_reserve_would_come_back() {
    // 8.13: the marker on START.
    let mut g = display(0, 0);
    assert_eq!(refused(&mut g, "ELIMINATE GSK"), "8.13");
    assert_eq!(place(&g, "GSK"), Place::Display);
    // 8.13, B104: r = 2, c = 1: the skirmisher's casualty fills space 1,
    // the space the marker would move back to.
    let mut g = display(2, 1);
    assert_eq!(refused(&mut g, "ELIMINATE GSK"), "8.13");
    // r = 1, c = 0: its casualty fills START, where the marker would go.
    let mut g = display(1, 0);
    assert_eq!(refused(&mut g, "ELIMINATE GSK"), "8.13");
}

#[test]
fn eliminate_is_refused_when_the_skirmisher_s_casualty_would_break_the_brigade() {
    // 8.3, 8.13, B104: r = 5, c = 3 (r >= c + 2), but gray breaks at its
    // 4th casualty (4 dark spaces): the casualty would break it, and a
    // broken brigade recovers nothing (B104: allowed only when the
    // recovery succeeds). Nothing changes.
    let mut g = display(5, 3);
    assert_eq!(refused(&mut g, "ELIMINATE GSK"), "8.13");
    assert_eq!(place(&g, "GSK"), Place::Display);
    assert!(!gray_state(&g).broken);
}

#[test]
fn reserves_gives_up_a_skirmisher_for_a_killing_hit_once_and_the_brigade_stays_exhausted() {
    // B104, 8.111: 2VA Disrupted at 0304; gray's marker one space before
    // EXHAUSTED (r = 5, c = 0); GSK waiting on the display; RESERVES gray
    // SPEND. 1NY's fire scores 2 hits, no save: two killing hits (B84).
    // The first spends the last reserve (r = 6): gray is exhausted
    // (8.111). The second finds none: GSK is given up (c = 1, r = 5) and
    // the reserve it buys back is spent at once (r = 6). 2VA stays; gray
    // is exhausted once, never "exhausted" twice, and GSK is given up in
    // one event, not as an elimination and a recovery.
    let mut g = next_to(&["2VA"]);
    track(&mut g, "gray", EXHAUSTED - 1, 0);
    unit_mut(&mut g, "GSK").place = Place::Display;
    order(&mut g, "RESERVES gray SPEND").unwrap();
    let e = fire_at_0304(&mut g, 2);
    union_acts_again(&g);
    assert_eq!(at(&g, "2VA"), Some(hex("0304")));
    assert_eq!(place(&g, "GSK"), Place::Eliminated, "B104");
    let after = gray_state(&g);
    assert_eq!((after.reserve, after.casualties), (EXHAUSTED, 1));
    assert!(after.exhausted, "8.111");
    let said: Vec<String> = e
        .iter()
        .filter(|x| {
            matches!(
                x,
                Event::SkirmisherGivenUp { .. }
                    | Event::ReserveRecovered { .. }
                    | Event::Combat(
                        CombatEvent::ReserveSpent { .. }
                            | CombatEvent::Exhausted { .. }
                            | CombatEvent::Eliminated { .. }
                    )
            )
        })
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        said,
        vec![
            "gray spends a reserve to save 2VA (8.11)".to_string(),
            "gray is exhausted (8.111)".to_string(),
            "gray has no reserve left to save 2VA: GSK, disbanded on its display, is given up \
             to buy one back: it becomes a casualty (one more on the display) and the reserve \
             it recovers is spent at once (RESERVES; 8.133, B104)"
                .to_string(),
            "gray spends a reserve to save 2VA (8.11)".to_string(),
        ]
    );
}

#[test]
fn reserves_gives_up_no_skirmisher_whose_casualty_would_break_the_brigade() {
    // 8.3, B104: r = 6 (EXHAUSTED), c = 3: GSK's casualty would be gray's
    // 4th, breaking it: the killing hit on 2VA finds no reserve and 2VA is
    // eliminated (6.54); GSK stays on the display. (2VA's own casualty
    // then breaks gray, 8.3.)
    let mut g = next_to(&["2VA"]);
    track(&mut g, "gray", EXHAUSTED, 3);
    unit_mut(&mut g, "GSK").place = Place::Display;
    order(&mut g, "RESERVES gray SPEND").unwrap();
    let e = fire_at_0304(&mut g, 1);
    assert_eq!(eliminated(&e), vec!["2VA".to_string()]);
    assert!(reserves_spent(&e).is_empty());
    assert!(!e
        .iter()
        .any(|x| matches!(x, Event::SkirmisherGivenUp { .. })));
    assert!(gray_state(&g).broken, "2VA's casualty is the 4th");
}

// ----- RETREAT ASK and a target that may not retreat (6.7, 6.76, B7, B90) -----

#[test]
fn retreat_ask_is_not_asked_of_a_skirmisher_and_the_mail_says_why() {
    // 6.76, B90: a skirmisher never retreats, so RETREAT gray ASK asks
    // nothing when 1NY's fire (0303) hits GSK (0305, one hex between, not
    // next to 1NY, 9.14): the event says why, and the save dice (the hex
    // between, GSK's loose formation, B77, B79) follow at once.
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("GSK", "0305")]);
    status(&mut g, "1NY", false, Face::Front);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ASK").unwrap();
    order(&mut g, "1NY FIRE 0305").unwrap();
    let e = roll_sixes(&mut g, 1);
    assert!(g.now.reaction.is_none(), "6.76: nothing is asked");
    assert!(dice_waiting(&g).is_some(), "the save dice come at once");
    assert!(
        e.contains(&Event::NoRetreat {
            units: vec!["GSK".into()],
            why: "a skirmisher never retreats (6.76)".into(),
        }),
        "{e:?}"
    );
    let e = fail_the_rest(&mut g);
    assert!(e
        .iter()
        .any(|x| matches!(x, Event::Disbanded { skirmisher } if skirmisher == "GSK")));
}

#[test]
fn eliminate_is_refused_for_a_skirmisher_on_the_map_or_a_unit_that_is_not_one() {
    // 8.133: only a disbanded skirmisher on its brigade's display.
    let mut g = display(2, 0);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0801"));
    assert_eq!(refused(&mut g, "ELIMINATE GSK"), "8.133");
    assert_eq!(place(&g, "GSK"), Place::Map(hex("0801")));
    let mut g = display(2, 0);
    assert_eq!(refused(&mut g, "ELIMINATE 1VA"), "8.133");
    assert_eq!(at(&g, "1VA"), Some(hex("0306")));
}

#[test]
fn eliminate_is_refused_for_the_other_players_skirmisher() {
    // B146: by its owner only (B5).
    let mut g = display(2, 0);
    let o = g.parse_order("ELIMINATE GSK").unwrap();
    let before = g.position();
    let r = g
        .apply_standing(Side::Union, &o)
        .expect_err("the Union gives up no Confederate skirmisher");
    assert!(matches!(r.rule().0, "B5" | "8.133"), "{}", r.rule().0);
    // Nor in his own mail while he decides.
    let r = g.apply(&o).expect_err("not his");
    assert!(matches!(r.rule().0, "B5" | "8.133"), "{}", r.rule().0);
    assert_eq!(g.position(), before);
    assert_eq!(place(&g, "GSK"), Place::Display);
}

// ----- 6. A property: every listed answer applies; PASS is the default ------

/// A random small position: `two` gray units (1VA, and 2VA) in 0604,
/// `disrupted` or not, their faces; the attack: 1NY firing from 0603,
/// 0602 or 0601 (1-3 hexes, lines open down the column), or an assault
/// from 0603 by 1NY or by the stack 2NYA + 2NYB; each brigade's reserve
/// marker and casualties, its skirmisher on the display or not.
#[derive(Clone, Debug)]
struct Setup {
    two: bool,
    disrupted: bool,
    formed: (bool, bool),
    attack: u8,
    gray: (u8, u8, bool),
    blue: (u8, u8, bool),
    /// LOSSES, RESERVES, PATHS, RETREAT for gray: an index into the values
    /// below (0: none given).
    gray_set: (usize, usize, usize, usize),
    /// LOSSES, RESERVES, PATHS for blue.
    blue_set: (usize, usize, usize),
}

const LOSSES: [&str; 4] = ["", "WEAKEST", "STRONGEST", "ASK"];
const RESERVES: [&str; 5] = ["", "SPEND", "KEEPLAST", "KEEP", "ASK"];
const PATHS: [&str; 3] = ["", "AUTO", "ASK"];
const RETREAT: [&str; 4] = ["", "NEVER", "IFKILLED", "ALWAYS"];

fn position(s: &Setup) -> BrothersAtWar {
    let mut g = field();
    let mut placed = vec![("1VA", "0604")];
    if s.two {
        placed.push(("2VA", "0604"));
    }
    match s.attack {
        0 => placed.push(("1NY", "0603")),
        1 => placed.push(("1NY", "0602")),
        2 => placed.push(("1NY", "0601")),
        3 => placed.push(("1NY", "0603")),
        _ => placed.extend([("2NYA", "0603"), ("2NYB", "0603")]),
    }
    only(&mut g, &placed);
    let face = |f: bool| if f { Face::Front } else { Face::Back };
    status(&mut g, "1VA", s.disrupted, face(s.formed.0));
    if s.two {
        status(&mut g, "2VA", s.disrupted, face(s.formed.1));
    }
    status(&mut g, "1NY", false, Face::Front);
    status(&mut g, "2NYA", false, Face::Back);
    status(&mut g, "2NYB", false, Face::Back);
    for (name, sk, (r, c, on_display)) in [("gray", "GSK", s.gray), ("blue", "BSK", s.blue)] {
        track(&mut g, name, r, c.min(r));
        unit_mut(&mut g, sk).place = if on_display {
            Place::Display
        } else {
            Place::Removed
        };
    }
    activating(&mut g, "blue");
    g
}

/// Gives the setup's instructions, `ASK` left out when `asks` is false
/// (the setting's default then holds, B5, B6).
fn instruct(g: &mut BrothersAtWar, s: &Setup, asks: bool) {
    let (l, r, p, t) = s.gray_set;
    let (bl, br, bp) = s.blue_set;
    for (word, scope, value) in [
        ("LOSSES", "gray", LOSSES[l]),
        ("RESERVES", "gray", RESERVES[r]),
        ("PATHS", "gray", PATHS[p]),
        ("RETREAT", "gray", RETREAT[t]),
        ("LOSSES", "blue", LOSSES[bl]),
        ("RESERVES", "blue", RESERVES[br]),
        ("PATHS", "blue", PATHS[bp]),
    ] {
        if value.is_empty() || (value == "ASK" && !asks) {
            continue;
        }
        let text = format!("{word} {scope} {value}");
        order(g, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// Every answer a question offers, as an order (B145).
fn offered(g: &BrothersAtWar, q: &Question) -> Vec<Order> {
    match q {
        Question::Loss { units } => units.iter().map(|&u| Order::Lose(g.unit_name(u))).collect(),
        Question::Reserve { .. } => vec![Order::SpendReserve, Order::Keep],
        Question::Path { paths, .. } => paths.iter().map(|p| Order::Retreat(p.clone())).collect(),
        Question::Commander { hexes, .. } => {
            hexes.iter().map(|&h| Order::Commander(Some(h))).collect()
        }
        Question::Remnant { hexes, .. } => hexes.iter().map(|&h| Order::Remnant(h)).collect(),
        Question::Card { cards, .. } => cards
            .iter()
            .map(|&card| Order::Play { card, on: None })
            .collect(),
    }
}

/// The units a question is about: their side answers it.
fn concerned(q: &Question) -> Vec<UnitId> {
    match q {
        Question::Loss { units } | Question::Path { units, .. } => units.clone(),
        Question::Reserve { unit, .. } => vec![*unit],
        // A displaced commander is his brigade's: no unit to check (B47).
        Question::Commander { .. } | Question::Remnant { .. } => Vec::new(),
        Question::Card { .. } => panic!("this field's cards are blank: no card question (B148)"),
    }
}

/// Plays the attack to its end, chance from `dice`, every question answered
/// PASS after checking every listed order applies.
fn play(s: &Setup, asks: bool, dice: &[u32]) -> Result<BrothersAtWar, TestCaseError> {
    let mut g = position(s);
    instruct(&mut g, s, asks);
    let attack = match s.attack {
        0..=2 => "1NY FIRE 0604",
        3 => "1NY MOVE 0604",
        _ => "2NYA 2NYB MOVE 0604",
    };
    order(&mut g, attack).unwrap_or_else(|e| panic!("{attack}: {e}"));
    let pass = g.parse_order("PASS").unwrap();
    let mut draws = 0usize;
    let mut questions = 0usize;
    for _ in 0..200 {
        if let Some(c) = g.chance() {
            let o = g
                .chance_order(dice[draws % dice.len()] % c.outcomes)
                .expect("an outcome");
            draws += 1;
            g.apply(&o)
                .map_err(|e| TestCaseError::fail(format!("{o}: {e}")))?;
            continue;
        }
        let Some(r) = g.now.reaction.clone() else {
            return Ok(g);
        };
        prop_assert!(asks, "asked {:?} with no ASK instruction", r);
        let q = r
            .question
            .clone()
            .ok_or_else(|| TestCaseError::fail(format!("not a question of B145: {r:?}")))?;
        questions += 1;
        prop_assert!(questions <= 16, "questions keep coming");
        // B145: the owner of the units concerned answers.
        for u in concerned(&q) {
            prop_assert_eq!(g.side_of(u), r.side, "{:?}", q);
        }
        let legal = g.legal();
        // B7: PASS always; and every answer the question offers.
        prop_assert!(legal.contains(&pass), "PASS not listed for {:?}", q);
        for o in offered(&g, &q) {
            prop_assert!(legal.contains(&o), "{} not listed for {:?}", o, q);
        }
        for o in &legal {
            let mut copy = g.clone();
            let applied = copy.apply(o);
            prop_assert!(applied.is_ok(), "{} listed but refused: {:?}", o, applied);
        }
        g.apply(&pass)
            .map_err(|e| TestCaseError::fail(format!("PASS: {e}")))?;
    }
    Err(TestCaseError::fail("the attack never ended"))
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            0u8..5,
        ),
        (0u8..=EXHAUSTED, 0u8..=3, any::<bool>()),
        (0u8..=EXHAUSTED, 0u8..=3, any::<bool>()),
        (0usize..4, 0usize..5, 0usize..3, 0usize..4),
        (0usize..4, 0usize..5, 0usize..3),
    )
        .prop_map(
            |((two, disrupted, f0, f1, attack), gray, blue, gray_set, blue_set)| Setup {
                two,
                disrupted,
                formed: (f0, f1),
                attack,
                gray,
                blue,
                gray_set,
                blue_set,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// B145, B7: while a question is pending every listed order applies;
    /// answering PASS to every question ends where the defaults end.
    #[test]
    fn pass_to_every_question_is_the_default_and_every_listed_answer_applies(
        s in setup(),
        dice in prop::collection::vec(any::<u32>(), 24),
    ) {
        let mut asked = play(&s, true, &dice)?;
        let mut defaults = play(&s, false, &dice)?;
        prop_assert!(asked.now.answers.is_empty(), "answers kept after the result");
        asked.now.instructions = Default::default();
        defaults.now.instructions = Default::default();
        prop_assert_eq!(asked.position(), defaults.position(), "{:?}", s);
    }
}

// ----- The mover's lines after a question (the service's seam, B7) --------
// Added by the service's author, not by the independent set above: the
// lines a mover wrote after a fire that raised a question wait for the
// answer (B7: "the mover's remaining orders wait too and resume after
// it"), they are not lost as if his turn had ended.

#[test]
fn the_movers_lines_after_a_fire_that_raises_a_question_are_held_then_played() {
    use orderly::games::submission::{release, submit, submit_after_draw};
    let mut g = next_to(&["2VA"]);
    order(&mut g, "RESERVES gray ASK").unwrap();
    let s = submit(&mut g, Seat::North, &["1NY FIRE 0304", "END UNITS"]);
    assert_eq!(s.taken.len(), 1);
    assert_eq!(s.rest, vec!["END UNITS".to_string()]);
    assert!(
        s.rest_in_first_half,
        "the units' part has a commander's part after it"
    );
    roll_sixes(&mut g, 1);
    fail_the_rest(&mut g);
    assert!(matches!(asked(&g, Seat::South), Question::Reserve { .. }));
    let after = submit_after_draw(&mut g, Seat::North, &s.rest, s.rest_in_first_half);
    assert_eq!(after.held, vec!["END UNITS".to_string()]);
    assert!(after.unused.is_empty() && after.refused.is_none());
    order(&mut g, "KEEP").unwrap();
    let r = release(&mut g, Seat::North, &after.held);
    assert_eq!(
        r.taken.len(),
        1,
        "END UNITS is played once the answer is in"
    );
    assert!(r.refused.is_none() && r.unused.is_empty());
}

#[test]
fn the_movers_lines_after_a_question_asked_of_himself_are_held_then_played() {
    // B7, R4: the mover's own unit, fired at in his own activation, raises
    // his own RETREAT ASK question; the lines after it were not written as
    // its answer: they wait for it and are played after it.
    use orderly::games::submission::{release, submit, submit_after_draw};
    let mut g = field();
    only(
        &mut g,
        &[("1NY", "0302"), ("2NYA", "0102"), ("1VA", "0305")],
    );
    status(&mut g, "1NY", false, Face::Back);
    status(&mut g, "2NYA", false, Face::Back);
    status(&mut g, "1VA", false, Face::Back);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT blue ASK").unwrap();
    let s = submit(&mut g, Seat::North, &["1NY MOVE 0303", "2NYA MOVE 0103"]);
    assert_eq!(s.taken.len(), 1, "{:?}", s.refused);
    assert_eq!(
        s.rest,
        vec!["2NYA MOVE 0103".to_string()],
        "1VA's fire waits for its dice"
    );
    roll_sixes(&mut g, 1);
    let r = g
        .now
        .reaction
        .as_ref()
        .expect("1NY is asked whether it retreats");
    assert_eq!(r.side, Side::Union, "the mover himself is asked");
    let after = submit_after_draw(&mut g, Seat::North, &s.rest, s.rest_in_first_half);
    assert_eq!(after.held, vec!["2NYA MOVE 0103".to_string()]);
    assert!(
        after.refused.is_none() && after.unused.is_empty() && after.taken.is_empty(),
        "not refused as an answer: {:?}",
        after.refused
    );
    order(&mut g, "PASS").unwrap();
    fail_the_rest(&mut g);
    let r = release(&mut g, Seat::North, &after.held);
    assert_eq!(
        r.taken.len(),
        1,
        "2NYA moves once he has answered: {:?}",
        r.refused
    );
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0103")));
}

#[test]
fn losses_ask_asks_nothing_when_a_reserve_is_spent_anyway() {
    // B145: which unit of the stack is lost matters only when the hit
    // kills; under RESERVES SPEND (the default) a reserve saves either.
    let mut g = next_to(&["1VA", "2VA"]);
    order(&mut g, "LOSSES gray ASK").unwrap();
    let e = fire_at_0304(&mut g, 1);
    assert!(g.now.reaction.is_none(), "nothing is asked");
    assert_eq!(reserves_spent(&e).len(), 1, "{e:?}");
    assert!(eliminated(&e).is_empty());
}
