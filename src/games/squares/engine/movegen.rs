//! Every legal order for a turn: PASS, the five kinds of move and attacks.
//!
//! The generator is the engine's hot loop (a computer opponent's playouts
//! list the orders of every position they pass), so it allocates nothing:
//! orders go to an [`OrderSink`], which is the caller's list or, for R8's
//! "is there any legal order", a test that stops at the first one.

use crate::games::squares::core::board::{board, Board, Space, SpaceSet};
use crate::games::squares::core::order::{Order, Step};
use crate::games::squares::core::state::{unit_bit, Half, Squares};
use crate::games::squares::core::unit::{Side, UnitId, UnitKind, UnitState, ARMY_SIZE};
use crate::games::squares::engine::rules::{Access, Family};

/// Where generated orders go.
pub(crate) trait OrderSink {
    /// Takes one order; false when it wants no more.
    fn take(&mut self, order: Order) -> bool;

    /// Takes `make(s)` for every space `s` of `set`, lowest first; false
    /// when it wants no more. Moves come a destination set at a time, so
    /// that a sink that only counts or skips needs no loop per order.
    #[inline]
    fn take_each(&mut self, set: SpaceSet, make: impl Fn(Space) -> Order) -> bool {
        for s in set {
            if !self.take(make(s)) {
                return false;
            }
        }
        true
    }

    /// Offered the next `n` orders before they are generated: true when it
    /// has taken them into account unseen (a count, or a skip on the way to
    /// one index), false when it wants them one by one.
    #[inline]
    fn skip(&mut self, _n: usize) -> bool {
        false
    }
}

impl OrderSink for Vec<Order> {
    #[inline]
    fn take(&mut self, order: Order) -> bool {
        self.push(order);
        true
    }

    #[inline]
    fn take_each(&mut self, set: SpaceSet, make: impl Fn(Space) -> Order) -> bool {
        self.extend(set.iter().map(make));
        true
    }
}

/// A sink that only notes that some order exists (R8), and stops there.
#[derive(Default)]
pub(crate) struct AnyOrder(pub bool);

impl OrderSink for AnyOrder {
    #[inline]
    fn take(&mut self, _: Order) -> bool {
        self.0 = true;
        false
    }

    #[inline]
    fn take_each(&mut self, set: SpaceSet, _: impl Fn(Space) -> Order) -> bool {
        self.0 |= !set.is_empty();
        !self.0
    }
}

/// A sink that counts the orders: how many a listing would hold.
#[derive(Default)]
pub(crate) struct CountOrders(pub usize);

impl OrderSink for CountOrders {
    #[inline]
    fn take(&mut self, _: Order) -> bool {
        self.0 += 1;
        true
    }

    #[inline]
    fn take_each(&mut self, set: SpaceSet, _: impl Fn(Space) -> Order) -> bool {
        self.0 += set.len();
        true
    }

    #[inline]
    fn skip(&mut self, n: usize) -> bool {
        self.0 += n;
        true
    }
}

/// A sink that keeps the order at one index of the listing, and stops there.
pub(crate) struct NthOrder {
    /// Orders still to skip before the one wanted.
    pub skip: usize,
    /// The order at the index, once reached.
    pub found: Option<Order>,
}

impl OrderSink for NthOrder {
    #[inline]
    fn take(&mut self, order: Order) -> bool {
        if self.skip == 0 {
            self.found = Some(order);
            return false;
        }
        self.skip -= 1;
        true
    }

    #[inline]
    fn take_each(&mut self, set: SpaceSet, make: impl Fn(Space) -> Order) -> bool {
        let n = set.len();
        if self.skip >= n {
            self.skip -= n;
            return true;
        }
        self.found = set.nth_space(self.skip).map(make);
        false
    }

    #[inline]
    fn skip(&mut self, n: usize) -> bool {
        if self.skip >= n {
            self.skip -= n;
            true
        } else {
            false
        }
    }
}

