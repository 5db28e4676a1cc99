//! The rules engines of the games orderly hosts, behind one seam: [`Game`].
//!
//! A game is a pure state machine. Its state says whose decision is pending
//! and of what kind (a turn, or a choice inside an attack); it lists every
//! legal order for that decision; it applies an order, returning what
//! happened, or refuses it with a reason that names the rule. Nothing here
//! touches mail, SQL, the clock or a random source: a game is rebuilt by
//! replaying its orders from the options it was created with.

use std::fmt;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

pub mod hosted;
pub mod squares;
pub mod submission;
pub mod text;

pub use text::Rejection;

/// One of the two seats at the table.
///
/// Every game hosted by orderly is for two players. The seat is named by the
/// side of the board its reserve (or home edge) lies on: `North` is the side
/// drawn at the top of the rulebook's map (Blue in SQUARES, the British in the
/// Napoleonic variant), `South` the other. Games give their seats their own
/// names through [`Game::seat_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Seat {
    /// The seat at the top of the map.
    North,
    /// The seat at the bottom of the map.
    South,
}

impl Seat {
    /// Both seats, North first.
    pub const BOTH: [Seat; 2] = [Seat::North, Seat::South];

    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::North => Seat::South,
            Seat::South => Seat::North,
        }
    }

    /// 0 for North, 1 for South: handy for per-seat arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a new game is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOptions {
    /// The seat that takes the first turn (SQUARES R1: chosen at creation).
    pub first: Seat,
    /// The seed for games that need chance (dice, cards). Games without chance
    /// ignore it; the service draws and records it so that a replay is exact.
    pub seed: Option<u64>,
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            first: Seat::North,
            seed: None,
        }
    }
}

/// A rule of a game's rulings, such as `R16` for the SQUARES artillery pin.
///
/// Every refusal names one, so that a player can look it up and a test can
/// assert which rule was applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RuleId(pub &'static str);

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A refusal that can say which rule it enforces.
pub trait CitesRule {
    /// The rule that forbids the refused order.
    fn rule(&self) -> RuleId;
}

/// What kind of decision a game is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum DecisionKind {
    /// An ordinary turn: one action, or PASS where allowed.
    Turn,
    /// One half (1 or 2) of a double turn earned by a PASS.
    DoubleTurn {
        /// Which half: 1 or 2.
        half: u8,
    },
    /// A defender decides to RETREAT (and where) or to STAND.
    Defence,
    /// The attacker picks one of the options a standing defender leaves him.
    AttackOption,
    /// A player picks where one of his own units retreats to.
    Retreat,
    /// A defender may take a second chance to RETREAT.
    SecondChance,
    /// The owner of an attacked reserve picks the unit he loses there.
    ReserveLoss,
    /// The attacker decides to ADVANCE into the vacated square or STAY.
    Advance,
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecisionKind::Turn => f.write_str("turn"),
            DecisionKind::DoubleTurn { half } => write!(f, "double turn, half {half}"),
            DecisionKind::Defence => f.write_str("defence: retreat or stand"),
            DecisionKind::AttackOption => f.write_str("attack option"),
            DecisionKind::Retreat => f.write_str("retreat"),
            DecisionKind::SecondChance => f.write_str("second-chance retreat"),
            DecisionKind::ReserveLoss => f.write_str("reserve loss"),
            DecisionKind::Advance => f.write_str("advance or stay"),
        }
    }
}

/// The decision a game waits for: who must decide, and what kind of decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The seat that must decide.
    pub seat: Seat,
    /// What it must decide.
    pub kind: DecisionKind,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// That seat won.
    Win(Seat),
    /// Nobody won.
    Draw,
}

/// Why a game ended, as the rulebook states its victory conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum EndReason {
    /// A unit entered the empty enemy reserve (SQUARES R13).
    ReserveEntered,
    /// Points for eliminated enemy units reached the target (SQUARES R26, R27).
    Points {
        /// North's points.
        north: u32,
        /// South's points.
        south: u32,
    },
    /// The player who had to act had no legal action (SQUARES R8).
    NoLegalAction,
}

/// The end of a game: the result and how it was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Who won, or a draw.
    pub result: GameResult,
    /// How.
    pub reason: EndReason,
}

/// Text that could not be read as an order or a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// What was wrong, in words a player understands.
    pub message: String,
}

impl ParseError {
    /// A parse error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        ParseError {
            message: message.into(),
        }
    }
}

/// What one word of a mail line is to a game's order language (any case).
///
/// The service reads the words of each line this way (and asks
/// [`Game::slip_of`] about the others) to tell an order, or a misspelt one,
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
/// game (see [`Game::read_condition`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    /// The condition in the game's canonical words (`STAND`, `ATTACKED AT
    /// B2C`), as [`Game::condition_holds`] reads it back.
    pub text: String,
    /// Whether it stands until used or cancelled (a defender's answer to an
    /// attack that may come), rather than answering only the attack made in
    /// the same mail.
    pub standing: bool,
}

/// How a board is drawn for a reader (see [`Game::draw_board_styled`]).
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
}

