import { Router, type Request, type Response } from 'express';
import { isRefused } from '../../../data-access/automation.client';
import { DRIVE_ACTIONS, type CampaignDetail, type CampaignInput, type DriveAction } from '../../../data-access/campaigns.client';
import { emailFrameHeaders } from '../../http/security-headers';
import { callerOf, requireCsrf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { campaignDetailPage } from './campaign-detail.page';
import { campaignFormPage, emptyCampaignForm, formOfCampaign, type CampaignForm } from './campaign-form.page';
import { campaignReportCsv } from './campaign-report-csv';
import { campaignProgressPartial, notStarted } from './campaign-progress.partial';
import { campaignPreviewPage } from './campaign-preview.page';
import { campaignRecipientsPage } from './campaign-recipients.page';
import { campaignRows, campaignsListPage } from './campaigns-list.page';

const PER_PAGE = 20;
const NOTICES: Record<string, string> = {
  created: 'Draft created.',
  saved: 'Draft saved.',
  approve: 'Approved: the content is frozen. Send it now or schedule it.',
  'return-to-draft': 'Back to draft: you can edit it again.',
  send: 'Sending started.',
  scheduled: 'Scheduled.',
  pause: 'Paused: no new email goes out until you resume.',
  resume: 'Resumed.',
  cancel: 'Cancelled.',
  'retry-failed': 'Retrying the recipients whose failure was temporary.',
  'test-sent': 'Test email on its way.',
};
const FIELDS = new Set(['name', 'title', 'preview_text', 'html', 'text_body', 'audience_tags', 'audience_match', 'audience_segment_id', 'to', 'send_at']);

const bodyOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
const str = (req: Request, name: string) => {
  const value = bodyOf(req)[name];
  return typeof value === 'string' ? value : '';
};
const pageNumber = (value: unknown) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
};

/** The campaigns service's problems (`title Too small…`, `audience_tags.0 …`) by form field. */
function byField(messages: string[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const message of messages) {
    const match = /^([a-z_]+)(?:\.\d+)?:?\s+(.*)$/s.exec(message);
    const field = match && FIELDS.has(match[1]!) ? match[1]! : 'form';
    (errors[field] ??= []).push(field === 'form' ? message : match![2]!);
  }
  return errors;
}

function formOfBody(req: Request): CampaignForm {
  return {
    name: str(req, 'name'),
    title: str(req, 'title'),
    preview_text: str(req, 'preview_text'),
    html: str(req, 'html'),
    text: str(req, 'text'),
    tags: str(req, 'tags'),
    match: str(req, 'match') === 'all' ? 'all' : 'any',
    segment: /^[1-9]\d{0,14}$/.test(str(req, 'segment')) ? str(req, 'segment') : '',
  };
}

const inputOf = (form: CampaignForm): CampaignInput => ({
  name: form.name,
  title: form.title,
  preview_text: form.preview_text,
  html: form.html,
  text_body: form.text.trim() ? form.text : null,
  audience_tags: [...new Set(form.tags.split(',').map((tag) => tag.trim()).filter(Boolean))],
  audience_match: form.match,
  audience_segment_id: form.segment ? Number(form.segment) : null,
});

/**
 * /app/campaigns (issue #19's app section): list with live progress, compose and edit a draft,
 * preview for a sample contact, recipient count, test send, approve, send now or schedule,
 * pause / resume / cancel, per-recipient outcomes and retry failed. The campaigns service owns
 * the lifecycle (allowed actions come from it); automation renders previews and lists recipients.
 */
