//! Notices orderly sends on its own: about mail that cannot be delivered
//! (bounces, refused addresses), and the shared queueing of a notice about
//! a game.

use chrono::{DateTime, Utc};

use super::game::side_name;
use super::identity::reply_address;
use super::subject::game_subject;
use super::{texts, Result};
use crate::config::Config;
use crate::games::Seat;
use crate::mail::bounce;
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};
use crate::store::{seat_text, GameRow, Tx};

/// A bounce: read as a delivery-status notification, matched to the mail
/// it reports by the VERP address it was sent to (forged ones match
/// nothing), recorded; after `hard_limit` hard bounces of an address its
/// seats are undeliverable. Returns the outcome for the log.
pub(super) fn bounce_received(
    tx: &Tx<'_>,
    config: &Config,
    secret: &[u8],
    raw: &[u8],
    message_id: &str,
    now: DateTime<Utc>,
) -> Result<String> {
    let Some(dsn) = bounce::parse_dsn(raw) else {
        return Ok("ignored: bounce that is no delivery report".into());
    };
    let domain = config.address_parts().1;
    let Some(outbox_id) = dsn.verp_id(&config.bounces.local, domain, secret) else {
        return Ok("ignored: bounce matching no mail of ours".into());
    };
    let Some(mail) = tx.sent_mail(outbox_id)? else {
        return Ok(format!("ignored: bounce of unknown mail {outbox_id}"));
    };
    let hard = dsn.is_hard();
    if !hard && !dsn.is_soft() {
        return Ok(format!(
            "ignored: report on mail {outbox_id} that is no failure"
        ));
    }
    let problem = dsn.problems().next();
    let status = problem.and_then(|p| p.status.clone()).unwrap_or_default();
    let diagnostic = problem
        .and_then(|p| p.diagnostic.clone())
        .unwrap_or_default();
    let count = tx.add_bounce(
        outbox_id,
        &mail.recipient,
        hard,
        &status,
        &diagnostic,
        message_id,
        now.into(),
    )?;
    if hard && count >= i64::from(config.bounces.hard_limit) {
        let why = texts::say(
            "notices.bounced",
            minijinja::context! { count => count, status => status, diagnostic => diagnostic },
        );
        undeliverable(tx, config, outbox_id, why.trim(), now)?;
    }
    Ok(format!(
        "bounce: {} {} of mail {outbox_id} to {} ({count} hard)",
        if hard { "hard" } else { "soft" },
        status,
        mail.recipient
    ))
}

/// Mail to the recipient of outbox mail `outbox_id` cannot be delivered:
/// its seats are marked, and their opponents and the moderators are told
/// (never the address itself: its mail does not arrive); it stops
/// watching every game it watched.
pub fn undeliverable(
    tx: &Tx<'_>,
    config: &Config,
    outbox_id: i64,
    why: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    let Some(mail) = tx.sent_mail(outbox_id)? else {
        return Ok(());
    };
    // An address that takes no mail watches no game any more.
    let watched = tx.unwatch_address(&mail.recipient)?;
    if tx.leave_daily_address(&mail.recipient)? {
        tracing::warn!(address = %mail.recipient, %why, "Play of the Day member undeliverable: left");
    }
    if watched > 0 {
        tracing::warn!(address = %mail.recipient, games = watched, %why, "watcher undeliverable: unwatched");
    }
    for (game, seat) in tx.mark_undeliverable(&mail.recipient, why)? {
        let Some(row) = tx.game(game)? else { continue };
        let side = side_name(&row, seat);
        let text = texts::wrap(&texts::render(
            "undeliverable",
            minijinja::context! {
                game => game,
                side => side,
                address => mail.recipient,
                why => why,
            },
        ));
        let seed = format!("undeliverable/{outbox_id}/{game}");
        notify_game(tx, config, &row, |s| s != seat, &text, &seed, now)?;
        tracing::warn!(game, seat = seat_text(seat), address = %mail.recipient, %why, "seat undeliverable");
    }
    Ok(())
}

/// Queues the same notice to the players of `game` for whom `to_player`
/// holds (threaded on their previous mail) and to its moderators; the
/// Message-IDs derive from `seed` and each recipient's place in that list.
pub(crate) fn notify_game(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
    to_player: impl Fn(Seat) -> bool,
    body: &str,
    seed: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    let mut to: Vec<(String, Option<(i64, Seat)>)> = tx
        .seats(game.id)?
        .into_iter()
        .filter(|s| to_player(s.seat))
        .map(|s| (s.address, Some((game.id, s.seat))))
        .collect();
    to.extend(
        moderators_of(tx, config, game.id)?
            .into_iter()
            .map(|a| (a, None)),
    );
    for (n, (address, seat)) in to.iter().enumerate() {
        let seed = format!("{seed}/{n}");
        queue_notice(
            tx,
            config,
            game,
            address,
            *seat,
            body.to_string(),
            &seed,
            now,
        )?;
    }
    Ok(())
}

