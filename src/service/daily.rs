//! The Play of the Day (docs/play-of-the-day.md): a public game in which the
//! community plays one side against the house, one decision a round.
//!
//! - **The game** is an ordinary game row (record, watchers, export and
//!   replay as for any game), public and unrated. The community's seat is
//!   held under the reserved `[play_of_the_day] community_address`, which
//!   never receives mail; the house is the computer at `level` (its seat
//!   that of a game against the computer, `computer.rs`) or a named house
//!   player who plays by mail as anyone does. A new game begins at the
//!   sweep after the last one ended.
//! - **Members** join with `PLAYOFTHEDAY` (bounded by `max_members`).
//!   Each has a key of their own (`identity::member_secret`) in the
//!   Reply-To of every Play of the Day mail: a vote counts only with it,
//!   so a forged From can neither vote nor change somebody's vote.
//! - **A round** opens when the community is to decide and lasts
//!   `round_hours`. Each member has one vote a round (a later vote
//!   replaces the earlier), checked against the rules when cast: an
//!   illegal order is refused with its rule and what would be accepted.
//!   The round closes at its deadline (the sweep) or as soon as one order
//!   has `votes_to_decide` votes; the most voted order still legal is
//!   played (a tie goes to the order that reached its count first), the
//!   house answers, and every member gets the tally and the board. A
//!   round without a vote runs another `round_hours`; a decision with one
//!   legal order is played at once, without a vote.
//! - **Games**: those of [`crate::config::PLAY_OF_THE_DAY_GAMES`]. A
//!   round decides one decision of the game, which is one order: in
//!   SQUARES a whole move, in the Civil War Game 1863 one order of a turn
//!   (a move, a ride, FORTIFY, END, a battle's decision), so the
//!   community there has several rounds in a row in its turn. The draws
//!   of chance (1863's coin of an even battle, P22) are the service's,
//!   never voted; the computer house answers until the community decides
//!   again ([`house_answers`]).
//! - **Kept**: every vote and every round's result (`daily_votes`,
//!   `daily_results`), so the members who chose the orders played are
//!   known (`PLAYOFTHEDAY RESULTS`, and the last mail of a game).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::clock::fresh_deadline;
use super::commands::DailyAsk;
use super::computer::{answers_and_draws, record_taken};
use super::dice::keep_fresh_seed;
use super::game::load;
use super::identity::{game_seed, member_secret, reply_address, seat_secret, secrets_match, Claim};
use super::notices::queue_notice;
use super::observers::queue_to_watchers;
use super::rebuild::rebuild;
use super::reply::Answer;
use super::update::{result_words, update_text};
use super::work::Work;
use super::zones::{local_time, zone_of_offset};
use super::{texts, Result};
use crate::config::Config;
use crate::games::submission::submit;
use crate::games::{hosted, AnyGame, BoardStyle, GameOptions, Happened, Seat};
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};
use crate::store::{DailyGame, DailyResult, GameRow, GameStatus, StoreError, Timestamp, Tx};

/// The most orders one closing of a round plays (the community's, forced
/// ones, and the house's answers): a guard against a loop.
const MOST_ORDERS: usize = 200;

/// How many rounds `PLAYOFTHEDAY RESULTS` lists, the latest first.
const RESULTS_LISTED: u32 = 10;

/// How many members the last mail of a game names as having chosen the
/// orders played.
const WINNERS_NAMED: usize = 10;

/// Whether `address` is the community's seat of the Play of the Day, which
/// reads no mail and sends none.
pub(crate) fn is_community(config: &Config, address: &str) -> bool {
    address
        .trim()
        .eq_ignore_ascii_case(config.play_of_the_day.community_address.trim())
}

/// How a round closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    /// Its time was up.
    Deadline,
    /// An order reached `votes_to_decide` votes.
    Votes,
    /// Only one order was legal: played without a vote.
    Forced,
}

impl Closing {
    fn word(self) -> &'static str {
        match self {
            Closing::Deadline => "deadline",
            Closing::Votes => "votes",
            Closing::Forced => "forced",
        }
    }
}

/// One order's votes in a round.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Count {
    order: String,
    votes: i64,
    /// When its last vote came: of orders with as many votes, the one
    /// that reached its count first wins.
    reached: Timestamp,
}

/// A round's votes counted: the orders still legal, most votes first
/// (ties by who reached the count first, then the order's text), and the
/// votes for orders no longer legal (a moderator changed the position).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    counts: Vec<Count>,
    void: i64,
}

impl Tally {
    fn count(state: &dyn AnyGame, votes: &[(String, String, Timestamp)]) -> Tally {
        let mut by_order: BTreeMap<&str, (i64, Timestamp)> = BTreeMap::new();
        let mut void = 0;
        for (order, _, at) in votes {
            if state.read_order(order).is_err() {
                void += 1;
                continue;
            }
            let entry = by_order.entry(order).or_insert((0, *at));
            entry.0 += 1;
            entry.1 = entry.1.max(*at);
        }
        let mut counts: Vec<Count> = by_order
            .into_iter()
            .map(|(order, (votes, reached))| Count {
                order: order.to_string(),
                votes,
                reached,
            })
            .collect();
        counts.sort_by(|a, b| {
            b.votes
                .cmp(&a.votes)
                .then(a.reached.cmp(&b.reached))
                .then(a.order.cmp(&b.order))
        });
        Tally { counts, void }
    }

