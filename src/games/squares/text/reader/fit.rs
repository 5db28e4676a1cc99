//! Moves and attacks read by what the line says about each square, then
//! matched against the legal orders.
//!
//! A line is first turned into a [`Phrase`]: the squares it names, each
//! with the role word before it (FROM, TO, VIA, AT, AGAINST, WITH,
//! SUPPORTED BY, or a support word after it: `G2CL in support`) and the
//! unit word that qualifies it (`the cavalry in G1C`, `my infantry from
//! G2CR`, `infantry G2CR attacks`), plus the unit words that qualify no
//! square (`cav to G1C`: the mover). A role word fixes a square's part in
//! the order wherever it is written; squares without one take the parts
//! left, in the canonical order (a move: from, to, and a middle square when
//! three are written; an attack: attacker, target, support), so that
//! `ATTACK B1C G1C` always names the attacker first.
//!
//! A legal order *fits* the phrase when every square named plays the part
//! the phrase gives it, every unit word names the unit there, and nothing
//! the phrase leaves open is needed to tell it from others (an attack that
//! names its attacker and target and no support is the unsupported one).
//! One fitting order is the order; several are offered; with none, the
//! order the line names (when it names a whole one) goes to the rules
//! check, which says why it is not legal, and otherwise the nearest legal
//! orders are offered.

use super::misread::{
    attack_shape, legal_of, notation_of, pair_movers, space_of, step_of, two_steppers, Misread,
};
use super::words::{Marker, Token, Verb};
use crate::games::squares::core::board::Space;
use crate::games::squares::core::order::{Order, Step};
use crate::games::squares::core::state::Squares;
use crate::games::squares::core::unit::UnitKind;
use crate::games::squares::text::notation::Notation;
use crate::games::squares::text::suggest::{self, Hint};
use crate::games::Game;

/// The most candidates an ambiguous line is answered with.
const AMBIGUOUS_LIMIT: usize = 10;

/// What the words around a square say of its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// No role word: the square's part follows from its place in the line.
    Plain,
    From,
    To,
    Via,
    /// AT, ON, IN, not after a unit word.
    At,
    Against,
    /// WITH: the attacking or the supporting unit.
    With,
    Support,
    /// After a unit word (`the cavalry in G1C`): it says where that unit
    /// stands, not what part it plays.
    Here,
    /// BY: the attacker; in a move, the middle square.
    By,
}

/// A square named in the line.
#[derive(Clone, Copy, Debug)]
struct Mention {
    square: Space,
    mark: Mark,
    /// The unit type the line says is there.
    unit: Option<UnitKind>,
    /// Which part of a two-unit move (split at a comma or AND).
    group: usize,
}

/// A unit word that qualifies no square.
#[derive(Clone, Copy, Debug)]
struct FreeUnit {
    kind: UnitKind,
    group: usize,
    /// Written right after ATTACK (`attack the cavalry`): the target's type.
    object: bool,
    /// The role word before it: `with my infantry`, `supported by my
    /// cavalry`.
    mark: Mark,
}

/// What a line says about the squares of a move or an attack.
#[derive(Clone, Debug, Default)]
struct Phrase {
    mentions: Vec<Mention>,
    free_units: Vec<FreeUnit>,
    /// A support word with no square: the attack is supported, by a unit
    /// the line does not name.
    supported: bool,
    /// UNSUPPORTED, ALONE, WITHOUT SUPPORT.
    unsupported: bool,
}

/// The state of the walk over a line's tokens.
#[derive(Default)]
struct Builder {
    p: Phrase,
    group: usize,
    /// The role word waiting for its square.
    pending: Option<Mark>,
    /// The unit word waiting for its square.
    unit: Option<FreeUnit>,
    /// Whether that unit word qualifies the next square (nothing but IN,
    /// AT, ON or FROM between them).
    attach: bool,
    /// The last square named, while nothing has come between it and the
    /// next word but IN, AT or ON.
    recent: Option<usize>,
    /// A support word waiting for its square, with the square named just
    /// before it (`G2CL in support`).
    open_support: Option<Option<usize>>,
    /// Squares given SUPPORT by a support word written after them.
    trailing: Vec<usize>,
    /// How many squares were named before the ATTACK verb.
    before_attack: Option<usize>,
}

impl Builder {
    fn flush_unit(&mut self) {
        if let Some(u) = self.unit.take() {
            self.p.free_units.push(u);
        }
        self.attach = false;
    }

