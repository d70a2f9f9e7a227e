import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type { Redis } from 'ioredis';

/**
 * A Redis client that fails a command at once while disconnected (no offline queue), so callers
 * can fall back instead of hanging, and keeps reconnecting in the background. A caller that runs a
 * command per request batches its writes with `coalesceWrites`.
 */
export function createRedis(url: string, logger: Logger, options: { keyPrefix?: string } = {}): Redis {
  const client = new Redis(url, {
    keyPrefix: options.keyPrefix ?? '',
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
