//! Monte Carlo tree search with UCT, over any game that can list its legal
//! orders, play one and score a position ([`Searchable`]).

/// What the search needs of a game.
pub trait Searchable: Clone {
    /// An order of the game.
    type Order: Clone + PartialEq;

    /// Orders a random playout plays from a new position before it is
    /// scored. Random play drifts: beyond a few dozen orders it says little
    /// about the position it started from, and the points scored by then
    /// say more. A game whose turn is many orders plays more, so that the
    /// other side answers within the playout.
    const PLAYOUT_ORDERS: usize = 40;

    /// Who decides now, 0 or 1, or `None` when the game is over or chance
    /// is to draw ([`at_chance`](Self::at_chance)).
    fn decider(&self) -> Option<usize>;

    /// Whether chance draws now (a coin, a die): [`legal`](Self::legal)
    /// then lists its outcomes, equally likely, and the search draws one
    /// at random instead of choosing.
    fn at_chance(&self) -> bool {
        false
    }

    /// Appends the legal orders of the pending decision to `out`.
    fn legal(&self, out: &mut Vec<Self::Order>);

    /// Plays one of the listed orders.
    fn play(&mut self, order: Self::Order);

    /// The playouts' random order, `None` when there is none: by default
    /// the order [`legal`](Self::legal) would list at the index `pick`
    /// chooses (`pick(n)` is a number below `n`). A game that can count
    /// its orders picks the same one without listing them all; a game
    /// with hundreds of orders may draw in steps (a piece, then one of its
    /// orders). `scratch` is the caller's buffer.
    fn random_order(
        &self,
        mut pick: impl FnMut(usize) -> usize,
        scratch: &mut Vec<Self::Order>,
    ) -> Option<Self::Order> {
        scratch.clear();
        self.legal(scratch);
        if scratch.is_empty() {
            return None;
        }
        Some(scratch.swap_remove(pick(scratch.len())))
    }

    /// Whether `order` should be tried before the quiet ones: an order
    /// that takes or wins something. With dozens of orders in a position
    /// and a budget of a few hundred rounds, the search tries these first
    /// rather than finding them by chance.
    fn is_forcing(&self, order: &Self::Order) -> bool {
        let _ = order;
        false
    }

    /// Whether the game ranks its orders by [`prior`](Self::prior): the
    /// search then tries a new position's orders best first and widens a
    /// position's choice only as its rounds grow (progressive widening),
    /// so that a budget of a few dozen rounds goes to the few orders that
    /// matter rather than one round each to a hundred; among the orders
    /// tried the rank also weighs in the bound (PUCT, `best_puct`). Games
    /// that leave it `false` are searched exactly as before (forcing
    /// orders first, UCT).
    const RANKS_ORDERS: bool = false;

    /// How promising `order` looks before any playout, for the side that
    /// gives it: higher is tried first. Read only when
    /// [`RANKS_ORDERS`](Self::RANKS_ORDERS) is set.
    fn prior(&self, order: &Self::Order) -> f64 {
        let _ = order;
        0.0
    }

    /// How good the position is for player 0, from 0 (lost) to 1 (won):
    /// the result when the game is over, an estimate otherwise.
    fn score(&self) -> f64;
}

/// What a search may spend on one decision, and how it spreads it.
/// Levels of the computer are budgets (`bot::Level`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Rounds: each walks down the tree and adds one position to it.
    pub rounds: u32,
    /// Playouts from each new position, their scores averaged: the
    /// results of the same orders surer, at that many times the cost.
    pub playouts: u32,
    /// How the rounds spread over a ranked position's orders.
    pub spread: Spread,
}

impl Budget {
    /// `rounds` rounds of one playout each, spread [`Spread::WIDE`].
    pub const fn rounds(rounds: u32) -> Budget {
        Budget {
            rounds,
            playouts: 1,
            spread: Spread::WIDE,
        }
    }
}

impl From<u32> for Budget {
    fn from(rounds: u32) -> Budget {
        Budget::rounds(rounds)
    }
}

/// How the rounds of a game that ranks its orders
/// ([`Searchable::RANKS_ORDERS`]) spread over a position's orders: how
/// fast more of them are opened (progressive widening) and how much
/// their rank weighs against their results (PUCT). Games that do not
/// rank their orders try them all, forcing ones first, either way.
///
/// Measured in the Civil War Game 1863 (docs/computer-opponent.md): a
/// budget of about a hundred rounds plays best spread wide, since its
/// playouts are too few to overrule the rank; a budget of several
/// hundred spread wide opens dozens of poorly ranked orders whose noisy
/// results the choice then picks from, and plays best spread deep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// How fast orders open: 2 plus the rounds through the position to
    /// this power are open.
    pub opening: f64,
    /// The weight of the rank in the PUCT bound.
    pub rank_weight: f64,
}

