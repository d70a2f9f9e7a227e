import { Router } from 'express';
import { identityOf, notFound, validationFailed, type Pool } from '@mailer/shared';
import { z } from 'zod';
import { countAudience } from '../../data-access/campaign-deliveries.repository';
import { listRecipientsPage } from '../../domain/campaigns/list-campaign-recipients';

const ID = /^[1-9][0-9]{0,14}$/;

const audienceQuery = z.object({
  tag: z.union([z.string(), z.array(z.string())]).optional(),
  match: z.enum(['any', 'all']).default('any'),
});

const recipientsQuery = z.object({
  outcome: z.string().optional(),
  after: z.string().regex(ID).optional(),
  limit: z.string().regex(ID).optional(),
});

/**
 * What the account app reads from automation about campaigns (signed identity, mounted under
 * /internal/v1, which the gateway never routes): the audience count before sending, and the
 * per-recipient outcomes of a send.
 */
export function internalCampaignsRoutes(deps: { pool: Pool }): Router {
  const router = Router();

  router.get('/audience-count', async (req, res) => {
    const parsed = audienceQuery.safeParse(req.query);
    if (!parsed.success) throw validationFailed(['match must be any or all']);
    const tags = parsed.data.tag === undefined ? [] : [parsed.data.tag].flat();
    const count = await countAudience(deps.pool, identityOf(res).accountId, { tags, match: parsed.data.match });
    res.json({ data: { count } });
  });

  router.get('/campaigns/:id/recipients', async (req, res) => {
    if (!ID.test(req.params.id)) throw notFound('campaign');
    const parsed = recipientsQuery.safeParse(req.query);
    if (!parsed.success) throw validationFailed(['after and limit must be positive integers']);
    const page = await listRecipientsPage(deps.pool, {
      accountId: identityOf(res).accountId,
      campaignId: Number(req.params.id),
      outcome: parsed.data.outcome,
      after: parsed.data.after === undefined ? undefined : Number(parsed.data.after),
      limit: parsed.data.limit === undefined ? undefined : Number(parsed.data.limit),
    });
    res.json(page);
  });

  return router;
}
