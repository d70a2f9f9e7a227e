import pg from 'pg';
import type { Logger } from 'pino';

// Postgres BIGINT (int8) arrives as a string by default; our ids fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/**
 * A pool that fails fast when Postgres is unreachable (so requests answer 503 instead of
 * hanging) and never crashes the process on an idle client's error.
 */
export function createPool(
  databaseUrl: string,
  logger: Logger,
  options: {
    max?: number;
    statementTimeoutMs?: number;
    /**
     * Every prepared statement of this pool runs a generic plan, planned once per connection. For
     * a pool whose statements are batches over arrays (`unnest($1::text[])`): Postgres keeps
     * choosing a custom plan for them, planning a many-CTE statement again at each execution.
     */
    genericPlans?: boolean;
  } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 10,
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? 10_000,
    query_timeout: (options.statementTimeoutMs ?? 10_000) + 1000,
    application_name: 'mailer',
    ...(options.genericPlans ? { options: '-c plan_cache_mode=force_generic_plan' } : {}),
  });
  pool.on('error', (error) => logger.warn({ err: error }, 'idle Postgres client failed'));
  // The pool listens for errors only on idle clients. A checked-out client whose connection dies
  // (Postgres killed or restarted mid-transaction, a relay holding a batch) emits 'error' with no
  // listener, which throws and crashes the process. Its query fails anyway (-> 503); log instead.
  pool.on('connect', (client) => {
    client.on('error', (error) => logger.warn({ err: error }, 'Postgres connection lost'));
  });
  return pool;
}
