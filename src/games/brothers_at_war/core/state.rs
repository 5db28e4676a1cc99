//! The dynamic state of a battle: everything that changes during play,
//! beside the shared, unchanging battle ([`Battle`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::battle::Battle;
use super::hex::Hex;
use super::ids::{BrigadeId, Marker, UnitId};
use super::order::{OpFireRule, PassDiscard};
use crate::games::brothers_at_war::scenario::model::{Face, Side};

/// A game of Brothers at War: the battle and where it stands.
#[derive(Clone, Debug)]
pub struct BrothersAtWar {
    /// The battle, shared by every state of the game.
    pub battle: Arc<Battle>,
    /// Everything that changes.
    pub now: Dynamic,
}

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// On the map.
    Map(Hex),
    /// A skirmisher on its brigade's display: not yet deployed, or
    /// disbanded (8.0, 9.14).
    Display,
    /// A reinforcement off the map, waiting to enter (10.1, 10.12).
    Waiting,
    /// Eliminated (6.54).
    Eliminated,
    /// Removed with its broken brigade (8.3), or by its owner (9.2).
    Removed,
    /// Left the map where the scenario allows it (5.214).
    Exited,
    /// On an off-board artillery card (9.4): never moves.
    OffBoard,
    /// A disbanded independent skirmisher on the turn track, back on its
    /// brigade's display at this turn's reinforcement step (9.19 c).
    Track(u8),
}

/// One unit's state (written compactly, [`super::compact`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitState {
    /// Where it is.
    pub place: Place,
    /// The side of its counter face up.
    pub face: Face,
    /// It carries a Finished marker (1.51).
    pub finished: bool,
    /// It carries a Disrupted marker (1.52).
    pub disrupted: bool,
    /// It carries an out of command marker (1.53).
    pub out_of_command: bool,
    /// A generic remnant made by a fate check (9.22): its side.
    pub generic: Option<Side>,
}

/// One brigade's state: its commander and its display (8.0), written
/// compactly ([`super::compact`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrigadeState {
    /// Its commander's hex; `None` while off the map.
    pub commander: Option<Hex>,
    /// The reserve marker's space, from START (8.1).
    pub reserve: u8,
    /// Casualty markers, filling spaces from START (8.2).
    pub casualties: u8,
    /// Exhausted (8.111).
    pub exhausted: bool,
    /// Broken (8.3).
    pub broken: bool,
    /// Its markers are in play: not held in the uncommitted box (3.15).
    pub committed: bool,
    /// Its markers were moved to the track: committed from next turn.
    pub committing: bool,
    /// It had a free activation this turn (2.321: never two in a row).
    pub free_this_turn: bool,
    /// Its standing instruction for opportunity fire (6.12).
    pub opfire: OpFireRule,
}

/// The unit or stack now spending movement points (5.1, 5.33).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// Its units (one, or the two of a stack).
    #[serde(rename = "u")]
    pub units: Vec<UnitId>,
    /// Movement points spent.
    #[serde(rename = "mp")]
    pub spent: u8,
    /// Every hex entered so far was along a road from a road hex where the
    /// activation began (5.212).
    #[serde(rename = "rm")]
    pub road_march: bool,
    /// It has made a move action (out of command disruption, 4.3).
    #[serde(rename = "mv")]
    pub moved: bool,
    /// The hexes it left in this activation where it could have ended it
    /// (5.32), the latest last: where it goes back to if a reaction leaves
    /// it in a hex it may not end in (B138).
    #[serde(rename = "bk", default, skip_serializing_if = "Vec::is_empty")]
    pub back: Vec<Hex>,
}

/// A brigade's activation under way (2.22).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    /// The brigade.
    #[serde(rename = "b")]
    pub brigade: BrigadeId,
    /// It is a free activation (2.321).
    #[serde(rename = "f")]
    pub free: bool,
    /// Units that have activated (a unit activates once).
    #[serde(rename = "ac")]
    pub acted: Vec<UnitId>,
    /// Skirmishers disbanded in this activation: they may not deploy
    /// again in it (9.14).
    #[serde(rename = "ds")]
    pub disbanded: Vec<UnitId>,
    /// Reinforcements that entered in this activation: in command (4.32).
    #[serde(rename = "en")]
    pub entered: Vec<UnitId>,
    /// An independent skirmisher deployed at this recovery (9.19 b).
    #[serde(rename = "is", default)]
    pub independent: bool,
    /// The unit or stack spending movement points now.
    #[serde(rename = "g")]
    pub group: Option<Group>,
    /// An exhausted brigade's move after a fate check of 4-5 (2.33 b,
    /// B111): move actions only, no opportunity fire at it, no pass.
    #[serde(rename = "fm", default, skip_serializing_if = "std::ops::Not::not")]
    pub fate_move: bool,
    /// The rest of the active group's move while its enemy is asked
    /// whether to fire at it (`OPFIRE ... ASK`, B151): gone on with when
    /// he declines, set aside when he fires (B9).
    #[serde(rename = "rs", default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Vec<Hex>>,
}

