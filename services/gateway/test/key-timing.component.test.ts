import { generateKey, keyWithParts, parseKey } from '../src/domain/api-key-format';
import { aKey } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import { headersFor, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('timing attack on API key ids (issue 18)', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    gateway = await startGateway({ CONTACTS_SERVICE_URL: upstream.url, AUTH_FAIL_LIMIT: '100000' });
  });
  afterAll(async () => {
    await stopGateways();
    await upstream.close();
  });

  it('a wrong secret for a real, busy key id and a never-seen key id take the same time to refuse', async () => {
    const { plaintext } = await aKey(gateway.pool);
    const realId = parseKey(plaintext)!.keyId;
    const ip = uniqueIp();
    const timed = async (key: string) => {
      const started = performance.now();
      const response = await fetch(`${gateway.url}/api/v1/contacts`, { headers: headersFor(key, ip) });
      await response.arrayBuffer();
      expect(response.status).toBe(401);
      return performance.now() - started;
    };
    // The real key is in use, so its row sits in the gateway's memory: the fast path an attacker would spot.
    expect((await fetch(`${gateway.url}/api/v1/contacts`, { headers: headersFor(plaintext, uniqueIp()) })).status).toBe(200);
    const real: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 40; round++) {
      real.push(await timed(keyWithParts(realId, generateKey().secret)));
      unknown.push(await timed(generateKey().plaintext));
    }
    // Both are held to the same floor (AUTH_FAILURE_MIN_MS, 25 ms), which is far above the look-up's cost.
    expect(Math.min(...real, ...unknown)).toBeGreaterThanOrEqual(24);
    // Each pair ran back to back, so the median of their differences is not moved by the machine
    // slowing down between pairs (a shared, loaded machine), only by what tells the two keys apart.
    expect(Math.abs(median(real.map((time, index) => time - unknown[index]!)))).toBeLessThan(5);
  });
});
