#[path = "../common/mod.rs"]
mod common;

// Battle cards of Brothers at War (11.x, B120-B130 and the table "Card
// effect kinds" of docs/brothers-at-war-rulings.md), each result worked
// out by hand from the rulebook and the rulings, never from the engine.
//
// The ground: the test battle's order of battle on its 8 x 6 map made
// open and level everywhere, with no roads, trails, fords or fences, so
// that every step costs 1 and every line of sight is open unless a unit
// stands in it. The Union rallies at 0101, the Confederacy at 0806.
// Commanders stand where the test battle puts them: Col. Ash (blue) at
// 0201, Maj. Elm (horse) at 0601, Col. Oak (gray) at 0506, Col. Fir
// (reserve) at 0806. Reserve tracks: blue and gray 4 spaces to EXHAUSTED
// (break at 2 casualties), horse 3, usart none (divisional).
//
// The deck is ours (cards 1-18, below). Cards are put into hands
// directly: `hands[0]` the Union's, `hands[1]` the Confederacy's, each
// taken out of the deck.
//
// Where a refusal could cite two rules, the order assumed is: the card is
// not in the deciding side's hand (11.2), then a card of no effect
// (11.12), then a window not open (B124), then a target that fails the
// kind's conditions (B123).

use common::brothers_at_war_decks::{
    brigade, deck_text, dice_waiting, disrupted, finished, give, open_field_with_deck, roll,
    settle, CSA, USA,
};
use common::brothersatwar::{activating, hex, id, only, order, quiet, refused, unit_mut};
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::Face;
use orderly::games::{Game, Seat};

/// Our test deck: one entry a kind, with the parameters the tests below
/// count on.
const DECK: &str = r#"
[[card]]
numbers = [1, 2]
name = "Stand fast (test)"
timing = "any"
effect = "remove-finished"
text = "Ours: a hex of yours loses its Finished marker."

[[card]]
numbers = [3, 4]
name = "Colours (test)"
timing = "any"
effect = "rally-check"
params = { bonus = 1 }
text = "Ours: Disrupted units of yours in a hex make a rally check, +1."

[[card]]
numbers = [5]
name = "Rumour (test)"
timing = "any"
effect = "force-exhaustion-check"
params = { fails-on = 2 }
text = "Ours: an enemy brigade rolls a die; on 1-2 it is exhausted."

[[card]]
numbers = [6]
name = "Fresh hands (test)"
timing = "any"
effect = "extra-reserve"
params = { reserves = 2 }
text = "Ours: a brigade of yours recovers up to two reserves."

[[card]]
numbers = [7]
name = "Called away (test)"
timing = "any"
effect = "commander-off-map"
params = { turns = 1 }
text = "Ours: an enemy commander leaves the map until next turn."

[[card]]
numbers = [8]
name = "Second wind (test)"
timing = "any"
effect = "regroup-check"
params = { bonus = 1 }
text = "Ours: an exhausted brigade of yours may regroup, +1."

[[card]]
numbers = [9]
name = "Forced march (test)"
timing = "own-activation"
effect = "extra-movement"
params = { points = 2 }
text = "Ours: a unit of yours moves two points more."

[[card]]
numbers = [10]
name = "Cold steel (test)"
timing = "own-activation"
effect = "extra-assault-dice"
params = { dice = 2 }
text = "Ours: an assaulting unit of yours rolls two dice more."

[[card]]
numbers = [11]
name = "To your posts (test)"
timing = "move-commander"
effect = "ready-commander-brigade"
params = { reach = 2 }
text = "Ours: units near your commander lose their Finished markers."

[[card]]
numbers = [12]
name = "Double charge (test)"
timing = "firing"
effect = "extra-fire-dice-with-risk"
params = { dice = 2, unit = "artillery", risk-face = 1 }
text = "Ours: a battery fires two dice more; each extra 1 hits the battery."

[[card]]
numbers = [13]
name = "Hot barrels (test)"
timing = "firing"
effect = "extra-fire-dice-with-risk"
params = { dice = 2, unit = "any", risk-face = 2 }
text = "Ours: a unit fires two dice more; each extra 1 or 2 hits the unit."

[[card]]
numbers = [14]
name = "Reshuffle (test)"
timing = "drawn"
effect = "reshuffle-on-draw"
text = "Ours: when drawn, the discards go back to the deck; draw again."

[[card]]
numbers = [15, 16, 17]
name = "Letters home (test)"
timing = "none"
effect = "no-effect"
text = "Ours: no effect."

[[card]]
numbers = [18]
name = "Stragglers return (test)"
timing = "any"
effect = "extra-reserve"
params = { reserves = 1 }
text = "Ours: a brigade of yours recovers a reserve."
"#;

/// How many card numbers the deck holds.
const CARDS: u32 = 18;

/// A new game of the test battle with our deck, on open, level ground.
fn cards() -> BrothersAtWar {
    open_field_with_deck(DECK, "test-cards", false)
}

/// Puts a card from the deck onto the discard pile.
fn discarded(g: &mut BrothersAtWar, card: u8) {
    g.now.deck.retain(|&c| c != card);
    g.now.discard.push(card);
}

fn pending_seat(g: &BrothersAtWar) -> Seat {
    g.pending().expect("a decision").seat
}

// ----- the deck itself -----------------------------------------------

#[test]
fn the_test_deck_passes_the_scenario_check() {
    // B122, B125: every entry names a kind, a window the kind allows and
    // parameters within their bounds.
    let problems = orderly::games::brothers_at_war::scenario::check(&deck_text(DECK, false));
    assert!(problems.is_empty(), "{problems:#?}");
    let g = cards();
    let numbers: usize = g
        .battle
        .scenario
        .cards
        .iter()
        .map(|c| c.numbers.len())
        .sum();
    assert_eq!(numbers, CARDS as usize);
}

// ----- who may play what ---------------------------------------------

#[test]
fn a_card_not_in_the_deciding_side_s_hand_is_refused() {
    // 11.2, 11.0: only the cards of the side whose decision is pending;
    // not the opponent's, not the deck's, not the discard pile's.
    let mut g = cards();
    only(&mut g, &[("2NYA", "0302")]);
    unit_mut(&mut g, "2NYA").finished = true;
    activating(&mut g, "blue");
    give(&mut g, CSA, 1);
    discarded(&mut g, 2);
    assert_eq!(
        refused(&mut g, "PLAY 1 ON 2NYA"),
        "11.2",
        "the South's card"
    );
    assert_eq!(
        refused(&mut g, "PLAY 2 ON 2NYA"),
        "11.2",
        "a discarded card"
    );
    assert_eq!(
        refused(&mut g, "PLAY 3 ON 2NYA"),
        "11.2",
        "still in the deck"
    );
    assert!(finished(&g, "2NYA"));
}

