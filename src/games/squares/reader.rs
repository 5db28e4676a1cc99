//! The forgiving order reader: what players actually type, read into the
//! canonical [`Order`] and checked against the position.
//!
//! It accepts, in any case and spacing:
//!
//! ```text
//! MOVE G2CR G1C          MOVE from G2CR to G1C        G2CR-G1C      G2CR G1C
//! move infantry from BR to B3C     move inf from reserve to B3C     BR B3C (when only one type can go)
//! MOVE B3C B2CR B1CR     B3C B1CR (cavalry paths optional)
//! MOVE G2R G3R, G2L G3L  G2R-G3R and G2L-G3L
//! ATTACK G1C B1C SUPPORT G1CR      ATTACK from G1C to B1C support from G1CR
//! ATTACK G1C B1C G1CR    G1C x B1C + G1CR    G1C x B1C    attack G1C B1C supported by G1CR
//! PASS  STAND  HOLD  ADVANCE  ADVANCE INTO B1C  STAY  NO ADVANCE
//! RETREAT BR   RETREAT TO RESERVE   RETREAT B2CR THEN BR   (in a retreat decision: BR)
//! OPTION 2     OPT 2     (when the attacker picks an option: 2)
//! LOSE INFANTRY          LOSE INF    (when a reserve loses a unit: INF)
//! ```
//!
//! A leading list number (`1.`, `2)`), a leading side name (`Blue:`) and
//! filler words (THE, MY, PLEASE, I, ONE before a unit word, ...) are
//! skipped; a word the reader does not know refuses the line.
//!
//! Moves and attacks are read by what the line says about each square
//! ([`fit`]): role words (FROM, TO, VIA, AT, AGAINST, WITH, SUPPORTED BY,
//! IN SUPPORT, ...) fix its part wherever it is written, a unit word
//! qualifies it (`the cavalry in G1C`), and squares without a role word take
//! the parts left in canonical order. The one legal order that fits all the
//! line says is the order: `attack G1C from G2CR supported by G2CL`, `cav to
//! G1C`, `Attack the cavalry in G1C with my infantry from G2CR, supported by
//! the cavalry in G2CL`. A line that is incomplete but fits exactly one legal
//! order (`RETREAT` when one retreat exists, `ATTACK B1C` when one attack on
//! B1C is legal) is taken as that order; several that fit are offered as
//! candidates; none, and the order written goes to the rules check or the
//! nearest legal orders are offered. A refusal always carries suggestions
//! while any order is legal.
//!
//! In the Napoleonic variant (N1, N24, N36) the same forms are read in its
//! words: BRITISH and FRENCH (`British: ...`, `French reserve`) instead of
//! BLUE and GRAY; the unit words INFANTRY/INF, GUARD/GUA, LIGHT/LI/LIGHT
//! INFANTRY, ARTILLERY/ART, HORSE/HB/HORSE BATTERY/HORSE ARTILLERY,
//! CAVALRY/CAV and HEAVY/HC/HEAVY CAVALRY/HEAVY HORSE (HORSE is the horse
//! battery there, never cavalry); F codes as well as G codes for the French
//! half; and the option lists: `OPTION GB1`, `GB 1`, and, when the attack
//! offers the Grand Battery or Horse Battery list, `OPTION 1`, `opt 1` or
//! `1` for that list's option 1.

use super::attack::{OptionsOffered, Stage};
use super::board::{board, Space, Terrain};
use super::notation::Notation;
use super::order::{Chain, Order, Step};
use super::refusal::Refusal;
use super::rules::Variant;
use super::state::Squares;
use super::suggest;
use super::unit::{Side, UnitKind};
use crate::games::{Game, OrderWord, Rejection};

mod fit;

/// The verbs of the order language, with the contextual HOLD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Move,
    Attack,
    Pass,
    Stand,
    Retreat,
    Option,
    Advance,
    Stay,
    Lose,
    /// STAND when a defender decides, STAY when the attacker may advance.
    Hold,
}

/// One word of an order line, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Verb(Verb),
    Square(Space),
    /// A reserve named in words: the named side's, or (`None`) the
    /// reserve of the player who decides.
    Reserve(Option<Side>),
    Unit(UnitKind),
    Number(u8),
    /// `GB` or `HB` before an option's number (N24, N36): the list named.
    OptionList(OptionsOffered),
    /// The opponent's reserve named in words (`enemy reserve`).
    EnemyReserve,
    /// `x` between two squares: an attack.
    AttackMark,
    /// `+`, SUPPORT, SUPPORTED BY, SUPPORTING, IN SUPPORT: the square
    /// after it (or, with none after it, the one just before) supports.
    SupportMark,
    /// IN SUPPORT, SUPPORTING, SUPPORTS: the square just before it
    /// supports (`G2CL in support`); with none, as [`Token::SupportMark`].
    Supporting,
    /// UNSUPPORTED, ALONE, WITHOUT SUPPORT, NO SUPPORT: an attack without
    /// a supporting unit.
    NoSupport,
    /// A word that says what part of the order the next square plays.
    Marker(Marker),
    /// `,`, `&`, AND: the second of two cavalry moves follows.
    Join,
    /// A word the reader does not know, as written (upper case).
    Unknown(String),
}

/// Words that say which part of an order a square plays (FROM G2CR, TO
/// G1C, VIA B2CR, WITH G1CR), so that the roles hold in any written order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    /// FROM, OUT OF: where the acting unit stands.
    From,
    /// TO, INTO, ONTO, TOWARDS: a move's destination, an attack's target.
    To,
    /// VIA, THROUGH: a cavalry move's middle square.
    Via,
    /// IN, AT, ON: after a unit word, where that unit stands ("the cavalry
    /// in G1C"); otherwise like TO.
    At,
    /// AGAINST: an attack's target.
    Against,
    /// WITH, USING: one of the player's own units in an attack, the
    /// attacking or the supporting one.
    With,
    /// BY (not after SUPPORTED or BACKED): who acts, the attacker (`attack
    /// on G1C by G2CR`); in a move, the square passed (`by B2CR`).
    By,
}

const MARKERS: &[(&str, Marker)] = &[
    ("FROM", Marker::From),
    ("TO", Marker::To),
    ("INTO", Marker::To),
    ("ONTO", Marker::To),
    ("TOWARD", Marker::To),
    ("TOWARDS", Marker::To),
    ("VIA", Marker::Via),
    ("THROUGH", Marker::Via),
    ("THRU", Marker::Via),
    ("IN", Marker::At),
    ("AT", Marker::At),
    ("ON", Marker::At),
    ("AGAINST", Marker::Against),
    ("WITH", Marker::With),
    ("USING", Marker::With),
    ("BY", Marker::By),
];

