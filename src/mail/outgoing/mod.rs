//! Composing and sending outgoing mail.
//!
//! The service queues an [`OutgoingMail`] in its outbox (as JSON) inside the
//! same transaction that applies a player's orders, and a sender drains the
//! outbox later through a [`MailSender`]. Because the outbox delivers at least
//! once, a mail carries its own stable Message-ID (see [`message_id`]) and the
//! same mail always formats to the same bytes, so a retry after a crash is
//! recognisable as the same message.
//!
//! Formatting is lettre's; this module decides the header set and, above
//! all, keeps the body readable in raw form: an ASCII body (the board) goes
//! out as `7bit`, byte for byte, never reflowed, never base64.
//!
//! Every mail is `multipart/alternative`: the text/plain part first (what
//! text-only clients, orderly's own intake and a player's plain quoting
//! read), then a text/html part made from the same text (see `html.rs`),
//! whose only purpose is a monospace `<pre>` so that phones and webmail
//! keep the board aligned. Clients show the last part they can display, so
//! the HTML part is what most players see and the plain part is the
//! reference. `text_only` (the `[outgoing] html = false` setting) leaves the
//! HTML part out, and the mail is the single text/plain part it always was.
//!
//! A formatted mail (CRLF line ends; optional headers present; the boundary
//! is a hash of the mail, see `boundary`):
//!
//! ```text
//! Message-ID: <0123456789abcdef01234567@example.org>
//! Date: Sat, 01 Mar 2025 12:30:05 +0000
//! From: orderly <orderly@example.org>
//! To: "Ann Player" <ann@example.net>
//! Reply-To: orderly+g42.k7xq2m@example.org
//! Subject: Game 42: turn 3, Blue to move
//! In-Reply-To: <CAB-123@mail.example.net>
//! References: <first.1@mail.example.net> <CAB-123@mail.example.net>
//! Auto-Submitted: auto-replied
//! List-Id: <game-42.orderly.example.org>
//! MIME-Version: 1.0
//! Content-Type: multipart/alternative;
//!  boundary="=_orderly_0f3a..."
//!
//! --=_orderly_0f3a...
//! Content-Type: text/plain; charset=utf-8; format=fixed
//! Content-Transfer-Encoding: 7bit
//!
//!    +---+---+
//!  1 | I |   |
//!
//! --=_orderly_0f3a...
//! Content-Type: text/html; charset=utf-8
//! Content-Transfer-Encoding: 7bit
//!
//! <!DOCTYPE html>
//! ...
//! <pre style="font-family: ui-monospace, ...; white-space: pre; ...">
//!    +---+---+
//!  1 | I |   |
//! </pre>
//! ...
//! --=_orderly_0f3a...--
//! ```

mod file;
mod headers;
mod html;
mod sender;
mod smtp;
mod stored_picture;

use std::time::SystemTime;

use chrono::{DateTime, Utc};
use lettre::address::{AddressError, Envelope};
use lettre::message::header::{ContentTransferEncoding, ContentType, MIME_VERSION_1_0};
use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};
use lettre::Message;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use file::{file_name, FileSender};
pub use headers::{AutoSubmitted, ListId};
pub use sender::{MailSender, SendError};
pub use smtp::{check, Security, SendmailSender, SmtpConfig, SmtpConfigError, SmtpSender};

/// Whether a mail answers a player's mail or was sent on orderly's own
/// initiative; both are automatic in the sense of RFC 3834, which is what
/// keeps vacation responders and other robots from answering them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AutoKind {
    /// `Auto-Submitted: auto-replied`: the mail answers a player's mail.
    Replied,
    /// `Auto-Submitted: auto-generated`: reminders, moderator notices, the
    /// opponent's copy of a move.
    Generated,
}

impl AutoKind {
    /// The `Auto-Submitted` header value.
    pub fn as_str(self) -> &'static str {
        match self {
            AutoKind::Replied => "auto-replied",
            AutoKind::Generated => "auto-generated",
        }
    }
}

