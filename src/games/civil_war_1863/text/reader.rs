//! Reading an order line as players write it (docs/civil-war-1863-design.md,
//! "By mail"): any case and spacing, `-` or words between squares, kinds of
//! piece as letters or words, the pieces left out for the whole stack; then
//! checked against the rules so that only an order the engine takes is
//! given back. Every count read is bounded (a line, its words, a number).

use crate::games::civil_war_1863::core::order::{Order, Path, MAX_PATH};
use crate::games::civil_war_1863::core::side::PieceKind;
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::{Counts, MAX_COUNT};
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::movement::reach;
use crate::games::civil_war_1863::engine::refusal::Refusal;
use crate::games::{CitesRule, Rejection};

use super::words::{kind_word, FILLERS};

/// The longest line read, in characters: far more than any order needs.
pub const MAX_LINE: usize = 200;

/// The most words a line may have.
pub const MAX_WORDS: usize = 32;

/// The most squares a line may name: where the group stands and a path
/// of [`MAX_PATH`], and a few more so that a path too long is answered
/// with its rule rather than as unreadable.
const MOST_SQUARES_NAMED: usize = 8;

/// The most suggestions given with a refusal.
pub const MAX_SUGGESTIONS: usize = 3;

/// What the reader accepts, named in every refusal of an unreadable line.
pub const ACCEPTED: &str = "write a move as H7-H8 or H7 2I 1C-H8 (MOVE 2 INFANTRY AND 1 \
CAVALRY FROM H7 TO H8), a rail ride as RIDE H7 2I-H8-H9, or FORTIFY G12, UNFORTIFY G12, \
END; inside a battle TAKE 2 KILL 2I LOSE 1C (or TAKE ALL), SURVIVORS 1C-H9, REMOVE K3 I, \
KEEP I";

/// The words a line of orders may begin with.
const FIRST_WORDS: &[&str] = &[
    "END",
    "DONE",
    "FORTIFY",
    "UNFORTIFY",
    "TOSS",
    "KEEP",
    "REMOVE",
    "TAKE",
    "SURVIVORS",
    "MOVE",
    "MARCH",
    "ATTACK",
    "RIDE",
];

/// Reads `line` and checks it against the game: the order, or why not.
/// A line whose first word is a slip for one of [`FIRST_WORDS`]
/// (`SURVIVERS 1G-R8`) is refused with the line as it was surely meant,
/// when that reads and is legal now.
pub fn read_checked(game: &CivilWar1863, line: &str) -> Result<Order, Rejection> {
    let order = read(game, line).map_err(|mut rejection| {
        if let Some(meant) = respelled(game, line) {
            rejection.problem = format!("{} (did you mean {meant}?)", rejection.problem);
            rejection.suggestions.insert(0, meant.to_string());
        }
        rejection
    })?;
    match game.check(&order) {
        Ok(()) => Ok(order),
        Err(refusal) => Err(refused(game, line, &refusal, origin(&order), aim(&order))),
    }
}

