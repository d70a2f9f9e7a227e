-- Up Migration
-- Segments are evaluated in this database (docs/adr/0053): the rule compiles to one WHERE over
-- contacts, and the histories below exist so its event and engagement conditions are index reads.

-- The reader's latest open or click (machine hits never count): "engaged within N days".
ALTER TABLE contacts ADD COLUMN last_engaged_at timestamptz;
CREATE INDEX contacts_account_last_engaged_idx ON contacts (account_id, last_engaged_at) WHERE last_engaged_at IS NOT NULL;

-- One row per contact and campaign the reader opened or clicked; campaign_id NULL stands for the
-- workflow emails together. A row exists only after a reader hit, so "never opened" is NOT EXISTS.
CREATE TABLE contact_engagements (
  account_id bigint NOT NULL,
  contact_id bigint NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  campaign_id bigint,
  first_opened_at timestamptz NOT NULL,
  first_clicked_at timestamptz,
  last_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX contact_engagements_key ON contact_engagements (contact_id, campaign_id) NULLS NOT DISTINCT;
-- "Opened / clicked campaign C": the campaign's readers as one range, joined to the contacts.
CREATE INDEX contact_engagements_campaign_idx ON contact_engagements (account_id, campaign_id, contact_id) INCLUDE (first_clicked_at);

-- Product events per contact, event name and UTC day: "did X at least N times in the last D days"
-- is a sum over one range of this key, read from the index alone (count included).
CREATE TABLE contact_event_days (
  account_id bigint NOT NULL,
  event text NOT NULL,
  day date NOT NULL,
  contact_id bigint NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  count integer NOT NULL,
  PRIMARY KEY (account_id, event, day, contact_id) INCLUDE (count)
);
-- Deleting a contact cascades here.
CREATE INDEX contact_event_days_contact_idx ON contact_event_days (contact_id);

CREATE TABLE segments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id bigint NOT NULL,
  name text NOT NULL,
  rule jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX segments_account_name_key ON segments (account_id, lower(name));

-- Down Migration
DROP TABLE segments;
DROP TABLE contact_event_days;
DROP TABLE contact_engagements;
ALTER TABLE contacts DROP COLUMN last_engaged_at;