/// The seam between the service and every game it hosts.
///
/// The state is the whole game: everything needed to continue it is in the
/// value (and in its serde form), nothing in a database row beside it.
pub trait Game: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// One order a player can give, in the game's canonical notation when
    /// printed with `Display`.
    type Order: Clone + Eq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned;
    /// Something that happened when an order was applied.
    type Event: Clone + PartialEq + fmt::Debug + fmt::Display + Serialize + DeserializeOwned;
    /// Why an order was refused.
    type Refusal: std::error::Error + Clone + PartialEq + CitesRule;

    /// A short stable name for the game ("squares"), used in records and
    /// in the database.
    const NAME: &'static str;

    /// A new game in its opening position.
    fn new(options: &GameOptions) -> Self;

    /// The game's own name for a seat ("Blue", "Gray").
    fn seat_name(seat: Seat) -> &'static str;

    /// The decision the game waits for, or `None` when it is over.
    fn pending(&self) -> Option<Pending>;

    /// Every legal order for the pending decision, in canonical form.
    /// Empty when the game is over.
    fn legal_orders(&self) -> Vec<Self::Order>;

    /// Reads one order in canonical notation. The position is needed because
    /// a notation may leave out what the position makes unambiguous.
    fn parse_order(&self, text: &str) -> Result<Self::Order, ParseError>;

    /// Applies an order for the pending decision, returning what happened
    /// (including decisions that had one legal choice and were taken
    /// automatically), or refuses it and leaves the state unchanged.
    fn apply(&mut self, order: &Self::Order) -> Result<Vec<Self::Event>, Self::Refusal>;

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The compact one-line position string (like chess FEN).
    fn position(&self) -> String;

    /// Reads a position string written by [`Game::position`].
    fn from_position(text: &str) -> Result<Self, ParseError>;

    /// The game's full title, as records and mails name it.
    const TITLE: &'static str;

    /// The rules this engine implements and their version, written into
    /// every record so that a replay years later knows what it replays
    /// ("squares-rulings R1-R28 S1-S8; orderly 2").
    const RULES_VERSION: &'static str;

    /// The game's rules in the project's own words, as `HELP RULES` mails
    /// them (kept in `docs/rules/`): plain text of at most 76 columns,
    /// ending with one line for every rule id a refusal can cite.
    const RULES: &'static str;

    /// The number of the current turn as players see it on the board.
    fn turn_number(&self) -> u32;

    /// The decision an event reports as taken automatically because it was
    /// the only legal choice, with the seat it was taken for. Records write
    /// these as comments: replaying the orders takes them again.
    fn forced(event: &Self::Event) -> Option<(Seat, Self::Order)>;

    /// Reads one order line as a player writes it (any case, long and short
    /// forms, abbreviations) and checks it against the pending decision.
    /// `Ok` only for an order [`Game::apply`] will take; otherwise a
    /// [`Rejection`] quoting the line, saying what is wrong and under which
    /// rule, with the nearest legal orders.
    fn read_order(&self, line: &str) -> Result<Self::Order, Rejection>;

    /// What `word` is to this game's order language (see [`OrderWord`]).
    fn order_word(word: &str) -> OrderWord;

    /// The verb or unit word that `word`, no word of the orders, may be a
    /// slip of (`MVOE`: `MOVE`), if any.
    fn slip_of(word: &str) -> Option<&'static str>;

    /// The board as plain ASCII (at most 76 columns), drawn from `viewer`'s
    /// seat, with the score, losses, turn, pending decision, and the squares
    /// of the last action (`last`: the events it produced) marked.
    fn draw_board(&self, viewer: Seat, last: &[Self::Event]) -> String;

    /// Reads the condition of an answer given in advance (the words after
    /// IF, before the answer's own order): `Err` says what this game's
    /// conditions are. Games without such answers refuse every condition.
    fn read_condition(&self, words: &str) -> Result<Condition, String> {
        let _ = words;
        Err(format!("{} takes no answers in advance", Self::TITLE))
    }

    /// Whether `condition` (from [`Game::read_condition`]) holds for
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

    /// [`Game::draw_board`] drawn in `style`: for a mail, the key can be
    /// left out and a game ended outside the rules (a resignation, an agreed
    /// draw, a moderator's ruling) shows its result instead of whose move
    /// it would be.
    fn draw_board_styled(&self, viewer: Seat, last: &[Self::Event], style: &BoardStyle) -> String {
        let _ = style;
        self.draw_board(viewer, last)
    }

    /// The pending choices, worded for the player who must decide: for a
    /// turn, the legal orders grouped by unit; for a decision inside an
    /// action, each option with what it would do. Empty when the game is over.
    fn choices(&self) -> String;

    /// Every legal order of the unit on `square` (what `HELP MOVES <square>`
    /// answers), or why there is none.
    fn choices_from(&self, square: &str) -> Result<String, Rejection>;
}

/// The seat a game calls `name` ("Blue", any case), if any.
pub fn seat_named<G: Game>(name: &str) -> Option<Seat> {
    Seat::BOTH
        .into_iter()
        .find(|&seat| G::seat_name(seat).eq_ignore_ascii_case(name.trim()))
}
