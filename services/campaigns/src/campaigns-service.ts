import type { Logger } from 'pino';
import { Broker, createMetricsRegistry, createPool, inboxPruner, listen, logStarted, migrateDatabase, stopInOrder, type ConsumeOutcome } from '@mailer/shared';
import type { CampaignsConfig } from './config';
import { campaignsDatabaseUrl, MIGRATIONS_DIR } from './database';
import { buildApp } from './entry-points/api/app';
import { consumeCampaignEngagement } from './entry-points/message-queue/campaign-engagement.consumer';
import { consumeCampaignProgress } from './entry-points/message-queue/campaign-progress.consumer';
import { campaignOutboxRelay } from './entry-points/workers/outbox-relay';
import { scheduledCampaignsLoop } from './entry-points/workers/scheduled-campaigns';

export interface CampaignsServiceHooks {
  /** Observes each campaign-progress message's fate (tests wait on it instead of sleeping). */
  onProgressOutcome?: (outcome: ConsumeOutcome, messageId: string | undefined) => void;
  /** Observes each tracking hit's fate on campaigns.engagement. */
  onEngagementOutcome?: (outcome: ConsumeOutcome, messageId: string | undefined) => void;
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
  consumeCampaignProgress({ broker, pool, logger, onOutcome: hooks.onProgressOutcome });
  consumeCampaignEngagement({ broker, pool, logger, onOutcome: hooks.onEngagementOutcome });
  const relay = campaignOutboxRelay(pool, broker, logger, config.CAMPAIGNS_OUTBOX_POLL_MS);
  const scheduled = scheduledCampaignsLoop(pool, logger, config.CAMPAIGNS_SCHEDULER_POLL_MS, () => relay.wake());
  relay.start();
  const inbox = inboxPruner({ pool, retentionDays: config.INBOX_RETENTION_DAYS, logger });
  inbox.start();
  scheduled.start();
  const server = await listen(
    buildApp({
      logger,
      pool,
      broker,
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      metrics,
      metricsToken: config.METRICS_TOKEN,
      onOutboxWritten: () => relay.wake(),
    }),
    config.PORT,
    config.HOST,
  );
  logStarted(logger, 'campaigns', [`http://${config.HOST}:${server.port}`], { postgres: databaseUrl, rabbitmq: config.AMQP_URL });
  return {
    url: server.url,
    pool,
    broker,
    /** Prunes the inbox now and then; `wake()` runs it at once. */
    inbox,
    metrics,
    stop: () => stopInOrder([() => server.close(), () => scheduled.stop(), () => relay.stop(), () => inbox.stop(), () => broker.close(), () => pool.end()]),
  };
}
