//! The shape of a scenario file, as read from TOML.
//!
//! Every table refuses fields it does not know, so that a misspelt key is
//! an error with its line rather than a silently ignored rule. Values
//! here are as written; the checks that relate them to each other (a unit
//! naming a brigade that exists, a hex on the map) are the checker's.
//! Defaults are the rulebook's where it gives one (hand size 3: 2.31;
//! reserves and saves: 6.6), so that a file states only what differs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::games::brothers_at_war::core::Hex;

/// The format's name and version, the first key of every file
/// (`format = "orderly-brothers-at-war 1"`).
pub const FORMAT: &str = "orderly-brothers-at-war 1";

/// One battle: map, charts, forces, track, cards and victory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Always [`FORMAT`].
    pub format: String,
    /// A short id used in `NEW BROTHERSATWAR ... SCENARIO id` (lower case
    /// letters, digits and dashes).
    pub id: String,
    /// The battle's name as players read it.
    pub name: String,
    /// Who made the file and from what (for an owner's transcription, the
    /// box it came from; for ours, that it is original).
    pub source: String,
    /// What players read before the first turn: the situation, special
    /// rules in words.
    #[serde(default)]
    pub briefing: String,
    /// How many turns the battle lasts (2.34).
    pub turns: u8,
    /// Cards each side holds at the end phase (2.31, 11.1): 3 unless said.
    #[serde(default)]
    pub hand_size: PerSide<u8>,
    /// The map: size, terrain, elevation, hexsides, roads.
    pub map: Map,
    /// The terrain effects chart, by terrain id.
    pub terrain: BTreeMap<String, Terrain>,
    /// The hexside features, by id (fence, wall, stream, ford, bridge ...).
    #[serde(default)]
    pub hexside: BTreeMap<String, Hexside>,
    /// What entering a higher hex costs and does (slopes: 5.21, 7.11).
    #[serde(default)]
    pub upslope: Upslope,
    /// How many save rolls each factor of 6.6 gives.
    #[serde(default)]
    pub saves: Saves,
    /// The brigades, divisional artillery included (as a brigade with
    /// `divisional = true`, 9.3).
    #[serde(default, rename = "brigade")]
    pub brigades: Vec<Brigade>,
    /// The units: regiments, batteries, skirmishers, remnants.
    #[serde(default, rename = "unit")]
    pub units: Vec<Unit>,
    /// The ratings of a generic remnant, one pair of faces for all of
    /// them (9.22, B110); none when the battle leaves no generic remnants.
    #[serde(default)]
    pub remnant: Option<RemnantCounter>,
    /// The activation track (2.21, 3.14).
    pub activation: ActivationTrack,
    /// Off-board artillery cards (9.4).
    #[serde(default, rename = "off_board")]
    pub off_board: Vec<OffBoard>,
    /// The battle card deck (11.1).
    #[serde(default, rename = "card")]
    pub cards: Vec<Card>,
    /// How the battle is won (2.4).
    pub victory: Victory,
    /// Switches for special rules the engine knows.
    #[serde(default)]
    pub special: Special,
}

/// A value for each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerSide<T> {
    /// The Union's (USA).
    pub union: T,
    /// The Confederacy's (CSA).
    pub confederacy: T,
}

impl Default for PerSide<u8> {
    fn default() -> Self {
        PerSide {
            union: 3,
            confederacy: 3,
        }
    }
}

/// A side of the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The USA, seat North.
    Union,
    /// The CSA, seat South.
    Confederacy,
}

/// The map.
///
/// Terrain and levels are grids of one character per hex: `rows` lines of
/// `columns` characters, row 01 first, column 01 leftmost (spaces between
/// characters are allowed and ignored). `legend` says which terrain id a
/// character stands for; levels are digits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Map {
    /// Columns, west to east (at most 99).
    pub columns: u8,
    /// Rows, north to south (at most 99).
    pub rows: u8,
    /// Character to terrain id, for `terrain`.
    pub legend: BTreeMap<String, String>,
    /// One line per row of terrain characters.
    pub terrain: Vec<String>,
    /// One line per row of elevation digits (0-9); every hex level 1 when
    /// left out.
    #[serde(default)]
    pub levels: Vec<String>,
    /// Hexside features: `"0712 0713 fence"` (the two hexes the side
    /// separates, then the feature id).
    #[serde(default)]
    pub hexsides: Vec<String>,
    /// Roads, each a path of adjacent hexes: `"0101 0102 0203"` (5.211).
    #[serde(default)]
    pub roads: Vec<String>,
    /// Trails, as roads (5.211).
    #[serde(default)]
    pub trails: Vec<String>,
    /// Rally points of each side (6.73).
    pub rally_points: PerSide<Vec<Hex>>,
    /// Fire points of off-board artillery (9.41).
    #[serde(default)]
    pub fire_points: Vec<FirePoint>,
    /// Names of places players may use instead of hex names ("Tanner's
    /// Mill" for 0607): hex to name.
    #[serde(default)]
    pub places: BTreeMap<Hex, String>,
}

