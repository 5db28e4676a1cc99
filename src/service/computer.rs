//! The computer opponent by mail (`NEW SQUARES VS COMPUTER [LEVEL n]`,
//! docs/computer-opponent.md): its seat is an ordinary seat whose player is
//! the reserved address of `[computer] address`, and the game keeps its
//! level (`games.computer_level`, migration 0017). Whenever the computer's
//! seat is to decide, the service plays [`crate::bot::order_for`]'s order
//! through the same path a player's order takes (`submit`, recorded as an
//! entry of the computer's seat), in the transaction of the mail that
//! made it the computer's turn, so that the reply shows the board after
//! its answer. No mail ever goes to the computer's address (`compose.rs`,
//! `notices.rs`), and it never has a deadline (`clock.rs`).
//!
//! The search is the one thing a short mail can make orderly spend
//! seconds of a core on, so it is counted, in playouts, per player and in
//! all ([`thinking_allowed`], `[computer] thinking_per_player_hour` and
//! `thinking_per_hour`). When the hour's budget is spent the computer
//! stops before a decision of its own turn (never inside an attack or a
//! question the person waits on), the reply says when it will answer, and
//! the game is marked owed: the sweep ([`answer_owed`]) plays on, oldest
//! game first, once the budget allows, and mails the person the board.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::dice::draw_and_record;
use super::notices::notify_game;
use super::ratings::is_computer;
use super::work::Work;
use super::{texts, Result};
use crate::bot::{self, Level};
use crate::config::Config;
use crate::games::submission::{release, submit, Taken};
use crate::games::{AnyGame, Happened, Seat};
use crate::store::{EntryKind, GameRow, SeatRow, Timestamp, Tx};

/// The most orders the computer plays for one incoming mail (or one
/// moderator's action): a guard against a loop, far above a turn's worth.
pub(super) const MOST_ORDERS: usize = 200;

/// The computer's seat of `game` and its level, if it is a game against
/// the computer.
pub(crate) fn computer_seat(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
) -> Result<Option<(Seat, Level)>> {
    let Some(level) = game.computer_level.and_then(Level::new) else {
        return Ok(None);
    };
    Ok(tx
        .seats(game.id)?
        .into_iter()
        .find(|s| is_computer(config, &s.address))
        .map(|s| (s.seat, level)))
}

/// Whether `seat` is the computer's seat of `game`: in a game against the
/// computer, the seat of the player who did not make the game (the
/// computer never makes one).
pub(crate) fn is_computers_seat(game: &GameRow, seat: Seat) -> bool {
    game.computer_level.is_some() && seat != game.inviter_seat
}

/// Whether the computer may search now, by the hour's budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Thinking {
    /// Neither budget is spent.
    Allowed,
    /// The player's own hour is spent: they are under it again at `until`.
    PlayerSpent {
        /// When the hour's sum falls under the budget.
        until: DateTime<Utc>,
        /// The budget, in playouts.
        budget: u64,
    },
    /// Everyone's hour is spent: the games waiting are answered oldest
    /// first as the hour allows.
    AllSpent,
}

impl Thinking {
    /// What the person is told when the computer's answer waits: when it
    /// comes, in their own time zone, and that nothing is lost.
    fn words(self, tx: &Tx<'_>, game: &GameRow, player: &str) -> Result<String> {
        let (zone, _) = tx.player_settings(player)?;
        Ok(match self {
            Thinking::Allowed => String::new(),
            // The sweep answers a player's waiting games one after another,
            // the longest waiting first, as the hour allows: with several
            // waiting, only the first is sure to come at the time said.
            Thinking::PlayerSpent { until, budget } => match tx.owed_games_of(player)? {
                waiting @ 2.. => texts::say(
                    "game.computer_waits_many",
                    minijinja::context! {
                        game => game.id,
                        budget => budget,
                        waiting => waiting,
                        at => super::zones::local_time(until, &zone),
                    },
                ),
                _ => texts::say(
                    "game.computer_waits",
                    minijinja::context! {
                        game => game.id,
                        budget => budget,
                        at => super::zones::local_time(until, &zone),
                    },
                ),
            },
            Thinking::AllSpent => texts::say(
                "game.computer_waits_for_all",
                minijinja::context! { game => game.id },
            ),
        })
    }
}

