import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { dropTestDatabase } from '@mailer/shared';
import { forgetRun, markRunAlive, removeLeftoverRuns } from './leftover-runs';
import { LOCAL_SERVERS, probeLocalServers } from './local-servers';
import { startContainers, type StartedContainers } from './test-containers';
import { checkServersTakeWork } from './work-preflight';

const run = promisify(execFile);

/** What a test reads to reach this run's private databases, Redis keys and vhost. */
export interface TestServers {
  postgresUrl: string;
  redisUrl: string;
  amqpUrl: string;
  dbPrefix: string;
  redisKeyPrefix: string;
  runId: string;
}

/** The servers of this test run, as set up by `setupTestEnvironment` (jest globalSetup). */
export function testServers(): TestServers {
  const env = process.env;
  const runId = env.MAILER_TEST_RUN;
  if (!runId || !env.POSTGRES_URL || !env.REDIS_URL || !env.AMQP_URL || !env.DB_PREFIX) {
    throw new Error('test environment not set up: run the tests through jest (globalSetup)');
  }
  return {
    postgresUrl: env.POSTGRES_URL,
    redisUrl: env.REDIS_URL,
    amqpUrl: env.AMQP_URL,
    dbPrefix: env.DB_PREFIX,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? '',
    runId,
  };
}

interface SetupState {
  containers?: StartedContainers;
  vhost?: { name: string; remove: () => Promise<void> };
}
const state = globalThis as typeof globalThis & { __mailerTestState?: SetupState };

const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

async function createVhost(amqpUrl: string, name: string, containers?: StartedContainers) {
  const user = decodeURIComponent(new URL(amqpUrl).username || 'guest');
  const commands = [
    ['add_vhost', name],
    ['set_permissions', '-p', name, user, '.*', '.*', '.*'],
  ];
  if (containers?.rabbitmq) {
    for (const args of commands) await containers.rabbitmq.exec(['rabbitmqctl', ...args]);
    return { name, remove: async () => void (await containers.rabbitmq?.exec(['rabbitmqctl', 'delete_vhost', name])) };
  }
  if (!isLoopback(amqpUrl)) return undefined;
  try {
    for (const args of commands) await run('rabbitmqctl', args, { timeout: 60_000 });
  } catch (error) {
    // No rabbitmqctl on this machine: share the URL's vhost (namespaces still isolate test files).
    // Any other failure is loud: silently falling back would leave this run's queues behind for ever.
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw new Error(`could not create the test vhost ${name}: ${(error as Error).message}`, { cause: error });
  }
  return { name, remove: async () => void (await run('rabbitmqctl', ['delete_vhost', name], { timeout: 30_000 })) };
}

type Origin = 'environment' | 'local server' | 'testcontainers';

interface Choice {
  url?: string;
  origin: Origin;
  /** Why the local server was not used, when a container stands in for it. */
  localProblem?: string;
}

/**
 * Where each server comes from: the environment's URL when set; else the standard local server when
 * it answers; else a container. Printed at the start of the run, so nobody wonders which was used.
 */
async function chooseServers(env: NodeJS.ProcessEnv): Promise<Record<'postgres' | 'redis' | 'amqp', Choice>> {
  const postgresFromEnv = env.POSTGRES_URL ?? env.DATABASE_URL;
  const local = await probeLocalServers();
  const pick = (fromEnv: string | undefined, problem: string | undefined, localUrl: string): Choice =>
    fromEnv
      ? { url: fromEnv, origin: 'environment' }
      : problem === undefined
        ? { url: localUrl, origin: 'local server' }
        : { origin: 'testcontainers', localProblem: problem };
  return {
    postgres: pick(postgresFromEnv, local.postgres, LOCAL_SERVERS.postgres),
    redis: pick(env.REDIS_URL, local.redis, LOCAL_SERVERS.redis),
    amqp: pick(env.AMQP_URL, local.amqp, LOCAL_SERVERS.amqp),
  };
}

