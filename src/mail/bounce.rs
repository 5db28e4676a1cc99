//! Bounces: the per-mail envelope sender (VERP) that makes a bounce name
//! the exact outgoing mail, and the reading of delivery-status
//! notifications (RFC 3464) and of the looser bounces some servers send.
//!
//! Each outgoing mail leaves with `MAIL FROM:<bounces+<id>.<mac>@domain>`,
//! where `<id>` is its outbox id and `<mac>` an HMAC of the id under the
//! server secret, so that a forged or mistyped address is not taken for a
//! bounce of some other mail. A bounce comes back to that address; the
//! service reads it with [`parse_dsn`], finds the address among
//! [`Dsn::addressed_to`] and maps it back with [`verp_parse`] (or
//! [`Dsn::verp_id`] for both steps).

use hmac::{Hmac, Mac};
use mailparse::{MailHeaderMap, ParsedMail};
use sha2::Sha256;

/// Characters of the MAC in a VERP address: 10 of base32 (RFC 4648,
/// lower case), 50 bits.
const MAC_LEN: usize = 10;

/// The VERP envelope sender for outbox mail `outbox_id`:
/// `<bounce_local>+<id>.<mac>@<domain>`, e.g.
/// `bounces+42.k2mxq7abcd@example.org`, where the MAC is the first 10
/// characters of lower-case base32 of HMAC-SHA256(`secret`, `"bounce <id>"`).
///
/// The server must deliver mail for it to orderly's mailbox: `+` must be
/// its recipient delimiter, and `bounce_local` a mailbox (or alias) that
/// orderly reads.
pub fn verp_address(bounce_local: &str, domain: &str, outbox_id: i64, secret: &[u8]) -> String {
    format!(
        "{bounce_local}+{outbox_id}.{}@{domain}",
        verp_mac(secret, outbox_id)
    )
}

/// The outbox id in a VERP address made by [`verp_address`] with the same
/// `bounce_local`, `domain` and `secret`; `None` for any other address or a
/// wrong MAC. Local part, domain and MAC are compared without regard to
/// case (some servers change it); angle brackets around the address are
/// allowed. The MAC is compared in constant time.
pub fn verp_parse(address: &str, bounce_local: &str, domain: &str, secret: &[u8]) -> Option<i64> {
    let address = address.trim();
    let address = address
        .strip_prefix('<')
        .and_then(|a| a.strip_suffix('>'))
        .unwrap_or(address);
    let (local, a_domain) = address.rsplit_once('@')?;
    if !a_domain
        .trim_end_matches('.')
        .eq_ignore_ascii_case(domain.trim_end_matches('.'))
    {
        return None;
    }
    let (base, detail) = local.split_once('+')?;
    if !base.eq_ignore_ascii_case(bounce_local) {
        return None;
    }
    let (id_text, mac) = detail.split_once('.')?;
    let id: i64 = id_text.parse().ok()?;
    // One spelling per id: no `+42`, `042`.
    if id.to_string() != id_text {
        return None;
    }
    let expected = verp_mac(secret, id);
    constant_time_eq(expected.as_bytes(), mac.to_ascii_lowercase().as_bytes()).then_some(id)
}

fn verp_mac(secret: &[u8], outbox_id: i64) -> String {
    const BASE32: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(format!("bounce {outbox_id}").as_bytes());
    let digest = mac.finalize().into_bytes();
    let mut top = [0u8; 8];
    top.copy_from_slice(&digest[..8]);
    let bits = u64::from_be_bytes(top);
    (0..MAC_LEN)
        .map(|i| BASE32[((bits >> (59 - 5 * i)) & 31) as usize] as char)
        .collect()
}

/// Compares in time that depends on the lengths only.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What a delivery report says about one recipient (`Action`, RFC 3464
/// section 2.3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DsnAction {
    /// `failed`: the mail could not be delivered and will not be retried.
    Failed,
    /// `delayed`: not delivered yet; the reporting server keeps trying.
    Delayed,
    /// `delivered`: delivered (a success report).
    Delivered,
    /// `relayed`: handed to a system that sends no reports.
    Relayed,
    /// `expanded`: delivered to a list or alias that forwards it on.
    Expanded,
    /// Any other value, lower-cased.
    Other(String),
}