const VERBS: &[(&str, Verb)] = &[
    ("MOVE", Verb::Move),
    ("MOVES", Verb::Move),
    ("MV", Verb::Move),
    ("GO", Verb::Move),
    ("ATTACK", Verb::Attack),
    ("ATTACKS", Verb::Attack),
    ("ATT", Verb::Attack),
    ("ATK", Verb::Attack),
    ("ATTK", Verb::Attack),
    ("CHARGE", Verb::Attack),
    ("CHARGES", Verb::Attack),
    ("ASSAULT", Verb::Attack),
    ("ASSAULTS", Verb::Attack),
    ("PASS", Verb::Pass),
    ("PASSES", Verb::Pass),
    ("STAND", Verb::Stand),
    ("STANDS", Verb::Stand),
    ("DECLINE", Verb::Stand),
    ("RETREAT", Verb::Retreat),
    ("RETREATS", Verb::Retreat),
    ("RET", Verb::Retreat),
    ("RTR", Verb::Retreat),
    ("WITHDRAW", Verb::Retreat),
    ("WITHDRAWS", Verb::Retreat),
    ("OPTION", Verb::Option),
    ("OPT", Verb::Option),
    ("ADVANCE", Verb::Advance),
    ("ADVANCES", Verb::Advance),
    ("ADV", Verb::Advance),
    ("STAY", Verb::Stay),
    ("STAYS", Verb::Stay),
    ("LOSE", Verb::Lose),
    ("LOSES", Verb::Lose),
    ("REMOVE", Verb::Lose),
    ("HOLD", Verb::Hold),
];

/// The Civil War game's unit words. HORSE is cavalry here.
const CIVIL_WAR_UNITS: &[(&str, UnitKind)] = &[
    ("INFANTRY", UnitKind::Infantry),
    ("INF", UnitKind::Infantry),
    ("ARTILLERY", UnitKind::Artillery),
    ("ART", UnitKind::Artillery),
    ("ARTY", UnitKind::Artillery),
    ("GUN", UnitKind::Artillery),
    ("GUNS", UnitKind::Artillery),
    ("CAVALRY", UnitKind::Cavalry),
    ("CAV", UnitKind::Cavalry),
    ("HORSE", UnitKind::Cavalry),
];

/// The variant's unit words (N24, N36). HORSE is the horse battery, never
/// cavalry; GUN is left out, as both artillery types are guns.
const NAPOLEONIC_UNITS: &[(&str, UnitKind)] = &[
    ("INFANTRY", UnitKind::Infantry),
    ("INF", UnitKind::Infantry),
    ("GUARD", UnitKind::Guard),
    ("GUA", UnitKind::Guard),
    ("LIGHT", UnitKind::Light),
    ("LI", UnitKind::Light),
    ("ARTILLERY", UnitKind::Artillery),
    ("ART", UnitKind::Artillery),
    ("ARTY", UnitKind::Artillery),
    ("HORSE", UnitKind::HorseBattery),
    ("HB", UnitKind::HorseBattery),
    ("CAVALRY", UnitKind::Cavalry),
    ("CAV", UnitKind::Cavalry),
    ("HEAVY", UnitKind::HeavyCavalry),
    ("HC", UnitKind::HeavyCavalry),
];

/// The variant's two-word unit names, read as one unit word (N36).
const NAPOLEONIC_PAIRS: &[(&str, &str, UnitKind)] = &[
    ("LIGHT", "INFANTRY", UnitKind::Light),
    ("LIGHT", "INF", UnitKind::Light),
    ("HORSE", "BATTERY", UnitKind::HorseBattery),
    ("HORSE", "BATTERIES", UnitKind::HorseBattery),
    ("HORSE", "ARTILLERY", UnitKind::HorseBattery),
    ("HORSE", "ART", UnitKind::HorseBattery),
    ("HEAVY", "CAVALRY", UnitKind::HeavyCavalry),
    ("HEAVY", "CAV", UnitKind::HeavyCavalry),
    ("HEAVY", "HORSE", UnitKind::HeavyCavalry),
];

/// The side names of `notation`'s game.
fn side_words(notation: &Notation) -> &'static [(&'static str, Side)] {
    match notation.variant {
        Variant::CivilWar => &[
            ("BLUE", Side::Blue),
            ("GRAY", Side::Gray),
            ("GREY", Side::Gray),
        ],
        Variant::Napoleonic => &[("BRITISH", Side::Blue), ("FRENCH", Side::Gray)],
    }
}

/// The unit words of `notation`'s game.
fn unit_words(notation: &Notation) -> &'static [(&'static str, UnitKind)] {
    match notation.variant {
        Variant::CivilWar => CIVIL_WAR_UNITS,
        Variant::Napoleonic => NAPOLEONIC_UNITS,
    }
}

/// The two-word unit name starting at `first`, `second`, if it is one.
fn unit_pair(first: &str, second: Option<&str>, notation: &Notation) -> Option<UnitKind> {
    if notation.variant != Variant::Napoleonic {
        return None;
    }
    let second = second?;
    NAPOLEONIC_PAIRS
        .iter()
        .find(|(a, b, _)| *a == first && *b == second)
        .map(|(_, _, k)| *k)
}

/// The option list a word names (`GB`, `HB`), in the variant only.
fn option_list(word: &str, notation: &Notation) -> Option<OptionsOffered> {
    if notation.variant != Variant::Napoleonic {
        return None;
    }
    match word {
        "GB" => Some(OptionsOffered::GrandBattery),
        "HB" => Some(OptionsOffered::HorseBattery),
        _ => None,
    }
}

/// The notation of the game a position belongs to: the reader reads and
/// answers in it (N1, N36).
fn notation_of(game: &Squares) -> &'static Notation {
    game.variant().notation()
}

const NUMBERS: &[(&str, u8)] = &[
    ("ONE", 1),
    ("TWO", 2),
    ("THREE", 3),
    ("FOUR", 4),
    ("FIVE", 5),
];

