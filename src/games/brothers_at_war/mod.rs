//! Brothers at War: 1862 (Compass Games, 2022), the system only: brigades
//! activated by markers drawn from a cup, fire and saves, assaults,
//! retreats, brigade displays and battle cards, on a hex map.
//!
//! The boxed game's content (its maps, counters, scenarios, card texts,
//! activation tracks, terrain effects chart and save tables) is the
//! publisher's and is not here. A battle is a scenario file
//! ([`scenario`]): an owner transcribes one from his own copy, and orderly
//! ships one original battle of its own, "Tanner's Ford"
//! (`data/brothers-at-war/tanners-ford.toml`), which is not from the box.
//!
//! # Layers
//!
//! `scenario/` is a battle as data and its checks; `core/` is what the
//! game is (hexes, units, the state and its position string); `engine/` is
//! what the rules do, one idea per file, citing the rulebook's numbers
//! (`6.12`) and the readings it leaves open (B1, B2, ... in
//! docs/brothers-at-war-rulings.md); `text/` is how players read and write
//! it by mail. The game is hosted as `brothersatwar`.

pub mod core;
pub mod engine;
pub mod scenario;
pub mod text;

pub use core::state::BrothersAtWar;
