-- Up Migration
-- The W3C traceparent of the work that wrote the row: a delayed send and a relayed fact continue its trace.
ALTER TABLE sends ADD COLUMN trace_context text;
ALTER TABLE outbox ADD COLUMN trace_context text;

-- Down Migration
ALTER TABLE outbox DROP COLUMN trace_context;
ALTER TABLE sends DROP COLUMN trace_context;
