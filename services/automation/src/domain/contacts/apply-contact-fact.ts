import type { contactCreatedV1, contactDeletedV1, contactUpdatedV1, MessageOf, Pool } from '@mailer/shared';
import { applyContactSnapshot, markContactDeleted } from '../../data-access/contacts.repository';

export type ContactFact =
  | { type: 'contact.created.v1'; payload: MessageOf<typeof contactCreatedV1> }
  | { type: 'contact.updated.v1'; payload: MessageOf<typeof contactUpdatedV1> }
  | { type: 'contact.deleted.v1'; payload: MessageOf<typeof contactDeletedV1> };

/** Keeps the projection current; idempotent and order-safe through each fact's `occurred_at`. */
export async function applyContactFact(pool: Pool, fact: ContactFact): Promise<void> {
  if (fact.type === 'contact.deleted.v1') {
    const { account_id, contact_id, email, occurred_at } = fact.payload;
    await markContactDeleted(pool, account_id, contact_id, email, occurred_at);
    return;
  }
  await applyContactSnapshot(pool, fact.payload.account_id, fact.payload.contact, fact.payload.occurred_at);
}
