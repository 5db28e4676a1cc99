-- The Date of each outgoing mail, kept with its row so that the next mail
-- is dated after it: strictly after the mail queued before it (to the
-- millisecond, which the sent files' names sort by), and in a later second
-- than the last mail to the same address (a Date header holds whole
-- seconds, and mail programs order a reader's mail by it). NULL for mail
-- queued before this column: older than any mail still to come.
ALTER TABLE outbox ADD COLUMN dated TEXT;

-- The last mail to an address, read for every mail queued.
CREATE INDEX outbox_dated_by_recipient ON outbox (recipient, dated);
