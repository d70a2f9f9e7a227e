import type { contactConfirmationRequestedV1, MessageOf, Pool } from '@mailer/shared';
import { findConfirmationTemplate } from '../../data-access/confirmation-templates.repository';
import { enrolFromEvent } from '../../data-access/enrolment.repository';
import { stepMessageId } from '../sending/message-id';
import { confirmationUrl, signConfirmationToken } from './confirmation-token';
import { CONFIRMATION_STEP, confirmationWorkflow, DEFAULT_CONFIRMATION } from './confirmation-workflow';

export interface ConfirmationDeps {
  pool: Pool;
  mailDomain: string;
  publicBaseUrl: string;
  linkSecret: string;
  leaseMs: number;
}

/**
 * A pending contact's confirmation email: the contact is enrolled in the account's confirmation
 * workflow (written from its template now, so an edit applies to the next request) with the
 * confirm link as the run's property, and the send scheduler sends it like any step: one ledger
 * row, the pre-send check, retries, the log. Once per contact, ever (the ledger's rule); a
 * redelivered request changes nothing (the inbox row).
 */
export async function requestConfirmation(deps: ConfirmationDeps, messageId: string, request: MessageOf<typeof contactConfirmationRequestedV1>): Promise<void> {
  const accountId = request.account_id;
  const template = (await findConfirmationTemplate(deps.pool, accountId)) ?? DEFAULT_CONFIRMATION;
  const { id: workflowId } = await confirmationWorkflow(deps.pool, accountId, template);
  const token = signConfirmationToken({ accountId, contactId: request.contact.id }, deps.linkSecret);
  await enrolFromEvent(deps.pool, {
    messageId: `confirmation:${messageId}`,
    accountId,
    contact: request.contact,
    factAt: request.occurred_at,
    eventId: `confirmation:${messageId}`,
    eventName: 'confirmation_requested',
    properties: { confirm_url: confirmationUrl(deps.publicBaseUrl, token) },
    matched: [
      {
        workflowId,
        firstStep: {
          stepId: CONFIRMATION_STEP,
          stepIndex: 0,
          delayMs: 0,
          messageId: stepMessageId({ accountId, contactId: request.contact.id, workflowId, stepId: CONFIRMATION_STEP }, deps.mailDomain),
        },
      },
    ],
    notMatched: [],
    leaseMs: deps.leaseMs,
  });
}
