//! The commands a player writes by mail, one per line, any case. A line
//! that is no command is an order line for the game.

use super::identity::{claim_from_line, Claim};
use super::texts;
use crate::games::hosted;

/// One line of a mail, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `HELP`: what can be written.
    Help,
    /// `HELP BOARD`: the board again, with the key to its marks.
    HelpBoard,
    /// `HELP MOVES <square>`: one unit's legal orders.
    HelpMoves(String),
    /// `HELP RULES [<GAME>]`: a game's rules in the project's own words;
    /// the game as written (upper case), or `None` for the game the mail
    /// is about (SQUARES when it names none).
    HelpRules(Option<String>),
    /// `NEW <GAME> VS address [AS <side>] [FIRST <side>] [SCENARIO id]`:
    /// `NEW SQUARES VS a@b AS GRAY`, `NEW NAPOLEONIC VS a@b FIRST FRENCH`,
    /// `NEW BROTHERSATWAR VS a@b SCENARIO tanners-ford`. The game, the
    /// sides and the scenario are checked against the hosted games when
    /// the game is made.
    New {
        /// The game's name as written, upper case (`SQUARES`).
        game: String,
        /// The opponent's address.
        opponent: String,
        /// The side the writer takes.
        side: Option<String>,
        /// The side that moves first.
        first: Option<String>,
        /// The battle, by id, lower case, for a game played on scenarios.
        scenario: Option<String>,
        /// Days per turn.
        days: Option<u32>,
        /// A clock bank: initial days, days added per turn, cap in days.
        clock: Option<(u32, u32, Option<u32>)>,
        /// The game's own time-out policy: `claim` or `moderators`.
        timeout: Option<String>,
        /// The game's own moderator.
        moderator: Option<String>,
        /// `PUBLIC`: anyone may watch the game (WATCH).
        public: bool,
        /// `RATED` (`Some(true)`) or `UNRATED`; by default a game between
        /// two people is rated.
        rated: Option<bool>,
        /// `VS COMPUTER [LEVEL n]`: a game against the computer at level
        /// `n` (1 to 5, checked here; 3 when none is named), the opponent
        /// then empty.
        computer: Option<u8>,
    },
    /// `ACCEPT`: take up an invitation.
    Accept,
    /// `DECLINE`: refuse an invitation.
    Decline,
    /// `BOARD`: send the board again.
    Board,
    /// `BOARD ALL` (`BOARD WHOLE`, `WHOLE BOARD`, `BOARD FULL`): the board
    /// with the whole map, not a window around the action.
    BoardAll,
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
    /// `GAMES PUBLIC`: the most recent public games.
    GamesPublic,
    /// `WATCH 12`: watch public game 12 (every board its players get).
    Watch(i64),
    /// `UNWATCH 12`: stop watching game 12.
    Unwatch(i64),
    /// `RATINGS [<GAME>]`: the best rated players of each kind of game
    /// (or of the game named, as written, upper case).
    Ratings(Option<String>),
    /// `RATING [address]`: a player's ratings (the writer's own without
    /// an address).
    Rating(Option<String>),
    /// `VOTE <order>`: a member's vote for the community's next order in
    /// the Play of the Day (the order as written).
    Vote(String),
    /// `PLAYOFTHEDAY [JOIN|LEAVE|RESULTS]`: take part in the Play of the
    /// Day (and see its board), stop, or see its results.
    PlayOfTheDay(DailyAsk),
    /// `SET TIMEZONE Europe/Paris`: the zone deadlines are shown in.
    SetTimezone(String),
    /// `SET REMINDERS ON|OFF`.
    SetReminders(bool),
    /// `SET DIGEST DAILY|OFF`: one mail a day instead of reminders.
    SetDigest(bool),
    /// `SET PICTURES ON|OFF`: the board as a picture in board mails.
    SetPictures(bool),
    /// `CLAIM WIN`: the opponent's time ran out.
    ClaimWin,
    /// `MODERATOR text`: ask the moderators for help with this game.
    Moderator(String),
    /// `VACATION 5 DAYS` or `VACATION FROM 2026-12-01 TO 2026-12-05`:
    /// (starts, ends) as dates, or a number of days from now.
    Vacation(VacationSpan),
    /// `VACATION` written wrong: what is wrong.
    BadVacation(String),
    /// `SAY text` or `PRESS text`: a message to the opponent, kept in the
    /// game's record.
    Say(String),
    /// `SET ADDRESS new@address`: move this player's seats to a new
    /// address, once confirmed from there.
    SetAddress(String),
    /// `CONFIRM ADDRESS code`, written from the new address.
    ConfirmAddress(String),
    /// `CANCEL IF [condition]`: drop the answers given in advance (all, or
    /// those of one condition).
    CancelIf(String),
    /// `SEED words`: words of the player's own, mixed into every later
    /// draw of chance of the game (docs/dice.md).
    Seed(String),
    /// `GAME 42 k7xq2m`: the game this mail is about.
    Game(Claim),
    /// `NEW ...` that could not be read: what is wrong.
    BadNew(String),
    /// Anything else: an order line for the game.
    Order(String),
}

