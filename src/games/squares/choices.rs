//! The pending choices, worded for the player who must decide.
//!
//! On a turn: the legal orders grouped by unit, one line per unit, counted
//! instead of listed when the line would not fit (`HELP MOVES <square>`
//! lists them). Inside an attack: each legal choice with one line saying
//! what it does in this position, worked out by playing it on a copy of the
//! game, so the text can never promise what the rules would not do.
//!
//! The Napoleonic variant's choices are worded in its notation (British and
//! French, F codes, its seven unit types; N1, N24), with its rules cited
//! where they decide: the charge (N10), the Guard's and the others'
//! immunities (N11, N14, N15), the forced retreat from the attacking Guard
//! (N12), and the Grand Battery and Horse Battery option lists (N18, N19).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::attack::{AttackState, Immunity, OptionsOffered, Stage};
use super::board::{board, Space, Terrain};
use super::drawing::{must_retreat_rule, option_list};
use super::event::Event;
use super::notation;
use super::order::Order;
use super::rules::{Family, Variant};
use super::state::{Half, Squares};
use super::unit::{Side, UnitKind};
use crate::games::{Game, Rejection};

/// Mail lines are at most this wide (design: plain text, 76 columns).
const WIDTH: usize = crate::games::text::MAIL_WIDTH;

/// The pending choices for the player who must decide, in the game's own
/// notation (N1).
pub(crate) fn describe(game: &Squares) -> String {
    notation::with(game.variant().notation(), || describe_in_notation(game))
}

fn describe_in_notation(game: &Squares) -> String {
    let Some(side) = game.side_to_decide() else {
        return String::new();
    };
    match game.attack {
        Some(attack) => describe_decision(game, side, attack.stage),
        None => describe_turn(game, side),
    }
}

/// `HELP MOVES <square>`: every legal order of the unit on `square` (or of
/// the reserve), one per line in canonical notation; the square read and
/// written in the game's own codes (F codes in the variant, N1).
pub(crate) fn describe_from(game: &Squares, square: &str) -> Result<String, Rejection> {
    notation::with(game.variant().notation(), || {
        describe_from_in_notation(game, square)
    })
}

fn describe_from_in_notation(game: &Squares, square: &str) -> Result<String, Rejection> {
    let reject = |problem: String, suggestions: Vec<String>| Rejection {
        line: format!("HELP MOVES {square}"),
        problem,
        rule: None,
        suggestions,
    };
    let Some(space) = Space::from_code(square.trim()) else {
        let near: Vec<String> = Space::all()
            .filter(|s| {
                super::reader::edit_distance(&square.trim().to_ascii_uppercase(), &s.to_string())
                    <= 1
            })
            .map(|s| format!("HELP MOVES {s}"))
            .collect();
        return Err(reject(
            format!("{:?} is not a square of the board", square.trim()),
            near,
        ));
    };
    let orders: Vec<String> = sorted(
        game.legal_orders()
            .into_iter()
            .filter(|o| acting_squares(o).contains(&space)),
    );
    if orders.is_empty() {
        let problem = match game.side_to_decide() {
            None => "the game is over".to_string(),
            Some(side) => format!("{side} has no legal order for a unit in {space} now"),
        };
        return Err(reject(problem, Vec::new()));
    }
    let mut out = format!("Legal orders for {space} ({}):\n", orders.len());
    for o in orders {
        let _ = writeln!(out, "  {o}");
    }
    Ok(out)
}

/// The squares of the units an order acts with.
fn acting_squares(order: &Order) -> Vec<Space> {
    match *order {
        Order::Move(s) => vec![s.from],
        Order::MoveTwo(a, b) => vec![a.from, b.from],
        Order::Attack {
            attacker, support, ..
        } => std::iter::once(attacker).chain(support).collect(),
        _ => Vec::new(),
    }
}

fn sorted(orders: impl Iterator<Item = Order>) -> Vec<String> {
    let mut v: Vec<String> = orders.map(|o| o.to_string()).collect();
    v.sort();
    v
}

