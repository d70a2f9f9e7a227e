import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import {
  Broker,
  createLogger,
  loneEnrichedEventOptions,
  loneProductEventOptions,
  productEventEnrichedV1,
  productEventReceivedV1,
  QUEUES,
  TRIGGER_ROUTES_WHOLE,
  triggerRoutesSetKey,
  type MessageOf,
} from '@mailer/shared';
import { metricValue, serviceTestEnv, waitFor } from '@mailer/shared/testing';
import type { Registry } from 'prom-client';
import { loadAutomationConfig } from '../../services/automation/src/config';
import { startAutomationService, type AutomationService } from '../../services/automation/src/automation-service';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { loadContactsConfig } from '../../services/contacts/src/config';
import { startContactsService } from '../../services/contacts/src/contacts-service';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGatewayService } from '../../services/gateway/src/gateway-service';
import { startProduct, type Product } from './stack-harness';

/**
 * The three places a product event's contact may be upserted (`PRODUCT_EVENTS_UPSERTED_BY`): the
 * gateway before its 202 (the default), automation consuming the queued event, contacts consuming
 * it. One enrolment per event whichever way it comes, nothing in automation for an event no
 * workflow listens to, and no event lost while contacts' database is not there yet.
 */

const welcome = {
  name: 'Welcome',
  trigger: { event: 'signup' },
  transactional: false,
  steps: [{ id: 'welcome', type: 'email', subject: 'Welcome!', html: '<p>Hi.</p>' }],
};

/** Messages of `queue` settled with `outcome` on a service's registry. */
async function settled(metrics: Registry, queue: string, outcome = 'ack'): Promise<number> {
  return metricValue(await metrics.metrics(), 'mailer_queue_messages_total', { queue, outcome }) ?? 0;
}

type AnotherGatewayTest = (postEvent: (key: string, body: unknown) => Promise<Response>, metrics: Registry) => Promise<void>;

