import type { Logger } from 'pino';
import {
  Broker,
  createMetricsRegistry,
  createPool,
  inboxPruner,
  listen,
  logStarted,
  migrateDatabase,
  SignedClient,
  stopInOrder,
  TableChangesListener,
  type Pool,
  type Registry,
  type WakeableLoop,
} from '@mailer/shared';
import type { AutomationConfig } from './config';
import { automationDatabaseUrl, MIGRATIONS_DIR } from './database';
import { SmtpProbe } from './domain/sending/smtp-probe';
import { buildApp } from './entry-points/api/app';
import { consumeContactFacts } from './entry-points/message-queue/contact-facts.consumer';
import { consumeConfirmationRequests } from './entry-points/message-queue/confirmation-requests.consumer';
import { consumeEngagement } from './entry-points/message-queue/engagement.consumer';
import { consumeProductEvents } from './entry-points/message-queue/product-events.consumer';
import { outboxLagGauge } from './entry-points/metrics/automation-metrics';
import { startSending } from './sending';
import { automationOutboxRelay } from './entry-points/workers/outbox-relay';
import { consumeCampaignCommands } from './entry-points/message-queue/campaign-commands.consumer';
import { CampaignProgressReporter } from './entry-points/workers/campaign-progress-reporter';
import { CampaignSender } from './entry-points/workers/campaign-sender';
import { SendScheduler } from './entry-points/workers/send-scheduler';
import { createTriggerRouting, type TriggerRouting } from './domain/routing/trigger-routing';
import type { WorkflowWrites } from './domain/workflows/workflow-writes';
import { SENDS_DUE_CHANNEL } from './data-access/enrolment.repository';
import { SegmentMembersClient } from './data-access/segment-members.client';

/** The safety net behind the other trigger-routing reconciles (a NOTIFY lost with its connection). */
const TRIGGER_ROUTING_CHECK_MS = 60_000;
/**
 * A send holds no connection of its own (claims and outcomes are statements shared by many sends):
 * the connections serve the enrolment consumer's prefetch, the claim loop, the outcome writer, the
 * relay and the campaign sender. Not tied to SEND_CONCURRENCY, so raising it cannot exhaust a
 * shared Postgres.
 */
const DATABASE_CONNECTIONS = 26;
/** A page of segment members is one evaluation of the rule in contacts: give a large account time. */
const CONTACTS_TIMEOUT_MS = 30_000;

/** A running automation service, as its composition root returns it (tests and tools name it). */
export interface AutomationService {
  url: string;
  pool: Pool;
  broker: Broker;
  /** Prunes the inbox now and then; `wake()` runs it at once. */
  inbox: WakeableLoop;
  scheduler: SendScheduler;
  metrics: Registry;
  triggerRouting: TriggerRouting;
  /** What a test or tool writes workflows with, as the service's own routes do. */
  workflowWrites: WorkflowWrites;
  stop: () => Promise<void>;
}

