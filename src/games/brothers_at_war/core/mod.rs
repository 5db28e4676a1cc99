//! What the game is, as data.

pub mod battle;
pub mod combat;
pub mod compact;
pub mod event;
pub mod formation;
pub mod hex;
pub mod ids;
pub mod instructions;
pub mod line;
pub mod map;
pub mod order;
pub mod position;
pub mod question;
pub mod side;
pub mod state;

pub use hex::Hex;
pub use map::BattleMap;
pub use state::BrothersAtWar;
