#[path = "../common/mod.rs"]
mod common;

// `CARDS brigade|USA|CSA ASK` (B148): at each moment where `CARDS ... AUTO`
// would look for a card (the windows of B137, looked up for the same brigade
// or side, with the same conditions for a card to act there, B137-B144), a
// player holding at least one card that can act there is asked, the cards
// listed lowest first; `PLAY n` plays that one with exactly the effect AUTO's
// play of it would have had, `PASS` plays none (as NEVER). Nothing of what
// opened the window is applied while he thinks (the order or the draw of
// chance waits, whole); a question inside a combat result is asked as
// B145's are, its dice already shown. ASK also opens the re-rolls AUTO
// leaves closed (B140): a fire's attack dice and save dice (`after-roll`,
// `reroll-any-die`), and both re-roll kinds for the loser of an assault as
// rolled. Every expected result is worked out by hand from the rulebook
// (6.x, 7.x, 8.1x, 9.1x, 11.x) and the rulings (B5-B11, B77-B99, B120-B148),
// never from the engine.
//
// The ground: the test battle's order of battle on its 8 x 6 map made open
// and level everywhere, no roads, trails, fords or fences: every step costs
// 1 and every line of sight is open unless a unit stands in it. The Union
// rallies at 0101, the Confederacy at 0806. Commanders stand where the test
// battle puts them (Col. Ash 0201, Maj. Elm 0601, Col. Oak 0506, Col. Fir
// 0806); a commander is not a unit and stacks with anybody (4.1, B47).
// Reserve tracks: blue and gray 4 spaces to EXHAUSTED. The activation track
// is blank but for its last space (no draw or countdown symbol in the way).
//
// Units (the test battle's ratings): 1NY (blue) formed infantry, firepower
// 4; 2NYA, 2NYB (blue) unformed infantry, firepower 3; 1VA (gray) formed
// infantry, firepower 4; 2VA (gray) infantry, firepower 3, Disrupted by the
// test battle (made ready and formed where said); GSK gray's skirmisher.
//
// Hexes (B15: even columns sit half a hex north of odd ones), counted by
// hand: 0304 touches 0303, 0305, 0204, 0205, 0404, 0405; 0305 touches 0304,
// 0306, 0205, 0206, 0405, 0406; 0306 touches 0305, 0206, 0406; 0206 touches
// 0205, 0105, 0106, 0305, 0306; 0406 touches 0405, 0305, 0306, 0505, 0506.
// Distances to the gray rally point 0806: 0206 6, 0306 5, 0305 5, 0406 4,
// 0405 4, 0506 3, 0505 3.
//
// Retreat paths (6.71, 6.73, B86, B89, B92), by hand:
// - from 0306 (or 0305) with the enemy at 0304: the steps nearer 0806 are
//   0406 (from 0306 the only one) and, from 0305, 0405, which touches 0304
//   (an extra hit); from 0406 both 0505 and 0506 are nearer, neither
//   touching 0304; 0506 ends 3 hexes from 0304, 0505 only 2: B92 takes
//   0406-0506, no extra hit.
// - from 0206 with the enemy at 0304 and 0306 empty: the steps nearer 0806
//   are 0305 (touches 0304: a hit) and 0306 (does not); from 0306 only
//   0406; from 0305, 0405 (a hit) or 0406: B92 takes 0306-0406, no extra
//   hit, ending 2 from 0304.
// - from 0304 towards 0101 with the enemy at 0305: 0204-0103 (the lowest
//   of four equal paths, as in brothers_at_war_card_attacks.rs).
//
// Dice (6.0, 7.11, B82, B97): a fire die hits on 5-6 here; in an assault
// unformed infantry hits on 5-6, formed 1VA (+1) on 4-6. 6.6's saves: 1 for
// each hex between firer and target, 1 for a Disrupted target, 1 for a
// retreat; nothing else applies on this ground.
//
// The deck is ours (cards 1-26, below). Cards are put into hands directly
// (`hands[0]` the Union's, `hands[1]` the Confederacy's), each taken out of
// the deck, so that deck, hands and discard pile stay one set. A card
// played leaves the hand for the discard pile face up (11.2, B134); hands
// keep the order the cards were given in.

use common::brothers_at_war_decks::{
    brigade, deck_text, dice_waiting, disrupted, finished, give, open_field_with_deck, roll,
    settle, CSA, USA,
};
use common::brothersatwar::{activating, hex, id, only, order, quiet, refused, unit_mut};
use orderly::games::brothers_at_war::core::combat::{CombatEvent, FireType};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::order::Order;
use orderly::games::brothers_at_war::core::question::Question;
use orderly::games::brothers_at_war::core::state::{
    BrigadeState, BrothersAtWar, CardEffect, Place, Step, UnitState,
};
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::{Face, Side};
use orderly::games::{Game, Phase, Seat};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Our deck: two cards of most kinds B137 carries out (so that a question
/// lists two), cards of the same window that cannot act at a moment, and
/// cards of other windows.
const DECK: &str = r#"
[[card]]
numbers = [1, 2]
name = "Hold your fire (test)"
timing = "targeted"
effect = "cancel-fire"
text = "Ours: an enemy fire at a unit of yours has no effect."

[[card]]
numbers = [3]
name = "Skedaddle (test)"
timing = "targeted"
effect = "cancel-targeting-retreat"
params = { hexes = 2 }
text = "Ours: your unit targeted falls back two hexes before the dice."

[[card]]
numbers = [4]
name = "Stand and fight (test)"
timing = "targeted"
effect = "extra-assault-dice"
params = { dice = 2 }
text = "Ours: your unit assaulted rolls two dice more."

[[card]]
numbers = [5]
name = "Dead ground (test)"
timing = "after-hits"
effect = "extra-saves-after-hits"
params = { saves = 2 }
text = "Ours: your unit hit rolls two saves more."

[[card]]
numbers = [6]
name = "Low ground (test)"
timing = "after-hits"
effect = "extra-saves-after-hits"
params = { saves = 1 }
text = "Ours: your unit hit rolls one save more."

[[card]]
numbers = [7]
name = "The slows (test)"
timing = "enemy-activation"
effect = "cancel-activation"
text = "Ours: the enemy activation just drawn is lost."

[[card]]
numbers = [8]
name = "Out of cartridges (test)"
timing = "enemy-activation"
effect = "no-fire"
text = "Ours: the enemy brigade just drawn may not fire in this activation."

[[card]]
numbers = [9, 24]
name = "Cold feet (test)"
timing = "enemy-hit"
effect = "forced-retreat"
text = "Ours: an enemy unit your fire has hit retreats, gaining its save."

[[card]]
numbers = [10, 11]
name = "Stubborn (test)"
timing = "retreat"
effect = "cancel-retreat"
text = "Ours: a retreat for saves does not happen; its saves are lost."

[[card]]
numbers = [12, 25]
name = "Stampede (test)"
timing = "retreat"
effect = "stampede-neighbour"
params = { reach = 2 }
text = "Ours: an enemy unit near the one that retreated retreats too."

[[card]]
numbers = [13, 14]
name = "Point blank (test)"
timing = "enemy-enters"
effect = "point-blank-fire-any-unit"
text = "Ours: your unit fires point blank at the enemy stepping next to it."

[[card]]
numbers = [15]
name = "Great deeds (test)"
timing = "exhausts"
effect = "regroup-check"
params = { bonus = 1 }
text = "Ours: when a brigade of yours exhausts, it may regroup, +1."

[[card]]
numbers = [16]
name = "Greater deeds (test)"
timing = "exhausts"
effect = "regroup-check"
params = { bonus = 2 }
text = "Ours: when a brigade of yours exhausts, it may regroup, +2."

[[card]]
numbers = [17, 18]
name = "Hold the line (test)"
timing = "skirmisher"
effect = "skirmisher-does-not-disband"
params = { ignore-disband = true }
text = "Ours: your skirmisher stays where it is as the enemy comes up."

[[card]]
numbers = [19, 20]
name = "Lady luck (test)"
timing = "after-roll"
effect = "reroll-any-die"
text = "Ours: roll again."

[[card]]
numbers = [21]
name = "Fighting mad (test)"
timing = "assault-dice"
effect = "reroll-assault-dice"
params = { cost = 1 }
text = "Ours: a unit of yours re-rolls its assault dice and takes a hit."

[[card]]
numbers = [22]
name = "Stand ready (test)"
timing = "any"
effect = "remove-finished"
text = "Ours: a hex of yours loses its Finished marker."

[[card]]
numbers = [23]
name = "Letters home (test)"
timing = "none"
effect = "no-effect"
text = "Ours: no effect."

[[card]]
numbers = [26]
name = "Crack shots (test)"
timing = "skirmisher"
effect = "skirmisher-does-not-disband"
params = { max-hits = 2 }
text = "Ours: your skirmisher's fire scores up to two hits."
"#;

/// How many card numbers the deck holds: 1-26.
const CARDS: u8 = 26;

fn field() -> BrothersAtWar {
    open_field_with_deck(DECK, "test-cards-asking", true)
}

// ----- helpers -----------------------------------------------------------

fn played(events: &[Event]) -> Vec<(Side, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CardPlayed { side, card, .. } => Some((*side, *card)),
            _ => None,
        })
        .collect()
}

fn retreats(events: &[Event]) -> Vec<(Vec<String>, Vec<String>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Combat(CombatEvent::Retreated { units, path }) => {
                Some((units.clone(), path.iter().map(|h| h.to_string()).collect()))
            }
            _ => None,
        })
        .collect()
}

