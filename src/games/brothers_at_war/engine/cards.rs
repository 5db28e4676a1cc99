//! Battle cards played by their holder (11.0, 11.3, B120-B130): a `PLAY`
//! line in a window the holder's own decision opens (B124: `any`,
//! `own-activation`, `move-commander`, `firing`), each effect kind as the
//! rulings' table "Card effect kinds" describes it, and the card that acts
//! the moment it is drawn (B129). The engine knows kinds, never a card's
//! text (B122).
//!
//! Cards answering the enemy's moments (`targeted`, `after-hits`,
//! `retreat` ...) are played by `PLAY` instructions (B5, B14); those
//! windows are not wired yet and such a card is refused as not playable
//! yet, naming its window.

use super::refusal::Refusal;
use crate::games::brothers_at_war::core::combat::{CardsRule, FireAttack, SaveLine, Setting};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::formation::Formation;
use crate::games::brothers_at_war::core::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::core::order::{Action, Order};
use crate::games::brothers_at_war::core::question::{Answer, Question};
use crate::games::brothers_at_war::core::state::{
    BrothersAtWar, CardEffect, Check, CheckKind, Place, Step,
};
use crate::games::brothers_at_war::core::Hex;
use crate::games::brothers_at_war::scenario::model::{Card, Param, Side, UnitKind};

/// The most dice an effect may add to one roll: the bound of B1.
const MAX_DICE: u8 = crate::games::brothers_at_war::core::order::MAX_DICE as u8;

/// An effect kind (B125), as a deck entry names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `remove-finished`: a friendly hex loses its Finished markers.
    RemoveFinished,
    /// `rally-check`: a Disrupted friendly hex rallies at once (3.211).
    RallyCheck,
    /// `force-exhaustion-check`: an enemy brigade may exhaust (8.111).
    ForceExhaustion,
    /// `extra-reserve`: a friendly brigade recovers reserves (8.13).
    ExtraReserve,
    /// `commander-off-map`: an enemy commander leaves until next turn.
    CommanderOffMap,
    /// `regroup-check`: an exhausted friendly brigade may regroup (2.33 c).
    RegroupCheck,
    /// `extra-movement`: one active unit moves farther this activation.
    ExtraMovement,
    /// `extra-assault-dice`: one unit rolls more dice in its assault.
    ExtraAssaultDice,
    /// `ready-commander-brigade`: units near the commander lose Finished.
    ReadyCommanderBrigade,
    /// `extra-fire-dice-with-risk`: more fire dice, each low one a hit on
    /// the firer.
    ExtraFireDice,
    /// `free-formation-change`: one unit's change of formation costs no
    /// points, or its overstacking disrupts nobody (5.22, 5.31).
    FreeFormation,
    /// `reshuffle-on-draw`: acts when drawn (B129).
    ReshuffleOnDraw,
    /// `no-effect`: only ever discarded (11.12).
    NoEffect,
    /// `cancel-fire`: an enemy fire at a friendly unit has no effect
    /// (`targeted`, by instruction, B137).
    CancelFire,
    /// `extra-saves-after-hits`: the friendly target of hits gains saves
    /// (`after-hits`, by instruction, B127, B137).
    ExtraSaves,
    /// `cancel-activation`: the enemy activation just drawn is lost
    /// (`enemy-activation`, by instruction, B137).
    CancelActivation,
    /// `no-fire`: the enemy brigade just drawn may not fire in its
    /// activation (`enemy-activation`, by instruction, B137).
    NoFire,
    /// `forced-retreat`: the target of a friendly attack that scored
    /// hits retreats as in 6.7 (`enemy-hit`, by instruction, B126).
    ForcedRetreat,
    /// `cancel-retreat`: a retreat for saves does not happen and its saves
    /// are lost (`retreat`, by instruction, B126).
    CancelRetreat,
    /// `stampede-neighbour`: another enemy hex near a retreating one
    /// retreats too (`retreat`, by instruction, B139).
    Stampede,
    /// `cancel-targeting-retreat`: the targeted unit falls back before
    /// the dice and the attack is not resolved (`targeted`, B141).
    FallBack,
    /// `point-blank-fire-any-unit`: a friendly unit fires point blank at
    /// an enemy stepping next to it, as a skirmisher would (`enemy-enters`,
    /// B143).
    PointBlankAny,
    /// `fire-then-assault`: the firer assaults the hex it fired at
    /// (`firing`, by the mover's line, B128).
    FireThenAssault,
    /// `reroll-assault-dice`: one unit's assault dice are rolled again
    /// (`assault-dice`, B140).
    RerollAssault,
    /// `reroll-any-die`: a roll is rolled again (`after-roll`, B130,
    /// B140).
    RerollAny,
    /// `skirmisher-does-not-disband`: a skirmisher stays next to the
    /// enemy, fires with a higher cap, or is deployed without finishing
    /// its deployer (`skirmisher`, B144).
    SkirmisherStays,
    /// A kind of the enemy's moments not carried out yet (B124).
    Reaction,
}

impl Kind {
    /// The kind a deck entry's `effect` names.
    pub fn of(effect: &str) -> Kind {
        match effect {
            "remove-finished" => Kind::RemoveFinished,
            "rally-check" => Kind::RallyCheck,
            "force-exhaustion-check" => Kind::ForceExhaustion,
            "extra-reserve" => Kind::ExtraReserve,
            "commander-off-map" => Kind::CommanderOffMap,
            "regroup-check" => Kind::RegroupCheck,
            "extra-movement" => Kind::ExtraMovement,
            "extra-assault-dice" => Kind::ExtraAssaultDice,
            "ready-commander-brigade" | "rally-commander-brigade" => Kind::ReadyCommanderBrigade,
            "extra-fire-dice-with-risk" => Kind::ExtraFireDice,
            "reshuffle-on-draw" => Kind::ReshuffleOnDraw,
            "free-formation-change" => Kind::FreeFormation,
            "no-effect" => Kind::NoEffect,
            "cancel-fire" => Kind::CancelFire,
            "extra-saves-after-hits" => Kind::ExtraSaves,
            "cancel-activation" => Kind::CancelActivation,
            "no-fire" => Kind::NoFire,
            "forced-retreat" => Kind::ForcedRetreat,
            "cancel-retreat" => Kind::CancelRetreat,
            "stampede-neighbour" => Kind::Stampede,
            "cancel-targeting-retreat" => Kind::FallBack,
            "point-blank-fire-any-unit" => Kind::PointBlankAny,
            "fire-then-assault" => Kind::FireThenAssault,
            "reroll-assault-dice" => Kind::RerollAssault,
            "reroll-any-die" => Kind::RerollAny,
            "skirmisher-does-not-disband" => Kind::SkirmisherStays,
            _ => Kind::Reaction,
        }
    }

