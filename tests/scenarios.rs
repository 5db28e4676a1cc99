//! Scenario tests for the SQUARES engine, one test per case.
//!
//! The cases live in `tests/data/scenarios/*.toml`; every expectation in them
//! is derived from the rulebook (`../shared/rules/squares-civil-war.txt`), the
//! rulings R1-R28 and examples E1-E6 (`squares-rulings.md`), the board
//! (`squares-board.md`) and the engine's documented notation and readings
//! S1-S8 (`docs/squares-engine.md`), never from the engine's own output.
//!
//! A case file looks like this:
//!
//! ```toml
//! [[case]]
//! id = "r3_no_pass_twice"
//! description = "R3: PASS is refused right after one's own PASS"
//! position = "..."            # or: opening = "blue" / "gray"
//!
//! [[case.step]]
//! order = "PASS"              # omit to check the position as it stands
//! refused = "R3"              # the rule the refusal cites, or:
//! events = ["Blue passes"]    # exact Display strings, in order
//! position = "..."            # the position string after the step
//! pending = "gray turn"       # see `pending_text`
//! outcome = "none"            # see `outcome_text`
//! legal = ["..."]             # the complete list (order does not matter)
//! legal_includes = ["..."]
//! legal_excludes = ["..."]
//! unparsable = true           # the order text must not parse at all
//! ```
//!
//! Every step also checks two documented invariants: each listed legal order
//! prints canonically and parses back to itself, and the position string
//! reads back to the same string.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use orderly::games::squares::{Side, Squares};
use orderly::games::{CitesRule, DecisionKind, EndReason, Game, GameResult, Seat};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(rename = "case", default)]
    cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    description: String,
    position: Option<String>,
    opening: Option<String>,
    #[serde(rename = "step", default)]
    steps: Vec<StepSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepSpec {
    order: Option<String>,
    refused: Option<String>,
    unparsable: Option<bool>,
    events: Option<Vec<String>>,
    position: Option<String>,
    pending: Option<String>,
    outcome: Option<String>,
    legal: Option<Vec<String>>,
    legal_includes: Option<Vec<String>>,
    legal_excludes: Option<Vec<String>>,
}

fn scenario_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scenarios")
}

fn load(file: &str) -> CaseFile {
    let path = scenario_dir().join(file);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read scenario file {}: {e}", path.display()));
    toml::from_str(&text)
        .unwrap_or_else(|e| panic!("scenario file {} does not parse:\n{e}", path.display()))
}

fn side_name(seat: Seat) -> &'static str {
    match seat {
        Seat::North => "blue",
        Seat::South => "gray",
    }
}

/// The pending decision as the case files write it: `"<side> <kind>"` with
/// kind one of turn, double1, double2, defence, option, retreat,
/// second_chance, reserve_loss, advance; or `"none"` when the game is over.
fn pending_text(game: &Squares) -> String {
    match game.pending() {
        None => "none".to_string(),
        Some(p) => {
            let kind = match p.kind {
                DecisionKind::Turn => "turn".to_string(),
                DecisionKind::DoubleTurn { half } => format!("double{half}"),
                DecisionKind::Defence => "defence".to_string(),
                DecisionKind::AttackOption => "option".to_string(),
                DecisionKind::Retreat => "retreat".to_string(),
                DecisionKind::SecondChance => "second_chance".to_string(),
                DecisionKind::ReserveLoss => "reserve_loss".to_string(),
                DecisionKind::Advance => "advance".to_string(),
                other => format!("{other:?}"),
            };
            format!("{} {kind}", side_name(p.seat))
        }
    }
}

/// The outcome as the case files write it: `"none"`, `"Blue wins by reserve"`,
/// `"Gray wins by no legal action"`, `"Blue wins on points 10-3"` (Blue's
/// points first), `"draw on points 10-10"`.
fn outcome_text(game: &Squares) -> String {
    let Some(outcome) = game.outcome() else {
        return "none".to_string();
    };
    let result = match outcome.result {
        GameResult::Win(seat) => format!("{} wins", Squares::seat_name(seat)),
        GameResult::Draw => "draw".to_string(),
    };
    match outcome.reason {
        EndReason::ReserveEntered => format!("{result} by reserve"),
        EndReason::NoLegalAction => format!("{result} by no legal action"),
        EndReason::Points { north, south } => format!("{result} on points {north}-{south}"),
        other => format!("{result} ({other:?})"),
    }
}

fn legal_texts(game: &Squares) -> Vec<String> {
    game.legal_orders().iter().map(|o| o.to_string()).collect()
}

fn sorted(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

struct Ctx<'a> {
    case: &'a str,
    step: usize,
    order: &'a str,
}