/// The legal order `line` means with its first word, unknown, read as the
/// nearest of [`FIRST_WORDS`].
fn respelled(game: &CivilWar1863, line: &str) -> Option<Order> {
    let line = line.trim();
    let (first, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let first = first.to_ascii_uppercase();
    if first.len() < 4 || FIRST_WORDS.contains(&first.as_str()) {
        return None;
    }
    let [word] = crate::games::spelling::nearest_words(&first, FIRST_WORDS.iter().copied())[..]
    else {
        return None;
    };
    let order = read(game, &format!("{word} {rest}")).ok()?;
    game.check(&order).is_ok().then_some(order)
}

/// The engine's refusal of `line`, with the legal orders nearest to it
/// (those from `from` first, then those most like `aim`).
fn refused(
    game: &CivilWar1863,
    line: &str,
    refusal: &Refusal,
    from: Option<Square>,
    aim: Option<Aim>,
) -> Rejection {
    Rejection {
        line: line.trim().to_string(),
        problem: refusal.to_string(),
        rule: Some(refusal.rule()),
        suggestions: nearest(game, from, aim),
    }
}

/// The legal orders nearest to `order`: those of the same square first,
/// ending nearest where it meant to go.
pub fn suggestions(game: &CivilWar1863, order: &Order) -> Vec<String> {
    nearest(game, origin(order), aim(order))
}

/// Which pieces an order sends where.
#[derive(Clone, Copy)]
struct Aim {
    pieces: Counts,
    to: Square,
}

/// Up to [`MAX_SUGGESTIONS`] legal orders: those from `from` first (all
/// of them when none is), then those most like `aim`: the same pieces
/// first, then ending nearest its square (in king steps, then straight
/// before diagonal: `G7 1I-G9` is answered with a ride of 1I to G9 if
/// there is one, then `G7 1I-G8`), in the order they are listed otherwise.
fn nearest(game: &CivilWar1863, from: Option<Square>, aim: Option<Aim>) -> Vec<String> {
    let legal = game.legal();
    let mut near: Vec<&Order> = legal
        .iter()
        .filter(|o| from.is_some() && origin(o) == from)
        .collect();
    if near.is_empty() {
        near = legal.iter().collect();
    }
    if let Some(wanted) = aim {
        near.sort_by_key(|o| {
            self::aim(o).map_or((true, u8::MAX, u8::MAX), |Aim { pieces, to }| {
                let (dc, dr) = (
                    to.column().abs_diff(wanted.to.column()),
                    to.row().abs_diff(wanted.to.row()),
                );
                (pieces != wanted.pieces, dc.max(dr), dc + dr)
            })
        });
        // A one-step ride goes where the march does: offer the place once.
        let mut seen = Vec::new();
        near.retain(|o| match self::aim(o) {
            Some(Aim { pieces, to }) if seen.contains(&(pieces, to)) => false,
            Some(Aim { pieces, to }) => {
                seen.push((pieces, to));
                true
            }
            None => true,
        });
    }
    near.iter()
        .take(MAX_SUGGESTIONS)
        .map(ToString::to_string)
        .collect()
}

/// Which pieces an order sends where, if it sends any.
fn aim(order: &Order) -> Option<Aim> {
    match order {
        Order::Move { pieces, path, .. }
        | Order::Ride { pieces, path, .. }
        | Order::Survivors { pieces, path } => path.last().map(|&to| Aim {
            pieces: *pieces,
            to,
        }),
        _ => None,
    }
}

fn origin(order: &Order) -> Option<Square> {
    match order {
        Order::Move { from, .. } | Order::Ride { from, .. } => Some(*from),
        Order::Fortify(sq) | Order::Unfortify(sq) => Some(*sq),
        Order::Remove { square, .. } => Some(*square),
        _ => None,
    }
}

fn unreadable(line: &str, problem: impl Into<String>) -> Rejection {
    Rejection {
        line: line.trim().to_string(),
        problem: format!("{}: {ACCEPTED}", problem.into()),
        rule: None,
        suggestions: Vec::new(),
    }
}

/// The pieces a line names: counts per kind, or every free piece of some
/// kinds (`C` alone, `CAVALRY`), or the whole stack (nothing named, `ALL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Named {
    counts: Counts,
    every: [bool; 3],
}

impl Named {
    fn is_empty(&self) -> bool {
        self.counts.is_empty() && !self.every.contains(&true)
    }

    /// The pieces meant, given the free pieces of the square.
    fn resolve(&self, free: Counts) -> Counts {
        if self.is_empty() {
            return free;
        }
        let mut c = self.counts;
        for kind in PieceKind::ALL {
            if self.every[kind as usize] {
                c.0[kind as usize] = free.get(kind);
            }
        }
        c
    }
}