/// Queues a notice about a game to `address` (the seat's, when `seat` is
/// given, threaded on its previous mail), with a Message-ID derived from
/// `seed` so that deciding it again yields the same mail.
#[allow(clippy::too_many_arguments)]
pub(crate) fn queue_notice(
    tx: &Tx<'_>,
    config: &Config,
    game: &GameRow,
    address: &str,
    seat: Option<(i64, Seat)>,
    body: String,
    seed: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    // The computer's seat reads no mail: nothing is queued to it.
    if super::ratings::reads_no_mail(config, address) {
        return Ok(());
    }
    let domain = config.address_parts().1.to_string();
    let id = message_id(seed, &domain);
    let seat_row = match seat {
        Some((g, s)) => tx.seats(g)?.into_iter().find(|r| r.seat == s),
        None => None,
    };
    let mut notice = OutgoingMail {
        message_id: id.clone(),
        from: format!("{} <{}>", config.service.name, config.service.address),
        to: address.to_string(),
        reply_to: seat_row
            .as_ref()
            .map(|r| reply_address(&config.service.address, game.id, &r.secret)),
        subject: game_subject(game, seat.map(|(_, s)| s)),
        in_reply_to: seat_row.as_ref().and_then(|r| r.last_message_id.clone()),
        references: seat_row
            .iter()
            .filter_map(|r| r.last_message_id.clone())
            .collect(),
        list_id: Some(format!("<game-{}.{domain}>", game.id)),
        body,
        date: now,
        auto: AutoKind::Generated,
        return_path: None,
        text_only: false,
        picture: None,
    };
    super::outbox::queue(tx, &mut notice, Some(game.id), now.into())?;
    if let Some((g, s)) = seat {
        tx.set_last_message(g, s, &id)?;
    }
    Ok(())
}

/// Who moderates a game: the server's moderators and the game's own.
pub(super) fn moderators_of(tx: &Tx<'_>, config: &Config, game: i64) -> Result<Vec<String>> {
    let mut all: Vec<String> = config
        .moderators
        .addresses
        .iter()
        .map(|a| a.to_lowercase())
        .collect();
    if let Some(own) = tx.game_moderator(game)? {
        if !all.contains(&own) {
            all.push(own);
        }
    }
    Ok(all)
}

/// Tells the server's moderators that an incoming mail was set aside after
/// `attempts` failed tries: where it is and what went wrong. The mail
/// itself is not forwarded (it may be hostile).
pub(crate) fn poison_notice(
    tx: &Tx<'_>,
    config: &Config,
    key: &str,
    digest: &str,
    error: &str,
    attempts: i64,
    now: DateTime<Utc>,
) -> Result<()> {
    let body = texts::wrap(&texts::say(
        "notices.set_aside",
        minijinja::context! {
            attempts => attempts,
            key => key,
            digest => digest,
            error => error,
        },
    ));
    for (n, address) in config.moderators.addresses.iter().enumerate() {
        queue_service_mail(
            tx,
            config,
            address,
            &texts::say("notices.set_aside_subject", ()),
            body.clone(),
            &format!("poison/{digest}/{n}"),
            now,
        )?;
    }
    Ok(())
}

/// Queues a mail of the service's own that belongs to no game (a digest, a
/// notice to the moderators), its Message-ID made from `seed` so that a
/// retry queues it once.
#[allow(clippy::too_many_arguments)]
pub(crate) fn queue_service_mail(
    tx: &Tx<'_>,
    config: &Config,
    to: &str,
    subject: &str,
    body: String,
    seed: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    if super::ratings::reads_no_mail(config, to) {
        return Ok(());
    }
    let mut mail = OutgoingMail {
        message_id: message_id(seed, config.address_parts().1),
        from: format!("{} <{}>", config.service.name, config.service.address),
        to: to.to_string(),
        reply_to: None,
        subject: subject.to_string(),
        in_reply_to: None,
        references: Vec::new(),
        list_id: None,
        body,
        date: now,
        auto: AutoKind::Generated,
        return_path: None,
        text_only: false,
        picture: None,
    };
    super::outbox::queue(tx, &mut mail, None, now.into())
}
