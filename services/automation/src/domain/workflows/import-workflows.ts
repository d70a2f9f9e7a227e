import { validationFailed, withTransaction } from '@mailer/shared';
import { upsertWorkflow } from '../../data-access/workflows.repository';
import { validateWorkflows } from './validate-workflows';
import type { WorkflowWrites } from './workflow-writes';

export interface ImportedWorkflow {
  id: number;
  name: string;
  trigger: string;
  steps: number;
  replaced: boolean;
}

/**
 * Imports a validated file in one transaction: all of it, or (with every problem listed) none of
 * it. Its triggers are routed before the commit; a replaced workflow's old trigger is unbound after.
 */
export async function importWorkflows(deps: WorkflowWrites, accountId: number, document: unknown): Promise<ImportedWorkflow[]> {
  const validation = validateWorkflows(document, deps.renderer);
  if (!validation.ok) throw validationFailed(validation.errors);
  const imported = await withTransaction(deps.pool, async (client) => {
    const written: ImportedWorkflow[] = [];
    for (const workflow of validation.workflows) {
      const { id, replaced } = await upsertWorkflow(client, accountId, workflow);
      written.push({ id, name: workflow.name, trigger: workflow.trigger.event, steps: workflow.steps.length, replaced });
    }
    await deps.routes.routeWithin(client, written.map((workflow) => ({ accountId, event: workflow.trigger })));
    return written;
  });
  if (imported.some((workflow) => workflow.replaced)) await deps.routes.afterChange();
  return imported;
}
