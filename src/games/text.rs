//! A game's text: everything a player reads or writes, apart from its
//! rules ([`GameText`] over [`Game`]), and what every game tells a player
//! about an order it did not take, in one shape the service can word for
//! mail ([`Rejection`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::flow::GameResult;
use super::{Game, RuleId, Seat};

/// An order line that was not taken: the line as written, what is wrong in
/// plain words, the rule that forbids it (none when the line could not be
/// read at all), and the nearest legal orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rejection {
    /// The line exactly as the player wrote it (trimmed).
    pub line: String,
    /// What is wrong, in words a player understands.
    pub problem: String,
    /// The rule that forbids the order, or `None` when it could not be read.
    #[serde(serialize_with = "rule_text")]
    pub rule: Option<RuleId>,
    /// The legal orders nearest to what was written, best first, in
    /// canonical notation. Empty when nothing is near (or nothing is legal).
    pub suggestions: Vec<String>,
}

impl Rejection {
    /// Whether the line could not be read as an order at all.
    pub fn is_unreadable(&self) -> bool {
        self.rule.is_none()
    }
}

/// The text form: the quoted line, the problem with its rule, and the
/// suggestions, one per line.
///
/// ```text
/// > G2CR G1CL
/// G1CL is not a square the infantry in G2CR can reach in one move (rule R9).
/// Nearest legal orders:
///   MOVE G2CR G1C
/// ```
impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "> {}", self.line)?;
        match self.rule {
            Some(rule) => write!(f, "{} (rule {rule}).", capitalised(&self.problem))?,
            None => write!(f, "{}.", capitalised(&self.problem))?,
        }
        if !self.suggestions.is_empty() {
            write!(f, "\nNearest legal orders:")?;
            for s in &self.suggestions {
                write!(f, "\n  {s}")?;
            }
        }
        Ok(())
    }
}

/// What one word of a mail line is to a game's order language (any case).
///
/// The service reads the words of each line this way (and asks
/// [`GameText::slip_of`] about the others) to tell an order, or a misspelt one,
/// from the greetings and sentences written around it; the game's own
/// reader decides what the order is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderWord {
    /// A verb orders are written with (`MOVE`, `PASS`, `RETREAT`).
    Verb,
    /// A kind of unit (`INF`, `CAVALRY`).
    Unit,
    /// A square or a reserve (`B3C`, `BR`, `RESERVE`), or an attack written
    /// as one word (`G1CxB1C`).
    Square,
    /// A number or an option's code (`2`, `GB2`).
    Number,
    /// Shaped like a square's code but none of the board's (`B4C`): a
    /// mistyped square.
    CodeLike,
    /// A word that only joins or qualifies in an order (`FROM`, `TO`,
    /// `THE`, `SUPPORT`, `AND`, a side's name).
    Filler,
    /// No word of the orders.
    Other,
}

impl OrderWord {
    /// Whether the word names something an order is made of: a verb, a
    /// unit, a square, a number, or a mistyped square.
    pub fn is_order_word(self) -> bool {
        matches!(
            self,
            OrderWord::Verb
                | OrderWord::Unit
                | OrderWord::Square
                | OrderWord::Number
                | OrderWord::CodeLike
        )
    }
}

/// The condition of an answer a player gives in advance (`IF STAND OPTION
/// 2`, `IF ATTACKED AT B2C RETREAT B1R`): the words after IF, read by the
/// game (see [`GameText::read_condition`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    /// The condition in the game's canonical words (`STAND`, `ATTACKED AT
    /// B2C`), as [`GameText::condition_holds`] reads it back.
    pub text: String,
    /// Whether it stands until used or cancelled (a defender's answer to an
    /// attack that may come), rather than answering only the attack made in
    /// the same mail.
    pub standing: bool,
}

