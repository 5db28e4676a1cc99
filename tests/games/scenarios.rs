//! Scenario tests for the SQUARES engine and its Napoleonic variant, one test
//! per case.
//!
//! The Civil War cases live in `tests/data/squares/scenarios/*.toml` and run against
//! [`Squares`]; every expectation in them is derived from the rulebook
//! (`../shared/rules/squares-civil-war.txt`), the rulings R1-R28 and examples
//! E1-E6 (`squares-rulings.md`), the board (`squares-board.md`) and the
//! engine's documented notation and readings S1-S8 (`docs/squares-engine.md`),
//! never from the engine's own output.
//!
//! The Napoleonic cases live in `tests/data/napoleonic/scenarios/*.toml` and
//! run against [`Napoleonic`]; their expectations come from the variant text
//! (`../shared/rules/squares-napoleonic.txt`), the rulings N1-N24
//! (`napoleonic-rulings.md`), R1-R28 where the variant leaves them standing,
//! and the notation and readings N25-N38 of `docs/napoleonic-design.md`.
//! Side words there are the variant's: pending `"british turn"`, outcomes
//! `"British wins on points 10-1"` (North's points first).
//!
//! A case file looks like this:
//!
//! ```toml
//! [[case]]
//! id = "r3_no_pass_twice"
//! description = "R3: PASS is refused right after one's own PASS"
//! position = "..."            # or: opening = "blue" / "gray" (the seat's name, any case)
//! game = "squares"            # optional: run this case against another game than
//!                             # its directory's ("squares" or "napoleonic")
//! unreadable = true           # optional: the position must NOT read (no steps then)
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
//! read = "move inf BR-B3C"    # instead of an order: a line for the forgiving
//! read_as = "MOVE ..."        #   reader (Game::read_order), read as this order,
//! read_rejected = true        #   or rejected; nothing is applied
//! drawing_includes = ["..."]  # text in the board as drawn for the north seat
//! drawing_excludes = ["..."]  #   (runs of white space count as one space)
//! ```
//!
//! Every step also checks two documented invariants: each listed legal order
//! prints canonically and parses back to itself, and the position string
//! reads back to the same string.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use orderly::games::squares::{DecisionKind, EndReason};
use orderly::games::squares::{Napoleonic, Squares};
use orderly::games::{CitesRule, Game, GameOptions, GameResult, GameText, Seat};
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
    game: Option<String>,
    position: Option<String>,
    opening: Option<String>,
    unreadable: Option<bool>,
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
    read: Option<String>,
    read_as: Option<String>,
    read_rejected: Option<bool>,
    drawing_includes: Option<Vec<String>>,
    drawing_excludes: Option<Vec<String>>,
}

/// The case files of `game` (its `Game::NAME`, the folder of its test
/// data).
fn scenario_dir(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(game)
        .join("scenarios")
}

/// Reads `game`'s case file `file` (`"turns.toml"`).
fn load(game: &str, file: &str) -> CaseFile {
    let path = scenario_dir(game).join(file);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read scenario file {}: {e}", path.display()));
    toml::from_str(&text)
        .unwrap_or_else(|e| panic!("scenario file {} does not parse:\n{e}", path.display()))
}

/// A seat as the case files write it: the game's own name in lower case
/// ("blue", "gray"; "british", "french").
fn side_name<G: GameText<Decision = DecisionKind, Ending = EndReason>>(seat: Seat) -> String {
    G::seat_name(seat).to_lowercase()
}

/// The pending decision as the case files write it: `"<side> <kind>"` with
/// kind one of turn, double1, double2, defence, option, retreat,
/// second_chance, reserve_loss, advance; or `"none"` when the game is over.
fn pending_text<G: GameText<Decision = DecisionKind, Ending = EndReason>>(game: &G) -> String {
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
            };
            format!("{} {kind}", side_name::<G>(p.seat))
        }
    }
}

/// The outcome as the case files write it: `"none"`, `"Blue wins by reserve"`,
/// `"Gray wins by no legal action"`, `"Blue wins on points 10-3"` (North's
/// points first), `"draw on points 10-10"`; with the variant's seat names
/// (`"British wins on points 10-1"`) in Napoleonic cases.
fn outcome_text<G: GameText<Decision = DecisionKind, Ending = EndReason>>(game: &G) -> String {
    let Some(outcome) = game.outcome() else {
        return "none".to_string();
    };
    let result = match outcome.result {
        GameResult::Win(seat) => format!("{} wins", G::seat_name(seat)),
        GameResult::Draw => "draw".to_string(),
    };
    match outcome.reason {
        EndReason::ReserveEntered => format!("{result} by reserve"),
        EndReason::NoLegalAction => format!("{result} by no legal action"),
        EndReason::Points { north, south } => format!("{result} on points {north}-{south}"),
    }
}

