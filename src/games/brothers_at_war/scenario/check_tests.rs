//! The checker on the demo battle and on copies of it broken one way at a
//! time: each problem found, with the line it names.

use super::cards::Words;
use super::check::{check, load, load_with};
use super::model::Side;
use crate::games::brothers_at_war::core::Hex;

const DEMO: &str = include_str!("../../../../data/brothers-at-war/tanners-ford.toml");

/// The demo with `from` (which must occur once) replaced by `to`.
fn broken(from: &str, to: &str) -> String {
    assert_eq!(DEMO.matches(from).count(), 1, "{from:?} must occur once");
    DEMO.replacen(from, to, 1)
}

/// The line (from 1) where `needle` (which may span lines) first begins.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).expect(needle);
    1 + text[..at].matches('\n').count()
}

/// Checks `text` and asserts exactly one problem, on the line holding
/// `on`, whose message contains `says`.
fn one_problem(text: &str, on: &str, says: &str) {
    let found = check(text);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].line, line_of(text, on), "{found:?}");
    assert!(found[0].message.contains(says), "{found:?}");
}

fn hex(name: &str) -> Hex {
    name.parse().unwrap()
}

#[test]
fn the_demo_checks_clean_and_loads() {
    let checked = load(DEMO).unwrap_or_else(|p| panic!("{p:#?}"));
    assert_eq!(
        checked.summary(),
        "tanners-ford: Tanner's Ford, 5 turns, 15 x 12 hexes, 4 brigades, 22 units, 30 cards"
    );
    let (s, map) = (&checked.scenario, &checked.map);
    assert!(s.source.contains("not from the boxed game"));
    assert!(DEMO.starts_with('#'));
    let ford = map.place_hex("Tanner's Ford").unwrap();
    assert!(map.terrain_of(ford).river);
    let fords = map.hexside(hex("0709"), ford);
    assert!(map.hexside_kinds()[usize::from(fords[0].0)].ford);
    assert!(map.terrain_of(hex("0709")).building);
    assert!(map.road(hex("0704"), hex("0804")) && map.road(hex("0404"), hex("0405")));
    assert!(map.trail(hex("0809"), hex("0909")));
    assert!((2..=3).contains(&map.level(hex("0207"))));
    assert_eq!(map.rally_points(Side::Union).len(), 2);
    let per_side = |side| {
        s.brigades
            .iter()
            .filter(|b| b.side == side && !b.divisional)
            .count()
    };
    assert_eq!((per_side(Side::Union), per_side(Side::Confederacy)), (2, 2));
    let mut numbers: Vec<u8> = s.cards.iter().flat_map(|c| c.numbers.clone()).collect();
    numbers.sort();
    assert_eq!(numbers, (1..=30).collect::<Vec<u8>>());
    assert!(s.cards.iter().all(|c| !c.text.is_empty()));
    assert_eq!(s.units.iter().filter(|u| u.enters.is_some()).count(), 1);
    let keys: Vec<Hex> = s.victory.hexes.iter().map(|k| k.at).collect();
    assert!(keys.contains(&ford) && keys.contains(&map.place_hex("tanner's mill").unwrap()));
}

#[test]
fn syntax_errors_and_unknown_keys_name_their_line() {
    one_problem(
        &broken("name = \"Woods\"", "name = \"Woods"),
        "name = \"Woods",
        "",
    );
    one_problem(
        &broken("turns = 5", "turns = 5\ncolour = 1"),
        "colour",
        "unknown field",
    );
    one_problem(
        &broken(
            "sharpshooter = true",
            "sharpshooter = true\nrange = \"far\"",
        ),
        "range = \"far\"",
        "",
    );
}

#[test]
fn every_syntax_error_is_reported() {
    let text = broken("turns = 5", "turns = = 5").replacen(
        "countdown_markers = 3",
        "countdown_markers 3",
        1,
    );
    let found = check(&text);
    let lines: Vec<usize> = found.iter().map(|p| p.line).collect();
    assert_eq!(
        lines,
        [
            line_of(&text, "turns = = 5"),
            line_of(&text, "countdown_markers 3")
        ],
        "{found:?}"
    );
}

