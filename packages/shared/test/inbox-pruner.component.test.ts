import { createPool, ensureDatabase, inboxPruner, serviceDatabaseUrl, type Pool } from '@mailer/shared';
import { countingPool, testServers, waitFor } from '@mailer/testing';
import { memoryLogger, uniqueName } from './helpers';

describe('inboxPruner', () => {
  const servers = testServers();
  let pool: Pool;

  beforeAll(async () => {
    const databaseUrl = serviceDatabaseUrl({ service: uniqueName('inbox_'), postgresUrl: servers.postgresUrl, dbPrefix: servers.dbPrefix });
    await ensureDatabase(databaseUrl);
    pool = createPool(databaseUrl, memoryLogger().logger);
    // As the services' migrations create it.
    await pool.query(`CREATE TABLE processed_messages (message_id text PRIMARY KEY, processed_at timestamptz NOT NULL DEFAULT now());
                      CREATE INDEX processed_messages_processed_at ON processed_messages USING brin (processed_at)`);
  });
  afterAll(() => pool.end());

  /** `count` inbox rows consumed `daysAgo` days ago, ids `<prefix><n>`. */
  const consumed = (prefix: string, count: number, daysAgo: number) =>
    pool.query(
      `INSERT INTO processed_messages (message_id, processed_at)
       SELECT $1 || g, now() - make_interval(days => $3) FROM generate_series(1, $2::int) AS g`,
      [prefix, count, daysAgo],
    );
  const left = async (prefix: string) =>
    Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM processed_messages WHERE message_id LIKE $1', [`${prefix}%`])).rows[0]!.n);

  it('deletes the ids older than the retention a batch a statement until none is left, and keeps the younger ones', async () => {
    await pool.query('TRUNCATE processed_messages');
    await consumed('old-', 11_500, 8);
    await consumed('week-', 300, 6);
    await consumed('now-', 200, 0);
    const counted = countingPool(pool);
    const { logger, lines } = memoryLogger();
    const pruner = inboxPruner({ pool: counted.pool, retentionDays: 7, logger, everyMs: 60_000 });
    pruner.start();
    try {
      await waitFor(async () => ((await left('old-')) === 0 ? true : undefined), { what: 'the old ids pruned' });
      await waitFor(() => (lines.some((line) => line.includes('"deleted":1500')) ? true : undefined), { what: 'the last batch logged' });
    } finally {
      await pruner.stop();
    }
    expect(await left('week-')).toBe(300);
    expect(await left('now-')).toBe(200);
    // 5,000 + 5,000 + 1,500: three statements, then it waits for its next turn.
    expect(counted.statements()).toBe(3);
  });

  it('shares the work with another instance: every old id is deleted exactly once', async () => {
    await pool.query('TRUNCATE processed_messages');
    await consumed('old-', 30_000, 30);
    await consumed('now-', 100, 0);
    const logs = [memoryLogger(), memoryLogger()];
    const pruners = logs.map(({ logger }) => inboxPruner({ pool, retentionDays: 7, logger, everyMs: 60_000 }));
    for (const pruner of pruners) pruner.start();
    try {
      await waitFor(async () => ((await left('old-')) === 0 ? true : undefined), { what: 'the old ids pruned' });
    } finally {
      await Promise.all(pruners.map((pruner) => pruner.stop()));
    }
    const deleted = logs
      .flatMap(({ lines }) => lines)
      .map((line) => JSON.parse(line) as { msg: string; deleted?: number })
      .filter((line) => line.msg === 'inbox pruned')
      .reduce((sum, line) => sum + (line.deleted ?? 0), 0);
    expect(deleted).toBe(30_000);
    expect(await left('now-')).toBe(100);
  });
});
