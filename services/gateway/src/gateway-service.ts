import type { Logger } from 'pino';
import { createPool, createRedis, listen, migrateDatabase, stopInOrder } from '@mailer/shared';
import type { GatewayConfig } from './config';
import { gatewayDatabaseUrl, MIGRATIONS_DIR } from './database';
import { buildApp } from './entry-points/api/app';

/** Composition root: migrate, connect, serve the REST listener and the events listener. */
export async function startGatewayService(config: GatewayConfig, logger: Logger) {
  const databaseUrl = gatewayDatabaseUrl(config);
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  const redis = createRedis(config.REDIS_URL, logger, { keyPrefix: config.REDIS_KEY_PREFIX });
  const app = buildApp({ logger, pool, redis });
  const api = await listen(app, config.GATEWAY_PORT);
  const events = await listen(app, config.EVENTS_PORT);
  logger.info({ port: api.port, eventsPort: events.port }, 'gateway listening');
  return {
    url: api.url,
    eventsUrl: events.url,
    pool,
    redis,
    stop: () =>
      stopInOrder([() => Promise.all([api.close(), events.close()]), () => pool.end(), async () => redis.disconnect()]),
  };
}
