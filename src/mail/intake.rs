//! Reading one incoming message: who sent it, what it answers, whether it
//! must never be answered, and the text a player wrote, with quoted lines,
//! quoted originals and signatures removed.
//!
//! Parsing is lenient: a message is refused only when nothing useful can be
//! read from it (no headers at all). A broken MIME structure yields the
//! headers and whatever text could be found, possibly none.
//!
//! ```
//! use orderly::mail::intake::parse;
//!
//! let raw = b"From: Ann Lee <Ann@Example.COM>\r\n\
//!     To: orderly+g42.k7xq2m@example.org\r\n\
//!     Subject: Re: Game 42\r\n\
//!     Message-ID: <abc@example.com>\r\n\
//!     \r\n\
//!     MOVE G2CR G1C\r\n\
//!     \r\n\
//!     > Blue to move\r\n";
//! let mail = parse(raw).unwrap();
//! assert_eq!(mail.message_id.as_deref(), Some("abc@example.com"));
//! assert!(mail.is_from("ann@example.com"));
//! assert_eq!(mail.text, "MOVE G2CR G1C");
//! assert!(mail.automatic.is_none());
//! ```

use std::collections::HashSet;
use std::fmt;

use chrono::{DateTime, FixedOffset};
use mailparse::{DispositionType, MailAddr, MailHeader, MailHeaderMap, ParsedMail};

mod limits;
mod printable;

pub use limits::{Limits, Unread, MAX_BODY_LINE_MARKERS};
pub use printable::{for_log, printable, LOG_CHARS};

/// Addresses read from each of To, Cc and the delivered-to headers; the
/// rest are not looked at (a reply address of orderly's is among the first).
pub const MAX_RECIPIENTS: usize = 100;
/// Message IDs kept from References (the last ones, nearest the mail).
pub const MAX_REFERENCES: usize = 20;
/// Characters kept of a Subject (it is only ever echoed).
pub const MAX_SUBJECT_CHARS: usize = 200;
/// Characters kept of a display name.
pub const MAX_NAME_CHARS: usize = 100;
/// The longest Message-ID or mail address taken; a longer one is no ID or
/// address at all.
pub const MAX_ID_CHARS: usize = 254;

/// A mailbox: the address, lower-cased, and the display name as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    /// The display name (`Ann Lee` in `Ann Lee <ann@example.com>`), decoded.
    pub name: Option<String>,
    /// The address itself, lower-cased.
    pub address: String,
}

impl Address {
    /// Whether this is the mailbox `other`, ignoring case and any
    /// `+subaddress` on either side.
    pub fn same_mailbox(&self, other: &str) -> bool {
        mailbox_key(&self.address) == mailbox_key(other)
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "\"{}\" <{}>", name.replace('"', "\\\""), self.address),
            None => f.write_str(&self.address),
        }
    }
}

/// Why a message must never be answered: answering machines talking to each
/// other loop forever, and a bounce answered bounces again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Automatic {
    /// An `Auto-Submitted` header other than `no` (RFC 3834).
    AutoSubmitted,
    /// A delivery report: null sender (`Return-Path: <>`), a
    /// `multipart/report` body, or From `MAILER-DAEMON` or `postmaster`.
    Bounce,
    /// Mass mail: `Precedence: bulk`, `junk` or `list`, or a `List-Id` or
    /// `List-Unsubscribe` header.
    Bulk,
    /// An answering machine's own marker: `X-Autoreply`, `X-Autorespond`
    /// and the like.
    AutoReply,
}

impl Automatic {
    /// A short description for logs.
    pub fn describe(self) -> &'static str {
        match self {
            Automatic::AutoSubmitted => "auto-submitted",
            Automatic::Bounce => "bounce",
            Automatic::Bulk => "bulk or list mail",
            Automatic::AutoReply => "auto-reply",
        }
    }
}

impl fmt::Display for Automatic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// One incoming message, as far as the service needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// The Message-ID without its angle brackets; `None` when the message
    /// has none (the caller derives one from a hash of the message).
    pub message_id: Option<String>,
    /// The author in From: `None` when there is no From, or when no single
    /// author can be told (see [`Incoming::sender_problem`]).
    pub from: Option<Address>,
    /// Why no single author could be read from From, when a From is there:
    /// a mail that may be someone else's is never acted on.
    pub sender_problem: Option<SenderProblem>,
    /// Whether the envelope sender is null (`Return-Path: <>`), as for
    /// bounces.
    pub sender_is_null: bool,
    /// The To addresses, lower-cased.
    pub to: Vec<String>,
    /// The Cc addresses, lower-cased.
    pub cc: Vec<String>,
    /// The envelope recipients the delivery agent recorded (`Delivered-To`,
    /// `X-Original-To`), lower-cased: the only place a subaddress shows
    /// when the player wrote to a list or a Bcc.
    pub delivered_to: Vec<String>,
    /// The subject, RFC 2047 words decoded; empty when there is none.
    pub subject: String,
    /// The message IDs in In-Reply-To, without angle brackets.
    pub in_reply_to: Vec<String>,
    /// The message IDs in References, oldest first, without angle brackets.
    pub references: Vec<String>,
    /// The Date header, if it could be read.
    pub date: Option<DateTime<FixedOffset>>,
    /// What the player wrote: the plain text with quoted lines, quoted
    /// originals, signatures and anything after an `END` line removed;
    /// lines trimmed at the end, no blank lines at either end.
    pub text: String,
    /// The decoded plain text (or the text of the HTML) before stripping,
    /// with LF line ends: for logs and for moderators.
    pub full_text: String,
    /// Why this message must never be answered, if it must not.
    pub automatic: Option<Automatic>,
    /// What the [`Limits`] left unread.
    pub unread: Unread,
    /// Whether the receiving server's topmost `Authentication-Results`
    /// header says the From domain passed DMARC (`dmarc=pass` with
    /// `header.from` that domain) or DKIM (`dkim=pass` with `header.d` that
    /// domain). Worth as much as that server's care to remove such headers
    /// from incoming mail: only a hint, used to decide whether a mail too
    /// large to read gets a short answer.
    pub from_authenticated: bool,
}

impl Incoming {
    /// No mail at all: what work of the service's own that no mail began
    /// (the computer's answer the sweep plays) reads as its mail.
    pub fn none() -> Incoming {
        Incoming {
            message_id: None,
            from: None,
            sender_problem: None,
            sender_is_null: false,
            to: Vec::new(),
            cc: Vec::new(),
            delivered_to: Vec::new(),
            subject: String::new(),
            in_reply_to: Vec::new(),
            references: Vec::new(),
            date: None,
            text: String::new(),
            full_text: String::new(),
            automatic: None,
            unread: Unread::default(),
            from_authenticated: false,
        }
    }
}

/// Why a From names no single author.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SenderProblem {
    /// Two or more From headers.
    SeveralFromHeaders,
    /// Two or more addresses (or a group) in From.
    SeveralAuthors,
    /// A From without any address that can be read.
    Unreadable,
}

impl SenderProblem {
    /// A short description for logs.
    pub fn describe(self) -> &'static str {
        match self {
            SenderProblem::SeveralFromHeaders => "several From headers",
            SenderProblem::SeveralAuthors => "several addresses in From",
            SenderProblem::Unreadable => "a From that cannot be read",
        }
    }
}

impl fmt::Display for SenderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

impl Incoming {
    /// Whether the author in From is `address`, ignoring case and any
    /// `+subaddress` on either side. The service uses it to drop mail from
    /// its own address (a loop) and to check a player's address.
    pub fn is_from(&self, address: &str) -> bool {
        self.from
            .as_ref()
            .is_some_and(|from| from.same_mailbox(address))
    }

    /// Every recipient address: To, then Cc, then the delivered-to ones.
    pub fn recipients(&self) -> impl Iterator<Item = &str> {
        self.to
            .iter()
            .chain(&self.cc)
            .chain(&self.delivered_to)
            .map(String::as_str)
    }
}

/// Why a message could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IntakeError {
    /// Nothing but white space.
    #[error("the message is empty")]
    Empty,
    /// No line of the header block looks like a header.
    #[error("the message has no headers")]
    NoHeaders,
    /// The header block is malformed beyond reading.
    #[error("the message headers could not be read: {0}")]
    Headers(String),
}

