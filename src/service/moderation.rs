//! Moderators unstick games without touching the database: by mail (from a
//! moderator's address, to their own key address `orderly+mod.<key>@host`)
//! and by the command line (`orderly mod ...`), with the same commands.
//! Every action is audited, announced to both players, and written into the
//! game's record as a comment.

use chrono::{DateTime, Datelike, NaiveDate, Utc};

use super::clock::{fresh_deadline, reminders_told_now};
use super::dice::{draw_and_record, revealed};
use super::game::{load, side_name};
use super::identity::{reply_address, seat_secret_generation};
use super::notices::queue_notice;
use super::observers::queue_to_watchers;
use super::ratings::finish;
use super::rebuild::rebuild;
use super::reply::Answer;
use super::update::update_text;
use super::zones::local_time;
use super::{texts, Result, ServiceError};
use crate::config::Config;
use crate::games::{hosted, GameResult, Seat};
use crate::store::{
    result_text, seat_text, EntryKind, GameRow, GameStatus, StoreError, Timestamp, Tx,
};

/// One moderator command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `STALLED`: the games that need a moderator.
    Stalled,
    /// `EXTEND game 2 DAYS` / `EXTEND game 12 HOURS`.
    Extend {
        /// The game.
        game: i64,
        /// Hours added to the deadline.
        hours: i64,
    },
    /// `PAUSE game UNTIL 2026-12-01`: the clock stops; a pause always ends.
    Pause {
        /// The game.
        game: i64,
        /// When it ends (midnight UTC of that day).
        until: DateTime<Utc>,
    },
    /// `RESUME game`.
    Resume {
        /// The game.
        game: i64,
    },
    /// `FORFEIT game BLUE`: that seat loses (the seat in the game's own
    /// words, as in every command here).
    Forfeit {
        /// The game.
        game: i64,
        /// The seat that forfeits.
        seat: Seat,
    },
    /// `ADJUDICATE game <side>|DRAW reason`.
    Adjudicate {
        /// The game.
        game: i64,
        /// The result.
        result: GameResult,
        /// Why.
        reason: String,
    },
    /// `REPLACE game BLUE new@address`: a new player takes the seat, with a
    /// fresh key; the old key stops working.
    Replace {
        /// The game.
        game: i64,
        /// The seat.
        seat: Seat,
        /// The new player's address.
        address: String,
    },
    /// `ROLLBACK game n reason`: the last n orders are undone.
    Rollback {
        /// The game.
        game: i64,
        /// How many orders.
        orders: i64,
        /// The proven error.
        reason: String,
    },
    /// `ACT game BLUE order`: an order entered for a player who asked.
    Act {
        /// The game.
        game: i64,
        /// For whom.
        seat: Seat,
        /// The order line.
        order: String,
    },
    /// `NOTE game text`.
    Note {
        /// The game.
        game: i64,
        /// The note.
        text: String,
    },
}

/// The moderator commands, with the sides each hosted game names.
fn usage() -> String {
    texts::say(
        "moderator.usage",
        minijinja::context! { sides => hosted::listing() },
    )
}

/// A command not understood: what is wrong (`moderator.needs_*`), then
/// the [`usage`].
fn wrong(what: String) -> String {
    texts::say(
        "moderator.wrong",
        minijinja::context! { what => what, usage => usage() },
    )
}

