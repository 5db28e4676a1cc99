//! Property tests of the Brothers at War engine over random play of a
//! small test battle of our own (tests/data/brothersatwar/skirmish.toml):
//! chance drawn from a seeded generator, decisions picked among the listed
//! orders.
//!
//! What holds at every step:
//! - the position string round-trips, and the game read back lists the
//!   same orders;
//! - a pending decision lists at least one order; every listed order
//!   prints and parses back to itself and applies;
//! - when nothing is pending and no chance is drawn, the battle is over;
//! - units are conserved: the order of battle keeps its size, generic
//!   remnants appear only with a remnant event, and a unit eliminated or
//!   removed never comes back;
//! - between activations no hex holds more than two units or units of two
//!   brigades (5.3, 5.32), and no skirmisher is stacked (5.32);
//! - every random game reaches the end of the scenario's turns (or an
//!   instant victory) within a bounded number of steps.
//!
//! `BAW_GAMES=n` plays `n` games per property instead of its default.

#[path = "../common/mod.rs"]
mod common;

use std::collections::BTreeMap;

use common::brothersatwar::{game, only};
use common::rng::XorShift;
use orderly::games::brothers_at_war::core::event::Event;
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Place, Step};
use orderly::games::brothers_at_war::scenario::model::{Side, UnitKind};
use orderly::games::brothers_at_war::scenario::registry;
use orderly::games::{Game, GameOptions};

fn gone(p: Place) -> bool {
    matches!(p, Place::Eliminated | Place::Removed | Place::Exited)
}

fn check_at_rest(g: &BrothersAtWar, log: &[String]) {
    let tail = &log[log.len().saturating_sub(30)..];
    let mut by_hex: BTreeMap<_, Vec<_>> = BTreeMap::new();
    for u in g.unit_ids() {
        if let Some(h) = g.hex_of(u) {
            by_hex.entry(h).or_default().push(u);
        }
    }
    for (hex, units) in by_hex {
        assert!(
            units.len() <= 2,
            "{hex} holds {units:?}\n{}",
            tail.join("\n")
        );
        if units.len() == 2 {
            assert!(
                units.iter().all(|&u| g.kind_of(u) != UnitKind::Skirmisher),
                "a skirmisher stacked in {hex}\n{}",
                tail.join("\n")
            );
            assert_eq!(
                g.brigade_of(units[0]),
                g.brigade_of(units[1]),
                "{hex}\n{}",
                tail.join("\n")
            );
        }
    }
}

/// Unit conservation (8.2, B106): every unit is somewhere, and each
/// brigade's casualties grew by exactly its infantry, cavalry and
/// brigade skirmishers eliminated since the start.
fn check_casualties(g: &BrothersAtWar, start: &BrothersAtWar, seed: u64) {
    for b in g.battle.brigade_ids() {
        if g.brigade(b).broken {
            continue;
        }
        let dead = g
            .units_of_brigade(b)
            .into_iter()
            .filter(|&u| {
                g.unit(u).place == Place::Eliminated
                    && start.unit(u).place != Place::Eliminated
                    && matches!(
                        g.kind_of(u),
                        UnitKind::Infantry | UnitKind::Cavalry | UnitKind::Skirmisher
                    )
                    && !g.battle.scenario.units[u.index()].independent
            })
            .count();
        assert_eq!(
            usize::from(g.brigade(b).casualties - start.brigade(b).casualties),
            dead,
            "seed {seed}: casualties of {}",
            g.brigade_name(b)
        );
    }
}

