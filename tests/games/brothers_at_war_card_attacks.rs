#[path = "../common/mod.rs"]
mod common;

// Battle cards that act on attacks: falling back before the dice
// (`cancel-targeting-retreat`, B141), fire then assault (`fire-then-assault`,
// B128, B142), point blank fire by any unit (`point-blank-fire-any-unit`,
// B143) and the re-rolls of an assault's dice (`reroll-assault-dice`,
// `reroll-any-die`, B130, B140). Every expected result is worked out by
// hand from the rulebook (6.x, 6.7, 7.x, 11.3 on 3-4, 5-6, 31-32, 35-36,
// 41-42) and the rulings, never from the engine.
//
// The ground: the test battle's order of battle on its 8 x 6 map made open
// and level everywhere, with no roads, trails, fords or fences, so that
// every step costs 1 and every line of sight is open unless a unit stands
// in it. The Union rallies at 0101, the Confederacy at 0806. Commanders
// stand where the test battle puts them: Col. Ash (blue) at 0201, Maj. Elm
// (horse) at 0601, Col. Oak (gray) at 0506, Col. Fir (reserve) at 0806; a
// commander is not a unit and stacks with anybody (4.1, B47). The
// activation track is made blank but for its last space.
//
// Units used (the test battle's ratings): 1NY (blue) formed infantry,
// firepower 4, 4 points (5 unformed); 2NYA and 2NYB (blue) unformed
// infantry of one regiment, firepower 3, 5 points; 1CAV (horse) mounted
// cavalry, firepower 2; 1VA (gray) formed infantry, firepower 4; 2VA (gray)
// Disrupted by the test battle, firepower 3; GSK gray's skirmisher; REMX a
// Confederate remnant (no brigade: the side's instructions, B5).
//
// Hexes (B15: even columns sit half a hex north of odd ones), counted by
// hand: 0304 touches 0303, 0305, 0204, 0205, 0404, 0405; 0305 touches 0304,
// 0306, 0205, 0206, 0405, 0406; 0306 touches 0305, 0206, 0406; 0406 touches
// 0305, 0306, 0405, 0505, 0506; 0806 touches 0805, 0705, 0706. Distances:
// 0304-0306 2, 0302-0305 3, 0303-0305 2, 0104-0106 2, 0804-0806 2,
// 0304-0101 4, 0306-0806 5, 0305-0806 5, 0406-0806 4, 0506-0806 3.
//
// Retreat paths (6.71, 6.73, B85, B86, B92), worked by hand:
// - from 0306 or 0305 towards 0806 with the enemy at 0304: the steps nearer
//   0806 are 0406 (from 0306 the only one) or 0405; 0405 touches 0304 (an
//   extra hit, 6.73), 0406 does not; from 0406 both 0505 and 0506 are
//   nearer, neither touching 0304; 0506 ends 3 hexes from 0304, 0505 only
//   2: B92 takes 0406-0506, no extra hit.
// - from 0304 towards 0101 with the enemy at 0305: 0204-0103, 0204-0203,
//   0303-0203 and 0303-0302, none entering a hex next to 0305, each ending
//   3 hexes from it: the lowest hex ids, 0204-0103.
//
// Assault dice (7.11, B82, B97): a die hits when it plus the modifiers is
// 5 or more: unformed 2NYA and 2NYB hit on 5-6, formed 1VA (+1) on 4-6.
//
// The deck is ours (cards 1-12, below). Cards are put into hands directly:
// `hands[0]` the Union's, `hands[1]` the Confederacy's, each taken out of
// the deck. Under `CARDS ... AUTO` (B137) a card played leaves the hand for
// the discard pile face up (11.2, B134) and `Event::CardPlayed` names it;
// hands keep the order the cards were given in.

use common::brothers_at_war_decks::{
    brigade, deck_text, dice_waiting, disrupted, finished, give, open_field_with_deck, roll,
    settle, CSA, USA,
};
use common::brothersatwar::{activating, hex, id, only, order, refused, unit_mut};
use orderly::games::brothers_at_war::core::combat::{CombatEvent, FireType};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, CardEffect, Place};
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::{Face, Side};
use orderly::games::{Game, Seat};

/// Our test deck, one entry a kind, with the parameters the tests below
/// count on.
const DECK: &str = r#"
[[card]]
numbers = [1, 4]
name = "Hold your fire (test)"
timing = "targeted"
effect = "cancel-fire"
text = "Ours: an enemy fire at a unit of yours has no effect."

[[card]]
numbers = [2, 3]
name = "Skedaddle (test)"
timing = "targeted"
effect = "cancel-targeting-retreat"
params = { hexes = 2 }
text = "Ours: your unit targeted falls back two hexes before the dice."

[[card]]
numbers = [5]
name = "Stand and fight (test)"
timing = "targeted"
effect = "extra-assault-dice"
params = { dice = 2 }
text = "Ours: your unit assaulted rolls two dice more."

[[card]]
numbers = [6]
name = "Point blank (test)"
timing = "enemy-enters"
effect = "point-blank-fire-any-unit"
text = "Ours: your unit fires point blank at the enemy stepping next to it."

[[card]]
numbers = [7]
name = "Fire and close (test)"
timing = "firing"
effect = "fire-then-assault"
text = "Ours: your active unit fires, then assaults the hex it fired at."

[[card]]
numbers = [8, 11]
name = "Fighting mad (test)"
timing = "assault-dice"
effect = "reroll-assault-dice"
params = { cost = 1 }
text = "Ours: a unit of yours re-rolls its assault dice and takes a hit."

[[card]]
numbers = [9, 12]
name = "Lady luck (test)"
timing = "after-roll"
effect = "reroll-any-die"
text = "Ours: roll again."

[[card]]
numbers = [10]
name = "Letters home (test)"
timing = "none"
effect = "no-effect"
text = "Ours: no effect."
"#;

/// How many card numbers the deck holds.
const CARDS: usize = 12;

/// A new game of the test battle with our deck, on open, level ground.
fn field() -> BrothersAtWar {
    open_field_with_deck(DECK, "test-card-attacks", true)
}

/// The cards played, face up, in these events.
fn played(events: &[Event]) -> Vec<(Side, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CardPlayed { side, card, .. } => Some((*side, *card)),
            _ => None,
        })
        .collect()
}

/// The retreats in these events: (units, hexes entered).
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

/// The point blank fires declared in these events: (firers, target, dice).
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

/// The assault's winner and the hits on the defender.
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

/// The unit stands unharmed: formed (its front) and Undisrupted.
fn unharmed(g: &BrothersAtWar, name: &str) -> bool {
    let u = g.unit(id(g, name));
    u.face == Face::Front && !u.disrupted
}