/// Words that carry no meaning in an order: articles, pronouns, politeness,
/// and the words around a choice ("I choose option 2", "we take it").
const FILLERS: &[&str] = &[
    "THE", "MY", "A", "AN", "UNIT", "UNITS", "PIECE", "PIECES", "COUNTER", "SQUARE", "SPACE",
    "THEN", "PLEASE", "PLS", "PLZ", "I", "IM", "ILL", "WE", "WELL", "ME", "US", "LET", "LETS",
    "FAST", "FIRM", "ORDER", "ORDERS", "OF", "OUR", "ITS", "WILL", "SHALL", "WANT", "WISH",
    "WOULD", "LIKE", "CHOOSE", "CHOOSES", "PICK", "PICKS", "SELECT", "TAKE", "TAKES", "NOW",
    "JUST", "OK", "OKAY", "THANKS", "THANK", "YOU", "ENEMY", "ENEMYS", "HIS", "HER", "THEIR",
    "YOUR", "THIS", "THAT", "IS", "HERE", "OUT", "OWN", "DO", "MUST", "GOING", "TURN", "SOLDIERS",
    "TROOPS", "PUT", "LINE", "GROUND", "WHERE", "ARE", "IT", "FORWARD", "FORWARDS", "BACK", "UP",
];

/// Every word the reader knows, for "did you mean" on a misspelling.
fn known_words(notation: &Notation) -> impl Iterator<Item = &'static str> {
    VERBS
        .iter()
        .map(|(w, _)| *w)
        .chain(unit_words(notation).iter().map(|(w, _)| *w))
        .chain([
            "SUPPORT",
            "SUPPORTED",
            "RESERVE",
            "FROM",
            "INTO",
            "WITH",
            "AGAINST",
            "THROUGH",
            "PLEASE",
        ])
}

fn lookup<T: Copy>(table: &[(&str, T)], word: &str) -> Option<T> {
    table.iter().find(|(w, _)| *w == word).map(|(_, t)| *t)
}

/// Splits a line into upper-case words, with `+` and `,` as words of
/// their own (they carry meaning) and other punctuation as spaces.
fn words(line: &str) -> Vec<String> {
    let mut text = line.trim().to_ascii_uppercase();
    // A list number ("1.", "2)") in front of an order is the player's own
    // numbering, not part of the order.
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && matches!(text[digits..].chars().next(), Some('.' | ')' | ':')) {
        text = text[digits + 1..].to_string();
    }
    let text = text.replace("->", " ").replace("=>", " ").replace("'", "");
    let mut spaced = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '+' | ',' | '&' => {
                spaced.push(' ');
                spaced.push(c);
                spaced.push(' ');
            }
            c if c.is_ascii_alphanumeric() => spaced.push(c),
            _ => spaced.push(' '),
        }
    }
    spaced.split_whitespace().map(str::to_string).collect()
}

/// Classifies the words of a line, in `notation`'s words and codes.
fn tokens(line: &str, notation: &Notation) -> Vec<Token> {
    let words = words(line);
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let next = words.get(i + 1).map(String::as_str);
        let next_is_reserve = matches!(next, Some("RESERVE" | "RES"));
        // "Gray's reserve": the possessive, its apostrophe already dropped.
        let side = lookup(side_words(notation), w).or_else(|| {
            w.strip_suffix('S')
                .filter(|_| next_is_reserve)
                .and_then(|w| lookup(side_words(notation), w))
        });
        if next_is_reserve
            && matches!(
                w,
                "ENEMY" | "ENEMYS" | "THEIR" | "HIS" | "OPPONENT" | "OPPONENTS"
            )
        {
            out.push(Token::EnemyReserve);
            i += 2;
            continue;
        }
        if let Some(side) = side {
            if next_is_reserve {
                out.push(Token::Reserve(Some(side)));
                i += 2;
            } else {
                // "Blue: MOVE ..." as in a record: the writer's own name.
                i += 1;
            }
            continue;
        }
        if (w == "NO" || w == "DONT" || w == "NOT") && next == Some("ADVANCE") {
            out.push(Token::Verb(Verb::Stay));
            i += 2;
            continue;
        }
        if matches!(w, "FALL" | "FALLS") && next == Some("BACK") {
            out.push(Token::Verb(Verb::Retreat));
            i += 2;
            continue;
        }
        if (w == "NO" || w == "DONT" || w == "NOT") && next == Some("RETREAT") {
            out.push(Token::Verb(Verb::Stand));
            i += 2;
            continue;
        }
        if w == "IN" && next.is_some_and(is_support_word) {
            out.push(Token::Supporting);
            i += 2;
            continue;
        }
        if (w == "NO" || w == "WITHOUT") && next.is_some_and(is_support_word) {
            out.push(Token::NoSupport);
            i += 2;
            continue;
        }
        // "remove one infantry", "move 1 cavalry": the number is an article.
        if (w == "ONE" || w == "1")
            && next.is_some_and(|n| is_unit_word(n, words.get(i + 2), notation))
        {
            i += 1;
            continue;
        }
        // N36: LIGHT INFANTRY, HORSE BATTERY, HEAVY CAVALRY, ... are one
        // unit word, so that "light infantry" is not read as two types.
        if let Some(kind) = unit_pair(w, next, notation) {
            out.push(Token::Unit(kind));
            i += 2;
            continue;
        }
        // N24, N36: "GB 2" and "HB 2" name an option of that list; HB alone
        // is the horse battery.
        if let Some(list) = option_list(w, notation) {
            if let Some(n) = next.and_then(number) {
                out.push(Token::OptionList(list));
                out.push(Token::Number(n));
                i += 2;
                continue;
            }
        }
        i += 1;
        if FILLERS.contains(&w) {
            continue;
        }
        let token = if let Some(v) = lookup(VERBS, w) {
            Token::Verb(v)
        } else if let Some(u) = lookup(unit_words(notation), w).or_else(|| plural_unit(w, notation))
        {
            Token::Unit(u)
        } else if let Some(s) = Space::read(w, notation) {
            Token::Square(s)
        } else if w == "RESERVE" || w == "RES" {
            Token::Reserve(None)
        } else if w == "X" {
            Token::AttackMark
        } else if let Some(m) = lookup(MARKERS, w) {
            Token::Marker(m)
        } else if w == "SUPPORTING" || w == "SUPPORTS" {
            Token::Supporting
        } else if w == "+" || is_support_word(w) {
            Token::SupportMark
        } else if w == "UNSUPPORTED" || w == "ALONE" {
            Token::NoSupport
        } else if w == "," || w == "&" || w == "AND" {
            Token::Join
        } else if let Some(n) = number(w) {
            Token::Number(n)
        } else if let Some((list, n)) = glued_option(w, notation) {
            // "GB2", "HB3": the canonical `OPTION GB2` without its space.
            out.push(Token::OptionList(list));
            Token::Number(n)
        } else if let Some((a, b)) = glued_attack(w, notation) {
            out.push(Token::Square(a));
            out.push(Token::AttackMark);
            Token::Square(b)
        } else {
            Token::Unknown(w.to_string())
        };
        out.push(token);
    }
    out
}

