-- Up Migration
-- Trigram matching serves `q` (substring search on email) from an index instead of a full scan.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE contacts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id bigint NOT NULL,
  email text NOT NULL,
  first_name text,
  last_name text,
  subscribed boolean NOT NULL DEFAULT false,
  bounced boolean NOT NULL DEFAULT false,
  source text,
  custom_properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One address per account whatever its case: the index, not a check-then-insert, decides races.
CREATE UNIQUE INDEX contacts_account_email_key ON contacts (account_id, lower(email));
-- Listing is newest first within an account; each filter keeps that order in its own index.
CREATE INDEX contacts_account_id_idx ON contacts (account_id, id);
CREATE INDEX contacts_account_subscribed_idx ON contacts (account_id, subscribed, id);
CREATE INDEX contacts_account_bounced_idx ON contacts (account_id, bounced, id);
CREATE INDEX contacts_email_trgm_idx ON contacts USING gin (lower(email) gin_trgm_ops);

CREATE TABLE tags (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id bigint NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_account_name_key ON tags (account_id, lower(name));

CREATE TABLE contact_tags (
  contact_id bigint NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  tag_id bigint NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (contact_id, tag_id)
);
CREATE INDEX contact_tags_tag_idx ON contact_tags (tag_id);

-- Transactional outbox: written with the change it announces, published by the relay after commit.
CREATE TABLE outbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE published_at IS NULL;
CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL;

-- Down Migration
DROP TABLE outbox;
DROP TABLE contact_tags;
DROP TABLE tags;
DROP TABLE contacts;
