import { withTransaction, type Pool } from '@mailer/shared';
import { findContact, findContactByEmail, updateContact } from '../data-access/contacts.repository';
import { claimMessage } from '../data-access/processed-messages.repository';
import { tagsOf } from '../data-access/tags.repository';
import type { PoolClient } from '@mailer/shared';
import { contactFacts } from './contact-facts';
import { withTags, type ContactRow } from './contact';

async function announce(db: PoolClient, row: ContactRow, changed: string[]) {
  const contact = withTags(row, (await tagsOf(db, [row.id])).get(row.id));
  await contactFacts.updated(db, contact, changed);
}

/**
 * A permanent delivery failure: the contact is bounced from now on. A duplicate message, an
 * unknown address or an already bounced contact changes nothing.
 */
export async function markBounced(
  pool: Pool,
  messageKey: string,
  fact: { account_id: number; email: string },
) {
  await withTransaction(pool, async (db) => {
    if (!(await claimMessage(db, messageKey))) return;
    const row = await findContactByEmail(db, fact.account_id, fact.email, { forUpdate: true });
    if (!row || row.bounced) return;
    await announce(db, await updateContact(db, fact.account_id, row.id, { bounced: true }), ['bounced']);
  });
}

/** The recipient asked to unsubscribe: subscribed becomes false, once. */
export async function markUnsubscribed(
  pool: Pool,
  messageKey: string,
  fact: { account_id: number; contact_id: number },
) {
  await withTransaction(pool, async (db) => {
    if (!(await claimMessage(db, messageKey))) return;
    const row = await findContact(db, fact.account_id, fact.contact_id, { forUpdate: true });
    if (!row || !row.subscribed) return;
    await announce(db, await updateContact(db, fact.account_id, row.id, { subscribed: false }), [
      'subscribed',
    ]);
  });
}
