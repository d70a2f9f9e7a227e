import { contactCreatedV1, contactDeletedV1, contactUpdatedV1 } from '@mailer/shared';
import { enqueueMessage } from '../data-access/outbox.repository';
import type { Queryable } from '../data-access/queryable';
import { standingSuppression } from '../data-access/suppressions.repository';
import { snapshotOf, type Contact } from './contact';

/** The snapshot as of this transaction: suppression read here, so a fact never contradicts the list. */
const snapshotNow = async (db: Queryable, contact: Contact) =>
  snapshotOf(contact, await standingSuppression(db, contact.account_id, contact.email));

/** The facts a contact change announces, written to the outbox in the change's own transaction. */
export const contactFacts = {
  created: async (db: Queryable, contact: Contact) =>
    enqueueMessage(db, contactCreatedV1, {
      account_id: contact.account_id,
      contact: await snapshotNow(db, contact),
      occurred_at: contact.created_at.toISOString(),
    }),
  updated: async (db: Queryable, contact: Contact, changed: string[]) =>
    enqueueMessage(db, contactUpdatedV1, {
      account_id: contact.account_id,
      contact: await snapshotNow(db, contact),
      changed,
      occurred_at: contact.updated_at.toISOString(),
    }),
  deleted: (db: Queryable, accountId: number, contact: { id: number; email: string }) =>
    enqueueMessage(db, contactDeletedV1, {
      account_id: accountId,
      contact_id: contact.id,
      email: contact.email,
      occurred_at: new Date().toISOString(),
    }),
};
