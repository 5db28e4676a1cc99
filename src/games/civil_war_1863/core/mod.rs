//! What the Civil War Game 1863 is, as data: squares, sides and kinds of
//! piece, terrain, the board read from its file, and the game's own state:
//! stacks, orders, events, the flow of play and the position string.
//! Nothing here knows a rule beyond what the board must say for the rules
//! to be decided; the rules are the engine's (`../engine/`).

pub mod square;

pub mod side;

pub mod terrain;

pub mod features;

pub mod board;

pub mod board_file;

pub mod stack;

pub mod board_stacks;

pub mod flow;

pub mod order;

pub mod path;

pub mod event;

pub mod state;

pub mod position;