    fn cast(&self) -> i64 {
        self.counts.iter().map(|c| c.votes).sum::<i64>() + self.void
    }

    fn winner(&self) -> Option<&Count> {
        self.counts.first()
    }

    fn tied(&self) -> bool {
        matches!(self.counts.as_slice(), [a, b, ..] if a.votes == b.votes)
    }

    /// One line per order: `B1C-B2C  3 votes`.
    fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .counts
            .iter()
            .map(|c| {
                texts::say(
                    "daily.tally_line",
                    minijinja::context! { order => c.order, votes => c.votes },
                )
            })
            .collect();
        if self.void > 0 {
            lines.push(texts::say(
                "daily.tally_void",
                minijinja::context! { votes => self.void },
            ));
        }
        lines
    }
}

/// The game as it stands.
fn state_of(tx: &Tx<'_>, config: &Config, row: &GameRow) -> Result<Box<dyn AnyGame>> {
    if row.order_count == tx.entry_count(row.id)? {
        if let Some(state) = load(row) {
            return Ok(state);
        }
    }
    Ok(rebuild(tx, row, config.address_parts().1)?
        .game()
        .clone_box())
}

fn game_row(tx: &Tx<'_>, id: i64) -> Result<GameRow> {
    Ok(tx
        .game(id)?
        .ok_or_else(|| StoreError::Corrupt(format!("Play of the Day game {id} vanished")))?)
}

