//! The three characters a unit is drawn with on the map: a letter for its
//! brigade (upper case for the Union, lower case for the Confederacy), a
//! digit for the unit within its brigade, and `+` when others share its
//! hex. Brigade letters never repeat (without regard to case) while the
//! alphabet lasts, and never use a letter of the scenario's terrain legend,
//! so that a unit is never read as ground.

use std::collections::BTreeSet;

use crate::games::brothers_at_war::core::ids::{BrigadeId, UnitId};
use crate::games::brothers_at_war::core::state::BrothersAtWar;
use crate::games::brothers_at_war::scenario::model::Side;

/// The codes of one battle's brigades and units.
#[derive(Clone, Debug)]
pub struct Codes {
    /// Per brigade, its letter (already in its side's case).
    brigades: Vec<char>,
    /// The letter of generic remnants, per side (Union first).
    remnants: [char; 2],
}

/// The digit of the n-th unit (from 0) of a brigade: 1-9, then 0, then `*`
/// for the eleventh on (the key says which is which).
fn digit(n: usize) -> char {
    match n {
        0..=8 => char::from(b'1' + n as u8),
        9 => '0',
        _ => '*',
    }
}

fn cased(letter: char, side: Side) -> char {
    match side {
        Side::Union => letter.to_ascii_uppercase(),
        Side::Confederacy => letter.to_ascii_lowercase(),
    }
}

impl Codes {
    /// The codes of `game`'s battle.
    pub fn of(game: &BrothersAtWar) -> Codes {
        let scenario = &game.battle.scenario;
        let legend: BTreeSet<char> = scenario
            .map
            .legend
            .keys()
            .flat_map(|k| k.chars())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let mut used: BTreeSet<char> = BTreeSet::new();
        let mut pick = |name: &str, side: Side| -> char {
            let free = |c: &char| c.is_ascii_alphabetic() && !legend.contains(c);
            let candidates = name
                .chars()
                .map(|c| c.to_ascii_uppercase())
                .chain('A'..='Z')
                .filter(free);
            let letter = candidates
                .clone()
                .find(|c| !used.contains(c))
                // More brigades than letters: the case alone tells the
                // sides apart, and the key tells the rest.
                .or_else(|| candidates.clone().next())
                .unwrap_or('?');
            used.insert(letter);
            cased(letter, side)
        };
        let brigades = scenario
            .brigades
            .iter()
            .map(|b| pick(&b.id, b.side))
            .collect();
        let remnants = [
            pick("REMNANT", Side::Union),
            pick("REMNANT", Side::Confederacy),
        ];
        Codes { brigades, remnants }
    }

    /// A brigade's letter.
    pub fn brigade(&self, b: BrigadeId) -> char {
        self.brigades.get(b.index()).copied().unwrap_or('?')
    }

    /// A unit's two characters: its brigade's letter and its digit.
    pub fn unit(&self, game: &BrothersAtWar, unit: UnitId) -> [char; 2] {
        match game.brigade_of(unit) {
            Some(b) => {
                let n = game
                    .units_of_brigade(b)
                    .iter()
                    .position(|&u| u == unit)
                    .unwrap_or(usize::MAX);
                [self.brigade(b), digit(n)]
            }
            None => {
                let side = game.side_of(unit);
                let n = game
                    .unit_ids()
                    .filter(|&u| game.brigade_of(u).is_none() && game.side_of(u) == side)
                    .position(|u| u == unit)
                    .unwrap_or(usize::MAX);
                [self.remnants[side.index()], digit(n)]
            }
        }
    }

    /// A unit's code as text (`W1`, `a3`).
    pub fn text(&self, game: &BrothersAtWar, unit: UnitId) -> String {
        self.unit(game, unit).iter().collect()
    }
}
