//! Fire, reactions, hits, retreats and reserves of Brothers at War (6.x,
//! 8.1x, B5-B10, B64-B105), each worked out by hand on an open field of
//! our own: the test battle's order of battle on an 8 x 6 map of open
//! ground at one level, with a fence between 0504 and 0505 and woods in
//! 0705. The Union rallies at 0101, the Confederacy at 0806.

#[path = "../common/mod.rs"]
mod common;

use common::brothersatwar::{activating, hex, id, only, order, refused, unit_mut, SKIRMISH};
use orderly::games::brothers_at_war::core::combat::{CombatEvent, FireType, SaveLine};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place};
use orderly::games::brothers_at_war::scenario::model::{Face, Side};
use orderly::games::brothers_at_war::scenario::{registry, Scenario};
use orderly::games::{Game, GameOptions};

/// The open field: the test battle with its ground flattened.
fn field() -> BrothersAtWar {
    field_with(SKIRMISH.to_string(), "test-open-field")
}

/// The open field with a Union off-board battery of ours, OBA (range 4),
/// on a card at level 3 firing from a fire point in 0101 numbered 2.
fn field_with_battery() -> BrothersAtWar {
    let text = format!(
        "{SKIRMISH}
[[map.fire_points]]
id = \"FP1\"
at = \"0101\"
range = 2

[[off_board]]
id = \"ridge\"
name = \"Ridge battery (test)\"
side = \"union\"
fire_points = [\"FP1\"]
level = 3

[[unit]]
id = \"OBA\"
name = \"Off-board battery (test)\"
brigade = \"usart\"
kind = \"artillery\"
range = 4
front = {{ firepower = 3, movement = 0 }}
back = {{ firepower = 3, movement = 5 }}
off_board = \"ridge\"
"
    );
    field_with(text, "test-open-field-battery")
}

fn field_with(text: String, id: &str) -> BrothersAtWar {
    let mut s: Scenario = toml::from_str(&text).unwrap();
    s.id = id.into();
    s.map.terrain = (1..=6)
        .map(|r| {
            if r == 5 {
                ". . . . . . w .".to_string()
            } else {
                ". . . . . . . .".to_string()
            }
        })
        .collect();
    s.map.levels = Vec::new();
    s.map.hexsides = vec!["0504 0505 fence".into()];
    let b = registry::register(s).unwrap();
    BrothersAtWar::new(&GameOptions {
        scenario: Some(b.scenario.id.clone()),
        ..GameOptions::default()
    })
}

fn roll(g: &mut BrothersAtWar, dice: &str) -> Vec<Event> {
    order(g, &format!("ROLL {dice}")).unwrap_or_else(|e| panic!("ROLL {dice}: {e}"))
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

/// The fire declared: (kind, dice, face, cap).
fn declared(events: &[Event]) -> (FireType, u8, u8, u8) {
    combat(events)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::Fire {
                kind,
                dice,
                to_hit,
                cap,
                ..
            } => Some((kind, dice, to_hit, cap)),
            _ => None,
        })
        .expect("a fire")
}

/// The save lines of the first save roll, as (reason, rolls).
fn save_lines(events: &[Event]) -> Vec<(String, u8)> {
    combat(events)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::Saves { lines, .. } => Some(
                lines
                    .into_iter()
                    .map(|SaveLine { why, rolls, .. }| (why, rolls))
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default()
}

fn hits(events: &[Event]) -> (u8, u8) {
    combat(events)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::Hits { hits, extra } => Some((hits, extra)),
            _ => None,
        })
        .expect("hits")
}

fn dice_waiting(g: &BrothersAtWar) -> Option<u32> {
    g.chance().map(|c| c.outcomes)
}

#[test]
fn standing_fire_rolls_its_firepower_and_the_target_saves_for_each_hex_between() {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    // 6.0: firepower 4, a 5 or 6 hits, at most 3 hits (6.5).
    assert_eq!(declared(&e), (FireType::Standing, 4, 5, 3));
    assert!(g.unit(id(&g, "1NY")).finished, "6.11");
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let e = roll(&mut g, "6 6 5 1");
    assert!(combat(&e).contains(&CombatEvent::Rolled {
        dice: vec![6, 6, 5, 1],
        successes: 3
    }));
    // B77: one hex between 0304 and 0306; formed, in the open: nothing
    // else.
    assert_eq!(dice_waiting(&g), Some(6));
    let e = roll(&mut g, "6");
    assert_eq!(save_lines(&e), vec![("hex between".to_string(), 1)]);
    assert_eq!(hits(&e), (2, 0));
    // B80: the first hit unforms, the second disrupts.
    let u = g.unit(id(&g, "1VA"));
    assert_eq!(u.face, Face::Back);
    assert!(u.disrupted);
    assert!(dice_waiting(&g).is_none());
}