    /// A support word that got no square after it supports the square just
    /// before it, if that has no other part; else the attack is supported
    /// by a unit not named.
    fn close_support(&mut self) {
        if let Some(before) = self.open_support.take() {
            if self.pending == Some(Mark::Support) {
                self.pending = None;
            }
            match before {
                Some(i)
                    if matches!(
                        self.p.mentions[i].mark,
                        Mark::Plain | Mark::With | Mark::Here
                    ) =>
                {
                    self.trailing.push(i)
                }
                _ => self.p.supported = true,
            }
        }
    }

    fn token(&mut self, game: &Squares, t: &Token, was_unit: bool, after_attack: bool) -> bool {
        if let Some(square) = space_of(game, t) {
            let unit = if self.attach {
                self.unit.take().map(|u| u.kind)
            } else {
                self.flush_unit();
                None
            };
            self.flush_unit();
            let mark = self.pending.take().unwrap_or(Mark::Plain);
            if mark == Mark::Support {
                self.open_support = None;
            }
            self.p.mentions.push(Mention {
                square,
                mark,
                unit,
                group: self.group,
            });
            self.recent = Some(self.p.mentions.len() - 1);
            return false;
        }
        match t {
            Token::Unit(kind) => {
                self.flush_unit();
                self.unit = Some(FreeUnit {
                    kind: *kind,
                    group: self.group,
                    object: after_attack,
                    mark: self.pending.unwrap_or(Mark::Plain),
                });
                self.attach = true;
                return true;
            }
            Token::Marker(m) => {
                if was_unit && matches!(m, Marker::At | Marker::From) {
                    // "the cavalry in G1C", "my infantry from G2CR": where
                    // the unit just named stands.
                    match m {
                        Marker::From if self.pending != Some(Mark::Support) => {
                            self.pending = Some(Mark::From)
                        }
                        Marker::At if self.pending.is_none() => self.pending = Some(Mark::Here),
                        _ => {}
                    }
                    return true;
                }
                // "cav to G1C": the unit word is not the destination's.
                self.flush_unit();
                if self.pending == Some(Mark::Support) {
                    // SUPPORTED BY, SUPPORT FROM, SUPPORT WITH: still support.
                    if matches!(m, Marker::From | Marker::With | Marker::By) {
                        return false;
                    }
                    // "G2CL in support, on G1C": the support was G2CL.
                    self.close_support();
                }
                if *m != Marker::At {
                    self.recent = None;
                }
                if self.pending == Some(Mark::With) && *m == Marker::At {
                    return false;
                }
                self.pending = Some(match m {
                    Marker::From => Mark::From,
                    Marker::To => Mark::To,
                    Marker::Via => Mark::Via,
                    Marker::At => Mark::At,
                    Marker::Against => Mark::Against,
                    Marker::With => Mark::With,
                    Marker::By => Mark::By,
                });
            }
            Token::SupportMark | Token::Supporting => {
                self.flush_unit();
                let before = self.recent.filter(|&i| {
                    matches!(
                        self.p.mentions[i].mark,
                        Mark::Plain | Mark::With | Mark::Here
                    )
                });
                // "G2CL in support", "G2CL supporting": the square before.
                if let (Token::Supporting, Some(i)) = (t, before) {
                    self.p.mentions[i].mark = Mark::Support;
                    self.pending = None;
                    self.recent = None;
                    return false;
                }
                if self.open_support.is_none() {
                    self.open_support = Some(self.recent);
                }
                self.pending = Some(Mark::Support);
            }
            Token::NoSupport => self.p.unsupported = true,
            Token::Join => {
                self.close_support();
                self.flush_unit();
                self.pending = None;
                self.recent = None;
                self.group += 1;
            }
            Token::Verb(v) if *v == Verb::Attack && self.before_attack.is_none() => {
                self.before_attack = Some(self.p.mentions.len());
                self.close_support();
                self.flush_unit();
                self.pending = None;
                self.recent = None;
            }
            Token::Verb(_) | Token::AttackMark => {
                self.close_support();
                self.flush_unit();
                self.pending = None;
                self.recent = None;
            }
            _ => {}
        }
        false
    }
}

