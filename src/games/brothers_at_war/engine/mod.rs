//! What the rules do, one idea per file, citing the rulebook's numbers.

pub mod fire_math;
pub mod sight;
