#[path = "../common/mod.rs"]
mod common;

// Battle cards that answer the enemy's moments (B124 windows `targeted`,
// `after-hits`, `enemy-activation`, `exhausts`), played by the standing
// instruction `CARDS brigade|USA|CSA AUTO|NEVER` (B137, B5, B6). Every
// expected result is worked out by hand from the rulebook (6.x, 8.1x, 2.33,
// 3.2x, 11.x) and the rulings, never from the engine.
//
// The ground: the test battle's order of battle on its 8 x 6 map made open
// and level everywhere, with no roads, trails, fords or fences, so that
// every step costs 1 and every line of sight is open unless a unit stands
// in it. The Union rallies at 0101, the Confederacy at 0806. Commanders
// stand where the test battle puts them: Col. Ash (blue) at 0201, Col. Oak
// (gray) at 0506. Reserve tracks: blue and gray 4 spaces to EXHAUSTED,
// breaking at 2 casualties. The activation track's spaces are all made
// blank but the last (no card draw, no countdown symbol) so that markers
// can be drawn one after another without a track symbol getting in the way
// (3.14).
//
// Distances (B15) used below, counted by hand: 0302-0305 3, 0304-0306 2,
// 0303-0306 3, 0303-0305 2, 0305-0506 2, 0306-0506 2, 0606-0506 1,
// 0606-0302 5, 0201-0302 2, 0201-0303 3, 0101-0806 8, 0206-0806 6.
//
// The deck is ours (cards 1-10, below). Cards are put into hands directly:
// `hands[0]` the Union's, `hands[1]` the Confederacy's, each taken out of
// the deck, so that deck, hands and discard pile stay one set of cards.
//
// Under `CARDS ... AUTO` (B137) the lowest-numbered card of the hand whose
// deck entry names the window that opens is played at once, face up: it
// leaves the hand for the discard pile (11.2, B134) and `Event::CardPlayed`
// names it. Hands are kept in the order the cards were given, so a test
// giving 9, 2, 1 expects 9, 2 left after card 1 is played.

use common::brothers_at_war_decks::{
    brigade, deck_text, dice_waiting, disrupted, finished, give, open_field_with_deck, roll,
    settle, CSA, USA,
};
use common::brothersatwar::{activating, hex, id, only, order, quiet, refused, unit_mut};
use orderly::games::brothers_at_war::core::combat::{CardsRule, Scope, Setting};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, CardEffect, Place, Step};
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::{Face, Side};
use orderly::games::{CitesRule, Game, Seat};

/// Our test deck: the kinds B137 carries out, with the parameters the tests
/// below count on, and three cards of other windows that must never be
/// played by an instruction.
const DECK: &str = r#"
[[card]]
numbers = [1, 2]
name = "Hold your fire (test)"
timing = "targeted"
effect = "cancel-fire"
text = "Ours: an enemy fire at a unit of yours has no effect."

[[card]]
numbers = [3]
name = "Dead ground (test)"
timing = "after-hits"
effect = "extra-saves-after-hits"
params = { saves = 2 }
text = "Ours: your unit hit by enemy fire rolls two saves more."

[[card]]
numbers = [4]
name = "Low ground (test)"
timing = "after-hits"
effect = "extra-saves-after-hits"
params = { saves = 1 }
text = "Ours: your unit hit by enemy fire rolls one save more."

[[card]]
numbers = [5]
name = "The slows (test)"
timing = "enemy-activation"
effect = "cancel-activation"
text = "Ours: the enemy activation just drawn is lost."

[[card]]
numbers = [6]
name = "Out of cartridges (test)"
timing = "enemy-activation"
effect = "no-fire"
text = "Ours: the enemy brigade just drawn may not fire in this activation."

[[card]]
numbers = [7]
name = "Second wind (test)"
timing = "any"
effect = "regroup-check"
params = { bonus = 2 }
text = "Ours: an exhausted brigade of yours may regroup, +2."

[[card]]
numbers = [8]
name = "Great deeds (test)"
timing = "exhausts"
effect = "regroup-check"
params = { bonus = 1 }
text = "Ours: when a brigade of yours exhausts, it may regroup at once, +1."

[[card]]
numbers = [9]
name = "Stand fast (test)"
timing = "any"
effect = "remove-finished"
text = "Ours: a hex of yours loses its Finished marker."

[[card]]
numbers = [10]
name = "Letters home (test)"
timing = "none"
effect = "no-effect"
text = "Ours: no effect."
"#;

/// How many card numbers the deck holds.
const CARDS: usize = 10;

/// A new game of the test battle with our deck, on open, level ground.
fn field() -> BrothersAtWar {
    open_field_with_deck(DECK, "test-card-reactions", true)
}

/// A brigade's activation marker: its first is 0, its second 1 (3.1).
fn marker(g: &BrothersAtWar, name: &str, n: u8) -> Marker {
    Marker::Brigade(brigade(g, name), n)
}

fn draw(g: &mut BrothersAtWar, place: u16) -> Vec<Event> {
    order(g, &format!("DRAW {place}")).unwrap_or_else(|e| panic!("DRAW {place}: {e}"))
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

/// The unit stands unharmed: formed (its front) and Undisrupted.
fn unharmed(g: &BrothersAtWar, name: &str) -> bool {
    let u = g.unit(id(g, name));
    u.face == Face::Front && !u.disrupted
}

/// 1NY (blue, formed, firepower 4) at 0304 and 1VA (gray, formed) at 0306,
/// two hexes apart in the open; blue activating, so the Union decides; gray
/// never retreats for a save (6.7, B5), so its saves are exactly 6.6's.
fn volley() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    g
}

/// The selection step (2.21) with these markers in the cup (kept sorted,
/// by brigade id then marker number, B1) and an empty track: the next
/// marker goes on START.
fn at_selection(g: &mut BrothersAtWar, cup: Vec<Marker>) {
    quiet(g);
    let mut cup = cup;
    cup.sort();
    g.now.cup = cup;
    g.now.track = Vec::new();
    g.now.step = Step::Select;
}

// ----- the deck itself -----------------------------------------------

#[test]
fn the_reaction_deck_passes_the_scenario_check() {
    // B122, B125 and the table "Card effect kinds": cancel-fire in
    // `targeted`, extra-saves-after-hits in `after-hits` (saves 1-3),
    // cancel-activation and no-fire in `enemy-activation`, regroup-check in
    // `exhausts` or `any` (bonus 0-2).
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

// ----- who plays them, and how ---------------------------------------

#[test]
fn a_line_may_not_play_a_card_of_the_enemy_s_moments() {
    // B137, B124, B134: cards of the windows `targeted`, `after-hits`,
    // `enemy-activation` and `exhausts` are played by the CARDS instruction
    // only; a PLAY line naming one is refused for its window (B124), even
    // by the side deciding, the South in its own activation here. Gray is
    // exhausted (reserve on EXHAUSTED, space 4) so that only the window,
    // not the target, can fail for the regroup cards.
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].exhausted = true;
    g.now.brigades[gray.index()].reserve = 4;
    activating(&mut g, "gray");
    for card in [1, 3, 5, 6, 8, 7] {
        give(&mut g, CSA, card);
    }
    for text in [
        "PLAY 1",
        "PLAY 1 ON 1VA",
        "PLAY 3 ON 1VA",
        "PLAY 5",
        "PLAY 6",
        "PLAY 8 ON gray",
    ] {
        assert_eq!(refused(&mut g, text), "B124", "{text}");
    }
    assert_eq!(g.now.hands[CSA], vec![1, 3, 5, 6, 8, 7]);
    assert!(g.now.discard.is_empty());
    // The same kind in the `any` window is a line's card (B124 `any`,
    // B134): card 7 plays, its die waits (2.33, B51).
    order(&mut g, "PLAY 7 ON gray").unwrap();
    assert_eq!(g.now.hands[CSA], vec![1, 3, 5, 6, 8]);
    assert_eq!(g.now.discard, vec![7]);
    assert_eq!(dice_waiting(&g), Some(6));

    // The Union, deciding in its own activation, may not play its
    // enemy-activation cards by a line either.
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 5);
    give(&mut g, USA, 6);
    for text in ["PLAY 5", "PLAY 6", "PLAY 6 ON gray"] {
        assert_eq!(refused(&mut g, text), "B124", "{text}");
    }
    assert_eq!(g.now.hands[USA], vec![5, 6]);
}

