import express, { type Express } from 'express';
import { httpMetrics, metricsRoutes, type Registry } from '@mailer/shared';
import type { Logger } from 'pino';
import {
  errorMiddleware,
  fragmentRoute,
  healthRoutes,
  notFoundHandler,
  requestId,
  traceRequests,
  requireIdentity,
  type Broker,
  type Pool,
} from '@mailer/shared';
import { CampaignErrorCodes } from '../../domain/sending/campaign-lifecycle';
import { campaignsRoutes } from './campaigns.routes';
import { internalCampaignsRoutes } from './internal-campaigns.routes';
import { campaignsOpenApiFragment } from './openapi';

export interface CampaignsAppDeps {
  logger: Logger;
  pool: Pool;
  broker: Broker;
  signingSecret: string;
  metrics: Registry;
  /** METRICS_TOKEN: when set, GET /metrics answers only a scraper presenting it. */
  metricsToken?: string;
  /** A change that wrote an outbox row: publish it now rather than at the next poll. */
  onOutboxWritten?: () => void;
}

/** The campaigns HTTP app, without listening: health probes open, the API behind the gateway's signature. */
export function buildApp(deps: CampaignsAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetrics(deps.metrics));
  app.use(requestId());
  app.use(traceRequests('campaigns'));
  app.use(
    healthRoutes('campaigns', [
      { name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) },
      { name: 'broker', check: () => (deps.broker.isConnected() ? undefined : Promise.reject(new Error('disconnected'))) },
    ]),
  );
  app.use(fragmentRoute(campaignsOpenApiFragment()));
  // Internal port: scraped openly, like the health probes.
  app.use(metricsRoutes(deps.metrics, deps.metricsToken));
  app.use('/api/v1', requireIdentity(deps.signingSecret));
  app.use('/api/v1', campaignsRoutes({ pool: deps.pool }));
  // The app's API: the gateway routes only /api/v1/campaigns here, so /internal is never public.
  app.use('/internal/v1', requireIdentity(deps.signingSecret));
  app.use('/internal/v1', internalCampaignsRoutes({ pool: deps.pool, onChange: deps.onOutboxWritten ?? (() => undefined) }));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger, { [CampaignErrorCodes.ILLEGAL_TRANSITION]: 409 }));
  return app;
}