impl DsnAction {
    fn parse(value: &str) -> DsnAction {
        // A comment may follow, e.g. "failed (bad mailbox)".
        let word = value
            .split(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match word.as_str() {
            "failed" => DsnAction::Failed,
            "delayed" => DsnAction::Delayed,
            "delivered" => DsnAction::Delivered,
            "relayed" => DsnAction::Relayed,
            "expanded" => DsnAction::Expanded,
            _ => DsnAction::Other(word),
        }
    }
}

/// One recipient of a delivery report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DsnRecipient {
    /// `Final-Recipient`, the address without its type (`rfc822;`) or
    /// brackets. In a loose bounce: the first address in its text, if any.
    pub final_recipient: Option<String>,
    /// `Original-Recipient`, likewise, when the report gives it.
    pub original_recipient: Option<String>,
    /// `Action`; `None` in a loose bounce, which does not say.
    pub action: Option<DsnAction>,
    /// `Status`, the enhanced status code such as `5.1.1` (RFC 3463).
    pub status: Option<String>,
    /// `Diagnostic-Code` without its type, e.g. `550 5.1.1 <x@y>: User
    /// unknown`; in a loose bounce, the line holding the reply code.
    pub diagnostic: Option<String>,
    /// The SMTP reply code (`550`) found at the start of the diagnostic.
    pub reply_code: Option<u16>,
}

/// Which kind of report was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsnFormat {
    /// A `multipart/report; report-type=delivery-status` (RFC 3464).
    Report,
    /// A plain-text bounce from `MAILER-DAEMON` or `postmaster` (Exim,
    /// qmail, old Sendmail), read loosely.
    Plain,
}

/// How final a bounce is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The mail will not be delivered: a `failed` recipient with a `5.x.x`
    /// status, or a loose bounce carrying a `5xx` reply.
    Hard,
    /// Delivery is late or failed for a passing reason: a `delayed`
    /// recipient or a `4.x.x` status.
    Soft,
    /// Neither can be told (a success report, a bounce without codes).
    Unknown,
}

/// A bounce or other delivery report, as far as it could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dsn {
    /// How it was read.
    pub format: DsnFormat,
    /// The addresses the report was sent to, from `To`, `Delivered-To` and
    /// `X-Original-To` (bare, without duplicates): one of them should be
    /// the VERP address of the mail that bounced.
    pub addressed_to: Vec<String>,
    /// The per-recipient reports (for a loose bounce: one, when a reply
    /// code was found, else none).
    pub recipients: Vec<DsnRecipient>,
    /// The Message-ID (without brackets) of the mail that bounced, from the
    /// returned message or headers, when included.
    pub original_message_id: Option<String>,
}

impl Dsn {
    /// Hard, soft or unknown, as defined on [`Severity`]; a hard recipient
    /// makes the whole report hard.
    pub fn severity(&self) -> Severity {
        let hard = self.recipients.iter().any(|r| match self.format {
            DsnFormat::Report => {
                r.action == Some(DsnAction::Failed) && status_class(r.status.as_deref()) == Some(5)
            }
            DsnFormat::Plain => {
                r.reply_code.is_some_and(|c| (500..600).contains(&c))
                    || status_class(r.status.as_deref()) == Some(5)
            }
        });
        let soft = self.format == DsnFormat::Report
            && self.recipients.iter().any(|r| {
                r.action == Some(DsnAction::Delayed) || status_class(r.status.as_deref()) == Some(4)
            });
        if hard {
            Severity::Hard
        } else if soft {
            Severity::Soft
        } else {
            Severity::Unknown
        }
    }

    /// Whether the mail will not be delivered ([`Severity::Hard`]).
    pub fn is_hard(&self) -> bool {
        self.severity() == Severity::Hard
    }

    /// Whether delivery is only late or passing ([`Severity::Soft`]).
    pub fn is_soft(&self) -> bool {
        self.severity() == Severity::Soft
    }

    /// The outbox id from the first of [`addressed_to`](Self::addressed_to)
    /// that is a valid VERP address (see [`verp_parse`]).
    pub fn verp_id(&self, bounce_local: &str, domain: &str, secret: &[u8]) -> Option<i64> {
        self.addressed_to
            .iter()
            .find_map(|a| verp_parse(a, bounce_local, domain, secret))
    }