#[test]
fn a_player_sets_the_cards_instruction_for_his_own_brigades_only() {
    // B5: while the Union decides, a CARDS order for gray applied as the
    // decider's is the Union's, and refused; the state is unchanged. Sent
    // by its owner it is heard, whoever decides (B5, B8), and it then acts.
    let mut g = volley();
    give(&mut g, CSA, 1);
    let gray = brigade(&g, "gray");
    let o = g.parse_order("CARDS gray AUTO").unwrap();
    let before = g.position();
    let r = g.apply(&o).expect_err("not the Union's brigade");
    assert_eq!(r.rule().0, "B5");
    assert_eq!(g.position(), before, "a refusal leaves the state unchanged");
    let auto = Setting::Cards(CardsRule::Auto);
    assert!(!g
        .now
        .instructions
        .given
        .contains(&(Scope::Brigade(gray), auto)));
    g.apply_standing(Side::Confederacy, &o).unwrap();
    assert!(g
        .now
        .instructions
        .given
        .contains(&(Scope::Brigade(gray), auto)));
    assert_eq!(
        g.now.instructions.get(
            Side::Confederacy,
            Some(gray),
            Setting::Cards(CardsRule::Never)
        ),
        auto
    );
    assert_eq!(g.decider(), Some(Side::Union), "the Union still decides");
    // Now gray's card answers the Union's fire (B137 `targeted`).
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
}

#[test]
fn a_brigade_s_own_cards_instruction_beats_its_side_s_and_the_latest_counts() {
    // B137: default NEVER, the card stays in the hand and the fire rolls
    // its 4 dice (6.0); B6: a brigade's own instruction beats its side's,
    // which beats the default; B8: a later instruction replaces an earlier
    // one. The `targeted` window is looked up for the brigade of the unit
    // targeted: gray (1VA).
    let cases: Vec<(Vec<&str>, bool)> = vec![
        (vec![], false),
        (vec!["CARDS CSA AUTO"], true),
        (vec!["CARDS gray AUTO"], true),
        (vec!["CARDS CSA AUTO", "CARDS gray NEVER"], false),
        (vec!["CARDS CSA NEVER", "CARDS gray AUTO"], true),
        (vec!["CARDS gray AUTO", "CARDS gray NEVER"], false),
        (vec!["CARDS reserve AUTO"], false),
    ];
    for (given, plays) in cases {
        let mut g = volley();
        for text in &given {
            order(&mut g, text).unwrap();
        }
        give(&mut g, CSA, 1);
        let e = order(&mut g, "1NY FIRE 0306").unwrap();
        if plays {
            assert_eq!(played(&e), vec![(Side::Confederacy, 1)], "{given:?}");
            assert!(g.now.hands[CSA].is_empty(), "{given:?}");
            assert_eq!(g.now.discard, vec![1], "{given:?}");
            assert_eq!(dice_waiting(&g), None, "{given:?}");
        } else {
            assert!(played(&e).is_empty(), "{given:?}");
            assert_eq!(g.now.hands[CSA], vec![1], "{given:?}");
            assert!(g.now.discard.is_empty(), "{given:?}");
            assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{given:?}");
        }
        assert!(finished(&g, "1NY"), "6.11, {given:?}");
    }
}

// ----- cancel-fire (`targeted`) --------------------------------------

#[test]
fn a_cancel_fire_card_answers_a_standing_fire_before_its_dice() {
    // B137, B11 (the defender's `targeted` cards come after the
    // declaration and before the attack dice), kind cancel-fire: 1NY's
    // standing fire at 1VA is resolved with no effect: no dice, no hit, no
    // save; 1NY is Finished as if it had fired (6.11). The lowest-numbered
    // `targeted` card of the hand is played: 1, not 2; 9 (`any`) is never
    // played by the instruction. One card for the one fire. 2NYA, far off
    // at 0101, has yet to act: the Union's activation goes on.
    let mut g = volley();
    unit_mut(&mut g, "2NYA").place = Place::Map(hex("0101"));
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 9);
    give(&mut g, CSA, 2);
    give(&mut g, CSA, 1);
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(g.now.hands[CSA], vec![9, 2]);
    assert_eq!(g.now.discard, vec![1]);
    assert!(!g.now.deck.contains(&1));
    assert_eq!(dice_waiting(&g), None, "no attack dice");
    assert!(g.now.fire.is_none(), "no attack under way");
    assert!(finished(&g, "1NY"), "6.11");
    assert!(unharmed(&g, "1VA"));
    assert!(!finished(&g, "1VA"));
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0306")));
    // The Union goes on with its activation; 1NY is done (5.1, B45).
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
    assert_eq!(refused(&mut g, "1NY MOVE 0303"), "1.51");
}

#[test]
fn the_cancelled_firer_has_paid_for_its_fire_as_if_it_had_fired() {
    // 1NY, formed (4 points, 5.41), steps 0303-0304 (1 point, B52) and
    // fires at 1VA: moving fire, 2 points more (6.11, B64): 3 spent. The
    // fire is cancelled (B137: the firer is Finished and has paid as if it
    // had fired). The Union's Stand fast (`any`, B134) then readies it: the
    // unit whose activation ended last goes on with the points it had left
    // (B136): 1, too few to fire again (5.2), enough for one step.
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 1);
    give(&mut g, USA, 9);
    order(&mut g, "1NY MOVE 0304").unwrap();
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(dice_waiting(&g), None);
    assert!(finished(&g, "1NY"));
    assert!(unharmed(&g, "1VA"));
    order(&mut g, "PLAY 9 ON 1NY").unwrap();
    assert!(!finished(&g, "1NY"));
    assert_eq!(g.now.discard, vec![1, 9]);
    assert_eq!(refused(&mut g, "1NY FIRE 0306"), "5.24");
    order(&mut g, "1NY MOVE 0303").unwrap();
    assert_eq!(g.hex_of(id(&g, "1NY")), Some(hex("0303")));
}

#[test]
fn a_cancel_fire_card_answers_opportunity_fire_at_the_mover() {
    // 6.12, B69: 1VA steps 0306-0305, 3 hexes from 1NY (0302) with an open
    // line; by default (OPFIRE ALWAYS, B5) 1NY fires at it. The target is
    // the mover's own unit: gray's CARDS instruction answers (B137,
    // `targeted`, looked up for 1VA's brigade). No dice; 1NY is Finished
    // (6.12); 1VA stands unharmed and goes on moving (6.12).
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
    activating(&mut g, "gray");
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 1);
    let e = order(&mut g, "1VA MOVE 0305").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert!(g.now.hands[CSA].is_empty());
    assert_eq!(g.now.discard, vec![1]);
    assert_eq!(dice_waiting(&g), None);
    assert!(g.now.fire.is_none());
    assert!(finished(&g, "1NY"), "6.12");
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0305")));
    assert!(unharmed(&g, "1VA"));
    assert!(!finished(&g, "1VA"));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::South, Decision::Activate));
    // 1NY has fired: nothing else stops the next step.
    order(&mut g, "1VA MOVE 0304").unwrap();
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0304")));
}

#[test]
fn one_card_answers_each_fire_and_the_next_fire_takes_the_next_card() {
    // B137: one card per window occurrence. 1NY (0302) and 2NYA (0306)
    // each fire at 1VA (0304), 2 hexes off along column 03 with nothing
    // between: each fire opens the window once; card 1 answers the first,
    // card 2 the second; the `any` card 9 stays.
    let mut g = field();
    only(
        &mut g,
        &[("1NY", "0302"), ("2NYA", "0306"), ("1VA", "0304")],
    );
    activating(&mut g, "blue");
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 9);
    give(&mut g, CSA, 2);
    give(&mut g, CSA, 1);
    let e = order(&mut g, "1NY FIRE 0304").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(g.now.hands[CSA], vec![9, 2]);
    assert_eq!(dice_waiting(&g), None);
    let e = order(&mut g, "2NYA FIRE 0304").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert_eq!(g.now.hands[CSA], vec![9]);
    assert_eq!(g.now.discard, vec![1, 2]);
    assert_eq!(dice_waiting(&g), None);
    assert!(finished(&g, "1NY") && finished(&g, "2NYA"), "6.11");
    assert!(unharmed(&g, "1VA"));
}

#[test]
fn a_cancel_fire_card_answers_only_enemy_fire_at_its_holder_s_units() {
    // B137 `targeted`: an enemy fire at a hex holding a unit of the holder.
    // The Union's own fire at gray opens no window for the Union's card:
    // the fire goes on and rolls its 4 dice (6.0).
    let mut g = volley();
    order(&mut g, "CARDS USA AUTO").unwrap();
    give(&mut g, USA, 1);
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[USA], vec![1]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
}

