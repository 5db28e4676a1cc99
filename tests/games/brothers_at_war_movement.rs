//! Movement and activation rules of Brothers at War (5.x, 4.3, 6.531,
//! 9.1x), each worked out by hand on the small test battle of our own
//! (tests/data/brothersatwar/skirmish.toml: 8 x 6 hexes; a road down
//! column 04 then east to 0606, fords across the run on 0402-0403-0404,
//! woods, a marsh at 0604, a fenced rise at 0505 and 0605).

#[path = "../common/mod.rs"]
mod common;

use common::brothersatwar::{activating, game, hex, id, only, order, refused, unit_mut};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use orderly::games::brothers_at_war::scenario::model::Face;

fn spent(g: &BrothersAtWar) -> u8 {
    g.now
        .activation
        .as_ref()
        .and_then(|a| a.group.as_ref())
        .map_or(0, |g| g.spent)
}

fn cost_of(events: &[Event]) -> u8 {
    events
        .iter()
        .map(|e| match e {
            Event::Moved { cost, .. } => *cost,
            _ => 0,
        })
        .sum()
}

#[test]
fn entering_woods_costs_unformed_infantry_two_and_formed_infantry_may_not() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("1NY", "0104")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "2NYA MOVE 0205").unwrap();
    assert_eq!(cost_of(&e), 2, "5.21: 1 + 1 for woods");
    // 1NY is formed: woods only along a road or trail (5.41).
    assert_eq!(refused(&mut g, "1NY MOVE 0205"), "5.41");
}

#[test]
fn a_road_makes_any_hex_cost_one_and_lets_formed_infantry_into_woods() {
    let mut g = game();
    only(&mut g, &[("1NY", "0402")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY MOVE 0401").unwrap();
    assert_eq!(cost_of(&e), 1, "5.211");
}

#[test]
fn river_hexes_are_entered_across_fords_only() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0302"), ("2NYB", "0402")]);
    activating(&mut g, "blue");
    assert_eq!(refused(&mut g, "2NYA MOVE 0303"), "5.213");
    assert_eq!(
        refused(&mut g, "2NYA MOVE 0403"),
        "5.213",
        "no ford on 0302-0403"
    );
    let e = order(&mut g, "2NYB MOVE 0403 0404").unwrap();
    assert_eq!(cost_of(&e), 2, "along the road over both fords");
}

#[test]
fn a_fence_and_a_rise_add_to_the_cost() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0504")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "2NYA MOVE 0505").unwrap();
    assert_eq!(cost_of(&e), 3, "1 + fence 1 + upslope 1");
    assert_eq!(spent(&g), 3);
    // Two points left of 5: the 1-point step back down is fine, then 1 left.
    order(&mut g, "2NYA MOVE 0504").unwrap();
    assert_eq!(refused(&mut g, "2NYA MOVE 0505"), "5.2");
}

#[test]
fn road_march_adds_a_point_for_a_whole_activation_on_the_road() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0401")]);
    activating(&mut g, "blue");
    // Unformed, 5 points: six road hexes with road march (5.212).
    order(&mut g, "2NYA MOVE 0402 0403 0404 0405 0406 0506").unwrap();
    assert_eq!(spent(&g), 6);
    assert_eq!(refused(&mut g, "2NYA MOVE 0606"), "5.2");
}

#[test]
fn formed_infantry_has_no_road_march_and_leaving_the_road_ends_it() {
    let mut g = game();
    only(&mut g, &[("1NY", "0401"), ("2NYA", "0404")]);
    activating(&mut g, "blue");
    order(&mut g, "1NY MOVE 0402 0403 0404").unwrap();
    order(&mut g, "1NY MOVE 0405").unwrap();
    assert_eq!(
        refused(&mut g, "1NY MOVE 0406"),
        "5.2",
        "formed: 4 points only"
    );
    let mut g = game();
    only(&mut g, &[("2NYA", "0404")]);
    activating(&mut g, "blue");
    // Off the road after 4 road hexes: 5 points in all, not 6.
    order(&mut g, "2NYA MOVE 0405 0406 0506 0606").unwrap();
    assert_eq!(refused(&mut g, "2NYA MOVE 0705 0704"), "5.2");
}

