import { notFound, withTransaction } from '@mailer/shared';
import { findContact } from '../data-access/contacts.repository';
import { detachTag, tagsOf } from '../data-access/tags.repository';
import { contactFacts } from './contact-facts';
import { withTags, type Contact } from './contact';
import type { ContactUseCaseDeps } from './create-contact';

/**
 * Takes one tag off a contact (the interface only adds tags; the app and the CLI may remove one).
 * The tag itself stays in the account. A tag the contact does not have changes nothing and
 * announces nothing; a removal is a `contact.updated.v1` with `tags` changed, in the same transaction.
 */
export async function removeContactTag(deps: Pick<ContactUseCaseDeps, 'pool'>, accountId: number, id: number, tag: string): Promise<Contact> {
  return withTransaction(deps.pool, async (db) => {
    const row = await findContact(db, accountId, id, { forUpdate: true });
    if (!row) throw notFound('contact');
    const removed = await detachTag(db, accountId, id, tag);
    const contact = withTags(row, (await tagsOf(db, [id])).get(id));
    if (removed) await contactFacts.updated(db, contact, ['tags']);
    return contact;
  });
}
