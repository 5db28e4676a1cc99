//! The JSON export for tools: everything a replay knows, as plain data.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::games::{GameResult, Seat};

use super::replay::Replayed;
use super::{Ending, Entry};

/// The value of [`JsonRecord::format`]; it changes when the shape does.
pub const JSON_FORMAT: &str = "orderly-record 1";

/// A replayed record as JSON (`serde_json::to_string(&replayed.to_json())`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonRecord {
    /// [`JSON_FORMAT`].
    pub format: String,
    /// The game's short name (`squares`).
    pub game: String,
    /// Every tag pair as the canonical record writes it.
    pub tags: BTreeMap<String, String>,
    /// The game's name for each seat: `{"North": "Blue", "South": "Gray"}`.
    pub seats: BTreeMap<Seat, String>,
    /// The starting position string.
    pub start: String,
    /// Every order, in order.
    pub orders: Vec<JsonOrder>,
    /// The comments, each placed after the orders before it.
    pub comments: Vec<JsonComment>,
    /// The draws of chance, each placed after the orders before it, with
    /// its number and public inputs (docs/dice.md); left out for a game
    /// without chance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draws: Vec<JsonDraw>,
    /// The end marker, when the game ended outside the rules.
    pub end: Option<JsonEnd>,
    /// The result token: a seat name, `Draw`, or `*` while the game goes on.
    pub result: String,
    /// The winning seat, if any.
    pub winner: Option<Seat>,
    /// The `Termination` tag's text (`*` while the game goes on).
    pub termination: String,
    /// The final position string.
    pub position: String,
}

/// One order of a [`JsonRecord`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonOrder {
    /// Its line in the record.
    pub line: usize,
    /// The turn number when it was given.
    pub number: u32,
    /// Whether it started a turn, rather than deciding inside an action.
    pub turn_level: bool,
    /// The seat that gave it (`North`, `South`).
    pub seat: Seat,
    /// The game's name for that seat (`Blue`).
    pub side: String,
    /// The decision it answered (`turn`, `defence: retreat or stand`, ...).
    pub decision: String,
    /// The order in canonical notation.
    pub order: String,
    /// What happened, each event as the game words it.
    pub events: Vec<String>,
    /// The decisions taken by themselves after it.
    pub forced: Vec<JsonForced>,
    /// The position string after it.
    pub position: String,
}

/// A forced decision of a [`JsonOrder`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonForced {
    /// The seat it was taken for.
    pub seat: Seat,
    /// The game's name for that seat.
    pub side: String,
    /// The order taken, in canonical notation.
    pub order: String,
}

/// A draw of chance of a [`JsonRecord`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonDraw {
    /// Its line in the record.
    pub line: usize,
    /// How many orders come before it.
    pub after: usize,
    /// Its number in the game, from 1.
    pub number: u32,
    /// The order that applied its outcome, in canonical notation.
    pub order: String,
    /// Its public inputs, each 64 hex digits: `mail`, `reply`, `words`.
    pub inputs: BTreeMap<String, String>,
}

/// A comment of a [`JsonRecord`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonComment {
    /// Its (first) line in the record.
    pub line: usize,
    /// How many orders come before it.
    pub after: usize,
    /// The text, without braces.
    pub text: String,
}

/// The end marker of a [`JsonRecord`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonEnd {
    /// Its line in the record.
    pub line: usize,
    /// The turn number when it happened.
    pub number: u32,
    /// `resignation`, `draw agreed` or `adjudication`.
    pub kind: String,
    /// The seat that resigned.
    pub seat: Option<Seat>,
}

impl Replayed {
    /// The JSON export of this replay.
    pub fn to_json(&self) -> JsonRecord {
        let record = &self.record;
        let side = |seat: Seat| record.seat_name(seat).to_string();
        let mut comments = Vec::new();
        let mut draws = Vec::new();
        let mut end = None;
        let mut orders_before = 0;
        for (entry, &line) in record.entries().iter().zip(&self.entry_lines) {
            match entry {
                Entry::Order(_) => orders_before += 1,
                Entry::Draw(d) => draws.push(JsonDraw {
                    line,
                    after: orders_before,
                    number: d.inputs.number,
                    order: d.order.clone(),
                    inputs: [
                        ("mail", d.inputs.mail),
                        ("reply", d.inputs.reply),
                        ("words", d.inputs.words),
                    ]
                    .into_iter()
                    .map(|(name, digest)| (name.to_string(), digest.to_string()))
                    .collect(),
                }),
                Entry::Comment(text) => comments.push(JsonComment {
                    line,
                    after: orders_before,
                    text: text.clone(),
                }),
                Entry::End(marker) => {
                    let (kind, seat) = match marker.ending {
                        Ending::Resigned(seat) => ("resignation", Some(seat)),
                        Ending::DrawAgreed => ("draw agreed", None),
                        Ending::Adjudicated(_) => ("adjudication", None),
                    };
                    end = Some(JsonEnd {
                        line,
                        number: marker.number,
                        kind: kind.to_string(),
                        seat,
                    });
                }
            }
        }
        let orders = self
            .orders
            .iter()
            .map(|o| JsonOrder {
                line: o.line,
                number: o.number,
                turn_level: o.turn_level,
                seat: o.seat,
                side: side(o.seat),
                decision: o.kind.clone(),
                order: o.order.clone(),
                events: o.events.iter().map(|e| e.text.clone()).collect(),
                forced: o
                    .events
                    .iter()
                    .filter_map(|e| e.forced.clone())
                    .map(|(seat, order)| JsonForced {
                        seat,
                        side: side(seat),
                        order,
                    })
                    .collect(),
                position: o.position.clone(),
            })
            .collect();
        JsonRecord {
            format: JSON_FORMAT.to_string(),
            game: self.game.name().to_string(),
            tags: record.tag_pairs().into_iter().collect(),
            seats: Seat::BOTH.into_iter().map(|s| (s, side(s))).collect(),
            start: self.start.clone(),
            orders,
            comments,
            draws,
            end,
            result: record.result_token().to_string(),
            winner: match self.finish.as_ref().map(|f| f.result) {
                Some(GameResult::Win(seat)) => Some(seat),
                _ => None,
            },
            termination: record
                .termination_text(self.finish.as_ref().map(|f| f.termination.clone())),
            position: self.game.position(),
        }
    }
}