/// One mail as the service queues it: everything needed to format it again,
/// identically, at every retry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutgoingMail {
    /// The Message-ID without angle brackets, derived by the caller (see
    /// [`message_id`]) so that it is the same at every retry.
    pub message_id: String,
    /// The `From` mailbox, e.g. `orderly <orderly@example.org>`.
    pub from: String,
    /// The one recipient mailbox.
    pub to: String,
    /// Where the player's answer should go, e.g. the secret address
    /// `orderly+g42.k7xq2m@example.org`.
    pub reply_to: Option<String>,
    /// The subject, any Unicode (RFC 2047 encoded when not ASCII).
    pub subject: String,
    /// The Message-ID this mail answers, with or without angle brackets.
    ///
    /// Threading is a courtesy: an id that cannot be written into a header
    /// (whitespace, control or non-ASCII characters, usually from a broken
    /// mailer) is left out with a warning rather than holding the mail back.
    pub in_reply_to: Option<String>,
    /// The thread's Message-IDs, oldest first; same leniency as
    /// [`in_reply_to`](Self::in_reply_to).
    #[serde(default)]
    pub references: Vec<String>,
    /// The `List-Id` value, e.g. `<game-42.orderly.example.org>`, optionally
    /// preceded by a phrase, so that players can filter a game's mail.
    pub list_id: Option<String>,
    /// Plain text, lines of at most 76 columns (the caller's promise). A
    /// final line break is added when missing.
    pub body: String,
    /// The `Date` header (whole seconds are kept).
    #[serde(with = "rfc3339")]
    pub date: DateTime<Utc>,
    /// Which `Auto-Submitted` value the mail carries.
    pub auto: AutoKind,
    /// The envelope sender (SMTP `MAIL FROM`), usually a per-mail VERP
    /// address (see [`crate::mail::bounce::verp_address`]) so that a bounce
    /// names the exact mail; `None` uses the `From` address. Not written
    /// into the message: the receiving server records it as `Return-Path`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_path: Option<String>,
    /// Leave out the HTML alternative: the mail is then one text/plain
    /// part. Set from the `[outgoing] html` setting when the outbox sends
    /// the mail (like [`return_path`](Self::return_path)), so that the
    /// setting also applies to mail already queued.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub text_only: bool,
    /// The board as an SVG picture (issue 19), rendered to PNG when the
    /// mail is formatted: shown in the HTML part (`cid:`) and attached.
    /// Left out of a text-only mail; a picture that cannot be rendered is
    /// left out too (with a warning), never the mail. Stored deflated
    /// (`stored_picture`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "stored_picture"
    )]
    pub picture: Option<String>,
}