impl Activation {
    /// A brigade's activation as it begins: nothing acted yet.
    pub fn new(brigade: BrigadeId, free: bool) -> Activation {
        Activation {
            brigade,
            free,
            acted: Vec::new(),
            disbanded: Vec::new(),
            entered: Vec::new(),
            independent: false,
            group: None,
            fate_move: false,
            resume: None,
        }
    }
}

/// What a check rolls for (1.73).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CheckKind {
    /// A rally check (3.211).
    Rally,
    /// A command check (4.31).
    Command,
    /// A brigade's fate check (2.33).
    Fate,
    /// A card's exhaustion check on a brigade (8.111, B125): it exhausts
    /// at this face or less.
    Exhaustion(u8),
    /// A card's regroup check on an exhausted brigade (2.33 c, B125):
    /// only a regroup counts.
    Regroup,
}

/// A played battle card's effect that lasts beyond its play (B125).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardEffect {
    /// The unit's movement rating is this much higher for the activation
    /// (`extra-movement`).
    Movement(UnitId, u8),
    /// The unit rolls this many more dice in its assault (`extra-assault-dice`).
    Assault(UnitId, u8),
    /// The unit's next fire rolls extra dice at a risk (`extra-fire-dice-with-risk`):
    /// the card's number.
    Fire(UnitId, u8),
    /// The unit or stack readied by a card after its activation ended goes
    /// on with its points left (11.3 on 15-16, B136).
    Resume(Group),
    /// The unit's next change of formation costs no points
    /// (`free-formation-change`).
    FreeForm(UnitId),
    /// The unit's overstacking disrupts nobody this activation
    /// (`free-formation-change` with `cancel-overstack`).
    NoOverstack(UnitId),
    /// The brigade's units may not fire in its activation (`no-fire`).
    NoFire(BrigadeId),
    /// The brigade's commander is off the map until this turn's
    /// reinforcement step (`commander-off-map`).
    CommanderAway(BrigadeId, u8),
    /// The unit's next fire is followed by its assault of the hex fired at
    /// (`fire-then-assault`, B128): the card's number.
    FireThenAssault(UnitId, u8),
    /// The unit fired by that card and must now assault this hex (B128):
    /// the card's number.
    MustAssault(UnitId, Hex, u8),
}

/// A check waiting for its die: a stack rolls once (5.37).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// What it is.
    #[serde(rename = "k")]
    pub kind: CheckKind,
    /// The units it is for (a fate check: none).
    #[serde(rename = "u")]
    pub units: Vec<UnitId>,
    /// The brigade (a fate check's).
    #[serde(rename = "b")]
    pub brigade: Option<BrigadeId>,
    /// What is added to the die.
    #[serde(rename = "p")]
    pub bonus: u8,
}

/// Where the turn sequence stands (2.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Before turn one: both sides draw their hands (11.1).
    Deal,
    /// The preparation phase (2.1), run at once.
    Preparation,
    /// An uncommitted brigade's owner may commit it (3.15).
    Commitment(Side),
    /// Free activations wait to be ordered: equal counts roll a die each
    /// (2.321).
    FreeTie,
    /// Free activations to resolve ([`Dynamic::free_queue`], 2.321).
    Free,
    /// The selection step (2.21): a marker is drawn from the cup.
    Select,
    /// A brigade recovers (3.21) once its checks are rolled.
    Recovery(BrigadeId),
    /// A brigade activates its units or passes (3.22).
    Units(BrigadeId),
    /// After a pass, the card drawn may leave one to discard (3.221).
    PassDiscard(BrigadeId),
    /// The move commander step (3.23).
    Commander(BrigadeId),
    /// The discard and draw step (2.31): this side discards.
    EndDiscard(Side),
    /// The discard and draw step: both draw to their hand size.
    EndDraw,
    /// The clean up step (2.32).
    Cleanup,
    /// The fate check step (2.33).
    Fate,
    /// Advance the turn marker (2.34), then reinforcements (2.35).
    Advance,
    /// The battle is over.
    Over,
}

