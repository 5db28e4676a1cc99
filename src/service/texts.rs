//! Every sentence a player reads comes from `templates/` (minijinja); this
//! module loads them, built into the binary so that a service started
//! anywhere reads the same words: whole mails and sections (`reply.txt`,
//! `update.txt`, ...) by [`render`], and the sentences the service puts
//! into them (an answer to a line, a refusal, a notice, a subject) from the
//! catalogue `templates/sentences.toml` by [`say`]. Code decides what
//! happened; the catalogue words it.

use std::sync::LazyLock;

use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use serde::Serialize;

/// The templates, by name.
const TEMPLATES: &[(&str, &str)] = &[
    ("reply", include_str!("../../templates/reply.txt")),
    ("update", include_str!("../../templates/update.txt")),
    ("watching", include_str!("../../templates/watching.txt")),
    ("daily", include_str!("../../templates/daily.txt")),
    ("invitation", include_str!("../../templates/invitation.txt")),
    ("help", include_str!("../../templates/help.txt")),
    ("intruder", include_str!("../../templates/intruder.txt")),
    ("games", include_str!("../../templates/games.txt")),
    (
        "undeliverable",
        include_str!("../../templates/undeliverable.txt"),
    ),
    ("reminder", include_str!("../../templates/reminder.txt")),
    ("late", include_str!("../../templates/late.txt")),
    ("timeout", include_str!("../../templates/timeout.txt")),
    ("too_large", include_str!("../../templates/too_large.txt")),
    ("unread", include_str!("../../templates/unread.txt")),
];

static ENV: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    // Plain-text templates: a block tag's own line leaves no blank line.
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    for (name, source) in TEMPLATES {
        env.add_template(name, source)
            .unwrap_or_else(|e| panic!("template {name} does not compile: {e}"));
    }
    env
});

/// Renders a template with `context`. The templates are part of the
/// program and tested, so a failure is a bug, reported in the text itself
/// rather than losing the mail.
pub fn render<S: Serialize>(name: &str, context: S) -> String {
    match ENV.get_template(name).and_then(|t| t.render(context)) {
        Ok(text) => text,
        Err(e) => {
            tracing::error!(template = name, error = %e, "template failed");
            format!("(orderly could not word this part: {e})\n")
        }
    }
}

/// The catalogue of sentences: TOML tables of minijinja templates, each
/// named `<table>.<key>` (`orders.not_your_turn`).
const SENTENCES: &str = include_str!("../../templates/sentences.toml");

/// The catalogue's entries, by name, as written.
fn sentences() -> Vec<(String, String)> {
    let tables: toml::Table = toml::from_str(SENTENCES)
        .unwrap_or_else(|e| panic!("templates/sentences.toml does not read: {e}"));
    let mut out = Vec::new();
    for (table, entries) in tables {
        let Some(entries) = entries.as_table() else {
            panic!("templates/sentences.toml: {table} is not a table");
        };
        for (key, text) in entries {
            let Some(text) = text.as_str() else {
                panic!("templates/sentences.toml: {table}.{key} is not a string");
            };
            out.push((format!("{table}.{key}"), text.to_string()));
        }
    }
    out
}

static SAY: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    // A sentence is exactly what its entry says, and every value it names
    // must be given (a misspelt name is an error, not an empty word).
    env.set_keep_trailing_newline(true);
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|_| AutoEscape::None);
    // `{{ word | quoted }}`: a word as the player wrote it, in quotes, its
    // control characters escaped (no line of theirs is taken verbatim).
    env.add_filter("quoted", |text: String| format!("{text:?}"));
    for (name, source) in sentences() {
        env.add_template_owned(name.clone(), source)
            .unwrap_or_else(|e| panic!("sentence {name} does not compile: {e}"));
    }
    env
});

/// The catalogue's sentence `key` (`orders.not_your_turn`) with
/// `context`. As with [`render`], a failure is a bug, reported in the
/// text itself rather than losing the mail.
pub fn say<S: Serialize>(key: &str, context: S) -> String {
    match SAY.get_template(key).and_then(|t| t.render(context)) {
        Ok(text) => text,
        Err(e) => {
            tracing::error!(sentence = key, error = %e, "sentence failed");
            format!("(orderly could not word this part: {e})")
        }
    }
}

/// Wraps text at 76 columns (design: mail lines at most 76): an indented
/// line, an item of a list, hangs its continuation under it; prose
/// continues flush.
pub fn wrap(text: &str) -> String {
    crate::games::text::wrap(text, |indent| if indent > 0 { indent + 2 } else { 0 })
}