#[test]
fn road_march_may_not_take_a_unit_next_to_an_enemy() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0401"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    // Movement alone: the enemy holds its opportunity fire (B5).
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    order(&mut g, "POINTBLANK CSA NEVER").unwrap();
    // 0405 is next to 1VA: entering it drops road march, and the sixth
    // point is gone.
    order(&mut g, "2NYA MOVE 0402 0403 0404 0405 0406").unwrap();
    assert_eq!(refused(&mut g, "2NYA MOVE 0506"), "5.2");
}

#[test]
fn changing_formation_limits_the_points_left_as_5_221_shows() {
    // Mounted (8): three hexes, then dismount (4): Finished.
    let mut g = game();
    only(&mut g, &[("1CAV", "0601")]);
    activating(&mut g, "horse");
    order(&mut g, "1CAV MOVE 0602 0702 0701").unwrap();
    let e = order(&mut g, "1CAV FORM").unwrap();
    assert!(e.contains(&Event::Ended {
        units: vec!["1CAV".into()],
        finished: true
    }));
    assert_eq!(g.unit(id(&g, "1CAV")).face, Face::Front);
    // Dismounted (4): two hexes, then mount (8): four points left.
    let mut g = game();
    only(&mut g, &[("1CAV", "0601")]);
    unit_mut(&mut g, "1CAV").face = Face::Front;
    activating(&mut g, "horse");
    order(&mut g, "1CAV MOVE 0602 0702").unwrap();
    order(&mut g, "1CAV FORM").unwrap();
    order(&mut g, "1CAV MOVE 0701 0801 0802 0702").unwrap();
    assert_eq!(spent(&g), 8);
    assert_eq!(refused(&mut g, "1CAV MOVE 0602"), "5.2");
}

#[test]
fn artillery_limbers_first_and_is_finished_once_deployed() {
    let mut g = game();
    only(&mut g, &[("BAT", "0204")]);
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "BAT MOVE 0205"), "5.42");
    order(&mut g, "BAT FORM").unwrap();
    assert_eq!(spent(&g), 2, "5.222: limbering costs 2");
    // 5 on the limbered side: three more points.
    assert_eq!(refused(&mut g, "BAT MOVE 0104 0103"), "5.213");
    order(&mut g, "BAT MOVE 0304 0404 0504").unwrap();
    assert_eq!(
        refused(&mut g, "BAT MOVE 0604"),
        "5.21",
        "the marsh is closed to guns"
    );
    assert_eq!(refused(&mut g, "BAT MOVE 0404"), "5.2");
    let mut g = game();
    only(&mut g, &[("BAT", "0204")]);
    unit_mut(&mut g, "BAT").face = Face::Back;
    activating(&mut g, "usart");
    order(&mut g, "BAT MOVE 0304").unwrap();
    let e = order(&mut g, "BAT FORM").unwrap();
    assert!(e
        .iter()
        .any(|e| matches!(e, Event::Ended { finished: true, .. })));
    assert!(g.unit(id(&g, "BAT")).finished);
}

#[test]
fn holding_fire_costs_three_and_leaves_no_finished_marker() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("1NY", "0104")]);
    activating(&mut g, "blue");
    order(&mut g, "2NYA MOVE 0304 0404 0504").unwrap();
    assert_eq!(
        refused(&mut g, "2NYA HOLD"),
        "5.25",
        "5 - 3 = 2 left, 3 needed"
    );
}

#[test]
fn hold_fire_ends_the_activation_unfinished_and_the_unit_cannot_act_again() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("1NY", "0104")]);
    activating(&mut g, "blue");
    order(&mut g, "2NYA MOVE 0304").unwrap();
    order(&mut g, "2NYA HOLD").unwrap();
    assert!(!g.unit(id(&g, "2NYA")).finished);
    assert_eq!(refused(&mut g, "2NYA MOVE 0204"), "5.1");
}

#[test]
fn deploying_a_skirmisher_finishes_the_unit_and_activates_the_skirmisher() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204")]);
    activating(&mut g, "blue");
    assert_eq!(
        refused(&mut g, "1NY DEPLOY HSK"),
        "9.13",
        "another brigade's"
    );
    order(&mut g, "1NY DEPLOY BSK").unwrap();
    assert!(g.unit(id(&g, "1NY")).finished);
    assert_eq!(g.unit(id(&g, "BSK")).place, Place::Map(hex("0204")));
    // 5.32: a skirmisher may not end stacked; in the woods it pays 1 (9.11).
    assert_eq!(refused(&mut g, "BSK DONE"), "5.32");
    let e = order(&mut g, "BSK MOVE 0205").unwrap();
    assert_eq!(cost_of(&e), 1);
    order(&mut g, "BSK DONE").unwrap();
}