fn describe_turn(game: &Squares, side: Side) -> String {
    let mut out = String::new();
    let turn = game.turn();
    let what = match game.half {
        Half::Single => "your turn",
        Half::First => "the first half of your double turn (R4)",
        Half::Second => "the second half of your double turn (R4)",
    };
    let _ = writeln!(out, "{side}, turn {turn}: {what}. Your orders, by unit:");
    let legal = game.legal_orders();
    // Units are keyed by square; a reserve is keyed by square and type,
    // because its units of one type are interchangeable (R7).
    let mut by_unit: BTreeMap<(u8, Space, Option<UnitKind>), Vec<Order>> = BTreeMap::new();
    let mut pairs = 0usize;
    let mut pass = false;
    for order in &legal {
        match *order {
            Order::Move(step) => by_unit
                .entry((front_rank(side, step.from), step.from, step.unit))
                .or_default()
                .push(*order),
            Order::Attack { attacker, .. } => by_unit
                .entry((front_rank(side, attacker), attacker, None))
                .or_default()
                .push(*order),
            Order::MoveTwo(..) => pairs += 1,
            Order::Pass => pass = true,
            _ => {}
        }
    }
    let mut whole_turn_note = false;
    for ((_, square, kind), orders) in &by_unit {
        let kind = kind
            .or_else(|| game.unit_at(*square).map(|u| u.kind()))
            .unwrap_or(UnitKind::Infantry);
        let head = format!("  {kind} {square}: ");
        let (line, whole) = unit_line(game, &head, orders);
        whole_turn_note |= whole;
        out.push_str(&line);
        out.push('\n');
    }
    if pairs > 0 {
        let ways = count(pairs, "way");
        match game.variant() {
            Variant::CivilWar => {
                let _ = writeln!(
                    out,
                    "  two cavalry at once, one step each (R11): {ways}; HELP MOVES \
                     on either cavalry's square lists them"
                );
            }
            Variant::Napoleonic => {
                let _ = writeln!(
                    out,
                    "  two cavalry or heavy cavalry at once, one step each (R11, N6): \
                     {ways}; HELP MOVES on either unit's square lists them"
                );
            }
        }
    }
    if pass {
        let _ = writeln!(
            out,
            "  PASS: do nothing now; your next turn is then a double turn (R4)"
        );
    }
    if whole_turn_note {
        let _ = writeln!(out, "  * this move uses your whole double turn (R5)");
    }
    let _ = writeln!(
        out,
        "Write one order per line, such as {}. HELP MOVES <square> lists one \
         unit's orders in full.",
        example(&legal)
    );
    wrap_all(&out)
}

/// Orders nearer the enemy come first: the front is what a player reads
/// first. The own reserve comes last.
fn front_rank(side: Side, s: Space) -> u8 {
    let b = board();
    if b.reserve_owner(s).is_some() {
        return u8::MAX;
    }
    let depth = b.rect(s).y_from + b.rect(s).y_to;
    let toward_enemy = match side {
        Side::Blue => 100 - depth,
        Side::Gray => depth,
    };
    toward_enemy.clamp(0, 254) as u8
}

