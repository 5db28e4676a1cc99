-- The rate limits count a sender's mails and sum their commands over the
-- last hour for every mail taken. With `commands` in the index both are
-- read from the index alone, never from the table's rows.
DROP INDEX messages_by_sender;
CREATE INDEX messages_by_sender ON messages (sender, received_at, commands);
