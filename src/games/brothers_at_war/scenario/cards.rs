//! The words a battle card entry may use for when it is played (its
//! timing window) and what it does (its effect kind), and the parameters
//! each kind takes.
//!
//! The names are those of docs/brothers-at-war-rulings.md (B122-B125 and
//! its table "Card effect kinds"), which says what each does; the engine
//! implements each kind, never a card's text. They describe the mechanics
//! of 11.3 in orderly's own terms, not the box's card texts.

use std::collections::HashSet;

use super::field::Field;
use super::findings::Findings;
use super::model::{Card, Param};

/// When a card may be played (11.11, B124), and `none` for a card that
/// never may (11.12, B123).
pub const TIMINGS: &[&str] = &[
    "any",
    "drawn",
    "own-activation",
    "enemy-activation",
    "move-commander",
    "firing",
    "targeted",
    "after-hits",
    "enemy-hit",
    "assault-dice",
    "after-roll",
    "formation",
    "retreat",
    "enemy-enters",
    "skirmisher",
    "exhausts",
    "none",
];

/// A parameter an effect kind takes, and the values it allows.
#[derive(Clone, Copy, Debug)]
pub enum ParamRule {
    /// A whole number in this range.
    Number(&'static str, i64, i64),
    /// `true` or `false`.
    Flag(&'static str),
    /// One of these words.
    Word(&'static str, &'static [&'static str]),
    /// A number in this range or one of these words (`hexes = 2` or
    /// `hexes = "long"`).
    NumberOrWord(&'static str, i64, i64, &'static [&'static str]),
}

impl ParamRule {
    /// The parameter's name.
    pub fn name(&self) -> &'static str {
        match *self {
            ParamRule::Number(n, ..)
            | ParamRule::Flag(n)
            | ParamRule::Word(n, _)
            | ParamRule::NumberOrWord(n, ..) => n,
        }
    }

    /// Whether `value` is allowed.
    fn allows(&self, value: &Param) -> bool {
        match (*self, value) {
            (ParamRule::Number(_, lo, hi), Param::Number(v))
            | (ParamRule::NumberOrWord(_, lo, hi, _), Param::Number(v)) => (lo..=hi).contains(v),
            (ParamRule::Flag(_), Param::Flag(_)) => true,
            (ParamRule::Word(_, words), Param::Word(w))
            | (ParamRule::NumberOrWord(_, _, _, words), Param::Word(w)) => {
                words.contains(&w.as_str())
            }
            _ => false,
        }
    }

    /// The allowed values, in words.
    fn expected(&self) -> String {
        match *self {
            ParamRule::Number(_, lo, hi) => format!("a number {lo} to {hi}"),
            ParamRule::Flag(_) => "true or false".into(),
            ParamRule::Word(_, words) => format!("one of {}", words.join(", ")),
            ParamRule::NumberOrWord(_, lo, hi, words) => {
                format!("a number {lo} to {hi} or {}", words.join(", "))
            }
        }
    }
}

/// One effect kind: its name, the windows it may be played in, and its
/// parameters (each optional: the engine's default applies when left
/// out).
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// The kind's name, as a card's `effect`.
    pub name: &'static str,
    /// The timing windows it may be played in.
    pub windows: &'static [&'static str],
    /// Its parameters.
    pub params: &'static [ParamRule],
}

const fn kind(
    name: &'static str,
    windows: &'static [&'static str],
    params: &'static [ParamRule],
) -> Kind {
    Kind {
        name,
        windows,
        params,
    }
}

use ParamRule::{Flag, Number, NumberOrWord, Word};

/// The effect kinds of docs/brothers-at-war-rulings.md, with their windows
/// and parameter bounds.
pub const KINDS: &[Kind] = &[
    // The attacker plays it with his assault order, in his own activation.
    kind(
        "extra-assault-dice",
        &["targeted", "own-activation"],
        &[Number("dice", 1, 3)],
    ),
    kind("point-blank-fire-any-unit", &["enemy-enters"], &[]),
    kind(
        "cancel-targeting-retreat",
        &["targeted"],
        &[NumberOrWord("hexes", 2, 2, &["long"])],
    ),
    kind("stampede-neighbour", &["retreat"], &[Number("reach", 1, 2)]),
    kind(
        "skirmisher-does-not-disband",
        &["skirmisher"],
        &[
            Flag("ignore-disband"),
            Number("max-hits", 1, 2),
            Flag("deployer-stays-ready"),
        ],
    ),
    kind(
        "extra-fire-dice-with-risk",
        &["firing"],
        &[
            Number("dice", 1, 3),
            Word("unit", &["artillery", "any"]),
            Number("risk-face", 1, 2),
            Number("max-range", 1, 30),
        ],
    ),
    kind(
        "free-formation-change",
        &["formation"],
        &[Flag("cancel-overstack")],
    ),
    kind("remove-finished", &["any"], &[]),
    kind(
        "extra-saves-after-hits",
        &["after-hits"],
        &[Number("saves", 1, 3)],
    ),
    kind(
        "ready-commander-brigade",
        &["move-commander"],
        &[Number("reach", 0, 4)],
    ),
    // The name issue 17's notes first used for ready-commander-brigade.
    kind(
        "rally-commander-brigade",
        &["move-commander"],
        &[Number("reach", 0, 4)],
    ),
    kind("rally-check", &["any"], &[Number("bonus", 0, 2)]),
    kind("cancel-retreat", &["retreat"], &[]),
    kind(
        "force-exhaustion-check",
        &["any"],
        &[Number("fails-on", 1, 5)],
    ),
    kind("fire-then-assault", &["firing"], &[]),
    kind("reroll-any-die", &["after-roll"], &[]),
    kind("cancel-activation", &["enemy-activation"], &[]),
    kind("forced-retreat", &["enemy-hit"], &[]),
    kind(
        "reroll-assault-dice",
        &["assault-dice"],
        &[Number("cost", 0, 1)],
    ),
    kind("reshuffle-on-draw", &["drawn"], &[]),
    kind("commander-off-map", &["any"], &[Number("turns", 1, 1)]),
    kind(
        "regroup-check",
        &["exhausts", "any"],
        &[Number("bonus", 0, 2)],
    ),
    kind(
        "extra-movement",
        &["own-activation"],
        &[Number("points", 1, 4)],
    ),
    kind("cancel-fire", &["targeted"], &[]),
    kind("no-fire", &["enemy-activation"], &[]),
    kind("extra-reserve", &["any"], &[Number("reserves", 1, 2)]),
    kind("no-effect", &["none"], &[]),
];

/// The effect kinds' names, as [`Words::effects`] takes them.
pub const EFFECTS: &[&str] = &[
    "extra-assault-dice",
    "point-blank-fire-any-unit",
    "cancel-targeting-retreat",
    "stampede-neighbour",
    "skirmisher-does-not-disband",
    "extra-fire-dice-with-risk",
    "free-formation-change",
    "remove-finished",
    "extra-saves-after-hits",
    "ready-commander-brigade",
    "rally-commander-brigade",
    "rally-check",
    "cancel-retreat",
    "force-exhaustion-check",
    "fire-then-assault",
    "reroll-any-die",
    "cancel-activation",
    "forced-retreat",
    "reroll-assault-dice",
    "reshuffle-on-draw",
    "commander-off-map",
    "regroup-check",
    "extra-movement",
    "cancel-fire",
    "no-fire",
    "extra-reserve",
    "no-effect",
];

/// The most card numbers a deck may hold.
pub const MAX_CARDS: usize = 99;

/// The words a deck may use: [`TIMINGS`] and [`EFFECTS`] unless the
/// caller knows others. Kinds of [`KINDS`] also have their windows and
/// parameters checked.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a> {
    /// Timing windows.
    pub timings: &'a [&'a str],
    /// Effect kinds.
    pub effects: &'a [&'a str],
}

