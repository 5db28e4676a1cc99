-- A game may name its own moderator (NEW ... MODERATOR address), who may
-- act on that game besides the server's moderators and is told of it.
ALTER TABLE games ADD COLUMN moderator TEXT;

-- The sweep looks for pauses that have ended: only paused games are indexed.
CREATE INDEX games_paused ON games (paused_until) WHERE paused_until IS NOT NULL;
