import { notFound, validationFailed, withTransaction } from '@mailer/shared';
import { insertWorkflow, replaceWorkflow, setWorkflowEnabled } from '../../data-access/workflows.repository';
import type { EmailRenderer } from '../rendering/render-email';
import { validateWorkflows } from './validate-workflows';
import type { Workflow } from './workflow-schema';
import type { WorkflowWrites } from './workflow-writes';

/** One workflow (an object, not a file's array), validated as the import validates it. */
function validateOne(document: unknown, renderer: EmailRenderer): Workflow {
  if (Array.isArray(document)) throw validationFailed(['the form holds one workflow, not a list']);
  const validation = validateWorkflows(document, renderer);
  if (!validation.ok) throw validationFailed(validation.errors);
  return validation.workflows[0]!;
}

const nameTaken = (name: string) => validationFailed([`name: the account already has a workflow named "${name}"`]);

/** Creates a workflow from the app's form: a name already in use is a validation error on `name`. */
export async function createWorkflow(deps: WorkflowWrites, accountId: number, document: unknown): Promise<{ id: number }> {
  const workflow = validateOne(document, deps.renderer);
  const id = await withTransaction(deps.pool, async (client) => {
    const inserted = await insertWorkflow(client, accountId, workflow);
    if (inserted === undefined) throw nameTaken(workflow.name);
    await deps.routes.routeWithin(client, [{ accountId, event: workflow.trigger.event }]);
    return inserted;
  });
  return { id };
}

/** Replaces one workflow by id (its sends so far stay deduplicated: the id is kept). */
export async function updateWorkflow(deps: WorkflowWrites, accountId: number, id: number, document: unknown): Promise<void> {
  const workflow = validateOne(document, deps.renderer);
  await withTransaction(deps.pool, async (client) => {
    const result = await replaceWorkflow(client, accountId, id, workflow);
    if (result === 'missing') throw notFound('workflow');
    if (result === 'name_taken') throw nameTaken(workflow.name);
    if (result === 'enabled') await deps.routes.routeWithin(client, [{ accountId, event: workflow.trigger.event }]);
  });
  // The trigger may have changed: the old one's key goes if no other workflow needs it.
  await deps.routes.afterChange();
}

/** Enables (its trigger routed before the commit) or disables (unrouted after) one workflow. */
export async function switchWorkflow(deps: Pick<WorkflowWrites, 'pool' | 'routes'>, accountId: number, id: number, enabled: boolean): Promise<void> {
  await withTransaction(deps.pool, async (client) => {
    const trigger = await setWorkflowEnabled(client, accountId, id, enabled);
    if (trigger === undefined) throw notFound('workflow');
    if (enabled) await deps.routes.routeWithin(client, [{ accountId, event: trigger }]);
  });
  if (!enabled) await deps.routes.afterChange();
}
