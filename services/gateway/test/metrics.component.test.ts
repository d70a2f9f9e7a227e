import { metricValue, scrapeMetrics, startPrivateRedis } from '@mailer/testing';
import { generateKey, keyWithParts } from '../src/domain/api-key-format';
import { aKey } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import { expectNoKeyInLogs, headersFor, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';
import { postSignIn } from './support/sign-in-client';

const METRICS_TOKEN = 'metrics-token-for-the-test-0123';

describe('gateway /metrics', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    redis = await startPrivateRedis();
    gateway = await startGateway({
      CONTACTS_SERVICE_URL: upstream.url,
      RATE_LIMIT_KEY_PER_MIN: '3',
      AUTH_FAIL_LIMIT: '3',
      METRICS_TOKEN,
    });
  });
  afterAll(async () => {
    await stopGateways();
    await redis.stop();
    await upstream.close();
    expectNoKeyInLogs();
  });

  const get = (base: string, key: string | undefined, ip: string) =>
    fetch(`${base}/api/v1/contacts`, { headers: headersFor(key, ip) });

  it('counts requests by route and status, limiter decisions per window, auth failures by reason and IP blocks', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const keyIp = uniqueIp();
    for (let i = 0; i < 3; i++) expect((await get(gateway.url, plaintext, keyIp)).status).toBe(200);
    expect((await get(gateway.url, plaintext, keyIp)).status).toBe(429);

    // Four failures of different kinds from one address: the fourth crosses AUTH_FAIL_LIMIT=3.
    const attacker = uniqueIp();
    const known = await aKey(gateway.pool);
    const wrongSecret = keyWithParts(known.record.keyId, generateKey().secret);
    for (const key of [undefined, 'mk_live_nonsense', generateKey().plaintext, wrongSecret]) {
      expect((await get(gateway.url, key, attacker)).status).toBe(401);
    }
    expect((await get(gateway.url, plaintext, attacker)).status).toBe(429);
    const expired = await aKey(gateway.pool, { expiresOn: '2020-01-01' });
    expect((await get(gateway.url, expired.plaintext, uniqueIp())).status).toBe(401);
    const free = await aKey(gateway.pool, { plan: 'free' });
    expect((await get(gateway.url, free.plaintext, uniqueIp())).status).toBe(403);

    const text = await scrapeMetrics(gateway.url);
    const route = { method: 'GET', route: '/api/v1/contacts' };
    expect(metricValue(text, 'http_requests_total', { ...route, status: '200' })).toBe(3);
    expect(metricValue(text, 'http_request_duration_seconds_count', { ...route, status: '200' })).toBe(3);
    expect(metricValue(text, 'http_requests_total', { method: 'GET', route: '/api/v1', status: '401' })).toBe(5);
    // The free-plan key is a valid key: charged (key_minute nearest to exhaustion) before the plan refuses it.
    expect(metricValue(text, 'mailer_rate_limit_decisions_total', { decision: 'allowed', limit: 'key_minute' })).toBe(4);
    // Failed authentications are charged to the IP window only: four from the attacker, one expired key.
    expect(metricValue(text, 'mailer_rate_limit_decisions_total', { decision: 'allowed', limit: 'ip_minute' })).toBe(5);
    expect(metricValue(text, 'mailer_rate_limit_decisions_total', { decision: 'limited', limit: 'key_minute' })).toBe(1);
    for (const reason of ['missing', 'malformed', 'unknown', 'wrong_secret', 'expired', 'plan']) {
      expect([reason, metricValue(text, 'mailer_auth_failures_total', { reason })]).toEqual([reason, 1]);
    }
    expect(metricValue(text, 'mailer_auth_ip_blocks_total')).toBe(1);
    expect(metricValue(text, 'mailer_auth_blocked_requests_total')).toBe(1);
    expect(metricValue(text, 'mailer_rate_limit_fallback_total')).toBe(0);
    expect(text).not.toContain(plaintext);
  });

  it('counts decisions of the fallback limiter while Redis is down, on that instance only', async () => {
    const degraded = await startGateway({ CONTACTS_SERVICE_URL: upstream.url, REDIS_URL: redis.url });
    const { plaintext } = await aKey(degraded.pool);
    await redis.kill9();
    for (let i = 0; i < 2; i++) expect((await get(degraded.url, plaintext, uniqueIp())).status).toBe(200);
    expect(metricValue(await scrapeMetrics(degraded.url), 'mailer_rate_limit_fallback_total')).toBe(2);
    expect(metricValue(await scrapeMetrics(gateway.url), 'mailer_rate_limit_fallback_total')).toBe(0);
    await redis.restart();
  });

  it('counts a refused sign-in of the account app (checked by the gateway) as an auth failure with reason signin', async () => {
    const ip = uniqueIp();
    const before = metricValue(await scrapeMetrics(gateway.url), 'mailer_auth_failures_total', { reason: 'signin' }) ?? 0;
    const refused = await postSignIn(gateway.internalUrl, { email: `nobody-${ip}@example.test`, password: 'wrong password', ip });
    expect(refused.status).toBe(401);
    expect(metricValue(await scrapeMetrics(gateway.url), 'mailer_auth_failures_total', { reason: 'signin' })).toBe(before + 1);
  });

  it('serves /metrics to loopback and to the METRICS_TOKEN bearer, and 404 to anyone else', async () => {
    const metrics = (headers: Record<string, string>) => fetch(`${gateway.url}/metrics`, { headers });
    const loopback = await metrics({});
    expect(loopback.status).toBe(200);
    expect(loopback.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await metrics({ 'x-forwarded-for': uniqueIp() })).status).toBe(404);
    expect((await metrics({ 'x-forwarded-for': uniqueIp(), authorization: 'Bearer wrong-token-of-some-length' })).status).toBe(404);
    const withToken = await metrics({ 'x-forwarded-for': uniqueIp(), authorization: `Bearer ${METRICS_TOKEN}` });
    expect(withToken.status).toBe(200);
    expect(await withToken.text()).toContain('http_requests_total');
  });
});
