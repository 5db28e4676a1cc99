//! Telling apart the lines of a mail: people write orders the way they
//! write mail, with a greeting above, "OK then:" in front, "thanks" behind,
//! their name and a phone's footer below. Each line is read as one of:
//!
//! - a **command** or an **order**, once the courtesy around it is taken
//!   off: clauses without order words before and after it (`Hi Bob,`,
//!   `OK then:`, `, thanks!`), a label before an order with its own verb
//!   (`My move: PASS`), lead-in words in front (`OK`, `Please`, `I'll`,
//!   `Here's`) and courtesy words behind (`please`, `thanks`, `thx`);
//! - **prose**: a line in which no clause looks like an order or is a
//!   command. Prose is ignored and listed as ignored in the reply; it never
//!   voids an order, and a mail of orders and prose is a success.
//!
//! A line is cut into clauses at `,` `;` `:` `!` `?`, brackets, quotes, a
//! full stop that ends a sentence and a dash between spaces. Whether a
//! clause looks like an order is decided by the game's own words
//! ([`GameText::order_word`](crate::games::GameText::order_word)): verbs, unit words, squares, numbers, words
//! shaped like a square, and, beside those, slips of a verb or a unit word
//! ([`GameText::slip_of`](crate::games::GameText::slip_of)). A clause looks like an order when
//!
//! - it starts with an order word, or with a slip of one followed by an
//!   order word, and its order words outnumber its other words (when it
//!   starts with a verb, as many suffice: `Stand firm` is an order);
//!   except that unit words or numbers alone among other words make no
//!   order (`Infantry wins battles`, `2 more turns`); or
//! - it starts with another word but names a square, and its squares,
//!   units, numbers and slips still outnumber the other words (`xyz cav
//!   B3C`): an order whose verb is garbled, not a sentence that mentions
//!   a square (`I see you moved to B3C`, `Nice attack on B1C`). A verb
//!   after the first word makes no order: `Your move.`, `Good move!`.
//!
//! The orders' own fillers (FROM, TO, THE, AND, a side's name) count
//! neither way, and a name of the sender or of the game's players is no
//! order word even when it is one (`Art`). A question (`Resign?`) is
//! neither an order nor a command, except one that only asks for something
//! (`Board?`), and what ends a game (RESIGN, ACCEPT DRAW, CLAIM WIN) is
//! read only from a line that says nothing else.
//!
//! The mark of a numbered list (`2.`, `3)`) is no order word: the line is
//! read after it, and a list's line of prose (`2. Hello there`) is prose.
//!
//! A game whose every order names a verb or a unit (Brothers at War,
//! [`GameText::ORDER_WITHOUT_VERB_OR_UNIT`](crate::games::GameText::ORDER_WITHOUT_VERB_OR_UNIT)
//! false) is read more closely: a clause that names a unit and a verb
//! is an order among however many other words (`the 7th Greer moves to
//! 0705`: refused if it cannot be read, never dropped), and a line whose
//! order-like clauses name neither, in a sentence (`oops, wrong way
//! round. via 0904 then:`), can be no order of the game: it is a remark,
//! and the reply says so ([`Reading::Prose`]'s `remark`). Without other
//! words (`via 0904`) it is still an order written wrong, and refused.
//!
//! A verb alone, exclaimed (`Charge!`), is an order here; the mail decides
//! whether it is a cheer ([`LineReader::exclaimed_verb`],
//! [`LineReader::names_a_square`]): beside a real order that names its
//! squares it is, unless the writer's awaited answer is the verb itself
//! (`Stand!` against an attack).
//!
//! A line that looks like an order is read by the game, which takes it or
//! refuses it with its reason and the nearest legal orders: a misspelt
//! order (`mvoe cav B3C`) is refused, never ignored. One that also holds
//! other words ([`Reading::Mixed`]: `Stay safe!`) is answered on its own,
//! so that its refusal voids no other order of the mail.

use std::collections::HashSet;

use super::commands::{self, Command};
use super::reply::Answer;
use super::texts;
use crate::games::{hosted, OrderWord};

/// What one line of a mail is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// A command; `text` is the part of the line it was read from.
    Command {
        /// The command.
        command: Command,
        /// The line without the courtesy around the command.
        text: String,
    },
    /// An order line for the game: the line without the courtesy around
    /// the order.
    Order(String),
    /// An order line with words in it that are not the orders' (`Stay
    /// safe!`, `xyz cav B3C`): read by the game like any order, but on its
    /// own, so that its refusal voids no other order of the mail.
    Mixed(String),
    /// Not an order nor a command.
    Prose {
        /// The order word the line's one word may be a slip of (`pas`:
        /// `PASS`), to mention in the reply.
        hint: Option<&'static str>,
        /// In a game whose orders always name a verb or a unit: the
        /// squares and numbers a sentence mentions without being an order
        /// (`oops, wrong way round. via 0904 then:`), to say in the reply
        /// why the line was taken for a remark.
        remark: Option<String>,
    },
}

/// A prose line of a mail, waiting to be listed as ignored.
#[derive(Clone, Debug)]
pub struct Ignored {
    /// Its place among the mail's lines.
    pub at: usize,
    /// The line as written.
    pub line: String,
    /// See [`Reading::Prose`].
    pub hint: Option<&'static str>,
    /// See [`Reading::Prose`].
    pub remark: Option<String>,
}

/// Words that lead in to an order or a command: skipped in front of one.
const LEAD_IN: &[&str] = &[
    "OK", "OKAY", "OKE", "OKIE", "K", "KK", "ALRIGHT", "ALLRIGHT", "RIGHT", "WELL", "SO", "THEN",
    "NOW", "NEXT", "AND", "ALSO", "JUST", "PLEASE", "PLS", "PLZ", "KINDLY", "I", "ILL", "IM", "ID",
    "WE", "LETS", "LET", "US", "WILL", "SHALL", "WOULD", "LIKE", "WANT", "WISH", "GOING", "GONNA",
    "TO", "HERE", "HERES", "IS", "ARE", "MY", "OUR", "ORDER", "ORDERS", "FIRST", "SECOND",
    "FINALLY", "LASTLY", "YES", "YEP", "YEAH", "SURE", "FINE",
];

/// Courtesy words that may follow an order or a command.
const TRAILING: &[&str] = &[
    "PLEASE", "PLS", "PLZ", "THANKS", "THANK", "YOU", "THX", "TY", "TA", "CHEERS", "NOW", "THEN",
    "TOO", "OK", "OKAY", "SIR", "MATE",
];

/// More words than any order has: a longer clause is not searched for
/// slips of order words.
const MAX_ORDER_WORDS: usize = 16;

/// The longest prose line echoed whole in the reply.
pub const ECHO_COLUMNS: usize = 70;

/// Reads the lines of one mail with the words of one game (or of every
/// hosted game when the mail names none) and the names of the people in
/// it.
pub struct LineReader {
    game: Option<&'static str>,
    names: HashSet<String>,
    /// The game's every order names a verb or a unit
    /// ([`GameText::ORDER_WITHOUT_VERB_OR_UNIT`](crate::games::GameText::ORDER_WITHOUT_VERB_OR_UNIT)
    /// false).
    verb_or_unit: bool,
    /// The game waits for the writer's answer to a question: a line the
    /// words take for a remark is still asked of the game.
    answering: bool,
}