    /// The recipients that failed or were delayed, the ones worth telling
    /// a moderator about.
    pub fn problems(&self) -> impl Iterator<Item = &DsnRecipient> {
        self.recipients.iter().filter(|r| {
            !matches!(
                r.action,
                Some(DsnAction::Delivered | DsnAction::Relayed | DsnAction::Expanded)
            )
        })
    }
}

/// The first digit of an enhanced status code (`5.1.1` -> 5), if valid.
fn status_class(status: Option<&str>) -> Option<u8> {
    let status = status?;
    let mut parts = status.split('.');
    let class = parts.next()?;
    let valid = parts.clone().count() == 2
        && parts.all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()));
    match class {
        "2" | "4" | "5" if valid => class.parse().ok(),
        _ => None,
    }
}

/// Reads a delivery report: an RFC 3464 `multipart/report;
/// report-type=delivery-status` (per-recipient `Final-Recipient`,
/// `Action`, `Status`, `Diagnostic-Code`), or loosely a plain-text bounce
/// from `MAILER-DAEMON` / `postmaster`. `None` for anything else,
/// including other reports (read receipts, feedback reports).
pub fn parse_dsn(raw: &[u8]) -> Option<Dsn> {
    let mail = mailparse::parse_mail(raw).ok()?;
    let addressed_to = addressed_to(&mail);
    let is_report = mail.ctype.mimetype.eq_ignore_ascii_case("multipart/report");
    if is_report {
        let report_type = mail
            .ctype
            .params
            .get("report-type")
            .map(|t| t.to_ascii_lowercase());
        if report_type.as_deref() == Some("delivery-status") {
            if let Some(dsn) = parse_report(&mail, addressed_to.clone()) {
                return Some(dsn);
            }
        } else {
            return None;
        }
    }
    if !from_mailer_daemon(&mail) {
        return None;
    }
    Some(parse_plain(&mail, addressed_to))
}

fn addressed_to(mail: &ParsedMail) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |address: &str| {
        let address = address.trim().trim_start_matches('<').trim_end_matches('>');
        if address.contains('@') && !out.iter().any(|a| a.eq_ignore_ascii_case(address)) {
            out.push(address.to_owned());
        }
    };
    for name in ["To", "Delivered-To", "X-Original-To"] {
        for value in mail.headers.get_all_values(name) {
            match mailparse::addrparse(&value) {
                Ok(list) => {
                    for entry in list.iter() {
                        match entry {
                            mailparse::MailAddr::Single(single) => add(&single.addr),
                            mailparse::MailAddr::Group(group) => {
                                for single in &group.addrs {
                                    add(&single.addr);
                                }
                            }
                        }
                    }
                }
                Err(_) => add(&value),
            }
        }
    }
    out
}

fn from_mailer_daemon(mail: &ParsedMail) -> bool {
    let from = mail.headers.get_first_value("From").unwrap_or_default();
    let address = match mailparse::addrparse(&from) {
        Ok(list) => list
            .extract_single_info()
            .map(|info| info.addr)
            .unwrap_or(from),
        Err(_) => from,
    };
    let local = address
        .trim()
        .split('@')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    local == "mailer-daemon" || local == "postmaster"
}

