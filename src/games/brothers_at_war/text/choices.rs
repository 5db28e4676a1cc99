//! The pending choices in words for the seat that decides, each with what
//! it costs: `10M can: MOVE (4 MP left: 1005 costs 1, 1104 woods costs
//! 2), FORM (2 MP), HOLD ...`. Costs are found by applying each legal order
//! to a copy, so the words never disagree with the engine. The other seat
//! learns only who decides what: never a card of the decider's hand (B2).

use std::collections::BTreeMap;

use super::names;
use crate::games::brothers_at_war::core::combat::{CombatEvent, FireType};
use crate::games::brothers_at_war::core::event::{count, Event};
use crate::games::brothers_at_war::core::line::{self, LineSide};
use crate::games::brothers_at_war::core::order::{Action, Order};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, CardEffect, Place, Step};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::engine::activation::FORM_COST;
use crate::games::brothers_at_war::engine::fire::FIRE_COST;
use crate::games::brothers_at_war::scenario::model::Side;
use crate::games::text::wrap;
use crate::games::{Game, Rejection, Seat};

/// Movement points the units of `order` have left before it.
fn points_left(game: &BrothersAtWar, units: &[String]) -> Option<u8> {
    let ids: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
    let active = game
        .now
        .activation
        .as_ref()
        .and_then(|a| a.group.as_ref())
        .filter(|g| g.units == ids);
    match active {
        Some(g) => Some(
            game.allowance(&g.units, g.road_march)
                .saturating_sub(g.spent),
        ),
        None if ids.is_empty() => None,
        None => Some(game.allowance(&ids, game.road_march_start(&ids))),
    }
}

/// What an order costs in movement points: what its group has spent more
/// after it, on a copy.
fn cost(game: &BrothersAtWar, order: &Order) -> Option<(u8, Vec<Event>)> {
    let Order::Act { units, .. } = order else {
        return None;
    };
    let ids: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
    let spent = |g: &BrothersAtWar| {
        g.now
            .activation
            .as_ref()
            .and_then(|a| a.group.as_ref())
            .filter(|gr| gr.units == ids)
            .map_or(0, |gr| gr.spent)
    };
    let before = spent(game);
    let mut copy = game.clone();
    let events = copy.apply(order).ok()?;
    let moved: u8 = events
        .iter()
        .map(|e| match e {
            Event::Moved { cost, .. } => *cost,
            _ => 0,
        })
        .sum();
    Some((moved.max(spent(&copy).saturating_sub(before)), events))
}

fn ground(game: &BrothersAtWar, hex: Hex) -> String {
    let map = &game.battle.map;
    let name = map.terrain_name(map.terrain(hex));
    if name == "open" {
        String::new()
    } else {
        format!(" {name}")
    }
}

/// What a fire costs (5.24): 2 MP, or nothing for artillery that began
/// its activation deployed and has spent nothing yet (5.42, B56), as the
/// engine charges it.
fn fire_cost(game: &BrothersAtWar, units: &[String]) -> String {
    let firers: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
    let group = game
        .now
        .activation
        .as_ref()
        .and_then(|a| a.group.as_ref())
        .filter(|g| firers.iter().all(|u| g.units.contains(u)));
    let deployed = !firers.is_empty()
        && firers.iter().all(|&u| {
            game.unit(u).place == Place::OffBoard
                || game.formation(u)
                    == crate::games::brothers_at_war::core::formation::Formation::Deployed
        });
    if deployed && group.is_none_or(|g| g.spent == 0) {
        "0 MP (it began deployed, 5.42)".to_string()
    } else {
        format!("{FIRE_COST} MP")
    }
}