impl Ctx<'_> {
    fn fail(&self, what: &str, expected: &dyn std::fmt::Debug, actual: &dyn std::fmt::Debug) -> ! {
        panic!(
            "\ncase {}, step {} (order {:?}): {what}\n  expected: {expected:#?}\n  actual:   {actual:#?}\n",
            self.case, self.step, self.order
        )
    }
}

fn check_state(ctx: &Ctx, game: &Squares, spec: &StepSpec) {
    let position = game.to_string();
    match position.parse::<Squares>() {
        Ok(again) if again.to_string() == position => {}
        Ok(again) => ctx.fail(
            "the position string does not read back to itself",
            &position,
            &again.to_string(),
        ),
        Err(e) => ctx.fail(
            "the position string does not read back",
            &position,
            &e.message,
        ),
    }
    let legal = legal_texts(game);
    for text in &legal {
        match game.parse_order(text) {
            Ok(o) if &o.to_string() == text => {}
            Ok(o) => ctx.fail(
                "a listed legal order does not parse back to itself",
                text,
                &o.to_string(),
            ),
            Err(e) => ctx.fail("a listed legal order does not parse", text, &e.message),
        }
    }
    let distinct: BTreeSet<&String> = legal.iter().collect();
    if distinct.len() != legal.len() {
        ctx.fail(
            "the legal orders list an order twice",
            &"no duplicates",
            &sorted(&legal),
        );
    }
    if let Some(want) = &spec.position {
        if &position != want {
            ctx.fail("position after the step", want, &position);
        }
    }
    if let Some(want) = &spec.pending {
        let got = pending_text(game);
        if &got != want {
            ctx.fail("pending decision", want, &got);
        }
    }
    if let Some(want) = &spec.outcome {
        let got = outcome_text(game);
        if &got != want {
            ctx.fail("outcome", want, &got);
        }
    }
    if let Some(want) = &spec.legal {
        let (w, g) = (sorted(want), sorted(&legal));
        if w != g {
            let missing: Vec<&String> = w.iter().filter(|o| !g.contains(o)).collect();
            let extra: Vec<&String> = g.iter().filter(|o| !w.contains(o)).collect();
            panic!(
                "\ncase {}, step {} (order {:?}): complete legal orders differ\n  missing (expected, not listed): {missing:#?}\n  extra (listed, not expected): {extra:#?}\n  expected: {w:#?}\n  actual:   {g:#?}\n",
                ctx.case, ctx.step, ctx.order
            );
        }
    }
    if let Some(want) = &spec.legal_includes {
        let missing: Vec<&String> = want.iter().filter(|o| !legal.contains(o)).collect();
        if !missing.is_empty() {
            ctx.fail(
                "legal orders must include these (missing ones shown as expected)",
                &missing,
                &sorted(&legal),
            );
        }
    }
    if let Some(want) = &spec.legal_excludes {
        let present: Vec<&String> = want.iter().filter(|o| legal.contains(o)).collect();
        if !present.is_empty() {
            ctx.fail(
                "legal orders must not include these (present ones shown as actual)",
                &"none of them",
                &present,
            );
        }
    }
}

fn run_case(file: &str, id: &str) {
    let cases = load(file);
    let matching: Vec<&Case> = cases.cases.iter().filter(|c| c.id == id).collect();
    let case = match matching.as_slice() {
        [one] => *one,
        [] => panic!("case {id} is not in {file}"),
        _ => panic!("case {id} appears {} times in {file}", matching.len()),
    };
    assert!(
        !case.description.trim().is_empty(),
        "case {id}: the description is empty"
    );
    assert!(!case.steps.is_empty(), "case {id} has no steps");
    let mut game: Squares = match (&case.position, &case.opening) {
        (Some(text), None) => text
            .parse()
            .unwrap_or_else(|e: orderly::games::ParseError| {
                panic!(
                    "case {id}: the starting position does not parse: {}",
                    e.message
                )
            }),
        (None, Some(first)) => match first.as_str() {
            "blue" => Squares::opening(Side::Blue),
            "gray" => Squares::opening(Side::Gray),
            other => panic!("case {id}: opening must be \"blue\" or \"gray\", not {other:?}"),
        },
        _ => panic!("case {id}: give exactly one of position and opening"),
    };
    for (n, spec) in case.steps.iter().enumerate() {
        let ctx = Ctx {
            case: id,
            step: n + 1,
            order: spec.order.as_deref().unwrap_or("(none)"),
        };
        if let Some(text) = &spec.order {
            let parsed = game.parse_order(text);
            if spec.unparsable == Some(true) {
                if let Ok(o) = parsed {
                    ctx.fail("the order must not parse", &"a parse error", &o.to_string());
                }
                check_state(&ctx, &game, spec);
                continue;
            }
            let order = parsed
                .unwrap_or_else(|e| ctx.fail("the order does not parse", &"an order", &e.message));
            let before = game.to_string();
            match (game.apply(&order), &spec.refused) {
                (Err(refusal), Some(rule)) => {
                    let got = refusal.rule().0;
                    if got != rule {
                        ctx.fail(
                            "the refusal cites the wrong rule",
                            rule,
                            &format!("{got} ({refusal})"),
                        );
                    }
                    if game.to_string() != before {
                        ctx.fail(
                            "a refused order changed the position",
                            &before,
                            &game.to_string(),
                        );
                    }
                }
                (Err(refusal), None) => ctx.fail(
                    "the order was refused",
                    &"accepted",
                    &format!("refused {}: {refusal}", refusal.rule()),
                ),
                (Ok(events), Some(rule)) => {
                    let events: Vec<String> = events.iter().map(|e| e.to_string()).collect();
                    ctx.fail(
                        "the order was accepted",
                        &format!("refused citing {rule}"),
                        &events,
                    )
                }
                (Ok(events), None) => {
                    let events: Vec<String> = events.iter().map(|e| e.to_string()).collect();
                    if let Some(want) = &spec.events {
                        if want != &events {
                            ctx.fail("events", want, &events);
                        }
                    }
                }
            }
        } else if spec.refused.is_some() || spec.events.is_some() || spec.unparsable.is_some() {
            panic!(
                "case {id}, step {}: refused/events/unparsable need an order",
                n + 1
            );
        }
        check_state(&ctx, &game, spec);
    }
}

