-- Issue 18, observers. A game its players made public (NEW ... PUBLIC) may
-- be watched by anyone who writes WATCH <game>: each watcher gets every
-- board the players get, drawn with nothing hidden shown (no hand, no
-- key, no message between the players), until UNWATCH, the game's end, or
-- their address bouncing for good.
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;

CREATE TABLE watchers (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    since      TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
-- How many games one address watches (the per-address cap).
CREATE INDEX watchers_by_player ON watchers (player_id);
-- GAMES PUBLIC: the most recent public games.
CREATE INDEX games_public ON games (public, id);
