#[path = "../common/mod.rs"]
mod common;

// What a new player met in the demo battle by mail, each as a class: a
// `firing` card offered and taken where no unit could use it (B123, B128,
// B142), a unit gone from the map refused for having "already activated",
// a cancelled retreat said to cancel every save (11.3 on 27-28), and
// questions and lines that do not say enough (the retreat for a save,
// the card after hits, the discard, the checks' numbers, out of command,
// a skirmisher given up, a deployed battery's free fire, the
// fire-then-assault's second line).
//
// The ground: the test battle's order of battle on its 8 x 6 map made open
// and level everywhere (as in brothers_at_war_card_attacks.rs): every step
// costs 1 and every line of sight is open. 0304 touches 0305 and 0303;
// 0306 is two hexes from 0304. 2NYA (blue) is unformed infantry, 5 points,
// 3 fire dice; 1NY (blue) formed, 4 points, 4 dice; 1VA (gray) formed.
// Fire costs 2 points (5.24), an assault step 1 here (B52, B96).

use common::brothers_at_war_decks::{
    deck_text, dice_waiting, give, open_field_with_deck, roll, CSA, USA,
};
use common::brothersatwar::{activating, id, only, order, refused, unit_mut};
use orderly::games::brothers_at_war::core::event::{Event, Fate};
use orderly::games::brothers_at_war::core::order::Order;
use orderly::games::brothers_at_war::core::question::Question;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, CheckKind, Place, Step};
use orderly::games::brothers_at_war::scenario::model::Side;
use orderly::games::{CitesRule, GameText, Seat};

const DECK: &str = r#"
[[card]]
numbers = [1]
name = "Fire and close (test)"
timing = "firing"
effect = "fire-then-assault"
text = "Ours: your active unit fires, then assaults the hex it fired at."

[[card]]
numbers = [2]
name = "Short barrels (test)"
timing = "firing"
effect = "extra-fire-dice-with-risk"
params = { dice = 1, unit = "any", risk-face = 1, max-range = 1 }
text = "Ours: a unit fires one die more at a hex next to it; an extra 1 hits it."

[[card]]
numbers = [3]
name = "Stubborn (test)"
timing = "retreat"
effect = "cancel-retreat"
text = "Ours: a retreat for saves does not happen; its saves are lost."

[[card]]
numbers = [4]
name = "Dead ground (test)"
timing = "after-hits"
effect = "extra-saves-after-hits"
params = { saves = 2 }
text = "Ours: your unit hit by enemy fire rolls two saves more."

[[card]]
numbers = [5, 6, 7, 8]
name = "Letters home (test)"
timing = "none"
effect = "no-effect"
text = "Ours: no effect."
"#;

fn field() -> BrothersAtWar {
    open_field_with_deck(DECK, "test-wording", true)
}

fn plays(g: &BrothersAtWar, card: u8) -> Vec<Option<String>> {
    g.legal()
        .into_iter()
        .filter_map(|o| match o {
            Order::Play { card: c, on } if c == card => Some(on),
            _ => None,
        })
        .collect()
}

fn effects(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter(|e| matches!(e, Event::CardEffect { .. }))
        .map(ToString::to_string)
        .collect()
}

#[test]
fn the_wording_deck_passes_the_scenario_check() {
    let problems = orderly::games::brothers_at_war::scenario::check(&deck_text(DECK, true));
    assert!(problems.is_empty(), "{problems:#?}");
}

// ----- 1. a firing card only where a unit could use it now (B123) -----

#[test]
fn fire_then_assault_is_neither_offered_nor_taken_with_no_enemy_next_to_the_unit() {
    // B142, B128, B123: 1VA at 0306 is two hexes from 2NYA: no hex 2NYA
    // could fire at and then assault. The card is not offered, and its
    // PLAY is refused at the PLAY line (B123), the card kept in the hand.
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    assert!(plays(&g, 1).is_empty(), "{:?}", plays(&g, 1));
    assert_eq!(refused(&mut g, "PLAY 1 ON 2NYA"), "B123");
    assert_eq!(g.now.hands[USA], vec![1], "the card is kept");
    assert!(g.now.discard.is_empty());
    let why = order(&mut g, "PLAY 1 ON 2NYA").unwrap_err().to_string();
    assert!(why.contains("no enemy stands next to it"), "{why}");
    assert!(!g.choices(Seat::North).contains("PLAY 1"));

    // Next to the enemy, it is offered and taken.
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    assert_eq!(plays(&g, 1), vec![Some("2NYA".to_string())]);
    order(&mut g, "PLAY 1 ON 2NYA").unwrap();
    assert_eq!(g.now.discard, vec![1]);
}

