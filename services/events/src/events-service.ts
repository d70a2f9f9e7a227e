import {
  Broker,
  createMetricsRegistry,
  createRedis,
  emailDomainValidatorFor,
  listen,
  logStarted,
  stopInOrder,
  trackingSecret,
  type Logger,
  type Redis,
  type Registry,
} from '@mailer/shared';
import type { EventsConfig } from './config';
import { eventPublisher } from './data-access/event-publisher';
import { IdempotencyRepository } from './data-access/idempotency.repository';
import { trackingPublisher } from './data-access/tracking-publisher';
import { buildListener } from './entry-points/api/app';

/** A running events service. */
export interface EventsService {
  url: string;
  broker: Broker;
  redis: Redis;
  metrics: Registry;
  stop(): Promise<void>;
}

/** Composition root: connect to the broker and Redis (in the background), serve. Returns a graceful stop. */
export async function startEventsService(config: EventsConfig, logger: Logger): Promise<EventsService> {
  // One registry per instance: two services in one test process keep separate numbers.
  const metrics = createMetricsRegistry('events');
  // Connects in the background: until it does (and whenever it is down) events are a 503.
  const broker = Broker.start({ url: config.AMQP_URL, namespace: config.BROKER_NAMESPACE, logger, connectionName: 'events', metrics });
  const redis = createRedis(config.REDIS_URL, logger, { keyPrefix: config.REDIS_KEY_PREFIX });
  const server = await listen(
    buildListener({
      logger,
      broker,
      redis,
      publish: eventPublisher(broker),
      idempotency: new IdempotencyRepository(redis, config.IDEMPOTENCY_TTL_S, logger),
      // The verdict contacts gives (shared code, shared Redis cache): an address contacts would refuse is a 422.
      emailValidator: emailDomainValidatorFor(config, redis, logger),
      signingSecret: config.INTERNAL_SIGNING_SECRET,
      trackingSecret: trackingSecret(config.TRACKING_SECRET, config.INTERNAL_SIGNING_SECRET),
      publishHit: trackingPublisher(broker),
      metrics,
      metricsToken: config.METRICS_TOKEN,
    }),
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
        async () => void redis.disconnect(),
      ]),
  };
}
