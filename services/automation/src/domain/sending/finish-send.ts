import { contactBouncedV1, emailSentV1, withTransaction } from '@mailer/shared';
import { markContactFlag } from '../../data-access/contacts.repository';
import { recordDelivery, type LogOutcome } from '../../data-access/delivery-log.repository';
import { addToOutbox } from '../../data-access/outbox.repository';
import { recordOutcome, type ClaimedSend, type SendOutcome } from '../../data-access/sends.repository';
import type { StoredWorkflow } from '../../data-access/workflows.repository';
import { scheduleNextStep } from '../enrolment/schedule-next-step';
import type { SendContext } from './send-context';

export interface Finish {
  outcome: SendOutcome;
  log: LogOutcome;
  workflow: StoredWorkflow | undefined;
  email?: string | undefined;
  /** Set on a 5xx at RCPT: the contact is bounced here and the contacts service is told. */
  bounce?: boolean;
}

/**
 * Records a step's outcome, its log line, the facts it causes (outbox) and, when the step is done
 * (sent, skipped, failed for good), the next step's ledger row: one transaction, and only while
 * this attempt still holds the claim. Returns false when the claim was lost to another instance.
 */
export async function finishSend(ctx: SendContext, send: ClaimedSend, finish: Finish): Promise<boolean> {
  return withTransaction(ctx.pool, async (client) => {
    if (!(await recordOutcome(client, send, finish.outcome))) return false;
    const { state } = finish.outcome;
    const occurredAt = new Date().toISOString();
    if (finish.bounce && finish.email) {
      await markContactFlag(client, send.account_id, send.contact_id, 'bounced');
      await addToOutbox(client, contactBouncedV1, {
        account_id: send.account_id,
        email: finish.email,
        reason: finish.outcome.reason ?? 'rejected',
        occurred_at: occurredAt,
      });
    }
    if ((state === 'sent' || state === 'failed_permanent') && finish.workflow) {
      await addToOutbox(client, emailSentV1, {
        account_id: send.account_id,
        contact_id: send.contact_id,
        workflow: finish.workflow.name,
        step: send.step_id,
        message_id: send.message_id,
        outcome: state === 'sent' ? 'sent' : 'failed',
        occurred_at: occurredAt,
      });
    }
    await recordDelivery(client, {
      accountId: send.account_id,
      contactId: send.contact_id,
      email: finish.email,
      workflowId: send.workflow_id,
      stepId: send.step_id,
      outcome: finish.log,
      reason: finish.outcome.reason ?? finish.outcome.smtpResponse,
      messageId: send.message_id,
    });
    if (state !== 'failed_transient' && finish.workflow) {
      const position = finish.workflow.definition.steps.findIndex((step) => step.id === send.step_id);
      await scheduleNextStep(
        client,
        { runId: send.run_id, accountId: send.account_id, contactId: send.contact_id, workflowId: send.workflow_id },
        finish.workflow.definition,
        position >= 0 ? position : send.step_index,
        ctx.mailDomain,
      );
    }
    return true;
  });
}
