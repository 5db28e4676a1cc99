//! From a [`Field`] (a path of keys and indices) to the line of the file
//! that holds it, through the spans of the toml crate's own document
//! (`toml::de::DeTable`), so that checks made on the typed
//! [`Scenario`](super::Scenario) still point at the text.

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::field::{Field, Step};

/// A scenario file's text and its parsed document, for locating fields.
pub struct Lines<'a> {
    text: &'a str,
    root: Option<Spanned<DeTable<'a>>>,
}

impl<'a> Lines<'a> {
    /// Parses `text` for its spans; a text that does not parse locates
    /// everything on line 1 (its syntax error is reported on its own).
    pub fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text,
            root: DeTable::parse(text).ok(),
        }
    }

    /// The line (from 1) of a byte offset into the text.
    pub fn line_of_offset(&self, offset: usize) -> usize {
        line_at(self.text, offset)
    }

    /// The line of `field`: its key's line for a key, its entry's for an
    /// array entry; when the file does not spell the whole path (a value
    /// left to its default), the line of the deepest part it does.
    pub fn line(&self, field: &Field) -> usize {
        let Some(root) = &self.root else {
            return 1;
        };
        let mut offset = 0;
        let mut table: Option<&DeTable<'a>> = Some(root.get_ref());
        let mut value: Option<&DeValue<'a>> = None;
        for step in field.steps() {
            let found = match step {
                Step::Key(key) => table
                    .or_else(|| value.and_then(DeValue::as_table))
                    .and_then(|t| t.get_key_value(key.as_str()))
                    .map(|(k, v)| (k.span().start, v)),
                Step::Index(i) => value
                    .and_then(DeValue::as_array)
                    .and_then(|a| a.get(*i))
                    .map(|v| (v.span().start, v)),
            };
            let Some((start, next)) = found else {
                break;
            };
            offset = start;
            table = None;
            value = Some(next.get_ref());
        }
        self.line_of_offset(offset)
    }
}

/// The line (from 1) of a byte offset into `text`.
pub fn line_at(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    1 + text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# a comment\nid = \"x\"\n\n[map]\ncolumns = 4\nterrain = [\n  \"..\",\n  \"..\",\n]\n\n[[unit]]\nid = \"A\"\n\n[[unit]]\nid = \"B\"\nat = \"0101\"\n";

    #[test]
    fn fields_are_found_on_their_lines() {
        let lines = Lines::new(TEXT);
        assert_eq!(lines.line(&Field::key("id")), 2);
        assert_eq!(lines.line(&Field::keys("map.columns")), 5);
        assert_eq!(lines.line(&Field::keys("map.terrain").at(1)), 8);
        assert_eq!(lines.line(&Field::key("unit").at(1).then("at")), 16);
        assert_eq!(lines.line(&Field::key("unit").at(0).then("id")), 12);
    }

    #[test]
    fn a_field_left_out_falls_back_to_what_holds_it() {
        let lines = Lines::new(TEXT);
        let unit = lines.line(&Field::key("unit").at(1));
        assert!((14..=15).contains(&unit), "{unit}");
        assert_eq!(lines.line(&Field::key("unit").at(1).then("face")), unit);
        assert_eq!(lines.line(&Field::key("victory")), 1);
    }
}