    /// What the kind is played on, for the choices and refusals.
    pub fn target_words(self) -> &'static str {
        match self {
            Kind::RemoveFinished => "on a hex of yours with a Finished unit",
            Kind::RallyCheck => "on a Disrupted unit of yours",
            Kind::ForceExhaustion => "on an enemy brigade neither exhausted nor broken",
            Kind::ExtraReserve => "on a brigade of yours with a reserve to recover (8.13)",
            Kind::CommanderOffMap => "on an enemy brigade whose commander is on the map",
            Kind::RegroupCheck => "on an exhausted brigade of yours",
            Kind::ExtraMovement | Kind::ExtraAssaultDice | Kind::FreeFormation => {
                "on a unit of your brigade activating that has not finished its activation"
            }
            Kind::ReadyCommanderBrigade => {
                "at the Move Commander step, with Finished units in the commander's reach"
            }
            Kind::ExtraFireDice => "on a unit of your brigade activating, before it fires",
            Kind::FireThenAssault => {
                "on a unit of your brigade activating, before it fires at a hex next to it \
                 that it could then assault"
            }
            Kind::CancelFire
            | Kind::ExtraSaves
            | Kind::CancelActivation
            | Kind::NoFire
            | Kind::ForcedRetreat
            | Kind::CancelRetreat
            | Kind::Stampede
            | Kind::FallBack
            | Kind::PointBlankAny
            | Kind::RerollAssault
            | Kind::RerollAny
            | Kind::SkirmisherStays
            | Kind::ReshuffleOnDraw
            | Kind::NoEffect
            | Kind::Reaction => "by a line of yours",
        }
    }

    /// Played by the `CARDS` instruction as the enemy's moment comes
    /// (B137), never by a line.
    pub fn by_instruction(self) -> bool {
        matches!(
            self,
            Kind::CancelFire
                | Kind::ExtraSaves
                | Kind::CancelActivation
                | Kind::NoFire
                | Kind::ForcedRetreat
                | Kind::CancelRetreat
                | Kind::Stampede
                | Kind::FallBack
                | Kind::PointBlankAny
                | Kind::RerollAssault
                | Kind::RerollAny
                | Kind::SkirmisherStays
        )
    }
}

/// A window's id (B124) in words, for refusals.
pub fn window_words(timing: &str) -> String {
    match timing {
        "any" => "at any time you have an order to give".into(),
        "drawn" => "by itself, the moment it is drawn".into(),
        "own-activation" => "in your own brigade's activation".into(),
        "enemy-activation" => "when an enemy activation marker is drawn".into(),
        "move-commander" => "at your Move Commander step".into(),
        "formation" => "in your activation, before the unit changes formation or moves".into(),
        "targeted" => "when an enemy attack targets a unit of yours".into(),
        "enemy-hit" => "when an attack of yours has scored hits".into(),
        "retreat" => "when a unit is about to retreat".into(),
        "after-hits" => "when an enemy attack scores hits on a unit of yours".into(),
        "firing" => "when a unit of yours is about to fire in its activation".into(),
        "enemy-enters" => "when an enemy unit steps next to a unit of yours".into(),
        "assault-dice" => "when an assault's dice are rolled, before its winner".into(),
        "after-roll" => "when a roll is made, before it is used".into(),
        "skirmisher" => "when a skirmisher of yours would disband, fire or deploy".into(),
        "exhausts" => "when a brigade of yours becomes exhausted".into(),
        other => format!("in the window `{other}`"),
    }
}

/// A card play checked and ready to carry out.
#[derive(Clone, Debug)]
struct Play {
    side: Side,
    effect: Effect,
}

/// What a checked play does.
#[derive(Clone, Debug)]
enum Effect {
    Ready(Vec<UnitId>),
    Check(Check),
    Reserves(BrigadeId, u8),
    CommanderOff(BrigadeId, u8),
    Lasting(CardEffect),
}

/// A parameter as a small number, or its default.
pub(super) fn number(card: &Card, name: &str, default: u8) -> u8 {
    match card.params.get(name) {
        Some(Param::Number(n)) => u8::try_from(*n).unwrap_or(default),
        _ => default,
    }
}

impl BrothersAtWar {
    /// The deck entry of a card number.
    pub fn card_entry(&self, number: u8) -> Option<&Card> {
        self.battle
            .scenario
            .cards
            .iter()
            .find(|c| c.numbers.contains(&number))
    }

    /// A card's effect kind (B125).
    pub fn card_kind(&self, number: u8) -> Kind {
        self.card_entry(number)
            .map_or(Kind::NoEffect, |c| Kind::of(&c.effect))
    }

    /// A card played leaves `side`'s hand for the discard pile face up,
    /// shown to both (11.2, B2); `on` is what its line named, if any.
    pub(super) fn card_leaves_hand(
        &mut self,
        side: Side,
        card: u8,
        on: Option<&str>,
        events: &mut Vec<Event>,
    ) {
        let name = self
            .card_entry(card)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        self.now.hands[side.index()].retain(|&c| c != card);
        self.now.discard.push(card);
        events.push(Event::CardPlayed {
            side,
            card,
            name,
            on: on.map(str::to_string),
        });
    }

    /// Plays a card of the side whose decision is pending (11.0): the
    /// card leaves the hand for the discard pile and its effect follows.
    pub fn play_card(
        &mut self,
        card: u8,
        on: Option<&str>,
        events: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let play = self.check_play(card, on)?;
        self.card_leaves_hand(play.side, card, on, events);
        self.carry_out(card, play, events);
        Ok(())
    }

