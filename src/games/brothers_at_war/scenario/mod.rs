//! A battle as data: the scenario file format (docs/brothers-at-war-scenarios.md).
//!
//! The boxed game prints its maps, counters, charts and cards; orderly
//! ships none of them. An owner transcribes a scenario of his copy into a
//! file of this format, checks it with `orderly scenario check FILE`, and
//! plays it. [`model`] is the file's shape as read (serde, TOML);
//! [`read`] reads a file's text into it; [`check()`] finds every problem
//! ([`forces`] and [`cards`] for the order of battle and the deck, the map
//! through `core::BattleMap`), each located by a [`field::Field`] and
//! turned into a line of the file by [`lines`].

pub mod cards;
pub mod check;
#[cfg(test)]
mod check_tests;
pub mod field;
pub mod findings;
pub mod forces;
pub mod lines;
pub mod model;
pub mod problem;
pub mod read;
pub mod registry;

pub use check::{check, load, Checked};
pub use model::Scenario;
pub use problem::Problem;
