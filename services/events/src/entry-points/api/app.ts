import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { errorMiddleware, healthRoutes, notFoundHandler, requestId, requireIdentity, type Broker } from '@mailer/shared';

export interface EventsAppDeps {
  logger: Logger;
  broker: Broker;
  signingSecret: string;
}

/** The events HTTP app: health probes open, ingest behind the gateway's signature. */
export function buildApp(deps: EventsAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId());
  app.use(
    healthRoutes('events', [
      { name: 'broker', check: () => (deps.broker.isConnected() ? undefined : Promise.reject(new Error('disconnected'))) },
    ]),
  );
  app.use('/v1', requireIdentity(deps.signingSecret));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger));
  return app;
}