/** Composition root: migrate, connect, consume, schedule, serve. Returns the address and a graceful stop. */
export async function startAutomationService(config: AutomationConfig, logger: Logger): Promise<AutomationService> {
  const databaseUrl = automationDatabaseUrl(config);
  // One registry per instance: tests run several instances in one process.
  const metrics = createMetricsRegistry('automation');
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger, { max: DATABASE_CONNECTIONS });
  const broker = Broker.start({ url: config.AMQP_URL, namespace: config.BROKER_NAMESPACE, logger, connectionName: 'automation', metrics });
  const { ctx, mailer } = startSending(config, { pool, logger, metrics });
  outboxLagGauge(metrics, pool);
  const relay = automationOutboxRelay(pool, broker, logger, config.OUTBOX_POLL_MS);
  const scheduler = new SendScheduler(ctx, {
    concurrency: config.SEND_CONCURRENCY,
    leaseMs: config.SEND_LEASE_MS,
    pollMs: config.SCHEDULER_POLL_MS,
    afterSend: () => relay.wake(),
  });
  const triggerRouting = createTriggerRouting({ pool, router: broker, logger });
  // One listening connection for every channel: a NOTIFY wakes each listening backend of the database.
  const tableChanges = new TableChangesListener({ databaseUrl, applicationName: 'mailer-automation-listen', logger });
  triggerRouting.follow({
    changes: { listener: tableChanges, channel: 'workflow_triggers_changed' },
    broker,
    everyMs: TRIGGER_ROUTING_CHECK_MS,
  });
  consumeProductEvents(broker, { pool, mailDomain: ctx.mailDomain, scheduler });
  consumeContactFacts(broker, { pool });
  consumeEngagement(broker, { pool, mailDomain: ctx.mailDomain });
  consumeConfirmationRequests(broker, {
    pool,
    mailDomain: ctx.mailDomain,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    linkSecret: ctx.unsubscribeSecret,
    leaseMs: config.SEND_LEASE_MS,
    onQueued: () => scheduler.wake(),
  });
  const campaignSender = new CampaignSender(ctx, {
    concurrency: config.CAMPAIGN_SEND_CONCURRENCY,
    leaseMs: config.SEND_LEASE_MS,
    pollMs: config.SCHEDULER_POLL_MS,
    defaultRatePerSecond: config.CAMPAIGN_RATE_PER_SECOND,
    // Workflow emails first: while their pipeline is half full, campaigns claim nothing new.
    workflowsBusy: () => scheduler.inFlightCount * 2 >= config.SEND_CONCURRENCY,
    afterSend: () => relay.wake(),
  });
  const progress = new CampaignProgressReporter(pool, broker, logger, config.CAMPAIGN_PROGRESS_MS);
  const contacts = new SignedClient('contacts', config.CONTACTS_SERVICE_URL, config.INTERNAL_SIGNING_SECRET, CONTACTS_TIMEOUT_MS);
  const campaignCommands = consumeCampaignCommands(broker, {
    ctx,
    segments: new SegmentMembersClient(contacts),
    onStarted: () => campaignSender.wake(),
  });
  relay.start();
  const inbox = inboxPruner({ pool, retentionDays: config.INBOX_RETENTION_DAYS, logger });
  inbox.start();
  scheduler.start();
  // An enrolling instance with no room for a first email due now leaves it pending and notifies:
  // an instance with room (this one, or a peer) claims it at once rather than at its next poll.
  tableChanges.on(SENDS_DUE_CHANNEL, () => scheduler.wake());
  await tableChanges.start();
  campaignSender.start();
  progress.start();
  const server = await listen(
    buildApp({
      logger,
      pool,
      broker,
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      unsubscribeSecret: ctx.unsubscribeSecret,
      onUnsubscribed: () => relay.wake(),
      metrics,
      metricsToken: config.METRICS_TOKEN,
      sendContext: ctx,
      smtpProbe: new SmtpProbe(() => mailer.reachable()),
      triggerRoutes: triggerRouting,
    }),
    config.PORT,
    config.HOST,
  );
  logStarted(logger, `automation (instance ${scheduler.instance})`, [`http://${config.HOST}:${server.port}`], {
    postgres: databaseUrl,
    rabbitmq: config.AMQP_URL,
    smtp: config.SMTP_URL,
    contacts: config.CONTACTS_SERVICE_URL,
  });
  return {
    url: server.url,
    pool,
    broker,
    inbox,
    scheduler,
    metrics,
    triggerRouting,
    workflowWrites: { pool, renderer: ctx.renderer, routes: triggerRouting },
    stop: () =>
      stopInOrder([
        // First: a send request waiting for the contacts service gives up and is requeued.
        async () => campaignCommands.stop(),
        () => server.close(),
        () => tableChanges.stop(),
        () => triggerRouting.stop(),
        () => scheduler.stop(),
        () => campaignSender.stop(),
        () => progress.stop(),
        () => relay.stop(),
        () => inbox.stop(),
        () => broker.close(),
        () => contacts.close(),
        async () => mailer.close(),
        () => pool.end(),
      ]),
  };
}
