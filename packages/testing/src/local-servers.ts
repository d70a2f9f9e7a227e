import net from 'node:net';
import amqp from 'amqplib';
import pg from 'pg';

/** The servers a development machine runs at their standard local addresses. */
export const LOCAL_SERVERS = {
  postgres: 'postgres://postgres@127.0.0.1:5432/postgres',
  redis: 'redis://127.0.0.1:6379',
  amqp: 'amqp://guest:guest@127.0.0.1:5672',
} as const;

const PROBE_TIMEOUT_MS = 5000;
const PROBE_TRIES = 3;

/** A probe's answer: undefined when the server answered, else why not. */
type Probe = () => Promise<string | undefined>;

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

const postgresProbe: Probe = async () => {
  const client = new pg.Client({ connectionString: LOCAL_SERVERS.postgres, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return reason(error);
  } finally {
    await client.end().catch(() => undefined);
  }
};

const redisProbe: Probe = () => {
  const { hostname, port } = new URL(LOCAL_SERVERS.redis);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done('no answer to PING'));
    socket.once('error', (error) => done(reason(error)));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG') ? undefined : `answered ${data.toString().trim()}`));
  });
};

const amqpProbe: Probe = async () => {
  try {
    const connection = await amqp.connect(LOCAL_SERVERS.amqp, { timeout: PROBE_TIMEOUT_MS });
    await connection.close();
    return undefined;
  } catch (error) {
    return reason(error);
  }
};

/** A busy machine can make a server slow to answer once: ask again before giving up on it. */
async function probeWithRetries(probe: Probe): Promise<string | undefined> {
  let problem: string | undefined;
  for (let attempt = 0; attempt < PROBE_TRIES; attempt++) {
    problem = await probe();
    if (problem === undefined) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
  }
  return problem;
}

export interface LocalServerProbes {
  /** Per server: undefined when it answered a real handshake, else why not. */
  postgres: string | undefined;
  redis: string | undefined;
  amqp: string | undefined;
}

/**
 * Which of the standard local servers answer (a real handshake, not only an open port), so a test
 * run with nothing exported uses them and starts containers only for the ones that are missing.
 */
export async function probeLocalServers(): Promise<LocalServerProbes> {
  const [postgres, redis, amqpProblem] = await Promise.all([postgresProbe, redisProbe, amqpProbe].map(probeWithRetries));
  return { postgres, redis, amqp: amqpProblem };
}