/// What `PLAYOFTHEDAY` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DailyAsk {
    /// Take part (if not yet) and see the board and the votes so far.
    Join,
    /// Stop taking part.
    Leave,
    /// The rounds decided so far and who chose the orders played.
    Results,
}

/// When a vacation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VacationSpan {
    /// This many days from now.
    Days(u32),
    /// From the start of one day to the end of another (UTC).
    Dates(chrono::NaiveDate, chrono::NaiveDate),
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
        ["HELP", "BOARD"] => Command::HelpBoard,
        ["HELP", "MOVES", square] => Command::HelpMoves(square.to_string()),
        ["HELP", "RULES"] | ["RULES"] => Command::HelpRules(None),
        ["HELP", "RULES", game] | ["RULES", game] => Command::HelpRules(Some(game.to_string())),
        ["ACCEPT"] => Command::Accept,
        ["DECLINE"] => Command::Decline,
        ["BOARD"] => Command::Board,
        ["BOARD", "ALL" | "WHOLE" | "FULL"] | ["WHOLE", "BOARD"] => Command::BoardAll,
        ["HISTORY"] | ["RECORD"] => Command::History,
        ["RESIGN"] => Command::Resign,
        ["OFFER", "DRAW"] | ["DRAW", "OFFER"] | ["OFFER", "A", "DRAW"] => Command::OfferDraw,
        ["ACCEPT", "DRAW"] => Command::AcceptDraw,
        ["DECLINE", "DRAW"] => Command::DeclineDraw,
        ["GAMES"] => Command::Games,
        ["GAMES", "PUBLIC"] | ["PUBLIC", "GAMES"] => Command::GamesPublic,
        // A game's number, bounded before it is looked up.
        ["WATCH" | "OBSERVE", n] | ["WATCH" | "OBSERVE", "GAME", n] if game_number(n).is_some() => {
            Command::Watch(game_number(n).unwrap_or_default())
        }
        ["UNWATCH", n] | ["UNWATCH", "GAME", n] | ["STOP", "WATCHING", n]
            if game_number(n).is_some() =>
        {
            Command::Unwatch(game_number(n).unwrap_or_default())
        }
        ["RATINGS"] => Command::Ratings(None),
        ["RATINGS", game] => Command::Ratings(Some(game.to_string())),
        ["RATING"] => Command::Rating(None),
        ["RATING", who] if who.contains('@') => Command::Rating(Some(
            who.trim_matches(|c| c == '<' || c == '>')
                .to_ascii_lowercase(),
        )),
        // The order is read by the game when the vote is counted; the
        // line's length is bounded at intake.
        ["VOTE" | "VOTE:", _, ..] => Command::Vote(rest_after(line, 1)),
        ["PLAYOFTHEDAY" | "POTD"] | ["PLAY", "OF", "THE", "DAY"] => {
            Command::PlayOfTheDay(DailyAsk::Join)
        }
        ["PLAYOFTHEDAY" | "POTD", "JOIN" | "BOARD"] => Command::PlayOfTheDay(DailyAsk::Join),
        ["PLAYOFTHEDAY" | "POTD", "LEAVE" | "STOP" | "QUIT"] => {
            Command::PlayOfTheDay(DailyAsk::Leave)
        }
        ["PLAYOFTHEDAY" | "POTD", "RESULTS" | "RESULT"] => Command::PlayOfTheDay(DailyAsk::Results),
        ["SET", "TIMEZONE" | "TZ", _] => Command::SetTimezone(
            line.split_whitespace()
                .nth(2)
                .unwrap_or_default()
                .to_string(),
        ),
        ["SET", "REMINDERS", "ON"] => Command::SetReminders(true),
        ["SET", "REMINDERS", "OFF"] => Command::SetReminders(false),
        ["SET", "DIGEST", "DAILY" | "ON"] => Command::SetDigest(true),
        ["SET", "DIGEST", "OFF"] => Command::SetDigest(false),
        ["SET", "PICTURES" | "PICTURE", "ON"] => Command::SetPictures(true),
        ["SET", "PICTURES" | "PICTURE", "OFF"] => Command::SetPictures(false),
        ["CLAIM", "WIN"] | ["CLAIM"] => Command::ClaimWin,
        // Bounded here, before any date arithmetic: a vacation lies within
        // a year (the yearly allowance is checked later).
        ["VACATION", n, "DAY" | "DAYS"] => match n.parse::<u32>() {
            Ok(n @ 1..=366) => Command::Vacation(VacationSpan::Days(n)),
            _ => Command::BadVacation(texts::say(
                "commands.vacation_days",
                minijinja::context! { days => n },
            )),
        },
        ["VACATION", "FROM", from, "TO", to] => {
            let date = |d: &str| {
                chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
                    .ok()
                    .filter(|d| (1970..=9999).contains(&chrono::Datelike::year(d)))
            };
            match (date(from), date(to)) {
                (Some(a), Some(b)) if b >= a => Command::Vacation(VacationSpan::Dates(a, b)),
                (Some(_), Some(_)) => {
                    Command::BadVacation(texts::say("commands.vacation_backwards", ()))
                }
                _ => Command::BadVacation(texts::say("commands.vacation_dates", ())),
            }
        }
        ["VACATION", ..] => Command::BadVacation(texts::say("commands.vacation_usage", ())),
        ["CANCEL", "IF", ..] => Command::CancelIf(rest_after(line, 2)),
        ["SAY" | "PRESS", _, ..] => Command::Say(rest_after(line, 1)),
        ["SEED", _, ..] => Command::Seed(rest_after(line, 1)),
        ["SET", "ADDRESS" | "EMAIL", _] => Command::SetAddress(
            rest_after(line, 2)
                .trim_matches(|c| c == '<' || c == '>')
                .to_ascii_lowercase(),
        ),
        ["CONFIRM", "ADDRESS", code] => Command::ConfirmAddress(code.to_ascii_lowercase()),
        ["MODERATOR", ..] => Command::Moderator(
            line.split_once(char::is_whitespace)
                .map(|(_, rest)| rest.trim().to_string())
                .unwrap_or_default(),
        ),
        ["GAME", ..] => match claim_from_line(line) {
            Some(claim) => Command::Game(claim),
            None => Command::Order(line.to_string()),
        },
        ["NEW", ..] => read_new(line),
        _ => Command::Order(line.to_string()),
    }
}

