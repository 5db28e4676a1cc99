//! A battle as data: the scenario file format (docs/brothers-at-war-scenarios.md).
//!
//! The boxed game prints its maps, counters, charts and cards; orderly
//! ships none of them. An owner transcribes a scenario of his copy into a
//! file of this format, checks it with `orderly scenario check FILE`, and
//! plays it. [`model`] is the file's shape as read (serde, TOML).

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
