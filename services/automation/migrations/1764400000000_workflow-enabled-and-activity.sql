-- Up Migration
-- The account app (issue #20): a workflow can be disabled (it enrols no one; runs already started
-- go on), and the account's activity is read newest first, across workflows and campaigns.
ALTER TABLE workflows ADD COLUMN enabled boolean NOT NULL DEFAULT true;
CREATE INDEX delivery_log_account_recent_idx ON delivery_log (account_id, created_at DESC, id DESC);
-- Only final outcomes are activity; the partial index stays out of the way of claims and retries.
CREATE INDEX campaign_sends_account_final_idx ON campaign_sends (account_id, updated_at DESC, id DESC)
  WHERE state IN ('sent', 'failed_permanent', 'skipped');
-- "Sends in the last 7 days" per workflow, for the app's workflow list.
CREATE INDEX sends_workflow_sent_idx ON sends (workflow_id, sent_at) WHERE state = 'sent';

-- Down Migration
DROP INDEX sends_workflow_sent_idx;
DROP INDEX campaign_sends_account_final_idx;
DROP INDEX delivery_log_account_recent_idx;
ALTER TABLE workflows DROP COLUMN enabled;
