//! The headers lettre does not know: `Auto-Submitted` (RFC 3834) and
//! `List-Id` (RFC 2919).

use std::error::Error;

use lettre::message::header::{Header, HeaderName, HeaderValue};

use super::{AutoKind, OutgoingError};

type ParseError = Box<dyn Error + Send + Sync>;

/// `Auto-Submitted`: marks every orderly mail as automatic, so that
/// well-behaved responders do not answer it and mail loops stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AutoSubmitted(pub AutoKind);

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }

    fn parse(s: &str) -> Result<Self, ParseError> {
        // RFC 3834 allows parameters after the keyword (`; owner-email=…`).
        let keyword = s.split(';').next().unwrap_or_default().trim();
        if keyword.eq_ignore_ascii_case("auto-replied") {
            Ok(Self(AutoKind::Replied))
        } else if keyword.eq_ignore_ascii_case("auto-generated") {
            Ok(Self(AutoKind::Generated))
        } else {
            Err(format!("not an orderly Auto-Submitted value: {s:?}").into())
        }
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.as_str().to_owned())
    }
}

/// `List-Id`: an optional phrase and `<id>`, e.g.
/// `Game 42 <game-42.orderly.example.org>`, so that a player can sort each
/// game's mail into its own folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListId(String);

impl ListId {
    /// Checks that `value` ends in an `<id>` of printable ASCII; the phrase
    /// before it may be any text (lettre encodes it when not ASCII).
    pub fn new(value: &str) -> Result<Self, OutgoingError> {
        let value = value.trim();
        let id = value
            .strip_suffix('>')
            .and_then(|rest| rest.rsplit_once('<'))
            .map(|(_, id)| id);
        match id {
            Some(id) if !id.is_empty() && id.chars().all(|c| c.is_ascii_graphic() && c != '<') => {
                Ok(Self(value.to_owned()))
            }
            _ => Err(OutgoingError::ListId(value.to_owned())),
        }
    }

    /// The value as written into the header (before any RFC 2047 encoding).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Header for ListId {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Id")
    }

    fn parse(s: &str) -> Result<Self, ParseError> {
        Ok(Self::new(s)?)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}
