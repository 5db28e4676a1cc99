//! The clock: deadlines for each decision, clock banks, vacations, daily
//! digests, adjournment, and the sweep that sends reminders, late notices
//! and time-outs when their moment comes; and the end of sent mail past its
//! retention.

use chrono::{DateTime, Timelike, Utc};

use super::game::{pending_of, side_name};
use super::notices::{self, moderators_of, notify_game, queue_notice};
use super::zones::local_time;
use super::{moderation, texts, Result};
use crate::config::Config;
use crate::games::{AnyGame, Seat};
use crate::store::{seat_text, GameStatus, Timestamp, Tx};

/// Gives a game's pending decision a fresh deadline from `now`: the game's
/// days for a turn, `decision_hours` for a decision inside an attack; none
/// once the game is over.
pub fn fresh_deadline(
    tx: &Tx<'_>,
    config: &Config,
    game: i64,
    state: &dyn AnyGame,
    now: DateTime<Utc>,
) -> Result<()> {
    let clock = tx.clock(game)?;
    let pause = tx.pause_of(game)?;
    // A clock bank pays for the turn just played: the time it took, less
    // the increment, within the cap.
    if let (Some((increment, cap)), Some(old), Some((kind, since))) =
        (clock, tx.deadline(game)?, tx.deadline_start(game)?)
    {
        if kind == "turn" {
            if let Some(bank) = tx.bank(game, old.seat)? {
                // In a moderators' pause it pays only for the time before
                // the pause (when the deadline was the time kept away).
                let stopped = match &pause {
                    Some((_, Some(left))) => {
                        now.min(old.at.utc() - chrono::Duration::seconds(*left))
                    }
                    _ => now,
                };
                let used = (stopped - since.utc()).num_seconds().max(0);
                tx.set_bank(game, old.seat, (bank - used + increment).clamp(0, cap))?;
            }
        }
    }
    let Some(pending) = state.pending() else {
        return Ok(tx.set_deadline(game, None)?);
    };
    // The computer answers at once: it has no deadline, so it is never
    // reminded, late or timed out.
    let seats = tx.seats(game)?;
    if seats
        .iter()
        .any(|s| s.seat == pending.seat && super::ratings::reads_no_mail(config, &s.address))
    {
        return Ok(tx.set_deadline(game, None)?);
    }
    let turn = pending.phase.is_turn();
    let secs = match (turn, clock) {
        (true, Some(_)) => tx.bank(game, pending.seat)?.unwrap_or(0),
        (true, None) => tx.turn_days(game)? * 24 * 3600,
        (false, _) => i64::from(config.deadlines.decision_hours) * 3600,
    };
    // A player on vacation has no running clock: theirs starts when the
    // vacation ends.
    let mut base = now;
    if let Some(seat) = seats.into_iter().find(|s| s.seat == pending.seat) {
        if let Some((_, ends)) = tx.on_vacation(seat.player_id, now.into())? {
            base = base.max(ends.utc());
        }
    }
    // No clock runs in a moderators' pause (PAUSE ... UNTIL), and orders
    // may still be played in it: a decision that falls to a seat then gets
    // its whole time from the pause's end, and the pause keeps that time
    // for a RESUME before it (not what the seat before had left).
    let paused = pause.map(|(until, _)| until);
    if let Some(until) = &paused {
        base = base.max(until.utc());
    }
    let deadline = base + chrono::Duration::seconds(secs);
    if let Some(until) = paused {
        let left = (deadline - until.utc()).num_seconds();
        tx.pause(game, until, Some(left))?;
    }
    tx.set_deadline(game, Some((pending.seat, deadline.into())))?;
    reminders_told_now(tx, config, game, now, deadline)?;
    let kind = if turn { "turn" } else { "decision" };
    Ok(tx.set_deadline_start(game, kind, base.into())?)
}

/// Closes the invitations open for `invitation_days` and tells both players.
fn expire_invitations(tx: &Tx<'_>, config: &Config, now: DateTime<Utc>) -> Result<()> {
    let days = i64::from(config.deadlines.invitation_days);
    for game in tx.invitations_before((now - chrono::Duration::days(days)).into())? {
        tx.set_status(game, GameStatus::Expired, now.into())?;
        let Some(row) = tx.game(game)? else { continue };
        let seats = tx.seats(game)?;
        let address = |seat: Seat| {
            seats
                .iter()
                .find(|s| s.seat == seat)
                .map(|s| s.address.clone())
                .unwrap_or_default()
        };
        let inviter = address(row.inviter_seat);
        let invited = address(row.inviter_seat.other());
        for seat in &seats {
            let body = if seat.seat == row.inviter_seat {
                texts::say(
                    "clock.invitation_expired",
                    minijinja::context! { invited => invited, game => game, days => days },
                )
            } else {
                texts::say(
                    "clock.invitation_expired_invited",
                    minijinja::context! { inviter => inviter, game => game, days => days },
                )
            };
            let seed = format!("expired/{game}/{}", seat_text(seat.seat));
            queue_notice(
                tx,
                config,
                &row,
                &seat.address,
                Some((game, seat.seat)),
                texts::wrap(&body),
                &seed,
                now,
            )?;
        }
    }
    Ok(())
}