macro_rules! scenarios {
    ($($file:literal => [$($id:ident),* $(,)?]),* $(,)?) => {
        $($(
            #[test]
            fn $id() {
                run_case($file, stringify!($id));
            }
        )*)*

        /// Every registered case, by file.
        const REGISTERED: &[(&str, &str)] = &[$($(($file, stringify!($id)),)*)*];
    };
}

scenarios! {
    "turns.toml" => [
        r1_first_player_chosen_at_creation,
        r2_turn_is_one_action,
        r3_pass_rules,
        r3_no_pass_after_own_pass,
        r4_attack_as_first_half,
        r5_infantry_diagonal_needs_double_turn,
        s1_diagonal_uses_whole_double_turn,
        r5_forest_entry_needs_double_turn,
        r5_ordinary_moves_do_not_end_double_turn,
        r6_attacks_in_both_halves_count_two,
        r6_rulebook_example,
        r6_attack_run_support_allowed,
        r6_advance_is_not_a_move,
        r7_reserve_unit_keeps_its_run,
        r7_reserve_order_picks_shortest_run,
        r8_no_legal_second_half,
        r8_no_legal_double_turn,
        r8_pass_keeps_single_turn_alive,
    ],
    "moves.toml" => [
        r9_infantry_steps,
        r10_artillery_steps,
        r11_cavalry_paths,
        r11_cavalry_forest_and_two_units,
        s2_two_cavalry_from_reserve,
        s2_two_cavalry_in_written_order,
        s2_reversed_sequence_refused,
        s2_two_cavalry_either_order,
        r12_own_reserve,
        r13_enemy_reserve_held_then_entered,
        r13_cavalry_two_steps_into_empty_reserve,
        s3_no_path_through_enemy_reserve,
        e2_infantry_half_inch_contact,
        e3_cavalry_through_corner,
        r11_cavalry_and_infantry_leave_forest,
        s3_gray_path_through_own_reserve,
        s2_reserve_pair_first_part_takes_shortest_run,
    ],
    "attacks.toml" => [
        r14_attack_geometry,
        r15_cavalry_unsupported_on_infantry,
        r15_artillery_targets,
        r15_artillery_duel,
        r16_artillery_pin_one,
        r16_pinned_by_two,
        r16_reserve_artillery_does_not_pin,
        r17_unsupported_attack_on_forest,
        r17_unsupported_attack_on_artillery,
        r17_unsupported_stand_both_eliminated,
        r17_unsupported_retreat_no_advance,
        r17_reserve_loses_unit_of_owners_choice,
        r18_flank_defender_must_retreat,
        r18_flank_no_retreat_eliminated,
        r18_attacker_behind_makes_flank,
        r18_same_depth_is_not_flank,
        r18_unsupported_is_never_flank,
        e4_flank_attack_publisher_game,
        e6_flank_attack_eliminates_artillery,
        r20_advance_into_forest,
        r22_forest_retreat_barred_by_enemy_artillery,
        r22_forest_retreat_choices,
        r22_no_clear_path_must_stand,
        r22_friendly_units_do_not_block,
        r22_retreat_path_through_corner,
        r22_corner_paths_blocked_too,
        r23_artillery_retreats_forest_to_forest_only,
        r23_artillery_in_forest_without_free_forest,
        e5_publisher_notation,
        r18_flank_forest_infantry_must_retreat,
        r18_flank_forest_cavalry_must_retreat,
        r18_flank_forest_artillery_must_retreat,
        r22_path_must_always_get_closer,
        r16_pin_also_bars_reserve_attack,
        r15_cavalry_unsupported_on_forest_infantry,
        r17_unsupported_artillery_on_forest,
    ],
    "options.toml" => [
        r19_option1_eliminate_and_retreat_both,
        r19_option2_eliminate_support_and_advance,
        r19_option3_eliminate_attacker,
        r19_option4_attacker_retreats,
        r19_option5_support_retreats,
        r19_attacking_cavalry_never_retreats,
        r19_attacking_artillery_never_retreats_nor_advances,
        r19_options_need_the_supporter_retreat,
        r19_options_need_the_attacker_retreat,
        r19_artillery_support_second_chance_taken,
        r19_artillery_support_second_chance_declined,
        s7_second_chance_cavalry_may_stand,
        s7_second_chance_forest_to_forest,
        s7_second_chance_artillery_defender,
        s8_option5_cavalry_chain_displaces_attacker,
        s6_option1_support_retreat_spares_attacker,
        s8_option5_offers_every_chain,
        r19_supported_reserve_attack_advance_wins,
        r19_artillery_empties_reserve_without_advancing,
        r19_option5_artillery_support_no_second_chance,
        r19_artillery_attacker_never_advances,
        s7_second_chance_forest_opened_by_artillery_retreat,
        s8_attacker_retreat_from_forest_uses_reserve_path,
    ],
    "retreats.toml" => [
        r21_retreated_infantry_rests,
        r21_rest_lasts_one_half_of_double_turn,
        r21_own_retreat_rests_in_second_half,
        r21_resting_unit_may_not_support,
        r24_cavalry_must_retreat_and_moves_freely,
        r24_cavalry_attacked_by_lone_cavalry_may_stand,
        r24_cavalry_attacked_by_lone_infantry_must_retreat,
        r24_cavalry_that_cannot_retreat_stands,
        r24_cavalry_retreats_into_its_reserve,
        r24_empty_square_before_chain,
        r24_cavalry_chain_choices,
        r24_cavalry_chain_three_units,
        r24_broken_chain_cavalry_stands,
        r23_artillery_displaced_by_cavalry,
        s8_displaced_infantry_has_no_forest_retreat,
        s8_chain_breaks_on_displaced_forest_infantry,
        r22_attacked_forest_infantry_without_clear_path,
        r25_no_attack_or_support_from_reserve,
    ],
    "winning.toml" => [
        r26_artillery_counts_two,
        r26_third_cavalry_doubles_all,
        r26_reserve_loss_counts,
        s5_no_advance_once_decided_on_points,
        r27_both_reach_ten_equal_draw,
        r27_both_reach_ten_higher_total_wins,
        e1_rulebook_scoring_example,
        r27_victory_after_full_resolution,
        s4_reserve_loses_resting_unit,
        s4_reserve_loses_longest_move_run,
        r28_resignation_is_outside_the_engine,
    ],
}

