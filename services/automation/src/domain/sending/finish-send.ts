import { contactBouncedV1, currentTraceparent, emailSentV1, GroupCommit, workflowCompletedV1, type Pool } from '@mailer/shared';
import { outboxFact, type OutboxFact } from '../../data-access/outbox.repository';
import { recordSendOutcomes, type NextStepRow } from '../../data-access/send-outcome.repository';
import type { ClaimedSend } from '../../data-access/sends.repository';
import { nextStep } from '../enrolment/next-step';
import { stepMessageId } from './message-id';
import type { Finish } from './finish';
import type { SendContext, SendOutcomeWriter } from './send-context';

/** The facts the outcome causes: a bounce for the contacts service, "email sent/failed" for the counters. */
function factsOf(send: ClaimedSend, finish: Finish): OutboxFact[] {
  const facts: OutboxFact[] = [];
  const { state } = finish.outcome;
  const occurredAt = new Date().toISOString();
  if (finish.bounce && finish.email) {
    facts.push(
      outboxFact(contactBouncedV1, {
        account_id: send.account_id,
        email: finish.email,
        reason: finish.outcome.reason ?? 'rejected',
        occurred_at: occurredAt,
      }),
    );
  }
  if ((state === 'sent' || state === 'failed_permanent') && finish.workflow) {
    facts.push(
      outboxFact(emailSentV1, {
        account_id: send.account_id,
        contact_id: send.contact_id,
        workflow: finish.workflow.name,
        step: send.step_id,
        message_id: send.message_id,
        outcome: state === 'sent' ? 'sent' : 'failed',
        occurred_at: occurredAt,
      }),
    );
  }
  return facts;
}

/** "Workflow completed" when this was the run's last email step and its outcome is final. */
function completionOf(send: ClaimedSend, finish: Finish, next: NextStepRow | undefined): OutboxFact[] {
  const { state } = finish.outcome;
  if (next || state === 'failed_transient' || !finish.workflow) return [];
  const outcome = state === 'sent' ? 'sent' : state === 'skipped' ? 'skipped' : 'failed';
  return [
    outboxFact(workflowCompletedV1, {
      account_id: send.account_id,
      contact_id: send.contact_id,
      workflow: finish.workflow.name,
      last_step: send.step_id,
      last_step_outcome: outcome,
      occurred_at: new Date().toISOString(),
    }),
  ];
}

/** The run's next email or branch step once this one is done (sent, skipped, failed for good), on the path the run is on. */
function nextStepOf(ctx: SendContext, send: ClaimedSend, finish: Finish): NextStepRow | undefined {
  if (finish.outcome.state === 'failed_transient' || !finish.workflow) return undefined;
  const definition = finish.workflow.definition;
  const position = definition.steps.findIndex((step) => step.id === send.step_id);
  const next = nextStep(definition, position >= 0 ? position : send.step_index, send.stop_before);
  if (!next) return undefined;
  const messageId = stepMessageId(
    { accountId: send.account_id, contactId: send.contact_id, workflowId: send.workflow_id, stepId: next.stepId },
    ctx.mailDomain,
  );
  return { stepId: next.stepId, stepIndex: next.stepIndex, kind: next.kind, delayMs: next.delayMs, messageId };
}

export type Recorded =
  | { recorded: false }
  /** `nextDueNow`: the next step's row was written due at once (no wait before it). */
  | { recorded: true; nextDueNow: boolean };

const OUTCOMES_PER_STATEMENT = 200;

/**
 * A group commit of outcomes: those finished while a write is in flight go together into the next
 * statement, a lone one is written at the end of its turn. At a thousand emails a second one
 * statement each was a quarter of automation's time, most of it the socket write
 * (docs/performance.md).
 */
export const sendOutcomeWriter = (pool: Pool): SendOutcomeWriter =>
  new GroupCommit((records) => recordSendOutcomes(pool, records), OUTCOMES_PER_STATEMENT);

/**
 * Records a step's outcome, its log line, the facts it causes (outbox) and the next step's ledger
 * row: atomically, together with other outcomes finished meanwhile, and only while this attempt
 * still holds the claim. `recorded` is false when the claim was lost to another instance. A failed
 * write fails every outcome in it; each caller retries its own.
 */
export async function finishSend(ctx: SendContext, send: ClaimedSend, finish: Finish): Promise<Recorded> {
  const next = nextStepOf(ctx, send, finish);
  const recorded = await ctx.outcomes.add({
    send,
    outcome: finish.outcome,
    facts: [...factsOf(send, finish), ...completionOf(send, finish, next)],
    log: { outcome: finish.log, email: finish.email, reason: finish.outcome.reason ?? finish.outcome.smtpResponse },
    subject: finish.subject ?? null,
    next,
    markBounced: Boolean(finish.bounce && finish.email),
    // The statement may be written from another caller's context: each record carries its own trace.
    traceparent: currentTraceparent(),
  });
  return recorded ? { recorded, nextDueNow: next?.delayMs === 0 } : { recorded };
}