    /// Whether `PLAY card ON on` would be taken now, and what it does.
    fn check_play(&self, card: u8, on: Option<&str>) -> Result<Play, Refusal> {
        let side = self.decider().ok_or(Refusal::NotNow {
            expected: "nothing from a player".into(),
        })?;
        if !self.now.hands[side.index()].contains(&card) {
            return Err(Refusal::NotInHand(card));
        }
        let entry = self.card_entry(card).ok_or(Refusal::NotInHand(card))?;
        let kind = Kind::of(&entry.effect);
        let name = entry.name.clone();
        match kind {
            Kind::NoEffect => return Err(Refusal::CardNeverPlayed(card, name)),
            _ if kind.by_instruction() => {
                return Err(Refusal::CardNotNow {
                    card,
                    name,
                    window: format!(
                        "{} by your CARDS instruction (B137: write CARDS USA AUTO or \
                         CARDS CSA AUTO, or name a brigade)",
                        window_words(&entry.timing)
                    ),
                })
            }
            Kind::ReshuffleOnDraw | Kind::Reaction => {
                return Err(Refusal::CardNotNow {
                    card,
                    name,
                    window: format!(
                        "{} (its kind, {}, is not carried out by orderly yet)",
                        window_words(&entry.timing),
                        entry.effect
                    ),
                })
            }
            _ => {}
        }
        if !self.window_open(&entry.timing, side) {
            return Err(Refusal::CardNotNow {
                card,
                name,
                window: window_words(&entry.timing),
            });
        }
        let target = |why: String| Refusal::CardTarget {
            card,
            name: name.clone(),
            why,
        };
        let needs = || target(kind.target_words().to_string());
        let effect = match kind {
            Kind::RemoveFinished => {
                let (_, units) = self.card_hex(on, side).ok_or_else(needs)?;
                let finished: Vec<UnitId> = units
                    .into_iter()
                    .filter(|&u| self.unit(u).finished)
                    .collect();
                if finished.is_empty() {
                    return Err(needs());
                }
                Effect::Ready(finished)
            }
            Kind::RallyCheck => {
                let (hex, units) = self.card_hex(on, side).ok_or_else(needs)?;
                let disrupted: Vec<UnitId> = units
                    .into_iter()
                    .filter(|&u| self.unit(u).disrupted)
                    .collect();
                if disrupted.is_empty() {
                    return Err(needs());
                }
                if self.adjacent_to(hex, side.other()) {
                    return Err(target(format!(
                        "on {hex}: a unit next to the enemy may not rally (3.212)"
                    )));
                }
                // 3.211: the check's own modifiers, then the card's.
                let bonus = self
                    .rally_bonus(&disrupted, hex)
                    .saturating_add(number(entry, "bonus", 0));
                Effect::Check(Check {
                    kind: CheckKind::Rally,
                    units: disrupted,
                    brigade: None,
                    bonus,
                })
            }
            Kind::ForceExhaustion => {
                let b = self.card_brigade(on).ok_or_else(needs)?;
                let s = self.brigade(b);
                if self.battle.brigade_side(b) == side
                    || s.exhausted
                    || s.broken
                    || self.battle.scenario.brigades[b.index()].reserves.is_none()
                {
                    return Err(needs());
                }
                Effect::Check(Check {
                    kind: CheckKind::Exhaustion(number(entry, "fails-on", 1)),
                    units: Vec::new(),
                    brigade: Some(b),
                    bonus: 0,
                })
            }
            Kind::ExtraReserve => {
                let b = self.card_brigade(on).ok_or_else(needs)?;
                let s = self.brigade(b);
                if self.battle.brigade_side(b) != side || s.broken || s.reserve <= s.casualties {
                    return Err(needs());
                }
                Effect::Reserves(b, number(entry, "reserves", 1))
            }
            Kind::CommanderOffMap => {
                let b = self.card_brigade(on).ok_or_else(needs)?;
                if self.battle.brigade_side(b) == side || self.brigade(b).commander.is_none() {
                    return Err(needs());
                }
                Effect::CommanderOff(b, number(entry, "turns", 1).max(1))
            }
            Kind::RegroupCheck => {
                let b = self.card_brigade(on).ok_or_else(needs)?;
                let s = self.brigade(b);
                if self.battle.brigade_side(b) != side || !s.exhausted || s.broken {
                    return Err(needs());
                }
                // 2.33: the fate check's own modifier, then the card's.
                Effect::Check(Check {
                    kind: CheckKind::Regroup,
                    units: Vec::new(),
                    brigade: Some(b),
                    bonus: self.fate_bonus(b).saturating_add(number(entry, "bonus", 0)),
                })
            }
            Kind::ExtraMovement
            | Kind::ExtraAssaultDice
            | Kind::ExtraFireDice
            | Kind::FireThenAssault
            | Kind::FreeFormation => {
                let u = self.card_active_unit(on, side).ok_or_else(needs)?;
                let overstack = matches!(
                    entry.params.get("cancel-overstack"),
                    Some(Param::Flag(true))
                );
                if let Some(why) = self.unit_unable_for_card(kind, overstack, u) {
                    return Err(target(format!("on {}: {why}", self.unit_name(u))));
                }
                match kind {
                    Kind::FireThenAssault => {
                        if self.unit(u).finished || self.unit(u).disrupted {
                            return Err(target(format!(
                                "on {}: a Finished or Disrupted unit does not fire (1.51, 6.531)",
                                self.unit_name(u)
                            )));
                        }
                        if self.charge_waiting(&[u]).is_some() {
                            return Err(needs());
                        }
                        // B123, B142: taken only where a FIRE it could
                        // then follow with the assault would be taken now.
                        let effect = CardEffect::FireThenAssault(u, card);
                        let hexes: Vec<Hex> = self.hex_of(u).map_or(Vec::new(), |from| {
                            self.battle
                                .map
                                .neighbours(from)
                                .filter(|&h| !self.enemies_at(h, side).is_empty())
                                .collect()
                        });
                        if hexes.is_empty() {
                            return Err(target(format!(
                                "on {} now: no enemy stands next to it to fire at and then \
                                 assault (B128); move it next to the enemy first, then play \
                                 the card on the line before its FIRE",
                                self.unit_name(u)
                            )));
                        }
                        if let Err(why) = self.card_fire_would_go(u, &effect, &hexes) {
                            return Err(target(format!(
                                "on {} now: it could not fire at an enemy hex next to it and \
                                 then assault it (B128): {why}",
                                self.unit_name(u)
                            )));
                        }
                        Effect::Lasting(effect)
                    }
                    Kind::FreeFormation => Effect::Lasting(if overstack {
                        CardEffect::NoOverstack(u)
                    } else {
                        CardEffect::FreeForm(u)
                    }),
                    Kind::ExtraMovement => {
                        Effect::Lasting(CardEffect::Movement(u, number(entry, "points", 1)))
                    }
                    Kind::ExtraAssaultDice => {
                        Effect::Lasting(CardEffect::Assault(u, number(entry, "dice", 1)))
                    }
                    _ => {
                        let artillery_only = matches!(
                            entry.params.get("unit"),
                            Some(Param::Word(w)) if w == "artillery"
                        );
                        if artillery_only && self.kind_of(u) != UnitKind::Artillery {
                            return Err(target(
                                "on a unit that is not artillery: it is played on artillery".into(),
                            ));
                        }
                        if self.unit(u).finished || self.unit(u).disrupted {
                            return Err(target(format!(
                                "on {}: a Finished or Disrupted unit does not fire (1.51, 6.531)",
                                self.unit_name(u)
                            )));
                        }
                        if self.hex_of(u).is_none() || self.fire_targets(&[u]).is_empty() {
                            return Err(target(format!(
                                "on {}: it has no enemy to fire at from where it stands (6.2)",
                                self.unit_name(u)
                            )));
                        }
                        if self.now.card_effects.contains(&CardEffect::Fire(u, card)) {
                            return Err(needs());
                        }
                        // B123: taken only where a FIRE with its dice
                        // (within its range) would be taken now.
                        let effect = CardEffect::Fire(u, card);
                        let hexes = self.fire_targets(&[u]);
                        if let Err(why) = self.card_fire_would_go(u, &effect, &hexes) {
                            return Err(target(format!(
                                "on {} now: no fire of it with the card would be taken: {why}",
                                self.unit_name(u)
                            )));
                        }
                        Effect::Lasting(effect)
                    }
                }
            }
            Kind::ReadyCommanderBrigade => {
                let (Step::Units(b) | Step::Commander(b)) = self.now.step else {
                    return Err(needs());
                };
                let Some(at) = self.brigade(b).commander else {
                    return Err(target(
                        "on a brigade whose commander is not on the map (11.3 on 19-20)".into(),
                    ));
                };
                let reach = u32::from(number(entry, "reach", 0));
                let ready: Vec<UnitId> = self
                    .units_of_brigade(b)
                    .into_iter()
                    .filter(|&u| {
                        let s = self.unit(u);
                        s.finished
                            && !s.disrupted
                            && self.hex_of(u).is_some_and(|h| h.distance(at) <= reach)
                    })
                    .collect();
                if ready.is_empty() {
                    return Err(target(format!(
                        "now: no Finished, undisrupted unit of the brigade within {reach} hexes of its commander"
                    )));
                }
                Effect::Ready(ready)
            }
            _ => return Err(needs()),
        };
        Ok(Play { side, effect })
    }

