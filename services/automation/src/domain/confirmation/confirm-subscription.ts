import { contactConfirmedV1, withTransaction, type Pool } from '@mailer/shared';
import { recordDelivery } from '../../data-access/delivery-log.repository';
import { addToOutbox } from '../../data-access/outbox.repository';
import type { ConfirmationTarget } from './confirmation-token';

/**
 * The recipient confirmed through the link: the consent record (when, from which address) goes to
 * the contacts service, which owns `subscribed` and applies it once; the log says so here.
 */
export async function confirmSubscription(pool: Pool, target: ConfirmationTarget, from: string): Promise<void> {
  await withTransaction(pool, async (client) => {
    await addToOutbox(client, contactConfirmedV1, {
      account_id: target.accountId,
      contact_id: target.contactId,
      confirmed_at: new Date().toISOString(),
      confirmed_from: from,
    });
    await recordDelivery(client, { accountId: target.accountId, contactId: target.contactId, outcome: 'confirmed', reason: 'confirmation link' });
  });
}