/// Reads one raw message (as stored in a Maildir, CRLF or LF line ends)
/// within the default [`Limits`].
///
/// Never panics; refuses only a message that is empty or has no readable
/// headers (there is nobody to answer then). A broken MIME structure gives
/// the headers and whatever text could be found. See [`Incoming`] for what
/// is extracted.
pub fn parse(raw: &[u8]) -> Result<Incoming, IntakeError> {
    parse_with(raw, &Limits::default())
}

/// Reads one raw message within `limits`: what lies beyond them is not
/// read, and counted in [`Incoming::unread`].
pub fn parse_with(raw: &[u8], limits: &Limits) -> Result<Incoming, IntakeError> {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Err(IntakeError::Empty);
    }
    let raw = skip_mbox_line(raw);
    let whole = raw.len();
    let raw = within_size(raw, limits);
    let mut unread = Unread {
        bytes: whole - raw.len(),
        ..Unread::default()
    };
    let bounded = limits::bound_raw(raw, limits, &mut unread);
    let raw = bounded.as_ref();
    if too_many_parts(raw) {
        // mailparse recurses once per nesting level; a crafted message can
        // nest deep enough to overflow the stack. The headers still say who
        // wrote and whether to answer.
        tracing::debug!("message has too many MIME parts; reading the headers only");
        return headers_only(raw, unread);
    }
    match mailparse::parse_mail(raw) {
        Ok(mail) => {
            let full_text = body_text(&mail);
            build(
                &mail.headers,
                &mail.ctype.mimetype,
                full_text,
                limits,
                unread,
            )
        }
        Err(error) => {
            // mailparse gives up on the whole message when one nested part
            // is malformed; the top-level headers alone are still worth
            // having.
            tracing::debug!(error = %for_log(&error.to_string()), "MIME structure unreadable; reading the headers only");
            headers_only(raw, unread)
        }
    }
}

/// Reads only the headers of a message too large to read whole, from its
/// first bytes `head` (of `size` in all): who wrote it, whether it is
/// automatic. The text is empty.
pub fn parse_head(head: &[u8], size: usize, limits: &Limits) -> Result<Incoming, IntakeError> {
    if head.iter().all(u8::is_ascii_whitespace) {
        return Err(IntakeError::Empty);
    }
    let head = skip_mbox_line(head);
    let (end, _) = limits::header_block(head);
    let mut unread = Unread {
        bytes: size.saturating_sub(end),
        ..Unread::default()
    };
    let headers = limits::bound_raw(&head[..end], limits, &mut unread);
    headers_only(&headers, unread)
}

/// Procmail and some mbox-to-Maildir tools keep the mbox `From ` line,
/// which is not a header.
fn skip_mbox_line(raw: &[u8]) -> &[u8] {
    if raw.starts_with(b"From ") {
        match raw.iter().position(|&b| b == b'\n') {
            Some(end) => &raw[end + 1..],
            None => &raw[raw.len()..],
        }
    } else {
        raw
    }
}

/// Far more boundaries than any real message has.
const MAX_BOUNDARIES: usize = 256;

fn too_many_parts(raw: &[u8]) -> bool {
    const NEEDLE: &[u8] = b"boundary";
    raw.windows(NEEDLE.len())
        .filter(|w| w.eq_ignore_ascii_case(NEEDLE))
        .take(MAX_BOUNDARIES + 1)
        .count()
        > MAX_BOUNDARIES
}

fn headers_only(raw: &[u8], unread: Unread) -> Result<Incoming, IntakeError> {
    let (headers, _) =
        mailparse::parse_headers(raw).map_err(|e| IntakeError::Headers(for_log(&e.to_string())))?;
    let mimetype = headers
        .get_first_value("Content-Type")
        .map(|v| mailparse::parse_content_type(&v).mimetype)
        .unwrap_or_else(|| "text/plain".to_string());
    build(
        &headers,
        &mimetype,
        String::new(),
        &Limits::default(),
        unread,
    )
}

fn build(
    headers: &[MailHeader],
    mimetype: &str,
    full_text: String,
    limits: &Limits,
    mut unread: Unread,
) -> Result<Incoming, IntakeError> {
    if !headers.iter().any(is_real_header) {
        return Err(IntakeError::NoHeaders);
    }
    let (from, sender_problem, first_author) = sender(headers);
    let from_authenticated = from
        .as_ref()
        .is_some_and(|a| domain_authenticated(headers, &a.address));
    let sender_is_null = headers
        .get_first_value("Return-Path")
        .is_some_and(|v| v.chars().filter(|c| !c.is_whitespace()).eq("<>".chars()));
    let automatic = automatic(headers, mimetype, first_author.as_ref(), sender_is_null);
    let text = limits::bound_text(strip(&full_text), limits, &mut unread);
    let mut references = all_message_ids(headers, "References");
    references.drain(..references.len().saturating_sub(MAX_REFERENCES));
    let mut in_reply_to = all_message_ids(headers, "In-Reply-To");
    in_reply_to.truncate(MAX_REFERENCES);
    Ok(Incoming {
        message_id: headers
            .get_first_value("Message-ID")
            .and_then(|v| message_ids(&v).into_iter().next()),
        from,
        sender_problem,
        sender_is_null,
        to: address_list(headers, &["To"]),
        cc: address_list(headers, &["Cc"]),
        delivered_to: address_list(headers, &["Delivered-To", "X-Original-To"]),
        subject: headers
            .get_first_value("Subject")
            .map(|s| cut_chars(printable(&s).trim(), MAX_SUBJECT_CHARS))
            .unwrap_or_default(),
        in_reply_to,
        references,
        date: headers.get_first_value("Date").and_then(|v| date(&v)),
        text,
        full_text,
        automatic,
        unread,
        from_authenticated,
    })
}

/// Whether the topmost `Authentication-Results` header says the domain of
/// `address` passed DMARC or DKIM (see [`Incoming::from_authenticated`]).
fn domain_authenticated(headers: &[MailHeader], address: &str) -> bool {
    let Some((_, domain)) = address.rsplit_once('@') else {
        return false;
    };
    let Some(value) = headers.get_first_value("Authentication-Results") else {
        return false;
    };
    // Comments (`(p=none)`) say nothing to rely on.
    let mut plain = String::with_capacity(value.len());
    let mut depth = 0usize;
    for c in value.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => plain.push(c),
            _ => plain.push(' '),
        }
    }
    // The first element is the server's own name.
    plain.split(';').skip(1).any(|result| {
        let mut words = result.split_whitespace();
        let method = words.next().unwrap_or_default().to_ascii_lowercase();
        let property = |name: &str| {
            result.split_whitespace().find_map(|w| {
                let (key, value) = w.split_once('=')?;
                key.eq_ignore_ascii_case(name)
                    .then(|| value.trim_matches('"').to_ascii_lowercase())
            })
        };
        let same = |d: Option<String>| d.is_some_and(|d| d.eq_ignore_ascii_case(domain));
        match method.as_str() {
            "dmarc=pass" => same(property("header.from")),
            "dkim=pass" => {
                same(property("header.d"))
                    || same(
                        property("header.i")
                            .and_then(|i| i.rsplit_once('@').map(|(_, d)| d.to_string())),
                    )
            }
            _ => false,
        }
    })
}

/// Whether `address` is one that must never be written to: one that
/// [says nobody reads it](names_no_reader), or a bounce address
/// (`bounces@`, `bounce-123@`). Any `+subaddress` is ignored.
pub fn is_noreply(address: &str) -> bool {
    let local = local_base(address);
    names_no_reader(address)
        || matches!(
            local.split(['-', '.', '_']).next(),
            Some("bounce" | "bounces")
        )
}

/// Whether `address` says nobody reads mail sent to it: `noreply`,
/// `no-reply`, `donotreply`, `do-not-respond` and the like, or a mail
/// system's own (`MAILER-DAEMON`, `postmaster`).
pub fn names_no_reader(address: &str) -> bool {
    let squashed: String = local_base(address)
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .collect();
    squashed.starts_with("noreply")
        || squashed.starts_with("donotreply")
        || squashed.starts_with("donotrespond")
        || squashed == "mailerdaemon"
        || squashed == "postmaster"
}

