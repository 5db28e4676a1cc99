//! What the game is, as data.

pub mod hex;
pub mod line;

pub use hex::Hex;
