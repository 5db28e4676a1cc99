-- Fair draws of chance by commit and reveal (docs/dice.md, issue 16).
--
-- fair_seeds: one row per game with chance, made when the game is created.
-- `seed` is the secret (hex), shown to nobody until the game is over;
-- `commitment` its SHA-256 (hex), told to both players at once; `draws` how
-- many draws were made, so that a number is never given twice, not even
-- after a moderator rolls draws back.
CREATE TABLE fair_seeds (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    seed TEXT NOT NULL,
    commitment TEXT NOT NULL,
    draws INTEGER NOT NULL DEFAULT 0
);

-- fair_draws: the public inputs of each draw, by the record entry (`seq`)
-- of the order that applied its outcome.
CREATE TABLE fair_draws (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    number INTEGER NOT NULL,
    mail TEXT NOT NULL,
    reply TEXT NOT NULL,
    words TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- fair_words: the words each seat last gave on a SEED line (at most 64
-- characters), mixed into every later draw of the game.
CREATE TABLE fair_words (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    words TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
