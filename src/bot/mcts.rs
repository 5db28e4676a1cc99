//! Monte Carlo tree search with UCT, over any game that can list its legal
//! orders, play one and score a position ([`Searchable`]).

/// What the search needs of a game.
pub trait Searchable: Clone {
    /// An order of the game.
    type Order: Copy + PartialEq;

    /// Who decides now, 0 or 1, or `None` when the game is over.
    fn decider(&self) -> Option<usize>;

    /// Appends the legal orders of the pending decision to `out`.
    fn legal(&self, out: &mut Vec<Self::Order>);

    /// Plays one of the listed orders.
    fn play(&mut self, order: Self::Order);

    /// The order [`legal`](Self::legal) would list at the index `pick`
    /// chooses (called once, with how many it would list); `None` when
    /// there is none. The playouts' random order: by default listed then
    /// picked; a game that can count its orders picks the same one
    /// without listing them all. `scratch` is the caller's buffer.
    fn random_order(
        &self,
        pick: impl FnOnce(usize) -> usize,
        scratch: &mut Vec<Self::Order>,
    ) -> Option<Self::Order> {
        scratch.clear();
        self.legal(scratch);
        if scratch.is_empty() {
            return None;
        }
        Some(scratch[pick(scratch.len())])
    }

    /// Whether `order` should be tried before the quiet ones: an order
    /// that takes or wins something. With dozens of orders in a position
    /// and a budget of a few hundred rounds, the search tries these first
    /// rather than finding them by chance.
    fn is_forcing(&self, order: &Self::Order) -> bool {
        let _ = order;
        false
    }

    /// How good the position is for player 0, from 0 (lost) to 1 (won):
    /// the result when the game is over, an estimate otherwise.
    fn score(&self) -> f64;
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

/// Orders a random playout plays from a new position before it is scored.
/// Random play drifts: beyond a few dozen orders it says little about the
/// position it started from, and the points scored by then say more.
const PLAYOUT_ORDERS: usize = 40;

/// The UCT exploration constant, for scores between 0 and 1.
const EXPLORATION: f64 = 0.7;

/// One position of the tree.
#[derive(Clone, Copy)]
struct Node<O> {
    /// The order that led here (unused at the root).
    order: O,
    /// Who gave that order: the player whose results `value` sums.
    mover: u8,
    /// Rounds through this position.
    visits: u32,
    /// The sum of the results of those rounds for `mover`.
    value: f64,
    /// Its children sit at `first..first + count` once expanded.
    first: u32,
    count: u32,
    /// The children tried so far: the first `tried` of them.
    tried: u32,
    expanded: bool,
}

impl<O> Node<O> {
    /// A position not yet searched, reached by `mover`'s `order`.
    fn new(order: O, mover: u8) -> Node<O> {
        Node {
            order,
            mover,
            visits: 0,
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

/// Searches `rounds` rounds from `root` with the generator seeded by `seed`
/// and reports the order to play, or `None` when the game is over or has
/// no legal order. A position with one legal order is answered at once.
pub fn search<G: Searchable>(root: &G, rounds: u32, seed: u64) -> Option<SearchReport<G::Order>> {
    let me = root.decider()?;
    let mut legal = Vec::with_capacity(128);
    root.legal(&mut legal);
    match legal.len() {
        0 => return None,
        1 => {
            return Some(SearchReport {
                order: legal[0],
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
    for &order in &legal {
        let mut next = root.clone();
        next.play(order);
        let score = next.score();
        if next.decider().is_none() && (if me == 0 { score } else { 1.0 - score }) >= 1.0 {
            return Some(SearchReport {
                order,
                visits: 0,
                expected: 1.0,
                rounds: 0,
                nodes: 1,
            });
        }
    }
    let mut rng = Rng::new(seed);
    let mut tree = vec![Node::new(legal[0], 1 - me as u8)];
    let mut path: Vec<u32> = Vec::with_capacity(64);
    for _ in 0..rounds.max(1) {
        let mut state = root.clone();
        path.clear();
        path.push(0);
        let mut at = 0usize;
        // Down the tree to a position not yet in it.
        while state.decider().is_some() {
            if !tree[at].expanded {
                expand(&mut tree, at, &state, &mut legal, &mut rng);
            }
            let node = tree[at];
            if node.count == 0 {
                break;
            }
            let child = if node.tried < node.count {
                tree[at].tried += 1;
                (node.first + node.tried) as usize
            } else {
                best_uct(&tree, &node)
            };
            state.play(tree[child].order);
            path.push(child as u32);
            at = child;
            if node.tried < node.count {
                break;
            }
        }
        let score = playout(&mut state, &mut legal, &mut rng);
        for &n in &path {
            let node = &mut tree[n as usize];
            node.visits += 1;
            node.value += if node.mover == 0 { score } else { 1.0 - score };
        }
    }
    let root_node = tree[0];
    let children = &tree[root_node.first as usize..(root_node.first + root_node.count) as usize];
    // The most visited order; between equals, the better scored; then the first.
    let best = children.iter().filter(|c| c.visits > 0).fold(
        None::<&Node<G::Order>>,
        |best, c| match best {
            Some(b) if (b.visits, mean(b)) >= (c.visits, mean(c)) => Some(b),
            _ => Some(c),
        },
    )?;
    Some(SearchReport {
        order: best.order,
        visits: best.visits,
        expected: mean(best),
        rounds: rounds.max(1),
        nodes: tree.len(),
    })
}

fn mean<O>(n: &Node<O>) -> f64 {
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
    tree: &mut Vec<Node<G::Order>>,
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
    // The forcing orders first, each group still in random order.
    let mut forcing = 0;
    for i in 0..legal.len() {
        if state.is_forcing(&legal[i]) {
            legal.swap(i, forcing);
            forcing += 1;
        }
    }
    let mover = state.decider().unwrap_or(0) as u8;
    let first = tree.len() as u32;
    tree.extend(legal.iter().map(|&order| Node::new(order, mover)));
    let node = &mut tree[at];
    node.expanded = true;
    node.first = first;
    node.count = legal.len() as u32;
}

/// The child of a fully tried `node` with the best upper confidence bound.
fn best_uct<O: Copy>(tree: &[Node<O>], node: &Node<O>) -> usize {
    let log_n = f64::from(node.visits.max(1)).ln();
    let mut best = (f64::NEG_INFINITY, 0usize);
    for i in node.first..node.first + node.count {
        let c = &tree[i as usize];
        let bound = mean(c) + EXPLORATION * (log_n / f64::from(c.visits.max(1))).sqrt();
        if bound > best.0 {
            best = (bound, i as usize);
        }
    }
    best.1
}

/// Plays uniformly random legal orders from `state` for at most
/// [`PLAYOUT_ORDERS`], and scores where that ends.
fn playout<G: Searchable>(state: &mut G, legal: &mut Vec<G::Order>, rng: &mut Rng) -> f64 {
    for _ in 0..PLAYOUT_ORDERS {
        if state.decider().is_none() {
            break;
        }
        let Some(order) = state.random_order(|n| rng.below(n), legal) else {
            break;
        };
        state.play(order);
    }
    state.score()
}
