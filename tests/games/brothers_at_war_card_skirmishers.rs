#[path = "../common/mod.rs"]
mod common;

// The battle card `skirmisher-does-not-disband` (11.3 on 9-10, VETERAN
// SKIRMISHERS) played by the standing instruction `CARDS ... AUTO` (B137)
// in its three forms (B144): `ignore-disband` when an enemy unit comes next
// to the skirmisher (9.14), `max-hits` when it fires (6.13, 6.131), and
// `deployer-stays-ready` when it is deployed (9.13). Every expected result
// is worked out by hand from the rulebook (5.26, 5.44, 6.13, 6.15, 6.151,
// 9.11-9.16) and the rulings (B10, B58, B64, B73, B74, B137, B144), never
// from the engine.
//
// The ground: the test battle's order of battle on its 8 x 6 map made open
// and level everywhere, with no roads, trails, fords or fences, so that
// every step costs 1 and every line of sight is open unless a unit stands
// in it. Commanders stand where the test battle puts them (Col. Ash at
// 0201, Maj. Elm at 0601, Col. Oak at 0506, Col. Fir at 0806), none next to
// a hex used below; a commander is not a unit (4.1). The activation track
// is made blank but for its last space.
//
// Units used (the test battle's ratings): 1NY (blue) formed infantry,
// firepower 4; 2NYA and 2NYB (blue) unformed infantry, firepower 3; 1CAV
// (horse) mounted cavalry; 1VA (gray) formed infantry, firepower 4. The
// skirmishers, firepower 1, on their brigade's display until placed: BSK
// (blue, infantry), HSK (horse, cavalry), GSK (gray, infantry,
// sharpshooter). Infantry skirmishers are deployed by infantry, cavalry
// ones by cavalry (9.13).
//
// Hexes (B15: even columns sit half a hex north of odd ones; 0712 touches
// 0711, 0713, 0612, 0613, 0812, 0813), counted by hand:
// - 0305 touches 0304, 0306, 0204, 0205, 0404, 0405;
// - 0304 touches 0303, 0305, 0204, 0205, 0404, 0405;
// - 0303 touches 0302, 0304, 0203, 0204, 0403, 0404 (not 0305);
// - 0404 touches 0403, 0405, 0303, 0304, 0503, 0504 (not 0305);
// - 0405 touches 0404, 0406, 0304, 0305, 0504, 0505;
// - 0204 touches 0203, 0205, 0103, 0104, 0303, 0304.
// Distances: 0302-0305 3, 0303-0305 2, 0304-0306 2, 0203-0305 3.
//
// Dice (1.7, B82): a die hits on 5-6 with no modifier here, so every fire
// below is declared hitting on 5. A skirmisher fires its firepower, 1 die,
// with at most 1 hit (6.131, 6.5, B68); a target of skirmisher fire saves
// only for moving fire and a retreat (6.132, B74), so a roll of 1 ends the
// fire at once: no success, no saves.
//
// A skirmisher fires point blank at an enemy unit that ends a move action
// next to it, whatever its status (6.151, 9.15, B73), and then disbands
// (9.14, B73); the disbanding waits for the fire (B10). The card's
// `ignore-disband` form keeps it in place this once (B144): the fire is the
// skirmisher's own (6.151 does not depend on its disbanding), so it still
// happens. GSK and BSK are set Finished where they wait for the enemy, so
// that they make no opportunity fire (6.12 needs a ready unit).
//
// The deck is ours (cards 1-5, below). Cards are put into hands directly:
// `hands[0]` the Union's, `hands[1]` the Confederacy's, each taken out of
// the deck. Under `CARDS ... AUTO` (B137) the lowest card of the hand whose
// deck entry has the form the moment needs (B144) is played at once: it
// leaves the hand for the discard pile face up (11.2, B134) and
// `Event::CardPlayed` names it; hands keep the order the cards were given
// in. The `skirmisher` window is looked up for the skirmisher's brigade
// (B144).

use common::brothers_at_war_decks::{
    deck_text, dice_waiting, disrupted, finished, give, open_field_with_deck, roll, settle, CSA,
    USA,
};
use common::brothersatwar::{activating, hex, id, only, order, refused, unit_mut};
use orderly::games::brothers_at_war::core::combat::{CombatEvent, FireType};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place};
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::{Face, Side};
use orderly::games::{Game, Seat};