#[test]
fn the_cap_counts_after_saves_and_a_killing_hit_spends_a_reserve_or_kills() {
    for keep in [false, true] {
        let mut g = field();
        only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
        activating(&mut g, "blue");
        order(&mut g, "RETREAT gray NEVER").unwrap();
        if keep {
            order(&mut g, "RESERVES gray KEEP").unwrap();
        }
        let gray = g.battle.brigade_named("gray").unwrap();
        let before = g.brigade(gray).clone();
        order(&mut g, "1NY FIRE 0306").unwrap();
        roll(&mut g, "6 6 6 6");
        let e = roll(&mut g, "1");
        // B68: 4 successes, no save: capped at 3.
        assert_eq!(hits(&e), (3, 0));
        let after = g.brigade(gray).clone();
        if keep {
            assert_eq!(g.unit(id(&g, "1VA")).place, Place::Eliminated, "6.54");
            assert_eq!(after.casualties, before.casualties + 1, "8.2");
        } else {
            assert!(combat(&e).contains(&CombatEvent::ReserveSpent {
                brigade: "gray".into(),
                unit: "1VA".into()
            }));
            assert_eq!(after.reserve, before.reserve + 1, "8.11");
            assert!(g.unit(id(&g, "1VA")).disrupted);
        }
    }
}

#[test]
fn moving_fire_costs_two_points_after_the_move_and_gives_a_save() {
    let mut g = field();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    order(&mut g, "RETREAT gray NEVER").unwrap();
    order(&mut g, "1NY MOVE 0304").unwrap();
    let e = order(&mut g, "1NY FIRE 0306").unwrap();
    assert_eq!(declared(&e).0, FireType::Moving);
    roll(&mut g, "6 1 1 1");
    let e = roll(&mut g, "1 1");
    assert_eq!(
        save_lines(&e),
        vec![
            ("moving fire".to_string(), 1),
            ("hex between".to_string(), 1)
        ]
    );
    // 1 move point and 2 for the fire; the unit is Finished (6.11).
    assert_eq!(refused(&mut g, "1NY MOVE 0303"), "1.51");
}