#[test]
fn the_header_is_checked() {
    one_problem(
        &broken("format = \"orderly-brothers-at-war 1\"", "format = \"x 2\""),
        "format = ",
        "format must be",
    );
    one_problem(
        &broken("id = \"tanners-ford\"", "id = \"Tanners Ford\""),
        "id = \"Tanners",
        "id `",
    );
    one_problem(&broken("turns = 5", "turns = 61"), "turns = 61", "1 to 60");
}

#[test]
fn the_map_is_checked_through_battle_map() {
    let text = broken(
        ". . h . . o . ~ . . . . . . .",
        ". . h . . o . ~ . . . . . . q",
    );
    one_problem(&text, ". . h . .", "`q` is not in map.legend");
    one_problem(
        &broken("\"0508 0609 wall\"", "\"0508 0610 wall\""),
        "0508 0610",
        "not adjacent",
    );
    one_problem(&broken("0604 0504 0404", "0604 0404"), "0604 0404", "a gap");
    one_problem(
        &broken(
            "union = [\"1504\", \"1509\"]",
            "union = [\"1504\", \"1609\"]",
        ),
        "1609",
        "off the map",
    );
}

#[test]
fn brigades_and_units_are_checked() {
    one_problem(
        &broken(
            "brigade = \"usa-art\"\nkind = \"artillery\"\nfront = { firepower = 3",
            "brigade = \"usa\"\nkind = \"artillery\"\nfront = { firepower = 3",
        ),
        "brigade = \"usa\"",
        "no brigade `usa`",
    );
    one_problem(
        &broken("id = \"GR7\"", "id = \"FN6\""),
        "id = \"FN6\"\nname = \"7th",
        "used twice",
    );
    one_problem(
        &broken(
            "firepower = 6, movement = 4 }\nback = { firepower = 4, movement = 4 }\nat = \"0604\"",
            "firepower = 21, movement = 4 }\nback = { firepower = 4, movement = 4 }\nat = \"0604\"",
        ),
        "firepower = 21",
        "above 20",
    );
    one_problem(
        &broken("range = 4", "range = 31"),
        "range = 31",
        "outside 1 to 30",
    );
    one_problem(
        &broken("dark = 2", "dark = 6"),
        "dark = 6",
        "6 dark spaces on a track of 5",
    );
    one_problem(
        &broken(
            "divisional = true\nmarkers = 1",
            "divisional = true\nmarkers = 1\nreserves = { length = 3, dark = 1 }",
        ),
        "length = 3, dark = 1",
        "9.3",
    );
    one_problem(
        &broken(
            "commander = { name = \"Col. Josiah Pell\", at = \"1309\" }\n",
            "",
        ),
        "id = \"pell\"",
        "needs a commander",
    );
    one_problem(
        &broken(
            "commander = { name = \"Col. Silas Ward\", at = \"1205\" }",
            "commander = { name = \"Col. Silas Ward\", at = \"1213\" }",
        ),
        "1213",
        "off the map",
    );
}

#[test]
fn commanders_and_remnants_are_checked() {
    let hale = "commander = { name = \"Col. Amos Hale\", at = \"0405\" }";
    let at = |hex: &str| broken(hale, &hale.replace("0405", hex));
    one_problem(&at("0808"), "at = \"0808\" }", "B19");
    assert!(
        check(&at("0809")).is_empty(),
        "the ford opens its creek hex (B19)"
    );
    one_problem(
        &broken(
            "[remnant]\nfront = { firepower = 1",
            "[remnant]\nfront = { firepower = 21",
        ),
        "firepower = 21",
        "above 20",
    );
}

#[test]
fn only_cavalry_skirmishers_set_up_mounted() {
    let text = broken(
        "name = \"Rusk's Skirmishers\"",
        "name = \"Rusk's Skirmishers\"\nface = \"back\"",
    );
    one_problem(&text, "face = \"back\"\nbrigade = \"rusk\"", "9.11");
    let text = text.replacen(
        "face = \"back\"\nbrigade = \"rusk\"",
        "face = \"back\"\ncavalry_symbol = true\nbrigade = \"rusk\"",
        1,
    );
    assert!(check(&text).is_empty());
}

