-- Up Migration
-- The W3C traceparent of the transaction that wrote the row, so the relay's publish continues its trace.
ALTER TABLE outbox ADD COLUMN trace_context text;

-- Down Migration
ALTER TABLE outbox DROP COLUMN trace_context;
