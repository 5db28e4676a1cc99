//! The position string: one line that holds the whole game and reads back
//! to the same game (records, `orderly engine`, tests).
//!
//! ```text
//! cw1863 3; south to move; orders 1; U: O6 4I1C / P6 2I m1G; C: P7 3I d3I F;
//! flags D6; battle H8 from H7 by south group 3I stage losses; removals north 2;
//! over south; markers d2 f5
//! ```
//!
//! Stacks are separated by ` / ` (no commas: a position fits in a CSV
//! field). A stack is its square, then its unmoved pieces, `m` and the pieces that
//! have moved this turn, `d` and the disabled pieces (P23), and `F` (a
//! fortified city, P32), `F!` (fortified this turn, P31) or `U!`
//! (unfortified this turn, P33). `orders`, `flags`, `battle`, `removals`
//! and `over` are left out when there is nothing to say. The markers left
//! in the box follow from the stacks; they are written for the reader and
//! checked when read.

use std::fmt;
use std::str::FromStr;

use super::board::Board;
use super::flow::{Battle, EndReason, Removal, Stage};
use super::side::Side;
use super::square::Square;
use super::stack::{Counts, Fort, Stack};
use super::state::CivilWar1863;
use crate::games::{GameResult, Outcome, ParseError, Seat};

fn seat_word(side: Side) -> &'static str {
    match side {
        Side::Union => "north",
        Side::Confederacy => "south",
    }
}

fn side_of_word(word: &str) -> Option<Side> {
    match word.to_ascii_lowercase().as_str() {
        "north" | "union" => Some(Side::Union),
        "south" | "confederacy" => Some(Side::Confederacy),
        _ => None,
    }
}

fn stage_word(stage: Stage) -> &'static str {
    match stage {
        Stage::Losses => "losses",
        Stage::Coin => "coin",
        Stage::Keep { attacker: true } => "keep-attacker",
        Stage::Keep { attacker: false } => "keep-defender",
        Stage::Survivors => "survivors",
    }
}

fn stage_of_word(word: &str) -> Option<Stage> {
    [
        Stage::Losses,
        Stage::Coin,
        Stage::Keep { attacker: true },
        Stage::Keep { attacker: false },
        Stage::Survivors,
    ]
    .into_iter()
    .find(|&s| stage_word(s) == word)
}

fn write_stack(f: &mut fmt::Formatter<'_>, sq: Square, s: &Stack) -> fmt::Result {
    write!(f, "{sq}")?;
    if !s.unmoved.is_empty() {
        write!(f, " {}", s.unmoved)?;
    }
    if !s.moved.is_empty() {
        write!(f, " m{}", s.moved)?;
    }
    if !s.disabled.is_empty() {
        write!(f, " d{}", s.disabled)?;
    }
    match s.fort {
        Fort::None => Ok(()),
        Fort::Fortified => f.write_str(" F"),
        Fort::FortifiedNow => f.write_str(" F!"),
        Fort::UnfortifiedNow => f.write_str(" U!"),
    }
}

impl fmt::Display for CivilWar1863 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cw1863 {}; {} to move",
            self.turn,
            seat_word(self.to_move)
        )?;
        if self.orders > 0 {
            write!(f, "; orders {}", self.orders)?;
        }
        for (side, letter) in [(Side::Union, "U"), (Side::Confederacy, "C")] {
            write!(f, "; {letter}:")?;
            let mut first = true;
            for (sq, s) in self.stacks().filter(|(_, s)| s.side == side) {
                f.write_str(if first { " " } else { " / " })?;
                first = false;
                write_stack(f, sq, s)?;
            }
            if first {
                f.write_str(" none")?;
            }
        }
        if !self.flags.is_empty() {
            f.write_str("; flags")?;
            for sq in &self.flags {
                write!(f, " {sq}")?;
            }
        }
        if let Some(b) = &self.battle {
            write!(
                f,
                "; battle {} from {} by {} group {} stage {}",
                b.at,
                b.from,
                seat_word(b.attacker),
                b.group,
                stage_word(b.stage)
            )?;
        }
        if !self.removals.is_empty() {
            f.write_str("; removals")?;
            for (i, r) in self.removals.iter().enumerate() {
                let sep = if i == 0 { " " } else { " / " };
                write!(f, "{sep}{} {}", seat_word(r.side), r.left)?;
            }
        }
        if let Some(o) = &self.outcome {
            match o.result {
                GameResult::Win(seat) => write!(f, "; over {}", seat_word(seat.into()))?,
                GameResult::Draw => f.write_str("; over stalemate")?,
            }
        }
        write!(
            f,
            "; markers d{} f{}",
            self.disabled_markers_left(),
            self.fort_markers_left()
        )
    }
}