/// SUPPORT and its forms (SUPPORTED, SUPPORTING, SUPPORTS), their
/// abbreviations, and BACKED (BY).
fn is_support_word(w: &str) -> bool {
    w.starts_with("SUPPORT") || matches!(w, "SUP" | "SUPP" | "SPT" | "BACKED")
}

/// Whether `w` (with the word after it) is a unit word of `notation`'s game.
fn is_unit_word(w: &str, next: Option<&String>, notation: &Notation) -> bool {
    lookup(unit_words(notation), w)
        .or_else(|| plural_unit(w, notation))
        .is_some()
        || unit_pair(w, next.map(String::as_str), notation).is_some()
}

fn plural_unit(w: &str, notation: &Notation) -> Option<UnitKind> {
    w.strip_suffix('S')
        .and_then(|s| lookup(unit_words(notation), s))
}

/// A number written in digits or as a word (ONE to FIVE).
fn number(w: &str) -> Option<u8> {
    w.parse::<u8>().ok().or_else(|| lookup(NUMBERS, w))
}

/// `GB2`, `HB3`: an option code of the variant's lists written as one word.
fn glued_option(w: &str, notation: &Notation) -> Option<(OptionsOffered, u8)> {
    let list = option_list(w.get(..2)?, notation)?;
    let n = w[2..].parse::<u8>().ok()?;
    Some((list, n))
}

/// `G1CXB1C`: an attack written without spaces around the `x`.
fn glued_attack(w: &str, notation: &Notation) -> Option<(Space, Space)> {
    w.match_indices('X').find_map(|(i, _)| {
        Some((
            Space::read(&w[..i], notation)?,
            Space::read(&w[i + 1..], notation)?,
        ))
    })
}

/// Why a line could not be turned into one order.
struct Misread {
    problem: String,
    /// Legal orders the line may have meant.
    candidates: Vec<Order>,
}

impl Misread {
    fn new(problem: impl Into<String>) -> Misread {
        Misread {
            problem: problem.into(),
            candidates: Vec::new(),
        }
    }
}

/// Reads `line` forgivingly and checks it against the pending decision, in
/// the words and codes of the game's own notation (N1, N36).
pub(crate) fn read_checked(game: &Squares, line: &str) -> Result<Order, Rejection> {
    let notation = notation_of(game);
    let quoted = line.trim().to_string();
    // A refused line always gets something to choose from while anything
    // is legal: the nearest orders, or the best there is.
    let reject = |problem: String, rule, suggestions: Vec<Order>| {
        let suggestions = if suggestions.is_empty() {
            suggest::any(game)
        } else {
            suggestions
        };
        Rejection {
            line: quoted.clone(),
            problem,
            rule,
            suggestions: suggestions
                .iter()
                .map(|o| o.display_in(notation).to_string())
                .collect(),
        }
    };
    if game.outcome.is_some() {
        return Err(reject(
            "the game is over".into(),
            Some(Refusal::GameOver.rule_in(game.variant())),
            vec![],
        ));
    }
    let toks = tokens(line, notation);
    if let Some(word) = toks.iter().find_map(|t| match t {
        Token::Unknown(w) => Some(w.clone()),
        _ => None,
    }) {
        return Err(unknown_word(game, &toks, &word, reject));
    }
    let order = match interpret(game, &toks) {
        Ok(order) => order,
        Err(m) => {
            let rule = if m.problem.contains("(R7)") {
                Some(crate::games::RuleId("R7"))
            } else {
                None
            };
            return Err(reject(m.problem, rule, m.candidates));
        }
    };
    let legal = game.legal_orders();
    match game.matching(&legal, &order) {
        Some(listed) => Ok(listed),
        None => {
            let refusal = game.diagnose(&order);
            Err(reject(
                refusal.display_in(notation).to_string(),
                Some(refusal.rule_in(game.variant())),
                suggest::nearest(game, &order),
            ))
        }
    }
}

/// The answer to a line with a word the reader does not know: the word,
/// what it may have meant, and the legal orders those readings give.
fn unknown_word(
    game: &Squares,
    toks: &[Token],
    word: &str,
    reject: impl Fn(String, Option<crate::games::RuleId>, Vec<Order>) -> Rejection,
) -> Rejection {
    let notation = notation_of(game);
    // The codes as this game writes them: F codes in the variant (N1).
    let codes: Vec<String> = Space::all()
        .map(|s| s.display_in(notation).to_string())
        .collect();
    let near_codes = nearest_words(word, codes.iter().map(String::as_str));
    let near_words = nearest_words(word, known_words(notation));
    let mut meant: Vec<&str> = near_codes.iter().chain(&near_words).copied().collect();
    meant.truncate(4);
    let what = if looks_like_code(word) {
        "is not a square of the board"
    } else {
        "is not a word orders use"
    };
    let mut problem = format!("{word:?} {what}");
    if meant.is_empty() {
        if looks_like_code(word) {
            problem.push_str(&format!(
                " (codes such as B1C, {}, NWF, BR)",
                notation.code("G2CR")
            ));
        } else {
            problem.push_str(
                " (orders start with MOVE, ATTACK, PASS, RETREAT, STAND, OPTION, \
                 ADVANCE, STAY or LOSE)",
            );
        }
    } else {
        problem.push_str(&format!("; did you mean {}?", meant.join(" or ")));
    }
    // Re-read the line with each correction of the unknown word and keep
    // the legal orders that come out: what the player most likely meant.
    let mut suggestions: Vec<Order> = Vec::new();
    let legal = game.legal_orders();
    for m in &meant {
        let fixed: Vec<Token> = toks
            .iter()
            .map(|t| match t {
                Token::Unknown(w) if w == word => tokens(m, notation)
                    .into_iter()
                    .next()
                    .unwrap_or(Token::Join),
                other => other.clone(),
            })
            .collect();
        if fixed.iter().any(|t| matches!(t, Token::Unknown(_))) {
            continue;
        }
        let fixed = merge_unit_pairs(fixed, notation);
        match interpret(game, &fixed) {
            Ok(order) => {
                if let Some(listed) = game.matching(&legal, &order) {
                    if !suggestions.contains(&listed) {
                        suggestions.push(listed);
                    }
                }
            }
            Err(m) => {
                for c in m.candidates {
                    if !suggestions.contains(&c) {
                        suggestions.push(c);
                    }
                }
            }
        }
    }
    if suggestions.is_empty() {
        // The orders of the squares and unit the rest of the line names.
        let hint = suggest::Hint {
            named: toks.iter().filter_map(|t| space_of(game, t)).collect(),
            unit: toks.iter().find_map(|t| match t {
                Token::Unit(u) => Some(*u),
                _ => None,
            }),
            ..suggest::Hint::default()
        };
        suggestions = suggest::nearest_hint(game, &hint);
    }
    suggestions.truncate(suggest::LIMIT);
    reject(problem, None, suggestions)
}