/// The readings of a line, the likelier first: one, or two where a
/// support word with no square after it follows a square. `attack G1C
/// with G2CR, G2CL supported` names the supporting unit before the word;
/// failing that, `attack G1C supported` says only that the attack is
/// supported.
fn phrases(game: &Squares, toks: &[Token]) -> Vec<Phrase> {
    let mut b = Builder::default();
    let mut was_unit = false;
    let mut after_attack = false;
    for t in toks {
        was_unit = b.token(game, t, was_unit, after_attack);
        after_attack = matches!(t, Token::Verb(Verb::Attack));
    }
    b.close_support();
    b.flush_unit();
    // "G2CR and G2CL attack G1C": the units named before the verb are the
    // attacking and the supporting one, whichever is which.
    if let Some(n) = b.before_attack.filter(|n| *n >= 2) {
        if b.p.mentions[..n].iter().all(|m| m.mark == Mark::Plain) {
            for m in &mut b.p.mentions[..n] {
                m.mark = Mark::With;
            }
        }
    }
    if b.trailing.is_empty() {
        return vec![b.p];
    }
    let mut named = b.p.clone();
    for &i in &b.trailing {
        named.mentions[i].mark = Mark::Support;
    }
    let mut unnamed = b.p;
    unnamed.supported = true;
    vec![named, unnamed]
}

/// The parts left to the plain squares (`free`, in canonical order), and
/// which each of the `k` plain squares may play: the first `k` of them, or
/// for a lone plain square either of the two `either` parts when both are
/// free (`ATTACK B1C`: attacker or target; `MOVE B1C`: from or to).
fn plain_parts<P: Copy + PartialEq>(free: &[P], k: usize, either: [P; 2]) -> Option<Vec<Vec<P>>> {
    if k == 1 && free.contains(&either[0]) && free.contains(&either[1]) {
        return Some(vec![either.to_vec()]);
    }
    (k <= free.len()).then(|| free[..k].iter().map(|p| vec![*p]).collect())
}

// ----- attacks ----------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AttackPart {
    Attacker,
    Target,
    Support,
}

const ATTACK_PARTS: [AttackPart; 3] = [
    AttackPart::Attacker,
    AttackPart::Target,
    AttackPart::Support,
];

/// The parts a marked square may play in an attack (None for a plain one).
fn attack_allowed(mark: Mark) -> Option<&'static [AttackPart]> {
    use AttackPart::*;
    match mark {
        Mark::Plain | Mark::Here => None,
        Mark::From | Mark::By => Some(&[Attacker]),
        Mark::To | Mark::At | Mark::Against => Some(&[Target]),
        Mark::With => Some(&[Attacker, Support]),
        Mark::Support => Some(&[Support]),
        // Refused before fitting.
        Mark::Via => Some(&[]),
    }
}

/// Whether giving each square of `p` the part in `parts` agrees with the
/// role words and the written order.
fn attack_parts_ok(p: &Phrase, parts: &[AttackPart]) -> bool {
    for (i, a) in parts.iter().enumerate() {
        if parts[..i].contains(a) {
            return false;
        }
    }
    let mut fixed = Vec::new();
    let mut plain = Vec::new();
    for (m, part) in p.mentions.iter().zip(parts) {
        match attack_allowed(m.mark) {
            Some(allowed) if allowed.contains(part) => fixed.push(*part),
            Some(_) => return false,
            None => plain.push(*part),
        }
    }
    let free: Vec<AttackPart> = ATTACK_PARTS
        .into_iter()
        .filter(|a| !fixed.contains(a))
        .collect();
    // WITH names the supporting unit only where the line names the
    // attacker otherwise: `attack G1C with G2CR` is G2CR's attack.
    let with_supports = p
        .mentions
        .iter()
        .zip(parts)
        .any(|(m, a)| m.mark == Mark::With && *a == AttackPart::Support);
    if with_supports && !parts.contains(&AttackPart::Attacker) {
        return false;
    }
    match plain_parts(
        &free,
        plain.len(),
        [AttackPart::Attacker, AttackPart::Target],
    ) {
        Some(allowed) => plain.iter().zip(&allowed).all(|(a, ok)| ok.contains(a)),
        None => false,
    }
}

fn kind_at(game: &Squares, s: Space) -> Option<UnitKind> {
    game.unit_at(s).map(|u| u.kind())
}