/// What a movement cost is for one kind of mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cost {
    /// Extra movement points on top of the 1 of 5.21.
    Extra(u8),
    /// `"no"`: this mover may not enter (or cross).
    Prohibited(Prohibited),
}

/// The word `no`, for a prohibited move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Prohibited {
    /// May not.
    No,
}

impl Default for Cost {
    fn default() -> Self {
        Cost::Extra(0)
    }
}

/// Movement costs by kind of mover: infantry (either formation),
/// cavalry (mounted; dismounted cavalry moves as infantry), limbered
/// artillery. Skirmishers on foot pay none (9.11); mounted skirmishers pay
/// the cavalry cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// Infantry and dismounted cavalry.
    #[serde(default)]
    pub infantry: Cost,
    /// Mounted cavalry and mounted skirmishers.
    #[serde(default)]
    pub cavalry: Cost,
    /// Limbered artillery.
    #[serde(default)]
    pub artillery: Cost,
}

/// How terrain affects a sight line (6.31).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sight {
    /// No effect.
    #[default]
    Clear,
    /// A hindrance (6.33): a save roll per type crossed.
    Hindrance,
    /// An obstacle: blocks.
    Obstacle,
}

/// Protection a target gets from where it stands (6.6 item 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cover {
    /// None.
    #[default]
    None,
    /// Cover: `saves.cover` rolls.
    Cover,
    /// Heavy cover: `saves.heavy_cover` rolls.
    Heavy,
}

/// One terrain type of the terrain effects chart (hex terrain).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// Its name as players read it ("Woods").
    pub name: String,
    /// Extra cost to enter, by mover.
    #[serde(default)]
    pub moving: Costs,
    /// Effect on sight lines through the hex.
    #[serde(default)]
    pub sight: Sight,
    /// Cover for a target in the hex.
    #[serde(default)]
    pub cover: Cover,
    /// Woods: formed infantry may enter only along a road or trail (5.41)
    /// and may not assault into it (7.2).
    #[serde(default)]
    pub woods: bool,
    /// A building: a skirmisher in it gains a save (6.6).
    #[serde(default)]
    pub building: bool,
    /// A river hex: entered only across ford hexsides (5.213).
    #[serde(default)]
    pub river: bool,
}

/// One hexside feature of the terrain effects chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hexside {
    /// Its name as players read it ("Fence").
    pub name: String,
    /// Extra cost to cross, by mover.
    #[serde(default)]
    pub crossing: Costs,
    /// Effect on sight lines crossing it.
    #[serde(default)]
    pub sight: Sight,
    /// Cover for a target behind it (6.6: only when the sight line crosses
    /// it into the target hex and the firer is not adjacent).
    #[serde(default)]
    pub cover: Cover,
    /// A ford: river hexes may be entered across it (5.213).
    #[serde(default)]
    pub ford: bool,
}

/// Slopes: entering a hex of a higher level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upslope {
    /// Extra cost to enter a higher hex, by mover.
    #[serde(default)]
    pub moving: Costs,
}

/// Save rolls per factor (6.6); the rulebook's values unless a scenario's
/// save table says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Saves {
    /// The attacker moved before firing.
    pub moving_fire: u8,
    /// Per hex between attacker and target (not against artillery fire).
    pub per_hex_between: u8,
    /// Target unformed, dismounted, a skirmisher or disrupted.
    pub formation: u8,
    /// Per different hindrance type crossed.
    pub hindrance: u8,
    /// Per type of cover in the target hex.
    pub cover: u8,
    /// Per type of heavy cover in the target hex.
    pub heavy_cover: u8,
    /// Firer and target at different levels.
    pub elevation: u8,
    /// A skirmisher in a building.
    pub skirmisher_in_building: u8,
    /// Choosing to retreat (6.7).
    pub retreat: u8,
    /// Choosing to retreat four hexes (6.72).
    pub long_retreat: u8,
}

impl Default for Saves {
    fn default() -> Self {
        Saves {
            moving_fire: 1,
            per_hex_between: 1,
            formation: 1,
            hindrance: 1,
            cover: 1,
            heavy_cover: 2,
            elevation: 1,
            skirmisher_in_building: 1,
            retreat: 1,
            long_retreat: 2,
        }
    }
}

