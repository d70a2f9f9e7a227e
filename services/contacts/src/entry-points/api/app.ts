import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { httpMetrics, metricsRoutes, type Redis, type Registry } from '@mailer/shared';
import type { Logger } from 'pino';
import {
  errorMiddleware,
  HotRoutes,
  fragmentRoute,
  healthRoutes,
  notFoundHandler,
  requestId,
  traceRequests,
  requireIdentity,
  type Broker,
  type EmailDomainValidator,
  type Pool,
} from '@mailer/shared';
import { contactStatusByCode } from '../../domain/contact.errors';
import { segmentStatusByCode } from '../../domain/segments/segment.errors';
import { addHotContactRoutes, contactsRoutes } from './contacts.routes';
import { internalContactsRoutes } from './internal.routes';
import { doubleOptInRoutes } from './double-opt-in.routes';
import { segmentsRoutes } from './segments.routes';
import { subscribeFormRoutes } from './subscribe-form.routes';
import { contactsOpenApiFragment } from './openapi';

export interface ContactsAppDeps {
  logger: Logger;
  pool: Pool;
  broker: Broker;
  signingSecret: string;
  emailValidator: EmailDomainValidator;
  /** The subscribe form's rate limit. */
  redis: Redis;
  metrics: Registry;
  /** METRICS_TOKEN: when set, GET /metrics answers only a scraper presenting it. */
  metricsToken?: string;
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
  app.use('/api/v1/contacts', contactsRoutes({ pool: deps.pool, emailValidator: deps.emailValidator, logger: deps.logger }));
  // The account app's extras (import batches, tag removal, export slices, counts); never routed by the gateway.
  app.use('/internal/v1', requireIdentity(deps.signingSecret));
  app.use('/internal/v1', internalContactsRoutes({ pool: deps.pool, emailValidator: deps.emailValidator, logger: deps.logger }));
  app.use('/internal/v1', doubleOptInRoutes({ pool: deps.pool }));
  app.use('/internal/v1/segments', segmentsRoutes({ pool: deps.pool }));
  const forms = subscribeFormRoutes({ pool: deps.pool, emailValidator: deps.emailValidator, logger: deps.logger, redis: deps.redis });
  app.use('/internal/v1', forms.internalRoutes);
  // The hosted subscribe form: public, outside the signed prefixes (the gateway forwards /subscribe/*).
  app.use(forms.publicRoutes);
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
  app.use(metricsRoutes(deps.metrics, deps.metricsToken));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger, { ...contactStatusByCode, ...segmentStatusByCode }));
  return app;
}

/** What the service listens with: the hot contact routes on plain node:http, the rest through `buildApp`. */
export function buildListener(deps: ContactsAppDeps): RequestListener {
  const hot = new HotRoutes({
    service: 'contacts',
    signingSecret: deps.signingSecret,
    metrics: deps.metrics,
    logger: deps.logger,
    statusByCode: contactStatusByCode,
  });
  addHotContactRoutes(hot, { pool: deps.pool, emailValidator: deps.emailValidator, logger: deps.logger });
  return hot.listener(buildApp(deps));
}
