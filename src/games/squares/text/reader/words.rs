//! The words of the order language and a line classified into them: the
//! verbs, role words, unit words and side names of each game's notation
//! (N24, N36), squares in its codes (N1), numbers and fillers.

use crate::games::squares::core::board::Space;
use crate::games::squares::core::unit::{Side, UnitKind};
use crate::games::squares::core::variant::Variant;
use crate::games::squares::engine::options::OptionsOffered;
use crate::games::squares::text::notation::Notation;

/// The verbs of the order language, with the contextual HOLD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verb {
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
pub(super) enum Token {
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
pub(super) enum Marker {
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

pub(super) const MARKERS: &[(&str, Marker)] = &[
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

pub(super) const VERBS: &[(&str, Verb)] = &[
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
pub(super) const CIVIL_WAR_UNITS: &[(&str, UnitKind)] = &[
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
pub(super) const NAPOLEONIC_UNITS: &[(&str, UnitKind)] = &[
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
pub(super) const NAPOLEONIC_PAIRS: &[(&str, &str, UnitKind)] = &[
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
pub(super) fn side_words(notation: &Notation) -> &'static [(&'static str, Side)] {
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
pub(super) fn unit_words(notation: &Notation) -> &'static [(&'static str, UnitKind)] {
    match notation.variant {
        Variant::CivilWar => CIVIL_WAR_UNITS,
        Variant::Napoleonic => NAPOLEONIC_UNITS,
    }
}

/// The two-word unit name starting at `first`, `second`, if it is one.
pub(super) fn unit_pair(
    first: &str,
    second: Option<&str>,
    notation: &Notation,
) -> Option<UnitKind> {
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
pub(super) fn option_list(word: &str, notation: &Notation) -> Option<OptionsOffered> {
    if notation.variant != Variant::Napoleonic {
        return None;
    }
    match word {
        "GB" => Some(OptionsOffered::GrandBattery),
        "HB" => Some(OptionsOffered::HorseBattery),
        _ => None,
    }
}

pub(super) const NUMBERS: &[(&str, u8)] = &[
    ("ONE", 1),
    ("TWO", 2),
    ("THREE", 3),
    ("FOUR", 4),
    ("FIVE", 5),
];

/// Words that carry no meaning in an order: articles, pronouns, politeness,
/// and the words around a choice ("I choose option 2", "we take it").
pub(super) const FILLERS: &[&str] = &[
    "THE", "MY", "A", "AN", "UNIT", "UNITS", "PIECE", "PIECES", "COUNTER", "SQUARE", "SPACE",
    "THEN", "PLEASE", "PLS", "PLZ", "I", "IM", "ILL", "WE", "WELL", "ME", "US", "LET", "LETS",
    "FAST", "FIRM", "ORDER", "ORDERS", "OF", "OUR", "ITS", "WILL", "SHALL", "WANT", "WISH",
    "WOULD", "LIKE", "CHOOSE", "CHOOSES", "PICK", "PICKS", "SELECT", "TAKE", "TAKES", "NOW",
    "JUST", "OK", "OKAY", "THANKS", "THANK", "YOU", "ENEMY", "ENEMYS", "HIS", "HER", "THEIR",
    "YOUR", "THIS", "THAT", "IS", "HERE", "OUT", "OWN", "DO", "MUST", "GOING", "TURN", "SOLDIERS",
    "TROOPS", "PUT", "LINE", "GROUND", "WHERE", "ARE", "IT", "FORWARD", "FORWARDS", "BACK", "UP",
];

/// Every word the reader knows, for "did you mean" on a misspelling.
pub(super) fn known_words(notation: &Notation) -> impl Iterator<Item = &'static str> {
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

pub(super) fn lookup<T: Copy>(table: &[(&str, T)], word: &str) -> Option<T> {
    table.iter().find(|(w, _)| *w == word).map(|(_, t)| *t)
}

/// Splits a line into upper-case words, with `+` and `,` as words of
/// their own (they carry meaning) and other punctuation as spaces.
pub(super) fn words(line: &str) -> Vec<String> {
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
pub(super) fn tokens(line: &str, notation: &Notation) -> Vec<Token> {
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
pub(super) fn is_support_word(w: &str) -> bool {
    w.starts_with("SUPPORT") || matches!(w, "SUP" | "SUPP" | "SPT" | "BACKED")
}

/// Whether `w` (with the word after it) is a unit word of `notation`'s game.
pub(super) fn is_unit_word(w: &str, next: Option<&String>, notation: &Notation) -> bool {
    lookup(unit_words(notation), w)
        .or_else(|| plural_unit(w, notation))
        .is_some()
        || unit_pair(w, next.map(String::as_str), notation).is_some()
}

pub(super) fn plural_unit(w: &str, notation: &Notation) -> Option<UnitKind> {
    w.strip_suffix('S')
        .and_then(|s| lookup(unit_words(notation), s))
}

/// A number written in digits or as a word (ONE to FIVE).
pub(super) fn number(w: &str) -> Option<u8> {
    w.parse::<u8>().ok().or_else(|| lookup(NUMBERS, w))
}

/// `GB2`, `HB3`: an option code of the variant's lists written as one word.
pub(super) fn glued_option(w: &str, notation: &Notation) -> Option<(OptionsOffered, u8)> {
    let list = option_list(w.get(..2)?, notation)?;
    let n = w[2..].parse::<u8>().ok()?;
    Some((list, n))
}

/// `G1CXB1C`: an attack written without spaces around the `x`.
pub(super) fn glued_attack(w: &str, notation: &Notation) -> Option<(Space, Space)> {
    w.match_indices('X').find_map(|(i, _)| {
        Some((
            Space::read(&w[..i], notation)?,
            Space::read(&w[i + 1..], notation)?,
        ))
    })
}

/// Joins two unit tokens that together are one of the variant's two-word
/// names (N36), as a corrected word may complete one ("lihgt infantry").
pub(super) fn merge_unit_pairs(toks: Vec<Token>, notation: &Notation) -> Vec<Token> {
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
