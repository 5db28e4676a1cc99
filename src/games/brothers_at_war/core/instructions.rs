//! Standing instructions (B5): the settings that answer reactions, kept
//! per brigade and per side, and their words in orders.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::ids::BrigadeId;
use super::order::OpFireRule;
use crate::games::brothers_at_war::scenario::model::Side;

/// When a targeted unit retreats for a save (6.7, B5, B95).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RetreatRule {
    /// Never.
    Never,
    /// When the hits scored would kill a unit of the hex (B95).
    IfKilled,
    /// Whenever it may (B90).
    Always,
    /// Ask the owner (B7).
    Ask,
}

/// Whether reserves cancel killing hits (8.11, B5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReservesRule {
    /// Spend while any is left.
    Spend,
    /// Spend, but never the one that would exhaust the brigade.
    KeepLast,
    /// Never spend.
    Keep,
    /// Ask the owner (B7).
    Ask,
}

/// Which unit of a Disrupted stack dies (6.54, B83).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LossesRule {
    /// The lower firepower.
    Weakest,
    /// The higher firepower.
    Strongest,
    /// Ask the owner (B7).
    Ask,
}

/// How retreat paths are chosen (B92).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PathsRule {
    /// By B92's order of preference.
    Auto,
    /// Ask the owner (B7).
    Ask,
}

/// Whether cards answering the enemy's moments are played (B137).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardsRule {
    /// Never: cards wait in the hand.
    Never,
    /// Play the first card of the hand that fits a window as it opens.
    Auto,
    /// Ask which card, if any, each time a window opens with a card of
    /// the hand that can act there (B148).
    Ask,
}

/// What a unit that fails its rally check keeps (3.211, B43).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RallyFailRule {
    /// The marker turns to its Finished side: Undisrupted, but Finished.
    Finish,
    /// The unit stays Disrupted.
    Stay,
}

/// What an exhausted brigade does on a fate check of 4-5 (2.33 b, B111).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FateRule {
    /// It recovers (3.21).
    Recover,
    /// It disrupts its Undisrupted units and moves them (and its
    /// commander) at once.
    Move,
}

/// How a side discards down to its hand size at the discard step (2.31,
/// B121).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiscardRule {
    /// Cards of no effect first, then those held longest (B121).
    Auto,
    /// Ask the owner (B7).
    Ask,
}

/// One standing instruction (B5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Setting {
    /// Opportunity fire (6.12).
    OpFire(OpFireRule),
    /// Point blank fire (6.15).
    PointBlank(OpFireRule),
    /// Retreat for a save (6.7); `true` asks for a long retreat (6.72).
    Retreat(RetreatRule, bool),
    /// Retreat before an assault (7.3): `OpFireRule::Always` evades.
    Evade(OpFireRule, bool),
    /// Spending reserves (8.11).
    Reserves(ReservesRule),
    /// Losses in a stack (6.54).
    Losses(LossesRule),
    /// Retreat paths (B92).
    Paths(PathsRule),
    /// Cards played in the enemy's moments (B137).
    Cards(CardsRule),
    /// A failed rally (3.211, B43).
    RallyFail(RallyFailRule),
    /// An exhausted brigade's fate check of 4-5 (2.33 b, B111).
    Fate(FateRule),
    /// The discard step (2.31, B121): for a side only.
    Discard(DiscardRule),
}

impl Setting {
    /// The setting's word in orders.
    pub fn word(self) -> &'static str {
        match self {
            Setting::OpFire(_) => "OPFIRE",
            Setting::PointBlank(_) => "POINTBLANK",
            Setting::Retreat(..) => "RETREAT",
            Setting::Evade(..) => "EVADE",
            Setting::Reserves(_) => "RESERVES",
            Setting::Losses(_) => "LOSSES",
            Setting::Paths(_) => "PATHS",
            Setting::Cards(_) => "CARDS",
            Setting::RallyFail(_) => "RALLYFAIL",
            Setting::Fate(_) => "FATE",
            Setting::Discard(_) => "DISCARD",
        }
    }

    fn slot(self) -> usize {
        match self {
            Setting::OpFire(_) => 0,
            Setting::PointBlank(_) => 1,
            Setting::Retreat(..) => 2,
            Setting::Evade(..) => 3,
            Setting::Reserves(_) => 4,
            Setting::Losses(_) => 5,
            Setting::Paths(_) => 6,
            Setting::Cards(_) => 7,
            Setting::RallyFail(_) => 8,
            Setting::Fate(_) => 9,
            Setting::Discard(_) => 10,
        }
    }

    /// The value while a player has set none (B5's table).
    pub const DEFAULTS: [Setting; 11] = [
        Setting::OpFire(OpFireRule::Always),
        Setting::PointBlank(OpFireRule::Always),
        Setting::Retreat(RetreatRule::IfKilled, false),
        Setting::Evade(OpFireRule::Never, false),
        Setting::Reserves(ReservesRule::Spend),
        Setting::Losses(LossesRule::Weakest),
        Setting::Paths(PathsRule::Auto),
        Setting::Cards(CardsRule::Never),
        Setting::RallyFail(RallyFailRule::Finish),
        Setting::Fate(FateRule::Recover),
        Setting::Discard(DiscardRule::Auto),
    ];
}

