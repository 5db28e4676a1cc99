//! Rail rides (P15) and cut sections (P16, P17).

use crate::games::civil_war_1863::core::path::{Path, MAX_PATH};
use crate::games::civil_war_1863::core::side::{PieceKind, Side};
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::Counts;
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::refusal::Refusal;

/// The most rail steps of a ride (P15).
pub const RIDE_STEPS: usize = MAX_PATH;

impl CivilWar1863 {
    /// Whether the section is cut against `side`: a piece of the other side
    /// stands on it and none of `side` does, judged now (P17).
    pub fn section_cut_against(&self, side: Side, section: usize) -> bool {
        let squares = &self.board.sections()[section].squares;
        let holders = squares.iter().filter_map(|&s| self.holder(s));
        let (mut enemy, mut own) = (false, false);
        for h in holders {
            if h == side {
                own = true;
            } else {
                enemy = true;
            }
        }
        enemy && !own
    }

    /// Whether a ride is legal (P15, P17, and P9 for what it passes).
    pub(crate) fn check_ride(
        &self,
        from: Square,
        pieces: Counts,
        path: &[Square],
    ) -> Result<(), Refusal> {
        if pieces.is_empty() {
            return Err(Refusal::NoPieceNamed);
        }
        if pieces != Counts::of(PieceKind::Infantry, pieces.get(PieceKind::Infantry)) {
            return Err(Refusal::RideInfantryOnly);
        }
        self.check_group(from, pieces, path.last().copied())?;
        let to = self.check_ride_track(from, path)?;
        self.check_arrival(pieces, to)
    }

    /// Whether a ride may follow `path` from `from` whoever rides (P15,
    /// P16, P9); the square it ends on.
    pub(crate) fn check_ride_track(
        &self,
        from: Square,
        path: &[Square],
    ) -> Result<Square, Refusal> {
        // P15: the group stood on the railroad since the start of the turn
        // (unmoved pieces have).
        if !self.board.is_rail(from) {
            return Err(Refusal::NotOnRailroad { square: from });
        }
        if path.is_empty() || path.len() > RIDE_STEPS {
            return Err(Refusal::RideTooLong);
        }
        let side = self.to_move;
        let mut prev = from;
        for (i, &next) in path.iter().enumerate() {
            if !self.board.rail_step(prev, next) {
                return Err(Refusal::NotRailStep {
                    from: prev,
                    to: next,
                });
            }
            if next == from || path[..i].contains(&next) {
                return Err(Refusal::RideRevisits { square: next });
            }
            if let Some(section) = self.board.section_of(next) {
                if self.section_cut_against(side, section) {
                    return Err(Refusal::SectionCut { square: next });
                }
            }
            if i + 1 < path.len() && self.hostile_to(side, next) {
                return Err(Refusal::ThroughEnemy { square: next });
            }
            prev = next;
        }
        Ok(prev)
    }

    /// Every ride path of one to three steps from `from` that follows the
    /// railroad without entering a square twice (P15); cuts and enemies
    /// are the checks' business. The plain list the tests check
    /// [`open_rides`](Self::open_rides) against.
    #[cfg(test)]
    pub(crate) fn ride_paths(&self, from: Square) -> Vec<Path> {
        let mut out = Vec::new();
        let mut path = Vec::with_capacity(RIDE_STEPS);
        self.extend_rides(from, &mut path, &mut out);
        out
    }

    #[cfg(test)]
    fn extend_rides(&self, from: Square, path: &mut Vec<Square>, out: &mut Vec<Path>) {
        if path.len() == RIDE_STEPS {
            return;
        }
        let at = *path.last().unwrap_or(&from);
        for next in self.board.rail_neighbours(at) {
            if next == from || path.contains(&next) {
                continue;
            }
            path.push(next);
            out.push(Path::new(path).expect("a ride is at most MAX_PATH steps"));
            // A ride stops at an enemy square or capital: it is an attack (P9).
            if !self.hostile_to(self.to_move, next) {
                self.extend_rides(from, path, out);
            }
            path.pop();
        }
    }