/// Joins two unit tokens that together are one of the variant's two-word
/// names (N36), as a corrected word may complete one ("lihgt infantry").
fn merge_unit_pairs(toks: Vec<Token>, notation: &Notation) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(toks.len());
    for t in toks {
        if let (Some(Token::Unit(a)), Token::Unit(b)) = (out.last(), &t) {
            if let Some(kind) = unit_pair(a.word(), Some(b.word()), notation) {
                out.pop();
                out.push(Token::Unit(kind));
                continue;
            }
        }
        out.push(t);
    }
    out
}

/// Whether an unknown word looks like a mistyped square code (B, G or F
/// and a digit, or a short word ending like a code) rather than a word.
fn looks_like_code(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) || (word.len() <= 3 && word.ends_with('F'))
}

/// The candidates within a small edit distance of `word`, nearest first.
/// Only candidates whose length is within that distance are compared: the
/// distance costs the product of the lengths, and a word of any length may
/// come by mail.
fn nearest_words<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let limit = if word.len() <= 3 { 1 } else { 2 };
    let mut scored: Vec<(usize, &str)> = candidates
        .filter(|c| c.len().abs_diff(word.len()) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().map(|(_, c)| c).collect()
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and swaps of two neighbouring letters (the commonest typing slip) each
/// count one.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The side whose decision is pending (the mover when none is).
fn decider(game: &Squares) -> Side {
    game.side_to_decide().unwrap_or(game.to_move)
}

/// A square token as a space: a reserve named in words is the named
/// side's, or the decider's own.
fn space_of(game: &Squares, t: &Token) -> Option<Space> {
    match t {
        Token::Square(s) => Some(*s),
        Token::Reserve(Some(side)) => Some(board().reserve(*side)),
        Token::Reserve(None) => Some(board().reserve(decider(game))),
        Token::EnemyReserve => Some(board().reserve(decider(game).opponent())),
        _ => None,
    }
}

/// Turns classified words into one order, using the position only to fill
/// in what the player left out.
fn interpret(game: &Squares, toks: &[Token]) -> Result<Order, Misread> {
    let verbs: Vec<Verb> = toks
        .iter()
        .filter_map(|t| match t {
            Token::Verb(v) => Some(*v),
            _ => None,
        })
        .collect();
    let squares: Vec<Space> = toks.iter().filter_map(|t| space_of(game, t)).collect();
    let numbers: Vec<u8> = toks
        .iter()
        .filter_map(|t| match t {
            Token::Number(n) => Some(*n),
            _ => None,
        })
        .collect();
    let units: Vec<UnitKind> = toks
        .iter()
        .filter_map(|t| match t {
            Token::Unit(u) => Some(*u),
            _ => None,
        })
        .collect();
    let lists: Vec<OptionsOffered> = toks
        .iter()
        .filter_map(|t| match t {
            Token::OptionList(l) => Some(*l),
            _ => None,
        })
        .collect();
    let has = |want: &Token| toks.iter().any(|t| t == want);
    if toks.is_empty() {
        return Err(Misread::new("there is no order on this line"));
    }
    let in_attack = game.attack.is_some();
    let verb = match verbs.as_slice() {
        [] => {
            let attack_words = toks.iter().any(|t| {
                matches!(
                    t,
                    Token::AttackMark
                        | Token::SupportMark
                        | Token::Supporting
                        | Token::NoSupport
                        | Token::Marker(Marker::With | Marker::Against)
                )
            });
            let move_words = toks
                .iter()
                .any(|t| matches!(t, Token::Unit(_) | Token::Marker(_)));
            if attack_words {
                Verb::Attack
            } else if in_attack {
                match (squares.is_empty(), numbers.is_empty(), units.is_empty()) {
                    (false, _, _) => Verb::Retreat,
                    (true, false, _) => Verb::Option,
                    (true, true, false) => Verb::Lose,
                    _ => return Err(Misread::new("there is no order on this line")),
                }
            } else if squares.len() >= 2 || (squares.len() == 1 && move_words) {
                // "G2CR G1C", "cav to G1C": a move.
                Verb::Move
            } else {
                // The orders of the square named, or of the unit type.
                let hint = suggest::Hint {
                    named: squares.clone(),
                    unit: units.first().copied(),
                    ..suggest::Hint::default()
                };
                return Err(Misread {
                    problem: format!(
                        "this line names no order: write MOVE, ATTACK or PASS \
                         (or just the squares, as in {}-{})",
                        notation_of(game).code("G2CR"),
                        notation_of(game).code("G1C")
                    ),
                    candidates: suggest::nearest_hint(game, &hint),
                });
            }
        }
        [v] => *v,
        [Verb::Stand, Verb::Hold] | [Verb::Hold, Verb::Stand] => Verb::Stand,
        [Verb::Stay, Verb::Hold] | [Verb::Hold, Verb::Stay] => Verb::Stay,
        _ => {
            return Err(Misread::new(
                "this line gives more than one order: write one order per line",
            ))
        }
    };
    let verb = match verb {
        Verb::Hold => match game.attack.map(|a| a.stage) {
            Some(Stage::Advance) => Verb::Stay,
            _ => Verb::Stand,
        },
        v => v,
    };
    // STAND, ADVANCE, STAY may name the unit they concern ("the infantry
    // in G1C stands", "my cavalry advances into G1C").
    let no_extras = |order: Order,
                     allowed: Option<Space>,
                     concerned: Option<Space>|
     -> Result<Order, Misread> {
        let kind = concerned.and_then(|s| game.unit_at(s)).map(|u| u.kind());
        let stray = squares.iter().any(|s| Some(*s) != allowed)
            || !numbers.is_empty()
            || !lists.is_empty()
            || units.iter().any(|u| Some(*u) != kind)
            || has(&Token::AttackMark)
            || has(&Token::SupportMark)
            || has(&Token::Supporting)
            || has(&Token::NoSupport);
        if stray {
            Err(Misread {
                problem: format!(
                    "{0} takes nothing more (write just {0})",
                    order.display_in(notation_of(game))
                ),
                candidates: legal_of(game, |o| *o == order),
            })
        } else {
            Ok(order)
        }
    };
    let target = game.attack.map(|a| a.target);
    let attacker = game.attack.map(|a| a.attacker);
    match verb {
        Verb::Pass => no_extras(Order::Pass, None, None),
        Verb::Stand => no_extras(Order::Stand, target, target),
        Verb::Advance => no_extras(Order::Advance, target, attacker),
        Verb::Stay => no_extras(Order::Stay, attacker, attacker),
        Verb::Option => read_option(
            game,
            &numbers,
            &lists,
            squares.is_empty() && units.is_empty(),
        ),
        Verb::Lose => match units.as_slice() {
            [kind] if squares.len() <= 1 && numbers.is_empty() && lists.is_empty() => {
                Ok(Order::Lose(*kind))
            }
            [] => Err(Misread {
                problem: format!("LOSE needs the unit type: {}", unit_word_list(game)),
                candidates: legal_of(game, |o| matches!(o, Order::Lose(_))),
            }),
            _ => Err(Misread::new("LOSE takes one unit type")),
        },
        Verb::Retreat => {
            if !numbers.is_empty()
                || !lists.is_empty()
                || has(&Token::SupportMark)
                || has(&Token::Supporting)
            {
                return Err(Misread::new(
                    "a retreat names only squares: where the unit goes (RETREAT BR)",
                ));
            }
            // "my infantry retreats to GR": the unit word names the
            // retreating unit.
            let from = retreating_square(game);
            let retreating = from.and_then(|s| game.unit_at(s)).map(|u| u.kind());
            if let Some(named) = units.iter().find(|u| Some(**u) != retreating) {
                return Err(Misread {
                    problem: match (from, retreating) {
                        (Some(s), Some(k)) => format!(
                            "the retreating unit in {} is {}, not {}",
                            s.display_in(notation_of(game)),
                            k.name(),
                            named.name()
                        ),
                        _ => format!("no {} retreats now", named.name()),
                    },
                    candidates: legal_of(game, |o| matches!(o, Order::Retreat(_))),
                });
            }
            let mut path = squares.clone();
            // "RETREAT B1C BR", "retreat from B1C", "the infantry in B1C
            // retreats": naming the square retreated from is read as the
            // retreat of the unit there.
            let names_origin = path.len() >= 2
                || !units.is_empty()
                || has(&Token::Marker(Marker::From))
                || has(&Token::Marker(Marker::At));
            if names_origin && path.first().copied() == from && from.is_some() {
                path.remove(0);
            }
            if path.is_empty() {
                return unique(
                    legal_of(game, |o| matches!(o, Order::Retreat(_))),
                    "RETREAT needs the square the unit retreats to",
                );
            }
            Chain::from_squares(&path)
                .map(Order::Retreat)
                .ok_or_else(|| Misread::new("a retreat names at most 9 squares"))
        }
        Verb::Move => fit::read_move(game, toks),
        Verb::Attack => fit::read_attack(game, toks),
        Verb::Hold => unreachable!("HOLD was read as STAND or STAY above"),
    }
}

/// The options the pending decision offers: the attack's list when the
/// attacker picks an option (R19, N18, N19), else the general one.
fn offered_now(game: &Squares) -> OptionsOffered {
    match game.attack {
        Some(a) if a.stage == Stage::Option && game.unit_at(a.attacker).is_some() => {
            game.options_offered(&a)
        }
        _ => OptionsOffered::General,
    }
}

/// An option's code in a list: `2`, `GB2`, `HB2`.
fn option_code(list: OptionsOffered, n: u8) -> String {
    match list {
        OptionsOffered::General => n.to_string(),
        OptionsOffered::GrandBattery => format!("GB{n}"),
        OptionsOffered::HorseBattery => format!("HB{n}"),
    }
}

/// The options of a list in words: "1 to 5", "GB1 to GB3" (N18), "HB1 to
/// HB5" (N19).
fn option_range(list: OptionsOffered) -> &'static str {
    match list {
        OptionsOffered::General => "1 to 5",
        OptionsOffered::GrandBattery => "GB1 to GB3 (N18)",
        OptionsOffered::HorseBattery => "HB1 to HB5 (N19)",
    }
}

