import type { Pool } from '@mailer/shared';
import { workflowStepFigures, type StepFigures, type StepStats } from '../../data-access/engagement-reads.repository';
import { findAccountWorkflow } from '../../data-access/workflows.repository';

const none = (): StepStats => ({ sent: 0, opened: 0, clicked: 0, unsubscribed: 0 });

/**
 * A workflow's figures per email step, in the steps' order, zeros for a step nothing was sent by
 * lately; undefined when the account has no such workflow. A step removed from the workflow is
 * left out, even if it sent emails.
 */
export async function workflowStepStats(pool: Pool, accountId: number, workflowId: number): Promise<StepFigures[] | undefined> {
  const workflow = await findAccountWorkflow(pool, accountId, workflowId);
  if (!workflow) return undefined;
  const figures = new Map((await workflowStepFigures(pool, accountId, workflowId)).map((row) => [row.step_id, row]));
  return workflow.definition.steps
    .filter((step) => step.type === 'email')
    .map((step) => figures.get(step.id) ?? { step_id: step.id, last_7_days: none(), last_30_days: none() });
}