/// Our test deck: one card of each form of `skirmisher-does-not-disband`,
/// a second `ignore-disband` card with a higher number, and a card of no
/// effect.
const DECK: &str = r#"
[[card]]
numbers = [1]
name = "Crack shots (test)"
timing = "skirmisher"
effect = "skirmisher-does-not-disband"
params = { max-hits = 2 }
text = "Ours: your skirmisher's fire scores up to two hits."

[[card]]
numbers = [2]
name = "Throw out a screen (test)"
timing = "skirmisher"
effect = "skirmisher-does-not-disband"
params = { deployer-stays-ready = true }
text = "Ours: the unit deploying your skirmisher is not Finished."

[[card]]
numbers = [3]
name = "Hold the line (test)"
timing = "skirmisher"
effect = "skirmisher-does-not-disband"
params = { ignore-disband = true }
text = "Ours: your skirmisher stays where it is as the enemy comes up."

[[card]]
numbers = [4]
name = "Letters home (test)"
timing = "none"
effect = "no-effect"
text = "Ours: no effect."

[[card]]
numbers = [5]
name = "Stubborn pickets (test)"
timing = "skirmisher"
effect = "skirmisher-does-not-disband"
params = { ignore-disband = true }
text = "Ours: your skirmisher stays where it is as the enemy comes up."
"#;

/// How many card numbers the deck holds.
const CARDS: usize = 5;

/// A new game of the test battle with our deck, on open, level ground.
fn field() -> BrothersAtWar {
    open_field_with_deck(DECK, "test-card-skirmishers", true)
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

/// A fire as declared: firers, target hex, kind, dice, face that hits, cap.
type Declared = (Vec<String>, String, FireType, u8, u8, u8);

/// The fires declared in these events.
fn fires(events: &[Event]) -> Vec<Declared> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Combat(CombatEvent::Fire {
                firers,
                target,
                kind,
                dice,
                to_hit,
                cap,
                ..
            }) => Some((
                firers.clone(),
                target.to_string(),
                *kind,
                *dice,
                *to_hit,
                *cap,
            )),
            _ => None,
        })
        .collect()
}

fn fire(firer: &str, target: &str, kind: FireType, dice: u8, cap: u8) -> Declared {
    (
        vec![firer.to_string()],
        target.to_string(),
        kind,
        dice,
        5,
        cap,
    )
}

/// The skirmishers disbanded in these events.
fn disbanded(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Disbanded { skirmisher } => Some(skirmisher.clone()),
            _ => None,
        })
        .collect()
}

fn place(g: &BrothersAtWar, name: &str) -> Place {
    g.unit(id(g, name)).place
}

fn sorted(mut v: Vec<u8>) -> Vec<u8> {
    v.sort_unstable();
    v
}