fn along(unit: &str, hexes: &[&str]) -> (Vec<String>, Vec<String>) {
    (
        vec![unit.to_string()],
        hexes.iter().map(|h| h.to_string()).collect(),
    )
}

fn point_blank(events: &[Event]) -> Vec<(Vec<String>, String, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Combat(CombatEvent::Fire {
                firers,
                target,
                kind: FireType::PointBlank,
                dice,
                ..
            }) => Some((firers.clone(), target.to_string(), *dice)),
            _ => None,
        })
        .collect()
}

fn assault_won(events: &[Event]) -> Option<(Side, u8)> {
    events.iter().find_map(|e| match e {
        Event::Combat(CombatEvent::AssaultWon {
            winner,
            defender_hits,
            ..
        }) => Some((*winner, *defender_hits)),
        _ => None,
    })
}

fn disbanded(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Disbanded { skirmisher } => Some(skirmisher.clone()),
            _ => None,
        })
        .collect()
}

fn at(g: &BrothersAtWar, name: &str) -> Option<String> {
    g.hex_of(id(g, name)).map(|h| h.to_string())
}

fn unharmed(g: &BrothersAtWar, name: &str) -> bool {
    let u = g.unit(id(g, name));
    u.face == Face::Front && !u.disrupted
}

fn side_of_seat(seat: Seat) -> Side {
    if seat == Seat::South {
        Side::Confederacy
    } else {
        Side::Union
    }
}

fn hand_of(side: Side) -> usize {
    if side == Side::Union {
        USA
    } else {
        CSA
    }
}

/// The card question pending (B148), after checking it is read as B145's
/// are: a reaction decision of `seat`'s, its side the decider, no chance
/// draw waiting; the cards listed lowest first, each in his hand; the words
/// for his mail not empty. Returns the window and the cards.
fn asked(g: &BrothersAtWar, seat: Seat) -> (String, Vec<u8>) {
    assert!(
        g.chance().is_none(),
        "B145, B148: no dice wait while he is asked"
    );
    let p = g.pending().expect("B7: the engine asks");
    assert_eq!(
        (p.seat, p.phase, p.kind),
        (seat, Phase::Reaction, Decision::Reaction)
    );
    let side = side_of_seat(seat);
    let r = g.now.reaction.as_ref().expect("a reaction is pending");
    assert_eq!(r.side, side, "the holder is asked");
    assert_eq!(g.decider(), Some(side));
    match r.question.clone() {
        Some(Question::Card {
            window,
            cards,
            about,
        }) => {
            assert!(!about.is_empty(), "B7: the event is named");
            assert!(
                !cards.is_empty(),
                "B148: asked only with a card that can act"
            );
            let mut sorted = cards.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted, cards, "B148: lowest first");
            for c in &cards {
                assert!(g.now.hands[hand_of(side)].contains(c), "card {c} is his");
            }
            (window, cards)
        }
        q => panic!("B148: a card question, not {q:?}"),
    }
}

/// Nothing is asked: no reaction waits.
fn not_asked(g: &BrothersAtWar) {
    assert!(
        g.now.reaction.is_none(),
        "nothing is asked: {:?}",
        g.now.reaction
    );
}

fn decides(g: &BrothersAtWar, seat: Seat) {
    assert!(g.chance().is_none(), "no chance waits");
    not_asked(g);
    let p = g.pending().expect("play goes on");
    assert_eq!((p.seat, p.kind), (seat, Decision::Activate));
}

/// What an order or a draw may change: units, brigades, the cards.
type Frozen = (
    Vec<UnitState>,
    Vec<BrigadeState>,
    [Vec<u8>; 2],
    Vec<u8>,
    Vec<u8>,
);

fn frozen(g: &BrothersAtWar) -> Frozen {
    (
        g.now.units.clone(),
        g.now.brigades.clone(),
        g.now.hands.clone(),
        g.now.discard.clone(),
        g.now.deck.clone(),
    )
}

/// B148: "with exactly the effect AUTO's play of it would have had", and
/// PASS as NEVER: the two games stand alike once the instructions (and,
/// where the hands were set apart on purpose, the hands and deck) are
/// taken out of the comparison.
fn same_game(asked: &BrothersAtWar, other: &BrothersAtWar, cards_too: bool, what: &str) {
    let mut a = asked.clone();
    let mut b = other.clone();
    a.now.instructions = Default::default();
    b.now.instructions = Default::default();
    assert!(a.now.held.is_none(), "{what}: nothing held any more");
    if !cards_too {
        b.now.hands = a.now.hands.clone();
        b.now.deck = a.now.deck.clone();
    }
    assert_eq!(a.now.units, b.now.units, "{what}: units");
    assert_eq!(a.now.brigades, b.now.brigades, "{what}: brigades");
    assert_eq!(a.now.discard, b.now.discard, "{what}: discard pile");
    assert_eq!(
        a.now.card_effects, b.now.card_effects,
        "{what}: card effects"
    );
    assert_eq!(
        a.chance().map(|c| c.outcomes),
        b.chance().map(|c| c.outcomes),
        "{what}: the chance waiting"
    );
    assert_eq!(a.position(), b.position(), "{what}: the whole position");
}

/// Every card number of the deck is in exactly one of the hands, the deck
/// and the discard pile (11.0, 11.2, B1).
fn conserved(g: &BrothersAtWar) -> bool {
    let mut all: Vec<u8> = g.now.hands[0]
        .iter()
        .chain(g.now.hands[1].iter())
        .chain(g.now.deck.iter())
        .chain(g.now.discard.iter())
        .copied()
        .collect();
    all.sort_unstable();
    all == (1..=CARDS).collect::<Vec<u8>>()
}

fn give_all(g: &mut BrothersAtWar, side: usize, cards: &[u8]) {
    for &c in cards {
        give(g, side, c);
    }
}

// ----- positions -----------------------------------------------------------

/// 1NY (blue, formed, 4 dice) at 0304 fires at 1VA (gray, formed) at 0306,
/// two hexes off in the open (1 save for the hex between); blue activating;
/// gray's RETREAT instruction `retreat` (B5).
fn volley(retreat: &str) -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, &format!("RETREAT gray {retreat}")).unwrap();
    g
}

/// 2NYA (unformed, 3 dice on 5-6) at 0304 next to 1VA (formed, 4 dice on
/// 4-6) at 0305; blue activating; gray stands (EVADE NEVER by default). The
/// assault step is not a move action (B96).
fn bayonets() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    g
}

/// 2NYA and 2NYB (unformed, 3 dice each) at 0304, assaulting together
/// (5.33, B61, B96), next to 1VA at 0305; blue activating.
fn pair() -> BrothersAtWar {
    let mut g = field();
    only(
        &mut g,
        &[("2NYA", "0304"), ("2NYB", "0304"), ("1VA", "0305")],
    );
    activating(&mut g, "blue");
    g
}

// ----- the deck ------------------------------------------------------------

#[test]
fn b122_b125_the_asking_deck_passes_the_scenario_check() {
    // B122, B125, the table "Card effect kinds": every kind in its window,
    // its parameters within bounds.
    let problems = orderly::games::brothers_at_war::scenario::check(&deck_text(DECK, true));
    assert!(problems.is_empty(), "{problems:#?}");
    let g = field();
    let numbers: usize = g
        .battle
        .scenario
        .cards
        .iter()
        .map(|c| c.numbers.len())
        .sum();
    assert_eq!(numbers, usize::from(CARDS));
    assert!(conserved(&g));
}

#[test]
fn b148_cards_ask_is_a_standing_instruction() {
    // B5, B148: `CARDS brigade|USA|CSA ASK` parses and is kept like the
    // other values; the owner sends it whoever decides (B5, B8).
    let mut g = volley("NEVER");
    for text in [
        "CARDS gray ASK",
        "CARDS CSA ASK",
        "CARDS USA ASK",
        "CARDS blue ASK",
    ] {
        let o = g.parse_order(text).unwrap();
        assert!(matches!(o, Order::Instruct { .. }), "{text}");
        assert_eq!(o.to_string(), text);
        order(&mut g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    decides(&g, Seat::North);
}

// ----- 1. each window under ASK ------------------------------------------

#[test]
fn b148_b137_targeted_fire_lists_cancel_fire_and_fall_back_and_play_takes_the_one_named() {
    // B137 `targeted`, looked up for gray (1VA's brigade); B141: the fall
    // back 3 can act (1VA is neither skirmisher nor remnant, not of blue the
    // brigade activating, and can retreat: 0406-0506). Hand 22 (`any`), 4
    // (extra-assault-dice: `targeted`, but it acts on an assault only), 23
    // (no effect), 5 (`after-hits`), 2, 1, 3: listed [1, 2, 3].
    // While asked nothing of the FIRE is applied: 1NY is not yet Finished,
    // no dice wait, hands and discard pile as before (B148).
    // PLAY 3 (AUTO would have played 1): 1VA falls back 0406-0506 before
    // any die, unharmed, Finished (6.77); the fire is not resolved, 1NY is
    // Finished (B141). Exactly AUTO's play of 3: compared with AUTO holding
    // 3 as its lowest `targeted` card.
    let hand = [22u8, 4, 23, 5, 2, 1, 3];
    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &hand);
    let before = frozen(&g);
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(
        asked(&g, Seat::South),
        ("targeted".to_string(), vec![1, 2, 3])
    );
    assert_eq!(frozen(&g), before, "B148: the fire waits, whole");
    assert!(!finished(&g, "1NY"));
    let e = order(&mut g, "PLAY 3").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 3)]);
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(g.now.hands[CSA], vec![22, 4, 23, 5, 2, 1]);
    assert_eq!(g.now.discard, vec![3]);
    assert_eq!(dice_waiting(&g), None, "no dice for the fire");
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    assert!(unharmed(&g, "1VA") && finished(&g, "1VA"));
    assert!(finished(&g, "1NY"), "B141");
    decides(&g, Seat::North);

    let mut auto = volley("NEVER");
    order(&mut auto, "CARDS gray AUTO").unwrap();
    give_all(&mut auto, CSA, &[22, 4, 23, 5, 3]);
    let e = order(&mut auto, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 3)]);
    same_game(&g, &auto, false, "PLAY 3 as AUTO's 3");
}