/// Whether the attack `(attacker, target, support)` fits all that `p` says.
fn attack_fits(
    game: &Squares,
    p: &Phrase,
    attacker: Space,
    target: Space,
    support: Option<Space>,
) -> bool {
    let mut parts = Vec::with_capacity(p.mentions.len());
    for m in &p.mentions {
        let part = if m.square == attacker {
            AttackPart::Attacker
        } else if m.square == target {
            AttackPart::Target
        } else if Some(m.square) == support {
            AttackPart::Support
        } else {
            return false;
        };
        if m.unit.is_some() && m.unit != kind_at(game, m.square) {
            return false;
        }
        parts.push(part);
    }
    if !attack_parts_ok(p, &parts) {
        return false;
    }
    let named = |a: AttackPart| parts.contains(&a);
    if (p.supported && support.is_none()) || (p.unsupported && support.is_some()) {
        return false;
    }
    // An attack whose attacker and target are named, and no support, is
    // the unsupported one, as in the canonical notation.
    if named(AttackPart::Attacker)
        && named(AttackPart::Target)
        && !named(AttackPart::Support)
        && !p.supported
        && support.is_some()
    {
        return false;
    }
    let is = |s: Option<Space>, kind: UnitKind| s.is_some_and(|s| kind_at(game, s) == Some(kind));
    p.free_units.iter().all(|u| match u.mark {
        _ if u.object => is(Some(target), u.kind),
        Mark::From => is(Some(attacker), u.kind),
        Mark::Support => is(support, u.kind),
        Mark::To | Mark::At | Mark::Against => is(Some(target), u.kind),
        // `with my infantry`, `cavalry attacks G1C`: the attacking unit,
        // or the supporting one where the line names the attacker.
        _ if named(AttackPart::Attacker) => is(Some(attacker), u.kind) || is(support, u.kind),
        _ => is(Some(attacker), u.kind),
    })
}

/// The attack the line names, read without the position: the parts the
/// role words give (WITH read as support first), the plain squares in the
/// canonical order. None when it names no attacker or no target.
fn attack_literal(p: &Phrase) -> Option<Order> {
    let with: Vec<usize> = (0..p.mentions.len())
        .filter(|&i| p.mentions[i].mark == Mark::With)
        .collect();
    for choice in 0..(1usize << with.len()) {
        let mut parts: Vec<Option<AttackPart>> = p
            .mentions
            .iter()
            .map(|m| match attack_allowed(m.mark) {
                Some([one]) => Some(*one),
                _ => None,
            })
            .collect();
        for (bit, &i) in with.iter().enumerate() {
            parts[i] = Some(if choice & (1 << bit) == 0 {
                AttackPart::Support
            } else {
                AttackPart::Attacker
            });
        }
        let fixed: Vec<AttackPart> = p
            .mentions
            .iter()
            .zip(&parts)
            .filter(|(m, _)| attack_allowed(m.mark).is_some())
            .filter_map(|(_, a)| *a)
            .collect();
        let free: Vec<AttackPart> = ATTACK_PARTS
            .into_iter()
            .filter(|a| !fixed.contains(a))
            .collect();
        let plain: Vec<usize> = (0..p.mentions.len())
            .filter(|&i| attack_allowed(p.mentions[i].mark).is_none())
            .collect();
        let Some(allowed) = plain_parts(
            &free,
            plain.len(),
            [AttackPart::Attacker, AttackPart::Target],
        ) else {
            continue;
        };
        if allowed.iter().any(|a| a.len() != 1) {
            continue;
        }
        for (&i, a) in plain.iter().zip(&allowed) {
            parts[i] = Some(a[0]);
        }
        let Some(parts) = parts.into_iter().collect::<Option<Vec<_>>>() else {
            continue;
        };
        if !attack_parts_ok(p, &parts) {
            continue;
        }
        let square = |a: AttackPart| {
            p.mentions
                .iter()
                .zip(&parts)
                .find(|(_, b)| **b == a)
                .map(|(m, _)| m.square)
        };
        if let (Some(attacker), Some(target)) =
            (square(AttackPart::Attacker), square(AttackPart::Target))
        {
            return Some(Order::Attack {
                attacker,
                target,
                support: square(AttackPart::Support),
            });
        }
    }
    None
}

/// What the line was read as, for a refusal: "ATTACK G1C from G2CR".
fn describe_attack(p: &Phrase, notation: &Notation) -> String {
    let mut parts = Vec::new();
    for m in &p.mentions {
        let unit = m
            .unit
            .map(|u| format!("the {} in ", u.name()))
            .unwrap_or_default();
        let role = match m.mark {
            Mark::From | Mark::By => "from ",
            Mark::To | Mark::At | Mark::Against => "on ",
            Mark::With => "with ",
            Mark::Support => "supported by ",
            _ => "",
        };
        parts.push(format!("{role}{unit}{}", m.square.display_in(notation)));
    }
    for u in &p.free_units {
        parts.push(match u.mark {
            _ if u.object => format!("on {}", u.kind.name()),
            Mark::To | Mark::At | Mark::Against => format!("on {}", u.kind.name()),
            Mark::Support => format!("supported by {}", u.kind.name()),
            _ => format!("with {}", u.kind.name()),
        });
    }
    if p.supported {
        parts.push("supported".into());
    }
    if p.unsupported {
        parts.push("unsupported".into());
    }
    if parts.is_empty() {
        "ATTACK".into()
    } else {
        format!("ATTACK {}", parts.join(" "))
    }
}

