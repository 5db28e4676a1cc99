-- Issue 18, the computer opponent by mail (NEW SQUARES VS COMPUTER LEVEL 3):
-- the level the computer plays at in a game against it, 1 to 5; NULL for a
-- game between two people. The computer's seat is an ordinary seat whose
-- player is the reserved address of `[computer] address`, which never
-- receives mail and is never taken as a sender.
ALTER TABLE games ADD COLUMN computer_level INTEGER;
