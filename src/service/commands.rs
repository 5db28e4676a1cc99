//! The commands a player writes by mail, one per line, any case. A line
//! that is no command is an order line for the game.

use super::identity::{claim_from_line, Claim};

/// One line of a mail, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `HELP`: what can be written.
    Help,
    /// `HELP MOVES <square>`: one unit's legal orders.
    HelpMoves(String),
    /// `NEW SQUARES VS address [AS BLUE|GRAY] [FIRST BLUE|GRAY]`.
    New {
        /// The game's name as written (`SQUARES`).
        game: String,
        /// The opponent's address.
        opponent: String,
        /// The side the writer takes.
        side: Option<String>,
        /// The side that moves first.
        first: Option<String>,
    },
    /// `ACCEPT`: take up an invitation.
    Accept,
    /// `DECLINE`: refuse an invitation.
    Decline,
    /// `BOARD`: send the board again.
    Board,
    /// `HISTORY`: the record so far.
    History,
    /// `RESIGN`.
    Resign,
    /// `OFFER DRAW`.
    OfferDraw,
    /// `ACCEPT DRAW`.
    AcceptDraw,
    /// `DECLINE DRAW`.
    DeclineDraw,
    /// `GAMES`: my games and whose turn.
    Games,
    /// `GAME 42 k7xq2m`: the game this mail is about.
    Game(Claim),
    /// `NEW ...` that could not be read: what is wrong.
    BadNew(String),
    /// Anything else: an order line for the game.
    Order(String),
}

/// Reads one non-empty line.
pub fn read(line: &str) -> Command {
    let line = line.trim();
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.to_ascii_uppercase())
        .collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    match w.as_slice() {
        ["HELP"] | ["?"] => Command::Help,
        ["HELP", "MOVES", square] | ["HELP", square] => Command::HelpMoves(square.to_string()),
        ["ACCEPT"] => Command::Accept,
        ["DECLINE"] => Command::Decline,
        ["BOARD"] => Command::Board,
        ["HISTORY"] | ["RECORD"] => Command::History,
        ["RESIGN"] => Command::Resign,
        ["OFFER", "DRAW"] | ["DRAW", "OFFER"] | ["OFFER", "A", "DRAW"] => Command::OfferDraw,
        ["ACCEPT", "DRAW"] => Command::AcceptDraw,
        ["DECLINE", "DRAW"] => Command::DeclineDraw,
        ["GAMES"] => Command::Games,
        ["GAME", ..] => match claim_from_line(line) {
            Some(claim) => Command::Game(claim),
            None => Command::Order(line.to_string()),
        },
        ["NEW", ..] => read_new(line),
        _ => Command::Order(line.to_string()),
    }
}

fn read_new(line: &str) -> Command {
    let words: Vec<&str> = line.split_whitespace().collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let usage = "write NEW SQUARES VS their@address [AS BLUE|GRAY] [FIRST BLUE|GRAY]";
    let (Some(game), Some(vs), Some(opponent)) = (upper.get(1), upper.get(2), words.get(3)) else {
        return Command::BadNew(usage.into());
    };
    if vs != "VS" && vs != "AGAINST" && vs != "WITH" {
        return Command::BadNew(usage.into());
    }
    let opponent = opponent
        .trim_matches(|c| c == '<' || c == '>')
        .to_ascii_lowercase();
    if !opponent.contains('@') {
        return Command::BadNew(format!("{opponent:?} is not a mail address; {usage}"));
    }
    let mut side = None;
    let mut first = None;
    let mut rest = upper[4..].iter();
    while let Some(word) = rest.next() {
        let value = rest.next().cloned();
        match (word.as_str(), value) {
            ("AS", Some(v)) => side = Some(v),
            ("FIRST", Some(v)) => first = Some(v),
            _ => return Command::BadNew(usage.into()),
        }
    }
    Command::New {
        game: game.clone(),
        opponent,
        side,
        first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_in_any_case() {
        assert_eq!(read("help"), Command::Help);
        assert_eq!(read("Help moves b1c"), Command::HelpMoves("B1C".into()));
        assert_eq!(read("offer draw"), Command::OfferDraw);
        assert_eq!(read("Accept Draw"), Command::AcceptDraw);
        assert_eq!(read("accept"), Command::Accept);
        assert_eq!(
            read("new squares vs Bob@Example.org as gray first blue"),
            Command::New {
                game: "SQUARES".into(),
                opponent: "bob@example.org".into(),
                side: Some("GRAY".into()),
                first: Some("BLUE".into()),
            }
        );
        assert!(matches!(read("new squares bob"), Command::BadNew(_)));
        assert!(matches!(read("new squares vs bob"), Command::BadNew(_)));
        assert!(matches!(read("GAME 4 abc"), Command::Game(_)));
        assert_eq!(read("G2CR-G1C"), Command::Order("G2CR-G1C".into()));
    }
}
