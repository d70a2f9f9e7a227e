-- Up Migration
-- Sessions of the account app. The cookie carries a random token; only its SHA-256 is stored, so a
-- leaked table signs nobody in. The user lives in the gateway's database: here only its id, the
-- account it belongs to, and the stamp of the credentials it signed in with (a changed password
-- changes the stamp, which ends every session opened before).
CREATE TABLE sessions (
  token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
  user_id bigint NOT NULL,
  account_id bigint NOT NULL,
  email text NOT NULL,
  credentials_stamp text NOT NULL,
  -- Synchronizer token every form of this session must echo back.
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- Down Migration
DROP TABLE sessions;