/// How the battle ended (2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// The last turn was played: victory points (2.4, 2.41).
    Points {
        /// The Union's points.
        union: u16,
        /// The Confederacy's points.
        confederacy: u16,
    },
    /// A side held every hex of an instant victory condition (2.4).
    InstantHexes(Side),
    /// A side broke enough enemy brigades for an instant victory (2.4).
    InstantBroken(Side),
}

/// Everything that changes, as the position string keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dynamic {
    /// The turn, from 1 (2.34).
    #[serde(rename = "t")]
    pub turn: u8,
    /// Activations begun so far in the battle: tells two activations of
    /// one player's brigades apart ([`crate::games::Game::turn_serial`]).
    #[serde(rename = "ac", default, skip_serializing_if = "is_zero")]
    pub activations: u32,
    /// Where the sequence stands.
    #[serde(rename = "s")]
    pub step: Step,
    /// The units: the scenario's order of battle, then generic remnants.
    #[serde(rename = "u")]
    pub units: Vec<UnitState>,
    /// The brigades, as the scenario orders them.
    #[serde(rename = "b")]
    pub brigades: Vec<BrigadeState>,
    /// The cup, in canonical order (sorted) (3.12).
    #[serde(rename = "cup")]
    pub cup: Vec<Marker>,
    /// The activation track, from START (2.21).
    #[serde(rename = "tr")]
    pub track: Vec<Marker>,
    /// Countdown markers in their box (3.13).
    #[serde(rename = "cb")]
    pub countdown_box: u8,
    /// Brigades with a marker in the exhausted brigades box (8.111).
    #[serde(rename = "xb")]
    pub exhausted_box: Vec<BrigadeId>,
    /// The deck, in canonical order (card numbers, sorted) (11.1): not
    /// written in a position, which rebuilds it as the battle's cards
    /// neither held nor discarded.
    #[serde(skip)]
    pub deck: Vec<u8>,
    /// The discard pile (11.2).
    #[serde(rename = "dp")]
    pub discard: Vec<u8>,
    /// Each side's hidden hand, the Union's first, in the order drawn
    /// (B121 discards the cards held longest).
    #[serde(rename = "h")]
    pub hands: [Vec<u8>; 2],
    /// A side discards by hand at the discard step (`DISCARD ASK`, B5,
    /// B121) rather than by the default rule.
    #[serde(rename = "ad")]
    pub ask_discard: [bool; 2],
    /// What the pass under way discards if its card overfills the hand
    /// (B46).
    #[serde(rename = "pd")]
    pub pass_discard: Option<PassDiscard>,
    /// Who controls each key hex (2.41).
    #[serde(rename = "ctl")]
    pub control: BTreeMap<Hex, Side>,
    /// Brigades that had a marker on the track this turn (2.32 c).
    #[serde(rename = "at")]
    pub activated_this_turn: Vec<BrigadeId>,
    /// Brigades due a free activation next preparation (2.321).
    #[serde(rename = "fd")]
    pub free_due: Vec<BrigadeId>,
    /// Free activations still to run this preparation, in order.
    #[serde(rename = "fq")]
    pub free_queue: Vec<BrigadeId>,
    /// The activation under way.
    #[serde(rename = "a")]
    pub activation: Option<Activation>,
    /// Checks waiting for dice, in order.
    #[serde(rename = "ck")]
    pub checks: Vec<Check>,
    /// Cards to draw, in order, by side.
    #[serde(rename = "dr")]
    pub draws: Vec<Side>,
    /// Points scored by units leaving the map (5.214), per side.
    #[serde(rename = "ep")]
    pub exit_points: [u16; 2],
    /// How the battle ended, once it has.
    #[serde(rename = "end")]
    pub ended: Option<Ending>,
    /// The fire attack under way (6.0).
    #[serde(default, rename = "fi", skip_serializing_if = "Option::is_none")]
    pub fire: Option<super::combat::FireAttack>,
    /// A reaction asked of a player (B7).
    #[serde(default, rename = "re", skip_serializing_if = "Option::is_none")]
    pub reaction: Option<super::combat::Reaction>,
    /// Point blank fire made at the unit leaving its hex (B72).
    #[serde(default, rename = "pb", skip_serializing_if = "Option::is_none")]
    pub point_blank: Option<super::combat::PointBlank>,
    /// The assault under way (7.1).
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    pub assault: Option<super::combat::Assault>,
    /// The unit or stack whose activation ended last in the activation
    /// under way, with the points it had spent: a card removing its
    /// Finished marker lets it go on (11.3 on 15-16, B136).
    #[serde(default, rename = "lg", skip_serializing_if = "Option::is_none")]
    pub last_group: Option<Group>,
    /// Played cards' effects still to come (B125).
    #[serde(default, rename = "ce", skip_serializing_if = "Vec::is_empty")]
    pub card_effects: Vec<CardEffect>,
    /// Both players' standing instructions (B5).
    #[serde(
        default,
        rename = "in",
        skip_serializing_if = "super::combat::Instructions::is_empty"
    )]
    pub instructions: super::combat::Instructions,
    /// The answers given to the questions of the combat result under way
    /// (B145), in the order asked.
    #[serde(default, rename = "aw", skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<super::question::Answer>,
    /// Brigades whose fate check of 4-5 moves them (2.33 b, B111), in the
    /// order checked, each moving once the checks are all rolled.
    #[serde(default, rename = "fv", skip_serializing_if = "Vec::is_empty")]
    pub fate_moves: Vec<BrigadeId>,
    /// An order waiting for the answers to the card questions it raised
    /// (B148).
    #[serde(default, rename = "ho", skip_serializing_if = "Option::is_none")]
    pub held: Option<Box<super::question::Held>>,
    /// Where those questions stand while one order is resolved.
    #[serde(skip)]
    pub asking: super::question::Asking,
    /// Where a held order's questions stand while it is applied (B148).
    #[serde(skip)]
    pub holding: super::question::Holding,
}