/// Why the attack the line names, legal as written, does not fit what
/// else the line says of it.
fn attack_mismatch(game: &Squares, p: &Phrase) -> String {
    let notation = notation_of(game);
    for m in &p.mentions {
        if let Some(named) = m.unit {
            return match kind_at(game, m.square) {
                Some(there) if there != named => format!(
                    "the unit in {} is {}, not {}",
                    m.square.display_in(notation),
                    there.name(),
                    named.name()
                ),
                None => format!(
                    "there is no {} in {}",
                    named.name(),
                    m.square.display_in(notation)
                ),
                _ => continue,
            };
        }
    }
    if p.supported {
        return "the line says the attack is supported but names no supporting unit".into();
    }
    if let Some(u) = p.free_units.first() {
        return format!("no {} takes part in that attack", u.kind.name());
    }
    "the line does not fit that attack".into()
}

/// Reads an attack: the one legal attack that fits the line, or the
/// attack it names for the rules check, or the candidates.
pub(super) fn read_attack(game: &Squares, toks: &[Token]) -> Result<Order, Misread> {
    let notation = notation_of(game);
    if toks
        .iter()
        .any(|t| matches!(t, Token::Number(_) | Token::OptionList(_)))
    {
        return Err(attack_shape(notation));
    }
    let readings = phrases(game, toks);
    let first = &readings[0];
    if first.mentions.len() > 3 || first.mentions.iter().any(|m| m.mark == Mark::Via) {
        return Err(attack_shape(notation));
    }
    // The orders the likeliest reading that fits any fits.
    let fitting = |p: &Phrase| {
        legal_of(game, |o| match *o {
            Order::Attack {
                attacker,
                target,
                support,
            } => attack_fits(game, p, attacker, target, support),
            _ => false,
        })
    };
    let (reading, fits) = readings
        .iter()
        .map(|p| (p, fitting(p)))
        .find(|(_, fits)| !fits.is_empty())
        .unwrap_or((first, Vec::new()));
    if let [one] = fits.as_slice() {
        return Ok(*one);
    }
    let lone = match first.mentions.as_slice() {
        [m] if attack_allowed(m.mark).is_none() => Some(m.square),
        _ => None,
    };
    if !fits.is_empty() {
        let problem = match (lone, first.mentions.is_empty()) {
            (Some(one), _) => format!(
                "the attack names only {}: say the attacking unit's square and the target",
                one.display_in(notation)
            ),
            (None, true) => "ATTACK needs the attacking unit's square and the target".into(),
            (None, false) => format!(
                "{} fits more than one legal attack",
                describe_attack(reading, notation)
            ),
        };
        return Err(ambiguous(problem, fits));
    }
    let literal = readings.iter().find_map(attack_literal);
    let legal = game.legal_orders();
    match literal {
        Some(order) if game.matching(&legal, &order).is_none() => Ok(order),
        Some(order) => Err(Misread {
            problem: format!(
                "{}: {}",
                order.display_in(notation),
                attack_mismatch(game, first)
            ),
            candidates: suggest::nearest(game, &order),
        }),
        None => {
            let problem = match (lone, first.mentions.is_empty()) {
                (Some(one), _) => format!(
                    "the attack names only {}: say the attacking unit's square and the \
                     target, and none is legal now",
                    one.display_in(notation)
                ),
                (None, true) => {
                    "ATTACK needs the attacking unit's square and the target, and none is legal now"
                        .into()
                }
                (None, false) => {
                    format!("no legal attack fits: {}", describe_attack(first, notation))
                }
            };
            Err(Misread {
                problem,
                candidates: suggest::nearest_hint(game, &attack_hint(first)),
            })
        }
    }
}

/// The squares and units of an attack phrase, for the nearest orders.
fn attack_hint(p: &Phrase) -> Hint {
    let mut hint = Hint::of_kind(Order::Attack {
        attacker: Space::new(0),
        target: Space::new(0),
        support: None,
    });
    for m in &p.mentions {
        match m.mark {
            Mark::From | Mark::By => hint.from.push(m.square),
            Mark::To | Mark::At | Mark::Against => hint.to.push(m.square),
            Mark::Support => hint.support = Some(m.square),
            _ => hint.named.push(m.square),
        }
    }
    hint.unit = p
        .free_units
        .iter()
        .find(|u| !u.object && matches!(u.mark, Mark::Plain | Mark::From | Mark::With))
        .map(|u| u.kind);
    hint
}

