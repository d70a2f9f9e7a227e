import { randomBytes } from 'node:crypto';
import { Broker, createLogger, loneProductEventOptions, productEventReceivedV1, type MessageOf } from '@mailer/shared';
import { startTcpProxy, testServers, waitFor, type TcpProxy } from '@mailer/testing';
import { importWorkflows } from '../../services/automation/src/domain/workflows/import-workflows';
import { startProduct, type Product } from './stack-harness';

/**
 * The one path of a product event: gateway (key, limits) -> events (validated, published with a
 * confirm before the 202) -> RabbitMQ -> contacts (contact upserted, event published enriched) ->
 * automation (enrolled once per contact, workflow and step; rendered; sent). Each consumer may be
 * down while events arrive: the broker keeps them, and nothing is lost or sent twice.
 */

const welcome = {
  name: 'Welcome',
  trigger: { event: 'signup' },
  transactional: false,
  fallbacks: { first_name: 'there' },
  steps: [{ id: 'welcome', type: 'email', subject: 'Welcome, {{ first_name }}!', html: '<p>Hi {{ first_name }}, from {{ company | default: "us" }}.</p>' }],
};

const addressesOf = (count: number, label: string) => Array.from({ length: count }, (_, index) => `${label}-${index}-${randomBytes(3).toString('hex')}@example.test`);

/** Waits until every address has one email, then a while longer, and returns each address's count. */
async function emailsPerAddress(product: Product, addresses: readonly string[]): Promise<number[]> {
  await waitFor(() => (addresses.every((address) => product.smtp.messagesTo(address).length > 0) ? true : undefined), {
    timeoutMs: 30_000,
    what: `an email to each of ${addresses.length} addresses`,
  });
  // A duplicate would come from a redelivery or a second claim: both happen within the lease, far below this wait.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return addresses.map((address) => product.smtp.messagesTo(address).length);
}

async function signUpAll(product: Product, key: string, addresses: readonly string[]): Promise<void> {
  for (const email of addresses) {
    const accepted = await product.sendEvent(key, { event: 'signup', email, properties: { first_name: 'Lin' } });
    expect(accepted.status).toBe(202);
  }
}

describe('a product event, through every service, to one email', () => {
  let product: Product;
  beforeAll(async () => {
    product = await startProduct();
  }, 60_000);
  afterAll(() => product?.stop());

  async function accountWithWelcome() {
    const account = await product.anAccountWithKey();
    await importWorkflows(product.automation.workflowWrites, account.accountId, [welcome]);
    return account;
  }

  it('reaches its personalised email once, with the fallback where a detail is missing, even when its message is delivered twice', async () => {
    const { key, accountId } = await accountWithWelcome();
    const [named, unnamed] = addressesOf(2, 'once');
    const accepted = await product.sendEvent(key, { event: 'signup', email: named, properties: { first_name: 'Ada', company: 'Acme' } });
    expect(accepted.status).toBe(202);
    await product.sendEvent(key, { event: 'signup', email: unnamed });
    expect(await emailsPerAddress(product, [named!, unnamed!])).toEqual([1, 1]);
    const [toAda] = product.smtp.messagesTo(named!);
    expect(toAda?.parsed.subject).toBe('Welcome, Ada!');
    expect(toAda?.parsed.html).toContain('Hi Ada, from Acme.');
    expect(product.smtp.messagesTo(unnamed!)[0]?.parsed.subject).toBe('Welcome, there!');

    // The broker delivers at least once: the same event again (same id) upserts and sends nothing new.
    const { data } = accepted.body as { data: { id: string; received_at: string } };
    const copy: MessageOf<typeof productEventReceivedV1> = {
      event_id: data.id,
      account_id: accountId,
      event: 'signup',
      email: named!,
      properties: { first_name: 'Ada', company: 'Acme' },
      received_at: data.received_at,
      request_id: 'redelivered',
    };
    const broker = Broker.start({ url: product.env.AMQP_URL!, namespace: product.env.BROKER_NAMESPACE, logger: createLogger('test', { level: 'silent' }), connectionName: 'test' });
    try {
      await broker.ready();
      await broker.publish(productEventReceivedV1, copy, loneProductEventOptions(copy));
    } finally {
      await broker.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(product.smtp.messagesTo(named!)).toHaveLength(1);
  }, 60_000);

  it('upserts the contact of an event no workflow listens to, and writes nothing in automation', async () => {
    const { key, accountId } = await product.anAccountWithKey();
    const [email] = addressesOf(1, 'unheard');
    expect((await product.sendEvent(key, { event: 'page_viewed', email, properties: { first_name: 'Mo' } })).status).toBe(202);
    const contact = await waitFor(async () => {
      const listed = await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(email!)}`);
      return (listed.body?.data as Array<Record<string, unknown>> | undefined)?.[0];
    }, { what: 'the upserted contact' });
    expect(contact).toMatchObject({ email, first_name: 'Mo', source: 'event', subscribed: true });
    const runs = await product.automation.pool.query('SELECT 1 FROM workflow_runs WHERE account_id = $1', [accountId]);
    expect(runs.rowCount).toBe(0);
  });

  it.each(['automation', 'contacts'] as const)('accepts events while %s is stopped, and sends each email once when it is back', async (service) => {
    const { key } = await accountWithWelcome();
    const addresses = addressesOf(5, `while-${service}-down`);
    const startAgain = await product.takeDown(service);
    try {
      await signUpAll(product, key, addresses);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(addresses.flatMap((address) => product.smtp.messagesTo(address))).toEqual([]);
    } finally {
      await startAgain();
    }
    expect(await emailsPerAddress(product, addresses)).toEqual(addresses.map(() => 1));
  }, 90_000);
});

describe('a product event while RabbitMQ cannot be reached', () => {
  let product: Product;
  let broker: TcpProxy;
  beforeAll(async () => {
    const amqp = new URL(testServers().amqpUrl);
    broker = await startTcpProxy({ host: amqp.hostname, port: Number(amqp.port || 5672) });
    const throughProxy = new URL(amqp);
    throughProxy.host = `127.0.0.1:${broker.port}`;
    product = await startProduct({ eventsEnv: { AMQP_URL: throughProxy.toString() } });
  }, 60_000);
  afterAll(async () => {
    await product?.stop();
    await broker?.close();
  });

  it('answers 503 with Retry-After and accepts nothing: no contact, no email, once the broker is back either', async () => {
    const { key } = await (async () => {
      const account = await product.anAccountWithKey();
      await importWorkflows(product.automation.workflowWrites, account.accountId, [welcome]);
      return account;
    })();
    const [refusedAddress, acceptedAddress] = addressesOf(2, 'broker');
    broker.cut();
    await waitFor(() => (product.events.broker.isConnected() ? undefined : true), { what: 'the events service losing the broker' });
    const refused = await product.sendEvent(key, { event: 'signup', email: refusedAddress });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    broker.resume();
    await waitFor(
      async () => ((await product.sendEvent(key, { event: 'signup', email: acceptedAddress })).status === 202 ? true : undefined),
      { timeoutMs: 20_000, intervalMs: 250, what: '202 once the broker is back' },
    );
    expect(await emailsPerAddress(product, [acceptedAddress!])).toEqual([1]);
    expect(product.smtp.messagesTo(refusedAddress!)).toEqual([]);
    const listed = await product.api(key, 'GET', `/contacts?q=${encodeURIComponent(refusedAddress!)}`);
    expect(listed.body?.data).toEqual([]);
  }, 60_000);
});
