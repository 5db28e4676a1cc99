-- Issue 18, part 3: the Play of the Day. The community plays one side of a
-- public game against the house, one decision a round: each member votes
-- for an order, and the most voted legal order is played when the round
-- closes (at its deadline, or once an order has the configured number of
-- votes). The game itself is an ordinary game row (its record, watchers,
-- export and replay are those of any game); these tables hold what only
-- the Play of the Day has.

-- The Play of the Day games, one open at a time. `round` counts the
-- community's decisions decided so far; `round_ends` is when the open
-- round is tallied, NULL while the house decides. A round belongs to one
-- position: `round_opened` and `round_entries` (the game's entry count
-- then) say which; a round whose game changed meanwhile (a moderator's
-- ACT) opens afresh, and only votes cast since it opened count.
CREATE TABLE daily_games (
    game_id       INTEGER PRIMARY KEY REFERENCES games(id),
    community     TEXT NOT NULL,
    round         INTEGER NOT NULL DEFAULT 0,
    round_ends    TEXT,
    round_opened  TEXT,
    round_entries INTEGER NOT NULL DEFAULT 0
);

-- Who takes part (PLAYOFTHEDAY): registered players, by their player row.
CREATE TABLE daily_members (
    player_id INTEGER PRIMARY KEY REFERENCES players(id),
    since     TEXT NOT NULL
);

-- Every vote, kept after its round: a member's later vote in the same
-- round replaces the earlier one. `round` is the round it was cast in
-- (`daily_games.round` + 1 then); `order_text` is canonical.
CREATE TABLE daily_votes (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    round      INTEGER NOT NULL,
    player_id  INTEGER NOT NULL REFERENCES players(id),
    order_text TEXT NOT NULL,
    at         TEXT NOT NULL,
    PRIMARY KEY (game_id, round, player_id)
);

-- Each round's result: the order played, its votes out of all cast, and
-- how the round closed ('deadline', 'votes', or 'forced' when only one
-- order was legal).
CREATE TABLE daily_results (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    round      INTEGER NOT NULL,
    order_text TEXT NOT NULL,
    votes      INTEGER NOT NULL,
    cast_votes INTEGER NOT NULL,
    closed_by  TEXT NOT NULL,
    tied       INTEGER NOT NULL DEFAULT 0,
    at         TEXT NOT NULL,
    PRIMARY KEY (game_id, round)
);
