import { withTransaction, type Pool } from '@mailer/shared';
import { findContact, findContactByEmail, updateContact } from '../data-access/contacts.repository';
import { claimMessage } from '../data-access/processed-messages.repository';
import { suppressAddress } from '../data-access/suppressions.repository';
import { tagsOf } from '../data-access/tags.repository';
import type { PoolClient } from '@mailer/shared';
import { contactFacts } from './contact-facts';
import { withTags, type ContactRow } from './contact';

async function announce(db: PoolClient, row: ContactRow, changed: string[]) {
  const contact = withTags(row, (await tagsOf(db, [row.id])).get(row.id));
  await contactFacts.updated(db, contact, changed);
}

/**
 * A permanent delivery failure: the address is suppressed (even if its contact is gone) and the
 * contact is bounced from now on. A duplicate message changes nothing.
 */
export async function markBounced(
  pool: Pool,
  messageKey: string,
  fact: { account_id: number; email: string },
) {
  await withTransaction(pool, async (db) => {
    if (!(await claimMessage(db, messageKey))) return;
    const suppressed = await suppressAddress(db, fact.account_id, fact.email, 'bounced', 'smtp_bounce');
    const row = await findContactByEmail(db, fact.account_id, fact.email, { forUpdate: true });
    if (!row) return;
    if (!row.bounced) {
      await announce(db, await updateContact(db, fact.account_id, row.id, { bounced: true }), ['bounced']);
    } else if (suppressed) await announce(db, row, ['suppression']);
  });
}

/**
 * The recipient asked to unsubscribe (link or one-click): the address is suppressed, even when the
 * contact was deleted since the email went out, and subscribed becomes false. Once per message.
 */
export async function markUnsubscribed(
  pool: Pool,
  messageKey: string,
  fact: { account_id: number; contact_id: number; email?: string | undefined },
) {
  await withTransaction(pool, async (db) => {
    if (!(await claimMessage(db, messageKey))) return;
    const row = await findContact(db, fact.account_id, fact.contact_id, { forUpdate: true });
    const email = row?.email ?? fact.email;
    const suppressed = email !== undefined && (await suppressAddress(db, fact.account_id, email, 'unsubscribed', 'unsubscribe_link'));
    if (!row) return;
    if (row.subscribed) {
      await announce(db, await updateContact(db, fact.account_id, row.id, { subscribed: false }), ['subscribed']);
    } else if (suppressed) await announce(db, row, ['suppression']);
  });
}