#[test]
fn b148_targeted_fire_play_of_the_higher_cancel_fire_card_and_pass() {
    // Hand 2, 1 (both cancel-fire): listed [1, 2]. PLAY 2: the fire has no
    // effect, no dice, 1NY Finished (6.11), card 1 stays; the same as
    // AUTO's play of 1 but for which card went. PASS: no card, the fire
    // rolls its 4 dice (6.0), the hand unchanged: the game as under NEVER.
    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[2, 1]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(asked(&g, Seat::South), ("targeted".to_string(), vec![1, 2]));
    let e = order(&mut g, "PLAY 2").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert_eq!(g.now.hands[CSA], vec![1]);
    assert_eq!(g.now.discard, vec![2]);
    assert_eq!(dice_waiting(&g), None);
    assert!(finished(&g, "1NY"));
    assert!(unharmed(&g, "1VA"));
    assert_eq!(at(&g, "1VA").as_deref(), Some("0306"));
    decides(&g, Seat::North);

    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[2, 1]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    asked(&g, Seat::South);
    let e = order(&mut g, "PASS").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[CSA], vec![2, 1]);
    assert!(g.now.discard.is_empty());
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let mut never = volley("NEVER");
    give_all(&mut never, CSA, &[2, 1]);
    order(&mut never, "1NY FIRE 0306").unwrap();
    same_game(&g, &never, true, "PASS as NEVER");
}

#[test]
fn b141_b148_the_fall_back_is_offered_only_when_the_target_can_retreat_and_is_not_activating() {
    // B141: never for units of the brigade activating, only if they can
    // retreat (6.71; a unit on its own rally point cannot, 6.732 c).
    // (1) 1NY at 0804 fires at 1VA on the gray rally point 0806: hand 3, 1:
    //     listed [1] only. Hand 3 alone: not asked; 4 dice (6.0).
    // (2) Gray activating, 1VA steps 0306-0305, 3 hexes from 1NY at 0302:
    //     1NY's opportunity fire (OPFIRE ALWAYS by default, 6.12, B69) at
    //     the mover's unit: hand 3, 1: listed [1]; hand 3 alone: not asked.
    for (hand, listed) in [(vec![3u8, 1], Some(vec![1u8])), (vec![3], None)] {
        let mut g = field();
        only(&mut g, &[("1NY", "0804"), ("1VA", "0806")]);
        activating(&mut g, "blue");
        order(&mut g, "CARDS gray ASK").unwrap();
        give_all(&mut g, CSA, &hand);
        order(&mut g, "1NY FIRE 0806").unwrap();
        match &listed {
            Some(cards) => {
                assert_eq!(
                    asked(&g, Seat::South),
                    ("targeted".to_string(), cards.clone())
                )
            }
            None => {
                not_asked(&g);
                assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{hand:?}");
            }
        }

        let mut g = field();
        only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
        activating(&mut g, "gray");
        order(&mut g, "CARDS gray ASK").unwrap();
        give_all(&mut g, CSA, &hand);
        let before = frozen(&g);
        order(&mut g, "1VA MOVE 0305").unwrap();
        match &listed {
            Some(cards) => {
                assert_eq!(
                    asked(&g, Seat::South),
                    ("targeted".to_string(), cards.clone())
                );
                assert_eq!(frozen(&g), before, "B148: the step waits");
                assert_eq!(at(&g, "1VA").as_deref(), Some("0306"));
                // PLAY 1: the opportunity fire has no effect; 1NY Finished
                // (6.12); 1VA in 0305 unharmed, still active.
                let e = order(&mut g, "PLAY 1").unwrap();
                assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
                assert_eq!(at(&g, "1VA").as_deref(), Some("0305"));
                assert!(unharmed(&g, "1VA") && !finished(&g, "1VA"));
                assert!(finished(&g, "1NY"));
                assert_eq!(g.now.hands[CSA], vec![3]);
                decides(&g, Seat::South);
            }
            None => {
                not_asked(&g);
                assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{hand:?}");
            }
        }
    }
}

#[test]
fn b148_b137_targeted_assault_lists_fall_back_and_extra_dice_and_play_takes_the_one_named() {
    // B137 `targeted` for the defender of an assault (after his stand:
    // EVADE NEVER by default), B141: hand 1 (cancel-fire: fire only), 4
    // (extra-assault-dice 2), 3 (fall back): listed [3, 4], asked as the
    // assault is declared, before any die; nothing applied meanwhile.
    // - PLAY 4 (AUTO would have played 3): no fall back; 2NYA rolls its 3
    //   dice, then 1VA 4 + 2 = 6 (7.1, 11.3 on 1-2); AUTO holding 4 alone
    //   does the same.
    // - PLAY 3: 1VA falls back 0406-0506; 2NYA enters 0305, Finished (B141);
    //   no dice.
    // - PASS: 3 dice, then 1VA's own 4: as NEVER.
    let mut g = bayonets();
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[1, 4, 3]);
    let before = frozen(&g);
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(asked(&g, Seat::South), ("targeted".to_string(), vec![3, 4]));
    assert_eq!(frozen(&g), before);
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0304"));
    let e = order(&mut g, "PLAY 4").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 4)]);
    assert!(retreats(&e).is_empty());
    assert_eq!(g.now.hands[CSA], vec![1, 3]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "2NYA's 3");
    roll(&mut g, "1 1 1");
    assert_eq!(dice_waiting(&g), Some(6u32.pow(6)), "4 + 2");
    let mut auto = bayonets();
    order(&mut auto, "CARDS gray AUTO").unwrap();
    give_all(&mut auto, CSA, &[1, 4]);
    order(&mut auto, "2NYA MOVE 0305").unwrap();
    roll(&mut auto, "1 1 1");
    same_game(&g, &auto, false, "PLAY 4 as AUTO's 4");

    let mut g = bayonets();
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[1, 4, 3]);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    asked(&g, Seat::South);
    let e = order(&mut g, "PLAY 3").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 3)]);
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(dice_waiting(&g), None);
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0305"));
    assert!(finished(&g, "2NYA"));
    assert_eq!(g.now.hands[CSA], vec![1, 4]);
    let mut auto = bayonets();
    order(&mut auto, "CARDS gray AUTO").unwrap();
    give_all(&mut auto, CSA, &[1, 4, 3]);
    order(&mut auto, "2NYA MOVE 0305").unwrap();
    same_game(&g, &auto, true, "PLAY 3 as AUTO's 3");

    let mut g = bayonets();
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[1, 4, 3]);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    asked(&g, Seat::South);
    order(&mut g, "PASS").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)));
    roll(&mut g, "1 1 1");
    not_asked(&g);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "1VA's own 4");
    assert_eq!(g.now.hands[CSA], vec![1, 4, 3]);
    let mut never = bayonets();
    give_all(&mut never, CSA, &[1, 4, 3]);
    order(&mut never, "2NYA MOVE 0305").unwrap();
    roll(&mut never, "1 1 1");
    same_game(&g, &never, true, "PASS as NEVER");
}

/// The selection step with blue 0, gray 0, gray 1 in the cup and an empty
/// track; 1NY at 0303, 1VA Finished at 0305 (2 from Oak at 0506: no
/// command check, 4.2; nothing Disrupted: no rally die). Blue never makes
/// opportunity fire. DRAW 2 draws gray's first marker.
fn gray_drawn_next() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0305")]);
    unit_mut(&mut g, "1VA").finished = true;
    quiet(&mut g);
    let mut cup = vec![
        Marker::Brigade(brigade(&g, "blue"), 0),
        Marker::Brigade(brigade(&g, "gray"), 0),
        Marker::Brigade(brigade(&g, "gray"), 1),
    ];
    cup.sort();
    g.now.cup = cup;
    g.now.track = Vec::new();
    g.now.step = Step::Select;
    order(&mut g, "OPFIRE blue NEVER").unwrap();
    g
}

