import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import {
  errorMiddleware,
  fragmentRoute,
  healthRoutes,
  HotRoutes,
  httpMetrics,
  jsonBody,
  metricsRoutes,
  notFoundHandler,
  requestId,
  requireIdentity,
  traceRequests,
  type Broker,
  type Redis,
  type Registry,
} from '@mailer/shared';
import { eventsStatusByCode } from '../../domain/events.errors';
import type { IngestDeps } from '../../domain/ingest-event';
import type { TrackHitDeps } from '../../domain/track-hit';
import { addHotEventRoutes, EVENT_BODY_LIMIT_BYTES, eventsRoutes } from './events.routes';
import { trackingRoutes } from './tracking.routes';
import { ingestMetrics } from './ingest-metrics';
import { eventsOpenApiFragment } from './openapi';

export interface EventsAppDeps extends IngestDeps, Omit<TrackHitDeps, 'logger'> {
  /** Checked by /readyz: events are refused (503) while it is away. */
  broker: Broker;
  /** Checked by /readyz: idempotency is lost (events still accepted) while it is away. */
  redis: Redis;
  signingSecret: string;
  metrics: Registry;
  /** METRICS_TOKEN: when set, GET /metrics answers only a scraper presenting it. */
  metricsToken?: string;
}

/** What the service listens with: ingest on the hot path, every other request through `buildApp`. */
export function buildListener(deps: EventsAppDeps): RequestListener {
  const hot = new HotRoutes({
    service: 'events',
    signingSecret: deps.signingSecret,
    metrics: deps.metrics,
    logger: deps.logger,
    statusByCode: eventsStatusByCode,
  });
  addHotEventRoutes(hot, deps, ingestMetrics(deps.metrics));
  return hot.listener(buildApp(deps));
}

/** The events HTTP app, without listening: health probes open, ingest behind the gateway's signature. */
export function buildApp(deps: EventsAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: hashing every JSON answer costs more than the conditional requests it could save
  // (the spec defines none; the gateway disables it too).
  app.disable('etag');
  app.use(httpMetrics(deps.metrics));
  app.use(requestId());
  app.use(traceRequests('events'));
  const counted = ingestMetrics(deps.metrics);
  // Ingest first: an event does not walk the probe and document routers (none of their paths is under /v1).
  app.use('/v1', requireIdentity(deps.signingSecret), jsonBody(EVENT_BODY_LIMIT_BYTES), eventsRoutes(deps, counted));
  app.use('/v1', counted.refusals);
  // Public: a reader's click or pixel, through the gateway's /t/* (no identity, limited by IP there).
  app.use(trackingRoutes(deps));
  app.use(
    healthRoutes('events', [
      { name: 'redis', check: async () => void (await deps.redis.ping()) },
      { name: 'broker', check: () => (deps.broker.isConnected() ? undefined : Promise.reject(new Error('disconnected'))) },
    ]),
  );
  app.use(fragmentRoute(eventsOpenApiFragment()));
  // Internal port: scraped openly, like the health probes.
  app.use(metricsRoutes(deps.metrics, deps.metricsToken));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger, eventsStatusByCode));
  return app;
}
