import { randomUUID } from 'node:crypto';
import { Broker, createLogger, productEventReceivedV1, productEventsReceivedV1, QUEUES, type MessageOf } from '@mailer/shared';
import { serviceTestEnv, startDnsTestServer, startTcpProxy, testServers, waitFor } from '@mailer/shared/testing';
import { aKey } from './factories';
import { startGateway, uniqueIp, type Gateway } from './gateway-harness';

export type ReceivedEvent = MessageOf<typeof productEventReceivedV1>;

/** An account with a key, as a client of the events listener holds it. */
export interface EventsClient {
  accountId: number;
  key: string;
}

const silent = createLogger('events-test', { level: 'silent' });

/** Plain strings for `startGateway`, which takes overrides rather than a whole environment. */
const definedOnly = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));

/**
 * A gateway whose events listener ingests, plus a consumer on the queue the contacts service reads,
 * in one broker namespace, with a loopback DNS server answering the fixture zones (example.test has
 * MX, missing.test is NXDOMAIN). Limits are raised: these tests count events, not requests.
 */
export async function startEventsHarness(overrides: Record<string, string> = {}) {
  const dns = await startDnsTestServer();
  const env = serviceTestEnv({
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '500',
    RATE_LIMIT_KEY_PER_MIN: '1000000',
    RATE_LIMIT_KEY_PER_HOUR: '1000000',
    RATE_LIMIT_IP_PER_MIN: '1000000',
    // The queue these tests observe: the gateway's own upserts are the e2e suite's (product-event-paths).
    PRODUCT_EVENTS_UPSERTED_BY: 'automation',
    ...overrides,
  });
  const gateway = await startGateway(definedOnly(env));
  // The observer talks to the real broker even when the gateway is given a cuttable proxy.
  const observer = Broker.start({ url: testServers().amqpUrl, namespace: env.BROKER_NAMESPACE!, logger: silent, connectionName: 'events-test' });
  const published: ReceivedEvent[] = [];
  /** How many events each message held, in arrival order. */
  const eventsPerMessage: number[] = [];
  observer.consume({
    queue: QUEUES.contactsProductEvents.name,
    contracts: [productEventReceivedV1, productEventsReceivedV1],
    // Events accepted together arrive in one message: counted one by one all the same.
    handle: async (message) => {
      const events = 'events' in message.payload ? message.payload.events : [message.payload];
      published.push(...events);
      eventsPerMessage.push(events.length);
    },
  });
  await Promise.all([observer.ready(), gateway.broker.ready()]);

  /** A new pro account and its key. */
  const client = async (): Promise<EventsClient> => {
    const { accountId, plaintext } = await aKey(gateway.pool);
    return { accountId, key: plaintext };
  };
  const sentinelClient = await client();
  // One client address of its own: the per-address window in Redis is shared by every gateway of
  // the run, and these tests send far more than another test's gateway allows one address.
  const clientIp = uniqueIp();
  /** What a client of `from` sends with every request. */
  const headersOf = (from: EventsClient): Record<string, string> => ({ authorization: `Bearer ${from.key}`, 'x-forwarded-for': clientIp });

  /** `baseUrl`: another gateway's events listener (this one's by default). */
  const post = (from: EventsClient, body: unknown, headers: Record<string, string> = {}, requestId: string = randomUUID(), baseUrl = gateway.eventsUrl) =>
    fetch(`${baseUrl}/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(from), 'x-request-id': requestId, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  /**
   * Publishes a sentinel event and waits for it: events published before it (on this gateway's one
   * channel) have arrived by then, so counting them afterwards proves nothing more was published.
   */
  const settle = async () => {
    const response = await post(sentinelClient, { event: 'sentinel', email: 'sentinel@example.test' });
    const { data } = (await response.json()) as { data: { id: string } };
    await waitFor(() => (published.some((event) => event.event_id === data.id) ? true : undefined), { what: 'sentinel' });
  };

  return {
    env,
    gateway,
    published,
    eventsPerMessage,
    client,
    headersOf,
    post,
    settle,
    /** A second gateway on the same servers and namespace: a competing instance. */
    anotherGateway: () => startGateway(definedOnly(env)),
    publishedFor: (from: EventsClient) => published.filter((event) => event.account_id === from.accountId && event.event !== 'sentinel'),
    dns,
    stop: async () => {
      await observer.close();
      await gateway.stop();
      await dns.close();
    },
  };
}

export type EventsHarness = Awaited<ReturnType<typeof startEventsHarness>>;

/** The harness with the gateway's broker connection through a TCP proxy a test can cut and resume. */
export async function startEventsHarnessWithCuttableBroker() {
  const amqp = new URL(testServers().amqpUrl);
  const proxy = await startTcpProxy({ host: amqp.hostname, port: Number(amqp.port || 5672) });
  amqp.hostname = '127.0.0.1';
  amqp.port = String(proxy.port);
  const harness = await startEventsHarness({ AMQP_URL: amqp.toString() });
  return {
    harness,
    proxy,
    stop: async () => {
      proxy.resume();
      await harness.stop();
      await proxy.close();
    },
  };
}
export type { Gateway };
