import type { Logger } from 'pino';
import { Broker, createPool, listen, migrateDatabase, stopInOrder } from '@mailer/shared';
import type { ContactsConfig } from './config';
import { contactsDatabaseUrl, MIGRATIONS_DIR } from './database';
import { buildApp } from './entry-points/api/app';

/** Composition root: migrate, connect, serve. Returns the address and a graceful stop. */
export async function startContactsService(config: ContactsConfig, logger: Logger) {
  const databaseUrl = contactsDatabaseUrl(config);
  await migrateDatabase({ databaseUrl, migrationsDir: MIGRATIONS_DIR, logger });
  const pool = createPool(databaseUrl, logger);
  const broker = Broker.start({
    url: config.AMQP_URL,
    namespace: config.BROKER_NAMESPACE,
    logger,
    connectionName: 'contacts',
  });
  const server = await listen(buildApp({ logger, pool, broker, signingSecret: config.INTERNAL_SIGNING_SECRET }), config.PORT);
  logger.info({ port: server.port }, 'contacts service listening');
  return {
    url: server.url,
    pool,
    broker,
    stop: () => stopInOrder([() => server.close(), () => broker.close(), () => pool.end()]),
  };
}