    /// Whether the unit, its card `effect` waiting, would have a FIRE at
    /// one of `hexes` taken now (B123's one check for the `firing` cards,
    /// serving both the choices and `PLAY`): each is tried on a copy, as
    /// the unit's own order (with its stack when it is the active group).
    /// Else the first hex's refusal, in words.
    fn card_fire_would_go(
        &self,
        u: UnitId,
        effect: &CardEffect,
        hexes: &[Hex],
    ) -> Result<(), String> {
        let units: Vec<String> = match self.group() {
            Some(g) if g.units.contains(&u) => g.units.iter().map(|&x| self.unit_name(x)).collect(),
            _ => vec![self.unit_name(u)],
        };
        let mut first = None;
        for &h in hexes {
            let mut copy = self.clone();
            copy.now.card_effects.push(effect.clone());
            let fire = Order::Act {
                units: units.clone(),
                action: Action::Fire(h),
            };
            match copy.dispatch(&fire, &mut Vec::new()) {
                Ok(()) => return Ok(()),
                Err(r) => {
                    let why = match r {
                        Refusal::CardTarget { why, .. } => {
                            why.trim_start_matches("with this fire: ").to_string()
                        }
                        other => other.to_string(),
                    };
                    first.get_or_insert(format!("at {h}, {why}"));
                }
            }
        }
        Err(first.unwrap_or_else(|| "it has no enemy to fire at from where it stands (6.2)".into()))
    }

    /// Whether a window (B124) is open for `side`, whose decision is
    /// pending.
    fn window_open(&self, timing: &str, side: Side) -> bool {
        let own_brigade = |b: BrigadeId| self.battle.brigade_side(b) == side;
        match timing {
            "any" => true,
            "own-activation" | "firing" | "formation" => {
                self.now.reaction.is_none()
                    && matches!(self.now.step, Step::Units(b) if own_brigade(b))
            }
            "move-commander" => {
                self.now.reaction.is_none()
                    && matches!(self.now.step, Step::Commander(b) if own_brigade(b))
            }
            _ => false,
        }
    }

    /// Why the unit may not do what a card of `kind` improves (B123), so
    /// that the card is neither offered nor taken on it: an assault for
    /// extra assault dice or fire-then-assault (7.1: not artillery nor
    /// skirmishers; 6.531: not Disrupted), a move for extra movement or a
    /// crowding spared (5.42, 5.222: deployed artillery moves only once
    /// limbered, as its first action), a change of formation for a free
    /// one (5.22, 9.11: a unit with another side; 6.531), a fire for extra
    /// fire dice (5.42, B56: not limbered artillery; a no-fire card).
    fn unit_unable_for_card(&self, kind: Kind, overstack: bool, u: UnitId) -> Option<String> {
        let unit = self.kind_of(u);
        let disrupted = self.unit(u).disrupted;
        let formation = self.formation(u);
        // 5.222, B55: deployed artillery limbers only as its first action.
        let spent = self
            .now
            .activation
            .as_ref()
            .and_then(|a| a.group.as_ref())
            .is_some_and(|g| g.units.contains(&u) && (g.spent > 0 || g.moved));
        let may_limber = !disrupted && !spent;
        let cannot_move = match formation {
            Formation::Deployed if !may_limber => Some(
                "deployed artillery moves only limbered, and limbers only as its first action \
                 and not Disrupted (5.42, 5.222, 6.531)",
            ),
            Formation::Remnant => Some("a remnant never moves (B116)"),
            _ => None,
        };
        let why = match kind {
            Kind::ExtraAssaultDice | Kind::FireThenAssault => match unit {
                UnitKind::Artillery | UnitKind::Skirmisher | UnitKind::Remnant => {
                    Some("artillery, skirmishers and remnants may not assault (7.1, B116)")
                }
                _ if disrupted => Some("a Disrupted unit may not assault (6.531)"),
                _ => None,
            },
            Kind::ExtraMovement => cannot_move,
            Kind::FreeFormation if overstack => cannot_move,
            Kind::FreeFormation => {
                let two_sided = match unit {
                    UnitKind::Remnant => false,
                    UnitKind::Skirmisher => self.cavalry_symbol(u),
                    _ => true,
                };
                if !two_sided {
                    Some("it has no other formation to change to (5.22, 9.11)")
                } else if disrupted {
                    Some("a Disrupted unit may not change formation (6.531)")
                } else if formation == Formation::Deployed && spent {
                    Some("deployed artillery limbers only as its first action (5.222)")
                } else {
                    None
                }
            }
            Kind::ExtraFireDice => {
                if formation == Formation::Limbered {
                    Some("limbered artillery does not fire (5.42, B56)")
                } else if self.brigade_of(u).is_some_and(|b| self.fire_forbidden(b)) {
                    Some("its brigade may not fire in this activation (a no-fire card)")
                } else {
                    None
                }
            }
            _ => None,
        };
        why.map(str::to_string)
    }

    /// The friendly units of the hex a card names by a hex or a unit.
    fn card_hex(&self, on: Option<&str>, side: Side) -> Option<(Hex, Vec<UnitId>)> {
        let on = on?;
        let hex = match on.parse::<Hex>() {
            Ok(h) => h,
            Err(_) => self.hex_of(self.unit_named(on)?)?,
        };
        let units: Vec<UnitId> = self
            .units_at(hex)
            .into_iter()
            .filter(|&u| self.side_of(u) == side)
            .collect();
        (!units.is_empty()).then_some((hex, units))
    }

