-- Up Migration
-- Trigram indexes let `q` (a substring search, ILIKE '%...%') use an index instead of scanning
-- every campaign of a large account.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Campaigns are read-only over REST; rows arrive through the operator import and counts move
-- with send results from the broker. The status list is the spec's, enforced here as well as in code.
CREATE TABLE campaigns (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id bigint NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
  title text NOT NULL DEFAULT '' CHECK (char_length(title) <= 255),
  -- Searched by `q` with name and title; not part of the spec's Campaign shape, so never returned.
  subject text CHECK (char_length(subject) <= 998),
  status text NOT NULL DEFAULT 'draft'
    CONSTRAINT campaigns_status_check CHECK (status IN ('draft', 'scheduled', 'sent', 'failed', 'approved', 'sending')),
  preview_text text NOT NULL DEFAULT '' CHECK (char_length(preview_text) <= 1000),
  emails_sent integer NOT NULL DEFAULT 0 CHECK (emails_sent >= 0),
  emails_failed integer NOT NULL DEFAULT 0 CHECK (emails_failed >= 0),
  total_recipients integer NOT NULL DEFAULT 0 CHECK (total_recipients >= 0),
  unsubscribes_count integer NOT NULL DEFAULT 0 CHECK (unsubscribes_count >= 0),
  send_at timestamptz,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Listing is always per account, newest first (id desc), optionally by status.
CREATE INDEX campaigns_account_id_idx ON campaigns (account_id, id DESC);
CREATE INDEX campaigns_account_status_id_idx ON campaigns (account_id, status, id DESC);
-- One multicolumn GIN index serves `name ILIKE .. OR title ILIKE .. OR subject ILIKE ..` (BitmapOr).
CREATE INDEX campaigns_search_trgm_idx ON campaigns
  USING gin (name gin_trgm_ops, title gin_trgm_ops, subject gin_trgm_ops);

-- Down Migration
DROP TABLE campaigns;
DROP EXTENSION IF EXISTS pg_trgm;
