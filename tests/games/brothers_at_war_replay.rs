//! The Brothers at War rule cases (tests/data/brothersatwar/cases, worked out from the
//! rulebook by an author who never saw the engine) replayed against the engine: one test
//! per case file, named by it. A test fails on every case that disagrees with the engine
//! unless DISAGREEMENTS.md there reports it, on every case that cannot replay yet unless
//! PENDING.md lists it with the reason, and on every case either list names that no longer
//! belongs there, so that both lists only shrink as the engine grows.

use std::collections::BTreeMap;
use std::fs;

#[path = "../common/brothers_at_war_compare.rs"]
mod compare;
#[path = "../common/brothers_at_war_format.rs"]
mod format;
#[path = "../common/brothers_at_war_replay.rs"]
mod replay;
#[path = "../common/brothers_at_war_setup.rs"]
mod setup;
#[path = "../common/brothers_at_war_steps.rs"]
mod steps;

use format::CaseFile;
use replay::Replay;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/brothersatwar");

/// The case ids a list file names: each entry is a line `- \`case_id\`: why`
/// (PENDING.md) or a heading `## \`case_id\`` (DISAGREEMENTS.md).
fn listed(file: &str, prefix: &str) -> BTreeMap<String, String> {
    let text = fs::read_to_string(format!("{DATA}/{file}")).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .filter_map(|l| {
            let rest = l.strip_prefix('`')?;
            let (id, why) = rest.split_once('`')?;
            Some((
                id.to_string(),
                why.trim_start_matches(':').trim().to_string(),
            ))
        })
        .collect()
}

/// Replays every case of one file and fails with everything out of place.
fn replay_file(name: &str) {
    let path = format!("{DATA}/cases/{name}.toml");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: CaseFile = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let pending = listed("PENDING.md", "- ");
    let known = listed("DISAGREEMENTS.md", "## ");
    let chart = setup::chart();
    let mut wrong = Vec::new();
    for case in &file.cases {
        let id = &case.id;
        match (
            replay::replay(case, &chart),
            pending.contains_key(id),
            known.contains_key(id),
        ) {
            (Replay::Pending(why), false, _) => {
                wrong.push(format!("{id}: neither replayed nor in PENDING.md: {why}"))
            }
            (Replay::Pending(_), true, _) => {}
            (Replay::Ran(_), true, _) => {
                wrong.push(format!("{id}: replays now: take it out of PENDING.md"))
            }
            (Replay::Ran(found), false, false) if !found.is_empty() => wrong.push(format!(
                "{id} disagrees with the engine:\n    {}",
                found.join("\n    ")
            )),
            (Replay::Ran(found), false, true) if found.is_empty() => wrong.push(format!(
                "{id}: agrees with the engine now: take it out of DISAGREEMENTS.md"
            )),
            (Replay::Ran(_), false, _) => {}
        }
    }
    assert!(wrong.is_empty(), "{name}:\n  {}", wrong.join("\n  "));
}

/// The replay can fail: an expectation changed by one, in a case the engine agrees with,
/// is reported (a movement point, a hit), and so is an acceptance turned into a refusal.
#[test]
fn a_changed_expectation_is_reported() {
    let chart = setup::chart();
    let read = |name: &str| -> CaseFile {
        toml::from_str(&fs::read_to_string(format!("{DATA}/cases/{name}.toml")).unwrap()).unwrap()
    };
    let find = |file: &mut CaseFile, id: &str| file.cases.iter().position(|c| c.id == id).unwrap();
    let mut moves = read("s5_21_move");
    let i = find(&mut moves, "s5_21_woods_cost_two");
    assert!(matches!(replay::replay(&moves.cases[i], &chart), Replay::Ran(f) if f.is_empty()));
    let left = moves.cases[i].steps[0].expect.mp_left.unwrap();
    moves.cases[i].steps[0].expect.mp_left = Some(left + 1);
    assert!(matches!(replay::replay(&moves.cases[i], &chart), Replay::Ran(f) if f.len() == 1));
    moves.cases[i].steps[0].expect.mp_left = Some(left);
    moves.cases[i].steps[0].expect.result = format::Outcome::Refused;
    assert!(matches!(replay::replay(&moves.cases[i], &chart), Replay::Ran(f) if !f.is_empty()));

    let mut dice = read("s1_7_dice");
    let i = dice.cases.iter().position(|c| {
        c.steps.iter().any(|s| s.expect.hits.is_some())
            && matches!(replay::replay(c, &chart), Replay::Ran(f) if f.is_empty())
    });
    let i = i.expect("a fire case of s1_7_dice the engine agrees with");
    let step = dice.cases[i]
        .steps
        .iter_mut()
        .find(|s| s.expect.hits.is_some())
        .unwrap();
    step.expect.hits = step.expect.hits.map(|h| h + 1);
    assert!(matches!(replay::replay(&dice.cases[i], &chart), Replay::Ran(f) if !f.is_empty()));
}

