import { randomUUID } from 'node:crypto';
import { createLogger, createRedis, redisReady, TRIGGER_ROUTES_WHOLE, triggerRoutingKey, type Redis } from '@mailer/shared';
import { startTcpProxy, testServers } from '@mailer/shared/testing';
import { TriggerRoutes } from '../src/data-access/trigger-routes';

const silent = createLogger('gateway', { level: 'silent' });
const ACCOUNT = 7;

describe("TriggerRoutes reading automation's record in the real Redis", () => {
  const { redisUrl, redisKeyPrefix } = testServers();
  const key = `trigger-routes-${randomUUID()}`;
  let redis: Redis;
  let routes: TriggerRoutes;

  beforeAll(async () => {
    redis = createRedis(redisUrl, silent, { keyPrefix: redisKeyPrefix });
    await redisReady(redis);
    routes = new TriggerRoutes(redis, key);
  });
  afterEach(() => redis.del(key));
  afterAll(() => redis.disconnect());

  it('rules out only the events of a whole record that lacks their trigger', async () => {
    await redis.sadd(key, TRIGGER_ROUTES_WHOLE, triggerRoutingKey(ACCOUNT, 'signup'));
    expect(await routes.mayTrigger(ACCOUNT, 'signup')).toBe(true);
    expect(await routes.mayTrigger(ACCOUNT, 'page_view')).toBe(false);
    // Per account: the same name elsewhere is another trigger.
    expect(await routes.mayTrigger(ACCOUNT + 1, 'signup')).toBe(false);
  });

  it('rules out nothing without a whole record: none written yet, or keys added to one that had expired', async () => {
    expect(await routes.mayTrigger(ACCOUNT, 'page_view')).toBe(true);
    await redis.sadd(key, triggerRoutingKey(ACCOUNT, 'signup'));
    expect(await routes.mayTrigger(ACCOUNT, 'page_view')).toBe(true);
  });

  it('rules out nothing while Redis is unreachable, and answers at once', async () => {
    const { hostname, port } = new URL(redisUrl);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
    const proxied = createRedis(`redis://127.0.0.1:${proxy.port}`, silent, { keyPrefix: redisKeyPrefix });
    try {
      await redisReady(proxied);
      await redis.sadd(key, TRIGGER_ROUTES_WHOLE);
      const cut = new TriggerRoutes(proxied, key);
      expect(await cut.mayTrigger(ACCOUNT, 'page_view')).toBe(false);
      proxy.cut();
      await new Promise((resolve) => proxied.once('close', resolve));
      const started = Date.now();
      expect(await cut.mayTrigger(ACCOUNT, 'page_view')).toBe(true);
      // Not after the command timeout (1 s): the client knows it is disconnected.
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      proxied.disconnect();
      await proxy.close();
    }
  });
});
