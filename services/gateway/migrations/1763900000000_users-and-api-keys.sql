-- Up Migration
CREATE TABLE users (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One sign-in identity per address, whatever its case.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_account_id_idx ON users (account_id);

CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- Public id part of the key on the wire (mk_live_<key_id>_...): the one indexed lookup.
  key_id text NOT NULL,
  -- SHA-256 of the secret part; the secret itself is never stored.
  secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
  -- The key works through the end of this day (UTC); NULL: never expires.
  expires_on date,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  CONSTRAINT api_keys_key_id_key UNIQUE (key_id)
);
CREATE INDEX api_keys_account_id_idx ON api_keys (account_id, id DESC);

-- Down Migration
DROP TABLE api_keys;
DROP TABLE users;
