import amqp from 'amqplib';
import pg from 'pg';

const PREFLIGHT_TIMEOUT_MS = 20_000;

function within<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${timeoutMs / 1000} s`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A broker can answer a handshake yet take no work: a memory or disk alarm blocks every publisher,
 * and out of file descriptors it stops accepting connections. Either way every test would wait out
 * its timeout, one after another, for half an hour. One confirmed publish says it takes work.
 */
async function brokerTakesWork(amqpUrl: string, timeoutMs: number): Promise<void> {
  const connection = await amqp.connect(amqpUrl, { timeout: timeoutMs });
  let blockedBecause: string | undefined;
  connection.on('blocked', (why: string) => (blockedBecause = why));
  try {
    const channel = await connection.createConfirmChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    channel.sendToQueue(queue, Buffer.from('preflight'));
    await within('a confirmed publish', channel.waitForConfirms(), timeoutMs).catch((error: Error) => {
      throw new Error(blockedBecause ? `it blocks publishers (${blockedBecause})` : error.message);
    });
    await channel.close();
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** A database server with every connection slot taken or a full disk answers SELECT 1 but creates nothing. */
async function postgresTakesWork(postgresUrl: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: timeoutMs });
  await client.connect();
  try {
    await within('a temporary table write', client.query('CREATE TEMP TABLE preflight AS SELECT 1 AS one'), timeoutMs);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Fails the test run at once, naming the server and the reason, when a server this run uses answers
 * but does not take work (run before the first test file, after the run's vhost exists).
 */
export async function checkServersTakeWork(
  servers: { postgresUrl: string; amqpUrl: string },
  timeoutMs = PREFLIGHT_TIMEOUT_MS,
): Promise<void> {
  const checks = [
    ['PostgreSQL', () => postgresTakesWork(servers.postgresUrl, timeoutMs)],
    ['RabbitMQ', () => brokerTakesWork(servers.amqpUrl, timeoutMs)],
  ] as const;
  for (const [name, check] of checks) {
    // The outer limit covers a connection that opens and then never completes its handshake.
    await within(name, check(), timeoutMs * 2).catch((error: Error) => {
      throw new Error(`${name} answers but takes no work: ${error.message}. Check its log, free disk and alarms before running the tests.`, {
        cause: error,
      });
    });
  }
}
