//! Every legal order for a turn: PASS, the five kinds of move and attacks.

use crate::games::squares::core::board::{board, Space, SpaceSet};
use crate::games::squares::core::order::{Order, Step};
use crate::games::squares::core::state::{Half, Squares};
use crate::games::squares::core::unit::{Side, UnitId, UnitKind};
use crate::games::squares::engine::rules::{Access, Family};

/// The sets a turn's move generation keeps asking for, computed once.
pub(crate) struct MoveContext {
    pub side: Side,
    pub own_reserve: Space,
    pub enemy_reserve: Space,
    /// Empty clear squares.
    pub empty_clear: SpaceSet,
    /// Empty forests.
    pub empty_forest: SpaceSet,
    /// Where a one-step move may end: an empty clear square, the own reserve
    /// (R12), or the enemy reserve while it is empty (R13).
    pub enter: SpaceSet,
}

impl Squares {
    pub(crate) fn move_context(&self) -> MoveContext {
        let b = board();
        let side = self.to_move;
        let own_reserve = b.reserve(side);
        let enemy_reserve = b.reserve(side.opponent());
        let free = !self.occupied() & !b.reserves();
        let empty_clear = free & !b.forests();
        let mut enter = empty_clear | own_reserve.set();
        if self.reserve_count(side.opponent()) == 0 {
            enter |= enemy_reserve.set();
        }
        MoveContext {
            side,
            own_reserve,
            enemy_reserve,
            empty_clear,
            empty_forest: free & b.forests(),
            enter,
        }
    }

    /// Whether a unit may be the moving unit this turn: not resting after a
    /// retreat (R21) and not at its consecutive-turn limit (R6).
    #[inline]
    pub(crate) fn may_move(&self, u: UnitId) -> bool {
        let s = self.units[u.index()];
        !s.inactive && s.move_run < 2
    }

    /// The unit a reserve order for `kind` acts on (R7): of the eligible
    /// units of that type in `side`'s reserve, the one with the shortest run,
    /// then the lowest number (S4); `except` is a unit already moved this action.
    pub(crate) fn reserve_pick(
        &self,
        side: Side,
        kind: UnitKind,
        except: Option<UnitId>,
    ) -> Option<UnitId> {
        self.reserve_units(side)
            .filter(|&u| u.kind() == kind && Some(u) != except && self.may_move(u))
            .min_by_key(|&u| {
                let s = self.units[u.index()];
                // The number decides only between units whose marks are the
                // same, which the position string cannot tell apart.
                (s.move_run, s.attack_run, s.retreated, u.index())
            })
    }

    /// The units that may move, with the square they move from and the unit
    /// word their orders carry (only for a reserve, R7).
    fn movers(&self, ctx: &MoveContext, out: &mut Vec<(UnitId, Space, Option<UnitKind>)>) {
        for s in self.occupied_by(ctx.side) {
            let u = UnitId(self.at[s.index()]);
            if self.may_move(u) {
                out.push((u, s, None));
            }
        }
        for &kind in self.variant.kinds() {
            if let Some(u) = self.reserve_pick(ctx.side, kind, None) {
                out.push((u, ctx.own_reserve, Some(kind)));
            }
        }
    }

    /// Appends every legal order for the current turn.
    pub(crate) fn turn_orders(&self, out: &mut Vec<Order>) {
        let ctx = self.move_context();
        // R3, R4: PASS only on an ordinary turn after a turn that was not a PASS.
        if self.half == Half::Single && !self.passed[ctx.side.index()] {
            out.push(Order::Pass);
        }
        let mut movers = Vec::with_capacity(20);
        self.movers(&ctx, &mut movers);
        for &(u, from, unit) in &movers {
            self.unit_moves(&ctx, u.kind(), from, unit, out);
        }
        self.two_cavalry_moves(&ctx, &movers, out);
        self.attacks(&ctx, out);
    }