/// Reads `line` without checking it against the rules (the game is asked
/// only for the free pieces of a square and the routes of a ride).
pub fn read(game: &CivilWar1863, line: &str) -> Result<Order, Rejection> {
    if line.len() > MAX_LINE {
        return Err(unreadable(
            line,
            format!("the line is longer than {MAX_LINE} characters"),
        ));
    }
    let spaced = line
        .to_ascii_uppercase()
        .replace("->", " ")
        .replace([',', ';', '-', '(', ')'], " ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    if words.len() > MAX_WORDS {
        return Err(unreadable(
            line,
            format!("the line has more than {MAX_WORDS} words"),
        ));
    }
    let Some((&first, rest)) = words.split_first() else {
        return Err(unreadable(line, "the line is empty"));
    };
    match first {
        "END" | "DONE" if rest.iter().all(|w| *w == "TURN") => Ok(Order::EndTurn),
        "FORTIFY" | "UNFORTIFY" => {
            let sq = one_square(line, rest)?;
            Ok(if first == "FORTIFY" {
                Order::Fortify(sq)
            } else {
                Order::Unfortify(sq)
            })
        }
        "TOSS" => match rest {
            ["HEADS"] => Ok(Order::Toss { heads: true }),
            ["TAILS"] => Ok(Order::Toss { heads: false }),
            _ => Err(unreadable(line, "a toss is TOSS HEADS or TOSS TAILS")),
        },
        "KEEP" => {
            let (named, squares) = pieces_and_squares(line, rest)?;
            let kinds: Vec<PieceKind> = PieceKind::ALL
                .into_iter()
                .filter(|&k| named.counts.get(k) > 0 || named.every[k as usize])
                .collect();
            match (kinds.as_slice(), squares.is_empty()) {
                ([kind], true) => Ok(Order::Keep(*kind)),
                _ => Err(unreadable(line, "KEEP names one kind of piece, as KEEP I")),
            }
        }
        "REMOVE" => {
            let (named, squares) = pieces_and_squares(line, rest)?;
            let kinds: Vec<PieceKind> = PieceKind::ALL
                .into_iter()
                .filter(|&k| named.counts.get(k) > 0 || named.every[k as usize])
                .collect();
            match (kinds.as_slice(), squares.as_slice()) {
                ([kind], [square]) if named.counts.total() <= 1 => Ok(Order::Remove {
                    square: *square,
                    kind: *kind,
                }),
                // `REMOVE 2I FROM Q8`: clear, but a removal is one piece
                // (P27, P30), so that each can come from another square.
                ([kind], [square]) => {
                    let one = Order::Remove {
                        square: *square,
                        kind: *kind,
                    };
                    let n = named.counts.total();
                    Err(Rejection {
                        line: line.trim().to_string(),
                        problem: format!(
                            "a removal is one piece a line (P27, P30): to remove {} from {square}, \
                             write {one} on {n} lines",
                            super::event::pieces_words(named.counts)
                        ),
                        rule: None,
                        suggestions: vec![one.to_string()],
                    })
                }
                _ => Err(unreadable(
                    line,
                    "REMOVE names one square and one piece, as REMOVE K3 I (one line per piece)",
                )),
            }
        }
        "TAKE" => take(game, line, rest),
        "SURVIVORS" => {
            let (named, squares) = pieces_and_squares(line, rest)?;
            let battle = game.battle();
            let free = battle
                .and_then(|b| game.stack(b.at))
                .map(|s| s.all())
                .unwrap_or_default();
            if squares.is_empty() || squares.len() > 2 {
                return Err(unreadable(
                    line,
                    "SURVIVORS names the pieces and 1 or 2 squares, as SURVIVORS 1C-H9",
                ));
            }
            Ok(Order::Survivors {
                pieces: named.resolve(free),
                path: path_of(line, &squares)?,
            })
        }
        _ => movement(game, line, &words),
    }
}

