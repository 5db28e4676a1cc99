//! The rules of both games in the project's own words, as players read
//! them: `docs/rules/squares.md` and `docs/rules/napoleonic.md`, built into
//! the binary so that the documentation and `HELP RULES` are one text.
//!
//! Each ends with a "Rule ids" section, one line per id (`- R7  ...`). The
//! tests below keep that section complete: every id the engine can cite
//! (R1-R28 and S1-S8 in both games, N1-N38 in the variant, and any other
//! id written anywhere in the game's code) has its line.

/// SQUARES - The Civil War Battle Game.
pub(crate) const CIVIL_WAR: &str = include_str!("../../../../docs/rules/squares.md");

/// SQUARES - The Napoleonic War Variant.
pub(crate) const NAPOLEONIC: &str = include_str!("../../../../docs/rules/napoleonic.md");

#[cfg(test)]
mod tests {
    use super::{CIVIL_WAR, NAPOLEONIC};
    use crate::games::text::MAIL_WIDTH;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The heading of the section that explains the ids.
    const IDS_HEADING: &str = "## Rule ids";

    /// The ids a rules text explains, in order, each with its line.
    fn rule_ids(text: &str) -> Vec<(&str, &str)> {
        let Some((_, section)) = text.split_once(IDS_HEADING) else {
            return Vec::new();
        };
        section
            .lines()
            .filter_map(|line| {
                let id = line.strip_prefix("- ")?.split_whitespace().next()?;
                is_rule_id(id).then_some((id, line))
            })
            .collect()
    }

    /// `R7`, `S2`, `N14`: a letter of the games' rulings and readings and a
    /// number.
    fn is_rule_id(word: &str) -> bool {
        let mut chars = word.chars();
        matches!(chars.next(), Some('R' | 'S' | 'N'))
            && !chars.as_str().is_empty()
            && chars.as_str().len() <= 3
            && chars.all(|c| c.is_ascii_digit())
    }

    fn ids(text: &str) -> BTreeSet<String> {
        rule_ids(text)
            .iter()
            .map(|(id, _)| id.to_string())
            .collect()
    }

    fn range(letter: char, to: u32) -> impl Iterator<Item = String> {
        (1..=to).map(move |n| format!("{letter}{n}"))
    }

    /// Every standalone rule id written in `text` (`R16`, not `B3R` or
    /// `N1x`).
    fn cited(text: &str) -> BTreeSet<String> {
        text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| is_rule_id(w))
            .map(str::to_string)
            .collect()
    }

    /// The text of every Rust file under `dir` but this one (whose ids are
    /// examples).
    fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs")
                && !path.ends_with(file!().rsplit('/').next().unwrap_or_default())
            {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path.display().to_string(), text));
            }
        }
    }

    #[test]
    fn the_rules_are_plain_text_of_mail_width() {
        for (name, text) in [("squares", CIVIL_WAR), ("napoleonic", NAPOLEONIC)] {
            for (n, line) in text.lines().enumerate() {
                assert!(line.is_ascii(), "{name}.md:{}: not ASCII: {line}", n + 1);
                assert!(
                    line.len() <= MAIL_WIDTH,
                    "{name}.md:{}: {} columns: {line}",
                    n + 1,
                    line.len()
                );
                assert!(!line.contains('\t'), "{name}.md:{}: a tab", n + 1);
            }
        }
    }

    #[test]
    fn every_ruling_and_reading_has_one_line_in_order() {
        let squares: Vec<String> = range('R', 28).chain(range('S', 8)).collect();
        let napoleonic: Vec<String> = squares.iter().cloned().chain(range('N', 38)).collect();
        for (name, text, expected) in [
            ("squares", CIVIL_WAR, squares),
            ("napoleonic", NAPOLEONIC, napoleonic),
        ] {
            let listed: Vec<&str> = rule_ids(text).iter().map(|(id, _)| *id).collect();
            assert_eq!(listed, expected, "the rule ids of {name}.md");
            for (id, line) in rule_ids(text) {
                let words = line.split_whitespace().count();
                assert!(words >= 5, "{name}.md explains {id} too briefly: {line}");
            }
        }
    }

    /// A refusal cites an id through a `RuleId`, the texts of the refusals,
    /// the reader's problems or the choices; whatever the path, the id is
    /// written somewhere in the game's code. So every id written there, in
    /// any file of `src/games`, must have its line: the R and S ids in both
    /// games' rules, the N ids in the variant's.
    #[test]
    fn every_id_the_code_can_cite_has_a_line() {
        let mut files = Vec::new();
        sources(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games"),
            &mut files,
        );
        assert!(files.iter().any(|(p, _)| p.ends_with("refusal.rs")));
        let (squares, napoleonic) = (ids(CIVIL_WAR), ids(NAPOLEONIC));
        let mut seen = BTreeSet::new();
        for (path, text) in &files {
            for id in cited(text) {
                let games: &[(&str, &BTreeSet<String>)] = if id.starts_with('N') {
                    &[("napoleonic", &napoleonic)]
                } else {
                    &[("squares", &squares), ("napoleonic", &napoleonic)]
                };
                for (name, explained) in games {
                    assert!(
                        explained.contains(&id),
                        "{path} names {id}, which docs/rules/{name}.md does not explain"
                    );
                }
                seen.insert(id);
            }
        }
        // The scan does see what the refusals cite.
        for id in ["R2", "R7", "R16", "R27", "N7", "N19", "S4"] {
            assert!(seen.contains(id), "{id} not found in src/games");
        }
    }

    #[test]
    fn ids_are_told_from_square_codes() {
        assert_eq!(
            cited("\"B3R R16, N1x (N12) S2; G1CR N5\" RuleId(\"R9\")"),
            ["N12", "N5", "R16", "R9", "S2"]
                .map(String::from)
                .into_iter()
                .collect()
        );
    }
}
