//! The card tests' battles: the test battle (tests/data/brothersatwar/
//! skirmish.toml) with a deck of the test's own in place of its cards, on
//! open, level ground, and the small helpers those tests share.

use super::brothersatwar::{id, order, SKIRMISH};
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::ids::BrigadeId;
use orderly::games::brothers_at_war::core::state::BrothersAtWar;
use orderly::games::brothers_at_war::scenario::{registry, Scenario};
use orderly::games::{Game, GameOptions};

/// The Union's hand.
pub const USA: usize = 0;
/// The Confederacy's hand.
pub const CSA: usize = 1;

/// The test battle's activation track.
pub const TRACK: &str = r#"spaces = ["", "", "cards", "countdown", "", "countdown", ""]"#;
/// A track blank but for the countdown symbol the scenario check asks for
/// (3.13, 3.14) in its last space: markers are drawn one after another
/// without a symbol getting in the way.
pub const BLANK_TRACK: &str = r#"spaces = ["", "", "", "", "", "", "countdown"]"#;

/// The test battle's text with `deck` in place of its cards, its track
/// made blank when `blank_track`.
pub fn deck_text(deck: &str, blank_track: bool) -> String {
    let head = SKIRMISH.split("[[card]]").next().unwrap();
    assert!(head.contains(TRACK), "the test battle's track changed");
    let head = if blank_track {
        head.replace(TRACK, BLANK_TRACK)
    } else {
        head.to_string()
    };
    let tail = &SKIRMISH[SKIRMISH.find("[[special.exits]]").unwrap()..];
    format!("{head}{tail}{deck}")
}

/// A new game of the test battle with `deck`, registered as `id`, on open,
/// level ground: no roads, trails, hexsides or levels.
pub fn open_field_with_deck(deck: &str, id: &str, blank_track: bool) -> BrothersAtWar {
    let mut s: Scenario = toml::from_str(&deck_text(deck, blank_track)).unwrap();
    s.id = id.into();
    s.map.terrain = vec![". . . . . . . .".to_string(); 6];
    s.map.levels = Vec::new();
    s.map.hexsides = Vec::new();
    s.map.roads = Vec::new();
    s.map.trails = Vec::new();
    let b = registry::register(s).unwrap();
    BrothersAtWar::new(&GameOptions {
        scenario: Some(b.scenario.id.clone()),
        ..GameOptions::default()
    })
}

/// Puts a card from the deck into a hand.
pub fn give(g: &mut BrothersAtWar, side: usize, card: u8) {
    assert!(g.now.deck.contains(&card), "card {card} is in the deck");
    g.now.deck.retain(|&c| c != card);
    g.now.hands[side].push(card);
}

/// A brigade by id.
pub fn brigade(g: &BrothersAtWar, name: &str) -> BrigadeId {
    g.battle.brigade_named(name).unwrap()
}

/// The outcomes of the chance waiting: 6^k for k dice, the cup's size for
/// a cup draw (B1).
pub fn dice_waiting(g: &BrothersAtWar) -> Option<u32> {
    g.chance().map(|c| c.outcomes)
}

/// Applies a roll of these dice.
pub fn roll(g: &mut BrothersAtWar, dice: &str) -> Vec<Event> {
    order(g, &format!("ROLL {dice}")).unwrap_or_else(|e| panic!("ROLL {dice}: {e}"))
}

/// Rolls 1s for every die still waiting (saves that may or may not be
/// asked for after an attack that scored nothing).
pub fn settle(g: &mut BrothersAtWar) {
    for _ in 0..8 {
        let Some(n) = dice_waiting(g) else { return };
        let mut k = 0;
        while 6u32.pow(k) < n {
            k += 1;
        }
        assert_eq!(6u32.pow(k), n, "only dice are waiting");
        roll(g, &vec!["1"; k as usize].join(" "));
    }
    panic!("dice keep coming");
}

/// The unit carries a Finished marker.
pub fn finished(g: &BrothersAtWar, name: &str) -> bool {
    g.unit(id(g, name)).finished
}

/// The unit carries a Disrupted marker.
pub fn disrupted(g: &BrothersAtWar, name: &str) -> bool {
    g.unit(id(g, name)).disrupted
}
