//! Movement on the board: which step each kind may make (P1-P6, P11-P13),
//! groups and their paths (P2, P9, P10), and the checks of a march, a
//! cavalry move or a gunboat move of the turn (P7, P8, P14, P23, P31-P33).

use crate::games::civil_war_1863::core::path::Path;
use crate::games::civil_war_1863::core::side::{PieceKind, Side};
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::{Counts, Fort, Stack};
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::refusal::Refusal;

/// How far a group may go: one square with any infantry (P10), two
/// otherwise (P11, P12); and the kind that sets the limit.
pub(crate) fn reach(pieces: Counts) -> (PieceKind, u8) {
    if pieces.get(PieceKind::Infantry) > 0 {
        (PieceKind::Infantry, 1)
    } else if pieces.get(PieceKind::Cavalry) > 0 {
        (PieceKind::Cavalry, 2)
    } else {
        (PieceKind::Gunboat, 2)
    }
}

/// Whether the group carries infantry aboard its gunboats to sea (P13):
/// infantry and gunboats that stood together since the start of the turn,
/// and no cavalry, which never boards.
pub(crate) fn sails(pieces: Counts) -> bool {
    pieces.get(PieceKind::Infantry) > 0
        && pieces.get(PieceKind::Gunboat) > 0
        && pieces.get(PieceKind::Cavalry) == 0
}

/// Every path of one or two steps from `from` (for groups without
/// infantry) or of one step, in board order.
pub(crate) fn paths(from: Square, most: u8) -> impl Iterator<Item = Path> {
    from.neighbours().flat_map(move |a| {
        let two = a
            .neighbours()
            .filter(move |&b| most >= 2 && b != from)
            .map(move |b| Path::two(a, b));
        std::iter::once(Path::one(a)).chain(two)
    })
}

/// The most paths [`paths`] gives: eight first steps, each followed by
/// itself or seven second steps.
const MOST_PATHS: usize = 8 * 8;

/// The open paths of a group from a square
/// ([`CivilWar1863::open_paths`]), held in place: a playout asks for them
/// at every move.
pub(crate) struct OpenPaths {
    paths: [Path; MOST_PATHS],
    len: usize,
}

impl OpenPaths {
    fn push(&mut self, path: Path) {
        self.paths[self.len] = path;
        self.len += 1;
    }
}

impl std::ops::Deref for OpenPaths {
    type Target = [Path];

    fn deref(&self) -> &[Path] {
        &self.paths[..self.len]
    }
}

/// Which kinds `pieces` holds, as bits: infantry 1, cavalry 2, gunboats 4
/// ([`PieceKind::ALL`] order).
pub(crate) fn kind_mix(pieces: Counts) -> usize {
    PieceKind::ALL
        .into_iter()
        .enumerate()
        .filter(|&(_, k)| pieces.get(k) > 0)
        .map(|(i, _)| 1 << i)
        .sum()
}

/// One piece of each kind in `mix` (see [`kind_mix`]).
fn one_of_each(mix: usize) -> Counts {
    PieceKind::ALL
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| mix & 1 << i != 0)
        .fold(Counts::NONE, |c, (_, k)| c.plus(Counts::of(k, 1)))
}

impl CivilWar1863 {
    /// The directions ([`Square::direction_to`]) a group holding the kinds
    /// in `mix` may step to from `from`: every kind's step allowed
    /// ([`step_ok`](Self::step_ok)), its infantry aboard when it sails
    /// (P13). Read from the board's table, worked out once.
    pub(crate) fn open_steps(&self, from: Square, mix: usize) -> u8 {
        let table = self.board.steps(|| {
            Square::all()
                .map(|a| {
                    let mut row = [0; 8];
                    for (mix, dirs) in row.iter_mut().enumerate().skip(1) {
                        let group = one_of_each(mix);
                        for b in a.neighbours() {
                            if group
                                .kinds()
                                .all(|k| self.step_ok(k, a, b, sails(group)).is_ok())
                            {
                                *dirs |= 1 << a.direction_to(b).expect("a neighbour");
                            }
                        }
                    }
                    row
                })
                .collect()
        });
        table[from.index()][mix]
    }

    /// The paths from `from` of at most `most` steps, in the order of
    /// [`paths`], that a group of the side to move holding the kinds in
    /// `mix` may take: those [`check_path`](Self::check_path) allows,
    /// found from the table of steps. Each first step is looked at once
    /// for all the second steps beyond it: this runs for every stack a
    /// playout moves.
    pub(crate) fn open_paths(&self, from: Square, mix: usize, most: u8) -> OpenPaths {
        let side = self.to_move;
        let mut open = OpenPaths {
            paths: [Path::one(from); MOST_PATHS],
            len: 0,
        };
        let first = self.open_steps(from, mix);
        for a in from.neighbours() {
            let d = from.direction_to(a).expect("a neighbour");
            if first & 1 << d == 0 {
                continue;
            }
            open.push(Path::one(a));
            // P9: a move ends at an enemy square, never passes it.
            if most < 2 || self.hostile_to(side, a) {
                continue;
            }
            let second = self.open_steps(a, mix);
            for b in a.neighbours() {
                let d = a.direction_to(b).expect("a neighbour");
                if b != from && second & 1 << d != 0 {
                    open.push(Path::two(a, b));
                }
            }
        }
        open
    }