/// `OPTION n`, `opt n`, `n`, `GB n`, `OPTION HBn`: an option of the named
/// list, or of the list the attack offers (N36: a bare number is read in
/// the offered list, so `OPTION 2` is GB2 where the Grand Battery list is
/// offered).
fn read_option(
    game: &Squares,
    numbers: &[u8],
    lists: &[OptionsOffered],
    bare: bool,
) -> Result<Order, Misread> {
    let offered = offered_now(game);
    let named = match lists {
        [] => None,
        [one] => Some(*one),
        _ => {
            return Err(Misread::new(format!(
                "OPTION takes one option, {}",
                option_range(offered)
            )))
        }
    };
    let list = named.unwrap_or(offered);
    let variant = game.variant() == Variant::Napoleonic;
    let options = || {
        legal_of(game, |o| {
            matches!(
                o,
                Order::Option(_) | Order::GrandBattery(_) | Order::HorseBattery(_)
            )
        })
    };
    let in_list = |n: u8| match list {
        OptionsOffered::General => (1..=5).contains(&n).then_some(Order::Option(n)),
        OptionsOffered::GrandBattery => (1..=3).contains(&n).then_some(Order::GrandBattery(n)),
        OptionsOffered::HorseBattery => (1..=5).contains(&n).then_some(Order::HorseBattery(n)),
    };
    let range = option_range(list);
    match numbers {
        [n] => match in_list(*n) {
            Some(order) if bare => Ok(order),
            Some(_) => Err(Misread::new(format!("OPTION takes one number, {range}"))),
            // A bare number the offered list lacks ("OPTION 4" where GB1 to
            // GB3 are offered) is left to the rules check, whose refusal
            // names the options this attack offers (N18, N19).
            None if bare && named.is_none() && offered != OptionsOffered::General => {
                Ok(Order::Option(*n))
            }
            None => Err(Misread {
                problem: format!(
                    "there is no option {}: the options are {}",
                    option_code(list, *n),
                    option_range(list)
                ),
                candidates: if variant { options() } else { Vec::new() },
            }),
        },
        [] => Err(Misread {
            problem: format!("OPTION needs its number, {range}"),
            candidates: options(),
        }),
        _ => Err(Misread::new(format!("OPTION takes one number, {range}"))),
    }
}