fn bad(message: impl Into<String>) -> ParseError {
    ParseError::new(message)
}

fn square(word: &str) -> Result<Square, ParseError> {
    Square::parse(word).ok_or_else(|| bad(format!("{word:?} is not a square")))
}

fn counts(word: &str) -> Result<Counts, ParseError> {
    Counts::parse(word).ok_or_else(|| bad(format!("{word:?} is not a count of pieces")))
}

fn number<T: FromStr>(word: &str) -> Result<T, ParseError> {
    word.parse()
        .map_err(|_| bad(format!("{word:?} is not a number")))
}

fn read_stack(side: Side, text: &str) -> Result<(Square, Stack), ParseError> {
    let mut words = text.split_whitespace();
    let sq = square(words.next().unwrap_or(""))?;
    let mut stack = Stack::new(side, Counts::NONE);
    for word in words {
        match word {
            "F" => stack.fort = Fort::Fortified,
            "F!" => stack.fort = Fort::FortifiedNow,
            "U!" => stack.fort = Fort::UnfortifiedNow,
            w if w.starts_with('m') => stack.moved = counts(&w[1..])?,
            w if w.starts_with('d') => stack.disabled = counts(&w[1..])?,
            w => stack.unmoved = counts(w)?,
        }
    }
    if stack.all().is_empty() {
        return Err(bad(format!("the stack on {sq} holds no piece")));
    }
    if !stack.all().contains(stack.disabled) {
        return Err(bad(format!("{sq} has more disabled pieces than pieces")));
    }
    if stack.fort != Fort::None && stack.all().ground() == 0 {
        return Err(bad(format!(
            "{sq} is fortified without infantry or cavalry (P32)"
        )));
    }
    Ok((sq, stack))
}

impl FromStr for CivilWar1863 {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<CivilWar1863, ParseError> {
        CivilWar1863::read(Board::standard(), text)
    }
}

