//! Who may act for a seat: the per-game, per-seat secret carried in the
//! Reply-To subaddress (`orderly+g42.k7xq2m@host`) or a `GAME 42 k7xq2m`
//! line, checked together with the sender's address.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::texts;
use crate::games::Seat;
use crate::store::seat_text;

/// Letters of a secret: lower case and digits without look-alikes, so a
/// player can type one from a phone.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
/// Length of a seat secret: 31^8 (about 2^40) guesses to find one.
const SECRET_LEN: usize = 8;

/// The secret of one seat of one game: an HMAC of both under the server
/// secret, so nothing needs storing to check it and it cannot be guessed
/// from the game number.
pub fn seat_secret(server_secret: &[u8], game: i64, seat: Seat) -> String {
    seat_secret_generation(server_secret, game, seat, 0)
}

/// The secret of a seat after it was given to another player `generation`
/// times (a moderator's REPLACE): the old player's key stops working.
pub fn seat_secret_generation(
    server_secret: &[u8],
    game: i64,
    seat: Seat,
    generation: i64,
) -> String {
    let text = match generation {
        0 => format!("orderly seat {game} {}", seat_text(seat)),
        g => format!("orderly seat {game} {} generation {g}", seat_text(seat)),
    };
    secret_of(server_secret, &text)
}

/// The number kept as a new game's
/// [`GameOptions::seed`](crate::games::GameOptions::seed): an HMAC under
/// the server secret of the mail and the line that created the game. No
/// hosted game reads it: the service's draws of chance have a seed of
/// their own, committed to and revealed (docs/dice.md).
pub fn game_seed(server_secret: &[u8], message_id: &str, line: &str) -> u64 {
    let mut mac = Hmac::<Sha256>::new_from_slice(server_secret).expect("HMAC takes any key");
    mac.update(format!("orderly game seed {message_id} {line}").as_bytes());
    let bytes = mac.finalize().into_bytes();
    u64::from_be_bytes(bytes[..8].try_into().expect("SHA-256 has 32 bytes"))
}

/// A Play of the Day member's key (`orderly+g<game>.<key>@host`, the
/// game being any Play of the Day game): only mail carrying it casts a
/// vote, so a forged From cannot vote for somebody.
pub fn member_secret(server_secret: &[u8], player: i64) -> String {
    secret_of(
        server_secret,
        &format!("orderly play of the day member {player}"),
    )
}

/// A watcher's key for one game (`orderly+g<game>.<key>@host`), in the
/// Reply-To of the answer to WATCH: their reply with it confirms that the
/// address asked (a forged From cannot).
pub fn watcher_secret(server_secret: &[u8], player: i64, game: i64) -> String {
    secret_of(server_secret, &format!("orderly watcher {player} {game}"))
}

/// A moderator's key, for the `orderly+mod.<key>@host` address their
/// commands by mail go to.
pub fn moderator_secret(server_secret: &[u8], address: &str) -> String {
    secret_of(
        server_secret,
        &format!("orderly moderator {}", address.to_ascii_lowercase()),
    )
}

/// The code that confirms a player's move to `new_address` (SET ADDRESS),
/// unique to the request.
pub fn address_code(server_secret: &[u8], player: i64, new_address: &str, request: &str) -> String {
    secret_of(
        server_secret,
        &format!("orderly address {player} {new_address} {request}"),
    )
}

/// Whether `address` is a mailbox a person can be written to (RFC 5321: a
/// dot-atom local part of at most 64 octets, a domain of letter-digit-hyphen
/// labels with at least one dot, at most 254 octets in all, and not a
/// no-reply or mail system address), or why not.
pub fn check_mailbox(address: &str) -> Result<(), String> {
    const ATEXT: &str = "!#$%&'*+-/=?^_`{|}~";
    let shown: String = address.chars().take(60).collect();
    if address.len() > 254 {
        return Err(texts::say(
            "addresses.too_long",
            minijinja::context! { address => shown },
        ));
    }
    let Some((local, domain)) = address.rsplit_once('@') else {
        return Err(texts::say(
            "addresses.no_at",
            minijinja::context! { address => shown },
        ));
    };
    let atom_ok = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ATEXT.contains(c))
    };
    if local.is_empty() || local.len() > 64 || !local.split('.').all(atom_ok) {
        return Err(texts::say(
            "addresses.local_part",
            minijinja::context! { address => shown },
        ));
    }
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if !domain.contains('.') || !domain.split('.').all(label_ok) {
        return Err(texts::say(
            "addresses.domain",
            minijinja::context! { address => shown },
        ));
    }
    if crate::mail::intake::names_no_reader(address) {
        return Err(texts::say(
            "addresses.no_reader",
            minijinja::context! { address => shown },
        ));
    }
    Ok(())
}