/// Reads one moderator command (any case; a leading `MOD` is allowed).
///
/// A side is written in the words of the game the command names (`BLUE`
/// in SQUARES, `BRITISH` in NAPOLEONIC): `kind_of` gives the stored name of
/// a game by its number. For a game it does not know, a side of any hosted
/// game is read, and carrying the action out says there is no such game.
pub fn parse(
    line: &str,
    kind_of: impl Fn(i64) -> Option<String>,
) -> std::result::Result<Action, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let words = match words.first() {
        Some(w) if w.eq_ignore_ascii_case("MOD") => &words[1..],
        _ => &words[..],
    };
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let game = |i: usize| -> std::result::Result<i64, String> {
        words
            .get(i)
            .and_then(|w| w.trim_start_matches('#').parse().ok())
            .ok_or_else(|| wrong(texts::say("moderator.needs_game", ())))
    };
    let seat = |i: usize| -> std::result::Result<Seat, String> {
        let kind = game(1).ok().and_then(&kind_of);
        let word = words.get(i).copied().unwrap_or_default();
        let found = match &kind {
            Some(kind) => hosted::seat_named(kind, word),
            None => hosted::GAMES
                .iter()
                .find_map(|name| hosted::seat_named(name, word)),
        };
        found.ok_or_else(|| match kind.as_deref().and_then(hosted::seat_words) {
            Some(sides) => wrong(texts::say(
                "moderator.needs_side_of",
                minijinja::context! { sides => sides.split('|').collect::<Vec<_>>() },
            )),
            None => wrong(texts::say("moderator.needs_side", ())),
        })
    };
    let rest = |i: usize| words.get(i..).map(|w| w.join(" ")).unwrap_or_default();
    match upper.first().map(String::as_str) {
        Some("STALLED") => Ok(Action::Stalled),
        Some("EXTEND") => {
            // Bounded before any arithmetic: a year at most.
            let n: i64 = words
                .get(2)
                .and_then(|w| w.parse().ok())
                .filter(|n| (1..=MAX_EXTEND_HOURS).contains(n))
                .ok_or_else(|| {
                    wrong(texts::say(
                        "moderator.needs_duration",
                        minijinja::context! { days => MAX_EXTEND_HOURS / 24 },
                    ))
                })?;
            let hours = match upper.get(3).map(String::as_str) {
                Some("DAY" | "DAYS") | None if n <= MAX_EXTEND_HOURS / 24 => n * 24,
                Some("DAY" | "DAYS") | None => {
                    return Err(wrong(texts::say(
                        "moderator.needs_fewer_days",
                        minijinja::context! { days => MAX_EXTEND_HOURS / 24 },
                    )))
                }
                Some("HOUR" | "HOURS") => n,
                _ => return Err(wrong(texts::say("moderator.needs_unit", ()))),
            };
            Ok(Action::Extend {
                game: game(1)?,
                hours,
            })
        }
        Some("PAUSE") => {
            let date = match (upper.get(2).map(String::as_str), words.get(3)) {
                (Some("UNTIL"), Some(d)) => *d,
                _ => return Err(wrong(texts::say("moderator.needs_until", ()))),
            };
            let day = NaiveDate::parse_from_str(date, "%Y-%m-%d").map_err(|_| {
                texts::say("moderator.not_a_date", minijinja::context! { date => date })
            })?;
            let until = day
                .and_hms_opt(0, 0, 0)
                .map(|t| t.and_utc())
                .ok_or_else(|| {
                    texts::say(
                        "moderator.no_such_day",
                        minijinja::context! { date => date },
                    )
                })?;
            // The day must be reachable by the clock's arithmetic; how far
            // ahead a pause may go is checked against now when it is done.
            if day.year() > 9999 || day.year() < 1970 {
                return Err(texts::say(
                    "moderator.not_this_era",
                    minijinja::context! { date => date },
                ));
            }
            Ok(Action::Pause {
                game: game(1)?,
                until,
            })
        }
        Some("RESUME") => Ok(Action::Resume { game: game(1)? }),
        Some("FORFEIT") => Ok(Action::Forfeit {
            game: game(1)?,
            seat: seat(2)?,
        }),
        Some("ADJUDICATE") => {
            let result = match upper.get(2).map(String::as_str) {
                Some("DRAW") => GameResult::Draw,
                _ => GameResult::Win(seat(2)?),
            };
            let reason = rest(3);
            if reason.is_empty() {
                return Err(wrong(texts::say("moderator.needs_reason", ())));
            }
            Ok(Action::Adjudicate {
                game: game(1)?,
                result,
                reason,
            })
        }
        Some("REPLACE") => {
            let address = words
                .get(3)
                .map(|a| {
                    a.trim_matches(|c| c == '<' || c == '>')
                        .to_ascii_lowercase()
                })
                .filter(|a| a.contains('@'))
                .ok_or_else(|| wrong(texts::say("moderator.needs_address", ())))?;
            Ok(Action::Replace {
                game: game(1)?,
                seat: seat(2)?,
                address,
            })
        }
        Some("ROLLBACK") => {
            let orders: i64 = words
                .get(2)
                .and_then(|w| w.parse().ok())
                .filter(|n| *n > 0)
                .ok_or_else(|| wrong(texts::say("moderator.needs_count", ())))?;
            let reason = rest(3);
            if reason.is_empty() {
                return Err(wrong(texts::say("moderator.needs_why", ())));
            }
            Ok(Action::Rollback {
                game: game(1)?,
                orders,
                reason,
            })
        }
        Some("ACT") => {
            let order = rest(3);
            if order.is_empty() {
                return Err(wrong(texts::say("moderator.needs_order", ())));
            }
            Ok(Action::Act {
                game: game(1)?,
                seat: seat(2)?,
                order,
            })
        }
        Some("NOTE") => {
            let text = rest(2);
            if text.is_empty() {
                return Err(wrong(texts::say("moderator.needs_text", ())));
            }
            Ok(Action::Note {
                game: game(1)?,
                text,
            })
        }
        _ => Err(usage()),
    }
}

