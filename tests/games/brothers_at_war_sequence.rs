//! The turn sequence of Brothers at War (2.x, 3.x, 8.13, 2.4), each case
//! worked out by hand on the small test battle of our own
//! (tests/data/brothersatwar/skirmish.toml: track spaces 3 "cards" and 4
//! and 6 "countdown", three countdown markers, hands of 2, brigades blue
//! (2 markers), horse (1), usart (divisional, 1) for the Union; gray (2),
//! late (1, from turn 2) and reserve (2, uncommitted) for the Confederacy;
//! key hexes 0404 (3 points) and 0402 (2, the Union's at the start); the
//! Confederacy wins at once holding 0402 and 0201).

#[path = "../common/mod.rs"]
mod common;

use common::brothersatwar::{activating, game, hex, id, only, order, quiet, refused, unit_mut};
use orderly::games::brothers_at_war::core::event::{Event, Fate};
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::order::Order;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, CheckKind, Ending, Step};
use orderly::games::brothers_at_war::engine::apply::dice;
use orderly::games::brothers_at_war::engine::Decision;
use orderly::games::brothers_at_war::scenario::model::Side;
use orderly::games::{Game, GameResult, Seat};

fn brigade(g: &BrothersAtWar, name: &str) -> orderly::games::brothers_at_war::core::ids::BrigadeId {
    g.battle.brigade_named(name).unwrap()
}

/// Draws every pending chance with the given outcomes, in order.
fn draw(g: &mut BrothersAtWar, outcomes: &[u32]) -> Vec<Event> {
    let mut events = Vec::new();
    for &o in outcomes {
        let order = g.chance_order(o).expect("a draw is pending");
        events.extend(g.apply(&order).unwrap());
    }
    events
}

#[test]
fn a_new_game_deals_the_hands_then_offers_commitment_then_draws_the_cup() {
    let mut g = game();
    for _ in 0..2 {
        let c = g.chance().unwrap();
        assert_eq!(c.private_to, Some(Seat::North));
        draw(&mut g, &[0]);
    }
    for _ in 0..2 {
        assert_eq!(g.chance().unwrap().private_to, Some(Seat::South));
        draw(&mut g, &[0]);
    }
    assert_eq!(g.now.hands, [vec![1, 2], vec![3, 4]]);
    // Preparation: the Disrupted remnant at 0106 makes its rally check
    // (2.12), with no commander to help it.
    assert_eq!(g.chance().unwrap().outcomes, 6);
    let e = g.apply(&Order::Roll(vec![5])).unwrap();
    assert!(e.iter().any(|e| matches!(
        e,
        Event::Checked {
            bonus: 0,
            success: true,
            ..
        }
    )));
    assert!(!g.unit(id(&g, "REMX")).disrupted);
    // The Union has nothing uncommitted; the Confederacy's reserve is.
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::South, Decision::Commit));
    assert_eq!(
        g.legal_orders(),
        vec![Order::Commit("reserve".into()), Order::Ready]
    );
    order(&mut g, "READY").unwrap();
    // blue 2, horse 1, usart 1, gray 2 and one countdown: late arrives on
    // turn 2, reserve is uncommitted (3.15).
    let c = g.chance().unwrap();
    assert_eq!(c.outcomes, 7);
    assert_eq!(c.private_to, None);
    assert_eq!(g.chance_order(6), Some(Order::Draw(7)));
}

#[test]
fn dice_outcomes_read_as_dice_the_first_the_most_significant() {
    assert_eq!(dice(0, 3), vec![1, 1, 1]);
    assert_eq!(dice(6 * 6 * 6 - 1, 3), vec![6, 6, 6]);
    assert_eq!(dice(1, 2), vec![1, 2]);
    assert_eq!(dice(6, 2), vec![2, 1]);
}

fn at_selection(g: &mut BrothersAtWar, cup: Vec<Marker>, track: Vec<Marker>) {
    quiet(g);
    g.now.cup = cup;
    g.now.track = track;
    g.now.step = Step::Select;
}