#[test]
fn b148_b137_enemy_activation_is_asked_of_the_side_and_the_draw_waits() {
    // B137 `enemy-activation`, looked up for the Union's side: CARDS USA
    // ASK; hand 8 (no-fire), 7 (cancel-activation), 22 (`any`): listed
    // [7, 8]. The marker draw waits whole (B148): the track still empty,
    // the cup as it was, the step the selection, 1VA still Finished.
    // PLAY 8 (AUTO would have played 7): gray activates, recovers (1VA
    // ready, 3.21) and may not fire (B125); the same as AUTO's play of 8.
    // PLAY 7: the activation is lost (marker on the track, no recovery,
    // the next marker draw waits): as AUTO's 7. PASS: gray activates as
    // under NEVER, the hand kept.
    let gray = |g: &BrothersAtWar| brigade(g, "gray");
    let mut g = gray_drawn_next();
    order(&mut g, "CARDS USA ASK").unwrap();
    give_all(&mut g, USA, &[8, 7, 22]);
    let (cup, before) = (g.now.cup.clone(), frozen(&g));
    let e = order(&mut g, "DRAW 2").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(
        asked(&g, Seat::North),
        ("enemy-activation".to_string(), vec![7, 8])
    );
    assert_eq!(g.now.cup, cup, "B148: the draw waits");
    assert!(g.now.track.is_empty(), "B148: the draw waits");
    assert_eq!(g.now.step, Step::Select);
    assert_eq!(frozen(&g), before);
    let e = order(&mut g, "PLAY 8").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 8)]);
    assert_eq!(g.now.hands[USA], vec![7, 22]);
    assert_eq!(g.now.step, Step::Units(gray(&g)));
    assert!(g.now.card_effects.contains(&CardEffect::NoFire(gray(&g))));
    assert!(!finished(&g, "1VA"), "3.21");
    assert_eq!(refused(&mut g, "1VA FIRE 0303"), "B125");
    let mut auto = gray_drawn_next();
    order(&mut auto, "CARDS USA AUTO").unwrap();
    give_all(&mut auto, USA, &[8, 22]);
    order(&mut auto, "DRAW 2").unwrap();
    same_game(&g, &auto, false, "PLAY 8 as AUTO's 8");

    let mut g = gray_drawn_next();
    order(&mut g, "CARDS USA ASK").unwrap();
    give_all(&mut g, USA, &[8, 7, 22]);
    order(&mut g, "DRAW 2").unwrap();
    asked(&g, Seat::North);
    let e = order(&mut g, "PLAY 7").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 7)]);
    assert_eq!(g.now.track, vec![Marker::Brigade(gray(&g), 0)]);
    assert_eq!(g.now.step, Step::Select);
    assert!(finished(&g, "1VA"), "no recovery");
    assert_eq!(dice_waiting(&g), Some(2), "the next marker draw");
    let mut auto = gray_drawn_next();
    order(&mut auto, "CARDS USA AUTO").unwrap();
    give_all(&mut auto, USA, &[8, 7, 22]);
    order(&mut auto, "DRAW 2").unwrap();
    same_game(&g, &auto, true, "PLAY 7 as AUTO's 7");

    let mut g = gray_drawn_next();
    order(&mut g, "CARDS USA ASK").unwrap();
    give_all(&mut g, USA, &[8, 7, 22]);
    order(&mut g, "DRAW 2").unwrap();
    asked(&g, Seat::North);
    let e = order(&mut g, "PASS").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[USA], vec![8, 7, 22]);
    assert_eq!(g.now.step, Step::Units(gray(&g)));
    assert!(g.now.card_effects.is_empty());
    decides(&g, Seat::South);
    let mut never = gray_drawn_next();
    give_all(&mut never, USA, &[8, 7, 22]);
    order(&mut never, "DRAW 2").unwrap();
    same_game(&g, &never, true, "PASS as NEVER");
}

#[test]
fn b137_b148_enemy_activation_is_looked_up_for_the_side_only() {
    // B137: `enemy-activation` is looked up for the player's side: CARDS
    // blue ASK (a brigade of his) leaves the side at NEVER: not asked, gray
    // activates, the cards stay. CARDS USA ASK with CARDS blue NEVER: the
    // side's ASK holds (no brigade is concerned): asked.
    for (given, asks) in [
        (vec!["CARDS blue ASK"], false),
        (vec!["CARDS USA ASK", "CARDS blue NEVER"], true),
    ] {
        let mut g = gray_drawn_next();
        for t in &given {
            order(&mut g, t).unwrap();
        }
        give_all(&mut g, USA, &[8, 7]);
        order(&mut g, "DRAW 2").unwrap();
        if asks {
            assert_eq!(asked(&g, Seat::North).1, vec![7, 8], "{given:?}");
        } else {
            decides(&g, Seat::South);
            assert_eq!(g.now.hands[USA], vec![8, 7], "{given:?}");
        }
    }
}

#[test]
fn b148_b137_after_hits_is_asked_after_the_dice_and_play_takes_the_card_named() {
    // B137 `after-hits` (gray, 1VA's brigade): only after attack dice with
    // at least one success (B68). Hand 6 (saves 1), 5 (saves 2), 22
    // (`any`): no `targeted` card, so the FIRE itself asks nothing. 6 1 1 1:
    // one success; asked [5, 6], the dice shown (no dice wait), nothing of
    // the roll applied. PLAY 6 (AUTO would have played 5): 1 between + 1 = 2
    // save dice; the same as AUTO holding 6 alone. PASS: 1 save die, as
    // NEVER. 1 1 1 1 (no success): not asked.
    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[6, 5, 22]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    not_asked(&g);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let before = frozen(&g);
    let e = roll(&mut g, "6 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(
        asked(&g, Seat::South),
        ("after-hits".to_string(), vec![5, 6])
    );
    assert_eq!(frozen(&g), before, "B148: the roll's result waits");
    let e = order(&mut g, "PLAY 6").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 6)]);
    assert_eq!(g.now.hands[CSA], vec![5, 22]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(2)), "1 between + 1");
    let mut auto = volley("NEVER");
    order(&mut auto, "CARDS gray AUTO").unwrap();
    give_all(&mut auto, CSA, &[6, 22]);
    order(&mut auto, "1NY FIRE 0306").unwrap();
    roll(&mut auto, "6 1 1 1");
    same_game(&g, &auto, false, "PLAY 6 as AUTO's 6");
    roll(&mut g, "5 1");
    decides(&g, Seat::North);
    assert!(unharmed(&g, "1VA"), "the hit saved");

    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[6, 5, 22]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "6 1 1 1");
    asked(&g, Seat::South);
    order(&mut g, "PASS").unwrap();
    assert_eq!(dice_waiting(&g), Some(6), "1 between only");
    let mut never = volley("NEVER");
    give_all(&mut never, CSA, &[6, 5, 22]);
    order(&mut never, "1NY FIRE 0306").unwrap();
    roll(&mut never, "6 1 1 1");
    same_game(&g, &never, true, "PASS as NEVER");

    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[6, 5]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "1 1 1 1");
    not_asked(&g);
    settle(&mut g);
    assert_eq!(g.now.hands[CSA], vec![6, 5]);
}

#[test]
fn b148_b137_enemy_hit_forced_retreat_is_asked_of_the_firer() {
    // B137 `enemy-hit`, the attacker's, looked up for blue (1NY's
    // brigade); gray would not retreat (RETREAT NEVER). 6 1 1 1: one
    // success; the Union is asked [9, 24]. PLAY 24: 1 between + 1 retreat
    // = 2 save dice (11.3 on 39-40); saves 1 1: the hit stands, 1VA
    // unforms and retreats 0406-0506 (B92), Finished (6.77); card 9 stays.
    // PASS: 1 save die, 1VA stays in 0306: as NEVER.
    let mut g = volley("NEVER");
    order(&mut g, "CARDS blue ASK").unwrap();
    give_all(&mut g, USA, &[24, 9, 23]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let before = frozen(&g);
    roll(&mut g, "6 1 1 1");
    assert_eq!(
        asked(&g, Seat::North),
        ("enemy-hit".to_string(), vec![9, 24])
    );
    assert_eq!(frozen(&g), before);
    let e = order(&mut g, "PLAY 24").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 24)]);
    assert_eq!(g.now.hands[USA], vec![9, 23]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(2)));
    let e = roll(&mut g, "1 1");
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back);
    assert!(finished(&g, "1VA"));
    decides(&g, Seat::North);

    let mut g = volley("NEVER");
    order(&mut g, "CARDS blue ASK").unwrap();
    give_all(&mut g, USA, &[24, 9, 23]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "6 1 1 1");
    asked(&g, Seat::North);
    order(&mut g, "PASS").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    let mut never = volley("NEVER");
    give_all(&mut never, USA, &[24, 9, 23]);
    order(&mut never, "1NY FIRE 0306").unwrap();
    roll(&mut never, "6 1 1 1");
    same_game(&g, &never, true, "PASS as NEVER");
    let e = roll(&mut g, "1");
    assert!(retreats(&e).is_empty());
    assert_eq!(at(&g, "1VA").as_deref(), Some("0306"));
}