/** Containers for the servers that are missing, or an error that says which and why. */
async function containersFor(chosen: Record<'postgres' | 'redis' | 'amqp', Choice>): Promise<StartedContainers> {
  const missing = Object.entries(chosen).filter(([, choice]) => !choice.url);
  try {
    return await startContainers({ postgres: !chosen.postgres.url, redis: !chosen.redis.url, rabbitmq: !chosen.amqp.url });
  } catch (error) {
    const why = missing.map(([name, choice]) => `${name}: the local server did not answer (${choice.localProblem ?? 'not probed'})`).join('; ');
    throw new Error(
      `no test servers: ${why}; and testcontainers could not start them (${(error as Error).message}). ` +
        'Start the local servers, or export POSTGRES_URL, REDIS_URL and AMQP_URL.',
      { cause: error },
    );
  }
}

const hostOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port}`;
};

/**
 * jest globalSetup: uses the servers named by the environment (`POSTGRES_URL` or `DATABASE_URL`,
 * `REDIS_URL`, `AMQP_URL`), else the local servers that answer at their standard addresses, and
 * starts the missing ones with testcontainers. Gives this run its own database prefix, Redis key
 * prefix and RabbitMQ vhost, so two runs never see each other's data.
 */
export async function setupTestEnvironment(): Promise<void> {
  const env = process.env;
  if (env.MAILER_TEST_RUN) return; // already set up by another project of this jest run
  const setup: SetupState = {};
  state.__mailerTestState = setup;
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const chosen = await chooseServers(env);
  setup.containers = await containersFor(chosen);
  const postgresUrl = chosen.postgres.url ?? setup.containers.postgresUrl!;
  const redisUrl = chosen.redis.url ?? setup.containers.redisUrl!;
  const baseAmqpUrl = chosen.amqp.url ?? setup.containers.amqpUrl!;
  process.stderr.write(
    `\ntest servers: Postgres ${hostOf(postgresUrl)} (${chosen.postgres.origin}), Redis ${hostOf(redisUrl)} (${chosen.redis.origin}), ` +
      `RabbitMQ ${hostOf(baseAmqpUrl)} (${chosen.amqp.origin}); run ${runId}\n`,
  );
  // Before this run makes anything: what interrupted runs left on these servers goes first.
  await removeLeftoverRuns({ postgresUrl, redisUrl, vhosts: !setup.containers.rabbitmq && isLoopback(baseAmqpUrl) });
  markRunAlive(runId);
  const vhostName = `mailer_test_${runId}`;
  setup.vhost = await createVhost(baseAmqpUrl, vhostName, setup.containers);
  const amqpUrl = new URL(baseAmqpUrl);
  if (setup.vhost) amqpUrl.pathname = `/${vhostName}`;
  await checkServersTakeWork({ postgresUrl, amqpUrl: amqpUrl.toString() }).catch(async (error: unknown) => {
    await setup.vhost?.remove().catch(() => undefined);
    throw error;
  });

  env.MAILER_TEST_RUN = runId;
  env.POSTGRES_URL = postgresUrl;
  delete env.DATABASE_URL; // each service derives its own database from POSTGRES_URL + DB_PREFIX
  env.DB_PREFIX = `mailer_test_${runId}_`;
  env.REDIS_URL = redisUrl;
  env.REDIS_KEY_PREFIX = `test:${runId}:`;
  env.AMQP_URL = amqpUrl.toString();
}

/** Every key under this run's prefix (limits, locks, caches, idempotency records). */
async function removeRedisKeys({ redisUrl, redisKeyPrefix }: TestServers): Promise<void> {
  if (!redisKeyPrefix.startsWith('test:')) throw new Error(`refusing to clean up Redis keys ${redisKeyPrefix}*: not a test prefix`);
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisKeyPrefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** jest globalTeardown: drops this run's databases and vhost, stops containers it started. */
export async function teardownTestEnvironment(): Promise<void> {
  const setup = state.__mailerTestState;
  if (!setup) return;
  state.__mailerTestState = undefined;
  const { postgresUrl, dbPrefix } = testServers();
  if (!dbPrefix.includes('_test_')) throw new Error(`refusing to clean up ${dbPrefix}: not a test prefix`);
  const maintenance = new URL(postgresUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  const { rows } = await client.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
    [dbPrefix],
  );
  await client.end();
  for (const { datname } of rows) await dropTestDatabase(postgresUrl, datname);
  await removeRedisKeys(testServers());
  await setup.vhost?.remove().catch(() => undefined);
  await setup.containers?.stop();
  forgetRun(testServers().runId);
}
