import { randomUUID } from 'node:crypto';
import {
  Broker,
  BrokerUnavailableError,
  campaignProgressV1,
  contactBouncedV1,
  contactUnsubscribeRequestedV1,
  createLogger,
  createPool,
  IDENTITY_HEADER,
  productEventEnrichedV1,
  productEventsEnrichedV1,
  triggerRoutingKey,
  QUEUES,
  type ContactSnapshot,
  type MessageContract,
  type MessageOf,
} from '@mailer/shared';
import { freePort, serviceTestEnv, signedIdentityFor, startSmtpSink, testServers, waitFor } from '@mailer/testing';
import { startAutomationService } from '../../src/automation-service';
import { loadAutomationConfig } from '../../src/config';
import { automationDatabaseUrl } from '../../src/database';
import { EmailRenderer } from '../../src/domain/rendering/render-email';
import { importWorkflows } from '../../src/domain/workflows/import-workflows';
import { createTriggerRouting } from '../../src/domain/routing/trigger-routing';

const silent = createLogger('automation-test', { level: 'silent' });

let nextId = Math.floor(Math.random() * 1_000_000_000) + 1000;
export const newAccountId = () => nextId++;

export function newContact(overrides: Partial<ContactSnapshot> = {}): ContactSnapshot {
  const id = nextId++;
  return {
    id,
    email: `c${id}@example.test`,
    first_name: null,
    last_name: null,
    subscribed: true,
    bounced: false,
    tags: [],
    custom_properties: {},
    ...overrides,
  };
}


export type AutomationService = Awaited<ReturnType<typeof startAutomationService>>;

/** The enriched event the contacts service publishes for `contact`. */
export const enrichedEvent = (accountId: number, contact: ContactSnapshot, event: string, properties: Record<string, unknown>) => ({
  event_id: randomUUID(),
  account_id: accountId,
  event,
  email: contact.email,
  properties,
  received_at: new Date().toISOString(),
  contact,
});

/**
 * Automation instances on their own database (`database` names it: test files run in parallel and
 * must not claim each other's sends), an SMTP sink, a publisher in the same broker namespace, and
 * observers of the facts automation publishes to the contacts service.
 */