#[test]
fn a_card_of_no_effect_is_never_played() {
    // 11.12, B123: no-effect cards (48-52 in the box) are only discarded.
    let mut g = cards();
    only(&mut g, &[("1NY", "0302")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 15);
    assert_eq!(refused(&mut g, "PLAY 15"), "11.12");
    assert_eq!(refused(&mut g, "PLAY 15 ON 1NY"), "11.12");
    assert_eq!(g.now.hands[USA], vec![15]);
}

#[test]
fn the_reactor_asked_a_question_may_play_an_any_time_card_and_the_mover_then_may_not() {
    // B124 `any`: whenever the holder has a decision pending. Under OPFIRE
    // ASK the South is asked after 2NYA's step to 0303, 3 hexes from 1VA
    // (B7, B69): the South decides, so its card plays and the North's
    // does not (11.2).
    let mut g = cards();
    only(
        &mut g,
        &[
            ("2NYA", "0302"),
            ("1VA", "0306"),
            ("2VA", "0801"),
            ("1NY", "0101"),
        ],
    );
    unit_mut(&mut g, "2VA").disrupted = false;
    unit_mut(&mut g, "2VA").finished = true;
    unit_mut(&mut g, "1NY").finished = true;
    activating(&mut g, "blue");
    give(&mut g, CSA, 1);
    give(&mut g, USA, 2);
    order(&mut g, "OPFIRE gray ASK").unwrap();
    order(&mut g, "2NYA MOVE 0303 0304").unwrap();
    assert_eq!(pending_seat(&g), Seat::South);
    assert_eq!(refused(&mut g, "PLAY 2 ON 1NY"), "11.2");
    order(&mut g, "PLAY 1 ON 2VA").unwrap();
    assert!(!finished(&g, "2VA"));
    assert!(g.now.hands[CSA].is_empty());
    assert_eq!(g.now.discard, vec![1]);
    // The question is still his to answer.
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::South, Decision::Reaction));
}

// ----- remove-finished -----------------------------------------------

#[test]
fn stand_fast_readies_every_friendly_unit_of_the_hex_named_by_unit_or_hex() {
    // Kind remove-finished (11.3 on 15-16): the hex loses its Finished
    // marker (B44: one marker a hex); the card goes face up onto the
    // discard pile (11.2).
    let mut g = cards();
    only(
        &mut g,
        &[("2NYA", "0302"), ("2NYB", "0302"), ("1NY", "0202")],
    );
    for u in ["2NYA", "2NYB", "1NY"] {
        unit_mut(&mut g, u).finished = true;
    }
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    give(&mut g, USA, 2);
    order(&mut g, "PLAY 1 ON 2NYB").unwrap();
    assert!(!finished(&g, "2NYA") && !finished(&g, "2NYB"));
    assert!(finished(&g, "1NY"), "another hex");
    assert_eq!(g.now.hands[USA], vec![2]);
    assert_eq!(g.now.discard, vec![1]);
    assert!(!g.now.deck.contains(&1));
    order(&mut g, "PLAY 2 ON 0202").unwrap();
    assert!(!finished(&g, "1NY"));
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![1, 2]);
    // Ready again, 2NYA may activate (B45).
    order(&mut g, "2NYA MOVE 0303").unwrap();
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0303")));
}

#[test]
fn stand_fast_gives_no_points_back_but_a_unit_that_fired_may_fire_again() {
    // 11.3 on 15-16 and the kind table: no movement points given back; an
    // active unit that fired may fire again with points left. 1NY is
    // formed (4 points); each standing fire costs 2 (B64).
    let mut g = cards();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    give(&mut g, USA, 1);
    give(&mut g, USA, 2);
    order(&mut g, "1NY FIRE 0306").unwrap();
    settle(&mut g);
    assert!(finished(&g, "1NY"), "6.11");
    order(&mut g, "PLAY 1 ON 1NY").unwrap();
    assert!(!finished(&g, "1NY"));
    // 2 of 4 points spent: one more fire.
    order(&mut g, "1NY FIRE 0306").unwrap();
    settle(&mut g);
    assert!(finished(&g, "1NY"), "6.11");
    order(&mut g, "PLAY 2 ON 1NY").unwrap();
    assert!(!finished(&g, "1NY"));
    // 4 of 4 spent: no points for a third fire (B52, 5.2).
    assert_eq!(refused(&mut g, "1NY FIRE 0306"), "5.24");
}

#[test]
fn stand_fast_needs_a_friendly_finished_unit_in_the_hex() {
    // B123: no friendly Finished unit there, or the enemy's hex.
    let mut g = cards();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    unit_mut(&mut g, "1VA").finished = true;
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    assert_eq!(refused(&mut g, "PLAY 1 ON 1NY"), "B123", "not Finished");
    assert_eq!(refused(&mut g, "PLAY 1 ON 1VA"), "B123", "an enemy unit");
    assert_eq!(refused(&mut g, "PLAY 1 ON 0306"), "B123", "the enemy's hex");
    assert_eq!(refused(&mut g, "PLAY 1 ON 0101"), "B123", "an empty hex");
    assert_eq!(g.now.hands[USA], vec![1]);
    assert!(finished(&g, "1VA"));
}

// ----- rally-check -----------------------------------------------------

/// 2NYA Disrupted at 0304; 1VA two hexes off in the open at 0306 (so not
/// adjacent, 3.212, and in sight within 7 hexes: no +1, 3.211); Col. Ash
/// 4 hexes away at 0201 (no +1). The card's +1 is the only modifier.
fn rally_position() -> BrothersAtWar {
    let mut g = cards();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0306")]);
    unit_mut(&mut g, "2NYA").disrupted = true;
    activating(&mut g, "blue");
    give(&mut g, USA, 3);
    g
}

#[test]
fn a_rally_card_rallies_on_four_with_its_bonus() {
    // Kind rally-check: one die +1 (the card); 4 + 1 = 5 succeeds (B51),
    // the unit becomes Undisrupted (3.211).
    let mut g = rally_position();
    order(&mut g, "PLAY 3 ON 2NYA").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![3]);
    roll(&mut g, "4");
    assert!(!disrupted(&g, "2NYA") && !finished(&g, "2NYA"));
    assert_eq!(g.pending().unwrap().kind, Decision::Activate);
}

#[test]
fn a_failed_rally_by_card_turns_the_marker_to_finished() {
    // 3.211, B43: 3 + 1 = 4 fails; by default (RALLYFAIL FINISH, B5) the
    // marker turns to its Finished side.
    let mut g = rally_position();
    order(&mut g, "PLAY 3 ON 2NYA").unwrap();
    roll(&mut g, "3");
    assert!(!disrupted(&g, "2NYA"));
    assert!(finished(&g, "2NYA"));
}

#[test]
fn a_rally_card_on_a_hex_rolls_once_for_the_stack_and_counts_the_commander() {
    // 5.37, B44: the stack makes one check; 3.211: +1 for Col. Ash
    // adjacent at 0303, +1 for the card: 3 + 2 = 5 rallies both.
    let mut g = rally_position();
    only(
        &mut g,
        &[("2NYA", "0304"), ("2NYB", "0304"), ("1VA", "0306")],
    );
    unit_mut(&mut g, "2NYB").disrupted = true;
    let blue = brigade(&g, "blue");
    g.now.brigades[blue.index()].commander = Some(hex("0303"));
    order(&mut g, "PLAY 3 ON 0304").unwrap();
    assert_eq!(dice_waiting(&g), Some(6), "one die for the stack");
    roll(&mut g, "3");
    assert!(!disrupted(&g, "2NYA") && !disrupted(&g, "2NYB"));
    assert!(!finished(&g, "2NYA") && !finished(&g, "2NYB"));
}

#[test]
fn a_rally_card_needs_a_friendly_disrupted_unit_that_may_rally() {
    // B123: 1NY is not Disrupted; 2VA is the enemy's; 2NYA stands next to
    // 1VA and may not make a rally check (3.212).
    let mut g = cards();
    // 2VA is Disrupted by the test battle.
    only(
        &mut g,
        &[
            ("1NY", "0302"),
            ("2NYA", "0304"),
            ("1VA", "0305"),
            ("2VA", "0606"),
        ],
    );
    unit_mut(&mut g, "2NYA").disrupted = true;
    activating(&mut g, "blue");
    give(&mut g, USA, 3);
    assert!(disrupted(&g, "2VA"));
    assert_eq!(refused(&mut g, "PLAY 3 ON 1NY"), "B123", "not Disrupted");
    assert_eq!(refused(&mut g, "PLAY 3 ON 2VA"), "B123", "the enemy's");
    assert_eq!(refused(&mut g, "PLAY 3 ON 0606"), "B123", "the enemy's hex");
    assert_eq!(refused(&mut g, "PLAY 3 ON 2NYA"), "B123", "3.212");
}

