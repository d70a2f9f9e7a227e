-- Up Migration
-- A CSV import (issue #20): the uploaded rows are staged here as they are parsed (never held in
-- memory), previewed, then sent to the contacts service in batches by whichever web instance holds
-- the job's lease; each row keeps its outcome, so the report lists every failed row with its reasons.
CREATE TABLE contact_imports (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL,
  file_name text NOT NULL,
  state text NOT NULL DEFAULT 'uploaded' CHECK (state IN ('uploaded', 'running', 'done')),
  columns jsonb NOT NULL,
  total_rows integer NOT NULL DEFAULT 0,
  processed_rows integer NOT NULL DEFAULT 0,
  created_count integer NOT NULL DEFAULT 0,
  updated_count integer NOT NULL DEFAULT 0,
  failed_count integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_imports_account_idx ON contact_imports (account_id, id DESC);
CREATE INDEX contact_imports_due_idx ON contact_imports (lease_until) WHERE state = 'running';

CREATE TABLE contact_import_rows (
  import_id bigint NOT NULL REFERENCES contact_imports (id) ON DELETE CASCADE,
  line integer NOT NULL,
  -- The row as the contacts service takes it, or {"errors": [...]} when the file's cell could not be read.
  fields jsonb NOT NULL,
  outcome text CHECK (outcome IN ('created', 'updated', 'failed')),
  errors jsonb,
  PRIMARY KEY (import_id, line)
);
CREATE INDEX contact_import_rows_pending_idx ON contact_import_rows (import_id, line) WHERE outcome IS NULL;
CREATE INDEX contact_import_rows_failed_idx ON contact_import_rows (import_id, line) WHERE outcome = 'failed';

-- Down Migration
DROP TABLE contact_import_rows;
DROP TABLE contact_imports;
