//! A stored game as the service sees it: which hosted game it is, its
//! sides' names, its cached state and what it waits for, and how its
//! ending is worded.

use super::ServiceError;
use crate::games::hosted::{self, Hosted};
use crate::games::{AnyGame, Pending, Seat};
use crate::store::{seat_text, GameRow, StoreError, Tx};

/// The error for a stored game of a name this orderly does not host (a
/// database written by a newer orderly, or edited by hand): nothing can be
/// done with it, and the mail at hand is retried once that is mended.
pub(crate) fn unhosted(game: i64, kind: &str) -> ServiceError {
    ServiceError::Store(StoreError::Corrupt(format!(
        "game {game} is of {kind:?}, which this orderly does not host ({})",
        hosted::GAMES.join(", ")
    )))
}

/// A stored game's own name for a seat ("Gray", "French"). The stored seat
/// word for a game this orderly does not host, so that a notice about it
/// (a bounce, a deadline) still goes out.
pub(crate) fn side_name(game: &GameRow, seat: Seat) -> &'static str {
    hosted::seat_name(&game.kind, seat).unwrap_or(seat_text(seat))
}

/// The stored name of game `id`, if there is such a game (what a moderator
/// command's side words are read against).
pub(super) fn kind_of(tx: &Tx<'_>, id: i64) -> Option<String> {
    tx.game(id).ok().flatten().map(|g| g.kind)
}

/// The hosted game a stored game is, or the error for a game this orderly
/// does not host.
pub(crate) fn hosted_of(game: &GameRow) -> Result<&'static Hosted, ServiceError> {
    hosted::find(&game.kind).ok_or_else(|| unhosted(game.id, &game.kind))
}

/// The decision an active stored game waits for, from its cached position.
pub(crate) fn pending_of(game: &GameRow) -> Option<Pending<String>> {
    load(game)?.pending()
}

/// The game's cached state, if it reads.
pub(crate) fn load(game: &GameRow) -> Option<Box<dyn AnyGame>> {
    let hosted = hosted::find(&game.kind)?;
    (hosted.from_position)(game.position.as_deref()?).ok()
}
