//! Fire as data: a fire attack or an assault waiting for its dice (6.0,
//! 7.1, B11), a reaction asked of a player (B7), and what combat did, as
//! events with every save's reason kept (B77). The standing instructions
//! are in [`super::instructions`].

use std::fmt;

use serde::{Deserialize, Serialize};

use super::event::count;
use super::hex::Hex;
use super::ids::UnitId;
pub use super::instructions::{
    parse_setting, CardsRule, DiscardRule, FateRule, Instructions, LossesRule, PathsRule,
    RallyFailRule, ReservesRule, RetreatRule, Scope, Setting, MAX_INSTRUCTIONS, SETTING_WORDS,
};
use super::question::{Answer, Question, MAX_ANSWERS};
use crate::games::brothers_at_war::scenario::model::Side;

/// How a fire is made, as kept in the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FireType {
    /// Standing fire (6.11).
    Standing,
    /// Moving fire (6.11).
    Moving,
    /// Opportunity fire (6.12).
    Opportunity,
    /// Point blank fire at a unit leaving an adjacent hex (6.15, B72).
    PointBlank,
}

/// The point blank fire already made at the active unit or stack as it
/// leaves its hex (B72): each adjacent enemy fires once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointBlank {
    /// The units leaving.
    pub movers: Vec<UnitId>,
    /// The hex they leave.
    pub from: Hex,
    /// The enemy units that have fired.
    pub fired: Vec<UnitId>,
}

/// Where a fire attack stands (B11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The attack dice are to be rolled.
    Dice,
    /// Save dice are to be rolled: this many still.
    Saves(u8),
    /// The defender is asked whether to retreat (B7, `RETREAT ... ASK`).
    Retreat,
    /// The dice are rolled; a question of the result waits for its
    /// answer (B145).
    Asked,
}

/// A save roll's reason, with its count (B77): kept in the event so the
/// mail says which factor gave each save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveLine {
    /// The factor, in words.
    pub why: String,
    /// Its rule.
    pub rule: String,
    /// Save rolls it gives.
    pub rolls: u8,
}

/// A fire attack under way (6.0): declared, waiting for dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FireAttack {
    /// The units firing (one, or a combining pair, 6.14).
    pub firers: Vec<UnitId>,
    /// The target hex.
    pub target: Hex,
    /// The units it hits: the whole stack, or the moving units only for
    /// opportunity fire (B71, B76).
    pub targets: Vec<UnitId>,
    /// The kind of fire.
    pub kind: FireType,
    /// Dice to roll (1.71).
    pub dice: u8,
    /// The lowest face that hits (1.72, B82).
    pub to_hit: u8,
    /// The most hits it scores after saves (6.5, B68).
    pub cap: u8,
    /// The save rolls the target has before any retreat (B77).
    pub saves: Vec<SaveLine>,
    /// The save rolls a retreat adds (6.7, 6.72), if it may retreat.
    pub retreat_saves: u8,
    /// Successes rolled, once rolled.
    pub successes: u8,
    /// Saves rolled so far.
    pub saved: u8,
    /// The target retreats after its saves (6.7).
    pub retreating: bool,
    /// Where the attack stands.
    pub stage: Stage,
    /// Each firer's dice and lowest hitting face, in order: in combined
    /// artillery fire each gun judges its own range band (B67).
    #[serde(default)]
    pub segments: Vec<(u8, u8)>,
    /// The retreat path its owner chose when asked (B7); empty: the
    /// engine's (B92).
    #[serde(default)]
    pub path: Vec<Hex>,
    /// The step's opportunity attack follows this fire (B10: a
    /// skirmisher's point blank fire comes first).
    #[serde(default)]
    pub opfire_after: bool,
    /// A card's extra dice (B125 `extra-fire-dice-with-risk`): the unit
    /// at risk, the card, how many of the last dice are the card's, and
    /// the face at or under which each is a hit on that unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risky: Option<(UnitId, u8, u8, u8)>,
    /// The firepower pass-through fire added (6.4, 6.41).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pass_through: u8,
    /// The range in hexes (6.2, 9.41).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub range: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// An assault waiting for its dice (7.1, B98): the attacker's dice are
