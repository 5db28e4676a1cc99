//! The pending choices in words for the seat that decides, each with what
//! it costs: `10M can: MOVE (4 MP left: 1005 costs 1, 1104 woods costs
//! 2), FORM (2 MP), HOLD ...`. Costs are found by applying each legal order
//! to a copy, so the words never disagree with the engine. The other seat
//! learns only who decides what: never a card of the decider's hand (B2).

use std::collections::BTreeMap;

use super::names;
use crate::games::brothers_at_war::core::combat::FireType;
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::order::{Action, Order};
use crate::games::brothers_at_war::core::state::{BrothersAtWar, Step};
use crate::games::brothers_at_war::core::Hex;
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

/// What a fire would be: its cost, dice, range and the face that hits
/// (6.11, 6.2, B82), as the engine declares it.
fn fire_words(game: &BrothersAtWar, units: &[String], hex: Hex) -> String {
    let firers: Vec<_> = units.iter().filter_map(|n| game.unit_named(n)).collect();
    let Some(from) = firers.first().and_then(|&u| game.hex_of(u)) else {
        return format!("{FIRE_COST} MP");
    };
    let enemy = game.side_of(firers[0]).other();
    let targets: Vec<_> = game
        .units_at(hex)
        .into_iter()
        .filter(|&u| game.side_of(u) == enemy)
        .collect();
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
    match game.declare_fire(&firers, hex, &targets, kind) {
        Ok(a) => format!(
            "{FIRE_COST} MP, {} dice at {} hexes, hits on {}+",
            a.dice,
            from.distance(hex),
            a.to_hit
        ),
        Err(_) => format!("{FIRE_COST} MP"),
    }
}

/// The orders of one unit or stack, in words with their costs.
fn unit_line(game: &BrothersAtWar, units: &[String], orders: &[&Order]) -> String {
    let mut moves = Vec::new();
    let mut others = Vec::new();
    for order in orders {
        let Order::Act { action, .. } = order else {
            continue;
        };
        let paid = cost(game, order).map_or(0, |(c, _)| c);
        match action {
            Action::Move(path) => {
                if let Some(&to) = path.last() {
                    moves.push(format!("{to}{} costs {paid}", ground(game, to)));
                }
            }
            Action::Fire(h) | Action::FireSide(h, _) => {
                others.push(format!("FIRE {h} ({})", fire_words(game, units, *h)))
            }
            Action::Form => others.push(format!("FORM ({paid} MP)")),
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
    format!("  {} can: {}\n", units.join(" "), parts.join(", "))
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
        Order::Pass(None) => "PASS (activate no unit and draw a card)".to_string(),
        Order::End => match game.now.step {
            // A brigade without a commander (9.3) ends with its units, and
            // the end of a mail does not end a last part (MAIL_TURN).
            Step::Units(b) if game.battle.scenario.brigades[b.index()].commander.is_none() => {
                "END UNITS (the activation ends)".to_string()
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
