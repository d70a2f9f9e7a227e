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
import { contactStatusByCode } from '../../domain/contact.errors';
import type { EmailDomainValidator } from '../../domain/validate-email-domain';
import { contactsRoutes } from './contacts.routes';
import { contactsOpenApiFragment } from './openapi';

export interface ContactsAppDeps {
  logger: Logger;
  pool: Pool;
  broker: Broker;
  signingSecret: string;
  emailValidator: EmailDomainValidator;
  metrics: Registry;
}

/** The contacts HTTP app, without listening: health probes open, the API behind the gateway's signature. */
export function buildApp(deps: ContactsAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: hashing every JSON answer costs more than the conditional requests it could save
  // (the spec defines none; the gateway disables it too).
  app.disable('etag');
  app.use(httpMetrics(deps.metrics));
  app.set('query parser', 'simple');
  app.use(requestId());
  app.use(traceRequests('contacts'));
  // The API first: a request does not walk the probe and document routers (none of their paths is under /api/v1).
  app.use('/api/v1', requireIdentity(deps.signingSecret));
  app.use('/api/v1/contacts', contactsRoutes({ pool: deps.pool, emailValidator: deps.emailValidator }));
  app.use(
    healthRoutes('contacts', [
      { name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) },
      {
        name: 'broker',
        check: () => (deps.broker.isConnected() ? undefined : Promise.reject(new Error('disconnected'))),
      },
    ]),
  );
  app.use(fragmentRoute(contactsOpenApiFragment()));
  // Internal port: scraped openly, like the health probes.
  app.use(metricsRoutes(deps.metrics));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger, contactStatusByCode));
  return app;
}