#[test]
fn a_cancelled_fire_scores_no_hits_so_no_after_hits_card_follows() {
    // B11: `targeted` comes before the dice; the fire, cancelled, never
    // scores hits (B126: a cancelled attack takes no later card), so the
    // `after-hits` card 3 stays in the hand.
    let mut g = volley();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 3);
    give(&mut g, CSA, 1);
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(g.now.hands[CSA], vec![3]);
    assert_eq!(g.now.discard, vec![1]);
    assert_eq!(dice_waiting(&g), None);
    assert!(unharmed(&g, "1VA"));
}

// ----- extra-saves-after-hits (`after-hits`) -------------------------

#[test]
fn an_extra_saves_card_adds_its_saves_after_the_hits_and_before_the_saves() {
    // B11: the defender's `after-hits` cards come after the attack dice and
    // before the saves. 1NY's 4 dice roll 6 1 1 1: one success (6.0). 1VA,
    // formed in the open 2 hexes off, has 1 save for the hex between (6.6
    // item 2, B77, B78) and none else (no retreat: RETREAT NEVER). The
    // lowest-numbered `after-hits` card is 3 (saves 2), not 4: 1 + 2 = 3
    // save dice. Saves 5 1 1: the hit is saved (B68), 1VA unharmed; saves
    // 1 1 1: one hit, a formed unit unforms (6.52, B80), not Disrupted.
    for (saves, hit) in [("5 1 1", false), ("1 1 1", true)] {
        let mut g = volley();
        order(&mut g, "CARDS gray AUTO").unwrap();
        give(&mut g, CSA, 4);
        give(&mut g, CSA, 3);
        let e = order(&mut g, "1NY FIRE 0306").unwrap();
        assert!(played(&e).is_empty(), "no `targeted` card in the hand");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
        assert_eq!(g.now.hands[CSA], vec![4, 3], "not before the dice");
        let e = roll(&mut g, "6 1 1 1");
        assert_eq!(played(&e), vec![(Side::Confederacy, 3)]);
        assert_eq!(g.now.hands[CSA], vec![4]);
        assert_eq!(g.now.discard, vec![3]);
        assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "1 + 2 saves");
        roll(&mut g, saves);
        assert_eq!(dice_waiting(&g), None);
        let v = g.unit(id(&g, "1VA"));
        assert_eq!(
            v.face,
            if hit { Face::Back } else { Face::Front },
            "{saves}"
        );
        assert!(!v.disrupted, "{saves}");
        assert_eq!(g.now.hands[CSA], vec![4], "one card for the one attack");
    }
}

#[test]
fn an_extra_saves_card_waits_when_the_attack_scores_nothing() {
    // B137 `after-hits`: only when the enemy fire has scored at least one
    // success on the unit (B68: read from the successes before saves).
    // 1 1 1 1 scores none: the cards stay in the hand.
    let mut g = volley();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 4);
    give(&mut g, CSA, 3);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "1 1 1 1");
    assert!(played(&e).is_empty());
    assert_ne!(dice_waiting(&g), Some(6u32.pow(3)), "no card saves");
    assert_ne!(dice_waiting(&g), Some(6u32.pow(2)), "no card saves");
    settle(&mut g);
    assert_eq!(g.now.hands[CSA], vec![4, 3]);
    assert!(g.now.discard.is_empty());
    assert!(unharmed(&g, "1VA"));
}

#[test]
fn an_extra_saves_card_works_against_skirmisher_fire() {
    // B127, 11.3 on 17-18: card saves count against skirmisher fire,
    // though 6.132 and B74 give 1NY no other save here: GSK (a
    // sharpshooter, 6.134) fires 1 die from 0306 at 1NY 4 hexes off at
    // 0302. 6: one success; the Union's card 3 (blue's instruction, the
    // brigade of the unit hit) gives 0 + 2 save dice; 5 1 saves the hit and
    // 1NY stays formed (without the card it would unform, as in the fire
    // tests).
    let mut g = field();
    only(&mut g, &[("1NY", "0302")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0306"));
    activating(&mut g, "gray");
    order(&mut g, "RETREAT blue NEVER").unwrap();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 3);
    order(&mut g, "GSK FIRE 0302").unwrap();
    assert_eq!(dice_waiting(&g), Some(6));
    let e = roll(&mut g, "6");
    assert_eq!(played(&e), vec![(Side::Union, 3)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![3]);
    assert_eq!(
        dice_waiting(&g),
        Some(6u32.pow(2)),
        "the card's 2 saves only"
    );
    roll(&mut g, "5 1");
    assert_eq!(dice_waiting(&g), None);
    assert!(unharmed(&g, "1NY"));
}

// ----- cancel-activation and no-fire (`enemy-activation`) ------------

/// The Union's 1NY at 0302; gray's 1VA Finished at 0306 and 2VA
/// (Disrupted by the test battle) at 0606, next to Col. Oak (0506) and 5
/// hexes from 1NY, so that a recovery would ready 1VA and make 2VA roll a
/// rally check (3.21, 3.211, 3.212), and no command check (4.2: both within
/// 4 of Oak). 2VA also carries an out of command marker, removed only at a
/// Move Commander step (3.23, 1.53). The cup holds blue's first marker and
/// both of gray's; the track is empty.
fn gray_drawn_next() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0306"), ("2VA", "0606")]);
    unit_mut(&mut g, "1VA").finished = true;
    unit_mut(&mut g, "2VA").out_of_command = true;
    let cup = vec![
        marker(&g, "blue", 0),
        marker(&g, "gray", 0),
        marker(&g, "gray", 1),
    ];
    at_selection(&mut g, cup);
    g
}

#[test]
fn a_cancel_activation_card_loses_the_enemy_activation_just_drawn() {
    // 2.21, B137 `enemy-activation` (when an enemy marker is placed, before
    // recovery, B124), kind cancel-activation: DRAW 2 takes gray's first
    // marker (the cup: blue 0, gray 0, gray 1). The Union's card plays; the
    // marker stays on START; no recovery (1VA stays Finished, 2VA stays
    // Disrupted, no rally die), no unit acts, no Move Commander step (the
    // out of command marker stays); the next marker is drawn (3.23).
    let mut g = gray_drawn_next();
    assert!(disrupted(&g, "2VA"), "the test battle's");
    order(&mut g, "CARDS USA AUTO").unwrap();
    give(&mut g, USA, 5);
    let gray = brigade(&g, "gray");
    assert_eq!(dice_waiting(&g), Some(3), "three markers in the cup");
    let e = draw(&mut g, 2);
    assert_eq!(played(&e), vec![(Side::Union, 5)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![5]);
    assert_eq!(g.now.track, vec![marker(&g, "gray", 0)]);
    assert_eq!(
        g.now.cup,
        vec![marker(&g, "blue", 0), marker(&g, "gray", 1)]
    );
    assert!(finished(&g, "1VA"), "no recovery");
    assert!(disrupted(&g, "2VA"), "no rally check");
    assert!(g.now.checks.is_empty());
    assert!(
        g.unit(id(&g, "2VA")).out_of_command,
        "no Move Commander step"
    );
    assert!(g.now.activation.is_none());
    assert_eq!(g.now.step, Step::Select);
    assert_eq!(dice_waiting(&g), Some(2), "the next marker draw");
    // 2.32 c: the marker is on the track, so gray does not rest this turn.
    assert!(g.now.activated_this_turn.contains(&gray));
}

#[test]
fn the_enemy_activation_window_follows_the_side_s_instruction_not_a_brigade_s() {
    // B137: `enemy-activation` is looked up for the player's side (CARDS
    // USA|CSA), not for a brigade: CARDS blue AUTO leaves the Union's side
    // at its default NEVER. Gray activates as usual: it recovers (3.21):
    // 2VA rolls its rally check (a 6 succeeds whatever the modifiers, B51),
    // 1VA loses its Finished marker, and the South then activates units.
    let mut g = gray_drawn_next();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 5);
    let gray = brigade(&g, "gray");
    let e = draw(&mut g, 2);
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[USA], vec![5]);
    assert_eq!(dice_waiting(&g), Some(6), "2VA's rally die");
    roll(&mut g, "6");
    assert!(!disrupted(&g, "2VA"));
    assert!(!finished(&g, "1VA"));
    assert_eq!(g.now.step, Step::Units(gray));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::South, Decision::Activate));
}