/// The local part of an address, lower case, without `+subaddress` (or a
/// `=` VERP tail).
fn local_base(address: &str) -> String {
    let local = address
        .rsplit_once('@')
        .map_or(address, |(local, _)| local)
        .to_ascii_lowercase();
    local
        .split(['+', '='])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `raw` as [`parse_with`] reads it: the header block and the lines
/// bounded (see [`Limits`]), the rest beyond `max_mail_bytes` dropped. For
/// other readers of the same message (the bounce reader).
pub fn bounded<'a>(raw: &'a [u8], limits: &Limits) -> std::borrow::Cow<'a, [u8]> {
    limits::bound_raw(within_size(raw, limits), limits, &mut Unread::default())
}

/// `raw` up to `max_mail_bytes`, cut at the end of a line: a line cut
/// short could read as another command (`RESIGNATION` as `RESIGN`).
fn within_size<'a>(raw: &'a [u8], limits: &Limits) -> &'a [u8] {
    if raw.len() <= limits.max_mail_bytes {
        return raw;
    }
    let cut = &raw[..limits.max_mail_bytes];
    match cut.iter().rposition(|&b| b == b'\n') {
        Some(end) => &cut[..=end],
        None => cut,
    }
}

/// The first `max` characters of `text`.
fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => text[..cut].trim_end().to_string(),
        None => text.to_string(),
    }
}

/// The author in From when there is exactly one, else why not; and the
/// first address of the first From, whatever else is there (a bounce is
/// still known by its MAILER-DAEMON).
fn sender(headers: &[MailHeader]) -> (Option<Address>, Option<SenderProblem>, Option<Address>) {
    let froms = headers.get_all_headers("From");
    let Some(first) = froms.first() else {
        return (None, None, None);
    };
    let authors = addresses(first);
    let first_author = authors.first().cloned();
    let problem = if froms.len() > 1 {
        Some(SenderProblem::SeveralFromHeaders)
    } else if authors.len() > 1 || is_group(first) {
        Some(SenderProblem::SeveralAuthors)
    } else if authors.is_empty() {
        Some(SenderProblem::Unreadable)
    } else {
        None
    };
    match problem {
        Some(problem) => (None, Some(problem), first_author),
        None => (first_author.clone(), None, first_author),
    }
}

/// Whether an address header holds a group (`team: a@x, b@y;`): never
/// one author.
fn is_group(header: &MailHeader) -> bool {
    mailparse::addrparse_header(header)
        .is_ok_and(|list| list.iter().any(|a| matches!(a, MailAddr::Group(_))))
}

/// A header whose name is a valid field name and that has a value: the
/// lines mailparse reads as headers from a body without any are neither.
fn is_real_header(header: &MailHeader) -> bool {
    let key = header.get_key_raw().trim_ascii();
    !key.is_empty()
        && key.iter().all(|&b| (33..=126).contains(&b) && b != b':')
        && !header.get_value_raw().trim_ascii().is_empty()
}

// ----- addresses -------------------------------------------------------------

/// Lower-cases, drops angle brackets and any `+subaddress`.
fn mailbox_key(address: &str) -> String {
    let address = address
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_lowercase();
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split_once('+').map_or(local, |(base, _)| base);
            format!("{local}@{domain}")
        }
        None => address,
    }
}

fn addresses(header: &MailHeader) -> Vec<Address> {
    match mailparse::addrparse_header(header) {
        Ok(list) => {
            let mut out = Vec::new();
            for addr in list.iter() {
                match addr {
                    MailAddr::Single(info) => out.extend(address(info)),
                    MailAddr::Group(group) => out.extend(group.addrs.iter().filter_map(address)),
                }
            }
            out
        }
        Err(_) => loose_addresses(&header.get_value()),
    }
}

fn address(info: &mailparse::SingleInfo) -> Option<Address> {
    Some(Address {
        name: info
            .display_name
            .as_deref()
            .map(|n| cut_chars(printable(n).trim(), MAX_NAME_CHARS))
            .filter(|n| !n.is_empty()),
        address: valid_address(info.addr.trim().to_lowercase())?,
    })
}

/// An address as the service may store, log and write to: `local@domain`
/// with both parts and one `@`, no white space, control character, quote
/// or other special (a quoted local part is refused: nobody plays from
/// `"a@b"@c`, and a relay may read it as a route), not too long.
fn valid_address(address: String) -> Option<String> {
    let (local, domain) = address.split_once('@')?;
    let fine = !local.is_empty()
        && !domain.is_empty()
        && !domain.contains('@')
        && address.len() <= MAX_ID_CHARS
        && !address.chars().any(|c| {
            c.is_whitespace()
                || c.is_control()
                || matches!(
                    c,
                    '<' | '>' | ',' | ';' | ':' | '"' | '(' | ')' | '[' | ']' | '\\'
                )
        });
    fine.then_some(address)
}

/// For headers mailparse cannot read (unbalanced quotes, stray brackets):
/// every word with an `@`, and the text before a lone bracketed address as
/// its name.
fn loose_addresses(value: &str) -> Vec<Address> {
    let words: Vec<&str> = value
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| w.contains('@'))
        .collect();
    let name = match (words.as_slice(), value.find('<')) {
        ([_], Some(at)) => Some(cut_chars(
            printable(value[..at].trim().trim_matches('"').trim()).trim(),
            MAX_NAME_CHARS,
        ))
        .filter(|n| !n.is_empty()),
        _ => None,
    };
    words
        .iter()
        .map(|w| {
            w.trim_matches(|c: char| matches!(c, '<' | '>' | '"' | '\'' | '(' | ')'))
                .to_lowercase()
        })
        .filter(|w| w.len() > 1)
        .filter_map(valid_address)
        .map(|address| Address {
            name: name.clone(),
            address,
        })
        .collect()
}

/// The addresses of the headers `names`, each once, at most
/// [`MAX_RECIPIENTS`].
fn address_list(headers: &[MailHeader], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for name in names {
        for header in headers.get_all_headers(name) {
            for a in addresses(header) {
                if out.len() == MAX_RECIPIENTS {
                    return out;
                }
                if seen.insert(a.address.clone()) {
                    out.push(a.address);
                }
            }
        }
    }
    out
}

// ----- message IDs and date ---------------------------------------------------

/// The IDs in a Message-ID, In-Reply-To or References value. Lenient: IDs
/// without brackets, comments and text between them are tolerated.
fn message_ids(value: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut rest = value;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else { break };
        let id = after[..close].trim();
        if let Some(id) = clean_id(id) {
            ids.push(id);
        }
        rest = &after[close + 1..];
    }
    if ids.is_empty() {
        // Some agents write IDs bare; an `@` tells an ID from a comment.
        ids = value
            .split_whitespace()
            .filter(|w| w.contains('@'))
            .filter_map(|w| clean_id(w.trim_matches(|c| c == '<' || c == '>')))
            .collect();
    }
    ids
}

/// A message ID without control characters or white space; none when it
/// is empty or longer than [`MAX_ID_CHARS`].
fn clean_id(id: &str) -> Option<String> {
    let id: String = printable(id)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    (!id.is_empty() && id.len() <= MAX_ID_CHARS).then_some(id)
}

fn all_message_ids(headers: &[MailHeader], name: &str) -> Vec<String> {
    headers
        .get_all_values(name)
        .iter()
        .flat_map(|v| message_ids(v))
        .collect()
}

fn date(value: &str) -> Option<DateTime<FixedOffset>> {
    let value = value.trim();
    DateTime::parse_from_rfc2822(value).ok().or_else(|| {
        // mailparse reads some forms chrono refuses (odd spacing, a missing
        // time) but loses the offset: UTC then. It answers 0 for text
        // without a year, which is no date at all.
        mailparse::dateparse(value)
            .ok()
            .filter(|&secs| secs > 0)
            .and_then(|secs| DateTime::from_timestamp(secs, 0))
            .map(|d| d.fixed_offset())
    })
}

// ----- automatic mail ---------------------------------------------------------

