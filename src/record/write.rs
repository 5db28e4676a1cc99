//! Writing a record in its canonical layout, and where each part lands.

use crate::games::{GameResult, Seat};

use super::{EndMarker, Ending, Entry, OrderEntry, Record};

/// Comments are wrapped to this width so that a record survives mail.
const WIDTH: usize = 76;

/// The indentation of a continuation line.
pub(crate) const INDENT: &str = "    ";

/// One line of a record: its number (from 1) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub number: usize,
    pub text: String,
}

/// The lines an entry takes: its own, then an order's forced notes or a
/// draw's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EntryLines {
    pub main: Line,
    pub forced: Vec<Line>,
}

/// Where the parts of a record are: written by orderly, or as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The whole text (empty for a record's origin).
    pub text: String,
    /// Each tag line, by tag name as written.
    pub tags: Vec<(String, Line)>,
    /// Each entry's lines, one per entry.
    pub entries: Vec<EntryLines>,
    /// The result token's line, if any.
    pub result: Option<Line>,
    /// How many lines `text` has.
    count: usize,
}

impl Layout {
    /// The line of a tag (any case), if the record has it.
    pub fn tag(&self, name: &str) -> Option<&Line> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, l)| l)
    }

    fn push(&mut self, text: String) -> Line {
        self.count += 1;
        let line = Line {
            number: self.count,
            text: text.clone(),
        };
        self.text.push_str(&text);
        self.text.push('\n');
        line
    }
}

impl Record {
    /// Where the parts of this record are: as read, when it was read and not
    /// changed since; as written otherwise.
    pub(crate) fn lines(&self) -> Layout {
        match &self.origin {
            Some(origin) if origin.entries.len() == self.entries.len() => origin.clone(),
            _ => self.layout(),
        }
    }

    /// The record written out, with where each part lands.
    pub(crate) fn layout(&self) -> Layout {
        let mut out = Layout::default();
        for (name, value) in self.tag_pairs() {
            let line = out.push(format!("[{name} \"{}\"]", escape(&value)));
            out.tags.push((name, line));
        }
        out.push(String::new());
        for entry in &self.entries {
            let lines = match entry {
                Entry::Order(o) => {
                    let main = out.push(self.order_line(o));
                    let forced = o
                        .forced
                        .iter()
                        .map(|n| {
                            out.push(format!(
                                "{INDENT}; {} {} (only choice)",
                                self.seat_name(n.seat),
                                n.order
                            ))
                        })
                        .collect();
                    EntryLines { main, forced }
                }
                Entry::Comment(text) => {
                    let mut lines = wrap(&format!("{{{text}}}"));
                    let first = out.push(lines.remove(0));
                    for rest in lines {
                        out.push(rest);
                    }
                    EntryLines {
                        main: first,
                        forced: Vec::new(),
                    }
                }
                Entry::End(marker) => EntryLines {
                    main: out.push(self.end_line(marker)),
                    forced: Vec::new(),
                },
                Entry::Draw(d) => {
                    let i = &d.inputs;
                    EntryLines {
                        main: out.push(format!("{INDENT}DRAW {} {}", i.number, d.order)),
                        forced: [("mail", i.mail), ("reply", i.reply), ("words", i.words)]
                            .into_iter()
                            .map(|(name, digest)| out.push(format!("{INDENT}  {name} {digest}")))
                            .collect(),
                    }
                }
            };
            out.entries.push(lines);
        }
        out.result = Some(out.push(self.result_token().to_string()));
        out
    }

    /// The tag pairs in the order they are written.
    pub(crate) fn tag_pairs(&self) -> Vec<(String, String)> {
        let t = &self.tags;
        let date = |d: &Option<super::Date>| d.map_or("?".to_string(), |d| d.to_string());
        let mut pairs = vec![
            ("Game".to_string(), t.game.clone()),
            ("Title".to_string(), t.title.clone()),
            ("Rules".to_string(), t.rules.clone()),
            ("GameId".to_string(), t.game_id.clone()),
            ("Site".to_string(), t.site.clone()),
        ];
        for seat in Seat::BOTH {
            pairs.push((
                self.seat_name(seat).to_string(),
                t.players[seat.index()].clone(),
            ));
        }
        if let Some(first) = t.first {
            pairs.push(("First".to_string(), self.seat_name(first).to_string()));
        }
        if let Some(seed) = t.seed {
            pairs.push(("Seed".to_string(), seed.to_string()));
        }
        pairs.push(("Started".to_string(), date(&t.started)));
        pairs.push(("Ended".to_string(), date(&t.ended)));
        pairs.push(("Result".to_string(), self.result_token().to_string()));
        pairs.push((
            "Termination".to_string(),
            self.termination_text(t.finish.as_ref().map(|f| f.termination.clone())),
        ));
        if let Some(position) = &t.position {
            pairs.push(("Position".to_string(), position.clone()));
        }
        pairs.extend(t.extra().iter().cloned());
        pairs
    }

    pub(crate) fn order_line(&self, o: &OrderEntry) -> String {
        let seat = self.seat_name(o.seat);
        match o.number {
            Some(n) => format!("{n}. {seat} {}", o.order),
            None => format!("{INDENT}{seat} {}", o.order),
        }
    }

    pub(crate) fn end_line(&self, marker: &EndMarker) -> String {
        let n = marker.number;
        match marker.ending {
            Ending::Resigned(seat) => format!("{n}. {} RESIGNS", self.seat_name(seat)),
            Ending::DrawAgreed => format!("{n}. DRAW AGREED"),
            Ending::Adjudicated(GameResult::Draw) => format!("{n}. ADJUDICATED Draw"),
            Ending::Adjudicated(GameResult::Win(seat)) => {
                format!("{n}. ADJUDICATED {}", self.seat_name(seat))
            }
        }
    }
}

/// A tag value between quotes: `\` and `"` escaped, control characters
/// (which a value cannot hold) as spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Splits a one-line comment into lines of at most [`WIDTH`] columns at
/// spaces (a longer word keeps its own line). Reading joins them again
/// with single spaces, which the comment already has.
fn wrap(text: &str) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().filter(|l| !l.is_empty());
        match last {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= WIDTH => {
                line.push(' ');
                line.push_str(word);
            }
            Some(_) => lines.push(word.to_string()),
            None => {
                if let Some(line) = lines.last_mut() {
                    line.push_str(word);
                }
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_comments_wrap_at_76_columns() {
        let text = format!("{{{}}}", ["word"; 40].join(" "));
        let lines = wrap(&text);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.len() <= WIDTH));
        assert_eq!(lines.join(" "), text);
    }

    #[test]
    fn quotes_and_backslashes_are_escaped() {
        assert_eq!(escape(r#"a "b" \c"#), r#"a \"b\" \\c"#);
    }
}
