-- A player's time zone is guessed from the Date: header of their mail
-- until they choose one with SET TIMEZONE; a zone other than UTC stored
-- before this column existed was chosen.
ALTER TABLE players ADD COLUMN timezone_chosen INTEGER NOT NULL DEFAULT 0;
UPDATE players SET timezone_chosen = 1 WHERE timezone <> 'UTC';

-- The sweep looks for invitations left open too long: only open ones are
-- indexed.
CREATE INDEX games_invited ON games (created_at) WHERE status = 'invited';
