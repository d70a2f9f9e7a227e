import { randomUUID } from 'node:crypto';
import { QUEUES } from '@mailer/shared';
import { metricValue, scrapeMetrics, waitFor } from '@mailer/testing';
import { brokerProbe } from './support/broker-probe';
import { newAccountId, startContactsForTest, uniqueEmail, type ContactsTestService } from './support/contacts-test-service';

let service: ContactsTestService;
let probe: Awaited<ReturnType<typeof brokerProbe>>;
beforeAll(async () => {
  service = await startContactsForTest();
  probe = await brokerProbe(service.config.BROKER_NAMESPACE, []);
});
afterAll(async () => {
  await probe.close();
  await service.stop();
});

const scrape = () => scrapeMetrics(service.url);

describe('contacts /metrics', () => {
  it('counts domain checks by outcome and source, times DNS lookups, and counts requests by route', async () => {
    const account = newAccountId();
    const first = uniqueEmail('mx.test');
    const sameDomain = `other@${first.split('@')[1]}`;
    expect((await service.api.create(account, { email: first })).status).toBe(201);
    expect((await service.api.create(account, { email: sameDomain })).status).toBe(201);
    expect((await service.api.create(account, { email: uniqueEmail('missing.test') })).status).toBe(422);
    expect((await service.api.create(account, { email: uniqueEmail('slow.test') })).status).toBe(422);
    expect((await service.api.create(account, { email: `someone-${randomUUID()}@mailinator.com` })).status).toBe(422);

    const text = await scrape();
    expect(metricValue(text, 'mailer_dns_validations_total', { outcome: 'ok', source: 'dns' })).toBe(1);
    expect(metricValue(text, 'mailer_dns_validations_total', { outcome: 'ok', source: 'cache' })).toBe(1);
    expect(metricValue(text, 'mailer_dns_validations_total', { outcome: 'no_mx', source: 'dns' })).toBe(1);
    expect(metricValue(text, 'mailer_dns_validations_total', { outcome: 'dns_timeout', source: 'dns' })).toBe(1);
    expect(metricValue(text, 'mailer_dns_validations_total', { outcome: 'disposable', source: 'list' })).toBe(1);
    expect(metricValue(text, 'mailer_dns_lookup_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    // The timeout took about DNS_TIMEOUT_MS (500 ms): it lands in the 0.5 s bucket or the next, never the 0.1 s one.
    expect(metricValue(text, 'mailer_dns_lookup_duration_seconds_bucket', { outcome: 'dns_timeout', le: '0.1' })).toBe(0);
    expect(metricValue(text, 'mailer_dns_lookup_duration_seconds_bucket', { outcome: 'dns_timeout', le: '1' })).toBe(1);
    const route = { method: 'POST', route: '/api/v1/contacts' };
    expect(metricValue(text, 'http_requests_total', { ...route, status: '201' })).toBe(2);
    expect(metricValue(text, 'http_requests_total', { ...route, status: '422' })).toBe(3);
    expect(metricValue(text, 'http_request_duration_seconds_count', { ...route, status: '422' })).toBe(3);
  });

  it('counts consumed messages by queue and outcome: ack and dead-letter', async () => {
    const account = newAccountId();
    const contact = (await service.api.create(account, { email: uniqueEmail('mx.test') })).body.data;
    const queue = QUEUES.contactsBounces.name;
    const settled = (messageId: string) =>
      waitFor(() => service.outcomes.find((o) => o.messageId === messageId && o.outcome !== 'requeue'), { what: messageId });
    const bounce = { account_id: account, email: contact.email.toLowerCase(), reason: '550 no such user', occurred_at: new Date().toISOString() };
    const good = randomUUID();
    await probe.publish('contact.bounced.v1', bounce, good);
    await settled(good);
    const poison = randomUUID();
    await probe.publish('contact.bounced.v1', { not: 'a bounce' }, poison);
    await settled(poison);

    const text = await scrape();
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'ack' })).toBe(1);
    expect(metricValue(text, 'mailer_queue_messages_total', { queue, outcome: 'dead-letter' })).toBe(1);
    expect(metricValue(text, 'mailer_queue_handler_duration_seconds_count', { queue, outcome: 'ack' })).toBe(1);
  });

  it('reports the age of the oldest unpublished outbox row, and 0 once the relay caught up', async () => {
    await waitFor(async () => (metricValue(await scrape(), 'mailer_outbox_oldest_pending_age_seconds') === 0 ? true : undefined), {
      what: 'an empty outbox',
    });
    await service.relay.stop();
    expect((await service.api.create(newAccountId(), { email: uniqueEmail('mx.test') })).status).toBe(201);
    const age = await waitFor(async () => {
      const value = metricValue(await scrape(), 'mailer_outbox_oldest_pending_age_seconds');
      return value !== undefined && value >= 1 ? value : undefined;
    }, { what: 'a pending row at least a second old' });
    expect(age).toBeLessThan(30);
  });
});