/// The unit words of the game, as LOSE takes them: "INFANTRY, ARTILLERY or
/// CAVALRY".
fn unit_word_list(game: &Squares) -> String {
    let words: Vec<&str> = game.variant().kinds().iter().map(|k| k.word()).collect();
    match words.split_last() {
        Some((last, init)) if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => words.join(""),
    }
}

/// The square of the unit whose retreat is being decided.
fn retreating_square(game: &Squares) -> Option<Space> {
    let a = game.attack?;
    Some(match a.stage {
        Stage::Response
        | Stage::SecondChance
        | Stage::GrandSecondChance
        | Stage::HorseDefenderRetreat => a.target,
        Stage::AttackerRetreat1 | Stage::AttackerRetreat4 | Stage::HorseBatteryRetreat => {
            a.attacker
        }
        Stage::SupportRetreat1
        | Stage::SupportRetreat5
        | Stage::GrandSupportRetreat
        | Stage::HorseSupportRetreat => a.support?,
        _ => return None,
    })
}

/// The legal orders for which `keep` holds.
fn legal_of(game: &Squares, keep: impl Fn(&Order) -> bool) -> Vec<Order> {
    let notation = notation_of(game);
    let mut v: Vec<Order> = game.legal_orders().into_iter().filter(keep).collect();
    v.sort_by_key(|o| o.display_in(notation).to_string());
    v
}

/// The one candidate, or a misread offering them all.
fn unique(candidates: Vec<Order>, problem: &str) -> Result<Order, Misread> {
    match candidates.as_slice() {
        [one] => Ok(*one),
        [] => Err(Misread::new(format!("{problem}, and none is legal now"))),
        _ => Err(Misread {
            problem: format!("{problem}: {} are possible", candidates.len()),
            candidates,
        }),
    }
}

/// The units that move in pairs, one step each (R11; N6 in the variant).
fn pair_movers(game: &Squares) -> &'static str {
    match game.variant() {
        Variant::CivilWar => "cavalry",
        Variant::Napoleonic => "cavalry or heavy cavalry",
    }
}

/// The units whose move may pass through a middle square (R11; N5, N6).
fn two_steppers(game: &Squares) -> &'static str {
    match game.variant() {
        Variant::CivilWar => "cavalry",
        Variant::Napoleonic => "cavalry, heavy cavalry or the horse battery",
    }
}

/// One unit's step from the squares written (two, or three with a cavalry
/// path), resolving a reserve move without its unit type when only one
/// type can make it.
fn step_of(game: &Squares, squares: &[Space], unit: Option<UnitKind>) -> Result<Step, Misread> {
    let (from, via, to) = match squares {
        [from, to] => (*from, None, *to),
        [from, via, to] => (*from, Some(*via), *to),
        [only] => {
            let moves = legal_of(game, |o| match o {
                Order::Move(s) => s.from == *only || s.to == *only,
                _ => false,
            });
            return Err(Misread {
                problem: format!(
                    "a move names the square it leaves and the square it enters; \
                     this one names only {}",
                    only.display_in(notation_of(game))
                ),
                candidates: moves,
            });
        }
        _ => {
            return Err(Misread::new(format!(
                "a move names the square it leaves and the square it enters, \
                 with at most one square between them for {}",
                two_steppers(game)
            )))
        }
    };
    let is_reserve = matches!(board().terrain(from), Terrain::Reserve(_));
    let unit = if is_reserve {
        match unit {
            Some(u) => Some(u),
            None => {
                let kinds = legal_of(
                    game,
                    |o| matches!(o, Order::Move(s) if s.from == from && s.to == to),
                );
                match kinds.as_slice() {
                    [Order::Move(s)] => s.unit,
                    [] => None,
                    _ => {
                        return Err(Misread {
                            problem: format!(
                                "a move out of the reserve names the unit type (R7): \
                                 which unit goes from {} to {}?",
                                from.display_in(notation_of(game)),
                                to.display_in(notation_of(game))
                            ),
                            candidates: kinds,
                        })
                    }
                }
            }
        }
    } else {
        // The unit type is optional on the board; a wrong one is caught
        // by the rules check with the unit actually there.
        match (unit, game.unit_at(from)) {
            (Some(named), Some(u)) if u.kind() == named => None,
            (named, _) => named,
        }
    };
    Ok(Step {
        from,
        via,
        to,
        unit,
    })
}

/// What an attack names, with an example in the game's codes.
fn attack_shape(notation: &Notation) -> Misread {
    Misread::new(format!(
        "an attack names the attacking unit's square, the target and \
         perhaps a supporting unit's square (ATTACK {} B1C SUPPORT {})",
        notation.code("G1C"),
        notation.code("G1CR")
    ))
}

/// What one word is to the order language of `notation` (see
/// [`OrderWord`]), by the reader's own tables: what the service takes for
/// order words is what this reader reads.
pub(crate) fn order_word(word: &str, notation: &Notation) -> OrderWord {
    let w = plain_word(word);
    // No word of the orders is long; a long one is not worth comparing.
    if w.is_empty() || w.len() > 24 {
        return OrderWord::Other;
    }
    let pair_word = notation.variant == Variant::Napoleonic
        && NAPOLEONIC_PAIRS.iter().any(|(_, second, _)| *second == w);
    if lookup(VERBS, &w).is_some() {
        OrderWord::Verb
    } else if lookup(unit_words(notation), &w)
        .or_else(|| plural_unit(&w, notation))
        .is_some()
        || pair_word
    {
        OrderWord::Unit
    } else if Space::read(&w, notation).is_some()
        || w == "RESERVE"
        || w == "RES"
        || glued_attack(&w, notation).is_some()
    {
        OrderWord::Square
    } else if number(&w).is_some()
        || glued_option(&w, notation).is_some()
        || option_list(&w, notation).is_some()
    {
        OrderWord::Number
    } else if JOINING_WORDS.contains(&w.as_str())
        || lookup(side_words(notation), &w).is_some()
        || w.starts_with("SUPPORT")
    {
        OrderWord::Filler
    } else if is_code_shaped(&w) {
        OrderWord::CodeLike
    } else {
        OrderWord::Other
    }
}