/// How a word of a line counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Order(OrderWord),
    Near(&'static str),
    Filler,
    Prose,
}

#[derive(Clone, Debug)]
struct Word {
    start: usize,
    end: usize,
    upper: String,
    /// How it counts, once the reader has classed it.
    class: Class,
}

/// A clause: the words between two separators.
#[derive(Clone, Debug, Default)]
struct Clause {
    words: Vec<Word>,
    /// An order by its shape in a game whose orders name a verb or a unit
    /// ([`LineReader::order_shaped`]), however many other words it has.
    shaped: bool,
    /// The separator that ends it, if any. A question (`?`) is neither an
    /// order nor a command (`Resign?`); a colon may end a label
    /// (`My move:`).
    end: Option<char>,
}

impl Clause {
    fn span<'a>(&self, line: &'a str) -> &'a str {
        match (self.words.first(), self.words.last()) {
            (Some(first), Some(last)) => &line[first.start..last.end],
            _ => "",
        }
    }
}

/// Commands that end a game: read only from a line that says nothing else
/// (`Resign.`, `OK, I resign`), never from a sentence (`Resign, you are
/// beaten`).
fn ends_the_game(command: &Command) -> bool {
    matches!(
        command,
        Command::Resign | Command::AcceptDraw | Command::ClaimWin
    )
}

