//! The update: a game's state for one seat (what happened, the board from
//! that seat, the choices or whom the game waits for, the deadline, the
//! answers given in advance), as every mail about a game carries it.

use super::in_advance::AnswerInAdvance;
use super::work::Work;
use super::zones::local_time;
use super::{texts, Result};
use crate::games::{AnyGame, BoardStyle, GameResult, Happened, Seat};
use crate::store::{GameRow, Tx};

impl Work<'_> {
    /// The update for `seat`, read in this mail's transaction; one that cannot
    /// be read is left out rather than failing the mail.
    pub(super) fn update_text(
        &self,
        game: &GameRow,
        state: &dyn AnyGame,
        seat: Seat,
        happened: &[Happened],
    ) -> String {
        update_text(self.tx, game, state, seat, happened).unwrap_or_default()
    }
}

/// The update text for one seat: what happened, the board from that seat,
/// and the choices or whom the game waits for.
pub fn update_text(
    tx: &Tx<'_>,
    game: &GameRow,
    state: &dyn AnyGame,
    seat: Seat,
    happened: &[Happened],
) -> Result<String> {
    update_text_keyed(
        tx,
        game,
        state,
        seat,
        happened,
        BoardWanted::for_seat(tx, game, seat)?,
        &[],
    )
}

/// How an update draws its board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardWanted {
    /// With the key to its marks.
    pub key: bool,
    /// The whole map, not a window around the action (`BOARD ALL`; games
    /// whose board is always whole ignore it).
    pub whole_map: bool,
}

impl BoardWanted {
    /// The board a mail about `game` carries: the key to its marks with a
    /// game's first board only (HELP BOARD sends it again), the map as the
    /// game draws it. What observers get; a player's is [`Self::for_seat`].
    pub fn usual(game: &GameRow) -> BoardWanted {
        BoardWanted {
            key: game.order_count == 0,
            whole_map: false,
        }
    }

    /// The board a mail to `seat` carries: the key with the game's first
    /// board, and against the computer with the player's boards until
    /// their first order. Two humans both get the first board before any
    /// order; a player against the computer moving first gets theirs
    /// after its orders, and must still learn the marks before deciding.
    pub fn for_seat(tx: &Tx<'_>, game: &GameRow, seat: Seat) -> Result<BoardWanted> {
        let first_against_computer =
            game.computer_level.is_some() && !tx.has_ordered(game.id, seat)?;
        Ok(BoardWanted {
            key: game.order_count == 0 || first_against_computer,
            whole_map: false,
        })
    }
}

