import { waitFor } from '@mailer/testing';
import { newAccountId, startEventsHarnessWithCuttableBroker } from './support/events-harness';

describe('POST /v1/events while the broker is unreachable', () => {
  it('answers 503 with Retry-After (never 202), then 202 again once the broker is back, without a restart', async () => {
    const { harness, proxy, stop } = await startEventsHarnessWithCuttableBroker();
    const account = newAccountId();
    const event = { event: 'signup', email: 'outage@example.test' };
    try {
      expect((await harness.post(account, event)).status).toBe(202);

      proxy.cut();
      await waitFor(() => (harness.service.broker.isConnected() ? undefined : true), { what: 'broker disconnect' });
      const refused = await harness.post(account, event);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ error: expect.any(String) });
      // Not ready while it cannot publish: an orchestrator sends the events elsewhere.
      expect((await fetch(`${harness.service.url}/readyz`)).status).toBe(503);

      proxy.resume();
      const accepted = await waitFor(
        async () => {
          const response = await harness.post(account, event);
          return response.status === 202 ? response : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 250, what: '202 after the broker came back' },
      );
      const { data } = (await accepted.json()) as { data: { id: string } };
      await waitFor(() => harness.published.find((message) => message.event_id === data.id), { timeoutMs: 20_000 });
      // Only the two accepted events reached the queue: no 503 was stored behind the client's back.
      await harness.settle();
      expect(harness.publishedFor(account)).toHaveLength(2);
    } finally {
      await stop();
    }
  }, 60_000);
});
