//! Fair chance in the service (docs/dice.md): the seed committed to when a
//! game with chance is created, each draw made where the game waits for
//! one, from the seed and the players' own mails, recorded with its public
//! inputs and told to both players; the seed revealed when the game ends.

use super::game::side_name;
use super::reply::Answer;
use super::work::Work;
use super::{texts, Result};
use crate::games::any::Private;
use crate::games::chance::draw_pending;
use crate::games::fair::{self, words_digest, DrawInputs, InputDigest, Seed};
use crate::games::{AnyGame, Happened, Seat};
use crate::store::{EntryKind, GameRow, SeatRow, StoreError, Timestamp, Tx};

impl Work<'_> {
    /// Draws a fresh seed for a new game with chance and keeps it; returns
    /// the sentence that gives the players its commitment.
    pub(super) fn commit_to_a_seed(&mut self, game: i64) -> Result<String> {
        let seed = fresh_seed()?;
        self.tx.create_fair_seed(game, &seed)?;
        Ok(texts::say(
            "dice.commitment",
            minijinja::context! { commitment => seed.commitment().to_string() },
        ))
    }

    /// Makes every draw of chance `state` waits for after an order of
    /// `seat` in this mail ([`draw_and_record`]).
    pub(super) fn draw_chance(
        &mut self,
        state: &mut dyn AnyGame,
        game: &GameRow,
        seat: Seat,
    ) -> Result<Vec<Happened>> {
        // The draw mixes in the mail being read and the last of the other
        // player's: the writer of this mail, whichever seat's lines it
        // played (the other's held lines, its end).
        let writer = match &self.game {
            Some((g, s)) if g.id == game.id => s.seat,
            _ => seat,
        };
        draw_and_record(self.tx, state, game, writer, self.message_id, self.at)
    }

    /// `SEED words`: the seat's words, mixed into every later draw of the
    /// game; refused in a game without chance.
    pub(super) fn seed_words(
        &mut self,
        line: &str,
        words: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        let answer = if self.tx.fair_seed(game.id)?.is_some() {
            let words = fair::clean_words(words);
            self.tx.set_seed_words(game.id, seat.seat, &words)?;
            Answer::Done(texts::say(
                "dice.words_kept",
                minijinja::context! { words => words },
            ))
        } else {
            Answer::Refused(texts::say(
                "dice.no_chance",
                minijinja::context! { game => game.id },
            ))
        };
        self.item(line, answer);
        Ok(())
    }

    /// The sentence that reveals a finished game's seed ([`revealed`]).
    pub(super) fn revealed_seed(&self, game: &GameRow) -> Result<Option<String>> {
        revealed(self.tx, game)
    }
}

/// The sentence that reveals a finished game's seed, for its players'
/// last mails, which carry the record below it; `None` for a game
/// without a seed or not over.
pub(super) fn revealed(tx: &Tx<'_>, game: &GameRow) -> Result<Option<String>> {
    Ok(seed_to_reveal(tx, game)?.map(|context| texts::say("dice.revealed", context)))
}

/// The same for a watcher's last mail, which carries no record (it keeps
/// the players' messages, `observers.rs`): it names the record instead
/// of pointing below. A Play of the Day member's last mail says the same
/// (`daily.rs`).
pub(super) fn revealed_without_record(tx: &Tx<'_>, game: &GameRow) -> Result<Option<String>> {
    Ok(
        seed_to_reveal(tx, game)?
            .map(|context| texts::say("dice.revealed_without_record", context)),
    )
}

/// A finished game's seed and its commitment, as the revealing sentences
/// take them; `None` for a game without a seed or not over.
fn seed_to_reveal(tx: &Tx<'_>, game: &GameRow) -> Result<Option<minijinja::Value>> {
    if game.status != crate::store::GameStatus::Finished {
        return Ok(None);
    }
    Ok(tx.fair_seed(game.id)?.map(|kept| {
        minijinja::context! {
            seed => kept.seed.to_hex(),
            commitment => kept.commitment.to_string(),
        }
    }))
}