/// rolled, then the defender's; their effects apply together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assault {
    /// The assaulting units.
    pub attackers: Vec<UnitId>,
    /// The hex they assault from.
    pub from: Hex,
    /// The hex assaulted.
    pub hex: Hex,
    /// Every unit in it (B96).
    pub defenders: Vec<UnitId>,
    /// The attacker's dice, unit by unit: (dice, lowest face that hits).
    pub attack_dice: Vec<(u8, u8)>,
    /// The defender's dice likewise.
    pub defend_dice: Vec<(u8, u8)>,
    /// The attacker's successes, once rolled.
    pub attack_hits: Option<u8>,
    /// The defender is asked whether to retreat before it (`EVADE ...
    /// ASK`, B7): no dice until he answers.
    #[serde(default)]
    pub asking: bool,
    /// Each unit's successes, side by side, once its dice are rolled: a
    /// card's re-roll replaces one unit's (B130, B140).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_rolled: Vec<u8>,
    /// The defender's likewise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defend_rolled: Vec<u8>,
    /// A re-roll a card ordered, waiting for its dice (B140).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reroll: Option<Reroll>,
    /// Hits a re-roll costs, each on one unit, applied once the winner is
    /// decided (11.3 on 41-42, B140).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cost_hits: Vec<(UnitId, u8)>,
}

/// The dice of an assault a card rolls again (B130, B140).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reroll {
    /// The attacker's dice (else the defender's).
    pub attacker: bool,
    /// Which units' dice, by their place in the side's dice.
    pub segments: Vec<usize>,
}

