import { withTransaction, type MessageOf, type Pool, type productEventEnrichedV1 } from '@mailer/shared';
import { applyContactSnapshot } from '../../data-access/contacts.repository';
import { recordDelivery } from '../../data-access/delivery-log.repository';
import { markProcessed } from '../../data-access/inbox.repository';
import { enrol } from '../../data-access/runs.repository';
import { workflowsTriggeredBy } from '../../data-access/workflows.repository';
import { describeCondition, firstFailedCondition } from '../workflows/match-conditions';
import { scheduleNextStep } from './schedule-next-step';

export type EnrichedEvent = MessageOf<typeof productEventEnrichedV1>;

/**
 * One product event (with the contact the contacts service upserted): refresh the projection,
 * match the account's workflows, enrol the contact at most once per workflow and write the first
 * email step's ledger row. All in one transaction with the inbox row, so a redelivery is a no-op.
 * Resolves to the number of new enrolments (the caller wakes the scheduler).
 */
export async function handleProductEvent(pool: Pool, messageId: string, event: EnrichedEvent, mailDomain: string): Promise<number> {
  return withTransaction(pool, async (client) => {
    if (!(await markProcessed(client, messageId))) return 0;
    const accountId = event.account_id;
    const contactId = event.contact.id;
    await applyContactSnapshot(client, accountId, event.contact, event.received_at);
    let enrolled = 0;
    for (const workflow of await workflowsTriggeredBy(client, accountId, event.event)) {
      const entry = { accountId, contactId, email: event.contact.email, workflowId: workflow.id, eventId: event.event_id };
      const failed = firstFailedCondition(workflow.definition.trigger.where, event.properties);
      if (failed) {
        await recordDelivery(client, { ...entry, outcome: 'not_matched', reason: `condition not met: ${describeCondition(failed)}` });
        continue;
      }
      const runId = await enrol(client, {
        accountId,
        contactId,
        workflowId: workflow.id,
        eventId: event.event_id,
        eventName: event.event,
        properties: event.properties,
      });
      if (runId === undefined) {
        await recordDelivery(client, { ...entry, outcome: 'already_enrolled', reason: 'each step is sent once per contact' });
        continue;
      }
      await scheduleNextStep(client, { runId, accountId, contactId, workflowId: workflow.id }, workflow.definition, -1, mailDomain);
      await recordDelivery(client, { ...entry, outcome: 'enrolled' });
      enrolled++;
    }
    return enrolled;
  });
}
