import type { Logger } from 'pino';
import {
  Broker,
  createMetricsRegistry,
  createPool,
  createRedis,
  listen,
  logStarted,
  migrateDatabase,
  stopInOrder,
  emailDomainValidatorFor,
  inboxPruner,
  type ConsumeOutcome,
  type OutboxRelay,
  type Pool,
  type Registry,
  type WakeableLoop,
} from '@mailer/shared';
import type { ContactsConfig } from './config';
import { contactsDatabaseUrl, MIGRATIONS_DIR } from './database';
import { buildListener } from './entry-points/api/app';
import { registerConsumers } from './entry-points/message-queue/register-consumers';
import { domainCheckMetrics, outboxLagGauge } from './entry-points/metrics/contacts-metrics';
import { contactsOutboxRelay } from './outbox/outbox-relay';

export interface ContactsServiceHooks {
  /** Observes each consumed message's fate (metrics, tests). */
  onMessageOutcome?: (queue: string, outcome: ConsumeOutcome, messageId: string | undefined) => void;
}

/** A running contacts service, as its composition root returns it (tests and tools name it). */
export interface ContactsService {
  url: string;
  pool: Pool;
  broker: Broker;
  /** Prunes the inbox now and then; `wake()` runs it at once. */
  inbox: WakeableLoop;
  relay: OutboxRelay;
  metrics: Registry;
  stop(): Promise<void>;
}

/** Composition root: migrate, connect, serve HTTP, consume, relay the outbox. Returns a graceful stop. */
export async function startContactsService(
  config: ContactsConfig,
  logger: Logger,
  hooks: ContactsServiceHooks = {},
): Promise<ContactsService> {
  const databaseUrl = contactsDatabaseUrl(config);
  // One registry per instance: two services in one test process keep separate numbers.
  const metrics = createMetricsRegistry('contacts');
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger, { max: 20 });
  // The consumers' statements are keyed writes and batches over arrays, which Postgres would
  // otherwise plan again at every execution (the product events' many-CTE statement most of all);
  // the API's filtered lists keep custom plans in the pool above.
  const consumerPool = createPool(databaseUrl, logger, { max: 10, genericPlans: true });
  const redis = createRedis(config.REDIS_URL, logger, { keyPrefix: config.REDIS_KEY_PREFIX });
  const broker = Broker.start({
    url: config.AMQP_URL,
    namespace: config.BROKER_NAMESPACE,
    logger,
    connectionName: 'contacts',
    metrics,
  });
  const emailValidator = emailDomainValidatorFor(config, redis, logger, domainCheckMetrics(metrics));
  outboxLagGauge(metrics, pool);
  registerConsumers(broker, { pool: consumerPool, broker, onOutcome: hooks.onMessageOutcome });
  const relay = contactsOutboxRelay(pool, broker, logger, config.OUTBOX_POLL_MS);
  relay.start();
  const inbox = inboxPruner({ pool, retentionDays: config.INBOX_RETENTION_DAYS, logger });
  inbox.start();
  const app = buildListener({
    logger,
    pool,
    broker,
    signingSecret: config.INTERNAL_SIGNING_SECRET,
    emailValidator,
    redis,
    metrics,
    metricsToken: config.METRICS_TOKEN,
  });
  const server = await listen(app, config.PORT, config.HOST);
  logStarted(logger, 'contacts', [`http://${config.HOST}:${server.port}`], { postgres: databaseUrl, rabbitmq: config.AMQP_URL, redis: config.REDIS_URL });
  return {
    url: server.url,
    pool,
    broker,
    inbox,
    relay,
    metrics,
    stop: () =>
      stopInOrder([
        () => server.close(),
        () => relay.stop(),
        () => inbox.stop(),
        () => broker.close(),
        async () => void redis.disconnect(),
        () => consumerPool.end(),
        () => pool.end(),
      ]),
  };
}