/// Why an [`OutgoingMail`] cannot be formatted. Every case is permanent:
/// formatting the same mail again fails the same way.
#[derive(Debug, thiserror::Error)]
pub enum OutgoingError {
    /// An address field does not hold exactly one valid mailbox.
    #[error("{field} is not a single valid mailbox: {value:?}")]
    Address {
        /// The header the value was meant for.
        field: &'static str,
        /// The value as given.
        value: String,
        /// lettre's reason, when it gave one.
        #[source]
        source: Option<AddressError>,
    },
    /// The mail's own Message-ID is not of the form `left@right` in
    /// RFC 5322 atom characters.
    #[error("not a usable Message-ID: {0:?}")]
    MessageId(String),
    /// The `List-Id` value lacks an `<id>` in ASCII without spaces.
    #[error("not a usable List-Id: {0:?}")]
    ListId(String),
    /// The date cannot be written in a `Date` header (before 1970 or after
    /// 9999, which lettre's formatter does not accept).
    #[error("date out of range for a mail header: {0}")]
    Date(DateTime<Utc>),
    /// lettre refused to build the message or its envelope.
    #[error("cannot build the message: {0}")]
    Build(#[from] lettre::error::Error),
}

/// A stable Message-ID (without angle brackets) for `seed`: the same seed
/// always gives the same id, so the service can derive outbound ids from,
/// say, the incoming Message-ID, the recipient and an index, and a mail
/// queued twice by a replayed transaction keeps one identity.
pub fn message_id(seed: &str, domain: &str) -> String {
    let digest = Sha256::digest(seed.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}@{}", &hex[..24], domain)
}

impl OutgoingMail {
    /// The mail as a lettre message, with the header set shown in the
    /// module documentation.
    pub fn to_message(&self) -> Result<Message, OutgoingError> {
        if !is_own_message_id(&self.message_id) {
            return Err(OutgoingError::MessageId(self.message_id.clone()));
        }
        let mut builder = Message::builder()
            .message_id(Some(format!("<{}>", self.message_id)))
            .date(self.system_date()?)
            .from(parse_mailbox("From", &self.from)?)
            .to(parse_mailbox("To", &self.to)?);
        if let Some(reply_to) = &self.reply_to {
            builder = builder.reply_to(parse_mailbox("Reply-To", reply_to)?);
        }
        builder = builder.subject(self.subject.clone());
        if let Some(id) = self
            .in_reply_to
            .as_deref()
            .and_then(|id| thread_id("In-Reply-To", id))
        {
            builder = builder.in_reply_to(id);
        }
        // lettre's `references` replaces rather than appends, so the whole
        // list goes in as one value; lettre folds it at the spaces.
        let references: Vec<String> = self
            .references
            .iter()
            .filter_map(|id| thread_id("References", id))
            .collect();
        if !references.is_empty() {
            builder = builder.references(references.join(" "));
        }
        builder = builder.header(AutoSubmitted(self.auto));
        if let Some(list_id) = &self.list_id {
            builder = builder.header(ListId::new(list_id)?);
        }
        let text = normalise(&self.body);
        let plain = encode_body(&text);
        if self.text_only {
            // `body()` (unlike `singlepart()`) does not add MIME-Version,
            // and without it readers may ignore Content-Type and the charset.
            return Ok(builder
                .header(MIME_VERSION_1_0)
                .header(content_type())
                .body(plain)?);
        }
        let png = self.picture.as_deref().and_then(|svg| match crate::picture::png(svg) {
            Ok(png) => Some(png),
            Err(e) => {
                tracing::warn!(message_id = %self.message_id, "mail sent without its picture: {e}");
                None
            }
        });
        if let Some(png) = png {
            return self.with_picture(builder, &text, plain, png);
        }
        let html = encode_body(&html::document(&self.subject, &text));
        let boundary = boundary(&self.message_id, &[plain.as_ref(), html.as_ref()]);
        // Plain text first: RFC 2046 orders alternatives from the plainest
        // to the richest, and readers without HTML take the first.
        // `multipart()` adds MIME-Version.
        let message = builder.multipart(
            MultiPart::alternative()
                .boundary(boundary)
                .singlepart(SinglePart::builder().header(content_type()).body(plain))
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(html),
                ),
        )?;
        Ok(message)
    }

    /// The mail with its picture: the text first, as in every mail; the
    /// HTML alternative showing the picture above the same text; the
    /// picture again as an attachment, for readers that show no HTML or
    /// want to keep it:
    ///
    /// ```text
    /// multipart/mixed
    ///   multipart/alternative
    ///     text/plain
    ///     multipart/related
    ///       text/html         <img src="cid:board.<message id>">
    ///       image/png         inline, Content-ID <board.<message id>>
    ///   image/png             attachment, board.png
    /// ```
    fn with_picture(
        &self,
        builder: lettre::message::MessageBuilder,
        text: &str,
        plain: Body,
        png: crate::picture::Png,
    ) -> Result<Message, OutgoingError> {
        let content_id = format!("board.{}", self.message_id);
        let html = encode_body(&html::document_with(
            &self.subject,
            text,
            Some(html::Picture {
                content_id: &content_id,
                width: png.width,
                height: png.height,
            }),
        ));
        // One boundary from the text parts, then one per level below it:
        // base64 (the picture's encoding) never holds `=_`.
        let base = boundary(&self.message_id, &[plain.as_ref(), html.as_ref()]);
        let image = ContentType::parse("image/png").expect("a valid content type");
        let inline = Attachment::new_inline_with_name(content_id, "board.png".to_string())
            .body(png.bytes.clone(), image.clone());
        let attached = Attachment::new("board.png".to_string()).body(png.bytes, image);
        Ok(builder.multipart(
            MultiPart::mixed()
                .boundary(format!("{base}_m"))
                .multipart(
                    MultiPart::alternative()
                        .boundary(format!("{base}_a"))
                        .singlepart(SinglePart::builder().header(content_type()).body(plain))
                        .multipart(
                            MultiPart::related()
                                .boundary(format!("{base}_r"))
                                .singlepart(
                                    SinglePart::builder()
                                        .header(ContentType::TEXT_HTML)
                                        .body(html),
                                )
                                .singlepart(inline),
                        ),
                )
                .singlepart(attached),
        )?)
    }

