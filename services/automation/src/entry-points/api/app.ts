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
import { confirmationPageRoutes, confirmationTemplateRoutes } from './confirmation.routes';
import { internalCampaignsRoutes } from './internal-campaigns.routes';
import { internalActivityRoutes } from './internal-activity.routes';
import { internalWorkflowsRoutes } from './internal-workflows.routes';
import { internalAccountFiguresRoutes } from './internal-account-figures.routes';
import { internalSystemEmailRoutes } from './internal-system-email.routes';
import { internalEngagementRoutes } from './internal-engagement.routes';
import type { SendContext } from '../../domain/sending/send-context';
import type { SmtpProbe } from '../../domain/sending/smtp-probe';
import type { TriggerRoutes } from '../../domain/routing/trigger-routing';

export interface AutomationAppDeps {
  logger: Logger;
  pool: Pool;
  broker: Broker;
  signingSecret: string;
  unsubscribeSecret: string;
  onUnsubscribed: () => void;
  metrics: Registry;
  /** METRICS_TOKEN: when set, GET /metrics answers only a scraper presenting it. */
  metricsToken?: string;
  /** The renderer, mailer and contacts the app's previews and test sends use. */
  sendContext: SendContext;
  /** Whether the SMTP server can take an email now (the app's password reset asks first). */
  smtpProbe: SmtpProbe;
  /** What workflow writes arm before they commit. */
  triggerRoutes: TriggerRoutes;
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
  app.use(metricsRoutes(deps.metrics, deps.metricsToken));
  app.use(unsubscribeRoutes({ pool: deps.pool, secret: deps.unsubscribeSecret, onUnsubscribed: deps.onUnsubscribed }));
  // Double opt-in's confirm link: public like the unsubscribe page, the same link secret.
  app.use(confirmationPageRoutes({ pool: deps.pool, secret: deps.unsubscribeSecret, onConfirmed: deps.onUnsubscribed }));
  app.use('/api/v1', requireIdentity(deps.signingSecret));
  // The account app's routes (audience count, per-recipient outcomes, workflows, activity,
  // previews and test sends); never routed by the gateway.
  app.use('/internal/v1', requireIdentity(deps.signingSecret));
  app.use('/internal/v1', internalCampaignsRoutes({ pool: deps.pool }));
  app.use('/internal/v1', internalActivityRoutes({ pool: deps.pool, ctx: deps.sendContext }));
  app.use('/internal/v1', internalWorkflowsRoutes(deps.sendContext, { pool: deps.pool, renderer: deps.sendContext.renderer, routes: deps.triggerRoutes }));
  app.use('/internal/v1', internalAccountFiguresRoutes({ pool: deps.pool }));
  app.use('/internal/v1', confirmationTemplateRoutes({ pool: deps.pool, ctx: deps.sendContext }));
  app.use('/internal/v1', internalSystemEmailRoutes(deps.sendContext, deps.smtpProbe));
  app.use('/internal/v1', internalEngagementRoutes({ pool: deps.pool, trackingSettings: deps.sendContext.tracking.settings }));
  app.use(notFoundHandler());
  app.use(errorMiddleware(deps.logger));
  return app;
}