/// GSK (gray, Finished) at 0305; 2NYA (blue, unformed) at 0303, one step
/// from 0304 next to it; blue activating, so the Union moves and gray's
/// instructions answer. No other unit is on the map.
fn screen() -> BrothersAtWar {
    let mut g = field();
    only(&mut g, &[("2NYA", "0303")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0305"));
    unit_mut(&mut g, "GSK").finished = true;
    activating(&mut g, "blue");
    g
}

/// 2NYA steps 0303-0304 next to GSK: GSK's point blank fire is declared
/// (B73, B10 (4)); it is rolled as 1 (no success, no saves). Returns the
/// events of the step and the roll together, since the card answering the
/// disbanding may come with either (B10: the disbanding waits for the
/// fire).
fn step_next_to_gsk(g: &mut BrothersAtWar, cap: u8) -> Vec<Event> {
    let mut e = order(g, "2NYA MOVE 0304").unwrap();
    assert_eq!(
        fires(&e),
        vec![fire("GSK", "0304", FireType::PointBlank, 1, cap)]
    );
    assert_eq!(dice_waiting(g), Some(6), "GSK's one die");
    e.extend(roll(g, "1"));
    assert_eq!(dice_waiting(g), None, "no success, no saves (6.132)");
    e
}

// ----- the deck itself -------------------------------------------------

#[test]
fn the_skirmisher_deck_passes_the_scenario_check() {
    // B122, B125 and the table "Card effect kinds": skirmisher-does-not-
    // disband in `skirmisher` with `ignore-disband` yes/no, `max-hits` 1-2
    // and `deployer-stays-ready` yes/no; no-effect in `none`. Five numbers.
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

// ----- ignore-disband (9.14, B144) ---------------------------------------

#[test]
fn an_ignore_disband_card_keeps_the_skirmisher_in_place_after_its_point_blank_fire() {
    // B144, 11.3 on 9-10: 2NYA ends its step in 0304, next to GSK at 0305.
    // GSK, Finished, fires point blank all the same (6.151, B73: whatever
    // its status; POINTBLANK ALWAYS by default, B5): 1 die on 5-6, at most
    // 1 hit (6.131) since card 3 has no `max-hits`. Rolled 1: nothing. GSK
    // would now disband (9.14); gray's CARDS AUTO plays card 3 (window
    // `skirmisher`, looked up for GSK's brigade gray): it keeps its place
    // this once, no Disbanded event, still Finished. The card goes face
    // up to the discard pile (11.2, B134). 2NYA stands in 0304 unharmed
    // and the Union's activation goes on.
    let mut g = screen();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 3);
    let e = step_next_to_gsk(&mut g, 1);
    assert_eq!(played(&e), vec![(Side::Confederacy, 3)]);
    assert!(g.now.hands[CSA].is_empty());
    assert_eq!(g.now.discard, vec![3]);
    assert!(!g.now.deck.contains(&3));
    assert!(disbanded(&e).is_empty());
    assert_eq!(place(&g, "GSK"), Place::Map(hex("0305")));
    assert!(finished(&g, "GSK"));
    assert_eq!(place(&g, "2NYA"), Place::Map(hex("0304")));
    assert!(!disrupted(&g, "2NYA"));
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
}

#[test]
fn without_the_card_or_the_instruction_the_skirmisher_fires_then_disbands() {
    // B137, B5, B6: CARDS defaults to NEVER; a brigade's own instruction
    // beats its side's; an instruction for another brigade (reserve, or the
    // mover's blue) does nothing for gray's skirmisher. GSK fires point
    // blank as above (1 die, cap 1), then disbands to gray's display (9.14,
    // 6.151); card 3 stays in the hand. With CARDS CSA AUTO alone (gray has
    // no instruction of its own) the card plays and GSK stays.
    let cases: Vec<(Vec<&str>, bool)> = vec![
        (vec![], false),
        (vec!["CARDS gray NEVER"], false),
        (vec!["CARDS CSA AUTO", "CARDS gray NEVER"], false),
        (vec!["CARDS reserve AUTO"], false),
        (vec!["CARDS blue AUTO"], false),
        (vec!["CARDS CSA AUTO"], true),
    ];
    for (given, stays) in cases {
        let mut g = screen();
        for text in &given {
            order(&mut g, text).unwrap();
        }
        give(&mut g, CSA, 3);
        let e = step_next_to_gsk(&mut g, 1);
        if stays {
            assert_eq!(played(&e), vec![(Side::Confederacy, 3)], "{given:?}");
            assert!(disbanded(&e).is_empty(), "{given:?}");
            assert_eq!(place(&g, "GSK"), Place::Map(hex("0305")), "{given:?}");
            assert_eq!(g.now.discard, vec![3], "{given:?}");
        } else {
            assert!(played(&e).is_empty(), "{given:?}");
            assert_eq!(disbanded(&e), vec!["GSK".to_string()], "{given:?}");
            assert_eq!(place(&g, "GSK"), Place::Display, "{given:?}");
            assert_eq!(g.now.hands[CSA], vec![3], "{given:?}");
            assert!(g.now.discard.is_empty(), "{given:?}");
        }
    }
}

#[test]
fn the_lowest_ignore_disband_card_plays_and_cards_of_other_forms_are_passed_over() {
    // B144, B137: the lowest card whose entry has the form the moment
    // needs. Hands as given, the card played, what is left:
    // - 5 then 3: both ignore-disband, 3 is lower;
    // - 2, 4, 5: deployer-stays-ready 2 has not the form, no-effect 4 is
    //   never played (11.12, B123): 5;
    // - 2 then 4: nothing fits: GSK disbands, both stay.
    // None of them has `max-hits`, so GSK's fire keeps its cap of 1.
    let cases = [
        (vec![5u8, 3], Some(3u8), vec![5u8]),
        (vec![2, 4, 5], Some(5), vec![2, 4]),
        (vec![2, 4], None, vec![2, 4]),
    ];
    for (hand, card, left) in cases {
        let mut g = screen();
        order(&mut g, "CARDS gray AUTO").unwrap();
        for &c in &hand {
            give(&mut g, CSA, c);
        }
        let e = step_next_to_gsk(&mut g, 1);
        let expect: Vec<(Side, u8)> = card.map(|c| (Side::Confederacy, c)).into_iter().collect();
        assert_eq!(played(&e), expect, "{hand:?}");
        assert_eq!(g.now.hands[CSA], left, "{hand:?}");
        let stands = if card.is_some() {
            Place::Map(hex("0305"))
        } else {
            Place::Display
        };
        assert_eq!(place(&g, "GSK"), stands, "{hand:?}");
    }
}

#[test]
fn the_card_keeps_the_skirmisher_once_and_only_when_an_enemy_comes_next_to_it() {
    // B144: "it keeps its place this once"; each form acts only where it
    // changes something.
    // (1) 2NYA steps 0302-0303: 0303 is 2 hexes from GSK at 0305, not next
    //     to it: no point blank fire (6.151), no disbanding, no card.
    // (2) 2NYA steps 0303-0304, next to GSK: GSK fires (roll 1), card 3
    //     keeps it in 0305.
    // (3) 2NYB (named next, 2NYA's activation ends) steps 0404-0405, next
    //     to 0305: another enemy unit enters a hex next to GSK, which fires
    //     point blank again (6.151: "any time an enemy unit enters a hex
    //     adjacent to it"; B72's limit to one fire is for 6.15's fire at a
    //     unit leaving) and would disband again (9.14): holding 5, it
    //     stays again; holding nothing more, it disbands now.
    for second in [true, false] {
        let mut g = field();
        only(&mut g, &[("2NYA", "0302"), ("2NYB", "0404")]);
        unit_mut(&mut g, "GSK").place = Place::Map(hex("0305"));
        unit_mut(&mut g, "GSK").finished = true;
        activating(&mut g, "blue");
        order(&mut g, "CARDS gray AUTO").unwrap();
        give(&mut g, CSA, 3);
        if second {
            give(&mut g, CSA, 5);
        }
        let e = order(&mut g, "2NYA MOVE 0303").unwrap();
        assert!(fires(&e).is_empty(), "two hexes off");
        assert!(played(&e).is_empty(), "two hexes off");
        assert!(disbanded(&e).is_empty(), "two hexes off");
        assert_eq!(dice_waiting(&g), None);
        assert_eq!(g.now.hands[CSA].first(), Some(&3));

        let e = step_next_to_gsk(&mut g, 1);
        assert_eq!(played(&e), vec![(Side::Confederacy, 3)], "{second}");
        assert_eq!(place(&g, "GSK"), Place::Map(hex("0305")), "{second}");

        let mut e = order(&mut g, "2NYB MOVE 0405").unwrap();
        assert_eq!(
            fires(&e),
            vec![fire("GSK", "0405", FireType::PointBlank, 1, 1)],
            "{second}"
        );
        e.extend(roll(&mut g, "1"));
        assert_eq!(dice_waiting(&g), None, "{second}");
        if second {
            assert_eq!(played(&e), vec![(Side::Confederacy, 5)]);
            assert!(disbanded(&e).is_empty());
            assert_eq!(place(&g, "GSK"), Place::Map(hex("0305")));
            assert_eq!(g.now.discard, vec![3, 5]);
        } else {
            assert!(played(&e).is_empty());
            assert_eq!(disbanded(&e), vec!["GSK".to_string()]);
            assert_eq!(place(&g, "GSK"), Place::Display);
            assert_eq!(g.now.discard, vec![3]);
        }
        assert!(g.now.hands[CSA].is_empty(), "{second}");
    }
}

#[test]
fn a_union_skirmisher_is_kept_by_the_union_s_card_for_its_own_brigade() {
    // B144: the window is looked up for the skirmisher's brigade. Gray
    // activating: 1VA steps 0306-0305, next to BSK (blue, Finished) at
    // 0304. BSK fires point blank (1 die, cap 1; 6.151), rolled 1. Under
    // CARDS blue AUTO the Union plays card 3 and BSK stays in 0304; under
    // CARDS horse AUTO (another Union brigade) nothing is played, BSK
    // disbands to blue's display and card 3 stays. No other blue unit is
    // on the map, so there is no opportunity fire (BSK is Finished).
    for (scope, stays) in [("blue", true), ("horse", false)] {
        let mut g = field();
        only(&mut g, &[("1VA", "0306")]);
        unit_mut(&mut g, "BSK").place = Place::Map(hex("0304"));
        unit_mut(&mut g, "BSK").finished = true;
        activating(&mut g, "gray");
        order(&mut g, &format!("CARDS {scope} AUTO")).unwrap();
        give(&mut g, USA, 3);
        let mut e = order(&mut g, "1VA MOVE 0305").unwrap();
        assert_eq!(
            fires(&e),
            vec![fire("BSK", "0305", FireType::PointBlank, 1, 1)],
            "{scope}"
        );
        e.extend(roll(&mut g, "1"));
        assert_eq!(dice_waiting(&g), None, "{scope}");
        assert_eq!(place(&g, "1VA"), Place::Map(hex("0305")), "{scope}");
        if stays {
            assert_eq!(played(&e), vec![(Side::Union, 3)]);
            assert_eq!(place(&g, "BSK"), Place::Map(hex("0304")));
            assert_eq!(g.now.discard, vec![3]);
        } else {
            assert!(played(&e).is_empty());
            assert_eq!(place(&g, "BSK"), Place::Display);
            assert_eq!(g.now.hands[USA], vec![3]);
        }
        let p = g.pending().unwrap();
        assert_eq!((p.seat, p.kind), (Seat::South, Decision::Activate));
    }
}

#[test]
fn other_disbanding_causes_are_not_answered() {
    // B144: a hit (9.12), a friendly unit ending in its hex (9.16) and
    // giving it up (5.27) are not answered; blue's CARDS AUTO with card 3
    // (and 5) in hand plays nothing and BSK goes to the display each time.
    //
    // (1) Voluntary: `BSK DISBAND` instead of activating (5.27, 9.14).
    let mut g = field();
    only(&mut g, &[]);
    unit_mut(&mut g, "BSK").place = Place::Map(hex("0304"));
    activating(&mut g, "blue");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 3);
    give(&mut g, USA, 5);
    let e = order(&mut g, "BSK DISBAND").unwrap();
    assert!(played(&e).is_empty());
    assert_eq!(place(&g, "BSK"), Place::Display);
    assert_eq!(g.now.hands[USA], vec![3, 5]);

    // (2) 9.16, B60: 2NYA steps 0204-0304 into BSK's hex and ends its
    //     activation there: BSK disbands.
    let mut g = field();
    only(&mut g, &[("2NYA", "0204")]);
    unit_mut(&mut g, "BSK").place = Place::Map(hex("0304"));
    activating(&mut g, "blue");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 3);
    let mut e = order(&mut g, "2NYA MOVE 0304").unwrap();
    e.extend(order(&mut g, "2NYA DONE").unwrap());
    assert!(played(&e).is_empty());
    assert_eq!(disbanded(&e), vec!["BSK".to_string()]);
    assert_eq!(place(&g, "BSK"), Place::Display);
    assert_eq!(place(&g, "2NYA"), Place::Map(hex("0304")));
    assert_eq!(g.now.hands[USA], vec![3]);

    // (3) A hit (9.12, B80: a skirmisher hit disbands): gray activating,
    //     1VA at 0306 fires at BSK at 0304, 2 hexes off: 4 dice; 6 1 1 1 is
    //     one success; whatever saves BSK has are rolled 1 (no save); the
    //     hit stands and BSK disbands. Blue never retreats (skirmishers may
    //     not anyway, 5.44).
    let mut g = field();
    only(&mut g, &[("1VA", "0306")]);
    unit_mut(&mut g, "BSK").place = Place::Map(hex("0304"));
    activating(&mut g, "gray");
    order(&mut g, "RETREAT blue NEVER").unwrap();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 3);
    let mut e = order(&mut g, "1VA FIRE 0304").unwrap();
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    e.extend(roll(&mut g, "6 1 1 1"));
    settle(&mut g);
    assert!(played(&e).is_empty());
    assert_eq!(place(&g, "BSK"), Place::Display);
    assert_eq!(g.now.hands[USA], vec![3]);
    assert!(g.now.discard.is_empty());
}