/// How the end of a mail closes a turn of many orders (see
/// [`GameText::MAIL_TURN`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MailTurn {
    /// The order line played for the writer when the mail ends with the
    /// writer's turn still open (`END`).
    pub close: &'static str,
    /// The word that, as a mail's last order line, keeps the turn open
    /// instead (`MORE`); it is no order and is not played.
    pub keep_open: &'static str,
}

/// How a board is drawn for a reader (see [`GameText::draw_board_styled`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardStyle {
    /// Leave out the key to the board's marks: players get it in the first
    /// mail of a game and on `HELP BOARD`, not in every mail.
    pub without_key: bool,
    /// The game ended outside the rules: this result, in words, replaces
    /// the line saying whose move it is.
    pub ended: Option<String>,
    /// Leave out the last action in words: the mail lists what happened
    /// already (the board still marks its squares).
    pub without_last: bool,
    /// Draw the whole board, not a window around the action (`BOARD
    /// ALL`); games whose board is always whole ignore it.
    pub whole_map: bool,
    /// Drawn for an observer of a public game, who holds no seat: the
    /// viewer's seat only turns the map; nothing is "yours", and each
    /// side's hidden state (a hand of cards) is drawn as the other side
    /// reads it. Games that hide nothing and say "you" nowhere in their
    /// board ignore it.
    pub observer: bool,
}

/// A game's words: its names, its board, its choices and its order
/// language as players write them, over its rules ([`Game`]).
pub trait GameText: Game {
    /// The game's full title, as records and mails name it.
    const TITLE: &'static str;

    /// The game's rules in the project's own words, as `HELP RULES` mails
    /// them (kept in `docs/rules/`): plain text of at most 76 columns,
    /// ending with one line for every rule id a refusal can cite.
    const RULES: &'static str;

    /// For a game whose turn is any number of orders, ended by an order of
    /// its own: how a mail closes the turn (see [`MailTurn`]). `None` (the
    /// default): a turn ends by the game's rules alone, and a turn in parts
    /// (a SQUARES double turn) waits for its next part.
    const MAIL_TURN: Option<MailTurn> = None;

    /// How the game decides who acts first, in words, when no seat simply
    /// does (Brothers at War: the activation cup); `None` (the default):
    /// the first seat moves first.
    const WHO_FIRST: Option<&'static str> = None;

    /// A few of the game's orders as players write them, for HELP: one
    /// line of examples, empty for none.
    const ORDERS: &'static str = "";

    /// The game's own commands, beyond those every game takes, for HELP:
    /// lines of HELP's table (the command from column 3, what it does from
    /// column 28, each line at most [`MAIL_WIDTH`] columns), empty for
    /// none. A player of other games never reads them.
    const COMMANDS: &'static str = "";

    /// A statement every invitation to the game makes, word for word
    /// (Civil War 1863: its board is a reconstruction). `None` (the
    /// default): nothing to state.
    const NOTICE: Option<&'static str> = None;

    /// The seat that always moves first, whatever the players ask (Civil
    /// War 1863: the Confederacy); `None` (the default): the players
    /// choose.
    const FIRST: Option<Seat> = None;

    /// Whether an order may be written with neither a verb nor a unit
    /// (SQUARES: `B1C B2CR`, an option's number `2`): `true`, the
    /// default. A game whose every order names a verb or a unit
    /// (Brothers at War: `10M 0904`, `MOVE 0904`) says `false`, and the
    /// service then reads its mail more closely: a sentence that only
    /// mentions a square or a number (`oops, wrong way round. via 0904
    /// then:`) is a remark, and a clause that names a unit and a verb is
    /// an order even among other words (`the 7th Greer moves to 0705`).
    const ORDER_WITHOUT_VERB_OR_UNIT: bool = true;

