//! What the rules of SQUARES do: each unit type's rules as data, the legal
//! orders, the bookkeeping of every action, retreats, attacks and their
//! options, applying an order, and why one is refused. It reads and
//! changes the core's state; it writes no text (`../text/` does).

pub mod rules;

pub mod movegen;

pub mod turn;

pub mod retreat;

pub mod options;

pub mod attack;

pub mod apply;

pub mod refusal;
