import amqp from 'amqplib';
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

/** The quorum queues the same-run baselines declare in the run's namespace: E's ingress, Q's floor. */
export const BASELINE_QUEUES = { ingress: 'baseline-e', queueFloor: 'baseline-q' } as const;
export const baselineQueueName = (namespace: string, queue: keyof typeof BASELINE_QUEUES) => namespace + BASELINE_QUEUES[queue];

/** Deletes the baselines' queues of a namespace, side by side (a quorum queue's deletion waits for its Raft group). */
async function removeBaselineQueues(amqpUrl: string, namespace: string): Promise<void> {
  if (!namespace.startsWith('bench')) throw new Error(`refusing to delete baseline queues in namespace "${namespace}"`);
  const connection = await amqp.connect(amqpUrl);
  try {
    await Promise.all(
      (Object.keys(BASELINE_QUEUES) as Array<keyof typeof BASELINE_QUEUES>).map(async (queue) => {
        const channel = await connection.createChannel();
        await channel.deleteQueue(baselineQueueName(namespace, queue));
        await channel.close();
      }),
    );
  } finally {
    await connection.close();
  }
}

/** The run's exchanges and queues, the baselines' queues included; one failing never skips the other. */
export async function removeRunBrokerTopology(amqpUrl: string, namespace: string): Promise<void> {
  const outcomes = await Promise.allSettled([removeNamespacedTopology(amqpUrl, namespace), removeBaselineQueues(amqpUrl, namespace)]);
  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}
