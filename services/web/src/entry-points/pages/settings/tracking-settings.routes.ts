import { Router } from 'express';
import { isRefused } from '../../../data-access/automation.client';
import { callerOf, requireCsrf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { trackingSettingsPage } from './tracking-settings.page';

/** /app/settings/tracking: automation's per-account link and open tracking switches. */
export function trackingSettingsRoutes(deps: WebDeps): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const settings = await deps.engagement.trackingSettings(callerOf(req, res));
    res
      .type('html')
      .send(trackingSettingsPage({ viewer: viewerOf(res), settings, saved: req.query.saved === '1' }));
  });

  router.post('/', requireCsrf, async (req, res) => {
    // An unticked checkbox is absent from the form: absent means off.
    const body = (req.body ?? {}) as Record<string, unknown>;
    const settings = {
      link_tracking: body.link_tracking === 'on',
      open_tracking: body.open_tracking === 'on',
    };
    const answer = await deps.engagement.saveTrackingSettings(callerOf(req, res), settings);
    if (isRefused(answer))
      return void res
        .status(422)
        .type('html')
        .send(trackingSettingsPage({ viewer: viewerOf(res), settings, errors: answer.refused }));
    res.redirect(303, '/app/settings/tracking?saved=1');
  });

  return router;
}