    /// Single-unit moves of a unit of `kind` standing on `from`.
    fn unit_moves(
        &self,
        ctx: &MoveContext,
        kind: UnitKind,
        from: Space,
        unit: Option<UnitKind>,
        out: &mut Vec<Order>,
    ) {
        let b = board();
        let step = |to: Space, via: Option<Space>| {
            Order::Move(Step {
                from,
                via,
                to,
                unit,
            })
        };
        let rules = self.variant.unit(kind);
        let whole_double_turn = self.half == Half::First;
        let not_here = !from.set();
        // The foot enter forests across an edge (R9, N4); everyone else
        // across an edge or a corner (R10, R11c, N5).
        let forest_reach = if rules.family == Family::Foot {
            b.edge(from)
        } else {
            b.adjacent(from)
        };
        let mut reach = b.edge(from);
        if rules.corner == Access::Step {
            reach |= b.corner(from);
        }
        if rules.steps == 1 {
            // R9, R10: one step into an empty clear square (or a reserve,
            // R12, R13); N4: Light Infantry's forest step is ordinary.
            let mut one = reach & ctx.enter & not_here;
            if rules.forest == Access::Step {
                one |= forest_reach & ctx.empty_forest;
            }
            for to in one {
                out.push(step(to, None));
            }
        } else {
            // R11a, N5, N6: one or two steps, never into or through a
            // forest, the square stepped through empty (or the own reserve,
            // R12). The enemy reserve is a destination only: entering it
            // ends the game.
            let one = reach & ctx.enter & not_here;
            for to in one {
                out.push(step(to, None));
            }
            let mut reached = one | from.set();
            let through = reach & (ctx.empty_clear | ctx.own_reserve.set());
            for via in through {
                let new = b.adjacent(via) & ctx.enter & !reached;
                for to in new {
                    out.push(step(to, Some(via)));
                }
                reached |= new;
            }
            // R11c: one step into an adjacent empty forest.
            if rules.forest == Access::Step {
                for to in forest_reach & ctx.empty_forest {
                    out.push(step(to, None));
                }
            }
        }
        // R5: a diagonal step or a forest entry that takes the whole double turn.
        if whole_double_turn {
            let mut special = SpaceSet::EMPTY;
            if rules.corner == Access::WholeDoubleTurn {
                special |= b.corner(from) & ctx.empty_clear;
            }
            if rules.forest == Access::WholeDoubleTurn {
                special |= forest_reach & ctx.empty_forest;
            }
            for to in special {
                out.push(step(to, None));
            }
        }
    }

    /// Where a cavalry on `from` may go in a two-cavalry move (R11b): one step,
    /// edge or corner, into an empty clear square or the own reserve, given
    /// the squares `occupied` at that moment.
    fn cavalry_single_steps(ctx: &MoveContext, from: Space, occupied: SpaceSet) -> SpaceSet {
        let b = board();
        let clear_free = !occupied & !b.reserves() & !b.forests();
        b.adjacent(from) & (clear_free | ctx.own_reserve.set()) & !from.set()
    }

