//! Fire at off-board batteries (9.43, 9.431-9.433, 9.44; B105, B112-B114,
//! B147), each expectation worked out by hand from the rulebook and the
//! rulings, on a battle of our own ([`BATTLE`]) checked by the scenario
//! reader.
//!
//! Geometry (B15): hexes are flat-topped in columns and even columns sit
//! half a hex north, so a sight line between two hexes of one column runs
//! through the hexes between them only, and the distance between two
//! hexes of one column is the difference of their rows. Every sight line
//! below but those of the 9.421 example runs along one column.
//!
//! The map, 12 x 14 hexes, level 1 and open unless said:
//! - 9.421's example: the Pry House card (level 4) fires from the fire
//!   point PRY, printed in 0314 and numbered 24, its sight starting from
//!   the map-edge hex 0714 (B112: 0712 is 4 hexes from the point, 2 from
//!   0714; 0613 is 3 from the point). 0613, 0614, 0712, 0713 and 0714 are
//!   at level 3; a fence runs between 0712 and 0713.
//! - Sight: woods in 0111, 0211, 0906 and 1105; level-2 hills in 0411 and
//!   0511; an orchard (hindrance) in 0802 below woods in 0801, with a fence
//!   between them; 1211-1214 lie at level 0.
//! - Confederate cards, each with one battery: pry (LNG, range 10), copse
//!   (W1, level 1, point 0214 numbered 2), knoll (L2, level 2, 0414, 2),
//!   heights (H3, level 3, 0514, 2), bend (BENDB, level 1, printed 0904
//!   numbered 2, sight from the edge hex 0914), crest (CRSB, level 1,
//!   printed 1112 numbered 2, sight from 1101), forks (FKB, level 1, two
//!   points: 0101 numbered 3, listed first, and 0114 numbered 2), redoubt
//!   (RDB, level 2, 2 extra saves, 1001 numbered 2, range 5), mill (MLB,
//!   level 1, 0801 numbered 1), hollow (HLB and 9LA, range 4, firepower 3,
//!   level 0, 1214 numbered 1). None may fire at other batteries.
//! - Union cards: uhill (UCB, range 5, firepower 2, level 1, 1206
//!   numbered 3) may fire at other batteries; ulow (UNB, the same ratings,
//!   level 1, 1203 numbered 2) may not.
//! - Union map units: BRK, divisional artillery, range 9 (27 hexes at
//!   most), firepower 2 (Brockenbrough of 9.421); 1NY, formed infantry,
//!   firepower 4, 4 movement points. Confederate: GVA and 5VA, infantry
//!   of the gray brigade, and its skirmisher GSK.

#[path = "../common/mod.rs"]
mod common;

use common::brothersatwar::{activating, hex, id, only, order, quiet, refused, unit_mut};
use orderly::games::brothers_at_war::core::combat::{CombatEvent, FireType};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::Marker;
use orderly::games::brothers_at_war::core::order::Order;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use orderly::games::brothers_at_war::scenario::model::Face;
use orderly::games::brothers_at_war::scenario::{self, registry};
use orderly::games::{Game, GameOptions};

/// The test battle of this file (see the module's comment).
const BATTLE: &str = r#"# Off-board batteries under fire (9.43): a battle of our own for the tests.
format = "orderly-brothers-at-war 1"
id = "test-batteries"
name = "Batteries at Hollow Run (test)"
source = "orderly tests: original, not from the boxed game"
turns = 3
hand_size = { union = 2, confederacy = 2 }

[map]
columns = 12
rows = 14
legend = { "." = "open", "w" = "woods", "o" = "orchard" }
terrain = [
  ". . . . . . . w . . . .",
  ". . . . . . . o . . . .",
  ". . . . . . . . . . . .",
  ". . . . . . . . . . . .",
  ". . . . . . . . . . w .",
  ". . . . . . . . w . . .",
  ". . . . . . . . . . . .",
  ". . . . . . . . . . . .",
  ". . . . . . . . . . . .",
  ". . . . . . . . . . . .",
  "w w . . . . . . . . . .",
  ". . . . . . . . . . . .",
  ". . . . . . . . . . . .",
  ". . . . . . . . . . . .",
]
levels = [
  "111111111111",
  "111111111111",
  "111111111111",
  "111111111111",
  "111111111111",
  "111111111111",
  "111111111111",
  "111111111111",
  "111111111111",
  "111111111111",
  "111221111110",
  "111111311110",
  "111113311110",
  "111113311110",
]
hexsides = ["0712 0713 fence", "0801 0802 fence"]
places = { "0314" = "Pry House" }

[map.rally_points]
union = ["0601"]
confederacy = ["1201"]

[[map.fire_points]]
id = "PRY"
at = "0314"
edge = "0714"
range = 24

[[map.fire_points]]
id = "CPS"
at = "0214"
range = 2

[[map.fire_points]]
id = "KNL"
at = "0414"
range = 2

[[map.fire_points]]
id = "HTS"
at = "0514"
range = 2

[[map.fire_points]]
id = "BND"
at = "0904"
edge = "0914"
range = 2

[[map.fire_points]]
id = "CRS"
at = "1112"
edge = "1101"
range = 2

[[map.fire_points]]
id = "FKF"
at = "0101"
range = 3