/// The verb or unit word of `notation` that `word` may be a slip of.
pub(crate) fn slip_of(word: &str, notation: &Notation) -> Option<&'static str> {
    let w = plain_word(word);
    if w.len() > 24 || order_word(&w, notation) != OrderWord::Other {
        return None;
    }
    near_order_word(&w, notation)
}

/// A word upper case, without apostrophes (`I'll`: `ILL`).
fn plain_word(word: &str) -> String {
    word.chars()
        .filter(|&c| c != '\'' && c != '\u{2019}')
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The words that only join or qualify the parts of an order. Not the
/// reader's own list of words it skips, which takes in much of what is
/// said around an order (YOUR, THIS, TAKE): here a word of prose must
/// count as prose.
const JOINING_WORDS: &[&str] = &[
    "FROM", "TO", "INTO", "IN", "THE", "MY", "A", "AN", "UNIT", "SQUARE", "BY", "VIA", "THROUGH",
    "THRU", "THEN", "AT", "ON", "PLEASE", "I", "OF", "WILL", "SHALL", "X", "WITH", "AND", "SUP",
    "SUPP", "SPT", "NO", "NOT", "DONT",
];

/// A board letter, a digit, and at most three more letters or digits
/// (`B4C`, `G1CRR`, `F2X`): a square's code mistyped.
fn is_code_shaped(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 2
        && b.len() <= 5
        && matches!(b[0], b'B' | b'G' | b'F')
        && b[1].is_ascii_digit()
        && b.iter().all(u8::is_ascii_alphanumeric)
}

/// The verb or unit word `w` is a slip away from: one edit for a word of
/// up to five letters, two for a longer one. Words of fewer than three
/// letters are too short to tell a slip from another word.
fn near_order_word(w: &str, notation: &Notation) -> Option<&'static str> {
    if w.len() < 3 || !w.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let limit = if w.len() <= 5 { 1 } else { 2 };
    VERBS
        .iter()
        .map(|(v, _)| *v)
        .chain(unit_words(notation).iter().map(|(u, _)| *u))
        // A slip keeps one of the first two letters in the first two
        // places: a cheap test before the distance.
        .filter(|c| c.len() >= 3 && c.len().abs_diff(w.len()) <= limit)
        .filter(|c| {
            let (a, b) = (&w.as_bytes()[..2], &c.as_bytes()[..2]);
            a.iter().any(|x| b.contains(x))
        })
        .map(|c| (short_distance(w.as_bytes(), c.as_bytes()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// [`edit_distance`] of two words of at most 24 letters, without
/// allocating: every word of every line of a mail is compared.
fn short_distance(a: &[u8], b: &[u8]) -> usize {
    const N: usize = 25;
    if a.len() >= N || b.len() >= N {
        return edit_distance(&String::from_utf8_lossy(a), &String::from_utf8_lossy(b));
    }
    // The rows for a[..i-2], a[..i-1] and a[..i].
    let mut rows = [[0usize; N]; 3];
    for (j, cell) in rows[1].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows[2][0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[1][j] + 1)
                .min(rows[2][j - 1] + 1)
                .min(rows[1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[0][j - 2] + 1);
            }
            rows[2][j] = best;
        }
        rows.rotate_left(1);
    }
    rows[1][b.len()]
}

#[cfg(test)]
mod slip_tests {
    use super::*;

    #[test]
    fn the_short_distance_is_the_edit_distance() {
        let words = [
            "", "A", "MOVE", "MVOE", "MOV", "MOVES", "ATTACK", "ATACK", "ATTAKC", "CAVALRY",
            "CAVALYR", "RETREAT", "RETRETA", "XYZ", "PASS", "PSS",
        ];
        for a in words {
            for b in words {
                assert_eq!(
                    short_distance(a.as_bytes(), b.as_bytes()),
                    edit_distance(a, b),
                    "{a} {b}"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(position: &str, line: &str) -> Result<String, Rejection> {
        let game: Squares = position.parse().expect("a test position");
        read_checked(&game, line).map(|o| o.display_in(notation_of(&game)).to_string())
    }

    const OPENING: &str = "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -";

    #[test]
    fn words_split_punctuation_but_keep_plus_and_comma() {
        assert_eq!(words("1. g1c x b1c+g1cr"), ["G1C", "X", "B1C", "+", "G1CR"]);
        assert_eq!(
            words("G2R-G3R, G2L->G3L."),
            ["G2R", "G3R", ",", "G2L", "G3L"]
        );
    }

    #[test]
    fn the_edit_distance_counts_a_swap_as_one() {
        assert_eq!(edit_distance("MVOE", "MOVE"), 1);
        assert_eq!(edit_distance("G1X", "G1C"), 1);
        assert_eq!(edit_distance("B1CR", "B1RC"), 1);
        assert_eq!(edit_distance("", "BR"), 2);
    }

    #[test]
    fn a_reserve_move_without_its_type_is_taken_when_only_one_type_can_go() {
        // Only cavalry reaches B2CR from the reserve (a two-step move).
        assert_eq!(
            read(OPENING, "BR B2CR").unwrap(),
            "MOVE CAVALRY BR B3R B2CR"
        );
        let r = read(OPENING, "BR B3C").unwrap_err();
        assert_eq!(r.rule.map(|r| r.0), Some("R7"));
        assert_eq!(r.suggestions.len(), 3, "{r}");
    }

    #[test]
    fn long_forms_and_words_for_the_reserve() {
        assert_eq!(
            read(OPENING, "move infantry from Blue reserve to B3C").unwrap(),
            "MOVE INFANTRY BR B3C"
        );
        assert_eq!(
            read(OPENING, "Move inf from reserve to b3c").unwrap(),
            "MOVE INFANTRY BR B3C"
        );
    }

    #[test]
    fn a_mistyped_square_is_named_with_what_it_may_have_meant() {
        let r = read(OPENING, "move cav from BR to B3X").unwrap_err();
        assert!(r.rule.is_none());
        assert!(r.problem.contains("\"B3X\" is not a square"), "{r}");
        assert!(r.problem.contains("B3C"), "{r}");
        assert!(
            r.suggestions.contains(&"MOVE CAVALRY BR B3C".to_string()),
            "{r}"
        );
    }

    #[test]
    fn a_misspelt_verb_is_corrected_in_the_suggestions() {
        let r = read(OPENING, "mvoe cav BR B3C").unwrap_err();
        assert!(r.problem.contains("MOVE"), "{r}");
        assert_eq!(r.suggestions, ["MOVE CAVALRY BR B3C"]);
    }
}