/// What a fire would be: its cost, dice, range and the face that hits
/// (6.11, 6.2, B82), as the engine declares it.
fn fire_words(game: &BrothersAtWar, units: &[String], hex: Hex) -> String {
    let firers: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
    let paid = fire_cost(game, units);
    let Some(from) = firers.first().and_then(|&u| game.hex_of(u)) else {
        return paid;
    };
    let targets = game.enemies_at(hex, game.side_of(firers[0]));
    let moved = game
        .now
        .activation
        .as_ref()
        .and_then(|a| a.group.as_ref())
        .is_some_and(|g| g.moved && g.units == firers);
    let kind = if moved {
        FireType::Moving
    } else {
        FireType::Standing
    };
    let Ok(a) = game.declare_fire(&firers, hex, &targets, kind) else {
        return paid;
    };
    let range = if a.range > 0 {
        u32::from(a.range)
    } else {
        from.distance(hex)
    };
    let mut words = format!(
        "{paid}, {} at {}, hits on {}+",
        count(a.dice, "die", "dice"),
        count(range, "hex", "hexes"),
        a.to_hit
    );
    // 6.32, B24: a line along hexsides is fired along the side the engine
    // finds best unless the order names one; a side that fires otherwise
    // (fewer dice without its pass-through, 6.4; blocked) is listed with
    // what it gives, so that `SIDE LEFT` is no surprise.
    let along = firers
        .iter()
        .filter_map(|&u| game.hex_of(u))
        .any(|f| line::between(f, hex).split() || line::behind(f, hex).split());
    let sides = if along {
        [(LineSide::Left, "LEFT"), (LineSide::Right, "RIGHT")].as_slice()
    } else {
        &[]
    };
    for &(side, word) in sides {
        match game.declare_fire_along(&firers, hex, &targets, kind, Some(side)) {
            Ok(b) if (b.dice, b.to_hit, b.cap) == (a.dice, a.to_hit, a.cap) => {}
            Ok(b) => {
                let mut what = vec![count(b.dice, "die", "dice")];
                if b.to_hit != a.to_hit {
                    what.push(format!("hits on {}+", b.to_hit));
                }
                if b.cap != a.cap {
                    what.push(format!("at most {}", count(b.cap, "hit", "hits")));
                }
                if b.pass_through != a.pass_through {
                    what.push(match b.pass_through {
                        0 => "no pass-through that side (6.4)".to_string(),
                        n => format!("pass-through +{n} that side (6.4)"),
                    });
                }
                words.push_str(&format!("; SIDE {word}: {}", what.join(", ")));
            }
            Err(_) => words.push_str(&format!("; SIDE {word} blocked (6.32)")),
        }
    }
    words
}

/// A fire at an off-board battery in words (9.43, B147): its dice, the
/// range past the battery's fire point, the face that hits.
fn battery_words(game: &BrothersAtWar, units: &[String], battery: &str) -> String {
    let firers: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
    let card = game
        .unit_named(battery)
        .and_then(|b| game.battery_card(b))
        .map_or(String::new(), |c| format!("the battery of {}: ", c.name));
    let kind = FireType::Standing;
    match game
        .unit_named(battery)
        .map(|b| game.declare_fire_at_battery(&firers, b, kind))
    {
        Some(Ok(a)) => format!(
            "{card}{}, {} at {}, hits on {}+",
            fire_cost(game, units),
            count(a.dice, "die", "dice"),
            count(a.range, "hex", "hexes"),
            a.to_hit
        ),
        _ => format!("{card}{}", fire_cost(game, units)),
    }
}

/// A change of formation in words: its price (5.22: 2 MP; free for a
/// reinforcement off the map, B117, or by a card, B125) and whether it
/// ends the unit's activation (deployed artillery, 5.222; no points left
/// on the new side, 5.221, B55), seen in `events`, the order's on a copy.
fn form_words(game: &BrothersAtWar, units: &[String], events: &[Event]) -> String {
    let ids: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
    let off_map = ids.iter().all(|&u| game.unit(u).place == Place::Waiting);
    let by_card = game
        .now
        .card_effects
        .iter()
        .any(|e| matches!(e, CardEffect::FreeForm(u) if ids.contains(u)));
    let paid = if off_map || by_card { 0 } else { FORM_COST };
    let ends = events
        .iter()
        .any(|e| matches!(e, Event::Ended { finished: true, .. }));
    format!(
        "FORM ({paid} MP{})",
        if ends { ", then Finished" } else { "" }
    )
}