/// Makes every draw of chance `state` waits for after an order of `seat`
/// that came in the mail `mail` (its Message-ID, or the moderator's
/// command), applies and records each with its public inputs; returns
/// what happened, each draw told first, for both players' mails. Nothing
/// happens in a game that waits for no draw.
pub(super) fn draw_and_record(
    tx: &Tx<'_>,
    state: &mut dyn AnyGame,
    game: &GameRow,
    seat: Seat,
    mail: &str,
    at: Timestamp,
) -> Result<Vec<Happened>> {
    if state.chance().is_none() {
        return Ok(Vec::new());
    }
    let seed = match tx.fair_seed(game.id)? {
        Some(kept) => kept.seed,
        // A game with chance always has its seed from its creation; one
        // made before seeds were kept gets one now, and the draws are fair
        // from here on.
        None => {
            let seed = fresh_seed()?;
            tx.create_fair_seed(game.id, &seed)?;
            seed
        }
    };
    let reply = tx.latest_mail_of(game.id, seat.other())?;
    let words = tx.seed_words(game.id)?;
    let base = DrawInputs {
        number: 0,
        mail: InputDigest::of(mail),
        reply: InputDigest::of(reply.as_deref().unwrap_or("")),
        words: words_digest([&words[0], &words[1]]),
    };
    let mut made = Vec::new();
    let mut failed = None;
    let drawn = draw_pending(state, &mut |chance| match tx.next_draw_number(game.id) {
        Ok(number) => {
            let inputs = DrawInputs { number, ..base };
            made.push(inputs);
            fair::outcome(&seed, &inputs, chance)
        }
        Err(e) => {
            failed.get_or_insert(e);
            0
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let drawn = drawn.map_err(|r| {
        StoreError::Corrupt(format!(
            "game {} refused its own chance order: {}",
            game.id, r.problem
        ))
    })?;
    let shown_words: Vec<String> = words
        .iter()
        .zip(Seat::BOTH)
        .filter(|(w, _)| !w.is_empty())
        .map(|(w, s)| format!("{:?} ({})", w, side_name(game, s)))
        .collect();
    let mut happened = Vec::new();
    for (d, inputs) in drawn.iter().zip(&made) {
        let seq = tx.add_entry(
            game.id,
            EntryKind::Order,
            None,
            &d.order,
            &format!("DRAW {}", inputs.number),
            Some(mail),
            at,
            &d.events,
        )?;
        tx.add_fair_draw(game.id, seq, inputs, d.private_to)?;
        let told = texts::say(
            "dice.drawn",
            minijinja::context! {
                number => inputs.number,
                what => d.what,
                order => d.order,
                mail => mail,
                side => side_name(game, seat.other()),
                reply => reply,
                words => shown_words.join(" and "),
            },
        );
        // A private draw (a card into a hidden hand) is told whole to its
        // seat; the other learns that it was made, and its number.
        let private = d.private_to.map(|seat| Private {
            seat,
            others: texts::say(
                "dice.drawn_hidden",
                minijinja::context! {
                    number => inputs.number,
                    what => d.what,
                    side => side_name(game, seat),
                },
            ),
        });
        happened.push(Happened {
            data: serde_json::Value::Null,
            text: told,
            forced: None,
            private,
        });
        happened.extend(d.events.iter().cloned());
    }
    Ok(happened)
}

/// Draws and keeps the seed of `game`, a game with chance begun outside a
/// mail (the Play of the Day's): committed to before its first draw, as
/// an invitation commits (docs/dice.md), its commitment in the record.
pub(super) fn keep_fresh_seed(tx: &Tx<'_>, game: i64) -> Result<()> {
    let seed = fresh_seed()?;
    tx.create_fair_seed(game, &seed)?;
    Ok(())
}

/// A fresh seed from the system; a system without one is an error, never
/// a weaker seed.
fn fresh_seed() -> Result<Seed> {
    Ok(Seed::fresh()
        .map_err(|e| StoreError::Corrupt(format!("no random seed from the system: {e}")))?)
}

/// The service's fair draws, end to end, through the Maildir and the file
/// transport. No hosted game has chance yet, so these tests play the coin
/// race that only the lib's test build can find by name
/// ([`hosted::find`](crate::games::hosted::find)): unit tests here rather
/// than integration tests, which link the shipped registry.
#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::path::PathBuf;

    use crate::config::Config;
    use crate::mail::intake;
    use crate::mail::maildir::Maildir;
    use crate::record::{verify, Record, VerifyError};
    use crate::service::Service;

    const ANN: &str = "ann@example.org";
    const BOB: &str = "bob@example.org";

    /// A service in its own directory, and the mails it wrote: (to,
    /// reply-to, body).
    struct Site {
        dir: PathBuf,
        service: Service,
        inbox: Maildir,
        seen: HashSet<PathBuf>,
        counter: u32,
    }

    impl Site {
        fn new(name: &str) -> Site {
            let dir =
                std::env::temp_dir().join(format!("orderly-dice-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let mut config = Config::default();
            config.service.address = "orderly@example.org".into();
            config.service.secret_file = dir.join("secret");
            config.store.path = dir.join("orderly.db");
            config.intake.maildir = dir.join("inbox");
            config.outgoing.dir = dir.join("sent");
            let service = Service::open(config).unwrap();
            let inbox = Maildir::open_or_create(dir.join("inbox")).unwrap();
            Site {
                dir,
                service,
                inbox,
                seen: HashSet::new(),
                counter: 0,
            }
        }

        /// Delivers a mail and polls; returns the mails written, and the
        /// Message-ID the mail had.
        fn mail(
            &mut self,
            from: &str,
            to: &str,
            body: &str,
        ) -> (Vec<(String, String, String)>, String) {
            self.counter += 1;
            let id = format!("<d{}.{}@test>", self.counter, std::process::id());
            let raw = format!(
                "From: {from}\r\nTo: {to}\r\nSubject: t\r\nMessage-ID: {id}\r\n\
                 Date: Sat, 21 Nov 2026 10:00:{:02} +0000\r\n\
                 Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
                self.counter % 60
            );
            self.inbox.deliver(raw.as_bytes()).unwrap();
            self.service.poll_once().unwrap();
            let mut paths: Vec<PathBuf> = std::fs::read_dir(self.dir.join("sent"))
                .map(|d| d.map(|e| e.unwrap().path()).collect())
                .unwrap_or_default();
            paths.sort();
            let mut out = Vec::new();
            for p in paths {
                if p.file_name().unwrap().to_string_lossy().starts_with('.')
                    || !self.seen.insert(p.clone())
                {
                    continue;
                }
                let raw = std::fs::read(&p).unwrap();
                let m = intake::parse(&raw).unwrap();
                let parsed = mailparse::parse_mail(&raw).unwrap();
                use mailparse::MailHeaderMap;
                let reply_to = parsed
                    .headers
                    .get_first_value("Reply-To")
                    .unwrap_or_default();
                out.push((
                    m.to.first().cloned().unwrap_or_default(),
                    reply_to,
                    m.full_text,
                ));
            }
            (out, id)
        }

        fn export(&mut self, game: i64) -> String {
            crate::service::admin::export(self.service.store(), game, false, "example.org").unwrap()
        }
    }

    impl Drop for Site {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn to(outs: &[(String, String, String)], who: &str) -> (String, String) {
        outs.iter()
            .find(|o| o.0 == who)
            .map(|o| (o.1.clone(), o.2.clone()))
            .unwrap_or_else(|| panic!("no mail to {who} in {outs:#?}"))
    }

    /// The 64 hex digits after `marker` in `text`.
    fn hex_after(text: &str, marker: &str) -> String {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let at = flat
            .find(marker)
            .unwrap_or_else(|| panic!("no {marker:?} in {text}"))
            + marker.len();
        flat[at..].trim_start().chars().take(64).collect()
    }

    /// A CoinRace game of Ann's accepted by Bob: the site and Ann's seat
    /// address, her turn to toss.
    fn accepted(name: &str) -> (Site, String) {
        let (site, ann_addr, _, _) = accepted_with(name, "NEW COINRACE VS bob@example.org");
        (site, ann_addr)
    }

    /// A game Ann proposes with the line `new` and Bob accepts: the site,
    /// Ann's and Bob's seat addresses and the invitation Bob read.
    fn accepted_with(name: &str, new: &str) -> (Site, String, String, String) {
        let mut site = Site::new(name);
        let (outs, _) = site.mail(ANN, "orderly@example.org", new);
        let (bob_addr, invitation) = to(&outs, BOB);
        let (outs, _) = site.mail(BOB, &bob_addr, "ACCEPT");
        let (ann_addr, _) = to(&outs, ANN);
        (site, ann_addr, bob_addr, invitation)
    }

    fn play_a_coin_race(name: &str) -> (Site, String) {
        let mut site = Site::new(name);
        let (outs, _) = site.mail(
            ANN,
            "orderly@example.org",
            "NEW COINRACE VS bob@example.org",
        );
        let (bob_addr, invitation) = to(&outs, BOB);
        let (_, proposed) = to(&outs, ANN);
        // Both players hold the commitment before either has played.
        let commitment = hex_after(&invitation, "whose SHA-256 is");
        assert_eq!(commitment.len(), 64, "{invitation}");
        assert_eq!(hex_after(&proposed, "whose SHA-256 is"), commitment);
        let (outs, _) = site.mail(BOB, &bob_addr, "ACCEPT");
        let (ann_addr, _) = to(&outs, ANN);
        let mut number = 0;
        let mut seats = [(ANN, ann_addr), (BOB, bob_addr)];
        let mut last = String::new();
        for _ in 0..200 {
            let (from, addr) = seats[0].clone();
            let (outs, id) = site.mail(from, &addr, "TOSS");
            number += 1;
            // Both players are told the draw, its number and the mail it
            // came from.
            for who in [ANN, BOB] {
                let (_, body) = to(&outs, who);
                let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    flat.contains(&format!("Draw {number} (a coin toss): ")),
                    "{body}"
                );
                let bare = id.trim_start_matches('<').trim_end_matches('>');
                assert!(flat.contains(&format!("mail {bare}")), "{body}");
                last = body;
            }
            if last.contains("The game is over") {
                break;
            }
            seats.swap(0, 1);
        }
        assert!(
            last.contains("The seed of this game's tosses was"),
            "{last}"
        );
        let record = site.export(1);
        assert!(
            record.contains(&format!("\nCommitment {commitment}\n")),
            "{record}"
        );
        assert_eq!(
            hex_after(&last, "tosses was"),
            hex_after(&record, "Revealed "),
            "the last mail reveals the seed the record holds"
        );
        (site, record)
    }

    /// A coin race proposed with `new` and accepted is played on the
    /// scenario `id`: the invitation and the record name it. Returns the
    /// record.
    fn played_on(name: &str, new: &str, id: &str) -> String {
        let (mut site, _, _, invitation) = accepted_with(name, new);
        assert!(
            invitation.contains(&format!("The battle: scenario {id}.")),
            "{invitation}"
        );
        let record = site.export(1);
        assert!(record.contains(&format!("[Scenario \"{id}\"]")), "{record}");
        record
    }

    #[test]
    fn a_battle_is_chosen_by_scenario_and_kept_in_the_record() {
        let record = played_on(
            "scenario",
            "NEW COINRACE VS bob@example.org SCENARIO First-To-5",
            "first-to-5",
        );
        // The record alone rebuilds the game on its battle.
        let replayed = crate::record::replay(&Record::read(&record).unwrap()).unwrap();
        assert!(
            replayed.game.position().contains("\"target\":5"),
            "{}",
            replayed.game.position()
        );
    }

    #[test]
    fn without_scenario_a_game_with_several_is_played_on_its_first() {
        played_on(
            "default-scenario",
            "NEW COINRACE VS bob@example.org",
            "first-to-3",
        );
    }

    #[test]
    fn an_unknown_scenario_invites_nobody_and_names_the_known_ones() {
        let mut site = Site::new("no-such-scenario");
        let (outs, _) = site.mail(
            ANN,
            "orderly@example.org",
            "NEW COINRACE VS bob@example.org SCENARIO gettysburg",
        );
        assert!(outs.iter().all(|o| o.0 != BOB), "{outs:#?}");
        let (_, answer) = to(&outs, ANN);
        let flat = answer.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("COINRACE has no scenario \"gettysburg\"; write SCENARIO and one of: first-to-3, first-to-5, secret. Nobody was invited."),
            "{answer}"
        );
        // A game played on one board says so, and nobody is invited.
        let (outs, _) = site.mail(
            ANN,
            "orderly@example.org",
            "NEW SQUARES VS bob@example.org SCENARIO antietam",
        );
        assert!(outs.iter().all(|o| o.0 != BOB), "{outs:#?}");
        let (_, answer) = to(&outs, ANN);
        let flat = answer.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("SQUARES has no scenario \"antietam\": it is played on one board, so leave SCENARIO out."),
            "{answer}"
        );
    }

    #[test]
    fn a_private_draw_is_the_drawers_alone_until_the_end() {
        let (mut site, ann_addr, bob_addr, _) =
            accepted_with("private", "NEW COINRACE VS bob@example.org SCENARIO secret");
        let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        let shows_a_toss = |t: &str| t.contains("HEADS") || t.contains("TAILS");
        let mut seats = [(ANN, ann_addr), (BOB, bob_addr)];
        let mut number = 0;
        let mut last = String::new();
        for _ in 0..200 {
            let (from, addr) = seats[0].clone();
            let (outs, _) = site.mail(from, &addr, "TOSS");
            number += 1;
            let (_, mine) = to(&outs, from);
            let theirs = to(&outs, seats[1].0).1;
            last = theirs.clone();
            if theirs.contains("The game is over") {
                break;
            }
            assert!(
                flat(&mine).contains(&format!("Draw {number} (a coin toss): "))
                    && shows_a_toss(&mine),
                "{mine}"
            );
            assert!(
                flat(&theirs).contains(&format!("Draw {number} (a coin toss) went to ")),
                "{theirs}"
            );
            assert!(!shows_a_toss(&theirs), "{theirs}");
            // The other player's record so far hides the outcome too.
            let (outs, _) = site.mail(seats[1].0, &seats[1].1, "HISTORY");
            let history = to(&outs, seats[1].0).1;
            // Ann draws the odd numbers, Bob the even: the reader sees his
            // own draws and not the other's.
            let draws: Vec<(u32, &str)> = history
                .lines()
                .filter_map(|l| l.trim().strip_prefix("DRAW "))
                .filter_map(|l| l.split_once(' '))
                .map(|(n, what)| (n.parse().unwrap(), what))
                .collect();
            assert_eq!(draws.len() as u32, number, "{history}");
            for (n, what) in draws {
                let hidden = n % 2 == number % 2;
                assert_eq!(what == "(hidden)", hidden, "draw {n}: {history}");
                assert_eq!(shows_a_toss(what), !hidden, "draw {n}: {history}");
            }
            seats.swap(0, 1);
        }
        // The end reveals every draw, and they verify.
        assert!(
            last.contains("The seed of this game's tosses was"),
            "{last}"
        );
        let record = site.export(1);
        assert!(
            !record.contains("(hidden)") && shows_a_toss(&record),
            "{record}"
        );
        let draws = verify(&Record::read(&record).unwrap()).unwrap();
        assert_eq!(draws.len() as u32, number);
    }

    #[test]
    fn a_finished_coin_race_verifies_draw_by_draw() {
        let (_site, text) = play_a_coin_race("verifies");
        let record = Record::read(&text).unwrap();
        let draws = verify(&record).unwrap();
        assert!(draws.len() >= 3, "{text}");
        let numbers: Vec<u32> = draws.iter().map(|d| d.number).collect();
        assert_eq!(numbers, (1..=draws.len() as u32).collect::<Vec<_>>());
        assert!(draws
            .iter()
            .all(|d| d.outcomes == 2 && d.what == "a coin toss"));
    }

    #[test]
    fn a_record_with_one_toss_changed_is_refused_naming_that_toss() {
        let (_site, text) = play_a_coin_race("tampered");
        let (report, ok) = crate::record::verify_report(&text);
        assert!(ok, "{report}");
        assert!(
            report.contains("draw 2 (a coin toss, 2 outcomes): "),
            "{report}"
        );
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("DRAW 2 "))
            .unwrap();
        let flipped = if line.contains("HEADS") {
            line.replace("HEADS", "TAILS")
        } else {
            line.replace("TAILS", "HEADS")
        };
        let tampered = text.replacen(line, &flipped, 1);
        let record = Record::read(&tampered).unwrap();
        match verify(&record) {
            Err(VerifyError::Draw { number, .. }) => assert_eq!(number, 2),
            other => panic!("{other:?}"),
        }
        let (report, ok) = crate::record::verify_report(&tampered);
        assert!(!ok);
        assert!(report.contains("draw 2 does not check out"), "{report}");
    }

    #[test]
    fn a_record_with_another_seed_or_inputs_is_refused() {
        let (_site, text) = play_a_coin_race("other-seed");
        let seed = hex_after(&text, "Revealed ");
        let other = text.replace(&seed, &"0".repeat(64));
        match verify(&Record::read(&other).unwrap()) {
            Err(VerifyError::Commitment { problem, .. }) => {
                assert!(problem.contains("not the one committed to"), "{problem}")
            }
            other => panic!("{other:?}"),
        }
        // Another mail's Message-ID under draw 1: over a whole game, the
        // changed input changes draw 1 or a later one is refused in turn.
        let mail = draw_one(&text).mail.to_string();
        let moved = text.replacen(&mail, &"1".repeat(64), 1);
        let changed = verify(&Record::read(&moved).unwrap());
        let same_outcome = crate::games::fair::outcome(
            &crate::games::fair::Seed::from_hex(&seed).unwrap(),
            &crate::games::fair::DrawInputs {
                number: 1,
                mail: crate::games::fair::InputDigest::from_hex(&"1".repeat(64)).unwrap(),
                ..draw_one(&text)
            },
            crate::games::Chance::public(2, "a coin toss"),
        ) == crate::games::fair::outcome(
            &crate::games::fair::Seed::from_hex(&seed).unwrap(),
            &draw_one(&text),
            crate::games::Chance::public(2, "a coin toss"),
        );
        if same_outcome {
            assert!(changed.is_ok(), "{changed:?}");
        } else {
            assert!(
                matches!(changed, Err(VerifyError::Draw { number: 1, .. })),
                "{changed:?}"
            );
        }
    }

    /// The inputs of draw 1 as the record gives them.
    fn draw_one(text: &str) -> crate::games::fair::DrawInputs {
        let record = Record::read(text).unwrap();
        record
            .entries()
            .iter()
            .find_map(|e| match e {
                crate::record::Entry::Draw(d) if d.inputs.number == 1 => Some(d.inputs),
                _ => None,
            })
            .unwrap()
    }

    #[test]
    fn a_moderators_order_draws_as_a_players_would() {
        let (mut site, _) = accepted("act");
        let now = site.service.now();
        let done = site
            .service
            .moderate("ACT 1 NORTH TOSS", "cli:test", now)
            .unwrap();
        assert!(done.contains("Draw 1 (a coin toss): "), "{done}");
        let record = site.export(1);
        assert!(record.contains("DRAW 1 "), "{record}");
        // The draw was applied: the turn passed to South.
        let replayed = crate::record::replay(&Record::read(&record).unwrap()).unwrap();
        assert_eq!(
            replayed.game.pending().map(|p| p.seat),
            Some(crate::games::Seat::South)
        );
    }

    #[test]
    fn a_draw_rolled_back_is_drawn_again_under_a_new_number() {
        let (mut site, ann_addr) = accepted("rollback");
        site.mail(ANN, &ann_addr, "TOSS");
        let now = site.service.now();
        let done = site
            .service
            .moderate("ROLLBACK 1 1 a test", "cli:test", now)
            .unwrap();
        assert!(done.contains("Draw 2 (a coin toss): "), "{done}");
        let record = site.export(1);
        assert!(
            record.contains("DRAW 2 ") && !record.contains("DRAW 1 "),
            "{record}"
        );
        let replayed = crate::record::replay(&Record::read(&record).unwrap()).unwrap();
        assert_eq!(
            replayed.game.pending().map(|p| p.seat),
            Some(crate::games::Seat::South)
        );
    }

    #[test]
    fn a_moderators_ruling_reveals_the_seed_in_the_last_mails() {
        let (mut site, ann_addr) = accepted("forfeit");
        site.mail(ANN, &ann_addr, "TOSS");
        let now = site.service.now();
        site.service
            .moderate("FORFEIT 1 SOUTH", "cli:test", now)
            .unwrap();
        let seed = site
            .service
            .store()
            .read()
            .unwrap()
            .fair_seed(1)
            .unwrap()
            .unwrap()
            .seed
            .to_hex();
        // The next poll sends the notices the ruling queued.
        site.mail(ANN, "orderly@example.org", "GAMES");
        let told: Vec<String> = std::fs::read_dir(site.dir.join("sent"))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
            .filter(|m| m.contains("tosses was"))
            .collect();
        assert_eq!(told.len(), 2, "both players are told the seed");
        let record = site.export(1);
        assert!(record.contains(&format!("\nRevealed {seed}\n")), "{record}");
        let (report, ok) = crate::record::verify_report(&record);
        assert!(ok, "{report}");
    }

    #[test]
    fn the_seed_stays_secret_while_the_game_goes_on() {
        let (mut site, ann_addr) = accepted("secret");
        let (outs, _) = site.mail(ANN, &ann_addr, "SEED Lucky   seven\nTOSS");
        let (_, reply) = to(&outs, ANN);
        let flat = reply.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("with the SEED words \"Lucky seven\" (North)"),
            "{reply}"
        );
        let record = site.export(1);
        let words = crate::games::fair::words_digest(["Lucky seven", ""]).to_string();
        assert!(record.contains(&format!("words {words}")), "{record}");
        assert!(record.contains("\nCommitment "), "{record}");
        assert!(!record.contains("Revealed"), "{record}");
        assert!(record.contains("DRAW 1 "), "{record}");
        let seed = site
            .service
            .store()
            .read()
            .unwrap()
            .fair_seed(1)
            .unwrap()
            .unwrap()
            .seed
            .to_hex();
        assert!(!record.contains(&seed));
        assert!(outs.iter().all(|o| !o.2.contains(&seed)));
        // A record of a game going on does not verify: nothing is revealed.
        assert!(matches!(
            verify(&Record::read(&record).unwrap()),
            Err(VerifyError::Seed { .. })
        ));
    }
}