// ----- max-hits (6.13, 6.131, B144) -----------------------------------

#[test]
fn a_max_hits_card_raises_a_skirmisher_s_own_fire_cap_to_two() {
    // B144, 11.3 on 9-10: BSK (blue, ready) at 0304 fires at 1VA at 0306,
    // 2 hexes off (range 3, 6.2), in blue's activation: standing fire
    // (6.11), 1 die on 5-6 (6.0, 1.7). Its cap is 1 (6.131); card 1's
    // `max-hits` 2 is more, so blue's CARDS AUTO plays it as the fire is
    // declared: the Fire event's cap is 2, and so is the attack's. 1VA has
    // no save against skirmisher standing fire (6.132; gray never
    // retreats): a 6 is one hit, which unforms formed 1VA (6.52, B80). BSK
    // is Finished (6.11).
    let mut g = field();
    only(&mut g, &[("1VA", "0306")]);
    unit_mut(&mut g, "BSK").place = Place::Map(hex("0304"));
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 1);
    let e = order(&mut g, "BSK FIRE 0306").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 1)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![1]);
    assert_eq!(
        fires(&e),
        vec![fire("BSK", "0306", FireType::Standing, 1, 2)]
    );
    assert_eq!(g.now.fire.as_ref().map(|f| f.cap), Some(2));
    assert_eq!(dice_waiting(&g), Some(6));
    roll(&mut g, "6");
    assert_eq!(dice_waiting(&g), None, "no saves (6.132)");
    let v = g.unit(id(&g, "1VA"));
    assert_eq!(v.face, Face::Back);
    assert!(!v.disrupted, "one hit only");
    assert!(finished(&g, "BSK"));
    assert_eq!(place(&g, "BSK"), Place::Map(hex("0304")));
}

