//! What every game tells a player about an order it did not take, in one
//! shape the service can word for mail.

use std::fmt;

use serde::Serialize;

use super::RuleId;

/// An order line that was not taken: the line as written, what is wrong in
/// plain words, the rule that forbids it (none when the line could not be
/// read at all), and the nearest legal orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rejection {
    /// The line exactly as the player wrote it (trimmed).
    pub line: String,
    /// What is wrong, in words a player understands.
    pub problem: String,
    /// The rule that forbids the order, or `None` when it could not be read.
    #[serde(serialize_with = "rule_text")]
    pub rule: Option<RuleId>,
    /// The legal orders nearest to what was written, best first, in
    /// canonical notation. Empty when nothing is near (or nothing is legal).
    pub suggestions: Vec<String>,
}

impl Rejection {
    /// Whether the line could not be read as an order at all.
    pub fn is_unreadable(&self) -> bool {
        self.rule.is_none()
    }
}

/// The text form: the quoted line, the problem with its rule, and the
/// suggestions, one per line.
///
/// ```text
/// > G2CR G1CL
/// G1CL is not a square the infantry in G2CR can reach in one move (rule R9).
/// Nearest legal orders:
///   MOVE G2CR G1C
/// ```
impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "> {}", self.line)?;
        match self.rule {
            Some(rule) => write!(f, "{} (rule {rule}).", capitalised(&self.problem))?,
            None => write!(f, "{}.", capitalised(&self.problem))?,
        }
        if !self.suggestions.is_empty() {
            write!(f, "\nNearest legal orders:")?;
            for s in &self.suggestions {
                write!(f, "\n  {s}")?;
            }
        }
        Ok(())
    }
}

/// Lines of mail are at most this wide (design: plain text, 76 columns).
pub const MAIL_WIDTH: usize = 76;

/// Wraps every line longer than [`MAIL_WIDTH`] at spaces. A continuation
/// line is indented by `continuation(indent)`, given the wrapped line's own
/// indentation: a hanging indent keeps a wrapped list item visibly one item.
/// A single word longer than the width is left whole.
pub fn wrap(text: &str, continuation: impl Fn(usize) -> usize) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.lines() {
        if line.len() <= MAIL_WIDTH {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let cont = " ".repeat(continuation(indent));
        let mut current = " ".repeat(indent);
        for word in line.split_whitespace() {
            if !current.trim().is_empty() && current.len() + 1 + word.len() > MAIL_WIDTH {
                out.push_str(current.trim_end());
                out.push('\n');
                current = cont.clone();
            }
            if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(current.trim_end());
        out.push('\n');
    }
    out
}

/// `text` as the start of a sentence: trimmed, a capital first letter, no
/// full stop at the end (the caller adds its own ending).
pub fn capitalised(text: &str) -> String {
    let text = text.trim().trim_end_matches('.');
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

fn rule_text<S: serde::Serializer>(rule: &Option<RuleId>, s: S) -> Result<S::Ok, S::Error> {
    match rule {
        Some(r) => s.serialize_some(r.0),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejection_quotes_the_line_and_cites_the_rule() {
        let r = Rejection {
            line: "G2CR G1CL".into(),
            problem: "G1CL is not a square the infantry in G2CR can reach in one move".into(),
            rule: Some(RuleId("R9")),
            suggestions: vec!["MOVE G2CR G1C".into()],
        };
        assert_eq!(
            r.to_string(),
            "> G2CR G1CL\nG1CL is not a square the infantry in G2CR can reach in one move \
             (rule R9).\nNearest legal orders:\n  MOVE G2CR G1C"
        );
    }
}