fn at(g: &BrothersAtWar, name: &str) -> Option<String> {
    g.hex_of(id(g, name)).map(|h| h.to_string())
}

/// 1NY (blue, formed, 4 dice) at 0304 and 1VA (gray, formed) at 0306, two
/// hexes apart in the open; blue activating, so the Union decides; gray
/// never retreats for a save by itself (6.7, B5).
fn volley() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    g
}

/// 2NYA (blue, unformed: 3 assault dice on 5-6) at 0304 next to 1VA (gray,
/// formed: 4 dice on 4-6) at 0305; blue activating. The assault step is not
/// a move action (no opportunity or point blank fire, B96); gray stands by
/// default (EVADE NEVER, B5).
fn bayonets() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    g
}

/// The stack 2NYA and 2NYB (both unformed, 3 dice each) at 0304 next to
/// 1VA at 0305; blue activating. The two began the activation together
/// and assault as one (5.33, B61, B96): 6 dice, rolled unit by unit (B97).
fn pair() -> BrothersAtWar {
    let mut g = field();
    only(
        &mut g,
        &[("2NYA", "0304"), ("2NYB", "0304"), ("1VA", "0305")],
    );
    activating(&mut g, "blue");
    g
}

// ----- the deck itself -------------------------------------------------

#[test]
fn the_attack_deck_passes_the_scenario_check() {
    // B122, B125 and the table "Card effect kinds": cancel-fire,
    // cancel-targeting-retreat (hexes 2) and extra-assault-dice (dice 1-3)
    // in `targeted`; point-blank-fire-any-unit in `enemy-enters`;
    // fire-then-assault in `firing`; reroll-assault-dice (cost 0-1) in
    // `assault-dice`; reroll-any-die in `after-roll`; no-effect in `none`.
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
    assert_eq!(numbers, CARDS);
}

// ----- cancel-targeting-retreat on a fire (B141) -----------------------

#[test]
fn a_fall_back_card_retreats_the_target_before_any_dice_and_the_firer_is_finished() {
    // B141, 11.3 on 5-6: played by gray's CARDS AUTO (window `targeted`,
    // looked up for 1VA's brigade, B137) as 1NY's fire is declared, before
    // any die: 1VA retreats 2 hexes by B92's path, 0406-0506 (see the head
    // of this file), with no save and no extra hit; the fire is not
    // resolved: no attack dice, no saves. The firer stays Finished (B141,
    // 6.11). Ready 1VA is Finished by its retreat (6.77, B91) and unharmed.
    // The card goes face up to the discard pile (11.2, B134). The Union's
    // activation goes on.
    let mut g = volley();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 2);
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert!(g.now.hands[CSA].is_empty());
    assert_eq!(g.now.discard, vec![2]);
    assert!(!g.now.deck.contains(&2));
    assert_eq!(dice_waiting(&g), None, "no dice for the fire");
    assert!(g.now.fire.is_none(), "the fire is not resolved");
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    assert!(unharmed(&g, "1VA"));
    assert!(finished(&g, "1VA"), "6.77");
    assert!(finished(&g, "1NY"), "B141: the firer stays Finished");
    assert_eq!(at(&g, "1NY").as_deref(), Some("0304"));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
}

#[test]
fn the_fallen_back_firer_has_spent_its_points_and_is_done() {
    // B141: "the firer stays Finished with its points spent". 1NY steps
    // 0303-0304 (1 point) and fires (moving fire, 2 more, 6.11); gray's
    // card makes 1VA fall back; 1NY is Finished and may not act again
    // (5.1, B45). Gray's OPFIRE NEVER keeps 1VA from firing at the step.
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 3);
    order(&mut g, "1NY MOVE 0304").unwrap();
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 3)]);
    assert_eq!(dice_waiting(&g), None);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    assert!(finished(&g, "1NY"));
    assert_eq!(refused(&mut g, "1NY MOVE 0303"), "1.51");
}

#[test]
fn the_fall_back_takes_the_extra_hits_of_its_path() {
    // B141: "the hits of their retreat apply (6.73)". 2NYA (blue, not
    // acting) stands at 0405: 0406, the only step from 0306 nearer 0806,
    // touches it: one extra hit whatever the path. From 0406, 0505 touches
    // 0405 too (a second hit), 0506 does not: B92 takes 0406-0506, one
    // extra hit. No save against it (6.73, B89). Formed 1VA unforms (6.52,
    // B80), not Disrupted; it is Finished (6.77).
    let mut g = volley();
    unit_mut(&mut g, "2NYA").place = Place::Map(hex("0405"));
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 2);
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert_eq!(dice_waiting(&g), None, "extra hits are not saved");
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back, "one extra hit unforms it");
    assert!(!v.disrupted, "one hit only");
    assert!(finished(&g, "1VA"));
    assert!(finished(&g, "1NY"));
}

#[test]
fn no_fall_back_for_a_skirmisher_a_remnant_or_a_unit_that_cannot_retreat() {
    // B141, 11.3 on 5-6: never for skirmishers or remnants; only if the
    // targets can retreat (6.71): a unit on its own rally point hex cannot
    // (6.732 c, B86). Each time the card stays in the hand and the fire goes
    // on with its 4 dice (6.0). The remnant follows the side's instruction
    // (B5): both CSA and gray are AUTO.
    // - GSK at 0306, 2 hexes from 1NY at 0304;
    // - REMX at 0106, 2 hexes from 1NY at 0104;
    // - 1VA on the Confederate rally point 0806, 2 hexes from 1NY at 0804.
    for (target, firer_at, at_hex) in [
        ("GSK", "0304", "0306"),
        ("REMX", "0104", "0106"),
        ("1VA", "0804", "0806"),
    ] {
        let mut g = field();
        only(&mut g, &[("1NY", firer_at)]);
        unit_mut(&mut g, target).place = Place::Map(hex(at_hex));
        activating(&mut g, "blue");
        order(&mut g, "RETREAT CSA NEVER").unwrap();
        order(&mut g, "RETREAT gray NEVER").unwrap();
        order(&mut g, "CARDS CSA AUTO").unwrap();
        order(&mut g, "CARDS gray AUTO").unwrap();
        give(&mut g, CSA, 2);
        let e = order(&mut g, &format!("1NY FIRE {at_hex}")).unwrap();
        assert!(played(&e).is_empty(), "{target}");
        assert!(retreats(&e).is_empty(), "{target}");
        assert_eq!(g.now.hands[CSA], vec![2], "{target}");
        assert!(g.now.discard.is_empty(), "{target}");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{target}");
        assert_eq!(at(&g, target).as_deref(), Some(at_hex), "{target}");
    }

    // B141: the card plays when it is the lowest card of the window that
    // can act: on the rally point the fall back cannot, so the higher
    // cancel-fire card 4 answers instead (B137): no dice, 1VA unharmed in
    // 0806, 1NY Finished (6.11), and 2 stays.
    let mut g = field();
    only(&mut g, &[("1NY", "0804"), ("1VA", "0806")]);
    activating(&mut g, "blue");
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 2);
    give(&mut g, CSA, 4);
    let e = order(&mut g, "1NY FIRE 0806").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 4)]);
    assert_eq!(g.now.hands[CSA], vec![2]);
    assert_eq!(g.now.discard, vec![4]);
    assert_eq!(dice_waiting(&g), None);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0806"));
    assert!(unharmed(&g, "1VA"));
    assert!(finished(&g, "1NY"));
}

