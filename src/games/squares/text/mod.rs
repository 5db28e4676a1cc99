//! How a SQUARES game is written and read: every text is in a notation
//! passed explicitly (the game's own, from its [`Variant`](super::Variant)),
//! never one set on the thread. It builds on the core and the engine and
//! changes neither.

pub mod notation;

pub mod order;

pub mod event;

pub mod refusal;

pub mod ending;

pub mod position;

pub mod suggest;

pub mod reader;

pub mod conditions;

pub mod drawing;

pub mod picture;

pub mod choices;

pub mod rules_text;
