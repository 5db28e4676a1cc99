//! What happened when an order was applied, as data. `Display` words it
//! for everybody: a card drawn says who drew, never which card (11: hands
//! are hidden); the card's number is in the data for its owner's words.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::formation::Formation;
use super::hex::Hex;
use super::state::{CheckKind, Ending};
use crate::games::brothers_at_war::scenario::model::Side;

/// The result of a fate check (2.33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    /// 1-3: the brigade breaks.
    Break,
    /// 4-5: it stays exhausted.
    Exhausted,
    /// 6 or more: it regroups.
    Regroup,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A turn began (2.1).
    TurnBegins(u8),
    /// A marker was drawn from the cup and placed on the track (2.21):
    /// the brigade's id, or `countdown`.
    MarkerPlaced {
        /// What it is.
        marker: String,
        /// Its space, from START = 1.
        space: u8,
    },
    /// A track symbol put a countdown marker in the cup (3.14 a).
    CountdownAdded,
    /// A track symbol has both players draw a card (3.14 b).
    BothDraw,
    /// A side drew a battle card (11.2).
    CardDrawn {
        /// Who.
        side: Side,
        /// The card: for its owner's eyes.
        card: u8,
    },
    /// A side discarded a card, face up (11.2).
    Discarded {
        /// Who.
        side: Side,
        /// The card.
        card: u8,
    },
    /// A group left where it may not end its activation goes back to the
    /// last hex of its move where it could (5.32, B138).
    SentBack {
        /// The units.
        units: Vec<String>,
        /// Where it stood.
        from: Hex,
        /// Where it ends.
        to: Hex,
    },
    /// A side played a battle card, face up (11.0, B2).
    CardPlayed {
        /// Who.
        side: Side,
        /// The card.
        card: u8,
        /// Its title.
        name: String,
        /// What it was played on, as the order named it.
        on: Option<String>,
    },
    /// A card that acts when drawn sent the discard pile back into the
    /// deck (11.3 on 45, B129): its drawer is told which card, the other
    /// player what it did (B2).
    DeckReshuffled {
        /// Who drew it.
        side: Side,
        /// The card.
        card: u8,
        /// Its title.
        name: String,
    },
    /// A card's effect on units or a brigade, in words (B125).
    CardEffect {
        /// The card.
        card: u8,
        /// What it did.
        what: String,
    },
    /// A commander sent off the map by a card came back (B125, B133).
    CommanderBack {
        /// The brigade.
        brigade: String,
        /// Where he stands now (none: no hex he may stand on).
        to: Option<Hex>,
    },
    /// A rally or command check (3.211, 4.31).
    Checked {
        /// Which check.
        kind: CheckKind,
        /// The units.
        units: Vec<String>,
        /// The die.
        die: u8,
        /// Added to it.
        bonus: u8,
        /// Whether it succeeded.
        success: bool,
    },
    /// A brigade's fate check (2.33).
    FateChecked {
        /// The brigade.
        brigade: String,
        /// The die.
        die: u8,
        /// Added to it.
        bonus: u8,
        /// The result.
        fate: Fate,
    },
    /// An exhausted brigade, its units Disrupted, moves after its fate
    /// check (2.33 b, `FATE ... MOVE`, B111).
    FateMove {
        /// The brigade.
        brigade: String,
    },
    /// A brigade activates (2.22); `free` for a free activation (2.321).
    Activates {
        /// The brigade.
        brigade: String,
        /// A free activation.
        free: bool,
    },
    /// Units moved one hex (5.21); `from` none when entering the map;
    /// `cost` 0 for an assault's attacker entering the hex it took (7.12,
    /// 7.3), its step paid with the assault.
    Moved {
        /// The units.
        units: Vec<String>,
        /// From.
        from: Option<Hex>,
        /// To.
        to: Hex,
        /// Movement points paid.
        cost: u8,
    },
    /// Units left the map by an exit (5.214).
    Exited {
        /// The units.
        units: Vec<String>,
        /// The exit hex.
        from: Hex,
    },
    /// A unit changed formation (5.22).
    Formed {
        /// The unit.
        unit: String,
        /// Its new formation.
        formation: Formation,
    },
    /// A unit became Disrupted; `why` cites the rule.
    Disrupted {
        /// The unit.
        unit: String,
        /// The rule.
        why: String,
    },
    /// Formed infantry became unformed (5.31, 5.34).
    Unformed {
        /// The unit.
        unit: String,
    },
    /// Units ended their activation; `finished` false after hold fire (5.25).
    Ended {
        /// The units.
        units: Vec<String>,
        /// Marked Finished.
        finished: bool,
    },
    /// A skirmisher deployed (9.13).
    Deployed {
        /// The skirmisher.
        skirmisher: String,
        /// Where.
        at: Hex,
    },
    /// A skirmisher disbanded to its display (9.14).
    Disbanded {
        /// The skirmisher.
        skirmisher: String,
    },
    /// `END UNITS` came when the brigade's units were done already: it
    /// asks for what is so, and its commander's move is next (3.22, 3.23).
    UnitsDone {
        /// The brigade.
        brigade: String,
    },
    /// A brigade passed (3.221).
    Passed {
        /// The brigade.
        brigade: String,
    },
    /// A commander moved, or stayed (`to` none) (3.23).
    CommanderMoved {
        /// The brigade.
        brigade: String,
        /// Where.
        to: Option<Hex>,
    },
    /// A lone commander next to an enemy was displaced (4.12); `to` none
    /// when no hex could take him (he leaves the map until placed).
    Displaced {
        /// The brigade.
        brigade: String,
        /// Where.
        to: Option<Hex>,
    },
    /// A brigade's markers go to the track: committed next turn (3.15, 3.151).
    Committed {
        /// The brigade.
        brigade: String,
    },
    /// A brigade recovered a spent reserve (8.13).
    ReserveRecovered {
        /// The brigade.
        brigade: String,
    },
    /// A disbanded skirmisher waiting on its brigade's display was
    /// eliminated (a casualty, 8.2) to recover one reserve (8.133, 9.17):
    /// by its owner's `ELIMINATE` (B146), or by his `RESERVES` instruction
    /// when a killing hit found no reserve left (B104), the reserve then
    /// spent at once on that hit.
    SkirmisherGivenUp {
        /// The skirmisher.
        unit: String,
        /// Its brigade.
        brigade: String,
        /// The unit whose killing hit the reserve is bought back for, when
        /// `RESERVES` gave it up (B104).
        saving: Option<String>,
    },
    /// A target was not asked whether it retreats for a save, though its
    /// owner's `RETREAT` says `ASK` (B7): it may not retreat.
    NoRetreat {
        /// The units of the target hex.
        units: Vec<String>,
        /// Why, with its rule.
        why: String,
    },
    /// A brigade broke (8.3, 2.33).
    Broken {
        /// The brigade.
        brigade: String,
    },
    /// A generic remnant was placed (2.33 a).
    RemnantPlaced {
        /// Its name.
        unit: String,
        /// Where.
        at: Hex,
    },
    /// Its owner took a remnant off the map (B116).
    RemnantRemoved {
        /// Its name.
        unit: String,
    },
    /// A side took control of a key hex (2.41).
    Control {
        /// The hex.
        hex: Hex,
        /// The side.
        side: Side,
    },
    /// The activation phase ended (2.23).
    ActivationPhaseEnds,
    /// The battle ended (2.4).
    Over(Ending),
    /// Fire, its reactions and results (6.0-8.3).
    Combat(super::combat::CombatEvent),
}