fn automatic(
    headers: &[MailHeader],
    mimetype: &str,
    from: Option<&Address>,
    sender_is_null: bool,
) -> Option<Automatic> {
    let value = |name: &str| {
        headers
            .get_first_value(name)
            .map(|v| v.trim().to_lowercase())
    };
    let present = |name: &str| headers.get_first_header(name).is_some();

    let daemon_from = match from {
        Some(a) => {
            let local = a.address.split('@').next().unwrap_or_default();
            local == "mailer-daemon" || local == "postmaster"
        }
        None => value("From").is_some_and(|v| {
            let v = v.trim_start_matches(['"', '<']);
            v.starts_with("mailer-daemon") || v.starts_with("postmaster")
        }),
    };
    if sender_is_null || mimetype == "multipart/report" || daemon_from {
        return Some(Automatic::Bounce);
    }
    if let Some(v) = value("Auto-Submitted") {
        // RFC 3834: the keyword may carry parameters (`auto-replied; x=y`).
        let keyword = v.split(';').next().unwrap_or_default().trim();
        if keyword != "no" {
            return Some(Automatic::AutoSubmitted);
        }
    }
    // X-Auto-Response-Suppress is deliberately not here: Exchange puts it on
    // ordinary mail people write, to ask *other* machines not to answer.
    // Nor is the subject ("Out of Office", "Automatic reply:"): a player may
    // write that, and real answering machines also set one of these headers.
    let autoreply = [
        "X-Autoreply",
        "X-Autorespond",
        "X-Autoreply-From",
        "X-Mail-Autoreply",
    ]
    .iter()
    .any(|name| value(name).is_some_and(|v| v != "no"))
        || value("X-Autogenerated").is_some_and(|v| v == "reply");
    if autoreply {
        return Some(Automatic::AutoReply);
    }
    let bulk_precedence =
        value("Precedence").is_some_and(|v| matches!(v.as_str(), "bulk" | "junk" | "list"));
    if bulk_precedence || present("List-Id") || present("List-Unsubscribe") {
        return Some(Automatic::Bulk);
    }
    None
}

// ----- body --------------------------------------------------------------------

/// The decoded text of the first text/plain part, or failing that of the
/// first text/html part converted to text; attachments are skipped, and so
/// are parts whose transfer encoding is broken. LF line ends.
fn body_text<'a>(mail: &'a ParsedMail<'a>) -> String {
    let mut leaves = Vec::new();
    text_leaves(mail, &mut leaves);
    let first = |mimetype: &str| {
        leaves
            .iter()
            .filter(|p| p.ctype.mimetype == mimetype)
            .find_map(|p| decode_text(p))
    };
    if let Some(text) = first("text/plain") {
        return text;
    }
    first("text/html")
        .map(|html| html_to_text(&html))
        .unwrap_or_default()
}

/// The single parts under `mail` that are not attachments, in order.
fn text_leaves<'a>(mail: &'a ParsedMail<'a>, out: &mut Vec<&'a ParsedMail<'a>>) {
    if mail.get_content_disposition().disposition == DispositionType::Attachment {
        return;
    }
    if mail.ctype.mimetype.starts_with("multipart/") {
        for part in &mail.subparts {
            text_leaves(part, out);
        }
    } else {
        out.push(mail);
    }
}

/// The part's text with LF line ends, or `None` when its transfer encoding
/// cannot be undone.
fn decode_text(part: &ParsedMail) -> Option<String> {
    let text = if part.ctype.params.contains_key("charset") {
        part.get_body().ok()?
    } else {
        // Without a charset mailparse assumes US-ASCII and decodes as
        // windows-1252; clients that forget the charset nearly always
        // send UTF-8.
        match String::from_utf8(part.get_body_raw().ok()?) {
            Ok(text) => text,
            Err(_) => part.get_body().ok()?,
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let param = |name: &str| part.ctype.params.get(name).map(|v| v.to_ascii_lowercase());
    if part.ctype.mimetype == "text/plain" && param("format").as_deref() == Some("flowed") {
        Some(unflow(&text, param("delsp").as_deref() == Some("yes")))
    } else {
        Some(text)
    }
}

/// Undoes RFC 3676 format=flowed: a line ending in a space continues on the
/// next line of the same quote depth, and a leading space is stuffing.
/// Without this, a long order line a client wrapped would be read as two.
fn unflow(text: &str, delsp: bool) -> String {
    fn flush(out: &mut Vec<String>, open: &mut Option<(usize, String)>) {
        if let Some((depth, content)) = open.take() {
            out.push(if depth > 0 {
                format!("{} {content}", ">".repeat(depth))
            } else {
                content
            });
        }
    }
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for line in text.split('\n') {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        let signature = content == "-- ";
        if open.as_ref().is_some_and(|(d, _)| *d != depth) || signature {
            flush(&mut out, &mut open);
        }
        let flowed = !signature && content.ends_with(' ');
        let content = match content.strip_suffix(' ') {
            Some(without) if flowed && delsp => without,
            _ => content,
        };
        match &mut open {
            Some((_, joined)) => joined.push_str(content),
            None => open = Some((depth, content.to_string())),
        }
        if !flowed {
            flush(&mut out, &mut open);
        }
    }
    flush(&mut out, &mut open);
    out.join("\n")
}

// ----- stripping ---------------------------------------------------------------

/// What the player wrote, without quotes, quoted originals and signatures.
///
/// Quoted lines (`>`) are dropped wherever they are, so that a reply
/// written below the quote (bottom-posting, Thunderbird's default) or
/// between its parts is read. An attribution line (`On ... wrote:`) that
/// introduces such a quote is dropped with it; one followed by unquoted
/// text, like Outlook's `-----Original Message-----` and `From:`/`Sent:`
/// header blocks, starts an original included without quote marks, and
/// everything from there on is cut. So is a signature (`-- `) and
/// anything after an `END` line; a mail of `END` alone keeps it, as the
/// order that ends a Civil War 1863 turn (its `MAIL_TURN` close).
fn strip(full: &str) -> String {
    let lines: Vec<&str> = full.lines().collect();
    let mut kept: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim();
        if trimmed == "--" || trimmed.eq_ignore_ascii_case("END") {
            if trimmed != "--" && kept.iter().all(|l| l.trim().is_empty()) {
                kept.push(lines[i]);
            }
            break;
        }
        if trimmed.starts_with('>') {
            i += 1;
            continue;
        }
        let attribution = attribution_lines(&lines, i);
        if let Some(len) = attribution.filter(|&len| quote_follows(&lines, i + len)) {
            // Bottom-posting: the quote is dropped line by line above,
            // and what follows it is the player's again.
            i += len;
            continue;
        }
        if attribution.is_some() || starts_quoted_original(&lines, i) {
            // Outlook draws a rule above its header block.
            while kept.last().is_some_and(|l| is_rule(l.trim())) {
                kept.pop();
            }
            break;
        }
        kept.push(lines[i].trim_end());
        i += 1;
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    let start = kept
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(kept.len());
    kept[start..].join("\n")
}

/// Whether the next line that is not blank, from `from` on, is quoted.
fn quote_follows(lines: &[&str], from: usize) -> bool {
    lines
        .iter()
        .skip(from)
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with('>'))
}

/// A blank line, or a line of underscores or dashes.
fn is_rule(line: &str) -> bool {
    line.is_empty()
        || (line.len() >= 5 && (line.chars().all(|c| c == '_') || line.chars().all(|c| c == '-')))
}

/// An original included without quote marks starts here: Outlook's
/// `-----Original Message-----` rule or its header block.
fn starts_quoted_original(lines: &[&str], i: usize) -> bool {
    is_original_message_rule(&normalise_spaces(lines[i].trim()))
        || is_outlook_header_block(lines, i)
}

/// The number of lines (1 or 2) of the attribution starting at line `i`
/// (`On ... wrote:`), if one does.
fn attribution_lines(lines: &[&str], i: usize) -> Option<usize> {
    let line = normalise_spaces(lines[i].trim());
    if is_attribution(&line) {
        return Some(1);
    }
    // Clients wrap a long attribution; the next line alone must not start
    // one, or an order line just above a one-line attribution would be
    // taken for its first half.
    match lines.get(i + 1).map(|l| normalise_spaces(l.trim())) {
        Some(next) if !next.is_empty() && !starts_attribution(&next) => {
            (starts_attribution(&line) && is_attribution(&format!("{line} {next}"))).then_some(2)
        }
        _ => None,
    }
}

/// French typography puts a (narrow) no-break space before the colon.
fn normalise_spaces(line: &str) -> String {
    line.replace(['\u{a0}', '\u{202f}'], " ")
}

/// `-----Original Message-----`, `----- Original Message -----`, and the
/// same rule in the languages Outlook writes it in most often.
fn is_original_message_rule(line: &str) -> bool {
    const NAMES: &[&str] = &[
        "original message",
        "ursprüngliche nachricht",
        "message d'origine",
        "mensaje original",
        "messaggio originale",
        "oorspronkelijk bericht",
    ];
    let inner = line
        .trim_matches(|c: char| c == '-' || c.is_whitespace())
        .to_lowercase();
    line.starts_with("---") && NAMES.contains(&inner.as_str())
}

fn starts_attribution(line: &str) -> bool {
    line.starts_with("On ") || line.starts_with("Le ") || line.starts_with("Am ")
}

/// `On ... wrote:`, `Le ... a écrit :`, `Am ... schrieb ...:`.
fn is_attribution(line: &str) -> bool {
    // An attribution is one sentence; a long paragraph that happens to end
    // in "wrote:" is the player's.
    if line.len() > 300 {
        return false;
    }
    (line.starts_with("On ") && line.ends_with(" wrote:"))
        || (line.starts_with("Le ")
            && (line.ends_with(" a écrit :") || line.ends_with(" a écrit:")))
        || (line.starts_with("Am ") && line.contains(" schrieb ") && line.ends_with(':'))
}

/// The name of a header-like line, Outlook's bold markers removed.
fn header_name(line: &str) -> Option<String> {
    let line = line.trim().trim_start_matches('*');
    let (name, _) = line.split_once(':')?;
    let name = name.trim_end_matches('*').trim();
    (!name.is_empty() && name.len() < 20 && !name.contains(' ')).then(|| name.to_lowercase())
}

/// `From:` after a blank line (or a rule), followed within a few lines by
/// `Sent:`/`Date:` and `To:`/`Subject:`: the header block Outlook puts above
/// the original it includes unquoted.
fn is_outlook_header_block(lines: &[&str], i: usize) -> bool {
    // Outlook names the fields in the reader's language.
    const FROM: &[&str] = &["from", "von", "de"];
    const SENT: &[&str] = &["sent", "date", "gesendet", "datum", "envoyé"];
    const TO: &[&str] = &["to", "subject", "an", "betreff", "à", "objet"];
    if !header_name(lines[i]).is_some_and(|n| FROM.contains(&n.as_str())) {
        return false;
    }
    // After a blank line or a rule, or, as Outlook's HTML writes it (a
    // bordered div, no blank line), with a mail address on the From line:
    // a player's own line is not followed by Sent and To fields.
    if i > 0 && !is_rule(lines[i - 1].trim()) && !lines[i].contains('@') {
        return false;
    }
    let names: Vec<String> = lines[i + 1..]
        .iter()
        .take(6)
        .filter_map(|l| header_name(l))
        .collect();
    let has = |wanted: &[&str]| names.iter().any(|n| wanted.contains(&n.as_str()));
    has(SENT) && has(TO)
}

// ----- HTML to text ------------------------------------------------------------

/// The text of an HTML body: scripts, styles and the head dropped, block
/// elements and `<br>` as line breaks, `<hr>` as a blank line, entities
/// decoded, white space
/// collapsed outside `<pre>`, and the lines of a `<blockquote>` prefixed
/// with `> ` so that stripping removes them.
fn html_to_text(html: &str) -> String {
    let mut out = HtmlText::default();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.text(&rest[..open]);
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let starts_tag = rest[1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'));
        if !starts_tag {
            out.text("<");
            rest = &rest[1..];
            continue;
        }
        let Some(close) = tag_end(rest) else {
            // An unfinished tag at the very end: nothing readable follows.
            rest = "";
            break;
        };
        let tag = Tag::read(&rest[1..close]);
        rest = &rest[close + 1..];
        if !tag.closing
            && !tag.self_closing
            && matches!(tag.name.as_str(), "script" | "style" | "head" | "title")
        {
            rest = skip_raw_element(rest, &tag.name);
            continue;
        }
        out.tag(&tag);
    }
    out.text(rest);
    out.finish()
}

/// The index of the `>` closing the tag that starts `s`, skipping quoted
/// attribute values.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices().skip(1) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '>' => return Some(i),
            None => {}
        }
    }
    None
}