    /// R11b: two cavalry one step each. They move one after the other, so the
    /// second may enter the square the first left. An order that could be
    /// made in either sequence is listed once, its parts sorted by square,
    /// unless both parts leave the reserve with units that differ (S2).
    fn two_cavalry_moves(
        &self,
        ctx: &MoveContext,
        movers: &[(UnitId, Space, Option<UnitKind>)],
        out: &mut Vec<Order>,
    ) {
        let mut cavalry: Vec<(Space, Option<UnitKind>)> = movers
            .iter()
            .filter(|(u, _, _)| self.variant.unit(u.kind()).pairs)
            .map(|&(_, s, k)| (s, k))
            .collect();
        // A second cavalry from the reserve, if there is one (R7). It pairs
        // only with the first: with anything else it is the first pick.
        let mut second_from_reserve = None;
        // S2: R7 acts part by part, so the part written first takes the
        // reserve's first pick. When the first two picks would leave the
        // move with different runs, which one goes where matters: both
        // sequences are listed.
        let mut picks_differ = false;
        let first_from_reserve = cavalry
            .iter()
            .position(|&(_, k)| k == Some(UnitKind::Cavalry));
        if let Some(first) = self.reserve_pick(ctx.side, UnitKind::Cavalry, None) {
            if let Some(second) = self.reserve_pick(ctx.side, UnitKind::Cavalry, Some(first)) {
                second_from_reserve = Some(cavalry.len());
                cavalry.push((ctx.own_reserve, Some(UnitKind::Cavalry)));
                picks_differ =
                    self.units[first.index()].move_run != self.units[second.index()].move_run;
            }
        }
        if cavalry.len() < 2 {
            return;
        }
        let occupied = self.occupied();
        let reserves = board().reserves();
        let after = |occ: SpaceSet, from: Space, to: Space| {
            let mut occ = occ & !from.set();
            if !reserves.contains(to) {
                occ |= to.set();
            }
            occ
        };
        for (i, &(p_from, p_unit)) in cavalry.iter().enumerate() {
            for (j, &(q_from, q_unit)) in cavalry.iter().enumerate() {
                if i == j {
                    continue;
                }
                let both_from_reserve = p_unit.is_some() && q_unit.is_some();
                let pairs_with_second = |k: usize| first_from_reserve == Some(k);
                // The same type twice from the reserve is one order, listed
                // once; N37: a cavalry and the heavy cavalry from the reserve
                // are two orders, one per assignment of the destinations.
                if (both_from_reserve && p_unit == q_unit && i > j)
                    || (second_from_reserve == Some(i) && !pairs_with_second(j))
                    || (second_from_reserve == Some(j) && !pairs_with_second(i))
                {
                    continue;
                }
                for x in Self::cavalry_single_steps(ctx, p_from, occupied) {
                    let occ_after_p = after(occupied, p_from, x);
                    for y in Self::cavalry_single_steps(ctx, q_from, occ_after_p) {
                        let in_order = (p_from, x) < (q_from, y);
                        let keep = if both_from_reserve {
                            // The first part takes the first R7 pick. Two
                            // alike units make one move, listed once with its
                            // destinations in board order; two that differ
                            // make a move per sequence (S2). A cavalry and
                            // the heavy cavalry are listed per assignment,
                            // in board order (N37).
                            x < y || (p_unit == q_unit && picks_differ)
                        } else if in_order {
                            true
                        } else {
                            // Listed in this sequence only when the sorted one
                            // is illegal (the second follows into the first's square).
                            let q_first = Self::cavalry_single_steps(ctx, q_from, occupied);
                            let p_second =
                                Self::cavalry_single_steps(ctx, p_from, after(occupied, q_from, y));
                            !(q_first.contains(y) && p_second.contains(x))
                        };
                        if keep {
                            out.push(Order::MoveTwo(
                                Step {
                                    from: p_from,
                                    via: None,
                                    to: x,
                                    unit: p_unit,
                                },
                                Step {
                                    from: q_from,
                                    via: None,
                                    to: y,
                                    unit: q_unit,
                                },
                            ));
                        }
                    }
                }
            }
        }
    }

    /// Whether two cavalry steps, each already legal as a part of some listed
    /// two-cavalry move, are legal in the sequence written (S2).
    pub(crate) fn two_cavalry_sequence_ok(&self, first: &Step, second: &Step) -> bool {
        let ctx = self.move_context();
        let occupied = self.occupied();
        if !Self::cavalry_single_steps(&ctx, first.from, occupied).contains(first.to) {
            return false;
        }
        let mut after = occupied & !first.from.set();
        if !board().reserves().contains(first.to) {
            after |= first.to.set();
        }
        Self::cavalry_single_steps(&ctx, second.from, after).contains(second.to)
    }