#[test]
fn no_higher_cap_without_the_max_hits_card_or_the_instruction() {
    // B144, B137: the same fire keeps its cap of 1 (6.131) when blue is
    // under CARDS NEVER (the default) holding card 1, under another Union
    // brigade's instruction (horse), or under CARDS blue AUTO holding only
    // cards without `max-hits` (2 deploy, 3 and 5 ignore-disband, 4 no
    // effect). Nothing is played; the hand is unchanged.
    let cases: Vec<(Vec<&str>, Vec<u8>)> = vec![
        (vec![], vec![1]),
        (vec!["CARDS horse AUTO"], vec![1]),
        (vec!["CARDS USA AUTO", "CARDS blue NEVER"], vec![1]),
        (vec!["CARDS blue AUTO"], vec![2, 3, 4, 5]),
    ];
    for (given, hand) in cases {
        let mut g = field();
        only(&mut g, &[("1VA", "0306")]);
        unit_mut(&mut g, "BSK").place = Place::Map(hex("0304"));
        activating(&mut g, "blue");
        order(&mut g, "RETREAT gray NEVER").unwrap();
        for text in &given {
            order(&mut g, text).unwrap();
        }
        for &c in &hand {
            give(&mut g, USA, c);
        }
        let e = order(&mut g, "BSK FIRE 0306").unwrap();
        assert!(played(&e).is_empty(), "{given:?}");
        assert_eq!(
            fires(&e),
            vec![fire("BSK", "0306", FireType::Standing, 1, 1)],
            "{given:?}"
        );
        assert_eq!(g.now.hands[USA], hand, "{given:?}");
        assert!(g.now.discard.is_empty(), "{given:?}");
    }
}