fn one_square(line: &str, rest: &[&str]) -> Result<Square, Rejection> {
    match rest {
        [w] => Square::parse(w)
            .ok_or_else(|| unreadable(line, format!("{w} is not a square (A1 to R18)"))),
        _ => Err(unreadable(line, "FORTIFY and UNFORTIFY name one square")),
    }
}

/// A count in a line: at most [`MAX_COUNT`].
fn number(line: &str, word: &str) -> Result<Option<u8>, Rejection> {
    let n = match word {
        "A" | "AN" | "ONE" => 1,
        "TWO" => 2,
        "THREE" => 3,
        "FOUR" => 4,
        "FIVE" => 5,
        _ if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) => {
            match word.parse::<u8>() {
                Ok(n) if n <= MAX_COUNT => n,
                _ => {
                    return Err(unreadable(
                        line,
                        format!("{word} is more pieces than a side has (at most {MAX_COUNT})"),
                    ))
                }
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(n))
}

/// Verbs that say nothing a move's squares do not (`ALL` is the whole
/// stack, as naming no piece is).
const SKIPPED_VERBS: &[&str] = &["ALL", "MOVE", "MARCH", "ATTACK", "RIDE"];

/// The pieces and squares of a line, in order, skipping the joining words.
fn pieces_and_squares(line: &str, words: &[&str]) -> Result<(Named, Vec<Square>), Rejection> {
    let mut named = Named::default();
    let mut squares = Vec::new();
    let mut pending: Option<u8> = None;
    for &w in words {
        if let Some(n) = number(line, w)? {
            if pending.replace(n).is_some() {
                return Err(unreadable(line, format!("{w} follows another number")));
            }
            continue;
        }
        if let Some(kind) = kind_word(w) {
            let slot = &mut named.counts.0[kind as usize];
            match pending.take() {
                Some(n) => {
                    *slot = slot
                        .checked_add(n)
                        .filter(|&s| s <= MAX_COUNT)
                        .ok_or_else(|| unreadable(line, "too many pieces named"))?;
                }
                None => named.every[kind as usize] = true,
            }
            continue;
        }
        if pending.is_some() {
            return Err(unreadable(
                line,
                format!("a number must be followed by a kind of piece, not {w}"),
            ));
        }
        if let Some(sq) = Square::parse(w) {
            if squares.len() >= MOST_SQUARES_NAMED {
                return Err(unreadable(line, "too many squares named"));
            }
            squares.push(sq);
        } else if let Some(c) = Counts::parse(w) {
            named.counts = named.counts.plus(c);
            if named.counts.0.iter().any(|&n| n > MAX_COUNT) {
                return Err(unreadable(line, "too many pieces named"));
            }
        } else if !(FILLERS.contains(&w) || SKIPPED_VERBS.contains(&w)) {
            return Err(unreadable(line, format!("{w} is not a word of the orders")));
        }
    }
    if pending.is_some() {
        return Err(unreadable(
            line,
            "a number must be followed by a kind of piece",
        ));
    }
    Ok((named, squares))
}

/// The path through `squares`, checked by the callers to be short enough.
fn path_of(line: &str, squares: &[Square]) -> Result<Path, Rejection> {
    Path::new(squares).ok_or_else(|| unreadable(line, "too many squares named"))
}

/// A move or a rail ride: the first square is where the group stands.
fn movement(game: &CivilWar1863, line: &str, words: &[&str]) -> Result<Order, Rejection> {
    let ride = words
        .iter()
        .any(|w| matches!(*w, "RIDE" | "RAIL" | "RAILROAD"));
    let (named, squares) = pieces_and_squares(line, words)?;
    let Some((&from, path)) = squares.split_first() else {
        return Err(unreadable(line, "no square is named"));
    };
    if path.is_empty() {
        return Err(unreadable(
            line,
            format!("only {from} is named: name where the pieces go too"),
        ));
    }
    let free = game.stack(from).map(|s| s.free()).unwrap_or_default();
    let pieces = named.resolve(free);
    if path.len() > MAX_PATH {
        // Longer than any order: the engine's answer to a path too long
        // (P10-P12 for a move, P15 for a ride), as for one step too many.
        let refusal = if game.stack(from).is_none_or(|s| s.side != game.to_move()) {
            Refusal::NoPieces { square: from }
        } else if ride {
            Refusal::RideTooLong
        } else {
            let (slowest, most) = reach(pieces);
            Refusal::TooFar { slowest, most }
        };
        return Err(refused(
            game,
            line,
            &refusal,
            Some(from),
            path.last().map(|&to| Aim { pieces, to }),
        ));
    }
    let mut path = path_of(line, path)?;
    if !ride {
        return Ok(Order::Move { from, pieces, path });
    }
    if path.len() == 1 {
        // `H7 2I BY RAIL TO I10`: the route is found when only one leads
        // there (design, "By mail"); otherwise each square must be named (P15).
        let to = path[0];
        let mut routes: Vec<Path> = game
            .legal()
            .into_iter()
            .filter_map(|o| match o {
                Order::Ride {
                    from: f, path: p, ..
                } if f == from && p.last() == Some(&to) => Some(p),
                _ => None,
            })
            .collect();
        routes.sort();
        routes.dedup();
        match routes.len() {
            1 => path = routes.remove(0),
            0 => {}
            _ => {
                let named: Vec<String> = routes
                    .iter()
                    .map(|r| {
                        r.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join("-")
                    })
                    .collect();
                return Err(unreadable(
                    line,
                    format!(
                        "more than one rail route leads to {to} ({}): name every square",
                        named.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(Order::Ride { from, pieces, path })
}

/// `TAKE k KILL ... LOSE ...`, or `TAKE ALL` for the most the attack can
/// take when only one choice of pieces does it (P20).
fn take(game: &CivilWar1863, line: &str, rest: &[&str]) -> Result<Order, Rejection> {
    if rest == ["ALL"] {
        let losses: Vec<Order> = game
            .legal()
            .into_iter()
            .filter(|o| matches!(o, Order::Losses { .. }))
            .collect();
        let most = losses
            .iter()
            .filter_map(|o| match o {
                Order::Losses { take, .. } => Some(*take),
                _ => None,
            })
            .max();
        let best: Vec<&Order> = losses
            .iter()
            .filter(|o| matches!(o, Order::Losses { take, .. } if Some(*take) == most))
            .collect();
        return match best.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(unreadable(line, "no battle waits for its losses")),
            many => Err(Rejection {
                line: line.trim().to_string(),
                problem: "TAKE ALL fits more than one choice of pieces: name them".into(),
                rule: None,
                suggestions: many.iter().map(ToString::to_string).collect(),
            }),
        };
    }
    let kill = rest.iter().position(|w| *w == "KILL");
    let lose = rest.iter().position(|w| *w == "LOSE");
    let (Some(kill), Some(lose)) = (kill, lose) else {
        return Err(unreadable(
            line,
            "losses are written TAKE 2 KILL 2I LOSE 1C",
        ));
    };
    if !(kill == 1 && lose > kill) {
        return Err(unreadable(
            line,
            "losses are written TAKE 2 KILL 2I LOSE 1C",
        ));
    }
    let take = number(line, rest[0])?
        .ok_or_else(|| unreadable(line, format!("{} is not a number", rest[0])))?;
    let part = |words: &[&str]| -> Result<Counts, Rejection> {
        if words == ["NONE"] || words == ["NOTHING"] || words.is_empty() {
            return Ok(Counts::NONE);
        }
        let (named, squares) = pieces_and_squares(line, words)?;
        if !squares.is_empty() || named.every.contains(&true) {
            return Err(unreadable(line, "name the pieces lost by count, as 2I 1C"));
        }
        Ok(named.counts)
    };
    Ok(Order::Losses {
        take,
        enemy: part(&rest[kill + 1..lose])?,
        own: part(&rest[lose + 1..])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, GameOptions};

    fn start() -> CivilWar1863 {
        CivilWar1863::new(&GameOptions::default())
    }

    /// The South to move, with two infantry at E14, near the railroad.
    fn two_confederate_infantry_at_e14() -> CivilWar1863 {
        "cw1863 1; south to move; U: A1 1I; C: E14 2I"
            .parse()
            .unwrap()
    }

    #[test]
    fn a_refused_move_is_answered_with_the_legal_moves_ending_nearest_first() {
        // P2: a step is to a neighbouring square; E16 is two away. The
        // railroad through E14 reaches it (P15); then E15 is the straight
        // step toward it (a ride there is the same place, offered once),
        // D15 a diagonal one. The pieces named come first.
        let game = two_confederate_infantry_at_e14();
        let refused = read_checked(&game, "e14 1i-e16").unwrap_err();
        assert_eq!(refused.rule.map(|r| r.to_string()), Some("P2".into()));
        assert_eq!(
            refused.suggestions,
            ["RIDE E14 1I-E15-E16", "E14 1I-E15", "E14 1I-D15"],
            "{refused:?}"
        );
    }

    #[test]
    fn a_slip_in_the_first_word_is_answered_with_the_line_meant() {
        let game = two_confederate_infantry_at_e14();
        let refused = read_checked(&game, "moove e14 1i-e15").unwrap_err();
        assert!(
            refused.problem.ends_with("(did you mean E14 1I-E15?)"),
            "{refused:?}"
        );
        assert_eq!(
            refused.suggestions.first().map(String::as_str),
            Some("E14 1I-E15")
        );
        // Not a slip for any order word: no guess.
        let refused = read_checked(&game, "hello e14 1i-e15").unwrap_err();
        assert!(!refused.problem.contains("did you mean"), "{refused:?}");
    }

    #[test]
    fn several_pieces_to_remove_are_answered_with_one_line_each() {
        let game = start();
        let refused = read(&game, "remove 2i from g11").unwrap_err();
        assert!(
            refused
                .problem
                .contains("to remove 2 infantry from G11, write REMOVE G11 I on 2 lines"),
            "{refused:?}"
        );
        assert!(!refused.problem.contains("write a move as"), "{refused:?}");
        assert_eq!(refused.suggestions, ["REMOVE G11 I"]);
    }

    #[test]
    fn accepted_lines_read_as_their_canonical_order() {
        // The Confederacy moves first; G11 holds 2I2C, P7 3I1C, I10 1I.
        let game = start();
        let table = [
            ("G11 2I1C-H11", "G11 2I1C-H11"),
            ("g11 2i 1c - h11", "G11 2I1C-H11"),
            (
                "MOVE 2 INFANTRY AND 1 CAVALRY FROM G11 TO H11",
                "G11 2I1C-H11",
            ),
            (
                "move two infantry and a cavalry from g11 to h11",
                "G11 2I1C-H11",
            ),
            ("G11-H11", "G11 2I2C-H11"),
            ("MOVE G11 TO H11", "G11 2I2C-H11"),
            ("G11 H11", "G11 2I2C-H11"),
            ("move all from g11 to h11", "G11 2I2C-H11"),
            ("G11 C-H12-I13", "G11 2C-H12-I13"),
            ("G11 cavalry H12 I13", "G11 2C-H12-I13"),
            ("G11 1 cav -> H12", "G11 1C-H12"),
            ("ride I10 1I-H11-G11", "RIDE I10 1I-H11-G11"),
            ("fortify m14", "FORTIFY M14"),
        ];
        for (line, want) in table {
            match read_checked(&game, line) {
                Ok(order) => assert_eq!(order.to_string(), want, "{line}"),
                Err(r) => panic!("{line}: {r}"),
            }
        }
        // END only once an order is given (P8).
        let mut game = game;
        assert_eq!(
            read_checked(&game, "end").unwrap_err().rule.map(|r| r.0),
            Some("P8")
        );
        let order = read_checked(&game, "G11-H11").unwrap();
        game.play(&order).unwrap();
        for line in ["end", "End turn", " END "] {
            assert_eq!(read_checked(&game, line), Ok(Order::EndTurn), "{line}");
        }
    }

    #[test]
    fn a_ride_to_a_square_with_one_route_finds_it() {
        let game = start();
        let order = read_checked(&game, "I10 1I BY RAIL TO G11").unwrap();
        assert!(
            matches!(order, Order::Ride { ref path, .. } if path.len() == 2),
            "{order}"
        );
    }

    #[test]
    fn refused_lines_say_why_and_cite_the_rule() {
        let game = start();
        // (line, the rule cited, or None for a line not read at all)
        let table: [(&str, Option<&str>); 16] = [
            ("hello there", None),
            ("G11", None),
            ("G11 25I-H11", None),
            ("G11 300 infantry to H11", None),
            ("FORTIFY", None),
            ("TAKE SOME", None),
            ("S4-S5", None),
            ("O6-O7", Some("P10")),
            ("G11 3I-H11", Some("P10")),
            ("I10 1I-I12", Some("P2")),
            ("P7 2I-O6", Some("P19")),
            ("G11 2I-H12-I13", Some("P10")),
            // Longer than any order: answered with the rule, not as unreadable.
            ("G11 2I-H12-I13-J14-K15", Some("P10")),
            ("G11 2C-H12-I13-J14-K15-L16", Some("P11")),
            ("RIDE I10 1I-H11-G11-F11-E11", Some("P15")),
            ("RIDE A1 1I-B2-C3-D4-E5", Some("P10")),
        ];
        for (line, rule) in table {
            let r = read_checked(&game, line).expect_err(line);
            assert_eq!(r.rule.map(|r| r.0), rule, "{line}: {r}");
            assert_eq!(r.line, line);
            if rule.is_none() {
                assert!(r.problem.contains("H7-H8"), "{line}: {r}");
            } else {
                assert!(!r.suggestions.is_empty(), "{line}: {r}");
            }
        }
    }

    #[test]
    fn any_line_is_read_or_refused_and_what_is_read_is_legal() {
        let game = start();
        let pieces = [
            "G11",
            "H11",
            "h12",
            "I13",
            "2I",
            "1C",
            "C",
            "infantry",
            "-",
            "TO",
            "FROM",
            "RIDE",
            "TAKE",
            "ALL",
            "KILL",
            "LOSE",
            "3",
            "99",
            "A",
            "MOVE",
            "END",
            "S4",
            ";",
            "FORTIFY",
            "M14",
            "REMOVE",
            "KEEP",
            "I",
            "SURVIVORS",
            "\u{e9}",
            "",
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            let mut line = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for i in 0..(x % 7) {
                let w = pieces[((x >> (8 * i)) % pieces.len() as u64) as usize];
                line.push_str(w);
                line.push(if i % 2 == 0 { ' ' } else { '-' });
            }
            match read_checked(&game, &line) {
                Ok(order) => assert_eq!(game.check(&order), Ok(()), "{line}"),
                Err(r) => assert!(!r.problem.is_empty(), "{line}"),
            }
        }
    }

    #[test]
    fn long_lines_are_refused_before_reading() {
        let game = start();
        let long = "G11 ".repeat(60);
        assert!(read_checked(&game, &long)
            .unwrap_err()
            .problem
            .contains("longer"));
        let many = "A ".repeat(MAX_WORDS + 1);
        assert!(read_checked(&game, &many)
            .unwrap_err()
            .problem
            .contains("words"));
    }
}