impl LineReader {
    /// A reader for a mail about the hosted game called `game` (any game
    /// when `None` or not hosted); `names` are the display names and
    /// addresses of the people in it, whose words are no order words.
    pub fn new<'a>(game: Option<&str>, names: impl IntoIterator<Item = &'a str>) -> LineReader {
        let mut set = HashSet::new();
        for name in names {
            // An address gives its local part's words (`ann.lee@x`).
            let name = name.split('@').next().unwrap_or_default();
            for clause in clauses(name) {
                set.extend(clause.words.into_iter().map(|w| w.upper));
            }
        }
        let game = game.and_then(hosted::canonical);
        LineReader {
            game,
            names: set,
            verb_or_unit: game
                .and_then(hosted::find)
                .is_some_and(|h| !h.order_without_verb_or_unit),
            answering: false,
        }
    }

    /// This reader, for a writer the game waits for to answer a
    /// question (`answering`): a line the words take for a remark (`back
    /// to 0610, 0510 then`) is prose the game is asked about, not a
    /// remark.
    pub fn answering(mut self, answering: bool) -> LineReader {
        self.answering = answering;
        self
    }

    /// Reads one line (not empty).
    pub fn read(&self, line: &str) -> Reading {
        let line = line.trim();
        // A message keeps its punctuation; other commands lose the
        // sentence's (`Accept.`, `NEW ... VS bob@example.org.`).
        let as_written =
            as_command(line).filter(|c| matches!(c, Command::Say(_) | Command::Moderator(_)));
        if let Some(command) = as_written.or_else(|| as_command(&command_form(line))) {
            return Reading::Command {
                command,
                text: line.to_string(),
            };
        }
        let clauses: Vec<Clause> = clauses(line)
            .into_iter()
            .map(|mut c| {
                for w in &mut c.words {
                    w.class = self.class(&w.upper);
                }
                answer_in_advance(&mut c);
                // Slips matter only beside order words (`mvoe cav B3C`),
                // in a clause as short as orders are: every word looked at
                // is compared with every order word.
                if c.words.len() <= MAX_ORDER_WORDS
                    && c.words.iter().any(|w| matches!(w.class, Class::Order(_)))
                {
                    for w in &mut c.words {
                        w.class = self.slip(w);
                    }
                }
                let mut c = Self::courtesy_removed(c);
                self.order_shaped(&mut c);
                c
            })
            .filter(|c| !c.words.is_empty())
            .collect();
        let mut clauses = clauses;
        self.verb_before_squares(&mut clauses);
        // The mark of a numbered list (`2.`, `3)`) before the line's text
        // is no order of its own: the line is what follows it.
        let listed = list_mark(line)
            && clauses.len() > 1
            && clauses[0].words.len() == 1
            && matches!(clauses[0].end, Some('.' | ')'));
        if listed {
            clauses[0].words[0].class = Class::Filler;
        }
        let alone = clauses.len() == 1;
        let command_in = |c: &Clause| {
            as_command(c.span(line))
                .filter(|command| alone || !ends_the_game(command))
                .filter(|command| c.end != Some('?') || only_asks(command))
        };
        // (clause, whether it is an order rather than a command)
        let shaped: Vec<(usize, bool)> = clauses
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                if command_in(c).is_some() {
                    Some((i, false))
                } else {
                    (c.end != Some('?')
                        && (c.shaped
                            || self.looks_like_order(&c.words)
                            || self.unit_and_verb(&c.words)))
                    .then_some((i, true))
                }
            })
            .collect();
        // A label before an order with a verb of its own: "My move: PASS".
        let label = match shaped.as_slice() {
            [(label, true), (next, true), ..] => {
                clauses[*label].end == Some(':') && self.starts_with_verb(&clauses[*next].words)
            }
            _ => false,
        };
        let shaped = &shaped[usize::from(label)..];
        // A line that ends with a colon announces what follows ("Here's my
        // move, after much thought:"); unless it names what an order acts
        // on (a square, a unit, a number), its order word is a reference
        // to the next lines, not an order of its own, and reading it as
        // one would refuse it and void the real order below it.
        let announces = line.ends_with(':')
            && !shaped.iter().any(|&(i, order)| {
                order
                    && clauses[i].words.iter().any(|w| {
                        matches!(
                            w.class,
                            Class::Order(
                                OrderWord::Square
                                    | OrderWord::CodeLike
                                    | OrderWord::Unit
                                    | OrderWord::Number
                            )
                        )
                    })
            })
            && shaped.iter().all(|&(_, order)| order);
        let (Some(&(first, _)), Some(&(last, _))) = (shaped.first(), shaped.last()) else {
            return Reading::Prose {
                hint: self.hint(&clauses),
                remark: None,
            };
        };
        if announces {
            return Reading::Prose {
                hint: None,
                remark: None,
            };
        }
        if self.cheered(line, &clauses, shaped) {
            return Reading::Prose {
                hint: None,
                remark: None,
            };
        }
        if let Some(mentioned) = self.remark(&clauses, shaped) {
            return Reading::Prose {
                hint: None,
                // The game is asked about it when a question waits.
                remark: (!self.answering).then_some(mentioned),
            };
        }
        let start = clauses[first].words[0].start;
        let end = clauses[last].words[clauses[last].words.len() - 1].end;
        let core = line[start..end].replace('\u{2019}', "'");
        if let Some(command) = as_command(&core).filter(|c| alone || !ends_the_game(c)) {
            return Reading::Command {
                command,
                text: core,
            };
        }
        if shaped.iter().any(|&(_, order)| order) {
            let prose = clauses[first..=last]
                .iter()
                .flat_map(|c| &c.words)
                .any(|w| w.class == Class::Prose);
            return if prose {
                Reading::Mixed(core)
            } else {
                Reading::Order(core)
            };
        }
        // Commands in clauses of their own ("ACCEPT. HELP"): the first.
        let text = clauses[first].span(line).to_string();
        match command_in(&clauses[first]) {
            Some(command) => Reading::Command { command, text },
            None => Reading::Order(core),
        }
    }

    /// What a word is to the game: the mail's game, or the strongest
    /// reading among the hosted games.
    fn order_word(&self, word: &str) -> OrderWord {
        if let Some(w) = self
            .game
            .and_then(hosted::find)
            .map(|g| (g.order_word)(word))
        {
            return w;
        }
        let rank = |w: &OrderWord| match w {
            w if w.is_order_word() && *w != OrderWord::CodeLike => 4,
            OrderWord::CodeLike => 3,
            OrderWord::Filler => 2,
            _ => 1,
        };
        hosted::HOSTED
            .iter()
            .map(|g| (g.order_word)(word))
            .max_by_key(rank)
            .unwrap_or(OrderWord::Other)
    }

    fn class(&self, word: &str) -> Class {
        let w = self.order_word(word);
        if self.names.contains(word) {
            // A name is nobody's order, even `Art`.
            return if w.is_order_word() {
                Class::Filler
            } else {
                Class::Prose
            };
        }
        match w {
            OrderWord::Filler => Class::Filler,
            OrderWord::Other => Class::Prose,
            w => Class::Order(w),
        }
    }

    /// The word's class, a prose word that is a slip of an order word (and
    /// no name) as [`Class::Near`].
    fn slip(&self, word: &Word) -> Class {
        if word.class != Class::Prose || self.names.contains(&word.upper) {
            return word.class;
        }
        let slip = match self.game {
            Some(g) => hosted::find(g).and_then(|g| (g.slip_of)(&word.upper)),
            None => hosted::HOSTED.iter().find_map(|g| (g.slip_of)(&word.upper)),
        };
        slip.map_or(Class::Prose, Class::Near)
    }

    /// The clause without lead-in words in front and courtesy words
    /// behind (unless they are order words).
    fn courtesy_removed(mut clause: Clause) -> Clause {
        let is = |list: &[&str], w: &Word| {
            list.contains(&w.upper.as_str()) && !matches!(w.class, Class::Order(_))
        };
        let words = &mut clause.words;
        let lead = words.iter().take_while(|w| is(LEAD_IN, w)).count();
        words.drain(..lead);
        while words.last().is_some_and(|w| is(TRAILING, w)) {
            words.pop();
        }
        clause
    }

    /// Whether a clause looks like an order (see the module's text).
    fn looks_like_order(&self, clause: &[Word]) -> bool {
        let classes: Vec<Class> = clause
            .iter()
            .map(|w| w.class)
            .filter(|c| *c != Class::Filler)
            .collect();
        let Some(&first) = classes.first() else {
            return false;
        };
        let count = |f: &dyn Fn(&Class) -> bool| classes.iter().filter(|c| f(c)).count();
        let prose = count(&|c| *c == Class::Prose);
        let near = count(&|c| matches!(c, Class::Near(_)));
        let kind = |k: OrderWord| count(&|c| *c == Class::Order(k));
        let (verbs, units, numbers) = (
            kind(OrderWord::Verb),
            kind(OrderWord::Unit),
            kind(OrderWord::Number),
        );
        let squares = kind(OrderWord::Square) + kind(OrderWord::CodeLike);
        let order_words = verbs + units + numbers + squares;
        match first {
            Class::Order(w) => {
                if prose > 0 && verbs == 0 && squares == 0 {
                    // Unit words or numbers among other words.
                    return false;
                }
                if w == OrderWord::Verb {
                    order_words + near >= prose
                } else {
                    order_words + near > prose
                }
            }
            Class::Near(_) if order_words > 0 => order_words + near > prose,
            _ => squares > 0 && units + numbers + squares + near > prose,
        }
    }

    /// In a game whose every order names a verb or a unit: marks a clause
    /// that is an order by its shape, however many other words it has,
    /// and takes off the chatter before it:
    ///
    /// - a verb and then a square (`the 10th Milbrook charges across the
    ///   bridge 0904`: never a remark; the game reads it or refuses it);
    /// - `PLAY` or `DISCARD` and a card's title (`play drummer's call`,
    ///   `discard crack shots`: [`words::card_title_at`]);
    /// - a commander named (a rank, a commander's name) who stays or goes
    ///   to a square (`Hale stays where he is`, `Colonel Ward to 1006`);
    /// - chatter, then an order of order words alone naming what it acts
    ///   on (`anyway commander stay`: the order is `commander stay`).
    fn order_shaped(&self, clause: &mut Clause) {
        use crate::games::brothers_at_war::text::words;
        if !self.verb_or_unit || clause.words.len() > MAX_ORDER_WORDS {
            return;
        }
        let ws = &clause.words;
        let is_verb = |w: &Word| w.class == Class::Order(OrderWord::Verb);
        let is_square = |w: &Word| w.class == Class::Order(OrderWord::Square);
        let uppers: Vec<&str> = ws.iter().map(|w| w.upper.as_str()).collect();
        let verb_at = ws.iter().position(is_verb);
        // A verb, then a square.
        if verb_at.is_some_and(|v| ws[v..].iter().any(is_square)) {
            clause.shaped = true;
        }
        // PLAY or DISCARD and a card's title.
        let card_at = ws.iter().position(|w| {
            is_verb(w) && matches!(w.upper.as_str(), "PLAY" | "PLAYS" | "DISCARD" | "DISCARDS")
        });
        if let Some(k) = card_at.filter(|&k| words::card_title_at(&uppers[k + 1..]).is_some()) {
            clause.shaped = true;
            if k > 0 && !ws[..k].iter().any(|w| matches!(w.class, Class::Order(_))) {
                clause.words.drain(..k);
            }
            return;
        }
        // A commander who stays or goes to a square.
        const STAYS: &[&str] = &["STAY", "STAYS", "REMAIN", "REMAINS"];
        const ABOUT: &[&str] = &[
            "WHERE", "HE", "IS", "HES", "PUT", "HERE", "THERE", "STILL", "IN", "PLACE", "OLD",
            "GOES", "GO", "RIDES", "RIDE", "GALLOPS", "HEADS", "THE", "TO",
        ];
        let commander = uppers.iter().any(|w| words::commander_word(w));
        let stays = uppers.iter().any(|w| STAYS.contains(w));
        let squares = ws.iter().filter(|w| is_square(w)).count();
        let rest_said = ws.iter().all(|w| {
            w.class != Class::Prose
                || words::commander_word(&w.upper)
                || STAYS.contains(&w.upper.as_str())
                || ABOUT.contains(&w.upper.as_str())
        });
        if commander && rest_said && (stays || squares == 1) && ws.len() <= 8 {
            clause.shaped = true;
            return;
        }
        // Chatter, then an order of order words alone.
        let Some(k) = verb_at.filter(|&k| (1..=6).contains(&k)) else {
            return;
        };
        let chatter = ws[..k]
            .iter()
            .all(|w| matches!(w.class, Class::Prose | Class::Filler));
        let order = ws[k..].iter().all(|w| w.class != Class::Prose);
        let acts_on = ws[k + 1..].iter().any(|w| {
            matches!(
                w.class,
                Class::Order(OrderWord::Square | OrderWord::Unit | OrderWord::Number)
            ) || matches!(w.upper.as_str(), "STAY" | "UNITS" | "RESERVE")
        });
        if chatter && order && acts_on {
            clause.shaped = true;
            clause.words.drain(..k);
        }
    }

    /// In a game whose every order names a verb or a unit: a clause with a
    /// verb followed by clauses of squares (`10M moves across the ford,
    /// 0904, 0804`) is an order with them, never a sentence that mentions
    /// squares.
    fn verb_before_squares(&self, clauses: &mut [Clause]) {
        if !self.verb_or_unit {
            return;
        }
        for i in 0..clauses.len().saturating_sub(1) {
            let verb = clauses[i]
                .words
                .iter()
                .any(|w| w.class == Class::Order(OrderWord::Verb));
            let squares_next = clauses[i + 1]
                .words
                .iter()
                .find(|w| w.class != Class::Filler)
                .is_some_and(|w| w.class == Class::Order(OrderWord::Square));
            if verb && squares_next && !matches!(clauses[i].end, Some('?' | '!' | '.')) {
                clauses[i].shaped = true;
            }
        }
    }

    /// In a game whose every order names a verb or a unit: whether a
    /// clause names both, among however many other words (`the 7th Greer
    /// moves to 0705`, `I think 10M fires at 0907 now`). Such a clause is
    /// an order, refused if it cannot be read, never dropped as prose.
    fn unit_and_verb(&self, clause: &[Word]) -> bool {
        let has = |k: OrderWord| clause.iter().any(|w| w.class == Class::Order(k));
        self.verb_or_unit && has(OrderWord::Verb) && has(OrderWord::Unit)
    }

    /// In a game whose every order names a verb or a unit: the squares and
    /// numbers of a line whose order-like clauses (`shaped`) name neither,
    /// while other words make it a sentence (`oops, wrong way round. via
    /// 0904 then:`). Such a line can be no order of the game: it is a
    /// remark, said so in the reply. Without other words (`via 0904`) it
    /// is an order written wrong, and refused.
    fn remark(&self, clauses: &[Clause], shaped: &[(usize, bool)]) -> Option<String> {
        // An order by its shape (`Colonel Rusk stays.`) is never a remark.
        if !self.verb_or_unit || shaped.iter().any(|&(i, order)| !order || clauses[i].shaped) {
            return None;
        }
        let order_words: Vec<&Word> = shaped
            .iter()
            .flat_map(|&(i, _)| &clauses[i].words)
            .collect();
        let names_what_acts = order_words.iter().any(|w| {
            matches!(
                w.class,
                Class::Order(OrderWord::Verb | OrderWord::Unit) | Class::Near(_)
            )
        });
        let sentence = clauses
            .iter()
            .flat_map(|c| &c.words)
            .any(|w| w.class == Class::Prose);
        if names_what_acts || !sentence {
            return None;
        }
        // Every square and number the line names, in or out of the
        // clauses that looked like orders.
        let mentioned: Vec<&str> = clauses
            .iter()
            .flat_map(|c| &c.words)
            .filter(|w| {
                matches!(
                    w.class,
                    Class::Order(OrderWord::Square | OrderWord::CodeLike | OrderWord::Number)
                )
            })
            .map(|w| w.upper.as_str())
            .collect();
        // A remark mentions what an order would act on; a line that
        // mentions nothing is prose, not a remark.
        (!mentioned.is_empty()).then(|| mentioned.join(", "))
    }

    /// In a game whose every order names a verb or a unit: whether `line`
    /// is a cheer, an exclamation whose order words are verbs alone among
    /// other words (`guns, fire!`, `Fire away!`, `Charge, boys!`): it
    /// names no unit, square or number an order would act on, so it can
    /// be no order of the game, and it is ignored, never refused (a
    /// refusal would stop the mail's orders after it). A verb alone
    /// (`Charge!`) is left to the mail ([`LineReader::exclaimed_verb`]).
    fn cheered(&self, line: &str, clauses: &[Clause], shaped: &[(usize, bool)]) -> bool {
        if !self.verb_or_unit
            || !line.trim_end().ends_with('!')
            || shaped.iter().any(|&(_, order)| !order)
        {
            return false;
        }
        let words: Vec<&Word> = clauses.iter().flat_map(|c| &c.words).collect();
        let only_verbs = shaped
            .iter()
            .flat_map(|&(i, _)| &clauses[i].words)
            .all(|w| {
                matches!(
                    w.class,
                    Class::Order(OrderWord::Verb) | Class::Filler | Class::Prose
                )
            });
        only_verbs && words.iter().any(|w| w.class == Class::Prose)
    }

    /// Whether `line` may be a cheer ([`LineReader::cheered`]) that the
    /// game should still be asked about: an exclamation with a verb, in a
    /// game whose orders name a verb or a unit (`Charge Tanner's Ford!`
    /// names a place the mail's words do not know).
    pub fn exclaims_a_verb(&self, line: &str) -> bool {
        self.verb_or_unit
            && line.trim_end().ends_with('!')
            && clauses(line)
                .iter()
                .flat_map(|c| &c.words)
                .any(|w| self.class(&w.upper) == Class::Order(OrderWord::Verb))
    }

    /// Whether `line` is an order's verb alone, exclaimed (`Charge!`,
    /// `Attack!`): a cheer when the mail carries the real order too (see
    /// [`LineReader::names_a_square`]), an order when it is the mail's only
    /// one (`Stand!` answering an attack).
    pub fn exclaimed_verb(&self, line: &str) -> bool {
        let line = line.trim();
        if !line.ends_with('!') {
            return false;
        }
        let words: Vec<Word> = clauses(line).into_iter().flat_map(|c| c.words).collect();
        // The words that lead in to an order or follow it politely say no
        // more (`Let's go!`, `OK, attack!`, `Charge, please!`).
        let lead = words
            .iter()
            .take_while(|w| LEAD_IN.contains(&w.upper.as_str()))
            .count();
        let trail = words[lead..]
            .iter()
            .rev()
            .take_while(|w| TRAILING.contains(&w.upper.as_str()))
            .count();
        matches!(&words[lead..words.len() - trail], [word] if self.class(&word.upper) == Class::Order(OrderWord::Verb))
    }

    /// Whether an order line names a square (or a mistyped one): an order
    /// that says what it acts on, beside which a lone exclaimed verb says
    /// nothing more.
    pub fn names_a_square(&self, line: &str) -> bool {
        clauses(line).iter().flat_map(|c| &c.words).any(|w| {
            matches!(
                self.class(&w.upper),
                Class::Order(OrderWord::Square | OrderWord::CodeLike)
            )
        })
    }

    fn starts_with_verb(&self, clause: &[Word]) -> bool {
        clause.iter().map(|w| w.class).find(|c| *c != Class::Filler)
            == Some(Class::Order(OrderWord::Verb))
    }

    /// The order word a one-word line may be a slip of.
    fn hint(&self, clauses: &[Clause]) -> Option<&'static str> {
        let words: Vec<&Word> = clauses
            .iter()
            .flat_map(|c| &c.words)
            .filter(|w| w.class != Class::Filler)
            .collect();
        match words.as_slice() {
            [word] => match self.slip(word) {
                Class::Near(meant) => Some(meant),
                _ => None,
            },
            _ => None,
        }
    }
}