#[test]
fn the_second_countdown_marker_ends_the_activation_phase() {
    let mut g = game();
    let blue = brigade(&g, "blue");
    at_selection(
        &mut g,
        vec![
            Marker::Brigade(blue, 0),
            Marker::Countdown,
            Marker::Countdown,
        ],
        Vec::new(),
    );
    let e = order(&mut g, "DRAW 2").unwrap();
    assert!(!e.contains(&Event::ActivationPhaseEnds));
    assert_eq!(
        g.now.step,
        Step::Select,
        "3.3: the first is placed, draw again"
    );
    let e = order(&mut g, "DRAW 2").unwrap();
    assert!(e.contains(&Event::ActivationPhaseEnds), "2.23");
    assert_eq!(g.now.track, vec![Marker::Countdown; 2]);
}

#[test]
fn track_symbols_deal_a_card_each_and_add_a_countdown_marker() {
    let mut g = game();
    let (blue, gray) = (brigade(&g, "blue"), brigade(&g, "gray"));
    at_selection(
        &mut g,
        vec![Marker::Brigade(gray, 1), Marker::Countdown],
        vec![Marker::Brigade(blue, 0), Marker::Brigade(blue, 1)],
    );
    g.now.countdown_box = 1;
    // Space 3 deals a card to each player, the Union's first (3.14 b).
    let e = order(&mut g, "DRAW 1").unwrap();
    assert!(e.contains(&Event::BothDraw));
    assert_eq!(g.chance().unwrap().private_to, Some(Seat::North));
    draw(&mut g, &[0]);
    assert_eq!(g.chance().unwrap().private_to, Some(Seat::South));
    draw(&mut g, &[0]);
    assert_eq!(g.now.hands[0].len() + g.now.hands[1].len(), 2);
    // Space 4 puts a countdown marker from the box in the cup (3.14 a).
    quiet(&mut g);
    g.now.step = Step::Select;
    let e = order(&mut g, "DRAW 1").unwrap();
    assert!(e.contains(&Event::CountdownAdded));
    assert_eq!(g.now.countdown_box, 0);
    assert_eq!(g.now.cup, vec![Marker::Countdown]);
}

#[test]
fn rally_checks_leave_out_units_next_to_an_enemy_and_count_the_commander() {
    let mut g = game();
    only(
        &mut g,
        &[
            ("1VA", "0505"),
            ("2VA", "0805"),
            ("2NYA", "0804"),
            ("1NY", "0305"),
        ],
    );
    unit_mut(&mut g, "1VA").disrupted = true;
    unit_mut(&mut g, "1VA").finished = true;
    quiet(&mut g);
    g.recover_brigade(brigade(&g, "gray"));
    assert!(!g.unit(id(&g, "1VA")).finished, "3.21");
    // 2VA is next to 2NYA (3.212); 1VA is next to Col. Oak at 0506, and
    // sees 1NY 2 hexes off.
    let rally: Vec<_> = g
        .now
        .checks
        .iter()
        .filter(|c| c.kind == CheckKind::Rally)
        .collect();
    assert_eq!(rally.len(), 1);
    assert_eq!(rally[0].units, vec![id(&g, "1VA")]);
    assert_eq!(rally[0].bonus, 1);
    g.now.step = Step::Recovery(brigade(&g, "gray"));
    let k = g.now.checks.len();
    let e = g.apply(&Order::Roll(vec![4u8; k])).unwrap();
    assert!(e
        .iter()
        .any(|e| matches!(e, Event::Checked { success: true, .. })));
    assert!(!g.unit(id(&g, "1VA")).disrupted, "4 + 1 rallies");
}