// ----- force-exhaustion-check ----------------------------------------

#[test]
fn an_exhaustion_card_exhausts_the_enemy_brigade_on_its_number_or_less() {
    // Kind force-exhaustion-check, fails-on 2 (11.3 on 29-30): one die; 1
    // or 2 puts gray's reserve marker on EXHAUSTED, space 4 (8.111,
    // B102); its marker goes to the box only at clean up (8.111, B35).
    for (die, exhausts) in [(1, true), (2, true), (3, false), (6, false)] {
        let mut g = cards();
        only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
        activating(&mut g, "blue");
        give(&mut g, USA, 5);
        let gray = brigade(&g, "gray");
        order(&mut g, "PLAY 5 ON gray").unwrap();
        assert_eq!(dice_waiting(&g), Some(6));
        assert_eq!(g.now.discard, vec![5]);
        roll(&mut g, &die.to_string());
        let b = g.brigade(gray);
        assert_eq!(b.exhausted, exhausts, "die {die}");
        assert_eq!(b.reserve, if exhausts { 4 } else { 0 }, "die {die}");
        assert!(!b.broken);
        assert!(g.now.exhausted_box.is_empty(), "die {die}");
        assert_eq!(g.pending().unwrap().kind, Decision::Activate);
    }
}

#[test]
fn an_exhaustion_card_needs_an_enemy_brigade_neither_exhausted_nor_broken() {
    // B123; 11.3 on 29-30: no effect on an exhausted brigade.
    let mut g = cards();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 5);
    assert_eq!(refused(&mut g, "PLAY 5 ON blue"), "B123", "friendly");
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].exhausted = true;
    g.now.brigades[gray.index()].reserve = 4;
    assert_eq!(refused(&mut g, "PLAY 5 ON gray"), "B123", "exhausted");
    g.now.brigades[gray.index()].exhausted = false;
    g.now.brigades[gray.index()].reserve = 0;
    g.now.brigades[gray.index()].broken = true;
    unit_mut(&mut g, "1VA").place = Place::Removed;
    assert_eq!(refused(&mut g, "PLAY 5 ON gray"), "B123", "broken");
    assert_eq!(g.now.hands[USA], vec![5]);
}

// ----- extra-reserve ---------------------------------------------------

/// Blue's track set to this reserve space and these casualties, the horse
/// brigade activating (the Union decides).
fn blue_track(reserve: u8, casualties: u8) -> BrothersAtWar {
    let mut g = cards();
    only(&mut g, &[("1NY", "0302")]);
    let blue = brigade(&g, "blue");
    g.now.brigades[blue.index()].reserve = reserve;
    g.now.brigades[blue.index()].casualties = casualties;
    activating(&mut g, "horse");
    give(&mut g, USA, 6);
    give(&mut g, USA, 18);
    g
}

#[test]
fn a_reserve_card_moves_the_marker_back_towards_start() {
    // Kind extra-reserve; 8.13: one space towards START for each reserve.
    let mut g = blue_track(3, 0);
    let blue = brigade(&g, "blue");
    order(&mut g, "PLAY 6 ON blue").unwrap();
    assert_eq!(g.brigade(blue).reserve, 1, "two recovered");
    assert_eq!(g.now.hands[USA], vec![18]);
    assert_eq!(g.now.discard, vec![6]);
    let mut g = blue_track(3, 0);
    order(&mut g, "PLAY 18 ON blue").unwrap();
    assert_eq!(g.brigade(blue).reserve, 2, "one recovered");
}

#[test]
fn a_reserve_card_stops_at_the_casualties_and_needs_something_to_recover() {
    // 8.13: never onto a space holding a casualty marker, never past
    // START; B123 when nothing can be recovered.
    let mut g = blue_track(2, 1);
    let blue = brigade(&g, "blue");
    order(&mut g, "PLAY 6 ON blue").unwrap();
    assert_eq!(g.brigade(blue).reserve, 1, "only one of the two");
    assert_eq!(g.brigade(blue).casualties, 1);
    let mut g = blue_track(1, 1);
    assert_eq!(
        refused(&mut g, "PLAY 6 ON blue"),
        "B123",
        "next to a casualty"
    );
    let mut g = blue_track(0, 0);
    assert_eq!(refused(&mut g, "PLAY 6 ON blue"), "B123", "on START");
    // Not the enemy's brigade, nor divisional artillery (8.12: no track).
    let mut g = blue_track(0, 0);
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].reserve = 2;
    assert_eq!(refused(&mut g, "PLAY 6 ON gray"), "B123");
    assert_eq!(refused(&mut g, "PLAY 6 ON usart"), "B123");
}

#[test]
fn a_reserve_card_ends_exhaustion_but_the_marker_stays_in_the_box_until_clean_up() {
    // B103: exhaustion ends when the marker leaves EXHAUSTED (space 4);
    // 8.111: the marker in the box stays there until clean up.
    let mut g = blue_track(4, 0);
    let blue = brigade(&g, "blue");
    g.now.brigades[blue.index()].exhausted = true;
    g.now.exhausted_box = vec![blue];
    order(&mut g, "PLAY 6 ON blue").unwrap();
    assert_eq!(g.brigade(blue).reserve, 2);
    assert!(!g.brigade(blue).exhausted);
    assert_eq!(g.now.exhausted_box, vec![blue]);
}

#[test]
fn an_any_time_card_plays_at_the_move_commander_step_too() {
    // B124 `any`: the Union decides at its Move Commander step (3.23).
    let mut g = cards();
    only(&mut g, &[("1NY", "0302")]);
    let blue = brigade(&g, "blue");
    g.now.brigades[blue.index()].reserve = 2;
    activating(&mut g, "blue");
    give(&mut g, USA, 18);
    order(&mut g, "END").unwrap();
    assert_eq!(g.now.step, Step::Commander(blue));
    order(&mut g, "PLAY 18 ON blue").unwrap();
    assert_eq!(g.brigade(blue).reserve, 1);
    assert_eq!(g.now.step, Step::Commander(blue));
    order(&mut g, "COMMANDER STAY").unwrap();
}

// ----- commander-off-map -----------------------------------------------

#[test]
fn an_enemy_commander_sent_off_comes_back_at_the_next_reinforcement_step() {
    // Kind commander-off-map (11.3 on 46): Col. Oak leaves the map; he is
    // on the turn track for turn 2, so he returns at the reinforcement
    // step once the turn marker reaches 2 (2.34, 2.35). B47: the nearest
    // legal hex holding a unit of his brigade: 1VA's 0505, the only one.
    let mut g = cards();
    only(&mut g, &[("1NY", "0202"), ("1VA", "0505")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 7);
    let gray = brigade(&g, "gray");
    order(&mut g, "PLAY 7 ON gray").unwrap();
    assert_eq!(g.brigade(gray).commander, None);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![7]);
    quiet(&mut g);
    g.now.step = Step::Advance;
    g.advance(&mut Vec::new());
    assert_eq!(g.now.turn, 2);
    assert_eq!(g.brigade(gray).commander, Some(hex("0505")));
}

