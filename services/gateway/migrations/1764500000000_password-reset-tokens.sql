-- Up Migration
-- Password reset by emailed link (issue 20): only the SHA-256 of the random token is kept, so a
-- copy of this table cannot reset anyone's password. One hour, one use; a newer request ends older ones.
CREATE TABLE password_reset_tokens (
  token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);
CREATE INDEX password_reset_tokens_expires_at_idx ON password_reset_tokens (expires_at);

-- Down Migration
DROP TABLE password_reset_tokens;
