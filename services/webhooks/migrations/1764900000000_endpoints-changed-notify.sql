-- Up Migration
-- `webhooks.facts` is bound only to the facts enabled endpoints subscribe to, and every running
-- webhooks service LISTENs on this channel to re-bind it. The trigger sends it in the transaction of
-- every write that can change what is subscribed (insert, delete, event_types, enabled), whoever
-- writes: the service, the operator CLI (no broker of its own), plain SQL. Postgres delivers it on
-- commit only, once per transaction.
CREATE FUNCTION notify_webhook_endpoints_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhook_endpoints_changed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER endpoints_changed
  AFTER INSERT OR DELETE OR UPDATE OF event_types, enabled OR TRUNCATE ON endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION notify_webhook_endpoints_changed();

-- Down Migration
DROP TRIGGER endpoints_changed ON endpoints;
DROP FUNCTION notify_webhook_endpoints_changed();