    /// The brigade a card names.
    fn card_brigade(&self, on: Option<&str>) -> Option<BrigadeId> {
        let b = self.battle.brigade_named(on?)?;
        self.in_play(b).then_some(b)
    }

    /// A unit of the side's brigade activating that may still act: not yet
    /// activated, or the one spending movement points now.
    fn card_active_unit(&self, on: Option<&str>, side: Side) -> Option<UnitId> {
        let u = self.unit_named(on?)?;
        let a = self.now.activation.as_ref()?;
        if self.battle.brigade_side(a.brigade) != side || self.brigade_of(u) != Some(a.brigade) {
            return None;
        }
        let current = a.group.as_ref().is_some_and(|g| g.units.contains(&u));
        let may_act = current || (!a.acted.contains(&u) && !self.unit(u).finished);
        let due = |u: UnitId| {
            self.battle.scenario.units[u.index()]
                .enters
                .as_ref()
                .is_some_and(|e| e.turn <= self.now.turn)
        };
        let present = match self.unit(u).place {
            Place::Map(_) => true,
            Place::Waiting => due(u),
            _ => false,
        };
        (may_act && present).then_some(u)
    }

    fn carry_out(&mut self, card: u8, play: Play, events: &mut Vec<Event>) {
        match play.effect {
            Effect::Ready(units) => {
                for &u in &units {
                    self.now.units[u.index()].finished = false;
                }
                let names: Vec<String> = units.iter().map(|&u| self.unit_name(u)).collect();
                events.push(Event::CardEffect {
                    card,
                    what: format!("{} no longer Finished", names.join(" and ")),
                });
                self.reopen_group(card, &units, events);
            }
            Effect::Check(check) => self.now.checks.insert(0, check),
            Effect::Reserves(b, n) => {
                for _ in 0..n {
                    self.recover_reserve(b, events);
                }
                // B103: exhaustion ends as the marker leaves EXHAUSTED;
                // its activation marker stays in the box until clean up.
                let length = self.battle.scenario.brigades[b.index()]
                    .reserves
                    .map_or(u8::MAX, |t| t.length);
                if self.brigade(b).reserve < length {
                    self.now.brigades[b.index()].exhausted = false;
                }
            }
            Effect::CommanderOff(b, turns) => {
                self.now.brigades[b.index()].commander = None;
                let back = self.now.turn.saturating_add(turns);
                self.now
                    .card_effects
                    .push(CardEffect::CommanderAway(b, back));
                events.push(Event::CardEffect {
                    card,
                    what: format!(
                        "the {} commander leaves the map until turn {back}",
                        self.brigade_name(b)
                    ),
                });
            }
            Effect::Lasting(effect) => {
                let what = match &effect {
                    CardEffect::Movement(u, n) => {
                        format!(
                            "{} has {n} more movement point{} this activation",
                            self.unit_name(*u),
                            if *n == 1 { "" } else { "s" }
                        )
                    }
                    CardEffect::Assault(u, n) => {
                        format!(
                            "{} rolls {n} more {} in its assault",
                            self.unit_name(*u),
                            if *n == 1 { "die" } else { "dice" }
                        )
                    }
                    CardEffect::Fire(u, _) => {
                        format!("{}'s next fire rolls extra dice", self.unit_name(*u))
                    }
                    CardEffect::FreeForm(u) => {
                        format!(
                            "{}'s next change of formation costs no points",
                            self.unit_name(*u)
                        )
                    }
                    CardEffect::NoOverstack(u) => format!(
                        "{} overstacks this activation without disrupting anyone",
                        self.unit_name(*u)
                    ),
                    CardEffect::FireThenAssault(u, _) => {
                        // B142: the player writes both: the fire, then the
                        // assault of the same hex.
                        let name = self.unit_name(*u);
                        let side = self.side_of(*u);
                        let hexes: Vec<Hex> = self.hex_of(*u).map_or(Vec::new(), |from| {
                            self.battle
                                .map
                                .neighbours(from)
                                .filter(|&h| !self.enemies_at(h, side).is_empty())
                                .collect()
                        });
                        let hex = match hexes[..] {
                            [h] => h.to_string(),
                            _ => "<hex>".to_string(),
                        };
                        format!(
                            "{name}'s next fire must be at an enemy hex next to it, and after \
                             it {name} is not Finished but must assault that hex at once: \
                             write {name} FIRE {hex}, then {name} MOVE {hex} (B128, B142)"
                        )
                    }
                    CardEffect::CommanderAway(..)
                    | CardEffect::MustAssault(..)
                    | CardEffect::Resume(_)
                    | CardEffect::NoFire(_) => String::new(),
                };
                self.now.card_effects.push(effect);
                events.push(Event::CardEffect { card, what });
            }
        }
    }

    /// 11.3 on 15-16, B136: the unit or stack whose activation ended
    /// last, Finished, in its own brigade's activation, readied by a card:
    /// its next order goes on with the points it had left.
    fn reopen_group(&mut self, card: u8, readied: &[UnitId], events: &mut Vec<Event>) {
        let Some(g) = self.now.last_group.clone() else {
            return;
        };
        let Some(a) = &self.now.activation else {
            return;
        };
        let own = matches!(self.now.step, Step::Units(b) if b == a.brigade);
        if !own || !g.units.iter().all(|u| readied.contains(u)) {
            return;
        }
        if g.units
            .iter()
            .any(|&u| self.hex_of(u).is_none() || self.unit(u).disrupted)
        {
            return;
        }
        let left = self
            .allowance(&g.units, g.road_march)
            .saturating_sub(g.spent);
        let names: Vec<String> = g.units.iter().map(|&u| self.unit_name(u)).collect();
        self.now.last_group = None;
        self.now.card_effects.push(CardEffect::Resume(g));
        events.push(Event::CardEffect {
            card,
            what: format!("{} may go on with {left} MP left", names.join(" and ")),
        });
    }

    /// The group a card lets go on, if `units` are its units (B136).
    pub fn resumable(&self, units: &[UnitId]) -> Option<usize> {
        self.now
            .card_effects
            .iter()
            .position(|e| matches!(e, CardEffect::Resume(g) if g.units == units))
    }

    /// Takes a card's free change of formation for one of `units`, if one
    /// waits (B125).
    pub fn take_free_form(&mut self, units: &[UnitId]) -> bool {
        let at = self
            .now
            .card_effects
            .iter()
            .position(|e| matches!(e, CardEffect::FreeForm(u) if units.contains(u)));
        at.map(|i| self.now.card_effects.remove(i)).is_some()
    }

