-- Up Migration
-- Sessions of the settings screen. The cookie carries a random token; only its SHA-256 is stored.
CREATE TABLE sessions (
  token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Synchronizer token every form of this session must echo back.
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- Down Migration
DROP TABLE sessions;
