import type { Logger } from 'pino';
import { Broker, listen, stopInOrder } from '@mailer/shared';
import type { EventsConfig } from './config';
import { buildApp } from './entry-points/api/app';

/** Composition root: connect to the broker (in the background), serve. */
export async function startEventsService(config: EventsConfig, logger: Logger) {
  const broker = Broker.start({ url: config.AMQP_URL, namespace: config.BROKER_NAMESPACE, logger, connectionName: 'events' });
  const server = await listen(buildApp({ logger, broker, signingSecret: config.INTERNAL_SIGNING_SECRET }), config.PORT);
  logger.info({ port: server.port }, 'events service listening');
  return {
    url: server.url,
    broker,
    stop: () => stopInOrder([() => server.close(), () => broker.close()]),
  };
}
