-- Moderation: every moderator action audited; pauses; seat keys that can be
-- renewed when a player is replaced; players' requests for a moderator.

CREATE TABLE moderation (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER,
    moderator  TEXT NOT NULL,       -- the moderator's address, or cli:<user>
    action     TEXT NOT NULL,       -- the command as given
    outcome    TEXT NOT NULL,       -- what it did
    at         TEXT NOT NULL
);
CREATE INDEX moderation_by_game ON moderation (game_id);

ALTER TABLE games ADD COLUMN paused_until TEXT;     -- UTC; NULL when not paused
ALTER TABLE games ADD COLUMN paused_left_secs INTEGER; -- the deadline's time left at the pause
ALTER TABLE games ADD COLUMN disputed TEXT;         -- an open request for a moderator

ALTER TABLE seats ADD COLUMN generation INTEGER NOT NULL DEFAULT 0; -- bumped on REPLACE