    /// Whether a card spares the units a mover overstacks (B125, 5.31).
    pub fn overstack_spared(&self, movers: &[UnitId]) -> bool {
        self.now
            .card_effects
            .iter()
            .any(|e| matches!(e, CardEffect::NoOverstack(u) if movers.contains(u)))
    }

    /// Movement points a card adds to a unit this activation.
    pub fn card_movement(&self, unit: UnitId) -> u8 {
        self.card_sum(|e| match e {
            CardEffect::Movement(u, n) if *u == unit => *n,
            _ => 0,
        })
    }

    /// The sum of what the lasting card effects give, each as `of` reads it.
    fn card_sum(&self, of: impl Fn(&CardEffect) -> u8) -> u8 {
        self.now
            .card_effects
            .iter()
            .map(of)
            .fold(0u8, u8::saturating_add)
    }

    /// Assault dice a card adds to a unit this activation.
    pub fn card_assault_dice(&self, unit: UnitId) -> u8 {
        self.card_sum(|e| match e {
            CardEffect::Assault(u, n) if *u == unit => *n,
            _ => 0,
        })
        .min(MAX_DICE)
    }

    /// The card whose extra fire dice wait for one of these firers' next
    /// fire, and that firer.
    pub fn card_fire(&self, firers: &[UnitId]) -> Option<(UnitId, u8)> {
        self.now.card_effects.iter().find_map(|e| match e {
            CardEffect::Fire(u, card) if firers.contains(u) => Some((*u, *card)),
            _ => None,
        })
    }

    /// The extra dice, the face at or under which each is a hit on the
    /// firer, and the longest range, of a `extra-fire-dice-with-risk` card.
    pub fn card_fire_terms(&self, card: u8) -> (u8, u8, Option<u32>) {
        let Some(entry) = self.card_entry(card) else {
            return (0, 0, None);
        };
        let range = match entry.params.get("max-range") {
            Some(Param::Number(n)) => u32::try_from(*n).ok(),
            _ => None,
        };
        (
            number(entry, "dice", 1),
            number(entry, "risk-face", 1),
            range,
        )
    }

    /// Effects that last an activation end with it; a commander's absence
    /// lasts its turns.
    pub fn end_card_effects(&mut self) {
        self.now
            .card_effects
            .retain(|e| matches!(e, CardEffect::CommanderAway(..)));
    }

    /// The turn until which a brigade's commander is off the map by a
    /// card, if he is.
    pub fn commander_away(&self, b: BrigadeId) -> Option<u8> {
        self.now.card_effects.iter().find_map(|e| match e {
            CardEffect::CommanderAway(x, t) if *x == b => Some(*t),
            _ => None,
        })
    }

    /// At the reinforcement step of `turn` (2.35), commanders sent off by a
    /// card come back (B133): to the hex his owner would choose by
    /// default, a hex he may stand on holding a unit of his brigade, the
    /// nearest to the brigade's units in all, the lowest id among equals;
    /// else any hex he may stand on, the lowest id.
    pub fn commanders_return(&mut self, turn: u8, events: &mut Vec<Event>) {
        let due: Vec<BrigadeId> = self
            .now
            .card_effects
            .iter()
            .filter_map(|e| match e {
                CardEffect::CommanderAway(b, t) if *t <= turn => Some(*b),
                _ => None,
            })
            .collect();
        self.now
            .card_effects
            .retain(|e| !matches!(e, CardEffect::CommanderAway(b, _) if due.contains(b)));
        for b in due {
            if self.brigade(b).broken {
                continue;
            }
            let side = self.battle.brigade_side(b);
            let own: Vec<Hex> = self
                .units_of_brigade(b)
                .into_iter()
                .filter_map(|u| self.hex_of(u))
                .collect();
            let spread = |h: Hex| own.iter().map(|&o| o.distance(h)).sum::<u32>();
            let best = self
                .battle
                .map
                .hexes()
                .filter(|&h| self.commander_may_stand(h, side))
                .min_by_key(|&h| (!own.contains(&h), spread(h), h));
            self.now.brigades[b.index()].commander = best;
            events.push(Event::CommanderBack {
                brigade: self.brigade_name(b),
                to: best,
            });
        }
    }

    /// A card just drawn that acts when drawn (B129): named to its drawer
    /// (the other player learns what it did, B2), the
    /// discard pile goes back into the deck, its drawer draws once more
    /// (none when the deck is still empty, B4), and the card is
    /// discarded.
    pub fn card_drawn(&mut self, side: Side, card: u8, events: &mut Vec<Event>) {
        if self.card_kind(card) != Kind::ReshuffleOnDraw {
            return;
        }
        let name = self
            .card_entry(card)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        self.now.hands[side.index()].retain(|&c| c != card);
        events.push(Event::DeckReshuffled { side, card, name });
        let discards = std::mem::take(&mut self.now.discard);
        self.now.deck.extend(discards);
        self.now.deck.sort_unstable();
        self.now.discard.push(card);
        if !self.now.deck.is_empty() {
            self.now.draws.insert(0, side);
        }
    }

    /// The `CARDS` instruction of `side` for `brigade` (or its side): B137
    /// and B148.
    pub fn cards_rule(&self, side: Side, brigade: Option<BrigadeId>) -> CardsRule {
        match self
            .now
            .instructions
            .get(side, brigade, Setting::Cards(CardsRule::Never))
        {
            Setting::Cards(rule) => rule,
            _ => CardsRule::Never,
        }
    }

    /// The cards of `side`'s hand whose window is one of `windows` and
    /// whose kind is one of that window's kinds, lowest first.
    fn cards_in_windows(&self, side: Side, windows: &[(&str, &[Kind])]) -> Vec<(u8, Kind)> {
        let mut hand = self.now.hands[side.index()].clone();
        hand.sort_unstable();
        hand.dedup();
        hand.into_iter()
            .filter_map(|c| {
                let e = self.card_entry(c)?;
                let kind = Kind::of(&e.effect);
                windows
                    .iter()
                    .any(|(w, kinds)| e.timing == *w && kinds.contains(&kind))
                    .then_some((c, kind))
            })
            .collect()
    }

