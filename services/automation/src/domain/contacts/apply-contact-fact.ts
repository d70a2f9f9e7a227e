import type { contactCreatedV1, contactDeletedV1, contactUpdatedV1, GroupCommit, MessageOf, Pool } from '@mailer/shared';
import { markContactDeleted, type SnapshotFact } from '../../data-access/contacts.repository';

export type ContactFact =
  | { type: 'contact.created.v1'; payload: MessageOf<typeof contactCreatedV1> }
  | { type: 'contact.updated.v1'; payload: MessageOf<typeof contactUpdatedV1> }
  | { type: 'contact.deleted.v1'; payload: MessageOf<typeof contactDeletedV1> };

export interface ContactFactDeps {
  pool: Pool;
  /** Writes the snapshots handed to it together (one statement for those that arrive while one is written). */
  snapshots: GroupCommit<SnapshotFact>;
}

/** Keeps the projection current; idempotent and order-safe through each fact's `occurred_at`. */
export async function applyContactFact(deps: ContactFactDeps, fact: ContactFact): Promise<void> {
  if (fact.type === 'contact.deleted.v1') {
    const { account_id, contact_id, email, occurred_at } = fact.payload;
    await markContactDeleted(deps.pool, account_id, contact_id, email, occurred_at);
    return;
  }
  await deps.snapshots.add({ accountId: fact.payload.account_id, contact: fact.payload.contact, factAt: fact.payload.occurred_at });
}
