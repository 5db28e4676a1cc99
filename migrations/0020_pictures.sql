-- Issue 19: every board mail carries the board as a picture, unless the
-- player turned pictures off (SET PICTURES OFF) or the server did
-- ([outgoing] pictures = false).
ALTER TABLE players ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1;
