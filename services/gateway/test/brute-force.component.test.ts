import { waitFor } from '@mailer/testing';
import { generateKey } from '../src/domain/api-key-format';
import { aKey } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import { expectNoKeyInLogs, headersFor, rateHeaders, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

describe('brute-force block', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ CONTACTS_SERVICE_URL: upstream.url });
  });
  afterAll(async () => {
    await stopGateways();
    await upstream.close();
    expectNoKeyInLogs();
  });

  const get = (base: string, key: string | undefined, ip: string) =>
    fetch(`${base}/api/v1/contacts`, { headers: headersFor(key, ip) });

  /** Invalid attempts of every kind: no key, malformed, unknown. */
  const invalid = (i: number) => [undefined, 'mk_live_nonsense', generateKey().plaintext][i % 3];

  async function failTimes(base: string, ip: string, times: number) {
    for (let i = 0; i < times; i++) expect((await get(base, invalid(i), ip)).status).toBe(401);
  }

  it('blocks an IP after 51 invalid attempts, valid key included, with Retry-After = seconds left', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const ip = uniqueIp();
    await failTimes(gateway.url, ip, 51);
    const blocked = await get(gateway.url, plaintext, ip);
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ error: 'too many failed authentication attempts from this address; try again later' });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(580);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(rateHeaders(blocked)).toMatchObject({ limit: 50, remaining: 0 });
    expect(rateHeaders(blocked).reset - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(retryAfter - 1);
    // Another address with the same key is unaffected.
    expect((await get(gateway.url, plaintext, uniqueIp())).status).toBe(200);
  });

  it('does not block after 50 invalid attempts', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const ip = uniqueIp();
    await failTimes(gateway.url, ip, 50);
    expect((await get(gateway.url, plaintext, ip)).status).toBe(200);
  });

  it('counts a revoked or expired key as an invalid attempt and lifts the block when the window ends', async () => {
    const quick = await startGateway({ CONTACTS_SERVICE_URL: upstream.url, AUTH_FAIL_LIMIT: '3', AUTH_FAIL_WINDOW_S: '2' });
    const valid = await aKey(quick.pool);
    const expired = await aKey(quick.pool, { expiresOn: '2020-01-01' });
    const ip = uniqueIp();
    for (let i = 0; i < 4; i++) expect((await get(quick.url, expired.plaintext, ip)).status).toBe(401);
    const blocked = await get(quick.url, valid.plaintext, ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    await waitFor(async () => ((await get(quick.url, valid.plaintext, ip)).status === 200 ? true : undefined), {
      timeoutMs: 5000,
      intervalMs: 250,
      what: 'the block to end',
    });
  });
});
