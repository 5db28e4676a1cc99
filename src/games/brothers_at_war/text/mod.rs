//! How players read and write Brothers at War by mail.

pub mod hexmap;
