-- A player's time zone is guessed from the Date: header of their mail
-- until they choose one with SET TIMEZONE; a zone other than UTC stored
-- before this column existed was chosen.
ALTER TABLE players ADD COLUMN timezone_chosen INTEGER NOT NULL DEFAULT 0;
UPDATE players SET timezone_chosen = 1 WHERE timezone <> 'UTC';

-- The sweep looks for invitations left open too long: only open ones are
-- indexed.
CREATE INDEX games_invited ON games (created_at) WHERE status = 'invited';

-- SET ADDRESS: a player's move to a new address, waiting for the
-- confirmation written from that address (CONFIRM ADDRESS <code>).
CREATE TABLE address_changes (
    code        TEXT PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    new_address TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

-- Answers a player gave in advance (IF STAND OPTION 2, IF ATTACKED AT B2C
-- RETREAT B1R), as a JSON list; used once each, or cancelled.
ALTER TABLE seats ADD COLUMN conditions TEXT NOT NULL DEFAULT '[]';

-- Incoming mails whose processing failed or panicked, by a hash of their
-- bytes: tried again a bounded number of times, then set aside.
CREATE TABLE intake_failures (
    digest     TEXT PRIMARY KEY,
    attempts   INTEGER NOT NULL,
    last_error TEXT NOT NULL,
    first_at   TEXT NOT NULL
);

-- How many commands and orders each mail carried: the per-sender rate
-- limit counts them, not only mails.
ALTER TABLE messages ADD COLUMN commands INTEGER NOT NULL DEFAULT 1;

-- A game's own moderator acts only once they accepted by mail; those named
-- before this column existed keep their office.
ALTER TABLE games ADD COLUMN moderator_confirmed INTEGER NOT NULL DEFAULT 0;
UPDATE games SET moderator_confirmed = 1 WHERE moderator IS NOT NULL;

-- A digest of each mail's sender, Date and text: a captured mail sent again
-- under a new Message-ID is recognised as a replay and not acted on.
ALTER TABLE messages ADD COLUMN digest TEXT;
CREATE INDEX messages_digest ON messages (digest) WHERE digest IS NOT NULL;
