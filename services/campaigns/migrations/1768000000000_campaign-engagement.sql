-- Up Migration
ALTER TABLE campaigns
  -- Of emails_failed: refused by the recipient's server as a bounce (automation's progress counts).
  ADD COLUMN emails_bounced integer NOT NULL DEFAULT 0 CHECK (emails_bounced >= 0),
  -- A segment of the contacts service: when set, its members are the recipients (contacts evaluates it).
  ADD COLUMN audience_segment_id bigint CHECK (audience_segment_id > 0);

-- One row per contact who did anything with a campaign's email. A hit is one upsert of its own
-- contact's row: no counter row that every hit of a big campaign would queue on. The report sums
-- these (unique = rows with a first time, total = the sums). No foreign key: its check would
-- share-lock the campaign row on every hit, and campaigns are never deleted.
CREATE TABLE campaign_engagement_contacts (
  campaign_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  -- A reader's first open; a click with no open before it sets it too (a click implies an open).
  first_open_at timestamptz,
  first_click_at timestamptz,
  opens integer NOT NULL DEFAULT 0,
  clicks integer NOT NULL DEFAULT 0,
  -- Scanners and prefetchers (the hit's `machine` flag): counted, never as a reader's.
  machine_opens integer NOT NULL DEFAULT 0,
  machine_clicks integer NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_id, contact_id)
);

-- Readers' clicks per link and contact: a link's unique clicks are its rows, its total their sum.
-- The key holds the URL's md5 rather than the URL, so a long URL (a B-tree entry caps near 2.7 kB)
-- is counted like any other.
CREATE TABLE campaign_link_clicks (
  campaign_id bigint NOT NULL,
  url_key uuid NOT NULL,
  contact_id bigint NOT NULL,
  url text NOT NULL,
  clicks integer NOT NULL DEFAULT 1,
  first_click_at timestamptz NOT NULL,
  PRIMARY KEY (campaign_id, url_key, contact_id)
);

-- Down Migration
DROP TABLE campaign_link_clicks;
DROP TABLE campaign_engagement_contacts;
ALTER TABLE campaigns DROP COLUMN emails_bounced, DROP COLUMN audience_segment_id;
