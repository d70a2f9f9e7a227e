import type { Logger } from 'pino';
import { Broker, createPool, listen, migrateDatabase, stopInOrder } from '@mailer/shared';
import type { AutomationConfig } from './config';
import { automationDatabaseUrl, MIGRATIONS_DIR } from './database';
import { buildApp } from './entry-points/api/app';

/** Composition root: migrate, connect, serve. Returns the address and a graceful stop. */
export async function startAutomationService(config: AutomationConfig, logger: Logger) {
  const databaseUrl = automationDatabaseUrl(config);
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  const broker = Broker.start({
    url: config.AMQP_URL,
    namespace: config.BROKER_NAMESPACE,
    logger,
    connectionName: 'automation',
  });
  const server = await listen(buildApp({ logger, pool, broker, signingSecret: config.INTERNAL_SIGNING_SECRET }), config.PORT);
  logger.info({ port: server.port }, 'automation service listening');
  return {
    url: server.url,
    pool,
    broker,
    stop: () => stopInOrder([() => server.close(), () => broker.close(), () => pool.end()]),
  };
}
