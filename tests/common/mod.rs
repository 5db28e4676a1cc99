//! Helpers shared by the integration tests, one file an idea: the seeded
//! generator every test and benchmark draws from ([`rng`]), the seeded
//! player of the games played by mail ([`player`]), what the SQUARES tests
//! know of positions without the engine ([`squares`]), the service on one
//! machine of the service tests, its Maildir and the mails it sent
//! ([`site`]), and the private mail servers of the end-to-end tests
//! ([`mailstack`]).
//!
//! Each test binary includes this folder with `#[path = "../common/mod.rs"]
//! mod common;` and uses only part of it, hence `dead_code` allowed.
#![allow(dead_code)]
pub mod brothers_at_war_decks;
pub mod brothersatwar;
pub mod mailstack;
pub mod player;
pub mod rng;
pub mod site;
pub mod squares;