impl BrothersAtWar {
    /// A unit's state.
    pub fn unit(&self, unit: UnitId) -> &UnitState {
        &self.now.units[unit.index()]
    }

    /// A brigade's state.
    pub fn brigade(&self, brigade: BrigadeId) -> &BrigadeState {
        &self.now.brigades[brigade.index()]
    }

    /// Every unit id, the order of battle first.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> {
        (0..self.now.units.len()).map(|i| UnitId(i as u16))
    }

    /// A unit's side.
    pub fn side_of(&self, unit: UnitId) -> Side {
        match self.now.units[unit.index()].generic {
            Some(side) => side,
            None => self.battle.side_of(unit).unwrap_or(Side::Union),
        }
    }

    /// A unit's brigade (none for remnants, 9.2).
    pub fn brigade_of(&self, unit: UnitId) -> Option<BrigadeId> {
        if self.now.units[unit.index()].generic.is_some() {
            None
        } else {
            self.battle.brigade_of(unit)
        }
    }

    /// A unit's hex, if on the map.
    pub fn hex_of(&self, unit: UnitId) -> Option<Hex> {
        match self.now.units[unit.index()].place {
            Place::Map(h) => Some(h),
            _ => None,
        }
    }

    /// The units on a hex, in id order.
    pub fn units_at(&self, hex: Hex) -> Vec<UnitId> {
        self.unit_ids()
            .filter(|&u| self.hex_of(u) == Some(hex))
            .collect()
    }

    /// The unit's name as orders write it: its scenario id, or `REMn` for
    /// the n-th generic remnant.
    pub fn unit_name(&self, unit: UnitId) -> String {
        match self.battle.scenario.units.get(unit.index()) {
            Some(u) => u.id.clone(),
            None => format!("REM{}", unit.index() + 1 - self.battle.unit_count()),
        }
    }

    /// The unit an order names (any case).
    pub fn unit_named(&self, name: &str) -> Option<UnitId> {
        if let Some(u) = self.battle.unit_named(name) {
            return Some(u);
        }
        let n: usize = name
            .to_ascii_uppercase()
            .strip_prefix("REM")?
            .parse()
            .ok()?;
        let i = self.battle.unit_count() + n.checked_sub(1)?;
        (i < self.now.units.len()).then_some(UnitId(i as u16))
    }

    /// Units of `side` on the map.
    pub fn units_of(&self, side: Side) -> impl Iterator<Item = UnitId> + '_ {
        self.unit_ids()
            .filter(move |&u| self.side_of(u) == side && self.hex_of(u).is_some())
    }

    /// The units of the side opposing `side` on a hex, in id order: the
    /// target of a fire or an assault at it.
    pub fn enemies_at(&self, hex: Hex, side: Side) -> Vec<UnitId> {
        let enemy = side.other();
        self.units_at(hex)
            .into_iter()
            .filter(|&u| self.side_of(u) == enemy)
            .collect()
    }

    /// The hex holds a unit of `side`.
    pub fn occupied_by(&self, hex: Hex, side: Side) -> bool {
        self.units_at(hex).iter().any(|&u| self.side_of(u) == side)
    }

    /// A unit of `side` stands on a hex next to `hex`.
    pub fn adjacent_to(&self, hex: Hex, side: Side) -> bool {
        self.units_of(side)
            .any(|u| self.hex_of(u).is_some_and(|h| h.is_neighbour(hex)))
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