/// An answer given in advance (`IF STAND OPTION 2`, `IF ATTACKED AT B2C
/// RETREAT B1R`): its IF and condition words join the order after them.
fn answer_in_advance(clause: &mut Clause) {
    let [first, second, ..] = clause.words.as_mut_slice() else {
        return;
    };
    let condition = second.class == Class::Order(OrderWord::Verb) || second.upper == "ATTACKED";
    if first.upper == "IF" && condition {
        first.class = Class::Filler;
        if second.upper == "ATTACKED" {
            second.class = Class::Filler;
        }
    }
}

/// Whether `line` starts with the mark of a numbered list: one or two
/// digits, then `.` or `)`, then a blank and more text (`2. 10M MOVE
/// 0904`, `3) PASS`).
fn list_mark(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    (1..=2).contains(&digits)
        && t[digits..].starts_with(['.', ')'])
        && t[digits + 1..].starts_with(char::is_whitespace)
        && !t[digits + 1..].trim().is_empty()
}

/// Commands that only ask for something (`Board?`): a question may be one.
fn only_asks(command: &Command) -> bool {
    matches!(
        command,
        Command::Help
            | Command::HelpMoves(_)
            | Command::Board
            | Command::BoardAll
            | Command::History
            | Command::Games
            | Command::GamesPublic
            | Command::Ratings(_)
            | Command::Rating(_)
    )
}

