//! What the rules do: the turn sequence, recovery, activation, movement,
//! sight lines and fire arithmetic, one idea per file, each citing the
//! rulebook's numbers.

pub mod activation;
pub mod apply;
pub mod cleanup;
pub mod display;
pub mod fire_math;
pub mod game;
pub mod ground;
pub mod legal;
pub mod movement;
pub mod near;
pub mod recovery;
pub mod refusal;
pub mod sequence;
pub mod sight;

pub use game::Decision;
pub use refusal::Refusal;