#[test]
fn the_commander_card_needs_an_enemy_commander_on_the_map() {
    // B123 (11.3 on 46): an enemy brigade's commander on the map only.
    let mut g = cards();
    only(&mut g, &[("1NY", "0202"), ("1VA", "0505")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 7);
    assert_eq!(refused(&mut g, "PLAY 7 ON blue"), "B123", "his own");
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].commander = None;
    assert_eq!(refused(&mut g, "PLAY 7 ON gray"), "B123", "already off");
    // The South against the Union's divisional artillery (no commander,
    // 4.1) or its own brigade.
    let mut g = cards();
    only(&mut g, &[("BAT", "0202"), ("1VA", "0505")]);
    activating(&mut g, "gray");
    give(&mut g, CSA, 7);
    assert_eq!(refused(&mut g, "PLAY 7 ON usart"), "B123");
    assert_eq!(refused(&mut g, "PLAY 7 ON gray"), "B123");
}

// ----- regroup-check ---------------------------------------------------

/// Blue exhausted (reserve on EXHAUSTED, space 4); 1NY at 0303 sees 1VA
/// 3 hexes off, so the fate check gains nothing (2.33 modifier); horse is
/// activating, so the Union decides.
fn exhausted_blue() -> BrothersAtWar {
    let mut g = cards();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
    let blue = brigade(&g, "blue");
    g.now.brigades[blue.index()].exhausted = true;
    g.now.brigades[blue.index()].reserve = 4;
    activating(&mut g, "horse");
    give(&mut g, USA, 8);
    g
}

#[test]
fn a_regroup_card_ends_exhaustion_on_six_or_more() {
    // Kind regroup-check, bonus 1: 5 + 1 = 6 regroups (2.33c, B51); blue
    // had no marker in the box yet (B35): nothing to remove (11.3 on 47).
    let mut g = exhausted_blue();
    let blue = brigade(&g, "blue");
    order(&mut g, "PLAY 8 ON blue").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    assert_eq!(g.now.discard, vec![8]);
    roll(&mut g, "5");
    assert!(!g.brigade(blue).exhausted);
    assert!(!g.brigade(blue).broken);
    assert!(g.now.exhausted_box.is_empty());
}

#[test]
fn a_regroup_by_card_regains_a_reserve_recovers_and_leaves_the_box() {
    // 2.33c in full: a reserve back (8.132: space 4 to 3), the brigade
    // recovers (3.21, B36: Finished markers go), its marker leaves the box.
    let mut g = exhausted_blue();
    let blue = brigade(&g, "blue");
    g.now.exhausted_box = vec![blue];
    unit_mut(&mut g, "1NY").finished = true;
    order(&mut g, "PLAY 8 ON blue").unwrap();
    roll(&mut g, "5");
    assert!(!g.brigade(blue).exhausted);
    assert_eq!(g.brigade(blue).reserve, 3, "8.132");
    assert!(g.now.exhausted_box.is_empty(), "2.33c");
    assert!(!finished(&g, "1NY"), "2.33c: recovers (3.21)");
}

#[test]
fn a_regroup_card_that_misses_changes_nothing_not_even_a_break() {
    // Only the regroup result counts: 1 + 1 = 2 (a break in a fate check,
    // 2.33a) and 4 + 1 = 5 (exhausted, 2.33b) do nothing.
    for die in [1, 4] {
        let mut g = exhausted_blue();
        let blue = brigade(&g, "blue");
        let before = g.brigade(blue).clone();
        order(&mut g, "PLAY 8 ON blue").unwrap();
        roll(&mut g, &die.to_string());
        assert_eq!(g.brigade(blue), &before, "die {die}");
        assert_eq!(g.hex_of(id(&g, "1NY")), Some(hex("0303")));
        assert!(!disrupted(&g, "1NY"), "no 2.33b move");
        assert!(g.unit_named("REM1").is_none(), "no remnant");
        assert_eq!(g.now.discard, vec![8]);
    }
}

#[test]
fn a_regroup_card_counts_the_fate_check_modifier() {
    // "As a fate check": 2.33's +1 when every unit of the brigade is 7 or
    // more hexes from every enemy unit in sight (B32): 1NY at 0101, 1VA 8
    // hexes off at 0806. 4 + 1 (card) + 1 = 6 regroups.
    let mut g = exhausted_blue();
    only(&mut g, &[("1NY", "0101"), ("1VA", "0806")]);
    let blue = brigade(&g, "blue");
    order(&mut g, "PLAY 8 ON blue").unwrap();
    roll(&mut g, "4");
    assert!(!g.brigade(blue).exhausted);
}

#[test]
fn a_regroup_card_needs_a_friendly_exhausted_brigade() {
    // B123: horse is not exhausted; gray, exhausted, is the enemy's.
    let mut g = exhausted_blue();
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].exhausted = true;
    g.now.brigades[gray.index()].reserve = 4;
    assert_eq!(refused(&mut g, "PLAY 8 ON horse"), "B123");
    assert_eq!(refused(&mut g, "PLAY 8 ON gray"), "B123");
    assert_eq!(g.now.hands[USA], vec![8]);
}

// ----- extra-movement --------------------------------------------------

/// 1NY, formed (4 points), alone at 0103 on open ground; blue activating.
fn marching() -> BrothersAtWar {
    let mut g = cards();
    only(
        &mut g,
        &[("1NY", "0103"), ("1CAV", "0601"), ("1VA", "0806")],
    );
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    give(&mut g, USA, 9);
    g
}

#[test]
fn without_a_card_a_formed_regiment_moves_four_hexes() {
    // B52: at most its rating, 1 a step in the open.
    let mut g = marching();
    order(&mut g, "1NY MOVE 0203 0303 0403 0503").unwrap();
    assert_eq!(refused(&mut g, "1NY MOVE 0603"), "5.2");
}

#[test]
fn a_march_card_played_before_the_unit_acts_adds_its_points() {
    // Kind extra-movement, points 2: 4 + 2 = 6 steps, not 7.
    let mut g = marching();
    order(&mut g, "PLAY 9 ON 1NY").unwrap();
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![9]);
    order(&mut g, "1NY MOVE 0203 0303 0403 0503 0603 0703").unwrap();
    assert_eq!(g.hex_of(id(&g, "1NY")), Some(hex("0703")));
    assert_eq!(refused(&mut g, "1NY MOVE 0803"), "5.2");
}

#[test]
fn a_march_card_may_be_played_on_the_unit_now_moving() {
    // 3 points spent of 4; the card makes the rating 6: 3 more.
    let mut g = marching();
    order(&mut g, "1NY MOVE 0203 0303 0403").unwrap();
    order(&mut g, "PLAY 9 ON 1NY").unwrap();
    order(&mut g, "1NY MOVE 0503 0603 0703").unwrap();
    assert_eq!(refused(&mut g, "1NY MOVE 0803"), "5.2");
}

#[test]
fn a_march_card_is_for_a_unit_of_the_active_brigade_yet_to_finish_acting() {
    // B123: 1CAV is of the horse brigade; 1VA the enemy's; 2NYA has
    // activated and is done (B45).
    let mut g = marching();
    unit_mut(&mut g, "2NYA").place = Place::Map(hex("0105"));
    assert_eq!(refused(&mut g, "PLAY 9 ON 1CAV"), "B123");
    assert_eq!(refused(&mut g, "PLAY 9 ON 1VA"), "B123");
    order(&mut g, "2NYA MOVE 0106").unwrap();
    order(&mut g, "2NYA DONE").unwrap();
    assert_eq!(refused(&mut g, "PLAY 9 ON 2NYA"), "B123");
    assert_eq!(g.now.hands[USA], vec![9]);
}