#[test]
fn the_max_hits_card_raises_a_point_blank_fire_but_does_not_stop_the_disbanding() {
    // B144: `max-hits` acts "when it fires, in its own activation or point
    // blank". GSK's point blank fire at 2NYA stepping into 0304 is declared
    // with cap 2 (card 1 played by gray's CARDS AUTO); rolled 1. The card
    // has no `ignore-disband`: GSK then disbands to the display (9.14,
    // 6.151), as without it.
    let mut g = screen();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 1);
    let e = step_next_to_gsk(&mut g, 2);
    assert_eq!(played(&e), vec![(Side::Confederacy, 1)]);
    assert_eq!(g.now.discard, vec![1]);
    assert_eq!(disbanded(&e), vec!["GSK".to_string()]);
    assert_eq!(place(&g, "GSK"), Place::Display);
}

#[test]
fn the_max_hits_card_is_never_played_for_the_disbanding() {
    // B144: only the `ignore-disband` form answers the disbanding. Gray's
    // POINTBLANK NEVER (B5: the setting answers 6.151 too) keeps GSK from
    // firing as 2NYA steps into 0304: no fire, no dice; GSK, next to an
    // enemy, disbands at once (9.14, B10 (3)).
    // - Holding 1 (max-hits): no fire to raise, and the card has not the
    //   form for the disbanding: nothing is played, GSK goes to the
    //   display, 1 stays.
    // - Holding 1 then 3: 1 is lower but has not the form: 3 plays, GSK
    //   stays in 0305, 1 stays in the hand.
    for (hand, card, left) in [
        (vec![1u8], None, vec![1u8]),
        (vec![1, 3], Some(3u8), vec![1]),
    ] {
        let mut g = screen();
        order(&mut g, "POINTBLANK gray NEVER").unwrap();
        order(&mut g, "CARDS gray AUTO").unwrap();
        for &c in &hand {
            give(&mut g, CSA, c);
        }
        let e = order(&mut g, "2NYA MOVE 0304").unwrap();
        assert!(fires(&e).is_empty(), "{hand:?}");
        assert_eq!(dice_waiting(&g), None, "{hand:?}");
        let expect: Vec<(Side, u8)> = card.map(|c| (Side::Confederacy, c)).into_iter().collect();
        assert_eq!(played(&e), expect, "{hand:?}");
        assert_eq!(g.now.hands[CSA], left, "{hand:?}");
        if card.is_some() {
            assert!(disbanded(&e).is_empty(), "{hand:?}");
            assert_eq!(place(&g, "GSK"), Place::Map(hex("0305")), "{hand:?}");
        } else {
            assert_eq!(disbanded(&e), vec!["GSK".to_string()], "{hand:?}");
            assert_eq!(place(&g, "GSK"), Place::Display, "{hand:?}");
        }
    }
}

