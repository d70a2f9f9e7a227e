-- Up Migration
-- When the current attempt was claimed. The lease is cleared when the outcome is recorded, so
-- without this the time a send waited between enrolment and its claim (the benchmark's per-stage
-- breakdown of event -> email, docs/performance.md) could not be told afterwards. Written by the
-- statements that already write the row; no index.
ALTER TABLE sends ADD COLUMN claimed_at timestamptz;

-- Down Migration
ALTER TABLE sends DROP COLUMN claimed_at;
