-- Up Migration
-- The account's suppression list: every "no" (unsubscribe link, one-click, PATCH subscribed:false,
-- hard bounce) keyed by address, not by contact, so it outlives the contact. Only an explicit
-- subscribed:true by the account holder lifts an entry; a lifted entry is kept (who, when) as the
-- log of that decision, and a later "no" adds a new row.
CREATE TABLE suppressions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id bigint NOT NULL,
  -- The normalised address, lower-cased whole: the same key as contacts' unique index.
  address text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('unsubscribed', 'bounced', 'complained')),
  -- How the "no" arrived: unsubscribe_link, api, smtp_bounce.
  source text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  lifted_at timestamptz,
  lifted_by text
);
-- At most one standing entry per address: the index is what a lookup before a send reads.
CREATE UNIQUE INDEX suppressions_standing_key ON suppressions (account_id, address) WHERE lifted_at IS NULL;

-- GET /contacts?tag=NAME: the tag's contacts newest first, without visiting other tags' links.
CREATE INDEX contact_tags_tag_contact_idx ON contact_tags (tag_id, contact_id DESC);
DROP INDEX contact_tags_tag_idx;

-- Down Migration
CREATE INDEX contact_tags_tag_idx ON contact_tags (tag_id);
DROP INDEX contact_tags_tag_contact_idx;
DROP TABLE suppressions;
