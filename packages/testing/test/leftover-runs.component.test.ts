import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureDatabase } from '@mailer/shared';
import { markRunAlive, removeLeftoverRuns, testServers } from '@mailer/testing';

const run = promisify(execFile);

/** A run id as setup makes one: the start time in base 36, then six hex digits. */
const runIdStartedAt = (time: number) => `${time.toString(36)}${randomBytes(3).toString('hex')}`;
const HOURS = 60 * 60 * 1000;

/** Marks a run as one whose jest was killed: its file names a pid no process can have. */
function markInterrupted(runId: string): void {
  markRunAlive(runId);
  writeFileSync(path.join(tmpdir(), 'mailer-test-runs', runId), '2147483646');
}

describe('what an interrupted test run left behind', () => {
  const servers = testServers();
  const redis = new Redis(servers.redisUrl);
  const maintenance = new URL(servers.postgresUrl);
  maintenance.pathname = '/postgres';
  const postgres = new pg.Client({ connectionString: maintenance.toString() });
  const vhosts = new URL(servers.amqpUrl).hostname === '127.0.0.1';

  beforeAll(() => postgres.connect());
  afterAll(async () => {
    await postgres.end();
    redis.disconnect();
  });

  /** A database, a Redis key and (on a loopback broker) a vhost named after `runId`, as a run makes them. */
  async function leaveBehind(runId: string): Promise<void> {
    const database = new URL(servers.postgresUrl);
    database.pathname = `/mailer_test_${runId}_contacts`;
    await ensureDatabase(database.toString());
    await redis.set(`test:${runId}:gw:rl:1`, '1');
    if (vhosts) await run('rabbitmqctl', ['-q', 'add_vhost', `mailer_test_${runId}`], { timeout: 60_000 });
  }

  async function whatIsLeft(runId: string) {
    const { rows } = await postgres.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`mailer_test_${runId}_`]);
    const listed = vhosts ? (await run('rabbitmqctl', ['-q', 'list_vhosts', 'name'], { timeout: 60_000 })).stdout.split('\n') : [];
    return {
      databases: rows.length,
      redisKeys: await redis.exists(`test:${runId}:gw:rl:1`),
      vhost: listed.includes(`mailer_test_${runId}`),
    };
  }

  it('removes the databases, Redis keys and vhost of a run whose process is gone, and spares a live one', async () => {
    const interrupted = runIdStartedAt(Date.now() - 10 * 1000);
    const live = runIdStartedAt(Date.now() - 5 * 1000);
    markInterrupted(interrupted);
    markRunAlive(live);
    try {
      await Promise.all([leaveBehind(interrupted), leaveBehind(live)]);
      await removeLeftoverRuns({ postgresUrl: servers.postgresUrl, redisUrl: servers.redisUrl, vhosts });
      expect(await whatIsLeft(interrupted)).toEqual({ databases: 0, redisKeys: 0, vhost: false });
      expect(await whatIsLeft(live)).toEqual({ databases: 1, redisKeys: 1, vhost: vhosts });
    } finally {
      // The live one is this test's to clean: marked interrupted, then removed.
      markInterrupted(live);
      await removeLeftoverRuns({ postgresUrl: servers.postgresUrl, redisUrl: servers.redisUrl, vhosts });
    }
  }, 60_000);

  it('spares an unmarked run that may predate the marks, until it is old', async () => {
    const recent = runIdStartedAt(Date.now() - 1 * HOURS);
    const old = runIdStartedAt(Date.now() - 5 * HOURS);
    await Promise.all([leaveBehind(recent), leaveBehind(old)]);
    await removeLeftoverRuns({ postgresUrl: servers.postgresUrl, redisUrl: servers.redisUrl, vhosts });
    expect((await whatIsLeft(recent)).databases).toBe(1);
    expect(await whatIsLeft(old)).toEqual({ databases: 0, redisKeys: 0, vhost: false });
    // The recent one is this test's to clean: marked interrupted, then removed.
    markInterrupted(recent);
    await removeLeftoverRuns({ postgresUrl: servers.postgresUrl, redisUrl: servers.redisUrl, vhosts });
    expect(await whatIsLeft(recent)).toEqual({ databases: 0, redisKeys: 0, vhost: false });
  }, 60_000);
});
