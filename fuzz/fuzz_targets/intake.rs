//! `cargo +nightly fuzz run intake`: any bytes as a raw mail through
//! `intake::parse` (default limits) and `parse_head`; nothing may panic and
//! what comes out must be within the limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orderly::mail::intake::{self, Incoming, Limits};

fn check(m: &Incoming, limits: &Limits) {
    let lines = m.text.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(lines <= limits.max_lines, "{lines} lines");
    for line in m.text.lines() {
        assert!(line.chars().count() <= limits.max_line_chars);
    }
    assert!(m.subject.chars().count() <= intake::MAX_SUBJECT_CHARS);
    assert!(!m.subject.chars().any(char::is_control), "{:?}", m.subject);
    assert!(m.from.is_none() || m.sender_problem.is_none());
    if let Some(from) = &m.from {
        assert!(from.address.contains('@'));
        assert!(!from
            .address
            .chars()
            .any(|c| c.is_control() || c.is_whitespace()));
        if let Some(name) = &from.name {
            assert!(!name.chars().any(char::is_control), "{name:?}");
        }
    }
    assert!(m.to.len() <= intake::MAX_RECIPIENTS && m.cc.len() <= intake::MAX_RECIPIENTS);
    assert!(m.references.len() <= intake::MAX_REFERENCES);
    for id in m
        .message_id
        .iter()
        .chain(&m.references)
        .chain(&m.in_reply_to)
    {
        assert!(!id.is_empty() && id.len() <= intake::MAX_ID_CHARS);
        assert!(
            !id.chars().any(|c| c.is_control() || c.is_whitespace()),
            "{id:?}"
        );
    }
}

fuzz_target!(|raw: &[u8]| {
    let limits = Limits::default();
    if let Ok(m) = intake::parse_with(raw, &limits) {
        check(&m, &limits);
    }
    if let Ok(m) = intake::parse_head(raw, raw.len().saturating_mul(10), &limits) {
        check(&m, &limits);
        assert!(m.text.is_empty());
    }
});
