import { contactConfirmationRequestedV1, contactConfirmedV1, withTransaction, type MessageOf, type Pool, type PoolClient } from '@mailer/shared';
import { findContact } from '../data-access/contacts.repository';
import { markConfirmed, markPending } from '../data-access/double-opt-in.repository';
import { enqueueMessage } from '../data-access/outbox.repository';
import { claimMessage } from '../data-access/processed-messages.repository';
import { standingSuppression } from '../data-access/suppressions.repository';
import { tagsOf } from '../data-access/tags.repository';
import { contactFacts } from './contact-facts';
import { snapshotOf, withTags, type Contact, type ContactRow } from './contact';

/**
 * Double opt-in (docs/consent.md): a contact just created by an event, an import or the subscribe
 * form, in its creating transaction, becomes pending: not subscribed until the recipient confirms.
 */
export async function startPending<R extends ContactRow>(db: PoolClient, row: R): Promise<R> {
  await markPending(db, row.account_id, row.id);
  return { ...row, subscribed: false, confirmation: 'pending' };
}

/** Asks automation (outbox, same transaction) to send the pending contact its confirmation email. */
export async function requestConfirmation(db: PoolClient, contact: Contact): Promise<void> {
  await enqueueMessage(db, contactConfirmationRequestedV1, {
    account_id: contact.account_id,
    contact: snapshotOf(contact, await standingSuppression(db, contact.account_id, contact.email)),
    occurred_at: new Date().toISOString(),
  });
}

/**
 * The recipient confirmed (the link in the confirmation email): subscribed, with when and from
 * which address, announced as `contact.updated` so automation's projection follows. Only a pending
 * contact changes; a repeated or redelivered confirmation changes nothing.
 */
export async function confirmContact(pool: Pool, messageKey: string, confirmed: MessageOf<typeof contactConfirmedV1>): Promise<'confirmed' | 'unchanged'> {
  return withTransaction(pool, async (db) => {
    if (!(await claimMessage(db, messageKey))) return 'unchanged';
    const changed = await markConfirmed(db, confirmed.account_id, confirmed.contact_id, confirmed.confirmed_at, confirmed.confirmed_from);
    if (!changed) return 'unchanged';
    const row = await findContact(db, confirmed.account_id, confirmed.contact_id);
    if (!row) return 'unchanged';
    await contactFacts.updated(db, withTags(row, (await tagsOf(db, [row.id])).get(row.id)), ['subscribed']);
    return 'confirmed';
  });
}
