-- Clock banks (NEW ... CLOCK 10+1): each seat's time left, the increment
-- per turn and the cap; what kind of decision a deadline is for and since
-- when it runs; each game's own time-out policy; daily digests.

ALTER TABLE games ADD COLUMN clock_increment_secs INTEGER;  -- NULL: days per turn
ALTER TABLE games ADD COLUMN clock_cap_secs INTEGER;
ALTER TABLE games ADD COLUMN deadline_kind TEXT;            -- turn | decision
ALTER TABLE games ADD COLUMN deadline_since TEXT;           -- when its clock started
ALTER TABLE games ADD COLUMN timeout_policy TEXT;           -- claim | moderators; NULL: the server's
ALTER TABLE seats ADD COLUMN bank_secs INTEGER;             -- clock bank left

ALTER TABLE players ADD COLUMN digest INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN digest_sent TEXT;            -- the UTC date of the last digest
