import type pg from 'pg';

/** Runs `work` inside BEGIN/COMMIT on one client; rolls back and rethrows on any failure. */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Waits for the advisory lock `key` (a number fixed per purpose within one database), held until
 * the client's transaction ends: work of every process that takes it runs one at a time.
 */
export async function lockForTransaction(client: pg.PoolClient, key: number): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [key]);
}

const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pgError = error as { code?: string; constraint?: string } | null;
  return pgError?.code === UNIQUE_VIOLATION && (constraint === undefined || pgError.constraint === constraint);
}
