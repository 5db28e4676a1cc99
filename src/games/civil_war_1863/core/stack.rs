//! The pieces on one square: counts per kind (pieces of one kind with the
//! same flags are interchangeable, so orders name counts, never pieces),
//! which of them have moved this turn (P7), which are disabled (P23) and
//! whether the square's city is fortified (P31-P33).

use std::fmt;

use super::side::{PieceKind, Side};

/// How many pieces of each kind: infantry, cavalry, gunboats.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Counts(pub [u8; 3]);

/// The most pieces of one kind a count may name: more than any box holds
/// (15), so that a count read from a mail is bounded.
pub const MAX_COUNT: u8 = 20;

impl Counts {
    /// No piece.
    pub const NONE: Counts = Counts([0; 3]);

    /// `n` pieces of one kind.
    pub fn of(kind: PieceKind, n: u8) -> Counts {
        let mut c = Counts::NONE;
        c.0[kind as usize] = n;
        c
    }

    /// How many of `kind`.
    pub fn get(self, kind: PieceKind) -> u8 {
        self.0[kind as usize]
    }

    /// Infantry and cavalry: the pieces a fortification covers (P32).
    pub fn ground(self) -> u32 {
        u32::from(self.get(PieceKind::Infantry)) + u32::from(self.get(PieceKind::Cavalry))
    }

    /// How many pieces in all.
    pub fn total(self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether there is no piece.
    pub fn is_empty(self) -> bool {
        self.0 == [0; 3]
    }

    /// Whether every piece of `other` is among these.
    pub fn contains(self, other: Counts) -> bool {
        (0..3).all(|i| other.0[i] <= self.0[i])
    }

    /// These and `other` together.
    pub fn plus(self, other: Counts) -> Counts {
        Counts(std::array::from_fn(|i| {
            self.0[i].saturating_add(other.0[i])
        }))
    }

    /// These without `other`, kind by kind (never below none).
    pub fn minus(self, other: Counts) -> Counts {
        Counts(std::array::from_fn(|i| {
            self.0[i].saturating_sub(other.0[i])
        }))
    }

    /// The smaller count of each kind.
    pub fn min(self, other: Counts) -> Counts {
        Counts(std::array::from_fn(|i| self.0[i].min(other.0[i])))
    }

    /// The kinds present, infantry first.
    pub fn kinds(self) -> impl Iterator<Item = PieceKind> {
        PieceKind::ALL.into_iter().filter(move |&k| self.get(k) > 0)
    }

    /// Every part of these pieces, none and all included, in a fixed
    /// order: the groups a stack can be split into (P10).
    pub fn parts(self) -> impl Iterator<Item = Counts> {
        let [a, b, c] = self.0;
        (0..=a)
            .flat_map(move |i| (0..=b).flat_map(move |j| (0..=c).map(move |k| Counts([i, j, k]))))
    }

    /// Every part of exactly `n` pieces.
    pub fn parts_of(self, n: u32) -> impl Iterator<Item = Counts> {
        self.parts().filter(move |p| p.total() == n)
    }

    /// Reads counts written like `2I1C` or `I G` (a missing number is 1),
    /// or `none`.
    pub fn parse(text: &str) -> Option<Counts> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("none") {
            return Some(Counts::NONE);
        }
        let mut counts = Counts::NONE;
        let mut number: Option<u32> = None;
        let mut any = false;
        for ch in text.chars() {
            if ch.is_whitespace() {
                continue;
            }
            if let Some(d) = ch.to_digit(10) {
                let n = number.unwrap_or(0) * 10 + d;
                if n > u32::from(MAX_COUNT) {
                    return None;
                }
                number = Some(n);
                continue;
            }
            let kind = kind_of_letter(ch)?;
            let n = number.take().unwrap_or(1) as u8;
            let slot = &mut counts.0[kind as usize];
            *slot = slot.checked_add(n).filter(|&s| s <= MAX_COUNT)?;
            any = true;
        }
        (any && number.is_none()).then_some(counts)
    }
}

