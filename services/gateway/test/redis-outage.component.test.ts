import { waitFor, startPrivateRedis } from '@mailer/testing';
import { redisReady } from '@mailer/shared';
import { markRevokedInRedis } from '../src/data-access/revocation-marker';
import { revokeApiKey } from '../src/domain/manage-api-keys';
import { aKey } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import {
  capturedLogs,
  expectNoKeyInLogs,
  headersFor,
  rateHeaders,
  startGateway,
  stopGateways,
  uniqueIp,
} from './support/gateway-harness';

describe('when Redis goes down', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    await stopGateways();
    await redis.stop();
    await upstream.close();
    expectNoKeyInLogs();
  });

  it('keeps serving with the per-process limiter, reports not ready, logs loudly, never answers 500', async () => {
    const gateway = await startGateway({ CONTACTS_SERVICE_URL: upstream.url, REDIS_URL: redis.url, RATE_LIMIT_IP_PER_MIN: '20' });
    await redisReady(gateway.redis);
    const { plaintext } = await aKey(gateway.pool);
    const revokedLater = await aKey(gateway.pool);
    const get = (key: string | undefined, ip: string) => fetch(`${gateway.url}/api/v1/contacts`, { headers: headersFor(key, ip) });
    for (const key of [plaintext, revokedLater.plaintext]) expect((await get(key, uniqueIp())).status).toBe(200);
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);

    await redis.kill9();

    const ip = uniqueIp();
    const during = [];
    for (let i = 0; i < 21; i++) during.push(await get(plaintext, ip));
    expect(during.slice(0, 20).map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(during.map(rateHeaders).slice(0, 20).map((h) => h.remaining)).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
    // The per-process limiter still enforces the IP limit.
    expect(during[20]!.status).toBe(429);
    expect((await get(undefined, uniqueIp())).status).toBe(401);

    const readiness = await fetch(`${gateway.url}/readyz`);
    expect(readiness.status).toBe(503);
    const body = (await readiness.json()) as { checks: Record<string, string> };
    expect(body.checks.postgres).toBe('ok');
    expect(body.checks.redis).not.toBe('ok');
    const loud = capturedLogs.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(loud.some((line) => line.level >= 50 && line.msg.includes('RATE LIMITER DEGRADED'))).toBe(true);

    // A revocation made while Redis is away still applies at once: cached rows are not trusted.
    await revokeApiKey(
      { pool: gateway.pool, announceRevocation: (keyId) => markRevokedInRedis(gateway.redis, keyId).catch(() => undefined) },
      revokedLater.record.id,
    );
    expect((await get(revokedLater.plaintext, uniqueIp())).status).toBe(401);

    await redis.restart();
    await waitFor(async () => ((await fetch(`${gateway.url}/readyz`)).status === 200 ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 200,
      what: 'readiness after Redis came back',
    });
    const after = await get(plaintext, uniqueIp());
    expect(after.status).toBe(200);
    expect(rateHeaders(after).remaining).toBe(19);
  });
});
