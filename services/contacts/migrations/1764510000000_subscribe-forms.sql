-- Up Migration
-- Double opt-in's hosted subscribe form: one per account, addressed by an unguessable token (not
-- the account id), so a form's address reveals nothing and can be replaced.
CREATE TABLE subscribe_forms (
  account_id bigint PRIMARY KEY,
  token text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE subscribe_forms;