#[test]
fn fire_then_assault_is_refused_at_the_play_line_when_no_point_would_be_left_to_assault() {
    // B142: 1NY (4 points) steps 0302-0303-0304 (2): a fire (2) would
    // leave 0 for the assault step (1). Before the fix the PLAY was taken
    // and only the FIRE refused, the card spent.
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    give(&mut g, USA, 1);
    order(&mut g, "1NY MOVE 0303 0304").unwrap();
    assert!(plays(&g, 1).is_empty());
    assert_eq!(refused(&mut g, "PLAY 1 ON 1NY"), "B123");
    assert_eq!(g.now.hands[USA], vec![1]);
}

#[test]
fn extra_fire_dice_are_not_offered_where_every_target_is_beyond_the_cards_range() {
    // B125: the card's dice reach 1 hex (max-range); 1VA is 2 hexes off:
    // no fire of 1NY with the card would be taken, so the card is neither
    // offered nor taken (B123). At 0305 it is.
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 2);
    assert!(plays(&g, 2).is_empty());
    assert_eq!(refused(&mut g, "PLAY 2 ON 1NY"), "B123");
    assert_eq!(g.now.hands[USA], vec![2]);

    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 2);
    assert_eq!(plays(&g, 2), vec![Some("1NY".to_string())]);
}

#[test]
fn the_fire_then_assault_play_line_says_the_assault_is_written() {
    // B142: after the fire the player writes the assault himself.
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    give(&mut g, USA, 1);
    let e = order(&mut g, "PLAY 1 ON 2NYA").unwrap();
    let said = effects(&e).join("\n");
    assert!(
        said.contains("write 2NYA FIRE 0305, then 2NYA MOVE 0305"),
        "{said}"
    );
}

// ----- 2. a unit gone from the map is refused for that ----------------

#[test]
fn a_skirmisher_disbanded_mid_activation_is_refused_as_gone_not_as_already_activated() {
    // 9.14: BSK, deployed and active, was disbanded by a reaction's hit and
    // is back on its display; its next line is refused for that, citing
    // 9.14, and the suggestions are what blue's other units can do.
    let mut g = field();
    only(&mut g, &[("BSK", "0304"), ("1NY", "0202"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    let bsk = id(&g, "BSK");
    unit_mut(&mut g, "BSK").place = Place::Display;
    let a = g.now.activation.as_mut().unwrap();
    a.acted.push(bsk);
    a.disbanded.push(bsk);
    assert_eq!(refused(&mut g, "BSK FIRE 0306"), "9.14");
    assert_eq!(refused(&mut g, "BSK MOVE 0305"), "9.14");
    let why = order(&mut g, "BSK FIRE 0306").unwrap_err().to_string();
    assert!(why.contains("no longer on the map"), "{why}");
    assert!(!why.contains("already activated"), "{why}");
    let r = g.read_order("BSK FIRE 0306").unwrap_err();
    assert_eq!(r.rule.map(|x| x.0), Some("9.14"));
    assert!(!r.suggestions.is_empty());
    assert!(
        r.suggestions.iter().all(|s| !s.contains("BSK")),
        "{:?}",
        r.suggestions
    );
    assert!(
        r.suggestions.iter().any(|s| s.starts_with("1NY ")),
        "{:?}",
        r.suggestions
    );
}

#[test]
fn an_eliminated_unit_is_refused_as_eliminated() {
    let mut g = field();
    only(
        &mut g,
        &[("1NY", "0202"), ("2NYA", "0304"), ("1VA", "0306")],
    );
    activating(&mut g, "blue");
    let nya = id(&g, "2NYA");
    unit_mut(&mut g, "2NYA").place = Place::Eliminated;
    g.now.activation.as_mut().unwrap().acted.push(nya);
    assert_eq!(refused(&mut g, "2NYA MOVE 0303"), "6.54");
    let why = order(&mut g, "2NYA MOVE 0303").unwrap_err();
    assert!(why.to_string().contains("eliminated"), "{why}");
    assert_eq!(why.rule().0, "6.54");
}

// ----- 3. a cancelled retreat loses only its own save (11.3 on 27-28) --

#[test]
fn a_cancelled_retreat_says_only_its_save_is_lost_and_the_others_are_rolled() {
    // 1NY fires at 1VA two hexes off (1 save for the hex between, 6.6);
    // gray retreats for a save (RETREAT ALWAYS: 1 more); blue's card
    // cancels the retreat: its save is lost, the hex's save is rolled.
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ALWAYS").unwrap();
    order(&mut g, "CARDS blue AUTO").unwrap();
    give(&mut g, USA, 3);
    order(&mut g, "1NY FIRE 0306").unwrap();
    let e = roll(&mut g, "6 1 1 1");
    let said = effects(&e).join("\n");
    assert!(said.contains("card 3:"), "{said}");
    assert!(!said.contains("its saves are cancelled"), "{said}");
    assert!(
        said.contains("loses the 1 save its retreat would have given"),
        "{said}"
    );
    assert!(said.contains("its other saves are rolled"), "{said}");
    assert_eq!(dice_waiting(&g), Some(6), "the hex's save is rolled");
}

// ----- 4. questions and lines that say enough --------------------------

#[test]
fn the_retreat_question_names_the_units_the_hex_and_the_hits() {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ASK").unwrap();
    order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "6 6 1 1");
    let asked = g.choices(Seat::South).replace('\n', " ");
    let asked = asked.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(asked.contains("RETREAT ASK"), "{asked}");
    assert!(
        asked.contains("1NY's fire at 0306 scored 2 hits on your 1VA"),
        "{asked}"
    );
    assert!(
        asked.contains("standing, you roll 1 save; retreating, 2 saves"),
        "{asked}"
    );
}

#[test]
fn the_card_question_after_hits_says_how_many() {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    order(&mut g, "CARDS gray ASK").unwrap();
    give(&mut g, CSA, 4);
    order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "6 1 1 1");
    let about = match g.now.reaction.as_ref().and_then(|r| r.question.clone()) {
        Some(Question::Card { about, .. }) => about,
        other => panic!("{other:?}"),
    };
    assert!(about.contains("scored 1 hit on your 1VA"), "{about}");
    assert!(
        about.contains("1 save to roll, 1 more if it retreats"),
        "{about}"
    );
}

#[test]
fn the_discard_question_has_a_head_line() {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    common::brothersatwar::quiet(&mut g);
    for c in [5, 6, 7] {
        give(&mut g, USA, c);
    }
    g.now.step = Step::EndDiscard(Side::Union);
    let size = g.hand_size(Side::Union);
    assert_eq!(size, 2, "the test battle's");
    let asked = g.choices(Seat::North).replace('\n', " ");
    let asked = asked.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        asked.starts_with("You hold 3 cards and your hand size is 2: discard one"),
        "{asked}"
    );
    assert!(!asked.starts_with("Or:"), "{asked}");
    assert!(asked.contains("DISCARD 5"), "{asked}");
}