/// A step in words with its cost (5.21, B52: at least 1). A fire that
/// strikes before the unit leaves its hex (point blank, 6.15, B72) sets
/// the step aside on the copy (B9), which then spends nothing: its cost is
/// the engine's price of the step as planned, and the fire is named.
fn step_words(
    game: &BrothersAtWar,
    units: &[String],
    to: Hex,
    paid: u8,
    events: &[Event],
) -> String {
    let stepped = events.iter().any(|e| matches!(e, Event::Moved { .. }));
    let first = events.iter().find_map(|e| match e {
        Event::Combat(CombatEvent::Fire { kind, .. }) if !stepped => Some(*kind),
        _ => None,
    });
    let planned = || {
        let ids: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
        let group = game
            .now
            .activation
            .as_ref()
            .and_then(|a| a.group.as_ref())
            .filter(|g| g.units == ids)?;
        let from = ids.first().and_then(|&u| game.hex_of(u));
        game.plan_step(group, from, to).ok().map(|p| p.cost)
    };
    let (paid, note) = match first {
        Some(kind) => (
            planned().unwrap_or(paid),
            format!(
                " ({kind} first{})",
                if kind == FireType::PointBlank {
                    ", 6.15"
                } else {
                    ""
                }
            ),
        ),
        None => (paid, String::new()),
    };
    format!("{to}{} costs {paid}{note}", ground(game, to))
}

/// The orders of one unit or stack, in words with their costs.
fn unit_line(game: &BrothersAtWar, units: &[String], orders: &[&Order]) -> String {
    let mut moves = Vec::new();
    let mut others = Vec::new();
    for order in orders {
        let Order::Act { action, .. } = order else {
            continue;
        };
        let (paid, events) = cost(game, order).unwrap_or_default();
        match action {
            Action::Move(path) => {
                if let Some(&to) = path.last() {
                    moves.push(step_words(game, units, to, paid, &events));
                }
            }
            Action::Fire(h) | Action::FireSide(h, _) => {
                others.push(format!("FIRE {h} ({})", fire_words(game, units, *h)))
            }
            Action::FireAtBattery(b) => {
                others.push(format!("FIRE {b} ({})", battery_words(game, units, b)))
            }
            Action::Form => others.push(form_words(game, units, &events)),
            // Holding fire ends the activation, so its cost (5.25) is
            // not seen on the copy: it needs 3 MP left to be listed.
            Action::Hold => others.push("HOLD (3 MP, not Finished)".to_string()),
            other => others.push(other.to_string()),
        }
    }
    let mut parts = Vec::new();
    if !moves.is_empty() {
        let left = points_left(game, units).map_or(String::new(), |l| format!("{l} MP left: "));
        parts.push(format!("MOVE ({left}{})", moves.join(", ")));
    }
    parts.extend(others);
    let mut line = format!("  {} can: {}\n", units.join(" "), parts.join(", "));
    line.push_str(&out_of_command_words(game, units));
    line
}

/// 4.3: why an out of command unit's list is short, under its line: a
/// move disrupts it first, so it steps only where a Disrupted unit may
/// (6.531), and it deploys no skirmisher; its other actions stand.
fn out_of_command_words(game: &BrothersAtWar, units: &[String]) -> String {
    let out: Vec<&str> = units
        .iter()
        .filter(|n| {
            game.unit_named(n)
                .is_some_and(|u| game.unit(u).out_of_command)
        })
        .map(String::as_str)
        .collect();
    if out.is_empty() {
        return String::new();
    }
    let (name, verb) = match out[..] {
        [one] => (one.to_string(), "is"),
        _ => (out.join(" and "), "are"),
    };
    format!(
        "    {name} {verb} out of command (4.3: failed command check): a move disrupts it \
         first, so it steps only where a Disrupted unit may (not closer to an enemy within 7 \
         hexes in its sight, 6.531), and it deploys no skirmisher; instead of moving it may \
         still change formation, fire or assault\n"
    )
}

/// The legal orders grouped by the units they name, other orders apart.
fn grouped(legal: &[Order]) -> (BTreeMap<Vec<String>, Vec<&Order>>, Vec<&Order>) {
    let mut by_units: BTreeMap<Vec<String>, Vec<&Order>> = BTreeMap::new();
    let mut rest = Vec::new();
    for o in legal {
        match o {
            Order::Act { units, .. } => by_units.entry(units.clone()).or_default().push(o),
            Order::Play { .. } => {}
            _ => rest.push(o),
        }
    }
    (by_units, rest)
}