#[test]
fn the_set_up_is_checked() {
    one_problem(
        &broken(
            "at = \"0406\"",
            "at = \"0408\"\nface = \"front\"\nenters = { turn = 2, at = [\"0101\"] }",
        ),
        "id = \"DM4\"",
        "more than one of",
    );
    let text = broken("at = \"0406\"", "at = \"0808\"");
    one_problem(&text, "at = \"0808\"", "5.213");
    let text = broken("at = \"0406\"", "at = \"0507\"");
    assert!(check(&text).is_empty(), "two units a hex are allowed (5.3)");
    let text =
        broken("at = \"0406\"", "at = \"0507\"").replacen("at = \"0604\"", "at = \"0507\"", 1);
    one_problem(
        &text,
        "at = \"0507\"\n\n[[unit]]\nid = \"FN6\"",
        "third unit",
    );
    one_problem(
        &broken("at = \"1004\"", "at = \"0604\""),
        "at = \"0604\"\n\n[[unit]]\nid = \"11N\"",
        "both sides",
    );
    one_problem(
        &broken("at = \"0907\"", "at = \"1008\""),
        "at = \"1008\"\n\n[[unit]]\nid = \"14Q\"",
        "skirmisher stacked",
    );
    one_problem(
        &broken("at = \"0703\"\n", ""),
        "id = \"FN6\"",
        "only a skirmisher starts",
    );
    one_problem(
        &broken("at = [\"1504\", \"1509\"]", "at = [\"1504\", \"1208\"]"),
        "\"1208\"",
        "edge",
    );
    one_problem(
        &broken("enters = { turn = 3,", "enters = { turn = 6,"),
        "turn = 6",
        "outside 1 to 5",
    );
}

#[test]
fn the_track_deck_and_victory_are_checked() {
    one_problem(
        &broken("\"cards\", \"countdown\"]", "\"flags\", \"countdown\"]"),
        "\"flags\"",
        "3.14",
    );
    let track = |spaces: &str| {
        let all = "spaces = [\"\", \"\", \"cards\", \"\", \"countdown\", \"\", \"\", \"cards\", \"\", \"countdown\", \"\", \"\", \"cards\", \"countdown\"]";
        broken(all, &format!("spaces = [{spaces}]"))
    };
    one_problem(
        &track("\"\", \"cards\", \"\""),
        "spaces = [",
        "no countdown space",
    );
    one_problem(
        &track("\"countdown\""),
        "spaces = [",
        "START and at least one more",
    );
    assert!(
        check(&track("\"\", \"countdown\"")).is_empty(),
        "a short track is allowed (B38)"
    );
    one_problem(
        &broken("numbers = [27]", "numbers = [26]"),
        "numbers = [26]\nname = \"Second",
        "used twice",
    );
    one_problem(
        &broken("numbers = [27]", "numbers = [100]"),
        "numbers = [100]",
        "outside 1 to 99",
    );
    one_problem(
        &broken("timing = \"drawn\"", "timing = \"sometimes\""),
        "sometimes",
        "timing window",
    );
    one_problem(
        &broken("effect = \"no-fire\"", "effect = \"win\""),
        "\"win\"",
        "effect",
    );
    one_problem(
        &broken("at = \"0404\"\npoints = 3", "at = \"0416\"\npoints = 3"),
        "0416",
        "off the map",
    );
    one_problem(
        &broken(
            "timing = \"own-activation\"\neffect = \"extra-movement\"",
            "timing = \"any\"\neffect = \"extra-movement\"",
        ),
        "timing = \"any\"\neffect = \"extra-movement\"",
        "played in own-activation",
    );
    one_problem(
        &broken("points = 1", "points = 9"),
        "points = 9",
        "a number 1 to 4",
    );
    one_problem(
        &broken("reach = 2", "range = 2"),
        "range = 2",
        "no parameter `range`",
    );
    one_problem(
        &broken("hexes = 2", "hexes = \"far\""),
        "\"far\"",
        "or long",
    );
    one_problem(
        &broken("ignore-disband = true", "ignore-disband = 1"),
        "ignore-disband = 1",
        "true or false",
    );
    // The engine's own words may be narrower than the defaults.
    let words = Words {
        timings: &["any"],
        effects: &["no-effect"],
    };
    let found = load_with(DEMO, &words).unwrap_err();
    assert!(found.len() > 20, "{}", found.len());
}