/** `fn` with a second gateway of `product`, started with `env` on top of the product's. */
async function withGatewayOf(product: Product, env: Record<string, string>, fn: AnotherGatewayTest) {
  const gateway = await startGatewayService(
    loadGatewayConfig({ ...product.env, GATEWAY_PORT: '0', EVENTS_PORT: '0', GATEWAY_INTERNAL_PORT: '0', ...env }),
    createLogger('gateway', { level: 'silent' }),
  );
  try {
    await gateway.broker.ready();
    const postEvent = (key: string, body: unknown) =>
      fetch(`${gateway.eventsUrl}/v1/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await fn(postEvent, gateway.metrics);
  } finally {
    await gateway.stop();
  }
}

/** What the product events' queues have seen consumed, by queue and consumer. */
const queueOutcomesOf = async (product: Product) => ({
  automationQueued: await settled(product.automation.metrics, QUEUES.contactsProductEvents.name),
  automationEnriched: await settled(product.automation.metrics, QUEUES.automationContactEvents.name),
  contactsQueued: await settled(product.contacts.metrics, QUEUES.contactsProductEvents.name),
});

/** A database name under the product's prefix that nobody made. */
function missingDatabaseUrl(product: Product): string {
  const missing = new URL(product.env.POSTGRES_URL!);
  missing.pathname = `/${product.env.DB_PREFIX}nowhere_${randomBytes(3).toString('hex')}`;
  return missing.toString();
}

/** Outcomes in the delivery log of an account. */
const loggedOutcomesOf = async (product: Product, accountId: number) =>
  (await product.automation.pool.query<{ outcome: string }>('SELECT outcome FROM delivery_log WHERE account_id = $1 ORDER BY id', [accountId])).rows.map(
    (row) => row.outcome,
  );

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Workflow runs of an account (each test has an account of its own). */
const runsOfAccount = async (product: Product, accountId: number) =>
  Number((await product.automation.pool.query<{ count: string }>('SELECT count(*) FROM workflow_runs WHERE account_id = $1', [accountId])).rows[0]?.count);

/** `fn` with a second automation instance beside the product's, on the same servers and databases. */
async function withSecondAutomation(product: Product, fn: (second: AutomationService) => Promise<void>) {
  const second = await startAutomationService(loadAutomationConfig({ ...product.env, PORT: '0' }), createLogger('automation', { level: 'silent' }));
  try {
    await second.broker.ready();
    await fn(second);
  } finally {
    await second.stop();
  }
}

describe('product events upserted where they are consumed (PRODUCT_EVENTS_UPSERTED_BY=automation)', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct({ env: { PRODUCT_EVENTS_UPSERTED_BY: 'automation' } });
  }, 60_000);
  afterAll(() => product?.stop());

  const inboxRows = async (key: string) =>
    (await product.automation.pool.query('SELECT 1 FROM processed_messages WHERE message_id = $1', [key])).rowCount;
  const runsOf = (accountId: number) => runsOfAccount(product, accountId);

  /** The product event as the gateway published it, from the 202's answer. */
  function receivedEvent(accountId: number, accepted: Record<string, unknown>): MessageOf<typeof productEventReceivedV1> {
    const data = accepted.data as { id: string; event: string; email: string; received_at: string };
    return { event_id: data.id, account_id: accountId, event: data.event, email: data.email, properties: {}, received_at: data.received_at };
  }

  it('enrols an event once across a redelivery and a copy that came the other way, through contacts', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const email = `once.${randomBytes(3).toString('hex')}@example.test`;
    const acksBefore = await settled(product.automation.metrics, QUEUES.contactsProductEvents.name);
    const accepted = await product.sendEvent(key, { event: 'signup', email });
    expect(accepted.status).toBe(202);
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });

    // The same event again (a redelivery after a crash before the ack) and its enriched copy, as a
    // contacts service upserting the product events would publish it during a rolling upgrade.
    const event = receivedEvent(accountId, accepted.body);
    await product.gateway.broker.publish(productEventReceivedV1, event, loneProductEventOptions(event));
    const contact = (await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}`)).body?.data as Array<Record<string, unknown>>;
    expect(contact).toHaveLength(1);
    const enriched = {
      ...event,
      contact: { id: contact[0]!.id as number, email, first_name: null, last_name: null, subscribed: true, bounced: false, tags: [], custom_properties: {}, suppression: null },
    };
    await product.contacts.broker.publish(productEventEnrichedV1, enriched, loneEnrichedEventOptions(enriched));
    await waitFor(async () => ((await settled(product.automation.metrics, QUEUES.contactsProductEvents.name)) >= acksBefore + 2 ? true : undefined), {
      what: 'the redelivered event consumed',
    });
    await waitFor(async () => ((await settled(product.automation.metrics, QUEUES.automationContactEvents.name)) >= 1 ? true : undefined), {
      what: 'the enriched copy consumed',
    });

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
    expect(await runsOf(accountId)).toBe(1);
    // Contacts runs no consumer of the product events: automation took every copy.
    expect(await settled(product.contacts.metrics, QUEUES.contactsProductEvents.name)).toBe(0);
    expect((await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}`)).body?.data).toHaveLength(1);
  });

  it('enrols an event once when two automation instances consume copies of it at the same time', async () => {
    await withSecondAutomation(product, async (second) => {
      const { accountId, key } = await product.anAccountWithKey();
      await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
      const email = `twice.${randomBytes(3).toString('hex')}@example.test`;
      const event = { event_id: randomUUID(), account_id: accountId, event: 'signup', email, properties: {}, received_at: new Date().toISOString() };
      const acked = async () =>
        (await settled(product.automation.metrics, QUEUES.contactsProductEvents.name)) + (await settled(second.metrics, QUEUES.contactsProductEvents.name));
      const before = await acked();
      // Ten copies at once (redeliveries, a client retrying past its idempotency window), each consumed by whichever instance the broker hands it to.
      await Promise.all(Array.from({ length: 10 }, () => product.gateway.broker.publish(productEventReceivedV1, event, loneProductEventOptions(event))));
      await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
      await waitFor(async () => ((await acked()) >= before + 10 ? true : undefined), { what: 'every copy consumed' });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(product.smtp.messagesTo(email)).toHaveLength(1);
      expect(await runsOf(accountId)).toBe(1);
      expect((await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}`)).body?.data).toHaveLength(1);
    });
  });

  it('upserts the contact of an event no workflow listens to, costs automation no row, and sees a workflow enabled next', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    const first = `none.${randomBytes(3).toString('hex')}@example.test`;
    const acksBefore = await settled(product.automation.metrics, QUEUES.contactsProductEvents.name);
    const accepted = await product.sendEvent(key, { event: 'signup', email: first, properties: { first_name: 'Nan' } });
    expect(accepted.status).toBe(202);
    const contact = await waitFor(
      async () => ((await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(first)}`)).body?.data as unknown[] | undefined)?.[0],
      { what: 'the upserted contact' },
    );
    expect(contact).toMatchObject({ email: first, first_name: 'Nan', source: 'event', subscribed: true });
    await waitFor(async () => ((await settled(product.automation.metrics, QUEUES.contactsProductEvents.name)) > acksBefore ? true : undefined), {
      what: 'the event acked',
    });
    expect(await inboxRows(`enriched:${(accepted.body.data as { id: string }).id}`)).toBe(0);

    // Automation has cached "no workflow" for this trigger: a workflow saved now must see the next event.
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const second = `next.${randomBytes(3).toString('hex')}@example.test`;
    expect((await product.sendEvent(key, { event: 'signup', email: second })).status).toBe(202);
    await waitFor(() => (product.smtp.messagesTo(second).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    expect(product.smtp.messagesTo(first)).toEqual([]);
  });
});

describe('product events consumed by automation before contacts has made its database', () => {
  it('keeps the event and upserts it once contacts has migrated, never dead-lettering it', async () => {
    const env = serviceTestEnv({ DB_PREFIX: `${process.env.DB_PREFIX}e2ex${randomBytes(3).toString('hex')}_`, SCHEDULER_POLL_MS: '100' });
    const silent = (service: string) => createLogger(service, { level: 'silent' });
    const automation = await startAutomationService(loadAutomationConfig(env), silent('automation'));
    const publisher = Broker.start({ url: env.AMQP_URL!, namespace: env.BROKER_NAMESPACE!, logger: silent('test'), connectionName: 'test' });
    let contacts: Awaited<ReturnType<typeof startContactsService>> | undefined;
    try {
      await Promise.all([automation.broker.ready(), publisher.ready()]);
      const accountId = 4242;
      const event = {
        event_id: randomUUID(),
        account_id: accountId,
        event: 'signup',
        email: 'early@example.test',
        properties: {},
        received_at: new Date().toISOString(),
      };
      await publisher.publish(productEventReceivedV1, event, loneProductEventOptions(event));
      // Retried in place while contacts' database does not exist: no outcome, no dead letter.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await settled(automation.metrics, QUEUES.contactsProductEvents.name, 'dead-letter')).toBe(0);
      expect(await settled(automation.metrics, QUEUES.contactsProductEvents.name, 'requeue')).toBe(0);

      contacts = await startContactsService(loadContactsConfig(env), silent('contacts'));
      await waitFor(async () => ((await settled(automation.metrics, QUEUES.contactsProductEvents.name)) === 1 ? true : undefined), {
        timeoutMs: 15_000,
        what: 'the event upserted once contacts migrated',
      });
      const { rows } = await contacts.pool.query('SELECT email, source FROM contacts WHERE account_id = $1', [accountId]);
      expect(rows).toEqual([{ email: 'early@example.test', source: 'event' }]);
    } finally {
      await publisher.close();
      await automation.stop();
      await contacts?.stop();
    }
  }, 60_000);
});

describe('product events upserted by contacts (PRODUCT_EVENTS_UPSERTED_BY=contacts)', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct({ env: { PRODUCT_EVENTS_UPSERTED_BY: 'contacts' } });
  }, 60_000);
  afterAll(() => product?.stop());

  it('upserts in contacts, publishes the enriched event and automation sends the email', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const email = `contacts.${randomBytes(3).toString('hex')}@example.test`;
    expect((await product.sendEvent(key, { event: 'signup', email })).status).toBe(202);
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    expect(await settled(product.contacts.metrics, QUEUES.contactsProductEvents.name)).toBe(1);
    expect(await settled(product.automation.metrics, QUEUES.contactsProductEvents.name)).toBe(0);
    expect(await settled(product.automation.metrics, QUEUES.automationContactEvents.name)).toBe(1);
  });
});

describe('product events upserted by the gateway before the 202 and published enriched (PRODUCT_EVENTS_ENROLLED_BY=automation)', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct({ env: { PRODUCT_EVENTS_UPSERTED_BY: 'gateway', PRODUCT_EVENTS_ENROLLED_BY: 'automation' } });
  }, 60_000);
  afterAll(() => product?.stop());

  const contactOf = async (key: string, email: string) =>
    ((await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}`)).body?.data as Array<Record<string, unknown>>)[0];
  const withAnotherGateway = (env: Record<string, string>, fn: AnotherGatewayTest) => withGatewayOf(product, env, fn);
  const queueOutcomes = () => queueOutcomesOf(product);

  it('has the contact upserted when it answers 202, and the workflow bound to the trigger sends once', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const before = await queueOutcomes();
    const email = `gateway.${randomBytes(3).toString('hex')}@example.test`;
    expect((await product.sendEvent(key, { event: 'signup', email, properties: { first_name: 'Gia' } })).status).toBe(202);
    // No wait: the 202 came after the contact's commit.
    expect(await contactOf(key, email)).toMatchObject({ email, first_name: 'Gia', source: 'event', subscribed: true });
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
    // The enriched event went straight to automation's queue; nothing was queued for an upsert.
    expect(await queueOutcomes()).toEqual({ ...before, automationEnriched: before.automationEnriched + 1 });
  });

  it('costs an event no workflow listens to no message, fills in a missing name, and routes the next event to a workflow enabled now', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    const email = `quiet.${randomBytes(3).toString('hex')}@example.test`;
    expect((await product.api(key, 'POST', '/contacts', { email, subscribed: true })).status).toBe(201);
    const before = await queueOutcomes();
    expect((await product.sendEvent(key, { event: 'signup', email, properties: { first_name: 'Quinn' } })).status).toBe(202);
    expect(await contactOf(key, email)).toMatchObject({ email, first_name: 'Quinn', source: null });
    // A known contact the event leaves as it is: nothing written at all, and still answered.
    expect((await product.sendEvent(key, { event: 'signup', email, properties: { first_name: 'Other' } })).status).toBe(202);
    expect(await contactOf(key, email)).toMatchObject({ first_name: 'Quinn' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await queueOutcomes()).toEqual(before);

    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    expect((await product.sendEvent(key, { event: 'signup', email })).status).toBe(202);
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
  });

  it("leaves unpublished an event no workflow listens to while automation's record of the triggers is whole, and publishes every event while it is not", async () => {
    const { accountId, key } = await product.anAccountWithKey();
    const routesKey = triggerRoutesSetKey({ amqpUrl: product.env.AMQP_URL!, namespace: loadAutomationConfig(product.env).BROKER_NAMESPACE });
    const enrichedPublished = async () =>
      metricValue(await product.gateway.metrics.metrics(), 'mailer_messages_published_total', { type: productEventEnrichedV1.type, outcome: 'confirmed' }) ?? 0;
    const send = async (event: string) => {
      const email = `${event}.${randomBytes(3).toString('hex')}@example.test`;
      expect((await product.sendEvent(key, { event, email })).status).toBe(202);
      return email;
    };
    await product.automation.triggerRouting.reconcile();
    expect(await product.gateway.redis.sismember(routesKey, TRIGGER_ROUTES_WHOLE)).toBe(1);

    let published = await enrichedPublished();
    await send('page_view');
    expect(await enrichedPublished()).toBe(published);

    // Recorded before the import answers: the very next event is published and sends.
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const welcomed = await send('signup');
    expect(await enrichedPublished()).toBe(published + 1);
    await waitFor(() => (product.smtp.messagesTo(welcomed).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });

    // Redis restarted empty: no whole record, so the gateway publishes what it cannot rule out.
    await product.gateway.redis.del(routesKey);
    published = await enrichedPublished();
    await send('page_view');
    expect(await enrichedPublished()).toBe(published + 1);
    await product.automation.triggerRouting.reconcile();
    expect(await product.gateway.redis.sismember(routesKey, TRIGGER_ROUTES_WHOLE)).toBe(1);
    await send('page_view');
    expect(await enrichedPublished()).toBe(published + 1);
    const next = await send('signup');
    await waitFor(() => (product.smtp.messagesTo(next).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the second welcome email' });
  });

  it('drains an event a gateway queued before the switch, through automation', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const email = `queued.${randomBytes(3).toString('hex')}@example.test`;
    const event = { event_id: randomUUID(), account_id: accountId, event: 'signup', email, properties: {}, received_at: new Date().toISOString() };
    await product.gateway.broker.publish(productEventReceivedV1, event, loneProductEventOptions(event));
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    expect(await contactOf(key, email)).toMatchObject({ email, source: 'event' });
  });

  it("queues the events of a gateway kept off contacts' database (CONTACTS_READS=proxy), and automation upserts them", async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    await withAnotherGateway({ CONTACTS_READS: 'proxy' }, async (postEvent) => {
      const before = await queueOutcomes();
      const email = `proxied.${randomBytes(3).toString('hex')}@example.test`;
      expect((await postEvent(key, { event: 'signup', email })).status).toBe(202);
      await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
      expect(await contactOf(key, email)).toMatchObject({ email, source: 'event' });
      expect((await queueOutcomes()).automationQueued).toBe(before.automationQueued + 1);
    });
  });

  it("answers 503 with Retry-After, and publishes nothing, while contacts' database is not there", async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    await withAnotherGateway({ CONTACTS_DATABASE_URL: missingDatabaseUrl(product) }, async (postEvent, metrics) => {
      const before = await queueOutcomes();
      const email = `early.${randomBytes(3).toString('hex')}@example.test`;
      const response = await postEvent(key, { event: 'signup', email });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({ error: expect.any(String) });
      expect(metricValue(await metrics.metrics(), 'mailer_events_refused_total', { reason: 'dependency_unavailable' })).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await queueOutcomes()).toEqual(before);
      expect(await contactOf(key, email)).toBeUndefined();
      expect(product.smtp.messagesTo(email)).toEqual([]);
    });
  });
});

