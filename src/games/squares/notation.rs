//! The words and codes a SQUARES game is written in: side names, position
//! letters, and the codes of the south half of the board (G in the Civil
//! War game, F in the Napoleonic variant, N1).
//!
//! Squares, sides, orders, events and refusals are printed in hundreds of
//! places through `Display`, and read through `FromStr`. Rather than thread
//! a notation through each of them, the notation is a scoped setting of the
//! current thread: [`with`] enters a game's notation for the length of a
//! call, and every `Display`/parse below reads [`current`]. The Civil War
//! notation is the default, so the first game's text is untouched; the
//! variant's entry points (`Napoleonic`'s `Game` methods and the `Display`
//! and serde of its order, event and refusal types) enter its notation.

use std::cell::Cell;

use super::rules::Variant;

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

thread_local! {
    static CURRENT: Cell<&'static Notation> = const { Cell::new(&CIVIL_WAR) };
}

/// The notation text is written and read in on this thread now.
#[inline]
pub fn current() -> &'static Notation {
    CURRENT.with(Cell::get)
}

/// Runs `f` with `notation` current, restoring the previous one afterwards
/// (also when `f` panics).
pub fn with<R>(notation: &'static Notation, f: impl FnOnce() -> R) -> R {
    struct Restore(&'static Notation);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.replace(notation)));
    f()
}

impl Notation {
    /// A board code as this game writes it: `G1C` becomes `F1C` in the
    /// variant; `GR` becomes `FR`; everything else is unchanged.
    pub fn code(&self, g_code: &'static str) -> std::borrow::Cow<'static, str> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_scope_is_restored() {
        assert_eq!(current().variant, Variant::CivilWar);
        let inner = with(&NAPOLEONIC, || current().sides[0]);
        assert_eq!(inner, "British");
        assert_eq!(current().variant, Variant::CivilWar);
        let caught = std::panic::catch_unwind(|| with(&NAPOLEONIC, || panic!("inside")));
        assert!(caught.is_err());
        assert_eq!(current().variant, Variant::CivilWar);
    }
}