/// The game an action is about (none for STALLED).
pub fn game_of(action: &Action) -> Option<i64> {
    match action {
        Action::Stalled => None,
        Action::Extend { game, .. }
        | Action::Pause { game, .. }
        | Action::Resume { game }
        | Action::Forfeit { game, .. }
        | Action::Adjudicate { game, .. }
        | Action::Replace { game, .. }
        | Action::Rollback { game, .. }
        | Action::Act { game, .. }
        | Action::Note { game, .. } => Some(*game),
    }
}

fn game_row(tx: &Tx<'_>, id: i64) -> Result<GameRow> {
    tx.game(id)?
        .ok_or_else(|| ServiceError::Store(StoreError::Corrupt(format!("there is no game {id}"))))
}

/// What a moderator action needs besides the transaction.
pub struct Context<'a> {
    /// The configuration.
    pub config: &'a Config,
    /// The server secret (for new seat keys).
    pub secret: &'a [u8],
    /// The moderator: an address, or `cli:<user>`.
    pub moderator: &'a str,
    /// The time of the action.
    pub now: DateTime<Utc>,
    /// A unique seed for the Message-IDs of the announcements (the mail's
    /// id, or the time for the CLI).
    pub seed: &'a str,
}

/// The longest EXTEND or PAUSE, in hours: a year.
const MAX_EXTEND_HOURS: i64 = 366 * 24;

/// What a moderator's action tells the players of its game: the words
/// (their times written in each reader's own zone, [`Announcement::to`]),
/// and the welcome of a player given a seat (REPLACE).
#[derive(Clone, Debug)]
pub(super) struct Announcement {
    /// The game.
    pub(super) game: i64,
    /// What the moderator did, in the players' words.
    pub(super) words: String,
    /// The seat a new player was given, and his welcome.
    pub(super) welcome: Option<(Seat, String)>,
    /// The player who lost his seat to a new one (REPLACE), and what he
    /// is told.
    pub(super) farewell: Option<(String, String)>,
    /// Whether the action changed the board or ended the game (FORFEIT,
    /// ADJUDICATE, ROLLBACK, ACT): the game's watchers see it too.
    pub(super) board_changed: bool,
}

impl Announcement {
    /// The words for the reader at `address`, times in their zone.
    pub(super) fn to(&self, tx: &Tx<'_>, address: &str) -> Result<String> {
        let (zone, _) = tx.player_settings(address)?;
        Ok(localized(&self.words, &zone))
    }
}

/// Carries out an action in `tx` and tells both players (the command
/// line: one command, one mail to each); returns what was done, in words.
/// A refusal (a finished game, nothing to roll back, an illegal order) is
/// an `Ok` [`Answer::Refused`] and changes nothing.
pub fn execute(tx: &Tx<'_>, cx: &Context<'_>, action: &Action) -> Result<Answer> {
    let mut told = None;
    let answer = carry_out(tx, cx, action, &mut told)?;
    if let Some(announcement) = told {
        announce(tx, cx, &announcement)?;
    }
    Ok(answer)
}

