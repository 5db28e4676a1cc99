//! The HTML alternative of a mail: the same text, escaped, in one `<pre>`.
//!
//! Phones and webmail show a text/plain part in a proportional font, or
//! rewrap it to the screen, and the ASCII board falls apart. The HTML part
//! exists only to say "monospace, never rewrap": it is a small complete
//! document whose body is one `<pre>` holding the plain text line for line.
//! Nothing is added or reflowed, so the HTML says exactly what the plain
//! part says and a reader that prefers either gets the same mail.
//!
//! Every character of the text is escaped: the text echoes what players
//! wrote (and what strangers wrote), so `<`, `&` and quotes in it must stay
//! text. Control characters, which a document may not hold and the plain
//! part carries only encoded, become U+FFFD.

/// The `<pre>`'s style: a monospace font every platform has, a size that
/// keeps a 76-column board on a phone screen, no wrapping, and a sideways
/// scroll bar rather than an overflowing page when it is still too wide.
/// Written over several lines (CSS takes a line break for a space) so that
/// every line of the document's markup stays short.
const PRE_STYLE: &str = concat!(
    "font-family: ui-monospace, Menlo, Consolas,\n",
    " 'Courier New', monospace; font-size: 13px; line-height: 1.3;\n",
    " white-space: pre; overflow-x: auto; margin: 0;",
);

/// A picture the document shows above its text: the `cid:` of the mail's
/// part that holds it, and its size in pixels.
pub(super) struct Picture<'a> {
    /// The Content-ID of the image part, without angle brackets.
    pub content_id: &'a str,
    /// The picture's width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
}

/// The `<img>`'s style: never wider than the screen (a phone), its height
/// following.
const IMG_STYLE: &str = "max-width: 100%; height: auto; display: block; margin: 0 0 12px 0;";

/// The HTML document for `text` (LF line ends, as the plain part is made
/// from), titled `title`, with LF line ends.
pub(super) fn document(title: &str, text: &str) -> String {
    document_with(title, text, None)
}

/// [`document`] with `picture` (the board, issue 19) above the text.
pub(super) fn document_with(title: &str, text: &str, picture: Option<Picture<'_>>) -> String {
    let mut html = String::with_capacity(text.len() + text.len() / 8 + 512);
    html.push_str(concat!(
        "<!DOCTYPE html>\n",
        "<html lang=\"en\">\n",
        "<head>\n",
        "<meta charset=\"utf-8\">\n",
        "<meta name=\"viewport\" content=\"width=device-width\">\n",
        "<title>",
    ));
    // A title is one line; a line break in it would only be white space.
    escape_into(&mut html, &title.replace(['\r', '\n'], " "));
    html.push_str("</title>\n</head>\n<body>\n");
    if let Some(p) = picture {
        // The Content-ID is the service's own (a hash and its domain), but
        // it is escaped like everything else that goes into an attribute.
        html.push_str("<img src=\"cid:");
        escape_into(&mut html, p.content_id);
        html.push_str(&format!(
            "\" width=\"{}\" height=\"{}\" alt=\"The board\"\n style=\"{IMG_STYLE}\">\n",
            p.width, p.height
        ));
    }
    html.push_str("<pre style=\"");
    html.push_str(PRE_STYLE);
    // The line break right after `<pre>` is dropped by every HTML parser
    // (HTML 5, 13.2.6.4.7), so the text's first line, even an empty one,
    // is kept as it is.
    html.push_str("\">\n");
    escape_into(&mut html, text);
    if !text.is_empty() && !text.ends_with('\n') {
        html.push('\n');
    }
    html.push_str("</pre>\n</body>\n</html>\n");
    html
}

/// Appends `text` with every character that could end text in an element
/// or in an attribute value escaped, and control characters (other than
/// tab and line feed) replaced.
fn escape_into(out: &mut String, text: &str) {
    // Runs of characters that need nothing are copied whole: a reply is
    // mostly such runs, and pushing it a character at a time was most of
    // the cost of its HTML part.
    let mut plain_from = 0;
    for (i, c) in text.char_indices() {
        let replacement = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            '\t' | '\n' => continue,
            c if c.is_control() => "\u{fffd}",
            _ => continue,
        };
        out.push_str(&text[plain_from..i]);
        out.push_str(replacement);
        plain_from = i + c.len_utf8();
    }
    out.push_str(&text[plain_from..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escape(text: &str) -> String {
        let mut out = String::new();
        escape_into(&mut out, text);
        out
    }

    #[test]
    fn escaping_is_total() {
        assert_eq!(
            escape("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
        assert_eq!(escape("&amp; stays text"), "&amp;amp; stays text");
        assert_eq!(
            escape("nul\0 cr\r del\u{7f} c1\u{85}"),
            "nul\u{fffd} cr\u{fffd} del\u{fffd} c1\u{fffd}"
        );
        assert_eq!(escape("\ttab\nline é ☺"), "\ttab\nline é ☺");
    }

    #[test]
    fn the_text_is_the_whole_pre_line_for_line() {
        let text = "\n  +---+\n1 | <I> |\n";
        let html = document("Game <1>\r\nnext", text);
        assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n"));
        assert!(html.contains("<meta charset=\"utf-8\">\n"));
        assert!(html.contains("<meta name=\"viewport\" content=\"width=device-width\">\n"));
        assert!(html.contains("<title>Game &lt;1&gt;  next</title>\n"));
        let start = html.find("<pre style=\"").unwrap();
        let open_end = start + html[start..].find(">\n").unwrap() + 2;
        let close = html.find("</pre>").unwrap();
        assert_eq!(&html[open_end..close], "\n  +---+\n1 | &lt;I&gt; |\n");
        assert!(html.ends_with("</pre>\n</body>\n</html>\n"));
        assert_eq!(html.matches("<pre").count(), 1);
    }

    #[test]
    fn the_pre_is_monospace_and_never_wraps() {
        let html = document("t", "x\n");
        let style = &html[html.find("<pre style=\"").unwrap()..];
        let style = &style[..style.find('>').unwrap()];
        for wanted in [
            "monospace",
            "white-space: pre;",
            "overflow-x: auto;",
            "font-size: 13px;",
        ] {
            assert!(style.contains(wanted), "{wanted} missing from {style}");
        }
        // Single quotes inside, so the attribute value is not cut short.
        assert_eq!(style.matches('"').count(), 2, "{style}");
    }
}
