//! What the rules of the Civil War Game 1863 do, one idea per file, each
//! citing its rulings: movement (P1-P14), rail rides and cuts (P15-P17),
//! battles (P18-P25), key cities and capitals (P26-P30), fortification
//! (P31-P33), the turn and the end (P7-P9, P34, P35), the legal orders,
//! applying an order, and why one is refused. It writes no text.

pub mod refusal;

pub mod movement;

pub mod rail;

pub mod battle;

pub mod cities;

pub mod fortify;

pub mod turn;

pub mod legal;

pub mod apply;
