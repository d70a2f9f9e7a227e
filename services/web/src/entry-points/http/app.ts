import express, { type Express } from 'express';
import { healthRoutes, httpMetrics, metricsRoutes, requestId, traceRequests } from '@mailer/shared';
import { activityRoutes } from '../pages/activity/activity.routes';
import { campaignRoutes } from '../pages/campaigns/campaigns.routes';
import { contactRoutes } from '../pages/contacts/contacts.routes';
import { dashboardRoutes } from '../pages/dashboard/dashboard.routes';
import { segmentRoutes } from '../pages/segments/segments.routes';
import { trackingSettingsRoutes } from '../pages/settings/tracking-settings.routes';
import { sendingSettingsRoutes } from '../pages/settings/sending-settings.routes';
import { settingsRoutes } from '../pages/settings/settings.routes';
import { webhooksRoutes } from '../pages/settings/webhooks.routes';
import { doubleOptInRoutes } from '../pages/settings/double-opt-in.routes';
import { workflowRoutes } from '../pages/workflows/workflows.routes';
import { signInRoutes } from '../pages/sign-in/sign-in.routes';
import { passwordResetRoutes } from '../pages/password-reset/password-reset.routes';
import { assetRoutes } from './assets.routes';
import { errorPages, notFoundPage } from './error-pages';
import { refuseNulFields } from './refuse-nul-fields';
import { securityHeaders } from './security-headers';
import { oldSettingsRedirect } from './old-settings-redirect';
import { loadSession, requireSignIn } from './session.middleware';
import type { WebDeps } from './web-deps';

/**
 * The account app: server-rendered pages under /app (the gateway routes them here with the path
 * kept), probes and metrics at the root. Every page reads and every form works without JavaScript.
 */
export function buildApp(deps: WebDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', deps.trustProxy.split(',').map((entry) => entry.trim()).filter(Boolean));
  app.use(httpMetrics(deps.metrics));
  app.use(requestId());
  app.use(traceRequests('web'));
  app.use(healthRoutes('web', [{ name: 'postgres', check: async () => void (await deps.pool.query('SELECT 1')) }, ...deps.readiness]));
  app.use(metricsRoutes(deps.metrics, deps.metricsToken));

  const pages = express.Router();
  pages.use(securityHeaders);
  pages.use('/assets', assetRoutes());
  // The CSV import reads its own (streamed) body; every other form is small.
  pages.use(express.urlencoded({ extended: false, limit: '64kb' }), refuseNulFields);
  pages.use(loadSession(deps.sessions));
  pages.use(signInRoutes(deps));
  pages.use(passwordResetRoutes(deps));
  pages.use(requireSignIn);
  pages.use(dashboardRoutes(deps));
  pages.use('/contacts', contactRoutes(deps));
  pages.use('/campaigns', campaignRoutes(deps));
  pages.use('/workflows', workflowRoutes(deps));
  pages.use('/activity', activityRoutes(deps));
  pages.use('/segments', segmentRoutes(deps));
  pages.use('/settings/sending', sendingSettingsRoutes(deps));
  pages.use('/settings/tracking', trackingSettingsRoutes(deps));
  pages.use('/settings/webhooks', webhooksRoutes(deps));
  pages.use('/settings/double-opt-in', doubleOptInRoutes(deps));
  pages.use('/settings', settingsRoutes(deps));
  pages.use(notFoundPage);
  pages.use(errorPages(deps.logger));
  app.use('/app', pages);
  app.use('/settings', oldSettingsRedirect());
  app.use((_req, res) => void res.status(404).json({ error: 'route not found' }));
  return app;
}