fn parse_report(mail: &ParsedMail, addressed_to: Vec<String>) -> Option<Dsn> {
    let mut status_text = None;
    let mut original_message_id = None;
    for part in mail.parts() {
        let mimetype = part.ctype.mimetype.to_ascii_lowercase();
        match mimetype.as_str() {
            "message/delivery-status" | "message/global-delivery-status"
                if status_text.is_none() =>
            {
                let body = part.get_body_raw().ok()?;
                status_text = Some(String::from_utf8_lossy(&body).into_owned());
            }
            "message/rfc822"
            | "text/rfc822-headers"
            | "message/global"
            | "message/global-headers"
                if original_message_id.is_none() =>
            {
                original_message_id = part
                    .get_body_raw()
                    .ok()
                    .and_then(|body| returned_message_id(&body));
            }
            _ => {}
        }
    }
    let recipients = delivery_status_groups(&status_text?)
        .into_iter()
        .filter(|g| {
            g.iter()
                .any(|(name, _)| name == "final-recipient" || name == "action")
        })
        .map(|group| {
            let field = |name: &str| {
                group
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.as_str())
            };
            let diagnostic = field("diagnostic-code").map(|v| strip_type(v).to_owned());
            DsnRecipient {
                final_recipient: field("final-recipient").map(address_of),
                original_recipient: field("original-recipient").map(address_of),
                action: field("action").map(DsnAction::parse),
                status: field("status")
                    .and_then(|v| v.split_whitespace().next())
                    .map(str::to_owned),
                reply_code: diagnostic.as_deref().and_then(leading_reply_code),
                diagnostic,
            }
        })
        .collect();
    Some(Dsn {
        format: DsnFormat::Report,
        addressed_to,
        recipients,
        original_message_id,
    })
}

/// The Message-ID from the headers of a returned message.
fn returned_message_id(body: &[u8]) -> Option<String> {
    let (headers, _) = mailparse::parse_headers(body).ok()?;
    let id = headers.get_first_value("Message-ID")?;
    let id = id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim();
    (!id.is_empty()).then(|| id.to_owned())
}

/// The field groups of a `message/delivery-status` body: blank-line
/// separated, continuation lines unfolded, names lower-cased.
fn delivery_status_groups(text: &str) -> Vec<Vec<(String, String)>> {
    let mut groups = Vec::new();
    let mut group: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !group.is_empty() {
                groups.push(std::mem::take(&mut group));
            }
        } else if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = group.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            group.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    if !group.is_empty() {
        groups.push(group);
    }
    groups
}

/// `rfc822; x@y` -> `x@y`; a value without a type is kept whole.
fn strip_type(value: &str) -> &str {
    match value.split_once(';') {
        Some((kind, rest)) if !kind.trim().is_empty() && !kind.contains(' ') => rest.trim(),
        _ => value.trim(),
    }
}

fn address_of(value: &str) -> String {
    strip_type(value)
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned()
}

/// `550 5.1.1 ...` or `550-5.1.1 ...` -> 550.
fn leading_reply_code(text: &str) -> Option<u16> {
    let head = text.trim_start().get(..3)?;
    let rest = &text.trim_start()[3..];
    let code_like = head.bytes().all(|b| b.is_ascii_digit())
        && matches!(head.as_bytes()[0], b'2'..=b'5')
        && (rest.is_empty() || rest.starts_with([' ', '-']));
    code_like.then(|| head.parse().ok()).flatten()
}

/// A bounce without a machine-readable report: look through its text (up
/// to where the returned message starts) for an SMTP reply `5xx` and an
/// enhanced status, and take the first address in it as the recipient.
fn parse_plain(mail: &ParsedMail, addressed_to: Vec<String>) -> Dsn {
    let text = mail
        .parts()
        .find(|p| p.ctype.mimetype.eq_ignore_ascii_case("text/plain"))
        .and_then(|p| p.get_body().ok())
        .unwrap_or_default();
    let original_message_id = mail
        .parts()
        .find(|p| {
            let m = p.ctype.mimetype.to_ascii_lowercase();
            m == "message/rfc822" || m == "text/rfc822-headers"
        })
        .and_then(|p| p.get_body_raw().ok())
        .and_then(|body| returned_message_id(&body))
        .or_else(|| inline_message_id(&text));
    let explanation: Vec<&str> = text
        .lines()
        .take_while(|line| !starts_returned_message(line))
        .collect();
    let mut found: Option<(u16, &str)> = None;
    for line in &explanation {
        if let Some(code) = line_reply_code(line) {
            found = Some((code, line.trim()));
            if code >= 500 {
                break;
            }
        }
    }
    let recipients = match found {
        Some((code, line)) => vec![DsnRecipient {
            final_recipient: explanation.iter().find_map(|l| first_address(l)),
            original_recipient: None,
            action: None,
            status: line
                .split(|c: char| c.is_whitespace() || c == '-')
                .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit()))
                .find(|w| status_class(Some(w)).is_some())
                .map(str::to_owned),
            diagnostic: Some(line.to_owned()),
            reply_code: Some(code),
        }],
        None => Vec::new(),
    };
    Dsn {
        format: DsnFormat::Plain,
        addressed_to,
        recipients,
        original_message_id,
    }
}