#[test]
fn fire_needs_two_points_left() {
    let mut g = field();
    only(&mut g, &[("1NY", "0301"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    // Formed: 4 points; 3 spent leave 1.
    order(&mut g, "1NY MOVE 0302 0303 0304").unwrap();
    assert_eq!(refused(&mut g, "1NY FIRE 0306"), "5.24");
}

#[test]
fn skirmishers_hit_once_at_most_and_their_targets_save_only_for_moving_fire() {
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0307")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0306"));
    activating(&mut g, "gray");
    // 6.134: the sharpshooters reach 4 hexes.
    let e = order(&mut g, "GSK FIRE 0302").unwrap();
    assert_eq!(declared(&e), (FireType::Standing, 1, 5, 1));
    let e = roll(&mut g, "6");
    // B74: three hexes between, yet no save roll.
    assert!(save_lines(&e).is_empty());
    assert_eq!(hits(&e), (1, 0));
    assert_eq!(g.unit(id(&g, "1NY")).face, Face::Back);
}

#[test]
fn fire_turned_onto_a_skirmisher_keeps_the_fire_s_cap_and_the_skirmisher_its_saves() {
    // 6.361, B29: 1NY (0301) fires at 1VA (0304); the line passes 0302, in
    // the zone of GSK (0303), 1VA's brigade's skirmisher: the fire falls on
    // GSK instead, 2 hexes away. 6.5: it is still a fire attack, capped at
    // 3 (the 1-hit cap of 6.131 is for fire by skirmishers); 6.6: GSK saves
    // for the hex between and for being a skirmisher (B77, B79; the short
    // list of 6.132 is for targets of skirmisher fire). The mail says so
    // where the fire turns, with the one hit that disbands it (6.541).
    let mut g = field();
    only(&mut g, &[("1NY", "0301"), ("1VA", "0304")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0303"));
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY FIRE 0304").unwrap();
    assert_eq!(declared(&e), (FireType::Standing, 4, 5, 3));
    let turned = e
        .iter()
        .find(|x| matches!(x, Event::Combat(CombatEvent::Shielded { .. })))
        .expect("6.361");
    let said =
        orderly::games::brothers_at_war::text::event::words(turned, orderly::games::Seat::North);
    for part in [
        "falls on the skirmisher in 0303",
        "6.131",
        "6.132",
        "are for fire by skirmishers",
        "one hit disbands it (6.541)",
    ] {
        assert!(said.contains(part), "{part}: {said}");
    }
    roll(&mut g, "6 6 6 1");
    let e = roll(&mut g, "1 1");
    assert_eq!(
        save_lines(&e),
        vec![
            ("hex between".to_string(), 1),
            ("loose formation or Disrupted".to_string(), 1)
        ]
    );
    assert_eq!(hits(&e), (3, 0));
    assert_eq!(g.unit(id(&g, "GSK")).place, Place::Display, "6.541");
    assert_eq!(g.unit(id(&g, "1VA")).face, Face::Front, "1VA untouched");
}

#[test]
fn infantry_reaches_three_hexes_only() {
    let mut g = field();
    only(&mut g, &[("1NY", "0302"), ("1VA", "0306")]);
    activating(&mut g, "gray");
    assert_eq!(refused(&mut g, "1VA FIRE 0302"), "6.2");
    assert_eq!(refused(&mut g, "1VA FIRE 0305"), "6.0");
}

#[test]
fn artillery_gains_a_die_at_close_range_and_gives_no_save_for_distance() {
    let mut g = field();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0306")]);
    activating(&mut g, "usart");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    let e = order(&mut g, "BAT FIRE 0306").unwrap();
    // 6.16: firepower 3 + 1 at 2 hexes; B56: deployed, it fires free.
    assert_eq!(declared(&e), (FireType::Standing, 4, 5, 3));
    let e = roll(&mut g, "6 6 6 6");
    // 6.6 item 2: no save for the hex between against artillery.
    assert!(save_lines(&e).is_empty());
    assert_eq!(hits(&e), (3, 0));
}

#[test]
fn artillery_beyond_its_printed_range_hits_on_a_six_without_the_close_die() {
    let mut g = field();
    only(&mut g, &[("BAT", "0301"), ("1VA", "0306")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "BAT FIRE 0306").unwrap();
    // Printed range 4, 5 hexes: long range (B67).
    assert_eq!(declared(&e), (FireType::Standing, 3, 6, 3));
}

#[test]
fn artillery_does_not_fire_at_skirmishers_nor_limbered() {
    let mut g = field();
    only(&mut g, &[("BAT", "0304")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0306"));
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "BAT FIRE 0306"), "6.135");
    let mut g = field();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0306")]);
    unit_mut(&mut g, "BAT").face = Face::Back;
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "BAT FIRE 0306"), "B56");
}

#[test]
fn pass_through_fire_adds_a_die_for_the_units_behind() {
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0305"), ("2VA", "0306")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY FIRE 0305").unwrap();
    // 6.4, B75: 2VA stands in the hex behind 1VA on the line.
    assert_eq!(declared(&e).1, 5);
}

#[test]
fn two_formed_regiments_side_by_side_combine_their_fire() {
    let mut g = field();
    only(
        &mut g,
        &[("1NY", "0304"), ("2NYA", "0404"), ("1VA", "0306")],
    );
    activating(&mut g, "blue");
    // 6.141 A: 2NYA is unformed.
    assert_eq!(refused(&mut g, "1NY 2NYA FIRE 0306"), "6.14");
    unit_mut(&mut g, "2NYA").face = Face::Front;
    order(&mut g, "RETREAT gray NEVER").unwrap();
    let e = order(&mut g, "1NY 2NYA FIRE 0306").unwrap();
    assert_eq!(declared(&e).1, 4 + 3);
    assert!(g.unit(id(&g, "2NYA")).finished, "6.141 D");
    roll(&mut g, "6 1 1 1 1 1 1");
    let e = roll(&mut g, "1 1");
    // 6.14: the longer range, 3 from 0404, gives 2 hexes between.
    assert_eq!(save_lines(&e), vec![("hexes between".to_string(), 2)]);
    assert_eq!(refused(&mut g, "2NYA MOVE 0405"), "1.51");
}

#[test]
fn opportunity_fire_strikes_after_a_step_and_sets_the_rest_of_the_move_aside() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0302"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "2NYA MOVE 0303 0304").unwrap();
    // B69: 0303 is 3 hexes from 1VA; it fires at once.
    assert_eq!(declared(&e), (FireType::Opportunity, 4, 5, 3));
    assert!(combat(&e).contains(&CombatEvent::SetAside {
        path: vec![hex("0304")]
    }));
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0303")));
    assert!(g.unit(id(&g, "1VA")).finished, "6.12");
    roll(&mut g, "1 1 1 1");
    // No hit: the mover goes on (6.12).
    order(&mut g, "2NYA MOVE 0304").unwrap();
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0304")));

    let mut g = field();
    only(&mut g, &[("2NYA", "0302"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    let e = order(&mut g, "2NYA MOVE 0303 0304").unwrap();
    assert!(combat(&e)
        .iter()
        .all(|c| !matches!(c, CombatEvent::Fire { .. })));
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0304")));
}

#[test]
fn a_unit_about_to_die_retreats_two_hexes_towards_its_rally_point_for_a_save() {
    let mut g = field();
    // 2VA is Disrupted by the scenario: one hit kills it (B95).
    only(&mut g, &[("1NY", "0602"), ("2VA", "0604")]);
    activating(&mut g, "blue");
    order(&mut g, "1NY FIRE 0604").unwrap();
    roll(&mut g, "6 1 1 1");
    // Saves: 1 hex between, 1 Disrupted, 1 retreat.
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)));
    let e = roll(&mut g, "1 1 1");
    assert_eq!(
        save_lines(&e),
        vec![
            ("hex between".to_string(), 1),
            ("loose formation or Disrupted".to_string(), 1),
            ("retreat".to_string(), 1)
        ]
    );
    // Steps nearer 0806 from 0604: 0605 or 0704, then 0705 (or 0805 from
    // 0704); every end is 4 from 1NY, none next to it: the lowest hexes
    // win (B92).
    assert!(combat(&e).contains(&CombatEvent::Retreated {
        units: vec!["2VA".into()],
        path: vec![hex("0605"), hex("0705")]
    }));
    assert_eq!(hits(&e), (1, 0));
    // The killing hit is cancelled by a reserve (8.11); 6.77: Finished.
    assert!(combat(&e)
        .iter()
        .any(|c| matches!(c, CombatEvent::ReserveSpent { .. })));
    assert_eq!(g.hex_of(id(&g, "2VA")), Some(hex("0705")));
    assert!(g.unit(id(&g, "2VA")).finished);
}

