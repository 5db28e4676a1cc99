//! Text a sender controls (a Subject, a display name, a Message-ID) made
//! safe to store, print and log: a terminal must not take orders from a
//! mail (`ESC [2J`, a window title, a hyperlink), a log line must not be
//! split in two or reordered by it.

use std::borrow::Cow;

/// The longest header text a log line carries.
pub const LOG_CHARS: usize = 200;

/// `text` without terminal escape sequences (CSI, OSC and the other string
/// controls, in their 7-bit and 8-bit forms), control characters and the
/// Unicode controls that reorder or break lines; tabs and line ends become
/// spaces. Borrowed when there was nothing to remove.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut chars),
                // A two-character sequence (ESC c, ESC 7, ...): both go.
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\t' | '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{85}' => out.push(' '),
            c if unsafe_char(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `text` made [`printable`] and cut to [`LOG_CHARS`] characters, for a
/// log line.
pub fn for_log(text: &str) -> String {
    let clean = printable(text);
    match clean.char_indices().nth(LOG_CHARS) {
        Some((cut, _)) => format!("{}...", &clean[..cut]),
        None => clean.into_owned(),
    }
}

/// Control characters, and the format characters that reorder text
/// (bidirectional overrides and isolates) or break lines.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// Skips a control sequence's parameters and its final character.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) || !(' '..='\u{7e}').contains(&c) {
            break;
        }
    }
}

/// Skips a control string (OSC, DCS, ...) up to its end: BEL, ST (`ESC \`
/// or U+009C), or the end of the text.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                break;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_controls_are_removed() {
        assert_eq!(printable("plain"), Cow::Borrowed("plain"));
        assert_eq!(printable("a\u{1b}[2Jb\u{1b}[1;31mc\u{1b}[0m"), "abc");
        assert_eq!(
            printable("x\u{1b}]0;owned\u{7}y\u{1b}]8;;http://e\u{1b}\\z"),
            "xyz"
        );
        assert_eq!(printable("a\u{9b}31mb\u{1b}cc"), "abc");
        assert_eq!(printable("line\r\nINFO fake\tx\0"), "line  INFO fake x");
        assert_eq!(printable("evil\u{202e}txt.exe\u{2066}"), "eviltxt.exe");
        assert_eq!(printable("unfinished \u{1b}["), "unfinished ");
        assert_eq!(printable("Grüße"), "Grüße");
    }

    #[test]
    fn log_text_is_short() {
        let long = "x".repeat(1000);
        let logged = for_log(&long);
        assert_eq!(logged.chars().count(), LOG_CHARS + 3);
        assert_eq!(for_log("a\nb"), "a b");
    }
}