/// What follows the end of a script, style, head or title element (its
/// content is never text to read). A head ends at `<body` when its end tag
/// is missing.
fn skip_raw_element<'a>(rest: &'a str, name: &str) -> &'a str {
    let end_tag = format!("</{name}");
    let starts = |at: usize, prefix: &str| {
        rest.as_bytes()
            .get(at..at + prefix.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(prefix.as_bytes()))
    };
    for (at, _) in rest.match_indices('<') {
        if name == "head" && starts(at, "<body") {
            return &rest[at..];
        }
        if starts(at, &end_tag) {
            return rest[at..].find('>').map_or("", |gt| &rest[at + gt + 1..]);
        }
    }
    ""
}

struct Tag {
    name: String,
    closing: bool,
    self_closing: bool,
}

impl Tag {
    /// Reads the inside of `<...>`.
    fn read(inner: &str) -> Tag {
        let closing = inner.starts_with('/');
        let name: String = inner
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Tag {
            name,
            closing,
            self_closing: inner.ends_with('/'),
        }
    }
}

const BLOCK_ELEMENTS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "center",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "html",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tbody",
    "tfoot",
    "thead",
    "tr",
    "ul",
];

/// The most `> ` markers an HTML line gets, however deep its blockquote.
const MAX_QUOTE_MARKERS: usize = 8;

#[derive(Default)]
struct HtmlText {
    lines: Vec<String>,
    line: String,
    /// The blockquote depth where the current line's text began.
    line_depth: usize,
    depth: usize,
    pre: usize,
    space: bool,
}

impl HtmlText {
    fn text(&mut self, raw: &str) {
        if raw.is_empty() {
            return;
        }
        for c in decode_entities(raw).chars() {
            if self.pre > 0 && c == '\n' {
                self.end_line();
            } else if self.pre == 0 && c.is_whitespace() && c != '\u{a0}' {
                self.space = true;
            } else if c != '\r' {
                self.push(if c == '\u{a0}' { ' ' } else { c });
            }
        }
    }

    fn push(&mut self, c: char) {
        if self.line.is_empty() {
            self.line_depth = self.depth;
        } else if self.space && self.pre == 0 {
            self.line.push(' ');
        }
        self.space = false;
        self.line.push(c);
    }

    fn tag(&mut self, tag: &Tag) {
        let name = tag.name.as_str();
        if name == "br" {
            self.end_line();
        } else if name == "hr" {
            // A rule stands alone between blank lines, as it does in text:
            // Outlook draws one above the header block of the original it
            // includes unquoted, and stripping knows that block by the
            // blank line above it.
            self.break_block();
            self.end_line();
        } else if name == "td" || name == "th" {
            self.space = true;
        } else if BLOCK_ELEMENTS.contains(&name) {
            self.break_block();
            match (name, tag.closing) {
                ("blockquote", false) => self.depth += 1,
                ("blockquote", true) => self.depth = self.depth.saturating_sub(1),
                ("pre", false) => self.pre += 1,
                ("pre", true) => self.pre = self.pre.saturating_sub(1),
                _ => {}
            }
        }
    }

    /// A block boundary: ends the current line if it has text, so that
    /// nested blocks make one break, not several.
    fn break_block(&mut self) {
        if !self.line.is_empty() {
            self.end_line();
        }
        self.space = false;
    }

    fn end_line(&mut self) {
        let depth = if self.line.is_empty() {
            self.depth
        } else {
            self.line_depth
        };
        let text = std::mem::take(&mut self.line);
        let text = text.trim_end();
        let line = if depth > 0 {
            // Capped: one marker is enough to strip the line, and nesting
            // thousands deep would otherwise make the text quadratic in size.
            format!("{}{}", "> ".repeat(depth.min(MAX_QUOTE_MARKERS)), text)
                .trim_end()
                .to_string()
        } else {
            text.to_string()
        };
        self.lines.push(line);
        self.space = false;
    }

    fn finish(mut self) -> String {
        self.break_block();
        while self.lines.last().is_some_and(|l| l.is_empty()) {
            self.lines.pop();
        }
        let start = self
            .lines
            .iter()
            .position(|l| !l.is_empty())
            .unwrap_or(self.lines.len());
        self.lines[start..].join("\n")
    }
}