    /// Whether one piece of `kind` may step from `a` to its neighbour `b`
    /// (P1, P3, P5, P6, P11-P13); `aboard` says the infantry sails with its
    /// gunboat.
    pub(crate) fn step_ok(
        &self,
        kind: PieceKind,
        a: Square,
        b: Square,
        aboard: bool,
    ) -> Result<(), Refusal> {
        let board = self.board;
        match kind {
            PieceKind::Infantry => {
                if board.is_water_only(b) {
                    // P13: only infantry aboard, in a group with its gunboat.
                    return if aboard {
                        Ok(())
                    } else {
                        Err(Refusal::NotAboard { square: b })
                    };
                }
                let along_rail = board.rail_step(a, b);
                let pass = board.pass_between(a, b).is_some();
                // P5: mountains are entered only along the bed or by a pass.
                if board.holds_mountains(b) && !along_rail && !pass {
                    return Err(Refusal::Mountain { square: b });
                }
                // P6: a corner closed by the range on both flanks.
                if board.mountain_corner(a, b) && !along_rail && !pass {
                    return Err(Refusal::MountainCorner { from: a, to: b });
                }
                Ok(())
            }
            PieceKind::Cavalry => {
                if board.holds_land(b) {
                    Ok(())
                } else {
                    Err(Refusal::NoLand { kind, square: b })
                }
            }
            PieceKind::Gunboat => {
                if board.water_joined(a, b) {
                    Ok(())
                } else {
                    Err(Refusal::NoWaterJoin { from: a, to: b })
                }
            }
        }
    }

    /// Whether a group of `side` may go from `from` along `path` as an
    /// ordinary move: its length (P10-P12), each step for each kind, never
    /// through an enemy square or uncaptured enemy capital (P9), and not
    /// back where it began (P8).
    pub(crate) fn check_path(
        &self,
        side: Side,
        from: Square,
        pieces: Counts,
        path: &[Square],
    ) -> Result<(), Refusal> {
        if pieces.is_empty() {
            return Err(Refusal::NoPieceNamed);
        }
        let (slowest, most) = reach(pieces);
        if path.is_empty() || path.len() > usize::from(most) {
            return Err(Refusal::TooFar { slowest, most });
        }
        let aboard = sails(pieces);
        let mut prev = from;
        for (i, &next) in path.iter().enumerate() {
            if !prev.is_neighbour(next) {
                return Err(Refusal::NotNeighbour {
                    from: prev,
                    to: next,
                });
            }
            for kind in pieces.kinds() {
                self.step_ok(kind, prev, next, aboard)?;
            }
            if i + 1 < path.len() && self.hostile_to(side, next) {
                return Err(Refusal::ThroughEnemy { square: next });
            }
            prev = next;
        }
        if prev == from {
            return Err(Refusal::BackToStart);
        }
        Ok(())
    }

    /// The player's stack on `from` and whether `pieces` of it may move this
    /// turn: there (P10), unmoved (P7), not disabled (P23), not locked in
    /// (P32, P33).
    pub(crate) fn check_group(
        &self,
        from: Square,
        pieces: Counts,
        to: Option<Square>,
    ) -> Result<&Stack, Refusal> {
        let stack = self
            .stack(from)
            .filter(|s| s.side == self.to_move)
            .ok_or(Refusal::NoPieces { square: from })?;
        if pieces.is_empty() {
            return Err(Refusal::NoPieceNamed);
        }
        if !stack.all().contains(pieces) {
            return Err(Refusal::NotThere { square: from });
        }
        if !stack.unmoved.contains(pieces) {
            let attack = to.is_some_and(|to| self.hostile_to(self.to_move, to));
            return Err(Refusal::AlreadyMoved {
                square: from,
                attack,
            });
        }
        if !stack.unmoved.minus(stack.disabled).contains(pieces) {
            return Err(Refusal::Disabled { square: from });
        }
        if pieces.ground() > 0 {
            match stack.fort {
                Fort::None => {}
                Fort::UnfortifiedNow => return Err(Refusal::UnfortifiedThisTurn { square: from }),
                _ => return Err(Refusal::LockedIn { square: from }),
            }
        }
        Ok(stack)
    }