impl Spread {
    /// A new order opened at each square number of rounds (2 + the
    /// square root of the rounds are open: 8 after 40 rounds, 12 after
    /// 120, 20 after 360), the rank weighing 0.5 in the bound. Spread
    /// wide, at a weight of 2 the rank drowned the playouts and level 2
    /// lost to level 1 (27.5% over 20 games); 0.5 and 1 did best at that
    /// budget.
    pub const WIDE: Spread = Spread {
        opening: 0.5,
        rank_weight: 0.5,
    };

    /// Fewer orders opened (2 + the rounds to the power 0.35: 9 after
    /// 360, 13 after 1,080) and the rank weighing 0.15, so that the
    /// rounds go down the well-ranked orders' lines and their results
    /// decide.
    pub const DEEP: Spread = Spread {
        opening: 0.35,
        rank_weight: 0.15,
    };

    /// Fewer still (2 + the rounds to the power 0.3: 10 after 1,080, 13
    /// after 3,240) and the rank weighing 0.1: for budgets of a thousand
    /// rounds and more, whose playouts are many enough to be trusted over
    /// the rank.
    pub const DEEPER: Spread = Spread {
        opening: 0.3,
        rank_weight: 0.1,
    };

    /// How many of a ranked position's orders are open after `visits`
    /// rounds through it.
    fn open(self, visits: u32) -> u32 {
        2 + f64::from(visits).powf(self.opening) as u32
    }

    /// The weight of the rank in the PUCT bound.
    fn prior_weight(self) -> f64 {
        self.rank_weight
    }
}

/// `wide`, `deep`, or the opening power and the rank's weight, as
/// `0.3/0.1`.
impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Spread::WIDE {
            f.write_str("wide")
        } else if *self == Spread::DEEP {
            f.write_str("deep")
        } else if *self == Spread::DEEPER {
            f.write_str("deeper")
        } else {
            write!(f, "{}/{}", self.opening, self.rank_weight)
        }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchReport<O> {
    /// The order to play.
    pub order: O,
    /// How many rounds went through it.
    pub visits: u32,
    /// The searcher's expected score after it, 0 to 1.
    pub expected: f64,
    /// The rounds searched (0 when there was only one legal order, or an
    /// order that wins at once).
    pub rounds: u32,
    /// The positions the tree held at the end.
    pub nodes: usize,
}

/// The UCT exploration constant, for scores between 0 and 1.
const EXPLORATION: f64 = 0.7;

/// The priors' temperature, in their units: an order ranked this much
/// lower gets 1/e of the share of a better one.
const PRIOR_TEMPERATURE: f64 = 1.0;

/// One position of the tree. The order that led to it is kept beside the
/// tree, at the same index (orders of some games own their paths).
#[derive(Clone, Copy)]
struct Node {
    /// Who gave that order: the player whose results `value` sums.
    mover: u8,
    /// Rounds through this position.
    visits: u32,
    /// The share of its parent's rounds the order's rank asks for before
    /// any result (0 to 1; read only when the game ranks its orders).
    prior: f32,
    /// The sum of the results of those rounds for `mover`.
    value: f64,
    /// Its children sit at `first..first + count` once expanded.
    first: u32,
    count: u32,
    /// The children tried so far: the first `tried` of them.
    tried: u32,
    expanded: bool,
}

impl Node {
    /// A position not yet searched, reached by an order of `mover`.
    fn new(mover: u8) -> Node {
        Node {
            mover,
            visits: 0,
            prior: 0.0,
            value: 0.0,
            first: 0,
            count: 0,
            tried: 0,
            expanded: false,
        }
    }
}

