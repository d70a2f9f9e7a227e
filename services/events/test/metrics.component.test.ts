import { productEventReceivedV1 } from '@mailer/shared';
import { metricValue, scrapeMetrics, waitFor } from '@mailer/testing';
import { newAccountId, startEventsHarnessWithCuttableBroker } from './support/events-harness';

describe('GET /metrics of the events service', () => {
  it('counts accepted events (replays apart) and refusals by reason, requests by route, confirmed publishes', async () => {
    const { harness, proxy, stop } = await startEventsHarnessWithCuttableBroker();
    const account = newAccountId();
    const event = (n: number) => ({ event: 'signup', email: `metrics-${n}@example.test` });
    try {
      expect((await harness.post(account, event(1))).status).toBe(202);
      expect((await harness.post(account, event(2))).status).toBe(202);
      const keyed = { 'idempotency-key': `metrics-${account}` };
      expect((await harness.post(account, event(3), keyed)).status).toBe(202);
      const replay = await harness.post(account, event(3), keyed);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect((await harness.post(account, { event: '', email: 'not-an-address' })).status).toBe(422);
      expect((await harness.post(account, { ...event(4), properties: { blob: 'x'.repeat(70_000) } })).status).toBe(413);

      proxy.cut();
      await waitFor(() => (harness.service.broker.isConnected() ? undefined : true), { what: 'broker disconnect' });
      expect((await harness.post(account, event(5))).status).toBe(503);

      const text = await scrapeMetrics(harness.service.url);
      expect(metricValue(text, 'mailer_events_accepted_total', { replayed: 'false' })).toBe(3);
      expect(metricValue(text, 'mailer_events_accepted_total', { replayed: 'true' })).toBe(1);
      expect(metricValue(text, 'mailer_events_refused_total', { reason: 'invalid' })).toBe(1);
      expect(metricValue(text, 'mailer_events_refused_total', { reason: 'too_large' })).toBe(1);
      expect(metricValue(text, 'mailer_events_refused_total', { reason: 'broker_unavailable' })).toBe(1);
      const route = { method: 'POST', route: '/v1/events' };
      expect(metricValue(text, 'http_requests_total', { ...route, status: '202' })).toBe(4);
      expect(metricValue(text, 'http_request_duration_seconds_count', { ...route, status: '202' })).toBe(4);
      expect(metricValue(text, 'http_requests_total', { ...route, status: '422' })).toBe(1);
      expect(metricValue(text, 'http_requests_total', { ...route, status: '503' })).toBe(1);
      expect(
        metricValue(text, 'mailer_messages_published_total', { type: productEventReceivedV1.type, outcome: 'confirmed' }),
      ).toBe(3);
      expect(text).toMatch(/^process_cpu_seconds_total\{service="events"\} /m);
    } finally {
      await stop();
    }
  }, 60_000);
});
