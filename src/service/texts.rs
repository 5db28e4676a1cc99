//! Every sentence a player reads comes from `templates/` (minijinja); this
//! module loads them, built into the binary so that a service started
//! anywhere reads the same words.

use std::sync::LazyLock;

use minijinja::Environment;
use serde::Serialize;

/// The templates, by name.
const TEMPLATES: &[(&str, &str)] = &[
    ("reply", include_str!("../../templates/reply.txt")),
    ("update", include_str!("../../templates/update.txt")),
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
    use super::*;

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
}