describe('product events enrolled by the gateway before the 202 (the default)', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  const runsOf = (accountId: number) => runsOfAccount(product, accountId);
  const loggedOutcomes = (accountId: number) => loggedOutcomesOf(product, accountId);
  /** Workflow emails a process sent (each counts its own). */
  const sentBy = async (metrics: Registry) => metricValue(await metrics.metrics(), 'mailer_emails_sent_total') ?? 0;
  const enrichedPublished = async () =>
    metricValue(await product.gateway.metrics.metrics(), 'mailer_messages_published_total', { type: productEventEnrichedV1.type, outcome: 'confirmed' }) ?? 0;

  it('has the contact and its enrolment committed when it answers 202, with no broker message, and sends once', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const before = { queues: await queueOutcomesOf(product), published: await enrichedPublished() };
    const email = `enrolled.${randomBytes(3).toString('hex')}@example.test`;
    expect((await product.sendEvent(key, { event: 'signup', email })).status).toBe(202);
    // No wait: the 202 came after the enrolment's commit.
    expect(await runsOf(accountId)).toBe(1);
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
    expect({ queues: await queueOutcomesOf(product), published: await enrichedPublished() }).toEqual(before);
  });

  it('enrols an event once when its enriched copy also comes through the queue', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const email = `copy.${randomBytes(3).toString('hex')}@example.test`;
    const accepted = await product.sendEvent(key, { event: 'signup', email });
    expect(accepted.status).toBe(202);
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    // The same event published enriched, as a gateway still on PRODUCT_EVENTS_ENROLLED_BY=automation would during an upgrade.
    const data = accepted.body.data as { id: string; received_at: string };
    const contact = ((await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email)}`)).body?.data as Array<{ id: number }>)[0]!;
    const enriched = {
      event_id: data.id,
      account_id: accountId,
      event: 'signup',
      email,
      properties: {},
      received_at: data.received_at,
      contact: { id: contact.id, email, first_name: null, last_name: null, subscribed: true, bounced: false, tags: [], custom_properties: {}, suppression: null },
    };
    const consumed = await settled(product.automation.metrics, QUEUES.automationContactEvents.name);
    await product.gateway.broker.publish(productEventEnrichedV1, enriched, loneEnrichedEventOptions(enriched));
    await waitFor(async () => ((await settled(product.automation.metrics, QUEUES.automationContactEvents.name)) > consumed ? true : undefined), {
      what: 'the enriched copy consumed',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
    expect(await runsOf(accountId)).toBe(1);
  });

  it('sends the first email from its own process: claimed by the enrolment, sent once, counted by the gateway', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const sentBefore = { gateway: await sentBy(product.gateway.metrics), automation: await sentBy(product.automation.metrics) };
    const email = `first.${randomBytes(3).toString('hex')}@example.test`;
    expect((await product.sendEvent(key, { event: 'signup', email })).status).toBe(202);
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    const [row] = await waitFor(async () => {
      // Claimed by the enrolment's own statement: the claim's time is the run's, one transaction's now().
      const { rows } = await product.automation.pool.query<{ state: string; attempts: number; claimed_at_enrolment: boolean }>(
        `SELECT s.state, s.attempts, s.claimed_at = r.created_at AS claimed_at_enrolment
           FROM sends s JOIN workflow_runs r ON r.id = s.run_id WHERE s.account_id = $1`,
        [accountId],
      );
      return rows[0]?.state === 'sent' ? rows : undefined;
    }, { what: 'the send recorded' });
    expect(row).toEqual({ state: 'sent', attempts: 1, claimed_at_enrolment: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
    expect(await sentBy(product.gateway.metrics)).toBe(sentBefore.gateway + 1);
    expect(await sentBy(product.automation.metrics)).toBe(sentBefore.automation);
  });

  it('sends the first email once with two automation instances woken by the same enrolment (FIRST_EMAILS_SENT_BY=automation)', async () => {
    await withSecondAutomation(product, async (second) => {
      await withGatewayOf(product, { FIRST_EMAILS_SENT_BY: 'automation' }, async (postEvent) => {
        const { accountId, key } = await product.anAccountWithKey();
        await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
        const sentBefore = (await sentBy(product.automation.metrics)) + (await sentBy(second.metrics));
        const emails = Array.from({ length: 20 }, (_, n) => `woken${n}.${randomBytes(3).toString('hex')}@example.test`);
        for (const email of emails) expect((await postEvent(key, { event: 'signup', email })).status).toBe(202);
        for (const email of emails) {
          await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: `the welcome email to ${email}` });
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(emails.map((email) => product.smtp.messagesTo(email).length)).toEqual(emails.map(() => 1));
        // Both schedulers heard every enrolment; whichever claimed an email sent it, and no email was sent by both.
        expect((await sentBy(product.automation.metrics)) + (await sentBy(second.metrics)) - sentBefore).toBe(emails.length);
      });
    });
  });

  it("leaves a first email its SMTP server refused at the gateway to automation's retry, which sends it once", async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const email = `refused.${randomBytes(3).toString('hex')}@example.test`;
    // Nothing listens there: the gateway's attempt fails as a transient SMTP failure.
    const closed = await closedPort();
    const sentBefore = await sentBy(product.automation.metrics);
    await withGatewayOf(product, { SMTP_URL: `smtp://127.0.0.1:${closed}`, SMTP_TIMEOUT_MS: '2000' }, async (postEvent, metrics) => {
      expect((await postEvent(key, { event: 'signup', email })).status).toBe(202);
      await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 20_000, what: 'the welcome email, retried' });
      expect(metricValue(await metrics.metrics(), 'mailer_emails_failed_total', { reason: 'transient' })).toBe(1);
    });
    const { rows } = await product.automation.pool.query<{ state: string; attempts: number }>('SELECT state, attempts FROM sends WHERE account_id = $1', [accountId]);
    expect(rows).toEqual([{ state: 'sent', attempts: 2 }]);
    expect(await sentBy(product.automation.metrics)).toBe(sentBefore + 1);
    expect(await loggedOutcomes(accountId)).toEqual(expect.arrayContaining(['retry_scheduled', 'sent']));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
  });

  it('has automation send a first email once when the gateway that claimed it stalls past the lease, with the same Message-ID', async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    const email = `stalled.${randomBytes(3).toString('hex')}@example.test`;
    // An SMTP server that accepts the connection and never greets: the gateway's send hangs after its claim.
    const sentBefore = await sentBy(product.automation.metrics);
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      await withGatewayOf(product, { SMTP_URL: `smtp://127.0.0.1:${port}`, SEND_LEASE_MS: '1000', SMTP_TIMEOUT_MS: '4000' }, async (postEvent) => {
        expect((await postEvent(key, { event: 'signup', email })).status).toBe(202);
        await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email, reclaimed' });
        // The gateway's own attempt times out meanwhile; its outcome must not overwrite the one recorded.
      });
    } finally {
      silent.close();
    }
    const { rows } = await product.automation.pool.query<{ state: string; message_id: string }>('SELECT state, message_id FROM sends WHERE account_id = $1', [
      accountId,
    ]);
    expect(rows).toEqual([{ state: 'sent', message_id: expect.any(String) }]);
    expect(await sentBy(product.automation.metrics)).toBe(sentBefore + 1);
    expect(await loggedOutcomes(accountId)).toEqual(expect.arrayContaining(['reconciled', 'sent']));
    const received = product.smtp.messagesTo(email);
    expect(received).toHaveLength(1);
    expect(received[0]?.headers.get('message-id')).toBe(rows[0]?.message_id);
  });

  it("answers 503 with Retry-After while automation's database is not there, accepts events no workflow listens to, and a retry sends once", async () => {
    const { accountId, key } = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, accountId, [welcome]);
    await product.automation.triggerRouting.reconcile();
    const email = `later.${randomBytes(3).toString('hex')}@example.test`;
    await withGatewayOf(product, { AUTOMATION_DATABASE_URL: missingDatabaseUrl(product) }, async (postEvent, metrics) => {
      const response = await postEvent(key, { event: 'signup', email });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({ error: expect.any(String) });
      expect(metricValue(await metrics.metrics(), 'mailer_events_refused_total', { reason: 'dependency_unavailable' })).toBe(1);
      // An event no enabled workflow triggers on needs nothing of automation.
      expect((await postEvent(key, { event: 'page_view', email })).status).toBe(202);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toEqual([]);
    expect(await runsOf(accountId)).toBe(0);

    // The client's retry, once automation's database is there: enrolled and sent, once.
    expect((await product.sendEvent(key, { event: 'signup', email })).status).toBe(202);
    await waitFor(() => (product.smtp.messagesTo(email).length > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the welcome email' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(product.smtp.messagesTo(email)).toHaveLength(1);
  });
});
