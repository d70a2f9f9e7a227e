import { Router, type Response } from 'express';
import { bodyObject, identityOf, jsonBody, notFound, validationFailed, type Pool } from '@mailer/shared';
import { z } from 'zod';
import { findCampaignRecord } from '../../data-access/campaign-records.repository';
import { findSendingSettings, saveSendingSettings } from '../../data-access/sending-settings.repository';
import { campaignReport } from '../../domain/reports/campaign-report';
import { changeCampaignStatus, type DriveAction } from '../../domain/sending/change-campaign-status';
import { createCampaign, updateCampaign } from '../../domain/sending/compose-campaign';
import { testSendCampaign } from '../../domain/sending/test-send-campaign';
import { campaignDetailJson } from './campaign-detail.json';

const CAMPAIGN_ID = /^[1-9][0-9]{0,14}$/;

const ACTIONS: Record<string, DriveAction> = {
  approve: 'approve',
  'return-to-draft': 'return_to_draft',
  send: 'send',
  pause: 'pause',
  resume: 'resume',
  cancel: 'cancel',
  'retry-failed': 'retry_failed',
};

const sendBody = z.object({ send_at: z.iso.datetime({ offset: true }).optional() });
const settingsBody = z.object({
  rate_per_second: z.number().int().positive().max(100_000).nullable().optional(),
  from_name: z.string().max(200).nullable().optional(),
  from_address: z.string().max(254).email().nullable().optional(),
});

function campaignId(raw: string): number {
  if (!CAMPAIGN_ID.test(raw)) throw notFound('campaign');
  return Number(raw);
}

const accountOf = (res: Response) => identityOf(res).accountId;

/**
 * The internal API the account app drives campaigns with (signed identity, like the gateway's
 * proxy). Mounted under /internal/v1, a prefix the gateway never routes: not reachable from outside.
 */
export function internalCampaignsRoutes(deps: { pool: Pool; onChange: () => void }): Router {
  const router = Router();
  router.use(jsonBody('1mb'));

  router.post('/campaigns', async (req, res) => {
    const campaign = await createCampaign(deps.pool, accountOf(res), bodyObject(req.body));
    res.status(201).json({ data: campaignDetailJson(campaign) });
  });

  router.get('/campaigns/:id', async (req, res) => {
    const campaign = await findCampaignRecord(deps.pool, accountOf(res), campaignId(req.params.id));
    if (!campaign) throw notFound('campaign');
    res.json({ data: campaignDetailJson(campaign) });
  });

  router.patch('/campaigns/:id', async (req, res) => {
    const campaign = await updateCampaign(deps.pool, accountOf(res), campaignId(req.params.id), bodyObject(req.body));
    res.json({ data: campaignDetailJson(campaign) });
  });

  router.get('/campaigns/:id/report', async (req, res) => {
    res.json({ data: await campaignReport(deps.pool, accountOf(res), campaignId(req.params.id)) });
  });

  router.post('/campaigns/:id/test', async (req, res) => {
    const sent = await testSendCampaign(deps.pool, accountOf(res), campaignId(req.params.id), bodyObject(req.body).to);
    deps.onChange();
    res.status(202).json({ data: sent });
  });

  router.post('/campaigns/:id/:action', async (req, res, next) => {
    const action = ACTIONS[req.params.action];
    if (!action) {
      next();
      return;
    }
    const body = req.body === undefined ? {} : bodyObject(req.body);
    const parsed = sendBody.safeParse(action === 'send' ? body : {});
    if (!parsed.success) throw validationFailed(['send_at: must be an ISO 8601 timestamp with a zone']);
    const sendAt = parsed.data.send_at === undefined ? undefined : new Date(parsed.data.send_at);
    const campaign = await changeCampaignStatus(deps.pool, accountOf(res), campaignId(req.params.id), action, { sendAt });
    deps.onChange();
    res.json({ data: campaignDetailJson(campaign) });
  });

  router
    .route('/sending-settings')
    .get(async (_req, res) => {
      res.json({ data: await findSendingSettings(deps.pool, accountOf(res)) });
    })
    .put(async (req, res) => {
      const parsed = settingsBody.safeParse(bodyObject(req.body));
      if (!parsed.success) throw validationFailed(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
      res.json({ data: await saveSendingSettings(deps.pool, accountOf(res), parsed.data) });
    });

  return router;
}
