import { backoffDelay, isDependencyUnavailable, SERVICE_ATTRIBUTE, sleep, SpanKind, withSpan } from '@mailer/shared';
import { crashPoint } from '../../crash-point';
import { SmtpFailure } from '../../data-access/smtp-mailer';
import type { ClaimedSend } from '../../data-access/sends.repository';
import { recordDelivery } from '../../data-access/delivery-log.repository';
import { RenderError } from '../rendering/render-email';
import type { Finish } from './finish';
import { finishSend, type Recorded } from './finish-send';
import { logSendOutcome } from './log-send-outcome';
import { prepareEmail, type LoadedSend } from './prepare-email';
import type { SendContext } from './send-context';

/**
 * Sends one claimed step. The ledger row (the claim) exists before the SMTP call; the outcome is
 * committed after it. A crash in between leaves the row claimed: when its lease expires another
 * claim re-sends it with the same Message-ID (the one documented duplicate window). Resolves to
 * true when the run's next step is due at once (the scheduler should look for it now).
 */
export async function processSend(ctx: SendContext, send: ClaimedSend, loaded: LoadedSend): Promise<boolean> {
  if (send.previous_state === 'claimed') {
    ctx.logger.warn({ sendId: send.id, messageId: send.message_id, attempt: send.attempts }, 'claim lease expired; re-sending with the same Message-ID');
    await recordDelivery(ctx.pool, {
      accountId: send.account_id,
      contactId: send.contact_id,
      workflowId: send.workflow_id,
      stepId: send.step_id,
      outcome: 'reconciled',
      reason: 'lease expired while claimed (instance crashed or stalled); sending again with the same Message-ID',
      messageId: send.message_id,
    });
  }
  const finish = await attempt(ctx, send, loaded);
  const recorded = await recordWithRetry(ctx, send, finish);
  if (!recorded.recorded) {
    ctx.logger.warn({ sendId: send.id, messageId: send.message_id }, 'claim was taken over before the outcome was recorded');
    return false;
  }
  // Test-only: outcome, outbox row and next step committed; the outbox is not yet published.
  crashPoint('after_ledger_commit');
  logSendOutcome(ctx.logger, send, finish);
  ctx.onFinished?.(finish);
  return recorded.nextDueNow;
}

async function attempt(ctx: SendContext, send: ClaimedSend, loaded: LoadedSend): Promise<Finish> {
  let prepared;
  try {
    prepared = await prepareEmail(ctx, send, loaded);
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    const workflow = loaded.workflow;
    return { outcome: { state: 'failed_permanent', reason: `render_failed: ${error.message}` }, log: 'failed_permanent', workflow };
  }
  if (prepared.kind === 'skip') {
    return { outcome: { state: 'skipped', reason: prepared.reason }, log: 'skipped', workflow: prepared.workflow, email: prepared.contact?.email };
  }
  const { workflow, email } = prepared;
  const subject = email.subject;
  try {
    const response = await smtpSend(ctx, send, email);
    // Test-only: the server accepted the email but "sent" is not committed (the duplicate window).
    crashPoint('after_smtp_accepted');
    return { outcome: { state: 'sent', smtpResponse: response }, log: 'sent', workflow, email: email.to, subject };
  } catch (error) {
    if (!(error instanceof SmtpFailure)) throw error;
    const smtpCode = error.smtpCode;
    if (error.kind === 'bounce') {
      return { smtpCode, outcome: { state: 'failed_permanent', reason: `bounced: ${error.message}`, error: error.message }, log: 'bounced', workflow, email: email.to, subject, bounce: true };
    }
    if (error.kind === 'permanent') {
      return { smtpCode, outcome: { state: 'failed_permanent', reason: `rejected: ${error.message}`, error: error.message }, log: 'failed_permanent', workflow, email: email.to, subject };
    }
    if (send.attempts >= ctx.maxAttempts) {
      // The dead-letter record: the row stays failed_permanent with why, and the log says so.
      return {
        smtpCode,
        outcome: { state: 'failed_permanent', reason: `retries_exhausted after ${send.attempts} attempts: ${error.message}`, error: error.message },
        log: 'failed_permanent',
        workflow,
        email: email.to,
        subject,
      };
    }
    const retryInMs = backoffDelay(send.attempts - 1, ctx.retryInitialMs, ctx.retryMaxMs);
    return {
      smtpCode,
      outcome: { state: 'failed_transient', reason: `retry in ${retryInMs} ms: ${error.message}`, error: error.message, retryInMs },
      log: 'retry_scheduled',
      workflow,
      email: email.to,
      subject,
    };
  }
}

/** The SMTP call in its own span: ids only, never the recipient's address. */
function smtpSend(ctx: SendContext, send: ClaimedSend, email: Parameters<SendContext['mailer']['send']>[0]): Promise<string> {
  const attributes = {
    [SERVICE_ATTRIBUTE]: 'automation',
    'mailer.message_id': send.message_id,
    'mailer.workflow_id': send.workflow_id,
    'mailer.step_id': send.step_id,
    'mailer.account_id': send.account_id,
    'mailer.contact_id': send.contact_id,
  };
  return withSpan('smtp.send', attributes, () => ctx.mailer.send(email), { kind: SpanKind.CLIENT });
}

/**
 * After the SMTP call the outcome must reach the ledger: a passing database outage is waited out
 * (about half a minute), which keeps the crash window, and so the chance of a re-send, small.
 */
async function recordWithRetry(ctx: SendContext, send: ClaimedSend, finish: Finish): Promise<Recorded> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await finishSend(ctx, send, finish);
    } catch (error) {
      if (!isDependencyUnavailable(error) || attempt >= 8) throw error;
      await sleep(backoffDelay(attempt, 250, 8000));
    }
  }
}