#[test]
fn b148_b137_retreat_cancel_retreat_then_stampede_are_two_moments() {
    // B137 `retreat`, the attacker's (blue): gray retreats for its save by
    // itself (RETREAT ALWAYS). 2VA, made ready and formed, stands at 0206.
    // Hand 12, 25 (stampede), 11, 10 (cancel-retreat), 23.
    // (a) After 6 1 1 1 (one success), before the saves: the retreat the
    //     defender chose may be cancelled: listed [10, 11] (the stampede
    //     cannot act before the target has retreated, B139).
    // (b) PASS: saves 1 between + 1 retreat = 2 dice; 1 1: the hit stands.
    //     Then, the target retreated (0406-0506, B92), the stampede moment:
    //     listed [12, 25] (cancel-retreat cannot act on a retreat done),
    //     the save dice shown and nothing of the result applied (1VA still
    //     in 0306).
    // (c) PLAY 25 (AUTO would have played 12): B139: the enemy hex nearest
    //     0306 within 2, not the target's, of units that can retreat: 0206
    //     (distance 1); 2VA retreats by B92's path 0306-0406 with no save
    //     and no extra hit, Finished (6.77). 1VA unformed in 0506, Finished.
    let mut g = volley("ALWAYS");
    order(&mut g, "CARDS blue ASK").unwrap();
    unit_mut(&mut g, "2VA").place = Place::Map(hex("0206"));
    unit_mut(&mut g, "2VA").disrupted = false;
    unit_mut(&mut g, "2VA").face = Face::Front;
    give_all(&mut g, USA, &[12, 25, 11, 10, 23]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    not_asked(&g);
    roll(&mut g, "6 1 1 1");
    assert_eq!(
        asked(&g, Seat::North),
        ("retreat".to_string(), vec![10, 11])
    );
    let e = order(&mut g, "PASS").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(
        dice_waiting(&g),
        Some(6u32.pow(2)),
        "the retreat's save kept"
    );
    let before = frozen(&g);
    let e = roll(&mut g, "1 1");
    assert!(retreats(&e).is_empty(), "B145: nothing applied yet");
    assert_eq!(
        asked(&g, Seat::North),
        ("retreat".to_string(), vec![12, 25])
    );
    assert_eq!(frozen(&g), before);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0306"));
    let e = order(&mut g, "PLAY 25").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 25)]);
    assert_eq!(
        retreats(&e),
        vec![
            along("1VA", &["0406", "0506"]),
            along("2VA", &["0306", "0406"])
        ]
    );
    assert_eq!(g.now.hands[USA], vec![12, 11, 10, 23]);
    assert_eq!(g.now.discard, vec![25]);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back);
    assert_eq!(at(&g, "2VA").as_deref(), Some("0406"));
    assert!(unharmed(&g, "2VA") && finished(&g, "2VA"));
    decides(&g, Seat::North);

    // The same as AUTO holding 25 as its lowest `retreat` card that can
    // act at each moment (no cancel-retreat card then).
    let mut auto = volley("ALWAYS");
    order(&mut auto, "CARDS blue AUTO").unwrap();
    unit_mut(&mut auto, "2VA").place = Place::Map(hex("0206"));
    unit_mut(&mut auto, "2VA").disrupted = false;
    unit_mut(&mut auto, "2VA").face = Face::Front;
    give_all(&mut auto, USA, &[25, 23]);
    order(&mut auto, "1NY FIRE 0306").unwrap();
    roll(&mut auto, "6 1 1 1");
    roll(&mut auto, "1 1");
    same_game(&g, &auto, false, "PLAY 25 as AUTO's 25");
}

/// The fire of the stampede test: 1VA (RETREAT ALWAYS) at 0306, 2VA ready
/// and formed at 0206; blue's CARDS instruction `cards`; the Union's hand.
fn stampede(cards: &str, hand: &[u8]) -> BrothersAtWar {
    let mut g = volley("ALWAYS");
    if !cards.is_empty() {
        order(&mut g, &format!("CARDS blue {cards}")).unwrap();
    }
    unit_mut(&mut g, "2VA").place = Place::Map(hex("0206"));
    unit_mut(&mut g, "2VA").disrupted = false;
    unit_mut(&mut g, "2VA").face = Face::Front;
    give_all(&mut g, USA, hand);
    order(&mut g, "1NY FIRE 0306").unwrap();
    g
}

#[test]
fn b148_b137_retreat_pass_at_both_moments_is_never() {
    // The stampede test answered PASS twice: no card; 1VA retreats
    // 0406-0506 for its save and unforms (the hit stands, saves 1 1); 2VA
    // stays in 0206, ready; the hand kept: the game as under NEVER, after
    // each answer.
    let hand = [12u8, 25, 11, 10, 23];
    let mut g = stampede("ASK", &hand);
    let mut never = stampede("", &hand);
    roll(&mut g, "6 1 1 1");
    roll(&mut never, "6 1 1 1");
    assert_eq!(asked(&g, Seat::North).1, vec![10, 11]);
    order(&mut g, "PASS").unwrap();
    same_game(&g, &never, true, "PASS to cancel-retreat as NEVER");
    roll(&mut g, "1 1");
    let e = roll(&mut never, "1 1");
    assert_eq!(asked(&g, Seat::North).1, vec![12, 25]);
    let mut f = order(&mut g, "PASS").unwrap();
    f.retain(|x| matches!(x, Event::Combat(CombatEvent::Retreated { .. })));
    assert_eq!(retreats(&f), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(at(&g, "2VA").as_deref(), Some("0206"));
    assert!(!finished(&g, "2VA"));
    assert_eq!(g.now.hands[USA], hand.to_vec());
    same_game(&g, &never, true, "PASS to the stampede as NEVER");
    decides(&g, Seat::North);
}

#[test]
fn b148_b137_retreat_cancel_retreat_play_of_the_higher_card() {
    // (a) above, answered PLAY 11 (AUTO would have played 10): the retreat
    // does not happen and its save is lost: 1 save die (11.3 on 27-28);
    // save 1: the hit stands, 1VA unforms in 0306, not Finished. No
    // stampede moment follows (nobody retreated): no second question.
    let mut g = volley("ALWAYS");
    order(&mut g, "CARDS blue ASK").unwrap();
    give_all(&mut g, USA, &[12, 11, 10]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "6 1 1 1");
    assert_eq!(
        asked(&g, Seat::North),
        ("retreat".to_string(), vec![10, 11])
    );
    let e = order(&mut g, "PLAY 11").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 11)]);
    assert_eq!(dice_waiting(&g), Some(6));
    let e = roll(&mut g, "1");
    assert!(retreats(&e).is_empty());
    assert_eq!(at(&g, "1VA").as_deref(), Some("0306"));
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back);
    assert!(!finished(&g, "1VA"));
    assert_eq!(g.now.hands[USA], vec![12, 10]);
    decides(&g, Seat::North);
}

/// Gray activating: 1VA (ready, formed) at 0306 about to step to 0305;
/// 1NY (blue) Finished at 0304 and 2NYA (blue) Finished at 0405, both next
/// to 0305, neither next to 0306; gray never retreats for a save.
fn stepping_in() -> BrothersAtWar {
    let mut g = field();
    only(
        &mut g,
        &[("1NY", "0304"), ("2NYA", "0405"), ("1VA", "0306")],
    );
    unit_mut(&mut g, "1NY").finished = true;
    unit_mut(&mut g, "2NYA").finished = true;
    activating(&mut g, "gray");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    g
}

#[test]
fn b148_b143_enemy_enters_is_asked_once_for_the_unit_auto_would_pick() {
    // B143 `enemy-enters` (blue): 1VA steps next to 1NY (0304) and 2NYA
    // (0405): one question for the step (B148), listed [13, 14]; the step
    // waits (1VA still in 0306). PLAY 14 (AUTO would have played 13): the
    // unit AUTO picks, the lowest hex 0304: 1NY fires point blank its 4
    // dice at 0305 (6.0); 1 1 1 1: nothing. 1NY keeps its Finished marker;
    // no second question; the South goes on. The same as AUTO holding 14.
    // PASS: no fire, 1VA in 0305, the South goes on: as NEVER.
    let mut g = stepping_in();
    order(&mut g, "CARDS blue ASK").unwrap();
    give_all(&mut g, USA, &[14, 13, 22]);
    let before = frozen(&g);
    let e = order(&mut g, "1VA MOVE 0305").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(
        asked(&g, Seat::North),
        ("enemy-enters".to_string(), vec![13, 14])
    );
    assert_eq!(frozen(&g), before);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0306"));
    let e = order(&mut g, "PLAY 14").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 14)]);
    assert_eq!(
        point_blank(&e),
        vec![(vec!["1NY".to_string()], "0305".to_string(), 4)]
    );
    assert_eq!(at(&g, "1VA").as_deref(), Some("0305"));
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let mut auto = stepping_in();
    order(&mut auto, "CARDS blue AUTO").unwrap();
    give_all(&mut auto, USA, &[14, 22]);
    order(&mut auto, "1VA MOVE 0305").unwrap();
    same_game(&g, &auto, false, "PLAY 14 as AUTO's 14");
    roll(&mut g, "1 1 1 1");
    settle(&mut g);
    assert!(finished(&g, "1NY"));
    assert_eq!(g.now.hands[USA], vec![13, 22]);
    decides(&g, Seat::South);

    let mut g = stepping_in();
    order(&mut g, "CARDS blue ASK").unwrap();
    give_all(&mut g, USA, &[14, 13, 22]);
    order(&mut g, "1VA MOVE 0305").unwrap();
    asked(&g, Seat::North);
    let e = order(&mut g, "PASS").unwrap();
    assert!(point_blank(&e).is_empty());
    assert_eq!(at(&g, "1VA").as_deref(), Some("0305"));
    assert_eq!(g.now.hands[USA], vec![14, 13, 22]);
    decides(&g, Seat::South);
    let mut never = stepping_in();
    give_all(&mut never, USA, &[14, 13, 22]);
    order(&mut never, "1VA MOVE 0305").unwrap();
    same_game(&g, &never, true, "PASS as NEVER");
}

/// 1NY (blue) at 0304 fires at 2VA (gray, Disrupted, unformed) next to it
/// at 0305; gray's marker one short of EXHAUSTED (space 3 of 4); 1VA
/// Finished at 0606. Gray never retreats. 6 1 1 1 is one success; the one
/// save (Disrupted) rolled 1 fails; the killing hit (6.54) is cancelled by
/// a reserve (RESERVES SPEND by default, 8.11) and gray exhausts (8.111).
fn last_reserve() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("2VA", "0305"), ("1VA", "0606")]);
    unit_mut(&mut g, "1VA").finished = true;
    unit_mut(&mut g, "2VA").disrupted = true;
    unit_mut(&mut g, "2VA").face = Face::Back;
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].reserve = 3;
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    g
}

