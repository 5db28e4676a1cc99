//! What the game is, as data.

pub mod hex;
pub mod line;
pub mod map;

pub use hex::Hex;
pub use map::BattleMap;