/// A brigade (or a side's divisional artillery, 9.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Brigade {
    /// A short id used in orders ("iron"), unique in the file.
    pub id: String,
    /// Its name as players read it.
    pub name: String,
    /// Whose brigade it is.
    pub side: Side,
    /// The divisional artillery of its side: no commander, no reserve
    /// track (9.3).
    #[serde(default)]
    pub divisional: bool,
    /// Its commander; none for divisional artillery (4.1).
    #[serde(default)]
    pub commander: Option<Commander>,
    /// Activation markers: 1 or 2 (3.1).
    pub markers: u8,
    /// The turn its markers enter the cup (10.1): 1 unless it arrives later.
    #[serde(default = "first_turn")]
    pub arrives: u8,
    /// Its markers start in the uncommitted box (3.15).
    #[serde(default)]
    pub uncommitted: bool,
    /// Its reserve track (8.1); none for divisional artillery.
    #[serde(default)]
    pub reserves: Option<ReserveTrack>,
}

fn first_turn() -> u8 {
    1
}

/// A brigade commander.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commander {
    /// His name as players read it.
    pub name: String,
    /// Where he sets up; none when he arrives with his brigade.
    #[serde(default)]
    pub at: Option<Hex>,
}

/// A reserve track (8.1-8.3): spaces from START (space 0) to the
/// exhausted space (space `length`). The reserve marker starts on START;
/// casualties fill spaces from START rightwards; the brigade is exhausted
/// when the reserve marker reaches space `length` (8.111) and broken when
/// casualties fill all of the first `dark` spaces (8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReserveTrack {
    /// Spaces from START to the exhausted space.
    pub length: u8,
    /// The dark gray spaces, counted from START.
    pub dark: u8,
    /// Reserves already spent at the start (the marker's first space).
    #[serde(default)]
    pub spent: u8,
}

/// What a unit is (1.2, 9.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// Front formed, back unformed.
    Infantry,
    /// Front dismounted, back mounted.
    Cavalry,
    /// Front deployed, back limbered.
    Artillery,
    /// Front on foot, back mounted (cavalry skirmishers only, 9.11).
    Skirmisher,
    /// Unformed infantry of no brigade (9.2).
    Remnant,
}

/// The two sides of a counter (1.2, 5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Face {
    /// Formed, dismounted, deployed, on foot.
    Front,
    /// Unformed, mounted, limbered.
    Back,
}

/// Ratings printed on one side of a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ratings {
    /// Dice rolled when firing or assaulting (1.21).
    pub firepower: u8,
    /// Movement points (1.22).
    pub movement: u8,
}

/// One unit of the order of battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// A short id used in orders ("19IN"), unique in the file.
    pub id: String,
    /// Its name as players read it ("19th Indiana").
    pub name: String,
    /// Its brigade's id; none for remnants.
    #[serde(default)]
    pub brigade: Option<String>,
    /// Whose unit it is: its brigade's side unless said; a remnant of no
    /// brigade must say (9.2).
    #[serde(default)]
    pub side: Option<Side>,
    /// What it is.
    pub kind: UnitKind,
    /// Its front side's ratings.
    pub front: Ratings,
    /// Its back side's ratings (remnants and foot-only skirmishers repeat
    /// the front).
    pub back: Ratings,
    /// An artillery unit's printed range (1.23, 6.16).
    #[serde(default)]
    pub range: Option<u8>,
    /// It carries the cavalry symbol (cavalry, horse artillery, cavalry
    /// skirmishers: 4.31, 6.72).
    #[serde(default)]
    pub cavalry_symbol: bool,
    /// A sharpshooter skirmisher (6.134).
    #[serde(default)]
    pub sharpshooter: bool,
    /// The regiment or battery two units share ("28PA"), for regimental
    /// stacks (5.35).
    #[serde(default)]
    pub regiment: Option<String>,
    /// An independent skirmisher (9.19).
    #[serde(default)]
    pub independent: bool,
    /// Where it sets up; none for a skirmisher starting on its brigade's
    /// display, a reinforcement, or an off-board battery.
    #[serde(default)]
    pub at: Option<Hex>,
    /// The side of the counter it sets up on.
    #[serde(default = "front")]
    pub face: Face,
    /// It sets up disrupted.
    #[serde(default)]
    pub disrupted: bool,
    /// When and where it arrives as a reinforcement (10.1).
    #[serde(default)]
    pub enters: Option<Entry>,
    /// The off-board artillery card it stands on (9.4).
    #[serde(default)]
    pub off_board: Option<String>,
}

fn front() -> Face {
    Face::Front
}

/// The faces of a generic remnant (9.22, B110).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemnantCounter {
    /// Its front face.
    pub front: Ratings,
    /// Its back face.
    pub back: Ratings,
}

/// A reinforcement's arrival (10.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The turn.
    pub turn: u8,
    /// The entry hexes, on a map edge.
    pub at: Vec<Hex>,
}