    /// The squares a unit on `from` may attack or support into under the
    /// artillery pin (R16; the Horse Battery pins too): everything, only the
    /// one adjacent enemy artillery, or nothing when two or more are adjacent.
    pub(crate) fn pin_allows(&self, side: Side, from: Space) -> SpaceSet {
        let pinning = board().adjacent(from) & self.guns_squares(side.opponent());
        match pinning.len() {
            0 => SpaceSet(u32::MAX),
            1 => pinning,
            _ => SpaceSet::EMPTY,
        }
    }

    /// The board squares holding `side`'s artillery family (never its reserve).
    pub(crate) fn guns_squares(&self, side: Side) -> SpaceSet {
        let mut set = SpaceSet::EMPTY;
        for s in self.occupied_by(side) {
            if self.family_of(UnitId(self.at[s.index()])) == Family::Guns {
                set |= s.set();
            }
        }
        set
    }

    /// The squares a unit on `from` could attack, before R15 and R16: enemy
    /// units edge-adjacent, and the enemy reserve while it holds a unit (R14).
    pub(crate) fn attackable(&self, ctx: &MoveContext, from: Space) -> SpaceSet {
        let b = board();
        let mut targets = b.edge(from) & self.occupied_by(ctx.side.opponent());
        if b.edge(from).contains(ctx.enemy_reserve) && self.reserve_count(ctx.side.opponent()) > 0 {
            targets |= ctx.enemy_reserve.set();
        }
        targets
    }

    /// A unit's family in this game.
    #[inline]
    pub(crate) fn family_of(&self, u: UnitId) -> Family {
        self.variant.unit(u.kind()).family
    }

    /// Whether the attacking unit `a` may attack `target` (R15, N7-N10,
    /// N18), unsupported (`support` None) or with the unit `support`.
    pub(crate) fn may_attack(&self, a: UnitId, target: Space, support: Option<UnitId>) -> bool {
        let Some(d) = self.unit_at(target) else {
            // N34: any unit may attack the enemy reserve.
            return true;
        };
        let rules = self.variant.unit(a.kind());
        // N10, N28: directly after its own PASS a cavalry unit charges the foot.
        let charge = rules.charges && self.half == Half::First && self.family_of(d) == Family::Foot;
        charge
            || match support {
                None => rules.attacks_alone.contains(d.kind()),
                Some(s) => {
                    rules.attacks_supported.contains(d.kind())
                        || (rules.grand_battery && self.family_of(s) == Family::Guns)
                }
            }
    }

    /// Every legal attack (R14-R16, R21, R25, R6).
    fn attacks(&self, ctx: &MoveContext, out: &mut Vec<Order>) {
        let b = board();
        let own = self.occupied_by(ctx.side);
        if own.is_empty() {
            return;
        }
        // What each own unit on the board may support into (R16, R21).
        let mut support_ok = [SpaceSet::EMPTY; 32];
        for s in own {
            let u = UnitId(self.at[s.index()]);
            if self.is_active(u) {
                support_ok[s.index()] = self.pin_allows(ctx.side, s);
            }
        }
        for from in own {
            let u = UnitId(self.at[from.index()]);
            let state = self.units[u.index()];
            if state.inactive || state.attack_run >= 2 {
                continue;
            }
            let targets = self.attackable(ctx, from) & support_ok[from.index()];
            for target in targets {
                if self.may_attack(u, target, None) {
                    out.push(Order::Attack {
                        attacker: from,
                        target,
                        support: None,
                    });
                }
                for support in b.adjacent(target) & own & !from.set() {
                    if support_ok[support.index()].contains(target)
                        && self.may_attack(u, target, Some(UnitId(self.at[support.index()])))
                    {
                        out.push(Order::Attack {
                            attacker: from,
                            target,
                            support: Some(support),
                        });
                    }
                }
            }
        }
    }
}