#[test]
fn divisional_artillery_is_saved_by_a_brigade_with_a_unit_two_hexes_away() {
    for near in [true, false] {
        let mut g = field();
        let friend = if near { "0104" } else { "0101" };
        only(&mut g, &[("BAT", "0304"), ("1NY", friend), ("1VA", "0306")]);
        unit_mut(&mut g, "BAT").disrupted = true;
        activating(&mut g, "gray");
        order(&mut g, "RETREAT USA NEVER").unwrap();
        order(&mut g, "1VA FIRE 0304").unwrap();
        roll(&mut g, "6 1 1 1");
        let e = roll(&mut g, "1 1");
        assert_eq!(hits(&e), (1, 0));
        let spent = combat(&e).contains(&CombatEvent::ReserveSpent {
            brigade: "blue".into(),
            unit: "BAT".into(),
        });
        assert_eq!(spent, near, "8.12");
        let place = g.unit(id(&g, "BAT")).place;
        assert_eq!(place == Place::Eliminated, !near);
    }
}

#[test]
fn standing_instructions_are_orders_for_a_brigade_or_a_side() {
    let mut g = field();
    activating(&mut g, "blue");
    let e = order(&mut g, "LOSSES gray STRONGEST").unwrap();
    assert!(combat(&e).contains(&CombatEvent::Instruction {
        scope: "gray".into(),
        setting: "LOSSES STRONGEST".into()
    }));
    order(&mut g, "PATHS CSA AUTO").unwrap();
    assert_eq!(refused(&mut g, "EVADE nobody ALWAYS"), "3.1");
    assert_eq!(g.now.instructions.given.len(), 2);
}

fn assault_won(events: &[Event]) -> (Side, u8, u8) {
    combat(events)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::AssaultWon {
                winner,
                attacker_hits,
                defender_hits,
            } => Some((winner, attacker_hits, defender_hits)),
            _ => None,
        })
        .expect("an assault's result")
}

#[test]
fn an_assault_rolls_both_sides_and_the_loser_retreats_without_saves() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert!(combat(&e).contains(&CombatEvent::Assault {
        attackers: vec!["2NYA".into()],
        hex: hex("0305"),
        attack_dice: 3,
        defend_dice: 4
    }));
    // The attacker's 3 dice (unformed: 5+), then the defender's 4 (formed:
    // +1, so 4+, 7.11).
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)));
    roll(&mut g, "6 6 5");
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let e = roll(&mut g, "4 1 1 1");
    assert_eq!(assault_won(&e), (Side::Union, 1, 3));
    // 7.12: 1VA retreats 2 hexes nearer 0806; 2NYA takes the hex.
    let at = g.hex_of(id(&g, "1VA")).expect("1VA survives on a reserve");
    assert_eq!(at.distance(hex("0305")), 2);
    assert!(at.distance(hex("0806")) < hex("0305").distance(hex("0806")));
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0305")));
    // No saves: 2NYA's one hit disrupts it; every participant is Finished.
    assert!(g.unit(id(&g, "2NYA")).disrupted);
    assert!(g.unit(id(&g, "2NYA")).finished && g.unit(id(&g, "1VA")).finished);
    assert!(save_lines(&e).is_empty());
}

#[test]
fn the_defender_wins_a_tied_assault_and_the_attacker_falls_back_from_its_own_hex() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "6 1 1");
    let e = roll(&mut g, "4 1 1 1");
    assert_eq!(assault_won(&e), (Side::Confederacy, 1, 1));
    let at = g.hex_of(id(&g, "2NYA")).unwrap();
    assert_eq!(at.distance(hex("0304")), 2, "6.71 from 0304");
    assert!(at.distance(hex("0101")) < hex("0304").distance(hex("0101")));
    assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex("0305")));
}

#[test]
fn a_loser_that_cannot_retreat_is_eliminated() {
    let mut g = field();
    // 0806 is the Confederate rally point: no retreat out of it (6.732 c).
    only(&mut g, &[("2NYA", "0805"), ("1VA", "0806")]);
    activating(&mut g, "blue");
    let gray = g.battle.brigade_named("gray").unwrap();
    let before = g.brigade(gray).clone();
    order(&mut g, "2NYA MOVE 0806").unwrap();
    roll(&mut g, "6 6 1");
    let e = roll(&mut g, "1 1 1 1");
    assert_eq!(assault_won(&e), (Side::Union, 0, 2));
    assert_eq!(g.unit(id(&g, "1VA")).place, Place::Eliminated, "B94");
    assert_eq!(g.brigade(gray).casualties, before.casualties + 1, "8.2");
    assert!(
        !combat(&e)
            .iter()
            .any(|c| matches!(c, CombatEvent::ReserveSpent { .. })),
        "not a hit: no reserve"
    );
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0806")));
}

#[test]
fn a_defender_told_to_evade_retreats_before_the_dice_and_the_attacker_goes_on() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "EVADE gray ALWAYS").unwrap();
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert!(combat(&e).contains(&CombatEvent::Evaded {
        units: vec!["1VA".into()]
    }));
    assert!(dice_waiting(&g).is_none(), "7.3: no dice");
    assert!(g.unit(id(&g, "1VA")).finished, "7.31");
    assert!(!g.unit(id(&g, "1VA")).disrupted);
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0305")));
    assert!(!g.unit(id(&g, "2NYA")).finished);
    // 1 point for the assault step of 5: it may go on.
    order(&mut g, "2NYA MOVE 0306").unwrap();
}

