//! The Brothers at War test battle (tests/data/brothersatwar/skirmish.toml,
//! our own) and the small helpers the engine tests set positions up with.

use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::UnitId;
use orderly::games::brothers_at_war::core::state::{
    Activation, BrothersAtWar, Place, Step, UnitState,
};
use orderly::games::brothers_at_war::core::Hex;
use orderly::games::brothers_at_war::engine::Refusal;
use orderly::games::brothers_at_war::scenario::{registry, Scenario};
use orderly::games::{CitesRule, Game, GameOptions};

/// The test battle's file.
pub const SKIRMISH: &str = include_str!("../data/brothersatwar/skirmish.toml");

/// A hex by name.
pub fn hex(name: &str) -> Hex {
    name.parse().unwrap()
}

/// A new game of the test battle, registered first.
pub fn game() -> BrothersAtWar {
    let s: Scenario = toml::from_str(SKIRMISH).unwrap();
    let b = registry::register(s).unwrap();
    BrothersAtWar::new(&GameOptions {
        scenario: Some(b.scenario.id.clone()),
        ..GameOptions::default()
    })
}

/// A unit by name.
pub fn id(g: &BrothersAtWar, name: &str) -> UnitId {
    g.unit_named(name).unwrap()
}

/// A unit's state, to set a position up.
pub fn unit_mut<'a>(g: &'a mut BrothersAtWar, name: &str) -> &'a mut UnitState {
    let u = id(g, name);
    &mut g.now.units[u.index()]
}

/// Every unit of the order of battle off the map, then these placed.
pub fn only(g: &mut BrothersAtWar, placed: &[(&str, &str)]) {
    for u in g.unit_ids().collect::<Vec<_>>() {
        if matches!(g.unit(u).place, Place::Map(_)) {
            g.now.units[u.index()].place = Place::Removed;
        }
    }
    for (name, at) in placed {
        unit_mut(g, name).place = Place::Map(hex(at));
    }
}

/// No check, draw or activation waiting.
pub fn quiet(g: &mut BrothersAtWar) {
    g.now.draws.clear();
    g.now.checks.clear();
    g.now.activation = None;
}

/// The brigade activating, its units recovered, nothing waiting.
pub fn activating(g: &mut BrothersAtWar, brigade: &str) {
    let b = g.battle.brigade_named(brigade).unwrap();
    quiet(g);
    g.now.activation = Some(Activation::new(b, false));
    g.now.step = Step::Units(b);
}

/// Applies an order written as players write it; a standing instruction
/// as its owner sends it, whoever decides now (B5).
pub fn order(g: &mut BrothersAtWar, text: &str) -> Result<Vec<Event>, Refusal> {
    let o = g.parse_order(text).unwrap();
    match g.standing_side(&o) {
        Some(side) => g.apply_standing(side, &o),
        None => g.apply(&o),
    }
}

/// The rule refusing an order, checking the state is left unchanged.
pub fn refused(g: &mut BrothersAtWar, text: &str) -> &'static str {
    let before = g.position();
    let r = order(g, text).expect_err(text);
    assert_eq!(g.position(), before, "a refusal leaves the state unchanged");
    r.rule().0
}

/// The demo battle's file (data/brothers-at-war/tanners-ford.toml).
pub const DEMO: &str = include_str!("../../data/brothers-at-war/tanners-ford.toml");

/// The id [`register_wide_demo`] registers its battle under.
pub const WIDE_DEMO: &str = "tanners-ford-wide";

/// The demo battle, Tanner's Ford, on a map of `columns` x `rows`: its own
/// 15 x 12 hexes with open, level ground added east and south, so that
/// the map is larger than the window a board draws. Registered as
/// [`WIDE_DEMO`] (replacing any battle of that id); returns the id.
pub fn register_wide_demo(columns: usize, rows: usize) -> String {
    let mut file: toml::Table = toml::from_str(DEMO).unwrap();
    file.insert("id".into(), WIDE_DEMO.into());
    let map = file["map"].as_table_mut().unwrap();
    let (old_columns, old_rows) = (
        map["columns"].as_integer().unwrap() as usize,
        map["rows"].as_integer().unwrap() as usize,
    );
    assert!(columns >= old_columns && rows >= old_rows);
    let widened = |key: &str, cell: &str, sep: &str| -> toml::Value {
        let lines = map[key].as_array().unwrap();
        let mut out: Vec<toml::Value> = lines
            .iter()
            .map(|l| {
                let extra = vec![cell; columns - old_columns].join(sep);
                let line = l.as_str().unwrap();
                if extra.is_empty() {
                    line.into()
                } else {
                    format!("{line}{sep}{extra}").into()
                }
            })
            .collect();
        out.extend((old_rows..rows).map(|_| vec![cell; columns].join(sep).into()));
        out.into()
    };
    let terrain = widened("terrain", ".", " ");
    let levels = widened("levels", "1", "");
    map.insert("terrain".into(), terrain);
    map.insert("levels".into(), levels);
    map.insert("columns".into(), (columns as i64).into());
    map.insert("rows".into(), (rows as i64).into());
    let s: Scenario = toml::Value::Table(file).try_into().unwrap();
    registry::register(s).unwrap().scenario.id.clone()
}