/// Ends a sentence with a full stop unless it has its own mark.
pub(crate) fn sentence(text: &str) -> String {
    if text.ends_with(['.', '?', '!']) {
        text.to_string()
    } else {
        format!("{text}.")
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::sync::Arc;

    use minijinja::value::{Enumerator, Object, ObjectRepr, Value};

    use super::{render, sentences, wrap, SAY, TEMPLATES};

    #[test]
    fn every_template_compiles_and_renders() {
        for (name, _) in TEMPLATES {
            let text = render(name, minijinja::context! {});
            assert!(!text.contains("could not word"), "{name}: {text}");
        }
    }

    #[test]
    fn wrapping_keeps_76_columns() {
        let text = wrap(&format!("  {}", "word ".repeat(50)));
        assert!(text.lines().all(|l| l.len() <= 76));
        assert!(text.lines().nth(1).unwrap().starts_with("    word"));
        let prose = wrap(&"word ".repeat(50));
        assert!(prose.lines().nth(1).unwrap().starts_with("word"));
    }

    /// A value of any shape a sentence may ask of it: a word (`x`), a list
    /// of one, a record with any field, and none of them empty.
    #[derive(Debug)]
    struct Anything;

    impl Object for Anything {
        fn repr(self: &Arc<Self>) -> ObjectRepr {
            ObjectRepr::Seq
        }

        fn get_value(self: &Arc<Self>, _: &Value) -> Option<Value> {
            Some(Value::from_object(Anything))
        }

        fn enumerate(self: &Arc<Self>) -> Enumerator {
            Enumerator::Seq(1)
        }

        fn render(self: &Arc<Self>, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("x")
        }
    }

    #[test]
    fn every_sentence_renders_with_the_values_it_names() {
        for (name, _) in sentences() {
            let template = SAY
                .get_template(&name)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let values: BTreeMap<String, Value> = template
                .undeclared_variables(false)
                .into_iter()
                .map(|v| (v, Value::from_object(Anything)))
                .collect();
            let text = template
                .render(&values)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!text.is_empty(), "{name} says nothing");
        }
    }

    /// Every key the service's code says a sentence by names an entry of
    /// the catalogue, and every entry is said somewhere: a key misspelt in
    /// code, or an entry left behind, fails here rather than in a mail.
    #[test]
    fn every_sentence_said_is_in_the_catalogue_and_every_entry_is_said() {
        let names: BTreeSet<String> = sentences().into_iter().map(|(n, _)| n).collect();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/service");
        let mut said = BTreeSet::new();
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect();
        files.sort();
        assert!(files.len() > 10, "the service's files are in {dir}");
        for path in files {
            let code = std::fs::read_to_string(&path).unwrap();
            // Spelt apart, so that this test does not find itself.
            let needle = concat!("say", "(");
            for (at, _) in code.match_indices(needle) {
                if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = code[at + needle.len()..].trim_start();
                let Some(rest) = rest.strip_prefix('"') else {
                    panic!(
                        "{}: a sentence's key is written out where it is said",
                        path.display()
                    );
                };
                let key = &rest[..rest.find('"').unwrap()];
                assert!(names.contains(key), "{}: no sentence {key}", path.display());
                said.insert(key.to_string());
            }
        }
        let unsaid: Vec<_> = names.difference(&said).collect();
        assert!(unsaid.is_empty(), "sentences nobody says: {unsaid:?}");
    }

    /// The sentences whose shape is made by the template (lists, quotes,
    /// optional parts) say exactly what the code wrote before them.
    #[test]
    fn sentences_with_lists_quotes_and_optional_parts_read_as_before() {
        use super::say;
        use minijinja::context;
        assert_eq!(
            say(
                "clock.digest",
                context! { day => "2026-11-24", games => ["  game 1: a", "  game 2: b"] },
            ),
            "Your games on 2026-11-24:\n  game 1: a\n  game 2: b\n\n\
             Write SET DIGEST OFF for reminders per game instead."
        );
        assert_eq!(
            say(
                "orders.rejected",
                context! { rule => "R3", problem => "No.", suggestions => ["PASS", "MOVE X"] },
            ),
            "Refused under rule R3: No.\nNearest legal orders:\n  PASS\n  MOVE X\n\
             Nothing was changed by this line."
        );
        assert_eq!(
            say(
                "orders.rejected",
                context! { rule => None::<&str>, problem => "What?", suggestions => [""; 0] },
            ),
            "Not understood: What?\nNothing was changed by this line."
        );
        assert_eq!(
            say(
                "orders.taken",
                context! { order => "PASS", events => ["a", "b"] }
            ),
            "Taken: PASS.\n  a\n  b"
        );
        assert_eq!(
            say("keys.no_such_game", context! { game => 7 }),
            "Refused: there is no game 7. Nothing was done."
        );
        assert_eq!(
            say(
                "settings.timezone_unknown",
                context! { zone => "Mars/\"Base\"\n" }
            ),
            "Refused: \"Mars/\\\"Base\\\"\\n\" is not a time zone; write one of the IANA \
             names, such as Europe/Paris, America/New_York or UTC."
        );
        assert_eq!(
            say(
                "update.result",
                context! { winner => None::<&str>, ended => "" }
            ),
            "a draw ()"
        );
        assert_eq!(
            say(
                "inform.rules_asking",
                context! { games => ["SQUARES", "NAPOLEONIC"] }
            ),
            "HELP RULES SQUARES or HELP RULES NAPOLEONIC"
        );
        assert_eq!(
            say(
                "moderator.needs_side_of",
                context! { sides => ["BLUE", "GRAY"] }
            ),
            "BLUE or GRAY is needed"
        );
        assert_eq!(
            say("settings.reminders", context! { on => false }),
            "Reminders are off for all your games."
        );
        assert_eq!(say("mail.nothing", ()), "(nothing)");
    }
}