/// Whether the computer may search at `now` in a game of `player`'s: the
/// playouts of the hour before, theirs and everyone's, are under their
/// budgets (`[computer]`). A search is begun under the budget and
/// finished, so an hour's sum passes it by one search at most.
pub(crate) fn thinking_allowed(
    tx: &Tx<'_>,
    config: &Config,
    player: &str,
    now: DateTime<Utc>,
) -> Result<Thinking> {
    let hour_ago = now - chrono::Duration::hours(1);
    let budgets = &config.computer;
    // Everyone's hour first: when it is spent too, no time can be promised.
    if tx.thinking_in_all(hour_ago.into())? >= budgets.thinking_per_hour {
        return Ok(Thinking::AllSpent);
    }
    let theirs = tx.thinking_for(player, hour_ago.into())?;
    if theirs >= budgets.thinking_per_player_hour {
        // An hour after the search that brings the sum past what must
        // fall out of it, the sum is under the budget again.
        let over = theirs - budgets.thinking_per_player_hour;
        let passes = tx.thinking_passes(player, hour_ago.into(), over)?;
        let until = passes.map_or(now, |at| at.utc()) + chrono::Duration::hours(1);
        // Said to the minute, rounded up: the answer is not before it.
        let minute = (until.timestamp_millis() + 59_999).div_euclid(60_000);
        let until = DateTime::from_timestamp(minute * 60, 0).unwrap_or(until);
        return Ok(Thinking::PlayerSpent {
            until,
            budget: budgets.thinking_per_player_hour,
        });
    }
    Ok(Thinking::Allowed)
}

/// The address of the person playing the computer's `seat` in `game`:
/// whose budget its thinking counts against.
fn person_of(tx: &Tx<'_>, game: &GameRow, computer: Seat) -> Result<String> {
    Ok(tx
        .seats(game.id)?
        .into_iter()
        .find(|s| s.seat != computer)
        .map(|s| s.address)
        .unwrap_or_default())
}

/// How a seat's player is named in a game's mails and in GAMES: the
/// computer as "the computer (level n)", a person by their name and
/// address.
pub(crate) fn seat_label(game: &GameRow, seat: &SeatRow) -> String {
    if is_computers_seat(game, seat.seat) {
        return computer_label(game);
    }
    // A reserved seat (the community of the Play of the Day) is held under
    // an address under .invalid, which no mail reaches (RFC 2606): it is
    // named, not addressed.
    if seat.address.ends_with(".invalid") && !seat.name.is_empty() {
        return seat.name.clone();
    }
    if seat.name.is_empty() {
        seat.address.clone()
    } else {
        format!("{} <{}>", seat.name, seat.address)
    }
}

/// How a seat's player is named in a list of games or ratings: by their
/// address, or "the computer (level n)", or the Play of the Day's
/// community by its name (a reserved address is never shown).
pub(crate) fn seat_name(game: &GameRow, seat: &SeatRow) -> String {
    if is_computers_seat(game, seat.seat) {
        computer_label(game)
    } else if seat.address.ends_with(".invalid") && !seat.name.is_empty() {
        seat.name.clone()
    } else {
        seat.address.clone()
    }
}

/// "the computer (level n)" for a game against the computer.
pub(crate) fn computer_label(game: &GameRow) -> String {
    texts::say(
        "game.computer",
        minijinja::context! { level => game.computer_level.unwrap_or(Level::DEFAULT.number()) },
    )
}

/// How the record writes the computer's orders: "(computer, level n)".
fn written_by(level: Level) -> String {
    texts::say(
        "game.computer_written",
        minijinja::context! { level => level.number() },
    )
}