    /// The short codes the game's own orders give the seats, North first
    /// (Brothers at War's `USA`, `CSA`), read as the seats' names too
    /// (`NEW ... AS USA`); empty (the default): none.
    const SEAT_CODES: [&'static str; 2] = ["", ""];

    /// The game's own name for a seat ("Blue", "Gray").
    fn seat_name(seat: Seat) -> &'static str;

    /// How the game ended under its rules, in the one wording records,
    /// the database and mails use ("reserve entered", "points: Blue 11,
    /// Gray 2").
    fn ending_words(ending: &Self::Ending) -> String;

    /// Reads [`GameText::ending_words`] back (any case and spacing).
    fn read_ending(words: &str) -> Option<Self::Ending>;

    /// What `event` tells `viewer`. Games without hidden information tell
    /// everybody the same (its `Display`); a game with hidden hands words
    /// what the viewer may not see without it.
    fn event_text(event: &Self::Event, viewer: Seat) -> String {
        let _ = viewer;
        event.to_string()
    }

    /// What `event` tells an observer, who holds no seat: only what both
    /// players may read, and nobody's "you". By default its `Display`, as
    /// [`GameText::event_text`] tells everybody; a game whose events are
    /// worded per viewer says it of each side in the third person, and
    /// hidden information as the side that may not see it reads it.
    fn public_event_text(event: &Self::Event) -> String {
        event.to_string()
    }

    /// Reads one order line as a player writes it (any case, long and short
    /// forms, abbreviations) and checks it against the pending decision.
    /// `Ok` only for an order [`Game::apply`] will take; otherwise a
    /// [`Rejection`] quoting the line, saying what is wrong and under which
    /// rule, with the nearest legal orders.
    fn read_order(&self, line: &str) -> Result<Self::Order, Rejection>;

    /// The orders to suggest to `seat` when [`Game::apply_standing`]
    /// refuses his standing order `order` (Brothers at War's instructions,
    /// B5): none by default.
    fn standing_suggestions(&self, seat: Seat, order: &Self::Order) -> Vec<String> {
        let _ = (seat, order);
        Vec::new()
    }

    /// What `word` is to this game's order language (see [`OrderWord`]).
    fn order_word(word: &str) -> OrderWord;

    /// The verb or unit word that `word`, no word of the orders, may be a
    /// slip of (`MVOE`: `MOVE`), if any.
    fn slip_of(word: &str) -> Option<&'static str>;

    /// The board as plain ASCII (at most 76 columns), drawn from `viewer`'s
    /// seat, with the score, losses, turn, pending decision, and the squares
    /// of the last action (`last`: the events it produced) marked.
    fn draw_board(&self, viewer: Seat, last: &[Self::Event]) -> String;

    /// [`GameText::draw_board`] drawn in `style`: for a mail, the key can
    /// be left out and a game ended outside the rules (a resignation, an
    /// agreed draw, a moderator's ruling) shows its result instead of
    /// whose move it would be.
    fn draw_board_styled(&self, viewer: Seat, last: &[Self::Event], style: &BoardStyle) -> String {
        let _ = style;
        self.draw_board(viewer, last)
    }

    /// The board as an SVG picture (issue 19), drawn from `viewer`'s seat
    /// with the `last` action's arrows; `observer` as in
    /// [`BoardStyle::observer`]. `None` (the default): the game has no
    /// picture yet, and its mails carry the ASCII board alone.
    fn draw_picture(&self, viewer: Seat, last: &[Self::Event], observer: bool) -> Option<String> {
        let _ = (viewer, last, observer);
        None
    }

    /// Reads the condition of an answer given in advance (the words after
    /// IF, before the answer's own order): `Err` says what this game's
    /// conditions are. Games without such answers refuse every condition.
    fn read_condition(&self, words: &str) -> Result<Condition, String> {
        let _ = words;
        Err(format!("{} takes no answers in advance", Self::TITLE))
    }

    /// Whether `condition` (from [`GameText::read_condition`]) holds for
    /// `seat`'s decision now pending, so that its answer is the order.
    fn condition_holds(&self, seat: Seat, condition: &Condition) -> bool {
        let _ = (seat, condition);
        false
    }

    /// The state in a few words for a mail's subject, as `viewer` reads
    /// it: `your move (turn 27)`, `Gray attacks B2C - retreat or stand?`,
    /// `over - Blue wins 11-2`.
    fn headline(&self, viewer: Seat) -> String {
        match (self.outcome(), self.pending()) {
            (Some(o), _) => match o.result {
                GameResult::Win(s) => format!("over - {} wins", Self::seat_name(s)),
                GameResult::Draw => "over - a draw".to_string(),
            },
            (None, Some(p)) if p.seat == viewer => format!("your {}", p.kind),
            (None, Some(p)) => format!("{}'s {}", Self::seat_name(p.seat), p.kind),
            (None, None) => "over".to_string(),
        }
    }

    /// The pending choices as `viewer` may read them: for the player who
    /// must decide, on a turn the legal orders grouped by unit, inside an
    /// action each option with what it would do. Empty when the game is
    /// over.
    fn choices(&self, viewer: Seat) -> String;

    /// [`GameText::ORDERS`] as `seat` reads them in this game: examples
    /// drawn from his own side where the game's examples name a side's
    /// units or squares. By default the same for both seats.
    fn orders_for(&self, seat: Seat) -> String {
        let _ = seat;
        Self::ORDERS.to_string()
    }

    /// Every legal order of the unit on `square` (what `HELP MOVES <square>`
    /// answers), or why there is none.
    fn choices_from(&self, square: &str) -> Result<String, Rejection>;
}

/// The seat a game calls `name` ("Blue", any case), if any.
pub fn seat_named<G: GameText>(name: &str) -> Option<Seat> {
    let name = name.trim();
    Seat::BOTH.into_iter().find(|&seat| {
        G::seat_name(seat).eq_ignore_ascii_case(name)
            || (!G::SEAT_CODES[seat.index()].is_empty()
                && G::SEAT_CODES[seat.index()].eq_ignore_ascii_case(name))
    })
}

/// Lines of mail are at most this wide (design: plain text, 76 columns).
pub const MAIL_WIDTH: usize = 76;

/// Wraps every line longer than [`MAIL_WIDTH`] at spaces. A continuation
/// line is indented by `continuation(indent)`, given the wrapped line's own
/// indentation: a hanging indent keeps a wrapped list item visibly one item.
/// A single word longer than the width is left whole.
pub fn wrap(text: &str, continuation: impl Fn(usize) -> usize) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.lines() {
        if line.len() <= MAIL_WIDTH {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let cont = " ".repeat(continuation(indent));
        let mut current = " ".repeat(indent);
        for word in line.split_whitespace() {
            if !current.trim().is_empty() && current.len() + 1 + word.len() > MAIL_WIDTH {
                out.push_str(current.trim_end());
                out.push('\n');
                current = cont.clone();
            }
            if !current.trim().is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(current.trim_end());
        out.push('\n');
    }
    out
}

/// `text` as the start of a sentence: trimmed, a capital first letter, no
/// full stop at the end (the caller adds its own ending).
pub fn capitalised(text: &str) -> String {
    let text = text.trim().trim_end_matches('.');
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

fn rule_text<S: serde::Serializer>(rule: &Option<RuleId>, s: S) -> Result<S::Ok, S::Error> {
    match rule {
        Some(r) => s.serialize_some(r.0),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rejection_quotes_the_line_and_cites_the_rule() {
        let r = Rejection {
            line: "G2CR G1CL".into(),
            problem: "G1CL is not a square the infantry in G2CR can reach in one move".into(),
            rule: Some(RuleId("R9")),
            suggestions: vec!["MOVE G2CR G1C".into()],
        };
        assert_eq!(
            r.to_string(),
            "> G2CR G1CL\nG1CL is not a square the infantry in G2CR can reach in one move \
             (rule R9).\nNearest legal orders:\n  MOVE G2CR G1C"
        );
    }
}