/// Whom an instruction is for: a brigade, or all of a side's brigades
/// (B5; remnants follow the side's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scope {
    /// Every brigade of the side without its own.
    All(Side),
    /// One brigade.
    Brigade(BrigadeId),
}

/// The standing instructions of both players (B5), shown to both (B14).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instructions {
    /// Every instruction given, the latest for each scope and setting.
    pub given: Vec<(Scope, Setting)>,
}

/// The most instructions kept: every setting for every brigade and both
/// sides fit well within it.
pub const MAX_INSTRUCTIONS: usize = 11 * 260;

impl Instructions {
    /// Whether none was given (the position then leaves them out).
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
    }

    /// Records an instruction, replacing the one it changes (B8).
    pub fn set(&mut self, scope: Scope, setting: Setting) {
        self.given
            .retain(|(s, x)| !(*s == scope && x.slot() == setting.slot()));
        if self.given.len() < MAX_INSTRUCTIONS {
            self.given.push((scope, setting));
        }
    }

    /// The setting that holds for a brigade of `side` (none for remnants):
    /// its own, else the side's, else the default (B6).
    pub fn get(&self, side: Side, brigade: Option<BrigadeId>, like: Setting) -> Setting {
        let find = |scope: Scope| {
            self.given
                .iter()
                .find(|(s, x)| *s == scope && x.slot() == like.slot())
                .map(|(_, x)| *x)
        };
        brigade
            .and_then(|b| find(Scope::Brigade(b)))
            .or_else(|| find(Scope::All(side)))
            .unwrap_or(Setting::DEFAULTS[like.slot()])
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let long = |l: bool| if l { " LONG" } else { "" };
        match self {
            Setting::OpFire(r) | Setting::PointBlank(r) => write!(f, "{r}"),
            Setting::Retreat(r, l) => write!(
                f,
                "{}{}",
                match r {
                    RetreatRule::Never => "NEVER",
                    RetreatRule::IfKilled => "IFKILLED",
                    RetreatRule::Always => "ALWAYS",
                    RetreatRule::Ask => "ASK",
                },
                long(*l)
            ),
            Setting::Evade(r, l) => write!(f, "{r}{}", long(*l)),
            Setting::Reserves(r) => f.write_str(match r {
                ReservesRule::Spend => "SPEND",
                ReservesRule::KeepLast => "KEEPLAST",
                ReservesRule::Keep => "KEEP",
                ReservesRule::Ask => "ASK",
            }),
            Setting::Losses(r) => f.write_str(match r {
                LossesRule::Weakest => "WEAKEST",
                LossesRule::Strongest => "STRONGEST",
                LossesRule::Ask => "ASK",
            }),
            Setting::Paths(r) => f.write_str(match r {
                PathsRule::Auto => "AUTO",
                PathsRule::Ask => "ASK",
            }),
            Setting::RallyFail(r) => f.write_str(match r {
                RallyFailRule::Finish => "FINISH",
                RallyFailRule::Stay => "STAY",
            }),
            Setting::Cards(r) => f.write_str(match r {
                CardsRule::Never => "NEVER",
                CardsRule::Auto => "AUTO",
                CardsRule::Ask => "ASK",
            }),
            Setting::Fate(r) => f.write_str(match r {
                FateRule::Recover => "RECOVER",
                FateRule::Move => "MOVE",
            }),
            Setting::Discard(r) => f.write_str(match r {
                DiscardRule::Auto => "AUTO",
                DiscardRule::Ask => "ASK",
            }),
        }
    }
}

/// The words that start a standing instruction (B5).
pub const SETTING_WORDS: [&str; 11] = [
    "OPFIRE",
    "POINTBLANK",
    "RETREAT",
    "EVADE",
    "RESERVES",
    "LOSSES",
    "PATHS",
    "CARDS",
    "RALLYFAIL",
    "FATE",
    "DISCARD",
];

