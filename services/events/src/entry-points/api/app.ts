import express, { type Express } from 'express';
import { errorMiddleware, healthRoutes, jsonBody, notFoundHandler, requestId, requireIdentity } from '@mailer/shared';
import { eventsStatusByCode } from '../../domain/events.errors';
import type { IngestDeps } from '../../domain/ingest-event';
import { eventsRoutes } from './events.routes';

export type EventsAppDeps = IngestDeps & { signingSecret: string };

/** The body limit of one event (DESIGN.md: at most 64 KiB). */
export const EVENT_BODY_LIMIT = '64kb';

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
  app.use('/v1', requireIdentity(deps.signingSecret), jsonBody(EVENT_BODY_LIMIT), eventsRoutes(deps));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger, eventsStatusByCode));
  return app;
}