/// Every case of every file under tests/data/scenarios has a test above,
/// every test has its case, and no case id is used twice.
#[test]
fn every_case_is_registered() {
    let mut on_disk: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    for entry in fs::read_dir(scenario_dir()).expect("tests/data/scenarios exists") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 file name")
            .to_string();
        assert!(
            name.ends_with(".toml"),
            "{name}: only .toml case files belong in tests/data/scenarios"
        );
        for case in load(&name).cases {
            if let Some(other) = ids.insert(case.id.clone(), name.clone()) {
                panic!("case id {} is used in {other} and in {name}", case.id);
            }
            on_disk.entry(name.clone()).or_default().push(case.id);
        }
    }
    let disk: BTreeSet<(String, String)> = on_disk
        .iter()
        .flat_map(|(f, ids)| ids.iter().map(move |id| (f.clone(), id.clone())))
        .collect();
    let registered: BTreeSet<(String, String)> = REGISTERED
        .iter()
        .map(|(f, id)| (f.to_string(), id.to_string()))
        .collect();
    let unregistered: Vec<_> = disk.difference(&registered).collect();
    let missing: Vec<_> = registered.difference(&disk).collect();
    assert!(
        unregistered.is_empty() && missing.is_empty(),
        "scenario registry out of date\n  cases without a test: {unregistered:#?}\n  tests without a case: {missing:#?}"
    );
    assert_eq!(
        registered.len(),
        REGISTERED.len(),
        "a case is registered twice"
    );
}
