//! What the Civil War Game 1863 is, as data: squares, sides and kinds of
//! piece, terrain, and the board read from its file. Nothing here knows a
//! rule beyond what the board must say for the rules to be decided.

pub mod square;

pub mod side;

pub mod terrain;

pub mod features;

pub mod board;

pub mod board_file;