#[test]
fn off_board_artillery_is_checked() {
    let with_oba = |point: &str, card: &str| {
        DEMO.replacen(
            "[map.rally_points]",
            &format!("fire_points = [{{ id = \"east\", at = \"{point}\", range = 8 }}]\n\n[map.rally_points]"),
            1,
        ) + &format!(
            "\n[[off_board]]\nid = \"guns\"\nname = \"Reserve guns\"\nside = \"union\"\nfire_points = [\"{card}\"]\nlevel = 2\n\n[[unit]]\nid = \"OB1\"\nname = \"Reserve battery\"\nbrigade = \"usa-art\"\nkind = \"artillery\"\nfront = {{ firepower = 4, movement = 0 }}\nback = {{ firepower = 0, movement = 0 }}\nrange = 6\noff_board = \"guns\"\n"
        )
    };
    assert!(
        check(&with_oba("1506", "east")).is_empty(),
        "{:?}",
        check(&with_oba("1506", "east"))
    );
    one_problem(
        &with_oba("1506", "west"),
        "fire_points = [\"west\"]",
        "no fire point `west`",
    );
    one_problem(&with_oba("1106", "east"), "id = \"east\"", "edge");
    let wrong_side = with_oba("1506", "east").replacen(
        "side = \"union\"\nfire_points",
        "side = \"confederacy\"\nfire_points",
        1,
    );
    one_problem(&wrong_side, "off_board = \"guns\"", "side");
}

#[test]
fn oversized_files_and_lists_are_refused() {
    let big = format!("{DEMO}\n#{}\n", "x".repeat(super::read::MAX_FILE_BYTES));
    let found = check(&big);
    assert_eq!(found.len(), 1);
    assert!(found[0].message.contains("at most"));
    let many: String = (0..401)
        .map(|i| format!("\n[[unit]]\nid = \"X{i}\"\nname = \"X\"\nbrigade = \"hale\"\nkind = \"skirmisher\"\nfront = {{ firepower = 1, movement = 4 }}\nback = {{ firepower = 1, movement = 4 }}\n"))
        .collect();
    let found = check(&format!("{DEMO}{many}"));
    assert!(
        found.iter().any(|p| p.message.contains("at most 400")),
        "{found:?}"
    );
}

mod mutations {
    use super::*;
    use proptest::prelude::*;

    /// The demo with one line replaced by `with` (a line index modulo the
    /// line count).
    fn with_line(index: usize, with: &str) -> String {
        let lines: Vec<&str> = DEMO.lines().collect();
        let i = index % lines.len();
        let mut out: Vec<&str> = lines[..i].to_vec();
        out.push(with);
        out.extend_from_slice(&lines[i + 1..]);
        out.join("\n")
    }

    /// Every problem names a line of the file.
    fn lines_in_file(text: &str) -> Result<(), TestCaseError> {
        let count = text.lines().count().max(1);
        for p in check(text) {
            prop_assert!((1..=count + 1).contains(&p.line), "{p:?} of {count} lines");
            prop_assert!(!p.message.is_empty());
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn a_line_dropped_or_changed_never_panics(index in 0usize..1000, with in "[ -~]{0,40}") {
            lines_in_file(&with_line(index, ""))?;
            lines_in_file(&with_line(index, &with))?;
        }

        #[test]
        fn a_value_changed_never_panics(index in 0usize..1000, value in prop_oneof![
            Just("0".to_owned()),
            Just("255".to_owned()),
            Just("\"0000\"".to_owned()),
            Just("\"9999\"".to_owned()),
            Just("[]".to_owned()),
            Just("{}".to_owned()),
            Just("\"\"".to_owned()),
            "[a-z0-9]{1,6}".prop_map(|w| format!("\"{w}\"")),
        ]) {
            let lines: Vec<&str> = DEMO.lines().collect();
            let line = lines[index % lines.len()];
            if let Some((key, _)) = line.split_once(" = ") {
                lines_in_file(&with_line(index, &format!("{key} = {value}")))?;
            }
        }
    }
}