/// Whether the combat state of a position read back fits its battle:
/// units, brigades and hexes in range, dice within their bounds.
pub fn fits(now: &super::state::Dynamic, map: &super::map::BattleMap) -> bool {
    let unit = |u: &UnitId| u.index() < now.units.len();
    let units = |v: &[UnitId]| {
        !v.is_empty() && v.len() <= 2 * super::order::MAX_UNITS && v.iter().all(unit)
    };
    let fire_ok = now.fire.as_ref().is_none_or(|f| {
        units(&f.firers)
            && units(&f.targets)
            && map.contains(f.target)
            && f.saves.len() <= 32
            && f.path.len() <= 4
            && f.path.iter().all(|&h| map.contains(h))
            && f.segments.len() <= 2 * super::order::MAX_UNITS
            && f.segments.iter().map(|x| usize::from(x.0)).sum::<usize>() <= super::order::MAX_DICE
            && usize::from(f.dice) <= super::order::MAX_DICE
    });
    let dice_ok = |d: &[(u8, u8)]| {
        d.len() <= 2 * super::order::MAX_UNITS
            && d.iter().map(|x| usize::from(x.0)).sum::<usize>() <= super::order::MAX_DICE
    };
    let assault_ok = now.assault.as_ref().is_none_or(|a| {
        units(&a.attackers)
            && units(&a.defenders)
            && map.contains(a.hex)
            && map.contains(a.from)
            && dice_ok(&a.attack_dice)
            && dice_ok(&a.defend_dice)
            && a.attack_rolled.len() <= a.attack_dice.len()
            && a.defend_rolled.len() <= a.defend_dice.len()
            && a.reroll.as_ref().is_none_or(|r| {
                let side = if r.attacker {
                    &a.attack_dice
                } else {
                    &a.defend_dice
                };
                r.segments.len() <= side.len() && r.segments.iter().all(|&i| i < side.len())
            })
            && a.cost_hits.len() <= 2 * super::order::MAX_UNITS
            && a.cost_hits.iter().all(|(u, n)| unit(u) && *n <= 2)
    });
    let instructions_ok = now.instructions.given.len() <= MAX_INSTRUCTIONS
        && now.instructions.given.iter().all(|(s, _)| match s {
            Scope::Brigade(b) => b.index() < now.brigades.len(),
            Scope::All(_) => true,
        });
    let point_blank_ok = now.point_blank.as_ref().is_none_or(|p| {
        units(&p.movers) && p.fired.len() <= 12 && p.fired.iter().all(unit) && map.contains(p.from)
    });
    let reaction_ok = now.reaction.as_ref().is_none_or(|r| {
        r.paths.len() <= 512
            && r.paths
                .iter()
                .all(|p| p.len() <= 4 && p.iter().all(|&h| map.contains(h)))
            && r.choices.len() <= 64
            && r.choices
                .iter()
                .all(|f| units(&f.firers) && units(&f.targets) && map.contains(f.target))
            && r.question.as_ref().is_none_or(|q| match q {
                Question::Loss { units: v } => units(v),
                Question::Reserve {
                    unit: u, brigade, ..
                } => unit(u) && brigade.index() < now.brigades.len(),
                Question::Path { units: v, paths } => {
                    units(v)
                        && paths.len() <= 512
                        && paths
                            .iter()
                            .all(|p| p.len() <= 4 && p.iter().all(|&h| map.contains(h)))
                }
                Question::Commander {
                    brigade,
                    from,
                    hexes,
                } => {
                    brigade.index() < now.brigades.len()
                        && map.contains(*from)
                        && hexes.len() <= 512
                        && hexes.iter().all(|&h| map.contains(h))
                }
                Question::Remnant { brigade, hexes } => {
                    brigade.index() < now.brigades.len()
                        && hexes.len() <= 64
                        && hexes.iter().all(|&h| map.contains(h))
                }
                Question::Card {
                    window,
                    cards,
                    about,
                } => window.len() <= 32 && cards.len() <= 64 && about.len() <= 400,
            })
    });
    let answers_ok = now.answers.len() <= MAX_ANSWERS
        && now.answers.iter().all(|a| match a {
            Answer::Lose(u) => unit(u),
            Answer::Path(p) => p.len() <= 4 && p.iter().all(|&h| map.contains(h)),
            Answer::Place(h) => map.contains(*h),
            Answer::Default | Answer::Spend(_) | Answer::Play(_) => true,
        });
    fire_ok && assault_ok && instructions_ok && point_blank_ok && reaction_ok && answers_ok
}

/// A reaction the engine asks for because an instruction says `ASK`
/// (B7): the opportunity attacks the reactor may make, or decline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reaction {
    /// Who answers.
    pub side: Side,
    /// The attacks offered (B69), each declared in full.
    pub choices: Vec<FireAttack>,
    /// Or, for a retreat asked of the target of a fire, the legal paths
    /// offered (6.7, B85, B86): the answer is one of them or `PASS`.
    #[serde(default)]
    pub paths: Vec<Vec<Hex>>,
    /// Or a question of a combat result under way (B145).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<super::question::Question>,
}