/// A misread listing the legal orders that fit a line equally well.
fn ambiguous(problem: String, mut fits: Vec<Order>) -> Misread {
    let n = fits.len();
    fits.truncate(AMBIGUOUS_LIMIT);
    Misread {
        problem: format!("{problem}: {n} legal orders fit, say which"),
        candidates: fits,
    }
}

// ----- moves ------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MovePart {
    From,
    Via,
    To,
}

/// One unit's part of a move as the line gives it.
#[derive(Clone, Debug, Default)]
struct Group {
    squares: Vec<Space>,
    /// The part each square's role word gives it (None: plain).
    marks: Vec<Option<MovePart>>,
    /// The unit words of this part: the mover's type.
    units: Vec<UnitKind>,
}

impl Group {
    /// The parts the plain squares may play, in written order.
    fn plain(&self) -> Option<Vec<Vec<MovePart>>> {
        let fixed: Vec<MovePart> = self.marks.iter().flatten().copied().collect();
        let k = self.marks.iter().filter(|m| m.is_none()).count();
        let free2: Vec<MovePart> = [MovePart::From, MovePart::To]
            .into_iter()
            .filter(|a| !fixed.contains(a))
            .collect();
        let either = [MovePart::From, MovePart::To];
        if k <= free2.len() {
            return plain_parts(&free2, k, either);
        }
        if fixed.contains(&MovePart::Via) {
            return None;
        }
        // Three squares: from, the middle square, to (S3).
        let free3: Vec<MovePart> = [MovePart::From, MovePart::Via, MovePart::To]
            .into_iter()
            .filter(|a| !fixed.contains(a))
            .collect();
        (k == free3.len()).then(|| free3.iter().map(|p| vec![*p]).collect())
    }

    /// Whether giving the squares the parts `parts` agrees with the role
    /// words and the written order.
    fn parts_ok(&self, parts: &[MovePart]) -> bool {
        for (i, a) in parts.iter().enumerate() {
            if parts[..i].contains(a) {
                return false;
            }
        }
        let Some(plain) = self.plain() else {
            return false;
        };
        let mut plain = plain.iter();
        self.marks.iter().zip(parts).all(|(mark, part)| match mark {
            Some(m) => m == part,
            None => plain.next().is_some_and(|ok| ok.contains(part)),
        })
    }

    /// Whether the listed step fits this part of the line.
    fn fits(&self, game: &Squares, step: &Step) -> bool {
        let mover = step.unit.or_else(|| kind_at(game, step.from));
        if self.units.iter().any(|u| Some(*u) != mover) {
            return false;
        }
        let mut parts = Vec::with_capacity(self.squares.len());
        for &s in &self.squares {
            parts.push(if s == step.from {
                MovePart::From
            } else if s == step.to {
                MovePart::To
            } else {
                // Any legal path through it (S3).
                let given = Step {
                    via: Some(s),
                    ..*step
                };
                if game
                    .matching(&[Order::Move(*step)], &Order::Move(given))
                    .is_none()
                {
                    return false;
                }
                MovePart::Via
            });
        }
        self.parts_ok(&parts)
    }

    /// The squares in move order (from, middle, to) when the line gives
    /// each its part without the position.
    fn literal_squares(&self) -> Option<Vec<Space>> {
        let plain = self.plain()?;
        let mut plain = plain.iter();
        let mut parts = Vec::with_capacity(self.squares.len());
        for mark in &self.marks {
            parts.push(match mark {
                Some(m) => *m,
                None => match plain.next()?.as_slice() {
                    [one] => *one,
                    _ => return None,
                },
            });
        }
        if !self.parts_ok(&parts) {
            return None;
        }
        let at = |a: MovePart| {
            self.squares
                .iter()
                .zip(&parts)
                .find(|(_, b)| **b == a)
                .map(|(s, _)| *s)
        };
        let mut out = vec![at(MovePart::From)?];
        out.extend(at(MovePart::Via));
        out.push(at(MovePart::To)?);
        Some(out)
    }

    fn unit(&self) -> Result<Option<UnitKind>, Misread> {
        match self.units.as_slice() {
            [] => Ok(None),
            [first, rest @ ..] if rest.iter().all(|u| u == first) => Ok(Some(*first)),
            _ => Err(Misread::new("a move names one unit type")),
        }
    }

