import { randomUUID } from 'node:crypto';
import {
  campaignSentV1,
  contactBouncedV1,
  contactCreatedV1,
  contactDeletedV1,
  contactUpdatedV1,
  emailSentV1,
  workflowCompletedV1,
  type Broker,
} from '@mailer/shared';

const at = '2026-01-02T03:04:05.000Z';

const contact = (id: number, subscribed = true) => ({
  id,
  email: `c${id}@example.test`,
  first_name: 'Ada',
  last_name: null,
  subscribed,
  bounced: false,
  tags: ['vip'],
  custom_properties: { plan: 'pro' },
  suppression: null,
});

/** Publishes one fact of each kind for `accountId`, as the owning services do; returns their message ids. */
export async function publishOneOfEach(broker: Broker, accountId: number): Promise<string[]> {
  const ids: string[] = [];
  const publish = async <C extends Parameters<Broker['publish']>[0]>(contract: C, payload: Parameters<Broker['publish']>[1]) => {
    const messageId = randomUUID();
    ids.push(messageId);
    await broker.publish(contract, payload as never, { messageId });
  };
  await publish(contactCreatedV1, { account_id: accountId, contact: contact(1), occurred_at: at });
  await publish(contactUpdatedV1, { account_id: accountId, contact: contact(1, false), changed: ['subscribed'], occurred_at: at });
  await publish(contactDeletedV1, { account_id: accountId, contact_id: 1, email: 'c1@example.test', occurred_at: at });
  await publish(emailSentV1, { account_id: accountId, contact_id: 1, workflow: 'Welcome', step: 'hello', message_id: '<a@x>', outcome: 'sent', occurred_at: at });
  await publish(emailSentV1, { account_id: accountId, contact_id: 1, workflow: 'Welcome', step: 'later', message_id: '<b@x>', outcome: 'failed', occurred_at: at });
  await publish(contactBouncedV1, { account_id: accountId, email: 'c1@example.test', reason: '550 no such user', occurred_at: at });
  await publish(campaignSentV1, { account_id: accountId, campaign_id: 7, name: 'News', total_recipients: 3, sent: 2, failed: 1, skipped: 0, sent_at: at });
  await publish(workflowCompletedV1, { account_id: accountId, contact_id: 1, workflow: 'Welcome', last_step: 'later', last_step_outcome: 'failed', occurred_at: at });
  return ids;
}

export const contactCreatedFact = (accountId: number, id = 1) => ({ account_id: accountId, contact: contact(id), occurred_at: at });