/// [`update_text`], with the board drawn as `board` says.
pub fn update_text_keyed(
    tx: &Tx<'_>,
    game: &GameRow,
    state: &dyn AnyGame,
    seat: Seat,
    happened: &[Happened],
    board: BoardWanted,
    already_told: &[String],
) -> Result<String> {
    let seats = tx.seats(game.id)?;
    let name = |s: Seat| {
        seats
            .iter()
            .find(|r| r.seat == s)
            .map(|r| super::computer::seat_label(game, r))
            .unwrap_or_default()
    };
    let pending = state.pending();
    let result = result_words(game, state);
    let draw_offer = match game.draw_offer {
        Some(s) if s != seat && result.is_none() => Some(texts::say(
            "update.draw_offer",
            minijinja::context! { side => state.seat_name(s) },
        )),
        _ => None,
    };
    let address = seats
        .iter()
        .find(|r| r.seat == seat)
        .map(|r| r.address.clone())
        .unwrap_or_default();
    let (zone, _) = tx.player_settings(&address)?;
    let deadline = clock_line(tx, game, state, Some(seat), &zone)?;
    // What this seat answered in advance: only its own, never the other's.
    let answers: Vec<String> =
        serde_json::from_str::<Vec<AnswerInAdvance>>(&tx.conditions(game.id, seat)?)
            .unwrap_or_default()
            .into_iter()
            .map(|a| a.written)
            .collect();
    // A rated game's end: each player's rating before and after.
    let ratings = super::ratings::changes_told(tx, game)?;
    let text = texts::render(
        "update",
        minijinja::context! {
            ratings => ratings,
            answers => answers,
            deadline => deadline,
            game => game.id,
            title => state.title(),
            north_side => state.seat_name(Seat::North),
            north_name => name(Seat::North),
            south_side => state.seat_name(Seat::South),
            south_name => name(Seat::South),
            you => state.seat_name(seat),
            happened => untold(&happened.iter().map(|h| state.event_text(h, seat)).collect::<Vec<_>>(), already_told).iter().map(|h| texts::wrap(&format!("  {h}")).trim_end().to_string()).collect::<Vec<_>>(),
            board => state.draw_board(seat, happened, &BoardStyle {
                without_key: !board.key,
                whole_map: board.whole_map,
                // A result the rules did not reach (a resignation, a draw
                // agreed, a moderator's ruling) replaces whose move it is.
                ended: result.clone().filter(|_| state.outcome().is_none()),
                // "What happened" tells the last action once.
                without_last: !happened.is_empty(),
                observer: false,
            }),
            result => result,
            yours => pending.as_ref().is_some_and(|p| p.seat == seat),
            // Only the seat to decide sees its choices (templates/update.txt),
            // and listing them walks every legal order: not for the other.
            choices => if result.is_none() && pending.as_ref().is_some_and(|p| p.seat == seat) {
                state.choices(seat)
            } else {
                String::new()
            },
            waiting => pending.as_ref().map(|p| texts::say("update.pending", minijinja::context! { side => state.seat_name(p.seat), decision => p.kind.to_string() })).unwrap_or_default(),
            draw_offer => draw_offer,
        },
    );
    Ok(texts::wrap(&text))
}

/// How the game ended, in words, once it has: the stored result (which a
/// resignation, a draw agreed or a ruling set), or the rules' own ending.
pub(super) fn result_words(game: &GameRow, state: &dyn AnyGame) -> Option<String> {
    match (game.result, state.outcome()) {
        (Some(r), _) => Some(texts::say(
            "update.result",
            minijinja::context! {
                winner => match r {
                    GameResult::Draw => None,
                    GameResult::Win(winner) => Some(state.seat_name(winner)),
                },
                ended => game.termination,
            },
        )),
        (None, Some(o)) => Some(o.reason),
        _ => None,
    }
}

/// The events of `happened` in words, less those the reader was already
/// told in this mail (each told event hides one equal event).
fn untold<E: std::fmt::Display>(happened: &[E], already_told: &[String]) -> Vec<String> {
    let mut told: Vec<&str> = already_told.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for event in happened {
        let text = event.to_string();
        match told.iter().position(|t| *t == text) {
            Some(i) => {
                told.swap_remove(i);
            }
            None => out.push(text),
        }
    }
    out
}

/// The game's clock as the reader of a board mail sees it: whom it waits
/// for and by when (`yours` when the reader is that seat), or until when the
/// moderators paused it (a paused clock stands still: no deadline before the
/// pause ends is announced), in the reader's `zone`; none when nothing is
/// due.
pub(super) fn clock_line(
    tx: &Tx<'_>,
    game: &GameRow,
    state: &dyn AnyGame,
    reader: Option<Seat>,
    zone: &str,
) -> Result<Option<String>> {
    Ok(match (tx.paused_until(game.id)?, tx.deadline(game.id)?) {
        (Some(until), _) => Some(texts::say(
            "update.paused",
            minijinja::context! { until => local_time(until.utc(), zone) },
        )),
        (None, Some(d)) => Some(texts::say(
            "update.deadline",
            minijinja::context! {
                yours => Some(d.seat) == reader,
                side => state.seat_name(d.seat),
                deadline => local_time(d.at.utc(), zone),
            },
        )),
        (None, None) => None,
    })
}