#[test]
fn checks_say_the_number_they_need() {
    let rally = Event::Checked {
        kind: CheckKind::Rally,
        units: vec!["11N".into()],
        die: 1,
        bonus: 1,
        success: false,
    };
    assert_eq!(
        rally.to_string(),
        "11N rally check: 1+1 = 2, needs 5 or more (1.73) - failed"
    );
    let command = Event::Checked {
        kind: CheckKind::Command,
        units: vec!["CW3".into()],
        die: 4,
        bonus: 0,
        success: false,
    };
    assert_eq!(
        command.to_string(),
        "CW3 command check: 4, needs 5 or more (1.73) - failed"
    );
    let fate = Event::FateChecked {
        brigade: "hale".into(),
        die: 5,
        bonus: 0,
        fate: Fate::Exhausted,
    }
    .to_string();
    assert!(
        fate.contains("1-3 breaks, 4-5 stays exhausted, 6 or more regroups (2.33)"),
        "{fate}"
    );
}

#[test]
fn an_out_of_command_unit_is_shown_so_with_why_its_moves_are_few() {
    let mut g = field();
    only(&mut g, &[("1NY", "0202"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    unit_mut(&mut g, "1NY").out_of_command = true;
    for text in [g.choices(Seat::North), g.choices_from("1NY").unwrap()] {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("1NY is out of command (4.3"), "{flat}");
        assert!(flat.contains("a move disrupts it first"), "{flat}");
    }
}

#[test]
fn giving_up_a_skirmisher_says_it_lays_a_casualty_too() {
    let e = Event::SkirmisherGivenUp {
        unit: "HSK".into(),
        brigade: "hale".into(),
        saving: None,
    }
    .to_string();
    assert!(e.contains("casualty"), "{e}");
    assert!(e.contains("hale recovers a reserve"), "{e}");
}

#[test]
fn a_deployed_batterys_first_fire_is_listed_free() {
    // 5.24, 5.42, B56: artillery that began its activation deployed fires
    // once at no cost.
    let mut g = field();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0306")]);
    activating(&mut g, "usart");
    let asked = g.choices(Seat::North);
    let flat = asked.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("FIRE 0306 (0 MP (it began deployed, 5.42)"),
        "{flat}"
    );
    assert!(!flat.contains("FIRE 0306 (2 MP"), "{flat}");
}