#[test]
fn a_no_fire_card_lets_the_enemy_brigade_move_but_not_fire_in_that_activation() {
    // B137, kind no-fire: gray's activation goes on: it recovers (1VA
    // loses its Finished marker; nothing to roll: no Disrupted unit, 1VA
    // within 4 of Oak, 4.2), then activates; its units may not fire (rule
    // B125) but may move. 1VA at 0305 is 2 hexes from 1NY (0303), then 3
    // after its step to 0306: in range both times (6.2), with points for
    // the fire (4: 1 step + 2, B64). The ban ends with the activation; at
    // gray's next activation 1VA fires its 4 dice.
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0305")]);
    unit_mut(&mut g, "1VA").finished = true;
    let cup = vec![
        marker(&g, "blue", 0),
        marker(&g, "gray", 0),
        marker(&g, "gray", 1),
    ];
    at_selection(&mut g, cup);
    order(&mut g, "OPFIRE blue NEVER").unwrap();
    order(&mut g, "CARDS USA AUTO").unwrap();
    give(&mut g, USA, 6);
    let gray = brigade(&g, "gray");
    let e = draw(&mut g, 2);
    assert_eq!(played(&e), vec![(Side::Union, 6)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![6]);
    assert_eq!(g.now.step, Step::Units(gray));
    assert!(!finished(&g, "1VA"), "3.21: it recovered");
    assert!(g.now.card_effects.contains(&CardEffect::NoFire(gray)));
    assert_eq!(refused(&mut g, "1VA FIRE 0303"), "B125");
    order(&mut g, "1VA MOVE 0306").unwrap();
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0306")));
    assert_eq!(refused(&mut g, "1VA FIRE 0303"), "B125");
    order(&mut g, "END").unwrap();
    assert_eq!(g.now.step, Step::Commander(gray));
    order(&mut g, "COMMANDER STAY").unwrap();
    assert_eq!(g.now.step, Step::Select, "3.23: the next draw");
    assert!(!g.now.card_effects.contains(&CardEffect::NoFire(gray)));
    // Another activation of gray: fire is allowed again (6.0).
    activating(&mut g, "gray");
    unit_mut(&mut g, "1VA").finished = false;
    order(&mut g, "1VA FIRE 0303").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
}

#[test]
fn the_lowest_enemy_activation_card_plays_first_and_never_in_its_holder_s_own_activation() {
    // B137: the Union holds 6 (no-fire) then 5 (cancel-activation); the
    // lowest-numbered fitting card, 5, answers gray's first marker (cup:
    // blue 0, blue 1, gray 0, gray 1; DRAW 3). Blue's own marker opens no
    // window for the Union (B124 `enemy-activation`): 6 stays. Gray's
    // second marker (cup: blue 1, gray 1; DRAW 2) opens the window again
    // and 6 answers it: one card each time (B137).
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
    // No independent skirmisher waits to deploy at blue's recovery (9.19 b).
    unit_mut(&mut g, "ISK").place = Place::Removed;
    let cup = vec![
        marker(&g, "blue", 0),
        marker(&g, "blue", 1),
        marker(&g, "gray", 0),
        marker(&g, "gray", 1),
    ];
    at_selection(&mut g, cup);
    order(&mut g, "CARDS USA AUTO").unwrap();
    give(&mut g, USA, 6);
    give(&mut g, USA, 5);
    let (blue, gray) = (brigade(&g, "blue"), brigade(&g, "gray"));

    let e = draw(&mut g, 3);
    assert_eq!(played(&e), vec![(Side::Union, 5)]);
    assert_eq!(g.now.hands[USA], vec![6]);
    assert_eq!(g.now.step, Step::Select);
    assert_eq!(dice_waiting(&g), Some(3));

    // Blue's first marker: 1NY is 3 from Col. Ash (4.2), ready, Undisrupted:
    // nothing to roll; the Union activates its units.
    let e = draw(&mut g, 1);
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[USA], vec![6]);
    assert_eq!(g.now.step, Step::Units(blue));
    order(&mut g, "END").unwrap();
    order(&mut g, "COMMANDER STAY").unwrap();
    assert_eq!(g.now.step, Step::Select);
    assert_eq!(dice_waiting(&g), Some(2));

    let e = draw(&mut g, 2);
    assert_eq!(played(&e), vec![(Side::Union, 6)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![5, 6]);
    assert_eq!(
        g.now.track,
        vec![
            marker(&g, "gray", 0),
            marker(&g, "blue", 0),
            marker(&g, "gray", 1)
        ]
    );
    assert_eq!(g.now.step, Step::Units(gray));
    assert_eq!(refused(&mut g, "1VA FIRE 0303"), "B125");
}

// ----- regroup-check (`exhausts`) --------------------------------------

/// 1NY (blue) at 0304 fires at 2VA (gray, Disrupted by the test battle)
/// next to it at 0305; gray's reserve marker on space 3, one short of
/// EXHAUSTED (4); 1VA Finished at 0606 (3 hexes from 1NY). The South holds
/// 7 (regroup-check in `any`, +2) then 8 (regroup-check in `exhausts`, +1).
/// Gray never retreats for a save. Nothing of gray is 7 or more hexes from
/// 1NY, which both gray units see: no fate check modifier (2.33, B32).
fn last_reserve() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("2VA", "0305"), ("1VA", "0606")]);
    unit_mut(&mut g, "1VA").finished = true;
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].reserve = 3;
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    give(&mut g, CSA, 7);
    give(&mut g, CSA, 8);
    g
}

/// 1NY's 4 dice score one success (6 1 1 1); 2VA's one save (Disrupted,
/// 6.6 item 3; adjacent, so none for distance) fails: the hit would kill
/// the Disrupted unit (6.54), a reserve cancels it (8.11, B5 RESERVES
/// SPEND by default) and the marker enters EXHAUSTED (8.111). The events
/// of the save roll.
fn spend_the_last_reserve(g: &mut BrothersAtWar) -> Vec<Event> {
    assert!(disrupted(g, "2VA"), "the test battle's");
    order(g, "1NY FIRE 0305").unwrap();
    assert_eq!(dice_waiting(g), Some(6u32.pow(4)));
    roll(g, "6 1 1 1");
    assert_eq!(dice_waiting(g), Some(6), "one save");
    roll(g, "1")
}

#[test]
fn a_regroup_card_answers_exhaustion_at_once_and_regroups_on_six_or_more() {
    // B137 `exhausts`, kind regroup-check (11.3 on 47): the card in the
    // `exhausts` window is 8 (+1), not the lower 7 whose window is `any`.
    // Its die waits after the attack's own dice. 5 + 1 = 6: gray regroups
    // (2.33 c, B51): no longer exhausted, a reserve back (8.132: 4 to 3),
    // its units recover (3.21, B36: 1VA loses its Finished marker; 2VA,
    // next to 1NY, makes no rally check, 3.212, so no die waits). 4 + 1 =
    // 5: nothing happens (only the regroup result counts): still
    // exhausted, no break, 1VA still Finished. With card 7's +2 the 4
    // would have regrouped.
    for (die, regroups) in [("5", true), ("4", false)] {
        let mut g = last_reserve();
        order(&mut g, "CARDS gray AUTO").unwrap();
        let gray = brigade(&g, "gray");
        let e = spend_the_last_reserve(&mut g);
        assert_eq!(played(&e), vec![(Side::Confederacy, 8)], "die {die}");
        assert_eq!(g.now.hands[CSA], vec![7]);
        assert_eq!(g.now.discard, vec![8]);
        assert!(g.brigade(gray).exhausted, "8.111");
        assert_eq!(g.brigade(gray).reserve, 4);
        assert_eq!(dice_waiting(&g), Some(6), "the regroup die");
        roll(&mut g, die);
        assert_eq!(dice_waiting(&g), None, "die {die}");
        let b = g.brigade(gray);
        assert_eq!(b.exhausted, !regroups, "die {die}");
        assert_eq!(b.reserve, if regroups { 3 } else { 4 }, "die {die}");
        assert_eq!(b.casualties, 0, "die {die}");
        assert!(!b.broken, "die {die}");
        assert!(
            g.now.exhausted_box.is_empty(),
            "8.111, B35: only at clean up"
        );
        assert_eq!(finished(&g, "1VA"), !regroups, "die {die}");
        assert_eq!(g.hex_of(id(&g, "2VA")), Some(hex("0305")), "die {die}");
        assert!(disrupted(&g, "2VA"), "3.212, die {die}");
    }
}

#[test]
fn without_the_instruction_an_exhausted_brigade_keeps_its_regroup_card() {
    // B137: CARDS defaults to NEVER; the brigade stays exhausted (8.111)
    // and nothing waits.
    let mut g = last_reserve();
    let gray = brigade(&g, "gray");
    let e = spend_the_last_reserve(&mut g);
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[CSA], vec![7, 8]);
    assert!(g.now.discard.is_empty());
    assert!(g.brigade(gray).exhausted);
    assert_eq!(g.brigade(gray).reserve, 4);
    assert_eq!(dice_waiting(&g), None);
    assert!(finished(&g, "1VA"));
}