#[test]
fn b148_b137_exhausts_regroup_is_asked_inside_the_result_and_play_takes_the_card_named() {
    // B137 `exhausts` (gray): hand 15 (+1), 16 (+2), 22 (`any` kind
    // remove-finished, not regroup): listed [15, 16], after the save die,
    // nothing of the result applied (the reserve not yet spent). PLAY 16
    // (AUTO would have played 15): the regroup die (2.33 c); 4 + 2 = 6
    // regroups (B51): not exhausted, a reserve back (space 3), 1VA ready
    // (3.21). With 15 the same 4 would have made 5: nothing. PASS: gray
    // stays exhausted, no die: as NEVER.
    let gray = |g: &BrothersAtWar| brigade(g, "gray");
    let mut g = last_reserve();
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[15, 16, 22]);
    order(&mut g, "1NY FIRE 0305").unwrap();
    roll(&mut g, "6 1 1 1");
    assert_eq!(dice_waiting(&g), Some(6), "one save");
    let before = frozen(&g);
    roll(&mut g, "1");
    assert_eq!(
        asked(&g, Seat::South),
        ("exhausts".to_string(), vec![15, 16])
    );
    assert_eq!(frozen(&g), before, "B145, B148");
    let e = order(&mut g, "PLAY 16").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 16)]);
    assert!(g.brigade(gray(&g)).exhausted);
    assert_eq!(dice_waiting(&g), Some(6), "the regroup die");
    let mut auto = last_reserve();
    order(&mut auto, "CARDS gray AUTO").unwrap();
    give_all(&mut auto, CSA, &[16, 22]);
    order(&mut auto, "1NY FIRE 0305").unwrap();
    roll(&mut auto, "6 1 1 1");
    roll(&mut auto, "1");
    same_game(&g, &auto, false, "PLAY 16 as AUTO's 16");
    roll(&mut g, "4");
    let b = g.brigade(gray(&g));
    assert!(!b.exhausted);
    assert_eq!(b.reserve, 3);
    assert!(!finished(&g, "1VA"));
    assert_eq!(g.now.hands[CSA], vec![15, 22]);

    let mut g = last_reserve();
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[15, 16, 22]);
    order(&mut g, "1NY FIRE 0305").unwrap();
    roll(&mut g, "6 1 1 1");
    roll(&mut g, "1");
    asked(&g, Seat::South);
    order(&mut g, "PASS").unwrap();
    assert_eq!(dice_waiting(&g), None);
    assert!(g.brigade(gray(&g)).exhausted);
    assert_eq!(g.brigade(gray(&g)).reserve, 4);
    let mut never = last_reserve();
    give_all(&mut never, CSA, &[15, 16, 22]);
    order(&mut never, "1NY FIRE 0305").unwrap();
    roll(&mut never, "6 1 1 1");
    roll(&mut never, "1");
    same_game(&g, &never, true, "PASS as NEVER");
}

/// GSK (gray, Finished) at 0305; 2NYA (blue) at 0303, one step from 0304
/// next to it; blue activating; gray never fires point blank (POINTBLANK
/// NEVER), so GSK disbands at once when 2NYA ends its step next to it
/// (9.14, B10 (3)).
fn screen() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("2NYA", "0303")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0305"));
    unit_mut(&mut g, "GSK").finished = true;
    activating(&mut g, "blue");
    order(&mut g, "POINTBLANK gray NEVER").unwrap();
    g
}

#[test]
fn b148_b144_skirmisher_ignore_disband_is_asked_and_play_keeps_it() {
    // B144 `skirmisher`, looked up for gray (GSK's brigade), form
    // ignore-disband: hand 26 (max-hits: not the form the disbanding
    // needs), 18, 17: listed [17, 18]; the step waits (2NYA in 0303).
    // PLAY 18 (AUTO would have played 17): GSK keeps its place; 2NYA in
    // 0304; 17 stays. PASS: GSK disbands to gray's display: as NEVER.
    let mut g = screen();
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[26, 18, 17]);
    let before = frozen(&g);
    let e = order(&mut g, "2NYA MOVE 0304").unwrap();
    assert!(disbanded(&e).is_empty());
    assert_eq!(
        asked(&g, Seat::South),
        ("skirmisher".to_string(), vec![17, 18])
    );
    assert_eq!(frozen(&g), before);
    let e = order(&mut g, "PLAY 18").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 18)]);
    assert!(disbanded(&e).is_empty());
    assert_eq!(g.unit(id(&g, "GSK")).place, Place::Map(hex("0305")));
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0304"));
    assert_eq!(g.now.hands[CSA], vec![26, 17]);
    decides(&g, Seat::North);
    let mut auto = screen();
    order(&mut auto, "CARDS gray AUTO").unwrap();
    give_all(&mut auto, CSA, &[26, 18]);
    order(&mut auto, "2NYA MOVE 0304").unwrap();
    same_game(&g, &auto, false, "PLAY 18 as AUTO's 18");

    let mut g = screen();
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[26, 18, 17]);
    order(&mut g, "2NYA MOVE 0304").unwrap();
    asked(&g, Seat::South);
    let e = order(&mut g, "PASS").unwrap();
    assert_eq!(disbanded(&e), vec!["GSK".to_string()]);
    assert_eq!(g.unit(id(&g, "GSK")).place, Place::Display);
    assert_eq!(g.now.hands[CSA], vec![26, 18, 17]);
    let mut never = screen();
    give_all(&mut never, CSA, &[26, 18, 17]);
    order(&mut never, "2NYA MOVE 0304").unwrap();
    same_game(&g, &never, true, "PASS as NEVER");
}

// ----- 2. not asked ------------------------------------------------------------

#[test]
fn b148_b6_not_asked_without_a_card_that_can_act_under_never_or_when_the_brigade_says_otherwise() {
    // B148: asked only when he holds a card that can act there. Hand 22
    // (`any`), 23 (no effect), 4 (extra-assault-dice: not on a fire), 5
    // (`after-hits`, not yet): the FIRE rolls its 4 dice, nothing asked.
    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[22, 23, 4, 5]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    not_asked(&g);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));

    // B5, B6, B8: the brigade's own instruction beats its side's, which
    // beats the default NEVER; the latest counts; another brigade's
    // instruction (reserve, or the firer's blue) does nothing for gray.
    // Hand 1: asked, played (AUTO) or neither (4 dice).
    #[derive(Debug, PartialEq)]
    enum Then {
        Asked,
        Plays,
        Rolls,
    }
    let cases: Vec<(Vec<&str>, Then)> = vec![
        (vec![], Then::Rolls),
        (vec!["CARDS gray NEVER"], Then::Rolls),
        (vec!["CARDS CSA ASK"], Then::Asked),
        (vec!["CARDS gray ASK"], Then::Asked),
        (vec!["CARDS CSA ASK", "CARDS gray NEVER"], Then::Rolls),
        (vec!["CARDS CSA NEVER", "CARDS gray ASK"], Then::Asked),
        (vec!["CARDS CSA ASK", "CARDS gray AUTO"], Then::Plays),
        (vec!["CARDS gray ASK", "CARDS gray AUTO"], Then::Plays),
        (vec!["CARDS gray AUTO", "CARDS gray ASK"], Then::Asked),
        (vec!["CARDS reserve ASK"], Then::Rolls),
        (vec!["CARDS blue ASK"], Then::Rolls),
        (vec!["CARDS USA ASK"], Then::Rolls),
    ];
    for (given, then) in cases {
        let mut g = volley("NEVER");
        for t in &given {
            order(&mut g, t).unwrap();
        }
        give(&mut g, CSA, 1);
        let e = order(&mut g, "1NY FIRE 0306").unwrap();
        match then {
            Then::Asked => {
                assert_eq!(asked(&g, Seat::South).1, vec![1], "{given:?}");
                assert!(played(&e).is_empty(), "{given:?}");
            }
            Then::Plays => {
                not_asked(&g);
                assert_eq!(played(&e), vec![(Side::Confederacy, 1)], "{given:?}");
                assert_eq!(dice_waiting(&g), None, "{given:?}");
            }
            Then::Rolls => {
                not_asked(&g);
                assert!(played(&e).is_empty(), "{given:?}");
                assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{given:?}");
                assert_eq!(g.now.hands[CSA], vec![1], "{given:?}");
            }
        }
    }
}

// ----- 3. re-rolls ---------------------------------------------------------------

#[test]
fn b148_b130_a_fire_that_scored_asks_the_target_s_owner_and_the_new_roll_stands() {
    // B148: after a fire's attack dice with at least one success the
    // target's owner (gray) is asked with his reroll-any-die cards (window
    // `after-roll`, looked up for 1VA's brigade): [19, 20]; the dice shown,
    // nothing of the roll applied. PLAY 20: the same 4 dice again (B130);
    // 1 1 1 1: no success, the new roll stands (the old 6 is not used):
    // nothing to save, 1VA unharmed. The firer's owner would be asked now,
    // but blue's CARDS is NEVER: nobody is asked; the Union goes on.
    let mut g = volley("NEVER");
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[20, 19]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    not_asked(&g);
    let before = frozen(&g);
    let e = roll(&mut g, "6 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(
        asked(&g, Seat::South),
        ("after-roll".to_string(), vec![19, 20])
    );
    assert_eq!(frozen(&g), before);
    let e = order(&mut g, "PLAY 20").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 20)]);
    assert_eq!(g.now.hands[CSA], vec![19]);
    assert_eq!(g.now.discard, vec![20]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "the whole roll again");
    roll(&mut g, "1 1 1 1");
    settle(&mut g);
    assert!(unharmed(&g, "1VA"));
    assert_eq!(g.now.hands[CSA], vec![19]);
    decides(&g, Seat::North);
}

