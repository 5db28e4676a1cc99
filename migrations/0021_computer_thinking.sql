-- Issue 18, hostile mail: the computer's thinking is the one thing a short
-- mail can make orderly spend seconds of a core on (a turn of the Civil
-- War Game 1863 at level 5 is some forty searches). Each search is
-- written down with the playouts it cost and the player whose game it
-- was, so that thinking is bounded per player and in all per hour
-- ([computer] thinking_per_player_hour, thinking_per_hour); a game whose
-- answer waits for the budget is marked owed, oldest first, and the
-- sweep plays it when the budget allows.
CREATE TABLE computer_thinking (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    at TEXT NOT NULL,
    playouts INTEGER NOT NULL
);
CREATE INDEX computer_thinking_by_time ON computer_thinking (at, playouts);
CREATE INDEX computer_thinking_by_player ON computer_thinking (player, at, playouts);
ALTER TABLE games ADD COLUMN computer_owed_since TEXT;
CREATE INDEX games_owed_by_computer ON games (computer_owed_since)
    WHERE computer_owed_since IS NOT NULL;