#[test]
fn a_regroup_card_counts_the_fate_check_modifier() {
    // The check is a fate check's die + the card's bonus + 2.33's +1 when
    // every unit of the brigade is 7 or more hexes from every enemy unit in
    // sight (B32). BAT (deployed, printed range 4) fires at 2VA at 0806:
    // from 0101 (8 hexes) or 0206 (6 hexes), long range either way (B67:
    // more than 4, not more than 8): 3 dice hitting on 6. 6 1 1 is one
    // success; 2VA's only save is for Disrupted (no distance save against
    // artillery, 6.6 item 2): 1 fails, the reserve goes, gray exhausts, card
    // 8 plays. Die 4: 4 + 1 + 1 = 6 regroups when BAT is 8 hexes off; 4 + 1
    // = 5 does nothing when it is 6 hexes off. (A regrouped 2VA, Disrupted
    // and not next to an enemy, may then roll a rally check, 3.21, B36:
    // rolled away here.)
    for (bat, regroups) in [("0101", true), ("0206", false)] {
        let mut g = field();
        only(&mut g, &[("BAT", bat), ("2VA", "0806")]);
        let gray = brigade(&g, "gray");
        g.now.brigades[gray.index()].reserve = 3;
        activating(&mut g, "usart");
        order(&mut g, "RETREAT gray NEVER").unwrap();
        order(&mut g, "CARDS gray AUTO").unwrap();
        give(&mut g, CSA, 8);
        order(&mut g, "BAT FIRE 0806").unwrap();
        assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "BAT at {bat}");
        roll(&mut g, "6 1 1");
        assert_eq!(dice_waiting(&g), Some(6), "one save, BAT at {bat}");
        let e = roll(&mut g, "1");
        assert_eq!(played(&e), vec![(Side::Confederacy, 8)], "BAT at {bat}");
        assert!(g.brigade(gray).exhausted);
        assert_eq!(dice_waiting(&g), Some(6), "the regroup die");
        roll(&mut g, "4");
        settle(&mut g);
        let b = g.brigade(gray);
        assert_eq!(b.exhausted, !regroups, "BAT at {bat}");
        assert_eq!(b.reserve, if regroups { 3 } else { 4 }, "BAT at {bat}");
        assert!(!b.broken, "BAT at {bat}");
    }
}

// ----- extra-assault-dice (`targeted`, the defender) -------------------
//
// The deck above is counted by its own test (CARDS), so the assault cards
// come in a second deck, registered under an id of its own, on the same
// open, level ground with the same blank track. Card 1 is the attacker's
// (`own-activation`, played by a line with the assault order); cards 2-4
// are the defender's (`targeted`), played by `CARDS ... AUTO` when an
// enemy unit assaults a hex of his and he stands (B11, B124, B137).

use orderly::games::brothers_at_war::core::combat::CombatEvent;

const ASSAULT_DECK: &str = r#"
[[card]]
numbers = [1]
name = "Cold steel (test)"
timing = "own-activation"
effect = "extra-assault-dice"
params = { dice = 3 }
text = "Ours: an assaulting unit of yours rolls three dice more."

[[card]]
numbers = [2]
name = "Stand and fight (test)"
timing = "targeted"
effect = "extra-assault-dice"
params = { dice = 2 }
text = "Ours: your unit assaulted rolls two dice more."

[[card]]
numbers = [3]
name = "Fix bayonets (test)"
timing = "targeted"
effect = "extra-assault-dice"
params = { dice = 1 }
text = "Ours: your unit assaulted rolls one die more."

[[card]]
numbers = [4]
name = "Last ditch (test)"
timing = "targeted"
effect = "extra-assault-dice"
params = { dice = 3 }
text = "Ours: your unit assaulted rolls three dice more."
"#;

/// A new game of the test battle with the assault deck, on open, level
/// ground.
fn assault_field() -> BrothersAtWar {
    open_field_with_deck(ASSAULT_DECK, "test-card-reactions-assault", true)
}

/// 2NYA (blue, unformed: 3 assault dice, 7.1) at 0304, next to 1VA (gray,
/// formed: 4 dice) at 0305, in the open; blue activating, so the Union
/// decides. The assault step is not a move action: no opportunity or
/// point blank fire (B96). Gray stands by default (EVADE NEVER, B5).
fn bayonets() -> BrothersAtWar {
    let mut g = assault_field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    g
}

/// The successes of one side's assault roll in these events.
fn assault_successes(events: &[Event], who: Side) -> Option<u8> {
    events.iter().find_map(|e| match e {
        Event::Combat(CombatEvent::AssaultRolled {
            side, successes, ..
        }) if *side == who => Some(*successes),
        _ => None,
    })
}

/// The assault's winner and the hits on attacker and defender.
fn assault_result(events: &[Event]) -> Option<(Side, u8, u8)> {
    events.iter().find_map(|e| match e {
        Event::Combat(CombatEvent::AssaultWon {
            winner,
            attacker_hits,
            defender_hits,
        }) => Some((*winner, *attacker_hits, *defender_hits)),
        _ => None,
    })
}

#[test]
fn a_defender_s_assault_card_adds_its_dice_to_the_defence() {
    // B122, B125: the deck passes the check (extra-assault-dice in
    // `targeted` or `own-activation`, dice 1-3). B137 `targeted`, looked
    // up for gray (1VA's brigade); B11: played after the declaration and
    // the choice to stand, before the dice; kind extra-assault-dice (11.3
    // on 1-2): 2NYA assaults 1VA (7.1); the card goes face up onto the
    // discard pile (11.2, B134); the attacker still rolls its 3 dice,
    // then 1VA rolls 4 + the card's dice. Every die counts: 6 1 1 1 and
    // the card's dice all 6 give 1 + dice successes whatever the
    // modifiers (a 6 hits, a 1 misses, B82, B97), against the attacker's
    // none: gray wins (7.12), 2NYA takes them, 4 at most (B68).
    let problems = orderly::games::brothers_at_war::scenario::check(&deck_text(ASSAULT_DECK, true));
    assert!(problems.is_empty(), "{problems:#?}");
    for (card, extra) in [(3u8, 1u32), (2, 2), (4, 3)] {
        let mut g = bayonets();
        order(&mut g, "CARDS gray AUTO").unwrap();
        give(&mut g, CSA, card);
        let e = order(&mut g, "2NYA MOVE 0305").unwrap();
        assert_eq!(played(&e), vec![(Side::Confederacy, card)], "card {card}");
        assert!(g.now.hands[CSA].is_empty(), "card {card}");
        assert_eq!(g.now.discard, vec![card]);
        assert!(!g.now.deck.contains(&card));
        assert_eq!(
            dice_waiting(&g),
            Some(6u32.pow(3)),
            "the attacker's 3, card {card}"
        );
        let e = roll(&mut g, "1 1 1");
        assert!(played(&e).is_empty(), "card {card}");
        assert_eq!(
            dice_waiting(&g),
            Some(6u32.pow(4 + extra)),
            "4 + {extra}, card {card}"
        );
        let dice = format!("6 1 1 1{}", " 6".repeat(extra as usize));
        let e = roll(&mut g, &dice);
        let hits = 1 + extra as u8;
        assert_eq!(
            assault_successes(&e, Side::Confederacy),
            Some(hits),
            "card {card}"
        );
        assert_eq!(
            assault_result(&e),
            Some((Side::Confederacy, hits.min(4), 0)),
            "card {card}"
        );
    }

    // The lowest-numbered fitting card plays (B137): 2, not 3 or 4; one
    // card for the one assault.
    let mut g = bayonets();
    order(&mut g, "CARDS gray AUTO").unwrap();
    for card in [4, 3, 2] {
        give(&mut g, CSA, card);
    }
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert_eq!(played(&e), vec![(Side::Confederacy, 2)]);
    assert_eq!(g.now.hands[CSA], vec![4, 3]);
    assert_eq!(g.now.discard, vec![2]);
    let e = roll(&mut g, "1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(dice_waiting(&g), Some(6u32.pow(6)));
    assert_eq!(g.now.hands[CSA], vec![4, 3]);
}

#[test]
fn without_the_cards_instruction_the_defender_rolls_its_usual_dice() {
    // B137, B5: CARDS defaults to NEVER: card 2 stays in the hand and 1VA
    // rolls its 4 dice (7.1). B6: an instruction covers only what it
    // names: blue's (the attacker's brigade), the Union's, or reserve's
    // (another brigade of the South) do nothing for gray; a brigade's
    // own NEVER beats its side's AUTO; the side's AUTO alone plays it.
    let cases: Vec<(Vec<&str>, bool)> = vec![
        (vec![], false),
        (vec!["CARDS blue AUTO"], false),
        (vec!["CARDS USA AUTO"], false),
        (vec!["CARDS reserve AUTO"], false),
        (vec!["CARDS CSA AUTO", "CARDS gray NEVER"], false),
        (vec!["CARDS CSA AUTO"], true),
    ];
    for (given, plays) in cases {
        let mut g = bayonets();
        for text in &given {
            order(&mut g, text).unwrap();
        }
        give(&mut g, CSA, 2);
        let mut e = order(&mut g, "2NYA MOVE 0305").unwrap();
        assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "{given:?}");
        e.extend(roll(&mut g, "1 1 1"));
        if plays {
            assert_eq!(played(&e), vec![(Side::Confederacy, 2)], "{given:?}");
            assert!(g.now.hands[CSA].is_empty(), "{given:?}");
            assert_eq!(g.now.discard, vec![2], "{given:?}");
            assert_eq!(dice_waiting(&g), Some(6u32.pow(6)), "{given:?}");
        } else {
            assert!(played(&e).is_empty(), "{given:?}");
            assert_eq!(g.now.hands[CSA], vec![2], "{given:?}");
            assert!(g.now.discard.is_empty(), "{given:?}");
            assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{given:?}");
        }
    }
}

