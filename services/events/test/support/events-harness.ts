import { randomUUID } from 'node:crypto';
import { Broker, createLogger, IDENTITY_HEADER, productEventReceivedV1, QUEUES, signIdentity, type MessageOf } from '@mailer/shared';
import { serviceTestEnv, startDnsTestServer, TEST_SIGNING_SECRET, testServers, waitFor } from '@mailer/shared/testing';
import { loadEventsConfig } from '../../src/config';
import { startEventsService } from '../../src/events-service';

export type ReceivedEvent = MessageOf<typeof productEventReceivedV1>;

const silent = createLogger('events-test', { level: 'silent' });

let nextAccount = Math.floor(Math.random() * 1_000_000) + 1000;
export const newAccountId = () => nextAccount++;

/**
 * An events service plus a consumer on the queue the contacts service reads, in one namespace, with
 * a loopback DNS server answering the fixture zones (example.test has MX, missing.test is NXDOMAIN).
 */
export async function startHarness(overrides: Record<string, string> = {}) {
  const dns = await startDnsTestServer();
  const env = serviceTestEnv({ DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: '500', ...overrides });
  const service = await startEventsService(loadEventsConfig(env), silent);
  // The observer talks to the real broker even when the service is given a cuttable proxy.
  const observer = Broker.start({ url: testServers().amqpUrl, namespace: env.BROKER_NAMESPACE!, logger: silent, connectionName: 'events-test' });
  const published: ReceivedEvent[] = [];
  observer.consume({
    queue: QUEUES.contactsProductEvents.name,
    contracts: [productEventReceivedV1],
    handle: async (message) => {
      published.push(message.payload);
    },
  });
  await Promise.all([observer.ready(), service.broker.ready()]);

  /** `baseUrl`: another instance of the service (this one by default). */
  const post = (accountId: number, body: unknown, headers: Record<string, string> = {}, requestId: string = randomUUID(), baseUrl = service.url) => {
    const sent = typeof body === 'string' ? body : JSON.stringify(body);
    return fetch(`${baseUrl}/v1/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [IDENTITY_HEADER]: signIdentity({ accountId, requestId }, { method: 'POST', path: '/v1/events', body: Buffer.from(sent) }, TEST_SIGNING_SECRET),
        ...headers,
      },
      body: sent,
    });
  };

  /**
   * Publishes a sentinel event and waits for it: events published before it (by this one channel)
   * have arrived by then, so counting them afterwards proves nothing more was published.
   */
  const settle = async (accountId: number) => {
    const response = await post(accountId, { event: 'sentinel', email: 'sentinel@example.test' });
    const { data } = (await response.json()) as { data: { id: string } };
    await waitFor(() => (published.some((event) => event.event_id === data.id) ? true : undefined), { what: 'sentinel' });
  };

  return {
    env,
    service,
    published,
    post,
    settle,
    publishedFor: (accountId: number) => published.filter((event) => event.account_id === accountId && event.event !== 'sentinel'),
    dns,
    stop: async () => {
      await observer.close();
      await service.stop();
      await dns.close();
    },
  };
}
