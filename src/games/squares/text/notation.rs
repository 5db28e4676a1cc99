//! The words and codes a SQUARES game is written in: side names, position
//! letters, and the codes of the south half of the board (G in the Civil
//! War game, F in the Napoleonic variant, N1).
//!
//! The notation is always passed explicitly: text is written by `Display`
//! adapters that carry it (`order.display_in(notation)`, see
//! [`InNotation`]) and read by functions that take it (`Order::read(text,
//! notation)`, `Space::read(code, notation)`). A game's position says which
//! game it is, so whatever holds a `Squares` finds its notation through
//! [`Variant::notation`]. Nothing here depends on the thread that writes or
//! reads: a `NapOrder` serialised on a fresh thread is written in the
//! variant's notation like any other.
//!
//! The engine's types keep a plain `Display` and serde in the Civil War
//! notation, the first game's, so that `Squares` is a `Game` with the
//! engine's own types; the variant's wrapper types (`NapOrder`, `NapEvent`,
//! `NapRefusal`) write and read theirs with [`NAPOLEONIC`].

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::games::squares::core::board::Space;
use crate::games::squares::core::unit::{Side, UnitKind};
use crate::games::squares::core::variant::Variant;

/// How one game writes its sides and squares.
#[derive(Debug)]
pub struct Notation {
    /// The game.
    pub variant: Variant,
    /// The sides' names, North first ("Blue", "Gray").
    pub sides: [&'static str; 2],
    /// The sides' position-string letters, North first.
    pub side_letters: [char; 2],
    /// The first letter of the south half's square codes (`G` or `F`).
    pub south_letter: char,
    /// The position string's first field, if the game has one.
    pub header: Option<&'static str>,
}

/// SQUARES - The Civil War Battle Game.
pub static CIVIL_WAR: Notation = Notation {
    variant: Variant::CivilWar,
    sides: ["Blue", "Gray"],
    side_letters: ['b', 'g'],
    south_letter: 'G',
    header: None,
};

/// The Napoleonic variant (N1, N35).
pub static NAPOLEONIC: Notation = Notation {
    variant: Variant::Napoleonic,
    sides: ["British", "French"],
    side_letters: ['b', 'f'],
    south_letter: 'F',
    header: Some("napoleonic"),
};

impl Variant {
    /// This game's notation.
    pub fn notation(self) -> &'static Notation {
        match self {
            Variant::CivilWar => &CIVIL_WAR,
            Variant::Napoleonic => &NAPOLEONIC,
        }
    }
}

impl Notation {
    /// A board code as this game writes it: `G1C` becomes `F1C` in the
    /// variant; `GR` becomes `FR`; everything else is unchanged.
    pub fn code(&self, g_code: &'static str) -> Cow<'static, str> {
        match g_code.strip_prefix('G') {
            Some(rest) if self.south_letter != 'G' => format!("{}{rest}", self.south_letter).into(),
            _ => g_code.into(),
        }
    }

    /// The board's G code for a code written in this notation, if it is
    /// one: the variant reads F codes and, as N1 allows, G codes too; the
    /// Civil War game reads only G codes.
    pub fn g_code(&self, written: &str) -> Option<String> {
        let upper = written.to_ascii_uppercase();
        match upper.strip_prefix(self.south_letter) {
            Some(rest) if self.south_letter != 'G' => Some(format!("G{rest}")),
            _ if upper.starts_with('F') => None,
            _ => Some(upper),
        }
    }

    /// HELP's examples of orders for `seat` (`GameText::ORDERS`), his own
    /// squares first: his move, his attack on the other half, his retreat
    /// into his own reserve.
    pub fn examples(&self, seat: crate::games::Seat) -> String {
        let letters = ['B', self.south_letter];
        let (l, o) = (letters[seat.index()], letters[1 - seat.index()]);
        format!(
            "MOVE {l}2CR {l}1C, {l}2CR-{l}1C, ATTACK {l}1C {o}1C SUPPORT {l}1CR, \
             {l}1C x {o}1C + {l}1CR, PASS, RETREAT {l}R, STAND, OPTION 2, ADVANCE"
        )
    }

    /// A side's name as players read it ("Blue", "British").
    pub fn side_name(&self, side: Side) -> &'static str {
        self.sides[side.index()]
    }