/// The line as a command would be written: without the punctuation that
/// ends a sentence and after the first word (`Accept.`, `Moderator: ...`).
fn command_form(line: &str) -> String {
    let line =
        line.trim_end_matches(|c: char| matches!(c, '.' | '!' | ',' | ';') || c.is_whitespace());
    match line.split_once(char::is_whitespace) {
        Some((first, rest)) => format!(
            "{} {}",
            first.trim_end_matches([':', ',', '.', '!', ';']),
            rest.trim_start()
        ),
        None => line.trim_end_matches(':').to_string(),
    }
}

/// The command `text` is, if it is one. A `NEW` or `VACATION` written
/// wrong counts when it is clearly meant as one (an address, a game's
/// name, a number), so that its usage is answered; `New year, new luck!`
/// is no command.
fn as_command(text: &str) -> Option<Command> {
    let command = commands::read(text);
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.to_ascii_uppercase())
        .collect();
    let meant = match &command {
        Command::Order(_) => false,
        Command::BadNew(_) => {
            text.contains('@')
                || words
                    .get(1)
                    .is_some_and(|g| hosted::canonical(g).is_some() || g == "VS")
        }
        Command::BadVacation(_) => text.chars().any(|c| c.is_ascii_digit()),
        _ => true,
    };
    meant.then_some(command)
}

/// The words of a line, grouped in clauses: split at `,` `;` `:` `!` `?`,
/// brackets and quotes, a full stop that ends a sentence, and a dash with
/// spaces around it. Words are letters and digits (apostrophes inside
/// dropped: `I'll` is `ILL`), upper case.
fn clauses(line: &str) -> Vec<Clause> {
    let mut out: Vec<Clause> = vec![Clause::default()];
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let next = chars.get(i + 1).map(|&(_, c)| c);
        let prev = i.checked_sub(1).map(|p| chars[p].1);
        if c.is_alphanumeric() {
            let mut j = i;
            let mut upper = String::new();
            while j < chars.len() {
                let c = chars[j].1;
                let apostrophe = matches!(c, '\'' | '\u{2019}')
                    && chars.get(j + 1).is_some_and(|&(_, n)| n.is_alphanumeric());
                if c.is_alphanumeric() {
                    upper.extend(c.to_uppercase());
                } else if !apostrophe {
                    break;
                }
                j += 1;
            }
            let end = chars.get(j).map_or(line.len(), |&(e, _)| e);
            if let Some(clause) = out.last_mut() {
                clause.words.push(Word {
                    start: at,
                    end,
                    upper,
                    class: Class::Prose,
                });
            }
            i = j;
            continue;
        }
        let spaced = |c: Option<char>| c.is_none_or(char::is_whitespace);
        let separator = match c {
            ',' | ';' | ':' | '!' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '"' | '\u{201c}'
            | '\u{201d}' | '\u{2026}' => true,
            '.' => spaced(next) || next == Some('.'),
            '-' | '\u{2013}' | '\u{2014}' => spaced(prev) && spaced(next),
            _ => false,
        };
        if let Some(clause) = out.last_mut().filter(|c| separator && !c.words.is_empty()) {
            clause.end = Some(c);
            out.push(Clause::default());
        }
        i += 1;
    }
    out.retain(|c| !c.words.is_empty());
    out
}

/// `line` cut to [`ECHO_COLUMNS`] characters, with `...` when cut.
pub fn shortened(line: &str) -> String {
    if line.chars().count() <= ECHO_COLUMNS {
        return line.to_string();
    }
    let cut: String = line.chars().take(ECHO_COLUMNS - 3).collect();
    format!("{}...", cut.trim_end())
}

// ----- in the service -----------------------------------------------------

impl super::work::Work<'_> {
    /// The reader for this mail's lines: the words of the game it names,
    /// and the names and addresses of the sender and of the game's players.
    pub(super) fn line_reader(
        &self,
        claim: Option<&super::identity::Claim>,
    ) -> Result<LineReader, super::ServiceError> {
        let mut names = vec![self.sender.to_string()];
        names.extend(self.incoming.from.as_ref().and_then(|a| a.name.clone()));
        let mut game = None;
        if let Some(row) = claim.map(|c| self.tx.game(c.game)).transpose()?.flatten() {
            for seat in self.tx.seats(row.id)? {
                names.push(seat.address);
                names.push(seat.name);
            }
            game = Some(row.kind);
        }
        // B7: a question waits for the writer's answer.
        let answering = self.game.as_ref().is_some_and(|(game, seat)| {
            super::game::pending_of(game).is_some_and(|p| p.seat == seat.seat && !p.phase.is_turn())
        });
        Ok(LineReader::new(game.as_deref(), names.iter().map(String::as_str)).answering(answering))
    }

    /// Lists the prose lines gathered so far as ignored: consecutive ones
    /// in one answer, a line that may be a slipped order or that mentions
    /// a square as a remark on its own.
    pub(super) fn ignore(&mut self, prose: &mut Vec<Ignored>) {
        // Lines of prose next to each other are answered together; an
        // order between two breaks the group, so that each answer stands
        // in the mail's order.
        let mut group: Vec<String> = Vec::new();
        let mut group_at: Option<(usize, usize)> = None;
        for Ignored {
            at,
            line,
            hint,
            remark,
        } in std::mem::take(prose)
        {
            self.ignored += 1;
            if group_at.is_some_and(|(_, last)| last + 1 != at) {
                self.ignored_item(&mut group, group_at.map(|(first, _)| first));
            }
            let answer = match (hint, remark) {
                (_, Some(mentioned)) => texts::say(
                    "prose.remark",
                    minijinja::context! { mentioned => mentioned },
                ),
                (Some(meant), None) => {
                    texts::say("prose.slip", minijinja::context! { meant => meant })
                }
                (None, None) => {
                    if group.is_empty() {
                        group_at = Some((at, at));
                    } else if let Some((_, last)) = group_at.as_mut() {
                        *last = at;
                    }
                    group.push(shortened(&line));
                    continue;
                }
            };
            self.ignored_item(&mut group, group_at.map(|(first, _)| first));
            group_at = None;
            self.item_at(&shortened(&line), Answer::Ignored(answer), Some(at));
        }
        self.ignored_item(&mut group, group_at.map(|(first, _)| first));
    }

    fn ignored_item(&mut self, group: &mut Vec<String>, at: Option<usize>) {
        let answer = match group.len() {
            0 => return,
            1 => texts::say("prose.one", ()),
            _ => texts::say("prose.several", ()),
        };
        let line = std::mem::take(group).join("\n> ");
        self.item_at(&line, Answer::Ignored(answer), at);
    }
}