/// One unit's orders on one line: moves by destination, attacks by target
/// with their supports; counted when the line would be too long.
fn unit_line(game: &Squares, head: &str, orders: &[Order]) -> (String, bool) {
    let mut moves: Vec<String> = Vec::new();
    let mut whole = false;
    // By target: each support ("alone" for none) with what the attack does
    // without a choice, if anything.
    let mut attacks: BTreeMap<String, Vec<(String, Option<String>)>> = BTreeMap::new();
    for o in orders {
        match *o {
            Order::Move(step) => {
                let kind = step
                    .unit
                    .or_else(|| game.unit_at(step.from).map(|u| u.kind()))
                    .unwrap_or(UnitKind::Infantry);
                let takes_whole =
                    game.half == Half::First && game.is_whole_double_turn(kind, step.from, step.to);
                whole |= takes_whole;
                let dest = format!("{}{}", step.to, if takes_whole { "*" } else { "" });
                if !moves.contains(&dest) {
                    moves.push(dest);
                }
            }
            Order::Attack {
                attacker,
                target,
                support,
            } => {
                let note = attack_note(game, attacker, target, support);
                attacks
                    .entry(target.to_string())
                    .or_default()
                    .push((support.map_or("alone".to_string(), |s| s.to_string()), note))
            }
            _ => {}
        }
    }
    let mut parts = Vec::new();
    if !moves.is_empty() {
        parts.push(format!("MOVE to {}", moves.join(" ")));
    }
    for (target, supports) in &attacks {
        let alone_note = supports
            .iter()
            .find(|(s, _)| s == "alone")
            .map(|(_, note)| note.clone());
        let alone = alone_note.is_some();
        let with: Vec<&str> = supports
            .iter()
            .filter(|(s, _)| s != "alone")
            .map(|(s, _)| s.as_str())
            .collect();
        // R17: some unsupported attacks only lose the attacker (N10: some
        // only win); say so where the choice is offered. A note every
        // attack on the target shares (a charge, supported or not) goes
        // with the target.
        let shared = supports
            .first()
            .and_then(|(_, note)| note.clone())
            .filter(|note| {
                !with.is_empty() && supports.iter().all(|(_, n)| n.as_ref() == Some(note))
            });
        let lost = match (&shared, alone_note.flatten()) {
            (None, Some(note)) => format!(" ({note})"),
            _ => String::new(),
        };
        let how = match (alone, with.is_empty()) {
            (true, true) => format!("unsupported{lost}"),
            (true, false) => format!("alone{lost} or SUPPORT {}", with.join("/")),
            (false, _) => format!("SUPPORT {}", with.join("/")),
        };
        match shared {
            Some(note) => parts.push(format!("ATTACK {target} ({note}) {how}")),
            None => parts.push(format!("ATTACK {target} {how}")),
        }
    }
    let line = format!("{head}{}", parts.join("; "));
    if line.len() <= WIDTH {
        return (line, whole);
    }
    let n_moves = orders
        .iter()
        .filter(|o| matches!(o, Order::Move(_)))
        .count();
    let n_attacks = orders.len() - n_moves;
    let square = match orders[0] {
        Order::Move(s) => s.from,
        Order::Attack { attacker, .. } => attacker,
        _ => unreachable!("only moves and attacks are grouped by unit"),
    };
    // In the variant an attack may decide itself (the charge, N10; the
    // immunities, N11, N14, N15): the moves are counted and the attacks,
    // with what they do, stay listed, over two lines when they must.
    if game.variant() == Variant::Napoleonic && !moves.is_empty() && parts.len() > 1 {
        let counted = format!("{} (HELP MOVES {square})", count(n_moves, "move"));
        let line = format!("{head}{counted}; {}", parts[1..].join("; "));
        if line.len() <= 2 * WIDTH - 8 {
            return (line, whole);
        }
    }
    let mut counted = Vec::new();
    if n_moves > 0 {
        counted.push(count(n_moves, "move"));
    }
    if n_attacks > 0 {
        counted.push(count(n_attacks, "attack"));
    }
    (
        format!("{head}{} (HELP MOVES {square})", counted.join(", ")),
        whole,
    )
}

/// What an attack from `attacker` on `target` does without a choice, if
/// anything. An unsupported one only loses the attacker on a forest (R17)
/// or against an artillery (R17); against another unit immune to it (N11,
/// N14, N15) it loses the attacker if the defender stands (N38). In
/// the variant a cavalry charge directly after a PASS, supported or not,
/// eliminates the foot (N10), taking the charger with it against the Guard;
/// the forest and flank rules come first (N10).
fn attack_note(
    game: &Squares,
    attacker: Space,
    target: Space,
    support: Option<Space>,
) -> Option<String> {
    let b = board();
    let variant = game.variant();
    let forest = b.is_forest(target);
    if forest && support.is_none() {
        return Some("attacker lost, R17".to_string());
    }
    let (a, d) = (game.unit_at(attacker)?, game.unit_at(target)?);
    let (a_rules, d_rules) = (variant.unit(a.kind()), variant.unit(d.kind()));
    let after_pass = game.half == Half::First;
    if support.is_none() {
        let rule = match (variant, d.kind()) {
            (Variant::Napoleonic, UnitKind::Guard) => "N11",
            (Variant::Napoleonic, UnitKind::HeavyCavalry) => "N14",
            (Variant::Napoleonic, UnitKind::HorseBattery) => "N15",
            _ => "R17",
        };
        match game.immunity(a, target) {
            Immunity::None => {}
            Immunity::AtOnce => return Some(format!("attacker lost, {rule}")),
            // N38: the defender still chooses; standing, it survives.
            Immunity::OnStand => {
                return Some(format!("attacker lost if the defender stands, {rule}"))
            }
        }
    }
    let flank = support.is_some_and(|s| {
        game.is_flank(&AttackState {
            attacker,
            target,
            support: Some(s),
            stage: Stage::Response,
        })
    });
    if a_rules.charges && after_pass && d_rules.family == Family::Foot && !forest && !flank {
        return Some(if d_rules.costs_its_charger {
            "charge: both eliminated, N10".to_string()
        } else {
            "charge: defender eliminated, N10".to_string()
        });
    }
    None
}