#[test]
fn the_fire_and_the_disbanding_are_two_moments_each_with_its_own_card() {
    // B144, B137 (one card per window and event): holding 1 (max-hits)
    // and 3 (ignore-disband), GSK's point blank fire plays 1 (cap 2) and
    // its disbanding after the fire plays 3: GSK stays in 0305. Both go to
    // the discard pile; the order between them is not asserted (B10 puts
    // the disbanding after the fire, but the card that answers it could be
    // shown as the enemy steps in).
    let mut g = screen();
    order(&mut g, "CARDS gray AUTO").unwrap();
    give(&mut g, CSA, 1);
    give(&mut g, CSA, 3);
    let e = step_next_to_gsk(&mut g, 2);
    let cards: Vec<u8> = played(&e)
        .into_iter()
        .map(|(s, c)| {
            assert_eq!(s, Side::Confederacy);
            c
        })
        .collect();
    assert_eq!(sorted(cards), vec![1, 3]);
    assert!(g.now.hands[CSA].is_empty());
    assert_eq!(sorted(g.now.discard.clone()), vec![1, 3]);
    assert!(disbanded(&e).is_empty());
    assert_eq!(place(&g, "GSK"), Place::Map(hex("0305")));
}

// ----- deployer-stays-ready (9.13, B58, B144) ---------------------------

#[test]
fn a_deployer_stays_ready_card_leaves_the_deploying_unit_unfinished_but_done() {
    // B144, B58, 9.13: 1NY (blue, formed infantry, in command, no enemy on
    // the map) deploys BSK in 0204. Blue's CARDS AUTO plays card 2 (window
    // `skirmisher`, looked up for BSK's brigade blue): 1NY is not Finished.
    // BSK comes from the display to 0204, active with its full rating: it
    // steps 0204-0205 and ends its activation alone there (9.14, 5.32).
    // 1NY's activation is over all the same: it may not act again (5.1,
    // B144).
    let mut g = field();
    only(&mut g, &[("1NY", "0204")]);
    activating(&mut g, "blue");
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 2);
    let e = order(&mut g, "1NY DEPLOY BSK").unwrap();
    assert_eq!(played(&e), vec![(Side::Union, 2)]);
    assert!(g.now.hands[USA].is_empty());
    assert_eq!(g.now.discard, vec![2]);
    assert!(e.contains(&Event::Deployed {
        skirmisher: "BSK".into(),
        at: hex("0204")
    }));
    assert_eq!(place(&g, "BSK"), Place::Map(hex("0204")));
    assert!(!finished(&g, "1NY"), "B144");
    order(&mut g, "BSK MOVE 0205").unwrap();
    order(&mut g, "BSK DONE").unwrap();
    assert_eq!(place(&g, "BSK"), Place::Map(hex("0205")));
    assert!(!finished(&g, "1NY"));
    assert_eq!(refused(&mut g, "1NY MOVE 0304"), "5.1");
}

