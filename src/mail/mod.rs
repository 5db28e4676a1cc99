//! Mail in and out, knowing nothing of any game's rules: reading incoming
//! messages (`intake`), the Maildir they arrive in (`maildir`), and composing
//! and sending outgoing ones (`outgoing`).

pub mod intake;
pub mod maildir;
pub mod outgoing;