#[test]
fn units_beyond_four_hexes_check_command_and_cavalry_gains_one() {
    let mut g = game();
    only(&mut g, &[("1CAV", "0601"), ("1VA", "0606")]);
    let horse = brigade(&g, "horse");
    g.now.brigades[horse.index()].commander = Some(hex("0106"));
    quiet(&mut g);
    g.recover_brigade(horse);
    assert!(
        g.now.checks.is_empty(),
        "B36: recovery alone checks no command"
    );
    g.queue_command_checks(horse);
    assert_eq!(g.now.checks.len(), 1);
    let c = &g.now.checks[0];
    assert_eq!(c.kind, CheckKind::Command);
    // 1VA is 5 hexes off but hidden by the rise at 0605 (6.34): it does
    // not count (B32), so +1 for distance and +1 for the cavalry symbol.
    assert_eq!(c.bonus, 2);
    let mut seen = g.clone();
    unit_mut(&mut seen, "1VA").place =
        orderly::games::brothers_at_war::core::state::Place::Map(hex("0604"));
    seen.now.checks.clear();
    seen.queue_command_checks(horse);
    assert_eq!(seen.now.checks[0].bonus, 1, "1VA in sight at 0604");
    g.now.step = Step::Recovery(horse);
    g.apply(&Order::Roll(vec![2])).unwrap();
    assert!(g.unit(id(&g, "1CAV")).out_of_command, "2 + 2 fails (4.31)");
    // Within four hexes of the commander: no check.
    let mut g = game();
    only(&mut g, &[("1CAV", "0601"), ("1VA", "0606")]);
    g.now.brigades[horse.index()].commander = Some(hex("0205"));
    quiet(&mut g);
    g.queue_command_checks(horse);
    assert!(!g.now.checks.is_empty(), "0205 to 0601 is 5 hexes");
    g.now.brigades[horse.index()].commander = Some(hex("0603"));
    g.now.checks.clear();
    g.queue_command_checks(horse);
    assert!(g.now.checks.is_empty(), "0603 is 2 hexes away");
}

#[test]
fn command_range_avoids_enemy_hexes_and_river_hexes_no_ford_opens() {
    let mut g = game();
    only(&mut g, &[("1VA", "0602")]);
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].commander = Some(hex("0604"));
    let u = id(&g, "1VA");
    // B48, B19: by 0703 (a run hex a ford opens) and 0702, 3 steps; the
    // run hex 0603 between them is closed, no ford opening it.
    assert!(g.in_command_range(u, hex("0602")));
    only(&mut g, &[("1VA", "0602"), ("2NYA", "0703")]);
    assert!(!g.in_command_range(u, hex("0602")));
}

fn fate(die: u8) -> (BrothersAtWar, Vec<Event>) {
    let mut g = game();
    only(
        &mut g,
        &[("1VA", "0505"), ("2VA", "0605"), ("2NYA", "0504")],
    );
    let gray = brigade(&g, "gray");
    quiet(&mut g);
    g.now.brigades[gray.index()].exhausted = true;
    g.now.brigades[gray.index()].reserve = 4;
    g.now.exhausted_box = vec![gray];
    g.now.step = Step::Fate;
    let mut events = Vec::new();
    g.advance(&mut events);
    assert_eq!(g.now.checks[0].kind, CheckKind::Fate);
    assert_eq!(g.now.checks[0].bonus, 0, "2NYA is near");
    let e = g.apply(&Order::Roll(vec![die])).unwrap();
    (g, e)
}

#[test]
fn a_fate_check_of_three_breaks_the_brigade_and_leaves_a_remnant() {
    let (g, e) = fate(3);
    assert!(e.iter().any(|e| matches!(
        e,
        Event::FateChecked {
            fate: Fate::Break,
            ..
        }
    )));
    let gray = brigade(&g, "gray");
    assert!(g.brigade(gray).broken);
    assert_eq!(g.hex_of(id(&g, "1VA")), None);
    let remnant = g.unit_named("REM1").expect("a generic remnant");
    assert_eq!(g.hex_of(remnant), Some(hex("0505")));
    assert_eq!(g.side_of(remnant), Side::Confederacy);
}