fn list(units: &[String]) -> String {
    units.join(" and ")
}

/// The verb agreeing with `units`: one unit `enters`, two `enter`.
fn verb<'a>(units: &[String], one: &'a str, many: &'a str) -> &'a str {
    if units.len() == 1 {
        one
    } else {
        many
    }
}

/// Numbers in words: `3`, `3 and 7`, `3, 7 and 9`.
pub fn number_list(numbers: &[u8]) -> String {
    let words: Vec<String> = numbers.iter().map(u8::to_string).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// A number and its noun, agreeing: `1 hit`, `2 hits`, `1 die`, `0 dice`.
pub fn count<T: fmt::Display + PartialEq + From<u8>>(n: T, one: &str, many: &str) -> String {
    let noun = if n == T::from(1) { one } else { many };
    format!("{n} {noun}")
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::TurnBegins(t) => write!(f, "turn {t} begins"),
            Event::MarkerPlaced { marker, space } => {
                write!(f, "{marker} marker drawn, placed on space {space}")
            }
            Event::CountdownAdded => f.write_str("a countdown marker goes into the cup"),
            Event::BothDraw => f.write_str("both players draw a card"),
            Event::CardDrawn { side, .. } => write!(f, "{} draws a card", side.code()),
            Event::Discarded { side, card } => write!(f, "{} discards card {card}", side.code()),
            Event::CardPlayed {
                side,
                card,
                name,
                on,
            } => match on {
                Some(x) => write!(f, "{} plays card {card} ({name}) on {x}", side.code()),
                None => write!(f, "{} plays card {card} ({name})", side.code()),
            },
            Event::DeckReshuffled { side, card, name } => write!(
                f,
                "{} draws card {card} ({name}): the discards go back into the deck and {} draws again",
                side.code(),
                side.code()
            ),
            Event::CardEffect { card, what } => write!(f, "card {card}: {what}"),
            Event::SentBack { units, from, to } => write!(
                f,
                "{} may not end in {from} (5.32): back to {to}",
                list(units)
            ),
            Event::CommanderBack { brigade, to } => match to {
                Some(h) => write!(f, "{brigade} commander returns at {h}"),
                None => write!(f, "{brigade} commander finds no hex to return to"),
            },
            Event::Checked {
                kind,
                units,
                die,
                bonus,
                success,
            } => write!(
                f,
                "{} {} check: {die}{}, {} - {}",
                list(units),
                match kind {
                    CheckKind::Rally => "rally",
                    CheckKind::Command => "command",
                    CheckKind::Fate => "fate",
                    CheckKind::Exhaustion(_) => "exhaustion",
                    CheckKind::Regroup => "regroup",
                },
                if *bonus > 0 {
                    format!("+{bonus} = {}", die.saturating_add(*bonus))
                } else {
                    String::new()
                },
                needed(*kind),
                if *success { "passed" } else { "failed" }
            ),
            Event::FateChecked {
                brigade,
                die,
                bonus,
                fate,
            } => write!(
                f,
                "{brigade} fate check: {die}{}, 1-3 breaks, 4-5 stays exhausted, 6 or more \
                 regroups (2.33) - {}",
                if *bonus > 0 {
                    format!("+{bonus} = {}", die.saturating_add(*bonus))
                } else {
                    String::new()
                },
                match fate {
                    Fate::Break => "breaks",
                    Fate::Exhausted => "remains exhausted",
                    Fate::Regroup => "regroups",
                }
            ),
            Event::FateMove { brigade } => write!(
                f,
                "{brigade} moves after its fate check: its units Disrupted, move actions only, \
                 no opportunity fire at them (2.33 b)"
            ),
            Event::Activates { brigade, free } => {
                write!(
                    f,
                    "{brigade} activates{}",
                    if *free { " (free)" } else { "" }
                )
            }
            Event::Moved {
                units,
                from,
                to,
                cost,
            } => match from {
                // An assault's winner, or the attacker the defender evaded,
                // enters: the step was paid with the assault (7.12, 7.3).
                Some(from) if *cost == 0 => write!(
                    f,
                    "{} {} {to} from {from}",
                    list(units),
                    verb(units, "enters", "enter")
                ),
                Some(from) => write!(f, "{} {from}-{to} ({cost} MP)", list(units)),
                None => write!(f, "{} enters at {to} ({cost} MP)", list(units)),
            },
            Event::Exited { units, from } => write!(
                f,
                "{} {} the map at {from}",
                list(units),
                verb(units, "leaves", "leave")
            ),
            Event::Formed { unit, formation } => write!(f, "{unit} now {formation:?}"),
            Event::Disrupted { unit, why } => write!(f, "{unit} Disrupted ({why})"),
            Event::Unformed { unit } => write!(f, "{unit} unformed"),
            Event::Ended { units, finished } => write!(
                f,
                "{} {}",
                list(units),
                if *finished { "Finished" } else { "holds fire" }
            ),
            Event::Deployed { skirmisher, at } => write!(f, "{skirmisher} deploys at {at}"),
            Event::Disbanded { skirmisher } => write!(f, "{skirmisher} disbands"),
            Event::UnitsDone { brigade } => write!(
                f,
                "the {brigade} units have ended already: the commander's move is next (3.23)"
            ),
            Event::Passed { brigade } => write!(f, "{brigade} passes"),
            Event::CommanderMoved { brigade, to } => match to {
                Some(h) => write!(f, "{brigade} commander to {h}"),
                None => write!(f, "{brigade} commander stays"),
            },
            Event::Displaced { brigade, to } => match to {
                Some(h) => write!(f, "{brigade} commander displaced to {h}"),
                None => write!(f, "{brigade} commander displaced off the map"),
            },
            Event::Committed { brigade } => write!(f, "{brigade} committed"),
            Event::ReserveRecovered { brigade } => write!(f, "{brigade} recovers a reserve"),
            Event::SkirmisherGivenUp {
                unit,
                brigade,
                saving: Some(saved),
            } => write!(
                f,
                "{brigade} has no reserve left to save {saved}: {unit}, disbanded on its display, \
                 is given up to buy one back: it becomes a casualty (one more on the display) \
                 and the reserve it recovers is spent at once (RESERVES; 8.133, B104)"
            ),
            Event::SkirmisherGivenUp {
                unit,
                brigade,
                saving: None,
            } => write!(
                f,
                "{unit}, disbanded on its display, is given up: it becomes a casualty (one \
                 more on {brigade}'s display, 8.2) and {brigade} recovers a reserve (8.133, B146)"
            ),
            Event::NoRetreat { units, why } => write!(
                f,
                "{} {} not asked to retreat for a save: {why}",
                list(units),
                verb(units, "is", "are")
            ),
            Event::Broken { brigade } => write!(f, "{brigade} breaks"),
            Event::RemnantPlaced { unit, at } => write!(f, "remnant {unit} at {at}"),
            Event::RemnantRemoved { unit } => {
                write!(f, "remnant {unit} is taken off the map by its owner (B116)")
            }
            Event::Control { hex, side } => write!(f, "{} controls {hex}", side.code()),
            Event::ActivationPhaseEnds => f.write_str("the activation phase ends"),
            Event::Over(e) => write!(f, "the battle is over: {e:?}"),
            Event::Combat(e) => write!(f, "{e}"),
        }
    }
}

/// What a check needs to pass, with its rule: 5 or more for a rally or a
/// command check (1.73), 6 or more for a card's regroup check (2.33 c),
/// more than the card's number for an exhaustion check it forces (8.111,
/// B125); a fate check's bands are told apart.
fn needed(kind: CheckKind) -> String {
    match kind {
        CheckKind::Rally | CheckKind::Command => "needs 5 or more (1.73)".to_string(),
        CheckKind::Regroup => "needs 6 or more to regroup (2.33 c)".to_string(),
        CheckKind::Exhaustion(n) => format!("{} or less exhausts the brigade (8.111)", n.max(1)),
        CheckKind::Fate => "1-3 breaks, 4-5 stays exhausted, 6 or more regroups (2.33)".to_string(),
    }
}