    /// The card `side` plays as one of `windows` opens for `brigade`
    /// (B137, B148), among the cards of those windows' kinds that
    /// `usable` says can act: under `AUTO` the lowest; under `ASK` the one
    /// he answers (asked here, `about` telling him what happened), or
    /// none; under `NEVER` none. The card stays in the hand: the caller
    /// plays it.
    pub fn choose_card(
        &mut self,
        side: Side,
        brigade: Option<BrigadeId>,
        windows: &[(&str, &[Kind])],
        usable: &dyn Fn(&BrothersAtWar, u8, Kind) -> bool,
        about: &dyn Fn(&BrothersAtWar) -> String,
    ) -> Option<(u8, Kind)> {
        let rule = self.cards_rule(side, brigade);
        if rule == CardsRule::Never {
            return None;
        }
        let cards: Vec<(u8, Kind)> = self
            .cards_in_windows(side, windows)
            .into_iter()
            .filter(|&(c, k)| usable(self, c, k))
            .collect();
        let &first = cards.first()?;
        if rule == CardsRule::Auto {
            return Some(first);
        }
        let question = Question::Card {
            window: windows.first().map_or("", |w| w.0).to_string(),
            cards: cards.iter().map(|c| c.0).collect(),
            about: about(self),
        };
        match self.ask_now(side, question) {
            Some(Answer::Play(n)) => cards.into_iter().find(|c| c.0 == n),
            _ => None,
        }
    }

    /// [`BrothersAtWar::choose_card`] for one window, the card played at
    /// once, face up (B2); the caller carries out its effect.
    pub fn react_with_card(
        &mut self,
        side: Side,
        brigade: Option<BrigadeId>,
        window: &str,
        kinds: &[Kind],
        about: &dyn Fn(&BrothersAtWar) -> String,
        events: &mut Vec<Event>,
    ) -> Option<(u8, Kind)> {
        let (card, kind) =
            self.choose_card(side, brigade, &[(window, kinds)], &|_, _, _| true, about)?;
        // What it acts on is told by the effect's own event.
        self.card_leaves_hand(side, card, None, events);
        Some((card, kind))
    }

    /// Whether [`BrothersAtWar::react_with_card`] would play or ask for a
    /// card here, without asking: the lowest card it would consider.
    pub fn card_for(
        &self,
        side: Side,
        brigade: Option<BrigadeId>,
        window: &str,
        kinds: &[Kind],
    ) -> Option<(u8, Kind)> {
        if self.cards_rule(side, brigade) == CardsRule::Never {
            return None;
        }
        self.cards_in_windows(side, &[(window, kinds)])
            .first()
            .copied()
    }