#[test]
fn no_fall_back_for_a_unit_of_the_brigade_activating() {
    // B141: never for units of the brigade activating. Gray activates;
    // 1VA steps 0306-0305, 3 hexes from 1NY at 0302 with an open line: 1NY
    // fires at it (OPFIRE ALWAYS by default, 6.12, B69). Gray holds 4
    // (cancel-fire) and 2 (fall back): 2 cannot act on gray's own mover,
    // so 4 answers (B137, `targeted` looked up for 1VA's brigade): no
    // dice, 1NY Finished (6.12), 1VA unharmed in 0305 and not Finished;
    // the South goes on deciding.
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
    activating(&mut g, "gray");
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 4);
    give(&mut g, CSA, 2);
    let e = order(&mut g, "1VA MOVE 0305").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 4)]);
    assert!(retreats(&e).is_empty());
    assert_eq!(g.now.hands[CSA], vec![2]);
    assert_eq!(dice_waiting(&g), None);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0305"));
    assert!(unharmed(&g, "1VA"));
    assert!(!finished(&g, "1VA"));
    assert!(finished(&g, "1NY"));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::South, Decision::Activate));

    // With the fall back card alone the fire goes on: 4 dice (6.0).
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
    activating(&mut g, "gray");
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 2);
    let e = order(&mut g, "1VA MOVE 0305").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[CSA], vec![2]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
}

#[test]
fn the_lowest_targeted_card_that_can_act_answers_a_fire() {
    // B137, B141: one card, the lowest-numbered of the `targeted` window
    // that can act on this fire. Hands as given, the card played, what is
    // left, and whether 1VA falls back (0406-0506) or stays in 0306:
    // - 2 then 1: cancel-fire 1 is lower: 1VA stays, unharmed;
    // - 4 then 2: the fall back 2 is lower: 1VA falls back;
    // - 5 then 3: extra-assault-dice 5 cannot act on a fire: 3;
    // - 10 then 5: no-effect 10 never plays (11.12) and 5 cannot act:
    //   nothing; the fire rolls its 4 dice.
    // Whenever a card plays there are no dice and 1NY is Finished.
    let cases = [
        ([2u8, 1], Some(1u8), vec![2u8], "0306"),
        ([4, 2], Some(2), vec![4], "0506"),
        ([5, 3], Some(3), vec![5], "0506"),
        ([10, 5], None, vec![10, 5], "0306"),
    ];
    for (hand, card, left, stands) in cases {
        let mut g = volley();
        order(&mut g, "CARDS gray AUTO").unwrap();
        for &c in &hand {
            give(&mut g, CSA, c);
        }
        let e = order(&mut g, "1NY FIRE 0306").unwrap();
        let expect: Vec<(Side, u8)> = card.map(|c| (Side::Confederacy, c)).into_iter().collect();
        assert_eq!(played(&e), expect, "{hand:?}");
        assert_eq!(g.now.hands[CSA], left, "{hand:?}");
        assert_eq!(at(&g, "1VA").as_deref(), Some(stands), "{hand:?}");
        if card.is_some() {
            assert_eq!(dice_waiting(&g), None, "{hand:?}");
            assert!(finished(&g, "1NY"), "{hand:?}");
            assert!(unharmed(&g, "1VA"), "{hand:?}");
        } else {
            assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{hand:?}");
        }
    }
}

#[test]
fn no_fall_back_without_the_cards_instruction() {
    // B137, B5: CARDS defaults to NEVER; B6: a brigade's own instruction
    // beats its side's, and an instruction for another brigade (reserve,
    // or the firer's blue) does nothing for gray. Not played: the card
    // stays, 1VA stays in 0306 and the fire rolls its 4 dice (6.0).
    let cases: Vec<Vec<&str>> = vec![
        vec![],
        vec!["CARDS gray NEVER"],
        vec!["CARDS CSA AUTO", "CARDS gray NEVER"],
        vec!["CARDS reserve AUTO"],
        vec!["CARDS blue AUTO"],
    ];
    for given in cases {
        let mut g = volley();
        for text in &given {
            order(&mut g, text).unwrap();
        }
        give(&mut g, CSA, 2);
        let e = order(&mut g, "1NY FIRE 0306").unwrap();
        assert!(played(&e).is_empty(), "{given:?}");
        assert!(retreats(&e).is_empty(), "{given:?}");
        assert_eq!(g.now.hands[CSA], vec![2], "{given:?}");
        assert!(g.now.discard.is_empty(), "{given:?}");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{given:?}");
        assert_eq!(at(&g, "1VA").as_deref(), Some("0306"), "{given:?}");
    }
}

// ----- cancel-targeting-retreat on an assault (B141) -------------------

#[test]
fn a_fall_back_card_answers_an_assault_and_the_attacker_takes_the_hex_finished() {
    // B141, 11.3 on 5-6: 2NYA assaults 1VA (7.1); gray's card plays as the
    // assault is declared, before any die: 1VA falls back 0406-0506 (the
    // enemy still at 0304, see the head of this file), no save, no extra
    // hit, Finished as a ready unit that retreats (6.77). The assaulting
    // 2NYA enters the hex left (as in 7.3) and is Finished as if it had
    // assaulted (B141, 7.12). No assault dice are asked.
    let mut g = bayonets();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 2);
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert!(g.now.hands[CSA].is_empty());
    assert_eq!(g.now.discard, vec![2]);
    assert_eq!(dice_waiting(&g), None, "no assault dice");
    assert!(assault_won(&e).is_none(), "the assault is not resolved");
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    assert!(unharmed(&g, "1VA"));
    assert!(finished(&g, "1VA"));
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0305"));
    assert!(finished(&g, "2NYA"), "B141");
    assert!(!disrupted(&g, "2NYA"));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
}