/// The activation track and the countdown markers (2.21, 3.13, 3.14).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActivationTrack {
    /// The spaces from START: `""` for a plain space, `"countdown"` (a
    /// countdown marker goes from the box to the cup) or `"cards"` (both
    /// players draw a card).
    pub spaces: Vec<String>,
    /// Countdown markers in the game: one goes in the cup each turn, the
    /// rest wait in the box (3.13).
    pub countdown_markers: u8,
}

/// An off-board artillery card (9.4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffBoard {
    /// Its id, named by units' `off_board`.
    pub id: String,
    /// Its name as players read it.
    pub name: String,
    /// Whose it is.
    pub side: Side,
    /// The fire points (by id) its units fire from (9.41).
    pub fire_points: Vec<String>,
    /// Its elevation level (9.42, 9.433).
    pub level: u8,
    /// Extra save rolls its units gain when fired upon (9.433).
    #[serde(default)]
    pub saves: u8,
    /// Its units may fire at other off-board artillery (9.432).
    #[serde(default)]
    pub counter_battery: bool,
}

/// A fire point printed on the map (9.41).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirePoint {
    /// Its id, named by off-board cards.
    pub id: String,
    /// The hex it is printed in; ranges are counted from it (9.41).
    pub at: Hex,
    /// The map-edge hex sight lines start from (9.42, B112): `at` when
    /// left out, which must then be on the edge.
    #[serde(default)]
    pub edge: Option<Hex>,
    /// The range number printed beside it (9.41).
    pub range: u8,
}

impl FirePoint {
    /// The edge hex its sight lines start from (9.42, B112).
    pub fn sight_from(&self) -> Hex {
        self.edge.unwrap_or(self.at)
    }
}

/// One battle card, or several identical ones (11.1, 11.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// The card numbers this entry stands for (`[1, 2]` for a pair).
    pub numbers: Vec<u8>,
    /// Its title.
    pub name: String,
    /// When it may be played, in the engine's words (a timing window id,
    /// docs/brothers-at-war-scenarios.md).
    pub timing: String,
    /// What it does: one of the effect kinds the engine implements
    /// (docs/brothers-at-war-rulings.md).
    pub effect: String,
    /// The effect's parameters (how many dice, how many hexes ...), each a
    /// number, `true`/`false` or a word, as the effect kind defines them
    /// (docs/brothers-at-war-rulings.md, "Card effect kinds").
    #[serde(default)]
    pub params: BTreeMap<String, Param>,
    /// The card's text as players read it: an owner's transcription stays
    /// on his machine; ours is our own words.
    #[serde(default)]
    pub text: String,
}

/// One parameter of a card's effect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Param {
    /// A small number (`dice = 2`).
    Number(i64),
    /// Yes or no (`cancel-overstack = true`).
    Flag(bool),
    /// A word (`unit = "artillery"`, `hexes = "long"`).
    Word(String),
}

/// How the battle is won (2.4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// Key hexes and the points their control is worth at the end (2.41).
    #[serde(default, rename = "hex")]
    pub hexes: Vec<KeyHex>,
    /// Points a side scores per enemy brigade broken.
    #[serde(default)]
    pub per_broken_brigade: u8,
    /// Points a side scores per enemy unit eliminated (casualties).
    #[serde(default)]
    pub per_casualty: u8,
    /// A side wins at once when it holds all of these hexes at a clean-up
    /// step (2.4: instant victory).
    #[serde(default)]
    pub instant: Vec<Instant>,
    /// At the end, a side must lead by more than this many points to win;
    /// otherwise the battle is a draw.
    #[serde(default)]
    pub draw_within: u8,
}

/// A key hex (2.41).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyHex {
    /// The hex.
    pub at: Hex,
    /// Points to whoever controls it at the end.
    pub points: u8,
    /// Who controls it at the start (2.41: nobody unless said).
    #[serde(default)]
    pub controlled_by: Option<Side>,
}

/// An instant victory condition (2.4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instant {
    /// Who wins.
    pub side: Side,
    /// The hexes he must control at a clean-up step.
    #[serde(default)]
    pub control: Vec<Hex>,
    /// Or: this many enemy brigades broken.
    #[serde(default)]
    pub broken_brigades: Option<u8>,
}

/// Special rules the engine knows, as switches.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Special {
    /// Sides whose units may leave the map, and by which edge hexes
    /// (5.214); nobody unless said.
    #[serde(default)]
    pub exits: Vec<Exit>,
}

/// Permission to leave the map (5.214).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exit {
    /// Whose units.
    pub side: Side,
    /// From which edge hexes.
    pub at: Vec<Hex>,
    /// Points per unit that leaves.
    #[serde(default)]
    pub points: u8,
}
