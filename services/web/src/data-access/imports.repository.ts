import type { Pool } from '@mailer/shared';
import type { ImportColumns, StagedRow } from '../domain/csv-import-format';

export interface ImportJob {
  id: number;
  account_id: number;
  file_name: string;
  state: 'uploaded' | 'running' | 'done';
  columns: ImportColumns;
  total_rows: number;
  processed_rows: number;
  created_count: number;
  updated_count: number;
  failed_count: number;
}

export interface StagedLine {
  line: number;
  fields: StagedRow;
}

export interface FailedLine {
  line: number;
  fields: StagedRow;
  errors: string[];
}

const JOB_COLUMNS = 'id, account_id, file_name, state, columns, total_rows, processed_rows, created_count, updated_count, failed_count';

export async function insertImport(pool: Pool, accountId: number, fileName: string, columns: ImportColumns): Promise<number> {
  const { rows } = await pool.query<{ id: string }>(
    'INSERT INTO contact_imports (account_id, file_name, columns) VALUES ($1, $2, $3) RETURNING id',
    [accountId, fileName, JSON.stringify(columns)],
  );
  return Number(rows[0]!.id);
}

/** One batch of parsed rows, in one statement. */
export async function stageRows(pool: Pool, importId: number, lines: StagedLine[]): Promise<void> {
  await pool.query(
    `WITH staged AS (
       INSERT INTO contact_import_rows (import_id, line, fields)
       SELECT $1, line, fields FROM unnest($2::int[], $3::jsonb[]) AS r (line, fields) RETURNING 1)
     UPDATE contact_imports SET total_rows = total_rows + (SELECT count(*) FROM staged), updated_at = now() WHERE id = $1`,
    [importId, lines.map((entry) => entry.line), lines.map((entry) => JSON.stringify(entry.fields))],
  );
}

export async function deleteImport(pool: Pool, importId: number): Promise<void> {
  await pool.query('DELETE FROM contact_imports WHERE id = $1', [importId]);
}

/** The account's import, or undefined (another account's id is simply not found). */
export async function findImport(pool: Pool, accountId: number, importId: number): Promise<ImportJob | undefined> {
  const { rows } = await pool.query<ImportJob>(`SELECT ${JOB_COLUMNS} FROM contact_imports WHERE account_id = $1 AND id = $2`, [accountId, importId]);
  return rows[0] ? numbers(rows[0]) : undefined;
}

export async function firstLines(pool: Pool, importId: number, limit: number): Promise<StagedLine[]> {
  const { rows } = await pool.query<StagedLine>('SELECT line, fields FROM contact_import_rows WHERE import_id = $1 ORDER BY line LIMIT $2', [importId, limit]);
  return rows;
}

/** Uploaded → running, due at once; false when it was already started (a second click). */
export async function startImport(pool: Pool, accountId: number, importId: number): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE contact_imports SET state = 'running', lease_until = now(), updated_at = now()
      WHERE account_id = $1 AND id = $2 AND state = 'uploaded'`,
    [accountId, importId],
  );
  return (rowCount ?? 0) > 0;
}

/** A running import nobody holds (never taken, or its holder stopped): held by this instance for `leaseMs`. */
export async function claimDueImport(pool: Pool, leaseMs: number): Promise<ImportJob | undefined> {
  const { rows } = await pool.query<ImportJob>(
    `UPDATE contact_imports SET lease_until = now() + make_interval(secs => $1 / 1000.0), updated_at = now()
      WHERE id = (SELECT id FROM contact_imports WHERE state = 'running' AND lease_until <= now()
                   ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING ${JOB_COLUMNS}`,
    [leaseMs],
  );
  return rows[0] ? numbers(rows[0]) : undefined;
}

export async function pendingLines(pool: Pool, importId: number, limit: number): Promise<StagedLine[]> {
  const { rows } = await pool.query<StagedLine>(
    'SELECT line, fields FROM contact_import_rows WHERE import_id = $1 AND outcome IS NULL ORDER BY line LIMIT $2',
    [importId, limit],
  );
  return rows;
}

/**
 * A batch's outcomes and the job's counters in one statement (only rows still pending count, so a
 * batch recorded twice after a lost lease is counted once), and the lease renewed.
 */
export async function recordOutcomes(
  pool: Pool,
  importId: number,
  outcomes: Array<{ line: number; outcome: 'created' | 'updated' | 'failed'; errors: string[] | null }>,
  leaseMs: number,
): Promise<void> {
  await pool.query(
    `WITH done AS (
       UPDATE contact_import_rows r SET outcome = o.outcome, errors = o.errors
         FROM unnest($2::int[], $3::text[], $4::jsonb[]) AS o (line, outcome, errors)
        WHERE r.import_id = $1 AND r.line = o.line AND r.outcome IS NULL
       RETURNING r.outcome)
     UPDATE contact_imports SET
       processed_rows = processed_rows + (SELECT count(*) FROM done),
       created_count = created_count + (SELECT count(*) FROM done WHERE outcome = 'created'),
       updated_count = updated_count + (SELECT count(*) FROM done WHERE outcome = 'updated'),
       failed_count = failed_count + (SELECT count(*) FROM done WHERE outcome = 'failed'),
       lease_until = now() + make_interval(secs => $5 / 1000.0), updated_at = now()
     WHERE id = $1`,
    [importId, outcomes.map((o) => o.line), outcomes.map((o) => o.outcome), outcomes.map((o) => (o.errors ? JSON.stringify(o.errors) : null)), leaseMs],
  );
}

export async function finishImport(pool: Pool, importId: number): Promise<void> {
  await pool.query(`UPDATE contact_imports SET state = 'done', lease_until = NULL, updated_at = now() WHERE id = $1`, [importId]);
}

/** Failed rows after `afterLine`, in file order (the report's first page, or the whole download by keyset). */
export async function failedLines(pool: Pool, importId: number, afterLine: number, limit: number): Promise<FailedLine[]> {
  const { rows } = await pool.query<FailedLine>(
    `SELECT line, fields, errors FROM contact_import_rows WHERE import_id = $1 AND outcome = 'failed' AND line > $2 ORDER BY line LIMIT $3`,
    [importId, afterLine, limit],
  );
  return rows;
}

/** Imports older than a week go, with their rows: the report is for the days after an import. */
export async function sweepOldImports(pool: Pool): Promise<void> {
  await pool.query(`DELETE FROM contact_imports WHERE created_at < now() - interval '7 days'`);
}

const numbers = (job: ImportJob): ImportJob => ({ ...job, id: Number(job.id), account_id: Number(job.account_id) });