impl Default for Words<'static> {
    fn default() -> Self {
        Words {
            timings: TIMINGS,
            effects: EFFECTS,
        }
    }
}

/// Checks the deck: numbers 1 to 99, each once; known timing and effect
/// words, the timing one the kind allows; the kind's parameters only, in
/// their bounds.
pub fn check(cards: &[Card], words: &Words<'_>, f: &mut Findings) {
    let total: usize = cards.iter().map(|c| c.numbers.len()).sum();
    f.bound(&Field::key("card"), total, MAX_CARDS, "card numbers");
    let mut seen = HashSet::new();
    for (i, card) in cards.iter().take(MAX_CARDS).enumerate() {
        let at = |key: &str| Field::key("card").at(i).then(key);
        f.require(
            !card.name.trim().is_empty(),
            at("name"),
            "a card needs a title",
        );
        f.require(
            !card.numbers.is_empty(),
            at("numbers"),
            "a card entry needs at least one number",
        );
        for &n in card.numbers.iter().take(MAX_CARDS) {
            f.require(
                (1..=MAX_CARDS).contains(&usize::from(n)),
                at("numbers"),
                format!("card number {n} is outside 1 to {MAX_CARDS}"),
            );
            f.require(
                seen.insert(n),
                at("numbers"),
                format!("card number {n} is used twice"),
            );
        }
        let timing_known = words.timings.contains(&card.timing.as_str());
        f.require(
            timing_known,
            at("timing"),
            format!(
                "`{}` is not a timing window the engine knows (B124)",
                card.timing
            ),
        );
        f.require(
            words.effects.contains(&card.effect.as_str()),
            at("effect"),
            format!(
                "`{}` is not an effect kind the engine knows (B125)",
                card.effect
            ),
        );
        if let Some(kind) = KINDS.iter().find(|k| k.name == card.effect) {
            kind_params(i, card, kind, timing_known, f);
        } else if !card.params.is_empty() {
            f.push(
                at("params"),
                format!("`{}` takes no parameters", card.effect),
            );
        }
    }
}