/// Carries out an action in `tx`, as [`execute`], but leaves what it tells
/// the players in `told`: a moderator's mail of several commands tells
/// each player once, everything it did.
pub(super) fn carry_out(
    tx: &Tx<'_>,
    cx: &Context<'_>,
    action: &Action,
    told: &mut Option<Announcement>,
) -> Result<Answer> {
    let at = Timestamp::from(cx.now);
    let mut welcome = None;
    let mut farewell = None;
    let (game_id, outcome) = match action {
        Action::Stalled => {
            let list = tx.stalled(at)?;
            let text = if list.is_empty() {
                texts::say("moderator.nothing_stalled", ())
            } else {
                let mut lines = Vec::new();
                for s in &list {
                    lines.push(texts::say(
                        "moderator.stalled",
                        minijinja::context! { game => s.game, why => stalled_words(tx, cx, s)? },
                    ));
                }
                lines.join("\n")
            };
            return Ok(Answer::Done(text));
        }
        Action::Extend { game, hours } => {
            let row = game_row(tx, *game)?;
            let Some(d) = tx.deadline(*game)? else {
                return Ok(Answer::Refused(texts::say(
                    "moderator.no_deadline",
                    minijinja::context! { game => game },
                )));
            };
            let new = d.at.utc().max(cx.now) + chrono::Duration::hours(*hours);
            tx.set_deadline(*game, Some((d.seat, new.into())))?;
            // The announcement below says the new deadline.
            reminders_told_now(tx, cx.config, *game, cx.now, new)?;
            (
                row.id,
                texts::say(
                    "moderator.extended",
                    minijinja::context! {
                        side => side_name(&row, d.seat),
                        hours => hours,
                        deadline => time_mark(new),
                    },
                ),
            )
        }
        Action::Pause { game, until } => {
            let row = game_row(tx, *game)?;
            if row.status != GameStatus::Active {
                return Ok(Answer::Refused(texts::say(
                    "game.not_active",
                    minijinja::context! { game => game, status => row.status.to_string() },
                )));
            }
            if *until <= cx.now {
                return Ok(Answer::Refused(texts::say(
                    "moderator.pause_in_the_past",
                    (),
                )));
            }
            if *until > cx.now + chrono::Duration::hours(MAX_EXTEND_HOURS) {
                return Ok(Answer::Refused(texts::say(
                    "moderator.pause_too_long",
                    minijinja::context! { days => MAX_EXTEND_HOURS / 24 },
                )));
            }
            let left = tx
                .deadline(*game)?
                .map(|d| (d.at.utc() - cx.now).num_seconds().max(0));
            tx.pause(*game, (*until).into(), left)?;
            (
                row.id,
                texts::say(
                    "moderator.paused",
                    minijinja::context! { until => time_mark(*until) },
                ),
            )
        }
        Action::Resume { game } => {
            let row = game_row(tx, *game)?;
            if tx.paused_until(*game)?.is_none() {
                return Ok(Answer::Refused(texts::say(
                    "moderator.not_paused",
                    minijinja::context! { game => game },
                )));
            }
            resume(tx, cx.now, *game)?;
            (row.id, texts::say("moderator.resumed", ()))
        }
        Action::Forfeit { game, seat } => {
            let row = game_row(tx, *game)?;
            let result = GameResult::Win(seat.other());
            let reason = texts::say(
                "moderator.forfeits",
                minijinja::context! { side => side_name(&row, *seat) },
            );
            match end_game(tx, cx, *game, result, &reason)? {
                Some(refusal) => return Ok(Answer::Refused(refusal)),
                None => (
                    *game,
                    texts::say(
                        "moderator.forfeited",
                        minijinja::context! {
                            reason => reason,
                            winner => side_name(&row, seat.other()),
                        },
                    ),
                ),
            }
        }
        Action::Adjudicate {
            game,
            result,
            reason,
        } => {
            let row = game_row(tx, *game)?;
            match end_game(tx, cx, *game, *result, reason)? {
                Some(refusal) => return Ok(Answer::Refused(refusal)),
                None => (
                    *game,
                    texts::say(
                        "moderator.adjudicated_as",
                        minijinja::context! {
                            winner => match result {
                                GameResult::Win(s) => Some(side_name(&row, *s)),
                                GameResult::Draw => None,
                            },
                            reason => reason,
                        },
                    ),
                ),
            }
        }
        Action::Replace {
            game,
            seat,
            address,
        } => {
            let row = game_row(tx, *game)?;
            if !row.status.is_open() {
                return Ok(Answer::Refused(texts::say(
                    "game.not_active",
                    minijinja::context! { game => game, status => row.status.to_string() },
                )));
            }
            let before = tx
                .seats(*game)?
                .into_iter()
                .find(|r| r.seat == *seat)
                .map(|r| r.address);
            let player = tx.player(address, "", at)?;
            let generation = tx.replace_seat(*game, *seat, player)?;
            // The player who had the seat hears of it, unless it is his
            // own new address.
            farewell = before.filter(|old| old != address).map(|old| {
                let words = texts::wrap(&texts::say(
                    "moderator.farewell",
                    minijinja::context! {
                        side => side_name(&row, *seat),
                        game => game,
                        title => hosted::title(&row.kind).unwrap_or(&row.kind),
                    },
                ));
                (old, words)
            });
            let key = seat_secret_generation(cx.secret, *game, *seat, generation);
            tx.set_secret(*game, *seat, &key)?;
            // The new player's first mail of the game: his welcome, then
            // the announcement every player gets.
            welcome = Some((
                *seat,
                texts::wrap(&texts::say(
                    "moderator.welcome",
                    minijinja::context! {
                        side => side_name(&row, *seat),
                        game => game,
                        title => hosted::title(&row.kind).unwrap_or(&row.kind),
                        address => reply_address(&cx.config.service.address, *game, &key),
                    },
                )),
            ));
            (
                row.id,
                texts::say(
                    "moderator.replaced",
                    minijinja::context! { side => side_name(&row, *seat), address => address },
                ),
            )
        }
        Action::Rollback {
            game,
            orders,
            reason,
        } => {
            let row = game_row(tx, *game)?;
            if row.status != GameStatus::Active {
                return Ok(Answer::Refused(texts::say(
                    "game.not_active",
                    minijinja::context! { game => game, status => row.status.to_string() },
                )));
            }
            let removed = tx.remove_last_orders(*game, *orders)?;
            // The draws among them go too; their numbers are not given again.
            tx.forget_rolled_back_draws(*game)?;
            if removed.is_empty() {
                return Ok(Answer::Refused(texts::say(
                    "moderator.nothing_to_roll_back",
                    minijinja::context! { game => game },
                )));
            }
            replayed(tx, cx, &row)?;
            let mut done = texts::say(
                "moderator.rolled_back",
                minijinja::context! {
                    count => removed.len(),
                    orders => removed,
                    reason => reason,
                },
            );
            for told in redraw(tx, cx, &row)? {
                done.push(' ');
                done.push_str(&told);
            }
            (row.id, done)
        }
        Action::Act { game, seat, order } => {
            let row = game_row(tx, *game)?;
            if row.status != GameStatus::Active {
                return Ok(Answer::Refused(texts::say(
                    "game.not_active",
                    minijinja::context! { game => game, status => row.status.to_string() },
                )));
            }
            match act(tx, cx, &row, *seat, order)? {
                Ok(done) => (row.id, done),
                Err(refusal) => return Ok(Answer::Refused(refusal)),
            }
        }
        Action::Note { game, text } => (
            game_row(tx, *game)?.id,
            texts::say("moderator.note", minijinja::context! { text => text }),
        ),
    };
    // Players see the moderator's address; the audit keeps who really
    // acted (`cli:<user>` on the command line).
    let words = texts::say(
        "moderator.did",
        minijinja::context! { moderator => public_name(cx), outcome => outcome },
    );
    // A moderator's action answers a player's request; the computer's own
    // failure stays listed until the computer has answered (its seat's
    // ACT plays on, computer.rs).
    tx.clear_disputed_unless(game_id, &texts::say("game.computer_failed_request", ()))?;
    let in_utc = localized(&words, "UTC");
    tx.add_entry(
        game_id,
        EntryKind::Comment,
        None,
        &in_utc,
        "",
        None,
        at,
        &[],
    )?;
    tx.audit(
        Some(game_id),
        cx.moderator,
        &format!("{action:?}"),
        &localized(&outcome, "UTC"),
        at,
    )?;
    let board_changed = matches!(
        action,
        Action::Forfeit { .. }
            | Action::Adjudicate { .. }
            | Action::Rollback { .. }
            | Action::Act { .. }
    );
    *told = Some(Announcement {
        game: game_id,
        words,
        welcome,
        farewell,
        board_changed,
    });
    let zone = moderator_zone(tx, cx)?;
    let done = texts::say(
        "moderator.done",
        minijinja::context! { game => game_id, outcome => outcome },
    );
    Ok(Answer::Done(localized(&done, &zone)))
}