#[test]
fn skirmishers_keep_away_from_the_enemy_and_disband_instead_of_activating() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204"), ("1VA", "0206")]);
    activating(&mut g, "blue");
    // Movement alone: the enemy holds its opportunity fire (B5).
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    order(&mut g, "1NY DEPLOY BSK").unwrap();
    assert_eq!(refused(&mut g, "BSK MOVE 0205"), "9.11");
    order(&mut g, "BSK MOVE 0104").unwrap();
    order(&mut g, "BSK DONE").unwrap();
    // Next activation: it disbands, and may not deploy again in it (9.14).
    activating(&mut g, "blue");
    unit_mut(&mut g, "1NY").finished = false;
    unit_mut(&mut g, "BSK").finished = false;
    order(&mut g, "BSK DISBAND").unwrap();
    assert_eq!(g.unit(id(&g, "BSK")).place, Place::Display);
    assert_eq!(refused(&mut g, "1NY DEPLOY BSK"), "9.14");
}

#[test]
fn a_unit_next_to_the_enemy_or_out_of_command_may_not_deploy_skirmishers() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204"), ("1VA", "0205")]);
    activating(&mut g, "blue");
    assert_eq!(refused(&mut g, "1NY DEPLOY BSK"), "9.14");
    let mut g = game();
    only(&mut g, &[("1NY", "0204")]);
    unit_mut(&mut g, "1NY").out_of_command = true;
    activating(&mut g, "blue");
    assert_eq!(refused(&mut g, "1NY DEPLOY BSK"), "4.3");
}

#[test]
fn moving_out_of_command_disrupts_first() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204")]);
    unit_mut(&mut g, "2NYA").out_of_command = true;
    activating(&mut g, "blue");
    // Changing formation is allowed out of command, and does not disrupt.
    order(&mut g, "2NYA FORM").unwrap();
    assert!(!g.unit(id(&g, "2NYA")).disrupted);
    // B49, B81: before the step, a disruption: formed, it also unforms.
    let e = order(&mut g, "2NYA MOVE 0304").unwrap();
    assert!(matches!(e[0], Event::Unformed { .. }));
    assert!(matches!(e[1], Event::Disrupted { .. }));
    assert!(matches!(e[2], Event::Moved { .. }));
    assert!(g.unit(id(&g, "2NYA")).disrupted);
    assert_eq!(g.unit(id(&g, "2NYA")).face, Face::Back);
}

#[test]
fn overstacking_disrupts_the_units_moved_through_unless_a_regiment_counts_as_one() {
    let mut g = game();
    only(
        &mut g,
        &[("1NY", "0204"), ("2NYA", "0204"), ("1CAV", "0104")],
    );
    activating(&mut g, "horse");
    order(&mut g, "1CAV MOVE 0204").unwrap();
    // 5.31, B59, B81: both are Disrupted, and formed infantry unforms.
    assert_eq!(g.unit(id(&g, "1NY")).face, Face::Back);
    assert!(g.unit(id(&g, "1NY")).disrupted);
    assert!(g.unit(id(&g, "2NYA")).disrupted);
    assert!(!g.unit(id(&g, "1CAV")).disrupted);
    // 5.35: the two halves of the 2nd New York count as one unit.
    let mut g = game();
    only(
        &mut g,
        &[("2NYA", "0204"), ("2NYB", "0204"), ("1CAV", "0104")],
    );
    activating(&mut g, "horse");
    order(&mut g, "1CAV MOVE 0204 0304").unwrap();
    assert!(!g.unit(id(&g, "2NYA")).disrupted && !g.unit(id(&g, "2NYB")).disrupted);
}

#[test]
fn units_of_another_brigade_may_pass_but_not_stop() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("1CAV", "0104")]);
    activating(&mut g, "horse");
    order(&mut g, "1CAV MOVE 0204").unwrap();
    assert_eq!(refused(&mut g, "1CAV DONE"), "5.32");
    order(&mut g, "1CAV MOVE 0304").unwrap();
    order(&mut g, "1CAV DONE").unwrap();
}

