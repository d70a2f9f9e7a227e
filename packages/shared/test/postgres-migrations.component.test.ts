import path from 'node:path';
import { createPool, migrateDatabase, serviceDatabaseUrl, withTransaction } from '@mailer/shared';
import { testServers } from '@mailer/testing';
import { memoryLogger, uniqueName } from './helpers';

describe('migrateDatabase', () => {
  const { logger } = memoryLogger();
  const servers = testServers();
  const databaseUrl = serviceDatabaseUrl({
    service: uniqueName('migrations_'),
    postgresUrl: servers.postgresUrl,
    dbPrefix: servers.dbPrefix,
  });
  const migrationsDir = path.join(__dirname, 'fixtures/migrations');

  it('creates a missing database, applies the migrations once, and the table is usable', async () => {
    const first = await migrateDatabase({ databaseUrl, migrationsDir, logger });
    const second = await migrateDatabase({ databaseUrl, migrationsDir, logger });
    expect(first).toEqual(['1700000000000_create-widgets']);
    expect(second).toEqual([]);

    const pool = createPool(databaseUrl, logger);
    try {
      const inserted = await withTransaction(pool, (client) =>
        client.query<{ id: number }>("INSERT INTO widgets (name) VALUES ('a') RETURNING id"),
      );
      expect(typeof inserted.rows[0]?.id).toBe('number');
      await expect(
        withTransaction(pool, async (client) => {
          await client.query("INSERT INTO widgets (name) VALUES ('rolled back')");
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const { rows } = await pool.query('SELECT name FROM widgets ORDER BY id');
      expect(rows).toEqual([{ name: 'a' }]);
    } finally {
      await pool.end();
    }
  });

  it('applies migrations once when several instances start at the same time', async () => {
    const url = serviceDatabaseUrl({ service: uniqueName('race_'), postgresUrl: servers.postgresUrl, dbPrefix: servers.dbPrefix });
    const results = await Promise.all([1, 2, 3].map(() => migrateDatabase({ databaseUrl: url, migrationsDir, logger })));
    expect(results.flat()).toEqual(['1700000000000_create-widgets']);
  });
});
