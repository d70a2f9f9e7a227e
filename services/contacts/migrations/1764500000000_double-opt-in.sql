-- Up Migration
-- Double opt-in per account: contacts created by events, CSV import or the subscribe form start
-- pending (not subscribed) and get a confirmation email; the REST interface keeps `subscribed` as given.
CREATE TABLE double_opt_in_settings (
  account_id bigint PRIMARY KEY,
  enabled boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- confirmation: null (never asked), 'pending' (asked, not yet confirmed) or 'confirmed'; the consent
-- record is when the recipient confirmed and from which IP address.
ALTER TABLE contacts
  ADD COLUMN confirmation text CHECK (confirmation IN ('pending', 'confirmed')),
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN confirmed_from text;

-- Down Migration
ALTER TABLE contacts DROP COLUMN confirmation, DROP COLUMN confirmed_at, DROP COLUMN confirmed_from;
DROP TABLE double_opt_in_settings;