impl CivilWar1863 {
    /// Reads a position string for a game on `board`.
    pub fn read(board: &'static Board, text: &str) -> Result<CivilWar1863, ParseError> {
        let mut parts = text.split(';').map(str::trim);
        let head = parts.next().unwrap_or("");
        let turn = match head.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["cw1863", n] => number::<u32>(n)?,
            _ => return Err(bad("a position starts with cw1863 and the turn number")),
        };
        let to_move = match parts
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .as_slice()
        {
            [side, "to", "move"] => side_of_word(side),
            _ => None,
        }
        .ok_or_else(|| bad("the second part says who is to move: south to move"))?;
        let mut game = CivilWar1863::empty(board, to_move);
        game.turn = turn.max(1);
        let mut markers = None;
        for part in parts {
            let (word, rest) = part.split_once([' ', ':']).unwrap_or((part, ""));
            let rest = rest.trim_start_matches(':').trim();
            match word {
                "orders" => game.orders = number(rest)?,
                "U" | "C" => {
                    let side = if word == "U" {
                        Side::Union
                    } else {
                        Side::Confederacy
                    };
                    if rest == "none" {
                        continue;
                    }
                    for item in rest.split('/') {
                        let (sq, stack) = read_stack(side, item)?;
                        if game.stack(sq).is_some() {
                            return Err(bad(format!("{sq} is listed twice")));
                        }
                        game.stacks.set(sq, Some(stack));
                    }
                }
                "flags" => {
                    for w in rest.split_whitespace() {
                        let sq = square(w)?;
                        if !game.flags.contains(&sq) {
                            game.flags.push(sq);
                        }
                    }
                    game.flags.sort();
                }
                "battle" => {
                    let w: Vec<&str> = rest.split_whitespace().collect();
                    let [at, "from", from, "by", by, "group", group, "stage", stage] = w.as_slice()
                    else {
                        return Err(bad(
                            "a battle reads: battle H8 from H7 by south group 3I stage losses",
                        ));
                    };
                    game.battle = Some(Battle {
                        at: square(at)?,
                        from: square(from)?,
                        attacker: side_of_word(by)
                            .ok_or_else(|| bad("battle by north or south"))?,
                        group: counts(group)?,
                        stage: stage_of_word(stage).ok_or_else(|| bad("unknown battle stage"))?,
                    });
                }
                "removals" => {
                    for item in rest.split('/') {
                        let w: Vec<&str> = item.split_whitespace().collect();
                        let [side, n] = w.as_slice() else {
                            return Err(bad("removals read: removals north 2"));
                        };
                        let left: u8 = number(n)?;
                        if left > 6 {
                            return Err(bad("a city costs at most 6 pieces (P30)"));
                        }
                        game.removals.push(Removal {
                            side: side_of_word(side)
                                .ok_or_else(|| bad("removals by north or south"))?,
                            left,
                        });
                    }
                }
                "over" => {
                    game.outcome = Some(match rest {
                        "stalemate" => Outcome {
                            result: GameResult::Draw,
                            reason: EndReason::Stalemate,
                        },
                        w => Outcome {
                            result: GameResult::Win(Seat::from(
                                side_of_word(w)
                                    .ok_or_else(|| bad("over north, south or stalemate"))?,
                            )),
                            reason: EndReason::AllEliminated,
                        },
                    })
                }
                "markers" => markers = Some(rest.to_string()),
                _ => return Err(bad(format!("{part:?} is not part of a position"))),
            }
        }
        if game.disabled_markers_left() == 0
            && game
                .stacks()
                .filter(|(_, s)| s.has_disabled_marker())
                .count()
                > 3
            || game.stacks().filter(|(_, s)| s.fort.has_marker()).count() > 6
        {
            return Err(bad(
                "more markers on the board than the box holds (P24, P31)",
            ));
        }
        if let Some(m) = markers {
            let want = format!(
                "d{} f{}",
                game.disabled_markers_left(),
                game.fort_markers_left()
            );
            if m != want {
                return Err(bad(format!("the markers left are {want}, not {m}")));
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_of_a_position_reads_back() {
        let text = "cw1863 7; north to move; orders 2; U: G5 2I m1C F / H8 1G; \
                    C: I12 3I d3I; flags C6 I12; battle H9 from H8 by north group 2I1C \
                    stage survivors; removals south 1 / north 2; markers d2 f5";
        let game: CivilWar1863 = text.parse().unwrap();
        assert_eq!(game.to_string(), text);
        assert_eq!(game.to_string().parse::<CivilWar1863>().unwrap(), game);
    }

    #[test]
    fn markers_that_do_not_match_the_board_are_refused() {
        let text = "cw1863 1; south to move; U: A1 1I; C: B2 1I; markers d2 f6";
        assert!(text.parse::<CivilWar1863>().is_err());
    }

    #[test]
    fn counts_read_from_text_are_bounded() {
        assert!("cw1863 1; south to move; U: A1 99I; C: B2 1I"
            .parse::<CivilWar1863>()
            .is_err());
    }
}
