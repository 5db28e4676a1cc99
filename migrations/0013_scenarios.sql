-- Issue 17. The battle a game is played on, for games with several (issue 17:
-- Brothers at War's scenarios, by id); NULL for games with one board.
ALTER TABLE games ADD COLUMN scenario TEXT;

-- The seat that alone may know a draw's outcome until the game is over (a
-- card drawn into a hidden hand); NULL for a draw both players see.
ALTER TABLE fair_draws ADD COLUMN private_to TEXT;
