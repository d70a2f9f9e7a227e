-- Up Migration
-- Double opt-in: the account's confirmation email, when it edited the default. Rendered like a
-- workflow email (Liquid, the contact's fields) with confirm_url; sent as the account's system
-- workflow "Double opt-in confirmation", so it goes through the one send ledger and pre-send check.
CREATE TABLE confirmation_templates (
  account_id bigint PRIMARY KEY,
  subject text NOT NULL,
  html text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE confirmation_templates;