/// Decodes character references: numeric ones and the named ones mail
/// clients actually write. An unknown or malformed reference stays as
/// written.
fn decode_entities(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        // References are short; looking further would make a text full of
        // `&` quadratic.
        let decoded = rest[1..]
            .bytes()
            .take(33)
            .position(|b| b == b';')
            .filter(|&semi| semi > 0)
            .and_then(|semi| entity(&rest[1..=semi]).map(|c| (c, semi + 2)));
        match decoded {
            Some((c, len)) => {
                out.push_str(c.as_ref());
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The text of one reference, given what lies between `&` and `;`.
fn entity(name: &str) -> Option<std::borrow::Cow<'static, str>> {
    use std::borrow::Cow;
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse::<u32>().ok()?,
        };
        let c = match char::from_u32(code) {
            Some('\0') | None => '\u{fffd}',
            Some(c) => c,
        };
        return Some(Cow::Owned(c.to_string()));
    }
    let text = match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "nbsp" => "\u{a0}",
        "shy" | "zwnj" | "zwj" => "",
        "ensp" | "emsp" | "thinsp" => " ",
        "copy" => "©",
        "reg" => "®",
        "trade" => "™",
        "hellip" => "…",
        "mdash" => "—",
        "ndash" => "–",
        "lsquo" => "‘",
        "rsquo" => "’",
        "ldquo" => "“",
        "rdquo" => "”",
        "laquo" => "«",
        "raquo" => "»",
        "bull" => "•",
        "middot" => "·",
        "times" => "×",
        "divide" => "÷",
        "deg" => "°",
        "euro" => "€",
        "pound" => "£",
        "cent" => "¢",
        "yen" => "¥",
        "sect" => "§",
        "para" => "¶",
        "eacute" => "é",
        "egrave" => "è",
        "ecirc" => "ê",
        "euml" => "ë",
        "aacute" => "á",
        "agrave" => "à",
        "acirc" => "â",
        "auml" => "ä",
        "iacute" => "í",
        "icirc" => "î",
        "iuml" => "ï",
        "oacute" => "ó",
        "ocirc" => "ô",
        "ouml" => "ö",
        "uacute" => "ú",
        "ugrave" => "ù",
        "ucirc" => "û",
        "uuml" => "ü",
        "ccedil" => "ç",
        "ntilde" => "ñ",
        "szlig" => "ß",
        "Eacute" => "É",
        "Egrave" => "È",
        "Auml" => "Ä",
        "Ouml" => "Ö",
        "Uuml" => "Ü",
        "Ccedil" => "Ç",
        _ => return None,
    };
    Some(Cow::Borrowed(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(headers: &str, body: &str) -> Incoming {
        let raw = format!("{headers}\n\n{body}");
        parse(raw.as_bytes()).unwrap()
    }

    #[test]
    fn strip_removes_quotes_and_keeps_the_rest() {
        assert_eq!(
            strip("\n\nMOVE A B  \n  > quoted\n>> deeper\nATTACK C D\n\n\n"),
            "MOVE A B\nATTACK C D"
        );
        assert_eq!(strip("PASS\n--\nsig"), "PASS");
        assert_eq!(strip("PASS\n-- \nsig"), "PASS");
        assert_eq!(
            strip("PASS\n---\nnot a signature"),
            "PASS\n---\nnot a signature"
        );
        assert_eq!(strip("PASS\n end \nMOVE A B"), "PASS");
        // A mail of END alone is the order ending a Civil War 1863 turn.
        assert_eq!(strip("\nEND\n\nsomething after"), "END");
        assert_eq!(strip("end\n-- \nsig").trim(), "end");
        assert_eq!(strip("PASS\nENDING\nMOVE A B"), "PASS\nENDING\nMOVE A B");
        assert_eq!(strip(""), "");
    }

    #[test]
    fn strip_cuts_at_attributions() {
        assert_eq!(
            strip("PASS\nOn Sat, 21 Nov 2026, Ann <a@b.example> wrote:\nunquoted original"),
            "PASS"
        );
        assert_eq!(
            strip(
                "PASS\n\nOn Sat, 21 Nov 2026 at 10:02, orderly <\norderly@example.org> wrote:\n> x"
            ),
            "PASS"
        );
        // An order line just above a one-line attribution is not its first half.
        assert_eq!(
            strip("On my turn I PASS\nOn Sat, 21 Nov 2026, Ann wrote:\n> x"),
            "On my turn I PASS"
        );
        // "On" alone is no attribution.
        assert_eq!(strip("On reflection:\nPASS"), "On reflection:\nPASS");
        assert_eq!(
            strip(
                "PASS\nLe sam. 21 nov. 2026 à 10:02, Ann\u{202f}<a@b.example> a écrit\u{a0}:\n> x"
            ),
            "PASS"
        );
        assert_eq!(
            strip("PASS\nLe 21/11/2026 à 10:02, Ann a\nécrit :\n> x"),
            "PASS"
        );
        assert_eq!(
            strip("PASS\nAm Sa., 21. Nov. 2026 um 10:02 Uhr schrieb Ann <\na@b.example>:\n> x"),
            "PASS"
        );
        assert_eq!(
            strip("PASS\n\n-----Original Message-----\nFrom: x\nMOVE A B"),
            "PASS"
        );
        assert_eq!(
            strip("PASS\n----- Original Message -----\nMOVE A B"),
            "PASS"
        );
    }

    #[test]
    fn strip_reads_a_reply_written_below_the_quote() {
        // Thunderbird: attribution, quote, then the reply.
        assert_eq!(
            strip("On 24/11/2026 10:00, orderly wrote:\n> Blue to move\n> MOVE ?\n\ncav BR B3C\n\nAnn"),
            "cav BR B3C\n\nAnn"
        );
        // Gmail's attribution wrapped over two lines, then interleaved.
        assert_eq!(
            strip(
                "On Tue, Nov 24, 2026 at 10:00 AM orderly <\norderly@example.org> wrote:\n\n\
                 > Your move.\n\nPASS\n> More quote\nMOVE A B\n-- \nsig"
            ),
            "PASS\nMOVE A B"
        );
        assert_eq!(
            strip("Le mar. 24 nov. 2026 à 10:00, orderly <o@example.org> a écrit :\n> x\nPASS"),
            "PASS"
        );
        assert_eq!(
            strip(
                "Am Di., 24. Nov. 2026 um 10:00 Uhr schrieb orderly <o@example.org>:\n>x\n\nPASS"
            ),
            "PASS"
        );
        // Top-posted above a quote: the same text as before.
        assert_eq!(
            strip("PASS\n\nOn Tue, Nov 24, 2026, Ann wrote:\n> x\n> y\n"),
            "PASS"
        );
        // An attribution above an unquoted original still cuts it.
        assert_eq!(
            strip("PASS\nOn Tue, Ann wrote:\n\nMOVE ?\n> x\nMOVE B"),
            "PASS"
        );
    }

    #[test]
    fn strip_cuts_outlook_originals_in_other_languages() {
        assert_eq!(
            strip("PASS\n-----Ursprüngliche Nachricht-----\nVon: o\nMOVE A B"),
            "PASS"
        );
        assert_eq!(
            strip("PASS\n\nVon: orderly\nGesendet: Dienstag\nAn: Ann\nBetreff: x\n\nMOVE ?"),
            "PASS"
        );
        assert_eq!(
            strip("PASS\n\nDe : orderly\nEnvoyé : mardi\nÀ : Ann\nObjet : x\n\nMOVE ?"),
            "PASS"
        );
        assert_eq!(
            strip("PASS\n---\nmessage original is a phrase"),
            "PASS\n---\nmessage original is a phrase"
        );
    }

    #[test]
    fn strip_cuts_at_an_outlook_header_block_only() {
        let outlook = "PASS\n\n*From:* orderly <o@example.org>\n*Sent:* Monday\n*To:* Ann\n*Subject:* Game\n\nMOVE ?";
        assert_eq!(strip(outlook), "PASS");
        // A From: line that starts no header block stays.
        assert_eq!(
            strip("PASS\n\nFrom: the hill\nMOVE A B"),
            "PASS\n\nFrom: the hill\nMOVE A B"
        );
        // Nor after a line of text.
        assert_eq!(
            strip("PASS\nFrom: x\nSent: y\nTo: z"),
            "PASS\nFrom: x\nSent: y\nTo: z"
        );
    }

    #[test]
    fn html_rules_are_blank_lines_so_an_outlook_block_under_one_is_cut() {
        let html = "<div>PASS</div><hr><div><b>From:</b> x<br><b>Sent:</b> y<br>\
                    <b>To:</b> z</div><div><pre>\nMOVE A B</pre></div>";
        let text = html_to_text(html);
        assert_eq!(text, "PASS\n\nFrom: x\nSent: y\nTo: z\n\nMOVE A B");
        assert_eq!(strip(&text), "PASS");
        assert_eq!(html_to_text("a<hr/>b<hr>"), "a\n\nb");
        assert_eq!(
            html_to_text("<blockquote>a<hr>b</blockquote>"),
            "> a\n>\n> b"
        );
    }

    #[test]
    fn html_blocks_breaks_and_entities() {
        assert_eq!(
            html_to_text("<div>MOVE&nbsp;A B</div><div><br></div><div>PASS</div>"),
            "MOVE A B\n\nPASS"
        );
        assert_eq!(
            html_to_text("<P>one</P>\n\n  <p>two\n three</p>"),
            "one\ntwo three"
        );
        assert_eq!(
            html_to_text("a &lt;b&gt; &amp;amp; &#65;&#x42;&#X43; &bogus; &#xD800; & done"),
            "a <b> &amp; ABC &bogus; \u{fffd} & done"
        );
        assert_eq!(html_to_text("1 < 2 and 3 > 2"), "1 < 2 and 3 > 2");
        assert_eq!(html_to_text("text <unfinished"), "text");
        assert_eq!(
            html_to_text("<a href=\"x>y\" title='a>b'>link</a> after"),
            "link after"
        );
        assert_eq!(
            html_to_text("<table><tr><td>B1C</td><td>inf</td></tr><tr><td>B2C</td></tr></table>"),
            "B1C inf\nB2C"
        );
    }

    #[test]
    fn html_drops_scripts_styles_head_and_comments() {
        assert_eq!(
            html_to_text(
                "<html><head><title>T</title><style>p{}</style></head><body>\
                 <SCRIPT>var a = '<p>x</p>';</script>B<!-- <p>c</p> -->D<style>x</STYLE >E"
            ),
            "BDE"
        );
        // A head without its end tag ends at the body.
        assert_eq!(html_to_text("<head><meta x><body>PASS"), "PASS");
        assert_eq!(html_to_text("<script>never closed"), "");
        assert_eq!(html_to_text("a<!-- never closed"), "a");
    }

    #[test]
    fn html_blockquotes_become_quoted_lines() {
        let html = "PASS<div>On Sat, Ann wrote:<br></div>\
                    <blockquote><div>Blue to move</div><blockquote>older<br><br>x</blockquote>\
                    <pre>+--+\n|  |\n+--+</pre></blockquote><p>after</p>";
        assert_eq!(
            html_to_text(html),
            "PASS\nOn Sat, Ann wrote:\n> Blue to move\n> > older\n> >\n> > x\n> +--+\n> |  |\n> +--+\nafter"
        );
        // Stray end tags do not underflow.
        assert_eq!(html_to_text("</blockquote></pre>x"), "x");
        let deep = "<blockquote>x<br>".repeat(20);
        let text = html_to_text(&deep);
        assert!(text.lines().all(|l| l.len() <= 2 * MAX_QUOTE_MARKERS + 1));
    }

    #[test]
    fn flowed_text_is_joined() {
        assert_eq!(unflow("one \ntwo\nthree", false), "one two\nthree");
        assert_eq!(unflow("one \ntwo", true), "onetwo");
        assert_eq!(
            unflow("> quoted \n> more\nmine", false),
            "> quoted more\nmine"
        );
        // A change of quote depth ends the paragraph; so does a signature.
        assert_eq!(unflow("a \n> b", false), "a \n> b");
        assert_eq!(unflow("a \n-- \nsig", false), "a \n-- \nsig");
        assert_eq!(unflow(" From here\n  two", false), "From here\n two");
    }

    #[test]
    fn message_ids_are_read_leniently() {
        assert_eq!(message_ids("<a@b> <c@d>"), ["a@b", "c@d"]);
        assert_eq!(message_ids("<a@b> (comment) <c@d>"), ["a@b", "c@d"]);
        assert_eq!(message_ids("a@b"), ["a@b"]);
        assert_eq!(message_ids("<>"), Vec::<String>::new());
        assert_eq!(message_ids("<unclosed@x"), ["unclosed@x"]);
        assert_eq!(message_ids("  "), Vec::<String>::new());
    }

    #[test]
    fn addresses_unparseable_by_mailparse_are_still_found() {
        let m = mail("From: \"Broken <Name\" <Bro@Ken.example>>\nTo: x", "PASS");
        assert_eq!(
            m.from.map(|a| a.address),
            Some("bro@ken.example".to_string())
        );
        let loose = loose_addresses("Ann \"Lee <ann@example.com>");
        assert_eq!(loose.len(), 1);
        assert_eq!(loose[0].address, "ann@example.com");
        assert_eq!(loose[0].name.as_deref(), Some("Ann \"Lee"));
    }

    #[test]
    fn groups_are_flattened() {
        let m = mail(
            "From: a@example.com\nTo: players: Ann <ann@example.com>, TOM@example.net;",
            "",
        );
        assert_eq!(m.to, ["ann@example.com", "tom@example.net"]);
    }

    #[test]
    fn same_mailbox_ignores_case_and_subaddress() {
        let a = Address {
            name: None,
            address: "orderly+g42.x@example.org".into(),
        };
        assert!(a.same_mailbox("Orderly@Example.ORG"));
        assert!(a.same_mailbox("<orderly+other@example.org>"));
        assert!(!a.same_mailbox("orderly@example.com"));
        assert!(!a.same_mailbox("order@example.org"));
        assert_eq!(a.to_string(), "orderly+g42.x@example.org");
        let named = Address {
            name: Some("Ann \"AL\" Lee".into()),
            address: "ann@example.com".into(),
        };
        assert_eq!(
            named.to_string(),
            "\"Ann \\\"AL\\\" Lee\" <ann@example.com>"
        );
    }

    #[test]
    fn automatic_headers() {
        let auto = |headers: &str| mail(&format!("From: a@example.com\n{headers}"), "x").automatic;
        assert_eq!(auto("Auto-Submitted: no"), None);
        assert_eq!(auto("Auto-Submitted: No ; x=y"), None);
        assert_eq!(
            auto("Auto-Submitted: auto-generated"),
            Some(Automatic::AutoSubmitted)
        );
        assert_eq!(auto("Return-Path: < >"), Some(Automatic::Bounce));
        assert_eq!(auto("Return-Path: <a@example.com>"), None);
        assert_eq!(
            auto(
                "Content-Type: multipart/report; report-type=disposition-notification; boundary=x"
            ),
            Some(Automatic::Bounce)
        );
        assert_eq!(auto("X-Autoreply: yes"), Some(Automatic::AutoReply));
        assert_eq!(
            auto("X-Autorespond: on vacation"),
            Some(Automatic::AutoReply)
        );
        assert_eq!(auto("Precedence: list"), Some(Automatic::Bulk));
        assert_eq!(auto("Precedence: junk"), Some(Automatic::Bulk));
        assert_eq!(auto("Precedence: first-class"), None);
        assert_eq!(
            auto("List-Id: <players.example.org>"),
            Some(Automatic::Bulk)
        );
        assert_eq!(auto("X-Auto-Response-Suppress: All"), None);
        assert_eq!(auto("Subject: Out of Office"), None);
        let postmaster = mail("From: Postmaster@example.org", "x");
        assert_eq!(postmaster.automatic, Some(Automatic::Bounce));
        let daemon = mail("From: MAILER-DAEMON (Mail Delivery Subsystem)", "x");
        assert_eq!(daemon.automatic, Some(Automatic::Bounce));
        assert_eq!(Automatic::Bulk.to_string(), "bulk or list mail");
    }

    #[test]
    fn dates_in_several_forms() {
        let d = |s: &str| date(s).map(|d| d.to_rfc3339());
        assert_eq!(
            d("Sat, 21 Nov 2026 10:15:02 +0100"),
            Some("2026-11-21T10:15:02+01:00".into())
        );
        assert_eq!(
            d("Sat, 21 Nov 2026 10:15:02 GMT"),
            Some("2026-11-21T10:15:02+00:00".into())
        );
        assert_eq!(
            d("21 Nov 2026 10:15 -0500"),
            Some("2026-11-21T10:15:00-05:00".into())
        );
        assert_eq!(
            d("Sat,  21 Nov 2026"),
            Some("2026-11-21T00:00:00+00:00".into())
        );
        assert_eq!(d("yesterday"), None);
        assert_eq!(d(""), None);
    }

    #[test]
    fn mbox_from_line_and_missing_charset() {
        let m = parse(b"From ann@example.com Sat Nov 21 10:00:00 2026\nFrom: ann@example.com\n\nGr\xc3\xbc\xc3\x9fe\n")
            .unwrap();
        assert_eq!(m.from.map(|a| a.address), Some("ann@example.com".into()));
        assert_eq!(m.text, "Grüße");
        // Not UTF-8 and no charset: windows-1252, as mailparse reads US-ASCII.
        let m = parse(b"From: a@example.com\n\nGr\xfc\xdfe\n").unwrap();
        assert_eq!(m.text, "Grüße");
    }

    #[test]
    fn deep_nesting_reads_the_headers_only() {
        let mut raw = String::from("From: a@example.com\nSubject: deep\n");
        for i in 0..300 {
            raw.push_str(&format!(
                "Content-Type: multipart/mixed; boundary=b{i}\n\n--b{i}\n"
            ));
        }
        raw.push_str("\nPASS\n");
        let m = parse(raw.as_bytes()).unwrap();
        assert_eq!(m.subject, "deep");
        assert_eq!(m.text, "");
    }

    #[test]
    fn a_from_that_names_no_single_author_gives_no_sender() {
        let problem = |headers: &str| {
            let m = mail(headers, "PASS");
            assert!(m.from.is_none() || m.sender_problem.is_none(), "{m:?}");
            m.sender_problem
        };
        assert_eq!(problem("From: a@example.com"), None);
        assert_eq!(
            problem("From: a@example.com\nFrom: b@example.com"),
            Some(SenderProblem::SeveralFromHeaders)
        );
        assert_eq!(
            problem("From: a@example.com, b@example.com"),
            Some(SenderProblem::SeveralAuthors)
        );
        assert_eq!(
            problem("From: team: a@example.com;"),
            Some(SenderProblem::SeveralAuthors)
        );
        assert_eq!(
            problem("From: nobody at all"),
            Some(SenderProblem::Unreadable)
        );
        assert_eq!(
            problem("From: \"x\" <a b@example.com>"),
            Some(SenderProblem::Unreadable)
        );
        // Found by fuzzing: two @ make no address (a relay may route it).
        assert_eq!(
            problem("From: orderly@example.orgerly+g1.x@example.org"),
            Some(SenderProblem::Unreadable)
        );
        assert_eq!(
            problem("From: \"a@b\"@example.com"),
            Some(SenderProblem::Unreadable)
        );
        assert_eq!(problem("To: a@example.com"), None);
        // A bounce is still known by its first author.
        let bounce = mail("From: MAILER-DAEMON@x.example, b@example.com", "x");
        assert_eq!(bounce.automatic, Some(Automatic::Bounce));
    }

    #[test]
    fn header_text_is_printable_and_short() {
        let m = mail(
            "From: =?utf-8?q?Ann=1B[2J=0D=0ABcc:_x@y?= <ann@example.com>\n\
             Subject: =?utf-8?q?hi=1B]0;title=07there?=\nMessage-ID: <a\x07b@c>",
            "PASS",
        );
        let from = m.from.unwrap();
        assert_eq!(from.name.as_deref(), Some("Ann  Bcc: x@y"));
        assert_eq!(m.subject, "hithere");
        assert_eq!(m.message_id.as_deref(), Some("ab@c"));
        let long = mail(
            &format!("From: a@example.com\nSubject: {}", "x ".repeat(500)),
            "",
        );
        assert!(long.subject.chars().count() <= MAX_SUBJECT_CHARS);
        let many = (0..500)
            .map(|i| format!("p{i}@x.example"))
            .collect::<Vec<_>>()
            .join(", ");
        let m = mail(&format!("From: a@example.com\nTo: {many}"), "");
        assert_eq!(m.to.len(), MAX_RECIPIENTS);
    }

    #[test]
    fn authentication_results_of_the_from_domain() {
        let auth = |results: &str| {
            mail(
                &format!("From: ann@example.com\nAuthentication-Results: {results}"),
                "",
            )
            .from_authenticated
        };
        assert!(auth(
            "mx.example.org; dmarc=pass (p=none) header.from=example.com"
        ));
        assert!(auth(
            "mx.example.org; spf=fail; dkim=pass header.d=Example.COM header.s=x"
        ));
        assert!(auth("mx.example.org; dkim=pass header.i=@example.com"));
        assert!(!auth("mx.example.org; dkim=pass header.d=evil.example"));
        assert!(!auth("mx.example.org; dkim=fail header.d=example.com"));
        assert!(!auth("dmarc=pass header.from=example.com"));
        assert!(!auth(
            "mx.example.org; dmarc=pass (header.from=example.com)"
        ));
        assert!(!mail("From: ann@example.com", "").from_authenticated);
    }

    #[test]
    fn no_reply_addresses() {
        for a in [
            "noreply@x.example",
            "no-reply+tag@x.example",
            "No_Reply@x.example",
            "do-not-reply@x.example",
            "DoNotReply@x.example",
            "mailer-daemon@x.example",
            "postmaster@x.example",
            "bounces+42.abc@x.example",
            "bounce-1-2@x.example",
        ] {
            assert!(is_noreply(a), "{a}");
        }
        for a in [
            "ann@x.example",
            "bouncer@x.example",
            "reply@x.example",
            "norep@x",
        ] {
            assert!(!is_noreply(a), "{a}");
        }
    }

    #[test]
    fn the_text_read_is_bounded() {
        let limits = Limits {
            max_lines: 2,
            max_line_chars: 80,
            ..Limits::default()
        };
        let body = format!("PASS\nBOARD\nHELP\n{}\n", "x".repeat(100));
        let raw = format!("From: a@example.com\n\n{body}");
        let m = parse_with(raw.as_bytes(), &limits).unwrap();
        assert_eq!(m.text, "PASS\nBOARD");
        assert_eq!(m.unread.lines, 2);
        let raw = format!("From: a@example.com\n\n{}\n", "x".repeat(100));
        let m = parse_with(raw.as_bytes(), &limits).unwrap();
        assert_eq!(m.text, "x".repeat(80));
        assert_eq!(m.unread.long_lines, 1);
        // Beyond max_mail_bytes nothing is read.
        let limits = Limits {
            max_mail_bytes: 30,
            ..Limits::default()
        };
        let m = parse_with(b"From: a@example.com\n\nPASS\nRESIGN\n", &limits).unwrap();
        assert_eq!(m.text, "PASS");
        assert_eq!(m.unread.bytes, 7);
        let m = parse_with(b"From: a@example.com\n\nPASS\nRESIGNATION\n", &limits).unwrap();
        assert_eq!(m.text, "PASS");
    }

    #[test]
    fn the_head_of_a_large_mail_gives_its_headers() {
        let head = b"From: a@example.com\r\nMessage-ID: <big@x>\r\n\r\nPASS\r\nRESIGN";
        let m = parse_head(head, 5_000_000, &Limits::default()).unwrap();
        assert_eq!(m.message_id.as_deref(), Some("big@x"));
        assert!(m.is_from("a@example.com"));
        assert_eq!(m.text, "");
        assert!(parse_head(b"  ", 10, &Limits::default()).is_err());
    }

    #[test]
    fn a_bom_and_crlf_are_removed() {
        let m = parse(b"From: a@example.com\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\xef\xbb\xbfPASS\r\nMOVE A B\rEND\r\n").unwrap();
        assert_eq!(m.text, "PASS\nMOVE A B");
        assert_eq!(m.full_text, "PASS\nMOVE A B\nEND\n");
    }
}