#[test]
fn an_own_activation_card_waits_for_its_holder_s_activation_step() {
    // B124: not at the Move Commander step; not by the South while it
    // answers a question inside the Union's activation.
    let mut g = marching();
    let blue = brigade(&g, "blue");
    order(&mut g, "END").unwrap();
    assert_eq!(g.now.step, Step::Commander(blue));
    assert_eq!(refused(&mut g, "PLAY 9 ON 1NY"), "B124");

    let mut g = cards();
    only(&mut g, &[("2NYA", "0302"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    give(&mut g, CSA, 9);
    order(&mut g, "OPFIRE gray ASK").unwrap();
    order(&mut g, "2NYA MOVE 0303 0304").unwrap();
    assert_eq!(pending_seat(&g), Seat::South);
    assert_eq!(refused(&mut g, "PLAY 9 ON 1VA"), "B124");
}

// ----- extra-assault-dice ----------------------------------------------

#[test]
fn an_assault_card_adds_its_dice_to_the_attacker_only() {
    // Kind extra-assault-dice, dice 2 (11.3 on 1-2, 7.1): 2NYA, unformed,
    // rolls 3 + 2 dice; 1VA still rolls its 4.
    let mut g = cards();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 10);
    order(&mut g, "PLAY 10 ON 2NYA").unwrap();
    assert_eq!(g.now.discard, vec![10]);
    assert!(dice_waiting(&g).is_none(), "nothing to roll yet");
    order(&mut g, "2NYA MOVE 0305").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(5)));
    roll(&mut g, "1 1 1 1 1");
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
}

#[test]
fn an_assault_card_is_for_a_unit_of_the_active_brigade() {
    // B123: 1CAV (horse) and 1VA (the enemy) are not of blue; B124: not
    // at the Move Commander step.
    let mut g = cards();
    only(
        &mut g,
        &[("2NYA", "0304"), ("1VA", "0305"), ("1CAV", "0601")],
    );
    activating(&mut g, "blue");
    give(&mut g, USA, 10);
    assert_eq!(refused(&mut g, "PLAY 10 ON 1CAV"), "B123");
    assert_eq!(refused(&mut g, "PLAY 10 ON 1VA"), "B123");
    order(&mut g, "END").unwrap();
    assert_eq!(refused(&mut g, "PLAY 10 ON 2NYA"), "B124");
}

/// The card plays the engine lists for the decider now (B123, B124).
fn offered(g: &BrothersAtWar, card: u8) -> Vec<String> {
    g.card_candidates()
        .into_iter()
        .filter(|(c, _)| *c == card)
        .map(|(_, on)| on.unwrap_or_default())
        .collect()
}

#[test]
fn an_assault_card_is_neither_offered_nor_taken_on_a_unit_that_may_not_assault() {
    // 7.1: artillery and skirmishers may not assault; 6.531: nor a
    // Disrupted unit. B123: card 10 (extra-assault-dice) is refused on
    // them and never offered on them; it is on a unit that may assault.
    let mut g = cards();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0306")]);
    activating(&mut g, "usart");
    give(&mut g, USA, 10);
    assert_eq!(refused(&mut g, "PLAY 10 ON BAT"), "B123", "artillery");
    assert!(offered(&g, 10).is_empty(), "{:?}", offered(&g, 10));
    assert!(!g
        .legal()
        .iter()
        .any(|o| o.to_string().starts_with("PLAY 10")));

    let mut g = cards();
    only(
        &mut g,
        &[
            ("2NYA", "0302"),
            ("1NY", "0102"),
            ("BSK", "0104"),
            ("1VA", "0306"),
        ],
    );
    unit_mut(&mut g, "1NY").disrupted = true;
    unit_mut(&mut g, "1NY").face = Face::Back;
    activating(&mut g, "blue");
    give(&mut g, USA, 10);
    assert_eq!(refused(&mut g, "PLAY 10 ON BSK"), "B123", "a skirmisher");
    assert_eq!(refused(&mut g, "PLAY 10 ON 1NY"), "B123", "Disrupted");
    assert_eq!(offered(&g, 10), vec!["2NYA".to_string()]);
    order(&mut g, "PLAY 10 ON 2NYA").unwrap();
}

#[test]
fn a_march_card_is_not_for_a_battery_that_may_not_limber_to_move() {
    // 5.42, 5.222, 6.531: deployed artillery moves only once limbered, and
    // limbers only as its first action and not Disrupted. BAT deployed
    // and fresh may still limber: card 9 (extra-movement) is offered and
    // taken; Disrupted, it may not: refused and not offered (B123).
    let mut g = cards();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0806")]);
    activating(&mut g, "usart");
    give(&mut g, USA, 9);
    assert_eq!(offered(&g, 9), vec!["BAT".to_string()]);
    let mut h = g.clone();
    order(&mut h, "PLAY 9 ON BAT").unwrap();
    unit_mut(&mut g, "BAT").disrupted = true;
    assert_eq!(refused(&mut g, "PLAY 9 ON BAT"), "B123");
    assert!(offered(&g, 9).is_empty());
}

// ----- ready-commander-brigade -----------------------------------------

#[test]
fn the_posts_card_readies_the_brigade_within_reach_of_its_commander_but_not_the_disrupted() {
    // Kind ready-commander-brigade, reach 2 (11.3 on 19-20): Col. Ash at
    // 0201; 1NY at 0202 (1 hex) is readied; 2NYB at 0203 (2 hexes) is
    // Disrupted and unaffected; 2NYA at 0204 (3 hexes) is out of reach;
    // 1CAV at 0102 (2 hexes) is of another brigade. Played though the
    // commander then stays.
    let mut g = cards();
    only(
        &mut g,
        &[
            ("1NY", "0202"),
            ("2NYB", "0203"),
            ("2NYA", "0204"),
            ("1CAV", "0102"),
        ],
    );
    for u in ["1NY", "2NYA", "1CAV"] {
        unit_mut(&mut g, u).finished = true;
    }
    unit_mut(&mut g, "2NYB").disrupted = true;
    activating(&mut g, "blue");
    give(&mut g, USA, 11);
    let blue = brigade(&g, "blue");
    order(&mut g, "END").unwrap();
    assert_eq!(g.now.step, Step::Commander(blue));
    order(&mut g, "PLAY 11").unwrap();
    assert!(!finished(&g, "1NY"));
    assert!(disrupted(&g, "2NYB") && !finished(&g, "2NYB"));
    assert!(finished(&g, "2NYA"), "3 hexes away");
    assert!(finished(&g, "1CAV"), "horse brigade");
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![11]);
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::MoveCommander));
    order(&mut g, "COMMANDER STAY").unwrap();
    assert_eq!(g.brigade(blue).commander, Some(hex("0201")));
}

#[test]
fn the_posts_card_needs_the_move_commander_step_and_a_commander_on_the_map() {
    // B124: not while the units activate; B123: not for a brigade whose
    // commander is off the map.
    let mut g = cards();
    only(&mut g, &[("1NY", "0202")]);
    unit_mut(&mut g, "1NY").finished = true;
    activating(&mut g, "blue");
    give(&mut g, USA, 11);
    assert_eq!(refused(&mut g, "PLAY 11"), "B124");
    order(&mut g, "END").unwrap();
    let blue = brigade(&g, "blue");
    g.now.brigades[blue.index()].commander = None;
    assert_eq!(refused(&mut g, "PLAY 11"), "B123");
    assert!(finished(&g, "1NY"));
}

