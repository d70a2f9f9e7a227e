-- Up Migration
-- A workflow's branch step has its ledger row in sends, like an email: one per (account, contact,
-- workflow, step), claimed and fenced the same way, so it is decided once per contact. `kind` says
-- which a row is (a contact's emails list only emails). A branch waiting for a click is `waiting`
-- until due_at (the click's deadline), then `branched`, its reason naming the side taken.
ALTER TABLE sends ADD COLUMN kind text NOT NULL DEFAULT 'email' CHECK (kind IN ('email', 'branch'));
ALTER TABLE sends DROP CONSTRAINT sends_state_check;
-- NOT VALID then VALIDATE: the check of existing rows takes no lock that stops writes.
ALTER TABLE sends ADD CONSTRAINT sends_state_check
  CHECK (state IN ('pending', 'claimed', 'sent', 'failed_transient', 'failed_permanent', 'skipped', 'waiting', 'branched')) NOT VALID;
ALTER TABLE sends VALIDATE CONSTRAINT sends_state_check;
-- The claim's third scan: branches whose wait ended.
CREATE INDEX sends_waiting_idx ON sends (due_at) WHERE state = 'waiting';
-- The click hook finds a run's waiting branch from the clicked email's row.
CREATE INDEX sends_run_waiting_idx ON sends (run_id) WHERE state = 'waiting';
-- Where the path the run took at its last branch ends: the step id it stops before (null: the end).
ALTER TABLE workflow_runs ADD COLUMN stop_before text;

-- Down Migration
ALTER TABLE workflow_runs DROP COLUMN stop_before;
DROP INDEX sends_run_waiting_idx;
DROP INDEX sends_waiting_idx;
ALTER TABLE sends DROP CONSTRAINT sends_state_check;
ALTER TABLE sends ADD CONSTRAINT sends_state_check
  CHECK (state IN ('pending', 'claimed', 'sent', 'failed_transient', 'failed_permanent', 'skipped'));
ALTER TABLE sends DROP COLUMN kind;