    /// The formatted RFC 5322 message, CRLF line endings, as it goes on the
    /// wire or into an `.eml` file.
    pub fn to_bytes(&self) -> Result<Vec<u8>, OutgoingError> {
        Ok(self.to_message()?.formatted())
    }

    /// The SMTP envelope: the [`return_path`](Self::return_path) when set,
    /// else the `From` address, as envelope sender (so bounces reach
    /// orderly, which can tell moderators), and the one recipient.
    pub fn envelope(&self) -> Result<Envelope, OutgoingError> {
        let from = match &self.return_path {
            Some(path) => parse_mailbox("Return-Path", path)?.email,
            None => parse_mailbox("From", &self.from)?.email,
        };
        let to = parse_mailbox("To", &self.to)?.email;
        Ok(Envelope::new(Some(from), vec![to])?)
    }

    fn system_date(&self) -> Result<SystemTime, OutgoingError> {
        // httpdate (behind lettre's Date header) panics outside
        // 1970-01-01 .. 9999-12-31, and the date comes from stored JSON.
        const YEAR_10000: i64 = 253_402_300_800;
        if (0..YEAR_10000).contains(&self.date.timestamp()) {
            Ok(SystemTime::from(self.date))
        } else {
            Err(OutgoingError::Date(self.date))
        }
    }
}

fn content_type() -> ContentType {
    // format=fixed is the RFC 3676 default, spelled out so that no client
    // treats the board's lines as flowed text.
    ContentType::parse("text/plain; charset=utf-8; format=fixed")
        .expect("a constant, valid Content-Type")
}

/// Parses exactly one mailbox. lettre's parser stops at the first mailbox
/// and ignores what follows, so `a@x, b@y` or `a@x junk` would silently go
/// to `a@x`; the check on the tail refuses those.
fn parse_mailbox(field: &'static str, value: &str) -> Result<Mailbox, OutgoingError> {
    let refuse = |source| OutgoingError::Address {
        field,
        value: value.to_owned(),
        source,
    };
    let mailbox: Mailbox = value.parse().map_err(|e| refuse(Some(e)))?;
    let address = mailbox.email.to_string();
    let trimmed = value.trim();
    let whole = trimmed == address
        || trimmed
            .strip_suffix('>')
            .and_then(|rest| rest.strip_suffix(address.as_str()))
            .is_some_and(|rest| rest.ends_with('<'));
    if whole {
        Ok(mailbox)
    } else {
        Err(refuse(None))
    }
}

fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~.".contains(c)
}

/// Our own ids are strict: they are ours to get right, and a wrong one
/// breaks threading for every answer to the mail.
fn is_own_message_id(id: &str) -> bool {
    match id.split_once('@') {
        Some((left, right)) => {
            !left.is_empty()
                && !right.is_empty()
                && left.chars().all(is_atext)
                && right.chars().all(is_atext)
        }
        None => false,
    }
}

/// An id from someone else's mail, bracketed for a header, or `None` (with
/// a warning) when it cannot be written into one.
fn thread_id(field: &str, id: &str) -> Option<String> {
    let bare = id.trim();
    let bare = bare
        .strip_prefix('<')
        .and_then(|b| b.strip_suffix('>'))
        .unwrap_or(bare);
    let usable = !bare.is_empty()
        && bare
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '<' && c != '>');
    if usable {
        Some(format!("<{bare}>"))
    } else {
        tracing::warn!(
            field,
            id,
            "left out a Message-ID that cannot be written into a header"
        );
        None
    }
}

