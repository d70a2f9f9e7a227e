import type { Logger } from 'pino';
import { Broker, createMetricsRegistry, createRedis, emailDomainValidatorFor, listen, logStarted, stopInOrder } from '@mailer/shared';
import type { EventsConfig } from './config';
import { IdempotencyRepository } from './data-access/idempotency.repository';
import { buildListener } from './entry-points/api/app';

/** Composition root: connect to the broker and Redis (in the background), serve. */
export async function startEventsService(config: EventsConfig, logger: Logger) {
  // One registry per instance: two services in one test process keep separate numbers.
  const metrics = createMetricsRegistry('events');
  const broker = Broker.start({ url: config.AMQP_URL, namespace: config.BROKER_NAMESPACE, logger, connectionName: 'events', metrics });
  const redis = createRedis(config.REDIS_URL, logger, { keyPrefix: config.REDIS_KEY_PREFIX });
  const idempotency = new IdempotencyRepository(redis, config.IDEMPOTENCY_TTL_S, logger);
  // The verdict contacts gives (shared code, shared Redis cache): an event for an address contacts would refuse is a 422.
  const emailValidator = emailDomainValidatorFor(config, redis, logger);
  const server = await listen(
    buildListener({ logger, broker, idempotency, emailValidator, signingSecret: config.INTERNAL_SIGNING_SECRET, metrics, metricsToken: config.METRICS_TOKEN }),
    config.PORT,
    config.HOST,
  );
  logStarted(logger, 'events', [`http://${config.HOST}:${server.port}`], { rabbitmq: config.AMQP_URL, redis: config.REDIS_URL });
  return {
    url: server.url,
    broker,
    redis,
    metrics,
    stop: () =>
      stopInOrder([
        () => server.close(),
        () => broker.close(),
        async () => {
          redis.disconnect();
        },
      ]),
  };
}