/// Whether `address` is the service's own (any subaddress of it) or its
/// bounce address: never a player.
pub fn is_own_address(config: &crate::config::Config, address: &str) -> bool {
    let (local, domain) = config.address_parts();
    let Some((their_local, their_domain)) = address.rsplit_once('@') else {
        return false;
    };
    let base = their_local.split('+').next().unwrap_or(their_local);
    their_domain.eq_ignore_ascii_case(domain)
        && (base.eq_ignore_ascii_case(local) || base.eq_ignore_ascii_case(&config.bounces.local))
}

/// Whether `address` is the bounce address (any VERP subaddress of it).
pub fn is_bounce_address(config: &crate::config::Config, address: &str) -> bool {
    let (_, domain) = config.address_parts();
    let Some((local, their_domain)) = address.rsplit_once('@') else {
        return false;
    };
    let base = local.split('+').next().unwrap_or(local);
    their_domain.eq_ignore_ascii_case(domain) && base.eq_ignore_ascii_case(&config.bounces.local)
}

/// Whether `address` says nobody reads mail sent to it (`noreply@`,
/// `no-reply@`, `donotreply@`, `do-not-reply@`, `mailer-daemon@`,
/// `postmaster@`, another system's `bounces@`): see
/// [`crate::mail::intake::is_noreply`].
pub fn is_no_reply(address: &str) -> bool {
    crate::mail::intake::is_noreply(address)
}

fn secret_of(server_secret: &[u8], text: &str) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(server_secret).expect("HMAC takes a key of any length");
    mac.update(text.as_bytes());
    let bytes = mac.finalize().into_bytes();
    bytes
        .iter()
        .take(SECRET_LEN)
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// The reply address of a seat: the service address with the game and the
/// secret as a subaddress.
pub fn reply_address(service_address: &str, game: i64, secret: &str) -> String {
    match service_address.split_once('@') {
        Some((local, domain)) => format!("{local}+g{game}.{secret}@{domain}"),
        None => service_address.to_string(),
    }
}

/// A game number and a claimed secret, from an address or a body line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The game number.
    pub game: i64,
    /// The secret as written.
    pub secret: String,
}

/// Reads `local+g42.k7xq2m@domain` addressed to the service (any case).
pub fn claim_from_address(service_address: &str, address: &str) -> Option<Claim> {
    let (local, domain) = service_address.split_once('@')?;
    let (a_local, a_domain) = address.rsplit_once('@')?;
    if !a_domain.eq_ignore_ascii_case(domain) {
        return None;
    }
    let (base, sub) = a_local.split_once('+')?;
    if !base.eq_ignore_ascii_case(local) {
        return None;
    }
    let (game, secret) = sub.split_once('.')?;
    let game = game.strip_prefix(['g', 'G'])?.parse().ok()?;
    Some(Claim {
        game,
        secret: secret.to_ascii_lowercase(),
    })
}

/// Reads a `GAME 42 k7xq2m` line (any case).
pub fn claim_from_line(line: &str) -> Option<Claim> {
    let mut words = line.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("GAME") {
        return None;
    }
    let game = words.next()?.trim_start_matches('#').parse().ok()?;
    let secret = words.next()?.to_ascii_lowercase();
    if words.next().is_some() {
        return None;
    }
    Some(Claim { game, secret })
}

/// Compares secrets in time independent of where they differ.
pub fn secrets_match(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::{
        claim_from_address, claim_from_line, reply_address, seat_secret, secrets_match, Claim,
        SECRET_LEN,
    };
    use crate::games::Seat;

    #[test]
    fn secrets_differ_by_game_seat_and_server_secret() {
        let a = seat_secret(b"k1", 42, Seat::North);
        assert_eq!(a.len(), SECRET_LEN);
        assert_eq!(a, seat_secret(b"k1", 42, Seat::North));
        assert_ne!(a, seat_secret(b"k1", 42, Seat::South));
        assert_ne!(a, seat_secret(b"k1", 43, Seat::North));
        assert_ne!(a, seat_secret(b"k2", 42, Seat::North));
    }

    #[test]
    fn claims_are_read_from_addresses_and_lines() {
        let addr = reply_address("orderly@example.org", 42, "k7xq2m");
        assert_eq!(addr, "orderly+g42.k7xq2m@example.org");
        let want = Some(Claim {
            game: 42,
            secret: "k7xq2m".into(),
        });
        assert_eq!(claim_from_address("orderly@example.org", &addr), want);
        assert_eq!(
            claim_from_address("orderly@example.org", "ORDERLY+G42.K7XQ2M@Example.org"),
            want
        );
        assert_eq!(
            claim_from_address("orderly@example.org", "other+g42.x@example.org"),
            None
        );
        assert_eq!(claim_from_line("game 42 K7XQ2M"), want);
        assert_eq!(claim_from_line("GAME #42 k7xq2m"), want);
        assert_eq!(claim_from_line("GAMES"), None);
        assert!(secrets_match("abc", "abc"));
        assert!(!secrets_match("abc", "abd"));
        assert!(!secrets_match("abc", "ab"));
    }
}