/// Reads a setting's values after its word (upper case), or `None`.
pub fn parse_setting(word: &str, values: &[&str]) -> Option<Setting> {
    let fire = |v: &str| match v {
        "ALWAYS" => Some(OpFireRule::Always),
        "NEVER" => Some(OpFireRule::Never),
        "ASK" => Some(OpFireRule::Ask),
        _ => None,
    };
    let long = |rest: &[&str]| match rest {
        [] => Some(false),
        ["LONG"] => Some(true),
        _ => None,
    };
    let (&first, rest) = values.split_first()?;
    let single = rest.is_empty();
    Some(match word {
        "OPFIRE" if single => Setting::OpFire(fire(first)?),
        "POINTBLANK" if single => Setting::PointBlank(fire(first)?),
        "EVADE" => Setting::Evade(fire(first)?, long(rest)?),
        "RETREAT" => Setting::Retreat(
            match first {
                "NEVER" => RetreatRule::Never,
                "IFKILLED" => RetreatRule::IfKilled,
                "ALWAYS" => RetreatRule::Always,
                "ASK" => RetreatRule::Ask,
                _ => return None,
            },
            long(rest)?,
        ),
        "RESERVES" if single => Setting::Reserves(match first {
            "SPEND" => ReservesRule::Spend,
            "KEEPLAST" => ReservesRule::KeepLast,
            "KEEP" => ReservesRule::Keep,
            "ASK" => ReservesRule::Ask,
            _ => return None,
        }),
        "LOSSES" if single => Setting::Losses(match first {
            "WEAKEST" => LossesRule::Weakest,
            "STRONGEST" => LossesRule::Strongest,
            "ASK" => LossesRule::Ask,
            _ => return None,
        }),
        "PATHS" if single => Setting::Paths(match first {
            "AUTO" => PathsRule::Auto,
            "ASK" => PathsRule::Ask,
            _ => return None,
        }),
        "RALLYFAIL" if single => Setting::RallyFail(match first {
            "FINISH" => RallyFailRule::Finish,
            "STAY" => RallyFailRule::Stay,
            _ => return None,
        }),
        "CARDS" if single => Setting::Cards(match first {
            "AUTO" => CardsRule::Auto,
            "NEVER" => CardsRule::Never,
            "ASK" => CardsRule::Ask,
            _ => return None,
        }),
        "FATE" if single => Setting::Fate(match first {
            "RECOVER" => FateRule::Recover,
            "MOVE" => FateRule::Move,
            _ => return None,
        }),
        "DISCARD" if single => Setting::Discard(match first {
            "AUTO" => DiscardRule::Auto,
            "ASK" => DiscardRule::Ask,
            _ => return None,
        }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brigade_setting_beats_the_side_setting_which_beats_the_default() {
        let mut i = Instructions::default();
        let like = Setting::Reserves(ReservesRule::Ask);
        let b = BrigadeId(1);
        assert_eq!(
            i.get(Side::Union, Some(b), like),
            Setting::Reserves(ReservesRule::Spend)
        );
        i.set(
            Scope::All(Side::Union),
            Setting::Reserves(ReservesRule::Keep),
        );
        assert_eq!(
            i.get(Side::Union, Some(b), like),
            Setting::Reserves(ReservesRule::Keep)
        );
        assert_eq!(
            i.get(Side::Confederacy, None, like),
            Setting::Reserves(ReservesRule::Spend)
        );
        i.set(Scope::Brigade(b), Setting::Reserves(ReservesRule::KeepLast));
        i.set(Scope::Brigade(b), Setting::Reserves(ReservesRule::Ask));
        assert_eq!(
            i.get(Side::Union, Some(b), like),
            Setting::Reserves(ReservesRule::Ask)
        );
        assert_eq!(
            i.given.len(),
            2,
            "a change replaces the instruction it changes (B8)"
        );
    }

    #[test]
    fn every_setting_reads_back_from_its_words() {
        for s in Setting::DEFAULTS.iter().chain(&[
            Setting::Retreat(RetreatRule::Always, true),
            Setting::Evade(OpFireRule::Always, true),
            Setting::Losses(LossesRule::Strongest),
            Setting::Cards(CardsRule::Auto),
            Setting::Cards(CardsRule::Ask),
            Setting::RallyFail(RallyFailRule::Stay),
        ]) {
            let text = s.to_string();
            let words: Vec<&str> = text.split(' ').collect();
            assert_eq!(parse_setting(s.word(), &words), Some(*s), "{text}");
        }
        assert_eq!(parse_setting("OPFIRE", &["LONG"]), None);
        assert_eq!(parse_setting("RESERVES", &["SPEND", "LONG"]), None);
        assert_eq!(parse_setting("RALLYFAIL", &["ASK"]), None, "not wired");
    }
}
