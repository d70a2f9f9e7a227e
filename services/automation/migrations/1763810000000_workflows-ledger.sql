-- Up Migration
-- Workflows per account, in the workflow file format (the whole validated document in definition).
-- Re-importing a name replaces the definition but keeps the id, so sends already made stay deduped.
CREATE TABLE workflows (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL,
  name text NOT NULL,
  trigger_event text NOT NULL,
  transactional boolean NOT NULL,
  definition jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT workflows_account_name_key UNIQUE (account_id, name)
);
CREATE INDEX workflows_account_trigger_idx ON workflows (account_id, trigger_event);

-- Projection of the contacts service's contacts: personalisation and suppression right before a send.
-- fact_at is the time of the newest fact applied, so an older fact or snapshot never overwrites it.
CREATE TABLE contacts (
  account_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  email text NOT NULL,
  first_name text,
  last_name text,
  subscribed boolean NOT NULL,
  bounced boolean NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  tags jsonb NOT NULL DEFAULT '[]',
  custom_properties jsonb NOT NULL DEFAULT '{}',
  fact_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, contact_id)
);

-- One enrolment of a contact in a workflow (at most one: a step is sent once per contact, ever).
CREATE TABLE workflow_runs (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  workflow_id bigint NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event_name text NOT NULL,
  event_properties jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT workflow_runs_once_key UNIQUE (account_id, contact_id, workflow_id)
);

-- The send ledger: one row per (account, contact, workflow, step), written before any SMTP call.
-- A row is due at due_at; an instance claims it (FOR UPDATE SKIP LOCKED) with a lease; attempts is
-- also the fencing token that lets only the current claimant record the outcome.
CREATE TABLE sends (
  id bigserial PRIMARY KEY,
  run_id bigint NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
  account_id bigint NOT NULL,
  contact_id bigint NOT NULL,
  workflow_id bigint NOT NULL,
  step_id text NOT NULL,
  step_index integer NOT NULL,
  message_id text NOT NULL,
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'claimed', 'sent', 'failed_transient', 'failed_permanent', 'skipped')),
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  claimed_by text,
  lease_until timestamptz,
  reason text,
  last_error text,
  smtp_response text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT sends_once_key UNIQUE (account_id, contact_id, workflow_id, step_id)
);
CREATE INDEX sends_due_idx ON sends (due_at) WHERE state IN ('pending', 'failed_transient');
CREATE INDEX sends_lease_idx ON sends (lease_until) WHERE state = 'claimed';

-- Why a contact did (not) get an email: every match decision, send, skip, retry and failure.
CREATE TABLE delivery_log (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL,
  contact_id bigint,
  email text,
  workflow_id bigint,
  step_id text,
  event_id text,
  outcome text NOT NULL,
  reason text,
  message_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX delivery_log_contact_idx ON delivery_log (account_id, contact_id, id);
CREATE INDEX delivery_log_email_idx ON delivery_log (account_id, lower(email), id);

-- Transactional outbox: facts (bounce, unsubscribe, email sent) committed with the state change
-- that causes them, published by a relay after commit.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  message_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE outbox;
DROP TABLE delivery_log;
DROP TABLE sends;
DROP TABLE workflow_runs;
DROP TABLE contacts;
DROP TABLE workflows;
