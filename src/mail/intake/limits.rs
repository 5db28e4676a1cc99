//! Bounds on what one message may cost to read, applied before mailparse
//! or any reader sees it (design: every input bounded before expensive
//! work).
//!
//! - The message is read up to `max_mail_bytes` (the service answers a
//!   larger one from its headers alone).
//! - The header block is read up to `max_header_bytes`: a header field
//!   that no longer fits is dropped (a smaller one after it may still be
//!   read).
//! - RFC 2047 encoded words: mailparse finds the end of each encoded word
//!   by counting characters from the start of its line, which is quadratic
//!   in the markers (`=?`, `?=`) of one line. A header field keeps at most
//!   `max_encoded_words` words (about two markers each) and is cut before
//!   the next marker; any other line (MIME part headers hide among them)
//!   is cut after [`MAX_BODY_LINE_MARKERS`] markers, which no text has.
//! - The text read: at most `max_lines` lines that are not blank, after
//!   quotes and signatures are removed, each at most `max_line_chars`
//!   characters; what was left out is counted, so that the reply can say.

use std::borrow::Cow;

/// The limits (config `[intake]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest message read whole, in bytes.
    pub max_mail_bytes: usize,
    /// The largest header block read, in bytes.
    pub max_header_bytes: usize,
    /// Encoded words decoded per header field.
    pub max_encoded_words: usize,
    /// Lines of text read per mail (blank lines not counted).
    pub max_lines: usize,
    /// Characters read per line.
    pub max_line_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_mail_bytes: 1024 * 1024,
            max_header_bytes: 64 * 1024,
            max_encoded_words: 50,
            max_lines: 500,
            max_line_chars: 1000,
        }
    }
}

/// Markers of encoded words (`=?`, `?=`) a line outside the message's own
/// header block may hold before it is cut: a MIME part's header lines are
/// decoded as the message's own are, and no line of text has this many.
pub const MAX_BODY_LINE_MARKERS: usize = 16;

/// What the bounds left out of a message.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unread {
    /// Bytes of the message beyond `max_mail_bytes`.
    pub bytes: usize,
    /// Header fields dropped beyond `max_header_bytes`.
    pub header_fields: usize,
    /// Header fields cut after `max_encoded_words` encoded words.
    pub encoded_words_cut: usize,
    /// Lines of text (not blank) beyond `max_lines`.
    pub lines: usize,
    /// Lines cut to `max_line_chars` characters.
    pub long_lines: usize,
}

impl Unread {
    /// Whether anything of the text the player wrote was left out.
    pub fn text_cut(&self) -> bool {
        self.lines > 0 || self.long_lines > 0
    }
}

/// `raw` with its header block and its lines bounded (see the module's
/// text); borrowed when nothing had to change.
pub(super) fn bound_raw<'a>(raw: &'a [u8], limits: &Limits, unread: &mut Unread) -> Cow<'a, [u8]> {
    let (header_end, body_start) = header_block(raw);
    let headers = &raw[..header_end];
    let body = &raw[body_start..];
    let field_markers = limits.max_encoded_words.saturating_mul(2);

    let mut out: Option<Vec<u8>> = None;
    // Copies what was read unchanged so far into `out` on the first change.
    let start_copy = |out: &mut Option<Vec<u8>>, upto: usize| {
        if out.is_none() {
            let mut v = Vec::with_capacity(raw.len().min(limits.max_mail_bytes) + 4);
            v.extend_from_slice(&raw[..upto]);
            *out = Some(v);
        }
    };

    let mut kept = 0;
    let mut at = 0;
    for field in fields(headers) {
        let end_of_field = at + field.len();
        if kept + field.len() > limits.max_header_bytes {
            // Dropped, but the fields after it are still read as far as
            // the limit goes: a huge Subject does not hide the From.
            start_copy(&mut out, at);
            unread.header_fields += 1;
            at = end_of_field;
            continue;
        }
        kept += field.len();
        match marker_cut(field, field_markers) {
            Some(cut) => {
                start_copy(&mut out, at);
                unread.encoded_words_cut += 1;
                if let Some(v) = out.as_mut() {
                    v.extend_from_slice(field[..cut].trim_ascii_end());
                    v.extend_from_slice(b"\r\n");
                }
            }
            None => {
                if let Some(v) = out.as_mut() {
                    v.extend_from_slice(field);
                }
            }
        }
        at = end_of_field;
    }
    if let Some(v) = out.as_mut() {
        v.extend_from_slice(&raw[header_end..body_start]);
    }

    let mut at = body_start;
    for line in body.split_inclusive(|&b| b == b'\n') {
        match marker_cut(line, MAX_BODY_LINE_MARKERS) {
            Some(cut) => {
                start_copy(&mut out, at);
                if let Some(v) = out.as_mut() {
                    v.extend_from_slice(&line[..cut]);
                    v.extend_from_slice(b"\r\n");
                }
            }
            None => {
                if let Some(v) = out.as_mut() {
                    v.extend_from_slice(line);
                }
            }
        }
        at += line.len();
    }
    match out {
        Some(v) => Cow::Owned(v),
        None => Cow::Borrowed(raw),
    }
}