/// xorshift64*, the search's own generator: deterministic from its seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// Searches from `root` within `budget` (a number of rounds, or a
/// [`Budget`]) with the generator seeded by `seed` and reports the order to
/// play, or `None` when the game is over or has no legal order. A position
/// with one legal order is answered at once.
pub fn search<G: Searchable>(
    root: &G,
    budget: impl Into<Budget>,
    seed: u64,
) -> Option<SearchReport<G::Order>> {
    let Budget {
        rounds,
        playouts,
        spread,
    } = budget.into();
    let me = root.decider()?;
    let mut legal = Vec::with_capacity(128);
    root.legal(&mut legal);
    match legal.len() {
        0 => return None,
        1 => {
            return Some(SearchReport {
                order: legal.swap_remove(0),
                visits: 0,
                expected: 0.5,
                rounds: 0,
                nodes: 1,
            })
        }
        _ => {}
    }
    // A win in one order is taken at once: the search might rank another
    // order that wins a little later as high, and a player would not
    // understand being made to wait for it.
    for order in &legal {
        let mut next = root.clone();
        next.play(order.clone());
        let score = next.score();
        if is_over(&next) && (if me == 0 { score } else { 1.0 - score }) >= 1.0 {
            return Some(SearchReport {
                order: order.clone(),
                visits: 0,
                expected: 1.0,
                rounds: 0,
                nodes: 1,
            });
        }
    }
    let mut rng = Rng::new(seed);
    let mut tree = vec![Node::new(1 - me as u8)];
    // The order that led to each node, at its index (the root's is unused).
    let mut orders: Vec<G::Order> = vec![legal[0].clone()];
    let mut path: Vec<u32> = Vec::with_capacity(64);
    for _ in 0..rounds.max(1) {
        let mut state = root.clone();
        path.clear();
        path.push(0);
        let mut at = 0usize;
        // Down the tree to a position not yet in it.
        while !is_over(&state) {
            if !tree[at].expanded {
                expand(&mut tree, &mut orders, at, &state, &mut legal, &mut rng);
            }
            let node = tree[at];
            if node.count == 0 {
                break;
            }
            // Ranked orders widen with the rounds: a new order only once
            // the ones above it have had theirs.
            let open = if G::RANKS_ORDERS {
                node.count.min(spread.open(node.visits))
            } else {
                node.count
            };
            let (child, new) = if state.at_chance() {
                // Chance is drawn, not chosen: every outcome as likely.
                let child = (node.first as usize) + rng.below(node.count as usize);
                (child, tree[child].visits == 0)
            } else if node.tried < open {
                tree[at].tried += 1;
                ((node.first + node.tried) as usize, true)
            } else {
                (
                    if G::RANKS_ORDERS {
                        best_puct(&tree, &node, spread.prior_weight())
                    } else {
                        best_uct(&tree, &node)
                    },
                    false,
                )
            };
            state.play(orders[child].clone());
            path.push(child as u32);
            at = child;
            if new {
                break;
            }
        }
        let score = if playouts <= 1 {
            playout(&mut state, &mut legal, &mut rng)
        } else {
            let mut sum = 0.0;
            for _ in 0..playouts {
                sum += playout(&mut state.clone(), &mut legal, &mut rng);
            }
            sum / f64::from(playouts)
        };
        for &n in &path {
            let node = &mut tree[n as usize];
            node.visits += 1;
            node.value += if node.mover == 0 { score } else { 1.0 - score };
        }
    }
    let root_node = tree[0];
    let children = root_node.first as usize..(root_node.first + root_node.count) as usize;
    // The most visited order; between equals, the better scored; then the first.
    let best =
        children
            .filter(|&c| tree[c].visits > 0)
            .fold(None::<usize>, |best, c| match best {
                Some(b) if (tree[b].visits, mean(&tree[b])) >= (tree[c].visits, mean(&tree[c])) => {
                    Some(b)
                }
                _ => Some(c),
            })?;
    Some(SearchReport {
        order: orders.swap_remove(best),
        visits: tree[best].visits,
        expected: mean(&tree[best]),
        rounds: rounds.max(1),
        nodes: tree.len(),
    })
}

/// Whether nobody decides and chance draws nothing: the game is over.
fn is_over<G: Searchable>(state: &G) -> bool {
    state.decider().is_none() && !state.at_chance()
}

fn mean(n: &Node) -> f64 {
    if n.visits == 0 {
        0.0
    } else {
        n.value / f64::from(n.visits)
    }
}