#[test]
fn a_fate_check_of_six_regroups_and_of_four_stays_exhausted() {
    let (g, e) = fate(6);
    assert!(e.iter().any(|e| matches!(
        e,
        Event::FateChecked {
            fate: Fate::Regroup,
            ..
        }
    )));
    let gray = brigade(&g, "gray");
    assert!(!g.brigade(gray).exhausted);
    assert!(g.now.exhausted_box.is_empty());
    assert_eq!(g.brigade(gray).reserve, 3, "8.132");
    let (g, _) = fate(4);
    assert!(g.brigade(gray).exhausted && !g.brigade(gray).broken);
}

#[test]
fn an_inactive_brigade_recovers_a_reserve_and_a_lone_marker_earns_a_free_activation() {
    let mut g = game();
    only(&mut g, &[("1CAV", "0601")]);
    quiet(&mut g);
    let (blue, horse, gray) = (
        brigade(&g, "blue"),
        brigade(&g, "horse"),
        brigade(&g, "gray"),
    );
    g.now.activated_this_turn = vec![blue, gray, brigade(&g, "usart")];
    g.now.brigades[horse.index()].reserve = 1;
    g.now.brigades[blue.index()].reserve = 1;
    let mut events = Vec::new();
    g.clean_up(&mut events);
    g.now.checks.clear();
    assert_eq!(g.brigade(horse).reserve, 0, "8.131");
    assert_eq!(g.brigade(blue).reserve, 1, "blue was active");
    assert_eq!(g.now.free_due, vec![horse], "2.321");
    // Next preparation: the free activation comes first, on START.
    g.now.step = Step::Preparation;
    g.now.turn = 2;
    g.advance(&mut events);
    order(&mut g, "READY").unwrap();
    assert_eq!(g.now.track, vec![Marker::Free(horse)]);
    assert!(g.brigade(horse).free_this_turn);
    // Never two turns in a row.
    quiet(&mut g);
    g.now.activated_this_turn.clear();
    g.clean_up(&mut events);
    assert!(!g.now.free_due.contains(&horse));
}

#[test]
fn equal_free_activations_are_ordered_by_one_draw_of_two() {
    let mut g = game();
    quiet(&mut g);
    let (horse, late) = (brigade(&g, "horse"), brigade(&g, "late"));
    g.now.turn = 2;
    g.now.free_due = vec![horse, late];
    g.now.step = Step::Commitment(Side::Confederacy);
    order(&mut g, "READY").unwrap();
    assert_eq!(g.now.step, Step::FreeTie);
    // B13: one draw of two equal outcomes in place of the die-off.
    assert_eq!(g.chance().unwrap().outcomes, 2);
    assert_eq!(g.chance_order(0), Some(Order::First(Side::Union)));
    assert_eq!(g.chance_order(1), Some(Order::First(Side::Confederacy)));
    assert_eq!(refused(&mut g, "ROLL 3 5"), "3.12");
    order(&mut g, "FIRST CSA").unwrap();
    assert_eq!(g.now.track, vec![Marker::Free(late)]);
    assert_eq!(g.now.free_queue, vec![horse], "then the sides alternate");
}

#[test]
fn clean_up_takes_key_hexes_and_an_instant_victory_ends_the_battle() {
    let mut g = game();
    only(&mut g, &[("1VA", "0402"), ("2VA", "0201"), ("GSK", "0404")]);
    quiet(&mut g);
    g.now.step = Step::Cleanup;
    let mut events = Vec::new();
    g.advance(&mut events);
    assert!(events.contains(&Event::Control {
        hex: hex("0402"),
        side: Side::Confederacy
    }));
    assert!(
        !g.now.control.contains_key(&hex("0404")),
        "skirmishers take no hex (2.41)"
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.result, GameResult::Win(Seat::South));
    assert_eq!(o.reason, Ending::InstantHexes(Side::Confederacy));
    assert!(g.legal_orders().is_empty() && g.chance().is_none());
    assert_eq!(refused(&mut g, "PASS"), "2.4");
}

#[test]
fn the_last_turn_ends_in_points() {
    let mut g = game();
    quiet(&mut g);
    g.now.turn = 3;
    g.now.step = Step::Advance;
    let mut events = Vec::new();
    g.advance(&mut events);
    // The Union holds 0402 from the start: 2 points to 0, more than 1.
    let o = g.outcome().unwrap();
    assert_eq!(
        o.reason,
        Ending::Points {
            union: 2,
            confederacy: 0
        }
    );
    assert_eq!(o.result, GameResult::Win(Seat::North));
}

