import { randomUUID } from 'node:crypto';
import type { Broker } from '@mailer/shared';
import { WEBHOOK_FACTS, type WebhookFact } from '../../src/domain/webhooks-of-fact';

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

/**
 * One fact of each kind for `accountId`, as the owning services publish them, covering every
 * webhook event type: an update that unsubscribes, and an email sent and one failed.
 */
export function factsOfEveryKind(accountId: number): WebhookFact[] {
  return [
    { type: 'contact.created.v1', payload: { account_id: accountId, contact: contact(1), occurred_at: at } },
    { type: 'contact.updated.v1', payload: { account_id: accountId, contact: contact(1, false), changed: ['subscribed'], occurred_at: at } },
    { type: 'contact.deleted.v1', payload: { account_id: accountId, contact_id: 1, email: 'c1@example.test', occurred_at: at } },
    { type: 'email.sent.v1', payload: { account_id: accountId, contact_id: 1, workflow: 'Welcome', step: 'hello', message_id: '<a@x>', outcome: 'sent', occurred_at: at } },
    { type: 'email.sent.v1', payload: { account_id: accountId, contact_id: 1, workflow: 'Welcome', step: 'later', message_id: '<b@x>', outcome: 'failed', occurred_at: at } },
    { type: 'contact.bounced.v1', payload: { account_id: accountId, email: 'c1@example.test', reason: '550 no such user', occurred_at: at } },
    {
      type: 'email.opened.v1',
      payload: { hit_id: randomUUID(), account_id: accountId, contact_id: 1, campaign_id: 7, sent_at: at, occurred_at: at, machine: false },
    },
    {
      type: 'email.clicked.v1',
      payload: { hit_id: randomUUID(), account_id: accountId, contact_id: 1, workflow_id: 3, step: 'hello', sent_at: at, occurred_at: at, machine: true, url: 'https://example.test/a', link: 0 },
    },
    { type: 'campaign.sent.v1', payload: { account_id: accountId, campaign_id: 7, name: 'News', total_recipients: 3, sent: 2, failed: 1, skipped: 0, sent_at: at } },
    { type: 'workflow.completed.v1', payload: { account_id: accountId, contact_id: 1, workflow: 'Welcome', last_step: 'later', last_step_outcome: 'failed', occurred_at: at } },
  ];
}

/** Publishes `factsOfEveryKind`, as the owning services do; returns their message ids. */
export async function publishOneOfEach(broker: Broker, accountId: number): Promise<string[]> {
  const ids: string[] = [];
  for (const fact of factsOfEveryKind(accountId)) {
    const contract = WEBHOOK_FACTS.find((candidate) => candidate.type === fact.type)!;
    const messageId = randomUUID();
    ids.push(messageId);
    await broker.publish(contract, fact.payload as never, { messageId });
  }
  return ids;
}

export const contactCreatedFact = (accountId: number, id = 1) => ({ account_id: accountId, contact: contact(id), occurred_at: at });
