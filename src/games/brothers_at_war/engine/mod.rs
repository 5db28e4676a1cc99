//! What the rules do: the turn sequence, recovery, activation, movement,
//! sight lines, fire, assault, retreats and reserves, one idea per file,
//! each citing the rulebook's numbers.

pub mod activation;
pub mod apply;
pub mod asking;
pub mod assault;
pub mod battery;
pub mod card_attacks;
pub mod card_skirmishers;
pub mod cards;
pub mod cleanup;
pub mod display;
pub mod fire;
pub mod fire_math;
pub mod game;
pub mod ground;
pub mod holding;
pub mod legal;
pub mod movement;
pub mod near;
pub mod reactions;
pub mod recovery;
pub mod refusal;
pub mod reserves;
pub mod retreat;
pub mod sequence;
pub mod sight;
pub mod volley;

pub use game::Decision;
pub use refusal::Refusal;