/// A card's window and parameters against its kind's.
fn kind_params(i: usize, card: &Card, kind: &Kind, timing_known: bool, f: &mut Findings) {
    let at = |key: &str| Field::key("card").at(i).then(key);
    f.require(
        !timing_known || kind.windows.contains(&card.timing.as_str()),
        at("timing"),
        format!(
            "`{}` is played in {}, not `{}` (B124)",
            kind.name,
            kind.windows.join(" or "),
            card.timing
        ),
    );
    for (name, value) in &card.params {
        let field = at("params").then(name);
        match kind.params.iter().find(|p| p.name() == name) {
            None => f.push(field, format!("`{}` has no parameter `{name}`", kind.name)),
            Some(rule) => f.require(
                rule.allows(value),
                field,
                format!("`{name}` must be {}", rule.expected()),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_a_word_and_plays_in_known_windows() {
        let names: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
        assert_eq!(names, EFFECTS);
        for k in KINDS {
            for w in k.windows {
                assert!(TIMINGS.contains(w), "{} {w}", k.name);
            }
        }
        for list in [TIMINGS, EFFECTS] {
            for (i, w) in list.iter().enumerate() {
                assert!(
                    w.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                    "{w}"
                );
                assert!(!list[..i].contains(w), "{w} twice");
            }
        }
    }

    #[test]
    fn parameters_are_bounded_by_their_rule() {
        let hexes = NumberOrWord("hexes", 2, 2, &["long"]);
        assert!(hexes.allows(&Param::Number(2)) && hexes.allows(&Param::Word("long".into())));
        assert!(!hexes.allows(&Param::Number(3)) && !hexes.allows(&Param::Word("far".into())));
        assert!(!hexes.allows(&Param::Flag(true)));
        assert!(Flag("x").allows(&Param::Flag(false)) && !Flag("x").allows(&Param::Number(1)));
    }
}