    /// The ride paths of [`ride_paths`](Self::ride_paths), in its order,
    /// that [`check_ride_track`](Self::check_ride_track) allows from
    /// `from` (on the railroad): a square of a cut section ends every
    /// ride through it (P17), so the search looks at each square once
    /// instead of checking every path from its start. The rest of the
    /// track check holds by construction: rail steps, no square twice
    /// (P15), no ride on past an enemy square (P9).
    pub(crate) fn open_rides(&self, from: Square) -> Vec<Path> {
        let mut out = Vec::new();
        let mut path = [from; RIDE_STEPS];
        self.extend_open_rides(from, &mut path, 0, &mut out);
        out
    }

    fn extend_open_rides(
        &self,
        from: Square,
        path: &mut [Square; RIDE_STEPS],
        len: usize,
        out: &mut Vec<Path>,
    ) {
        let side = self.to_move;
        let at = if len == 0 { from } else { path[len - 1] };
        for next in self.board.rail_neighbours(at) {
            if next == from || path[..len].contains(&next) {
                continue;
            }
            if let Some(section) = self.board.section_of(next) {
                if self.section_cut_against(side, section) {
                    continue;
                }
            }
            path[len] = next;
            out.push(Path::new(&path[..=len]).expect("a ride is at most MAX_PATH steps"));
            if len + 1 < RIDE_STEPS && !self.hostile_to(side, next) {
                self.extend_open_rides(from, path, len + 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: &str) -> Square {
        Square::parse(n).unwrap()
    }

    /// A railroad line with a section of at least two squares between two
    /// cities of the standard board: (city, s1, s2).
    fn a_section() -> (Square, Square, Square) {
        let g: CivilWar1863 = "cw1863 1; south to move; U: none; C: none".parse().unwrap();
        let board = g.board();
        for section in board.sections() {
            for &a in &section.squares {
                for city in board.rail_neighbours(a).filter(|&c| board.is_city(c)) {
                    if let Some(b) = board
                        .rail_neighbours(a)
                        .find(|&b| section.squares.contains(&b))
                    {
                        return (city, a, b);
                    }
                }
            }
        }
        panic!("no section of two squares next to a city");
    }

    #[test]
    fn p17_an_enemy_piece_on_a_section_cuts_it_and_an_own_piece_mends_it() {
        let (city, a, b) = a_section();
        let mut g: CivilWar1863 = format!("cw1863 1; north to move; U: {city} 2I; C: {b} 1C")
            .parse()
            .unwrap();
        let two = Counts::of(PieceKind::Infantry, 2);
        assert_eq!(
            g.check_ride(city, two, &[a]),
            Err(Refusal::SectionCut { square: a })
        );
        assert_eq!(
            g.check_move(city, two, &[a]),
            Ok(()),
            "marching along the bed is legal"
        );
        g = format!("cw1863 1; north to move; U: {city} 2I / {a} m1C; C: {b} 1C")
            .parse()
            .unwrap();
        assert_eq!(
            g.check_ride(city, two, &[a, b]),
            Ok(()),
            "an attack by rail on b"
        );
        let _ = sq("A1");
    }

    #[test]
    fn p15_only_infantry_rides_and_never_twice_through_a_square() {
        let (city, a, _) = a_section();
        let g: CivilWar1863 = format!("cw1863 1; north to move; U: {city} 1I1C; C: none")
            .parse()
            .unwrap();
        assert_eq!(
            g.check_ride(city, Counts::of(PieceKind::Cavalry, 1), &[a]),
            Err(Refusal::RideInfantryOnly)
        );
        assert_eq!(
            g.check_ride(city, Counts::of(PieceKind::Infantry, 1), &[a, city]),
            Err(Refusal::RideRevisits { square: city })
        );
    }
}
