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
    g.now.activation = Some(Activation {
        brigade: b,
        free: false,
        acted: Vec::new(),
        disbanded: Vec::new(),
        entered: Vec::new(),
        independent: false,
        group: None,
    });
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
