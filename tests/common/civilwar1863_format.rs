//! The scenario files of tests/data/civilwar1863/ (README.md there), read
//! as data: one definition of the format for the test that checks the files
//! (civil_war_1863_scenarios) and the one that replays them against the
//! engine (civil_war_1863_rulings). Each test adds what it does with them.
//! Piece counts are `u8`: the box holds at most 15 pieces of a kind.

// Each of the two tests reads only some of the fields.
#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::Deserialize;

/// The two sides, as the files write them.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Union,
    Confederacy,
}

/// Who gives a step: a player, or the service for a coin toss.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Giver {
    Union,
    Confederacy,
    Service,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Infantry,
    Cavalry,
    Gunboat,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CityKind {
    Key,
    Capital,
    Town,
}

/// Pieces by kind; an absent kind is none.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Pieces {
    #[serde(default)]
    pub infantry: u8,
    #[serde(default)]
    pub cavalry: u8,
    #[serde(default)]
    pub gunboat: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: String,
    pub title: String,
    pub rules: Vec<String>,
    #[serde(default)]
    pub board: Board,
    pub start: Start,
    #[serde(rename = "step")]
    pub steps: Vec<Step>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    #[serde(default)]
    pub water_only: Vec<String>,
    #[serde(default)]
    pub sea: Vec<String>,
    #[serde(default)]
    pub river: Vec<String>,
    #[serde(default)]
    pub water_joins: Vec<Vec<String>>,
    #[serde(default)]
    pub mountain: Vec<String>,
    #[serde(default)]
    pub passes: Vec<Vec<String>>,
    #[serde(default)]
    pub rail_lines: Vec<Vec<String>>,
    pub sections: Option<Vec<Vec<String>>>,
    #[serde(default, rename = "city")]
    pub cities: Vec<City>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    pub square: String,
    pub name: String,
    pub kind: CityKind,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    pub turn: Side,
    pub squares: BTreeMap<String, Force>,
    #[serde(default)]
    pub flags: BTreeMap<String, Side>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Force {
    pub side: Side,
    #[serde(default)]
    pub infantry: u8,
    #[serde(default)]
    pub cavalry: u8,
    #[serde(default)]
    pub gunboat: u8,
    #[serde(default)]
    pub aboard: u8,
    pub disabled: Option<Pieces>,
    #[serde(default)]
    pub fortified: bool,
    pub moved: Option<Pieces>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub side: Giver,
    pub order: Order,
    pub from: Option<String>,
    pub path: Option<Vec<String>>,
    pub pieces: Option<Pieces>,
    pub square: Option<String>,
    pub k: Option<u8>,
    pub eliminate: Option<Pieces>,
    pub lose: Option<Pieces>,
    pub outcome: Option<Coin>,
    pub kind: Option<Kind>,
    pub removals: Option<Vec<Removal>>,
    pub expect: Expect,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    Move,
    Ride,
    Fortify,
    Unfortify,
    Losses,
    Toss,
    Keep,
    Retreat,
    Remove,
    EndTurn,
    Resign,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Coin {
    Heads,
    Tails,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Removal {
    pub square: String,
    pub kind: Kind,
    pub count: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub refused: Option<Citation>,
    pub accepted: Option<bool>,
    pub battle: Option<Battle>,
    pub pending: Option<Pending>,
    pub pending_side: Option<Giver>,
    pub turn: Option<Side>,
    pub squares: Option<BTreeMap<String, Force>>,
    pub flags: Option<BTreeMap<String, Side>>,
    #[serde(rename = "box")]
    pub markers: Option<MarkerBox>,
    pub cut: Option<Vec<Cut>>,
    pub eliminated: Option<BTreeMap<Side, Pieces>>,
    pub captured: Option<String>,
    pub end: Option<End>,
}

/// One rule id, or several any of which is a correct citation.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Citation {
    One(String),
    AnyOf(Vec<String>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub kind: BattleKind,
    pub attack: u32,
    pub defence: u32,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum BattleKind {
    Larger,
    Even,
    Sacrifice,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Pending {
    None,
    Losses,
    Toss,
    Keep,
    Retreat,
    Removals,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerBox {
    pub disabled: u8,
    pub fortification: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cut {
    pub against: Side,
    pub section: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    pub reason: EndReason,
    pub winner: Option<Side>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    Elimination,
    Surrender,
    Stalemate,
}
