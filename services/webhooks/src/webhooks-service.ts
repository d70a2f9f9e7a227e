import type { Logger } from 'pino';
import {
  Broker,
  createMetricsRegistry,
  createPool,
  listen,
  logStarted,
  migrateDatabase,
  stopInOrder,
  TableChangesListener,
  type ConsumeOutcome,
} from '@mailer/shared';
import type { WebhooksConfig } from './config';
import { webhooksDatabaseUrl, MIGRATIONS_DIR } from './database';
import { WebhookHttp } from './data-access/webhook-http';
import { buildApp } from './entry-points/api/app';
import { consumeWebhookFacts } from './entry-points/message-queue/facts.consumer';
import { DeliveryWorker } from './entry-points/workers/delivery-worker';
import { createFactSubscriptions } from './domain/fact-subscriptions';

/** The safety net behind the other reconcile triggers (a lost NOTIFY, an older instance's static bindings). */
const FACT_ROUTING_CHECK_MS = 60_000;

export interface WebhooksServiceHooks {
  /** Observes each fact's fate (tests wait on it instead of sleeping). */
  onFactOutcome?: (outcome: ConsumeOutcome, messageId: string | undefined) => void;
}

/** Composition root: migrate, connect, consume facts, deliver, serve. Returns the address and a graceful stop. */
export async function startWebhooksService(config: WebhooksConfig, logger: Logger, hooks: WebhooksServiceHooks = {}) {
  const databaseUrl = webhooksDatabaseUrl(config);
  const metrics = createMetricsRegistry('webhooks');
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  const broker = Broker.start({ url: config.AMQP_URL, namespace: config.BROKER_NAMESPACE, logger, connectionName: 'webhooks', metrics });
  const policy = { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, allowedHosts: config.WEBHOOK_ALLOWED_HOSTS };
  const http = new WebhookHttp({ policy, timeoutMs: config.WEBHOOK_TIMEOUT_MS, responseLimitBytes: config.WEBHOOK_RESPONSE_LIMIT_BYTES });
  const worker = new DeliveryWorker(
    { pool, http, logger, retrySchedule: config.WEBHOOK_RETRY_SCHEDULE },
    // The lease outlives the attempt's deadline, so a live attempt is never taken over.
    { concurrency: config.WEBHOOK_CONCURRENCY, leaseMs: config.WEBHOOK_TIMEOUT_MS + 30_000, pollMs: config.WEBHOOK_POLL_MS },
  );
  const factRouting = createFactSubscriptions({ pool, router: broker, logger });
  const tableChanges = new TableChangesListener({ databaseUrl, applicationName: 'mailer-webhooks-listen', logger });
  factRouting.follow({
    // Sent by the endpoints table's trigger on commit of any insert, delete, or change of event types or `enabled`.
    changes: { listener: tableChanges, channel: 'webhook_endpoints_changed' },
    broker,
    everyMs: FACT_ROUTING_CHECK_MS,
  });
  await tableChanges.start();
  consumeWebhookFacts({ broker, pool, logger, onQueued: (endpointIds) => worker.wakeFor(endpointIds), onOutcome: hooks.onFactOutcome });
  worker.start();
  const server = await listen(
    buildApp({
      logger,
      pool,
      broker,
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      metrics,
      metricsToken: config.METRICS_TOKEN,
      refusal: (url) => http.refusal(url),
      secretOverlapMs: config.WEBHOOK_SECRET_OVERLAP_MS,
      factRouting,
      factsRouted: () => factRouting.hasReconciled(),
      onQueued: () => worker.wake(),
    }),
    config.PORT,
    config.HOST,
  );
  logStarted(logger, 'webhooks', [`http://${config.HOST}:${server.port}`], { postgres: databaseUrl, rabbitmq: config.AMQP_URL });
  return {
    url: server.url,
    pool,
    broker,
    metrics,
    factRouting,
    stop: () =>
      stopInOrder([
        () => server.close(),
        () => tableChanges.stop(),
        () => factRouting.stop(),
        () => broker.close(),
        () => worker.stop(),
        () => http.close(),
        () => pool.end(),
      ]),
  };
}
