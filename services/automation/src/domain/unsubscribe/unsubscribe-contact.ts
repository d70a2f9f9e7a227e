import { contactUnsubscribeRequestedV1, withTransaction, type Pool } from '@mailer/shared';
import { markContactFlag } from '../../data-access/contacts.repository';
import { recordDelivery } from '../../data-access/delivery-log.repository';
import { addToOutbox } from '../../data-access/outbox.repository';
import type { UnsubscribeTarget } from './unsubscribe-token';

/**
 * A recipient asked to unsubscribe: the projection changes now (so the next marketing step is
 * skipped even before the contacts service heard of it), and the request to the contacts service
 * is committed in the same transaction (outbox).
 */
export async function unsubscribeContact(pool: Pool, target: UnsubscribeTarget): Promise<void> {
  await withTransaction(pool, async (client) => {
    await markContactFlag(client, target.accountId, target.contactId, 'unsubscribed');
    await addToOutbox(client, contactUnsubscribeRequestedV1, {
      account_id: target.accountId,
      contact_id: target.contactId,
      occurred_at: new Date().toISOString(),
    });
    await recordDelivery(client, { accountId: target.accountId, contactId: target.contactId, outcome: 'unsubscribed', reason: 'unsubscribe link' });
  });
}