fn other_order(game: &BrothersAtWar, o: &Order) -> String {
    let scenario = &game.battle.scenario;
    match o {
        Order::Discard(n)
        | Order::Pass(Some(crate::games::brothers_at_war::core::order::PassDiscard::Card(n))) => {
            format!("{o} ({})", names::card_title(scenario, *n))
        }
        Order::Pass(None) if game.now.reaction.is_some() => "PASS (hold fire)".to_string(),
        Order::Pass(None) => "PASS (activate no unit and draw a card)".to_string(),
        Order::End => match game.now.step {
            // A brigade without a commander (9.3) ends with its units.
            Step::Units(b) if game.battle.scenario.brigades[b.index()].commander.is_none() => {
                "END UNITS (the activation ends; the end of your mail does it too, unless \
                 its last line is MORE)"
                    .to_string()
            }
            _ => "END UNITS (done with units: on to the commander; the end of your \
                  mail does it too, unless its last line is MORE)"
                .to_string(),
        },
        Order::Ready => "READY (commit no more brigades)".to_string(),
        _ => o.to_string(),
    }
}

/// The pending choices as `viewer` may read them.
pub fn describe(game: &BrothersAtWar, viewer: Seat) -> String {
    let Some(p) = game.pending() else {
        return String::new();
    };
    if p.seat != viewer {
        return format!(
            "The {} decides: {}.\n",
            names::side(Side::of(p.seat)),
            p.kind
        );
    }
    let legal = game.legal_orders();
    let mut out = String::new();
    // B7, B145: a reaction asked says what happened and what PASS does.
    if let Some(r) = &game.now.reaction {
        out.push_str(&super::asked::describe(game, r));
        if r.question.is_some() || !r.paths.is_empty() {
            out.push_str(&card_lines(game, &legal));
            return wrap(&out, |indent| indent + 4);
        }
    }
    match game.now.step {
        Step::Commander(b) => {
            let hexes: Vec<String> = legal
                .iter()
                .filter_map(|o| match o {
                    Order::Commander(Some(h)) => Some(h.to_string()),
                    _ => None,
                })
                .collect();
            let now = game
                .brigade(b)
                .commander
                .map_or("off the map".to_string(), |h| h.to_string());
            out.push_str(&format!(
                "Your orders: COMMANDER STAY (at {now}), or COMMANDER to one of: {}\n",
                hexes.join(" ")
            ));
        }
        // 2.31, 3.221: the discard asked, with why.
        Step::EndDiscard(_) | Step::PassDiscard(_) => {
            let (side, why) = match game.now.step {
                Step::PassDiscard(b) => {
                    (game.battle.brigade_side(b), "after a pass's draw (3.221)")
                }
                Step::EndDiscard(side) => (side, "at the discard and draw step (2.31)"),
                _ => (Side::of(viewer), ""),
            };
            let held = game.now.hands[side.index()].len();
            let size = game.hand_size(side);
            let over = held.saturating_sub(size).max(1);
            let cards: Vec<String> = legal
                .iter()
                .filter(|o| matches!(o, Order::Discard(_)))
                .map(|o| other_order(game, o))
                .collect();
            out.push_str(&format!(
                "You hold {} and your hand size is {size}: discard {} {why}.\nYour orders: {}\n",
                count(held as u32, "card", "cards"),
                if over == 1 {
                    "one".to_string()
                } else {
                    format!("{over}, one a DISCARD line")
                },
                cards.join("; ")
            ));
        }
        _ => {
            let (by_units, rest) = grouped(&legal);
            if !by_units.is_empty() {
                out.push_str("Your orders, by unit:\n");
                for (units, orders) in &by_units {
                    out.push_str(&unit_line(game, units, orders));
                }
            }
            // PASS DISCARD variants are PASS with a card named: one line.
            let rest: Vec<String> = rest
                .iter()
                .filter(|o| !matches!(o, Order::Pass(Some(_))))
                .map(|o| other_order(game, o))
                .collect();
            if !rest.is_empty() {
                out.push_str(&format!("Or: {}\n", rest.join("; ")));
            }
        }
    }
    out.push_str(&card_lines(game, &legal));
    // 8.133, B146: a skirmisher waiting on a display buys back a reserve.
    let give_up: Vec<String> = game
        .skirmishers_to_give_up(Side::of(viewer))
        .into_iter()
        .map(|u| format!("ELIMINATE {}", game.unit_name(u)))
        .collect();
    if !give_up.is_empty() {
        out.push_str(&format!(
            "At any time: {} (gives up the skirmisher waiting on its display: it becomes a \
             casualty, and one reserve is recovered, 8.133, B146).\n",
            give_up.join(", ")
        ));
    }
    out.push_str("HELP MOVES <unit or hex> lists one unit's orders.\n");
    wrap(&out, |indent| indent + 4)
}

