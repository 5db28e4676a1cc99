-- Issue 18, hostile mail: WATCH and PLAYOFTHEDAY need no key, so a forged
-- From: could make orderly mail someone every board of a game, or every
-- round of the Play of the Day. A watcher or a member is confirmed by their
-- first reply to the mail that answered them (its Reply-To carries a key
-- of theirs); until then only that one answer goes to the address. Rows
-- from before are confirmed.
ALTER TABLE watchers ADD COLUMN confirmed INTEGER NOT NULL DEFAULT 1;
ALTER TABLE daily_members ADD COLUMN confirmed INTEGER NOT NULL DEFAULT 1;