#[test]
fn b148_b130_the_save_roll_is_asked_too_and_its_new_roll_stands() {
    // B148: PASS to the attack dice (6 1 1 1 stands: one success); 1 save
    // die (the hex between). Save 1: a hit is left after it: the target's
    // owner is asked again, window `after-roll`, [19, 20]; the save shown,
    // nothing applied (1VA still formed). PLAY 19: the save die again; 5
    // saves the hit: 1VA unharmed. The new roll is judged the same way: no
    // hit left and a die saved, so the firer's owner would be asked (blue
    // is NEVER: nobody). PASS instead: the hit stands and formed 1VA
    // unforms (6.52, B80).
    for play in [true, false] {
        let mut g = volley("NEVER");
        order(&mut g, "CARDS gray ASK").unwrap();
        give_all(&mut g, CSA, &[20, 19]);
        order(&mut g, "1NY FIRE 0306").unwrap();
        roll(&mut g, "6 1 1 1");
        asked(&g, Seat::South);
        order(&mut g, "PASS").unwrap();
        assert_eq!(dice_waiting(&g), Some(6), "play {play}");
        let before = frozen(&g);
        roll(&mut g, "1");
        assert_eq!(
            asked(&g, Seat::South),
            ("after-roll".to_string(), vec![19, 20]),
            "play {play}"
        );
        assert_eq!(frozen(&g), before, "play {play}");
        if play {
            let e = order(&mut g, "PLAY 19").unwrap();
            assert_eq!(played(&e), vec![(Side::Confederacy, 19)]);
            assert_eq!(dice_waiting(&g), Some(6), "the save again");
            roll(&mut g, "5");
            assert!(unharmed(&g, "1VA"));
            assert_eq!(g.now.hands[CSA], vec![20]);
        } else {
            order(&mut g, "PASS").unwrap();
            assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back);
            assert!(!disrupted(&g, "1VA"));
            assert_eq!(g.now.hands[CSA], vec![20, 19]);
        }
        decides(&g, Seat::North);
    }
}

#[test]
fn b148_b130_a_fire_that_missed_asks_the_firer_and_either_side_may_answer_in_turn() {
    // B148: attack dice 1 1 1 1 (no success) went against the firer: the
    // Union (CARDS blue ASK) is asked [19]; gray (ASK, holding 20) is not.
    // PLAY 19: 4 dice again; 6 1 1 1: one success, judged again: now gray
    // is asked [20]; PLAY 20: 4 dice again; 1 1 1 1: no success; the Union
    // has no card left: nobody is asked, 1VA unharmed.
    let mut g = volley("NEVER");
    order(&mut g, "CARDS blue ASK").unwrap();
    order(&mut g, "CARDS gray ASK").unwrap();
    give(&mut g, USA, 19);
    give(&mut g, CSA, 20);
    order(&mut g, "1NY FIRE 0306").unwrap();
    not_asked(&g);
    let before = frozen(&g);
    roll(&mut g, "1 1 1 1");
    assert_eq!(asked(&g, Seat::North), ("after-roll".to_string(), vec![19]));
    assert_eq!(frozen(&g), before);
    let e = order(&mut g, "PLAY 19").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 19)]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    roll(&mut g, "6 1 1 1");
    assert_eq!(asked(&g, Seat::South), ("after-roll".to_string(), vec![20]));
    let e = order(&mut g, "PLAY 20").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 20)]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    roll(&mut g, "1 1 1 1");
    settle(&mut g);
    assert!(unharmed(&g, "1VA"));
    assert_eq!(g.now.discard, vec![19, 20]);
    decides(&g, Seat::North);
}

#[test]
fn b140_under_auto_nobody_is_asked_and_no_fire_roll_is_re_rolled() {
    // B140: AUTO re-rolls only an assault's dice. 6 1 1 1 (one success):
    // gray's 20 stays; the save 1 (a hit left): gray's 20 stays; 1 1 1 1 in
    // a second game: blue's 19 stays. Nothing asked, no card played.
    let mut g = volley("NEVER");
    order(&mut g, "CARDS blue AUTO").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, USA, 19);
    give(&mut g, CSA, 20);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert!(played(&e).is_empty());
    not_asked(&g);
    assert_eq!(dice_waiting(&g), Some(6));
    let e = roll(&mut g, "1");
    assert!(played(&e).is_empty());
    decides(&g, Seat::North);
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back);

    let mut g = volley("NEVER");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 19);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "1 1 1 1");
    assert!(played(&e).is_empty());
    settle(&mut g);
    decides(&g, Seat::North);
    assert_eq!(g.now.hands[USA], vec![19]);
}

#[test]
fn b148_b140_the_loser_of_an_assault_is_asked_with_both_re_roll_kinds() {
    // B140, B148: 2NYA and 2NYB roll 6 dice all 1 (none), 1VA 1 1 1 1
    // (none): a tie, the defender wins as rolled (7.12): the Union is asked
    // (not after its own roll alone, only once both sides have rolled),
    // listed [19, 21], nothing decided.
    // - PLAY 21 (reroll-assault-dice, AUTO would have played 19): only the
    //   dice of the unit with the most dice, the first listed of equals
    //   (2NYA): 3 dice; 6 1 1: 1 to 0, the Union wins. 1VA retreats
    //   0406-0506 without a save (7.12), its hit unforms it; 2NYA and 2NYB
    //   enter 0305; after the winner the card's cost hit goes on 2NYA,
    //   and a hit is applied to the hex (B80): the unformed stack 2NYA +
    //   2NYB in 0305 becomes Disrupted, both units.
    // - PLAY 19 (reroll-any-die): all 6 dice again; 6 1 1 1 1 1: 1 to 0,
    //   the Union wins; no cost hit.
    // - PASS: the defender wins, 0 hits; the pair retreats from 0304
    //   (B98): 0204-0103; the hand kept.
    for answer in ["PLAY 21", "PLAY 19", "PASS"] {
        let mut g = pair();
        order(&mut g, "CARDS blue ASK").unwrap();
        give_all(&mut g, USA, &[21, 19]);
        order(&mut g, "2NYA 2NYB MOVE 0305").unwrap();
        not_asked(&g);
        assert_eq!(dice_waiting(&g), Some(6u32.pow(6)));
        roll(&mut g, "1 1 1 1 1 1");
        not_asked(&g);
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{answer}");
        let before = frozen(&g);
        let e = roll(&mut g, "1 1 1 1");
        assert!(assault_won(&e).is_none(), "{answer}");
        let (window, cards) = asked(&g, Seat::North);
        assert!(
            window == "assault-dice" || window == "after-roll",
            "{answer}: {window}"
        );
        assert_eq!(cards, vec![19, 21], "{answer}");
        assert_eq!(frozen(&g), before, "{answer}");
        let mut e = order(&mut g, answer).unwrap();
        match answer {
            "PLAY 21" => {
                assert_eq!(played(&e), vec![(Side::Union, 21)]);
                assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "2NYA's 3");
                e.extend(roll(&mut g, "6 1 1"));
                assert_eq!(assault_won(&e), Some((Side::Union, 1)));
                assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
                assert!(disrupted(&g, "2NYA"), "the card's cost hit");
                assert!(disrupted(&g, "2NYB"), "B80: the hit falls on the hex");
                assert_eq!(g.now.hands[USA], vec![19]);
            }
            "PLAY 19" => {
                assert_eq!(played(&e), vec![(Side::Union, 19)]);
                assert_eq!(dice_waiting(&g), Some(6u32.pow(6)), "all 6");
                e.extend(roll(&mut g, "6 1 1 1 1 1"));
                assert_eq!(assault_won(&e), Some((Side::Union, 1)));
                assert!(!disrupted(&g, "2NYA") && !disrupted(&g, "2NYB"));
                assert_eq!(g.now.hands[USA], vec![21]);
            }
            _ => {
                assert!(played(&e).is_empty());
                assert_eq!(assault_won(&e), Some((Side::Confederacy, 0)));
                assert_eq!(g.now.hands[USA], vec![21, 19]);
                assert_eq!(at(&g, "2NYA").as_deref(), Some("0103"));
            }
        }
        if answer != "PASS" {
            assert_eq!(at(&g, "1VA").as_deref(), Some("0506"), "{answer}");
            assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back, "{answer}");
            assert!(!disrupted(&g, "1VA"), "{answer}");
            assert_eq!(at(&g, "2NYA").as_deref(), Some("0305"), "{answer}");
            assert_eq!(at(&g, "2NYB").as_deref(), Some("0305"), "{answer}");
        }
        assert!(finished(&g, "2NYA") && finished(&g, "1VA"), "{answer}");
        decides(&g, Seat::North);
    }

    // PLAY 21 is exactly AUTO's play of 21 (AUTO holding 21 alone).
    let mut g = pair();
    order(&mut g, "CARDS blue ASK").unwrap();
    give_all(&mut g, USA, &[21, 19]);
    order(&mut g, "2NYA 2NYB MOVE 0305").unwrap();
    roll(&mut g, "1 1 1 1 1 1");
    roll(&mut g, "1 1 1 1");
    order(&mut g, "PLAY 21").unwrap();
    let mut auto = pair();
    order(&mut auto, "CARDS blue AUTO").unwrap();
    give(&mut auto, USA, 21);
    order(&mut auto, "2NYA 2NYB MOVE 0305").unwrap();
    roll(&mut auto, "1 1 1 1 1 1");
    roll(&mut auto, "1 1 1 1");
    same_game(&g, &auto, false, "PLAY 21 as AUTO's 21");
}