#[test]
fn the_end_phase_discards_down_to_the_hand_size() {
    let mut g = game();
    quiet(&mut g);
    g.now.hands = [vec![1, 2, 3], vec![4]];
    g.now.ask_discard = [true, false];
    g.now.step = Step::EndDiscard(Side::Union);
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Discard));
    assert_eq!(refused(&mut g, "KEEP"), "2.31");
    assert_eq!(refused(&mut g, "DISCARD 4"), "11.2");
    order(&mut g, "DISCARD 2").unwrap();
    assert_eq!(g.now.discard, vec![2]);
    // Then both draw up to 2, the Union first (nothing for it to draw).
    assert_eq!(g.chance().unwrap().private_to, Some(Seat::South));
}

#[test]
fn by_default_the_discard_step_drops_cards_of_no_effect_then_the_oldest() {
    let mut g = game();
    quiet(&mut g);
    // Cards 3-8 are of no effect, 1-2 are not; held in the order drawn.
    g.now.hands = [vec![1, 2, 5, 3], vec![2, 1, 6]];
    g.now.step = Step::EndDiscard(Side::Union);
    let mut events = Vec::new();
    g.advance(&mut events);
    assert_eq!(g.now.hands[0], vec![1, 2], "B121: 5 and 3 go");
    assert_eq!(g.now.hands[1], vec![2, 1], "6 goes");
}

#[test]
fn a_pass_draws_a_card_and_a_hand_over_its_size_discards_one() {
    let mut g = game();
    activating(&mut g, "blue");
    g.now.hands = [vec![1, 2], vec![]];
    g.now.deck.retain(|&c| c > 2);
    order(&mut g, "PASS").unwrap();
    assert_eq!(g.chance().unwrap().private_to, Some(Seat::North));
    draw(&mut g, &[0]);
    assert_eq!(g.pending().unwrap().kind, Decision::Discard);
    order(&mut g, "DISCARD 1").unwrap();
    assert_eq!(g.pending().unwrap().kind, Decision::MoveCommander);
}

#[test]
fn committing_puts_the_brigade_s_markers_in_the_cup_next_turn() {
    let mut g = game();
    quiet(&mut g);
    g.now.step = Step::Commitment(Side::Confederacy);
    order(&mut g, "COMMIT RESERVE").unwrap();
    let reserve = brigade(&g, "reserve");
    assert!(g.brigade(reserve).committing);
    assert!(
        !g.now.cup.contains(&Marker::Brigade(reserve, 0)),
        "3.15: next turn"
    );
    g.now.step = Step::Preparation;
    quiet(&mut g);
    let mut events = Vec::new();
    g.advance(&mut events);
    assert!(g.now.cup.contains(&Marker::Brigade(reserve, 1)));
}

#[test]
fn a_position_of_another_version_of_its_battle_is_refused() {
    let g = game();
    let text = g.position();
    let parts: Vec<&str> = text.splitn(3, ' ').collect();
    let wrong = format!("{} 00000000 {}", parts[0], parts[2]);
    assert!(BrothersAtWar::from_position(&wrong).is_err());
    let unknown = format!("no-such-battle {} {}", parts[1], parts[2]);
    assert!(BrothersAtWar::from_position(&unknown).is_err());
    assert_eq!(
        BrothersAtWar::from_position(&text).unwrap().position(),
        text
    );
}