// ----- extra-fire-dice-with-risk ---------------------------------------

#[test]
fn a_double_charge_rolls_its_dice_last_and_a_one_among_them_hits_the_gun() {
    // Kind extra-fire-dice-with-risk (11.3 on 11-12): BAT, deployed, 2
    // hexes from 1VA fires 3 + 1 (close, 6.16) = 4 dice, and 2 more: 6 in
    // all. Dice 5 1 1 1 | 6 1: 2 successes at 5+; no saves against
    // artillery for the hex between, 1VA formed in the open (B77): 2 hits,
    // unformed then Disrupted (B80). The extra 1 is a hit on BAT that
    // nothing saves: it becomes Disrupted.
    let mut g = cards();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0306")]);
    activating(&mut g, "usart");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    give(&mut g, USA, 12);
    order(&mut g, "PLAY 12 ON BAT").unwrap();
    assert_eq!(g.now.discard, vec![12]);
    order(&mut g, "BAT FIRE 0306").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(6)));
    roll(&mut g, "5 1 1 1 6 1");
    settle(&mut g);
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(v.disrupted);
    assert!(disrupted(&g, "BAT"), "the risk hit");
    assert_eq!(g.hex_of(id(&g, "BAT")), Some(hex("0304")));
}

#[test]
fn risk_hits_are_cancelled_by_no_reserve() {
    // Card 13: any unit, risk on 1 or 2. 2NYA, unformed, fires 3 + 2 dice:
    // 1 1 1 | 2 1 scores nothing and gives 2NYA two hits: the first
    // disrupts it, the second kills it (B80) and no reserve may cancel it
    // (11.3 on 11-12); it is a casualty (8.2).
    let mut g = cards();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    give(&mut g, USA, 13);
    let blue = brigade(&g, "blue");
    order(&mut g, "PLAY 13 ON 2NYA").unwrap();
    order(&mut g, "2NYA FIRE 0306").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(5)));
    roll(&mut g, "1 1 1 2 1");
    settle(&mut g);
    assert_eq!(g.unit(id(&g, "2NYA")).place, Place::Eliminated);
    assert_eq!(g.brigade(blue).casualties, 1);
    let v = g.unit(id(&g, "1VA"));
    assert!(!v.disrupted && v.face == Face::Front, "no hit on 1VA");
}

#[test]
fn a_fire_card_is_not_for_limbered_artillery() {
    // 5.42, B56: limbered artillery does not fire. Card 13 (any unit):
    // refused on BAT limbered and not offered on it (B123); offered on BAT
    // deployed.
    let mut g = cards();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0306")]);
    unit_mut(&mut g, "BAT").face = Face::Back;
    activating(&mut g, "usart");
    give(&mut g, USA, 13);
    assert_eq!(refused(&mut g, "PLAY 13 ON BAT"), "B123");
    assert!(offered(&g, 13).is_empty());
    unit_mut(&mut g, "BAT").face = Face::Front;
    assert_eq!(offered(&g, 13), vec!["BAT".to_string()]);
}

#[test]
fn the_fire_card_event_names_its_risk_dice_the_last_of_the_roll() {
    // B1, B125: card 12's 2 dice are the last two of BAT's 6 (as in the
    // test above): 5 1 1 1 | 6 1. The event after the roll says which
    // dice are the card's, and what they did; with 6 6 the card's dice
    // hurt nobody, and the event says so too.
    let mut g = cards();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0306")]);
    activating(&mut g, "usart");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    give(&mut g, USA, 12);
    let mut h = g.clone();
    order(&mut g, "PLAY 12 ON BAT").unwrap();
    order(&mut g, "BAT FIRE 0306").unwrap();
    let e = roll(&mut g, "5 1 1 1 6 1");
    let said: Vec<String> = e.iter().map(ToString::to_string).collect();
    assert!(
        said.contains(
            &"card 12: the last 2 dice, [6, 1], are the card's risk dice: 1 shows a 1, \
              BAT takes 1 hit that no save or reserve cancels (B125)"
                .to_string()
        ),
        "{said:?}"
    );
    order(&mut h, "PLAY 12 ON BAT").unwrap();
    order(&mut h, "BAT FIRE 0306").unwrap();
    let e = roll(&mut h, "5 1 1 1 6 6");
    let said: Vec<String> = e.iter().map(ToString::to_string).collect();
    assert!(
        said.contains(
            &"card 12: the last 2 dice, [6, 6], are the card's risk dice: none shows a 1, \
              no hit on BAT (B125)"
                .to_string()
        ),
        "{said:?}"
    );
}

#[test]
fn an_artillery_only_fire_card_is_refused_for_infantry() {
    // B123: unit = artillery; 1NY is infantry (11.12: "Double-Shotted when
    // the player has no artillery").
    let mut g = cards();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 12);
    assert_eq!(refused(&mut g, "PLAY 12 ON 1NY"), "B123");
    assert_eq!(g.now.hands[USA], vec![12]);
}

// ----- reshuffle-on-draw -----------------------------------------------

#[test]
fn the_reshuffle_card_drawn_on_a_pass_returns_the_discards_and_draws_again() {
    // B129, 11.3 on 45: drawn by the pass (3.221), the card acts at once:
    // the discards 5 and 6 go back to the deck, the Union draws again from
    // 17 cards (all but 14), then 14 goes onto the discard pile and is
    // never held.
    let mut g = cards();
    only(&mut g, &[("1NY", "0302")]);
    activating(&mut g, "blue");
    discarded(&mut g, 5);
    discarded(&mut g, 6);
    let blue = brigade(&g, "blue");
    order(&mut g, "PASS").unwrap();
    let c = g.chance().expect("the pass draws");
    assert_eq!(c.private_to, Some(Seat::North));
    assert_eq!(c.outcomes, CARDS - 2);
    order(&mut g, "CARD 14").unwrap();
    assert!(!g.now.hands[USA].contains(&14));
    let c = g.chance().expect("one more card");
    assert_eq!(c.private_to, Some(Seat::North));
    assert_eq!(c.outcomes, CARDS - 1);
    assert!(g.now.deck.contains(&5) && g.now.deck.contains(&6));
    assert!(!g.now.deck.contains(&14));
    order(&mut g, "CARD 5").unwrap();
    assert_eq!(g.now.hands[USA], vec![5]);
    assert_eq!(g.now.discard, vec![14]);
    assert!(!g.now.deck.contains(&14) && !g.now.deck.contains(&5));
    assert_eq!(
        g.now.step,
        Step::Commander(blue),
        "B46: one card, no discard"
    );
}

#[test]
fn the_reshuffle_card_drawn_in_the_deal_is_replaced_by_one_more_draw() {
    // B129 (at the start, in a draw of several), B3: the Union draws its
    // hand of 2 first; 14 goes to the discard pile and the Union draws one
    // more, so it draws three times before the South's turn.
    let mut g = cards();
    assert_eq!(g.chance().unwrap().private_to, Some(Seat::North));
    assert_eq!(g.chance().unwrap().outcomes, CARDS);
    order(&mut g, "CARD 14").unwrap();
    let c = g.chance().unwrap();
    assert_eq!(c.private_to, Some(Seat::North));
    assert_eq!(c.outcomes, CARDS - 1);
    order(&mut g, "CARD 1").unwrap();
    assert_eq!(g.chance().unwrap().private_to, Some(Seat::North));
    order(&mut g, "CARD 2").unwrap();
    assert_eq!(g.chance().unwrap().private_to, Some(Seat::South));
    assert_eq!(g.now.hands[USA], vec![1, 2]);
    assert_eq!(g.now.discard, vec![14]);
    assert!(g.now.hands[CSA].is_empty());
}

