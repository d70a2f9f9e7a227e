-- Up Migration
-- A campaign being sent (issue #19): its content as campaigns asked for it, and how it may go on.
-- state: sending (claims go on), paused (none), cancelled (the rest is skipped), failed (given up).
CREATE TABLE campaign_deliveries (
  campaign_id bigint PRIMARY KEY,
  account_id bigint NOT NULL,
  state text NOT NULL DEFAULT 'sending' CHECK (state IN ('sending', 'paused', 'cancelled', 'failed')),
  -- The newest control applied (campaigns numbers them), so an older one never undoes it.
  control_version integer NOT NULL DEFAULT 0,
  content jsonb NOT NULL,
  rate_per_second integer CHECK (rate_per_second > 0),
  failure_reason text,
  -- True once the counts published say every recipient has a final outcome; reset by anything
  -- that changes the counts again (a retry, an unsubscribe through the campaign's link).
  reported_final boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX campaign_deliveries_unreported_idx ON campaign_deliveries (campaign_id) WHERE NOT reported_final;

-- The campaign ledger: one row per (campaign, contact), all written in the statement that fixes the
-- audience, before any email goes out. Same states, lease and fencing (attempts) as `sends`.
CREATE TABLE campaign_sends (
  id bigserial PRIMARY KEY,
  campaign_id bigint NOT NULL REFERENCES campaign_deliveries (campaign_id) ON DELETE CASCADE,
  account_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  message_id text NOT NULL,
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'claimed', 'sent', 'failed_transient', 'failed_permanent', 'skipped')),
  due_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  claimed_by text,
  lease_until timestamptz,
  reason text,
  smtp_response text,
  -- A final failure whose cause was temporary (retries exhausted): "retry failed" sends it again, once.
  temporary_failure boolean NOT NULL DEFAULT false,
  retried boolean NOT NULL DEFAULT false,
  sent_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT campaign_sends_once_key UNIQUE (campaign_id, contact_id)
);
CREATE INDEX campaign_sends_due_idx ON campaign_sends (campaign_id, due_at, id) WHERE state IN ('pending', 'failed_transient');
CREATE INDEX campaign_sends_lease_idx ON campaign_sends (campaign_id, lease_until) WHERE state = 'claimed';
CREATE INDEX campaign_sends_state_idx ON campaign_sends (campaign_id, state);

-- People who unsubscribed through a campaign's link (counted once per contact).
CREATE TABLE campaign_unsubscribes (
  campaign_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, contact_id)
);

-- Down Migration
DROP TABLE campaign_unsubscribes;
DROP TABLE campaign_sends;
DROP TABLE campaign_deliveries;
