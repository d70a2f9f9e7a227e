-- Up Migration
-- What an account tracks in its emails. No row: the defaults (links tracked, opens not: a mail
-- proxy such as Apple Mail Privacy Protection fetches every pixel, docs/adr/0048).
CREATE TABLE tracking_settings (
  account_id bigint PRIMARY KEY,
  link_tracking boolean NOT NULL DEFAULT true,
  open_tracking boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Both ledgers: the subject as rendered for the contact, and the engagement its tracking hits
-- recorded. opens/clicks count reader hits; machine_hits those of scanners and prefetchers.
ALTER TABLE sends
  ADD COLUMN subject text,
  ADD COLUMN first_opened_at timestamptz,
  ADD COLUMN first_clicked_at timestamptz,
  ADD COLUMN opens integer NOT NULL DEFAULT 0,
  ADD COLUMN clicks integer NOT NULL DEFAULT 0,
  ADD COLUMN machine_hits integer NOT NULL DEFAULT 0,
  -- Set when the contact unsubscribed through this email's link (a workflow step's figures).
  ADD COLUMN unsubscribed_at timestamptz;
ALTER TABLE campaign_sends
  ADD COLUMN subject text,
  ADD COLUMN first_opened_at timestamptz,
  ADD COLUMN first_clicked_at timestamptz,
  ADD COLUMN opens integer NOT NULL DEFAULT 0,
  ADD COLUMN clicks integer NOT NULL DEFAULT 0,
  ADD COLUMN machine_hits integer NOT NULL DEFAULT 0;

-- A contact's emails read the campaign ledger by contact (a step's figures use sends_workflow_sent_idx).
CREATE INDEX campaign_sends_contact_idx ON campaign_sends (account_id, contact_id);
-- The dashboard's opened/clicked per day: only rows with engagement are in these.
CREATE INDEX sends_opened_idx ON sends (account_id, first_opened_at) WHERE first_opened_at IS NOT NULL;
CREATE INDEX sends_clicked_idx ON sends (account_id, first_clicked_at) WHERE first_clicked_at IS NOT NULL;
CREATE INDEX campaign_sends_opened_idx ON campaign_sends (account_id, first_opened_at) WHERE first_opened_at IS NOT NULL;
CREATE INDEX campaign_sends_clicked_idx ON campaign_sends (account_id, first_clicked_at) WHERE first_clicked_at IS NOT NULL;

-- Reader clicks per link of one email: ledger 'workflow' (sends.id) or 'campaign' (campaign_sends.id).
CREATE TABLE send_link_clicks (
  ledger text NOT NULL CHECK (ledger IN ('workflow', 'campaign')),
  send_id bigint NOT NULL,
  url text NOT NULL,
  clicks integer NOT NULL DEFAULT 0,
  first_at timestamptz NOT NULL,
  PRIMARY KEY (ledger, send_id, url)
);

-- Down Migration
DROP TABLE send_link_clicks;
DROP INDEX campaign_sends_clicked_idx;
DROP INDEX campaign_sends_opened_idx;
DROP INDEX sends_clicked_idx;
DROP INDEX sends_opened_idx;
DROP INDEX campaign_sends_contact_idx;
ALTER TABLE campaign_sends DROP COLUMN subject, DROP COLUMN first_opened_at, DROP COLUMN first_clicked_at,
  DROP COLUMN opens, DROP COLUMN clicks, DROP COLUMN machine_hits;
ALTER TABLE sends DROP COLUMN subject, DROP COLUMN first_opened_at, DROP COLUMN first_clicked_at,
  DROP COLUMN opens, DROP COLUMN clicks, DROP COLUMN machine_hits, DROP COLUMN unsubscribed_at;
DROP TABLE tracking_settings;