/// The seed of the computer's search for the decision after `entries`
/// entries of game `game`: deterministic from the game, different for
/// every decision.
fn search_seed(game: &GameRow, entries: i64) -> u64 {
    let digest = Sha256::new()
        .chain_update(b"orderly computer\0")
        .chain_update(game.id.to_be_bytes())
        .chain_update(game.seed.unwrap_or(0).to_be_bytes())
        .chain_update(entries.to_be_bytes())
        .finalize();
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(bytes)
}

impl Work<'_> {
    /// Plays the computer's orders in `game` (whose state is `state`) for
    /// as long as its seat is to decide, up to [`MOST_ORDERS`]: each one
    /// taken as a player's is and recorded as its seat's entry. When the
    /// other seat's lines were held for the computer's answer (R4: the
    /// second half of a double turn after an attack), they are played as
    /// soon as it is theirs, and so are their answers given in advance.
    /// What happened, for the updates. Nothing in a game between people.
    pub(super) fn computer_plays(
        &mut self,
        state: &mut dyn AnyGame,
        game: &GameRow,
    ) -> Result<Vec<Happened>> {
        let Some((seat, level)) = computer_seat(self.tx, self.config, game)? else {
            return Ok(Vec::new());
        };
        let written = written_by(level);
        let mut happened = Vec::new();
        for _ in 0..MOST_ORDERS {
            if state.outcome().is_some() {
                break;
            }
            let Some(pending) = state.pending() else {
                break;
            };
            if pending.seat != seat {
                // The person decides: their held lines and their answers
                // given in advance, if any, answer now; else the mail's
                // reply asks them.
                let played = self.play_held_for(state, game, pending.seat)?;
                let answered = self.answer_in_advance(state, game)?;
                if played.is_empty() && answered.is_empty() {
                    break;
                }
                happened.extend(played);
                happened.extend(answered);
                continue;
            }
            let player = person_of(self.tx, game, seat)?;
            if pending.phase.is_turn() {
                let allowed = thinking_allowed(self.tx, self.config, &player, self.now)?;
                if allowed != Thinking::Allowed {
                    self.tx.owe_computer(game.id, self.at)?;
                    let words = allowed.words(self.tx, game, &player)?;
                    self.notify(game, seat.other(), &words, None, "computer");
                    break;
                }
            }
            let entries = self.tx.entry_count(game.id)?;
            let Some(answer) = bot::order_for(state, level, search_seed(game, entries)) else {
                computer_failed(self.tx, self.config, game, "no order found", self.now)?;
                return Ok(happened);
            };
            if answer.playouts > 0 {
                self.tx
                    .add_thinking(&player, game.id, answer.playouts, self.at)?;
            }
            let mut s = submit(state, seat, &[answer.order.as_str()]);
            if s.taken.is_empty() {
                let why = format!("its order {} was not taken", answer.order);
                computer_failed(self.tx, self.config, game, &why, self.now)?;
                return Ok(happened);
            }
            for t in &mut s.taken {
                t.line = written.clone();
            }
            happened.extend(self.record_submission(game, seat, &s, false)?);
            happened.extend(self.draw_chance(state, game, seat)?);
        }
        if state.outcome().is_some() || state.pending().is_none_or(|p| p.seat != seat) {
            computer_done(self.tx, game.id)?;
        } else if !self.tx.computer_owes(game.id)? {
            // Still its decision after as many orders as one mail plays
            // (or a wait the budget began): the sweep plays on.
            self.tx.owe_computer(game.id, self.at)?;
        }
        Ok(happened)
    }

    /// The lines `seat` had held (for the computer's answer) played now
    /// that it decides; the seat is told what became of them. What
    /// happened: nothing when no line was held or none was taken.
    fn play_held_for(
        &mut self,
        state: &mut dyn AnyGame,
        game: &GameRow,
        seat: Seat,
    ) -> Result<Vec<Happened>> {
        // A game whose turn is many orders keeps its mail's end with the
        // held lines (`MORE`): the computer plays no such game.
        if state.hosted().mail_turn.is_some() {
            return Ok(Vec::new());
        }
        let held = self
            .tx
            .seats(game.id)?
            .into_iter()
            .find(|s| s.seat == seat)
            .map(|s| s.held)
            .unwrap_or_default();
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let released = release(state, seat, &held);
        let taken = !released.taken.is_empty();
        let (r, played) = self.play_through(state, game, seat, released, false)?;
        if let Some(words) = super::orders::held_report(game, &r) {
            self.notify(game, seat, &words, None, "held");
        }
        self.tx.set_held(game.id, seat, &r.held)?;
        Ok(if taken { played } else { Vec::new() })
    }
}

