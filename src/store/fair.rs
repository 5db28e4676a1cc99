//! Fair chance (docs/dice.md): each game's secret seed and its commitment,
//! the public inputs of every draw, and the words players gave on `SEED`
//! lines.

use rusqlite::{params, OptionalExtension};

use crate::games::fair::{Commitment, DrawInputs, InputDigest, Seed};
use crate::games::Seat;
use crate::store::{column, Result, StoreError, Tx};

/// A game's seed as stored: secret until the game is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairSeed {
    /// The seed.
    pub seed: Seed,
    /// Its SHA-256, told to both players when the game was created.
    pub commitment: Commitment,
}

/// One draw as stored: the record entry of the order that applied its
/// outcome, and its public inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FairDraw {
    /// The entry's position in the game's record.
    pub seq: i64,
    /// The draw's public inputs, its number among them.
    pub inputs: DrawInputs,
    /// The seat that alone may know its outcome until the game is over
    /// ([`Chance::private_to`](crate::games::Chance::private_to)).
    pub private_to: Option<Seat>,
}

fn corrupt(what: &str, game: i64) -> StoreError {
    StoreError::Corrupt(format!("game {game}: {what} is not 64 hex digits"))
}

fn digest(text: &str, game: i64) -> Result<InputDigest> {
    InputDigest::from_hex(text).ok_or_else(|| corrupt("a draw's input", game))
}

impl Tx<'_> {
    /// Keeps a new game's seed and its commitment.
    pub fn create_fair_seed(&self, game: i64, seed: &Seed) -> Result<()> {
        self.exec(
            "INSERT INTO fair_seeds (game_id, seed, commitment) VALUES (?1, ?2, ?3)",
            params![game, seed.to_hex(), seed.commitment().to_string()],
        )?;
        Ok(())
    }

    /// A game's seed, if it has one (games without chance have none).
    pub fn fair_seed(&self, game: i64) -> Result<Option<FairSeed>> {
        let row: Option<(String, String)> = self
            .one(
                "SELECT seed, commitment FROM fair_seeds WHERE game_id = ?1",
                params![game],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some((seed, commitment)) = row else {
            return Ok(None);
        };
        Ok(Some(FairSeed {
            seed: Seed::from_hex(&seed).ok_or_else(|| corrupt("the seed", game))?,
            commitment: Commitment::from_hex(&commitment)
                .ok_or_else(|| corrupt("the commitment", game))?,
        }))
    }

    /// The number of the game's next draw, counted as made: numbers go on
    /// from 1 and are never given twice, not even after a rollback.
    pub fn next_draw_number(&self, game: i64) -> Result<u32> {
        self.exec(
            "UPDATE fair_seeds SET draws = draws + 1 WHERE game_id = ?1",
            params![game],
        )?;
        let n: i64 = self.one(
            "SELECT draws FROM fair_seeds WHERE game_id = ?1",
            params![game],
            |r| r.get(0),
        )?;
        u32::try_from(n).map_err(|_| StoreError::Corrupt(format!("game {game}: {n} draws")))
    }

    /// Keeps the public inputs of a draw whose outcome the entry `seq`
    /// applied.
    pub fn add_fair_draw(
        &self,
        game: i64,
        seq: i64,
        inputs: &DrawInputs,
        private_to: Option<Seat>,
    ) -> Result<()> {
        self.exec(
            "INSERT INTO fair_draws (game_id, seq, number, mail, reply, words, private_to) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                game,
                seq,
                inputs.number,
                inputs.mail.to_string(),
                inputs.reply.to_string(),
                inputs.words.to_string(),
                private_to
            ],
        )?;
        Ok(())
    }

    /// A game's draws, in the order of the record.
    pub fn fair_draws(&self, game: i64) -> Result<Vec<FairDraw>> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT seq, number, mail, reply, words, private_to FROM fair_draws \
             WHERE game_id = ?1 ORDER BY seq",
        )?;
        type Row = (i64, u32, String, String, String, Option<Seat>);
        let rows: Vec<Row> = stmt
            .query_map(params![game], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        rows.into_iter()
            .map(|(seq, number, mail, reply, words, private_to)| {
                Ok(FairDraw {
                    seq,
                    private_to,
                    inputs: DrawInputs {
                        number,
                        mail: digest(&mail, game)?,
                        reply: digest(&reply, game)?,
                        words: digest(&words, game)?,
                    },
                })
            })
            .collect()
    }

    /// Forgets the draws whose entries are no longer in the record (a
    /// moderator's ROLLBACK removed them); their numbers stay used.
    pub fn forget_rolled_back_draws(&self, game: i64) -> Result<()> {
        self.exec(
            "DELETE FROM fair_draws WHERE game_id = ?1 AND seq > \
             (SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?1)",
            params![game],
        )?;
        Ok(())
    }

    /// Keeps the words `seat` gave on a `SEED` line, replacing earlier ones.
    pub fn set_seed_words(&self, game: i64, seat: Seat, words: &str) -> Result<()> {
        self.exec(
            "INSERT INTO fair_words (game_id, seat, words) VALUES (?1, ?2, ?3) \
             ON CONFLICT (game_id, seat) DO UPDATE SET words = excluded.words",
            params![game, seat, words],
        )?;
        Ok(())
    }

    /// The words each seat last gave on a `SEED` line, North first; empty
    /// for a seat that gave none.
    pub fn seed_words(&self, game: i64) -> Result<[String; 2]> {
        let mut stmt = self
            .tx
            .prepare_cached("SELECT seat, words FROM fair_words WHERE game_id = ?1")?;
        let mut out = [String::new(), String::new()];
        let rows = stmt.query_map(params![game], |r| {
            Ok((column::<Seat>(r, 0)?, r.get::<_, String>(1)?))
        })?;
        for row in rows {
            let (seat, words) = row?;
            out[seat.index()] = words;
        }
        Ok(out)
    }

    /// The Message-ID of the latest mail written by `seat`'s player that
    /// the game's record holds an entry of, if any.
    pub fn latest_mail_of(&self, game: i64, seat: Seat) -> Result<Option<String>> {
        Ok(self
            .one(
                // Not a mail of the other player that played this seat's
                // held lines: those entries are this seat's too.
                "SELECT e.message_id FROM entries e \
                 JOIN seats s ON s.game_id = e.game_id AND s.seat = e.seat \
                 JOIN players p ON p.id = s.player_id \
                 JOIN messages m ON m.message_id = e.message_id AND m.sender = p.address \
                 WHERE e.game_id = ?1 AND e.seat = ?2 ORDER BY e.seq DESC LIMIT 1",
                params![game, seat],
                |r| r.get(0),
            )
            .optional()?)
    }
}

