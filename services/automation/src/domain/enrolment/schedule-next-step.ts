import type { PoolClient } from '@mailer/shared';
import { scheduleStep } from '../../data-access/sends.repository';
import type { Workflow } from '../workflows/workflow-schema';
import { stepMessageId } from '../sending/message-id';
import { nextEmailStep } from './next-email-step';

export interface RunPosition {
  runId: number;
  accountId: number;
  contactId: number;
  workflowId: number;
}

/** Writes the ledger row of the run's next email step (due after the waits before it), if any. */
export async function scheduleNextStep(client: PoolClient, run: RunPosition, workflow: Workflow, after: number, mailDomain: string): Promise<void> {
  const next = nextEmailStep(workflow, after);
  if (!next) return;
  await scheduleStep(client, {
    ...run,
    stepId: next.stepId,
    stepIndex: next.stepIndex,
    delayMs: next.delayMs,
    messageId: stepMessageId({ ...run, stepId: next.stepId }, mailDomain),
  });
}
