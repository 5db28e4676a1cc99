-- Time controls: each game's days per turn, the deadline of its pending
-- decision (UTC), which reminders of that deadline were sent, and whether
-- it ran out; each player's time zone and reminder choice.

ALTER TABLE games ADD COLUMN turn_days INTEGER NOT NULL DEFAULT 3;
ALTER TABLE games ADD COLUMN deadline TEXT;             -- RFC 3339 UTC, or NULL
ALTER TABLE games ADD COLUMN deadline_seat TEXT;        -- the seat it binds
ALTER TABLE games ADD COLUMN notices_sent TEXT NOT NULL DEFAULT ''; -- e.g. ' 24h 2h late '
ALTER TABLE games ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_deadline ON games (status, deadline);

ALTER TABLE players ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE players ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1;
