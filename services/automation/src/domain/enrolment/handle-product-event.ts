import { withTransaction, type MessageOf, type Pool, type productEventEnrichedV1 } from '@mailer/shared';
import { applyContactSnapshot } from '../../data-access/contacts.repository';
import { recordDelivery } from '../../data-access/delivery-log.repository';
import { enrolContact } from '../../data-access/enrolment.repository';
import { markProcessed } from '../../data-access/inbox.repository';
import { workflowsTriggeredBy } from '../../data-access/workflows.repository';
import type { ImmediateSend } from '../sending/prepare-email';
import { stepMessageId } from '../sending/message-id';
import { describeCondition, firstFailedCondition } from '../workflows/match-conditions';
import { nextEmailStep } from './next-email-step';

export type EnrichedEvent = MessageOf<typeof productEventEnrichedV1>;

export interface EnrolmentOptions {
  mailDomain: string;
  /**
   * Asked once per new enrolment whose first email is due now: the scheduler instance that will
   * send it right after commit (and its lease), or undefined to leave the row for the scheduler.
   */
  claimNow: () => { instance: string; leaseMs: number } | undefined;
}

export interface EnrolmentOutcome {
  enrolled: number;
  /** First steps claimed in the transaction, with what sending them needs (nothing is read again). */
  immediate: ImmediateSend[];
}

/**
 * One product event (with the contact the contacts service upserted): refresh the projection,
 * match the account's workflows, enrol the contact at most once per workflow and write the first
 * email step's ledger row. All in one transaction with the inbox row, so a redelivery is a no-op.
 * A first step due now may be claimed in the same transaction, so the caller can send it at once.
 */
export async function handleProductEvent(pool: Pool, messageId: string, event: EnrichedEvent, options: EnrolmentOptions): Promise<EnrolmentOutcome> {
  return withTransaction(pool, async (client) => {
    const outcome: EnrolmentOutcome = { enrolled: 0, immediate: [] };
    if (!(await markProcessed(client, messageId))) return outcome;
    const accountId = event.account_id;
    const contactId = event.contact.id;
    const contact = await applyContactSnapshot(client, accountId, event.contact, event.received_at);
    for (const workflow of await workflowsTriggeredBy(client, accountId, event.event)) {
      const failed = firstFailedCondition(workflow.definition.trigger.where, event.properties);
      if (failed) {
        await recordDelivery(client, {
          accountId,
          contactId,
          email: event.contact.email,
          workflowId: workflow.id,
          eventId: event.event_id,
          outcome: 'not_matched',
          reason: `condition not met: ${describeCondition(failed)}`,
        });
        continue;
      }
      const first = nextEmailStep(workflow.definition, -1);
      const firstStep = first && {
        stepId: first.stepId,
        stepIndex: first.stepIndex,
        delayMs: first.delayMs,
        messageId: stepMessageId({ accountId, contactId, workflowId: workflow.id, stepId: first.stepId }, options.mailDomain),
      };
      const { runId, claimed } = await enrolContact(client, {
        accountId,
        contactId,
        email: event.contact.email,
        workflowId: workflow.id,
        eventId: event.event_id,
        eventName: event.event,
        properties: event.properties,
        firstStep,
        claimFor: first?.delayMs === 0 ? options.claimNow() : undefined,
      });
      if (runId === undefined) continue;
      outcome.enrolled++;
      if (claimed) {
        outcome.immediate.push({
          send: claimed,
          loaded: { workflow, contact, run: { event_name: event.event, event_properties: event.properties } },
        });
      }
    }
    return outcome;
  });
}
