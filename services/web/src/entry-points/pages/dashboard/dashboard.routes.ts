import { Router } from 'express';
import type { WebDeps } from '../../http/web-deps';
import { callerOf, viewerOf } from '../../http/session.middleware';
import { dashboardPage } from './dashboard.page';

const WEEK_MS = 7 * 86_400_000;

/** GET /app: the account at a glance (one call to contacts, one to automation, in parallel). */
export function dashboardRoutes(deps: WebDeps): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const caller = callerOf(req, res);
    // Webhooks are not what the dashboard is for: while that service is away the page still shows, without the warning.
    const endpoints = deps.webhooks.list(caller).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'dashboard: webhook endpoints unavailable');
      return [];
    });
    const [contacts, sends, webhooks] = await Promise.all([deps.contacts.figures(caller, new Date(Date.now() - WEEK_MS)), deps.figures.dashboard(caller), endpoints]);
    res.type('html').send(dashboardPage({ contacts, sends, webhooks }, viewerOf(res)));
  });
  return router;
}
