//! What a SQUARES game is, as data: the board, sides and units, which game
//! is played, orders, events, an attack in progress and the state. Nothing
//! here knows a rule or a word: the engine (`../engine/`) and the text
//! (`../text/`) build on it, never the other way round.

pub mod unit;

pub mod board;

pub mod variant;

pub mod flow;

pub mod order;

pub mod event;

pub mod attack;

pub mod state;
