import { AppError, CommonErrorCodes, notFound, validationFailed, type Pool } from '@mailer/shared';
import { insertWorkflow, replaceWorkflow } from '../../data-access/workflows.repository';
import type { EmailRenderer } from '../rendering/render-email';
import { validateWorkflows } from './validate-workflows';
import type { Workflow } from './workflow-schema';

/** One workflow (an object, not a file's array), validated as the import validates it. */
function validateOne(document: unknown, renderer: EmailRenderer): Workflow {
  if (Array.isArray(document)) throw validationFailed(['the form holds one workflow, not a list']);
  const validation = validateWorkflows(document, renderer);
  if (!validation.ok) throw validationFailed(validation.errors);
  return validation.workflows[0]!;
}

const nameTaken = (name: string) => validationFailed([`name: the account already has a workflow named "${name}"`]);

/** Creates a workflow from the app's form: a name already in use is a validation error on `name`. */
export async function createWorkflow(pool: Pool, renderer: EmailRenderer, accountId: number, document: unknown): Promise<{ id: number }> {
  const workflow = validateOne(document, renderer);
  const id = await insertWorkflow(pool, accountId, workflow);
  if (id === undefined) throw nameTaken(workflow.name);
  return { id };
}

/** Replaces one workflow by id (its sends so far stay deduplicated: the id is kept). */
export async function updateWorkflow(pool: Pool, renderer: EmailRenderer, accountId: number, id: number, document: unknown): Promise<void> {
  const workflow = validateOne(document, renderer);
  const result = await replaceWorkflow(pool, accountId, id, workflow);
  if (result === 'missing') throw notFound('workflow');
  if (result === 'name_taken') throw nameTaken(workflow.name);
}

export const workflowNotFound = () => new AppError(CommonErrorCodes.NOT_FOUND, 'workflow not found');