/// Where the copy of the returned message starts in common bounce texts.
fn starts_returned_message(line: &str) -> bool {
    let lower = line.trim().to_ascii_lowercase();
    lower.starts_with("------ this is a copy")
        || lower.starts_with("--- below this line is a copy")
        || lower.starts_with("------ original message")
        || lower.starts_with("----- original message")
        || lower.starts_with("received:")
        || lower.starts_with("return-path:")
}

/// A Message-ID header line in the returned copy inside the text.
fn inline_message_id(text: &str) -> Option<String> {
    text.lines()
        .skip_while(|line| !starts_returned_message(line))
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.trim().eq_ignore_ascii_case("message-id").then(|| {
                value
                    .trim()
                    .trim_start_matches('<')
                    .trim_end_matches('>')
                    .to_owned()
            })
        })
        .filter(|id| !id.is_empty())
}

/// An SMTP reply code (4xx or 5xx) standing as a word of the line:
/// `550 5.1.1 ...`, `said: 550-5.1.1 ...`.
fn line_reply_code(line: &str) -> Option<u16> {
    line.split_whitespace().find_map(|word| {
        let digits = word.split('-').next().unwrap_or(word);
        let digits = digits.strip_suffix(':').unwrap_or(digits);
        let code: u16 = digits.parse().ok()?;
        (digits.len() == 3 && (400..600).contains(&code) && (code % 100) / 10 <= 5).then_some(code)
    })
}

