import { workflowCompletedV1, type PoolClient } from '@mailer/shared';
import { addStepRow, lastEmailOfRun, markBranched, type BranchFence, type BranchRow } from '../../data-access/branches.repository';
import { recordDelivery } from '../../data-access/delivery-log.repository';
import { addToOutbox } from '../../data-access/outbox.repository';
import type { StoredWorkflow } from '../../data-access/workflows.repository';
import { nextStep } from '../enrolment/next-step';
import { stepMessageId } from '../sending/message-id';
import { branchStepOf, pathOf, type Side } from './branch-paths';

const COMPLETED_OUTCOME: Record<string, 'sent' | 'skipped' | 'failed'> = { sent: 'sent', skipped: 'skipped', failed_permanent: 'failed' };

/**
 * Decides a branch for `side`, in the caller's transaction, if `fence` still holds: the row
 * `branched` (the reason names the side and why), the run's path end, a log line, and the ledger
 * row of the step the side goes on at, or "workflow completed" when the run ends here. `taken` is
 * false when the branch was decided by someone else first; nothing is written then.
 */
export async function takeBranch(
  client: PoolClient,
  mailDomain: string,
  input: { branch: BranchRow; fence: BranchFence; workflow: StoredWorkflow; stopBefore: string | null; side: Side; why: string },
): Promise<{ taken: boolean; nextDueNow: boolean }> {
  const { branch, workflow } = input;
  const found = branchStepOf(workflow, branch.step_id);
  const path = found ? pathOf(workflow.definition, found.index, found.step, input.side, input.stopBefore) : undefined;
  const next = path ? nextStep(workflow.definition, path.startIndex - 1, path.stopBefore) : undefined;
  const reason = `${input.side}: ${input.why}${next ? '' : '; the run ends'}`;
  if (!(await markBranched(client, branch, input.fence, reason, path?.stopBefore ?? null))) return { taken: false, nextDueNow: false };
  const ids = { accountId: branch.account_id, contactId: branch.contact_id, workflowId: branch.workflow_id };
  await recordDelivery(client, { ...ids, stepId: branch.step_id, outcome: 'branched', reason });
  if (next) {
    await addStepRow(client, branch, { ...next, messageId: stepMessageId({ ...ids, stepId: next.stepId }, mailDomain) });
    return { taken: true, nextDueNow: next.delayMs === 0 };
  }
  const last = await lastEmailOfRun(client, branch.run_id);
  if (last) {
    await addToOutbox(client, workflowCompletedV1, {
      account_id: branch.account_id,
      contact_id: branch.contact_id,
      workflow: workflow.name,
      last_step: last.step_id,
      last_step_outcome: COMPLETED_OUTCOME[last.state] ?? 'failed',
      occurred_at: new Date().toISOString(),
    });
  }
  return { taken: true, nextDueNow: false };
}
