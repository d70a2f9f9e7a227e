import express, { Router, type Request, type Response } from 'express';
import { AppError, CommonErrorCodes } from '@mailer/shared';
import { isRefused, type StoredWorkflow } from '../../../data-access/automation.client';
import { emailFrameHeaders } from '../../http/security-headers';
import { callerOf, refuseForgedForm, requireCsrf, signedInOf, viewerOf } from '../../http/session.middleware';
import type { WebDeps } from '../../http/web-deps';
import { stepPreviewPage } from './step-preview.page';
import { documentOfForm, emptyForm, fieldErrorsOf, formOfBody, formOfDocument } from './workflow-form';
import { workflowFormPage } from './workflow-form.page';
import { workflowsListPage } from './workflows-list.page';

const ID = /^[1-9]\d{0,14}$/;
const NOTICES: Record<string, string> = {
  created: 'Workflow created.',
  saved: 'Changes saved.',
  enabled: 'Workflow enabled: matching events enrol contacts again.',
  disabled: 'Workflow disabled: it enrols no one until enabled (contacts already in it go on).',
  imported: 'Workflow file imported.',
  'test-sent': 'Test email sent.',
};

const noticeOf = (req: Request) => (typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined);
const bodyOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function workflowId(raw: string | undefined): number {
  if (!raw || !ID.test(raw)) throw new AppError(CommonErrorCodes.NOT_FOUND, 'workflow not found');
  return Number(raw);
}

/** Reads an uploaded file from a multipart form (Node's own parser, body already size-limited). */
async function uploadedForm(req: Request): Promise<FormData> {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  try {
    return await new Response(raw, { headers: { 'content-type': req.get('content-type') ?? '' } }).formData();
  } catch {
    throw new AppError(CommonErrorCodes.BAD_REQUEST, 'The upload could not be read. Choose the file again.');
  }
}

/**
 * /app/workflows: the list, the create/edit form, enable/disable, import and export of workflow
 * files (the CLI's format), and each email step's preview and test send. Automation validates and
 * stores; its problems come back with paths and are shown next to the fields.
 */