#[test]
fn a_stack_moves_at_its_slowest_and_pays_the_higher_cost() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204"), ("2NYA", "0204")]);
    activating(&mut g, "blue");
    // 1NY formed (4) with 2NYA unformed (5): 4 points as a stack (5.33).
    order(&mut g, "1NY 2NYA MOVE 0304 0404 0504 0404").unwrap();
    assert_eq!(refused(&mut g, "1NY 2NYA MOVE 0304"), "5.2");
    // Once the stack is done, neither unit activates again (5.1).
    order(&mut g, "1NY 2NYA DONE").unwrap();
    assert_eq!(refused(&mut g, "2NYA MOVE 0304"), "1.51");
}

#[test]
fn disrupted_units_only_move_and_never_closer_to_a_near_enemy() {
    let mut g = game();
    only(&mut g, &[("2VA", "0605"), ("2NYA", "0602")]);
    activating(&mut g, "gray");
    assert_eq!(refused(&mut g, "2VA FORM"), "6.531");
    assert_eq!(refused(&mut g, "2VA MOVE 0604"), "6.531", "closer to 0602");
    order(&mut g, "2VA MOVE 0606").unwrap();
    let mut g = game();
    only(&mut g, &[("2VA", "0605"), ("2NYA", "0803")]);
    activating(&mut g, "gray");
    // 0704 is next to 0803 (and closer): refused either way.
    assert_eq!(refused(&mut g, "2VA MOVE 0704"), "6.531");
}

#[test]
fn entering_an_enemy_hex_is_an_assault() {
    let mut g = game();
    only(
        &mut g,
        &[("2NYA", "0204"), ("1NY", "0104"), ("1VA", "0205")],
    );
    activating(&mut g, "blue");
    // 7.2: formed 1NY may not assault the woods of 0205; unformed 2NYA may.
    assert_eq!(refused(&mut g, "1NY MOVE 0205"), "7.2");
    let e = order(&mut g, "2NYA MOVE 0205").unwrap();
    assert!(matches!(
        e.last(),
        Some(orderly::games::brothers_at_war::core::event::Event::Combat(
            _
        ))
    ));
    assert!(
        g.chance_pending().is_some(),
        "the assault waits for its dice"
    );
}

#[test]
fn a_reinforcement_enters_on_its_turn_at_its_entry_hex_in_command() {
    let mut g = game();
    only(&mut g, &[]);
    unit_mut(&mut g, "3VA").place = Place::Waiting;
    activating(&mut g, "late");
    assert_eq!(refused(&mut g, "3VA MOVE 0406"), "10.1", "due on turn 2");
    g.now.turn = 2;
    assert_eq!(refused(&mut g, "3VA MOVE 0405"), "10.11");
    let e = order(&mut g, "3VA MOVE 0406 0405").unwrap();
    assert_eq!(cost_of(&e), 2);
    assert!(g
        .now
        .activation
        .as_ref()
        .unwrap()
        .entered
        .contains(&id(&g, "3VA")));
    // Its entry hex held by a unit: the nearest open hex instead (10.11).
    let mut g = game();
    only(&mut g, &[("1VA", "0406")]);
    unit_mut(&mut g, "3VA").place = Place::Waiting;
    g.now.turn = 2;
    activating(&mut g, "late");
    let entries = g.entry_hexes(&[id(&g, "3VA")]);
    assert!(!entries.contains(&hex("0406")) && !entries.is_empty());
    assert!(entries.iter().all(|h| h.distance(hex("0406")) == 1));
}

#[test]
fn passing_is_for_a_brigade_that_has_not_activated_a_unit() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204")]);
    activating(&mut g, "blue");
    order(&mut g, "2NYA MOVE 0304").unwrap();
    assert_eq!(refused(&mut g, "PASS"), "3.221");
    order(&mut g, "END").unwrap();
    assert!(matches!(g.now.step, Step::Commander(_)));
    // The commander may not stand in an enemy hex nor a river hex without
    // a ford; he may on a ford (4.11).
    unit_mut(&mut g, "1VA").place = Place::Map(hex("0505"));
    assert_eq!(refused(&mut g, "COMMANDER 0505"), "4.11");
    assert_eq!(refused(&mut g, "COMMANDER 0103"), "4.11");
    order(&mut g, "COMMANDER 0403").unwrap();
    assert_eq!(g.now.brigades[0].commander, Some(hex("0403")));
}