/// Adds the children of `at` (whose position is `state`): the forcing
/// orders first, and each group in a random order, so that the first tried
/// are a fair sample of their kind.
fn expand<G: Searchable>(
    tree: &mut Vec<Node>,
    orders: &mut Vec<G::Order>,
    at: usize,
    state: &G,
    legal: &mut Vec<G::Order>,
    rng: &mut Rng,
) {
    legal.clear();
    state.legal(legal);
    for i in (1..legal.len()).rev() {
        legal.swap(i, rng.below(i + 1));
    }
    let mut shares: Vec<f32> = Vec::new();
    if G::RANKS_ORDERS && !state.at_chance() {
        // Best first; equals stay in their random order (a stable sort).
        let mut ranked: Vec<(f64, G::Order)> =
            legal.drain(..).map(|o| (state.prior(&o), o)).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        // The rank's share of the rounds: a softmax of the priors, so
        // that an order ranked a piece lower asks for 1/e as many.
        let top = ranked.first().map_or(0.0, |r| r.0);
        let weights: Vec<f64> = ranked
            .iter()
            .map(|r| ((r.0 - top) / PRIOR_TEMPERATURE).exp())
            .collect();
        let sum: f64 = weights.iter().sum();
        shares = weights.iter().map(|w| (w / sum) as f32).collect();
        legal.extend(ranked.into_iter().map(|(_, o)| o));
    } else {
        // The forcing orders first, each group still in random order.
        let mut forcing = 0;
        for i in 0..legal.len() {
            if state.is_forcing(&legal[i]) {
                legal.swap(i, forcing);
                forcing += 1;
            }
        }
    }
    // A chance outcome's value is never read: it is drawn, not chosen.
    let mover = state.decider().unwrap_or(0) as u8;
    let first = tree.len() as u32;
    let count = legal.len() as u32;
    tree.extend((0..legal.len()).map(|i| Node {
        prior: shares.get(i).copied().unwrap_or(0.0),
        ..Node::new(mover)
    }));
    orders.append(legal);
    let node = &mut tree[at];
    node.expanded = true;
    node.first = first;
    node.count = count;
}

/// The child with the best upper confidence bound among the ones `node`
/// has tried (all of them, unless its orders are ranked and widening).
fn best_uct(tree: &[Node], node: &Node) -> usize {
    let log_n = f64::from(node.visits.max(1)).ln();
    let mut best = (f64::NEG_INFINITY, 0usize);
    for i in node.first..node.first + node.tried {
        let c = &tree[i as usize];
        let bound = mean(c) + EXPLORATION * (log_n / f64::from(c.visits.max(1))).sqrt();
        if bound > best.0 {
            best = (bound, i as usize);
        }
    }
    best.1
}

/// The child with the best PUCT bound among the ones a ranked `node` has
/// tried: its results so far plus its rank's share of the rounds, a bonus
/// that fades as the child is tried. Unlike the UCT bound, which spreads
/// more rounds evenly over the open orders, this spends them on the
/// well-ranked ones until their results say otherwise, so that more
/// rounds refine the choice rather than dilute it.
fn best_puct(tree: &[Node], node: &Node, prior_weight: f64) -> usize {
    let sqrt_n = f64::from(node.visits.max(1)).sqrt();
    let mut best = (f64::NEG_INFINITY, 0usize);
    for i in node.first..node.first + node.tried {
        let c = &tree[i as usize];
        let bound = mean(c) + prior_weight * f64::from(c.prior) * sqrt_n / f64::from(1 + c.visits);
        if bound > best.0 {
            best = (bound, i as usize);
        }
    }
    best.1
}

/// Plays uniformly random legal orders (and chance's draws) from `state`
/// for at most [`Searchable::PLAYOUT_ORDERS`], and scores where that ends.
fn playout<G: Searchable>(state: &mut G, legal: &mut Vec<G::Order>, rng: &mut Rng) -> f64 {
    for _ in 0..G::PLAYOUT_ORDERS {
        if is_over(state) {
            break;
        }
        let Some(order) = state.random_order(|n| rng.below(n), legal) else {
            break;
        };
        state.play(order);
    }
    state.score()
}

#[cfg(test)]
mod tests {
    use super::Spread;

    #[test]
    fn spread_deep_opens_fewer_orders_than_wide_as_the_rounds_grow() {
        for spread in [Spread::WIDE, Spread::DEEP] {
            assert_eq!(spread.open(0), 2, "{spread:?}");
            assert!(
                (0..5_000).all(|v| spread.open(v) <= spread.open(v + 1)),
                "{spread:?} never closes an order"
            );
        }
        // The counts the docs give (Spread's constants); the wide spread
        // opens at the square numbers exactly, as the square root did.
        assert!((0..100_000u32).all(|v| Spread::WIDE.open(v) == 2 + f64::from(v).sqrt() as u32));
        let wide: Vec<u32> = [40, 120, 360].map(|v| Spread::WIDE.open(v)).into();
        assert_eq!(wide, [8, 12, 20]);
        let deep: Vec<u32> = [360, 1_080].map(|v| Spread::DEEP.open(v)).into();
        assert_eq!(deep, [9, 13]);
        assert!((0..5_000).all(|v| Spread::DEEP.open(v) <= Spread::WIDE.open(v)));
        assert!(Spread::DEEP.prior_weight() < Spread::WIDE.prior_weight());
    }
}