#[test]
fn the_test_battle_passes_the_scenario_check() {
    let problems =
        orderly::games::brothers_at_war::scenario::check(common::brothersatwar::SKIRMISH);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn a_failed_rally_turns_the_marker_to_finished_and_skips_the_command_check() {
    let mut g = game();
    only(&mut g, &[("1VA", "0505")]);
    unit_mut(&mut g, "1VA").disrupted = true;
    let gray = brigade(&g, "gray");
    g.now.brigades[gray.index()].commander = None;
    activating(&mut g, "gray");
    g.recover_brigade(gray);
    g.now.step = Step::Recovery(gray);
    // No enemy on the map: +1 for distance (B32); 3 + 1 fails.
    assert_eq!(g.now.checks[0].bonus, 1);
    g.apply(&Order::Roll(vec![3])).unwrap();
    let u = g.unit(id(&g, "1VA"));
    assert!(!u.disrupted && u.finished, "B43: FINISH by default");
    assert!(
        g.now.checks.is_empty(),
        "B50: a Finished unit checks no command"
    );
    assert_eq!(g.pending().unwrap().kind, Decision::Activate);
}

#[test]
fn the_cup_lists_countdowns_first_then_markers_by_brigade_id() {
    let mut g = game();
    quiet(&mut g);
    g.now.step = Step::Preparation;
    let mut events = Vec::new();
    g.advance(&mut events);
    let names: Vec<String> = g
        .now
        .cup
        .iter()
        .map(|m| match m {
            Marker::Countdown => "countdown".to_string(),
            Marker::Brigade(b, i) => format!("{} {i}", g.brigade_name(*b)),
            Marker::Free(b) => format!("free {}", g.brigade_name(*b)),
        })
        .collect();
    assert_eq!(
        names,
        [
            "countdown",
            "blue 0",
            "blue 1",
            "gray 0",
            "gray 1",
            "horse 0",
            "usart 0"
        ]
    );
}

#[test]
fn an_empty_deck_takes_back_the_discard_pile() {
    let mut g = game();
    quiet(&mut g);
    g.now.deck.clear();
    g.now.discard = vec![7, 3];
    g.now.hands = [vec![1], vec![2, 4]];
    g.now.step = Step::EndDraw;
    let mut events = Vec::new();
    g.advance(&mut events);
    assert_eq!(g.now.deck, vec![3, 7], "B4");
    assert!(g.now.discard.is_empty());
    assert_eq!(g.chance().unwrap().outcomes, 2);
}

#[test]
fn a_free_activation_counts_as_activity_at_clean_up() {
    let mut g = game();
    quiet(&mut g);
    let horse = brigade(&g, "horse");
    g.now.brigades[horse.index()].reserve = 1;
    g.now.brigades[horse.index()].free_this_turn = true;
    let mut events = Vec::new();
    g.clean_up(&mut events);
    assert_eq!(g.brigade(horse).reserve, 1, "B41");
    assert!(!g.now.free_due.contains(&horse), "2.321: not two in a row");
}

#[test]
fn a_pass_may_name_its_discard_in_advance() {
    let mut g = game();
    activating(&mut g, "blue");
    g.now.hands = [vec![1, 2], vec![]];
    g.now.deck.retain(|&c| c > 2);
    assert_eq!(refused(&mut g, "PASS DISCARD 5"), "11.2");
    order(&mut g, "PASS DISCARD NEW").unwrap();
    let card = match g.chance_order(0).unwrap() {
        Order::Card(c) => c,
        other => panic!("{other}"),
    };
    let e = draw(&mut g, &[0]);
    assert!(e.contains(&Event::Discarded {
        side: Side::Union,
        card
    }));
    assert_eq!(g.now.hands[0], vec![1, 2]);
    assert_eq!(g.pending().unwrap().kind, Decision::MoveCommander);
}

#[test]
fn a_broken_brigade_s_remnant_stands_where_it_is_farthest_from_the_enemy() {
    let mut g = game();
    only(
        &mut g,
        &[("1VA", "0505"), ("2VA", "0805"), ("2NYA", "0504")],
    );
    let gray = brigade(&g, "gray");
    let mut events = Vec::new();
    g.break_brigade(gray, true, &mut events);
    let r = g.unit_named("REM1").unwrap();
    assert_eq!(
        g.hex_of(r),
        Some(hex("0805")),
        "B110: 4 hexes from 2NYA, not 1"
    );
    assert_eq!(g.ratings(r).firepower, 1, "the scenario's generic remnant");
}

#[test]
fn breaking_enough_brigades_wins_at_once() {
    use orderly::games::brothers_at_war::scenario::model::Instant;
    use orderly::games::brothers_at_war::scenario::{registry, Scenario};
    let mut s: Scenario = toml::from_str(common::brothersatwar::SKIRMISH).unwrap();
    s.id = "test-skirmish-broken".into();
    s.victory.instant = vec![Instant {
        side: Side::Union,
        control: Vec::new(),
        broken_brigades: Some(1),
    }];
    let b = registry::register(s).unwrap();
    let mut g = BrothersAtWar::start(b);
    let gray = brigade(&g, "gray");
    let mut events = Vec::new();
    g.break_brigade(gray, false, &mut events);
    assert!(g.outcome().is_none(), "judged as the game goes on (B131)");
    g.advance(&mut events);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, Ending::InstantBroken(Side::Union));
    assert_eq!(o.result, GameResult::Win(Seat::North));
}