#[test]
fn on_an_assault_the_fall_back_beats_higher_cards_and_cancel_fire_never_answers() {
    // B141, B137: the lowest `targeted` card that can act on an assault.
    // - 5 then 2: the fall back 2 is lower than the extra dice 5;
    // - 2 then 1: cancel-fire 1 cancels fire only (table "Card effect
    //   kinds"), not an assault: 2 plays and 1 stays.
    // Either way 1VA falls back 0406-0506, no dice, 2NYA takes 0305.
    for (hand, left) in [(vec![5u8, 2], vec![5u8]), (vec![2, 1], vec![1])] {
        let mut g = bayonets();
        order(&mut g, "CARDS gray AUTO").unwrap();
        for &c in &hand {
            give(&mut g, CSA, c);
        }
        let e = order(&mut g, "2NYA MOVE 0305").unwrap();
        assert_eq!(played(&e), vec![(Side::Confederacy, 2)], "{hand:?}");
        assert_eq!(g.now.hands[CSA], left, "{hand:?}");
        assert_eq!(g.now.discard, vec![2], "{hand:?}");
        assert_eq!(dice_waiting(&g), None, "{hand:?}");
        assert_eq!(at(&g, "1VA").as_deref(), Some("0506"), "{hand:?}");
        assert_eq!(at(&g, "2NYA").as_deref(), Some("0305"), "{hand:?}");
        assert!(finished(&g, "2NYA"), "{hand:?}");
    }
}

#[test]
fn when_the_defender_cannot_fall_back_the_extra_dice_card_plays_instead() {
    // B141: only if the defenders can retreat; 1VA stands on the rally
    // point 0806 (6.732 c). 2NYA assaults from 0805. The lowest card that
    // can act is 5 (extra-assault-dice, dice 2; B137: after the stand,
    // EVADE NEVER by default): the attacker rolls its 3 dice, then 1VA
    // rolls 4 + 2 (7.1, 11.3 on 1-2). Card 2 stays.
    let mut g = field();
    only(&mut g, &[("2NYA", "0805"), ("1VA", "0806")]);
    activating(&mut g, "blue");
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 5);
    give(&mut g, CSA, 2);
    let mut e = order(&mut g, "2NYA MOVE 0806").unwrap();
    assert!(retreats(&e).is_empty());
    assert_eq!(at(&g, "1VA").as_deref(), Some("0806"));
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "the attacker's 3");
    e.extend(roll(&mut g, "1 1 1"));
    assert_eq!(played(&e), vec![(Side::Confederacy, 5)]);
    assert_eq!(g.now.hands[CSA], vec![2]);
    assert_eq!(g.now.discard, vec![5]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(6)), "4 + 2");
}

// ----- fire-then-assault (B128, B142) ----------------------------------

/// 2NYA (blue, unformed: 5 points, 3 fire dice) at 0304 next to 1VA (gray,
/// formed) at 0305, 1NY (blue) off at 0202; blue activating; gray never
/// retreats for a save; the Union holds card 7.
fn fire_and_close() -> BrothersAtWar {
    let mut g = field();
    only(
        &mut g,
        &[("2NYA", "0304"), ("1VA", "0305"), ("1NY", "0202")],
    );
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    give(&mut g, USA, 7);
    g
}

#[test]
fn fire_then_assault_leaves_the_unit_ready_and_bound_to_assault_that_hex() {
    // B142: the mover's line `PLAY 7 ON 2NYA` before the unit's FIRE; the
    // card leaves the hand face up (B134). 2NYA fires at the adjacent
    // 0305 (standing fire, 2 points, 6.11): 3 dice; 6 1 1 is one success
    // (6.0); 1VA, formed, in the open, next to the firer, has no save (6.6:
    // no hex between, no formation save): the hit unforms it (6.52, B80).
    // After the fire 2NYA is not Finished (B128) and its next order must be
    // its assault of 0305: a move elsewhere, another fire, DONE, another
    // unit's order and END are refused (B128).
    let mut g = fire_and_close();
    let nya = id(&g, "2NYA");
    order(&mut g, "PLAY 7 ON 2NYA").unwrap();
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![7]);
    assert!(g
        .now
        .card_effects
        .contains(&CardEffect::FireThenAssault(nya, 7)));
    order(&mut g, "2NYA FIRE 0305").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)));
    roll(&mut g, "6 1 1");
    settle(&mut g);
    assert_eq!(dice_waiting(&g), None);
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back, "the hit unforms it");
    assert!(!finished(&g, "2NYA"), "B128: not Finished after the fire");
    assert!(g
        .now
        .card_effects
        .contains(&CardEffect::MustAssault(nya, hex("0305"), 7)));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
    for text in [
        "2NYA MOVE 0204",
        "2NYA FIRE 0305",
        "2NYA DONE",
        "1NY MOVE 0203",
        "END",
    ] {
        assert_eq!(refused(&mut g, text), "B128", "{text}");
    }
    assert!(!finished(&g, "2NYA"));
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0304"));
}

#[test]
fn fire_then_assault_goes_on_into_the_assault() {
    // B142, B128: after the fire (one hit: 1VA unformed, as above) the
    // assault `2NYA MOVE 0305` is accepted: 1 point, 3 of 5 spent (B52).
    // 2NYA rolls 3 dice on 5-6; 1VA, now unformed, 4 dice on 5-6 (7.11:
    // no formed bonus any more). 6 1 1 against 4 4 4 4: 1 hit to 0; the
    // attacker wins (7.12), 1VA retreats 0406-0506 without a save and its
    // hit Disrupts it (B80); 2NYA enters 0305 unharmed; every participant
    // is Finished (7.12, B98). The card's effects are gone.
    let mut g = fire_and_close();
    let nya = id(&g, "2NYA");
    order(&mut g, "PLAY 7 ON 2NYA").unwrap();
    order(&mut g, "2NYA FIRE 0305").unwrap();
    roll(&mut g, "6 1 1");
    settle(&mut g);
    assert!(!finished(&g, "2NYA"));
    order(&mut g, "2NYA MOVE 0305").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "2NYA's 3 dice");
    roll(&mut g, "6 1 1");
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "1VA's 4 dice");
    let e = roll(&mut g, "4 4 4 4");
    assert_eq!(assault_won(&e), Some((Side::Union, 1)));
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0305"));
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    assert!(disrupted(&g, "1VA"));
    assert!(!disrupted(&g, "2NYA"));
    assert!(finished(&g, "2NYA") && finished(&g, "1VA"));
    assert!(!g.now.card_effects.iter().any(|c| matches!(
        c,
        CardEffect::FireThenAssault(u, _) | CardEffect::MustAssault(u, _, _) if *u == nya
    )));
}