/// The letter of a kind in orders and positions: `I`, `C`, `G`.
pub fn kind_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::Infantry => 'I',
        PieceKind::Cavalry => 'C',
        PieceKind::Gunboat => 'G',
    }
}

/// The kind written with this letter (any case).
pub fn kind_of_letter(letter: char) -> Option<PieceKind> {
    PieceKind::ALL
        .into_iter()
        .find(|&k| kind_letter(k) == letter.to_ascii_uppercase())
}

/// Written like `2I1C`, or `none`.
impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        for kind in self.kinds() {
            write!(f, "{}{}", self.get(kind), kind_letter(kind))?;
        }
        Ok(())
    }
}

/// The fortification of a key city (P31-P33), as its stack carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Fort {
    /// No marker.
    #[default]
    None,
    /// A marker placed on an earlier turn: the troops count two and are
    /// locked in (P32).
    Fortified,
    /// A marker placed this turn: as fortified, and no infantry or cavalry
    /// of the side may move in this turn (P31).
    FortifiedNow,
    /// The marker was removed this turn: no doubling, but no infantry or
    /// cavalry may move out this turn (P33).
    UnfortifiedNow,
}

impl Fort {
    /// Whether a marker is on the city (P32: the troops count two).
    pub fn has_marker(self) -> bool {
        matches!(self, Fort::Fortified | Fort::FortifiedNow)
    }

    /// Whether the side's infantry and cavalry may not leave (P32, P33).
    pub fn locks_in(self) -> bool {
        self != Fort::None
    }
}

/// One side's pieces on one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    /// Whose pieces (the sides never share a square, P9).
    pub side: Side,
    /// The pieces that have not moved this turn.
    pub unmoved: Counts,
    /// The pieces that have moved this turn, a survivors' move included
    /// (P7, P10, P21).
    pub moved: Counts,
    /// The pieces under a disabled marker (P23); the marker is on the square
    /// while any remain.
    pub disabled: Counts,
    /// The city's fortification (P31-P33).
    pub fort: Fort,
}

impl Stack {
    /// Unmoved pieces of `side`.
    pub fn new(side: Side, unmoved: Counts) -> Stack {
        Stack {
            side,
            unmoved,
            moved: Counts::NONE,
            disabled: Counts::NONE,
            fort: Fort::None,
        }
    }

    /// Every piece on the square.
    pub fn all(&self) -> Counts {
        self.unmoved.plus(self.moved)
    }

    /// Whether a disabled marker is on the square (P23).
    pub fn has_disabled_marker(&self) -> bool {
        !self.disabled.is_empty()
    }

    /// The pieces that may still move this turn: unmoved, not disabled
    /// (P7, P23), and not locked in a city (P32, P33).
    pub fn free(&self) -> Counts {
        let mut free = self.unmoved.minus(self.disabled);
        if self.fort.locks_in() {
            free = free.min(Counts::of(PieceKind::Gunboat, MAX_COUNT));
        }
        free
    }

    /// Takes `pieces` away, those that have moved first, then disabled
    /// ones (P38: the choice that leaves the owner the most), keeping the
    /// flags consistent: the marker goes back when no infantry or cavalry
    /// remains (P32).
    pub fn take(&mut self, pieces: Counts) {
        let from_moved = pieces.min(self.moved);
        self.moved = self.moved.minus(from_moved);
        let from_unmoved = pieces.minus(from_moved);
        self.unmoved = self.unmoved.minus(from_unmoved);
        self.disabled = self.disabled.minus(from_unmoved).min(self.all());
        if self.all().ground() == 0 {
            self.fort = Fort::None;
        }
    }

    /// Takes `pieces` away from the unmoved ones only (a move, P7).
    pub fn take_unmoved(&mut self, pieces: Counts) {
        self.unmoved = self.unmoved.minus(pieces);
        self.disabled = self.disabled.min(self.all());
        if self.all().ground() == 0 {
            self.fort = Fort::None;
        }
    }
}