#[test]
fn an_enemy_moving_within_three_hexes_commits_an_uncommitted_brigade() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("4VA", "0805")]);
    activating(&mut g, "blue");
    for to in ["0304", "0404", "0504"] {
        let e = order(&mut g, &format!("2NYA MOVE {to}")).unwrap();
        let committed = e.iter().any(|e| matches!(e, Event::Committed { .. }));
        assert_eq!(committed, hex(to).distance(hex("0805")) <= 3, "{to}");
    }
    let reserve = g.battle.brigade_named("reserve").unwrap();
    assert!(g.brigade(reserve).committing && !g.brigade(reserve).committed);
}

#[test]
fn an_enemy_skirmisher_next_to_a_unit_that_enters_disbands() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("GSK", "0206")]);
    activating(&mut g, "blue");
    // Movement alone: the enemy holds its opportunity fire (B5).
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    let e = order(&mut g, "2NYA MOVE 0304").unwrap();
    assert!(
        !e.iter().any(|e| matches!(e, Event::Disbanded { .. })),
        "two hexes off"
    );
    let e = order(&mut g, "2NYA MOVE 0305").unwrap();
    assert!(e.contains(&Event::Disbanded {
        skirmisher: "GSK".into()
    }));
    assert_eq!(g.unit(id(&g, "GSK")).place, Place::Display);
}

#[test]
fn skirmishers_do_not_count_while_moving_and_a_disrupted_one_disbands() {
    let mut g = game();
    only(
        &mut g,
        &[("1NY", "0204"), ("2NYA", "0204"), ("1CAV", "0104")],
    );
    unit_mut(&mut g, "BSK").place = Place::Map(hex("0204"));
    activating(&mut g, "horse");
    // Two units and a skirmisher, then 1CAV: three that count (5.31); the
    // skirmisher is not disrupted but disbands (9.12).
    let e = order(&mut g, "1CAV MOVE 0204").unwrap();
    assert!(e.contains(&Event::Disrupted {
        unit: "2NYA".into(),
        why: "overstacked, 5.31".into()
    }));
    assert_eq!(
        g.unit(id(&g, "BSK")).place,
        Place::Map(hex("0204")),
        "5.31: ignored"
    );
    g.disrupt(id(&g, "BSK"), "a test", &mut Vec::new());
    assert_eq!(g.unit(id(&g, "BSK")).place, Place::Display, "9.12");
}

#[test]
fn units_leave_the_map_only_by_their_side_s_exits() {
    let mut g = game();
    only(&mut g, &[("1CAV", "0701")]);
    activating(&mut g, "horse");
    assert_eq!(refused(&mut g, "1CAV EXIT"), "5.214");
    order(&mut g, "1CAV MOVE 0801").unwrap();
    let e = order(&mut g, "1CAV EXIT").unwrap();
    assert!(e.iter().any(|e| matches!(e, Event::Exited { .. })));
    assert_eq!(g.unit(id(&g, "1CAV")).place, Place::Exited);
    assert_eq!(g.now.exit_points, [1, 0]);
    assert_eq!(
        g.points(orderly::games::brothers_at_war::scenario::model::Side::Union),
        3
    );
    let mut g = game();
    only(&mut g, &[("1VA", "0801")]);
    activating(&mut g, "gray");
    assert_eq!(
        refused(&mut g, "1VA EXIT"),
        "5.214",
        "the exit is the Union's"
    );
}

#[test]
fn a_unit_ending_beside_an_unactivated_stack_mate_finishes_both() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("2NYB", "0304")]);
    activating(&mut g, "blue");
    order(&mut g, "2NYA MOVE 0304").unwrap();
    order(&mut g, "2NYA DONE").unwrap();
    assert!(g.unit(id(&g, "2NYB")).finished, "B44: the hex's one marker");
    assert_eq!(refused(&mut g, "2NYB MOVE 0404"), "1.51");
}

#[test]
fn joining_a_disrupted_unit_disrupts_and_unforms_the_newcomer() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204"), ("2NYB", "0304")]);
    unit_mut(&mut g, "2NYB").disrupted = true;
    activating(&mut g, "blue");
    order(&mut g, "1NY MOVE 0304").unwrap();
    let e = order(&mut g, "1NY DONE").unwrap();
    assert!(e.contains(&Event::Unformed { unit: "1NY".into() }));
    assert!(g.unit(id(&g, "1NY")).disrupted);
}