/// What combat did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombatEvent {
    /// A standing instruction was given (B5).
    Instruction {
        /// For whom, in words: a brigade's id or a side's code.
        scope: String,
        /// The setting as written.
        setting: String,
    },
    /// A fire attack was declared (6.0).
    Fire {
        /// The firers.
        firers: Vec<String>,
        /// The target hex.
        target: Hex,
        /// Standing, moving or opportunity fire.
        kind: FireType,
        /// Dice rolled.
        dice: u8,
        /// The face that hits.
        to_hit: u8,
        /// The cap on hits.
        cap: u8,
        /// The firepower pass-through fire added (6.4, 6.41): 0, 1 or 2.
        #[serde(default)]
        pass_through: u8,
        /// The range in hexes: the farther firer's, an off-board
        /// battery's counted from its fire point (6.2, 9.41).
        #[serde(default)]
        range: u8,
    },
    /// The attack dice.
    Rolled {
        /// The dice.
        dice: Vec<u8>,
        /// Successes.
        successes: u8,
    },
    /// The target's save rolls and why it has them (B77).
    Saves {
        /// Every factor with its rolls.
        lines: Vec<SaveLine>,
        /// The dice.
        dice: Vec<u8>,
        /// Saves made.
        saved: u8,
    },
    /// The hits that stand (B68), and the extra hits of a retreat (B89).
    Hits {
        /// Hits from the fire.
        hits: u8,
        /// Extra hits from hexes entered next to the enemy.
        extra: u8,
    },
    /// A unit retreated along these hexes (6.7).
    Retreated {
        /// The units.
        units: Vec<String>,
        /// The hexes entered.
        path: Vec<Hex>,
    },
    /// A reserve was spent to cancel a killing hit (8.11, 8.12).
    ReserveSpent {
        /// The brigade whose reserve.
        brigade: String,
        /// The unit saved.
        unit: String,
    },
    /// An off-board battery's local support took a killing hit: the
    /// counter is flipped; another such hit eliminates it (9.44).
    LocalSupport {
        /// The battery.
        unit: String,
    },
    /// A unit was eliminated (6.54).
    Eliminated {
        /// The unit.
        unit: String,
    },
    /// A brigade became exhausted (8.111).
    Exhausted {
        /// The brigade.
        brigade: String,
    },
    /// An assault was declared (7.1).
    Assault {
        /// The attackers.
        attackers: Vec<String>,
        /// The hex assaulted.
        hex: Hex,
        /// The attacker's dice.
        attack_dice: u8,
        /// The defender's dice.
        defend_dice: u8,
    },
    /// One side's assault dice (7.1, B97).
    AssaultRolled {
        /// Whose dice.
        side: Side,
        /// The dice.
        dice: Vec<u8>,
        /// Successes.
        successes: u8,
    },
    /// The assault's winner (7.12), and the hits each side takes, capped
    /// at 4 (6.5).
    AssaultWon {
        /// The winner.
        winner: Side,
        /// Hits on the attacker.
        attacker_hits: u8,
        /// Hits on the defender.
        defender_hits: u8,
    },
    /// The defenders retreated before the assault (7.3).
    Evaded {
        /// The units.
        units: Vec<String>,
    },
    /// A skirmish zone shielded the hex fired at: the fire falls on the
    /// skirmisher instead (6.361, B29).
    Shielded {
        /// The hex the firer named.
        aimed: Hex,
        /// The skirmisher's hex, fired on instead.
        skirmisher: Hex,
    },
    /// The mover's remaining steps were set aside after a reaction (B9).
    SetAside {
        /// The steps not taken.
        path: Vec<Hex>,
    },
    /// The mover's remaining steps wait for the enemy's answer to an
    /// opportunity fire asked of him (B151).
    Waits {
        /// The steps still to take.
        path: Vec<Hex>,
    },
    /// The enemy declined to fire: the move goes on (B151).
    GoesOn {
        /// The steps taken now.
        path: Vec<Hex>,
    },
}

fn list(units: &[String]) -> String {
    units.join(" and ")
}

impl fmt::Display for FireType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FireType::Standing => "standing fire",
            FireType::Moving => "moving fire",
            FireType::Opportunity => "opportunity fire",
            FireType::PointBlank => "point blank fire",
        })
    }
}

