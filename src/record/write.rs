//! Writing a record in its canonical layout, and where each part lands.

use crate::games::fair::DrawInputs;
use crate::games::{GameResult, Seat};

use super::{EndMarker, Ending, Entry, OrderEntry, Record, COMMITMENT_TAG, REVEALED_TAG};

/// Lines are kept to this width (comments and long tags are wrapped, the
/// draws' inputs stand on lines of their own) so that a record survives
/// mail.
pub(crate) const WIDTH: usize = 76;

/// The indentation of a tag's continuation line.
const TAG_INDENT: &str = "  ";

/// The indentation of a draw's inputs in the proof of the draws.
const INPUT_INDENT: &str = "  ";

/// The remark that heads the proof of the draws (read and dropped).
const PROOF_REMARK: [&str; 2] = [
    "; The proof of the draws (docs/dice.md), for orderly verify: the seed",
    "; committed to and, once the game is over, revealed; each draw's inputs.",
];

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
        let (proof_tags, header): (Vec<_>, Vec<_>) = self
            .tag_pairs()
            .into_iter()
            .partition(|(name, _)| is_proof_tag(name));
        for (name, value) in header {
            let mut lines = wrap_tag(&format!("[{name} \"{}\"]", escape(&value))).into_iter();
            let line = out.push(lines.next().unwrap_or_default());
            for rest in lines {
                out.push(format!("{TAG_INDENT}{rest}"));
            }
            out.tags.push((name, line));
        }
        out.push(String::new());
        // A record whose draws' numbers do not only go up (one being
        // mended) keeps each draw's inputs under its line: grouped by
        // number, they could not be told apart.
        let grouped = draws_go_up(&self.entries);
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
                    let main = out.push(format!("{INDENT}DRAW {} {}", i.number, d.order));
                    let forced = if grouped {
                        Vec::new()
                    } else {
                        input_lines(i)
                            .into_iter()
                            .map(|l| out.push(format!("{INDENT}{INPUT_INDENT}{l}")))
                            .collect()
                    };
                    EntryLines { main, forced }
                }
            };
            out.entries.push(lines);
        }
        out.result = Some(out.push(self.result_token().to_string()));
        let groups = if grouped {
            draw_groups(&self.entries)
        } else {
            Vec::new()
        };
        if !proof_tags.is_empty() || !groups.is_empty() {
            out.push(String::new());
            for remark in PROOF_REMARK {
                out.push(remark.to_string());
            }
            for (name, value) in proof_tags {
                let line = out.push(format!("{name} {}", clean_word(&value)));
                out.tags.push((name, line));
            }
            for (first, last, inputs) in groups {
                out.push(if first == last {
                    format!("Draw {first}")
                } else {
                    format!("Draws {first}-{last}")
                });
                for l in input_lines(&inputs) {
                    out.push(format!("{INPUT_INDENT}{l}"));
                }
            }
        }
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

/// Whether a tag belongs to the proof of the draws, written after the
/// result token rather than among the tags: its 64 hex digits would make
/// the tag's line longer than a mail's.
pub(crate) fn is_proof_tag(name: &str) -> bool {
    name.eq_ignore_ascii_case(COMMITMENT_TAG) || name.eq_ignore_ascii_case(REVEALED_TAG)
}

/// A proof tag's value as one word (it is hex: a space cannot be in it).
fn clean_word(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join("")
}

/// A draw's public inputs, one a line, in their order.
fn input_lines(i: &DrawInputs) -> [String; 3] {
    [
        format!("mail {}", i.mail),
        format!("reply {}", i.reply),
        format!("words {}", i.words),
    ]
}

/// Whether the draws' numbers only go up in the record's order.
fn draws_go_up(entries: &[Entry]) -> bool {
    let mut last = 0;
    entries.iter().all(|e| match e {
        Entry::Draw(d) => {
            let up = d.inputs.number > last;
            last = d.inputs.number;
            up
        }
        _ => true,
    })
}

/// The draws in runs of the same inputs (the draws one mail caused): the
/// first and last number of each run, and its inputs.
fn draw_groups(entries: &[Entry]) -> Vec<(u32, u32, DrawInputs)> {
    let mut groups: Vec<(u32, u32, DrawInputs)> = Vec::new();
    for entry in entries {
        let Entry::Draw(d) = entry else { continue };
        let i = d.inputs;
        match groups.last_mut() {
            Some((_, last, inputs))
                if (inputs.mail, inputs.reply, inputs.words) == (i.mail, i.reply, i.words) =>
            {
                *last = i.number;
            }
            _ => groups.push((i.number, i.number, i)),
        }
    }
    groups
}

/// Splits a tag's line longer than [`WIDTH`] columns at single spaces
/// (after the name, or inside the value), its continuation lines to be
/// indented by [`TAG_INDENT`]: reading joins them with single spaces, which
/// is what was cut. A space next to another, or after a `]`, is never cut
/// at (a line that ends with `]` ends its tag). A line with no such space
/// stays whole.
fn wrap_tag(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= WIDTH {
        return vec![line.to_string()];
    }
    let cuts: Vec<usize> = (1..chars.len().saturating_sub(1))
        .filter(|&i| {
            chars[i] == ' ' && chars[i - 1] != ' ' && chars[i - 1] != ']' && chars[i + 1] != ' '
        })
        .collect();
    let mut lines = Vec::new();
    let mut start = 0;
    loop {
        let width = if lines.is_empty() {
            WIDTH
        } else {
            WIDTH - TAG_INDENT.len()
        };
        if chars.len() - start <= width {
            break;
        }
        let fits = cuts
            .iter()
            .copied()
            .rfind(|&c| c > start && c - start <= width);
        let Some(cut) = fits.or_else(|| cuts.iter().copied().find(|&c| c > start)) else {
            break;
        };
        lines.push(chars[start..cut].iter().collect());
        start = cut + 1;
    }
    lines.push(chars[start..].iter().collect());
    lines
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
    fn long_tags_wrap_at_single_spaces_and_hex_stays_whole() {
        let line = format!("[Rules \"{}\"]", ["rule"; 30].join(" "));
        let lines = wrap_tag(&line);
        assert!(lines.len() > 1);
        assert!(lines[0].chars().count() <= WIDTH);
        assert!(lines[1..]
            .iter()
            .all(|l| l.chars().count() + TAG_INDENT.len() <= WIDTH));
        assert_eq!(lines.join(" "), line);
        // Never at a double space, nor after a ], which ends a tag's line.
        let spaced = format!("[Blue \"Ann  Example ]x {}\"]", "y".repeat(70));
        let lines = wrap_tag(&spaced);
        assert_eq!(lines.join(" "), spaced);
        for l in &lines[..lines.len() - 1] {
            assert!(!l.ends_with(' ') && !l.ends_with(']'), "{lines:?}");
        }
        // A value without a space goes whole on a line of its own.
        let hex = format!("[Hash \"{}\"]", "ab".repeat(36));
        assert_eq!(
            wrap_tag(&hex),
            vec!["[Hash".to_string(), format!("\"{}\"]", "ab".repeat(36))]
        );
    }

    #[test]
    fn quotes_and_backslashes_are_escaped() {
        assert_eq!(escape(r#"a "b" \c"#), r#"a \"b\" \\c"#);
    }
}