/// Marks as sent the reminders that would fall due at once for a deadline
/// set at `now`: the mail that sets it (the decision, the moderator's
/// announcement) already says when it is, so a 24-hour decision gets no
/// "23h 59m from now" reminder beside it.
pub(super) fn reminders_told_now(
    tx: &Tx<'_>,
    config: &Config,
    game: i64,
    now: DateTime<Utc>,
    deadline: DateTime<Utc>,
) -> Result<()> {
    let left = deadline - now;
    for hours in &config.deadlines.reminder_hours {
        if left <= chrono::Duration::hours(i64::from(*hours)) {
            tx.add_notice(game, &format!("{hours}h"))?;
        }
    }
    Ok(())
}

/// A span in whole days, rounded up, at least one (vacation days count
/// whole: a day begun is a day taken).
pub(super) fn whole_days(span: chrono::Duration) -> i64 {
    let hours = span.num_hours().max(0);
    ((hours + 23) / 24).max(1)
}

/// Vacation days used in a year's vacations (each counted in whole days,
/// at least one).
pub(super) fn vacation_days_used(vacations: &[crate::store::VacationRow]) -> i64 {
    vacations
        .iter()
        .map(|v| whole_days(v.ends.utc() - v.starts.utc()))
        .sum()
}

/// The first moment of `now`'s year (UTC): vacation days are counted per
/// calendar year.
pub(super) fn year_start(now: DateTime<Utc>) -> Timestamp {
    let new_year =
        now.date_naive() - chrono::Duration::days(i64::from(chrono::Datelike::ordinal0(&now)));
    new_year.and_time(chrono::NaiveTime::MIN).and_utc().into()
}

/// Starts a vacation: every deadline of the player moves by its length, so
/// their clocks stand still; the opponents are told, with the days left.
pub(super) fn start_vacation(
    tx: &Tx<'_>,
    config: &Config,
    id: i64,
    player: i64,
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<()> {
    tx.start_vacation(id)?;
    let length = ends - starts;
    for (game, _, deadline) in tx.deadlines_of_player(player)? {
        tx.move_deadline(game, (deadline.utc() + length).into())?;
    }
    let left = i64::from(config.deadlines.vacation_days_per_year)
        - vacation_days_used(&tx.vacations_of(player, year_start(now))?);
    let games = tx.games_of(player)?;
    for row in games.iter().filter(|g| g.status == GameStatus::Active) {
        let seats = tx.seats(row.id)?;
        let Some(me) = seats.iter().find(|s| s.player_id == player) else {
            continue;
        };
        for other in seats.iter().filter(|s| s.player_id != player) {
            let body = texts::wrap(&texts::say(
                "clock.on_vacation",
                minijinja::context! {
                    player => me.address,
                    side => side_name(row, me.seat),
                    game => row.id,
                    until => local_time(ends, "UTC"),
                    left => left.max(0),
                },
            ));
            let seed = format!("vacation/{id}/{}/{}", row.id, seat_text(other.seat));
            queue_notice(
                tx,
                config,
                row,
                &other.address,
                Some((row.id, other.seat)),
                body,
                &seed,
                now,
            )?;
        }
    }
    Ok(())
}

/// `SET DIGEST DAILY`: once a day, from 07:00 in the player's zone, one
/// mail listing their games, whose turn, and the deadlines.
fn send_digests(tx: &Tx<'_>, config: &Config, now: DateTime<Utc>) -> Result<()> {
    for (player, address, zone) in tx.digests_due("9999-12-31")? {
        let tz: chrono_tz::Tz = zone.parse().unwrap_or(chrono_tz::UTC);
        let local = now.with_timezone(&tz);
        let today = local.format("%Y-%m-%d").to_string();
        if local.hour() < 7 || tx.digest_already_sent(player, &today)? {
            continue;
        }
        tx.digest_sent(player, &today)?;
        let mut lines = Vec::new();
        for game in tx
            .games_of(player)?
            .iter()
            .filter(|g| g.status == GameStatus::Active)
        {
            let seats = tx.seats(game.id)?;
            let me = seats.iter().find(|s| s.player_id == player);
            let other = seats.iter().find(|s| s.player_id != player);
            let deadline = tx.deadline(game.id)?;
            let state = match &deadline {
                Some(d) if Some(d.seat) == me.map(|m| m.seat) => texts::say(
                    "clock.digest_your_turn",
                    minijinja::context! { deadline => local_time(d.at.utc(), &zone) },
                ),
                Some(d) => texts::say(
                    "clock.digest_waiting_for",
                    minijinja::context! {
                        side => side_name(game, d.seat),
                        deadline => local_time(d.at.utc(), &zone),
                    },
                ),
                None => texts::say("clock.digest_no_deadline", ()),
            };
            lines.push(texts::say(
                "clock.digest_game",
                minijinja::context! {
                    game => game.id,
                    opponent => other.map(|o| super::computer::seat_name(game, o)).unwrap_or_else(|| "?".into()),
                    state => state,
                },
            ));
        }
        if lines.is_empty() {
            continue;
        }
        let body = texts::wrap(&texts::say(
            "clock.digest",
            minijinja::context! { day => today, games => lines },
        ));
        notices::queue_service_mail(
            tx,
            config,
            &address,
            &texts::say("clock.digest_subject", minijinja::context! { day => today }),
            body,
            &format!("digest/{player}/{today}"),
            now,
        )?;
    }
    Ok(())
}

/// Whether a game whose time runs out may be claimed by the opponent (its
/// own policy from `NEW ... TIMEOUT`, else the server's).
pub(super) fn claims(tx: &Tx<'_>, config: &Config, game: i64) -> Result<bool> {
    Ok(match tx.timeout_policy(game)?.as_deref() {
        Some("claim") => true,
        Some(_) => false,
        None => config.deadlines.timeout == crate::config::TimeoutPolicy::Claim,
    })
}

/// What one sweep of the deadlines did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Games with a deadline near or past.
    pub games: usize,
    /// Reminders queued.
    pub reminders: usize,
    /// Late notices queued (both players of a game count once).
    pub late: usize,
    /// Games whose time ran out in this sweep.
    pub timed_out: usize,
    /// Sent mails deleted, past `[store] keep_sent_days`.
    pub forgotten_mail: usize,
}

