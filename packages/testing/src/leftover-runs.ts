import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { dropTestDatabase } from '@mailer/shared';

const run = promisify(execFile);

/** One file per live test run, holding the pid of the jest process that owns it. */
const RUNS_DIR = path.join(tmpdir(), 'mailer-test-runs');
/** What every run's databases, vhost and Redis keys are named after (`mailer_test_<run>…`, `test:<run>:`). */
const RUN_OF_NAME = /^mailer_test_([0-9a-z]+)(?:_|$)/;
const RUN_OF_KEY = /^test:([0-9a-z]+):/;

/** Marks `runId` as owned by this process until `forgetRun`, so no other run removes it. */
export function markRunAlive(runId: string): void {
  mkdirSync(RUNS_DIR, { recursive: true });
  writeFileSync(path.join(RUNS_DIR, runId), String(process.pid));
}

export function forgetRun(runId: string): void {
  rmSync(path.join(RUNS_DIR, runId), { force: true });
}

/** A run with no pid file younger than this may be one whose setup predates the files: spared. */
const UNMARKED_GRACE_MS = 3 * 60 * 60 * 1000;

/** When a run started: its id is the start time in base 36, then six random hex digits. */
const startedAt = (runId: string) => parseInt(runId.slice(0, -6), 36);

function isAlive(runId: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(RUNS_DIR, runId), 'utf8'));
  } catch {
    return Date.now() - startedAt(runId) < UNMARKED_GRACE_MS;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process lives but is another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The run ids a list of names belongs to, of runs whose process is gone. */
const deadRunsOf = (names: readonly string[], pattern: RegExp) =>
  new Set(names.flatMap((name) => pattern.exec(name)?.[1] ?? []).filter((runId) => !isAlive(runId)));

async function removeDeadDatabases(postgresUrl: string): Promise<void> {
  const maintenance = new URL(postgresUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, 'mailer_test_')").finally(() => client.end());
  const dead = deadRunsOf(rows.map((row) => row.datname), RUN_OF_NAME);
  for (const { datname } of rows) {
    const runId = RUN_OF_NAME.exec(datname)?.[1];
    if (runId !== undefined && dead.has(runId)) await dropTestDatabase(postgresUrl, datname);
  }
}

async function removeDeadVhosts(): Promise<void> {
  const { stdout } = await run('rabbitmqctl', ['-q', 'list_vhosts', 'name'], { timeout: 60_000 });
  const vhosts = stdout.split('\n').map((line) => line.trim());
  for (const runId of deadRunsOf(vhosts, RUN_OF_NAME)) {
    await run('rabbitmqctl', ['-q', 'delete_vhost', `mailer_test_${runId}`], { timeout: 120_000 });
  }
}

async function removeDeadRedisKeys(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'test:*', 'COUNT', 1000);
      const dead = deadRunsOf(keys, RUN_OF_KEY);
      const doomed = keys.filter((key) => dead.has(RUN_OF_KEY.exec(key)?.[1] ?? ''));
      if (doomed.length > 0) await redis.unlink(...doomed);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * What earlier runs left when they were interrupted before their teardown (Ctrl-C, a killed CI
 * job): their databases, their vhost (with its quorum queues, which a broker keeps and recovers at
 * every start) and their Redis keys. A run whose jest process still lives is left alone, so two
 * runs on one machine do not remove each other's servers. The vhosts only on a loopback broker,
 * where rabbitmqctl reaches it.
 */
export async function removeLeftoverRuns(servers: { postgresUrl: string; redisUrl: string; vhosts: boolean }): Promise<void> {
  await removeDeadDatabases(servers.postgresUrl);
  await removeDeadRedisKeys(servers.redisUrl);
  if (servers.vhosts) await removeDeadVhosts().catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  });
  for (const runId of readdirSafe(RUNS_DIR)) if (!isAlive(runId)) forgetRun(runId);
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