#[test]
fn without_the_deploy_card_or_the_instruction_the_deployer_is_finished() {
    // 9.13, B58: the unit that deploys is Finished, unless a card of the
    // `deployer-stays-ready` form is played by the CARDS AUTO that covers
    // the skirmisher's brigade (B144, B137, B6). Cases: the instructions,
    // the deployer and its skirmisher, the hand, the card played, what is
    // left:
    // - none (NEVER by default): 1NY/BSK holding 2: Finished, 2 stays;
    // - CARDS horse AUTO: another brigade's: Finished;
    // - CARDS USA AUTO, CARDS blue NEVER: blue's own beats the side's;
    // - CARDS blue AUTO holding 1, 3, 4, 5: no card of the form: Finished;
    // - CARDS USA AUTO holding 5 then 2: 2 plays, 1NY not Finished;
    // - cavalry (9.13): 1CAV deploys HSK (horse) under CARDS blue AUTO:
    //   Finished; under CARDS horse AUTO: 2 plays, 1CAV not Finished.
    type Case<'a> = (Vec<&'a str>, &'a str, &'a str, Vec<u8>, Option<u8>, Vec<u8>);
    let cases: Vec<Case> = vec![
        (vec![], "1NY", "BSK", vec![2], None, vec![2]),
        (
            vec!["CARDS horse AUTO"],
            "1NY",
            "BSK",
            vec![2],
            None,
            vec![2],
        ),
        (
            vec!["CARDS USA AUTO", "CARDS blue NEVER"],
            "1NY",
            "BSK",
            vec![2],
            None,
            vec![2],
        ),
        (
            vec!["CARDS blue AUTO"],
            "1NY",
            "BSK",
            vec![1, 3, 4, 5],
            None,
            vec![1, 3, 4, 5],
        ),
        (
            vec!["CARDS USA AUTO"],
            "1NY",
            "BSK",
            vec![5, 2],
            Some(2),
            vec![5],
        ),
        (
            vec!["CARDS blue AUTO"],
            "1CAV",
            "HSK",
            vec![2],
            None,
            vec![2],
        ),
        (
            vec!["CARDS horse AUTO"],
            "1CAV",
            "HSK",
            vec![2],
            Some(2),
            vec![],
        ),
    ];
    for (given, unit, sk, hand, card, left) in cases {
        let mut g = field();
        only(&mut g, &[(unit, "0204")]);
        let brigade = if unit == "1NY" { "blue" } else { "horse" };
        activating(&mut g, brigade);
        for text in &given {
            order(&mut g, text).unwrap();
        }
        for &c in &hand {
            give(&mut g, USA, c);
        }
        let e = order(&mut g, &format!("{unit} DEPLOY {sk}")).unwrap();
        let expect: Vec<(Side, u8)> = card.map(|c| (Side::Union, c)).into_iter().collect();
        assert_eq!(played(&e), expect, "{given:?} {unit}");
        assert_eq!(g.now.hands[USA], left, "{given:?} {unit}");
        assert_eq!(place(&g, sk), Place::Map(hex("0204")), "{given:?} {unit}");
        assert_eq!(finished(&g, unit), card.is_none(), "{given:?} {unit}");
    }
}

#[test]
fn the_deployer_left_ready_may_still_make_opportunity_fire() {
    // B144: the deploying unit "does not activate again, 5.1, but it may
    // react". 1NY at 0303 deploys BSK; BSK steps to 0203 and ends its
    // activation there (Finished). Then gray activates and 1VA steps
    // 0306-0305, 2 hexes from 1NY with an open line through empty 0304
    // (BSK is friendly to 1NY and off the line; 6.37 a). 1NY, left ready
    // by card 2, makes the step's opportunity attack (6.12, B69; OPFIRE
    // ALWAYS by default): 4 dice (formed infantry, firepower 4), cap 3
    // (6.5). Without the card 1NY is Finished and BSK (0203-0305 is 3
    // hexes, in range) is Finished too: no fire at all.
    for with_card in [true, false] {
        let mut g = field();
        only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
        activating(&mut g, "blue");
        order(&mut g, "CARDS blue AUTO").unwrap();
        if with_card {
            give(&mut g, USA, 2);
        }
        let e = order(&mut g, "1NY DEPLOY BSK").unwrap();
        assert_eq!(played(&e).len(), usize::from(with_card));
        order(&mut g, "BSK MOVE 0203").unwrap();
        order(&mut g, "BSK DONE").unwrap();
        assert_eq!(finished(&g, "1NY"), !with_card);
        assert!(finished(&g, "BSK"));

        activating(&mut g, "gray");
        let e = order(&mut g, "1VA MOVE 0305").unwrap();
        assert_eq!(place(&g, "1VA"), Place::Map(hex("0305")));
        if with_card {
            assert_eq!(
                fires(&e),
                vec![fire("1NY", "0305", FireType::Opportunity, 4, 3)]
            );
            assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
            roll(&mut g, "1 1 1 1");
            settle(&mut g);
            assert!(finished(&g, "1NY"), "6.12: Finished after its fire");
        } else {
            assert!(fires(&e).is_empty());
            assert_eq!(dice_waiting(&g), None);
        }
    }
}