[[map.fire_points]]
id = "FKN"
at = "0114"
range = 2

[[map.fire_points]]
id = "RDT"
at = "1001"
range = 2

[[map.fire_points]]
id = "MIL"
at = "0801"
range = 1

[[map.fire_points]]
id = "HOL"
at = "1214"
range = 1

[[map.fire_points]]
id = "UHL"
at = "1206"
range = 3

[[map.fire_points]]
id = "ULW"
at = "1203"
range = 2

[terrain.open]
name = "Open"

[terrain.woods]
name = "Woods"
woods = true
sight = "obstacle"
cover = "cover"
moving = { infantry = 1, cavalry = 2, artillery = 2 }

[terrain.orchard]
name = "Orchard"
sight = "hindrance"

[hexside.fence]
name = "Fence"
crossing = { infantry = 1, cavalry = 1, artillery = 1 }
cover = "cover"

[[brigade]]
id = "blue"
name = "Blue Brigade"
side = "union"
markers = 2
commander = { name = "Col. Ash", at = "0601" }
reserves = { length = 4, dark = 2 }

[[brigade]]
id = "usart"
name = "USA Artillery"
side = "union"
divisional = true
markers = 1

[[brigade]]
id = "gray"
name = "Gray Brigade"
side = "confederacy"
markers = 2
commander = { name = "Col. Oak", at = "1201" }
reserves = { length = 4, dark = 2 }

[[brigade]]
id = "csart"
name = "CSA Artillery"
side = "confederacy"
divisional = true
markers = 1

[[off_board]]
id = "pry"
name = "Pry House (test)"
side = "confederacy"
fire_points = ["PRY"]
level = 4

[[off_board]]
id = "copse"
name = "Copse (test)"
side = "confederacy"
fire_points = ["CPS"]
level = 1

[[off_board]]
id = "knoll"
name = "Knoll (test)"
side = "confederacy"
fire_points = ["KNL"]
level = 2

[[off_board]]
id = "heights"
name = "Heights (test)"
side = "confederacy"
fire_points = ["HTS"]
level = 3

[[off_board]]
id = "bend"
name = "Bend (test)"
side = "confederacy"
fire_points = ["BND"]
level = 1

[[off_board]]
id = "crest"
name = "Crest (test)"
side = "confederacy"
fire_points = ["CRS"]
level = 1

[[off_board]]
id = "forks"
name = "Forks (test)"
side = "confederacy"
fire_points = ["FKF", "FKN"]
level = 1

[[off_board]]
id = "redoubt"
name = "Redoubt (test)"
side = "confederacy"
fire_points = ["RDT"]
level = 2
saves = 2

[[off_board]]
id = "mill"
name = "Mill (test)"
side = "confederacy"
fire_points = ["MIL"]
level = 1

[[off_board]]
id = "hollow"
name = "Hollow (test)"
side = "confederacy"
fire_points = ["HOL"]
level = 0

[[off_board]]
id = "uhill"
name = "Union hill (test)"
side = "union"
fire_points = ["UHL"]
level = 1
counter_battery = true

[[off_board]]
id = "ulow"
name = "Union flat (test)"
side = "union"
fire_points = ["ULW"]
level = 1

[[unit]]
id = "BRK"
name = "Brockenbrough (test)"
brigade = "usart"
kind = "artillery"
range = 9
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
at = "0601"

[[unit]]
id = "UCB"
name = "Union counter-battery (test)"
brigade = "usart"
kind = "artillery"
range = 5
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "uhill"

[[unit]]
id = "UNB"
name = "Union battery (test)"
brigade = "usart"
kind = "artillery"
range = 5
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "ulow"

[[unit]]
id = "1NY"
name = "1st New York (test)"
brigade = "blue"
kind = "infantry"
front = { firepower = 4, movement = 4 }
back = { firepower = 4, movement = 5 }
at = "0602"

[[unit]]
id = "GVA"
name = "Gray Virginia (test)"
brigade = "gray"
kind = "infantry"
front = { firepower = 3, movement = 4 }
back = { firepower = 3, movement = 5 }
at = "1202"

[[unit]]
id = "5VA"
name = "5th Virginia (test)"
brigade = "gray"
kind = "infantry"
front = { firepower = 3, movement = 4 }
back = { firepower = 3, movement = 5 }
at = "1102"

[[unit]]
id = "GSK"
name = "Gray skirmishers (test)"
brigade = "gray"
kind = "skirmisher"
front = { firepower = 1, movement = 5 }
back = { firepower = 1, movement = 5 }

[[unit]]
id = "LNG"
name = "Langner (test)"
brigade = "csart"
kind = "artillery"
range = 10
front = { firepower = 3, movement = 0 }
back = { firepower = 3, movement = 4 }
off_board = "pry"

[[unit]]
id = "W1"
name = "Copse battery (test)"
brigade = "csart"
kind = "artillery"
range = 6
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "copse"

[[unit]]
id = "L2"
name = "Knoll battery (test)"
brigade = "csart"
kind = "artillery"
range = 6
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "knoll"

[[unit]]
id = "H3"
name = "Heights battery (test)"
brigade = "csart"
kind = "artillery"
range = 6
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "heights"

[[unit]]
id = "BENDB"
name = "Bend battery (test)"
brigade = "csart"
kind = "artillery"
range = 6
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "bend"

