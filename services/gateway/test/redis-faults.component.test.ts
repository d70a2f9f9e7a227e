import { redisReady } from '@mailer/shared';
import { startPrivateRedis, type PrivateServer } from '@mailer/testing';
import { aKey } from './support/factories';
import { startFakeUpstream } from './support/fake-upstream';
import { expectNoKeyInLogs, headersFor, rateHeaders, startGateway, stopGateways, uniqueIp, type Gateway } from './support/gateway-harness';

const IP_LIMIT = 5;
const RECOVERY_TARGET_MS = 2000;

/**
 * Extends redis-outage (one sequential kill): here two gateway instances share a private Redis under
 * concurrent load while it is killed -9 or frozen (SIGSTOP), and the time until the shared limits
 * hold again is measured. The per-process fallback counts per instance, so a limit "enforced again"
 * means one client's requests through both instances count in one window.
 */
describe('gateway with Redis killed or hung under load', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let redis: PrivateServer;
  let gateways: Gateway[];
  let key: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    redis = await startPrivateRedis();
    const env = { CONTACTS_SERVICE_URL: upstream.url, REDIS_URL: redis.url, RATE_LIMIT_IP_PER_MIN: String(IP_LIMIT), RATE_LIMIT_KEY_PER_MIN: '100000', RATE_LIMIT_KEY_PER_HOUR: '1000000' };
    gateways = [await startGateway(env), await startGateway(env)];
    await Promise.all(gateways.map((gateway) => redisReady(gateway.redis)));
    key = (await aKey(gateways[0]!.pool)).plaintext;
  }, 30_000);
  afterAll(async () => {
    await stopGateways();
    await redis?.stop();
    await upstream?.close();
    expectNoKeyInLogs();
  });

  const get = (gateway: Gateway, ip: string) => fetch(`${gateway.url}/api/v1/contacts`, { headers: headersFor(key, ip), signal: AbortSignal.timeout(10_000) });

  /** Clients on both instances, each request from a new address, until `stop` resolves: statuses and slowest answer. */
  async function load(stop: Promise<void>) {
    let done = false;
    void stop.then(() => (done = true));
    const statuses: Record<string, number> = {};
    let slowest = 0;
    const client = async (gateway: Gateway) => {
      while (!done) {
        const started = Date.now();
        const status = await get(gateway, uniqueIp()).then((response) => String(response.status), (error: Error) => `error ${error.name}`);
        slowest = Math.max(slowest, Date.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    await Promise.all(gateways.flatMap((gateway) => [client(gateway), client(gateway)]));
    return { statuses, slowest };
  }

  /** Whether one address's requests through both instances share one window (Redis decides again), and the limit then trips. */
  async function sharedLimitHolds(): Promise<boolean> {
    const ip = uniqueIp();
    const first = await get(gateways[0]!, ip);
    const second = await get(gateways[1]!, ip);
    if (first.status !== 200 || second.status !== 200 || rateHeaders(second).remaining !== IP_LIMIT - 2) return false;
    for (let i = 2; i < IP_LIMIT; i++) await get(gateways[i % 2]!, ip);
    return (await get(gateways[0]!, ip)).status === 429 && (await get(gateways[1]!, ip)).status === 429;
  }

  /** Milliseconds from `since` until the shared limits hold again. */
  async function recoveryMs(since: number): Promise<number> {
    while (Date.now() - since < 15_000) {
      if (await sharedLimitHolds()) return Date.now() - since;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Infinity;
  }

  const faults: Array<[string, () => Promise<void>, () => Promise<void>]> = [
    ['killed -9 and restarted', () => redis.kill9(), () => redis.restart()],
    ['hung with SIGSTOP and resumed', async () => redis.pause(), async () => redis.resume()],
  ];

  it.each(faults)('Redis %s: 0 5xx at the gateway during the fault, shared limits enforced again within 2 s', async (name, fault, recover) => {
    expect(await sharedLimitHolds()).toBe(true);
    let endLoad: () => void = () => undefined;
    const loaded = load(new Promise<void>((resolve) => (endLoad = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fault();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await recover();
    const recovered = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    endLoad();
    const { statuses, slowest } = await loaded;
    const took = await recoveryMs(recovered);
    process.stdout.write(`redis ${name}: statuses ${JSON.stringify(statuses)}, slowest ${slowest} ms, shared limits again after ${took} ms\n`);

    expect(Object.keys(statuses).filter((status) => !/^(200|429)$/.test(status))).toEqual([]);
    expect(statuses['200']).toBeGreaterThan(20);
    // A hung Redis costs at most its 1 s command timeout per request, never a hang.
    expect(slowest).toBeLessThan(3000);
    expect(took).toBeLessThanOrEqual(RECOVERY_TARGET_MS);
  }, 60_000);
});