#[test]
fn a_disrupted_defender_that_evades_takes_a_hit() {
    let mut g = field();
    // 2VA is Disrupted by the scenario (7.33).
    only(&mut g, &[("2NYA", "0304"), ("2VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "EVADE gray ALWAYS").unwrap();
    order(&mut g, "RESERVES gray KEEP").unwrap();
    order(&mut g, "2NYA MOVE 0305").unwrap();
    assert_eq!(g.unit(id(&g, "2VA")).place, Place::Eliminated);
}

#[test]
fn artillery_disrupted_units_and_formed_infantry_into_woods_do_not_assault() {
    let mut g = field();
    only(&mut g, &[("BAT", "0304"), ("1VA", "0305")]);
    unit_mut(&mut g, "BAT").face = Face::Back;
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "BAT MOVE 0305"), "7.1");
    let mut g = field();
    only(&mut g, &[("1NY", "0605"), ("2VA", "0705")]);
    activating(&mut g, "blue");
    // 0705 is woods; 1NY is formed.
    assert_eq!(refused(&mut g, "1NY MOVE 0705"), "7.2");
    let mut g = field();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    unit_mut(&mut g, "2NYA").disrupted = true;
    activating(&mut g, "blue");
    assert_eq!(refused(&mut g, "2NYA MOVE 0305"), "B96");
}

#[test]
fn a_unit_fires_only_where_it_may_end_its_activation() {
    let mut g = field();
    only(
        &mut g,
        &[("2NYA", "0303"), ("BAT", "0304"), ("1VA", "0306")],
    );
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    // 0304 holds artillery of another brigade (5.32).
    order(&mut g, "2NYA MOVE 0304").unwrap();
    assert_eq!(refused(&mut g, "2NYA FIRE 0306"), "5.32");
}

#[test]
fn a_unit_leaving_a_hex_it_entered_next_to_the_enemy_draws_point_blank_fire() {
    for disrupted in [false, true] {
        let mut g = field();
        only(&mut g, &[("2NYA", "0303"), ("1VA", "0305")]);
        unit_mut(&mut g, "1VA").disrupted = disrupted;
        activating(&mut g, "blue");
        order(&mut g, "OPFIRE gray NEVER").unwrap();
        // Leaving 0303, where it began, draws nothing; 0304 is next to 1VA.
        let e = order(&mut g, "2NYA MOVE 0304 0404").unwrap();
        assert_eq!(declared(&e), (FireType::PointBlank, 4, 5, 3));
        assert!(combat(&e).contains(&CombatEvent::SetAside {
            path: vec![hex("0404")]
        }));
        assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0304")));
        // B72: ready, it is Finished; Disrupted, it is left as it was.
        assert_eq!(g.unit(id(&g, "1VA")).finished, !disrupted);
        roll(&mut g, "1 1 1 1");
        // 1VA has fired: the step goes ahead.
        let e = order(&mut g, "2NYA MOVE 0404").unwrap();
        assert!(combat(&e).is_empty());
        assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0404")));
    }
    let mut g = field();
    only(&mut g, &[("2NYA", "0303"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    order(&mut g, "POINTBLANK gray NEVER").unwrap();
    order(&mut g, "2NYA MOVE 0304 0404").unwrap();
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0404")));
}

/// B7, B70, B151: under `OPFIRE ... ASK` the move stops after the step
/// and the reactor is asked; the rest of the path waits for his answer:
/// declined, the move goes on as written; fired, it is set aside (B9).
#[test]
fn opfire_ask_stops_the_move_and_asks_the_reactor_who_may_decline() {
    use orderly::games::brothers_at_war::engine::Decision;
    use orderly::games::{Phase, Seat};
    for fire in [false, true] {
        let mut g = field();
        only(&mut g, &[("2NYA", "0302"), ("1VA", "0306")]);
        activating(&mut g, "blue");
        order(&mut g, "OPFIRE gray ASK").unwrap();
        let e = order(&mut g, "2NYA MOVE 0303 0304").unwrap();
        assert!(combat(&e).contains(&CombatEvent::Waits {
            path: vec![hex("0304")]
        }));
        assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0303")));
        let p = g.pending().expect("B7: the engine asks");
        assert_eq!(
            (p.seat, p.phase, p.kind),
            (Seat::South, Phase::Reaction, Decision::Reaction)
        );
        let listed: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
        assert_eq!(listed, vec!["PASS", "1VA FIRE 0303"]);
        assert_eq!(refused(&mut g, "1VA FIRE 0302"), "B69");
        if fire {
            let e = order(&mut g, "1VA FIRE 0303").unwrap();
            assert_eq!(declared(&e).0, FireType::Opportunity);
            assert!(combat(&e).contains(&CombatEvent::SetAside {
                path: vec![hex("0304")]
            }));
            assert!(dice_waiting(&g).is_some());
            assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0303")));
        } else {
            let e = order(&mut g, "PASS").unwrap();
            assert!(combat(&e).contains(&CombatEvent::GoesOn {
                path: vec![hex("0304")]
            }));
            // The step to 0304 is taken: 2NYA stands there, and 1VA is
            // asked again after that step (6.12); declined again, the
            // activation is the mover's.
            assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0304")));
            assert_eq!(g.pending().unwrap().kind, Decision::Reaction);
            let e = order(&mut g, "PASS").unwrap();
            assert!(combat(&e).is_empty(), "{e:?}");
            assert_eq!(g.pending().unwrap().kind, Decision::Activate);
            assert!(!g.unit(id(&g, "1VA")).finished);
        }
        assert!(g.now.activation.as_ref().unwrap().resume.is_none());
    }
}

#[test]
fn with_no_reserve_left_a_disbanded_skirmisher_is_given_up_to_save_a_unit() {
    let mut g = field();
    // 2VA is Disrupted; gray's marker is on EXHAUSTED (4), no casualty;
    // its skirmisher GSK waits on the display.
    only(&mut g, &[("1NY", "0304"), ("2VA", "0306")]);
    let gray = g.battle.brigade_named("gray").unwrap();
    g.now.brigades[gray.index()].reserve = 4;
    g.now.brigades[gray.index()].exhausted = true;
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    order(&mut g, "1NY FIRE 0306").unwrap();
    roll(&mut g, "6 1 1 1");
    roll(&mut g, "1 1");
    // B104: GSK becomes a casualty, a reserve comes back and is spent.
    assert_eq!(g.unit(id(&g, "GSK")).place, Place::Eliminated);
    assert_eq!(g.brigade(gray).casualties, 1);
    assert_eq!(g.brigade(gray).reserve, 4);
    assert!(g.hex_of(id(&g, "2VA")).is_some());
}

#[test]
fn a_skirmisher_fires_point_blank_at_a_unit_stepping_next_to_it_then_disbands() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0303"), ("1VA", "0306")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0305"));
    unit_mut(&mut g, "GSK").finished = true;
    activating(&mut g, "blue");
    let e = order(&mut g, "2NYA MOVE 0304 0404").unwrap();
    // B73: whatever its status, GSK fires (1 die, 1 hit at most) before it
    // disbands (B10); the rest of the move waits.
    assert_eq!(declared(&e), (FireType::PointBlank, 1, 5, 1));
    let fired = e
        .iter()
        .position(|x| matches!(x, Event::Combat(CombatEvent::Fire { .. })))
        .unwrap();
    let gone = e
        .iter()
        .position(|x| matches!(x, Event::Disbanded { skirmisher } if skirmisher == "GSK"))
        .unwrap();
    assert!(fired < gone);
    assert_eq!(g.unit(id(&g, "GSK")).place, Place::Display);
    assert!(combat(&e).contains(&CombatEvent::SetAside {
        path: vec![hex("0404")]
    }));
    // Then the step's opportunity attack: 1VA, 2 hexes off (B10 (5)).
    let e = roll(&mut g, "1");
    assert_eq!(declared(&e), (FireType::Opportunity, 4, 5, 3));
}

#[test]
fn a_retreat_goes_round_a_friendly_stack_it_would_overstack() {
    let mut g = field();
    // As in the retreat above, but 0605 holds two friendly units: passing
    // them would disrupt both (B59), so 0704-0705 is taken, not 0605-0705
    // (B92). They stand behind 2VA on the line: pass-through, 5 dice.
    only(
        &mut g,
        &[
            ("1NY", "0602"),
            ("2VA", "0604"),
            ("1VA", "0605"),
            ("4VA", "0605"),
        ],
    );
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY FIRE 0604").unwrap();
    assert_eq!(declared(&e).1, 5);
    roll(&mut g, "6 1 1 1 1");
    let e = roll(&mut g, "1 1 1");
    assert!(combat(&e).contains(&CombatEvent::Retreated {
        units: vec!["2VA".into()],
        path: vec![hex("0704"), hex("0705")]
    }));
    assert!(!g.unit(id(&g, "1VA")).disrupted);
}

#[test]
fn an_off_board_battery_fires_from_its_fire_point_counting_its_number() {
    let mut g = field_with_battery();
    only(&mut g, &[("1VA", "0304")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "OBA FIRE 0304").unwrap();
    // 9.41: 3 hexes from 0101 plus 2: 5, beyond the printed 4: long range,
    // no close die (B67).
    assert_eq!(declared(&e), (FireType::Standing, 3, 6, 3));
    assert!(g.unit(id(&g, "OBA")).finished);
    roll(&mut g, "6 1 1");
    assert_eq!(refused(&mut g, "OBA FIRE 0304"), "5.1");
}

#[test]
fn a_brigade_broken_during_its_own_activation_ends_it() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0302"), ("1VA", "0304")]);
    unit_mut(&mut g, "2NYA").disrupted = true;
    // Blue breaks at its second casualty (dark 2).
    let blue = g.battle.brigade_named("blue").unwrap();
    g.now.brigades[blue.index()].casualties = 1;
    g.now.brigades[blue.index()].reserve = 1;
    activating(&mut g, "blue");
    order(&mut g, "RESERVES blue KEEP").unwrap();
    order(&mut g, "RETREAT blue NEVER").unwrap();
    // Disrupted, it draws back: 0402 is 3 hexes from 1VA, 0302 is 2.
    order(&mut g, "2NYA MOVE 0402").unwrap();
    roll(&mut g, "6 1 1 1");
    let e = roll(&mut g, "1 1 1");
    assert_eq!(hits(&e), (1, 0));
    assert!(g.brigade(blue).broken, "8.3");
    assert!(g.now.activation.is_none(), "B107");
}

#[test]
fn combined_artillery_rolls_each_gun_at_its_own_range_band() {
    let text = format!(
        "{SKIRMISH}
[[unit]]
id = \"BAT2\"
name = \"Short battery (test)\"
brigade = \"usart\"
kind = \"artillery\"
range = 2
front = {{ firepower = 3, movement = 0 }}
back = {{ firepower = 3, movement = 5 }}
at = \"0303\"
"
    );
    let mut g = field_with(text, "test-open-field-guns");
    only(
        &mut g,
        &[("BAT", "0303"), ("BAT2", "0303"), ("1VA", "0306")],
    );
    activating(&mut g, "usart");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    // A stack of two batteries 3 hexes off: BAT (range 4) close, 4 dice at
    // 5+; BAT2 (range 2) close and long, 4 dice at 6+ (B67).
    let e = order(&mut g, "BAT BAT2 FIRE 0306").unwrap();
    assert_eq!(declared(&e).1, 8);
    let e = roll(&mut g, "5 5 5 5 5 5 5 5");
    assert!(combat(&e).contains(&CombatEvent::Rolled {
        dice: vec![5; 8],
        successes: 4
    }));
}

#[test]
fn retreat_ask_offers_the_legal_paths_and_takes_the_one_chosen() {
    use orderly::games::brothers_at_war::engine::Decision;
    use orderly::games::{Phase, Seat};
    let mut g = field();
    // As the retreat above: from 0604, 2-hex paths towards 0806.
    only(&mut g, &[("1NY", "0602"), ("2VA", "0604")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ASK").unwrap();
    order(&mut g, "1NY FIRE 0604").unwrap();
    roll(&mut g, "6 1 1 1");
    let p = g.pending().expect("B7: the defender is asked");
    assert_eq!(
        (p.seat, p.phase, p.kind),
        (Seat::South, Phase::Reaction, Decision::Reaction)
    );
    let listed: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
    assert_eq!(
        listed,
        vec![
            "PASS",
            "RETREAT 0605 0705",
            "RETREAT 0704 0705",
            "RETREAT 0704 0805"
        ]
    );
    // Toward the firer: no nearer a rally point (6.732 f, B145).
    assert_eq!(refused(&mut g, "RETREAT 0603 0602"), "6.732");
    order(&mut g, "RETREAT 0704 0805").unwrap();
    // 1 between, 1 Disrupted, 1 retreat.
    let e = roll(&mut g, "1 1 1");
    assert!(combat(&e).contains(&CombatEvent::Retreated {
        units: vec!["2VA".into()],
        path: vec![hex("0704"), hex("0805")]
    }));
}

#[test]
fn evade_ask_lets_the_defender_choose_a_path_or_stand_and_roll() {
    for stand in [false, true] {
        let mut g = field();
        only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
        activating(&mut g, "blue");
        order(&mut g, "EVADE gray ASK").unwrap();
        order(&mut g, "2NYA MOVE 0305").unwrap();
        assert!(dice_waiting(&g).is_none(), "B7: no dice while asked");
        let listed: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
        assert_eq!(listed[0], "PASS");
        assert!(listed.len() > 1, "{listed:?}");
        if stand {
            order(&mut g, "PASS").unwrap();
            assert_eq!(dice_waiting(&g), Some(6u32.pow(3)), "7.1: the dice");
        } else {
            let path = listed[1].clone();
            order(&mut g, &path).unwrap();
            let to: Vec<&str> = path.split(' ').skip(1).collect();
            assert_eq!(g.hex_of(id(&g, "1VA")), Some(hex(to[to.len() - 1])));
            assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0305")), "7.3");
            assert!(!g.unit(id(&g, "2NYA")).finished);
            assert!(g.unit(id(&g, "1VA")).finished, "7.31");
        }
    }
}

#[test]
fn pointblank_ask_offers_the_fire_and_a_declined_one_is_not_offered_again() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0303"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    order(&mut g, "POINTBLANK gray ASK").unwrap();
    order(&mut g, "2NYA MOVE 0304 0404").unwrap();
    let listed: Vec<String> = g.legal_orders().iter().map(|o| o.to_string()).collect();
    assert_eq!(listed, vec!["PASS", "1VA FIRE 0304"]);
    order(&mut g, "PASS").unwrap();
    assert!(!g.unit(id(&g, "1VA")).finished);
    order(&mut g, "2NYA MOVE 0404").unwrap();
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0404")));
}

#[test]
fn a_commander_whose_units_are_lost_is_displaced_from_the_hex_taken() {
    let mut g = field();
    only(&mut g, &[("2NYA", "0805"), ("1VA", "0806")]);
    let gray = g.battle.brigade_named("gray").unwrap();
    g.now.brigades[gray.index()].commander = Some(hex("0806"));
    activating(&mut g, "blue");
    order(&mut g, "2NYA MOVE 0806").unwrap();
    roll(&mut g, "6 6 1");
    let e = roll(&mut g, "1 1 1 1");
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0806")));
    // B101, 4.12: he never stops the attacker; he moves away.
    assert!(e.iter().any(|x| matches!(x, Event::Displaced { .. })));
    assert_ne!(g.brigade(gray).commander, Some(hex("0806")));
}

#[test]
fn cavalry_may_retreat_four_hexes_for_two_saves() {
    let mut g = field();
    // 1CAV sets up mounted (its back face).
    only(&mut g, &[("1CAV", "0404"), ("1VA", "0406")]);
    activating(&mut g, "gray");
    order(&mut g, "RETREAT horse IFKILLED LONG").unwrap();
    order(&mut g, "1VA FIRE 0404").unwrap();
    // Two hits would kill an Undisrupted unit that is not formed (B95).
    roll(&mut g, "6 6 1 1");
    let e = roll(&mut g, "1 1 1");
    assert_eq!(
        save_lines(&e),
        vec![
            ("hex between".to_string(), 1),
            ("long retreat".to_string(), 2)
        ]
    );
    let path = combat(&e)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::Retreated { path, .. } => Some(path),
            _ => None,
        })
        .expect("a retreat");
    // 6.72: four hexes, each nearer the Union rally point 0101.
    assert_eq!(path.len(), 4);
    let mut at = hex("0404");
    for h in path {
        assert_eq!(h.distance(hex("0101")) + 1, at.distance(hex("0101")));
        at = h;
    }
}