#[cfg(test)]
mod tests {
    use super::{clauses, shortened, Command, LineReader, Reading, ECHO_COLUMNS};
    use crate::games::squares::{Napoleonic, Squares};
    use crate::games::{GameText, OrderWord};

    fn squares() -> LineReader {
        LineReader::new(
            Some("squares"),
            ["Ann Lee", "ann.lee@example.org", "Art Hall"],
        )
    }

    fn order(line: &str) -> String {
        match squares().read(line) {
            Reading::Order(text) | Reading::Mixed(text) => text,
            other => panic!("{line:?} is not an order: {other:?}"),
        }
    }

    fn prose(line: &str) -> bool {
        matches!(squares().read(line), Reading::Prose { .. })
    }

    fn command(line: &str) -> Command {
        match squares().read(line) {
            Reading::Command { command, .. } => command,
            other => panic!("{line:?} is not a command: {other:?}"),
        }
    }

    #[test]
    fn brothers_at_war_instructions_cards_and_numbered_orders_are_orders() {
        let baw = LineReader::new(Some("brothersatwar"), ["Ann", "Bob"]);
        let is_order = |line: &str| {
            matches!(
                baw.read(line),
                Reading::Order(_) | Reading::Mixed(_) | Reading::Command { .. }
            )
        };
        for line in [
            "OPFIRE hale NEVER",
            "opfire rusk never.",
            "CARDS CSA AUTO",
            "cards usa auto.",
            "RETREAT pell IFKILLED LONG",
            "play 30 on hale.",
            "1. play 17 on cw3.",
            "2) CW3 move 0809",
            "FN6 fire on the 10th Millbrook",
            "move the 7th Greer to 0705",
        ] {
            assert!(is_order(line), "{line:?}: {:?}", baw.read(line));
        }
        for line in [
            "Always a pleasure",
            "Never mind the weather",
            "Ask me anything",
            "See you on the 5th of May",
            "Cheers, Bob",
        ] {
            assert!(
                matches!(baw.read(line), Reading::Prose { .. }),
                "{line:?}: {:?}",
                baw.read(line)
            );
        }
    }

    #[test]
    fn a_list_mark_alone_makes_no_order_and_stays_with_the_order_after_it() {
        // `2.` before a sentence is no order (it was read as the option 2).
        for line in ["1. Hello Bob", "2) Thanks for the game"] {
            assert!(prose(line), "{line:?}: {:?}", squares().read(line));
        }
        assert_eq!(order("2. cav BR B3C"), "cav BR B3C");
        assert_eq!(order("2."), "2");
        let baw = LineReader::new(Some("brothersatwar"), ["Ann", "Bob"]);
        assert_eq!(
            baw.read("2. the 7th Greer moves to 0705"),
            Reading::Order("the 7th Greer moves to 0705".into())
        );
    }

