import { Router, type Request, type Response } from 'express';
import type { Caller } from '@mailer/shared';
import { isSegmentRefusal, type Segment } from '../../../data-access/segments.client';
import { callerOf, requireCsrf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import {
  CONDITION_TYPES,
  emptyRow,
  emptySegmentForm,
  formOfBody,
  formOfSegment,
  problemsByRow,
  ruleOfForm,
  type SegmentForm,
} from './segment-form';
import { segmentBuilderPage } from './segment-builder.page';
import { segmentPreviewPartial, type PreviewState } from './segment-preview.partial';
import { deleteSegmentPage, segmentsListPage } from './segments-list.page';

const NOTICES: Record<string, string> = {
  created: 'Segment created.',
  saved: 'Segment saved.',
  deleted: 'Segment deleted.',
};
/** The campaigns a campaign condition can name: the latest ones (the list's page size). */
const CAMPAIGN_CHOICES = 100;

const bodyOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

/**
 * /app/segments: list, build (create and edit), delete. The contacts service owns the rule and
 * its evaluation; the app turns the flat form into the rule's JSON and shows the service's 422
 * reasons. The builder's live count is a partial (htmx) and, without JS, its Preview button.
 */
export function segmentRoutes(deps: WebDeps): Router {
  const router = Router();

  async function previewOf(caller: Caller, form: SegmentForm): Promise<PreviewState> {
    const rule = ruleOfForm(form);
    if (!rule) return { kind: 'empty' };
    const answer = await deps.segments.preview(caller, rule);
    return isSegmentRefusal(answer)
      ? { kind: 'refused', problems: answer.problems }
      : { kind: 'result', preview: answer };
  }

  async function builder(
    req: Request,
    res: Response,
    form: SegmentForm,
    extra: {
      segment?: Segment | undefined;
      status?: number;
      problems?: string[];
      preview?: PreviewState;
    } = {},
  ) {
    const caller = callerOf(req, res);
    const [preview, campaigns] = await Promise.all([
      extra.preview ?? previewOf(caller, form),
      deps.campaigns.list(caller, 1, CAMPAIGN_CHOICES),
    ]);
    const notice = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    res
      .status(extra.status ?? 200)
      .type('html')
      .send(
        segmentBuilderPage({
          viewer: viewerOf(res),
          form,
          preview,
          campaigns: campaigns.data.map((campaign) => ({ id: campaign.id, name: campaign.name })),
          segment: extra.segment,
          problems: extra.problems ? problemsByRow(extra.problems) : undefined,
          notice,
        }),
      );
  }

  /** One post of the builder: add or remove a row and render again, preview, or save (then redirect). */
  async function submit(req: Request, res: Response, segment: Segment | undefined) {
    const caller = callerOf(req, res);
    const form = formOfBody(bodyOf(req));
    const intent = typeof bodyOf(req).intent === 'string' ? String(bodyOf(req).intent) : 'save';
    if (intent === 'add') {
      const type = CONDITION_TYPES.find((entry) => entry.type === bodyOf(req).add_type)?.type ?? 'tag';
      return builder(req, res, { ...form, rows: [...form.rows, emptyRow(type)] }, { segment });
    }
    if (intent.startsWith('remove:')) {
      const index = Number(intent.slice('remove:'.length));
      return builder(req, res, { ...form, rows: form.rows.filter((_row, n) => n !== index) }, { segment });
    }
    if (intent === 'preview') return builder(req, res, form, { segment });
    const rule = ruleOfForm(form);
    if (!rule)
      return builder(req, res, form, {
        segment,
        status: 422,
        problems: ['conditions must hold at least one condition'],
      });
    const answer = segment
      ? await deps.segments.update(caller, segment.id, { name: form.name, rule })
      : await deps.segments.create(caller, { name: form.name, rule });
    if (isSegmentRefusal(answer))
      return builder(req, res, form, { segment, status: 422, problems: answer.problems });
    res.redirect(303, `/app/segments/${answer.id}?done=${segment ? 'saved' : 'created'}`);
  }

  router.get('/', async (req, res) => {
    const caller = callerOf(req, res);
    const segments = await deps.segments.list(caller);
    // A count per segment: a failing one shows a dash rather than failing the list.
    const counted = await Promise.all(
      segments.map(async (segment) => ({
        ...segment,
        count: await deps.segments.count(caller, segment.id).catch(() => null),
      })),
    );
    res
      .type('html')
      .send(
        segmentsListPage({
          viewer: viewerOf(res),
          segments: counted,
          notice: typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined,
        }),
      );
  });

  router.get('/new', async (req, res) => builder(req, res, emptySegmentForm()));

  router.post('/', requireCsrf, async (req, res) => submit(req, res, undefined));

  // htmx: the count and sample of the rule as the form holds it now (before /:id).
  router.post('/preview', requireCsrf, async (req, res) => {
    const state = await previewOf(callerOf(req, res), formOfBody(bodyOf(req)));
    res.type('html').send(segmentPreviewPartial(state).value);
  });

  router.get('/:id', async (req, res) => {
    const segment = await deps.segments.get(callerOf(req, res), String(req.params.id));
    await builder(req, res, formOfSegment(segment), { segment });
  });

  router.post('/:id', requireCsrf, async (req, res) => {
    await submit(req, res, await deps.segments.get(callerOf(req, res), String(req.params.id)));
  });

  router.get('/:id/delete', async (req, res) => {
    res
      .type('html')
      .send(
        deleteSegmentPage({
          viewer: viewerOf(res),
          segment: await deps.segments.get(callerOf(req, res), String(req.params.id)),
        }),
      );
  });

  router.post('/:id/delete', requireCsrf, async (req, res) => {
    const segment = await deps.segments.get(callerOf(req, res), String(req.params.id));
    await deps.segments.remove(callerOf(req, res), segment.id);
    res.redirect(303, '/app/segments?done=deleted');
  });

  return router;
}