    fn describe(&self, notation: &Notation) -> String {
        let mut parts = Vec::new();
        if let Some(u) = self.units.first() {
            parts.push(u.name().to_string());
        }
        for (s, mark) in self.squares.iter().zip(&self.marks) {
            let s = s.display_in(notation);
            parts.push(match mark {
                Some(MovePart::From) => format!("from {s}"),
                Some(MovePart::Via) => format!("via {s}"),
                Some(MovePart::To) => format!("to {s}"),
                None => s.to_string(),
            });
        }
        parts.join(" ")
    }
}

/// The parts of a move phrase, split at a comma or AND into one or two
/// units' moves.
fn move_groups(p: &Phrase, notation: &Notation) -> Result<Vec<Group>, Misread> {
    let last = p.mentions.iter().map(|m| m.group).max();
    let mut by_group: Vec<Group> = vec![Group::default(); last.map_or(1, |g| g + 1)];
    // IN, AT, ON: where the unit stands when the part names where it goes
    // (`the unit in B3C to B2CR`), else where it goes.
    let has_to = |group: usize| {
        p.mentions
            .iter()
            .any(|m| m.group == group && m.mark == Mark::To)
    };
    for m in &p.mentions {
        let mark = match m.mark {
            Mark::Plain => None,
            Mark::From | Mark::Here | Mark::With => Some(MovePart::From),
            Mark::At if has_to(m.group) => Some(MovePart::From),
            Mark::To | Mark::At => Some(MovePart::To),
            Mark::Via | Mark::By => Some(MovePart::Via),
            Mark::Against | Mark::Support => return Err(move_shape(notation)),
        };
        let g = &mut by_group[m.group];
        // "to B3R B2CR", "to B2CR then B1CR": the path goes on.
        if mark.is_none() && g.marks.last() == Some(&Some(MovePart::To)) {
            if let Some(prev) = g.marks.last_mut() {
                *prev = Some(MovePart::Via);
            }
            g.marks.push(Some(MovePart::To));
        } else {
            g.marks.push(mark);
        }
        g.squares.push(m.square);
        if let Some(u) = m.unit {
            g.units.push(u);
        }
    }
    // A unit word in a part naming no square belongs to the part before it
    // ("move G2R G3R and G2L G3L, both cavalry" aside, a stray word).
    for u in &p.free_units {
        let g = (0..=u.group.min(by_group.len() - 1))
            .rev()
            .find(|&g| !by_group[g].squares.is_empty())
            .unwrap_or(0);
        by_group[g].units.push(u.kind);
    }
    let mut groups: Vec<Group> = by_group
        .into_iter()
        .filter(|g| !g.squares.is_empty() || !g.units.is_empty())
        .collect();
    if groups.is_empty() {
        groups.push(Group::default());
    }
    // Four squares without a comma: two cavalry, one step each.
    if let [g] = groups.as_slice() {
        if g.squares.len() == 4 && g.units.is_empty() && g.marks.iter().all(Option::is_none) {
            let halves = g.squares.chunks(2).map(|c| Group {
                squares: c.to_vec(),
                marks: vec![None, None],
                units: Vec::new(),
            });
            return Ok(halves.collect());
        }
    }
    Ok(groups)
}

fn move_shape(notation: &Notation) -> Misread {
    Misread::new(format!(
        "a move names only squares and perhaps the unit type (MOVE {} {})",
        notation.code("G2CR"),
        notation.code("G1C")
    ))
}