/// Hands an order to the sink, and returns `false` from the generating
/// function when the sink wants no more.
macro_rules! emit {
    ($out:expr, $order:expr) => {
        if !$out.take($order) {
            return false;
        }
    };
}

/// Hands the orders `$make(s)` for every space of `$set` to the sink, and
/// returns `false` from the generating function when it wants no more.
macro_rules! emit_each {
    ($out:expr, $set:expr, $make:expr) => {
        if !$out.take_each($set, $make) {
            return false;
        }
    };
}

/// A unit that may move this turn, where from, and the unit word its
/// orders carry (only for a reserve, R7).
type Mover = (UnitId, Space, Option<UnitKind>);

/// The movers of one turn, on the stack: at most a side's 16 units on the
/// board and one per unit type from its reserve.
struct Movers {
    items: [Mover; 24],
    len: usize,
}

impl Movers {
    fn new() -> Movers {
        Movers {
            items: [(UnitId(0), Space::new(0), None); 24],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: Mover) {
        self.items[self.len] = m;
        self.len += 1;
    }

    #[inline]
    fn as_slice(&self) -> &[Mover] {
        &self.items[..self.len]
    }
}

/// The sets a turn's move generation keeps asking for, computed once.
pub(crate) struct MoveContext {
    /// The board's geometry.
    pub board: &'static Board,
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
    /// Where a cavalry step of a two-cavalry move may end, before the
    /// squares occupied at that moment are taken out: the clear squares
    /// and the own reserve (R11b).
    pub cavalry_enter: SpaceSet,
}

impl Squares {
    #[inline(always)]
    pub(crate) fn move_context(&self) -> MoveContext {
        let b = board();
        let side = self.to_move;
        let own_reserve = b.reserve(side);
        let enemy_reserve = b.reserve(side.opponent());
        let free = !self.occupied() & !b.reserves();
        let empty_clear = free & !b.forests();
        let mut enter = empty_clear | own_reserve.set();
        if self.reserved[side.opponent().index()] == 0 {
            enter |= enemy_reserve.set();
        }
        MoveContext {
            board: b,
            side,
            own_reserve,
            enemy_reserve,
            empty_clear,
            empty_forest: free & b.forests(),
            enter,
            cavalry_enter: (!b.reserves() & !b.forests()) | own_reserve.set(),
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
        let mut mask = self.reserved[side.index()] & self.variant.kind_mask(kind);
        if let Some(e) = except.filter(|e| e.side() == side) {
            mask &= !unit_bit(e);
        }
        let mut best: Option<((u8, u8, bool, usize), UnitId)> = None;
        for u in self.units_in(side, mask) {
            let s = self.units[u.index()];
            if s == UnitState::default() {
                // No run, no rest: nothing sorts before it, and the units
                // come by number.
                return Some(u);
            }
            if !self.may_move(u) {
                continue;
            }
            // The number decides only between units whose marks are the
            // same, which the position string cannot tell apart.
            let key = (s.move_run, s.attack_run, s.retreated, u.index());
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, u));
            }
        }
        best.map(|(_, u)| u)
    }

    /// The units that may move, with the square they move from and the unit
    /// word their orders carry (only for a reserve, R7).
    #[inline(always)]
    fn movers(&self, ctx: &MoveContext, out: &mut Movers) {
        for s in self.occupied_by(ctx.side) {
            let u = UnitId(self.at[s.index()]);
            if self.may_move(u) {
                out.push((u, s, None));
            }
        }
        let reserved = self.reserved[ctx.side.index()];
        if reserved == 0 {
            return;
        }
        for &kind in self.variant.kinds() {
            let mask = reserved & self.variant.kind_mask(kind);
            if mask == 0 {
                continue;
            }
            // R7, S4: the lowest-numbered unit of the type with no run and
            // no rest is the pick whenever there is one, and the first unit
            // usually is; `reserve_pick` settles the rest.
            let n = mask.trailing_zeros() as usize;
            let first = UnitId::new(ctx.side, n, kind);
            if self.units[first.index()] == UnitState::default() {
                out.push((first, ctx.own_reserve, Some(kind)));
            } else if let Some(u) = self.reserve_pick(ctx.side, kind, None) {
                out.push((u, ctx.own_reserve, Some(kind)));
            }
        }
    }

    /// Appends every legal order for the current turn.
    pub(crate) fn turn_orders(&self, out: &mut Vec<Order>) {
        self.turn_orders_to(out);
    }

    /// Whether the player to move has any legal turn order: the R8 test,
    /// which stops at the first order found.
    pub(crate) fn any_turn_order(&self) -> bool {
        let mut any = AnyOrder::default();
        self.turn_orders_to(&mut any);
        any.0
    }

    /// Hands every legal order for the current turn to `out`, until it
    /// wants no more; false when it stopped early.
    fn turn_orders_to(&self, out: &mut impl OrderSink) -> bool {
        let ctx = self.move_context();
        if self.may_pass() {
            emit!(out, Order::Pass);
        }
        let mut movers = Movers::new();
        self.movers(&ctx, &mut movers);
        for &(u, from, unit) in movers.as_slice() {
            if !self.unit_moves(&ctx, u.kind(), from, unit, out) {
                return false;
            }
        }
        self.two_cavalry_moves(&ctx, movers.as_slice(), out) && self.attacks(&ctx, out)
    }

    /// R3, R4: PASS only on an ordinary turn after a turn that was not a PASS.
    #[inline]
    fn may_pass(&self) -> bool {
        self.half == Half::Single && !self.passed[self.to_move.index()]
    }

    /// The turn order that [`Squares::turn_orders_to`] would hand on at the
    /// index `pick` chooses given how many it would (`None`, without calling
    /// `pick`, when there is none). One pass counts the orders of each part
    /// of the listing (PASS, each mover's moves, the two-cavalry moves, the
    /// attacks); only the part holding the chosen index is generated, up to
    /// that order.
    pub(crate) fn pick_turn_order(&self, pick: impl FnOnce(usize) -> usize) -> Option<Order> {
        // Counting is mostly bit counts, which without the POPCNT
        // instruction (not in the baseline x86-64 target) take a dozen
        // instructions each: the same code is compiled a second time with
        // it, and chosen when the processor has it. The check is a cached
        // flag.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has just been found to have POPCNT.
            return unsafe { self.pick_turn_order_popcnt(pick) };
        }
        self.pick_turn_order_portable(pick)
    }

    /// [`Squares::pick_turn_order_portable`] compiled to use POPCNT: the
    /// generation it calls is inlined into it, so its bit counts are too.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn pick_turn_order_popcnt(&self, pick: impl FnOnce(usize) -> usize) -> Option<Order> {
        self.pick_turn_order_portable(pick)
    }

    /// [`Squares::pick_turn_order`] for any processor.
    #[inline(always)]
    fn pick_turn_order_portable(&self, pick: impl FnOnce(usize) -> usize) -> Option<Order> {
        let ctx = self.move_context();
        let pass = usize::from(self.may_pass());
        let mut movers = Movers::new();
        self.movers(&ctx, &mut movers);
        let movers = movers.as_slice();
        // The count after each mover's moves.
        let mut ends = [0usize; 24];
        let mut count = CountOrders(pass);
        for (end, &(u, from, unit)) in ends.iter_mut().zip(movers) {
            self.unit_moves(&ctx, u.kind(), from, unit, &mut count);
            *end = count.0;
        }
        let moved = count.0;
        count.0 += self.two_cavalry_count(&ctx, movers);
        let paired = count.0;
        self.attacks(&ctx, &mut count);
        if count.0 == 0 {
            return None;
        }
        let k = pick(count.0);
        if k < pass {
            return Some(Order::Pass);
        }
        let mut nth = NthOrder {
            skip: 0,
            found: None,
        };
        if k < moved {
            let i = ends[..movers.len()].partition_point(|&end| end <= k);
            let (u, from, unit) = movers[i];
            nth.skip = k - if i == 0 { pass } else { ends[i - 1] };
            self.unit_moves(&ctx, u.kind(), from, unit, &mut nth);
        } else if k < paired {
            nth.skip = k - moved;
            self.two_cavalry_moves(&ctx, movers, &mut nth);
        } else {
            nth.skip = k - paired;
            self.attacks(&ctx, &mut nth);
        }
        nth.found
    }

    /// Single-unit moves of a unit of `kind` standing on `from`.
    #[inline(always)]
    fn unit_moves(
        &self,
        ctx: &MoveContext,
        kind: UnitKind,
        from: Space,
        unit: Option<UnitKind>,
        out: &mut impl OrderSink,
    ) -> bool {
        let b = ctx.board;
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
        // The order of listing is the choices' order in the mail: one-step
        // moves, then two-step moves, then forest steps, then the moves
        // that take a whole double turn.
        let mut one = reach & ctx.enter & not_here;
        let mut through = SpaceSet::EMPTY;
        let mut two = SpaceSet::EMPTY;
        let mut forest = SpaceSet::EMPTY;
        if rules.steps == 1 {
            // R9, R10: one step into an empty clear square (or a reserve,
            // R12, R13); N4: Light Infantry's forest step is ordinary.
            if rules.forest == Access::Step {
                one |= forest_reach & ctx.empty_forest;
            }
        } else {
            // R11a, N5, N6: one or two steps, never into or through a
            // forest, the square stepped through empty (or the own reserve,
            // R12). The enemy reserve is a destination only: entering it
            // ends the game.
            through = reach & (ctx.empty_clear | ctx.own_reserve.set());
            two = b.adjacent_of(through) & ctx.enter & !one & not_here;
            // R11c: one step into an adjacent empty forest.
            if rules.forest == Access::Step {
                forest = forest_reach & ctx.empty_forest;
            }
        }
        // R5: a diagonal step or a forest entry that takes the whole double turn.
        let mut special = SpaceSet::EMPTY;
        if whole_double_turn {
            if rules.corner == Access::WholeDoubleTurn {
                special |= b.corner(from) & ctx.empty_clear;
            }
            if rules.forest == Access::WholeDoubleTurn {
                special |= forest_reach & ctx.empty_forest;
            }
        }
        // The four sets never share a square: `two` leaves out `one`, only
        // `one` and `special` may hold forests (and then never both: a type
        // enters forests as an ordinary step or as a whole double turn), and
        // `special`'s other squares are corners, outside an edge-only
        // `reach`. So one bit count of their union counts the orders.
        debug_assert!(
            one.len() + two.len() + forest.len() + special.len()
                == (one | two | forest | special).len()
        );
        if out.skip((one | two | forest | special).len()) {
            return true;
        }
        emit_each!(out, one, |to| step(to, None));
        if !two.is_empty() {
            // Each two-step destination once, through the first middle
            // square that reaches it.
            let mut reached = one | from.set();
            for via in through {
                let new = b.adjacent(via) & ctx.enter & !reached;
                emit_each!(out, new, |to| step(to, Some(via)));
                reached |= new;
            }
        }
        emit_each!(out, forest, |to| step(to, None));
        emit_each!(out, special, |to| step(to, None));
        true
    }

    /// Where a cavalry on `from` may go in a two-cavalry move (R11b): one step,
    /// edge or corner, into an empty clear square or the own reserve, given
    /// the squares `occupied` at that moment.
    #[inline]
    fn cavalry_single_steps(ctx: &MoveContext, from: Space, occupied: SpaceSet) -> SpaceSet {
        // `occupied` never holds a reserve, so the own reserve stays open.
        ctx.board.adjacent(from) & ctx.cavalry_enter & !occupied & !from.set()
    }

    /// The cavalry a two-cavalry move may take (R11b): each mover whose
    /// type pairs, with where it stands, its reserve word and its steps
    /// before the other moves, and a second cavalry from the reserve (R7).
    #[inline(always)]
    fn cavalry_table(&self, ctx: &MoveContext, movers: &[Mover]) -> CavalryTable {
        // Each cavalry (at most a side's four, N2, and a second one from the
        // reserve): where from, its reserve word, and its steps before the
        // other moves.
        let mut cavalry = [(ctx.own_reserve, None, SpaceSet::EMPTY); 8];
        let mut count = 0;
        let occupied = self.occupied();
        for &(u, s, k) in movers {
            if self.variant.unit(u.kind()).pairs {
                cavalry[count] = (s, k, Self::cavalry_single_steps(ctx, s, occupied));
                count += 1;
            }
        }
        // A second cavalry from the reserve, if there is one (R7). It pairs
        // only with the first: with anything else it is the first pick.
        let mut second_from_reserve = None;
        // S2: R7 acts part by part, so the part written first takes the
        // reserve's first pick. When the first two picks would leave the
        // move with different runs, which one goes where matters: both
        // sequences are listed.
        let mut picks_differ = false;
        let first_from_reserve = cavalry[..count]
            .iter()
            .position(|&(_, k, _)| k == Some(UnitKind::Cavalry));
        if let Some(first) = first_from_reserve
            .and_then(|i| {
                movers
                    .iter()
                    .find(|m| m.1 == ctx.own_reserve && m.2 == cavalry[i].1)
            })
            .map(|m| m.0)
        {
            if let Some(second) = self.reserve_pick(ctx.side, UnitKind::Cavalry, Some(first)) {
                second_from_reserve = Some(count);
                cavalry[count] = (
                    ctx.own_reserve,
                    Some(UnitKind::Cavalry),
                    Self::cavalry_single_steps(ctx, ctx.own_reserve, occupied),
                );
                count += 1;
                picks_differ =
                    self.units[first.index()].move_run != self.units[second.index()].move_run;
            }
        }
        CavalryTable {
            cavalry,
            count,
            first_from_reserve,
            second_from_reserve,
            picks_differ,
        }
    }

    /// How many orders [`Squares::two_cavalry_moves`] hands on, for the
    /// counting pass: each pair of cavalry taken once, both sequences
    /// counted together from their step counts (S2: against board order
    /// only the sequence that follows into the square left is listed).
    #[inline(always)]
    fn two_cavalry_count(&self, ctx: &MoveContext, movers: &[Mover]) -> usize {
        let table = self.cavalry_table(ctx, movers);
        let count = table.count;
        if count < 2 {
            return 0;
        }
        let cavalry = &table.cavalry[..count];
        let reserves = ctx.board.reserves();
        // Whether the cavalry on `q` may follow into the square `p` leaves.
        let follows = |q: Space, p: Space| {
            !(ctx.board.adjacent(q) & ctx.cavalry_enter & !reserves & p.set()).is_empty()
        };
        let mut total = 0;
        for (i, &(i_from, i_unit, i_steps)) in cavalry.iter().enumerate() {
            for (j, &(j_from, j_unit, j_steps)) in cavalry.iter().enumerate().skip(i + 1) {
                // R7: the second pick from the reserve pairs only with the first.
                if (table.second_from_reserve == Some(i) && table.first_from_reserve != Some(j))
                    || (table.second_from_reserve == Some(j) && table.first_from_reserve != Some(i))
                {
                    continue;
                }
                if i_unit.is_some() && j_unit.is_some() {
                    // Both from the reserve: one sequence for two alike
                    // units, both for a cavalry and the heavy cavalry (N37).
                    total += self.reserve_pair_count(ctx, &table, i, j);
                    if i_unit != j_unit {
                        total += self.reserve_pair_count(ctx, &table, j, i);
                    }
                    continue;
                }
                // Not both from the reserve, so on different squares.
                let (p_from, p_steps, q_from, q_steps) = if i_from < j_from {
                    (i_from, i_steps, j_from, j_steps)
                } else {
                    (j_from, j_steps, i_from, i_steps)
                };
                let (p_len, q_len) = (p_steps.len(), q_steps.len());
                // In board order: every (x, y) but y on x's square, y among
                // q's steps before p moves and p's square when it may follow.
                total += p_len * (q_len + usize::from(follows(q_from, p_from)))
                    - (p_steps & q_steps & !reserves).len();
                // Against board order: only p following into q's square.
                if follows(p_from, q_from) {
                    total += q_len;
                }
            }
        }
        total
    }

    /// The orders of two cavalry from the reserve, `p` moving first.
    #[inline(never)]
    fn reserve_pair_count(
        &self,
        ctx: &MoveContext,
        table: &CavalryTable,
        p: usize,
        q: usize,
    ) -> usize {
        let (p_from, p_unit, p_steps) = table.cavalry[p];
        let (q_from, q_unit, _) = table.cavalry[q];
        let reserves = ctx.board.reserves();
        let q_steps = Self::cavalry_single_steps(ctx, q_from, self.occupied() & !p_from.set());
        let every_sequence = p_unit == q_unit && table.picks_differ;
        let mut n = 0;
        for x in p_steps {
            let mut ys = q_steps & !(x.set() & !reserves);
            if !every_sequence {
                ys &= SpaceSet((u32::MAX << x.index()) << 1);
            }
            n += ys.len();
        }
        n
    }

    /// R11b: two cavalry one step each. They move one after the other, so the
    /// second may enter the square the first left. An order that could be
    /// made in either sequence is listed once, its parts sorted by square,
    /// unless both parts leave the reserve with units that differ (S2).
    #[inline(always)]
    fn two_cavalry_moves(
        &self,
        ctx: &MoveContext,
        movers: &[Mover],
        out: &mut impl OrderSink,
    ) -> bool {
        let CavalryTable {
            cavalry,
            count,
            first_from_reserve,
            second_from_reserve,
            picks_differ,
        } = self.cavalry_table(ctx, movers);
        let occupied = self.occupied();
        if count < 2 {
            return true;
        }
        let cavalry = &cavalry[..count];
        let mut cavalry_len = [0usize; 8];
        for (len, c) in cavalry_len.iter_mut().zip(cavalry) {
            *len = c.2.len();
        }
        let reserves = ctx.board.reserves();
        for (i, &(p_from, p_unit, p_steps)) in cavalry.iter().enumerate() {
            let p_len = cavalry_len[i];
            // The first part leaves `p_from`: the second may step into it.
            let occupied_after_p_leaves = occupied & !p_from.set();
            for (j, &(q_from, q_unit, _)) in cavalry.iter().enumerate() {
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
                let step = |from: Space, to: Space, unit: Option<UnitKind>| Step {
                    from,
                    via: None,
                    to,
                    unit,
                };
                // Whether the second part may follow into the square the
                // first leaves (a reserve is open to it either way).
                let follows =
                    !(ctx.board.adjacent(q_from) & ctx.cavalry_enter & !reserves & p_from.set())
                        .is_empty();
                if !both_from_reserve {
                    // How many orders the pair lists, for a sink that
                    // counts or skips: every (x, y) but y on x's square,
                    // y among q's steps before p moves and p's square when
                    // it may follow. x is never p's own square, so the
                    // common squares are those of the steps before either
                    // moves.
                    let n = if p_from < q_from {
                        p_len * (cavalry_len[j] + usize::from(follows))
                            - (p_steps & cavalry[j].2 & !reserves).len()
                    } else if follows {
                        p_len
                    } else {
                        0
                    };
                    if out.skip(n) {
                        continue;
                    }
                }
                // Where the second part may go once the first has left,
                // before the first's destination is taken out (a reserve
                // holds any number, so it never is).
                let q_steps = Self::cavalry_single_steps(ctx, q_from, occupied_after_p_leaves);
                let taken = |x: Space| x.set() & !reserves;
                if both_from_reserve {
                    // The first part takes the first R7 pick. Two alike
                    // units make one move, listed once with its destinations
                    // in board order; two that differ make a move per
                    // sequence (S2). A cavalry and the heavy cavalry are
                    // listed per assignment, in board order (N37).
                    let every_sequence = p_unit == q_unit && picks_differ;
                    for x in p_steps {
                        let mut ys = q_steps & !taken(x);
                        if !every_sequence {
                            ys &= SpaceSet((u32::MAX << x.index()) << 1);
                        }
                        emit_each!(out, ys, |y| Order::MoveTwo(
                            step(p_from, x, p_unit),
                            step(q_from, y, q_unit)
                        ));
                    }
                } else if p_from < q_from {
                    // The parts in board order: every legal sequence.
                    for x in p_steps {
                        emit_each!(out, q_steps & !taken(x), |y| Order::MoveTwo(
                            step(p_from, x, p_unit),
                            step(q_from, y, q_unit)
                        ));
                    }
                } else {
                    // Against board order, a sequence is listed only when the
                    // sorted one is illegal: the second unit follows into the
                    // square the first left, which only that sequence empties.
                    // Any other pair of steps is legal both ways and was
                    // listed in board order.
                    if follows {
                        emit_each!(out, p_steps, |x| Order::MoveTwo(
                            step(p_from, x, p_unit),
                            step(q_from, p_from, q_unit)
                        ));
                    }
                }
            }
        }
        true
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
    /// `enemy_guns` are the enemy's artillery squares.
    #[inline]
    fn pin_allows_among(b: &Board, enemy_guns: SpaceSet, from: Space) -> SpaceSet {
        let pinning = b.adjacent(from) & enemy_guns;
        if pinning.is_empty() {
            SpaceSet(u32::MAX)
        } else if pinning.0 & (pinning.0 - 1) == 0 {
            // Exactly one.
            pinning
        } else {
            SpaceSet::EMPTY
        }
    }

    /// The board squares holding `side`'s artillery family (never its reserve).
    pub(crate) fn guns_squares(&self, side: Side) -> SpaceSet {
        // From the unit masks: a unit in neither reserve and not eliminated
        // stands on a board square, and an army has at most three guns.
        let i = side.index();
        let mut on_board =
            self.variant.guns_mask() & !self.reserved[i] & !self.intruders[i] & !self.gone[i];
        let mut set = SpaceSet::EMPTY;
        while on_board != 0 {
            let n = on_board.trailing_zeros() as usize;
            on_board &= on_board - 1;
            set |= Space::new(self.loc[i * ARMY_SIZE + n] as usize).set();
        }
        set
    }

    /// The squares a unit on `from` could attack, before R15 and R16: enemy
    /// units edge-adjacent, and the enemy reserve while it holds a unit (R14).
    pub(crate) fn attackable(&self, ctx: &MoveContext, from: Space) -> SpaceSet {
        let b = ctx.board;
        let mut targets = b.edge(from) & self.occupied_by(ctx.side.opponent());
        if b.edge(from).contains(ctx.enemy_reserve)
            && self.reserved[ctx.side.opponent().index()] != 0
        {
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

    /// Every legal attack (R14-R16, R21, R25, R6). An attacker's orders
    /// against one target come as one set of supporting squares, so that a
    /// sink that counts or skips needs no test per supporting unit.
    #[inline(always)]
    fn attacks(&self, ctx: &MoveContext, out: &mut impl OrderSink) -> bool {
        let b = ctx.board;
        let own = self.occupied_by(ctx.side);
        if own.is_empty() {
            return true;
        }
        // Only units next to an enemy may attack (R14): found with set
        // operations, not a test per unit.
        let mut targets = self.occupied_by(ctx.side.opponent());
        if self.reserved[ctx.side.opponent().index()] != 0 {
            targets |= ctx.enemy_reserve.set();
        }
        let front = b.edge_of(targets);
        let own_front = own & front;
        if own_front.is_empty() {
            return true;
        }
        let pins = Pins::new(self, ctx);
        for from in own_front {
            let u = UnitId(self.at[from.index()]);
            let state = self.units[u.index()];
            if state.inactive || state.attack_run >= 2 {
                continue;
            }
            let targets = self.attackable(ctx, from) & pins.allows(b, from);
            for target in targets {
                if self.may_attack(u, target, None) {
                    emit!(
                        out,
                        Order::Attack {
                            attacker: from,
                            target,
                            support: None,
                        }
                    );
                }
                let supports = self.supporters(u, target, &pins) & !from.set();
                emit_each!(out, supports, |support| Order::Attack {
                    attacker: from,
                    target,
                    support: Some(support),
                });
            }
        }
        true
    }

    /// The own squares whose units may support `a` attacking `target`: next
    /// to the target, active (R21), free to act into it under the artillery
    /// pin (R16), and of a kind `a` may attack this defender with (R15,
    /// N7-N10, N18: what [`Squares::may_attack`] says for each).
    #[inline(always)]
    fn supporters(&self, a: UnitId, target: Space, pins: &Pins) -> SpaceSet {
        let own = self.occupied_by(a.side());
        let candidates = match self.unit_at(target) {
            // N34: any unit may attack the enemy reserve.
            None => own,
            Some(d) => {
                let rules = self.variant.unit(a.kind());
                let charge =
                    rules.charges && self.half == Half::First && self.family_of(d) == Family::Foot;
                if charge || rules.attacks_supported.contains(d.kind()) {
                    own
                } else if rules.grand_battery {
                    self.guns_squares(a.side())
                } else {
                    return SpaceSet::EMPTY;
                }
            }
        };
        // A square next to an enemy gun is pinned: it may support only into
        // the one gun pinning it.
        let free = if pins.enemy_guns.contains(target) {
            pins.pinned_once_by(target)
        } else {
            !pins.pinned
        };
        let mut supports = SpaceSet::EMPTY;
        for s in board().adjacent(target) & candidates & free {
            if self.is_active(UnitId(self.at[s.index()])) {
                supports |= s.set();
            }
        }
        supports
    }
}

/// The cavalry of one position that a two-cavalry move may take (R11b).
struct CavalryTable {
    /// Where each stands, its reserve word, and its steps before the other moves.
    cavalry: [(Space, Option<UnitKind>, SpaceSet); 8],
    /// How many entries of `cavalry` hold one.
    count: usize,
    /// The entry of the reserve's first cavalry pick (R7), if any.
    first_from_reserve: Option<usize>,
    /// The entry of its second pick, which pairs only with the first.
    second_from_reserve: Option<usize>,
    /// S2: the two picks would leave the move with different runs.
    picks_differ: bool,
}

/// What the artillery pin (R16) leaves free to attack or support into in
/// one position, computed once for its attacks.
struct Pins {
    /// The enemy's artillery-family squares.
    enemy_guns: SpaceSet,
    /// The squares next to at least one enemy gun.
    pinned: SpaceSet,
    /// The squares next to two or more enemy guns: they may not act at all.
    pinned_twice: SpaceSet,
}

impl Pins {
    fn new(game: &Squares, ctx: &MoveContext) -> Pins {
        let b = ctx.board;
        let enemy_guns = game.guns_squares(ctx.side.opponent());
        let pinned = b.adjacent_of(enemy_guns);
        let mut pinned_twice = SpaceSet::EMPTY;
        if enemy_guns.0 & enemy_guns.0.wrapping_sub(1) != 0 {
            // Two or more guns: a square may be next to more than one.
            let mut seen = SpaceSet::EMPTY;
            for g in enemy_guns {
                pinned_twice |= seen & b.adjacent(g);
                seen |= b.adjacent(g);
            }
        }
        Pins {
            enemy_guns,
            pinned,
            pinned_twice,
        }
    }

    /// The squares pinned by the enemy gun on `gun` alone.
    #[inline]
    fn pinned_once_by(&self, gun: Space) -> SpaceSet {
        // Adjacency is symmetric: the squares next to the gun are the ones
        // it pins.
        board().adjacent(gun) & !self.pinned_twice
    }

    /// The squares a unit on `from` may attack or support into (R16):
    /// everything, only the one adjacent enemy gun, or nothing when two or
    /// more are adjacent.
    #[inline]
    fn allows(&self, b: &Board, from: Space) -> SpaceSet {
        Squares::pin_allows_among(b, self.enemy_guns, from)
    }
}
