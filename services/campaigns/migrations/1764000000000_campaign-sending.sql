-- Up Migration
-- Campaigns are composed, approved and sent (issue #19): content, audience rule, lifecycle details.
ALTER TABLE campaigns
  ADD COLUMN html text,
  ADD COLUMN text_body text,
  ADD COLUMN from_name text CHECK (char_length(from_name) <= 200),
  ADD COLUMN from_address text CHECK (char_length(from_address) <= 254),
  ADD COLUMN audience_tags text[] NOT NULL DEFAULT '{}',
  ADD COLUMN audience_match text NOT NULL DEFAULT 'any' CHECK (audience_match IN ('any', 'all')),
  -- Why a campaign is failed (cancelled, SMTP refused everything); null otherwise.
  ADD COLUMN failure_reason text,
  -- Pause keeps status `sending`; this says whether new sends are held.
  ADD COLUMN paused boolean NOT NULL DEFAULT false,
  -- Grows with every control sent to automation, so it applies them in order.
  ADD COLUMN control_version integer NOT NULL DEFAULT 0,
  -- The newest progress applied (automation's count time, microseconds): older ones change nothing.
  ADD COLUMN progress_counted_at bigint NOT NULL DEFAULT 0,
  ADD COLUMN approved_at timestamptz,
  ADD COLUMN started_at timestamptz;

-- The scheduler finds due campaigns without scanning the others.
CREATE INDEX campaigns_due_idx ON campaigns (send_at) WHERE status = 'scheduled';

-- Per-account sending settings (the app's sending settings screen); absent means the defaults.
CREATE TABLE sending_settings (
  account_id bigint PRIMARY KEY,
  rate_per_second integer CHECK (rate_per_second > 0),
  from_name text CHECK (char_length(from_name) <= 200),
  from_address text CHECK (char_length(from_address) <= 254),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Transactional outbox: requests to automation committed with the status change that causes them.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  message_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE outbox;
DROP TABLE sending_settings;
DROP INDEX campaigns_due_idx;
ALTER TABLE campaigns
  DROP COLUMN html, DROP COLUMN text_body, DROP COLUMN from_name, DROP COLUMN from_address,
  DROP COLUMN audience_tags, DROP COLUMN audience_match, DROP COLUMN failure_reason, DROP COLUMN paused,
  DROP COLUMN control_version, DROP COLUMN progress_counted_at, DROP COLUMN approved_at, DROP COLUMN started_at;
