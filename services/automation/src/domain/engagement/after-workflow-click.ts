import type { PoolClient } from '@mailer/shared';
import { waitingBranchesOf } from '../../data-access/branches.repository';
import { findWorkflow } from '../../data-access/workflows.repository';
import { branchStepOf } from '../branching/branch-paths';
import { takeBranch } from '../branching/take-branch';

/**
 * What else a reader's click on a workflow email causes, in the transaction that recorded it
 * (`sendId`: the `sends` row clicked; called on every reader click, never on a machine's): a branch
 * of the same run waiting for a click on this email goes to `then` now, if the click came by its
 * deadline. The branch row is locked, so the deadline's claim skips it or finds it decided. A click
 * after the deadline leaves the branch to the deadline (else).
 */
export async function afterWorkflowClick(client: PoolClient, sendId: number, deps: { mailDomain: string }): Promise<void> {
  for (const waiting of await waitingBranchesOf(client, sendId)) {
    const workflow = await findWorkflow(client, waiting.workflow_id);
    const branch = branchStepOf(workflow, waiting.step_id)?.step;
    if (!workflow || !branch || branch.if.clicked !== waiting.clicked_step) continue;
    if (!waiting.first_clicked_at || waiting.first_clicked_at > waiting.due_at) continue;
    await takeBranch(client, deps.mailDomain, {
      branch: waiting,
      fence: 'waiting',
      workflow,
      stopBefore: waiting.stop_before,
      side: 'then',
      why: `clicked "${branch.if.clicked}" within ${branch.if.within}`,
    });
  }
}