/// Reads a move: the one legal move that fits the line, or the move it
/// names for the rules check, or the candidates.
pub(super) fn read_move(game: &Squares, toks: &[Token]) -> Result<Order, Misread> {
    let notation = notation_of(game);
    if toks.iter().any(|t| {
        matches!(
            t,
            Token::AttackMark
                | Token::SupportMark
                | Token::Supporting
                | Token::NoSupport
                | Token::Number(_)
                | Token::OptionList(_)
                | Token::Marker(Marker::Against)
        )
    }) {
        return Err(move_shape(notation));
    }
    let p = phrases(game, toks).swap_remove(0);
    let groups = move_groups(&p, notation)?;
    for g in &groups {
        g.unit()?;
        if g.squares.len() > 3 {
            return Err(Misread::new(format!(
                "a move names the square it leaves and the square it enters, \
                 with at most one square between them for {}",
                two_steppers(game)
            )));
        }
    }
    let fits: Vec<Order> = match groups.as_slice() {
        [g] => legal_of(game, |o| matches!(o, Order::Move(s) if g.fits(game, s))),
        [g, h] => {
            // S2: the parts move in the order written. A listed move whose
            // parts are in the written order is the one meant; only when
            // none is, a listed move the other way round that the written
            // sequence also makes (the same units end in the same squares).
            let written = legal_of(game, |o| match o {
                Order::MoveTwo(a, b) => g.fits(game, a) && h.fits(game, b),
                _ => false,
            });
            if written.is_empty() {
                legal_of(game, |o| match o {
                    Order::MoveTwo(a, b) => {
                        g.fits(game, b)
                            && h.fits(game, a)
                            && game.matching(&[*o], &Order::MoveTwo(*b, *a)).is_some()
                    }
                    _ => false,
                })
            } else {
                written
            }
        }
        _ => {
            return Err(Misread::new(format!(
                "a move moves one unit, or two {} one step each",
                pair_movers(game)
            )))
        }
    };
    if let [one] = fits.as_slice() {
        return Ok(*one);
    }
    let described = groups
        .iter()
        .map(|g| g.describe(notation))
        .collect::<Vec<_>>()
        .join(", ");
    if !fits.is_empty() {
        return Err(ambiguous_move(&groups, &described, fits, notation));
    }
    let mut steps = Vec::with_capacity(2);
    for g in &groups {
        match g.literal_squares() {
            Some(squares) => steps.push(step_of(game, &squares, g.unit()?)?),
            None => break,
        }
    }
    let literal = match steps.as_slice() {
        [one] if groups.len() == 1 => Some(Order::Move(*one)),
        [a, b] => Some(Order::MoveTwo(*a, *b)),
        _ => None,
    };
    let legal = game.legal_orders();
    match literal {
        Some(order) if game.matching(&legal, &order).is_none() => Ok(order),
        Some(order) => Err(Misread {
            problem: format!(
                "{}: the line does not fit that move",
                order.display_in(notation)
            ),
            candidates: suggest::nearest(game, &order),
        }),
        None => {
            let problem = match only_square(&groups) {
                Some(one) => format!(
                    "a move names the square it leaves and the square it enters; \
                     this one names only {}, and no legal move fits",
                    one.display_in(notation)
                ),
                None if described.is_empty() => {
                    "a move names the square it leaves and the square it enters, \
                     and no legal move fits"
                        .to_string()
                }
                None => format!("no legal move fits: move {described}"),
            };
            Err(Misread {
                problem,
                candidates: suggest::nearest_hint(game, &move_hint(&groups)),
            })
        }
    }
}

/// The one square of a move that names only one, written without a role.
fn only_square(groups: &[Group]) -> Option<Space> {
    match groups {
        [g] if g.squares.len() == 1 && g.marks[0].is_none() => Some(g.squares[0]),
        _ => None,
    }
}

/// The answer to a move line that several legal moves fit.
fn ambiguous_move(
    groups: &[Group],
    described: &str,
    fits: Vec<Order>,
    notation: &Notation,
) -> Misread {
    // The same move out of the reserve by units of several types (R7).
    if let Order::Move(first) = fits[0] {
        let same = fits.iter().all(|o| {
            matches!(o, Order::Move(s) if s.from == first.from && s.to == first.to && s.unit.is_some())
        });
        if same && first.unit.is_some() {
            return Misread {
                problem: format!(
                    "a move out of the reserve names the unit type (R7): \
                     which unit goes from {} to {}?",
                    first.from.display_in(notation),
                    first.to.display_in(notation)
                ),
                candidates: fits,
            };
        }
    }
    let problem = match only_square(groups) {
        Some(one) => format!(
            "a move names the square it leaves and the square it enters; \
             this one names only {}",
            one.display_in(notation)
        ),
        None if described.is_empty() => {
            "a move names the square it leaves and the square it enters".to_string()
        }
        None => format!("\"move {described}\" fits more than one legal move"),
    };
    ambiguous(problem, fits)
}

/// The squares and units of a move phrase, for the nearest orders.
fn move_hint(groups: &[Group]) -> Hint {
    let mut hint = Hint::of_kind(Order::Move(Step {
        from: Space::new(0),
        via: None,
        to: Space::new(0),
        unit: None,
    }));
    for g in groups {
        for (s, mark) in g.squares.iter().zip(&g.marks) {
            match mark {
                Some(MovePart::From) => hint.from.push(*s),
                Some(MovePart::To) => hint.to.push(*s),
                _ => hint.named.push(*s),
            }
        }
        if hint.unit.is_none() {
            hint.unit = g.units.first().copied();
        }
    }
    hint
}
