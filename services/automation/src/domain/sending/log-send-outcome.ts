import type { Logger } from 'pino';
import type { ClaimedSend } from '../../data-access/sends.repository';
import type { Finish } from './finish';

/**
 * One line per recorded send outcome, so an operator can follow every email in the logs: sent (with
 * the Message-ID and the server's answer), skipped (with why), failed (with the SMTP code), or a
 * retry (with when). Ids only: the recipient's address stays out of the logs, as it does in traces.
 */
export function logSendOutcome(logger: Logger, send: ClaimedSend, finish: Finish): void {
  const { outcome } = finish;
  const fields = {
    sendId: send.id,
    messageId: send.message_id,
    accountId: send.account_id,
    contactId: send.contact_id,
    workflow: finish.workflow?.name ?? send.workflow_id,
    step: send.step_id,
    attempt: send.attempts,
  };
  switch (outcome.state) {
    case 'sent':
      logger.info({ ...fields, outcome: 'sent', smtpResponse: outcome.smtpResponse }, 'email sent');
      return;
    case 'skipped':
      logger.info({ ...fields, outcome: 'skipped', reason: outcome.reason }, `email skipped: ${outcome.reason ?? 'no reason given'}`);
      return;
    case 'failed_transient': {
      const retryAt = new Date(Date.now() + (outcome.retryInMs ?? 0)).toISOString();
      logger.warn({ ...fields, outcome: 'retry_scheduled', smtpCode: finish.smtpCode, retryAt, error: outcome.error }, `email not accepted; retry at ${retryAt}`);
      return;
    }
    case 'failed_permanent':
      logger.warn(
        { ...fields, outcome: finish.bounce ? 'bounced' : 'failed', smtpCode: finish.smtpCode, reason: outcome.reason },
        finish.bounce ? 'email bounced: the address was rejected' : 'email failed',
      );
      return;
  }
}
