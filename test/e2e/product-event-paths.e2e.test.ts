import { randomBytes, randomUUID } from 'node:crypto';
import {
  Broker,
  createLogger,
  loneEnrichedEventOptions,
  loneProductEventOptions,
  productEventEnrichedV1,
  productEventReceivedV1,
  QUEUES,
  type MessageOf,
} from '@mailer/shared';
import { metricValue, serviceTestEnv, waitFor } from '@mailer/shared/testing';
import type { Registry } from 'prom-client';
import { loadAutomationConfig } from '../../services/automation/src/config';
import { startAutomationService } from '../../services/automation/src/automation-service';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { loadContactsConfig } from '../../services/contacts/src/config';
import { startContactsService } from '../../services/contacts/src/contacts-service';
import { startProduct, type Product } from './stack-harness';

/**
 * The product events' contacts upserted in automation's process (`PRODUCT_EVENTS_UPSERTED_BY`,
 * default `automation`): one enrolment per event whichever way it comes, nothing in automation for
 * an event no workflow listens to, and no event lost while contacts' database is not there yet.
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

describe('product events upserted where they are consumed (automation)', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  const inboxRows = async (key: string) =>
    (await product.automation.pool.query('SELECT 1 FROM processed_messages WHERE message_id = $1', [key])).rowCount;
  // Each test has an account of its own, with one contact in it.
  const runsOf = async (accountId: number) =>
    (await product.automation.pool.query<{ count: number }>('SELECT count(*) FROM workflow_runs WHERE account_id = $1', [accountId])).rows[0]?.count;

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
    const second = await startAutomationService(loadAutomationConfig({ ...product.env, PORT: '0' }), createLogger('automation', { level: 'silent' }));
    try {
      await second.broker.ready();
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
    } finally {
      await second.stop();
    }
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