fn words(events: &[Event]) -> String {
    events
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// How many random games a property plays: `BAW_GAMES=n` plays `n`
/// instead of the default.
fn games(default: u64) -> u64 {
    std::env::var("BAW_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// The kind of an event, for counting what random play reaches.
fn kind(e: &Event) -> String {
    // A card played counts by its name, so that each kind's cards are seen.
    if let Event::CardPlayed { name, .. } = e {
        return format!("CardPlayed {name}");
    }
    let text = format!("{e:?}");
    let mut words = text.split(|c: char| !c.is_alphanumeric());
    let first = words.next().unwrap_or_default();
    // Combat events count by their own kind.
    match (first, words.next()) {
        ("Combat", Some(inner)) => format!("Combat {inner}"),
        _ => first.to_string(),
    }
}

/// Plays one random game; returns the kinds of event it produced.
fn play(seed: u64, new: fn() -> BrothersAtWar) -> BTreeMap<String, usize> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut rng = XorShift::new(seed);
    let mut g = new();
    let size = g.battle.unit_count();
    let mut remnants = 0;
    let mut log: Vec<String> = Vec::new();
    let mut gone_before: Vec<bool> = g.unit_ids().map(|u| gone(g.unit(u).place)).collect();
    let start = g.clone();
    for step in 0..20_000usize {
        let text = g.position();
        let back = BrothersAtWar::from_position(&text).expect("the position reads back");
        assert_eq!(back.position(), text, "seed {seed} step {step}");
        if let Some(chance) = g.chance() {
            assert!(g.pending().is_none());
            assert!(chance.outcomes >= 1);
            let outcome = rng.below(chance.outcomes as usize) as u32;
            let order = g.chance_order(outcome).expect("a chance order");
            let events = g
                .apply(&order)
                .unwrap_or_else(|e| panic!("seed {seed}: chance {order} refused: {e}"));
            remnants += events
                .iter()
                .filter(|e| matches!(e, Event::RemnantPlaced { .. }))
                .count();
            log.push(format!("{order}: {}", words(&events)));
            for e in &events {
                *seen.entry(kind(e)).or_default() += 1;
            }
        } else if g.pending().is_some() {
            let legal = g.legal_orders();
            assert!(!legal.is_empty(), "seed {seed}: nothing legal at {text}");
            assert_eq!(back.legal_orders(), legal);
            for o in &legal {
                assert_eq!(g.parse_order(&o.to_string()).as_ref(), Ok(o));
                let mut copy = g.clone();
                copy.apply(o)
                    .unwrap_or_else(|e| panic!("seed {seed}: listed {o} refused: {e}"));
            }
            if matches!(g.now.step, Step::Commander(_)) {
                check_at_rest(&g, &log);
            }
            // B145: the questions asked count by their kind.
            if let Some(q) = g.now.reaction.as_ref().and_then(|r| r.question.as_ref()) {
                let asked = format!("{q:?}");
                let word = asked.split(|c: char| !c.is_alphanumeric()).next();
                *seen
                    .entry(format!("Asked {}", word.unwrap_or_default()))
                    .or_default() += 1;
            }
            let order = legal[rng.below(legal.len())].clone();
            let events = g.apply(&order).expect("a listed order applies");
            log.push(format!("{order}: {}", words(&events)));
            for e in &events {
                *seen.entry(kind(e)).or_default() += 1;
            }
            remnants += events
                .iter()
                .filter(|e| matches!(e, Event::RemnantPlaced { .. }))
                .count();
        } else {
            assert!(g.outcome().is_some(), "seed {seed}: stuck at {text}");
            assert!(g.legal_orders().is_empty());
            return seen;
        }
        assert_eq!(g.now.units.len(), size + remnants, "seed {seed}");
        check_casualties(&g, &start, seed);
        for (i, u) in g.unit_ids().enumerate() {
            let now_gone = gone(g.unit(u).place);
            let was_gone = gone_before.get(i).copied().unwrap_or(false);
            assert!(!was_gone || now_gone, "seed {seed}: {u} came back");
            if i < gone_before.len() {
                gone_before[i] = now_gone;
            }
        }
        gone_before.resize(g.now.units.len(), false);
    }
    panic!("seed {seed}: the game did not end");
}

#[test]
fn random_games_keep_every_property_and_reach_the_end() {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let seeds = games(40);
    for seed in 0..seeds {
        for (k, n) in play(seed, game) {
            *seen.entry(k).or_default() += n;
        }
    }
    // Random play of this battle reaches every part of the machinery:
    // fire and its results, the deal, checks, movement and its stacking,
    // skirmishers, passing, commanders, commitment, the end phase.
    for kind in [
        "Activates",
        "ActivationPhaseEnds",
        "BothDraw",
        "CardDrawn",
        "CardPlayed",
        "Checked",
        "CommanderMoved",
        "Committed",
        "Control",
        "Combat Fire",
        "Combat Rolled",
        "Combat Saves",
        "Combat Hits",
        "Combat Retreated",
        "Combat ReserveSpent",
        "CountdownAdded",
        "Deployed",
        "Disbanded",
        "Discarded",
        "Disrupted",
        "Ended",
        "Formed",
        "Moved",
        "Passed",
        "TurnBegins",
        "Unformed",
    ] {
        // A card played counts by its name (`CardPlayed Second Wind`).
        let played = format!("{kind} ");
        assert!(
            seen.keys().any(|k| k == kind || k.starts_with(&played)),
            "random play never reached {kind}: {seen:?}"
        );
    }
    assert_eq!(
        seen.get("Over"),
        Some(&(seeds as usize)),
        "every game ended"
    );
}

#[test]
fn random_games_of_the_demo_battle_keep_every_property_and_reach_the_end() {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let seeds = games(8);
    for seed in 0..seeds {
        // Half the games with both players' cards for the enemy's moments
        // played as they come (B137).
        let new = if seed % 2 == 0 { demo } else { demo_with_cards };
        for (k, n) in play(seed, new) {
            *seen.entry(k).or_default() += n;
        }
    }
    assert_eq!(
        seen.get("Over"),
        Some(&(seeds as usize)),
        "every game ended"
    );
    // The demo's deck is played: cards at the player's own windows and
    // their effects (11.0, B124, B125).
    assert!(
        seen.contains_key("CardEffect"),
        "random play of the demo never reached CardEffect: {seen:?}"
    );
    // Cards of the player's own lines and of his instructions are played,
    // among them a fall back before the dice (B141) and a fire that
    // becomes an assault (B142).
    for card in [
        "Second Wind",
        "Double Quick",
        "Wrong Road",
        "Run for the Creek",
        // Volley and Charge (B142) is offered only to a unit next to an
        // enemy hex it could fire at and then assault (B123), which random
        // play seldom meets: brothers_at_war_card_attacks.rs and
        // brothers_at_war_wording.rs play it.
    ] {
        assert!(
            seen.contains_key(&format!("CardPlayed {card}")),
            "random play of the demo never played {card}: {seen:?}"
        );
    }
}

/// The test battle with both sides' units set up within reach of each
/// other across open ground south of the run, so that random play fires,
/// assaults, retreats and eliminates.
fn close_quarters() -> BrothersAtWar {
    let mut g = game();
    only(
        &mut g,
        &[
            ("1NY", "0404"),
            ("2NYA", "0504"),
            ("2NYB", "0504"),
            ("1CAV", "0304"),
            ("BAT", "0604"),
            ("1VA", "0405"),
            ("2VA", "0506"),
            ("4VA", "0306"),
        ],
    );
    g
}

#[test]
fn random_games_in_close_quarters_fire_assault_and_reach_the_end() {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let seeds = games(20);
    for seed in 0..seeds {
        for (k, n) in play(seed, close_quarters) {
            *seen.entry(k).or_default() += n;
        }
    }
    for kind in [
        "Combat Assault",
        "Combat AssaultRolled",
        "Combat AssaultWon",
        "Combat Eliminated",
        "Combat Fire",
        "Combat Retreated",
        "Combat ReserveSpent",
    ] {
        // A card played counts by its name (`CardPlayed Second Wind`).
        let played = format!("{kind} ");
        assert!(
            seen.keys().any(|k| k == kind || k.starts_with(&played)),
            "random play never reached {kind}: {seen:?}"
        );
    }
    assert_eq!(
        seen.get("Over"),
        Some(&(seeds as usize)),
        "every game ended"
    );
}

/// Close quarters with every question of a combat result asked of both
/// sides (`LOSSES`, `RESERVES`, `PATHS ... ASK`, B145) and retreats taken
/// whenever allowed, so that paths come up.
fn close_quarters_asking() -> BrothersAtWar {
    let mut g = close_quarters();
    for (side, code) in [(Side::Union, "USA"), (Side::Confederacy, "CSA")] {
        for setting in ["LOSSES", "RESERVES", "PATHS"] {
            let o = g.parse_order(&format!("{setting} {code} ASK")).unwrap();
            g.apply_standing(side, &o).unwrap();
        }
    }
    g
}

#[test]
fn random_games_asking_every_question_keep_every_property_and_reach_the_end() {
    // Every listed answer applies (B145), positions with a question
    // pending read back, and each kind of question comes up.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let seeds = games(20);
    for seed in 0..seeds {
        for (k, n) in play(seed, close_quarters_asking) {
            *seen.entry(k).or_default() += n;
        }
    }
    for kind in [
        "Asked Loss",
        "Asked Reserve",
        "Asked Path",
        "Asked Commander",
    ] {
        assert!(
            seen.contains_key(kind),
            "random play never reached {kind}: {seen:?}"
        );
    }
    assert_eq!(
        seen.get("Over"),
        Some(&(seeds as usize)),
        "every game ended"
    );
}

/// The demo battle with `CARDS USA AUTO` and `CARDS CSA AUTO` (B137).
fn demo_with_cards() -> BrothersAtWar {
    let mut g = demo();
    for (side, text) in [
        (Side::Union, "CARDS USA AUTO"),
        (Side::Confederacy, "CARDS CSA AUTO"),
    ] {
        let o = g.parse_order(text).unwrap();
        g.apply_standing(side, &o).unwrap();
    }
    g
}

/// The demo battle with `CARDS USA ASK` and `CARDS CSA ASK` (B148): every
/// window with a card in hand asks.
fn demo_asking_cards() -> BrothersAtWar {
    let mut g = demo();
    for (side, text) in [
        (Side::Union, "CARDS USA ASK"),
        (Side::Confederacy, "CARDS CSA ASK"),
    ] {
        let o = g.parse_order(text).unwrap();
        g.apply_standing(side, &o).unwrap();
    }
    g
}

#[test]
fn random_games_of_the_demo_asking_for_cards_keep_every_property_and_reach_the_end() {
    // Every listed answer to a card question applies, positions with an
    // order held read back, and cards of the enemy's moments are played
    // by answer (B148).
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let seeds = games(8);
    for seed in 0..seeds {
        for (k, n) in play(seed, demo_asking_cards) {
            *seen.entry(k).or_default() += n;
        }
    }
    assert_eq!(
        seen.get("Over"),
        Some(&(seeds as usize)),
        "every game ended"
    );
    assert!(
        seen.contains_key("Asked Card"),
        "random play never asked for a card: {seen:?}"
    );
    for card in ["Run for the Creek", "Fortune of War", "Wrong Road"] {
        assert!(
            seen.contains_key(&format!("CardPlayed {card}")),
            "random play never played {card} by answer: {seen:?}"
        );
    }
}

/// A new game of the built-in demo battle, "Tanner's Ford".
fn demo() -> BrothersAtWar {
    let g = BrothersAtWar::new(&GameOptions::default());
    assert_eq!(g.battle.scenario.id, registry::DEMO);
    g
}

#[test]
fn a_new_game_waits_for_the_deal() {
    let g = game();
    let chance = g.chance().expect("the deal draws cards");
    assert_eq!(chance.outcomes, 8);
    assert_eq!(chance.private_to, Some(orderly::games::Seat::North));
    assert!(g.pending().is_none());
}

/// A position string with one of its numbers changed.
fn mutated(text: &str, rng: &mut XorShift) -> String {
    let digits: Vec<usize> = text
        .char_indices()
        .filter(|(_, c)| c.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    let mut out = text.to_string();
    if digits.is_empty() {
        return out;
    }
    let at = digits[rng.below(digits.len())];
    let new = ["0", "9", "99", "255", "7"][rng.below(5)];
    out.replace_range(at..at + 1, new);
    out
}

#[test]
fn a_damaged_position_is_refused_or_read_but_never_panics() {
    let mut rng = XorShift::new(17);
    let mut g = game();
    let mut positions = Vec::new();
    for _ in 0..300 {
        positions.push(g.position());
        if let Some(c) = g.chance() {
            let o = g
                .chance_order(rng.below(c.outcomes as usize) as u32)
                .unwrap();
            g.apply(&o).unwrap();
        } else if g.pending().is_some() {
            let legal = g.legal_orders();
            g.apply(&legal[rng.below(legal.len())].clone()).unwrap();
        } else {
            break;
        }
    }
    for text in positions.iter().step_by(3) {
        for _ in 0..40 {
            let bad = mutated(text, &mut rng);
            if let Ok(read) = BrothersAtWar::from_position(&bad) {
                let _ = read.legal_orders();
                let _ = read.chance();
                let _ = read.outcome();
            }
        }
    }
}