    /// Whether moving `pieces` off `stack` on `from` leaves infantry at sea
    /// without a gunboat to carry it (P14).
    pub(crate) fn strands_at_sea(&self, stack: &Stack, from: Square, pieces: Counts) -> bool {
        let left = stack.all().minus(pieces);
        self.board.is_water_only(from)
            && left.get(PieceKind::Infantry) > 0
            && left.get(PieceKind::Gunboat) == 0
    }

    /// Whether the group's arrival on `to` is allowed: an attack must be one
    /// the rules allow (P19, P23, P24, P26); joining a city fortified this
    /// turn is not (P31).
    pub(crate) fn check_arrival(&self, pieces: Counts, to: Square) -> Result<(), Refusal> {
        if self.hostile_to(self.to_move, to) {
            return self.check_attack(pieces.total(), to);
        }
        match self.stack(to) {
            Some(s) if s.fort == Fort::FortifiedNow && pieces.ground() > 0 => {
                Err(Refusal::FortifiedThisTurn { square: to })
            }
            _ => Ok(()),
        }
    }

    /// Whether a move of the turn is legal.
    pub(crate) fn check_move(
        &self,
        from: Square,
        pieces: Counts,
        path: &[Square],
    ) -> Result<(), Refusal> {
        let stack = self.check_group(from, pieces, path.last().copied())?;
        self.check_path(self.to_move, from, pieces, path)?;
        if self.strands_at_sea(stack, from, pieces) {
            return Err(Refusal::StrandedAtSea { square: from });
        }
        let to = *path.last().expect("check_path saw a step");
        self.check_arrival(pieces, to)
    }

    /// Moves a group of the side to move off `from` (P7): the pieces leave
    /// as moved; the marker goes back if no infantry or cavalry stays
    /// (P32).
    pub(crate) fn lift(&mut self, from: Square, pieces: Counts) {
        if let Some(stack) = self.stacks.get_mut(from) {
            stack.take_unmoved(pieces);
            if stack.all().is_empty() {
                self.stacks.set(from, None);
            }
        }
    }

