import { Router } from 'express';
import { identityOf, jsonBody, notFound, validationFailed, zodMessages, type Pool } from '@mailer/shared';
import { z } from 'zod';
import { contactEmails } from '../../data-access/engagement-reads.repository';
import { findTrackingSettings, saveTrackingSettings } from '../../data-access/tracking-settings.repository';
import { workflowStepStats } from '../../domain/engagement/workflow-step-stats';
import type { TrackingSettingsCache } from '../../domain/tracking/tracking-settings-cache';

const ID = /^[1-9][0-9]{0,14}$/;
const CONTACT_EMAILS = 100;

const settingsBody = z.strictObject({ link_tracking: z.boolean(), open_tracking: z.boolean() });

/**
 * What the account app reads and sets about tracking and engagement (signed identity, under
 * /internal/v1): the account's tracking settings, a workflow's figures per email step, and the
 * emails one contact was sent with what they did with them.
 */
export function internalEngagementRoutes(deps: { pool: Pool; trackingSettings: TrackingSettingsCache }): Router {
  const router = Router();

  router
    .route('/tracking-settings')
    .get(async (_req, res) => {
      res.json({ data: await findTrackingSettings(deps.pool, identityOf(res).accountId) });
    })
    .put(jsonBody('2kb'), async (req, res) => {
      const parsed = settingsBody.safeParse(req.body);
      if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
      const accountId = identityOf(res).accountId;
      const saved = await saveTrackingSettings(deps.pool, accountId, parsed.data);
      deps.trackingSettings.forget(accountId);
      res.json({ data: saved });
    });

  router.get('/workflows/:id/step-stats', async (req, res) => {
    if (!ID.test(req.params.id)) throw notFound('workflow');
    const stats = await workflowStepStats(deps.pool, identityOf(res).accountId, Number(req.params.id));
    if (!stats) throw notFound('workflow');
    res.json({ data: stats });
  });

  router.get('/contacts/:contactId/emails', async (req, res) => {
    if (!ID.test(req.params.contactId)) throw notFound('contact');
    const emails = await contactEmails(deps.pool, identityOf(res).accountId, Number(req.params.contactId), CONTACT_EMAILS);
    const iso = (at: Date | null) => (at === null ? null : at.toISOString());
    res.json({
      data: emails.map((email) => ({
        ...email,
        sent_at: iso(email.sent_at),
        first_opened_at: iso(email.first_opened_at),
        first_clicked_at: iso(email.first_clicked_at),
      })),
    });
  });

  return router;
}