/// The sweep's part: a new game when none is under way (and the service
/// runs one), and the rounds whose time is up closed.
pub(crate) fn sweep(tx: &Tx<'_>, config: &Config, secret: &[u8], now: DateTime<Utc>) -> Result<()> {
    let open = tx.open_daily_games()?;
    if open.is_empty() && config.play_of_the_day.enabled {
        begin(tx, config, secret, now)?;
    }
    for daily in open {
        match daily.round_ends {
            Some(ends) if ends.utc() <= now => {
                close_round(tx, config, secret, &daily, now, None)?;
            }
            Some(_) => {}
            // A change outside a mail (a moderator's ACT for the house)
            // may have made it the community's turn.
            None => {
                let row = game_row(tx, daily.game_id)?;
                let state = state_of(tx, config, &row)?;
                if open_round(tx, config, &daily, state.as_ref(), now)? {
                    tell_members(
                        tx,
                        config,
                        secret,
                        &row,
                        state.as_ref(),
                        &[],
                        None,
                        None,
                        now,
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// Begins a Play of the Day game as `[play_of_the_day]` says; its number.
fn begin(tx: &Tx<'_>, config: &Config, secret: &[u8], now: DateTime<Utc>) -> Result<Option<i64>> {
    let daily = &config.play_of_the_day;
    let Some(hosted) = hosted::find(&daily.game.trim().to_ascii_lowercase()) else {
        tracing::error!(game = %daily.game, "the Play of the Day names no hosted game");
        return Ok(None);
    };
    let first = hosted.first.unwrap_or(Seat::North);
    let community = if daily.side.trim().is_empty() {
        first
    } else {
        match hosted.seat_named(&daily.side.trim().to_ascii_uppercase()) {
            Some(seat) => seat,
            None => {
                tracing::error!(side = %daily.side, "the Play of the Day names no side of its game");
                return Ok(None);
            }
        }
    };
    let at = Timestamp::from(now);
    let seed = game_seed(secret, &format!("play of the day {now}"), hosted.name);
    let scenario = (hosted.scenarios)().first().cloned();
    // The community's seat is the game's inviter: the other seat is the
    // computer's in a game against it (`computer::is_computers_seat`).
    let id = tx.create_game(hosted.name, first, community, seed, scenario.as_deref(), at)?;
    tx.set_public_and_rated(id, true, false)?;
    tx.set_turn_days(id, i64::from(config.deadlines.turn_days))?;
    let computer = daily.house.trim().eq_ignore_ascii_case("computer");
    let house = if computer {
        tx.set_computer_level(id, daily.level)?;
        config.computer.address.trim().to_ascii_lowercase()
    } else {
        daily.house.trim().to_ascii_lowercase()
    };
    let us = tx.player(
        &daily.community_address.trim().to_ascii_lowercase(),
        &texts::say("daily.community_name", ()),
        at,
    )?;
    let them = tx.player(&house, "", at)?;
    tx.add_seat(id, community, us, &seat_secret(secret, id, community))?;
    let other = community.other();
    tx.add_seat(id, other, them, &seat_secret(secret, id, other))?;
    tx.add_daily_game(id, community)?;
    if hosted.chance {
        keep_fresh_seed(tx, id)?;
    }
    tx.set_status(id, GameStatus::Active, at)?;
    let row = game_row(tx, id)?;
    let mut state = (hosted.new)(&GameOptions {
        first,
        seed: row.seed,
        scenario: row.scenario.clone(),
    });
    // The house may begin (the Confederacy does in 1863, P7).
    let mail = format!("daily/{id}/begin");
    let happened = house_answers(tx, config, &row, state.as_mut(), community, &mail, at)?;
    let count = tx.entry_count(id)?;
    tx.set_position(id, &state.position(), count, at)?;
    fresh_deadline(tx, config, id, state.as_ref(), now)?;
    let row = game_row(tx, id)?;
    if !computer {
        let welcome = texts::say(
            "daily.house_welcome",
            minijinja::context! { game => id, side => state.seat_name(other) },
        );
        tell_house(tx, config, &row, state.as_ref(), &happened, &welcome, now)?;
    }
    let daily_row = tx
        .daily_game(id)?
        .ok_or_else(|| StoreError::Corrupt("new Play of the Day vanished".into()))?;
    open_round(tx, config, &daily_row, state.as_ref(), now)?;
    tell_members(
        tx,
        config,
        secret,
        &row,
        state.as_ref(),
        &happened,
        None,
        None,
        now,
    )?;
    tracing::info!(game = id, "a Play of the Day begins");
    Ok(Some(id))
}

/// Opens the community's next round when it is theirs to decide and no
/// round is open on this very position; whether it opened one. A round
/// open on an older position (the game changed outside the vote: a
/// moderator's ACT or rollback) opens afresh: the votes cast before were
/// for another position, and no longer count.
fn open_round(
    tx: &Tx<'_>,
    config: &Config,
    daily: &DailyGame,
    state: &dyn AnyGame,
    now: DateTime<Utc>,
) -> Result<bool> {
    if !open_for(daily, state) || (daily.round_ends.is_some() && current(tx, daily)?) {
        return Ok(false);
    }
    let hours = i64::from(config.play_of_the_day.round_hours.max(1));
    tx.open_round(
        daily.game_id,
        now.into(),
        tx.entry_count(daily.game_id)?,
        (now + chrono::Duration::hours(hours)).into(),
    )?;
    Ok(true)
}

/// Whether the open round of `daily` is on the game's position as it
/// stands (nothing was recorded since it opened).
fn current(tx: &Tx<'_>, daily: &DailyGame) -> Result<bool> {
    Ok(tx.entry_count(daily.game_id)? == daily.round_entries)
}

/// Closes the open round of `daily` at its deadline: the winning order
/// played for the community, the house's answer, and the members told. A
/// round without a vote for a legal order runs another `round_hours`
/// instead, and one on a position the game has left opens afresh. The
/// text for `answered`, the member whose late vote closed it, for their
/// reply.
fn close_round(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    daily: &DailyGame,
    now: DateTime<Utc>,
    answered: Option<i64>,
) -> Result<Option<Theirs>> {
    let row = game_row(tx, daily.game_id)?;
    let state = state_of(tx, config, &row)?;
    if row.status != GameStatus::Active || state.pending().is_none_or(|p| p.seat != daily.community)
    {
        tx.set_round_ends(daily.game_id, None)?;
        return Ok(None);
    }
    if open_round(tx, config, daily, state.as_ref(), now)? {
        // The round was on an older position: it opened afresh.
        return tell_members(
            tx,
            config,
            secret,
            &row,
            state.as_ref(),
            &[],
            None,
            answered,
            now,
        );
    }
    let round = daily.round + 1;
    let votes = tx.votes(daily.game_id, round, daily.round_opened)?;
    let tally = Tally::count(state.as_ref(), &votes);
    let Some(winner) = tally.winner().cloned() else {
        let hours = i64::from(config.play_of_the_day.round_hours.max(1));
        tx.set_round_ends(
            daily.game_id,
            Some((now + chrono::Duration::hours(hours)).into()),
        )?;
        return Ok(None);
    };
    play_round(
        tx,
        config,
        secret,
        &row,
        state,
        round,
        &winner.order,
        &tally,
        Closing::Deadline,
        answered,
        now,
    )
}

/// Plays `order` for the community as the result of `round`, then the
/// house's answers and any forced decision of the community, and tells
/// the members, the watchers and a house player; the text for the member
/// whose vote closed the round (`answered`), for their reply.
#[allow(clippy::too_many_arguments)]
fn play_round(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    row: &GameRow,
    mut state: Box<dyn AnyGame>,
    round: i64,
    order: &str,
    tally: &Tally,
    closing: Closing,
    answered: Option<i64>,
    now: DateTime<Utc>,
) -> Result<Option<Theirs>> {
    let at = Timestamp::from(now);
    let daily = tx
        .daily_game(row.id)?
        .ok_or_else(|| StoreError::Corrupt("not a Play of the Day game".into()))?;
    let mut happened = Vec::new();
    let mut next = Some((round, order.to_string(), closing));
    let closed = Closed {
        round,
        order: order.to_string(),
        votes: tally.winner().map_or(0, |c| c.votes),
        cast: tally.cast(),
        closing,
        tied: tally.tied(),
        lines: tally.lines(),
    };
    for _ in 0..MOST_ORDERS {
        let Some((round, order, closing)) = next.take() else {
            break;
        };
        let counted = if closing == Closing::Forced {
            Tally::default()
        } else {
            tally.clone()
        };
        let s = submit(state.as_mut(), daily.community, &[order.as_str()]);
        if s.taken.is_empty() {
            tracing::error!(game = row.id, %order, "the community's order was not taken");
            break;
        }
        let written = texts::say(
            "daily.written",
            minijinja::context! {
                round => round,
                votes => counted.winner().map_or(0, |c| c.votes),
                cast => counted.cast(),
                forced => closing == Closing::Forced,
            },
        );
        happened.extend(record_taken(
            tx,
            row.id,
            daily.community,
            &s.taken,
            &written,
            at,
        )?);
        tx.add_daily_result(
            row.id,
            &DailyResult {
                round,
                order: s.taken.last().map(|t| t.order.clone()).unwrap_or(order),
                votes: counted.winner().map_or(0, |c| c.votes),
                cast: counted.cast(),
                closed_by: closing.word().to_string(),
                tied: counted.tied(),
                at,
            },
        )?;
        let mail = format!("daily/{}/{round}", row.id);
        happened.extend(house_answers(
            tx,
            config,
            row,
            state.as_mut(),
            daily.community,
            &mail,
            at,
        )?);
        // A decision of the community with one legal order is no question:
        // played at once, recorded as a round of its own.
        let ours =
            state.outcome().is_none() && state.pending().is_some_and(|p| p.seat == daily.community);
        if ours {
            if let [only] = state.legal_orders().as_slice() {
                next = Some((round + 1, only.clone(), Closing::Forced));
            }
        }
    }
    let count = tx.entry_count(row.id)?;
    tx.set_position(row.id, &state.position(), count, at)?;
    fresh_deadline(tx, config, row.id, state.as_ref(), now)?;
    if let Some(outcome) = state.outcome() {
        super::ratings::finish(tx, config, row.id, outcome.result, &outcome.reason, at)?;
    }
    let row = game_row(tx, row.id)?;
    let daily = tx
        .daily_game(row.id)?
        .ok_or_else(|| StoreError::Corrupt("not a Play of the Day game".into()))?;
    open_round(tx, config, &daily, state.as_ref(), now)?;
    let theirs = tell_members(
        tx,
        config,
        secret,
        &row,
        state.as_ref(),
        &happened,
        Some(&closed),
        answered,
        now,
    )?;
    let seed = format!("daily/{}/{round}/watchers", row.id);
    queue_to_watchers(tx, config, &row, state.as_ref(), &happened, &seed, now)?;
    if !config
        .play_of_the_day
        .house
        .trim()
        .eq_ignore_ascii_case("computer")
    {
        tell_house(tx, config, &row, state.as_ref(), &happened, "", now)?;
    }
    Ok(theirs)
}

/// The house's answer after the community's order (or at the start):
/// every draw of chance and every order of the computer until it is the
/// community's decision ([`answers_and_draws`]).
fn house_answers(
    tx: &Tx<'_>,
    config: &Config,
    row: &GameRow,
    state: &mut dyn AnyGame,
    community: Seat,
    mail: &str,
    at: Timestamp,
) -> Result<Vec<Happened>> {
    answers_and_draws(tx, config, row, state, community, mail, at)
}

/// A closed round, as the members read it.
#[derive(Clone, Debug, serde::Serialize)]
struct Closed {
    round: i64,
    order: String,
    votes: i64,
    cast: i64,
    #[serde(skip)]
    closing: Closing,
    tied: bool,
    lines: Vec<String>,
}

/// The house player's mail: their seat's update, with their key.
fn tell_house(
    tx: &Tx<'_>,
    config: &Config,
    row: &GameRow,
    state: &dyn AnyGame,
    happened: &[Happened],
    before: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    let Some(daily) = tx.daily_game(row.id)? else {
        return Ok(());
    };
    let house = daily.community.other();
    let Some(seat) = tx.seats(row.id)?.into_iter().find(|s| s.seat == house) else {
        return Ok(());
    };
    let update = update_text(tx, row, state, house, happened)?;
    let body = if before.is_empty() {
        update
    } else {
        format!("{}\n\n{update}", texts::wrap(before).trim_end())
    };
    let seed = format!("daily/{}/house/{}", row.id, tx.entry_count(row.id)?);
    queue_notice(
        tx,
        config,
        row,
        &seat.address,
        Some((row.id, house)),
        body,
        &seed,
        now,
    )
}

/// What the member whose own mail changed the game reads in its reply
/// instead of a mail of their own: the members' text, and its picture with
/// the last action's arrows (issue 19).
pub(super) struct Theirs {
    /// The members' mail's text.
    text: String,
    /// Its picture, when this member takes pictures.
    picture: Option<String>,
}

/// The members' mail after a change of the game: the round just closed
/// (its tally), what happened, the board from the community's side, and
/// the round now open (how to vote, until when), the house deciding, or
/// the end with who chose the orders played. The member whose own mail
/// made the change (`answered`) gets no mail of it: their text is
/// returned for their reply, so that one vote makes one mail.
#[allow(clippy::too_many_arguments)]
fn tell_members(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    row: &GameRow,
    state: &dyn AnyGame,
    happened: &[Happened],
    closed: Option<&Closed>,
    answered: Option<i64>,
    now: DateTime<Utc>,
) -> Result<Option<Theirs>> {
    let members = tx.daily_members()?;
    let Some(daily) = tx.daily_game(row.id)? else {
        return Ok(None);
    };
    let mut theirs = None;
    let tag = format!(
        "daily/{}/{}/{}",
        row.id,
        daily.round,
        daily.round_ends.map(|t| t.to_string()).unwrap_or_default()
    );
    for (player, address) in members {
        let (zone, _) = tx.player_settings(&address)?;
        let body = member_text(tx, config, row, state, &daily, happened, closed, &zone)?;
        // The board from the community's side: "you" are the community.
        let picture = super::compose::picture_of(
            tx,
            config,
            state,
            daily.community,
            happened,
            false,
            &address,
        )?;
        if Some(player) == answered {
            theirs = Some(Theirs {
                text: body,
                picture,
            });
            continue;
        }
        let key = member_secret(secret, player);
        let mut mail = to_member(config, row, &address, &key, body, &tag, now);
        mail.picture = picture;
        super::outbox::queue(tx, &mut mail, Some(row.id), now.into())?;
    }
    Ok(theirs)
}

/// A mail of the Play of the Day to a member, with their key in its
/// Reply-To.
fn to_member(
    config: &Config,
    row: &GameRow,
    address: &str,
    key: &str,
    body: String,
    tag: &str,
    now: DateTime<Utc>,
) -> OutgoingMail {
    let domain = config.address_parts().1;
    OutgoingMail {
        message_id: message_id(&format!("{tag}/{address}"), domain),
        from: format!("{} <{}>", config.service.name, config.service.address),
        to: address.to_string(),
        reply_to: Some(reply_address(&config.service.address, row.id, key)),
        subject: texts::say("daily.subject", minijinja::context! { game => row.id }),
        in_reply_to: None,
        references: Vec::new(),
        list_id: Some(format!("<play-of-the-day.{domain}>")),
        body,
        date: now,
        auto: AutoKind::Generated,
        return_path: None,
        text_only: false,
        picture: None,
    }
}

/// What a member reads about the game as it stands.
#[allow(clippy::too_many_arguments)]
fn member_text(
    tx: &Tx<'_>,
    config: &Config,
    row: &GameRow,
    state: &dyn AnyGame,
    daily: &DailyGame,
    happened: &[Happened],
    closed: Option<&Closed>,
    zone: &str,
) -> Result<String> {
    let community = daily.community;
    let result = result_words(row, state);
    let house = if row.computer_level.is_some() {
        super::computer::computer_label(row)
    } else {
        config.play_of_the_day.house.trim().to_string()
    };
    let open = match daily.round_ends {
        Some(ends) if result.is_none() => {
            let votes = tx.votes(row.id, daily.round + 1, daily.round_opened)?;
            let tally = Tally::count(state, &votes);
            Some(minijinja::context! {
                round => daily.round + 1,
                ends => local_time(ends.utc(), zone),
                tally => tally.lines(),
                example => state.legal_orders().first().cloned().unwrap_or_default(),
                quota => config.play_of_the_day.votes_to_decide,
                // A game whose player writes a turn of many orders in one
                // mail (1863, P7): its choices speak of the mail's end
                // ending the turn, which a vote does not.
                close => state.hosted().mail_turn.map(|m| m.close),
            })
        }
        _ => None,
    };
    let winners = if result.is_some() {
        winners(tx, row.id)?
    } else {
        Vec::new()
    };
    // The members hold the commitment of a game with chance (docs/dice.md)
    // from the mail that shows them the game as it stands, and learn the
    // seed with its end, as players and observers do.
    let fairness = match tx.fair_seed(row.id)? {
        Some(kept) if result.is_some() => Some(texts::say(
            "dice.revealed_without_record",
            minijinja::context! {
                seed => kept.seed.to_hex(),
                commitment => kept.commitment.to_string(),
            },
        )),
        Some(kept) if closed.is_none() && happened.is_empty() => Some(texts::say(
            "daily.commitment",
            minijinja::context! { commitment => kept.commitment.to_string() },
        )),
        _ => None,
    };
    let text = texts::render(
        "daily",
        minijinja::context! {
            game => row.id,
            title => state.title(),
            side => state.seat_name(community),
            house => house,
            closed => closed.map(|c| minijinja::context! {
                round => c.round,
                order => c.order,
                votes => c.votes,
                cast => c.cast,
                by => c.closing.word(),
                tied => c.tied,
                lines => c.lines,
            }),
            happened => super::observers::public_lines(state, happened),
            board => state.draw_board(community, happened, &BoardStyle {
                // The game as it stands (the reply to PLAYOFTHEDAY, a new
                // game) explains the board's marks, as a game's first mail
                // does; a round's result does not repeat them.
                without_key: closed.is_some() || !happened.is_empty(),
                whole_map: false,
                ended: result.clone().filter(|_| state.outcome().is_none()),
                without_last: !happened.is_empty(),
                observer: false,
            }),
            result => result,
            winners => winners,
            fairness => fairness,
            open => open,
            choices => if open_for(daily, state) { state.choices(community).trim_end().to_string() } else { String::new() },
        },
    );
    Ok(texts::wrap(&text))
}

/// Whether the community is to decide in `state`.
fn open_for(daily: &DailyGame, state: &dyn AnyGame) -> bool {
    state.outcome().is_none() && state.pending().is_some_and(|p| p.seat == daily.community)
}

/// The members who chose the orders played in `game`, as a public list
/// names them (the part of the address before the "@", as `RATINGS`
/// does), with how many each: most first.
fn winners(tx: &Tx<'_>, game: i64) -> Result<Vec<String>> {
    Ok(tx
        .winning_voters(game)?
        .into_iter()
        .take(WINNERS_NAMED)
        .map(|(address, n)| {
            let name = address.split('@').next().unwrap_or(&address);
            format!("{name} ({n})")
        })
        .collect())
}

/// The line `GAMES` adds for a member of the Play of the Day: its game,
/// the round open and its end (in `zone`), and their vote in it.
pub(super) fn games_line(
    tx: &Tx<'_>,
    player: i64,
    address: &str,
    zone: &str,
) -> Result<Option<String>> {
    if !tx.is_daily_member(player)? {
        return Ok(None);
    }
    let Some(daily) = tx.open_daily_games()?.into_iter().next_back() else {
        return Ok(None);
    };
    let vote = match daily.round_ends {
        Some(_) => tx
            .votes(daily.game_id, daily.round + 1, daily.round_opened)?
            .into_iter()
            .find(|(_, a, _)| a == address)
            .map(|(order, _, _)| order),
        None => None,
    };
    Ok(Some(texts::say(
        "daily.games_line",
        minijinja::context! {
            game => daily.game_id,
            round => daily.round + 1,
            ends => daily.round_ends.map(|e| local_time(e.utc(), zone)),
            vote => vote,
        },
    )))
}

impl Work<'_> {
    /// The member whose key this mail carries (their player id), when the
    /// claim is a Play of the Day game's and the key is the sender's.
    pub(super) fn member_of(&self, claim: Option<&Claim>) -> Result<Option<i64>> {
        let Some(claim) = claim else {
            return Ok(None);
        };
        if self.tx.daily_game(claim.game)?.is_none() {
            return Ok(None);
        }
        let Some(player) = self.tx.player_id(self.sender)? else {
            return Ok(None);
        };
        let key = member_secret(self.secret, player);
        Ok(
            (secrets_match(&key, &claim.secret) && self.tx.is_daily_member(player)?)
                .then_some(player),
        )
    }

    /// This reply carries the member's key (`player`) for the game of the
    /// day: their next mail votes by replying.
    pub(super) fn carry_member_key(&mut self, player: i64, game: i64) {
        self.reply_key = Some((
            game,
            member_secret(self.secret, player),
            texts::say("daily.subject", minijinja::context! { game => game }),
        ));
    }

    /// `PLAYOFTHEDAY [JOIN|LEAVE|RESULTS]`.
    pub(super) fn play_of_the_day(&mut self, line: &str, ask: DailyAsk) -> Result<()> {
        let Some(daily) = self.tx.latest_daily_game()? else {
            self.item(line, Answer::Refused(texts::say("daily.none", ())));
            return Ok(());
        };
        let row = game_row(self.tx, daily.game_id)?;
        match ask {
            DailyAsk::Leave => {
                let left = match self.tx.player_id(self.sender)? {
                    Some(player) => self.tx.leave_daily(player)?,
                    None => false,
                };
                let answer = if left {
                    texts::say("daily.left", ())
                } else {
                    texts::say("daily.not_a_member", ())
                };
                self.item(line, Answer::Done(answer));
            }
            DailyAsk::Join => {
                let name = self.sender_name();
                let known = self.tx.player_id(self.sender)?;
                let member = match known {
                    Some(p) => self.tx.is_daily_member(p)?,
                    None => false,
                };
                if !member
                    && self.tx.daily_member_count()?
                        >= i64::from(self.config.play_of_the_day.max_members)
                {
                    self.item(line, Answer::Refused(texts::say("daily.full", ())));
                    return Ok(());
                }
                let player = self.tx.player(self.sender, &name, self.at)?;
                // A newcomer's first board gives the round's end where they
                // read it, as their later mails do: the offset of this
                // mail's Date is the guess until SET TIMEZONE.
                if let Some(zone) = self
                    .incoming
                    .date
                    .and_then(|d| zone_of_offset(d.offset().local_minus_utc()))
                {
                    self.tx.guess_timezone(self.sender, zone)?;
                }
                let joined = self.tx.join_daily(player, self.at)?;
                // A round past its deadline that the sweep has not reached
                // yet is closed first: the member's board is the game as
                // it stands, never a round already over.
                let overdue = daily.round_ends.is_some_and(|e| e.utc() <= self.now)
                    && row.status == GameStatus::Active;
                let closed = if overdue {
                    close_round(
                        self.tx,
                        self.config,
                        self.secret,
                        &daily,
                        self.now,
                        Some(player),
                    )?
                } else {
                    None
                };
                let mut arrows = None;
                let board = match closed {
                    Some(theirs) => {
                        arrows = Some(theirs.picture);
                        theirs.text
                    }
                    None => {
                        let daily = self.tx.daily_game(row.id)?.unwrap_or(daily);
                        let row = game_row(self.tx, row.id)?;
                        let state = state_of(self.tx, self.config, &row)?;
                        let (zone, _) = self.tx.player_settings(self.sender)?;
                        member_text(
                            self.tx,
                            self.config,
                            &row,
                            state.as_ref(),
                            &daily,
                            &[],
                            None,
                            &zone,
                        )?
                    }
                };
                let confirm = !self.tx.member_confirmed(player)?;
                let answer = if joined || confirm {
                    texts::say(
                        "daily.joined",
                        minijinja::context! { game => row.id, confirm => confirm },
                    )
                } else {
                    texts::say(
                        "daily.member_already",
                        minijinja::context! { game => row.id },
                    )
                };
                self.item(line, Answer::Done(answer));
                self.parts.push(board);
                match arrows {
                    // The round their join closed: its picture, arrows and
                    // all, as the members got it.
                    Some(picture) => self.show_their_picture(picture),
                    None => self.show_daily_picture(&row)?,
                }
                self.carry_member_key(player, row.id);
            }
            DailyAsk::Results => {
                let results = self.tx.daily_results(row.id, RESULTS_LISTED)?;
                let lines: Vec<String> = results
                    .iter()
                    .map(|r| {
                        texts::say(
                            "daily.result_line",
                            minijinja::context! {
                                round => r.round,
                                order => r.order,
                                votes => r.votes,
                                cast => r.cast,
                                by => r.closed_by,
                                tied => r.tied,
                            },
                        )
                    })
                    .collect();
                let winners = winners(self.tx, row.id)?;
                self.item(
                    line,
                    Answer::Done(texts::say(
                        "daily.results",
                        minijinja::context! { game => row.id, lines => lines, winners => winners },
                    )),
                );
            }
        }
        Ok(())
    }

    /// `VOTE <order>` (or an order line in a mail carrying a member's key):
    /// the member's vote in the round open, checked against the rules;
    /// the round closes at once when the order reaches `votes_to_decide`.
    pub(super) fn vote(&mut self, line: &str, order: &str, claim: Option<&Claim>) -> Result<()> {
        let open = self.tx.open_daily_games()?;
        let Some(mut daily) = open.into_iter().next_back() else {
            self.item(line, Answer::Refused(texts::say("daily.none", ())));
            return Ok(());
        };
        let row = game_row(self.tx, daily.game_id)?;
        let player = self.tx.player_id(self.sender)?;
        let member = match player {
            Some(p) => self.tx.is_daily_member(p)?.then_some(p),
            None => None,
        };
        let Some(player) = member else {
            self.item(line, Answer::Refused(texts::say("daily.join_first", ())));
            return Ok(());
        };
        if self.member_of(claim)? != Some(player) {
            // The reply goes to the member's own address with their key:
            // replying to it votes. A forged From learns nothing.
            self.carry_member_key(player, row.id);
            self.item(line, Answer::Refused(texts::say("daily.key_needed", ())));
            return Ok(());
        }
        self.carry_member_key(player, row.id);
        // A vote after the round's deadline, before the sweep came to it
        // (the sweep runs every minute, or the service was away): the round
        // is closed first, as at its deadline. A vote meant for a position
        // that a decided round changed is refused; a round without votes
        // runs on, and the vote counts in it.
        if let Some(ends) = daily.round_ends.filter(|e| e.utc() <= self.now) {
            let result = close_round(
                self.tx,
                self.config,
                self.secret,
                &daily,
                self.now,
                Some(player),
            )?;
            let after = self.tx.daily_game(daily.game_id)?;
            let Some(after) = after.filter(|a| a.round == daily.round) else {
                let (zone, _) = self.tx.player_settings(self.sender)?;
                self.item(
                    line,
                    Answer::Refused(texts::say(
                        "daily.too_late",
                        minijinja::context! {
                            round => daily.round + 1,
                            ends => local_time(ends.utc(), &zone),
                        },
                    )),
                );
                self.show_theirs(result);
                return Ok(());
            };
            // The round runs on (it had no vote), or opened afresh on a
            // position a moderator changed: the vote counts in it.
            self.show_theirs(result);
            daily = after;
        }
        let row = game_row(self.tx, daily.game_id)?;
        let state = state_of(self.tx, self.config, &row)?;
        if daily.round_ends.is_none() || !open_for(&daily, state.as_ref()) {
            self.item(line, Answer::Refused(texts::say("daily.no_round", ())));
            return Ok(());
        }
        if open_round(self.tx, self.config, &daily, state.as_ref(), self.now)? {
            // The game changed since the round opened (a moderator's
            // ACT): the round opens afresh on the game as it stands, and
            // the members get its board; this member in this reply.
            let theirs = tell_members(
                self.tx,
                self.config,
                self.secret,
                &row,
                state.as_ref(),
                &[],
                None,
                Some(player),
                self.now,
            )?;
            self.show_theirs(theirs);
            daily = self
                .tx
                .daily_game(row.id)?
                .ok_or_else(|| StoreError::Corrupt("not a Play of the Day game".into()))?;
        }
        let Some(ends) = daily.round_ends else {
            return Ok(());
        };
        let round = daily.round + 1;
        let canonical = match state.read_order(order) {
            Ok(o) => o,
            Err(rejection) => {
                let kept = self
                    .tx
                    .votes(row.id, round, daily.round_opened)?
                    .into_iter()
                    .find(|(_, address, _)| address == self.sender)
                    .map(|(o, _, _)| o);
                self.item(
                    line,
                    Answer::Refused(texts::say(
                        "daily.vote_refused",
                        minijinja::context! {
                            rule => rejection.rule.map(|rule| rule.to_string()),
                            problem => texts::sentence(&rejection.problem),
                            suggestions => rejection.suggestions,
                            kept => kept,
                        },
                    )),
                );
                return Ok(());
            }
        };
        let before = self.tx.vote(row.id, round, player, &canonical, self.at)?;
        let votes = self.tx.votes(row.id, round, daily.round_opened)?;
        let tally = Tally::count(state.as_ref(), &votes);
        let (zone, _) = self.tx.player_settings(self.sender)?;
        let quota = i64::from(self.config.play_of_the_day.votes_to_decide);
        let reached = quota > 0
            && tally
                .counts
                .iter()
                .any(|c| c.order == canonical && c.votes >= quota);
        self.item(
            line,
            Answer::Done(texts::say(
                "daily.voted",
                minijinja::context! {
                    order => canonical,
                    round => round,
                    game => row.id,
                    before => before.filter(|b| *b != canonical),
                    ends => local_time(ends.utc(), &zone),
                    tally => tally.lines(),
                    decided => reached,
                },
            )),
        );
        if reached {
            let winner = tally.winner().map(|c| c.order.clone()).unwrap_or(canonical);
            let theirs = play_round(
                self.tx,
                self.config,
                self.secret,
                &row,
                state,
                round,
                &winner,
                &tally,
                Closing::Votes,
                Some(player),
                self.now,
            )?;
            self.show_theirs(theirs);
        }
        Ok(())
    }

    /// The members' text that this member's own mail brought about, in
    /// its reply, with its picture (the last action's arrows and all).
    fn show_theirs(&mut self, theirs: Option<Theirs>) {
        if let Some(theirs) = theirs {
            self.parts.push(theirs.text);
            self.show_their_picture(theirs.picture);
        }
    }

    /// The reply shows `picture` unless it shows an earlier board already
    /// (one picture a mail: the first board in it).
    fn show_their_picture(&mut self, picture: Option<String>) {
        if self.reply_picture.is_none() {
            self.reply_picture = picture;
        }
    }

    /// The reply shows the Play of the Day's board as it now stands, from
    /// the community's side (issue 19), for a reply that changed nothing
    /// (a join): no last action of the member's to draw.
    fn show_daily_picture(&mut self, row: &GameRow) -> Result<()> {
        let Some(daily) = self.tx.daily_game(row.id)? else {
            return Ok(());
        };
        let row = game_row(self.tx, row.id)?;
        let state = state_of(self.tx, self.config, &row)?;
        self.show_picture(state.as_ref(), daily.community, &[], false)
    }
}

/// After a house player's mail changed the game: the community's round
/// opens when it is theirs to decide, and the members are told.
/// A Play of the Day game a moderator ended (ADJUDICATE, FORFEIT): its
/// round closes unplayed and the members get the game's last mail, with
/// the result and, in a game with chance, the seed revealed. Nothing for
/// any other game.
pub(super) fn after_moderator_ended(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    row: &GameRow,
    state: &dyn AnyGame,
    now: DateTime<Utc>,
) -> Result<()> {
    let Some(daily) = tx.daily_game(row.id)? else {
        return Ok(());
    };
    if daily.round_ends.is_some() {
        tx.set_round_ends(row.id, None)?;
    }
    tell_members(tx, config, secret, row, state, &[], None, None, now)?;
    Ok(())
}

pub(super) fn after_house_played(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    row: &GameRow,
    state: &dyn AnyGame,
    happened: &[Happened],
    now: DateTime<Utc>,
) -> Result<()> {
    let Some(daily) = tx.daily_game(row.id)? else {
        return Ok(());
    };
    if state.outcome().is_some() {
        // The house's mail ended the game: the members' last mail.
        if daily.round_ends.is_some() {
            tx.set_round_ends(row.id, None)?;
        }
        tell_members(tx, config, secret, row, state, happened, None, None, now)?;
        return Ok(());
    }
    if open_round(tx, config, &daily, state, now)? {
        tell_members(tx, config, secret, row, state, happened, None, None, now)?;
    }
    Ok(())
}