#[test]
fn fire_then_assault_finishes_the_unit_when_its_target_retreats() {
    // B142: if the hex holds no enemy once the fire is resolved, the unit
    // is Finished at once. Gray retreats for its save (RETREAT ALWAYS, B90):
    // 6 1 1 is one success; saves: none for the hex or formation, 1 for the
    // retreat (6.6 item 5) = 1 die; save 1: the hit stands, 1VA unforms and
    // retreats 0406-0506 (B92), Finished (6.77). 0305 is empty: 2NYA is
    // Finished; the Union goes on deciding with its other units, 2NYA done
    // (5.1).
    let mut g = fire_and_close();
    order(&mut g, "RETREAT gray ALWAYS").unwrap();
    order(&mut g, "PLAY 7 ON 2NYA").unwrap();
    order(&mut g, "2NYA FIRE 0305").unwrap();
    roll(&mut g, "6 1 1");
    assert_eq!(dice_waiting(&g), Some(6), "the retreat's save");
    let e = roll(&mut g, "1");
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back);
    assert!(finished(&g, "2NYA"), "B142: the hex is empty");
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0304"));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
    assert_eq!(refused(&mut g, "2NYA MOVE 0305"), "1.51");
    order(&mut g, "1NY MOVE 0203").unwrap();
    assert_eq!(at(&g, "1NY").as_deref(), Some("0203"));
}

#[test]
fn fire_then_assault_finishes_the_unit_when_its_target_falls_back_before_the_dice() {
    // B142 with B141: gray's fall back card answers 2NYA's fire as it is
    // declared: 1VA retreats 0406-0506 before any die and the fire is not
    // resolved; 0305 holds no enemy, so 2NYA is Finished (B142; B141: the
    // firer stays Finished).
    let mut g = fire_and_close();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 2);
    order(&mut g, "PLAY 7 ON 2NYA").unwrap();
    let e = order(&mut g, "2NYA FIRE 0305").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert_eq!(dice_waiting(&g), None);
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert!(finished(&g, "2NYA"));
    assert_eq!(g.now.discard, vec![7, 2]);
    order(&mut g, "1NY MOVE 0203").unwrap();
}

#[test]
fn fire_then_assault_finishes_the_unit_when_its_target_is_eliminated() {
    // B142: 2VA, Disrupted by the test battle, at 0305; RETREAT NEVER and
    // RESERVES KEEP (B5). 6 1 1: one success; saves: 1 for a Disrupted
    // target (6.6 item 3, B79) = 1 die; save 1: the hit on a Disrupted unit
    // eliminates it (6.54, B80), no reserve spent. 0305 is empty: 2NYA is
    // Finished.
    let mut g = field();
    only(
        &mut g,
        &[("2NYA", "0304"), ("2VA", "0305"), ("1NY", "0202")],
    );
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    order(&mut g, "RESERVES gray KEEP").unwrap();
    give(&mut g, USA, 7);
    assert!(disrupted(&g, "2VA"), "the test battle's");
    // A Disrupted unit is never formed (5.34, B81).
    unit_mut(&mut g, "2VA").face = Face::Back;
    let gray = brigade(&g, "gray");
    let casualties = g.brigade(gray).casualties;
    order(&mut g, "PLAY 7 ON 2NYA").unwrap();
    order(&mut g, "2NYA FIRE 0305").unwrap();
    roll(&mut g, "6 1 1");
    assert_eq!(dice_waiting(&g), Some(6), "the Disrupted save");
    roll(&mut g, "1");
    assert_eq!(g.unit(id(&g, "2VA")).place, Place::Eliminated);
    assert_eq!(g.brigade(gray).casualties, casualties + 1, "6.54");
    assert!(finished(&g, "2NYA"), "B142: the hex is empty");
    assert_eq!(refused(&mut g, "2NYA MOVE 0305"), "1.51");
    order(&mut g, "1NY MOVE 0203").unwrap();
}

#[test]
fn fire_then_assault_refuses_a_fire_at_a_hex_it_could_not_then_assault() {
    // B142: the FIRE is refused (B123) when the unit could not then
    // assault that hex: 1VA at 0306 is 2 hexes from 2NYA at 0304, not next
    // to it. The PLAY line is accepted because 2VA at 0303, next to 2NYA,
    // is a hex it could fire at and then assault (B123: a PLAY no use
    // could follow is refused at the PLAY line,
    // brothers_at_war_wording.rs).
    let mut g = field();
    only(
        &mut g,
        &[("2NYA", "0304"), ("1VA", "0306"), ("2VA", "0303")],
    );
    activating(&mut g, "blue");
    give(&mut g, USA, 7);
    order(&mut g, "PLAY 7 ON 2NYA").unwrap();
    assert_eq!(g.now.discard, vec![7]);
    assert_eq!(refused(&mut g, "2NYA FIRE 0306"), "B123");
    assert_eq!(dice_waiting(&g), None);
    assert!(!finished(&g, "2NYA"));
}

#[test]
fn fire_then_assault_refuses_a_fire_that_leaves_no_point_for_the_assault() {
    // B142, B128: "too few movement points left after the fire's cost".
    // 1NY, formed, has 4 points (5.41). Two steps 0302-0303-0304 (2) and a
    // moving fire (2, 6.11) leave 0: the assault step costs 1 (B52, B96):
    // refused, B123. One step 0303-0304 (1) and the fire (2) leave 1: the
    // FIRE is accepted and its 4 dice are asked (6.0). Gray's OPFIRE NEVER
    // keeps 1VA quiet during the steps.
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    give(&mut g, USA, 7);
    order(&mut g, "1NY MOVE 0303 0304").unwrap();
    // B123: no use of the card could follow, so the PLAY itself is
    // refused and the card kept.
    assert_eq!(refused(&mut g, "PLAY 7 ON 1NY"), "B123");
    assert_eq!(g.now.hands[USA], vec![7]);
    assert_eq!(dice_waiting(&g), None);

    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    give(&mut g, USA, 7);
    order(&mut g, "1NY MOVE 0304").unwrap();
    order(&mut g, "PLAY 7 ON 1NY").unwrap();
    order(&mut g, "1NY FIRE 0305").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
}

// ----- point-blank-fire-any-unit (B143) --------------------------------

