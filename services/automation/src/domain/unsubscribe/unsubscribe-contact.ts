import { contactUnsubscribeRequestedV1, withTransaction, type Pool } from '@mailer/shared';
import { findContact, markUnsubscribedOnce } from '../../data-access/contacts.repository';
import { recordDelivery } from '../../data-access/delivery-log.repository';
import { addToOutbox } from '../../data-access/outbox.repository';
import { countCampaignUnsubscribe } from '../../data-access/campaign-deliveries.repository';
import { markStepUnsubscribe } from '../../data-access/engagement.repository';
import type { UnsubscribeTarget } from './unsubscribe-token';

/**
 * A recipient asked to unsubscribe: the projection changes now (so the next marketing step is
 * skipped even before the contacts service heard of it), and the request to the contacts service
 * is committed in the same transaction (outbox). Idempotent: a repeated click (or a mail scanner
 * posting the one-click target again) finds the contact already unsubscribed and writes nothing.
 */
export async function unsubscribeContact(pool: Pool, target: UnsubscribeTarget): Promise<void> {
  await withTransaction(pool, async (client) => {
    if ((await markUnsubscribedOnce(client, target.accountId, target.contactId)) === 'already') return;
    // The address travels too: the contacts service suppresses it even if the contact is gone by then.
    const email = (await findContact(client, target.accountId, target.contactId))?.email;
    await addToOutbox(client, contactUnsubscribeRequestedV1, {
      account_id: target.accountId,
      contact_id: target.contactId,
      ...(email === undefined ? {} : { email }),
      occurred_at: new Date().toISOString(),
    });
    await recordDelivery(client, { accountId: target.accountId, contactId: target.contactId, outcome: 'unsubscribed', reason: 'unsubscribe link' });
    if (target.campaignId !== undefined) await countCampaignUnsubscribe(client, target.campaignId, target.contactId);
    if (target.workflowId !== undefined && target.stepId !== undefined) {
      await markStepUnsubscribe(client, { accountId: target.accountId, contactId: target.contactId, workflowId: target.workflowId, stepId: target.stepId });
    }
  });
}
