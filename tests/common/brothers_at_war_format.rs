//! The rule case files of tests/data/brothersatwar/ (README.md there), read as data: one
//! definition of the format for the test that checks the files (brothers_at_war_cases)
//! and, once the engine lands, the harness that replays them. Each reads what it needs.
//! Counts are `u8`: no case holds more than a handful of units, dice or track spaces.

// The file check reads only some of the fields; the replay harness will read the rest.
#![allow(dead_code)]

use serde::Deserialize;

/// The two seats: North is the Union (USA), South the Confederacy (CSA).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    North,
    South,
}

/// What a counter is (1.2, 1.4, 9.1, 9.2).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Infantry,
    Cavalry,
    Artillery,
    Skirmisher,
    Remnant,
    Commander,
}

/// The side of a counter shown (5.4).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Formation {
    Formed,
    Unformed,
    Mounted,
    Dismounted,
    Limbered,
    Deployed,
}

/// Markers on a unit (1.5); none means ready, Undisrupted and in command.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Finished,
    Disrupted,
    OutOfCommand,
}

/// Symbols printed on a counter.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    CavalrySymbol,
    Sharpshooter,
    Independent,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Preparation,
    Activation,
    End,
}

/// Every action and check a step may hold (README "Steps").
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Move,
    ChangeFormation,
    Fire,
    Assault,
    HoldFire,
    DeploySkirmisher,
    DisbandSkirmisher,
    Pass,
    OpportunityFire,
    PointBlankFire,
    Retreat,
    SpendReserve,
    EliminateSkirmisher,
    Recover,
    RallyCheck,
    CommandCheck,
    FateCheck,
    EndActivation,
    MoveCommander,
    DrawMarker,
    CleanUp,
    DiscardAndDraw,
    PlayCard,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Accepted,
    Refused,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CheckResult {
    Success,
    Failure,
}

/// The three results of a fate check (2.33).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Fate {
    Break,
    Exhausted,
    Regroup,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    Attacker,
    Defender,
}

/// One file: one or more complete cases.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    #[serde(rename = "case")]
    pub cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    pub rules: Vec<String>,
    pub about: String,
    #[serde(default)]
    pub open: bool,
    pub question: Option<String>,
    pub map: Map,
    #[serde(default)]
    pub state: State,
    #[serde(rename = "brigade")]
    pub brigades: Vec<Brigade>,
    #[serde(rename = "unit")]
    pub units: Vec<Unit>,
    #[serde(rename = "step")]
    pub steps: Vec<Step>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Map {
    pub last: String,
    #[serde(default)]
    pub hexes: Vec<HexTerrain>,
    #[serde(default)]
    pub hexsides: Vec<Hexside>,
    #[serde(default)]
    pub paths: Vec<PathLine>,
    #[serde(default)]
    pub rally_points: Vec<SideHex>,
    #[serde(default)]
    pub control: Vec<SideHex>,
    #[serde(default)]
    pub fire_points: Vec<FirePoint>,
}

/// A hex that is not clear level 1.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexTerrain {
    pub hex: String,
    pub terrain: Option<String>,
    pub level: Option<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hexside {
    pub between: [String; 2],
    pub feature: String,
}

/// A road or trail through its hexes in order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathLine {
    pub kind: String,
    pub hexes: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideHex {
    pub side: Side,
    pub hex: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirePoint {
    pub id: String,
    pub hex: String,
    pub range: u8,
    pub edge: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub phase: Option<Phase>,
    pub turn: Option<u8>,
    pub last_turn: Option<u8>,
    pub active: Option<String>,
    #[serde(default)]
    pub cup: Vec<String>,
    #[serde(default)]
    pub track: Vec<String>,
    pub countdown_box: Option<u8>,
    #[serde(default)]
    pub exhausted_box: Vec<String>,
    #[serde(default)]
    pub broken_box: Vec<String>,
    #[serde(default)]
    pub uncommitted: Vec<String>,
    pub hand_size: Option<u8>,
    pub hands: Option<Hands>,
    #[serde(default)]
    pub draw_symbols: Vec<u8>,
    #[serde(default)]
    pub countdown_symbols: Vec<u8>,
}

/// Each seat's cards, by the names 11.3 gives them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hands {
    #[serde(rename = "North", default)]
    pub north: Vec<String>,
    #[serde(rename = "South", default)]
    pub south: Vec<String>,
}

