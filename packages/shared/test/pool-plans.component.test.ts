import { createPool, ensureDatabase, serviceDatabaseUrl, type Pool } from '@mailer/shared';
import { testServers } from '@mailer/testing';
import { memoryLogger, uniqueName } from './helpers';

/** The filter of a prepared statement's plan for one execution, as Postgres explains it. */
async function filterOfPlan(pool: Pool): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query('PREPARE by_value (int) AS SELECT g FROM generate_series(1, 10) AS g WHERE g = $1');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>('EXPLAIN EXECUTE by_value (5)');
    await client.query('DEALLOCATE by_value');
    return rows.map((row) => row['QUERY PLAN']).find((line) => line.includes('Filter')) ?? '';
  } finally {
    client.release();
  }
}

describe('createPool plans', () => {
  const servers = testServers();
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = serviceDatabaseUrl({ service: uniqueName('plans_'), postgresUrl: servers.postgresUrl, dbPrefix: servers.dbPrefix });
    await ensureDatabase(databaseUrl);
  });

  it('plans a prepared statement once for any values with genericPlans, and for the values given without', async () => {
    const generic = createPool(databaseUrl, memoryLogger().logger, { genericPlans: true });
    const custom = createPool(databaseUrl, memoryLogger().logger);
    try {
      expect(await filterOfPlan(generic)).toContain('$1');
      const customFilter = await filterOfPlan(custom);
      expect(customFilter).toContain('5');
      expect(customFilter).not.toContain('$1');
    } finally {
      await Promise.all([generic.end(), custom.end()]);
    }
  });
});
