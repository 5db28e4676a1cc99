//! What the game is, as data.

pub mod hex;

pub use hex::Hex;