    /// A side's one-letter code in position strings (`b`, `g`; `b`, `f`).
    pub fn side_letter(&self, side: Side) -> char {
        self.side_letters[side.index()]
    }
}

/// A value written in a game's notation: its `Display` (and, for the types
/// that are serialised, its serde form) in that game's words and codes.
/// Made by the `display_in` methods (`order.display_in(&NAPOLEONIC)`):
/// the small copyable values (squares, sides, steps, orders) are held by
/// value, events and refusals by reference.
#[derive(Clone, Copy)]
pub struct InNotation<'a, T> {
    /// What is written.
    pub value: T,
    /// The notation it is written in.
    pub notation: &'a Notation,
}

impl<T> fmt::Debug for InNotation<'_, T>
where
    Self: fmt::Display,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl<'a, T> InNotation<'a, T> {
    /// `value` written in `notation`.
    pub fn new(value: T, notation: &'a Notation) -> InNotation<'a, T> {
        InNotation { value, notation }
    }

    /// Another value in the same notation.
    pub(crate) fn with<U>(&self, value: U) -> InNotation<'a, U> {
        InNotation::new(value, self.notation)
    }
}

impl Space {
    /// This square as `notation` writes it (`G1C`, or `F1C` in the variant).
    pub fn display_in(self, notation: &Notation) -> InNotation<'_, Space> {
        InNotation::new(self, notation)
    }

    /// The space whose code is `code` (any case) in `notation`: a board
    /// code such as `B1CR` or `BR`, or in the variant also an F code (N1).
    pub fn read(code: &str, notation: &Notation) -> Option<Space> {
        Space::from_code(&notation.g_code(code)?)
    }
}

impl fmt::Display for InNotation<'_, Space> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation.code(self.value.code()))
    }
}

impl Serialize for InNotation<'_, Space> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Side {
    /// This side's name as `notation` writes it ("Blue", "British", N1).
    pub fn display_in(self, notation: &Notation) -> InNotation<'_, Side> {
        InNotation::new(self, notation)
    }

    /// The side a name of either game denotes, in any case ("blue",
    /// "British"), as serialised sides are read back.
    pub fn from_any_name(name: &str) -> Option<Side> {
        match name.to_ascii_lowercase().as_str() {
            "blue" | "british" => Some(Side::Blue),
            "gray" | "french" => Some(Side::Gray),
            _ => None,
        }
    }
}

impl fmt::Display for InNotation<'_, Side> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.notation.side_name(self.value))
    }
}

/// A side is serialised as its name in the notation, lower case ("blue",
/// "british").
impl Serialize for InNotation<'_, Side> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.notation.side_name(self.value).to_ascii_lowercase())
    }
}

/// Written in the Civil War notation ("Blue", "Gray"); a game's own
/// notation writes it through [`Side::display_in`].
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display_in(&CIVIL_WAR).fmt(f)
    }
}

/// Serialised as the side's Civil War name, lower case ("blue"), whatever
/// thread serialises it (the variant's events serialise their sides in
/// its notation); either game's names are read.
impl Serialize for Side {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.display_in(&CIVIL_WAR).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Side, D::Error> {
        let text = String::deserialize(deserializer)?;
        Side::from_any_name(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("no side {text:?}")))
    }
}