/// The most games owed the computer's answer that one sweep plays.
const OWED_PER_SWEEP: usize = 20;

/// The most games owed that one sweep looks at, the longest waiting
/// first: those of players still over their budget are passed over, so
/// that one player's many games keep nobody else's waiting.
const OWED_LOOKED_AT: u32 = 1_000;

/// Plays the computer's answers owed (their hour's budget was spent when
/// the person's mail came, [`thinking_allowed`]), the longest waiting game
/// first, as far as the budgets now allow; the person and the game's
/// watchers are mailed the board, as after any move. A game paused by a
/// moderator waits for its pause to end. One sweep thinks at most a
/// minute's share of the hour's budget (`thinking_per_hour`), so that it
/// never holds the mail up for long. How many games were answered.
pub(crate) fn answer_owed(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    now: DateTime<Utc>,
) -> Result<usize> {
    let hour_ago: Timestamp = (now - chrono::Duration::hours(1)).into();
    let share = (config.computer.thinking_per_hour / 60).max(1);
    let thought_before = tx.thinking_in_all(hour_ago)?;
    let mut answered = 0;
    let mut over_budget = std::collections::BTreeSet::new();
    for id in tx.games_owed_by_computer(OWED_LOOKED_AT)? {
        if answered >= OWED_PER_SWEEP
            || tx.thinking_in_all(hour_ago)?.saturating_sub(thought_before) >= share
        {
            break;
        }
        // One game's failure (an error, a panic, a damaged row) is its
        // own: rolled back to its savepoint, it leaves the rest of the
        // sweep (deadlines, the Play of the Day, the other games) to be
        // done and committed.
        tx.savepoint()?;
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            answer_one_owed(tx, config, secret, id, &over_budget, now)
        }));
        let failure = match played {
            Ok(Ok(owed)) => {
                tx.release_savepoint()?;
                match owed {
                    Owed::Answered(played) => answered += usize::from(played),
                    Owed::PlayerSpent(player) => {
                        over_budget.insert(player);
                    }
                    Owed::AllSpent => break,
                    Owed::Waits => {}
                }
                continue;
            }
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("panic: {}", super::poll::panic_text(panic.as_ref())),
        };
        tx.rollback_to_savepoint()?;
        // Asking again each minute would fail again: the game goes to the
        // moderators, and the person is told.
        tx.savepoint()?;
        let told = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match tx.game(id) {
            Ok(Some(game)) => computer_failed(tx, config, &game, &failure, now),
            Ok(None) => Ok(()),
            Err(e) => Err(e.into()),
        }));
        match told {
            Ok(Ok(())) => tx.release_savepoint()?,
            told => {
                tx.rollback_to_savepoint()?;
                let then = match told {
                    Ok(Err(e)) => e.to_string(),
                    Err(panic) => format!("panic: {}", super::poll::panic_text(panic.as_ref())),
                    Ok(Ok(())) => String::new(),
                };
                tracing::error!(game = id, error = %failure, %then, "the computer's owed answer failed, and so did telling the moderators");
                // Unmailed, the game is still listed to the moderators.
                tx.set_disputed_if_none(id, &texts::say("game.computer_failed_request", ()))?;
            }
        }
        tx.computer_paid(id)?;
    }
    Ok(answered)
}

/// What became of one game owed the computer's answer in a sweep.
enum Owed {
    /// Played (or found owed no more); whether anything was played.
    Answered(bool),
    /// Its player's hour is still spent: their other games are passed
    /// over in this sweep.
    PlayerSpent(String),
    /// Everyone's hour is spent: the sweep stops.
    AllSpent,
    /// Paused by a moderator: still owed, answered after the pause.
    Waits,
}

