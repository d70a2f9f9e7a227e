import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createLogger, createRedis, redisReady, type Redis } from '@mailer/shared';
import { countSocketWrites, testServers } from '@mailer/testing';
import { RedisLimiter } from '../src/data-access/redis-limiter';
import { uniqueIp } from './support/gateway-harness';

const SETTINGS = { keyPerMin: 1000, keyPerHour: 10_000, ipPerMin: 3, authFailLimit: 10, authFailWindowMs: 60_000 };

describe('RedisLimiter against the real Redis', () => {
  const { redisUrl, redisKeyPrefix } = testServers();
  let redis: Redis;

  beforeEach(async () => {
    redis = createRedis(redisUrl, createLogger('gateway', { level: 'silent' }), { keyPrefix: `${redisKeyPrefix}limiter-${randomUUID()}:` });
    await redisReady(redis);
  });
  afterEach(() => redis.disconnect());

  it('writes the checks of one event-loop turn to Redis in one write, each decided on its own windows', async () => {
    const limiter = new RedisLimiter(redis, SETTINGS);
    const writes = countSocketWrites(redis.stream as Socket);
    const busy = uniqueIp();

    // Four requests from one address (limit 3) and one from another, all read in the same turn.
    const decisions = await Promise.all([
      ...Array.from({ length: 4 }, () => limiter.check({ ip: busy, mode: 'anon' })),
      limiter.check({ ip: uniqueIp(), mode: 'anon' }),
    ]);

    expect(writes).toHaveLength(1);
    expect(decisions.map((decision) => decision.outcome)).toEqual(['allowed', 'allowed', 'allowed', 'limited', 'allowed']);
    expect(decisions.map((decision) => decision.window.remaining)).toEqual([2, 1, 0, 0, 2]);
  });
});
