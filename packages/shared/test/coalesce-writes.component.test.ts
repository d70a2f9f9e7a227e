import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { coalesceWrites, createRedis, redisReady, type Redis } from '@mailer/shared';
import { countSocketWrites, testServers } from '@mailer/testing';
import { memoryLogger, uniqueName } from './helpers';

describe('coalesceWrites', () => {
  const { redisUrl, redisKeyPrefix } = testServers();
  let redis: Redis;

  beforeEach(async () => {
    redis = createRedis(redisUrl, memoryLogger().logger, { keyPrefix: redisKeyPrefix });
    await redisReady(redis);
  });
  afterEach(() => redis.disconnect());

  const socketWrites = () => countSocketWrites(redis.stream as Socket);

  it('sends the commands of one event-loop turn as one write, each answered with its own reply', async () => {
    const key = uniqueName('coalesce-');
    const writes = socketWrites();

    // As the limiter does: one call per command, each before its own send.
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => {
        coalesceWrites(redis);
        return redis.incr(key);
      }),
    );

    expect(replies).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    expect(writes).toEqual([40]);
    await redis.expire(key, 60);
  });

  it('leaves the socket uncorked once the turn is over, so a later lone command goes out at once', async () => {
    const key = uniqueName('coalesce-');
    coalesceWrites(redis);
    coalesceWrites(redis);
    await redis.set(key, 'a', 'EX', 60);
    await nextTurn();
    expect((redis.stream as Socket).writableCorked).toBe(0);

    const writes = socketWrites();
    const started = performance.now();
    expect(await redis.get(key)).toBe('a');
    expect(writes).toEqual([1]);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('changes nothing for a client that is not connected: its command still fails at once', async () => {
    const unreachable = createRedis('redis://127.0.0.1:1', memoryLogger().logger);
    try {
      coalesceWrites(unreachable);
      const started = Date.now();
      await expect(unreachable.get('x')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      unreachable.disconnect();
    }
  });
});
