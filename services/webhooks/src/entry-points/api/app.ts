import express, { type Express } from 'express';
import type { Logger } from 'pino';
import {
  errorMiddleware,
  fragmentRoute,
  healthRoutes,
  httpMetrics,
  metricsRoutes,
  notFoundHandler,
  requestId,
  requireIdentity,
  traceRequests,
  type Broker,
  type Registry,
} from '@mailer/shared';
import type { EndpointDeps } from '../../domain/manage-endpoints';
import { webhookStatusByCode } from '../../domain/webhook.errors';
import { endpointsRoutes } from './endpoints.routes';
import { webhooksOpenApiFragment } from './openapi';

export interface WebhooksAppDeps extends EndpointDeps {
  logger: Logger;
  broker: Broker;
  signingSecret: string;
  metrics: Registry;
  /** METRICS_TOKEN: when set, GET /metrics answers only a scraper presenting it. */
  metricsToken?: string;
  /** Deliveries became due (resend, endpoint re-enabled): look now rather than at the next poll. */
  onQueued: () => void;
  /** Whether `webhooks.facts` has been bound to what endpoints subscribe to since the start. */
  factsRouted: () => boolean;
}

/** The webhooks HTTP app, without listening: probes and the OpenAPI fragment open, the API behind the signed identity. */
export function buildApp(deps: WebhooksAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetrics(deps.metrics));
  app.use(requestId());
  app.use(traceRequests('webhooks'));
  app.use(
    healthRoutes('webhooks', [
      { name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) },
      { name: 'broker', check: () => (deps.broker.isConnected() ? undefined : Promise.reject(new Error('disconnected'))) },
      { name: 'fact routing', check: () => (deps.factsRouted() ? undefined : Promise.reject(new Error('not reconciled yet'))) },
    ]),
  );
  app.use(fragmentRoute(webhooksOpenApiFragment()));
  app.use(metricsRoutes(deps.metrics, deps.metricsToken));
  app.use('/internal/v1', requireIdentity(deps.signingSecret));
  app.use('/internal/v1', endpointsRoutes(deps));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger, webhookStatusByCode));
  return app;
}