#[test]
fn an_activation_is_a_turn_of_two_parts_unless_the_brigade_has_no_commander() {
    use orderly::games::Phase;
    let mut g = game();
    activating(&mut g, "blue");
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Activate));
    assert_eq!(
        p.phase,
        Phase::Turn {
            part: 1,
            last: false
        }
    );
    order(&mut g, "END").unwrap();
    assert_eq!(
        g.pending().unwrap().phase,
        Phase::Turn {
            part: 2,
            last: true
        }
    );
    activating(&mut g, "usart");
    assert_eq!(
        g.pending().unwrap().phase,
        Phase::Turn {
            part: 1,
            last: true
        }
    );
}

#[test]
fn a_commander_order_while_units_act_ends_their_part_first() {
    // 3.22, 3.23: the commander moves once the units are done; a player who
    // writes his commander's move means his units are done.
    let mut g = game();
    only(&mut g, &[("1NY", "0303"), ("1VA", "0806")]);
    activating(&mut g, "blue");
    order(&mut g, "1NY MOVE 0304").unwrap();
    let e = order(&mut g, "COMMANDER 0302").unwrap();
    assert!(e.iter().any(|e| matches!(e, Event::Ended { .. })), "{e:?}");
    assert!(e
        .iter()
        .any(|e| matches!(e, Event::CommanderMoved { to: Some(h), .. } if *h == hex("0302"))));
    assert!(g.unit(id(&g, "1NY")).finished, "its units ended Finished");
    assert!(!matches!(g.now.step, Step::Units(_) | Step::Commander(_)));
    // The usart brigade has no commander (9.3): nothing to move.
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "COMMANDER 0302"), "2.0");
}

/// The fate check of `fate` with gray's `FATE gray MOVE` given first.
fn fate_moving(die: u8) -> (BrothersAtWar, Vec<Event>) {
    let mut g = game();
    only(
        &mut g,
        &[("1VA", "0505"), ("2VA", "0605"), ("2NYA", "0504")],
    );
    let gray = brigade(&g, "gray");
    quiet(&mut g);
    let o = g.parse_order("FATE gray MOVE").unwrap();
    g.apply_standing(Side::Confederacy, &o).unwrap();
    g.now.brigades[gray.index()].exhausted = true;
    g.now.brigades[gray.index()].reserve = 4;
    g.now.exhausted_box = vec![gray];
    g.now.step = Step::Fate;
    let mut events = Vec::new();
    g.advance(&mut events);
    let e = g.apply(&Order::Roll(vec![die])).unwrap();
    (g, e)
}