[[unit]]
id = "CRSB"
name = "Crest battery (test)"
brigade = "csart"
kind = "artillery"
range = 6
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "crest"

[[unit]]
id = "FKB"
name = "Forks battery (test)"
brigade = "csart"
kind = "artillery"
range = 6
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "forks"

[[unit]]
id = "RDB"
name = "Redoubt battery (test)"
brigade = "csart"
kind = "artillery"
range = 5
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "redoubt"

[[unit]]
id = "MLB"
name = "Mill battery (test)"
brigade = "csart"
kind = "artillery"
range = 6
front = { firepower = 2, movement = 0 }
back = { firepower = 2, movement = 4 }
off_board = "mill"

[[unit]]
id = "HLB"
name = "Hollow battery (test)"
brigade = "csart"
kind = "artillery"
range = 4
front = { firepower = 3, movement = 0 }
back = { firepower = 3, movement = 4 }
off_board = "hollow"

[[unit]]
id = "9LA"
name = "9th Louisiana battery (test)"
brigade = "csart"
kind = "artillery"
range = 4
front = { firepower = 3, movement = 0 }
back = { firepower = 3, movement = 4 }
off_board = "hollow"

[activation]
spaces = ["", "", "countdown", "", "countdown", ""]
countdown_markers = 3

[[card]]
numbers = [1, 2, 3, 4, 5, 6]
name = "Blank (test)"
timing = "none"
effect = "no-effect"

[victory]
per_casualty = 1
"#;

/// The battle, as its file reads.
fn battle() -> BrothersAtWar {
    game_of(BATTLE)
}

/// The battle with the woods of 0111 cleared: both fire points of the
/// forks card seen from 0108.
fn battle_without_forks_woods() -> BrothersAtWar {
    let row = "\"w w . . . . . . . . . .\",";
    assert!(BATTLE.contains(row));
    let text = BATTLE.replace(row, "\". w . . . . . . . . . .\",").replace(
        "id = \"test-batteries\"",
        "id = \"test-batteries-open-forks\"",
    );
    game_of(&text)
}

fn game_of(text: &str) -> BrothersAtWar {
    let checked = scenario::load(text).unwrap_or_else(|p| panic!("{p:#?}"));
    let b = registry::register(checked.scenario).unwrap();
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

/// The fire declared: (kind, dice, lowest face that hits, cap on hits).
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

/// The range the fire declared (6.2, 9.41).
fn fire_range(events: &[Event]) -> u8 {
    combat(events)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::Fire { range, .. } => Some(range),
            _ => None,
        })
        .expect("a fire")
}

/// The firepower pass-through fire added to the fire declared (6.4).
fn pass_through(events: &[Event]) -> u8 {
    combat(events)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::Fire { pass_through, .. } => Some(pass_through),
            _ => None,
        })
        .expect("a fire")
}

/// The save rolls of the first save roll, summed over its reasons.
fn save_rolls(events: &[Event]) -> u8 {
    combat(events)
        .into_iter()
        .find_map(|c| match c {
            CombatEvent::Saves { lines, .. } => Some(lines.iter().map(|l| l.rolls).sum()),
            _ => None,
        })
        .unwrap_or(0)
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

/// The number of dice a pending roll of 6^k outcomes rolls.
fn dice_count(outcomes: u32) -> usize {
    let mut k = 0;
    let mut n = 1u32;
    while n < outcomes {
        n *= 6;
        k += 1;
    }
    assert_eq!(n, outcomes, "a roll of dice");
    k
}

fn no_reserve_spent(events: &[Event]) -> bool {
    !combat(events)
        .iter()
        .any(|c| matches!(c, CombatEvent::ReserveSpent { .. }))
}

fn local_support(events: &[Event], unit: &str) -> bool {
    combat(events).contains(&CombatEvent::LocalSupport { unit: unit.into() })
}

fn eliminated(events: &[Event], unit: &str) -> bool {
    combat(events).contains(&CombatEvent::Eliminated { unit: unit.into() })
}

/// The gray brigade's reserve space and casualties (8.1, 8.2).
fn gray_track(g: &BrothersAtWar) -> (u8, u8) {
    let gray = g.battle.brigade_named("gray").unwrap();
    (g.brigade(gray).reserve, g.brigade(gray).casualties)
}

fn listed(g: &BrothersAtWar) -> Vec<String> {
    g.legal_orders().iter().map(|o| o.to_string()).collect()
}

/// Every order listed applies to a copy, and reads back as itself.
fn every_listed_order_applies(g: &BrothersAtWar) {
    for o in g.legal_orders() {
        let text = o.to_string();
        let read: Order = g
            .parse_order(&text)
            .unwrap_or_else(|e| panic!("{text} does not read back: {e:?}"));
        assert_eq!(read, o, "{text}");
        let mut copy = g.clone();
        copy.apply(&o)
            .unwrap_or_else(|r| panic!("{text} is listed but refused: {r}"));
    }
}

#[test]
fn the_test_battle_passes_the_scenario_check() {
    let problems = scenario::check(BATTLE);
    assert!(problems.is_empty(), "{problems:#?}");
    let g = battle();
    for name in ["LNG", "HLB", "9LA", "UCB", "UNB", "RDB"] {
        assert_eq!(g.unit(id(&g, name)).place, Place::OffBoard, "{name}");
        assert_eq!(g.unit(id(&g, name)).face, Face::Front, "{name}");
    }
}

// 1. Range (9.431, 9.41, 6.2, 6.16, B67, B68, 9.421).

#[test]
fn example_9_421_reversed_a_battery_28_hexes_off_is_beyond_range_9_and_27_is_extreme() {
    let mut g = battle();
    // 9.421 example 2: Brockenbrough (range 9: 27 hexes at most, 6.2) in
    // 0712 counts 4 hexes to the Pry House point plus its 24: 28.
    only(&mut g, &[("BRK", "0712")]);
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "BRK FIRE LNG"), "6.2");
    // From 0613, 3 hexes from the point: 27, and it may fire. 27 is more
    // than twice 9: extreme range, 2 dice hitting on 6 only, at most 1 hit
    // (6.16, B67); no close die (27 > 3).
    let mut g = battle();
    only(&mut g, &[("BRK", "0613")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "BRK FIRE LNG").unwrap();
    assert_eq!(declared(&e), (FireType::Standing, 2, 6, 1));
    assert_eq!(fire_range(&e), 27);
    // B56: deployed, it fires free; 5.24: it is then Finished.
    assert!(g.unit(id(&g, "BRK")).finished, "5.24");
    assert_eq!(dice_waiting(&g), Some(36));
    roll(&mut g, "6 6");
    // 9.433: the card's level 4 is above Brockenbrough's 3: one save roll.
    assert_eq!(
        dice_waiting(&g),
        Some(6),
        "9.433: one save for the higher card"
    );
    let e = roll(&mut g, "1");
    assert_eq!(save_rolls(&e), 1);
    // Two successes, no save: capped after saves at 1 (6.5, B68).
    assert_eq!(hits(&e), (1, 0));
    let lng = g.unit(id(&g, "LNG"));
    assert!(lng.disrupted, "6.51: the Undisrupted battery is Disrupted");
    assert_eq!(lng.face, Face::Front);
    assert_eq!(lng.place, Place::OffBoard);
}