/// A game's number as written (`12`, `#12`), bounded.
fn game_number(word: &str) -> Option<i64> {
    word.trim_start_matches('#')
        .parse::<u32>()
        .ok()
        .filter(|&n| n > 0)
        .map(i64::from)
}

/// What `line` says after its first `n` words, as written.
fn rest_after(line: &str, n: usize) -> String {
    let mut rest = line.trim_start();
    for _ in 0..n {
        rest = rest
            .split_once(char::is_whitespace)
            .map_or("", |(_, r)| r)
            .trim_start();
    }
    rest.trim_end().to_string()
}

/// How `NEW` is written, with each hosted game and its sides.
pub fn new_usage() -> String {
    let games: Vec<minijinja::Value> = hosted::GAMES
        .iter()
        .map(|name| {
            minijinja::context! {
                name => name.to_ascii_uppercase(),
                sides => hosted::seat_words(name).unwrap_or_default(),
                // FIRST only where the players choose who begins.
                chosen_first => hosted::find(name).is_some_and(|h| h.first.is_none()),
                scenarios => hosted::find(name).map(|h| (h.scenarios)().join("|")).unwrap_or_default(),
            }
        })
        .collect();
    texts::say("commands.new_usage", minijinja::context! { games => games })
}

fn read_new(line: &str) -> Command {
    // PUBLIC, RATED and UNRATED stand alone anywhere after the game's
    // name: taken out first, the rest is read as before.
    let is_flag = |i: usize, w: &str| {
        i >= 2 && ["PUBLIC", "RATED", "UNRATED"].contains(&w.to_ascii_uppercase().as_str())
    };
    let all: Vec<&str> = line.split_whitespace().collect();
    let flags: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|&(i, w)| is_flag(i, w))
        .map(|(_, w)| w.to_ascii_uppercase())
        .collect();
    let flag = |name: &str| flags.iter().any(|f| f == name);
    let public = flag("PUBLIC");
    let rated = match (flag("RATED"), flag("UNRATED")) {
        (true, true) => return Command::BadNew(texts::say("commands.new_rated_both", ())),
        (true, false) => Some(true),
        (false, true) => Some(false),
        (false, false) => None,
    };
    let words: Vec<&str> = all
        .iter()
        .enumerate()
        .filter(|&(i, w)| !is_flag(i, w))
        .map(|(_, w)| *w)
        .collect();
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    // `NEW VS a@b`, naming no game, fails one of these two checks: the
    // usage it gets lists the games.
    let (Some(game), Some(vs), Some(first_word)) = (upper.get(1), upper.get(2), words.get(3))
    else {
        return Command::BadNew(new_usage());
    };
    if vs != "VS" && vs != "AGAINST" && vs != "WITH" {
        return Command::BadNew(new_usage());
    }
    // `NEW SQUARES VS COMPUTER [LEVEL n]`: no address, a level.
    let against_computer = matches!(
        first_word.to_ascii_uppercase().as_str(),
        "COMPUTER" | "THE-COMPUTER" | "BOT"
    );
    // `NEW SQUARES VS Bob Example <bob@example.org>`: a name may come
    // before the address, as a mail client writes one.
    const NAME_WORDS: usize = 5;
    let at = if against_computer {
        3
    } else {
        (3..words.len().min(3 + NAME_WORDS + 1))
            .find(|&i| words[i].contains('@'))
            .unwrap_or(3)
    };
    let opponent = if against_computer {
        String::new()
    } else {
        let opponent = words.get(at).copied().unwrap_or(first_word);
        opponent
            .trim_matches(|c| c == '<' || c == '>' || c == '"' || c == ',')
            .to_ascii_lowercase()
    };
    if !against_computer && !opponent.contains('@') {
        return Command::BadNew(texts::say(
            "commands.new_not_an_address",
            minijinja::context! { address => opponent, usage => new_usage() },
        ));
    }
    let mut side = None;
    let mut first = None;
    let mut scenario = None;
    let mut days = None;
    let mut clock: Option<(u32, u32, Option<u32>)> = None;
    let mut timeout = None;
    let mut moderator = None;
    let mut level = None;
    let mut rest = upper[at + 1..].iter();
    while let Some(word) = rest.next() {
        let value = rest.next().cloned();
        match (word.as_str(), value) {
            ("AS", Some(v)) => side = Some(v),
            ("FIRST", Some(v)) => first = Some(v),
            // Scenario ids are short (letters, digits, dashes): a longer
            // word is no id, and the game's list answers it.
            ("SCENARIO" | "BATTLE", Some(v)) => {
                scenario = Some(v.chars().take(64).collect::<String>().to_ascii_lowercase())
            }
            ("CLOCK", Some(v)) => {
                let parsed = v
                    .split_once('+')
                    .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
                match parsed {
                    Some((a @ 1..=90, b @ 0..=30)) => clock = Some((a, b, None)),
                    _ => {
                        return Command::BadNew(texts::say(
                            "commands.new_clock",
                            minijinja::context! { clock => v },
                        ))
                    }
                }
            }
            ("MAX", Some(v)) => match (clock, v.parse::<u32>()) {
                (Some((a, b, _)), Ok(cap @ 1..=365)) if cap >= a => clock = Some((a, b, Some(cap))),
                _ => return Command::BadNew(texts::say("commands.new_max", ())),
            },
            ("MODERATOR", Some(v)) if v.contains('@') => {
                moderator = Some(
                    v.trim_matches(|c| c == '<' || c == '>')
                        .to_ascii_lowercase(),
                )
            }
            ("TIMEOUT", Some(v)) if v == "CLAIM" || v == "MODERATORS" => {
                timeout = Some(v.to_ascii_lowercase())
            }
            // Bounded here: only the levels there are.
            ("LEVEL", Some(v)) if against_computer => match v.parse::<u8>() {
                Ok(n @ 1..=5) => level = Some(n),
                _ => {
                    return Command::BadNew(texts::say(
                        "commands.new_level",
                        minijinja::context! { level => v },
                    ))
                }
            },
            ("LEVEL", _) => return Command::BadNew(texts::say("commands.new_level_person", ())),
            ("DAYS", Some(v)) => match v.parse::<u32>() {
                Ok(n @ 1..=60) => days = Some(n),
                _ => {
                    return Command::BadNew(texts::say(
                        "commands.new_days",
                        minijinja::context! { days => v },
                    ))
                }
            },
            _ => return Command::BadNew(new_usage()),
        }
    }
    Command::New {
        game: game.clone(),
        opponent,
        side,
        first,
        scenario,
        days,
        clock,
        timeout,
        moderator,
        public,
        rated,
        computer: against_computer.then(|| level.unwrap_or(crate::bot::Level::DEFAULT.number())),
    }
}

