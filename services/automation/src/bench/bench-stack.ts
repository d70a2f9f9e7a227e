import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createLogger, dropTestDatabase, removeNamespacedTopology } from '@mailer/shared';
import { defaultZones, startDnsTestServer, startSmtpSink } from '@mailer/shared/testing';
import { startAutomationService } from '../automation-service';
import { loadAutomationConfig } from '../config';
import { startChildService } from './child-service';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/**
 * The pipeline the benchmark measures, on throw-away databases and a broker namespace of its own:
 * events and contacts as child processes, automation in this process, an SMTP sink and a DNS
 * server for the contacts service's domain check.
 */
export async function startBenchStack() {
  const id = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    POSTGRES_URL: process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    AMQP_URL: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    DB_PREFIX: `mailer_test_bench_${id}_`,
    REDIS_KEY_PREFIX: `bench:${id}:`,
    BROKER_NAMESPACE: `bench${id}.`,
    INTERNAL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  delete env.DATABASE_URL;
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => process.stderr.write(`cleanup: ${String(error)}\n`));
  };
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: env.POSTGRES_URL });
    await admin.connect();
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [env.DB_PREFIX]);
    await admin.end();
    for (const { datname } of rows) await dropTestDatabase(env.POSTGRES_URL!, datname);
  });
  cleanups.push(() => removeNamespacedTopology(env.AMQP_URL!, env.BROKER_NAMESPACE!));
  try {
    const sink = await startSmtpSink();
    cleanups.push(() => sink.close());
    const dns = await startDnsTestServer({ ...defaultZones, 'bench.test': { mx: ['mail.bench.test'], a: ['127.0.0.1'] } });
    cleanups.push(() => dns.close());
    const logger = createLogger('automation', { level: env.LOG_LEVEL });
    const automation = await startAutomationService(
      loadAutomationConfig({ ...env, PORT: '0', SMTP_URL: sink.url, SEND_RATE_PER_SECOND: '2000', SEND_CONCURRENCY: '32', SMTP_POOL_SIZE: '8' }),
      logger,
    );
    cleanups.push(() => automation.stop());
    const contacts = await startChildService(ROOT, 'contacts', { ...env, DNS_SERVERS: dns.address });
    cleanups.push(() => contacts.stop());
    const events = await startChildService(ROOT, 'events', env);
    cleanups.push(() => events.stop());
    await automation.broker.ready();
    return { env, sink, automation, eventsUrl: events.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