fn legal_texts<G: GameText<Decision = DecisionKind, Ending = EndReason>>(game: &G) -> Vec<String> {
    game.legal_orders().iter().map(|o| o.to_string()).collect()
}

fn sorted(v: &[String]) -> Vec<String> {
    let mut v = v.to_vec();
    v.sort();
    v
}

/// Runs of white space as one space, so that drawn text may wrap anywhere.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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

fn check_state<G: GameText<Decision = DecisionKind, Ending = EndReason>>(
    ctx: &Ctx,
    game: &G,
    spec: &StepSpec,
) {
    let position = game.position();
    match G::from_position(&position) {
        Ok(again) if again.position() == position => {}
        Ok(again) => ctx.fail(
            "the position string does not read back to itself",
            &position,
            &again.position(),
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
    if spec.drawing_includes.is_some() || spec.drawing_excludes.is_some() {
        let drawing = game.draw_board(Seat::North, &[]);
        let flat = squeeze(&drawing);
        let missing: Vec<&String> = spec
            .drawing_includes
            .iter()
            .flatten()
            .filter(|t| !flat.contains(&squeeze(t)))
            .collect();
        let present: Vec<&String> = spec
            .drawing_excludes
            .iter()
            .flatten()
            .filter(|t| flat.contains(&squeeze(t)))
            .collect();
        if !missing.is_empty() || !present.is_empty() {
            panic!(
                "\ncase {}, step {} (order {:?}): the board drawing\n  lacks: {missing:#?}\n  has, but must not: {present:#?}\n  drawing:\n{drawing}\n",
                ctx.case, ctx.step, ctx.order
            );
        }
    }
}

/// Finds a case by id in a file of `G`'s and runs it against `G`, or
/// against the game the case names itself.
fn run_case<G: GameText<Decision = DecisionKind, Ending = EndReason>>(file: &str, id: &str) {
    let cases = load(G::NAME, file);
    let matching: Vec<&Case> = cases.cases.iter().filter(|c| c.id == id).collect();
    let case = match matching.as_slice() {
        [one] => *one,
        [] => panic!("case {id} is not in {file}"),
        _ => panic!("case {id} appears {} times in {file}", matching.len()),
    };
    match case.game.as_deref() {
        None => run::<G>(case),
        Some(name) if name == Squares::NAME => run::<Squares>(case),
        Some(name) if name == Napoleonic::NAME => run::<Napoleonic>(case),
        Some(other) => panic!(
            "case {id}: game must be {:?} or {:?}, not {other:?}",
            Squares::NAME,
            Napoleonic::NAME
        ),
    }
}

fn run<G: GameText<Decision = DecisionKind, Ending = EndReason>>(case: &Case) {
    let id = case.id.as_str();
    assert!(
        !case.description.trim().is_empty(),
        "case {id}: the description is empty"
    );
    if case.unreadable == Some(true) {
        assert!(
            case.steps.is_empty() && case.opening.is_none(),
            "case {id}: an unreadable position has no steps and no opening"
        );
        let text = case
            .position
            .as_deref()
            .unwrap_or_else(|| panic!("case {id}: unreadable needs a position"));
        if let Ok(game) = G::from_position(text) {
            panic!(
                "case {id}: the position must not read in {}, but reads as {}",
                G::NAME,
                game.position()
            );
        }
        return;
    }
    assert!(!case.steps.is_empty(), "case {id} has no steps");
    let mut game: G = match (&case.position, &case.opening) {
        (Some(text), None) => G::from_position(text).unwrap_or_else(|e| {
            panic!(
                "case {id}: the starting position does not parse: {}",
                e.message
            )
        }),
        (None, Some(first)) => {
            let seat = Seat::BOTH
                .into_iter()
                .find(|&s| side_name::<G>(s) == first.to_lowercase())
                .unwrap_or_else(|| {
                    panic!(
                        "case {id}: opening must be {:?} or {:?}, not {first:?}",
                        side_name::<G>(Seat::North),
                        side_name::<G>(Seat::South)
                    )
                });
            G::new(&GameOptions {
                first: seat,
                seed: None,
                scenario: None,
            })
        }
        _ => panic!("case {id}: give exactly one of position and opening"),
    };
    for (n, spec) in case.steps.iter().enumerate() {
        let ctx = Ctx {
            case: id,
            step: n + 1,
            order: spec
                .order
                .as_deref()
                .or(spec.read.as_deref())
                .unwrap_or("(none)"),
        };
        if let Some(line) = &spec.read {
            if spec.order.is_some()
                || spec.refused.is_some()
                || spec.events.is_some()
                || spec.unparsable.is_some()
            {
                panic!(
                    "case {id}, step {}: read is checked alone, without an order",
                    n + 1
                );
            }
            match (game.read_order(line), &spec.read_as, spec.read_rejected) {
                (Ok(o), Some(want), None) => {
                    if &o.to_string() != want {
                        ctx.fail("the line is read as another order", want, &o.to_string());
                    }
                }
                (Err(r), Some(want), None) => {
                    ctx.fail("the line is rejected", want, &format!("{r:?}"))
                }
                (Ok(o), None, Some(true)) => {
                    ctx.fail("the line is read", &"a rejection", &o.to_string())
                }
                (Err(_), None, Some(true)) => {}
                _ => panic!(
                    "case {id}, step {}: read needs exactly one of read_as and read_rejected = true",
                    n + 1
                ),
            }
        } else if let Some(text) = &spec.order {
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
            let before = game.position();
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
                    if game.position() != before {
                        ctx.fail(
                            "a refused order changed the position",
                            &before,
                            &game.position(),
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
        if spec.read.is_none() && (spec.read_as.is_some() || spec.read_rejected.is_some()) {
            panic!("case {id}, step {}: read_as/read_rejected need read", n + 1);
        }
        check_state(&ctx, &game, spec);
    }
}

macro_rules! scenarios {
    ($registry:ident, $game:ty; $($file:literal => [$($id:ident),* $(,)?]),* $(,)?) => {
        $($(
            #[test]
            fn $id() {
                run_case::<$game>($file, stringify!($id));
            }
        )*)*

        /// Every registered case of this game, by file.
        const $registry: &[(&str, &str)] = &[$($(($file, stringify!($id)),)*)*];
    };
}

scenarios! {
    CIVIL_WAR, Squares;
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
        s2_reserve_pair_fresh_cavalry_to_square_written_first,
        s2_reserve_pair_fresh_cavalry_written_second_square,
        s2_reserve_pair_alike_listed_once,
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
    // Written from the rule texts by another engineer (independent check 12).
    "independent-12.toml" => [
        s2_indep_reserve_pair_fresh_to_g3c_written_first,
        s2_indep_reserve_pair_fresh_to_g3l_written_first,
        s2_indep_reserve_pair_fresh_to_g3r_written_first,
        s2_indep_reserve_pair_alike_picks_listed_once,
        s2_indep_reserve_pair_two_fresh_one_tired,
    ],
}

scenarios! {
    NAPOLEONIC, Napoleonic;
    "moves.toml" => [
        n1_f_codes_printed_g_codes_read,
        n1_civil_war_has_no_f_codes,
        n1_napoleonic_position_not_civil_war,
        n1_civil_war_position_not_napoleonic,
        n2_opening_army_and_listing,
        n2_seven_infantry_unreadable,
        n2_missing_guard_unreadable,
        n3_guard_diagonal_needs_double_turn,
        n3_guard_forest_needs_double_turn,
        n3_guard_forest_as_whole_double_turn,
        n4_light_forest_one_action,
        n4_light_forest_is_one_half,
        n4_light_diagonal_needs_double_turn,
        n4_light_diagonal_as_whole_double_turn,
        n5_horse_battery_moves,
        n5_horse_battery_path_needs_empty_middle,
        n5_horse_battery_forest_whole_double_turn,
        n5_horse_battery_not_in_pairs,
        n6_heavy_never_in_forest,
        n6_pair_cavalry_and_heavy,
        n6_heavy_never_advances_into_forest,
        n25_horse_battery_through_own_reserve,
        n37_pair_from_reserve_written_either_way,
        n37_pair_from_reserve_both_assignments,
        s2_variant_reserve_pair_fresh_cavalry_to_square_written_first,
    ],
    "attacks.toml" => [
        n7_infantry_never_attacks_cavalry,
        n7_guard_never_attacks_heavy,
        n7_light_never_attacks_heavy,
        n7_infantry_supports_against_cavalry,
        n8_cavalry_alone_on_infantry_refused,
        n8_heavy_alone_on_infantry,
        n9_artillery_targets,
        n9_artillery_on_horse_battery,
        n9_horse_battery_attacks_heavy,
        n10_charge_eliminates_infantry,
        n10_supported_charge,
        n10_charge_on_guard,
        n10_no_charge_outside_first_half,
        n10_opponent_pass_is_no_charge,
        n10_flank_precedes_charge,
        n10_forest_defender_not_charged,
        n11_infantry_bounces_off_guard,
        n11_light_bounces_off_guard,
        n11_after_pass_normal,
        n11_guard_on_guard_normal,
        n28_charge_into_forest,
        n28_no_lone_cavalry_on_forest_infantry,
        n34_infantry_attacks_cavalry_reserve,
        n11_guard_not_immune_to_heavy,
        r16_horse_battery_pins,
    ],
    "defence.toml" => [
        n12_infantry_yields_to_guard,
        n12_light_picks_its_retreat,
        n12_no_retreat_stands,
        n12_supporting_guard_forces_nothing,
        n13_guard_steps_back,
        n13_guard_falls_back_on_path,
        n13_guard_in_forest,
        n13_guard_displaced_in_chain,
        n14_heavy_may_stand,
        n14_cavalry_bounces_off_heavy,
        n14_heavy_on_heavy_normal,
        n14_heavy_flanked_must_retreat,
        n14_heavy_retreat_avoids_forest,
        n15_horse_battery_may_retreat_or_stand,
        n15_horse_battery_chain_retreat,
        n15_horse_battery_immune_to_infantry,
        n15_horse_battery_immune_to_guard,
        n15_horse_battery_immune_to_light_infantry,
        n15_horse_battery_immune_to_heavy_cavalry,
        n15_horse_battery_immune_to_cavalry,
        n15_horse_battery_immune_to_charging_cavalry,
        n16_heavy_rests,
        n16_horse_battery_rests,
        n16_cavalry_does_not_rest,
        n26_horse_battery_retreats_into_forest,
        n27_cavalry_must_retreat_from_lone_heavy,
        n27_cavalry_may_stand_against_lone_cavalry,
        n29_guard_second_chance_compulsory,
        r22_horse_battery_bars_forest_retreat,
        n13_displaced_guard_skips_forest,
        n38_guard_retreats_from_lone_light,
        n38_heavy_retreats_from_lone_cavalry,
        n38_horse_battery_without_retreat_stands_unharmed,
        n38_artillery_has_no_choice,
        n38_forest_guard_no_decision,
        n38_forest_horse_battery_no_decision,
    ],
    "options.toml" => [
        n17_heavy_attacker_options,
        n17_heavy_option1,
        n17_cavalry_attacker_options,
        n18_grand_battery_gb1,
        n18_gb1_second_chance_not_followed,
        n18_gb_with_horse_battery,
        n18_gb2,
        n18_gb3,
        n18_gb_against_artillery_is_normal,
        n18_gb_defender_retreat_not_followed,
        n18_gb_against_cavalry,
        n18_horse_battery_leads_no_gb,
        n19_hb1_all_retreat,
        n19_hb2,
        n19_hb3,
        n19_hb4,
        n19_hb5,
        n19_hb1_needs_defender_retreat,
        n20_no_option1_against_artillery,
        n20_no_option1_heavy_against_hb,
        n20_option1_with_artillery_support,
        n21_second_chance_after_supporting_art,
        n21_no_second_chance_after_supporting_hb,
        n30_hb1_defender_retreats_first,
        n31_only_hb3_left,
        n31_only_gb2_left,
        n32_flank_grand_battery,
        n32_flank_grand_battery_eliminates,
        n33_hb_list_against_artillery,
        n18_gb_against_heavy_standing,
        n18_gb_against_horse_battery,
        n20_option1_with_horse_battery_support,
    ],
    "winning.toml" => [
        n22_guard_counts_double,
        n22_heavy_counts_among_cavalry,
        n22_horse_battery_counts_double,
        n23_simultaneous_ten_draw,
        n23_higher_total_wins,
        n23_reserve_entry_wins,
        n23_resignation_outside_the_engine,
    ],
    "notation.toml" => [
        n24_unit_words,
        n24_lose_words,
        n24_board_legend,
        n35_position_mid_attack,
        n35_passes_and_turn_letters,
        n35_gray_turn_letter_unreadable,
        n35_civil_war_letters_unreadable,
        n36_reader_unit_words,
        n36_reader_grand_battery_options,
        n36_reader_horse_battery_options,
    ],
    // Written from the rule texts by another engineer (independent check 12).
    "independent-12.toml" => [
        n11_indep_guard_stands_against_lone_infantry,
        n11_indep_guard_retreats_from_lone_infantry,
        n11_indep_guard_stands_against_lone_light,
        n11_indep_guard_without_retreat_unharmed,
        n11_indep_light_on_guard_after_pass_normal,
        n11_indep_second_half_guard_immune_again,
        n11_indep_supported_attack_on_guard_options,
        n15_indep_horse_battery_stands_against_lone_infantry,
        n15_indep_horse_battery_retreats_from_lone_infantry,
        n15_indep_horse_battery_choice_against_lone_guard,
        n15_indep_horse_battery_choice_against_lone_light,
        n15_indep_horse_battery_choice_against_lone_cavalry,
        n15_indep_horse_battery_choice_against_lone_heavy,
        n15_indep_horse_battery_choice_against_cavalry_after_pass,
        n15_indep_supported_attack_on_horse_battery_options,
        n14_indep_heavy_stands_against_lone_cavalry,
        n14_indep_heavy_retreats_from_lone_cavalry,
        n14_indep_heavy_without_retreat_unharmed,
    ],
}

/// Reads the ids of every case file of `game` into `on_disk`, keyed by the
/// game and the file as the registries name them, and checks that ids are
/// unique across all.
fn cases_on_disk(
    game: &str,
    on_disk: &mut BTreeSet<(String, String, String)>,
    ids: &mut BTreeMap<String, String>,
) {
    let path = scenario_dir(game);
    for entry in
        fs::read_dir(&path).unwrap_or_else(|e| panic!("cannot list {}: {e}", path.display()))
    {
        let entry = entry.expect("a directory entry");
        let name = entry
            .file_name()
            .to_str()
            .expect("a UTF-8 file name")
            .to_string();
        assert!(
            !entry.path().is_dir(),
            "{game}/{name}: a game's scenarios are files of its own folder, not below it"
        );
        assert!(
            name.ends_with(".toml"),
            "{name}: only .toml case files belong in tests/data/{game}/scenarios"
        );
        let file = format!("{game}/{name}");
        for case in load(game, &name).cases {
            if let Some(other) = ids.insert(case.id.clone(), file.clone()) {
                panic!("case id {} is used in {other} and in {file}", case.id);
            }
            on_disk.insert((game.to_string(), name.clone(), case.id));
        }
    }
}

/// Every case of every file under tests/data/squares/scenarios (the Civil
/// War files) and tests/data/napoleonic/scenarios has a test above, every
/// test has its case, Civil War cases are registered as Civil War ones and
/// Napoleonic cases as Napoleonic ones, and no case id is used twice.
#[test]
fn every_case_is_registered() {
    let mut on_disk = BTreeSet::new();
    let mut ids = BTreeMap::new();
    cases_on_disk(Squares::NAME, &mut on_disk, &mut ids);
    cases_on_disk(Napoleonic::NAME, &mut on_disk, &mut ids);
    for (file, _) in CIVIL_WAR.iter().chain(NAPOLEONIC) {
        assert!(
            !file.contains('/'),
            "{file}: a game's cases live in its own scenarios folder itself"
        );
    }
    let all: Vec<(&str, &str, &str)> = CIVIL_WAR
        .iter()
        .map(|&(f, id)| (Squares::NAME, f, id))
        .chain(NAPOLEONIC.iter().map(|&(f, id)| (Napoleonic::NAME, f, id)))
        .collect();
    let registered: BTreeSet<(String, String, String)> = all
        .iter()
        .map(|(g, f, id)| (g.to_string(), f.to_string(), id.to_string()))
        .collect();
    let unregistered: Vec<_> = on_disk.difference(&registered).collect();
    let missing: Vec<_> = registered.difference(&on_disk).collect();
    assert!(
        unregistered.is_empty() && missing.is_empty(),
        "scenario registry out of date\n  cases without a test: {unregistered:#?}\n  tests without a case: {missing:#?}"
    );
    assert_eq!(registered.len(), all.len(), "a case is registered twice");
}
