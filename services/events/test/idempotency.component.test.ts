import { randomUUID } from 'node:crypto';
import { startTcpProxy, testServers } from '@mailer/testing';
import { newAccountId, startEventsHarness, type EventsHarness } from './support/events-harness';

describe('POST /v1/events with Idempotency-Key', () => {
  let harness: EventsHarness;
  beforeAll(async () => {
    harness = await startEventsHarness();
  });
  afterAll(async () => harness.stop());

  const body = { event: 'signup', email: 'idem@example.test', properties: { plan: 'trial' } };

  it('replays the first answer to a sequential retry and publishes the event once', async () => {
    const account = newAccountId();
    const key = randomUUID();
    const first = await harness.post(account, body, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    const firstBody = await first.json();
    for (let i = 0; i < 3; i++) {
      const retry = await harness.post(account, { ...body, properties: { plan: 'trial' } }, { 'idempotency-key': key });
      expect(retry.status).toBe(202);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await retry.json()).toEqual(firstBody);
    }
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(1);
  });

  it('gives concurrent duplicates one answer and publishes once', async () => {
    const account = newAccountId();
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 8 }, () => harness.post(account, body, { 'idempotency-key': key })));
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(202));
    const ids = new Set(await Promise.all(responses.map(async (response) => ((await response.json()) as { data: { id: string } }).data.id)));
    expect(ids.size).toBe(1);
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(1);
  });

  it('gives concurrent duplicates spread over two competing instances one answer and publishes once', async () => {
    const second = await harness.anotherInstance();
    const account = newAccountId();
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => harness.post(account, body, { 'idempotency-key': key }, undefined, i % 2 === 0 ? harness.service.url : second.url)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(202));
    const ids = new Set(await Promise.all(responses.map(async (response) => ((await response.json()) as { data: { id: string } }).data.id)));
    expect(ids.size).toBe(1);
    await harness.settle();
    expect(harness.publishedFor(account)).toHaveLength(1);
  });

  it('keeps keys apart per account, and refuses a reused key with another body with 422', async () => {
    const [accountA, accountB] = [newAccountId(), newAccountId()];
    const key = randomUUID();
    expect((await harness.post(accountA, body, { 'idempotency-key': key })).status).toBe(202);
    expect((await harness.post(accountB, body, { 'idempotency-key': key })).status).toBe(202);
    const other = await harness.post(accountA, { ...body, event: 'other' }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ errors: [expect.stringMatching(/Idempotency-Key/)] });
    await harness.settle();
    expect(harness.publishedFor(accountA)).toHaveLength(1);
    expect(harness.publishedFor(accountB)).toHaveLength(1);
  });

  it('answers 400 for an unusable key', async () => {
    const response = await harness.post(newAccountId(), body, { 'idempotency-key': 'x'.repeat(256) });
    expect(response.status).toBe(400);
  });

  it('still accepts events when Redis is unreachable (without the replay guarantee)', async () => {
    const redisUrl = new URL(testServers().redisUrl);
    const proxy = await startTcpProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
    proxy.cut();
    redisUrl.hostname = '127.0.0.1';
    redisUrl.port = String(proxy.port);
    const noRedis = await startEventsHarness({ REDIS_URL: redisUrl.toString() });
    try {
      const response = await noRedis.post(newAccountId(), body, { 'idempotency-key': randomUUID() });
      expect(response.status).toBe(202);
    } finally {
      await noRedis.stop();
      await proxy.close();
    }
  });
});