impl fmt::Display for CombatEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CombatEvent::Instruction { scope, setting } => {
                write!(f, "standing instruction for {scope}: {setting}")
            }
            CombatEvent::Fire {
                firers,
                target,
                kind,
                dice,
                to_hit,
                cap,
                pass_through,
                range: _,
            } => {
                write!(
                    f,
                    "{} {kind} at {target}: {} hitting on {to_hit}+, at most {}",
                    list(firers),
                    count(*dice, "die", "dice"),
                    count(*cap, "hit", "hits")
                )?;
                if *pass_through > 0 {
                    write!(f, " (pass-through fire, +{pass_through}, 6.4)")?;
                }
                Ok(())
            }
            CombatEvent::Rolled { dice, successes } => {
                let s = if *successes == 1 { "" } else { "es" };
                write!(f, "rolled {dice:?}: {successes} success{s}")
            }
            CombatEvent::Saves { lines, dice, saved } => {
                let why: Vec<String> = lines
                    .iter()
                    .map(|l| format!("{} {} ({})", l.rolls, l.why, l.rule))
                    .collect();
                write!(
                    f,
                    "saves [{}]: rolled {dice:?}, {saved} saved",
                    why.join(", ")
                )
            }
            CombatEvent::Hits { hits, extra } => {
                f.write_str(&count(*hits, "hit", "hits"))?;
                if *extra > 0 {
                    write!(f, " and {extra} for retreating next to the enemy (6.73)")?;
                }
                Ok(())
            }
            CombatEvent::Retreated { units, path } => {
                let hexes: Vec<String> = path.iter().map(Hex::to_string).collect();
                let verb = if units.len() == 1 { "retreats" } else { "retreat" };
                write!(f, "{} {verb} {}", list(units), hexes.join("-"))
            }
            CombatEvent::ReserveSpent { brigade, unit } => {
                write!(f, "{brigade} spends a reserve to save {unit} (8.11)")
            }
            CombatEvent::LocalSupport { unit } => write!(
                f,
                "{unit} spends its local support and is flipped; another killing hit eliminates it (9.44)"
            ),
            CombatEvent::Eliminated { unit } => write!(f, "{unit} eliminated"),
            CombatEvent::Exhausted { brigade } => write!(f, "{brigade} is exhausted (8.111)"),
            CombatEvent::Assault {
                attackers,
                hex,
                attack_dice,
                defend_dice,
            } => write!(
                f,
                "{} assault {hex}: {} against {defend_dice}",
                list(attackers),
                count(*attack_dice, "die", "dice")
            ),
            CombatEvent::AssaultRolled {
                side,
                dice,
                successes,
            } => write!(
                f,
                "{} rolled {dice:?}: {successes} hit{}",
                side.code(),
                if *successes == 1 { "" } else { "s" }
            ),
            CombatEvent::AssaultWon {
                winner,
                attacker_hits,
                defender_hits,
            } => write!(
                f,
                "{} wins the assault; {} on the attacker, {defender_hits} on the defender",
                winner.code(),
                count(*attacker_hits, "hit", "hits")
            ),
            CombatEvent::Evaded { units } => {
                write!(f, "{} retreat before the assault (7.3)", list(units))
            }
            CombatEvent::Shielded { aimed, skirmisher } => write!(
                f,
                "the skirmish zone shields {aimed}: the fire falls on the skirmisher in \
                 {skirmisher} (6.361)"
            ),
            CombatEvent::SetAside { path } => {
                let hexes: Vec<String> = path.iter().map(Hex::to_string).collect();
                write!(
                    f,
                    "the rest of the move ({}) is set aside (B9)",
                    hexes.join(" ")
                )
            }
            CombatEvent::Waits { path } => {
                let hexes: Vec<String> = path.iter().map(Hex::to_string).collect();
                write!(
                    f,
                    "the rest of the move ({}) waits: it goes on if the enemy holds his \
                     fire, and is set aside if he fires (B151)",
                    hexes.join(" ")
                )
            }
            CombatEvent::GoesOn { path } => {
                let hexes: Vec<String> = path.iter().map(Hex::to_string).collect();
                write!(
                    f,
                    "no opportunity fire: the move goes on to {} (B151)",
                    hexes.join(" ")
                )
            }
        }
    }
}
