import { aKey } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import { expectNoKeyInLogs, headersFor, rateHeaders, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('rate limits', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: Gateway;
  const env = () => ({ CONTACTS_SERVICE_URL: upstream.url, AUTOMATION_SERVICE_URL: upstream.url });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway(env());
  });
  afterAll(async () => {
    await stopGateways();
    await upstream.close();
    expectNoKeyInLogs();
  });

  const get = (base: string, key: string | undefined, ip: string, path = '/api/v1/contacts') =>
    fetch(`${base}${path}`, { headers: headersFor(key, ip) });

  async function inBatches(count: number, size: number, send: (i: number) => Promise<Response>): Promise<Response[]> {
    const responses: Response[] = [];
    for (let start = 0; start < count; start += size) {
      const batch = Array.from({ length: Math.min(size, count - start) }, (_, i) => send(start + i));
      responses.push(...(await Promise.all(batch)));
    }
    return responses;
  }

  /**
   * A key whose nearest window allows five: five answers counting it down, then a refusal whose
   * reset lies between `after` and `atMost` seconds ahead. Resolves with each answer's reset and
   * the second it was read.
   */
  async function expectFiveThenRefused(base: string, key: string, reset: { after: number; atMost: number }) {
    const answered: Array<{ reset: number; at: number }> = [];
    for (let i = 0; i < 5; i++) {
      const response = await get(base, key, uniqueIp());
      expect(response.status).toBe(200);
      expect(rateHeaders(response)).toMatchObject({ limit: 5, remaining: 4 - i });
      answered.push({ reset: rateHeaders(response).reset, at: nowSeconds() });
    }
    const refused = await get(base, key, uniqueIp());
    const headers = rateHeaders(refused);
    expect(headers.limit).toBe(5);
    expect(headers.reset).toBeGreaterThan(nowSeconds() + reset.after);
    expect(headers.reset).toBeLessThanOrEqual(nowSeconds() + reset.atMost);
    await expectRateLimited(refused);
    return answered;
  }

  async function expectRateLimited(response: Response) {
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(await response.json()).toEqual({ error: 'rate limit exceeded' });
    expect(rateHeaders(response).remaining).toBe(0);
  }

  it('answers request 301 from one IP within a minute with 429, Retry-After 60 and { error }', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const ip = uniqueIp();
    const responses = await inBatches(300, 25, () => get(gateway.url, plaintext, ip));
    expect(responses.map((r) => r.status)).toEqual(Array(300).fill(200));
    // Every answer took one slot: the remaining counts are exactly 299 down to 0.
    const remaining = responses.map((r) => rateHeaders(r).remaining).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(responses.every((r) => rateHeaders(r).limit === 300)).toBe(true);
    await expectRateLimited(await get(gateway.url, plaintext, ip));
    // The address is limited, not the key: the same key from elsewhere still works.
    expect((await get(gateway.url, plaintext, uniqueIp())).status).toBe(200);
  }, 60_000);

  it('answers request 1001 of one key within a minute with 429, even spread over several IPs', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const ips = Array.from({ length: 5 }, uniqueIp);
    const responses = await inBatches(1000, 50, (i) => get(gateway.url, plaintext, ips[i % 5]!));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1000);
    const refused = await get(gateway.url, plaintext, uniqueIp());
    expect(rateHeaders(refused).limit).toBe(1000);
    await expectRateLimited(refused);
  }, 60_000);

  it('enforces the hourly key limit (lowered to 5) and describes it in the headers', async () => {
    const hourly = await startGateway({ ...env(), RATE_LIMIT_KEY_PER_HOUR: '5' });
    await expectFiveThenRefused(hourly.url, (await aKey(hourly.pool)).plaintext, { after: 3500, atMost: 3601 });
  });

  it('counts the key\'s minute inside its hour and describes the minute window once it is the nearest', async () => {
    const perMinute = await startGateway({ ...env(), RATE_LIMIT_KEY_PER_MIN: '5', RATE_LIMIT_KEY_PER_HOUR: '100' });
    const answered = await expectFiveThenRefused(perMinute.url, (await aKey(perMinute.pool)).plaintext, { after: 50, atMost: 61 });
    for (const { reset, at } of answered) expect(reset).toBeLessThanOrEqual(at + 61);
  });

  it('never lets 200 parallel requests of one key past a limit of 50', async () => {
    const tight = await startGateway({ ...env(), RATE_LIMIT_KEY_PER_MIN: '50' });
    const { plaintext } = await aKey(tight.pool);
    const responses = await Promise.all(Array.from({ length: 200 }, () => get(tight.url, plaintext, uniqueIp())));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
  });

  it('counts one key once across competing gateway instances: 300 requests over three, limit 50', async () => {
    const tight = { ...env(), RATE_LIMIT_KEY_PER_MIN: '50' };
    const instances = await Promise.all([startGateway(tight), startGateway(tight), startGateway(tight)]);
    const { plaintext } = await aKey(instances[0]!.pool);
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => get(instances[i % instances.length]!.url, plaintext, uniqueIp())),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(250);
  });

  it('puts consistent headers on 2xx, 401, 403, 404 and 429 answers', async () => {
    const limited = await startGateway({ ...env(), RATE_LIMIT_IP_PER_MIN: '6' });
    const { plaintext } = await aKey(limited.pool);
    const free = await aKey(limited.pool, { plan: 'free' });
    const ip = uniqueIp();
    const before = nowSeconds();
    const answers = [
      await get(limited.url, plaintext, ip),
      await get(limited.url, plaintext, ip, '/api/v1/nothing-here'),
      await get(limited.url, undefined, ip),
      await get(limited.url, free.plaintext, ip),
      await get(limited.url, undefined, ip, '/nowhere'),
      await get(limited.url, undefined, ip, '/unsubscribe/abc'),
      await get(limited.url, plaintext, ip),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 401, 403, 404, 200, 429]);
    const headers = answers.map(rateHeaders);
    // The IP window (6) is nearest to exhaustion throughout; each answer used one slot of it.
    expect(headers.map((h) => h.limit)).toEqual(Array(7).fill(6));
    expect(headers.map((h) => h.remaining)).toEqual([5, 4, 3, 2, 1, 0, 0]);
    for (const { reset } of headers) {
      expect(reset).toBeGreaterThanOrEqual(before + 59);
      expect(reset).toBeLessThanOrEqual(nowSeconds() + 61);
    }
    // The window resets when its oldest request leaves it: the same instant for every answer here.
    expect(new Set(headers.map((h) => h.reset)).size).toBeLessThanOrEqual(2);
    for (const response of answers) expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });
});