/// The sweep's answer in owed game `id` ([`answer_owed`]).
fn answer_one_owed(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    id: i64,
    over_budget: &std::collections::BTreeSet<String>,
    now: DateTime<Utc>,
) -> Result<Owed> {
    let game = match tx.game(id)? {
        Some(game) if game.status.is_open() => game,
        _ => {
            tx.computer_paid(id)?;
            return Ok(Owed::Answered(false));
        }
    };
    let Some((seat, _)) = computer_seat(tx, config, &game)? else {
        tx.computer_paid(id)?;
        return Ok(Owed::Answered(false));
    };
    if tx.paused_until(id)?.is_some() {
        return Ok(Owed::Waits);
    }
    let player = person_of(tx, &game, seat)?;
    if over_budget.contains(&player) {
        return Ok(Owed::PlayerSpent(player));
    }
    match thinking_allowed(tx, config, &player, now)? {
        Thinking::Allowed => {}
        Thinking::PlayerSpent { .. } => return Ok(Owed::PlayerSpent(player)),
        Thinking::AllSpent => return Ok(Owed::AllSpent),
    }
    Ok(Owed::Answered(answer_owed_in(
        tx, config, secret, &game, &player, now,
    )?))
}

/// The computer has answered in `game`: it owes nothing, and a failure
/// of its own put before the moderators is over ([`computer_failed`]).
fn computer_done(tx: &Tx<'_>, game: i64) -> Result<()> {
    tx.computer_paid(game)?;
    tx.clear_disputed_if(game, &texts::say("game.computer_failed_request", ()))?;
    Ok(())
}

/// The computer could not play its answer in `game` (it found no order,
/// its order was refused, or an error or a panic stopped it): a fault of
/// orderly's, never the person's. Asking again would fail again, so the
/// game is not owed; it is put before its moderators (`STALLED` lists it,
/// with the person's own request instead if they have one open, and a
/// moderator's `ACT` plays on), and the person and the moderators are
/// told.
pub(crate) fn computer_failed(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
    why: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    tracing::error!(game = game.id, %why, "the computer could not answer; the game goes to its moderators");
    tx.computer_paid(game.id)?;
    tx.set_disputed_if_none(game.id, &texts::say("game.computer_failed_request", ()))?;
    let body = texts::wrap(&texts::say(
        "game.computer_failed",
        minijinja::context! { game => game.id },
    ));
    let seed = format!(
        "computer-failed/{}/{}/{}",
        game.id,
        tx.entry_count(game.id)?,
        now.timestamp_millis()
    );
    notify_game(tx, config, game, |_| true, &body, &seed, now)
}

/// The computer's owed answer in `game`, of `player`'s, played at `now`
/// ([`Work::answer_owed`]); whether it played anything.
fn answer_owed_in(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    game: &GameRow,
    player: &str,
    now: DateTime<Utc>,
) -> Result<bool> {
    let nothing = crate::mail::intake::Incoming::none();
    // The mails this makes are named after the game, its record's length
    // and the moment: a record rolled back to an earlier length names its
    // next ones anew.
    let message_id = format!(
        "computer-{}-{}-{}",
        game.id,
        tx.entry_count(game.id)?,
        now.timestamp_millis()
    );
    let mut work = Work::new(
        config,
        secret,
        tx,
        &nothing,
        &message_id,
        player,
        now.into(),
        now,
    );
    work.answer_owed(game)
}

impl Work<'_> {
    /// The computer's answer owed in `game`, played now: its orders
    /// recorded, the position kept, and the update owed to the seats and
    /// the watchers sent. Whether it played anything.
    fn answer_owed(&mut self, game: &GameRow) -> Result<bool> {
        let mut state = self.state(game)?;
        let happened = self.computer_plays(state.as_mut(), game)?;
        if happened.is_empty() {
            self.send_updates()?;
            self.queue_outgoing()?;
            return Ok(false);
        }
        self.keep_state(game.id, state.as_ref())?;
        let game = self.reload(game.id)?;
        self.broadcast(&game, &happened, None)?;
        self.owe_watchers(game.id);
        self.send_updates()?;
        self.queue_outgoing()?;
        Ok(true)
    }
}