/// An order to show as an example of the notation: an attack if there is
/// one, else a move.
fn example(legal: &[Order]) -> String {
    let mut sorted_legal: Vec<&Order> = legal.iter().collect();
    sorted_legal.sort_by_key(|o| o.to_string());
    sorted_legal
        .iter()
        .find(|o| matches!(o, Order::Attack { .. }))
        .or_else(|| sorted_legal.iter().find(|o| matches!(o, Order::Move(_))))
        .map(|o| o.to_string())
        .unwrap_or_else(|| "PASS".to_string())
}

fn describe_decision(game: &Squares, side: Side, stage: Stage) -> String {
    let attack = game.attack.expect("a decision is inside an attack");
    let v = View { game, side };
    let attacker = v.unit(attack.attacker);
    let target = v.unit(attack.target);
    let support = attack
        .support
        .map(|s| format!(", supported by {}", v.unit(s)))
        .unwrap_or_default();
    let enemy = side.opponent();
    let list = option_list(game, &attack);
    let legal = game.legal_orders();
    let head = match stage {
        Stage::Response => {
            let mut h = format!("{side}: {attacker} attacks {target}{support}.");
            if game.is_flank(&attack) {
                h.push_str(" It is a flank attack: you must retreat if you can (R18).");
            }
            let may_stand = legal.contains(&Order::Stand);
            // Only the reason that applies is given (R18, N12, R24).
            let reason = match must_retreat_rule(game, &attack) {
                _ if may_stand => " Retreat or stand:",
                "R18" => " Choose where:",
                "N12" => " It must retreat from the attacking guard (N12); choose where:",
                _ if game.variant() == Variant::Napoleonic
                    && attack.support.is_none()
                    && game.unit_at(attack.attacker).map(|u| u.kind())
                        == Some(UnitKind::HeavyCavalry) =>
                {
                    // N27: a lone Heavy Cavalry is not "Cavalry" of R24(2).
                    " Cavalry must retreat when it can, also from a lone heavy \
                     cavalry (R24, N27); choose where:"
                }
                _ => " Cavalry must retreat when it can (R24); choose where:",
            };
            h.push_str(reason);
            h
        }
        Stage::Option => {
            let how = match list {
                OptionsOffered::General => "an option (R19)",
                OptionsOffered::GrandBattery => "a Grand Battery option (N18)",
                OptionsOffered::HorseBattery => "a Horse Battery option (N19)",
            };
            format!("{side}: {target} stands against {attacker}{support}. Choose {how}:")
        }
        Stage::SupportRetreat1 | Stage::SupportRetreat5 => {
            // GB3 and HB5 reuse option 5's stage.
            let why = match (stage, list) {
                (Stage::SupportRetreat5, OptionsOffered::GrandBattery) => "GB3, N18",
                (Stage::SupportRetreat5, OptionsOffered::HorseBattery) => "HB5, N19",
                _ => "R19, R21",
            };
            format!(
                "{side}: choose where {} retreats ({why}):",
                v.unit(attack.support.unwrap_or(attack.attacker))
            )
        }
        Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => {
            // HB4 reuses option 4's stage.
            let why = match (stage, list) {
                (Stage::AttackerRetreat4, OptionsOffered::HorseBattery) => "HB4, N19",
                _ => "R19, R21",
            };
            format!("{side}: choose where {attacker} retreats ({why}):")
        }
        Stage::SecondChance | Stage::GrandSecondChance => {
            let (option, rules) = if stage == Stage::GrandSecondChance {
                ("GB1", "N18, N21")
            } else {
                ("option 1", "R19")
            };
            // The defender begins the sentence: "Your infantry in F1C".
            let target = crate::games::text::capitalised(&target);
            if legal.contains(&Order::Stand) {
                format!(
                    "{side}: the supporting {enemy} artillery has retreated. {target} may \
                     retreat a second time and survive; if it stands it is eliminated \
                     ({}):",
                    if stage == Stage::GrandSecondChance {
                        format!("{option}, {rules}")
                    } else {
                        rules.to_string()
                    }
                )
            } else {
                // N29: the defender that yields to the attacking Guard takes
                // the retreat it now has.
                format!(
                    "{side}: the supporting {enemy} artillery has retreated ({option}). \
                     {target} must now retreat from the attacking guard (N12, N29); \
                     choose where:"
                )
            }
        }
        Stage::GrandSupportRetreat | Stage::HorseSupportRetreat => format!(
            "{side}: choose where {} retreats ({}):",
            v.unit(attack.support.unwrap_or(attack.attacker)),
            if stage == Stage::GrandSupportRetreat {
                "GB1, N18"
            } else {
                "HB1, N19"
            }
        ),
        Stage::HorseDefenderRetreat => {
            format!("{side}: {attacker} takes option HB1: choose where {target} retreats (N19):")
        }
        Stage::HorseBatteryRetreat => {
            format!("{side}: choose where {attacker} retreats (N19):")
        }
        Stage::Lose => format!(
            "{side}: {attacker} attacks your reserve {}. Choose the unit you lose \
             there (R17):",
            attack.target
        ),
        Stage::Advance => format!(
            "{side}: {} is empty: {attacker} may advance into it, or stay (R20):",
            attack.target
        ),
    };
    let mut out = head;
    out.push('\n');
    let mut legal = legal;
    legal.sort_by_key(|o| o.to_string());
    for order in legal {
        let effect = v.effect(&order);
        let _ = writeln!(out, "  {order}: {effect}");
    }
    wrap_all(&out)
}