#[test]
fn b148_b140_the_winner_as_rolled_is_not_asked() {
    // B140: only the loser as rolled. 2NYA 6 6 1 (2) against 1VA 1 1 1 1
    // (0): the Union wins; its 19 and 21 are not offered; gray holds none.
    let mut g = bayonets();
    order(&mut g, "CARDS blue ASK").unwrap();
    give_all(&mut g, USA, &[21, 19]);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "6 6 1");
    let e = roll(&mut g, "1 1 1 1");
    not_asked(&g);
    assert_eq!(assault_won(&e), Some((Side::Union, 2)));
    assert_eq!(g.now.hands[USA], vec![21, 19]);
}

// ----- 4. orders and refusals ------------------------------------------------

#[test]
fn b148_only_a_card_offered_answers_and_instructions_may_still_be_given() {
    // Hand 1, 2 (cancel-fire), 4 (not on a fire), 22 (`any`,
    // remove-finished; 1VA carries a Finished marker so that it has a
    // target): asked [1, 2]. Refused, the question staying and the game
    // unchanged: PLAY 4 (not offered), PLAY 5 (not his), PLAY 22 ON 1VA and
    // PLAY 22 (only the cards offered answer the question, B148). Standing
    // instructions are heard from either player meanwhile (B5, B8); the
    // question stays. PLAY 2 then answers: no dice, 1NY Finished.
    let mut g = volley("NEVER");
    unit_mut(&mut g, "1VA").finished = true;
    order(&mut g, "CARDS gray ASK").unwrap();
    give_all(&mut g, CSA, &[1, 2, 4, 22]);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let q = asked(&g, Seat::South);
    assert_eq!(q, ("targeted".to_string(), vec![1, 2]));
    for text in ["PLAY 4", "PLAY 5", "PLAY 22 ON 1VA", "PLAY 22"] {
        let rule = refused(&mut g, text);
        assert!(!rule.is_empty(), "{text}");
        assert_eq!(asked(&g, Seat::South), q, "{text}: the question stays");
    }
    let o = g.parse_order("OPFIRE gray NEVER").unwrap();
    g.apply_standing(Side::Confederacy, &o).unwrap();
    let o = g.parse_order("OPFIRE blue NEVER").unwrap();
    g.apply_standing(Side::Union, &o).unwrap();
    let o = g.parse_order("LOSSES gray STRONGEST").unwrap();
    g.apply_standing(Side::Confederacy, &o).unwrap();
    assert_eq!(asked(&g, Seat::South), q, "the question stays");
    let e = order(&mut g, "PLAY 2").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert_eq!(g.now.hands[CSA], vec![1, 4, 22]);
    assert_eq!(g.now.discard, vec![2]);
    assert_eq!(dice_waiting(&g), None);
    assert!(finished(&g, "1NY") && finished(&g, "1VA"));
    decides(&g, Seat::North);
}

// ----- 5. a property ---------------------------------------------------------

/// A random small fight where both sides hold cards of several windows
/// under `CARDS USA ASK` and `CARDS CSA ASK`.
#[derive(Clone, Debug)]
struct Setup {
    /// 0: 1NY fires from 0304 at 0306; 1: 2NYA assaults 0305 from 0304;
    /// 2: the pair assaults; 3: gray's 1VA steps 0306-0305 next to 1NY at
    /// 0304 (Finished or not) and 2NYA at 0405; 4: 2NYA steps 0303-0304
    /// next to GSK at 0305.
    attack: u8,
    /// 2VA (ready, formed) at 0206, within a stampede's reach of 0306.
    neighbour: bool,
    /// 1VA Disrupted (and unformed), unless it is the mover (a Disrupted
    /// unit may not move next to an enemy, 6.531).
    shaken: bool,
    /// Gray's RETREAT: NEVER or ALWAYS.
    retreat: bool,
    /// Each card: 0 in the deck, 1 the Union's, 2 the Confederacy's.
    owners: Vec<u8>,
}

fn position(s: &Setup) -> BrothersAtWar {
    let mut g = field();
    let mut placed: Vec<(&str, &str)> = Vec::new();
    match s.attack {
        0 => placed.extend([("1NY", "0304"), ("1VA", "0306")]),
        1 => placed.extend([("2NYA", "0304"), ("1VA", "0305")]),
        2 => placed.extend([("2NYA", "0304"), ("2NYB", "0304"), ("1VA", "0305")]),
        3 => placed.extend([("1NY", "0304"), ("2NYA", "0405"), ("1VA", "0306")]),
        _ => placed.extend([("2NYA", "0303"), ("1VA", "0506")]),
    }
    if s.neighbour {
        placed.push(("2VA", "0206"));
    }
    only(&mut g, &placed);
    if s.attack >= 4 {
        unit_mut(&mut g, "GSK").place = Place::Map(hex("0305"));
    }
    unit_mut(&mut g, "2VA").disrupted = false;
    unit_mut(&mut g, "2VA").face = Face::Front;
    if s.shaken && s.attack != 3 {
        unit_mut(&mut g, "1VA").disrupted = true;
        unit_mut(&mut g, "1VA").face = Face::Back;
    }
    if s.attack == 3 {
        unit_mut(&mut g, "2NYA").finished = true;
        unit_mut(&mut g, "1NY").finished = s.neighbour;
        activating(&mut g, "gray");
    } else {
        activating(&mut g, "blue");
    }
    for (i, &o) in s.owners.iter().enumerate() {
        let card = (i + 1) as u8;
        match o {
            1 => give(&mut g, USA, card),
            2 => give(&mut g, CSA, card),
            _ => {}
        }
    }
    for t in ["CARDS USA ASK", "CARDS CSA ASK"] {
        order(&mut g, t).unwrap();
    }
    let retreat = if s.retreat { "ALWAYS" } else { "NEVER" };
    order(&mut g, &format!("RETREAT gray {retreat}")).unwrap();
    g
}

fn attack_order(s: &Setup) -> &'static str {
    match s.attack {
        0 => "1NY FIRE 0306",
        1 => "2NYA MOVE 0305",
        2 => "2NYA 2NYB MOVE 0305",
        3 => "1VA MOVE 0305",
        _ => "2NYA MOVE 0304",
    }
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        0u8..5,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(0u8..3, usize::from(CARDS)),
    )
        .prop_map(|(attack, neighbour, shaken, retreat, owners)| Setup {
            attack,
            neighbour,
            shaken,
            retreat,
            owners,
        })
}

fn drive(s: &Setup, dice: &[u32], picks: &[usize]) -> Result<(), TestCaseError> {
    let mut g = position(s);
    let attack = attack_order(s);
    let first = g.parse_order(attack).unwrap();
    g.apply(&first)
        .map_err(|e| TestCaseError::fail(format!("{attack}: {e}")))?;
    let (mut draws, mut answers) = (0usize, 0usize);
    for _ in 0..120 {
        prop_assert!(conserved(&g), "the cards stay one set: {:?}", g.now.hands);
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
            prop_assert!(g.now.held.is_none(), "nothing held once play goes on");
            return Ok(());
        };
        let Some(Question::Card { cards, about, .. }) = r.question.clone() else {
            return Err(TestCaseError::fail(format!("not a card question: {r:?}")));
        };
        answers += 1;
        prop_assert!(answers <= 24, "questions keep coming");
        prop_assert_eq!(g.decider(), Some(r.side));
        prop_assert!(!about.is_empty());
        prop_assert!(!cards.is_empty());
        let hand = &g.now.hands[hand_of(r.side)];
        for c in &cards {
            prop_assert!(hand.contains(c), "card {} listed, not in {:?}", c, hand);
        }
        let mut offered = vec![Order::Pass(None)];
        offered.extend(cards.iter().map(|&c| Order::Play { card: c, on: None }));
        let legal = g.legal();
        for o in &offered {
            prop_assert!(legal.contains(o), "{} not listed for {:?}", o, cards);
        }
        for o in &legal {
            let mut copy = g.clone();
            let applied = copy.apply(o);
            prop_assert!(applied.is_ok(), "{} listed but refused: {:?}", o, applied);
        }
        let pick = &offered[picks[answers % picks.len()] % offered.len()];
        g.apply(pick)
            .map_err(|e| TestCaseError::fail(format!("{pick}: {e}")))?;
    }
    Err(TestCaseError::fail("the fight never ended"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// B148: under ASK every question lists only cards of the asked
    /// player's hand, PASS and each card listed are legal and apply, every
    /// listed order applies, the fight ends, and hand + deck + discard pile
    /// stay one set of cards.
    #[test]
    fn b148_random_fights_under_ask_always_apply_and_keep_the_cards_one_set(
        s in setup(),
        dice in prop::collection::vec(any::<u32>(), 24),
        picks in prop::collection::vec(any::<usize>(), 8),
    ) {
        drive(&s, &dice, &picks)?;
    }
}