    #[test]
    fn in_a_game_whose_orders_name_a_verb_or_a_unit_a_hex_in_a_sentence_is_a_remark() {
        let baw = LineReader::new(Some("brothersatwar"), ["Carol", "Dave"]);
        assert_eq!(
            baw.read("oops, wrong way round. via 0904 then:"),
            Reading::Prose {
                hint: None,
                remark: Some("0904".into())
            }
        );
        // Without other words, or with a verb or a unit, it is an order
        // (refused by the game if written wrong).
        for line in [
            "via 0904 then:",
            "10M 0904",
            "Sorry: move 0904",
            "oops. 10M 0904",
        ] {
            assert!(
                matches!(baw.read(line), Reading::Order(_) | Reading::Mixed(_)),
                "{line:?}: {:?}",
                baw.read(line)
            );
        }
        // A clause naming a unit and a verb is an order among any words.
        assert_eq!(
            baw.read("I reckon 10M fires at 0907 today"),
            Reading::Mixed("reckon 10M fires at 0907 today".into())
        );
        // SQUARES takes squares alone as an order, even beside prose.
        assert!(!matches!(
            squares().read("oops, wrong way round. via B3C then:"),
            Reading::Prose {
                remark: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn brothers_at_war_commanders_card_titles_misspelt_units_and_chatter_are_orders() {
        let baw = LineReader::new(Some("brothersatwar"), ["Ann", "Bob"]);
        for (line, text) in [
            ("Hale stays where he is", "Hale stays where he is"),
            ("the colonel stays", "the colonel stays"),
            ("Colonel Ward stays.", "Colonel Ward stays"),
            ("Colonel Ward to 1006", "Colonel Ward to 1006"),
            ("anyway commander stay", "commander stay"),
            ("I'll play Run for the Creek", "play Run for the Creek"),
            (
                "Ha! I'll play Run for the Creek \u{2013} the boys can wade.",
                "play Run for the Creek",
            ),
            ("play drummer's call", "play drummer's call"),
            (
                "play marksman in the loft on hale",
                "play marksman in the loft on hale",
            ),
            ("discard crack shots", "discard crack shots"),
            (
                "the 10th Milbrook charges across the bridge 0904, 0804, 0704, 0604",
                "the 10th Milbrook charges across the bridge 0904, 0804, 0704, 0604",
            ),
        ] {
            match baw.read(line) {
                Reading::Order(t) | Reading::Mixed(t) => assert_eq!(t, text, "{line:?}"),
                other => panic!("{line:?}: {other:?}"),
            }
        }
        // A remark names every square of its line.
        assert_eq!(
            baw.read("oops, wrong way round 0904. via 0804 then:"),
            Reading::Prose {
                hint: None,
                remark: Some("0904, 0804".into())
            }
        );
        // While a question waits, a remark is left to the game to read.
        let answering = LineReader::new(Some("brothersatwar"), ["Ann"]).answering(true);
        assert_eq!(
            answering.read("back to 0610, 0510 then"),
            Reading::Prose {
                hint: None,
                remark: None
            }
        );
        for line in ["The rain stays with us", "Hmm, where did my DM4 volley go?"] {
            assert!(
                matches!(baw.read(line), Reading::Prose { .. }),
                "{line:?}: {:?}",
                baw.read(line)
            );
        }
    }

    #[test]
    fn the_games_say_what_their_words_are() {
        assert_eq!(Squares::order_word("move"), OrderWord::Verb);
        assert_eq!(Squares::order_word("Cavalry"), OrderWord::Unit);
        assert_eq!(Squares::order_word("b3c"), OrderWord::Square);
        assert_eq!(Squares::order_word("G1CxB1C"), OrderWord::Square);
        assert_eq!(Squares::order_word("2"), OrderWord::Number);
        assert_eq!(Squares::order_word("B4C"), OrderWord::CodeLike);
        assert_eq!(Squares::order_word("from"), OrderWord::Filler);
        assert_eq!(Squares::order_word("Gray"), OrderWord::Filler);
        assert_eq!(Squares::order_word("mvoe"), OrderWord::Other);
        assert_eq!(Squares::slip_of("mvoe"), Some("MOVE"));
        assert_eq!(Squares::slip_of("cavalyr"), Some("CAVALRY"));
        assert_eq!(Squares::slip_of("Retreta"), Some("RETREAT"));
        assert_eq!(Squares::slip_of("move"), None);
        assert_eq!(Squares::slip_of("Cheers"), None);
        assert_eq!(Squares::slip_of("Hi"), None);
        assert_eq!(Squares::order_word("Cheers"), OrderWord::Other);
        assert_eq!(Squares::order_word("Hi"), OrderWord::Other);
        // The variant's own words and codes.
        assert_eq!(Napoleonic::order_word("guard"), OrderWord::Unit);
        assert_eq!(Napoleonic::order_word("battery"), OrderWord::Unit);
        assert_eq!(Napoleonic::order_word("F3C"), OrderWord::Square);
        assert_eq!(Squares::order_word("guard"), OrderWord::Other);
        assert_eq!(Napoleonic::order_word("French"), OrderWord::Filler);
    }

    #[test]
    fn greetings_sign_offs_names_and_footers_are_prose() {
        for line in [
            "Hi,",
            "Hi Bob,",
            "Hello Bob,",
            "Dear Ann",
            "Thanks!",
            "Thanks a lot, see you next turn.",
            "Thx",
            "Cheers",
            "Cheers guys",
            "Best regards,",
            "Regards",
            "Kind regards, Ann",
            "Ann",
            "Ann Lee",
            "Art",
            "Good luck!",
            "Your move.",
            "Good move!",
            "Nice attack on B1C, well played.",
            "I see you moved to B3C last turn.",
            "Your cavalry at B3C looks exposed to me",
            "Infantry wins battles",
            "2 more turns and I win",
            "Attack is the best defence.",
            "Sent from my iPhone",
            "Sent from my Galaxy",
            "Sent from my Galaxy S23 Ultra",
            "Sent from Yahoo Mail for iPhone",
            "Sent from Mail for Windows",
            "Get Outlook for iOS",
            "Get Outlook for Android",
            "New year, new luck!",
            "Game on!",
            "Help me out here",
            "________________________________",
            "Love, Ann",
            "More soon.",
            "From the hill, with love",
            // Lines that announce the orders below them.
            "Hi Ann, café break over, here's my move, which I've thought about a lot today:",
            "Here's my move:",
            "My move:",
            "My orders for this turn:",
            "OK, so this is what I'll do:",
            "Attack, as promised:",
        ] {
            assert!(
                prose(line),
                "{line:?} is read as {:?}",
                squares().read(line)
            );
        }
    }

    #[test]
    fn orders_are_read_without_the_courtesy_around_them() {
        assert_eq!(order("cav BR B3C"), "cav BR B3C");
        assert_eq!(order("OK then: move cav to B3C"), "move cav to B3C");
        assert_eq!(order("OK move cav to B3C"), "move cav to B3C");
        assert_eq!(order("Please move cav to B3C."), "move cav to B3C");
        assert_eq!(order("move cav to B3C, thanks!"), "move cav to B3C");
        assert_eq!(order("cav BR B3C thanks"), "cav BR B3C");
        assert_eq!(order("I'll attack G1C B1C now."), "attack G1C B1C");
        assert_eq!(order("I\u{2019}ll attack G1C B1C"), "attack G1C B1C");
        assert_eq!(order("Here's my move: cav BR B3C"), "move: cav BR B3C");
        // A label before an order that has its own verb.
        assert_eq!(order("My move: ATTACK G1C B1C"), "ATTACK G1C B1C");
        assert_eq!(order("Here's my move: PASS."), "PASS");
        assert_eq!(order("Move 12: PASS"), "PASS");
        assert_eq!(order("Attack: G1C B1C"), "Attack: G1C B1C");
        // Several orders, answers given in advance among them.
        assert_eq!(
            order("ATTACK B1C G1C SUPPORT B1CL; IF STAND OPTION 3. Thanks!"),
            "ATTACK B1C G1C SUPPORT B1CL; IF STAND OPTION 3"
        );
        assert_eq!(
            order("OK: IF ATTACKED AT G1C STAND"),
            "IF ATTACKED AT G1C STAND"
        );
        assert_eq!(order("if attacked retreat BR"), "if attacked retreat BR");
        assert!(prose("If you attack B1C I will be sad"));
        assert_eq!(order("My orders: cav BR B3C"), "cav BR B3C");
        assert_eq!(order("Hi Bob, cav BR B3C. Your move!"), "cav BR B3C");
        assert_eq!(order("PASS!"), "PASS");
        assert_eq!(order("Stand."), "Stand");
        assert_eq!(order("Don't advance"), "Don't advance");
        assert_eq!(order("2"), "2");
        assert_eq!(order("Option 2."), "Option 2");
        assert_eq!(order("1. cav BR B3C"), "cav BR B3C");
        assert_eq!(order("2) OK, cav BR B3C"), "cav BR B3C");
        assert_eq!(order("G2CR-G1C"), "G2CR-G1C");
        assert_eq!(order("MOVE G2R G3R, G2L G3L"), "MOVE G2R G3R, G2L G3L");
        assert_eq!(
            order("ATTACK G1C B1C, supported by G1CR"),
            "ATTACK G1C B1C, supported by G1CR"
        );
        assert_eq!(
            order("Attack B1C from G1C supported by G1CR, and if that fails I will think again"),
            "Attack B1C from G1C supported by G1CR"
        );
        assert_eq!(order("Blue: cav BR B3C"), "cav BR B3C");
        assert_eq!(order("cav BR B3C (my last reserve)"), "cav BR B3C");
        assert_eq!(order("Art BR B2C"), "Art BR B2C");
    }

    #[test]
    fn an_order_written_wrong_still_looks_like_one() {
        // Refused by the game with suggestions, never ignored.
        assert_eq!(order("mvoe cav B3C"), "mvoe cav B3C");
        assert_eq!(order("mvo cav B3C"), "mvo cav B3C");
        assert_eq!(order("xyz cav B3C"), "xyz cav B3C");
        assert_eq!(order("move cav B9C"), "move cav B9C");
        assert_eq!(order("atack G1C B1C"), "atack G1C B1C");
        assert_eq!(order("cavalyr BR B3C"), "cavalyr BR B3C");
        assert_eq!(order("retreat to BR quickly"), "retreat to BR quickly");
        assert_eq!(order("Stay safe!"), "Stay safe");
        assert_eq!(
            order("move cav to B3C if possible"),
            "move cav to B3C if possible"
        );
        // Only order words, slips and fillers: an order like any other.
        for line in [
            "mvoe cav B3C",
            "move cav B9C",
            "Hold on",
            "cav BR B3C, thanks",
        ] {
            assert!(
                matches!(squares().read(line), Reading::Order(_)),
                "{line:?}"
            );
        }
        // Other words too: read on its own, so that it voids nothing.
        for line in ["xyz cav B3C", "Stay safe!", "retreat to BR quickly"] {
            assert!(
                matches!(squares().read(line), Reading::Mixed(_)),
                "{line:?}"
            );
        }
        // A lone slip is prose, with what it may have meant.
        assert_eq!(
            squares().read("pas"),
            Reading::Prose {
                hint: Some("PASS"),
                remark: None
            }
        );
    }

    #[test]
    fn in_a_game_whose_orders_name_a_verb_or_a_unit_an_exclaimed_verb_among_words_is_a_cheer() {
        let baw = LineReader::new(Some("brothersatwar"), ["Ann", "Bob"]);
        for line in ["guns, fire!", "Fire away, boys!", "Charge, lads!"] {
            assert!(
                matches!(baw.read(line), Reading::Prose { remark: None, .. }),
                "{line:?}: {:?}",
                baw.read(line)
            );
            assert!(baw.exclaims_a_verb(line), "{line:?}");
        }
        // A unit, a hex or a number makes it an order; a verb alone is the
        // mail's to judge (`LineReader::exclaimed_verb`).
        for line in [
            "10M, fire!",
            "fire at 0907!",
            "Charge!",
            "guns, fire at 0907",
        ] {
            assert!(
                !matches!(baw.read(line), Reading::Prose { .. }),
                "{line:?}: {:?}",
                baw.read(line)
            );
        }
    }

    #[test]
    fn an_exclaimed_verb_alone_is_told_from_an_order_naming_squares() {
        let r = squares();
        for line in ["Charge!", "Attack!", "Move!", "Stand!", "Retreat!"] {
            assert!(r.exclaimed_verb(line), "{line:?}");
        }
        // Found by a newcomer: lead-in and courtesy words around the verb
        // say no more; `Let's go!` beside the real order is a cheer.
        for line in ["Let's go!", "OK, attack!", "Now charge!", "Charge, please!"] {
            assert!(r.exclaimed_verb(line), "{line:?}");
        }
        for line in [
            "Charge",
            "Charge the hill!",
            "PASS.",
            "Good luck!",
            "ATTACK B1R G1L!",
        ] {
            assert!(!r.exclaimed_verb(line), "{line:?}");
        }
        assert!(r.names_a_square("ATTACK B1R G1L"));
        assert!(r.names_a_square("move cav B9C"));
        assert!(!r.names_a_square("Stand"));
        assert!(!r.names_a_square("move cav"));
        // Alone, it is still read as an order: the defender's answer.
        assert_eq!(order("Stand!"), "Stand");
        assert_eq!(order("Retreat!"), "Retreat");
    }

    #[test]
    fn commands_are_read_with_their_courtesy_too() {
        assert_eq!(command("Accept."), Command::Accept);
        assert_eq!(command("accept"), Command::Accept);
        assert_eq!(command("OK then: accept!"), Command::Accept);
        assert_eq!(command("Accept, thanks!"), Command::Accept);
        assert_eq!(command("Please accept"), Command::Accept);
        assert_eq!(command("Help!"), Command::Help);
        assert_eq!(command("?"), Command::Help);
        assert_eq!(command("Offer draw."), Command::OfferDraw);
        assert_eq!(
            command("Moderator: my opponent has vanished, please help."),
            Command::Moderator("my opponent has vanished, please help".into())
        );
        assert!(matches!(
            command("NEW SQUARES VS bob@example.org."),
            Command::New { opponent, .. } if opponent == "bob@example.org"
        ));
        assert!(matches!(command("new squares bob"), Command::BadNew(_)));
        assert!(matches!(
            command("vacation 0 days"),
            Command::BadVacation(_)
        ));
        assert!(matches!(command("GAME 4 abc"), Command::Game(_)));
        assert_eq!(
            command("SAY Good luck, Bob!"),
            Command::Say("Good luck, Bob!".into())
        );
        // A question is neither a command nor an order.
        assert!(prose("Resign?"));
        assert!(prose("Accept draw?"));
        assert_eq!(command("Board?"), Command::Board);
        assert_eq!(command("Board all?"), Command::BoardAll);
        assert!(prose("Resign? Never!"));
        assert!(prose("Move cav to B3C?"));
        // What ends a game is read only from a line that says nothing else.
        assert_eq!(command("Resign."), Command::Resign);
        assert_eq!(command("OK, I resign."), Command::Resign);
        assert!(prose("Resign, you are beaten"));
        assert_eq!(command("Accept draw, thanks"), Command::AcceptDraw);
        assert!(prose("Accept draw, or else"));
    }

    #[test]
    fn board_all_is_a_command_in_every_game_not_an_order_or_prose() {
        let baw = LineReader::new(Some("brothersatwar"), ["Ann", "Bob"]);
        for reader in [squares(), baw, LineReader::new(None, [])] {
            for line in [
                "board all",
                "BOARD ALL",
                "Board all.",
                "Please, board all",
                "Whole board, thanks!",
                "BOARD WHOLE",
                "board full",
            ] {
                assert!(
                    matches!(
                        reader.read(line),
                        Reading::Command {
                            command: Command::BoardAll,
                            ..
                        }
                    ),
                    "{line:?}: {:?}",
                    reader.read(line)
                );
            }
        }
    }

    #[test]
    fn without_a_game_every_hosted_games_words_count() {
        let any = LineReader::new(None, []);
        assert_eq!(
            any.read("move guard FR F3C"),
            Reading::Order("move guard FR F3C".into())
        );
        assert_eq!(any.read("HB FR F3C"), Reading::Order("HB FR F3C".into()));
        assert!(matches!(any.read("Hi Bob,"), Reading::Prose { .. }));
    }

    #[test]
    fn clauses_split_at_sentence_punctuation_only() {
        let words = |line: &str| -> Vec<Vec<String>> {
            clauses(line)
                .into_iter()
                .map(|c| c.words.into_iter().map(|w| w.upper).collect())
                .collect()
        };
        assert_eq!(
            words("Hi Bob, G2CR-G1C. e.g. x - y (z)"),
            [
                vec!["HI", "BOB"],
                vec!["G2CR", "G1C"],
                vec!["E", "G"],
                vec!["X"],
                vec!["Y"],
                vec!["Z"]
            ]
        );
        assert_eq!(words("I'll go 'now'"), [vec!["ILL", "GO", "NOW"]]);
        assert_eq!(words("Grüße"), [vec!["GRÜSSE"]]);
        assert!(words("---- *** ____").is_empty());
    }

    #[test]
    fn long_lines_are_shortened_for_the_echo() {
        assert_eq!(shortened("short"), "short");
        let long = "word ".repeat(30);
        let cut = shortened(&long);
        assert!(cut.chars().count() <= ECHO_COLUMNS && cut.ends_with("..."));
    }
}