#[cfg(test)]
mod tests {
    use crate::games::fair::{words_digest, DrawInputs, InputDigest, Seed};
    use crate::games::Seat;
    use crate::store::{EntryKind, Store, Timestamp};

    #[test]
    fn a_seed_its_draws_and_the_players_words_are_kept() {
        let mut store = Store::open_in_memory().unwrap();
        let tx = store.tx().unwrap();
        let at = Timestamp::from(chrono::Utc::now());
        let game = tx
            .create_game("coinrace", Seat::North, Seat::North, 1, None, at)
            .unwrap();
        assert_eq!(tx.fair_seed(game).unwrap(), None);
        let seed = Seed::from_bytes([3; 32]);
        tx.create_fair_seed(game, &seed).unwrap();
        let kept = tx.fair_seed(game).unwrap().unwrap();
        assert_eq!(kept.seed, seed);
        assert_eq!(kept.commitment, seed.commitment());
        assert_eq!(tx.next_draw_number(game).unwrap(), 1);
        assert_eq!(tx.next_draw_number(game).unwrap(), 2);
        let inputs = DrawInputs {
            number: 2,
            mail: InputDigest::of("<m@x>"),
            reply: InputDigest::of(""),
            words: words_digest(["", ""]),
        };
        tx.add_fair_draw(game, 5, &inputs, None).unwrap();
        tx.add_fair_draw(
            game,
            7,
            &DrawInputs {
                number: 3,
                ..inputs
            },
            Some(Seat::South),
        )
        .unwrap();
        let draws = tx.fair_draws(game).unwrap();
        assert_eq!(draws.len(), 2);
        assert_eq!((draws[0].seq, draws[0].inputs), (5, inputs));
        assert_eq!(
            (draws[0].private_to, draws[1].private_to),
            (None, Some(Seat::South))
        );
        // Only the draws past the record's last entry are forgotten.
        for _ in 0..5 {
            tx.add_entry(game, EntryKind::Comment, None, "c", "c", None, at, &[])
                .unwrap();
        }
        tx.forget_rolled_back_draws(game).unwrap();
        assert_eq!(tx.fair_draws(game).unwrap().len(), 1);
        // A rolled back number is not given again.
        assert_eq!(tx.next_draw_number(game).unwrap(), 3);
        assert_eq!(tx.seed_words(game).unwrap(), [String::new(), String::new()]);
        tx.set_seed_words(game, Seat::South, "one").unwrap();
        tx.set_seed_words(game, Seat::South, "two").unwrap();
        assert_eq!(tx.seed_words(game).unwrap(), [String::new(), "two".into()]);
        assert_eq!(tx.latest_mail_of(game, Seat::South).unwrap(), None);
        let north = tx.player("n@x", "N", at).unwrap();
        let south = tx.player("s@x", "S", at).unwrap();
        tx.add_seat(game, Seat::North, north, "k1").unwrap();
        tx.add_seat(game, Seat::South, south, "k2").unwrap();
        tx.record_message("<s1@x>", "s@x", at, "orders").unwrap();
        tx.record_message("<n1@x>", "n@x", at, "orders").unwrap();
        tx.add_entry(
            game,
            EntryKind::Order,
            Some(Seat::South),
            "TOSS",
            "toss",
            Some("<s1@x>"),
            at,
            &[],
        )
        .unwrap();
        assert_eq!(
            tx.latest_mail_of(game, Seat::South).unwrap().as_deref(),
            Some("<s1@x>")
        );
        // South's held line played by North's mail is recorded as South's
        // order with North's mail: that mail is North's, not South's.
        tx.add_entry(
            game,
            EntryKind::Order,
            Some(Seat::South),
            "TOSS",
            "toss",
            Some("<n1@x>"),
            at,
            &[],
        )
        .unwrap();
        assert_eq!(
            tx.latest_mail_of(game, Seat::South).unwrap().as_deref(),
            Some("<s1@x>")
        );
        assert_eq!(tx.latest_mail_of(game, Seat::North).unwrap(), None);
    }
}