    /// Sets a group down on a square of its side or an empty one, as moved
    /// (P10): it joins the stack there.
    pub(crate) fn set_down(&mut self, side: Side, pieces: Counts, to: Square) {
        let stack = self
            .stacks
            .get_or_insert(to, Stack::new(side, Counts::NONE));
        stack.moved = stack.moved.plus(pieces);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::civil_war_1863::core::board::Board;

    fn sq(n: &str) -> Square {
        Square::parse(n).unwrap()
    }

    fn game(text: &str) -> CivilWar1863 {
        text.parse().unwrap()
    }

    /// The table of steps gives `check_path`'s answer for every square,
    /// every mix of kinds and every path of the standard board.
    #[test]
    fn open_paths_agree_with_check_path_everywhere() {
        let g = CivilWar1863::empty(Board::standard(), Side::Union);
        for from in Square::all() {
            for mix in 1..8 {
                let group = one_of_each(mix);
                let most = reach(group).1;
                let allowed: Vec<Path> = paths(from, most)
                    .filter(|path| g.check_path(Side::Union, from, group, path).is_ok())
                    .collect();
                assert_eq!(
                    &*g.open_paths(from, mix, most),
                    allowed.as_slice(),
                    "{from} {group:?}"
                );
            }
        }
    }

    #[test]
    fn p2_p10_infantry_moves_one_square_in_any_direction() {
        let g = game("cw1863 1; south to move; U: none; C: E14 2I");
        let all = Counts::of(PieceKind::Infantry, 2);
        for n in sq("E14").neighbours() {
            assert_eq!(g.check_move(sq("E14"), all, &[n]), Ok(()), "{n}");
        }
        assert!(matches!(
            g.check_move(sq("E14"), all, &[sq("E15"), sq("E16")]),
            Err(Refusal::TooFar { most: 1, .. })
        ));
    }

    #[test]
    fn p11_cavalry_goes_two_steps_dog_leg_but_not_back() {
        let g = game("cw1863 1; south to move; U: none; C: E14 1C");
        let c = Counts::of(PieceKind::Cavalry, 1);
        assert_eq!(g.check_move(sq("E14"), c, &[sq("F14"), sq("G15")]), Ok(()));
        assert_eq!(
            g.check_move(sq("E14"), c, &[sq("F14"), sq("E14")]),
            Err(Refusal::BackToStart)
        );
    }

    #[test]
    fn p1_p11_cavalry_never_enters_water_only() {
        let board = Board::standard();
        let sea = Square::all().find(|&s| board.is_water_only(s)).unwrap();
        let land = sea.neighbours().find(|&n| board.holds_land(n)).unwrap();
        let mut g = CivilWar1863::empty(
            board,
            crate::games::civil_war_1863::core::side::Side::Confederacy,
        );
        g.set_stack(
            land,
            Some(Stack::new(
                Side::Confederacy,
                Counts::of(PieceKind::Cavalry, 1),
            )),
        );
        assert!(matches!(
            g.check_move(land, Counts::of(PieceKind::Cavalry, 1), &[sea]),
            Err(Refusal::NoLand { .. })
        ));
    }

    #[test]
    fn p9_no_move_passes_through_an_enemy_square() {
        let g = game("cw1863 1; south to move; U: F14 1I; C: E14 1C");
        let c = Counts::of(PieceKind::Cavalry, 1);
        assert_eq!(
            g.check_move(sq("E14"), c, &[sq("F14"), sq("G14")]),
            Err(Refusal::ThroughEnemy { square: sq("F14") })
        );
    }

    #[test]
    fn p3_p12_gunboats_follow_the_water_one_or_two_steps() {
        let board = Board::standard();
        // The Ohio at Louisville (G7) joins F7 and H7; the Ohio never meets Lake Erie.
        assert!(board.water_joined(sq("G7"), sq("F7")));
        let g = game("cw1863 2; north to move; U: G7 1G; C: A18 1I");
        let boat = Counts::of(PieceKind::Gunboat, 1);
        assert_eq!(g.check_move(sq("G7"), boat, &[sq("F7"), sq("E7")]), Ok(()));
        assert_eq!(
            g.check_move(sq("G7"), boat, &[sq("G8")]),
            Err(Refusal::NoWaterJoin {
                from: sq("G7"),
                to: sq("G8")
            })
        );
        assert!(matches!(
            g.check_move(sq("G7"), boat, &[sq("F7"), sq("E7"), sq("D8")]),
            Err(Refusal::TooFar { .. })
        ));
    }

    #[test]
    fn p5_infantry_enters_mountains_only_along_the_bed() {
        // Chattanooga (H11) is a mountain square on the Nashville & Chattanooga
        // line from G10; H12 is not on a line with it.
        let g = game("cw1863 1; south to move; U: A1 1I; C: G10 1I / H12 1I1C");
        let one = Counts::of(PieceKind::Infantry, 1);
        assert_eq!(g.check_move(sq("G10"), one, &[sq("H11")]), Ok(()));
        assert_eq!(
            g.check_move(sq("H12"), one, &[sq("H11")]),
            Err(Refusal::Mountain { square: sq("H11") })
        );
        assert_eq!(
            g.check_move(sq("H12"), Counts::of(PieceKind::Cavalry, 1), &[sq("H11")]),
            Ok(())
        );
    }

    #[test]
    fn p6_a_marked_pass_opens_a_closed_corner() {
        let board = Board::standard();
        assert!(board.mountain_corner(sq("I8"), sq("J9")));
        let g = game("cw1863 1; south to move; U: A1 1I; C: I8 1I");
        assert_eq!(
            g.check_move(sq("I8"), Counts::of(PieceKind::Infantry, 1), &[sq("J9")]),
            Ok(())
        );
    }

    #[test]
    fn p13_p14_infantry_goes_to_sea_only_aboard_and_is_never_left_there() {
        // R9 is open sea; Q9 a coast square joined to it.
        let board = Board::standard();
        assert!(board.is_water_only(sq("R9")) && board.water_joined(sq("Q9"), sq("R9")));
        let g = game("cw1863 2; north to move; U: Q9 2I1G; C: A18 1I");
        let infantry = Counts::of(PieceKind::Infantry, 2);
        assert_eq!(
            g.check_move(sq("Q9"), infantry, &[sq("R9")]),
            Err(Refusal::NotAboard { square: sq("R9") })
        );
        assert_eq!(
            g.check_move(sq("Q9"), Counts([2, 0, 1]), &[sq("R9")]),
            Ok(())
        );
        let g = game("cw1863 2; north to move; U: R9 2I1G; C: A18 1I");
        assert_eq!(
            g.check_move(sq("R9"), Counts::of(PieceKind::Gunboat, 1), &[sq("R10")]),
            Err(Refusal::StrandedAtSea { square: sq("R9") })
        );
        assert_eq!(g.check_move(sq("R9"), infantry, &[sq("Q9")]), Ok(()));
    }

    #[test]
    fn p10_pieces_that_joined_a_stack_cannot_move_again() {
        let g = game("cw1863 1; south to move; U: A1 1I; C: E14 1I m1I");
        let two = Counts::of(PieceKind::Infantry, 2);
        assert_eq!(
            g.check_move(sq("E14"), two, &[sq("E15")]),
            Err(Refusal::AlreadyMoved {
                square: sq("E14"),
                attack: false
            })
        );
        assert_eq!(
            g.check_move(sq("E14"), Counts::of(PieceKind::Infantry, 1), &[sq("E15")]),
            Ok(())
        );
    }
}