impl UnitKind {
    /// The word used in orders (`INFANTRY`, `LIGHT`; N24).
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Infantry => "INFANTRY",
            UnitKind::Guard => "GUARD",
            UnitKind::Light => "LIGHT",
            UnitKind::Artillery => "ARTILLERY",
            UnitKind::HorseBattery => "HORSE",
            UnitKind::Cavalry => "CAVALRY",
            UnitKind::HeavyCavalry => "HEAVY",
        }
    }

    /// The short form N24 allows beside the word, if any (`LI`, `HB`, `HC`).
    pub fn short_word(self) -> Option<&'static str> {
        match self {
            UnitKind::Light => Some("LI"),
            UnitKind::HorseBattery => Some("HB"),
            UnitKind::HeavyCavalry => Some("HC"),
            _ => None,
        }
    }

    /// The position-string letter for `side` (North upper case, South lower).
    pub fn letter(self, side: Side) -> char {
        let c = match self {
            UnitKind::Infantry => 'I',
            UnitKind::Guard => 'G',
            UnitKind::Light => 'L',
            UnitKind::Artillery => 'A',
            UnitKind::HorseBattery => 'H',
            UnitKind::Cavalry => 'C',
            UnitKind::HeavyCavalry => 'K',
        };
        match side {
            Side::Blue => c,
            Side::Gray => c.to_ascii_lowercase(),
        }
    }

    /// Reads a position-string letter.
    pub fn from_letter(c: char) -> Option<(UnitKind, Side)> {
        let side = if c.is_ascii_uppercase() {
            Side::Blue
        } else {
            Side::Gray
        };
        UnitKind::EVERY
            .into_iter()
            .find(|k| k.letter(Side::Blue) == c.to_ascii_uppercase())
            .map(|k| (k, side))
    }

    /// Lower-case name for sentences ("infantry", "horse battery").
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Guard => "guard",
            UnitKind::Light => "light infantry",
            UnitKind::Artillery => "artillery",
            UnitKind::HorseBattery => "horse battery",
            UnitKind::Cavalry => "cavalry",
            UnitKind::HeavyCavalry => "heavy cavalry",
        }
    }

    /// The board's three-letter form ("inf", "hb").
    pub fn short(self) -> &'static str {
        match self {
            UnitKind::Infantry => "inf",
            UnitKind::Guard => "gua",
            UnitKind::Light => "li",
            UnitKind::Artillery => "art",
            UnitKind::HorseBattery => "hb",
            UnitKind::Cavalry => "cav",
            UnitKind::HeavyCavalry => "hc",
        }
    }

    /// Reads an order's unit word (any case, N24's short forms too) among
    /// the types of `notation`'s game.
    pub fn read(word: &str, notation: &Notation) -> Option<UnitKind> {
        notation.variant.kinds().iter().copied().find(|k| {
            k.word().eq_ignore_ascii_case(word)
                || k.short_word().is_some_and(|w| w.eq_ignore_ascii_case(word))
        })
    }
}

/// Written as its name in sentences ("infantry", "horse battery"), the
/// same in both games.
impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::{Side, Space, CIVIL_WAR, NAPOLEONIC};

    #[test]
    fn the_variant_writes_f_codes_and_reads_both() {
        assert_eq!(NAPOLEONIC.code("G1CL"), "F1CL");
        assert_eq!(NAPOLEONIC.code("GR"), "FR");
        assert_eq!(NAPOLEONIC.code("B1C"), "B1C");
        assert_eq!(CIVIL_WAR.code("G1CL"), "G1CL");
        assert_eq!(NAPOLEONIC.g_code("f1cl").as_deref(), Some("G1CL"));
        assert_eq!(NAPOLEONIC.g_code("G1CL").as_deref(), Some("G1CL"));
        assert_eq!(CIVIL_WAR.g_code("F1CL"), None);
    }

    #[test]
    fn squares_and_sides_are_written_in_the_notation_passed() {
        let g1c = Space::from_code("G1C").unwrap();
        assert_eq!(g1c.display_in(&NAPOLEONIC).to_string(), "F1C");
        assert_eq!(g1c.display_in(&CIVIL_WAR).to_string(), "G1C");
        assert_eq!(Space::read("f1c", &NAPOLEONIC), Some(g1c));
        assert_eq!(Space::read("F1C", &CIVIL_WAR), None);
        assert_eq!(Side::Gray.display_in(&NAPOLEONIC).to_string(), "French");
        assert_eq!(Side::Gray.display_in(&CIVIL_WAR).to_string(), "Gray");
    }
}
