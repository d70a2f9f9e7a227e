import { Router } from 'express';
import { identityOf, methodNotAllowed, notFound, type Pool } from '@mailer/shared';
import { getCampaign } from '../../domain/get-campaign';
import { listCampaigns } from '../../domain/list-campaigns';
import { campaignJson, type CampaignPageJson } from './campaign.json';
import { parseListCampaignsQuery } from './list-campaigns.query';

// Ids are BIGINT identities; anything else (text, zero, past 2^53) cannot name a campaign.
const CAMPAIGN_ID = /^[1-9][0-9]{0,14}$/;

/** Campaigns are read-only: GET (and HEAD) answer, every other method is 405 with `Allow`. */
export function campaignsRoutes(deps: { pool: Pool }): Router {
  const router = Router();
  const readOnly = methodNotAllowed(['GET', 'HEAD']);

  router
    .route('/campaigns')
    .get(async (req, res) => {
      const query = parseListCampaignsQuery(req.query);
      const { campaigns, meta } = await listCampaigns(deps.pool, identityOf(res).accountId, query);
      const page: CampaignPageJson = { data: campaigns.map(campaignJson), meta };
      res.json(page);
    })
    .all(readOnly);

  router
    .route('/campaigns/:id')
    .get(async (req, res) => {
      const id = req.params.id;
      if (!CAMPAIGN_ID.test(id)) throw notFound('campaign');
      const campaign = await getCampaign(deps.pool, identityOf(res).accountId, Number(id));
      res.json({ data: campaignJson(campaign) });
    })
    .all(readOnly);

  return router;
}
