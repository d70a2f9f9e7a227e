-- Up Migration
-- An account's webhook endpoints. The secret signs every delivery (Standard Webhooks); it must be
-- readable to sign, so it is stored as is and shown to the account once. After a rotation the
-- previous secret keeps signing until previous_secret_expires_at (both signatures are sent).
-- failing_since: the last delivery exhausted its retries; cleared by the next success.
CREATE TABLE endpoints (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  event_types text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX endpoints_account_idx ON endpoints (account_id);

-- One webhook message for one endpoint. message_id is the webhook-id header, the same on every
-- attempt and resend, so a receiver can drop repeats; UNIQUE makes a redelivered fact harmless.
-- A worker claims a due row (state pending, next_attempt_at passed, or a lapsed lease) with a
-- lease; attempts is also the fencing token for recording the outcome.
CREATE TABLE deliveries (
  id bigserial PRIMARY KEY,
  endpoint_id bigint NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
  account_id bigint NOT NULL,
  message_id text NOT NULL,
  event_type text NOT NULL,
  payload text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivering', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_by text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT deliveries_once_key UNIQUE (endpoint_id, message_id)
);
CREATE INDEX deliveries_due_idx ON deliveries (endpoint_id, next_attempt_at) WHERE state IN ('pending', 'delivering');
CREATE INDEX deliveries_log_idx ON deliveries (endpoint_id, id DESC);

-- Every attempt, for the delivery log: answer status (null when none came), latency, the first KiB
-- of the answer, or why no request was made (refused address, timeout, connection error).
CREATE TABLE delivery_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  latency_ms integer NOT NULL,
  response_excerpt text NOT NULL DEFAULT '',
  error text,
  succeeded boolean NOT NULL
);
CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, id);

-- Down Migration
DROP TABLE delivery_attempts;
DROP TABLE deliveries;
DROP TABLE endpoints;
