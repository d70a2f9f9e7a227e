import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type { Redis } from 'ioredis';

/**
 * A Redis client that fails a command at once while disconnected (no offline queue), so callers
 * can fall back instead of hanging, and keeps reconnecting in the background. `autoPipelining`
 * writes the commands issued in one tick to the socket together: one write instead of one per
 * request for a caller that runs a command per request (the gateway's limiter).
 */
export function createRedis(url: string, logger: Logger, options: { keyPrefix?: string; autoPipelining?: boolean } = {}): Redis {
  const client = new Redis(url, {
    keyPrefix: options.keyPrefix ?? '',
    enableAutoPipelining: options.autoPipelining ?? false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2000),
    lazyConnect: false,
  });
  let warned = false;
  client.on('error', (error: Error) => {
    if (!warned) logger.warn({ err: error }, 'Redis unreachable; retrying in the background');
    warned = true;
  });
  client.on('ready', () => {
    if (warned) logger.info('Redis reachable again');
    warned = false;
  });
  return client;
}

/** Resolves once the client is connected, or rejects after `timeoutMs`. */
export function redisReady(client: Redis, timeoutMs = 5000): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      reject(new Error('Redis not ready in time'));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', onReady);
  });
}