// ----- free-formation-change (a deck of its own) ------------------------
//
// The deck above is counted by its own tests (CARDS, the reshuffle
// draws), so the `formation` cards come in a second deck, registered
// under an id of its own, on the same open, level ground. Cards 1 and 2
// make the unit's next change of formation free (`cancel-overstack`
// absent, then written `false`); card 3 (`cancel-overstack = true`) keeps
// the unit's overstacking from disrupting anybody for the rest of the
// activation (B125 table, 11.3 on 13-14, B137: a line of the holder's,
// played before the unit's FORM or its move).

use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::state::CardEffect;

const FORMATION_DECK: &str = r#"
[[card]]
numbers = [1]
name = "Quick step (test)"
timing = "formation"
effect = "free-formation-change"
text = "Ours: a unit of yours changes formation at no cost."

[[card]]
numbers = [2]
name = "Dress the ranks (test)"
timing = "formation"
effect = "free-formation-change"
params = { cancel-overstack = false }
text = "Ours: a unit of yours changes formation at no cost."

[[card]]
numbers = [3]
name = "Make way (test)"
timing = "formation"
effect = "free-formation-change"
params = { cancel-overstack = true }
text = "Ours: the units your unit crowds are not disrupted."
"#;

/// A new game of the test battle with the formation deck, on open, level
/// ground.
fn formation_cards() -> BrothersAtWar {
    open_field_with_deck(FORMATION_DECK, "test-cards-formation", false)
}

/// 1NY (formed) and 2NYA (unformed), both of blue and Undisrupted, share
/// 0204: two units, not one regiment (5.35). 1CAV (horse, mounted: 8
/// points) waits next to them at 0104; horse activating, so the Union
/// decides.
fn crowded_hex() -> BrothersAtWar {
    let mut g = formation_cards();
    only(
        &mut g,
        &[("1NY", "0204"), ("2NYA", "0204"), ("1CAV", "0104")],
    );
    activating(&mut g, "horse");
    g
}

#[test]
fn a_formation_card_lets_a_unit_change_formation_and_keep_all_its_points() {
    // B122, B125: the deck passes the check (`formation` is the kind's
    // window, `cancel-overstack` a flag). Kind free-formation-change
    // without cancel-overstack (11.3 on 13-14): the unit's next FORM costs
    // nothing instead of 5.22's 2. 1NY, formed (4), flips to unformed (5)
    // and has 5 - 0 = 5 points left (5.221, B55): five steps, not six.
    // Without a card: 5 - 2 = 3 steps. The card goes face up onto the
    // discard pile (11.2, B134); its effect is used up by the change.
    let problems =
        orderly::games::brothers_at_war::scenario::check(&deck_text(FORMATION_DECK, false));
    assert!(problems.is_empty(), "{problems:#?}");
    let path = ["0203", "0303", "0403", "0503", "0603", "0703"];
    for (card, steps) in [(Some(1u8), 5usize), (Some(2), 5), (None, 3)] {
        let mut g = formation_cards();
        only(&mut g, &[("1NY", "0103")]);
        activating(&mut g, "blue");
        let ny = id(&g, "1NY");
        if let Some(c) = card {
            give(&mut g, USA, c);
            order(&mut g, &format!("PLAY {c} ON 1NY")).unwrap();
            assert!(g.now.hands[USA].is_empty(), "card {c}");
            assert_eq!(g.now.discard, vec![c]);
            assert!(
                g.now.card_effects.contains(&CardEffect::FreeForm(ny)),
                "card {c}"
            );
        }
        order(&mut g, "1NY FORM").unwrap();
        assert_eq!(g.unit(ny).face, Face::Back, "{card:?}");
        assert!(!finished(&g, "1NY"), "{card:?}");
        assert!(
            !g.now.card_effects.contains(&CardEffect::FreeForm(ny)),
            "used up, {card:?}"
        );
        order(&mut g, &format!("1NY MOVE {}", path[..steps].join(" "))).unwrap();
        assert_eq!(g.hex_of(ny), Some(hex(path[steps - 1])), "{card:?}");
        assert_eq!(
            refused(&mut g, &format!("1NY MOVE {}", path[steps])),
            "5.2",
            "{card:?}"
        );
    }
}