/// Gray activating; 1VA (ready, formed) at 0306 about to step to 0305;
/// 1NY (blue) at 0304, next to 0305 but not to 0306; gray never retreats
/// for a save. The Union holds card 6.
fn stepping_in() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "gray");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    give(&mut g, USA, 6);
    g
}

#[test]
fn a_point_blank_card_fires_a_finished_unit_at_the_enemy_stepping_next_to_it() {
    // B143, 11.3 on 3-4, B10 item (4): 1VA steps 0306-0305, next to 1NY;
    // blue's CARDS AUTO plays card 6 (window `enemy-enters`): 1NY, Finished
    // (so no opportunity fire, 6.12), fires point blank at 0305 with its
    // own 4 dice (6.0). 6 1 1 1: one success; 1VA has no save (adjacent,
    // formed, in the open, the firer did not move, no retreat: 6.6): it
    // unforms (6.52, B80). 1NY keeps its place and its Finished marker and
    // is not Disrupted (B143). The card is discarded face up (B134). The
    // South goes on deciding (B143: "as after any point blank fire").
    let mut g = stepping_in();
    unit_mut(&mut g, "1NY").finished = true;
    order(&mut g, "CARDS blue AUTO").unwrap();
    let e = order(&mut g, "1VA MOVE 0305").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 6)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![6]);
    assert_eq!(
        point_blank(&e),
        vec![(vec!["1NY".to_string()], "0305".to_string(), 4)]
    );
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    roll(&mut g, "6 1 1 1");
    settle(&mut g);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0305"));
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(!v.disrupted);
    assert_eq!(at(&g, "1NY").as_deref(), Some("0304"));
    assert!(finished(&g, "1NY"));
    assert!(!disrupted(&g, "1NY"));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::South, Decision::Activate));
}

#[test]
fn the_point_blank_card_leaves_a_disrupted_unit_disrupted_and_a_ready_unit_ready() {
    // B143: the unit fires "Finished or Disrupted or not, and keeps ...
    // its status". (1) 1NY Disrupted (so unformed, 5.34) and not Finished:
    // a Disrupted unit makes no opportunity fire (6.12), but the card's
    // point blank fire it makes, 4 dice (6.531 takes nothing from fire
    // dice); afterwards it is still Disrupted and not Finished. (2) 1NY
    // ready and Undisrupted, blue's OPFIRE NEVER: the card's fire, 4 dice;
    // afterwards 1NY is still ready (not Finished, unlike 6.11 or B72).
    for disrupt in [true, false] {
        let mut g = stepping_in();
        if disrupt {
            unit_mut(&mut g, "1NY").disrupted = true;
            unit_mut(&mut g, "1NY").face = Face::Back;
        } else {
            order(&mut g, "OPFIRE blue NEVER").unwrap();
        }
        order(&mut g, "CARDS blue AUTO").unwrap();
        let e = order(&mut g, "1VA MOVE 0305").unwrap();
        assert_eq!(played(&e), vec![(Side::Union, 6)], "disrupted {disrupt}");
        assert_eq!(
            point_blank(&e),
            vec![(vec!["1NY".to_string()], "0305".to_string(), 4)],
            "disrupted {disrupt}"
        );
        roll(&mut g, "1 1 1 1");
        settle(&mut g);
        assert!(unharmed(&g, "1VA"), "disrupted {disrupt}");
        assert_eq!(disrupted(&g, "1NY"), disrupt);
        assert!(!finished(&g, "1NY"), "disrupted {disrupt}");
        assert_eq!(at(&g, "1NY").as_deref(), Some("0304"));
        assert_eq!(g.now.discard, vec![6]);
    }
}

#[test]
fn no_point_blank_fire_without_the_card_or_the_instruction() {
    // B143, B137: without the card (or holding only a card of no effect),
    // under CARDS NEVER (the default, B5) or an instruction for another
    // brigade (horse) of the Union, nothing fires at 1VA stepping next to
    // Finished 1NY: 6.15 point blank fire needs the enemy to leave the hex
    // and 6.12 needs a ready firer. Gray's own card 6 under its AUTO does
    // nothing for its own mover (the window is the side whose units are
    // stepped next to, B143). No dice; the card, if any, stays.
    let cases: Vec<(Vec<&str>, usize, u8)> = vec![
        (vec!["CARDS blue AUTO"], USA, 10),
        (vec![], USA, 6),
        (vec!["CARDS USA AUTO", "CARDS blue NEVER"], USA, 6),
        (vec!["CARDS horse AUTO"], USA, 6),
        (vec!["CARDS gray AUTO", "CARDS CSA AUTO"], CSA, 6),
    ];
    for (given, side, card) in cases {
        let mut g = field();
        only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
        unit_mut(&mut g, "1NY").finished = true;
        activating(&mut g, "gray");
        for text in &given {
            order(&mut g, text).unwrap();
        }
        give(&mut g, side, card);
        let e = order(&mut g, "1VA MOVE 0305").unwrap();
        assert!(played(&e).is_empty(), "{given:?}");
        assert!(point_blank(&e).is_empty(), "{given:?}");
        assert_eq!(dice_waiting(&g), None, "{given:?}");
        assert_eq!(g.now.hands[side], vec![card], "{given:?}");
        assert!(g.now.discard.is_empty(), "{given:?}");
        assert_eq!(at(&g, "1VA").as_deref(), Some("0305"), "{given:?}");
        assert!(unharmed(&g, "1VA"), "{given:?}");
    }
}

#[test]
fn the_point_blank_card_fires_the_lowest_hex_of_a_brigade_under_auto() {
    // B143: of the units next to the mover's hex, other than skirmishers,
    // whose brigade's instruction is AUTO, the one with the lowest hex id
    // fires; one card for the one step (B137). 1VA steps 0306-0305, next to
    // both 0304 and 0405 (0306 touches neither). All Union units Finished.
    // (1) 1NY at 0304 and 2NYA at 0405, both blue, CARDS blue AUTO: 1NY
    //     (0304) fires its 4 dice, 2NYA does not.
    // (2) 1NY (blue) at 0304 and 1CAV (horse, mounted, firepower 2) at
    //     0405, CARDS horse AUTO only: blue's unit, though at the lower hex,
    //     is not under AUTO; 1CAV fires its 2 dice.
    for (other, scope, firer, dice) in [("2NYA", "blue", "1NY", 4u8), ("1CAV", "horse", "1CAV", 2)]
    {
        let mut g = stepping_in();
        unit_mut(&mut g, other).place = Place::Map(hex("0405"));
        unit_mut(&mut g, "1NY").finished = true;
        unit_mut(&mut g, other).finished = true;
        order(&mut g, &format!("CARDS {scope} AUTO")).unwrap();
        let e = order(&mut g, "1VA MOVE 0305").unwrap();
        assert_eq!(played(&e), vec![(Side::Union, 6)], "{scope}");
        assert_eq!(
            point_blank(&e),
            vec![(vec![firer.to_string()], "0305".to_string(), dice)],
            "{scope}"
        );
        assert_eq!(dice_waiting(&g), Some(6u32.pow(u32::from(dice))), "{scope}");
        roll(&mut g, &vec!["1"; dice as usize].join(" "));
        settle(&mut g);
        assert!(finished(&g, "1NY") && finished(&g, other), "{scope}");
        assert_eq!(at(&g, other).as_deref(), Some("0405"), "{scope}");
    }
}