#[test]
fn an_own_activation_assault_card_is_never_played_by_the_instruction() {
    // B124, B137: the instruction plays only a card whose deck entry names
    // the window that opens. Card 1's window is `own-activation` (the
    // attacker's, with his assault order, B135): held alone by the
    // defender it stays, and 1VA rolls its 4 dice; held with card 3, card
    // 3 plays (4 + 1 dice) though 1 is the lower number. And the
    // `targeted` window is the defender's: the Union's card 2 is not
    // played for its own assault, under CARDS USA AUTO too, and 2NYA rolls
    // its 3 dice.
    for (hand, card, extra) in [(vec![1u8], None, 0u32), (vec![1, 3], Some(3u8), 1)] {
        let mut g = bayonets();
        order(&mut g, "CARDS gray AUTO").unwrap();
        for &c in &hand {
            give(&mut g, CSA, c);
        }
        let e = order(&mut g, "2NYA MOVE 0305").unwrap();
        let expect: Vec<(Side, u8)> = card.map(|c| (Side::Confederacy, c)).into_iter().collect();
        assert_eq!(played(&e), expect, "{hand:?}");
        assert_eq!(g.now.hands[CSA], vec![1], "{hand:?}");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "{hand:?}");
        roll(&mut g, "1 1 1");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4 + extra)), "{hand:?}");
        assert_eq!(g.now.hands[CSA], vec![1], "{hand:?}");
    }

    let mut g = bayonets();
    order(&mut g, "CARDS USA AUTO").unwrap();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 2);
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[USA], vec![2]);
    assert_eq!(
        dice_waiting(&g),
        Some(6u32.pow(3)),
        "no extra attacker dice"
    );
    let e = roll(&mut g, "1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    assert_eq!(g.now.hands[USA], vec![2]);
    assert!(g.now.discard.is_empty());
}

#[test]
fn a_defender_that_evades_plays_no_assault_card() {
    // 7.3, B99 (EVADE gray ALWAYS): 1VA retreats before the dice, so no
    // assault dice are rolled and the card, played only after a stand
    // (B137), stays in the hand. 1VA was ready: Finished (7.31); 2NYA
    // enters the hex, not Finished (7.3).
    let mut g = bayonets();
    order(&mut g, "CARDS gray AUTO").unwrap();
    order(&mut g, "EVADE gray ALWAYS").unwrap();
    give(&mut g, CSA, 2);
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert!(e.contains(&Event::Combat(CombatEvent::Evaded {
        units: vec!["1VA".into()]
    })));
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[CSA], vec![2]);
    assert!(g.now.discard.is_empty());
    assert_eq!(dice_waiting(&g), None, "7.3: no dice");
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0305")));
    assert!(!finished(&g, "2NYA"));
    assert!(finished(&g, "1VA"), "7.31");
}

// ----- forced-retreat (`enemy-hit`) and cancel-retreat (`retreat`) -----
//
// A third deck, registered under an id of its own, on the same open, level
// ground with the same blank track (B137 with B126). Cards 1-2 are
// `forced-retreat` (window `enemy-hit`: the attacker's, once his fire has
// scored, looked up for the firer's brigade); cards 3-4 are
// `cancel-retreat` (window `retreat`: the attacker's against a retreat the
// defender chose by his RETREAT instruction, looked up for the firer's
// brigade; the defender's against the attacker's forced retreat, looked up
// for the target's brigade). Both are decided after the hits and before
// the saves (B11), after the defender's own retreat choice (B137).
//
// Worked by hand for every test below (B15, B77, B78, B86, B92, 6.73):
// 1NY (blue, formed, firepower 4, hitting on 5+, 6.0) at 0304 fires at
// 0306, two hexes off along column 03 with nothing between: 1 save for the
// hex between (6.6 item 2, B78), none for a formed target in the open,
// and 1 more for a retreat (6.6 item 5; the test battle sets no saves of
// its own, so 6.6's 1, B17). The Confederate rally point is 0806. From
// 0306 the only step nearer 0806 (5 hexes off) is 0406 (0305 and 0206 are
// not nearer; 0307, 0407 and 0207 are off the map); from 0406 both 0505 and
// 0506 are nearer. Neither path enters a hex next to 1NY (no extra hit,
// 6.73) nor a friendly unit (nobody disrupted, B59); 0506 is 3 hexes from
// 1NY, 0505 only 2: B92 takes 0406-0506. (Col. Oak stands at 0506; a
// commander is not a unit and stacks with anybody, 4.1, B47.)

const RETREAT_DECK: &str = r#"
[[card]]
numbers = [1, 2]
name = "Cold feet (test)"
timing = "enemy-hit"
effect = "forced-retreat"
text = "Ours: an enemy unit your fire has hit retreats, gaining its save."

[[card]]
numbers = [3, 4]
name = "Stubborn (test)"
timing = "retreat"
effect = "cancel-retreat"
text = "Ours: a retreat for saves does not happen; its saves are lost."
"#;

/// A new game of the test battle with the retreat deck, on open, level
/// ground.
fn retreat_field() -> BrothersAtWar {
    open_field_with_deck(RETREAT_DECK, "test-card-retreats", true)
}

