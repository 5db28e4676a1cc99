//! Where in a scenario file something lies: a path of keys and array
//! indices from the top of the document (`map.terrain[2]`, `unit[4].at`),
//! spelt as the file spells them, so that a problem found after reading
//! can be traced back to its line.

use std::fmt;

/// One step of a [`Field`]: a table key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A key of a table, as written in the file (`map`, `unit`).
    Key(String),
    /// An entry of an array, from 0.
    Index(usize),
}

/// A path from the document's top to a key or array entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Field(Vec<Step>);

impl Field {
    /// The top-level key `key`.
    pub fn key(key: &str) -> Field {
        Field(vec![Step::Key(key.to_owned())])
    }

    /// The path `map.terrain`-style: keys separated by dots (no indices).
    pub fn keys(path: &str) -> Field {
        Field(path.split('.').map(|k| Step::Key(k.to_owned())).collect())
    }

    /// This path, then the key `key` inside it.
    pub fn then(mut self, key: &str) -> Field {
        self.0.push(Step::Key(key.to_owned()));
        self
    }

    /// This path, then entry `index` of the array it names.
    pub fn at(mut self, index: usize) -> Field {
        self.0.push(Step::Index(index));
        self
    }

    /// The steps, from the top.
    pub fn steps(&self) -> &[Step] {
        &self.0
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Key(k) if i == 0 => write!(f, "{k}")?,
                Step::Key(k) => write!(f, ".{k}")?,
                Step::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_as_the_file_spells_them() {
        assert_eq!(
            Field::keys("map.terrain").at(2).to_string(),
            "map.terrain[2]"
        );
        assert_eq!(
            Field::key("unit").at(4).then("at").to_string(),
            "unit[4].at"
        );
        assert_eq!(Field::key("terrain").then("woods").steps().len(), 2);
    }
}
