import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { dropTestDatabase, removeNamespacedTopology } from '@mailer/shared';
import { testServers } from '@mailer/testing';
import { root } from './stack-process';

/** How one `node scripts/admin.mjs …` ended. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI as `npm run admin -- …` does (the dispatcher, then the owning service's CLI). */
export function runAdminCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, 'scripts', 'admin.mjs'), ...args],
      { cwd: root, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** An environment of the operator's: this run's servers, and databases, keys and queues of its own. */
export interface OperatorEnvironment {
  env: NodeJS.ProcessEnv;
  /** Drops every database the CLIs created and the broker namespace a workflow import declared. */
  remove: () => Promise<void>;
}

export function operatorEnvironment(stateDir: string): OperatorEnvironment {
  const servers = testServers();
  const suffix = randomBytes(3).toString('hex');
  // Under the run's prefix: should this file not get to its cleanup, the global teardown drops them.
  const dbPrefix = `${servers.dbPrefix}cli${suffix}_`;
  const namespace = `cli${suffix}.`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    POSTGRES_URL: servers.postgresUrl,
    DB_PREFIX: dbPrefix,
    REDIS_URL: servers.redisUrl,
    REDIS_KEY_PREFIX: `${servers.redisKeyPrefix}cli${suffix}:`,
    AMQP_URL: servers.amqpUrl,
    BROKER_NAMESPACE: namespace,
    // Set, so the dispatcher never generates secrets into a state file; the folder is a temporary one anyway.
    INTERNAL_SIGNING_SECRET: `cli-signing-secret-${randomBytes(16).toString('hex')}`,
    UNSUBSCRIBE_SECRET: `cli-unsubscribe-secret-${randomBytes(16).toString('hex')}`,
    MAILER_STATE_DIR: stateDir,
    // The webhooks CLI refuses private addresses unless allowed: the test's receiver URL is on loopback.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  return {
    env,
    remove: async () => {
      try {
        await removeNamespacedTopology(servers.amqpUrl, namespace);
      } finally {
        for (const name of await databasesStartingWith(servers.postgresUrl, dbPrefix))
          await dropTestDatabase(servers.postgresUrl, name);
      }
    },
  };
}

async function databasesStartingWith(postgresUrl: string, prefix: string): Promise<string[]> {
  const maintenance = new URL(postgresUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}
