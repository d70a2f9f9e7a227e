import { validationFailed, withTransaction, type Pool } from '@mailer/shared';
import { upsertWorkflow } from '../../data-access/workflows.repository';
import type { EmailRenderer } from '../rendering/render-email';
import { validateWorkflows } from './validate-workflows';

export interface ImportedWorkflow {
  id: number;
  name: string;
  trigger: string;
  steps: number;
  replaced: boolean;
}

/** Imports a validated file in one transaction: all of it, or (with every problem listed) none of it. */
export async function importWorkflows(pool: Pool, renderer: EmailRenderer, accountId: number, document: unknown): Promise<ImportedWorkflow[]> {
  const validation = validateWorkflows(document, renderer);
  if (!validation.ok) throw validationFailed(validation.errors);
  return withTransaction(pool, async (client) => {
    const imported: ImportedWorkflow[] = [];
    for (const workflow of validation.workflows) {
      const { id, replaced } = await upsertWorkflow(client, accountId, workflow);
      imported.push({ id, name: workflow.name, trigger: workflow.trigger.event, steps: workflow.steps.length, replaced });
    }
    return imported;
  });
}
