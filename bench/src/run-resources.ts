import { Redis } from 'ioredis';
import pg from 'pg';
import { removeNamespacedTopology } from '@mailer/shared';

/** The names one run gives everything it creates, so it can all be found and removed afterwards. */
export interface RunNames {
  id: string;
  dbPrefix: string;
  redisKeyPrefix: string;
  brokerNamespace: string;
}

export function runNames(id: string): RunNames {
  return {
    id,
    dbPrefix: `mailer_bench_${id}_`,
    redisKeyPrefix: `bench:${id}:`,
    brokerNamespace: `bench${id}.`,
  };
}

/** Drops every database whose name starts with the run's prefix (connections are closed by force). */
export async function dropRunDatabases(postgresUrl: string, dbPrefix: string): Promise<void> {
  if (!/^mailer_bench_[0-9a-f]+_$/.test(dbPrefix))
    throw new Error(`refusing to drop databases with prefix ${dbPrefix}`);
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [dbPrefix],
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Deletes the run's Redis keys (rate-limit windows, key cache, DNS cache...). */
export async function deleteRunRedisKeys(redisUrl: string, keyPrefix: string): Promise<void> {
  if (!keyPrefix.startsWith('bench:'))
    throw new Error(`refusing to delete Redis keys with prefix ${keyPrefix}`);
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export const removeRunBrokerTopology = (amqpUrl: string, namespace: string) =>
  removeNamespacedTopology(amqpUrl, namespace);
