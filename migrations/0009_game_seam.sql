-- The game-neutral seam (issue 14).
--
-- games.seed: the seed of a game's draws of chance (GameOptions::seed),
-- drawn when the game is created and kept so that every draw can be checked
-- afterwards. Games without chance keep it too; games created before this
-- migration have none (they never drew).
ALTER TABLE games ADD COLUMN seed INTEGER;

-- events.data: the event as the game's data (its serde JSON), beside its
-- words, so that a game can word it again for each viewer (hidden hands)
-- and tools can read it without parsing sentences. NULL for events stored
-- before this migration.
ALTER TABLE events ADD COLUMN data TEXT;