#[test]
fn fate_move_disrupts_the_exhausted_brigade_and_lets_it_move_before_the_turn_ends() {
    // 2.33 b, B111: on 4-5 under FATE MOVE the brigade's Undisrupted units
    // are Disrupted and it moves at once; the turn marker waits.
    let (mut g, e) = fate_moving(4);
    let gray = brigade(&g, "gray");
    assert!(
        e.iter().any(|e| matches!(e, Event::FateMove { .. })),
        "{e:?}"
    );
    assert!(g.unit(id(&g, "1VA")).disrupted && g.unit(id(&g, "2VA")).disrupted);
    assert_eq!(g.now.step, Step::Units(gray));
    let p = g.pending().expect("the Confederacy moves");
    assert_eq!(p.seat, Seat::South);
    let turn = g.now.turn;
    // Move actions only: no pass, no form, no hold (B111).
    assert_eq!(refused(&mut g, "PASS"), "2.33");
    assert_eq!(refused(&mut g, "2VA HOLD"), "2.33");
    assert_eq!(refused(&mut g, "2VA FORM"), "2.33");
    // A Disrupted unit may not close on the enemy (6.531): 2VA steps away.
    order(&mut g, "2VA MOVE 0606").unwrap();
    assert_eq!(g.hex_of(id(&g, "2VA")), Some(hex("0606")));
    order(&mut g, "END UNITS").unwrap();
    order(&mut g, "COMMANDER STAY").unwrap();
    assert!(g.now.activation.is_none());
    assert!(
        g.now.turn > turn || g.now.ended.is_some(),
        "the end phase went on"
    );
    assert!(g.brigade(gray).exhausted, "2.33 b: it remains exhausted");
}

#[test]
fn fate_move_leaves_a_regroup_and_a_break_as_they_were() {
    let (g, e) = fate_moving(6);
    assert!(!e.iter().any(|e| matches!(e, Event::FateMove { .. })));
    assert!(!g.brigade(brigade(&g, "gray")).exhausted);
    let (g, _) = fate_moving(2);
    assert!(g.brigade(brigade(&g, "gray")).broken);
    assert!(g.now.activation.is_none());
}

#[test]
fn discard_ask_is_an_instruction_of_a_side_and_asks_at_the_discard_step() {
    // B5, B121: DISCARD USA ASK makes the Union choose its discard.
    let mut g = game();
    quiet(&mut g);
    let o = g.parse_order("DISCARD USA ASK").unwrap();
    g.apply_standing(Side::Union, &o).unwrap();
    assert_eq!(g.parse_order("DISCARD 2").unwrap(), Order::Discard(2));
    g.now.hands = [vec![1, 2, 3], vec![4]];
    g.now.step = Step::EndDiscard(Side::Union);
    let mut events = Vec::new();
    g.advance(&mut events);
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.kind), (Seat::North, Decision::Discard));
    order(&mut g, "DISCARD 1").unwrap();
    assert_eq!(g.now.discard, vec![1]);
    // DISCARD AUTO gives the choice back to B121.
    let mut g = game();
    quiet(&mut g);
    for text in ["DISCARD USA ASK", "DISCARD USA AUTO"] {
        let o = g.parse_order(text).unwrap();
        g.apply_standing(Side::Union, &o).unwrap();
    }
    g.now.hands = [vec![1, 2, 5, 3], vec![]];
    g.now.step = Step::EndDiscard(Side::Union);
    g.advance(&mut events);
    assert_eq!(g.now.hands[0], vec![1, 2], "B121");
}

#[test]
fn a_remnant_is_taken_off_the_map_by_its_owner_at_any_moment() {
    // B116: the owner removes a remnant whenever he sends an order; the
    // other player may not.
    let (mut g, _) = fate(3);
    let remnant = g.unit_named("REM1").expect("a generic remnant");
    let o = g.parse_order("REMOVE REM1").unwrap();
    assert_eq!(o.to_string(), "ELIMINATE REM1");
    assert!(
        g.apply_standing(Side::Union, &o).is_err(),
        "not the Union's"
    );
    assert_eq!(g.hex_of(remnant), Some(hex("0505")));
    let e = g.apply_standing(Side::Confederacy, &o).unwrap();
    assert!(
        e.iter().any(|e| matches!(e, Event::RemnantRemoved { .. })),
        "{e:?}"
    );
    assert_eq!(g.hex_of(remnant), None);
    assert_eq!(
        g.unit(remnant).place,
        orderly::games::brothers_at_war::core::state::Place::Removed
    );
}
