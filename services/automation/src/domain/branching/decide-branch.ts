import { withTransaction } from '@mailer/shared';
import { lockClickedEmail, waitForClick } from '../../data-access/branches.repository';
import type { ClaimedSend } from '../../data-access/sends.repository';
import type { StoredWorkflow } from '../../data-access/workflows.repository';
import type { SendContext } from '../sending/send-context';
import type { BranchStep } from '../workflows/workflow-schema';
import { verdictOf } from './branch-paths';
import { takeBranch } from './take-branch';

/**
 * A claimed branch row (the run reached the branch, or its wait for a click ended): decided in one
 * transaction with its email's row locked, so a click being recorded is seen rather than raced.
 * Clicked within the time → then at once; the deadline still ahead → the row waits for it (a click
 * meanwhile wakes it: after-workflow-click); else → else. Resolves to true when the step the run
 * goes on at is due now.
 */
export async function decideBranch(ctx: SendContext, send: ClaimedSend, workflow: StoredWorkflow, step: BranchStep): Promise<boolean> {
  return withTransaction(ctx.pool, async (client) => {
    const verdict = verdictOf(step, await lockClickedEmail(client, send, step.if.clicked));
    if (verdict.side === 'wait') {
      const waiting = await waitForClick(client, send, send.attempts, verdict.until, verdict.why);
      ctx.logger.info({ sendId: send.id, stepId: send.step_id, until: verdict.until, waiting }, 'branch waits for a click');
      return false;
    }
    const taken = await takeBranch(client, ctx.mailDomain, {
      branch: send,
      fence: { claimedAttempt: send.attempts },
      workflow,
      stopBefore: send.stop_before ?? null,
      side: verdict.side,
      why: verdict.why,
    });
    ctx.logger.info({ sendId: send.id, stepId: send.step_id, side: verdict.side, taken: taken.taken }, 'branch decided');
    return taken.nextDueNow;
  });
}
