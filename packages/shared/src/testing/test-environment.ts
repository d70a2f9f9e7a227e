import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { dropTestDatabase } from '../db/ensure-database';
import { startContainers, type StartedContainers } from './test-containers';

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

/**
 * jest globalSetup: uses the servers named by the environment (`POSTGRES_URL` or `DATABASE_URL`,
 * `REDIS_URL`, `AMQP_URL`) and starts the missing ones with testcontainers. Gives this run its own
 * database prefix, Redis key prefix and RabbitMQ vhost, so two runs never see each other's data.
 */
export async function setupTestEnvironment(): Promise<void> {
  const env = process.env;
  if (env.MAILER_TEST_RUN) return; // already set up by another project of this jest run
  const setup: SetupState = {};
  state.__mailerTestState = setup;
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const postgresFromEnv = env.POSTGRES_URL ?? env.DATABASE_URL;
  setup.containers = await startContainers({
    postgres: !postgresFromEnv,
    redis: !env.REDIS_URL,
    rabbitmq: !env.AMQP_URL,
  });
  const postgresUrl = postgresFromEnv ?? setup.containers.postgresUrl!;
  const redisUrl = env.REDIS_URL ?? setup.containers.redisUrl!;
  const baseAmqpUrl = env.AMQP_URL ?? setup.containers.amqpUrl!;
  const vhostName = `mailer_test_${runId}`;
  setup.vhost = await createVhost(baseAmqpUrl, vhostName, setup.containers);
  const amqpUrl = new URL(baseAmqpUrl);
  if (setup.vhost) amqpUrl.pathname = `/${vhostName}`;

  env.MAILER_TEST_RUN = runId;
  env.POSTGRES_URL = postgresUrl;
  delete env.DATABASE_URL; // each service derives its own database from POSTGRES_URL + DB_PREFIX
  env.DB_PREFIX = `mailer_test_${runId}_`;
  env.REDIS_URL = redisUrl;
  env.REDIS_KEY_PREFIX = `test:${runId}:`;
  env.AMQP_URL = amqpUrl.toString();
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
  await setup.vhost?.remove().catch(() => undefined);
  await setup.containers?.stop();
}
