import { notFound, withTransaction, type Pool } from '@mailer/shared';
import { deleteContact } from '../data-access/contacts.repository';
import { contactFacts } from './contact-facts';

/** Deletes the contact (its tag links go with it) and announces it in the same transaction. */
export async function removeContact(pool: Pool, accountId: number, id: number): Promise<void> {
  await withTransaction(pool, async (db) => {
    const deleted = await deleteContact(db, accountId, id);
    if (!deleted) throw notFound('contact');
    await contactFacts.deleted(db, accountId, deleted);
  });
}