#[test]
fn a_unit_holding_fire_in_a_finished_hex_takes_its_marker() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0204"), ("2NYB", "0304")]);
    unit_mut(&mut g, "2NYB").finished = true;
    activating(&mut g, "blue");
    order(&mut g, "2NYA MOVE 0304").unwrap();
    order(&mut g, "2NYA HOLD").unwrap();
    assert!(g.unit(id(&g, "2NYA")).finished, "B44, B57");
}

#[test]
fn a_unit_may_deploy_its_skirmisher_after_moving() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204")]);
    activating(&mut g, "blue");
    order(&mut g, "1NY MOVE 0304").unwrap();
    order(&mut g, "1NY DEPLOY BSK").unwrap();
    assert_eq!(g.unit(id(&g, "BSK")).place, Place::Map(hex("0304")));
    assert_eq!(spent(&g), 0, "B58: the skirmisher has its full rating");
}

#[test]
fn a_formation_change_that_leaves_no_points_finishes_the_unit() {
    let mut g = game();
    only(&mut g, &[("1CAV", "0601")]);
    activating(&mut g, "horse");
    // Mounted 8: two steps, then dismount (4): 4 spent, none left (B55).
    order(&mut g, "1CAV MOVE 0602 0702").unwrap();
    let e = order(&mut g, "1CAV FORM").unwrap();
    assert!(e
        .iter()
        .any(|e| matches!(e, Event::Ended { finished: true, .. })));
}

#[test]
fn a_commander_may_not_stand_next_to_an_enemy_unless_with_his_own_units() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0304"), ("1VA", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "END").unwrap();
    assert_eq!(
        refused(&mut g, "COMMANDER 0205"),
        "4.11",
        "B47: 0205 touches 0305"
    );
    order(&mut g, "COMMANDER 0304").unwrap();
}

#[test]
fn a_lone_commander_next_to_an_enemy_is_displaced_to_his_nearest_unit() {
    let mut g = game();
    only(&mut g, &[("2NYA", "0405"), ("1VA", "0505")]);
    activating(&mut g, "blue");
    let gray = g.battle.brigade_named("gray").unwrap();
    assert_eq!(g.brigade(gray).commander, Some(hex("0506")));
    let e = order(&mut g, "2NYA MOVE 0406").unwrap();
    // 4.12, B47: 0505 holds his 1VA, so he may stand there though an
    // enemy is next to it.
    assert!(e.contains(&Event::Displaced {
        brigade: "gray".into(),
        to: Some(hex("0505"))
    }));
    assert_eq!(g.brigade(gray).commander, Some(hex("0505")));
}

#[test]
fn an_independent_skirmisher_deploys_by_its_commander_at_recovery_only() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204")]);
    activating(&mut g, "blue");
    // Col. Ash is at 0201: 0302 is not next to him, 0202 is.
    assert_eq!(refused(&mut g, "ISK MOVE 0302"), "9.13");
    order(&mut g, "ISK MOVE 0202").unwrap();
    assert_eq!(g.unit(id(&g, "ISK")).place, Place::Map(hex("0202")));
    // Ready: it may activate now, as any unit of the brigade.
    order(&mut g, "ISK MOVE 0102").unwrap();
    let mut g = game();
    only(&mut g, &[("1NY", "0204")]);
    activating(&mut g, "blue");
    order(&mut g, "1NY MOVE 0304").unwrap();
    assert_eq!(
        refused(&mut g, "ISK MOVE 0202"),
        "9.13",
        "after a unit acted"
    );
}

#[test]
fn a_disbanded_independent_skirmisher_waits_two_turns_and_leaves_when_its_brigade_exhausts() {
    let mut g = game();
    only(&mut g, &[("ISK", "0202")]);
    activating(&mut g, "blue");
    order(&mut g, "ISK DISBAND").unwrap();
    assert_eq!(
        g.unit(id(&g, "ISK")).place,
        Place::Track(3),
        "9.19 c: turn 1 + 2"
    );
    g.now.turn = 2;
    g.now.step = Step::Advance;
    g.now.activation = None;
    g.advance(&mut Vec::new());
    assert_eq!(g.unit(id(&g, "ISK")).place, Place::Display);
    let blue = g.battle.brigade_named("blue").unwrap();
    g.exhaust(blue, &mut Vec::new());
    assert_eq!(g.unit(id(&g, "ISK")).place, Place::Removed, "9.19 d");
}

