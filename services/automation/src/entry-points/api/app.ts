import express, { type Express } from 'express';
import { httpMetrics, metricsRoutes, type Registry } from '@mailer/shared';
import type { Logger } from 'pino';
import {
  errorMiddleware,
  healthRoutes,
  notFoundHandler,
  requestId,
  traceRequests,
  requireIdentity,
  type Broker,
  type Pool,
} from '@mailer/shared';
import { unsubscribeRoutes } from './unsubscribe.routes';

export interface AutomationAppDeps {
  logger: Logger;
  pool: Pool;
  broker: Broker;
  signingSecret: string;
  unsubscribeSecret: string;
  onUnsubscribed: () => void;
  metrics: Registry;
}

/** The automation HTTP app: health probes and the public unsubscribe pages open, the API behind the gateway's signature. */
export function buildApp(deps: AutomationAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetrics(deps.metrics));
  app.use(requestId());
  app.use(traceRequests('automation'));
  app.use(
    healthRoutes('automation', [
      { name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) },
      { name: 'broker', check: () => (deps.broker.isConnected() ? undefined : Promise.reject(new Error('disconnected'))) },
    ]),
  );
  // Internal port: scraped openly, like the health probes.
  app.use(metricsRoutes(deps.metrics));
  app.use(unsubscribeRoutes({ pool: deps.pool, secret: deps.unsubscribeSecret, onUnsubscribed: deps.onUnsubscribed }));
  app.use('/api/v1', requireIdentity(deps.signingSecret));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger));
  return app;
}
