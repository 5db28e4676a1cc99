//! The battles a game can be played on, by scenario id: the built-in demo
//! and the files an owner registers.
//!
//! A position string names its scenario by id and content hash
//! ([`Battle::hash`]); reading it finds the battle here.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::games::brothers_at_war::core::battle::{Battle, BattleProblem};
use crate::games::brothers_at_war::scenario::Scenario;

/// The id of orderly's own demo battle, "Tanner's Ford".
pub const DEMO: &str = "tanners-ford";

/// The built-in scenario files, compiled in: orderly's own battles only.
const BUILT_IN: &[&str] = &[include_str!(
    "../../../../data/brothers-at-war/tanners-ford.toml"
)];

fn table() -> &'static Mutex<BTreeMap<String, Arc<Battle>>> {
    static TABLE: OnceLock<Mutex<BTreeMap<String, Arc<Battle>>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = BTreeMap::new();
        for text in BUILT_IN {
            // A built-in file that does not load is a bug caught by the
            // registry's tests; the battle is left out rather than panicking.
            if let Ok(checked) = super::load(text) {
                if let Ok(b) = Battle::new(checked.scenario) {
                    t.insert(b.scenario.id.clone(), Arc::new(b));
                }
            }
        }
        Mutex::new(t)
    })
}

/// Registers a scenario (an owner's file), replacing one of the same id,
/// and returns its battle.
pub fn register(scenario: Scenario) -> Result<Arc<Battle>, BattleProblem> {
    let battle = Arc::new(Battle::new(scenario)?);
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    t.insert(battle.scenario.id.clone(), Arc::clone(&battle));
    Ok(battle)
}

/// The battle of this scenario id, if registered.
pub fn get(id: &str) -> Option<Arc<Battle>> {
    let t = table().lock().unwrap_or_else(|e| e.into_inner());
    t.get(id).cloned()
}

/// The ids of every registered battle.
pub fn ids() -> Vec<String> {
    let t = table().lock().unwrap_or_else(|e| e.into_inner());
    t.keys().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_file_passes_the_check_and_is_registered() {
        for text in BUILT_IN {
            let checked = crate::games::brothers_at_war::scenario::load(text)
                .unwrap_or_else(|p| panic!("a built-in scenario checks: {p:?}"));
            let id = checked.scenario.id.clone();
            Battle::new(checked.scenario).expect("a built-in scenario compiles");
            assert!(get(&id).is_some());
        }
        assert!(get(DEMO).is_some(), "the demo is built in");
    }
}
