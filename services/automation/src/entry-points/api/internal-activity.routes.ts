import { Router } from 'express';
import { bodyObject, campaignContentSchema, identityOf, isWellFormedEmail, jsonBody, validationFailed, zodMessages, type Pool } from '@mailer/shared';
import { z } from 'zod';
import { ACTIVITY_OUTCOMES, listActivity } from '../../data-access/activity.repository';
import { previewEmail } from '../../domain/app/preview-email';
import type { SendContext } from '../../domain/sending/send-context';
import { renderOr422 } from './internal-workflows.routes';

const ID = /^[1-9][0-9]{0,14}$/;
const PAGE = 50;

const activityQuery = z.object({
  contact: z.string().regex(ID).optional(),
  email: z.string().max(254).optional(),
  workflow: z.string().regex(ID).optional(),
  campaign: z.string().regex(ID).optional(),
  outcome: z.enum(ACTIVITY_OUTCOMES).optional(),
  /** `<time>~<source>~<id>` of the last entry seen (the answer's `next_before`). */
  before: z.string().regex(/^[0-9 :.+-]{10,40}~[cw]~[1-9][0-9]{0,18}$/).optional(),
  limit: z.string().regex(ID).optional(),
});

const previewBody = z.object({ content: campaignContentSchema, contact_email: z.string().max(254) });

/**
 * The account's activity across workflows and campaigns, newest first and keyset paged, and the
 * preview of a campaign's content for one contact (campaigns owns the content; the renderer and
 * the contacts' details are here). Signed identity, under /internal/v1.
 */
export function internalActivityRoutes(deps: { pool: Pool; ctx: SendContext }): Router {
  const router = Router();

  router.get('/activity', async (req, res) => {
    const parsed = activityQuery.safeParse(req.query);
    if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
    const query = parsed.data;
    const limit = Math.min(Number(query.limit ?? PAGE), 200);
    const cursor = query.before?.split('~');
    const rows = await listActivity(deps.pool, {
      accountId: identityOf(res).accountId,
      contactId: query.contact === undefined ? undefined : Number(query.contact),
      email: query.email?.trim() || undefined,
      workflowId: query.workflow === undefined ? undefined : Number(query.workflow),
      campaignId: query.campaign === undefined ? undefined : Number(query.campaign),
      outcome: query.outcome,
      before: cursor ? { at: cursor[0]!, source: cursor[1] as 'c' | 'w', id: Number(cursor[2]) } : undefined,
      limit,
    });
    const last = rows.at(-1);
    res.json({
      data: rows.map(({ at, at_text: _cursor, ...row }) => ({ ...row, at: at.toISOString() })),
      next_before: rows.length === limit && last ? `${last.at_text}~${last.source}~${last.id}` : null,
    });
  });

  router.post('/previews/campaign', jsonBody('1mb'), async (req, res) => {
    const parsed = previewBody.safeParse(bodyObject(req.body));
    if (!parsed.success) throw validationFailed(zodMessages(parsed.error));
    const email = parsed.data.contact_email.trim();
    if (!isWellFormedEmail(email)) throw validationFailed(['contact_email: must be an email address']);
    const sample = { source: { kind: 'campaign' as const, content: parsed.data.content }, contactEmail: email };
    res.json({ data: await renderOr422(() => previewEmail(deps.ctx, identityOf(res).accountId, sample)) });
  });

  return router;
}