/// An ASCII body goes out `7bit` exactly as written, with CRLF line ends.
/// lettre's own choice would not do: it switches to quoted-printable from
/// 75 columns on (it counts the line break), which would put soft breaks
/// and `=3D` into the board. Anything else goes quoted-printable, which
/// any relay carries and stays mostly readable raw; never base64.
///
/// The HTML part takes the same way: its lines are the text's lines (a
/// little longer where characters are escaped) and short markup lines, so
/// it too is usually `7bit` and readable raw, and quoted-printable, with
/// lines of at most 76 octets, when the text is not ASCII or a line would
/// pass RFC 5322's 998 octets.
fn encode_body(text: &str) -> Body {
    let text = normalise(text);
    // RFC 5322/2045 limits for 7bit: no NUL, no bare CR, 998 octets a line;
    // checked in the same pass that turns LF into CRLF.
    let mut crlf = Vec::with_capacity(text.len() + text.len() / 16);
    let mut line = 0usize;
    let seven_bit = text.bytes().all(|b| {
        if b == b'\n' {
            crlf.extend_from_slice(b"\r\n");
            line = 0;
            return true;
        }
        crlf.push(b);
        line += 1;
        b.is_ascii() && b != 0 && b != b'\r' && line <= 998
    });
    if seven_bit {
        Body::dangerous_pre_encoded(crlf, ContentTransferEncoding::SevenBit)
    } else {
        // Quoted-printable can encode anything; the fallback only exists
        // because the API returns a Result.
        Body::new_with_encoding(text, ContentTransferEncoding::QuotedPrintable)
            .unwrap_or_else(Body::new)
    }
}

/// The body text with LF line ends and a final line break.
fn normalise(text: &str) -> String {
    let mut text = if text.contains('\r') {
        text.replace("\r\n", "\n")
    } else {
        text.to_owned()
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The multipart boundary: `=_orderly_` and a hash of the mail's id and its
/// encoded parts, so that the same mail always formats to the same bytes.
///
/// The boundary must not occur in a part, or a player whose words the reply
/// echoes could split it into parts of the player's making. The search in
/// [`unused_boundary`] guarantees that, whatever the hash; the hash of the
/// content only makes a clash (and so a boundary with a suffix) as good as
/// never happen, since no text contains a hash of itself. `=_` cannot occur
/// in quoted-printable output either (a `=` there is followed by hex digits
/// or a line break). The hash is FNV-1a, not a cryptographic one: a
/// SHA-256 of both parts was a third of the CPU of formatting a reply, and
/// nothing here needs a secret or collision resistance.
fn boundary(message_id: &str, parts: &[&[u8]]) -> String {
    // Two 64-bit FNV-1a hashes from different starting points: 128 bits.
    let mut hashes = [0xcbf2_9ce4_8422_2325_u64, 0x6c62_272e_07bb_0142_u64];
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            for h in &mut hashes {
                *h = (*h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    };
    feed(message_id.as_bytes());
    for part in parts {
        feed(b"\0");
        feed(part);
    }
    unused_boundary(
        &format!("=_orderly_{:016x}{:016x}", hashes[0], hashes[1]),
        parts,
    )
}

/// `base`, or `base_1`, `base_2`... whichever first occurs in no part.
fn unused_boundary(base: &str, parts: &[&[u8]]) -> String {
    (0u32..)
        .map(|n| match n {
            0 => base.to_owned(),
            n => format!("{base}_{n}"),
        })
        .find(|candidate| {
            !parts
                .iter()
                .any(|part| memchr::memmem::find(part, candidate.as_bytes()).is_some())
        })
        .expect("a boundary absent from finitely many parts")
}

/// `DateTime<Utc>` as an RFC 3339 string, without chrono's serde feature.
mod rfc3339 {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(date: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&date.to_rfc3339_opts(SecondsFormat::AutoSi, true))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        let text = String::deserialize(d)?;
        DateTime::parse_from_rfc3339(&text)
            .map(|date| date.with_timezone(&Utc))
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
