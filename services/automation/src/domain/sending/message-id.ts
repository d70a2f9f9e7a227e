import { createHash } from 'node:crypto';

/**
 * The Message-ID of a step's email, the same on every attempt and every instance, so a re-send
 * after a crash is recognisable as the same message (and deduplicated by receivers that do).
 */
export function stepMessageId(step: { accountId: number; contactId: number; workflowId: number; stepId: string }, domain: string): string {
  const digest = createHash('sha256')
    .update(`${step.accountId}:${step.contactId}:${step.workflowId}:${step.stepId}`)
    .digest('hex')
    .slice(0, 40);
  return `<${digest}@${domain}>`;
}