// ----- the re-rolls of an assault (B140) -------------------------------

#[test]
fn the_attacker_losing_as_rolled_re_rolls_its_unit_s_dice_and_pays_the_hit_after_the_winner() {
    // B140, 11.3 on 41-42, B130: 2NYA's 1 1 1 (none) against 1VA's
    // 1 1 1 1 (none): a tie, so the defender wins as rolled (7.12): the
    // attacker loses and blue's CARDS AUTO plays card 8 (reroll-assault-
    // dice, cost 1): 2NYA's 3 dice are asked again, nothing decided yet.
    // The new 6 6 1 (2 hits, 5-6) replaces the old: 2 to 0, the Union wins.
    // 1VA retreats 0406-0506 without a save (7.12) and takes 2 hits:
    // unformed, then Disrupted (B80). 2NYA enters 0305 (7.12); the assault
    // gave it no hit, then the card's cost hit, after the winner and the
    // assault's hits, Disrupts it. Both Finished (7.12).
    let mut g = bayonets();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 8);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)));
    let e = roll(&mut g, "1 1 1");
    assert!(played(&e).is_empty(), "not before both sides have rolled");
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let e = roll(&mut g, "1 1 1 1");
    assert_eq!(played(&e), vec![(Side::Union, 8)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![8]);
    assert!(
        assault_won(&e).is_none(),
        "the winner waits for the re-roll"
    );
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "2NYA's dice again");
    let e = roll(&mut g, "6 6 1");
    assert_eq!(assault_won(&e), Some((Side::Union, 2)));
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(dice_waiting(&g), None);
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(v.disrupted);
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0305"));
    assert!(disrupted(&g, "2NYA"), "the card's cost hit");
    assert!(finished(&g, "2NYA") && finished(&g, "1VA"));
}

#[test]
fn the_re_rolled_result_stands_even_when_it_still_loses() {
    // B130, B140: the new result replaces the old one. 2NYA re-rolls
    // 1 1 1: still none to none, the defender wins (7.12). 2NYA retreats
    // from its own hex 0304 (B98), 0204-0103 (see the head of this file),
    // and takes the card's cost hit after the winner (11.3 on 41-42):
    // Disrupted (B80). 1VA holds 0305 unharmed. All participants are
    // Finished (7.12).
    let mut g = bayonets();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 8);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "1 1 1");
    let e = roll(&mut g, "1 1 1 1");
    assert_eq!(played(&e), vec![(Side::Union, 8)]);
    let e = roll(&mut g, "1 1 1");
    assert_eq!(assault_won(&e), Some((Side::Confederacy, 0)));
    assert_eq!(retreats(&e), vec![along("2NYA", &["0204", "0103"])]);
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0103"));
    assert!(disrupted(&g, "2NYA"), "the card's cost hit");
    assert_eq!(at(&g, "1VA").as_deref(), Some("0305"));
    assert!(unharmed(&g, "1VA"));
    assert!(finished(&g, "2NYA") && finished(&g, "1VA"));
}

#[test]
fn the_assault_re_roll_takes_one_unit_s_dice_the_any_die_card_the_whole_side() {
    // B140: `reroll-assault-dice` rolls again the dice of the side's unit
    // with the most dice (2NYA and 2NYB have 3 each: the first listed), 3
    // dice; `reroll-any-die` rolls again all that side's dice, 6. The
    // stack's 6 dice all 1 (none) against 1VA's 4 1 1 1 (one, 4-6): the
    // Union loses as rolled (1 > 0).
    // - Card 8: 3 dice again, 6 6 1: 2 hits with the other unit's none,
    //   2 to 1: the Union wins.
    // - Card 9: 6 dice again, 6 1 1 1 1 1: 1 to 1, a tie: the defender
    //   still wins (7.12).
    for (card, dice, again, winner) in [
        (8u8, 3u32, "6 6 1", Side::Union),
        (9, 6, "6 1 1 1 1 1", Side::Confederacy),
    ] {
        let mut g = pair();
        order(&mut g, "CARDS blue AUTO").unwrap();
        give(&mut g, USA, card);
        order(&mut g, "2NYA 2NYB MOVE 0305").unwrap();
        assert_eq!(dice_waiting(&g), Some(6u32.pow(6)), "3 + 3, card {card}");
        roll(&mut g, "1 1 1 1 1 1");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "card {card}");
        let e = roll(&mut g, "4 1 1 1");
        assert_eq!(played(&e), vec![(Side::Union, card)], "card {card}");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(dice)), "card {card}");
        let e = roll(&mut g, again);
        let (won, _) = assault_won(&e).expect("the assault's result");
        assert_eq!(won, winner, "card {card}");
        assert_eq!(dice_waiting(&g), None, "card {card}");
    }
}

#[test]
fn the_lower_of_the_two_re_roll_cards_plays() {
    // B140: the losing side plays the lower of its reroll-assault-dice and
    // reroll-any-die cards: holding 9 then 8, card 8 (3 dice again, one
    // unit's); holding 11 then 9, card 9 (all 6 dice again). One card: the
    // other stays. The same rolls as above: the Union loses as rolled.
    for (hand, card, dice, left) in [
        (vec![9u8, 8], 8u8, 3u32, vec![9u8]),
        (vec![11, 9], 9, 6, vec![11]),
    ] {
        let mut g = pair();
        order(&mut g, "CARDS blue AUTO").unwrap();
        for &c in &hand {
            give(&mut g, USA, c);
        }
        order(&mut g, "2NYA 2NYB MOVE 0305").unwrap();
        roll(&mut g, "1 1 1 1 1 1");
        let e = roll(&mut g, "4 1 1 1");
        assert_eq!(played(&e), vec![(Side::Union, card)], "{hand:?}");
        assert_eq!(g.now.hands[USA], left, "{hand:?}");
        assert_eq!(g.now.discard, vec![card], "{hand:?}");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(dice)), "{hand:?}");
    }
}