/// Words for units and events from one side's seat: "your infantry in
/// B1C", "the Gray cavalry in G2R".
struct View<'a> {
    game: &'a Squares,
    side: Side,
}

impl View<'_> {
    fn unit(&self, square: Space) -> String {
        match board().terrain(square) {
            Terrain::Reserve(owner) if owner == self.side => format!("your reserve {square}"),
            Terrain::Reserve(owner) => format!("the {owner} reserve {square}"),
            _ => match self.game.unit_at(square) {
                Some(u) => self.named(u.side(), u.kind(), square),
                None => square.to_string(),
            },
        }
    }

    fn named(&self, side: Side, kind: UnitKind, square: Space) -> String {
        if side == self.side {
            format!("your {kind} in {square}")
        } else {
            format!("the {side} {kind} in {square}")
        }
    }

    /// [`View::named`], calling the supporting unit so: the issue's own
    /// wording ("your supporting infantry in G1CR is eliminated").
    fn named_in_role(&self, side: Side, kind: UnitKind, square: Space) -> String {
        match self.game.attack {
            Some(a) if a.support == Some(square) => self.named(side, kind, square).replacen(
                &format!("{kind} in"),
                &format!("supporting {kind} in"),
                1,
            ),
            _ => self.named(side, kind, square),
        }
    }

    fn place(&self, square: Space) -> String {
        match board().terrain(square) {
            Terrain::Reserve(owner) if owner == self.side => format!("your reserve {square}"),
            Terrain::Reserve(owner) => format!("the {owner} reserve {square}"),
            _ => square.to_string(),
        }
    }

    /// What `order` does here: its consequences, played on a copy, up to
    /// the next decision, which is named.
    fn effect(&self, order: &Order) -> String {
        let mut after = self.game.clone();
        let mut events = Vec::new();
        after.apply_listed(*order, &mut events);
        let mut phrases: Vec<String> = Vec::new();
        let mut eliminated: Vec<String> = Vec::new();
        let flush = |eliminated: &mut Vec<String>, phrases: &mut Vec<String>| {
            match eliminated.len() {
                0 => {}
                1 => phrases.push(format!("{} is eliminated", eliminated[0])),
                _ => phrases.push(format!("{} are eliminated", join_and(eliminated))),
            }
            eliminated.clear();
        };
        for e in &events {
            if let Event::Eliminated { side, unit, square } = e {
                eliminated.push(self.named_in_role(*side, *unit, *square));
                continue;
            }
            flush(&mut eliminated, &mut phrases);
            match e {
                Event::Retreated {
                    side,
                    unit,
                    from,
                    to,
                } => {
                    // R21; N16: every type but cavalry rests in the variant.
                    let rests = *side == self.side && self.game.variant().unit(*unit).rests;
                    let rule = match self.game.variant() {
                        Variant::CivilWar => "R21",
                        Variant::Napoleonic => "N16",
                    };
                    phrases.push(format!(
                        "{} retreats to {}{}",
                        self.named_in_role(*side, *unit, *from),
                        self.place(*to),
                        if rests {
                            format!(" and rests on your next turn ({rule})")
                        } else {
                            String::new()
                        }
                    ));
                }
                Event::Stood { side, unit, square } => {
                    phrases.push(format!("{} stands", self.named(*side, *unit, *square)))
                }
                Event::Advanced {
                    side,
                    unit,
                    from,
                    to,
                } => phrases.push(format!(
                    "{} advances into {}",
                    self.named(*side, *unit, *from),
                    self.place(*to)
                )),
                Event::Stayed { side, square } => {
                    let who = match self.game.unit_at(*square) {
                        Some(u) => self.named(*side, u.kind(), *square),
                        None => square.to_string(),
                    };
                    phrases.push(format!("{who} stays"));
                }
                Event::GameOver(outcome) => phrases.push(format!(
                    "the game ends: {}",
                    Event::GameOver(*outcome)
                        .to_string()
                        .trim_start_matches("game over: ")
                )),
                _ => {}
            }
        }
        flush(&mut eliminated, &mut phrases);
        let before = [Side::Blue, Side::Gray].map(|s| self.game.points(s));
        let now = [Side::Blue, Side::Gray].map(|s| after.points(s));
        if before != now && after.outcome.is_none() {
            phrases.push(format!(
                "score then {} {} - {} {}",
                Side::Blue,
                now[0],
                Side::Gray,
                now[1]
            ));
        }
        if let Some(next) = self.next_decision(&after) {
            phrases.push(next);
        }
        if phrases.is_empty() {
            phrases.push("nothing more happens".to_string());
        }
        let mut text = phrases.join("; ");
        text.push('.');
        text
    }

    /// The decision the attack waits for after a choice, from this seat.
    fn next_decision(&self, after: &Squares) -> Option<String> {
        let attack = after.attack?;
        let decider = after.side_to_decide()?;
        let who = if decider == self.side {
            "you".to_string()
        } else {
            decider.to_string()
        };
        // "Blue may advance its infantry", not "the Blue infantry".
        let unit = |s: Space| match after.unit_at(s) {
            Some(u) if u.side() == decider && decider != self.side => {
                format!("its {} in {s}", u.kind())
            }
            Some(u) => self.named(u.side(), u.kind(), s),
            None => s.to_string(),
        };
        // "you pick" but "Gray picks".
        let verb = |v: &str| {
            if decider == self.side {
                v.to_string()
            } else {
                format!("{v}s")
            }
        };
        Some(match attack.stage {
            Stage::Response => format!("then {who} {} to retreat or stand", verb("decide")),
            Stage::Option => format!("then {who} {} an option", verb("choose")),
            Stage::SupportRetreat1 | Stage::SupportRetreat5 => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.support.unwrap_or(attack.attacker))
            ),
            Stage::AttackerRetreat1 | Stage::AttackerRetreat4 => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.attacker)
            ),
            Stage::SecondChance | Stage::GrandSecondChance => format!(
                "then {who} may retreat {} a second time",
                unit(attack.target)
            ),
            Stage::GrandSupportRetreat | Stage::HorseSupportRetreat => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.support.unwrap_or(attack.attacker))
            ),
            Stage::HorseDefenderRetreat => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.target)
            ),
            Stage::HorseBatteryRetreat => format!(
                "then {who} {} where {} retreats",
                verb("pick"),
                unit(attack.attacker)
            ),
            Stage::Lose => format!("then {who} {} the unit lost from the reserve", verb("pick")),
            Stage::Advance => format!(
                "then {who} may advance {} into {}",
                unit(attack.attacker),
                self.place(attack.target)
            ),
        })
    }
}

/// "1 move", "3 moves".
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Wraps at 76 columns with a hanging indent of four, so a wrapped choice
/// stays visibly one choice.
fn wrap_all(text: &str) -> String {
    crate::games::text::wrap(text, |indent| indent + 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_lines_within_76_columns_and_indents_continuations() {
        let long = format!("  OPTION 1: {}", "word ".repeat(40));
        let wrapped = wrap_all(&long);
        assert!(wrapped.lines().count() > 1);
        for line in wrapped.lines() {
            assert!(line.len() <= WIDTH, "{line:?}");
        }
        assert!(wrapped.lines().nth(1).unwrap().starts_with("      word"));
    }
}
