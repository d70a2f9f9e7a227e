import { existsSync } from 'node:fs';
import pg from 'pg';
import { isDependencyUnavailable } from '@mailer/shared';
import { startPrivatePostgres, type PrivateServer } from '@mailer/testing';

const connect = async (url: string, queryTimeoutMs?: number) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, query_timeout: queryTimeoutMs });
  client.on('error', () => undefined); // a killed server errors idle clients; the test asserts on queries
  await client.connect();
  return client;
};

describe('private Postgres (fault toolkit)', () => {
  let server: PrivateServer;
  beforeAll(async () => {
    server = await startPrivatePostgres();
  }, 30_000);
  afterAll(() => server?.stop());

  it('runs on its own port and folder, not the machine server', () => {
    expect(server.port).not.toBe(5432);
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(existsSync(`${server.dir}/data/PG_VERSION`)).toBe(true);
  });

  it('killed -9 and restarted, keeps every committed row; while down, queries fail as "dependency unavailable"', async () => {
    const client = await connect(server.url);
    await client.query('CREATE TABLE kept (id int PRIMARY KEY)');
    await client.query('INSERT INTO kept SELECT generate_series(1, 500)');
    await server.kill9();
    const failure = await client.query('SELECT 1').catch((error: unknown) => error);
    expect(isDependencyUnavailable(failure)).toBe(true);
    const refused = await connect(server.url).catch((error: unknown) => error);
    expect(isDependencyUnavailable(refused)).toBe(true);
    await client.end().catch(() => undefined);

    await server.restart();
    const after = await connect(server.url);
    const { rows } = await after.query<{ count: string }>('SELECT count(*) FROM kept');
    expect(Number(rows[0]?.count)).toBe(500);
    await after.end();
  }, 40_000);

  it('paused, a query times out instead of answering; resumed, the same connection answers again', async () => {
    const client = await connect(server.url, 500);
    server.pause();
    const started = Date.now();
    await expect(client.query('SELECT 1')).rejects.toThrow(/Query read timeout/);
    expect(Date.now() - started).toBeLessThan(2000);
    server.resume();
    // The timed-out client is unusable; a fresh one works at once.
    const fresh = await connect(server.url);
    await expect(fresh.query('SELECT 2 AS two')).resolves.toMatchObject({ rows: [{ two: 2 }] });
    await fresh.end();
    await client.end().catch(() => undefined);
  });

  it('stop() removes its folder and a second stop is harmless', async () => {
    const other = await startPrivatePostgres();
    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
    await expect(other.stop()).resolves.toBeUndefined();
  }, 30_000);
});
