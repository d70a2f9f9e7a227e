import { Router, type Response } from 'express';
import { bodyObject, identityOf, isWellFormedEmail, jsonBody, notFound, validationFailed } from '@mailer/shared';
import { findAccountWorkflow, listWorkflowSummaries } from '../../data-access/workflows.repository';
import { previewEmail, sendTestEmail, type EmailSample } from '../../domain/app/preview-email';
import { RenderError } from '../../domain/rendering/render-email';
import type { SendContext } from '../../domain/sending/send-context';
import { importWorkflows } from '../../domain/workflows/import-workflows';
import { createWorkflow, switchWorkflow, updateWorkflow } from '../../domain/workflows/save-workflow';
import type { WorkflowWrites } from '../../domain/workflows/workflow-writes';

const ID = /^[1-9][0-9]{0,14}$/;

const accountOf = (res: Response) => identityOf(res).accountId;

function idOf(raw: string | undefined): number {
  if (!raw || !ID.test(raw)) throw notFound('workflow');
  return Number(raw);
}

/** An address a sample is made for (preview) or sent to (test). */
function addressOf(body: Record<string, unknown>, field: 'contact_email' | 'to'): string {
  const value = body[field];
  if (typeof value !== 'string' || value.length > 254 || !isWellFormedEmail(value.trim())) throw validationFailed([`${field}: must be an email address`]);
  return value.trim();
}

const workflowJson = (workflow: NonNullable<Awaited<ReturnType<typeof findAccountWorkflow>>>) => ({
  id: workflow.id,
  name: workflow.name,
  enabled: workflow.enabled,
  definition: workflow.definition,
  updated_at: workflow.updated_at.toISOString(),
});

/**
 * What the account app manages of workflows (signed identity, under /internal/v1, which the
 * gateway never routes): thin routes over the same validation and storage as the CLI import.
 * 422 answers list every problem with its path (`steps.1.subject: …`), so the app can show each
 * next to its field.
 */
export function internalWorkflowsRoutes(ctx: SendContext, writes: WorkflowWrites): Router {
  const router = Router();
  router.use(jsonBody('1mb'));

  router.get('/workflows', async (_req, res) => {
    const rows = await listWorkflowSummaries(ctx.pool, accountOf(res));
    res.json({ data: rows.map((row) => ({ ...row, updated_at: row.updated_at.toISOString() })) });
  });

  router.post('/workflows', async (req, res) => {
    res.status(201).json({ data: await createWorkflow(writes, accountOf(res), req.body) });
  });

  // A workflow file as the CLI imports it: one workflow or a list, all or nothing, same name replaces.
  router.post('/workflows/import', async (req, res) => {
    res.json({ data: await importWorkflows(writes, accountOf(res), req.body) });
  });

  router.get('/workflows/:id', async (req, res) => {
    const workflow = await findAccountWorkflow(ctx.pool, accountOf(res), idOf(req.params.id));
    if (!workflow) throw notFound('workflow');
    res.json({ data: workflowJson(workflow) });
  });

  router.put('/workflows/:id', async (req, res) => {
    const id = idOf(req.params.id);
    await updateWorkflow(writes, accountOf(res), id, req.body);
    res.json({ data: workflowJson((await findAccountWorkflow(ctx.pool, accountOf(res), id))!) });
  });

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    router.post(`/workflows/:id/${action}`, async (req, res) => {
      const id = idOf(req.params.id);
      await switchWorkflow(writes, accountOf(res), id, enabled);
      res.json({ data: { id, enabled } });
    });
  }

  /** A saved workflow's email step with the workflow's fallbacks. */
  async function stepSample(res: Response, id: string | undefined, stepId: string | undefined, contactEmail: string): Promise<EmailSample> {
    const workflow = await findAccountWorkflow(ctx.pool, accountOf(res), idOf(id));
    const step = workflow?.definition.steps.find((candidate) => candidate.id === stepId);
    if (!workflow || !step || step.type !== 'email') throw notFound('email step');
    return { source: { kind: 'step', step, fallbacks: workflow.definition.fallbacks }, contactEmail };
  }

  router.post('/workflows/:id/steps/:stepId/preview', async (req, res) => {
    const sample = await stepSample(res, req.params.id, req.params.stepId, addressOf(bodyObject(req.body), 'contact_email'));
    res.json({ data: await renderOr422(() => previewEmail(ctx, accountOf(res), sample)) });
  });

  router.post('/workflows/:id/steps/:stepId/test', async (req, res) => {
    const sample = await stepSample(res, req.params.id, req.params.stepId, addressOf(bodyObject(req.body), 'to'));
    res.json({ data: await sendTestEmail(ctx, accountOf(res), sample) });
  });

  return router;
}

/** A template that parses but cannot render for this contact (too large, runaway loop) is the input's fault. */
export async function renderOr422<T>(render: () => Promise<T>): Promise<T> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof RenderError) throw validationFailed([error.message]);
    throw error;
  }
}