/// 1NY (blue) at 0304 and `target` (gray) at 0306; blue activating, so the
/// Union decides; gray's RETREAT instruction set to `retreat`.
fn retreat_volley(target: &str, retreat: &str) -> BrothersAtWar {
    let mut g = retreat_field();
    only(&mut g, &[("1NY", "0304"), (target, "0306")]);
    activating(&mut g, "blue");
    order(&mut g, &format!("RETREAT gray {retreat}")).unwrap();
    g
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

/// The hits that stand and the retreat's extra hits, in these events.
fn fire_hits(events: &[Event]) -> Option<(u8, u8)> {
    events.iter().find_map(|e| match e {
        Event::Combat(CombatEvent::Hits { hits, extra }) => Some((*hits, *extra)),
        _ => None,
    })
}

fn along(unit: &str, hexes: &[&str]) -> (Vec<String>, Vec<String>) {
    (
        vec![unit.to_string()],
        hexes.iter().map(|h| h.to_string()).collect(),
    )
}

#[test]
fn a_forced_retreat_card_makes_the_target_retreat_after_its_saves_with_the_retreat_save() {
    // B122, B125 and the table "Card effect kinds": forced-retreat in
    // `enemy-hit`, cancel-retreat in `retreat`, neither with parameters:
    // the deck passes the check.
    //
    // B137 `enemy-hit`, looked up for blue (1NY's brigade); 11.3 on 39-40
    // ("a normal retreat (6.7); the defender gains a save roll"); B68 (the
    // attack scored: 6 1 1 1 is one success before saves); B11 (after the
    // hits, before the saves). Gray would not retreat by itself (RETREAT
    // NEVER). The lowest `enemy-hit` card of the hand plays: 1, not 2; it
    // goes face up to the discard pile (11.2, B134). Saves: 1 for the hex
    // between + 1 for the retreat = 2 dice (6.6, B77). The retreat comes
    // after the saves (6.7, B11), whatever they saved: 0406-0506 (B92, see
    // above); ready, 1VA is Finished (6.77, B91). Saves 1 1: the hit
    // stands (B68: 1 - 0) and the formed 1VA unforms, not Disrupted (6.52,
    // B80); saves 5 1: the hit is saved (B68: 1 - 1 = 0) and 1VA retreats
    // unharmed all the same.
    let problems = orderly::games::brothers_at_war::scenario::check(&deck_text(RETREAT_DECK, true));
    assert!(problems.is_empty(), "{problems:#?}");
    for (saves, hit) in [("1 1", true), ("5 1", false)] {
        let mut g = retreat_volley("1VA", "NEVER");
        order(&mut g, "CARDS blue AUTO").unwrap();
        give(&mut g, USA, 2);
        give(&mut g, USA, 1);
        let e = order(&mut g, "1NY FIRE 0306").unwrap();
        assert!(played(&e).is_empty(), "not before the dice, saves {saves}");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
        let e = roll(&mut g, "6 1 1 1");
        assert_eq!(played(&e), vec![(Side::Union, 1)], "saves {saves}");
        assert_eq!(g.now.hands[USA], vec![2]);
        assert_eq!(g.now.discard, vec![1]);
        assert!(!g.now.deck.contains(&1));
        assert!(
            retreats(&e).is_empty(),
            "6.7: the retreat waits for the saves"
        );
        assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0306")));
        assert_eq!(
            dice_waiting(&g),
            Some(6u32.pow(2)),
            "1 between + 1 retreat, saves {saves}"
        );
        let e = roll(&mut g, saves);
        assert_eq!(dice_waiting(&g), None, "saves {saves}");
        assert_eq!(
            retreats(&e),
            vec![along("1VA", &["0406", "0506"])],
            "saves {saves}"
        );
        if hit {
            assert_eq!(fire_hits(&e), Some((1, 0)), "no extra hit, 6.73");
        }
        assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0506")), "saves {saves}");
        let v = g.unit(id(&g, "1VA"));
        assert_eq!(v.face, if hit { Face::Back } else { Face::Front });
        assert!(!v.disrupted, "a 2-hex retreat disrupts nothing (6.71)");
        assert!(finished(&g, "1VA"), "6.77, saves {saves}");
        assert_eq!(g.now.hands[USA], vec![2], "one card for the one attack");
    }
}

#[test]
fn a_forced_retreat_card_follows_the_firer_s_brigade_instruction() {
    // B137: `enemy-hit` is looked up for the brigade of the firer, blue;
    // B5, B6: default NEVER; a brigade's own instruction beats its side's;
    // an instruction for another brigade (horse) or for the target's
    // (gray, the South's) does nothing for blue. Played: 2 save dice (1
    // between + 1 retreat, 6.6); not played: gray stands by its RETREAT
    // NEVER and has its 1 save only, and 1VA stays in 0306 unretreated.
    let cases: Vec<(Vec<&str>, bool)> = vec![
        (vec![], false),
        (vec!["CARDS horse AUTO"], false),
        (vec!["CARDS gray AUTO"], false),
        (vec!["CARDS USA AUTO", "CARDS blue NEVER"], false),
        (vec!["CARDS USA AUTO"], true),
        (vec!["CARDS blue AUTO"], true),
        (vec!["CARDS USA NEVER", "CARDS blue AUTO"], true),
    ];
    for (given, plays) in cases {
        let mut g = retreat_volley("1VA", "NEVER");
        for text in &given {
            order(&mut g, text).unwrap();
        }
        give(&mut g, USA, 1);
        order(&mut g, "1NY FIRE 0306").unwrap();
        let e = roll(&mut g, "6 1 1 1");
        if plays {
            assert_eq!(played(&e), vec![(Side::Union, 1)], "{given:?}");
            assert!(g.now.hands[USA].is_empty(), "{given:?}");
            assert_eq!(g.now.discard, vec![1], "{given:?}");
            assert_eq!(dice_waiting(&g), Some(6u32.pow(2)), "{given:?}");
        } else {
            assert!(played(&e).is_empty(), "{given:?}");
            assert_eq!(g.now.hands[USA], vec![1], "{given:?}");
            assert!(g.now.discard.is_empty(), "{given:?}");
            assert_eq!(dice_waiting(&g), Some(6), "1 between only, {given:?}");
        }
        let e = roll(&mut g, &vec!["1"; if plays { 2 } else { 1 }].join(" "));
        assert_eq!(fire_hits(&e), Some((1, 0)), "{given:?}");
        let at = if plays { "0506" } else { "0306" };
        assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex(at)), "{given:?}");
        assert_eq!(finished(&g, "1VA"), plays, "6.77, {given:?}");
    }
}

#[test]
fn a_forced_retreat_card_waits_when_the_fire_scores_nothing() {
    // B137 `enemy-hit` opens only when the attack has scored at least one
    // success (B68, B124); 11.3 on 39-40 is "a normal retreat (6.7)" and
    // 6.732 a: no retreat when the fire inflicts no hits. 1 1 1 1 scores
    // none: the card stays, no retreat save is rolled, 1VA stays in 0306
    // unharmed and ready.
    let mut g = retreat_volley("1VA", "NEVER");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 1);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "1 1 1 1");
    assert!(played(&e).is_empty());
    assert!(retreats(&e).is_empty());
    assert_ne!(dice_waiting(&g), Some(6u32.pow(2)), "no retreat save");
    settle(&mut g);
    assert_eq!(g.now.hands[USA], vec![1]);
    assert!(g.now.discard.is_empty());
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0306")));
    assert!(unharmed(&g, "1VA"));
    assert!(!finished(&g, "1VA"));
}

#[test]
fn no_forced_retreat_card_on_a_skirmisher_a_remnant_or_a_unit_that_cannot_retreat() {
    // B125 table, 11.3 on 39-40: not on a skirmisher or remnant (6.76,
    // B90); only if the target can retreat legally (6.71, B94): a unit on
    // its own rally point hex cannot (6.732 c, B86). Each fire scores one
    // success (6 1 1 1); the card stays in the hand and no retreat save is
    // added:
    // - GSK (gray's skirmisher) at 0306, 2 hexes from 1NY at 0304: 1 save
    //   for the hex between + 1 for a skirmisher's formation (6.6 items 2
    //   and 3, B77, B79) = 2 dice; saves 1 1: the hit disbands it to its
    //   brigade display (6.541, B80).
    // - REMX (a Confederate remnant, Disrupted by the test battle) at
    //   0106, 2 hexes from 1NY at 0104 (0105 between, empty): 1 between + 1
    //   Disrupted = 2 dice.
    // - 1VA on the Confederate rally point 0806, 2 hexes from 1NY at 0804
    //   (0805 between, empty): 1 between = 1 die; saves 1: the hit unforms
    //   it (B80) and it stays in 0806.
    for (target, firer_at, at, saves) in [
        ("GSK", "0304", "0306", 2usize),
        ("REMX", "0104", "0106", 2),
        ("1VA", "0804", "0806", 1),
    ] {
        let mut g = retreat_field();
        if target == "GSK" {
            only(&mut g, &[("1NY", firer_at)]);
            unit_mut(&mut g, "GSK").place = Place::Map(hex(at));
        } else {
            only(&mut g, &[("1NY", firer_at), (target, at)]);
        }
        activating(&mut g, "blue");
        order(&mut g, "RETREAT gray NEVER").unwrap();
        order(&mut g, "RETREAT CSA NEVER").unwrap();
        order(&mut g, "CARDS blue AUTO").unwrap();
        give(&mut g, USA, 1);
        order(&mut g, &format!("1NY FIRE {at}")).unwrap();
        assert_eq!(dice_waiting(&g), Some(6u32.pow(4)), "{target}");
        let e = roll(&mut g, "6 1 1 1");
        assert!(played(&e).is_empty(), "{target}");
        assert_eq!(g.now.hands[USA], vec![1], "{target}");
        assert!(g.now.discard.is_empty(), "{target}");
        assert_eq!(
            dice_waiting(&g),
            Some(6u32.pow(saves as u32)),
            "no retreat save, {target}"
        );
        let e = roll(&mut g, &vec!["1"; saves].join(" "));
        assert!(retreats(&e).is_empty(), "{target}");
        assert_eq!(fire_hits(&e), Some((1, 0)), "{target}");
        match target {
            "GSK" => assert_eq!(g.unit(id(&g, "GSK")).place, Place::Display, "6.541"),
            "1VA" => {
                assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0806")));
                assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back, "B80");
            }
            _ => {}
        }
        assert_eq!(g.now.hands[USA], vec![1], "{target}");
    }
}