export async function startAutomationHarness(database: string, options: { instances?: number; env?: Record<string, string> } = {}) {
  const sink = await startSmtpSink();
  const port = await freePort();
  const env = serviceTestEnv({
    DB_PREFIX: `${testServers().dbPrefix}${database}_`,
    SMTP_URL: sink.url,
    MAIL_FROM: 'Mailer Test <robot@mailer.test>',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    SEND_RETRY_INITIAL_MS: '200',
    SEND_RETRY_MAX_MS: '1000',
    SCHEDULER_POLL_MS: '100',
    OUTBOX_POLL_MS: '100',
    ...options.env,
  });
  const start = (instancePort: number) => startAutomationService(loadAutomationConfig({ ...env, PORT: String(instancePort) }), silent);
  const instances: AutomationService[] = [];
  for (let i = 0; i < (options.instances ?? 1); i++) instances.push(await start(i === 0 ? port : 0));
  const broker = Broker.start({ url: env.AMQP_URL!, namespace: env.BROKER_NAMESPACE!, logger: silent, connectionName: 'automation-test' });
  const bounces: Array<MessageOf<typeof contactBouncedV1>> = [];
  const unsubscribes: Array<MessageOf<typeof contactUnsubscribeRequestedV1>> = [];
  const progress: Array<MessageOf<typeof campaignProgressV1>> = [];
  broker.consume({ queue: QUEUES.campaignsProgress.name, contracts: [campaignProgressV1], handle: async (m) => void progress.push(m.payload) });
  broker.consume({ queue: QUEUES.contactsBounces.name, contracts: [contactBouncedV1], handle: async (m) => void bounces.push(m.payload) });
  broker.consume({
    queue: QUEUES.contactsUnsubscribes.name,
    contracts: [contactUnsubscribeRequestedV1],
    handle: async (m) => void unsubscribes.push(m.payload),
  });
  await Promise.all([broker.ready(), ...instances.map((instance) => instance.broker.ready())]);
  // The harness's own pool outlives any instance a test stops.
  const pool = createPool(automationDatabaseUrl(loadAutomationConfig(env)), silent, { max: 4 });
  const workflowWrites = { pool, renderer: new EmailRenderer(), routes: createTriggerRouting({ pool, router: broker, logger: silent }) };

  return {
    env,
    sink,
    instances,
    pool,
    bounces,
    unsubscribes,
    /** Every campaign.progress.v1 automation published, in order. */
    progress,
    /** The first instance's address (the one PUBLIC_BASE_URL names). */
    get url() {
      return instances[0]!.url;
    },
    /** A request to the first instance's internal API as the account app sends it (signed identity); the JSON answer. */
    call: async <T>(accountId: number, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
      const url = `${instances[0]!.url}/internal/v1${path}`;
      const body = json === undefined ? null : JSON.stringify(json);
      const response = await fetch(url, {
        method,
        headers: { [IDENTITY_HEADER]: signedIdentityFor(accountId, { method, url, body }), ...(body ? { 'content-type': 'application/json' } : {}) },
        body,
      });
      return { status: response.status, body: (await response.json()) as T };
    },
    /** Imports as the service does: each trigger routed to automation before the commit. */
    importWorkflow: (accountId: number, workflow: unknown) => importWorkflows(workflowWrites, accountId, workflow),
    /** What the contacts service does after upserting: publish the event with the contact snapshot. Resolves to the message id. */
    publishEvent: async (accountId: number, contact: ContactSnapshot, event: string, properties: Record<string, unknown> = {}, messageId: string = randomUUID()) => {
      await broker.publish(productEventEnrichedV1, enrichedEvent(accountId, contact, event, properties), { messageId, routingKey: triggerRoutingKey(accountId, event) });
      return messageId;
    },
    /** What contacts does with enriched events of one trigger ready at once: one batch message. Resolves to the events. */
    publishEvents: async (accountId: number, event: string, items: Array<{ contact: ContactSnapshot; properties?: Record<string, unknown> }>, messageId: string = randomUUID()) => {
      const events = items.map((item) => enrichedEvent(accountId, item.contact, event, item.properties ?? {}));
      await broker.publish(productEventsEnrichedV1, { events }, { messageId, routingKey: triggerRoutingKey(accountId, event) });
      return events;
    },
    /** Publishes events exactly as given (the same ids again, say), in one batch message. */
    republishEvents: (events: Array<ReturnType<typeof enrichedEvent>>, messageId: string = randomUUID()) =>
      broker.publish(productEventsEnrichedV1, { events }, { messageId, routingKey: triggerRoutingKey(events[0]!.account_id, events[0]!.event) }),
    /**
     * Publishes the event as `publishEvent` does, but asks the broker to refuse it when no queue is
     * bound to its key: resolves to the message id when automation got it, undefined when no enabled
     * workflow of the account triggers on that event name (so automation never saw it).
     */
    publishEventIfRouted: async (accountId: number, contact: ContactSnapshot, event: string, properties: Record<string, unknown> = {}) => {
      const messageId = randomUUID();
      const routingKey = triggerRoutingKey(accountId, event);
      try {
        await broker.publish(productEventEnrichedV1, enrichedEvent(accountId, contact, event, properties), { messageId, routingKey, mandatory: true });
        return messageId;
      } catch (error) {
        if (error instanceof BrokerUnavailableError && /no queue is bound/.test(error.message)) return undefined;
        throw error;
      }
    },
    publish: <C extends MessageContract>(contract: C, payload: MessageOf<C>) => broker.publish(contract, payload, { messageId: randomUUID() }),
    /** Waits until an instance has consumed (committed) the message. */
    waitProcessed: (messageId: string) =>
      waitFor(async () => {
        const { rowCount } = await pool.query('SELECT 1 FROM processed_messages WHERE message_id = $1', [messageId]);
        return rowCount === 1 ? true : undefined;
      }, { what: `message ${messageId} processed` }),
    ledger: async (accountId: number, contactId: number) =>
      (
        await pool.query<{ step_id: string; state: string; reason: string | null; attempts: number; message_id: string; sent_at: Date | null }>(
          'SELECT step_id, state, reason, attempts, message_id, sent_at FROM sends WHERE account_id = $1 AND contact_id = $2 ORDER BY step_index',
          [accountId, contactId],
        )
      ).rows,
    /** Waits until the contact's ledger row for `stepId` reaches `state`. */
    waitForState: (accountId: number, contactId: number, stepId: string, state: string, timeoutMs = 10_000) =>
      waitFor(
        async () => {
          const { rows } = await pool.query<{ state: string; reason: string | null }>(
            'SELECT state, reason FROM sends WHERE account_id = $1 AND contact_id = $2 AND step_id = $3',
            [accountId, contactId, stepId],
          );
          return rows[0]?.state === state ? rows[0] : undefined;
        },
        { timeoutMs, what: `${stepId} ${state}` },
      ),
    startInstance: async () => {
      const instance = await start(port);
      instances.push(instance);
      await instance.broker.ready();
      return instance;
    },
    stopInstance: async (instance: AutomationService) => {
      instances.splice(instances.indexOf(instance), 1);
      await instance.stop();
    },
    stop: async () => {
      await broker.close();
      for (const instance of instances.splice(0)) await instance.stop();
      await pool.end();
      await sink.close();
    },
  };
}

export type AutomationHarness = Awaited<ReturnType<typeof startAutomationHarness>>;
