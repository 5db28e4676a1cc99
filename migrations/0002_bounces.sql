-- Bounces: every delivery-status notification matched to the exact mail
-- it reports (by the VERP envelope sender), and seats whose address no
-- longer takes mail.

CREATE TABLE bounces (
    id          INTEGER PRIMARY KEY,
    outbox_id   INTEGER NOT NULL REFERENCES outbox(id),
    address     TEXT NOT NULL,             -- the recipient that bounced
    hard        INTEGER NOT NULL,          -- 1: permanent (5.x.x), 0: soft
    status      TEXT NOT NULL DEFAULT '',  -- the DSN status, e.g. 5.1.1
    diagnostic  TEXT NOT NULL DEFAULT '',
    message_id  TEXT NOT NULL,             -- the bounce's own Message-ID
    at          TEXT NOT NULL
);
CREATE INDEX bounces_by_address ON bounces (address, hard);

ALTER TABLE seats ADD COLUMN undeliverable TEXT;  -- why, when mail to the seat fails
