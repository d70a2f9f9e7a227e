import { randomInt, randomUUID } from 'node:crypto';
import { Broker, createLogger, IDENTITY_HEADER, productEventReceivedV1, productEventsReceivedV1, QUEUES, signIdentity, type MessageOf } from '@mailer/shared';
import { serviceTestEnv, startDnsTestServer, startTcpProxy, TEST_SIGNING_SECRET, testServers, waitFor } from '@mailer/testing';
import { loadEventsConfig } from '../../src/config';
import { startEventsService } from '../../src/events-service';

export type ReceivedEvent = MessageOf<typeof productEventReceivedV1>;

const silent = createLogger('events-test', { level: 'silent' });

/** An account id no other test of the run uses (the gateway's accounts are its own business). */
export const newAccountId = () => randomInt(1_000_000, 2 ** 31 - 1);

/**
 * An events service, called as the gateway's proxy calls it (the identity signed for the exact
 * method, path and body), plus a consumer on the queue contacts reads, in one broker namespace,
 * with a loopback DNS server answering the fixture zones (example.test has MX, missing.test is
 * NXDOMAIN, empty.test has no record).
 */
export async function startEventsHarness(overrides: Record<string, string> = {}) {
  const dns = await startDnsTestServer();
  const env = serviceTestEnv({ DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: '500', ...overrides });
  const service = await startEventsService(loadEventsConfig(env), silent);
  // The observer talks to the real broker even when the service is given a cuttable proxy.
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
  await Promise.all([observer.ready(), service.broker.ready()]);
  const others: Array<{ stop(): Promise<void> }> = [];

  /** `baseUrl`: another instance of the service (this one by default). */
  const post = (accountId: number, body: unknown, headers: Record<string, string> = {}, requestId: string = randomUUID(), baseUrl = service.url) => {
    const sent = typeof body === 'string' ? body : JSON.stringify(body);
    return fetch(`${baseUrl}/v1/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-request-id': requestId,
        [IDENTITY_HEADER]: signIdentity({ accountId, requestId }, { method: 'POST', path: '/v1/events', body: Buffer.from(sent) }, TEST_SIGNING_SECRET),
        ...headers,
      },
      body: sent,
    });
  };

  const sentinelAccount = newAccountId();
  /**
   * Publishes a sentinel event and waits for it: events published before it (by this one channel)
   * have arrived by then, so counting them afterwards proves nothing more was published.
   */
  const settle = async () => {
    const response = await post(sentinelAccount, { event: 'sentinel', email: 'sentinel@example.test' });
    const { data } = (await response.json()) as { data: { id: string } };
    await waitFor(() => (published.some((event) => event.event_id === data.id) ? true : undefined), { what: 'sentinel' });
  };

  return {
    env,
    service,
    published,
    eventsPerMessage,
    post,
    settle,
    /** A second instance on the same servers and namespace: a competing replica. */
    anotherInstance: async () => {
      const other = await startEventsService(loadEventsConfig(env), silent);
      others.push(other);
      await other.broker.ready();
      return other;
    },
    publishedFor: (accountId: number) => published.filter((event) => event.account_id === accountId && event.event !== 'sentinel'),
    stop: async () => {
      await observer.close();
      await Promise.all([service, ...others].map((running) => running.stop()));
      await dns.close();
    },
  };
}

export type EventsHarness = Awaited<ReturnType<typeof startEventsHarness>>;

/** The harness with the service's broker connection through a TCP proxy a test can cut and resume. */
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