/// The cards the decider may play now (11.0, B124), one line a card with
/// its targets and its text: read only by the card's holder (B2).
fn card_lines(game: &BrothersAtWar, legal: &[Order]) -> String {
    let mut by_card: BTreeMap<u8, Vec<String>> = BTreeMap::new();
    for o in legal {
        if let Order::Play { card, on } = o {
            let targets = by_card.entry(*card).or_default();
            if let Some(x) = on {
                targets.push(x.clone());
            }
        }
    }
    let mut out = String::new();
    for (card, targets) in by_card {
        let text = names::card(&game.battle.scenario, card)
            .map(|c| format!("{}: {}", c.name, c.text))
            .unwrap_or_default();
        let on = if targets.is_empty() {
            String::new()
        } else {
            format!(" ON {}", targets.join("|"))
        };
        out.push_str(&format!("Card: PLAY {card}{on} ({text})\n"));
    }
    out
}

/// Every legal order of the units named by `what` (a unit or a hex).
pub fn describe_from(game: &BrothersAtWar, what: &str) -> Result<String, Rejection> {
    let refuse = |problem: String| Rejection {
        line: what.trim().to_string(),
        problem,
        rule: None,
        suggestions: Vec::new(),
    };
    let word = what.trim();
    let names: Vec<String> = if let Some(u) = game.unit_named(word) {
        vec![game.unit_name(u)]
    } else if let Some(h) = word
        .parse::<Hex>()
        .ok()
        .or_else(|| game.battle.map.place_hex(word))
    {
        game.units_at(h)
            .into_iter()
            .map(|u| game.unit_name(u))
            .collect()
    } else {
        return Err(refuse(format!("{word} is neither a unit nor a hex")));
    };
    let legal = game.legal_orders();
    let (by_units, _) = grouped(&legal);
    let mut out = String::new();
    for (units, orders) in &by_units {
        if units.iter().any(|u| names.contains(u)) {
            out.push_str(&unit_line(game, units, orders));
        }
    }
    if out.is_empty() {
        return Err(refuse(format!(
            "{word} has no legal order now (only the brigade activating acts)"
        )));
    }
    Ok(wrap(&out, |indent| indent + 4))
}

/// When `order` names a unit no longer on the map (disbanded, eliminated,
/// removed, exited): the orders his other units may give now, one or two
/// a unit, those of the same action first. `None` for any other order.
pub fn for_units_gone(game: &BrothersAtWar, order: &Order) -> Option<Vec<String>> {
    let Order::Act { units, action } = order else {
        return None;
    };
    let gone = units
        .iter()
        .filter_map(|n| game.unit_named(n))
        .any(|u| game.gone(u).is_some());
    if !gone {
        return None;
    }
    let legal = game.legal();
    let (by_units, _) = grouped(&legal);
    let same = |o: &Order| {
        matches!(o, Order::Act { action: a, .. }
            if std::mem::discriminant(a) == std::mem::discriminant(action))
    };
    let mut out = Vec::new();
    for (names, orders) in &by_units {
        if names.iter().any(|n| units.contains(n)) {
            continue;
        }
        let pick = orders.iter().find(|o| same(o)).or_else(|| orders.first());
        if let Some(o) = pick {
            out.push(o.to_string());
        }
        if out.len() >= 5 {
            break;
        }
    }
    Some(out)
}

/// The standing instructions `side` may give in the place of `order`, a
/// refused one (B5): the same setting for each of his brigades not broken,
/// then for his whole side (`OPFIRE ward NEVER`, ..., `OPFIRE USA NEVER`).
/// Empty when `order` is no instruction.
pub fn instructions_for(game: &BrothersAtWar, side: Side, order: &Order) -> Vec<String> {
    let with_scope = |scope: String| match order {
        Order::Instruct { setting, .. } => Some(Order::Instruct {
            scope,
            setting: *setting,
        }),
        Order::OpFire { rule, .. } => Some(Order::OpFire {
            brigade: scope,
            rule: *rule,
        }),
        _ => None,
    };
    game.battle
        .brigade_ids()
        .filter(|&b| game.battle.brigade_side(b) == side && !game.brigade(b).broken)
        .map(|b| game.brigade_name(b))
        .chain([side.code().to_string()])
        .filter_map(with_scope)
        .map(|o| o.to_string())
        .collect()
}