/// The computer's answers after a moderator's change (`ACT`, a rollback):
/// [`Work::computer_plays`] without a mail, its orders recorded at `at`
/// as its seat's entries; what happened. Nothing in a game between people.
pub(crate) fn computer_answers(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
    state: &mut dyn AnyGame,
    at: Timestamp,
) -> Result<Vec<Happened>> {
    let Some((seat, level)) = computer_seat(tx, config, game)? else {
        return Ok(Vec::new());
    };
    let written = written_by(level);
    let player = person_of(tx, game, seat)?;
    let mut happened = Vec::new();
    for _ in 0..MOST_ORDERS {
        if state.outcome().is_some() || state.pending().is_none_or(|p| p.seat != seat) {
            // Answered: a game owed the computer's answer is owed no more.
            computer_done(tx, game.id)?;
            break;
        }
        let entries = tx.entry_count(game.id)?;
        let Some(answer) = bot::order_for(state, level, search_seed(game, entries)) else {
            computer_failed(tx, config, game, "no order found", at.utc())?;
            return Ok(happened);
        };
        // A moderator's change or a round of the Play of the Day asks the
        // computer without a budget (they are not a stranger's mail), but
        // its thinking counts in the hour's sums all the same.
        if answer.playouts > 0 {
            tx.add_thinking(&player, game.id, answer.playouts, at)?;
        }
        let s = submit(state, seat, &[answer.order.as_str()]);
        if s.taken.is_empty() {
            let why = format!("its order {} was not taken", answer.order);
            computer_failed(tx, config, game, &why, at.utc())?;
            return Ok(happened);
        }
        happened.extend(record_taken(tx, game.id, seat, &s.taken, &written, at)?);
    }
    if state.outcome().is_none() && state.pending().is_some_and(|p| p.seat == seat) {
        // Still its decision after as many orders as one call plays: the
        // sweep plays on.
        tx.owe_computer(game.id, at)?;
    }
    Ok(happened)
}

/// What follows an order given outside a player's mail (the Play of the
/// Day community's, a moderator's `ACT`, a rollback) until a person
/// decides or the game ends: the draws of chance the game waits for (the
/// coin of an even battle in 1863, P22) and the computer's answers, as
/// long as it is the computer's decision. In 1863 that is a whole turn of
/// orders and the decisions of a battle in between (P20-P22). A draw is
/// made for the seat whose order called for it (it mixes in the other
/// seat's last mail, docs/dice.md): `writer` first, then the computer.
/// In a game without the computer, only the draws; what happened.
pub(crate) fn answers_and_draws(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
    state: &mut dyn AnyGame,
    writer: Seat,
    mail: &str,
    at: Timestamp,
) -> Result<Vec<Happened>> {
    let computer = computer_seat(tx, config, game)?.map(|(seat, _)| seat);
    let mut writer = writer;
    let mut happened = Vec::new();
    for _ in 0..MOST_ORDERS {
        let drawn = draw_and_record(tx, state, game, writer, mail, at)?;
        let answered = computer_answers(tx, config, game, state, at)?;
        if drawn.is_empty() && answered.is_empty() {
            break;
        }
        if let (false, Some(seat)) = (answered.is_empty(), computer) {
            writer = seat;
        }
        happened.extend(drawn);
        happened.extend(answered);
    }
    Ok(happened)
}

/// Records the orders taken for `seat` outside a mail (the computer's,
/// the Play of the Day community's), each written as `written`; what
/// they made happen.
pub(crate) fn record_taken(
    tx: &Tx<'_>,
    game: i64,
    seat: Seat,
    taken: &[Taken],
    written: &str,
    at: Timestamp,
) -> Result<Vec<Happened>> {
    let mut happened = Vec::new();
    for t in taken {
        tx.add_entry(
            game,
            EntryKind::Order,
            Some(seat),
            &t.order,
            written,
            None,
            at,
            &t.events,
        )?;
        happened.extend(t.events.iter().cloned());
    }
    Ok(happened)
}