export function campaignRoutes(deps: WebDeps): Router {
  const router = Router();

  async function detail(req: Request, res: Response, campaign: CampaignDetail, extra: { status?: number; errors?: Record<string, string[]>; testTo?: string } = {}) {
    const caller = callerOf(req, res);
    const segmentId = campaign.audience.segment_id ?? null;
    const [segment, count, report] = await Promise.all([
      segmentId === null ? undefined : deps.segments.get(caller, segmentId).catch(() => undefined),
      // A count over every contact of the account: asked only while the audience is still a rule.
      notStarted(campaign) ? (segmentId === null ? deps.automation.audienceCount(caller, campaign.audience.tags, campaign.audience.match) : deps.segments.count(caller, segmentId)) : undefined,
      // The figures are one section of the page: when they cannot be read, the campaign still shows.
      notStarted(campaign) ? undefined : deps.campaigns.report(caller, campaign.id).catch(() => null),
    ]);
    const done = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    res.status(extra.status ?? 200).type('html').send(campaignDetailPage({ viewer: viewerOf(res), campaign, audienceCount: count, segment, report, notice: done, errors: extra.errors, testTo: extra.testTo }));
  }

  router.get('/', async (req, res) => {
    const page = pageNumber(req.query.page);
    res.type('html').send(campaignsListPage({ viewer: viewerOf(res), result: await deps.campaigns.list(callerOf(req, res), page, PER_PAGE), page }));
  });

  // htmx: the list's rows again, for live progress.
  router.get('/rows', async (req, res) => {
    const page = pageNumber(req.query.page);
    res.type('html').send(campaignRows(await deps.campaigns.list(callerOf(req, res), page, PER_PAGE), page).value);
  });

  router.get('/new', async (req, res) => {
    res.type('html').send(campaignFormPage({ viewer: viewerOf(res), form: emptyCampaignForm(), segments: await deps.segments.list(callerOf(req, res)) }));
  });

  router.post('/', requireCsrf, async (req, res) => {
    const form = formOfBody(req);
    const answer = await deps.campaigns.create(callerOf(req, res), inputOf(form));
    if (isRefused(answer)) return void res.status(422).type('html').send(campaignFormPage({ viewer: viewerOf(res), form, segments: await deps.segments.list(callerOf(req, res)), errors: byField(answer.refused) }));
    res.redirect(303, `/app/campaigns/${answer.id}?done=created`);
  });

  router.get('/:id', async (req, res) => {
    await detail(req, res, await deps.campaigns.get(callerOf(req, res), String(req.params.id)));
  });

  // The Performance section as a file: the metrics, then the links.
  router.get('/:id/report.csv', async (req, res) => {
    const report = await deps.campaigns.report(callerOf(req, res), String(req.params.id));
    res.status(200).type('text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="campaign-${report.campaign_id}-report.csv"`);
    res.send(campaignReportCsv(report));
  });

  // htmx: the live status and counts of one campaign.
  router.get('/:id/progress', async (req, res) => {
    res.type('html').send(campaignProgressPartial(await deps.campaigns.get(callerOf(req, res), String(req.params.id)), viewerOf(res)).value);
  });

  router.get('/:id/edit', async (req, res) => {
    const campaign = await deps.campaigns.get(callerOf(req, res), String(req.params.id));
    res.type('html').send(campaignFormPage({ viewer: viewerOf(res), form: formOfCampaign(campaign), segments: await deps.segments.list(callerOf(req, res)), campaign }));
  });

  router.post('/:id', requireCsrf, async (req, res) => {
    const caller = callerOf(req, res);
    const campaign = await deps.campaigns.get(caller, String(req.params.id));
    const form = formOfBody(req);
    const answer = await deps.campaigns.update(caller, campaign.id, inputOf(form));
    if (isRefused(answer)) return void res.status(422).type('html').send(campaignFormPage({ viewer: viewerOf(res), form, segments: await deps.segments.list(caller), errors: byField(answer.refused), campaign }));
    res.redirect(303, `/app/campaigns/${campaign.id}?done=saved`);
  });

  /** The campaign's content rendered for `contact` by automation (undefined without an address). */
  async function preview(req: Request, res: Response) {
    const caller = callerOf(req, res);
    const campaign = await deps.campaigns.get(caller, String(req.params.id));
    const contactEmail = typeof req.query.contact === 'string' ? req.query.contact.trim() : '';
    const content = { subject: campaign.subject, preview_text: campaign.preview_text, html: campaign.html, text: campaign.text, from_name: campaign.from_name, from_address: campaign.from_address };
    return { campaign, contactEmail, answer: contactEmail ? await deps.automation.previewCampaign(caller, content, contactEmail) : undefined };
  }

  // The rendered HTML alone, for the preview page's sandboxed frame.
  router.get('/:id/preview/frame', emailFrameHeaders, async (req, res) => {
    const { answer } = await preview(req, res);
    if (answer === undefined || isRefused(answer)) return void res.status(422).type('text').send('no sample contact');
    res.type('html').send(answer.html ?? '');
  });

  router.get('/:id/preview', async (req, res) => {
    const { campaign, contactEmail, answer } = await preview(req, res);
    const refused = isRefused(answer) ? answer.refused : undefined;
    res.status(refused ? 422 : 200).type('html').send(
      campaignPreviewPage({ viewer: viewerOf(res), campaign, contactEmail, sample: isRefused(answer) ? undefined : answer, errors: refused }),
    );
  });

  router.post('/:id/test', requireCsrf, async (req, res) => {
    const caller = callerOf(req, res);
    const campaign = await deps.campaigns.get(caller, String(req.params.id));
    const to = str(req, 'to').trim();
    const answer = await deps.campaigns.test(caller, campaign.id, to);
    if (isRefused(answer)) return void (await detail(req, res, campaign, { status: 422, errors: byField(answer.refused.map((m) => (/^to\b/.test(m) ? m : `to: ${m}`))), testTo: to }));
    res.redirect(303, `/app/campaigns/${campaign.id}?done=test-sent`);
  });

  router.get('/:id/recipients', async (req, res) => {
    const caller = callerOf(req, res);
    const campaign = await deps.campaigns.get(caller, String(req.params.id));
    const outcome = typeof req.query.outcome === 'string' ? req.query.outcome : '';
    const after = typeof req.query.after === 'string' && /^[1-9]\d{0,15}$/.test(req.query.after) ? req.query.after : undefined;
    const answer = await deps.automation.recipients(caller, campaign.id, outcome || undefined, after);
    const refused = isRefused(answer);
    const next = !refused && answer.next_after ? `/app/campaigns/${campaign.id}/recipients?${new URLSearchParams({ outcome, after: String(answer.next_after) }).toString()}` : undefined;
    res.status(refused ? 422 : 200).type('html').send(
      campaignRecipientsPage({ viewer: viewerOf(res), campaign, outcome, recipients: refused ? [] : answer.data, nextHref: next, errors: refused ? answer.refused : undefined }),
    );
  });

  router.post('/:id/:action', requireCsrf, async (req, res, next) => {
    const action = req.params.action as DriveAction;
    if (!DRIVE_ACTIONS.includes(action)) return next();
    const caller = callerOf(req, res);
    const campaign = await deps.campaigns.get(caller, String(req.params.id));
    const local = action === 'send' ? str(req, 'send_at').trim() : '';
    // The form's datetime-local has no zone: the page says UTC.
    const sendAt = local ? `${local.length === 16 ? `${local}:00` : local}Z` : undefined;
    if (sendAt !== undefined && Number.isNaN(Date.parse(sendAt))) {
      return void (await detail(req, res, campaign, { status: 422, errors: { send_at: ['must be a date and time'] } }));
    }
    const answer = await deps.campaigns.drive(caller, campaign.id, action, sendAt);
    if (isRefused(answer)) {
      const errors: Record<string, string[]> = sendAt ? { send_at: answer.refused } : { form: answer.refused };
      return void (await detail(req, res, await deps.campaigns.get(caller, campaign.id), { status: 409, errors }));
    }
    res.redirect(303, `/app/campaigns/${campaign.id}?done=${answer.status === 'scheduled' ? 'scheduled' : action}`);
  });

  return router;
}

