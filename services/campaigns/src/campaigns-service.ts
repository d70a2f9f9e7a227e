import type { Logger } from 'pino';
import { Broker, createMetricsRegistry, createPool, listen, migrateDatabase, stopInOrder, type ConsumeOutcome } from '@mailer/shared';
import type { CampaignsConfig } from './config';
import { campaignsDatabaseUrl, MIGRATIONS_DIR } from './database';
import { buildApp } from './entry-points/api/app';
import { consumeSendResults } from './entry-points/message-queue/send-results.consumer';

export interface CampaignsServiceHooks {
  /** Observes each send-result message's fate (tests wait on it instead of sleeping). */
  onSendResultOutcome?: (outcome: ConsumeOutcome, messageId: string | undefined) => void;
}

/** Composition root: migrate, connect, consume, serve. Returns the address and a graceful stop. */
export async function startCampaignsService(config: CampaignsConfig, logger: Logger, hooks: CampaignsServiceHooks = {}) {
  const databaseUrl = campaignsDatabaseUrl(config);
  // One registry per instance: two services in one test process keep separate numbers.
  const metrics = createMetricsRegistry('campaigns');
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  const broker = Broker.start({
    url: config.AMQP_URL,
    namespace: config.BROKER_NAMESPACE,
    logger,
    connectionName: 'campaigns',
    metrics,
  });
  consumeSendResults({ broker, pool, logger, onOutcome: hooks.onSendResultOutcome });
  const server = await listen(buildApp({ logger, pool, broker, signingSecret: config.INTERNAL_SIGNING_SECRET, metrics }), config.PORT);
  logger.info({ port: server.port }, 'campaigns service listening');
  return {
    url: server.url,
    pool,
    broker,
    metrics,
    stop: () => stopInOrder([() => server.close(), () => broker.close(), () => pool.end()]),
  };
}
