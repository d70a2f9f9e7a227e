-- Up Migration
-- Inbox: ids of messages already applied, so a redelivered message changes nothing twice.
CREATE TABLE processed_messages (
  message_id text PRIMARY KEY,
  processed_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE processed_messages;