/// The end of the header block and the start of the body: the header
/// block ends at the first blank line (which belongs to neither); without
/// one, the whole message is headers.
pub(super) fn header_block(raw: &[u8]) -> (usize, usize) {
    let mut at = 0;
    for line in raw.split_inclusive(|&b| b == b'\n') {
        if line == b"\n" || line == b"\r\n" {
            return (at, at + line.len());
        }
        at += line.len();
    }
    (raw.len(), raw.len())
}

/// The header fields of a header block, each with its continuation lines
/// and line ends.
fn fields(headers: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = headers;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut end = 0;
        for line in rest.split_inclusive(|&b| b == b'\n') {
            if end > 0 && !matches!(line.first(), Some(b' ' | b'\t')) {
                break;
            }
            end += line.len();
        }
        let (field, after) = rest.split_at(end);
        rest = after;
        Some(field)
    })
}

/// Where `text` must be cut to keep at most `max` encoded-word markers
/// (`=?` and `?=`, overlapping ones each counted), if it must.
fn marker_cut(text: &[u8], max: usize) -> Option<usize> {
    let mut count = 0;
    for (i, pair) in text.windows(2).enumerate() {
        if pair == b"=?" || pair == b"?=" {
            count += 1;
            if count > max {
                return Some(i);
            }
        }
    }
    None
}

/// The first `max_lines` lines of `text` that are not blank (with the
/// blank lines between them), each cut to `max_line_chars` characters,
/// and what was left out.
pub(super) fn bound_text(text: String, limits: &Limits, unread: &mut Unread) -> String {
    let fits = text.lines().filter(|l| !l.trim().is_empty()).count() <= limits.max_lines
        && text.lines().all(|l| {
            l.len() <= limits.max_line_chars || l.chars().count() <= limits.max_line_chars
        });
    if fits {
        return text;
    }
    let mut out = String::with_capacity(text.len().min(limits.max_lines * 80));
    let mut read = 0;
    for line in text.lines() {
        let blank = line.trim().is_empty();
        if !blank {
            if read == limits.max_lines {
                unread.lines += 1;
                continue;
            }
            read += 1;
        }
        if read == limits.max_lines && blank {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        match line.char_indices().nth(limits.max_line_chars) {
            Some((cut, _)) => {
                unread.long_lines += 1;
                out.push_str(&line[..cut]);
            }
            None => out.push_str(line),
        }
    }
    let kept = out.trim_end().len();
    out.truncate(kept);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            max_mail_bytes: 10_000,
            max_header_bytes: 60,
            max_encoded_words: 2,
            max_lines: 3,
            max_line_chars: 5,
        }
    }

    #[test]
    fn a_message_within_the_limits_is_borrowed() {
        let raw = b"From: a@b\r\nSubject: =?utf-8?q?x?=\r\n\r\nPASS\r\n";
        let mut unread = Unread::default();
        assert!(matches!(
            bound_raw(raw, &limits(), &mut unread),
            Cow::Borrowed(_)
        ));
        assert_eq!(unread, Unread::default());
    }

    #[test]
    fn header_fields_beyond_the_limit_are_dropped() {
        let raw = b"From: a@b\r\nX-1: 0123456789\r\n  folded\r\nX-2: 0123456789012345678901\r\nX-3: y\r\nX-4: zzzzzzzzz\r\n\r\nPASS\r\n";
        let mut unread = Unread::default();
        let out = bound_raw(raw, &limits(), &mut unread);
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "From: a@b\r\nX-1: 0123456789\r\n  folded\r\nX-3: y\r\n\r\nPASS\r\n"
        );
        assert_eq!(unread.header_fields, 2);
    }

    #[test]
    fn encoded_words_beyond_the_limit_are_cut() {
        let raw = b"Subject: =?a?q?x?= =?a?q?y?= =?a?q?z?=\r\nFrom: a@b\r\n\r\nx\r\n";
        let mut unread = Unread::default();
        let out = bound_raw(raw, &limits(), &mut unread);
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "Subject: =?a?q?x?= =?a?q?y?=\r\nFrom: a@b\r\n\r\nx\r\n"
        );
        assert_eq!(unread.encoded_words_cut, 1);
        let body = format!("From: a@b\r\n\r\nok\r\n{}\r\nend\r\n", "?=".repeat(40));
        let out = bound_raw(body.as_bytes(), &limits(), &mut unread);
        let out = std::str::from_utf8(&out).unwrap();
        assert_eq!(
            out,
            format!(
                "From: a@b\r\n\r\nok\r\n{}\r\nend\r\n",
                "?=".repeat(MAX_BODY_LINE_MARKERS / 2)
            )
        );
    }

    #[test]
    fn without_a_blank_line_all_is_headers() {
        assert_eq!(header_block(b"a: b\nc: d"), (9, 9));
        assert_eq!(header_block(b"a: b\n\nx"), (5, 6));
        assert_eq!(header_block(b"a: b\r\n\r\nx"), (6, 8));
    }

    #[test]
    fn text_is_bounded_in_lines_and_columns() {
        let mut unread = Unread::default();
        let text = bound_text(
            "one\n\ntwo\nthree\n\nfour\nfive".into(),
            &limits(),
            &mut unread,
        );
        assert_eq!(text, "one\n\ntwo\nthree");
        assert_eq!(unread.lines, 2);
        let mut unread = Unread::default();
        let text = bound_text("abcdefgh\nécrit".into(), &limits(), &mut unread);
        assert_eq!(text, "abcde\nécrit");
        assert_eq!(unread.long_lines, 1);
        assert!(unread.text_cut());
    }
}
