-- The battle a game is played on, for games with several (issue 17:
-- Brothers at War's scenarios, by id); NULL for games with one board.
ALTER TABLE games ADD COLUMN scenario TEXT;
