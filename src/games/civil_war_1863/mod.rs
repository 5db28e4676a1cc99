//! The Parker Brothers Civil War Game 1863 (1961): an 18 x 18 board of
//! land, sea, navigable rivers, mountains with passes and railroads, on
//! which the Union (North, moving second) and the Confederacy (South,
//! moving first) fight for key cities and capitals.
//!
//! The printed board of the Parker Brothers Civil War Game 1863 has never
//! been published. The board used here is a reconstruction from the public
//! geography of 1863, not a copy of the printed board; an owner of the game
//! can replace it with a transcription of theirs
//! (`data/civil-war-1863-board.txt`; `docs/civil-war-1863-board.md` says
//! how). The same statement, word for word, is
//! [`core::board::RECONSTRUCTION_NOTE`].
//!
//! Only the core (the board as data) is written so far; the engine and the
//! text come next, and the game is not yet hosted.

pub mod core;