    /// After a fire's target has retreated from `from` (11.3 on 7-8,
    /// B125): the attacker's card makes the nearest other enemy hex within
    /// the card's reach that can retreat retreat too, with no save, its
    /// extra hits applied (B139).
    pub fn card_stampede(
        &mut self,
        firer: UnitId,
        from: Hex,
        retreated: &[UnitId],
        events: &mut Vec<Event>,
    ) {
        let side = self.side_of(firer);
        let kinds = [Kind::Stampede];
        let Some((card, _)) = self.card_for(side, self.brigade_of(firer), "retreat", &kinds) else {
            return;
        };
        let reach = u32::from(self.card_entry(card).map_or(1, |e| number(e, "reach", 1)));
        let mut hexes: Vec<Hex> = self
            .units_of(side.other())
            .filter(|u| !retreated.contains(u))
            .filter_map(|u| self.hex_of(u))
            .filter(|h| h.distance(from) <= reach)
            .collect();
        hexes.sort_by_key(|h| (h.distance(from), *h));
        hexes.dedup();
        let stack = hexes.into_iter().find_map(|h| {
            let units = self.units_at(h);
            let may = units
                .iter()
                .all(|&u| !matches!(self.kind_of(u), UnitKind::Skirmisher | UnitKind::Remnant));
            let plan = self.retreat_plan(&units, false).filter(|_| may)?;
            Some((units, plan))
        });
        let Some((units, plan)) = stack else {
            return;
        };
        let about = |g: &BrothersAtWar| {
            format!(
                "your {}'s target retreated from {from}; {} stand(s) within reach",
                g.unit_name(firer),
                g.unit_names(&units)
            )
        };
        if self
            .react_with_card(
                side,
                self.brigade_of(firer),
                "retreat",
                &kinds,
                &about,
                events,
            )
            .is_none()
        {
            return;
        }
        let names: Vec<String> = units.iter().map(|&u| self.unit_name(u)).collect();
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{} stampede(s) and retreat(s), with no save",
                names.join(" and ")
            ),
        });
        let start = self.hex_of(units[0]).unwrap_or(from);
        let extra = self.retreat(&units, &plan, events);
        self.take_hits(&units, extra, start, events);
    }

    /// The save rolls a card gives the target of hits (B125), if its
    /// owner plays one after the hits (B11, B137).
    pub fn card_saves(&mut self, f: &FireAttack, events: &mut Vec<Event>) -> Option<SaveLine> {
        let targets = &f.targets;
        let &first = targets.first()?;
        let side = self.side_of(first);
        let brigade = self.brigade_of(first);
        let count = crate::games::brothers_at_war::core::event::count::<u8>;
        let saves: u8 = f.saves.iter().map(|s| s.rolls).sum();
        let may_retreat = targets
            .iter()
            .all(|&t| !matches!(self.kind_of(t), UnitKind::Skirmisher | UnitKind::Remnant))
            && self.retreat_plan(targets, false).is_some();
        let more = match self.battle.scenario.saves.retreat {
            n if n > 0 && may_retreat => format!(", {n} more if it retreats"),
            _ => String::new(),
        };
        let about = |g: &BrothersAtWar| {
            format!(
                "{}'s fire at {} scored {} on your {}, before saves ({} to roll{more})",
                g.unit_names(&f.firers),
                f.target,
                count(f.successes, "hit", "hits"),
                g.unit_names(targets),
                count(saves, "save", "saves"),
            )
        };
        let kinds = [Kind::ExtraSaves];
        let (card, _) =
            self.react_with_card(side, brigade, "after-hits", &kinds, &about, events)?;
        let rolls = self.card_entry(card).map_or(1, |e| number(e, "saves", 1));
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{} gains {rolls} save roll{}",
                self.unit_name(first),
                if rolls == 1 { "" } else { "s" }
            ),
        });
        Some(SaveLine {
            why: format!("card {card}"),
            rule: "B125".into(),
            rolls,
        })
    }

    /// After the hits of a fire and the defender's retreat choice (B11,
    /// B126): the attacker's card may force the target to retreat, the
    /// other side's may cancel that retreat; or, when the defender chose to
    /// retreat, the attacker's card may cancel it. A retreat forced by a
    /// card gains its save (6.7); one cancelled loses its saves.
    pub fn card_retreats(&mut self, f: &mut FireAttack, events: &mut Vec<Event>) {
        let (Some(&firer), Some(&target)) = (f.firers.first(), f.targets.first()) else {
            return;
        };
        let attacker = (self.side_of(firer), self.brigade_of(firer));
        let defender = (self.side_of(target), self.brigade_of(target));
        let cancel = [Kind::CancelRetreat];
        if !f.retreating {
            // 11.3 on 39-40: not on a skirmisher or remnant, and only where
            // the target may retreat (6.71).
            let may = f.targets.iter().all(|&t| {
                !matches!(self.kind_of(t), UnitKind::Skirmisher | UnitKind::Remnant)
                    && self.hex_of(t).is_some()
            }) && self.retreat_plan(&f.targets, false).is_some();
            if !may {
                return;
            }
            let forced = [Kind::ForcedRetreat];
            let about = |g: &BrothersAtWar| {
                format!(
                    "your {}'s fire scored hits on {} in {}, which stands",
                    g.unit_names(&f.firers),
                    g.unit_names(&f.targets),
                    f.target
                )
            };
            let Some((card, _)) =
                self.react_with_card(attacker.0, attacker.1, "enemy-hit", &forced, &about, events)
            else {
                return;
            };
            f.retreating = true;
            f.retreat_saves = self.battle.scenario.saves.retreat;
            events.push(Event::CardEffect {
                card,
                what: format!("{} must retreat, with its save", self.unit_name(target)),
            });
            let about = |g: &BrothersAtWar| {
                format!(
                    "a card forces your {} to retreat from {}",
                    g.unit_names(&f.targets),
                    f.target
                )
            };
            if let Some((card, _)) =
                self.react_with_card(defender.0, defender.1, "retreat", &cancel, &about, events)
            {
                f.retreating = false;
                f.retreat_saves = 0;
                events.push(Event::CardEffect {
                    card,
                    what: format!(
                        "{} stands: the forced retreat is cancelled, and with it the save \
                         it would have given (11.3 on 27-28)",
                        self.unit_name(target)
                    ),
                });
            }
        } else if let Some((card, _)) = self.react_with_card(
            attacker.0,
            attacker.1,
            "retreat",
            &cancel,
            &|g: &BrothersAtWar| {
                format!(
                    "{} in {} retreat(s) before your {}'s fire for a save",
                    g.unit_names(&f.targets),
                    f.target,
                    g.unit_names(&f.firers)
                )
            },
            events,
        ) {
            // 11.3 on 27-28: only the save rolls the cancelled retreat
            // would have given are lost; the target's other saves stand.
            let lost = f.retreat_saves;
            f.retreating = false;
            f.retreat_saves = 0;
            events.push(Event::CardEffect {
                card,
                what: format!(
                    "{} may not retreat: it stands, and loses the {} its retreat would \
                     have given (11.3 on 27-28); its other saves are rolled",
                    self.unit_name(target),
                    crate::games::brothers_at_war::core::event::count(lost, "save", "saves"),
                ),
            });
        }
    }

    /// As an enemy activation begins, its opponent's card may cancel it
    /// or forbid its fire (B125, B137). Returns whether it is cancelled.
    pub fn card_on_activation(&mut self, b: BrigadeId, events: &mut Vec<Event>) -> bool {
        let enemy = self.battle.brigade_side(b).other();
        let kinds = [Kind::CancelActivation, Kind::NoFire];
        let about = |g: &BrothersAtWar| {
            format!("the enemy {} activation marker is drawn", g.brigade_name(b))
        };
        let Some((card, kind)) =
            self.react_with_card(enemy, None, "enemy-activation", &kinds, &about, events)
        else {
            return false;
        };
        let name = self.brigade_name(b);
        if kind == Kind::CancelActivation {
            events.push(Event::CardEffect {
                card,
                what: format!("the {name} activation is lost: its marker stays on the track"),
            });
            return true;
        }
        self.now.card_effects.push(CardEffect::NoFire(b));
        events.push(Event::CardEffect {
            card,
            what: format!("the {name} units may not fire in this activation"),
        });
        false
    }

    /// Whether a card forbids this brigade's fire now (B125).
    pub fn fire_forbidden(&self, b: BrigadeId) -> bool {
        self.now.card_effects.contains(&CardEffect::NoFire(b))
    }

    /// As a friendly brigade exhausts, its owner's card may make it check
    /// to regroup at once (11.3 on 47, B125, B137).
    pub fn card_on_exhaustion(&mut self, b: BrigadeId, events: &mut Vec<Event>) {
        let side = self.battle.brigade_side(b);
        let about = |g: &BrothersAtWar| format!("your {} is exhausted", g.brigade_name(b));
        let kinds = [Kind::RegroupCheck];
        let Some((card, _)) =
            self.react_with_card(side, Some(b), "exhausts", &kinds, &about, events)
        else {
            return;
        };
        let bonus = self.card_entry(card).map_or(0, |e| number(e, "bonus", 0));
        events.push(Event::CardEffect {
            card,
            what: format!(
                "{} checks at once whether it regroups",
                self.brigade_name(b)
            ),
        });
        self.now.checks.push(Check {
            kind: CheckKind::Regroup,
            units: Vec::new(),
            brigade: Some(b),
            bonus: self.fate_bonus(b).saturating_add(bonus),
        });
    }

    /// Every card play worth listing for the decider: each card of his
    /// hand on each target its kind could take.
    pub fn card_candidates(&self) -> Vec<(u8, Option<String>)> {
        let Some(side) = self.decider() else {
            return Vec::new();
        };
        // B148: a card question takes only the cards it offers, and an
        // order held for an answer takes only the answer.
        if self.card_question_pending() || self.now.held.is_some() {
            return Vec::new();
        }
        let mut hand = self.now.hands[side.index()].clone();
        hand.sort_unstable();
        hand.dedup();
        let mut out = Vec::new();
        for card in hand {
            let targets: Vec<Option<String>> = match self.card_kind(card) {
                Kind::RemoveFinished | Kind::RallyCheck => {
                    let mut hexes: Vec<Hex> =
                        self.units_of(side).filter_map(|u| self.hex_of(u)).collect();
                    hexes.sort_unstable();
                    hexes.dedup();
                    hexes.into_iter().map(|h| Some(h.to_string())).collect()
                }
                Kind::ForceExhaustion
                | Kind::ExtraReserve
                | Kind::CommanderOffMap
                | Kind::RegroupCheck => self
                    .battle
                    .brigade_ids()
                    .map(|b| Some(self.brigade_name(b)))
                    .collect(),
                Kind::ExtraMovement
                | Kind::ExtraAssaultDice
                | Kind::ExtraFireDice
                | Kind::FireThenAssault
                | Kind::FreeFormation => match &self.now.activation {
                    Some(a) => self
                        .units_of_brigade(a.brigade)
                        .into_iter()
                        .map(|u| Some(self.unit_name(u)))
                        .collect(),
                    None => Vec::new(),
                },
                Kind::ReadyCommanderBrigade => vec![None],
                _ => Vec::new(),
            };
            for on in targets {
                if self.check_play(card, on.as_deref()).is_ok() {
                    out.push((card, on));
                }
            }
        }
        out
    }
}