/// The most sent mails one sweep deletes, so that a sweep after a long
/// stop (or the first under a shorter retention) never holds the write
/// lock for long: a sweep a minute deletes up to 7.2 million a day, several
/// times what a busy house sends.
const FORGET_PER_SWEEP: i64 = 5_000;

/// Sends what the clock calls for at `now`: reminders before deadlines
/// (each at most once per deadline, remembered in the database so that a
/// restart sends nothing twice), late notices at the deadline, and the
/// time-out after the grace period. Only games with a deadline within the
/// largest reminder lead are read (an index range scan). It also deletes
/// sent mail past `[store] keep_sent_days`, a bounded chunk at a time.
pub fn sweep(tx: &Tx<'_>, config: &Config, now: DateTime<Utc>) -> Result<SweepReport> {
    let mut report = SweepReport::default();
    // A pause always ends (moderators' PAUSE ... UNTIL): its clock runs again.
    for game in tx.pauses_ended(now.into())? {
        moderation::resume(tx, now, game)?;
    }
    for (id, player, starts, ends) in tx.vacations_to_start(now.into())? {
        start_vacation(tx, config, id, player, starts.utc(), ends.utc(), now)?;
    }
    for (id, _) in tx.vacations_to_end(now.into())? {
        tx.end_vacation(id, now.into())?;
    }
    send_digests(tx, config, now)?;
    expire_invitations(tx, config, now)?;
    let keep = chrono::Duration::days(i64::from(config.store.keep_sent_days));
    report.forgotten_mail = tx.forget_sent_mail((now - keep).into(), FORGET_PER_SWEEP)?;
    let silent_since = now - chrono::Duration::days(i64::from(config.deadlines.adjourn_after_days));
    for game in tx.silent_games(silent_since.into())? {
        tx.set_adjourned(game, true)?;
        let Some(row) = tx.game(game)? else { continue };
        let body = texts::wrap(&texts::say(
            "clock.adjourned",
            minijinja::context! { game => game, days => config.deadlines.adjourn_after_days },
        ));
        let seed = format!("adjourned/{game}/{}", row.updated_at);
        notify_game(tx, config, &row, |_| true, &body, &seed, now)?;
    }
    let deadlines = &config.deadlines;
    let lead = deadlines.reminder_hours.iter().copied().max().unwrap_or(0);
    let until = now + chrono::Duration::hours(i64::from(lead));
    for d in tx.deadlines_until(until.into())? {
        report.games += 1;
        let at = d.at.utc();
        let Some(game) = tx.game(d.game_id)? else {
            continue;
        };
        let seats = tx.seats(d.game_id)?;
        let Some(acting) = seats.iter().find(|s| s.seat == d.seat).cloned() else {
            continue;
        };
        let sent = |key: &str| d.notices_sent.iter().any(|n| n == key);
        if now < at {
            // The nearest due reminder only: after a long stop the daemon
            // sends one reminder, not every one it missed.
            let mut due: Vec<u32> = deadlines
                .reminder_hours
                .iter()
                .copied()
                .filter(|h| now >= at - chrono::Duration::hours(i64::from(*h)))
                .filter(|h| !sent(&format!("{h}h")))
                .collect();
            due.sort();
            if let Some(nearest) = due.first().copied() {
                for h in &due {
                    tx.add_notice(d.game_id, &format!("{h}h"))?;
                }
                let (zone, wants) = tx.player_settings(&acting.address)?;
                if wants && !tx.wants_digest(&acting.address)? {
                    let left = at - now;
                    let pending = pending_of(&game)
                        .map(|p| {
                            texts::say(
                                "update.pending",
                                minijinja::context! {
                                    side => side_name(&game, p.seat),
                                    decision => p.kind.to_string(),
                                },
                            )
                        })
                        .unwrap_or_default();
                    let body = texts::render(
                        "reminder",
                        minijinja::context! {
                            game => d.game_id,
                            pending => pending,
                            deadline => local_time(d.at.utc(), &zone),
                            left => texts::say(
                                "clock.left",
                                minijinja::context! {
                                    hours => left.num_hours(),
                                    minutes => format!("{:02}", left.num_minutes() % 60),
                                },
                            ),
                        },
                    );
                    let seed = format!("reminder/{}/{}/{nearest}", d.game_id, d.at);
                    queue_notice(
                        tx,
                        config,
                        &game,
                        &acting.address,
                        Some((d.game_id, d.seat)),
                        texts::wrap(&body),
                        &seed,
                        now,
                    )?;
                    report.reminders += 1;
                }
            }
            continue;
        }
        let mut grace_from = at;
        if !sent("late") {
            // A player is always told before time runs out: when the notice
            // goes out late (the daemon was stopped), the grace counts from
            // the notice, not from the deadline.
            if now > at + chrono::Duration::minutes(10) {
                tx.set_deadline(d.game_id, Some((d.seat, now.into())))?;
                for h in &deadlines.reminder_hours {
                    tx.add_notice(d.game_id, &format!("{h}h"))?;
                }
                grace_from = now;
            }
            tx.add_notice(d.game_id, "late")?;
            let consequence = if claims(tx, config, d.game_id)? {
                texts::say("clock.late_claim", ())
            } else {
                texts::say("clock.late_moderators", ())
            };
            for s in &seats {
                let (zone, _) = tx.player_settings(&s.address)?;
                let body = texts::render(
                    "late",
                    minijinja::context! {
                        game => d.game_id,
                        side => side_name(&game, d.seat),
                        deadline => local_time(d.at.utc(), &zone),
                        yours => s.seat == d.seat,
                        grace => deadlines.grace_hours,
                        consequence => consequence,
                    },
                );
                let seed = format!("late/{}/{}/{}", d.game_id, d.at, seat_text(s.seat));
                queue_notice(
                    tx,
                    config,
                    &game,
                    &s.address,
                    Some((d.game_id, s.seat)),
                    texts::wrap(&body),
                    &seed,
                    now,
                )?;
            }
            report.late += 1;
        }
        let grace_end = grace_from + chrono::Duration::hours(i64::from(deadlines.grace_hours));
        if now >= grace_end && !d.timed_out {
            tx.set_timed_out(d.game_id)?;
            report.timed_out += 1;
            let claim = claims(tx, config, d.game_id)?;
            let mut to: Vec<(String, Option<(i64, Seat)>)> = Vec::new();
            if claim {
                to.extend(
                    seats
                        .iter()
                        .filter(|s| s.seat != d.seat)
                        .map(|s| (s.address.clone(), Some((d.game_id, s.seat)))),
                );
            } else {
                to.extend(
                    moderators_of(tx, config, d.game_id)?
                        .into_iter()
                        .map(|a| (a, None)),
                );
            }
            for (n, (address, seat)) in to.iter().enumerate() {
                let (zone, _) = tx.player_settings(address)?;
                let body = texts::render(
                    "timeout",
                    minijinja::context! {
                        game => d.game_id,
                        side => side_name(&game, d.seat),
                        deadline => local_time(d.at.utc(), &zone),
                        grace => deadlines.grace_hours,
                        claim => claim,
                    },
                );
                let seed = format!("timeout/{}/{}/{n}", d.game_id, d.at);
                queue_notice(
                    tx,
                    config,
                    &game,
                    address,
                    *seat,
                    texts::wrap(&body),
                    &seed,
                    now,
                )?;
            }
        }
    }
    Ok(report)
}