#[test]
fn a_formation_card_pays_for_one_change_only() {
    // The effect is used up by the one change (B137: a line before the
    // unit's FORM). 1NY formed (4): FORM free (unformed, 5 - 0 = 5 left),
    // then FORM back at 5.22's 2 (formed, 4 - 2 = 2 left, B55): two
    // steps, the third refused (5.2). Without the card the two changes
    // spend 4 of the formed 4: Finished at once (B55).
    let mut g = formation_cards();
    only(&mut g, &[("1NY", "0103")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    order(&mut g, "PLAY 1 ON 1NY").unwrap();
    order(&mut g, "1NY FORM").unwrap();
    let e = order(&mut g, "1NY FORM").unwrap();
    assert!(!e.iter().any(|e| matches!(e, Event::Ended { .. })));
    assert_eq!(g.unit(id(&g, "1NY")).face, Face::Front);
    assert!(!finished(&g, "1NY"));
    order(&mut g, "1NY MOVE 0203 0303").unwrap();
    assert_eq!(refused(&mut g, "1NY MOVE 0403"), "5.2");

    let mut g = formation_cards();
    only(&mut g, &[("1NY", "0103")]);
    activating(&mut g, "blue");
    order(&mut g, "1NY FORM").unwrap();
    let e = order(&mut g, "1NY FORM").unwrap();
    assert!(e.contains(&Event::Ended {
        units: vec!["1NY".into()],
        finished: true
    }));
    assert!(finished(&g, "1NY"));
}

#[test]
fn a_formation_card_spares_cavalry_the_finished_marker_of_5_221_s_example() {
    // 5.221's second example, B55: mounted 1CAV (8) moves 3 hexes and
    // dismounts (2): 5 spent exceed the dismounted 4, Finished. With the
    // card, played on the unit now moving (it has not finished its
    // activation, B137), the change costs nothing: 3 spent of 4, one step
    // left, the second refused (5.2).
    let mut g = formation_cards();
    only(&mut g, &[("1CAV", "0601")]);
    activating(&mut g, "horse");
    give(&mut g, USA, 1);
    order(&mut g, "1CAV MOVE 0602 0603 0604").unwrap();
    order(&mut g, "PLAY 1 ON 1CAV").unwrap();
    assert_eq!(g.now.discard, vec![1]);
    let e = order(&mut g, "1CAV FORM").unwrap();
    assert!(!e.iter().any(|e| matches!(e, Event::Ended { .. })));
    assert_eq!(g.unit(id(&g, "1CAV")).face, Face::Front);
    assert!(!finished(&g, "1CAV"));
    order(&mut g, "1CAV MOVE 0605").unwrap();
    assert_eq!(refused(&mut g, "1CAV MOVE 0606"), "5.2");

    let mut g = formation_cards();
    only(&mut g, &[("1CAV", "0601")]);
    activating(&mut g, "horse");
    order(&mut g, "1CAV MOVE 0602 0603 0604").unwrap();
    let e = order(&mut g, "1CAV FORM").unwrap();
    assert!(e.contains(&Event::Ended {
        units: vec!["1CAV".into()],
        finished: true
    }));
}

#[test]
fn an_overstack_card_spares_the_units_crowded_for_the_rest_of_the_activation() {
    // 5.31, B59, B81: 1CAV entering 0204 makes three units there, so 1NY
    // and 2NYA would be Disrupted and 1NY unformed. Card 3
    // (cancel-overstack, 11.3 on 13-14, B137) played on 1CAV before its
    // move: nobody is disrupted, on its way through and again on its way
    // back (the effect lasts the activation). It ends with the activation
    // (B135, B137): at horse's next activation the same step disrupts
    // both, as 5.31 says.
    let mut g = crowded_hex();
    give(&mut g, USA, 3);
    let cav = id(&g, "1CAV");
    order(&mut g, "PLAY 3 ON 1CAV").unwrap();
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![3]);
    let mut e = order(&mut g, "1CAV MOVE 0204 0304").unwrap();
    e.extend(order(&mut g, "1CAV MOVE 0204 0104").unwrap());
    for ev in &e {
        assert!(
            !matches!(ev, Event::Disrupted { .. } | Event::Unformed { .. }),
            "{ev:?}"
        );
    }
    assert_eq!(g.hex_of(cav), Some(hex("0104")));
    assert!(!disrupted(&g, "1NY") && !disrupted(&g, "2NYA"));
    assert_eq!(g.unit(id(&g, "1NY")).face, Face::Front);

    // The activation ends (3.22, 3.23); the cup holds gray's markers so
    // that a selection step follows.
    let gray = brigade(&g, "gray");
    g.now.cup = vec![Marker::Brigade(gray, 0), Marker::Brigade(gray, 1)];
    order(&mut g, "END").unwrap();
    order(&mut g, "COMMANDER STAY").unwrap();
    assert!(!g.now.card_effects.contains(&CardEffect::NoOverstack(cav)));
    activating(&mut g, "horse");
    unit_mut(&mut g, "1CAV").finished = false;
    order(&mut g, "1CAV MOVE 0204").unwrap();
    assert!(disrupted(&g, "1NY") && disrupted(&g, "2NYA"));
    assert_eq!(g.unit(id(&g, "1NY")).face, Face::Back, "B81");
}

#[test]
fn each_formation_card_does_only_what_its_parameter_says() {
    // The table's obligation is one or the other: the change costs no
    // points, or the overstacking disruption does not happen. Card 1 (no
    // cancel-overstack) on 1CAV leaves 5.31 as it is: entering 0204
    // disrupts 1NY and 2NYA (B59, B81). Card 3 (cancel-overstack) on 1NY
    // leaves 5.22's cost: FORM spends 2, unformed 5 - 2 = 3 steps (B55).
    let mut g = crowded_hex();
    give(&mut g, USA, 1);
    order(&mut g, "PLAY 1 ON 1CAV").unwrap();
    order(&mut g, "1CAV MOVE 0204 0304").unwrap();
    assert!(disrupted(&g, "1NY") && disrupted(&g, "2NYA"));
    assert_eq!(g.unit(id(&g, "1NY")).face, Face::Back);

    let mut g = formation_cards();
    only(&mut g, &[("1NY", "0103")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 3);
    order(&mut g, "PLAY 3 ON 1NY").unwrap();
    assert_eq!(g.now.discard, vec![3]);
    order(&mut g, "1NY FORM").unwrap();
    order(&mut g, "1NY MOVE 0203 0303 0403").unwrap();
    assert_eq!(refused(&mut g, "1NY MOVE 0503"), "5.2");
}

#[test]
fn a_formation_card_is_for_a_unit_of_the_holder_s_brigade_in_its_activation() {
    // B124 `formation`, B134, B137: the holder's own line while his
    // brigade activates its units. B123: 1CAV is of the horse brigade, 1VA
    // the enemy's, 2NYA has ended its activation (B45). B124: not at the
    // Move Commander step (3.23); not by the South while it answers a
    // question inside the Union's activation (B7, B69). Refusals leave the
    // hand as it was.
    let mut g = formation_cards();
    only(
        &mut g,
        &[
            ("1NY", "0103"),
            ("2NYA", "0105"),
            ("1CAV", "0601"),
            ("1VA", "0806"),
        ],
    );
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    give(&mut g, USA, 1);
    give(&mut g, USA, 3);
    assert_eq!(refused(&mut g, "PLAY 1 ON 1CAV"), "B123", "horse");
    assert_eq!(refused(&mut g, "PLAY 3 ON 1CAV"), "B123", "horse");
    assert_eq!(refused(&mut g, "PLAY 1 ON 1VA"), "B123", "the enemy's");
    order(&mut g, "2NYA MOVE 0106").unwrap();
    order(&mut g, "2NYA DONE").unwrap();
    assert_eq!(refused(&mut g, "PLAY 1 ON 2NYA"), "B123", "done");
    assert_eq!(g.now.hands[USA], vec![1, 3]);
    assert!(g.now.discard.is_empty());
    let blue = brigade(&g, "blue");
    order(&mut g, "END").unwrap();
    assert_eq!(g.now.step, Step::Commander(blue));
    assert_eq!(refused(&mut g, "PLAY 1 ON 1NY"), "B124");
    assert_eq!(refused(&mut g, "PLAY 3 ON 1NY"), "B124");

    let mut g = formation_cards();
    only(&mut g, &[("2NYA", "0302"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    give(&mut g, CSA, 1);
    order(&mut g, "OPFIRE gray ASK").unwrap();
    order(&mut g, "2NYA MOVE 0303 0304").unwrap();
    assert_eq!(pending_seat(&g), Seat::South);
    assert_eq!(refused(&mut g, "PLAY 1 ON 1VA"), "B124");
    assert_eq!(g.now.hands[CSA], vec![1]);
}

#[test]
fn a_formation_card_is_not_for_a_unit_that_may_not_change_formation() {
    // 9.11: an infantry skirmisher has one formation; 6.531: a Disrupted
    // unit only moves. Card 1 (a free change) is refused on BSK and on a
    // Disrupted 1NY, and not offered on them (B123); card 3 (crowding
    // spared) is for a unit that moves, as both may.
    let mut g = formation_cards();
    only(&mut g, &[("1NY", "0103"), ("BSK", "0303"), ("1VA", "0806")]);
    unit_mut(&mut g, "1NY").disrupted = true;
    unit_mut(&mut g, "1NY").face = Face::Back;
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    give(&mut g, USA, 3);
    assert_eq!(refused(&mut g, "PLAY 1 ON BSK"), "B123", "one formation");
    assert_eq!(refused(&mut g, "PLAY 1 ON 1NY"), "B123", "Disrupted");
    assert!(offered(&g, 1).is_empty(), "{:?}", offered(&g, 1));
    assert_eq!(offered(&g, 3), vec!["1NY".to_string(), "BSK".to_string()]);
}

#[test]
fn hostile_card_lines_are_refused_without_harm() {
    // Every number and name from a mail is bounded before use: card
    // numbers past a u8, targets past 24 characters, empty targets.
    let mut g = cards();
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    let before = g.position();
    for line in [
        "PLAY 256",
        "PLAY 99999999999999999999 ON 1NY",
        "PLAY -1",
        "PLAY 1 ON",
        "PLAY 1 ON AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "PLAY 1 ON 1NY 1NY",
    ] {
        assert!(g.parse_order(line).is_err(), "{line}");
    }
    // A well-formed play on nothing the kind takes is a refusal, not a panic.
    assert_eq!(refused(&mut g, "PLAY 1 ON 9999"), "B123");
    assert_eq!(g.position(), before);
}
