//! The rules in the project's own words, as `HELP RULES` mails them:
//! `docs/rules/civil-war-1863.md`, built into the binary so that the page
//! and the mail are one text.

/// The Civil War Game 1863, summarised.
pub(crate) const RULES: &str = include_str!("../../../../docs/rules/civil-war-1863.md");

#[cfg(test)]
mod tests {
    use super::RULES;
    use crate::games::text::MAIL_WIDTH;

    #[test]
    fn the_rules_fit_a_mail_and_explain_every_cited_rule() {
        assert!(RULES.lines().all(|l| l.len() <= MAIL_WIDTH));
        let (_, ids) = RULES.split_once("## Rule ids").unwrap_or_default();
        let code = [
            include_str!("../engine/refusal.rs"),
            include_str!("event.rs"),
            include_str!("choices.rs"),
        ];
        for text in code {
            for (i, _) in text.match_indices("\"P") {
                let id: String = text[i + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                assert!(
                    ids.contains(&format!("- {id} ")),
                    "{id} is cited but not explained"
                );
            }
        }
    }
}