#[test]
fn the_winner_never_re_rolls() {
    // B140: only the side that loses as rolled plays. (1) 2NYA's 6 6 1 (2)
    // against 1VA's 1 1 1 1 (0): the Union wins; its cards 8 and 9 stay;
    // gray holds none. (2) 2NYA's 1 1 1 (0) against 1VA's 4 1 1 1 (1): gray
    // wins; its card 11 stays; the Union holds none. No dice are asked
    // again; the assault is decided at once.
    let mut g = bayonets();
    order(&mut g, "CARDS blue AUTO").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, USA, 8);
    give(&mut g, USA, 9);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "6 6 1");
    let e = roll(&mut g, "1 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(assault_won(&e), Some((Side::Union, 2)));
    assert_eq!(g.now.hands[USA], vec![8, 9]);
    assert!(g.now.discard.is_empty());
    assert_eq!(dice_waiting(&g), None);

    let mut g = bayonets();
    order(&mut g, "CARDS blue AUTO").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 11);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "1 1 1");
    let e = roll(&mut g, "4 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(assault_won(&e), Some((Side::Confederacy, 0)));
    assert_eq!(g.now.hands[CSA], vec![11]);
    assert_eq!(dice_waiting(&g), None);
}

#[test]
fn the_defender_losing_as_rolled_re_rolls_and_pays_the_hit_after_the_winner() {
    // B140: 2NYA's 6 1 1 (1) against 1VA's 1 1 1 1 (0): the defender loses;
    // gray's CARDS AUTO plays card 8: 1VA's 4 dice again (the looked-up
    // brigade is gray, 1VA's, B137). 4 1 1 1: 1 to 1, a tie: the defender
    // wins (7.12). 2NYA retreats from 0304 (B98), 0204-0103, and takes 1
    // hit: Disrupted (B80). 1VA holds 0305; its 1 assault hit unforms it,
    // then the card's cost hit (after the winner and the assault's hits,
    // 11.3 on 41-42) Disrupts it. The Union, holding nothing, cannot
    // answer.
    let mut g = bayonets();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 8);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "6 1 1");
    let e = roll(&mut g, "1 1 1 1");
    assert_eq!(played(&e), vec![(Side::Confederacy, 8)]);
    assert!(assault_won(&e).is_none());
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "1VA's dice again");
    let e = roll(&mut g, "4 1 1 1");
    assert_eq!(assault_won(&e), Some((Side::Confederacy, 1)));
    assert_eq!(retreats(&e), vec![along("2NYA", &["0204", "0103"])]);
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0103"));
    assert!(disrupted(&g, "2NYA"));
    assert_eq!(at(&g, "1VA").as_deref(), Some("0305"));
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(v.disrupted, "the card's cost hit");
    assert!(finished(&g, "2NYA") && finished(&g, "1VA"));
}

#[test]
fn the_side_a_re_roll_makes_the_loser_may_answer_with_its_own_card() {
    // B140: "if the other side now loses, it may answer with a card of its
    // own". 2NYA 6 1 1 (1) against 1VA 1 1 1 1 (0): gray loses and plays 8
    // (1VA's 4 dice again): 4 1 1 1, 1 to 1, the Union now loses and plays
    // 9 (all its dice again, 3): 6 6 1, 2 to 1, the Union wins; gray has no
    // card left. 1VA retreats 0406-0506 and takes 2 assault hits (unformed,
    // Disrupted), then card 8's cost hit, a killing hit (6.54): gray spends
    // a reserve (RESERVES SPEND by default, 8.11, B80), 1VA stays Disrupted.
    // 2NYA takes 1 hit (Disrupted) and enters 0305 (7.12).
    let mut g = bayonets();
    order(&mut g, "CARDS blue AUTO").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, USA, 9);
    give(&mut g, CSA, 8);
    let gray = brigade(&g, "gray");
    let reserve = g.brigade(gray).reserve;
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "6 1 1");
    let e = roll(&mut g, "1 1 1 1");
    assert_eq!(played(&e), vec![(Side::Confederacy, 8)]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let e = roll(&mut g, "4 1 1 1");
    assert_eq!(played(&e), vec![(Side::Union, 9)]);
    assert!(assault_won(&e).is_none());
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "2NYA's dice again");
    let e = roll(&mut g, "6 6 1");
    assert!(played(&e).is_empty(), "gray has no card left");
    assert_eq!(assault_won(&e), Some((Side::Union, 2)));
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert!(e.contains(&Event::Combat(CombatEvent::ReserveSpent {
        brigade: "gray".into(),
        unit: "1VA".into()
    })));
    assert_eq!(g.brigade(gray).reserve, reserve + 1, "8.11");
    assert_eq!(at(&g, "1VA").as_deref(), Some("0506"));
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(v.disrupted);
    assert_eq!(at(&g, "2NYA").as_deref(), Some("0305"));
    assert!(disrupted(&g, "2NYA"));
    assert_eq!(g.now.discard, vec![8, 9]);
    assert!(g.now.hands[USA].is_empty() && g.now.hands[CSA].is_empty());
}

#[test]
fn no_re_roll_without_the_instruction_nor_of_fire_or_save_dice() {
    // B137, B5: CARDS NEVER by default: the attacker loses as rolled (a
    // tie, 7.12) and its card 8 stays; the assault is decided at once.
    let mut g = bayonets();
    give(&mut g, USA, 8);
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "1 1 1");
    let e = roll(&mut g, "1 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(assault_won(&e), Some((Side::Confederacy, 0)));
    assert_eq!(g.now.hands[USA], vec![8]);

    // B140: other rolls are not re-rolled by AUTO. 1NY's fire at 1VA two
    // hexes off, 6 6 1 1 (two successes): blue's 8 and 9 stay though the
    // fire could have done better; gray's save die (1 for the hex between,
    // 6.6) shows 1 and gray's 9 stays too.
    let mut g = volley();
    order(&mut g, "CARDS blue AUTO").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, USA, 8);
    give(&mut g, USA, 9);
    give(&mut g, CSA, 12);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 6 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(dice_waiting(&g), Some(6), "one save die");
    let e = roll(&mut g, "1");
    assert!(played(&e).is_empty());
    assert_eq!(dice_waiting(&g), None);
    assert_eq!(g.now.hands[USA], vec![8, 9]);
    assert_eq!(g.now.hands[CSA], vec![12]);
    assert!(g.now.discard.is_empty());
    assert!(disrupted(&g, "1VA"), "two hits: unformed, then Disrupted");
}
