//! orderly: a play-by-email service for two-player board wargames.
//!
//! The rules engines live in [`games`], behind the [`games::Game`] trait; the
//! `orderly engine` line tool is in [`engine_tool`].

#![warn(missing_docs)]

pub mod bot;
pub mod clock;
pub mod config;
pub mod engine_tool;
pub mod games;
pub mod mail;
pub mod picture;
pub mod private;
pub mod ratings;
pub mod record;
pub mod replay_tool;
pub mod service;
pub mod store;
