import { createRedis, redisReady } from '@mailer/shared';
import { testServers } from '@mailer/testing';
import { memoryLogger, uniqueName } from './helpers';

describe('createRedis', () => {
  it('round-trips a command against the real server, under the run key prefix', async () => {
    const { redisUrl, redisKeyPrefix } = testServers();
    const redis = createRedis(redisUrl, memoryLogger().logger, { keyPrefix: redisKeyPrefix });
    try {
      await redisReady(redis);
      const key = uniqueName('k');
      await redis.set(key, 'v', 'EX', 60);
      expect(await redis.get(key)).toBe('v');
      expect(await redis.incr(`${key}:n`)).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('fails a command at once, instead of hanging, when Redis cannot be reached', async () => {
    const redis = createRedis('redis://127.0.0.1:1', memoryLogger().logger);
    try {
      const started = Date.now();
      await expect(redis.get('x')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      redis.disconnect();
    }
  });
});