#[test]
fn a_reinforcement_names_its_formation_before_entering_at_no_cost() {
    let mut g = game();
    only(&mut g, &[]);
    unit_mut(&mut g, "3VA").place = Place::Waiting;
    g.now.turn = 2;
    activating(&mut g, "late");
    order(&mut g, "3VA FORM").unwrap();
    assert_eq!(g.unit(id(&g, "3VA")).face, Face::Front);
    assert_eq!(spent(&g), 0, "B117");
    order(&mut g, "3VA MOVE 0406").unwrap();
    assert_eq!(spent(&g), 1);
}

#[test]
fn a_unit_dropped_off_where_a_friendly_skirmisher_stands_disbands_it() {
    let mut g = game();
    only(&mut g, &[("1NY", "0204"), ("2NYA", "0204")]);
    unit_mut(&mut g, "BSK").place = Place::Map(hex("0304"));
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    // 9.16: the stack may pass through its own skirmisher's hex.
    order(&mut g, "1NY 2NYA MOVE 0304").unwrap();
    assert_eq!(g.unit(id(&g, "BSK")).place, Place::Map(hex("0304")));
    // 5.33: 2NYA drops off and ends its activation in 0304, so the
    // skirmisher there disbands (9.16, 9.14), as it would for a whole
    // stack that ended there.
    let e = order(&mut g, "2NYA DONE").unwrap();
    assert!(e.contains(&Event::Disbanded {
        skirmisher: "BSK".into()
    }));
    assert_eq!(g.unit(id(&g, "BSK")).place, Place::Display);
    assert!(g.unit(id(&g, "2NYA")).finished);
    order(&mut g, "1NY MOVE 0404").unwrap();
}

#[test]
fn a_unit_left_where_it_may_not_end_goes_back_to_the_last_hex_where_it_could() {
    // B138, 5.32: 1NY (blue) passes through BAT's hex (divisional
    // artillery, its own brigade for stacking) and is left there with no
    // points, as a reaction's disruption or point blank fire can leave it.
    let mut g = game();
    only(&mut g, &[("1NY", "0303"), ("BAT", "0305")]);
    activating(&mut g, "blue");
    order(&mut g, "1NY MOVE 0304").unwrap();
    order(&mut g, "1NY MOVE 0305").unwrap();
    assert_eq!(g.hex_of(id(&g, "1NY")), Some(hex("0305")));
    if let Some(gr) = g.now.activation.as_mut().and_then(|a| a.group.as_mut()) {
        gr.spent = 4;
    }
    let e = order(&mut g, "END UNITS").unwrap();
    assert!(e.iter().any(|e| matches!(
        e,
        Event::SentBack { from, to, .. } if *from == hex("0305") && *to == hex("0304")
    )));
    assert_eq!(g.hex_of(id(&g, "1NY")), Some(hex("0304")));
    assert_eq!(g.units_at(hex("0305")), vec![id(&g, "BAT")]);
}

#[test]
fn a_step_set_aside_by_point_blank_fire_is_listed_at_its_cost_not_at_zero() {
    // 5.21, B52: a step costs 1 plus its terrain, never 0. 2NYA (blue,
    // unformed) steps 0106-0206, next to 1VA at 0306; leaving 0206 it draws
    // 1VA's point blank fire first (6.15, B72), which sets the step aside
    // on the copy the choices are priced on (B9). Its step into the woods
    // of 0205 (1 + 1 for woods, level ground) is still listed at 2, with
    // the fire that comes first named.
    let mut g = game();
    only(&mut g, &[("2NYA", "0106"), ("1VA", "0306")]);
    unit_mut(&mut g, "2NYA").face = Face::Back;
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE gray NEVER").unwrap();
    order(&mut g, "2NYA MOVE 0206").unwrap();
    let text =
        orderly::games::brothers_at_war::text::choices::describe(&g, orderly::games::Seat::North);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!flat.contains("costs 0"), "{flat}");
    assert!(
        flat.contains("0205 woods costs 2 (point blank fire first, 6.15)")
            || flat.contains("0205 Woods costs 2 (point blank fire first, 6.15)"),
        "{flat}"
    );
}
