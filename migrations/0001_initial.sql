-- orderly's first schema. A game's state is never the source of truth: the
-- orders are, and `games.position` is a cache of replaying them.

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    address     TEXT NOT NULL UNIQUE,      -- lower-case mail address
    name        TEXT NOT NULL DEFAULT '',  -- display name from their mail
    created_at  TEXT NOT NULL
);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL,            -- Game::NAME, e.g. 'squares'
    status       TEXT NOT NULL,            -- invited | active | finished | declined
    first_seat   TEXT NOT NULL,            -- north | south
    inviter_seat TEXT NOT NULL,            -- the seat of the player who sent NEW
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    position     TEXT,                     -- cached state after order_count entries
    order_count  INTEGER NOT NULL DEFAULT 0,
    draw_offer   TEXT,                     -- the seat that offered a draw, if any
    result       TEXT,                     -- north | south | draw, when finished
    termination  TEXT                      -- how it ended, in words
);

CREATE TABLE seats (
    game_id          INTEGER NOT NULL REFERENCES games(id),
    seat             TEXT NOT NULL,        -- north | south
    player_id        INTEGER NOT NULL REFERENCES players(id),
    secret           TEXT NOT NULL,        -- HMAC(server secret, game, seat)
    last_message_id  TEXT,                 -- the latest mail to this seat: threading
    held             TEXT NOT NULL DEFAULT '[]', -- JSON: order lines held for a second half
    PRIMARY KEY (game_id, seat)
);

-- Every entry of a game's record, in order: orders, resignations, draws
-- agreed and moderator comments.
CREATE TABLE entries (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL,             -- order | resign | draw | comment
    seat        TEXT,                      -- who gave it
    text        TEXT NOT NULL,             -- canonical order, or the comment
    written     TEXT NOT NULL DEFAULT '',  -- the line as the player wrote it
    message_id  TEXT,                      -- the mail it came in
    at          TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE events (
    game_id  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,             -- the entry that produced it
    n        INTEGER NOT NULL,
    text     TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, n),
    FOREIGN KEY (game_id, seq) REFERENCES entries(game_id, seq)
);

-- Every incoming message ever processed: a second delivery stops here.
CREATE TABLE messages (
    message_id   TEXT PRIMARY KEY,
    sender       TEXT NOT NULL DEFAULT '',
    received_at  TEXT NOT NULL,
    outcome      TEXT NOT NULL
);
CREATE INDEX messages_by_sender ON messages (sender, received_at);

-- Every outgoing mail: queued in the transaction that decided it, sent after.
CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY,
    message_id       TEXT NOT NULL UNIQUE,
    game_id          INTEGER,
    recipient        TEXT NOT NULL,
    mail             TEXT NOT NULL,        -- JSON of mail::outgoing::OutgoingMail
    status           TEXT NOT NULL,        -- queued | sent | failed
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT NOT NULL,
    last_error       TEXT,
    created_at       TEXT NOT NULL,
    sent_at          TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
