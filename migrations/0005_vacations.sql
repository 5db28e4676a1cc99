-- Vacations stop a player's clocks; games silent for long are adjourned to
-- the moderators.

CREATE TABLE vacations (
    id          INTEGER PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    starts      TEXT NOT NULL,          -- UTC
    ends        TEXT NOT NULL,          -- UTC, moved earlier when it ends early
    started     INTEGER NOT NULL DEFAULT 0, -- its clocks were stopped
    ended       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX vacations_by_player ON vacations (player_id, ended);
CREATE INDEX vacations_due ON vacations (started, starts);

ALTER TABLE games ADD COLUMN adjourned INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_activity ON games (status, updated_at);