#[test]
fn a_player_sets_instructions_for_his_own_brigades_only() {
    use orderly::games::CitesRule;
    let mut g = field();
    only(&mut g, &[("1NY", "0304"), ("1VA", "0306")]);
    activating(&mut g, "blue");
    // B5: a mail's orders are its writer's, the Union's here: he may not
    // set the Confederate brigades' reactions.
    for text in [
        "OPFIRE gray NEVER",
        "RETREAT CSA ALWAYS",
        "RESERVES gray KEEP",
    ] {
        let o = g.parse_order(text).unwrap();
        let before = g.position();
        let r = g.apply(&o).expect_err(text);
        assert_eq!(r.rule().0, "B5", "{text}");
        assert_eq!(g.position(), before, "{text}");
    }
    let own = g.parse_order("OPFIRE blue NEVER").unwrap();
    g.apply(&own).unwrap();
    // The owner writing while the other player decides is heard (B5, B8),
    // and only for his own brigades.
    let theirs = g.parse_order("OPFIRE gray NEVER").unwrap();
    assert!(g.apply_standing(Side::Union, &theirs).is_err());
    g.apply_standing(Side::Confederacy, &theirs).unwrap();
    assert_eq!(g.decider(), Some(Side::Union), "the Union still decides");
}

#[test]
fn an_enemy_skirmisher_fires_point_blank_at_an_assaults_winner_as_it_enters() {
    // B73 (6.151): a skirmisher fires point blank whenever an enemy unit
    // ends a move action or an assault advance next to it; then it
    // disbands (9.14). GSK stands next to 0305 but not next to 0304.
    let probe = field();
    let by = probe
        .battle
        .map
        .neighbours(hex("0305"))
        .find(|&h| h != hex("0304") && !h.is_neighbour(hex("0304")))
        .expect("a hex next to 0305 only");
    let mut g = field();
    let spot = by.to_string();
    only(
        &mut g,
        &[("2NYA", "0304"), ("1VA", "0305"), ("GSK", spot.as_str())],
    );
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray NEVER").unwrap();
    order(&mut g, "2NYA MOVE 0305").unwrap();
    roll(&mut g, "6 6 5");
    let e = roll(&mut g, "4 1 1 1");
    assert_eq!(assault_won(&e).0, Side::Union);
    assert_eq!(g.hex_of(id(&g, "2NYA")), Some(hex("0305")));
    let fire = combat(&e).into_iter().find_map(|c| match c {
        CombatEvent::Fire {
            firers,
            target,
            kind,
            ..
        } => Some((firers, target, kind)),
        _ => None,
    });
    assert_eq!(
        fire,
        Some((vec!["GSK".to_string()], hex("0305"), FireType::PointBlank)),
        "{e:?}"
    );
    assert_eq!(g.hex_of(id(&g, "GSK")), None, "9.14: it disbands");
    assert!(dice_waiting(&g).is_some(), "its dice are rolled next");
}