/// How many cards each seat holds after a step.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandCounts {
    #[serde(rename = "North")]
    pub north: u8,
    #[serde(rename = "South")]
    pub south: u8,
}

/// A brigade and its display (8.0).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Brigade {
    pub id: String,
    pub side: Side,
    pub markers: Option<u8>,
    #[serde(default)]
    pub divisional: bool,
    pub spaces: Option<u8>,
    pub dark_gray: Option<u8>,
    #[serde(default)]
    pub reserve: u8,
    #[serde(default)]
    pub casualties: u8,
    #[serde(default)]
    pub exhausted: bool,
    #[serde(default)]
    pub free_last_turn: bool,
    #[serde(default)]
    pub inactive: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: String,
    pub side: Side,
    pub brigade: Option<String>,
    pub kind: Kind,
    pub formation: Option<Formation>,
    pub firepower: Option<u8>,
    pub movement: Option<u8>,
    pub range: Option<u8>,
    pub reverse: Option<Ratings>,
    pub hex: String,
    pub card: Option<String>,
    pub card_saves: Option<u8>,
    pub card_level: Option<u8>,
    pub fire_point: Option<String>,
    pub entry: Option<String>,
    pub turn: Option<u8>,
    #[serde(default)]
    pub flags: Vec<Flag>,
    pub regiment: Option<String>,
    #[serde(default)]
    pub status: Vec<Status>,
}

/// The ratings printed on the other side of a counter (5.22).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ratings {
    pub firepower: u8,
    pub movement: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub action: Action,
    pub brigade: Option<String>,
    #[serde(default)]
    pub units: Vec<String>,
    #[serde(default)]
    pub path: Vec<String>,
    pub target: Option<String>,
    pub target_unit: Option<String>,
    pub formation: Option<Formation>,
    pub skirmisher: Option<String>,
    #[serde(default)]
    pub side_of_line: Vec<String>,
    #[serde(default)]
    pub dice: Vec<u8>,
    #[serde(default)]
    pub enemy_dice: Vec<u8>,
    #[serde(default)]
    pub save_dice: Vec<u8>,
    #[serde(default)]
    pub retreat: Vec<String>,
    pub reserves: Option<u8>,
    pub choice: Option<String>,
    pub card: Option<String>,
    pub expect: Expect,
}

/// What a step must do; only the fields written are checked.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub result: Outcome,
    pub rule: Option<String>,
    pub target: Option<String>,
    pub mp_spent: Option<u8>,
    pub mp_left: Option<u8>,
    pub range: Option<u8>,
    pub firepower: Option<u8>,
    pub to_hit: Option<u8>,
    pub max_hits: Option<u8>,
    pub pass_through: Option<bool>,
    pub hits: Option<u8>,
    pub saves: Option<u8>,
    #[serde(default)]
    pub save_factors: Vec<String>,
    pub unsaved: Option<u8>,
    pub enemy_hits: Option<u8>,
    pub winner: Option<Winner>,
    pub check: Option<CheckResult>,
    pub modifier: Option<i8>,
    pub fate: Option<Fate>,
    #[serde(default)]
    pub units: Vec<UnitAfter>,
    #[serde(default)]
    pub eliminated: Vec<String>,
    #[serde(default)]
    pub disbanded: Vec<String>,
    #[serde(default)]
    pub brigades: Vec<BrigadeAfter>,
    #[serde(default)]
    pub control: Vec<SideHex>,
    pub track: Option<Vec<String>>,
    pub cup: Option<Vec<String>>,
    pub countdown_box: Option<u8>,
    pub exhausted_box: Option<Vec<String>>,
    pub uncommitted: Option<Vec<String>>,
    pub phase: Option<Phase>,
    pub remnant: Option<String>,
    pub hands: Option<HandCounts>,
}

/// A unit's state after a step; absent fields are not checked.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitAfter {
    pub id: String,
    pub hex: Option<String>,
    pub formation: Option<Formation>,
    pub status: Option<Vec<Status>>,
}

/// A brigade display after a step; absent fields are not checked.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrigadeAfter {
    pub id: String,
    pub reserve: Option<u8>,
    pub casualties: Option<u8>,
    pub exhausted: Option<bool>,
    pub broken: Option<bool>,
}