/// The name players read for the moderator: their address; for the
/// command line, the first configured moderator, else the service's own
/// address.
fn public_name(cx: &Context<'_>) -> String {
    match cx.moderator.strip_prefix("cli:") {
        None => cx.moderator.to_string(),
        Some(_) => cx
            .config
            .moderators
            .addresses
            .first()
            .cloned()
            .unwrap_or_else(|| cx.config.service.address.clone()),
    }
}

/// A time inside an announcement, written out later in each reader's own
/// time zone by [`localized`].
fn time_mark(at: DateTime<Utc>) -> String {
    format!("\u{1}{}\u{2}", Timestamp::from(at))
}

/// `text` with every [`time_mark`] written as a local time in `zone`.
fn localized(text: &str, zone: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('\u{1}') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('\u{2}') {
            Some(end) => {
                let mark = &after[..end];
                match mark.parse::<Timestamp>() {
                    Ok(at) => out.push_str(&local_time(at.utc(), zone)),
                    Err(_) => out.push_str(mark),
                }
                rest = &after[end + 1..];
            }
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// After a rollback: the cached position replayed from the entries left,
/// no held orders, and a fresh deadline for the decision now pending.
fn replayed(tx: &Tx<'_>, cx: &Context<'_>, row: &GameRow) -> Result<()> {
    let recorder = rebuild(tx, row, cx.config.address_parts().1)?;
    let mut state = recorder.game().clone_box();
    // Rolled back to the computer's decision: it answers at once, with the
    // draws its orders call for (P22). A game rolled back to a draw waits
    // for `redraw`, which draws it, says so, and comes back here.
    if state.chance().is_none() {
        let writer = last_writer(tx, row.id)?;
        super::computer::answers_and_draws(
            tx,
            cx.config,
            row,
            state.as_mut(),
            writer,
            cx.seed,
            cx.now.into(),
        )?;
    }
    let count = tx.entry_count(row.id)?;
    tx.set_position(row.id, &state.position(), count, cx.now.into())?;
    for seat in Seat::BOTH {
        tx.set_held(row.id, seat, &[])?;
    }
    fresh_deadline(tx, cx.config, row.id, state.as_ref(), cx.now)
}

/// The seat of the last order left in the game's record (North when none
/// is): a draw after a rollback mixes in the other seat's mail.
fn last_writer(tx: &Tx<'_>, game: i64) -> Result<Seat> {
    Ok(tx
        .entries(game)?
        .iter()
        .rev()
        .find_map(|e| e.seat)
        .unwrap_or(Seat::North))
}

/// A game rolled back to where it waits for a draw of chance draws again
/// at once, under a new number (a number is never given twice, so the
/// record shows the one rolled back as skipped: docs/dice.md); returns the
/// draws in words. A game without chance never waits for one.
fn redraw(tx: &Tx<'_>, cx: &Context<'_>, row: &GameRow) -> Result<Vec<String>> {
    let mut state = rebuild(tx, row, cx.config.address_parts().1)?
        .game()
        .clone_box();
    if state.chance().is_none() {
        return Ok(Vec::new());
    }
    // The draw follows the last order left, whoever gave it.
    let seat = last_writer(tx, row.id)?;
    let at = Timestamp::from(cx.now);
    let drawn = draw_and_record(tx, state.as_mut(), row, seat, cx.seed, at)?;
    replayed(tx, cx, row)?;
    if let Some(outcome) = state.outcome() {
        finish(tx, cx.config, row.id, outcome.result, &outcome.reason, at)?;
    }
    Ok(drawn
        .into_iter()
        .filter(|h| h.data.is_null())
        .map(|h| h.text)
        .collect())
}

/// `ACT`: the order applied for `seat` as if the player had sent it.
/// `Ok(Err(refusal))` when the game does not wait for that seat or the
/// order is not legal; nothing is changed then.
fn act(
    tx: &Tx<'_>,
    cx: &Context<'_>,
    row: &GameRow,
    seat: Seat,
    order: &str,
) -> Result<std::result::Result<String, String>> {
    let (game, at) = (row.id, Timestamp::from(cx.now));
    let mut state = rebuild(tx, row, cx.config.address_parts().1)?
        .game()
        .clone_box();
    match state.pending() {
        Some(p) if p.seat == seat => {}
        _ => {
            return Ok(Err(texts::say(
                "moderator.not_waiting_for",
                minijinja::context! { game => game, side => side_name(row, seat) },
            )))
        }
    }
    let parsed = match state.read_order(order) {
        Ok(o) => o,
        Err(r) => {
            return Ok(Err(texts::say(
                "moderator.order_refused",
                minijinja::context! { why => r.to_string() },
            )))
        }
    };
    let (parsed, happened) = match state.apply_canonical(&parsed) {
        Ok(applied) => applied,
        Err(e) => {
            return Ok(Err(texts::say(
                "moderator.order_refused",
                minijinja::context! { why => e.problem },
            )))
        }
    };
    tx.add_entry(
        game,
        EntryKind::Order,
        Some(seat),
        &parsed,
        &texts::say("moderator.act_line", minijinja::context! { order => order }),
        None,
        at,
        &happened,
    )?;
    // A draw the order leaves the game waiting for is made at once, as
    // after a player's order (docs/dice.md).
    let drawn = draw_and_record(tx, state.as_mut(), row, seat, cx.seed, at)?;
    // In a game against the computer, its answer, at once, with the draws
    // its own orders call for (P22).
    let answered =
        super::computer::answers_and_draws(tx, cx.config, row, state.as_mut(), seat, cx.seed, at)?;
    let count = tx.entry_count(game)?;
    tx.set_position(game, &state.position(), count, at)?;
    fresh_deadline(tx, cx.config, game, state.as_ref(), cx.now)?;
    if let Some(outcome) = state.outcome() {
        finish(tx, cx.config, game, outcome.result, &outcome.reason, at)?;
    }
    let mut acted = texts::say(
        "moderator.acted",
        minijinja::context! { order => parsed, side => side_name(row, seat) },
    );
    // The draws' own sentences, which carry no game data, beside the
    // game's events.
    for told in drawn.iter().filter(|h| h.data.is_null()) {
        acted.push(' ');
        acted.push_str(&told.text);
    }
    for told in &answered {
        acted.push(' ');
        acted.push_str(&told.text);
    }
    Ok(Ok(acted))
}

/// Ends a game by a moderator's decision; `Some(refusal)` when it cannot.
fn end_game(
    tx: &Tx<'_>,
    cx: &Context<'_>,
    game: i64,
    result: GameResult,
    reason: &str,
) -> Result<Option<String>> {
    let row = game_row(tx, game)?;
    if !row.status.is_open() {
        return Ok(Some(texts::say(
            "game.not_active",
            minijinja::context! { game => game, status => row.status.to_string() },
        )));
    }
    let at = Timestamp::from(cx.now);
    tx.add_entry(
        game,
        EntryKind::Adjudicate,
        None,
        result_text(result),
        reason,
        None,
        at,
        &[],
    )?;
    finish(
        tx,
        cx.config,
        game,
        result,
        &texts::say(
            "moderator.adjudicated",
            minijinja::context! { reason => reason },
        ),
        at,
    )?;
    Ok(None)
}

/// Why a game needs a moderator, in words, times in the moderator's zone.
fn stalled_words(tx: &Tx<'_>, cx: &Context<'_>, s: &crate::store::Stalled) -> Result<String> {
    let zone = moderator_zone(tx, cx)?;
    let row = game_row(tx, s.game)?;
    let side = |seat| side_name(&row, seat);
    Ok(if let Some(request) = &s.disputed {
        texts::say(
            "moderator.stalled_disputed",
            minijinja::context! { request => request },
        )
    } else if s.undeliverable {
        texts::say("moderator.stalled_undeliverable", ())
    } else if s.adjourned {
        texts::say("moderator.stalled_adjourned", ())
    } else if let (true, Some((seat, _))) = (s.timed_out, &s.deadline) {
        texts::say(
            "moderator.stalled_timed_out",
            minijinja::context! { side => side(*seat) },
        )
    } else if let Some(until) = &s.paused_until {
        texts::say(
            "moderator.stalled_paused",
            minijinja::context! { until => local_time(until.utc(), &zone) },
        )
    } else if let Some((seat, at)) = &s.deadline {
        texts::say(
            "moderator.stalled_late",
            minijinja::context! { side => side(*seat), deadline => local_time(at.utc(), &zone) },
        )
    } else {
        texts::say("moderator.stalled_other", ())
    })
}

/// The time zone a moderator reads times in: their own (SET TIMEZONE from
/// their address), else UTC.
fn moderator_zone(tx: &Tx<'_>, cx: &Context<'_>) -> Result<String> {
    let address = cx.moderator.strip_prefix("cli:").unwrap_or(cx.moderator);
    if address.contains('@') {
        Ok(tx.player_settings(address)?.0)
    } else {
        Ok("UTC".to_string())
    }
}

/// Ends a pause: the deadline gets back the time it had left.
pub fn resume(tx: &Tx<'_>, now: DateTime<Utc>, game: i64) -> Result<()> {
    let left = tx.unpause(game)?;
    if let (Some(left), Some(d)) = (left, tx.deadline(game)?) {
        let mut at = now + chrono::Duration::seconds(left);
        // A seat on vacation keeps the deadline its vacation gave it: a
        // resume never brings a deadline into a vacation.
        if let Some(seat) = tx.seats(game)?.into_iter().find(|s| s.seat == d.seat) {
            if tx.on_vacation(seat.player_id, now.into())?.is_some() {
                at = at.max(d.at.utc());
            }
        }
        tx.set_deadline(game, Some((d.seat, at.into())))?;
        // A clock bank pays for the time its seat had, never the pause:
        // the decision's start moves with its deadline.
        if let Some((kind, since)) = tx.deadline_start(game)? {
            let since = since.utc() + (at - d.at.utc());
            tx.set_deadline_start(game, &kind, since.into())?;
        }
    }
    Ok(())
}

/// Tells both players what a moderator did, with the game as it now stands
/// (a new player's welcome first, in his mail).
fn announce(tx: &Tx<'_>, cx: &Context<'_>, told: &Announcement) -> Result<()> {
    let game = told.game;
    let row = game_row(tx, game)?;
    let row = &row;
    let state = match load(row) {
        Some(s) => s,
        None => rebuild(tx, row, cx.config.address_parts().1)?
            .game()
            .clone_box(),
    };
    // The mail that ends a game carries its whole record.
    let record = if row.status == GameStatus::Finished {
        let site = cx.config.address_parts().1;
        let record = rebuild(tx, row, site)?.into_record().to_string();
        // A game with chance reveals its seed in its last mails.
        let seed = match revealed(tx, row)? {
            Some(words) => format!("{}\n\n", texts::wrap(&words).trim_end()),
            None => String::new(),
        };
        format!("\n{seed}{}\n\n{record}", texts::say("update.record", ()))
    } else {
        String::new()
    };
    for seat in tx.seats(game)? {
        let update = update_text(tx, row, state.as_ref(), seat.seat, &[])?;
        let words = told.to(tx, &seat.address)?;
        let welcome = match &told.welcome {
            Some((s, text)) if *s == seat.seat => format!("{}\n", text.trim_end()),
            _ => String::new(),
        };
        let body = format!("{welcome}{}\n{update}{record}", texts::wrap(&words));
        let seed = format!(
            "{}/mod/{game}/{}/{}",
            cx.seed,
            seat_text(seat.seat),
            tx.entry_count(game)?
        );
        queue_notice(
            tx,
            cx.config,
            row,
            &seat.address,
            Some((game, seat.seat)),
            body,
            &seed,
            cx.now,
        )?;
    }
    if let Some((old, words)) = &told.farewell {
        let seed = format!("{}/mod/{game}/farewell/{}", cx.seed, tx.entry_count(game)?);
        queue_notice(tx, cx.config, row, old, None, words.clone(), &seed, cx.now)?;
    }
    if told.board_changed {
        let seed = format!("{}/mod", cx.seed);
        queue_to_watchers(tx, cx.config, row, state.as_ref(), &[], &seed, cx.now)?;
    }
    if told.board_changed && row.status == GameStatus::Finished {
        // A Play of the Day ended by a moderator: its members' last mail.
        super::daily::after_moderator_ended(tx, cx.config, cx.secret, row, state.as_ref(), cx.now)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{parse, Action};
    use crate::games::{GameResult, Seat};

    #[test]
    fn commands_are_read_with_their_arguments() {
        let squares = |_| Some("squares".to_string());
        assert_eq!(parse("stalled", squares), Ok(Action::Stalled));
        assert_eq!(
            parse("MOD extend 4 2 days", squares),
            Ok(Action::Extend { game: 4, hours: 48 })
        );
        assert_eq!(
            parse("extend 4 5 hours", squares),
            Ok(Action::Extend { game: 4, hours: 5 })
        );
        assert!(matches!(
            parse("pause 4 until 2026-12-01", squares),
            Ok(Action::Pause { game: 4, .. })
        ));
        assert_eq!(
            parse("forfeit 4 gray", squares),
            Ok(Action::Forfeit {
                game: 4,
                seat: Seat::South
            })
        );
        assert!(matches!(
            parse("adjudicate 4 draw both agreed by phone", squares),
            Ok(Action::Adjudicate {
                result: GameResult::Draw,
                ..
            })
        ));
        assert!(matches!(
            parse("rollback 4 1 misread order", squares),
            Ok(Action::Rollback { orders: 1, .. })
        ));
        assert!(matches!(
            parse("act 4 blue MOVE G2CR G1C", squares),
            Ok(Action::Act { .. })
        ));
        assert!(
            parse("adjudicate 4 blue", squares).is_err(),
            "a reason is needed"
        );
        assert!(parse("pause 4 until tomorrow", squares).is_err());
        assert!(parse("explode 4", squares).is_err());
    }

    #[test]
    fn sides_are_read_in_the_words_of_the_game_named() {
        let kind_of = |game: i64| match game {
            4 => Some("squares".to_string()),
            5 => Some("napoleonic".to_string()),
            _ => None,
        };
        assert_eq!(
            parse("forfeit 5 French", kind_of),
            Ok(Action::Forfeit {
                game: 5,
                seat: Seat::South
            })
        );
        assert!(matches!(
            parse("act 5 british MOVE GUARD BR B3C", kind_of),
            Ok(Action::Act {
                seat: Seat::North,
                ..
            })
        ));
        let refused = parse("replace 5 gray carol@example.org", kind_of).unwrap_err();
        assert!(
            refused.starts_with("BRITISH or FRENCH is needed"),
            "{refused}"
        );
        let refused = parse("forfeit 4 british", kind_of).unwrap_err();
        assert!(refused.starts_with("BLUE or GRAY is needed"), "{refused}");
        assert!(
            refused.contains("SQUARES (BLUE|GRAY), NAPOLEONIC (BRITISH|FRENCH)"),
            "{refused}"
        );
        // A game not found: any hosted side is read; carrying the action
        // out says there is no such game.
        assert!(parse("forfeit 9 french", kind_of).is_ok());
        assert!(parse("forfeit 9 purple", kind_of).is_err());
    }
}
