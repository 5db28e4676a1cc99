-- Issue 18, ratings: Glicko-2 per player and per game kind (games.kind,
-- Game::NAME: squares, napoleonic, civilwar1863, brothersatwar are rated
-- apart). A game is rated (NEW ... RATED, the default between two people)
-- or not; games made before this column are not.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- A player's rating in one kind of game: absent until their first rated
-- game of that kind ends (they start at 1500, deviation 350, volatility
-- 0.06). `updated` is when their last rated game ended: the deviation
-- grows for each whole rating period since (docs/ratings.md).
CREATE TABLE ratings (
    player_id   INTEGER NOT NULL REFERENCES players(id),
    kind        TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    updated     TEXT NOT NULL,
    PRIMARY KEY (player_id, kind)
);
CREATE INDEX ratings_by_kind ON ratings (kind, rating);

-- What a rated game's end did to each seat's rating, written in the same
-- transaction as the end: the last mails of the game show it, and a game
-- is never rated twice.
CREATE TABLE rating_changes (
    game_id         INTEGER NOT NULL REFERENCES games(id),
    seat            TEXT NOT NULL,
    player_id       INTEGER NOT NULL REFERENCES players(id),
    kind            TEXT NOT NULL,
    old_rating      REAL NOT NULL,
    old_deviation   REAL NOT NULL,
    new_rating      REAL NOT NULL,
    new_deviation   REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
