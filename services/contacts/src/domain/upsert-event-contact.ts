import {
  PoisonMessageError,
  productEventEnrichedV1,
  withTransaction,
  type MessageOf,
  type Pool,
  type PoolClient,
} from '@mailer/shared';
import type { productEventReceivedV1 } from '@mailer/shared';
import {
  findContactByEmail,
  insertContactIfAbsent,
  updateContact,
  type ContactChanges,
} from '../data-access/contacts.repository';
import { enqueueMessage } from '../data-access/outbox.repository';
import { claimMessage } from '../data-access/processed-messages.repository';
import { tagsOf } from '../data-access/tags.repository';
import { contactFacts } from './contact-facts';
import { snapshotOf, withTags, type ContactRow } from './contact';
import { isWellFormedEmail } from './email-format';

type ProductEvent = MessageOf<typeof productEventReceivedV1>;

const MAX_NAME_LENGTH = 255;

/** A usable name from the event's properties, or undefined. */
function nameFrom(properties: Record<string, unknown>, key: 'first_name' | 'last_name'): string | undefined {
  const value = properties[key];
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return name.length > 0 && name.length <= MAX_NAME_LENGTH ? name : undefined;
}

/** The contact the event names, created (source "event", subscribed) or with missing names filled. */
async function upsertContact(
  db: PoolClient,
  event: ProductEvent,
): Promise<{ row: ContactRow; changed: string[] | 'created' }> {
  const names = {
    first_name: nameFrom(event.properties, 'first_name'),
    last_name: nameFrom(event.properties, 'last_name'),
  };
  const existing = await findContactByEmail(db, event.account_id, event.email, { forUpdate: true });
  if (!existing) {
    const created = await insertContactIfAbsent(db, event.account_id, {
      email: event.email,
      first_name: names.first_name ?? null,
      last_name: names.last_name ?? null,
      subscribed: true,
      source: 'event',
      custom_properties: {},
    });
    if (created) return { row: created, changed: 'created' };
    // Another transaction created it since we looked: fall through to the update path.
    return upsertContact(db, event);
  }
  const changes: ContactChanges = {};
  const changed: string[] = [];
  for (const field of ['first_name', 'last_name'] as const) {
    const name = names[field];
    if (name && !existing[field]) {
      changes[field] = name;
      changed.push(field);
    }
  }
  if (changed.length === 0) return { row: existing, changed };
  return { row: await updateContact(db, event.account_id, existing.id, changes), changed };
}

/**
 * A product event: upsert its contact and re-publish the event with the contact's snapshot, all in
 * one transaction with the inbox row, so a redelivered event does nothing twice. The domain is not
 * checked by DNS here (the events API already accepted the event); a malformed address is poison.
 */
export async function upsertEventContact(pool: Pool, messageKey: string, event: ProductEvent): Promise<void> {
  if (!isWellFormedEmail(event.email))
    throw new PoisonMessageError('product event names a malformed email address');
  await withTransaction(pool, async (db) => {
    if (!(await claimMessage(db, messageKey))) return;
    const { row, changed } = await upsertContact(db, event);
    const contact = withTags(row, (await tagsOf(db, [row.id])).get(row.id));
    if (changed === 'created') await contactFacts.created(db, contact);
    else if (changed.length > 0) await contactFacts.updated(db, contact, changed);
    await enqueueMessage(db, productEventEnrichedV1, { ...event, contact: snapshotOf(contact) });
  });
}