#[test]
fn example_9_421_forward_the_pry_house_fires_28_hexes_through_the_edge_hex() {
    let mut g = battle();
    // 9.421 example 1: 24 + 4 = 28 from a range-10 battery: extreme, 3
    // dice on 6, 1 hit at most; sight from 0714, where the card stands at
    // level 4, to 0712 at level 3, over 0713 at level 3 (open).
    only(&mut g, &[("BRK", "0712")]);
    activating(&mut g, "csart");
    order(&mut g, "RETREAT USA NEVER").unwrap();
    let e = order(&mut g, "LNG FIRE 0712").unwrap();
    assert_eq!(declared(&e), (FireType::Standing, 3, 6, 1));
    assert_eq!(fire_range(&e), 28);
    roll(&mut g, "6 5 2");
    // One save, for the fence crossed into 0712 (6.6); none for range
    // (artillery fire) nor height (artillery firing down).
    assert_eq!(dice_waiting(&g), Some(6));
    let e = roll(&mut g, "3");
    assert_eq!(save_rolls(&e), 1);
    assert_eq!(hits(&e), (1, 0));
    assert!(g.unit(id(&g, "BRK")).disrupted);
}

#[test]
fn range_to_a_battery_is_the_distance_to_its_fire_point_plus_the_point_s_number() {
    // Bend: printed in 0904, numbered 2; from 0908 (4 hexes): 6, within
    // Brockenbrough's printed 9: 2 dice on 5, up to 3 hits.
    let mut g = battle();
    only(&mut g, &[("BRK", "0908")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "BRK FIRE BENDB").unwrap();
    assert_eq!(fire_range(&e), 6);
    assert_eq!(declared(&e), (FireType::Standing, 2, 5, 3));
    // Forks from 0108: its point in 0114 (6 hexes, numbered 2: 8) is
    // hidden by the woods of 0111; its point in 0101 (7 hexes, numbered
    // 3: 10) is seen: 10 is beyond the printed 9, long range, 6 to hit
    // (B67), but not beyond 18: up to 3 hits.
    let mut g = battle();
    only(&mut g, &[("BRK", "0108")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "BRK FIRE FKB").unwrap();
    assert_eq!(fire_range(&e), 10);
    assert_eq!(declared(&e), (FireType::Standing, 2, 6, 3));
}

#[test]
fn of_a_card_s_fire_points_the_nearest_by_range_is_taken_first() {
    // B147: with the woods of 0111 cleared, both forks points are seen
    // from 0108; the nearer, 0114 (8), is taken though 0101 (10) is listed
    // first on the card.
    let mut g = battle_without_forks_woods();
    only(&mut g, &[("BRK", "0108")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "BRK FIRE FKB").unwrap();
    assert_eq!(fire_range(&e), 8);
    assert_eq!(declared(&e), (FireType::Standing, 2, 5, 3));
}

#[test]
fn infantry_reaches_a_battery_only_within_three_hexes_counting_the_number() {
    // Mill: point 0801 numbered 1. From 0804: 3 + 1 = 4, past infantry's
    // 3 (6.2); from 0803: 2 + 1 = 3.
    let mut g = battle();
    only(&mut g, &[("1NY", "0804")]);
    activating(&mut g, "blue");
    assert_eq!(refused(&mut g, "1NY FIRE MLB"), "6.2");
    let mut g = battle();
    only(&mut g, &[("1NY", "0803")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY FIRE MLB").unwrap();
    assert_eq!(fire_range(&e), 3);
    assert_eq!(declared(&e), (FireType::Standing, 4, 5, 3));
}

// 2. Sight (9.42, 9.431, 6.3, 6.34, B25, B26, B112).

#[test]
fn woods_between_the_firer_and_the_edge_hex_block_the_fire() {
    // Copse: level 1, point 0214 numbered 2. From 0208 the line to 0214
    // passes the woods of 0211 at the common level (B25): blocked.
    let mut g = battle();
    only(&mut g, &[("BRK", "0208")]);
    activating(&mut g, "usart");
    let rule = refused(&mut g, "BRK FIRE W1");
    assert!(rule.starts_with("6.3"), "a sight rule, not {rule}");
    // From 0212, past the woods: 2 + 2 = 4, clear.
    let mut g = battle();
    only(&mut g, &[("BRK", "0212")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "BRK FIRE W1").unwrap();
    assert_eq!(fire_range(&e), 4);
    assert_eq!(declared(&e), (FireType::Standing, 2, 5, 3));
}

#[test]
fn a_hill_at_the_card_s_level_blocks_and_below_it_does_not() {
    // Knoll: card at level 2; the level-2 hill in 0411 lies between 0408
    // (level 1) and the edge hex 0414: as high as the higher end, it
    // blocks (6.34 rule 2, B26).
    let mut g = battle();
    only(&mut g, &[("BRK", "0408")]);
    activating(&mut g, "usart");
    let rule = refused(&mut g, "BRK FIRE L2");
    assert!(rule.starts_with("6.3"), "a sight rule, not {rule}");
    // Heights: the same ground in column 05, card at level 3: the hill in
    // 0511 is lower than the higher end and does not block (6.34 rule 3).
    // 6 + 2 = 8 hexes; the card stands higher: one save (9.433).
    let mut g = battle();
    only(&mut g, &[("BRK", "0508")]);
    activating(&mut g, "usart");
    let e = order(&mut g, "BRK FIRE H3").unwrap();
    assert_eq!(fire_range(&e), 8);
    assert_eq!(declared(&e), (FireType::Standing, 2, 5, 3));
    roll(&mut g, "6 1");
    assert_eq!(dice_waiting(&g), Some(6));
}

#[test]
fn sight_runs_to_the_edge_hex_not_to_the_fire_point() {
    // Bend: woods in 0906 stand between 0908 and the point printed in
    // 0904, but not between 0908 and the edge hex 0914 sight starts from
    // (9.42, B112): the fire goes ahead (as in range_to_a_battery_...).
    let mut g = battle();
    only(&mut g, &[("BRK", "0908")]);
    activating(&mut g, "usart");
    order(&mut g, "BRK FIRE BENDB").unwrap();
    // Crest: printed in 1112 (clear from 1108, 4 hexes, numbered 2: in
    // range at 6), sight from 1101, behind the woods of 1105: blocked.
    let mut g = battle();
    only(&mut g, &[("BRK", "1108")]);
    activating(&mut g, "usart");
    let rule = refused(&mut g, "BRK FIRE CRSB");
    assert!(rule.starts_with("6.3"), "a sight rule, not {rule}");
}

// 3. Saves (9.433, B114, B147).

#[test]
fn a_disrupted_battery_on_a_higher_card_saves_once_for_each_and_its_card_s_extra() {
    // Redoubt: level 2, 2 extra saves, point 1001 numbered 2; from 1005
    // (level 1): 4 + 2 = 6. RDB Disrupted: 1 + 1 (higher) + 2 = 4 saves;
    // it never retreats (9.4), so its owner's instruction adds none.
    let mut g = battle();
    only(&mut g, &[("BRK", "1005")]);
    unit_mut(&mut g, "RDB").disrupted = true;
    activating(&mut g, "usart");
    order(&mut g, "RETREAT CSA ALWAYS").unwrap();
    let e = order(&mut g, "BRK FIRE RDB").unwrap();
    assert_eq!(fire_range(&e), 6);
    assert_eq!(declared(&e), (FireType::Standing, 2, 5, 3));
    roll(&mut g, "6 1");
    assert_eq!(dice_waiting(&g), Some(6u32.pow(4)));
    let e = roll(&mut g, "1 1 1 1");
    assert_eq!(save_rolls(&e), 4);
    assert!(!combat(&e)
        .iter()
        .any(|c| matches!(c, CombatEvent::Retreated { .. })));
}

#[test]
fn a_battery_gains_no_save_for_terrain_distance_moving_fire_or_a_lower_card() {
    // Mill: level 1, like 1NY's hex. 1NY moves 0804-0803 and fires: moving
    // fire, across the orchard of 0802 (a hindrance), the fence between
    // 0802 and 0801 and into the woods of 0801. None of it counts (B114):
    // MLB, Disrupted, saves once.
    let mut g = battle();
    only(&mut g, &[("1NY", "0804")]);
    unit_mut(&mut g, "MLB").disrupted = true;
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    order(&mut g, "1NY MOVE 0803").unwrap();
    let e = order(&mut g, "1NY FIRE MLB").unwrap();
    assert_eq!(declared(&e), (FireType::Moving, 4, 5, 3));
    assert_eq!(pass_through(&e), 0);
    roll(&mut g, "6 1 1 1");
    assert_eq!(dice_waiting(&g), Some(6), "B114: only the Disrupted save");
    let e = roll(&mut g, "1");
    assert_eq!(save_rolls(&e), 1);
    // Hollow: card at level 0, below 1NY's level 1 in 1114, next to the
    // edge hex 1214: 1 + 1 = 2 hexes. A lower card gives no save (9.433
    // names a higher one only): no save roll at all.
    let mut g = battle();
    only(&mut g, &[("1NY", "1114")]);
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY FIRE HLB").unwrap();
    assert_eq!(fire_range(&e), 2);
    let e = roll(&mut g, "6 1 1 1");
    assert!(dice_waiting(&g).is_none(), "no save roll");
    assert_eq!(save_rolls(&e), 0);
    assert_eq!(hits(&e), (1, 0));
}

#[test]
fn a_skirmish_zone_does_not_shield_a_battery() {
    // GSK in 0701: its zone takes in 0802, which 1NY's line from 0803 to
    // the mill's edge hex 0801 passes through. B147: no skirmish zone: the
    // fire falls on MLB, not on the skirmisher (6.361 does not apply).
    let mut g = battle();
    only(&mut g, &[("1NY", "0803")]);
    unit_mut(&mut g, "GSK").place = Place::Map(hex("0701"));
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY FIRE MLB").unwrap();
    assert!(!combat(&e)
        .iter()
        .any(|c| matches!(c, CombatEvent::Shielded { .. })));
    let e = roll(&mut g, "6 1 1 1");
    assert_eq!(hits(&e), (1, 0));
    assert!(g.unit(id(&g, "MLB")).disrupted);
    assert_eq!(g.unit(id(&g, "GSK")).place, Place::Map(hex("0701")));
}

// 4. Hits (6.51, 9.44, B105, B147).

#[test]
fn a_battery_is_disrupted_then_flipped_by_its_local_support_then_eliminated() {
    // Hollow from 1210: 4 + 1 = 5 hexes, 2 dice on 5; the card (level 0)
    // is below 1210 (level 1); the lower ground 1211-1213 hides nothing.
    // GVA of the gray brigade stands next to the edge and fire point hex
    // 1214: no brigade may support an off-board battery (B105).
    let mut g = battle();
    only(&mut g, &[("BRK", "1210"), ("GVA", "1113")]);
    let track = gray_track(&g);
    activating(&mut g, "usart");
    let e = order(&mut g, "BRK FIRE HLB").unwrap();
    assert_eq!(fire_range(&e), 5);
    assert_eq!(declared(&e), (FireType::Standing, 2, 5, 3));
    // Undisrupted, on a lower card: no save.
    let e = roll(&mut g, "6 1");
    assert_eq!(hits(&e), (1, 0));
    let u = g.unit(id(&g, "HLB"));
    assert!(u.disrupted, "6.51");
    assert_eq!((u.face, u.place), (Face::Front, Place::OffBoard));

    // The next fire: a killing hit. 9.44: the counter flips, it is not
    // eliminated, no reserve of any brigade is spent.
    unit_mut(&mut g, "BRK").finished = false;
    activating(&mut g, "usart");
    order(&mut g, "BRK FIRE HLB").unwrap();
    roll(&mut g, "6 1");
    assert_eq!(dice_waiting(&g), Some(6), "9.433: the Disrupted save only");
    let e = roll(&mut g, "1");
    assert_eq!(hits(&e), (1, 0));
    assert!(local_support(&e, "HLB"), "9.44");
    assert!(!eliminated(&e, "HLB"));
    assert!(no_reserve_spent(&e), "B105");
    let u = g.unit(id(&g, "HLB"));
    assert_eq!(u.face, Face::Back, "9.44: flipped");
    assert_eq!(u.place, Place::OffBoard);
    assert!(u.disrupted);
    assert_eq!(gray_track(&g), track);
    // The flipped face is part of the position string.
    let back = BrothersAtWar::from_position(&g.position()).expect("the position reads back");
    assert_eq!(back.unit(id(&back, "HLB")).face, Face::Back);

    // The second killing hit eliminates it (9.44), again with no reserve.
    unit_mut(&mut g, "BRK").finished = false;
    activating(&mut g, "usart");
    order(&mut g, "BRK FIRE HLB").unwrap();
    roll(&mut g, "6 1");
    let e = roll(&mut g, "1");
    assert_eq!(hits(&e), (1, 0));
    assert!(eliminated(&e, "HLB"));
    assert!(!local_support(&e, "HLB"));
    assert!(no_reserve_spent(&e), "B105");
    assert_eq!(g.unit(id(&g, "HLB")).place, Place::Eliminated);
    // 8.2: eliminated artillery leaves no casualty marker.
    assert_eq!(gray_track(&g), track);
    // 9.4: the other battery of the card is not stacked with it.
    let other = g.unit(id(&g, "9LA"));
    assert!(!other.disrupted);
    assert_eq!((other.face, other.place), (Face::Front, Place::OffBoard));
}

#[test]
fn three_hits_at_once_disrupt_flip_and_eliminate_a_battery() {
    // 1NY in 1114, next to the hollow's edge hex 1214: 1 + 1 = 2 hexes;
    // 4 dice on 5; no save. Three successes: three hits (6.5), each in
    // turn (6.51): Disrupted, flipped (9.44), eliminated.
    let mut g = battle();
    only(&mut g, &[("1NY", "1114"), ("GVA", "1113")]);
    let track = gray_track(&g);
    activating(&mut g, "blue");
    let e = order(&mut g, "1NY FIRE HLB").unwrap();
    assert_eq!(declared(&e), (FireType::Standing, 4, 5, 3));
    let e = roll(&mut g, "6 6 6 1");
    assert_eq!(hits(&e), (3, 0));
    let c = combat(&e);
    let flipped = c
        .iter()
        .position(|x| *x == CombatEvent::LocalSupport { unit: "HLB".into() })
        .expect("9.44: the first killing hit flips it");
    let gone = c
        .iter()
        .position(|x| *x == CombatEvent::Eliminated { unit: "HLB".into() })
        .expect("9.44: the second eliminates it");
    assert!(flipped < gone);
    assert!(no_reserve_spent(&e), "B105");
    assert_eq!(g.unit(id(&g, "HLB")).place, Place::Eliminated);
    assert_eq!(gray_track(&g), track);
}

#[test]
fn a_flipped_battery_turns_face_up_when_its_brigade_recovers() {
    // 9.44, B112: at the recovery of the Confederate divisional artillery
    // (3.21) the flipped, Disrupted battery makes its rally check; it turns
    // face up whether the check succeeds (6) or fails (1: at most +1 for
    // distance, no commander next to a card).
    for die in [6u8, 1] {
        let mut g = battle();
        only(&mut g, &[]);
        unit_mut(&mut g, "HLB").face = Face::Back;
        unit_mut(&mut g, "HLB").disrupted = true;
        let csart = g.battle.brigade_named("csart").unwrap();
        quiet(&mut g);
        g.now.cup = vec![Marker::Brigade(csart, 0)];
        g.now.track = Vec::new();
        g.now.step = Step::Select;
        order(&mut g, "DRAW 1").unwrap();
        let k = dice_count(dice_waiting(&g).expect("the rally check"));
        let dice = vec![die.to_string(); k].join(" ");
        roll(&mut g, &dice);
        let u = g.unit(id(&g, "HLB"));
        assert_eq!(u.face, Face::Front, "9.44: face up (die {die})");
        assert_eq!(u.place, Place::OffBoard);
        if die == 6 {
            assert!(!u.disrupted, "3.211: rallied");
        }
    }
}

#[test]
fn a_flipped_battery_is_still_deployed_and_fires() {
    // 9.4, B147: always deployed whichever face is up; a Disrupted one
    // could not fire (6.531), so this one has rallied. From 1214 (number 1)
    // to 1210: 5 hexes, beyond its printed 4 (long: 6 to hit) but within
    // 8 (up to 3 hits); firepower 3; free (B56), then Finished.
    let mut g = battle();
    only(&mut g, &[("BRK", "1210")]);
    unit_mut(&mut g, "HLB").face = Face::Back;
    activating(&mut g, "csart");
    assert!(listed(&g).contains(&"HLB FIRE 1210".to_string()));
    every_listed_order_applies(&g);
    let e = order(&mut g, "HLB FIRE 1210").unwrap();
    assert_eq!(declared(&e), (FireType::Standing, 3, 6, 3));
    assert_eq!(fire_range(&e), 5);
    assert!(g.unit(id(&g, "HLB")).finished);
}

// 5. Counter-battery fire (9.432, B113).

#[test]
fn only_a_battery_whose_card_allows_it_fires_at_another_battery() {
    let mut g = battle();
    only(&mut g, &[]);
    activating(&mut g, "usart");
    // UNB's card does not allow it; its range (2 + 2 + 3 hexes = 7) would.
    assert_eq!(refused(&mut g, "UNB FIRE RDB"), "9.432");
    // UCB's card does: its point 1206 numbered 3, the redoubt's 1001
    // numbered 2, 6 hexes between the points: 3 + 2 + 6 = 11. Printed
    // range 5: 11 is beyond 10, extreme: 2 dice on 6, at most 1 hit.
    let e = order(&mut g, "UCB FIRE RDB").unwrap();
    assert_eq!(fire_range(&e), 11);
    assert_eq!(declared(&e), (FireType::Standing, 2, 6, 1));
    assert!(g.unit(id(&g, "UCB")).finished);
    roll(&mut g, "6 6");
    // 9.433: the redoubt (level 2) is higher than the firer's card (1):
    // 1, and 2 from its card.
    assert_eq!(dice_waiting(&g), Some(6u32.pow(3)));
    let e = roll(&mut g, "1 1 1");
    assert_eq!(save_rolls(&e), 3);
    assert_eq!(hits(&e), (1, 0));
    assert!(g.unit(id(&g, "RDB")).disrupted);
    // The redoubt's card does not allow it to answer (range 11, within
    // its 15).
    let mut g = battle();
    only(&mut g, &[]);
    activating(&mut g, "csart");
    assert_eq!(refused(&mut g, "RDB FIRE UCB"), "9.432");
}

// 6. Refusals and costs (9.43, 5.24, B56, B64).

#[test]
fn fire_at_an_own_battery_or_at_a_map_unit_by_name_is_refused() {
    let mut g = battle();
    only(&mut g, &[("BRK", "1005"), ("GVA", "1003")]);
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "BRK FIRE UCB"), "9.43");
    assert_eq!(refused(&mut g, "BRK FIRE UNB"), "9.43");
    assert_eq!(refused(&mut g, "BRK FIRE GVA"), "9.43");
}

#[test]
fn fire_at_a_battery_costs_what_any_fire_costs_and_finishes_the_firer() {
    // 5.24: 2 movement points. 1NY (4 points) walks 0806-0803, 3 points:
    // 1 is left.
    let mut g = battle();
    only(&mut g, &[("1NY", "0806")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    order(&mut g, "1NY MOVE 0805 0804 0803").unwrap();
    assert_eq!(refused(&mut g, "1NY FIRE MLB"), "5.24");
    // One step, then fire: 3 points; Finished (6.11), the last point lost.
    let mut g = battle();
    only(&mut g, &[("1NY", "0804")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    order(&mut g, "1NY MOVE 0803").unwrap();
    order(&mut g, "1NY FIRE MLB").unwrap();
    assert!(g.unit(id(&g, "1NY")).finished);
    roll(&mut g, "1 1 1 1");
    assert_eq!(refused(&mut g, "1NY MOVE 0804"), "1.51");
    // Deployed artillery fires free (B56; its deployed rating is 0) and
    // is Finished; limbered, it does not fire.
    let mut g = battle();
    only(&mut g, &[("BRK", "1005")]);
    activating(&mut g, "usart");
    order(&mut g, "BRK FIRE RDB").unwrap();
    assert!(g.unit(id(&g, "BRK")).finished, "5.24");
    let mut g = battle();
    only(&mut g, &[("BRK", "1005")]);
    unit_mut(&mut g, "BRK").face = Face::Back;
    activating(&mut g, "usart");
    assert_eq!(refused(&mut g, "BRK FIRE RDB"), "B56");
}

#[test]
fn a_battery_or_a_map_unit_whose_id_begins_with_a_digit_is_named_the_same_way() {
    // B147: `FIRE` names a battery by its unit id; ids may begin with a
    // digit (`12NY`); only a hex names a map hex. 9LA is a hollow battery:
    // from 1210, 5 hexes, as HLB.
    let mut g = battle();
    only(&mut g, &[("BRK", "1210"), ("5VA", "1003")]);
    activating(&mut g, "usart");
    let o = g
        .parse_order("BRK FIRE 5VA")
        .expect("B147: FIRE takes a unit id");
    assert_eq!(o.to_string(), "BRK FIRE 5VA");
    assert_eq!(refused(&mut g, "BRK FIRE 5VA"), "9.43");
    let o = g
        .parse_order("BRK FIRE 9LA")
        .expect("B147: FIRE takes a battery's unit id");
    assert_eq!(o.to_string(), "BRK FIRE 9LA");
    let e = g.apply(&o).unwrap();
    assert_eq!(fire_range(&e), 5);
    assert_eq!(declared(&e), (FireType::Standing, 2, 5, 3));
}

// 7. The order lists.

#[test]
fn the_choices_list_fire_at_a_battery_for_the_unit_that_may() {
    // 1NY in 0804 is 4 from the mill: not listed; one step on, 3: listed.
    // Every other battery is farther from 0803 (the bend's point 0904 is 2
    // hexes off, numbered 2: 4; the redoubt's 1001 3 hexes, numbered 2: 5).
    let mut g = battle();
    only(&mut g, &[("1NY", "0804")]);
    activating(&mut g, "blue");
    order(&mut g, "OPFIRE CSA NEVER").unwrap();
    assert!(!listed(&g).contains(&"1NY FIRE MLB".to_string()));
    order(&mut g, "1NY MOVE 0803").unwrap();
    let fires: Vec<String> = listed(&g)
        .into_iter()
        .filter(|o| o.starts_with("1NY FIRE "))
        .collect();
    assert_eq!(fires, vec!["1NY FIRE MLB".to_string()]);
    every_listed_order_applies(&g);
    // Brockenbrough in 0212 sees the copse's edge hex 4 hexes off; its
    // own side's batteries are never listed as targets, and the battery
    // whose card forbids counter-battery fire fires at none.
    let mut g = battle();
    only(&mut g, &[("BRK", "0212")]);
    activating(&mut g, "usart");
    let all = listed(&g);
    assert!(all.contains(&"BRK FIRE W1".to_string()), "{all:?}");
    assert!(all.contains(&"UCB FIRE RDB".to_string()), "{all:?}");
    for own in ["UCB", "UNB"] {
        assert!(
            !all.iter().any(|o| o.ends_with(&format!("FIRE {own}"))),
            "{all:?}"
        );
    }
    let unb_fires: Vec<&String> = all.iter().filter(|o| o.starts_with("UNB FIRE ")).collect();
    for o in unb_fires {
        let target = o.trim_start_matches("UNB FIRE ");
        assert!(
            target
                .parse::<orderly::games::brothers_at_war::core::Hex>()
                .is_ok(),
            "{o}"
        );
    }
    every_listed_order_applies(&g);
}