/// Every case comes to exactly one of: agrees, pending (PENDING.md), a
/// known disagreement (DISAGREEMENTS.md); and every name the two lists
/// hold is a case. With `BAW_REPLAY_REPORT=1` (and `--nocapture`) it
/// prints what each case comes to, for whoever keeps the two lists.
#[test]
fn every_case_is_accounted_for_once() {
    let chart = setup::chart();
    let pending = listed("PENDING.md", "- ");
    let known = listed("DISAGREEMENTS.md", "## ");
    let report = std::env::var_os("BAW_REPLAY_REPORT").is_some();
    let mut names: Vec<_> = fs::read_dir(format!("{DATA}/cases"))
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .collect();
    names.sort();
    let mut ids = std::collections::BTreeSet::new();
    let (mut agree, mut wait, mut differ) = (0, 0, 0);
    for path in names {
        let file: CaseFile = toml::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        for case in &file.cases {
            assert!(ids.insert(case.id.clone()), "{} is two cases", case.id);
            match replay::replay(case, &chart) {
                Replay::Pending(why) => {
                    wait += 1;
                    if report {
                        println!("PENDING {}: {why}", case.id);
                    }
                }
                Replay::Ran(found) if found.is_empty() => {
                    agree += 1;
                    if report {
                        println!("AGREES {}", case.id);
                    }
                }
                Replay::Ran(found) => {
                    differ += 1;
                    if report {
                        println!("DISAGREES {}:\n    {}", case.id, found.join("\n    "));
                    }
                }
            }
        }
    }
    for id in pending.keys().chain(known.keys()) {
        assert!(ids.contains(id), "{id} is listed but is no case");
    }
    assert_eq!(wait, pending.len(), "pending cases against PENDING.md");
    assert_eq!(
        differ,
        known.len(),
        "disagreements against DISAGREEMENTS.md"
    );
    assert_eq!(agree + wait + differ, ids.len());
    eprintln!("{agree} agree, {differ} disagree, {wait} pending");
}

macro_rules! case_files {
    ($($name:ident)*) => {
        $(
            #[test]
            fn $name() {
                replay_file(stringify!($name));
            }
        )*

        /// Every case file has its test here, and every test its file.
        #[test]
        fn every_case_file_is_replayed() {
            let mut files: Vec<String> = fs::read_dir(format!("{DATA}/cases"))
                .unwrap()
                .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".toml").map(String::from))
                .collect();
            files.sort();
            let mut tests = vec![$(stringify!($name).to_string()),*];
            tests.sort();
            assert_eq!(files, tests);
        }
    };
}

case_files! {
    s10_reinforcements s11_3_battle_cards s1_5_markers s1_611_fences s1_7_dice
    s2_2_activation_phase s2_321_free_activation s2_33_fate_check s2_3_end_phase
    s3_15_uncommitted_brigades s3_21_recovery s3_22_activate s4_command s5_211_roads
    s5_212_road_march s5_213_rivers s5_21_move s5_221_formation_and_movement
    s5_222_artillery_limbering s5_24_fire_and_hold_fire s5_34_mixed_stacks
    s5_35_regimental_stacks s5_36_stack_fire s5_3_stacking s5_4_formations
    s6_12_opportunity_fire s6_13_skirmisher_fire s6_141_combined_fire_example
    s6_14_combined_fire s6_15_point_blank_fire s6_16_artillery_fire
    s6_321_hexside_los_example s6_33_hindrances_and_elevation
    s6_341_elevation_and_hindrances_example s6_351_los_shadows_example
    s6_363_skirmish_zone_example s6_3_line_of_sight s6_431_pass_through_example
    s6_4_pass_through s6_5_combat_results s6_6_saves s6_731_retreat_example s6_7_retreats
    s7_assault s8_brigade_display s9_1_skirmishers s9_2_remnants_and_divisional_artillery
    s9_421_off_board_artillery_example
}