export function workflowRoutes(deps: WebDeps): Router {
  const router = Router();

  const listPage = async (req: Request, res: Response, extra: { importErrors?: string[] } = {}) =>
    workflowsListPage({ viewer: viewerOf(res), workflows: await deps.automation.workflows(callerOf(req, res)), notice: noticeOf(req), ...extra });

  router.get('/', async (req, res) => {
    res.type('html').send(await listPage(req, res));
  });

  router.get('/new', (_req, res) => {
    res.type('html').send(workflowFormPage({ viewer: viewerOf(res), form: emptyForm() }));
  });

  router.post('/', requireCsrf, async (req, res) => {
    const form = formOfBody(bodyOf(req));
    const { document, problems, ...rows } = documentOfForm(form);
    const answer = await deps.automation.createWorkflow(callerOf(req, res), document);
    if (isRefused(answer) || problems.length > 0) {
      const errors = fieldErrorsOf([...problems, ...(isRefused(answer) ? answer.refused : [])], rows);
      return void res.status(422).type('html').send(workflowFormPage({ viewer: viewerOf(res), form, errors }));
    }
    res.redirect(303, `/app/workflows/${answer.id}?done=created`);
  });

  router.post('/import', express.raw({ type: 'multipart/form-data', limit: '1mb' }), async (req, res) => {
    const upload = await uploadedForm(req);
    req.body = { _csrf: upload.get('_csrf') };
    if (refuseForgedForm(req, res, signedInOf(res)?.session.csrfToken)) return;
    const file = upload.get('file');
    let document: unknown;
    try {
      document = JSON.parse(typeof file === 'string' || file === null ? '' : await file.text());
    } catch {
      return void res.status(422).type('html').send(await listPage(req, res, { importErrors: ['the file is not JSON'] }));
    }
    const answer = await deps.automation.importWorkflows(callerOf(req, res), document);
    if (isRefused(answer)) return void res.status(422).type('html').send(await listPage(req, res, { importErrors: answer.refused }));
    res.redirect(303, '/app/workflows?done=imported');
  });

  router.get('/:id', async (req, res) => {
    const caller = callerOf(req, res);
    const id = workflowId(String(req.params.id));
    const [saved, stepStats] = await Promise.all([deps.automation.workflow(caller, String(id)), deps.engagement.stepStats(caller, id)]);
    res.type('html').send(workflowFormPage({ viewer: viewerOf(res), form: formOfDocument(saved.definition), saved, notice: noticeOf(req), stepStats }));
  });

  router.post('/:id', requireCsrf, async (req, res) => {
    const id = workflowId(String(req.params.id));
    const caller = callerOf(req, res);
    const form = formOfBody(bodyOf(req));
    const { document, problems, ...rows } = documentOfForm(form);
    const answer = problems.length > 0 ? { refused: [] } : await deps.automation.updateWorkflow(caller, id, document);
    if (isRefused(answer)) {
      const saved: StoredWorkflow = await deps.automation.workflow(caller, String(id));
      const errors = fieldErrorsOf([...problems, ...answer.refused], rows);
      return void res.status(422).type('html').send(workflowFormPage({ viewer: viewerOf(res), form, errors, saved }));
    }
    res.redirect(303, `/app/workflows/${id}?done=saved`);
  });

  for (const action of ['enable', 'disable'] as const) {
    router.post(`/:id/${action}`, requireCsrf, async (req, res) => {
      const id = workflowId(String(req.params.id));
      await deps.automation.setEnabled(callerOf(req, res), id, action === 'enable');
      const done = `${action}d`;
      res.redirect(303, bodyOf(req).back === 'list' ? `/app/workflows?done=${done}` : `/app/workflows/${id}?done=${done}`);
    });
  }

  router.get('/:id/export', async (req, res) => {
    const saved = await deps.automation.workflow(callerOf(req, res), String(workflowId(String(req.params.id))));
    const filename = `${saved.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'workflow'}.json`;
    res.attachment(filename).type('application/json').send(`${JSON.stringify(saved.definition, null, 2)}\n`);
  });

  router.get('/:id/steps/:stepId', async (req, res) => {
    const caller = callerOf(req, res);
    const id = workflowId(String(req.params.id));
    const workflow = await deps.automation.workflow(caller, String(id));
    const contactEmail = textOf(req.query.contact);
    const answer = contactEmail ? await deps.automation.previewStep(caller, id, String(req.params.stepId), contactEmail) : undefined;
    const refused = isRefused(answer) ? answer.refused : undefined;
    res.status(refused ? 422 : 200).type('html').send(
      stepPreviewPage({
        viewer: viewerOf(res),
        workflow,
        stepId: String(req.params.stepId),
        contactEmail,
        sample: isRefused(answer) ? undefined : answer,
        previewErrors: refused,
        notice: noticeOf(req),
      }),
    );
  });

  // The rendered HTML alone, for the preview page's sandboxed frame.
  router.get('/:id/steps/:stepId/frame', emailFrameHeaders, async (req, res) => {
    const answer = await deps.automation.previewStep(callerOf(req, res), workflowId(String(req.params.id)), String(req.params.stepId), textOf(req.query.contact));
    if (isRefused(answer)) return void res.status(422).type('text').send(answer.refused.join('\n'));
    res.type('html').send(answer.html ?? '');
  });

  router.post('/:id/steps/:stepId/test', requireCsrf, async (req, res) => {
    const caller = callerOf(req, res);
    const id = workflowId(String(req.params.id));
    const workflow = await deps.automation.workflow(caller, String(id));
    const to = textOf(bodyOf(req).to);
    const contactEmail = textOf(bodyOf(req).contact);
    const answer = await deps.automation.testStep(caller, id, String(req.params.stepId), to);
    const view = { viewer: viewerOf(res), workflow, stepId: String(req.params.stepId), contactEmail, testTo: to };
    if (isRefused(answer)) return void res.status(422).type('html').send(stepPreviewPage({ ...view, testErrors: answer.refused }));
    if (answer.outcome === 'failed') return void res.status(422).type('html').send(stepPreviewPage({ ...view, testErrors: [`The test could not be sent: ${answer.reason ?? 'unknown reason'}`] }));
    const back = new URLSearchParams({ done: 'test-sent' });
    if (contactEmail) back.set('contact', contactEmail);
    res.redirect(303, `/app/workflows/${id}/steps/${encodeURIComponent(String(req.params.stepId))}?${back.toString()}`);
  });

  return router;
}