/// B7, B145: a retreat asked (RETREAT ASK) is answered in words as people
/// write them: `stand`, `hold fast`, `no` say PASS; a path told with words
/// before its hexes (`retreat over the bridge to 0704, 0805`) is that
/// path; a line not understood repeats the question and its answers, not
/// the orders of an activation.
#[test]
fn a_retreat_asked_is_answered_in_words() {
    use orderly::games::GameText;
    let mut g = field();
    only(&mut g, &[("1NY", "0602"), ("2VA", "0604")]);
    activating(&mut g, "blue");
    order(&mut g, "RETREAT gray ASK").unwrap();
    order(&mut g, "1NY FIRE 0604").unwrap();
    roll(&mut g, "6 1 1 1");
    assert!(g.now.reaction.is_some(), "the defender is asked");
    for line in [
        "stand",
        "Stand!",
        "hold fast",
        "we stand and fight",
        "no",
        "no retreat, thanks",
    ] {
        let o = g.read_order(line).unwrap_or_else(|r| panic!("{line}: {r}"));
        assert_eq!(o.to_string(), "PASS", "{line}");
    }
    for line in [
        "retreat over the bridge to 0704, 0805",
        "retreat to 0704 then 0805 please",
    ] {
        let o = g.read_order(line).unwrap_or_else(|r| panic!("{line}: {r}"));
        assert_eq!(o.to_string(), "RETREAT 0704 0805", "{line}");
    }
    // "retreat" alone says no PASS; a word that changes the answer is
    // never skipped.
    assert!(g.read_order("retreat").is_err());
    assert!(g
        .read_order("retreat unless they charge to 0704 0805")
        .is_err());
    let r = g.read_order("hmm, what now").unwrap_err();
    assert!(r.problem.contains("RETREAT ASK"), "{r}");
    assert!(!r.problem.contains("MOVE"), "{r}");
    assert!(r.suggestions.iter().any(|s| s == "PASS"), "{r}");
    assert!(
        r.suggestions.iter().any(|s| s.starts_with("RETREAT ")),
        "{r}"
    );
}
