import { newAccountId, startEventsHarnessWithCuttableBroker } from './support/events-harness';

describe('POST /v1/events under load', () => {
  it('publishes the events accepted while a confirm is awaited in one message, each answered 202 once it is confirmed', async () => {
    const { harness, proxy, stop } = await startEventsHarnessWithCuttableBroker();
    const account = newAccountId();
    try {
      await harness.settle();
      const messagesBefore = harness.eventsPerMessage.length;
      // Every frame to and from the broker now takes 300 ms: the first publish's confirm is away
      // long enough for the other nine requests to arrive behind it.
      proxy.fault({ kind: 'latency', ms: 300 });
      const first = harness.post(account, { event: 'page_view', email: 'first@example.test', properties: { n: 0 } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const rest = Array.from({ length: 9 }, (_, index) =>
        harness.post(account, { event: 'page_view', email: `user${index + 1}@example.test`, properties: { n: index + 1 } }),
      );
      const responses = await Promise.all([first, ...rest]);
      expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202));
      const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as { data: { id: string } }).data.id));
      proxy.fault({ kind: 'none' });
      await harness.settle();

      // Ten events in two messages (the sentinel's is a third), each event once, as accepted.
      expect(harness.eventsPerMessage.slice(messagesBefore)).toEqual([1, 9, 1]);
      const mine = harness.publishedFor(account);
      expect(mine.map((event) => event.event_id).sort()).toEqual([...ids].sort());
      expect(mine.map((event) => event.properties.n).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const event of mine) expect(event).toMatchObject({ account_id: account, event: 'page_view', request_id: expect.any(String) });
    } finally {
      await stop();
    }
  }, 60_000);
});