fn first_address(line: &str) -> Option<String> {
    line.split(|c: char| c.is_whitespace() || c == '<' || c == '>' || c == '"')
        .map(|w| w.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '(' | ')' | '[' | ']')))
        .find(|w| {
            w.split_once('@').is_some_and(|(l, d)| {
                !l.is_empty() && d.contains('.') && !d.starts_with('.') && !d.ends_with('.')
            })
        })
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"test-secret";

    fn fixture(name: &str) -> Vec<u8> {
        let path = format!("{}/tests/data/mail/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn verp_round_trip() {
        for id in [0, 1, 42, 1234, i64::MAX, -5] {
            let address = verp_address("bounces", "example.org", id, SECRET);
            assert_eq!(
                verp_parse(&address, "bounces", "example.org", SECRET),
                Some(id),
                "{address}"
            );
        }
        let address = verp_address("bounces", "example.org", 42, SECRET);
        // The same value an independent HMAC-SHA256 + base32 gives.
        assert_eq!(address, "bounces+42.2uqzlyd6jl@example.org");
        // Case changed by a server, brackets from a header.
        assert_eq!(
            verp_parse(
                "<Bounces+42.2UQZLYD6JL@Example.ORG>",
                "bounces",
                "example.org",
                SECRET
            ),
            Some(42)
        );
    }

    #[test]
    fn verp_refuses_forged_macs() {
        let good = verp_address("bounces", "example.org", 42, SECRET);
        // Another mail's MAC, a changed character, a short or long MAC,
        // another secret, a MAC-less address.
        let other = verp_address("bounces", "example.org", 43, SECRET);
        let other_mac = other.split('.').nth(1).unwrap().split('@').next().unwrap();
        for forged in [
            format!("bounces+42.{other_mac}@example.org"),
            good.replace("2uqzlyd6jl", "2uqzlyd6jm"),
            good.replace("2uqzlyd6jl", "2uqzlyd6j"),
            good.replace("2uqzlyd6jl", "2uqzlyd6jla"),
            verp_address("bounces", "example.org", 42, b"other-secret"),
            "bounces+42@example.org".to_string(),
            "bounces+42.@example.org".to_string(),
            good.replace("+42.", "+042."),
            good.replace("+42.", "++42."),
        ] {
            assert_eq!(
                verp_parse(&forged, "bounces", "example.org", SECRET),
                None,
                "{forged}"
            );
        }
    }

    #[test]
    fn verp_refuses_other_domains_and_local_parts() {
        let good = verp_address("bounces", "example.org", 42, SECRET);
        assert_eq!(verp_parse(&good, "bounces", "example.net", SECRET), None);
        assert_eq!(
            verp_parse(&good, "bounces", "sub.example.org", SECRET),
            None
        );
        assert_eq!(verp_parse(&good, "orderly", "example.org", SECRET), None);
        let orderly = verp_address("orderly", "example.org", 42, SECRET);
        assert_eq!(verp_parse(&orderly, "bounces", "example.org", SECRET), None);
        assert_eq!(
            verp_parse(&orderly, "orderly", "example.org", SECRET),
            Some(42)
        );
        // A seat reply address is not a bounce address.
        assert_eq!(
            verp_parse(
                "orderly+g42.k7xq2m@example.org",
                "orderly",
                "example.org",
                SECRET
            ),
            None
        );
        for junk in ["", "@", "bounces", "bounces+42.x", "a@b@example.org"] {
            assert_eq!(verp_parse(junk, "bounces", "example.org", SECRET), None);
        }
    }

    #[test]
    fn postfix_unknown_user_is_hard_and_maps_to_the_mail() {
        let dsn = parse_dsn(&fixture("dsn-postfix-unknown-user.eml")).unwrap();
        assert_eq!(dsn.format, DsnFormat::Report);
        assert_eq!(dsn.recipients.len(), 1);
        let r = &dsn.recipients[0];
        assert_eq!(r.final_recipient.as_deref(), Some("nobody@example.net"));
        assert_eq!(r.original_recipient.as_deref(), Some("nobody@example.net"));
        assert_eq!(r.action, Some(DsnAction::Failed));
        assert_eq!(r.status.as_deref(), Some("5.1.1"));
        assert_eq!(r.reply_code, Some(550));
        assert_eq!(
            r.diagnostic.as_deref(),
            Some(
                "550 5.1.1 <nobody@example.net>: Recipient address rejected: \
                 User unknown in virtual mailbox table"
            )
        );
        assert_eq!(dsn.severity(), Severity::Hard);
        assert!(dsn.is_hard() && !dsn.is_soft());
        assert_eq!(dsn.addressed_to, ["bounces+42.2uqzlyd6jl@example.org"]);
        assert_eq!(dsn.verp_id("bounces", "example.org", SECRET), Some(42));
        assert_eq!(dsn.verp_id("bounces", "example.org", b"wrong"), None);
        assert_eq!(
            dsn.original_message_id.as_deref(),
            Some("0123456789abcdef01234567@example.org")
        );
        assert_eq!(dsn.problems().count(), 1);
    }

    #[test]
    fn delayed_dsn_is_soft() {
        let dsn = parse_dsn(&fixture("dsn-postfix-delayed.eml")).unwrap();
        assert_eq!(dsn.format, DsnFormat::Report);
        let r = &dsn.recipients[0];
        assert_eq!(r.final_recipient.as_deref(), Some("ann@slow.example.net"));
        assert_eq!(r.action, Some(DsnAction::Delayed));
        assert_eq!(r.status.as_deref(), Some("4.4.1"));
        assert_eq!(r.reply_code, None);
        assert_eq!(
            r.diagnostic.as_deref(),
            Some("connect to mx.slow.example.net[198.51.100.7]:25: Connection timed out")
        );
        assert_eq!(dsn.severity(), Severity::Soft);
        assert!(dsn.is_soft() && !dsn.is_hard());
        assert_eq!(dsn.verp_id("bounces", "example.org", SECRET), Some(7));
        assert_eq!(
            dsn.original_message_id.as_deref(),
            Some("aaaabbbbccccddddeeeeffff@example.org")
        );
    }

    #[test]
    fn exim_plain_bounce_is_read_loosely() {
        let dsn = parse_dsn(&fixture("dsn-exim-plain.eml")).unwrap();
        assert_eq!(dsn.format, DsnFormat::Plain);
        assert_eq!(dsn.recipients.len(), 1);
        let r = &dsn.recipients[0];
        assert_eq!(r.final_recipient.as_deref(), Some("gone@example.com"));
        assert_eq!(r.action, None);
        assert_eq!(r.reply_code, Some(550));
        assert_eq!(r.status.as_deref(), Some("5.1.1"));
        assert!(r.diagnostic.as_deref().unwrap().starts_with("550-5.1.1"));
        assert!(dsn.is_hard());
        assert_eq!(dsn.verp_id("bounces", "example.org", SECRET), Some(1234));
        assert_eq!(
            dsn.original_message_id.as_deref(),
            Some("1111222233334444aaaabbbb@example.org")
        );
    }

    #[test]
    fn plain_bounce_without_codes_is_unknown() {
        let raw = b"From: MAILER-DAEMON@mx.example.com\r\n\
            To: bounces+42.2uqzlyd6jl@example.org\r\n\
            Subject: failure notice\r\n\r\n\
            Sorry, I couldn't deliver your message to <x@example.com>.\r\n\
            Mailbox is full, try in 25 minutes.\r\n";
        let dsn = parse_dsn(raw).unwrap();
        assert_eq!(dsn.format, DsnFormat::Plain);
        assert!(dsn.recipients.is_empty());
        assert_eq!(dsn.severity(), Severity::Unknown);
        assert_eq!(dsn.verp_id("bounces", "example.org", SECRET), Some(42));
        // A 4xx in a loose bounce is not taken as soft: only a 5xx counts.
        let raw = b"From: postmaster@mx.example.com\r\nTo: a@example.org\r\n\r\n\
            451 4.3.0 try later\r\n";
        assert_eq!(parse_dsn(raw).unwrap().severity(), Severity::Unknown);
    }

    #[test]
    fn other_mail_is_not_a_dsn() {
        assert_eq!(parse_dsn(&fixture("dsn-mdn-report.eml")), None);
        assert_eq!(parse_dsn(&fixture("plain_utf8.eml")), None);
        assert_eq!(parse_dsn(b""), None);
        let raw = b"From: ann@example.net\r\nTo: orderly@example.org\r\n\r\n550 5.1.1 hi\r\n";
        assert_eq!(parse_dsn(raw), None);
    }

    #[test]
    fn failed_with_a_4xx_status_or_success_reports() {
        let report = |action: &str, status: &str| {
            format!(
                "From: MAILER-DAEMON@x.example\r\nTo: b@example.org\r\n\
                 Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n\
                 --b\r\nContent-Type: text/plain\r\n\r\nhi\r\n\
                 --b\r\nContent-Type: message/delivery-status\r\n\r\n\
                 Reporting-MTA: dns; x.example\r\n\r\n\
                 Final-Recipient: rfc822; <a@example.net>\r\nAction: {action}\r\n\
                 Status: {status}\r\n\r\n--b--\r\n"
            )
        };
        let severity = |a, s| parse_dsn(report(a, s).as_bytes()).unwrap().severity();
        assert_eq!(severity("failed", "5.2.2"), Severity::Hard);
        assert_eq!(severity("Failed (bad)", "5.2.2 (full)"), Severity::Hard);
        assert_eq!(severity("failed", "4.2.2"), Severity::Soft);
        assert_eq!(severity("delivered", "2.0.0"), Severity::Unknown);
        assert_eq!(severity("relayed", "2.0.0"), Severity::Unknown);
        assert_eq!(severity("expanded", "2.0.0"), Severity::Unknown);
        assert_eq!(severity("failed", "junk"), Severity::Unknown);
        let dsn = parse_dsn(report("failed", "5.1.1").as_bytes()).unwrap();
        assert_eq!(
            dsn.recipients[0].final_recipient.as_deref(),
            Some("a@example.net")
        );
    }

    #[test]
    fn reply_codes_in_text() {
        assert_eq!(line_reply_code("said: 550 5.1.1 nope"), Some(550));
        assert_eq!(line_reply_code("    550-5.1.1 The email"), Some(550));
        assert_eq!(line_reply_code("port 587 and 2025 and 600"), None);
        assert_eq!(line_reply_code("mx[192.0.2.1]:25: timed out"), None);
        assert_eq!(leading_reply_code("550 5.1.1 x"), Some(550));
        assert_eq!(leading_reply_code("5501 x"), None);
        assert_eq!(leading_reply_code("connect to x"), None);
    }
}