#[cfg(test)]
mod tests {
    use super::{read, Command};

    #[test]
    fn commands_are_read_in_any_case() {
        assert_eq!(read("help"), Command::Help);
        assert_eq!(read("help board"), Command::HelpBoard);
        assert!(matches!(
            read("new squares vs Bob Example <Bob@Example.org> days 5"),
            Command::New { opponent, days: Some(5), .. } if opponent == "bob@example.org"
        ));
        assert_eq!(
            read("say  Good game, Bob!"),
            Command::Say("Good game, Bob!".into())
        );
        assert_eq!(read("PRESS nice move"), Command::Say("nice move".into()));
        assert_eq!(
            read("set address <Ann@New.example>"),
            Command::SetAddress("ann@new.example".into())
        );
        assert_eq!(
            read("confirm address K7XQ2M"),
            Command::ConfirmAddress("k7xq2m".into())
        );
        assert_eq!(read("Help moves b1c"), Command::HelpMoves("B1C".into()));
        assert_eq!(read("help rules"), Command::HelpRules(None));
        assert_eq!(
            read("Help Rules napoleonic"),
            Command::HelpRules(Some("NAPOLEONIC".into()))
        );
        assert_eq!(
            read("RULES squares"),
            Command::HelpRules(Some("SQUARES".into()))
        );
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
                scenario: None,
                days: None,
                clock: None,
                timeout: None,
                moderator: None,
                public: false,
                rated: None,
                computer: None,
            }
        );
        assert!(matches!(
            read("new brothersatwar vs b@c scenario Tanners-Ford days 5"),
            Command::New { scenario: Some(s), days: Some(5), .. } if s == "tanners-ford"
        ));
        assert!(matches!(read("new squares bob"), Command::BadNew(_)));
        assert!(matches!(read("new squares vs bob"), Command::BadNew(_)));
        assert!(matches!(read("GAME 4 abc"), Command::Game(_)));
        assert!(matches!(
            read("new squares vs b@c days 5"),
            Command::New { days: Some(5), .. }
        ));
        assert!(matches!(
            read("new squares vs b@c days 0"),
            Command::BadNew(_)
        ));
        assert_eq!(
            read("set timezone Europe/Paris"),
            Command::SetTimezone("Europe/Paris".into())
        );
        assert_eq!(read("set reminders off"), Command::SetReminders(false));
        assert_eq!(read("claim win"), Command::ClaimWin);
        assert!(matches!(
            read("new squares vs b@c clock 10+1 max 20 timeout moderators"),
            Command::New {
                clock: Some((10, 1, Some(20))),
                timeout: Some(_),
                ..
            }
        ));
        assert!(matches!(
            read("new squares vs b@c clock ten"),
            Command::BadNew(_)
        ));
        assert_eq!(read("set digest daily"), Command::SetDigest(true));
        assert_eq!(read("set pictures off"), Command::SetPictures(false));
        assert_eq!(read("SET PICTURE ON"), Command::SetPictures(true));
        assert_eq!(read("G2CR-G1C"), Command::Order("G2CR-G1C".into()));
    }

    #[test]
    fn public_and_rated_stand_anywhere_after_the_game() {
        assert!(matches!(
            read("new squares vs b@c public days 5"),
            Command::New { public: true, rated: None, days: Some(5), opponent, .. } if opponent == "b@c"
        ));
        assert!(matches!(
            read("NEW SQUARES PUBLIC VS b@c UNRATED"),
            Command::New { public: true, rated: Some(false), opponent, .. } if opponent == "b@c"
        ));
        assert!(matches!(
            read("new napoleonic vs b@c rated as french"),
            Command::New { public: false, rated: Some(true), side: Some(side), .. } if side == "FRENCH"
        ));
        assert!(matches!(
            read("new squares vs b@c rated unrated"),
            Command::BadNew(_)
        ));
    }

    #[test]
    fn the_computer_is_named_with_its_level() {
        assert!(matches!(
            read("new squares vs computer"),
            Command::New { computer: Some(3), opponent, .. } if opponent.is_empty()
        ));
        assert!(matches!(
            read("NEW NAPOLEONIC VS COMPUTER LEVEL 1 AS BRITISH PUBLIC"),
            Command::New { computer: Some(1), side: Some(side), public: true, .. } if side == "BRITISH"
        ));
        assert!(matches!(
            read("new squares vs computer as gray level 5 days 2"),
            Command::New {
                computer: Some(5),
                days: Some(2),
                ..
            }
        ));
        for bad in [
            "new squares vs computer level 9",
            "new squares vs computer level 0",
            "new squares vs computer level 99999999999",
            "new squares vs computer level",
            "new squares vs b@c level 2",
        ] {
            assert!(matches!(read(bad), Command::BadNew(_)), "{bad}");
        }
        let Command::BadNew(why) = read("new squares vs computer level 9") else {
            unreachable!()
        };
        assert!(why.contains("1 to 5"), "{why}");
        assert!(matches!(
            read("new squares vs b@c moderator m@x"),
            Command::New { computer: None, opponent, .. } if opponent == "b@c"
        ));
    }

    #[test]
    fn watching_and_ratings_are_read() {
        assert_eq!(read("watch 12"), Command::Watch(12));
        assert_eq!(read("Watch game #7"), Command::Watch(7));
        assert_eq!(read("unwatch 12"), Command::Unwatch(12));
        assert_eq!(read("stop watching 3"), Command::Unwatch(3));
        assert!(matches!(read("watch 0"), Command::Order(_)));
        assert!(matches!(read("watch 99999999999"), Command::Order(_)));
        assert!(matches!(read("watch out"), Command::Order(_)));
        assert_eq!(read("games public"), Command::GamesPublic);
        assert_eq!(read("ratings"), Command::Ratings(None));
        assert_eq!(
            read("ratings squares"),
            Command::Ratings(Some("SQUARES".into()))
        );
        assert_eq!(read("rating"), Command::Rating(None));
        assert_eq!(
            read("rating <Ann@Example.org>"),
            Command::Rating(Some("ann@example.org".into()))
        );
    }

    #[test]
    fn the_play_of_the_day_is_read() {
        use super::DailyAsk;
        assert_eq!(read("vote b1c-b2c"), Command::Vote("b1c-b2c".into()));
        assert_eq!(
            read("VOTE:  attack g1l g2l"),
            Command::Vote("attack g1l g2l".into())
        );
        assert!(matches!(read("vote"), Command::Order(_)));
        assert_eq!(read("playoftheday"), Command::PlayOfTheDay(DailyAsk::Join));
        assert_eq!(
            read("Play of the Day"),
            Command::PlayOfTheDay(DailyAsk::Join)
        );
        assert_eq!(read("potd leave"), Command::PlayOfTheDay(DailyAsk::Leave));
        assert_eq!(
            read("PLAYOFTHEDAY RESULTS"),
            Command::PlayOfTheDay(DailyAsk::Results)
        );
        assert!(matches!(read("playoftheday now"), Command::Order(_)));
    }

    #[test]
    fn board_all_asks_for_the_whole_map() {
        for line in [
            "board all",
            "BOARD ALL",
            "Board  All",
            "board whole",
            "Whole board",
            "BOARD FULL",
        ] {
            assert_eq!(read(line), Command::BoardAll, "{line:?}");
        }
        assert_eq!(read("board"), Command::Board);
        assert!(matches!(read("board all of it"), Command::Order(_)));
    }

    #[test]
    fn new_names_any_game_and_its_usage_lists_every_hosted_one() {
        assert!(matches!(
            read("New Napoleonic vs x@y AS british first FRENCH"),
            Command::New { game, side: Some(side), first: Some(first), .. }
                if game == "NAPOLEONIC" && side == "BRITISH" && first == "FRENCH"
        ));
        // The game's name is checked when the game is made, with the sides.
        assert!(matches!(read("new chess vs x@y"), Command::New { .. }));
        let Command::BadNew(usage) = read("new vs x@y") else {
            panic!("NEW without a game is not understood");
        };
        assert!(usage.starts_with("write NEW SQUARES VS their@address [AS BLUE|GRAY] [FIRST BLUE|GRAY] or NEW NAPOLEONIC VS their@address [AS BRITISH|FRENCH] [FIRST BRITISH|FRENCH] or NEW CIVILWAR1863 VS their@address [AS UNION|CONFEDERACY] or NEW BROTHERSATWAR VS their@address [AS UNION|CONFEDERACY] [SCENARIO tanners-ford], then [DAYS n"), "{usage}");
    }
}
