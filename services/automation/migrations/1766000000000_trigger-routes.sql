-- Up Migration
-- Enriched product events reach automation.contact-events only by the routing keys bound for the
-- (account, event name) of enabled workflows (docs/adr/0021-product-events-routed-to-automation-by-trigger.md). This table records the keys automation has bound, so a reconcile can unbind the ones
-- no workflow needs any more (the broker cannot be asked which keys are bound).
CREATE TABLE trigger_routes (
  routing_key text PRIMARY KEY,
  bound_at timestamptz NOT NULL DEFAULT now()
);

-- Every running automation service LISTENs on this channel to re-bind. Sent in the transaction of
-- every write that can change which triggers are live, whoever writes (a service, a CLI, plain SQL);
-- Postgres delivers it on commit only, once per transaction.
CREATE FUNCTION notify_workflow_triggers_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('workflow_triggers_changed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER workflow_triggers_changed
  AFTER INSERT OR DELETE OR UPDATE OF account_id, trigger_event, enabled OR TRUNCATE ON workflows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_workflow_triggers_changed();

-- Down Migration
DROP TRIGGER workflow_triggers_changed ON workflows;
DROP FUNCTION notify_workflow_triggers_changed();
DROP TABLE trigger_routes;