#[test]
fn no_forced_retreat_card_when_the_defender_retreats_by_its_own_instruction() {
    // B137: the attacker's `enemy-hit` card is decided after the
    // defender's own retreat choice, and only when he has not chosen to
    // retreat; 11.3 on 39-40 forces a retreat that would happen anyway
    // otherwise. RETREAT gray ALWAYS (B5, B90): 1VA retreats for its save
    // by itself; the Union's card stays in the hand. Saves 1 between + 1
    // retreat = 2 dice, once only (no second retreat save); saves 1 1: one
    // hit, 1VA unforms (B80), retreats 0406-0506 (B92) and is Finished
    // (6.77).
    let mut g = retreat_volley("1VA", "ALWAYS");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 1);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[USA], vec![1]);
    assert!(g.now.discard.is_empty());
    assert_eq!(dice_waiting(&g), Some(6u32.pow(2)));
    let e = roll(&mut g, "1 1");
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(fire_hits(&e), Some((1, 0)));
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0506")));
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Back);
    assert!(finished(&g, "1VA"));
    assert_eq!(g.now.hands[USA], vec![1]);
}

#[test]
fn an_attacker_s_cancel_retreat_card_stops_the_retreat_the_defender_chose() {
    // B137 `retreat`, the attacker's, looked up for blue (the firer's
    // brigade), played when the defender has chosen to retreat for a save
    // by his RETREAT instruction; 11.3 on 27-28: the saves the cancelled
    // retreat gave are lost; B11: after the hits and the defender's choice,
    // before the saves. The lowest `retreat` card plays: 3, not 4.
    //
    // 1VA under RETREAT gray ALWAYS (B90): saves 1 between, the retreat's
    // lost: 1 die; save 1: the hit stands, formed 1VA unforms (B80) and
    // stays in 0306, not Finished (no retreat, 6.77 does not apply).
    let mut g = retreat_volley("1VA", "ALWAYS");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 4);
    give(&mut g, USA, 3);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert_eq!(played(&e), vec![(Side::Union, 3)]);
    assert_eq!(g.now.hands[USA], vec![4]);
    assert_eq!(g.now.discard, vec![3]);
    assert_eq!(
        dice_waiting(&g),
        Some(6),
        "1 between; the retreat's save is lost"
    );
    let e = roll(&mut g, "1");
    assert!(retreats(&e).is_empty());
    assert_eq!(fire_hits(&e), Some((1, 0)));
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0306")));
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(!v.disrupted);
    assert!(!finished(&g, "1VA"));
    assert_eq!(g.now.hands[USA], vec![4], "one card for the one attack");

    // The default RETREAT IFKILLED (B5, B95) is the defender's choice too:
    // 2VA, Disrupted by the test battle, is killed by one hit, so it would
    // retreat for a save. The card cancels it: saves 1 between + 1
    // Disrupted (6.6 item 3) = 2 dice, not 3. Saves 1 1: the killing hit
    // stands; gray spends a reserve (RESERVES SPEND by default, 8.11, B80)
    // and 2VA stays in 0306, Disrupted.
    let mut g = retreat_field();
    only(&mut g, &[("1NY", "0304"), ("2VA", "0306")]);
    activating(&mut g, "blue");
    assert!(disrupted(&g, "2VA"), "the test battle's");
    let gray = brigade(&g, "gray");
    let reserve = g.brigade(gray).reserve;
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 3);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert_eq!(played(&e), vec![(Side::Union, 3)]);
    assert_eq!(
        dice_waiting(&g),
        Some(6u32.pow(2)),
        "not 3: no retreat save"
    );
    let e = roll(&mut g, "1 1");
    assert!(retreats(&e).is_empty());
    assert_eq!(fire_hits(&e), Some((1, 0)));
    assert!(e.contains(&Event::Combat(CombatEvent::ReserveSpent {
        brigade: "gray".into(),
        unit: "2VA".into()
    })));
    assert_eq!(g.brigade(gray).reserve, reserve + 1, "8.11");
    assert_eq!(g.hex_of(id(&g, "2VA")), Some(hex("0306")));
    assert!(disrupted(&g, "2VA"));
}

#[test]
fn a_defender_s_cancel_retreat_card_answers_the_attacker_s_forced_retreat() {
    // B126 (11.3 on 27-28: Cussedness "may be played to cancel the effects
    // of Cowardly Legs"), B137 `retreat`, the defender's, looked up for
    // gray (1VA's brigade), right after the attacker's `enemy-hit` card;
    // both before the saves (B11). The Union's 1 plays, then the South's
    // lowest `retreat` card, 3 (not 4): the forced retreat does not happen
    // and its save is lost: 1 save die (the hex between). Save 1: the hit
    // stands; 1VA unforms (B80) and stands in 0306, not Finished.
    let mut g = retreat_volley("1VA", "NEVER");
    order(&mut g, "CARDS blue AUTO").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, USA, 1);
    give(&mut g, CSA, 4);
    give(&mut g, CSA, 3);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert_eq!(played(&e), vec![(Side::Union, 1), (Side::Confederacy, 3)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.hands[CSA], vec![4]);
    assert_eq!(g.now.discard, vec![1, 3]);
    assert_eq!(dice_waiting(&g), Some(6), "no retreat save");
    let e = roll(&mut g, "1");
    assert!(retreats(&e).is_empty());
    assert_eq!(fire_hits(&e), Some((1, 0)));
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0306")));
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(!v.disrupted);
    assert!(!finished(&g, "1VA"));

    // Without gray's instruction (B5: NEVER by default) the South keeps
    // its card and the forced retreat goes ahead: 2 save dice, 0406-0506.
    let mut g = retreat_volley("1VA", "NEVER");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 1);
    give(&mut g, CSA, 3);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert_eq!(played(&e), vec![(Side::Union, 1)]);
    assert_eq!(g.now.hands[CSA], vec![3]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(2)));
    let e = roll(&mut g, "1 1");
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0506")));
}

#[test]
fn retreat_cards_are_played_only_in_their_own_side_s_window() {
    // B124, B137: a card is played only in the window its deck entry
    // names and only by the side that window belongs to.
    // (1) The Union holds both kinds (3 then 1). Gray stands (RETREAT
    //     NEVER): its `enemy-hit` card 1 plays and forces the retreat; its
    //     `retreat` card 3 is not played against its own forced retreat
    //     (the attacker's cancel-retreat answers only a retreat the
    //     defender chose): 2 save dice. Gray retreats by itself (RETREAT
    //     ALWAYS): 3 plays and cancels it, 1 stays (no forced retreat when
    //     the defender already retreats): 1 save die.
    for (retreat, card, kept, dice) in [("NEVER", 1u8, 3u8, 2u32), ("ALWAYS", 3, 1, 1)] {
        let mut g = retreat_volley("1VA", retreat);
        order(&mut g, "CARDS blue AUTO").unwrap();
        give(&mut g, USA, 3);
        give(&mut g, USA, 1);
        order(&mut g, "1NY FIRE 0306").unwrap();
        let e = roll(&mut g, "6 1 1 1");
        assert_eq!(played(&e), vec![(Side::Union, card)], "RETREAT {retreat}");
        assert_eq!(g.now.hands[USA], vec![kept], "RETREAT {retreat}");
        assert_eq!(g.now.discard, vec![card], "RETREAT {retreat}");
        assert_eq!(dice_waiting(&g), Some(6u32.pow(dice)), "RETREAT {retreat}");
    }

    // (2) The defender's cards under CARDS gray AUTO: its `retreat` card
    //     does not cancel the retreat it chose itself (RETREAT ALWAYS): 2
    //     save dice and the retreat 0406-0506; its `enemy-hit` card is the
    //     attacker's window, never opened by an enemy fire on its unit.
    let mut g = retreat_volley("1VA", "ALWAYS");
    order(&mut g, "CARDS CSA AUTO").unwrap();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 3);
    give(&mut g, CSA, 1);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[CSA], vec![3, 1]);
    assert_eq!(dice_waiting(&g), Some(6u32.pow(2)));
    let e = roll(&mut g, "1 1");
    assert!(played(&e).is_empty());
    assert_eq!(retreats(&e), vec![along("1VA", &["0406", "0506"])]);
    assert_eq!(g.now.hands[CSA], vec![3, 1]);
    assert!(g.now.discard.is_empty());

    // (3) Nobody retreats (RETREAT NEVER, no forced retreat): the
    //     attacker's `retreat` card has nothing to cancel and stays; 1 save
    //     die; 1VA stays in 0306.
    let mut g = retreat_volley("1VA", "NEVER");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 3);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    assert!(played(&e).is_empty());
    assert_eq!(g.now.hands[USA], vec![3]);
    assert_eq!(dice_waiting(&g), Some(6));
    let e = roll(&mut g, "1");
    assert!(retreats(&e).is_empty());
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0306")));
}
